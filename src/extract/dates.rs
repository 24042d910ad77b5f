//! Date recognition in the text of list records: absolute dates in the common
//! written forms (ISO 8601 / RFC 3339, RFC 2822, numeric, English, German,
//! French and Spanish month names, Chinese / Japanese / Korean) and relative
//! ones ("3 hours ago", "3小时前", "昨天"), with the day words "today",
//! "yesterday" and their German, Spanish and French forms ("heute, 11:45
//! Uhr", "ayer a las 10:30", "aujourd'hui"; not French "hier", which is
//! German for "here").
//!
//! Numeric and named forms are accepted in the common orders: `2024-03-05`,
//! `2024/3/5`, `2024.03.05`, `05.03.2024`, `05-03-2024`, `03/05/2024`,
//! `March 5, 2024`, `5 March 2024`, `5th of March 2024`, `Tue, 05 Mar 2024`,
//! `2023, Aug 01`, `Jul 24 th , 2014` (ordinal split by markup), `5. März
//! 2024`, `5 de marzo de 2024`, `2024年3月5日 14:30`, `26 4月 2024`,
//! `2024년 3월 5일`, each with an optional time (`14:30`, `3:30 pm`,
//! `14:30 Uhr`) and zone (`Z`, `+08:00`, `UTC`, `GMT+2`, `CET`, `PST`, ...).
//! Other calendars' years are read as such: the Buddhist era's (Thai),
//! the Solar Hijri calendar's (Persian), Japanese eras' (`令和8年11月28日`)
//! and the Republic of China's (`115年11月28日`, and `115-11-28` as a
//! whole string).
//! Day words of other languages that are short or words elsewhere ("ma",
//! "i går", "tänään", "dnes") are read only with a time after them.
//!
//! Two entry points: [`parse_date`] when a whole string is meant to be a date
//! (a `<time datetime>` value, a date cell), and [`find_date`] to locate the
//! first date inside a longer record text.
//!
//! Invariants and decisions (all deliberate, all tested):
//! - A date-time without a zone is read in `ctx.offset`.
//! - A date without a time becomes 12:00 in `ctx.offset`: noon is as far as a
//!   time can be from both midnights, so converting the result to any offset
//!   within ±12 h (every feed reader's local zone) keeps the calendar day the
//!   page showed. Midnight would turn "5 March" into "4 March" west of it.
//! - Relative forms count back from `ctx.now` ("3 hours ago" is exact; "2 days
//!   ago" keeps now's time of day). Calendar words ("today", "昨天") name a
//!   day, so they follow the date-only rule (12:00, which for "today" may lie
//!   a few hours after `now`).
//! - Dates without a year ("3月5日", "Mar 5") take the current year in
//!   `ctx.offset`, or the previous year when that date would be in the
//!   future; with `ctx.year_near` (a section's month heading), the year
//!   that puts them nearest that day.
//! - "Mar 2024" (month and year only) is the 1st of that month, but only in
//!   `parse_date`: inside running text a bare month is more often a period
//!   ("since March 2024") than a publication date, so `find_date` ignores it.
//! - `03/05/2024` is month/day/year (US order, the common slash form on
//!   English pages) unless the first part is above 12, which forces
//!   day/month/year, or the page writes its slash dates day first
//!   (`ctx.day_first`, see [`slash_order_of`]). `05.03.2024` is
//!   day/month/year; so is `05-03-2024`, unless the second part is above
//!   12 or the list writes its dash dates month first
//!   (`ctx.dash_month_first`, see [`numeric_orders_of`]: US pages).
//! - `20240305` is a date only in `parse_date` (attribute-like values).
//! - Two-digit years are not accepted: `05.03.24` is too ambiguous. Three
//!   forms say theirs: a whole string of slashes (`11/28/26`, month first
//!   as four-digit slash dates are), a mail's weekday (`Mon, 30 Nov 26`)
//!   and an apostrophe (`22 Jul '25`).
//! - Years outside [`MIN_YEAR`]..=[`MAX_YEAR`] are rejected: such four-digit
//!   numbers are ids or counts far more often than publication years.
//! - Rejected: impossible dates (Feb 30), year-month (`2024-03`), years or
//!   times alone, bare numbers and version strings (`2.10.2`). `find_date`
//!   additionally refuses candidates glued to digits, letters or to `.`, `/`,
//!   `-`, `:` + digit on either side, and those preceded by a currency sign or
//!   `#`, so phone numbers, prices, ids and versions are not read as dates.
//!
//! Every regex is compiled once (`LazyLock`).

use std::cell::Cell;
use std::ops::Range;
use std::sync::LazyLock;

use chrono::{
    DateTime, Datelike, Duration, FixedOffset, Months, NaiveDate, NaiveTime, Utc, Weekday,
};
use regex::{Captures, Regex, RegexSet};

/// Earliest year accepted as a publication year.
pub const MIN_YEAR: i32 = 1970;
/// Latest year accepted as a publication year.
pub const MAX_YEAR: i32 = 2099;

/// What "now" and "local time" mean for the page being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateContext {
    /// The moment relative dates count back from (the fetch time).
    pub now: DateTime<Utc>,
    /// The offset of dates and times written without a zone.
    pub offset: FixedOffset,
    /// Read an ambiguous slash date (`03/05/2024`) day first: the page
    /// writes its unambiguous ones that way ([`slash_order_of`]).
    pub day_first: bool,
    /// Read an ambiguous dash date (`03-05-2024`) month first: the page
    /// writes its unambiguous ones that way ([`numeric_orders_of`]).
    pub dash_month_first: bool,
    /// A day without a year ("Sat 5 Dec") is read in the year that puts it
    /// nearest this day, not in the latest year that keeps it out of the
    /// future: the month heading of its section gives the year
    /// ("December 2026" above an events list, see `section_dates`).
    pub year_near: Option<NaiveDate>,
    /// The record stands under a day heading of its list ("November 28,
    /// 2026" above a planet's posts, see `section_dates`): a date that
    /// only its prose names ("The board met on 19 November 2026") is no
    /// date of its own, and the heading's day is.
    pub section_dated: bool,
}

#[cfg(test)]
impl DateContext {
    /// Tests' reading context: "now" is `y-m-d h:00` UTC and dates
    /// without a zone are UTC.
    pub(crate) fn utc_at(y: i32, m: u32, d: u32, h: u32) -> Self {
        use chrono::TimeZone;
        let now = Utc.with_ymd_and_hms(y, m, d, h, 0, 0).single();
        DateContext {
            now: now.expect("a valid test time"),
            offset: FixedOffset::east_opt(0).expect("UTC"),
            day_first: false,
            dash_month_first: false,
            year_near: None,
            section_dated: false,
        }
    }
}

/// Reads `s` as one date after trimming labels and punctuation around it
/// ("Posted on", "Updated:", "·", brackets, "发布于"). `None` when what remains
/// is not entirely a date.
pub fn parse_date(s: &str, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    if !may_hold_date(s) {
        return None;
    }
    parse_any(s, ctx)
}

/// [`parse_date`] for a text that must name a day, such as a section
/// heading: "Mar 2024" (a month, which `parse_date` reads as its 1st) is
/// not one.
pub fn parse_day(s: &str, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    if !may_hold_date(s) {
        return None;
    }
    parse_whole(s, ctx, true)
}

/// The first day of a range of days written as one string ("Thu 10 Dec –
/// Sat 12 Dec", "10 Dec - 12 Dec", an event's run of nights, an
/// exhibition's "4 July – 29 November 2026"): the part before the dash,
/// with the year (and month) it leaves out taken from the day after the
/// dash ([`start_before`]), else read by [`parse_day`] alone.
pub fn parse_range_start(s: &str, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    let (start, end) = s.split_once(['–', '—']).or_else(|| s.split_once(" - "))?;
    let start = start.trim();
    parse_day(end, ctx)
        .and_then(|end| start_before(start, end, ctx))
        .or_else(|| parse_day(start, ctx))
}

/// Longest start of a range that leaves its year out, in words ("Mon 4
/// July").
const MAX_RANGE_START_WORDS: usize = 3;

/// Longest gap between the two ends of a range of days.
const MAX_RANGE_DAYS: i64 = 366;

/// The day `start` names as the first part of a range that ends on `end`,
/// its year (and month) taken from `end`: "4 July" before "29 November
/// 2026" is 4 July 2026, "3" before it 3 November 2026, "20 December"
/// before "5 January 2027" 20 December 2026. `None` when `start` is no
/// such day or falls more than [`MAX_RANGE_DAYS`] before `end`.
fn start_before(
    start: &str,
    end: DateTime<FixedOffset>,
    ctx: &DateContext,
) -> Option<DateTime<FixedOffset>> {
    let start = start.trim();
    let number = start.trim_end_matches('.');
    // An ordinal's suffix: "Du 1er au 4 décembre", "1st to 4th".
    let number = ORDINAL_SUFFIXES
        .iter()
        .find_map(|s| number.strip_suffix(s))
        .unwrap_or(number);
    let day = if (1..=2).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_digit()) {
        parse_day(&format!("{number} {}", end.format("%B %Y")), ctx)?
    } else {
        parse_day(&format!("{start} {}", end.year()), ctx)?
    };
    let day = if day > end {
        day.checked_sub_months(Months::new(12))?
    } else {
        day
    };
    (end - day <= Duration::days(MAX_RANGE_DAYS)).then_some(day)
}

/// Suffixes of an ordinal day before a range's end ("1er", "2nd").
const ORDINAL_SUFFIXES: &[&str] = &["er", "st", "nd", "rd", "th", "e"];

/// Words that join the two ends of a range of days, in the languages
/// whose month names are read: "Du 27 novembre au 3 décembre 2026",
/// "vom 3. bis 5. Dezember 2026", "del 12 al 14 de diciembre de 2026",
/// "Les 12 et 13 décembre 2026", "December 4 to 6, 2026".
const RANGE_WORDS: &[&str] = &["au", "bis", "al", "et", "und", "y", "to", "through", "and"];

/// `before` without the range word it ends with ([`RANGE_WORDS`], a
/// whole word after a space), or `None`.
fn without_range_word(before: &str) -> Option<&str> {
    RANGE_WORDS.iter().find_map(|w| {
        let cut = before.len().checked_sub(w.len())?;
        let (head, word) = (before.get(..cut)?, before.get(cut..)?);
        (word.eq_ignore_ascii_case(w) && head.ends_with(char::is_whitespace)).then_some(head)
    })
}

/// A date `found` at `span` of `text`, or, when `text` writes it as the
/// end of a range whose start leaves out the year ("4 July – 29 November
/// 2026", "Du 27 novembre au 3 décembre 2026"), the range's first day ([`start_before`]) with the span widened
/// over it: a run of days is dated by the day it begins.
fn range_start_of(
    text: &str,
    found: (DateTime<FixedOffset>, Range<usize>),
    ctx: &DateContext,
) -> (DateTime<FixedOffset>, Range<usize>) {
    let (end, span) = found;
    let before = text[..span.start].trim_end();
    let head = before
        .strip_suffix(['–', '—'])
        .or_else(|| {
            before
                .strip_suffix('-')
                .filter(|h| h.ends_with(char::is_whitespace))
        })
        .or_else(|| without_range_word(before));
    let Some(head) = head.map(str::trim_end) else {
        return (end, span);
    };
    // Where each of the last few words of `head` begins, nearest first.
    let starts: Vec<usize> = head
        .char_indices()
        .rev()
        .filter(|&(i, c)| {
            !c.is_whitespace()
                && head[..i]
                    .chars()
                    .next_back()
                    .is_none_or(char::is_whitespace)
        })
        .take(MAX_RANGE_START_WORDS)
        // A range starts at a word or number, not at a separator ("·").
        .filter(|&(_, c)| c.is_alphanumeric())
        .map(|(i, _)| i)
        .collect();
    starts
        .iter()
        .rev()
        .find_map(|&at| Some((start_before(&head[at..], end, ctx)?, at..span.end)))
        .unwrap_or((end, span))
}

/// A text that is a date on its own, else the first date it holds: the
/// [`parse_date`]-then-[`find_date`] reading of one text node, with the
/// [`may_hold_date`] test done once.
pub fn date_in(text: &str, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    if !may_hold_date(text) {
        return None;
    }
    parse_any(text, ctx).or_else(|| find_ranged(text, ctx).map(|(d, _)| d))
}

/// [`parse_date`] without the [`may_hold_date`] test.
pub(crate) fn parse_any(s: &str, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    parse_whole(s, ctx, false)
}

/// `s` as one date; with `day`, only a date that names its day.
fn parse_whole(s: &str, ctx: &DateContext, day: bool) -> Option<DateTime<FixedOffset>> {
    let ascii_digits = foreign_digits_to_ascii(s);
    let core = strip_noise(&ascii_digits);
    // Longer strings are sentences, not dates; this also bounds regex work.
    if core.is_empty() || core.len() > 120 {
        return None;
    }
    iso_day(core, ctx).or_else(|| by_patterns(core, ctx, day))
}

/// [`parse_whole`] of a stripped string, by the standard formats and then
/// the pattern sets.
fn by_patterns(core: &str, ctx: &DateContext, day: bool) -> Option<DateTime<FixedOffset>> {
    if let Ok(dt) = DateTime::parse_from_rfc3339(core) {
        return year_in_range(dt);
    }
    if let Ok(dt) = DateTime::parse_from_rfc2822(core) {
        return year_in_range(dt);
    }
    let sets = &*SETS;
    let rare = core
        .as_bytes()
        .first()
        .is_some_and(u8::is_ascii_alphabetic)
        .then_some(&sets.whole_rare)
        .into_iter()
        .flatten()
        .copied();
    sets.whole
        .matches(core)
        .iter()
        .map(|i| sets.whole_of[i])
        .chain(rare)
        .find_map(|(kind, re)| {
            let c = re.captures(core)?;
            let month_only = kind == Kind::Calendar && c.name("d").is_none();
            if day && month_only {
                return None;
            }
            build(kind, &c, ctx)
        })
}

/// The commonest machine date, a bare ISO day ("2024-03-05", as
/// `<time datetime>` carries it), read without the pattern sets: noon in
/// `ctx.offset`, as the calendar pattern reads it. `None` for anything
/// else, invalid days and years out of range included, which the patterns
/// then read as before.
fn iso_day(s: &str, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    let b = s.as_bytes();
    // Digits, with dashes at 4 and 7.
    let shape = |(i, c): (usize, &u8)| {
        if matches!(i, 4 | 7) {
            *c == b'-'
        } else {
            c.is_ascii_digit()
        }
    };
    if b.len() != 10 || !b.iter().enumerate().all(shape) {
        return None;
    }
    let (year, month, day) = (
        s[..4].parse().ok()?,
        s[5..7].parse().ok()?,
        s[8..].parse().ok()?,
    );
    let day = NaiveDate::from_ymd_opt(year, month, day)?;
    let dt = day
        .and_time(NaiveTime::from_hms_opt(12, 0, 0)?)
        .and_local_timezone(ctx.offset)
        .single()?;
    year_in_range(dt)
}

/// Whether `texts` write their slash dates day first: some
/// `dd/mm/yyyy` has a first part above 12 ("19/11/2026") and none has a
/// second part above 12 ("11/19/2026"). One pass over each text.
pub fn slash_order_of<'t>(texts: impl IntoIterator<Item = &'t str>) -> bool {
    numeric_orders_of(texts).slash_day_first
}

/// How a list writes its all-number dates, as its own texts show.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NumericOrders {
    /// Slash dates are day first ([`slash_order_of`]).
    pub slash_day_first: bool,
    /// Dash dates are month first: some `mm-dd-yyyy` has a second part
    /// above 12 ("11-19-2026") and none a first part above 12.
    pub dash_month_first: bool,
}

/// Both orders of [`NumericOrders`] in one pass over each text.
pub fn numeric_orders_of<'t>(texts: impl IntoIterator<Item = &'t str>) -> NumericOrders {
    // Per separator ('/', '-'): a date seen day first, one seen month first.
    let mut seen = [(false, false); 2];
    for text in texts {
        for (sep, x, y) in two_small_parts_and_year(text.as_bytes()) {
            let s = &mut seen[usize::from(sep == b'-')];
            s.0 |= x > 12 && y <= 12;
            s.1 |= y > 12 && x <= 12;
        }
    }
    NumericOrders {
        slash_day_first: seen[0].0 && !seen[0].1,
        dash_month_first: seen[1].1 && !seen[1].0,
    }
}

/// Every `a/b/yyyy` or `a-b-yyyy` of `b` whose first two parts have at
/// most two digits: its separator and the two numbers.
fn two_small_parts_and_year(b: &[u8]) -> impl Iterator<Item = (u8, u32, u32)> + '_ {
    let number = |r: &Range<usize>| {
        b[r.clone()]
            .iter()
            .fold(0, |n, d| n * 10 + u32::from(d - b'0'))
    };
    let mut runs = byte_runs(b, u8::is_ascii_digit);
    let mut previous = runs.next();
    std::iter::from_fn(move || {
        loop {
            let first = previous.take()?;
            let second = runs.next()?;
            previous = Some(second.clone());
            let Some(&sep) = b.get(first.end) else {
                continue;
            };
            let joined = second.start == first.end + 1 && matches!(sep, b'/' | b'-');
            let year_follows = b.get(second.end) == Some(&sep)
                && b[second.end + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count()
                    == 4;
            if joined && first.len() <= 2 && second.len() <= 2 && year_follows {
                return Some((sep, number(&first), number(&second)));
            }
        }
    })
}

/// Finds the first date in `text` and its byte span. Among candidates that
/// start at the same byte the longest wins ("Mar 5, 2024 14:30" over "Mar 5").
/// The end of a range whose start leaves its year out ("4 July – 29
/// November 2026") gives the range's first day, spanning the range.
pub fn find_date(text: &str, ctx: &DateContext) -> Option<(DateTime<FixedOffset>, Range<usize>)> {
    if !may_hold_date(text) {
        return None;
    }
    if !text.is_ascii() && text.chars().any(is_foreign_digit) {
        return find_foreign_digits(text, ctx);
    }
    find_ranged(text, ctx)
}

/// True for the letters of Arabic script: beside a digit, they may be a
/// month's name ([`ARABIC_MONTHS`]).
fn is_arabic_letter(c: char) -> bool {
    ('\u{0621}'..='\u{064A}').contains(&c)
}

/// True for the letters of Thai script: beside a digit, they may be a
/// month's name ([`THAI_MONTHS`]).
fn is_thai_letter(c: char) -> bool {
    ('\u{0E01}'..='\u{0E4E}').contains(&c)
}

/// True for the letters of Devanagari script: beside a digit, they may be
/// a month's name ([`HINDI_MONTHS`]).
fn is_devanagari_letter(c: char) -> bool {
    ('\u{0900}'..='\u{0965}').contains(&c) || ('\u{0970}'..='\u{097F}').contains(&c)
}

/// True for the letters Persian adds to Arabic script (پ چ ژ ک گ ی):
/// beside a digit, they may be in a month's name ([`SOLAR_HIJRI_MONTHS`]).
fn is_persian_letter(c: char) -> bool {
    matches!(
        c,
        '\u{067E}' | '\u{0686}' | '\u{0698}' | '\u{06A9}' | '\u{06AF}' | '\u{06CC}'
    )
}

/// [`find_any`], a range's end read as the range's first day
/// ([`range_start_of`]); the end of a span that starts in a year no date
/// can have (a life, "June 2, 1938 – March 3, 2024") is no date: the
/// search goes on after it.
fn find_ranged(text: &str, ctx: &DateContext) -> Option<(DateTime<FixedOffset>, Range<usize>)> {
    let mut from = 0;
    loop {
        let (date, span) = find_any(&text[from..], ctx)?;
        let span = from + span.start..from + span.end;
        if !ends_span_from_out_of_range_year(&text[..span.start]) {
            return Some(range_start_of(text, (date, span), ctx));
        }
        from = span.end;
    }
}

/// True when `before`, the text before a date, ends with a dash after a
/// four-digit year outside [`MIN_YEAR`]..=[`MAX_YEAR`] ("June 2, 1938 –").
fn ends_span_from_out_of_range_year(before: &str) -> bool {
    let head = before.trim_end();
    let Some(head) = head.strip_suffix(['–', '—', '-']) else {
        return false;
    };
    let b = head.trim_end().as_bytes();
    let Some(year) = b.len().checked_sub(4).map(|at| &b[at..]) else {
        return false;
    };
    let glued = b.len() > 4 && b[b.len() - 5].is_ascii_digit();
    year.iter().all(u8::is_ascii_digit)
        && !glued
        && std::str::from_utf8(year)
            .ok()
            .and_then(|y| y.parse::<i32>().ok())
            .is_some_and(|y| !(MIN_YEAR..=MAX_YEAR).contains(&y))
}

/// [`find_date`] without the [`may_hold_date`] test: the patterns are
/// tried, anchored, only where a date can start ([`date_starts`]), in text
/// order, so the first position that gives a date wins; among the patterns
/// that give one there, the longest match (the first pattern on a tie).
///
/// Anchored searches keep the lazy DFA small: an unanchored search over a
/// whole record text builds states for every mix of partial matches it
/// meets, so each new page paid for new states (about a tenth of the work
/// after parsing on a cold run).
pub(crate) fn find_any(
    text: &str,
    ctx: &DateContext,
) -> Option<(DateTime<FixedOffset>, Range<usize>)> {
    let sets = &*SETS;
    date_starts(text).find_map(|start| {
        let rest = &text[start..];
        let mut best: Option<(DateTime<FixedOffset>, Range<usize>)> = None;
        for (kind, re) in sets.find.matches(rest).iter().map(|i| sets.find_of[i]) {
            let Some(caps) = re.captures(rest) else {
                continue;
            };
            let Some(whole) = caps.get(0) else { continue };
            let span = start + whole.start()..start + whole.end();
            let longer = best.as_ref().is_none_or(|(_, b)| span.end > b.end);
            if longer
                && is_delimited(text, span.clone())
                && (caps.name("y").is_some() || !year_follows(&text[span.end..]))
                && let Some(dt) = build(kind, &caps, ctx)
            {
                best = Some((dt, span));
            }
        }
        best
    })
}

/// True when `rest`, the text after a day read without a year, gives
/// that day a year of four digits (", 1938"): the day is no yearless
/// date, but a date whose year no pattern took (a birth day before
/// [`MIN_YEAR`] in "June 2, 1938 – March 3, 2024" was read as June 2 of
/// the reader's year).
fn year_follows(rest: &str) -> bool {
    let rest = rest.strip_prefix(',').unwrap_or(rest);
    let rest = rest.strip_prefix(' ').unwrap_or(rest).as_bytes();
    rest.len() >= 4
        && rest[..4].iter().all(u8::is_ascii_digit)
        && !rest.get(4).is_some_and(u8::is_ascii_digit)
}

/// Byte offsets in `text` where a date pattern can begin a match that
/// [`is_delimited`] accepts, in order: the start of a run of ASCII letters
/// and digits that begins with a digit or with a word in [`START_WORDS`]
/// (a run glued to a letter or digit before it is refused anyway), and
/// every one of [`CJK_START_CHARS`], and [`URDU_FIRST_DAY`]. (Unicode case folding lets a pattern
/// read `ſ` or the Kelvin sign as `s` or `k`; a date spelt with them is
/// not looked for.)
fn date_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let b = text.as_bytes();
    text.char_indices().filter_map(move |(i, c)| {
        if c.is_ascii_alphanumeric() {
            let run_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
            let starts = run_start && (c.is_ascii_digit() || is_start_word(&b[i..]));
            starts.then_some(i)
        } else {
            let first = c == URDU_FIRST_DAY_START && text[i..].starts_with(URDU_FIRST_DAY);
            (CJK_START_CHARS.contains(&c) || first).then_some(i)
        }
    })
}

