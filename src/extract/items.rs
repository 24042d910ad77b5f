//! Record → item: turns one mined record (a run of sibling DOM subtrees) into
//! a feed item with title, absolute link, date, summary and image.
//!
//! Invariants: `link` and `image` are absolute http(s) URLs; `guid` is stable
//! for the same record content (the link when there is one, otherwise a hash
//! of title and summary), so a record seen again maps to the same item.

use std::borrow::Cow;
use std::ops::Range;

use chrono::{DateTime, FixedOffset};
use sha2::{Digest, Sha256};
use url::Url;

use crate::extract::dates::{
    DateContext, date_in, find_any, find_date, may_hold_date, numeric_orders_of, parse_any,
    parse_date, parse_day, parse_range_start,
};
use crate::extract::dom::{
    Document, Element, NodeData, NodeId, collapse_whitespace, ends_with_ascii_ci, find_ascii_ci,
    is_block_element, is_heading, push_collapsed, starts_with_ascii_ci,
};
use crate::extract::records::Record;

/// One entry of a published feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The record's main link text or heading, whitespace-collapsed.
    pub title: String,
    /// Absolute URL of the record's main link, if it has one.
    pub link: Option<Url>,
    /// Stable identifier: the link's string when there is a link, otherwise
    /// `"urn:feedmine:<hex sha256 prefix>"` of title + summary.
    pub guid: String,
    /// Publication date found in the record, if any.
    pub date: Option<DateTime<FixedOffset>>,
    /// True when `date` was resolved from a phrase relative to the fetch
    /// time ("2 days ago", "today"): the state keeps the first sight's.
    pub date_relative: bool,
    /// The record's remaining text (without the title), whitespace-collapsed.
    pub summary: String,
    /// First content image of the record, absolute.
    pub image: Option<Url>,
    /// The record's byline (poster, author), whitespace-collapsed.
    pub author: Option<String>,
    /// The record's tags or labels, in page order, without duplicates.
    pub categories: Vec<String>,
    /// Sanitized main-content HTML of the linked page (filled by `bodies`).
    pub body_html: Option<String>,
}

#[cfg(test)]
impl Item {
    /// Tests' item: `title` and nothing else.
    pub(crate) fn bare(title: &str) -> Item {
        Item {
            title: title.to_owned(),
            link: None,
            guid: String::new(),
            date: None,
            date_relative: false,
            summary: String::new(),
            image: None,
            author: None,
            categories: Vec::new(),
            body_html: None,
        }
    }
}

impl Item {
    /// True when `guid` is the link itself (RSS `isPermaLink="true"`).
    pub fn guid_is_permalink(&self) -> bool {
        self.link.as_ref().is_some_and(|l| l.as_str() == self.guid)
    }
}

/// Link texts that name an action, not the record: never a title when the
/// record has a better link. Written lower case and without the punctuation
/// around them ("More »", "more..." are "more"), as [`is_action_text`]
/// compares them.
const ACTION_TEXTS: &[&str] = &[
    "read more",
    "more",
    "continue reading",
    "read the rest",
    "read full story",
    "comments",
    "reply",
    "share",
    "save",
    "report",
    "permalink",
    "view all",
    "see all",
    "show all",
    "all posts",
    "older posts",
    "newer posts",
    "load more",
    "weiterlesen",
    "mehr",
    "lire la suite",
    "leer más",
    "阅读全文",
    "更多",
    "続きを読む",
];

/// True for "Read more", "Comments", "36 commits" and the like.
pub(crate) fn is_action_text(t: &str) -> bool {
    let l = t.to_lowercase();
    let l = l.trim_matches(|c: char| !c.is_alphanumeric() && (c as u32) <= 0x2E80);
    !l.is_empty() && (ACTION_TEXTS.contains(&l) || is_count_text(l))
}

/// A count of something: a number and one word ("187 comments", "36
/// commits", "4 replies", "1.2k points") — a counter, never a headline.
fn is_count_text(t: &str) -> bool {
    let mut words = t.split_whitespace();
    let (Some(number), Some(noun), None) = (words.next(), words.next(), words.next()) else {
        return false;
    };
    number.starts_with(|c: char| c.is_ascii_digit())
        && number
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | 'k' | 'm'))
        && noun.chars().all(char::is_alphabetic)
}

/// Summaries are cut (at a word boundary) beyond this many characters.
pub const MAX_SUMMARY_CHARS: usize = 1_000;

/// Class tokens (and parts of custom element names) that mark a slot in a
/// list as an advertisement: `li.sponsored`, `div.promotedlink`,
/// `<shreddit-ad-post>`, `<amp-ad>`.
const AD_MARKERS: &[&str] = &[
    "ad",
    "ads",
    "advert",
    "advertisement",
    "sponsored",
    "promoted",
    "promotedlink",
];

/// True when a record is an advertisement placed among the records: its
/// element, or an element child of it, is marked as one by a class token
/// in [`AD_MARKERS`] (or one of its `-`-separated or camel-case parts, as
/// in `ad-slot`, `native-ad`, `AdHolder`) or a custom element name with
/// such a part.
pub fn is_advertising(doc: &Document, record: &Record) -> bool {
    let marked = |id: NodeId| {
        doc.element(id).is_some_and(|e| {
            let custom = e.name.contains('-')
                && has_part(std::iter::once(e.name.as_str()), &['-'], AD_MARKERS);
            let class = e.attr("class").unwrap_or("");
            let humps = class.split_whitespace().flat_map(camel_humps);
            custom || has_part(humps, &['-'], AD_MARKERS)
        })
    };
    marked(record.start)
        || doc.children(record.start).any(marked)
        || has_ad_label(doc, record, &marked)
}

/// True when a record is a box placed among the records to sign the
/// reader up (a job alert, a newsletter): it asks for an email address
/// (`input type=email`). A card's "add to cart" or "save" form asks for
/// none.
pub fn is_signup_box(doc: &Document, record: &Record) -> bool {
    (record.start..record.end).any(|i| {
        doc.element(i).is_some_and(|e| {
            e.name == "input"
                && e.attr("type")
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("email"))
        })
    })
}

/// True when a record stands among the records without being one: an ad
/// ([`is_advertising`]) or a sign-up box ([`is_signup_box`]).
pub fn is_interruption(doc: &Document, record: &Record) -> bool {
    is_advertising(doc, record) || is_signup_box(doc, record)
}

/// The humps of a camel-case class token (`AdHolder`: `Ad`, `Holder`;
/// `promotedTweet`: `promoted`, `Tweet`): a cut before each capital that
/// follows a lower-case letter. A token without one is its own hump.
fn camel_humps(token: &str) -> impl Iterator<Item = &str> {
    let b = token.as_bytes();
    let mut start = 0;
    let mut i = 1;
    std::iter::from_fn(move || {
        if start >= b.len() {
            return None;
        }
        while i < b.len() && !(b[i - 1].is_ascii_lowercase() && b[i].is_ascii_uppercase()) {
            i += 1;
        }
        let hump = &token[start..i];
        start = i;
        i += 1;
        Some(hump)
    })
}

/// Levels below a record's top an "Ad" or "Sponsored" label is looked for
/// (a marketplace's result card holds it six levels down).
const AD_LABEL_DEPTH: u32 = 6;

/// True when an element near the top of the record's first element is a
/// label marked as an ad whose text says so too (`<div
/// class="card-tag--sponsored">Sponsored</div>` in the card's header): an
/// ad slot nested in a real record has no such text; or text kept for
/// screen readers that opens with such a word (`<span
/// class=wt-screen-reader-only>Ad from shop Kiln</span>`, where the other
/// cards say "From shop …"). Only the first element: an ad placed between
/// the siblings of two records is not the record before it.
fn has_ad_label(doc: &Document, record: &Record, marked: &dyn Fn(NodeId) -> bool) -> bool {
    let top = doc.node(record.start).depth;
    let end = doc.node(record.start).end.min(record.end);
    let mut i = record.start + 1;
    while i < end {
        let node = doc.node(i);
        let for_screen_readers = doc.element(i).is_some_and(Element::is_for_screen_readers);
        let labelled = (marked(i) || for_screen_readers) && {
            let text = doc.text(i);
            let text = text.trim().trim_end_matches(':');
            let first = text.split_whitespace().next().unwrap_or("");
            AD_MARKERS.iter().any(|m| {
                text.eq_ignore_ascii_case(m)
                    || (for_screen_readers && first.eq_ignore_ascii_case(m))
            })
        };
        if labelled {
            return true;
        }
        // Below the last level looked at, skip the subtree.
        i = if node.depth >= top + AD_LABEL_DEPTH {
            node.end.max(i + 1)
        } else {
            i + 1
        };
    }
    false
}

/// Class-name parts that mark a card as a promotion of the site's own
/// (`card--promo`, `promo-tile`).
const PROMO_MARKERS: &[&str] = &["promo", "promotion"];

/// True when a record is the site's own advertisement placed among the
/// records (a museum's "See every exhibition for free" membership card in
/// its grid of exhibitions): its element is marked as a promotion
/// ([`PROMO_MARKERS`], as parts of its class tokens) and its `item` links
/// outside the folder most of the `items` link into. A product on
/// promotion, marked the same way, links where the other products do.
fn is_house_promo(doc: &Document, record: &Record, item: &Item, items: &[Item]) -> bool {
    let marked = doc.element(record.start).is_some_and(|e| {
        let class = e.attr("class").unwrap_or("");
        has_part(
            class.split_whitespace().flat_map(camel_humps),
            &['-', '_'],
            PROMO_MARKERS,
        )
    });
    let Some(own) = item.link.as_ref().filter(|_| marked).map(folder_of) else {
        return false;
    };
    let mut counts: std::collections::HashMap<(Option<&str>, &str), usize> = Default::default();
    for link in items.iter().filter_map(|it| it.link.as_ref()) {
        *counts.entry(folder_of(link)).or_default() += 1;
    }
    counts
        .into_iter()
        .find(|&(_, n)| n * 2 > items.len())
        .is_some_and(|(folder, _)| folder != own)
}

/// `items` (one for each of `records`) without the site's own promotions
/// among them ([`is_house_promo`]).
pub fn without_house_promos(doc: &Document, records: &[Record], items: Vec<Item>) -> Vec<Item> {
    let promos: Vec<bool> = records
        .iter()
        .zip(&items)
        .map(|(r, it)| is_house_promo(doc, r, it, &items))
        .collect();
    items
        .into_iter()
        .zip(promos)
        .filter_map(|(it, promo)| (!promo).then_some(it))
        .collect()
}

/// A link's host and folder: `/whats-on/exhibitions/tidelines/` is in
/// `/whats-on/exhibitions`.
fn folder_of(url: &Url) -> (Option<&str>, &str) {
    let path = url.path().trim_end_matches('/');
    (
        url.host_str(),
        path.rsplit_once('/').map_or("", |(dir, _)| dir),
    )
}

/// Class-name parts that mark a comment as taken down.
const DELETED_MARKERS: &[&str] = &["deleted", "removed"];

/// Bytes of a thread record's text, beside its deletion notice, that are
/// still chrome (a collapse button "−", a reply count "[4]").
const STUB_CHROME_BYTES: usize = 16;

/// True when a record of a thread is the stub a deleted comment leaves
/// (Tildes' `<div class="is-comment-deleted">Comment deleted by
/// author</div>`, Reddit's `.deleted`): an element marked deleted or
/// removed by a class part in [`DELETED_MARKERS`] holds its text outside
/// links, all but a few bytes of chrome. Its replies stay records.
pub fn is_deleted_stub(doc: &Document, record: &Record) -> bool {
    let marker = (record.start..record.end).find(|&i| {
        doc.element(i).is_some_and(|e| {
            let class = e.attr("class").unwrap_or("");
            has_part(class.split_whitespace(), &['-', '_'], DELETED_MARKERS)
        }) && doc.text_bytes(i) > 0
    });
    marker.is_some_and(|m| {
        let notice = doc.range_text_bytes(m, doc.node(m).end.min(record.end));
        text_outside_links(doc, record).saturating_sub(notice) < STUB_CHROME_BYTES
    })
}

/// True when one of `tokens`, or a part of one cut at `separators`, is one
/// of `words` (any case): `ad-slot` holds `ad`, `img-icon` holds `icon`.
fn has_part<'t>(
    tokens: impl Iterator<Item = &'t str>,
    separators: &[char],
    words: &[&str],
) -> bool {
    tokens
        .flat_map(|t| t.split(separators))
        .any(|part| words.iter().any(|w| part.eq_ignore_ascii_case(w)))
}

/// The reading context of a list's records: `dates`, with slash dates
/// read day first and dash dates month first when the records' own texts
/// write them that way ([`numeric_orders_of`]: "19/11/2026" and never
/// "11/19/2026"; "11-19-2026" and never "19-11-2026").
pub fn list_dates<'r>(
    doc: &Document,
    records: impl IntoIterator<Item = &'r Record>,
    dates: &DateContext,
) -> DateContext {
    let texts = records
        .into_iter()
        .flat_map(|r| r.start..r.end)
        .filter_map(|i| match &doc.node(i).data {
            NodeData::Text { text, blank: false } => Some(text.as_str()),
            _ => None,
        });
    let orders = numeric_orders_of(texts);
    DateContext {
        day_first: orders.slash_day_first,
        dash_month_first: orders.dash_month_first,
        ..*dates
    }
}

