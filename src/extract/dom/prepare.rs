//! Everything done to raw HTML before a parser reads it, in one linear
//! pass over its tags: the work budget ([`super::budget`]: elements,
//! attributes per element), the nesting-depth cap ([`super::depth`]) and
//! the cap on open formatting elements ([`super::formatting`]),
//! emptying the bodies of `script`, `style` and `noscript`, which the
//! arena drops anyway (html5ever then has less to tokenize), and noting
//! where each `script` element is ([`ScriptSpans`]), so that the embedded
//! data reader does not scan the page a second time.
//!
//! Invariants:
//! - One pass: every byte is looked at a bounded number of times; tag names
//!   are interned ids ([`super::tags`]), so no tag allocates.
//! - Only whole byte ranges are removed, each starting and ending on an
//!   ASCII byte (`<`, `>`, or the start of an attribute name), so the
//!   output is valid UTF-8 and never longer than the input; a page nothing
//!   applies to comes back borrowed and byte for byte unchanged.
//! - A raw-text body is emptied only where that cannot change the parse:
//!   outside `svg`/`math` (where `script` is not raw text) and, for
//!   `script`, only when the body holds no `<!--` (which can make a later
//!   `</script>` part of the script).
//! - Comments, raw-text contents and attribute values are never read as
//!   tags.
//! - Script spans are byte ranges of the input (not of the output), in
//!   document order, at most [`MAX_SCRIPT_SPANS`]; they cover the input up
//!   to [`ScriptSpans::scanned_to`] (where the element budget cut it).

use std::borrow::Cow;
use std::hash::BuildHasher as _;
use std::ops::Range;

use memchr::{memchr, memmem};

use super::budget::{MAX_ATTRIBUTES, MAX_ELEMENTS};
use super::depth::{OpenElements, Verdict};
use super::formatting::is_formatting;
use super::lexer::{self, Tag};
use super::tags::{Interner, TagId, is_raw_text, tag};

/// What the pass applies besides the work budget, which always applies.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Drop start tags that would nest deeper than this (and their end
    /// tags); `None` leaves nesting alone.
    pub max_depth: Option<usize>,
    /// Empty the bodies of `script`, `style` and `noscript` (only for
    /// readers that drop those elements' contents).
    pub empty_raw_bodies: bool,
}

/// `script` elements noted per page; later ones are not read for data.
pub const MAX_SCRIPT_SPANS: usize = 1_000;

/// One `script` element of the input, as byte ranges of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptSpan {
    /// From just past `<script` to the start tag's `>` (exclusive): the
    /// attributes as written.
    pub attributes: Range<usize>,
    /// The text between the start tag and `</script` (the input end when
    /// there is none).
    pub body: Range<usize>,
}

/// Where the `script` elements of an input are (see the module header).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptSpans {
    pub spans: Vec<ScriptSpan>,
    /// The spans cover the input up to this byte: its length, unless the
    /// element budget cut the page (0 when no pass ran).
    pub scanned_to: usize,
}

/// The HTML to parse and what the pass cut.
#[derive(Debug)]
pub struct Prepared<'a> {
    /// Borrowed when nothing was cut.
    pub html: Cow<'a, str>,
    /// The input's `script` elements.
    pub scripts: ScriptSpans,
    /// The page was cut before its start tag number `MAX_ELEMENTS + 1`.
    pub truncated: bool,
    /// Attributes dropped beyond [`MAX_ATTRIBUTES`] per element.
    pub dropped_attributes: usize,
    /// Start tags dropped by the depth cap (their end tags go too, uncounted).
    pub dropped_deep_tags: usize,
    /// Formatting start tags dropped by the cap on the list of active
    /// formatting elements ([`super::formatting`]; end tags likewise).
    pub dropped_formatting_tags: usize,
}

/// Apply the pass to `html` (see the module header).
pub fn prepare(html: &str, options: Options) -> Prepared<'_> {
    let mut pass = Pass {
        src: html.as_bytes(),
        names: Interner::default(),
        open: options.max_depth.map(OpenElements::new),
        empty_raw_bodies: options.empty_raw_bodies,
        cuts: Vec::new(),
        scripts: Vec::new(),
        elements: 0,
        end: html.len(),
        dropped_attributes: 0,
        dropped_deep_tags: 0,
        dropped_formatting_tags: 0,
    };
    pass.run();
    pass.finish(html)
}

struct Pass<'a> {
    src: &'a [u8],
    names: Interner,
    open: Option<OpenElements>,
    empty_raw_bodies: bool,
    /// Byte ranges to remove, in order, disjoint.
    cuts: Vec<Range<usize>>,
    scripts: Vec<ScriptSpan>,
    elements: usize,
    /// Where the element budget cut the page (the input end if it did not).
    end: usize,
    dropped_attributes: usize,
    dropped_deep_tags: usize,
    dropped_formatting_tags: usize,
}

