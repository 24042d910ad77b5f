//! The page as a tag sequence (paper 001 §1): a preorder walk where every
//! element contributes its tag name and every non-blank text node the token
//! `<text>`.
//!
//! Invariants: `tokens[i]` came from arena node `nodes[i]`; node ids increase
//! strictly along the sequence; token id [`TEXT`] is `<text>`; the other ids
//! index `names`. Script, style, comments and the like never reach the
//! sequence because [`crate::extract::dom`] keeps them out of the arena.
//! [`flatten_capped`] keeps only the first tokens in document order;
//! [`TagSequence::truncated_nodes`] says how much of the arena was left out.
//! Every flatten keeps at most [`MAX_CHILDREN`] token children per element
//! (and nothing below the ones left out): records are siblings, so this cut
//! always falls on a record boundary, and it bounds the miner's input on a
//! page of a million list items.

use rustc_hash::FxHashMap as HashMap;

use crate::extract::dom::{Document, Name, NodeData, NodeId, trim_text};

/// Token id of `<text>`.
pub const TEXT: u16 = 0;

/// Distinct tag names beyond this share one id: the suffix-array alphabet
/// is bounded, and a page with thousands of custom element names gains
/// nothing from telling them apart.
pub const MAX_DISTINCT_TAGS: usize = 4096;

/// Token children (elements and non-blank text) kept per element; later
/// siblings and their subtrees get no token. A feed publishes tens of
/// items, and a list of more than 2,000 records in one container is a
/// dump, not a list page: the first 2,000 show the pattern. Measured
/// (`ITEMS=160000 cargo run --release --example pathological list-items`):
/// without it, 160,000 identical items take 7.2 s and 400 MB.
pub const MAX_CHILDREN: u32 = 2_000;

/// Suggested cap for [`flatten_capped`]. NOT applied by [`flatten`]: on
/// 1,000,000 identical list items, a sequence cut at 200,000 tokens
/// (mid-record) made suffix-array construction far slower (memcmp-bound,
/// 8.7 s at 41,000 items against 0.3 s uncut), so the cut needs a
/// record-aligned end or another suffix sorter first (left for follow-up).
pub const MAX_TOKENS: usize = 200_000;

#[derive(Debug, Clone, Default)]
pub struct TagSequence {
    /// Token ids: [`TEXT`] or an index into `names`.
    pub tokens: Vec<u16>,
    /// Arena node of each token.
    pub nodes: Vec<NodeId>,
    /// Tag name of each token id (`names[0]` is `"<text>"`).
    pub names: Vec<String>,
    /// Bytes of visible (trimmed) text carried by each token; 0 for elements.
    pub text_bytes: Vec<u32>,
    /// `prefix_text[i]` = sum of `text_bytes[..i]`; length `tokens.len() + 1`.
    pub prefix_text: Vec<u64>,
    /// Token index of each arena node, `u32::MAX` for nodes without a token.
    pub token_of_node: Vec<u32>,
    /// Token index of each token's parent node (`u32::MAX` when the parent
    /// is the document root, which has no token).
    pub parent_token: Vec<u32>,
    /// Arena nodes after the [`MAX_TOKENS`] cut that got no token (0 when
    /// the whole page fitted).
    pub truncated_nodes: usize,
}

impl TagSequence {
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Visible text bytes of tokens `start..end`.
    pub fn text_in(&self, start: usize, end: usize) -> u64 {
        self.prefix_text[end] - self.prefix_text[start]
    }

    /// Total visible text bytes of the page.
    pub fn total_text(&self) -> u64 {
        self.prefix_text.last().copied().unwrap_or(0)
    }

    /// Name of a token id, for display.
    pub fn name(&self, token: u16) -> &str {
        &self.names[token as usize]
    }

    /// The tokens of a pattern, rendered like `<li><a><text>`.
    pub fn render(&self, tokens: &[u16]) -> String {
        tokens
            .iter()
            .map(|&t| {
                if t == TEXT {
                    "<text>".to_string()
                } else {
                    format!("<{}>", self.name(t))
                }
            })
            .collect()
    }
}

/// Flatten the whole arena into its tag sequence.
pub fn flatten(doc: &Document) -> TagSequence {
    flatten_capped(doc, usize::MAX)
}

