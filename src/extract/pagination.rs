//! Where a list continues: the "next page" link of a list page, for
//! `pages = N`. Tried in order of reliability:
//! 1. `<link rel="next">` (HTML head, as search engines are told);
//! 2. `<a rel="next">`;
//! 3. a link whose text or `aria-label` says "next" in one of the common
//!    wordings ("Next", "Older posts", "下一页", "次へ", "Nächste", …);
//! 4. the page-number link one past the current page (`?page=N`, `?p=N`,
//!    `?paged=N`, `/page/N/`), when the page links to it.
//!
//! Invariant: the next page is on the current page's host and is not the
//! current page itself; whether its records match the first page's pattern
//! is for the caller to check (this module only reads links).

use url::Url;

use crate::extract::dom::{Document, NodeId};
use crate::extract::items;

/// How the next page was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextHow {
    LinkRelNext,
    AnchorRelNext,
    Text,
    PageNumber,
}

/// The next page of a list.
#[derive(Debug, Clone, PartialEq)]
pub struct NextPage {
    pub url: Url,
    pub how: NextHow,
}

/// Link texts (lower-case, arrows and punctuation removed) that mean "the
/// next page of this list".
const NEXT_WORDS: &[&str] = &[
    "next",
    "next page",
    "next posts",
    "older",
    "older posts",
    "older entries",
    "older articles",
    "more posts",
    "load more",
    "下一页",
    "下页",
    "下一頁",
    "次へ",
    "次のページ",
    "nächste",
    "nächste seite",
    "weiter",
    "ältere beiträge",
    "suivant",
    "page suivante",
    "siguiente",
    "página siguiente",
    "successivo",
    "successiva",
    "volgende",
    "próxima",
    "следующая",
    "далее",
    "다음",
];

/// Query parameters that carry a page number.
const PAGE_PARAMS: &[&str] = &["page", "p", "paged", "pg"];

/// The next page after `current` (the page's final URL), links resolved
/// against `base`.
pub fn next_page(doc: &Document, base: &Url, current: &Url) -> Option<NextPage> {
    let ok = |u: &Url| u.host_str() == current.host_str() && !same_page(u, current);
    let links: Vec<(NodeId, Url)> = (0..doc.nodes.len() as NodeId)
        .filter_map(|id| {
            let el = doc.element(id)?;
            if el.name != "a" && el.name != "link" {
                return None;
            }
            let url = items::resolve(base, el.attr("href")?)?;
            ok(&url).then_some((id, url))
        })
        .collect();
    let rel_next = |id: NodeId| {
        doc.element(id)
            .and_then(|e| e.attr("rel"))
            .is_some_and(|r| {
                r.split_ascii_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("next"))
            })
    };
    let find = |how: NextHow, pick: &dyn Fn(NodeId, &Url) -> bool| {
        links
            .iter()
            .find(|(id, url)| pick(*id, url))
            .map(|(_, url)| NextPage {
                url: url.clone(),
                how,
            })
    };
    find(NextHow::LinkRelNext, &|id, _| {
        doc.is_tag(id, "link") && rel_next(id)
    })
    .or_else(|| {
        find(NextHow::AnchorRelNext, &|id, _| {
            doc.is_tag(id, "a") && rel_next(id)
        })
    })
    .or_else(|| {
        find(NextHow::Text, &|id, _| {
            doc.is_tag(id, "a") && says_next(doc, id)
        })
    })
    .or_else(|| {
        let want = page_number(current).unwrap_or(1) + 1;
        find(NextHow::PageNumber, &|id, url| {
            doc.is_tag(id, "a") && page_number(url) == Some(want)
        })
    })
}

/// Does the anchor's text or `aria-label` say "next"?
fn says_next(doc: &Document, id: NodeId) -> bool {
    let label = doc.element(id).and_then(|e| e.attr("aria-label"));
    let text = doc.text(id);
    [Some(text.as_str()), label]
        .into_iter()
        .flatten()
        .any(is_next_wording)
}

fn is_next_wording(text: &str) -> bool {
    let trimmed = text.trim();
    if matches!(trimmed, "›" | "»" | "→" | ">" | "⟩") {
        return true;
    }
    let words: String = trimmed
        .chars()
        .filter(|c| !"›»→>«‹←<…-–—|".contains(*c))
        .collect::<String>()
        .to_lowercase();
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    NEXT_WORDS.contains(&words.as_str())
}

