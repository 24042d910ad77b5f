//! Tree building from the token list, backwards (paper 000 Fig. 1) and
//! forwards, and both together outwards from one text token (`Grower`).
//!
//! Invariants:
//! - Nodes live in one arena (`Tree::nodes`); a node's `children` are in
//!   document order once the node is complete (a node still open on the
//!   backward side keeps them reversed, see `Node::rev`).
//! - Both builders apply the same simplified HTML content model
//!   (`closes_omitted`): an element whose end tag was omitted (`p`, `li`,
//!   `td`, `tr`, `option`, …) ends where the forward parser of HTML would
//!   close it implicitly; void and self-closing tags are leaves; stray end
//!   tags are dropped (forward: ignored; backward: their node is dissolved
//!   into its parent when the stack is unwound). No implied `tbody`/`html`
//!   insertion, so on well-formed input both builders give the same tree.
//! - Only tokens in `bpos..fpos` have been turned into nodes: the share
//!   `nodes.len() / Tokens::node_count` is what "build only what is needed"
//!   saved.
//! - No recursion: every walk uses explicit stacks.

use super::tokenize::{TEXT, TagId, Token, TokenKind, is_void, tag};
use crate::extract::dom::tags;

/// Index of a node in `Tree::nodes`.
pub type NodeId = u32;
/// "No node" / "not yet known" marker for ids and token positions.
pub const NONE: u32 = u32::MAX;
/// Tag of the virtual document root.
pub const ROOT: TagId = TagId::MAX;

/// One element or text node.
#[derive(Clone, Debug)]
pub struct Node {
    /// Tag id, `TEXT` for text.
    pub tag: TagId,
    /// Token index of the start tag (or of the text token); `NONE` until the
    /// backward side has found it.
    pub start_tok: u32,
    /// Token index one past the element's last token; `NONE` until known.
    pub end_tok: u32,
    pub parent: NodeId,
    pub children: Vec<NodeId>,
    /// Children are stored in reverse order (open node on the backward side).
    pub rev: bool,
}

/// The arena; `root` is the outermost node built so far.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub root: NodeId,
}

impl Tree {
    fn add(&mut self, tag: TagId, start_tok: u32, end_tok: u32) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            tag,
            start_tok,
            end_tok,
            parent: NONE,
            children: Vec::new(),
            rev: false,
        });
        id
    }

    /// The node (callers only pass ids this tree handed out).
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Node count of the subtree at `id` (explicit stack).
    pub fn size(&self, id: NodeId) -> usize {
        let mut n = 0;
        let mut stack = vec![id];
        while let Some(x) = stack.pop() {
            n += 1;
            stack.extend(self.nodes[x as usize].children.iter().copied());
        }
        n
    }

    /// Indented outline (`tag` per line, `#text` for text), for tests and debugging.
    pub fn outline(&self, id: NodeId, names: &dyn Fn(TagId) -> String) -> String {
        let mut out = String::new();
        let mut stack = vec![(id, 0usize)];
        while let Some((x, depth)) = stack.pop() {
            let node = &self.nodes[x as usize];
            out.push_str(&"  ".repeat(depth));
            out.push_str(&names(node.tag));
            out.push('\n');
            let kids: Box<dyn Iterator<Item = &NodeId>> = if node.rev {
                Box::new(node.children.iter())
            } else {
                Box::new(node.children.iter().rev())
            };
            for &c in kids {
                stack.push((c, depth + 1));
            }
        }
        out
    }
}

/// How deep either builder looks into its stack for a tag to pair or close:
/// keeps absurdly deep pages linear (deeper matches are treated as absent).
const MAX_SEARCH: usize = 256;

/// Elements whose end tag HTML lets authors omit (closed implicitly).
pub fn end_omissible(t: TagId) -> bool {
    use tag::*;
    matches!(
        t,
        P | LI
            | DT
            | DD
            | TD
            | TH
            | TR
            | TBODY
            | THEAD
            | TFOOT
            | OPTION
            | OPTGROUP
            | HEAD
            | RT
            | RP
    )
}

