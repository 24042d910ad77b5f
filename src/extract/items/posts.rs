//! Records without a headline (comments, forum posts, statuses, untitled
//! blog posts): whether a group is such, each post's permalink, its body
//! block and the title cut from the start of its own words (not what it
//! quotes, nor its signature).
//!
//! Invariants: a post's title never comes from a quotation unless the post
//! is nothing but one, nor from comments listed under it.

use super::*;

/// Title links longer than this (mean characters) are headlines: a group
/// whose title path reads like that is never headless.
pub(super) const HEADLESS_MAX_TITLE_CHARS: f64 = 25.0;

/// Text outside links a headless record holds (median, bytes) at least.
pub(super) const HEADLESS_MIN_TEXT: usize = 60;

/// Comments, replies and status posts have no headline: no heading, a
/// permalink whose text is the time it was posted (or "permalink"; or no
/// link to a page at all, as a shop's reviews have), and
/// much more text of their own than in any link (the only short, regular
/// link is the author's name). Such a group takes its titles from the
/// records' text instead of the author links.
///
/// A group where most records open with an unlinked heading is headless
/// too when some do not and its only title path is the permalinks
/// (`titled_by_permalinks`): a live blog's entries, some with a headline
/// and some only words, each linked by its timestamp. Each is then titled
/// by its heading ([`lead_heading`]) or its words, never by its time.
///
/// Gives whether the group is headless, and whether its headings repeat
/// one subject ([`repeats_subject`]), which then titles none of its posts.
pub(super) fn headless_group(
    doc: &Document,
    records: &[Record],
    permalinks: &[Option<NodeId>],
    mean_title_chars: f64,
    titled_by_permalinks: bool,
) -> (bool, bool) {
    if records.len() < 2 || mean_title_chars >= HEADLESS_MAX_TITLE_CHARS {
        return (false, false);
    }
    let half = records.len().div_ceil(2);
    let headings: Vec<Option<NodeId>> = records.iter().map(|r| first_heading(doc, r)).collect();
    let subjects = repeats_subject(doc, &headings);
    let with_heading = if subjects {
        0
    } else {
        headings.iter().flatten().count()
    };
    let with_permalink = permalinks.iter().filter(|p| p.is_some()).count();
    let mixed = titled_by_permalinks && with_heading < records.len();
    // Posts that link no page of their own (a shop's reviews, a photo
    // in a lightbox on a few) are read as comments without permalinks.
    let linking = || records.iter().filter(|r| links_a_page(doc, r)).count();
    if (with_heading >= half && !mixed) || (with_permalink < half && linking() >= half) {
        return (false, false);
    }
    let mut own: Vec<usize> = records.iter().map(|r| text_outside_links(doc, r)).collect();
    let in_blocks = records
        .iter()
        .zip(&own)
        .filter(|&(r, &own)| text_in_blocks(doc, r) * 2 >= own)
        .count();
    own.sort_unstable();
    let median = own[own.len() / 2];
    let headless =
        median >= HEADLESS_MIN_TEXT && median as f64 >= 3.0 * mean_title_chars && in_blocks >= half;
    (headless, headless && subjects)
}

/// True when `r` holds a link to a page: any link but one to a picture
/// file ([`is_picture_file`]).
fn links_a_page(doc: &Document, r: &Record) -> bool {
    (r.start..r.end).any(|i| {
        doc.element(i)
            .filter(|e| e.name == "a")
            .and_then(|e| e.attr("href"))
            .is_some_and(|h| !is_picture_file(h))
    })
}

/// Text bytes outside links that `r` holds in blocks of its own (a
/// comment's paragraphs, its `div.content`), not in the line its links
/// stand in: a log's line (a wiki's new page: "14:31, 1 December 2026
/// Kestrel Ridge Loop (hist) [4,812 bytes] Marisol Ventura (talk |
/// contribs) (Created page with …)") is all one line, its words the edit
/// summary beside its links, and is titled by its linked name. Words
/// written straight into the record's element count when a line break
/// there follows them: they stand above its byline (a community
/// weblog's post, "posted by …" on the line below).
fn text_in_blocks(doc: &Document, r: &Record) -> usize {
    let last_break = last_own_break(doc, r, r.end);
    let mut total = 0;
    let mut i = r.start;
    while i < r.end {
        match &doc.node(i).data {
            NodeData::Element(e) if e.name == "a" => {
                i = doc.node(i).end;
                continue;
            }
            NodeData::Text { text, blank: false } => {
                let in_block = last_break.is_some_and(|b| i < b)
                    || doc
                        .ancestors(i)
                        .take_while(|&a| a > r.start)
                        .any(|a| doc.tag(a).is_some_and(is_block_element));
                if in_block {
                    total += text.trim().len();
                }
            }
            _ => {}
        }
        i += 1;
    }
    total
}

/// The record's first heading with text that does not name its poster.
fn first_heading(doc: &Document, r: &Record) -> Option<NodeId> {
    (r.start..r.end).find(|&i| {
        doc.tag(i).is_some_and(is_heading) && doc.text_bytes(i) > 0 && !is_byline_heading(doc, r, i)
    })
}

/// Most characters of the reply mark a post's subject opens with ("Re:",
/// "Odp:", "AW:").
const MAX_REPLY_MARK_CHARS: usize = 4;

/// True when most of the records' first `headings` say one thing: a forum
/// thread's posts, each headed by the thread's subject ("Re: 1x12 czy
/// 2x12 na gravela?" under the first post's "1x12 czy 2x12 na
/// gravela?"), a reply mark aside. Such a heading titles no post: the
/// posts are read as comments are ([`headless_group`], [`lead_heading`]).
fn repeats_subject(doc: &Document, headings: &[Option<NodeId>]) -> bool {
    let mut subjects: Vec<String> = headings
        .iter()
        .flatten()
        .map(|&h| without_reply_mark(&collapse_whitespace(&doc.text(h))).to_lowercase())
        .collect();
    let headed = subjects.len();
    subjects.sort_unstable();
    let most = subjects
        .chunk_by(|a, b| a == b)
        .map(<[String]>::len)
        .max()
        .unwrap_or(0);
    headed >= 3 && most * 2 > headed
}

