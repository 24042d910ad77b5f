//! Measure the body extractors on `../shared/data/articles/<set>`:
//! `cargo run --release --example eval_articles -- DIR [reverse|reverse-paper] [--per-page] [--save OUT]`
use std::path::Path;

use feedmine::bodies::{BodyParams, Method};
use feedmine::eval::articles::{RunOptions, run_with};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args.first().cloned().unwrap_or_else(|| "../shared/data/articles/scrapinghub".into());
    let method: Method = args
        .get(1)
        .filter(|a| !a.starts_with("--"))
        .and_then(|m| m.parse().ok())
        .unwrap_or(Method::Reverse);
    let per_page = args.iter().any(|a| a == "--per-page");
    let save = args.iter().position(|a| a == "--save").and_then(|i| args.get(i + 1));
    let params = BodyParams::default();
    let opts = RunOptions { save: save.map(Path::new), per_page };
    let mut out = std::io::stdout();
    if let Err(e) = run_with(Path::new(&dir), method, &params, &opts, &mut out) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
