//! One list page through every pure stage: parse → tag sequence → mine →
//! records → items. The async, I/O-bearing run of a whole feed (fetch,
//! bodies, publish) lives in [`crate::refresh`]; this module has no I/O so it
//! can be measured and tested on plain strings.
//!
//! Invariant: the items are in page order, one per record of the winning
//! group, with duplicate guids removed (first occurrence kept).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use url::Url;

use crate::extract::dates::DateContext;
use crate::extract::dom::{self, Document};
use crate::extract::items::{self, Item};
use crate::extract::patterns::{self, Mining, MiningParams};
use crate::extract::records::{self, Detection, RecordGroup};
use crate::extract::sequence::{self, TagSequence};

/// Wall time of each stage.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    pub parse: Duration,
    pub mine: Duration,
    pub items: Duration,
}

impl Timings {
    pub fn total(&self) -> Duration {
        self.parse + self.mine + self.items
    }
}

/// Everything learnt about one list page.
#[derive(Debug, Clone)]
pub struct ListPage {
    pub doc: Document,
    pub seq: TagSequence,
    pub mining: Mining,
    pub detection: Detection,
    /// Base URL links were resolved against (`<base href>` or the page URL).
    pub base: Url,
    pub items: Vec<Item>,
    pub timings: Timings,
}

/// The items of the group ranked `rank` (1 = the first group, as
/// `preview` numbers them), dropped or not; empty when there is no such
/// group (a feed's `group` beyond what the page has: drift reports it).
pub fn items_of_rank(page: &ListPage, rank: usize, dates: &DateContext) -> Vec<Item> {
    rank.checked_sub(1)
        .and_then(|i| page.detection.groups.get(i))
        .map(|g| items_of_group(&page.doc, g, &page.base, dates))
        .unwrap_or_default()
}

/// Analyse decoded list-page HTML fetched from `page_url` (its final URL
/// after redirects).
pub fn analyze_list(
    html: &str,
    page_url: &Url,
    params: &MiningParams,
    dates: &DateContext,
) -> ListPage {
    let t0 = Instant::now();
    let doc = dom::parse(html);
    let t1 = Instant::now();
    let seq = sequence::flatten(&doc);
    let mining = patterns::mine(&seq, params);
    let detection = records::detect(&doc, &seq, &mining, params);
    let t2 = Instant::now();
    let base = items::base_url(&doc, page_url);
    let items: Vec<Item> = detection
        .winner()
        .map(|g| items_of_group(&doc, g, &base, dates))
        .unwrap_or_default();
    let t3 = Instant::now();
    ListPage {
        timings: Timings {
            parse: t1 - t0,
            mine: t2 - t1,
            items: t3 - t2,
        },
        doc,
        seq,
        mining,
        detection,
        base,
        items,
    }
}

/// The items of one record group, in page order, without records that
/// have neither title nor link, duplicate guids removed.
pub fn items_of_group(
    doc: &Document,
    group: &RecordGroup,
    base: &Url,
    dates: &DateContext,
) -> Vec<Item> {
    let mut seen = HashSet::new();
    let plan = items::plan_titles(doc, &group.records, dates);
    group
        .records
        .iter()
        .map(|r| items::item_from_record(doc, r, base, dates, &plan))
        .filter(|it| !it.title.is_empty() || it.link.is_some())
        .filter(|it| seen.insert(it.guid.clone()))
        .collect()
}

/// The items of a later page of a list whose first page's winning group
/// sits at `selector` (its [`RecordGroup::selector`]): the group of `page`
/// at the same place, winner or not (a last page may hold too few records
/// to win). `None` when the page has no such group.
pub fn items_like(page: &ListPage, selector: &str, dates: &DateContext) -> Option<Vec<Item>> {
    let group = page
        .detection
        .groups
        .iter()
        .find(|g| g.selector == selector)?;
    Some(items_of_group(&page.doc, group, &page.base, dates))
}
