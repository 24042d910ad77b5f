//! The parsed page as a flat, owned arena in document (pre)order.
//!
//! html5ever parses (it normalises broken markup the way browsers do) into
//! a linked arena ([`sink`]) that is laid out at once as a `Vec<Node>` in
//! preorder, so that every later stage works on plain indices: the arena is
//! `Send`, cheap to walk, and a subtree is the contiguous range
//! `id..node.end`.
//!
//! Invariants:
//! - `nodes[0]` is the root (`#document`); node ids are preorder positions.
//! - `nodes[i].end` is one past the last node of `i`'s subtree, so
//!   `j` is a descendant of `i` iff `i < j < nodes[i].end`; the first child of
//!   `i` (if any) is `i + 1`, and the next sibling of `i` is `nodes[i].end`
//!   when that is still inside the parent's range.
//! - Non-structural content never enters the arena: comments, doctypes,
//!   processing instructions and the subtrees of `script`, `style`,
//!   `noscript`, `template`, `title` (kept separately as [`Document::title`])
//!   and the inside of `svg`/`math` (the element itself stays, as a leaf).
//! - Whitespace-only text is kept (it separates words when text is joined)
//!   but flagged `blank`, so the tag sequence can skip it.
//! - Walks are iterative: a page of 100,000 nested `div`s cannot overflow the stack.
//! - No element nests deeper than [`depth::MAX_DEPTH`]: html5ever's tree
//!   builder is quadratic in depth, so [`parse`] first trims deeper start
//!   tags in one linear pass ([`prepare`], which also applies the work
//!   [`budget`] and empties script, style and noscript bodies) and counts them in
//!   [`Document::dropped_deep_tags`]; their text stays.

pub mod budget;
pub mod depth;
pub mod formatting;
pub mod lexer;
pub mod name;
pub mod prepare;
pub mod sink;
pub mod tags;

use html5ever::tendril::TendrilSink;
#[cfg(test)]
use kuchikikiki::{NodeData as KNodeData, NodeRef};
pub use name::Name;

/// Index of a node in [`Document::nodes`].
pub type NodeId = u32;

/// One page, parsed.
#[derive(Debug, Clone, Default)]
pub struct Document {
    pub nodes: Vec<Node>,
    /// Text of the first `<title>`, whitespace-collapsed.
    pub title: Option<String>,
    /// `href` of the first `<base>` element, as written.
    pub base_href: Option<String>,
    /// `lang` of the `<html>` element, as written.
    pub lang: Option<String>,
    /// Start tags dropped by the nesting-depth cap (0 on ordinary pages).
    pub dropped_deep_tags: usize,
    /// The page had more than [`budget::MAX_ELEMENTS`] elements and was
    /// cut there: these are the records of its first part.
    pub truncated_at_budget: bool,
    /// The parser made more than [`budget::MAX_NODES`] nodes (elements the
    /// page never wrote, like a `p` for each stray `</p>`) and the tree
    /// stops there: these are the records of its first part.
    pub truncated_at_nodes: bool,
    /// Attributes dropped beyond [`budget::MAX_ATTRIBUTES`] per element.
    pub dropped_attributes: usize,
    /// Formatting start tags dropped by the cap on those left open
    /// ([`formatting::MAX_ACTIVE_FORMATTING`]; 0 on ordinary pages).
    pub dropped_formatting_tags: usize,
    /// Where the `script` elements of the parsed HTML are, as byte ranges
    /// of the string given to [`parse`] (none for a document built another
    /// way: [`prepare::ScriptSpans::scanned_to`] is then 0).
    pub scripts: prepare::ScriptSpans,
}

/// One element or text node.
#[derive(Debug, Clone)]
pub struct Node {
    pub parent: Option<NodeId>,
    /// One past the last descendant (preorder).
    pub end: NodeId,
    /// Depth below the root (the root has depth 0).
    pub depth: u32,
    pub data: NodeData,
}

#[derive(Debug, Clone)]
pub enum NodeData {
    Document,
    Element(Element),
    Text { text: String, blank: bool },
}

#[derive(Debug, Clone)]
pub struct Element {
    /// Lower-case local name (`div`, `a`, `time`, ...).
    pub name: Name,
    /// Attributes in source order, names lower-case.
    pub attrs: Vec<(Name, String)>,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// True when attribute `name` is a space-separated list holding
    /// `token`, ignoring ASCII case (`rel="alternate canonical"`).
    pub fn has_token(&self, name: &str, token: &str) -> bool {
        self.attr(name).is_some_and(|list| {
            list.split_ascii_whitespace()
                .any(|t| t.eq_ignore_ascii_case(token))
        })
    }

    /// Kept for screen readers only by the page's style sheet: a class in
    /// [`VISUALLY_HIDDEN_CLASSES`], or one with a framework's prefix
    /// (`wt-screen-reader-only`, `u-sr-only`).
    pub fn is_for_screen_readers(&self) -> bool {
        self.attr("class").is_some_and(|c| {
            c.split_ascii_whitespace().any(|t| {
                VISUALLY_HIDDEN_CLASSES.iter().any(|v| {
                    ends_with_ascii_ci(t, v)
                        && (t.len() == v.len() || t.as_bytes()[t.len() - v.len() - 1] == b'-')
                })
            })
        })
    }

