//! Locating the main-text subtree (paper 000 §3.3): the two longest text
//! blocks, the tree grown outwards from the longest until the other is
//! reached, their lowest common ancestor R, then climbing to R's parent while
//! R has a sibling subtree with Sim ≥ threshold.
//!
//! `paper = true` is that and nothing else (method `reverse-paper`; the only
//! addition is `min_block_len`, so a page without an article yields nothing
//! rather than its longest scrap). Method `reverse` adds what measurement on
//! the article sets showed it needs, each step named by a `BodyParams` field:
//! - seeds are blocks (text runs across inline tags, link text not counted)
//!   outside boilerplate containers, taken from the container group with the
//!   most block text (readability-like: full weight for the paragraph's
//!   container, a quarter for the one around it) — one long teaser, cookie
//!   notice or footer no longer wins;
//! - from the LCA, descend while one child holds `dominant_share` of the
//!   valid characters (the second block was an outlier);
//! - climb also when the prose beside the best subtree adds `absorb_share`
//!   of its paragraph text, through wrapper levels and `max_lookahead` thin
//!   levels; a similar sibling only counts if it holds `sibling_min_share`
//!   of R's text; never into `<body>`.
//!
//! Invariants: only the part of the tree the steps need is built (the
//! `Grower` reports how much); no recursion; a page without text gives
//! `Err(reason)`.

use super::BodyParams;
use super::clean;
use super::similarity::Similarity;
use super::tokenize::{TEXT, TagId, TokenKind, Tokens, is_void, tag};
use super::tree::{self, Grower, NodeId, ROOT, Tree};

/// What `locate` found.
pub struct Located {
    pub tree: Tree,
    /// Root of the main-text subtree.
    pub root: NodeId,
    pub nodes_built: usize,
}

/// A seed candidate: a text token, the length of its block, and the block's
/// group (blocks sharing a container; `usize::MAX` for the paper's blocks).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    tok: usize,
    len: u32,
    group: usize,
    /// The element around the group (its parent), `usize::MAX` if none.
    grand: usize,
}

/// Text tokens that may seed the search. `paper`: every text token (the
/// paper's text blocks). Otherwise a block is a run of text joined across
/// inline tags, its length counts only text outside `<a>` (paper 004: link
/// text is not content), text inside boilerplate containers
/// (`clean::is_noise_element`: comments, related lists, nav, forms, …) or in
/// `<title>`/`<head>`/`<option>` is no candidate, and each block records its
/// group: the element holding its paragraph (the parent of a `p`/`li`/
/// heading/`td`/`blockquote`, else its own element).
fn candidates(
    noise: &clean::Noise,
    src: &str,
    toks: &Tokens,
    paper: bool,
    exclude_noise: bool,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    if paper {
        for (i, t) in toks.tokens.iter().enumerate() {
            if t.kind == TokenKind::Text {
                out.push(Candidate {
                    tok: i,
                    len: t.text_len,
                    group: usize::MAX,
                    grand: usize::MAX,
                });
            }
        }
        return out;
    }
    // Text (bytes) inside each element, by start token: a boilerplate-named
    // container holding half the page's text is the article's own wrapper
    // (themes put the article inside `share-container` and the like).
    let inner = inner_text(toks);
    let page_text: u64 = toks
        .tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Text)
        .map(|t| u64::from(t.text_len))
        .sum();
    // Open elements as (tag, excluded, start token); tolerant of bad
    // nesting: an end tag pops to its match if one is open within reach,
    // else is ignored.
    let mut open: Vec<(TagId, bool, usize)> = Vec::new();
    let mut excluded = 0usize;
    let mut in_a = 0usize;
    let mut run_len = 0u32;
    let mut run_best = (usize::MAX, 0u32);
    let mut run_group = (usize::MAX, usize::MAX);
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
                    if run_group.0 == usize::MAX {
                        run_group = group_of(&open);
                    }
                }
                continue;
            }
            TokenKind::Start if t.self_closing || is_void(t.tag) => {}
            TokenKind::Start => {
                // Implied ends, as the tree builders do them.
                while let Some(&(x, xe, _)) = open.last() {
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
                    && !matches!(
                        t.tag,
                        tag::HTML | tag::BODY | tag::MAIN | tag::ARTICLE | tag::FORM
                    )
                    && noise.is(src, toks, i, true)
                    && inner.get(i).is_some_and(|&n| u64::from(n) * 2 < page_text));
                excluded += usize::from(ex);
                in_a += usize::from(t.tag == tag::A);
                open.push((t.tag, ex, i));
            }
            TokenKind::End => {
                let low = open.len().saturating_sub(256);
                if let Some(d) = open[low..].iter().rposition(|&(g, _, _)| g == t.tag) {
                    for (g, ex, _) in open.drain(low + d..) {
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
            out.push(Candidate {
                tok: run_best.0,
                len: run_len,
                group: run_group.0,
                grand: run_group.1,
            });
        }
        run_len = 0;
        run_best = (usize::MAX, 0);
        run_group = (usize::MAX, usize::MAX);
    }
    if run_best.0 != usize::MAX {
        out.push(Candidate {
            tok: run_best.0,
            len: run_len,
            group: run_group.0,
            grand: run_group.1,
        });
    }
    out
}

