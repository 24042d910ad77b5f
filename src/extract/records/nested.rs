//! Threads whose replies nest inside the comment they answer, each reply
//! list a copy of the outer one (`div.comment > div.child > div.listing >
//! div.comment`): the miner finds the top-level comments as one group,
//! each swallowing its replies. A group whose records hold more records of
//! their own kind is split: every element of that kind, at any depth, is a
//! record of its own, made of its content before the child holding its
//! replies.
//!
//! Only the best few groups are tried, only kinds with a class name (a bare
//! `div` nests everywhere), and a split is kept only when its records carry
//! prose outside their links (a comment has text of its own; a menu with
//! submenus is links all the way down).
//!
//! Invariants: records stay disjoint and in page order; the work is one
//! scan over the tried groups' records.

use crate::extract::dom::{Document, NodeId};

use super::score::record_stats;
use super::{Kinds, Record, RecordGroup, thread_records};

/// How many of the ranked groups are tried.
const TRIED: usize = 4;
/// Median text outside links (bytes) a split record must carry.
const MIN_PROSE: usize = 20;

/// Split the best groups whose records nest; `rescore` scores a changed
/// group. True when some group changed.
pub(super) fn split_top(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    groups: &mut [RecordGroup],
    mut rescore: impl FnMut(&mut RecordGroup),
) -> bool {
    let mut changed = false;
    for g in groups
        .iter_mut()
        .filter(|g| g.dropped.is_none())
        .take(TRIED)
    {
        if let Some(records) = split(doc, kinds, &g.records) {
            g.records = records;
            g.thread = true;
            rescore(g);
            changed = true;
        }
    }
    changed
}

fn split(doc: &Document, kinds: &mut Kinds<'_>, records: &[Record]) -> Option<Vec<Record>> {
    let first = records.first()?;
    let kind = kinds.kind(first.start);
    // A record may span siblings (a comment and the spacer after it); its
    // first element is the one whose kind nests.
    if !kinds.name(kind).contains('.') || records.iter().any(|r| doc.element(r.start).is_none()) {
        return None;
    }
    let tag = doc.tag(first.start)?.to_string();
    let mut all: Vec<NodeId> = Vec::with_capacity(records.len());
    let mut nested = false;
    for r in records {
        if kinds.kind(r.start) != kind {
            return None;
        }
        all.push(r.start);
        for i in r.start + 1..r.end {
            if doc.is_tag(i, &tag) && kinds.kind(i) == kind {
                all.push(i);
                nested = true;
            }
        }
    }
    if !nested {
        return None;
    }
    let split = thread_records(doc, &all);
    let mut prose: Vec<usize> = split.iter().map(|r| record_stats(doc, r).prose()).collect();
    prose.sort_unstable();
    let median = prose.get(prose.len() / 2).copied().unwrap_or(0);
    (median >= MIN_PROSE).then_some(split)
}