/// A post's subject without the reply mark it opens with ("Re: …").
fn without_reply_mark(subject: &str) -> &str {
    match subject.split_once(':') {
        Some((mark, rest))
            if !mark.is_empty()
                && mark.chars().count() <= MAX_REPLY_MARK_CHARS
                && mark.chars().all(char::is_alphabetic) =>
        {
            rest.trim()
        }
        _ => subject,
    }
}

/// True when heading `h` of `record` names the poster, not the post: it
/// sits in the record's byline (`section.message-user[itemprop=author]`)
/// or its links are author links (`h4 > a.username`), as forum posts head
/// their poster's card, beside at most the post's timestamp link (a
/// forge's comment header "**priya** commented <time>Feb 11</time>").
pub(super) fn is_byline_heading(doc: &Document, record: &Record, h: NodeId) -> bool {
    let in_byline = std::iter::once(h)
        .chain(doc.ancestors(h).take_while(|&a| a >= record.start))
        .filter_map(|a| doc.element(a))
        .any(crate::extract::byline::is_author);
    let mut authors = 0;
    let only_authors = (h..doc.node(h).end)
        .filter(|&i| doc.is_tag(i, "a"))
        .all(|a| match doc.element(a) {
            Some(e) if crate::extract::byline::is_author(e) => {
                authors += 1;
                true
            }
            _ => holds_time(doc, a),
        });
    in_byline || (authors > 0 && only_authors)
}

/// Most of a record's words outside links (tenths) that lie outside its
/// [`is_activity_line`] line.
pub(super) const ACTIVITY_WORDS_OUTSIDE_TENTHS: usize = 1;

/// True when `record` is a line of activity, not a post ("priya added the
/// bug label · Feb 11", "jmbright mentioned this issue · Feb 12" above the
/// card of the issue that cites it): its first link (who acted) and its
/// `permalink` stand in one line (their lowest common element, reached
/// from both without crossing a block), and that element holds nearly all
/// of the record's words. A post's words stand apart from the line that
/// names its poster and time (a forge's comment body under "priya
/// commented · Feb 11"); a thread's reply whose tagline and permalink sit
/// in different blocks is never a line.
pub(super) fn is_activity_line(doc: &Document, record: &Record, permalink: NodeId) -> bool {
    let Some(actor) = (record.start..permalink).find(|&i| {
        doc.element(i)
            .is_some_and(|e| e.name == "a" && e.attr("href").is_some())
    }) else {
        return false;
    };
    let inline_up_to = |from: NodeId, line: NodeId| {
        doc.ancestors(from)
            .take_while(|&a| a != line)
            .all(|a| doc.tag(a).is_none_or(|t| !is_block_element(t)))
    };
    let Some(line) = doc
        .ancestors(actor)
        .take_while(|&a| a >= record.start)
        .find(|&a| doc.contains(a, permalink))
    else {
        return false;
    };
    let line_words = text_outside_links(
        doc,
        &Record {
            start: line,
            end: doc.node(line).end,
        },
    );
    let outside = text_outside_links(doc, record).saturating_sub(line_words);
    inline_up_to(actor, line)
        && inline_up_to(permalink, line)
        && line_words > 0
        && outside * 10 <= line_words * ACTIVITY_WORDS_OUTSIDE_TENTHS
}

/// Class names of a thread's entries that are activity, not posts: a
/// forge's `timeline-item event` and `system-note`, a forum's
/// `small-action` (whole class words, or parts after `-` and `_` for
/// "event").
pub(super) const ACTIVITY_CLASSES: &[&str] = &["system-note", "small-action"];

/// True when the element a record starts at is classed as activity
/// ([`ACTIVITY_CLASSES`], or a class word with the part "event") and it
/// has no headline, a heading or a bold line its body opens with
/// ([`bold_lead`]): a live blog's `block is-key-event` (or
/// `liveblog-entry--key-event`) is a post with a headline, marked as one
/// of the day's key events.
pub(super) fn is_classed_activity(doc: &Document, record: &Record) -> bool {
    let class = doc.element(record.start).and_then(|e| e.attr("class"));
    let classed = class.is_some_and(|c| {
        c.split_ascii_whitespace().any(|w| {
            ACTIVITY_CLASSES.iter().any(|a| a.eq_ignore_ascii_case(w))
                || has_part(std::iter::once(w), b"-_", &["event"])
        })
    });
    let headed = || {
        (record.start..record.end).any(|i| doc.tag(i).is_some_and(is_heading))
            || body_block(doc, record, None, true)
                .is_some_and(|b| bold_lead(doc, record, b).is_some())
    };
    classed && !headed()
}

/// Share (tenths) of a record's words that an activity block must hold
/// for the record to be nothing but activity.
const ACTIVITY_BLOCK_TENTHS: usize = 9;

/// True when nearly all the words of a record without a permalink stand
/// in blocks classed as activity (a class word with the part `activity`,
/// `boardCommentActivity` included): a bug tracker's entry that only
/// changed the importance and tags ("Changed in pulsebridge (Ubuntu):
/// importance: Medium → High") between its comments. Links and `<time>`
/// (the entry's author and date) are not counted.
pub(super) fn is_activity_block(doc: &Document, record: &Record) -> bool {
    let (mut inside, mut total) = (0usize, 0usize);
    let mut i = record.start;
    while i < record.end {
        let node = doc.node(i);
        if let Some(e) = doc.element(i) {
            let skip = e.name == "a" || e.name == "time";
            let activity = i != record.start
                && e.attr("class").is_some_and(|c| {
                    has_part(
                        c.split_whitespace()
                            .flat_map(super::interruptions::camel_humps),
                        b"-_",
                        &["activity"],
                    )
                });
            if skip || activity {
                if activity {
                    let words = text_outside_links(
                        doc,
                        &Record {
                            start: i,
                            end: node.end,
                        },
                    );
                    inside += words;
                    total += words;
                }
                i = node.end.max(i + 1);
                continue;
            }
        } else if let NodeData::Text { text, .. } = &node.data {
            total += text.trim().len();
        }
        i += 1;
    }
    inside > 0 && inside * 10 >= total * ACTIVITY_BLOCK_TENTHS
}

