//! Records that span several siblings: a title row and a metadata row,
//! `dt` + `dd`, a heading + paragraphs + "read more" without a wrapper.
//!
//! The mined runs say whether records are runs of siblings; the sibling
//! kind that holds the title (the *head*) starts each record: the most
//! title-like kind of the tag whose siblings hold the titles (the kinds
//! of one tag vote together, as its variants head records too). In each
//! container a record runs from its head to the next one; parts that come
//! before the title (a date `dt` before its `dd`, a kicker before a
//! heading) move the start back. A sibling that looks like a head but
//! only links where its record already links (an abstract `dd` ending in
//! "Full abstract" to the event), or that names the record's head as its
//! own (`aria-describedby` its `id`, a BEM element of its block: a
//! tender's detail row; the head's `data-bill-id`: a bill's last-action
//! row), continues that record.
//!
//! A container's own heads show the record's shape (which kinds of sibling
//! belong to a record, which lead it, how many siblings a record has at
//! most). A container with a single head shows none of that: it takes the
//! shape that the group's other containers show, so the lone record of a
//! section in an archive split by day keeps its second half.
//!
//! Headings rank the siblings: one of a lower level than the heads' is a
//! subsection of the record before it (a wiki discussion's "Survey"); one
//! of a higher level ends the record before it and leads none (a month's
//! `h2` over its news items' `h3`s). Heads whose headings mostly repeat a
//! few words ("Added", "Fixed") are labels of a record's parts, and the
//! higher headings in their containers (a changelog's releases) head the
//! records instead.
//!
//! Invariants: records are disjoint, in document order, and made of whole
//! element children of their container; a container whose heads all
//! follow one another is a list of single siblings (`None`: widen it).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::Record;
use super::kinds::{Kind, Kinds, Tag, class_tokens, stable_classes};
use super::score::link_text_weight;
use super::short::heading_level;
use crate::extract::dom::{Document, Element, NodeId, is_heading};
use crate::extract::items::{is_action_text, is_title_element};

/// Number of element siblings in `first..=last` (both children of one node).
fn siblings_between(doc: &Document, first: NodeId, last: NodeId) -> usize {
    let mut n = 0;
    let mut c = first;
    loop {
        if doc.element(c).is_some() {
            n += 1;
        }
        if c >= last {
            break;
        }
        c = doc.node(c).end;
    }
    n.max(1)
}

/// How strongly a sibling looks like the start of a record: 2 when it is
/// or holds a heading, 1 when it holds a headline-length link standing on
/// its own (a committee named inside "Referred to the Committee on
/// Finance; hearing set" is a reference, not a headline) or a
/// headline-length element whose class names it a title (a bill's
/// `span.bill-title` beside its number link), else 0.
fn title_weight(doc: &Document, id: NodeId) -> u32 {
    let end = doc.node(id).end;
    let mut best = 0;
    for i in id..end {
        match doc.tag(i) {
            Some(t) if is_heading(t) => return 2,
            Some("a") if best == 0 => {
                let (chars, bytes) = link_text_weight(doc, i);
                if chars >= HEADLINE_CHARS && !doc.in_running_text(i, bytes) {
                    best = 1;
                }
            }
            _ => {}
        }
    }
    // Class names are read only for siblings without a headline link.
    let titled = || {
        (id..end).any(|i| is_title_element(doc, i) && doc.text(i).chars().count() >= HEADLINE_CHARS)
    };
    if best == 0 && titled() { 1 } else { best }
}

/// Fewest characters of a headline-length link or title.
const HEADLINE_CHARS: usize = 15;

/// The first heading in the subtree at `id`.
fn first_heading(doc: &Document, id: NodeId) -> Option<NodeId> {
    (id..doc.node(id).end).find(|&i| heading_level(doc, i).is_some())
}

/// The level of the first heading in the subtree at `id`
/// ([`heading_level`]: 0 for `h1`, 1 for `h2`).
fn subtree_level(doc: &Document, id: NodeId) -> Option<usize> {
    first_heading(doc, id).and_then(|h| heading_level(doc, h))
}

/// The sibling that starts a record: its kind, the title weight its
/// variants need (2 when every mined head holds a heading, else 1), and
/// the level of the highest heading the mined siblings hold, if any.
#[derive(Debug, Clone, Copy)]
pub(super) struct Head {
    kind: Kind,
    weight: u32,
    level: Option<usize>,
}

/// True when the siblings `first..=last` are all one thing whatever
/// their modifiers: one tag, a stable class token they all share, and a
/// first element child of one kind (a forum's `div.topic-post.regular`,
/// `div.topic-post.topic-owner.regular`, each around its
/// `article.boxed.onscreen-post`), or a last one (a blog's text, photo
/// and quote posts, each opening in its own way and closing with the
/// same `footer.post-meta`). A run of them is several records, each a
/// whole post, not one record of parts (a title row and a metadata row
/// differ in class or in what they hold).
fn alike_run(doc: &Document, kinds: &mut Kinds<'_>, first: NodeId, last: NodeId) -> bool {
    let Some(tag) = doc.tag(first) else {
        return false;
    };
    // The siblings after `first`, each once.
    let rest = || {
        std::iter::successors(Some(first), |&c| (c < last).then(|| doc.node(c).end))
            .skip(1)
            .filter(|&c| doc.element(c).is_some())
    };
    if rest().any(|c| doc.tag(c) != Some(tag)) {
        return false;
    }
    // Shape first (cheap, and where most runs differ), then classes.
    let mut same_end = |end: fn(&Document, NodeId) -> Option<NodeId>| {
        let inner = end(doc, first).map(|c| kinds.kind(c));
        inner.is_some() && rest().all(|c| end(doc, c).map(|k| kinds.kind(k)) == inner)
    };
    if !same_end(element_child) && !same_end(last_element_child) {
        return false;
    }
    let mut shared: Vec<&str> = stable_classes(doc, first).collect();
    for c in rest() {
        shared.retain(|w| stable_classes(doc, c).any(|x| x == *w));
    }
    !shared.is_empty()
}

