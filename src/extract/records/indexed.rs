//! Lists captioned by their own index: a game page's "Development log"
//! heading links `/game/devlog`, and each post it lists lives under
//! `/game/devlog/…`; a "View all" caption names the list's home. Such a
//! caption says the records are the site's own posts, listed in full
//! elsewhere, and the list gains on the ranking over one it would lose to
//! on text alone (the comments under the page, four chatty records
//! against three bare titles).
//!
//! Invariants: reads only the list's caption as [`super::aside::caption_of`]
//! finds it, the links of that one caption, and one headline link
//! per record.

use crate::extract::dom::{Document, NodeId};

use super::Record;
use super::short::is_link;
use super::straggler::{headline_href, host_and_path, path_of};

/// Factor on the score of a group captioned by its own index.
pub(super) const INDEX_BONUS: f64 = 1.5;

/// True when a link in a list's `caption` ([`caption_of`]) is the
/// index of most of its `records`: a page under which more than half of
/// their headline links lie.
pub(super) fn indexes(doc: &Document, caption: NodeId, records: &[Record]) -> bool {
    let end = doc.node(caption).end;
    let hrefs: Vec<&str> = (caption..end)
        .filter(|&i| is_link(doc, i))
        .filter_map(|i| doc.element(i)?.attr("href"))
        .collect();
    hrefs.iter().any(|&index| {
        let under = records
            .iter()
            .filter_map(|r| headline_href(doc, r))
            .filter(|href| lies_under(href, index))
            .count();
        under * 2 > records.len()
    })
}

/// True when `href` is a page below `index` on its host: `/log/12/a-post`
/// below `/log` or `/log/`, never below the site's root.
fn lies_under(href: &str, index: &str) -> bool {
    let (host, path) = host_and_path(index);
    let dir = path_of(path).trim_end_matches('/');
    if dir.is_empty() {
        return false;
    }
    let (their_host, their_path) = host_and_path(href);
    their_host.eq_ignore_ascii_case(host)
        && their_path
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/') && rest.len() > 1)
}

#[cfg(test)]
mod tests {
    use super::lies_under;
    use crate::extract::records::detect_html;

    #[test]
    fn a_page_lies_under_its_index_on_the_same_host() {
        assert!(lies_under("/game/devlog/81/patch-1-4", "/game/devlog"));
        assert!(lies_under(
            "https://studio.example/game/devlog/81/patch",
            "https://Studio.example/game/devlog/"
        ));
        assert!(!lies_under("/game/devlog", "/game/devlog"));
        assert!(!lies_under("/game/devlogs/81", "/game/devlog"));
        assert!(!lies_under(
            "https://other.example/game/devlog/81",
            "/game/devlog"
        ));
        assert!(!lies_under("/game/devlog/81", "/"));
    }

    /// Regression (a game's store page): its "Development log" of three
    /// posts, captioned by a link to the log, lost to the four comments
    /// under the page, which say more.
    #[test]
    fn a_list_captioned_by_its_index_beats_chattier_comments() {
        let post = |i: usize| {
            format!(
                "<li><a class=title href='/game/devlog/{i}/post-{i}'>Devlog post number {i}</a>\
                 <abbr title='2{i} November 2026'>Nov 2{i}, 2026</abbr></li>"
            )
        };
        let comment = |i: usize| {
            format!(
                "<div class=comment><a href='/user/{i}'>Player {i}</a> <span>{i} days ago</span>\
                 <p>The storms in chapter two are still the best part of the game for me.</p>\
                 <a href='/post/90{i}'>Reply</a></div>"
            )
        };
        let caption = |h: &str| {
            let posts: String = (1..4).map(post).collect();
            let comments: String = (1..5).map(comment).collect();
            format!(
                "<body><main><section class=devlog><h2>{h}</h2><ul class=posts>{posts}</ul></section>\
                 <section class=comments><h2>Comments</h2><div class=list>{comments}</div></section></main></body>"
            )
        };
        let first_link = |html: &str| {
            let (doc, det) = detect_html(html);
            let g = det.winner().expect("a winner");
            (g.records[0].start..g.records[0].end)
                .find_map(|i| doc.element(i).filter(|e| e.name == "a")?.attr("href"))
                .map(str::to_owned)
        };
        let indexed = caption("<a href='/game/devlog'>Development log</a>");
        assert_eq!(
            first_link(&indexed).as_deref(),
            Some("/game/devlog/1/post-1")
        );
        let plain = caption("Development log");
        assert_eq!(first_link(&plain).as_deref(), Some("/user/1"));
    }
}
