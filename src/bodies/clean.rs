//! Boilerplate removal inside the chosen subtree (method `reverse` only):
//! what the paper's "all text of the subtree" lets through and measurement
//! showed costs precision — navigation, share bars, related-article lists,
//! comment sections, forms, ad and caption furniture, and link lists
//! (paper 004's valid-character idea: text inside `<a>` is not content, so a
//! block whose text is mostly link text is not main text).
//!
//! Invariants: returns one flag per arena node (true = leave the node and its
//! subtree out); the subtree root is never flagged; explicit stacks only.

use super::BodyParams;
use super::tokenize::{TEXT, TagId, Token, Tokens, attr, attrs, tag};
use super::tree::{NodeId, Tree};

/// Which word list `has_word` checks.
#[derive(Clone, Copy)]
enum Words {
    /// Boilerplate containers, always.
    Strong,
    /// Boilerplate containers unless a content word is there too
    /// (`content-with-sidebar`, `main-nav-content` stay).
    Weak,
    /// Figure furniture inside the article (captions, credits, gallery
    /// controls, screen-reader-only text): judged inside the chosen subtree only.
    Furniture,
}

fn single(kind: Words, w: &[u8]) -> bool {
    match kind {
        Words::Strong => matches!(
            w,
            b"share"
                | b"sharing"
                | b"sharedaddy"
                | b"addthis"
                | b"social"
                | b"socials"
                | b"related"
                | b"comment"
                | b"comments"
                | b"commentlist"
                | b"newsletter"
                | b"subscribe"
                | b"subscription"
                | b"cookie"
                | b"cookies"
                | b"gdpr"
                | b"outbrain"
                | b"taboola"
                | b"disqus"
                | b"breadcrumb"
                | b"breadcrumbs"
                | b"popup"
                | b"recommend"
                | b"recommended"
                | b"recommendations"
        ),
        Words::Weak => matches!(
            w,
            b"modal"
                | b"signup"
                | b"promo"
                | b"advert"
                | b"advertisement"
                | b"ad"
                | b"ads"
                | b"sponsor"
                | b"sponsored"
                | b"sidebar"
                | b"tags"
                | b"toolbar"
                | b"nav"
                | b"navigation"
                | b"menu"
                | b"footer"
                | b"masthead"
                | b"print"
                | b"rating"
                | b"pagination"
                | b"pager"
                | b"banner"
                | b"skyscraper"
                | b"supplemental"
        ),
        Words::Furniture => matches!(w, b"caption" | b"credit" | b"credits"),
    }
}

fn pair(kind: Words, a: &[u8], b: &[u8]) -> bool {
    match kind {
        Words::Strong => matches!(
            (a, b),
            (b"more", b"stories") | (b"jump", b"link") | (b"author", b"bio")
        ),
        Words::Weak => matches!(
            (a, b),
            (b"read", b"more") | (b"sign", b"up") | (b"tag", b"list")
        ),
        Words::Furniture => matches!(
            (a, b),
            (b"gallery", b"nav")
                | (b"slideshow", b"nav")
                | (b"visually", b"hidden")
                | (b"sr", b"only")
                | (b"screen", b"reader")
                | (b"element", b"invisible")
        ),
    }
}

/// Does `v` (a class/id value) hold one of the words of `kind`? Words are
/// split at `-`, `_` and blanks and compared ASCII-case-insensitively.
fn has_word(kind: Words, v: &str) -> bool {
    let mut prev = [0u8; 24];
    let mut prev_len = usize::MAX;
    for w in v.split(|c: char| c == '-' || c == '_' || c.is_ascii_whitespace()) {
        let mut buf = [0u8; 24];
        if w.is_empty() {
            continue;
        }
        if w.len() > buf.len() {
            prev_len = usize::MAX;
            continue;
        }
        let lw = &mut buf[..w.len()];
        lw.copy_from_slice(w.as_bytes());
        lw.make_ascii_lowercase();
        if single(kind, lw) {
            return true;
        }
        if prev_len != usize::MAX && pair(kind, &prev[..prev_len], lw) {
            return true;
        }
        prev = buf;
        prev_len = w.len();
    }
    false
}

/// Substring test, ASCII-case-insensitive, for any of `needles` (lowercase).
fn contains_any(v: &str, needles: &[&str]) -> bool {
    let lower = v.to_ascii_lowercase();
    needles.iter().any(|n| lower.contains(n))
}

/// Words that name content (they cancel a weak noise word).
const CONTENT: &[&str] = &[
    "content", "article", "body", "main", "post", "entry", "story", "column", "text",
];

/// class/id/itemprop values that name the article body itself.
const ARTICLE_BODY: &[&str] = &[
    "post-content",
    "entry-content",
    "article-body",
    "articlebody",
    "article-content",
    "story-body",
    "post-body",
    "main-content",
    "article__body",
    "article-text",
    "story-content",
];

