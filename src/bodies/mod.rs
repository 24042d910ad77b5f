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

pub mod arena_text;
pub mod cevc;
pub mod clean;
pub mod meta;
pub mod output;
pub mod reverse;
pub mod similarity;
pub mod similarity_blocks;
pub mod stopwords;
pub mod tagpath;
pub mod tokenize;
pub mod tree;

use std::str::FromStr;

/// Which extractor to run. New variants get one arm in `extract`'s `match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// Paper 000 plus the boilerplate removal measurement showed it needs (default).
    #[default]
    Reverse,
    /// Paper 000 as written: two longest text tokens, LCA, climb by Sim, all text.
    ReversePaper,
    /// Paper 004: valid characters (`cevc`).
    Cevc,
    /// Paper 003: tag-path clustering (`tagpath`).
    Tagpath,
    /// Paper 002: content similarity to title and headings (`similarity`).
    Similarity,
}

impl FromStr for Method {
    type Err = ExtractError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "reverse" => Ok(Method::Reverse),
            "reverse-paper" => Ok(Method::ReversePaper),
            "cevc" => Ok(Method::Cevc),
            "tagpath" => Ok(Method::Tagpath),
            "similarity" => Ok(Method::Similarity),
            other => Err(ExtractError::UnknownMethod(other.to_string())),
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Method::Reverse => "reverse",
            Method::ReversePaper => "reverse-paper",
            Method::Cevc => "cevc",
            Method::Tagpath => "tagpath",
            Method::Similarity => "similarity",
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
    /// Both methods (the paper has no such rule; without it a page with no
    /// article yields its longest scrap): a page whose longest text block (non-blank bytes,
    /// joined across inline tags) is shorter than this has no main text. Default 25.
    pub min_block_len: usize,
    /// `reverse` only: link density (link text / all text) above which a
    /// block inside the main subtree is boilerplate (paper 004's valid-character
    /// idea: text inside `<a>` is not content). Default 0.65.
    pub max_link_density: f64,
    /// `reverse` only: descend from the LCA to the child on the seed's
    /// ancestor chain while it holds at least this share of the LCA's valid
    /// characters (non-link text outside boilerplate). Default 0.75.
    pub dominant_share: f64,
    /// `reverse` only: a sibling similar by Sim makes R climb only if it holds
    /// at least this share of R's valid characters (teaser lists are similar
    /// in shape but thin in text). Default 0.2.
    pub sibling_min_share: f64,
    /// `reverse` only: R also climbs to its parent when the prose beside R
    /// (text tokens of at least `paragraph_min_len` bytes, outside links and
    /// boilerplate, holding a sentence end) adds at least this share of R's
    /// own paragraph text. Default 0.2.
    pub absorb_share: f64,
    /// `reverse` only: shortest text token that counts as a paragraph for
    /// `absorb_share`. Default 60.
    pub paragraph_min_len: u32,
    /// `reverse` only: how many single-content wrapper levels the climb looks
    /// through for paragraphs beside R before giving up. Default 20.
    pub max_wrappers: usize,
    /// `reverse` only: how many levels that add some prose, but too little,
    /// the climb looks through before giving up. Default 1.
    pub max_lookahead: usize,
    /// Produce `Extraction::html` (sanitizing costs time; off for pure text use). Default true.
    pub want_html: bool,
    /// Print the located subtree and cleaning decisions to stderr (diagnostics).
    pub debug: bool,
    /// `cevc` only (paper 004).
    pub cevc: cevc::CevcParams,
    /// `tagpath` only (paper 003); trained thresholds replace the defaults.
    pub tagpath: tagpath::TagpathParams,
    /// `similarity` only (paper 002).
    pub similarity: similarity_blocks::SimilarityParams,
}