/// "The first" (of a month) in Urdu, which a date may open with ("یکم
/// دسمبر 2026"), and its first letter.
const URDU_FIRST_DAY: &str = "یکم";
const URDU_FIRST_DAY_START: char = '\u{06CC}';

/// True when the run of ASCII letters `b` begins with is in
/// [`START_WORDS`] (any case).
fn is_start_word(b: &[u8]) -> bool {
    let len = b.iter().take_while(|c| c.is_ascii_alphabetic()).count();
    let mut buf = [0u8; WORD_BUFFER];
    lowercase(&b[..len], &mut buf).is_some_and(|w| {
        START_WORDS
            .binary_search_by(|s| s.as_bytes().cmp(w))
            .is_ok()
    })
}

/// Longer than every month name and start word: a longer word is none.
const WORD_BUFFER: usize = 12;

/// `word` in lower case, in `buf`; `None` when it does not fit.
fn lowercase<'b>(word: &[u8], buf: &'b mut [u8; WORD_BUFFER]) -> Option<&'b [u8]> {
    let lower = buf.get_mut(..word.len())?;
    lower.copy_from_slice(word);
    lower.make_ascii_lowercase();
    Some(lower)
}

/// The words a pattern's match can begin with, lower case and sorted:
/// weekdays, the leading ASCII letters of each month name ("m" of "märz")
/// and day word, and the spelt-out counts of relative dates.
static START_WORDS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut words: Vec<&'static str> = WEEKDAYS
        .iter()
        .copied()
        .chain(MONTH_NAMES.iter().map(|(n, _)| *n))
        .chain(LATIN_DAY_WORDS.iter().map(|(w, _)| *w))
        .chain(TIMED_DAY_WORDS.iter().map(|(w, _)| *w))
        .chain(AGO_BEFORE.iter().copied())
        .chain(RELATIVE_COUNT_WORDS.iter().copied())
        .chain(["just", "right"])
        .map(ascii_letters_start)
        // A name that opens with another letter ("şubat", "σήμερα")
        // starts no run of ASCII letters.
        .filter(|w| !w.is_empty())
        .collect();
    words.sort_unstable();
    words.dedup();
    words
});

/// The spelt-out counts of relative dates ("an hour ago").
const RELATIVE_COUNT_WORDS: &[&str] = &["an", "a", "one"];

/// Weekday names and abbreviations (lower case), longest first where one
/// is a prefix of another.
const WEEKDAYS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "tues",
    "thurs",
    "thur",
    "mon",
    "tue",
    "wed",
    "thu",
    "fri",
    "sat",
    "sun",
    // Indonesian and Malay ("Selasa, 01 Des 2026 09:45 WIB")
    "senin",
    "selasa",
    "rabu",
    "kamis",
    "jumat",
    "sabtu",
    "minggu",
];

/// Weekday names and abbreviations of other languages (lower case), as
/// a day before its date carries them ("ven. 4 déc.", "Fr., 4. Dez.",
/// "sáb 5 dic"): French, Spanish, Italian, Portuguese, German, Dutch.
/// Where two languages share a word, it names the same day.
const LOCAL_WEEKDAYS: &[(&str, Weekday)] = &[
    ("lundi", Weekday::Mon),
    ("mardi", Weekday::Tue),
    ("mercredi", Weekday::Wed),
    ("jeudi", Weekday::Thu),
    ("vendredi", Weekday::Fri),
    ("samedi", Weekday::Sat),
    ("dimanche", Weekday::Sun),
    ("lun", Weekday::Mon),
    ("mar", Weekday::Tue),
    ("mer", Weekday::Wed),
    ("jeu", Weekday::Thu),
    ("ven", Weekday::Fri),
    ("sam", Weekday::Sat),
    ("dim", Weekday::Sun),
    ("lunes", Weekday::Mon),
    ("martes", Weekday::Tue),
    ("miércoles", Weekday::Wed),
    ("miercoles", Weekday::Wed),
    ("jueves", Weekday::Thu),
    ("viernes", Weekday::Fri),
    ("sábado", Weekday::Sat),
    ("sabado", Weekday::Sat),
    ("domingo", Weekday::Sun),
    ("mié", Weekday::Wed),
    ("mie", Weekday::Wed),
    ("jue", Weekday::Thu),
    ("vie", Weekday::Fri),
    ("sáb", Weekday::Sat),
    ("sab", Weekday::Sat),
    ("dom", Weekday::Sun),
    ("lunedì", Weekday::Mon),
    ("martedì", Weekday::Tue),
    ("mercoledì", Weekday::Wed),
    ("giovedì", Weekday::Thu),
    ("venerdì", Weekday::Fri),
    ("sabato", Weekday::Sat),
    ("domenica", Weekday::Sun),
    ("gio", Weekday::Thu),
    ("segunda-feira", Weekday::Mon),
    ("terça-feira", Weekday::Tue),
    ("quarta-feira", Weekday::Wed),
    ("quinta-feira", Weekday::Thu),
    ("sexta-feira", Weekday::Fri),
    ("seg", Weekday::Mon),
    ("ter", Weekday::Tue),
    ("qua", Weekday::Wed),
    ("qui", Weekday::Thu),
    ("sex", Weekday::Fri),
    ("montag", Weekday::Mon),
    ("dienstag", Weekday::Tue),
    ("mittwoch", Weekday::Wed),
    ("donnerstag", Weekday::Thu),
    ("freitag", Weekday::Fri),
    ("samstag", Weekday::Sat),
    ("sonntag", Weekday::Sun),
    ("mo", Weekday::Mon),
    ("di", Weekday::Tue),
    ("mi", Weekday::Wed),
    ("do", Weekday::Thu),
    ("fr", Weekday::Fri),
    ("sa", Weekday::Sat),
    ("so", Weekday::Sun),
    ("maandag", Weekday::Mon),
    ("dinsdag", Weekday::Tue),
    ("woensdag", Weekday::Wed),
    ("donderdag", Weekday::Thu),
    ("vrijdag", Weekday::Fri),
    ("zaterdag", Weekday::Sat),
    ("zondag", Weekday::Sun),
    ("senin", Weekday::Mon),
    ("selasa", Weekday::Tue),
    ("rabu", Weekday::Wed),
    ("kamis", Weekday::Thu),
    ("jumat", Weekday::Fri),
    ("sabtu", Weekday::Sat),
    ("minggu", Weekday::Sun),
    ("ma", Weekday::Mon),
    ("wo", Weekday::Wed),
    ("vr", Weekday::Fri),
    ("za", Weekday::Sat),
    ("zo", Weekday::Sun),
];

/// The first characters of the CJK and Korean patterns that do not begin
/// with a digit: day words ("刚刚", "今天", "一昨日", "오늘"), the
/// spelt-out counts of relative forms ("半小时前", "两天前") and the
/// Japanese eras ("令和8年").
const CJK_START_CHARS: &[char] = &[
    '刚', '剛', '今', '昨', '前', '一', '방', '오', '어', '그', '半', '两', '兩', '令', '平',
];

/// True when the candidate is not glued to something that makes it part of a
/// longer token (phone number, version, price, id, word).
fn is_delimited(text: &str, span: Range<usize>) -> bool {
    let (Some(first), Some(last)) = (
        text[span.clone()].chars().next(),
        text[span.clone()].chars().next_back(),
    ) else {
        return false;
    };
    let mut before = text[..span.start].chars().rev();
    if let Some(b) = before.next() {
        if b.is_ascii_alphanumeric() && first.is_ascii_alphanumeric() {
            return false;
        }
        if first.is_ascii_digit() {
            // Prices, ids, versions and path segments ("$12.03", "#03/05",
            // "v1.2.2024", "/2024/03/05"); "-", ":" and "," only when glued to
            // a digit ("0171-12-2024"), since they also separate fields.
            let glued_to_digit = before.next().is_some_and(|c| c.is_ascii_digit());
            let refused = matches!(
                b,
                '$' | '€' | '£' | '¥' | '#' | '+' | '_' | '@' | '=' | '%' | '№' | '.' | '/'
            ) || (matches!(b, '-' | ':' | ',') && glued_to_digit);
            if refused {
                return false;
            }
        }
    }
    let mut after = text[span.end..].chars();
    if let Some(a) = after.next() {
        if a.is_ascii_alphanumeric() && last.is_ascii_alphanumeric() {
            return false;
        }
        if last.is_ascii_digit() {
            if matches!(a, '%' | '$' | '€' | '£') {
                return false;
            }
            let glued_to_digit = after.next().is_some_and(|c| c.is_ascii_digit());
            if matches!(a, '.' | '/' | '-' | ':') && glued_to_digit {
                return false;
            }
        }
    }
    true
}

// ---------------------------------------------------------------------------
// Patterns

/// How a pattern's captures become a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Groups `y` (optional: inferred), `m` or `mname`, `d` (optional: 1st).
    Calendar,
    /// Groups `a`/`b`/`y` (or `y2`, two digits): month/day unless `a` > 12 or the page writes
    /// its slash dates day first.
    SlashAmbiguous,
    /// Groups `a`/`b`/`y`: day/month unless `b` > 12 or the page writes
    /// its dash dates month first.
    DashAmbiguous,
    /// Groups `wday`, `d`, `mname`, `y2`: a two-digit year (RFC 822's
    /// "Mon, 30 Nov 26"), read only when the weekday is the date's.
    ShortYear,
    /// Groups `n`, `unit` (English "ago", CJK "前", Korean "전").
    Relative,
    /// Group `word`: today / yesterday / just now, their German, Spanish
    /// and French forms and their CJK forms.
    DayWord,
}

struct Pattern {
    kind: Kind,
    /// Anchored form for [`parse_date`]; `None` when not accepted there.
    whole: Option<Regex>,
    /// Form for [`find_date`], anchored at its start only ([`at_start`]);
    /// `None` when not accepted there.
    find: Option<Regex>,
    /// The whole form is kept out of the pattern set and tried alone after
    /// it, on strings that start with a letter only: a rare form should not
    /// cost every attribute read whole.
    rare: bool,
}

/// ASCII word boundary: unlike `\b` it also holds between a digit and a CJK
/// character, as in "2024-03-05发布".
const AB: &str = r"(?-u:\b)";

/// Known zone abbreviations (US ones as in RFC 2822; ambiguous ones such as
/// IST left out, so a time followed by them stays zoneless).
const ZONES: &[(&str, i32)] = &[
    ("UTC", 0),
    ("GMT", 0),
    ("UT", 0),
    ("Z", 0),
    ("WET", 0),
    ("WEST", 60),
    ("BST", 60),
    ("CET", 60),
    ("CEST", 120),
    ("EET", 120),
    ("EEST", 180),
    ("MSK", 180),
    ("HKT", 480),
    ("WIB", 420),
    ("ICT", 420),
    ("WITA", 480),
    ("AWST", 480),
    ("WIT", 540),
    ("NZST", 720),
    ("NZDT", 780),
    ("SGT", 480),
    ("JST", 540),
    ("KST", 540),
    ("AEST", 600),
    ("AEDT", 660),
    ("EST", -300),
    ("EDT", -240),
    ("CST", -360),
    ("CDT", -300),
    ("MST", -420),
    ("MDT", -360),
    ("PST", -480),
    ("PDT", -420),
];

/// Month names (lower case, without a trailing dot) in English, German,
/// French, Spanish and Italian; Portuguese, Dutch, Indonesian, Swahili
/// and Turkish by their full names. The Italian short forms that are
/// words of other languages ("set", "gen", "mag") are read only with a
/// year ([`AMBIGUOUS_ABBREVIATIONS`]); Portuguese "out" not at all.
const MONTH_NAMES: &[(&str, u32)] = &[
    ("january", 1),
    ("jan", 1),
    ("januar", 1),
    ("jänner", 1),
    ("jän", 1),
    ("janvier", 1),
    ("janv", 1),
    ("enero", 1),
    ("ene", 1),
    ("february", 2),
    ("feb", 2),
    ("februar", 2),
    ("février", 2),
    ("fevrier", 2),
    ("févr", 2),
    ("fevr", 2),
    ("fév", 2),
    ("febrero", 2),
    ("march", 3),
    ("mar", 3),
    ("märz", 3),
    ("maerz", 3),
    ("mär", 3),
    ("mrz", 3),
    ("mars", 3),
    ("marzo", 3),
    ("april", 4),
    ("apr", 4),
    ("avril", 4),
    ("avr", 4),
    ("abril", 4),
    ("abr", 4),
    ("may", 5),
    ("mai", 5),
    ("mayo", 5),
    ("june", 6),
    ("jun", 6),
    ("juni", 6),
    ("juin", 6),
    ("junio", 6),
    ("july", 7),
    ("jul", 7),
    ("juli", 7),
    ("juillet", 7),
    ("juil", 7),
    ("julio", 7),
    ("august", 8),
    ("aug", 8),
    ("août", 8),
    ("aout", 8),
    ("agosto", 8),
    ("ago", 8),
    ("september", 9),
    ("sep", 9),
    ("sept", 9),
    ("septembre", 9),
    ("septiembre", 9),
    ("setiembre", 9),
    ("october", 10),
    ("oct", 10),
    ("oktober", 10),
    ("okt", 10),
    ("octobre", 10),
    ("octubre", 10),
    ("november", 11),
    ("nov", 11),
    ("novembre", 11),
    ("noviembre", 11),
    ("december", 12),
    ("dec", 12),
    ("dezember", 12),
    ("dez", 12),
    ("décembre", 12),
    ("decembre", 12),
    ("déc", 12),
    ("diciembre", 12),
    ("dic", 12),
    // Portuguese.
    ("janeiro", 1),
    ("fevereiro", 2),
    ("março", 3),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("setembro", 9),
    ("outubro", 10),
    ("novembro", 11),
    ("dezembro", 12),
    // Italian.
    ("gennaio", 1),
    ("febbraio", 2),
    ("aprile", 4),
    ("maggio", 5),
    ("giugno", 6),
    ("luglio", 7),
    ("settembre", 9),
    ("ottobre", 10),
    ("dicembre", 12),
    // Dutch, and Indonesian (whose "Januari", "Februari", "Mei" and
    // "Agustus" are Dutch ones too).
    ("januari", 1),
    ("februari", 2),
    ("maart", 3),
    ("mei", 5),
    ("augustus", 8),
    ("maret", 3),
    ("agustus", 8),
    ("desember", 12),
    // Indonesian abbreviations ("01 Des 2026", "5 Agu 2026", "3 Nop
    // 2026"), "des" Danish and Norwegian too.
    ("agu", 8),
    ("agt", 8),
    ("ags", 8),
    ("nop", 11),
    ("des", 12),
    // Swahili ("Januari", "Februari", "Mei" and "Juni" are above).
    ("machi", 3),
    ("aprili", 4),
    ("julai", 7),
    ("agosti", 8),
    ("septemba", 9),
    ("oktoba", 10),
    ("novemba", 11),
    ("desemba", 12),
    // Italian abbreviations ("30 ott 2026", "5 set. 2026") not above.
    ("gen", 1),
    ("mag", 5),
    ("giu", 6),
    ("lug", 7),
    ("set", 9),
    ("ott", 10),
    // Polish and Czech, in the genitive a date writes them in ("28
    // listopada 2026", "28. listopadu 2026 14:03").
    ("stycznia", 1),
    ("lutego", 2),
    ("marca", 3),
    ("kwietnia", 4),
    ("maja", 5),
    ("czerwca", 6),
    ("lipca", 7),
    ("sierpnia", 8),
    ("września", 9),
    ("października", 10),
    ("listopada", 11),
    ("grudnia", 12),
    ("ledna", 1),
    ("února", 2),
    ("března", 3),
    ("dubna", 4),
    ("května", 5),
    ("června", 6),
    ("července", 7),
    ("srpna", 8),
    ("září", 9),
    ("října", 10),
    ("listopadu", 11),
    ("prosince", 12),
    // Turkish ("28 Kasım 2026 14:03"; "Mayıs" and "Aralık" by their
    // dotless i, see `NON_ASCII_DATE_MARKS`).
    ("ocak", 1),
    ("şubat", 2),
    ("mart", 3),
    ("nisan", 4),
    ("mayıs", 5),
    ("haziran", 6),
    ("temmuz", 7),
    ("ağustos", 8),
    ("eylül", 9),
    ("ekim", 10),
    ("kasım", 11),
    ("aralık", 12),
    // Swedish, beside the Dutch, German and English names above
    // ("28 maj 2026", "3 augusti 2026").
    ("maj", 5),
    ("augusti", 8),
    // Hungarian, year first ("2026. november 28.", "2026. márc. 5.").
    ("január", 1),
    ("február", 2),
    ("febr", 2),
    ("március", 3),
    ("márc", 3),
    ("április", 4),
    ("ápr", 4),
    ("május", 5),
    ("máj", 5),
    ("június", 6),
    ("jún", 6),
    ("július", 7),
    ("júl", 7),
    ("augusztus", 8),
    ("szeptember", 9),
    ("szept", 9),
    ("október", 10),
    // Finnish, in the partitive a date writes them in ("28.
    // marraskuuta 2026").
    ("tammikuuta", 1),
    ("helmikuuta", 2),
    ("maaliskuuta", 3),
    ("huhtikuuta", 4),
    ("toukokuuta", 5),
    ("kesäkuuta", 6),
    ("heinäkuuta", 7),
    ("elokuuta", 8),
    ("syyskuuta", 9),
    ("lokakuuta", 10),
    ("marraskuuta", 11),
    ("joulukuuta", 12),
];

/// Month abbreviations of [`MONTH_NAMES`] that are English or French
/// words as well ("3 ago", "2 set", "5 des"): read only with a year.
const AMBIGUOUS_ABBREVIATIONS: &[&str] = &["ago", "set", "gen", "mag", "des"];

/// English month names only (used where a year is missing, which needs more
/// caution than a full date).
const ENGLISH_MONTHS: &[&str] = &[
    "january",
    "jan",
    "february",
    "feb",
    "march",
    "mar",
    "april",
    "apr",
    "may",
    "june",
    "jun",
    "july",
    "jul",
    "august",
    "aug",
    "september",
    "sept",
    "sep",
    "october",
    "oct",
    "november",
    "nov",
    "december",
    "dec",
];

/// Arabic month names: the Gregorian ones of Egypt and the Gulf
/// ("نوفمبر", with the spellings of their hamza), and the Levant's
/// ("تشرين الثاني"). Read by their own pattern: the other month names end
/// at an ASCII word boundary, which no Arabic letter makes.
const ARABIC_MONTHS: &[(&str, u32)] = &[
    ("يناير", 1),
    ("فبراير", 2),
    ("مارس", 3),
    ("أبريل", 4),
    ("إبريل", 4),
    ("ابريل", 4),
    ("مايو", 5),
    ("يونيو", 6),
    ("يونيه", 6),
    ("يوليو", 7),
    ("يوليه", 7),
    ("أغسطس", 8),
    ("اغسطس", 8),
    ("سبتمبر", 9),
    ("أكتوبر", 10),
    ("اكتوبر", 10),
    ("نوفمبر", 11),
    ("ديسمبر", 12),
    ("كانون الثاني", 1),
    ("شباط", 2),
    ("آذار", 3),
    ("نيسان", 4),
    ("أيار", 5),
    ("حزيران", 6),
    ("تموز", 7),
    ("آب", 8),
    ("أيلول", 9),
    ("تشرين الأول", 10),
    ("تشرين الثاني", 11),
    ("كانون الأول", 12),
];

/// Thai month names, full and abbreviated (the abbreviations without
/// their last dot, which [`month_number`] trims): "30 พฤศจิกายน 2569",
/// "30 พ.ย. 2569". Read by their own pattern, as [`ARABIC_MONTHS`] are,
/// with the year in the Buddhist era ([`year_of`]).
const THAI_MONTHS: &[(&str, u32)] = &[
    ("มกราคม", 1),
    ("กุมภาพันธ์", 2),
    ("มีนาคม", 3),
    ("เมษายน", 4),
    ("พฤษภาคม", 5),
    ("มิถุนายน", 6),
    ("กรกฎาคม", 7),
    ("สิงหาคม", 8),
    ("กันยายน", 9),
    ("ตุลาคม", 10),
    ("พฤศจิกายน", 11),
    ("ธันวาคม", 12),
    ("ม.ค", 1),
    ("ก.พ", 2),
    ("มี.ค", 3),
    ("เม.ย", 4),
    ("พ.ค", 5),
    ("มิ.ย", 6),
    ("ก.ค", 7),
    ("ส.ค", 8),
    ("ก.ย", 9),
    ("ต.ค", 10),
    ("พ.ย", 11),
    ("ธ.ค", 12),
];

/// Greek month names, in the genitive a date writes them in ("28
/// Νοεμβρίου 2026, 14:03"), lower case. Read by their own pattern, as
/// [`CYRILLIC_MONTHS`] are.
const GREEK_MONTHS: &[(&str, u32)] = &[
    ("ιανουαρίου", 1),
    ("φεβρουαρίου", 2),
    ("μαρτίου", 3),
    ("απριλίου", 4),
    ("μαΐου", 5),
    ("ιουνίου", 6),
    ("ιουλίου", 7),
    ("αυγούστου", 8),
    ("σεπτεμβρίου", 9),
    ("οκτωβρίου", 10),
    ("νοεμβρίου", 11),
    ("δεκεμβρίου", 12),
];

/// Russian and Ukrainian month names: the genitive a day takes ("28
/// ноября 2026", "28 листопада 2026"), the nominative ("ноябрь"), and
/// the Russian abbreviations ("28 ноя 2026, 14:03", phpBB's; "нояб.").
/// Read by their own pattern, as [`ARABIC_MONTHS`] are: no Cyrillic
/// letter makes an ASCII word boundary.
const CYRILLIC_MONTHS: &[(&str, u32)] = &[
    ("января", 1),
    ("январь", 1),
    ("янв", 1),
    ("февраля", 2),
    ("февраль", 2),
    ("февр", 2),
    ("фев", 2),
    ("марта", 3),
    ("март", 3),
    ("мар", 3),
    ("апреля", 4),
    ("апрель", 4),
    ("апр", 4),
    ("мая", 5),
    ("май", 5),
    ("июня", 6),
    ("июнь", 6),
    ("июн", 6),
    ("июля", 7),
    ("июль", 7),
    ("июл", 7),
    ("августа", 8),
    ("август", 8),
    ("авг", 8),
    ("сентября", 9),
    ("сентябрь", 9),
    ("сент", 9),
    ("сен", 9),
    ("октября", 10),
    ("октябрь", 10),
    ("окт", 10),
    ("ноября", 11),
    ("ноябрь", 11),
    ("нояб", 11),
    ("ноя", 11),
    ("декабря", 12),
    ("декабрь", 12),
    ("дек", 12),
    ("січня", 1),
    ("лютого", 2),
    ("березня", 3),
    ("квітня", 4),
    ("травня", 5),
    ("червня", 6),
    ("липня", 7),
    ("серпня", 8),
    ("вересня", 9),
    ("жовтня", 10),
    ("листопада", 11),
    ("грудня", 12),
];

