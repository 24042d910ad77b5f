//! The CSS selector engine: the `selectors` crate's matcher (the one
//! Firefox's and Servo's style engines use) run directly on the page arena,
//! with no second tree.
//!
//! [`CssDoc`] borrows the [`Document`] and adds three indexes of 4 bytes
//! per node (previous and next element sibling, first element child), so
//! that every step the matcher takes (parent, sibling, first child) is O(1)
//! in the arena: `:nth-child`, `+` and `~` do not turn quadratic on a
//! parent of 100,000 children. An [`ArenaElement`] is a `Copy` handle, the
//! `CssDoc` and a [`NodeId`].
//!
//! Syntax and semantics are those of kuchikikiki 0.13 (its `select.rs`),
//! whose `Rc` tree the arena was mirrored as before (which doubled a page's
//! memory): the same pseudo-classes (`:link` and `:any-link`; `:visited`,
//! `:active`, `:focus`, `:hover`, `:enabled`, `:disabled`, `:checked` and
//! `:indeterminate`, which never match), the same pseudo-elements
//! (`::first-child`, `::last-child`), and no `:is`, `:where`, `:has`,
//! `:nth-child(.. of S)` or namespace prefixes.
//!
//! Invariants:
//! - Every element is an HTML element, and names are lower case (the
//!   arena's), so type and attribute selectors match whatever case the
//!   selector wrote them in.
//! - An attribute is its first occurrence by name, as
//!   [`Element::attr`](crate::extract::dom::Element::attr) reads it (the
//!   arena keeps no attribute namespaces).
//! - Class and id selectors split the attribute on CSS whitespace (space,
//!   tab, LF, CR, FF); `:empty` is false with any element child or any
//!   non-empty text child (whitespace counts); `:root` is the element whose
//!   parent is the document.
//! - `:nth-*` indexes are cached for the life of a `CssDoc`: sound because
//!   the borrowed document cannot change and no `:nth-child(.. of S)` (whose
//!   cache is keyed by a selector's address) is parsed. The cache holds at
//!   most an entry per element and kind of `:nth-*`.
//! - Nothing here does I/O or panics on a page or a selector.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::ops::Range;

use cssparser::{CowRcStr, ParseError, ToCss};
use html5ever::{LocalName, Namespace, ns};
use precomputed_hash::PrecomputedHash;
use selectors::attr::{AttrSelectorOperation, CaseSensitivity, NamespaceConstraint};
use selectors::bloom::BloomFilter;
use selectors::context::{
    MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags, QuirksMode,
    SelectorCaches,
};
use selectors::matching::{ElementSelectorFlags, matches_selector_list};
use selectors::parser::{ParseRelative, SelectorImpl, SelectorParseErrorKind};
use selectors::{OpaqueElement, SelectorList};

use super::SelectorError;
use crate::extract::dom::{Document, Element, NodeData, NodeId};

/// Whitespace per CSS Selectors Level 3 § 4 (what separates classes).
const SELECTOR_WHITESPACE: &[char] = &[' ', '\t', '\n', '\r', '\x0C'];

/// Moves (to a parent, a sibling or a child) one match call may make per
/// element it is asked about: a selector walks up to its ancestors (256 at
/// most, the depth cap) and across siblings, but `p ~ li` on a list of
/// 50,000 items where no `p` stands walks every earlier sibling of every
/// item (12 s). Past the budget the walk stops there (the element does not
/// match) and [`CssDoc::out_of_steps`] says so.
pub const MAX_STEPS_PER_ELEMENT: u64 = 512;

/// Moves any one match call may make at least.
const MIN_STEPS_PER_CALL: u64 = 100_000;

/// "No such node" in the indexes.
const NONE: u32 = u32::MAX;

/// The types the `selectors` crate parses into and matches with.
#[derive(Debug, Clone)]
pub struct ArenaSelectors;

impl SelectorImpl for ArenaSelectors {
    type ExtraMatchingData<'a> = ();
    type AttrValue = CssAttrValue;
    type Identifier = CssLocalName;
    type LocalName = CssLocalName;
    type NamespacePrefix = CssLocalName;
    type NamespaceUrl = Namespace;
    type BorrowedNamespaceUrl = Namespace;
    type BorrowedLocalName = LocalName;
    type NonTSPseudoClass = PseudoClass;
    type PseudoElement = PseudoElement;
}

