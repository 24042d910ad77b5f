//! List-page evaluation: loads the labelled cases of the evaluation data
//! set's `lists/` directory (given as an argument), scores predicted records
//! against the true ones with exactly the metric the data set defines for
//! lists, and prints a per-case table
//! and a gold / all summary.
//!
//! Metric decisions the README leaves open, fixed here:
//! - Matching is greedy in page order: each expected record, in order, takes
//!   the first not-yet-used predicted record that matches it. Each expected
//!   and each predicted record is used at most once, so a duplicated
//!   prediction counts against precision. (Greedy can miss the maximum
//!   matching only when one predicted record matches two expected ones, which
//!   needs two expected records with the same link or title.)
//! - `match_by = link` compares links when both sides have one, and titles
//!   (same normalisation as `match_by = title`) when either side has none. A
//!   side without a title cannot be matched by title.
//! - Link key: resolved against [`base_url`], then lowercase host + path with
//!   trailing `/`, `index.html` and `.html` removed repeatedly (so `/a/`,
//!   `/a`, `/a.html` and `/a/index.html` are equal), plus the query with its
//!   `&`-separated parameters sorted; scheme, port and fragment are ignored.
//!   A link that cannot be resolved is compared as its trimmed text.
//! - Base URL: a case whose `url` is a note instead of a URL takes the one
//!   origin of its expected links (see [`base_url`]).
//! - Title key: whitespace-collapsed and lower-cased (Unicode lower case
//!   stands in for case folding).
//! - P = 0 when nothing is predicted, R = 0 when nothing is expected,
//!   F1 = 0 when P + R = 0.
//! - Expected dates are read with [`crate::extract::dates::parse_date`] (offset UTC, a
//!   fixed `now`, so only absolute dates count); an expected date that does
//!   not parse is left out of the date accuracy rather than counted wrong.
//!   An expected date with a time of day (and so an offset) is compared as
//!   the calendar day in its offset; one without (a bare "2026-11-28", "24
//!   Mar 2026") is the site's local day, compared with the predicted date's
//!   day in the predicted date's own offset: a comment posted at 23:18 at
//!   -05:00 is of that day, not of the next day in UTC.
//! - A case whose extractor returned `Err` scores as an empty prediction
//!   (F1 0) and is counted as a failure; it has no timings, so it is left out
//!   of the timing statistics.
//! - Medians average the two middle values; p90 is the nearest-rank value.
//! - A page with no expected records and no predicted ones scores P = R =
//!   F1 = 1 (a correct "no list here"); either side alone empty scores 0.
//! - Cases may carry a `"shape"` tag (the kind of list page: multi-sibling
//!   records, threaded comments, …); the report then adds one summary row
//!   per shape. The shared cases carry none.
//! - Two layouts are read: `<case>/expected.json` + `<case>/page.html` (the
//!   shared data) and `NAME.expected.json` + `NAME.html` side by side (the
//!   repository's own fixtures), whose missing `source`, `quality`,
//!   `complete` and `match_by` default to `fixture`, `gold`, true, `link`.
//!
//! Tests never need the data set: they build small cases in a temporary
//! directory; a missing data directory is an [`EvalError`] naming it.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use chrono::{DateTime, FixedOffset, Offset, Utc};
use serde::Deserialize;
use url::Url;

use crate::extract::dates::{DateContext, parse_date};

/// Base for cases whose page URL is unknown or relative: a reserved domain,
/// so resolved links can never collide with a real site.
pub const PLACEHOLDER_BASE: &str = "https://page.invalid/";

/// How expected records are matched with predicted ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchBy {
    Link,
    Title,
}

/// One labelled list page (`<case>/expected.json`).
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedCase {
    /// The case directory's name.
    pub name: String,
    /// Where the labels come from (`feedpairs`, `html2rss`, `aile`, `feedless`).
    pub source: String,
    /// The page's own URL as given (may be relative, a note, or absent).
    pub url: Option<String>,
    /// `gold` (true values) or `silver` (another tool's output).
    pub quality: String,
    /// The records are the whole list on the page.
    pub complete: bool,
    pub match_by: MatchBy,
    /// The kind of list page (`"threaded_comments"`, …), if tagged.
    pub shape: Option<String>,
    /// True records in page order.
    pub records: Vec<ExpectedRecord>,
}

/// One true record.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ExpectedRecord {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub link: Option<String>,
    /// RFC 3339 or a written date such as "24 Mar 2026".
    #[serde(default)]
    pub date: Option<String>,
}

/// One record as an extractor found it.
#[derive(Debug, Clone, PartialEq)]
pub struct PredictedRecord {
    pub title: String,
    /// As found on the page (relative or absolute).
    pub link: Option<String>,
    pub date: Option<DateTime<FixedOffset>>,
}

/// An extractor's output on one page, with its own timings.
#[derive(Debug, Clone, PartialEq)]
pub struct ListRun {
    pub records: Vec<PredictedRecord>,
    /// Milliseconds spent parsing the page (tokenising / DOM building).
    pub parse_ms: f64,
    /// Milliseconds for the whole extraction, parsing included.
    pub total_ms: f64,
    /// Of `total_ms`, milliseconds spent reading data embedded in scripts
    /// (0 for extractors without that stage).
    pub embedded_ms: f64,
}

/// Scores of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseScore {
    pub name: String,
    pub quality: String,
    /// The case's `shape` tag, if any.
    pub shape: Option<String>,
    pub predicted: usize,
    pub expected: usize,
    pub matched: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// Matched records whose predicted title equals the expected one.
    pub titles_ok: usize,
    /// Matched records that have an expected title.
    pub titles_total: usize,
    /// Matched records whose predicted date is the expected calendar day.
    pub dates_ok: usize,
    /// Matched records that have a (parseable) expected date.
    pub dates_total: usize,
    pub parse_ms: f64,
    pub total_ms: f64,
    pub embedded_ms: f64,
    /// The extractor's error when it failed on this page.
    pub error: Option<String>,
}

