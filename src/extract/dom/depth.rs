//! The nesting-depth cap's model of the HTML parser's stack of open
//! elements, fed tag by tag by the parse pre-pass ([`super::prepare`]).
//!
//! html5ever's tree builder is quadratic in nesting depth (every start and
//! end tag runs scope checks over the whole stack of open elements): 100,000
//! nested `div`s take minutes. [`OpenElements`] tracks the stack the way the
//! parser would and says which start tags would open an element deeper than
//! the cap; the pre-pass drops those, together with the end tags that would
//! close them. Text, void elements and raw-text elements (`script`,
//! `style`, ...) are always kept, so no words are lost and no script source
//! turns into page text.
//!
//! Invariants:
//! - Linear time: the stack never exceeds `max_depth + 1`, so each scope
//!   search is bounded by the cap; tags are compared as interned ids.
//! - The tracked depth errs on the high side, never the low side: elements
//!   close implicitly only where the parser certainly closes them (`li`,
//!   `p`, `td`, ...; see `close_implied`), html5ever's tolerated oddities
//!   (`<div/>`, unknown elements) count as opening, and an end tag whose
//!   name shares the overflow id closes nothing. A page can only be trimmed
//!   earlier than needed, never parsed deeper than the cap allows.

use std::collections::HashMap;

use super::formatting::{ActiveFormatting, is_formatting, is_marker};
use super::tags::{OVERFLOW, TagId, closes_p, is_heading, is_void, tag::*};

/// Deepest element nesting handed to html5ever. Real pages nest 10–40
/// elements deep (the deepest in our evaluation data is below 60); 256 leaves
/// a wide margin while keeping the parser's quadratic scope checks at
/// 256² per tag in the worst case.
pub const MAX_DEPTH: usize = 256;

/// Elements the parser merges into the existing one instead of nesting.
fn is_singleton(t: TagId) -> bool {
    matches!(t, HTML | HEAD | BODY)
}

/// Scope boundaries: an end tag or implied close never reaches past them
/// (the HTML spec's "has an element in scope" list, HTML namespace).
fn is_boundary(t: TagId) -> bool {
    matches!(
        t,
        APPLET | CAPTION | HTML | TABLE | TD | TH | MARQUEE | OBJECT | TEMPLATE | SVG | MATH
    )
}

/// End tags the parser matches within the default scope (the spec's block,
/// table and list end tags); other end tags stop at any special element.
fn is_scoped_end_tag(t: TagId) -> bool {
    matches!(
        t,
        ADDRESS
            | APPLET
            | ARTICLE
            | ASIDE
            | BLOCKQUOTE
            | BUTTON
            | CAPTION
            | CENTER
            | DD
            | DETAILS
            | DIALOG
            | DIR
            | DIV
            | DL
            | DT
            | FIELDSET
            | FIGCAPTION
            | FIGURE
            | FOOTER
            | HEADER
            | HGROUP
            | LISTING
            | MAIN
            | MARQUEE
            | MENU
            | NAV
            | OBJECT
            | OL
            | PRE
            | SEARCH
            | SECTION
            | SELECT
            | SUMMARY
            | TABLE
            | TBODY
            | TD
            | TEMPLATE
            | TFOOT
            | TH
            | THEAD
            | TR
            | UL
    )
}

/// The spec's "special" elements other than `address`, `div` and `p`: the
/// search for an open `li`/`dt`/`dd` to close stops at them.
fn is_special_but_not_address_div_p(t: TagId) -> bool {
    is_heading(t)
        || matches!(
            t,
            APPLET
                | AREA
                | ARTICLE
                | ASIDE
                | BASE
                | BASEFONT
                | BGSOUND
                | BLOCKQUOTE
                | BODY
                | BR
                | BUTTON
                | CAPTION
                | CENTER
                | COL
                | COLGROUP
                | DD
                | DETAILS
                | DIR
                | DL
                | DT
                | EMBED
                | FIELDSET
                | FIGCAPTION
                | FIGURE
                | FOOTER
                | FORM
                | FRAME
                | FRAMESET
                | HEAD
                | HEADER
                | HGROUP
                | HR
                | HTML
                | IFRAME
                | IMG
                | INPUT
                | LI
                | LINK
                | LISTING
                | MAIN
                | MARQUEE
                | MENU
                | META
                | NAV
                | NOEMBED
                | NOFRAMES
                | NOSCRIPT
                | OBJECT
                | OL
                | PARAM
                | PLAINTEXT
                | PRE
                | SCRIPT
                | SEARCH
                | SECTION
                | SELECT
                | SOURCE
                | STYLE
                | SUMMARY
                | TABLE
                | TBODY
                | TD
                | TEMPLATE
                | TEXTAREA
                | TFOOT
                | TH
                | THEAD
                | TITLE
                | TR
                | TRACK
                | UL
                | WBR
                | XMP
        )
}

