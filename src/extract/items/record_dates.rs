//! A record's date: attribute dates (`datetime`, tooltips), then its text,
//! visible markup first, and a day split into parts by markup; with the
//! list's own way of writing ambiguous all-number dates.
//!
//! Invariants: a date in the record's headline is never its date; only a
//! date read from text can move with the clock ("2 days ago").

use super::*;

/// How a list's records are read ([`list_dates`]): the context their
/// dates are read in, and the offset the page shows its times in, if it
/// shows one ([`shown_offset`]).
pub struct ListDates {
    pub dates: DateContext,
    shown: Option<FixedOffset>,
}

impl ListDates {
    /// Tells each item's date in the offset the page shows, when it shows
    /// one: a moment given in UTC ("2026-12-01T01:41:00Z") falls on the
    /// page's own day (30 November in Brasília), whatever offset the feed
    /// was configured with.
    pub fn tell_in_shown_offset(&self, items: &mut [Item]) {
        if let Some(offset) = self.shown {
            for item in items {
                item.date = item.date.map(|d| d.with_timezone(&offset));
            }
        }
    }
}

/// The reading context of a list's records: `dates`, with slash dates
/// read day first and dash dates month first when the records' own texts
/// write them that way ([`numeric_orders_of`]: "19/11/2026" and never
/// "11/19/2026"; "11-19-2026" and never "19-11-2026"), in the offset the
/// page writes its times in when its `<time>` elements show it
/// ([`shown_offset`]).
pub fn list_dates<'r>(
    doc: &Document,
    records: impl IntoIterator<Item = &'r Record> + Clone,
    dates: &DateContext,
) -> ListDates {
    let texts = records
        .clone()
        .into_iter()
        .flat_map(|r| r.start..r.end)
        .filter_map(|i| match &doc.node(i).data {
            NodeData::Text { text, blank: false } => Some(text.as_str()),
            _ => None,
        });
    let orders = numeric_orders_of(texts);
    let read = DateContext {
        day_first: orders.slash_day_first,
        dash_month_first: orders.dash_month_first,
        ..*dates
    };
    let shown = shown_offset(doc, records, &read);
    ListDates {
        dates: DateContext {
            offset: shown.unwrap_or(dates.offset),
            ..read
        },
        shown,
    }
}

/// Fewest `<time>` elements that must show one offset ([`shown_offset`]).
const MIN_SHOWN_OFFSETS: usize = 2;

/// The offset a page writes its times in, as its records' `<time>`
/// elements show it: each whose `datetime` names its zone
/// ("2026-11-30T23:15:00.000Z") and whose text is that moment's date and
/// clock time as the page writes it ("30/11/2026 20h15") gives the
/// difference (UTC−3). At least [`MIN_SHOWN_OFFSETS`] of them, all
/// agreeing, in whole quarter hours within 14 hours; else `None`. A
/// story's day is then the page's day ("há 11 horas", at 01:41 UTC on
/// 1 December, is 30 November in Brasília).
fn shown_offset<'r>(
    doc: &Document,
    records: impl IntoIterator<Item = &'r Record>,
    read: &DateContext,
) -> Option<FixedOffset> {
    let mut seen: Option<i64> = None;
    let mut count = 0;
    for i in records.into_iter().flat_map(|r| r.start..r.end) {
        let Some(e) = doc.element(i).filter(|e| e.name == "time") else {
            continue;
        };
        let Some(at) = e
            .attr("datetime")
            .and_then(|v| DateTime::parse_from_rfc3339(v.trim()).ok())
        else {
            continue;
        };
        let text = doc.text(i);
        let minutes = if has_clock(&text) {
            let Some(shown) = parse_date(text.trim(), read) else {
                continue;
            };
            (shown.naive_local() - at.naive_utc()).num_minutes()
        } else {
            let Some(minutes) = to_shown_midnight(&text, at, read) else {
                continue;
            };
            minutes
        };
        if minutes.abs() > 14 * 60 || minutes % 15 != 0 || seen.is_some_and(|m| m != minutes) {
            return None;
        }
        seen = Some(minutes);
        count += 1;
    }
    let minutes = seen.filter(|_| count >= MIN_SHOWN_OFFSETS)?;
    FixedOffset::east_opt(i32::try_from(minutes * 60).ok()?)
}