/// Aggregates over one group of cases (gold only, or all).
#[derive(Debug, Clone, PartialEq)]
pub struct GroupSummary {
    pub cases: usize,
    /// Cases where the extractor returned `Err` (scored as F1 0).
    pub failures: usize,
    /// Macro means over cases.
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// Share of cases with F1 = 1.
    pub perfect_share: f64,
    /// Mean of |predicted − expected| / expected (cases with expected > 0).
    pub count_error: f64,
    /// Pooled over matched records with an expected title; `None` if none.
    pub title_accuracy: Option<f64>,
    /// Pooled over matched records with an expected date; `None` if none.
    pub date_accuracy: Option<f64>,
    /// Timing statistics over cases without failure; `None` if there are none.
    pub median_total_ms: Option<f64>,
    pub p90_total_ms: Option<f64>,
    pub median_parse_ms: Option<f64>,
    pub p90_parse_ms: Option<f64>,
    /// Median of the pages' embedded-data reading time.
    pub median_embedded_ms: Option<f64>,
    /// median total / median parse; `None` when either is missing or parse is 0.
    pub total_parse_ratio: Option<f64>,
}

/// Result of [`run`]: both groups and every case's score.
#[derive(Debug, Clone, PartialEq)]
pub struct ListsSummary {
    pub gold: GroupSummary,
    pub all: GroupSummary,
    /// One summary per `shape` tag, by tag name (empty when no case is
    /// tagged).
    pub shapes: Vec<(String, GroupSummary)>,
    pub cases: Vec<CaseScore>,
}

/// Why the evaluation could not run.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    #[error("list evaluation data directory {dir} cannot be read: {source}")]
    MissingDir { dir: PathBuf, source: io::Error },
    #[error("no list cases (subdirectories with expected.json) in {dir}")]
    NoCases { dir: PathBuf },
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    #[error("invalid expected.json {path}: {source}")]
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("case page {dir} is missing (expected.json has no page beside it)")]
    MissingPage { dir: PathBuf },
    #[error("cannot write the evaluation report: {0}")]
    Report(#[source] io::Error),
}

/// The on-disk form of `expected.json` (extra keys such as `repo` or `note`
/// are ignored).
#[derive(Deserialize)]
struct ExpectedFile {
    #[serde(default = "fixture_source")]
    source: String,
    #[serde(default)]
    url: Option<String>,
    #[serde(default = "gold")]
    quality: String,
    #[serde(default = "yes")]
    complete: bool,
    #[serde(default = "by_link")]
    match_by: MatchBy,
    #[serde(default)]
    shape: Option<String>,
    records: Vec<ExpectedRecord>,
}

fn fixture_source() -> String {
    "fixture".to_owned()
}

fn gold() -> String {
    "gold".to_owned()
}

fn yes() -> bool {
    true
}

fn by_link() -> MatchBy {
    MatchBy::Link
}

/// Suffix of a fixture's expectations in the side-by-side layout.
const FIXTURE_SUFFIX: &str = ".expected.json";

/// Every case below `dir` (subdirectories holding `expected.json`), sorted by
/// name, with the path of its `page.html`.
pub fn load_cases(dir: &Path) -> Result<Vec<(ExpectedCase, PathBuf)>, EvalError> {
    let entries = fs::read_dir(dir).map_err(|source| EvalError::MissingDir {
        dir: dir.to_owned(),
        source,
    })?;
    // (name, expected.json, page.html) of every case found.
    let mut found: Vec<(String, PathBuf, PathBuf)> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| EvalError::MissingDir {
            dir: dir.to_owned(),
            source,
        })?;
        let path = entry.path();
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() && path.join("expected.json").is_file() {
            found.push((
                file_name,
                path.join("expected.json"),
                path.join("page.html"),
            ));
        } else if let Some(stem) = file_name.strip_suffix(FIXTURE_SUFFIX)
            && path.is_file()
        {
            found.push((
                stem.to_owned(),
                path.clone(),
                dir.join(format!("{stem}.html")),
            ));
        }
    }
    found.sort();
    if found.is_empty() {
        return Err(EvalError::NoCases {
            dir: dir.to_owned(),
        });
    }
    found
        .into_iter()
        .map(|(name, json_path, page)| {
            let text = fs::read_to_string(&json_path).map_err(|source| EvalError::Read {
                path: json_path.clone(),
                source,
            })?;
            let file: ExpectedFile =
                serde_json::from_str(&text).map_err(|source| EvalError::Json {
                    path: json_path.clone(),
                    source,
                })?;
            if !page.is_file() {
                return Err(EvalError::MissingPage { dir: page });
            }
            let case = ExpectedCase {
                name,
                source: file.source,
                url: file.url,
                quality: file.quality,
                complete: file.complete,
                match_by: file.match_by,
                shape: file.shape,
                records: file.records,
            };
            Ok((case, page))
        })
        .collect()
}

/// The URL links of the case resolve against: its `url` resolved against
/// [`PLACEHOLDER_BASE`] when relative, that base when absent.
///
/// A `url` holding whitespace is a note ("(removed from test in 2024)"), not
/// a URL. Then the page's origin is taken from the expected links when they
/// are all absolute on one origin (in real runs the page's URL is always
/// known; without this, relative links on such a page could never match the
/// absolute expected ones), and the placeholder base otherwise.
pub fn base_url(case: &ExpectedCase) -> Url {
    let placeholder = placeholder_base();
    match case.url.as_deref().map(str::trim) {
        None | Some("") => placeholder,
        Some(note) if note.contains(char::is_whitespace) => {
            expected_origin(case).unwrap_or(placeholder)
        }
        Some(url) => placeholder.join(url).unwrap_or(placeholder),
    }
}

