//! Boilerplate removal inside the chosen subtree (method `reverse` only):
//! what the paper's "all text of the subtree" lets through and measurement
//! showed costs precision — navigation, share bars, related-article lists,
//! comment sections, forms, ad and caption furniture, and link lists
//! (paper 004's valid-character idea: text inside `<a>` is not content, so a
//! block whose text is mostly link text is not main text).
//!
//! Invariants: returns one flag per arena node (true = leave the node and its
//! subtree out); the subtree root is never flagged; explicit stacks only.

use std::sync::LazyLock;

use regex::Regex;

use super::BodyParams;
use super::tokenize::{TEXT, TagId, Token, Tokens, attr, tag};
use super::tree::{NodeId, Tree};

/// class/id words of boilerplate containers, always.
static NOISE_STRONG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(^|[-_\s])(share|sharing|sharedaddy|addthis|social|socials|related|comments?|commentlist|newsletter|subscribe|subscription|cookies?|gdpr|outbrain|taboola|disqus|breadcrumbs?|popup|recommend(ed|ations)?|more-stories|jump-link|author-bio|paywall)($|[-_\s])",
    )
    .expect("literal regex")
});

/// class/id words of boilerplate containers unless a content word is there too
/// (`content-with-sidebar`, `main-nav-content` stay).
static NOISE_WEAK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(^|[-_\s])(modal|read-more|signup|sign-up|promo|advert|advertisement|ads?|sponsor(ed)?|sidebar|tags|tag-list|toolbar|nav|navigation|menu|footer|masthead|widget|print|rating|pagination|pager|banner|skyscraper|supplemental)($|[-_\s])",
    )
    .expect("literal regex")
});

static CONTENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)content|article|body|main|post|entry|story|column|text").expect("literal regex"));

/// Elements that are never main text.
fn noise_tag(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        NAV | ASIDE | FOOTER | FORM | BUTTON | SELECT | NOSCRIPT | TEXTAREA | INPUT | LABEL
            | SVG | TEMPLATE | IFRAME | OBJECT | EMBED | DIALOG | MENU
    )
}

/// Is the element of start tag `tok` boilerplate by its tag or its
/// class/id/role? `weak`: also by words that layout containers use too
/// (sidebar, nav, ads, …), unless a content word is present.
pub fn is_noise_element(src: &str, tok: &Token, weak: bool) -> bool {
    if noise_tag(tok.tag) {
        return true;
    }
    if tok.attrs.is_empty() {
        return false;
    }
    for a in ["class", "id", "role"] {
        if let Some(v) = attr(src, tok, a) {
            if NOISE_STRONG.is_match(&v)
                || (weak && NOISE_WEAK.is_match(&v) && !CONTENT.is_match(&v))
            {
                return true;
            }
        }
    }
    false
}

/// Valid characters per node of the subtree at `root` (paper 004's idea,
/// language-agnostic): non-blank text outside `<a>` and outside boilerplate
/// elements. Indexed by node id (0 outside the subtree).
pub fn valid_chars(src: &str, toks: &Tokens, tree: &Tree, root: NodeId) -> Vec<u32> {
    let mut vc = vec![0u32; tree.nodes.len()];
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let node = tree.node(id);
        if node.tag == tag::A {
            continue;
        }
        if node.tag != TEXT && id != root {
            if let Some(t) = toks.tokens.get(node.start_tok as usize) {
                if is_noise_element(src, t, true) {
                    continue;
                }
            }
        }
        order.push(id);
        stack.extend(node.children.iter().copied());
    }
    for &id in order.iter().rev() {
        let node = tree.node(id);
        let v = if node.tag == TEXT {
            toks.tokens.get(node.start_tok as usize).map_or(0, |t| t.text_len)
        } else {
            node.children.iter().map(|&c| vc[c as usize]).sum()
        };
        vc[id as usize] = v;
    }
    vc
}

/// Containers judged by link density.
fn density_judged(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        DIV | UL | OL | DL | SECTION | TABLE | P | HEADER | LI | SPAN | TD | TR | FIGURE
    )
}

/// Flags of the nodes to leave out of the subtree at `root`.
pub fn boilerplate(
    src: &str,
    toks: &Tokens,
    tree: &Tree,
    root: NodeId,
    params: &BodyParams,
) -> Vec<bool> {
    let n = tree.nodes.len();
    let mut skip = vec![false; n];
    let mut text_len = vec![0u32; n];
    let mut link_len = vec![0u32; n];
    // Post-order: text and link-text lengths per node.
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        order.push(id);
        stack.extend(tree.node(id).children.iter().copied());
    }
    for &id in order.iter().rev() {
        let node = tree.node(id);
        if node.tag == TEXT {
            let l = toks
                .tokens
                .get(node.start_tok as usize)
                .map_or(0, |t| t.text_len);
            text_len[id as usize] = l;
            continue;
        }
        let (mut t, mut l) = (0u32, 0u32);
        for &c in &node.children {
            t += text_len[c as usize];
            l += link_len[c as usize];
        }
        if node.tag == tag::A {
            l = t;
        }
        text_len[id as usize] = t;
        link_len[id as usize] = l;
    }
    // Pre-order decisions (a flagged node hides its subtree anyway).
    for &id in &order {
        if id == root {
            continue;
        }
        let node = tree.node(id);
        if node.tag == TEXT {
            continue;
        }
        let Some(tok) = toks.tokens.get(node.start_tok as usize) else {
            continue;
        };
        let mut drop = is_noise_element(src, tok, true);
        if !drop && density_judged(node.tag) {
            let t = text_len[id as usize];
            let l = link_len[id as usize];
            if t > 0 && f64::from(l) / f64::from(t) > params.max_link_density {
                drop = true;
            }
        }
        if drop {
            skip[id as usize] = true;
        }
    }
    skip
}

