//! The items of one run, before they meet the state: from the list page's
//! records, or from a feed (`source = "feed"`, or a `url` that serves
//! one), and from the list's later pages (`pages = N`).
//!
//! # Invariants
//! - Later pages are read only for mined lists, at most `pages - 1` of
//!   them, each through the same fetcher (politeness, address policy,
//!   caps), never the same URL twice.
//! - A later page's records are taken from the group at the first page's
//!   winning place ([`crate::pipeline::items_like`]); a page without it, a
//!   failing page or a page with nothing new ends the walk, keeping what
//!   was found, and says why in the run's notes.
//! - Items stay in page order; a record already seen on an earlier page
//!   (same guid) is kept once, where it first appeared.
//! - After the first run (the state holds items), the walk goes on only
//!   while every record of the page just read is new to the state.

use std::collections::HashSet;

use url::Url;

use super::RefreshError;
use crate::config::{Feed, Source};
use crate::drift;
use crate::extract::advertised::{self, Advertised};
use crate::extract::dates::DateContext;
use crate::extract::feedsource;
use crate::extract::items::Item;
use crate::extract::pagination;
use crate::extract::selectors::ListChoice;
use crate::fetch::memory::{Charge, MemoryGate, ParseKind, parse_cost};
use crate::fetch::{Fetcher, Page};
use crate::pipeline::{self, analyze_list};
use crate::state::Store;

/// What one run found to publish.
#[derive(Debug, Default)]
pub(super) struct Listing {
    pub items: Vec<Item>,
    pub page_title: Option<String>,
    pub lang: Option<String>,
    /// Record groups seen on the first page (0 for a feed).
    pub groups: usize,
    /// Drift signature: the winning pattern, or `feed:<version>`.
    pub pattern: Option<String>,
    /// The first page's winning group, to find its records on later pages.
    selector: Option<String>,
    /// The first page's next page.
    next: Option<Url>,
    /// Feeds the first page advertises.
    pub advertised: Vec<Advertised>,
    /// "RSS 2.0, 20 items, summaries only" when the items came from a feed.
    pub from_feed: Option<String>,
    /// Pages read (1 without pagination).
    pub pages_read: usize,
    /// What the run should say about its pages (a later page failed, ...).
    pub notes: Vec<String>,
    /// How the first page's records were chosen (winner, group, selectors).
    pub chosen: pipeline::Chosen,
    /// Records read from embedded data, or a page built by JavaScript.
    pub hint: Option<String>,
}

/// Read the fetched first page as a feed or as a list page.
pub(super) async fn read_first(
    feed: &Feed,
    mut page: Page,
    dates: DateContext,
    mut charge: Charge,
) -> Result<Listing, RefreshError> {
    let as_feed = feed.source == Source::Feed
        || feedsource::looks_like_feed(&page.bytes, page.content_type.as_deref());
    if !as_feed {
        // A list page is read from its text: the raw copy need not wait
        // for the memory budget with it.
        page.bytes = Vec::new();
    }
    let (mining, choice) = (feed.mining.clone(), feed.choice.clone());
    charge
        .grow_to(parse_cost(&page.text, ParseKind::List))
        .await;
    tracing::debug!(feed = %feed.id, bytes = page.text.len(), "parsing the list page");
    tokio::task::spawn_blocking(move || {
        let _charged_until_parsed = charge;
        if as_feed {
            from_feed(&page)
        } else {
            Ok(from_page(
                &page.text,
                &page.final_url,
                &mining,
                &dates,
                &choice,
            ))
        }
    })
    .await
    .map_err(|e| RefreshError::Task(e.to_string()))?
}

fn from_feed(page: &Page) -> Result<Listing, RefreshError> {
    let parsed =
        feedsource::parse_feed(&page.bytes, &page.final_url).map_err(RefreshError::Source)?;
    Ok(Listing {
        from_feed: Some(parsed.describe()),
        pattern: Some(format!("feed:{}", parsed.version)),
        page_title: parsed.title,
        items: parsed.items,
        pages_read: 1,
        ..Listing::default()
    })
}

/// The records of the list page, as the feed's choice picks them (the
/// winner, `group = N`, or `[feed.select]`).
fn from_page(
    html: &str,
    url: &Url,
    mining: &crate::extract::patterns::MiningParams,
    dates: &DateContext,
    choice: &ListChoice,
) -> Listing {
    let list = pipeline::analyze_list_with(html, url, mining, dates, choice);
    let selector = list
        .chosen
        .group
        .and_then(|i| list.detection.groups.get(i))
        .map(|g| g.selector.clone())
        .or_else(|| list.chosen.select.as_ref().map(|_| SELECTED.to_string()));
    let notes = budget_notes(&list.doc);
    Listing {
        hint: list.hint(),
        notes,
        pattern: drift::pattern_signature(&list),
        selector,
        next: pagination::next_page(&list.doc, &list.base, url).map(|n| n.url),
        advertised: advertised::advertised_feeds(&list.doc, &list.base),
        groups: list.detection.groups.len(),
        items: list.items,
        page_title: list.doc.title,
        lang: list.doc.lang,
        chosen: list.chosen,
        pages_read: 1,
        ..Listing::default()
    }
}

