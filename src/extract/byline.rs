//! A record's byline (forum poster, article author) and its tags or labels,
//! found by the markup conventions sites use for them: microformats and
//! schema.org (`rel="author"`, `itemprop="author"`, `class="p-author"`,
//! `rel="tag"`, `itemprop="keywords"`), and class names with an author- or
//! tag-like word (`author`, `byline`, `poster`, `username`; `tag`, `tags`,
//! `category`, `label`, `topic`).
//!
//! Invariants: pure; the byline is whitespace-collapsed, without a leading
//! "by"/"von"/"par"/"posted by", at most [`MAX_BYLINE_CHARS`] characters
//! (longer text is a sentence, not a name) and never inside the title link;
//! tags are the link texts of a tag container (its own text when it has no
//! links), in page order, without duplicates, at most [`MAX_TAGS`], each
//! at most [`MAX_TAG_CHARS`] characters.

use crate::extract::dom::{
    Document, NodeId, collapse_whitespace, ends_with_ascii_ci, starts_with_ascii_ci,
};
use crate::extract::items::has_part;
use crate::extract::records::Record;

/// Longest byline kept.
pub const MAX_BYLINE_CHARS: usize = 80;
/// Most tags kept per record.
pub const MAX_TAGS: usize = 12;
/// Longest tag kept.
pub const MAX_TAG_CHARS: usize = 48;

/// Class-name words of a byline element.
const AUTHOR_WORDS: &[&str] = &[
    "author",
    "byline",
    "poster",
    "username",
    "user-name",
    "creator",
    "p-author",
    "h-card",
    "submitter",
];
/// Class-name words of a tag container or a single tag.
const TAG_WORDS: &[&str] = &[
    "tag",
    "tags",
    "category",
    "categories",
    "label",
    "labels",
    "topic",
    "topics",
    "p-category",
    "badge",
];

/// The byline and tags of `record`; `title_link` (the element the title
/// came from) is never one of them.
pub fn byline_and_tags(
    doc: &Document,
    record: &Record,
    title_link: Option<NodeId>,
) -> (Option<String>, Vec<String>) {
    let outside_title = |i: NodeId| title_link.is_none_or(|t| !doc.contains(t, i));
    let mut author = None;
    let mut tags: Vec<String> = Vec::new();
    let mut i = record.start;
    while i < record.end {
        let Some(el) = doc.element(i) else {
            i += 1;
            continue;
        };
        let end = subtree_end(doc, i, record.end);
        if !outside_title(i) {
            i += 1;
            continue;
        }
        if author.is_none() && is_author(el) {
            author = clean_byline(&doc.text(i));
            if author.is_some() {
                i = end;
                continue;
            }
        }
        // A button says what it does ("Reply", "1 Reply", a like count),
        // not what the record is about.
        if el.name == "button" {
            i = end;
            continue;
        }
        // A record's own element is no list of its tags, nor is one that
        // holds its title: WordPress classes every post `category-…` and
        // `tag-…`, and its title, byline and date were read as tags.
        let holds_title = || title_link.is_some_and(|t| doc.contains(i, t));
        if is_tag(el) && i != record.start && !holds_title() {
            if !is_no_topic_label(doc, i, el) {
                push_tags(doc, i, end, &mut tags);
            }
            i = end;
            continue;
        }
        i += 1;
    }
    (author, tags)
}

/// First node after the subtree of `id` (bounded by `limit`).
fn subtree_end(doc: &Document, id: NodeId, limit: NodeId) -> NodeId {
    doc.node(id).end.min(limit)
}

/// The whitespace-separated words of an attribute value.
fn words(v: Option<&str>) -> impl Iterator<Item = &str> {
    v.unwrap_or("").split_ascii_whitespace()
}

/// True when `w` is one of `list`, ignoring ASCII case.
fn one_of(w: &str, list: &[&str]) -> bool {
    list.iter().any(|x| x.eq_ignore_ascii_case(w))
}

/// True for an element that holds a byline: `rel=author`,
/// `itemprop=author`, or a class with an author word.
pub(crate) fn is_author(el: &crate::extract::dom::Element) -> bool {
    el.has_token("rel", "author")
        || words(el.attr("itemprop")).any(|w| one_of(w, &["author", "creator"]))
        || words(el.attr("class")).any(|w| {
            one_of(w, AUTHOR_WORDS)
                || ends_with_ascii_ci(w, "-author")
                || ends_with_ascii_ci(w, "_author")
                || starts_with_ascii_ci(w, "author-")
                || starts_with_ascii_ci(w, "author_")
        })
}

/// Class-name parts of a label that says where a post is kept on the page,
/// not what it is about: "Pinned post" is no category.
const PLACEMENT_WORDS: &[&str] = &["pinned", "sticky", "stickied"];

/// Class-name parts of a badge that counts something (a forum row's
/// `badge-notification unread-posts` "3"): a number of posts is no topic.
const COUNT_WORDS: &[&str] = &["count", "counter", "notification", "unread"];

