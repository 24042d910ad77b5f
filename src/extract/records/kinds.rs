//! Element kinds: what an element is, as record detection compares it —
//! its tag, whether it has an id, and its stable class tokens
//! (`li.comment`, `section#.year`) — and which elements have a sibling of
//! their own kind.
//!
//! Kinds are interned: every distinct kind string gets one [`Kind`] id per
//! page, so the many comparisons and map keys of detection are integer
//! work, not string copies. Tag names are interned the same way ([`Tag`]),
//! through the kind: a group's key never compares strings.
//!
//! Invariants: equal kind strings have equal ids and distinct strings
//! distinct ids; equal tag names have equal [`Tag`]s and distinct names
//! distinct ones; a node's kind is computed at most once; text nodes have
//! the empty kind, whose tag is the empty name.

use rustc_hash::FxHashMap as HashMap;

use crate::extract::dom::{Document, NodeId, starts_with_ascii_ci};
use crate::extract::sequence::MAX_CHILDREN;

use super::Place;

/// An interned kind string (see the module header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Kind(u32);

/// An interned tag name (see the module header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Tag(u32);

/// Largest kind-count map [`Kinds::fill_repeated`] keeps for the next
/// parent.
const REUSED_COUNTS_CAPACITY: usize = 64;

/// Not computed yet, in [`Kinds::of_node`].
const UNKNOWN: u32 = u32::MAX;

/// Class tokens that say what state a thing is in, not what it is (a
/// forum's pinned topics and announcements are topics, their blocks
/// lists of topics).
const STATE_CLASSES: &[&str] = &[
    "active",
    "selected",
    "current",
    "open",
    "closed",
    "hidden",
    "visible",
    "first",
    "last",
    "odd",
    "even",
    "alt",
    "parent",
    "new",
    "featured",
    "sticky",
    "pinned",
    "announce",
    "announcement",
    "global-announce",
    "unvoted",
    "upvoted",
    "downvoted",
    "collapsed",
    "expanded",
    "noncollapsed",
];

/// Parts of a class token that mark a zebra row (`row-odd`, `even_row`,
/// `mw-line-odd`): where it falls in the stripes, not what it is.
const ZEBRA_PARTS: &[&str] = &["odd", "even"];

/// Class tokens generated per build or per state.
const VOLATILE_PREFIXES: &[&str] = &["is-", "has-", "css-", "sc-", "jsx-", "svelte-", "ng-"];

/// The tokens of an element's `class` attribute (none for other nodes).
pub(crate) fn class_tokens(doc: &Document, id: NodeId) -> impl Iterator<Item = &str> {
    doc.element(id)
        .and_then(|e| e.attr("class"))
        .unwrap_or("")
        .split_whitespace()
}

/// True for class tokens that name what an element is: no digits (grid
/// sizes, ids, depths), no state words, no zebra stripes (`row-odd`), no
/// BEM modifiers (`card--wide`), no generated prefixes.
/// Read on the bytes (every separator is ASCII): no searcher is set up
/// per token.
pub(super) fn stable_class(token: &str) -> bool {
    let b = token.as_bytes();
    !b.is_empty()
        && b.len() <= 40
        && !b.iter().any(u8::is_ascii_digit)
        && !b.windows(2).any(|w| w == b"--")
        && !STATE_CLASSES.iter().any(|s| s.eq_ignore_ascii_case(token))
        && !b.split(|&c| c == b'-' || c == b'_').any(|part| {
            ZEBRA_PARTS
                .iter()
                .any(|z| z.as_bytes().eq_ignore_ascii_case(part))
        })
        && !VOLATILE_PREFIXES
            .iter()
            .any(|p| starts_with_ascii_ci(token, p))
}

/// The class tokens of `id` that name what it is ([`stable_class`]), a
/// CSS module's class by its component and local name
/// ([`css_module_stem`]).
pub(super) fn stable_classes(doc: &Document, id: NodeId) -> impl Iterator<Item = &str> {
    // Asked of the element only when a token has a term's prefix.
    let terms = std::cell::OnceCell::new();
    class_tokens(doc, id).filter_map(move |c| {
        if TERM_PREFIXES.iter().any(|p| c.starts_with(p))
            && *terms.get_or_init(|| names_its_terms(doc, id))
        {
            None
        } else if stable_class(c) {
            Some(c)
        } else {
            css_module_stem(c)
        }
    })
}