    /// Hidden by its own markup, whatever the style sheets say: the
    /// `hidden` attribute, or an inline style with `display: none` or
    /// `visibility: hidden` (any case and spacing).
    pub fn is_hidden(&self) -> bool {
        if self.attr("hidden").is_some() {
            return true;
        }
        self.attr("style").is_some_and(|style| {
            style
                .split(';')
                .any(|d| declares(d, "display:none") || declares(d, "visibility:hidden"))
        })
    }
}

/// True when the style declaration `decl`, whatever its spacing and case,
/// is `want` (written without spaces, lower case), `!important` or not.
/// No copy of the declaration is made: every element's style is read.
fn declares(decl: &str, want: &str) -> bool {
    let mut got = decl
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_lowercase());
    if !want.chars().all(|w| got.next() == Some(w)) {
        return false;
    }
    let rest: String = got.collect();
    rest.trim_end_matches("!important").is_empty()
}

/// Text (bytes) beside a link, in its parent's own text nodes, from which
/// on the link is part of a sentence ([`Document::in_running_text`]).
pub const RUNNING_TEXT_BYTES: usize = 40;

/// Largest caption block (nodes, itself included): a heading, its icons
/// and a "See all" or calendar link ([`Document::is_caption`]).
pub const MAX_CAPTION_NODES: NodeId = 64;

/// Longest caption (text bytes, with the controls beside its heading).
pub const MAX_CAPTION_BYTES: usize = 80;

/// The class names CSS frameworks and CMSs give text kept for screen
/// readers only (WordPress, Bootstrap 3/4 and 5, HTML5 Boilerplate,
/// Drupal, Foundation).
pub const VISUALLY_HIDDEN_CLASSES: &[&str] = &[
    "screen-reader-text",
    "screen-reader-only",
    "sr-only",
    "visually-hidden",
    "visuallyhidden",
    "show-for-sr",
];

/// Elements whose whole subtree is dropped: they hold no visible page text.
const SKIPPED_SUBTREES: &[&str] = &["script", "style", "noscript", "template", "title"];
/// Elements kept as leaves: their insides are drawing instructions, not text.
const LEAF_ONLY: &[&str] = &["svg", "math"];

/// True for the heading tags `h1`–`h6`.
pub fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// `0..6` for the heading tags `h1`..`h6`, `None` for any other name.
pub fn heading_level(name: &str) -> Option<usize> {
    match name.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => Some(usize::from(d - b'1')),
        _ => None,
    }
}

/// Elements that break a line when text is read out; text on either side of
/// them is separated by a space even when the markup has none. One `match`
/// (by length, then bytes): the text readers ask it of every element.
pub fn is_block_element(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "br"
            | "dd"
            | "details"
            | "div"
            | "dl"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hr"
            | "li"
            | "main"
            | "nav"
            | "ol"
            | "p"
            | "pre"
            | "section"
            | "summary"
            | "table"
            | "tbody"
            | "td"
            | "tfoot"
            | "th"
            | "thead"
            | "tr"
            | "ul"
            | "img"
            | "button"
            | "option"
            | "select"
    )
}

/// Parse already-decoded HTML into an arena, nesting capped at
/// [`depth::MAX_DEPTH`].
pub fn parse(html: &str) -> Document {
    parse_with_depth_cap(html, depth::MAX_DEPTH)
}

/// [`parse`] with an explicit nesting cap.
pub fn parse_with_depth_cap(html: &str, max_depth: usize) -> Document {
    let prepared = prepare::prepare(
        html,
        prepare::Options {
            max_depth: Some(max_depth),
            empty_raw_bodies: true,
        },
    );
    if prepared.dropped_formatting_tags > 0 {
        tracing::warn!(
            dropped = prepared.dropped_formatting_tags,
            max = formatting::MAX_ACTIVE_FORMATTING,
            "page leaves more formatting elements open than the cap; further ones dropped"
        );
    }
    if prepared.dropped_deep_tags > 0 {
        tracing::warn!(
            dropped = prepared.dropped_deep_tags,
            max_depth,
            "page nests elements deeper than the cap; deeper start tags dropped"
        );
    }
    let mut doc = html5ever::parse_document(sink::ArenaSink::default(), Default::default())
        .one(prepared.html.as_ref());
    if doc.truncated_at_nodes {
        tracing::warn!(
            max = budget::MAX_NODES,
            "page makes more nodes than the parse budget; only its first part was read"
        );
    }
    doc.dropped_deep_tags = prepared.dropped_deep_tags;
    doc.truncated_at_budget = prepared.truncated;
    doc.dropped_attributes = prepared.dropped_attributes;
    doc.dropped_formatting_tags = prepared.dropped_formatting_tags;
    doc.scripts = prepared.scripts;
    doc
}