impl Default for BodyParams {
    fn default() -> Self {
        BodyParams {
            similarity_threshold: 0.8,
            sim_budget: 200_000,
            min_block_len: 25,
            max_link_density: 0.65,
            dominant_share: 0.75,
            sibling_min_share: 0.2,
            absorb_share: 0.2,
            paragraph_min_len: 60,
            max_wrappers: 20,
            max_lookahead: 1,
            want_html: true,
            debug: false,
            cevc: cevc::CevcParams::default(),
            tagpath: tagpath::TagpathParams::default(),
            similarity: similarity_blocks::SimilarityParams::default(),
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
    /// The article's tags (`article:tag`, `keywords`, JSON-LD `keywords`),
    /// in page order, without duplicates.
    pub tags: Vec<String>,
    /// Tree nodes the extractor built.
    pub nodes_built: usize,
    /// Nodes of the page's whole DOM (elements + non-blank texts).
    pub nodes_total: usize,
    /// Why the text is empty, when it is.
    pub empty_reason: Option<String>,
    /// The page had more elements than the parse budget and only its
    /// first part was read (see `extract::dom::budget`).
    pub cut_at_budget: bool,
}

/// Errors of `extract` and of parsing a method name.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error(
        "unknown extraction method {0:?} (expected reverse, reverse-paper, cevc, tagpath or similarity)"
    )]
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
    // The same parse budget as list pages: 650,000 one-word paragraphs
    // took 110 MB before it.
    let bounded = crate::extract::dom::budget::bound(html);
    let html: &str = &bounded.html;
    let toks = tokenize::tokenize(html);
    let mut ex = Extraction {
        nodes_total: toks.node_count,
        cut_at_budget: bounded.truncated,
        ..Extraction::default()
    };
    meta::fill(html, &toks, base_url, &mut ex);
    let noise = clean::Noise::new(&toks);
    let paper = match method {
        Method::Reverse => false,
        Method::ReversePaper => true,
        Method::Cevc | Method::Tagpath | Method::Similarity => {
            arena_methods(html, method, params, &mut ex);
            return Ok(ex);
        }
    };
    let located = match reverse::locate(&noise, html, &toks, params, paper) {
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
        clean::boilerplate(&noise, html, &toks, &located.tree, located.root, params)
    };
    if params.debug {
        debug_dump(html, &toks, &located, &skip);
    }
    let cleaned = |id: tree::NodeId| skip.get(id as usize).copied().unwrap_or(false);
    let repeated = if paper {
        Vec::new()
    } else {
        output::repeated_blocks(html, &toks, &located.tree, located.root, &cleaned)
    };
    let skip_fn =
        |id: tree::NodeId| cleaned(id) || repeated.get(id as usize).copied().unwrap_or(false);
    ex.text = output::text(html, &toks, &located.tree, located.root, &skip_fn);
    let mut skip_fn: &dyn Fn(tree::NodeId) -> bool = &skip_fn;
    if ex.text.is_empty() && !paper {
        // Cleaning removed everything: the subtree itself is what we have.
        skip_fn = &|_| false;
        ex.text = output::text(html, &toks, &located.tree, located.root, skip_fn);
    }
    if !paper {
        ex.text = output::dedup_paragraphs(&ex.text);
    }
    if ex.text.is_empty() {
        ex.empty_reason = Some("the main-text subtree holds no text after cleaning".into());
        return Ok(ex);
    }
    if params.want_html {
        ex.html = output::html(html, &toks, &located.tree, located.root, skip_fn, base_url);
    }
    Ok(ex)
}

/// The extractors over the `dom` arena (papers 004, 003, 002).
fn arena_methods(html: &str, method: Method, params: &BodyParams, ex: &mut Extraction) {
    let doc = crate::extract::dom::parse(html);
    let (text, reason) = match method {
        Method::Tagpath => tagpath::extract(&doc, &params.tagpath),
        Method::Similarity => similarity_blocks::extract(&doc, &params.similarity),
        _ => {
            let r = cevc::extract(&doc, &params.cevc);
            let reason = (r.block.is_none()).then(|| "the page has no valid characters".into());
            (r.text, reason)
        }
    };
    // Every element and non-blank text of the arena (as `nodes_total` counts).
    ex.nodes_built = doc
        .nodes
        .iter()
        .filter(|n| {
            !matches!(
                n.data,
                crate::extract::dom::NodeData::Text { blank: true, .. }
            )
        })
        .count();
    arena_text::finish(ex, text, reason, params.want_html);
}

/// Outline of the located subtree with the cleaning flags (for `debug`).
fn debug_dump(src: &str, toks: &tokenize::Tokens, loc: &reverse::Located, skip: &[bool]) {
    let mut stack = vec![(loc.root, 0usize)];
    let mut lines = 0;
    while let Some((id, depth)) = stack.pop() {
        let node = loc.tree.node(id);
        let flag = if skip.get(id as usize).copied().unwrap_or(false) {
            "SKIP "
        } else {
            ""
        };
        let desc = if node.tag == tokenize::TEXT {
            let t = output::token_text(src, toks, node.start_tok);
            format!("#{:.60}", t.trim())
        } else {
            let tok = toks.tokens.get(node.start_tok as usize);
            let cls = tok
                .and_then(|t| tokenize::attr(src, t, "class"))
                .unwrap_or_default();
            let idv = tok
                .and_then(|t| tokenize::attr(src, t, "id"))
                .unwrap_or_default();
            format!("<{} class={cls:.50} id={idv:.30}>", toks.name(node.tag))
        };
        eprintln!("{}{flag}{desc}", "  ".repeat(depth));
        lines += 1;
        if lines > 400 {
            break;
        }
        if flag.is_empty() && depth < 6 {
            for &c in node.children.iter().rev() {
                stack.push((c, depth + 1));
            }
        }
    }
}