/// The base URL links of a page resolve against: `<base href>` (itself
/// resolved against the page's final URL) or the final URL.
pub fn base_url(doc: &Document, page_url: &Url) -> Url {
    doc.base_href
        .as_deref()
        .and_then(|b| page_url.join(b).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https" | "file"))
        .unwrap_or_else(|| page_url.clone())
}

/// Resolve `href` against `base`, keeping only http(s) (and file, for local
/// pages) targets.
pub fn resolve(base: &Url, href: &str) -> Option<Url> {
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let mut url = base.join(href).ok()?;
    if !matches!(url.scheme(), "http" | "https" | "file") {
        return None;
    }
    url.set_fragment(None);
    Some(url)
}

/// [`resolve`] keeping the fragment, and taking fragment-only links
/// (`#comment-12`) as the page's own URL with that fragment: for records
/// that a fragment tells apart.
pub fn resolve_with_fragment(base: &Url, href: &str) -> Option<Url> {
    let href = href.trim();
    if href.is_empty() || href == "#" {
        return None;
    }
    let url = base.join(href).ok()?;
    matches!(url.scheme(), "http" | "https" | "file").then_some(url)
}

/// A record's link: [`resolve`], or [`resolve_with_fragment`] when the
/// group's links differ by their fragments (`keep_fragments`) or the
/// fragment names one comment of the page ([`names_comment`]).
pub fn resolve_link(base: &Url, href: &str, keep_fragments: bool) -> Option<Url> {
    if keep_fragments || names_comment(href) {
        resolve_with_fragment(base, href)
    } else {
        resolve(base, href)
    }
}

/// The group-level choice of the title link: the structural path (tags and
/// classes from the record down to the `<a>`) that most records share and
/// whose link texts differ from record to record. Per-record guesses are
/// fooled by links in excerpts and by repeated action links ("Source code
/// (tar.gz)", "12 comments"); the path that is the same in every record
/// and says something different in each is the headline.
#[derive(Debug, Clone, Default)]
pub struct TitlePlan {
    pub path: Option<String>,
    /// Image sources found in more than one record: status icons, rating
    /// stars and spacers, never a record's own picture.
    pub shared_images: std::collections::HashSet<String>,
    /// The link at `path` in each record (computed once for the group).
    pub title_links: rustc_hash::FxHashSet<NodeId>,
    /// Title text of every link of the group's records, by node.
    pub link_texts: rustc_hash::FxHashMap<NodeId, String>,
    /// The records have no headline of their own (comments, status
    /// posts): the title is the start of their text and the link their
    /// permalink (see [`headless_group`]).
    pub headless: bool,
    /// Each record's permalink, when it has one: a link whose text is its
    /// posting time or says "permalink", or a forum post's number.
    pub permalinks: rustc_hash::FxHashSet<NodeId>,
    /// The records' links differ only by their fragment (`#comment-12`,
    /// `#v2-1`): the fragment is kept, or every record would get the same
    /// link and guid.
    pub keep_fragments: bool,
    /// Each record's own link where title links repeat (see
    /// [`change_links`]): the record is linked by it, not by its title.
    pub change_links: rustc_hash::FxHashSet<NodeId>,
}

/// Share of records a title path must appear in.
const TITLE_PATH_PRESENCE: f64 = 0.6;
/// Share of distinct texts among a title path's links.
const TITLE_PATH_DISTINCT: f64 = 0.7;
/// Share of distinct texts among a title path's links whose texts repeat
/// only with their addresses (see [`says_something_each`]).
const TITLE_PATH_DISTINCT_PAGES: f64 = 0.5;

/// Structural path of node `id` inside `record`, written into `path`
/// (cleared first): `tag.class` steps from the record's top down to `id`.
/// `steps` is scratch for the nodes on the way.
fn path_in_record(
    doc: &Document,
    record: &Record,
    id: NodeId,
    steps: &mut Vec<NodeId>,
    path: &mut String,
) {
    steps.clear();
    steps.extend(
        std::iter::once(id)
            .chain(doc.ancestors(id))
            .take_while(|&a| a >= record.start && a < record.end),
    );
    path.clear();
    for (n, (a, e)) in steps
        .iter()
        .rev()
        .filter_map(|&a| Some((a, doc.element(a)?)))
        .enumerate()
    {
        if n > 0 {
            path.push('/');
        }
        // The record's own element is a record whatever its class
        // (`li.mw-line-odd`, `li.mw-line-even`: zebra rows).
        let class = match a == record.start {
            true => None,
            false => e.attr("class").unwrap_or("").split_whitespace().next(),
        };
        path.push_str(&e.name);
        path.push('.');
        path.push_str(class.unwrap_or(""));
    }
}

/// What the records say about one title path.
#[derive(Default)]
struct PathStats {
    /// The path itself (`h2.entry-title/a.`).
    path: String,
    records: usize,
    /// The first link at the path in each record (its text is in
    /// [`TitlePlan::link_texts`]).
    links: Vec<NodeId>,
    chars: usize,
    heading: usize,
    header: usize,
    slug: f64,
    /// Records where the link is a file download or hidden.
    demoted: usize,
    /// Sum of the link's rank among the record's usable links.
    rank: usize,
}

impl PathStats {
    /// Count link `a` (text `text`, `rank`-th usable link of record `r`)
    /// as the record's link at this path.
    fn add(&mut self, doc: &Document, r: &Record, a: NodeId, text: &str, href: &str, rank: usize) {
        self.slug += slug_match(text, href);
        self.records += 1;
        self.chars += text.chars().count();
        self.heading += usize::from(in_or_has_heading(doc, r, a));
        self.header += usize::from(in_header_block(doc, r, a));
        self.demoted += usize::from(is_download(href) || in_closed_details(doc, r, a));
        self.rank += rank;
        self.links.push(a);
    }
}

/// The title paths of a group, numbered as they are met: one string per
/// distinct path. Paths are made of the page's class names, so std's keyed
/// hash (not Fx) keeps a page from choosing colliding ones.
#[derive(Default)]
struct TitlePaths {
    ids: std::collections::HashMap<String, usize>,
    stats: Vec<PathStats>,
}

impl TitlePaths {
    /// The number of `path`, new paths getting the next one.
    fn id(&mut self, path: &str) -> usize {
        if let Some(&id) = self.ids.get(path) {
            return id;
        }
        let id = self.stats.len();
        self.ids.insert(path.to_owned(), id);
        self.stats.push(PathStats {
            path: path.to_owned(),
            ..PathStats::default()
        });
        id
    }
}

/// Choose the title path for a group of records.
pub fn plan_titles(doc: &Document, records: &[Record], dates: &DateContext) -> TitlePlan {
    use rustc_hash::FxHashMap as HashMap;
    let mut paths = TitlePaths::default();
    let mut link_texts: HashMap<NodeId, String> = HashMap::default();
    // Links whose text is a date or says "permalink", per record.
    let mut permalinks: Vec<Option<NodeId>> = Vec::with_capacity(records.len());
    let (mut steps, mut key, mut seen_here) = (Vec::new(), String::new(), Vec::new());
    for r in records {
        seen_here.clear();
        let mut permalink = None;
        for i in r.start..r.end {
            let Some(el) = doc.element(i) else { continue };
            if el.name != "a" || el.attr("href").is_none() {
                continue;
            }
            let text = link_title_text(doc, i);
            if permalink.is_none() && names_permalink(doc, r, i, &text, dates) {
                permalink = Some(i);
            }
            if !text.is_empty()
                && !is_action_text(&text)
                && !is_number_twin(doc, r, i, &text, dates)
            {
                path_in_record(doc, r, i, &mut steps, &mut key);
                let id = paths.id(&key);
                // The first link at a path is the record's.
                if !seen_here.contains(&id) {
                    let href = el.attr("href").unwrap_or("");
                    paths.stats[id].add(doc, r, i, &text, href, seen_here.len());
                    seen_here.push(id);
                }
            }
            link_texts.insert(i, text);
        }
        permalinks.push(permalink);
    }
    let k = records.len().max(1) as f64;
    let best = paths
        .stats
        .iter()
        .filter(|st| st.records as f64 >= TITLE_PATH_PRESENCE * k && st.chars > 0)
        .filter(|st| records.len() < 3 || says_something_each(doc, st, &link_texts))
        .map(|st| {
            let n = st.records as f64;
            let mean = st.chars as f64 / n;
            // Length counts, but with diminishing returns: an excerpt link is
            // longer than the headline link, and must not win on length alone.
            let heading = if st.heading * 2 >= st.records {
                3.0
            } else if st.header * 2 >= st.records {
                2.0
            } else {
                1.0
            };
            let demoted = if st.demoted * 2 > st.records {
                0.3
            } else {
                1.0
            };
            let presence = n / k;
            let slug = 1.0 + st.slug / n;
            let score = mean.min(80.0).sqrt() * heading * presence * slug * demoted;
            (st, score, st.rank as f64 / n)
        })
        // Best score; on a tie the path that comes first in the records.
        .max_by(|a, b| {
            a.1.total_cmp(&b.1)
                .then(b.2.total_cmp(&a.2))
                .then(b.0.path.cmp(&a.0.path))
        })
        .map(|(st, _, _)| st);
    post_number_permalinks(doc, records, &link_texts, &mut permalinks);
    let path = best.map(|st| st.path.clone());
    let mean_title_chars = best.map_or(0.0, |st| st.chars as f64 / st.records.max(1) as f64);
    let headless = headless_group(doc, records, &permalinks, mean_title_chars);
    let title_links: rustc_hash::FxHashSet<NodeId> = best
        .map(|st| st.links.iter().copied().collect())
        .unwrap_or_default();
    let chosen: Vec<NodeId> = if headless {
        permalinks.iter().flatten().copied().collect()
    } else {
        title_links.iter().copied().collect()
    };
    let change_links = match best {
        Some(best) if !headless => change_links(doc, &paths.stats, best, &link_texts, records),
        _ => Default::default(),
    };
    TitlePlan {
        path,
        shared_images: shared_images(doc, records),
        title_links,
        link_texts,
        headless,
        permalinks: permalinks.iter().flatten().copied().collect(),
        keep_fragments: fragments_identify(doc, &chosen),
        change_links,
    }
}

/// True when link `a` (text `text`) says no word and another link of
/// `record` at the same path goes to the same address and does: an
/// index's number column ("8" beside "Style Guide for Code", both
/// `td/p/a.pep` to `/mep-0008/`) numbers what the worded link names, and
/// the path alone cannot tell them apart. A date is no word ("#1843"
/// beside its build time stays the build's name).
fn is_number_twin(
    doc: &Document,
    record: &Record,
    a: NodeId,
    text: &str,
    dates: &DateContext,
) -> bool {
    if text.chars().any(char::is_alphabetic) {
        return false;
    }
    let Some(href) = link_href(doc, a) else {
        return false;
    };
    let (mut steps, mut path, mut other) = (Vec::new(), String::new(), String::new());
    path_in_record(doc, record, a, &mut steps, &mut path);
    (record.start..record.end).any(|j| {
        j != a
            && doc.is_tag(j, "a")
            && link_href(doc, j) == Some(href)
            && {
                let words = link_title_text(doc, j);
                words.chars().any(char::is_alphabetic) && parse_date(&words, dates).is_none()
            }
            && {
                path_in_record(doc, record, j, &mut steps, &mut other);
                other == path
            }
    })
}

/// The links that tell records apart where their title links do not: a
/// wiki's recent changes list each edit of a page under the page's title,
/// so two records' title links go to one address, and each edit's "diff"
/// link is its own. When the title path's links repeat an address, the
/// links of another path that say one word ("diff", "permalink"; or all of
/// them, when each says something else, as times do) and go to a
/// different address in every record link their records, if there are as
/// many as a title path needs (the most; on a tie, the path first in the
/// records), provided each names the page its record's title links to
/// ([`names_page`]: a change of that page, not another address of the
/// record such as a PDF). Records without such a link keep their title
/// link (a page's creation, whose "diff" is no link). Empty when the title
/// links differ.
fn change_links(
    doc: &Document,
    stats: &[PathStats],
    title: &PathStats,
    link_texts: &rustc_hash::FxHashMap<NodeId, String>,
    records: &[Record],
) -> rustc_hash::FxHashSet<NodeId> {
    let href = |a: &NodeId| link_href(doc, *a).unwrap_or("");
    let distinct = |links: &[NodeId]| {
        let mut hrefs: Vec<&str> = links.iter().map(href).collect();
        hrefs.sort_unstable();
        hrefs.dedup();
        hrefs.len() == links.len()
    };
    if distinct(&title.links) {
        return Default::default();
    }
    let text = |a: &NodeId| link_texts.get(a).map_or("", String::as_str);
    // The title link of the record holding `a` (links and records are in
    // document order).
    let title_of = |a: NodeId| {
        let r = records.get(records.partition_point(|r| r.end <= a))?;
        let t = title.links[title.links.partition_point(|&t| t < r.start)..]
            .first()
            .filter(|&&t| t < r.end)?;
        Some(href(t))
    };
    let of_titles = |links: &[NodeId]| {
        links
            .iter()
            .all(|&a| title_of(a).is_some_and(|t| names_page(href(&a), t)))
    };
    stats
        .iter()
        .filter(|st| st.path != title.path)
        .map(|st| (st, one_word_links(&st.links, &text)))
        .filter(|(_, links)| links.len() as f64 >= TITLE_PATH_PRESENCE * records.len() as f64)
        .filter(|(_, links)| distinct(links) && of_titles(links))
        .max_by(|(a, la), (b, lb)| {
            la.len()
                .cmp(&lb.len())
                .then((b.rank * a.records).cmp(&(a.rank * b.records)))
        })
        .map(|(_, links)| links.into_iter().collect())
        .unwrap_or_default()
}

/// True when address `change` names the page `title` links to: it holds
/// the last segment of the title's path ("Fernbrook_Viaduct" of
/// `/wiki/Fernbrook_Viaduct` in `index.php?title=Fernbrook_Viaduct&diff=48268`).
fn names_page(change: &str, title: &str) -> bool {
    let path = title.split(['?', '#']).next().unwrap_or("");
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    last.len() >= 3 && change.contains(last)
}

/// Those of `links` that say the word most of them say, or all of them
/// when none is said twice.
fn one_word_links<'t>(links: &[NodeId], text: &dyn Fn(&NodeId) -> &'t str) -> Vec<NodeId> {
    let mut counts: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for a in links {
        *counts.entry(text(a)).or_default() += 1;
    }
    match counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
    {
        Some((word, n)) if n > 1 => links.iter().copied().filter(|a| text(a) == word).collect(),
        _ => links.to_vec(),
    }
}

/// True when the links at a title path say something different from
/// record to record: [`TITLE_PATH_DISTINCT`] of their texts differ, or
/// their texts repeat only where their addresses do and at least
/// [`TITLE_PATH_DISTINCT_PAGES`] differ (a wiki's recent changes name a
/// page edited three times three times, always linked to that page; an
/// action link, "Source code (tar.gz)", says the same of other addresses).
fn says_something_each(
    doc: &Document,
    st: &PathStats,
    link_texts: &rustc_hash::FxHashMap<NodeId, String>,
) -> bool {
    let text = |a: &NodeId| link_texts.get(a).map_or("", String::as_str);
    let mut texts: Vec<&str> = st
        .links
        .iter()
        .map(text)
        .filter(|t| !t.is_empty())
        .collect();
    let n = texts.len().max(1) as f64;
    texts.sort_unstable();
    texts.dedup();
    let distinct = texts.len() as f64;
    if distinct >= TITLE_PATH_DISTINCT * n {
        return true;
    }
    if distinct < TITLE_PATH_DISTINCT_PAGES * n {
        return false;
    }
    // As many (text, address) pairs as texts: a text repeats only with
    // its address.
    let mut pairs: Vec<(&str, &str)> = st
        .links
        .iter()
        .map(|a| (text(a), link_href(doc, *a).unwrap_or("")))
        .filter(|(t, _)| !t.is_empty())
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs.len() == texts.len()
}

/// Forum posts numbered in the thread (`#<a href="showpost.php?p=…">1</a>`,
/// `<a href="/posts/884190/">#1</a>`): where most records without a
/// permalink have a link whose text is a number, and those numbers count
/// up from record to record, each is its record's permalink. A release's
/// "#1412" pull-request links do not count up, so they stay references.
fn post_number_permalinks(
    doc: &Document,
    records: &[Record],
    link_texts: &rustc_hash::FxHashMap<NodeId, String>,
    permalinks: &mut [Option<NodeId>],
) {
    let number = |a: &NodeId| -> Option<u32> {
        let digits = link_texts.get(a)?.trim().trim_start_matches('#');
        let short = (1..=6).contains(&digits.len());
        short.then(|| digits.parse().ok()).flatten()
    };
    let found: Vec<(usize, NodeId, u32)> = records
        .iter()
        .enumerate()
        .filter(|(k, _)| permalinks[*k].is_none())
        .filter_map(|(k, r)| {
            (r.start..r.end)
                .filter(|&i| doc.is_tag(i, "a"))
                .find_map(|a| Some((k, a, number(&a)?)))
        })
        .collect();
    let counts_up = found.windows(2).all(|w| w[0].2 < w[1].2);
    if found.len() < 2 || found.len() * 2 < records.len() || !counts_up {
        return;
    }
    for (k, a, _) in found {
        permalinks[k] = Some(a);
    }
}

/// Image sources found in more than one record (decoration, not content).
fn shared_images(doc: &Document, records: &[Record]) -> std::collections::HashSet<String> {
    let mut image_records: rustc_hash::FxHashMap<String, usize> = Default::default();
    for r in records {
        let mut here: Vec<&str> = (r.start..r.end)
            .filter_map(|i| shown_src(doc.element(i).filter(|e| e.name == "img")?))
            .collect();
        here.sort_unstable();
        here.dedup();
        for src in here {
            *image_records.entry(src.trim().to_string()).or_insert(0) += 1;
        }
    }
    image_records
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(src, _)| src)
        .collect()
}

/// Title links longer than this (mean characters) are headlines: a group
/// whose title path reads like that is never headless.
const HEADLESS_MAX_TITLE_CHARS: f64 = 25.0;
/// Text outside links a headless record holds (median, bytes) at least.
const HEADLESS_MIN_TEXT: usize = 60;

/// Comments, replies and status posts have no headline: no heading, a
/// permalink whose text is the time it was posted (or "permalink"), and
/// much more text of their own than in any link (the only short, regular
/// link is the author's name). Such a group takes its titles from the
/// records' text instead of the author links.
fn headless_group(
    doc: &Document,
    records: &[Record],
    permalinks: &[Option<NodeId>],
    mean_title_chars: f64,
) -> bool {
    if records.len() < 2 || mean_title_chars >= HEADLESS_MAX_TITLE_CHARS {
        return false;
    }
    let half = records.len().div_ceil(2);
    let with_heading = records
        .iter()
        .filter(|r| {
            (r.start..r.end).any(|i| {
                doc.tag(i).is_some_and(is_heading)
                    && doc.text_bytes(i) > 0
                    && !is_byline_heading(doc, r, i)
            })
        })
        .count();
    let with_permalink = permalinks.iter().filter(|p| p.is_some()).count();
    if with_heading >= half || with_permalink < half {
        return false;
    }
    let mut own: Vec<usize> = records.iter().map(|r| text_outside_links(doc, r)).collect();
    own.sort_unstable();
    let median = own[own.len() / 2];
    median >= HEADLESS_MIN_TEXT && median as f64 >= 3.0 * mean_title_chars
}

/// True when heading `h` of `record` names the poster, not the post: it
/// sits in the record's byline (`section.message-user[itemprop=author]`)
/// or its links all are author links (`h4 > a.username`), as forum posts
/// head their poster's card.
fn is_byline_heading(doc: &Document, record: &Record, h: NodeId) -> bool {
    let in_byline = std::iter::once(h)
        .chain(doc.ancestors(h).take_while(|&a| a >= record.start))
        .filter_map(|a| doc.element(a))
        .any(crate::extract::byline::is_author);
    let mut links = (h..doc.node(h).end)
        .filter_map(|i| doc.element(i))
        .filter(|e| e.name == "a")
        .peekable();
    in_byline || (links.peek().is_some() && links.all(crate::extract::byline::is_author))
}

/// Visible text bytes of a record outside its links.
fn text_outside_links(doc: &Document, r: &Record) -> usize {
    doc.texts_outside_links(r.start, r.end)
        .map(|t| t.trim().len())
        .sum()
}

/// True when the link `a` with text `text` is `record`'s permalink: by
/// what it says ([`icon_link_name`], [`is_permalink_text`],
/// [`is_share_permalink`]), or by the `<time datetime>` it holds
/// ([`holds_time`]); never a link of a comment under the record
/// ([`in_inner_comment`]: a Q&A answer's comments are dated links).
fn names_permalink(
    doc: &Document,
    record: &Record,
    a: NodeId,
    text: &str,
    dates: &DateContext,
) -> bool {
    let named = doc.element(a).is_some_and(|el| {
        let name = icon_link_name(el, text);
        is_permalink_text(name, dates) || is_share_permalink(el, name)
    });
    (named || holds_time(doc, a)) && !in_inner_comment(doc, record, a)
}

/// A "Share" link to a page of the site (`/a/78123552/1180233`, a Q&A
/// answer's own address), not a share menu (`#`) or a sharing service.
fn is_share_permalink(el: &Element, name: &str) -> bool {
    let href = el.attr("href").unwrap_or("").trim();
    name.trim().eq_ignore_ascii_case("share") && href.starts_with('/') && !href.starts_with("//")
}

/// True when link `a` sits in a comment listed under `record` (see
/// [`is_listed_comment`]): the comments a Q&A site shows under each
/// answer.
fn in_inner_comment(doc: &Document, record: &Record, a: NodeId) -> bool {
    std::iter::once(a)
        .chain(doc.ancestors(a))
        .take_while(|&x| x > record.start)
        .any(|x| is_listed_comment(doc, x))
}

/// True for a comment in a list of comments: an element whose class
/// names a comment, in one whose class names a list of them
/// (`li.comment` in `ul.comments`). A comment's own wrapper and parts
/// (`article.comment-node` in `li.comment`, `div.comment-meta`) are not.
fn is_listed_comment(doc: &Document, id: NodeId) -> bool {
    let class = |id: NodeId| doc.element(id).and_then(|e| e.attr("class"));
    let has = |token: &str, words: &[&str]| has_part(std::iter::once(token), &['-', '_'], words);
    class(id).is_some_and(|c| {
        has_part(
            c.split_ascii_whitespace(),
            &['-', '_'],
            &["comment", "comments"],
        )
    }) && doc.node(id).parent.and_then(class).is_some_and(|c| {
        c.split_ascii_whitespace()
            .any(|t| has(t, &["comments"]) || (has(t, &["comment"]) && has(t, &["list"])))
    })
}

/// What a link says: its text, or for an icon-only link (no text) the
/// name its `title` or `aria-label` gives it (a comment's permalink drawn
/// as a chain icon, `title="link"`).
fn icon_link_name<'a>(el: &'a Element, text: &'a str) -> &'a str {
    if !text.trim().is_empty() {
        return text;
    }
    el.attr("title")
        .or_else(|| el.attr("aria-label"))
        .unwrap_or("")
}

/// A link text that is the record's posting time ("3 hours ago", "March
/// 6, 2024 at 9:12 am") or names the link a permalink.
fn is_permalink_text(text: &str, dates: &DateContext) -> bool {
    let t = text.trim();
    if t.is_empty() || t.chars().count() > 40 {
        return false;
    }
    // "edited Mar 5, 2024 at 7:47" links the post's revisions.
    let revision = [
        "edited",
        "updated",
        "modified",
        "last edited",
        "last updated",
    ]
    .iter()
    .any(|w| starts_with_ascii_ci(t, w));
    if revision {
        return false;
    }
    let says_link = ["permalink", "link", "#", "¶", "direct link"]
        .iter()
        .any(|w| t.eq_ignore_ascii_case(w));
    says_link || is_clock_time(t) || date_covers_half(t, dates)
}

/// True for a time of day on its own: "2:05 PM", "14:02", "9:14:07 a.m."
/// (a blog post's "Posted by … at 2:05 PM" links the post by its time).
fn is_clock_time(t: &str) -> bool {
    let (clock, meridiem) = match t.find(|c: char| !c.is_ascii_digit() && c != ':') {
        Some(at) => t.split_at(at),
        None => (t, ""),
    };
    let meridiem = meridiem.trim().replace('.', "");
    let parts: Vec<&str> = clock.split(':').collect();
    let hour_ok = parts.first().is_some_and(|h| (1..=2).contains(&h.len()));
    let minutes_ok =
        parts.len() >= 2 && parts.len() <= 3 && parts[1..].iter().all(|m| m.len() == 2);
    hour_ok
        && minutes_ok
        && (meridiem.is_empty()
            || meridiem.eq_ignore_ascii_case("am")
            || meridiem.eq_ignore_ascii_case("pm"))
}