/// Convert a kuchikikiki tree (any node; normally the document) to an
/// arena: the way pages were read before [`sink`], kept as the reference
/// the sink is checked against.
#[cfg(test)]
pub fn from_kuchiki(root: &NodeRef) -> Document {
    let mut doc = Document::default();
    // Explicit stack of (node, parent id); children pushed in reverse so they
    // pop in document order. `Exit` markers close a subtree to set `end`.
    enum Step {
        Enter(NodeRef, Option<NodeId>, u32),
        Exit(NodeId),
    }
    let mut stack = vec![Step::Enter(root.clone(), None, 0)];
    while let Some(step) = stack.pop() {
        let (node, parent, depth) = match step {
            Step::Exit(id) => {
                let end = doc.nodes.len() as NodeId;
                doc.nodes[id as usize].end = end;
                continue;
            }
            Step::Enter(node, parent, depth) => (node, parent, depth),
        };
        let id = doc.nodes.len() as NodeId;
        let mut descend = true;
        let data = match node.data() {
            KNodeData::Document(_) | KNodeData::DocumentFragment => NodeData::Document,
            KNodeData::Element(el) => {
                let name: String = (*el.name.local).to_ascii_lowercase();
                if SKIPPED_SUBTREES.contains(&name.as_str()) {
                    if name == "title" && doc.title.is_none() {
                        let t = collapse_whitespace(&node.text_contents());
                        if !t.is_empty() {
                            doc.title = Some(t);
                        }
                    }
                    continue;
                }
                let attrs: Vec<(Name, String)> = el
                    .attributes
                    .borrow()
                    .map
                    .iter()
                    .map(|(k, v)| (Name::from_parsed(k.local.clone()), v.value.clone()))
                    .collect();
                if name == "base" && doc.base_href.is_none() {
                    doc.base_href = attrs
                        .iter()
                        .find(|(k, _)| k == "href")
                        .map(|(_, v)| v.trim().to_string());
                }
                if name == "html" && doc.lang.is_none() {
                    doc.lang = attrs
                        .iter()
                        .find(|(k, _)| k == "lang")
                        .map(|(_, v)| v.trim().to_string());
                }
                descend = !LEAF_ONLY.contains(&name.as_str());
                NodeData::Element(Element {
                    name: name.into(),
                    attrs,
                })
            }
            KNodeData::Text(t) => {
                let text = t.borrow().clone();
                let blank = text.trim().is_empty();
                NodeData::Text { text, blank }
            }
            _ => continue, // comments, doctypes, processing instructions
        };
        doc.nodes.push(Node {
            parent,
            end: id + 1,
            depth,
            data,
        });
        if descend && node.first_child().is_some() {
            stack.push(Step::Exit(id));
            let children: Vec<NodeRef> = node.children().collect();
            for child in children.into_iter().rev() {
                stack.push(Step::Enter(child, Some(id), depth + 1));
            }
        }
    }
    doc
}

impl Document {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn element(&self, id: NodeId) -> Option<&Element> {
        match &self.nodes[id as usize].data {
            NodeData::Element(e) => Some(e),
            _ => None,
        }
    }

    /// Tag name of an element, `None` for text and the root.
    pub fn tag(&self, id: NodeId) -> Option<&str> {
        self.element(id).map(|e| e.name.as_str())
    }

    pub fn is_tag(&self, id: NodeId, name: &str) -> bool {
        self.tag(id) == Some(name)
    }

    /// The columns table cell `cell` spans (its `colspan`, 1 when it has
    /// none or it is no number).
    pub fn colspan(&self, cell: NodeId) -> u32 {
        self.element(cell)
            .and_then(|e| e.attr("colspan"))
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(1)
    }

    /// The element right before `x` among its siblings, found from the
    /// node before `x` in document order (the last node inside that
    /// sibling) by climbing to the parent's child: no walk over the
    /// earlier siblings.
    pub fn previous_element(&self, x: NodeId) -> Option<NodeId> {
        let parent = self.node(x).parent?;
        let mut at = x;
        loop {
            let mut p = at.checked_sub(1)?;
            if p == parent {
                return None;
            }
            while self.node(p).parent != Some(parent) {
                p = self.node(p).parent?;
            }
            if self.element(p).is_some() {
                return Some(p);
            }
            at = p;
        }
    }

    /// The element right after `x` among its siblings, found from the node
    /// after `x`'s subtree, past text nodes.
    pub fn next_element(&self, x: NodeId) -> Option<NodeId> {
        let parent = self.node(x).parent?;
        let mut next = self.node(x).end;
        while (next as usize) < self.nodes.len() && self.node(next).parent == Some(parent) {
            if self.element(next).is_some() {
                return Some(next);
            }
            next = self.node(next).end;
        }
        None
    }