/// Start tags that close an open `<p>` (HTML's "close a p element" list;
/// pages here are read as standards mode, where `table` closes it too).
fn closes_p(c: TagId) -> bool {
    tags::closes_p(c) || c == tag::TABLE
}

/// Does the start of element `c` end an open element `x` whose end tag was
/// omitted? The one content-model rule both builders share.
pub fn closes_omitted(x: TagId, c: TagId) -> bool {
    use tag::*;
    match x {
        P => closes_p(c),
        LI => c == LI,
        DT | DD => matches!(c, DT | DD),
        TD | TH => matches!(c, TD | TH | TR | TBODY | THEAD | TFOOT),
        TR => matches!(c, TR | TBODY | THEAD | TFOOT),
        TBODY | THEAD | TFOOT => matches!(c, TBODY | THEAD | TFOOT),
        OPTION => matches!(c, OPTION | OPTGROUP),
        OPTGROUP => c == OPTGROUP,
        HEAD => c == BODY,
        RT | RP => matches!(c, RT | RP),
        _ => false,
    }
}

/// Elements at which the forward search for an element to close implicitly stops.
fn scope_boundary(x: TagId) -> bool {
    use tag::*;
    matches!(
        x,
        TABLE
            | UL
            | OL
            | DL
            | SELECT
            | BUTTON
            | OBJECT
            | TEMPLATE
            | CAPTION
            | HTML
            | BODY
            | MENU
            | RUBY
    )
}

/// Both builders over one token list. Backward side: tokens `bpos-1, bpos-2,
/// …`; forward side: tokens `fpos, fpos+1, …`.
pub struct Grower<'t> {
    toks: &'t [Token],
    pub tree: Tree,
    /// Backward: next token to read is `bpos - 1`.
    bpos: usize,
    /// Backward end-tag stack (paper's EndTagStack); each entry is its open node.
    bstack: Vec<NodeId>,
    /// Collector of completed left siblings at the frontier (reversed children).
    btop: NodeId,
    /// The outermost subtree known (seed leaf, then ancestors); `NONE` when
    /// building the whole document backwards.
    inner: NodeId,
    /// Ancestors of the seed, innermost first.
    pub chain: Vec<NodeId>,
    /// Backward side reached the document start (the last chain entry is then a virtual root).
    pub exhausted: bool,
    /// Forward: next token to read.
    fpos: usize,
    /// Forward open elements, outermost first (bottom: unclosed ancestors).
    fstack: Vec<NodeId>,
}

impl<'t> Grower<'t> {
    /// Start outwards from text token `seed`.
    pub fn from_seed(toks: &'t [Token], seed: usize) -> Self {
        let mut tree = Tree::default();
        let leaf = tree.add(TEXT, seed as u32, seed as u32 + 1);
        let btop = tree.add(TEXT, NONE, NONE);
        tree.nodes[btop as usize].rev = true;
        tree.root = leaf;
        Grower {
            toks,
            tree,
            bpos: seed,
            bstack: Vec::new(),
            btop,
            inner: leaf,
            chain: Vec::new(),
            exhausted: false,
            fpos: seed + 1,
            fstack: Vec::new(),
        }
    }

    /// Nodes built so far (the collector excluded).
    pub fn nodes_built(&self) -> usize {
        self.tree.nodes.len().saturating_sub(1)
    }

    fn push_first_child(&mut self, parent: NodeId, child: NodeId) {
        // `parent` is open on the backward side: children reversed, so
        // "insert as first child" is a push.
        self.tree.nodes[child as usize].parent = parent;
        self.tree.nodes[parent as usize].children.push(child);
    }

    /// The node new backward content goes into (paper's ActiveNode).
    fn active(&self) -> NodeId {
        self.bstack.last().copied().unwrap_or(self.btop)
    }

