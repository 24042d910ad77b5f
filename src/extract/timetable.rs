//! The day of a timetable: a radio station's schedule, a day's fixtures,
//! a conference day's talks list their records by clock time only
//! ("06:00", "7:30 pm") and write the day once, in the heading above the
//! list ("Schedule — Tuesday 1 December 2026").
//!
//! Rules (each tested):
//! - Only a list none of whose records has a date of its own, where at
//!   least [`MIN_TIMED_SHARE`] of its records (and [`MIN_TIMED`] or more)
//!   hold a clock time as a text of its own: a time alone, or a range of
//!   two ("06:00 – 09:00"). Records without times under a dated heading
//!   stay undated: a page title's day ("News of 5 March 2024") is as
//!   often the day the page was updated as the records' own.
//! - The day is that of the nearest heading (`h1`–`h6`) before the first
//!   record, looked for at most [`MAX_HEADING_DISTANCE`] nodes back, when
//!   it names a day (as a section heading does, see `section_dates`).
//! - Each record takes that day at its own first clock time, in the
//!   page's offset; a record without a time takes the day alone (noon).
//!   A heading that moves with the clock ("Today") makes the dates
//!   relative.
//!
//! Work: one pass over the records' nodes, and at most
//! [`MAX_HEADING_DISTANCE`] nodes before the list.

use chrono::{DateTime, FixedOffset, NaiveTime, TimeZone};

use crate::extract::dates::DateContext;
use crate::extract::dom::{Document, NodeData, NodeId, is_heading};
use crate::extract::items::Item;
use crate::extract::records::Record;
use crate::extract::section_dates::heading_day;

/// Fewest records with a clock time for a list to be a timetable.
pub const MIN_TIMED: usize = 3;

/// Least share of the records holding a clock time (one may be a live
/// programme shown as "On air", or a record the list split oddly).
pub const MIN_TIMED_SHARE: f64 = 0.75;

/// Farthest (in nodes) the heading may stand before the first record: a
/// day selector and a note may come between.
pub const MAX_HEADING_DISTANCE: NodeId = 200;

/// Longest text read as a clock time (bytes).
const MAX_TIME_BYTES: usize = 24;

/// Date `items` (built from `records`, one each) by the day of the
/// heading above them when the list is a timetable (see the module
/// header). Items keep their own dates; here none has one.
pub fn date_timetable(doc: &Document, records: &[Record], items: &mut [Item], ctx: &DateContext) {
    if records.len() < MIN_TIMED || items.iter().any(|it| it.date.is_some()) {
        return;
    }
    let times: Vec<Option<NaiveTime>> = records.iter().map(|r| first_clock_time(doc, r)).collect();
    let timed = times.iter().flatten().count();
    if timed < MIN_TIMED || (timed as f64) < MIN_TIMED_SHARE * records.len() as f64 {
        return;
    }
    let Some(heading) = heading_before(doc, records[0].start) else {
        return;
    };
    let Some((day, relative)) = heading_day(&doc.text(heading), ctx) else {
        return;
    };
    for (item, time) in items.iter_mut().zip(times) {
        item.date = Some(time.and_then(|t| at(day, t)).unwrap_or(day));
        item.date_relative = relative;
    }
}

/// `day` at clock time `t`, in its own offset.
fn at(day: DateTime<FixedOffset>, t: NaiveTime) -> Option<DateTime<FixedOffset>> {
    day.offset()
        .from_local_datetime(&day.date_naive().and_time(t))
        .single()
}

/// The nearest heading that ends before node `first`, at most
/// [`MAX_HEADING_DISTANCE`] nodes back.
fn heading_before(doc: &Document, first: NodeId) -> Option<NodeId> {
    (first.saturating_sub(MAX_HEADING_DISTANCE)..first)
        .rev()
        .find(|&id| doc.tag(id).is_some_and(is_heading) && doc.node(id).end <= first)
}

/// The first text of `record` that is a clock time and nothing else.
fn first_clock_time(doc: &Document, record: &Record) -> Option<NaiveTime> {
    (record.start..record.end).find_map(|i| match &doc.node(i).data {
        NodeData::Text { text, blank: false } if text.len() <= MAX_TIME_BYTES => clock_time(text),
        _ => None,
    })
}

