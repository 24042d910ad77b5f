//! Dates that a list's section headings give its records: an archive split
//! by day ("Tue, 9 Nov 2021", "Today", "Monday 4 March 2024" as `<h3>`
//! above each day's records) often writes the date only once per section.
//!
//! Rules (each tested):
//! - The list must show that it is split by date: at least one date
//!   heading stands between two of its records. One date heading above
//!   the whole list (a page title "News of 5 March 2024") dates nothing,
//!   unless the records are a timetable's, times without dates (see
//!   `timetable`).
//! - A record's section date is that of the last heading before it and
//!   after the previous record. A heading that is not a date ("Sport",
//!   "Older") starts a section without one.
//! - The first section's heading is looked for just before the list: the
//!   nearest element sibling before the first record, or before one of its
//!   ancestors up to the one below the records' common ancestor (or the
//!   heading such a sibling holds with little else: a header block with
//!   its "Popular / Newest" switch), or the
//!   heading that opens one of those ancestors (a session's title above
//!   its chair line and papers).
//! - A date heading names a day, as its whole text or in a longer title
//!   ("Session 3B: Storage — Wed 3 June 2026, 10:30"): "March 2024" or
//!   "2023" name a period and are not dates here.
//! - A heading without a year ("Wednesday, March 13") after a dated section
//!   takes the year that puts it nearest that section (the page writes the
//!   year once, in its first heading); the first heading takes the
//!   reader's year, as any yearless date.
//! - A heading that names no day ("Top products launching today") is
//!   dated by a `<time>` right after it (its `datetime`, else its text):
//!   a header block holding the two and nothing else heads the list.
//! - Only headings count (`h1`–`h6`, a table's row of one header
//!   cell or one cell spanning columns: a court calendar's day rows, and
//!   an element whose class names a date header or divider, linking
//!   nothing: an activity feed's `div.phui-feed-story-date-header`),
//!   never record text: this module fills
//!   dates that records lack; it never replaces a record's own date. A day
//!   only the record's prose names ("The board met on 19 November 2026")
//!   is not its own: under a day heading the record reads none
//!   (`DateContext::section_dated`), and the heading's day dates it.
//! - A month heading ("December 2026" above an events list whose cards
//!   show "Sat 5 Dec") gives no date, but the records' own yearless days
//!   are read in the year that puts them nearest the middle of its month
//!   (`DateContext::year_near`), not in the reader's year: upcoming events
//!   are not last year's. A day heading does the same for its records.
//!   Month headings, too, must split the list to count.
//! - A table cell spanning rows (`<td rowspan=10>NOV 2026</td>` on the
//!   first row of each month of a diary) heads the rows it spans: a row
//!   without a date of its own takes the day the cell names, or the day
//!   of the cell's month that the row's own day-number cell gives ("16").
//! - A description (`dd`) that is a record of its own after another
//!   description of its term (`<dt>27 Nov</dt><dd>…</dd><dd>…</dd>`)
//!   takes the day its term names: both describe it.
//! - Outside such sections, a record's yearless day is read near the date
//!   of the record before it: a list runs in date order and may write the
//!   year only on its first record of each year ("05 Mar 2024", "08 Mar").
//!   Only a date whose year is written, or was read near one, carries its
//!   year on (one read without looking at the clock, `dates::reads_clock`):
//!   a pinned post's "Mar 3", read in the reader's year, says nothing of
//!   the year of the "Nov 28" below it.
//!
//! Work is one pass over the nodes between records (each node once) plus
//! one walk up from the first record, and one pass over the rows of each
//! table body holding records.

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate};

use crate::extract::dates::{
    DateContext, find_date, parse_date, parse_day, parse_range_start, reads_clock,
};
use crate::extract::dom::{Document, NodeData, NodeId, find_ascii_ci, is_heading};
use crate::extract::items::{Item, date_moves_with_clock, is_advertising};
use crate::extract::records::Record;
use crate::extract::timetable::date_timetable;

/// Longest heading text read for a date (bytes, whitespace collapsed): a
/// day heading, or a section title with its day and time in it.
const MAX_HEADING_BYTES: usize = 120;

/// A section's date as its heading gives it, read once per heading.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SectionDate {
    date: DateTime<FixedOffset>,
    /// The heading moves with the clock ("Today"), as a relative date does.
    relative: bool,
}

/// What a record's section gives it: the day its day heading names, and
/// the day near which the record's own yearless days are read (the middle
/// of a month heading's month, or a day heading's day).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Section {
    day: Option<SectionDate>,
    year_near: Option<NaiveDate>,
}

impl Section {
    /// The reading context of a record in this section: `ctx`, with its
    /// yearless days read near the section's day or month, else near
    /// `previous` (the date of the record before it).
    fn reading(&self, ctx: &DateContext, previous: Option<NaiveDate>) -> DateContext {
        DateContext {
            year_near: self.year_near.or(previous),
            section_dated: self.day.is_some(),
            ..*ctx
        }
    }

    /// Give `item`, when it has no date of its own, the section's day,
    /// marked relative when the heading moves with the clock ("Today").
    fn fill(&self, item: &mut Item) {
        if let (None, Some(s)) = (item.date, self.day) {
            item.date = Some(s.date);
            item.date_relative = s.relative;
        }
    }
}

/// For each of `records` (disjoint, in document order), what its section
/// heading gives it. All empty unless the list is split by date or month
/// headings (see the module header); each kind of heading must split it
/// for itself.
fn sections(doc: &Document, records: &[Record], ctx: &DateContext) -> Vec<Section> {
    let mut out = vec![Section::default(); records.len()];
    let (Some(first), Some(last)) = (records.first(), records.last()) else {
        return out;
    };
    let (mut by_day, mut by_month) = (false, false);
    let mut current = heading_before_list(doc, first.start, last.start)
        .map(|h| read_heading(doc, h, ctx, None))
        .unwrap_or_default();
    for (i, r) in records.iter().enumerate() {
        if i > 0
            && let Some(heading) = last_heading_in(doc, records[i - 1].end..r.start)
        {
            let anchor = current.day.filter(|c| !c.relative).map(|c| c.date);
            current = read_heading(doc, heading, ctx, anchor);
            by_day |= current.day.is_some();
            by_month |= current.day.is_none() && current.year_near.is_some();
        }
        out[i] = current;
    }
    for s in &mut out {
        if !by_day {
            s.day = None;
        }
        if !by_day && !by_month {
            s.year_near = None;
        }
    }
    out
}

