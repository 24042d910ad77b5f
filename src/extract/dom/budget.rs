//! The work budget of one parse, enforced on the raw HTML before a parser
//! sees it (by the one pre-pass, [`super::prepare`]): at most
//! [`MAX_ELEMENTS`] start tags (the page is cut before the next one, so the
//! records of its first part remain) and at most [`MAX_ATTRIBUTES`]
//! attributes per element (the rest are dropped: html5ever's
//! duplicate-attribute check is quadratic in them, 400,000 distinct names
//! took 92 s).
//!
//! Invariants: a page within both budgets is returned borrowed and byte for
//! byte unchanged; the output is never longer than the input; comments and
//! raw-text contents (`<script>`, `<style>`, ...) are skipped, not counted.

use super::prepare::{Options, Prepared, prepare};

/// Start tags parsed at most per page. A page of 150,000 records of one
/// element each builds ~60 MB of trees; real list pages have well under
/// 20,000 elements.
pub const MAX_ELEMENTS: usize = 150_000;
/// Attributes kept per element; real elements have a handful.
pub const MAX_ATTRIBUTES: usize = 256;
/// Nodes (elements, texts, comments) the tree builder may make per page,
/// enforced by the tree sink ([`super::sink`]): the parser also makes
/// elements the page never wrote as start tags (a `p` for each stray
/// `</p>`, a `br` for `</br>`, formatting elements re-opened in every
/// block), which [`MAX_ELEMENTS`] does not count: a 10 MB page of `</p>`
/// made 2.5 million elements and took 710 MB. A page at the start-tag
/// budget makes two to three nodes per tag, so this cut only bites on
/// pages that make nodes they never wrote; the tree is then the page's
/// first part.
pub const MAX_NODES: usize = 4 * MAX_ELEMENTS;

/// Apply the budget alone to `html` (see the module header), for readers
/// with their own tokenizer (article bodies).
pub fn bound(html: &str) -> Prepared<'_> {
    prepare(
        html,
        Options {
            max_depth: None,
            empty_raw_bodies: false,
        },
    )
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

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
