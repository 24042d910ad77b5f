//! Tag-path clustering (paper 003, spec ALGORITHMS.md §4): main text from
//! clusters of text leaves that share a tag path, plus the training of the
//! paper's three thresholds from sample pages.
//!
//! Pipeline of [`extract`]:
//! 1. Leaves: the page's text leaves numbered in document order
//!    ([`arena_text::leaves`]). Choice: the paper's pre-processing rule (1)
//!    "remove some tags only" is read as unwrapping inline markup, so a
//!    leaf is a text run under one block element (`<p>Hi <a>x</a> there</p>`
//!    is one leaf, with 1 link char count); its tag path is its block's.
//! 2. Clustering: leaves with an identical tag path form one cluster.
//! 3. Splitting (off by default, see [`TagpathParams::max_variance`]): a
//!    cluster whose span variance exceeds the gate is cut where θ = span(j+1,j+2) /
//!    span(j,j+1) leaves [θ_min, θ_max] = [0.85, 2]: θ > 2 cuts before leaf
//!    j+2 (the gap grows), θ < 0.85 before leaf j+1 (the gap shrank).
//! 4. Selection: among the pieces with size > MAXSIZE, length >
//!    Length_Threshold, Cn > Cn_Threshold and ΔT > PreSpan the paper takes
//!    the first in document order ([`Selection::First`]); choice: the default
//!    takes the one with the most non-link text ([`Selection::Longest`]). Choice: when none qualifies, the piece with the most
//!    non-link text is taken ([`TagpathParams::fallback`]), so that a page
//!    with a short article still yields text.
//! 5. Gathering: inside the region spanned by the main piece (its leaves'
//!    lowest common ancestor), each leaf is filed under the tag path of its
//!    nearest table/div (or section/article/main) ancestor; choice: a path's
//!    frequency is the number of leaves filed under it, and leaves of paths
//!    with frequency ≥ Frequency_Threshold are output, plus the main piece's
//!    own leaves, in document order. Choice: a leaf made only of link text
//!    (Cn = 0 on its own, a HUB entry in the paper's terms) is never output:
//!    identical tag paths put a sidebar's `<p><a>…</a></p>` in the same
//!    cluster as the article's paragraphs.
//!
//! Measured (shingle F1 scrapinghub / wcxb-dev): defaults 0.891 / 0.921;
//! thresholds trained on scrapinghub 0.902 / 0.921; the paper's reading
//! (θ split with variance gate 1, first qualifying piece, no fallback)
//! 0.829 / 0.771.
//!
//! Invariants: pure functions over the arena; all walks are loops; lengths
//! count a character above code 255 as 2 (paper 003 §2.2).

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::extract::dom::{Document, NodeId};

use super::arena_text::{Leaf, NodeFacts, leaves, render_text};

/// The three thresholds paper 003 §2.5 learns from sample pages.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TagpathThresholds {
    /// Length_Threshold (§2.4.1): least weighted text length of the main
    /// block. Default 200 (≈ two sentences; the paper gives no number).
    pub length: f64,
    /// Cn_Threshold (§2.2 formula (1), §2.4.1): least list-noise coefficient
    /// (in %) of the main block. Default 100: non-link text must dominate
    /// and text nodes must outnumber links.
    pub cn: f64,
    /// Frequency_Threshold (§2.4.2): least number of leaves a table/div tag
    /// path must hold inside the main region for its text to be output.
    /// Default 2 (the paper's trained values lie in 1–10).
    pub frequency: f64,
}

impl Default for TagpathThresholds {
    fn default() -> Self {
        TagpathThresholds {
            length: 200.0,
            cn: 100.0,
            frequency: 2.0,
        }
    }
}