/// True when half or more of the `spanning` runs are [`alike_run`]s:
/// runs that cross from one whole post into the next say the pattern
/// straddles records, so records are single siblings (a post and the time
/// gap after it are no record of two parts either). Stops as soon as the
/// count is settled.
fn mostly_alike(doc: &Document, kinds: &mut Kinds<'_>, spanning: &[(NodeId, NodeId)]) -> bool {
    let needed = spanning.len().div_ceil(2);
    let (mut alike, mut unlike) = (0, 0);
    for &(f, l) in spanning {
        if alike_run(doc, kinds, f, l) {
            alike += 1;
        } else {
            unlike += 1;
        }
        if alike >= needed {
            return true;
        }
        if unlike > spanning.len() - needed {
            return false;
        }
    }
    false
}

/// The first element child of `id`.
fn element_child(doc: &Document, id: NodeId) -> Option<NodeId> {
    doc.children(id).find(|&c| doc.element(c).is_some())
}

/// The last element child of `id`.
fn last_element_child(doc: &Document, id: NodeId) -> Option<NodeId> {
    doc.children(id)
        .filter(|&c| doc.element(c).is_some())
        .last()
}

/// The kind of sibling that starts a record (the one holding the title),
/// when the mined runs show that records are runs of siblings rather than
/// single ones. `None` for lists of single siblings.
pub(super) fn head_kind(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    runs: &HashMap<NodeId, NodeId>,
) -> Option<Head> {
    let spanning: Vec<(NodeId, NodeId)> = runs
        .iter()
        .filter(|&(&f, &l)| siblings_between(doc, f, l) > 1)
        .map(|(&f, &l)| (f, l))
        .collect();
    if spanning.is_empty() || mostly_alike(doc, kinds, &spanning) {
        return None;
    }
    // Per kind among the mined siblings: (count, title weight).
    let mut votes: HashMap<Kind, (u32, u32)> = HashMap::default();
    let mut seen: HashSet<NodeId> = HashSet::default();
    let mut firsts: Vec<(NodeId, NodeId)> = runs.iter().map(|(&f, &l)| (f, l)).collect();
    firsts.sort_unstable();
    for (first, last) in firsts {
        let mut c = first;
        loop {
            if doc.element(c).is_some() && seen.insert(c) {
                let e = votes.entry(kinds.kind(c)).or_insert((0, 0));
                e.0 += 1;
                e.1 += title_weight(doc, c);
            }
            if c >= last {
                break;
            }
            c = doc.node(c).end;
        }
    }
    // The tag whose siblings hold the titles, then its most title-like
    // kind: the head's variants are of its tag (see [`is_head`]), so the
    // kinds of one tag vote together (a project activity's `dt.changeset`,
    // `dt.issue-edit`, `dt.wiki-page` against the one kind of their `dd`s).
    let mut by_tag: HashMap<Tag, (u32, u32)> = HashMap::default();
    for (&k, &(count, weight)) in &votes {
        let e = by_tag.entry(kinds.tag_of(k)).or_insert((0, 0));
        e.0 += count;
        e.1 += weight;
    }
    let (&tag, _) = by_tag.iter().max_by(|a, b| {
        (a.1.1, a.1.0)
            .cmp(&(b.1.1, b.1.0))
            .then(kinds.tag_name(*b.0).cmp(kinds.tag_name(*a.0)))
    })?;
    let (&kind, &(count, weight)) = votes
        .iter()
        .filter(|(k, _)| kinds.tag_of(**k) == tag)
        .max_by(|a, b| {
            (a.1.1, a.1.0)
                .cmp(&(b.1.1, b.1.0))
                .then(kinds.name(*b.0).cmp(kinds.name(*a.0)))
        })?;
    // Where no sibling holds a headline (a release history's `dt`
    // "Version 5.12.1 — 24 November 2026" and its notes `dd`s, linking
    // only "learn more"), a description list's term heads its record: a
    // `dd` describes the `dt` before it.
    let term = || {
        votes
            .iter()
            .filter(|(k, _)| kinds.tag_name(kinds.tag_of(**k)) == "dt")
            .max_by_key(|(k, v)| (v.0, std::cmp::Reverse(**k)))
            .map(|(&k, _)| k)
    };
    let (kind, weight) = match weight {
        0 => term().map_or((kind, 0), |t| (t, 1)),
        _ => (kind, weight),
    };
    let variant_weight = if weight >= 2 * count { 2 } else { 1 };
    // The highest heading the mined siblings hold: a higher one between
    // them heads a section of records, not a record.
    let level = seen.iter().filter_map(|&c| subtree_level(doc, c)).min();
    let head = Head {
        kind,
        weight: variant_weight,
        level,
    };
    (weight > 0).then(|| over_labels(doc, kinds, runs, &seen, head).unwrap_or(head))
}

/// Heads whose headings mostly say the same few words ("Added", "Fixed",
/// "Changed" in every release of a changelog) are labels of the parts of
/// a record, not its title: when their containers also hold headings of a
/// higher level (the releases' `h2`s), those head the records instead.
fn over_labels(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    runs: &HashMap<NodeId, NodeId>,
    seen: &HashSet<NodeId>,
    head: Head,
) -> Option<Head> {
    let level = head.level?;
    let texts: Vec<String> = seen
        .iter()
        .filter(|&&c| kinds.kind(c) == head.kind)
        .filter_map(|&c| Some(doc.text(first_heading(doc, c)?).to_lowercase()))
        .collect();
    let words: HashSet<&str> = texts.iter().map(String::as_str).collect();
    if texts.len() < MIN_LABEL_HEADS || words.len() * 2 > texts.len() {
        return None;
    }
    let mut containers: Vec<NodeId> = runs.keys().filter_map(|&f| doc.node(f).parent).collect();
    containers.sort_unstable();
    containers.dedup();
    let higher: Vec<(NodeId, usize)> = containers
        .iter()
        .flat_map(|&p| doc.children(p))
        .filter_map(|c| Some((c, subtree_level(doc, c).filter(|&l| l < level)?)))
        .collect();
    // The level right above the labels' (the releases' `h2`, not the
    // page's `h1`), held by two or more.
    let above = higher.iter().map(|&(_, l)| l).max()?;
    let mut at = higher.iter().filter(|&&(_, l)| l == above);
    let &(first, _) = at.next()?;
    at.next().is_some().then(|| Head {
        kind: kinds.kind(first),
        weight: 2,
        level: Some(above),
    })
}

/// The heading level the most of `levels` hold (two or more, and more
/// than any other level), if any.
fn most_common_level(levels: &[Option<usize>]) -> Option<usize> {
    let mut counts = [0usize; 6];
    for &l in levels.iter().flatten() {
        counts[l.min(5)] += 1;
    }
    let best = (0..6).max_by_key(|&l| (counts[l], std::cmp::Reverse(l)))?;
    let unique = counts.iter().filter(|&&n| n == counts[best]).count() == 1;
    (counts[best] >= 2 && unique).then_some(best)
}