/// An attribute value in a selector (`[a=value]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CssAttrValue(String);

impl ToCss for CssAttrValue {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        cssparser::serialize_string(&self.0, dest)
    }
}

impl From<&str> for CssAttrValue {
    fn from(value: &str) -> Self {
        CssAttrValue(value.to_string())
    }
}

impl AsRef<str> for CssAttrValue {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// A name in a selector (tag, attribute, class, id): the parser's interned
/// atom, so a tag or attribute name compares with the arena's by pointer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CssLocalName(LocalName);

impl ToCss for CssLocalName {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        cssparser::serialize_identifier(&self.0, dest)
    }
}

impl PrecomputedHash for CssLocalName {
    /// The atom's own hash (only the selectors bloom filter reads it, and
    /// matching here uses none).
    fn precomputed_hash(&self) -> u32 {
        self.0.precomputed_hash()
    }
}

impl From<&str> for CssLocalName {
    fn from(s: &str) -> Self {
        CssLocalName(LocalName::from(s))
    }
}

impl std::borrow::Borrow<LocalName> for CssLocalName {
    fn borrow(&self) -> &LocalName {
        &self.0
    }
}

/// The non-structural pseudo-classes kuchikikiki parses.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PseudoClass {
    AnyLink,
    Link,
    Visited,
    Active,
    Focus,
    Hover,
    Enabled,
    Disabled,
    Checked,
    Indeterminate,
}

impl PseudoClass {
    /// Every pseudo-class parsed.
    const ALL: [PseudoClass; 10] = [
        PseudoClass::AnyLink,
        PseudoClass::Link,
        PseudoClass::Visited,
        PseudoClass::Active,
        PseudoClass::Focus,
        PseudoClass::Hover,
        PseudoClass::Enabled,
        PseudoClass::Disabled,
        PseudoClass::Checked,
        PseudoClass::Indeterminate,
    ];

    fn named(name: &str) -> Option<PseudoClass> {
        Self::ALL
            .into_iter()
            .find(|p| name.eq_ignore_ascii_case(p.name()))
    }

    fn name(&self) -> &'static str {
        use PseudoClass::*;
        match self {
            AnyLink => "any-link",
            Link => "link",
            Visited => "visited",
            Active => "active",
            Focus => "focus",
            Hover => "hover",
            Enabled => "enabled",
            Disabled => "disabled",
            Checked => "checked",
            Indeterminate => "indeterminate",
        }
    }
}

impl selectors::parser::NonTSPseudoClass for PseudoClass {
    fn is_active_or_hover(&self) -> bool {
        matches!(self, PseudoClass::Active | PseudoClass::Hover)
    }

    fn is_user_action_state(&self) -> bool {
        matches!(
            self,
            PseudoClass::Active | PseudoClass::Hover | PseudoClass::Focus
        )
    }
}

impl ToCss for PseudoClass {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        dest.write_char(':')?;
        dest.write_str(self.name())
    }
}

/// The pseudo-elements kuchikikiki parses: `::first-child` and
/// `::last-child` (the first and last child node of the parent, text
/// included).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PseudoElement {
    FirstChild,
    LastChild,
}

impl ToCss for PseudoElement {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        dest.write_str(match self {
            PseudoElement::FirstChild => "::first-child",
            PseudoElement::LastChild => "::last-child",
        })
    }
}

impl selectors::parser::PseudoElement for PseudoElement {
    fn parses_as_element_backed(&self) -> bool {
        true
    }
}

/// The parser: kuchikikiki's, with the `selectors` crate's defaults for
/// everything else (so no `:is`, `:where`, `:has`, `:nth-child(.. of S)`).
struct ArenaParser;

impl<'i> selectors::Parser<'i> for ArenaParser {
    type Impl = ArenaSelectors;
    type Error = SelectorParseErrorKind;