/// Prefixes of the classes a WordPress post carries for each of its terms
/// (`category-recipes`, `tag-winter`).
const TERM_PREFIXES: &[&str] = &["category-", "tag-"];

/// True when `id` is a WordPress post that names its terms in its classes
/// (`post type-post status-publish category-recipes tag-winter`, from
/// `post_class`): those say what the post is filed under, not what it
/// is, and differ from post to post (two posts on a new blog were two
/// kinds, and no list).
fn names_its_terms(doc: &Document, id: NodeId) -> bool {
    doc.element(id)
        .and_then(|e| e.attr("class"))
        .is_some_and(|c| c.contains("status-") && c.contains("type-"))
}

/// Length of the build hash a CSS module appends to its classes.
const CSS_MODULE_HASH: std::ops::RangeInclusive<usize> = 4..=8;

/// The stable part of a CSS module's class (`EpisodeRow_row__3mVzK`,
/// `component_local__hash`): its component and local name,
/// `EpisodeRow_row`, one `_` between two words of letters. The hash
/// changes per build; the name says what the element is, so a season's
/// header row and an episode row of one list are two kinds.
pub(super) fn css_module_stem(token: &str) -> Option<&str> {
    let (stem, hash) = token.split_once("__")?;
    let (component, local) = stem.split_once('_')?;
    let word = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphabetic());
    let hashed = CSS_MODULE_HASH.contains(&hash.len())
        && hash
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    (word(component) && word(local) && hashed && stable_class(stem)).then_some(stem)
}

/// Most distinct class tokens of one parent's children read as
/// candidate stripes ([`stripe_classes`]): the bound keeps a hostile
/// parent's work linear.
const MAX_STRIPE_CANDIDATES: usize = 8;

/// Class tokens that stripe `parent`'s children by alternation, whatever
/// their name (`tr.filing-row` and `tr.filing-row.blueRow`, then again):
/// a token is a stripe when, among the children of one tag that share
/// another class with its bearers (the family), it is on every other
/// one from the first two to the last two, on two or more, and its
/// bearers look like their neighbours (as many element children as the
/// family member beside the first bearer). A title row and its detail
/// row (`tr.athing` and a bare `tr`) share no class, and a row
/// `tr.row.main` of three cells before `tr.row.detail` of one is no
/// stripe: those are parts of one record, not where it falls.
pub(super) fn stripe_classes(doc: &Document, parent: NodeId) -> Vec<&str> {
    let class_of = |c: NodeId| doc.element(c).and_then(|e| e.attr("class"));
    // Stripes need a class attribute that comes back every other child
    // after a different one (`a b a`): a cheap test, done before any token
    // is read, that most parents fail.
    let (mut classed, mut turns) = (0usize, false);
    let mut last: [Option<&str>; 2] = [None, None];
    for c in doc.children(parent).take(MAX_CHILDREN as usize) {
        if let Some(class) = class_of(c) {
            classed += 1;
            turns |= last[0] == Some(class) && last[1] != Some(class);
            last = [last[1], Some(class)];
        }
    }
    if classed < 4 || !turns {
        return Vec::new();
    }
    // Each classed child with its stable tokens, read once.
    let rows: Vec<(NodeId, Vec<&str>)> = doc
        .children(parent)
        .take(MAX_CHILDREN as usize)
        .filter(|&c| class_of(c).is_some())
        .map(|c| (c, stable_classes(doc, c).collect()))
        .collect();
    let mut candidates: Vec<&str> = Vec::new();
    'rows: for (_, tokens) in &rows {
        for &t in tokens {
            if !candidates.contains(&t) {
                if candidates.len() == MAX_STRIPE_CANDIDATES {
                    break 'rows;
                }
                candidates.push(t);
            }
        }
    }
    candidates
        .into_iter()
        .filter(|&t| stripes_by_alternation(doc, &rows, t))
        .collect()
}

