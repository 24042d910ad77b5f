//! The title plan of a group of records: which link path is the headline
//! (the same in every record and saying something different in each), the
//! permalinks of records without one, and the links that tell records
//! apart where their titles repeat.
//!
//! Invariants: one pass over each record's links; paths are strings of the
//! page's own tags and classes, hashed with std's keyed hasher.

use super::*;

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
    /// The title path runs through the records' headings: a record whose
    /// heading holds no link has no headline link (a search result cited
    /// without a page: its "Related articles" link is another search).
    pub in_headings: bool,
    /// The records' links differ only by their fragment (`#comment-12`,
    /// `#v2-1`): the fragment is kept, or every record would get the same
    /// link and guid.
    pub keep_fragments: bool,
    /// Each record's own link where title links repeat (see
    /// [`change_links`]): the record is linked by it, not by its title.
    pub change_links: rustc_hash::FxHashSet<NodeId>,
    /// Starts of the records that are lines of activity among posts
    /// ("added the bug label"), not posts (see [`activity_lines`]).
    pub activity: rustc_hash::FxHashSet<NodeId>,
    /// Where the group has no title path: the links whose text many
    /// records repeat ("Documents", "Interactive Data", one file number),
    /// labels of a record, never its headline (see [`label_links`]); true
    /// for a label more links repeat than half the records (a meeting's
    /// "Agenda" in every row).
    pub label_links: rustc_hash::FxHashMap<NodeId, bool>,
    /// The lowest heading level (`dom::heading_level`) the title links stand in,
    /// when the title path runs through headings: a lower heading (a
    /// post's "Aside" format label under its `h2` titles, a body's `h4`)
    /// titles no record ([`TitlePlan::is_subheading`]).
    pub title_level: Option<usize>,
    /// The records' headings mostly say one thing, a thread's subject
    /// (see `posts::headless_group`): a headless group's posts are titled by
    /// their words, not by it.
    pub subjects: bool,
}

/// Steps up from a title link looked at for the heading it stands in.
const TITLE_HEADING_STEPS: usize = 3;

impl TitlePlan {
    /// True when element `name` is a heading below every heading the
    /// group's title links stand in.
    pub(super) fn is_subheading(&self, name: &str) -> bool {
        matches!((self.title_level, heading_level(name)), (Some(t), Some(l)) if l > t)
    }
}

/// The lowest level of the headings `links` stand in (looked for
/// [`TITLE_HEADING_STEPS`] up), when most of them stand in one.
fn title_level(doc: &Document, links: &[NodeId]) -> Option<usize> {
    let levels: Vec<usize> = links
        .iter()
        .filter_map(|&a| {
            doc.ancestors(a)
                .take(TITLE_HEADING_STEPS)
                .find_map(|x| heading_level(doc.tag(x)?))
        })
        .collect();
    (levels.len() * 2 > links.len())
        .then(|| levels.iter().copied().max())
        .flatten()
}

/// Share of records a title path must appear in.
pub(super) const TITLE_PATH_PRESENCE: f64 = 0.6;

/// Share of distinct texts among a title path's links.
pub(super) const TITLE_PATH_DISTINCT: f64 = 0.7;

/// Share of distinct texts among a title path's links whose texts repeat
/// only with their addresses (see [`says_something_each`]).
pub(super) const TITLE_PATH_DISTINCT_PAGES: f64 = 0.5;

/// [`TITLE_PATH_DISTINCT_PAGES`] where each record links a change of its
/// page ([`change_links`]): 59 edits of 26 pages. A microblog's author
/// link, one name over every post, each post's permalink under the
/// author's address, is no title.
pub(super) const TITLE_PATH_DISTINCT_CHANGED: f64 = 0.25;

