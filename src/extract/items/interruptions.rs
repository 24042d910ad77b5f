//! What stands among a list's records without being one: advertisements
//! (by their class, a custom element's name or an "Ad"/"Sponsored" label),
//! sign-up boxes, a table's interludes (a programme's breaks), the site's
//! own promotion cards, and the stub a deleted comment leaves.
//!
//! Invariants: every test reads only the record's own subtree (and, for a
//! promotion, the links of the list's items); none reads the page's
//! style sheets.

use super::*;
use crate::extract::records::{class_tokens, has_link};

/// Class tokens (and parts of custom element names) that mark a slot in a
/// list as an advertisement: `li.sponsored`, `div.promotedlink`,
/// `<shreddit-ad-post>`, `<amp-ad>`.
pub(super) const AD_MARKERS: &[&str] = &[
    "ad",
    "ads",
    "advert",
    "advertisement",
    "sponsor",
    "sponsored",
    "promotedlink",
    // Last: a mark that must be borne out (see [`is_advertising`]).
    "promoted",
];

/// True when a record is an advertisement placed among the records: its
/// element, or an element child of it, is marked as one by a class token
/// in [`AD_MARKERS`] (or one of its `-`- or `_`-separated or camel-case
/// parts, as in `ad-slot`, `native-ad`, `AdHolder`, a CSS module's
/// `styles_promoted__kQ7vR`) or a custom element name with
/// such a part; or its first link, or its headline's, is marked as paid
/// (`rel="sponsored"`, as search engines ask of paid links: a community
/// feed's billboard, a job board's featured job). A mark that says only
/// "promoted" must be borne out by words the record shows
/// ([`shows_ad_word`]): a help center's `article-promoted` and a CMS's
/// `node--promoted` are picked by its editors, a marketplace's
/// `listing-card--promoted` says "Ad by … seller".
pub fn is_advertising(doc: &Document, record: &Record) -> bool {
    let mark = |id: NodeId| doc.element(id).map_or(AdMark::None, ad_mark);
    let slot = std::iter::once(record.start)
        .chain(doc.children(record.start))
        .map(mark)
        .max()
        .unwrap_or(AdMark::None);
    let slot = match slot {
        AdMark::Ad => true,
        AdMark::Promoted => shows_ad_word(doc, record),
        AdMark::None => false,
    };
    let marked = |id: NodeId| mark(id) != AdMark::None;
    slot || has_ad_label(doc, record, &marked) || own_link_is_paid(doc, record)
}

/// What an element's name or class says of an ad ([`is_advertising`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum AdMark {
    None,
    /// Only "promoted": an ad if the record says so.
    Promoted,
    Ad,
}

/// The [`AdMark`] of element `e`: a custom element name or a class with
/// an [`AD_MARKERS`] part.
fn ad_mark(e: &Element) -> AdMark {
    if e.name.contains('-') && has_part(std::iter::once(e.name.as_str()), b"-", AD_MARKERS) {
        return AdMark::Ad;
    }
    let class = e.attr("class").unwrap_or("");
    if !may_name_ad(class) {
        return AdMark::None;
    }
    let humps = || class.split_whitespace().flat_map(camel_humps);
    let (strong, promoted) = AD_MARKERS.split_at(AD_MARKERS.len() - 1);
    if has_part(humps(), b"-_", strong) {
        AdMark::Ad
    } else if has_part(humps(), b"-_", promoted) {
        AdMark::Promoted
    } else {
        AdMark::None
    }
}

/// Longest text that [`shows_ad_word`] reads as a label.
const AD_LABEL_CHARS: usize = 40;

/// True when a short text of the record opens with an ad word
/// ([`AD_MARKERS`]: "Promoted", "Sponsored", "Ad by Kiln seller").
fn shows_ad_word(doc: &Document, record: &Record) -> bool {
    (record.start..record.end).any(|i| match &doc.node(i).data {
        NodeData::Text { text, blank: false } => {
            let text = text.trim();
            let first = text.split_whitespace().next().unwrap_or("");
            let first = first.trim_end_matches([':', '·']);
            text.len() <= AD_LABEL_CHARS && AD_MARKERS.iter().any(|m| first.eq_ignore_ascii_case(m))
        }
        _ => false,
    })
}

