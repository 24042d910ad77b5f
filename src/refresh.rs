//! Refreshing one feed end to end: fetch the list page, find its records
//! (`pipeline`), fill item bodies from the linked pages (`bodies`), render
//! RSS (`feed`) and publish it atomically (`publish`). This is the I/O edge
//! of a run; `feedmine once` calls it for each feed, the daemon will too.
//!
//! Invariants: a feed's published file is only ever replaced by a complete
//! new one: any error before publishing leaves the previous file as it was;
//! a failed article page costs that item its body (logged), never the feed;
//! parsing and extraction run on blocking threads (kuchikikiki trees are not
//! `Send` and never cross an `.await`).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{Offset, TimeZone, Utc};
use futures_util::StreamExt;
use tokio::sync::Mutex;
use url::Url;

use crate::bodies::{self, Method};
use crate::config::{BodySettings, Config, Feed};
use crate::dates::DateContext;
use crate::feed::{ChannelInfo, FeedError, render_rss};
use crate::fetch::{FetchError, FetchOptions, Fetcher};
use crate::items::Item;
use crate::pipeline::analyze_list;
use crate::publish::{PublishError, write_atomically};

/// Items whose bodies one run fetches at most (the rest keep their summary).
pub const MAX_BODIES_PER_RUN: usize = 50;

