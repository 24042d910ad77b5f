//! Ranking record groups: Rules 1, 2, 3 and 5 of "Mining Data Records in
//! Web Pages" applied to a group's records, then one score that prefers
//! the page's content list to its navigation.
//!
//! The score is text coverage × headline-ness of the links × (share of
//! records with a link)² × a penalty for records holding several headlines
//! × *richness*. Richness measures what content records have and
//! navigation lacks: a heading of their own and a date (each counted by
//! the share of records that have one). A series table of contents, a
//! category menu or a "related" strip is bare links; the list of posts
//! beside it carries headings and dates, and wins even when it is shorter.
//! A thread's comments are judged by their prose instead of their links
//! (an author name and "permalink" are not headlines), and so are dated
//! posts that mostly link nothing (a shop's reviews): Rule 3 keeps them
//! ([`linkless_posts`]). A link inside a
//! sentence is a reference, not a headline: a wiki discussion citing ten
//! pages is one record, not ten. A list captioned as an aside ("Related")
//! scores a quarter ([`super::aside`]); one captioned by a link to the
//! page its records lie under ("Development log") half as much again
//! ([`super::indexed`]).
//!
//! Invariants: pure over the arena; one pass over each record's nodes.

use crate::extract::dates::byte_runs;
use crate::extract::dom::{Document, NodeData, NodeId, trim_text};
use crate::extract::patterns::{DropReason, MiningParams};

use super::{Record, RecordGroup};
use crate::extract::items::{is_download, shows_only_time};

/// Weight of the share of records holding a heading (h1–h6).
const HEADING_WEIGHT: f64 = 0.5;
/// Weight of the share of records holding a date.
const DATE_WEIGHT: f64 = 0.5;
/// Median prose (bytes outside links) at which a thread's records count as
/// fully headline-like.
const PROSE_FULL: f64 = 60.0;
/// Headline link targets a record remembers to count each once; past
/// this many, every further headline link counts (the record is several
/// records anyway).
const MAX_HEADLINE_TARGETS: usize = 4;
/// Longest text node (bytes) read as a date line.
pub(super) const MAX_DATE_TEXT: usize = 60;

/// Text statistics of one record used by the ranking.
pub(super) struct RecordStats {
    pub(super) text: usize,
    pub(super) link_text: usize,
    /// Longest link text (chars) in the record.
    best_link: usize,
    /// Links whose text looks like a headline (≥ 15 chars) and that stand
    /// on their own, not in a sentence ([`Document::in_running_text`]: a
    /// discussion's comments cite pages and sign with a name), counted
    /// once per target (a card's title and its teaser both link the post),
    /// leaving out links to a person's page ([`is_profile_href`]: a
    /// byline's name) and links that show only a `<time>` ([`shows_only_time`]);
    /// the group leaves out those whose text most records repeat.
    headline_links: usize,
    /// The first [`MAX_HEADLINE_TARGETS`] headline links: a text most
    /// records repeat is an action's ([`distinct_headlines`]).
    headline_nodes: [NodeId; MAX_HEADLINE_TARGETS],
    tokens: usize,
    has_link: bool,
    /// Holds an `h1`–`h6`.
    heading: bool,
    /// Holds a `<time>` or a short text with a year in it.
    dated: bool,
}

impl RecordStats {
    /// Text outside links (bytes): what a comment says beyond its author
    /// and "permalink".
    pub(super) fn prose(&self) -> usize {
        self.text.saturating_sub(self.link_text)
    }
}