/// Starts of the records of a group of posts that are activity, lines
/// ([`is_activity_line`]) or classed so ([`is_classed_activity`]), when
/// fewer than half are: a forge's issue interleaves "added the bug label"
/// and "closed this" with the comments, and they are no posts of it. A
/// page that lists nothing but activity keeps it.
pub(super) fn activity_lines(
    doc: &Document,
    records: &[Record],
    permalinks: &[Option<NodeId>],
) -> rustc_hash::FxHashSet<NodeId> {
    let lines: Vec<NodeId> = records
        .iter()
        .zip(permalinks)
        .filter(|(r, p)| {
            is_classed_activity(doc, r)
                || match p {
                    Some(p) => is_activity_line(doc, r, *p),
                    None => is_activity_block(doc, r),
                }
        })
        .map(|(r, _)| r.start)
        .collect();
    if lines.len() * 2 < records.len() {
        lines.into_iter().collect()
    } else {
        Default::default()
    }
}

/// Visible text bytes of a record outside its links.
pub(super) fn text_outside_links(doc: &Document, r: &Record) -> usize {
    doc.texts_outside_links(r.start, r.end)
        .map(|t| t.trim().len())
        .sum()
}

/// True when the link `a` with text `text` is `record`'s permalink: by
/// what it says ([`icon_link_name`], [`is_permalink_text`],
/// [`is_share_permalink`]), or by the `<time datetime>` it holds
/// ([`holds_time`]); never a link of a comment under the record
/// ([`in_inner_comment`]: a Q&A answer's comments are dated links).
pub(super) fn names_permalink(
    doc: &Document,
    record: &Record,
    a: NodeId,
    text: &str,
    dates: &DateContext,
) -> bool {
    let named = doc.element(a).is_some_and(|el| {
        let name = icon_link_name(el, text);
        is_permalink_text(name, dates) || is_share_permalink(el, name)
    });
    (named || holds_time(doc, a) || links_to_own_anchor(doc, record, a))
        && !in_inner_comment(doc, record, a)
}

/// Nodes at the start of a record searched for the anchor a link names.
const OWN_ANCHOR_NODES: NodeId = 64;

/// True when link `a` goes to the record's own place on the page: its
/// `href`'s fragment names the record or an anchor at its start, before
/// any of its text (a forum post's subject linking `#p512340`, or, from a
/// link with text, `./viewtopic.php?p=512340#p512340` as phpBB writes it;
/// the post's `id`
/// and its `<a name=p512340>`); not a block inside it (a publication's
/// "BibTeX" toggle to its `#bib-…` entry).
pub(super) fn links_to_own_anchor(doc: &Document, record: &Record, a: NodeId) -> bool {
    let Some(fragment) = doc
        .element(a)
        .and_then(|e| e.attr("href"))
        .and_then(|h| h.trim().split_once('#'))
        // Another page's address before the fragment only on a link that
        // says something: a comment's vote arrow (`vote?id=12&how=up#12`)
        // is no permalink.
        .filter(|(page, _)| page.is_empty() || doc.text_bytes(a) > 0)
        .map(|(_, f)| f)
        .filter(|f| !f.is_empty())
    else {
        return false;
    };
    let names = |e: &Element| {
        e.attr("id") == Some(fragment) || (e.name == "a" && e.attr("name") == Some(fragment))
    };
    (record.start..record.end.min(record.start + OWN_ANCHOR_NODES))
        .take_while(|&i| !matches!(doc.node(i).data, NodeData::Text { blank: false, .. }))
        .any(|i| doc.element(i).is_some_and(names))
}

/// A "Share" link to a page of the site (`/a/78123552/1180233`, a Q&A
/// answer's own address), not a share menu (`#`) or a sharing service.
pub(super) fn is_share_permalink(el: &Element, name: &str) -> bool {
    let href = el.attr("href").unwrap_or("").trim();
    name.trim().eq_ignore_ascii_case("share") && href.starts_with('/') && !href.starts_with("//")
}

/// True when link `a` sits in a comment listed under `record` (see
/// [`is_listed_comment`]): the comments a Q&A site shows under each
/// answer ([`is_comment_under`]).
pub(super) fn in_inner_comment(doc: &Document, record: &Record, a: NodeId) -> bool {
    std::iter::once(a)
        .chain(doc.ancestors(a))
        .take_while(|&x| x > record.start)
        .any(|x| is_comment_under(doc, record, x))
}

/// True when `id` is a comment listed under `record` ([`is_listed_comment`]
/// in a list inside it), not the one the record's list item wraps (a
/// thread's record is the `div.comment` of its `li.comments_subtree`).
pub(super) fn is_comment_under(doc: &Document, record: &Record, id: NodeId) -> bool {
    id > record.start
        && doc.node(id).parent.is_some_and(|p| p > record.start)
        && is_listed_comment(doc, id)
}

/// True for a comment in a list of comments: an element whose class
/// names a comment, in one whose class names a list of them
/// (`li.comment` in `ul.comments`). A comment's own wrapper and parts
/// (`article.comment-node` in `li.comment`, `div.comment-meta`) are not.
pub(super) fn is_listed_comment(doc: &Document, id: NodeId) -> bool {
    let class = |id: NodeId| doc.element(id).and_then(|e| e.attr("class"));
    let has = |token: &str, words: &[&str]| has_part(std::iter::once(token), b"-_", words);
    class(id).is_some_and(|c| has_part(c.split_ascii_whitespace(), b"-_", &["comment", "comments"]))
        && doc.node(id).parent.and_then(class).is_some_and(|c| {
            c.split_ascii_whitespace()
                .any(|t| has(t, &["comments"]) || (has(t, &["comment"]) && has(t, &["list"])))
        })
}

/// What a link says: its text, or for an icon-only link (no text) the
/// name its `title` or `aria-label` gives it (a comment's permalink drawn
/// as a chain icon, `title="link"`).
pub(super) fn icon_link_name<'a>(el: &'a Element, text: &'a str) -> &'a str {
    if !text.trim().is_empty() {
        return text;
    }
    el.attr("title")
        .or_else(|| el.attr("aria-label"))
        .unwrap_or("")
}

/// A link text that is the record's posting time ("3 hours ago", "March
/// 6, 2024 at 9:12 am") or names the link a permalink.
pub(super) fn is_permalink_text(text: &str, dates: &DateContext) -> bool {
    let t = text.trim();
    if t.is_empty() || t.chars().count() > 40 {
        return false;
    }
    // "edited Mar 5, 2024 at 7:47" links the post's revisions.
    let revision = [
        "edited",
        "updated",
        "modified",
        "last edited",
        "last updated",
    ]
    .iter()
    .any(|w| starts_with_ascii_ci(t, w));
    if revision {
        return false;
    }
    let says_link = ["permalink", "link", "#", "¶", "direct link"]
        .iter()
        .any(|w| t.eq_ignore_ascii_case(w));
    says_link || is_clock_time(t) || date_covers_half(t, dates)
}

