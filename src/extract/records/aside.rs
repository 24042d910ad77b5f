//! Lists captioned as asides: a "You may also like" strip of other
//! artists' releases, "Related posts", "Customers also bought", "Most
//! read". Their heading says the records are the site's picks for the
//! reader, not the page's own list; a list captioned so loses the ranking
//! to an uncaptioned list it would otherwise beat on text (the picks carry
//! more words each than a discography's bare titles).
//!
//! Invariants: reads only the element right before the container and
//! before each of its [`LEVELS`] nearest ancestors, and the text of at
//! most one caption.

use crate::extract::dom::{Document, NodeId, find_ascii_ci};

/// Factor on the score of a group captioned as an aside.
pub(super) const ASIDE_PENALTY: f64 = 0.25;

/// The container and its ancestors looked at for a caption: a strip's
/// heading stands before its list, or before the wrapper around it.
const LEVELS: usize = 3;

/// What an aside's caption says (ASCII, any case).
const ASIDE_WORDS: &[&str] = &[
    "also like",
    "also enjoy",
    "also bought",
    "also viewed",
    "also read",
    "see also",
    "recommended",
    "related",
    "most read",
    "most popular",
    "trending",
    "sponsored",
    // A news aggregator's other reports of a story under its lead, and
    // its picks for the reader.
    "more coverage",
    "for you",
];

/// True when a list's `caption` ([`caption_of`]) says one of
/// [`ASIDE_WORDS`]: the list is captioned as an aside.
pub(super) fn is_aside_caption(doc: &Document, caption: NodeId) -> bool {
    says_aside(&doc.text(caption))
}

/// True when `container` is labelled for assistive technology as an
/// aside (`aria-label="More coverage"` on the list of a story's other
/// reports, under its lead): a caption no reader sees, as telling.
pub(super) fn is_labelled_aside(doc: &Document, container: NodeId) -> bool {
    doc.element(container)
        .and_then(|e| e.attr("aria-label"))
        .is_some_and(says_aside)
}

/// The list's caption: the first element found before `container` (or
/// before the wrapper around it, up to [`LEVELS`] levels), when it is a
/// heading or a short block holding one. Anything else found first there
/// (a paragraph, a form) means the list has no caption of its own.
pub(super) fn caption_of(doc: &Document, container: NodeId) -> Option<NodeId> {
    let mut x = container;
    for _ in 0..LEVELS {
        if let Some(before) = doc.previous_element(x) {
            return doc.is_caption(before).then_some(before);
        }
        x = doc.node(x).parent?;
    }
    None
}

fn says_aside(text: &str) -> bool {
    ASIDE_WORDS
        .iter()
        .any(|w| find_ascii_ci(text.as_bytes(), w.as_bytes()).is_some())
}

#[cfg(test)]
mod tests {
    use super::super::detect_html;

    /// The first link of each of the winner's records.
    fn winner_links(html: &str) -> Vec<String> {
        let (doc, det) = detect_html(html);
        let g = det.winner().expect("a winner");
        g.records
            .iter()
            .filter_map(|r| {
                (r.start..r.end)
                    .find_map(|i| doc.element(i).filter(|e| e.name == "a")?.attr("href"))
                    .map(str::to_owned)
            })
            .collect()
    }

    fn page(caption: &str) -> String {
        let mut html = String::from("<body><main><h2>Discography</h2><ol class=music-grid>");
        for i in 0..6 {
            html.push_str(&format!(
                "<li class=music-grid-item><a href='/album/own-{i}'><img src='/a{i}.jpg' alt=''>\
                 <p class=title>Lanterns for the Undertow, part {i}</p></a>\
                 <div class=meta><span class=year>202{i}</span></div></li>"
            ));
        }
        html.push_str(&format!(
            "</ol><div class=recs>{caption}<ul class=recommended>"
        ));
        for i in 0..6 {
            html.push_str(&format!(
                "<li class=rec><a class=album-link href='https://other{i}.example/album/x?from=rec'>\
                 <img src='/r{i}.jpg' alt=''><div class=release-title>Songs for a Parish {i}</div>\
                 <div class=by>by Ida Fenwick</div></a>\
                 <div class=comment>supported by {i}4 fans who also own this</div></li>"
            ));
        }
        html.push_str("</ul></div></main></body>");
        html
    }

    /// Regression (an artist's page): the "you may also like" strip of
    /// other artists' releases, more words each, beat the artist's own
    /// discography of bare titles.
    #[test]
    fn a_strip_captioned_you_may_also_like_loses_to_the_page_list() {
        let own = |links: Vec<String>| links.iter().all(|l| l.starts_with("/album/own-"));
        assert!(own(winner_links(&page("<h2>you may also like</h2>"))));
        // Without its caption, the strip wins on text: the caption decides.
        assert!(!own(winner_links(&page(""))));
        assert!(!own(winner_links(&page("<h2>Friends of the label</h2>"))));
    }

    /// A news aggregator's clusters: each a lead story and a list of
    /// other reports of it, `role=list` with `label` as its attributes.
    fn clusters(label: &str) -> String {
        let mut html = String::from("<body><main><section class=stories>");
        for i in 0..6 {
            html.push_str(&format!(
                "<div class=cluster><article class=lead><h3><a href='https://pub{i}.example/story'>\
                 Lead story {i}: the council agrees its budget after overnight talks</a></h3>\
                 <span class=byline>By Dana Whitcombe</span>\
                 <time datetime=2026-11-30T10:00:00Z>1 hour ago</time></article>\
                 <div class=more role=list{label}>"
            ));
            for j in 0..3 {
                html.push_str(&format!(
                    "<article class=sub role=listitem><h4><a href='https://other{i}{j}.example/report'>\
                     Report {j} on story {i} from a paper</a></h4>\
                     <span class=source>The Daily Other {j}</span>\
                     <time datetime=2026-11-30T09:00:00Z>2 hours ago</time></article>"
                ));
            }
            html.push_str(&format!(
                "</div><a class=full href='/stories/{i}'>Full coverage</a></div>"
            ));
        }
        html.push_str("</section></main></body>");
        html
    }

    /// Regression (a news aggregator's top stories): the reports under
    /// each lead, more of them and more words each, won over the leads.
    /// Their list's label for assistive technology, "More coverage", is
    /// a caption no reader sees: an aside's.
    #[test]
    fn a_list_labelled_more_coverage_loses_to_its_leads() {
        let leads = |links: Vec<String>| links.iter().all(|l| l.starts_with("https://pub"));
        assert!(leads(winner_links(&clusters(
            " aria-label='More coverage'"
        ))));
        // Unlabelled, the reports win: the label decides.
        assert!(!leads(winner_links(&clusters(""))));
    }
}