/// Minutes from moment `at` (UTC) to the midnight that starts the day
/// `text` shows, when that day is the one after `at`'s in UTC: an
/// all-day event stored as midnight where the page is, "ven. 4 déc." for
/// `2026-12-03T23:00:00Z`, says the page is an hour ahead of UTC. `None`
/// when the text shows no day, or `at`'s own day (no offset to tell).
fn to_shown_midnight(text: &str, at: DateTime<FixedOffset>, read: &DateContext) -> Option<i64> {
    use chrono::Datelike;
    let utc_day = at.naive_utc().date();
    let next = utc_day.succ_opt()?;
    // Most texts show the moment's own UTC day: only one whose numbers
    // name the next day's, and not its own, is read.
    let numbers = text
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse::<u32>().ok());
    let mut names_next = false;
    for n in numbers {
        if n == utc_day.day() {
            return None;
        }
        names_next |= n == next.day();
    }
    if !names_next {
        return None;
    }
    let text = crate::extract::dom::collapse_whitespace(text);
    let near = DateContext {
        year_near: Some(utc_day),
        ..*read
    };
    let shown = parse_date(&text, &near)?.date_naive();
    // By month and day: a weekday may have read a yearless day in another
    // year that falls on it.
    if (shown.month(), shown.day()) != (next.month(), next.day()) {
        return None;
    }
    Some((next.and_hms_opt(0, 0, 0)? - at.naive_utc()).num_minutes())
}

/// True when `text` writes a clock time: two digits after a `:` or an
/// `h` that follows a digit ("20:15", "20h15").
fn has_clock(text: &str) -> bool {
    text.as_bytes().windows(4).any(|w| {
        w[0].is_ascii_digit()
            && matches!(w[1], b':' | b'h')
            && w[2].is_ascii_digit()
            && w[3].is_ascii_digit()
    })
}

/// Labels of the date of a thread's latest activity (lower case, without
/// the colon), never the date of the record itself: it moves with every
/// reply.
pub(super) const LATEST_LABELS: &[&str] = &[
    "latest comment",
    "last comment",
    "latest reply",
    "last reply",
    "latest post",
    "last post",
    "last activity",
    "latest activity",
];

/// Labels of a deadline (lower case, without the colon): the day a
/// consultation closes or an offer ends is not the day it was published
/// ("Closes: 3 May 2024" above "Published: 7 March 2024").
pub(super) const DEADLINE_LABELS: &[&str] = &[
    "closes",
    "closed",
    "closing",
    "closing date",
    "deadline",
    "ends",
    "ended",
    "expires",
    "apply by",
    "due",
    // A shop's delivery promise and a review's visit are days of the
    // reader's order or the writer's stay, not of the record.
    "free delivery",
    "delivery",
    "arrives",
    "get it by",
    "date of visit",
    "date of stay",
    // A listing's open house is a day to come, not the day it was listed.
    "open house",
    // A warning's or an offer's time in force ("Valid: From 06:00 Mon 30
    // Nov to 21:00", "Valid until") is not the day it was issued.
    "valid",
];

/// Labels of an amendment (lower case, without the colon): the day a
/// notice was corrected is not the day it was published
/// ("Corrigendum issued 29/11/2026" in a tender's title cell, before its
/// "Published" column).
pub(super) const AMENDMENT_LABELS: &[&str] = &[
    "corrigendum",
    "amended",
    "amendment",
    "addendum",
    "corrected",
    "correction",
];

/// Labels of a day before the record was published (lower case, without
/// the colon): a patent's priority and filing dates come before its
/// publication ("Priority 2024-05-03 • Filed 2025-05-01 • Published
/// 2026-11-12"), a bill's introduction before its last action, an
/// obituary's "Died November 19, 2026" before "Published … on Nov. 25,
/// 2026" (and a span of years, [`spans_years`]). Such a
/// date dates the record only when no other does (a court filing dated by
/// "Filed 11/12/2026" alone).
pub(super) const PRIOR_LABELS: &[&str] = &[
    "priority",
    "filed",
    "filing date",
    "application date",
    "introduced",
    "born",
    "died",
    "period",
];

/// Labels of a record's revision (lower case, without the colon): the day
/// a notice was last updated comes after it was published ("Updated: 27
/// November 2026" above "Published: 26 November 2026"). Such a date dates
/// the record only when no other does, as a prior day does.
pub(super) const REVISION_LABELS: &[&str] = &[
    "updated",
    "last updated",
    "modified",
    "last modified",
    "revised",
    "last revised",
    // An approval comes after what it approves: an opinion "Approved for
    // publication 11/30/2026" was decided on 11/24.
    "approved",
];

/// What the class of an element holding the date of a thread's latest
/// activity says, once its `-` and `_` are gone and in lower case
/// (phpBB's `dd.lastpost`, `last-reply`, `latest_activity`).
pub(super) const LATEST_CLASS_WORDS: &[&str] = &[
    "lastpost",
    "latestpost",
    "lastreply",
    "latestreply",
    "lastcomment",
    "latestcomment",
    "lastactivity",
    "latestactivity",
];