    /// Direct children of `id`, in order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        let end = self.nodes[id as usize].end;
        Children {
            doc: self,
            next: id + 1,
            end,
        }
    }

    /// Ancestors of `id`, nearest first (excluding `id`).
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.nodes[id as usize].parent, |&p| {
            self.nodes[p as usize].parent
        })
    }

    /// True when `desc` lies in the subtree of `anc` (or is `anc`).
    pub fn contains(&self, anc: NodeId, desc: NodeId) -> bool {
        anc <= desc && desc < self.nodes[anc as usize].end
    }

    /// Visible text of the subtree at `id`, whitespace-collapsed, with block
    /// boundaries turned into spaces.
    pub fn text(&self, id: NodeId) -> String {
        self.text_of_range(id, self.nodes[id as usize].end)
    }

    /// Visible text of the nodes `start..end` (whole subtrees in preorder).
    pub fn text_of_range(&self, start: NodeId, end: NodeId) -> String {
        let mut out = String::new();
        self.push_text_of_range(start, end, &mut out, |_| true);
        out
    }

    /// [`Document::text_of_range`] without the subtrees their own markup
    /// hides ([`Element::is_hidden`]) or that the page's style sheet keeps
    /// for screen readers ([`VISUALLY_HIDDEN_CLASSES`]): the text a reader
    /// sees, for titles and summaries (a post list's `display:none` author
    /// and word count are no part of its headline; WordPress's "Read
    /// more<span class=screen-reader-text>: Title</span>" shows "Read
    /// more"). Screen-reader text counts when nothing else is shown: it is
    /// then the name of an icon link.
    pub fn shown_text_of_range(&self, start: NodeId, end: NodeId) -> String {
        self.shown_text_prefix(start, end, usize::MAX)
    }

    /// The first `limit` bytes or more of [`Document::shown_text_of_range`]
    /// (a prefix of it, ending at a character boundary): a summary needs
    /// the start of a record, not a whole article, and a page can hold a
    /// record of megabytes.
    pub fn shown_text_prefix(&self, start: NodeId, end: NodeId, limit: usize) -> String {
        self.shown_prefix_keeping(start, end, limit, |_| true)
    }

    /// [`Document::shown_text_prefix`] without the labels of form controls
    /// (`button`, `select`): the words a reader reads, for summaries (a
    /// post's "1 Reply", "Reply" and "Summarize" buttons are none).
    pub fn read_text_prefix(&self, start: NodeId, end: NodeId, limit: usize) -> String {
        self.shown_prefix_keeping(start, end, limit, |e| {
            !matches!(e.name.as_str(), "button" | "select")
        })
    }

    /// The shown text of `start..end` (at least `limit` bytes of it),
    /// also skipping the elements `keep` rejects.
    fn shown_prefix_keeping(
        &self,
        start: NodeId,
        end: NodeId,
        limit: usize,
        keep: impl Fn(&Element) -> bool,
    ) -> String {
        let mut out = String::new();
        self.push_text_of_range_until(start, end, &mut out, limit, |i| {
            self.element(i)
                .is_none_or(|e| !e.is_hidden() && !e.is_for_screen_readers() && keep(e))
        });
        if out.trim().is_empty() {
            out.clear();
            self.push_text_of_range_until(start, end, &mut out, limit, |i| {
                self.element(i).is_none_or(|e| !e.is_hidden() && keep(e))
            });
        }
        out
    }

    /// Appends the visible text of `start..end` to `out` (empty, or ending
    /// a word), whitespace-collapsed as [`collapse_whitespace`] would give
    /// it, skipping subtrees whose root `keep` rejects. Block elements
    /// separate words; inline elements do not (`<b>foo</b>bar` is "foobar").
    pub fn push_text_of_range(
        &self,
        start: NodeId,
        end: NodeId,
        out: &mut String,
        keep: impl Fn(NodeId) -> bool,
    ) {
        self.push_text_of_range_until(start, end, out, usize::MAX, keep);
    }

    /// [`Document::push_text_of_range`] that stops once `out` holds `limit`
    /// bytes or more: what it appended is then a prefix of what the whole
    /// range would append.
    pub fn push_text_of_range_until(
        &self,
        start: NodeId,
        end: NodeId,
        out: &mut String,
        limit: usize,
        keep: impl Fn(NodeId) -> bool,
    ) {
        self.walk_text(start, end, out, limit, false, keep);
    }

    /// The first line of [`Document::push_text_of_range`]'s text: its
    /// words up to the first line break (a `<br>` or a block's edge)
    /// after some text.
    pub fn first_line_of_range(
        &self,
        start: NodeId,
        end: NodeId,
        keep: impl Fn(NodeId) -> bool,
    ) -> String {
        let mut line = String::new();
        self.walk_text(start, end, &mut line, usize::MAX, true, keep);
        line
    }

    /// The walk of [`Document::push_text_of_range_until`]; with
    /// `first_line`, it stops at the first line break after some text.
    fn walk_text(
        &self,
        start: NodeId,
        end: NodeId,
        out: &mut String,
        limit: usize,
        first_line: bool,
        keep: impl Fn(NodeId) -> bool,
    ) {
        let mut gap = false;
        // A block's edge since the last word (`first_line` stops there).
        let mut broke = false;
        let mut i = start;
        // Ends of the open block elements: text after a block's end is
        // separated from the block's own text.
        let mut block_ends: Vec<NodeId> = Vec::new();
        while i < end {
            while block_ends.last().is_some_and(|&e| e <= i) {
                block_ends.pop();
                gap = true;
                broke = true;
            }
            let node = &self.nodes[i as usize];
            if !keep(i) {
                i = node.end;
                continue;
            }
            match &node.data {
                NodeData::Text { text, .. } if first_line && !text.trim().is_empty() => {
                    if broke && !out.is_empty() {
                        return;
                    }
                    broke = false;
                    push_collapsed(out, text, &mut gap);
                }
                NodeData::Text { text, .. }
                    if !push_collapsed_until(out, text, &mut gap, limit) =>
                {
                    return;
                }
                NodeData::Element(e) if is_block_element(&e.name) => {
                    gap = true;
                    broke = true;
                    block_ends.push(node.end);
                }
                _ => {}
            }
            i += 1;
        }
    }

    /// The non-blank text nodes of `start..end` that are not inside an `<a>`
    /// (a byline's words, a comment's prose), in document order.
    pub fn texts_outside_links(
        &self,
        start: NodeId,
        end: NodeId,
    ) -> impl Iterator<Item = &str> + '_ {
        let mut link_end = 0;
        (start..end).filter_map(move |i| match &self.nodes[i as usize].data {
            NodeData::Element(e) if e.name == "a" => {
                link_end = link_end.max(self.nodes[i as usize].end);
                None
            }
            NodeData::Text { text, blank: false } if i >= link_end => Some(text.as_str()),
            _ => None,
        })
    }

    /// Bytes of non-blank visible text in the subtree at `id`.
    pub fn text_bytes(&self, id: NodeId) -> usize {
        self.range_text_bytes(id, self.nodes[id as usize].end)
    }

    /// True when link `a` (of `bytes` text bytes) is part of running text:
    /// its parent's own text around it is at least [`RUNNING_TEXT_BYTES`]
    /// and twice the link's ("I checked the <a>Eastern Evening News
    /// archive</a> for February", a comment's signature after its words).
    /// Such a link is a reference, not a headline: a headline stands on its
    /// own line (`<h2><a>`, `<li><a>Title</a> — 5 March</li>`). Notes in
    /// brackets are no sentence's words: a publication's "<a>Annual Report
    /// 2023</a> (PDF, 5.2 MB), July 2024 · <a>…</a> (PDF, 880 KB)" stands
    /// on its own line.
    pub fn in_running_text(&self, a: NodeId, bytes: usize) -> bool {
        let Some(parent) = self.node(a).parent else {
            return false;
        };
        let mut depth = 0usize;
        let beside: usize = self
            .children(parent)
            .map(|c| match &self.node(c).data {
                NodeData::Text { text, blank: false } => unbracketed_bytes(text, &mut depth),
                _ => 0,
            })
            .sum();
        beside >= RUNNING_TEXT_BYTES && beside >= 2 * bytes
    }

    /// True when element `id` is a caption: a heading, or a short block
    /// holding one (a section's head: its title, an icon and a calendar
    /// or "See all" link), of at most [`MAX_CAPTION_NODES`] nodes and
    /// [`MAX_CAPTION_BYTES`] of text.
    pub fn is_caption(&self, id: NodeId) -> bool {
        let end = self.node(id).end;
        end - id <= MAX_CAPTION_NODES
            && (id..end).any(|i| self.tag(i).is_some_and(is_heading))
            && self.text_bytes(id) <= MAX_CAPTION_BYTES
    }

    /// Bytes of non-blank visible text in the nodes `start..end`.
    /// The text bytes of the links and buttons in `block` beside its
    /// descendant `inner`, or `None` when `block` holds other text beside
    /// `inner`: a header block around a heading holds a "See All" link or
    /// a "Popular / Newest" switch, a lead post holds its words.
    pub fn controls_beside(&self, block: NodeId, inner: NodeId) -> Option<usize> {
        let end = self.node(block).end;
        let mut controls = 0;
        let mut i = block + 1;
        while i < end {
            let node = self.node(i);
            match &node.data {
                _ if i == inner => {
                    i = node.end.max(i + 1);
                    continue;
                }
                NodeData::Element(e) if e.name == "a" || e.name == "button" => {
                    controls += self.text_bytes(i);
                    i = node.end.max(i + 1);
                    continue;
                }
                NodeData::Text { blank: false, .. } => return None,
                _ => {}
            }
            i += 1;
        }
        Some(controls)
    }

    pub fn range_text_bytes(&self, start: NodeId, end: NodeId) -> usize {
        self.nodes[start as usize..end as usize]
            .iter()
            .map(|n| match &n.data {
                NodeData::Text { text, blank: false } => trim_text(text).len(),
                _ => 0,
            })
            .sum()
    }
}

