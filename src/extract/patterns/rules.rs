//! Paper 001's Rules 1–5 over the suffix tree's internal nodes.
//!
//! Rule 1 (instance count), Rule 2 (length) and Rule 3 (key tags) are O(1)
//! per interval (Rule 3 through next-occurrence tables), so all n intervals
//! are screened in linear time before any instance list is materialised.
//! Rule 4 removes overlapping instances within a pattern, then between
//! patterns (fewer overlapping instances loses; ties: fewer instances, then
//! shorter, then higher NPO loses), then Rule 1 again; Rule 5 drops
//! patterns whose instances hold too little of the page's visible text.
//!
//! In structural mode only Rules 1 and 3 and the within-pattern part of
//! Rule 4 run here; [`crate::extract::records`] applies length, overlap and coverage
//! to whole records instead of exact repeats.
//!
//! Invariants: every candidate's `instances` are sorted and, after Rule 4,
//! pairwise non-overlapping; `dropped` is `None` exactly for survivors;
//! survivors come first, by descending coverage.

use std::cmp::Reverse;

use super::suffix_tree::{lcp_array, lcp_intervals, suffix_array};
use super::{MiningParams, Mode};
use crate::extract::sequence::{TEXT, TagSequence};

/// Why a candidate pattern was dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    /// Rule 1: fewer than `min_instances` instances (after Rule 4 when it
    /// ran).
    Rule1Instances,
    /// Rule 2: shorter than `min_pattern_len`.
    Rule2Length,
    /// Rule 3: missing a key tag, or nothing but key tags.
    Rule3KeyTags,
    /// Rule 4: lost its instances to an overlapping, better pattern.
    Rule4Overlap,
    /// Rule 5: coverage below `min_coverage`.
    Rule5Coverage,
}

impl DropReason {
    pub fn describe(&self) -> &'static str {
        match self {
            DropReason::Rule1Instances => "rule 1: too few instances",
            DropReason::Rule2Length => "rule 2: pattern too short",
            DropReason::Rule3KeyTags => "rule 3: lacks key tags or structure",
            DropReason::Rule4Overlap => "rule 4: overlaps a better pattern",
            DropReason::Rule5Coverage => "rule 5: coverage too low",
        }
    }
}

/// One repeated pattern and what the rules made of it.
#[derive(Debug, Clone)]
pub struct PatternCandidate {
    /// Position of one occurrence; the pattern is `tokens[start..start+len]`.
    pub start: u32,
    pub len: u32,
    /// Occurrences in the suffix tree (before Rule 4).
    pub found: usize,
    /// Current instances: sorted start positions.
    pub instances: Vec<u32>,
    /// Visible text bytes of the current instances / the page's.
    pub coverage: f64,
    pub dropped: Option<DropReason>,
}

impl PatternCandidate {
    pub fn tokens<'a>(&self, seq: &'a TagSequence) -> &'a [u16] {
        &seq.tokens[self.start as usize..(self.start + self.len) as usize]
    }
}

/// Result of mining one page.
#[derive(Debug, Clone, Default)]
pub struct Mining {
    /// Internal nodes of the suffix tree.
    pub intervals: usize,
    /// Intervals dropped by Rule 1 / Rule 2 on their raw counts (not listed).
    pub dropped_rule1: usize,
    pub dropped_rule2: usize,
    /// Candidates that passed Rules 1–2, survivors first (by coverage), then
    /// the dropped ones by coverage.
    pub candidates: Vec<PatternCandidate>,
}

impl Mining {
    pub fn survivors(&self) -> impl Iterator<Item = &PatternCandidate> {
        self.candidates.iter().filter(|c| c.dropped.is_none())
    }
}

/// Next-occurrence tables for Rule 3: `next[k][i]` is the first position
/// `>= i` holding key token `k` (or `n`); `next_other[i]` likewise for any
/// non-key token.
struct KeyIndex {
    next: Vec<Vec<u32>>,
    next_other: Vec<u32>,
}

impl KeyIndex {
    fn new(tokens: &[u16], keys: &[u16]) -> KeyIndex {
        let n = tokens.len();
        let mut next = vec![vec![n as u32; n + 1]; keys.len()];
        let mut next_other = vec![n as u32; n + 1];
        for i in (0..n).rev() {
            for (k, &key) in keys.iter().enumerate() {
                next[k][i] = if tokens[i] == key {
                    i as u32
                } else {
                    next[k][i + 1]
                };
            }
            next_other[i] = if keys.contains(&tokens[i]) {
                next_other[i + 1]
            } else {
                i as u32
            };
        }
        KeyIndex { next, next_other }
    }

    /// Rule 3 for the pattern at `start..start+len`.
    fn passes(&self, start: usize, len: usize) -> bool {
        let end = (start + len) as u32;
        self.next.iter().all(|t| t[start] < end) && self.next_other[start] < end
    }
}

