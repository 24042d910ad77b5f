//! Release lists (a changelog, release notes): every record is a release,
//! titled by its version and dated. A record among them with neither (the
//! "Unreleased" section a changelog keeps on top, an "Older releases"
//! pointer at its end) is no release: its contents change until a release
//! takes them, and a reader who follows the releases would see it again
//! and again.
//!
//! Invariants: the list decides, never one item: at least
//! [`MIN_RELEASES`] items versioned and dated, and they are two thirds or
//! more of the list; an item with a version or a date is always kept.

use super::Item;

/// Fewer versioned and dated items than this make no release list.
pub const MIN_RELEASES: usize = 3;

/// Drops the items that are no release from a release list (see the
/// module header).
pub fn without_unreleased(items: &mut Vec<Item>) {
    let is_release = |i: &Item| i.date.is_some() && has_version(&i.title);
    let releases = items.iter().filter(|i| is_release(i)).count();
    if releases < MIN_RELEASES || releases * 3 < items.len() * 2 {
        return;
    }
    items.retain(|i| i.date.is_some() || has_version(&i.title));
}

/// True when `title` holds a version: a word of two to four dot-separated
/// numbers, the last maybe tagged as a pre-release, after an optional `v`
/// and inside optional brackets ("2.4.1", "[2.3.1]", "v3.14.0", "Version
/// 4.12", "3.2.0rc2"); a date written with dots ("05.03.2024",
/// "2024.03.05") is none.
pub fn has_version(title: &str) -> bool {
    title.split_whitespace().any(|word| {
        let word = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let word = word.strip_prefix(['v', 'V']).unwrap_or(word);
        // A semantic version's pre-release or build tag ("5.0.0-next.3",
        // "1.2.0+build.7") follows its numbers.
        let word = match word.split_once(['-', '+']) {
            Some((core, tag)) if is_version_tag(tag) => core,
            _ => word,
        };
        if !word.contains('.') {
            return false;
        }
        let parts: Vec<&str> = word.split('.').collect();
        let number = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        // The last number may carry a pre-release tag ("0rc2", "0b1").
        let tagged = |p: &str| {
            p.bytes().next().is_some_and(|b| b.is_ascii_digit())
                && p.bytes().all(|b| b.is_ascii_alphanumeric())
        };
        let numbers = match parts.split_last() {
            Some((last, rest)) => rest.iter().all(|p| number(p)) && tagged(last),
            None => false,
        };
        let dated = parts.len() == 3 && parts.iter().any(|p| p.len() == 4 && number(p));
        (2..=4).contains(&parts.len()) && numbers && !dated
    })
}

/// True when `tag` is a semantic version's pre-release or build tag:
/// dot-separated words of letters, digits and hyphens ("next.3",
/// "beta.2", "rc-1"), the first holding a letter or a digit.
fn is_version_tag(tag: &str) -> bool {
    !tag.is_empty()
        && tag
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(title: &str, day: Option<&str>) -> Item {
        Item {
            date: day
                .and_then(|d| chrono::DateTime::parse_from_rfc3339(&format!("{d}T12:00:00Z")).ok()),
            ..Item::bare(title)
        }
    }

    fn titles(items: &[Item]) -> Vec<&str> {
        items.iter().map(|i| i.title.as_str()).collect()
    }

    #[test]
    fn versions_are_told_from_dates_and_words() {
        for t in [
            "2.4.1",
            "[2.3.1] - 2024-11-18",
            "v3.14.0",
            "Version 4.12",
            "1.0.0.1",
        ] {
            assert!(has_version(t), "{t}");
        }
        for t in [
            "Unreleased",
            "Older releases",
            "05.03.2024",
            "Meeting of 2024.03.05",
            "3 items",
        ] {
            assert!(!has_version(t), "{t}");
        }
    }

    /// Regression (two changelogs): "Unreleased" on top, its link the
    /// compare view to HEAD and no date, and an "Older releases" heading
    /// at the end were items among the releases.
    #[test]
    fn a_changelog_keeps_its_releases_only() {
        let mut items = vec![
            item("Unreleased", None),
            item("2.4.1", Some("2025-02-03")),
            item("2.4.0", Some("2025-01-14")),
            item("[2.3.1] - 2024-11-18", Some("2024-11-18")),
            item("2.3.0 (yanked)", None),
            item("2.2.0", Some("2024-09-02")),
            item("2.1.0", Some("2024-07-22")),
            item("2.0.0", Some("2024-05-06")),
            item("Older releases", None),
        ];
        without_unreleased(&mut items);
        assert_eq!(
            titles(&items),
            [
                "2.4.1",
                "2.4.0",
                "[2.3.1] - 2024-11-18",
                "2.3.0 (yanked)",
                "2.2.0",
                "2.1.0",
                "2.0.0"
            ]
        );
    }

    /// Regression (a package's versions): "5.0.0-next.3" and
    /// "5.0.0-beta.2", undated in its tags table, were no versions and
    /// were dropped from the release list.
    #[test]
    fn a_pre_release_or_build_tag_is_part_of_a_version() {
        for v in [
            "5.0.0-next.3",
            "5.0.0-beta.2",
            "v1.2.0-rc-1",
            "1.2.0+build.7",
        ] {
            assert!(has_version(v), "{v}");
        }
        for not in ["2026-11-24", "ISO-9001", "a-b.c"] {
            assert!(!has_version(not), "{not}");
        }
    }

    /// A list that is not mostly releases keeps everything, and so does
    /// one with too few.
    #[test]
    fn other_lists_keep_their_undated_items() {
        let news = vec![
            item("Version 2.0 of the city plan is out", Some("2025-02-03")),
            item("Harbour closed for repairs", Some("2025-02-02")),
            item("Ferry timetable", None),
        ];
        let mut kept = news.clone();
        without_unreleased(&mut kept);
        assert_eq!(titles(&kept), titles(&news));
        let mut two = vec![
            item("2.4.1", Some("2025-02-03")),
            item("2.4.0", Some("2025-01-14")),
            item("Unreleased", None),
        ];
        without_unreleased(&mut two);
        assert_eq!(two.len(), 3);
    }
}