/// Bytes of trimmed `text` outside brackets, `depth` being how many
/// brackets are open where it starts (and, after, where it ends).
fn unbracketed_bytes(text: &str, depth: &mut usize) -> usize {
    let text = trim_text(text);
    if !text.contains(['(', ')', '[', ']']) && *depth == 0 {
        return text.len();
    }
    let mut n = 0;
    for c in text.chars() {
        match c {
            '(' | '[' => *depth += 1,
            ')' | ']' => *depth = depth.saturating_sub(1),
            c if *depth == 0 => n += c.len_utf8(),
            _ => {}
        }
    }
    n
}

/// Iterator over the direct children of a node.
pub struct Children<'a> {
    doc: &'a Document,
    next: NodeId,
    end: NodeId,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.next >= self.end {
            return None;
        }
        let id = self.next;
        self.next = self.doc.nodes[id as usize].end;
        Some(id)
    }
}

/// Where `needle` (ASCII, lower case, not empty) first occurs in `hay`,
/// ignoring ASCII case: `</SCRIPT` for `</script`, `Card-Title` for
/// `title`.
pub fn find_ascii_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = needle[0];
    let mut i = 0;
    while i + needle.len() <= hay.len() {
        let n = memchr::memchr2(first, first.to_ascii_uppercase(), &hay[i..])?;
        i += n;
        if i + needle.len() <= hay.len() && hay[i..i + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// True when one of `needles` (ASCII, lower case, none empty) occurs in
/// `hay`, ignoring ASCII case: [`find_ascii_ci`] of each, in one pass over
/// `hay`. For short haystacks (a class token), where setting up a search
/// per needle costs more than the search.
pub fn holds_any_ascii_ci(hay: &[u8], needles: &[&str]) -> bool {
    (0..hay.len()).any(|i| {
        let first = hay[i].to_ascii_lowercase();
        needles.iter().any(|n| {
            n.as_bytes().first() == Some(&first)
                && hay[i..]
                    .get(..n.len())
                    .is_some_and(|h| h.eq_ignore_ascii_case(n.as_bytes()))
        })
    })
}

/// True when `s` starts with `prefix`, ignoring ASCII case (a class token
/// against a lower-case convention: `Author-Name` for `author-`).
pub fn starts_with_ascii_ci(s: &str, prefix: &str) -> bool {
    s.as_bytes()
        .get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// True when `s` ends with `suffix`, ignoring ASCII case.
pub fn ends_with_ascii_ci(s: &str, suffix: &str) -> bool {
    s.len()
        .checked_sub(suffix.len())
        .and_then(|at| s.as_bytes().get(at..))
        .is_some_and(|tail| tail.eq_ignore_ascii_case(suffix.as_bytes()))
}

/// Collapse runs of whitespace (incl. NBSP) to one space and trim.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_collapsed(&mut out, s, &mut false);
    out
}

/// Appends the words of `piece` to `out`, one space between words, as
/// [`collapse_whitespace`] of everything appended so far would read. `gap`
/// carries whether whitespace came since the last word, so that pieces
/// join like the text they were cut from: "foo" then "bar" is "foobar",
/// "foo " then "bar" is "foo bar".
pub fn push_collapsed(out: &mut String, piece: &str, gap: &mut bool) {
    let bytes = piece.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let (space, len) = char_at(piece, i);
        if space {
            *gap = true;
            i += len;
            continue;
        }
        // Words with one plain space between them read as written: they
        // are appended at once.
        let start = i;
        let mut end = word_end(piece, i);
        while bytes.get(end) == Some(&b' ') && end + 1 < bytes.len() && !char_at(piece, end + 1).0 {
            end = word_end(piece, end + 1);
        }
        push_word(out, &piece[start..end], gap);
        i = end;
    }
}

/// Where the word at byte `i` of `s` ends: at the next whitespace, or at
/// the end of `s`.
fn word_end(s: &str, mut i: usize) -> usize {
    let bytes = s.as_bytes();
    while let Some(&b) = bytes.get(i) {
        let len = match b.is_ascii() {
            true if is_ascii_space(b) => break,
            true => 1,
            false => match char_at(s, i) {
                (true, _) => break,
                (false, len) => len,
            },
        };
        i += len;
    }
    i
}

/// [`str::trim`] with the ASCII ends read on the bytes: most text nodes
/// end in the markup's line breaks and indents; a non-ASCII end (a
/// no-break space) is left to `trim`.
pub fn trim_text(s: &str) -> &str {
    let b = s.as_bytes();
    let start = b
        .iter()
        .position(|&c| !is_ascii_space(c))
        .unwrap_or(b.len());
    let end = b
        .iter()
        .rposition(|&c| !is_ascii_space(c))
        .map_or(start, |e| e + 1);
    let inner = &s[start..end];
    match (inner.as_bytes().first(), inner.as_bytes().last()) {
        (Some(first), Some(last)) if !first.is_ascii() || !last.is_ascii() => inner.trim(),
        _ => inner,
    }
}

/// ASCII whitespace as `char::is_whitespace` has it (tab to carriage
/// return, space).
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | b' ')
}