/// Hindi month names, with the spellings of their nasal and nukta
/// ("नवंबर" and "नवम्बर", "फ़रवरी" written with a combining or a
/// precomposed nukta, or none): "30 नवंबर 2026". Read by the pattern of
/// [`ARABIC_MONTHS`].
const HINDI_MONTHS: &[(&str, u32)] = &[
    ("जनवरी", 1),
    ("फ़रवरी", 2),
    ("\u{095E}रवरी", 2),
    ("फरवरी", 2),
    ("मार्च", 3),
    ("अप्रैल", 4),
    ("अप्रेल", 4),
    ("मई", 5),
    ("जून", 6),
    ("जुलाई", 7),
    ("अगस्त", 8),
    ("सितंबर", 9),
    ("सितम्बर", 9),
    ("अक्टूबर", 10),
    ("अक्तूबर", 10),
    ("नवंबर", 11),
    ("नवम्बर", 11),
    ("दिसंबर", 12),
    ("दिसम्बर", 12),
];

/// Urdu month names (the Gregorian months): "30 نومبر 2026", and the
/// first of the month written as a word, "یکم دسمبر 2026". Read by the
/// pattern of [`ARABIC_MONTHS`].
const URDU_MONTHS: &[(&str, u32)] = &[
    ("جنوری", 1),
    ("فروری", 2),
    ("مارچ", 3),
    ("اپریل", 4),
    ("مئی", 5),
    ("جون", 6),
    ("جولائی", 7),
    ("اگست", 8),
    ("ستمبر", 9),
    ("اکتوبر", 10),
    ("نومبر", 11),
    ("دسمبر", 12),
];

/// Month names of the Solar Hijri calendar (Iran's and Afghanistan's),
/// by their number in that calendar: the Persian names ("۱۰ آذر ۱۴۰۵")
/// and the Dari zodiac names of Afghanistan ("۱۰ قوس ۱۴۰۵"). A date in
/// them is read in that calendar ([`solar_hijri`]).
const SOLAR_HIJRI_MONTHS: &[(&str, u32)] = &[
    ("فروردین", 1),
    ("اردیبهشت", 2),
    ("خرداد", 3),
    ("تیر", 4),
    ("مرداد", 5),
    ("امرداد", 5),
    ("شهریور", 6),
    ("مهر", 7),
    ("آبان", 8),
    ("آذر", 9),
    ("دی", 10),
    ("بهمن", 11),
    ("اسفند", 12),
    ("حمل", 1),
    ("ثور", 2),
    ("جوزا", 3),
    ("سرطان", 4),
    ("اسد", 5),
    ("سنبله", 6),
    ("میزان", 7),
    ("عقرب", 8),
    ("قوس", 9),
    ("جدی", 10),
    ("دلو", 11),
    ("حوت", 12),
];

static MONTH_LOOKUP: LazyLock<rustc_hash::FxHashMap<&'static str, u32>> = LazyLock::new(|| {
    MONTH_NAMES
        .iter()
        .chain(ARABIC_MONTHS)
        .chain(THAI_MONTHS)
        .chain(HINDI_MONTHS)
        .chain(URDU_MONTHS)
        .chain(CYRILLIC_MONTHS)
        .chain(GREEK_MONTHS)
        .copied()
        .collect()
});

/// [`SOLAR_HIJRI_MONTHS`] by name: apart from [`MONTH_LOOKUP`], as their
/// numbers count that calendar's months.
static SOLAR_HIJRI_LOOKUP: LazyLock<rustc_hash::FxHashMap<&'static str, u32>> =
    LazyLock::new(|| SOLAR_HIJRI_MONTHS.iter().copied().collect());

/// Alternation of names, longest first so that "march" wins over "mar".
fn alternation<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> String {
    let mut names: Vec<S> = names.into_iter().collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.as_ref().chars().count()));
    names
        .iter()
        .map(|n| regex::escape(n.as_ref()))
        .collect::<Vec<_>>()
        .join("|")
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_uppercase().chain(chars).collect::<String>()
    })
}

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(build_patterns);

/// Each form's patterns as one [`RegexSet`]: one pass over a text (for
/// `find`: over the text from one possible start) tells which patterns
/// match it at all (most texts: none), so only those run their captures. Set index `i` is `whole_of[i]` / `find_of[i]` (the
/// pattern's kind and regex), in pattern order, so the first pattern that
/// builds a date still wins.
struct PatternSets {
    whole: RegexSet,
    whole_of: Vec<(Kind, &'static Regex)>,
    /// Whole forms of the rare patterns ([`Pattern::rare`]).
    whole_rare: Vec<(Kind, &'static Regex)>,
    find: RegexSet,
    find_of: Vec<(Kind, &'static Regex)>,
}

static SETS: LazyLock<PatternSets> = LazyLock::new(|| {
    let patterns: &'static [Pattern] = &PATTERNS;
    let form = |pick: fn(&'static Pattern) -> Option<&'static Regex>| {
        let of: Vec<(Kind, &'static Regex)> = patterns
            .iter()
            .filter_map(|p| pick(p).map(|re| (p.kind, re)))
            .collect();
        let set = RegexSet::new(of.iter().map(|(_, re)| re.as_str()))
            .expect("each pattern compiled alone");
        (set, of)
    };
    let (whole, whole_of) = form(|p| p.whole.as_ref().filter(|_| !p.rare));
    let whole_rare = patterns
        .iter()
        .filter(|p| p.rare)
        .filter_map(|p| p.whole.as_ref().map(|re| (p.kind, re)))
        .collect();
    let (find, find_of) = form(|p| p.find.as_ref());
    PatternSets {
        whole,
        whole_of,
        whole_rare,
        find,
        find_of,
    }
});

fn build_patterns() -> Vec<Pattern> {
    let zones = alternation(ZONES.iter().map(|(z, _)| *z));
    // Optional time after a date; its zone must end at a word boundary so a
    // following word ("Zurich") is not half-read as a zone.
    let time_after = |words: &str| {
        format!(
            r"(?:(?:\s*,\s*|\s*(?:T|[Aa]t|@|um|à|a\s+las|{words}-|–|—|\|)\s*|\s+)(?P<H>[0-9]{{1,2}})(?::|h)(?P<M>[0-9]{{2}})(?::(?P<S>[0-9]{{2}})(?:[.,][0-9]{{1,9}})?)?(?:\s*Uhr{AB})?(?:\s*(?P<ampm>[AaPp]\.?[Mm]{AB}\.?))?(?:\s*(?P<tz>(?:UTC|GMT)\s*[+-][0-9]{{1,2}}(?::?[0-9]{{2}})?|[+-][0-9]{{2}}:?[0-9]{{2}}|{zones}){AB})?)"
        )
    };
    let time = time_after("");
    // After a day word or a Cyrillic month, the words for "at" of more
    // languages ("ontem às 22h10", "вчера в 22:10", "gisteren om 18:30"),
    // kept out of the other patterns, which every date text runs through.
    let local_time = time_after(r"(?i:às|alle|om|klo|kl\.?)|o|в|о|");
    let opt_local_time = format!("(?:{local_time}|{AB})");
    // A time, or else the date must end at a word boundary ("2024-03-05T14:30"
    // glues the time on, so the boundary cannot be required before it).
    let opt_time = format!("(?:{time}|{AB})");
    let cjk_time = r"(?:\s*(?:(?P<H>[0-9]{1,2})[:：](?P<M>[0-9]{2})(?:[:：](?P<S>[0-9]{2}))?|(?P<H2>[0-9]{1,2})\s*[时時点點]\s*(?:(?P<M2>[0-9]{1,2})\s*分)?))";
    let months = format!(
        r"(?P<mname>(?i:{})){AB}\.?",
        alternation(MONTH_NAMES.iter().map(|(n, _)| *n))
    );
    let english_caps = alternation(
        ENGLISH_MONTHS
            .iter()
            .flat_map(|n| [capitalised(n), n.to_uppercase()]),
    );
    let english_months_caps = format!(r"(?P<mname>{english_caps}){AB}\.?");
    let english_months_any = format!(
        r"(?P<mname>(?i:{})){AB}\.?",
        alternation(ENGLISH_MONTHS.iter().copied())
    );
    let counts = RELATIVE_COUNT_WORDS.join("|");
    let before_units = word_alternation(AGO_BEFORE_UNITS.iter().map(|(u, _)| *u));
    let after_units = word_alternation(AGO_AFTER_UNITS.iter().map(|(u, _)| *u));
    let weekday = format!(r"(?:(?i:{})\.?,?\s+)?", WEEKDAYS.join("|"));
    // The weekday before a date without its year, kept: it tells the year.
    let named_weekday = format!(r"(?:(?P<wd>(?i:{})){AB}\.?,?\s+)?", WEEKDAYS.join("|"));
    // The same in every language, for dates with another language's
    // month only (one pattern: the names are many). A name ends where
    // `\.?,?\s+` says: a boundary test would fail after a non-ASCII
    // letter ("mié.").
    let any_weekday = alternation(
        WEEKDAYS
            .iter()
            .copied()
            .chain(LOCAL_WEEKDAYS.iter().map(|(w, _)| *w)),
    );
    let local_weekday = format!(r"(?:(?P<wd>(?i:{any_weekday}))\.?,?\s+)?");
    // Month names of every language for a yearless day, whole strings
    // only, without those that are words too ("3 ago", "2 set").
    let local_months = format!(
        r"(?P<mname>(?i:{})){AB}\.?",
        alternation(
            MONTH_NAMES
                .iter()
                .map(|(n, _)| *n)
                .filter(|n| !AMBIGUOUS_ABBREVIATIONS.contains(n) && !ENGLISH_MONTHS.contains(n))
        )
    );
    // "5th", and "5 th" where markup split the suffix off ("Jul 24<sup>th</sup>").
    let ordinal = format!(r"(?:\s*(?:st|nd|rd|th){AB})?");

    let both = |kind: Kind, body: String| Pattern {
        kind,
        whole: Some(anchored(&body)),
        find: Some(at_start(&body)),
        rare: false,
    };
    let whole_only = |kind: Kind, body: String| Pattern {
        kind,
        whole: Some(anchored(&body)),
        find: None,
        rare: false,
    };
    let rare = |kind: Kind, body: String| Pattern {
        kind,
        whole: Some(anchored(&body)),
        find: Some(at_start(&body)),
        rare: true,
    };
    let split = |kind: Kind, whole: String, find: String| Pattern {
        kind,
        whole: Some(anchored(&whole)),
        find: Some(at_start(&find)),
        rare: false,
    };

    let day_words_latin = format!(
        r"(?P<word>(?i:just\s+now|right\s+now|{}))",
        alternation(LATIN_DAY_WORDS.iter().map(|(w, _)| *w))
    );
    let timed_day_words = format!(
        r"(?P<word>(?i:{}))",
        alternation(TIMED_DAY_WORDS.iter().map(|(w, _)| *w)).replace(' ', r"\s+")
    );
    let timed_time = format!(
        r"(?:\s*,\s*|\s+)(?:(?i:klo|kl\.?|v)\s*)?(?P<H>[0-9]{{1,2}})[:.](?P<M>[0-9]{{2}}){AB}"
    );
    let day_words_cjk =
        r"(?P<word>刚刚|剛剛|刚才|剛才|今天|今日|昨天|昨日|前天|一昨日|방금|오늘|어제|그저께)";

    vec![
        // 2024-03-05, 2024/3/5, 2024-03-05T14:30:00+08:00, 2024-03-05 14:30
        both(
            Kind::Calendar,
            format!(r"(?P<y>[0-9]{{4}})[-/](?P<m>[0-9]{{1,2}})[-/](?P<d>[0-9]{{1,2}}){opt_time}"),
        ),
        // 2024.03.05 (two-digit parts: "2024.3.1" is a version more often)
        both(
            Kind::Calendar,
            format!(r"(?P<y>[0-9]{{4}})\.(?P<m>[0-9]{{2}})\.(?P<d>[0-9]{{2}}){opt_time}"),
        ),
        // 28.11.26 | 14:03, 28.11.26, 14:03 (a two-digit year, day first,
        // as a whole string and only with its time: "5.12.10" alone is
        // a version)
        whole_only(
            Kind::Calendar,
            format!(r"(?P<d>[0-9]{{1,2}})\.(?P<m>[0-9]{{1,2}})\.(?P<y2>[0-9]{{2}}){time}"),
        ),
        // 2026. 11. 28. 14:03 (Korean: a dot and a space after each part)
        both(
            Kind::Calendar,
            format!(
                r"(?P<y>[0-9]{{4}})\.\s(?P<m>[0-9]{{1,2}})\.\s(?P<d>[0-9]{{1,2}})\.?(?:{time}|{AB}|$)"
            ),
        ),
        // 05.03.2024, 5.3.2024 14:30 (European day first)
        both(
            Kind::Calendar,
            format!(r"(?P<d>[0-9]{{1,2}})\.(?P<m>[0-9]{{1,2}})\.(?P<y>[0-9]{{4}}){opt_time}"),
        ),
        // 05-03-2024 (day first, as written in Europe and India, unless
        // the second part exceeds 12 or the list writes them month first)
        both(
            Kind::DashAmbiguous,
            format!(r"(?P<a>[0-9]{{1,2}})-(?P<b>[0-9]{{1,2}})-(?P<y>[0-9]{{4}}){opt_time}"),
        ),
        // 03/05/2024 (month first unless the first part exceeds 12)
        both(
            Kind::SlashAmbiguous,
            format!(r"(?P<a>[0-9]{{1,2}})/(?P<b>[0-9]{{1,2}})/(?P<y>[0-9]{{4}}){opt_time}"),
        ),
        // 11/28/26, as a whole string only (a site builder's blog dates):
        // in running text two-digit years are too ambiguous.
        whole_only(
            Kind::SlashAmbiguous,
            format!(r"(?P<a>[0-9]{{1,2}})/(?P<b>[0-9]{{1,2}})/(?P<y2>[0-9]{{2}}){opt_time}"),
        ),
        // March 5, 2024 / Tuesday, Mar. 5th 2024 at 3:30 pm
        both(
            Kind::Calendar,
            format!(
                r"{weekday}{months}\s*(?P<d>[0-9]{{1,2}}){ordinal}(?:\s*,\s*|\s+)(?P<y>[0-9]{{4}}){opt_time}"
            ),
        ),
        // 5 March 2024 / Tue, 05 Mar 2024 14:30:00 +0000 / 5th of March 2024
        // / 05-Mar-2024 / 5. März 2024 / 5 de marzo de 2024 / 1er mars 2024
        both(
            Kind::Calendar,
            format!(
                r"{weekday}(?P<d>[0-9]{{1,2}})(?:st|nd|rd|th|er|\.)?(?:\s+(?:of|de)\s+|\s*[-/]\s*|\s+){months}(?:\s*,\s*|\s+de\s+|\s*[-/]\s*|\s+)(?P<y>[0-9]{{4}}){opt_time}"
            ),
        ),
        // Mon, 30 Nov 26 (a mail's or a listing's two-digit year): only
        // with its weekday, which must be the date's; without one, "5 March
        // 26 teams" reads no year. Rare: read whole only after the set.
        rare(
            Kind::ShortYear,
            format!(
                r"(?P<wday>(?i:{})){AB}\.?,?\s+(?P<d>[0-9]{{1,2}})\s+{english_months_caps}\s+(?P<y2>[0-9]{{2}}){opt_time}",
                WEEKDAYS.join("|")
            ),
        ),
        // 22 Jul '25 (a mail archive's older dates): the apostrophe says
        // the century was left out, so no weekday is needed.
        rare(
            Kind::ShortYear,
            format!(
                r"(?P<d>[0-9]{{1,2}})\s+{english_months_caps}\s+['’‘](?P<y2>[0-9]{{2}}){AB}{opt_time}"
            ),
        ),
        // ٣٠ نوفمبر ٢٠٢٦, 30 تشرين الثاني 2026, and the same in Urdu and
        // Hindi: 30 نومبر 2026, یکم دسمبر 2026 ("the first", read as day 1:
        // a date without a day is the month's first), 30 नवंबर 2026, 18:45
        // (Arabic-Indic and Devanagari digits are read as ASCII ones first,
        // see `foreign_digits_to_ascii`)
        both(
            Kind::Calendar,
            format!(
                r"(?:(?P<d>[0-9]{{1,2}})|{URDU_FIRST_DAY})\s+(?P<mname>{})\s*[،,]?\s*(?P<y>[0-9]{{4}}){opt_time}",
                alternation(
                    ARABIC_MONTHS
                        .iter()
                        .chain(URDU_MONTHS)
                        .chain(HINDI_MONTHS)
                        .map(|(n, _)| *n)
                )
            ),
        ),
        // 28 Νοεμβρίου 2026, 14:03
        both(
            Kind::Calendar,
            format!(
                r"(?P<d>[0-9]{{1,2}})\s+(?P<mname>(?i:{}))\s+(?P<y>[0-9]{{4}}){opt_time}",
                alternation(GREEK_MONTHS.iter().map(|(n, _)| *n))
            ),
        ),
        // 28 ноября 2026 г., 28 ноя 2026, 14:03, 28 листопада 2026
        both(
            Kind::Calendar,
            format!(
                r"(?P<d>[0-9]{{1,2}})\s+(?P<mname>(?i:{}))\.?\s+(?P<y>[0-9]{{4}})(?:\s*г\.)?{opt_local_time}",
                alternation(CYRILLIC_MONTHS.iter().map(|(n, _)| *n))
            ),
        ),
        // 30 พ.ย. 2569 10:45 น., 30 พฤศจิกายน 2569 (Buddhist era, see
        // `year_of`; Thai digits are read as ASCII ones first)
        both(
            Kind::Calendar,
            format!(
                r"(?P<d>[0-9]{{1,2}})\s*(?P<mname>{})\.?\s*(?P<yb>[0-9]{{4}}){opt_time}",
                alternation(THAI_MONTHS.iter().map(|(n, _)| *n))
            ),
        ),
        // ۱۰ آذر ۱۴۰۵ - ۱۸:۳۰ (Solar Hijri, see `solar_hijri`; Persian
        // digits are read as ASCII ones first)
        both(
            Kind::Calendar,
            format!(
                r"(?P<d>[0-9]{{1,2}})\s+(?P<mhijri>{})\s+(?P<yhijri>[0-9]{{4}}){opt_time}",
                alternation(SOLAR_HIJRI_MONTHS.iter().map(|(n, _)| *n))
            ),
        ),
        // 2023, Aug 01 / 2024 March 5th / 2026. november 28. 14:03
        // (year first; Hungarian puts a dot after the year and the day)
        both(
            Kind::Calendar,
            format!(
                r"(?P<y>[0-9]{{4}})[.,]?\s+{months}\s*(?P<d>[0-9]{{1,2}}){ordinal}\.?{opt_time}"
            ),
        ),
        // Mar 2024 → 1st of March (whole strings only, see module docs)
        whole_only(
            Kind::Calendar,
            format!(r"{months},?\s+(?P<y>[0-9]{{4}})"),
        ),
        // Mar 5 / March 5th, 14:30 (no year; capitalised names in running text)
        split(
            Kind::Calendar,
            format!(
                r"{named_weekday}{english_months_any}\s*(?P<d>[0-9]{{1,2}}){ordinal}{opt_time}"
            ),
            format!(
                r"{named_weekday}{english_months_caps}\s*(?P<d>[0-9]{{1,2}}){ordinal}{opt_time}"
            ),
        ),
        // 5 March / 5th March (no year, whole strings only)
        whole_only(
            Kind::Calendar,
            format!(
                r"{named_weekday}(?P<d>[0-9]{{1,2}}){ordinal}(?:\s+of)?\s+{english_months_any}"
            ),
        ),
        // ven. 4 déc. / 4 décembre / Fr., 4. Dez. / 5 de diciembre / jeu.
        // 24 déc. 2026 (whole strings only; the weekday names the year of
        // a yearless day)
        whole_only(
            Kind::Calendar,
            format!(
                r"{local_weekday}(?P<d>[0-9]{{1,2}})(?:er|\.)?(?:\s+de)?\s+{local_months}(?:\s+(?P<y>[0-9]{{4}}))?"
            ),
        ),
        // 2024年3月5日 14:30, 2024年03月05日
        both(
            Kind::Calendar,
            format!(
                r"(?P<y>[0-9]{{4}})\s*年\s*(?P<m>[0-9]{{1,2}})\s*月\s*(?P<d>[0-9]{{1,2}})\s*[日号號]{cjk_time}?"
            ),
        ),
        // 令和8年11月28日, 平成31年4月30日, 令和元年5月1日 (Japanese era
        // years, see `year_of`)
        both(
            Kind::Calendar,
            format!(
                r"(?P<era>{})\s*(?P<yera>[0-9]{{1,2}}|元)\s*年\s*(?P<m>[0-9]{{1,2}})\s*月\s*(?P<d>[0-9]{{1,2}})\s*日{cjk_time}?",
                alternation(JAPANESE_ERAS.iter().map(|(n, _)| *n))
            ),
        ),
        // 115年11月28日 (a year of the Republic of China's calendar, three
        // digits: no common-era year in a list has them)
        both(
            Kind::Calendar,
            format!(
                r"(?P<yroc>1[0-9]{{2}})\s*年\s*(?P<m>[0-9]{{1,2}})\s*月\s*(?P<d>[0-9]{{1,2}})\s*[日号號]{cjk_time}?"
            ),
        ),
        // 115-11-28, 115/11/28 (the same as a Taiwanese table's cell
        // writes it; whole strings only, without dots: "102.5.1" is a
        // version)
        whole_only(
            Kind::Calendar,
            format!(r"(?P<yroc>1[0-9]{{2}})[-/](?P<m>[0-9]{{2}})[-/](?P<d>[0-9]{{2}}){opt_time}"),
        ),
        // 3月5日 (no year)
        both(
            Kind::Calendar,
            format!(r"(?P<m>[0-9]{{1,2}})\s*月\s*(?P<d>[0-9]{{1,2}})\s*[日号號]{cjk_time}?"),
        ),
        // 26 4月 2024 (Japanese Pelican/strftime "%d %b %Y" with a ja locale)
        both(
            Kind::Calendar,
            format!(r"(?P<d>[0-9]{{1,2}})\s+(?P<m>[0-9]{{1,2}})\s*月\s*(?P<y>[0-9]{{4}}){opt_time}"),
        ),
        // 2024년 3월 5일
        both(
            Kind::Calendar,
            format!(
                r"(?P<y>[0-9]{{4}})\s*년\s*(?P<m>[0-9]{{1,2}})\s*월\s*(?P<d>[0-9]{{1,2}})\s*일{cjk_time}?"
            ),
        ),
        // 3 hours ago, a week ago, 5 mins ago
        both(
            Kind::Relative,
            format!(
                r"(?P<n>[0-9]{{1,3}}|(?i:{counts}))\s+(?P<unit>(?i:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?))\s+(?i:ago){AB}"
            ),
        ),
        // 3小时前, 5分钟前, 2天前, 3日前, 3時間前, 半小时前
        both(
            Kind::Relative,
            r"(?P<n>[0-9]{1,3}|半|一|两|兩)\s*(?P<unit>秒钟|秒鐘|秒|分钟|分鐘|分|个小时|個小時|小时|小時|時間|天|日|个星期|個星期|星期|周|週|个月|個月|ヶ月|か月|カ月|年)\s*(?:以前|之前|前)".to_owned(),
        ),
        // 3시간 전
        both(
            Kind::Relative,
            r"(?P<n>[0-9]{1,3})\s*(?P<unit>초|분|시간|일|주|개월|달|년)\s*전".to_owned(),
        ),
        // לפני 40 דקות, לפני שעה (Hebrew), před 3 hodinami, před hodinou
        // (Czech): whole strings only
        whole_only(
            Kind::Relative,
            format!(
                r"(?:לפני|(?i:před))\s+(?:(?P<n>[0-9]{{1,3}})\s+)?(?P<unit>{})",
                alternation(RELATIVE_UNITS_AFTER_BEFORE.iter().map(|(u, _)| *u))
            ),
        ),
        // há 3 horas, hace 2 días, vor 3 Stunden, vor einer Stunde, il y a
        // 2 jours (a word for "ago" before the age)
        both(
            Kind::Relative,
            format!(
                r"(?i:{})\s+(?:(?P<n>[0-9]{{1,3}})|(?i:{}))\s+(?P<unit>(?i:{before_units}))",
                word_alternation(AGO_BEFORE.iter().copied()),
                word_alternation(ONE_WORDS.iter().copied()),
            ),
        ),
        // 3 ore fa, 2 jam yang lalu, 3 часа назад, 3 uur geleden, för 3
        // timmar sedan (a word for "ago" after the age)
        both(
            Kind::Relative,
            format!(
                r"(?:(?i:för|for)\s+)?(?P<n>[0-9]{{1,3}})\s+(?P<unit>{after_units})\s+(?i:{})",
                word_alternation(AGO_AFTER.iter().copied()),
            ),
        ),
        // today / yesterday / just now: alone only as a whole string; in
        // running text ("sign up today") only with a time attached.
        split(
            Kind::DayWord,
            format!(r"{day_words_latin}{opt_local_time}"),
            format!(r"{day_words_latin}{AB}{local_time}"),
        ),
        split(
            Kind::DayWord,
            format!(r"{day_words_cjk}{cjk_time}?"),
            format!(r"{day_words_cjk}{cjk_time}"),
        ),
        // ma 09:15, i går 22:10, tänään 9.15, eilen klo 22.10, včera v
        // 21:40: only with a time, whose minutes may follow a dot
        both(Kind::DayWord, format!(r"{timed_day_words}{timed_time}")),
        // 20240305 (attribute-like values only)
        whole_only(
            Kind::Calendar,
            r"(?P<y>[0-9]{4})(?P<m>[0-9]{2})(?P<d>[0-9]{2})".to_owned(),
        ),
    ]
}

/// Compiles a pattern written in this file; a failure is a bug in the
/// pattern text itself, caught by every test that parses a date.
fn compile(re: &str) -> Regex {
    match Regex::new(re) {
        Ok(re) => re,
        Err(err) => panic!("invalid built-in date pattern {re:?}: {err}"),
    }
}

fn anchored(body: &str) -> Regex {
    compile(&format!("^(?:{body})$"))
}

/// The pattern anchored at the start only: [`find_any`] runs it where a
/// date can begin and reads how far it reaches.
fn at_start(body: &str) -> Regex {
    compile(&format!("^(?:{body})"))
}

// ---------------------------------------------------------------------------
// Captures → date

fn build(kind: Kind, c: &Captures, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    let dt = match kind {
        Kind::Calendar if c.name("yhijri").is_some() => {
            let date = solar_hijri(c)?;
            calendar(c, Some(date.year()), date.month(), date.day(), ctx)?
        }
        Kind::Calendar => {
            let month = match (c.name("m"), c.name("mname")) {
                (Some(m), _) => m.as_str().parse().ok()?,
                (None, Some(name)) => month_number(name.as_str())?,
                (None, None) => return None,
            };
            let day = match c.name("d") {
                Some(d) => d.as_str().parse().ok()?,
                None => 1,
            };
            calendar(c, year_of(c)?, month, day, ctx)?
        }
        Kind::SlashAmbiguous | Kind::DashAmbiguous => {
            let a: u32 = c.name("a")?.as_str().parse().ok()?;
            let b: u32 = c.name("b")?.as_str().parse().ok()?;
            // A part above 12 is the day; else the page's order decides.
            let month_first = match kind {
                Kind::SlashAmbiguous => !ctx.day_first,
                _ => ctx.dash_month_first,
            };
            let (month, day) = if a > 12 || (b <= 12 && !month_first) {
                (b, a)
            } else {
                (a, b)
            };
            calendar(c, year_of(c)?, month, day, ctx)?
        }
        Kind::ShortYear => short_year(c, ctx)?,
        // Without a count, one unit: "לפני שעה", "před hodinou" (an hour
        // ago).
        Kind::Relative => relative(
            c.name("n").map_or("1", |n| n.as_str()),
            c.name("unit")?.as_str(),
            ctx,
        )?,
        Kind::DayWord => day_word(c, ctx)?,
    };
    year_in_range(dt)
}

/// A date with a two-digit year ([`Kind::ShortYear`]): `00`–`49` in the
/// 2000s, `50`–`99` in the 1900s (RFC 2822, section 4.3), when the
/// weekday written before it is the date's, or an apostrophe before the
/// year marks its century left out ("22 Jul '25").
fn short_year(c: &Captures, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    let year = century_of(c.name("y2")?.as_str().parse().ok()?);
    let month = month_number(c.name("mname")?.as_str())?;
    let date = NaiveDate::from_ymd_opt(year, month, c.name("d")?.as_str().parse().ok()?)?;
    c.name("wday")
        .is_none_or(|w| is_weekday_of(w.as_str(), date))
        .then(|| at_time(c, date, ctx))
        .flatten()
}

/// The year a two-digit year names: `00`–`49` in the 2000s, the rest in
/// the 1900s.
fn century_of(y2: i32) -> i32 {
    if y2 < 50 { 2000 + y2 } else { 1900 + y2 }
}

/// True when `written` ("Sat", "saturday") names `date`'s weekday, by
/// its first three letters.
fn is_weekday_of(written: &str, date: NaiveDate) -> bool {
    let lower = written.trim_end_matches('.').to_lowercase();
    if let Some((_, day)) = LOCAL_WEEKDAYS.iter().find(|(w, _)| *w == lower) {
        return *day == date.weekday();
    }
    let named = date.weekday().to_string();
    written
        .get(..3)
        .is_some_and(|w| named.get(..3).is_some_and(|n| n.eq_ignore_ascii_case(w)))
}

fn year_in_range(dt: DateTime<FixedOffset>) -> Option<DateTime<FixedOffset>> {
    (MIN_YEAR..=MAX_YEAR).contains(&dt.year()).then_some(dt)
}

fn month_number(name: &str) -> Option<u32> {
    let name = name.trim_end_matches('.').to_lowercase();
    MONTH_LOOKUP.get(name.as_str()).copied()
}

thread_local! {
    /// How often this thread's date readings have looked at the clock.
    static CLOCK_READS: Cell<u64> = const { Cell::new(0) };
}

/// `ctx.now`, the reading counted ([`reads_clock`]).
fn clock(ctx: &DateContext) -> DateTime<Utc> {
    CLOCK_READS.with(|c| c.set(c.get().wrapping_add(1)));
    ctx.now
}

/// What `read` returns, and whether a date it read looked at the clock
/// ("3 days ago", "today", a day without a year): when none did, the
/// same texts read at any other time give the same dates, and no date
/// read there moves with the clock.
pub fn reads_clock<T>(read: impl FnOnce() -> T) -> (T, bool) {
    let before = CLOCK_READS.with(Cell::get);
    let out = read();
    (out, CLOCK_READS.with(Cell::get) != before)
}

/// The date a date cell shows in the short numbers a board prints
/// (Gnuboard's `td.td_datetime`): "14:03" today, "11-28" this year (or
/// last year when that day is still to come), "25-12-30" in 2025; with
/// dots as well ("11.28", "25.12.30"). Read only where markup names the
/// text a date: in running text such numbers are scores and ranges.
pub fn parse_cell_date(s: &str, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    let s = s.trim();
    if s.len() > 8
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'.' | b':'))
    {
        return None;
    }
    // Two digits in every part, or no cell date.
    let parts: Vec<u32> = s
        .split(['-', '.', ':'])
        .map(|p| (p.len() == 2).then(|| p.parse().ok()).flatten())
        .collect::<Option<_>>()?;
    let noon = |d: NaiveDate| {
        d.and_hms_opt(12, 0, 0)?
            .and_local_timezone(ctx.offset)
            .single()
    };
    match (parts.as_slice(), s.contains(':')) {
        (&[h, m], true) => {
            let time = NaiveTime::from_hms_opt(h, m, 0)?;
            local_today(ctx)
                .and_time(time)
                .and_local_timezone(ctx.offset)
                .single()
        }
        // A board prints a year for every day outside this one: the day
        // is this year's, whatever the record before it says.
        (&[month, day], false) => {
            let this_year = DateContext {
                year_near: None,
                ..*ctx
            };
            noon(infer_year(month, day, &this_year)?)
        }
        (&[y, month, day], false) => {
            noon(NaiveDate::from_ymd_opt(century_of(y as i32), month, day)?)
        }
        _ => None,
    }
}

/// Today's date where the page is.
fn local_today(ctx: &DateContext) -> NaiveDate {
    clock(ctx).with_timezone(&ctx.offset).date_naive()
}

/// The common-era day of a Solar Hijri date (`d`, `mhijri`, `yhijri`):
/// 10 Azar 1405 is 1 December 2026. The calendar's arithmetic (its
/// 33-year cycle of leap years, checked against the astronomical new
/// year) is `icu_calendar`'s.
fn solar_hijri(c: &Captures) -> Option<NaiveDate> {
    let year: i32 = c.name("yhijri")?.as_str().parse().ok()?;
    let month = *SOLAR_HIJRI_LOOKUP.get(c.name("mhijri")?.as_str())?;
    let day: u8 = c.name("d")?.as_str().parse().ok()?;
    let iso = icu_calendar::Date::try_new_persian(year, u8::try_from(month).ok()?, day)
        .ok()?
        .to_calendar(icu_calendar::Iso);
    NaiveDate::from_ymd_opt(
        iso.year().extended_year(),
        u32::from(iso.month().ordinal),
        u32::from(iso.day_of_month().0),
    )
}

/// First year of the Buddhist era that a Thai date may give: later years
/// are read as such, earlier ones as the common era's ("30 พ.ย. 2026").
const FIRST_BUDDHIST_YEAR: i32 = 2400;

/// Years between the Buddhist era (Thailand's calendar) and the common era.
const BUDDHIST_ERA_OFFSET: i32 = 543;

/// Years between the Republic of China's calendar (Taiwan's: year 1 is
/// 1912) and the common era: "115-11-28" is 2026-11-28.
const ROC_ERA_OFFSET: i32 = 1911;

/// Japanese eras a date may name and the common-era year before each
/// one's first: 令和 1 is 2019, 平成 1 is 1989.
const JAPANESE_ERAS: &[(&str, i32)] = &[("令和", 2018), ("平成", 1988)];

/// The common-era year of year `n` (digits, or 元, the first) of
/// Japanese era `era`.
fn japanese_era_year(era: &str, n: &str) -> Option<i32> {
    let n: i32 = if n == "元" { 1 } else { n.parse().ok()? };
    let (_, before) = JAPANESE_ERAS.iter().find(|(e, _)| *e == era)?;
    Some(before + n)
}

/// The captured year: `y`, `y2` (two digits), `yroc` (the Republic of
/// China's), `yera` (a Japanese era's), or `yb`, a Thai date's year, in
/// the Buddhist era when past [`FIRST_BUDDHIST_YEAR`] ("30 พ.ย. 2569" is
/// 2026). `None` inside when none was written; `None` outside when it is
/// no number.
fn year_of(c: &Captures) -> Option<Option<i32>> {
    if let Some(y) = c.name("y") {
        return y.as_str().parse().ok().map(Some);
    }
    if let Some(y2) = c.name("y2") {
        return y2.as_str().parse().ok().map(|y| Some(century_of(y)));
    }
    if let Some(y) = c.name("yroc") {
        let y: i32 = y.as_str().parse().ok()?;
        return Some(Some(y + ROC_ERA_OFFSET));
    }
    if let Some(y) = c.name("yera") {
        return japanese_era_year(c.name("era")?.as_str(), y.as_str()).map(Some);
    }
    let Some(y) = c.name("yb") else {
        return Some(None);
    };
    let y: i32 = y.as_str().parse().ok()?;
    Some(Some(if y >= FIRST_BUDDHIST_YEAR {
        y - BUDDHIST_ERA_OFFSET
    } else {
        y
    }))
}

/// A calendar date, the year given or inferred, with the captured time (if
/// any) or noon.
fn calendar(
    c: &Captures,
    year: Option<i32>,
    month: u32,
    day: u32,
    ctx: &DateContext,
) -> Option<DateTime<FixedOffset>> {
    let date = match year {
        Some(y) => NaiveDate::from_ymd_opt(y, month, day)?,
        None => c
            .name("wd")
            .and_then(|wd| year_of_weekday(wd.as_str(), month, day, ctx))
            .map_or_else(|| infer_year(month, day, ctx), Some)?,
    };
    at_time(c, date, ctx)
}

/// The day `month`/`day` in the year, of the one before, this one and the
/// next, whose weekday is `weekday` ("Sat, December 5": 2026, when
/// December 5 of 2025 was a Friday); the three years give a day three
/// different weekdays, so one at most fits. Around `ctx.year_near`, or
/// today; `None` when none fits.
fn year_of_weekday(weekday: &str, month: u32, day: u32, ctx: &DateContext) -> Option<NaiveDate> {
    let near = ctx.year_near.unwrap_or_else(|| local_today(ctx));
    (near.year() - 1..=near.year() + 1)
        .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day))
        .find(|&d| is_weekday_of(weekday, d))
}

/// Current year, or the previous one when the date would be in the future;
/// with `ctx.year_near`, the year that puts the day nearest that day.
fn infer_year(month: u32, day: u32, ctx: &DateContext) -> Option<NaiveDate> {
    if let Some(near) = ctx.year_near {
        return [near.year() - 1, near.year(), near.year() + 1]
            .into_iter()
            .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day))
            .min_by_key(|d| (*d - near).num_days().abs());
    }
    let today = local_today(ctx);
    NaiveDate::from_ymd_opt(today.year(), month, day)
        .filter(|d| *d <= today)
        .or_else(|| NaiveDate::from_ymd_opt(today.year() - 1, month, day))
}

