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

#[cfg(test)]
mod tests {
    use super::super::detect_html;

    /// An arts centre's three event cards above a sitemap of twelve long
    /// links, in a `footer` element or in a `div` styled as one.
    fn page(footer_tag: &str) -> String {
        let mut h = String::from("<body><main><h1>What's on</h1><div class=events>");
        for (slug, title, tag) in [
            ("jazz-night", "Late Jazz on the Terrace", "Music"),
            ("printmaking", "Printmaking for Beginners", "Workshop"),
            ("film-club", "Film Club: The Third Man", "Film"),
        ] {
            h += &format!(
                "<article class=card><h3><a href='/events/{slug}'>{title}</a></h3>\
                 <time datetime='2024-06-07T20:00:00+01:00'>Fri 7 June</time>\
                 <span class=byline>Riverside Presents</span><ul class=tags><li>{tag}</li></ul></article>"
            );
        }
        h += &format!("</div></main><{footer_tag} class=site-footer><ul class=sitemap>");
        for (i, text) in [
            "About the Riverside Arts Centre and its history",
            "People, trustees and annual reports",
            "Jobs, internships and volunteering with us",
            "Hire a room for your meeting or celebration",
            "Café, bar and opening times this season",
            "Access information and assisted performances",
            "Getting here by bus, train, bike or car",
            "Membership: priority booking and discounts",
            "Donate and support our community programme",
            "Sign up for our weekly newsletter",
            "Press releases and media enquiries",
            "Contact us, lost property and feedback",
        ]
        .iter()
        .enumerate()
        {
            h += &format!("<li><a href='/info/page-{i}'>{text}</a></li>");
        }
        h + &format!("</ul></{footer_tag}></body>")
    }

    fn winner_first_link(html: &str) -> String {
        let (doc, det) = detect_html(html);
        let g = det.winner().expect("a winner");
        (g.records[0].start..g.records[0].end)
            .find_map(|i| doc.element(i).filter(|e| e.name == "a")?.attr("href"))
            .unwrap_or_default()
            .to_owned()
    }

    /// Regression (a parish's bulletins, a new blog's two posts): the
    /// page's chrome outscored its content. A sitemap in a `footer`
    /// element now loses to the cards; the same sitemap in a `div` is no
    /// chrome, and wins on text as before.
    #[test]
    fn a_sitemap_in_the_footer_loses_to_the_contents_cards() {
        assert_eq!(winner_first_link(&page("footer")), "/events/jazz-night");
        assert_eq!(winner_first_link(&page("div")), "/info/page-0");
    }
}
