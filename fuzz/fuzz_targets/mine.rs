//! One list page through every pure stage (dom parse → tag sequence →
//! pattern miner → records → items) via `pipeline::analyze_list`.
#![no_main]

use chrono::{FixedOffset, TimeZone, Utc};
use feedmine::extract::dates::DateContext;
use feedmine::extract::patterns::MiningParams;
use feedmine::pipeline;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|html: &str| {
    let Ok(url) = url::Url::parse("https://example.com/news/index.html") else {
        return;
    };
    let Some(offset) = FixedOffset::east_opt(3600) else {
        return;
    };
    let Some(now) = Utc.with_ymd_and_hms(2024, 5, 17, 12, 0, 0).single() else {
        return;
    };
    let dates = DateContext { now, offset };
    let page = pipeline::analyze_list(html, &url, &MiningParams::default(), &dates);
    for item in &page.items {
        assert!(!item.guid.is_empty());
    }
});