/// Parameters of tag-path clustering (a config table; missing fields take
/// the defaults).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TagpathParams {
    /// Lower end of the θ range (§2.3 rule (1)): cut where θ < 0.85.
    pub theta_min: f64,
    /// Upper end of the θ range (§2.3 rule (1)): cut where θ > 2.
    pub theta_max: f64,
    /// "var is within threshold" of the WebPageSeg algorithm (§2.4.1; no
    /// number in the paper): clusters whose span variance is at most this
    /// are not split by θ. Default: infinite, i.e. no split. Measured
    /// (shingle F1 scrapinghub / wcxb-dev, longest selection): 1 →
    /// 0.886 / 0.833, 25 → 0.875 / 0.901, 1000 → 0.888 / 0.917, ∞ → 0.891 /
    /// 0.921: on current article pages headings, figures and embeds between
    /// paragraphs make the spans irregular, and every θ cut breaks the
    /// article into pieces that lose to a sidebar or comment block.
    pub max_variance: f64,
    /// MAXSIZE (§2.4.1): the main block has more than this many leaves. Default 1.
    pub max_size: usize,
    /// PreSpan (§2.3 rule (2), §2.4.1): the main block's mean period ΔT must
    /// exceed it. Default 0 (no constraint: consecutive paragraphs have ΔT = 1).
    pub pre_span: f64,
    /// Learned or default thresholds.
    pub thresholds: TagpathThresholds,
    /// Take the piece with the most non-link text when none qualifies (not
    /// in the paper). Default true.
    pub fallback: bool,
    /// Which qualifying piece is the main block.
    pub selection: Selection,
}

/// Which of the pieces passing the thresholds is the main block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Selection {
    /// The first in document order (paper 003's WebPageSeg loop).
    First,
    /// The one with the most non-link text. Default: measured better on
    /// both article sets (the first qualifying piece is often a teaser or
    /// a header blurb above the article).
    #[default]
    Longest,
}

impl Default for TagpathParams {
    fn default() -> Self {
        TagpathParams {
            theta_min: 0.85,
            theta_max: 2.0,
            max_variance: f64::INFINITY,
            max_size: 1,
            pre_span: 0.0,
            thresholds: TagpathThresholds::default(),
            fallback: true,
            selection: Selection::default(),
        }
    }
}

/// Errors of training and of threshold files.
#[derive(Debug, thiserror::Error)]
pub enum TagpathError {
    #[error("reading {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no sample pages (*.html, *.htm, *.html.gz) in {0}")]
    NoSamples(PathBuf),
    #[error("too few clusters in the samples to learn thresholds ({0}; need at least 2)")]
    TooFewClusters(usize),
    #[error("thresholds file {path}: {message}")]
    Format { path: PathBuf, message: String },
}

/// One piece of a tag-path cluster after splitting, with its statistics.
#[derive(Clone, Debug)]
pub struct Piece {
    pub path: u32,
    /// Indices into the page's leaves (= leaf numbers), increasing.
    pub leaves: Vec<usize>,
    /// Weighted text length (all text).
    pub len: usize,
    /// Weighted non-link text length.
    pub text_len: usize,
    /// List-noise coefficient Cn in % (formula (1)).
    pub cn: f64,
    /// Mean period ΔT (formula (3)); 0 for a single leaf.
    pub mean_period: f64,
    /// Span variance (formula (4)); 0 for fewer than two spans.
    pub variance: f64,
}

/// Cn = N_string/(N_link+N_string) × NODE_nohref/(NODE_href+1) × 100 %.
pub fn list_noise_coefficient(n_string: usize, n_link: usize, nohref: usize, href: usize) -> f64 {
    let chars = n_string + n_link;
    if chars == 0 {
        return 0.0;
    }
    n_string as f64 / chars as f64 * nohref as f64 / (href as f64 + 1.0) * 100.0
}

