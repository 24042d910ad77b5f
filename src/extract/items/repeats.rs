//! A record that appears twice in one group (a package's "Current tags"
//! table above its version history, a "featured" strip above the list it
//! repeats): one item per guid, at its first place, with what the later
//! appearance adds.
//!
//! Invariants: the first appearance's title, link and place are kept; a
//! later one only fills a field the first left empty. Linear in the items.

use super::Item;

/// `items` with each guid once, at its first place; a later item with the
/// same guid fills the kept one's missing date, summary, image and
/// author (the version history's row dates the undated tag row).
pub fn without_repeats(items: Vec<Item>) -> Vec<Item> {
    let mut at: rustc_hash::FxHashMap<String, usize> = Default::default();
    let mut kept: Vec<Item> = Vec::with_capacity(items.len());
    for item in items {
        match at.get(&item.guid) {
            Some(&i) => fill_from(&mut kept[i], item),
            None => {
                at.insert(item.guid.clone(), kept.len());
                kept.push(item);
            }
        }
    }
    kept
}

/// Fills `kept`'s empty fields from `later`, its repeat.
fn fill_from(kept: &mut Item, later: Item) {
    if kept.date.is_none() {
        kept.date = later.date;
        kept.date_relative = later.date_relative;
    }
    if kept.summary.is_empty() {
        kept.summary = later.summary;
    }
    if kept.image.is_none() {
        kept.image = later.image;
    }
    if kept.author.is_none() {
        kept.author = later.author;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(guid: &str, day: Option<&str>, summary: &str) -> Item {
        Item {
            guid: guid.to_owned(),
            date: day.and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok()),
            summary: summary.to_owned(),
            ..Item::bare(guid)
        }
    }

    /// Regression (a package's versions page): the "Current tags" row of
    /// 4.2.1 has no date, its version history row does; the item kept the
    /// tag row's place and lost the date.
    #[test]
    fn a_repeat_fills_the_first_appearances_missing_date() {
        let items = vec![
            item("/v/4.2.1", None, ""),
            item("/v/3.9.4", None, "legacy"),
            item("/v/5.0.0", Some("2026-11-29T16:12:33Z"), "1,904"),
            item("/v/4.2.1", Some("2026-11-24T09:05:48Z"), "182,340"),
            item("/v/3.9.4", Some("2026-10-30T08:44:17Z"), "22,915"),
        ];
        let kept = without_repeats(items);
        let guids: Vec<&str> = kept.iter().map(|i| i.guid.as_str()).collect();
        assert_eq!(guids, ["/v/4.2.1", "/v/3.9.4", "/v/5.0.0"]);
        let days: Vec<String> = kept
            .iter()
            .map(|i| {
                i.date
                    .map(|d| d.date_naive().to_string())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(days, ["2026-11-24", "2026-10-30", "2026-11-29"]);
        // A field the first appearance has stays its own.
        assert_eq!(kept[0].summary, "182,340");
        assert_eq!(kept[1].summary, "legacy");
    }
}