/// True for a label that is no topic: a class part of [`PLACEMENT_WORDS`]
/// or [`COUNT_WORDS`] (`pinned-label`, `is_sticky`, `badge-notification`),
/// or a whole text of the first ("Pinned post").
fn is_no_topic_label(doc: &Document, id: NodeId, el: &crate::extract::dom::Element) -> bool {
    let class_has = |list: &[&str]| has_part(words(el.attr("class")), b"-_", list);
    if class_has(PLACEMENT_WORDS) || class_has(COUNT_WORDS) {
        return true;
    }
    let text = collapse_whitespace(&doc.text(id)).to_lowercase();
    let text = text.strip_suffix(" post").unwrap_or(&text);
    PLACEMENT_WORDS.contains(&text)
}

fn is_tag(el: &crate::extract::dom::Element) -> bool {
    words(el.attr("rel")).any(|w| one_of(w, &["tag", "category"]))
        || words(el.attr("itemprop")).any(|w| one_of(w, &["keywords", "articlesection"]))
        || words(el.attr("class")).any(|w| {
            // A BEM element names its block's kind (`badge-category__wrapper`).
            let w = bem_block(w);
            one_of(w, TAG_WORDS)
                || starts_with_ascii_ci(w, "tag-")
                || starts_with_ascii_ci(w, "tags-")
                || ends_with_ascii_ci(w, "-tags")
                || ends_with_ascii_ci(w, "-tag")
                || ends_with_ascii_ci(w, "-category")
                || ends_with_ascii_ci(w, "-label")
        })
}

/// The class token `w` up to its first `__` (a BEM element's block),
/// found on the bytes: no searcher is set up per token.
fn bem_block(w: &str) -> &str {
    match w.as_bytes().windows(2).position(|p| p == b"__") {
        Some(at) => &w[..at],
        None => w,
    }
}

/// The tags in `start..end`: its links' texts, else its own text.
fn push_tags(doc: &Document, start: NodeId, end: NodeId, tags: &mut Vec<String>) {
    let links: Vec<String> = (start..end)
        .filter(|&j| doc.is_tag(j, "a"))
        .map(|j| doc.text(j))
        .collect();
    let found = if links.is_empty() {
        vec![doc.text(start)]
    } else {
        links
    };
    for t in found {
        let t = collapse_whitespace(&t)
            .trim_matches(|c: char| c == '#' || c == ',' || c.is_whitespace())
            .to_string();
        if !t.is_empty()
            && t.chars().count() <= MAX_TAG_CHARS
            && !tags.contains(&t)
            && tags.len() < MAX_TAGS
        {
            tags.push(t);
        }
    }
}

/// Leading words that introduce a name, not part of it (lowercase).
const BY_PREFIXES: &[&str] = &["posted by", "written by", "by", "von", "par", "por", "作者"];