/// True when `t` is a date, or holds one that takes at least half of it
/// (the prefilter run once for both readings).
fn date_covers_half(t: &str, dates: &DateContext) -> bool {
    may_hold_date(t)
        && (parse_any(t, dates).is_some()
            || find_any(t, dates).is_some_and(|(_, m)| m.len() * 2 >= t.len()))
}

/// The trimmed `href` of link `a`, if it has one.
fn link_href(doc: &Document, a: NodeId) -> Option<&str> {
    doc.element(a)?.attr("href").map(str::trim)
}

/// True when the links differ only by fragment: `post#comment-1`,
/// `post#comment-2` (or `#c1`, `#c2`) are one page without it.
fn fragments_identify(doc: &Document, links: &[NodeId]) -> bool {
    let hrefs: Vec<&str> = links.iter().filter_map(|&a| link_href(doc, a)).collect();
    if hrefs.len() < 2 {
        return false;
    }
    let mut full: Vec<&str> = hrefs.clone();
    full.sort_unstable();
    full.dedup();
    let mut pages: Vec<&str> = hrefs
        .iter()
        .map(|h| h.split('#').next().unwrap_or(""))
        .collect();
    pages.sort_unstable();
    pages.dedup();
    full.len() > pages.len()
}

/// Words that name a comment or post when an anchor's number follows
/// them (`#comment:6`, `#comment-12`, `#issuecomment-88`, `#post-5`).
const COMMENT_ANCHORS: &[&str] = &["comment", "reply", "post", "answer", "note"];

/// True when `href` links to one comment or post of another page (its
/// fragment is a [`COMMENT_ANCHORS`] word and a number): a timeline's
/// "Ticket #1193 closed" or a "recent comments" list links each record to
/// its event in the page, and without the fragment two events of one page
/// would share a link and a guid, and a new one would look already seen.
fn names_comment(href: &str) -> bool {
    let Some((page, fragment)) = href.trim().split_once('#') else {
        return false;
    };
    let word_end = fragment
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(fragment.len());
    let (word, rest) = fragment.split_at(word_end);
    let number = rest.strip_prefix(['-', '_', ':']).unwrap_or(rest);
    !page.is_empty()
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && COMMENT_ANCHORS
            .iter()
            .any(|w| word.to_ascii_lowercase().ends_with(w))
}

/// File extensions of downloads: such a link is an asset of the record,
/// never its title (a PDF can be, so it is not here).
const DOWNLOAD_EXTENSIONS: &[&str] = &[
    ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".dmg", ".exe", ".msi", ".deb", ".rpm",
    ".apk", ".whl", ".jar", ".iso", ".img", ".mp3", ".m4a", ".ogg", ".mp4", ".sig", ".asc",
    ".sha256",
];

fn is_download(href: &str) -> bool {
    let path = href
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    DOWNLOAD_EXTENSIONS.iter().any(|e| path.ends_with(e))
}

/// True when link `a` sits in a closed `<details>` (outside its summary):
/// hidden until the reader opens it.
fn in_closed_details(doc: &Document, record: &Record, a: NodeId) -> bool {
    let mut in_summary = false;
    for x in doc.ancestors(a).take_while(|&x| x >= record.start) {
        match doc.element(x) {
            Some(e) if e.name == "summary" => in_summary = true,
            Some(e) if e.name == "details" => return !in_summary && e.attr("open").is_none(),
            _ => {}
        }
    }
    false
}

/// True when link `a` sits in the record's header block (`<header>` or a
/// class naming a header, e.g. `release-header`, `entry-header`).
fn in_header_block(doc: &Document, record: &Record, a: NodeId) -> bool {
    doc.ancestors(a)
        .take_while(|&x| x >= record.start)
        .any(|x| {
            doc.element(x).is_some_and(|e| {
                e.name == "header"
                    || e.attr("class").is_some_and(|c| {
                        c.split_whitespace()
                            .any(|t| ends_with_ascii_ci(t, "header"))
                    })
            })
        })
}

/// True when link `a` is inside a heading or holds one (within the record).
fn in_or_has_heading(doc: &Document, record: &Record, a: NodeId) -> bool {
    doc.ancestors(a)
        .take_while(|&x| x >= record.start)
        .any(|x| is_title_element(doc, x))
        || (a + 1..doc.node(a).end).any(|x| is_title_element(doc, x))
}

/// True for headings and for elements whose class names them a title
/// (`card-title`, `post-headline`, ...).
pub(crate) fn is_title_element(doc: &Document, id: NodeId) -> bool {
    doc.element(id).is_some_and(|e| {
        is_heading(&e.name)
            || e.attr("class").is_some_and(|c| {
                c.split_ascii_whitespace().any(|token| {
                    let t = token.as_bytes();
                    let names_title = [&b"title"[..], b"headline", b"heading"]
                        .iter()
                        .any(|w| find_ascii_ci(t, w).is_some());
                    names_title && !names_subtitle(t)
                })
            })
    })
}

/// True for a class token that names a subtitle (`subtitle`,
/// `card__sub-title`, `subheading`): a catalogue's "The Salt Road :
/// <span class=subtitle>Walking the Coast</span>" is titled by the whole
/// link, not its subtitle.
fn names_subtitle(token: &[u8]) -> bool {
    [&b"subtitle"[..], b"sub-title", b"sub_title", b"subhead"]
        .iter()
        .any(|w| find_ascii_ci(token, w).is_some())
}

/// A link's title text: the heading (or title-classed element) inside it
/// when it wraps a whole card (heading + excerpt), else its text.
fn link_title_text(doc: &Document, a: NodeId) -> String {
    let text = title_text(doc, link_title_node(doc, a));
    match doc.element(a).and_then(|e| e.attr("title")) {
        Some(tooltip) => completed_title(text, tooltip),
        None => text,
    }
}

/// A title the site cut to fit ("关于公开征求《…（征求意…", "Council approves
/// new …") whose link's `title` attribute holds it whole: the whole title,
/// when it starts with the shown part. Other tooltips ("Permalink", a
/// date) leave the text as it is.
fn completed_title(text: String, tooltip: &str) -> String {
    let Some(shown) = text
        .strip_suffix('…')
        .or_else(|| text.strip_suffix("..."))
        .map(str::trim_end)
    else {
        return text;
    };
    let full = collapse_whitespace(tooltip);
    if !shown.is_empty() && full.len() > shown.len() && full.starts_with(shown) {
        full
    } else {
        text
    }
}

/// The text of a title element without the badges it may start or end
/// with ([`title_badges`]); field selectors read titles the same way.
pub(crate) fn title_text(doc: &Document, node: NodeId) -> String {
    match title_badges(doc, node) {
        (None, None) => doc.shown_text_of_range(node, doc.node(node).end),
        (leading, trailing) => doc.shown_text_of_range(
            leading.map_or(node, |b| doc.node(b).end),
            trailing.unwrap_or(doc.node(node).end),
        ),
    }
}

/// Class-name parts of a badge: a short label set before or after a
/// headline inside its link ("Abonnés", "Video", "New", "AN+", a "動画"
/// video icon, a Trac timeline's "17:58", a news site's "Analysis"
/// kicker).
const BADGE_CLASS_PARTS: &[&str] = &[
    "badge", "label", "pill", "flag", "sticker", "premium", "icon", "kicker", "eyebrow",
];
/// Class-name parts of a date stamped into a title link ("17:58" on a
/// Trac timeline, a release card's "Oct 2, 2026").
const DATE_BADGE_PARTS: &[&str] = &["time", "date", "timestamp"];
/// Longest badge text (bytes).
const MAX_BADGE_BYTES: usize = 24;
/// Text a title keeps at least once its badges are dropped (bytes).
const MIN_TITLE_AFTER_BADGE: usize = 10;

/// The badges a title element starts and ends with, if any: its first
/// (last) non-blank child is an element whose class names a badge, with a
/// short text, and a headline of [`MIN_TITLE_AFTER_BADGE`] bytes remains
/// beside it; a date badge (a `<time>`, or a class naming a date) and a
/// symbol hidden from screen readers need only some text beside them, and
/// go first when not both can. A badge that is the whole title is none.
fn title_badges(doc: &Document, node: NodeId) -> (Option<NodeId>, Option<NodeId>) {
    let mut shown = doc
        .children(node)
        .filter(|&c| !matches!(doc.node(c).data, NodeData::Text { blank: true, .. }));
    let Some(first) = shown.next() else {
        return (None, None);
    };
    let last = shown.last();
    // A badge's text bytes, and whether it needs only some text beside it
    // (a time stamped into the link: "<span class=time>17:58</span>
    // Changeset [4827]").
    let badge = |c: NodeId| {
        let e = doc.element(c)?;
        let part = |parts: &[&str]| {
            e.attr("class")
                .is_some_and(|class| has_part(class.split_ascii_whitespace(), &['-', '_'], parts))
        };
        let bytes = doc.text_bytes(c);
        // A symbol hidden from screen readers ("↗" after a link post's
        // title) or an in-page anchor ("¶" after a heading) is decoration:
        // like a date, it needs only some text beside.
        let decoration = (e.attr("aria-hidden").is_some_and(|h| h.trim() == "true")
            || (e.name == "a" && e.attr("href").is_some_and(|h| h.trim().starts_with('#'))))
            && !doc.text(c).chars().any(char::is_alphanumeric);
        let date = e.name == "time" || part(DATE_BADGE_PARTS) || decoration;
        ((date || part(BADGE_CLASS_PARTS)) && bytes <= MAX_BADGE_BYTES).then_some((bytes, date))
    };
    let total = doc.text_bytes(node);
    let leading = badge(first).filter(|&(b, _)| b > 0).map(|b| (first, b));
    let trailing = last.and_then(|l| Some((l, badge(l)?)));
    // A label needs a headline beside it; a date only some text (a
    // release card's "3.14.0" beside its "Oct 2, 2026").
    let keeps = |dropped: &[(usize, bool)]| {
        let bytes: usize = dropped.iter().map(|d| d.0).sum();
        let rest = total.saturating_sub(bytes);
        rest > 0 && (dropped.iter().all(|d| d.1) || rest >= MIN_TITLE_AFTER_BADGE)
    };
    match (leading, trailing) {
        (Some((f, a)), Some((l, b))) if keeps(&[a, b]) => (Some(f), Some(l)),
        (_, Some((l, b))) if b.1 && keeps(&[b]) => (None, Some(l)),
        (Some((f, a)), _) if keeps(&[a]) => (Some(f), None),
        (_, Some((l, b))) if keeps(&[b]) => (None, Some(l)),
        _ => (None, None),
    }
}

/// Where a link's title text comes from: the title element inside a block
/// link (a card whose `<a>` wraps heading, summary and date), else the
/// link itself.
fn link_title_node(doc: &Document, a: NodeId) -> NodeId {
    (a + 1..doc.node(a).end)
        .find(|&x| is_title_element(doc, x))
        .filter(|&h| doc.text_bytes(h) > 0)
        .unwrap_or(a)
}

/// Share of the words of a URL's last path segment that occur in `text`:
/// posts are usually published under a slug made from their title.
fn slug_match(text: &str, href: &str) -> f64 {
    let path = href.split(['?', '#']).next().unwrap_or("");
    let segment = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".html")
        .trim_end_matches(".htm");
    let mut words: Vec<String> = segment
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1 && !w.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_lowercase)
        .collect();
    words.sort_unstable();
    words.dedup();
    // One-word slugs are user names and tags as often as titles, and
    // version strings (`v3.2.1~1...v3.2.1`) are no slug at all; a text
    // that is itself a path or URL is no headline.
    let t = text.trim_start();
    let wordy = words
        .iter()
        .any(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 3);
    if words.len() < 2 || !wordy || t.starts_with('/') || t.starts_with("http") {
        return 0.0;
    }
    let text = text.to_lowercase();
    words.iter().filter(|w| text.contains(w.as_str())).count() as f64 / words.len() as f64
}

/// A link inside a record, with what the title choice needs.
struct LinkInfo<'p> {
    node: NodeId,
    url: Url,
    /// Its title text (borrowed from the plan, which read every link).
    text: Cow<'p, str>,
    on_title_path: bool,
}

/// Turn one record into an item. `base` is [`base_url`] of the page.
pub fn item_from_record(
    doc: &Document,
    record: &Record,
    base: &Url,
    dates: &DateContext,
    plan: &TitlePlan,
) -> Item {
    let mut links: Vec<LinkInfo> = Vec::new();
    let mut heading: Option<NodeId> = None;
    let mut image: Option<Url> = None;
    let mut attr_date: Option<DateTime<FixedOffset>> = None;
    // Subtrees hidden by their markup, and the first date found in them:
    // a reader sees the visible date (phpBB's hidden "last post" line
    // comes before the topic's own date).
    let mut hidden: Vec<Range<NodeId>> = Vec::new();
    let mut hidden_date: Option<DateTime<FixedOffset>> = None;
    for i in record.start..record.end {
        let Some(el) = doc.element(i) else { continue };
        let name = el.name.as_str();
        if !hidden.last().is_some_and(|r| r.contains(&i)) && el.is_hidden() {
            hidden.push(i..doc.node(i).end);
        }
        let in_hidden = hidden.last().is_some_and(|r| r.contains(&i));
        if name == "a" {
            let url = el
                .attr("href")
                .and_then(|h| resolve_link(base, h, plan.keep_fragments));
            if let Some(url) = url {
                let text = match plan.link_texts.get(&i) {
                    Some(t) => Cow::Borrowed(t.as_str()),
                    None => Cow::Owned(link_title_text(doc, i)),
                };
                let on_title_path = plan.title_links.contains(&i);
                links.push(LinkInfo {
                    node: i,
                    url,
                    text,
                    on_title_path,
                });
            }
        } else if is_heading(name) && heading.is_none() && doc.text_bytes(i) > 0 {
            heading = Some(i);
        } else if name == "img"
            && image.is_none()
            && !shown_src(el).is_some_and(|s| plan.shared_images.contains(s.trim()))
        {
            image = image_url(el, base);
        }
        if attr_date.is_none() && !(in_hidden && hidden_date.is_some()) {
            let found = attribute_date(el, dates);
            if in_hidden {
                hidden_date = found;
            } else {
                attr_date = found;
            }
        }
    }

    // The link whose text is the title, which dates are not read from (a
    // year in a headline): a headless record's permalink is no title, and
    // its text is often the record's date ("Feb 12th, 2024").
    let (title, link_node, title_link) = if plan.headless {
        headless_title(doc, record, &links, &plan.permalinks, dates)
    } else {
        let (title, link) = choose_title(doc, record, &links, heading, &plan.permalinks, dates);
        (title, link, link)
    };
    let own = links.iter().find(|l| plan.change_links.contains(&l.node));
    let by_anchor = || {
        heading
            .filter(|&h| anchor_of(doc, h).is_some())
            .and_then(|h| heading_anchor(doc, h, base))
    };
    let link = own
        .or_else(|| link_node.and_then(|n| links.iter().find(|l| l.node == n)))
        .map(|l| l.url.clone())
        .or_else(by_anchor)
        .or_else(|| links.first().map(|l| l.url.clone()))
        .or_else(|| heading.and_then(|h| heading_anchor(doc, h, base)));

    // What a reader sees: the subtrees the markup hides (phpBB's
    // mobile-only "Last post by …" line) are left out.
    let full = doc.shown_text_of_range(record.start, record.end);
    // A headless record's title is a cut of its own prose (a comment): the
    // summary keeps the whole text, or a short comment would have none.
    let summary = summary_without(full, if plan.headless { "" } else { &title });
    // A machine-readable attribute date is absolute; only a date read from
    // the text can be relative ("2 days ago"), so only that one is re-read.
    let (date, date_relative) = match attr_date {
        Some(d) => (Some(d), false),
        None => record_text_date(doc, record, title_link, &hidden, hidden_date, dates),
    };
    let (author, categories) = crate::extract::byline::byline_and_tags(doc, record, link_node);
    let guid = match &link {
        Some(l) => l.to_string(),
        None => content_guid(&title, &summary),
    };
    Item {
        title,
        link,
        guid,
        date,
        date_relative,
        summary,
        image,
        author,
        categories,
        body_html: None,
    }
}

/// The date a tooltip gives: the whole text, the first of its labelled
/// lines ("Created: Mar 8, 2024 9:12 am⏎Latest: Mar 10, 2024 6:05 pm", as
/// forum topic lists show the first and the latest post; the first is the
/// record's own), or a timestamp that opens it ("2026-11-20T21:05:12
/// 1795208712": a comment's age with its Unix time after it).
fn tooltip_date(title: &str, dates: &DateContext) -> Option<DateTime<FixedOffset>> {
    parse_date(title, dates)
        .or_else(|| labelled_first_date(title, dates))
        .or_else(|| leading_timestamp(title, dates))
}

/// The date of a tooltip's first line when it is labelled ("Created: …").
fn labelled_first_date(title: &str, dates: &DateContext) -> Option<DateTime<FixedOffset>> {
    let first = title.lines().next()?;
    let (label, value) = first.split_once(':')?;
    let is_label = !label.is_empty()
        && label.len() <= 20
        && label.chars().all(|c| c.is_alphabetic() || c == ' ');
    is_label.then(|| parse_date(value, dates)).flatten()
}

/// An ISO timestamp that opens a tooltip followed by numbers only
/// ("2026-11-20T21:05:12 1795208712").
fn leading_timestamp(title: &str, dates: &DateContext) -> Option<DateTime<FixedOffset>> {
    let (stamp, rest) = title.trim().split_once(char::is_whitespace)?;
    let numbers = rest
        .split_whitespace()
        .all(|w| w.bytes().all(|b| b.is_ascii_digit()));
    let timestamp = stamp.len() >= 16 && stamp.as_bytes().get(10) == Some(&b'T');
    (numbers && timestamp)
        .then(|| parse_date(stamp, dates))
        .flatten()
}

/// True when a date read from `source` depends on the fetch time ("2 days
/// ago", "today", a day without a year): read one day later, it is another
/// date.
pub(crate) fn date_moves_with_clock(
    source: &str,
    ctx: &DateContext,
    date: DateTime<FixedOffset>,
) -> bool {
    let Some(now) = ctx.now.checked_add_signed(chrono::Duration::days(1)) else {
        return false;
    };
    let later = DateContext { now, ..*ctx };
    date_in(source, &later) != Some(date)
}