/// Resolve the configured key tags to token ids; `None` if one of them does
/// not occur on the page at all (then no pattern can pass Rule 3).
fn key_tokens(seq: &TagSequence, params: &MiningParams) -> Option<Vec<u16>> {
    params
        .key_tags
        .iter()
        .map(|k| {
            if k == "<text>" || k == "text" {
                Some(TEXT)
            } else {
                let k = k
                    .trim_matches(|c| c == '<' || c == '>')
                    .to_ascii_lowercase();
                seq.names.iter().position(|n| *n == k).map(|i| i as u16)
            }
        })
        .collect()
}

/// Mine the page's repeated patterns and apply the rules of `params.mode`.
pub fn mine(seq: &TagSequence, params: &MiningParams) -> Mining {
    let tokens = &seq.tokens;
    let sa = suffix_array(tokens);
    let lcp = lcp_array(tokens, &sa);
    let intervals = lcp_intervals(&lcp);
    let mut mining = Mining {
        intervals: intervals.len(),
        ..Mining::default()
    };
    let Some(keys) = key_tokens(seq, params) else {
        return mining;
    };
    let key_index = KeyIndex::new(tokens, &keys);
    let paper = params.mode == Mode::Paper;
    let min_ins = params.min_instances.max(2);
    let total_text = seq.total_text().max(1) as f64;

    for iv in &intervals {
        if iv.count() < min_ins {
            mining.dropped_rule1 += 1;
            continue;
        }
        let len = iv.len as usize;
        if paper && len < params.min_pattern_len {
            mining.dropped_rule2 += 1;
            continue;
        }
        if len > params.max_pattern_len {
            continue;
        }
        let start = sa[iv.lb as usize];
        let mut cand = PatternCandidate {
            start,
            len: iv.len,
            found: iv.count(),
            instances: Vec::new(),
            coverage: 0.0,
            dropped: None,
        };
        if !key_index.passes(start as usize, len) {
            cand.dropped = Some(DropReason::Rule3KeyTags);
            mining.candidates.push(cand);
            continue;
        }
        let mut inst: Vec<u32> = sa[iv.lb as usize..=iv.rb as usize].to_vec();
        inst.sort_unstable();
        remove_self_overlaps(&mut inst, iv.len);
        cand.instances = inst;
        cand.coverage = coverage(seq, &cand.instances, iv.len, total_text);
        if cand.instances.len() < min_ins {
            cand.dropped = Some(DropReason::Rule1Instances);
        }
        mining.candidates.push(cand);
    }

    if paper {
        resolve_overlaps_between(seq, &mut mining.candidates, params, min_ins, total_text);
        for c in mining.candidates.iter_mut().filter(|c| c.dropped.is_none()) {
            if c.coverage < params.min_coverage {
                c.dropped = Some(DropReason::Rule5Coverage);
            }
        }
    }
    // Each candidate's key is read once: sorting the candidates by a
    // comparison moved and compared the large structs n log n times.
    mining.candidates.sort_by_cached_key(|c| {
        (
            c.dropped.is_some(),
            Reverse(total_order_key(c.coverage)),
            Reverse(c.instances.len()),
            Reverse(c.len),
            c.start,
        )
    });
    mining
}

/// An integer that orders as `f64::total_cmp` orders `x` (the same map of
/// the bits: negative values' magnitude bits are flipped).
fn total_order_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

/// Rule 4 within a pattern: walk the (sorted) instances in order, delete
/// each one that overlaps the last kept one. In place: one vector per
/// candidate.
pub fn remove_self_overlaps(sorted: &mut Vec<u32>, len: u32) {
    let mut last: Option<u32> = None;
    sorted.retain(|&p| {
        let keep = last.is_none_or(|q| p >= q + len);
        if keep {
            last = Some(p);
        }
        keep
    });
}

/// Visible-text share of a pattern's instances (Rule 5's coverage).
pub fn coverage(seq: &TagSequence, instances: &[u32], len: u32, total_text: f64) -> f64 {
    let bytes: u64 = instances
        .iter()
        .map(|&p| seq.text_in(p as usize, (p + len) as usize))
        .sum();
    bytes as f64 / total_text
}

/// For two patterns with sorted, self-non-overlapping instances, mark which
/// instances of each overlap some instance of the other.
fn overlap_marks(a: &[u32], alen: u32, b: &[u32], blen: u32) -> (Vec<bool>, Vec<bool>) {
    fn marks(x: &[u32], xlen: u32, y: &[u32], ylen: u32) -> Vec<bool> {
        let mut out = vec![false; x.len()];
        let mut j = 0;
        for (i, &xs) in x.iter().enumerate() {
            let xe = xs + xlen - 1;
            while j < y.len() && y[j] + ylen - 1 < xs {
                j += 1;
            }
            out[i] = j < y.len() && y[j] <= xe;
        }
        out
    }
    (marks(a, alen, b, blen), marks(b, blen, a, alen))
}