    fn parse_non_ts_pseudo_class(
        &self,
        name: CowRcStr<'i>,
    ) -> Result<PseudoClass, ParseError<Self::Error>> {
        PseudoClass::named(&name).ok_or_else(|| {
            ParseError::custom(SelectorParseErrorKind::UnsupportedPseudoClassOrElement)
        })
    }

    fn parse_pseudo_element(
        &self,
        name: CowRcStr<'i>,
    ) -> Result<PseudoElement, ParseError<Self::Error>> {
        if name.eq_ignore_ascii_case("first-child") {
            Ok(PseudoElement::FirstChild)
        } else if name.eq_ignore_ascii_case("last-child") {
            Ok(PseudoElement::LastChild)
        } else {
            Err(ParseError::custom(
                SelectorParseErrorKind::UnsupportedPseudoClassOrElement,
            ))
        }
    }
}

/// A compiled CSS selector list.
#[derive(Clone)]
pub struct Selectors(SelectorList<ArenaSelectors>);

impl Selectors {
    /// Parse a selector list (no length check: see [`super::compile`]).
    pub fn parse(css: &str) -> Result<Selectors, SelectorError> {
        SelectorList::parse(
            &ArenaParser,
            &mut cssparser::Parser::new(css),
            ParseRelative::No,
        )
        .map(Selectors)
        .map_err(|_| SelectorError::Syntax(css.to_string()))
    }
}

impl fmt::Display for Selectors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.to_css(f)
    }
}

impl fmt::Debug for Selectors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Selectors({self})")
    }
}

/// A page ready for selector matching: the arena plus its element sibling
/// and child indexes.
pub struct CssDoc<'a> {
    doc: &'a Document,
    /// Previous element sibling of each node (`NONE` if none).
    prev: Vec<u32>,
    /// Next element sibling of each node.
    next: Vec<u32>,
    /// First element child of each node.
    first_child: Vec<u32>,
    /// `:nth-*` indexes found so far (see the module's invariants).
    caches: RefCell<SelectorCaches>,
    /// Moves left in the current match call (see [`MAX_STEPS_PER_ELEMENT`]).
    steps_left: Cell<u64>,
    /// Some match call ran out of moves.
    out_of_steps: Cell<bool>,
}

impl<'a> CssDoc<'a> {
    /// Index `doc` (one pass, linear in its size).
    pub fn new(doc: &'a Document) -> CssDoc<'a> {
        let n = doc.nodes.len();
        let mut prev = vec![NONE; n];
        let mut next = vec![NONE; n];
        let mut first_child = vec![NONE; n];
        // The open ancestors of the node at hand, each with its last
        // element child so far (preorder: a node's parent is on the stack).
        let mut open: Vec<(u32, u32)> = Vec::new();
        for (i, node) in doc.nodes.iter().enumerate() {
            let id = i as u32;
            while open.last().is_some_and(|&(o, _)| Some(o) != node.parent) {
                open.pop();
            }
            match node.data {
                NodeData::Text { .. } => continue,
                NodeData::Document => {}
                NodeData::Element(_) => {
                    if let Some((parent, last)) = open.last_mut() {
                        match *last {
                            NONE => first_child[*parent as usize] = id,
                            before => {
                                next[before as usize] = id;
                                prev[i] = before;
                            }
                        }
                        *last = id;
                    }
                }
            }
            open.push((id, NONE));
        }
        CssDoc {
            doc,
            prev,
            next,
            first_child,
            caches: RefCell::new(SelectorCaches::default()),
            steps_left: Cell::new(0),
            out_of_steps: Cell::new(false),
        }
    }

    /// Whether some match on this page ran out of its work budget
    /// ([`MAX_STEPS_PER_ELEMENT`]): matches may then be missing.
    pub fn out_of_steps(&self) -> bool {
        self.out_of_steps.get()
    }

    /// Give the match call about to run its budget, for `elements` asked.
    fn budget(&self, elements: u64) {
        self.steps_left.set(
            elements
                .saturating_mul(MAX_STEPS_PER_ELEMENT)
                .max(MIN_STEPS_PER_CALL),
        );
    }

    /// Take one move from the budget: false when none is left.
    fn step(&self) -> bool {
        match self.steps_left.get() {
            0 => {
                self.out_of_steps.set(true);
                false
            }
            n => {
                self.steps_left.set(n - 1);
                true
            }
        }
    }

    /// The element `id`, as the matcher sees it (`None` for text, the
    /// document node, `NONE` and ids past the end).
    fn element<'s>(&'s self, id: u32) -> Option<ArenaElement<'s>> {
        match &self.doc.nodes.get(id as usize)?.data {
            NodeData::Element(element) => Some(ArenaElement {
                css: self,
                id,
                element,
            }),
            _ => None,
        }
    }

    /// Elements with ids in `range` matching `sel`, in document order.
    pub fn matches(&self, sel: &Selectors, range: Range<NodeId>) -> Vec<NodeId> {
        let mut caches = self.caches.borrow_mut();
        let end = range.end.min(self.doc.nodes.len() as NodeId);
        self.budget(u64::from(end.saturating_sub(range.start)));
        (range.start.min(end)..end)
            .filter(|&id| {
                self.element(id)
                    .is_some_and(|e| e.matches(sel, &mut caches))
            })
            .collect()
    }

    /// Does the element `id` match `sel`?
    pub fn is_match(&self, sel: &Selectors, id: NodeId) -> bool {
        self.budget(1);
        self.element(id)
            .is_some_and(|e| e.matches(sel, &mut self.caches.borrow_mut()))
    }
}