fn clean_byline(text: &str) -> Option<String> {
    let mut s = collapse_whitespace(text);
    let lower = s.to_lowercase();
    if let Some(p) = BY_PREFIXES.iter().find(|p| {
        lower.starts_with(*p)
            && lower[p.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_whitespace() || c == ':' || c == '：')
    }) {
        s = s[p.len()..]
            .trim_start_matches(|c: char| c.is_whitespace() || c == ':' || c == '：')
            .to_string();
    }
    let s = s.trim().to_string();
    (!s.is_empty() && s.chars().count() <= MAX_BYLINE_CHARS).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom;

    fn record_of(doc: &Document, class: &str) -> Record {
        let start = (0..doc.nodes.len() as NodeId)
            .find(|&i| {
                doc.element(i)
                    .is_some_and(|e| e.attr("class") == Some(class))
            })
            .unwrap();
        Record {
            start,
            end: doc.node(start).end,
        }
    }

    /// Regression: a blog's pinned post had "Pinned post" (a `pinned-label`)
    /// among its categories.
    #[test]
    fn a_pinned_label_is_no_category() {
        let doc = dom::parse(
            r#"<article class="post"><div class="pinned-label">Pinned post</div>
               <span class="post-label">Sticky</span>
               <h2><a href="/p/1">Spring classes</a></h2>
               <ul class="post-tags"><li><a href="/t/news">#studio news</a></li></ul>
               <span class="cat-label">Pottery</span></article>"#,
        );
        let rec = record_of(&doc, "post");
        let (_, tags) = byline_and_tags(&doc, &rec, None);
        assert_eq!(tags, ["studio news", "Pottery"]);
    }

    /// Regression: a WordPress post (`article.category-club-news
    /// tag-courses`) had its title, author and date among its categories.
    #[test]
    fn a_post_classed_by_its_categories_is_no_list_of_them() {
        let doc = dom::parse(
            r#"<article class="post hentry category-club-news tag-courses">
               <h2 class="entry-title"><a href="/2024/learn-to-row/">Learn to Row 2024</a></h2>
               <div class="entry-meta"><span class="byline">Fiona Hartle</span>
               <time datetime="2024-01-12">January 12, 2024</time></div>
               <p>Courses run on Saturday mornings.</p>
               <footer><span class="cat-links"><a href="/c/news" rel="category tag">Club news</a></span>
               <span class="tags-links"><a href="/t/courses" rel="tag">courses</a></span></footer></article>"#,
        );
        let rec = record_of(&doc, "post hentry category-club-news tag-courses");
        let (_, tags) = byline_and_tags(&doc, &rec, None);
        assert_eq!(tags, ["Club news", "courses"]);
        // A forum row is classed the same way; its category is a BEM
        // element of a `badge-category` block, and its unread count's
        // badge is no category.
        let doc = dom::parse(
            r#"<table><tr class="topic-list-item category-support tag-sync"><td class="main-link">
               <a class="title" href="/t/sync-stuck/18261">Sync stuck after upgrading</a>
               <a href="/t/sync-stuck/18261/12" class="badge badge-notification unread-posts">3</a>
               <a class="badge-category__wrapper" href="/c/support/4"><span>Support</span></a>
               <a href="/tag/sync" class="discourse-tag">sync</a></td></tr></table>"#,
        );
        let rec = record_of(&doc, "topic-list-item category-support tag-sync");
        let (_, tags) = byline_and_tags(&doc, &rec, None);
        assert_eq!(tags, ["Support", "sync"]);
    }

    /// Regression (a forum topic's posts): the labels of each post's
    /// buttons ("1 Reply", a like count "2", "Reply", "Summarize") were
    /// its categories.
    #[test]
    fn a_button_label_is_no_category() {
        let doc = dom::parse(
            r#"<article class="boxed onscreen-post"><div class="cooked"><p>Same here on a smaller site.</p></div>
               <nav class="post-controls"><button class="widget-button show-replies" title="1 Reply">
               <span class="d-button-label">1 Reply</span></button><button class="like-count">
               <span class="d-button-label">2</span></button><button class="reply create">
               <span class="d-button-label">Reply</span></button></nav>
               <div class="topic-category"><a class="badge-category__wrapper" href="/c/support/4">
               <span class="badge-category__name">Support</span></a></div></article>"#,
        );
        let rec = record_of(&doc, "boxed onscreen-post");
        let (_, tags) = byline_and_tags(&doc, &rec, None);
        assert_eq!(tags, ["Support"]);
    }

    #[test]
    fn forum_poster_and_article_tags() {
        let doc = dom::parse(
            r#"<ul><li class="row"><a class="topictitle" href="/t/1">Ferry timetable changes</a>
               <div class="topic-poster">by <a class="username" href="/u/7">harbourmaster</a> » Mon</div>
               <span class="labels"><a href="/l/1">Ferries</a>, <a href="/l/2">#Winter</a>
               <a href="/l/1">Ferries</a></span></li></ul>"#,
        );
        let rec = record_of(&doc, "row");
        let (author, tags) = byline_and_tags(&doc, &rec, None);
        assert_eq!(author.as_deref(), Some("harbourmaster"));
        assert_eq!(tags, ["Ferries", "Winter"]);
    }

    #[test]
    fn by_prefix_is_dropped_and_sentences_are_not_names() {
        let doc = dom::parse(
            r#"<article class="post"><h2><a href="/p">Title</a></h2>
               <p class="byline">By  Ana  Lima</p><a rel="tag" href="/t/x">Council</a></article>"#,
        );
        let (author, tags) = byline_and_tags(&doc, &record_of(&doc, "post"), None);
        assert_eq!(author.as_deref(), Some("Ana Lima"));
        assert_eq!(tags, ["Council"]);
        let long = "x".repeat(81);
        let doc = dom::parse(&format!(
            r#"<div class="item"><span class="author">{long}</span><span class="tag-news">News</span></div>"#
        ));
        let (author, tags) = byline_and_tags(&doc, &record_of(&doc, "item"), None);
        assert_eq!((author, tags), (None, vec!["News".to_string()]));
    }

    #[test]
    fn conventions_match_in_any_ascii_case() {
        let doc = dom::parse(
            r#"<div class="item"><h3><a href="/p">Title</a></h3>
               <span class="Author-Name">Ana Lima</span>
               <span class="Post-Category"><a REL="Tag" href="/t/x">Council</a></span></div>"#,
        );
        let (author, tags) = byline_and_tags(&doc, &record_of(&doc, "item"), None);
        assert_eq!(author.as_deref(), Some("Ana Lima"));
        assert_eq!(tags, ["Council"]);
        // Near misses stay out: "authored" is no author class, "tagline"
        // no tag class.
        let doc = dom::parse(
            r#"<div class="item"><span class="authored">Ana</span><span class="tagline">Hi</span></div>"#,
        );
        assert_eq!(
            byline_and_tags(&doc, &record_of(&doc, "item"), None),
            (None, vec![])
        );
    }

    #[test]
    fn nothing_inside_the_title_link() {
        let doc = dom::parse(
            r#"<div class="item"><a href="/p"><span class="author">Not a byline</span> Title</a></div>"#,
        );
        let rec = record_of(&doc, "item");
        let link = (rec.start..rec.end).find(|&i| doc.is_tag(i, "a"));
        assert_eq!(byline_and_tags(&doc, &rec, link), (None, vec![]));
    }
}
