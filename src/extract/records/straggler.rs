//! Stragglers: the list's own records that stand apart from it.
//!
//! Blog themes often show the newest post in full above a "Last posts"
//! list, or one more post under a "More" heading after the teasers. Such a
//! record has no twin, so the miner cannot see it, yet the site's own feed
//! carries it. A straggler is a heading near the winning list — under the
//! parent or grandparent of the list's container (of the element holding
//! all its sections, for a list across sections), never `body` — that carries one
//! link whose target has the shape of the records' own links (same host,
//! same directory, same depth; or, when they share no directory, the same
//! host and templated file name, `article_<uuid>.html` on a newspaper's
//! desks) and is none of them. A link to the host the
//! page names as its own (its canonical link's) is on the same host as a
//! link without one: a lead post linked in full above relative teasers.
//!
//! Where no heading qualifies, a twin of the records above the list is a
//! straggler: an element of the tag and class most records start at (a
//! live blog's pinned post, whose links, like its feed's, are in-page
//! anchors that no link shape tells apart).
//!
//! Above the list a front's lead block may hold more: a lead story and a
//! row of secondary cards over a news site's "Latest" river, or a
//! magazine's featured section beside the block that holds its river
//! (looked for one level further up), up to [`MAX_LEAD_BLOCK`] when each
//! of its stories and most of the list's records are dated. Further up
//! still, a featured story in a block of its own right before the list's
//! section joins it when it is dated, as most records are ([`featured`]).
//!
//! Invariants: at most [`MAX_STRAGGLERS`] (or a dated lead block of at
//! most [`MAX_LEAD_BLOCK`], half the list, all above it), never more than
//! the list's own records, and none at all when more headings (or twins)
//! qualify (those are another list, not stragglers); never inside `nav`, `aside`, the page's `header`
//! or `footer` (a post's own header is not chrome) or inside a record,
//! never a heading over a list of headlines (a box of other stories
//! between the teasers, see `heads_headlines`); each is a whole subtree (the heading, or the
//! `article` it heads), in page order. Cost: one pass over the scope's
//! nodes plus a walk up from each heading; each heading is checked against
//! the records by binary search and against their links by hash, and the
//! pass stops once more headings qualify than stragglers may be (a page of
//! 6,000 teasers, 4,000 of them past the record cap, made the checks
//! quadratic: 270 of the page's 350 million instructions of detection).
//! A featured story costs one pass over the first block before the list
//! that holds a heading, and the list's links read once.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use crate::extract::dom::{Document, NodeId};

use super::score::is_dated;
use super::short::{heading_level, in_chrome, is_link};
use super::{Record, RecordGroup};

/// More headings of the records' shape than this are a list of their own.
pub const MAX_STRAGGLERS: usize = 2;

/// Headings of the records' shape above the list that may still be its
/// own (a front's lead story and a row of secondary cards above its
/// river), never more than half the list's records; any past the list
/// count against [`MAX_STRAGGLERS`].
pub const MAX_LEAD_BLOCK: usize = 6;

/// How many levels above the list's container the scope reaches.
const SCOPE_LEVELS: usize = 2;

/// How many levels above the list's container a lead block before it is
/// looked for: a magazine's featured section beside the block that holds
/// its "Latest" river and the sidebar.
const LEAD_SCOPE_LEVELS: usize = 3;

/// Headings `h1`..`h4` can head a straggler (smaller ones are captions).
const MAX_HEADING_LEVEL: usize = 3;

/// The winner's stragglers (empty for threads): headings of the records'
/// link shape ([`headed`]), or else twins of the records above them
/// ([`twins`]).
pub(super) fn find(doc: &Document, group: &RecordGroup) -> Vec<Record> {
    let (Some(container), false) = (group.container, group.thread) else {
        return Vec::new();
    };
    let extent = list_extent(doc, &group.records, container);
    let scope = scope_of(doc, extent, SCOPE_LEVELS);
    let shape = records_shape(doc, &group.records).or_else(|| form_shape(doc, &group.records));
    // `None` when more headings qualify than may be stragglers.
    let headed = match &shape {
        Some(shape) => {
            let lead = scope_of(doc, extent, LEAD_SCOPE_LEVELS);
            headed(doc, group, shape, container, (lead, scope, extent))
        }
        None => Some(Vec::new()),
    };
    let another_list = match headed {
        Some(found) if !found.is_empty() => return found,
        Some(_) => false,
        None => true,
    };
    let twins = twins(doc, &group.records, scope, extent);
    match shape {
        // Headings of the records' shape around the list that are another
        // list leave no featured story either.
        Some(shape) if twins.is_empty() && !another_list => {
            featured(doc, &group.records, &shape, extent)
        }
        _ => twins,
    }
}

/// How many levels above the list's extent a featured block before it is
/// looked for ([`featured`]): a site builder's list sits in six wrappers
/// inside its section.
const FEATURED_LEVELS: usize = 8;

/// A featured story in a block of its own before the list: the newest
/// post shown large in the section before the list's section (a news
/// section's top story beside a market-data box, a company blog's
/// "Featured" hero over its grid), too far up for the lead scope; or a
/// hero block of a few such stories (a news theme's three newest over
/// its category's river), each dated.
/// Walking up from the list's `extent` (below `body`), the element right
/// before each ancestor is looked at; the first that holds a linked
/// heading decides (a heading that links nothing, such as the list's
/// caption "Latest news" or the page's title, is passed over; a
/// Drupal view's featured story sits before the view holding that
/// caption and the list). Its headings whose one link has the records'
/// `shape` and is none of theirs are its stories: one, or a few, at most
/// [`MAX_LEAD_BLOCK`] and half the list; each must be dated, as most of
/// the list's records are. Chrome before the list ends the search.
fn featured(
    doc: &Document,
    records: &[Record],
    shape: &ShapePattern,
    extent: NodeId,
) -> Vec<Record> {
    if records.len() < 2 {
        return Vec::new();
    }
    let before = std::iter::once(extent)
        .chain(doc.ancestors(extent))
        .take(FEATURED_LEVELS)
        .take_while(|&a| !doc.is_tag(a, "body") && !doc.is_tag(a, "html"))
        .filter_map(|a| doc.previous_element(a));
    for block in before {
        if in_chrome(doc, block) {
            return Vec::new();
        }
        // Headings that link nothing (the list's caption "Latest news",
        // the page's title) are passed over.
        let headings: Vec<NodeId> = (block..doc.node(block).end)
            .filter(|&h| heading_level(doc, h).is_some_and(|l| l <= MAX_HEADING_LEVEL))
            .filter(|&h| sole_link(doc, h).is_some())
            .collect();
        if !headings.is_empty() {
            // The records' dates are read only once a story is found.
            return featured_stories(doc, records, shape, (block, extent), &headings)
                .filter(|stories| dated_lead(doc, stories, records))
                .unwrap_or_default();
        }
    }
    Vec::new()
}