/// `scheme://host/` shared by every expected link, if they all have one.
fn expected_origin(case: &ExpectedCase) -> Option<Url> {
    let mut origin: Option<Url> = None;
    for link in case.records.iter().filter_map(|r| r.link.as_deref()) {
        let url = Url::parse(link.trim()).ok()?;
        let root = url.join("/").ok()?;
        match &origin {
            Some(seen) if *seen != root => return None,
            Some(_) => {}
            None => origin = Some(root),
        }
    }
    origin
}

fn placeholder_base() -> Url {
    // A constant, not outside input: it always parses.
    Url::parse(PLACEHOLDER_BASE).expect("PLACEHOLDER_BASE is a valid URL")
}

/// The comparison key of a link (see the module docs).
pub fn normalize_link(link: &str, base: &Url) -> String {
    let link = link.trim();
    let Ok(url) = base.join(link) else {
        return link.to_owned();
    };
    let host = url.host_str().unwrap_or_default().to_lowercase();
    let mut path = url.path();
    loop {
        let shorter = path
            .strip_suffix("index.html")
            .or_else(|| path.strip_suffix(".html"))
            .or_else(|| path.strip_suffix('/'));
        match shorter {
            Some(p) => path = p,
            None => break,
        }
    }
    let mut key = format!("{host}{path}");
    if let Some(query) = url.query() {
        let mut params: Vec<&str> = query.split('&').filter(|p| !p.is_empty()).collect();
        if !params.is_empty() {
            params.sort_unstable();
            key.push('?');
            key.push_str(&params.join("&"));
        }
    }
    key
}