    /// Complete a node that was open on the backward side.
    fn finish_backward(&mut self, id: NodeId, start_tok: u32) {
        let n = &mut self.tree.nodes[id as usize];
        n.children.reverse();
        n.rev = false;
        n.start_tok = start_tok;
    }

    /// Dissolve the backward-open node on top of the stack (a stray end tag or
    /// an element whose start tag is missing): its children move to its parent.
    fn dissolve_top(&mut self) {
        let Some(y) = self.bstack.pop() else { return };
        let parent = self.active();
        let kids = std::mem::take(&mut self.tree.nodes[y as usize].children);
        let pk = &mut self.tree.nodes[parent as usize].children;
        if pk.last() == Some(&y) {
            pk.pop();
        }
        for &k in &kids {
            self.tree.nodes[k as usize].parent = parent;
        }
        self.tree.nodes[parent as usize].children.extend(kids);
    }

    /// One step of the paper's Match(CurTag, EndTagStack, ActiveNode) for
    /// token `i`. Returns the new ancestor when the start tag of an ancestor
    /// of `inner` was found.
    fn backward_step(&mut self, i: usize) -> Option<NodeId> {
        let t = &self.toks[i];
        let active = self.active();
        match t.kind {
            TokenKind::Text => {
                let leaf = self.tree.add(TEXT, i as u32, i as u32 + 1);
                self.push_first_child(active, leaf);
                None
            }
            TokenKind::Start if t.self_closing || is_void(t.tag) => {
                let leaf = self.tree.add(t.tag, i as u32, i as u32 + 1);
                self.push_first_child(active, leaf);
                None
            }
            TokenKind::End => {
                if is_void(t.tag) {
                    return None; // `</br>` and the like: nothing to pair
                }
                let node = self.tree.add(t.tag, NONE, i as u32 + 1);
                self.tree.nodes[node as usize].rev = true;
                self.push_first_child(active, node);
                self.bstack.push(node);
                None
            }
            TokenKind::Start => {
                let tagid = t.tag;
                // Pairs with an end tag on the stack: unwind to it.
                let low = self.bstack.len().saturating_sub(MAX_SEARCH);
                if let Some(depth) = self.bstack[low..]
                    .iter()
                    .rposition(|&n| self.tree.nodes[n as usize].tag == tagid)
                    .map(|d| d + low)
                {
                    while self.bstack.len() > depth + 1 {
                        self.dissolve_top();
                    }
                    if let Some(n) = self.bstack.pop() {
                        self.finish_backward(n, i as u32);
                    }
                    return None;
                }
                // Omitted end tag: the element takes the leading run of the
                // active node's children it may contain (the paper's garbled
                // branch, done by the content model).
                let at_frontier = self.bstack.is_empty();
                let kids = &self.tree.nodes[active as usize].children; // reversed
                let mut take = 0;
                while take < kids.len() {
                    let ct = self.tree.nodes[kids[kids.len() - 1 - take] as usize].tag;
                    if ct != TEXT && end_omissible(tagid) && closes_omitted(tagid, ct) {
                        break;
                    }
                    take += 1;
                }
                let all_taken = take == kids.len();
                let start = kids.len() - take;
                let inner_ok = self.inner != NONE && {
                    let it = self.tree.nodes[self.inner as usize].tag;
                    it == TEXT || !end_omissible(tagid) || !closes_omitted(tagid, it)
                };
                let node = self.tree.add(tagid, i as u32, NONE);
                let mut taken: Vec<NodeId> = self.tree.nodes[active as usize]
                    .children
                    .drain(start..)
                    .collect();
                taken.reverse();
                for &c in &taken {
                    self.tree.nodes[c as usize].parent = node;
                }
                if at_frontier && all_taken && inner_ok {
                    // An ancestor of `inner`: left part + inner (+ the right
                    // part, added by the forward side).
                    taken.push(self.inner);
                    self.tree.nodes[self.inner as usize].parent = node;
                    self.tree.nodes[node as usize].children = taken;
                    return Some(node);
                }
                // A completed sibling; its end is where its content stopped.
                let end = taken
                    .last()
                    .map_or(i as u32 + 1, |&c| self.tree.nodes[c as usize].end_tok);
                let n = &mut self.tree.nodes[node as usize];
                n.children = taken;
                n.end_tok = end;
                self.push_first_child(active, node);
                None
            }
        }
    }

