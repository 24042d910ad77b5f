//! html5ever's tree builder writing straight into a linked arena, which is
//! then laid out as the preorder [`Document`] in one walk.
//!
//! This replaces building a kuchikikiki `Rc` tree and copying it: every
//! element was one `Rc` allocation plus an attribute map, and every text
//! and attribute value was allocated twice (once in the tree, once in the
//! arena). Here a node is one slot of a `Vec`, its attributes stay the
//! `Vec` html5ever made, and texts are copied once, from the tendril.
//!
//! Invariants:
//! - The output is the [`Document`] the kuchikikiki path gave for the same
//!   HTML (the same parse options: scripting on, so `noscript` is raw
//!   text), except that attributes are in source order.
//! - Slot 0 is the document; links (parent, first/last child, siblings)
//!   are slot indices and every tree edit keeps them consistent, so the
//!   walk visits each slot at most once.
//! - Adjacent texts merge as they arrive, as in every DOM.
//! - The walk is iterative: a page of deeply nested elements cannot
//!   overflow the stack.
//! - At most [`MAX_NODES`] slots: when the arena is full the sink freezes.
//!   Every later edit is ignored and new nodes get handles with no slot
//!   (ids from the top of the range, never a slot's), so the tree is the
//!   one built up to that point, consistent, and the page is marked cut.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use html5ever::tendril::StrTendril;
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{Attribute, ExpandedName, QualName, local_name, ns};

use super::budget::MAX_NODES;
use super::{Document, Element, LEAF_ONLY, Name, Node, NodeData, NodeId, SKIPPED_SUBTREES};
use crate::extract::dom::collapse_whitespace;

/// A node of the tree builder: its slot, and its name when it is an
/// element (the tree builder asks for names by handle, often).
#[derive(Clone)]
pub struct Handle {
    id: u32,
    name: QualName,
}

enum Slot {
    Document,
    Element {
        name: QualName,
        attrs: Vec<Attribute>,
    },
    Text(StrTendril),
    /// Comments, processing instructions, doctypes, template contents:
    /// never part of the page's text.
    Other,
}

struct Linked {
    parent: Option<u32>,
    first: Option<u32>,
    last: Option<u32>,
    prev: Option<u32>,
    next: Option<u32>,
    slot: Slot,
}

/// The sink: the linked arena under construction.
pub struct ArenaSink {
    nodes: RefCell<Vec<Linked>>,
    /// The arena filled up: no more edits (see the module header).
    frozen: Cell<bool>,
    /// The id the next node without a slot gets (counting down).
    next_unstored: Cell<u32>,
}

impl Default for ArenaSink {
    fn default() -> Self {
        ArenaSink {
            nodes: RefCell::new(vec![Linked::new(Slot::Document)]),
            frozen: Cell::new(false),
            next_unstored: Cell::new(u32::MAX),
        }
    }
}

impl Linked {
    fn new(slot: Slot) -> Self {
        Linked {
            parent: None,
            first: None,
            last: None,
            prev: None,
            next: None,
            slot,
        }
    }
}

fn no_name() -> QualName {
    QualName::new(None, ns!(), local_name!(""))
}

impl ArenaSink {
    /// A new slot, or an id without one once the arena is full.
    fn push(&self, slot: Slot) -> u32 {
        let mut nodes = self.nodes.borrow_mut();
        if self.fills(&nodes) {
            let id = self.next_unstored.get();
            // Ids count down from the top; slots never reach them (the
            // arena holds MAX_NODES at most).
            self.next_unstored
                .set(id.saturating_sub(1).max(MAX_NODES as u32));
            return id;
        }
        nodes.push(Linked::new(slot));
        (nodes.len() - 1) as u32
    }

    /// Whether the arena (`nodes`, borrowed by the caller) is full: true
    /// from then on, and every edit is ignored (see the module header).
    fn fills(&self, nodes: &[Linked]) -> bool {
        if !self.frozen.get() && nodes.len() >= MAX_NODES {
            self.frozen.set(true);
        }
        self.frozen.get()
    }

    /// Whether the arena filled up (edits that add no node ask only this).
    fn full(&self) -> bool {
        self.frozen.get()
    }

    fn handle(&self, slot: Slot) -> Handle {
        let name = match &slot {
            Slot::Element { name, .. } => name.clone(),
            _ => no_name(),
        };
        Handle {
            id: self.push(slot),
            name,
        }
    }

    /// Unlink `id` from its parent and siblings.
    fn detach(nodes: &mut [Linked], id: u32) {
        let (parent, prev, next) = {
            let n = &nodes[id as usize];
            (n.parent, n.prev, n.next)
        };
        let Some(p) = parent else { return };
        match prev {
            Some(pv) => nodes[pv as usize].next = next,
            None => nodes[p as usize].first = next,
        }
        match next {
            Some(nx) => nodes[nx as usize].prev = prev,
            None => nodes[p as usize].last = prev,
        }
        let n = &mut nodes[id as usize];
        n.parent = None;
        n.prev = None;
        n.next = None;
    }