/// True for a time of day on its own: "2:05 PM", "14:02", "9:14:07 a.m."
/// (a blog post's "Posted by … at 2:05 PM" links the post by its time).
pub(super) fn is_clock_time(t: &str) -> bool {
    let (clock, meridiem) = match t.find(|c: char| !c.is_ascii_digit() && c != ':') {
        Some(at) => t.split_at(at),
        None => (t, ""),
    };
    let meridiem = meridiem.trim().replace('.', "");
    let parts: Vec<&str> = clock.split(':').collect();
    let hour_ok = parts.first().is_some_and(|h| (1..=2).contains(&h.len()));
    let minutes_ok =
        parts.len() >= 2 && parts.len() <= 3 && parts[1..].iter().all(|m| m.len() == 2);
    hour_ok
        && minutes_ok
        && (meridiem.is_empty()
            || meridiem.eq_ignore_ascii_case("am")
            || meridiem.eq_ignore_ascii_case("pm"))
}

/// True when `t` is a date, or holds one that takes at least half of it
/// (the prefilter run once for both readings).
pub(super) fn date_covers_half(t: &str, dates: &DateContext) -> bool {
    may_hold_date(t)
        && (parse_any(t, dates).is_some()
            || find_any(t, dates).is_some_and(|(_, m)| m.len() * 2 >= t.len()))
}

/// Longest title made from a headless record's text (characters, before
/// the ellipsis).
pub const HEADLESS_TITLE_CHARS: usize = 80;

/// Title, link and title link of a record in a group without headlines
/// (comments, a blog of mostly untitled posts): the heading it opens with
/// when it has one ([`lead_heading`]), linked by the heading's link or its
/// permalink; otherwise the start of its body text, cut at a word
/// boundary, linked by its permalink (which is then no title link).
pub(super) fn headless_title(
    doc: &Document,
    record: &Record,
    links: &[LinkInfo],
    (permalinks, subjects): (&rustc_hash::FxHashSet<NodeId>, bool),
    dates: &DateContext,
) -> (String, Option<NodeId>, Option<NodeId>) {
    let permalink = links
        .iter()
        .find(|l| {
            permalinks.contains(&l.node) || names_permalink(doc, record, l.node, &l.text, dates)
        })
        .map(|l| l.node);
    // A thread's subject over every post titles none ([`repeats_subject`]).
    if let Some(h) = lead_heading(doc, record, permalink).filter(|_| !subjects) {
        let own = links.iter().find(|l| doc.contains(h, l.node));
        // A heading that is its link is titled as links are (badges out).
        let title = match own {
            Some(l) if doc.text_bytes(l.node) == doc.text_bytes(h) => l.text.to_string(),
            _ => title_text(doc, h),
        };
        let own = own.map(|l| l.node);
        return (title, own.or(permalink), own);
    }
    (body_title(doc, record, permalink), permalink, None)
}

/// The heading a record opens with, before its body ([`body_block`]): a
/// titled post among untitled ones ("Studio update: spring term classes
/// are open" above its text, where the photo posts beside it have only a
/// caption). A heading inside the body (a comment's "Update"), or one
/// that names the poster ([`is_byline_heading`]), is no title.
pub(super) fn lead_heading(
    doc: &Document,
    record: &Record,
    permalink: Option<NodeId>,
) -> Option<NodeId> {
    let h = (record.start..record.end).find(|&i| {
        doc.tag(i).is_some_and(is_heading)
            && doc.text_bytes(i) > 0
            && !is_byline_heading(doc, record, i)
    })?;
    let body = body_block(doc, record, permalink, true)?;
    (doc.node(h).end <= body).then_some(h)
}

/// A title cut from the start of a record's body ([`body_block`] apart
/// from its `permalink`): the words a reader sees; a post hidden whole (a
/// collapsed comment) is titled by its hidden words.
pub(super) fn body_title(doc: &Document, record: &Record, permalink: Option<NodeId>) -> String {
    let body = body_block(doc, record, permalink, true);
    if let Some(lead) = body.and_then(|b| bold_lead(doc, record, b)) {
        return title_text(doc, lead);
    }
    // The body and the test of its own words, for its first line.
    let mut own_words = None;
    let text = match (lines_above_byline(doc, record, permalink), body) {
        (Some(line_break), _) => {
            let mut words = String::new();
            doc.push_text_of_range(record.start, line_break, &mut words, |i| {
                read_as_words(doc, i)
            });
            words
        }
        (None, Some(b)) => {
            // The poster's own words: what the post quotes ("grindnerd
            // said: …" before the reply) is not, nor the signature under
            // every post of theirs, unless that is all there is.
            let end = doc.node(b).end;
            let mut words = String::new();
            // A code block is a program's words ("Here's the log:" over
            // the panic it printed).
            let own = |i| {
                read_as_words(doc, i)
                    && !doc.element(i).is_some_and(|e| {
                        is_quotation(e) || is_signature(e) || is_owner_reply(e) || e.name == "pre"
                    })
                    && !is_attribution(doc, i)
            };
            doc.push_text_of_range(b, end, &mut words, own);
            if words.trim().is_empty() {
                // A post that is nothing but a quote is titled by what it
                // quotes: the quotation itself, not who said it.
                let quote = (b..end).find(|&i| doc.is_tag(i, "blockquote")).unwrap_or(b);
                let quote_end = doc.node(quote).end;
                doc.push_text_of_range(quote, quote_end, &mut words, |i| read_as_words(doc, i));
            } else {
                own_words = Some((b, end, own));
            }
            words
        }
        (None, None) => body_block(doc, record, permalink, false)
            .map_or_else(|| first_line(doc, record), |b| doc.text(b)),
    };
    let text = collapse_whitespace(&text);
    let text = without_trailing_hashtags(&text);
    // Read only for posts in a script without spaces.
    let first_line = own_words
        .filter(|_| mostly_spaceless(text))
        .map(|(b, end, own)| doc.first_line_of_range(b, end, own));
    if let Some(line) = first_line.and_then(|l| spaceless_first_line(&l, text)) {
        return line;
    }
    let long = text.chars().nth(HEADLESS_TITLE_CHARS).is_some();
    match long.then(|| first_sentence(text)).flatten() {
        Some(sentence) => sentence.to_string(),
        // One line without a sentence's end, short enough to read as
        // one ("lol the comments section on the newspaper site is a lot
        // less friendly than this one"), titles itself whole.
        None if text.chars().nth(MAX_SENTENCE_TITLE_CHARS).is_none()
            && !text.contains(['.', '!', '?', '…', '。', '！', '？']) =>
        {
            text.to_string()
        }
        None => cut_at_word(text, HEADLESS_TITLE_CHARS),
    }
}

