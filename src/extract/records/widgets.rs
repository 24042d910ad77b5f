//! A column of widgets taken for a list: a music page's right column, its
//! band's bio, its discography, its merch and its report link, each a
//! `div` of its own class built its own way. A list's records share what
//! they are (a class, or none at all) and open alike; widgets each name
//! themselves and open differently. Such a group loses the ranking to a
//! list it would otherwise beat on text (the release grid's bare titles).
//!
//! Invariants: reads each record's root element and its first element
//! child only; a group whose roots carry no class, or share one, is never
//! a column of widgets.

use rustc_hash::FxHashSet as HashSet;

use super::Record;
use super::kinds::stable_classes;
use crate::extract::dom::Document;

/// Factor on the score of a column of widgets.
pub(super) const WIDGETS_PENALTY: f64 = 0.1;

/// True when every record's root names itself by a class no other root
/// carries, and their first element children are of pairwise different
/// tags or first classes (a `div.bio-pic`, an `h3`, an
/// `h3.merch-frame-title`, a `p.report-link`).
pub(super) fn is_widget_column(doc: &Document, records: &[Record]) -> bool {
    if records.len() < 2 {
        return false;
    }
    let mut classes: HashSet<&str> = HashSet::default();
    let mut openings: HashSet<(&str, &str)> = HashSet::default();
    records.iter().all(|r| {
        let mut own = stable_classes(doc, r.start).peekable();
        let named = own.peek().is_some();
        let unshared = own.all(|c| classes.insert(c));
        let opening = doc.children(r.start).find_map(|c| doc.element(c)).map(|e| {
            let first = e.attr("class").and_then(|c| c.split_whitespace().next());
            (e.name.as_str(), first.unwrap_or(""))
        });
        named && unshared && opening.is_some_and(|o| openings.insert(o))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    fn roots(html: &str) -> (Document, Vec<Record>) {
        let doc = parse(html);
        let records = (0..doc.nodes.len() as u32)
            .filter(|&i| doc.is_tag(i, "section"))
            .map(|i| Record {
                start: i,
                end: doc.node(i).end,
            })
            .collect();
        (doc, records)
    }

    /// Regression (round 68, an artist's music page): the right column's
    /// bio, discography, merch and report blocks won over the grid of four
    /// releases, whose bare titles say less.
    #[test]
    fn blocks_that_each_name_themselves_and_open_differently_are_widgets() {
        let (doc, records) = roots(
            "<div><section class=bio-container><div class=bio-pic><img src=a.jpg></div><p>Hollow Pines</p></section>\
             <section class=discography><h3>Discography</h3><ol><li><a href=/album/a>A</a></li></ol></section>\
             <section class=merch-frame><h3 class=merch-frame-title>Merch</h3><ol><li><a href=/merch/a>LP</a></li></ol></section>\
             <section class=label-band-selector><p class=report-link><a href=/report>report</a></p></section></div>",
        );
        assert!(is_widget_column(&doc, &records));
    }

    /// Posts of two kinds share a class, or open alike; rows without a
    /// class are no widgets.
    #[test]
    fn records_that_share_a_class_or_an_opening_are_no_widgets() {
        for html in [
            "<div><section class='post featured'><h2><a href=/a>A</a></h2></section>\
             <section class='post'><h2><a href=/b>B</a></h2></section></div>",
            "<div><section class=post-featured><h2><a href=/a>A</a></h2></section>\
             <section class=post-regular><h2><a href=/b>B</a></h2></section></div>",
            "<div><section><h2><a href=/a>A</a></h2></section>\
             <section><p><a href=/b>B</a></p></section></div>",
        ] {
            let (doc, records) = roots(html);
            assert!(!is_widget_column(&doc, &records), "{html}");
        }
    }
}
