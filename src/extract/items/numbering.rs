//! Numbering a list writes into every title: a running index in front
//! ("1: ", "2: ", … on a bulletin board's thread list, "1. ", "2. " on a
//! ranked list; "5.1 ", "5.2 ", "6.1 ", … on a meeting's agenda) and a
//! count behind ("… (1001)", its replies). Neither is the title: the
//! page's own pages name the thread without them.
//!
//! Invariants: the group decides, never one title: the index is stripped
//! only when every title carries it and the numbers run on by one (an
//! agenda's item numbers by one within a section, from 1 in the next
//! section, in ascending order: a release list's "5.2", "5.1" is not one);
//! a count
//! only when every title ends with one and they are not all years (a film
//! list's "Dune (2021)" keeps its year). A title is never emptied; a
//! record without a link is known by its title without them.

use super::{Item, content_guid};

/// Fewer titles than this prove no numbering: two may agree by chance.
const MIN_NUMBERED: usize = 3;

/// Years a trailing parenthesised number may be and still be a year.
const YEARS: std::ops::RangeInclusive<u32> = 1800..=2100;

/// Strips the running index and the trailing count from every title of
/// `items` when the whole list carries them.
pub fn without_list_numbering(items: &mut [Item]) {
    if items.len() < MIN_NUMBERED {
        return;
    }
    let index = numbered(items, index_prefix, |last, n| {
        last.is_none_or(|l| n == l + 1)
    })
    .or_else(|| numbered(items, agenda_prefix, agenda_follows));
    let counts = trailing_counts(items);
    if index.is_none() && counts.is_none() {
        return;
    }
    for (n, item) in items.iter_mut().enumerate() {
        let start = index.as_ref().map_or(0, |c| c[n]);
        let end = counts.as_ref().map_or(item.title.len(), |c| c[n]);
        // A title that is only its index and count keeps the count.
        let end = if end > start { end } else { item.title.len() };
        item.title = item.title[start..end].to_owned();
        // A running index moves as the list moves: a record without a
        // link is known by its title without it.
        if item.link.is_none() {
            item.guid = content_guid(&item.title, &item.summary);
        }
    }
}

/// The byte length of each title's number prefix, when every title opens
/// with one (`prefix`: the number and where the title starts after it)
/// and each number `follows` the one before it (`None` for the first):
/// a running index "N: " or "N. " by one from the first, or an agenda's
/// "5.1 ", "5.2 ", "6.1 " ([`agenda_follows`]).
fn numbered<N: Copy>(
    items: &[Item],
    prefix: fn(&str) -> Option<(N, usize)>,
    follows: fn(Option<N>, N) -> bool,
) -> Option<Vec<usize>> {
    let mut cuts = Vec::with_capacity(items.len());
    let mut last = None;
    for item in items {
        let (n, cut) = prefix(&item.title)?;
        if !follows(last, n) {
            return None;
        }
        last = Some(n);
        cuts.push(cut);
    }
    Some(cuts)
}

/// "12: Title" → (12, 4): the number and where the title starts after it.
fn index_prefix(title: &str) -> Option<(u32, usize)> {
    let digits = title.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 4 {
        return None;
    }
    let n = title[..digits].parse().ok()?;
    let rest = &title[digits..];
    let sep = [": ", ". ", "："].iter().find(|s| rest.starts_with(**s))?;
    let after = &rest[sep.len()..];
    let start = title.len() - after.trim_start().len();
    (start < title.len()).then_some((n, start))
}

/// True when agenda number `n` (section, item) is the next item of the
/// section of `last`, or the first item of a later section.
fn agenda_follows(last: Option<(u32, u32)>, (section, n): (u32, u32)) -> bool {
    match last {
        None => true,
        Some((s, m)) => (section == s && n == m + 1) || (section > s && n == 1),
    }
}

/// "7.2 Rezoning application" → ((7, 2), 4): the section and the item,
/// and where the title starts after them (a space, ". " or ": " follows).
fn agenda_prefix(title: &str) -> Option<((u32, u32), usize)> {
    let number = |s: &str| {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        (1..=3)
            .contains(&digits)
            .then(|| Some((s[..digits].parse::<u32>().ok()?, digits)))
            .flatten()
    };
    let (section, d1) = number(title)?;
    let rest = title[d1..].strip_prefix('.')?;
    let (n, d2) = number(rest)?;
    let rest = &rest[d2..];
    let rest = rest
        .strip_prefix(". ")
        .or_else(|| rest.strip_prefix(": "))
        .or_else(|| rest.strip_prefix(' '))?;
    let start = title.len() - rest.trim_start().len();
    (start < title.len()).then_some(((section, n), start))
}

/// Where each title ends before its trailing "(N)" count, when every
/// title has one and they are not all years.
fn trailing_counts(items: &[Item]) -> Option<Vec<usize>> {
    let counts: Vec<(u32, usize)> = items
        .iter()
        .map(|it| count_suffix(&it.title))
        .collect::<Option<_>>()?;
    if counts.iter().all(|(n, _)| YEARS.contains(n)) {
        return None;
    }
    Some(counts.into_iter().map(|(_, cut)| cut).collect())
}