/// Combines a date with the captured time and zone; noon in `ctx.offset`
/// when there is no time, `ctx.offset` when there is no zone.
fn at_time(c: &Captures, date: NaiveDate, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    let hour = c.name("H").or_else(|| c.name("H2"));
    let Some(hour) = hour else {
        return date
            .and_time(NaiveTime::from_hms_opt(12, 0, 0)?)
            .and_local_timezone(ctx.offset)
            .single();
    };
    let mut hour: u32 = hour.as_str().parse().ok()?;
    let minute: u32 = match c.name("M").or_else(|| c.name("M2")) {
        Some(m) => m.as_str().parse().ok()?,
        None => 0,
    };
    let second: u32 = match c.name("S") {
        Some(s) => s.as_str().parse().ok()?,
        None => 0,
    };
    if let Some(ampm) = c.name("ampm") {
        if !(1..=12).contains(&hour) {
            return None;
        }
        let pm = ampm.as_str().starts_with(['p', 'P']);
        hour = match (pm, hour) {
            (false, 12) => 0,
            (true, 12) => 12,
            (true, h) => h + 12,
            (false, h) => h,
        };
    }
    let time = NaiveTime::from_hms_opt(hour, minute, second)?;
    let offset = match c.name("tz") {
        Some(tz) => zone_offset(tz.as_str())?,
        None => ctx.offset,
    };
    date.and_time(time).and_local_timezone(offset).single()
}

