//! Threads whose replies nest inside the comment they answer, each reply
//! list a copy of the outer one (`div.comment > div.child > div.listing >
//! div.comment`): the miner finds the top-level comments as one group,
//! each swallowing its replies. A group whose records hold more records of
//! their own kind is split: every element of that kind, at any depth, is a
//! record of its own, made of its content before the child holding its
//! replies.
//!
//! Only the best few groups are tried, and only kinds with a class name (a
//! bare `div` nests everywhere) or bare list items. A nested element of
//! the kind's classes and more (`li.comment.comment-by-op` under
//! `li.comment`) is of the kind. A split is kept only
//! when its records carry text outside their links (a comment has text of
//! its own; a menu with submenus is links all the way down): a classed
//! kind needs prose, a bare `li` needs words of its own in nearly every
//! record, as a mail archive's thread index has (each message a subject
//! link and its author's name, replies nested in a `ul` of the message
//! they answer). A category tree's counts ("(12)") are not words.
//!
//! Invariants: records stay disjoint and in page order; the work is one
//! scan over the tried groups' records.

use crate::extract::dom::{Document, NodeId};

use super::kinds::stable_classes;
use super::score::record_stats;
use super::{Kinds, Record, RecordGroup, thread_records};

/// How many of the ranked groups are tried.
const TRIED: usize = 4;
/// Median text outside links (bytes) a split record of a classed kind
/// must carry.
const MIN_PROSE: usize = 20;
/// Of a split of bare list items, the share of records that must have a
/// word (a letter) outside their links.
const MIN_WORDED_SHARE: f64 = 0.75;

/// Split the best groups whose records nest; `rescore` scores a changed
/// group. True when some group changed.
pub(super) fn split_top(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    groups: &mut [RecordGroup],
    mut rescore: impl FnMut(&mut RecordGroup),
) -> bool {
    let mut changed = false;
    for g in groups
        .iter_mut()
        .filter(|g| g.dropped.is_none())
        .take(TRIED)
    {
        if let Some(records) = split(doc, kinds, &g.records) {
            g.records = records;
            g.thread = true;
            rescore(g);
            changed = true;
        }
    }
    changed
}

fn split(doc: &Document, kinds: &mut Kinds<'_>, records: &[Record]) -> Option<Vec<Record>> {
    let first = records.first()?;
    let kind = kinds.kind(first.start);
    let classed = kinds.name(kind).contains('.');
    // A record may span siblings (a comment and the spacer after it); its
    // first element is the one whose kind nests.
    if !(classed || kinds.name(kind) == "li")
        || records.iter().any(|r| doc.element(r.start).is_none())
    {
        return None;
    }
    let tag = doc.tag(first.start)?.to_string();
    let classes: Vec<&str> = stable_classes(doc, first.start).collect();
    let mut all: Vec<NodeId> = Vec::with_capacity(records.len());
    let mut nested = false;
    for r in records {
        if kinds.kind(r.start) != kind {
            return None;
        }
        all.push(r.start);
        for i in r.start + 1..r.end {
            if doc.is_tag(i, &tag)
                && (kinds.kind(i) == kind || (classed && marks_its_kind(doc, i, &classes)))
            {
                all.push(i);
                nested = true;
            }
        }
    }
    if !nested {
        return None;
    }
    let split = thread_records(doc, &all);
    let own_text = if classed {
        median_prose(doc, &split) >= MIN_PROSE
    } else {
        let worded = split.iter().filter(|r| has_own_words(doc, r)).count();
        worded as f64 >= MIN_WORDED_SHARE * split.len() as f64
    };
    own_text.then_some(split)
}

/// True when element `i` carries every one of `classes` (the stable
/// classes of the group's kind) and more: a reply marked as the original
/// poster's or as deleted (`li.comment.comment-by-op`) is a reply still.
fn marks_its_kind(doc: &Document, i: NodeId, classes: &[&str]) -> bool {
    // Most elements of the tag carry none of the classes: one substring
    // test turns them away before any token is read.
    let listed = doc
        .element(i)
        .and_then(|e| e.attr("class"))
        .is_some_and(|c| classes.first().is_some_and(|first| c.contains(first)));
    listed
        && stable_classes(doc, i).count() > classes.len()
        && classes
            .iter()
            .all(|c| stable_classes(doc, i).any(|o| o == *c))
}