/// The first line of a post (`line`, of `text`, its words) written in a
/// script without spaces between words (Japanese, Chinese, Thai, see
/// [`mostly_spaceless`]), when more lines follow: such a post ends a thought with its line, often
/// without a full stop ("スレ立て乙" over "今年は白菜の結球がいまいちだわ").
fn spaceless_first_line(line: &str, text: &str) -> Option<String> {
    let line = collapse_whitespace(line);
    let more = line.len() < text.len();
    let fits = line.chars().nth(MAX_SENTENCE_TITLE_CHARS).is_none();
    (more && fits && !line.is_empty()).then_some(line)
}

/// True when most letters and digits of `text` are of a script written
/// without spaces between words: kana, CJK ideographs, Thai.
fn mostly_spaceless(text: &str) -> bool {
    let (mut spaceless, mut all) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphanumeric()) {
        all += 1;
        spaceless += usize::from(matches!(
            c,
            '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{0E00}'..='\u{0E7F}'
        ));
    }
    spaceless * 2 > all
}

/// The last `<br>` that is a child of the record's own element, before
/// node `before`.
fn last_own_break(doc: &Document, record: &Record, before: NodeId) -> Option<NodeId> {
    (record.start + 1..before)
        .rev()
        .find(|&i| doc.is_tag(i, "br") && doc.node(i).parent == Some(record.start))
}

/// Share (tenths) of a record's words outside links that the lines
/// above its byline must hold ([`lines_above_byline`]).
const ABOVE_BYLINE_TENTHS: usize = 6;

/// The line break in the record's own element after which its
/// `permalink` stands, when the words above it are the post: most of the
/// record's words outside links, written straight into the record's
/// element (a community weblog's post, "posted by … - <a>14
/// comments</a>" on the line below it). No element holds those words
/// apart from the permalink, so no body block does.
fn lines_above_byline(
    doc: &Document,
    record: &Record,
    permalink: Option<NodeId>,
) -> Option<NodeId> {
    let br = last_own_break(doc, record, permalink?)?;
    let above = text_outside_links(
        doc,
        &Record {
            start: record.start,
            end: br,
        },
    );
    let total = text_outside_links(doc, record);
    (above > 0 && above * 10 >= total * ABOVE_BYLINE_TENTHS).then_some(br)
}

/// Most characters of a bold line a post opens with that read as its
/// headline ([`bold_lead`]); a longer one is a sentence set in bold.
pub const MAX_BOLD_LEAD_CHARS: usize = 120;

/// The bold line a post's body opens with, as its headline: the first
/// block with text (a `p` or `div`) of the body, or of the block around
/// it inside the record (where the report's paragraph holds most of the
/// words), holds nothing but one `strong` or `b` without a link, and more
/// words follow it (a live blog's update, "<p><strong>Ferry to the island
/// runs again</strong></p>" over its report). A label ending in a colon
/// ("Update:") heads the words after it; a bold line that is the whole
/// post is its words.
pub(super) fn bold_lead(doc: &Document, record: &Record, body: NodeId) -> Option<NodeId> {
    let around = doc.node(body).parent.filter(|&p| p > record.start);
    std::iter::once(body)
        .chain(around)
        .find_map(|b| bold_line(doc, b))
}

/// The bold line `body` opens with ([`bold_lead`]).
fn bold_line(doc: &Document, body: NodeId) -> Option<NodeId> {
    let block = doc.children(body).find(|&c| doc.text_bytes(c) > 0)?;
    if !matches!(doc.tag(block), Some("p" | "div")) {
        return None;
    }
    let bytes = doc.text_bytes(block);
    let bold = doc.children(block).find(|&c| doc.text_bytes(c) > 0)?;
    let whole_bold = matches!(doc.tag(bold), Some("strong" | "b"))
        && doc.text_bytes(bold) == bytes
        && !(bold..doc.node(bold).end).any(|i| doc.is_tag(i, "a"));
    if !whole_bold || doc.text_bytes(body) <= bytes {
        return None;
    }
    let text = doc.text(bold);
    let text = text.trim();
    let headline = !text.ends_with(':') && text.chars().count() <= MAX_BOLD_LEAD_CHARS;
    headline.then_some(bold)
}

/// `text` without the hashtags that end it ("Low tide this evening
/// #photography #seascape"): a status's tags, not its words; unless
/// they are all it says. A hashtag is a `#` and a word with a letter.
pub(super) fn without_trailing_hashtags(text: &str) -> &str {
    let is_tag = |w: &str| {
        w.strip_prefix('#')
            .is_some_and(|t| t.chars().any(char::is_alphabetic))
    };
    let text = text.trim_end();
    let mut rest = text;
    while let Some((before, last)) = rest.rsplit_once(' ') {
        if !is_tag(last) {
            return rest;
        }
        rest = before.trim_end();
    }
    if is_tag(rest) { text } else { rest }
}

/// Fewest characters of the opening a post is titled by when it ends a
/// sentence there: "Yes." alone says nothing, so the title runs on to the
/// end of the next sentence.
pub const MIN_SENTENCE_TITLE_CHARS: usize = 20;

/// Most characters of a post's opening sentences read whole as its title;
/// a longer opening is cut at a word ([`HEADLESS_TITLE_CHARS`]).
pub const MAX_SENTENCE_TITLE_CHARS: usize = 120;