/// Fewest heads whose repeated words make them labels ([`over_labels`]).
const MIN_LABEL_HEADS: usize = 4;

/// True when sibling `c` starts a record: it is of the head kind, or of
/// the head's tag and as title-like as the heads (a variant of the head:
/// a heading where the heads hold headings, else a headline-length link).
/// Rows whose classes name their data (`tr.category-support`,
/// `tr.category-meta.pinned`) are variants of one another.
/// A link its class names a title (`span.mw-title > a`) is a headline
/// whatever its length: a wiki's page names are often shorter than
/// headline-length links, and the lines of a wiki's recent changes are
/// variants of one another (`mw-changeslist-minor`).
/// A sibling whose heading is of a lower level than the heads' (a
/// wiki's `h3` "Survey" wrapped as its `h2` discussions are) is a
/// subsection of the record before it, whatever its kind.
fn is_head(doc: &Document, kinds: &mut Kinds<'_>, c: NodeId, head: Head) -> bool {
    let kind = kinds.kind(c);
    let subsection = || {
        head.level
            .is_some_and(|l| subtree_level(doc, c).is_some_and(|own| own > l))
    };
    (kind == head.kind
        || (kinds.tag_of(kind) == kinds.tag_of(head.kind)
            && (title_weight(doc, c) >= head.weight
                || (head.weight == 1 && holds_title_link(doc, c)))))
        && !subsection()
}

/// True when the subtree at `id` holds a link that is, or is inside, an
/// element whose class names it a title, and names something ("More"
/// under a list, in a `td.title` like the titles', does not).
fn holds_title_link(doc: &Document, id: NodeId) -> bool {
    (id..doc.node(id).end).any(|i| {
        doc.is_tag(i, "a")
            && std::iter::once(i)
                .chain(doc.ancestors(i).take_while(|&a| a >= id))
                .any(|a| is_title_element(doc, a))
            && !is_action_text(&doc.text(i))
    })
}

/// One container's element children, the positions of its heads, and
/// which children are section headings: a heading of a higher level than
/// the heads' (a month's `h2` over its news items' `h3`s) is neither a
/// part of a record nor a lead of the next one; it ends the record before.
struct Layout {
    children: Vec<NodeId>,
    heads: Vec<usize>,
    breaks: Vec<bool>,
}

/// Addresses remembered per record for [`Layout::new`]'s test (a record
/// linking more is rare; past this, variants are taken as before).
const MAX_RECORD_LINKS: usize = 64;

impl Layout {
    /// A variant of the head whose links all go where its record already
    /// links continues that record: an abstract `dd` whose "Full abstract"
    /// link goes to the event the `dd` before it names.
    fn new(doc: &Document, kinds: &mut Kinds<'_>, container: NodeId, head: Head) -> Self {
        let children: Vec<NodeId> = doc
            .children(container)
            .take(crate::extract::sequence::MAX_CHILDREN as usize)
            .filter(|&c| doc.element(c).is_some())
            .collect();
        let mut heads = Vec::new();
        let levels: Vec<Option<usize>> = children.iter().map(|&c| subtree_level(doc, c)).collect();
        // Heads without a heading (a news item's first paragraph) read the
        // records' heading level from the headings most children hold.
        let reference = head.level.or_else(|| most_common_level(&levels));
        // The addresses linked since the last head.
        let mut linked: Vec<&str> = Vec::new();
        let mut last_head = None;
        // The heads' date line, read once a heading is met.
        let mut dated: Option<Option<Kind>> = None;
        for (i, &c) in children.iter().enumerate() {
            let continues = kinds.kind(c) != head.kind
                && ((linked.len() < MAX_RECORD_LINKS && links_within(doc, c, &linked))
                    || last_head.is_some_and(|h| names_part_of(doc, c, h)));
            // A heading of another level over the heads' date line (a
            // patch release's `h3` among the minor releases' `h2`s).
            let leads_dated = doc.tag(c).is_some_and(is_heading) && {
                let line = match dated {
                    Some(line) => line,
                    None => *dated.insert(dated_follower(doc, kinds, &children, head)),
                };
                line.is_some() && children.get(i + 1).map(|&n| kinds.kind(n)) == line
            };
            let starts = (is_head(doc, kinds, c, head) || leads_dated) && !continues;
            if starts {
                heads.push(i);
                linked.clear();
                last_head = Some(c);
            }
            if linked.len() < MAX_RECORD_LINKS {
                linked.extend(hrefs(doc, c).take(MAX_RECORD_LINKS - linked.len()));
            }
        }
        drop_part_kinds(doc, kinds, &children, &mut heads, head);
        let section_headings = section_headings(doc, &children, &heads, head);
        let breaks = levels
            .iter()
            .zip(&children)
            .map(|(own, &c)| {
                own.zip(reference).is_some_and(|(own, r)| own < r)
                    || (section_headings && doc.tag(c).is_some_and(is_heading))
            })
            .collect();
        Layout {
            children,
            heads,
            breaks,
        }
    }
}

/// True when the headings among `children` are section headings, never
/// parts of a record: the heads hold no heading, no head is one, and
/// headings are fewer than half the heads (a community weblog's day
/// headings, `h2.date`, among its `div.copy` posts, each with a `<br>`
/// after it). A heading there ends the record before it and leads none.
fn section_headings(doc: &Document, children: &[NodeId], heads: &[usize], head: Head) -> bool {
    let is_heading_at = |&c: &NodeId| doc.tag(c).is_some_and(is_heading);
    let headings = children.iter().filter(|c| is_heading_at(c)).count();
    head.level.is_none()
        && headings > 0
        && headings * 2 < heads.len()
        && !heads.iter().any(|&h| is_heading_at(&children[h]))
}

/// The kind of sibling that most often comes right after a head.
struct Follower {
    /// Siblings of the head kind.
    heads: usize,
    kind: Kind,
    /// Heads it comes right after.
    count: usize,
    /// Its first sibling right after a head.
    first: NodeId,
    /// The first head.
    first_head: NodeId,
}

impl Follower {
    /// True when it follows `share` or more of two heads or more.
    fn follows(&self, share: f64) -> bool {
        self.heads >= 2 && self.count as f64 >= share * self.heads as f64
    }
}

