//! Shared helpers of the arena-based extractors (`cevc`, `tagpath`,
//! `similarity_blocks`): per-node link and block bookkeeping over a
//! [`dom::Document`], text leaves (text blocks), and plain-text / HTML
//! output of a chosen set of text nodes.
//!
//! Invariants: every walk is a linear pass over the preorder arena (no
//! recursion); output text has paragraphs one blank line apart, whitespace
//! collapsed inside a paragraph, and never link targets or markup.

use std::collections::HashMap;

use crate::extract::dom::{Document, NodeData, NodeId, collapse_whitespace, is_block_element};

use super::Extraction;

/// Per-node facts every extractor needs, computed in one pass.
pub struct NodeFacts {
    /// Nearest `<a>` element at or above the node.
    pub anchor: Vec<Option<NodeId>>,
    /// Nearest block-level element (or the root) at or above the node.
    pub block: Vec<NodeId>,
    /// Interned tag path (root → node) of each element; texts get their parent's.
    pub path: Vec<u32>,
}

/// True for elements that break paragraphs.
pub fn is_block_name(name: &str) -> bool {
    is_block_element(name) || matches!(name, "body" | "html" | "center" | "caption")
}

impl NodeFacts {
    pub fn new(doc: &Document) -> NodeFacts {
        let n = doc.nodes.len();
        let mut anchor = vec![None; n];
        let mut block = vec![0 as NodeId; n];
        let mut path = vec![0u32; n];
        let mut interned: HashMap<(u32, &str), u32> = HashMap::new();
        for (i, node) in doc.nodes.iter().enumerate() {
            let id = i as NodeId;
            let parent = node.parent.map(|p| p as usize);
            let (pa, pb, pp) = match parent {
                Some(p) => (anchor[p], block[p], path[p]),
                None => (None, id, 0),
            };
            match &node.data {
                NodeData::Element(e) => {
                    anchor[i] = if e.name == "a" { Some(id) } else { pa };
                    block[i] = if is_block_name(&e.name) { id } else { pb };
                    let next = interned.len() as u32 + 1;
                    path[i] = *interned.entry((pp, e.name.as_str())).or_insert(next);
                }
                _ => {
                    anchor[i] = pa;
                    block[i] = pb;
                    path[i] = pp;
                }
            }
        }
        NodeFacts {
            anchor,
            block,
            path,
        }
    }

    /// True when the node sits under an `<a>` that has an `href`.
    pub fn in_href_link(&self, doc: &Document, id: NodeId) -> bool {
        self.anchor[id as usize]
            .and_then(|a| doc.element(a))
            .is_some_and(|e| e.attr("href").is_some())
    }
}

/// Length of a text as paper 003 counts it: non-space characters, a
/// character above code 255 counting 2.
pub fn weighted_len(text: &str) -> usize {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if (c as u32) > 255 { 2 } else { 1 })
        .sum()
}

/// Non-space characters of a text (CEVC's `getNonSpaceLength`).
pub fn non_space_len(text: &str) -> usize {
    text.chars().filter(|c| !c.is_whitespace()).count()
}

/// A text leaf: a maximal run of non-blank text nodes under one block
/// element with no block boundary between them (inline markup such as
/// `<a>`, `<b>`, `<span>` does not split a leaf).
#[derive(Clone, Debug)]
pub struct Leaf {
    /// The nearest block element (the leaf's container).
    pub block: NodeId,
    /// Tag path of `block`.
    pub path: u32,
    /// The leaf's text nodes, in order.
    pub texts: Vec<NodeId>,
    /// Weighted length of all its text (paper 003 counting).
    pub len: usize,
    /// Weighted length of its text under `<a href>`.
    pub link_len: usize,
    /// Text nodes not under a link.
    pub nodes_nohref: usize,
    /// Distinct `<a href>` elements holding its text.
    pub hrefs: usize,
}

/// All text leaves of the page in document order.
pub fn leaves(doc: &Document, facts: &NodeFacts) -> Vec<Leaf> {
    let mut out: Vec<Leaf> = Vec::new();
    let mut block_ends: Vec<NodeId> = Vec::new();
    // A block boundary (start or end of a block element) was passed since
    // the last text node.
    let mut crossed = true;
    let mut last_anchor: Option<NodeId> = None;
    for (i, node) in doc.nodes.iter().enumerate() {
        let id = i as NodeId;
        while block_ends.last().is_some_and(|&e| e <= id) {
            block_ends.pop();
            crossed = true;
        }
        match &node.data {
            NodeData::Element(e) if is_block_name(&e.name) => {
                crossed = true;
                if node.end > id + 1 {
                    block_ends.push(node.end);
                }
            }
            NodeData::Text { text, blank: false } => {
                let block = facts.block[i];
                let start_new = crossed || out.last().is_none_or(|l| l.block != block);
                if start_new {
                    out.push(Leaf {
                        block,
                        path: facts.path[block as usize],
                        texts: Vec::new(),
                        len: 0,
                        link_len: 0,
                        nodes_nohref: 0,
                        hrefs: 0,
                    });
                    last_anchor = None;
                }
                crossed = false;
                let Some(leaf) = out.last_mut() else { continue };
                let len = weighted_len(text);
                leaf.texts.push(id);
                leaf.len += len;
                if facts.in_href_link(doc, id) {
                    leaf.link_len += len;
                    let a = facts.anchor[i];
                    if a != last_anchor {
                        leaf.hrefs += 1;
                        last_anchor = a;
                    }
                } else {
                    leaf.nodes_nohref += 1;
                }
            }
            _ => {}
        }
    }
    out
}