/// The opening of whitespace-collapsed `text` (a post longer than
/// [`HEADLESS_TITLE_CHARS`]; a shorter one titles itself whole) up to the
/// end of its first sentence (`.`, `!`, `?` or `…` before a space or the
/// end, or a full-width `。`, `！` or `？`) once at least
/// [`MIN_SENTENCE_TITLE_CHARS`] long, when that is at most
/// [`MAX_SENTENCE_TITLE_CHARS`]: a post's title reads as a whole thought
/// ("Were you running with WAL enabled?"), not a line cut mid-sentence. A
/// dot that ends an abbreviation ("e.g.", "vs.", "J."), a list number
/// ("1.") or a version ("0.19.") ends no sentence.
pub(super) fn first_sentence(text: &str) -> Option<&str> {
    let text = text.trim();
    for (chars, (i, c)) in text.char_indices().enumerate() {
        if chars >= MAX_SENTENCE_TITLE_CHARS {
            return None;
        }
        if !matches!(c, '.' | '!' | '?' | '…' | '。' | '！' | '？')
            || chars + 1 < MIN_SENTENCE_TITLE_CHARS
        {
            continue;
        }
        let end = i + c.len_utf8();
        // A full-width stop ends its sentence with no space after it.
        let ends = matches!(c, '。' | '！' | '？')
            || text[end..].chars().next().is_none_or(char::is_whitespace);
        if ends && (c != '.' || !is_abbreviation(&text[..i])) {
            return Some(&text[..end]);
        }
    }
    None
}

/// Words a dot follows without ending a sentence.
const ABBREVIATIONS: &[&str] = &[
    "vs", "etc", "cf", "approx", "mr", "mrs", "ms", "dr", "st", "no",
];

/// Most digits of a list number ("12."): a longer number before a dot
/// (a year, "… since 1994.") ends its sentence.
const MAX_LIST_NUMBER_DIGITS: usize = 3;

/// True when the word that ends `before` (a dot follows it) is an
/// abbreviation: one letter ("J."), dotted ("e.g", "U.S"), a list number
/// ("Steps: 1.", "0.19") or one of [`ABBREVIATIONS`]. A number is a list
/// number only where a list starts or goes on: first, or after a colon or
/// a sentence's end; after a word it ends its sentence ("… on page 31.",
/// "… by December 15.").
fn is_abbreviation(before: &str) -> bool {
    let mut words = before.rsplit(char::is_whitespace);
    let word = words.next().unwrap_or("");
    let word = word.trim_start_matches(['(', '"', '\'', '“', '‘']);
    let number = !word.is_empty()
        && word.len() <= MAX_LIST_NUMBER_DIGITS
        && word.bytes().all(|c| c.is_ascii_digit());
    if number {
        return words
            .find(|w| !w.is_empty())
            .is_none_or(|w| w.ends_with([':', '.', '!', '?', ';']));
    }
    word.chars().count() <= 1
        || word.contains('.')
        || ABBREVIATIONS.iter().any(|a| a.eq_ignore_ascii_case(word))
}

/// Longest text (characters) of a [`is_timestamp_link`].
pub(super) const MAX_TIMESTAMP_LINK_CHARS: usize = 40;

/// True when link `a` is a post's timestamp: it holds a `<time
/// datetime>`, no heading, little text (`text`, its title text), and
/// shows nothing but its time ("21:20" with "EST, 9:20 p.m." for screen
/// readers on a live blog's update, "4h" on a status). It is the post's
/// permalink, not its title. A card link showing "pre-release 3.14.0b1"
/// beside its release date is titled by what it says.
pub(super) fn is_timestamp_link(doc: &Document, a: NodeId, text: &str) -> bool {
    text.chars().count() <= MAX_TIMESTAMP_LINK_CHARS && shows_only_time(doc, a)
}

/// True when link `a` holds a `<time datetime>` ([`holds_time`]), no
/// heading, and shows nothing beside its time (a forum row's "Last post"
/// link, "Tue Dec 1, 2026 6:12 am"): a date, never a headline.
pub(crate) fn shows_only_time(doc: &Document, a: NodeId) -> bool {
    let end = doc.node(a).end;
    let only_time = || {
        let mut beside = String::new();
        doc.push_text_of_range(a, end, &mut beside, |i| {
            doc.element(i)
                .is_none_or(|e| !is_time_element(e) && !e.is_hidden() && !e.is_for_screen_readers())
        });
        !beside.chars().any(char::is_alphanumeric)
    };
    holds_time(doc, a) && !(a + 1..end).any(|i| doc.tag(i).is_some_and(is_heading)) && only_time()
}

/// True when link `a` holds a `<time datetime>`: a post's timestamp link
/// ("4h" on a Mastodon status) is its permalink, however short its text.
pub(super) fn holds_time(doc: &Document, a: NodeId) -> bool {
    (a + 1..doc.node(a).end).any(|i| {
        doc.element(i)
            .is_some_and(|e| is_time_element(e) && e.attr("datetime").is_some())
    })
}

/// True for `<time>` and for the custom elements that stand for it and
/// render its `datetime` on the client (`<relative-time>`, `<local-time>`,
/// as a forge's comments show "3 days ago").
pub(super) fn is_time_element(e: &Element) -> bool {
    e.name == "time" || e.name.as_str().ends_with("-time")
}

/// False for elements whose text a reader does not read as a post's
/// words: hidden by the markup (the folded text behind a content warning)
/// or a form's control ("Show more", a poll's options in their
/// `label`s).
pub(super) fn read_as_words(doc: &Document, id: NodeId) -> bool {
    doc.element(id).is_none_or(|e| {
        !matches!(e.name.as_str(), "button" | "label" | "select" | "textarea") && !e.is_hidden()
    })
}

