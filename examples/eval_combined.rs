//! Measure combinations of the default extractor with the paper 002/003/004
//! extractors (which parts of those could help the default):
//! `cargo run --release --example eval_combined -- DIR`
//! Strategies: `reverse` alone; `reverse|cevc-if-empty`; `reverse|cevc-if-short`
//! (CEVC's text when reverse's has fewer than 1/SHORT_FACTOR of its words, default 2);
//! the same with tagpath.
use std::io::Read;
use std::path::Path;

use feedmine::bodies::{BodyParams, Method, extract};
use feedmine::eval::articles::{decode_page, lcs_scores, shingle_scores, word_f1};

#[derive(Default)]
struct Acc {
    p_sum: f64,
    p_n: usize,
    r_sum: f64,
    r_n: usize,
    word: f64,
    lcs: f64,
    empty: usize,
    n: usize,
}

impl Acc {
    fn add(&mut self, pred: &str, truth: &str) {
        let (p, r) = shingle_scores(pred, truth);
        if pred.trim().is_empty() {
            self.empty += 1;
        } else {
            self.p_sum += p;
            self.p_n += 1;
        }
        if !truth.trim().is_empty() {
            self.r_sum += r;
            self.r_n += 1;
        }
        self.word += word_f1(pred, truth);
        self.lcs += lcs_scores(pred, truth).2;
        self.n += 1;
    }
    fn line(&self, name: &str) -> String {
        let p = self.p_sum / self.p_n.max(1) as f64;
        let r = self.r_sum / self.r_n.max(1) as f64;
        let f = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        let n = self.n.max(1) as f64;
        format!(
            "{name:<28} shingle F1 {f:.4}  word F1 {:.4}  LCS F1 {:.4}  empty {}",
            self.word / n,
            self.lcs / n,
            self.empty
        )
    }
}

fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

/// Reverse's text without its short paragraphs (≤ 3 words) that hold no
/// stop word of the text's language (CEVC's validity test as a post-filter).
fn stopword_filter(text: &str) -> String {
    let paras: Vec<&str> = text.split("\n\n").collect();
    let sw = feedmine::bodies::stopwords::detect(None, &paras);
    paras
        .iter()
        .filter(|p| words(p) > 3 || sw.has_stop_word(p))
        .copied()
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: eval_combined DIR [SHORT_FACTOR]");
        std::process::exit(2);
    };
    let mut entries: Vec<_> = match std::fs::read_dir(&dir) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            eprintln!("error: reading {dir}: {e}");
            std::process::exit(1);
        }
    };
    entries.retain(|p| p.to_string_lossy().ends_with(".html.gz"));
    entries.sort();
    // "Short": reverse's text has fewer than 1/SHORT_FACTOR of the other's words.
    let factor: usize = std::env::args()
        .nth(2)
        .and_then(|f| f.parse().ok())
        .unwrap_or(2);
    let params = BodyParams {
        want_html: false,
        ..BodyParams::default()
    };
    let names = [
        "reverse",
        "reverse|cevc-if-empty",
        "reverse|cevc-if-short",
        "reverse|tagpath-if-empty",
        "reverse|tagpath-if-short",
        "reverse-stopword-filter",
    ];
    let mut accs: Vec<Acc> = names.iter().map(|_| Acc::default()).collect();
    // Milliseconds of `dom::parse` alone and of each arena extractor after it.
    let mut parse_ms: Vec<f64> = Vec::new();
    let mut algo_ms: [Vec<f64>; 3] = Default::default();
    for path in entries {
        let json_path =
            Path::new(&path.to_string_lossy().replace(".html.gz", ".json")).to_path_buf();
        let Ok(json) = std::fs::read_to_string(&json_path) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&json) else {
            continue;
        };
        let truth = v["text"].as_str().unwrap_or("").to_string();
        let mut bytes = Vec::new();
        let Ok(f) = std::fs::File::open(&path) else {
            continue;
        };
        if flate2::read::GzDecoder::new(f)
            .read_to_end(&mut bytes)
            .is_err()
        {
            continue;
        }
        let html = decode_page(&bytes);
        let run = |m: Method| {
            extract(&html, None, m, &params)
                .map(|e| e.text)
                .unwrap_or_default()
        };
        let t0 = std::time::Instant::now();
        let doc = feedmine::extract::dom::parse(&html);
        parse_ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        let t = std::time::Instant::now();
        let _ = feedmine::bodies::cevc::extract(&doc, &params.cevc);
        algo_ms[0].push(t.elapsed().as_secs_f64() * 1000.0);
        let t = std::time::Instant::now();
        let _ = feedmine::bodies::tagpath::extract(&doc, &params.tagpath);
        algo_ms[1].push(t.elapsed().as_secs_f64() * 1000.0);
        let t = std::time::Instant::now();
        let _ = feedmine::bodies::similarity_blocks::extract(&doc, &params.similarity);
        algo_ms[2].push(t.elapsed().as_secs_f64() * 1000.0);
        let rev = run(Method::Reverse);
        let cevc = run(Method::Cevc);
        let tp = run(Method::Tagpath);
        let pick = |other: &str, short: bool| -> String {
            let use_other = rev.trim().is_empty() || (short && words(&rev) * factor < words(other));
            if use_other {
                other.to_string()
            } else {
                rev.clone()
            }
        };
        let preds = [
            rev.clone(),
            pick(&cevc, false),
            pick(&cevc, true),
            pick(&tp, false),
            pick(&tp, true),
            stopword_filter(&rev),
        ];
        for (acc, pred) in accs.iter_mut().zip(&preds) {
            acc.add(pred, &truth);
        }
    }
    println!("{dir}: {} pages", accs[0].n);
    for (acc, name) in accs.iter().zip(names) {
        println!("{}", acc.line(name));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    println!(
        "median ms/page: dom::parse {:.3}; after parsing: cevc {:.3}, tagpath {:.3}, similarity {:.3}",
        median(&mut parse_ms),
        median(&mut algo_ms[0]),
        median(&mut algo_ms[1]),
        median(&mut algo_ms[2])
    );
}