/// Structural path of node `id` inside `record`, written into `path`
/// (cleared first): `tag.class` steps from the record's top down to `id`.
/// `steps` is scratch for the nodes on the way.
pub(super) fn path_in_record(
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
        // (`li.mw-line-odd`, `li.mw-line-even`: zebra rows). A class that
        // names a title is the step's name, whatever comes first: a
        // table's cells share their first class (`govuk-table__cell`), and
        // the reference cell's link would stand for the title cell's.
        let class = match a == record.start {
            true => None,
            false => {
                let mut tokens = e.attr("class").unwrap_or("").split_whitespace();
                let first = tokens.clone().next();
                tokens.find(|t| names_title_token(t)).or(first)
            }
        };
        path.push_str(&e.name);
        path.push('.');
        path.push_str(class.unwrap_or(""));
    }
}

/// What the records say about one title path.
#[derive(Default)]
pub(super) struct PathStats {
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
    /// Records where the link is a file download, hidden, a summary, a
    /// repeat skipped by the keyboard ([`is_skipped_twin`]) or styled as
    /// muted ([`is_muted`]). (A link in a list of authors demotes too, see
    /// [`authored`]: asked of the paths that may win only.)
    demoted: usize,
    /// Sum of the link's rank among the record's usable links.
    rank: usize,
    /// Records where the link's address holds the record's own
    /// identifier ([`links_own_id`]).
    own: usize,
}

impl PathStats {
    /// Count link `at` (text `text`) as record `r`'s link at this path.
    fn add(&mut self, doc: &Document, r: &Record, at: LinkAt<'_>, text: &str, href: &str) {
        let LinkAt {
            a,
            rank,
            named,
            own_id,
        } = at;
        self.slug += slug_match(text, href);
        self.records += 1;
        self.chars += text.chars().count();
        self.heading += usize::from(named || in_or_has_heading(doc, r, a));
        self.header += usize::from(in_header_block(doc, r, a));
        self.demoted += usize::from(
            is_download(href)
                || in_closed_details(doc, r, a)
                || is_summary_link(doc, a)
                || is_skipped_twin(doc, r, a)
                || is_muted(doc, a),
        );
        self.rank += rank;
        self.own +=
            usize::from(own_id.is_some_and(|e| own_ids(e).any(|id| links_own_id(id, href))));
        self.links.push(a);
    }
}

/// The links of path `st` in a list of their record's authors
/// ([`in_author_list`]), counted only while the path is not demoted
/// already.
fn authored(doc: &Document, records: &[Record], st: &PathStats) -> usize {
    if st.demoted * 2 > st.records {
        return 0;
    }
    st.links
        .iter()
        .filter(|&&a| {
            let i = records.partition_point(|r| r.start <= a);
            i.checked_sub(1)
                .is_some_and(|i| in_author_list(doc, &records[i], a))
        })
        .count()
}

/// Class-name parts of a list of a record's authors (`list-authors`,
/// `c-article-authors`).
const AUTHORS_WORDS: &[&str] = &["authors", "contributors"];

/// True when link `a` is one name in a list of record `r`'s authors: an
/// element between it and the record's own is classed as such a list
/// ([`AUTHORS_WORDS`]), or is a byline
/// ([`crate::extract::byline::is_author`]) linking another address too
/// (a poster's avatar and name lead to one page). A
/// preprint's first author, a new name in every entry, is no headline
/// beside the entry's identifier link; a forum post's one poster link
/// stays what it was (the sign of a headless group, see `of_authors`).
pub(super) fn in_author_list(doc: &Document, r: &Record, a: NodeId) -> bool {
    doc.ancestors(a)
        .take_while(|&x| x > r.start)
        .filter_map(|x| Some((x, doc.element(x)?)))
        .any(|(x, e)| {
            has_part(
                e.attr("class").unwrap_or("").split_ascii_whitespace(),
                b"-_",
                AUTHORS_WORDS,
            ) || (crate::extract::byline::is_author(e)
                && (x + 1..doc.node(x).end)
                    .any(|j| doc.is_tag(j, "a") && link_href(doc, j) != link_href(doc, a)))
        })
}