    /// Read backwards until the next ancestor of `inner` is found; at the
    /// document start a virtual root becomes the last ancestor. False once
    /// nothing is left to discover.
    pub fn discover(&mut self) -> bool {
        if self.exhausted {
            return false;
        }
        while self.bpos > 0 {
            self.bpos -= 1;
            if let Some(anc) = self.backward_step(self.bpos) {
                self.adopt_ancestor(anc);
                return true;
            }
        }
        // Document start: leftovers on the stack were stray end tags.
        while !self.bstack.is_empty() {
            self.dissolve_top();
        }
        let root = self.tree.add(ROOT, 0, NONE);
        let mut kids = std::mem::take(&mut self.tree.nodes[self.btop as usize].children);
        kids.reverse();
        for &c in &kids {
            self.tree.nodes[c as usize].parent = root;
        }
        if self.inner != NONE {
            kids.push(self.inner);
            self.tree.nodes[self.inner as usize].parent = root;
        }
        self.tree.nodes[root as usize].children = kids;
        self.adopt_ancestor(root);
        self.exhausted = true;
        true
    }

    fn adopt_ancestor(&mut self, anc: NodeId) {
        self.chain.push(anc);
        self.inner = anc;
        self.tree.root = anc;
        // Outermost open element of the forward side.
        self.fstack.insert(0, anc);
    }

    fn close_top(&mut self, end_tok: u32) {
        if let Some(n) = self.fstack.pop() {
            let node = &mut self.tree.nodes[n as usize];
            if node.end_tok == NONE {
                node.end_tok = end_tok;
            }
        }
    }

    /// One forward token (ordinary tree building). False at the document end.
    pub fn forward_step(&mut self) -> bool {
        if self.fpos >= self.toks.len() {
            while !self.fstack.is_empty() {
                self.close_top(self.toks.len() as u32);
            }
            return false;
        }
        if self.fstack.is_empty() && !self.discover() {
            return false;
        }
        let i = self.fpos;
        let t = &self.toks[i];
        match t.kind {
            TokenKind::Text => {
                let leaf = self.tree.add(TEXT, i as u32, i as u32 + 1);
                self.append(leaf);
            }
            TokenKind::End => {
                let tagid = t.tag;
                if is_void(tagid) {
                    self.fpos += 1;
                    return true;
                }
                let low = self.fstack.len().saturating_sub(MAX_SEARCH);
                let found = self.fstack[low..]
                    .iter()
                    .rposition(|&n| self.tree.nodes[n as usize].tag == tagid)
                    .map(|d| d + low);
                match found {
                    Some(d) => {
                        while self.fstack.len() > d + 1 {
                            self.close_top(i as u32);
                        }
                        self.close_top(i as u32 + 1);
                    }
                    // Maybe it ends an ancestor not discovered yet.
                    None if !self.exhausted => {
                        self.discover();
                        return true; // retry the same token
                    }
                    None => {} // stray end tag
                }
            }
            TokenKind::Start => {
                let tagid = t.tag;
                self.close_implied(tagid, i as u32);
                if self.fstack.is_empty() && !self.discover() {
                    return false;
                }
                let leafish = t.self_closing || is_void(tagid);
                let node =
                    self.tree
                        .add(tagid, i as u32, if leafish { i as u32 + 1 } else { NONE });
                self.append(node);
                if !leafish {
                    self.fstack.push(node);
                }
            }
        }
        self.fpos += 1;
        true
    }

