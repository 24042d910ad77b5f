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
use super::tokenize::{TEXT, TagId, Tokens, attr, tag};
use super::tree::{NodeId, Tree};

/// class/id words of boilerplate containers.
static NOISE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(^|[-_\s])(share|sharing|social|socials|related|comments?|newsletter|subscribe|subscription|promo|advert|advertisement|ads?|sponsor(ed)?|sidebar|breadcrumbs?|tags|tag-list|author-bio|popup|modal|cookie|recommend(ed|ations)?|more-stories|read-more|signup|sign-up|toolbar|outbrain|taboola|disqus|paywall|nav|navigation|menu|footer|masthead|widget|jump-link|print|rating|pagination|pager)($|[-_\s])",
    )
    .expect("literal regex")
});

/// Elements that are never main text.
fn noise_tag(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        NAV | ASIDE | FOOTER | FORM | BUTTON | SELECT | NOSCRIPT | TEXTAREA | INPUT | LABEL
            | SVG | TEMPLATE | IFRAME | OBJECT | EMBED | DIALOG | MENU
    )
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
        let mut drop = noise_tag(node.tag);
        if !drop {
            for a in ["class", "id", "role"] {
                if let Some(v) = attr(src, tok, a) {
                    if NOISE.is_match(&v) && !is_content_word(&v) {
                        drop = true;
                        break;
                    }
                }
            }
        }
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

/// class/id values that name the article itself even if a noise word is in them
/// (`article-body`, `post-content`, `entry-content`, …).
fn is_content_word(v: &str) -> bool {
    let v = v.to_ascii_lowercase();
    ["article-body", "articlebody", "post-content", "entry-content", "story-body", "main-content"]
        .iter()
        .any(|w| v.contains(w))
}
