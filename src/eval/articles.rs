//! Main-text extraction measured on article pages with true text
//! (the evaluation data set's `articles/<set>/<id>.html.gz` + `<id>.json`),
//! with the exact metrics the data set defines for articles:
//! 1. shingle F1 (P averaged over non-empty predictions, R over non-empty
//!    truths, F1 of the two means) and the number of empty predictions;
//! 2. word F1 (lowercase `\w+` bags, macro mean);
//! 3. LCS F1 over word tokens, characters for CJK (bit-parallel LCS:
//!    O(n·m/64) time, O(m/64) memory per distinct symbol);
//! 4. `with` / `without` snippet shares when the set has them.
//!
//! Invariants: only `extract` is timed (reading, gunzip and decoding are
//! not); pages are processed in file-name order so runs are comparable; a
//! missing directory is an `EvalError`, never a panic.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Instant;

use regex::Regex;

use crate::bodies::{BodyParams, Method, extract};

/// Errors of the article evaluation.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("article directory {0} does not exist (expected DIR/<id>.html.gz + <id>.json)")]
    MissingDir(PathBuf),
    #[error("no <id>.html.gz + <id>.json pairs in {0}")]
    Empty(PathBuf),
    #[error("reading {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("parsing {path}: {source}")]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("extracting {path}: {message}")]
    Extract { path: PathBuf, message: String },
    #[error("writing the report: {0}")]
    Report(std::io::Error),
}

/// Aggregate figures of one run.
#[derive(Clone, Debug, Default)]
pub struct ArticlesSummary {
    pub pages: usize,
    /// Metric 1.
    pub shingle_p: f64,
    pub shingle_r: f64,
    pub shingle_f1: f64,
    /// Pages with an empty prediction, and those among them whose truth is non-empty.
    pub empty_predictions: usize,
    pub empty_with_truth: usize,
    /// Metric 2 (macro).
    pub word_f1: f64,
    /// Metric 3 (macro).
    pub lcs_p: f64,
    pub lcs_r: f64,
    pub lcs_f1: f64,
    /// Metric 4: share of `with` snippets found, of `without` snippets found
    /// (None when the set has no snippets).
    pub with_found: Option<f64>,
    pub without_found: Option<f64>,
    /// Extraction time per page, milliseconds.
    pub median_ms: f64,
    pub p90_ms: f64,
    /// Mean over pages of nodes built / nodes of the page.
    pub node_share: f64,
}

/// Options beyond the common ones.
#[derive(Clone, Debug, Default)]
pub struct RunOptions<'a> {
    /// Write `OUT/<id>.txt` with each prediction.
    pub save: Option<&'a Path>,
    /// Print one row per page (id, shingle P/R, word F1, ms).
    pub per_page: bool,
}

/// Run `method` over every page of `dir` and print the metrics to `out`.
pub fn run(
    dir: &Path,
    method: Method,
    params: &BodyParams,
    save: Option<&Path>,
    out: &mut dyn Write,
) -> Result<ArticlesSummary, EvalError> {
    run_with(
        dir,
        method,
        params,
        &RunOptions {
            save,
            per_page: false,
        },
        out,
    )
}

/// One page of a set.
pub(crate) struct Case {
    pub(crate) id: String,
    pub(crate) html_path: PathBuf,
    pub(crate) truth: String,
    url: Option<String>,
    with: Vec<String>,
    without: Vec<String>,
}