/// What the parse budget cut from a page, for the run's notes.
fn budget_notes(doc: &crate::extract::dom::Document) -> Vec<String> {
    use crate::extract::dom::budget::{MAX_ATTRIBUTES, MAX_ELEMENTS, MAX_NODES};
    let mut notes = Vec::new();
    if doc.truncated_at_budget {
        notes.push(format!(
            "the page has more than {MAX_ELEMENTS} elements (the parse budget): only its first part was read"
        ));
    }
    if doc.truncated_at_nodes && !doc.truncated_at_budget {
        notes.push(format!(
            "the page makes more than {MAX_NODES} nodes (elements it never wrote, such as a paragraph for each stray </p>; the parse budget): only its first part was read"
        ));
    }
    if doc.dropped_attributes > 0 {
        notes.push(format!(
            "{} attributes beyond {MAX_ATTRIBUTES} per element were dropped (the parse budget)",
            doc.dropped_attributes
        ));
    }
    if doc.dropped_formatting_tags > 0 {
        notes.push(format!(
            "{} formatting tags (b, font, i, ...) were dropped: the page leaves more than {} open (the parse budget)",
            doc.dropped_formatting_tags,
            crate::extract::dom::formatting::MAX_ACTIVE_FORMATTING
        ));
    }
    notes
}

/// One later page: its items at the first page's place, and its next page.
struct LaterPage {
    items: Option<Vec<Item>>,
    next: Option<Url>,
}

/// What walking a list's later pages needs from the run.
pub(super) struct Walk<'a> {
    pub fetcher: &'a Fetcher,
    pub store: &'a Store,
    pub memory: &'a MemoryGate,
    pub first_url: &'a Url,
    pub dates: &'a DateContext,
}

/// Follow the list's next pages up to `feed.pages` (see the module header
/// for when the walk stops).
pub(super) async fn follow_pages(
    listing: &mut Listing,
    feed: &Feed,
    walk: Walk<'_>,
) -> Result<(), RefreshError> {
    let Walk {
        fetcher,
        store,
        memory,
        first_url,
        dates,
    } = walk;
    let (Some(selector), true) = (listing.selector.clone(), feed.pages > 1) else {
        return Ok(());
    };
    let backfill = store.item_count(&feed.id).map_err(RefreshError::State)? == 0;
    let mut visited: HashSet<String> = HashSet::from([first_url.to_string()]);
    let mut guids: HashSet<String> = listing.items.iter().map(|i| i.guid.clone()).collect();
    let mut last_page: Vec<Item> = listing.items.clone();
    let mut next = listing.next.clone();
    while listing.pages_read < feed.pages {
        let Some(url) = next.take() else { break };
        let n = listing.pages_read + 1;
        if !visited.insert(url.to_string()) {
            listing.notes.push(format!(
                "page {n} ({url}) loops back to a page already read"
            ));
            break;
        }
        if !backfill && !all_new(store, feed, &last_page)? {
            break;
        }
        let mut charge = memory.charge();
        let page = match fetcher.fetch_metered(&url, &mut charge).await {
            Ok(p) => p,
            Err(e) => {
                let cause = super::anyhow_like(&e);
                listing.notes.push(format!(
                    "page {n} ({url}) failed, keeping the records of pages 1-{}: {cause}",
                    n - 1
                ));
                break;
            }
        };
        let later = read_later(page, feed, &selector, *dates, charge).await?;
        let Some(items) = later.items else {
            listing.notes.push(format!(
                "page {n} ({url}) has no records like page 1's ({selector}); stopped there"
            ));
            break;
        };
        listing.pages_read = n;
        let fresh: Vec<Item> = items
            .into_iter()
            .filter(|i| guids.insert(i.guid.clone()))
            .collect();
        if fresh.is_empty() {
            break;
        }
        listing.items.extend(fresh.iter().cloned());
        last_page = fresh;
        next = later.next;
    }
    Ok(())
}

async fn read_later(
    page: Page,
    feed: &Feed,
    selector: &str,
    dates: DateContext,
    mut charge: Charge,
) -> Result<LaterPage, RefreshError> {
    let (mining, choice, selector) = (
        feed.mining.clone(),
        feed.choice.clone(),
        selector.to_string(),
    );
    charge
        .grow_to(parse_cost(&page.text, ParseKind::List))
        .await;
    tokio::task::spawn_blocking(move || {
        let _charged_until_parsed = charge;
        let list = if selector == SELECTED {
            // Pinned selectors apply to every page of the list alike.
            pipeline::analyze_list_with(&page.text, &page.final_url, &mining, &dates, &choice)
        } else {
            analyze_list(&page.text, &page.final_url, &mining, &dates)
        };
        let items = if selector == SELECTED {
            Some(list.items.clone()).filter(|i| !i.is_empty())
        } else {
            pipeline::items_like(&list, &selector, &dates)
        };
        LaterPage {
            items,
            next: pagination::next_page(&list.doc, &list.base, &page.final_url).map(|n| n.url),
        }
    })
    .await
    .map_err(|e| RefreshError::Task(e.to_string()))
}

/// Marks a list whose records `[feed.select]` picks: later pages use the
/// same selectors rather than a detected group's place.
const SELECTED: &str = "[feed.select]";

/// Is every item of `page` unknown to the state (a burst of new posts that
/// may go on on the next page)?
fn all_new(store: &Store, feed: &Feed, page: &[Item]) -> Result<bool, RefreshError> {
    let keys = Store::identity_keys(&feed.identity, page);
    let known = store
        .known_keys(&feed.id, &keys)
        .map_err(RefreshError::State)?;
    Ok(known.is_empty())
}
