//! Turning the chosen subtree into output: plain text (paragraphs one blank
//! line apart, no link annotations) and clean HTML (ammonia-sanitized,
//! absolute URLs, only content tags).
//!
//! Invariants: walks use explicit stacks; nodes for which `skip` says true
//! are left out with their whole subtree; the text never contains link
//! targets or markup, and whitespace inside a paragraph is collapsed (kept
//! as-is inside `<pre>`).

use std::borrow::Cow;
use std::collections::HashSet;

use super::tokenize::{TEXT, TagId, Tokens, attr, tag};
use super::tree::{NodeId, Tree};

/// Elements that start a new paragraph in text output.
pub fn is_block(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        P | DIV
            | LI
            | UL
            | OL
            | DL
            | DT
            | DD
            | H1
            | H2
            | H3
            | H4
            | H5
            | H6
            | TR
            | TABLE
            | TBODY
            | THEAD
            | TFOOT
            | BLOCKQUOTE
            | PRE
            | SECTION
            | ARTICLE
            | HEADER
            | FOOTER
            | MAIN
            | NAV
            | ASIDE
            | FIGURE
            | FIGCAPTION
            | FORM
            | FIELDSET
            | ADDRESS
            | DETAILS
            | SUMMARY
            | HR
            | CENTER
            | HGROUP
            | CAPTION
            | BODY
            | HTML
            | OPTION
            | TEXTAREA
    )
}

/// Text of one text token, entities decoded.
pub fn token_text<'a>(src: &'a str, toks: &Tokens, tok: u32) -> Cow<'a, str> {
    let Some(t) = toks.tokens.get(tok as usize) else {
        return Cow::Borrowed("");
    };
    let raw = src
        .get(t.span.start as usize..t.span.end as usize)
        .unwrap_or("");
    if raw.contains('&') {
        Cow::Owned(html_escape::decode_html_entities(raw).into_owned())
    } else {
        Cow::Borrowed(raw)
    }
}

/// Plain text of the subtree at `root`; `skip` removes nodes (and their subtrees).
pub fn text(
    src: &str,
    toks: &Tokens,
    tree: &Tree,
    root: NodeId,
    skip: &dyn Fn(NodeId) -> bool,
) -> String {
    let mut w = TextWriter::default();
    // (node, leaving?, pre depth marker)
    let mut stack = vec![(root, false)];
    let mut pre = 0usize;
    while let Some((id, leaving)) = stack.pop() {
        let node = tree.node(id);
        if leaving {
            if node.tag == tag::PRE {
                pre = pre.saturating_sub(1);
            }
            if is_block(node.tag) {
                w.para();
            } else if matches!(node.tag, tag::TD | tag::TH) {
                w.space = true;
            }
            continue;
        }
        if skip(id) && id != root {
            continue;
        }
        match node.tag {
            TEXT => {
                if let Some(t) = toks.tokens.get(node.start_tok as usize)
                    && t.space_before
                {
                    w.space = true;
                }
                let s = token_text(src, toks, node.start_tok);
                w.push(&s, pre > 0);
            }
            tag::BR => w.line(),
            tag::IMG | tag::INPUT | tag::HR => {
                if node.tag == tag::HR {
                    w.para();
                }
            }
            _ => {
                if let Some(t) = toks.tokens.get(node.start_tok as usize)
                    && t.space_before
                {
                    w.space = true;
                }
                if is_block(node.tag) {
                    w.para();
                }
                if node.tag == tag::PRE {
                    pre += 1;
                }
                stack.push((id, true));
                for &c in node.children.iter().rev() {
                    stack.push((c, false));
                }
            }
        }
    }
    w.finish()
}

#[derive(Default)]
struct TextWriter {
    out: String,
    /// A paragraph break is due before the next text.
    para: bool,
    line: bool,
    space: bool,
}