/// The items of `records` (disjoint, in document order), each built by
/// `build` (given the record's index and reading context) in its section's
/// reading context ([`Section::reading`], after the date of the record
/// before it), then given its section's day when it has none; a
/// timetable's records, none dated, the day of the heading above them
/// ([`date_timetable`]).
pub fn items_in_sections(
    doc: &Document,
    records: &[Record],
    ctx: &DateContext,
    mut build: impl FnMut(usize, &DateContext) -> Item,
) -> Vec<Item> {
    let mut previous = None;
    let spans = spanning_cells(doc, records);
    // The spanning cell last read, as a heading: its rows share it.
    let mut span: Option<(NodeId, Section)> = None;
    let mut items: Vec<Item> = sections(doc, records, ctx)
        .iter()
        .enumerate()
        .map(|(i, section)| {
            let (mut item, clocked) = reads_clock(|| build(i, &section.reading(ctx, previous)));
            section.fill(&mut item);
            if item.date.is_none()
                && let Some(cell) = spans[i]
            {
                let heading = match span {
                    Some((read, heading)) if read == cell => heading,
                    _ => read_heading_text(doc, cell, &cell_text(doc, cell), ctx, None),
                };
                span = Some((cell, heading));
                item.date = span_date(doc, &heading, cell, records[i].start, ctx);
            }
            if item.date.is_none() {
                item.date = term_day(doc, records[i].start, ctx);
            }
            if item.date.is_none() {
                item.date = cell_day(doc, records[i].start, ctx);
            }
            // Only a date whose year is written, or read near one, carries
            // its year on: one read in the reader's year (a pinned post's
            // "Mar 3" above the newest) says nothing of the next record's.
            if !clocked {
                previous = item.date.map(|d| d.date_naive()).or(previous);
            }
            item
        })
        .collect();
    date_timetable(doc, records, &mut items, ctx);
    items
}

/// The day heading text `text` names and whether it moves with the clock
/// ("Today"), read as a section heading is ([`date_heading`]).
pub(crate) fn heading_day(text: &str, ctx: &DateContext) -> Option<(DateTime<FixedOffset>, bool)> {
    if text.len() > MAX_HEADING_BYTES {
        return None;
    }
    date_heading(without_count(text), ctx, None).map(|d| (d.date, d.relative))
}

/// For each record that is a table row, the cell spanning down over it
/// (`<td rowspan=10>NOV 2026</td>` on the first row of each month of a
/// diary): the rows it spans are its section. One pass over the rows of
/// each table body holding records.
fn spanning_cells(doc: &Document, records: &[Record]) -> Vec<Option<NodeId>> {
    let mut out = vec![None; records.len()];
    let mut i = 0;
    while i < records.len() {
        let row = records[i].start;
        let Some(body) = doc.node(row).parent.filter(|_| doc.is_tag(row, "tr")) else {
            i += 1;
            continue;
        };
        // The spanning cell and the rows it still covers.
        let mut active: Option<(NodeId, u32)> = None;
        for child in doc.children(body).filter(|&c| doc.is_tag(c, "tr")) {
            if let Some(cell) = spanning_cell(doc, child) {
                active = Some(cell);
            }
            while i < records.len() && records[i].start < child {
                i += 1;
            }
            if i < records.len() && records[i].start == child {
                out[i] = active.map(|(cell, _)| cell);
                i += 1;
            }
            active = active
                .filter(|&(_, left)| left > 1)
                .map(|(c, left)| (c, left - 1));
        }
        let body_end = doc.node(body).end;
        while i < records.len() && records[i].start < body_end {
            i += 1;
        }
    }
    out
}

/// Most descriptions one term of a definition list is looked for over.
const MAX_DESCRIPTIONS_PER_TERM: usize = 8;

/// Attributes of a calendar's day cell that name its day (`data-day` in
/// The Events Calendar's month view, `data-date` in FullCalendar's).
pub const DAY_CELL_ATTRS: &[&str] = &["data-day", "data-date"];

/// Levels above a record its day cell is looked for.
const DAY_CELL_LEVELS: usize = 4;

/// The day named by a day attribute ([`DAY_CELL_ATTRS`]) of the table
/// cell that is `record` or holds it within [`DAY_CELL_LEVELS`]: a month
/// grid's `<td data-day="2026-12-06">` around the events of that day,
/// which show only their times.
fn cell_day(doc: &Document, record: NodeId, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    std::iter::once(record)
        .chain(doc.ancestors(record).take(DAY_CELL_LEVELS))
        .filter(|&a| doc.is_tag(a, "td"))
        .find_map(|a| {
            let cell = doc.element(a)?;
            let day = DAY_CELL_ATTRS.iter().find_map(|n| cell.attr(n))?;
            parse_day(day, ctx)
        })
}

/// The day the term of description `dd` names, when `dd` is a record of
/// its own after another description of that term (`<dt>27 Nov</dt>
/// <dd>…</dd><dd>…</dd>`: both describe it): the first `<time>` of the
/// `dt` (its `datetime`, else its text), else the `dt`'s short text.
/// The `dt` is looked for over at most [`MAX_DESCRIPTIONS_PER_TERM`]
/// descriptions.
fn term_day(doc: &Document, dd: NodeId, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    if !doc.is_tag(dd, "dd") {
        return None;
    }
    let mut at = dd;
    for _ in 0..MAX_DESCRIPTIONS_PER_TERM {
        at = doc.previous_element(at)?;
        match doc.tag(at) {
            Some("dd") => continue,
            Some("dt") => {
                let time = (at..doc.node(at).end).find(|&i| doc.is_tag(i, "time"));
                return match time {
                    Some(t) => time_day(doc, t, ctx),
                    None => Some(doc.text(at))
                        .filter(|t| t.len() <= MAX_HEADING_BYTES)
                        .and_then(|t| parse_day(&t, ctx)),
                };
            }
            _ => return None,
        }
    }
    None
}