/// [`flatten`] with an explicit token cap: nodes past the `max_tokens`-th
/// token get none (`token_of_node` stays `u32::MAX`).
pub fn flatten_capped(doc: &Document, max_tokens: usize) -> TagSequence {
    let mut seq = TagSequence {
        names: vec!["<text>".to_string()],
        token_of_node: vec![u32::MAX; doc.nodes.len()],
        ..TagSequence::default()
    };
    // Keyed by the interned name: hashing it reads no string.
    let mut ids: HashMap<&Name, u16> = HashMap::default();
    seq.prefix_text.push(0);
    // Per node: token children seen so far, and whether it was left out.
    let mut children = vec![0u32; doc.nodes.len()];
    let mut left_out = vec![false; doc.nodes.len()];
    let mut wide_cut = 0usize;
    for (i, node) in doc.nodes.iter().enumerate() {
        let is_token = matches!(
            node.data,
            NodeData::Element(_) | NodeData::Text { blank: false, .. }
        );
        if let Some(p) = node.parent.map(|p| p as usize) {
            if left_out.get(p).copied().unwrap_or(false) {
                left_out[i] = true;
                continue;
            }
            if is_token {
                children[p] += 1;
                if children[p] > MAX_CHILDREN {
                    left_out[i] = true;
                    wide_cut += 1;
                    continue;
                }
            }
        }
        if seq.tokens.len() >= max_tokens {
            seq.truncated_nodes = doc.nodes.len() - i;
            tracing::warn!(
                max_tokens,
                left_out = seq.truncated_nodes,
                "page has more tags than the miner takes; the rest is not mined"
            );
            break;
        }
        let (token, bytes) = match &node.data {
            NodeData::Element(e) => {
                let next = seq.names.len();
                let id = *ids.entry(&e.name).or_insert_with(|| {
                    if next < MAX_DISTINCT_TAGS {
                        seq.names.push(e.name.to_string());
                        next as u16
                    } else {
                        (MAX_DISTINCT_TAGS - 1) as u16
                    }
                });
                (id, 0u32)
            }
            NodeData::Text { text, blank: false } => (
                TEXT,
                u32::try_from(trim_text(text).len()).unwrap_or(u32::MAX),
            ),
            _ => continue,
        };
        let parent_token = node
            .parent
            .map(|p| seq.token_of_node[p as usize])
            .unwrap_or(u32::MAX);
        seq.parent_token.push(parent_token);
        seq.token_of_node[i] = seq.tokens.len() as u32;
        seq.tokens.push(token);
        seq.nodes.push(i as NodeId);
        seq.text_bytes.push(bytes);
        let last = seq.prefix_text.last().copied().unwrap_or(0);
        seq.prefix_text.push(last + u64::from(bytes));
    }
    if wide_cut > 0 {
        seq.truncated_nodes += wide_cut;
        tracing::warn!(
            max_children = MAX_CHILDREN,
            left_out = wide_cut,
            "an element has more children than the miner takes; the rest is not mined"
        );
    }
    seq
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    #[test]
    fn a_huge_list_is_cut_at_a_record_boundary() {
        // Regression: 160,000 list items took 7 s in the miner and records
        // widening; only the first MAX_CHILDREN items are mined now.
        let n = MAX_CHILDREN as usize + 500;
        let html = format!(
            "<body><h1>All stories</h1><ul>{}</ul><p>Footer text</p></body>",
            "<li><a href='/s'>Same story</a> <span>2026-11-01</span></li>".repeat(n)
        );
        let doc = parse(&html);
        let seq = flatten(&doc);
        let li = seq.names.iter().position(|n| n == "li").unwrap() as u16;
        assert_eq!(
            seq.tokens.iter().filter(|&&t| t == li).count(),
            MAX_CHILDREN as usize
        );
        // Whole records only: every kept <li> kept its <a>, text and <span>.
        let a = seq.names.iter().position(|n| n == "a").unwrap() as u16;
        assert_eq!(
            seq.tokens.iter().filter(|&&t| t == a).count(),
            MAX_CHILDREN as usize
        );
        // The footer after the list is still there.
        assert_eq!(seq.names.iter().filter(|n| *n == "p").count(), 1);
        assert!(seq.truncated_nodes >= 500);
        let page = crate::pipeline::analyze_list(
            &html,
            &url::Url::parse("https://example.com/").unwrap(),
            &crate::extract::patterns::MiningParams::default(),
            &crate::commands::default_date_context(),
        );
        assert_eq!(
            page.detection.winner().map(|g| g.records.len()),
            Some(MAX_CHILDREN as usize)
        );
    }

    #[test]
    fn flattens_in_preorder_with_text_tokens() {
        let doc = parse(
            "<body><ul><li><a href=x>One</a>\n <span>new</span></li><li><a>Two</a></li></ul>\
             <script>x()</script><!-- c --></body>",
        );
        let seq = flatten(&doc);
        let rendered = seq.render(&seq.tokens);
        assert_eq!(
            rendered,
            "<html><head><body><ul><li><a><text><span><text><li><a><text>"
        );
        // Every token points at the node it came from.
        for (t, &n) in seq.tokens.iter().zip(&seq.nodes) {
            match &doc.node(n).data {
                NodeData::Text { .. } => assert_eq!(*t, TEXT),
                NodeData::Element(e) => assert_eq!(seq.name(*t), e.name),
                NodeData::Document => panic!("root is not a token"),
            }
        }
        assert_eq!(
            seq.total_text(),
            ("One".len() + "new".len() + "Two".len()) as u64
        );
    }

    #[test]
    fn long_pages_are_cut_at_the_token_cap() {
        let html = format!("<ul>{}</ul>", "<li><a href=x>item</a></li>".repeat(1000));
        let doc = parse(&html);
        let full = flatten(&doc);
        assert_eq!(full.truncated_nodes, 0);
        let seq = flatten_capped(&doc, 100);
        assert_eq!(seq.len(), 100);
        assert_eq!(seq.tokens[..], full.tokens[..100]);
        assert_eq!(seq.prefix_text.len(), 101);
        let last_node = seq.nodes[99] as usize;
        assert_eq!(seq.truncated_nodes, doc.nodes.len() - last_node - 1);
        assert!(
            seq.token_of_node[last_node + 1..]
                .iter()
                .all(|&t| t == u32::MAX)
        );
    }
}