/// True when an element from `i` up to the record's root is classed as
/// holding a thread's latest activity ([`LATEST_CLASS_WORDS`]), or is a
/// link whose query or fragment says so: a forum's last-post time links
/// `forum.php?mod=redirect&goto=lastpost#lastpost`, its tooltip the full
/// day (a slug's words, `/my-last-post/`, are the record's own).
fn in_latest_block(doc: &Document, record: &Record, i: NodeId) -> bool {
    // One buffer for every token's word.
    let mut word = String::new();
    let mut says_latest = |token: &str| {
        word.clear();
        word.extend(
            token
                .chars()
                .filter(|c| !matches!(c, '-' | '_'))
                .map(|c| c.to_ascii_lowercase()),
        );
        holds_any_ascii_ci(word.as_bytes(), LATEST_CLASS_WORDS)
    };
    std::iter::once(i)
        .chain(doc.ancestors(i))
        .take_while(|&a| a >= record.start)
        .filter_map(|a| doc.element(a))
        .any(|e| {
            let target = (e.name == "a")
                .then(|| e.attr("href"))
                .flatten()
                .and_then(|href| href.find(['?', '#']).map(|at| &href[at..]));
            e.attr("class")
                .into_iter()
                .flat_map(str::split_ascii_whitespace)
                .chain(target)
                .any(&mut says_latest)
        })
}

/// Longest text (bytes) read as a date's label.
const MAX_LABEL_BYTES: usize = 40;

/// Nodes looked back at for a date's label.
const LABEL_LOOKBACK: NodeId = 4;

/// True when the date at node `i` (a text node, or the element holding it)
/// is labelled as a thread's latest activity ([`LATEST_LABELS`]) or as a
/// deadline ([`DEADLINE_LABELS`]) or an amendment ([`AMENDMENT_LABELS`]),
/// not the record's own date: its own
/// text opens with such a label ("Last post: 3 hours ago"), or the text
/// right before it is one ("Latest comment: <a>2 years ago</a>", a wiki
/// discussion's bar above its first comment), or it is in an element
/// classed so (phpBB's `dd.lastpost`, whose label is a `dfn` further up).
pub(super) fn labelled_latest(doc: &Document, record: &Record, i: NodeId) -> bool {
    labelled_as(
        doc,
        record,
        i,
        &[LATEST_LABELS, DEADLINE_LABELS, AMENDMENT_LABELS],
    )
}

/// True when the date at node `i` is labelled as a thread's latest
/// activity ([`labelled_latest`] without the deadlines).
pub(super) fn labelled_latest_activity(doc: &Document, record: &Record, i: NodeId) -> bool {
    labelled_as(doc, record, i, &[LATEST_LABELS])
}

/// True when the date at node `i` is labelled as a day before the record
/// was published ([`PRIOR_LABELS`]) or as its revision
/// ([`REVISION_LABELS`]), by the texts alone (its own, and the label
/// right before it): a date for the record only when no other is.
fn labelled_prior(doc: &Document, record: &Record, i: NodeId) -> bool {
    text_labelled(doc, record, i, &[PRIOR_LABELS, REVISION_LABELS])
        || matches!(&doc.node(i).data, NodeData::Text { text, .. } if spans_years(text))
}

/// Labels of a deadline that has passed (lower case, without the
/// colon): a closed consultation's or a map edit's "Closed 3 October
/// 2026".
const PASSED_LABELS: &[&str] = &["closed", "ended", "expired"];

/// True when the date at node `i` is labelled as a deadline that has
/// passed ([`PASSED_LABELS`]), by the texts alone.
fn labelled_passed(doc: &Document, record: &Record, i: NodeId) -> bool {
    text_labelled(doc, record, i, &[PASSED_LABELS])
}

/// True when the date at node `i` is labelled as the record's revision
/// ([`REVISION_LABELS`]): a date for the record only when no other is.
pub(super) fn labelled_revision(doc: &Document, record: &Record, i: NodeId) -> bool {
    text_labelled(doc, record, i, &[REVISION_LABELS])
}

/// True when `text` holds a run of exactly four digits: what a day
/// written in a sentence needs to be read without the clock, and what a
/// label never holds.
pub(super) fn has_year_digits(text: &str) -> bool {
    crate::extract::dates::byte_runs(text.as_bytes(), u8::is_ascii_digit).any(|r| r.len() == 4)
}

/// Longest text read for a span of years ([`spans_years`]).
const MAX_SPAN_BYTES: usize = 80;