/// The text nodes of `cell` joined with spaces (at most
/// [`MAX_HEADING_BYTES`] and a node): a diary's month cell stacks its
/// parts by CSS (`<strong>NOV</strong><small>2026</small>`), which its
/// visible text glues into "NOV2026".
fn cell_text(doc: &Document, cell: NodeId) -> String {
    let mut out = String::new();
    for i in cell..doc.node(cell).end {
        if let NodeData::Text { text, blank: false } = &doc.node(i).data {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(text.trim());
            if out.len() > MAX_HEADING_BYTES {
                break;
            }
        }
    }
    out
}

/// The first cell of `row` spanning more than one row, with its span.
fn spanning_cell(doc: &Document, row: NodeId) -> Option<(NodeId, u32)> {
    doc.children(row).find_map(|c| {
        let e = doc
            .element(c)
            .filter(|e| e.name == "td" || e.name == "th")?;
        let span: u32 = e.attr("rowspan")?.trim().parse().ok()?;
        (span > 1).then_some((c, span))
    })
}

/// The date a spanning `cell`, read as a heading (`heading`), gives
/// `row`: the day it names, or, when it names a month ("NOV 2026"), that
/// month's day the row gives in a cell of its own that is only a day
/// number ("16").
fn span_date(
    doc: &Document,
    heading: &Section,
    cell: NodeId,
    row: NodeId,
    ctx: &DateContext,
) -> Option<DateTime<FixedOffset>> {
    if let Some(day) = heading.day {
        return Some(day.date);
    }
    let month = heading.year_near?;
    let day = doc
        .children(row)
        .filter(|&c| c != cell && (doc.is_tag(c, "td") || doc.is_tag(c, "th")))
        .find_map(|c| day_number(&doc.text(c)))?;
    month
        .with_day(day)?
        .and_hms_opt(12, 0, 0)?
        .and_local_timezone(ctx.offset)
        .single()
}

/// A cell's text that is only a day of the month ("16", "03").
fn day_number(text: &str) -> Option<u32> {
    let t = text.trim();
    let day: u32 = (t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()?;
    (1..=31).contains(&day).then_some(day)
}

/// True when `id` heads a section: a heading element, or a table's row
/// of one cell that is a header cell or spans columns (a court
/// calendar's `<tr><th colspan=6>Thursday, December 3, 2026</th></tr>`
/// over the day's hearings) and says something; an advertisement's row
/// between the records (`tr.ad-row`, its slot filled by a script) heads
/// nothing. So does an element whose class names it a day's divider
/// ([`is_day_divider`]).
fn is_section_heading(doc: &Document, id: NodeId) -> bool {
    match doc.tag(id) {
        Some("tr") => {
            let mut cells = doc.children(id).filter(|&c| doc.element(c).is_some());
            match (cells.next(), cells.next()) {
                (Some(cell), None) => {
                    (doc.is_tag(cell, "th") || doc.colspan(cell) >= 2)
                        && doc.text_bytes(cell) > 0
                        && !is_advertising(
                            doc,
                            &Record {
                                start: id,
                                end: doc.node(id).end,
                            },
                        )
                }
                _ => false,
            }
        }
        Some(tag) => is_heading(tag) || is_day_divider(doc, id),
        None => false,
    }
}

/// Words of a class that name a date or a day, and ...
const DAY_CLASS_WORDS: &[&str] = &["date", "day"];
/// ... words that name it a header or a divider.
const DIVIDER_CLASS_WORDS: &[&str] = &["header", "heading", "divider", "separator"];

/// True when element `id` is a day's divider written without a heading
/// element: its class names a date and a header or divider (an activity
/// feed's `div.phui-feed-story-date-header` "Mon, Nov 30", a chat's
/// `div.date-separator`), it links nothing and its text is short.
fn is_day_divider(doc: &Document, id: NodeId) -> bool {
    let Some(class) = doc.element(id).and_then(|e| e.attr("class")) else {
        return false;
    };
    let names = |words: &[&str]| {
        words
            .iter()
            .any(|w| find_ascii_ci(class.as_bytes(), w.as_bytes()).is_some())
    };
    let bytes = doc.text_bytes(id);
    names(DAY_CLASS_WORDS)
        && names(DIVIDER_CLASS_WORDS)
        && bytes > 0
        && bytes <= MAX_HEADING_BYTES
        && !(id..doc.node(id).end).any(|i| doc.is_tag(i, "a"))
}

/// The last heading element among the nodes `gap` (outside any record).
fn last_heading_in(doc: &Document, gap: std::ops::Range<NodeId>) -> Option<NodeId> {
    let mut found = None;
    let mut id = gap.start;
    while id < gap.end {
        if is_section_heading(doc, id) {
            found = Some(id);
            // Nothing inside a heading is a heading of its own section.
            id = doc.node(id).end;
        } else {
            id += 1;
        }
    }
    found
}

/// The date heading right before the list: the nearest element sibling
/// before `first` or before one of its ancestors below the common
/// ancestor of `first` and `last`.
fn heading_before_list(doc: &Document, first: NodeId, last: NodeId) -> Option<NodeId> {
    let mut node = first;
    while let Some(parent) = doc.node(node).parent {
        if let Some(prev) = doc.previous_element(node)
            && let Some(h) = header_heading(doc, prev)
        {
            return Some(h);
        }
        // `parent` holds `last` too: it is the common ancestor.
        if last < doc.node(parent).end {
            return None;
        }
        // A section that opens with its heading holds the list below it
        // ("Session 1A: … — Tue 2 June 2026", a chair line, the papers).
        if let Some(opening) = doc.children(parent).find(|&c| doc.element(c).is_some())
            && opening != node
            && doc.tag(opening).is_some_and(is_heading)
        {
            return Some(opening);
        }
        node = parent;
    }
    None
}

/// Text bytes of the links and buttons a header block may hold beside
/// its heading (a "Popular / Newest" switch).
const HEADER_EXTRA_TEXT: usize = 40;

/// `id` when it is a heading, or the heading a header block around it
/// holds with nothing else but a few links or buttons: a leaderboard's `div` holding "Launches for
/// March 9, 2024" and its "Popular / Newest" buttons, above the day's list;
/// or the count of its section ([`counted`]).
fn header_heading(doc: &Document, id: NodeId) -> Option<NodeId> {
    if is_section_heading(doc, id) {
        return Some(id);
    }
    let h = (id..doc.node(id).end).find(|&i| doc.tag(i).is_some_and(is_heading))?;
    let controls = doc
        .controls_beside(id, h)
        .is_some_and(|bytes| bytes <= HEADER_EXTRA_TEXT);
    // Or a heading and its day beside it, and nothing else.
    let dated = || {
        time_beside(doc, h)
            .is_some_and(|t| doc.text_bytes(id) == doc.text_bytes(h) + doc.text_bytes(t))
    };
    (controls || dated() || counted(doc, id, h)).then_some(h)
}

/// True when header block `id` holds heading `h` and beside it only the
/// count of its section ("Week of 23 November 2026" and "8 new titles",
/// "(12)"): a short text that opens with a number.
fn counted(doc: &Document, id: NodeId, h: NodeId) -> bool {
    let extra = doc.text_bytes(id).saturating_sub(doc.text_bytes(h));
    let beside = (id..doc.node(id).end)
        .filter(|&i| i < h || i >= doc.node(h).end)
        .find_map(|i| match &doc.node(i).data {
            NodeData::Text { text, blank: false } => {
                Some(text.trim_start().trim_start_matches('('))
            }
            _ => None,
        });
    extra > 0
        && extra <= HEADER_EXTRA_TEXT
        && beside.is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit()))
}