/// One element of a [`CssDoc`], for the matcher.
#[derive(Clone, Copy)]
pub struct ArenaElement<'a> {
    css: &'a CssDoc<'a>,
    id: NodeId,
    element: &'a Element,
}

impl fmt::Debug for ArenaElement<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}> #{}", self.element.name, self.id)
    }
}

impl<'a> ArenaElement<'a> {
    fn matches(&self, sel: &Selectors, caches: &mut SelectorCaches) -> bool {
        let mut context = MatchingContext::new(
            MatchingMode::Normal,
            None,
            caches,
            QuirksMode::NoQuirks,
            NeedsSelectorFlags::No,
            MatchingForInvalidation::No,
        );
        matches_selector_list(&sel.0, self, &mut context)
    }

    fn doc(&self) -> &'a Document {
        self.css.doc
    }

    fn parent(&self) -> Option<NodeId> {
        self.doc().nodes.get(self.id as usize)?.parent
    }

    /// The first value of the attribute `name`.
    fn attr(&self, name: &LocalName) -> Option<&'a str> {
        self.element
            .attrs
            .iter()
            .find(|(k, _)| k.local_name() == name)
            .map(|(_, v)| v.as_str())
    }

    /// `a`, `area` or `link` with an `href`.
    fn is_html_link(&self) -> bool {
        matches!(self.element.name.as_str(), "a" | "area" | "link")
            && self.element.attr("href").is_some()
    }

    fn index(&self, of: &[u32]) -> Option<Self> {
        let at = *of.get(self.id as usize)?;
        if at == NONE || !self.css.step() {
            return None;
        }
        self.css.element(at)
    }
}

