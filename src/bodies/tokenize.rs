//! Tag recognition (paper 000 §2.1): a flat token list over the raw HTML with
//! byte spans, after cleaning (§2 step 1: comments, scripts, styles dropped).
//!
//! Invariants: tokens are in document order; every span lies on UTF-8 char
//! boundaries of the source; a `Text` token never is whitespace-only (blank
//! runs are folded into the next token's `space_before`); tag names are
//! ASCII-lowercased and interned per document (`TagId`). Entities are left
//! undecoded (decoding happens only for the text that is output).
//!
//! Why a hand-written scanner rather than html5gum: the extractor's budget is
//! under a millisecond per page and it only needs tag names, attribute spans
//! and text spans; a `memchr`-driven scan over bytes does that in one pass
//! without allocating per token. Raw-text elements (script, style, iframe,
//! noembed, noframes, xmp) are skipped as the HTML tokenizer would; JSON-LD
//! script bodies are kept aside for `meta`.

use std::ops::Range;

use crate::extract::dom::lexer::{raw_text_end, skip_past_gt};
use crate::extract::dom::tags::Interner;
pub use crate::extract::dom::tags::{TEXT, TagId, is_void, tag};

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `<name ...>`; `self_closing` tells `<name .../>`.
    Start,
    /// `</name>`.
    End,
    /// Non-blank character data between tags.
    Text,
}

/// One token with its byte spans in the source.
#[derive(Clone, Debug)]
pub struct Token {
    pub kind: TokenKind,
    /// Tag id for `Start`/`End`; `TEXT` for text.
    pub tag: TagId,
    /// Written as `<x/>`.
    pub self_closing: bool,
    /// Blank text (or a comment/script) separated this token from the previous one.
    pub space_before: bool,
    /// The whole token (`<...>` or the text).
    pub span: Range<u32>,
    /// Attribute source (between name and `>`), empty for non-start tokens.
    pub attrs: Range<u32>,
    /// For text: number of non-whitespace bytes (the paper's text length).
    pub text_len: u32,
}

/// The token list of one document plus what `meta` needs.
#[derive(Debug, Default)]
pub struct Tokens {
    pub tokens: Vec<Token>,
    /// Tag names beyond the known ones.
    names: Interner,
    /// Byte spans of `<script type="application/ld+json">` bodies.
    pub json_ld: Vec<Range<u32>>,
    /// Number of element (start-tag) tokens plus text tokens: the node count
    /// of the full DOM this token list describes.
    pub node_count: usize,
}

impl Tokens {
    /// Lowercase name of a tag id.
    pub fn name(&self, id: TagId) -> &str {
        self.names.name(id)
    }
}