/// The stories among a featured `block`'s `headings` ([`featured`]): one,
/// or a hero block of a few (at most [`MAX_LEAD_BLOCK`], half the list);
/// `None` when none or more.
fn featured_stories(
    doc: &Document,
    records: &[Record],
    shape: &ShapePattern,
    (block, list): (NodeId, NodeId),
    headings: &[NodeId],
) -> Option<Vec<Record>> {
    let targets = Targets::new(doc, records, shape);
    let limit = MAX_LEAD_BLOCK.min(records.len() / 2).max(1);
    let scope = doc.node(block).parent?;
    let mut stories = Vec::new();
    for &h in headings {
        let Some((link, href)) = sole_link(doc, h) else {
            continue;
        };
        let top = if link < h { link } else { h };
        if !targets.another_of_shape(href) || heads_headlines(doc, top) {
            continue;
        }
        if stories.len() == limit {
            return None;
        }
        stories.push(record_for(doc, top, scope, list, shape, href));
    }
    (!stories.is_empty()).then_some(stories)
}

/// What a straggler's link is checked against: the records' `shape`, and
/// their own pages, read once a link has their shape; the page's own
/// host, read once a link has another.
struct Targets<'d, 's> {
    doc: &'d Document,
    records: &'s [Record],
    shape: &'s ShapePattern,
    known: OnceCell<HashSet<&'d str>>,
    own: OnceCell<Option<String>>,
}

impl<'d, 's> Targets<'d, 's> {
    fn new(doc: &'d Document, records: &'s [Record], shape: &'s ShapePattern) -> Self {
        Targets {
            doc,
            records,
            shape,
            known: OnceCell::new(),
            own: OnceCell::new(),
        }
    }

    /// True when `href` has the records' shape (also as seen from the
    /// page's own host) and is none of their pages.
    fn another_of_shape(&self, href: &str) -> bool {
        let admitted = |s: &Shape| {
            self.shape.admits_link(s, href)
                || self
                    .own
                    .get_or_init(|| own_host(self.doc))
                    .as_deref()
                    .is_some_and(|o| self.shape.admits_link(&s.seen_from(o), href))
        };
        let known = || {
            self.known.get_or_init(|| {
                self.records
                    .iter()
                    .flat_map(|r| record_hrefs(self.doc, r))
                    .map(|href| path_of(without_host(href)))
                    .collect()
            })
        };
        shape_of(href).is_some_and(|s| admitted(&s))
            && !known().contains(&path_of(without_host(href)))
    }
}

/// Headings in `scope` (around the list's `extent`), or before it in the
/// wider `lead` scope, whose one link has the records' `shape` and is
/// none of theirs (see the module header); `None` when more qualify
/// than may be stragglers (another list).
fn headed(
    doc: &Document,
    group: &RecordGroup,
    shape: &ShapePattern,
    container: NodeId,
    (lead, scope, extent): (NodeId, NodeId, NodeId),
) -> Option<Vec<Record>> {
    let targets = Targets::new(doc, &group.records, shape);
    let limit = MAX_STRAGGLERS.min(group.records.len());
    let lead_limit = MAX_LEAD_BLOCK.min(group.records.len() / 2).max(limit);
    let mut found = Vec::new();
    for h in (lead + 1)..doc.node(scope).end {
        if heading_level(doc, h).is_none_or(|l| l > MAX_HEADING_LEVEL)
            || inside_records(&group.records, h)
            || inside_records(&found, h)
            || in_chrome(doc, h)
        {
            continue;
        }
        let Some((link, href)) = sole_link(doc, h) else {
            continue;
        };
        let top = if link < h { link } else { h };
        if targets.another_of_shape(href)
            && !is_caption(doc, top, container)
            && !heads_headlines(doc, top)
        {
            // Past the list, more than the stragglers allowed are another
            // list; above it, a front's lead block may hold a few more.
            if h >= extent && found.len() >= limit {
                return lead_block_only(doc, found, &group.records, extent);
            }
            if found.len() >= lead_limit {
                return None;
            }
            let within = if h < scope { lead } else { scope };
            found.push(record_for(doc, top, within, extent, shape, href));
        }
    }
    if found.len() > limit && !dated_lead(doc, &found, &group.records) {
        return None;
    }
    Some(found)
}

/// The lead block above the list's `extent` among `found`, when another
/// list follows the list (a sidebar's "most read" of the same stories'
/// shape): a lead block of more than [`MAX_STRAGGLERS`] that is news like
/// the list ([`dated_lead`]) stands on its own; else `None`, as for
/// another list.
fn lead_block_only(
    doc: &Document,
    mut found: Vec<Record>,
    records: &[Record],
    extent: NodeId,
) -> Option<Vec<Record>> {
    let above = found.iter().take_while(|r| r.start < extent).count();
    if above <= MAX_STRAGGLERS.min(records.len()) || !dated_lead(doc, &found[..above], records) {
        return None;
    }
    found.truncate(above);
    Some(found)
}

/// True when a lead block of more than [`MAX_STRAGGLERS`] is news like
/// the list: most of the list's records are dated, and each of its
/// stories is dated or is one of the list's own cards ([`is_kin`]: a news
/// site's top block of one dated lead and three small cards with neither
/// date nor lede, `article.item-news.item-news-common` as the river's
/// are). A carousel of picks above a grid of undated projects ("Projects
/// We Love") is another list.
fn dated_lead(doc: &Document, lead: &[Record], records: &[Record]) -> bool {
    let dated = |r: &Record| is_dated(doc, r);
    if records.iter().filter(|r| dated(r)).count() * 2 <= records.len() {
        return false;
    }
    let kind = OnceCell::new();
    lead.iter().all(|r| {
        dated(r)
            || kind
                .get_or_init(|| common_kind(doc, records))
                .is_some_and(|k| is_kin(doc, r.start, k))
    })
}