/// Why one feed could not be refreshed. The previous file stays published.
#[derive(Debug, thiserror::Error)]
pub enum RefreshError {
    #[error("cannot set up the HTTP client")]
    Client(#[source] FetchError),
    #[error("cannot fetch the list page")]
    Fetch(#[source] FetchError),
    #[error(
        "no repeated records found on {url} ({reason}); run `feedmine preview {url}` to see the candidates"
    )]
    NoRecords { url: Url, reason: String },
    #[error("cannot render the feed")]
    Render(#[source] FeedError),
    #[error("cannot publish the feed")]
    Publish(#[source] PublishError),
    #[error("internal task failed: {0}")]
    Task(String),
}

/// What a successful refresh did.
#[derive(Debug, Clone)]
pub struct Refreshed {
    pub items: usize,
    pub bodies_filled: usize,
    pub bodies_failed: usize,
    pub path: PathBuf,
    pub elapsed: Duration,
}

/// Date context for a feed: now, in the feed's time zone's current offset.
pub fn date_context(feed: &Feed) -> DateContext {
    let now = Utc::now();
    DateContext {
        now,
        offset: feed
            .timezone
            .offset_from_utc_datetime(&now.naive_utc())
            .fix(),
    }
}

/// Output path of a feed's RSS file.
pub fn output_path(config: &Config, feed: &Feed) -> PathBuf {
    config.output_dir.join(format!("{}.xml", feed.id))
}

/// Refresh one feed.
pub async fn refresh(config: &Config, feed: &Feed) -> Result<Refreshed, RefreshError> {
    let started = Instant::now();
    let fetcher = Fetcher::new(feed.fetch.clone()).map_err(RefreshError::Client)?;
    let page = fetcher
        .fetch(&feed.url)
        .await
        .map_err(RefreshError::Fetch)?;
    let final_url = page.final_url.clone();
    let mining = feed.mining.clone();
    let dates = date_context(feed);
    let url_for_task = final_url.clone();
    let list = tokio::task::spawn_blocking(move || {
        let list = analyze_list(&page.text, &url_for_task, &mining, &dates);
        (
            list.items,
            list.doc.title,
            list.doc.lang,
            list.detection.groups.len(),
        )
    })
    .await
    .map_err(|e| RefreshError::Task(e.to_string()))?;
    let (mut items, page_title, lang, groups) = list;
    if items.is_empty() {
        let reason = if groups == 0 {
            "no repeated pattern passed the rules".to_string()
        } else {
            format!("{groups} candidate groups, none passed the rules")
        };
        return Err(RefreshError::NoRecords {
            url: final_url,
            reason,
        });
    }
    let (filled, failed) = if feed.bodies.enabled {
        fill_bodies(&feed.id, &feed.fetch, &feed.bodies, &final_url, &mut items).await
    } else {
        (0, 0)
    };
    for item in &mut items {
        // A broken template was rejected at load; a render error here
        // (e.g. a filter failing on odd data) keeps the plain body.
        match config.item_template.render(item) {
            Ok(Some(html)) => item.body_html = Some(html),
            Ok(None) => {}
            Err(e) => tracing::warn!(feed = %feed.id, "{e}"),
        }
    }
    let channel = ChannelInfo {
        title: feed
            .title
            .clone()
            .or(page_title)
            .unwrap_or_else(|| feed.id.clone()),
        link: final_url.clone(),
        description: feed
            .description
            .clone()
            .unwrap_or_else(|| format!("Records of {final_url}, found by feedmine")),
        self_url: config
            .public_url
            .as_ref()
            .and_then(|u| u.join(&format!("{}.xml", feed.id)).ok()),
        last_build: Utc::now(),
        language: lang,
        stylesheet: None,
    };
    let xml = render_rss(&channel, &items).map_err(RefreshError::Render)?;
    let path = output_path(config, feed);
    write_atomically(&path, xml.as_bytes()).map_err(RefreshError::Publish)?;
    Ok(Refreshed {
        items: items.len(),
        bodies_filled: filled,
        bodies_failed: failed,
        path,
        elapsed: started.elapsed(),
    })
}

/// True when an item's link may be followed for its body.
pub fn may_follow(link: &Url, list_url: &Url, allow_other_hosts: bool) -> bool {
    matches!(link.scheme(), "http" | "https" | "file")
        && link.scheme() == list_url.scheme()
        && (allow_other_hosts || link.host_str() == list_url.host_str())
}

/// Per-host pacing: the earliest time the next request to a host may start.
type HostClock = Arc<Mutex<HashMap<String, Instant>>>;

async fn wait_turn(clock: &HostClock, host: &str, delay: Duration) {
    let wait = {
        let mut c = clock.lock().await;
        let now = Instant::now();
        let next = c.get(host).copied().unwrap_or(now).max(now);
        c.insert(host.to_string(), next + delay);
        next - now
    };
    if !wait.is_zero() {
        tokio::time::sleep(wait).await;
    }
}

/// Fetch each item's page and put its extracted main content in
/// `body_html`. Returns (filled, failed).
pub async fn fill_bodies(
    feed_id: &str,
    fetch: &FetchOptions,
    settings: &BodySettings,
    list_url: &Url,
    items: &mut [Item],
) -> (usize, usize) {
    let method: Method = match settings.method.parse() {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(feed = feed_id, "bodies skipped: {e}");
            return (0, 0);
        }
    };
    let opts = FetchOptions {
        total_timeout: settings.timeout,
        max_body_bytes: settings.max_bytes,
        ..fetch.clone()
    };
    let fetcher = match Fetcher::new(opts) {
        Ok(f) => f,
        Err(e) => {
            tracing::warn!(feed = feed_id, "bodies skipped: {e:#}");
            return (0, 0);
        }
    };
    let clock: HostClock = Arc::default();
    let jobs: Vec<(usize, Url)> = items
        .iter()
        .enumerate()
        .filter_map(|(i, it)| Some((i, it.link.clone()?)))
        .filter(|(_, l)| may_follow(l, list_url, settings.allow_other_hosts))
        .take(MAX_BODIES_PER_RUN)
        .collect();
    let results: Vec<(usize, Result<String, String>)> = futures_util::stream::iter(jobs)
        .map(|(i, link)| {
            let fetcher = fetcher.clone();
            let clock = clock.clone();
            let delay = settings.delay;
            let params = settings.params.clone();
            async move {
                // Politeness is for servers; local files need none.
                if link.scheme() != "file" {
                    wait_turn(&clock, link.host_str().unwrap_or(""), delay).await;
                }
                let page = match fetcher.fetch(&link).await {
                    Ok(p) => p,
                    Err(e) => return (i, Err(format!("{e:#}"))),
                };
                let base = page.final_url.clone();
                let extracted = tokio::task::spawn_blocking(move || {
                    bodies::extract(&page.text, Some(&base), method, &params)
                })
                .await;
                let r = match extracted {
                    Ok(Ok(x)) if !x.html.trim().is_empty() => Ok(x.html),
                    Ok(Ok(x)) => Err(x
                        .empty_reason
                        .unwrap_or_else(|| "no main text found".to_string())),
                    Ok(Err(e)) => Err(e.to_string()),
                    Err(e) => Err(format!("extraction task failed: {e}")),
                };
                (i, r)
            }
        })
        .buffer_unordered(settings.concurrency.max(1))
        .collect()
        .await;
    let (mut filled, mut failed) = (0, 0);
    for (i, r) in results {
        match r {
            Ok(html) => {
                items[i].body_html = Some(html);
                filled += 1;
            }
            Err(reason) => {
                failed += 1;
                let link = items[i].link.as_ref().map(Url::as_str).unwrap_or("");
                tracing::warn!(feed = feed_id, link, "body not extracted: {reason}");
            }
        }
    }
    (filled, failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_only_same_host_http_links_unless_allowed() {
        let list = Url::parse("https://news.example.com/world/").unwrap();
        let same = Url::parse("https://news.example.com/2024/a").unwrap();
        let other = Url::parse("https://cdn.other.org/a").unwrap();
        let downgrade = Url::parse("http://news.example.com/a").unwrap();
        assert!(may_follow(&same, &list, false));
        assert!(!may_follow(&other, &list, false));
        assert!(may_follow(&other, &list, true));
        assert!(!may_follow(&downgrade, &list, true));
    }
}