/// True for a short text whose years lie two or more apart: a life
/// ("August 21, 1970 – November 20, 2026"), a term of office, never the
/// day a record was published; an event's "Nov 27 – Dec 2, 2026" is one
/// year.
fn spans_years(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() > MAX_SPAN_BYTES {
        return false;
    }
    let years = crate::extract::dates::byte_runs(b, u8::is_ascii_digit)
        .filter(|r| r.len() == 4)
        .map(|r| b[r].iter().fold(0u32, |y, d| y * 10 + u32::from(d - b'0')));
    let (lo, hi) = years.fold((u32::MAX, 0), |(lo, hi), y| (lo.min(y), hi.max(y)));
    hi >= lo.saturating_add(2)
}

/// [`labelled_latest`] with the lists of `labels` (a class of latest
/// activity always counts).
fn labelled_as(doc: &Document, record: &Record, i: NodeId, labels: &[&[&str]]) -> bool {
    let is_label = |t: &str| labels.iter().any(|l| is_label_of(t, l));
    if in_latest_block(doc, record, i) {
        return true;
    }
    if column_header(doc, record, i).is_some_and(|h| is_label(&doc.text(h))) {
        return true;
    }
    if term_before(doc, record, i).is_some_and(|t| is_label(&doc.text(t))) {
        return true;
    }
    text_labelled(doc, record, i, labels)
}

/// Nodes looked back at from a description for its term.
const TERM_LOOKBACK: NodeId = 32;

/// The term (`dt`) right before the description (`dd`) that holds node
/// `i` in `record`: the label of the dates a definition list gives
/// ("Valid:" over "From <time>06:00 Mon 30 Nov</time> to …"), as a
/// column's header labels a table's. Looks back at most
/// [`TERM_LOOKBACK`] nodes.
fn term_before(doc: &Document, record: &Record, i: NodeId) -> Option<NodeId> {
    let dd = std::iter::once(i)
        .chain(doc.ancestors(i))
        .take_while(|&a| a > record.start)
        .find(|&a| doc.is_tag(a, "dd"))?;
    let parent = doc.node(dd).parent;
    (dd.saturating_sub(TERM_LOOKBACK).max(record.start)..dd)
        .rev()
        .find(|&j| doc.node(j).parent == parent)
        .filter(|&j| doc.is_tag(j, "dt"))
}

/// True when the date at node `i` opens with a label of `labels`, or
/// the text right before it is one (or ends with one).
fn text_labelled(doc: &Document, record: &Record, i: NodeId, labels: &[&[&str]]) -> bool {
    let is_label = |t: &str| labels.iter().any(|l| is_label_of(t, l));
    if let NodeData::Text { text, .. } = &doc.node(i).data
        && is_label(text)
    {
        return true;
    }
    (record.start.max(i.saturating_sub(LABEL_LOOKBACK))..i)
        .rev()
        .find_map(|j| match &doc.node(j).data {
            NodeData::Text { text, blank: false } => Some(text.as_str()),
            _ => None,
        })
        .is_some_and(|t| {
            let t = t.trim();
            // A label ("Last post by Annie «", "Or fastest delivery"),
            // not a sentence, nor a date line of its own ("Priority
            // November 19, 2026" labels no date after it).
            t.len() <= MAX_LABEL_BYTES
                && (is_label(t) || labels.iter().any(|l| ends_with_label(t, l)))
                && !has_year_digits(t)
        })
}

/// True when the label `t` ends with a whole label of `labels` ("Or
/// fastest delivery", "Offer ends:"): a shop qualifies its promise before
/// the word that names it.
fn ends_with_label(t: &str, labels: &[&str]) -> bool {
    let t = t.trim_end_matches(':').trim_end();
    labels.iter().any(|l| {
        t.len() > l.len()
            && t.is_char_boundary(t.len() - l.len())
            && t[t.len() - l.len()..].eq_ignore_ascii_case(l)
            && !t[..t.len() - l.len()].ends_with(|c: char| c.is_alphanumeric())
    })
}

/// True when `t` opens with one of `labels` as a whole word.
fn is_label_of(t: &str, labels: &[&str]) -> bool {
    let t = t.trim().trim_end_matches(':').trim_end();
    labels.iter().any(|l| {
        starts_with_ascii_ci(t, l) && !t[l.len()..].starts_with(|c: char| c.is_alphanumeric())
    })
}

/// Rows at the top of a table looked at for its header row.
const HEADER_ROWS: usize = 3;

