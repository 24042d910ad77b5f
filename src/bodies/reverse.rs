//! Locating the main-text subtree (paper 000 §3.3): the two longest text
//! blocks, the tree grown outwards from the longest until the other is
//! reached, their lowest common ancestor R, then climbing to R's parent while
//! R has a sibling subtree with Sim ≥ threshold.
//!
//! Invariants: only the part of the tree the steps need is built (the
//! `Grower` reports how much); no recursion; a page without text gives
//! `Err(reason)`.

use super::BodyParams;
use super::similarity::Similarity;
use super::tokenize::{TEXT, TagId, TokenKind, Tokens, tag};
use super::tree::{Grower, NodeId, ROOT, Tree};

/// What `locate` found.
pub struct Located {
    pub tree: Tree,
    /// Root of the main-text subtree.
    pub root: NodeId,
    pub nodes_built: usize,
}

/// Text tokens that may seed the search, as (token index, length).
/// `paper`: every text token (the paper's text blocks); otherwise text in
/// `<title>`, `<textarea>`, `<option>`, `<noscript>`, `<a>` and `<head>` is
/// not a candidate, and the length of a block is the length of the text run
/// it belongs to (text tokens joined across inline tags), so a paragraph
/// with a few links still counts as one block.
fn candidates(toks: &Tokens, paper: bool) -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    if paper {
        for (i, t) in toks.tokens.iter().enumerate() {
            if t.kind == TokenKind::Text {
                out.push((i, t.text_len));
            }
        }
        return out;
    }
    // Exclusion depth per kind of container, counted on the flat tokens
    // (cheap, tolerant of bad nesting: counts never go below zero).
    let mut excluded = 0i32;
    let mut in_a = 0i32;
    let mut run_start = usize::MAX;
    let mut run_len = 0u32;
    let mut run_best = (usize::MAX, 0u32);
    let flush = |out: &mut Vec<(usize, u32)>, best: (usize, u32), len: u32| {
        if best.0 != usize::MAX {
            out.push((best.0, len));
        }
    };
    for (i, t) in toks.tokens.iter().enumerate() {
        match t.kind {
            TokenKind::Text => {
                if excluded > 0 {
                    continue;
                }
                if run_start == usize::MAX {
                    run_start = i;
                }
                run_len += t.text_len;
                if in_a == 0 && t.text_len > run_best.1 {
                    run_best = (i, t.text_len);
                }
            }
            TokenKind::Start | TokenKind::End => {
                let open = t.kind == TokenKind::Start && !t.self_closing;
                let d = if open { 1 } else { -1 };
                match t.tag {
                    tag::TITLE | tag::TEXTAREA | tag::OPTION | tag::NOSCRIPT | tag::HEAD
                    | tag::SELECT | tag::BUTTON => {
                        excluded = (excluded + d).max(0);
                    }
                    tag::A => in_a = (in_a + d).max(0),
                    _ => {}
                }
                if is_inline(t.tag) {
                    continue;
                }
                if run_start != usize::MAX {
                    flush(&mut out, run_best, run_len);
                }
                run_start = usize::MAX;
                run_len = 0;
                run_best = (usize::MAX, 0);
            }
        }
    }
    flush(&mut out, run_best, run_len);
    out
}

fn is_inline(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        A | SPAN | B | I | EM | STRONG | SMALL | SUB | SUP | CODE | U | S | Q | CITE | ABBR | KBD
            | SAMP | VAR | MARK | DEL | INS | FONT | BIG | TT | STRIKE | TIME | LABEL | DFN | BDI
            | BDO | DATA | BR | WBR
    )
}

/// Find the main-text subtree.
pub fn locate(toks: &Tokens, params: &BodyParams, paper: bool) -> Result<Located, String> {
    let cands = candidates(toks, paper);
    let mut first: Option<(usize, u32)> = None;
    let mut second: Option<(usize, u32)> = None;
    for &(i, len) in &cands {
        if first.is_none_or(|(_, l)| len > l) {
            second = first;
            first = Some((i, len));
        } else if second.is_none_or(|(_, l)| len > l) {
            second = Some((i, len));
        }
    }
    let Some((s1, len1)) = first else {
        return Err("the page has no text".into());
    };
    if !paper && (len1 as usize) < params.min_block_len {
        return Err(format!(
            "no text block reaches {} characters (longest: {len1})",
            params.min_block_len
        ));
    }
    let mut g = Grower::from_seed(&toks.tokens, s1);
    // Lowest common ancestor of the two blocks.
    let mut k = 0usize;
    match second {
        Some((s2, _)) if s2 < s1 => loop {
            if !g.ensure_ancestor(k) {
                break;
            }
            if g.tree.node(g.chain[k]).start_tok as usize <= s2 {
                break;
            }
            k += 1;
        },
        Some((s2, _)) => loop {
            if !g.ensure_complete(k) {
                break;
            }
            if g.tree.node(g.chain[k]).end_tok as usize > s2 {
                break;
            }
            k += 1;
        },
        None => {}
    }
    k = k.min(g.chain.len().saturating_sub(1));
    if !g.ensure_complete(k) {
        return Err("the tree around the main text could not be built".into());
    }
    // Climb while R has a similar sibling.
    loop {
        let r = g.chain[k];
        if g.tree.node(r).tag == ROOT || !g.ensure_complete(k + 1) || g.chain.len() <= k + 1 {
            break;
        }
        let parent = g.chain[k + 1];
        if g.tree.node(parent).tag == ROOT && !paper {
            break;
        }
        let sim = Similarity::new(&g.tree, params.sim_budget);
        let rtag = g.tree.node(r).tag;
        let similar = g.tree.node(parent).children.iter().any(|&c| {
            c != r
                && g.tree.node(c).tag == rtag
                && rtag != TEXT
                && sim.sim(r, c, None) >= params.similarity_threshold
        });
        if !similar {
            break;
        }
        k += 1;
    }
    let nodes_built = g.nodes_built();
    let root = g.chain[k];
    Ok(Located {
        tree: g.tree,
        root,
        nodes_built,
    })
}