/// Whether the character at byte `i` of `s` is whitespace, and its length.
/// ASCII decides on the byte; other characters are decoded (the Unicode
/// White_Space set, as `char::is_whitespace`).
#[inline]
fn char_at(s: &str, i: usize) -> (bool, usize) {
    match s.as_bytes()[i] {
        b if b.is_ascii() => (is_ascii_space(b), 1),
        _ => decoded_at(s, i),
    }
}

/// [`char_at`] for a character beyond ASCII, decoded: out of line, so
/// that the ASCII test is small enough to inline where text is walked.
#[inline(never)]
fn decoded_at(s: &str, i: usize) -> (bool, usize) {
    s[i..]
        .chars()
        .next()
        .map_or((false, 1), |c| (c.is_whitespace(), c.len_utf8()))
}

/// Bytes of a text node appended at a time by [`push_collapsed_until`].
const COLLAPSE_CHUNK: usize = 4096;

/// [`push_collapsed`] of `piece` until `out` holds `limit` bytes or more,
/// a chunk at a time (a word cut between chunks joins again, as `gap`
/// says no whitespace came between). False once `out` is that long.
fn push_collapsed_until(out: &mut String, piece: &str, gap: &mut bool, limit: usize) -> bool {
    let mut rest = piece;
    while !rest.is_empty() {
        if out.len() >= limit {
            return false;
        }
        let cut = if limit == usize::MAX {
            rest.len()
        } else {
            rest.ceil_char_boundary(COLLAPSE_CHUNK)
        };
        push_collapsed(out, &rest[..cut], gap);
        rest = &rest[cut..];
    }
    out.len() < limit
}