/// The identifiers a record's first element carries: its `id`, and a
/// `data-id` or `data-…-id` attribute (a photo tile's
/// `data-photo-id="53397661455"`, which its title links).
fn own_ids(el: &crate::extract::dom::Element) -> impl Iterator<Item = &str> {
    el.attrs
        .iter()
        .filter(|(k, _)| {
            *k == "id" || *k == "data-id" || (k.starts_with("data-") && k.ends_with("-id"))
        })
        .map(|(_, v)| v.as_str())
}

/// Shortest identifier [`links_own_id`] looks for.
const MIN_OWN_ID: usize = 3;

/// True when `href` holds the identifier in `id`, a record's first
/// element's: the part of it with a digit (`HB1204` of `tr#row-HB1204`,
/// whose bill number links `/bills/2026R/HB1204`). A committee its last
/// action names, an author or a category lead elsewhere.
fn links_own_id(id: &str, href: &str) -> bool {
    id.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| t.len() >= MIN_OWN_ID && t.bytes().any(|b| b.is_ascii_digit()))
        .any(|t| href.contains(t))
}

/// A record's link as a title path sees it.
#[derive(Clone, Copy)]
pub(super) struct LinkAt<'d> {
    a: NodeId,
    /// Its rank among the record's usable links.
    rank: usize,
    /// The record's heading says what it says ([`names_link`]).
    named: bool,
    /// The record's first element, whose identifiers ([`own_ids`]) its
    /// own link may hold ([`links_own_id`]).
    own_id: Option<&'d crate::extract::dom::Element>,
}

/// True when a record's heading (`heading`, its text) says what a link
/// outside it says (`text`): a release's heading kept for screen readers
/// ("v4.2.0", `h2.sr-only`) names the tag link shown in large type, which
/// is its headline though no heading holds it.
pub(super) fn names_link(heading: &str, text: &str) -> bool {
    let (h, t) = (heading.trim(), text.trim());
    !t.is_empty() && h.eq_ignore_ascii_case(t)
}

