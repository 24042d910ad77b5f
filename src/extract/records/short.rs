//! Short lists: records too few for the miner.
//!
//! Rule 1 needs `min_instances` repeats (3 by default), so a blog with two
//! posts or a landing page with two teasers gives the miner nothing, and
//! the sidebar's widgets win. A record of a short list still shows itself:
//! it is a sibling of its own kind holding a heading that links somewhere.
//! Two headings of one level that carry a link, whose lowest common
//! ancestor holds them under different children of one kind, make those
//! children a candidate group; further headings under the next sibling of
//! that kind extend it.
//!
//! Invariants: only groups smaller than `min_instances` are made (larger
//! lists are the miner's) and never inside `nav`, `aside`, or the page's
//! `header` or `footer` (one inside an `article` or `section` is that
//! content's, see [`in_chrome`]); records are whole sibling subtrees,
//! disjoint, in page order.
//! Cost: one pass over the arena plus a walk up from each heading.

use crate::extract::dom::{Document, NodeId};

use super::{Kinds, Links, RecordGroup};

/// How far above a heading a wrapping link is looked for (`a > h2`,
/// `a > div > h3`).
const LINK_ABOVE: usize = 3;

/// Candidate groups of two up to `min_instances - 1` records, not already
/// among `existing`.
pub(super) fn groups(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    links: &Links,
    existing: &[RecordGroup],
    min_instances: usize,
) -> Vec<RecordGroup> {
    let mut by_level: [Vec<NodeId>; 6] = Default::default();
    for id in 0..doc.nodes.len() as NodeId {
        if let Some(level) = heading_level(doc, id)
            && linked(doc, id)
        {
            by_level[level].push(id);
        }
    }
    let mut all: Vec<NodeId> = by_level.concat();
    all.sort_unstable();
    let mut out = Vec::new();
    for headings in &by_level {
        for roots in chains(kinds, links, headings) {
            if roots.len() >= min_instances || !one_heading_each(doc, &roots, &all) {
                continue;
            }
            let Some(container) = doc.node(roots[0]).parent else {
                continue;
            };
            if in_chrome(doc, container) || known(existing, container, roots[0]) {
                continue;
            }
            out.push(group(doc, kinds, container, &roots));
        }
    }
    out
}

/// `0..6` for `h1`..`h6` ([`crate::extract::dom::heading_level`]).
pub(super) fn heading_level(doc: &Document, id: NodeId) -> Option<usize> {
    crate::extract::dom::heading_level(doc.tag(id)?)
}

pub(super) fn is_link(doc: &Document, id: NodeId) -> bool {
    doc.is_tag(id, "a")
        && doc
            .element(id)
            .and_then(|e| e.attr("href"))
            .is_some_and(|h| !h.trim().is_empty() && !h.trim_start().starts_with('#'))
}

/// A heading that holds a link, sits inside one, or shares its card
/// with a covering link ([`covers`]).
fn linked(doc: &Document, h: NodeId) -> bool {
    (h..doc.node(h).end).any(|i| is_link(doc, i))
        || doc
            .ancestors(h)
            .take(LINK_ABOVE)
            .any(|a| is_link(doc, a) || doc.children(a).any(|c| covers(doc, c)))
}

/// True for a link with nothing inside it, laid over its card by the
/// style sheet (PaperMod's `<a class="entry-link" aria-label="post link
/// to …">` after the card's `header > h2`): the card's one way to its
/// page. An icon link holds its icon, so it is none.
fn covers(doc: &Document, id: NodeId) -> bool {
    is_link(doc, id) && doc.node(id).end == id + 1
}

/// Runs of sibling roots: consecutive headings whose common ancestor holds
/// them under different children of one kind, chained while the next pair
/// continues from the last root.
fn chains(kinds: &mut Kinds<'_>, links: &Links, headings: &[NodeId]) -> Vec<Vec<NodeId>> {
    let mut out: Vec<Vec<NodeId>> = Vec::new();
    let mut current: Vec<NodeId> = Vec::new();
    for w in headings.windows(2) {
        let (_, a, b) = links.lca_with_children(w[0], w[1]);
        let alike = a != w[0] && kinds.kind(a) == kinds.kind(b);
        if alike && current.last() == Some(&a) {
            current.push(b);
            continue;
        }
        if current.len() >= 2 {
            out.push(std::mem::take(&mut current));
        }
        current = if alike { vec![a, b] } else { Vec::new() };
    }
    if current.len() >= 2 {
        out.push(current);
    }
    out
}

/// Each root holds exactly one linked heading of any level (a root with
/// two, such as a section's linked caption over its own teasers, is a
/// section, not a record). `headings` is sorted.
fn one_heading_each(doc: &Document, roots: &[NodeId], headings: &[NodeId]) -> bool {
    roots.iter().all(|&r| {
        let end = doc.node(r).end;
        let lo = headings.partition_point(|&h| h < r);
        let hi = headings.partition_point(|&h| h < end);
        hi - lo == 1
    })
}

/// True when `id` is in the page's chrome: inside `nav` or `aside`, or in
/// a `header` or `footer` of the page. A `header` or `footer` inside an
/// `article` or `section` belongs to that content (a post's
/// `header.entry-header` around its title), not to the page.
pub(super) fn in_chrome(doc: &Document, id: NodeId) -> bool {
    // Nearest first: a header or footer is the page's when it encloses
    // every article and section around `id`.
    let chain: Vec<NodeId> = std::iter::once(id).chain(doc.ancestors(id)).collect();
    let outermost_content = chain
        .iter()
        .rposition(|&a| CONTENT.iter().any(|t| doc.is_tag(a, t)));
    chain.iter().enumerate().any(|(i, &a)| match doc.tag(a) {
        Some("nav" | "aside") => true,
        Some("header" | "footer") => outermost_content.is_none_or(|c| i > c),
        _ => false,
    })
}

/// Elements whose `header` and `footer` are their own, not the page's.
const CONTENT: &[&str] = &["article", "section"];

/// True when a mined group already starts with the same record.
pub(super) fn known(existing: &[RecordGroup], container: NodeId, first: NodeId) -> bool {
    existing.iter().any(|g| {
        g.container == Some(container) && g.records.first().is_some_and(|r| r.start == first)
    })
}

fn group(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    container: NodeId,
    roots: &[NodeId],
) -> RecordGroup {
    let tag = kinds.kind(roots[0]);
    RecordGroup::of_elements(doc, container, kinds.name(tag), roots)
}