/// True when element `id` has the tag of `kind` and a class whose every
/// token is one of `kind`'s: the list's own card without its modifiers
/// (`article.item-news.item-news-common` beside the river's
/// `article.item-news.item-news-common.thumb-left`).
fn is_kin(doc: &Document, id: NodeId, (tag, class): (&str, &str)) -> bool {
    let Some(e) = doc.element(id).filter(|e| e.name == tag) else {
        return false;
    };
    let mut tokens = e
        .attr("class")
        .unwrap_or("")
        .split_ascii_whitespace()
        .peekable();
    tokens.peek().is_some() && tokens.all(|t| class.split_ascii_whitespace().any(|c| c == t))
}

/// Twins of the records above the list: elements of the tag and class
/// that most records start at (a class is needed), before the list's
/// `extent` in its `scope`, outside chrome: a live blog's pinned post
/// (`div#pinned-post > article.block`) above its feed of
/// `article.block`s, whose links are all in-page anchors. At most
/// [`MAX_STRAGGLERS`], none when more (another list of the same cards).
fn twins(doc: &Document, records: &[Record], scope: NodeId, extent: NodeId) -> Vec<Record> {
    let Some((tag, class)) = common_kind(doc, records) else {
        return Vec::new();
    };
    let limit = MAX_STRAGGLERS.min(records.len());
    let mut found = Vec::new();
    let mut i = scope + 1;
    while i < extent {
        let end = doc.node(i).end;
        let twin =
            !doc.contains(i, extent) && is_of_kind(doc, i, (tag, class)) && !in_chrome(doc, i);
        if !twin {
            i += 1;
            continue;
        }
        found.push(Record { start: i, end });
        if found.len() > limit {
            return Vec::new();
        }
        i = end;
    }
    found
}

/// True when `r` starts at the tag and class most of `records` start at:
/// a twin ([`twins`]), whose title is read as theirs are.
pub(super) fn is_twin(doc: &Document, records: &[Record], r: &Record) -> bool {
    common_kind(doc, records).is_some_and(|kind| is_of_kind(doc, r.start, kind))
}

/// True when element `id` has the tag and (trimmed) class of `kind`.
fn is_of_kind(doc: &Document, id: NodeId, (tag, class): (&str, &str)) -> bool {
    doc.element(id)
        .is_some_and(|e| e.name == tag && e.attr("class").map(str::trim) == Some(class))
}

/// The tag and class (trimmed, not empty) that more than half of the
/// `records` start at.
fn common_kind<'d>(doc: &'d Document, records: &[Record]) -> Option<(&'d str, &'d str)> {
    let mut counts: HashMap<(&str, &str), usize> = HashMap::new();
    for r in records {
        let Some(e) = doc.element(r.start) else {
            continue;
        };
        let class = e.attr("class").unwrap_or("").trim();
        if !class.is_empty() {
            *counts.entry((e.name.as_str(), class)).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .find(|&(_, n)| 2 * n > records.len())
        .map(|(kind, _)| kind)
}

/// The element that holds the whole list: its container, or, for a list
/// across sections (a museum's "Now on", "Coming soon" and "Past" grids),
/// the nearest element that holds its first and last records.
fn list_extent(doc: &Document, records: &[Record], container: NodeId) -> NodeId {
    let (Some(first), Some(last)) = (records.first(), records.last()) else {
        return container;
    };
    if doc.contains(container, first.start) && doc.contains(container, last.start) {
        return container;
    }
    std::iter::once(first.start)
        .chain(doc.ancestors(first.start))
        .find(|&a| doc.contains(a, last.start))
        .unwrap_or(container)
}

/// The container's ancestor `levels` up (or the highest below `body`),
/// never `body` or `html`.
fn scope_of(doc: &Document, container: NodeId, levels: usize) -> NodeId {
    let mut scope = container;
    for p in doc.ancestors(container).take(levels) {
        if doc.is_tag(p, "body") || doc.is_tag(p, "html") {
            break;
        }
        scope = p;
    }
    scope
}

/// True when `id` is inside one of the records (disjoint, in page order).
fn inside_records(records: &[Record], id: NodeId) -> bool {
    let at = records.partition_point(|r| r.end <= id);
    records.get(at).is_some_and(|r| id >= r.start)
}

/// The one link a heading holds (or sits in, as in `a > h2`), and its
/// href; links to the same page beside it count as that one.
fn sole_link(doc: &Document, h: NodeId) -> Option<(NodeId, &str)> {
    fn page(href: &str) -> &str {
        href.split('#').next().unwrap_or(href)
    }
    let href = |a: NodeId| doc.element(a).and_then(|e| e.attr("href"));
    let mut inner = (h..doc.node(h).end).filter(|&i| is_link(doc, i));
    let Some(first) = inner.next() else {
        let link = doc.ancestors(h).take(2).find(|&a| is_link(doc, a))?;
        return Some((link, href(link)?));
    };
    let own = href(first)?;
    // A comment count beside the headline links the same page
    // (`…-4871122.html#box_comment`): still one link.
    let same = |a: NodeId| href(a).is_some_and(|h| page(h) == page(own));
    inner.all(same).then_some((first, own))
}

/// Levels above a heading its list's header may wrap it in.
const CAPTION_LEVELS: usize = 2;

/// Text bytes of the links and buttons a caption's header may hold beside
/// the heading ("See All").
const CAPTION_EXTRA_TEXT: usize = 40;

/// The list's own caption: the element right before the container (or
/// before the wrapper that holds it), such as `<h2><a>Recent posts</a></h2>`,
/// or the header block wrapping it that holds nothing else but a few
/// links or buttons (a podcast page's `div.header > div > h2 > a`
/// "Episodes" beside "See All", then the episodes' `ol`). A lead post
/// above the list holds its own words.
fn is_caption(doc: &Document, top: NodeId, container: NodeId) -> bool {
    std::iter::once(top)
        .chain(doc.ancestors(top).take(CAPTION_LEVELS))
        .take_while(|&a| !doc.contains(a, container))
        .take_while(|&a| {
            a == top
                || doc
                    .controls_beside(a, top)
                    .is_some_and(|bytes| bytes <= CAPTION_EXTRA_TEXT)
        })
        // A header is the heading and its controls ("See All"); a block
        // holding the heading alone is a featured card's.
        .filter(|&a| a == top || doc.controls_beside(a, top).is_some_and(|bytes| bytes > 0))
        .any(|a| {
            next_element(doc, a).is_some_and(|n| container >= n && container < doc.node(n).end)
        })
}

/// Fewest headline links in the list a heading stands over for it to be
/// that list's caption ([`heads_headlines`]).
const MIN_BOX_HEADLINES: usize = 3;

/// Fewest characters of a headline link's text ([`heads_headlines`]): a
/// post's tags are shorter.
const MIN_BOX_HEADLINE_CHARS: usize = 20;

/// True when the element right after `top` is a list (`ul`, `ol`) of at
/// least [`MIN_BOX_HEADLINES`] headline links: `top` captions a box of
/// other stories placed among the records (a news section's "Tin nổi
/// bật" between its teasers), and is no straggling record.
fn heads_headlines(doc: &Document, top: NodeId) -> bool {
    let Some(next) = next_element(doc, top).filter(|&n| doc.is_tag(n, "ul") || doc.is_tag(n, "ol"))
    else {
        return false;
    };
    (next..doc.node(next).end)
        .filter(|&i| is_link(doc, i))
        .filter(|&i| doc.text(i).chars().count() >= MIN_BOX_HEADLINE_CHARS)
        .nth(MIN_BOX_HEADLINES - 1)
        .is_some()
}

/// The next element sibling of `id`.
fn next_element(doc: &Document, id: NodeId) -> Option<NodeId> {
    let parent_end = doc.node(doc.node(id).parent?).end;
    let mut next = doc.node(id).end;
    while next < parent_end {
        if doc.element(next).is_some() {
            return Some(next);
        }
        next = doc.node(next).end;
    }
    None
}

/// The heading (with the link that wraps it), or the card it heads: the
/// `article` holding it when that article holds nothing of the list, else
/// the largest element around it that holds no other heading (but its
/// subtitles), nothing of
/// the list and no link of the records' shape to another page (a lead
/// story's `div.hero` with its picture, standfirst and byline).
fn record_for(
    doc: &Document,
    h: NodeId,
    scope: NodeId,
    list: NodeId,
    shape: &ShapePattern,
    href: &str,
) -> Record {
    let holds_list = |a: NodeId| doc.contains(a, list);
    let above = || doc.ancestors(h).take_while(|&a| a != scope);
    // The straggler's own heading (inside its link, when the link wraps it).
    let level = (h..doc.node(h).end)
        .find_map(|i| heading_level(doc, i))
        .unwrap_or(0);
    let root = match above().find(|&a| doc.is_tag(a, "article")) {
        Some(article) if holds_list(article) => h,
        Some(article) => article,
        None => above()
            .take_while(|&a| !holds_list(a) && is_card_of(doc, a, shape, path_of(href), level))
            .last()
            .unwrap_or(h),
    };
    Record {
        start: root,
        end: doc.node(root).end,
    }
}

/// True when `a` holds one heading of `level` or above (a subtitle below
/// it is the card's) and every link in it of the records' `shape` points
/// to `path`.
fn is_card_of(doc: &Document, a: NodeId, shape: &ShapePattern, path: &str, level: usize) -> bool {
    let mut headings = 0;
    for i in a..doc.node(a).end {
        if heading_level(doc, i).is_some_and(|l| l <= level) {
            headings += 1;
            if headings > 1 {
                return false;
            }
        }
        let other = is_link(doc, i)
            && doc
                .element(i)
                .and_then(|e| e.attr("href"))
                .is_some_and(|href| {
                    path_of(href) != path
                        && shape_of(href).is_some_and(|s| shape.admits_link(&s, href))
                });
        if other {
            return false;
        }
    }
    true
}

/// The hrefs of a record's links, in document order.
pub(super) fn record_hrefs<'d>(doc: &'d Document, r: &Record) -> impl Iterator<Item = &'d str> {
    (r.start..r.end)
        .filter(move |&i| is_link(doc, i))
        .filter_map(move |i| doc.element(i)?.attr("href"))
}