/// False when `class` cannot hold an [`AD_MARKERS`] part: each marker
/// holds "ad", "sponsor" or "promoted" (a cheap look before the parts
/// are split out; most classes hold none).
fn may_name_ad(class: &str) -> bool {
    crate::extract::dom::holds_any_ascii_ci(class.as_bytes(), &["ad", "sponsor", "promoted"])
}

/// True when the record's own link says it is paid for (`rel` holds
/// `sponsored`): its first link, or its first link in a heading (a
/// featured job whose company link comes first). An organic record's
/// own link is its own.
fn own_link_is_paid(doc: &Document, record: &Record) -> bool {
    let paid = |a: NodeId| {
        doc.element(a)
            .is_some_and(|e| e.has_token("rel", "sponsored"))
    };
    // Most records have no paid link: nothing more is read then.
    if !(record.start..record.end).any(|i| doc.is_tag(i, "a") && paid(i)) {
        return false;
    }
    let is_link = |i: &NodeId| doc.is_tag(*i, "a") && link_href(doc, *i).is_some();
    let mut links = (record.start..record.end).filter(is_link);
    let first = links.next();
    let in_heading = |a: &NodeId| {
        doc.ancestors(*a)
            .take_while(|&x| x >= record.start)
            .any(|x| doc.tag(x).is_some_and(is_heading))
    };
    let headline = first.filter(in_heading).or_else(|| links.find(in_heading));
    [first, headline].into_iter().flatten().any(paid)
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

/// Which of `records` interrupt their list, in their order: ads
/// ([`is_advertising`]), sign-up boxes ([`is_signup_box`]), pagers
/// ([`is_navigation`]), separators ([`is_separator`]) and
/// [`interludes`]. Ads interrupt a list: when more than half of the
/// records look like ads, the mark means something else (a standards
/// body's table classes its Area Director column `ad`) and none of them
/// is one. So do the few records hidden from assistive technology
/// ([`unseen_slots`]).
pub fn interruptions(doc: &Document, records: &[Record]) -> Vec<bool> {
    let ads: Vec<bool> = records.iter().map(|r| is_advertising(doc, r)).collect();
    let marks_no_ad = 2 * ads.iter().filter(|&&ad| ad).count() > records.len();
    records
        .iter()
        .zip(ads)
        .zip(interludes(doc, records))
        .zip(other_slots(doc, records))
        .zip(unseen_slots(doc, records))
        .map(|((((r, ad), interlude), slot), unseen)| {
            (ad && !marks_no_ad)
                || interlude
                || slot
                || unseen
                || is_signup_box(doc, r)
                || is_navigation(doc, r)
                || is_separator(doc, r)
                || is_archive_index(doc, r)
        })
        .collect()
}

/// True when a record is an index of older pages placed after the
/// records: besides its heading, it holds only links named by years or
/// numbers (a news page's last `h3` "Older news" over "2025 | 2024 | 2023 |
/// 2012–2022"), at least two of them, and separators between them.
pub(super) fn is_archive_index(doc: &Document, record: &Record) -> bool {
    let numeric = |c: char| c.is_ascii_digit() || "-–—".contains(c) || c.is_whitespace();
    let (mut numbers, mut link_end, mut heading_end) = (0, 0, 0);
    for i in record.start..record.end {
        match &doc.node(i).data {
            NodeData::Element(e) if e.name == "a" => link_end = doc.node(i).end,
            NodeData::Element(e) if is_heading(&e.name) => heading_end = doc.node(i).end,
            NodeData::Text { text, blank: false } => {
                let fine = if i < link_end {
                    numbers += usize::from(text.chars().any(|c| c.is_ascii_digit()));
                    text.chars().all(numeric)
                } else {
                    i < heading_end || !text.chars().any(char::is_alphanumeric)
                };
                if !fine {
                    return false;
                }
            }
            _ => {}
        }
    }
    numbers >= 2
}

/// True when a record is a navigation block placed among the records: a
/// `nav`, or an element with `role="navigation"` (a results grid's pager
/// in a slot of the grid).
pub fn is_navigation(doc: &Document, record: &Record) -> bool {
    doc.is_tag(record.start, "nav") || has_role(doc, record, "navigation")
}

/// True when the record's element has ARIA `role`.
fn has_role(doc: &Document, record: &Record, role: &str) -> bool {
    doc.element(record.start)
        .and_then(|e| e.attr("role"))
        .is_some_and(|r| r.trim().eq_ignore_ascii_case(role))
}

/// True when a record is a separator between the records: an element
/// with `role="separator"` (a project's updates split by month, "November
/// 2026" over a rule, in a `div` of the updates' own list).
pub fn is_separator(doc: &Document, record: &Record) -> bool {
    has_role(doc, record, "separator")
}

/// Share of the records a class must be on to be the list's own
/// ([`other_slots`]).
const LIST_CLASS_SHARE: f64 = 0.8;

/// Fewest classes of the list's own from which a record that carries
/// under half of them is a slot of another kind ([`other_slots`]).
const MIN_LIST_CLASSES: usize = 3;

/// Fewest records for [`other_slots`] to tell the list's own classes.
const MIN_SLOT_RECORDS: usize = 5;

/// Which of `records` are slots of another kind in the list's grid: the
/// classes on [`LIST_CLASS_SHARE`] of the records' elements are the
/// list's own, and a record that carries under half of them (and there
/// are at least [`MIN_LIST_CLASSES`]) is a full-width block the grid
/// holds among its cards (a results grid's "customers also bought"
/// carousel and its related searches: `s-result-item s-flex-full-width`
/// among `s-result-item s-asin sg-col-4-of-24 …`). A card without an
/// image, or a sticky one, misses one class or two, not most; a variant
/// of a class ([`is_variant`]) is carried as the class.
pub fn other_slots(doc: &Document, records: &[Record]) -> Vec<bool> {
    let none = vec![false; records.len()];
    if records.len() < MIN_SLOT_RECORDS {
        return none;
    }
    // Each record's class tokens, each token once (a class attribute is
    // short: looking back along it is cheaper than a set).
    let tokens = |r: &Record| {
        let class = doc
            .element(r.start)
            .and_then(|e| e.attr("class"))
            .unwrap_or("");
        let mut seen = class.split_ascii_whitespace().enumerate();
        std::iter::from_fn(move || {
            seen.by_ref().find_map(|(n, t)| {
                let again = class.split_ascii_whitespace().take(n).any(|u| u == t);
                (!again).then_some(t)
            })
        })
    };
    let mut counts: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for r in records {
        for t in tokens(r) {
            *counts.entry(t).or_insert(0) += 1;
        }
    }
    let least = (LIST_CLASS_SHARE * records.len() as f64).ceil() as usize;
    let own: Vec<&str> = counts
        .into_iter()
        .filter(|&(_, n)| n >= least)
        .map(|(c, _)| c)
        .collect();
    if own.len() < MIN_LIST_CLASSES {
        return none;
    }
    let carried = |t: &str| own.contains(&t) || own.iter().any(|o| is_variant(o, t));
    records
        .iter()
        .map(|r| 2 * tokens(r).filter(|t| carried(t)).count() < own.len())
        .collect()
}

/// True when class `t` is a variant of class `own`: the two differ only
/// in their last `-` part after a stem of two parts or more (a wiki's
/// new page, `mw-changeslist-new` and `mw-changeslist-src-mw-new`, among
/// its edits, `mw-changeslist-edit` and `mw-changeslist-src-mw-edit`). A
/// grid's `col-12` is no variant of its cards' `col-4`.
fn is_variant(own: &str, t: &str) -> bool {
    match (own.rsplit_once('-'), t.rsplit_once('-')) {
        (Some((a, _)), Some((b, _))) => a == b && a.trim_end_matches('-').contains('-'),
        _ => false,
    }
}

/// Most share of a list's records hidden from assistive technology that
/// are no records ([`unseen_slots`]).
pub(super) const UNSEEN_SLOT_SHARE: f64 = 0.25;

/// Which of `records` are slots the page hides from assistive technology
/// (`aria-hidden="true"` on the record's element) when they are at most
/// [`UNSEEN_SLOT_SHARE`] of [`MIN_SLOT_RECORDS`] or more: a results
/// list's template placeholder ("Shop on eBay", filled by script), a
/// carousel's cloned slide. A carousel hides most of its slides, each a
/// record: all stay.
pub fn unseen_slots(doc: &Document, records: &[Record]) -> Vec<bool> {
    let unseen: Vec<bool> = records
        .iter()
        .map(|r| {
            doc.element(r.start)
                .and_then(|e| e.attr("aria-hidden"))
                .is_some_and(|h| h.trim().eq_ignore_ascii_case("true"))
        })
        .collect();
    let count = unseen.iter().filter(|&&u| u).count();
    let few = records.len() >= MIN_SLOT_RECORDS
        && count as f64 <= UNSEEN_SLOT_SHARE * records.len() as f64;
    if few {
        unseen
    } else {
        vec![false; records.len()]
    }
}

/// Which of `records` are interludes, in their order, among records more
/// than half of which link: table rows that link no page and have a cell
/// spanning columns (the break between a programme's talks, "Coffee
/// break" across the session and room columns; a grid's pager row, whose
/// page links are all scripts, `javascript:__doPostBack(…)`), and records
/// that link no page and lack a class every record that links one
/// carries ([`lacks_linking_class`]: a programme's `tr.schedule__row--break`
/// rows, in three cells like its talks, among `tr.schedule__row--talk`).
/// A row whose cells line up with the records' and that carries their
/// classes (a security release without a page of its own) stays. So does
/// a spanning row that links a page, unless it is a banner
/// ([`is_banner_row`]).
pub fn interludes(doc: &Document, records: &[Record]) -> Vec<bool> {
    let pages: Vec<bool> = records.iter().map(|r| links_a_page(doc, r)).collect();
    // A record that links a page links: only the others are looked at again.
    let linking = records
        .iter()
        .zip(&pages)
        .filter(|&(r, &page)| page || has_link(doc, r))
        .count();
    if 2 * linking <= records.len() {
        return vec![false; records.len()];
    }
    let shared = linking_classes(doc, records, &pages);
    records
        .iter()
        .zip(pages)
        .map(|(r, page)| {
            if spans_columns(doc, r) {
                !page || is_banner_row(doc, records, r)
            } else {
                !page && lacks_linking_class(doc, r, &shared)
            }
        })
        .collect()
}

/// Fewest records that link a page for their shared classes to tell the
/// others apart ([`linking_classes`]).
const MIN_LINKING_RECORDS: usize = 3;

/// The class tokens on the element of every record that links a page
/// (`pages`), when there are at least [`MIN_LINKING_RECORDS`] of them and
/// some record links none; else none.
fn linking_classes<'d>(doc: &'d Document, records: &[Record], pages: &[bool]) -> Vec<&'d str> {
    let linking = pages.iter().filter(|&&p| p).count();
    if linking < MIN_LINKING_RECORDS || linking == records.len() {
        return Vec::new();
    }
    let classes = |r: &Record| class_tokens(doc, r.start);
    let mut linked = records
        .iter()
        .zip(pages)
        .filter(|(_, p)| **p)
        .map(|(r, _)| r);
    let Some(first) = linked.next() else {
        return Vec::new();
    };
    let mut shared: Vec<&str> = classes(first).collect();
    for r in linked {
        shared.retain(|&c| classes(r).any(|t| t == c));
        if shared.is_empty() {
            break;
        }
    }
    shared
}