/// NPO of an instance: distinct parents of its nodes that lie outside it.
fn npo(parents: &[u32], start: u32, len: u32) -> usize {
    let (s, e) = (start as usize, (start + len) as usize);
    let mut outside: Vec<u32> = (s..e)
        .map(|t| parents[t])
        .filter(|&pt| (pt as usize) < s || (pt as usize) >= e)
        .collect();
    outside.sort_unstable();
    outside.dedup();
    outside.len()
}

/// Rule 4 between patterns, then Rule 1 again.
fn resolve_overlaps_between(
    seq: &TagSequence,
    cands: &mut [PatternCandidate],
    params: &MiningParams,
    min_ins: usize,
    total_text: f64,
) {
    let parents = &seq.parent_token;
    // Work on the live candidates only, strongest (most instances, longest)
    // first, bounded in number.
    let mut live: Vec<usize> = (0..cands.len())
        .filter(|&i| cands[i].dropped.is_none())
        .collect();
    live.sort_by(|&a, &b| {
        cands[b]
            .coverage
            .total_cmp(&cands[a].coverage)
            .then(cands[b].instances.len().cmp(&cands[a].instances.len()))
    });
    live.truncate(params.max_candidates);
    live.sort_by(|&a, &b| {
        cands[b]
            .instances
            .len()
            .cmp(&cands[a].instances.len())
            .then(cands[b].len.cmp(&cands[a].len))
    });
    for x in 0..live.len() {
        for y in x + 1..live.len() {
            let (i, j) = (live[x], live[y]);
            if cands[i].instances.is_empty() || cands[j].instances.is_empty() {
                continue;
            }
            let (ci, cj) = (&cands[i], &cands[j]);
            let (ilen, jlen) = (ci.len, cj.len);
            // Disjoint spans cannot overlap.
            let (i_first, i_last) = (ci.instances[0], *ci.instances.last().unwrap_or(&0) + ilen);
            let (j_first, j_last) = (cj.instances[0], *cj.instances.last().unwrap_or(&0) + jlen);
            if i_last <= j_first || j_last <= i_first {
                continue;
            }
            let (mi, mj) = overlap_marks(&ci.instances, ilen, &cj.instances, jlen);
            let (oi, oj) = (
                mi.iter().filter(|&&m| m).count(),
                mj.iter().filter(|&&m| m).count(),
            );
            if oi == 0 {
                continue;
            }
            // Which pattern loses its overlapping instances?
            let i_loses = if oi != oj {
                oi < oj
            } else if ci.instances.len() != cj.instances.len() {
                ci.instances.len() < cj.instances.len()
            } else if ilen != jlen {
                ilen < jlen
            } else {
                let npo_sum = |c: &PatternCandidate, m: &[bool]| -> usize {
                    c.instances
                        .iter()
                        .zip(m)
                        .filter(|(_, m)| **m)
                        .map(|(&p, _)| npo(parents, p, c.len))
                        .sum()
                };
                npo_sum(ci, &mi) > npo_sum(cj, &mj)
            };
            let (loser, marks) = if i_loses { (i, mi) } else { (j, mj) };
            let c = &mut cands[loser];
            let mut keep = marks.iter().map(|m| !m);
            c.instances.retain(|_| keep.next().unwrap_or(true));
        }
    }
    for &i in &live {
        let c = &mut cands[i];
        c.coverage = coverage(seq, &c.instances, c.len, total_text);
        if c.instances.len() < min_ins {
            c.dropped = Some(if c.instances.len() < c.found {
                DropReason::Rule4Overlap
            } else {
                DropReason::Rule1Instances
            });
        }
    }
    // Candidates beyond the bound never competed: they are dropped as losers.
    let competed: std::collections::HashSet<usize> = live.into_iter().collect();
    for (i, c) in cands.iter_mut().enumerate() {
        if c.dropped.is_none() && !competed.contains(&i) {
            c.dropped = Some(DropReason::Rule4Overlap);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_overlap_ababab_keeps_alternate_instances() {
        // Paper §3.2: in ababab, pattern aba has instances (1,3) and (3,5)
        // overlapping; the later one is deleted.
        let kept = |mut v: Vec<u32>| {
            remove_self_overlaps(&mut v, 3);
            v
        };
        assert_eq!(kept(vec![0, 2]), vec![0]);
        assert_eq!(kept(vec![0, 2, 4, 6]), vec![0, 4]);
        assert_eq!(kept(vec![0, 3, 5, 6, 9]), vec![0, 3, 6, 9]);
    }

    #[test]
    fn overlap_marks_abc_vs_ca() {
        // abcabcabc: abc at 0,3,6 (len 3); ca at 2,5 (len 2): all three abc
        // instances are involved, two ca instances: ca loses (paper §3.2).
        let (ma, mc) = overlap_marks(&[0, 3, 6], 3, &[2, 5], 2);
        assert_eq!(ma, vec![true, true, true]);
        assert_eq!(mc, vec![true, true]);
    }
}
