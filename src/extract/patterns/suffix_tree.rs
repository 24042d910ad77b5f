//! Repeated patterns of a token sequence as the internal nodes of its suffix
//! tree, computed as LCP intervals of a suffix array (paper 001 §2).
//!
//! The `suffix` crate builds the array in O(n) (SA-IS) but over UTF-8 bytes,
//! so each token id is mapped to one character: an ASCII byte when every id
//! is below 128 (nearly every page), otherwise a 3-byte private-use
//! character (`U+E000 + id`) whose byte positions divisible by 3 are
//! exactly the token suffixes, in the same order. Its `lcp_lens()` is
//! quadratic and counts bytes, so the LCP array is computed here with
//! Kasai's algorithm (O(n)), and the intervals are enumerated bottom-up
//! with a stack (O(n)).
//!
//! Invariants: `sa` is a permutation of `0..n`; `lcp[i]` is the longest
//! common prefix of suffixes `sa[i-1]` and `sa[i]` (`lcp[0] = 0`); every
//! interval has `len > 0` and at least two suffixes (`lb < rb`), and its
//! instances are `sa[lb..=rb]` (unsorted).

/// First private-use code point; token ids are added to it.
const ALPHABET_BASE: u32 = 0xE000;

/// An internal node of the suffix tree: the pattern is the first `len`
/// tokens of any suffix in `sa[lb..=rb]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LcpInterval {
    pub len: u32,
    pub lb: u32,
    pub rb: u32,
}

impl LcpInterval {
    /// Number of occurrences (leaves under the node).
    pub fn count(&self) -> usize {
        (self.rb - self.lb + 1) as usize
    }
}

/// Suffix array of a token sequence (token ids must stay below 6,400 so
/// they map into the private-use block).
pub fn suffix_array(tokens: &[u16]) -> Vec<u32> {
    if tokens.is_empty() {
        return Vec::new();
    }
    // A page with fewer than 128 distinct tags (nearly all) maps each token
    // to one ASCII byte: the same order, a third of the text to sort.
    if tokens.iter().all(|&t| t < 0x80) {
        let text: String = tokens.iter().map(|&t| char::from(t as u8)).collect();
        return suffix::SuffixTable::new(text).table().to_vec();
    }
    let text: String = tokens
        .iter()
        .map(|&t| char::from_u32(ALPHABET_BASE + u32::from(t.min(6_399))).unwrap_or('\u{E000}'))
        .collect();
    let table = suffix::SuffixTable::new(text);
    table
        .table()
        .iter()
        .filter(|&&p| p % 3 == 0)
        .map(|&p| p / 3)
        .collect()
}

/// Kasai et al.: LCP array in O(n). `lcp[i]` = LCP(sa[i-1], sa[i]), `lcp[0] = 0`.
pub fn lcp_array(tokens: &[u16], sa: &[u32]) -> Vec<u32> {
    let n = tokens.len();
    let mut rank = vec![0u32; n];
    for (i, &p) in sa.iter().enumerate() {
        rank[p as usize] = i as u32;
    }
    let mut lcp = vec![0u32; n];
    let mut h = 0usize;
    for p in 0..n {
        let r = rank[p] as usize;
        if r == 0 {
            h = 0;
            continue;
        }
        let q = sa[r - 1] as usize;
        while p + h < n && q + h < n && tokens[p + h] == tokens[q + h] {
            h += 1;
        }
        lcp[r] = h as u32;
        h = h.saturating_sub(1);
    }
    lcp
}