/// The spec's "special" category (all of it).
fn is_special(t: TagId) -> bool {
    is_special_but_not_address_div_p(t) || matches!(t, ADDRESS | DIV | P)
}

/// The parser's stack of open elements, as far as depth goes.
#[derive(Debug)]
pub struct OpenElements {
    /// Open elements, outermost first.
    stack: Vec<TagId>,
    /// Open `svg`/`math` elements: inside them `<x/>` really self-closes.
    foreign: usize,
    /// Per name: start tags dropped whose end tag has not been seen yet.
    excess: HashMap<TagId, usize>,
    max_depth: usize,
    /// The list of active formatting elements (see [`super::formatting`]).
    formatting: ActiveFormatting,
}

/// What becomes of a start tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Keep,
    /// It would open an element deeper than the cap.
    TooDeep,
    /// It would make the list of active formatting elements longer than
    /// its cap.
    TooMuchFormatting,
}

impl OpenElements {
    pub fn new(max_depth: usize) -> Self {
        OpenElements {
            stack: Vec::new(),
            foreign: 0,
            excess: HashMap::new(),
            max_depth,
            formatting: ActiveFormatting::default(),
        }
    }

    /// Inside `svg` or `math`.
    pub fn in_foreign(&self) -> bool {
        self.foreign > 0
    }

    /// A start tag other than `plaintext` and the raw-text elements (which
    /// are kept at any depth), hashing to `written` as written: whether it
    /// is kept, or dropped (with its end tag) by the depth cap or the cap
    /// on formatting elements.
    pub fn start(&mut self, id: TagId, self_closing: bool, written: u64) -> Verdict {
        if is_singleton(id) {
            return Verdict::Keep;
        }
        let leaf = is_void(id) || (self_closing && self.foreign > 0);
        if self.foreign == 0 {
            self.close_implied(id);
        }
        if leaf {
            return Verdict::Keep;
        }
        let verdict = if self.stack.len() >= self.max_depth {
            Verdict::TooDeep
        } else if is_formatting(id) && !self.formatting.open(id, written) {
            Verdict::TooMuchFormatting
        } else {
            Verdict::Keep
        };
        if verdict != Verdict::Keep {
            *self.excess.entry(id).or_insert(0) += 1;
            return verdict;
        }
        if id == SVG || id == MATH {
            self.foreign += 1;
        }
        self.formatting
            .element_opened(is_boundary(id), is_marker(id));
        self.stack.push(id);
        Verdict::Keep
    }

    /// An end tag: false when it closes a dropped start tag and must be
    /// dropped too.
    pub fn end(&mut self, id: TagId) -> bool {
        if let Some(n) = self.excess.get_mut(&id)
            && *n > 0
        {
            *n -= 1;
            return false;
        }
        if is_singleton(id) || id == OVERFLOW {
            return true;
        }
        if is_formatting(id) {
            self.formatting.close(id);
        }
        if id == FORM {
            // The parser removes just the form element, not what is inside.
            if let Some(d) = self.find_in_scope(|n| n == FORM) {
                self.stack.remove(d);
            }
            return true;
        }
        let found = if is_heading(id) {
            self.find_in_scope(is_heading)
        } else if id == LI {
            // List item scope: `ul`/`ol` also stop the search.
            self.find_until(|n| n == LI, |n| is_boundary(n) || n == UL || n == OL)
        } else if id == P {
            self.find_until(|n| n == P, |n| is_boundary(n) || n == BUTTON)
        } else if is_scoped_end_tag(id) {
            self.find_in_scope(|n| n == id)
        } else {
            // "Any other end tag" (and formatting elements without a
            // furthest block): pops to the match unless a special element
            // is nearer, in which case the parser ignores it.
            self.find_until(|n| n == id, is_special)
        };
        if let Some(d) = found {
            self.pop_to(d);
        }
        true
    }

    /// Index of the innermost open element `is_target` accepts, searching
    /// no further out than a scope boundary.
    fn find_in_scope(&self, is_target: impl Fn(TagId) -> bool) -> Option<usize> {
        self.find_until(is_target, is_boundary)
    }

    /// Index of the innermost open element `is_target` accepts, searching
    /// no further out than the first element `stop` accepts.
    fn find_until(
        &self,
        is_target: impl Fn(TagId) -> bool,
        stop: impl Fn(TagId) -> bool,
    ) -> Option<usize> {
        for (d, &open) in self.stack.iter().enumerate().rev() {
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
            let Some(n) = self.stack.pop() else { break };
            if n == SVG || n == MATH {
                self.foreign = self.foreign.saturating_sub(1);
            }
            self.formatting.element_closed(is_boundary(n), is_marker(n));
        }
    }

