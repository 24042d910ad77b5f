//! Nesting-depth cap applied to raw HTML before html5ever sees it.
//!
//! html5ever's tree builder is quadratic in nesting depth (every start and
//! end tag runs scope checks over the whole stack of open elements): 100,000
//! nested `div`s take minutes. [`cap_depth`] is one linear pass with a cheap
//! tag scanner that tracks the stack of open elements the way the HTML parser
//! would, and drops every start tag that would open an element deeper than
//! the cap, together with the end tag that would close it. Text, void
//! elements and raw-text elements (`script`, `style`, ...) are always kept, so
//! no words are lost and no script source turns into page text.
//!
//! Invariants:
//! - Linear time: every byte is looked at a bounded number of times (the
//!   open-element stack never exceeds `max_depth + 1`, so each scope search
//!   is bounded by the cap).
//! - Pages whose tracked depth never exceeds the cap come back unchanged
//!   (borrowed, not copied).
//! - The tracked depth errs on the high side, never the low side: the scanner
//!   closes elements implicitly only where the parser certainly does (`li`,
//!   `p`, `td`, ...; see `close_implied`) and treats html5ever's tolerated
//!   oddities (`<div/>`, unknown elements) as opening. A page can only be
//!   trimmed earlier than needed, never parsed deeper than the cap allows.
//! - Output is valid UTF-8: only whole tags (which start at `<` and end at
//!   `>`, both ASCII) are removed.

use std::borrow::Cow;
use std::collections::HashMap;

use memchr::{memchr, memmem};

/// Deepest element nesting handed to html5ever. Real pages nest 10–40
/// elements deep (the deepest in our evaluation data is below 60); 256 leaves
/// a wide margin while keeping the parser's quadratic scope checks at
/// 256² per tag in the worst case.
pub const MAX_DEPTH: usize = 256;

/// A page after the depth cap.
#[derive(Debug)]
pub struct Capped<'a> {
    /// The HTML to parse (borrowed when nothing was dropped).
    pub html: Cow<'a, str>,
    /// Start tags dropped because they would have opened an element deeper
    /// than the cap (their end tags are dropped too but not counted).
    pub dropped_start_tags: usize,
}

/// Elements that never have content (HTML void elements).
const VOID: &[&str] = &[
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img",
    "input", "keygen", "link", "meta", "param", "source", "track", "wbr",
];

/// Elements whose content is raw text up to their own end tag (the parser
/// reads no tags inside). `noscript` is raw text because kuchikikiki parses
/// with scripting enabled.
const RAW_TEXT: &[&str] = &[
    "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript",
];

/// Elements the parser merges into the existing one instead of nesting.
const SINGLETONS: &[&str] = &["html", "head", "body"];

/// Scope boundaries: an end tag or implied close never reaches past them
/// (the HTML spec's "has an element in scope" list, HTML namespace).
const SCOPE_BOUNDARY: &[&str] = &[
    "applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "svg",
    "math",
];

/// End tags the parser matches within the default scope (the spec's block,
/// table and list end tags); other end tags stop at any special element.
const SCOPED_END_TAGS: &[&str] = &[
    "address",
    "applet",
    "article",
    "aside",
    "blockquote",
    "button",
    "caption",
    "center",
    "dd",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "header",
    "hgroup",
    "listing",
    "main",
    "marquee",
    "menu",
    "nav",
    "object",
    "ol",
    "pre",
    "search",
    "section",
    "select",
    "summary",
    "table",
    "tbody",
    "td",
    "template",
    "tfoot",
    "th",
    "thead",
    "tr",
    "ul",
];

fn is_boundary(name: &str) -> bool {
    SCOPE_BOUNDARY.contains(&name)
}

/// The spec's "special" category (all of it).
fn is_special(name: &str) -> bool {
    SPECIAL.contains(&name) || matches!(name, "address" | "div" | "p")
}