/// Mean period and variance of the spans between consecutive leaf numbers.
pub fn period_stats(numbers: &[usize]) -> (f64, f64) {
    if numbers.len() < 2 {
        return (0.0, 0.0);
    }
    let spans: Vec<f64> = numbers.windows(2).map(|w| (w[1] - w[0]) as f64).collect();
    let n = spans.len() as f64;
    let mean = spans.iter().sum::<f64>() / n;
    let var = spans.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    (mean, var)
}

/// Positions (indices into `numbers`) where rule (1) cuts: a cut at `k`
/// starts a new piece at `numbers[k]`.
pub fn theta_cuts(numbers: &[usize], theta_min: f64, theta_max: f64) -> Vec<usize> {
    let mut cuts = Vec::new();
    for j in 0..numbers.len().saturating_sub(2) {
        let s1 = numbers[j + 1].saturating_sub(numbers[j]) as f64;
        let s2 = numbers[j + 2].saturating_sub(numbers[j + 1]) as f64;
        if s1 <= 0.0 {
            continue;
        }
        let theta = s2 / s1;
        let cut = if theta > theta_max {
            Some(j + 2)
        } else if theta < theta_min {
            Some(j + 1)
        } else {
            None
        };
        if let Some(k) = cut
            && cuts.last() != Some(&k)
        {
            cuts.push(k);
        }
    }
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

fn make_piece(path: u32, idx: Vec<usize>, ls: &[Leaf]) -> Piece {
    let (mut len, mut link, mut nohref, mut href) = (0, 0, 0, 0);
    for &i in &idx {
        let l = &ls[i];
        len += l.len;
        link += l.link_len;
        nohref += l.nodes_nohref;
        href += l.hrefs;
    }
    let (mean_period, variance) = period_stats(&idx);
    Piece {
        path,
        len,
        text_len: len - link,
        cn: list_noise_coefficient(len - link, link, nohref, href),
        mean_period,
        variance,
        leaves: idx,
    }
}

/// Cluster the leaves by tag path and split by θ; pieces in document order.
pub fn pieces(ls: &[Leaf], params: &TagpathParams) -> Vec<Piece> {
    let mut order: Vec<u32> = Vec::new();
    let mut clusters: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, l) in ls.iter().enumerate() {
        clusters
            .entry(l.path)
            .or_insert_with(|| {
                order.push(l.path);
                Vec::new()
            })
            .push(i);
    }
    let mut out = Vec::new();
    for path in order {
        let Some(idx) = clusters.remove(&path) else {
            continue;
        };
        let (_, var) = period_stats(&idx);
        if var <= params.max_variance {
            out.push(make_piece(path, idx, ls));
            continue;
        }
        let mut start = 0;
        for k in theta_cuts(&idx, params.theta_min, params.theta_max) {
            out.push(make_piece(path, idx[start..k].to_vec(), ls));
            start = k;
        }
        out.push(make_piece(path, idx[start..].to_vec(), ls));
    }
    out.sort_by_key(|p| p.leaves.first().copied().unwrap_or(usize::MAX));
    out
}

fn qualifies(p: &Piece, params: &TagpathParams, t: &TagpathThresholds) -> bool {
    p.leaves.len() > params.max_size
        && p.len as f64 > t.length
        && p.cn > t.cn
        && p.mean_period > params.pre_span
}

/// The main piece: the first (or longest, per [`Selection`]) qualifying
/// one, else (with `fallback`) the one with the most non-link text.
pub fn select<'a>(ps: &'a [Piece], params: &TagpathParams) -> Option<&'a Piece> {
    let mut passing = ps
        .iter()
        .filter(|p| qualifies(p, params, &params.thresholds));
    let chosen = match params.selection {
        Selection::First => passing.next(),
        Selection::Longest => passing.max_by_key(|p| p.text_len),
    };
    chosen.or_else(|| {
        if params.fallback {
            ps.iter()
                .filter(|p| p.text_len > 0)
                .max_by_key(|p| p.text_len)
        } else {
            None
        }
    })
}