impl Pass<'_> {
    fn run(&mut self) {
        let src = self.src;
        let mut i = 0;
        while let Some(off) = memchr(b'<', &src[i..]) {
            let lt = i + off;
            i = match src.get(lt + 1) {
                Some(b'!') => lexer::skip_markup_declaration(src, lt, self.in_foreign()),
                Some(b'?') => lexer::skip_past_gt(src, lt + 2),
                Some(b'/') => match src.get(lt + 2) {
                    Some(c) if c.is_ascii_alphabetic() => self.end_tag(lt),
                    Some(b'>') => lt + 3,
                    // `</` + other: a bogus comment up to `>`.
                    Some(_) => lexer::skip_past_gt(src, lt + 2),
                    None => src.len(),
                },
                Some(c) if c.is_ascii_alphabetic() => match self.start_tag(lt) {
                    Some(resume) => resume,
                    None => break,
                },
                _ => lt + 1,
            };
        }
    }

    fn in_foreign(&self) -> bool {
        self.open.as_ref().is_some_and(OpenElements::in_foreign)
    }

    /// The start tag at `lt`; returns where scanning resumes, `None` when
    /// the element budget ends the page here.
    fn start_tag(&mut self, lt: usize) -> Option<usize> {
        self.elements += 1;
        if self.elements > MAX_ELEMENTS {
            self.end = lt;
            return None;
        }
        let tag = lexer::read_tag(self.src, lt + 1, &mut self.names, MAX_ATTRIBUTES);
        if tag.id == tag::PLAINTEXT {
            // Everything after it is text: no more tags.
            self.keep_attributes(&tag);
            return Some(self.src.len());
        }
        if is_raw_text(tag.id) {
            // Kept at any depth: its content is text to the parser, and
            // dropping the tag would turn that content into page text.
            self.keep_attributes(&tag);
            return Some(self.raw_text(lt, &tag));
        }
        let verdict = match self.open.as_mut() {
            Some(open) => {
                // Formatting elements are told apart as written.
                let written = if is_formatting(tag.id) {
                    rustc_hash::FxBuildHasher.hash_one(&self.src[lt..tag.after])
                } else {
                    0
                };
                open.start(tag.id, tag.self_closing, written)
            }
            None => Verdict::Keep,
        };
        match verdict {
            Verdict::Keep => self.keep_attributes(&tag),
            Verdict::TooDeep => self.dropped_deep_tags += 1,
            Verdict::TooMuchFormatting => self.dropped_formatting_tags += 1,
        }
        if verdict != Verdict::Keep {
            self.cuts.push(lt..tag.after);
        }
        Some(tag.after)
    }

    /// A kept tag loses its attributes beyond the budget, up to its `>`
    /// (an unclosed tag at the end of the page loses everything from the
    /// cut: the range ends on a character boundary either way).
    fn keep_attributes(&mut self, tag: &Tag) {
        let Some(from) = tag.cut_from else { return };
        let to = if self.src.get(tag.after.wrapping_sub(1)) == Some(&b'>') {
            tag.after - 1
        } else {
            self.src.len()
        };
        self.cuts.push(from..to.max(from));
        self.dropped_attributes += tag.excess_attributes;
    }

    /// Skips the content of the raw-text element whose start tag `tag` is
    /// at `lt`, noting a script and emptying the content when allowed (see
    /// the module header); returns where scanning resumes.
    fn raw_text(&mut self, lt: usize, tag: &Tag) -> usize {
        let (id, from) = (tag.id, tag.after);
        let (close, resume) = lexer::raw_text_end(self.src, from, self.names.name(id));
        if id == tag::SCRIPT && self.scripts.len() < MAX_SCRIPT_SPANS {
            let name_end = (lt + 1 + "script".len()).min(from);
            // Before the `>`; an unclosed tag at the input end runs to it.
            let closed = self.src.get(from.wrapping_sub(1)) == Some(&b'>');
            let tag_end = if closed { from - 1 } else { from }.max(name_end);
            self.scripts.push(ScriptSpan {
                attributes: name_end..tag_end,
                body: from..close,
            });
        }
        if self.may_empty(id, from..close) {
            self.cuts.push(from..close);
        }
        resume
    }

    /// Whether the raw-text `body` of element `id` may be emptied (the
    /// cheap checks first: the body extractor's pass never empties).
    fn may_empty(&self, id: TagId, body: Range<usize>) -> bool {
        self.empty_raw_bodies
            && matches!(id, tag::SCRIPT | tag::STYLE | tag::NOSCRIPT)
            && !body.is_empty()
            && !self.in_foreign()
            && !(id == tag::SCRIPT && memmem::find(&self.src[body], b"<!--").is_some())
    }

    /// The end tag at `lt`; returns where scanning resumes.
    fn end_tag(&mut self, lt: usize) -> usize {
        let tag = lexer::read_tag(self.src, lt + 2, &mut self.names, usize::MAX);
        if let Some(open) = self.open.as_mut()
            && !open.end(tag.id)
        {
            self.cuts.push(lt..tag.after);
        }
        tag.after
    }

    fn finish(self, html: &str) -> Prepared<'_> {
        let truncated = self.end < html.len();
        let scripts = ScriptSpans {
            spans: self.scripts,
            scanned_to: self.end,
        };
        if self.cuts.is_empty() && !truncated {
            return Prepared {
                html: Cow::Borrowed(html),
                scripts,
                truncated,
                dropped_attributes: 0,
                dropped_deep_tags: 0,
                dropped_formatting_tags: 0,
            };
        }
        let mut out = String::with_capacity(self.end);
        let mut at = 0;
        for cut in self.cuts.iter().filter(|c| c.start < self.end) {
            out.push_str(html.get(at..cut.start).unwrap_or_default());
            at = cut.end.min(self.end);
        }
        out.push_str(html.get(at..self.end).unwrap_or_default());
        Prepared {
            html: Cow::Owned(out),
            scripts,
            truncated,
            dropped_attributes: self.dropped_attributes,
            dropped_deep_tags: self.dropped_deep_tags,
            dropped_formatting_tags: self.dropped_formatting_tags,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::depth::MAX_DEPTH;

    const FULL: Options = Options {
        max_depth: Some(MAX_DEPTH),
        empty_raw_bodies: true,
    };

    #[test]
    fn script_style_and_noscript_bodies_are_emptied_and_the_rest_is_kept() {
        let html = "<html><head><title>T &amp; <b>x</b></title><style>p{color:red}</style>\
                    <script type=\"application/ld+json\">{\"a\":\"</p>\"}</script></head>\
                    <body><noscript><img src=t.gif></noscript><textarea><p>kept</p></textarea>\
                    <p>Text</p><script>if (a<b) x()</SCRIPT ></body></html>";
        let p = prepare(html, FULL);
        assert_eq!(
            p.html,
            "<html><head><title>T &amp; <b>x</b></title><style></style>\
             <script type=\"application/ld+json\"></script></head>\
             <body><noscript></noscript><textarea><p>kept</p></textarea>\
             <p>Text</p><script></SCRIPT ></body></html>"
        );
        assert_eq!((p.dropped_deep_tags, p.dropped_attributes), (0, 0));
        let same = Options {
            empty_raw_bodies: false,
            ..FULL
        };
        assert!(matches!(prepare(html, same).html, Cow::Borrowed(_)));
    }

    /// A `<!--` in a script can make the parser read past the next
    /// `</script>` (the "double escaped" states): such a body stays whole,
    /// so that what follows is parsed as the browser parses it.
    #[test]
    fn a_script_body_with_a_comment_opener_is_left_whole() {
        let html = "<script><!--<script>x</script>--></script><p>after</p>";
        assert!(matches!(prepare(html, FULL).html, Cow::Borrowed(_)));
        let doc = crate::extract::dom::parse(html);
        assert_eq!(doc.text(0).trim(), "after");
    }

    #[test]
    fn inside_svg_a_script_is_markup_and_is_not_emptied() {
        // In foreign content `<script>` is not raw text: the `<p>` breaks
        // out of the svg and its words are page text.
        let html = "<div><svg><script><p>words</p></script></svg></div>";
        assert!(matches!(prepare(html, FULL).html, Cow::Borrowed(_)));
        let doc = crate::extract::dom::parse(html);
        assert!(doc.text(0).contains("words"), "{}", doc.text(0));
    }

    #[test]
    fn an_unterminated_script_is_emptied_to_the_end_of_the_page() {
        let p = prepare("<p>a</p><script>var x = '<div>'", FULL);
        assert_eq!(p.html, "<p>a</p><script>");
    }

    #[test]
    fn a_deep_tag_with_excess_attributes_is_dropped_whole() {
        let attrs: String = (0..MAX_ATTRIBUTES + 5).map(|i| format!(" a{i}")).collect();
        let html = format!("<div><div{attrs}>x</div></div>");
        let p = prepare(
            &html,
            Options {
                max_depth: Some(1),
                empty_raw_bodies: true,
            },
        );
        assert_eq!(p.html, "<div>x</div>");
        assert_eq!((p.dropped_deep_tags, p.dropped_attributes), (1, 0));
    }
}
