//! Companions: the winner's list continued in another container of its
//! kind elsewhere in the content. A department's seminars list the coming
//! months, and fold the past months into a `details` below in markup of
//! their own around the same cards; a site splits one list across two
//! blocks of one component.
//!
//! A kept group continues the winner when its records start at elements
//! of the winner's record kind, in a container of the winner's container
//! kind (both naming a class, so that two plain `ul > li` lists never
//! join), outside page chrome and outside the winner's records, and every
//! link in its records' headings is of the shape of the winner's headline
//! links (same host, directory and depth: see `straggler`; a seminar whose
//! title is to be announced has none). Its records join the winner's,
//! in page order.
//!
//! Invariants: only the winner's records change; they stay disjoint and
//! in page order; a group joins whole or not at all. Cost: one kind lookup
//! per group, and one shape per record of a group of the winner's kinds.

use super::kinds::Kinds;
use super::short::in_chrome;
use super::straggler::{heading_link, records_shape};
use super::{Record, RecordGroup};
use crate::extract::dom::Document;

/// Join the winner's companions to it (`groups` ranked, winner first).
pub(super) fn join(doc: &Document, kinds: &mut Kinds<'_>, groups: &mut [RecordGroup]) {
    let Some((winner, rest)) = groups.split_first_mut() else {
        return;
    };
    if winner.dropped.is_some() || winner.thread {
        return;
    }
    let Some(own) = KindsOf::of(kinds, winner) else {
        return;
    };
    // Read only once a group of the winner's kinds is met: most pages
    // have none.
    let mut shape = None;
    let mut joined: Vec<Record> = Vec::new();
    for g in rest.iter().filter(|g| g.dropped.is_none() && !g.thread) {
        if KindsOf::of(kinds, g) != Some(own)
            || g.container.is_some_and(|c| in_chrome(doc, c))
            || overlaps(&winner.records, &g.records)
            || overlaps(&joined, &g.records)
        {
            continue;
        }
        let mut linked = g
            .records
            .iter()
            .filter_map(|r| doc.element(heading_link(doc, r)?)?.attr("href"))
            .peekable();
        let Some(shape) = shape.get_or_insert_with(|| records_shape(doc, &winner.records)) else {
            return;
        };
        if linked.peek().is_some() && linked.all(|h| shape.admits_href(h)) {
            joined.extend_from_slice(&g.records);
            joined.sort_unstable_by_key(|r| r.start);
        }
    }
    if !joined.is_empty() {
        winner.records.extend(joined);
        winner.records.sort_unstable_by_key(|r| r.start);
    }
}

/// The kinds a group's list is made of: its container's and its first
/// record's, when every record starts at an element of that kind and both
/// kinds name a class.
#[derive(Clone, Copy, PartialEq, Eq)]
struct KindsOf {
    container: super::kinds::Kind,
    record: super::kinds::Kind,
}

impl KindsOf {
    fn of(kinds: &mut Kinds<'_>, g: &RecordGroup) -> Option<KindsOf> {
        let container = kinds.kind(g.container?);
        let first = g.records.first()?;
        let record = kinds.kind(first.start);
        let classed = |kinds: &Kinds<'_>, k| kinds.name(k).contains('.');
        let alike = g.records.iter().all(|r| kinds.kind(r.start) == record);
        (alike && classed(kinds, container) && classed(kinds, record))
            .then_some(KindsOf { container, record })
    }
}

/// True when a record of `b` and one of `a` share a node (both in page
/// order).
fn overlaps(a: &[Record], b: &[Record]) -> bool {
    b.iter().any(|r| {
        let i = a.partition_point(|x| x.end <= r.start);
        a.get(i).is_some_and(|x| x.start < r.end)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(doc: &Document, class: &str) -> Vec<Record> {
        (0..doc.nodes.len() as u32)
            .filter(|&i| {
                doc.element(i)
                    .and_then(|e| e.attr("class"))
                    .is_some_and(|c| c.split_whitespace().any(|t| t == class))
            })
            .map(|i| Record {
                start: i,
                end: doc.node(i).end,
            })
            .collect()
    }

    #[test]
    fn overlapping_records_are_told_apart() {
        let doc = crate::extract::dom::parse(
            "<div class=a><p class=r>1</p><p class=r>2</p></div><div class=b><p class=s>3</p></div>",
        );
        let r = records(&doc, "r");
        let s = records(&doc, "s");
        assert!(!overlaps(&r, &s));
        assert!(overlaps(&r, &r[1..]));
    }
}