/// The page number a URL names, if any (`?page=3`, `/page/3/`).
pub fn page_number(url: &Url) -> Option<u32> {
    let from_query = url
        .query_pairs()
        .find(|(k, _)| PAGE_PARAMS.contains(&k.as_ref()))
        .and_then(|(_, v)| v.parse().ok());
    from_query.or_else(|| {
        let segs: Vec<&str> = url.path_segments()?.filter(|s| !s.is_empty()).collect();
        segs.windows(2)
            .rev()
            .find(|w| w[0] == "page")
            .and_then(|w| w[1].parse().ok())
    })
}

fn same_page(a: &Url, b: &Url) -> bool {
    let strip = |u: &Url| {
        let mut u = u.clone();
        u.set_fragment(None);
        u.as_str().trim_end_matches('/').to_string()
    };
    strip(a) == strip(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom;

    fn next(html: &str, current: &str) -> Option<(String, NextHow)> {
        let doc = dom::parse(html);
        let current = Url::parse(current).unwrap();
        let base = items::base_url(&doc, &current);
        next_page(&doc, &base, &current).map(|n| (n.url.to_string(), n.how))
    }

    #[test]
    fn rel_next_wins_over_wording_and_numbers() {
        let html = r#"<html><head><link rel="next" href="/blog/page/2/"></head><body>
            <a href="/blog/?page=2">2</a><a href="/blog/older">Older posts</a></body></html>"#;
        assert_eq!(
            next(html, "https://blog.example.org/blog/"),
            Some((
                "https://blog.example.org/blog/page/2/".into(),
                NextHow::LinkRelNext
            ))
        );
        let html = r#"<nav><a rel="prev" href="?page=1">Prev</a><a rel="next nofollow" href="?page=3">›</a></nav>"#;
        assert_eq!(
            next(html, "https://shop.example.com/list?page=2"),
            Some((
                "https://shop.example.com/list?page=3".into(),
                NextHow::AnchorRelNext
            ))
        );
    }

    #[test]
    fn next_wordings_in_several_languages() {
        for (text, lang) in [
            ("Next »", "en"),
            ("Older posts", "en"),
            ("下一页", "zh"),
            ("次へ", "ja"),
            ("Nächste Seite →", "de"),
            ("Suivant", "fr"),
        ] {
            let html = format!(
                r#"<div class="pager"><a href="/archive?from=40">« Newer</a> <a href="/archive?from=20">{text}</a></div>"#
            );
            assert_eq!(
                next(&html, "https://news.example.com/archive"),
                Some((
                    "https://news.example.com/archive?from=20".into(),
                    NextHow::Text
                )),
                "{lang}: {text}"
            );
        }
        let html = r#"<a href="/about">About us</a><a aria-label="Next page" href="/list/p/2"><svg></svg></a>"#;
        assert_eq!(
            next(html, "https://jobs.example.com/list"),
            Some(("https://jobs.example.com/list/p/2".into(), NextHow::Text))
        );
    }

    #[test]
    fn page_numbers_one_past_the_current_page() {
        let html = r#"<ol class="pages"><li><a href="/forum/board?page=1">1</a></li>
            <li><a href="/forum/board?page=2">2</a></li><li><a href="/forum/board?page=3">3</a></li></ol>"#;
        assert_eq!(
            next(html, "https://forum.example.net/forum/board?page=2"),
            Some((
                "https://forum.example.net/forum/board?page=3".into(),
                NextHow::PageNumber
            ))
        );
        assert_eq!(
            next(html, "https://forum.example.net/forum/board"),
            Some((
                "https://forum.example.net/forum/board?page=2".into(),
                NextHow::PageNumber
            ))
        );
        let html = r#"<a href="/news/page/2/">2</a><a href="/news/page/3/">3</a>"#;
        assert_eq!(
            next(html, "https://example.org/news/"),
            Some((
                "https://example.org/news/page/2/".into(),
                NextHow::PageNumber
            ))
        );
    }

    #[test]
    fn other_hosts_the_page_itself_and_pageless_lists_give_nothing() {
        let html = r#"<a rel="next" href="https://other.example.com/page/2">Next</a>
            <a href="/blog/#top">Next</a><a href="/tags">More tags</a>"#;
        assert_eq!(next(html, "https://blog.example.org/blog/"), None);
    }
}
