//! Measure the paper 002/003/004 extractors (and any other method) on an
//! articles set, with their parameters:
//! `cargo run --release --example eval_extractors -- DIR METHOD [--cevc-output valid|valid-paragraphs|all]
//!  [--alpha A] [--thresholds FILE] [--no-fallback] [--first] [--frequency F] [--max-variance V] [--beta B] [--min-text-size N] [--save OUT] [--per-page]`
//! `cargo run --release --example eval_extractors -- train DIR OUT.toml [--raw]`
use std::path::Path;

use feedmine::bodies::{BodyParams, Method, tagpath};
use feedmine::eval::articles::{RunOptions, run_with};

fn value<'a>(args: &'a [String], flag: &str) -> Option<&'a String> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("train") {
        let (Some(dir), Some(out)) = (args.get(1), args.get(2)) else {
            eprintln!("usage: train DIR OUT.toml");
            std::process::exit(2);
        };
        let scale = if args.iter().any(|a| a == "--raw") {
            tagpath::KmeansScale::Raw
        } else {
            tagpath::KmeansScale::Log
        };
        match tagpath::train_tagpath_with(Path::new(dir), &tagpath::TagpathParams::default(), scale)
        {
            Ok(t) => {
                println!("{t:?}");
                if let Err(e) = tagpath::save_thresholds(&t, Path::new(out)) {
                    eprintln!("error: {e}");
                    std::process::exit(1);
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    let (Some(dir), Some(method)) = (args.first(), args.get(1)) else {
        eprintln!("usage: DIR METHOD [options]");
        std::process::exit(2);
    };
    let method: Method = match method.parse() {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut params = BodyParams::default();
    if let Some(o) = value(&args, "--cevc-output") {
        params.cevc.output = o.parse().unwrap_or_else(|e: String| {
            eprintln!("error: {e}");
            std::process::exit(2)
        });
    }
    if let Some(a) = value(&args, "--alpha").and_then(|a| a.parse().ok()) {
        params.cevc.alpha = a;
    }
    if let Some(f) = value(&args, "--thresholds") {
        params.tagpath.thresholds = tagpath::load_thresholds(Path::new(f)).unwrap_or_else(|e| {
            eprintln!("error: {e}");
            std::process::exit(1)
        });
    }
    if args.iter().any(|a| a == "--no-fallback") {
        params.tagpath.fallback = false;
    }
    if args.iter().any(|a| a == "--first") {
        params.tagpath.selection = tagpath::Selection::First;
    }
    if let Some(f) = value(&args, "--frequency").and_then(|a| a.parse().ok()) {
        params.tagpath.thresholds.frequency = f;
    }
    if let Some(v) = value(&args, "--max-variance").and_then(|a| a.parse().ok()) {
        params.tagpath.max_variance = v;
    }
    if let Some(b) = value(&args, "--beta").and_then(|a| a.parse().ok()) {
        params.similarity.beta = b;
    }
    if let Some(n) = value(&args, "--min-text-size").and_then(|a| a.parse().ok()) {
        params.similarity.min_text_size = n;
    }
    let opts = RunOptions {
        save: value(&args, "--save").map(Path::new),
        per_page: args.iter().any(|a| a == "--per-page"),
    };
    if let Err(e) = run_with(
        Path::new(dir),
        method,
        &params,
        &opts,
        &mut std::io::stdout(),
    ) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
