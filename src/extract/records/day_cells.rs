//! A month calendar's day cells: an events calendar lays its month out as
//! a table, one `td` per day, each day holding none, one or several
//! events (`div.type-tribe_events` with its time and `h3` link). The cells
//! that hold events repeat, and cover more of the page than the events
//! inside them, so the miner's best group is the days; but a day is no
//! record, its events are, and a day of two events would be one item.
//!
//! When the winner's records are all cells of a week's row (seven cells:
//! a data table's row is no week), each cell's events are
//! its children holding a headline's link ([`MIN_EVENT_HEADLINE_CHARS`];
//! the day-number link "6" is none), looked for below the wrappers that
//! hold them all (a cell's frame, its events box). When every cell holds
//! at least one and some hold several, the events are the winner's
//! records instead, in page order. Each is then dated by the day its cell
//! names (`section_dates`).
//!
//! Invariants: only the winner's records change; they stay disjoint and
//! in page order. Cost: the cells' subtrees are read once per level
//! they are descended (a cell's few wrappers).

use super::{Record, RecordGroup};
use crate::extract::dom::{Document, NodeId};

/// Fewest characters of a link's text for it to be an event's headline.
pub const MIN_EVENT_HEADLINE_CHARS: usize = 8;

/// Put the events of the winner's day cells in place of the cells (see the
/// module header); true when the winner changed.
pub(super) fn split(doc: &Document, groups: &mut [RecordGroup]) -> bool {
    let Some(winner) = groups.first_mut() else {
        return false;
    };
    let cells = &winner.records;
    let all_cells = cells.len() >= 2
        && winner.dropped.is_none()
        && !winner.thread
        && cells
            .iter()
            .all(|r| doc.is_tag(r.start, "td") && in_week_row(doc, r.start));
    if !all_cells {
        return false;
    }
    let mut events = Vec::new();
    let mut several = false;
    for c in cells {
        let found = events_of(doc, c.start);
        if found.is_empty() {
            return false;
        }
        several |= found.len() > 1;
        events.extend(found.into_iter().map(|e| Record {
            start: e,
            end: doc.node(e).end,
        }));
    }
    if several {
        winner.records = events;
    }
    several
}

/// Days in a week: a month grid's rows have one cell for each.
const WEEK_DAYS: usize = 7;

/// True when `cell` stands in a row of [`WEEK_DAYS`] cells: a week of a
/// month grid, not a data table's row.
fn in_week_row(doc: &Document, cell: NodeId) -> bool {
    doc.node(cell).parent.is_some_and(|row| {
        doc.is_tag(row, "tr")
            && doc
                .children(row)
                .filter(|&c| doc.is_tag(c, "td") || doc.is_tag(c, "th"))
                .count()
                == WEEK_DAYS
    })
}

/// The events in day cell `cell`: its children that hold a headline
/// link, or, where one child holds them all (a cell's frame, its events
/// box), that child's, and so on down.
fn events_of(doc: &Document, cell: NodeId) -> Vec<NodeId> {
    let mut at = cell;
    loop {
        let kids: Vec<NodeId> = doc
            .children(at)
            .filter(|&k| doc.element(k).is_some() && headlines(doc, k) > 0)
            .collect();
        match kids.as_slice() {
            [one] if headlines(doc, *one) > 1 => at = *one,
            _ => return kids,
        }
    }
}

/// How many links of at least [`MIN_EVENT_HEADLINE_CHARS`] characters the
/// subtree at `id` holds.
fn headlines(doc: &Document, id: NodeId) -> usize {
    (id..doc.node(id).end)
        .filter(|&i| {
            doc.is_tag(i, "a") && doc.text(i).trim().chars().count() >= MIN_EVENT_HEADLINE_CHARS
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(day: u32, events: &[&str]) -> String {
        let inner: String = events
            .iter()
            .map(|t| {
                format!(
                    "<div class=\"type-tribe_events\"><span class=time>7:00 pm</span>\
                     <h3><a href=\"/event/{}/\">{t}</a></h3></div>",
                    t.to_lowercase().replace(' ', "-")
                )
            })
            .collect();
        format!(
            "<td data-day=\"2026-12-{day:02}\"><div><a href=\"/events/2026-12-{day:02}/\">{day}</a></div>{inner}</td>"
        )
    }

    fn group(records: Vec<Record>) -> RecordGroup {
        RecordGroup {
            container: Some(0),
            selector: String::new(),
            coverage: 0.0,
            score: 0.0,
            patterns: Vec::new(),
            dropped: None,
            thread: false,
            records,
            stragglers: Vec::new(),
        }
    }

    fn of(doc: &Document, keep: impl Fn(NodeId) -> bool) -> Vec<Record> {
        (0..doc.nodes.len() as NodeId)
            .filter(|&i| keep(i))
            .map(|i| Record {
                start: i,
                end: doc.node(i).end,
            })
            .collect()
    }

    #[test]
    fn a_months_days_give_way_to_their_events() {
        let html = format!(
            "<table><tr>{}<td>7</td>{}<td>9</td>{}<td>11</td><td>12</td></tr></table>",
            cell(6, &["Pancake Breakfast", "Advent Wreath Workshop"]),
            cell(8, &["Holy Day Masses"]),
            cell(10, &["Penance Service", "Youth Caroling"]),
        );
        let doc = crate::extract::dom::parse(&html);
        let cells = of(&doc, |i| doc.is_tag(i, "td") && doc.text_bytes(i) > 2);
        let events = of(&doc, |i| {
            doc.element(i).and_then(|e| e.attr("class")) == Some("type-tribe_events")
        });
        let mut groups = vec![group(cells.clone())];
        assert!(split(&doc, &mut groups));
        assert_eq!(groups[0].records, events);
        // A data table's row is no week: its cells stay records.
        let html = html.replace("<td>11</td><td>12</td>", "");
        let doc = crate::extract::dom::parse(&html);
        let cells = of(&doc, |i| doc.is_tag(i, "td") && doc.text_bytes(i) > 2);
        let mut groups = vec![group(cells.clone())];
        assert!(!split(&doc, &mut groups));
        // Days of one event each are records as they are.
        let html = format!(
            "<table><tr>{}<td>7</td>{}<td>9</td><td>10</td><td>11</td><td>12</td></tr></table>",
            cell(6, &["Pancake Breakfast"]),
            cell(8, &["Holy Day Masses"]),
        );
        let doc = crate::extract::dom::parse(&html);
        let cells = of(&doc, |i| doc.is_tag(i, "td") && doc.text_bytes(i) > 2);
        let events = of(&doc, |i| {
            doc.element(i).and_then(|e| e.attr("class")) == Some("type-tribe_events")
        });
        assert_eq!(events.len(), 2);
        let mut groups = vec![group(cells.clone())];
        assert!(!split(&doc, &mut groups));
        assert_eq!(groups[0].records, cells);
    }
}