/// The [`Follower`] of the heads among `children` (on a tie, the kind of
/// the higher number).
fn follower(kinds: &mut Kinds<'_>, children: &[NodeId], head: Head) -> Option<Follower> {
    let mut heads = 0usize;
    let mut first_head = None;
    let mut next: HashMap<Kind, (usize, NodeId)> = HashMap::default();
    for (i, &c) in children.iter().enumerate() {
        if kinds.kind(c) == head.kind {
            heads += 1;
            first_head = first_head.or(Some(c));
            if let Some(&n) = children.get(i + 1) {
                next.entry(kinds.kind(n)).or_insert((0, n)).0 += 1;
            }
        }
    }
    let (kind, (count, first)) = next.into_iter().max_by_key(|&(k, (n, _))| (n, k))?;
    Some(Follower {
        heads,
        kind,
        count,
        first,
        first_head: first_head?,
    })
}

/// Share of the heads a date line must follow to be the records' own
/// ([`dated_follower`]).
const DATED_FOLLOWER_SHARE: f64 = 0.8;

/// The kind of the date line right after the heads: one with a class of
/// its own, holding a `<time>`, after [`DATED_FOLLOWER_SHARE`] of two or
/// more heads (a changelog's `p.changelog-date` under each release's
/// heading). A heading of another level over such a line heads a record
/// too (a patch release's `h3` among the minor releases' `h2`s), where a
/// subsection's heading (a discussion's "Survey") is over its own words.
fn dated_follower(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    children: &[NodeId],
    head: Head,
) -> Option<Kind> {
    let line = follower(kinds, children, head)?;
    let (kind, first) = (line.kind, line.first);
    let classed = kinds.name(kind).contains('.');
    let holds_time = || (first..doc.node(first).end).any(|i| doc.is_tag(i, "time"));
    (line.follows(DATED_FOLLOWER_SHARE) && classed && holds_time()).then_some(kind)
}

/// Keep only the heads of variant kinds that mostly lead: a kind of
/// sibling that more often continues a record than starts one is a part,
/// even where it holds a headline-length link (a meeting's documents row,
/// whose "Video (live stream)" or "Cancellation notice (PDF)" goes where
/// the meeting's own row does not). So is a kind that comes right after
/// the heads ([`second_half`]).
fn drop_part_kinds(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    children: &[NodeId],
    heads: &mut Vec<usize>,
    head: Head,
) {
    let mut variants: Vec<Kind> = heads
        .iter()
        .map(|&i| kinds.kind(children[i]))
        .filter(|&k| k != head.kind)
        .collect();
    if variants.is_empty() {
        return;
    }
    if let Some(half) = second_half(doc, kinds, children, head) {
        heads.retain(|&i| kinds.kind(children[i]) != half);
        variants.retain(|&k| k != half);
    }
    let mut counts: HashMap<Kind, (usize, usize)> = HashMap::default();
    for &c in children {
        let k = kinds.kind(c);
        if variants.contains(&k) {
            counts.entry(k).or_default().1 += 1;
        }
    }
    for k in variants {
        counts.entry(k).or_default().0 += 1;
    }
    heads.retain(|&i| {
        let k = kinds.kind(children[i]);
        k == head.kind || counts.get(&k).is_none_or(|&(led, all)| 2 * led >= all)
    });
}

/// Share of the heads the second half of a record must follow
/// ([`second_half`]).
const SECOND_HALF_SHARE: f64 = 0.8;

/// The kind of sibling that is the second half of each record: it comes
/// right after [`SECOND_HALF_SHARE`] of two or more heads and is built
/// otherwise (its first element child is of another kind than the head's
/// first). A court's judgments, each a row naming the case and a row
/// summing it up with its "Press summary (PDF)" link: the summary row is
/// as title-like as the case's, yet it is what follows every case, not a
/// case. Variants of the head stand where a head would (a forum's pinned
/// rows at the top, a category's rows here and there), never after each.
fn second_half(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    children: &[NodeId],
    head: Head,
) -> Option<Kind> {
    let half = follower(kinds, children, head)?;
    let inner = |kinds: &mut Kinds<'_>, c: NodeId| element_child(doc, c).map(|i| kinds.kind(i));
    let built_otherwise = inner(kinds, half.first_head) != inner(kinds, half.first);
    (half.kind != head.kind && half.follows(SECOND_HALF_SHARE) && built_otherwise)
        .then_some(half.kind)
}

/// Attributes by which an element names the element it belongs to.
const REFERRING_ATTRS: &[&str] = &["aria-describedby", "aria-labelledby", "headers"];

/// True when sibling `part` says it is a part of the record headed by
/// `head`: it refers to the head's `id` (`aria-describedby="rfq-0113"` on
/// a tender's detail row), carries the head's identifier
/// ([`shares_data_id`]), or one of its classes is an element of a block
/// the head's classes name (`app-tender-row__detail` after
/// `app-tender-row`, in the BEM convention).
fn names_part_of(doc: &Document, part: NodeId, head: NodeId) -> bool {
    let (Some(p), Some(h)) = (doc.element(part), doc.element(head)) else {
        return false;
    };
    let refers = h.attr("id").map(str::trim).is_some_and(|id| {
        !id.is_empty()
            && REFERRING_ATTRS
                .iter()
                .filter_map(|a| p.attr(a))
                .any(|v| v.split_whitespace().any(|t| t == id))
    });
    refers
        || shares_data_id(p, h)
        || class_tokens(doc, part).any(|c| {
            c.split_once("__").is_some_and(|(block, _)| {
                !block.is_empty() && class_tokens(doc, head).any(|hc| hc == block)
            })
        })
}

/// True when `part` carries the head's own identifier in one `data-`
/// attribute: a name ending in `id`, a value with a digit that the head's
/// `id` holds (`data-bill-id="HB1204"` on the row `#row-HB1204` and on
/// its last-action row after it). A shared status
/// (`data-status="committee"`) or the question every answer names
/// (`data-parentid`) says nothing.
fn shares_data_id(part: &Element, head: &Element) -> bool {
    let Some(own) = head.attr("id") else {
        return false;
    };
    head.attrs.iter().any(|(name, value)| {
        name.starts_with("data-")
            && name.ends_with("id")
            && value.bytes().any(|b| b.is_ascii_digit())
            && own.contains(value.as_str())
            && part.attr(name) == Some(value.as_str())
    })
}