/// The comparison key of a title: whitespace-collapsed, lower-cased.
pub fn normalize_title(title: &str) -> String {
    title
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Scores `predicted` (page order) against the case's records. Timings are 0
/// and `error` is `None`; [`run`] fills them.
pub fn score_case(case: &ExpectedCase, predicted: &[PredictedRecord]) -> CaseScore {
    let base = base_url(case);
    let title_key = |t: &str| Some(normalize_title(t)).filter(|k| !k.is_empty());
    let expected_links: Vec<Option<String>> = case
        .records
        .iter()
        .map(|r| r.link.as_deref().map(|l| normalize_link(l, &base)))
        .collect();
    let expected_titles: Vec<Option<String>> = case
        .records
        .iter()
        .map(|r| r.title.as_deref().and_then(title_key))
        .collect();
    let predicted_links: Vec<Option<String>> = predicted
        .iter()
        .map(|r| r.link.as_deref().map(|l| normalize_link(l, &base)))
        .collect();
    let predicted_titles: Vec<Option<String>> =
        predicted.iter().map(|r| title_key(&r.title)).collect();

    let same_title = |e: usize, p: usize| matches!((&expected_titles[e], &predicted_titles[p]), (Some(a), Some(b)) if a == b);
    let is_match = |e: usize, p: usize| match case.match_by {
        MatchBy::Title => same_title(e, p),
        MatchBy::Link => match (&expected_links[e], &predicted_links[p]) {
            (Some(a), Some(b)) => a == b,
            _ => same_title(e, p),
        },
    };

    let mut used = vec![false; predicted.len()];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for e in 0..case.records.len() {
        if let Some(p) = (0..predicted.len()).find(|&p| !used[p] && is_match(e, p)) {
            used[p] = true;
            pairs.push((e, p));
        }
    }

    let date_ctx = DateContext {
        now: DateTime::UNIX_EPOCH,
        offset: Utc.fix(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    };
    let (mut titles_ok, mut titles_total, mut dates_ok, mut dates_total) = (0, 0, 0, 0);
    for &(e, p) in &pairs {
        if let Some(expected_title) = &expected_titles[e] {
            titles_total += 1;
            if predicted_titles[p].as_ref() == Some(expected_title) {
                titles_ok += 1;
            }
        }
        let expected_date = case.records[e]
            .date
            .as_deref()
            .and_then(|d| Some((parse_date(d, &date_ctx)?, d.contains(':'))));
        if let Some((expected_date, timed)) = expected_date {
            dates_total += 1;
            if predicted[p]
                .date
                .is_some_and(|d| same_day(d, expected_date, timed))
            {
                dates_ok += 1;
            }
        }
    }

    let (n_pred, n_exp, matched) = (predicted.len(), case.records.len(), pairs.len());
    // Nothing expected and nothing found: the right verdict on a page
    // without a list.
    let both_empty = n_pred == 0 && n_exp == 0;
    let precision = if both_empty {
        1.0
    } else {
        ratio(matched, n_pred)
    };
    let recall = if both_empty {
        1.0
    } else {
        ratio(matched, n_exp)
    };
    let f1 = if precision + recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    CaseScore {
        name: case.name.clone(),
        quality: case.quality.clone(),
        shape: case.shape.clone(),
        predicted: n_pred,
        expected: n_exp,
        matched,
        precision,
        recall,
        f1,
        titles_ok,
        titles_total,
        dates_ok,
        dates_total,
        parse_ms: 0.0,
        total_ms: 0.0,
        embedded_ms: 0.0,
        error: None,
    }
}

/// Same calendar day: in the expected date's offset when it has a time of
/// day (`timed`), else in the predicted date's own (the site's local day).
fn same_day(
    predicted: DateTime<FixedOffset>,
    expected: DateTime<FixedOffset>,
    timed: bool,
) -> bool {
    let day = if timed {
        predicted.with_timezone(expected.offset()).date_naive()
    } else {
        predicted.date_naive()
    };
    day == expected.date_naive()
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// A list extractor under evaluation: page bytes (as saved) and the base URL
/// of the case → records, or a message saying why it failed.
pub type ListExtractor<'a> = dyn FnMut(&[u8], &Url) -> Result<ListRun, String> + 'a;

/// Runs `extract(page_bytes, &base_url)` over every case, prints per-case rows
/// and the summary to `out`.
pub fn run(
    dir: &Path,
    out: &mut dyn io::Write,
    extract: &mut ListExtractor<'_>,
) -> Result<ListsSummary, EvalError> {
    let cases = load_cases(dir)?;
    out.write_all(case_header().as_bytes())
        .map_err(EvalError::Report)?;
    let mut scores = Vec::with_capacity(cases.len());
    for (case, page_path) in &cases {
        let page = fs::read(page_path).map_err(|source| EvalError::Read {
            path: page_path.clone(),
            source,
        })?;
        let score = match extract(&page, &base_url(case)) {
            Ok(found) => CaseScore {
                parse_ms: found.parse_ms,
                total_ms: found.total_ms,
                embedded_ms: found.embedded_ms,
                ..score_case(case, &found.records)
            },
            Err(message) => CaseScore {
                error: Some(message),
                ..score_case(case, &[])
            },
        };
        out.write_all(case_row(&score).as_bytes())
            .map_err(EvalError::Report)?;
        scores.push(score);
    }
    let summary = summarize(scores);
    out.write_all(summary_table(&summary).as_bytes())
        .map_err(EvalError::Report)?;
    Ok(summary)
}

/// Gold and all-case aggregates of case scores.
pub fn summarize(cases: Vec<CaseScore>) -> ListsSummary {
    let gold: Vec<&CaseScore> = cases.iter().filter(|c| c.quality == "gold").collect();
    let all: Vec<&CaseScore> = cases.iter().collect();
    let mut tags: Vec<&str> = cases.iter().filter_map(|c| c.shape.as_deref()).collect();
    tags.sort_unstable();
    tags.dedup();
    let shapes = tags
        .iter()
        .map(|tag| {
            let of_shape: Vec<&CaseScore> = cases
                .iter()
                .filter(|c| c.shape.as_deref() == Some(*tag))
                .collect();
            ((*tag).to_owned(), group_summary(&of_shape))
        })
        .collect();
    ListsSummary {
        gold: group_summary(&gold),
        all: group_summary(&all),
        shapes,
        cases,
    }
}

fn group_summary(cases: &[&CaseScore]) -> GroupSummary {
    let n = cases.len();
    let mean = |f: &dyn Fn(&CaseScore) -> f64| {
        if n == 0 {
            0.0
        } else {
            cases.iter().map(|c| f(c)).sum::<f64>() / n as f64
        }
    };
    let counted: Vec<f64> = cases
        .iter()
        .filter(|c| c.expected > 0)
        .map(|c| c.predicted.abs_diff(c.expected) as f64 / c.expected as f64)
        .collect();
    let count_error = if counted.is_empty() {
        0.0
    } else {
        counted.iter().sum::<f64>() / counted.len() as f64
    };
    let pooled = |ok: usize, total: usize| (total > 0).then(|| ok as f64 / total as f64);
    let timed: Vec<&&CaseScore> = cases.iter().filter(|c| c.error.is_none()).collect();
    let mut total_ms: Vec<f64> = timed.iter().map(|c| c.total_ms).collect();
    let mut parse_ms: Vec<f64> = timed.iter().map(|c| c.parse_ms).collect();
    total_ms.sort_by(f64::total_cmp);
    parse_ms.sort_by(f64::total_cmp);
    let median_total_ms = median(&total_ms);
    let median_parse_ms = median(&parse_ms);
    let mut embedded_ms: Vec<f64> = timed.iter().map(|c| c.embedded_ms).collect();
    embedded_ms.sort_by(f64::total_cmp);
    GroupSummary {
        cases: n,
        failures: cases.iter().filter(|c| c.error.is_some()).count(),
        precision: mean(&|c| c.precision),
        recall: mean(&|c| c.recall),
        f1: mean(&|c| c.f1),
        perfect_share: mean(&|c| if c.f1 >= 1.0 - 1e-12 { 1.0 } else { 0.0 }),
        count_error,
        title_accuracy: pooled(
            cases.iter().map(|c| c.titles_ok).sum(),
            cases.iter().map(|c| c.titles_total).sum(),
        ),
        date_accuracy: pooled(
            cases.iter().map(|c| c.dates_ok).sum(),
            cases.iter().map(|c| c.dates_total).sum(),
        ),
        median_total_ms,
        p90_total_ms: nearest_rank(&total_ms, 0.9),
        median_parse_ms,
        p90_parse_ms: nearest_rank(&parse_ms, 0.9),
        median_embedded_ms: median(&embedded_ms),
        total_parse_ratio: match (median_total_ms, median_parse_ms) {
            (Some(t), Some(p)) if p > 0.0 => Some(t / p),
            _ => None,
        },
    }
}

/// Median of sorted values (mean of the two middle ones for an even count).
fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// Nearest-rank percentile of sorted values.
fn nearest_rank(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

const NAME_WIDTH: usize = 48;

fn case_header() -> String {
    format!(
        "{:<NAME_WIDTH$} {:<6} {:>5} {:>5} {:>5} {:>6} {:>6} {:>6} {:>6} {:>6} {:>9} {:>9}\n",
        "case",
        "qual",
        "pred",
        "exp",
        "match",
        "P",
        "R",
        "F1",
        "title",
        "date",
        "total_ms",
        "parse_ms"
    )
}

fn case_row(s: &CaseScore) -> String {
    let name: String = s.name.chars().take(NAME_WIDTH).collect();
    let accuracy = |ok: usize, total: usize| {
        if total == 0 {
            "-".to_owned()
        } else {
            format!("{:.3}", ok as f64 / total as f64)
        }
    };
    let mut row = format!(
        "{:<NAME_WIDTH$} {:<6} {:>5} {:>5} {:>5} {:>6.3} {:>6.3} {:>6.3} {:>6} {:>6} {:>9.2} {:>9.2}",
        name,
        s.quality,
        s.predicted,
        s.expected,
        s.matched,
        s.precision,
        s.recall,
        s.f1,
        accuracy(s.titles_ok, s.titles_total),
        accuracy(s.dates_ok, s.dates_total),
        s.total_ms,
        s.parse_ms,
    );
    if let Some(error) = &s.error {
        let _ = write!(row, "  FAILED: {}", error.replace('\n', " "));
    }
    row.push('\n');
    row
}

fn summary_table(summary: &ListsSummary) -> String {
    let (g, a) = (&summary.gold, &summary.all);
    let mut table = String::from("\nsummary                 gold       all\n");
    let mut line = |label: &str, gold: String, all: String| {
        let _ = writeln!(table, "{label:<18} {gold:>9} {all:>9}");
    };
    let num = |v: f64| format!("{v:.3}");
    let opt = |v: Option<f64>, digits: usize| {
        v.map_or_else(|| "-".to_owned(), |v| format!("{v:.digits$}"))
    };
    line("cases", g.cases.to_string(), a.cases.to_string());
    line("failures", g.failures.to_string(), a.failures.to_string());
    line("macro P", num(g.precision), num(a.precision));
    line("macro R", num(g.recall), num(a.recall));
    line("macro F1", num(g.f1), num(a.f1));
    line("share F1=1", num(g.perfect_share), num(a.perfect_share));
    line("count error", num(g.count_error), num(a.count_error));
    line(
        "title accuracy",
        opt(g.title_accuracy, 3),
        opt(a.title_accuracy, 3),
    );
    line(
        "date accuracy",
        opt(g.date_accuracy, 3),
        opt(a.date_accuracy, 3),
    );
    line(
        "median total ms",
        opt(g.median_total_ms, 2),
        opt(a.median_total_ms, 2),
    );
    line(
        "p90 total ms",
        opt(g.p90_total_ms, 2),
        opt(a.p90_total_ms, 2),
    );
    line(
        "median parse ms",
        opt(g.median_parse_ms, 2),
        opt(a.median_parse_ms, 2),
    );
    line(
        "p90 parse ms",
        opt(g.p90_parse_ms, 2),
        opt(a.p90_parse_ms, 2),
    );
    line(
        "median embedded ms",
        opt(g.median_embedded_ms, 2),
        opt(a.median_embedded_ms, 2),
    );
    line(
        "total/parse",
        opt(g.total_parse_ratio, 2),
        opt(a.total_parse_ratio, 2),
    );
    table.push_str(&shape_table(&summary.shapes));
    table
}

/// One row per `shape` tag (nothing when no case is tagged).
fn shape_table(shapes: &[(String, GroupSummary)]) -> String {
    if shapes.is_empty() {
        return String::new();
    }
    let mut table = format!(
        "\n{:<24} {:>5} {:>6} {:>6} {:>6} {:>7} {:>6} {:>6} {:>6}\n",
        "shape", "cases", "P", "R", "F1", "F1=1", "count", "title", "date"
    );
    let opt = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.3}"));
    for (tag, s) in shapes {
        let _ = writeln!(
            table,
            "{:<24} {:>5} {:>6.3} {:>6.3} {:>6.3} {:>7.3} {:>6.3} {:>6} {:>6}",
            tag,
            s.cases,
            s.precision,
            s.recall,
            s.f1,
            s.perfect_share,
            s.count_error,
            opt(s.title_accuracy),
            opt(s.date_accuracy)
        );
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn case(match_by: MatchBy, url: Option<&str>, records: &[(&str, &str, &str)]) -> ExpectedCase {
        let opt = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        ExpectedCase {
            name: "unit-case".to_owned(),
            source: "feedpairs".to_owned(),
            url: url.map(str::to_owned),
            quality: "gold".to_owned(),
            complete: true,
            match_by,
            shape: None,
            records: records
                .iter()
                .map(|(t, l, d)| ExpectedRecord {
                    title: opt(t),
                    link: opt(l),
                    date: opt(d),
                })
                .collect(),
        }
    }

    fn pred(title: &str, link: Option<&str>) -> PredictedRecord {
        PredictedRecord {
            title: title.to_owned(),
            link: link.map(str::to_owned),
            date: None,
        }
    }

    fn dated(title: &str, link: &str, rfc3339: &str) -> PredictedRecord {
        PredictedRecord {
            date: Some(DateTime::parse_from_rfc3339(rfc3339).unwrap()),
            ..pred(title, Some(link))
        }
    }

    #[test]
    fn link_normalisation_variants_are_equal() {
        let base = Url::parse("https://Example.com/blog/").unwrap();
        let key = normalize_link("https://example.com/blog/post-1/", &base);
        assert_eq!(key, "example.com/blog/post-1");
        for variant in [
            "http://EXAMPLE.com/blog/post-1",
            "/blog/post-1/index.html",
            "post-1.html",
            "post-1/",
            "./post-1/#comments",
            "https://example.com:443/blog/post-1/",
        ] {
            assert_eq!(normalize_link(variant, &base), key, "{variant}");
        }
        assert_eq!(
            normalize_link("/search?b=2&a=1#x", &base),
            normalize_link("https://example.com/search/?a=1&b=2", &base)
        );
        assert_ne!(
            normalize_link("/search?a=1", &base),
            normalize_link("/search?a=2", &base)
        );
        assert_ne!(
            normalize_link("/blog/Post-1", &base),
            key,
            "path case is significant"
        );
        assert_eq!(
            normalize_link("/", &base),
            normalize_link("/index.html", &base)
        );
    }

    #[test]
    fn base_url_rules() {
        let mut c = case(MatchBy::Link, None, &[]);
        assert_eq!(base_url(&c).as_str(), "https://page.invalid/");
        c.url = Some("/posts/".to_owned());
        assert_eq!(base_url(&c).as_str(), "https://page.invalid/posts/");
        c.url = Some("https://arxiv.org/list/math.GN/recent".to_owned());
        assert_eq!(
            base_url(&c).as_str(),
            "https://arxiv.org/list/math.GN/recent"
        );
        c.url = Some("(removed from test in 2024)".to_owned());
        assert_eq!(base_url(&c).as_str(), "https://page.invalid/");
        // A note as url: the one origin of the expected links, if any.
        let mut noted = case(
            MatchBy::Link,
            Some("(removed from test in 2024)"),
            &[
                ("", "https://site.example/a/", ""),
                ("", "https://site.example/b", ""),
            ],
        );
        assert_eq!(base_url(&noted).as_str(), "https://site.example/");
        let s = score_case(&noted, &[pred("A", Some("/a/")), pred("B", Some("b"))]);
        assert_eq!(s.matched, 2);
        noted.records[1].link = Some("https://other.example/b".to_owned());
        assert_eq!(base_url(&noted).as_str(), "https://page.invalid/");
    }

    #[test]
    fn relative_expected_links_match_absolute_predictions_on_the_placeholder() {
        let c = case(
            MatchBy::Link,
            Some("/posts/"),
            &[("A", "/posts/a/", ""), ("B", "/posts/b/", "")],
        );
        let predicted = [
            pred("A", Some("https://page.invalid/posts/a/")),
            pred("B", Some("b/index.html")),
        ];
        let s = score_case(&c, &predicted);
        assert_eq!((s.matched, s.f1), (2, 1.0));
    }

    #[test]
    fn duplicates_count_against_precision() {
        let c = case(
            MatchBy::Link,
            Some("https://x.org/"),
            &[("One", "/1", ""), ("Two", "/2", "")],
        );
        let predicted = [
            pred("One", Some("/1")),
            pred("One again", Some("/1/")),
            pred("Two", Some("/2")),
            pred("Nav", Some("/about")),
        ];
        let s = score_case(&c, &predicted);
        assert_eq!((s.predicted, s.expected, s.matched), (4, 2, 2));
        assert_eq!(s.precision, 0.5);
        assert_eq!(s.recall, 1.0);
        assert!((s.f1 - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!((s.titles_ok, s.titles_total), (2, 2));
    }

    #[test]
    fn each_expected_matches_one_prediction_and_vice_versa() {
        // Two expected records with the same link: one prediction serves one.
        let c = case(
            MatchBy::Link,
            Some("https://x.org/"),
            &[("A", "/same", ""), ("A copy", "/same", "")],
        );
        let s = score_case(&c, &[pred("A", Some("/same"))]);
        assert_eq!((s.matched, s.precision, s.recall), (1, 1.0, 0.5));
    }

    #[test]
    fn title_matching_casefolds_and_collapses_whitespace() {
        let c = case(
            MatchBy::Title,
            None,
            &[
                ("Java Developer  (Graduate)", "", ""),
                ("C# Developer", "", ""),
            ],
        );
        let predicted = [
            pred(
                "  java developer\n (GRADUATE) ",
                Some("https://jobs.example/1"),
            ),
            pred("C# Developer - R&D", None),
            pred("", None),
        ];
        let s = score_case(&c, &predicted);
        assert_eq!(s.matched, 1);
        assert_eq!((s.titles_ok, s.titles_total), (1, 1));
        assert!((s.precision - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(s.recall, 0.5);
    }

    #[test]
    fn records_without_links_match_by_title() {
        let c = case(
            MatchBy::Link,
            Some("https://x.org/"),
            &[("Linked post", "/p", ""), ("Unlinked note", "", "")],
        );
        let predicted = [
            pred("Linked  POST", None),
            pred("unlinked note", Some("/somewhere")),
        ];
        let s = score_case(&c, &predicted);
        assert_eq!(s.matched, 2);
        // Expected without a title cannot be matched by title.
        let only_links = case(MatchBy::Link, Some("https://x.org/"), &[("", "/p", "")]);
        let s = score_case(&only_links, &[pred("Anything", None)]);
        assert_eq!(s.matched, 0);
        // A wrong link is not rescued by a right title.
        let s = score_case(&c, &[pred("Linked post", Some("/other"))]);
        assert_eq!(s.matched, 0);
    }

    #[test]
    fn dates_compare_calendar_days_in_the_expected_offset() {
        let c = case(
            MatchBy::Link,
            Some("https://x.org/"),
            &[
                ("Late evening in Tokyo", "/a", "2019-05-19T23:57:39+09:00"),
                ("Apple table row", "/b", "24 Mar 2026"),
                ("No prediction", "/c", "2024-01-01T10:00:00Z"),
                ("No expected date", "/d", ""),
                ("Unreadable expected date", "/e", "sometime"),
            ],
        );
        let predicted = [
            // 2019-05-19T10:00Z is 19:00 on the 19th in Tokyo → same day.
            dated("a", "/a", "2019-05-19T10:00:00Z"),
            // A bare day is the site's: 00:30 on the 24th at -05:00 is of
            // the 24th (already 05:30 UTC, still the 24th either way).
            dated("b", "/b", "2026-03-24T00:30:00-05:00"),
            pred("c", Some("/c")),
            dated("d", "/d", "2020-01-01T00:00:00Z"),
            dated("e", "/e", "2020-01-01T00:00:00Z"),
        ];
        let s = score_case(&c, &predicted);
        assert_eq!(s.matched, 5);
        assert_eq!((s.dates_ok, s.dates_total), (2, 3));

        // 2019-05-19T15:00Z is already the 20th in Tokyo → wrong day.
        let wrong = [dated("a", "/a", "2019-05-19T15:00:00Z")];
        let s = score_case(&c, &wrong);
        assert_eq!((s.dates_ok, s.dates_total), (0, 1));

        // A bare expected day is the site's local day: 23:18 on the 23rd
        // at -05:00 is the 23rd (the 24th in UTC), 20:00 on the 24th is the
        // 24th (the 25th in UTC). Regression: both were read in UTC.
        let s = score_case(&c, &[dated("b", "/b", "2026-03-23T23:18:00-05:00")]);
        assert_eq!((s.dates_ok, s.dates_total), (0, 1));
        let s = score_case(&c, &[dated("b", "/b", "2026-03-24T20:00:00-05:00")]);
        assert_eq!((s.dates_ok, s.dates_total), (1, 1));

        // The date-only form our own parser produces for the Apple page.
        let noon = FixedOffset::east_opt(8 * 3600)
            .unwrap()
            .with_ymd_and_hms(2026, 3, 24, 12, 0, 0)
            .unwrap();
        let s = score_case(
            &c,
            &[PredictedRecord {
                date: Some(noon),
                ..pred("b", Some("/b"))
            }],
        );
        assert_eq!((s.dates_ok, s.dates_total), (1, 1));
    }

    #[test]
    fn nothing_predicted_scores_zero() {
        let c = case(MatchBy::Link, Some("https://x.org/"), &[("A", "/a", "")]);
        let s = score_case(&c, &[]);
        assert_eq!((s.precision, s.recall, s.f1), (0.0, 0.0, 0.0));
        assert_eq!((s.titles_total, s.dates_total), (0, 0));
    }

    #[test]
    fn nothing_expected_and_nothing_predicted_is_perfect() {
        let c = case(MatchBy::Link, Some("https://x.org/"), &[]);
        let s = score_case(&c, &[]);
        assert_eq!((s.precision, s.recall, s.f1), (1.0, 1.0, 1.0));
        let s = score_case(&c, &[pred("Menu", Some("/m"))]);
        assert_eq!(s.f1, 0.0);
    }

    #[test]
    fn fixture_layout_and_shape_tags_give_per_shape_rows() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path();
        fs::write(
            dir.join("thread.expected.json"),
            r#"{"url": "https://f.example/t/1", "shape": "threaded_comments",
                "records": [{"title": "First reply", "link": "https://f.example/t/1#c1", "date": null}]}"#,
        )
        .unwrap();
        fs::write(dir.join("thread.html"), "<p>first</p>").unwrap();
        fs::write(
            dir.join("plain.expected.json"),
            r#"{"url": "https://f.example/", "records": []}"#,
        )
        .unwrap();
        fs::write(dir.join("plain.html"), "<p>none</p>").unwrap();
        fs::write(dir.join("README.md"), "not a case").unwrap();
        let cases = load_cases(dir).unwrap();
        let names: Vec<_> = cases.iter().map(|(c, _)| c.name.as_str()).collect();
        assert_eq!(names, ["plain", "thread"]);
        let thread = &cases[1].0;
        assert_eq!(
            (
                thread.source.as_str(),
                thread.quality.as_str(),
                thread.match_by
            ),
            ("fixture", "gold", MatchBy::Link)
        );
        assert_eq!(thread.shape.as_deref(), Some("threaded_comments"));
        assert!(cases[1].1.ends_with("thread.html"));

        let mut out = Vec::new();
        let mut extract = |page: &[u8], _: &Url| -> Result<ListRun, String> {
            let records = if page.starts_with(b"<p>first") {
                vec![pred("First reply", Some("https://f.example/t/1#c1"))]
            } else {
                Vec::new()
            };
            Ok(ListRun {
                records,
                parse_ms: 1.0,
                total_ms: 2.0,
                embedded_ms: 0.0,
            })
        };
        let summary = run(dir, &mut out, &mut extract).unwrap();
        assert_eq!(summary.gold.f1, 1.0);
        assert_eq!(summary.shapes.len(), 1);
        let (tag, s) = &summary.shapes[0];
        assert_eq!((tag.as_str(), s.cases, s.f1), ("threaded_comments", 1, 1.0));
        let report = String::from_utf8(out).unwrap();
        assert!(report.contains("\nshape "), "{report}");
        assert!(report.contains("threaded_comments"), "{report}");
    }

    #[test]
    fn fixture_without_its_page_is_an_error_naming_it() {
        let root = tempfile::tempdir().unwrap();
        fs::write(
            root.path().join("lonely.expected.json"),
            r#"{"url": "https://f.example/", "records": []}"#,
        )
        .unwrap();
        let err = load_cases(root.path()).unwrap_err().to_string();
        assert!(err.contains("lonely.html"), "{err}");
    }

    fn score(quality: &str, f1: f64, pred: usize, exp: usize, total_ms: f64) -> CaseScore {
        CaseScore {
            name: format!("{quality}-{f1}"),
            quality: quality.to_owned(),
            shape: None,
            predicted: pred,
            expected: exp,
            matched: 0,
            precision: f1,
            recall: f1,
            f1,
            titles_ok: 1,
            titles_total: 2,
            dates_ok: 0,
            dates_total: 0,
            parse_ms: total_ms / 2.0,
            total_ms,
            embedded_ms: 0.0,
            error: None,
        }
    }

    #[test]
    fn summary_aggregates_gold_and_all() {
        let mut failed = score("silver", 0.0, 0, 5, 0.0);
        failed.error = Some("boom".to_owned());
        failed.titles_total = 0;
        let summary = summarize(vec![
            score("gold", 1.0, 10, 10, 4.0),
            score("gold", 0.5, 15, 10, 2.0),
            score("silver", 1.0, 4, 4, 8.0),
            failed,
        ]);
        let g = &summary.gold;
        assert_eq!((g.cases, g.failures), (2, 0));
        assert!((g.f1 - 0.75).abs() < 1e-12);
        assert_eq!(g.perfect_share, 0.5);
        assert!((g.count_error - 0.25).abs() < 1e-12);
        assert_eq!(g.title_accuracy, Some(0.5));
        assert_eq!(g.date_accuracy, None);
        assert_eq!(g.median_total_ms, Some(3.0));
        assert_eq!(g.p90_total_ms, Some(4.0));
        assert_eq!(g.median_parse_ms, Some(1.5));
        assert_eq!(g.total_parse_ratio, Some(2.0));

        let a = &summary.all;
        assert_eq!((a.cases, a.failures), (4, 1));
        assert!((a.f1 - 2.5 / 4.0).abs() < 1e-12);
        assert_eq!(a.perfect_share, 0.5);
        // (0 + 0.5 + 0 + 1) / 4
        assert!((a.count_error - 0.375).abs() < 1e-12);
        // Timings over the three cases that ran: 2, 4, 8.
        assert_eq!(a.median_total_ms, Some(4.0));
        assert_eq!(a.p90_total_ms, Some(8.0));
        assert_eq!(summary.cases.len(), 4);
    }

    #[test]
    fn percentiles() {
        let values: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(median(&values), Some(5.5));
        assert_eq!(nearest_rank(&values, 0.9), Some(9.0));
        assert_eq!(nearest_rank(&[7.0], 0.9), Some(7.0));
        assert_eq!(median(&[]), None);
    }

    fn write_case(dir: &Path, name: &str, json: &str, page: Option<&str>) {
        let case_dir = dir.join(name);
        fs::create_dir_all(&case_dir).unwrap();
        fs::write(case_dir.join("expected.json"), json).unwrap();
        if let Some(page) = page {
            fs::write(case_dir.join("page.html"), page).unwrap();
        }
    }

    const BLOG_JSON: &str = r#"{
        "source": "feedpairs", "repo": "someone/blog", "url": "/posts/",
        "quality": "gold", "complete": true, "match_by": "link",
        "records": [
            {"title": "First post", "link": "/posts/first/", "date": "2024-03-05T10:00:00+01:00"},
            {"title": "Second post", "link": "/posts/second/", "date": "2024-03-01T10:00:00+01:00"}
        ]
    }"#;
    const JOBS_JSON: &str = r#"{
        "source": "aile", "url": null, "quality": "silver", "complete": true,
        "match_by": "title", "records": [{"title": "Rust Engineer"}]
    }"#;

    #[test]
    fn run_scores_every_case_and_prints_a_report() {
        let root = tempfile::tempdir().unwrap();
        write_case(
            root.path(),
            "blog",
            BLOG_JSON,
            Some(
                r#"<ul><li><a href="first/">First post</a></li><li><a href="second/">Second post</a></li></ul>"#,
            ),
        );
        write_case(root.path(), "jobs", JOBS_JSON, Some("<p>broken</p>"));
        fs::create_dir(root.path().join("not-a-case")).unwrap();

        let mut out = Vec::new();
        let mut seen_bases = Vec::new();
        let mut extract = |page: &[u8], base: &Url| -> Result<ListRun, String> {
            seen_bases.push(base.to_string());
            let html = String::from_utf8_lossy(page);
            if html.contains("broken") {
                return Err("no records found".to_owned());
            }
            Ok(ListRun {
                records: vec![
                    dated("First post", "first/", "2024-03-05T20:00:00+08:00"),
                    dated("Second post", "second/", "2024-03-02T20:00:00+08:00"),
                ],
                parse_ms: 1.0,
                total_ms: 3.0,
                embedded_ms: 0.0,
            })
        };
        let summary = run(root.path(), &mut out, &mut extract).unwrap();
        assert_eq!(
            seen_bases,
            ["https://page.invalid/posts/", "https://page.invalid/"]
        );
        assert_eq!(summary.cases.len(), 2);
        assert_eq!(summary.gold.cases, 1);
        assert_eq!(summary.gold.f1, 1.0);
        assert_eq!(summary.gold.date_accuracy, Some(0.5));
        assert_eq!(summary.gold.median_total_ms, Some(3.0));
        assert_eq!(summary.all.failures, 1);
        assert_eq!(summary.all.f1, 0.5);

        let report = String::from_utf8(out).unwrap();
        assert!(report.contains("blog"), "{report}");
        assert!(report.contains("FAILED: no records found"), "{report}");
        assert!(report.contains("macro F1"), "{report}");
        assert!(report.contains("total/parse"), "{report}");
    }

    #[test]
    fn missing_directory_is_an_error_naming_it() {
        let root = tempfile::tempdir().unwrap();
        let missing = root.path().join("no-such-lists");
        let mut extract = |_: &[u8], _: &Url| -> Result<ListRun, String> { unreachable!() };
        let err = run(&missing, &mut Vec::new(), &mut extract).unwrap_err();
        assert!(matches!(err, EvalError::MissingDir { .. }));
        assert!(err.to_string().contains("no-such-lists"), "{err}");
    }

    #[test]
    fn load_errors_name_the_file() {
        let root = tempfile::tempdir().unwrap();
        write_case(root.path(), "nopage", JOBS_JSON, None);
        let err = load_cases(root.path()).unwrap_err();
        assert!(err.to_string().contains("nopage"), "{err}");

        let root = tempfile::tempdir().unwrap();
        write_case(root.path(), "badjson", r#"{"source": 1}"#, Some("x"));
        let err = load_cases(root.path()).unwrap_err();
        assert!(matches!(err, EvalError::Json { .. }));
        assert!(err.to_string().contains("badjson"), "{err}");

        let empty = tempfile::tempdir().unwrap();
        assert!(matches!(
            load_cases(empty.path()).unwrap_err(),
            EvalError::NoCases { .. }
        ));
    }

    #[test]
    fn loads_cases_sorted_with_fields() {
        let root = tempfile::tempdir().unwrap();
        write_case(root.path(), "b-jobs", JOBS_JSON, Some("x"));
        write_case(root.path(), "a-blog", BLOG_JSON, Some("y"));
        let cases = load_cases(root.path()).unwrap();
        let names: Vec<_> = cases.iter().map(|(c, _)| c.name.as_str()).collect();
        assert_eq!(names, ["a-blog", "b-jobs"]);
        let (blog, page) = &cases[0];
        assert_eq!(blog.match_by, MatchBy::Link);
        assert_eq!(blog.url.as_deref(), Some("/posts/"));
        assert_eq!(blog.records[1].link.as_deref(), Some("/posts/second/"));
        assert!(page.ends_with("a-blog/page.html"));
        let (jobs, _) = &cases[1];
        assert_eq!((jobs.match_by, jobs.url.as_deref()), (MatchBy::Title, None));
        assert_eq!(jobs.records[0].link, None);
    }
}