/// The title paths of a group, numbered as they are met: one string per
/// distinct path. Paths are made of the page's class names, so std's keyed
/// hash (not Fx) keeps a page from choosing colliding ones.
#[derive(Default)]
pub(super) struct TitlePaths {
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
        let own_id = doc.element(r.start);
        // The record's first heading, when it holds no link (one it holds
        // is in a heading anyway), and its text once read.
        let mut met_heading = false;
        let mut unlinked: Option<NodeId> = None;
        let mut heading_text: Option<String> = None;
        for i in r.start..r.end {
            let Some(el) = doc.element(i) else { continue };
            if !met_heading && is_heading(&el.name) {
                met_heading = true;
                unlinked = (i + 1..doc.node(i).end)
                    .all(|j| !doc.is_tag(j, "a"))
                    .then_some(i);
            }
            if el.name != "a" || el.attr("href").is_none() {
                continue;
            }
            let text = link_title_text(doc, i);
            if permalink.is_none() && names_permalink(doc, r, i, &text, dates) {
                permalink = Some(i);
            }
            // A link in a sentence (a comment citing a page, its
            // signature) is a reference, never the record's title.
            if !text.is_empty()
                && !is_action_text(&text)
                && !doc.in_running_text(i, text.len())
                && !is_number_twin(doc, r, i, &text, dates)
            {
                path_in_record(doc, r, i, &mut steps, &mut key);
                let id = paths.id(&key);
                // The first link at a path is the record's.
                if !seen_here.contains(&id) {
                    let href = el.attr("href").unwrap_or("");
                    let named = unlinked.is_some_and(|h| {
                        let heading = heading_text.get_or_insert_with(|| doc.text(h));
                        names_link(heading, &text)
                    });
                    let at = LinkAt {
                        a: i,
                        rank: seen_here.len(),
                        named,
                        own_id,
                    };
                    paths.stats[id].add(doc, r, at, &text, href);
                    seen_here.push(id);
                }
            }
            link_texts.insert(i, text);
        }
        permalinks.push(permalink);
    }
    let k = records.len().max(1) as f64;
    let present = |st: &&PathStats| st.records as f64 >= TITLE_PATH_PRESENCE * k && st.chars > 0;
    let in_heading = |st: &PathStats| st.heading * 2 >= st.records;
    let own = |st: &PathStats| st.own * 2 > st.records;
    // Where a heading's links are the records' own too, a link to the
    // same address outside the heading (a teaser's excerpt, all of it a
    // link) is no heading's equal.
    let headed_own = paths
        .stats
        .iter()
        .filter(present)
        .any(|st| in_heading(st) && own(st));
    let best = paths
        .stats
        .iter()
        .filter(present)
        .filter(|st| {
            records.len() < 3
                || says_something_each(doc, st, &link_texts, || {
                    !change_links(doc, &paths.stats, st, &link_texts, records).is_empty()
                })
        })
        .map(|st| {
            let n = st.records as f64;
            let mean = st.chars as f64 / n;
            // Length counts, but with diminishing returns: an excerpt link is
            // longer than the headline link, and must not win on length alone.
            // A link whose address the site ties to the record's own id
            // counts as a heading's does, unless a heading's links are the
            // records' own as well (`headed_own`).
            let heading = if in_heading(st) || (own(st) && !headed_own) {
                3.0
            } else if st.header * 2 >= st.records {
                2.0
            } else {
                1.0
            };
            let demoted = if (st.demoted + authored(doc, records, st)) * 2 > st.records {
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
    discussion_permalinks(doc, records, &link_texts, &mut permalinks);
    let path = best.map(|st| st.path.clone());
    // A path of author links ("Launchpad Janitor (janitor)", marked
    // `itemprop=creator`) names posters, however long: no headline.
    // So does a path of links to the posters' own pages, which the
    // records' permalinks extend (`/@tides` beside `/@tides/1177…`).
    let of_authors = |st: &PathStats| {
        let authors = st
            .links
            .iter()
            .filter(|&&l| {
                doc.element(l)
                    .is_some_and(crate::extract::byline::is_author)
                    || permalink_of(records, &permalinks, l)
                        .is_some_and(|p| links_poster_of(doc, l, p))
            })
            .count();
        authors * 2 > st.links.len()
    };
    let mean_title_chars = best
        .filter(|st| !of_authors(st))
        .map_or(0.0, |st| st.chars as f64 / st.records.max(1) as f64);
    // No title path but the records' permalinks (a live blog's timestamp
    // links), or none at all: without a headless reading, a record
    // without a heading would be titled by its time.
    let permalink_set: rustc_hash::FxHashSet<NodeId> =
        permalinks.iter().flatten().copied().collect();
    let titled_by_permalinks = best.is_none_or(|st| {
        let own = st.links.iter().filter(|l| permalink_set.contains(l));
        own.count() * 2 > st.links.len()
    });
    let (headless, subjects) = headless_group(
        doc,
        records,
        &permalinks,
        mean_title_chars,
        titled_by_permalinks,
    );
    let title_links: rustc_hash::FxHashSet<NodeId> = best
        .map(|st| {
            let variants = variant_paths(&paths.stats, st, records);
            st.links.iter().chain(variants).copied().collect()
        })
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
    let activity = if headless {
        activity_lines(doc, records, &permalinks)
    } else {
        Default::default()
    };
    let label_links = match best {
        None if !headless => label_links(records.len(), &link_texts),
        _ => Default::default(),
    };
    let in_headings = best.is_some_and(|st| st.heading * 2 > st.records);
    TitlePlan {
        subjects,
        path,
        in_headings,
        title_level: best
            .filter(|_| in_headings && !headless)
            .and_then(|st| title_level(doc, &st.links)),
        shared_images: shared_images(doc, records),
        title_links,
        link_texts,
        headless,
        permalinks: permalink_set,
        keep_fragments: fragments_identify(doc, &chosen),
        change_links,
        activity,
        label_links,
    }
}

/// The links of the paths that are the title path in other classes: the
/// same tags down to a link of the same class, through elements whose
/// classes say a state of the record (a forum's `th.new` for a thread
/// with unread replies, `th.common` for the others), in records that have
/// no link at the title path. A path that differs so but shares records
/// with the title path is another part of them (an excerpt's link).
fn variant_paths<'s>(
    stats: &'s [PathStats],
    title: &'s PathStats,
    records: &'s [Record],
) -> impl Iterator<Item = &'s NodeId> {
    let record_of = move |a: NodeId| records.partition_point(|r| r.end <= a);
    let titled: rustc_hash::FxHashSet<usize> = title.links.iter().map(|&a| record_of(a)).collect();
    let loose = tags_and_link_class(&title.path);
    stats
        .iter()
        .filter(move |st| st.path != title.path && tags_and_link_class(&st.path).eq(loose.clone()))
        .filter(move |st| !st.links.iter().any(|&a| titled.contains(&record_of(a))))
        .flat_map(|st| st.links.iter())
}