fn push_word(out: &mut String, word: &str, gap: &mut bool) {
    if *gap && !out.is_empty() {
        out.push(' ');
    }
    out.push_str(word);
    *gap = false;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random texts of words, ASCII and other whitespace, and letters of
    /// several byte lengths.
    fn random_texts(seed: u64, count: usize) -> Vec<String> {
        let alphabet = [
            'a', 'B', ' ', ' ', '\t', '\n', '\r', '\u{b}', '\u{c}', '\u{a0}', '\u{3000}',
            '\u{2028}', 'é', '中', '😀', '-',
        ];
        let mut rng = fastrand::Rng::with_seed(seed);
        (0..count)
            .map(|_| {
                (0..rng.usize(0..20))
                    .map(|_| alphabet[rng.usize(..alphabet.len())])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn pieces_collapse_as_their_joined_text_splits_into_words() {
        let texts = random_texts(7, 4_000);
        for pair in texts.chunks(2) {
            let (a, b) = (&pair[0], pair.get(1).map_or("", String::as_str));
            let mut out = String::new();
            let mut gap = false;
            push_collapsed(&mut out, a, &mut gap);
            push_collapsed(&mut out, b, &mut gap);
            let joined = format!("{a}{b}");
            let words: Vec<&str> = joined.split_whitespace().collect();
            assert_eq!(out, words.join(" "), "{a:?} + {b:?}");
        }
    }

    #[test]
    fn trim_text_is_trim() {
        for t in random_texts(11, 4_000) {
            assert_eq!(trim_text(&t), t.trim(), "{t:?}");
        }
    }

    #[test]
    fn holds_any_ascii_ci_is_find_ascii_ci_of_each() {
        let needles = ["ab", "b", "aab", "ba-"];
        for t in random_texts(13, 4_000) {
            let one_by_one = needles
                .iter()
                .any(|n| find_ascii_ci(t.as_bytes(), n.as_bytes()).is_some());
            assert_eq!(
                holds_any_ascii_ci(t.as_bytes(), &needles),
                one_by_one,
                "{t:?}"
            );
        }
    }

    /// Visible text the way it was read before words were collapsed on
    /// the way: the raw text with a space at every block boundary,
    /// collapsed at the end.
    fn text_of_range_reference(doc: &Document, start: NodeId, end: NodeId) -> String {
        let mut raw = String::new();
        let mut block_ends: Vec<NodeId> = Vec::new();
        for i in start..end {
            while block_ends.last().is_some_and(|&e| e <= i) {
                block_ends.pop();
                raw.push(' ');
            }
            match &doc.nodes[i as usize].data {
                NodeData::Text { text, .. } => raw.push_str(text),
                NodeData::Element(e) if is_block_element(&e.name) => {
                    raw.push(' ');
                    block_ends.push(doc.nodes[i as usize].end);
                }
                _ => {}
            }
        }
        collapse_whitespace(&raw)
    }

    #[test]
    fn text_collapsed_on_the_way_reads_like_the_collapsed_raw_text() {
        let doc = parse(
            "<main><article class=card><h2> <a href='/a'>Fer<b>ry</b> <i>times</i></a></h2>\
             <p>Mon\u{a0}\u{a0}12 <span>May</span>,<br>2024</p><div><div>deep</div>tail</div>\
             <ul><li>one</li><li> two </li></ul>\u{3000}end</article>\
             <p>  </p><span>in</span><span>line</span><p>cell</p>after</main>",
        );
        let n = doc.nodes.len() as NodeId;
        for id in 0..n {
            let end = doc.nodes[id as usize].end;
            assert_eq!(
                doc.text(id),
                text_of_range_reference(&doc, id, end),
                "node {id}"
            );
            // Ranges that start or stop inside a subtree.
            for stop in (id..=end).step_by(3) {
                assert_eq!(
                    doc.text_of_range(id, stop),
                    text_of_range_reference(&doc, id, stop),
                    "range {id}..{stop}"
                );
            }
        }
        assert_eq!(
            doc.text(0),
            "Ferry times Mon 12 May, 2024 deep tail one two end inline cell after"
        );
    }

    #[test]
    fn a_text_prefix_is_a_prefix_of_the_whole_text_and_long_enough() {
        // Text nodes longer than a chunk, runs of spaces across a chunk's
        // end, characters of two to four bytes, words split by markup.
        let long = "Fähre  über\u{a0}den 🚢 Fluss ".repeat(600);
        let html = format!(
            "<article><h2>Ferry <a href='/a'>times</a></h2><p>{long}</p>\
             <p>fo<b>o</b>   bar</p><div hidden>gone</div><p>{long}</p>end</article>"
        );
        let doc = parse(&html);
        let root = (0..doc.nodes.len() as NodeId)
            .find(|&i| doc.is_tag(i, "article"))
            .expect("an article");
        let end = doc.node(root).end;
        let whole = doc.shown_text_of_range(root, end);
        assert!(whole.len() > 30_000, "{}", whole.len());
        for limit in [
            0,
            1,
            5,
            17,
            4095,
            4096,
            4097,
            9_000,
            20_011,
            whole.len(),
            1 << 40,
        ] {
            let prefix = doc.shown_text_prefix(root, end, limit);
            assert!(whole.starts_with(&prefix), "limit {limit}");
            assert!(prefix.len() >= limit.min(whole.len()), "limit {limit}");
            // Stopping reads at most one more chunk than asked.
            assert!(
                prefix.len() <= limit.saturating_add(2 * COLLAPSE_CHUNK),
                "limit {limit}"
            );
        }
    }

    #[test]
    fn a_link_in_a_sentence_is_in_running_text_and_a_headline_is_not() {
        let doc = parse(
            "<div><p>I looked through the <a href=/g>Harwick Gazette</a> index for 1953 \
             and found nothing about it.</p>\
             <ul><li><a href=/p>Lanterns return to the quay</a> — 5 March</li></ul>\
             <h2><a href=/h>Lanterns return to the quay tonight</a></h2>\
             <p>Signed — <a href=/u>Oswin Parry</a> (talk)</p>\
             <ul><li><a href=/r.pdf>Annual Report 2023</a> (PDF, 5.2 MB), July 2024 &middot; \
             <a href=/f.pdf>Audited financial statements</a> (PDF, 880 KB)</li></ul></div>",
        );
        let running: Vec<bool> = (0..doc.nodes.len() as NodeId)
            .filter(|&i| doc.is_tag(i, "a"))
            .map(|a| doc.in_running_text(a, doc.text_bytes(a)))
            .collect();
        // Regression (an NGO's publications): the file notes beside a
        // report's link made a sentence of its line, and the title went to
        // the line's second link.
        assert_eq!(running, [true, false, false, false, false, false]);
    }

    #[test]
    fn ascii_case_prefixes_and_suffixes() {
        assert!(starts_with_ascii_ci("Author-Name", "author-"));
        assert!(ends_with_ascii_ci("entry-HEADER", "header"));
        assert!(ends_with_ascii_ci("header", "header"));
        assert!(!ends_with_ascii_ci("eader", "header"));
        assert!(!starts_with_ascii_ci("aut", "author-"));
        // Multi-byte text is compared by bytes, never sliced inside a char.
        assert!(!ends_with_ascii_ci("Überschrift-é", "ift-e"));
        assert!(starts_with_ascii_ci("anything", ""));
    }

    #[test]
    fn collapse_whitespace_agrees_with_splitting_on_unicode_whitespace() {
        let reference = |s: &str| {
            s.split(char::is_whitespace)
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        // ASCII and Unicode spaces (VT, NEL, NBSP, ideographic, line
        // separator), and look-alikes that are not White_Space (zero-width
        // space, BOM) between words of several scripts.
        let pieces = [
            "a", "Zürich", "日本", " ", "\t", "\n", "\u{b}", "\u{c}", "\r", "\u{85}", "\u{a0}",
            "\u{3000}", "\u{2028}", "\u{200b}", "\u{feff}", "x y", "",
        ];
        let mut checked = 0;
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in pieces {
                        let s = format!("{a}{b}{c}{d}");
                        assert_eq!(collapse_whitespace(&s), reference(&s), "{s:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, pieces.len().pow(4));
    }

    #[test]
    fn arena_is_preorder_with_subtree_ranges() {
        let doc = parse(
            "<html lang=de><head><title> My  page </title><script>var x = '<a>';</script>\
             <base href='/root/'></head><body><ul><li><a href='/a'>One</a> <span>x</span></li>\
             <li><a href='/b'>Two</a></li></ul><!-- note --><p>end</p></body></html>",
        );
        assert_eq!(doc.title.as_deref(), Some("My page"));
        assert_eq!(doc.base_href.as_deref(), Some("/root/"));
        assert_eq!(doc.lang.as_deref(), Some("de"));
        // No script and no comment text anywhere.
        assert!(doc.nodes.iter().all(|n| match &n.data {
            NodeData::Text { text, .. } => !text.contains("var x") && !text.contains("note"),
            _ => true,
        }));
        let ul = (0..doc.nodes.len() as NodeId)
            .find(|&i| doc.is_tag(i, "ul"))
            .unwrap();
        let lis: Vec<NodeId> = doc.children(ul).collect();
        assert_eq!(lis.len(), 2);
        assert!(lis.iter().all(|&li| doc.is_tag(li, "li")));
        assert_eq!(doc.text(lis[0]), "One x");
        assert_eq!(doc.text(ul), "One x Two");
        assert!(doc.contains(ul, lis[1]) && !doc.contains(lis[0], lis[1]));
        assert_eq!(doc.ancestors(lis[0]).next(), Some(ul));
    }

    #[test]
    fn inline_markup_does_not_split_words_but_blocks_do() {
        let doc = parse("<div><p>foo<b>bar</b></p><p>baz</p>中文<em>字</em></div>");
        assert_eq!(doc.text(0), "foobar baz 中文字");
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        // The arena walk is iterative; html5ever sees at most MAX_DEPTH levels.
        let depth = 3_000;
        let html = format!("{}x{}", "<div>".repeat(depth), "</div>".repeat(depth));
        let doc = parse_with_depth_cap(&html, depth + 10);
        assert_eq!(doc.dropped_deep_tags, 0);
        assert!(doc.nodes.iter().any(|n| n.depth as usize > depth));
        assert_eq!(doc.text(0), "x");
    }

    #[test]
    fn hundred_thousand_nested_divs_are_capped_and_keep_their_text() {
        let depth = 100_000;
        let html = format!(
            "<body><p>before</p>{}deep text{}<p>after</p></body>",
            "<div class=x>".repeat(depth),
            "</div>".repeat(depth)
        );
        let doc = parse(&html);
        assert_eq!(doc.dropped_deep_tags, depth - depth::MAX_DEPTH);
        let max = doc.nodes.iter().map(|n| n.depth).max().unwrap();
        assert!(max as usize <= depth::MAX_DEPTH + 3, "depth {max}");
        assert_eq!(doc.text(0), "before deep text after");
        // `after` is a sibling of the outermost div again, under body.
        let after = doc
            .nodes
            .iter()
            .position(|n| matches!(&n.data, NodeData::Text { text, .. } if text == "after"))
            .unwrap();
        let p = doc.node(after as NodeId).parent.unwrap();
        assert_eq!(doc.tag(doc.node(p).parent.unwrap()), Some("body"));
    }
}