/// "Title (1001)" → (1001, 5): the count and where the title ends.
fn count_suffix(title: &str) -> Option<(u32, usize)> {
    let (open, close) = if title.ends_with(')') {
        ('(', ")")
    } else if title.ends_with('）') {
        ('（', "）")
    } else {
        return None;
    };
    let inner_end = title.len() - close.len();
    let open_at = title[..inner_end].rfind(open)?;
    let digits = &title[open_at + open.len_utf8()..inner_end];
    if digits.is_empty() || digits.len() > 7 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let cut = title[..open_at].trim_end().len();
    (cut > 0).then_some((digits.parse().ok()?, cut))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titled(titles: &[&str]) -> Vec<Item> {
        titles.iter().map(|t| Item::bare(t)).collect()
    }

    fn titles(items: &[Item]) -> Vec<&str> {
        items.iter().map(|i| i.title.as_str()).collect()
    }

    #[test]
    fn a_thread_lists_index_and_reply_count_are_no_title() {
        let mut items = titled(&[
            "1: 【雑談】今日あったこと書いてけ★127 (1001)",
            "2: 春から一人暮らし始める奴集まれ (412)",
            "3: 猫飼ってる奴ちょっと来い Part38 (876)",
        ]);
        without_list_numbering(&mut items);
        assert_eq!(
            titles(&items),
            [
                "【雑談】今日あったこと書いてけ★127",
                "春から一人暮らし始める奴集まれ",
                "猫飼ってる奴ちょっと来い Part38"
            ]
        );
    }

    /// Regression: a council meeting's agenda items were titled with
    /// their numbers ("7.2 Rezoning application for …").
    #[test]
    fn an_agendas_item_numbers_are_no_title() {
        let mut items = titled(&[
            "5.1 Brackenridge Food Bank – 2023 Annual Update",
            "5.2 Residents of Orchard Hill regarding speeding",
            "6.1 Minutes of the Regular Council Meeting of February 27, 2024",
            "9.1 Fees and Charges Amendment Bylaw No. 3388, 2024",
        ]);
        without_list_numbering(&mut items);
        assert_eq!(
            titles(&items),
            [
                "Brackenridge Food Bank – 2023 Annual Update",
                "Residents of Orchard Hill regarding speeding",
                "Minutes of the Regular Council Meeting of February 27, 2024",
                "Fees and Charges Amendment Bylaw No. 3388, 2024"
            ]
        );
        // Versions, newest first, are titles: the numbers do not ascend.
        let mut releases = titled(&["5.3 Released", "5.2 Released", "5.1 Released"]);
        without_list_numbering(&mut releases);
        assert_eq!(titles(&releases)[0], "5.3 Released");
        // Nor when a section's items skip one.
        let mut gaps = titled(&["1.1 Opening", "1.3 Minutes", "2.1 Reports"]);
        without_list_numbering(&mut gaps);
        assert_eq!(titles(&gaps)[1], "1.3 Minutes");
    }

    #[test]
    fn numbers_that_do_not_run_on_are_part_of_the_titles() {
        let mut items = titled(&[
            "3. Ways to cache a build",
            "10. Things we learned in 2024",
            "7. Reasons to write tests",
        ]);
        let before = items.clone();
        without_list_numbering(&mut items);
        assert_eq!(items, before);
    }

    #[test]
    fn one_title_without_the_count_keeps_every_count() {
        let mut items = titled(&["Alpha (12)", "Beta (3)", "Gamma", "Delta (40)"]);
        let before = items.clone();
        without_list_numbering(&mut items);
        assert_eq!(items, before);
    }

    #[test]
    fn a_film_lists_years_stay() {
        let mut items = titled(&["Dune (2021)", "Arrival (2016)", "Sicario (2015)"]);
        let before = items.clone();
        without_list_numbering(&mut items);
        assert_eq!(items, before);
    }

    #[test]
    fn a_title_of_only_an_index_and_a_count_keeps_the_count() {
        let mut items = titled(&["1: (12)", "2: Beta (3)", "3: Gamma (40)"]);
        without_list_numbering(&mut items);
        assert_eq!(titles(&items), ["(12)", "Beta", "Gamma"]);
    }

    #[test]
    fn a_linkless_record_is_known_by_its_title_without_its_rank() {
        let mut items = titled(&["1. Zig build caches", "2. fsync costs", "3. Timeouts"]);
        without_list_numbering(&mut items);
        assert_eq!(items[1].guid, content_guid("fsync costs", ""));
    }

    #[test]
    fn a_ranked_list_loses_its_ranks_only() {
        let mut items = titled(&["1. Zig build caches", "2. fsync costs", "3. Timeouts"]);
        without_list_numbering(&mut items);
        assert_eq!(
            titles(&items),
            ["Zig build caches", "fsync costs", "Timeouts"]
        );
    }
}