/// A clock time alone ("06:00", "7:30 pm", "18.30", "9:15 a.m.") or a
/// range of two ("06:00 – 09:00", "6:00-9:00 pm"): its (first) time.
pub fn clock_time(text: &str) -> Option<NaiveTime> {
    if !text.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut parts = text.split(['–', '—', '-']);
    let first = parts.next()?;
    let second = parts.next();
    if parts.next().is_some() {
        return None;
    }
    // In "6:00-9:00 pm" the first part takes the second's half of the day.
    let half = second.and_then(|s| one_time(s).map(|(_, half)| half));
    let (t, own) = one_time(first)?;
    let pm = own.or(half.flatten()) == Some(Half::Pm);
    let hour = t.0 + if pm && t.0 < 12 { 12 } else { 0 };
    let hour = if own == Some(Half::Am) && t.0 == 12 {
        0
    } else {
        hour
    };
    NaiveTime::from_hms_opt(hour, t.1, 0)
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Half {
    Am,
    Pm,
}

/// One clock time: hour and minute, and the half of the day it names.
fn one_time(s: &str) -> Option<((u32, u32), Option<Half>)> {
    let s = s.trim().to_ascii_lowercase();
    let (digits, half) = match s.strip_suffix("am").or_else(|| s.strip_suffix("a.m.")) {
        Some(rest) => (rest.trim_end(), Some(Half::Am)),
        None => match s.strip_suffix("pm").or_else(|| s.strip_suffix("p.m.")) {
            Some(rest) => (rest.trim_end(), Some(Half::Pm)),
            None => (s.as_str(), None),
        },
    };
    let (h, m) = digits.split_once([':', '.'])?;
    let numeric = |p: &str, lens: std::ops::RangeInclusive<usize>| {
        lens.contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit())
    };
    if !numeric(h, 1..=2) || !numeric(m, 2..=2) {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    let max_hour = if half.is_some() { 12 } else { 23 };
    (h <= max_hour && m < 60 && (half.is_none() || h >= 1)).then_some(((h, m), half))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom;

    fn ctx() -> DateContext {
        DateContext::utc_at(2026, 12, 1, 9)
    }

    fn hm(h: u32, m: u32) -> Option<NaiveTime> {
        NaiveTime::from_hms_opt(h, m, 0)
    }

    #[test]
    fn clock_times_alone_or_in_ranges_are_read() {
        assert_eq!(clock_time("06:00"), hm(6, 0));
        assert_eq!(clock_time(" 7:30 pm "), hm(19, 30));
        assert_eq!(clock_time("18.30"), hm(18, 30));
        assert_eq!(clock_time("9:15 a.m."), hm(9, 15));
        assert_eq!(clock_time("12:00 am"), hm(0, 0));
        assert_eq!(clock_time("06:00 – 09:00"), hm(6, 0));
        assert_eq!(clock_time("6:00-9:00 pm"), hm(18, 0));
        // Scores, versions, prices, dates and durations are no times.
        for no in [
            "3-1",
            "2.10.2",
            "4.99",
            "25:00",
            "10:5",
            "1:30:00",
            "Ep. 4",
            "2026-12-01",
            "13:00 pm",
        ] {
            assert_eq!(clock_time(no), None, "{no}");
        }
    }

    /// Every `<li>` of `html` as a record, and an undated item for each.
    fn timetable(html: &str) -> Vec<Item> {
        let doc = dom::parse(html);
        let records: Vec<Record> = (0..doc.nodes.len() as NodeId)
            .filter(|&i| doc.is_tag(i, "li"))
            .map(|i| Record {
                start: i,
                end: doc.node(i).end,
            })
            .collect();
        let mut items = vec![Item::bare("programme"); records.len()];
        date_timetable(&doc, &records, &mut items, &ctx());
        items
    }

    fn days(items: &[Item]) -> Vec<Option<String>> {
        items
            .iter()
            .map(|it| it.date.map(|d| d.format("%Y-%m-%d %H:%M").to_string()))
            .collect()
    }

    #[test]
    fn a_schedule_under_a_dated_heading_takes_its_day_at_each_time() {
        let html = "<h1>Schedule — Tuesday 1 December 2026</h1><nav><a href=/d/2>Wed 2</a></nav>\
            <ul><li><span>06:00</span> <a href=/p/1>Early Shift</a></li>\
            <li><span>09:00 – 10:00</span> <a href=/p/2>Ask the Expert</a></li>\
            <li><span>On air</span> <a href=/p/3>Kathy Oduya</a></li>\
            <li><span>1:30 pm</span> <a href=/p/4>The Quiz</a></li></ul>";
        assert_eq!(
            days(&timetable(html)),
            [
                "2026-12-01 06:00",
                "2026-12-01 09:00",
                "2026-12-01 12:00",
                "2026-12-01 13:30"
            ]
            .map(|d| Some(d.to_string()))
        );
    }

    #[test]
    fn a_dated_page_title_does_not_date_records_without_times() {
        let html = "<h1>News of 1 December 2026</h1><ul>\
            <li><a href=/n/1>Bridge reopens</a> by Ann</li>\
            <li><a href=/n/2>Market moves</a> by Bo</li>\
            <li><a href=/n/3>New library</a> by Cy</li></ul>";
        assert_eq!(days(&timetable(html)), [None, None, None]);
    }

    #[test]
    fn an_undated_heading_or_too_few_times_date_nothing() {
        let undated = "<h1>Today's schedule</h1><ul>\
            <li>06:00 <a href=/p/1>A</a></li><li>07:00 <a href=/p/2>B</a></li>\
            <li>08:00 <a href=/p/3>C</a></li></ul>";
        let slots = "<li><span>06:00</span> <a href=/p/1>A</a></li>\
            <li><span>07:00</span> <a href=/p/2>B</a></li>\
            <li><a href=/p/3>C</a></li><li><a href=/p/4>D</a></li>";
        let few = format!("<h2>Tuesday 1 December 2026</h2><ul>{slots}</ul>");
        assert_eq!(days(&timetable(undated)), [None, None, None]);
        assert_eq!(days(&timetable(&few)), [None, None, None, None]);
    }
}