/// The record's body: the smallest element holding at least 60% of the
/// record's text outside links (a comment's text, not its author line),
/// some of it outside quotations when the record has such words, and not
/// its `permalink` (the posting time and the author are not the
/// body). When every such element holds the permalink (a status whose
/// poll options come after its text), the element apart from the
/// permalink with the most text outside links. With `visible`, only the
/// words a reader sees count ([`read_as_words`]); a poster's signature
/// and profile never do ([`is_signature`], [`is_poster_profile`]), nor
/// comments listed under the record ([`is_listed_comment`]).
pub(super) fn body_block(
    doc: &Document,
    record: &Record,
    permalink: Option<NodeId>,
    visible: bool,
) -> Option<NodeId> {
    let n = (record.end - record.start) as usize;
    // prefix[k]: text bytes outside links in nodes start..start+k (and,
    // when `visible`, outside what is not [`read_as_words`]).
    let mut prefix = vec![0usize; n + 1];
    // plain[k]: the same, outside quotations and code blocks.
    let mut plain = vec![0usize; n + 1];
    // quoted[k]: node start+k is, or lies in, a quotation or code block.
    let mut quoted = vec![false; n];
    let (mut link_end, mut unread_end, mut quote_end) = (0, 0, 0);
    for k in 0..n {
        let i = record.start + k as NodeId;
        // A signature is the poster's, under every post, and the comments
        // listed under a Q&A answer are other people's: not its words.
        let unread = || {
            (visible && !read_as_words(doc, i))
                || doc.element(i).is_some_and(is_signature)
                || (i > record.start
                    && doc.element(i).is_some_and(|e| {
                        is_poster_profile(e) || is_owner_reply(e) || is_site_notice(e)
                    }))
                || (i > record.start && is_dated_reply(doc, i))
                || is_comment_under(doc, record, i)
        };
        if i >= unread_end && unread() {
            unread_end = doc.node(i).end;
        }
        if i >= quote_end && doc.element(i).is_some_and(is_quote_or_code) {
            quote_end = doc.node(i).end;
        }
        quoted[k] = i < quote_end;
        let own = match &doc.node(i).data {
            NodeData::Element(e) if e.name == "a" => {
                link_end = link_end.max(doc.node(i).end);
                0
            }
            NodeData::Text { text, blank: false } if i >= link_end && i >= unread_end => {
                text.trim().len()
            }
            _ => 0,
        };
        prefix[k + 1] = prefix[k] + own;
        plain[k + 1] = plain[k] + if quoted[k] { 0 } else { own };
    }
    let total = prefix[n];
    if total == 0 {
        return None;
    }
    let span = |i: NodeId| {
        let a = (i - record.start) as usize;
        let b = (doc.node(i).end.min(record.end) - record.start) as usize;
        (a, b)
    };
    let own = |i: NodeId| {
        let (a, b) = span(i);
        prefix[b] - prefix[a]
    };
    // An element whose words are all quoted (a live blog's embedded
    // social post, in its `figure`) is no body where the record has words
    // of its own.
    let says_own = |i: NodeId| {
        let (a, b) = span(i);
        plain[n] == 0 || plain[b] > plain[a]
    };
    let apart = (record.start..record.end)
        .filter(|&i| doc.element(i).is_some() && permalink.is_none_or(|p| !doc.contains(i, p)));
    let size = |i: NodeId| doc.node(i).end - i;
    // A short post among its header's words ("Gorgeous!" under the
    // reviewer's name, place and date), where only the whole record holds
    // most of them: the block its class names the body, holding the most
    // of the post's words.
    let named_body = || {
        apart
            .clone()
            .filter(|&i| i > record.start && own(i) > 0)
            .filter(|&i| !quoted[(i - record.start) as usize] && says_own(i))
            .filter(|&i| doc.element(i).is_some_and(names_body))
            .max_by_key(|&i| (own(i), std::cmp::Reverse(size(i))))
    };
    apart
        .clone()
        .filter(|&i| {
            own(i) * 10 >= total * 6 && !quoted[(i - record.start) as usize] && says_own(i)
        })
        .min_by_key(|&i| (size(i), std::cmp::Reverse(i)))
        .and_then(|b| match b == record.start {
            true => named_body().or(Some(b)),
            false => Some(b),
        })
        .map(|b| paragraphs_block(doc, record, b, permalink))
        .or_else(|| {
            // The most of the poster's own words first: a chat message's
            // line beats the bigger link preview card under it.
            let plain_own = |i: NodeId| {
                let (a, b) = span(i);
                plain[b] - plain[a]
            };
            apart.filter(|&i| own(i) > 0).max_by_key(|&i| {
                let last = (std::cmp::Reverse(size(i)), std::cmp::Reverse(i));
                (plain_own(i), own(i), last)
            })
        })
}

/// True for a quotation or a code block (`blockquote`, `pre`, `code`, an
/// element whose class names a quote such as Discourse's `aside.quote` or
/// vBulletin's `div.bbcode_quote`): another poster's words or a program's
/// output, a part of a comment's body and never the body itself (nor is
/// anything inside it).
pub(super) fn is_quote_or_code(e: &Element) -> bool {
    matches!(e.name.as_str(), "pre" | "code") || is_quotation(e)
}

/// True for a poster's signature (`aside.message-signature`,
/// `div.signature`): the same lines under each of their posts.
pub(super) fn is_signature(e: &Element) -> bool {
    class_names(e, b"signature")
}

/// True for the poster's profile beside a post (phpBB's `td.profile` and
/// `dl.postprofile`: rank, "Joined: Jan 2019", "Posts: 214"): the same
/// lines beside each of their posts, like a signature.
pub(super) fn is_poster_profile(e: &Element) -> bool {
    class_names(e, b"profile")
}

/// True when node `i` of `record` lies in its poster's profile
/// ([`is_poster_profile`]): a moderator's rank badge there is no picture
/// of the post's.
pub(super) fn in_poster_profile(doc: &Document, record: &Record, i: NodeId) -> bool {
    doc.ancestors(i)
        .take_while(|&a| a > record.start)
        .filter_map(|a| doc.element(a))
        .any(is_poster_profile)
}

/// Class words of the one who answers a review: the business's owner or
/// manager, a seller.
const ANSWERER_CLASSES: &[&[u8]] = &[b"owner", b"business", b"merchant", b"seller", b"manager"];
/// Class words of an answer.
const ANSWER_CLASSES: &[&[u8]] = &[b"reply", b"response"];

/// True for a notice the site sets in a post (`role="status"`, or a class
/// word with the part `notice`: a Q&A site's `div.s-notice`, "New
/// contributor jbloggs_dev is a new contributor to this site. Take care
/// in asking for clarification…"): the site's words, not the poster's.
pub(super) fn is_site_notice(e: &Element) -> bool {
    e.attr("role")
        .is_some_and(|r| r.eq_ignore_ascii_case("status"))
        || e.attr("class")
            .is_some_and(|c| has_part(c.split_ascii_whitespace(), b"-_", &["notice"]))
}

/// True for the business's answer under a review (`div.business-owner-reply`,
/// `section.seller-response`): the owner's words, not the reviewer's.
pub(super) fn is_owner_reply(e: &Element) -> bool {
    ANSWERER_CLASSES.iter().any(|w| class_names(e, w))
        && ANSWER_CLASSES.iter().any(|w| class_names(e, w))
}

