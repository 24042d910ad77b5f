//! Where the time of list analysis goes, stage by stage, over a directory
//! of list cases: each page is analysed `--runs` times (default 15) and
//! the per-page medians are summarised as medians over the pages.
//!
//!     cargo run --release --example stage_times -- DIR [RUNS]
//!     cargo run --release --example stage_times -- --synthetic 6000 [RUNS]
//!
//! With `STAGE_TIMES_PAGES=1` in the environment, each page's medians are
//! printed too (case, parse, mine, embedded, items, total, total/parse).
//!
//! The synthetic page is a news list of N teasers (linked heading, date,
//! summary, a thumbnail on every third) with a comment thread of N/10
//! nested replies below it: the worst case for the thread and short-list
//! rules, to check that the time grows no faster than the page.
//!
//! Stages are those of `pipeline::Timings`: parse (DOM), mine (sequence,
//! suffix array, rules, record detection), embedded (script data), items.

use std::path::Path;

use chrono::{Offset, Utc};
use feedmine::eval::lists;
use feedmine::extract::dates::DateContext;
use feedmine::extract::patterns::MiningParams;
use feedmine::pipeline::Timings;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { 0.0 } else { v[v.len() / 2] }
}

/// Milliseconds of parse, mine, embedded, items and their total.
fn stage_ms(t: &Timings) -> [f64; 5] {
    [t.parse, t.mine, t.embedded, t.items, t.total()].map(|d| d.as_secs_f64() * 1e3)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: stage_times DIR [RUNS] | --synthetic N [RUNS]");
        return;
    };
    if dir == "--synthetic" {
        let n: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(6000);
        let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
        synthetic(n, runs);
        return;
    }
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(15);
    let Ok(cases) = lists::load_cases(Path::new(&dir)) else {
        eprintln!("cannot load cases from {dir}");
        return;
    };
    let ctx = DateContext {
        now: Utc::now(),
        offset: Utc.fix(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    };
    let params = MiningParams::default();
    let mut per_stage: [Vec<f64>; 5] = Default::default();
    for (case, path) in &cases {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let Ok(decoded) = feedmine::fetch::decode::decode(&bytes, None, None) else {
            continue;
        };
        let base = lists::base_url(case);
        let mut samples: [Vec<f64>; 5] = Default::default();
        for _ in 0..runs {
            let t = feedmine::pipeline::analyze_list(&decoded.text, &base, &params, &ctx).timings;
            for (i, v) in stage_ms(&t).into_iter().enumerate() {
                samples[i].push(v);
            }
        }
        let medians = samples.map(median);
        if std::env::var_os("STAGE_TIMES_PAGES").is_some() {
            let [p, m, e, i, t] = medians;
            println!(
                "{:<48} {p:7.3} {m:7.3} {e:7.3} {i:7.3} {t:7.3} {:5.2}",
                case.name,
                t / p
            );
        }
        for (i, v) in medians.into_iter().enumerate() {
            per_stage[i].push(v);
        }
    }
    let names = ["parse", "mine", "embedded", "items", "total"];
    println!(
        "{} pages, {runs} runs each; median over pages of per-page medians (ms)",
        per_stage[0].len()
    );
    for (n, v) in names.iter().zip(per_stage.iter()) {
        println!("{n:>9} {:8.3}", median(v.clone()));
    }
    let ratio: Vec<f64> = per_stage[4]
        .iter()
        .zip(&per_stage[0])
        .map(|(t, p)| t / p)
        .collect();
    println!("total/parse per page, median {:.2}", median(ratio));
}

fn synthetic_page(n: usize) -> String {
    let mut h = String::from("<html><body><nav><ul>");
    for k in 0..12 {
        h += &format!("<li><a href='/section/{k}'>Section {k}</a></li>");
    }
    h += "</ul></nav><main><div class=teasers>";
    for k in 0..n {
        let img = if k % 3 == 0 {
            format!("<img src='/t/{k}.jpg'>")
        } else {
            String::new()
        };
        h += &format!(
            "<article class=teaser>{img}<h2><a href='/story/{k}'>Story number {k} with a headline</a></h2>\
             <time datetime='2024-03-05'>5 March 2024</time><p>Summary of story {k}, a sentence or two.</p></article>"
        );
    }
    h += "</div><div class=comments>";
    let depth = n / 10;
    for k in 0..depth {
        h += &format!(
            "<div class='thing comment'><div class=entry><a href='/u/{k}'>user{k}</a>\
             <p>Reply {k} says something long enough to be prose.</p></div><div class=child>"
        );
    }
    for _ in 0..depth {
        h += "</div></div>";
    }
    h += "</div></main></body></html>";
    h
}

fn synthetic(n: usize, runs: usize) {
    let html = synthetic_page(n);
    let base = url::Url::parse("https://news.example/").expect("static URL");
    let ctx = DateContext {
        now: Utc::now(),
        offset: Utc.fix(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    };
    let params = MiningParams::default();
    let mut stages: [Vec<f64>; 5] = Default::default();
    let mut items = 0;
    for _ in 0..runs {
        let page = feedmine::pipeline::analyze_list(&html, &base, &params, &ctx);
        items = page.items.len();
        for (i, v) in stage_ms(&page.timings).into_iter().enumerate() {
            stages[i].push(v);
        }
    }
    println!(
        "synthetic: {n} teasers + {} nested replies, {} KiB: {items} items, median {:.1} ms over {runs} runs",
        n / 10,
        html.len() / 1024,
        median(stages[4].clone())
    );
    let names = ["parse", "mine", "embedded", "items"];
    for (name, v) in names.iter().zip(stages) {
        println!("{name:>9} {:8.1}", median(v));
    }
}