    /// Make `child` (detached first) the last child of `parent`.
    fn append_child(nodes: &mut [Linked], parent: u32, child: u32) {
        Self::detach(nodes, child);
        let last = nodes[parent as usize].last;
        {
            let c = &mut nodes[child as usize];
            c.parent = Some(parent);
            c.prev = last;
        }
        match last {
            Some(l) => nodes[l as usize].next = Some(child),
            None => nodes[parent as usize].first = Some(child),
        }
        nodes[parent as usize].last = Some(child);
    }

    /// Put `child` (detached first) right before `sibling`.
    fn insert_before(nodes: &mut [Linked], sibling: u32, child: u32) {
        Self::detach(nodes, child);
        let Some(parent) = nodes[sibling as usize].parent else {
            return;
        };
        let prev = nodes[sibling as usize].prev;
        {
            let c = &mut nodes[child as usize];
            c.parent = Some(parent);
            c.prev = prev;
            c.next = Some(sibling);
        }
        nodes[sibling as usize].prev = Some(child);
        match prev {
            Some(pv) => nodes[pv as usize].next = Some(child),
            None => nodes[parent as usize].first = Some(child),
        }
    }

    /// Put a node where `attach` says; text merges into `neighbour` (the
    /// node that would precede it) when that is a text.
    fn place(
        nodes: &mut Vec<Linked>,
        child: NodeOrText<Handle>,
        neighbour: Option<u32>,
        attach: impl FnOnce(&mut [Linked], u32),
    ) {
        match child {
            NodeOrText::AppendNode(n) => attach(nodes, n.id),
            NodeOrText::AppendText(text) => {
                if !Self::merge_text(nodes, neighbour, &text) {
                    nodes.push(Linked::new(Slot::Text(text)));
                    let id = (nodes.len() - 1) as u32;
                    attach(nodes, id);
                }
            }
        }
    }

    /// Append text to the text node `id` if it is one.
    fn merge_text(nodes: &mut [Linked], id: Option<u32>, text: &StrTendril) -> bool {
        match id.map(|i| &mut nodes[i as usize].slot) {
            Some(Slot::Text(t)) => {
                t.push_tendril(text);
                true
            }
            _ => false,
        }
    }
}

impl TreeSink for ArenaSink {
    type Handle = Handle;
    type Output = Document;
    type ElemName<'a> = ExpandedName<'a>;