/// True for a reply posted under the record, whoever wrote it: an
/// element (no link or button) whose class names an answer and whose
/// words carry a date (a shop review's `div.rvw-review__reply`,
/// "Response from the seller · Nov 29, 2026" and its words). Only
/// elements of such a class have their text read.
fn is_dated_reply(doc: &Document, i: NodeId) -> bool {
    doc.element(i).is_some_and(|e| {
        !matches!(e.name.as_str(), "a" | "button")
            && ANSWER_CLASSES.iter().any(|w| class_names(e, w))
    }) && may_hold_date(&doc.text(i))
}

/// True for a quotation: a `blockquote` or an element whose class names a
/// quote (another poster's words, with its "… said:" line). Script hooks
/// (`js-selectToQuote` on XenForo's whole message body) name what a
/// script does with the element, not what it is. A `blockquote` whose
/// class names the post's own content is no quotation: forum software
/// sets the whole message in one (vBulletin's `blockquote.postcontent`,
/// XenForo 1's `blockquote.messageText`).
pub(super) fn is_quotation(e: &Element) -> bool {
    (e.name == "blockquote" && !POST_BODY_CLASSES.iter().any(|w| class_names(e, w)))
        || class_names(e, b"quote")
        || is_link_preview(e)
}

/// Last parts of a class that names a post's body (`rvw-review__body`,
/// `comment-content`, `review-text`).
const BODY_CLASS_ENDS: &[&str] = &["body", "content", "text"];

/// True when a class token of `e` ends in a part naming a body
/// ([`BODY_CLASS_ENDS`]), after `_` or `-`, or is that part alone.
fn names_body(e: &Element) -> bool {
    e.attr("class").is_some_and(|c| {
        c.split_ascii_whitespace().any(|t| {
            let last = t.rsplit(['_', '-']).next().unwrap_or(t);
            BODY_CLASS_ENDS.iter().any(|b| last.eq_ignore_ascii_case(b))
        })
    })
}

/// Class words of the element holding a post's own words.
const POST_BODY_CLASSES: &[&[u8]] = &[b"postcontent", b"messagetext", b"post_message", b"postbody"];

/// Class words of the card a chat or forum draws under a post for a page
/// it links (Slack's "unfurl", Discourse's "onebox"): the linked page's
/// words, quoted, not the poster's.
const LINK_PREVIEW_CLASSES: &[&[u8]] = &[b"unfurl", b"onebox", b"link-preview"];

fn is_link_preview(e: &Element) -> bool {
    LINK_PREVIEW_CLASSES.iter().any(|w| class_names(e, w))
}

/// Longest line that introduces a quotation (bytes): "glazeandgrit:",
/// "On 5 March, Ida Merriwether wrote:".
pub(super) const MAX_ATTRIBUTION_BYTES: usize = 80;

/// Verbs that close the line introducing a quotation ("Ida wrote:").
pub(super) const ATTRIBUTION_VERBS: &[&str] = &["wrote", "writes", "said", "says"];

/// True for the line that says whose words a quotation is: a short element
/// right before a quotation that is a name and a colon ("glazeandgrit:"
/// above a reblogged post, the name a link) or ends in a verb of saying
/// ("On 5 March, Ida wrote:"). It belongs to the quotation, not to the
/// post's own words; a sentence of the poster's that leads into the quote
/// ("One thing I'd add about the berths:") is theirs.
pub(super) fn is_attribution(doc: &Document, id: NodeId) -> bool {
    let Some(parent) = doc.node(id).parent else {
        return false;
    };
    if doc.element(id).is_none() {
        return false;
    }
    // The next sibling that shows something.
    let parent_end = doc.node(parent).end;
    let mut next = doc.node(id).end;
    while next < parent_end && matches!(doc.node(next).data, NodeData::Text { blank: true, .. }) {
        next = doc.node(next).end;
    }
    next < parent_end && doc.element(next).is_some_and(is_quotation) && {
        let text = doc.text(id);
        let line = text.trim();
        line.len() <= MAX_ATTRIBUTION_BYTES
            && line.strip_suffix(':').is_some_and(|said| {
                let said = said.trim_end();
                let verb = said.rsplit(char::is_whitespace).next().unwrap_or("");
                let named = (id..doc.node(id).end)
                    .any(|i| doc.is_tag(i, "a") && doc.text(i).trim() == said);
                !said.is_empty()
                    && (named
                        || ATTRIBUTION_VERBS
                            .iter()
                            .any(|v| verb.eq_ignore_ascii_case(v)))
            })
    }
}

/// True when a class token of `e` holds `word` (`bbCodeBlock--quote`),
/// script hooks (`js-…`) aside.
pub(super) fn class_names(e: &Element, word: &[u8]) -> bool {
    e.attr("class").is_some_and(|c| {
        c.split_ascii_whitespace()
            .any(|t| !starts_with_ascii_ci(t, "js-") && find_ascii_ci(t.as_bytes(), word).is_some())
    })
}

/// Elements a comment's body holds beside its paragraphs: quotations,
/// code, lists, figures and inline markup.
pub(super) const BODY_PARTS: &[&str] = &[
    "p",
    "blockquote",
    "pre",
    "ul",
    "ol",
    "aside",
    "figure",
    "hr",
    "br",
    "a",
    "b",
    "i",
    "em",
    "strong",
    "code",
    "span",
    "img",
    "sup",
    "sub",
    "s",
    "u",
    "small",
    "abbr",
];

/// The body when `block` is one paragraph of several: their parent, so a
/// post of a short opening line and a long second paragraph is titled from
/// its start. Only when the parent is a block of the record below its top,
/// holds no `permalink`, and holds nothing but [`BODY_PARTS`].
pub(super) fn paragraphs_block(
    doc: &Document,
    record: &Record,
    block: NodeId,
    permalink: Option<NodeId>,
) -> NodeId {
    let widened = doc
        .is_tag(block, "p")
        .then(|| doc.node(block).parent)
        .flatten()
        .filter(|&parent| {
            parent > record.start
                && permalink.is_none_or(|p| !doc.contains(parent, p))
                && doc.children(parent).filter(|&c| c != block).any(|c| {
                    doc.is_tag(c, "p") || (doc.element(c).is_none() && doc.text_bytes(c) > 0)
                })
                && doc
                    .children(parent)
                    .filter_map(|c| doc.element(c))
                    .all(|e| BODY_PARTS.contains(&e.name.as_str()))
        });
    widened.unwrap_or(block)
}
