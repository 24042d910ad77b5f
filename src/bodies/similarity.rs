//! Subtree similarity, paper 000 Fig. 3.
//!
//! `Sim(A,B) = 0` if either is absent or the tag names differ; otherwise
//! `(2 + Σ_{a∈A.children} size(a)·max_j Sim(a,B_j) + Σ_{b∈B.children}
//! size(b)·max_i Sim(b,A_i)) / (size(A) + size(B))`, size = node count.
//!
//! Why the `size(·)` weights: the formula as printed (unweighted child terms)
//! gives `Sim(T,T) < 1` for any tree deeper than one level (x[c[d]] scores
//! 4/6), contradicting the paper's own statement that `Sim(T,T) = 1`;
//! weighting each child's best match by its subtree size restores that
//! property and keeps Sim in [0, 1]. Each pair (a, b) is evaluated once and
//! used for both sums (the matrix's row and column maxima).
//!
//! Invariants: result in [0, 1]; symmetric; never recurses deeper than
//! `MAX_DEPTH` nor evaluates more than the pair budget (both give 0 for what
//! they cut off, i.e. "not shown similar").

use super::tree::{NONE, NodeId, Tree};

const MAX_DEPTH: usize = 200;

/// Similarity computer over one tree with cached subtree sizes.
pub struct Similarity<'t> {
    tree: &'t Tree,
    sizes: Vec<u32>,
    budget: usize,
}

impl<'t> Similarity<'t> {
    /// `budget`: most node pairs one `sim` call may compare.
    pub fn new(tree: &'t Tree, budget: usize) -> Self {
        Similarity {
            tree,
            sizes: compute_sizes(tree),
            budget,
        }
    }

    /// Node count of the subtree at `id`.
    pub fn size(&self, id: NodeId) -> usize {
        self.sizes.get(id as usize).copied().unwrap_or(0) as usize
    }

    /// Sim(a, b) of Fig. 3 (with the size weights, see the module header).
    pub fn sim(&self, a: NodeId, b: NodeId, budget_override: Option<usize>) -> f64 {
        let mut left = budget_override.unwrap_or(self.budget);
        self.rec(a, b, 0, &mut left)
    }

    fn rec(&self, a: NodeId, b: NodeId, depth: usize, left: &mut usize) -> f64 {
        if a == NONE || b == NONE {
            return 0.0;
        }
        let (na, nb) = (self.tree.node(a), self.tree.node(b));
        if na.tag != nb.tag || depth > MAX_DEPTH || *left == 0 {
            return 0.0;
        }
        *left -= 1;
        let (ac, bc) = (&na.children, &nb.children);
        let mut row_max = vec![0.0f64; ac.len()];
        let mut col_max = vec![0.0f64; bc.len()];
        for (i, &x) in ac.iter().enumerate() {
            let xt = self.tree.node(x).tag;
            for (j, &y) in bc.iter().enumerate() {
                if self.tree.node(y).tag != xt {
                    continue;
                }
                let s = self.rec(x, y, depth + 1, left);
                if s > row_max[i] {
                    row_max[i] = s;
                }
                if s > col_max[j] {
                    col_max[j] = s;
                }
            }
        }
        let mut score = 2.0;
        for (i, &x) in ac.iter().enumerate() {
            score += row_max[i] * self.size(x) as f64;
        }
        for (j, &y) in bc.iter().enumerate() {
            score += col_max[j] * self.size(y) as f64;
        }
        score / (self.size(a) + self.size(b)) as f64
    }
}

/// Subtree sizes for every node reachable from the root (post-order, explicit stack).
fn compute_sizes(tree: &Tree) -> Vec<u32> {
    let mut sizes = vec![0u32; tree.nodes.len()];
    if tree.nodes.is_empty() {
        return sizes;
    }
    let mut stack = vec![(tree.root, false)];
    while let Some((id, done)) = stack.pop() {
        let node = tree.node(id);
        if done {
            let s: u32 = 1 + node
                .children
                .iter()
                .map(|&c| sizes[c as usize])
                .sum::<u32>();
            sizes[id as usize] = s;
        } else {
            stack.push((id, true));
            stack.extend(node.children.iter().map(|&c| (c, false)));
        }
    }
    sizes
}

#[cfg(test)]
mod tests {
    use super::super::tokenize::tokenize;
    use super::super::tree::build_forward;
    use super::*;

    fn sim_of_children(src: &str) -> Vec<f64> {
        // Similarity of the root's first child with each of its children.
        let toks = tokenize(src);
        let tree = build_forward(&toks.tokens);
        let s = Similarity::new(&tree, 1_000_000);
        let kids = &tree.node(tree.root).children;
        kids.iter().map(|&k| s.sim(kids[0], k, None)).collect()
    }

    #[test]
    fn identical_trees_score_one_and_different_tags_zero() {
        let v = sim_of_children(
            "<div><p>a<b>x</b></p><ul><li>1</li></ul></div>\
             <div><p>a<b>x</b></p><ul><li>1</li></ul></div>\
             <section><p>a</p></section>",
        );
        assert!((v[0] - 1.0).abs() < 1e-12);
        assert!((v[1] - 1.0).abs() < 1e-12);
        assert_eq!(v[2], 0.0);
    }

    #[test]
    fn paragraph_lists_are_similar_and_link_lists_are_not() {
        // Two article sections made of paragraphs vs one made of a link list.
        let v = sim_of_children(
            "<div><p>a</p><p>b<i>c</i></p><p>d</p></div>\
             <div><p>e</p><p>f</p><p>g</p><p>h</p></div>\
             <div><ul><li><a>x</a></li><li><a>y</a></li></ul></div>",
        );
        assert!(v[1] >= 0.8, "{v:?}");
        assert!(v[2] < 0.3, "{v:?}");
    }

    #[test]
    fn symmetric_and_bounded() {
        let toks = tokenize("<div><p>a</p><p>b</p></div><div><p>c</p><span>d</span></div>");
        let tree = build_forward(&toks.tokens);
        let s = Similarity::new(&tree, 1_000_000);
        let k = &tree.node(tree.root).children;
        let (ab, ba) = (s.sim(k[0], k[1], None), s.sim(k[1], k[0], None));
        assert!((ab - ba).abs() < 1e-12);
        assert!(ab > 0.0 && ab < 1.0);
    }
}