/// Tokenize `src`: see the module header.
pub fn tokenize(src: &str) -> Tokens {
    let b = src.as_bytes();
    let mut out = Tokens {
        tokens: Vec::with_capacity(b.len() / 40),
        ..Tokens::default()
    };
    let mut pos = 0usize;
    let mut space = false;
    while pos < b.len() {
        let lt = match memchr::memchr(b'<', &b[pos..]) {
            Some(i) => pos + i,
            None => b.len(),
        };
        if lt > pos {
            push_text(&mut out, b, pos, lt, &mut space);
        }
        if lt >= b.len() {
            break;
        }
        let next = b.get(lt + 1).copied().unwrap_or(0);
        if next == b'!' {
            if b[lt..].starts_with(b"<!--") {
                pos = match memchr::memmem::find(&b[lt + 4..], b"-->") {
                    Some(i) => lt + 4 + i + 3,
                    None => b.len(),
                };
            } else {
                pos = skip_past_gt(b, lt + 2);
            }
            space = true;
            continue;
        }
        if next == b'?' {
            pos = skip_past_gt(b, lt + 2);
            space = true;
            continue;
        }
        let is_end = next == b'/';
        let name_start = if is_end { lt + 2 } else { lt + 1 };
        if !b.get(name_start).is_some_and(|c| c.is_ascii_alphabetic()) {
            if is_end {
                // `</>` or `</ junk>`: a bogus comment to the next `>`.
                pos = skip_past_gt(b, name_start);
                continue;
            }
            // A lone `<` is text.
            let stop = memchr::memchr(b'<', &b[lt + 1..]).map_or(b.len(), |i| lt + 1 + i);
            push_text(&mut out, b, lt, stop, &mut space);
            pos = stop;
            continue;
        }
        let mut name_end = name_start;
        while name_end < b.len()
            && !matches!(
                b[name_end],
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>'
            )
        {
            name_end += 1;
        }
        let tag = out.names.intern(&b[name_start..name_end]);
        if is_end {
            let gt = skip_past_gt(b, name_end);
            out.tokens.push(Token {
                kind: TokenKind::End,
                tag,
                self_closing: false,
                space_before: std::mem::take(&mut space),
                span: lt as u32..gt as u32,
                attrs: 0..0,
                text_len: 0,
            });
            pos = gt;
            continue;
        }
        let (gt, self_closing) = scan_attrs(b, name_end);
        // A tag cut off by the end of the input has no `>` to leave out of
        // its attributes (and `gt - 1` could split a multi-byte character).
        let closed = b.get(gt.wrapping_sub(1)) == Some(&b'>');
        let attrs_end = if !closed {
            gt
        } else if self_closing {
            gt - 2
        } else {
            gt - 1
        }
        .max(name_end);
        let attrs = name_end as u32..attrs_end as u32;
        pos = gt;
        use tag::*;
        if matches!(tag, SCRIPT | STYLE | IFRAME | NOEMBED | NOFRAMES | XMP) && !self_closing {
            // Raw text: skip to the matching end tag, keep JSON-LD aside.
            let (close, resume) = raw_text_end(b, gt, out.name(tag));
            if tag == SCRIPT {
                let a = &src[attrs.start as usize..attrs.end as usize];
                if a.to_ascii_lowercase().contains("ld+json") {
                    out.json_ld.push(gt as u32..close as u32);
                }
            }
            pos = resume;
            space = true;
            continue;
        }
        out.node_count += 1;
        out.tokens.push(Token {
            kind: TokenKind::Start,
            tag,
            self_closing,
            space_before: std::mem::take(&mut space),
            span: lt as u32..gt as u32,
            attrs,
            text_len: 0,
        });
        if matches!(tag, TITLE | TEXTAREA) && !self_closing {
            // RCDATA: the content is text up to the end tag.
            let (close, _) = raw_text_end(b, gt, out.name(tag));
            if close > gt {
                push_text(&mut out, b, gt, close, &mut space);
            }
            pos = close;
        }
    }
    out
}

fn push_text(out: &mut Tokens, b: &[u8], start: usize, end: usize, space: &mut bool) {
    let slice = &b[start..end];
    let non_ws = slice.iter().filter(|c| !c.is_ascii_whitespace()).count();
    if non_ws == 0 {
        *space = true;
        return;
    }
    out.node_count += 1;
    out.tokens.push(Token {
        kind: TokenKind::Text,
        tag: TEXT,
        self_closing: false,
        space_before: std::mem::take(space),
        span: start as u32..end as u32,
        attrs: 0..0,
        text_len: non_ws as u32,
    });
}

/// Scan a start tag's attributes from `from`; returns (index past `>`, self-closing).
fn scan_attrs(b: &[u8], from: usize) -> (usize, bool) {
    let mut i = from;
    let mut prev_slash = false;
    while i < b.len() {
        match b[i] {
            b'>' => return (i + 1, prev_slash),
            qc @ (b'"' | b'\'') if prev_is_eq_ws(b, from, i) => {
                i = memchr::memchr(qc, &b[i + 1..]).map_or(b.len(), |j| i + 1 + j + 1);
                prev_slash = false;
                continue;
            }
            b'/' => prev_slash = true,
            c if c.is_ascii_whitespace() => {}
            _ => prev_slash = false,
        }
        i += 1;
    }
    (b.len(), false)
}

/// A quote opens an attribute value only after `=` (possibly with blanks between).
fn prev_is_eq_ws(b: &[u8], from: usize, i: usize) -> bool {
    let mut j = i;
    while j > from {
        j -= 1;
        match b[j] {
            b'=' => return true,
            c if c.is_ascii_whitespace() => continue,
            _ => return false,
        }
    }
    false
}

/// Value of attribute `name` (lowercase) in a start tag's attribute source,
/// entities decoded.
pub fn attr<'a>(src: &'a str, tok: &Token, name: &str) -> Option<std::borrow::Cow<'a, str>> {
    attrs(src, tok)
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| html_escape::decode_html_entities(v))
}

/// The attributes of a start tag as (name, raw value) pairs, in source order.
pub fn attrs<'a>(src: &'a str, tok: &Token) -> Attrs<'a> {
    Attrs {
        a: src
            .get(tok.attrs.start as usize..tok.attrs.end as usize)
            .unwrap_or(""),
        i: 0,
    }
}