/// The header cell above node `i` when `record` is a table row and `i`
/// is in one of its cells: the cell at the same place in the table's
/// first row of header cells among its top [`HEADER_ROWS`] rows
/// ("Closing Date" over a job's closing day, below a grid's command
/// row). Only those rows are looked at, so a table of many rows and no
/// header costs each row a few steps, not a scan from the table's start.
fn column_header(doc: &Document, record: &Record, i: NodeId) -> Option<NodeId> {
    if !doc.is_tag(record.start, "tr") || i == record.start {
        return None;
    }
    let cell = std::iter::once(i)
        .chain(doc.ancestors(i))
        .take_while(|&a| a > record.start)
        .find(|&a| doc.node(a).parent == Some(record.start))?;
    let column = doc
        .children(record.start)
        .filter(|&c| doc.element(c).is_some())
        .position(|c| c == cell)?;
    let table = doc
        .ancestors(record.start)
        .find(|&a| doc.is_tag(a, "table"))?;
    // The table's own rows: its children and its sections' children.
    let header = doc
        .children(table)
        .flat_map(|c| std::iter::once(c).chain(doc.children(c)))
        .filter(|&r| doc.is_tag(r, "tr"))
        .take(HEADER_ROWS)
        .find(|&r| {
            let mut cells = doc
                .children(r)
                .filter(|&c| doc.element(c).is_some())
                .peekable();
            cells.peek().is_some() && cells.all(|c| doc.is_tag(c, "th"))
        })?;
    doc.children(header)
        .filter(|&c| doc.element(c).is_some())
        .nth(column)
}

/// The date a tooltip gives: the whole text, the first of its labelled
/// lines ("Created: Mar 8, 2024 9:12 am⏎Latest: Mar 10, 2024 6:05 pm", as
/// forum topic lists show the first and the latest post; the first is the
/// record's own), or a timestamp that opens it ("2026-11-20T21:05:12
/// 1795208712": a comment's age with its Unix time after it).
pub(crate) fn tooltip_date(title: &str, dates: &DateContext) -> Option<DateTime<FixedOffset>> {
    parse_date(title, dates)
        .or_else(|| labelled_first_date(title, dates))
        .or_else(|| leading_timestamp(title, dates))
}

/// The date of a tooltip's first line when it is labelled ("Created: …").
pub(super) fn labelled_first_date(
    title: &str,
    dates: &DateContext,
) -> Option<DateTime<FixedOffset>> {
    let first = title.lines().next()?;
    let (label, value) = first.split_once(':')?;
    let is_label = !label.is_empty()
        && label.len() <= 20
        && label.chars().all(|c| c.is_alphabetic() || c == ' ');
    is_label.then(|| parse_date(value, dates)).flatten()
}

/// An ISO timestamp that opens a tooltip followed by numbers only
/// ("2026-11-20T21:05:12 1795208712").
pub(super) fn leading_timestamp(title: &str, dates: &DateContext) -> Option<DateTime<FixedOffset>> {
    let (stamp, rest) = title.trim().split_once(char::is_whitespace)?;
    let numbers = rest
        .split_whitespace()
        .all(|w| w.bytes().all(|b| b.is_ascii_digit()));
    let timestamp = stamp.len() >= 16 && stamp.as_bytes().get(10) == Some(&b'T');
    (numbers && timestamp)
        .then(|| parse_date(stamp, dates))
        .flatten()
}

/// True when a date read from `source` depends on the fetch time ("2 days
/// ago", "today", a day without a year): read one day later, it is another
/// date.
pub(crate) fn date_moves_with_clock(
    source: &str,
    ctx: &DateContext,
    date: DateTime<FixedOffset>,
) -> bool {
    let Some(now) = ctx.now.checked_add_signed(chrono::Duration::days(1)) else {
        return false;
    };
    let later = DateContext { now, ..*ctx };
    date_in(source, &later) != Some(date)
}

/// Attributes whose value is a date machines write.
const DATE_ATTRS: &[&str] = &["datetime", "data-datetime", "data-date", "data-time"];

/// Attributes that hold an element's tooltip: `title`, and where the
/// tooltip libraries keep it (`data-tippy-content` for Tippy.js,
/// `data-original-title` / `data-bs-original-title` once Bootstrap has
/// taken the `title` over, `data-tooltip`, and Fomantic and Semantic UI's
/// popups' `data-tooltip-content` and `data-content`, as a Gitea or Gogs
/// issue list's "opened 3 days ago" keeps its time).
const TOOLTIP_ATTRS: &[&str] = &[
    "title",
    "data-tippy-content",
    "data-original-title",
    "data-bs-original-title",
    "data-tooltip",
    "data-tooltip-content",
    "data-content",
];

/// The date of element `id`'s machine-readable attribute (`datetime`,
/// `data-date`, ..., or a date tooltip on the elements that carry one: a
/// link's, when the link shows a date itself, as a comment's "3 days ago"
/// linking to it shows with its exact time in its `title`).
pub(super) fn attribute_date(
    doc: &Document,
    id: NodeId,
    dates: &DateContext,
) -> Option<DateTime<FixedOffset>> {
    let el = doc.element(id)?;
    let name = el.name.as_str();
    if let Some(date) = DATE_ATTRS
        .iter()
        .filter_map(|a| el.attr(a))
        .find_map(|v| parse_date(v, dates))
    {
        return Some(date);
    }
    if !matches!(name, "abbr" | "time" | "span" | "td" | "a") {
        return None;
    }
    TOOLTIP_ATTRS
        .iter()
        .filter_map(|a| el.attr(a))
        .find_map(|v| match name {
            "a" => {
                tooltip_date(v, dates).filter(|_| parse_date(doc.text(id).trim(), dates).is_some())
            }
            _ => tooltip_date(v, dates),
        })
}

