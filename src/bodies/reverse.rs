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
use super::clean;
use super::tokenize::{TEXT, TagId, TokenKind, Tokens, is_void, tag};
use super::tree::{self, Grower, NodeId, ROOT, Tree};

/// What `locate` found.
pub struct Located {
    pub tree: Tree,
    /// Root of the main-text subtree.
    pub root: NodeId,
    pub nodes_built: usize,
}

/// Text tokens that may seed the search, as (token index, length).
/// `paper`: every text token (the paper's text blocks). Otherwise a block is
/// a run of text joined across inline tags, its length counts only text
/// outside `<a>` (paper 004: link text is not content), and text inside
/// boilerplate containers (`clean::is_noise_element`: comments, related
/// lists, nav, forms, …) or in `<title>`/`<head>`/`<option>` is no candidate.
fn candidates(src: &str, toks: &Tokens, paper: bool, exclude_noise: bool) -> Vec<(usize, u32)> {
    let mut out = Vec::new();
    if paper {
        for (i, t) in toks.tokens.iter().enumerate() {
            if t.kind == TokenKind::Text {
                out.push((i, t.text_len));
            }
        }
        return out;
    }
    // Open elements as (tag, excluded); tolerant of bad nesting: an end tag
    // pops to its match if one is open within reach, else is ignored.
    let mut open: Vec<(TagId, bool)> = Vec::new();
    let mut excluded = 0usize;
    let mut in_a = 0usize;
    let mut run_len = 0u32;
    let mut run_best = (usize::MAX, 0u32);
    for (i, t) in toks.tokens.iter().enumerate() {
        match t.kind {
            TokenKind::Text => {
                if excluded > 0 {
                    continue;
                }
                if in_a == 0 {
                    run_len += t.text_len;
                    if t.text_len > run_best.1 {
                        run_best = (i, t.text_len);
                    }
                }
                continue;
            }
            TokenKind::Start if t.self_closing || is_void(t.tag) => {}
            TokenKind::Start => {
                // Implied ends, as the tree builders do them.
                while let Some(&(x, xe)) = open.last() {
                    if !(tree::end_omissible(x) && tree::closes_omitted(x, t.tag)) {
                        break;
                    }
                    open.pop();
                    excluded -= usize::from(xe);
                }
                let ex = matches!(
                    t.tag,
                    tag::TITLE | tag::TEXTAREA | tag::OPTION | tag::HEAD | tag::SELECT
                ) || (exclude_noise
                    && !matches!(t.tag, tag::HTML | tag::BODY | tag::MAIN | tag::ARTICLE | tag::FORM)
                    && clean::is_noise_element(src, t, false));
                excluded += usize::from(ex);
                in_a += usize::from(t.tag == tag::A);
                open.push((t.tag, ex));
            }
            TokenKind::End => {
                let low = open.len().saturating_sub(256);
                if let Some(d) = open[low..].iter().rposition(|&(g, _)| g == t.tag) {
                    for (g, ex) in open.drain(low + d..) {
                        excluded -= usize::from(ex);
                        in_a -= usize::from(g == tag::A);
                    }
                }
            }
        }
        if is_inline(t.tag) {
            continue;
        }
        if run_best.0 != usize::MAX {
            out.push((run_best.0, run_len));
        }
        run_len = 0;
        run_best = (usize::MAX, 0);
    }
    if run_best.0 != usize::MAX {
        out.push((run_best.0, run_len));
    }
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
pub fn locate(src: &str, toks: &Tokens, params: &BodyParams, paper: bool) -> Result<Located, String> {
    let mut cands = candidates(src, toks, paper, true);
    if !paper && cands.iter().all(|&(_, l)| (l as usize) < params.min_block_len) {
        // Everything long sits in what looks like boilerplate: judge by length alone.
        cands = candidates(src, toks, paper, false);
    }
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
    if !paper {
        k = descend_dominant(src, toks, &g, k, params);
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
        let vc = (!paper).then(|| clean::valid_chars(src, toks, &g.tree, parent));
        let similar = g.tree.node(parent).children.iter().any(|&c| {
            c != r
                && g.tree.node(c).tag == rtag
                && rtag != TEXT
                && vc.as_ref().is_none_or(|v| {
                    f64::from(v[c as usize]) >= params.sibling_min_share * f64::from(v[r as usize])
                })
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

/// Method `reverse`: the LCA of the two longest blocks is too high when the
/// second block lies outside the article (a long teaser, a caption). Move
/// down the seed's ancestor chain while the child on the chain holds at
/// least `dominant_share` of the LCA's valid characters.
fn descend_dominant(src: &str, toks: &Tokens, g: &Grower<'_>, mut k: usize, params: &BodyParams) -> usize {
    let Some(&top) = g.chain.get(k) else { return k };
    let vc = clean::valid_chars(src, toks, &g.tree, top);
    while k > 0 {
        let (r, c) = (g.chain[k], g.chain[k - 1]);
        let (vr, vc_c) = (vc[r as usize], vc[c as usize]);
        if vr == 0 || f64::from(vc_c) < params.dominant_share * f64::from(vr) {
            break;
        }
        k -= 1;
    }
    k
}
