//! Sections taken for records: a page that groups its list under headings
//! (a researcher's publications by year, stories by topic) also repeats the
//! heading-and-list pairs themselves, and those pairs, richer in headings
//! and text, can outscore the list. A group whose records are each a
//! heading and the records of another kept group, nested inside them and
//! making almost all of their text, holds that group's sections: its score
//! is divided by the records each section holds, as a record holding
//! several headlines is in `score`, so the records inside win.
//!
//! Every section that holds any of the records holds two or more: an
//! article holding its body `div` is a record and its parts.
//!
//! "Nested" means below the section's own top-level parts, so a record made
//! of sibling rows (a title row and its metadata row) is not the section of
//! a group of single rows; and a section is headed (an `h1`–`h6` outside
//! its nested records), so a table row is not the section of its cells.
//!
//! Invariants: only scores change; the work is one binary search per
//! section and one text count per nested record, for the few best groups.

use crate::extract::dom::{Document, NodeId, is_heading};

use super::{Record, RecordGroup};

/// How many of the ranked groups are tried as sections.
const TRIED: usize = 3;
/// Share of a section's text its nested records must carry (median over
/// the sections that hold any).
const MIN_NESTED_TEXT: f64 = 0.8;

/// Divide the score of each of the best groups that holds another kept
/// group's sections. True when some score changed.
pub(super) fn demote(doc: &Document, groups: &mut [RecordGroup]) -> bool {
    let kept: Vec<usize> = (0..groups.len())
        .filter(|&i| groups[i].dropped.is_none())
        .collect();
    let mut changed = false;
    for &s in kept.iter().take(TRIED) {
        let per_section = kept
            .iter()
            .filter(|&&r| r != s)
            .filter_map(|&r| records_per_section(doc, &groups[s].records, &groups[r].records))
            .fold(1.0_f64, f64::max);
        if per_section > 1.0 {
            groups[s].score /= per_section;
            changed = true;
        }
    }
    changed
}

/// When `sections` are sections of `records` (see the module header): the
/// mean number of `records` each section that holds any holds.
fn records_per_section(doc: &Document, sections: &[Record], records: &[Record]) -> Option<f64> {
    let (mut holders, mut inside, mut headed) = (0usize, 0usize, 0usize);
    let mut shares: Vec<f64> = Vec::new();
    for s in sections {
        let nested = nested_in(doc, s, records);
        match nested.len() {
            0 => continue,
            1 => return None, // a record and its parts, not a section
            _ => {}
        }
        headed += usize::from(has_own_heading(doc, s, nested));
        let text = doc.range_text_bytes(s.start, s.end).max(1);
        let nested_text: usize = nested
            .iter()
            .map(|r| doc.range_text_bytes(r.start, r.end))
            .sum();
        holders += 1;
        inside += nested.len();
        shares.push(nested_text as f64 / text as f64);
    }
    shares.sort_by(f64::total_cmp);
    let median = shares.get(shares.len() / 2).copied().unwrap_or(0.0);
    let sections_hold = holders >= 2 && holders * 2 >= sections.len() && headed * 2 >= holders;
    let records_inside = inside * 4 >= records.len() * 3;
    (sections_hold && records_inside && median >= MIN_NESTED_TEXT)
        .then(|| inside as f64 / holders as f64)
}

/// True when `section` holds a heading outside its `nested` records.
fn has_own_heading(doc: &Document, section: &Record, nested: &[Record]) -> bool {
    // `nested` is disjoint and in document order: the record that could
    // hold `i` is the last one starting at or before it.
    let in_nested = |i: NodeId| {
        let k = nested.partition_point(|r| r.start <= i);
        k > 0 && i < nested[k - 1].end
    };
    (section.start..section.end).any(|i| doc.tag(i).is_some_and(is_heading) && !in_nested(i))
}

/// The `records` (a group's, so in document order) inside `section` and below its top-level
/// parts.
fn nested_in<'r>(doc: &Document, section: &Record, records: &'r [Record]) -> &'r [Record] {
    let from = records.partition_point(|r| r.start < section.start);
    let to = records.partition_point(|r| r.start < section.end);
    let inner = &records[from..to.max(from)];
    let top_parent = doc.node(section.start).parent;
    let all_nested = inner
        .iter()
        .all(|r| r.end <= section.end && doc.node(r.start).parent != top_parent);
    if all_nested { inner } else { &[] }
}