/// The record's headline link: the first link inside a heading or around
/// one (a card's `a > h2`, after its author's link), else the first link.
pub(super) fn headline_href<'d>(doc: &'d Document, r: &Record) -> Option<&'d str> {
    let first = || (r.start..r.end).find(|&i| is_link(doc, i));
    doc.element(heading_link(doc, r).or_else(first)?)?
        .attr("href")
}

/// The record's first link inside a heading or around one.
pub(super) fn heading_link(doc: &Document, r: &Record) -> Option<NodeId> {
    (r.start..r.end).find(|&i| {
        is_link(doc, i)
            && (std::iter::once(i)
                .chain(doc.ancestors(i))
                .take_while(|&a| a >= r.start)
                .any(|a| heading_level(doc, a).is_some())
                || (i + 1..doc.node(i).end).any(|h| heading_level(doc, h).is_some()))
    })
}

/// Where a link points, as (host, directory, depth): `/blog/a-post/` →
/// ("", "/blog", 2), `/news/2024/03/a-post` → ("", "/news/#/#", 4).
/// Absolute URLs keep their host. A link with a query names its page by
/// the query, so the script is part of the shape (`viewtopic.php?t=1` is
/// not `viewforum.php?f=2`), unless its path ends in `/`: a story's
/// `/climate/2026/11/29/a-story/?itm_source=lead` is the story.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Shape {
    host: String,
    dir: String,
    depth: usize,
    script: Option<String>,
}

pub(super) fn shape_of(href: &str) -> Option<Shape> {
    let (host, full) = host_and_path(href);
    let path = path_of(full);
    // A path ending in `/` names its page itself: its query tracks.
    let query =
        full[path.len()..].starts_with('?') && full.len() > path.len() + 1 && !path.ends_with('/');
    let trimmed = path.trim_end_matches('/');
    let (dir, last) = trimmed.rsplit_once('/').unwrap_or(("", trimmed));
    // No page at all, or a listing's own index page.
    if last.is_empty() || last.starts_with("index.") {
        return None;
    }
    Some(Shape {
        host: host.to_ascii_lowercase(),
        dir: dir_shape(dir),
        depth: trimmed.matches('/').count(),
        script: query.then(|| last.to_string()),
    })
}