/// True when the element of `record` lacks one of `shared`, the classes
/// every record that links a page carries ([`linking_classes`]).
fn lacks_linking_class(doc: &Document, record: &Record, shared: &[&str]) -> bool {
    shared
        .iter()
        .any(|&c| !class_tokens(doc, record.start).any(|t| t == c))
}

/// Fewest columns of a table whose full-width rows can be banners.
const MIN_BANNER_COLUMNS: u32 = 3;

/// Most cells of a banner row: its note, and the day cell a table of
/// days keeps in its first column.
const MAX_BANNER_CELLS: usize = 2;

/// True when `row` is one cell across the table's columns (or its first
/// column's and one across the others: a seminar list's "Tue 27 Oct
/// 2026 | No seminar – reading week"), as many as most `records` have
/// cells or more, one of them spanning at least
/// [`MIN_BANNER_COLUMNS`], and lacks
/// a class that most rows carry, or carries one no other row does: a
/// vacancies table's "Featured apprenticeship" promotion
/// (`tr.vacancy-table__promo` among `tr.vacancy-table__row`s), which
/// links the scheme's page, or a commit log's closing
/// `tr.nohover` "[...]" to its next page among unclassed rows.
fn is_banner_row(doc: &Document, records: &[Record], row: &Record) -> bool {
    let cells = |r: &Record| doc.children(r.start).filter(|&c| doc.element(c).is_some());
    let spans: Vec<u32> = cells(row)
        .take(MAX_BANNER_CELLS + 1)
        .map(|c| doc.colspan(c))
        .collect();
    if spans.len() > MAX_BANNER_CELLS {
        return false;
    }
    let widest = spans.iter().copied().max().unwrap_or(0);
    let span: u32 = spans.iter().sum();
    // Rows under a day cell's `rowspan` have a cell fewer.
    let wide = records
        .iter()
        .filter(|r| cells(r).count() as u32 <= span)
        .count();
    let class = |r: &Record| doc.element(r.start).and_then(|e| e.attr("class"));
    let own = class(row).unwrap_or("");
    let missing = class(records.first().unwrap_or(row))
        .unwrap_or("")
        .split_ascii_whitespace()
        .filter(|t| !own.split_ascii_whitespace().any(|o| o == *t))
        .any(|t| {
            let carrying = records
                .iter()
                .filter(|r| class(r).is_some_and(|c| c.split_ascii_whitespace().any(|o| o == t)))
                .count();
            carrying * 2 > records.len()
        });
    let carried = |t: &str| {
        records
            .iter()
            .filter(|r| class(r).is_some_and(|c| c.split_ascii_whitespace().any(|o| o == t)))
            .count()
    };
    let apart = || own.split_ascii_whitespace().any(|t| carried(t) <= 1);
    widest >= MIN_BANNER_COLUMNS && wide * 2 > records.len() && (missing || apart())
}