/// Iterator of `attrs`.
pub struct Attrs<'a> {
    a: &'a str,
    i: usize,
}

impl<'a> Iterator for Attrs<'a> {
    type Item = (&'a str, &'a str);
    fn next(&mut self) -> Option<Self::Item> {
        let (a, b) = (self.a, self.a.as_bytes());
        let mut i = self.i;
        loop {
            while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
                i += 1;
            }
            if i >= b.len() {
                self.i = i;
                return None;
            }
            let ns = i;
            while i < b.len() && !matches!(b[i], b'=' | b'>' | b'/') && !b[i].is_ascii_whitespace()
            {
                i += 1;
            }
            let key = &a[ns..i];
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            let mut value: &str = "";
            if i < b.len() && b[i] == b'=' {
                i += 1;
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                    let q = b[i];
                    let vs = i + 1;
                    let ve = memchr::memchr(q, &b[vs..]).map_or(b.len(), |j| vs + j);
                    value = &a[vs..ve];
                    i = (ve + 1).min(b.len());
                } else {
                    let vs = i;
                    while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' {
                        i += 1;
                    }
                    value = &a[vs..i];
                }
            }
            if i == ns {
                // A lone `=` or `>`: step over it (ASCII, so a char boundary).
                i += 1;
                continue;
            }
            self.i = i;
            return Some((key, value));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<String> {
        let t = tokenize(src);
        t.tokens
            .iter()
            .map(|k| match k.kind {
                TokenKind::Start => format!("<{}>", t.name(k.tag)),
                TokenKind::End => format!("</{}>", t.name(k.tag)),
                TokenKind::Text => src[k.span.start as usize..k.span.end as usize].to_string(),
            })
            .collect()
    }

    #[test]
    fn drops_comments_scripts_styles_and_keeps_text() {
        let src =
            "<P class=x>Hi <!-- no --> there<script>if (a<b) x()</script><style>p{}</style></p>";
        assert_eq!(kinds(src), vec!["<p>", "Hi ", " there", "</p>"]);
    }

    #[test]
    fn quoted_gt_in_attribute_and_self_closing() {
        let src = r#"<a title="a>b" href='x'>t</a><br/><img src="y" />"#;
        let t = tokenize(src);
        assert_eq!(kinds(src), vec!["<a>", "t", "</a>", "<br>", "<img>"]);
        assert!(t.tokens[3].self_closing && t.tokens[4].self_closing);
        assert_eq!(attr(src, &t.tokens[0], "title").as_deref(), Some("a>b"));
        assert_eq!(attr(src, &t.tokens[0], "href").as_deref(), Some("x"));
        assert_eq!(attr(src, &t.tokens[4], "src").as_deref(), Some("y"));
    }

    #[test]
    fn json_ld_kept_aside_and_lone_lt_is_text() {
        let src = r#"<script type="application/ld+json">{"a":1}</script><p>1 < 2</p>"#;
        let t = tokenize(src);
        assert_eq!(t.json_ld.len(), 1);
        let r = &t.json_ld[0];
        assert_eq!(&src[r.start as usize..r.end as usize], r#"{"a":1}"#);
        assert_eq!(kinds(src), vec!["<p>", "1 ", "< 2", "</p>"]);
    }

    #[test]
    fn unterminated_input_does_not_panic() {
        for src in ["<", "<a", "<a href=\"x", "</", "<!--", "<script>x", "<p>é<"] {
            let _ = tokenize(src);
        }
    }

    #[test]
    fn tag_cut_off_after_a_multibyte_attribute_keeps_char_boundaries() {
        // Fuzz finding (fuzz/regressions/tokenize): the attribute span of a
        // start tag that reaches the end of the input ended one byte before
        // it, inside the two-byte 'ޞ', and slicing it panicked.
        let toks = tokenize("<p>x</p><script type=\u{79e}");
        assert_eq!(toks.tokens.len(), 3); // the cut-off script is skipped
        for src in [
            "<p>x</p><a href=\u{79e}",
            "<a href=\u{e9}",
            "<div class=x\u{4e2d}",
        ] {
            let toks = tokenize(src);
            let last = toks.tokens.last().unwrap();
            assert_eq!(last.kind, TokenKind::Start);
            assert_eq!(last.attrs.end as usize, src.len());
            assert!(src.is_char_boundary(last.attrs.start as usize));
        }
        let toks = tokenize("<a href=\u{e9}");
        assert_eq!(
            attr("<a href=\u{e9}", &toks.tokens[0], "href").as_deref(),
            Some("\u{e9}")
        );
    }
}