/// "Z", "UTC", "GMT+8", "+08:00", "-0500", "CEST" → offset.
fn zone_offset(tz: &str) -> Option<FixedOffset> {
    if let Some((_, minutes)) = ZONES.iter().find(|(name, _)| *name == tz) {
        return FixedOffset::east_opt(minutes * 60);
    }
    let numeric = tz
        .trim_start_matches("UTC")
        .trim_start_matches("GMT")
        .trim_start();
    let (sign, rest) = match numeric.chars().next()? {
        '+' => (1, &numeric[1..]),
        '-' => (-1, &numeric[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(char::is_ascii_digit).collect();
    let (hours, minutes): (i32, i32) = match digits.len() {
        1 | 2 => (digits.parse().ok()?, 0),
        3 | 4 => {
            let split = digits.len() - 2;
            (digits[..split].parse().ok()?, digits[split..].parse().ok()?)
        }
        _ => return None,
    };
    if hours > 14 || minutes >= 60 {
        return None;
    }
    FixedOffset::east_opt(sign * (hours * 3600 + minutes * 60))
}

/// Time units of relative dates.
#[derive(Debug, Clone, Copy)]
enum Unit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

fn relative_unit(unit: &str) -> Option<Unit> {
    let lower = unit.to_lowercase();
    let u = lower.as_str();
    // Other languages' units are looked up whole: read by their first
    // letters as English ones are, Indonesian "hari" (a day) would be
    // hours.
    let local = RELATIVE_UNITS_AFTER_BEFORE
        .iter()
        .chain(AGO_BEFORE_UNITS)
        .chain(AGO_AFTER_UNITS)
        .find(|(w, _)| *w == u);
    if let Some((_, unit)) = local {
        return Some(*unit);
    }
    Some(
        if u.starts_with("sec") || matches!(u, "秒" | "秒钟" | "秒鐘" | "초") {
            Unit::Second
        } else if u.starts_with("min") || matches!(u, "分" | "分钟" | "分鐘" | "분") {
            Unit::Minute
        } else if u.starts_with('h')
            || matches!(u, "小时" | "小時" | "个小时" | "個小時" | "時間" | "시간")
        {
            Unit::Hour
        } else if u.starts_with("day") || matches!(u, "天" | "日" | "일") {
            Unit::Day
        } else if u.starts_with("w")
            || matches!(u, "周" | "週" | "星期" | "个星期" | "個星期" | "주")
        {
            Unit::Week
        } else if u.starts_with("month")
            || matches!(
                u,
                "个月" | "個月" | "ヶ月" | "か月" | "カ月" | "개월" | "달"
            )
        {
            Unit::Month
        } else if u.starts_with('y') || matches!(u, "年" | "년") {
            Unit::Year
        } else {
            return None;
        },
    )
}

/// Units of the ages that a word for "before" leads, with or without a
/// count, lower case: Hebrew ("לפני 40 דקות", "לפני שעה") and Czech
/// ("před 3 hodinami", "před hodinou", in the instrumental).
const RELATIVE_UNITS_AFTER_BEFORE: &[(&str, Unit)] = &[
    ("דקה", Unit::Minute),
    ("דקות", Unit::Minute),
    ("שעה", Unit::Hour),
    ("שעות", Unit::Hour),
    ("יום", Unit::Day),
    ("ימים", Unit::Day),
    ("שבוע", Unit::Week),
    ("שבועות", Unit::Week),
    ("חודש", Unit::Month),
    ("חודשים", Unit::Month),
    ("שנה", Unit::Year),
    ("שנים", Unit::Year),
    ("minutou", Unit::Minute),
    ("minutami", Unit::Minute),
    ("hodinou", Unit::Hour),
    ("hodinami", Unit::Hour),
    ("dnem", Unit::Day),
    ("dny", Unit::Day),
    ("týdnem", Unit::Week),
    ("týdny", Unit::Week),
    ("měsícem", Unit::Month),
    ("měsíci", Unit::Month),
    ("rokem", Unit::Year),
    ("lety", Unit::Year),
];

/// Units of the ages [`AGO_BEFORE`] leads, lower case (matched in any
/// case: German writes "Stunden"): Portuguese, Spanish, German, French.
const AGO_BEFORE_UNITS: &[(&str, Unit)] = &[
    ("segundo", Unit::Second),
    ("segundos", Unit::Second),
    ("minuto", Unit::Minute),
    ("minutos", Unit::Minute),
    ("hora", Unit::Hour),
    ("horas", Unit::Hour),
    ("dia", Unit::Day),
    ("dias", Unit::Day),
    ("día", Unit::Day),
    ("días", Unit::Day),
    ("semana", Unit::Week),
    ("semanas", Unit::Week),
    ("mês", Unit::Month),
    ("meses", Unit::Month),
    ("mes", Unit::Month),
    ("ano", Unit::Year),
    ("anos", Unit::Year),
    ("año", Unit::Year),
    ("años", Unit::Year),
    ("sekunde", Unit::Second),
    ("sekunden", Unit::Second),
    ("minute", Unit::Minute),
    ("minuten", Unit::Minute),
    ("stunde", Unit::Hour),
    ("stunden", Unit::Hour),
    ("tag", Unit::Day),
    ("tagen", Unit::Day),
    ("woche", Unit::Week),
    ("wochen", Unit::Week),
    ("monat", Unit::Month),
    ("monaten", Unit::Month),
    ("jahr", Unit::Year),
    ("jahren", Unit::Year),
    ("seconde", Unit::Second),
    ("secondes", Unit::Second),
    ("minutes", Unit::Minute),
    ("heure", Unit::Hour),
    ("heures", Unit::Hour),
    ("jour", Unit::Day),
    ("jours", Unit::Day),
    ("semaine", Unit::Week),
    ("semaines", Unit::Week),
    ("mois", Unit::Month),
    ("an", Unit::Year),
    ("ans", Unit::Year),
];

/// Units of the ages [`AGO_AFTER`] follows, lower case (matched so):
/// Italian, Dutch, Polish, Turkish, Indonesian and Malay, Russian and
/// Ukrainian, Finnish, Swedish, Danish and Norwegian, Vietnamese.
const AGO_AFTER_UNITS: &[(&str, Unit)] = &[
    ("secondo", Unit::Second),
    ("secondi", Unit::Second),
    ("minuto", Unit::Minute),
    ("minuti", Unit::Minute),
    ("ora", Unit::Hour),
    ("ore", Unit::Hour),
    ("giorno", Unit::Day),
    ("giorni", Unit::Day),
    ("settimana", Unit::Week),
    ("settimane", Unit::Week),
    ("mese", Unit::Month),
    ("mesi", Unit::Month),
    ("anno", Unit::Year),
    ("anni", Unit::Year),
    ("seconden", Unit::Second),
    ("minuut", Unit::Minute),
    ("uur", Unit::Hour),
    ("dag", Unit::Day),
    ("dagen", Unit::Day),
    ("week", Unit::Week),
    ("weken", Unit::Week),
    ("maand", Unit::Month),
    ("maanden", Unit::Month),
    ("jaar", Unit::Year),
    ("sekund", Unit::Second),
    ("sekundy", Unit::Second),
    ("minut", Unit::Minute),
    ("minuty", Unit::Minute),
    ("minutę", Unit::Minute),
    ("godzin", Unit::Hour),
    ("godziny", Unit::Hour),
    ("godzinę", Unit::Hour),
    ("dni", Unit::Day),
    ("dzień", Unit::Day),
    ("tydzień", Unit::Week),
    ("tygodnie", Unit::Week),
    ("tygodni", Unit::Week),
    ("miesiąc", Unit::Month),
    ("miesiące", Unit::Month),
    ("miesięcy", Unit::Month),
    ("rok", Unit::Year),
    ("lata", Unit::Year),
    ("lat", Unit::Year),
    ("saniye", Unit::Second),
    ("dakika", Unit::Minute),
    ("saat", Unit::Hour),
    ("gün", Unit::Day),
    ("hafta", Unit::Week),
    ("ay", Unit::Month),
    ("yıl", Unit::Year),
    ("detik", Unit::Second),
    ("menit", Unit::Minute),
    ("minit", Unit::Minute),
    ("jam", Unit::Hour),
    ("hari", Unit::Day),
    ("minggu", Unit::Week),
    ("bulan", Unit::Month),
    ("tahun", Unit::Year),
    ("секунд", Unit::Second),
    ("секунду", Unit::Second),
    ("секунды", Unit::Second),
    ("секунди", Unit::Second),
    ("минут", Unit::Minute),
    ("минуту", Unit::Minute),
    ("минуты", Unit::Minute),
    ("хвилин", Unit::Minute),
    ("хвилину", Unit::Minute),
    ("хвилини", Unit::Minute),
    ("час", Unit::Hour),
    ("часа", Unit::Hour),
    ("часов", Unit::Hour),
    ("годин", Unit::Hour),
    ("годину", Unit::Hour),
    ("години", Unit::Hour),
    ("день", Unit::Day),
    ("дня", Unit::Day),
    ("дней", Unit::Day),
    ("дні", Unit::Day),
    ("днів", Unit::Day),
    ("неделю", Unit::Week),
    ("недели", Unit::Week),
    ("недель", Unit::Week),
    ("тиждень", Unit::Week),
    ("тижні", Unit::Week),
    ("тижнів", Unit::Week),
    ("месяц", Unit::Month),
    ("месяца", Unit::Month),
    ("месяцев", Unit::Month),
    ("місяць", Unit::Month),
    ("місяці", Unit::Month),
    ("місяців", Unit::Month),
    ("год", Unit::Year),
    ("года", Unit::Year),
    ("лет", Unit::Year),
    ("рік", Unit::Year),
    ("роки", Unit::Year),
    ("років", Unit::Year),
    ("sekuntia", Unit::Second),
    ("minuuttia", Unit::Minute),
    ("tunti", Unit::Hour),
    ("tuntia", Unit::Hour),
    ("päivää", Unit::Day),
    ("viikkoa", Unit::Week),
    ("kuukautta", Unit::Month),
    ("vuotta", Unit::Year),
    ("sekunder", Unit::Second),
    ("minuter", Unit::Minute),
    ("minutter", Unit::Minute),
    ("timme", Unit::Hour),
    ("timmar", Unit::Hour),
    ("time", Unit::Hour),
    ("timer", Unit::Hour),
    ("dagar", Unit::Day),
    ("dage", Unit::Day),
    ("dager", Unit::Day),
    ("vecka", Unit::Week),
    ("veckor", Unit::Week),
    ("uge", Unit::Week),
    ("uger", Unit::Week),
    ("uke", Unit::Week),
    ("uker", Unit::Week),
    ("månad", Unit::Month),
    ("månader", Unit::Month),
    ("måned", Unit::Month),
    ("måneder", Unit::Month),
    ("år", Unit::Year),
    ("giây", Unit::Second),
    ("phút", Unit::Minute),
    ("giờ", Unit::Hour),
    ("ngày", Unit::Day),
    ("tuần", Unit::Week),
    ("tháng", Unit::Month),
    ("năm", Unit::Year),
];

/// Words for "ago" written before an age, lower case ("há 3 horas", "hace
/// 2 días", "vor 3 Stunden", "il y a 2 jours").
const AGO_BEFORE: &[&str] = &["há", "hace", "vor", "il y a"];

/// Words for "ago" written after an age, lower case ("3 ore fa", "2 jam
/// yang lalu", "3 часа назад", "3 uur geleden", "3 saat önce", "3 tuntia
/// sitten", "för 3 timmar sedan", "3 timer siden", "3 giờ trước").
const AGO_AFTER: &[&str] = &[
    "fa",
    "назад",
    "тому",
    "yang lalu",
    "lalu",
    "geleden",
    "temu",
    "önce",
    "sitten",
    "sedan",
    "siden",
    "trước",
];

/// Words for "one" that count an age instead of a digit ("há uma hora",
/// "vor einer Stunde", "il y a un jour").
const ONE_WORDS: &[&str] = &[
    "um", "uma", "un", "una", "une", "ein", "eine", "einer", "einem", "een",
];

/// The longest run of ASCII letters of each of [`AGO_BEFORE`] and
/// [`AGO_AFTER`] ("h" of "há", "nce" of "önce", "il" of "il y a"), sorted
/// and lower case, the words written in ASCII whole: a text holds an age
/// in those words only if one of its runs of ASCII letters is one of
/// these. Empty for words without one ("назад": Cyrillic passes with its
/// digit as the month names do).
static AGO_WORD_RUNS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut runs: Vec<&'static str> = AGO_BEFORE
        .iter()
        .chain(AGO_AFTER)
        .filter_map(|w| {
            w.split(|c: char| !c.is_ascii_alphabetic())
                .max_by_key(|r| r.len())
                .filter(|r| !r.is_empty())
        })
        .collect();
    runs.sort_unstable();
    runs.dedup();
    runs
});

/// `words` as a regex alternation, longest first, a space matching any
/// whitespace, and each word that ends in an ASCII letter ending at a word
/// boundary (a test that would fail after a non-ASCII letter, "mês").
fn word_alternation<'w>(words: impl IntoIterator<Item = &'w str>) -> String {
    let mut words: Vec<&str> = words.into_iter().collect();
    words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    words
        .iter()
        .map(|w| {
            let re = regex::escape(w).replace(' ', r"\s+");
            if w.ends_with(|c: char| c.is_ascii_alphabetic()) {
                format!("{re}{AB}")
            } else {
                re
            }
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// `n` units before `ctx.now`, in `ctx.offset`. "半" (half) is supported.
fn relative(n: &str, unit: &str, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    // Counted in half units so that "半小时前" (half an hour ago) is exact.
    let halves: i64 = match n.to_lowercase().as_str() {
        "a" | "an" | "one" | "一" => 2,
        one if ONE_WORDS.contains(&one) => 2,
        "两" | "兩" => 4,
        "半" => 1,
        digits => digits.parse::<i64>().ok()? * 2,
    };
    let seconds_per = |secs: i64| Duration::try_seconds(secs * halves / 2);
    let now = clock(ctx);
    let then = match relative_unit(unit)? {
        Unit::Second => now.checked_sub_signed(seconds_per(1)?)?,
        Unit::Minute => now.checked_sub_signed(seconds_per(60)?)?,
        Unit::Hour => now.checked_sub_signed(seconds_per(3600)?)?,
        Unit::Day => now.checked_sub_signed(seconds_per(86_400)?)?,
        Unit::Week => now.checked_sub_signed(seconds_per(7 * 86_400)?)?,
        Unit::Month => {
            let whole = now.checked_sub_months(Months::new(u32::try_from(halves / 2).ok()?))?;
            if halves % 2 == 1 {
                whole.checked_sub_signed(Duration::try_days(15)?)?
            } else {
                whole
            }
        }
        Unit::Year => now.checked_sub_months(Months::new(u32::try_from(halves * 6).ok()?))?,
    };
    Some(then.with_timezone(&ctx.offset))
}

/// today / yesterday / day before yesterday (a day, optionally with a time),
/// or just now (the exact `ctx.now`).
fn day_word(c: &Captures, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    let word = c.name("word")?.as_str().to_lowercase();
    let word = word.split_whitespace().collect::<Vec<_>>().join(" ");
    let days_back = match word.as_str() {
        "just now" | "right now" | "刚刚" | "剛剛" | "刚才" | "剛才" | "방금" => {
            return Some(clock(ctx).with_timezone(&ctx.offset));
        }
        "今天" | "今日" | "오늘" => 0,
        "昨天" | "昨日" | "어제" => 1,
        "前天" | "一昨日" | "그저께" => 2,
        latin => LATIN_DAY_WORDS
            .iter()
            .chain(TIMED_DAY_WORDS)
            .find_map(|&(w, days)| (w == latin).then_some(days))?,
    };
    let date = local_today(ctx).checked_sub_days(chrono::Days::new(days_back))?;
    at_time(c, date, ctx)
}

// ---------------------------------------------------------------------------
// Noise around whole-string dates

static LEADING_NOISE: LazyLock<Regex> = LazyLock::new(|| {
    compile(&format!(
        r"^(?:[\s\p{{Pd}}\p{{Ps}}\p{{Pe}}\p{{Pi}}\p{{Pf}}·•|:：,;/*~]+|(?i:(?:last\s+)?(?:posted|published|updated|modified|created|edited|released|dated|date)(?:\s+(?:on|at|in))?|on|at|le|am|el|veröffentlicht(?:\s+am)?|aktualisiert(?:\s+am)?|publié(?:\s+le)?|mis\s+à\s+jour(?:\s+le)?|publicado(?:\s+el)?|actualizado(?:\s+el)?){AB}|发布于|發佈於|发布时间|發佈時間|发表于|發表於|发布日期|更新于|更新於|更新时间|更新時間|日期|时间|時間|投稿日|更新日|公開日|作成日|게시일|작성일)+"
    ))
});

static TRAILING_NOISE: LazyLock<Regex> =
    LazyLock::new(|| compile(r"[\s\p{Pd}\p{Ps}\p{Pe}\p{Pi}\p{Pf}·•|:：,;/*~.。]+$"));

fn strip_noise(s: &str) -> &str {
    let start = LEADING_NOISE.find(s).map_or(0, |m| m.end());
    let rest = &s[start..];
    let end = TRAILING_NOISE.find(rest).map_or(rest.len(), |m| m.start());
    &rest[..end]
}

/// English words that make a date without a digit: "an hour ago", "just
/// now", "today", "yesterday".
const ASCII_DATE_WORDS: [&str; 4] = ["ago", "now", "today", "yesterday"];

/// True when ASCII letter `c` (any case) begins one of
/// [`ASCII_DATE_WORDS`]: one test per letter before any word comparison.
fn is_date_word_initial(c: u8) -> bool {
    matches!(c | 0x20, b'a' | b'n' | b't' | b'y')
}

/// Day words (lower case) and how many days back they name: English,
/// German, Spanish, French, Polish, Greek, Dutch, Portuguese, Italian,
/// Russian and Ukrainian
/// (Italian "ieri" is Romanian too). French "hier" (yesterday) is left
/// out: in German it means "here". Read alone as a whole string, or with
/// a time; those that are short or common words elsewhere are
/// [`TIMED_DAY_WORDS`].
const LATIN_DAY_WORDS: &[(&str, u64)] = &[
    ("today", 0),
    ("heute", 0),
    ("hoy", 0),
    ("aujourd'hui", 0),
    ("aujourd’hui", 0),
    ("yesterday", 1),
    ("gestern", 1),
    ("ayer", 1),
    ("vorgestern", 2),
    ("anteayer", 2),
    ("avant-hier", 2),
    ("dzisiaj", 0),
    ("dziś", 0),
    ("wczoraj", 1),
    ("przedwczoraj", 2),
    ("σήμερα", 0),
    ("χθες", 1),
    ("προχθές", 2),
    ("vandaag", 0),
    ("gisteren", 1),
    ("eergisteren", 2),
    ("hoje", 0),
    ("ontem", 1),
    ("anteontem", 2),
    ("oggi", 0),
    ("ieri", 1),
    ("сегодня", 0),
    ("вчера", 1),
    ("позавчера", 2),
    ("сьогодні", 0),
    ("вчора", 1),
    ("позавчора", 2),
];

/// Day words read only with a time after them ("ma 09:15", "i går
/// 22:10", "tänään 9.15"): alone they are words of other languages
/// ("ma", "dnes") or too short to tell. Hungarian, Finnish, Swedish,
/// Norwegian and Danish, Czech and Turkish; a space inside matches any
/// whitespace.
const TIMED_DAY_WORDS: &[(&str, u64)] = &[
    ("ma", 0),
    ("tegnap", 1),
    ("tegnapelőtt", 2),
    ("tänään", 0),
    ("eilen", 1),
    ("toissapäivänä", 2),
    ("i dag", 0),
    ("idag", 0),
    ("i går", 1),
    ("igår", 1),
    ("i förrgår", 2),
    ("i forgårs", 2),
    ("dnes", 0),
    ("včera", 1),
    ("předevčírem", 2),
    ("bugün", 0),
    ("dün", 1),
];

/// The leading ASCII letters of each of [`TIMED_DAY_WORDS`] ("t" of
/// "tänään", "i" of "i går"), sorted: a text holds one of those words
/// only if one of its runs of ASCII letters is one of these.
static TIMED_DAY_WORD_STARTS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut starts: Vec<&'static str> = TIMED_DAY_WORDS
        .iter()
        .map(|(w, _)| ascii_letters_start(w))
        .collect();
    starts.sort_unstable();
    starts.dedup();
    starts
});

/// The leading ASCII letters of each of [`LATIN_DAY_WORDS`] ("aujourd" for
/// "aujourd'hui", "avant" for "avant-hier"): the patterns read a day word
/// only at the start of a run of letters, so a run that begins with none of
/// these holds none.
static LATIN_DAY_WORD_STARTS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    LATIN_DAY_WORDS
        .iter()
        .map(|(w, _)| ascii_letters_start(w))
        .filter(|w| !w.is_empty())
        .collect()
});

/// The leading ASCII letters of `w` ("aujourd" of "aujourd'hui", "m" of
/// "märz").
fn ascii_letters_start(w: &str) -> &str {
    let end = w.find(|c: char| !c.is_ascii_alphabetic());
    &w[..end.unwrap_or(w.len())]
}

/// A cheap test run before any pattern: false only for texts no pattern
/// can read a date from, so most link and text runs of a list page skip
/// the regex work (and the lazy DFA states it would build for them).
///
/// A text passes when it holds one of [`ASCII_DATE_WORDS`] anywhere
/// (relative dates, day words), a run of ASCII letters that begins with
/// one of [`LATIN_DAY_WORD_STARTS`], or an ASCII digit and:
/// - a numeric date's digits: three digit runs joined by `-`, `/` or `.`
///   with a four-digit year at one end and one or two digits in the other
///   two (every numeric form, RFC 3339), or a run of exactly eight digits
///   (`20240305`). Version strings (`12.7.3`), prices, ids and Unix times
///   have neither;
/// - or a clock time and a run of ASCII letters that begins one of
///   [`TIMED_DAY_WORDS`] (`ma 09:15`, `i går 22:10`, `tänään 9.15`);
/// - or a word for "ago" of another language, by its ASCII letters
///   ([`AGO_WORD_RUNS`]: `há 3 horas`, `3 ore fa`; without a digit, with
///   a word for "one": `vor einer Stunde`);
/// - or a word of ASCII letters that is a month name (every named form,
///   RFC 2822: each has a day or a year; the patterns end a month name at a
///   word boundary, and `find_date` refuses one glued to a letter before
///   it).
///
/// Non-ASCII text also passes with one of [`DATE_WORD_CHARS`] (CJK and Korean
/// day words and relative forms, some without a digit, and the Hebrew and
/// Czech words for "before"), a full-width digit,
/// or an ASCII digit and one of [`NON_ASCII_DATE_MARKS`] (the CJK and Korean
/// month and "before" signs, the accented letters of the German,
/// French, Czech and Polish month names, and the Turkish letters of
/// theirs), or an ASCII digit and a letter of a script whose month names
/// have patterns of their own ([`is_script_month_letter`]).
///
/// `prefilter_never_drops_a_date` checks the invariant against the
/// patterns themselves on generated texts.
pub(crate) fn may_hold_date(s: &str) -> bool {
    let b = s.as_bytes();
    let has_digit = b.iter().any(u8::is_ascii_digit);
    if ascii_words_may_date(b, has_digit) || (has_digit && numeric_date_shape(b)) {
        return true;
    }
    // Only the characters outside ASCII can be these.
    !s.is_ascii()
        && s.chars().any(|c| {
            !c.is_ascii()
                && (DATE_WORD_CHARS.contains(&c)
                    || is_foreign_digit(c)
                    || (has_digit && is_script_month_letter(c))
                    || (has_digit && NON_ASCII_DATE_MARKS.contains(&c)))
        })
}

/// Longest text (bytes) read for an age whose count is a word ("vor
/// einer Stunde", "Aktualisiert il y a une heure"): longer ones are
/// sentences, and most texts on a page have no digit.
const MAX_SPELT_AGE_BYTES: usize = 48;

/// True when a run of ASCII letters of `b` may make a date, in one pass
/// over the runs, each lowered once and looked up once ([`WORD_ROLES`]):
/// - it holds one of [`ASCII_DATE_WORDS`] or begins one of
///   [`LATIN_DAY_WORD_STARTS`];
/// - with `has_digit`, it is a month name or one of [`AGO_WORD_RUNS`]
///   (the "há" of "há 3 horas", the "lalu" of "2 jam yang lalu");
/// - without, in a short text, one of [`ONE_WORDS`] follows the last run
///   of one of [`AGO_BEFORE`] ("vor einer Stunde", "il y a une heure");
/// - with `has_digit` and a clock time (`9.15`, `22:10`), one not glued
///   to a digit after it begins one of [`TIMED_DAY_WORDS`] (a version,
///   `v2.10.2`, has neither).
fn ascii_words_may_date(b: &[u8], has_digit: bool) -> bool {
    let spelt_ages = has_digit || b.len() <= MAX_SPELT_AGE_BYTES;
    let roles = &*WORD_ROLES;
    let mut buf = [0u8; WORD_BUFFER];
    let (mut after_ago, mut timed) = (false, false);
    for r in byte_runs(b, u8::is_ascii_alphabetic) {
        let word = &b[r.clone()];
        if holds_date_word(word) || begins_day_word(word) {
            return true;
        }
        if !has_digit && !spelt_ages {
            continue;
        }
        let role = lowercase(word, &mut buf)
            .and_then(|w| roles.get(w))
            .copied()
            .unwrap_or(0);
        if has_digit && role & (ROLE_MONTH | ROLE_AGO) != 0 {
            return true;
        }
        if spelt_ages && after_ago && role & ROLE_ONE != 0 {
            return true;
        }
        let glued = b.get(r.end).is_some_and(u8::is_ascii_digit);
        timed |= has_digit && !glued && role & ROLE_TIMED_DAY != 0;
        after_ago = role & ROLE_AGO_BEFORE_END != 0;
    }
    timed && has_clock_time(b)
}

/// [`WORD_ROLES`]: a month name ([`MONTH_LOOKUP`]).
const ROLE_MONTH: u8 = 1;
/// [`WORD_ROLES`]: one of [`AGO_WORD_RUNS`].
const ROLE_AGO: u8 = 2;
/// [`WORD_ROLES`]: one of [`TIMED_DAY_WORD_STARTS`].
const ROLE_TIMED_DAY: u8 = 4;
/// [`WORD_ROLES`]: one of [`AGO_BEFORE_ENDS`].
const ROLE_AGO_BEFORE_END: u8 = 8;
/// [`WORD_ROLES`]: one of [`ONE_WORDS`].
const ROLE_ONE: u8 = 16;

/// The words of ASCII letters (lower case) that may make a date whole,
/// with their roles (`ROLE_*`): one lookup per word of a text tells them
/// all.
static WORD_ROLES: LazyLock<rustc_hash::FxHashMap<&'static [u8], u8>> = LazyLock::new(|| {
    let mut roles = rustc_hash::FxHashMap::default();
    let months = MONTH_LOOKUP.keys().copied().filter(|w| w.is_ascii());
    let lists: [(Vec<&'static str>, u8); 5] = [
        (months.collect(), ROLE_MONTH),
        (AGO_WORD_RUNS.clone(), ROLE_AGO),
        (TIMED_DAY_WORD_STARTS.clone(), ROLE_TIMED_DAY),
        (AGO_BEFORE_ENDS.clone(), ROLE_AGO_BEFORE_END),
        (ONE_WORDS.to_vec(), ROLE_ONE),
    ];
    for (words, role) in lists {
        for w in words {
            *roles.entry(w.as_bytes()).or_insert(0) |= role;
        }
    }
    roles
});

/// The last run of ASCII letters of each of [`AGO_BEFORE`] ("h" of "há",
/// "a" of "il y a"): a count spelt out follows it.
static AGO_BEFORE_ENDS: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    AGO_BEFORE
        .iter()
        .filter_map(|a| {
            a.rsplit(|c: char| !c.is_ascii_alphabetic())
                .find(|r| !r.is_empty())
        })
        .collect()
});

/// True when `b` has a clock time: one or two digits, `:` or `.`, and two
/// digits, joined to no other digits by `.` or `:` (`9.15`, `22:10`, not
/// the `2.10` of `2.10.2`).
fn has_clock_time(b: &[u8]) -> bool {
    let runs: Vec<Range<usize>> = byte_runs(b, u8::is_ascii_digit).collect();
    let joined = |at: usize, next: usize| at + 1 == next && matches!(b.get(at), Some(b':' | b'.'));
    runs.windows(2).enumerate().any(|(k, w)| {
        let (h, m) = (&w[0], &w[1]);
        let before = k > 0 && joined(runs[k - 1].end, h.start);
        let after = runs.get(k + 2).is_some_and(|n| joined(m.end, n.start));
        (1..=2).contains(&h.len()) && m.len() == 2 && joined(h.end, m.start) && !before && !after
    })
}

/// True for a letter of the scripts whose month names have patterns of
/// their own: Greek, Arabic (and Persian), Thai, Devanagari, Cyrillic.
fn is_script_month_letter(c: char) -> bool {
    is_greek_letter(c)
        || is_arabic_letter(c)
        || is_persian_letter(c)
        || is_thai_letter(c)
        || is_devanagari_letter(c)
        || is_cyrillic_letter(c)
}

/// True for the letters of Greek script: beside a digit, they may be a
/// month's name ([`GREEK_MONTHS`]) or a day word ("Σήμερα, 09:15").
fn is_greek_letter(c: char) -> bool {
    ('\u{0370}'..='\u{03FF}').contains(&c)
}

/// True for the letters of Cyrillic script: beside a digit, they may be
/// a month's name ([`CYRILLIC_MONTHS`]).
fn is_cyrillic_letter(c: char) -> bool {
    ('\u{0400}'..='\u{04FF}').contains(&c)
}

/// Non-ASCII characters that, beside a digit, may make a date: 月 and 월
/// (every CJK and Korean calendar form), 전 (Korean relative forms), and the
/// accented letters of the month names in [`MONTH_NAMES`] ("märz",
/// "février", "août"), which split a word into ASCII runs that are not
/// month names.
const NON_ASCII_DATE_MARKS: &[char] = &[
    '月', '월', '전', 'ä', 'Ä', 'é', 'É', 'û', 'Û', 'ı', 'ş', 'Ş', 'ğ', 'ü', 'á', 'í', 'ú', 'Ú',
    'ě', 'č', 'ś', 'ź',
];

/// The first character of every CJK and Korean day word and relative form
/// that has no digit ("刚刚", "今天", "昨日", "半小时前", "오늘", "어제", ...),
/// and a letter of the Hebrew and Czech words for "before" that lead an
/// age without a count ("לפני שעה", "před hodinou").
const DATE_WORD_CHARS: &[char] = &[
    '刚', '剛', '今', '昨', '前', '방', '오', '어', '그', 'ל', 'ř',
];

/// The maximal runs of bytes of `b` that `class` accepts, as ranges in
/// order: `byte_runs(b"v2.10", u8::is_ascii_digit)` gives `1..2`, `3..5`.
pub fn byte_runs(b: &[u8], class: fn(&u8) -> bool) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && !class(&b[i]) {
            i += 1;
        }
        let start = i;
        while i < b.len() && class(&b[i]) {
            i += 1;
        }
        (i > start).then_some(start..i)
    })
}