/// Lowest common ancestor of a non-empty set of nodes (ids increasing).
fn lca(doc: &Document, nodes: &[NodeId]) -> NodeId {
    let (Some(&first), Some(&last)) = (nodes.first(), nodes.last()) else {
        return 0;
    };
    let mut a = first;
    while !doc.contains(a, last) {
        match doc.nodes[a as usize].parent {
            Some(p) => a = p,
            None => return 0,
        }
    }
    a
}

fn is_container(name: &str) -> bool {
    matches!(name, "div" | "table" | "section" | "article" | "main")
}

/// Main region and the leaves to output (indices into `ls`).
fn gather(
    doc: &Document,
    facts: &NodeFacts,
    ls: &[Leaf],
    main: &Piece,
    freq_threshold: f64,
) -> (NodeId, Vec<usize>) {
    let blocks: Vec<NodeId> = main.leaves.iter().map(|&i| ls[i].block).collect();
    let mut sorted = blocks.clone();
    sorted.sort_unstable();
    let region = lca(doc, &sorted);
    // Nearest container ancestor of each leaf inside the region.
    let container_of = |leaf: &Leaf| -> u32 {
        let mut n = leaf.block;
        loop {
            if n == region {
                return facts.path[n as usize];
            }
            if doc.tag(n).is_some_and(is_container) {
                return facts.path[n as usize];
            }
            match doc.nodes[n as usize].parent {
                Some(p) => n = p,
                None => return facts.path[region as usize],
            }
        }
    };
    let in_region: Vec<usize> = (0..ls.len())
        .filter(|&i| doc.contains(region, ls[i].block))
        .collect();
    let filed: Vec<u32> = in_region.iter().map(|&i| container_of(&ls[i])).collect();
    let mut freq: HashMap<u32, usize> = HashMap::new();
    for &p in &filed {
        *freq.entry(p).or_default() += 1;
    }
    let kept = in_region
        .iter()
        .zip(&filed)
        .filter(|&(i, p)| {
            ls[*i].link_len < ls[*i].len
                && (main.leaves.binary_search(i).is_ok()
                    || freq.get(p).is_some_and(|&f| f as f64 >= freq_threshold))
        })
        .map(|(&i, _)| i)
        .collect();
    (region, kept)
}

/// Frequencies of the container paths inside the main region (training).
fn region_frequencies(doc: &Document, facts: &NodeFacts, ls: &[Leaf], main: &Piece) -> Vec<usize> {
    let (_, all) = gather(doc, facts, ls, main, 0.0);
    let mut freq: HashMap<u32, usize> = HashMap::new();
    for i in all {
        *freq.entry(facts.path[ls[i].block as usize]).or_default() += 1;
    }
    freq.into_values().collect()
}

/// Run tag-path clustering on a parsed page: (text, reason when empty).
pub fn extract(doc: &Document, params: &TagpathParams) -> (String, Option<String>) {
    let facts = NodeFacts::new(doc);
    let ls = leaves(doc, &facts);
    if ls.is_empty() {
        return (String::new(), Some("the page has no text".into()));
    }
    let ps = pieces(&ls, params);
    let Some(main) = select(&ps, params) else {
        return (
            String::new(),
            Some("no tag-path cluster passes the thresholds".into()),
        );
    };
    let (region, kept) = gather(doc, &facts, &ls, main, params.thresholds.frequency);
    let mut keep = vec![false; doc.nodes.len()];
    for i in kept {
        for &t in &ls[i].texts {
            keep[t as usize] = true;
        }
    }
    let text = render_text(doc, region, |id| keep[id as usize]);
    (text, None)
}

