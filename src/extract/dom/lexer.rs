//! The byte-level reading of raw HTML that the parse pre-pass
//! ([`super::prepare`]) needs: a tag's name, attribute count and end, the
//! extent of comments and declarations, and the end of a raw-text element
//! (the last two also serve the body extractor's tokenizer).
//!
//! Invariants: every function returns a position in `at..=src.len()` (never
//! past the input, never before where it started, so callers always make
//! progress); the attribute states follow the HTML tokenizer, so a `>`
//! inside a quoted value does not end a tag; nothing allocates except the
//! first sighting of an unknown tag name.

use memchr::{memchr, memmem};

use super::tags::{Interner, TagId};

/// One tag as the lexer read it.
#[derive(Debug)]
pub struct Tag {
    pub id: TagId,
    /// Written `<x .../>`.
    pub self_closing: bool,
    /// Byte just past the tag's `>` (or the input end).
    pub after: usize,
    /// Where attributes beyond the budget start (the cut runs to the `>`).
    pub cut_from: Option<usize>,
    /// Attributes beyond the budget.
    pub excess_attributes: usize,
}

/// Reads a tag whose name starts at `at` (just past `<` or `</`), counting
/// attributes against `max_attributes`. At the input end the tag runs to
/// the end.
pub fn read_tag(src: &[u8], at: usize, names: &mut Interner, max_attributes: usize) -> Tag {
    let mut i = at;
    while i < src.len() && !is_tag_space(src[i]) && src[i] != b'/' && src[i] != b'>' {
        i += 1;
    }
    let mut tag = Tag {
        id: names.intern(&src[at..i]),
        self_closing: false,
        after: src.len(),
        cut_from: None,
        excess_attributes: 0,
    };
    let mut count = 0usize;
    loop {
        // Before attribute name.
        while i < src.len() && (is_tag_space(src[i]) || src[i] == b'/') {
            tag.self_closing = src[i] == b'/' && src.get(i + 1) == Some(&b'>');
            i += 1;
        }
        if i >= src.len() {
            return tag;
        }
        if src[i] == b'>' {
            tag.after = i + 1;
            return tag;
        }
        tag.self_closing = false;
        count += 1;
        if count > max_attributes {
            tag.cut_from.get_or_insert(i);
            tag.excess_attributes += 1;
        }
        i = skip_attribute(src, i);
    }
}

/// Skips one attribute (name, then `=` and a value if present) that
/// starts at `i`; returns where the next one may start.
fn skip_attribute(src: &[u8], mut i: usize) -> usize {
    // A leading `=` belongs to the name.
    i += 1;
    while i < src.len() && !is_tag_space(src[i]) && !matches!(src[i], b'/' | b'>' | b'=') {
        i += 1;
    }
    while i < src.len() && is_tag_space(src[i]) {
        i += 1;
    }
    if src.get(i) != Some(&b'=') {
        return i;
    }
    i += 1;
    while i < src.len() && is_tag_space(src[i]) {
        i += 1;
    }
    match src.get(i) {
        Some(&q @ (b'"' | b'\'')) => memchr(q, &src[i + 1..]).map_or(src.len(), |p| i + p + 2),
        Some(b'>') | None => i,
        Some(_) => {
            while i < src.len() && !is_tag_space(src[i]) && src[i] != b'>' {
                i += 1;
            }
            i
        }
    }
}

/// `<!--...-->`, `<![CDATA[...]]>` (only inside `svg`/`math`, `foreign`),
/// `<!doctype>` and bogus comments starting at `lt`. Returns where
/// scanning resumes.
pub fn skip_markup_declaration(src: &[u8], lt: usize, foreign: bool) -> usize {
    let rest = &src[lt + 2..];
    if rest.starts_with(b"--") {
        let body = lt + 4;
        // Abrupt closings `<!-->` and `<!--->` end the comment at once.
        if src.get(body) == Some(&b'>') {
            return body + 1;
        }
        if src.get(body..body + 2) == Some(b"->") {
            return body + 2;
        }
        return comment_end(src, body);
    }
    if foreign && rest.starts_with(b"[CDATA[") {
        return memmem::find(&src[lt..], b"]]>").map_or(src.len(), |p| lt + p + 3);
    }
    skip_past_gt(src, lt + 2)
}