/// The date of an element's machine-readable attribute (`datetime`,
/// `data-date`, ..., or a date tooltip on the elements that carry one).
fn attribute_date(el: &Element, dates: &DateContext) -> Option<DateTime<FixedOffset>> {
    let name = el.name.as_str();
    [
        "datetime",
        "data-datetime",
        "data-date",
        "data-time",
        "title",
    ]
    .iter()
    .filter(|a| **a != "title" || matches!(name, "abbr" | "time" | "span" | "td"))
    .filter_map(|a| Some((*a, el.attr(a)?)))
    .find_map(|(a, v)| match a {
        "title" => tooltip_date(v, dates),
        _ => parse_date(v, dates),
    })
}

/// A record's date when no visible element carries one in an attribute:
/// the visible text's, else the hidden subtrees' attribute date
/// (`hidden_date`), else their text's; and whether it moves with the clock
/// (only a date read from text can be relative).
fn record_text_date(
    doc: &Document,
    record: &Record,
    title_link: Option<NodeId>,
    hidden: &[Range<NodeId>],
    hidden_date: Option<DateTime<FixedOffset>>,
    dates: &DateContext,
) -> (Option<DateTime<FixedOffset>>, bool) {
    let from_text = |skip: &[Range<NodeId>]| {
        text_date(doc, record, title_link, skip, dates)
            .map(|(d, source)| (Some(d), date_moves_with_clock(&source, dates, d)))
    };
    from_text(hidden)
        .or_else(|| hidden_date.map(|d| (Some(d), false)))
        .or_else(|| (!hidden.is_empty()).then(|| from_text(&[])).flatten())
        .unwrap_or((None, false))
}

/// First date in the record's text outside the `skip` subtrees, in
/// document order (a record's own date comes before "last reply 3 hours
/// ago"), and the text it was read from: a text node that is a date on its
/// own or holds one, else a date spanning several nodes (read from their
/// joined text).
fn text_date<'d>(
    doc: &'d Document,
    record: &Record,
    title_link: Option<NodeId>,
    skip: &[Range<NodeId>],
    ctx: &DateContext,
) -> Option<(DateTime<FixedOffset>, Cow<'d, str>)> {
    // A date in the headline is part of it ("Best of 2023"), but a card
    // link's date beside its heading is the record's own.
    let title = title_link.map(|t| link_title_node(doc, t));
    let skipped = |i: NodeId| {
        title.is_some_and(|t| doc.contains(t, i)) || skip.iter().any(|r| r.contains(&i))
    };
    for i in record.start..record.end {
        if let NodeData::Text { text, blank: false } = &doc.node(i).data
            && !skipped(i)
            && let Some(d) = date_in(text, ctx)
        {
            return Some((d, Cow::Borrowed(text.as_str())));
        }
    }
    let mut joined = String::new();
    doc.push_text_of_range(record.start, record.end, &mut joined, |i| !skipped(i));
    if let Some((d, _)) = find_date(&joined, ctx) {
        return Some((d, Cow::Owned(joined)));
    }
    if let Some(spaced) = spaced_parts(doc, record, skipped)
        && let Some((d, _)) = find_date(&spaced, ctx)
    {
        return Some((d, Cow::Owned(spaced)));
    }
    let (d, split) = split_day(doc, record, skipped, ctx)?;
    Some((d, Cow::Owned(split)))
}

/// Largest element (in nodes, itself included) read as a day split into
/// parts by markup: a date badge, or a range of two.
const MAX_SPLIT_DAY_NODES: NodeId = 32;
/// Longest text of such an element (bytes): two days and a dash.
const MAX_SPLIT_DAY_BYTES: usize = 48;

/// The first small element of the record whose parts, joined, are a day:
/// `<div class=date-badge><span>Sat</span> <span>5</span>
/// <span>Dec</span></div>`, which no one text node holds and which the
/// record's running text cannot be trusted with (a day without a year,
/// "5 Dec", is a date only as a whole string), or a range's first day
/// ("Thu 10 Dec – Sat 12 Dec"); with the text it was read from. Each node
/// is read by at most the [`MAX_SPLIT_DAY_NODES`] elements around it.
fn split_day(
    doc: &Document,
    record: &Record,
    skip: impl Fn(NodeId) -> bool,
    ctx: &DateContext,
) -> Option<(DateTime<FixedOffset>, String)> {
    let mut text = String::new();
    for id in record.start..record.end {
        let end = doc.node(id).end;
        if doc.element(id).is_none() || end - id > MAX_SPLIT_DAY_NODES || skip(id) {
            continue;
        }
        text.clear();
        let mut parts = 0;
        for i in id..end {
            if let NodeData::Text {
                text: t,
                blank: false,
            } = &doc.node(i).data
                && !skip(i)
            {
                parts += 1;
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(t.trim());
                if text.len() > MAX_SPLIT_DAY_BYTES {
                    break;
                }
            }
        }
        if parts < 2 || text.len() > MAX_SPLIT_DAY_BYTES {
            continue;
        }
        if let Some(d) = parse_day(&text, ctx).or_else(|| parse_range_start(&text, ctx)) {
            return Some((d, text));
        }
    }
    None
}

/// The record's text nodes joined with spaces, when some of them glue a
/// digit to a letter across an element boundary: a date whose day, month
/// and year are inline elements stacked by CSS
/// (`<span>05</span><span>Mar</span><span>2024</span>`), which the visible
/// text joins as "05Mar2024". `None` when nothing is glued that way.
fn spaced_parts(doc: &Document, record: &Record, skip: impl Fn(NodeId) -> bool) -> Option<String> {
    let texts = (record.start..record.end).filter_map(|i| match &doc.node(i).data {
        NodeData::Text { text, blank: false } if !skip(i) => Some(text.as_str()),
        _ => None,
    });
    let mut glued = false;
    let mut previous: Option<char> = None;
    let mut out = String::new();
    for text in texts {
        let first = text.chars().next();
        if let (Some(a), Some(b)) = (previous, first) {
            glued |= a.is_ascii_alphanumeric()
                && b.is_ascii_alphanumeric()
                && a.is_ascii_digit() != b.is_ascii_digit();
        }
        previous = text.chars().next_back();
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(text.trim());
    }
    glued.then_some(out)
}

/// Title and title link of an ordinary record: the link on the group's
/// title path, else a link inside a heading, else the heading, else (a
/// post without a headline that has a permalink) the start of its words,
/// else the longest non-action link text, else the record's first line.
fn choose_title(
    doc: &Document,
    record: &Record,
    links: &[LinkInfo],
    heading: Option<NodeId>,
    permalinks: &rustc_hash::FxHashSet<NodeId>,
    dates: &DateContext,
) -> (String, Option<NodeId>) {
    let usable = |l: &&LinkInfo| {
        !l.text.is_empty() && !is_action_text(&l.text) && parse_date(&l.text, dates).is_none()
    };
    // Read only when asked: most records' title link is on the path.
    let in_heading = |l: &LinkInfo| in_or_has_heading(doc, record, l.node);
    let title_link = links
        .iter()
        .filter(usable)
        .find(|l| l.on_title_path)
        .or_else(|| links.iter().filter(usable).find(|l| in_heading(l)))
        .or_else(|| {
            links
                .iter()
                .filter(usable)
                .max_by_key(|l| (l.text.chars().count(), std::cmp::Reverse(l.node)))
        });
    let link_chars = title_link.map_or(0, |l| l.text.chars().count());
    let link_title =
        |l: &LinkInfo| split_link_title(doc, l.node).unwrap_or_else(|| l.text.to_string());
    match (title_link, heading) {
        // A live blog's updates are linked by their timestamps: an update
        // is titled by its heading, or else by its words, as a comment is.
        (Some(l), _) if l.on_title_path && is_timestamp_link(doc, l.node, &l.text) => {
            let title = heading.map_or_else(
                || body_title(doc, record, Some(l.node)),
                |h| title_text(doc, h),
            );
            (title, Some(l.node))
        }
        (Some(l), _) if l.on_title_path || in_heading(l) => (link_title(l), Some(l.node)),
        (_, Some(h)) if link_chars < 4 => (title_text(doc, h), title_link.map(|l| l.node)),
        // A heading off the title path, with no link of its own but its
        // anchor (a changelog's "[1.9.2] - 2026-01-20¶" whose version has
        // no compare link): the heading titles it, and its anchor links it
        // (see `item_from_record`), never a pull request its notes cite.
        (_, Some(h)) if anchor_of(doc, h).is_some() => (title_text(doc, h), None),
        // An untitled post among titled ones (a blog's one-line note, its
        // only links the author and the time it was posted) is titled as a
        // comment is, and linked by its permalink.
        (_, None) if let Some(p) = links.iter().find(|l| permalinks.contains(&l.node)) => {
            (body_title(doc, record, Some(p.node)), Some(p.node))
        }
        _ if link_chars < MIN_EMPHASIS_TITLE_CHARS
            && let Some(title) = emphasis_title(doc, record, link_chars) =>
        {
            (title, links.iter().find(usable).map(|l| l.node))
        }
        (Some(l), _) => (link_title(l), Some(l.node)),
        _ => (first_line(doc, record), None),
    }
}

/// A title the site split into links glued to each other around an inline
/// reference or markup: "Fix panic (" + "#482" + ")" in a forge's commit
/// list, "Render " + "<code>" + " blocks". Read as one title when two or
/// more of the glued links (no text, not even a space, between them) go
/// where the title link goes.
fn split_link_title(doc: &Document, a: NodeId) -> Option<String> {
    let parent = doc.node(a).parent?;
    let href = doc.element(a)?.attr("href")?.trim();
    let kids: Vec<NodeId> = doc.children(parent).collect();
    let at = kids.iter().position(|&k| k == a)?;
    let is_link = |k: NodeId| doc.is_tag(k, "a");
    let first = kids[..at]
        .iter()
        .rposition(|&k| !is_link(k))
        .map_or(0, |i| i + 1);
    let last = kids[at..]
        .iter()
        .position(|&k| !is_link(k))
        .map_or(kids.len(), |i| at + i);
    let glued = &kids[first..last];
    let same = glued
        .iter()
        .filter(|&&k| link_href(doc, k) == Some(href))
        .count();
    // Glued pieces of a title are inline: a card link holding a heading
    // and its summary, right before its "Read Article" link, is no piece.
    let inline = || {
        glued.iter().all(|&k| {
            (k + 1..doc.node(k).end).all(|i| doc.tag(i).is_none_or(|t| !is_block_element(t)))
        })
    };
    (same >= 2 && inline())
        .then(|| doc.text_of_range(glued[0], doc.node(glued[glued.len() - 1]).end))
}

/// Fewest characters of a bold or title-classed text read as a record's
/// title, and most characters of the best link it outranks.
const MIN_EMPHASIS_TITLE_CHARS: usize = 15;

/// A record whose links are labels ("PDF", "DOI", "BibTeX", as a list of
/// citations has) names itself in bold or in an element whose class names
/// it a title (`span.pub-title`; a heading still wins over links shorter
/// than 4 characters, in `choose_title`): the longest such text of at
/// least [`MIN_EMPHASIS_TITLE_CHARS`] characters, longer than the best
/// link's `link_chars`, outside links, without the quotes a citation puts
/// around it ([`unquoted_title`]). Its link is then the record's first
/// usable one (a citation's first link is its paper).
fn emphasis_title(doc: &Document, record: &Record, link_chars: usize) -> Option<String> {
    let mut link_end = 0;
    let mut best: Option<(usize, String)> = None;
    for i in record.start..record.end {
        let Some(tag) = doc.tag(i) else { continue };
        if tag == "a" {
            link_end = link_end.max(doc.node(i).end);
        } else if i >= link_end && (matches!(tag, "b" | "strong") || is_title_element(doc, i)) {
            let text = unquoted_title(&doc.text(i)).to_string();
            let chars = text.chars().count();
            if chars >= MIN_EMPHASIS_TITLE_CHARS
                && chars > link_chars
                && best.as_ref().is_none_or(|(n, _)| chars > *n)
            {
                best = Some((chars, text));
            }
        }
    }
    best.map(|(_, text)| text)
}

/// A citation's title without the quotes around it and the comma after
/// it (`“When Indexes Forget,”` → `When Indexes Forget`); quotes inside
/// it stay (`“It Worked on My Laptop”: Pitfalls`).
fn unquoted_title(text: &str) -> &str {
    fn bare(t: &str) -> &str {
        t.trim().trim_end_matches([',', ';', ':']).trim_end()
    }
    let t = bare(text);
    for (open, close) in [('“', '”'), ('"', '"'), ('«', '»'), ('„', '“')] {
        if let Some(inner) = t.strip_prefix(open).and_then(|t| t.strip_suffix(close)) {
            let inner = bare(inner);
            let balanced = inner.matches(open).count() == inner.matches(close).count();
            if balanced || open == close {
                return inner;
            }
        }
    }
    t
}

/// Longest title made from a headless record's text (characters, before
/// the ellipsis).
pub const HEADLESS_TITLE_CHARS: usize = 80;

/// Title, link and title link of a record in a group without headlines
/// (comments, a blog of mostly untitled posts): the heading it opens with
/// when it has one ([`lead_heading`]), linked by the heading's link or its
/// permalink; otherwise the start of its body text, cut at a word
/// boundary, linked by its permalink (which is then no title link).
fn headless_title(
    doc: &Document,
    record: &Record,
    links: &[LinkInfo],
    permalinks: &rustc_hash::FxHashSet<NodeId>,
    dates: &DateContext,
) -> (String, Option<NodeId>, Option<NodeId>) {
    let permalink = links
        .iter()
        .find(|l| {
            permalinks.contains(&l.node) || names_permalink(doc, record, l.node, &l.text, dates)
        })
        .map(|l| l.node);
    if let Some(h) = lead_heading(doc, record, permalink) {
        let own = links.iter().find(|l| doc.contains(h, l.node));
        // A heading that is its link is titled as links are (badges out).
        let title = match own {
            Some(l) if doc.text_bytes(l.node) == doc.text_bytes(h) => l.text.to_string(),
            _ => title_text(doc, h),
        };
        let own = own.map(|l| l.node);
        return (title, own.or(permalink), own);
    }
    (body_title(doc, record, permalink), permalink, None)
}

/// The heading a record opens with, before its body ([`body_block`]): a
/// titled post among untitled ones ("Studio update: spring term classes
/// are open" above its text, where the photo posts beside it have only a
/// caption). A heading inside the body (a comment's "Update"), or one
/// that names the poster ([`is_byline_heading`]), is no title.
fn lead_heading(doc: &Document, record: &Record, permalink: Option<NodeId>) -> Option<NodeId> {
    let h = (record.start..record.end).find(|&i| {
        doc.tag(i).is_some_and(is_heading)
            && doc.text_bytes(i) > 0
            && !is_byline_heading(doc, record, i)
    })?;
    let body = body_block(doc, record, permalink, true)?;
    (doc.node(h).end <= body).then_some(h)
}

/// A title cut from the start of a record's body ([`body_block`] apart
/// from its `permalink`): the words a reader sees; a post hidden whole (a
/// collapsed comment) is titled by its hidden words.
fn body_title(doc: &Document, record: &Record, permalink: Option<NodeId>) -> String {
    let text = match body_block(doc, record, permalink, true) {
        Some(b) => {
            // The poster's own words: what the post quotes ("grindnerd
            // said: …" before the reply) is not, nor the signature under
            // every post of theirs, unless that is all there is.
            let end = doc.node(b).end;
            let mut words = String::new();
            doc.push_text_of_range(b, end, &mut words, |i| {
                read_as_words(doc, i)
                    && !doc
                        .element(i)
                        .is_some_and(|e| is_quotation(e) || is_signature(e))
                    && !is_attribution(doc, i)
            });
            if words.trim().is_empty() {
                // A post that is nothing but a quote is titled by what it
                // quotes: the quotation itself, not who said it.
                let quote = (b..end).find(|&i| doc.is_tag(i, "blockquote")).unwrap_or(b);
                let quote_end = doc.node(quote).end;
                doc.push_text_of_range(quote, quote_end, &mut words, |i| read_as_words(doc, i));
            }
            words
        }
        None => body_block(doc, record, permalink, false)
            .map_or_else(|| first_line(doc, record), |b| doc.text(b)),
    };
    cut_at_word(&text, HEADLESS_TITLE_CHARS)
}

/// The address of a record's heading on the page, for a record that
/// links nowhere else: the heading's `id`, or the in-page anchor a link in
/// it points to (a release notes page's "Version 4.12.0" with its `¶`
/// permalink, `#v4-12-0`).
fn heading_anchor(doc: &Document, heading: NodeId, base: &Url) -> Option<Url> {
    let own = doc
        .element(heading)?
        .attr("id")
        .map(str::trim)
        .filter(|id| !id.is_empty());
    let fragment = own.or_else(|| anchor_of(doc, heading))?;
    let mut url = base.clone();
    url.set_fragment(Some(fragment));
    Some(url)
}

/// The in-page place a link inside `heading` points to (its `¶`
/// permalink's `#v4-12-0`), without the `#`.
fn anchor_of(doc: &Document, heading: NodeId) -> Option<&str> {
    (heading + 1..doc.node(heading).end)
        .filter_map(|i| doc.element(i).filter(|e| e.name == "a")?.attr("href"))
        .map(str::trim)
        .find_map(|h| h.strip_prefix('#').filter(|f| !f.is_empty()))
}

/// Longest text (characters) of a [`is_timestamp_link`].
const MAX_TIMESTAMP_LINK_CHARS: usize = 40;

/// True when link `a` is a post's timestamp: it holds a `<time
/// datetime>`, no heading, little text (`text`, its title text), and
/// shows nothing but its time ("21:20" with "EST, 9:20 p.m." for screen
/// readers on a live blog's update, "4h" on a status). It is the post's
/// permalink, not its title. A card link showing "pre-release 3.14.0b1"
/// beside its release date is titled by what it says.
fn is_timestamp_link(doc: &Document, a: NodeId, text: &str) -> bool {
    let end = doc.node(a).end;
    let only_time = || {
        let mut beside = String::new();
        doc.push_text_of_range(a, end, &mut beside, |i| {
            doc.element(i)
                .is_none_or(|e| e.name != "time" && !e.is_hidden() && !e.is_for_screen_readers())
        });
        !beside.chars().any(char::is_alphanumeric)
    };
    text.chars().count() <= MAX_TIMESTAMP_LINK_CHARS
        && holds_time(doc, a)
        && !(a + 1..end).any(|i| doc.tag(i).is_some_and(is_heading))
        && only_time()
}

/// True when link `a` holds a `<time datetime>`: a post's timestamp link
/// ("4h" on a Mastodon status) is its permalink, however short its text.
fn holds_time(doc: &Document, a: NodeId) -> bool {
    (a + 1..doc.node(a).end).any(|i| {
        doc.element(i)
            .is_some_and(|e| e.name == "time" && e.attr("datetime").is_some())
    })
}

/// False for elements whose text a reader does not read as a post's
/// words: hidden by the markup (the folded text behind a content warning)
/// or a button ("Show more").
fn read_as_words(doc: &Document, id: NodeId) -> bool {
    doc.element(id)
        .is_none_or(|e| e.name != "button" && !e.is_hidden())
}