/// Weight of a block for its own group, against 1 for the element around it.
const GROUP_WEIGHT: u64 = 4;

/// Non-blank text bytes inside each element, indexed by its start token
/// (same tolerant nesting as `candidates`).
fn inner_text(toks: &Tokens) -> Vec<u32> {
    let mut inner = vec![0u32; toks.tokens.len()];
    let mut open: Vec<(TagId, usize, u32)> = Vec::new();
    let close = |open: &mut Vec<(TagId, usize, u32)>, inner: &mut Vec<u32>| {
        if let Some((_, start, n)) = open.pop() {
            if let Some(slot) = inner.get_mut(start) {
                *slot = n;
            }
            if let Some(parent) = open.last_mut() {
                parent.2 = parent.2.saturating_add(n);
            }
        }
    };
    for (i, t) in toks.tokens.iter().enumerate() {
        match t.kind {
            TokenKind::Text => {
                if let Some(top) = open.last_mut() {
                    top.2 = top.2.saturating_add(t.text_len);
                }
            }
            TokenKind::Start if t.self_closing || is_void(t.tag) => {}
            TokenKind::Start => {
                while open.last().is_some_and(|&(x, _, _)| {
                    tree::end_omissible(x) && tree::closes_omitted(x, t.tag)
                }) {
                    close(&mut open, &mut inner);
                }
                open.push((t.tag, i, 0));
            }
            TokenKind::End => {
                let low = open.len().saturating_sub(256);
                if let Some(d) = open[low..].iter().rposition(|&(g, _, _)| g == t.tag) {
                    while open.len() > low + d {
                        close(&mut open, &mut inner);
                    }
                }
            }
        }
    }
    while !open.is_empty() {
        close(&mut open, &mut inner);
    }
    inner
}

/// Group key of text at the current point: the start token of the element
/// holding its paragraph (see `candidates`), and of that element's parent.
fn group_of(open: &[(TagId, bool, usize)]) -> (usize, usize) {
    let mut k = open.len();
    // Skip inline wrappers to the block that holds the text.
    while k > 0 && is_inline(open[k - 1].0) {
        k -= 1;
    }
    if k == 0 {
        return (usize::MAX - 1, usize::MAX);
    }
    let (t, _, _) = open[k - 1];
    let paragraph = matches!(
        t,
        tag::P
            | tag::LI
            | tag::H1
            | tag::H2
            | tag::H3
            | tag::H4
            | tag::H5
            | tag::H6
            | tag::TD
            | tag::BLOCKQUOTE
            | tag::PRE
            | tag::DD
            | tag::DT
    );
    let g = if paragraph && k >= 2 { k - 2 } else { k - 1 };
    let grand = if g >= 1 { open[g - 1].2 } else { usize::MAX };
    (open[g].2, grand)
}

fn is_inline(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        A | SPAN
            | B
            | I
            | EM
            | STRONG
            | SMALL
            | SUB
            | SUP
            | CODE
            | U
            | S
            | Q
            | CITE
            | ABBR
            | KBD
            | SAMP
            | VAR
            | MARK
            | DEL
            | INS
            | FONT
            | BIG
            | TT
            | STRIKE
            | TIME
            | LABEL
            | DFN
            | BDI
            | BDO
            | DATA
            | BR
            | WBR
    )
}

