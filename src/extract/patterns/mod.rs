//! Repeated record patterns mined from the tag sequence (paper 001 §2–§3).
//!
//! [`suffix_tree`] enumerates every repeated pattern with its instances;
//! [`rules`] applies the paper's Rules 1–5 (instance count, length, key tags,
//! overlap with the NPO tie-break, coverage) and records, for each candidate
//! that reached the rules, why it was kept or dropped, so `feedmine preview`
//! can explain the result. [`crate::extract::records`] turns the survivors into
//! records, either exactly as the paper does (`mode = "paper"`) or with the
//! structural refinements that measure better (the default).

pub mod rules;
pub mod suffix_tree;

use serde::{Deserialize, Serialize};

pub use rules::{DropReason, Mining, PatternCandidate, mine};

/// How records are chosen from the mined patterns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Paper 001 as written: Rules 1–5 over exact repeats; the surviving
    /// pattern with the highest coverage gives the records.
    Paper,
    /// The paper's candidates, lifted to whole sibling subtrees, grouped by
    /// container, widened to the variants that exact repeats miss (optional
    /// thumbnails, badges, missing dates) and ranked against navigation,
    /// tag clouds and footers. Measures better (see README).
    #[default]
    Structural,
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "paper" => Ok(Mode::Paper),
            "structural" | "default" => Ok(Mode::Structural),
            other => Err(format!(
                "unknown mode {other:?} (expected \"structural\" or \"paper\")"
            )),
        }
    }
}

/// Thresholds of the record miner. Every field is a per-feed config field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MiningParams {
    pub mode: Mode,
    /// Rule 1 (instance count, paper 001 §3.1): patterns with fewer
    /// instances are dropped. Paper Table 1 uses 3 and 5; 3 is the default
    /// because blogs often list only 3–5 posts.
    pub min_instances: usize,
    /// Rule 2 (pattern length, §3.1): patterns shorter than this many tokens
    /// are dropped. Paper Table 1 uses 5 and 7; 5 is the default. Used by
    /// paper mode.
    pub min_pattern_len: usize,
    /// Rule 2 as structural mode applies it: to whole records (the lifted
    /// instances), not to exact repeats. 3 tokens is the smallest record
    /// with structure (`<li><a><text>`); archive lists are made of them.
    pub min_record_len: usize,
    /// Rule 3 (key tags, §3.1): a pattern must contain all of these tokens
    /// (`"<text>"` for text), and something besides them. Paper: `<a>`, `<text>`.
    pub key_tags: Vec<String>,
    /// Rule 5 (coverage, §3.2): share of the page's visible text bytes that a
    /// pattern's instances must hold. The paper leaves the value open; 0.05
    /// removes side navigation without losing short lists.
    pub min_coverage: f64,
    /// Engineering bound, not in the paper: repeats longer than this many
    /// tokens are multiples of a record (two or more records in a row) and
    /// are not considered, which keeps mining near-linear on huge lists.
    pub max_pattern_len: usize,
    /// Engineering bound, not in the paper: at most this many candidates
    /// (highest coverage first) enter Rule 4's pairwise overlap resolution.
    pub max_candidates: usize,
}

impl Default for MiningParams {
    fn default() -> Self {
        MiningParams {
            mode: Mode::default(),
            min_instances: 3,
            min_pattern_len: 5,
            min_record_len: 3,
            key_tags: vec!["a".to_string(), "<text>".to_string()],
            min_coverage: 0.02,
            max_pattern_len: 400,
            max_candidates: 2_000,
        }
    }
}