/// The record's body: the smallest element holding at least 60% of the
/// record's text outside links (a comment's text, not its author line)
/// and not its `permalink` (the posting time and the author are not the
/// body). When every such element holds the permalink (a status whose
/// poll options come after its text), the element apart from the
/// permalink with the most text outside links. With `visible`, only the
/// words a reader sees count ([`read_as_words`]); a poster's signature
/// never does ([`is_signature`]), nor comments listed under the record
/// ([`is_listed_comment`]).
fn body_block(
    doc: &Document,
    record: &Record,
    permalink: Option<NodeId>,
    visible: bool,
) -> Option<NodeId> {
    let n = (record.end - record.start) as usize;
    // prefix[k]: text bytes outside links in nodes start..start+k (and,
    // when `visible`, outside what is not [`read_as_words`]).
    let mut prefix = vec![0usize; n + 1];
    // quoted[k]: node start+k is, or lies in, a quotation or code block.
    let mut quoted = vec![false; n];
    let (mut link_end, mut unread_end, mut quote_end) = (0, 0, 0);
    for k in 0..n {
        let i = record.start + k as NodeId;
        // A signature is the poster's, under every post, and the comments
        // listed under a Q&A answer are other people's: not its words.
        let unread = || {
            (visible && !read_as_words(doc, i))
                || doc.element(i).is_some_and(is_signature)
                || (i > record.start && is_listed_comment(doc, i))
        };
        if i >= unread_end && unread() {
            unread_end = doc.node(i).end;
        }
        if i >= quote_end && doc.element(i).is_some_and(is_quote_or_code) {
            quote_end = doc.node(i).end;
        }
        quoted[k] = i < quote_end;
        let own = match &doc.node(i).data {
            NodeData::Element(e) if e.name == "a" => {
                link_end = link_end.max(doc.node(i).end);
                0
            }
            NodeData::Text { text, blank: false } if i >= link_end && i >= unread_end => {
                text.trim().len()
            }
            _ => 0,
        };
        prefix[k + 1] = prefix[k] + own;
    }
    let total = prefix[n];
    if total == 0 {
        return None;
    }
    let own = |i: NodeId| {
        let a = (i - record.start) as usize;
        let b = (doc.node(i).end.min(record.end) - record.start) as usize;
        prefix[b] - prefix[a]
    };
    let apart = (record.start..record.end)
        .filter(|&i| doc.element(i).is_some() && permalink.is_none_or(|p| !doc.contains(i, p)));
    let size = |i: NodeId| doc.node(i).end - i;
    apart
        .clone()
        .filter(|&i| own(i) * 10 >= total * 6 && !quoted[(i - record.start) as usize])
        .min_by_key(|&i| (size(i), std::cmp::Reverse(i)))
        .map(|b| paragraphs_block(doc, record, b, permalink))
        .or_else(|| {
            apart
                .filter(|&i| own(i) > 0)
                .max_by_key(|&i| (own(i), std::cmp::Reverse(size(i)), std::cmp::Reverse(i)))
        })
}

/// True for a quotation or a code block (`blockquote`, `pre`, `code`, an
/// element whose class names a quote such as Discourse's `aside.quote` or
/// vBulletin's `div.bbcode_quote`): another poster's words or a program's
/// output, a part of a comment's body and never the body itself (nor is
/// anything inside it).
fn is_quote_or_code(e: &Element) -> bool {
    matches!(e.name.as_str(), "pre" | "code") || is_quotation(e)
}

/// True for a poster's signature (`aside.message-signature`,
/// `div.signature`): the same lines under each of their posts.
fn is_signature(e: &Element) -> bool {
    class_names(e, b"signature")
}

/// True for a quotation: a `blockquote` or an element whose class names a
/// quote (another poster's words, with its "… said:" line). Script hooks
/// (`js-selectToQuote` on XenForo's whole message body) name what a
/// script does with the element, not what it is.
fn is_quotation(e: &Element) -> bool {
    e.name == "blockquote" || class_names(e, b"quote")
}

/// Longest line that introduces a quotation (bytes): "glazeandgrit:",
/// "On 5 March, Ida Merriwether wrote:".
const MAX_ATTRIBUTION_BYTES: usize = 80;

/// Verbs that close the line introducing a quotation ("Ida wrote:").
const ATTRIBUTION_VERBS: &[&str] = &["wrote", "writes", "said", "says"];

/// True for the line that says whose words a quotation is: a short element
/// right before a quotation that is a name and a colon ("glazeandgrit:"
/// above a reblogged post, the name a link) or ends in a verb of saying
/// ("On 5 March, Ida wrote:"). It belongs to the quotation, not to the
/// post's own words; a sentence of the poster's that leads into the quote
/// ("One thing I'd add about the berths:") is theirs.
fn is_attribution(doc: &Document, id: NodeId) -> bool {
    let Some(parent) = doc.node(id).parent else {
        return false;
    };
    if doc.element(id).is_none() {
        return false;
    }
    // The next sibling that shows something.
    let parent_end = doc.node(parent).end;
    let mut next = doc.node(id).end;
    while next < parent_end && matches!(doc.node(next).data, NodeData::Text { blank: true, .. }) {
        next = doc.node(next).end;
    }
    next < parent_end && doc.element(next).is_some_and(is_quotation) && {
        let text = doc.text(id);
        let line = text.trim();
        line.len() <= MAX_ATTRIBUTION_BYTES
            && line.strip_suffix(':').is_some_and(|said| {
                let said = said.trim_end();
                let verb = said.rsplit(char::is_whitespace).next().unwrap_or("");
                let named = (id..doc.node(id).end)
                    .any(|i| doc.is_tag(i, "a") && doc.text(i).trim() == said);
                !said.is_empty()
                    && (named
                        || ATTRIBUTION_VERBS
                            .iter()
                            .any(|v| verb.eq_ignore_ascii_case(v)))
            })
    }
}

/// True when a class token of `e` holds `word` (`bbCodeBlock--quote`),
/// script hooks (`js-…`) aside.
fn class_names(e: &Element, word: &[u8]) -> bool {
    e.attr("class").is_some_and(|c| {
        c.split_ascii_whitespace()
            .any(|t| !starts_with_ascii_ci(t, "js-") && find_ascii_ci(t.as_bytes(), word).is_some())
    })
}

/// Elements a comment's body holds beside its paragraphs: quotations,
/// code, lists, figures and inline markup.
const BODY_PARTS: &[&str] = &[
    "p",
    "blockquote",
    "pre",
    "ul",
    "ol",
    "aside",
    "figure",
    "hr",
    "br",
    "a",
    "b",
    "i",
    "em",
    "strong",
    "code",
    "span",
    "img",
    "sup",
    "sub",
    "s",
    "u",
    "small",
    "abbr",
];

/// The body when `block` is one paragraph of several: their parent, so a
/// post of a short opening line and a long second paragraph is titled from
/// its start. Only when the parent is a block of the record below its top,
/// holds no `permalink`, and holds nothing but [`BODY_PARTS`].
fn paragraphs_block(
    doc: &Document,
    record: &Record,
    block: NodeId,
    permalink: Option<NodeId>,
) -> NodeId {
    let widened = doc
        .is_tag(block, "p")
        .then(|| doc.node(block).parent)
        .flatten()
        .filter(|&parent| {
            parent > record.start
                && permalink.is_none_or(|p| !doc.contains(parent, p))
                && doc.children(parent).filter(|&c| c != block).any(|c| {
                    doc.is_tag(c, "p") || (doc.element(c).is_none() && doc.text_bytes(c) > 0)
                })
                && doc
                    .children(parent)
                    .filter_map(|c| doc.element(c))
                    .all(|e| BODY_PARTS.contains(&e.name.as_str()))
        });
    widened.unwrap_or(block)
}

/// `text` whitespace-collapsed and cut at a word boundary to at most
/// `limit` characters, with an ellipsis when cut.
pub fn cut_at_word(text: &str, limit: usize) -> String {
    let text = collapse_whitespace(text);
    if text.chars().count() <= limit {
        return text;
    }
    let head: String = text.chars().take(limit + 1).collect();
    let cut = match head.rfind(' ') {
        Some(p) if p > 0 => &head[..p],
        _ => head.trim_end(),
    };
    let cut = cut.trim_end_matches([' ', ',', ';', ':', '-', '–', '—']);
    format!("{cut}…")
}

/// The record's first line: for a table row, its first cell with text
/// (the cell's blocks joined by spaces, never glued); otherwise the text
/// from the first text node to the next block boundary.
fn first_line(doc: &Document, record: &Record) -> String {
    if doc.is_tag(record.start, "tr")
        && let Some(cell) = doc
            .children(record.start)
            .filter(|&c| doc.is_tag(c, "td") || doc.is_tag(c, "th"))
            .find(|&c| doc.text_bytes(c) > 0)
    {
        return doc.text(cell);
    }
    let Some(first) = (record.start..record.end)
        .find(|&i| matches!(doc.node(i).data, NodeData::Text { blank: false, .. }))
    else {
        return String::new();
    };
    let block = doc
        .ancestors(first)
        .take_while(|&a| a >= record.start)
        .find(|&a| doc.tag(a).is_some_and(is_block_element))
        .unwrap_or(record.start);
    let end = doc.node(block).end.min(record.end);
    let mut raw = String::new();
    for i in first..end {
        match &doc.node(i).data {
            NodeData::Text { text, .. } => raw.push_str(text),
            NodeData::Element(e) if is_block_element(&e.name) => break,
            _ => {}
        }
    }
    collapse_whitespace(&raw)
}

/// The record's text with the title's first occurrence removed, cut to
/// [`MAX_SUMMARY_CHARS`].
fn summary_without(full: String, title: &str) -> String {
    let rest = match (title.is_empty(), full.find(title)) {
        (false, Some(pos)) => {
            // What is left on either side of the title, one space between.
            let mut rest = String::with_capacity(full.len());
            let mut gap = false;
            push_collapsed(&mut rest, &full[..pos], &mut gap);
            gap = true;
            push_collapsed(&mut rest, &full[pos + title.len()..], &mut gap);
            rest
        }
        // The record's text is whitespace-collapsed already.
        _ => full,
    };
    if rest.len() <= MAX_SUMMARY_CHARS || rest.chars().count() <= MAX_SUMMARY_CHARS {
        return rest;
    }
    let cut: String = rest.chars().take(MAX_SUMMARY_CHARS).collect();
    let cut = match cut.rfind(' ') {
        Some(p) if p > MAX_SUMMARY_CHARS / 2 => cut[..p].to_string(),
        _ => cut,
    };
    format!("{cut}…")
}

/// True when `item` links to the listing the `others` live under ("View
/// all blog posts" → `/blog/`, the posts under `/blog/…`): a way to more
/// records, not a record. Needs two others, most of them under that path,
/// and a path other than the site's root; a dated item is a record.
pub fn is_listing_link(item: &Item, others: &[Item]) -> bool {
    let Some(link) = item.link.as_ref() else {
        return false;
    };
    let path = link.path();
    if item.date.is_some() || others.len() < 2 || path == "/" || !path.ends_with('/') {
        return false;
    }
    let under = others
        .iter()
        .filter_map(|o| o.link.as_ref())
        .filter(|o| {
            o.host_str() == link.host_str()
                && o.path().len() > path.len()
                && o.path().starts_with(path)
        })
        .count();
    under >= 2 && under * 2 > others.len()
}

/// A content image's absolute URL: `src`, lazy-loading attributes, or the
/// first `srcset` candidate; tracking pixels and inline data are skipped.
fn image_url(el: &Element, base: &Url) -> Option<Url> {
    // Declared dimensions below this are icons, spacers and tracking pixels.
    const MIN_CONTENT_IMAGE_PX: u32 = 40;
    let tiny = ["width", "height"].iter().any(|a| {
        el.attr(a)
            .and_then(|v| v.trim().trim_end_matches("px").parse::<u32>().ok())
            .is_some_and(|v| v < MIN_CONTENT_IMAGE_PX)
    });
    // People's pictures beside a record (a poster's avatar) are not its
    // own, nor are pictures the page's classes call icons or emoji
    // (`img-icon`: a commenter's picture in their name's link).
    let decoration_class = el.attr("class").is_some_and(|c| {
        find_ascii_ci(c.as_bytes(), b"avatar").is_some()
            || has_part(c.split_ascii_whitespace(), &['-', '_'], &["icon", "emoji"])
    });
    if tiny || decoration_class {
        return None;
    }
    // Judged by the picture shown, not a lazy loader's placeholder `src`
    // ("blank.gif" with the real picture in `data-src`).
    let source = img_source(el, base)?;
    let path = source.path().to_ascii_lowercase();
    let name = path.rsplit('/').next().unwrap_or("");
    // File names that say what the picture is for.
    let decorative = [
        "icon",
        "sprite",
        "spacer",
        "pixel",
        "blank.",
        "transparent.",
    ]
    .iter()
    .any(|w| name.contains(w));
    let avatar = find_ascii_ci(source.as_str().as_bytes(), b"avatar").is_some();
    (!decorative && !avatar).then_some(source)
}

/// Attributes that hold the address of the picture an `img` shows, in the
/// order they are read: lazy loaders keep the real one in `data-*` and a
/// placeholder in `src`.
const IMG_SOURCE_ATTRS: [&str; 4] = ["data-src", "data-lazy-src", "data-original", "src"];

/// The address an `img` shows as written (see [`IMG_SOURCE_ATTRS`]); inline
/// `data:` images are none.
fn shown_src(el: &Element) -> Option<&str> {
    IMG_SOURCE_ATTRS
        .iter()
        .filter_map(|a| el.attr(a))
        .find(|v| !v.trim().is_empty() && !v.trim_start().starts_with("data:"))
}

/// The picture an `img` shows, resolved: a lazy-loading attribute first
/// (`src` then holds a placeholder), then `src`, then the first `srcset`
/// candidate; inline `data:` images are skipped.
pub fn img_source(el: &Element, base: &Url) -> Option<Url> {
    let candidates = IMG_SOURCE_ATTRS
        .iter()
        .filter_map(|a| el.attr(a).map(str::to_string))
        .chain(
            ["srcset", "data-srcset"]
                .iter()
                .filter_map(|a| el.attr(a))
                .filter_map(|s| {
                    s.split(',')
                        .next()?
                        .split_whitespace()
                        .next()
                        .map(str::to_string)
                }),
        );
    for c in candidates {
        if c.trim_start().starts_with("data:") {
            continue;
        }
        if let Some(u) = resolve(base, &c) {
            return Some(u);
        }
    }
    None
}

