//! A month calendar's day cells: an events calendar lays its month out as
//! a table, one `td` per day, each day holding none, one or several
//! events (`div.type-tribe_events` with its time and `h3` link). The cells
//! that hold events repeat, and cover more of the page than the events
//! inside them, so the miner's best group is the days; but a day is no
//! record, its events are, and a day of two events would be one item.
//!
//! A week is a table row of seven cells, each naming its day in an
//! attribute (`data-day`, FullCalendar's `data-date`): a data table's row
//! is no week. When the winner's records are all days of weeks, or all
//! weeks (FullCalendar's rows win), each day's events are its children
//! holding a headline's link ([`MIN_EVENT_HEADLINE_CHARS`]; the
//! day-number link "6" is none), looked for below the wrappers that hold
//! them all (a cell's frame, its events box). When some day holds several
//! events, or the records are weeks, the events are the winner's records
//! instead, in page order (a day or week without one is none). Each is
//! then dated by the day its cell names (`section_dates`).
//!
//! Invariants: only the winner's records change; they stay disjoint and
//! in page order. Cost: the cells' subtrees are read once per level
//! they are descended (a cell's few wrappers).

use super::{Record, RecordGroup};
use crate::extract::dom::{Document, NodeId};
use crate::extract::section_dates::DAY_CELL_ATTRS;

/// Fewest characters of a link's text for it to be an event's headline.
pub const MIN_EVENT_HEADLINE_CHARS: usize = 8;

/// Put the events of the winner's day cells (or weeks) in place of them
/// (see the module header); true when the winner changed.
pub(super) fn split(doc: &Document, groups: &mut [RecordGroup]) -> bool {
    let Some(winner) = groups.first_mut() else {
        return false;
    };
    let records = &winner.records;
    if records.len() < 2 || winner.dropped.is_some() || winner.thread {
        return false;
    }
    let days = records.iter().all(|r| is_day_cell(doc, r.start));
    let weeks = !days && records.iter().all(|r| is_week(doc, r.start));
    if !days && !weeks {
        return false;
    }
    let day_cells: Vec<NodeId> = match weeks {
        true => records
            .iter()
            .flat_map(|r| cells_of(doc, r.start))
            .collect(),
        false => records.iter().map(|r| r.start).collect(),
    };
    let per_day: Vec<Vec<NodeId>> = day_cells.iter().map(|&c| events_of(doc, c)).collect();
    // A week is never an event; a day is one when it holds only one.
    if !weeks && per_day.iter().all(|e| e.len() <= 1) {
        return false;
    }
    // A day's lone event is of the kind its busy days' events are (a
    // FullCalendar day's one harness, not its whole frame).
    let kinds: Vec<(&str, &str)> = per_day
        .iter()
        .filter(|e| e.len() > 1)
        .flatten()
        .filter_map(|&e| kind_of(doc, e))
        .collect();
    let events: Vec<Record> = per_day
        .into_iter()
        .flatten()
        .map(|e| of_kind_within(doc, e, &kinds).unwrap_or(e))
        .map(|e| Record {
            start: e,
            end: doc.node(e).end,
        })
        .collect();
    if events.is_empty() {
        return false;
    }
    winner.records = events;
    true
}

/// An element's tag and first class: the kind of a day's events.
fn kind_of(doc: &Document, id: NodeId) -> Option<(&str, &str)> {
    let e = doc.element(id)?;
    let class = e
        .attr("class")
        .and_then(|c| c.split_ascii_whitespace().next());
    Some((e.name.as_str(), class.unwrap_or("")))
}

/// `event`, or the first element inside it, of one of `kinds`.
fn of_kind_within(doc: &Document, event: NodeId, kinds: &[(&str, &str)]) -> Option<NodeId> {
    (event..doc.node(event).end).find(|&i| kind_of(doc, i).is_some_and(|k| kinds.contains(&k)))
}