/// Three digit runs joined by `-`, `/` or `.` with a four-digit year at one
/// end and one or two digits in the other two, or three runs of one or
/// two digits joined by `/` or `.` (`11/28/26`, `28.11.26`), or a
/// three-digit year and two two-digit parts joined by `-` or `/`
/// (`115-11-28`), or exactly eight digits in a row: the digits of every
/// numeric date pattern.
fn numeric_date_shape(b: &[u8]) -> bool {
    // Lengths of the current chain of joined runs, its last three only,
    // and whether the last two joins were slashes, or dots.
    let mut chain: [usize; 3] = [0; 3];
    let mut slashes: [bool; 2] = [false; 2];
    let mut dots: [bool; 2] = [false; 2];
    let mut previous_end: Option<usize> = None;
    for run in byte_runs(b, u8::is_ascii_digit) {
        if run.len() == 8 {
            return true;
        }
        // A dot and a space join too ("2026. 11. 28.", as Korean writes).
        let join = previous_end
            .filter(|&end| {
                (end + 1 == run.start && matches!(b[end], b'-' | b'/' | b'.'))
                    || (end + 2 == run.start && &b[end..run.start] == b". ")
            })
            .map(|end| b[end]);
        if join.is_none() {
            chain = [0; 3];
        }
        chain = [chain[1], chain[2], run.len()];
        slashes = [slashes[1], join == Some(b'/')];
        dots = [dots[1], join == Some(b'.')];
        let short = |n: usize| (1..=2).contains(&n);
        let year_first = chain[0] == 4 && short(chain[1]) && short(chain[2]);
        let year_last = short(chain[0]) && short(chain[1]) && chain[2] == 4;
        let short_year = chain.iter().all(|&n| short(n))
            && chain[2] == 2
            && (slashes == [true; 2] || dots == [true; 2]);
        let roc_year_first = chain == [3, 2, 2] && dots == [false; 2];
        if year_first || year_last || short_year || roc_year_first {
            return true;
        }
        previous_end = Some(run.end);
    }
    false
}

/// True when `word` (ASCII letters, any case) holds one of
/// [`ASCII_DATE_WORDS`] anywhere; one byte test per letter before any
/// word comparison: most words hold none.
fn holds_date_word(word: &[u8]) -> bool {
    (0..word.len()).any(|i| {
        is_date_word_initial(word[i]) && ASCII_DATE_WORDS.iter().any(|w| begins_ci(&word[i..], w))
    })
}

/// True when `word` (ASCII letters, any case) begins one of
/// [`LATIN_DAY_WORD_STARTS`], looked up by its first letter.
fn begins_day_word(word: &[u8]) -> bool {
    let Some(first) = word.first().map(|c| c.to_ascii_lowercase()) else {
        return false;
    };
    let Some(starts) = LATIN_DAY_WORD_STARTS_BY_INITIAL.get(usize::from(first.wrapping_sub(b'a')))
    else {
        return false;
    };
    starts.iter().any(|w| begins_ci(word, w))
}

/// True when `at` begins with `w` (lower case), in any case.
fn begins_ci(at: &[u8], w: &str) -> bool {
    at.first().is_some_and(|c| c | 0x20 == w.as_bytes()[0])
        && at
            .get(..w.len())
            .is_some_and(|r| r.eq_ignore_ascii_case(w.as_bytes()))
}

/// [`LATIN_DAY_WORD_STARTS`] by their first letter (`a` first).
static LATIN_DAY_WORD_STARTS_BY_INITIAL: LazyLock<[Vec<&'static str>; 26]> = LazyLock::new(|| {
    let mut by_initial: [Vec<&'static str>; 26] = Default::default();
    for w in LATIN_DAY_WORD_STARTS.iter() {
        let first = w.as_bytes()[0].to_ascii_lowercase();
        if let Some(slot) = by_initial.get_mut(usize::from(first.wrapping_sub(b'a'))) {
            slot.push(w);
        }
    }
    by_initial
});

/// The digits [`foreign_digits_to_ascii`] converts (and the prefilter
/// lets through): full-width ones ("２０２４年"), Arabic-Indic ones ("٣٠
/// نوفمبر ٢٠٢٦"), their Persian forms and Thai ones ("๓๐ พ.ย. ๒๕๖๙").
fn is_foreign_digit(c: char) -> bool {
    foreign_digit_value(c).is_some()
}

/// The value of a [`is_foreign_digit`] digit.
fn foreign_digit_value(c: char) -> Option<u32> {
    let zero = match c {
        '０'..='９' => '０',
        '٠'..='٩' => '٠',
        '۰'..='۹' => '۰',
        '๐'..='๙' => '๐',
        '०'..='९' => '०',
        _ => return None,
    };
    Some(c as u32 - zero as u32)
}

/// `s` with its [`is_foreign_digit`] digits as ASCII ones.
fn foreign_digits_to_ascii(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(is_foreign_digit) {
        return std::borrow::Cow::Borrowed(s);
    }
    s.chars()
        .map(|c| match foreign_digit_value(c) {
            Some(v) => char::from(b'0' + v as u8),
            None => c,
        })
        .collect()
}