/// Start tags that close an open `p` (the spec's "close a p element" list).
const CLOSES_P: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "dd",
    "dt",
    "listing",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "search",
    "section",
    "summary",
    "ul",
];

/// The spec's "special" elements other than `address`, `div` and `p`: the
/// search for an open `li`/`dt`/`dd` to close stops at them.
const SPECIAL: &[&str] = &[
    "applet",
    "area",
    "article",
    "aside",
    "base",
    "basefont",
    "bgsound",
    "blockquote",
    "body",
    "br",
    "button",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dir",
    "dl",
    "dt",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "iframe",
    "img",
    "input",
    "li",
    "link",
    "listing",
    "main",
    "marquee",
    "menu",
    "meta",
    "nav",
    "noembed",
    "noframes",
    "noscript",
    "object",
    "ol",
    "param",
    "plaintext",
    "pre",
    "script",
    "search",
    "section",
    "select",
    "source",
    "style",
    "summary",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
    "wbr",
    "xmp",
];

/// Trim `html` so that no element nests deeper than `max_depth`.
pub fn cap_depth(html: &str, max_depth: usize) -> Capped<'_> {
    let mut scan = Scanner {
        src: html.as_bytes(),
        stack: Vec::new(),
        foreign: 0,
        excess: HashMap::new(),
        max_depth,
        dropped: Vec::new(),
        dropped_start_tags: 0,
    };
    scan.run();
    if scan.dropped.is_empty() {
        return Capped {
            html: Cow::Borrowed(html),
            dropped_start_tags: 0,
        };
    }
    let mut out = String::with_capacity(html.len());
    let mut at = 0;
    for r in &scan.dropped {
        // Ranges start at `<` and end after `>`: ASCII, so char boundaries.
        out.push_str(html.get(at..r.start).unwrap_or_default());
        at = r.end;
    }
    out.push_str(html.get(at..).unwrap_or_default());
    Capped {
        html: Cow::Owned(out),
        dropped_start_tags: scan.dropped_start_tags,
    }
}

/// One tag as the scanner read it.
struct Tag {
    name: String,
    self_closing: bool,
    /// Byte just past the tag's `>` (or the input end).
    after: usize,
}

struct Scanner<'a> {
    src: &'a [u8],
    /// Open elements, outermost first (lower-case names).
    stack: Vec<String>,
    /// Open `svg`/`math` elements: inside them `<x/>` really self-closes.
    foreign: usize,
    /// Per name: start tags dropped whose end tag has not been seen yet.
    excess: HashMap<String, usize>,
    max_depth: usize,
    /// Byte ranges of dropped tags, in order.
    dropped: Vec<std::ops::Range<usize>>,
    dropped_start_tags: usize,
}