/// Find the main-text subtree.
pub fn locate(
    noise: &clean::Noise,
    src: &str,
    toks: &Tokens,
    params: &BodyParams,
    paper: bool,
) -> Result<Located, String> {
    let mut cands = candidates(noise, src, toks, paper, true);
    if !paper
        && cands
            .iter()
            .all(|c| (c.len as usize) < params.min_block_len)
    {
        // Everything long sits in what looks like boilerplate: judge by length alone.
        cands = candidates(noise, src, toks, paper, false);
    }
    // Method `reverse`: only blocks of the group with the most block text
    // compete (many paragraphs side by side beat one long teaser).
    if !paper {
        let mut totals: std::collections::HashMap<usize, u64> = std::collections::HashMap::new();
        // Readability-like: a block counts fully for its group and half for
        // the element around it, so an article split over sibling sections
        // still wins over one long teaser list.
        for c in &cands {
            *totals.entry(c.group).or_insert(0) += GROUP_WEIGHT * u64::from(c.len);
            if c.grand != usize::MAX {
                *totals.entry(c.grand).or_insert(0) += u64::from(c.len);
            }
        }
        if let Some((&best, _)) = totals
            .iter()
            .max_by_key(|&(g, t)| (*t, std::cmp::Reverse(*g)))
        {
            cands.retain(|c| c.group == best || c.grand == best);
        }
    }
    let mut first: Option<(usize, u32)> = None;
    let mut second: Option<(usize, u32)> = None;
    for c in &cands {
        let (i, len) = (c.tok, c.len);
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
    if (len1 as usize) < params.min_block_len {
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
    if params.debug {
        eprintln!("lca k {k} built {}", g.nodes_built());
    }
    if !paper {
        k = descend_dominant(noise, src, toks, &g, k, params);
    }
    // Climb while R has a similar sibling (the paper); method `reverse` also
    // climbs when the prose beside the best subtree so far adds enough, and
    // looks through wrapper levels (nothing beside R) and up to
    // `max_lookahead` levels that add too little, keeping the best level.
    let mut best_k = k;
    let mut wrappers = 0usize;
    let mut looked = 0usize;
    loop {
        let r = g.chain[k];
        if g.tree.node(r).tag == ROOT || !g.ensure_complete(k + 1) || g.chain.len() <= k + 1 {
            break;
        }
        let parent = g.chain[k + 1];
        let ptag = g.tree.node(parent).tag;
        if !paper && matches!(ptag, ROOT | tag::BODY | tag::HTML) {
            break;
        }
        let mut absorb = false;
        let mut wrapper = false;
        let mut adds_prose = false;
        let vc = (!paper).then(|| clean::valid_chars(noise, src, toks, &g.tree, parent, 0, false));
        if let Some(v) = &vc {
            let best = g.chain[best_k];
            let pv = clean::valid_chars(
                noise,
                src,
                toks,
                &g.tree,
                parent,
                params.paragraph_min_len,
                true,
            );
            // The best subtree is main text by construction: never judge it
            // boilerplate, count all its paragraphs; beside it only prose
            // counts (teaser lists are headline + dek).
            let own = clean::valid_chars(
                noise,
                src,
                toks,
                &g.tree,
                best,
                params.paragraph_min_len,
                false,
            );
            let in_best = f64::from(own[best as usize]);
            let beside = f64::from(pv[parent as usize]) - f64::from(pv[best as usize]);
            if params.debug {
                eprintln!(
                    "climb k {k} best {best_k} in_best {in_best} beside {beside} built {}",
                    g.nodes_built()
                );
            }
            absorb = beside >= params.absorb_share * in_best.max(1.0) && v[parent as usize] > 0;
            wrapper = v[parent as usize].saturating_sub(v[r as usize]) < params.paragraph_min_len;
            adds_prose = beside > 0.0;
        }
        let rtag = g.tree.node(r).tag;
        let similar = !absorb && {
            let mut sim: Option<Similarity<'_>> = None;
            g.tree.node(parent).children.iter().any(|&c| {
                c != r
                    && g.tree.node(c).tag == rtag
                    && rtag != TEXT
                    && vc.as_ref().is_none_or(|v| {
                        f64::from(v[c as usize])
                            >= params.sibling_min_share * f64::from(v[r as usize])
                    })
                    && sim
                        .get_or_insert_with(|| Similarity::new(&g.tree, params.sim_budget))
                        .sim(r, c, None)
                        >= params.similarity_threshold
            })
        };
        k += 1;
        if absorb || similar {
            best_k = k;
            wrappers = 0;
            looked = 0;
        } else if paper {
            k -= 1;
            break;
        } else if wrapper && wrappers < params.max_wrappers {
            wrappers += 1;
        } else if adds_prose && looked < params.max_lookahead {
            looked += 1;
        } else {
            break;
        }
    }
    if !paper {
        k = best_k;
    }
    if params.debug {
        let names: Vec<String> = g
            .chain
            .iter()
            .map(|&c| toks.name(g.tree.node(c).tag).to_string())
            .collect();
        eprintln!("seed {s1} second {second:?} k {k} chain {names:?}");
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
fn descend_dominant(
    noise: &clean::Noise,
    src: &str,
    toks: &Tokens,
    g: &Grower<'_>,
    mut k: usize,
    params: &BodyParams,
) -> usize {
    let Some(&top) = g.chain.get(k) else { return k };
    let vc = clean::valid_chars(noise, src, toks, &g.tree, top, 0, false);
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