/// [`find_ranged`] over `text` whose foreign digits are read as ASCII
/// ones, the span given back in `text`'s own bytes.
fn find_foreign_digits(
    text: &str,
    ctx: &DateContext,
) -> Option<(DateTime<FixedOffset>, Range<usize>)> {
    let ascii = foreign_digits_to_ascii(text);
    // Where each byte of `ascii` (and its end) starts in `text`.
    let mut at: Vec<usize> = Vec::with_capacity(ascii.len() + 1);
    for (i, c) in text.char_indices() {
        let len = if is_foreign_digit(c) { 1 } else { c.len_utf8() };
        at.extend(std::iter::repeat_n(i, len));
    }
    at.push(text.len());
    let (date, span) = find_ranged(&ascii, ctx)?;
    Some((date, *at.get(span.start)?..*at.get(span.end)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    use chrono::TimeZone;

    /// Regression (a Thai news section): "30 พ.ย. 2569 10:45 น." and "30
    /// พฤศจิกายน 2569", Thai month names with a Buddhist-era year, were
    /// no dates; the year is the common era's less 543, a year already in
    /// the common era is kept, and Thai digits are read.
    #[test]
    fn thai_dates_are_read_in_the_buddhist_era() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d %H:%M").to_string());
        assert_eq!(
            day("30 พ.ย. 2569 10:45 น."),
            Some("2026-11-30 10:45".into())
        );
        assert_eq!(
            day("อัปเดต 28 พฤศจิกายน 2569"),
            Some("2026-11-28 12:00".into())
        );
        assert_eq!(day("1 ธ.ค. 2026"), Some("2026-12-01 12:00".into()));
        assert_eq!(day("๓๐ พ.ย. ๒๕๖๙"), Some("2026-11-30 12:00".into()));
        // A count beside a Thai word is no date.
        assert_eq!(day("ผู้ชม 2569 ครั้ง"), None);
    }

    /// Regression (a Hindi news section): Hindi month names, in either
    /// spelling, with ASCII or Devanagari digits, were not read.
    #[test]
    fn hindi_dates_are_read_with_either_digits() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d %H:%M").to_string());
        assert_eq!(
            day("30 नवंबर 2026, 18:45 IST"),
            Some("2026-11-30 18:45".into())
        );
        assert_eq!(
            day("अपडेटेड: 01 दिसम्बर 2026"),
            Some("2026-12-01 12:00".into())
        );
        assert_eq!(day("२८ नवंबर २०२६"), Some("2026-11-28 12:00".into()));
        assert_eq!(day("3 फ़रवरी 2026"), Some("2026-02-03 12:00".into()));
        // A relative time ("45 minutes ago") names no day here.
        assert_eq!(day("45 मिनट पहले"), None);
    }

    /// Regression (an Urdu news section): Urdu month names, and the first
    /// of the month written "یکم", were not read.
    #[test]
    fn urdu_dates_are_read() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        assert_eq!(day("30 نومبر 2026"), Some("2026-11-30".into()));
        assert_eq!(
            day("یکم دسمبر 2026 | 01:40 دوپہر"),
            Some("2026-12-01".into())
        );
        assert_eq!(day("۲۸ نومبر ۲۰۲۶"), Some("2026-11-28".into()));
        assert_eq!(day("دسمبر 2026"), None);
    }

    /// Regression (a Persian news agency's section): its dates are in the
    /// Solar Hijri calendar, with Persian digits; none was read. 10 Azar
    /// 1405 is 1 December 2026; the year starts on 21 March (1 Farvardin
    /// 1405). Afghanistan's Dari month names count the same months.
    #[test]
    fn solar_hijri_dates_are_read_in_the_common_era() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d %H:%M").to_string());
        assert_eq!(day("۱۰ آذر ۱۴۰۵ - ۱۸:۳۰"), Some("2026-12-01 18:30".into()));
        assert_eq!(day("۱ فروردین ۱۴۰۵"), Some("2026-03-21 12:00".into()));
        assert_eq!(day("29 اسفند 1404"), Some("2026-03-20 12:00".into()));
        assert_eq!(day("۱۱ دی ۱۴۰۵"), Some("2027-01-01 12:00".into()));
        assert_eq!(day("۱۰ قوس ۱۴۰۵"), Some("2026-12-01 12:00".into()));
        // No such day: the seventh month has 30.
        assert_eq!(day("31 مهر 1405"), None);
    }

    /// Regression (an Arabic news section): dates in Arabic-Indic digits
    /// and Arabic month names were not read, in running text or whole;
    /// the span found is in the text's own bytes.
    #[test]
    fn arabic_dates_are_read_with_either_digits() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        assert_eq!(day("٣٠ نوفمبر ٢٠٢٦"), Some("2026-11-30".into()));
        assert_eq!(day("نشر في 1 ديسمبر 2026"), Some("2026-12-01".into()));
        assert_eq!(day("٢ تشرين الثاني ٢٠٢٦"), Some("2026-11-02".into()));
        let text = "أسواق ١ ديسمبر ٢٠٢٦ تحديث";
        let (_, span) = find_date(text, &ctx).expect("a date");
        assert_eq!(&text[span], "١ ديسمبر ٢٠٢٦");
        let whole = parse_date("٣٠ نوفمبر ٢٠٢٦", &ctx).map(|d| d.format("%Y-%m-%d").to_string());
        assert_eq!(whole, Some("2026-11-30".into()));
        // Digits beside words that name no month are no date.
        assert_eq!(day("قرأ ٣٠ مقالا في ٢٠٢٦"), None);
    }

    /// Regression (a Portuguese blog): "28 de novembro de 2026" was no
    /// date, Portuguese month names unknown; Italian and Dutch ones were
    /// not read either. Their short forms are not month names.
    #[test]
    fn portuguese_italian_and_dutch_months_are_read() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        assert_eq!(day("28 de novembro de 2026"), Some("2026-11-28".into()));
        assert_eq!(
            day("Publicado em 3 de março de 2026"),
            Some("2026-03-03".into())
        );
        assert_eq!(day("12 ottobre 2026"), Some("2026-10-12".into()));
        assert_eq!(day("5 mei 2026"), Some("2026-05-05".into()));
        // Regression (an Indonesian news index): "Selasa, 1 Desember 2026
        // | 08:02 WIB" was no date.
        assert_eq!(
            day("Selasa, 1 Desember 2026 | 08:02 WIB"),
            Some("2026-12-01".into())
        );
        assert_eq!(day("Rated 3 out of 5 in 2026"), None);
        // Regression (a Swahili news section): "30 Novemba 2026" and
        // "Desemba 1, 2026" were no dates.
        assert_eq!(day("30 Novemba 2026"), Some("2026-11-30".into()));
        assert_eq!(day("Desemba 1, 2026"), Some("2026-12-01".into()));
        assert_eq!(day("Imesasishwa 4 Machi 2026"), Some("2026-03-04".into()));
    }

    /// Regression (an obituaries list): "June 2, 1938 – March 3, 2024",
    /// a life, dated the card June 2 of the reader's year (the birth day
    /// without its year, out of range), where "Published on March 7,
    /// 2024" below it is the card's date.
    #[test]
    fn a_span_from_a_year_no_date_has_is_no_date() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        assert_eq!(day("June 2, 1938 – March 3, 2024"), None);
        assert_eq!(day("Born June 2, 1938 in Dubuque"), None);
        assert_eq!(
            day("June 2, 1938 – March 3, 2024. Services on March 9, 2024"),
            Some("2024-03-09".into())
        );
        // Spans within the years dates have are read as before.
        assert_eq!(
            day("June 2, 1988 – March 3, 2024"),
            Some("1988-06-02".into())
        );
        assert_eq!(day("4 July – 29 November 2026"), Some("2026-07-04".into()));
        let yearless = day("Seen June 2, then again");
        assert!(
            yearless.as_deref().is_some_and(|d| d.ends_with("-06-02")),
            "{yearless:?}"
        );
    }

    /// Regression (a Brazilian news section): "30/11/2026 18h44", the
    /// clock written with an `h` as Portuguese and French pages write it,
    /// was read as the day at noon.
    #[test]
    fn a_clock_written_with_an_h_is_read() {
        let ctx = ctx_utc();
        let at = |t: &str| parse_date(t, &ctx).map(|d| d.format("%Y-%m-%d %H:%M").to_string());
        assert_eq!(at("30/11/2026 18h44"), Some("2026-11-30 18:44".into()));
        assert_eq!(at("30/11/2026 18:44"), Some("2026-11-30 18:44".into()));
    }

    /// Regression (a game store's news hub): an event "Sat, December 5",
    /// its year left out, was read as the past December 5 (a Friday, in
    /// 2025); the weekday names the year, a coming one too. Without a
    /// weekday, or with one no nearby year has, the day is the last one
    /// past.
    #[test]
    fn a_weekday_names_the_year_of_a_yearless_date() {
        let ctx = DateContext::utc_at(2026, 12, 1, 9);
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        assert_eq!(day("Sat, December 5 · 10:00"), Some("2026-12-05".into()));
        assert_eq!(day("Saturday December 5"), Some("2026-12-05".into()));
        assert_eq!(day("Fri, December 5"), Some("2025-12-05".into()));
        assert_eq!(
            parse_date("Thu 3 December", &ctx).map(|d| d.format("%Y-%m-%d").to_string()),
            Some("2026-12-03".into())
        );
        assert_eq!(day("December 5"), Some("2025-12-05".into()));
        // No year around has December 5 on a Monday (2025 a Friday, 2026
        // a Saturday, 2027 a Sunday): the last one past, as without one.
        assert_eq!(day("Mon, December 5"), Some("2025-12-05".into()));
    }

    /// Regressions: a Turkish news category's "28 Kasım 2026 14:03", an
    /// Italian town's "30 ott 2026" and a Korean blog's "2026. 11. 28.
    /// 14:03" (a dot and a space after each part) were no dates.
    #[test]
    fn turkish_months_italian_abbreviations_and_korean_dots_are_read() {
        let ctx = DateContext::utc_at(2026, 12, 1, 9);
        let at = |t: &str| parse_date(t, &ctx).map(|d| d.format("%Y-%m-%d %H:%M").to_string());
        assert_eq!(at("28 Kasım 2026 14:03"), Some("2026-11-28 14:03".into()));
        assert_eq!(at("3 Şubat 2026"), Some("2026-02-03 12:00".into()));
        assert_eq!(at("30 Ağustos 2026"), Some("2026-08-30 12:00".into()));
        assert_eq!(at("30 Ekim 2026"), Some("2026-10-30 12:00".into()));
        assert_eq!(at("30 ott 2026"), Some("2026-10-30 12:00".into()));
        assert_eq!(at("5 set. 2026"), Some("2026-09-05 12:00".into()));
        assert_eq!(at("2026. 11. 28. 14:03"), Some("2026-11-28 14:03".into()));
        assert_eq!(at("2025. 12. 9."), Some("2025-12-09 12:00".into()));
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        assert_eq!(
            day("작성일 2026. 11. 9. 11:20 · 일상"),
            Some("2026-11-09".into())
        );
        assert_eq!(day("27 Kasım 2026 Cuma 22:10"), Some("2026-11-27".into()));
        // Without a year, an abbreviation that is a word is no date.
        assert_eq!(at("2 set"), None);
    }

    /// Regressions (round 70): a Polish portal's "wczoraj, 22:10" and "28
    /// listopada 2026", a Czech section's "28. listopadu 2026 14:03" and
    /// a Greek list's "28 Νοεμβρίου 2026, 14:03" and "Χθες, 22:10" were
    /// no dates.
    #[test]
    fn polish_czech_and_greek_dates_are_read() {
        let ctx = DateContext::utc_at(2026, 12, 1, 9);
        let at = |t: &str| parse_date(t, &ctx).map(|d| d.format("%Y-%m-%d %H:%M").to_string());
        assert_eq!(at("wczoraj, 22:10"), Some("2026-11-30 22:10".into()));
        assert_eq!(at("dzisiaj, 09:15"), Some("2026-12-01 09:15".into()));
        assert_eq!(at("28 listopada 2026"), Some("2026-11-28 12:00".into()));
        assert_eq!(at("3 października 2026"), Some("2026-10-03 12:00".into()));
        assert_eq!(
            at("28. listopadu 2026 14:03"),
            Some("2026-11-28 14:03".into())
        );
        assert_eq!(at("30. října 2026"), Some("2026-10-30 12:00".into()));
        assert_eq!(
            at("28 Νοεμβρίου 2026, 14:03"),
            Some("2026-11-28 14:03".into())
        );
        assert_eq!(at("Χθες, 22:10"), Some("2026-11-30 22:10".into()));
        assert_eq!(at("Σήμερα, 09:15"), Some("2026-12-01 09:15".into()));
        // An Israeli site's "28.11.26 | 14:03": a two-digit year, only
        // with a time.
        assert_eq!(at("28.11.26 | 14:03"), Some("2026-11-28 14:03".into()));
        assert_eq!(at("28.11.26, 14:03"), Some("2026-11-28 14:03".into()));
        assert_eq!(at("5.12.10"), None);
        // Ages a word for "before" leads, Hebrew and Czech, with or without
        // a count (the clock is 09:00 UTC).
        assert_eq!(at("לפני 40 דקות"), Some("2026-12-01 08:20".into()));
        assert_eq!(at("לפני שעה"), Some("2026-12-01 08:00".into()));
        assert_eq!(at("před 3 hodinami"), Some("2026-12-01 06:00".into()));
        assert_eq!(at("před hodinou"), Some("2026-12-01 08:00".into()));
        assert_eq!(at("před 2 dny"), Some("2026-11-29 09:00".into()));
    }

    /// Regressions (round 72): a Brazilian blog's "há 3 horas" and "ontem
    /// às 22h10", an Indonesian portal's "2 jam yang lalu", a Russian
    /// portal's "вчера в 22:10" and a Ukrainian feed's "Вчора, 22:10"
    /// were no dates: ages were read in English, Chinese, Japanese,
    /// Korean, Hebrew and Czech only.
    #[test]
    fn ages_and_day_words_of_more_languages_are_read() {
        let ctx = DateContext::utc_at(2026, 12, 1, 10);
        let at = |t: &str| parse_date(t, &ctx).map(|d| d.format("%Y-%m-%d %H:%M").to_string());
        for (text, want) in [
            ("há 3 horas", "2026-12-01 07:00"),
            ("há uma hora", "2026-12-01 09:00"),
            ("hace 2 días", "2026-11-29 10:00"),
            ("vor 3 Stunden", "2026-12-01 07:00"),
            ("vor einer Stunde", "2026-12-01 09:00"),
            ("il y a 2 jours", "2026-11-29 10:00"),
            ("3 ore fa", "2026-12-01 07:00"),
            ("2 jam yang lalu", "2026-12-01 08:00"),
            ("3 hari lalu", "2026-11-28 10:00"),
            ("3 часа назад", "2026-12-01 07:00"),
            ("5 хвилин тому", "2026-12-01 09:55"),
            ("3 uur geleden", "2026-12-01 07:00"),
            ("2 godziny temu", "2026-12-01 08:00"),
            ("3 saat önce", "2026-12-01 07:00"),
            ("3 tuntia sitten", "2026-12-01 07:00"),
            ("för 3 timmar sedan", "2026-12-01 07:00"),
            ("3 timer siden", "2026-12-01 07:00"),
            ("3 giờ trước", "2026-12-01 07:00"),
            ("ontem às 22h10", "2026-11-30 22:10"),
            ("вчера в 22:10", "2026-11-30 22:10"),
            ("сегодня в 09:15", "2026-12-01 09:15"),
            ("Вчора, 22:10", "2026-11-30 22:10"),
            ("28 ноября 2026 в 14:03", "2026-11-28 14:03"),
            ("gisteren om 18:30", "2026-11-30 18:30"),
        ] {
            assert_eq!(at(text).as_deref(), Some(want), "{text}");
        }
        // A count of hours is no age without its word for "ago".
        assert_eq!(at("3 horas"), None);
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        assert_eq!(day("Por Ana Souza · há 3 horas"), Some("2026-12-01".into()));
        assert_eq!(day("Aggiornato 2 giorni fa"), Some("2026-11-29".into()));
        assert_eq!(day("Sauerteig seit 3 Stunden"), None);
        let exact = |t: &str| find_date(t, &ctx).map(|(d, _)| d.to_rfc3339());
        assert_eq!(
            exact("Senin, 30 Nov 2026 22:10 WIB").as_deref(),
            Some("2026-11-30T22:10:00+07:00")
        );
        assert_eq!(
            parse_date("Selasa, 01 Des 2026 09:45 WIB", &ctx)
                .map(|d| d.to_rfc3339())
                .as_deref(),
            Some("2026-12-01T09:45:00+07:00")
        );
    }

    /// Regressions (round 71): a Finnish section's "tänään 9.15" and
    /// "eilen 22.10", a Swedish paper's "i går 22:10", a Hungarian
    /// portal's "2026. november 28. 14:03" and "tegnap 22:10", a Japanese
    /// ministry's "令和8年11月28日" (read as a yearless day) and a
    /// Taiwanese agency's "115-11-28" were no dates, or the wrong year.
    #[test]
    fn nordic_hungarian_and_east_asian_calendar_dates_are_read() {
        let ctx = DateContext::utc_at(2026, 12, 1, 9);
        let at = |t: &str| parse_date(t, &ctx).map(|d| d.format("%Y-%m-%d %H:%M").to_string());
        assert_eq!(at("tänään 9.15"), Some("2026-12-01 09:15".into()));
        assert_eq!(at("Eilen klo 22.10"), Some("2026-11-30 22:10".into()));
        assert_eq!(at("i går 22:10"), Some("2026-11-30 22:10".into()));
        assert_eq!(at("I dag 09:15"), Some("2026-12-01 09:15".into()));
        assert_eq!(at("igår kl 14.03"), Some("2026-11-30 14:03".into()));
        assert_eq!(at("ma 09:15"), Some("2026-12-01 09:15".into()));
        assert_eq!(at("tegnap 22:10"), Some("2026-11-30 22:10".into()));
        assert_eq!(at("včera v 21:40"), Some("2026-11-30 21:40".into()));
        assert_eq!(at("dün 22:10"), Some("2026-11-30 22:10".into()));
        assert_eq!(at("gisteren 18:30"), Some("2026-11-30 18:30".into()));
        assert_eq!(at("ontem"), Some("2026-11-30 12:00".into()));
        // Alone, the short ones are words of other languages.
        assert_eq!(at("ma"), None);
        assert_eq!(at("dnes"), None);
        assert_eq!(
            at("2026. november 28. 14:03"),
            Some("2026-11-28 14:03".into())
        );
        assert_eq!(at("2026. nov. 27."), Some("2026-11-27 12:00".into()));
        assert_eq!(at("2026. március 5."), Some("2026-03-05 12:00".into()));
        assert_eq!(at("28. marraskuuta 2026"), Some("2026-11-28 12:00".into()));
        assert_eq!(at("3 augusti 2026"), Some("2026-08-03 12:00".into()));
        assert_eq!(at("令和8年11月28日"), Some("2026-11-28 12:00".into()));
        assert_eq!(at("令和7年10月3日"), Some("2025-10-03 12:00".into()));
        assert_eq!(at("令和元年5月1日"), Some("2019-05-01 12:00".into()));
        assert_eq!(at("平成31年4月30日"), Some("2019-04-30 12:00".into()));
        assert_eq!(at("115-11-28"), Some("2026-11-28 12:00".into()));
        assert_eq!(at("115/10/30"), Some("2026-10-30 12:00".into()));
        assert_eq!(at("115年11月28日"), Some("2026-11-28 12:00".into()));
        // A version with dots is none.
        assert_eq!(at("102.05.01"), None);
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        assert_eq!(day("公開日：令和8年11月28日"), Some("2026-11-28".into()));
        assert_eq!(day("Julkaistu tänään 9.15"), Some("2026-12-01".into()));
        assert_eq!(day("I have 3 cats and ma 2"), None);
    }

    /// Regression (a French city's agenda): "ven. 4 déc." on an all-day
    /// event's `<time>` was no date, so the page's offset went unread
    /// and three events were dated a day early; nor was "jeu. 24 déc.
    /// 2026" whole. Weekdays of other languages name the year as
    /// English ones do; a yearless day with another language's month is
    /// read as a whole string, as "5 March" is, but never "3 ago".
    #[test]
    fn local_weekdays_and_yearless_local_days_are_read() {
        let ctx = DateContext::utc_at(2026, 12, 1, 9);
        let day = |t: &str| parse_date(t, &ctx).map(|d| d.format("%Y-%m-%d").to_string());
        assert_eq!(day("ven. 4 déc."), Some("2026-12-04".into()));
        assert_eq!(day("jeu. 24 déc. 2026"), Some("2026-12-24".into()));
        assert_eq!(day("Fr., 4. Dez."), Some("2026-12-04".into()));
        assert_eq!(day("mié. 2 de diciembre"), Some("2026-12-02".into()));
        assert_eq!(day("sáb 5 dic"), Some("2026-12-05".into()));
        assert_eq!(day("venerdì 4 dicembre"), Some("2026-12-04".into()));
        // Without a weekday: the last one past, as "5 March" is read.
        assert_eq!(day("4 décembre"), Some("2025-12-04".into()));
        assert_eq!(day("28 novembre"), Some("2026-11-28".into()));
        // A weekday no nearby year has on that day tells nothing.
        assert_eq!(day("lun. 4 déc."), Some("2025-12-04".into()));
        assert_eq!(day("3 ago"), None);
        assert_eq!(day("10 ago"), None);
    }

    /// Regression (a preprint listing's "New submissions for Mon, 30 Nov
    /// 26"): the two-digit year was left out and "Nov 26" read as 26
    /// November. A two-digit year is read with its weekday only, and only
    /// when that is the date's.
    #[test]
    fn a_two_digit_year_is_read_with_its_weekday() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        assert_eq!(
            day("New submissions for Mon, 30 Nov 26"),
            Some("2026-11-30".into())
        );
        assert_eq!(
            day("Submitted Fri 27 Nov 26 to Mon 30 Nov 26"),
            Some("2026-11-27".into())
        );
        assert_eq!(
            day("Date: Thu, 31 Dec 98 23:10:00 +0100").as_deref(),
            Some("1998-12-31")
        );
        // A weekday that is not the date's: no two-digit year.
        assert_ne!(day("Tue, 30 Nov 26").as_deref(), Some("2026-11-30"));
        // Without a weekday, a number after a month is no year.
        assert_ne!(
            day("On 5 March 26 teams ran").as_deref(),
            Some("2026-03-05")
        );
        // Unless an apostrophe says the century was left out (a mail
        // archive's search results, round 62).
        assert_eq!(day("22 Jul '25").as_deref(), Some("2025-07-22"));
        assert_eq!(
            day("posted 9 Mar ’98, 14:05").as_deref(),
            Some("1998-03-09")
        );
    }

    /// Regression (a French town's agenda): "Du 27 novembre au 3 décembre
    /// 2026" was dated by its last day, the first one having no year. A
    /// range's words join its two ends as a dash does.
    #[test]
    fn a_range_joined_by_a_word_is_dated_by_its_first_day() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d").to_string());
        for (text, first) in [
            ("Du 27 novembre au 3 décembre 2026", "2026-11-27"),
            ("Du 1er au 4 décembre 2026", "2026-12-01"),
            ("Les 12 et 13 décembre 2026", "2026-12-12"),
            ("vom 3. bis 5. Dezember 2026", "2026-12-03"),
            ("4 to 6 December 2026", "2026-12-04"),
            ("Du 28 décembre 2026 au 2 janvier 2027", "2026-12-28"),
        ] {
            assert_eq!(day(text).as_deref(), Some(first), "{text}");
        }
        // A word that joins no range leaves the day as it is.
        assert_eq!(
            day("Talk 12 moved to 3 December 2026").as_deref(),
            Some("2026-12-03")
        );
    }

    /// Tuesday 2026-03-10 09:00 UTC, pages in China (+08:00, 17:00 local).
    fn ctx_cn() -> DateContext {
        DateContext {
            now: Utc.with_ymd_and_hms(2026, 3, 10, 9, 0, 0).unwrap(),
            offset: FixedOffset::east_opt(8 * 3600).unwrap(),
            day_first: false,
            dash_month_first: false,
            year_near: None,
            section_dated: false,
        }
    }

    fn ctx_utc() -> DateContext {
        DateContext::utc_at(2026, 3, 10, 9)
    }

    /// The ISO fast path reads a bare day as the patterns do
    /// (noon in the page's offset), and leaves every other string to them.
    #[test]
    fn iso_day_agrees_with_the_patterns() {
        let ctx = ctx_cn();
        for s in [
            "2024-03-05",
            "1999-12-31",
            "2026-02-28",
            "2024-02-29",
            "2023-02-29",
            "2024-13-05",
            "2024-00-10",
            "1850-01-01",
            "2024-3-5",
            "2024/03/05",
            "12-03-2024",
            "2024-03-05T10:00:00Z",
        ] {
            let fast = iso_day(s, &ctx);
            let slow = by_patterns(s, &ctx, false);
            assert!(
                fast.is_none() || fast == slow,
                "{s}: {fast:?} against {slow:?}"
            );
            assert_eq!(parse_whole(s, &ctx, false), slow, "{s}");
        }
        assert!(iso_day("2024-03-05", &ctx).is_some());
        assert!(iso_day("2024-02-30", &ctx).is_none());
    }

    fn parsed(s: &str, ctx: &DateContext) -> Option<String> {
        parse_date(s, ctx).map(|d| d.to_rfc3339())
    }

    #[test]
    fn a_range_of_days_is_read_from_its_first() {
        let ctx = ctx_utc();
        let start = |s: &str| parse_range_start(s, &ctx).map(|d| d.date_naive().to_string());
        assert_eq!(
            start("Thu 10 Dec 2026 – Sat 12 Dec 2026").as_deref(),
            Some("2026-12-10")
        );
        assert_eq!(start("2 Mar - 4 Mar").as_deref(), Some("2026-03-02"));
        assert_eq!(start("March 2024 — June 2024"), None, "months are no days");
        assert_eq!(start("Thu 10 Dec"), None, "no range");
        assert_eq!(start("Version 2 - 3 Mar notes"), None);
    }

    /// `parse_day` reads every form of a day that `parse_date` reads, and
    /// refuses the month-and-year forms that `parse_date` reads as the 1st.
    #[test]
    fn parse_day_names_days_not_months() {
        let ctx = ctx_utc();
        for day in [
            "2024-03-05",
            "5 March 2024",
            "Tue, 05 Mar 2024",
            "Tuesday, March 5, 2024",
            "05.03.2024",
            "5. März 2024",
            "2024年3月5日",
            "2024년 3월 5일",
            "Today",
            "yesterday",
            "2024-03-05T14:30:00Z",
        ] {
            assert!(parse_day(day, &ctx).is_some(), "{day}");
            assert_eq!(parse_day(day, &ctx), parse_date(day, &ctx), "{day}");
        }
        for period in [
            "March 2024",
            "Mar 2024",
            "mars 2024",
            "2024年3月",
            "2024",
            "2024-03",
        ] {
            assert_eq!(parse_day(period, &ctx), None, "{period}");
        }
        assert!(parse_date("March 2024", &ctx).is_some());
    }

    #[test]
    fn parse_date_absolute_forms() {
        let ctx = ctx_cn();
        let cases: &[(&str, &str)] = &[
            // RFC 3339 / ISO 8601
            ("2024-03-05T14:30:00Z", "2024-03-05T14:30:00+00:00"),
            ("2024-03-05T14:30:00+09:00", "2024-03-05T14:30:00+09:00"),
            (
                "2024-03-05T14:30:00.123-05:00",
                "2024-03-05T14:30:00.123-05:00",
            ),
            ("2024-03-05T14:30:00", "2024-03-05T14:30:00+08:00"),
            ("2024-03-05T14:30", "2024-03-05T14:30:00+08:00"),
            ("2024-03-05 14:30", "2024-03-05T14:30:00+08:00"),
            ("2024-03-05 14:30:15 +0100", "2024-03-05T14:30:15+01:00"),
            ("2024-03-05 14:30 UTC", "2024-03-05T14:30:00+00:00"),
            ("2024-03-05 14:30 GMT+2", "2024-03-05T14:30:00+02:00"),
            ("2024-03-05", "2024-03-05T12:00:00+08:00"),
            ("2024-3-5", "2024-03-05T12:00:00+08:00"),
            ("2024/03/05", "2024-03-05T12:00:00+08:00"),
            ("2024/3/5 9:05", "2024-03-05T09:05:00+08:00"),
            ("2024.03.05", "2024-03-05T12:00:00+08:00"),
            ("20240305", "2024-03-05T12:00:00+08:00"),
            // RFC 2822
            (
                "Tue, 05 Mar 2024 14:30:00 +0000",
                "2024-03-05T14:30:00+00:00",
            ),
            ("Tue, 05 Mar 2024 14:30:00 GMT", "2024-03-05T14:30:00+00:00"),
            ("Tue, 5 Mar 2024 09:00:00 PST", "2024-03-05T09:00:00-08:00"),
            ("Tue, 05 Mar 2024", "2024-03-05T12:00:00+08:00"),
            // wrong weekday: still the written date
            (
                "Fri, 05 Mar 2024 10:00:00 +0000",
                "2024-03-05T10:00:00+00:00",
            ),
            // English month names, every common order
            ("March 5, 2024", "2024-03-05T12:00:00+08:00"),
            ("Mar 5, 2024", "2024-03-05T12:00:00+08:00"),
            ("Mar. 5, 2024", "2024-03-05T12:00:00+08:00"),
            ("Mar 5th, 2024", "2024-03-05T12:00:00+08:00"),
            ("March 5 2024", "2024-03-05T12:00:00+08:00"),
            ("Tuesday, March 5, 2024", "2024-03-05T12:00:00+08:00"),
            ("MARCH 5, 2024", "2024-03-05T12:00:00+08:00"),
            ("5 March 2024", "2024-03-05T12:00:00+08:00"),
            ("05 Mar 2024", "2024-03-05T12:00:00+08:00"),
            ("5th of March 2024", "2024-03-05T12:00:00+08:00"),
            ("5th March, 2024", "2024-03-05T12:00:00+08:00"),
            ("05-Mar-2024", "2024-03-05T12:00:00+08:00"),
            ("24 Mar 2026", "2026-03-24T12:00:00+08:00"),
            ("2023, Aug 01", "2023-08-01T12:00:00+08:00"),
            ("2024 March 5th", "2024-03-05T12:00:00+08:00"),
            ("Jul 24 th , 2014", "2014-07-24T12:00:00+08:00"),
            ("Sept 30, 2023", "2023-09-30T12:00:00+08:00"),
            ("March 5, 2024 at 3:30 pm", "2024-03-05T15:30:00+08:00"),
            ("March 5, 2024 12:10 a.m.", "2024-03-05T00:10:00+08:00"),
            ("Mar 5, 2024, 14:30 CET", "2024-03-05T14:30:00+01:00"),
            // month and year only: the 1st
            ("Mar 2024", "2024-03-01T12:00:00+08:00"),
            ("March, 2024", "2024-03-01T12:00:00+08:00"),
            // no year: this year, or last year when that would be ahead
            ("Mar 5", "2026-03-05T12:00:00+08:00"),
            ("Dec 24", "2025-12-24T12:00:00+08:00"),
            ("5 March", "2026-03-05T12:00:00+08:00"),
            // numeric European and US
            ("05.03.2024", "2024-03-05T12:00:00+08:00"),
            ("5.3.2024 14:30", "2024-03-05T14:30:00+08:00"),
            ("05-03-2024", "2024-03-05T12:00:00+08:00"),
            ("03/05/2024", "2024-03-05T12:00:00+08:00"),
            ("25/03/2024", "2024-03-25T12:00:00+08:00"),
            ("3/25/2024 10:00 AM", "2024-03-25T10:00:00+08:00"),
            // German, French, Spanish
            ("5. März 2024", "2024-03-05T12:00:00+08:00"),
            ("12. Dezember 2023", "2023-12-12T12:00:00+08:00"),
            ("1er mars 2024", "2024-03-01T12:00:00+08:00"),
            ("15 août 2023", "2023-08-15T12:00:00+08:00"),
            ("5 de marzo de 2024", "2024-03-05T12:00:00+08:00"),
            // Chinese, Japanese, Korean
            ("2024年3月5日", "2024-03-05T12:00:00+08:00"),
            ("2024年03月05日 14:30", "2024-03-05T14:30:00+08:00"),
            ("2024年3月5日 14时30分", "2024-03-05T14:30:00+08:00"),
            ("２０２４年３月５日", "2024-03-05T12:00:00+08:00"),
            ("3月5日", "2026-03-05T12:00:00+08:00"),
            ("12月25日", "2025-12-25T12:00:00+08:00"),
            ("3月5日 08:15", "2026-03-05T08:15:00+08:00"),
            ("2024년 3월 5일", "2024-03-05T12:00:00+08:00"),
            ("26 4月 2024", "2024-04-26T12:00:00+08:00"),
        ];
        for (input, want) in cases {
            assert_eq!(
                parsed(input, &ctx).as_deref(),
                Some(*want),
                "input {input:?}"
            );
        }
    }

    #[test]
    fn parse_date_trims_noise() {
        let ctx = ctx_utc();
        let cases: &[(&str, &str)] = &[
            ("Posted on March 5, 2024", "2024-03-05T12:00:00+00:00"),
            ("Updated: 2024-03-05", "2024-03-05T12:00:00+00:00"),
            ("· 2024-03-05 ·", "2024-03-05T12:00:00+00:00"),
            ("[2024-03-05]", "2024-03-05T12:00:00+00:00"),
            ("(Mar 5, 2024)", "2024-03-05T12:00:00+00:00"),
            (
                "  Published on: 5 March 2024. ",
                "2024-03-05T12:00:00+00:00",
            ),
            ("Last updated on Mar 5, 2024", "2024-03-05T12:00:00+00:00"),
            ("Date: 05.03.2024", "2024-03-05T12:00:00+00:00"),
            ("发布于 2024-03-05", "2024-03-05T12:00:00+00:00"),
            ("发布时间：2024年3月5日", "2024-03-05T12:00:00+00:00"),
            ("【2024-03-05】", "2024-03-05T12:00:00+00:00"),
            (
                "Veröffentlicht am 5. März 2024",
                "2024-03-05T12:00:00+00:00",
            ),
            ("| Mar 5, 2024 |", "2024-03-05T12:00:00+00:00"),
        ];
        for (input, want) in cases {
            assert_eq!(
                parsed(input, &ctx).as_deref(),
                Some(*want),
                "input {input:?}"
            );
        }
    }

    #[test]
    fn parse_date_relative_forms() {
        let ctx = ctx_cn(); // now = 2026-03-10 17:00 +08:00
        let cases: &[(&str, &str)] = &[
            ("3 hours ago", "2026-03-10T14:00:00+08:00"),
            ("5 minutes ago", "2026-03-10T16:55:00+08:00"),
            ("5 mins ago", "2026-03-10T16:55:00+08:00"),
            ("an hour ago", "2026-03-10T16:00:00+08:00"),
            ("2 days ago", "2026-03-08T17:00:00+08:00"),
            ("a week ago", "2026-03-03T17:00:00+08:00"),
            ("2 months ago", "2026-01-10T17:00:00+08:00"),
            ("1 year ago", "2025-03-10T17:00:00+08:00"),
            ("just now", "2026-03-10T17:00:00+08:00"),
            ("Just now", "2026-03-10T17:00:00+08:00"),
            ("today", "2026-03-10T12:00:00+08:00"),
            ("Yesterday", "2026-03-09T12:00:00+08:00"),
            ("yesterday at 9:15 pm", "2026-03-09T21:15:00+08:00"),
            ("3小时前", "2026-03-10T14:00:00+08:00"),
            ("5分钟前", "2026-03-10T16:55:00+08:00"),
            ("半小时前", "2026-03-10T16:30:00+08:00"),
            ("2天前", "2026-03-08T17:00:00+08:00"),
            ("3日前", "2026-03-07T17:00:00+08:00"),
            ("3時間前", "2026-03-10T14:00:00+08:00"),
            ("5分前", "2026-03-10T16:55:00+08:00"),
            ("1个月前", "2026-02-10T17:00:00+08:00"),
            ("刚刚", "2026-03-10T17:00:00+08:00"),
            ("今天", "2026-03-10T12:00:00+08:00"),
            ("昨天", "2026-03-09T12:00:00+08:00"),
            ("前天", "2026-03-08T12:00:00+08:00"),
            ("昨天 14:30", "2026-03-09T14:30:00+08:00"),
            ("昨日", "2026-03-09T12:00:00+08:00"),
            ("3시간 전", "2026-03-10T14:00:00+08:00"),
            ("어제", "2026-03-09T12:00:00+08:00"),
            ("heute, 11:45 Uhr", "2026-03-10T11:45:00+08:00"),
            ("Heute", "2026-03-10T12:00:00+08:00"),
            ("gestern, 18:00", "2026-03-09T18:00:00+08:00"),
            ("vorgestern", "2026-03-08T12:00:00+08:00"),
            ("hoy a las 10:30", "2026-03-10T10:30:00+08:00"),
            ("Ayer", "2026-03-09T12:00:00+08:00"),
            ("anteayer", "2026-03-08T12:00:00+08:00"),
            ("aujourd'hui à 09:15", "2026-03-10T09:15:00+08:00"),
            ("Aujourd’hui", "2026-03-10T12:00:00+08:00"),
            ("avant-hier", "2026-03-08T12:00:00+08:00"),
            ("5. März 2024, 10:00 Uhr", "2024-03-05T10:00:00+08:00"),
        ];
        for (input, want) in cases {
            assert_eq!(
                parsed(input, &ctx).as_deref(),
                Some(*want),
                "input {input:?}"
            );
        }
    }

    #[test]
    fn local_day_follows_ctx_offset_not_utc() {
        // 2026-03-09 20:00 UTC is already the 10th in +08:00.
        let ctx = DateContext {
            now: Utc.with_ymd_and_hms(2026, 3, 9, 20, 0, 0).unwrap(),
            offset: FixedOffset::east_opt(8 * 3600).unwrap(),
            day_first: false,
            dash_month_first: false,
            year_near: None,
            section_dated: false,
        };
        assert_eq!(
            parsed("today", &ctx).as_deref(),
            Some("2026-03-10T12:00:00+08:00")
        );
        assert_eq!(
            parsed("3月10日", &ctx).as_deref(),
            Some("2026-03-10T12:00:00+08:00")
        );
    }

    #[test]
    fn date_only_keeps_its_day_in_any_reader_offset() {
        let ctx = ctx_utc();
        let dt = parse_date("2024-03-05", &ctx).unwrap();
        for hours in [-11, -5, 0, 5, 11] {
            let reader = FixedOffset::east_opt(hours * 3600).unwrap();
            assert_eq!(
                dt.with_timezone(&reader).date_naive(),
                NaiveDate::from_ymd_opt(2024, 3, 5).unwrap()
            );
        }
    }

    #[test]
    fn parse_date_rejections() {
        let ctx = ctx_utc();
        let rejected = [
            "",
            "   ",
            "2024",
            "1999",
            "14:30",
            "14:30:00",
            "2.10.2",
            "1.2.3",
            "v2024.03.05",
            "12345",
            "3.14",
            "2024-03",
            "2024-02-30",
            "2023-02-29",
            "2024-13-01",
            "31/31/2024",
            "32.01.2024",
            "February 30, 2024",
            "2024-03-05T25:00:00",
            "2024-03-05 13:00 pm",
            "1850-01-01",
            "3000-01-01",
            "42",
            "March",
            "Posted",
            "hello world",
            "in 3 hours",
            "3 hours",
            "2024年13月5日",
            "13月5日",
            "Read more",
            "2024-03-05 and more",
            "page 2 of 10",
            "+1 (555) 123-4567",
            "$19.99",
            "20241305",
        ];
        for input in rejected {
            assert_eq!(parsed(input, &ctx), None, "input {input:?}");
        }
    }

    fn found(text: &str, ctx: &DateContext) -> Option<(String, &'static str)> {
        // Returns the date and the matched substring (leaked for ergonomics).
        find_date(text, ctx).map(|(dt, span)| {
            let s: &'static str = Box::leak(text[span].to_owned().into_boxed_str());
            (dt.to_rfc3339(), s)
        })
    }

    #[test]
    fn find_date_in_record_texts() {
        let ctx = ctx_cn();
        let cases: &[(&str, &str, &str)] = &[
            (
                "Rust 1.76 released · Mar 5, 2024 · 4 min read",
                "2024-03-05T12:00:00+08:00",
                "Mar 5, 2024",
            ),
            (
                "How we cut build times by 40% Posted on 2024-03-05 by Ana",
                "2024-03-05T12:00:00+08:00",
                "2024-03-05",
            ),
            (
                "Kernel notes 2024-03-05T14:30:00Z (updated)",
                "2024-03-05T14:30:00+00:00",
                "2024-03-05T14:30:00Z",
            ),
            (
                "Release v2.10.2 – fixes for the parser. 05.03.2024",
                "2024-03-05T12:00:00+08:00",
                "05.03.2024",
            ),
            (
                "新版本发布2024年3月5日 14:30阅读全文",
                "2024-03-05T14:30:00+08:00",
                "2024年3月5日 14:30",
            ),
            (
                "某某公司发布新品 3小时前",
                "2026-03-10T14:00:00+08:00",
                "3小时前",
            ),
            (
                "Comments (3) · 2 days ago",
                "2026-03-08T17:00:00+08:00",
                "2 days ago",
            ),
            (
                "Summit recap Tuesday, March 5, 2024 at 3:30 pm in Berlin",
                "2024-03-05T15:30:00+08:00",
                "Tuesday, March 5, 2024 at 3:30 pm",
            ),
            (
                "Apple security update 24 Mar 2026 iOS 26.4",
                "2026-03-24T12:00:00+08:00",
                "24 Mar 2026",
            ),
            (
                "Meetup notes Mar 5 — slides inside",
                "2026-03-05T12:00:00+08:00",
                "Mar 5",
            ),
            (
                "Suggesting feedback Posted on 2023, Aug 01 by Asya 4 mins read",
                "2023-08-01T12:00:00+08:00",
                "2023, Aug 01",
            ),
            (
                "研究ノート Posted on 金 26 4月 2024 in 研究",
                "2024-04-26T12:00:00+08:00",
                "26 4月 2024",
            ),
            (
                "How to Make a Simple Navbar Jul 24 th , 2014 | Comments",
                "2014-07-24T12:00:00+08:00",
                "Jul 24 th , 2014",
            ),
            (
                "会议纪要 3月5日 发布",
                "2026-03-05T12:00:00+08:00",
                "3月5日",
            ),
            ("2024-03-05发布", "2024-03-05T12:00:00+08:00", "2024-03-05"),
            (
                "Updated yesterday at 14:30",
                "2026-03-09T14:30:00+08:00",
                "yesterday at 14:30",
            ),
            ("昨天 09:15 更新", "2026-03-09T09:15:00+08:00", "昨天 09:15"),
            (
                "Christof Kuhbandner heute, 11:45 Uhr 56",
                "2026-03-10T11:45:00+08:00",
                "heute, 11:45 Uhr",
            ),
            (
                "Publicado ayer a las 18:05",
                "2026-03-09T18:05:00+08:00",
                "ayer a las 18:05",
            ),
            (
                "Issue 1234 closed on 03/05/2024.",
                "2024-03-05T12:00:00+08:00",
                "03/05/2024",
            ),
        ];
        for (text, want, span) in cases {
            assert_eq!(
                found(text, &ctx),
                Some((want.to_string(), *span)),
                "text {text:?}"
            );
        }
    }

    #[test]
    fn find_date_picks_the_first_date() {
        let ctx = ctx_utc();
        let (dt, span) = find_date("Updated 2024-05-01, first published 2023-01-02", &ctx).unwrap();
        assert_eq!(dt.to_rfc3339(), "2024-05-01T12:00:00+00:00");
        assert_eq!(span, 8..18);
    }

    #[test]
    fn find_date_span_is_in_bytes() {
        let ctx = ctx_utc();
        let text = "日期：2024-03-05";
        let (_, span) = find_date(text, &ctx).unwrap();
        assert_eq!(&text[span.clone()], "2024-03-05");
        assert_eq!(span.start, "日期：".len());
    }

    #[test]
    fn find_date_rejections() {
        let ctx = ctx_utc();
        let rejected = [
            "Call us: +1 555-123-4567 or 555.123.4567",
            "Call 0171-12-2024 now",
            "Phone 030 1234 2024",
            "Price: $12.03, was €2024.05",
            "Only ¥2024/03/05 today",
            "Version 2.10.2 released with 2024.3.1 compatibility",
            "Upgrade to 10.15.7 now",
            "Build 2024.03.05.1 is out",
            "IP 192.168.10.12 blocked",
            "Ticket #03/05/2024 closed",
            "id=20240305 sort=desc",
            "Copyright 2024 Example Inc.",
            "Opening hours 09:00-17:30",
            "Since March 2024 we have grown",
            "Sign up today and save",
            "You may 5 times retry",
            "Yesterday was great",
            "今天我们发布了新版本",
            "Chapter 12 of 2024 pages",
            "2024-03-0512 serial",
            "ratio 12-03-20245",
            "nothing here",
            // "hier" is German for "here", not French "yesterday"; a day
            // word glued to letters before it is part of another word.
            "Mehr dazu hier, 10:30 Uhr",
            "Das Spiel heute war gut",
            "the new player 12:30 build",
            "",
        ];
        for text in rejected {
            assert_eq!(found(text, &ctx), None, "text {text:?}");
        }
    }

    #[test]
    fn only_texts_that_can_hold_a_date_reach_the_patterns() {
        for t in [
            "2024-03-05",
            "An hour ago",
            "JUST NOW",
            "Today",
            "3小时前",
            "5 mars",
            "１２月",
        ] {
            assert!(may_hold_date(t), "{t}");
        }
        for t in [
            "Read more",
            "Sourdough with a sulky starter",
            "",
            "Top 10 tips for a sulky starter",
            "Release 42 is out",
            "Codec 5 lands soon",
            "watchOS 10.5",
            "64.88% ARV",
            "Vor der Pandemie fand eine große Mehrheit Homeoffice attraktiv",
            "让不支持Reasoning的LLM假装思考",
            // Digits that no numeric date pattern can read: versions, Unix
            // times, a year in a name, numbers in prose.
            "v2.10.2",
            "macOS Sonoma 14.7.2",
            "1450308336",
            "2026牛客寒假算法基础集训营5",
            "Über 19 Bezirke in Österreich",
            "i2.10.2 build",
        ] {
            assert!(!may_hold_date(t), "{t}");
        }
        for t in [
            "Mar 5",
            "05-03-2024",
            "20240305",
            "am 5. Dezember 2024 veröffentlicht",
            "发布于 2024-03-05",
            "dec. 7",
            "The 4 known bugs",
            "5. März 2024",
            "昨天",
            "半小时前",
            "오늘",
        ] {
            assert!(may_hold_date(t), "{t}");
        }
        let ctx = ctx_utc();
        assert!(parse_date("An hour ago", &ctx).is_some());
        assert!(parse_date("Yesterday", &ctx).is_some());
        assert!(find_date("Posted a week ago by Ana", &ctx).is_some());
    }
    /// The prefilter's invariant: on texts made by cutting, gluing and
    /// editing real dates (and the near misses around them), no text it
    /// turns away would give a date to the patterns.
    #[test]
    fn every_date_word_begins_with_a_listed_initial() {
        for w in ASCII_DATE_WORDS {
            assert!(is_date_word_initial(w.as_bytes()[0]), "{w}");
            assert!(
                is_date_word_initial(w.as_bytes()[0].to_ascii_uppercase()),
                "{w}"
            );
        }
        assert!(!is_date_word_initial(b'b') && !is_date_word_initial(b'Z'));
    }

    #[test]
    fn prefilter_never_drops_a_date() {
        const DATES: &[&str] = &[
            "March 5, 2024",
            "5 March 2024",
            "5th of March 2024",
            "Tue, 05 Mar 2024 14:30:00 +0000",
            "2024-03-05T14:30:00Z",
            "2024/3/5",
            "05.03.2024",
            "03/05/2024",
            "05-Mar-2024",
            "2023, Aug 01",
            "Mar 2024",
            "Mar 5",
            "5 March",
            "20240305",
            "3 hours ago",
            "an hour ago",
            "yesterday at 3:30 pm",
            "just now",
            "TODAY 14:30",
            "5 de marzo de 2024",
            "1er mars 2024",
            "Dec. 7th, 2023",
            "Posted on Sept 9",
            "2024年3月5日 14:30",
            "3小时前",
            "昨天 14:30",
            "3시간 전",
            "5. März 2024",
            "1er août 2024",
            "２０２４年３月５日",
            "半小时前",
            "26 4月 2024",
            "오늘 09:15",
            "2024년 3월 5일",
            "Veröffentlicht am 5. März 2024",
            "发布于 2024-03-05",
            "5 févr. 2024",
            "déc. 5, 2024",
            "Jänner 5, 2024",
            "3月5日",
            "v1.2.3 (2024-03-05)",
            "heute, 11:45 Uhr",
            "ayer a las 10:30",
            "aujourd'hui à 09:15",
            "vorgestern",
            "tänään 9.15",
            "i går 22:10",
            "ma 09:15",
            "2026. november 28. 14:03",
            "令和8年11月28日",
            "115-11-28",
            "115年11月28日",
            "há 3 horas",
            "vor einer Stunde",
            "3 ore fa",
            "2 jam yang lalu",
            "3 saat önce",
        ];
        const PIECES: &[&str] = &[
            "5",
            "2024",
            "1",
            "Mar",
            "may",
            "codec",
            "Tue",
            "of",
            "th",
            "ago",
            "v",
            "T",
            "14:30",
            " ",
            ", ",
            "-",
            "/",
            ".",
            ":",
            "_",
            "#",
            "x",
            "Top 10 tips ",
            "年",
            "月",
            "é",
            "前",
            "\u{a0}",
            "ä",
            "中",
            "12.7.3",
            "1450308336",
            "03",
            "12",
            "hier",
            "um ",
        ];
        let ctx = ctx_utc();
        let mut next = numbers(0x9E37_79B9_7F4A_7C15);
        let mut dates_seen = 0;
        for _ in 0..20_000 {
            let mut text = DATES[next(DATES.len())].to_owned();
            for _ in 0..1 + next(3) {
                let at = (0..=text.len())
                    .filter(|&i| text.is_char_boundary(i))
                    .nth(next(text.len() + 1));
                let at = at.unwrap_or(text.len());
                match next(3) {
                    0 => text.insert_str(at, PIECES[next(PIECES.len())]),
                    1 if at < text.len() => {
                        text.remove(at);
                    }
                    _ => {
                        let cut: String = DATES[next(DATES.len())].chars().take(next(4)).collect();
                        text.insert_str(at, &cut);
                    }
                }
            }
            let found = find_any(&text, &ctx).is_some();
            let whole = parse_any(&text, &ctx).is_some();
            dates_seen += usize::from(found || whole);
            assert!(
                !(found || whole) || may_hold_date(&text),
                "prefilter drops a date: {text:?}"
            );
        }
        // The edits must leave real dates often enough for the check to
        // mean much, and break them often enough to test the near misses.
        assert!((1_000..18_000).contains(&dates_seen), "{dates_seen} dates");
    }

    #[test]
    fn byte_runs_are_maximal_and_in_order() {
        let digits: Vec<_> = byte_runs(b"v2.10 on 2024-03-05", u8::is_ascii_digit).collect();
        assert_eq!(digits, [1..2, 3..5, 9..13, 14..16, 17..19]);
        assert_eq!(byte_runs(b"", u8::is_ascii_digit).count(), 0);
        assert_eq!(byte_runs(b"abc", u8::is_ascii_digit).count(), 0);
        assert!(numeric_date_shape(b"on 2024-03-05"));
        assert!(numeric_date_shape(b"5.3.2024"));
        assert!(!numeric_date_shape(b"2024-03 and 05"));
        assert!(!numeric_date_shape(b"$1.99 or 2.49"));
        assert!(numeric_date_shape(b"20240305"));
        // Versions, Unix times and long ids have no year where a date has.
        assert!(!numeric_date_shape(b"macOS Sonoma 14.7.2"));
        assert!(!numeric_date_shape(b"v2.10.1 and 1.2.3.4"));
        assert!(!numeric_date_shape(b"1450308336"));
        assert!(numeric_date_shape(b"build 7.2024-03-05"));
        assert!(numeric_date_shape(b"1.5.3.2024"));
    }

    /// A repeatable stream of numbers below `n` (a linear congruential
    /// generator from `seed`), for generated test texts.
    fn numbers(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        }
    }

    /// The search before anchored starts: every pattern unanchored over
    /// the whole text, each pattern's first valid match (delimited, and a
    /// day without a year not followed by one), the earliest (then
    /// longest) winning. [`find_any`] must find exactly what it did.
    fn find_unanchored(text: &str, ctx: &DateContext) -> Option<(String, Range<usize>)> {
        let mut best: Option<(DateTime<FixedOffset>, Range<usize>)> = None;
        for (kind, anchored) in &SETS.find_of {
            let body = anchored.as_str();
            let re = Regex::new(&body["^(?:".len()..body.len() - 1]).unwrap();
            let limit = best.as_ref().map_or(text.len(), |(_, span)| span.start);
            let mut pos = 0;
            while pos <= limit && pos <= text.len() {
                let Some(caps) = re.captures_at(text, pos) else {
                    break;
                };
                let whole = caps.get(0).unwrap();
                if whole.start() > limit {
                    break;
                }
                if is_delimited(text, whole.range())
                    && (caps.name("y").is_some() || !year_follows(&text[whole.end()..]))
                    && let Some(dt) = build(*kind, &caps, ctx)
                {
                    let span = whole.range();
                    let better = best.as_ref().is_none_or(|(_, b)| {
                        span.start < b.start || (span.start == b.start && span.end > b.end)
                    });
                    if better {
                        best = Some((dt, span));
                    }
                    break;
                }
                pos = whole.start()
                    + text[whole.start()..]
                        .chars()
                        .next()
                        .map_or(1, char::len_utf8);
            }
        }
        best.map(|(d, span)| (d.to_rfc3339(), span))
    }

    #[test]
    fn anchored_starts_find_what_a_whole_text_search_finds() {
        let ctx = ctx_utc();
        let texts = [
            "Posted by Ana on March 5, 2024 at 3:30 pm · 12 comments",
            "v2.10.2 released 2024-03-05, 3 days after 1.9",
            "Tue, 05 Mar 2024 14:30:00 +0000 — Mon 4 Mar",
            "call 0171-12-2024 or see #03/05/2024 and $12.03.2024",
            "a week ago · an hour ago · one day ago",
            "发布于 2024年3月5日 14:30 · 3小时前 · 昨天 09:00",
            "오늘 09:15, 3시간 전, 2024년 3월 5일",
            "heute, 11:45 Uhr · gestern · aujourd'hui à 09:15",
            "5. März 2024 und 1er août 2024, 5 de marzo de 2024",
            "Sept 9th, 2023 / 2023, Aug 01 / Jul 24 th , 2014",
            "Top 10 tips for March 2024 · Codec 5 lands Mar 5",
            "x2024-03-05 y 2024-03-05z (2024-03-05)",
            "just now · right now · TODAY 14:30",
        ];
        for t in texts {
            let got = find_any(t, &ctx).map(|(d, s)| (d.to_rfc3339(), s));
            assert_eq!(got, find_unanchored(t, &ctx), "{t:?}");
        }
        // The generated near misses of `prefilter_never_drops_a_date` too.
        let mut next = numbers(0x2545_F491_4F6C_DD1D);
        for _ in 0..3_000 {
            let mut text = String::new();
            for _ in 0..2 + next(5) {
                text.push_str(
                    texts[next(texts.len())]
                        .split(' ')
                        .nth(next(4))
                        .unwrap_or(" "),
                );
                text.push_str([" ", "", ", ", "-", "/", ".", "年"][next(7)]);
            }
            let got = find_any(&text, &ctx).map(|(d, s)| (d.to_rfc3339(), s));
            assert_eq!(got, find_unanchored(&text, &ctx), "{text:?}");
        }
    }

    /// Regression (a museum's exhibitions): "4 July – 29 November 2026"
    /// was dated by its end; a run of days is dated by its first.
    #[test]
    fn a_range_is_dated_by_its_first_day_with_the_year_its_end_gives() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, s)| (d.date_naive().to_string(), s));
        let cases = [
            ("4 July – 29 November 2026", "2026-07-04", 0..27),
            ("Open 3 – 29 November 2026 daily", "2026-11-03", 5..27),
            (
                "Gallery 2 · 15 May - 26 September 2027",
                "2027-05-15",
                13..39,
            ),
            ("Mon 20 December — Wed 5 January 2027", "2026-12-20", 0..38),
            ("12 October 2026 – 8 March 2027", "2026-10-12", 0..15),
            ("2019 – 15 March 2024", "2024-03-15", 9..22),
            ("10:00 – 15 March 2024", "2024-03-15", 10..23),
        ];
        for (text, want, span) in cases {
            assert_eq!(day(text), Some((want.to_string(), span)), "{text:?}");
        }
        let start = |s: &str| parse_range_start(s, &ctx).map(|d| d.date_naive().to_string());
        assert_eq!(
            start("4 July – 29 November 2026").as_deref(),
            Some("2026-07-04")
        );
        assert_eq!(start("3 – 29 November 2026").as_deref(), Some("2026-11-03"));
    }

    #[test]
    fn every_pattern_compiles() {
        assert!(PATTERNS.len() > 10);
        assert_eq!(SETS.whole.len(), SETS.whole_of.len());
        assert_eq!(SETS.find.len(), SETS.find_of.len());
        assert!(SETS.find.len() > 10);
        assert!(LEADING_NOISE.is_match("Posted on "));
        assert!(TRAILING_NOISE.is_match(" ·"));
    }

    #[test]
    fn readings_that_look_at_the_clock_are_told_apart() {
        let ctx = ctx_utc();
        let read = |s: &str| reads_clock(|| parse_date(s, &ctx)).1;
        assert!(read("3 days ago"));
        assert!(read("today, 11:45"));
        assert!(read("Mar 5"), "a day without a year takes the reader's");
        assert!(!read("5 March 2024"));
        assert!(!read("2024-03-05T14:30:00Z"));
        assert!(!read("no date here"));
    }

    /// Regression (round 65, a site builder's blog grid): its dates are
    /// "11/28/26", which no pattern read (two-digit years were read only
    /// with a weekday or an apostrophe). A whole string of slashes says
    /// its year; in running text it stays unread.
    #[test]
    fn a_whole_slash_date_may_have_a_two_digit_year() {
        let ctx = ctx_utc();
        let day = |s: &str| parse_date(s, &ctx).map(|d| d.format("%Y-%m-%d").to_string());
        assert_eq!(day("11/28/26").as_deref(), Some("2026-11-28"));
        assert_eq!(day("9/5/26").as_deref(), Some("2026-09-05"));
        assert_eq!(day("28/11/26").as_deref(), Some("2026-11-28"));
        let day_first = DateContext {
            day_first: true,
            ..ctx
        };
        assert_eq!(
            parse_date("5/9/26", &day_first).map(|d| d.format("%Y-%m-%d").to_string()),
            Some("2026-09-05".into())
        );
        assert_eq!(day("11/28/2"), None);
        assert!(find_date("rated 3/4/26 by readers and 11/28/26 here", &ctx).is_none());
    }

    /// Regression (round 68, a Russian phpBB forum): "28 ноя 2026, 14:03"
    /// and every other Russian or Ukrainian month name were no dates, so a
    /// topic took its last post's time instead of its own start.
    #[test]
    fn russian_and_ukrainian_dates_are_read() {
        let ctx = ctx_utc();
        let day = |t: &str| find_date(t, &ctx).map(|(d, _)| d.format("%Y-%m-%d %H:%M").to_string());
        assert_eq!(
            day("от Термостат » 02 фев 2023, 19:40"),
            Some("2023-02-02 19:40".into())
        );
        assert_eq!(day("28 ноября 2026 г."), Some("2026-11-28 12:00".into()));
        assert_eq!(
            day("Опубликовано 3 Декабря 2025"),
            Some("2025-12-03 12:00".into())
        );
        assert_eq!(day("5 нояб. 2026"), Some("2026-11-05 12:00".into()));
        assert_eq!(
            day("28 листопада 2026, 08:15"),
            Some("2026-11-28 08:15".into())
        );
        // A count beside a Cyrillic word is no date.
        assert_eq!(day("28 ответов 2026"), None);
    }

    /// Regression (round 68, a Korean board): its date cells say "14:03"
    /// today, "11-28" this year and "25-12-30" before, and none was read.
    /// A board's "11-28" is this year's even read near an older record.
    #[test]
    fn a_boards_date_cell_in_short_numbers() {
        let ctx = DateContext::utc_at(2026, 12, 1, 15);
        let day = |s: &str, ctx: &DateContext| {
            parse_cell_date(s, ctx).map(|d| d.format("%Y-%m-%d %H:%M").to_string())
        };
        assert_eq!(day("14:03", &ctx).as_deref(), Some("2026-12-01 14:03"));
        assert_eq!(day("11-28", &ctx).as_deref(), Some("2026-11-28 12:00"));
        assert_eq!(day("12.25", &ctx).as_deref(), Some("2025-12-25 12:00"));
        assert_eq!(day("25-12-30", &ctx).as_deref(), Some("2025-12-30 12:00"));
        assert_eq!(day("26.03.02", &ctx).as_deref(), Some("2026-03-02 12:00"));
        let near_old = DateContext {
            year_near: NaiveDate::from_ymd_opt(2025, 3, 2),
            ..ctx
        };
        assert_eq!(day("11-27", &near_old).as_deref(), Some("2026-11-27 12:00"));
        for not in [
            "3-1",
            "13-45",
            "25:70",
            "2-0",
            "1-2-3",
            "2026-11-28 x",
            "11-28-2026",
        ] {
            assert_eq!(day(not, &ctx), None, "{not}");
        }
    }

    /// Regression (a performance bug): one pattern's Unicode `\b` ("22
    /// Jul '25") made the lazy DFA of the whole set give up on every text
    /// holding a non-ASCII character ("·", "’"), and each search fell back
    /// to the much slower PikeVM. Patterns use ASCII boundaries ([`AB`]).
    #[test]
    fn no_pattern_needs_a_unicode_word_boundary() {
        for p in PATTERNS.iter() {
            for re in [&p.whole, &p.find].into_iter().flatten() {
                let rest = re.as_str().replace(AB, "");
                assert!(
                    !rest.contains(r"\b") && !rest.contains(r"\B"),
                    "{}",
                    re.as_str()
                );
            }
        }
    }

    /// Regression: a US local-news list writes "03-02-2024 4:15 PM" for 2
    /// March; read day first (the European dash form), it gave 3 February.
    /// The list's "03-15-2024" shows its order; a second part above 12 is
    /// a month-first date on its own.
    #[test]
    fn a_list_that_writes_its_dash_dates_month_first_is_read_month_first() {
        let orders = |texts: &[&str]| numeric_orders_of(texts.iter().copied());
        assert!(orders(&["03-02-2024 4:15 PM", "Posted 03-15-2024"]).dash_month_first);
        // Day first somewhere, or no evidence: the European default.
        assert!(!orders(&["03-15-2024", "15-03-2024"]).dash_month_first);
        assert!(!orders(&["03-02-2024", "ISO 2024-03-15"]).dash_month_first);
        assert!(!orders(&["ticket 03-15", "2024"]).dash_month_first);
        // Each separator has its own order.
        let mixed = orders(&["19/11/2026", "11-19-2026"]);
        assert!(mixed.slash_day_first && mixed.dash_month_first);
        assert!(!orders(&["11-19-2026"]).slash_day_first);
        let day = |text: &str, month_first| {
            let ctx = DateContext {
                dash_month_first: month_first,
                ..DateContext::utc_at(2026, 11, 24, 12)
            };
            found_day(text, &ctx)
        };
        for (text, month_first, want) in [
            ("03-02-2024 4:15 PM", false, "2024-02-03"),
            ("03-02-2024 4:15 PM", true, "2024-03-02"),
            ("on 12-25-2024", false, "2024-12-25"),
            ("on 25-12-2024", true, "2024-12-25"),
        ] {
            assert_eq!(day(text, month_first).as_deref(), Some(want), "{text}");
        }
    }

    /// The day of the first date in `text`.
    fn found_day(text: &str, ctx: &DateContext) -> Option<String> {
        find_date(text, ctx).map(|(d, _)| d.date_naive().to_string())
    }

    /// Regression: a UK property site writes "Added on 12/11/2026"; read
    /// month first, it gave 11 December. The page's "Reduced on
    /// 19/11/2026" shows its order.
    #[test]
    fn a_page_that_writes_its_slash_dates_day_first_is_read_day_first() {
        assert!(slash_order_of([
            "Reduced on 19/11/2026",
            "Added on 12/11/2026"
        ]));
        // Month first somewhere, or no evidence: the US default.
        assert!(!slash_order_of(["19/11/2026", "11/19/2026"]));
        assert!(!slash_order_of(["Added on 12/11/2026", "v1/2/2026-beta"]));
        assert!(!slash_order_of(["Route 19/11 to 2026"]));
        let day = |text: &str, day_first| {
            let ctx = DateContext {
                day_first,
                ..DateContext::utc_at(2026, 11, 24, 12)
            };
            found_day(text, &ctx)
        };
        for (text, day_first, want) in [
            ("Added on 12/11/2026", false, "2026-12-11"),
            ("Added on 12/11/2026", true, "2026-11-12"),
            // An unambiguous date reads the same either way.
            ("Reduced on 19/11/2026", false, "2026-11-19"),
            ("on 11/19/2026", true, "2026-11-19"),
        ] {
            assert_eq!(day(text, day_first).as_deref(), Some(want), "{text}");
        }
    }
}
