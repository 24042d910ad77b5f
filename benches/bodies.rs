//! Speed of `bodies::extract` beside dom_smoothie on the same decoded pages
//! (an article set of the evaluation data set, named by the
//! `FEEDMINE_ARTICLES` environment variable, e.g.
//! `<data>/articles/scrapinghub`), interleaved page by page over several
//! rounds; prints both medians (ms/page) and their ratio.
//! `cargo bench --bench bodies` (exits 0 with a note when the data is absent).

use std::io::Read;
use std::path::Path;
use std::time::Instant;

use feedmine::bodies::{BodyParams, Method, extract};

const ROUNDS: usize = 5;

fn main() {
    let Some(dir) = std::env::var_os("FEEDMINE_ARTICLES") else {
        println!(
            "bodies bench: set FEEDMINE_ARTICLES to an article set of the evaluation data set \
             (e.g. <data>/articles/scrapinghub); nothing to measure"
        );
        return;
    };
    let dir = Path::new(&dir);
    let Ok(entries) = std::fs::read_dir(dir) else {
        println!(
            "bodies bench: {} is absent, nothing to measure",
            dir.display()
        );
        return;
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .collect();
    paths.sort();
    let mut pages = Vec::new();
    for p in &paths {
        let mut bytes = Vec::new();
        let Ok(f) = std::fs::File::open(p) else {
            continue;
        };
        if flate2::read::GzDecoder::new(f)
            .read_to_end(&mut bytes)
            .is_ok()
        {
            pages.push(feedmine::eval::articles::decode_page(&bytes));
        }
    }
    if pages.is_empty() {
        println!("bodies bench: no pages in {}", dir.display());
        return;
    }
    let params = BodyParams::default();
    // dom_smoothie's own formatted text is how it scores 0.951 (README).
    let cfg = dom_smoothie::Config {
        text_mode: dom_smoothie::TextMode::Formatted,
        ..dom_smoothie::Config::default()
    };
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    let mut sink = 0usize;
    for _ in 0..ROUNDS {
        for html in &pages {
            let t0 = Instant::now();
            if let Ok(ex) = extract(html, None, Method::Reverse, &params) {
                sink += ex.text.len();
            }
            ours.push(t0.elapsed().as_secs_f64() * 1000.0);
            let t0 = Instant::now();
            if let Ok(mut r) =
                dom_smoothie::Readability::new(html.as_str(), None, Some(cfg.clone()))
                && let Ok(a) = r.parse()
            {
                sink += a.text_content.len();
            }
            theirs.push(t0.elapsed().as_secs_f64() * 1000.0);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let (m_ours, m_theirs) = (median(&mut ours), median(&mut theirs));
    println!(
        "bodies bench: {} pages x {ROUNDS} rounds\n  feedmine reverse: median {m_ours:.3} ms/page\n  dom_smoothie 0.19: median {m_theirs:.3} ms/page\n  ratio feedmine/dom_smoothie: {:.3} (target <= 0.5)  [checksum {sink}]",
        pages.len(),
        m_ours / m_theirs
    );
}