/// The `href`s of the links in the subtree at `id`, trimmed, fragment
/// links included (unlike `short::is_link`: an address is an address).
fn hrefs(doc: &Document, id: NodeId) -> impl Iterator<Item = &str> + '_ {
    (id..doc.node(id).end).filter_map(|i| {
        let e = doc.element(i)?;
        (e.name == "a")
            .then(|| e.attr("href"))
            .flatten()
            .map(str::trim)
    })
}

/// True when the subtree at `id` has links and all of them go to one of
/// `linked`.
fn links_within(doc: &Document, id: NodeId, linked: &[&str]) -> bool {
    let mut any = false;
    hrefs(doc, id).all(|h| {
        any = true;
        linked.contains(&h)
    }) && any
}

/// What a record is made of, as its containers show it.
#[derive(Default)]
struct Shape {
    /// Kinds of sibling seen between one head and the next.
    parts: HashSet<Kind>,
    /// Parts that come before the head.
    lead: HashSet<Kind>,
    /// The most siblings a record has.
    longest: usize,
}

impl Shape {
    /// The shape `layout`'s own heads show; `None` when it has no head or
    /// its heads mostly follow one another (a list of single siblings).
    fn of(kinds: &mut Kinds<'_>, layout: &Layout) -> Option<Shape> {
        let Layout {
            children,
            heads,
            breaks,
        } = layout;
        let gaps = heads.windows(2).filter(|w| w[1] > w[0] + 1).count();
        if heads.is_empty() || gaps * 2 < heads.len().saturating_sub(1).max(1) {
            return None;
        }
        let mut shape = Shape {
            longest: 1,
            ..Shape::default()
        };
        // Parts right before a head: only those can lead one.
        let mut before_head: HashSet<Kind> = HashSet::default();
        // Parts right after a head, by kind: the record's body.
        let mut after_head: HashMap<Kind, usize> = HashMap::default();
        for w in heads.windows(2) {
            shape.longest = shape.longest.max(w[1] - w[0]);
            for j in (w[0] + 1..w[1]).filter(|&j| !breaks[j]) {
                shape.parts.insert(kinds.kind(children[j]));
            }
            if w[1] > w[0] + 1 && !breaks[w[1] - 1] {
                before_head.insert(kinds.kind(children[w[1] - 1]));
            }
            // Only a part that is not also the one before the next head
            // (a `dt` between two `dd` heads leads the second).
            if w[1] > w[0] + 2 && !breaks[w[0] + 1] {
                *after_head
                    .entry(kinds.kind(children[w[0] + 1]))
                    .or_default() += 1;
            }
        }
        // A kind that follows most heads is what a record says after its
        // title, not a part leading the next one (a news page's `p` date
        // line and paragraphs after each `h3`, the last of them right
        // before the next `h3`).
        let gaps = heads.len().saturating_sub(1);
        before_head.retain(|k| after_head.get(k).is_none_or(|&n| n * 2 <= gaps));
        // Those right before the first head show which parts lead, if
        // parts of that kind come right before the other heads too (a
        // link aggregator's rules notice, a plain `tr` like each story's
        // subtext row, leads no story: a spacer row comes before them).
        let mut j = heads[0];
        while j > 0
            && !breaks[j - 1]
            && shape.parts.contains(&kinds.kind(children[j - 1]))
            && before_head.contains(&kinds.kind(children[j - 1]))
        {
            shape.lead.insert(kinds.kind(children[j - 1]));
            j -= 1;
        }
        Some(shape)
    }

    fn merge(&mut self, other: &Shape) {
        self.parts.extend(other.parts.iter().copied());
        self.lead.extend(other.lead.iter().copied());
        self.longest = self.longest.max(other.longest);
    }
}

/// True when `part` is a description of the term `head` (a `dd` after a
/// `dt`): it belongs to the term whatever its class, even where no other
/// record of its container has one of that class (a timeline's last
/// `dd.reopenedticket` of the day).
fn describes(doc: &Document, head: NodeId, part: NodeId) -> bool {
    doc.tag(head) == Some("dt") && doc.tag(part) == Some("dd")
}

/// Cut `layout` into records of `shape`: each starts at a head (or the
/// lead parts right before it) and runs to the next record's start or a
/// section heading before it; the
/// last one takes only parts (and a term's descriptions, [`describes`]),
/// no more siblings than `shape.longest`.
fn cut(doc: &Document, kinds: &mut Kinds<'_>, layout: &Layout, shape: &Shape) -> Vec<Record> {
    let Layout {
        children,
        heads,
        breaks,
    } = layout;
    let mut starts: Vec<usize> = Vec::with_capacity(heads.len());
    for (n, &h) in heads.iter().enumerate() {
        let floor = if n == 0 { 0 } else { heads[n - 1] + 1 };
        let mut s = h;
        while s > floor && shape.lead.contains(&kinds.kind(children[s - 1])) {
            s -= 1;
        }
        starts.push(s);
    }
    let mut records = Vec::with_capacity(heads.len());
    for (n, &h) in heads.iter().enumerate() {
        let stop = match starts.get(n + 1) {
            // Up to the next record, or to a section heading before it.
            Some(&next) => (h + 1..next).find(|&j| breaks[j]).unwrap_or(next),
            None => {
                let mut j = h + 1;
                while j < children.len()
                    && !breaks[j]
                    && j - starts[n] < shape.longest
                    && (shape.parts.contains(&kinds.kind(children[j]))
                        || describes(doc, children[h], children[j]))
                    && !shape.lead.contains(&kinds.kind(children[j]))
                {
                    j += 1;
                }
                j
            }
        };
        let start = children[starts[n]];
        let end = doc.node(children[stop - 1]).end;
        records.push(Record { start, end });
    }
    records
}