/// Days in a week: a month grid's rows have one cell for each.
const WEEK_DAYS: usize = 7;

/// The cells (`td`, `th`) of table row `row`.
fn cells_of(doc: &Document, row: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    doc.children(row)
        .filter(move |&c| doc.is_tag(c, "td") || doc.is_tag(c, "th"))
}

/// True when `row` is a week of a month grid: [`WEEK_DAYS`] cells, each
/// naming its day ([`names_day`]).
fn is_week(doc: &Document, row: NodeId) -> bool {
    doc.is_tag(row, "tr")
        && cells_of(doc, row).count() == WEEK_DAYS
        && cells_of(doc, row).all(|c| names_day(doc, c))
}

/// True when `cell` is a day of a week ([`is_week`]).
fn is_day_cell(doc: &Document, cell: NodeId) -> bool {
    doc.is_tag(cell, "td") && doc.node(cell).parent.is_some_and(|row| is_week(doc, row))
}

/// True when `cell` names its day in an attribute a calendar writes
/// ([`DAY_CELL_ATTRS`]: `data-day="2026-12-06"`), as an ISO day.
fn names_day(doc: &Document, cell: NodeId) -> bool {
    doc.element(cell).is_some_and(|e| {
        DAY_CELL_ATTRS.iter().filter_map(|a| e.attr(a)).any(|v| {
            let b = v.as_bytes();
            b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-' && b[7] == b'-'
        })
    })
}

/// The events in day cell `cell`: its children that hold a headline
/// link, or, where one child holds them all (a cell's frame, its events
/// box), that child's, and so on down.
fn events_of(doc: &Document, cell: NodeId) -> Vec<NodeId> {
    let mut at = cell;
    loop {
        let kids: Vec<(NodeId, usize)> = doc
            .children(at)
            .filter(|&k| doc.element(k).is_some())
            .map(|k| (k, headlines(doc, k)))
            .filter(|&(_, n)| n > 0)
            .collect();
        match kids.as_slice() {
            [(one, n)] if *n > 1 => at = *one,
            _ => return kids.into_iter().map(|(k, _)| k).collect(),
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
    use crate::extract::records::records_where as of;

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

    #[test]
    fn a_months_days_give_way_to_their_events() {
        let html = format!(
            "<table><tr>{}<td data-day=\"2026-12-07\">7</td>{}<td data-day=\"2026-12-09\">9</td>{}<td data-day=\"2026-12-11\">11</td><td data-day=\"2026-12-12\">12</td></tr></table>",
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
        // Weeks that won (FullCalendar's rows) give way to their events.
        let two_weeks = html.replace("</tr></table>", "</tr>")
            + &html.replace("<table>", "").replace("2026-12-", "2026-11-");
        let doc = crate::extract::dom::parse(&two_weeks);
        let weeks = of(&doc, |i| doc.is_tag(i, "tr"));
        assert_eq!(weeks.len(), 2);
        let mut groups = vec![group(weeks)];
        assert!(split(&doc, &mut groups));
        assert_eq!(groups[0].records.len(), 10);
        // A data table's row is no week: its cells stay records.
        let html = html.replace(
            "<td data-day=\"2026-12-11\">11</td><td data-day=\"2026-12-12\">12</td>",
            "",
        );
        let doc = crate::extract::dom::parse(&html);
        let cells = of(&doc, |i| doc.is_tag(i, "td") && doc.text_bytes(i) > 2);
        let mut groups = vec![group(cells.clone())];
        assert!(!split(&doc, &mut groups));
        // Days of one event each are records as they are.
        let html = format!(
            "<table><tr>{}<td data-day=\"2026-12-07\">7</td>{}<td data-day=\"2026-12-09\">9</td><td data-day=\"2026-12-10\">10</td><td data-day=\"2026-12-11\">11</td><td data-day=\"2026-12-12\">12</td></tr></table>",
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