/// The `<time>` right after heading `h`, its next element sibling: a
/// launch board's "Top products launching today" beside "<time
/// datetime=2026-11-29>Sunday, November 29, 2026</time>".
fn time_beside(doc: &Document, h: NodeId) -> Option<NodeId> {
    doc.next_element(h).filter(|&next| doc.is_tag(next, "time"))
}

/// The day a `<time>` element names: its `datetime`, else its text.
fn time_day(doc: &Document, t: NodeId, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    doc.element(t)?
        .attr("datetime")
        .and_then(|d| parse_day(d, ctx))
        .or_else(|| parse_day(&doc.text(t), ctx))
}

/// What heading `id` gives its section: the day it names, else the month
/// ("December 2026", whose middle day its records' yearless days are read
/// near).
fn read_heading(
    doc: &Document,
    id: NodeId,
    ctx: &DateContext,
    anchor: Option<DateTime<FixedOffset>>,
) -> Section {
    read_heading_text(doc, id, &doc.text(id), ctx, anchor)
}

/// [`read_heading`] of heading `id` whose text is `text`.
fn read_heading_text(
    doc: &Document,
    id: NodeId,
    text: &str,
    ctx: &DateContext,
    anchor: Option<DateTime<FixedOffset>>,
) -> Section {
    if text.len() > MAX_HEADING_BYTES {
        return Section::default();
    }
    let heading = without_count(text);
    let beside = || {
        let date = time_day(doc, time_beside(doc, id)?, ctx)?;
        Some(SectionDate {
            date,
            relative: false,
        })
    };
    match date_heading(heading, ctx, anchor).or_else(beside) {
        Some(day) => Section {
            year_near: (!day.relative).then(|| day.date.date_naive()),
            day: Some(day),
        },
        None => {
            let period = without_count_words(heading);
            Section {
                day: None,
                year_near: month_heading(period, ctx).or_else(|| year_heading(period)),
            }
        }
    }
}

/// A heading without the count that ends it ("2024 5 posts", "March 2024
/// 7 events"): a number and one word.
fn without_count_words(heading: &str) -> &str {
    let t = heading.trim_end();
    let Some((rest, word)) = t.rsplit_once(char::is_whitespace) else {
        return heading;
    };
    let Some((before, number)) = rest.trim_end().rsplit_once(char::is_whitespace) else {
        return heading;
    };
    let counts = word.chars().all(char::is_alphabetic)
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit());
    if counts { before.trim_end() } else { heading }
}

/// The middle of the year a heading names as its whole text ("2024"): the
/// yearless days below it ("Mar 4") are read in that year.
fn year_heading(heading: &str) -> Option<NaiveDate> {
    let t = heading.trim();
    let year: i32 = t.parse().ok().filter(|_| t.len() == 4)?;
    (1990..=2039)
        .contains(&year)
        .then(|| NaiveDate::from_ymd_opt(year, 7, 1))
        .flatten()
}

/// A heading without the count in brackets after it: "March 2024 (7
/// events)" names March 2024, "2023 (14)" its year.
fn without_count(heading: &str) -> &str {
    let t = heading.trim_end();
    match t.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
        Some((before, count)) if count.trim_start().starts_with(|c: char| c.is_ascii_digit()) => {
            before.trim_end()
        }
        _ => heading,
    }
}

/// The middle day of the month a heading names as its whole text
/// ("December 2026", "Dec 2026"): a date that names no day.
fn month_heading(heading: &str, ctx: &DateContext) -> Option<NaiveDate> {
    if parse_day(heading, ctx).is_some() {
        return None;
    }
    parse_date(heading, ctx)?.date_naive().with_day(MID_MONTH)
}