/// The exact date of a thread's latest activity (a tooltip's) or of a
/// record's last revision ("Updated <time datetime=…>"), and the element
/// that carries it, whose text ("7 hours ago") says the same.
pub(super) type LatestActivity = (DateTime<FixedOffset>, Range<NodeId>);

/// A record's date when no visible element carries one in an attribute:
/// the visible text's (outside the element of its `latest` activity),
/// else the hidden subtrees' attribute date (`hidden_date`), else the
/// exact date of the latest activity (a mailing list's thread shows only
/// "last activity 7 hours ago", exact in its tooltip), else the hidden
/// subtrees' text's; and whether it moves with the clock (only a date
/// read from text can be relative).
pub(super) fn record_text_date(
    doc: &Document,
    record: &Record,
    title: TitleSource,
    hidden: &[Range<NodeId>],
    hidden_date: Option<DateTime<FixedOffset>>,
    latest: Option<LatestActivity>,
    dates: &DateContext,
) -> (Option<DateTime<FixedOffset>>, bool) {
    let (latest_date, skip) = match latest {
        Some((date, range)) => {
            let mut skip = hidden.to_vec();
            skip.push(range);
            (Some(date), Cow::Owned(skip))
        }
        None => (None, Cow::Borrowed(hidden)),
    };
    // A date in the headline is part of it ("Best of 2023"), but a card
    // link's date beside its heading is the record's own, and so is a
    // headline that is nothing but a time stamp (a revision list's
    // "14:02, 27 November 2026" linking each revision): a permalink.
    let link = title
        .link
        .map(|t| link_title_node(doc, t))
        .filter(|&node| !(title.link_is_permalink && is_time_stamp(doc, node, dates)))
        .map(|node| node..doc.node(node).end);
    // A heading read as the title beside a file link ("Notice of
    // Election – General Primary, March 19, 2024") names its own dates:
    // the record's is elsewhere ("Posted 01/31/2024"), if anywhere.
    let heading = title
        .heading
        .map(|h| title_range(doc, heading_title_node(doc, h)));
    let from_text = |skip: &[Range<NodeId>], heading: Option<&Range<NodeId>>| {
        let title = |i: NodeId| {
            link.as_ref().is_some_and(|r| r.contains(&i)) || heading.is_some_and(|r| r.contains(&i))
        };
        // Read again a day later only when the reading looked at the clock.
        let (found, clocked) = reads_clock(|| text_date(doc, record, title, skip, dates));
        found.map(|(d, source)| (Some(d), clocked && date_moves_with_clock(&source, dates, d)))
    };
    let visible = || {
        from_text(&skip, heading.as_ref())
            .or_else(|| heading.as_ref().and_then(|_| from_text(&skip, None)))
    };
    visible()
        .or_else(|| hidden_date.map(|d| (Some(d), false)))
        .or_else(|| latest_date.map(|d| (Some(d), false)))
        .or_else(|| (!hidden.is_empty()).then(|| from_text(&[], None)).flatten())
        .unwrap_or((None, false))
}

/// Longest title read as a time stamp (bytes).
const MAX_STAMP_BYTES: usize = 40;

/// True when title node `node` is a date and time and nothing more, or
/// nearly: a date takes at least half of its text ([`date_covers_half`]),
/// of at most [`MAX_STAMP_BYTES`] (only then is the text read).
fn is_time_stamp(doc: &Document, node: NodeId, dates: &DateContext) -> bool {
    doc.text_bytes(node) <= MAX_STAMP_BYTES && date_covers_half(doc.text(node).trim(), dates)
}

/// Where a record's title was read from: its title link, and the heading
/// beside a file link (see `choose_title`).
#[derive(Debug, Clone, Copy)]
pub(super) struct TitleSource {
    pub link: Option<NodeId>,
    pub heading: Option<NodeId>,
    /// The title link is the record's permalink ([`TitlePlan::permalinks`]).
    pub link_is_permalink: bool,
}