/// Two-means on one feature: the boundary between the low and the high
/// group (midpoint between the low group's largest and the high group's
/// smallest value). None when the values do not form two groups.
///
/// In one dimension the k-means partition is a split of the sorted values,
/// so the optimum (least within-group sum of squares) is found exactly by
/// trying every split with prefix sums, instead of Lloyd's iterations,
/// which stop at a poor split when one group is far away.
pub fn kmeans_threshold(values: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.len() < 2 {
        return None;
    }
    v.sort_by(f64::total_cmp);
    if v[0] == v[v.len() - 1] {
        return None;
    }
    let n = v.len();
    let mut sum = vec![0.0; n + 1];
    let mut sq = vec![0.0; n + 1];
    for (i, x) in v.iter().enumerate() {
        sum[i + 1] = sum[i] + x;
        sq[i + 1] = sq[i] + x * x;
    }
    // Within-group sum of squares of v[a..b].
    let sse = |a: usize, b: usize| {
        let m = (b - a) as f64;
        let s = sum[b] - sum[a];
        sq[b] - sq[a] - s * s / m
    };
    let best = (1..n)
        .filter(|&k| v[k - 1] < v[k])
        .min_by(|&a, &b| (sse(0, a) + sse(a, n)).total_cmp(&(sse(0, b) + sse(b, n))))?;
    Some((v[best - 1] + v[best]) / 2.0)
}

/// Two-means boundary computed on ln(1 + x) and mapped back. Length and
/// Cn are heavy-tailed (a few huge article clusters, Cn up to 10⁴ %); on the
/// raw values the upper group is a handful of outliers and the boundary
/// lands above most real articles.
pub fn kmeans_threshold_log(values: &[f64]) -> Option<f64> {
    let logs: Vec<f64> = values.iter().map(|v| v.max(0.0).ln_1p()).collect();
    kmeans_threshold(&logs).map(f64::exp_m1)
}

/// How [`train_from_docs`] runs two-means on Length and Cn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KmeansScale {
    /// On the raw values, as the paper describes.
    Raw,
    /// On ln(1 + x) (default: see [`kmeans_threshold_log`]).
    #[default]
    Log,
}

/// Learn thresholds from parsed sample pages (paper 003 §2.5).
///
/// Choices: the Length and Cn samples are the pieces with more than
/// MAXSIZE leaves of every page (single leaves would drown the samples);
/// each threshold is the two-means boundary of its feature, on the scale
/// `scale` says. The frequency
/// samples are the container-path frequencies inside each page's main
/// region, selected with the newly learned Length and Cn; the threshold is
/// their arithmetic mean.
pub fn train_from_docs(
    docs: &[Document],
    params: &TagpathParams,
    scale: KmeansScale,
) -> Result<TagpathThresholds, TagpathError> {
    let mut lens = Vec::new();
    let mut cns = Vec::new();
    let mut per_doc = Vec::with_capacity(docs.len());
    for doc in docs {
        let facts = NodeFacts::new(doc);
        let ls = leaves(doc, &facts);
        let ps = pieces(&ls, params);
        for p in ps.iter().filter(|p| p.leaves.len() > params.max_size) {
            lens.push(p.len as f64);
            cns.push(p.cn);
        }
        per_doc.push((facts, ls, ps));
    }
    if lens.len() < 2 {
        return Err(TagpathError::TooFewClusters(lens.len()));
    }
    let defaults = TagpathThresholds::default();
    let two_means = match scale {
        KmeansScale::Raw => kmeans_threshold,
        KmeansScale::Log => kmeans_threshold_log,
    };
    let length = two_means(&lens).unwrap_or(defaults.length);
    let cn = two_means(&cns).unwrap_or(defaults.cn);
    let learned = TagpathParams {
        thresholds: TagpathThresholds {
            length,
            cn,
            frequency: defaults.frequency,
        },
        ..params.clone()
    };
    let mut freqs = Vec::new();
    for (doc, (facts, ls, ps)) in docs.iter().zip(&per_doc) {
        if let Some(main) = select(ps, &learned) {
            freqs.extend(region_frequencies(doc, facts, ls, main));
        }
    }
    let frequency = if freqs.is_empty() {
        defaults.frequency
    } else {
        freqs.iter().sum::<usize>() as f64 / freqs.len() as f64
    };
    Ok(TagpathThresholds {
        length,
        cn,
        frequency,
    })
}