/// True when class `t` alternates through its family among `rows` (see
/// [`stripe_classes`]).
fn stripes_by_alternation(doc: &Document, rows: &[(NodeId, Vec<&str>)], t: &str) -> bool {
    let Some((first, own)) = rows.iter().find(|(_, tokens)| tokens.contains(&t)) else {
        return false;
    };
    let Some(tag) = doc.element(*first).map(|e| e.name.as_str()) else {
        return false;
    };
    let family: Vec<&(NodeId, Vec<&str>)> = rows
        .iter()
        .filter(|(c, tokens)| {
            doc.is_tag(*c, tag) && tokens.iter().any(|y| *y != t && own.contains(y))
        })
        .collect();
    let at: Vec<usize> = (0..family.len())
        .filter(|&i| family[i].1.contains(&t))
        .collect();
    let alternates = at.len() >= 2
        && family.len() >= 4
        && at.windows(2).all(|w| w[1] - w[0] == 2)
        && at[0] <= 1
        && at[at.len() - 1] + 2 >= family.len();
    if !alternates {
        return false;
    }
    let beside = if at[0] == 0 { 1 } else { at[0] - 1 };
    let cells = |c: NodeId| {
        doc.children(c)
            .filter(|&k| doc.element(k).is_some())
            .count()
    };
    family
        .get(beside)
        .is_some_and(|b| cells(b.0) == cells(family[at[0]].0))
}

/// Element kinds of one page, cached, and which elements have a sibling
/// of their own kind.
pub(super) struct Kinds<'d> {
    pub(super) doc: &'d Document,
    /// Kind id of each arena node ([`UNKNOWN`] until asked).
    of_node: Vec<u32>,
    /// Component kind of the nodes asked ([`Kinds::component`]): few.
    component_of: HashMap<NodeId, Kind>,
    /// Kind string of each id.
    names: Vec<String>,
    ids: HashMap<String, Kind>,
    /// Tag of each kind id.
    tag_of_kind: Vec<Tag>,
    /// Name of each tag id.
    tag_names: Vec<&'d str>,
    tag_ids: HashMap<&'d str, Tag>,
    /// Per node: whether it has an element sibling of its kind; `None`
    /// until it or a sibling is asked (then all of them are filled).
    repeated_of: Vec<Option<bool>>,
    /// Per container: its place (every candidate asks again).
    pub(super) places: HashMap<NodeId, Place>,
    /// Reused while a kind string is built.
    scratch: String,
    /// Reused for an element's stable class tokens while its kind is built.
    classes: Vec<&'d str>,
    /// Reused for the kind counts of one parent's children.
    counts: HashMap<Kind, u32>,
    /// Per node as a parent: the index in `stripe_sets` of the class
    /// tokens that stripe its children ([`stripe_classes`]), [`UNKNOWN`]
    /// until asked.
    stripes_of: Vec<u32>,
    /// Stripe sets found; the first is the empty one most parents have.
    stripe_sets: Vec<Vec<&'d str>>,
}

impl<'d> Kinds<'d> {
    pub(super) fn new(doc: &'d Document) -> Self {
        Kinds {
            doc,
            of_node: vec![UNKNOWN; doc.nodes.len()],
            component_of: HashMap::default(),
            names: Vec::new(),
            ids: HashMap::default(),
            tag_of_kind: Vec::new(),
            tag_names: Vec::new(),
            tag_ids: HashMap::default(),
            repeated_of: vec![None; doc.nodes.len()],
            places: HashMap::default(),
            scratch: String::new(),
            classes: Vec::new(),
            counts: HashMap::default(),
            stripes_of: vec![UNKNOWN; doc.nodes.len()],
            stripe_sets: vec![Vec::new()],
        }
    }

    /// `li.comment`, `section#.year` (an id of its own is a `#` flag: two
    /// sections with ids are alike, a list with an id and one without are
    /// not).
    pub(super) fn kind(&mut self, id: NodeId) -> Kind {
        match self.of_node.get(id as usize) {
            Some(&k) if k != UNKNOWN => Kind(k),
            _ => {
                let k = self.compute_kind(id);
                if let Some(slot) = self.of_node.get_mut(id as usize) {
                    *slot = k.0;
                }
                k
            }
        }
    }