    /// Elements the start of `id` closes implicitly in the HTML parser
    /// (only the common cases; missing one only over-counts depth).
    fn close_implied(&mut self, id: TagId) {
        if closes_p(id)
            && let Some(d) = self.find_in_scope(|n| n == P || n == BUTTON)
            && self.stack[d] == P
        {
            self.pop_to(d);
        }
        let top = self.stack.last().copied();
        match id {
            LI => self.close_list_item(&[LI]),
            DT | DD => self.close_list_item(&[DT, DD]),
            _ if is_heading(id) && top.is_some_and(is_heading) => {
                self.stack.pop();
            }
            // The adoption agency pops to the open `a`/`nobr` only when no
            // special element (a "furthest block") lies above it.
            A | NOBR => {
                if let Some(d) = self.find_until(|n| n == id, is_special) {
                    self.pop_to(d);
                }
            }
            BUTTON => {
                if let Some(d) = self.find_in_scope(|n| n == BUTTON) {
                    self.pop_to(d);
                }
            }
            OPTION if top == Some(OPTION) => {
                self.stack.pop();
            }
            TD | TH => self.close_in_table(&[TD, TH], &[TR, TABLE]),
            TR => self.close_in_table(&[TR], &[TABLE]),
            TBODY | THEAD | TFOOT => self.close_in_table(&[TBODY, THEAD, TFOOT], &[TABLE]),
            _ => {}
        }
    }

    /// The spec's `li`/`dt`/`dd` start-tag steps: close the innermost open
    /// one unless a special element (other than address, div, p) is nearer.
    fn close_list_item(&mut self, targets: &[TagId]) {
        for d in (0..self.stack.len()).rev() {
            let open = self.stack[d];
            if targets.contains(&open) {
                self.pop_to(d);
                return;
            }
            if is_special_but_not_address_div_p(open) {
                return;
            }
        }
    }

    /// Close the innermost open `targets` element not beyond a `stops`
    /// element (or `template`/`html`).
    fn close_in_table(&mut self, targets: &[TagId], stops: &[TagId]) {
        let stop = |n: TagId| stops.contains(&n) || n == TEMPLATE || n == HTML;
        if let Some(d) = self.find_until(|n| targets.contains(&n), stop) {
            self.pop_to(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::super::prepare::{Options, Prepared, prepare};

    /// The pre-pass with only the depth cap's effects to look at.
    fn cap_depth(html: &str, max_depth: usize) -> Prepared<'_> {
        prepare(
            html,
            Options {
                max_depth: Some(max_depth),
                empty_raw_bodies: false,
            },
        )
    }

    fn nested(depth: usize, inner: &str) -> String {
        format!("{}{inner}{}", "<div>".repeat(depth), "</div>".repeat(depth))
    }

    #[test]
    fn shallow_pages_are_borrowed_unchanged() {
        let html = "<html><body><ul><li><a href='/a'>One</a><li><a href='/b'>Two</a></ul>\
                    <p>para<p>para<table><tr><td>x<td>y<tr><td>z</table></body></html>";
        let capped = cap_depth(html, 4);
        assert!(matches!(capped.html, Cow::Borrowed(_)));
        assert_eq!(capped.dropped_deep_tags, 0);
    }

    #[test]
    fn deep_divs_are_trimmed_to_the_cap_and_text_is_kept() {
        let html = nested(1000, "deep words");
        let capped = cap_depth(&html, 10);
        assert_eq!(capped.dropped_deep_tags, 990);
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
        assert_eq!(capped.dropped_deep_tags, 43);
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
        assert_eq!(capped.dropped_deep_tags, 0);
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
        assert_eq!(capped.dropped_deep_tags, 90);
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
        assert_eq!(cap_depth(&html, 20).dropped_deep_tags, 20);
    }

    #[test]
    fn self_closing_divs_nest_but_svg_children_do_not() {
        // html5ever ignores `/>` on HTML elements: `<div/>` opens a div.
        let html = "<div/>".repeat(30);
        assert_eq!(cap_depth(&html, 10).dropped_deep_tags, 20);
        let svg = format!("<svg>{}</svg>", "<path d='M0 0'/>".repeat(1000));
        assert_eq!(cap_depth(&svg, 10).dropped_deep_tags, 0);
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
        assert_eq!(capped.dropped_deep_tags, 25);
    }

    #[test]
    fn end_tags_the_parser_ignores_do_not_lower_depth() {
        // `</li>` does not reach past `<ul>`, `</b>` not past `<div>`, and
        // `</form>` removes only the form: the parser's stack keeps growing
        // here, so the cap must see the growth too.
        let li = "<li><ul></li>".repeat(100);
        assert_eq!(cap_depth(&li, 50).dropped_deep_tags, 150);
        let b = "<b><div></b>".repeat(100);
        assert_eq!(cap_depth(&b, 50).dropped_deep_tags, 150);
        // +1 per repetition (the div): depth 49 after 49 of them, then each
        // further div is dropped.
        let form = "<form><div></form>".repeat(100);
        assert_eq!(cap_depth(&form, 50).dropped_deep_tags, 51);
        let a = "<a><div><a>".repeat(100);
        assert!(cap_depth(&a, 50).dropped_deep_tags >= 100);
    }
}
