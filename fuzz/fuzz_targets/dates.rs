//! `dates::parse_date` and `dates::find_date` on arbitrary text: never panic;
//! a found date's range lies inside the text on char boundaries and is within
//! the accepted years.
#![no_main]

use chrono::{Datelike, FixedOffset, TimeZone, Utc};
use feedmine::extract::dates::{self, DateContext};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let (Some(offset), Some(now)) = (
        FixedOffset::east_opt(8 * 3600),
        Utc.with_ymd_and_hms(2024, 5, 17, 12, 0, 0).single(),
    ) else {
        return;
    };
    let ctx = DateContext { now, offset };
    if let Some(d) = dates::parse_date(text, &ctx) {
        assert!((dates::MIN_YEAR..=dates::MAX_YEAR + 1).contains(&d.year()));
    }
    if let Some((d, range)) = dates::find_date(text, &ctx) {
        assert!(range.end <= text.len() && range.start <= range.end);
        assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
        assert!((dates::MIN_YEAR..=dates::MAX_YEAR + 1).contains(&d.year()));
    }
});