pub(super) fn record_stats(doc: &Document, r: &Record) -> RecordStats {
    let mut st = RecordStats {
        text: 0,
        link_text: 0,
        best_link: 0,
        headline_links: 0,
        headline_nodes: [0; MAX_HEADLINE_TARGETS],
        tokens: 0,
        has_link: false,
        heading: false,
        dated: false,
    };
    // Targets of the headline links counted so far: a teaser linked
    // where its title links is the same headline, not a second one.
    let mut targets = [""; MAX_HEADLINE_TARGETS];
    let mut i = r.start;
    while i < r.end {
        let node = doc.node(i);
        match &node.data {
            NodeData::Element(e) => {
                st.tokens += 1;
                match e.name.as_str() {
                    "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => st.heading = true,
                    "time" => st.dated = true,
                    "a" if let Some(href) = e.attr("href").map(str::trim)
                        && !href.is_empty() =>
                    {
                        let (chars, bytes) = link_text_weight(doc, i);
                        // Card-style records link with an empty `<a>` laid
                        // over the whole card: still a link.
                        st.has_link = true;
                        st.link_text += bytes;
                        st.best_link = st.best_link.max(chars);
                        let seen =
                            targets[..st.headline_links.min(MAX_HEADLINE_TARGETS)].contains(&href);
                        // A download ("fluxgate-17.6.1-linux-amd64.tar.gz",
                        // a release's asset) is no headline.
                        if chars >= 15
                            && !seen
                            && !is_profile_href(href)
                            && !is_download(href)
                            && !doc.in_running_text(i, bytes)
                            && !shows_only_time(doc, i)
                        {
                            if let Some(slot) = targets.get_mut(st.headline_links) {
                                *slot = href;
                                st.headline_nodes[st.headline_links] = i;
                            }
                            st.headline_links += 1;
                        }
                    }
                    // A script's own date element (`relative-time`,
                    // `local-time`) holds its day in `datetime` as `time`
                    // does, showing "2 hours ago".
                    name if name.bytes().any(|b| b == b'-') && e.attr("datetime").is_some() => {
                        st.dated = true
                    }
                    _ => {}
                }
            }
            NodeData::Text { text, blank: false } => {
                st.tokens += 1;
                let t = trim_text(text);
                st.text += t.len();
                st.dated = st.dated || (t.len() <= MAX_DATE_TEXT && has_year(t));
            }
            _ => {}
        }
        i += 1;
    }
    st
}

/// Path segments that lead to a person's page (`/users/maren`,
/// `/author/maren/`), and the handle prefix `@` (`/@maren`).
const PROFILE_SEGMENTS: &[&str] = &[
    "author", "authors", "member", "members", "profile", "profiles", "u", "user", "users",
];

/// True when `href` leads to a person's page: a path segment of
/// [`PROFILE_SEGMENTS`] followed by a name, or a segment that is an
/// `@handle`. A byline's name is no headline, however long: a preview
/// signed "Maren Colquhoun" holds one headline, not two.
pub(super) fn is_profile_href(href: &str) -> bool {
    let no_query = href.split(['?', '#']).next().unwrap_or("");
    let path = match no_query.split_once("//") {
        Some((_, rest)) => rest.split_once('/').map_or("", |(_, p)| p),
        None => no_query,
    };
    let mut prev: Option<&str> = None;
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        if seg.len() > 1 && seg.starts_with('@') {
            return true;
        }
        if prev.is_some_and(|p| PROFILE_SEGMENTS.iter().any(|w| p.eq_ignore_ascii_case(w))) {
            return true;
        }
        prev = Some(seg);
    }
    false
}

/// True when `text` holds a four-digit year from 1990 to 2039 that is not
/// part of a longer number (`Mar 4, 2024`, `2024-03-05`, `05.03.2024`,
/// `2024年3月5日`).
pub(super) fn has_year(text: &str) -> bool {
    let b = text.as_bytes();
    byte_runs(b, u8::is_ascii_digit)
        .filter(|r| r.len() == 4)
        .map(|r| b[r].iter().fold(0u32, |y, d| y * 10 + u32::from(d - b'0')))
        .any(|year| (1990..=2039).contains(&year))
}

/// Weighted length of a link's text without building it: non-space
/// characters (CJK counted 3: a CJK character carries about a word) plus
/// one per gap between words; and the trimmed text's byte length.
/// Headline links per record, on average, past which a group's records
/// look like several records each (its score is divided by the excess).
const SEVERAL_HEADLINES: f64 = 1.5;

/// Fewest records that must repeat a headline link's text for it to be
/// an action's, and never fewer than half of them.
const MIN_REPEATING_RECORDS: usize = 3;

