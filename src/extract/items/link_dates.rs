//! Items dated by their links: a blog index that shows titles only often
//! links each post at a permalink that writes the day it was published
//! (WordPress's `/2026/11/28/slug/`, Jekyll's and Hugo's
//! `/2026-11-28-slug/`).
//!
//! Such a day is read only for an item that has no date of its own (the
//! record's text, attributes, section heading and title gave none), never
//! against one.
//!
//! Invariants:
//! - Only a link on the page's own site (its host, a `www.` aside): an
//!   aggregator's items link to other sites' articles, whose day is not
//!   the day the item was posted.
//! - Only a whole day: a year and month (`/2026/11/slug/`) name none.
//!   The parts are whole path segments (`/2026/11/28/`), or a segment
//!   that opens with a dashed day followed by nothing, `-`, `_` or `.`
//!   (`2026-11-28-slug`); digits glued to words ("`/2015/12/13-million-
//!   users/`": a headline's number) are no day.
//! - The year within [`MIN_YEAR`]..=[`MAX_YEAR`], and the day not after
//!   the reading's day (an event's page writes the day it will happen):
//!   one day of slack for the zones ahead of the reader's.
//! - The day is read at noon in the page's offset, as every date without a
//!   time is.
//!
//! Cost: one pass over each undated item's path.

use chrono::{DateTime, Days, FixedOffset, NaiveDate};
use url::Url;

use crate::extract::dates::{DateContext, MAX_YEAR, MIN_YEAR};

use super::Item;

/// Dates each item of `items` that has no date by the day its link's path
/// writes, when the link is on the site of `base` (see the module header).
pub fn dated_by_links(items: &mut [Item], base: &Url, dates: &DateContext) {
    let site = base.host_str().map(without_www);
    for item in items.iter_mut().filter(|i| i.date.is_none()) {
        let Some(link) = &item.link else { continue };
        if site.is_none() || link.host_str().map(without_www) != site {
            continue;
        }
        if let Some(date) = path_day(link.path()).and_then(|d| published(d, dates)) {
            item.date = Some(date);
            item.date_relative = false;
        }
    }
}

/// `host` without a leading `www.`.
fn without_www(host: &str) -> &str {
    host.strip_prefix("www.").unwrap_or(host)
}

/// The day `path` writes: three segments year, month, day, or a segment
/// that opens with a dashed day (see the module header).
fn path_day(path: &str) -> Option<NaiveDate> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    segments
        .windows(3)
        .find_map(|w| day_of(w[0], w[1], w[2]))
        .or_else(|| segments.iter().find_map(|s| dashed_day(s)))
}

/// The day of year, month and day segments, each of digits only: four in
/// the year, one or two in the others.
fn day_of(year: &str, month: &str, day: &str) -> Option<NaiveDate> {
    let digits = |s: &str, lens: std::ops::RangeInclusive<usize>| {
        (lens.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let y = i32::try_from(digits(year, 4..=4)?).ok()?;
    if !(MIN_YEAR..=MAX_YEAR).contains(&y) {
        return None;
    }
    NaiveDate::from_ymd_opt(y, digits(month, 1..=2)?, digits(day, 1..=2)?)
}

/// The day a segment opens with, `YYYY-MM-DD`, followed by nothing, `-`,
/// `_` or `.`.
fn dashed_day(segment: &str) -> Option<NaiveDate> {
    let b = segment.as_bytes();
    let ends_day = b.get(10).is_none_or(|c| matches!(c, b'-' | b'_' | b'.'));
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' || !ends_day {
        return None;
    }
    day_of(segment.get(..4)?, segment.get(5..7)?, segment.get(8..10)?)
}

/// `day` at noon in the page's offset, unless it is after the reading's
/// day (a day of slack for zones ahead).
fn published(day: NaiveDate, dates: &DateContext) -> Option<DateTime<FixedOffset>> {
    let today = dates.now.with_timezone(&dates.offset).date_naive();
    if day > today.checked_add_days(Days::new(1))? {
        return None;
    }
    day.and_hms_opt(12, 0, 0)?
        .and_local_timezone(dates.offset)
        .single()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(title: &str, link: &str) -> Item {
        let mut i = Item::bare(title);
        i.link = Some(Url::parse(link).unwrap());
        i
    }

    fn days(items: &[Item]) -> Vec<Option<String>> {
        items
            .iter()
            .map(|i| i.date.map(|d| d.date_naive().to_string()))
            .collect()
    }

    fn day(s: &str) -> Option<NaiveDate> {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
    }

    #[test]
    fn permalink_paths_give_their_days() {
        let cases: &[(&str, Option<&str>)] = &[
            ("/2026/11/28/rewriting-the-sync-engine/", Some("2026-11-28")),
            ("/blog/2026/3/5/notes", Some("2026-03-05")),
            ("/2022-07-28-restaking/", Some("2022-07-28")),
            ("/blog/2022-07-28_restaking.html", Some("2022-07-28")),
            ("/notes/2024-02-29.html", Some("2024-02-29")),
            ("/archive/2026/11/28/", Some("2026-11-28")),
            // A month names no day; a headline's number glued to words
            // is no day; nor are an id, a version or an impossible day.
            ("/2026/11/rewriting-the-sync-engine/", None),
            (
                "/security/2015/12/13-million-mackeeper-users-exposed/",
                None,
            ),
            ("/posts/20261128/", None),
            ("/releases/2026-11-2/", None),
            ("/2026-11-28x/", None),
            ("/2023/02/29/not-a-day/", None),
            ("/1900/01/02/too-early/", None),
            ("/about/", None),
        ];
        for &(path, want) in cases {
            assert_eq!(path_day(path), want.and_then(day), "{path}");
        }
    }

    /// Regression (a Jekyll blog's index of titles only, one post at a
    /// dated permalink): the day its link wrote was never read, and the
    /// post went out undated.
    #[test]
    fn undated_items_on_the_site_are_dated_by_their_links() {
        let ctx = DateContext::utc_at(2026, 12, 1, 9);
        let base = Url::parse("https://www.example.org/blog/").unwrap();
        let mut dated = item("Dated by its text", "https://example.org/2025/01/02/text/");
        dated.date = day("2025-01-03").and_then(|d| published(d, &ctx));
        let mut list = vec![
            item(
                "Restaking",
                "https://example.org/blog/2022-07-28-restaking/",
            ),
            item(
                "Sync engine",
                "https://www.example.org/2026/11/28/sync-engine/",
            ),
            dated,
            // Another site's article, the future, a page without a day.
            item("Elsewhere", "https://news.example.com/2026/11/27/story/"),
            item(
                "Next week's meetup",
                "https://example.org/events/2026-12-09-meetup/",
            ),
            item("About", "https://example.org/about/"),
        ];
        dated_by_links(&mut list, &base, &ctx);
        assert_eq!(
            days(&list),
            [
                Some("2022-07-28".into()),
                Some("2026-11-28".into()),
                Some("2025-01-03".into()),
                None,
                None,
                None,
            ]
        );
        assert!(list.iter().all(|i| !i.date_relative));
    }
}