/// The steps of a title path (`tr./th.new/a.s`) with only the link's
/// class kept: `tr`, `th`, `a.s`.
fn tags_and_link_class(path: &str) -> impl Iterator<Item = &str> + Clone {
    let last = path.rsplit('/').next().unwrap_or("");
    let inner = path.rsplit_once('/').map_or("", |(inner, _)| inner);
    inner
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|step| step.split('.').next().unwrap_or(""))
        .chain(std::iter::once(last))
}

/// The permalink of the record holding link `l` (records are in page
/// order and do not overlap).
fn permalink_of(records: &[Record], permalinks: &[Option<NodeId>], l: NodeId) -> Option<NodeId> {
    let i = records.partition_point(|r| r.start <= l).checked_sub(1)?;
    (l < records[i].end).then_some(permalinks[i]).flatten()
}

/// Most path segments of a poster's page (`/@tides`, `/user/ana`).
const MAX_POSTER_SEGMENTS: usize = 2;

/// True when link `a` leads to the page its record's permalink `p` lies
/// under (`/@tides` of `/@tides/117708415565824107`), a short path of at
/// most [`MAX_POSTER_SEGMENTS`] outside any heading: the poster's page,
/// as a status's display name links it, never the status.
pub(super) fn links_poster_of(doc: &Document, a: NodeId, p: NodeId) -> bool {
    let (Some(own), Some(permalink)) = (link_href(doc, a), link_href(doc, p)) else {
        return false;
    };
    let (own, permalink) = (href_path(own).trim_end_matches('/'), href_path(permalink));
    let segments = own.split('/').filter(|s| !s.is_empty()).count();
    (1..=MAX_POSTER_SEGMENTS).contains(&segments)
        && permalink
            .strip_prefix(own)
            .is_some_and(|rest| rest.len() > 1 && rest.starts_with('/'))
        && !doc.ancestors(a).any(|x| doc.tag(x).is_some_and(is_heading))
}

/// The path of `href`, without its scheme, host, query and fragment.
fn href_path(href: &str) -> &str {
    let href = href.split(['?', '#']).next().unwrap_or("");
    match href.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("", |i| &rest[i..]),
        None if href.starts_with("//") => href[2..].find('/').map_or("", |i| &href[2 + i..]),
        None => href,
    }
}

/// Fewest records that repeat a link's text for it to be a label
/// ([`label_links`]), the least share of the group they are, and the
/// most characters of a label (a thread's repeated subject is no label).
const MIN_LABEL_RECORDS: usize = 3;
const LABEL_SHARE: f64 = 0.25;
const MAX_LABEL_CHARS: usize = 24;