impl Scanner<'_> {
    fn run(&mut self) {
        let src = self.src;
        let mut i = 0;
        while let Some(off) = memchr(b'<', &src[i..]) {
            let lt = i + off;
            let next = src.get(lt + 1).copied();
            i = match next {
                Some(b'!') => self.skip_markup_declaration(lt),
                Some(b'?') => skip_past_gt(src, lt + 2),
                Some(b'/') => match src.get(lt + 2) {
                    Some(c) if c.is_ascii_alphabetic() => {
                        let tag = read_tag(src, lt + 2);
                        self.end_tag(&tag, lt);
                        tag.after
                    }
                    Some(b'>') => lt + 3,
                    // `</` + other: a bogus comment up to `>`.
                    Some(_) => skip_past_gt(src, lt + 2),
                    None => src.len(),
                },
                Some(c) if c.is_ascii_alphabetic() => {
                    let tag = read_tag(src, lt + 1);
                    let after = tag.after;
                    match self.start_tag(tag, lt) {
                        Some(resume) => resume,
                        None => after,
                    }
                }
                _ => lt + 1,
            };
        }
    }

    /// `<!--...-->`, `<![CDATA[...]]>` (foreign content only), `<!doctype>`
    /// and bogus comments. Returns where scanning resumes.
    fn skip_markup_declaration(&self, lt: usize) -> usize {
        let src = self.src;
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
            // The comment ends at the first `-->` or `--!>`, whichever comes
            // first (ending early is safe: it can only over-count depth).
            let a = memmem::find(&src[body..], b"-->").map(|p| body + p + 3);
            let b = memmem::find(&src[body..], b"--!>").map(|p| body + p + 4);
            return match (a, b) {
                (Some(a), Some(b)) => a.min(b),
                (Some(x), None) | (None, Some(x)) => x,
                (None, None) => src.len(),
            };
        }
        if self.foreign > 0 && rest.starts_with(b"[CDATA[") {
            return memmem::find(&src[lt..], b"]]>").map_or(src.len(), |p| lt + p + 3);
        }
        skip_past_gt(src, lt + 2)
    }

    /// Handles a start tag at `lt`; returns where scanning resumes when the
    /// element's content is raw text (`Some`), else `None`.
    fn start_tag(&mut self, tag: Tag, lt: usize) -> Option<usize> {
        let name = tag.name.as_str();
        if name == "plaintext" {
            // Everything after it is text: no more tags.
            return Some(self.src.len());
        }
        if RAW_TEXT.contains(&name) {
            // Kept at any depth: its content is text to the parser, and
            // dropping the tag would turn that content into page text.
            return Some(skip_raw_text(self.src, tag.after, name));
        }
        if SINGLETONS.contains(&name) {
            return None;
        }
        let leaf = VOID.contains(&name) || (tag.self_closing && self.foreign > 0);
        if self.foreign == 0 {
            self.close_implied(name);
        }
        if leaf {
            return None;
        }
        if self.stack.len() >= self.max_depth {
            self.dropped.push(lt..tag.after);
            self.dropped_start_tags += 1;
            *self.excess.entry(tag.name).or_insert(0) += 1;
            return None;
        }
        if name == "svg" || name == "math" {
            self.foreign += 1;
        }
        self.stack.push(tag.name);
        None
    }

    fn end_tag(&mut self, tag: &Tag, lt: usize) {
        if let Some(n) = self.excess.get_mut(&tag.name)
            && *n > 0
        {
            *n -= 1;
            self.dropped.push(lt..tag.after);
            return;
        }
        let name = tag.name.as_str();
        if SINGLETONS.contains(&name) {
            return;
        }
        if name == "form" {
            // The parser removes just the form element, not what is inside.
            if let Some(d) = self.find_in_scope(|n| n == "form") {
                self.stack.remove(d);
            }
            return;
        }
        let heading = |n: &str| matches!(n, "h1" | "h2" | "h3" | "h4" | "h5" | "h6");
        let found = if heading(name) {
            self.find_in_scope(heading)
        } else if name == "li" {
            // List item scope: `ul`/`ol` also stop the search.
            self.find_until(|n| n == "li", |n| is_boundary(n) || n == "ul" || n == "ol")
        } else if name == "p" {
            self.find_until(|n| n == "p", |n| is_boundary(n) || n == "button")
        } else if SCOPED_END_TAGS.contains(&name) {
            self.find_in_scope(|n| n == name)
        } else {
            // "Any other end tag" (and formatting elements without a
            // furthest block): pops to the match unless a special element
            // is nearer, in which case the parser ignores it.
            self.find_until(|n| n == name, is_special)
        };
        if let Some(d) = found {
            self.pop_to(d);
        }
    }

    /// Index of the innermost open element `is_target` accepts, searching
    /// no further out than a scope boundary.
    fn find_in_scope(&self, is_target: impl Fn(&str) -> bool) -> Option<usize> {
        self.find_until(is_target, is_boundary)
    }

    /// Index of the innermost open element `is_target` accepts, searching
    /// no further out than the first element `stop` accepts.
    fn find_until(
        &self,
        is_target: impl Fn(&str) -> bool,
        stop: impl Fn(&str) -> bool,
    ) -> Option<usize> {
        for (d, open) in self.stack.iter().enumerate().rev() {
            if is_target(open) {
                return Some(d);
            }
            if stop(open) {
                return None;
            }
        }
        None
    }

    /// Close `stack[d]` and everything inside it.
    fn pop_to(&mut self, d: usize) {
        while self.stack.len() > d {
            if let Some(n) = self.stack.pop()
                && (n == "svg" || n == "math")
            {
                self.foreign = self.foreign.saturating_sub(1);
            }
        }
    }

    /// Elements the start of `name` closes implicitly in the HTML parser
    /// (only the common cases; missing one only over-counts depth).
    fn close_implied(&mut self, name: &str) {
        if CLOSES_P.contains(&name)
            && let Some(d) = self.find_in_scope(|n| n == "p" || n == "button")
            && self.stack[d] == "p"
        {
            self.pop_to(d);
        }
        match name {
            "li" => self.close_list_item(&["li"]),
            "dt" | "dd" => self.close_list_item(&["dt", "dd"]),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
                if self.stack.last().is_some_and(|t| {
                    matches!(t.as_str(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
                }) =>
            {
                self.stack.pop();
            }
            // The adoption agency pops to the open `a`/`nobr` only when no
            // special element (a "furthest block") lies above it.
            "a" | "nobr" => {
                if let Some(d) = self.find_until(|n| n == name, is_special) {
                    self.pop_to(d);
                }
            }
            "button" => {
                if let Some(d) = self.find_in_scope(|n| n == "button") {
                    self.pop_to(d);
                }
            }
            "option" if self.stack.last().is_some_and(|t| t == "option") => {
                self.stack.pop();
            }
            "td" | "th" => {
                if let Some(d) = self.find_in_table(&["td", "th"], &["tr", "table"]) {
                    self.pop_to(d);
                }
            }
            "tr" => {
                if let Some(d) = self.find_in_table(&["tr"], &["table"]) {
                    self.pop_to(d);
                }
            }
            "tbody" | "thead" | "tfoot" => {
                if let Some(d) = self.find_in_table(&["tbody", "thead", "tfoot"], &["table"]) {
                    self.pop_to(d);
                }
            }
            _ => {}
        }
    }

    /// The spec's `li`/`dt`/`dd` start-tag steps: close the innermost open
    /// one unless a special element (other than address, div, p) is nearer.
    fn close_list_item(&mut self, targets: &[&str]) {
        for d in (0..self.stack.len()).rev() {
            let open = self.stack[d].as_str();
            if targets.contains(&open) {
                self.pop_to(d);
                return;
            }
            if SPECIAL.contains(&open) && !matches!(open, "address" | "div" | "p") {
                return;
            }
        }
    }

    /// Innermost open `targets` element not beyond a `stops` element.
    fn find_in_table(&self, targets: &[&str], stops: &[&str]) -> Option<usize> {
        for (d, open) in self.stack.iter().enumerate().rev() {
            if targets.contains(&open.as_str()) {
                return Some(d);
            }
            if stops.contains(&open.as_str()) || open == "template" || open == "html" {
                return None;
            }
        }
        None
    }
}

/// Reads a tag whose name starts at `at` (just past `<` or `</`), following
/// the HTML tokenizer's attribute states so a `>` inside a quoted value does
/// not end it. At the input end the tag runs to the end.
fn read_tag(src: &[u8], at: usize) -> Tag {
    let mut i = at;
    while i < src.len() && !is_tag_space(src[i]) && src[i] != b'/' && src[i] != b'>' {
        i += 1;
    }
    let name = String::from_utf8_lossy(&src[at..i]).to_ascii_lowercase();
    let mut self_closing = false;
    loop {
        // Before attribute name.
        while i < src.len() && (is_tag_space(src[i]) || src[i] == b'/') {
            self_closing = src[i] == b'/' && src.get(i + 1) == Some(&b'>');
            i += 1;
        }
        if i >= src.len() {
            break;
        }
        if src[i] == b'>' {
            i += 1;
            break;
        }
        self_closing = false;
        // Attribute name (a leading `=` belongs to it).
        i += 1;
        while i < src.len() && !is_tag_space(src[i]) && !matches!(src[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        while i < src.len() && is_tag_space(src[i]) {
            i += 1;
        }
        if src.get(i) != Some(&b'=') {
            continue;
        }
        i += 1;
        while i < src.len() && is_tag_space(src[i]) {
            i += 1;
        }
        match src.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                i = memchr(q, &src[i + 1..]).map_or(src.len(), |p| i + 1 + p + 1);
            }
            Some(b'>') => {}
            Some(_) => {
                while i < src.len() && !is_tag_space(src[i]) && src[i] != b'>' {
                    i += 1;
                }
            }
            None => break,
        }
    }
    Tag {
        name,
        self_closing,
        after: i.min(src.len()),
    }
}

/// Whitespace as the HTML tokenizer knows it inside tags.
fn is_tag_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

fn skip_past_gt(src: &[u8], from: usize) -> usize {
    let from = from.min(src.len());
    memchr(b'>', &src[from..]).map_or(src.len(), |p| from + p + 1)
}

/// Position just past the `</name ...>` that ends raw-text element `name`,
/// whose content starts at `from` (case-insensitive; the input end if none).
fn skip_raw_text(src: &[u8], from: usize, name: &str) -> usize {
    let mut i = from.min(src.len());
    while let Some(p) = memmem::find(&src[i..], b"</") {
        let at = i + p + 2;
        let end = at + name.len();
        if src
            .get(at..end)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            && src
                .get(end)
                .is_none_or(|&b| is_tag_space(b) || b == b'/' || b == b'>')
        {
            return skip_past_gt(src, end);
        }
        i = at;
    }
    src.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize, inner: &str) -> String {
        format!("{}{inner}{}", "<div>".repeat(depth), "</div>".repeat(depth))
    }

    #[test]
    fn shallow_pages_are_borrowed_unchanged() {
        let html = "<html><body><ul><li><a href='/a'>One</a><li><a href='/b'>Two</a></ul>\
                    <p>para<p>para<table><tr><td>x<td>y<tr><td>z</table></body></html>";
        let capped = cap_depth(html, 4);
        assert!(matches!(capped.html, Cow::Borrowed(_)));
        assert_eq!(capped.dropped_start_tags, 0);
    }

    #[test]
    fn deep_divs_are_trimmed_to_the_cap_and_text_is_kept() {
        let html = nested(1000, "deep words");
        let capped = cap_depth(&html, 10);
        assert_eq!(capped.dropped_start_tags, 990);
        assert_eq!(
            capped.html,
            format!("{}deep words{}", "<div>".repeat(10), "</div>".repeat(10))
        );
    }

    #[test]
    fn content_after_a_deep_branch_keeps_its_place() {
        // The sibling after the deep branch must stay a child of <main>, so
        // the dropped end tags must be exactly those of the dropped starts.
        let html = format!(
            "<main>{}<p>after</p></main><footer>f</footer>",
            nested(50, "x")
        );
        let capped = cap_depth(&html, 8);
        assert_eq!(capped.dropped_start_tags, 43);
        let doc = super::super::parse(&capped.html);
        let p = (0..doc.nodes.len() as u32)
            .find(|&i| doc.is_tag(i, "p"))
            .unwrap();
        let parent = doc.node(p).parent.unwrap();
        assert_eq!(doc.tag(parent), Some("main"));
    }

    #[test]
    fn omitted_end_tags_do_not_count_as_depth() {
        // 10,000 list items, paragraphs, cells and options with omitted end
        // tags are flat to the parser, so nothing is dropped.
        let mut html = String::from("<ul>");
        html.push_str(&"<li><span>item</span> <a href=x>link</a>".repeat(10_000));
        html.push_str("</ul><div>");
        html.push_str(&"<p>para <b>bold</b>".repeat(10_000));
        html.push_str("</div><table>");
        html.push_str(&"<tr><td>a<td>b<th>c".repeat(10_000));
        html.push_str("</table><select>");
        html.push_str(&"<option>o".repeat(10_000));
        html.push_str("</select><dl>");
        html.push_str(&"<dt>t<dd>d".repeat(10_000));
        html.push_str("</dl>");
        html.push_str(&"<a href=1>unclosed ".repeat(10_000));
        let capped = cap_depth(&html, 16);
        assert_eq!(capped.dropped_start_tags, 0);
    }

    #[test]
    fn tags_inside_comments_scripts_and_attributes_are_not_tags() {
        let deep = "<div>".repeat(100);
        let html = format!(
            "<!-- {deep} --><script>var s = '{deep}';</script><style>{deep}</style>\
             <textarea>{deep}</textarea><a title='{deep}>' href=\"x>{deep}\">a</a><!--->{deep}"
        );
        let capped = cap_depth(&html, 10);
        // Only the last run, after the abrupt comment `<!--->`, is real.
        assert_eq!(capped.dropped_start_tags, 90);
        assert!(
            capped
                .html
                .contains(&format!("<script>var s = '{deep}';</script>"))
        );
    }

    #[test]
    fn comment_ended_by_bang_close_does_not_hide_tags() {
        // `--!>` ends a comment for the parser: what follows is real markup.
        let html = format!("<!-- x --!>{}", nested(40, "t"));
        assert_eq!(cap_depth(&html, 20).dropped_start_tags, 20);
    }

    #[test]
    fn self_closing_divs_nest_but_svg_children_do_not() {
        // html5ever ignores `/>` on HTML elements: `<div/>` opens a div.
        let html = "<div/>".repeat(30);
        assert_eq!(cap_depth(&html, 10).dropped_start_tags, 20);
        let svg = format!("<svg>{}</svg>", "<path d='M0 0'/>".repeat(1000));
        assert_eq!(cap_depth(&svg, 10).dropped_start_tags, 0);
    }

    #[test]
    fn unterminated_tag_and_script_reach_the_end_without_panicking() {
        for html in [
            "<div",
            "<div a='",
            "</",
            "<!--",
            "<script>x",
            "<a =>",
            "<p/",
            "<svg><![CDATA[",
        ] {
            let capped = cap_depth(html, 1);
            assert_eq!(capped.html, html);
        }
    }

    #[test]
    fn multibyte_text_survives_trimming() {
        let html = nested(30, "中文 テキスト ü");
        let capped = cap_depth(&html, 5);
        assert!(capped.html.contains("中文 テキスト ü"));
        assert_eq!(capped.dropped_start_tags, 25);
    }

    #[test]
    fn end_tags_the_parser_ignores_do_not_lower_depth() {
        // `</li>` does not reach past `<ul>`, `</b>` not past `<div>`, and
        // `</form>` removes only the form: the parser's stack keeps growing
        // here, so the cap must see the growth too.
        let li = "<li><ul></li>".repeat(100);
        assert_eq!(cap_depth(&li, 50).dropped_start_tags, 150);
        let b = "<b><div></b>".repeat(100);
        assert_eq!(cap_depth(&b, 50).dropped_start_tags, 150);
        // +1 per repetition (the div): depth 49 after 49 of them, then each
        // further div is dropped.
        let form = "<form><div></form>".repeat(100);
        assert_eq!(cap_depth(&form, 50).dropped_start_tags, 51);
        let a = "<a><div><a>".repeat(100);
        assert!(cap_depth(&a, 50).dropped_start_tags >= 100);
    }
}