impl selectors::Element for ArenaElement<'_> {
    type Impl = ArenaSelectors;

    fn opaque(&self) -> OpaqueElement {
        OpaqueElement::new(self.element)
    }

    fn parent_element(&self) -> Option<Self> {
        let parent = self.parent()?;
        if !self.css.step() {
            return None;
        }
        self.css.element(parent)
    }

    fn parent_node_is_shadow_root(&self) -> bool {
        false
    }

    fn containing_shadow_host(&self) -> Option<Self> {
        None
    }

    fn is_pseudo_element(&self) -> bool {
        false
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        self.index(&self.css.prev)
    }

    fn next_sibling_element(&self) -> Option<Self> {
        self.index(&self.css.next)
    }

    fn first_element_child(&self) -> Option<Self> {
        self.index(&self.css.first_child)
    }

    fn is_html_element_in_html_document(&self) -> bool {
        true
    }

    fn has_local_name(&self, name: &LocalName) -> bool {
        self.element.name.local_name() == name
    }

    fn has_namespace(&self, ns: &Namespace) -> bool {
        *ns == ns!(html)
    }

    fn is_same_type(&self, other: &Self) -> bool {
        self.element.name == other.element.name
    }

    fn attr_matches(
        &self,
        ns: &NamespaceConstraint<&Namespace>,
        local_name: &CssLocalName,
        operation: &AttrSelectorOperation<&CssAttrValue>,
    ) -> bool {
        // Attributes are in no namespace.
        let in_ns = match ns {
            NamespaceConstraint::Any => true,
            NamespaceConstraint::Specific(url) => **url == ns!(),
        };
        in_ns
            && self
                .attr(&local_name.0)
                .is_some_and(|v| operation.eval_str(v))
    }

    fn match_non_ts_pseudo_class(
        &self,
        pseudo: &PseudoClass,
        _: &mut MatchingContext<ArenaSelectors>,
    ) -> bool {
        match pseudo {
            PseudoClass::AnyLink | PseudoClass::Link => self.is_html_link(),
            _ => false,
        }
    }

    fn match_pseudo_element(
        &self,
        pseudo: &PseudoElement,
        _: &mut MatchingContext<ArenaSelectors>,
    ) -> bool {
        let nodes = &self.doc().nodes;
        let Some(parent) = self.parent() else {
            return false;
        };
        match pseudo {
            // Preorder: a parent's first child node comes right after it.
            PseudoElement::FirstChild => parent + 1 == self.id,
            // The last child ends where its parent does.
            PseudoElement::LastChild => nodes
                .get(self.id as usize)
                .zip(nodes.get(parent as usize))
                .is_some_and(|(n, p)| n.end == p.end),
        }
    }

    fn apply_selector_flags(&self, _: ElementSelectorFlags) {}

    fn is_link(&self) -> bool {
        self.is_html_link()
    }

    fn is_html_slot_element(&self) -> bool {
        false
    }

    fn has_id(&self, id: &CssLocalName, case_sensitivity: CaseSensitivity) -> bool {
        self.element
            .attr("id")
            .is_some_and(|v| case_sensitivity.eq(id.0.as_bytes(), v.as_bytes()))
    }

    fn has_class(&self, name: &CssLocalName, case_sensitivity: CaseSensitivity) -> bool {
        let name = name.0.as_bytes();
        !name.is_empty()
            && self.element.attr("class").is_some_and(|classes| {
                classes
                    .split(SELECTOR_WHITESPACE)
                    .any(|c| case_sensitivity.eq(c.as_bytes(), name))
            })
    }

    fn has_custom_state(&self, _: &CssLocalName) -> bool {
        false
    }

    fn imported_part(&self, _: &CssLocalName) -> Option<CssLocalName> {
        None
    }

    fn is_part(&self, _: &CssLocalName) -> bool {
        false
    }

    fn is_empty(&self) -> bool {
        if self.first_element_child().is_some() {
            return false;
        }
        let nodes = &self.doc().nodes;
        let Some(end) = nodes.get(self.id as usize).map(|n| n.end) else {
            return true;
        };
        // No element children: the children are text leaves, one by one.
        nodes
            .get(self.id as usize + 1..end as usize)
            .unwrap_or_default()
            .iter()
            .all(|n| match &n.data {
                NodeData::Text { text, .. } => text.is_empty(),
                _ => true,
            })
    }

    fn is_root(&self) -> bool {
        self.parent()
            .and_then(|p| self.doc().nodes.get(p as usize))
            .is_some_and(|p| matches!(p.data, NodeData::Document))
    }

    fn add_element_unique_hashes(&self, _: &mut BloomFilter) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;
    use html5ever::QualName;
    use kuchikikiki::{Attribute, ElementData, ExpandedName, NodeDataRef, NodeRef};

    /// The arena mirrored as a kuchikikiki tree (elements and text, same
    /// preorder): how selectors were matched before this engine, kept as
    /// its reference. The tree lives as long as the returned root.
    fn mirror(doc: &Document) -> (NodeRef, Vec<Option<NodeDataRef<ElementData>>>) {
        let mut refs: Vec<NodeRef> = Vec::with_capacity(doc.nodes.len());
        let mut elements = Vec::with_capacity(doc.nodes.len());
        for node in &doc.nodes {
            let r = match &node.data {
                NodeData::Document => NodeRef::new_document(),
                NodeData::Text { text, .. } => NodeRef::new_text(text.clone()),
                NodeData::Element(e) => NodeRef::new_element(
                    QualName::new(None, ns!(html), e.name.local_name().clone()),
                    e.attrs.iter().map(|(k, v)| {
                        (
                            ExpandedName::new(ns!(), k.local_name().clone()),
                            Attribute {
                                prefix: None,
                                value: v.clone(),
                            },
                        )
                    }),
                ),
            };
            if let Some(p) = node.parent {
                refs[p as usize].append(r.clone());
            }
            elements.push(r.clone().into_element_ref());
            refs.push(r);
        }
        (refs[0].clone(), elements)
    }

    /// A page with a bit of everything the selectors below look at.
    const PAGE: &str = r#"<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="/s.css"><link rel="icon"></head>