    /// Close open elements that the start of `c` ends implicitly.
    fn close_implied(&mut self, c: TagId, at: u32) {
        loop {
            let mut target = None;
            let low = self.fstack.len().saturating_sub(MAX_SEARCH);
            for d in (low..self.fstack.len()).rev() {
                let x = self.tree.nodes[self.fstack[d] as usize].tag;
                if end_omissible(x) && closes_omitted(x, c) {
                    target = Some(d);
                    break;
                }
                if scope_boundary(x) {
                    break;
                }
            }
            let Some(d) = target else { return };
            while self.fstack.len() > d {
                self.close_top(at);
            }
        }
    }

    fn append(&mut self, child: NodeId) {
        if let Some(&parent) = self.fstack.last() {
            self.tree.nodes[child as usize].parent = parent;
            self.tree.nodes[parent as usize].children.push(child);
        }
    }

    /// Make sure ancestor `k` (0 = innermost) is known; false if there is none.
    pub fn ensure_ancestor(&mut self, k: usize) -> bool {
        while self.chain.len() <= k {
            if !self.discover() {
                return false;
            }
        }
        true
    }

    /// Make sure ancestor `k` is known and complete on both sides.
    pub fn ensure_complete(&mut self, k: usize) -> bool {
        if !self.ensure_ancestor(k) {
            return false;
        }
        let id = self.chain[k];
        while self.tree.nodes[id as usize].end_tok == NONE {
            if !self.forward_step() {
                break;
            }
        }
        true
    }
}

/// The whole document built backwards (Fig. 1); root is a virtual node.
pub fn build_backward(toks: &[Token]) -> Tree {
    let mut g = Grower::from_seed(toks, 0);
    // No seed: start past the last token with nothing inside.
    g.tree = Tree::default();
    let btop = g.tree.add(TEXT, NONE, NONE);
    g.tree.nodes[btop as usize].rev = true;
    g.btop = btop;
    g.inner = NONE;
    g.bpos = toks.len();
    g.fpos = toks.len();
    g.discover();
    let mut tree = g.tree;
    tree.root = g.chain.last().copied().unwrap_or(0);
    tree
}

/// The whole document built forwards (ordinary parser); root is a virtual node.
pub fn build_forward(toks: &[Token]) -> Tree {
    let mut tree = Tree::default();
    let root = tree.add(ROOT, 0, NONE);
    tree.root = root;
    let mut g = Grower {
        toks,
        tree,
        bpos: 0,
        bstack: Vec::new(),
        btop: root,
        inner: root,
        chain: vec![root],
        exhausted: true,
        fpos: 0,
        fstack: vec![root],
    };
    while g.forward_step() {}
    g.tree
}

#[cfg(test)]
mod tests {
    use super::super::tokenize::tokenize;
    use super::*;

    fn outline_of(src: &str, backward: bool) -> String {
        let toks = tokenize(src);
        let tree = if backward {
            build_backward(&toks.tokens)
        } else {
            build_forward(&toks.tokens)
        };
        tree.outline(tree.root, &|t| {
            if t == TEXT || t == ROOT {
                "#".to_string()
            } else {
                toks.name(t).to_string()
            }
        })
    }

    fn both(src: &str) -> String {
        let b = outline_of(src, true);
        let f = outline_of(src, false);
        assert_eq!(b, f, "backward and forward differ on {src}");
        b
    }

    #[test]
    fn well_formed_trees_agree() {
        let src = "<html><head><title>T</title></head><body><div id=a><p>one <b>two</b></p>\
                   <ul><li>x</li><li>y</li></ul></div><footer>f</footer></body></html>";
        let o = both(src);
        assert_eq!(
            o,
            "#\n  html\n    head\n      title\n        #\n    body\n      div\n        p\n          #\n          b\n            #\n        ul\n          li\n            #\n          li\n            #\n      footer\n        #\n"
        );
    }

    #[test]
    fn omitted_p_end_tags() {
        let o = both("<div><p>a<p>b <i>c</i><div>d</div></div>");
        assert_eq!(
            o,
            "#\n  div\n    p\n      #\n    p\n      #\n      i\n        #\n    div\n      #\n"
        );
    }