/// Records of each container (`(container, its mined runs)`), starting at
/// siblings of kind `head`: `Some(records)` (none for a container without
/// mined runs), or `None` for a container that is a list of single
/// siblings after all and should be widened instead.
pub(super) fn segment(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    head: Head,
    containers: &[(NodeId, &[(NodeId, NodeId)])],
    nested: &[NodeId],
) -> Vec<Option<Vec<Record>>> {
    let layouts: Vec<Layout> = containers
        .iter()
        .map(|&(c, _)| Layout::new(doc, kinds, c, head))
        .collect();
    let mut group: Option<Shape> = None;
    let own: Vec<Option<Shape>> = layouts
        .iter()
        .zip(containers)
        .map(|(l, (_, mined))| {
            if mined.is_empty() {
                return None;
            }
            let shape = Shape::of(kinds, l)?;
            group.get_or_insert_with(Shape::default).merge(&shape);
            Some(shape)
        })
        .collect();
    layouts
        .iter()
        .zip(own)
        .zip(containers)
        .map(|((layout, own), &(c, mined))| {
            // A container mining found nothing in joins with its lone
            // record only (a day's single entry), and a section nested in
            // a container with all of its records (a sub-team's openings),
            // in the group's shape.
            let lone = layout.heads.len() == 1;
            let adopted = nested.contains(&c);
            if mined.is_empty() && !lone && !adopted {
                return Some(Vec::new());
            }
            match (own, &group) {
                (Some(shape), _) => Some(cut(doc, kinds, layout, &shape)),
                (None, Some(shape)) if lone || adopted => Some(cut(doc, kinds, layout, shape)),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::extract::records::detect_html;

    /// A procurement table's tenders: a main row and a detail row naming
    /// it, by `aria-describedby` or by a BEM class (`tender__detail`
    /// after `tender`), or by nothing (`detail_naming: false`).
    fn tenders(naming: &str) -> String {
        let rows: String = (0..8)
            .map(|i| {
                let (class, refers) = match naming {
                    "aria" => ("detail", format!(" aria-describedby=t{i}")),
                    "bem" => ("tender__detail", String::new()),
                    "data" => ("detail", format!(" data-tender-id=t{i}")),
                    _ => ("detail", String::new()),
                };
                let own = match naming {
                    "data" => format!(" data-tender-id=t{i} data-status=open"),
                    _ => String::new(),
                };
                format!(
                    "<tr class=tender id=t{i}{own}><td class=ref><a href=/tenders/T-{i}>T-{i}</a></td>\
                     <td class=tender__title><a href=/tenders/T-{i}>Supply of defibrillators for hall number {i}</a></td>\
                     <td>Published 0{d}/03/2024</td></tr>\
                     <tr class={class}{refers}><td colspan=3><p>Supply and five-year maintenance of public-access units {i}.</p>\
                     <p>CPV: <a href='/tenders?cpv=3318210{i}'>3318210{i} – Defibrillators and their cabinets</a></p></td></tr>",
                    d = 1 + i % 9
                )
            })
            .collect();
        format!(
            "<html><body><main><h1>Open opportunities</h1><table><tbody>{rows}</tbody></table></main></body></html>"
        )
    }

    /// Regression (a procurement portal): the detail row holds a
    /// headline-length CPV link, so it was a head of its own and every
    /// row a record (16 for 8 tenders). A row that names the row before it
    /// as its own belongs to it, and so does one carrying its identifier
    /// (`data-tender-id`, a bill tracker's last-action row). Unnamed, a
    /// detail row that comes right after every tender is its second half
    /// all the same ([`second_half`]; 16 records before that rule).
    #[test]
    fn a_row_naming_the_row_before_it_continues_its_record() {
        for naming in ["aria", "bem", "data", "none"] {
            let (doc, det) = detect_html(&tenders(naming));
            let w = det.winner().expect("the tenders");
            assert_eq!(w.records.len(), 8, "{naming}: {}", w.selector);
            let first = w.records[0];
            let rows = (first.start..first.end).filter(|&i| doc.is_tag(i, "tr"));
            assert_eq!(rows.count(), 2, "{naming}");
        }
    }

    /// Regression (a wiki's recent changes): the lines of one day are
    /// `li`s whose classes name the kind of edit (`mw-changeslist-minor`),
    /// and a minor edit of a page with a short name ("Hollow King") was no
    /// head, so it joined the line before it. A link in an element whose
    /// class names a title heads its sibling whatever its length; "More"
    /// under a story table, in a `td.title` too, does not.
    #[test]
    fn a_sibling_holding_a_title_classed_link_is_a_head() {
        use super::{Head, is_head};
        use crate::extract::records::kinds::Kinds;
        let html = "<ul>\
            <li class='line edit'><span class=mw-title><a href=/wiki/Patch>Patch 1.14.2 release notes</a></span> \
              <a href=/wiki/User:Pell>Pell</a></li>\
            <li class='line minor'><span class=mw-title><a href=/wiki/Hollow_King>Hollow King</a></span> \
              <a href=/wiki/User:Ash>Ash</a></li>\
            <li class='line minor'><a href=/wiki/User:Ash>Ash</a> (talk)</li>\
            <li class='line minor'><span class=mw-title><a href='?p=2'>More</a></span></li></ul>";
        let doc = crate::extract::dom::parse(html);
        let lis: Vec<_> = (0..doc.nodes.len() as crate::extract::dom::NodeId)
            .filter(|&i| doc.is_tag(i, "li"))
            .collect();
        let mut kinds = Kinds::new(&doc);
        let head = Head {
            kind: kinds.kind(lis[0]),
            weight: 1,
            level: None,
        };
        let heads: Vec<bool> = lis
            .iter()
            .map(|&li| is_head(&doc, &mut kinds, li, head))
            .collect();
        assert_eq!(heads, [true, true, false, false]);
    }

    /// Regression (a wiki talk page whose headings are wrapped,
    /// `div.mw-heading2 > h2`): a subsection's `div.mw-heading3 > h3`
    /// ("Survey" in a move request) was a variant of the heads and cut
    /// its discussion in two.
    #[test]
    fn a_variant_holding_a_lower_heading_is_a_subsection() {
        use super::{Head, is_head, subtree_level};
        use crate::extract::records::kinds::Kinds;
        let html = "<div>\
            <div class='mw-heading mw-heading2'><h2 id=Route>Route</h2></div><p>Text.</p>\
            <div class='mw-heading mw-heading3'><h3 id=Survey>Survey</h3></div><ul><li>Support</li></ul>\
            <div class='mw-heading mw-heading2 new'><h2 id=Lights>Lights</h2></div><p>Text.</p></div>";
        let doc = crate::extract::dom::parse(html);
        let wrappers: Vec<_> = (0..doc.nodes.len() as crate::extract::dom::NodeId)
            .filter(|&i| {
                doc.element(i)
                    .and_then(|e| e.attr("class"))
                    .is_some_and(|c| c.starts_with("mw-heading"))
            })
            .collect();
        let mut kinds = Kinds::new(&doc);
        let kind = kinds.kind(wrappers[0]);
        let head = |level| Head {
            kind,
            weight: 2,
            level,
        };
        let (by_level, any_level) = (head(subtree_level(&doc, wrappers[0])), head(None));
        let heads = |kinds: &mut Kinds<'_>, h: Head| -> Vec<bool> {
            wrappers
                .iter()
                .map(|&w| is_head(&doc, kinds, w, h))
                .collect()
        };
        assert_eq!(heads(&mut kinds, by_level), [true, false, true]);
        assert_eq!(heads(&mut kinds, any_level), [true, true, true]);
    }

    /// The first heading text of each record of the winning group.
    fn winner_headings(html: &str) -> Vec<String> {
        let (doc, det) = detect_html(html);
        let w = det.winner().expect("a winner");
        w.records
            .iter()
            .map(|r| {
                (r.start..r.end)
                    .find(|&i| doc.tag(i).is_some_and(crate::extract::dom::is_heading))
                    .map(|h| doc.text(h))
                    .unwrap_or_default()
            })
            .collect()
    }

    /// Regression (a department's news page): items are an `h3`, a date
    /// and paragraphs without a wrapper, under a month's `h2`. The month
    /// heading was a lead part of the next item, which took its date
    /// ("March 2025") and lost its own title.
    #[test]
    fn a_higher_heading_between_records_ends_the_record_before_it() {
        let mut h = String::from("<html><body><div class=content><h1>News</h1>");
        for (m, month) in ["March", "February"].iter().enumerate() {
            h.push_str(&format!("<h2>{month} 2025</h2>"));
            for k in 0..3 {
                let day = 20 - 5 * k;
                h.push_str(&format!(
                    "<h3 id=item-{m}-{k}>Research news item {m}{k} about the telescope</h3>\
                     <p class=date>{day} {month} 2025</p><p>The group led by \
                     <a href=/people/p{k}>Dr Person {k}</a> measured something new in the lab \
                     this month, with help from <a href=/labs/l{k}>the cold atoms lab</a>.</p>"
                ));
            }
        }
        h.push_str("</div></body></html>");
        let got = winner_headings(&h);
        assert_eq!(got.len(), 6, "{got:?}");
        assert!(
            got.iter().all(|t| t.starts_with("Research news item")),
            "{got:?}"
        );
    }

    /// Regression (a changelog): each release is an `h2` and `h3`
    /// "Added", "Fixed" … sections of changes. The `h3`s were the heads,
    /// one record per "Added" or "Fixed". Heads whose headings repeat the
    /// same few words are labels: the higher headings head the records.
    #[test]
    fn heads_that_repeat_a_few_words_give_way_to_the_headings_above() {
        use super::{HashMap, HashSet, Head, over_labels, subtree_level};
        use crate::extract::dom::NodeId;
        use crate::extract::records::kinds::Kinds;
        let page = |labels: [&str; 2]| {
            let mut h = String::from("<article><h1>Changelog</h1>");
            for r in 0..4 {
                h.push_str(&format!("<h2 id=v{r}>2.{r}.0 - 2025-0{}-03</h2>", 9 - r));
                for label in labels {
                    h.push_str(&format!("<h3>{label} {r}</h3><ul><li>A change.</li></ul>"));
                }
            }
            h + "</article>"
        };
        for (labels, relabelled) in [(["Added", "Fixed"], false), (["Added", "Fixed"], true)] {
            // Without the release number the labels repeat.
            let html = page(labels);
            let html = if relabelled {
                (0..4).fold(html, |h, r| {
                    h.replace(&format!("Added {r}<"), "Added<")
                        .replace(&format!("Fixed {r}<"), "Fixed<")
                })
            } else {
                html
            };
            let doc = crate::extract::dom::parse(&html);
            let ids = 0..doc.nodes.len() as NodeId;
            let h3s: Vec<NodeId> = ids.clone().filter(|&i| doc.is_tag(i, "h3")).collect();
            // The mined runs: each `h3` and its `ul`.
            let runs: HashMap<NodeId, NodeId> = h3s.iter().map(|&h| (h, doc.node(h).end)).collect();
            let mut seen: HashSet<NodeId> = h3s.iter().copied().collect();
            seen.extend(runs.values().copied());
            let mut kinds = Kinds::new(&doc);
            let head = Head {
                kind: kinds.kind(h3s[0]),
                weight: 2,
                level: subtree_level(&doc, h3s[0]),
            };
            let got = over_labels(&doc, &mut kinds, &runs, &seen, head);
            if relabelled {
                let got = got.expect("the releases head the records");
                let h2 = ids.clone().find(|&i| doc.is_tag(i, "h2")).expect("an h2");
                assert_eq!(got.kind, kinds.kind(h2));
                assert_eq!(got.level, subtree_level(&doc, h2));
            } else {
                assert!(got.is_none(), "distinct headings are titles");
            }
        }
    }

    /// Regression: a timeline split into days writes each event as a
    /// `dt` and a `dd` whose classes name the event's kind. The last event
    /// of a day lost its `dd` when no other event of that day was of its
    /// kind (`dd.reopenedticket`).
    #[test]
    fn the_last_term_of_a_list_keeps_its_description_whatever_its_class() {
        let kinds = [
            "changeset",
            "newticket",
            "wiki",
            "closedticket",
            "milestone",
        ];
        let mut h = String::from("<html><body><div id=content>");
        for day in 0..4 {
            h.push_str(&format!("<h2>Nov {}, 2026</h2><dl>", 20 - day));
            for e in 0..=day {
                let kind = kinds[(day + e) % kinds.len()];
                h.push_str(&format!(
                    "<dt class={kind}><a href='/trac/{kind}/{day}{e}'><span class=time>1{e}:04</span>                      Event {day}{e} of kind {kind} happened</a> by <span class=author>ana</span></dt>                     <dd class={kind}>Description {day}{e} of what changed and why.</dd>"
                ));
            }
            h.push_str("</dl>");
        }
        h.push_str("</div></body></html>");
        let (doc, det) = detect_html(&h);
        let winner = det.winner().expect("the events");
        assert_eq!(winner.records.len(), 10, "{}", winner.selector);
        for r in &winner.records {
            let text = doc.text_of_range(r.start, r.end);
            assert!(doc.is_tag(r.start, "dt"), "{text}");
            assert!(text.contains("Description"), "{text}");
        }
    }

    /// Regression: a seminar list's optional abstract `dd` ends in a long
    /// "Full abstract for …" link to the event its details `dd` names. It
    /// was taken for a head of its own (then dropped as a repeated link),
    /// so every event lost its abstract.
    #[test]
    fn an_optional_part_linking_to_its_record_is_not_a_record() {
        let mut h = String::from("<html><body><dl class=events>");
        for i in 0..6 {
            h.push_str(&format!(
                "<dt class=date><time datetime='2026-12-0{d}'>Tue {d} Dec 2026</time></dt>\
                 <dd class=details><a class=title href='/ev/{i}/'>Seminar number {i} on verified upgrades</a>\
                 <span>Room {i}</span></dd>",
                d = i + 1
            ));
            if i % 2 == 0 {
                h.push_str(&format!(
                    "<dd class=abstract><p>Abstract {i} text. <a href='/ev/{i}/'>Full abstract\
                     <span class=visually-hidden> for Seminar number {i} on verified upgrades</span></a></p></dd>"
                ));
            }
        }
        h.push_str("</dl></body></html>");
        let (doc, det) = detect_html(&h);
        let winner = det.winner().expect("the events");
        assert_eq!(winner.records.len(), 6, "{}", winner.selector);
        for (i, r) in winner.records.iter().enumerate() {
            let text = doc.text_of_range(r.start, r.end);
            assert!(doc.is_tag(r.start, "dt"), "{text}");
            assert_eq!(text.contains("Abstract"), i % 2 == 0, "{text}");
        }
    }

    /// Regression: topic rows whose classes name their category and state
    /// (`tr.topic-list-item.category-support.unseen-topic`) are kinds of
    /// their own; the rows of the most common kind were taken for heads
    /// and every other row for a part of the record above it.
    #[test]
    fn rows_whose_classes_differ_by_category_are_each_a_record() {
        let cats = [
            "support",
            "meta",
            "support",
            "feature-requests",
            "support",
            "show-and-tell",
            "meta",
            "support",
        ];
        let mut h = String::from(
            "<html><body><table class=topic-list><tr><th>Topic</th><th>Replies</th><th>Activity</th></tr>",
        );
        for (i, cat) in cats.iter().enumerate() {
            let tags: String = (0..i % 3)
                .map(|t| format!("<a href='/tag/t{t}' class=tag>tag{t}</a>"))
                .collect();
            let state = if i % 2 == 0 { " visited" } else { "" };
            h.push_str(&format!(
                "<tr class='topic-list-item category-{cat}{state}'><td><a href='/t/topic-{i}/{i}' class=title>Topic number {i} about the sync engine</a>\
                 <div><a href='/c/{cat}'>{cat}</a>{tags}</div></td><td>{i}</td><td><a href='/t/topic-{i}/{i}/last'>{i}h</a></td></tr>"
            ));
        }
        h.push_str("</table></body></html>");
        let (doc, det) = detect_html(&h);
        let winner = det.winner().expect("the topic rows");
        assert_eq!(winner.records.len(), cats.len(), "{}", winner.selector);
        for r in &winner.records {
            assert!(doc.is_tag(r.start, "tr") && doc.node(r.start).end == r.end);
        }
    }

    /// Regression: a phpBB forum lists its announcements in a block of
    /// their own (`div.forumbg.announcement`, rows `li.row.global-announce`)
    /// above the topics block (`div.forumbg`, stickies `li.row.sticky`);
    /// the class naming the block's status made it another kind, so only
    /// the topics were taken (26 of 29 on a viewforum page).
    #[test]
    fn a_forums_announcements_block_joins_its_topics() {
        let row = |class: &str, t: usize| {
            format!(
                "<li class='row bg{} {class}'><dl class=row-item><dt><div class=list-inner>\
                 <a href='./viewtopic.php?t={t}' class=topictitle>Topic number {t} on first layers</a>\
                 <div class=topic-poster>by <a href='./memberlist.php?u={t}'>user{t}</a> \
                 &raquo; Sun Jan 07, 2024 3:02 pm</div></div></dt><dd class=posts>{t} Replies</dd>\
                 <dd class=views>{t}0 Views</dd></dl></li>",
                t % 2 + 1
            )
        };
        let block = |class: &str, rows: String| {
            format!(
                "<div class='forumbg{class}'><div class=inner><ul class=topiclist><li class=header>\
                 <dl class=row-item><dt>Topics</dt><dd>Replies</dd></dl></li></ul>\
                 <ul class='topiclist topics'>{rows}</ul></div></div>"
            )
        };
        let announcements: String = (1..=3)
            .map(|t| row(if t < 3 { "global-announce" } else { "announce" }, t))
            .collect();
        let topics: String = (4..=12)
            .map(|t| row(if t < 6 { "sticky" } else { "" }, t))
            .collect();
        let html = format!(
            "<html><body><div id=page-body>{}{}</div></body></html>",
            block(" announcement", announcements),
            block("", topics)
        );
        let (doc, det) = detect_html(&html);
        let winner = det.winner().expect("the topic rows");
        let rows: Vec<bool> = winner
            .records
            .iter()
            .map(|r| doc.is_tag(r.start, "li") && doc.node(r.start).end == r.end)
            .collect();
        assert_eq!(rows, [true; 12], "{}", winner.selector);
    }

    /// Regression (a project's hand-written news page): each item is an
    /// `h3`, a date paragraph and more paragraphs, the last of them right
    /// before the next `h3`; `p` was taken to lead a record, so each one
    /// began with the paragraphs of the one before. A kind that follows
    /// most heads is their records' body, never a lead.
    #[test]
    fn paragraphs_after_each_heading_do_not_lead_the_next_record() {
        let item = |n: usize| {
            let more: String = (0..n % 3 + 1)
                .map(|k| format!("<p>Paragraph {k} of item {n}, with enough words to count.</p>"))
                .collect();
            format!(
                "<h3><a href=/news/{n}.html>Release {n} of the tools is out</a></h3>\
                 <p><i>2026-0{}-1{n}</i></p>{more}",
                1 + n % 9
            )
        };
        let items: String = (0..8).map(item).collect();
        let html =
            format!("<body><div class=content><p>News, newest first.</p>{items}</div></body>");
        let (doc, det) = detect_html(&html);
        let winner = det.winner().expect("the news");
        assert_eq!(winner.records.len(), 8);
        assert!(winner.records.iter().all(|r| doc.is_tag(r.start, "h3")));
    }
}