    /// The kind of a lone wrapper between repeated sections and their
    /// lists: its tag and first stable class, the component it is
    /// (`div.view*` for a Drupal view's `view view-exhibitions
    /// view-display-id-current`, whose other classes name the section it
    /// shows). Elements of one component match it ([`Kinds::matches`]).
    pub(super) fn component(&mut self, id: NodeId) -> Kind {
        if let Some(&k) = self.component_of.get(&id) {
            return k;
        }
        let doc = self.doc;
        let Some(e) = doc.element(id) else {
            return self.kind(id);
        };
        let mut name = std::mem::take(&mut self.scratch);
        name.clear();
        name.push_str(&e.name);
        name.push('.');
        name.push_str(stable_classes(doc, id).next().unwrap_or(""));
        name.push('*');
        let k = self.intern(&name, e.name.as_str());
        self.scratch = name;
        self.component_of.insert(id, k);
        k
    }

    /// True when `id` is of kind `k`, or of the component `k` names
    /// ([`Kinds::component`]).
    pub(super) fn matches(&mut self, id: NodeId, k: Kind) -> bool {
        let own = self.kind(id);
        own == k
            || (self.tag_of(own) == self.tag_of(k)
                && self.name(k).ends_with('*')
                && self.component(id) == k)
    }

    /// The kind string of an id.
    pub(super) fn name(&self, kind: Kind) -> &str {
        self.names.get(kind.0 as usize).map_or("", String::as_str)
    }

    /// The tag of a kind (`li` of `li#.comment`).
    pub(super) fn tag_of(&self, kind: Kind) -> Tag {
        self.tag_of_kind
            .get(kind.0 as usize)
            .copied()
            .unwrap_or(Tag(0))
    }

    /// The tag of a node: its element name, the empty name for text.
    pub(super) fn tag_id(&mut self, id: NodeId) -> Tag {
        let kind = self.kind(id);
        self.tag_of(kind)
    }