/// All LCP intervals with `len > 0` (the suffix tree's internal nodes, root
/// excluded), children before parents.
pub fn lcp_intervals(lcp: &[u32]) -> Vec<LcpInterval> {
    let mut out = Vec::new();
    // Stack of (lcp value, left bound).
    let mut stack: Vec<(u32, u32)> = vec![(0, 0)];
    // The sentinel 0 after the last entry closes every open interval.
    for (i, &cur) in lcp.iter().chain(std::iter::once(&0)).enumerate().skip(1) {
        let mut lb = (i - 1) as u32;
        while let Some(&(top_len, top_lb)) = stack.last() {
            if cur >= top_len {
                break;
            }
            stack.pop();
            out.push(LcpInterval {
                len: top_len,
                lb: top_lb,
                rb: (i - 1) as u32,
            });
            lb = top_lb;
        }
        if stack.last().is_none_or(|&(top_len, _)| cur > top_len) {
            stack.push((cur, lb));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_sa(t: &[u16]) -> Vec<u32> {
        let mut sa: Vec<u32> = (0..t.len() as u32).collect();
        sa.sort_by(|&a, &b| t[a as usize..].cmp(&t[b as usize..]));
        sa
    }

    fn patterns(t: &[u16]) -> Vec<(Vec<u16>, Vec<u32>)> {
        let sa = suffix_array(t);
        let lcp = lcp_array(t, &sa);
        let mut v: Vec<(Vec<u16>, Vec<u32>)> = lcp_intervals(&lcp)
            .into_iter()
            .map(|iv| {
                let p = sa[iv.lb as usize] as usize;
                let mut occ: Vec<u32> = sa[iv.lb as usize..=iv.rb as usize].to_vec();
                occ.sort_unstable();
                (t[p..p + iv.len as usize].to_vec(), occ)
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn suffix_array_matches_naive_on_small_alphabets_with_token_zero() {
        // Token 0 (`<text>`) becomes the NUL byte on the one-byte path.
        let t: Vec<u16> = vec![3, 0, 7, 3, 0, 7, 0, 0, 127, 3, 0, 1, 0];
        assert_eq!(suffix_array(&t), naive_sa(&t));
        // Repetitive sequences over a few tags, as list pages are.
        let mut rng = fastrand::Rng::with_seed(16);
        for _ in 0..200 {
            let alphabet = rng.u16(1..6);
            let t: Vec<u16> = (0..rng.usize(1..300))
                .map(|_| rng.u16(0..alphabet))
                .collect();
            assert_eq!(suffix_array(&t), naive_sa(&t), "{t:?}");
        }
    }

    #[test]
    fn suffix_array_matches_naive_on_token_ids_beyond_ascii() {
        let t: Vec<u16> = vec![300, 2, 300, 2, 5, 0, 300, 2, 300, 4000, 0, 1];
        assert_eq!(suffix_array(&t), naive_sa(&t));
    }

    #[test]
    fn kasai_matches_definition() {
        let t: Vec<u16> = vec![1, 2, 3, 1, 2, 3, 1, 2, 4, 1];
        let sa = suffix_array(&t);
        let lcp = lcp_array(&t, &sa);
        for i in 1..t.len() {
            let (a, b) = (&t[sa[i - 1] as usize..], &t[sa[i] as usize..]);
            let l = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            assert_eq!(lcp[i] as usize, l);
        }
    }

    #[test]
    fn intervals_are_the_repeated_patterns_abcabcabc() {
        // a=1 b=2 c=3: internal nodes of abcabcabc are abcabc, abc, bcabc,
        // bc, cabc, c (the paper's §3.2 example).
        let t = [1, 2, 3, 1, 2, 3, 1, 2, 3];
        let got = patterns(&t);
        let want: Vec<(Vec<u16>, Vec<u32>)> = vec![
            (vec![1, 2, 3], vec![0, 3, 6]),
            (vec![1, 2, 3, 1, 2, 3], vec![0, 3]),
            (vec![2, 3], vec![1, 4, 7]),
            (vec![2, 3, 1, 2, 3], vec![1, 4]),
            (vec![3], vec![2, 5, 8]),
            (vec![3, 1, 2, 3], vec![2, 5]),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn empty_and_single_token() {
        assert!(suffix_array(&[]).is_empty());
        assert!(lcp_intervals(&lcp_array(&[7], &suffix_array(&[7]))).is_empty());
    }
}