impl TextWriter {
    fn para(&mut self) {
        self.para = true;
    }
    fn line(&mut self) {
        self.line = true;
    }
    fn push(&mut self, s: &str, pre: bool) {
        if !self.out.is_empty() {
            if self.para {
                self.out.push_str("\n\n");
            } else if self.line {
                self.out.push('\n');
            } else if (self.space || s.starts_with(char::is_whitespace))
                && !self.out.ends_with([' ', '\n'])
            {
                self.out.push(' ');
            }
        }
        self.para = false;
        self.line = false;
        self.space = false;
        if pre {
            let t = if self.out.is_empty() || self.out.ends_with('\n') {
                s.trim_start_matches(['\n', '\r'])
            } else {
                s
            };
            self.out.push_str(t);
            return;
        }
        let mut first = true;
        for word in s.split_whitespace() {
            if !first {
                self.out.push(' ');
            }
            self.out.push_str(word);
            first = false;
        }
        if s.ends_with(char::is_whitespace) {
            self.space = true;
        }
    }
    fn finish(self) -> String {
        self.out.trim().to_string()
    }
}

/// Drop repeats of a paragraph of 80 bytes or more (responsive builders
/// such as Framer render the same article once per breakpoint, pull quotes
/// repeat a sentence). Blank-line paragraph separation is kept.
pub fn dedup_paragraphs(text: &str) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut out = String::with_capacity(text.len());
    for para in text.split("\n\n") {
        if para.len() >= 80 && !seen.insert(para) {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(para);
    }
    out
}

/// Leaf blocks (blocks without a block inside) under `root` whose text
/// (80 bytes or more) repeats an earlier one's: marked `true`, so that text
/// and HTML output both leave them out and say the same thing (the
/// published body is what `eval articles` scores).
pub fn repeated_blocks(
    src: &str,
    toks: &Tokens,
    tree: &Tree,
    root: NodeId,
    skip: &dyn Fn(NodeId) -> bool,
) -> Vec<bool> {
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if skip(id) && id != root {
            continue;
        }
        order.push(id);
        stack.extend(tree.node(id).children.iter().rev().copied());
    }
    let mut block_inside = vec![false; tree.nodes.len()];
    for &id in order.iter().rev() {
        let node = tree.node(id);
        let inside = node
            .children
            .iter()
            .any(|&c| is_block(tree.node(c).tag) || block_inside[c as usize]);
        block_inside[id as usize] = inside;
    }
    let mut seen = HashSet::new();
    let mut repeated = vec![false; tree.nodes.len()];
    for &id in &order {
        if id == root || !is_block(tree.node(id).tag) || block_inside[id as usize] {
            continue;
        }
        let para = text(src, toks, tree, id, skip);
        if para.len() >= 80 && !seen.insert(para) {
            repeated[id as usize] = true;
        }
    }
    repeated
}

/// Tags kept in HTML output; everything else is unwrapped (or turned into
/// `<p>` when it is a block holding text directly).
const KEEP: &[&str] = &[
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "blockquote",
    "pre",
    "code",
    "table",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "td",
    "th",
    "caption",
    "img",
    "a",
    "em",
    "strong",
    "b",
    "i",
    "br",
    "dl",
    "dt",
    "dd",
    "sub",
    "sup",
    "figure",
    "figcaption",
    "hr",
];

/// Clean HTML of the subtree at `root` (sanitized by ammonia; relative URLs
/// resolved against `base` when given, dropped otherwise).
pub fn html(
    src: &str,
    toks: &Tokens,
    tree: &Tree,
    root: NodeId,
    skip: &dyn Fn(NodeId) -> bool,
    base: Option<&url::Url>,
) -> String {
    let mut raw = String::new();
    let mut stack = vec![(root, false, false)];
    while let Some((id, leaving, as_p)) = stack.pop() {
        let node = tree.node(id);
        let name = toks.name(node.tag);
        let kept = node.tag != TEXT && KEEP.contains(&name);
        if leaving {
            if kept {
                raw.push_str("</");
                raw.push_str(name);
                raw.push('>');
            } else if as_p {
                raw.push_str("</p>");
            }
            continue;
        }
        if skip(id) && id != root {
            continue;
        }
        if node.tag == TEXT {
            if let Some(t) = toks.tokens.get(node.start_tok as usize) {
                if t.space_before {
                    raw.push(' ');
                }
                raw.push_str(
                    src.get(t.span.start as usize..t.span.end as usize)
                        .unwrap_or(""),
                );
            }
            continue;
        }
        let Some(tok) = toks.tokens.get(node.start_tok as usize) else {
            continue;
        };
        if tok.space_before {
            raw.push(' ');
        }
        let mut as_p = false;
        if kept {
            raw.push('<');
            raw.push_str(name);
            for a in ["href", "src", "alt", "title", "colspan", "rowspan"] {
                let mut v = attr(src, tok, a);
                if a == "src" && node.tag == tag::IMG {
                    // Lazy-loading pages keep the real image in data-src.
                    if let Some(d) = attr(src, tok, "data-src") {
                        v = Some(d);
                    }
                }
                if let Some(v) = v {
                    raw.push(' ');
                    raw.push_str(a);
                    raw.push_str("=\"");
                    raw.push_str(&html_escape::encode_double_quoted_attribute(&v));
                    raw.push('"');
                }
            }
            raw.push('>');
        } else if is_block(node.tag)
            && node.children.iter().any(|&c| tree.node(c).tag == TEXT)
            && !node.children.iter().any(|&c| is_block(tree.node(c).tag))
        {
            as_p = true;
            raw.push_str("<p>");
        }
        if crate::bodies::tokenize::is_void(node.tag) {
            continue;
        }
        stack.push((id, true, as_p));
        for &c in node.children.iter().rev() {
            stack.push((c, false, false));
        }
    }
    sanitize(&raw, base)
}

