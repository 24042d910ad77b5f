//! Sidebars and asides among a list's containers: a list mined across
//! cousin containers may reach from the page's content into its sidebar
//! column, or into a section of picks beside it. A planet's posts are the
//! `div`s of `div#content`, and `div#sidebar` beside it holds `div`s too
//! (its "Subscriptions" block of forty names once became a sixteenth
//! post); a news aggregator's "For you" section holds cards of the same
//! component as its headline clusters. Where some of a group's
//! containers are set apart (an element between them and their common
//! ancestor whose `id` or `class` names a sidebar: `sidebar`,
//! `l-sidebar`, `sidebar-left`; or a first child, or the heading right
//! before it, that is a caption saying what an aside's does, see `aside`:
//! a wiki's "See also" list after its day sections) and some are not,
//! those set apart are not the list's.
//!
//! Invariants: a group whose containers are all set apart, or none, is
//! left as it is, so a list that is itself a sidebar's stays one list.
//! Each container is read up to the containers' common ancestor, and the
//! text of at most its first child and of its caption.

use crate::extract::dom::{Document, NodeId};
use crate::extract::items::has_part;

/// What names a sidebar in an `id` or a class, as a part between `-` and
/// `_`.
const SIDEBAR_PARTS: &[&str] = &["sidebar"];

/// `containers` (in document order) without those set apart (see the
/// module header), when some of them are not.
pub(super) fn without_sidebars(doc: &Document, containers: &mut Vec<NodeId>) {
    let (Some(&first), Some(&last)) = (containers.first(), containers.last()) else {
        return;
    };
    if first == last {
        return;
    }
    let Some(common) = doc.ancestors(first).find(|&a| doc.contains(a, last)) else {
        return;
    };
    let marked: Vec<bool> = containers
        .iter()
        .map(|&c| in_sidebar(doc, c, common) || opens_with_aside(doc, c) || captioned_aside(doc, c))
        .collect();
    if marked.iter().all(|&m| m) || !marked.iter().any(|&m| m) {
        return;
    }
    let mut marks = marked.into_iter();
    containers.retain(|_| !marks.next().unwrap_or(false));
}

/// True when `container`'s first element is a caption that says what an
/// aside's does ("For you", "Recommended").
fn opens_with_aside(doc: &Document, container: NodeId) -> bool {
    doc.children(container)
        .find(|&c| doc.element(c).is_some())
        .is_some_and(|c| doc.is_caption(c) && super::aside::is_aside_caption(doc, c))
}

/// True when `container`'s caption, the heading right before it, says
/// what an aside's does: a wiki's "See also" list after the day sections
/// of its latest news.
fn captioned_aside(doc: &Document, container: NodeId) -> bool {
    super::aside::caption_of(doc, container).is_some_and(|c| super::aside::is_aside_caption(doc, c))
}

/// True when `id`, or an ancestor of it below `common`, names a sidebar.
fn in_sidebar(doc: &Document, id: NodeId, common: NodeId) -> bool {
    std::iter::once(id)
        .chain(doc.ancestors(id))
        .take_while(|&a| a != common)
        .any(|a| {
            doc.element(a).is_some_and(|e| {
                let names = e.attr("id").into_iter().chain(e.attr("class"));
                names
                    .into_iter()
                    .any(|n| has_part(n.split_ascii_whitespace(), b"-_", SIDEBAR_PARTS))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom;

    fn containers_of(html: &str, ids: &[&str]) -> (Document, Vec<NodeId>) {
        let doc = dom::parse(html);
        let found = ids
            .iter()
            .filter_map(|id| {
                (0..doc.nodes.len() as NodeId)
                    .find(|&i| doc.element(i).and_then(|e| e.attr("id")) == Some(id))
            })
            .collect();
        (doc, found)
    }

    #[test]
    fn a_sidebar_column_is_no_part_of_the_content_list() {
        let html = "<div id=page><div id=content><div class=entry>a</div></div>\
                    <div id=sidebar><div class=block>b</div></div>\
                    <div id=extra><div class=entry>c</div></div></div>";
        let (doc, mut containers) = containers_of(html, &["content", "sidebar", "extra"]);
        without_sidebars(&doc, &mut containers);
        let ids: Vec<&str> = containers
            .iter()
            .filter_map(|&c| doc.element(c).and_then(|e| e.attr("id")))
            .collect();
        assert_eq!(ids, ["content", "extra"]);
    }

    #[test]
    fn a_section_of_picks_is_no_part_of_the_headlines() {
        let html = "<main><section class=s id=top><h2>Headlines</h2><div class=c>a</div></section>\
                    <section class=s id=picks><h2>For you</h2><div class=c>b</div></section></main>";
        let (doc, mut containers) = containers_of(html, &["top", "picks"]);
        without_sidebars(&doc, &mut containers);
        assert_eq!(containers.len(), 1);
        assert_eq!(
            doc.element(containers[0]).and_then(|e| e.attr("id")),
            Some("top")
        );
    }

    #[test]
    fn lists_all_in_sidebars_or_none_stay_whole() {
        let html = "<div id=page><div class='l-sidebar'><ul id=a></ul></div>\
                    <div class='sidebar-left'><ul id=b></ul></div>\
                    <div><ul id=c></ul><ul id=d></ul></div></div>";
        let (doc, mut both) = containers_of(html, &["a", "b"]);
        without_sidebars(&doc, &mut both);
        assert_eq!(both.len(), 2);
        let (doc, mut neither) = containers_of(html, &["c", "d"]);
        without_sidebars(&doc, &mut neither);
        assert_eq!(neither.len(), 2);
        // "sidebars" and "nosidebar" are other words.
        let html = "<div><div class=nosidebar><ul id=e></ul></div><div><ul id=f></ul></div></div>";
        let (doc, mut other) = containers_of(html, &["e", "f"]);
        without_sidebars(&doc, &mut other);
        assert_eq!(other.len(), 2);
    }
}
