//! The work budget of one parse, enforced on the raw HTML before html5ever
//! sees it, in one linear pass: at most [`MAX_ELEMENTS`] start tags (the
//! page is cut before the next one, so the records of its first part
//! remain) and at most [`MAX_ATTRIBUTES`] attributes per element (the rest
//! are dropped: html5ever's duplicate-attribute check is quadratic in them,
//! 400,000 distinct names took 92 s).
//!
//! Invariants: a page within both budgets is returned borrowed and byte for
//! byte unchanged; the output is never longer than the input; comments,
//! `<script>` and `<style>` contents are skipped, not counted.

use std::borrow::Cow;

/// Start tags parsed at most per page. A page of 150,000 records of one
/// element each builds ~60 MB of trees; real list pages have well under
/// 20,000 elements.
pub const MAX_ELEMENTS: usize = 150_000;
/// Attributes kept per element; real elements have a handful.
pub const MAX_ATTRIBUTES: usize = 256;

/// The HTML to parse and what the budget cut.
#[derive(Debug)]
pub struct Bounded<'a> {
    pub html: Cow<'a, str>,
    /// The page was cut after [`MAX_ELEMENTS`] start tags.
    pub truncated: bool,
    /// Attributes dropped beyond [`MAX_ATTRIBUTES`] per element.
    pub dropped_attributes: usize,
}

/// Apply the budget to `html` (see the module header).
pub fn bound(html: &str) -> Bounded<'_> {
    let b = html.as_bytes();
    let mut cuts: Vec<(usize, usize)> = Vec::new();
    let (mut elements, mut dropped, mut i) = (0usize, 0usize, 0usize);
    let mut end = b.len();
    while let Some(off) = memchr(b'<', &b[i..]) {
        let lt = i + off;
        let next = b.get(lt + 1).copied().unwrap_or(0);
        if b[lt..].starts_with(b"<!--") {
            i = find(b, lt + 4, b"-->").map_or(b.len(), |p| p + 3);
        } else if next == b'!' || next == b'?' || next == b'/' {
            i = memchr(b'>', &b[lt..]).map_or(b.len(), |p| lt + p + 1);
        } else if next.is_ascii_alphabetic() {
            elements += 1;
            if elements > MAX_ELEMENTS {
                end = lt;
                break;
            }
            let (tag_end, cut, n, raw) = scan_start_tag(b, lt);
            if let Some(from) = cut {
                // Keep the tag's `>` (an unclosed tag at the end of the
                // page loses everything from the cut: `to` stays on a
                // character boundary either way).
                let to = if b.get(tag_end.wrapping_sub(1)) == Some(&b'>') {
                    tag_end - 1
                } else {
                    b.len()
                };
                cuts.push((from, to.max(from)));
                dropped += n;
            }
            i = tag_end;
            if let Some(close) = raw {
                i = find_ci(b, i, close).unwrap_or(b.len());
            }
        } else {
            i = lt + 1;
        }
    }
    if cuts.is_empty() && end == b.len() {
        return Bounded {
            html: Cow::Borrowed(html),
            truncated: false,
            dropped_attributes: 0,
        };
    }
    let mut out = String::with_capacity(end);
    let mut at = 0;
    for (from, to) in cuts.into_iter().filter(|(from, _)| *from < end) {
        out.push_str(&html[at..from]);
        at = to.min(end);
    }
    out.push_str(&html[at..end]);
    Bounded {
        html: Cow::Owned(out),
        truncated: end < b.len(),
        dropped_attributes: dropped,
    }
}

/// Scan the start tag at `lt`: returns the index after its `>`, where to
/// cut excess attributes from (up to the `>`), how many were dropped, and
/// the end tag to skip to for raw-text elements.
fn scan_start_tag(b: &[u8], lt: usize) -> (usize, Option<usize>, usize, Option<&'static [u8]>) {
    let mut i = lt + 1;
    while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' && b[i] != b'/' {
        i += 1;
    }
    let name = &b[lt + 1..i];
    let raw: Option<&'static [u8]> = if name.eq_ignore_ascii_case(b"script") {
        Some(b"</script")
    } else if name.eq_ignore_ascii_case(b"style") {
        Some(b"</style")
    } else {
        None
    };
    let (mut count, mut cut, mut dropped) = (0usize, None, 0usize);
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        if i >= b.len() {
            return (b.len(), cut, dropped, raw);
        }
        if b[i] == b'>' {
            return (i + 1, cut, dropped, raw);
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && !matches!(b[i], b'=' | b'>' | b'/') {
            i += 1;
        }
        if i == start {
            i += 1;
        }
        if b.get(i) == Some(&b'=') {
            i += 1;
            i = skip_value(b, i);
        }
        count += 1;
        if count > MAX_ATTRIBUTES {
            cut.get_or_insert(start);
            dropped += 1;
        }
    }
}

/// Skip an attribute value starting at `i` (quoted or not).
fn skip_value(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    match b.get(i) {
        Some(&q) if q == b'"' || q == b'\'' => {
            memchr(q, &b[i + 1..]).map_or(b.len(), |p| i + p + 2)
        }
        _ => {
            while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                i += 1;
            }
            i
        }
    }
}

fn memchr(needle: u8, hay: &[u8]) -> Option<usize> {
    hay.iter().position(|&c| c == needle)
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|p| from + p)
}

fn find_ci(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(pat.len())
        .position(|w| w.eq_ignore_ascii_case(pat))
        .map(|p| from + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (found writing the fuzz target): an unclosed tag with
    /// too many attributes at the end of a page, last character multi-byte,
    /// cut inside that character and panicked.
    #[test]
    fn an_unclosed_tag_ending_in_a_multibyte_character_does_not_panic() {
        let attrs: String = (0..300).map(|i| format!(" a{i}")).collect();
        let html = format!("<p>x</p><div{attrs} é");
        let b = bound(&html);
        assert_eq!(b.dropped_attributes, 300 + 1 - MAX_ATTRIBUTES);
        assert!(b.html.starts_with("<p>x</p><div a0"));
    }

    #[test]
    fn ordinary_pages_are_untouched_and_borrowed() {
        let html = "<!doctype html><html><head><style>a<b{}</style><script>if (a<b) x()</script></head>\
                    <body><!-- <p a=1> --><ul><li class=\"x\" data-a='1>2'>One</li></ul></body></html>";
        let b = bound(html);
        assert!(matches!(b.html, Cow::Borrowed(_)));
        assert!(!b.truncated);
        assert_eq!(b.dropped_attributes, 0);
    }

    #[test]
    fn too_many_elements_cut_the_page_at_a_tag_boundary() {
        let html = "<p>a".repeat(MAX_ELEMENTS + 1000);
        let b = bound(&html);
        assert!(b.truncated);
        assert_eq!(b.html.len(), MAX_ELEMENTS * 4);
        assert!(b.html.ends_with("<p>a"));
    }

    #[test]
    fn attributes_beyond_the_budget_are_dropped_and_the_tag_still_closes() {
        let attrs: String = (0..400_000).map(|i| format!(" a{i}=\"v\"")).collect();
        let html = format!("<div{attrs}>Text</div><p title=\"kept\">after</p>");
        let b = bound(&html);
        assert_eq!(b.dropped_attributes, 400_000 - MAX_ATTRIBUTES);
        assert!(
            b.html.ends_with(">Text</div><p title=\"kept\">after</p>"),
            "{}",
            &b.html[b.html.len() - 60..]
        );
        let doc = crate::extract::dom::parse(&html);
        assert!(doc.text(0).contains("Text after"), "{}", doc.text(0));
    }
}
