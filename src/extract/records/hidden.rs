//! Lists a reader cannot see: a page may carry several lists in tab panels
//! and show one (a package index's "Release history" tab, with its
//! "Download files" and "Project description" panels `display: none`
//! until clicked). A group most of whose records are inside an element
//! its markup hides (the `hidden` attribute, an inline `display: none` or
//! `visibility: hidden`) keeps only [`HIDDEN_SHARE`] of its score, so a shown list wins; on a
//! page whose every list is hidden the order stays as it was.
//!
//! Invariants: only scores change; one walk up from each distinct parent
//! of a kept group's records.

use crate::extract::dom::{Document, NodeId};

use super::{Record, RecordGroup};

/// Share of its score a hidden group keeps: a shown list of a thousandth
/// of its score still wins (the hidden panel of download files carries
/// fourteen times the text of the shown release history).
const HIDDEN_SHARE: f64 = 0.001;

/// Lower the score of each kept group most of whose records are hidden
/// by the markup. True when some score changed.
pub(super) fn demote(doc: &Document, groups: &mut [RecordGroup]) -> bool {
    let mut changed = false;
    for g in groups.iter_mut().filter(|g| g.dropped.is_none()) {
        if mostly_hidden(doc, &g.records) {
            g.score *= HIDDEN_SHARE;
            changed = true;
        }
    }
    changed
}

/// True when more than half of `records` are hidden by the markup. The
/// records of a group share a few parents, each walked up once.
fn mostly_hidden(doc: &Document, records: &[Record]) -> bool {
    let mut hidden = 0;
    let mut last: Option<(Option<NodeId>, bool)> = None;
    for r in records {
        let parent = doc.node(r.start).parent;
        let parent_hidden = match last {
            Some((p, h)) if p == parent => h,
            _ => {
                let h = parent.is_some_and(|p| hidden_by_markup(doc, p));
                last = Some((parent, h));
                h
            }
        };
        let own = doc.element(r.start).is_some_and(|e| e.is_hidden());
        hidden += usize::from(parent_hidden || own);
    }
    hidden * 2 > records.len()
}

/// True when `id` or one of its ancestors is hidden by its own markup.
fn hidden_by_markup(doc: &Document, id: NodeId) -> bool {
    std::iter::once(id)
        .chain(doc.ancestors(id))
        .filter_map(|a| doc.element(a))
        .any(|e| e.is_hidden())
}

#[cfg(test)]
mod tests {
    use crate::extract::records::detect_html;

    /// Regression (a package index): the "Download files" panel, hidden
    /// until its tab is clicked, outranked the shown release history.
    #[test]
    fn a_list_in_a_hidden_tab_panel_loses_to_the_shown_one() {
        let release = |v: u32| {
            format!(
                "<div class=release><a class='card release__card' href=/project/t/3.{v}.0/>\
                 <p class=release__version>3.{v}.0</p><p><time datetime=2026-11-{d:02}T11:05:44+0000>\
                 Nov {d}, 2026</time></p></a></div>",
                d = 20 - v
            )
        };
        let file = |v: u32| {
            format!(
                "<div class=file><a href=https://files.example/packages/ab/cd/t-3.{v}.0-cp312-cp312-\
                 manylinux_2_17_x86_64.whl>t-3.{v}.0-cp312-cp312-manylinux_2_17_x86_64.whl</a>\
                 <p>Uploaded <time datetime=2026-11-19T11:05:44+0000>Nov 19, 2026</time></p>\
                 <table><tr><th>SHA256</th><td><code>9f2c1e0b7a5d4c3b2a1908f7e6d5c4b3a2918f7e6d5c4b3a2918f7e6d5c4b3a{v}\
                 </code></td></tr><tr><th>MD5</th><td><code>0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5{v}</code></td></tr>\
                 <tr><th>BLAKE2b-256</th><td><code>ab12cd34ef56ab78cd90ef12ab34cd56ef78ab90cd12ef34ab56cd78ef90ab1{v}\
                 </code></td></tr></table></div>"
            )
        };
        let releases: String = (0..8).map(release).collect();
        let files: String = (0..8).map(file).collect();
        let html = format!(
            "<html><body><main><h1>tessellate 3.7.0</h1><div class=panels>\
             <div id=history role=tabpanel><h2>Release history</h2><div class=release-timeline>{releases}</div></div>\
             <div id=files role=tabpanel style='display: none;'><h2>Download files</h2>{files}</div>\
             </div></main></body></html>"
        );
        let (doc, det) = detect_html(&html);
        let w = det.winner().expect("a winner");
        assert_eq!(w.records.len(), 8);
        let first = doc.text_of_range(w.records[0].start, w.records[0].end);
        assert!(first.starts_with("3.0.0 Nov 20, 2026"), "{first}");
    }
}