/// Plain text of the subtree at `root` keeping only text nodes that
/// `include` accepts; paragraphs break at block elements.
pub fn render_text(doc: &Document, root: NodeId, include: impl Fn(NodeId) -> bool) -> String {
    let Some(root_node) = doc.nodes.get(root as usize) else {
        return String::new();
    };
    let end = root_node.end;
    let mut paras: Vec<String> = Vec::new();
    let mut cur = String::new();
    let flush = |cur: &mut String, paras: &mut Vec<String>| {
        let p = collapse_whitespace(cur);
        if !p.is_empty() {
            paras.push(p);
        }
        cur.clear();
    };
    let mut block_ends: Vec<NodeId> = Vec::new();
    for id in root..end {
        while block_ends.last().is_some_and(|&e| e <= id) {
            block_ends.pop();
            flush(&mut cur, &mut paras);
        }
        let node = &doc.nodes[id as usize];
        match &node.data {
            NodeData::Element(e) if is_block_name(&e.name) => {
                flush(&mut cur, &mut paras);
                block_ends.push(node.end);
            }
            NodeData::Element(e) if matches!(e.name.as_str(), "td" | "th") => cur.push(' '),
            NodeData::Text { text, .. } if include(id) => cur.push_str(text),
            _ => {}
        }
    }
    flush(&mut cur, &mut paras);
    paras.join("\n\n")
}

/// Minimal HTML of a plain text: one `<p>` per paragraph, text escaped.
pub fn text_to_html(text: &str) -> String {
    let mut html = String::with_capacity(text.len() + 64);
    for para in text.split("\n\n").filter(|p| !p.trim().is_empty()) {
        html.push_str("<p>");
        html.push_str(&html_escape::encode_text(para));
        html.push_str("</p>\n");
    }
    html
}

/// Put an extractor's text into `ex` (text, optional HTML, empty reason).
pub fn finish(ex: &mut Extraction, text: String, empty_reason: Option<String>, want_html: bool) {
    if text.is_empty() {
        ex.empty_reason =
            Some(empty_reason.unwrap_or_else(|| "the located block holds no text".into()));
        return;
    }
    if want_html {
        ex.html = text_to_html(&text);
    }
    ex.text = text;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    #[test]
    fn leaves_merge_inline_markup_and_split_at_blocks() {
        let doc = parse(
            "<body><div><p>Hello <a href='/x'>big</a> world</p><p>Second <b>para</b></p>\
             tail text<ul><li><a href='/1'>One</a></li><li><a href='/2'>Two</a></li></ul></div></body>",
        );
        let facts = NodeFacts::new(&doc);
        let ls = leaves(&doc, &facts);
        let texts: Vec<String> = ls
            .iter()
            .map(|l| {
                l.texts
                    .iter()
                    .map(|&t| doc.text(t))
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect();
        assert_eq!(
            texts,
            ["Hello|big|world", "Second|para", "tail text", "One", "Two"]
        );
        assert_eq!(ls[0].link_len, 3);
        assert_eq!(ls[0].hrefs, 1);
        assert_eq!(ls[0].nodes_nohref, 2);
        // Both list items share a tag path; the paragraphs share another.
        assert_eq!(ls[3].path, ls[4].path);
        assert_eq!(ls[0].path, ls[1].path);
        assert_ne!(ls[0].path, ls[3].path);
        assert_eq!(weighted_len("ab 中文"), 6);
    }

    #[test]
    fn render_breaks_paragraphs_and_drops_excluded_text() {
        let doc = parse("<div><p>Hello <a href='/x'>link</a> world</p><p>Next</p></div>");
        let facts = NodeFacts::new(&doc);
        let text = render_text(&doc, 0, |id| facts.anchor[id as usize].is_none());
        assert_eq!(text, "Hello world\n\nNext");
        assert_eq!(text_to_html("a < b\n\nc"), "<p>a &lt; b</p>\n<p>c</p>\n");
    }
}