/// Elements that are never main text.
fn noise_tag(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        NAV | ASIDE
            | FOOTER
            | FORM
            | BUTTON
            | SELECT
            | NOSCRIPT
            | TEXTAREA
            | INPUT
            | LABEL
            | SVG
            | TEMPLATE
            | IFRAME
            | OBJECT
            | EMBED
            | DIALOG
            | MENU
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
    // One pass over the attributes, one regex run per kind over the joined
    // values (this runs for every start tag of the page).
    let mut joined = String::new();
    let mut weak_hit = false;
    for (k, v) in attrs(src, tok) {
        let k = k.as_bytes();
        if k.eq_ignore_ascii_case(b"class")
            || k.eq_ignore_ascii_case(b"id")
            || k.eq_ignore_ascii_case(b"role")
            || k.eq_ignore_ascii_case(b"itemprop")
        {
            if weak && !weak_hit && has_word(Words::Weak, v) && !contains_any(v, CONTENT) {
                weak_hit = true;
            }
            joined.push_str(v);
            joined.push(' ');
        }
    }
    if joined.is_empty() || contains_any(&joined, ARTICLE_BODY) {
        // Named as the article body: a stray id like `share-btn` on the
        // post-content container must not hide the article.
        return false;
    }
    weak_hit || has_word(Words::Strong, &joined)
}

/// Memo of `is_noise_element` per start token (the climb asks about the
/// same elements at every level; class regexes are the cost).
pub struct Noise {
    /// Per token: bit 0 strong known, bit 1 strong noise, bit 2 weak known, bit 3 weak noise.
    memo: std::cell::RefCell<Vec<u8>>,
}

impl Noise {
    pub fn new(toks: &Tokens) -> Self {
        Noise {
            memo: std::cell::RefCell::new(vec![0; toks.tokens.len()]),
        }
    }

    /// `is_noise_element` of token `i`, memoized.
    pub fn is(&self, src: &str, toks: &Tokens, i: usize, weak: bool) -> bool {
        let Some(tok) = toks.tokens.get(i) else {
            return false;
        };
        let (known, yes) = if weak { (4u8, 8u8) } else { (1u8, 2u8) };
        let mut memo = self.memo.borrow_mut();
        let Some(slot) = memo.get_mut(i) else {
            return false;
        };
        if *slot & known == 0 {
            let v = is_noise_element(src, tok, weak);
            *slot |= known | if v { yes } else { 0 };
        }
        *slot & yes != 0
    }
}

/// Valid characters per node of the subtree at `root` (paper 004's idea,
/// language-agnostic): non-blank text outside `<a>` and outside boilerplate
/// elements, from text tokens of at least `min_token` non-blank bytes
/// (and, with `prose`, reading as sentences: `is_sentence`).
/// Indexed by node id (0 outside the subtree).
pub fn valid_chars(
    noise: &Noise,
    src: &str,
    toks: &Tokens,
    tree: &Tree,
    root: NodeId,
    min_token: u32,
    prose: bool,
) -> Vec<u32> {
    let mut vc = vec![0u32; tree.nodes.len()];
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        let node = tree.node(id);
        if node.tag == tag::A {
            continue;
        }
        if node.tag != TEXT && id != root && noise.is(src, toks, node.start_tok as usize, true) {
            continue;
        }
        order.push(id);
        stack.extend(node.children.iter().copied());
    }
    for &id in order.iter().rev() {
        let node = tree.node(id);
        let v = if node.tag == TEXT {
            match toks.tokens.get(node.start_tok as usize) {
                Some(t) if min_token == 0 => t.text_len,
                Some(t) if t.text_len >= min_token && (!prose || is_sentence(src, t)) => t.text_len,
                _ => 0,
            }
        } else {
            node.children.iter().map(|&c| vc[c as usize]).sum()
        };
        vc[id as usize] = v;
    }
    vc
}

/// Text that reads as prose: it holds a sentence end (`.`, `!`, `?` or a
/// CJK full stop) followed by a space or the end, which headline-and-dek
/// teaser lists rarely do.
fn is_sentence(src: &str, t: &Token) -> bool {
    let text = src
        .get(t.span.start as usize..t.span.end as usize)
        .unwrap_or("")
        .trim_end();
    if text.ends_with(['.', '!', '?', '。', '！', '？', '"', '”', ')']) {
        return true;
    }
    text.contains(". ") || text.contains("? ") || text.contains("! ") || text.contains('。')
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
    noise: &Noise,
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
        let mut drop = noise.is(src, toks, node.start_tok as usize, true)
            || matches!(node.tag, tag::H1 | tag::FIGCAPTION)
            || ["class", "id"]
                .iter()
                .any(|a| attr(src, tok, a).is_some_and(|v| has_word(Words::Furniture, &v)));
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

#[cfg(test)]
mod tests {
    use super::super::tokenize::tokenize;
    use super::*;

    #[test]
    fn noise_words_match_whole_words_only() {
        assert!(has_word(Words::Strong, "post-share-bar"));
        assert!(has_word(Words::Strong, "Comments_Section"));
        assert!(has_word(Words::Strong, "more-stories"));
        assert!(!has_word(Words::Strong, "shareholder-news"));
        assert!(!has_word(Words::Strong, "more stuff"));
        assert!(has_word(Words::Weak, "left sidebar"));
        assert!(has_word(Words::Furniture, "wp-caption-text"));
        assert!(has_word(Words::Furniture, "sr-only"));
    }

    #[test]
    fn article_body_names_and_content_words_win() {
        let src = r#"<div class="post-content" id="share-btn"><div class="content-with-sidebar"><div class="sidebar"><div class="comment-list">"#;
        let toks = tokenize(src);
        let t = &toks.tokens;
        assert!(!is_noise_element(src, &t[0], true));
        assert!(!is_noise_element(src, &t[1], true));
        assert!(is_noise_element(src, &t[2], true));
        assert!(!is_noise_element(src, &t[2], false));
        assert!(is_noise_element(src, &t[3], false));
    }
}
