//! Lists dated by their titles alone: a parish's weekly bulletins ("Bulletin
//! – First Sunday of Advent, 29 November 2026 (PDF)"), a council's minutes
//! ("Minutes, 3 March 2026"), whose records show no date but the one their
//! titles name.
//!
//! A date in a headline is not its record's date as a rule ("Storm
//! warning for 3 December"): see [`super::record_dates`]. A list whose
//! every title names a whole day, year written, while no record carries a
//! date of its own, is a series of dated documents, and each is dated by
//! its title.
//!
//! Invariants: all or nothing; only lists of at least [`MIN_TITLE_DATED`]
//! items where no item has a date; a title's date must name its day and
//! write its year in four digits. Cost: one date search per title.

use crate::extract::dates::{DateContext, find_date, parse_day};

use super::Item;
use super::record_dates::has_year_digits;

/// Fewest items of a list dated by its titles: one title naming a day is
/// a headline that mentions one.
pub const MIN_TITLE_DATED: usize = 2;

/// Dates each of `items` by the day its title names, when every title
/// names one and no item has a date (see the module header).
pub fn dated_by_titles(items: &mut [Item], dates: &DateContext) {
    if items.len() < MIN_TITLE_DATED || items.iter().any(|i| i.date.is_some()) {
        return;
    }
    let found: Option<Vec<_>> = items.iter().map(|i| title_day(&i.title, dates)).collect();
    let Some(found) = found else { return };
    for (item, day) in items.iter_mut().zip(found) {
        item.date = Some(day);
        item.date_relative = false;
    }
}

/// The whole day `title` names with a four-digit year, if any.
fn title_day(title: &str, dates: &DateContext) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    let (_, span) = find_date(title, dates)?;
    let text = &title[span];
    if !has_year_digits(text) {
        return None;
    }
    parse_day(text, dates)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(titles: &[&str]) -> Vec<Item> {
        titles.iter().map(|t| Item::bare(t)).collect()
    }

    fn days(items: &[Item]) -> Vec<Option<String>> {
        items
            .iter()
            .map(|i| i.date.map(|d| d.date_naive().to_string()))
            .collect()
    }

    /// Regression (a parish's weekly bulletins, each a link straight to
    /// its PDF): the Sunday each title names was never read, the title's
    /// date being no record's date by rule.
    #[test]
    fn a_list_whose_every_title_names_a_day_is_dated_by_them() {
        let ctx = DateContext::utc_at(2026, 12, 1, 9);
        let mut list = items(&[
            "Bulletin – First Sunday of Advent, 29 November 2026 (PDF)",
            "Bulletin – Our Lord Jesus Christ, King of the Universe, 22 November 2026 (PDF)",
            "Minutes of the parish council, 2026-11-15",
        ]);
        dated_by_titles(&mut list, &ctx);
        assert_eq!(
            days(&list),
            [
                Some("2026-11-29".to_string()),
                Some("2026-11-22".to_string()),
                Some("2026-11-15".to_string())
            ]
        );
    }

    #[test]
    fn one_title_without_a_day_or_any_dated_item_dates_none() {
        let ctx = DateContext::utc_at(2026, 12, 1, 9);
        for titles in [
            // One without a date.
            &["Storm warning for 3 December 2026", "Ferries cancelled"][..],
            // A month is no day; a day without its year is no series date.
            &["Newsletter, November 2026", "Newsletter, October 2026"][..],
            &["Carols on 20 December", "Vigil on 24 December"][..],
            // Alone, a title naming a day is a headline mentioning one.
            &["Bulletin – 29 November 2026"][..],
        ] {
            let mut list = items(titles);
            dated_by_titles(&mut list, &ctx);
            assert!(list.iter().all(|i| i.date.is_none()), "{titles:?}");
        }
        let mut list = items(&["Bulletin – 29 November 2026", "Bulletin – 22 November 2026"]);
        list[1].date = Some(ctx.now.fixed_offset());
        dated_by_titles(&mut list, &ctx);
        assert!(list[0].date.is_none());
    }
}
