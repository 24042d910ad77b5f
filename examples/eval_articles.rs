//! Measure the body extractors on an article set of the evaluation data set
//! (`<data>/articles/<set>`, given as DIR):
//! `cargo run --release --example eval_articles -- DIR [reverse|reverse-paper] [--per-page] [--save OUT]`
use std::path::Path;

use feedmine::bodies::{BodyParams, Method};
use feedmine::eval::articles::{RunOptions, run_with};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().cloned() else {
        eprintln!("usage: eval_articles DIR [reverse|reverse-paper] [--per-page] [--save OUT]");
        eprintln!(
            "DIR: an article set of the evaluation data set, e.g. <data>/articles/scrapinghub"
        );
        std::process::exit(2);
    };
    let method: Method = args
        .get(1)
        .filter(|a| !a.starts_with("--"))
        .and_then(|m| m.parse().ok())
        .unwrap_or(Method::Reverse);
    let per_page = args.iter().any(|a| a == "--per-page");
    let save = args
        .iter()
        .position(|a| a == "--save")
        .and_then(|i| args.get(i + 1));
    let mut params = BodyParams::default();
    // FM_PARAMS="dominant_share=0.6,sibling_min_share=0.2,similarity_threshold=0.8"
    for kv in std::env::var("FM_PARAMS").unwrap_or_default().split(',') {
        let Some((k, v)) = kv.split_once('=') else {
            continue;
        };
        let Ok(x) = v.parse::<f64>() else { continue };
        match k {
            "dominant_share" => params.dominant_share = x,
            "sibling_min_share" => params.sibling_min_share = x,
            "similarity_threshold" => params.similarity_threshold = x,
            "max_link_density" => params.max_link_density = x,
            "min_block_len" => params.min_block_len = x as usize,
            "absorb_share" => params.absorb_share = x,
            "paragraph_min_len" => params.paragraph_min_len = x as u32,
            "max_wrappers" => params.max_wrappers = x as usize,
            "max_lookahead" => params.max_lookahead = x as usize,
            "want_html" => params.want_html = x != 0.0,
            _ => eprintln!("unknown param {k}"),
        }
    }
    let opts = RunOptions {
        save: save.map(Path::new),
        per_page,
    };
    let mut out = std::io::stdout();
    if let Err(e) = run_with(Path::new(&dir), method, &params, &opts, &mut out) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