/// Learn thresholds from the sample pages in `dir` (`*.html`, `*.htm`,
/// `*.html.gz`; encodings detected as for fetched pages), with the default
/// parameters and log-scale two-means.
pub fn train_tagpath(dir: &Path) -> Result<TagpathThresholds, TagpathError> {
    train_tagpath_with(dir, &TagpathParams::default(), KmeansScale::default())
}

/// [`train_tagpath`] with explicit parameters and scale.
pub fn train_tagpath_with(
    dir: &Path,
    params: &TagpathParams,
    scale: KmeansScale,
) -> Result<TagpathThresholds, TagpathError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| TagpathError::Io { path, source }
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".html") || name.ends_with(".htm") || name.ends_with(".html.gz")
        })
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(TagpathError::NoSamples(dir.to_path_buf()));
    }
    let mut docs = Vec::with_capacity(paths.len());
    for path in &paths {
        let raw = std::fs::read(path).map_err(io(path))?;
        let bytes = if path.extension().is_some_and(|e| e == "gz") {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(raw.as_slice())
                .read_to_end(&mut out)
                .map_err(io(path))?;
            out
        } else {
            raw
        };
        // Empty or binary samples teach nothing; skip them.
        if let Ok(decoded) = crate::fetch::decode::decode(&bytes, None, None) {
            docs.push(crate::extract::dom::parse(&decoded.text));
        }
    }
    train_from_docs(&docs, params, scale)
}