/// The day of a month its yearless days are read near: the middle, so
/// that a day of the month before or after is still nearest its own year.
const MID_MONTH: u32 = 15;

/// The day `heading` names, if its whole text is a date of a day. A
/// day without a year ("Wednesday, March 13") after a dated section
/// (`anchor`) is in the year that puts it nearest that section, as the
/// page's own sections run ("March 12, 2024", "March 13", ...; across a
/// new year too); without an anchor it takes the reader's year, as any
/// yearless date does.
fn date_heading(
    heading: &str,
    ctx: &DateContext,
    anchor: Option<DateTime<FixedOffset>>,
) -> Option<SectionDate> {
    let (found, clocked) = reads_clock(|| day_in(heading, ctx));
    let (text, date) = found?;
    let relative = clocked && date_moves_with_clock(text, ctx, date);
    let near_anchor = anchor.filter(|_| !relative).and_then(|a| {
        let near = DateContext {
            year_near: Some(a.date_naive()),
            ..*ctx
        };
        parse_day(text, &near)
    });
    Some(SectionDate {
        date: near_anchor.unwrap_or(date),
        relative,
    })
}

/// The day a heading names: its whole text, or the first date in it when
/// that date names a day ("Session 3B: Storage — Wed 3 June 2026, 10:30");
/// with the text the day was read from.
fn day_in<'t>(heading: &'t str, ctx: &DateContext) -> Option<(&'t str, DateTime<FixedOffset>)> {
    if let Some(date) = parse_day(heading, ctx) {
        return Some((heading, date));
    }
    let (_, span) = find_date(heading, ctx)?;
    let text = heading.get(span)?;
    let day = parse_day(text, ctx).or_else(|| parse_range_start(text, ctx))?;
    Some((text, day))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom;

    fn ctx() -> DateContext {
        DateContext::utc_at(2024, 3, 10, 12)
    }

    /// Every `<li>` of `doc`, as a record.
    fn li_records(doc: &Document) -> Vec<Record> {
        (0..doc.nodes.len() as NodeId)
            .filter(|&id| doc.is_tag(id, "li"))
            .map(|id| Record {
                start: id,
                end: doc.node(id).end,
            })
            .collect()
    }

    /// Every `<li>` of `html` is a record; the days of their section dates.
    fn days(html: &str) -> Vec<Option<String>> {
        days_at(html, &ctx())
    }

    /// [`days`] read in `ctx`.
    fn days_at(html: &str, ctx: &DateContext) -> Vec<Option<String>> {
        let doc = dom::parse(html);
        let records = li_records(&doc);
        sections(&doc, &records, ctx)
            .into_iter()
            .map(|s| s.day.map(|d| d.date.date_naive().to_string()))
            .collect()
    }

    fn some(days: &[&str]) -> Vec<Option<String>> {
        days.iter().map(|d| Some((*d).to_owned())).collect()
    }

    /// Regression (round 65, a project's activity feed): its day headers
    /// are `div`s classed `phui-feed-story-date-header`, no heading
    /// elements, and its stories were left undated. A divider whose class
    /// names a date heads a section; one that links or says too much, or
    /// whose class names no date, does not.
    #[test]
    fn a_div_classed_as_a_date_header_heads_its_day() {
        let html = "<div class=feed><div class=phui-feed-story-date-header>Sat, Mar 9</div>\
            <ul><li>alice closed T1</li><li>bob claimed T2</li></ul>\
            <div class='date-separator'>Fri, Mar 8</div><ul><li>zoe edited Release</li></ul>\
            <div class=load-more-header>Fri, Mar 1</div><ul><li>old</li></ul>\
            <div class=day-divider><a href=/d/7>Thu, Mar 7</a></div><ul><li>linked</li></ul></div>";
        let mut want = some(&["2024-03-09", "2024-03-09", "2024-03-08", "2024-03-08"]);
        want.push(Some("2024-03-08".into()));
        assert_eq!(days(html), want);
    }

    /// Regression (a film diary): the month is a cell spanning the month's
    /// rows ("NOV 2026", `rowspan`), the day a cell of each row ("16"):
    /// no row had a date.
    #[test]
    fn a_cell_spanning_rows_dates_them_with_their_day_cells() {
        let row = |lead: &str, day: u32, film: &str| {
            format!(
                "<tr>{lead}<td class=td-day><a href=/d/{day}/>{day}</a></td>\
                 <td><h3><a href=/film/{film}/>{film}</a></h3></td><td>2011</td></tr>"
            )
        };
        let html = [
            "<table><tbody>".to_string(),
            row(
                "<td rowspan=3><strong>NOV</strong> <small>2023</small></td>",
                16,
                "a",
            ),
            row("", 9, "b"),
            row("", 2, "c"),
            row("<td rowspan=2>Sat 28 Oct 2023</td>", 28, "d"),
            row("", 28, "e"),
            // Past the span: no section.
            row("", 3, "f"),
            "</tbody></table>".to_string(),
        ]
        .concat();
        let doc = dom::parse(&html);
        let records: Vec<Record> = (0..doc.nodes.len() as NodeId)
            .filter(|&id| doc.is_tag(id, "tr"))
            .map(|id| Record {
                start: id,
                end: doc.node(id).end,
            })
            .collect();
        let items = items_in_sections(&doc, &records, &ctx(), |_, _| Item::bare("x"));
        let got: Vec<Option<String>> = items
            .iter()
            .map(|i| i.date.map(|d| d.date_naive().to_string()))
            .collect();
        let mut want = some(&[
            "2023-11-16",
            "2023-11-09",
            "2023-11-02",
            "2023-10-28",
            "2023-10-28",
        ]);
        want.push(None);
        assert_eq!(got, want);
    }

    /// Every element of `tag` in `doc`, as a record; the days
    /// [`items_in_sections`] gives them.
    fn section_days(html: &str, tag: &str) -> Vec<Option<String>> {
        let doc = dom::parse(html);
        let records: Vec<Record> = (0..doc.nodes.len() as NodeId)
            .filter(|&id| doc.is_tag(id, tag))
            .map(|id| Record {
                start: id,
                end: doc.node(id).end,
            })
            .collect();
        items_in_sections(&doc, &records, &ctx(), |_, _| Item::bare("x"))
            .iter()
            .map(|i| i.date.map(|d| d.date_naive().to_string()))
            .collect()
    }

    /// Regression (a film diary): the month cell stacks its parts by CSS
    /// (`<strong><a>NOV</a></strong><small>2023</small>`), whose text
    /// reads "NOV2023": no row had a date.
    #[test]
    fn a_month_cell_glued_by_its_markup_dates_its_rows() {
        let row = |lead: &str, day: u32| {
            format!(
                "<tr data-id=9{day}>{lead}<td class=day><a href=/d/2023/11/{day}/>{day}</a></td>\
                 <td><a href=/film/f{day}/>Film {day}</a></td><td><span>2011</span></td></tr>"
            )
        };
        let month = "<td rowspan=2><div class=date><strong><a href=/d/2023/11/>NOV</a></strong>\
                     <small>2023</small></div></td>";
        let html = format!(
            "<table><tbody>{}{}</tbody></table>",
            row(month, 29),
            row("", 4)
        );
        assert_eq!(
            section_days(&html, "tr"),
            some(&["2023-11-29", "2023-11-04"])
        );
    }

    /// Regression (a library's news as definition lists): a term with two
    /// descriptions (`<dt>27 Nov</dt><dd>…</dd><dd>…</dd>`), each a
    /// record; the second had no date. A description after a term of no
    /// day, or after no term, has none.
    #[test]
    fn a_terms_second_description_takes_its_day() {
        let dd = |slug: &str| {
            format!("<dd><a href=/news/{slug}>News about {slug}</a><p>Two sentences here.</p></dd>")
        };
        let html = format!(
            "<dl class=news><dt><time datetime=2024-02-27>27 Feb</time></dt>{}{}\
             <dt>Wed 14 Feb 2024</dt>{}{}<dt>Opening hours</dt>{}{}</dl>",
            dd("a"),
            dd("b"),
            dd("c"),
            dd("d"),
            dd("e"),
            dd("f"),
        );
        let mut want = some(&["2024-02-27", "2024-02-27", "2024-02-14", "2024-02-14"]);
        want.extend([None, None]);
        assert_eq!(section_days(&html, "dd"), want);
    }

    /// Regression (a blog aggregator's posts by day): a post whose
    /// words name another day ("The board met on 1 March 2024") was
    /// dated by it, not by its day heading. A date line of its own still
    /// dates a record.
    #[test]
    fn a_day_heading_dates_a_post_before_the_days_its_prose_names() {
        let post = |slug: &str, words: &str| {
            format!("<li><h3><a href=/{slug}>A post called {slug}</a></h3><p>{words}</p></li>")
        };
        let html = format!(
            "<main><div id=planet><h2>Fri, 8 Mar 2024</h2><ul>{}{}</ul>\
             <h2>Thu, 7 Mar 2024</h2><ul>{}</ul></div></main>",
            post(
                "minutes",
                "The board met on 1 March 2024 by video call, with all seven members present."
            ),
            post("short", "Nothing dated here."),
            post("late", "Posted 6 Mar 2024"),
        );
        let doc = dom::parse(&html);
        let records = li_records(&doc);
        let base = url::Url::parse("https://planet.example/").expect("a URL");
        let plan = crate::extract::items::plan_titles(&doc, &records, &ctx());
        let items = items_in_sections(&doc, &records, &ctx(), |i, reading| {
            crate::extract::items::item_from_record(&doc, &records[i], &base, reading, &plan)
        });
        let got: Vec<Option<String>> = items
            .iter()
            .map(|i| i.date.map(|d| d.date_naive().to_string()))
            .collect();
        assert_eq!(got, some(&["2024-03-08", "2024-03-08", "2024-03-06"]));
    }

    #[test]
    fn each_record_takes_the_day_of_its_section() {
        let html = "<main><h2>Latest</h2><div id=days>\
            <h3>Fri, 8 Mar 2024</h3><ul><li>a</li><li>b</li></ul>\
            <h3>Thu, 7 Mar 2024</h3><ul><li>c</li></ul>\
            <h3>Tue, 5 Mar 2024</h3><ul><li>d</li><li>e</li></ul></div></main>";
        assert_eq!(
            days(html),
            some(&[
                "2024-03-08",
                "2024-03-08",
                "2024-03-07",
                "2024-03-05",
                "2024-03-05"
            ])
        );
    }

    /// Regression (a bookshop's new releases by week): each week's header
    /// block holds its heading and its count ("8 new titles"); the first
    /// week's books, above which no heading stands between records, were
    /// undated. A header with a sentence beside its heading heads nothing.
    #[test]
    fn a_heading_beside_its_sections_count_heads_the_first_section() {
        let week = |day: u32, count: &str, books: &str| {
            format!(
                "<section><header><h2>Week of {day} March 2024</h2><span>{count}</span></header>\
                 <ul>{books}</ul></section>"
            )
        };
        let html = format!(
            "<main>{}{}</main>",
            week(4, "2 new titles", "<li>a</li><li>b</li>"),
            week(26, "1 new title", "<li>c</li>")
        )
        .replace("26 March", "26 February");
        assert_eq!(
            days(&html),
            some(&["2024-03-04", "2024-03-04", "2024-02-26"])
        );
        let html = html.replace("2 new titles", "Handpicked by our booksellers");
        assert_eq!(days(&html)[..2], [None, None]);
    }

    /// Regression: a conference programme titles each session "Session
    /// 3B: Storage systems — Wed 3 June 2026, 10:30–12:00, Room 2.14",
    /// with a "Session chair" line between the title and the papers; the
    /// papers, which carry no date, got none.
    #[test]
    fn a_section_title_holding_its_day_dates_its_records() {
        let session = |n: &str, day: &str| {
            format!(
                "<section><h3>Session {n}: Systems work in progress — {day}, 10:30–12:00, Room 2.14</h3>\
                 <p>Session chair: <a href='/o/1'>A. Chair</a> · <a href='/ics/{n}.ics'>Add to calendar</a></p>\
                 <ul><li>paper</li><li>paper</li></ul></section>"
            )
        };
        let html = format!(
            "<main><h2>Programme</h2>{}{}</main>",
            session("1A", "Tue 2 June 2024"),
            session("3B", "Wed 3 June 2024")
        );
        assert_eq!(
            days(&html),
            some(&["2024-06-02", "2024-06-02", "2024-06-03", "2024-06-03"])
        );
        // A title that names no day ("Session 4: Energy", "June 2024")
        // starts a section without a date, as before.
        let html = format!(
            "<main>{}{}<section><h3>Session 4: Energy in June 2024</h3><ul><li>x</li></ul></section></main>",
            session("1A", "Tue 2 June 2024"),
            session("3B", "Wed 3 June 2024")
        );
        let mut expected = some(&["2024-06-02", "2024-06-02", "2024-06-03", "2024-06-03"]);
        expected.push(None);
        assert_eq!(days(&html), expected);
    }

    /// Regression: "Wednesday, March 13" after "Tuesday, March 12, 2024"
    /// took the reader's year (2026 on a page fetched in November 2026).
    #[test]
    fn a_heading_without_a_year_takes_the_year_of_the_section_before() {
        let ctx = DateContext::utc_at(2026, 11, 24, 12);
        let read = |html: &str| days_at(html, &ctx);
        let upcoming = "<main><h2>Tuesday, March 12, 2024</h2><ul><li>a</li></ul>\
            <h2>Wednesday, March 13</h2><ul><li>b</li><li>c</li></ul>\
            <h2>Saturday, March 16</h2><ul><li>d</li></ul></main>";
        assert_eq!(
            read(upcoming),
            some(&["2024-03-12", "2024-03-13", "2024-03-13", "2024-03-16"])
        );
        // Across the new year, in either direction.
        let forward = "<main><h3>Mon, 30 Dec 2024</h3><ul><li>a</li></ul>\
            <h3>Thu, 2 Jan</h3><ul><li>b</li></ul></main>";
        assert_eq!(read(forward), some(&["2024-12-30", "2025-01-02"]));
        let back = "<main><h3>Thu, 2 Jan 2025</h3><ul><li>a</li></ul>\
            <h3>Mon, 30 Dec</h3><ul><li>b</li></ul></main>";
        assert_eq!(read(back), some(&["2025-01-02", "2024-12-30"]));
        // Without a dated section before it, the reader's year (the
        // latest that is not in the future), as for any yearless date.
        let alone = "<main><h3>March 13</h3><ul><li>a</li></ul>\
            <h3>March 12</h3><ul><li>b</li></ul></main>";
        assert_eq!(read(alone), some(&["2026-03-13", "2026-03-12"]));
    }

    /// The text of each `<li>` of `html` read as a date in its section's
    /// reading context, after the date of the `<li>` before it.
    fn read_in_sections(html: &str, ctx: &DateContext) -> Vec<Option<String>> {
        let doc = dom::parse(html);
        let records = li_records(&doc);
        items_in_sections(&doc, &records, ctx, |i, reading| Item {
            date: parse_date(&doc.text(records[i].start), reading),
            ..Item::bare("")
        })
        .into_iter()
        .map(|it| it.date.map(|d| d.date_naive().to_string()))
        .collect()
    }

    /// Regression: the cards of a venue's "December 2026" and "January
    /// 2027" sections show "Thu 3 Dec", "Fri 1 Jan": read in November 2026,
    /// they were last year's days.
    #[test]
    fn a_month_heading_gives_its_year_to_the_yearless_days_below_it() {
        let ctx = DateContext::utc_at(2026, 11, 24, 12);
        let html = "<main><section><h2>December 2026</h2><ul><li>Thu 3 Dec</li><li>Thu 31 Dec</li></ul></section>\
            <section><h2>January 2027</h2><ul><li>Fri 1 Jan</li><li>Sat 9 Jan</li></ul></section>\
            <section><h2>February 2027</h2><ul><li>Sat 27 Feb</li></ul></section></main>";
        assert_eq!(
            read_in_sections(html, &ctx),
            some(&[
                "2026-12-03",
                "2026-12-31",
                "2027-01-01",
                "2027-01-09",
                "2027-02-27"
            ])
        );
        // A count after the month is no part of it (a university's
        // "March 2024 (7 events)"; its days were read in the reader's year).
        let counted = html
            .replace(
                "December 2026</h2>",
                "December 2026 <span>(2 events)</span></h2>",
            )
            .replace("January 2027</h2>", "January 2027 (2)</h2>");
        assert_eq!(
            read_in_sections(&counted, &ctx),
            read_in_sections(html, &ctx)
        );
        // A month heading gives no day of its own.
        assert_eq!(days_at(html, &ctx), vec![None; 5]);
        // One month heading above the whole list does not split it: the
        // reader's year, the latest that is not ahead.
        let html = "<h2>December 2026</h2><ul><li>3 Dec</li><li>5 Dec</li></ul>";
        assert_eq!(
            read_in_sections(html, &ctx),
            some(&["2025-12-03", "2025-12-05"])
        );
        // Unless the days' weekdays name their year.
        let html = "<h2>December 2026</h2><ul><li>Thu 3 Dec</li><li>Sat 5 Dec</li></ul>";
        assert_eq!(
            read_in_sections(html, &ctx),
            some(&["2026-12-03", "2026-12-05"])
        );
    }

    /// Regression: event cards write the year only on the first of each
    /// month ("05 Mar 2024", "08 Mar", "16 Mar"); the others were read in
    /// the reader's year (2026), two years off.
    #[test]
    fn a_yearless_day_is_read_near_the_record_before_it() {
        let ctx = DateContext::utc_at(2026, 11, 24, 12);
        let html = "<ul><li>05 Mar 2024</li><li>08 Mar</li><li>no date</li>\
            <li>29 Mar</li><li>03 Apr 2025</li><li>12 Apr</li></ul>";
        assert_eq!(
            read_in_sections(html, &ctx),
            vec![
                Some("2024-03-05".into()),
                Some("2024-03-08".into()),
                None,
                Some("2024-03-29".into()),
                Some("2025-04-03".into()),
                Some("2025-04-12".into()),
            ]
        );
    }

    #[test]
    fn headings_inside_one_container_split_it_too() {
        let html = "<div class=feed><h4>March 8, 2024</h4><li>a</li><li>b</li>\
            <h4>March 7, 2024</h4><li>c</li></div>";
        assert_eq!(
            days(html),
            some(&["2024-03-08", "2024-03-08", "2024-03-07"])
        );
    }

    #[test]
    fn one_dated_heading_above_the_whole_list_dates_nothing() {
        let html = "<h1>News of 8 March 2024</h1><ul><li>a</li><li>b</li><li>c</li></ul>";
        assert_eq!(days(html), vec![None, None, None]);
        let html = "<h2>8 March 2024</h2><ul><li>a</li><li>b</li></ul>";
        assert_eq!(days(html), vec![None, None]);
    }

    #[test]
    fn a_heading_that_is_no_date_starts_an_undated_section() {
        let html = "<div><h3>8 March 2024</h3><ul><li>a</li></ul>\
            <h3>7 March 2024</h3><ul><li>b</li></ul>\
            <h3>Older posts</h3><ul><li>c</li></ul></div>";
        assert_eq!(
            days(html),
            vec![Some("2024-03-08".into()), Some("2024-03-07".into()), None]
        );
    }

    #[test]
    fn months_and_years_are_periods_not_days() {
        let html = "<div><h3>March 2024</h3><ul><li>a</li></ul>\
            <h3>February 2024</h3><ul><li>b</li></ul>\
            <h3>2023</h3><ul><li>c</li></ul></div>";
        assert_eq!(days(html), vec![None, None, None]);
    }

    /// Regression (a blog's archive by year): each year is an `h2` "2024
    /// 5 posts" above its posts' "Mar 4" lines; the days were read in the
    /// reader's year.
    #[test]
    fn a_year_heading_gives_its_year_to_the_yearless_days_below_it() {
        let ctx = DateContext::utc_at(2026, 11, 24, 12);
        let html = "<main><h2>2024 <small>2 posts</small></h2><ul><li>Mar 4</li><li>Jan 9</li></ul>\
            <h2>2023 <small>1 post</small></h2><ul><li>Dec 20</li></ul>\
            <h2>2021</h2><ul><li>Jun 2</li></ul></main>";
        assert_eq!(
            read_in_sections(html, &ctx),
            some(&["2024-03-04", "2024-01-09", "2023-12-20", "2021-06-02"])
        );
        assert_eq!(days_at(html, &ctx), vec![None; 4]);
        assert_eq!(without_count_words("March 2024 7 events"), "March 2024");
        assert_eq!(without_count_words("Older posts"), "Older posts");
    }

    /// Regression (a launches leaderboard): each day's heading sits in a
    /// header block beside its "Popular / Newest" switch, above the day's
    /// list; the first day's products were undated.
    #[test]
    fn the_first_heading_may_sit_in_a_header_block() {
        let day = |d: u32| {
            format!(
                "<div><div class=hd><h2>Launches for March {d}, 2024</h2><div role=tablist>\
                 <button>Popular</button><button>Newest</button></div></div>\
                 <ul><li>a</li><li>b</li></ul></div>"
            )
        };
        let html = format!("<main>{}{}</main>", day(9), day(8));
        assert_eq!(
            days(&html),
            some(&["2024-03-09", "2024-03-09", "2024-03-08", "2024-03-08"])
        );
    }

    /// Regression (a launch board): each day's heading says "Top
    /// products launching today" and "Yesterday's top products", its day
    /// in a `<time>` beside it in the header block; no product was dated.
    #[test]
    fn a_time_beside_a_heading_dates_its_section() {
        let day = |title: &str, iso: &str, shown: &str| {
            format!(
                "<div><div class=hd><h2>{title}</h2><time datetime={iso}>{shown}</time></div>\
                 <ul class=items><li>a</li><li>b</li></ul></div>"
            )
        };
        let html = format!(
            "<main>{}{}</main>",
            day(
                "Top products launching today",
                "2026-11-29",
                "Sunday, November 29, 2026"
            ),
            day(
                "Yesterday's top products",
                "2026-11-28",
                "Saturday, November 28, 2026"
            )
        );
        assert_eq!(
            days(&html),
            some(&["2026-11-29", "2026-11-29", "2026-11-28", "2026-11-28"])
        );
        // A block holding more than the heading and its day is no header
        // of the list, and a heading's day must be the element right after it.
        let html = html.replacen("</time>", "</time><p>Vote for your favourites</p>", 1);
        assert_eq!(days(&html)[0], None);
    }

    #[test]
    fn headings_inside_records_are_not_section_headings() {
        let html = "<ul><li><h3>8 March 2024</h3>a</li><li><h3>7 March 2024</h3>b</li></ul>";
        assert_eq!(days(html), vec![None, None]);
    }

    #[test]
    fn the_first_heading_is_not_looked_for_beyond_the_list() {
        // The date heading is before a paragraph before the list: not the
        // list's own heading, so the first section has no date.
        let html = "<div><h3>9 March 2024</h3><p>Intro</p><ul><li>a</li></ul>\
            <h3>8 March 2024</h3><ul><li>b</li></ul></div>";
        assert_eq!(days(html), vec![None, Some("2024-03-08".into())]);
    }
}