/// The links of a group without a title path whose text is repeated in
/// [`MIN_LABEL_RECORDS`] or more links, and in a [`LABEL_SHARE`] of the
/// records or more, a short text of at most [`MAX_LABEL_CHARS`]: a filings table's "Documents" and "Interactive Data"
/// buttons and its file number, the same in every row. They label their
/// records; the title is the record's own text (see
/// `titles::labelled_title`). Each is mapped to whether more links than
/// half the records repeat its text.
fn label_links(
    records: usize,
    link_texts: &rustc_hash::FxHashMap<NodeId, String>,
) -> rustc_hash::FxHashMap<NodeId, bool> {
    let floor = MIN_LABEL_RECORDS.max((LABEL_SHARE * records as f64).ceil() as usize);
    let mut counts: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for text in link_texts.values() {
        if text.chars().count() <= MAX_LABEL_CHARS {
            *counts.entry(text.as_str()).or_insert(0) += 1;
        }
    }
    link_texts
        .iter()
        .filter_map(|(&a, t)| {
            let n = *counts.get(t.as_str())?;
            (n >= floor).then_some((a, n * 2 > records))
        })
        .collect()
}

/// True when link `a` (text `text`) says no word and another link of
/// `record` at the same path goes to the same address and does: an
/// index's number column ("8" beside "Style Guide for Code", both
/// `td/p/a.pep` to `/mep-0008/`) numbers what the worded link names, and
/// the path alone cannot tell them apart. A date is no word ("#1843"
/// beside its build time stays the build's name).
pub(super) fn is_number_twin(
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
pub(super) fn change_links(
    doc: &Document,
    stats: &[PathStats],
    title: &PathStats,
    link_texts: &rustc_hash::FxHashMap<NodeId, String>,
    records: &[Record],
) -> rustc_hash::FxHashSet<NodeId> {
    let href = |a: &NodeId| link_href(doc, *a).unwrap_or("");
    if hrefs_differ(doc, &title.links) {
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
    let enough =
        |links: &[NodeId]| links.len() as f64 >= TITLE_PATH_PRESENCE * records.len() as f64;
    stats
        .iter()
        // One word's links are some of the path's: too few links, too few words.
        .filter(|st| st.path != title.path && enough(&st.links))
        .map(|st| (st, one_word_links(&st.links, &text)))
        .filter(|(_, links)| enough(links))
        .filter(|(_, links)| hrefs_differ(doc, links) && of_titles(links))
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
pub(super) fn names_page(change: &str, title: &str) -> bool {
    let path = title.split(['?', '#']).next().unwrap_or("");
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    last.len() >= 3 && change.contains(last)
}

/// Those of `links` that say the word most of them say, or all of them
/// when none is said twice.
pub(super) fn one_word_links<'t>(
    links: &[NodeId],
    text: &dyn Fn(&NodeId) -> &'t str,
) -> Vec<NodeId> {
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
/// Fewer distinct pages ([`TITLE_PATH_DISTINCT_CHANGED`]) do when each
/// record has its own link to a change of its page (`told_apart`,
/// [`change_links`]): a busy wiki's recent changes, 59 edits of 26
/// pages, each with its "diff".
pub(super) fn says_something_each(
    doc: &Document,
    st: &PathStats,
    link_texts: &rustc_hash::FxHashMap<NodeId, String>,
    told_apart: impl FnOnce() -> bool,
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
    let most = longest_run(&texts);
    texts.dedup();
    let distinct = texts.len() as f64;
    if distinct >= TITLE_PATH_DISTINCT * n {
        return true;
    }
    if names_own_pages(doc, st, texts.len(), most) {
        return true;
    }
    if distinct < TITLE_PATH_DISTINCT_CHANGED * n {
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
    pairs.len() == texts.len() && (distinct >= TITLE_PATH_DISTINCT_PAGES * n || told_apart())
}

/// Fewest different texts of a title path whose links each go to a page
/// of their own ([`names_own_pages`]).
const MIN_OWN_PAGE_TEXTS: usize = 3;

/// True when every link at path `st` goes to an address of its own and
/// they say several things (`distinct` texts), none in half the records
/// (`most`, the most links saying one text): a council's meetings, eleven
/// of them "Planning Committee" and nine "Full Council", each linked to
/// its meeting's page. Labels say one or two things ("Agenda (PDF)" in
/// every row), and an author's or a category's name repeats with its
/// address.
fn names_own_pages(doc: &Document, st: &PathStats, distinct: usize, most: usize) -> bool {
    distinct >= MIN_OWN_PAGE_TEXTS && most * 2 <= st.links.len() && hrefs_differ(doc, &st.links)
}

/// The length of the longest run of equal items in sorted `items`.
fn longest_run<T: PartialEq>(items: &[T]) -> usize {
    items
        .chunk_by(|a, b| a == b)
        .map(<[T]>::len)
        .max()
        .unwrap_or(0)
}

/// True when each of `links` goes to an address no other of them does.
fn hrefs_differ(doc: &Document, links: &[NodeId]) -> bool {
    let mut hrefs: Vec<&str> = links
        .iter()
        .map(|&a| link_href(doc, a).unwrap_or(""))
        .collect();
    hrefs.sort_unstable();
    hrefs.dedup();
    hrefs.len() == links.len()
}

/// Nouns of a count link that leads to the record's discussion ("14
/// comments", "1 reply"), lower case.
const DISCUSSION_NOUNS: &[&str] = &[
    "comment",
    "comments",
    "reply",
    "replies",
    "response",
    "responses",
    "commentaire",
    "commentaires",
    "kommentar",
    "kommentare",
    "comentario",
    "comentarios",
];

/// Posts linked only by their discussion (a community weblog's "posted
/// by … at 11:47 PM - <a>14 comments</a>", no headline, no timestamp
/// link): where most records without a permalink have a count link to
/// their comments ([`DISCUSSION_NOUNS`]), each to a page of its own,
/// that link is the record's permalink.
pub(super) fn discussion_permalinks(
    doc: &Document,
    records: &[Record],
    link_texts: &rustc_hash::FxHashMap<NodeId, String>,
    permalinks: &mut [Option<NodeId>],
) {
    let discussion = |a: &NodeId| {
        let text = link_texts.get(a).map(|t| t.trim().to_lowercase());
        text.is_some_and(|t| {
            is_count_text(&t)
                && t.rsplit(' ')
                    .next()
                    .is_some_and(|n| DISCUSSION_NOUNS.contains(&n))
        })
    };
    let found: Vec<(usize, NodeId)> = records
        .iter()
        .enumerate()
        .filter(|(k, _)| permalinks[*k].is_none())
        .filter_map(|(k, r)| Some((k, (r.start..r.end).find(|i| discussion(i))?)))
        .collect();
    let links: Vec<NodeId> = found.iter().map(|&(_, a)| a).collect();
    let apart = hrefs_differ(doc, &links);
    set_where_most(found, records.len(), apart, permalinks);
}

/// Makes each `(record, link)` of `found` that record's permalink when
/// `fits` and at least two records, and half of all of them, have one.
fn set_where_most(
    found: Vec<(usize, NodeId)>,
    records: usize,
    fits: bool,
    permalinks: &mut [Option<NodeId>],
) {
    if !fits || found.len() < 2 || found.len() * 2 < records {
        return;
    }
    for (k, a) in found {
        permalinks[k] = Some(a);
    }
}

/// Forum posts numbered in the thread (`#<a href="showpost.php?p=…">1</a>`,
/// `<a href="/posts/884190/">#1</a>`): where most records without a
/// permalink have a link whose text is a number, and those numbers count
/// up from record to record, each is its record's permalink. A release's
/// "#1412" pull-request links do not count up, so they stay references.
pub(super) fn post_number_permalinks(
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
    let found = found.into_iter().map(|(k, a, _)| (k, a)).collect();
    set_where_most(found, records.len(), counts_up, permalinks);
}