/// Write thresholds as TOML.
pub fn save_thresholds(t: &TagpathThresholds, path: &Path) -> Result<(), TagpathError> {
    let text = toml::to_string(t).map_err(|e| TagpathError::Format {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    std::fs::write(path, text).map_err(|source| TagpathError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Read thresholds written by [`save_thresholds`].
pub fn load_thresholds(path: &Path) -> Result<TagpathThresholds, TagpathError> {
    let text = std::fs::read_to_string(path).map_err(|source| TagpathError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    toml::from_str(&text).map_err(|e| TagpathError::Format {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    #[test]
    fn theta_rule_cuts_where_the_period_breaks() {
        // Regular period 1, then a jump of 10, then period 1 again.
        let numbers = [1, 2, 3, 4, 14, 15, 16];
        let cuts = theta_cuts(&numbers, 0.85, 2.0);
        assert_eq!(cuts, vec![4]);
        // θ = 2 exactly is inside the range: no cut.
        assert!(theta_cuts(&[1, 2, 4], 0.85, 2.0).is_empty());
        // θ = 0.8 < 0.85 cuts before the middle leaf.
        assert_eq!(theta_cuts(&[0, 10, 18], 0.85, 2.0), vec![1]);
        let (mean, var) = period_stats(&[1, 2, 3, 4]);
        assert_eq!((mean, var), (1.0, 0.0));
    }

    #[test]
    fn variance_gate_decides_whether_clusters_are_split() {
        let items: String = (0..6).map(|k| format!("<li>item {k}</li>")).collect();
        let html = format!(
            "<body><div><p>a</p><p>b</p><p>c</p></div><ul>{items}</ul>\
             <div><p>d</p><p>e</p><p>f</p></div></body>"
        );
        let doc = parse(&html);
        let facts = NodeFacts::new(&doc);
        let ls = leaves(&doc, &facts);
        let gated = TagpathParams {
            max_variance: 1.0,
            ..TagpathParams::default()
        };
        let split: Vec<Vec<usize>> = pieces(&ls, &gated)
            .into_iter()
            .filter(|p| p.leaves.len() == 3)
            .map(|p| p.leaves)
            .collect();
        assert_eq!(split, vec![vec![0, 1, 2], vec![9, 10, 11]]);
        // Default: no split, the six paragraphs stay one cluster.
        let whole = pieces(&ls, &TagpathParams::default());
        assert!(whole.iter().any(|p| p.leaves == vec![0, 1, 2, 9, 10, 11]));
    }

    #[test]
    fn cn_separates_link_lists_from_prose() {
        // 10 links of 20 chars, no plain text.
        assert_eq!(list_noise_coefficient(0, 200, 0, 10), 0.0);
        // 500 plain chars in 5 text nodes, one 20-char link.
        let prose = list_noise_coefficient(500, 20, 5, 1);
        assert!((prose - 500.0 / 520.0 * 5.0 / 2.0 * 100.0).abs() < 1e-9);
        assert!(prose > TagpathThresholds::default().cn);
    }

    #[test]
    fn kmeans_learns_a_boundary_between_two_groups() {
        let mut values = vec![10.0, 12.0, 15.0, 20.0, 8.0, 30.0, 25.0];
        values.extend([900.0, 1200.0, 1500.0]);
        let t = kmeans_threshold(&values).unwrap();
        assert!(t > 30.0 && t < 900.0, "{t}");
        assert_eq!(t, (30.0 + 900.0) / 2.0);
        assert_eq!(kmeans_threshold(&[5.0, 5.0]), None);
        assert_eq!(kmeans_threshold(&[1.0]), None);
        // On a log scale one huge value does not pull the boundary up.
        let skewed = [10.0, 20.0, 30.0, 300.0, 400.0, 500.0, 5_000.0];
        assert!(kmeans_threshold(&skewed).unwrap() > 500.0);
        let log_t = kmeans_threshold_log(&skewed).unwrap();
        assert!(log_t > 30.0 && log_t < 300.0, "{log_t}");
    }

    fn article(i: usize) -> String {
        let paras: String = (0..4 + i % 3)
            .map(|k| format!("<p>Paragraph {k} of story {i} tells the readers what happened in the town hall when the council met, and why it matters.</p>"))
            .collect();
        format!(
            "<html><body><ul class=nav><li><a href=/>Home</a></li><li><a href=/n>News</a></li><li><a href=/s>Sport</a></li></ul>\
             <div class=story><h1>Story {i}</h1>{paras}<div class=share>Share</div></div>\
             <ul class=related><li><a href=/r1>Related one</a></li><li><a href=/r2>Related two</a></li></ul></body></html>"
        )
    }

    #[test]
    fn training_on_synthetic_pages_separates_stories_from_menus() {
        let docs: Vec<Document> = (0..6).map(|i| parse(&article(i))).collect();
        let t = train_from_docs(&docs, &TagpathParams::default(), KmeansScale::Log).unwrap();
        let raw = train_from_docs(&docs, &TagpathParams::default(), KmeansScale::Raw).unwrap();
        assert!(raw.length > 30.0, "{raw:?}");
        // Menus are a few dozen chars, stories several hundred.
        assert!(t.length > 30.0 && t.length < 400.0, "{t:?}");
        assert!(t.cn > 0.0, "{t:?}");
        assert!(t.frequency >= 1.0, "{t:?}");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("tagpath.toml");
        save_thresholds(&t, &file).unwrap();
        assert_eq!(load_thresholds(&file).unwrap(), t);
        let (text, _) = extract(
            &docs[0],
            &TagpathParams {
                thresholds: t,
                ..TagpathParams::default()
            },
        );
        assert!(text.contains("Paragraph 0 of story 0"), "{text}");
        assert!(
            !text.contains("Home") && !text.contains("Related"),
            "{text}"
        );
    }

    #[test]
    fn params_read_from_a_partial_config_table() {
        let p: TagpathParams =
            toml::from_str("selection = \"first\"\n[thresholds]\nlength = 500.0\n").unwrap();
        assert_eq!(p.selection, Selection::First);
        assert_eq!(p.thresholds.length, 500.0);
        assert_eq!(p.thresholds.cn, TagpathThresholds::default().cn);
        assert!(p.max_variance.is_infinite());
        assert!(toml::from_str::<TagpathParams>("lenght = 1.0").is_err());
    }

    #[test]
    fn train_dir_without_samples_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            train_tagpath(dir.path()),
            Err(TagpathError::NoSamples(_))
        ));
    }

    #[test]
    fn extracts_the_paragraph_cluster_of_a_news_page() {
        let html = r#"<html><body>
<div class="top"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></div>
<div class="main"><div class="article">
<h1>Council approves new bridge</h1>
<p>The city council voted on Tuesday to approve the construction of a new bridge over the river, ending a long debate.</p>
<p>The bridge will connect the northern districts with the centre, according to the <a href="/r">transport report</a>.</p>
<p>Opponents said the cost of the project was too high and the money should go to buses.</p>
<p>Construction is due to start next year and the bridge should open in 2029.</p>
</div>
<div class="sidebar"><p><a href="/a1">Mayor opens library</a></p><p><a href="/a2">Ten things to do</a></p><p><a href="/a3">Police appeal</a></p></div>
</div>
<div class="comments"><h3>Comments</h3>
<div class="comment"><span><a href="/u/bob">bob</a></span><div class="body">Great news for the town</div></div>
<div class="comment"><span><a href="/u/ann">ann</a></span><div class="body">Finally, after all these years</div></div>
</div>
<div class="foot"><p>Copyright 2026 Daily Courier. All rights reserved.</p></div>
</body></html>"#;
        let doc = parse(html);
        let (text, reason) = extract(&doc, &TagpathParams::default());
        assert!(reason.is_none());
        assert!(text.contains("The city council voted on Tuesday"), "{text}");
        assert!(text.contains("according to the transport report"));
        assert!(text.contains("open in 2029"));
        for noise in ["Home", "Mayor", "Copyright", "Great news", "bob"] {
            assert!(!text.contains(noise), "{noise} in {text}");
        }
    }

    #[test]
    fn hostile_pages_do_not_panic() {
        let deep = format!("{}words{}", "<div>".repeat(2000), "</span>".repeat(100));
        let pages = [
            "",
            "plain text only",
            "<a href=x>only a link</a>",
            "<table><tr><td><p>x</td></p></table></table>",
            deep.as_str(),
        ];
        let gated = TagpathParams {
            max_variance: 0.0,
            ..TagpathParams::default()
        };
        for page in pages {
            let doc = parse(page);
            let _ = extract(&doc, &TagpathParams::default());
            let _ = extract(&doc, &gated);
        }
        assert!(matches!(
            train_from_docs(&[parse("")], &TagpathParams::default(), KmeansScale::Log),
            Err(TagpathError::TooFewClusters(0))
        ));
    }

    #[test]
    fn chinese_lengths_count_double_and_text_is_found() {
        let html = "<html><body><div><a href=/>首页</a><a href=/x>新闻</a></div><div class=c>\
            <p>市议会周二投票批准在河上修建一座新桥，结束了长达近十年的争论。</p>\
            <p>这座桥将连接北部城区和市中心，预计可以把通勤时间缩短三分之一。</p>\
            <p>反对者认为项目的成本太高，这笔钱应该用于公交和自行车道的建设。</p></div></body></html>";
        let doc = parse(html);
        let facts = NodeFacts::new(&doc);
        let ls = leaves(&doc, &facts);
        let ps = pieces(&ls, &TagpathParams::default());
        let main = select(&ps, &TagpathParams::default()).unwrap();
        assert_eq!(main.leaves.len(), 3);
        assert!(main.len > 3 * 2 * 25);
        let (text, _) = extract(&doc, &TagpathParams::default());
        assert!(text.contains("市议会") && text.contains("自行车道") && !text.contains("首页"));
    }
}