    #[test]
    fn omitted_li_end_tags() {
        let o = both("<ul><li>a<li>b<ul><li>c</ul><li>d</ul>");
        assert_eq!(
            o,
            "#\n  ul\n    li\n      #\n    li\n      #\n      ul\n        li\n          #\n    li\n      #\n"
        );
    }

    #[test]
    fn omitted_td_tr_option_end_tags() {
        let o = both("<table><tr><td>1<td>2<tr><td>3</table><select><option>a<option>b</select>");
        assert_eq!(
            o,
            "#\n  table\n    tr\n      td\n        #\n      td\n        #\n    tr\n      td\n        #\n  select\n    option\n      #\n    option\n      #\n"
        );
    }

    #[test]
    fn void_and_self_closing_are_leaves() {
        let o = both("<p>a<br>b<img src=x><input type=text><span/>c</p><hr><p>d");
        assert_eq!(
            o,
            "#\n  p\n    #\n    br\n    #\n    img\n    input\n    span\n    #\n  hr\n  p\n    #\n"
        );
    }

    #[test]
    fn stray_end_tags_are_dropped() {
        let o = both("<div>a</span>b</div></em>");
        assert_eq!(o, "#\n  div\n    #\n    #\n");
    }

    #[test]
    fn grower_builds_only_around_the_seed() {
        let mut src = String::from("<html><body><nav>");
        for i in 0..50 {
            src.push_str(&format!("<a href=/{i}>link {i}</a>"));
        }
        src.push_str(
            "</nav><article><p>first paragraph text here</p><p>second long paragraph</p></article>",
        );
        src.push_str("<footer>foot</footer></body></html>");
        let toks = tokenize(&src);
        let seed = toks
            .tokens
            .iter()
            .position(|t| src[t.span.start as usize..t.span.end as usize].starts_with("second"))
            .unwrap();
        let mut g = Grower::from_seed(&toks.tokens, seed);
        assert!(g.ensure_complete(1)); // p, then article
        let article = g.chain[1];
        assert_eq!(g.tree.node(article).tag, tag::ARTICLE);
        assert_eq!(g.tree.node(article).children.len(), 2);
        assert!(
            g.nodes_built() < toks.node_count / 3,
            "{} of {}",
            g.nodes_built(),
            toks.node_count
        );
        // Growing on reaches the body, whose children are nav, article, footer.
        assert!(g.ensure_complete(2));
        let body = g.chain[2];
        assert_eq!(g.tree.node(body).tag, tag::BODY);
        let kids: Vec<_> = g
            .tree
            .node(body)
            .children
            .iter()
            .map(|&c| g.tree.node(c).tag)
            .collect();
        assert_eq!(kids, vec![tag::NAV, tag::ARTICLE, tag::FOOTER]);
    }

    #[test]
    fn grower_matches_forward_tree_on_omitted_tags() {
        let src = "<body><ul><li>a<li>bb seed<b>x</b><li>c</ul><p>after</body>";
        let toks = tokenize(src);
        let seed = toks
            .tokens
            .iter()
            .position(|t| src[t.span.start as usize..t.span.end as usize].starts_with("bb"))
            .unwrap();
        let mut g = Grower::from_seed(&toks.tokens, seed);
        assert!(g.ensure_complete(1));
        let li = g.chain[0];
        let ul = g.chain[1];
        assert_eq!(g.tree.node(li).tag, tag::LI);
        assert_eq!(g.tree.node(li).children.len(), 2);
        assert_eq!(g.tree.node(ul).tag, tag::UL);
        assert_eq!(g.tree.node(ul).children.len(), 3);
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let src = "<div>".repeat(100_000) + "x" + &"</div>".repeat(100_000);
        let toks = tokenize(&src);
        let t = build_backward(&toks.tokens);
        assert_eq!(t.size(t.root), 100_002);
        let f = build_forward(&toks.tokens);
        assert_eq!(f.size(f.root), 100_002);
    }
}