    fn finish(self) -> Document {
        let mut doc = layout(self.nodes.into_inner());
        doc.truncated_at_nodes = self.frozen.get();
        doc
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        Handle {
            id: 0,
            name: no_name(),
        }
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> ExpandedName<'a> {
        target.name.expanded()
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _: ElementFlags) -> Handle {
        self.handle(Slot::Element { name, attrs })
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        self.handle(Slot::Other)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        self.handle(Slot::Other)
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        let mut nodes = self.nodes.borrow_mut();
        if self.fills(&nodes) {
            return;
        }
        let last = nodes[parent.id as usize].last;
        Self::place(&mut nodes, child, last, |n, c| {
            Self::append_child(n, parent.id, c)
        });
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        if self.full() {
            return;
        }
        let has_parent = self.nodes.borrow()[element.id as usize].parent.is_some();
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    /// The doctype is never page text: nothing to keep.
    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, _target: &Handle) -> Handle {
        // A detached fragment: what the template holds is never page text.
        self.handle(Slot::Other)
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Handle, child: NodeOrText<Handle>) {
        let mut nodes = self.nodes.borrow_mut();
        if self.fills(&nodes) {
            return;
        }
        let prev = nodes[sibling.id as usize].prev;
        Self::place(&mut nodes, child, prev, |n, c| {
            Self::insert_before(n, sibling.id, c)
        });
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        if self.full() {
            return;
        }
        let mut nodes = self.nodes.borrow_mut();
        if let Slot::Element { attrs: have, .. } = &mut nodes[target.id as usize].slot {
            for a in attrs {
                if !have.iter().any(|h| h.name == a.name) {
                    have.push(a);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &Handle) {
        if self.full() {
            return;
        }
        Self::detach(&mut self.nodes.borrow_mut(), target.id);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        if self.full() {
            return;
        }
        let mut nodes = self.nodes.borrow_mut();
        while let Some(c) = nodes[node.id as usize].first {
            Self::append_child(&mut nodes, new_parent.id, c);
        }
    }
}

/// The linked arena in preorder, with the rules of the module header of
/// [`super`]: skipped subtrees, leaves, the title, `<base href>`, `lang`.
fn layout(mut nodes: Vec<Linked>) -> Document {
    let mut doc = Document::default();
    doc.nodes.reserve(nodes.len());
    enum Step {
        Enter(u32, Option<NodeId>, u32),
        Exit(NodeId),
    }
    let mut stack = vec![Step::Enter(0, None, 0)];
    // Each slot is entered once at most in a tree; a cycle (which no
    // conforming tree builder makes) ends the walk instead of looping.
    let mut entries = 0usize;
    while let Some(step) = stack.pop() {
        let (slot_id, parent, depth) = match step {
            Step::Exit(id) => {
                doc.nodes[id as usize].end = doc.nodes.len() as NodeId;
                continue;
            }
            Step::Enter(s, p, d) => (s, p, d),
        };
        entries += 1;
        if entries > nodes.len() {
            break;
        }
        let id = doc.nodes.len() as NodeId;
        let slot = std::mem::replace(&mut nodes[slot_id as usize].slot, Slot::Other);
        let (data, descend) = match slot {
            Slot::Document => (NodeData::Document, true),
            Slot::Element { name, attrs } => {
                let name = Name::from_parsed(name.local);
                if SKIPPED_SUBTREES.contains(&name.as_str()) {
                    if name == "title" && doc.title.is_none() {
                        let t = collapse_whitespace(&subtree_text(&nodes, slot_id));
                        if !t.is_empty() {
                            doc.title = Some(t);
                        }
                    }
                    continue;
                }
                let element = element(&mut doc, name, attrs);
                let descend = !LEAF_ONLY.contains(&element.name.as_str());
                (NodeData::Element(element), descend)
            }
            Slot::Text(t) => {
                let text = String::from(t);
                let blank = text.trim().is_empty();
                (NodeData::Text { text, blank }, false)
            }
            Slot::Other => continue,
        };
        doc.nodes.push(Node {
            parent,
            end: id + 1,
            depth,
            data,
        });
        if descend && nodes[slot_id as usize].first.is_some() {
            stack.push(Step::Exit(id));
            let mut child = nodes[slot_id as usize].last;
            while let Some(c) = child {
                stack.push(Step::Enter(c, Some(id), depth + 1));
                child = nodes[c as usize].prev;
            }
        }
    }
    doc
}

/// An arena element; notes the page's `<base href>` and `<html lang>`.
fn element(doc: &mut Document, name: Name, attrs: Vec<Attribute>) -> Element {
    let attrs: Vec<(Name, String)> = attrs
        .into_iter()
        .map(|a| (Name::from_parsed(a.name.local), String::from(a.value)))
        .collect();
    let first = |key: &str| {
        attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.trim().to_string())
    };
    if name == "base" && doc.base_href.is_none() {
        doc.base_href = first("href");
    }
    if name == "html" && doc.lang.is_none() {
        doc.lang = first("lang");
    }
    Element { name, attrs }
}

/// All text under slot `id`, in order (a title's text).
fn subtree_text(nodes: &[Linked], id: u32) -> String {
    let mut out = String::new();
    let mut stack = vec![id];
    while let Some(n) = stack.pop() {
        if let Slot::Text(t) = &nodes[n as usize].slot {
            out.push_str(t);
        }
        let mut child = nodes[n as usize].last;
        while let Some(c) = child {
            stack.push(c);
            child = nodes[c as usize].prev;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Document, NodeData, from_kuchiki, parse};
    use kuchikikiki::traits::TendrilSink;

    /// The arena, node by node, with attributes sorted (the kuchikikiki
    /// tree kept them in a map).
    fn shape(doc: &Document) -> Vec<String> {
        let mut out = vec![format!(
            "title={:?} base={:?} lang={:?}",
            doc.title, doc.base_href, doc.lang
        )];
        for (i, n) in doc.nodes.iter().enumerate() {
            let data = match &n.data {
                NodeData::Document => "#document".to_string(),
                NodeData::Element(e) => {
                    let mut attrs = e.attrs.clone();
                    attrs.sort();
                    format!("<{} {:?}>", e.name, attrs)
                }
                NodeData::Text { text, blank } => format!("{text:?} blank={blank}"),
            };
            out.push(format!(
                "{i} parent={:?} end={} depth={} {data}",
                n.parent, n.end, n.depth
            ));
        }
        out
    }

    fn assert_same_as_kuchiki(name: &str, html: &str) {
        let ours = parse(html);
        let theirs = from_kuchiki(&kuchikikiki::parse_html().one(html));
        let (a, b) = (shape(&ours), shape(&theirs));
        let first_diff = a.iter().zip(&b).position(|(x, y)| x != y);
        assert!(
            a.len() == b.len() && first_diff.is_none(),
            "{name}: {} vs {} nodes; first difference at {first_diff:?}: {:?} vs {:?}",
            a.len(),
            b.len(),
            first_diff.and_then(|i| a.get(i)),
            first_diff.and_then(|i| b.get(i)),
        );
    }

    /// Markup that makes the tree builder move nodes: misnested
    /// formatting (adoption agency), table foster parenting, duplicate
    /// `html`/`body` attributes, text merged around moved nodes, raw-text
    /// elements, templates, foreign content, a title with entities.
    #[test]
    fn tree_builder_edits_give_the_same_arena_as_the_kuchikikiki_path() {
        let cases = [
            (
                "misnested",
                "<p><b>bold <i>both</b> italic</i> plain</p><a href=x>one<a href=y>two</a>",
            ),
            (
                "adoption",
                "<div><a href=/a><div>block in link</div>tail</a></div><b><p>para</b>after</p>",
            ),
            (
                "foster",
                "<table><tr><td>cell</td></tr>stray text<b>bold</b><tr><td>2</td></table>",
            ),
            (
                "duplicates",
                "<html lang=en><body class=a><html lang=de data-x=1><body id=b class=c><p>t</p>",
            ),
            (
                "raw",
                "<title>A &amp; B</title><noscript><p>no</p></noscript><script>if(a<b){}</script><style>p{}</style>x",
            ),
            (
                "template",
                "<template><li>hidden</li></template><ul><li>one<li>two</ul>",
            ),
            (
                "foreign",
                "<p>t<svg><g><text>drawn</text></g></svg><math><mi>x</mi></math>after</p>",
            ),
            (
                "base",
                "<head><base href='/blog/'><base href='/other/'></head><body><a href=p>p</a>",
            ),
            (
                "select",
                "<select><option>a<option>b</select><form><input name=q></form>",
            ),
            ("text", "a<!-- c -->b<?pi x?>c &lt;d&gt;   <p>\n  </p>e"),
            // The pre-pass empties script, style and noscript bodies: the
            // arena must not tell (double-escaped scripts and scripts in
            // svg are left whole).
            (
                "emptied",
                "<p>a<script type=application/ld+json>{\"x\":\"</p>\"}</script>b<STYLE>p{}</Style>\
                 <script>document.write('<div>')</script>c</p><svg><script><p>out</p></script></svg>\
                 <script><!--<script>x</script>--></script>tail<noscript><img src=a></noscript>\
                 <script>unterminated <b>",
            ),
        ];
        for (name, html) in cases {
            assert_same_as_kuchiki(name, html);
        }
    }

    /// Every list fixture of the test suite parses to the same arena.
    #[test]
    fn every_list_fixture_gives_the_same_arena_as_the_kuchikikiki_path() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lists");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).expect("fixtures directory") {
            let path = entry.expect("directory entry").path();
            if path.extension().is_some_and(|e| e == "html") {
                let bytes = std::fs::read(&path).expect("fixture");
                let html = crate::fetch::decode::decode(&bytes, None, None)
                    .expect("fixture decodes")
                    .text;
                assert_same_as_kuchiki(&path.display().to_string(), &html);
                seen += 1;
            }
        }
        assert!(
            seen >= 20,
            "only {seen} fixtures found in {}",
            dir.display()
        );
    }

    /// Regression: the parser makes a `p` for every stray `</p>`, which
    /// the start-tag budget does not count: a 10 MB page of them made 2.5
    /// million elements and took 710 MB. The arena stops at the node
    /// budget and keeps the page's first part, consistent.
    #[test]
    fn stray_end_tags_make_no_more_nodes_than_the_budget() {
        use super::super::budget::MAX_NODES;
        let items: String = (0..20)
            .map(|i| format!("<li><a href=\"/story/{i}\">Story number {i}</a></li>"))
            .collect();
        let html = format!(
            "<html><body><ul>{items}</ul><div>{}</div><p>Written after the flood</p></body></html>",
            "</p>".repeat(MAX_NODES)
        );
        let doc = parse(&html);
        assert!(doc.truncated_at_nodes);
        assert!(doc.nodes.len() <= MAX_NODES, "{}", doc.nodes.len());
        let links = doc
            .nodes
            .iter()
            .filter(|n| matches!(&n.data, NodeData::Element(e) if e.name == "a"))
            .count();
        assert_eq!(links, 20);
        assert!(!doc.text(0).contains("Written after the flood"));
        // Every node's subtree stays within the arena.
        assert!(doc.nodes.iter().all(|n| n.end as usize <= doc.nodes.len()));
    }

    /// A page at the start-tag budget (one text per element) is not cut by
    /// the node budget.
    #[test]
    fn a_page_at_the_start_tag_budget_is_within_the_node_budget() {
        use super::super::budget::MAX_ELEMENTS;
        let html = "<p>a\n".repeat(MAX_ELEMENTS - 10);
        let doc = parse(&html);
        assert!(!doc.truncated_at_nodes);
        assert!(!doc.truncated_at_budget);
    }
}