    /// The name of a tag id.
    pub(super) fn tag_name(&self, tag: Tag) -> &'d str {
        self.tag_names.get(tag.0 as usize).copied().unwrap_or("")
    }

    /// Out of line: most calls of [`Kinds::kind`] find the kind cached,
    /// and that path stays a lookup without this one's stack frame.
    #[inline(never)]
    fn compute_kind(&mut self, id: NodeId) -> Kind {
        let mut k = std::mem::take(&mut self.scratch);
        k.clear();
        let doc = self.doc;
        let mut tag = "";
        if let Some(e) = doc.element(id) {
            tag = e.name.as_str();
            let mut classes = std::mem::take(&mut self.classes);
            classes.clear();
            classes.extend(stable_classes(doc, id));
            if !classes.is_empty()
                && let Some(parent) = doc.node(id).parent
            {
                let set = self.stripe_set(parent);
                if let Some(stripes) = self.stripe_sets.get(set).filter(|s| !s.is_empty()) {
                    classes.retain(|c| !stripes.contains(c));
                }
            }
            classes.sort_unstable();
            classes.dedup();
            k.push_str(&e.name);
            if e.attr("id").is_some_and(|v| !v.trim().is_empty()) {
                k.push('#');
            }
            for c in classes.iter() {
                k.push('.');
                k.push_str(c);
            }
            self.classes = classes;
        }
        let kind = self.intern(&k, tag);
        self.scratch = k;
        kind
    }

    /// The index in `stripe_sets` of the classes that stripe `parent`'s
    /// children ([`stripe_classes`]), found once per parent.
    fn stripe_set(&mut self, parent: NodeId) -> usize {
        if let Some(&k) = self.stripes_of.get(parent as usize)
            && k != UNKNOWN
        {
            return k as usize;
        }
        let found = stripe_classes(self.doc, parent);
        let k = match found.is_empty() {
            true => 0,
            false => {
                self.stripe_sets.push(found);
                self.stripe_sets.len() - 1
            }
        };
        if let Some(slot) = self.stripes_of.get_mut(parent as usize) {
            *slot = k as u32;
        }
        k
    }

    /// The id of kind string `name`, whose elements are `tag`s.
    fn intern(&mut self, name: &str, tag: &'d str) -> Kind {
        if let Some(&k) = self.ids.get(name) {
            return k;
        }
        let k = Kind(self.names.len() as u32);
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), k);
        let tag = self.intern_tag(tag);
        self.tag_of_kind.push(tag);
        k
    }

    fn intern_tag(&mut self, name: &'d str) -> Tag {
        if let Some(&t) = self.tag_ids.get(name) {
            return t;
        }
        let t = Tag(self.tag_names.len() as u32);
        self.tag_names.push(name);
        self.tag_ids.insert(name, t);
        t
    }

    /// True when `id` has an element sibling of its own kind (among the
    /// first [`MAX_CHILDREN`] children of its parent).
    pub(super) fn repeated(&mut self, id: NodeId) -> bool {
        let Some(p) = self.doc.node(id).parent else {
            return false;
        };
        if self.repeated_of.get(id as usize) == Some(&None) {
            self.fill_repeated(p);
        }
        self.repeated_of.get(id as usize) == Some(&Some(true))
    }

    /// Counts the kinds of `parent`'s first [`MAX_CHILDREN`] element
    /// children and marks every child: once per parent, so each later
    /// question is one lookup.
    fn fill_repeated(&mut self, parent: NodeId) {
        let doc = self.doc;
        let mut counts = std::mem::take(&mut self.counts);
        // Clearing costs the map's capacity: after a parent with many
        // kinds (a hostile page), start over rather than clear it each time.
        if counts.capacity() > REUSED_COUNTS_CAPACITY {
            counts = HashMap::default();
        }
        counts.clear();
        for c in doc.children(parent).take(MAX_CHILDREN as usize) {
            if doc.element(c).is_some() {
                *counts.entry(self.kind(c)).or_insert(0) += 1;
            }
        }
        for c in doc.children(parent) {
            let k = self.kind(c);
            let repeated = counts.get(&k).is_some_and(|&n| n >= 2);
            if let Some(slot) = self.repeated_of.get_mut(c as usize) {
                *slot = Some(repeated);
            }
        }
        self.counts = counts;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    #[test]
    fn equal_kind_strings_share_one_id_and_distinct_ones_do_not() {
        let doc = parse(
            "<ul><li class='post odd'>a</li><li class='post even'>b</li>\
             <li class='post sponsored'>c</li><li id=x class=post>d</li></ul>",
        );
        let mut kinds = Kinds::new(&doc);
        let lis: Vec<NodeId> = (0..doc.nodes.len() as NodeId)
            .filter(|&i| doc.is_tag(i, "li"))
            .collect();
        let k: Vec<Kind> = lis.iter().map(|&i| kinds.kind(i)).collect();
        // State classes (odd/even) are not part of the kind.
        assert_eq!(k[0], k[1]);
        assert_ne!(k[0], k[2]);
        assert_ne!(k[0], k[3]);
        assert_eq!(kinds.name(k[0]), "li.post");
        assert_eq!(kinds.name(k[2]), "li.post.sponsored");
        assert_eq!(kinds.name(k[3]), "li#.post");
        // One tag for all four kinds of `li`, another for the list.
        assert!(lis.iter().all(|&i| kinds.tag_id(i) == kinds.tag_id(lis[0])));
        let ul = (0..doc.nodes.len() as NodeId)
            .find(|&i| doc.is_tag(i, "ul"))
            .expect("the list");
        assert_ne!(kinds.tag_id(ul), kinds.tag_id(lis[0]));
        let li = kinds.tag_id(lis[3]);
        assert_eq!(kinds.tag_name(li), "li");
        assert!(kinds.repeated(lis[0]));
        assert!(!kinds.repeated(lis[2]));
    }

    #[test]
    fn a_css_modules_class_is_its_component_and_local_name() {
        assert_eq!(
            css_module_stem("EpisodeRow_row__3mVzK"),
            Some("EpisodeRow_row")
        );
        assert_eq!(
            css_module_stem("EpisodeList_seasonHeader__Xk29a"),
            Some("EpisodeList_seasonHeader")
        );
        for token in [
            "col-6",
            "post__title",
            "Card_title__x",
            "Card2_title__3mVzK",
            "card__title--x1",
            "a_b_c__3mVzK",
            "Card_title__3mVzK3mVzK3",
        ] {
            assert_eq!(css_module_stem(token), None, "{token}");
        }
        let doc = parse(
            "<ul><li class=EpisodeList_seasonHeader__Xk29a>Season 3</li>\
             <li class=EpisodeRow_row__3mVzK>a</li><li class='EpisodeRow_row__3mVzK x1'>b</li></ul>",
        );
        let mut kinds = Kinds::new(&doc);
        let lis: Vec<NodeId> = (0..doc.nodes.len() as NodeId)
            .filter(|&i| doc.is_tag(i, "li"))
            .collect();
        let row = kinds.kind(lis[1]);
        assert_eq!(kinds.name(row), "li.EpisodeRow_row");
        assert_eq!(kinds.kind(lis[1]), kinds.kind(lis[2]));
        assert_ne!(kinds.kind(lis[0]), kinds.kind(lis[1]));
    }

    #[test]
    fn state_words_and_generated_prefixes_are_not_stable_in_any_case() {
        for token in [
            "post",
            "entry-title",
            "Teaser",
            "isolate",
            "newsletter",
            "oddities",
            "uneven-grid",
        ] {
            assert!(stable_class(token), "{token} names what the element is");
        }
        for token in [
            "active",
            "Active",
            "SELECTED",
            "is-open",
            "Is-Open",
            "css-abc",
            "SC-abc",
            "card--wide",
            "col-6",
            "",
            "odd",
            "row-odd",
            "Row-Even",
            "even_row",
        ] {
            assert!(
                !stable_class(token),
                "{token:?} is state, generated or a size"
            );
        }
    }

    /// Regression (round 29's securities filings): rows striped by a
    /// class of a colour's name (`blueRow`) are one kind; the stripe is
    /// found by alternation, and the detail rows keep their own kind.
    #[test]
    fn a_class_on_every_other_row_is_a_stripe() {
        let row = |stripe: &str| {
            format!(
                "<tr class='filing-row {stripe}'><td>8-K</td><td>Report</td><td>2026-11-25</td></tr>"
            )
        };
        let mut html = String::from("<table>");
        for i in 0..6 {
            html.push_str(&row(if i % 2 == 1 { "blueRow" } else { "" }));
            if i == 2 {
                html.push_str("<tr class='amend-detail'><td colspan=3>Amendment</td></tr>");
            }
        }
        html.push_str("</table>");
        let doc = parse(&html);
        let trs: Vec<NodeId> = (0..doc.nodes.len() as NodeId)
            .filter(|&i| doc.is_tag(i, "tr"))
            .collect();
        let mut kinds = Kinds::new(&doc);
        let k: Vec<String> = trs
            .iter()
            .map(|&i| {
                let k = kinds.kind(i);
                kinds.name(k).to_string()
            })
            .collect();
        assert_eq!(
            k.iter().filter(|n| *n == "tr.filing-row").count(),
            6,
            "{k:?}"
        );
        assert_eq!(k[3], "tr.amend-detail");
    }

    /// A title row and its metadata row are no stripes: they share no
    /// class, or their cells differ.
    #[test]
    fn a_records_second_row_is_no_stripe() {
        let pairs = |first: &str, second: &str| {
            let mut html = String::from("<table>");
            for _ in 0..4 {
                html.push_str(&format!(
                    "<tr class='{first}'><td>1.</td><td>v</td><td><a href=/s>Story</a></td></tr>\
                     <tr class='{second}'><td colspan=3>12 points by ann</td></tr>"
                ));
            }
            html.push_str("</table>");
            let doc = parse(&html);
            let table = (0..doc.nodes.len() as NodeId)
                .find(|&i| doc.is_tag(i, "table"))
                .expect("the table");
            let body = doc
                .children(table)
                .find(|&c| doc.is_tag(c, "tbody"))
                .unwrap_or(table);
            stripe_classes(&doc, body)
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert!(pairs("athing", "subtext").is_empty());
        assert!(pairs("row main", "row detail").is_empty());
    }
}