/// Stable guid for a record without a link.
pub fn content_guid(title: &str, summary: &str) -> String {
    let mut h = Sha256::new();
    h.update(title.as_bytes());
    h.update([0u8]);
    h.update(summary.as_bytes());
    let digest = h.finalize();
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("urn:feedmine:{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> DateContext {
        DateContext::utc_at(2024, 3, 10, 12)
    }

    #[test]
    fn action_texts_are_written_as_they_are_compared() {
        for a in ACTION_TEXTS {
            let trimmed = a.trim_matches(|c: char| !c.is_alphanumeric());
            assert_eq!(*a, trimmed.to_lowercase(), "{a:?}");
        }
        for t in [
            "More »",
            "more...",
            "  Read more →",
            "(Comments)",
            "続きを読む",
            "187 comments",
        ] {
            assert!(is_action_text(t), "{t}");
        }
        for t in ["More tomatoes", "Reply-all etiquette", "Share prices fall"] {
            assert!(!is_action_text(t), "{t}");
        }
    }

    fn linked(title: &str, href: &str) -> Item {
        Item {
            link: Url::parse(href).ok(),
            guid: href.to_owned(),
            ..Item::bare(title)
        }
    }

    #[test]
    fn a_view_all_link_above_the_posts_is_not_a_record() {
        let posts = [
            linked("Jenny joins the team", "https://x.example/blog/jenny/"),
            linked("Our public roadmap", "https://x.example/blog/roadmap/"),
            linked("Jupyter Book 2", "https://x.example/blog/jb2/"),
        ];
        let all = linked("View all blog posts", "https://x.example/blog/");
        assert!(is_listing_link(&all, &posts));
        // Sections of a site are records when they are the list.
        let sections = [
            linked("Guides", "https://x.example/guides/"),
            linked("Reference", "https://x.example/reference/"),
        ];
        assert!(!is_listing_link(
            &linked("Blog", "https://x.example/blog/"),
            &sections
        ));
        assert!(!is_listing_link(
            &linked("Home", "https://x.example/"),
            &posts
        ));
        // A post that happens to own sub-pages is kept when dated.
        let mut dated = all.clone();
        dated.date = chrono::DateTime::parse_from_rfc3339("2024-03-01T00:00:00Z").ok();
        assert!(!is_listing_link(&dated, &posts));
    }

    fn item_of(html: &str, selector_tag: &str) -> Item {
        let doc = crate::extract::dom::parse(html);
        let id = (0..doc.nodes.len() as NodeId)
            .find(|&i| doc.is_tag(i, selector_tag))
            .unwrap();
        let rec = Record {
            start: id,
            end: doc.node(id).end,
        };
        let base = base_url(
            &doc,
            &Url::parse("https://news.example.com/world/").unwrap(),
        );
        let plan = plan_titles(&doc, &[rec], &ctx());
        item_from_record(&doc, &rec, &base, &ctx(), &plan)
    }

    /// The elements of `doc` of class `class`, as records.
    fn records_of_class(doc: &Document, class: &str) -> Vec<Record> {
        records_where(doc, |i| {
            doc.element(i).and_then(|e| e.attr("class")) == Some(class)
        })
    }

    /// Every element `keep` takes, as a record.
    fn records_where(doc: &Document, keep: impl Fn(NodeId) -> bool) -> Vec<Record> {
        (0..doc.nodes.len() as NodeId)
            .filter(|&i| keep(i))
            .map(|i| Record {
                start: i,
                end: doc.node(i).end,
            })
            .collect()
    }

    /// The items of the records of `class` in `html`, titled by one plan
    /// as a group's are, links resolved against `base`.
    fn items_of(html: &str, class: &str, base: &str) -> Vec<Item> {
        let doc = crate::extract::dom::parse(html);
        items_of_records(&doc, &records_of_class(&doc, class), base)
    }

    /// [`items_of`] the `<li>` records of `html`, whatever their classes.
    fn items_of_lis(html: &str, base: &str) -> Vec<Item> {
        let doc = crate::extract::dom::parse(html);
        items_of_records(&doc, &records_where(&doc, |i| doc.is_tag(i, "li")), base)
    }

    /// Regression (a Chinese government notice list): titles cut to fit
    /// the column ("…") were taken as cut, where each link's `title`
    /// attribute holds the whole title.
    #[test]
    fn a_cut_title_is_completed_by_its_tooltip() {
        let html = "<ul>\
            <li><a href=./202611/t1.html title=\"关于公开征求《澜川市城市道路占用挖掘管理办法（征求意见稿）》意见的公告\">关于公开征求《澜川市城市道路占用挖掘管理办法（征求意…</a><span>[2026-11-17]</span></li>\
            <li><a href=./202611/t2.html title=\"Council approves the new  parking\n rules\">Council approves the new...</a></li>\
            <li><a href=./202611/t3.html title=\"Permalink\">Harbour works begin on Monday…</a></li>\
            <li><a href=./202611/t4.html title=\"关于市民服务中心部分窗口调整办公时间的公告\">关于市民服务中心部分窗口调整办公时间的公告</a></li>\
            </ul>";
        let titles: Vec<String> = items_of_lis(html, "https://www.lanchuan.gov.example/tzgg/")
            .into_iter()
            .map(|i| i.title)
            .collect();
        assert_eq!(
            titles,
            [
                "关于公开征求《澜川市城市道路占用挖掘管理办法（征求意见稿）》意见的公告",
                "Council approves the new parking rules",
                "Harbour works begin on Monday…",
                "关于市民服务中心部分窗口调整办公时间的公告",
            ]
        );
    }

    /// The first `n` bytes of each item's title, and its link's path.
    fn title_starts_and_paths(items: &[Item], n: usize) -> Vec<(&str, &str)> {
        items
            .iter()
            .map(|i| (&i.title[..n], i.link.as_ref().map_or("", |l| l.path())))
            .collect()
    }

    /// Regression (a XenForo thread): each post heads its poster's card
    /// with the name in an `h4` (and the title in an `h5`), so the posts
    /// counted as headed: they were titled by their posters' names and
    /// linked to their profiles. Headings in a byline name the poster.
    /// A short post was titled with the poster's signature after it.
    #[test]
    fn a_heading_naming_the_poster_does_not_head_the_post() {
        let post = |n: usize, who: &str, text: &str| {
            format!(
                "<article class=message><section class=message-user itemprop=author>\
                 <a href=/members/{who}.1{n}/ class=avatar>{who}</a>\
                 <h4 class=message-name><a href=/members/{who}.1{n}/ class=username>{who}</a></h4>\
                 <h5 class=userTitle>Well-known member</h5></section>\
                 <div class=message-main><header><a href=/threads/grinders.4821/post-98{n}>\
                 <time datetime=2026-11-1{n}T08:00:00+0000>Nov 1{n}, 2026</time></a> \
                 <a href=/threads/grinders.4821/post-98{n}>#{n}</a></header>\
                 <div class=bbWrapper>{text}</div></div></article>"
            )
        };
        let long = "at that price you are choosing which compromise you can live with, not \
                    which grinder is best, and the stepped ones make you adjust dose instead";
        let short = "This. Learned it the hard way.</div><aside class=message-signature>\
                     <div class=bbWrapper>Varda 48 &gt; Kessler K54 | too many tampers</div></aside><div>";
        let html = [
            post(4, "dialedin", short),
            post(1, "grindnerd", &format!("Honest answer: {long}")),
            post(2, "dialedin", &format!("Agree with this, {long}")),
            post(3, "grindnerd", &format!("Ha, I did consider it: {long}")),
        ]
        .concat();
        let items = items_of(
            &html,
            "message",
            "https://forums.brewline.example/threads/grinders.4821/",
        );
        let got = title_starts_and_paths(&items, 14);
        assert_eq!(
            got,
            [
                ("This. Learned ", "/threads/grinders.4821/post-984"),
                ("Honest answer:", "/threads/grinders.4821/post-981"),
                ("Agree with thi", "/threads/grinders.4821/post-982"),
                ("Ha, I did cons", "/threads/grinders.4821/post-983"),
            ]
        );
        assert_eq!(items[0].title, "This. Learned it the hard way.");
    }

    /// Regression (a Q&A page): an answer's first dated link is "edited
    /// Mar 5, 2024 at 7:47" (its revisions) and the next ones are the
    /// timestamps of the comments listed under it; its own address is its
    /// "Share" link. Answers were linked to revisions and comments, and a
    /// short answer was titled by a comment.
    #[test]
    fn an_answer_is_linked_by_its_share_link_not_its_edits_or_comments() {
        let answer = |id: u32, text: &str, edited: bool| {
            let edit = if edited {
                format!("<a href=/posts/{id}/revisions>edited Mar 5, 2024 at 7:47</a>")
            } else {
                String::new()
            };
            format!(
                "<div class=answer id=answer-{id}><div class=s-prose><p>{text}</p></div>\
                 <div class=post-menu><a href=/a/{id}/1180233 class=js-share-link>Share</a> \
                 <a href=/posts/{id}/edit>Improve this answer</a></div>{edit}\
                 <div class=user-info>answered <span title='2024-03-04 20:41:09Z'>Mar 4, 2024 at 20:41</span> \
                 <a href=/users/11/marta>Marta</a></div>\
                 <div class='comments js-comments-container'><ul class=comments-list>\
                 <li class=comment id=comment-{id}1><div class=comment-body><span class=comment-copy>This is \
                 the right explanation, and the docs for asyncio.gather say so in a footnote that nobody \
                 reads until it bites them in production.</span> <a class=comment-user href=/users/7/jb>jb</a> \
                 <a class=comment-link href=#comment{id}1_{id}>Mar 5, 2024 at 9:12</a></div></li></ul></div></div>"
            )
        };
        let long = "The gather call is not the one cancelling anything: the timeout wrapper \
                    around it is, and it cancels whatever is still pending when it fires.";
        let html = [
            answer(78123552, long, true),
            answer(78124188, long, false),
            answer(
                78127810,
                "It's a bug in Python, you should report it.",
                false,
            ),
        ]
        .concat();
        let items = items_of(
            &html,
            "answer",
            "https://devanswers.example/questions/1/why",
        );
        let got = title_starts_and_paths(&items, 12);
        assert_eq!(
            got,
            [
                ("The gather c", "/a/78123552/1180233"),
                ("The gather c", "/a/78124188/1180233"),
                ("It's a bug i", "/a/78127810/1180233"),
            ]
        );
    }

    /// Regression (a package's release history): each release is one card
    /// link holding a "pre-release" badge, the version and a `<time>`; the
    /// card was taken for a timestamp link (it holds a time): every
    /// pre-release was titled "pre-release", from the record's first line.
    #[test]
    fn a_card_link_around_its_date_is_titled_by_what_it_says() {
        let card = |v: &str, badge: &str, day: u32| {
            format!(
                "<div class=release><a class='card release__card' href=/project/t/{v}/>{badge}\
                 <p class=release__version>{v}</p><p class=release__version-date>\
                 <time datetime=2026-10-{day:02}T23:41:07+0000>Oct {day}, 2026</time></p></a></div>"
            )
        };
        let html = [
            card("3.14.0", "<span class=badge>This version</span>", 19),
            card(
                "3.14.0b1",
                "<span class='badge badge--warning'>pre-release</span>",
                2,
            ),
            card("3.13.4", "", 1),
        ]
        .concat();
        let titles: Vec<String> = items_of(&html, "release", "https://pypi.example/project/t/")
            .into_iter()
            .map(|i| i.title)
            .collect();
        // The date goes; a label stays beside a title this short.
        assert_eq!(
            titles,
            ["This version 3.14.0", "pre-release 3.14.0b1", "3.13.4"]
        );
    }

    /// Regression: a lab's publication list links a paper's title only
    /// when the paper has a page; the others are named in a
    /// `span.pub-title`, in quotes, and were titled "PDF" or "Code".
    #[test]
    fn a_citation_without_a_title_link_is_titled_by_its_title_element() {
        let cite = |title: &str, key: &str| {
            format!(
                "<li class=pub><span class=pub-authors>T. Moreau and <strong>J. Okafor</strong>.</span> \
                 <span class=pub-title>&ldquo;{title},&rdquo;</span> in <em>Proc. VLDB</em>, 2025. \
                 <span class=pub-links>[<a href=/papers/{key}.pdf>PDF</a>] \
                 [<a href=https://doi.org/10.14778/{key}>DOI</a>] [<a href=#bib-{key}>BibTeX</a>]</span></li>"
            )
        };
        let html = format!(
            "<ol>{}{}{}</ol>",
            cite(
                "When Indexes Forget: Learned Index Drift Under Skewed Updates",
                "moreau25"
            ),
            cite(
                "&ldquo;It Worked on My Laptop&rdquo;: Reproducibility Pitfalls",
                "okafor24"
            ),
            "<li class=pub>B. Lind. <span class=pub-title>&ldquo;<a href=/pubs/zone-maps/>Zone Maps \
             Revisited</a>,&rdquo;</span> in <em>ICDE</em>, 2025. [<a href=/papers/lind25.pdf>PDF</a>]</li>"
        );
        let items = items_of_lis(&html, "https://lab.example/publications/");
        let got: Vec<(&str, &str)> = items
            .iter()
            .map(|i| (i.title.as_str(), i.link.as_ref().map_or("", |l| l.as_str())))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "When Indexes Forget: Learned Index Drift Under Skewed Updates",
                    "https://lab.example/papers/moreau25.pdf"
                ),
                (
                    "\u{201c}It Worked on My Laptop\u{201d}: Reproducibility Pitfalls",
                    "https://lab.example/papers/okafor24.pdf"
                ),
                ("Zone Maps Revisited", "https://lab.example/pubs/zone-maps/"),
            ]
        );
        assert_eq!(unquoted_title("\"Plain quotes.\""), "Plain quotes.");
        assert_eq!(
            unquoted_title("A title, with a comma"),
            "A title, with a comma"
        );
    }

    /// Regression: a post list hides its author and word count inside the
    /// card's link (`display:none`, for search engines), and phpBB hides a
    /// mobile-only "Last post by …" line in each topic row: both were read
    /// into the title or the summary, which a reader never sees.
    #[test]
    fn text_the_markup_hides_is_in_no_title_or_summary() {
        let html = "<ul>\
            <li><a href='/blog/write-code'><span>Write code, not too much</span>\
            <span style='display:none'>Brandon Smith</span></a>\
            <div hidden>Last post by sparkyjoe</div><p>Mostly functions, said the author.</p></li>\
            <li><a href='/blog/signatures'><span>My favourite function signature</span>\
            <span style='display: none'>Brandon Smith</span></a>\
            <div hidden>Last post by Ruben</div><p>One that takes a slice.</p></li></ul>";
        let items = items_of_lis(html, "https://blog.example/");
        let got: Vec<(&str, &str)> = items
            .iter()
            .map(|it| (it.title.as_str(), it.summary.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "Write code, not too much",
                    "Mostly functions, said the author."
                ),
                ("My favourite function signature", "One that takes a slice."),
            ]
        );
    }

    /// Regression: WordPress's latest-posts block ends each excerpt with
    /// "Read more<span class=screen-reader-text>: Title</span>"; read
    /// whole, that link was longer than the title link and titled every
    /// post "Read more: …" (8 of 9 on a recipe blog's home page).
    /// Screen-reader text still names an icon link that shows nothing.
    #[test]
    fn screen_reader_text_is_no_part_of_a_title_unless_it_is_all_there_is() {
        let post = |slug: &str, title: &str| {
            format!(
                "<li><a class=wp-block-latest-posts__post-title href='/{slug}/'>{title}</a>\
                 <time datetime='2026-11-20T07:00:00-06:00'>November 20, 2026</time>\
                 <div class=wp-block-latest-posts__post-excerpt>A weeknight dish with a crisp top. \
                 <a class=wp-block-latest-posts__read-more href='/{slug}/'>Read more\
                 <span class=screen-reader-text>: {title}</span></a></div></li>"
            )
        };
        let html = format!(
            "<ul>{}{}{}</ul>",
            post("gratin", "Gratin"),
            post("soup", "Soup"),
            post("bars", "Bars")
        );
        let items = items_of_lis(&html, "https://food.example/");
        let titles: Vec<&str> = items.iter().map(|it| it.title.as_str()).collect();
        assert_eq!(titles, ["Gratin", "Soup", "Bars"]);
        assert!(
            items[0].summary.ends_with("crisp top. Read more"),
            "{}",
            items[0].summary
        );
        let doc = crate::extract::dom::parse(
            "<a href='#c1'><svg></svg><span class=sr-only>Permalink</span></a>",
        );
        let a = (0..doc.nodes.len() as NodeId)
            .find(|&i| doc.is_tag(i, "a"))
            .expect("the link");
        assert_eq!(title_text(&doc, a), "Permalink");
    }

    /// The items of `records`, titled by one plan as a group's are.
    fn items_of_records(doc: &Document, records: &[Record], base: &str) -> Vec<Item> {
        let base = Url::parse(base).unwrap();
        let plan = plan_titles(doc, records, &ctx());
        records
            .iter()
            .map(|r| item_from_record(doc, r, &base, &ctx(), &plan))
            .collect()
    }

    /// A forum post: its number link (`#N`), its author, and its text.
    fn post(number: &str, author: &str, text: &str) -> String {
        format!(
            "<div class=post><div class=head>#<a href='/p/{author}{number}'>{number}</a></div>\
             <a class=user href='/u/{author}'>{author}</a><div class=msg>{text}</div></div>"
        )
    }

    /// Regression: a thread's posts, numbered `#1`, `#2`, ... by a link,
    /// were titled by that number ("1", "2"): the number is the post's
    /// permalink, and the post is titled by its own text.
    #[test]
    fn numbered_posts_are_titled_by_their_text_and_linked_by_their_number() {
        let long = "Blade is freshly honed and the mouth is closed up, yet the plane chatters";
        let html = [
            post("1", "turnedleg", long),
            post("2", "oakandiron", &format!("{long} on end grain")),
            post("3", "shavingsfly", &format!("Skew the plane: {long}")),
        ]
        .concat();
        let items = items_of(&html, "post", "https://forum.example/t/48213");
        assert_eq!(items.len(), 3);
        assert!(
            items[0].title.starts_with("Blade is freshly honed"),
            "{}",
            items[0].title
        );
        assert_eq!(
            items[1].link.as_ref().map(Url::as_str),
            Some("https://forum.example/p/oakandiron2")
        );
    }

    /// Regression (a Discourse topic): a post whose code block holds most
    /// of its text was titled by the code, and a post of a short opening
    /// line, a quote and a long paragraph by the long paragraph alone.
    /// Regression (a XenForo thread): a reply opening with the post it
    /// quotes was titled "grindnerd said: …", the other poster's words.
    #[test]
    fn a_post_is_titled_from_the_start_of_its_own_words() {
        let code = "Coordinator 0x0000 ├─ Plug kitchen 0x31a8 (router, LQI 212) ├─ Plug hallway \
                    0x4b90 (router, LQI 187) │ ├─ Lumo door sensor 0x5a1f (end device) └─ Plug \
                    office 0x22ee (router, LQI 230)";
        let long = "In my case it is not only the door sensors: a couple of older contact sensors \
                    drop as well, always after being idle for about two hours, as if the \
                    coordinator forgot its children";
        let html = [
            post(
                "1",
                "ardenvale",
                &format!("<p>Here is the map:</p><pre><code>{code}</code></pre>"),
            ),
            post(
                "2",
                "marlow",
                &format!(
                    "<p>Same here.</p><aside class=quote><blockquote><p>Mains-powered \
                          devices are fine</p></blockquote></aside><p>{long}</p>"
                ),
            ),
            post("3", "june", &format!("<p>{long}, and the plugs too.</p>")),
        ]
        .concat();
        let titles: Vec<String> = items_of(&html, "post", "https://forum.example/t/18342")
            .into_iter()
            .map(|it| it.title)
            .collect();
        assert!(
            titles[0].starts_with("Here is the map: Coordinator"),
            "{titles:?}"
        );
        // What a post quotes is not its own words (a forum's "… said:"
        // block opening a reply was its title).
        assert!(titles[1].starts_with("Same here. In my case"), "{titles:?}");
        assert!(titles[2].starts_with("In my case"), "{titles:?}");
    }

    /// Regression (a Tildes thread): the stub a deleted comment leaves
    /// ("Comment deleted by author" beside its Link and Parent links) was
    /// an item; a comment that only mentions deletion, or whose author
    /// flair is marked removed, is not a stub.
    #[test]
    fn a_deleted_comment_stub_is_told_from_comments() {
        let html = "<div class=c><button>−</button><div>[4]</div>\
            <div class=is-comment-deleted>Comment deleted by author</div>\
            <a href='#c1'>Link</a> <a href='#c0'>Parent</a></div>\
            <div class=c><a href='/u/ada'>ada</a> <span class=flair-removed>mod</span>\
            <p>The 21:40 sleeper ran on time all week, and the couchettes were clean.</p></div>\
            <div class=c><a href='/u/bo'>bo</a><p>I deleted my old booking and made a new \
            one: the refund came within a day.</p></div>";
        let doc = crate::extract::dom::parse(html);
        let stubs: Vec<bool> = records_of_class(&doc, "c")
            .iter()
            .map(|r| is_deleted_stub(&doc, r))
            .collect();
        assert_eq!(stubs, [true, false, false]);
    }

    /// Regressions (a Mastodon timeline): a boost, whose booster's name
    /// comes first, was linked to the booster; the status's permalink is
    /// its timestamp link ("4h", a `<time datetime>`). A status behind a
    /// content warning was titled by its folded text: a reader sees the
    /// warning, not the "Show more" button or the hidden words.
    #[test]
    fn a_status_is_linked_by_its_timestamp_and_titled_by_what_shows() {
        let status = |id: &str, prepend: &str, content: &str| {
            format!(
                "<div class=entry>{prepend}<div class=status><a class=time href='https://coast.example/@tern/{id}'>\
                 <time datetime='2026-11-21T08:02:10Z'>4h</time></a>\
                 <a class=name href='https://coast.example/@tern'>Tern</a>\
                 <div class=content>{content}</div></div></div>"
            )
        };
        let prose = "<p>The winter wader count is on Sunday. We need counters for fourteen sectors, \
                     no experience needed.</p>";
        let html = [
            status("1", "", prose),
            status(
                "2",
                "<div class=prepend><a href='https://moor.example/@kes'>Kes</a> boosted</div>",
                prose,
            ),
            status(
                "3",
                "",
                "<p><span class=summary>Long post: notes from the flood consultation</span>\
                 <button>Show more</button></p><div class=e-content style='display: none'>\
                 <p>Three hours, about sixty people, one very tired consultant, and a car park \
                 extension that is still in the scheme.</p></div>",
            ),
        ]
        .concat();
        let items = items_of(&html, "entry", "https://moor.example/@kes");
        let link = |i: usize| items[i].link.as_ref().map(Url::as_str);
        assert_eq!(link(1), Some("https://coast.example/@tern/2"));
        assert_eq!(
            items[2].title,
            "Long post: notes from the flood consultation"
        );
    }

    /// Regression (a language's proposal index): each row links its number
    /// and its title to one page, both `td/p/a.pep`, and every title was
    /// the number.
    #[test]
    fn a_number_beside_a_worded_link_to_the_same_page_is_no_title() {
        let row = |n: &str, title: &str| {
            format!(
                "<tr class=row><td><p><abbr>SF</abbr></p></td>\
                 <td><p><a class=pep href='../mep-{n:0>4}/'>{n}</a></p></td>\
                 <td><p><a class=pep href='../mep-{n:0>4}/'>{title}</a></p></td><td><p>Pike</p></td></tr>"
            )
        };
        let html = format!(
            "<table><tbody>{}{}{}</tbody></table>",
            row("8", "Style Guide for Marlin Code"),
            row("20", "The Tao of Marlin"),
            row("257", "Docstring Conventions")
        );
        let items = items_of(&html, "row", "https://meps.example/mep-0000/");
        let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Style Guide for Marlin Code",
                "The Tao of Marlin",
                "Docstring Conventions"
            ]
        );
        assert_eq!(
            items[0].link.as_ref().map(Url::as_str),
            Some("https://meps.example/mep-0008/")
        );
    }

    /// A blog of mostly untitled posts (photos with a caption, quotes),
    /// each linked by its date.
    fn tumblr_post(id: &str, date: &str, body: &str) -> String {
        format!(
            "<article class=post><div class=inner>{body}<footer>\
             <a class=post-date href='https://kiln.example/post/{id}'>{date}</a> \
             <a class=notes href='https://kiln.example/post/{id}#notes'>12 notes</a></footer></div></article>"
        )
    }

    /// Regressions (a Tumblr blog): posts whose permalink says their date
    /// were undated (the permalink was read as a title link, whose dates
    /// are never the record's); the titled posts among the untitled were
    /// titled by their first words; a reblog was titled by the reblogged
    /// blog's name; a post that is only a quote was titled by its quote
    /// and its source.
    #[test]
    fn a_blog_of_untitled_posts_is_dated_by_its_permalinks_and_titles_its_titled_ones() {
        let html = [
            tumblr_post(
                "1",
                "Mar 10th, 2024",
                "<div class=body><img src='/k.jpg'><p>Kiln opening, Sunday. Three survivors out of eleven.</p></div>",
            ),
            tumblr_post(
                "2",
                "Mar 8th, 2024",
                "<h2 class=title><a href='https://kiln.example/post/2'>Notes on a celadon that behaves</a></h2>\
                 <div class=body><p>Six months and forty-one test tiles later, I have a celadon that does not craze.</p></div>",
            ),
            tumblr_post(
                "3",
                "Mar 5th, 2024",
                "<div class=body><p><a class=tumblr_blog href='https://grit.example/post/9'>glazeandgrit</a>:</p>\
                 <blockquote><p>Reminder that wedging is not optional.</p></blockquote>\
                 <p>Said it louder for the Tuesday night class.</p></div>",
            ),
            tumblr_post(
                "4",
                "Mar 2nd, 2024",
                "<div class=body><div class=quote-wrapper><blockquote><p>Clay remembers everything you do to it.</p></blockquote>\
                 <p class=source>— Ida Merriwether</p></div></div>",
            ),
            tumblr_post(
                "5",
                "Feb 25th, 2024",
                "<div class=body><p>Anyone near Leeds selling a banding wheel? Asking for six students.</p></div>",
            ),
        ]
        .concat();
        let items = items_of(&html, "post", "https://kiln.example/");
        let titles: Vec<&str> = items.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Kiln opening, Sunday. Three survivors out of eleven.",
                "Notes on a celadon that behaves",
                "Said it louder for the Tuesday night class.",
                "Clay remembers everything you do to it.",
                "Anyone near Leeds selling a banding wheel? Asking for six students.",
            ]
        );
        let days: Vec<String> = items
            .iter()
            .map(|i| {
                i.date
                    .map(|d| d.date_naive().to_string())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(
            days,
            [
                "2024-03-10",
                "2024-03-08",
                "2024-03-05",
                "2024-03-02",
                "2024-02-25"
            ]
        );
    }

    /// The lead-in line of a quotation is the poster's own when it says
    /// something of their own ("One thing I'd add about the berths:"), and
    /// the quotation's when it names whose words follow.
    #[test]
    fn an_attribution_line_belongs_to_its_quotation() {
        let doc = crate::extract::dom::parse(
            "<div><p id=a><a href='/u/grit'>glazeandgrit</a>:</p><blockquote>q</blockquote>\
             <p id=b>On 5 March, Ida wrote:</p> <blockquote>q</blockquote>\
             <p id=c>One thing I'd add about the berths:</p><blockquote>q</blockquote>\
             <p id=d>glazeandgrit:</p><p>not a quote</p></div>",
        );
        let by_id = |id: &str| {
            (0..doc.nodes.len() as NodeId)
                .find(|&i| doc.element(i).and_then(|e| e.attr("id")) == Some(id))
                .unwrap()
        };
        assert!(is_attribution(&doc, by_id("a")));
        assert!(is_attribution(&doc, by_id("b")));
        assert!(!is_attribution(&doc, by_id("c")));
        assert!(!is_attribution(&doc, by_id("d")));
    }

    /// Regression (a Blogger home page): a post without a title was titled
    /// by its author's profile link, its only other link being the "2:05
    /// PM" that links the post.
    #[test]
    fn an_untitled_post_among_titled_ones_is_titled_by_its_words() {
        let post = |title: &str, slug: &str, body: &str, time: &str| {
            format!(
                "<div class=post>{title}<div class=body>{body}</div><div class=footer>Posted by \
                 <a class=g-profile href='https://blogger.example/profile/1' rel=author>Maren Oakley</a> at \
                 <a class=timestamp-link href='https://kitchen.example/2025/03/{slug}.html' rel=bookmark>{time}</a></div></div>"
            )
        };
        let titled = |t: &str, slug: &str| {
            format!(
                "<h3 class=post-title><a href='https://kitchen.example/2025/03/{slug}.html'>{t}</a></h3>"
            )
        };
        let html = [
            post(
                "",
                "blog-post",
                "Snow on the daffodils this morning. Spring, apparently, is negotiable.",
                "2:05 PM",
            ),
            post(
                &titled("Sourdough discard crackers", "crackers"),
                "crackers",
                "<p>Attempt number four: rosemary and salt.</p>",
                "9:14 AM",
            ),
            post(
                &titled("Seed order arrived", "seeds"),
                "seeds",
                "<p>The seed order came and I regret nothing.</p>",
                "7:30 PM",
            ),
        ]
        .concat();
        let items = items_of(&html, "post", "https://kitchen.example/");
        assert_eq!(
            items[0].title,
            "Snow on the daffodils this morning. Spring, apparently, is negotiable."
        );
        assert_eq!(
            items[0].link.as_ref().map(Url::as_str),
            Some("https://kitchen.example/2025/03/blog-post.html")
        );
        assert_eq!(items[1].title, "Sourdough discard crackers");
        for t in ["2:05 PM", "14:02", "9:14:07 a.m."] {
            assert!(is_clock_time(t), "{t}");
        }
        for t in ["2:5 PM", "3.14", "v1:20", "12:00 noon", "2024"] {
            assert!(!is_clock_time(t), "{t}");
        }
    }

    /// Regressions (a news opinion page, a Tumblr link post, a rendered
    /// changelog): a kicker inside the headline link ("Analysis"), a "↗"
    /// hidden from screen readers after it, and a heading's "¶" anchor
    /// were read into the titles; a release heading without a version link
    /// was linked to a pull request its notes cite.
    #[test]
    fn kickers_decoration_and_heading_anchors_are_no_part_of_a_title() {
        let item = item_of(
            "<article><h3><a href='/opinion/tunnel/'><span class='kicker kicker--analysis'>Analysis</span> \
             Why the lakefront tunnel vote slipped again</a></h3></article>",
            "article",
        );
        assert_eq!(item.title, "Why the lakefront tunnel vote slipped again");
        let item = item_of(
            "<article><h2><a href='https://sea.example/bowl'>The bowl that survived 800 years \
             <span class=arrow aria-hidden=true>&#8599;</span></a></h2><p>A long read.</p></article>",
            "article",
        );
        assert_eq!(item.title, "The bowl that survived 800 years");
        let release = |v: &str, id: &str| {
            format!(
                "<section class=rel><h2 id='{id}'><a href='https://forge.example/compare/{v}'>{v}</a> - 2026-01-20\
                 <a class=headerlink href='#{id}'>&para;</a></h2><ul><li>Fixed a thing \
                 (<a href='https://forge.example/pull/4{id}'>#4{id}</a>)</li></ul></section>"
            )
        };
        let html = format!(
            "{}{}<section class=rel><h2 id='192'>[1.9.2] - 2026-01-20<a class=headerlink href='#192'>&para;</a></h2>\
             <ul><li>Installing failed (<a href='https://forge.example/pull/486'>#486</a>)</li></ul></section>{}",
            release("2.4.0", "240"),
            release("2.3.1", "231"),
            release("1.9.1", "191")
        );
        let items = items_of(&html, "rel", "https://docs.example/changelog/");
        assert_eq!(items[0].title, "2.4.0");
        assert_eq!(items[2].title, "[1.9.2] - 2026-01-20");
        assert_eq!(
            items[2].link.as_ref().map(Url::as_str),
            Some("https://docs.example/changelog/#192")
        );
    }

    /// Regression (a museum's exhibitions grid): the membership card
    /// among the exhibitions, marked `card--promo`, was an item. A product
    /// on promotion links where the others do and stays.
    #[test]
    fn the_sites_own_promotion_among_the_records_is_no_item() {
        let card = |class: &str, href: &str, title: &str| {
            format!(
                "<li class='{class}'><h3><a href='{href}'>{title}</a></h3><p>Some words about it.</p></li>"
            )
        };
        let html = [
            card(
                "card card--exhibition",
                "/exhibitions/paper-armour/",
                "Paper Armour",
            ),
            card(
                "card card--promo",
                "/support-us/membership/",
                "See every exhibition for free",
            ),
            card(
                "card card--exhibition card--promo",
                "/exhibitions/quiet-room/",
                "The Quiet Room",
            ),
            card(
                "card card--exhibition",
                "/exhibitions/glass/",
                "Glass Menagerie",
            ),
        ]
        .concat();
        let doc = crate::extract::dom::parse(&format!("<ul>{html}</ul>"));
        let records = records_where(&doc, |i| doc.is_tag(i, "li"));
        let items = items_of_records(&doc, &records, "https://museum.example/whats-on/");
        let kept = without_house_promos(&doc, &records, items);
        let titles: Vec<&str> = kept.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(
            titles,
            ["Paper Armour", "The Quiet Room", "Glass Menagerie"]
        );
    }

    /// Regression (release notes): versions are headings with an in-page
    /// `¶` anchor and no other link, and the first carries a "Latest"
    /// badge: they had no link at all, and "Latest" ended the title.
    #[test]
    fn a_heading_without_links_is_linked_by_its_anchor_and_loses_its_badge() {
        let html = "<div class=notes>\
            <div class=r><h2 id=v4-12-0><a class=anchor href='#v4-12-0'></a>Version 4.12.0 \
            <span class='badge badge--latest'>Latest</span></h2><p>Released 18 November 2026</p></div>\
            <div class=r><h2><a class=anchor href='#v4-11-2'></a>Version 4.11.2</h2>\
            <p>Released 4 November 2026</p></div></div>";
        let items = items_of(html, "r", "https://app.example/release-notes/");
        assert_eq!(items[0].title, "Version 4.12.0");
        let links: Vec<Option<&str>> = items
            .iter()
            .map(|it| it.link.as_ref().map(Url::as_str))
            .collect();
        assert_eq!(
            links,
            [
                Some("https://app.example/release-notes/#v4-12-0"),
                Some("https://app.example/release-notes/#v4-11-2")
            ]
        );
    }

    /// Regression (a live blog): each update's only steady link is its
    /// timestamp ("21:20", a `<time datetime>` with a hidden "EST"), so
    /// every update was titled "21:20 EST, 9:20 p.m.". An update is titled
    /// by its heading, or else by its words, and linked by the timestamp.
    #[test]
    fn a_live_update_is_titled_by_its_heading_or_words_not_its_time() {
        let update = |id: u32, author: &str, body: &str| {
            format!(
                "<article class=update id=u{id}><header><a class=stamp href='#u{id}'>\
                 <time datetime='2026-12-03T21:{id}:00-05:00'>21:{id}</time>\
                 <span class=visually-hidden> EST, 9:{id} p.m.</span></a></header>\
                 <div class=body>{body}</div><p class=byline><a href='/staff/{author}'>{author}</a></p>\
                 </article>"
            )
        };
        let html = [
            update(
                20,
                "dana",
                "<h3>Schools closed Friday in four districts</h3><p>Port Ardent City \
                                Schools and Harmon Local have cancelled classes for Friday.</p>",
            ),
            update(
                31,
                "luis",
                "<p>The weather office has extended the lake-effect snow warning for \
                                Arden and Wyle counties until Saturday morning.</p>",
            ),
            update(
                42,
                "dana",
                "<h3>Governor declares state of emergency</h3><p>The declaration \
                                covers six counties and frees state money for plowing.</p>",
            ),
        ]
        .concat();
        let items = items_of(&html, "update", "https://herald.example/storm-live");
        let titles: Vec<&str> = items.iter().map(|it| it.title.as_str()).collect();
        assert_eq!(titles[0], "Schools closed Friday in four districts");
        assert!(
            titles[1].starts_with("The weather office has extended"),
            "{titles:?}"
        );
        assert_eq!(
            items[1].link.as_ref().map(Url::as_str),
            Some("https://herald.example/storm-live#u31")
        );
    }

    /// Numbers that do not count up through the records (pull-request
    /// references in release notes) are not permalinks.
    #[test]
    fn numbers_that_do_not_count_up_are_not_post_permalinks() {
        let permalinks = |numbers: [&str; 3]| {
            let html: String = numbers.iter().map(|n| post(n, "a", "x")).collect();
            let doc = crate::extract::dom::parse(&html);
            let records = records_of_class(&doc, "post");
            plan_titles(&doc, &records, &ctx()).permalinks.len()
        };
        assert_eq!(permalinks(["1412", "1380", "1377"]), 0);
        assert_eq!(permalinks(["1", "2", "4"]), 3);
    }

    /// Regression: a commit title split into links around a pull-request
    /// reference was titled by its first piece ("Fix panic (").
    #[test]
    fn a_title_split_into_glued_links_is_read_whole() {
        let it = item_of(
            "<li><p><a href='/c/4be1'>Fix panic on a trailing BOM (</a><a href='/pull/482'>#482</a>\
             <a href='/c/4be1'>)</a></p><a href='/u/mh'>mhollis</a> committed</li>",
            "li",
        );
        assert_eq!(it.title, "Fix panic on a trailing BOM (#482)");
        assert_eq!(it.link.unwrap().as_str(), "https://news.example.com/c/4be1");
        // Links with a space between them are separate (a title and its
        // "Read more" to the same page).
        let it = item_of(
            "<li><h3><a href='/p/1'>Floods reach the city</a> <a href='/p/1'>Read more</a></h3></li>",
            "li",
        );
        assert_eq!(it.title, "Floods reach the city");
        // Regression (a cloud blog's featured article): a card link around
        // its kicker, heading and summary, glued to its "Read Article"
        // link, was read whole with them as its title.
        let it = item_of(
            "<article><div><a href='/p/5-years'><span>Sustainability</span><h2>Five years of renewable energy</h2>\
             <p>For five years now, Google has matched its use.</p></a><a href='/p/5-years'>Read Article</a></div></article>",
            "article",
        );
        assert_eq!(it.title, "Five years of renewable energy");
    }

    /// The title of an article whose heading link holds `inner`.
    fn headline_title(inner: &str) -> String {
        let html = format!("<article><h2><a href='/a/1'>{inner}</a></h2></article>");
        item_of(&html, "article").title
    }

    /// Regression: a subscriber badge inside the headline's link began
    /// the title ("Abonnés Procès des cambriolages ...").
    #[test]
    fn a_badge_at_the_start_of_the_title_link_is_not_the_title() {
        assert_eq!(
            headline_title(
                "<span class='badge badge--abonnes'>Abonnés</span> Procès des cambriolages en série"
            ),
            "Procès des cambriolages en série"
        );
        // A span that is the whole title is not a badge.
        assert_eq!(
            headline_title("<span class='label'>Short title</span>"),
            "Short title"
        );
    }

    /// Regression: a paywall badge at the end of the headline's link ended
    /// the title ("Klinikum lockt Pflegekräfte mit eigenen Wohnungen AN+").
    #[test]
    fn a_badge_at_the_end_of_the_title_link_is_not_the_title() {
        let cases = [
            (
                "Klinikum lockt Pflegekräfte mit eigenen Wohnungen <span class='plus-badge' \
                 title='AN+ Artikel'><span class='visually-hidden'>AN+</span>\
                 <svg class='icon'></svg></span>",
                "Klinikum lockt Pflegekräfte mit eigenen Wohnungen",
            ),
            // Both ends at once.
            (
                "<span class='pill'>Video</span> Flut am Deich <span class='badge'>Plus</span>",
                "Flut am Deich",
            ),
            // A headline too short to lose its label keeps it.
            ("Ein Tor <span class='badge'>Plus</span>", "Ein Tor Plus"),
            // A time stamped into the link (a Trac timeline).
            (
                "<span class=time>17:58</span> Changeset <em>[4827]</em>",
                "Changeset [4827]",
            ),
            // An icon with a word in it (a Japanese paper's video mark).
            (
                "<span class='c-icon c-icon--video'>動画</span>伝統の「雪吊り」作業始まる",
                "伝統の「雪吊り」作業始まる",
            ),
        ];
        for (inner, title) in cases {
            assert_eq!(headline_title(inner), title, "{inner}");
        }
    }

    /// Regression: a library catalogue writes "The Salt Road : <span
    /// class=subtitle>Walking the Coast</span>" in its title link; the
    /// subtitle alone was taken for a card's inner title.
    #[test]
    fn a_subtitle_inside_the_title_link_is_part_of_the_title() {
        assert_eq!(
            headline_title("The Salt Road : <span class=subtitle>Walking the Coast</span>"),
            "The Salt Road : Walking the Coast"
        );
        // A card link's inner headline is still its title.
        assert_eq!(
            headline_title(
                "<span class=card__title>Floods reach the city</span>\
                 <span class=card__subtitle>Water rose overnight</span>"
            ),
            "Floods reach the city"
        );
    }

    /// Regression: sponsored property cards in the listings' own markup
    /// carry their "Sponsored" label two levels down, in the card's header.
    #[test]
    fn a_card_labelled_sponsored_below_its_top_is_an_ad() {
        let is_ad = |html: &str| {
            let doc = crate::extract::dom::parse(html);
            let id = (0..doc.nodes.len() as NodeId)
                .find(|&i| doc.is_tag(i, "article"))
                .expect("the card");
            is_advertising(
                &doc,
                &Record {
                    start: id,
                    end: doc.node(id).end,
                },
            )
        };
        let card = |tag: &str| {
            format!(
                "<article class=propertyCard><div class=propertyCard-header>{tag}</div>\
                 <h2><a href='/p/1'>Harbourside Quarter, Whitcombe</a></h2></article>"
            )
        };
        assert!(is_ad(&card(
            "<div class='propertyCard-tag propertyCard-tag--sponsored'>Sponsored</div>"
        )));
        // A label that says something else, or an ad class on an empty
        // slot, does not make the card an ad.
        assert!(!is_ad(&card(
            "<div class='propertyCard-tag propertyCard-tag--sponsored'>Featured</div>"
        )));
        assert!(!is_ad(&card("<div class='inline-ad-slot'></div>")));
        // Regression: a marketplace's label sits six levels into the card.
        assert!(is_ad(&card(
            "<div class=container><div class=section><div class=row>\
             <span class=declarative><a class='label-popover sponsored-label-text'>Sponsored</a>\
             </span></div></div></div>"
        )));
        // Regression: a marketplace marks its sponsored results, and an
        // "Editorial recommendations" block among them, with a camel-case
        // class (`AdHolder`); the block was kept as a record.
        let slot = |class: &str| {
            format!(
                "<article class='{class}'><h2><a href='/p/1'>Harbourside Quarter</a></h2></article>"
            )
        };
        assert!(is_ad(&slot("s-result-item AdHolder s-flex-full-width")));
        assert!(is_ad(&slot("promotedTweet")));
        for class in ["HeadlineCard padded", "LoadMore", "iPad-case", "ADVENTURE"] {
            assert!(!is_ad(&slot(class)), "{class}");
        }
        // Regression: a marketplace marks its ads only with text for
        // screen readers ("Ad from shop …"; others say "From shop …").
        let card = |label: &str| {
            format!(
                "<article class=listing-card><a href='/listing/1'><div class=info>\
                 <div class=caption><span class=wt-screen-reader-only>{label}</span></div>\
                 <h3>Blue glaze tumbler</h3></div></a></article>"
            )
        };
        assert!(is_ad(&card("Ad from shop SaltGlazeSisters")));
        assert!(is_ad(&card("Sponsored")));
        for label in [
            "From shop SaltGlazeSisters",
            "Add to basket",
            "5.0 out of 5 stars",
        ] {
            assert!(!is_ad(&card(label)), "{label}");
        }
        // Regression: an ad between the unwrapped siblings of two stories
        // made the story before it an ad.
        let doc = crate::extract::dom::parse(
            "<div id=list><header><h2><a href='/s/4'>Story four</a></h2></header>\
             <div class=body>Text</div><div class=ntv-sponsored>\
             <span class=ad-label>Advertisement</span></div></div>",
        );
        let header = (0..doc.nodes.len() as NodeId)
            .find(|&i| doc.is_tag(i, "header"))
            .expect("the story's first sibling");
        let list = doc.node(header).parent.expect("the list");
        let story = Record {
            start: header,
            end: doc.node(list).end,
        };
        assert!(!is_advertising(&doc, &story));
    }

    /// Regression: phpBB repeats each topic's last-post time in a block
    /// hidden by inline style before the topic's own start time; the
    /// hidden time dated the topic.
    #[test]
    fn a_date_hidden_by_the_markup_gives_way_to_the_visible_one() {
        let topic = |hidden: &str| {
            format!(
                "<li class='row'><a class='topictitle' href='/t/931'>Safety first on mains sets</a>\
                 <div class='responsive-show' {hidden}>Last post by Annie &laquo; \
                 <time datetime='2026-10-30T12:02:55+00:00'>Fri Oct 30, 2026</time></div>\
                 <div class='topic-poster'>by Sid &raquo; \
                 <time datetime='2019-03-06T20:41:19+00:00'>Wed Mar 06, 2019 8:41 pm</time></div></li>"
            )
        };
        for hidden in [
            "style='display: none;'",
            "style='color:red; DISPLAY:NONE !important'",
            "hidden",
        ] {
            let it = item_of(&topic(hidden), "li");
            let date = it.date.map(|d| d.to_rfc3339());
            assert_eq!(
                date.as_deref(),
                Some("2019-03-06T20:41:19+00:00"),
                "{hidden}"
            );
        }
        // Shown, the first time is the record's, as before.
        let it = item_of(&topic("style='display: block'"), "li");
        assert_eq!(it.date.unwrap().to_rfc3339(), "2026-10-30T12:02:55+00:00");
        // A date only in hidden markup is still the record's date.
        let only_hidden = "<li><a href='/t/1'>Schedule for the next meeting</a>\
             <span hidden><time datetime='2024-03-05T10:00:00+00:00'>5 March</time></span></li>";
        let it = item_of(only_hidden, "li");
        assert_eq!(it.date.unwrap().to_rfc3339(), "2024-03-05T10:00:00+00:00");
        let text_only = "<li><a href='/t/1'>Schedule for the next meeting</a>\
             <span style='display:none'>Posted 5 March 2024</span></li>";
        let it = item_of(text_only, "li");
        assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-05");
    }

    #[test]
    fn teaser_with_thumbnail_heading_and_time() {
        let it = item_of(
            "<article><a href='/p/1'><img src='/i/1.jpg' alt=''></a><h3><a href='/p/1'>Floods reach the city</a></h3>\
             <p>Water levels rose overnight.</p><a href='/p/1#c'>12 comments</a>\
             <time datetime='2024-03-05T08:00:00+01:00'>5 March</time></article>",
            "article",
        );
        assert_eq!(it.title, "Floods reach the city");
        assert_eq!(it.link.unwrap().as_str(), "https://news.example.com/p/1");
        assert_eq!(
            it.image.unwrap().as_str(),
            "https://news.example.com/i/1.jpg"
        );
        assert_eq!(it.date.unwrap().to_rfc3339(), "2024-03-05T08:00:00+01:00");
        assert!(it.summary.contains("Water levels rose overnight."));
        assert!(!it.summary.contains("Floods reach"));
    }

    #[test]
    fn list_row_with_date_span_and_read_more() {
        let it = item_of(
            "<li><span>March 5, 2024</span> <a href='post.html'>Read more</a> <a href='post.html'>On writing</a></li>",
            "li",
        );
        assert_eq!(it.title, "On writing");
        assert_eq!(
            it.link.as_ref().unwrap().as_str(),
            "https://news.example.com/world/post.html"
        );
        assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-05");
        assert!(it.guid_is_permalink());
    }

    /// Regression: a card whose `<a>` wraps heading, summary and date lost
    /// its date, because every date inside the title link was taken for
    /// part of the headline.
    #[test]
    fn date_beside_the_heading_of_a_card_link_is_the_records() {
        let it = item_of(
            "<div><a href='walk.html'><p>Trails</p><h4>Walking the drovers' road</h4><p>Three days on a green lane.</p><span>March 8, 2024</span></a></div>",
            "div",
        );
        assert_eq!(it.title, "Walking the drovers' road");
        assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-08");
        // A date in the headline itself is still no record date.
        let it = item_of(
            "<div><h3><a href='review.html'>Our review of March 8, 2024</a></h3></div>",
            "div",
        );
        assert!(it.date.is_none(), "{:?}", it.date);
    }

    /// A German news teaser (telepolis, heise) dates itself "heute, 11:45
    /// Uhr" after the author: the item takes that day and time, and is
    /// marked as a date that moves with the clock.
    #[test]
    fn german_day_word_with_time_dates_the_teaser() {
        let it = item_of(
            "<article><h3><a href='/tp/features/Maskenpflicht-4959380.html'>Maskenpflicht in der Grundschule</a></h3>\
             <p>Die übersehenen Nebenwirkungen Christof Kuhbandner heute, 11:45 Uhr <a href='#k'>258</a></p></article>",
            "article",
        );
        assert_eq!(it.title, "Maskenpflicht in der Grundschule");
        let today = ctx().now.date_naive();
        let date = it.date.expect("a date from \"heute, 11:45 Uhr\"");
        assert_eq!(date.date_naive(), today);
        assert_eq!(date.time().to_string(), "11:45:00");
        assert!(it.date_relative);
    }

    /// Regression: a lazy loader's placeholder `src="/img/blank.gif"` made
    /// the picture decorative although `data-src` held the real one.
    #[test]
    fn lazy_loaded_picture_behind_a_blank_placeholder_is_the_image() {
        let it = item_of(
            "<article><img src='/img/blank.gif' data-src='/media/heat-pump-480.jpg' width='480' height='270' alt=''>\
             <h3><a href='/p/2'>Heat pumps outsold furnaces</a></h3></article>",
            "article",
        );
        assert_eq!(
            it.image.map(|u| u.to_string()).as_deref(),
            Some("https://news.example.com/media/heat-pump-480.jpg")
        );
    }

    /// Forum rows show their posters' avatars; none is the record's picture,
    /// whether the class or the address says so.
    #[test]
    fn posters_avatars_are_not_the_image() {
        for img in [
            "<img class='avatar' src='/letter/s/a87d34/48.png' width='48' height='48'>",
            "<img src='/user_avatar/q/jpvandijk/48/4410_2.png' width='48' height='48'>",
        ] {
            let it = item_of(
                &format!(
                    "<table><tr><td><a href='/t/export-to-pdf/18249'>Export to PDF cuts off code blocks</a></td><td><a href='/u/x'>{img}</a></td></tr></table>"
                ),
                "tr",
            );
            assert_eq!(it.image, None, "{img}");
        }
    }

    /// A forum topic list's activity cell: the first of the tooltip's
    /// labelled dates (the topic's creation) is the record's date.
    #[test]
    fn labelled_tooltip_gives_its_first_date() {
        let it = item_of(
            "<table><tr><td><a href='/t/feature-request/18233'>Feature request: per-notebook default font</a></td>\
             <td class='activity' title='Created: Mar 8, 2024 9:12 am&#10;Latest: Mar 10, 2024 6:05 pm'><a href='/t/feature-request/18233/7'>2h</a></td></tr></table>",
            "tr",
        );
        assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-08");
        assert_eq!(tooltip_date("Posted by: someone", &ctx()), None);
        assert_eq!(
            tooltip_date("A very long label that is not one: Mar 8, 2024", &ctx()),
            None
        );
    }

    /// Regression: a comment's age ("19 hours ago") carries its time in a
    /// tooltip that opens with the timestamp and ends with its Unix time
    /// (`title="2026-11-20T21:05:12 1795208712"`, as Hacker News writes
    /// it); the whole tooltip is no date, so 29 comments had none.
    #[test]
    fn a_tooltip_opening_with_a_timestamp_gives_it() {
        let it = item_of(
            "<table><tr class='athing comtr'><td><span class=comhead><a href='user?id=pm'>pm</a> \
             <span class=age title='2026-11-20T21:05:12 1795208712'><a href='item?id=45881230'>19 hours ago</a></span>\
             </span><div class=commtext>Paper labels fade within two years in our shop.</div></td></tr></table>",
            "tr",
        );
        assert_eq!(it.date.unwrap().to_rfc3339(), "2026-11-20T21:05:12+00:00");
        assert!(!it.date_relative);
        // Only a timestamp followed by numbers: not a date and some words.
        for title in [
            "2026-11-20 and then some",
            "2026-11-20T21:05:12 by pm",
            "v2 1795208712",
        ] {
            assert_eq!(tooltip_date(title, &ctx()), None, "{title}");
        }
    }

    /// Regression: a date whose day, month and year are separate inline
    /// elements ("05Mar2024" as text) gave none.
    #[test]
    fn date_split_into_day_month_and_year_spans() {
        let it = item_of(
            "<article><div class='date'><span class='day'>05</span><span class='month'>Mar</span><span class='year'>2024</span></div>\
             <h3><a href='/whats-on/lantern-keepers/'>The Lantern Keepers</a></h3><p>Main House · 7.30pm</p></article>",
            "article",
        );
        assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-05");
    }

    /// Regression: an events card's badge "<span>Sat</span>
    /// <span>2</span> <span>Mar</span>" (no year) gave no date: no text
    /// node holds it, and a yearless day is a date only as a whole string.
    #[test]
    fn a_day_split_into_spans_is_read_as_the_whole_of_its_element() {
        let day = |badge: &str| {
            let html = format!(
                "<li><div class=date-badge>{badge}</div>\
                 <h3><a href='/whats-on/quartet/'>Ottoline Vasquez Quartet</a></h3>\
                 <p>Main House · 7.30pm · £16</p></li>"
            );
            item_of(&html, "li")
                .date
                .map(|d| d.date_naive().to_string())
        };
        assert_eq!(
            day("<span>Sat</span> <span>2</span> <span>Mar</span>").as_deref(),
            Some("2024-03-02")
        );
        // A run of nights is dated by its first.
        let run = "<span>Thu</span> <span>7</span> <span>Mar</span> <span>–</span> \
                   <span>Sat</span> <span>9</span> <span>Mar</span>";
        assert_eq!(day(run).as_deref(), Some("2024-03-07"));
        // Parts that are more than a day are no date.
        assert_eq!(
            day("<span>Room</span> <span>5</span> <span>March wing</span>"),
            None
        );
    }

    /// Regression: a Trac timeline's "Ticket #1193 (…) closed" links to
    /// `ticket/1193#comment:6`; the fragment was dropped, so a later event
    /// of the same ticket would have had the same link and guid.
    #[test]
    fn a_link_to_one_comment_of_a_page_keeps_its_fragment() {
        let link = |href: &str| {
            let html = format!(
                "<li><a href='{href}'>Ticket #1193 (Crash when importing an empty file) closed</a> by ana</li>"
            );
            item_of(&html, "li").link.map(|u| u.to_string())
        };
        let page = "https://news.example.com/trac/ticket/1193";
        for fragment in ["comment:6", "comment-12", "issuecomment-88", "post_5"] {
            assert_eq!(
                link(&format!("/trac/ticket/1193#{fragment}")),
                Some(format!("{page}#{fragment}"))
            );
        }
        // Anchors of a page's parts, not of one comment, are dropped.
        for fragment in [
            "comments",
            "more-1193",
            "respond",
            "comment-form",
            "section-2",
        ] {
            assert_eq!(
                link(&format!("/trac/ticket/1193#{fragment}")),
                Some(page.to_owned())
            );
        }
    }

    /// A wiki's recent-changes line: "(diff | hist) . . Title; time . .
    /// user", in zebra rows; `diff` is plain text for a page's creation.
    fn change_line(row: usize, page: &str, diff: Option<u32>) -> String {
        let zebra = ["odd", "even"][row % 2];
        let diff = match diff {
            Some(d) => format!("<a href='/w/index.php?title={page}&amp;diff={d}'>diff</a>"),
            None => "diff".to_owned(),
        };
        format!(
            "<li class='mw-line-{zebra} mw-changeslist-line'>({diff} | \
             <a href='/w/index.php?title={page}&amp;action=history'>hist</a>) . . \
             <span class=mw-title><a href='/wiki/{page}' class=mw-changeslist-title>{}</a></span>; \
             1{row}:05 . . <a class=mw-userlink href='/wiki/User:Ann'>Ann</a></li>",
            page.replace('_', " ")
        )
    }

    /// Regression: a wiki's recent changes list each edit of a page under
    /// the page's title, in zebra rows. The rows' classes split the title
    /// path in two, titles that repeat with their page were taken for
    /// action links, and the edits of one page shared its link and guid
    /// (20 of 31 edits were left).
    #[test]
    fn an_edit_of_a_page_listed_again_is_linked_by_its_diff() {
        let pages = [
            ("Fernbrook_Viaduct", Some(48268)),
            ("Mill_Lane", Some(48255)),
            ("Fernbrook_Viaduct", Some(48248)),
            ("Harriet_Okafor", None),
            ("Old_Corn_Exchange", Some(48235)),
            ("Mill_Lane", Some(48230)),
        ];
        let html: String = pages
            .iter()
            .enumerate()
            .map(|(i, (page, diff))| change_line(i, page, *diff))
            .collect();
        let items = items_of_lis(
            &format!("<ul>{html}</ul>"),
            "https://wiki.example.org/wiki/Special:RecentChanges",
        );
        let got: Vec<(&str, &str)> = items
            .iter()
            .map(|it| (it.title.as_str(), it.link.as_ref().map_or("", Url::as_str)))
            .collect();
        let diff = |page: &str, d: u32| {
            format!("https://wiki.example.org/w/index.php?title={page}&diff={d}")
        };
        assert_eq!(
            got,
            vec![
                (
                    "Fernbrook Viaduct",
                    diff("Fernbrook_Viaduct", 48268).as_str()
                ),
                ("Mill Lane", diff("Mill_Lane", 48255).as_str()),
                (
                    "Fernbrook Viaduct",
                    diff("Fernbrook_Viaduct", 48248).as_str()
                ),
                // A creation has no diff: its page.
                (
                    "Harriet Okafor",
                    "https://wiki.example.org/wiki/Harriet_Okafor"
                ),
                (
                    "Old Corn Exchange",
                    diff("Old_Corn_Exchange", 48235).as_str()
                ),
                ("Mill Lane", diff("Mill_Lane", 48230).as_str()),
            ]
        );
    }

    /// Records titled by links that repeat keep them when the other links
    /// are not changes of the titles' pages: an author's papers each with
    /// a PDF are not edits of the author's page.
    #[test]
    fn a_repeated_title_link_keeps_it_when_no_link_is_a_change_of_its_page() {
        let html: String = [("Klinga", 1927), ("Klinga", 1925), ("Osipchuk", 1574)]
            .iter()
            .map(|(who, n)| {
                format!(
                    "<li><a href='/search?query={who}'>{who} and others</a>: \
                     <a href='/pdf/2111.0{n}'>pdf</a> On a problem {n}</li>"
                )
            })
            .collect();
        let items = items_of_lis(
            &format!("<ul>{html}</ul>"),
            "https://arxiv.example.org/list",
        );
        let links: Vec<&str> = items
            .iter()
            .map(|it| it.link.as_ref().map_or("", Url::as_str))
            .collect();
        assert_eq!(
            links,
            [
                "https://arxiv.example.org/search?query=Klinga",
                "https://arxiv.example.org/search?query=Klinga",
                "https://arxiv.example.org/search?query=Osipchuk",
            ]
        );
    }

    #[test]
    fn record_without_link_gets_stable_content_guid() {
        let a = item_of("<div><b>Closed on Monday</b><p>Holiday.</p></div>", "div");
        let b = item_of("<div><b>Closed on Monday</b><p>Holiday.</p></div>", "div");
        assert_eq!(a.title, "Closed on Monday");
        assert!(a.link.is_none() && a.guid.starts_with("urn:feedmine:"));
        assert_eq!(a.guid, b.guid);
        assert!(!a.guid_is_permalink());
    }

    #[test]
    fn base_href_and_javascript_links() {
        let doc = crate::extract::dom::parse(
            "<head><base href='/blog/'></head><body><a href='javascript:void(0)'>x</a></body>",
        );
        let base = base_url(&doc, &Url::parse("https://ex.com/a/b").unwrap());
        assert_eq!(base.as_str(), "https://ex.com/blog/");
        assert!(resolve(&base, "javascript:void(0)").is_none());
        assert_eq!(
            resolve(&base, "p/1").unwrap().as_str(),
            "https://ex.com/blog/p/1"
        );
    }
}