/// Index just past the end of the comment whose text starts at `body`: the
/// first `-->` or `--!>`, whichever comes first (ending early is safe: it
/// can only over-count depth), or the input end. Each `--` is looked at
/// once, so the work is linear in the comment's length: looking for each
/// closing in the whole rest of the page made a page of many comments
/// quadratic.
fn comment_end(src: &[u8], body: usize) -> usize {
    let mut from = body;
    while let Some(p) = memmem::find(&src[from..], b"--").map(|p| from + p) {
        match src.get(p + 2) {
            Some(b'>') => return p + 3,
            Some(b'!') if src.get(p + 3) == Some(&b'>') => return p + 4,
            _ => from = p + 1,
        }
    }
    src.len()
}

/// Whitespace as the HTML tokenizer knows it inside tags.
pub fn is_tag_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Index just past the next `>` at or after `from` (or the input end).
pub fn skip_past_gt(src: &[u8], from: usize) -> usize {
    let from = from.min(src.len());
    memchr(b'>', &src[from..]).map_or(src.len(), |p| from + p + 1)
}

/// The end tag of raw-text element `name`, whose content starts at
/// `from`: where `</name` starts and the position just past its `>`
/// (case-insensitive; both the input end if there is none).
pub fn raw_text_end(src: &[u8], from: usize, name: &str) -> (usize, usize) {
    let mut i = from.min(src.len());
    while let Some(p) = memmem::find(&src[i..], b"</") {
        let close = i + p;
        let at = close + 2;
        let end = at + name.len();
        if src
            .get(at..end)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            && src
                .get(end)
                .is_none_or(|&b| is_tag_space(b) || b == b'/' || b == b'>')
        {
            return (close, skip_past_gt(src, end));
        }
        i = at;
    }
    (src.len(), src.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::tags::tag;

    fn read(html: &str, max_attributes: usize) -> Tag {
        read_tag(html.as_bytes(), 1, &mut Interner::default(), max_attributes)
    }

    #[test]
    fn a_gt_inside_a_quoted_value_does_not_end_the_tag() {
        let html = "<A title='a>b' href=\"x>y\" data-x=1>rest";
        let t = read(html, 256);
        assert_eq!(t.id, tag::A);
        assert_eq!(&html[t.after..], "rest");
        assert!(!t.self_closing && t.cut_from.is_none());
    }

    #[test]
    fn attributes_past_the_budget_are_counted_from_the_first_excess_one() {
        let html = "<div a=1 b c='3' d=\"4\">";
        let t = read(html, 2);
        assert_eq!(t.excess_attributes, 2);
        assert_eq!(&html[t.cut_from.unwrap()..t.after - 1], "c='3' d=\"4\"");
    }

    #[test]
    fn self_closing_is_the_slash_right_before_the_gt() {
        assert!(read("<br/>", 9).self_closing);
        assert!(read("<path d='M0'  />", 9).self_closing);
        assert!(!read("<a href=/x/>", 9).self_closing);
        assert!(!read("<a / b>", 9).self_closing);
    }

    #[test]
    fn raw_text_ends_at_its_own_end_tag_only() {
        let html = "x</scripts></b></SCRIPT >after";
        let (close, resume) = raw_text_end(html.as_bytes(), 0, "script");
        assert_eq!(&html[close..], "</SCRIPT >after");
        assert_eq!(&html[resume..], "after");
        assert_eq!(raw_text_end(b"no end", 0, "style"), (6, 6));
    }

    #[test]
    fn a_comment_ends_at_the_first_of_its_two_closings() {
        fn end(html: &str) -> &str {
            &html[skip_markup_declaration(html.as_bytes(), 0, false)..]
        }
        assert_eq!(end("<!-- a -- b --!> c --> d"), " c --> d");
        assert_eq!(end("<!-- a --> c --!> d"), " c --!> d");
        assert_eq!(end("<!-- a ----> b"), " b");
        assert_eq!(end("<!-- a --!-> b --> c"), " c");
        assert_eq!(end("<!--> a"), " a");
        assert_eq!(end("<!-- never closed --"), "");
    }
}