fn sanitize(raw: &str, base: Option<&url::Url>) -> String {
    let tags: HashSet<&str> = KEEP.iter().copied().collect();
    let mut b = ammonia::Builder::default();
    b.tags(tags);
    b.link_rel(Some("noopener noreferrer"));
    match base {
        Some(u) => {
            b.url_relative(ammonia::UrlRelative::RewriteWithBase(u.clone()));
        }
        None => {
            b.url_relative(ammonia::UrlRelative::Deny);
        }
    }
    b.clean(raw).to_string()
}

#[cfg(test)]
mod tests {
    use super::super::tokenize::tokenize;
    use super::super::tree::build_forward;
    use super::*;

    #[test]
    fn text_has_blank_line_paragraphs_and_no_link_targets() {
        let src = "<div><p>One <a href='/x'>link</a> here.</p><p>Two<br>lines</p><ul><li>a</li><li>b</li></ul><pre>  x\n  y</pre></div>";
        let toks = tokenize(src);
        let tree = build_forward(&toks.tokens);
        let t = text(src, &toks, &tree, tree.root, &|_| false);
        assert_eq!(t, "One link here.\n\nTwo\nlines\n\na\n\nb\n\n  x\n  y");
    }

    #[test]
    fn repeated_long_paragraphs_are_dropped_once_seen() {
        let p =
            "This paragraph is long enough to count as a real paragraph of the article body text.";
        let t = format!("{p}\n\nshort\n\nshort\n\n{p}");
        assert_eq!(dedup_paragraphs(&t), format!("{p}\n\nshort\n\nshort"));
    }

    /// Regression: the text output dropped a repeated paragraph but the
    /// HTML body (what feeds publish) kept it, so `eval articles` scored
    /// something other than what readers got.
    #[test]
    fn a_repeated_paragraph_leaves_text_and_html_alike() {
        let cta = "Try our intuitive personal trainer software for your gym with a free month and no card needed.";
        let para = |n: u32| {
            format!(
                "<p>Paragraph {n} of the story: the ferry timetable changes in December, when the late \
                 sailings are cut for the winter months and the operators count the passengers.</p>"
            )
        };
        let page = format!(
            "<html><body><article><h1>Timetable</h1>{}{}<p>{cta}</p>{}{}<p>{cta}</p>{}{}</article>\
             <footer><a href=/about>About</a></footer></body></html>",
            para(1),
            para(2),
            para(3),
            para(4),
            para(5),
            para(6)
        );
        let ex = crate::bodies::extract(
            &page,
            None,
            crate::bodies::Method::Reverse,
            &crate::bodies::BodyParams::default(),
        )
        .unwrap();
        assert_eq!(
            ex.text.matches("intuitive personal trainer").count(),
            1,
            "{}",
            ex.text
        );
        assert_eq!(
            ex.html.matches("intuitive personal trainer").count(),
            1,
            "{}",
            ex.html
        );
        assert!(ex.html.contains("Paragraph 6 of the story"), "{}", ex.html);
    }
}