/// True for a table row with a cell spanning columns.
fn spans_columns(doc: &Document, record: &Record) -> bool {
    doc.is_tag(record.start, "tr")
        && doc.children(record.start).any(|c| {
            doc.element(c)
                .is_some_and(|e| e.name == "td" || e.name == "th")
                && doc.colspan(c) > 1
        })
}

/// The humps of a camel-case class token (`AdHolder`: `Ad`, `Holder`;
/// `promotedTweet`: `promoted`, `Tweet`): a cut before each capital that
/// follows a lower-case letter. A token without one is its own hump.
pub(super) fn camel_humps(token: &str) -> impl Iterator<Item = &str> {
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
pub(super) const AD_LABEL_DEPTH: u32 = 6;

/// True when an element near the top of the record's first element is a
/// label marked as an ad, by its class or its `aria-label`, whose text
/// says so too (`<div class="card-tag--sponsored">Sponsored</div>` in the
/// card's header): an ad slot nested in a real record has no such text;
/// or text kept for
/// screen readers that opens with such a word (`<span
/// class=wt-screen-reader-only>Ad from shop Kiln</span>`, where the other
/// cards say "From shop …"). Only the first element: an ad placed between
/// the siblings of two records is not the record before it.
pub(super) fn has_ad_label(
    doc: &Document,
    record: &Record,
    marked: &dyn Fn(NodeId) -> bool,
) -> bool {
    let top = doc.node(record.start).depth;
    let end = doc.node(record.start).end.min(record.end);
    let mut i = record.start + 1;
    while i < end {
        let node = doc.node(i);
        let for_screen_readers = doc.element(i).is_some_and(Element::is_for_screen_readers);
        let labelled = (marked(i) || for_screen_readers || aria_says_ad(doc, i))
            && !titled_otherwise(doc, i)
            && {
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

/// True when element `id`'s tooltip (`title`) spells out something
/// other than an ad: a TV slot's "AD" badge titled "Audio described", an
/// access service, not an advertisement.
fn titled_otherwise(doc: &Document, id: NodeId) -> bool {
    let Some(title) = doc.element(id).and_then(|e| e.attr("title")) else {
        return false;
    };
    let says_ad = |w: &str| {
        AD_MARKERS.iter().any(|m| w.eq_ignore_ascii_case(m))
            || starts_with_ascii_ci(w, "advert")
            || starts_with_ascii_ci(w, "sponsor")
    };
    !title.trim().is_empty() && !title.split(|c: char| !c.is_alphanumeric()).any(says_ad)
}

/// True when element `id`'s accessible name says it is an ad
/// (`<span aria-label="Advertisement">Ad</span>`, where its class is a
/// build hash that says nothing).
fn aria_says_ad(doc: &Document, id: NodeId) -> bool {
    doc.element(id)
        .and_then(|e| e.attr("aria-label"))
        .is_some_and(|l| AD_MARKERS.iter().any(|m| l.trim().eq_ignore_ascii_case(m)))
}

/// Class-name parts that mark a card as a promotion of the site's own
/// (`card--promo`, `promo-tile`).
pub(super) const PROMO_MARKERS: &[&str] = &["promo", "promotion"];

/// Class-name parts that mark a card as held at the top of a list
/// (`views-row--sticky`, `is-pinned`).
pub(super) const STICKY_MARKERS: &[&str] = &["sticky", "pinned"];

/// What the promotion tests ask of a whole list, read once per list: a
/// test per record that read every item made a list of 6,000 records
/// quadratic.
pub(super) struct ListFacts<'i> {
    items: &'i [Item],
    /// Most items are dated.
    most_dated: bool,
    /// The host and folder most items link into, found when first asked.
    main_folder: std::cell::OnceCell<Option<(Option<&'i str>, &'i str)>>,
}

impl<'i> ListFacts<'i> {
    pub(super) fn new(items: &'i [Item]) -> Self {
        ListFacts {
            items,
            most_dated: items.iter().filter(|it| it.date.is_some()).count() * 2 > items.len(),
            main_folder: std::cell::OnceCell::new(),
        }
    }

    fn main_folder(&self) -> Option<(Option<&'i str>, &'i str)> {
        *self.main_folder.get_or_init(|| {
            let mut counts: std::collections::HashMap<(Option<&str>, &str), usize> =
                Default::default();
            for link in self.items.iter().filter_map(|it| it.link.as_ref()) {
                *counts.entry(folder_of(link)).or_default() += 1;
            }
            counts
                .into_iter()
                .find(|&(_, n)| n * 2 > self.items.len())
                .map(|(folder, _)| folder)
        })
    }
}

/// True when a record is the site's own advertisement placed among the
/// records (a museum's "See every exhibition for free" membership card in
/// its grid of exhibitions): its element is marked as a promotion
/// ([`PROMO_MARKERS`], as parts of its class tokens) and its `item` links
/// outside the folder most of the list's items link into. A product on
/// promotion, marked the same way, links where the other products do.
/// So is a notice pinned above a dated list ("Important: how to report a
/// food problem" above the recalls, linking a help page): marked sticky
/// ([`STICKY_MARKERS`]), undated where most items are dated, and linking
/// outside their folder. A sticky forum topic links where the others do,
/// and a pinned post is dated. So is an editor's cross-link among the
/// records ([`is_read_also`]).
pub(super) fn is_house_promo(
    doc: &Document,
    record: &Record,
    item: &Item,
    list: &ListFacts<'_>,
) -> bool {
    let marked_by = |markers: &[&str]| {
        doc.element(record.start).is_some_and(|e| {
            let class = e.attr("class").unwrap_or("");
            has_part(
                class.split_whitespace().flat_map(camel_humps),
                b"-_",
                markers,
            )
        })
    };
    let pinned_notice = || item.date.is_none() && list.most_dated && marked_by(STICKY_MARKERS);
    if item.date.is_none() && list.most_dated && is_read_also(doc, record) {
        return true;
    }
    let marked = marked_by(PROMO_MARKERS) || pinned_notice();
    let Some(own) = item.link.as_ref().filter(|_| marked).map(folder_of) else {
        return false;
    };
    list.main_folder().is_some_and(|folder| folder != own)
}

/// Labels (lower case, without the colon) of an editor's cross-link placed
/// among a list's records: "Baca juga: <a>…</a>", "Read also:".
pub(super) const READ_ALSO_LABELS: &[&str] = &[
    "read also",
    "also read",
    "see also",
    "baca juga",
    "lihat juga",
    "lire aussi",
    "à lire aussi",
    "lesen sie auch",
    "auch interessant",
    "leia também",
    "lee también",
    "leggi anche",
    "lees ook",
    "czytaj także",
    "читайте также",
];

/// True when a record is an editor's cross-link to another article,
/// placed among a list's records: its text opens with a label
/// ([`READ_ALSO_LABELS`]) before its one link (a news index's "Baca juga:"
/// line between its articles; asked of undated records of a dated list).
fn is_read_also(doc: &Document, record: &Record) -> bool {
    let mut links = (record.start..record.end).filter(|&i| doc.is_tag(i, "a"));
    let (Some(link), None) = (links.next(), links.next()) else {
        return false;
    };
    // The label stands before the link, outside it.
    let label = (record.start..link).find_map(|i| match &doc.node(i).data {
        NodeData::Text { text, blank: false } => Some(text.as_str()),
        _ => None,
    });
    label.is_some_and(|l| {
        let l = l
            .trim()
            .trim_end_matches([':', '：', ' ', '\u{a0}'])
            .to_lowercase();
        READ_ALSO_LABELS.contains(&l.as_str())
    })
}

/// `items` (one for each of `records`) without the site's own promotions
/// among them ([`is_house_promo`]).
pub fn without_house_promos(doc: &Document, records: &[Record], items: Vec<Item>) -> Vec<Item> {
    let list = ListFacts::new(&items);
    let promos: Vec<bool> = records
        .iter()
        .zip(&items)
        .map(|(r, it)| is_house_promo(doc, r, it, &list))
        .collect();
    items
        .into_iter()
        .zip(promos)
        .filter_map(|(it, promo)| (!promo).then_some(it))
        .collect()
}

/// A link's host and folder: `/whats-on/exhibitions/tidelines/` is in
/// `/whats-on/exhibitions`.
pub(super) fn folder_of(url: &Url) -> (Option<&str>, &str) {
    let path = url.path().trim_end_matches('/');
    (
        url.host_str(),
        path.rsplit_once('/').map_or("", |(dir, _)| dir),
    )
}

/// Class-name parts (and whole bracketed notices, "[flagged]") that mark a
/// comment as taken down.
pub(super) const DELETED_MARKERS: &[&str] = &["deleted", "removed", "flagged"];

/// Longest text read as a notice that says only "[deleted]".
const STUB_NOTICE_BYTES: usize = 24;

/// Bytes of a thread record's text, beside its deletion notice, that are
/// still chrome (a collapse button "−", a reply count "[4]").
pub(super) const STUB_CHROME_BYTES: usize = 16;

/// True when a record of a thread is the stub a deleted comment leaves
/// (Tildes' `<div class="is-comment-deleted">Comment deleted by
/// author</div>`, Reddit's `.deleted`): an element marked deleted or
/// removed by a class part in [`DELETED_MARKERS`], or a text that says
/// only that ("[deleted]", where a news board's stub keeps its comment's
/// class), holds its text outside links, all but a few bytes of chrome.
/// Its replies stay records.
pub fn is_deleted_stub(doc: &Document, record: &Record) -> bool {
    let says_deleted = |i: NodeId| match &doc.node(i).data {
        NodeData::Text { text, blank: false } if text.len() <= STUB_NOTICE_BYTES => {
            let word = text.trim().trim_matches(['[', ']', '(', ')']).trim();
            DELETED_MARKERS.iter().any(|m| word.eq_ignore_ascii_case(m))
        }
        _ => false,
    };
    let marker = (record.start..record.end).find(|&i| {
        says_deleted(i)
            || doc.element(i).is_some_and(|e| {
                let class = e.attr("class").unwrap_or("");
                has_part(class.split_whitespace(), b"-_", DELETED_MARKERS)
            }) && doc.text_bytes(i) > 0
    });
    marker.is_some_and(|m| stub_chrome(doc, record, m, says_deleted) < STUB_CHROME_BYTES)
}

/// Text bytes of `record` outside its links that are neither its
/// deletion notice (the marker `m`'s text and every other text that
/// `says_deleted`: Reddit's stub says "[deleted]" as its author and as
/// its words) nor a `<time>` (the stub keeps its posting time).
fn stub_chrome(
    doc: &Document,
    record: &Record,
    m: NodeId,
    says_deleted: impl Fn(NodeId) -> bool,
) -> usize {
    let (mut link_end, mut time_end) = (0, 0);
    let notice_end = doc.node(m).end.min(record.end);
    (record.start..record.end)
        .map(|i| match &doc.node(i).data {
            NodeData::Element(e) if e.name == "a" => {
                link_end = link_end.max(doc.node(i).end);
                0
            }
            NodeData::Element(e) if e.name == "time" => {
                time_end = time_end.max(doc.node(i).end);
                0
            }
            NodeData::Text { text, blank: false }
                if i >= link_end
                    && i >= time_end
                    && !(m..notice_end).contains(&i)
                    && !says_deleted(i) =>
            {
                text.trim().len()
            }
            _ => 0,
        })
        .sum()
}

/// True when a record is what a deleted comment leaves: a thread's stub
/// ([`is_deleted_stub`]), or, where the comments are not told as a
/// thread (a news board's one table of rows, indented by spacers), a
/// stub that links no page of its own: its only links go to places on
/// the page ("root", "parent") or run a script (the fold toggle).
/// `thread` is also true for a group of posts without headlines (the
/// same board's comments, titled by their words): a stub there says
/// nothing, whatever it links (its poster, its own permalink).
pub fn is_deleted_entry(doc: &Document, record: &Record, thread: bool) -> bool {
    (thread || !links_a_page(doc, record)) && is_deleted_stub(doc, record)
}

/// True when a record holds a link to a page: not to a place on this
/// one (`#46232077`) and not to a script (`javascript:void(0)`).
fn links_a_page(doc: &Document, record: &Record) -> bool {
    (record.start..record.end).any(|i| {
        doc.is_tag(i, "a")
            && link_href(doc, i).is_some_and(|h| {
                let h = h.trim();
                !h.starts_with('#') && !starts_with_ascii_ci(h, "javascript:")
            })
    })
}