/// First date in the record's text outside its title (`in_title`) and
/// the `skip` subtrees, in
/// document order (a record's own date comes before "last reply 3 hours
/// ago"; a date labelled as a day before publication, [`PRIOR_LABELS`],
/// comes last), and the text it was read from: a text node that is a date on its
/// own or holds one, else a date spanning several nodes (read from their
/// joined text).
pub(super) fn text_date<'d>(
    doc: &'d Document,
    record: &Record,
    in_title: impl Fn(NodeId) -> bool,
    skip: &[Range<NodeId>],
    ctx: &DateContext,
) -> Option<(DateTime<FixedOffset>, Cow<'d, str>)> {
    let skipped = |i: NodeId| in_title(i) || skip.iter().any(|r| r.contains(&i));
    // Dates labelled as another day (a deadline, a delivery), which the
    // joined text below must not read either.
    let mut labelled = Vec::new();
    let mut month = None;
    // The first date labelled as a day before publication (a patent's
    // priority date) or as a deadline already passed: the record's only
    // when no other date is.
    let mut prior = None;
    // The first date inside a sentence of the record's words ("until
    // 5:00 pm on 18 December 2026"): a line of its own ("Published 27
    // November 2026") dates the record before it.
    let mut sentence = None;
    // The first date labelled as the record's revision ("Updated
    // November 24, 2026" under a dataset's description): the record's
    // own, before a date its sentences name ("used in the November 3,
    // 2026 general election").
    let mut revision = None;
    for i in record.start..record.end {
        if let NodeData::Text { text, blank: false } = &doc.node(i).data
            && !skipped(i)
            && let Some(d) = date_in(text, ctx)
        {
            if labelled_latest(doc, record, i) {
                labelled.push(i);
                // A deadline its label says has passed, with its year
                // written ("Closed 3 October 2026"), as in an attribute:
                // the record's date only when no other is. A day to come
                // ("Arrives Thu, Dec 3") is no such date, whatever year
                // it would be read in.
                if d <= ctx.now && has_year_digits(text) && labelled_passed(doc, record, i) {
                    prior.get_or_insert((d, Cow::Borrowed(text.as_str())));
                }
            } else if labelled_prior(doc, record, i) {
                labelled.push(i);
                if revision.is_none() && labelled_revision(doc, record, i) {
                    revision = Some((d, Cow::Borrowed(text.as_str())));
                }
                prior.get_or_insert((d, Cow::Borrowed(text.as_str())));
            } else if in_sentence(text) {
                labelled.push(i);
                sentence.get_or_insert((d, Cow::Borrowed(text.as_str())));
            } else if chrono::Datelike::day(&d) != 1 || names_day(text, ctx) {
                return Some((d, Cow::Borrowed(text.as_str())));
            } else {
                month.get_or_insert((d, Cow::Borrowed(text.as_str())));
            }
        } else if let NodeData::Text { text, blank: false } = &doc.node(i).data
            && has_year_digits(text)
            && !skipped(i)
            && (is_label_of(text, PRIOR_LABELS) || spans_years(text))
            && let Some((d, _)) = find_date(text, ctx)
        {
            // A prior day in a sentence ("Died peacefully at home on
            // November 19, 2026"), which the joined text must not read
            // first either.
            labelled.push(i);
            prior.get_or_insert((d, Cow::Borrowed(text.as_str())));
        } else if let NodeData::Text { text, blank: false } = &doc.node(i).data
            && !skipped(i)
            && let Some(d) = cell_date(doc, i, text, ctx)
        {
            return Some((d, Cow::Borrowed(text.as_str())));
        }
    }
    if month.is_some() {
        return month;
    }
    let skipped = |i: NodeId| skipped(i) || labelled.contains(&i);
    let mut joined = String::new();
    doc.push_text_of_range(record.start, record.end, &mut joined, |i| !skipped(i));
    if let Some((d, _)) = find_date(&joined, ctx) {
        return Some((d, Cow::Owned(joined)));
    }
    if let Some(spaced) = spaced_parts(doc, record, skipped)
        && let Some((d, _)) = find_date(&spaced, ctx)
    {
        return Some((d, Cow::Owned(spaced)));
    }
    match split_day(doc, record, skipped, ctx) {
        Some((d, split)) => Some((d, Cow::Owned(split))),
        // A day heading above the record dates it before its prose does.
        None if ctx.section_dated => None,
        None => revision.or(sentence).or(prior),
    }
}

/// Class parts of a cell that shows a post's date, or its time when it
/// was posted today ([`cell_date`]).
const DATE_CELL_PARTS: &[&str] = &["date", "datetime"];