/// Median bytes of text outside links over the records.
fn median_prose(doc: &Document, records: &[Record]) -> usize {
    let mut prose: Vec<usize> = records
        .iter()
        .map(|r| record_stats(doc, r).prose())
        .collect();
    prose.sort_unstable();
    prose.get(prose.len() / 2).copied().unwrap_or(0)
}

/// True when the record has a letter in a text outside its links (an
/// author's name, a byline).
fn has_own_words(doc: &Document, r: &Record) -> bool {
    doc.texts_outside_links(r.start, r.end)
        .any(|t| t.chars().any(char::is_alphabetic))
}

#[cfg(test)]
mod tests {
    use crate::extract::records::detect_html;

    /// The winner's records, as their first link's text.
    fn winner_titles(html: &str) -> Vec<String> {
        let (doc, det) = detect_html(html);
        let Some(g) = det.winner() else {
            return Vec::new();
        };
        g.records
            .iter()
            .filter_map(|r| (r.start..r.end).find(|&i| doc.is_tag(i, "a")))
            .map(|a| doc.text(a).trim().to_string())
            .collect()
    }

    /// A mail archive's thread index: `li` without classes, each message a
    /// subject link and its author, replies in a `ul` inside the message.
    fn thread_index(author: bool) -> String {
        let li = |n: u32, subject: &str, who: &str| {
            let who = if author {
                format!("<i>{who}</i>")
            } else {
                String::new()
            };
            format!("<li><a href='{n}.html'>[dev] {subject}</a><a name='{n}'>&nbsp;</a>{who}")
        };
        let mut h = String::from("<html><body><h1>March 2024 Archives by thread</h1><ul>");
        for t in 0..5 {
            h += &li(
                t * 10,
                &format!("Topic number {t} for the list"),
                "Ilse Marchetti",
            );
            h += "<ul>";
            h += &li(
                t * 10 + 1,
                &format!("Re: Topic number {t} for the list"),
                "Tomasz Ruhl",
            );
            h += "<ul>";
            h += &li(
                t * 10 + 2,
                &format!("Re: Topic number {t} for the list"),
                "Okwudili Brandt",
            );
            h += "</ul></ul>";
        }
        h += "</ul><p>Archived on Sun Mar 31 2024</p></body></html>";
        h
    }

    #[test]
    fn bare_list_items_with_authors_split_into_every_message() {
        // Regression: 5 thread starters, each swallowing its replies.
        let titles = winner_titles(&thread_index(true));
        assert_eq!(titles.len(), 15, "{titles:?}");
        assert_eq!(titles[0], "[dev] Topic number 0 for the list");
        assert_eq!(titles[1], "[dev] Re: Topic number 0 for the list");
    }

    /// Regression (a link aggregator's comment tree): replies marked by one
    /// more class, the original poster's (`li.comment.comment-by-op`) or a
    /// deleted one, were left out of the split.
    #[test]
    fn replies_with_a_class_more_are_split_too() {
        let comment = |n: u32, mark: &str, words: &str| {
            format!(
                "<li class='comment {mark}'><article><a href='/u/user{n}'>user{n}</a> \
                 <span title='Fri, 27 Nov 2026 14:02:11 GMT'>3d</span><p>{words} number {n}, with enough words to read as prose.</p>\
                 <a href='/comment/88{n:03}'>link</a></article>"
            )
        };
        let mut h = String::from("<html><body><h1>Post</h1><ul class=comments>");
        for t in 0..5 {
            h += &comment(t * 10, "", "A top comment");
            h += "<ul class=comments>";
            h += &comment(t * 10 + 1, "comment-by-op", "The poster answers");
            h += "<ul class=comments>";
            h += &comment(t * 10 + 2, "comment-deleted", "A deleted reply");
            h += "</li></ul></li></ul></li>";
        }
        h += "</ul></body></html>";
        let titles = winner_titles(&h);
        assert_eq!(titles.len(), 15, "{titles:?}");
        assert_eq!(titles[..3], ["user0", "user1", "user2"]);
    }

    #[test]
    fn bare_list_items_that_are_links_only_stay_whole() {
        // A menu with submenus: links all the way down, no words of its own.
        let titles = winner_titles(&thread_index(false));
        assert!(titles.len() <= 5, "{titles:?}");
    }
}
