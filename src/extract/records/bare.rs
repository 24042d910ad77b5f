//! Lists of bare links: a container whose children are nothing but links,
//! each a record (`<small id=trad><a>1: Title (345)</a><a>…</a>…`, as a
//! text board lists its threads, or an old page its articles, a `<br>`
//! after each).
//!
//! The paper's Rule 3 drops a pattern made of nothing but `<a>` and
//! `<text>`: it has no structure. So the miner never proposes such a list,
//! however long. A container of [`MIN_BARE_LINKS`] or more links and
//! nothing else (line breaks and separators aside), whose links say a
//! headline's worth each ([`MIN_MEDIAN_CHARS`]) and go to distinct pages,
//! shows itself anyway, and competes with the mined groups. Menus and tag
//! clouds say a word or two per link; a nav's links are chrome.
//!
//! Invariants: never inside `nav`, `aside`, or the page's `header` or
//! `footer`; records are the links themselves, in page order; one pass
//! over the arena (each node is looked at as the child of its parent).

use std::collections::HashSet;

use crate::extract::dom::{Document, NodeData, NodeId};

use super::RecordGroup;
use super::short::{in_chrome, is_link, known};

/// Fewest links a bare list holds: without structure, a list shows itself
/// by its length.
pub const MIN_BARE_LINKS: usize = 5;

/// Characters the median link of a bare list says at least: a headline,
/// not a menu's word.
pub const MIN_MEDIAN_CHARS: usize = 10;

/// Share of a bare list's links that go to addresses of their own.
const DISTINCT_HREFS: f64 = 0.9;

/// Longest text between two links that still separates them ("|", "・").
const MAX_SEPARATOR_CHARS: usize = 3;

/// The bare link lists of the page not already among `existing`.
pub(super) fn groups(doc: &Document, existing: &[RecordGroup]) -> Vec<RecordGroup> {
    (0..doc.nodes.len() as NodeId)
        .filter(|&id| doc.element(id).is_some())
        .filter_map(|id| Some((id, bare_links(doc, id)?)))
        .filter(|(id, links)| !in_chrome(doc, *id) && !known(existing, *id, links[0]))
        .map(|(id, links)| RecordGroup::of_elements(doc, id, "a", &links))
        .collect()
}

/// The links of `container` when it is a bare list (see the module
/// header).
fn bare_links(doc: &Document, container: NodeId) -> Option<Vec<NodeId>> {
    let mut links = Vec::new();
    for c in doc.children(container) {
        match &doc.node(c).data {
            NodeData::Element(e) if e.name == "br" || e.name == "wbr" => {}
            NodeData::Element(_) if is_link(doc, c) => links.push(c),
            NodeData::Text { blank: true, .. } => {}
            NodeData::Text { text, .. } if is_separator(text) => {}
            _ => return None,
        }
    }
    if links.len() < MIN_BARE_LINKS {
        return None;
    }
    let mut chars: Vec<usize> = links
        .iter()
        .map(|&a| doc.text(a).trim().chars().count())
        .collect();
    chars.sort_unstable();
    let hrefs: HashSet<&str> = links
        .iter()
        .filter_map(|&a| doc.element(a)?.attr("href"))
        .map(str::trim)
        .collect();
    let distinct = hrefs.len() as f64 >= DISTINCT_HREFS * links.len() as f64;
    (chars[chars.len() / 2] >= MIN_MEDIAN_CHARS && distinct).then_some(links)
}

/// A short text without letters or digits between two links.
fn is_separator(text: &str) -> bool {
    let t = text.trim();
    t.chars().count() <= MAX_SEPARATOR_CHARS && !t.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use crate::extract::records::detect_html;

    /// The winner's record texts.
    fn winner(html: &str) -> Vec<String> {
        let (doc, det) = detect_html(html);
        det.winner()
            .map(|g| {
                g.records
                    .iter()
                    .map(|r| doc.text_of_range(r.start, r.end).trim().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Regression (a text board's thread list): 40 threads, each a bare
    /// link in one container, gave nothing (Rule 3 drops a pattern of only
    /// links and text), and the board's rules box won.
    #[test]
    fn a_list_of_bare_links_is_a_list() {
        let threads: String = (1..=12)
            .map(|i| format!("<a href='/test/read.cgi/board/17096{i:05}/l50'>{i}: Thread number {i} about trains ({})</a>\n", i * 7))
            .collect();
        let html = format!(
            "<body><div class=rules><b>Rules</b><br>Be kind. Read the <a href='/faq'>FAQ</a> first, \
             and search before you post a new thread, please.</div>\
             <small id=trad>{threads}</small><div class=menu><a href='/a'>Home</a> | <a href='/b'>New</a> | \
             <a href='/c'>Help</a> | <a href='/d'>Rules</a> | <a href='/e'>Login</a></div></body>"
        );
        let got = winner(&html);
        assert_eq!(got.len(), 12, "{got:?}");
        assert_eq!(got[0], "1: Thread number 1 about trains (7)");
    }

    /// A menu of short links, and links with other elements between them,
    /// are no bare list.
    #[test]
    fn menus_and_mixed_children_are_no_bare_list() {
        let doc = crate::extract::dom::parse(
            "<div id=m><a href=/1>Home</a><a href=/2>News</a><a href=/3>Shop</a><a href=/4>Help</a>\
             <a href=/5>About</a><a href=/6>Login</a></div>\
             <div id=x><a href=/a/1>A long enough headline one</a><span>x</span>\
             <a href=/a/2>A long enough headline two</a><a href=/a/3>A long enough headline three</a>\
             <a href=/a/4>A long enough headline four</a><a href=/a/5>A long enough headline five</a></div>",
        );
        let by_id = |id: &str| {
            (0..doc.nodes.len() as super::NodeId)
                .find(|&i| doc.element(i).and_then(|e| e.attr("id")) == Some(id))
                .unwrap()
        };
        assert!(super::bare_links(&doc, by_id("m")).is_none());
        assert!(super::bare_links(&doc, by_id("x")).is_none());
    }
}