<body class="home  page" id="top">
<header><nav><ul class="menu main-menu"><li class="menu-item current"><a href="/">Home</a></li>
<li class="menu-item"><a href="/blog/">Blog</a></li><li class="menu-item"><a>Nowhere</a></li>
<li class="menu-item"> </li><li class="menu-item"></li></ul></nav></header>
<main id="content" data-role="main">
<section class="posts list" lang="en-GB">
<article class="post hentry" id="post-1" data-kind="news article"><h2 class="entry-title"><a href="https://ex.example/p/1" rel="bookmark">First post</a></h2>
<time datetime="2024-05-01T08:00:00Z">May 1</time><p class="summary">Words <em>here</em>.</p><span class="tag">a</span><span class="tag">b</span></article>
<article class="post hentry featured" id="post-2" data-kind="NEWS"><h2 class="entry-title"><a href="/p/2">Second post</a></h2>
<time datetime="2024-05-02">May 2</time><p class="summary"></p><span class="tag"></span></article>
<article class="post" id="post-3" data-kind="news-flash"><h2><a href="/p/3" title="Third">Third post</a></h2><p>x</p><img src="/i/3.jpg" alt=""></article>
<div class="ad"><img src="/ad.gif"><area href="/map"></div>
<article class="post hentry" id="post-4" data-kind="blog"><h3 class="entry-title"><a href="/p/4">Fourth post</a></h3><p class="summary">Last one</p></article>
</section>
<table id="t"><thead><tr><th>Name</th><th>Size</th></tr></thead>
<tbody class="meta"><tr><th colspan="2">Group</th></tr></tbody>
<tbody><tr><td><a href="/f/1">one</a></td><td>1 MB</td></tr><tr><td><a href="/f/2">two</a></td><td>2 MB</td></tr>
<tr><td><a href="/f/3">three</a></td><td></td></tr></tbody></table>
<dl class="archive"><dt>2024</dt><dd><a href="/2024">12 posts</a></dd><dt>2023</dt><dd>none</dd></dl>
<svg class="icon" viewBox="0 0 1 1"><path d="M0"></path></svg>
<form><input type="checkbox" checked><input type="TEXT" disabled><button>Go</button></form>
</main><footer><p>© 2024</p><p></p></footer></body></html>"#;

    /// Selectors that match something on [`PAGE`].
    const HITTING: &[&str] = &[
        "a",
        "A",
        "li",
        "*",
        ".post",
        "article.post.hentry",
        "#post-2",
        "#content article",
        "[href]",
        "[data-kind]",
        "[data-kind='NEWS']",
        "[data-kind=news i]",
        "[data-kind=NEWS]",
        "[data-kind$=WS]",
        "[data-kind~=article]",
        "[data-kind|=news]",
        "[data-kind^=ne]",
        "[data-kind*=ew]",
        "[DATA-KIND]",
        "[type=text]",
        "[lang|=en]",
        "[class~=menu-item]",
        "[href^='https://']",
        "[href$='.css']",
        "[alt='']",
        "main article",
        "section > article > h2 > a",
        "h2 + time",
        "h2 ~ span",
        "time ~ *",
        "article + div",
        "tr + tr",
        "li:nth-child(2n+1)",
        "li:nth-child(odd)",
        "li:nth-child(even)",
        "li:nth-child(3)",
        "li:nth-last-child(2)",
        "article:nth-of-type(2)",
        "span:nth-last-of-type(1)",
        "span:first-of-type",
        "span:last-of-type",
        "p:only-of-type",
        "li:first-child",
        "li:last-child",
        "article > :first-child",
        "td:last-child",
        "article:not(.hentry)",
        "tbody:not(.meta) > tr",
        "li:not(:first-child):not(:last-child)",
        ":not(a)",
        "li:empty",
        "p:empty",
        "span:empty",
        "td:empty",
        ":root",
        "html:root",
        ":link",
        ":any-link",
        "a:link",
        "area:link",
        "link:any-link",
        "svg",
        "svg.icon",
        "dt + dd",
        "dl > dd:nth-of-type(2)",
        ".menu > li.current ~ li",
        "body.page",
        "ul.main-menu li a",
        "h2 a, h3 a",
        "input[checked]",
        "div.ad > area",
    ];

    /// Selectors that may match nothing (never-matching pseudo-classes,
    /// pseudo-elements, elements the arena drops).
    const OTHERS: &[&str] = &[
        "a:visited",
        "a:hover",
        "a:active",
        "a:focus",
        "input:enabled",
        "input:disabled",
        "input:checked",
        "input:indeterminate",
        "li::first-child",
        "li::last-child",
        "script",
        "path",
        "title",
        "*|a",
        "|a",
        "[|href]",
        "[*|href]",
        "html > head + body",
        "p:only-child",
        "li:nth-child(-n+2)",
        "li:nth-last-of-type(n+4)",
        "tr:nth-child(10)",
        "#missing",
        ".missing",
        "[data-kind=news s]",
        "a[href=''], b",
        ".POST",
        "[data-kind=news]",
        "[data-kind$=ws]",
        "img:only-child",
    ];

    /// Rejected by both engines.
    const REJECTED: &[&str] = &[
        "a:is(.x)",
        "a:where(.x)",
        "article:has(time)",
        "li:nth-child(2 of .x)",
        "::before",
        "a::after",
        "svg|a",
        "a:first-line",
        "div ]",
        "div..x",
        "",
        ":host",
        "::slotted(a)",
        "::part(x)",
        "& a",
        "a:unknown",
    ];

    /// The element ids kuchikikiki's engine matches on the mirror.
    fn reference(
        elements: &[Option<NodeDataRef<ElementData>>],
        sel: &kuchikikiki::Selectors,
    ) -> Vec<NodeId> {
        elements
            .iter()
            .enumerate()
            .filter(|(_, e)| e.as_ref().is_some_and(|e| sel.matches(e)))
            .map(|(i, _)| i as NodeId)
            .collect()
    }

    /// Every selector matches the same elements as on the mirror; the
    /// selectors that matched nothing are returned.
    fn assert_agrees<'s>(name: &str, doc: &Document, selectors: &[&'s str]) -> Vec<&'s str> {
        let css = CssDoc::new(doc);
        let (_root, elements) = mirror(doc);
        let mut empty = Vec::new();
        for &s in selectors {
            let ours = Selectors::parse(s).unwrap_or_else(|e| panic!("{name}: {s}: {e}"));
            let theirs = kuchikikiki::Selectors::compile(s)
                .unwrap_or_else(|()| panic!("{name}: kuchikikiki rejects {s}"));
            let want = reference(&elements, &theirs);
            let got = css.matches(&ours, 0..doc.nodes.len() as NodeId);
            assert_eq!(got, want, "{name}: `{s}`");
            for &id in want.iter().take(3) {
                assert!(css.is_match(&ours, id), "{name}: `{s}` on {id}");
            }
            if got.is_empty() {
                empty.push(s);
            }
        }
        empty
    }

    #[test]
    fn matches_what_kuchikikiki_matches_on_its_mirror() {
        let doc = parse(PAGE);
        let empty = assert_agrees("page", &doc, HITTING);
        assert!(empty.is_empty(), "match nothing: {empty:?}");
        assert_agrees("page", &doc, OTHERS);
        for s in REJECTED {
            assert!(Selectors::parse(s).is_err(), "`{s}` parses");
            assert!(
                kuchikikiki::Selectors::compile(s).is_err(),
                "kuchikikiki parses `{s}`"
            );
        }
    }

    /// The same on real pages of the test suite (several shapes: cards,
    /// a table, forum posts, a ranking in Japanese).
    #[test]
    fn matches_what_kuchikikiki_matches_on_fixtures() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lists");
        for name in [
            "drupal_views_news",
            "court_judgments_table",
            "discourse_latest",
            "rakuten_style_ranking_jp",
            "xenforo_thread_posts",
        ] {
            let bytes = std::fs::read(dir.join(format!("{name}.html"))).expect("fixture");
            let html = crate::fetch::decode::decode(&bytes, None, None)
                .expect("fixture decodes")
                .text;
            let doc = parse(&html);
            assert_agrees(name, &doc, HITTING);
            assert_agrees(name, &doc, OTHERS);
            assert_agrees(
                name,
                &doc,
                &[
                    "div > div",
                    "div div a",
                    "div + div",
                    "div ~ p",
                    "a[href*='/']",
                    "[class]:nth-child(3n)",
                    "div:not([class])",
                    "td:nth-last-child(odd)",
                    ":empty",
                    "ul > li:nth-of-type(2n) > a",
                ],
            );
        }
    }

    /// A page of one list of `n` items.
    fn list_of(n: usize) -> Document {
        parse(&format!(
            "<html><body><ul>{}</ul></body></html>",
            "<li>x</li>\n".repeat(n)
        ))
    }

    /// How many elements of `doc` the selector `s` matches.
    fn matched(css: &CssDoc<'_>, doc: &Document, s: &str) -> usize {
        let sel = Selectors::parse(s).expect("selector");
        css.matches(&sel, 0..doc.nodes.len() as NodeId).len()
    }

    /// Sibling steps are O(1): on a list of 50,000 items, positional and
    /// sibling selectors stay linear (a quadratic engine would take
    /// minutes here).
    #[test]
    fn positional_and_sibling_selectors_on_a_long_list() {
        const N: usize = 50_000;
        let doc = list_of(N);
        let css = CssDoc::new(&doc);
        let count = |s: &str| matched(&css, &doc, s);
        assert_eq!(count("li"), N);
        assert_eq!(count("ul > li:nth-child(2n+1)"), N / 2);
        assert_eq!(count("li + li"), N - 1);
        assert_eq!(count("li ~ li"), N - 1);
        assert_eq!(count("li:nth-last-child(3)"), 1);
        assert_eq!(count("li:nth-of-type(7)"), 1);
        assert_eq!(count("li:last-child"), 1);
        assert!(!css.out_of_steps());
    }

    /// Regression: `p ~ li` on a list of 50,000 items with no `p` walked
    /// every earlier sibling of every item, 1.25 billion moves (12 s).
    /// The work budget stops each walk and says so; a selector that
    /// matches near its element is not stopped.
    #[test]
    fn a_sibling_walk_over_a_long_list_stops_at_its_budget() {
        // 5,000 items need 12.5 million moves, five times the budget.
        const N: usize = 5_000;
        let doc = list_of(N);
        let css = CssDoc::new(&doc);
        assert_eq!(matched(&css, &doc, "li + li"), N - 1);
        assert!(!css.out_of_steps());
        assert_eq!(matched(&css, &doc, "p ~ li"), 0);
        assert!(css.out_of_steps());
    }

    #[test]
    fn indexes_link_element_siblings_across_text() {
        let doc = parse("<html><body><p>a<b>1</b> <i>2</i>c<u>3</u></p></body></html>");
        let css = CssDoc::new(&doc);
        let id = |tag: &str| {
            (0..doc.nodes.len() as NodeId)
                .find(|&i| doc.tag(i) == Some(tag))
                .expect("tag")
        };
        let (p, b, i, u) = (id("p"), id("b"), id("i"), id("u"));
        assert_eq!(css.first_child[p as usize], b);
        assert_eq!(css.next[b as usize], i);
        assert_eq!(css.next[i as usize], u);
        assert_eq!(css.next[u as usize], NONE);
        assert_eq!(css.prev[u as usize], i);
        assert_eq!(css.prev[b as usize], NONE);
        assert_eq!(css.first_child[b as usize], NONE);
    }
}