pub(crate) fn load_cases(dir: &Path) -> Result<Vec<Case>, EvalError> {
    if !dir.is_dir() {
        return Err(EvalError::MissingDir(dir.to_path_buf()));
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EvalError::Io { path, source }
    };
    let mut ids: Vec<String> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .and_then(|n| n.strip_suffix(".html.gz"))
                .map(str::to_string)
        })
        .collect();
    ids.sort();
    let mut cases = Vec::new();
    for id in ids {
        let json_path = dir.join(format!("{id}.json"));
        if !json_path.is_file() {
            continue;
        }
        let raw = std::fs::read_to_string(&json_path).map_err(io(&json_path))?;
        let v: serde_json::Value =
            serde_json::from_str(&raw).map_err(|source| EvalError::Json {
                path: json_path.clone(),
                source,
            })?;
        let strings = |k: &str| -> Vec<String> {
            v.get(k)
                .and_then(|x| x.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        cases.push(Case {
            html_path: dir.join(format!("{id}.html.gz")),
            truth: v
                .get("text")
                .and_then(|t| t.as_str())
                .unwrap_or("")
                .to_string(),
            url: v.get("url").and_then(|t| t.as_str()).map(str::to_string),
            with: strings("with"),
            without: strings("without"),
            id,
        });
    }
    if cases.is_empty() {
        return Err(EvalError::Empty(dir.to_path_buf()));
    }
    Ok(cases)
}

/// Decode page bytes the way feeds decode them ([`crate::fetch::decode`]: BOM,
/// declared charset, detector); a page that cannot be decoded (binary,
/// empty) is read as lossy UTF-8 so it still counts as a prediction.
pub fn decode_page(bytes: &[u8]) -> String {
    match crate::fetch::decode::decode(bytes, None, None) {
        Ok(d) => d.text,
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

pub(crate) fn read_page(path: &Path) -> Result<String, EvalError> {
    let f = std::fs::File::open(path).map_err(|source| EvalError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(f)
        .read_to_end(&mut bytes)
        .map_err(|source| EvalError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(decode_page(&bytes))
}

/// `run` with all options.
pub fn run_with(
    dir: &Path,
    method: Method,
    params: &BodyParams,
    opts: &RunOptions<'_>,
    out: &mut dyn Write,
) -> Result<ArticlesSummary, EvalError> {
    let cases = load_cases(dir)?;
    if let Some(save) = opts.save {
        std::fs::create_dir_all(save).map_err(|source| EvalError::Io {
            path: save.to_path_buf(),
            source,
        })?;
    }
    let mut s = ArticlesSummary {
        pages: cases.len(),
        ..ArticlesSummary::default()
    };
    let (mut p_sum, mut p_n, mut r_sum, mut r_n) = (0.0, 0usize, 0.0, 0usize);
    let mut times = Vec::with_capacity(cases.len());
    let (mut with_hit, mut with_n, mut without_hit, mut without_n) =
        (0usize, 0usize, 0usize, 0usize);
    let mut share_sum = 0.0;
    for case in &cases {
        let html = read_page(&case.html_path)?;
        let base = case.url.as_deref().and_then(|u| url::Url::parse(u).ok());
        let t0 = Instant::now();
        let ex = extract(&html, base.as_ref(), method, params).map_err(|e| EvalError::Extract {
            path: case.html_path.clone(),
            message: e.to_string(),
        })?;
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        let pred = ex.text.as_str();
        if ex.nodes_total > 0 {
            share_sum += ex.nodes_built as f64 / ex.nodes_total as f64;
        }
        let sh = shingle_scores(pred, &case.truth);
        if !pred.trim().is_empty() {
            p_sum += sh.0;
            p_n += 1;
        } else {
            s.empty_predictions += 1;
            if !case.truth.trim().is_empty() {
                s.empty_with_truth += 1;
            }
        }
        if !case.truth.trim().is_empty() {
            r_sum += sh.1;
            r_n += 1;
        }
        let wf = word_f1(pred, &case.truth);
        s.word_f1 += wf;
        let (lp, lr, lf) = lcs_scores(pred, &case.truth);
        s.lcs_p += lp;
        s.lcs_r += lr;
        s.lcs_f1 += lf;
        let norm_pred = collapse_ws(pred);
        for w in &case.with {
            with_n += 1;
            with_hit += usize::from(norm_pred.contains(&collapse_ws(w)));
        }
        for w in &case.without {
            without_n += 1;
            without_hit += usize::from(norm_pred.contains(&collapse_ws(w)));
        }
        if opts.per_page {
            writeln!(
                out,
                "{}\tP={:.3}\tR={:.3}\twordF1={:.3}\t{:.2}ms{}",
                case.id,
                sh.0,
                sh.1,
                wf,
                times.last().copied().unwrap_or(0.0),
                ex.empty_reason
                    .as_deref()
                    .map(|r| format!("\tempty: {r}"))
                    .unwrap_or_default()
            )
            .map_err(EvalError::Report)?;
        }
        if let Some(save) = opts.save {
            let path = save.join(format!("{}.txt", case.id));
            std::fs::write(&path, pred).map_err(|source| EvalError::Io { path, source })?;
        }
    }
    let n = cases.len() as f64;
    s.shingle_p = if p_n > 0 { p_sum / p_n as f64 } else { 0.0 };
    s.shingle_r = if r_n > 0 { r_sum / r_n as f64 } else { 0.0 };
    s.shingle_f1 = f1(s.shingle_p, s.shingle_r);
    s.word_f1 /= n;
    s.lcs_p /= n;
    s.lcs_r /= n;
    s.lcs_f1 /= n;
    s.with_found = (with_n > 0).then(|| with_hit as f64 / with_n as f64);
    s.without_found = (without_n > 0).then(|| without_hit as f64 / without_n as f64);
    times.sort_by(|a, b| a.total_cmp(b));
    s.median_ms = percentile(&times, 0.5);
    s.p90_ms = percentile(&times, 0.9);
    s.node_share = share_sum / n;
    let snip = |x: Option<f64>| x.map_or("n/a".to_string(), |v| format!("{v:.3}"));
    writeln!(
        out,
        "{dir}: {pages} pages, method {method}\n\
         shingle F1 {sf:.4} (P {sp:.4}, R {sr:.4}), empty predictions {e} ({et} with non-empty truth)\n\
         word F1 {wf:.4}\n\
         LCS F1 {lf:.4} (P {lp:.4}, R {lr:.4})\n\
         snippets: with found {wi}, without found {wo}\n\
         extract ms/page: median {med:.3}, p90 {p90:.3}; node share built {ns:.3}",
        dir = dir.display(),
        pages = s.pages,
        sf = s.shingle_f1,
        sp = s.shingle_p,
        sr = s.shingle_r,
        e = s.empty_predictions,
        et = s.empty_with_truth,
        wf = s.word_f1,
        lf = s.lcs_f1,
        lp = s.lcs_p,
        lr = s.lcs_r,
        wi = snip(s.with_found),
        wo = snip(s.without_found),
        med = s.median_ms,
        p90 = s.p90_ms,
        ns = s.node_share,
    )
    .map_err(EvalError::Report)?;
    Ok(s)
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn f1(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w+").expect("literal regex"));

/// Metric 1 for one page: (P, R) over 4-token shingles (multisets).
pub fn shingle_scores(pred: &str, truth: &str) -> (f64, f64) {
    fn shingles(s: &str) -> HashMap<Vec<&str>, i64> {
        let toks: Vec<&str> = WORD.find_iter(s).map(|m| m.as_str()).collect();
        let mut m = HashMap::new();
        if toks.is_empty() {
            return m;
        }
        if toks.len() < 4 {
            *m.entry(toks).or_insert(0) += 1;
            return m;
        }
        for w in toks.windows(4) {
            *m.entry(w.to_vec()).or_insert(0) += 1;
        }
        m
    }
    let (p, t) = (shingles(pred), shingles(truth));
    let tp: i64 = p
        .iter()
        .map(|(k, &c)| c.min(t.get(k).copied().unwrap_or(0)))
        .sum();
    let fp = p.values().sum::<i64>() - tp;
    let fn_ = t.values().sum::<i64>() - tp;
    if fp == 0 && fn_ == 0 {
        return (1.0, 1.0);
    }
    let ratio = |a: i64, b: i64| {
        if a + b > 0 {
            a as f64 / (a + b) as f64
        } else {
            0.0
        }
    };
    (ratio(tp, fp), ratio(tp, fn_))
}

/// Metric 2 for one page: F1 of lowercase `\w+` bags.
pub fn word_f1(pred: &str, truth: &str) -> f64 {
    fn bag(s: &str) -> HashMap<String, i64> {
        let mut m = HashMap::new();
        for w in WORD.find_iter(s) {
            *m.entry(w.as_str().to_lowercase()).or_insert(0) += 1;
        }
        m
    }
    let (p, t) = (bag(pred), bag(truth));
    let (np, nt) = (p.values().sum::<i64>(), t.values().sum::<i64>());
    if np == 0 && nt == 0 {
        return 1.0;
    }
    if np == 0 || nt == 0 {
        return 0.0;
    }
    let common: i64 = p
        .iter()
        .map(|(k, &c)| c.min(t.get(k).copied().unwrap_or(0)))
        .sum();
    f1(common as f64 / np as f64, common as f64 / nt as f64)
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF
        | 0x20000..=0x2FFFF)
}

/// Metric 3 tokens: lowercase `\w+` words, each CJK character its own token.
pub fn lcs_tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for m in WORD.find_iter(s) {
        let mut run = String::new();
        for c in m.as_str().chars() {
            if is_cjk(c) {
                if !run.is_empty() {
                    out.push(std::mem::take(&mut run).to_lowercase());
                }
                out.push(c.to_string());
            } else {
                run.push(c);
            }
        }
        if !run.is_empty() {
            out.push(run.to_lowercase());
        }
    }
    out
}

/// Length of the longest common subsequence (bit-parallel, Hyyrö 2004).
pub fn lcs_len<T: Eq + std::hash::Hash>(a: &[T], b: &[T]) -> usize {
    if a.is_empty() || b.is_empty() {
        return 0;
    }
    let words = a.len().div_ceil(64);
    let mut masks: HashMap<&T, Vec<u64>> = HashMap::new();
    for (i, x) in a.iter().enumerate() {
        let m = masks.entry(x).or_insert_with(|| vec![0u64; words]);
        m[i / 64] |= 1u64 << (i % 64);
    }
    let mut v = vec![u64::MAX; words];
    for y in b {
        let Some(m) = masks.get(y) else { continue };
        // V' = (V + (V & M)) | (V & !M), multi-word with carry.
        let mut carry = 0u64;
        for w in 0..words {
            let vw = v[w];
            let u = vw & m[w];
            let (s1, c1) = vw.overflowing_add(u);
            let (s2, c2) = s1.overflowing_add(carry);
            carry = u64::from(c1 || c2);
            v[w] = s2 | (vw & !m[w]);
        }
    }
    let mut zeros = 0usize;
    for (w, &vw) in v.iter().enumerate() {
        let bits = if w + 1 == words && !a.len().is_multiple_of(64) {
            a.len() % 64
        } else {
            64
        };
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        zeros += (!vw & mask).count_ones() as usize;
    }
    zeros
}

/// Metric 3 for one page: (P, R, F1).
pub fn lcs_scores(pred: &str, truth: &str) -> (f64, f64, f64) {
    let (e, g) = (lcs_tokens(pred), lcs_tokens(truth));
    if e.is_empty() && g.is_empty() {
        return (1.0, 1.0, 1.0);
    }
    if e.is_empty() || g.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let l = lcs_len(&e, &g) as f64;
    let (p, r) = (l / e.len() as f64, l / g.len() as f64);
    (p, r, f1(p, r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shingles_on_tiny_texts() {
        assert_eq!(shingle_scores("a b c d e", "a b c d e"), (1.0, 1.0));
        // 2 shingles predicted, 3 true, 2 shared.
        let (p, r) = shingle_scores("a b c d e", "a b c d e f");
        assert_eq!(p, 1.0);
        assert!((r - 2.0 / 3.0).abs() < 1e-12);
        // 1–3 tokens are one shingle; case is kept.
        assert_eq!(shingle_scores("Hello world", "hello world"), (0.0, 0.0));
        assert_eq!(shingle_scores("", ""), (1.0, 1.0));
        assert_eq!(shingle_scores("", "x y"), (0.0, 0.0));
    }

    #[test]
    fn word_f1_is_case_folded_bags() {
        assert_eq!(word_f1("The cat", "the CAT"), 1.0);
        let f = word_f1("a a b", "a b c");
        // common = 2, P = 2/3, R = 2/3
        assert!((f - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn lcs_bit_parallel_matches_dp() {
        fn dp(a: &[u32], b: &[u32]) -> usize {
            let mut row = vec![0usize; b.len() + 1];
            for &x in a {
                let mut prev = 0;
                for j in 0..b.len() {
                    let tmp = row[j + 1];
                    row[j + 1] = if x == b[j] {
                        prev + 1
                    } else {
                        row[j + 1].max(row[j])
                    };
                    prev = tmp;
                }
            }
            row[b.len()]
        }
        let mut seed = 12345u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            (seed >> 33) as u32
        };
        for len in [1usize, 5, 63, 64, 65, 130, 300] {
            let a: Vec<u32> = (0..len).map(|_| rnd() % 7).collect();
            let b: Vec<u32> = (0..len + 3).map(|_| rnd() % 7).collect();
            assert_eq!(lcs_len(&a, &b), dp(&a, &b), "len {len}");
        }
    }

    #[test]
    fn lcs_tokens_split_cjk_characters() {
        assert_eq!(
            lcs_tokens("新闻ABC 正文"),
            vec!["新", "闻", "abc", "正", "文"]
        );
        let (p, r, f) = lcs_scores("新闻正文", "新闻的正文");
        assert_eq!(p, 1.0);
        assert!((r - 0.8).abs() < 1e-12 && f > 0.88);
    }

    #[test]
    fn run_scores_a_tiny_set_and_saves_predictions() {
        use std::io::Write as _;
        let dir = tempfile::tempdir().unwrap();
        let html = "<html><body><nav><a href=/>Home</a> <a href=/n>News</a></nav><article>\
            <p>The council approved the new library budget on Monday after a long debate.</p>\
            <p>Construction starts in spring and the building opens to readers next year.</p>\
            </article><footer>Copyright 2025</footer></body></html>";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(html.as_bytes()).unwrap();
        std::fs::write(dir.path().join("a1.html.gz"), gz.finish().unwrap()).unwrap();
        let truth = "The council approved the new library budget on Monday after a long debate.\n\n\
                     Construction starts in spring and the building opens to readers next year.";
        let json = serde_json::json!({"url": "https://city.example/a1", "text": truth,
            "with": ["library budget"], "without": ["Copyright 2025"]});
        std::fs::write(dir.path().join("a1.json"), json.to_string()).unwrap();
        let save = dir.path().join("out");
        let mut out = Vec::new();
        let s = run(
            dir.path(),
            Method::Reverse,
            &BodyParams::default(),
            Some(&save),
            &mut out,
        )
        .unwrap();
        assert_eq!(s.pages, 1);
        assert_eq!(s.empty_predictions, 0);
        assert!((s.shingle_f1 - 1.0).abs() < 1e-12, "{s:?}");
        assert!((s.word_f1 - 1.0).abs() < 1e-12);
        assert_eq!(s.with_found, Some(1.0));
        assert_eq!(s.without_found, Some(0.0));
        let saved = std::fs::read_to_string(save.join("a1.txt")).unwrap();
        assert_eq!(saved, truth);
        let report = String::from_utf8(out).unwrap();
        assert!(report.contains("shingle F1 1.0000"), "{report}");
    }

    #[test]
    fn missing_dir_is_a_clear_error() {
        let mut out = Vec::new();
        let e = run(
            Path::new("/nonexistent/feedmine-articles"),
            Method::Reverse,
            &BodyParams::default(),
            None,
            &mut out,
        );
        assert!(matches!(e, Err(EvalError::MissingDir(_))));
    }
}