/// The headline links of all `stats`, without those whose text half the
/// records or more repeat ([`MIN_REPEATING_RECORDS`] at least): "Google
/// Calendar" and "iCal Export" under every event, which say what a link
/// does, not what a record is. Texts are read only where the count
/// matters: where records hold more than [`SEVERAL_HEADLINES`] on average.
fn distinct_headlines(doc: &Document, stats: &[RecordStats]) -> usize {
    let total: usize = stats.iter().map(|s| s.headline_links).sum();
    let k = stats.len();
    if k < MIN_REPEATING_RECORDS || total as f64 <= SEVERAL_HEADLINES * k as f64 {
        return total;
    }
    let hashes: Vec<Vec<u64>> = stats
        .iter()
        .map(|s| {
            let own = &s.headline_nodes[..s.headline_links.min(MAX_HEADLINE_TARGETS)];
            own.iter().map(|&a| text_hash(doc, a)).collect()
        })
        .collect();
    let mut counts: rustc_hash::FxHashMap<u64, usize> = rustc_hash::FxHashMap::default();
    for own in &hashes {
        for (i, h) in own.iter().enumerate() {
            if !own[..i].contains(h) {
                *counts.entry(*h).or_insert(0) += 1;
            }
        }
    }
    let repeated = |h: &u64| {
        counts
            .get(h)
            .is_some_and(|&n| n >= MIN_REPEATING_RECORDS && 2 * n >= k)
    };
    let actions = hashes.iter().flatten().filter(|h| repeated(h)).count();
    total - actions
}

/// A hash of the words of link `a`, case folded.
fn text_hash(doc: &Document, a: NodeId) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    for n in &doc.nodes[a as usize..doc.node(a).end as usize] {
        if let NodeData::Text { text, blank: false } = &n.data {
            for w in text.split_whitespace() {
                for c in w.chars().flat_map(char::to_lowercase) {
                    c.hash(&mut h);
                }
                ' '.hash(&mut h);
            }
        }
    }
    h.finish()
}

pub(super) fn link_text_weight(doc: &Document, a: NodeId) -> (usize, usize) {
    let (mut chars, mut bytes, mut in_word) = (0usize, 0usize, false);
    for n in &doc.nodes[a as usize..doc.node(a).end as usize] {
        if let NodeData::Text { text, blank: false } = &n.data {
            bytes += trim_text(text).len();
            for c in text.chars() {
                if c.is_whitespace() {
                    in_word = false;
                } else {
                    if !in_word && chars > 0 {
                        chars += 1;
                    }
                    in_word = true;
                    chars += if (c as u32) > 0x2E80 { 3 } else { 1 };
                }
            }
        }
    }
    (chars, bytes)
}

fn median(mut v: Vec<usize>) -> usize {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    v[v.len() / 2]
}

/// Share of `stats` for which `f` holds.
fn share(stats: &[RecordStats], f: impl Fn(&RecordStats) -> bool) -> f64 {
    if stats.is_empty() {
        return 0.0;
    }
    stats.iter().filter(|s| f(s)).count() as f64 / stats.len() as f64
}

