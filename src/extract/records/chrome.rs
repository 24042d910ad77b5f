//! Lists in the page's chrome: a sidebar widget's upcoming events, a
//! footer's menus, a header's links. A page's own list lies in its
//! content; where some kept group does, every group in the chrome (inside
//! `nav` or `aside`, or in the page's `header` or `footer`, see
//! [`in_chrome`]) scores [`CHROME_PENALTY`] of its score: a parish's four
//! bulletins in the page's article beat the five dated events of the
//! sidebar's calendar widget, and a new blog's two posts beat its footer's
//! columns.
//!
//! Invariants: a page whose kept groups are all in the chrome (a list that
//! is itself a sidebar's, a page of nothing but menus) is left as it is;
//! dropped groups are never touched. Cost: one walk up from each group's
//! container.

use crate::extract::dom::Document;

use super::RecordGroup;
use super::short::in_chrome;

/// Share of its score a group in the page's chrome keeps when some kept
/// group lies in the content.
pub const CHROME_PENALTY: f64 = 0.5;

/// Scales the scores of the kept groups in the chrome (see the module
/// header); true when some score changed.
pub(super) fn demote(doc: &Document, groups: &mut [RecordGroup]) -> bool {
    let chrome: Vec<bool> = groups
        .iter()
        .map(|g| g.dropped.is_none() && g.container.is_some_and(|c| in_chrome(doc, c)))
        .collect();
    let content = groups
        .iter()
        .zip(&chrome)
        .any(|(g, &c)| g.dropped.is_none() && !c && g.score > 0.0);
    if !content || !chrome.contains(&true) {
        return false;
    }
    for (g, _) in groups.iter_mut().zip(&chrome).filter(|(_, c)| **c) {
        g.score *= CHROME_PENALTY;
    }
    true
}