/// A directory with its number segments as `#`: a news site's permalinks
/// (`/climate/2024/03/12/a-story/`) differ by the day they were posted.
fn dir_shape(dir: &str) -> String {
    dir.split('/')
        .map(|seg| {
            if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
                "#"
            } else {
                seg
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// An href without its query and fragment.
pub(super) fn path_of(href: &str) -> &str {
    href.split(['?', '#']).next().unwrap_or(href)
}

/// `href` from its path on: `https://site.example/a-post/` → `/a-post/`.
fn without_host(href: &str) -> &str {
    match host_and_path(href) {
        (_, "") if href.contains("://") => "/",
        (_, path) => path,
    }
}

/// The host and the rest of `href` (trimmed): `("site.example", "/a/")`
/// for `https://site.example/a/`, `("", "/a/")` for `/a/`.
pub(super) fn host_and_path(href: &str) -> (&str, &str) {
    let href = href.trim();
    match href.split_once("://") {
        Some((_, rest)) => rest.split_at(rest.find('/').unwrap_or(rest.len())),
        None => ("", href),
    }
}

/// The host a page names as its own (lowercase): its canonical link's,
/// else its `og:url`'s, else its `<base href>`'s when absolute. Read
/// from the elements before `body`.
fn own_host(doc: &Document) -> Option<String> {
    let (mut canonical, mut og) = (None, None);
    for id in 0..doc.nodes.len() as NodeId {
        let Some(e) = doc.element(id) else { continue };
        match e.name.as_str() {
            "body" => break,
            "link" if canonical.is_none() && e.has_token("rel", "canonical") => {
                canonical = e.attr("href");
            }
            "meta" if og.is_none() && e.attr("property").is_some_and(|p| p.trim() == "og:url") => {
                og = e.attr("content");
            }
            _ => {}
        }
    }
    [canonical, og, doc.base_href.as_deref()]
        .into_iter()
        .flatten()
        .map(|url| host_and_path(url).0)
        .find(|host| !host.is_empty())
        .map(str::to_ascii_lowercase)
}

/// The templated file name (see [`file_form`]) most of `records`'
/// headline links share, if any: `article_#.html`.
pub(super) fn common_file_form(doc: &Document, records: &[Record]) -> Option<String> {
    let mut forms: Vec<String> = records
        .iter()
        .filter_map(|r| headline_href(doc, r))
        .map(file_form)
        .filter(|f| f.contains('#'))
        .collect();
    forms.sort_unstable();
    let run = forms.chunk_by(|a, b| a == b).max_by_key(|run| run.len())?;
    (run.len() * 2 > records.len()).then(|| run[0].clone())
}

/// A link's file name (its last path segment) with each run of hex
/// digits and dashes that holds a digit written `#`:
/// `/news/local/a-story/article_8f80f1e4-c45f-7c41.html` →
/// `article_#.html`, `/papers/p014/` → `p#`. A slug without digits is
/// its own form, so only templated names are ever shared.
pub(super) fn file_form(href: &str) -> String {
    let path = href.split(['?', '#']).next().unwrap_or("");
    let name = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    let mut out = String::with_capacity(name.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.bytes().any(|b| b.is_ascii_digit()) {
            out.push('#');
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in name.chars() {
        if c.is_ascii_hexdigit() || c == '-' {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// The records' shape by their templated file name alone, when their
/// headline links share no directory ([`records_shape`] gives none): a
/// newspaper's desks (`/sports/<slug>/article_<uuid>.html`, `/news/local/
/// <slug>/article_<uuid>.html`) on one host, with the file name most of
/// them share ([`common_file_form`]).
fn form_shape(doc: &Document, records: &[Record]) -> Option<ShapePattern> {
    let form = common_file_form(doc, records)?;
    let hosts: Vec<Shape> = records
        .iter()
        .filter_map(|r| headline_href(doc, r))
        .filter(|h| file_form(h) == form)
        .filter_map(shape_of)
        .map(|s| Shape {
            host: s.host,
            dir: String::new(),
            depth: 0,
            script: None,
        })
        .collect();
    let place = majority(&hosts, records.len())?.clone();
    Some(ShapePattern {
        place,
        dir: Vec::new(),
        any_query: false,
        form: Some(form),
    })
}

/// The shape of the records' headline links: the one more than half of
/// them share; else, when more than half share host, depth and script
/// but their directories differ, those with each directory segment that
/// all of them share, and any value where they differ, provided one named
/// segment is shared (a story's own folder:
/// `/news/local/<slug>/article_7209a14f.html`).
pub(super) fn records_shape(doc: &Document, records: &[Record]) -> Option<ShapePattern> {
    let shapes: Vec<Shape> = records
        .iter()
        .filter_map(|r| headline_href(doc, r).and_then(shape_of))
        .collect();
    shape_among(&shapes, records.len()).or_else(|| {
        // Each page named by a query of its own (`/pub/a-post-4c1e?source=
        // home---0`): the query tracks the click, it names no script.
        let plain: Vec<Shape> = shapes.iter().map(Shape::without_script).collect();
        let mut pattern = shape_among(&plain, records.len())?;
        pattern.any_query = true;
        Some(pattern)
    })
}

/// The shape that links of more than half of a table's rows have, each
/// row counted once per shape: a row has no heading, and its title link
/// need not come first (a speaker's homepage before the talk's page).
pub(super) fn rows_shape(doc: &Document, rows: &[Record]) -> Option<ShapePattern> {
    let mut shapes: Vec<Shape> = Vec::new();
    for r in rows {
        let mut own: Vec<Shape> = Vec::new();
        for shape in record_hrefs(doc, r).filter_map(shape_of) {
            if !own.contains(&shape) {
                own.push(shape);
            }
        }
        shapes.extend(own);
    }
    majority(&shapes, rows.len())
        .cloned()
        .map(ShapePattern::exact)
}

/// [`records_shape`] of the `shapes` of `n` records.
fn shape_among(shapes: &[Shape], n: usize) -> Option<ShapePattern> {
    if let Some(exact) = majority(shapes, n) {
        return Some(ShapePattern::exact(exact.clone()));
    }
    let placed: Vec<Shape> = shapes.iter().map(Shape::without_dir).collect();
    let place = majority(&placed, n)?;
    let members = shapes.iter().zip(&placed).filter(|(_, p)| *p == place);
    ShapePattern::shared(members.map(|(s, _)| s))
}

/// The shape more than half of `n` records have.
fn majority(shapes: &[Shape], n: usize) -> Option<&Shape> {
    let mut counts: HashMap<&Shape, usize> = HashMap::new();
    for s in shapes {
        *counts.entry(s).or_default() += 1;
    }
    counts.into_iter().find(|(_, c)| c * 2 > n).map(|(s, _)| s)
}

/// A [`Shape`] whose directory segments may be left open (`None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ShapePattern {
    place: Shape,
    dir: Vec<Option<String>>,
    /// The records' queries track clicks: any query (or none) is admitted.
    any_query: bool,
    /// The templated file name that alone makes the shape, on the place's
    /// host, whatever the directory and depth ([`form_shape`]).
    form: Option<String>,
}

impl ShapePattern {
    fn exact(shape: Shape) -> Self {
        let dir = shape.dir.split('/').map(|s| Some(s.to_string())).collect();
        ShapePattern {
            place: shape.without_dir(),
            dir,
            any_query: false,
            form: None,
        }
    }

    /// The segments all `shapes` (of one place) share, the others open;
    /// `None` unless a named segment is shared.
    fn shared<'s>(mut shapes: impl Iterator<Item = &'s Shape>) -> Option<Self> {
        let first = shapes.next()?;
        let mut pattern = ShapePattern::exact(first.clone());
        for s in shapes {
            for (seg, theirs) in pattern.dir.iter_mut().zip(s.dir.split('/')) {
                if seg.as_deref() != Some(theirs) {
                    *seg = None;
                }
            }
        }
        let named = pattern.dir.iter().flatten().any(|s| !s.is_empty());
        named.then_some(pattern)
    }

    /// True when the page `href` links has this shape ([`Self::admits`]).
    pub(super) fn admits_href(&self, href: &str) -> bool {
        shape_of(href).is_some_and(|s| self.admits(&s))
    }

    /// True when the page `href` links is on this host, at this depth
    /// (and script), whatever its directory below the first segment: a
    /// conference's research papers (`/papers/research/r01.pdf`) beside
    /// its demos (`/papers/demos/d1.pdf`). A first segment the records'
    /// links share names what they are: a forum's subforums
    /// (`/forum/16-errata/`) are no topics (`/topic/48011-welcome/`).
    pub(super) fn admits_place(&self, href: &str) -> bool {
        shape_of(href).is_some_and(|s| {
            let first = s.dir.split('/').find(|seg| !seg.is_empty());
            let shared_first = self.dir.iter().find(|seg| seg.as_deref() != Some(""));
            let section = match shared_first {
                Some(Some(want)) => first == Some(want.as_str()),
                _ => true,
            };
            let place = s.without_dir();
            section
                && (place == self.place || (self.any_query && place.without_script() == self.place))
        })
    }

    /// True when the page `href` links has this shape: of its place with
    /// every shared segment, or on its host with its templated file name.
    fn admits_link(&self, shape: &Shape, href: &str) -> bool {
        match &self.form {
            Some(form) => shape.host == self.place.host && file_form(href) == *form,
            None => self.admits(shape),
        }
    }

    /// True when `shape` is of this place and has every shared segment.
    fn admits(&self, shape: &Shape) -> bool {
        let place = &self.place;
        let mut segments = shape.dir.split('/');
        self.form.is_none()
            && shape.host == place.host
            && shape.depth == place.depth
            && (self.any_query || shape.script == place.script)
            && self.dir.iter().all(|want| {
                segments
                    .next()
                    .is_some_and(|seg| want.as_deref().is_none_or(|w| w == seg))
            })
            && segments.next().is_none()
    }
}

impl Shape {
    /// The shape as the page whose host is `own` sees it: a link to its
    /// own host is a link without one, and the reverse (a lead post linked
    /// `https://site.example/a-post/` above teasers linked `/a-post/`).
    fn seen_from(&self, own: &str) -> Shape {
        let host = if self.host == own {
            String::new()
        } else if self.host.is_empty() {
            own.to_string()
        } else {
            return self.clone();
        };
        Shape {
            host,
            ..self.clone()
        }
    }

    /// The shape without the page a query names.
    fn without_script(&self) -> Shape {
        Shape {
            script: None,
            ..self.clone()
        }
    }

    /// Host, depth and script only.
    pub(super) fn without_dir(&self) -> Shape {
        Shape {
            dir: String::new(),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;
    use crate::extract::records::detect_html;

    /// The winner's straggler texts for a page.
    fn stragglers(html: &str) -> Vec<String> {
        let (doc, det) = detect_html(html);
        det.winner()
            .map(|g| {
                g.stragglers
                    .iter()
                    .map(|r| doc.text_of_range(r.start, r.end).trim().to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A list of four posts under `/notes/`, after `before`, then `after`.
    fn page(before: &str, after: &str) -> String {
        let mut html = format!("<body><main><div class=wrap>{before}<div><ul class=posts>");
        for i in 0..4 {
            html.push_str(&format!(
                "<li><a href='/notes/post-{i}.html'>Post number {i}</a> <time>2024-0{}-02</time></li>",
                i + 1
            ));
        }
        html.push_str(&format!("</ul></div>{after}</div></main></body>"));
        html
    }

    #[test]
    fn a_lead_article_above_the_list_is_a_straggler() {
        let lead = "<article><h1><a href='/notes/newest.html'>The newest note</a></h1>\
                    <p>All of it, shown in full.</p></article>";
        assert_eq!(stragglers(&page(lead, "")), [doc_text(lead)]);
    }

    /// A lead post linked by its full address on the page's own host (its
    /// canonical link's, else its `og:url`'s) stands with relative links;
    /// on another host, or where the page names none, it does not.
    #[test]
    fn a_lead_post_linked_on_the_pages_own_host_is_a_straggler() {
        let lead = "<article><h2><a href='https://notes.example/notes/newest.html'>\
                    The newest note</a></h2><p>All of it, shown in full.</p></article>";
        let with_head = |head: &str| format!("<html><head>{head}</head>{}</html>", page(lead, ""));
        let own = "<link rel='alternate canonical' href='https://Notes.example/notes/'>";
        assert_eq!(stragglers(&with_head(own)), [doc_text(lead)]);
        let og = "<meta property='og:url' content='https://notes.example/'>";
        assert_eq!(stragglers(&with_head(og)), [doc_text(lead)]);
        let other = "<link rel=canonical href='https://mirror.example/notes/'>";
        assert!(stragglers(&with_head(other)).is_empty());
        assert!(stragglers(&with_head("")).is_empty());
    }

    /// A twin of the records above the list (a live blog's pinned post,
    /// its links in-page anchors) is a straggler; three are another list.
    #[test]
    fn a_twin_above_the_list_is_a_straggler_and_three_are_a_list() {
        let update = |id: &str| {
            format!(
                "<article id={id} class='block b1'><a href=#{id}>14:05</a>\
                 <p>Update {id}: the river has risen by another metre overnight.</p></article>"
            )
        };
        let page = |pinned: usize| {
            let mut html = String::from(
                "<body><main><div class=grid><h2>Live feed</h2>\
                 <div class=pinned-post><div class=label>Pinned post</div>",
            );
            (0..pinned).for_each(|i| html.push_str(&update(&format!("p{i}"))));
            html.push_str("<button>Show more</button></div><div class=blocks>");
            (0..5).for_each(|i| html.push_str(&update(&format!("u{i}"))));
            html.push_str("</div></div></main></body>");
            html
        };
        let pinned = stragglers(&page(1));
        assert_eq!(pinned.len(), 1);
        assert!(pinned[0].starts_with("14:05 Update p0"), "{pinned:?}");
        assert!(stragglers(&page(3)).is_empty());
    }

    /// Regression (a podcast's page): the episodes' caption, an `h2` link
    /// "Episodes" to the full list, sits two blocks deep in the list's
    /// header beside a "See All" link; it joined the episodes as the
    /// first of them.
    #[test]
    fn a_caption_wrapped_in_the_lists_header_is_no_straggler() {
        let header = "<div class=header><div class=title-wrap><h2>\
                      <a href='/notes/all.html'>All notes</a></h2></div>\
                      <a class=see-all href='/notes/all.html'>See All</a></div>";
        assert!(stragglers(&page(header, "")).is_empty());
    }

    /// The text a fragment gives once parsed (whitespace as the parser keeps it).
    fn doc_text(fragment: &str) -> String {
        let doc = parse(fragment);
        doc.text_of_range(0, doc.nodes.len() as NodeId)
            .trim()
            .to_string()
    }

    #[test]
    fn headings_of_another_shape_or_in_chrome_are_not_stragglers() {
        let other = "<h2><a href='/tags/rust.html'>Everything tagged rust</a></h2>";
        let chrome = "<aside><h3><a href='/notes/pinned.html'>Pinned</a></h3></aside>";
        assert!(stragglers(&page(other, chrome)).is_empty());
    }

    /// Regression: a sticky post's heading sits in its own
    /// `header.entry-header`, as WordPress themes write every post; that
    /// header was taken for the page's chrome, so the sticky post was lost.
    #[test]
    fn a_lead_post_whose_heading_is_in_its_own_header_is_a_straggler() {
        let lead = "<article class=sticky><header class=entry-header><h2>\
                    <a href='/notes/newest.html'>The newest note</a></h2></header>\
                    <p>All of it, shown in full.</p></article>";
        assert_eq!(stragglers(&page(lead, "")), [doc_text(lead)]);
        // The page's own header stays chrome.
        let banner = "<header><h2><a href='/notes/newest.html'>The newest note</a></h2></header>";
        assert!(stragglers(&page(banner, "")).is_empty());
    }

    /// Regression (a publication's home page): every card's link carries
    /// a tracking query of its own (`?source=home---3`), so the records
    /// showed no shape and the featured story above them, a link wrapping
    /// its `h2` title and `h3` subtitle, was lost; then it was found
    /// twice, once by each heading.
    #[test]
    fn a_featured_story_joins_cards_whose_links_track_clicks() {
        let mut html = String::from(
            "<body><main><section class=featured><a href='/pub/newest-story-9f1e?source=featured---0'>\
             <h2>The newest story of all</h2><h3>A subtitle that says more</h3></a></section><div><h2>Latest</h2>",
        );
        for i in 0..4 {
            html.push_str(&format!(
                "<article><a href='/@writer{i}'>Writer {i}</a><a href='/pub/story-{i}-ab{i}?source=home---{i}'>\
                 <h2>Story number {i} of the list</h2><h3>Its subtitle</h3></a><span>Mar {i}</span></article>"
            ));
        }
        html.push_str("</div></main></body>");
        let found = stragglers(&html);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("The newest story of all"), "{found:?}");
        assert!(found[0].contains("A subtitle that says more"), "{found:?}");
    }

    #[test]
    fn three_headings_of_the_records_shape_are_another_list() {
        let related: String = (0..3)
            .map(|i| format!("<h4><a href='/notes/related-{i}.html'>Related {i}</a></h4>"))
            .collect();
        assert!(stragglers(&page("", &related)).is_empty());
        let one = "<h4><a href='/notes/related-0.html'>Related 0</a></h4>";
        assert_eq!(stragglers(&page("", one)), ["Related 0"]);
    }

    /// Regression: a news section's permalinks carry their day
    /// (`/climate/2024/03/12/…`), so no directory was shared by most cards
    /// and the lead story above the grid was lost; taken, it is its whole
    /// card (picture, standfirst, byline), not just its heading.
    #[test]
    fn a_lead_story_over_date_path_cards_is_a_straggler_with_its_card() {
        let mut html = String::from(
            "<body><main><div class=hero><a href='/climate/2024/03/12/seawall/'><img src='/i/hero.jpg'></a>\
             <div class=body><h2><a href='/climate/2024/03/12/seawall/'>Seawall funding stalls</a></h2>\
             <p>Three of five barriers are past their design life.</p>\
             <p>By <a href='/staff/renata/'>Renata</a></p></div></div><section class=grid>",
        );
        for (i, day) in [12, 11, 11, 10, 9].iter().enumerate() {
            html.push_str(&format!(
                "<article class=card><h3><a href='/climate/2024/03/{day:02}/story-{i}/'>Story number {i} of the day</a></h3>\
                 <time datetime='2024-03-{day:02}'>March {day}</time></article>"
            ));
        }
        html.push_str("</section></main></body>");
        let found = stragglers(&html);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("Seawall funding stalls"), "{found:?}");
        assert!(found[0].contains("past their design life"), "{found:?}");
    }

    /// Regression (a news topic page): a lead story, linked in full with
    /// a tracking query, and a row of four secondary cards stand above the
    /// "Latest" river; five headings qualified, more than two stragglers,
    /// so all five were lost. Above the list a lead block may hold six,
    /// never more than half the list; past the list two stay the most.
    #[test]
    fn a_fronts_lead_story_and_card_row_above_its_river_are_stragglers() {
        let card = |i: usize| {
            format!(
                "<article class=card><h3><a href='/climate/2026/11/28/card-{i}/'>Card story {i}</a></h3>\
                 <time datetime='2026-11-28'>Nov. 28</time></article>"
            )
        };
        let river = |n: usize, after: &str| {
            let items: String = (0..n)
                .map(|i| {
                    format!(
                        "<li class=item><h3><a href='/climate/2026/11/27/river-{i}/'>River story {i}</a></h3>\
                         <time datetime='2026-11-27'>Nov. 27</time></li>"
                    )
                })
                .collect();
            format!(
                "<section class=river><h2>Latest</h2><ol class=list>{items}</ol></section>{after}"
            )
        };
        let front = |cards: usize, n: usize, after: &str| {
            let row: String = (0..cards).map(card).collect();
            format!(
                "<html><head><link rel=canonical href='https://ledger.example/topics/climate'></head>\
                 <body><main><section class=lead><h2><a href='https://ledger.example/climate/2026/11/29/lead/?itm_source=lead'>\
                 The lead story</a></h2><p>Its standfirst, longer than the rest.</p>\
                 <time datetime='2026-11-29'>Nov. 29</time></section>\
                 <section class=row>{row}</section>{}</main></body></html>",
                river(n, after)
            )
        };
        let found = stragglers(&front(4, 12, ""));
        assert_eq!(found.len(), 5, "{found:?}");
        assert!(found[0].starts_with("The lead story"), "{found:?}");
        assert!(found[4].starts_with("Card story 3"), "{found:?}");
        // Six above a list of ten are more than half of it: another list.
        assert!(stragglers(&front(5, 10, "")).is_empty());
        // A heading of the records' shape past the list makes three more
        // than the stragglers allowed around a list.
        let past = "<h3><a href='/climate/2026/11/20/older/'>An older story</a></h3>";
        assert!(stragglers(&front(1, 12, past)).is_empty());
        // A lead block with an undated story is another list.
        let undated = front(4, 12, "").replace("<time datetime='2026-11-29'>Nov. 29</time>", "");
        assert!(stragglers(&undated).is_empty());
    }

    /// Regression (a museum's exhibitions): the list runs across three
    /// sections ("Now on", "Coming soon", "Past"), and the featured
    /// exhibition sits above all of them, beyond the first section's
    /// grid's grandparent: it was lost.
    #[test]
    fn a_featured_record_above_a_list_across_sections_is_a_straggler() {
        let section = |id: &str, slugs: &[&str]| {
            let cards: String = slugs
                .iter()
                .map(|s| {
                    format!(
                        "<li class=card><h3><a href='/exhibitions/{s}/'>The {s} exhibition</a></h3>                         <p>From 4 July 2026</p></li>"
                    )
                })
                .collect();
            format!("<section id={id}><h2>{id}</h2><ul class=grid>{cards}</ul></section>")
        };
        let html = format!(
            "<body><main><section class=hero><h2><a href='/exhibitions/tidelines/'>Tidelines</a></h2>             <p>The estuary in art.</p></section><div class=layout><div class=main>{}{}{}</div></div></main></body>",
            section("now", &["paper", "quiet", "glass"]),
            section("soon", &["ashore", "rook"]),
            section("past", &["wool", "village"])
        );
        let found = stragglers(&html);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("Tidelines"), "{found:?}");
    }

    /// Regression: a US local-news site (TownNews BLOX) gives every story
    /// its own folder (`/news/local/<slug>/article_<uuid>.html`), so no
    /// directory was shared by most cards and the lead story above them was
    /// lost. The folders they share (`/news/local`) make the shape.
    #[test]
    fn a_lead_story_over_cards_in_folders_of_their_own_is_a_straggler() {
        let card = |slug: &str| {
            format!(
                "<article class=card><h3><a href='/news/local/{slug}/article_{slug}9e1.html'>                 Story about the {slug} today</a></h3><time>03-05-2024</time></article>"
            )
        };
        let mut html = String::from(
            "<body><main><section class=lead-story><div class=lead-media>             <a href='/news/local/flood-wall/article_72a1.html'><img src='/i/lead.jpg'></a></div>             <div class=lead-text><h1><a href='/news/local/flood-wall/article_72a1.html'>             Council approves flood wall bond</a></h1><p>After three hours of comment.</p></div>             </section><div class=card-list>",
        );
        for slug in ["bridge", "school", "diner", "fire", "library"] {
            html.push_str(&card(slug));
        }
        html.push_str("</div></main></body>");
        let found = stragglers(&html);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("Council approves flood wall bond"),
            "{found:?}"
        );
        assert!(found[0].contains("three hours of comment"), "{found:?}");
        // Under another section, or with no folder shared, it is not the
        // list's.
        let elsewhere = html.replace("/news/local/flood-wall/", "/sports/prep/flood-wall/");
        assert!(stragglers(&elsewhere).is_empty());
        let unshared = html.replace("/news/local/", "/news/");
        let unshared = (0..5).fold(unshared, |h, i| {
            let slug = ["bridge", "school", "diner", "fire", "library"][i];
            h.replace(&format!("/news/{slug}/"), &format!("/cat{i}/{slug}/"))
        });
        assert!(stragglers(&unshared).is_empty(), "{unshared}");
    }

    #[test]
    fn number_segments_of_a_directory_are_one_shape() {
        let a = shape_of("/climate/2024/03/12/seawall/").unwrap();
        assert_eq!(a.dir, "/climate/#/#/#");
        assert_eq!(shape_of("/climate/2023/11/02/otters/"), Some(a.clone()));
        assert_ne!(shape_of("/opinion/2024/03/12/seawall/"), Some(a));
    }

    #[test]
    fn inside_records_agrees_with_a_scan_of_every_record() {
        // Regression: the scan made the straggler pass quadratic on pages
        // with thousands of headings.
        let records =
            [(3, 7), (7, 9), (12, 20), (25, 26)].map(|(start, end)| Record { start, end });
        for id in 0..30 {
            let scan = records.iter().any(|r| id >= r.start && id < r.end);
            assert_eq!(inside_records(&records, id), scan, "node {id}");
        }
        assert!(!inside_records(&[], 4));
    }

    #[test]
    fn shapes_keep_host_directory_and_depth() {
        let s = shape_of("/blog/a-post/").unwrap();
        assert_eq!((s.host.as_str(), s.dir.as_str(), s.depth), ("", "/blog", 2));
        assert_eq!(shape_of("/blog/b-post/#comments"), Some(s.clone()));
        assert_ne!(shape_of("/blog/"), Some(s.clone()));
        assert_ne!(shape_of("/tag/blog/a/"), Some(s));
        let abs = shape_of("https://Example.org/news/one.html").unwrap();
        assert_eq!(abs.host, "example.org");
        assert_eq!(shape_of("/"), None);
        assert_eq!(shape_of("https://example.org/index.html"), None);
        let topic = shape_of("./viewtopic.php?f=12&t=3301").unwrap();
        assert_eq!(topic.script.as_deref(), Some("viewtopic.php"));
        assert_eq!(shape_of("./viewtopic.php?f=12&t=77"), Some(topic.clone()));
        assert_ne!(shape_of("./viewforum.php?f=12"), Some(topic));
        // A path ending in `/` is the page; its query only tracks.
        assert_eq!(
            shape_of("/climate/2026/11/29/a-story/?itm_source=lead"),
            shape_of("/climate/2026/11/28/another-story/")
        );
    }
}