/// Apply Rules 1, 2, 3, 5 to a group's records and compute its score. A
/// group needs `min_records` records (Rule 1: `min_instances`; fewer for
/// the short lists of [`super::short`]).
pub(super) fn score_group(
    doc: &Document,
    g: &mut RecordGroup,
    params: &MiningParams,
    total_text: f64,
    min_records: usize,
) {
    let stats: Vec<RecordStats> = g.records.iter().map(|r| record_stats(doc, r)).collect();
    let k = stats.len();
    let text: usize = stats.iter().map(|s| s.text).sum();
    g.coverage = text as f64 / total_text;
    if k < min_records.max(2) {
        g.dropped = Some(DropReason::Rule1Instances);
        return;
    }
    if median(stats.iter().map(|s| s.tokens).collect()) < params.min_record_len {
        g.dropped = Some(DropReason::Rule2Length);
        return;
    }
    let link_share = share(&stats, |s| s.has_link);
    // Kept below only as posts ([`linkless_posts`]).
    let posts = link_share < 0.5;
    if (posts && !linkless_posts(&stats)) || text == 0 {
        g.dropped = Some(DropReason::Rule3KeyTags);
        return;
    }
    if g.coverage < params.min_coverage {
        g.dropped = Some(DropReason::Rule5Coverage);
        return;
    }
    let best_link = median(stats.iter().map(|s| s.best_link).collect()) as f64;
    // Navigation and tag clouds have one- or two-word links; headlines are
    // longer.
    let mut headline = (best_link / 30.0).clamp(0.1, 1.0);
    if g.thread || posts {
        // A comment's links are its author and "permalink"; what it says
        // is its prose.
        let prose = median(stats.iter().map(RecordStats::prose).collect());
        headline = headline.max((prose as f64 / PROSE_FULL).clamp(0.1, 1.0));
    }
    // A record holding several headline links is several records.
    let headlines_per_record = distinct_headlines(doc, &stats) as f64 / k as f64;
    let multi = if headlines_per_record > SEVERAL_HEADLINES {
        SEVERAL_HEADLINES / headlines_per_record
    } else {
        1.0
    };
    // A record holding several headlines is a section: its heading and
    // date belong to the section, not to one record.
    let richness = if multi < 1.0 {
        1.0
    } else {
        richness_of(&stats)
    };
    g.score = g.coverage * headline * link_share * link_share * multi * richness;
    // The list's caption, read once for both of its signals.
    let caption = g.container.and_then(|c| super::aside::caption_of(doc, c));
    let labelled = || {
        g.container
            .is_some_and(|c| super::aside::is_labelled_aside(doc, c))
    };
    if caption.is_some_and(|c| super::aside::is_aside_caption(doc, c)) || labelled() {
        g.score *= super::aside::ASIDE_PENALTY;
    } else if caption.is_some_and(|c| super::indexed::indexes(doc, c, &g.records)) {
        g.score *= super::indexed::INDEX_BONUS;
    }
    if super::widgets::is_widget_column(doc, &g.records) {
        g.score *= super::widgets::WIDGETS_PENALTY;
    }
}

/// Share of a group's records that must be dated for it to stand
/// without links ([`linkless_posts`]).
const MIN_LINKLESS_DATED_SHARE: f64 = 0.75;
/// Median prose (bytes) the records of a group without links must say
/// ([`linkless_posts`]).
const MIN_LINKLESS_PROSE: usize = 80;

/// True when records that mostly link nothing are posts all the same:
/// most of them dated, each saying a few sentences (a shop's reviews,
/// with a photo link on a few; a guestbook). Rule 3 wants a link in
/// most records; such a group is kept, its links' share still squared in
/// its score, so it wins only where no linked list stands beside it.
fn linkless_posts(stats: &[RecordStats]) -> bool {
    share(stats, |s| s.dated) >= MIN_LINKLESS_DATED_SHARE
        && median(stats.iter().map(RecordStats::prose).collect()) >= MIN_LINKLESS_PROSE
}

/// True when `r` holds a `<time>` or a short text with a year in it.
pub(super) fn is_dated(doc: &Document, r: &Record) -> bool {
    record_stats(doc, r).dated
}

/// What content records have and navigation lacks: 1 plus the weighted
/// shares of records holding a heading and a date.
fn richness_of(stats: &[RecordStats]) -> f64 {
    1.0 + HEADING_WEIGHT * share(stats, |s| s.heading) + DATE_WEIGHT * share(stats, |s| s.dated)
}

/// The richness of `records` (see [`score_group`]): what a group of
/// sections, found afterwards, must give back.
pub(super) fn richness(doc: &Document, records: &[Record]) -> f64 {
    let stats: Vec<RecordStats> = records.iter().map(|r| record_stats(doc, r)).collect();
    richness_of(&stats)
}

#[cfg(test)]
mod tests {
    use super::{has_year, is_profile_href};

    /// Regression (a newsletter's archive): each preview links its title
    /// and its teaser to the post; they counted as two headlines, so the
    /// previews lost to their halves (title block, date line).
    #[test]
    fn a_teaser_linked_where_its_title_links_is_one_headline() {
        let post = |n: u32| {
            format!(
                "<div class='pc pc-flex post' role=article><div class='pc pc-flex pc-col'>\
                 <div class='pc pc-flex pc-gap4'><a class=t href=/p/{n}>Post number {n} about the harbour fog</a>\
                 <a class=d href=/p/{n}>A teaser sentence about the harbour and its fog, number {n}</a></div>\
                 <div class='pc pc-flex pc-gap6 meta'><time datetime=2024-03-0{n}>Mar {n}, 2024</time>\
                 <span>∙</span><span><a href=/@maren>Maren Colquhoun</a></span></div>\
                 <div class=ufi><a href=/p/{n}>214</a> <a href=/p/{n}/comments>38</a></div></div>\
                 <a class=img href=/p/{n}><img src=/i/{n}.jpg></a></div>"
            )
        };
        let html = format!(
            "<html><body><header><nav><a href=/>Home</a><a href=/archive>Archive</a>\
             <a href=/about>About</a></nav></header><main><div class=tabs><a href=?sort=top>Top</a>\
             <a href=?sort=new>Latest</a></div><div class=list>{}</div></main><footer>\
             <a href=/privacy>Privacy</a><a href=/terms>Terms</a></footer></body></html>",
            (1..=6).map(post).collect::<String>()
        );
        assert_the_six_previews_win(&html);
    }