/// The date text node `i` shows in short numbers ([`parse_cell_date`]:
/// "11-28", "25-12-30", "14:03") where its element names it a date
/// ([`names_date`]: a board's `td.td_datetime`). A bare clock time is
/// today only in a cell classed as a date and under no day heading: a
/// schedule's `td.time` "06:00" names no day, and a wiki's changes at
/// "23:52" under "30 November 2026" are that day's.
fn cell_date(
    doc: &Document,
    i: NodeId,
    text: &str,
    ctx: &DateContext,
) -> Option<DateTime<FixedOffset>> {
    // Most texts are no such numbers: told before the element is read.
    if !text.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let e = doc.node(i).parent.and_then(|p| doc.element(p))?;
    if !titles::names_date(e) {
        return None;
    }
    let d = crate::extract::dates::parse_cell_date(text, ctx)?;
    let clock_only = text.contains(':');
    let date_cell = || {
        e.attr("class")
            .is_some_and(|c| has_part(c.split_ascii_whitespace(), b"-_", DATE_CELL_PARTS))
    };
    (!clock_only || (!ctx.section_dated && date_cell())).then_some(d)
}

/// Fewest words of a text read as a sentence ([`in_sentence`]).
const MIN_SENTENCE_WORDS: usize = 10;

/// True when a text holding a date is a sentence of
/// [`MIN_SENTENCE_WORDS`] words or more, not a date line: a notice's
/// "Submissions may be lodged with the Council until 5:00 pm on 18
/// December 2026."
fn in_sentence(text: &str) -> bool {
    text.split_whitespace()
        .nth(MIN_SENTENCE_WORDS - 1)
        .is_some()
}

/// True when a text holding a date names its day: "Written 27 November
/// 2026", not "Oct 2026 • Couples" (a month, which `date_in` reads as its
/// 1st). A record's month is a period (a stay, a term) more often than its
/// publication, so a day later in the record wins over it. (Only a 1st
/// can be a month's: other days are looked at no further.)
fn names_day(text: &str, ctx: &DateContext) -> bool {
    parse_day(text, ctx).is_some() || find_date(text, ctx).is_some()
}

/// Largest element (in nodes, itself included) read as a day split into
/// parts by markup: a date badge, or a range of two.
pub(super) const MAX_SPLIT_DAY_NODES: NodeId = 32;

/// Longest text of such an element (bytes): two days and a dash.
pub(super) const MAX_SPLIT_DAY_BYTES: usize = 48;

/// The first small element of the record whose parts, joined, are a day:
/// `<div class=date-badge><span>Sat</span> <span>5</span>
/// <span>Dec</span></div>`, which no one text node holds and which the
/// record's running text cannot be trusted with (a day without a year,
/// "5 Dec", is a date only as a whole string), or a range's first day
/// ("Thu 10 Dec – Sat 12 Dec"); with the text it was read from. Each node
/// is read by at most the [`MAX_SPLIT_DAY_NODES`] elements around it.
pub(super) fn split_day(
    doc: &Document,
    record: &Record,
    skip: impl Fn(NodeId) -> bool,
    ctx: &DateContext,
) -> Option<(DateTime<FixedOffset>, String)> {
    let mut text = String::new();
    for id in record.start..record.end {
        let end = doc.node(id).end;
        if doc.element(id).is_none() || end - id > MAX_SPLIT_DAY_NODES || skip(id) {
            continue;
        }
        text.clear();
        let mut parts = 0;
        for i in id..end {
            if let NodeData::Text {
                text: t,
                blank: false,
            } = &doc.node(i).data
                && !skip(i)
            {
                parts += 1;
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(t.trim());
                if text.len() > MAX_SPLIT_DAY_BYTES {
                    break;
                }
            }
        }
        if parts < 2 || text.len() > MAX_SPLIT_DAY_BYTES {
            continue;
        }
        if let Some(d) = parse_day(&text, ctx).or_else(|| parse_range_start(&text, ctx)) {
            return Some((d, text));
        }
    }
    None
}

/// The record's text nodes joined with spaces, when some of them glue a
/// digit to a letter across an element boundary: a date whose day, month
/// and year are inline elements stacked by CSS
/// (`<span>05</span><span>Mar</span><span>2024</span>`), which the visible
/// text joins as "05Mar2024". `None` when nothing is glued that way.
pub(super) fn spaced_parts(
    doc: &Document,
    record: &Record,
    skip: impl Fn(NodeId) -> bool,
) -> Option<String> {
    let texts = (record.start..record.end).filter_map(|i| match &doc.node(i).data {
        NodeData::Text { text, blank: false } if !skip(i) => Some(text.as_str()),
        _ => None,
    });
    let mut glued = false;
    let mut previous: Option<char> = None;
    let mut out = String::new();
    for text in texts {
        let first = text.chars().next();
        if let (Some(a), Some(b)) = (previous, first) {
            glued |= a.is_ascii_alphanumeric()
                && b.is_ascii_alphanumeric()
                && a.is_ascii_digit() != b.is_ascii_digit();
        }
        previous = text.chars().next_back();
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(text.trim());
    }
    glued.then_some(out)
}
