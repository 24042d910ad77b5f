//! One labelled list case, record by record: what the structural extractor
//! predicts next to what the case expects, so a loss can be read at once.
//!
//!     cargo run --release --example list_case -- DIR/<case> [DIR/<case> …]
//!
//! Each expected record is printed with its match (`=` same title, `~`
//! matched with another title, `-` missed), then the predicted records that
//! matched nothing (`+`). Dates show as `[date]`, wrong ones as `[date!]`.

use std::path::Path;

use chrono::{Offset, Utc};
use feedmine::eval::lists::{self, ExpectedCase, normalize_link, normalize_title};
use feedmine::extract::dates::{DateContext, parse_date};
use feedmine::extract::patterns::MiningParams;

fn main() {
    for arg in std::env::args().skip(1) {
        show(Path::new(&arg));
    }
}

fn show(dir: &Path) {
    let Some(parent) = dir.parent() else { return };
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Ok(cases) = lists::load_cases(parent) else {
        eprintln!("cannot load cases from {}", parent.display());
        return;
    };
    let Some((case, page)) = cases.into_iter().find(|(c, _)| c.name == name) else {
        eprintln!("no case {name}");
        return;
    };
    let Ok(bytes) = std::fs::read(&page) else {
        return;
    };
    let Ok(decoded) = feedmine::fetch::decode::decode(&bytes, None, None) else {
        return;
    };
    let base = lists::base_url(&case);
    let ctx = DateContext {
        now: Utc::now(),
        offset: Utc.fix(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    };
    let page =
        feedmine::pipeline::analyze_list(&decoded.text, &base, &MiningParams::default(), &ctx);
    println!(
        "== {name} ({} expected, {} predicted)",
        case.records.len(),
        page.items.len()
    );
    if let Some(w) = page.detection.winner() {
        println!("   winner: {} ({} records)", w.selector, w.records.len());
    }
    report(&case, &page.items, &base);
}

fn report(case: &ExpectedCase, items: &[feedmine::extract::items::Item], base: &url::Url) {
    let ctx = DateContext {
        now: chrono::DateTime::UNIX_EPOCH,
        offset: Utc.fix(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    };
    let key = |l: Option<&str>| l.map(|l| normalize_link(l, base));
    let mut used = vec![false; items.len()];
    for r in &case.records {
        let ek = key(r.link.as_deref());
        let et = r.title.as_deref().map(normalize_title);
        let hit = items.iter().enumerate().position(|(i, it)| {
            !used[i]
                && match (&ek, key(it.link.as_ref().map(url::Url::as_str))) {
                    (Some(a), Some(b)) if case.match_by == lists::MatchBy::Link => *a == b,
                    _ => et.as_deref() == Some(normalize_title(&it.title).as_str()),
                }
        });
        let exp_date = r.date.as_deref().and_then(|d| parse_date(d, &ctx));
        match hit {
            Some(i) => {
                used[i] = true;
                let it = &items[i];
                let same = et
                    .as_deref()
                    .is_none_or(|t| t == normalize_title(&it.title));
                let date = match (exp_date, it.date) {
                    (Some(e), Some(p))
                        if p.with_timezone(e.offset()).date_naive() == e.date_naive() =>
                    {
                        format!(" [{}]", p.date_naive())
                    }
                    (Some(e), p) => format!(
                        " [date! got {:?} want {}]",
                        p.map(|p| p.date_naive()),
                        e.date_naive()
                    ),
                    _ => String::new(),
                };
                if same {
                    println!(" = {}{date}", it.title);
                } else {
                    println!(
                        " ~ {:?} want {:?}{date}",
                        it.title,
                        r.title.as_deref().unwrap_or("")
                    );
                }
            }
            None => println!(
                " - {} <{}>",
                r.title.as_deref().unwrap_or(""),
                r.link.as_deref().unwrap_or("")
            ),
        }
    }
    for (i, it) in items.iter().enumerate() {
        if !used[i] {
            println!(
                " + {} <{}>",
                it.title,
                it.link.as_ref().map(url::Url::as_str).unwrap_or("")
            );
        }
    }
}