    /// Regression (the same archive without class names on its links):
    /// each preview's byline links its author's long name to the
    /// author's page; the name counted as a second headline, so the
    /// previews again lost to their title blocks and date lines.
    #[test]
    fn a_byline_name_linked_to_its_profile_is_no_headline() {
        let authors = [
            ("/@maren", "Maren Colquhoun"),
            ("/users/tomas-brandt", "Tomas Brandt-Okafor"),
            (
                "https://letters.example/author/li-wen-hu/",
                "Li-Wen Hu Castellanos",
            ),
        ];
        let post = |n: usize| {
            let (href, name) = authors[n % authors.len()];
            format!(
                "<div class='pc pc-flex post' role=article><div class='pc pc-flex pc-col'>\
                 <div class='pc pc-flex pc-gap4'><a href=/p/{n}>Post number {n} about the harbour fog</a>\
                 <a href=/p/{n}>A teaser sentence about the harbour and its fog, number {n}</a></div>\
                 <div class='pc pc-flex pc-gap6'><time datetime=2024-03-0{n}>Mar {n}, 2024</time>\
                 <span>∙</span><span><a href={href}>{name}</a></span></div>\
                 <div class=ufi><a href=/p/{n}>214</a> <a href=/p/{n}/comments>38</a></div></div>\
                 <a href=/p/{n}><img src=/i/{n}.jpg></a></div>"
            )
        };
        let html = format!(
            "<html><body><header><nav><a href=/>Home</a><a href=/archive>Archive</a>\
             <a href=/about>About</a></nav></header><main><div class=list>{}</div></main>\
             <footer><a href=/privacy>Privacy</a><a href=/terms>Terms</a></footer></body></html>",
            (1..=6).map(post).collect::<String>()
        );
        assert_the_six_previews_win(&html);
    }

    /// The winner of `html` is its six previews (`role=article`), whole.
    fn assert_the_six_previews_win(html: &str) {
        let (doc, det) = super::super::detect_html(html);
        let winner = det.winner().expect("a winner");
        assert_eq!(winner.records.len(), 6, "{}", winner.selector);
        assert!(
            winner
                .records
                .iter()
                .all(|r| doc.element(r.start).and_then(|e| e.attr("role")) == Some("article")),
            "{}",
            winner.selector
        );
    }

    #[test]
    fn profile_links_are_told_by_their_path() {
        for href in [
            "/@maren",
            "https://news.example/@maren?ref=archive",
            "/users/tomas-brandt",
            "/u/kestrel",
            "https://letters.example/author/li-wen-hu/",
            "../members/4411-harbour",
            "/profile/ana",
        ] {
            assert!(is_profile_href(href), "{href}");
        }
        for href in [
            "/p/harbour-fog",
            "/authors",
            "/user-guide/install",
            "https://mail.example/@",
            "/blog/2024/03/05/new-members-welcome/",
            "mailto:desk@news.example",
            "#comments",
        ] {
            assert!(!is_profile_href(href), "{href}");
        }
    }

    #[test]
    fn years_are_found_in_date_lines_only_as_whole_numbers() {
        for t in [
            "Mar 4, 2024",
            "2024-03-05",
            "05.03.2024",
            "2024年3月5日",
            "1999",
        ] {
            assert!(has_year(t), "{t}");
        }
        for t in [
            "12345 views",
            "Part 14",
            "1.5 Million",
            "20240305",
            "3 hours ago",
        ] {
            assert!(!has_year(t), "{t}");
        }
    }
}
