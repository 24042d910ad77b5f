//! Item bodies: main-text extraction from article pages by reverse-order
//! parsing and subtree similarity (paper 000, spec ALGORITHMS.md §2).
//!
//! Pipeline of `extract`: `tokenize` (tags/text with byte spans, comments,
//! scripts and styles dropped) → `reverse::locate` (two longest text blocks,
//! tree grown outwards with `tree::Grower`, LCA, climb while a sibling is
//! similar by `similarity`) → `clean` (method `reverse` only: boilerplate
//! inside the subtree) → `output` (text and sanitized HTML) plus `meta`
//! (title, byline, date, lead image from the whole token list).
//!
//! Invariants: pure function of its inputs; never panics on any input (no
//! indexing on unchecked positions, no recursion on page structure); a page
//! where nothing qualifies yields empty text and html with `empty_reason`
//! set, never an error.

pub mod clean;
pub mod meta;
pub mod output;
pub mod reverse;
pub mod similarity;
pub mod tokenize;
pub mod tree;

use std::str::FromStr;

/// Which extractor to run. New variants get one arm in `extract`'s `match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Paper 000 plus the boilerplate removal measurement showed it needs (default).
    Reverse,
    /// Paper 000 as written: two longest text tokens, LCA, climb by Sim, all text.
    ReversePaper,
}

impl Default for Method {
    fn default() -> Self {
        Method::Reverse
    }
}

impl FromStr for Method {
    type Err = ExtractError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "reverse" => Ok(Method::Reverse),
            "reverse-paper" => Ok(Method::ReversePaper),
            other => Err(ExtractError::UnknownMethod(other.to_string())),
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Method::Reverse => "reverse",
            Method::ReversePaper => "reverse-paper",
        })
    }
}

/// Tunable parameters of the extractors.
#[derive(Clone, Debug)]
pub struct BodyParams {
    /// Sim threshold of paper 000 §3.2 / Fig. 3 (default 0.8, usual 0.7–0.9):
    /// R climbs to its parent while a sibling subtree is at least this similar.
    pub similarity_threshold: f64,
    /// Most node pairs one Sim evaluation may compare (bounds the cost on
    /// huge subtrees; beyond it the pair counts as not similar). Default 200,000.
    pub sim_budget: usize,
    /// `reverse` only: a page whose longest text block (non-blank bytes,
    /// joined across inline tags) is shorter than this has no main text. Default 25.
    pub min_block_len: usize,
    /// `reverse` only: link density (link text / all text) above which a
    /// block inside the main subtree is boilerplate (paper 004's valid-character
    /// idea: text inside `<a>` is not content). Default 0.5.
    pub max_link_density: f64,
    /// Produce `Extraction::html` (sanitizing costs time; off for pure text use). Default true.
    pub want_html: bool,
}

impl Default for BodyParams {
    fn default() -> Self {
        BodyParams {
            similarity_threshold: 0.8,
            sim_budget: 200_000,
            min_block_len: 25,
            max_link_density: 0.5,
            want_html: true,
        }
    }
}

/// The result of one extraction.
#[derive(Clone, Debug, Default)]
pub struct Extraction {
    /// Main text, paragraphs one blank line apart.
    pub text: String,
    /// Sanitized HTML of the main content, absolute URLs when a base was given.
    pub html: String,
    pub title: Option<String>,
    pub byline: Option<String>,
    pub published: Option<chrono::DateTime<chrono::FixedOffset>>,
    pub lead_image: Option<url::Url>,
    /// Tree nodes the extractor built.
    pub nodes_built: usize,
    /// Nodes of the page's whole DOM (elements + non-blank texts).
    pub nodes_total: usize,
    /// Why the text is empty, when it is.
    pub empty_reason: Option<String>,
}

/// Errors of `extract` and of parsing a method name.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error("unknown extraction method {0:?} (expected reverse or reverse-paper)")]
    UnknownMethod(String),
    #[error("invalid parameter: {0}")]
    InvalidParams(String),
}

/// Extract the main content of one decoded page.
pub fn extract(
    html: &str,
    base_url: Option<&url::Url>,
    method: Method,
    params: &BodyParams,
) -> Result<Extraction, ExtractError> {
    if !(0.0..=1.0).contains(&params.similarity_threshold) {
        return Err(ExtractError::InvalidParams(format!(
            "similarity_threshold {} is outside 0..=1",
            params.similarity_threshold
        )));
    }
    let toks = tokenize::tokenize(html);
    let mut ex = Extraction {
        nodes_total: toks.node_count,
        ..Extraction::default()
    };
    meta::fill(html, &toks, base_url, &mut ex);
    let paper = match method {
        Method::Reverse => false,
        Method::ReversePaper => true,
    };
    let located = match reverse::locate(&toks, params, paper) {
        Ok(l) => l,
        Err(reason) => {
            ex.empty_reason = Some(reason);
            return Ok(ex);
        }
    };
    ex.nodes_built = located.nodes_built;
    let skip = if paper {
        vec![false; located.tree.nodes.len()]
    } else {
        clean::boilerplate(html, &toks, &located.tree, located.root, params)
    };
    let skip_fn = |id: tree::NodeId| skip.get(id as usize).copied().unwrap_or(false);
    ex.text = output::text(html, &toks, &located.tree, located.root, &skip_fn);
    if ex.text.is_empty() {
        ex.empty_reason = Some("the main-text subtree holds no text after cleaning".into());
        return Ok(ex);
    }
    if params.want_html {
        ex.html = output::html(html, &toks, &located.tree, located.root, &skip_fn, base_url);
    }
    Ok(ex)
}
