//! One run of one feed, end to end and stateful: conditional GET of the list
//! page, record finding (`pipeline`), drift check (`drift`), merge into the
//! state (`state`), bodies for new items only (`bodies`), rendering every
//! configured format (`feed`) and atomic publishing (`publish`). Both
//! `feedmine once` and the daemon (`daemon`) call [`run_feed`].
//!
//! Invariants:
//! - A feed's published files are only ever replaced by complete new ones;
//!   any error before publishing leaves the previous files as they were.
//! - Order of effects, so that a crash (kill -9) at any point loses nothing
//!   and duplicates nothing: items are merged into the state in one
//!   transaction *before* bodies are fetched and files written; bodies are
//!   stored item by item; files are rendered from the state; the fetch-cache
//!   validators are saved only *after* every file is written (a crash in
//!   between makes the next run fetch the page again instead of trusting a
//!   304 for files that were never written).
//! - With a shared state (PostgreSQL) every rendered document (formats and
//!   HTML page) is also stored in the database, in one transaction just
//!   before the files are written; every instance serves it from there.
//! - 304 Not Modified means nothing is parsed and nothing is written.
//! - Drift (far fewer records, or a new winning pattern) publishes nothing:
//!   the previous items stay, the run is recorded as degraded.
//! - A failed article page costs that item its body (logged, retried on the
//!   next runs up to [`MAX_BODY_ATTEMPTS`]), never the feed.
//! - Parsing and extraction run on blocking threads (they are CPU work).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Offset, TimeZone, Utc};
use futures_util::StreamExt;
use url::Url;

use crate::bodies::{self, Method};
use crate::config::{Config, Feed, RobotsPolicy};
use crate::drift::{self, DriftParams, Observation, Verdict};
use crate::extract::dates::DateContext;
use crate::extract::items::Item;
use crate::fetch::memory::{MemoryGate, ParseKind, parse_cost};
use crate::fetch::politeness::Politeness;
use crate::fetch::robots::{RobotsCache, RobotsVerdict};
use crate::fetch::{AddressPolicy, FetchError, FetchOptions, Fetched, Fetcher, Page};
use crate::filters::Filters;
use crate::publish::feed::{ChannelInfo, FeedError, Format, OpmlEntry};
use crate::publish::page::{PageContext, PageStatus};
use crate::publish::templates::Templates;
use crate::publish::{PublishError, write_atomically};
use crate::serve::metrics::{FetchKind, Metrics};
use crate::serve::server::{OPML_FILE, XSL_FILE as STYLESHEET_FILE};
use crate::serve::status::RunOutcome;
use crate::state::documents::{Document, XSL_DOCUMENT, feed_document};
use crate::state::{ArticleMeta, CachedValidators, Retention, RunRow, StateError, Store};
use listing::Listing;

mod listing;

/// Items whose bodies one run fetches at most (the rest get theirs on the
/// next runs; until then they keep their summary).
pub const MAX_BODIES_PER_RUN: usize = 50;
/// Body fetches tried per item before it keeps its summary for good.
pub const MAX_BODY_ATTEMPTS: u32 = 3;
/// Good runs looked at for the drift baseline.
const DRIFT_HISTORY: usize = 10;

/// Why one feed could not be refreshed. The previous files stay published.
#[derive(Debug, thiserror::Error)]
pub enum RefreshError {
    #[error("cannot set up the HTTP client")]
    Client(#[source] FetchError),
    #[error("cannot fetch the list page")]
    Fetch(#[source] FetchError),
    #[error("cannot load the list page in the browser")]
    Browser(#[source] crate::fetch::render::RenderError),
    #[error("cannot render the feed's HTML page")]
    Page(#[source] crate::publish::templates::TemplateError),
    #[error("{url} answered 304 Not Modified to a request without validators")]
    UnexpectedNotModified { url: Url },
    #[error("robots.txt of {url} disallows fetching it (set robots = \"articles\" or \"off\")")]
    Robots { url: Url },
    #[error(
        "no repeated records found on {url} ({reason}); run `feedmine preview {url}` to see the candidates"
    )]
    NoRecords { url: Url, reason: String },
    #[error("cannot read the source feed")]
    Source(#[source] crate::extract::feedsource::FeedSourceError),
    #[error("the feed at {url} has no items")]
    EmptyFeed { url: Url },
    #[error("invalid filter")]
    Filter(#[source] crate::filters::FilterError),
    #[error("cannot render the {format} feed")]
    Render {
        format: &'static str,
        #[source]
        source: FeedError,
    },
    #[error("cannot publish the feed")]
    Publish(#[source] PublishError),
    #[error(transparent)]
    State(StateError),
    #[error("internal task failed: {0}")]
    Task(String),
    /// Not run: another instance sharing the state holds the feed's lease
    /// (`feedmine once` on a shared state).
    #[error("skipped: instance {holder} is running this feed (it holds the feed's lease)")]
    Leased { holder: String },
}

impl RefreshError {
    /// How long the server asked us to wait (429/503 `Retry-After`).
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            RefreshError::Fetch(e) => e.retry_after(),
            _ => None,
        }
    }
}

/// What one successful run did.
#[derive(Debug, Clone)]
pub struct RunReport {
    pub outcome: RunOutcome,
    /// Records found on the list page (0 when it was not modified).
    pub records: usize,
    /// Items seen for the first time.
    pub new_items: usize,
    /// Items in the published feed.
    pub published: usize,
    pub bodies_filled: usize,
    pub bodies_failed: usize,
    /// Linked pages that do not exist (404, 410, a missing local file):
    /// their items keep their summaries. Not counted in `bodies_failed`.
    pub bodies_missing: usize,
    /// The winning record pattern (for drift detection).
    pub pattern: Option<String>,
    /// Why the run counts as degraded (empty otherwise).
    pub drift: Vec<String>,
    /// Files written.
    pub paths: Vec<PathBuf>,
    pub elapsed: Duration,
    /// What a user should know about a run that published (a later list
    /// page failed, ...).
    pub notes: Vec<String>,
}

/// Long-lived things every run shares: the state, the politeness and
/// robots bookkeeping, metrics, templates and a pool of HTTP clients.
#[derive(Clone)]
pub struct Services {
    pub store: Arc<Store>,
    pub politeness: Arc<Politeness>,
    pub robots: Arc<RobotsCache>,
    pub metrics: Metrics,
    /// The memory budget shared by every page being read and parsed.
    pub memory: MemoryGate,
    /// The shared headless Chromium (started on first use).
    pub renderer: Arc<crate::fetch::render::Renderer>,
    templates: Arc<std::sync::RwLock<Arc<Templates>>>,
    pub drift: DriftParams,
    fetchers: Arc<Mutex<HashMap<String, Fetcher>>>,
    /// Feeds whose advertised native feed was already mentioned.
    advertised_told: Arc<Mutex<std::collections::HashSet<String>>>,
}

impl Services {
    /// Services for `config`: opens (or creates) its state file.
    pub fn open(config: &Config, templates: Templates) -> Result<Services, StateError> {
        let store = Store::open_location(&config.state)?;
        Ok(Services::with_store(config, Arc::new(store), templates))
    }

    /// Record the runs that a killed process left unfinished as failed
    /// (so they back off instead of running first again) and say so.
    pub fn settle_unfinished_runs(&self) {
        match self.store.settle_unfinished_runs() {
            Ok(feeds) => {
                for (feed, started) in feeds {
                    tracing::error!(
                        feed = %feed,
                        "the run started at {} did not finish (the process was killed: out of memory, \
                         kill -9 or power loss): recorded as failed, the feed backs off",
                        started.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                    );
                }
            }
            Err(e) => tracing::warn!("cannot read unfinished runs: {}", anyhow_like(&e)),
        }
    }

    /// Services over an already open store.
    pub fn with_store(config: &Config, store: Arc<Store>, templates: Templates) -> Services {
        let politeness = Politeness::with_cluster(
            crate::fetch::politeness::Limits {
                global: config.limits.concurrency,
                per_host: config.limits.host_concurrency,
                min_delay: config.limits.host_delay,
            },
            crate::fetch::cluster_gate::ClusterGate::new(store.clone()),
        );
        Services {
            store,
            politeness,
            robots: Arc::new(RobotsCache::new(crate::fetch::DEFAULT_USER_AGENT)),
            metrics: Metrics::new(),
            memory: MemoryGate::new(
                u32::try_from(config.limits.memory_budget_mib).unwrap_or(u32::MAX),
            ),
            renderer: Arc::new(crate::fetch::render::Renderer::new(
                config.chromium_path.clone(),
                config.limits.render_concurrency,
            )),
            templates: Arc::new(std::sync::RwLock::new(Arc::new(templates))),
            drift: DriftParams::default(),
            fetchers: Arc::default(),
            advertised_told: Arc::default(),
        }
    }

    /// The current templates.
    pub fn templates(&self) -> Arc<Templates> {
        match self.templates.read() {
            Ok(t) => t.clone(),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// Replace the templates (config reload).
    pub fn set_templates(&self, templates: Templates) {
        let mut t = match self.templates.write() {
            Ok(t) => t,
            Err(poisoned) => poisoned.into_inner(),
        };
        *t = Arc::new(templates);
    }

    /// Say once per feed (per process) that its page advertises a feed of
    /// its own, and how to use it.
    fn announce_advertised(&self, feed: &Feed, listing: &Listing) {
        let Some(first) = listing.advertised.first() else {
            return;
        };
        let mut told = self
            .advertised_told
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if told.insert(feed.id.clone()) {
            tracing::info!(
                feed = %feed.id,
                "this page advertises a feed: {} ({}); url = that address with source = \"feed\" would use it, with full-text bodies",
                first.url,
                first.kind.label()
            );
        }
    }

    /// A fetcher for `opts`, shared by every feed with the same options so
    /// connections are reused and clients are not rebuilt every run.
    pub fn fetcher(&self, opts: FetchOptions) -> Result<Fetcher, FetchError> {
        let key = format!("{opts:?}");
        let mut pool = match self.fetchers.lock() {
            Ok(p) => p,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(f) = pool.get(&key) {
            return Ok(f.clone());
        }
        let fetcher = Fetcher::new(opts)?.with_politeness(self.politeness.clone());
        // Bounded: a config reload with many changed feeds must not grow
        // the pool for ever.
        if pool.len() > 1024 {
            pool.clear();
        }
        pool.insert(key, fetcher.clone());
        Ok(fetcher)
    }
}

/// Date context for a feed: now, in the feed's time zone's current offset.
pub fn date_context(feed: &Feed, now: DateTime<Utc>) -> DateContext {
    DateContext {
        now,
        offset: feed
            .timezone
            .offset_from_utc_datetime(&now.naive_utc())
            .fix(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    }
}

/// Output path of one format of a feed.
pub fn output_path(config: &Config, feed: &Feed, format: Format) -> PathBuf {
    config
        .output_dir
        .join(format!("{}.{}", feed.id, format.ext()))
}

/// The fetch options of a feed's list page.
/// The list page loaded in the shared Chromium (`render = "chromium"`).
async fn render_list(
    services: &Services,
    feed: &Feed,
    settings: &crate::config::RenderSettings,
    charge: &mut crate::fetch::memory::Charge,
) -> Result<Page, crate::fetch::render::RenderError> {
    let mut request = render_request(feed, &feed.url, list_fetch_options(feed).total_timeout);
    request.wait_for = settings.wait_for.clone();
    load_in_browser(&services.renderer, &request, &feed.id, charge).await
}

/// How `feed` renders `url`: its timeout, address policy and user agent;
/// its headers and cookie only when `url` is on the list page's origin.
pub fn render_request(
    feed: &Feed,
    url: &Url,
    timeout: Duration,
) -> crate::fetch::render::RenderRequest {
    let opts = list_fetch_options(feed);
    let mut headers = Vec::new();
    if url.origin() == feed.url.origin() {
        headers = opts.headers.clone();
        headers.extend(opts.cookies.clone().map(|c| ("Cookie".to_string(), c)));
    }
    crate::fetch::render::RenderRequest {
        url: url.clone(),
        timeout,
        wait_for: None,
        allow_private: feed.allow_private_addresses,
        headers,
        user_agent: opts.user_agent.clone(),
    }
}

/// A page rendered in the shared Chromium, as a page the rest of the run
/// reads like a fetched one; what the browser refused is logged.
async fn load_in_browser(
    renderer: &crate::fetch::render::Renderer,
    request: &crate::fetch::render::RenderRequest,
    feed_id: &str,
    charge: &mut crate::fetch::memory::Charge,
) -> Result<Page, crate::fetch::render::RenderError> {
    let rendered = renderer.render(request).await?;
    for refused in &rendered.refused {
        tracing::info!(feed = %feed_id, "the browser was not allowed to load {refused}");
    }
    if rendered.unquiet {
        tracing::info!(
            feed = %feed_id,
            "{} kept loading until the timeout ({:?}); its DOM at that moment was read",
            request.url,
            request.timeout
        );
    }
    charge.grow_to(rendered.html.len() as u64).await;
    Ok(rendered.into_page())
}

pub fn list_fetch_options(feed: &Feed) -> FetchOptions {
    let local_or_opted_in = feed.allow_private_addresses || feed.url.scheme() == "file";
    FetchOptions {
        proxy: feed.proxy.clone(),
        cookies: feed.cookies.clone(),
        // The list URL is trusted as written (it may be an intranet page);
        // a redirect to another host must be public like any link.
        address_policy: if local_or_opted_in {
            AddressPolicy::AllowAll
        } else {
            AddressPolicy::PublicOnly
        },
        trusted_host: feed.url.host_str().map(str::to_owned),
        credentials_origin: Some(feed.url.origin()),
        ..feed.fetch.clone()
    }
}

/// The fetch options of a feed's article pages: links come from a page a
/// stranger wrote, so they must resolve to public addresses unless the
/// feed opts in.
pub fn article_fetch_options(feed: &Feed) -> FetchOptions {
    FetchOptions {
        // Article pages are links a stranger wrote, even on the list's host.
        trusted_host: None,
        // A local list page may link files below its own directory only.
        file_root: feed
            .url
            .to_file_path()
            .ok()
            .and_then(|p| p.parent().map(std::path::Path::to_path_buf)),
        total_timeout: feed.bodies.timeout,
        max_body_bytes: feed.bodies.max_bytes,
        // A local list page (a file the user named) may link local pages;
        // `may_follow` keeps file links to file list pages.
        address_policy: if feed.allow_private_addresses || feed.url.scheme() == "file" {
            AddressPolicy::AllowAll
        } else {
            AddressPolicy::PublicOnly
        },
        // The fetcher sends its cookie to every URL it is given: keep the
        // list site's cookie away from other hosts' article pages.
        cookies: if feed.bodies.allow_other_hosts {
            None
        } else {
            feed.cookies.clone()
        },
        ..list_fetch_options(feed)
    }
}

/// Run one feed once and record the run (state, metrics). `now` is the
/// run's start time.
pub async fn run_feed(
    services: &Services,
    config: &Config,
    feed: &Feed,
    now: DateTime<Utc>,
) -> Result<RunReport, RefreshError> {
    let started = Instant::now();
    // Cleared by record_run below: a mark still there at the next start
    // means this run took the process down (see `state::unfinished`).
    if let Err(e) = services.store.mark_run_started(&feed.id, now) {
        tracing::warn!(feed = %feed.id, "cannot mark the run as started: {}", anyhow_like(&e));
    }
    let result = run_inner(services, config, feed, now, started).await;
    let elapsed = started.elapsed();
    let (status, records, new_items, pattern, error) = match &result {
        Ok(r) => (
            match r.outcome {
                RunOutcome::Published => "published",
                RunOutcome::NotModified => "not_modified",
                RunOutcome::Degraded => "degraded",
                RunOutcome::Failed => "failed",
            },
            r.records,
            r.new_items,
            r.pattern.clone(),
            (!r.drift.is_empty()).then(|| r.drift.join("; ")),
        ),
        Err(e) => ("failed", 0, 0, None, Some(format!("{:#}", anyhow_like(e)))),
    };
    let row = RunRow {
        started: now,
        duration_ms: u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        status: status.to_string(),
        records,
        new_items,
        pattern,
        error,
    };
    if let Err(e) = services.store.record_run(&feed.id, &row) {
        tracing::warn!(feed = %feed.id, "cannot record the run: {}", anyhow_like(&e));
    }
    let (outcome, published) = match &result {
        Ok(r) => (r.outcome.clone(), r.published),
        Err(_) => (RunOutcome::Failed, 0),
    };
    services
        .metrics
        .record_run(&feed.id, &outcome, elapsed, records, published);
    result.map(|mut r| {
        r.elapsed = elapsed;
        r
    })
}

/// `{err:#}`-style text of an error and its sources, without anyhow.
/// URLs in it are redacted (`fetch::redact`): this text goes to logs, the
/// run history, `/health` and the index.
pub fn anyhow_like(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(": ");
        out.push_str(&s.to_string());
        source = s.source();
    }
    crate::fetch::redact::redact_text(&out)
}

async fn run_inner(
    services: &Services,
    config: &Config,
    feed: &Feed,
    now: DateTime<Utc>,
    started: Instant,
) -> Result<RunReport, RefreshError> {
    let store = &services.store;
    let fetcher = services
        .fetcher(list_fetch_options(feed))
        .map_err(RefreshError::Client)?;
    if feed.robots == RobotsPolicy::All
        && matches!(feed.url.scheme(), "http" | "https")
        && !services.robots.allowed(&fetcher, &feed.url).await
    {
        return Err(RefreshError::Robots {
            url: feed.url.clone(),
        });
    }

    // Conditional GET, but only if every file this config publishes exists:
    // a 304 must never stand in for a file that was deleted or never made.
    let files_exist = feed
        .formats
        .iter()
        .all(|f| output_path(config, feed, *f).is_file());
    let cached = if files_exist {
        store
            .validators(&feed.id, feed.url.as_str(), &feed.config_hash)
            .map_err(RefreshError::State)?
    } else {
        None
    };
    let fetch_started = Instant::now();
    let mut charge = services.memory.charge();
    let page = if let Some(settings) = &feed.render {
        let rendered = render_list(services, feed, settings, &mut charge).await;
        services
            .metrics
            .record_fetch(FetchKind::List, fetch_started.elapsed(), rendered.is_ok());
        rendered.map_err(RefreshError::Browser)?
    } else {
        let fetched = fetcher
            .fetch_conditional_metered(
                &feed.url,
                cached.as_ref().and_then(|c| c.etag.as_deref()),
                cached.as_ref().and_then(|c| c.last_modified.as_deref()),
                &mut charge,
            )
            .await;
        services
            .metrics
            .record_fetch(FetchKind::List, fetch_started.elapsed(), fetched.is_ok());
        match fetched.map_err(RefreshError::Fetch)? {
            Fetched::NotModified { .. } if cached.is_none() => {
                return Err(RefreshError::UnexpectedNotModified {
                    url: feed.url.clone(),
                });
            }
            Fetched::NotModified { .. } => {
                let published = store.item_count(&feed.id).map_err(RefreshError::State)?;
                let (filled, failed, paths) = owed_bodies(services, config, feed, now).await?;
                let filled = filled.filled;
                return Ok(RunReport {
                    outcome: RunOutcome::NotModified,
                    records: 0,
                    new_items: 0,
                    published: published.min(feed.max_items),
                    bodies_filled: filled,
                    bodies_failed: failed.failed,
                    bodies_missing: failed.missing,
                    pattern: None,
                    drift: Vec::new(),
                    paths,
                    elapsed: started.elapsed(),
                    notes: Vec::new(),
                });
            }
            Fetched::Page(p) => p,
        }
    };
    let validators = CachedValidators {
        etag: page.etag.clone(),
        last_modified: page.last_modified.clone(),
    };
    let final_url = page.final_url.clone();
    let dates = date_context(feed, now);
    let mut listing = listing::read_first(feed, page, dates, charge).await?;
    let walk = listing::Walk {
        fetcher: &fetcher,
        store,
        memory: &services.memory,
        first_url: &final_url,
        dates: &dates,
    };
    listing::follow_pages(&mut listing, feed, walk).await?;
    services.announce_advertised(feed, &listing);
    for note in &listing.notes {
        tracing::warn!(feed = %feed.id, "{note}");
    }
    let from_feed = listing.from_feed.is_some();
    crate::extract::bounds::bound_items(&mut listing.items, feed.url.scheme() == "file");
    listing.lang = listing
        .lang
        .as_deref()
        .and_then(crate::extract::bounds::valid_lang);
    if feed.bodies.always {
        // The feed's own content gives way to the extracted page text.
        listing.items.iter_mut().for_each(|i| i.body_html = None);
    }
    let notes = std::mem::take(&mut listing.notes);
    let Listing {
        items,
        page_title,
        lang,
        groups,
        pattern,
        chosen,
        hint,
        ..
    } = listing;
    if let (Some(hint), false) = (&hint, items.is_empty()) {
        tracing::info!(feed = %feed.id, "{hint}");
    }

    // Drift: judged against the recent good runs, unless the degraded runs
    // since then agree on a new normal (a redesign that stuck).
    let history = store
        .good_runs(&feed.id, DRIFT_HISTORY)
        .map_err(RefreshError::State)?;
    let observed = Observation {
        records: items.len(),
        pattern: pattern.clone(),
    };
    let pinned_notes = crate::pin::notes(feed, &chosen);
    if let Verdict::Drifted { mut reasons } = drift::judge(&history, &observed, &services.drift) {
        reasons.extend(crate::pin::drift_notes(&pinned_notes, &chosen));
        let mut streak = store
            .degraded_streak(&feed.id, services.drift.accept_after.max(1) * 2)
            .map_err(RefreshError::State)?;
        streak.insert(0, observed.clone());
        if drift::settled(&streak, &services.drift) {
            tracing::warn!(
                feed = %feed.id,
                "accepting the new page structure after {} consistent runs: {}",
                streak.len(),
                reasons.join("; ")
            );
        } else {
            tracing::warn!(
                feed = %feed.id,
                "extraction drift, keeping the previous items: {}",
                reasons.join("; ")
            );
            let published = store.item_count(&feed.id).map_err(RefreshError::State)?;
            return Ok(RunReport {
                outcome: RunOutcome::Degraded,
                records: items.len(),
                new_items: 0,
                published: published.min(feed.max_items),
                bodies_filled: 0,
                bodies_failed: 0,
                bodies_missing: 0,
                pattern,
                drift: reasons,
                paths: Vec::new(),
                elapsed: started.elapsed(),
                notes: Vec::new(),
            });
        }
    }
    if items.is_empty() && from_feed {
        return Err(RefreshError::EmptyFeed { url: final_url });
    }
    if items.is_empty() && !pinned_notes.is_empty() {
        return Err(RefreshError::NoRecords {
            url: final_url,
            reason: pinned_notes.join("; "),
        });
    }
    if items.is_empty() {
        let mut reason = if groups == 0 {
            "no repeated pattern passed the rules".to_string()
        } else {
            format!("{groups} candidate groups, none passed the rules")
        };
        if let Some(hint) = &hint {
            reason = format!("{reason}; {hint}");
        }
        return Err(RefreshError::NoRecords {
            url: final_url,
            reason,
        });
    }

    // Merge first (one transaction), then bodies, then files: see the
    // module header for why this order is crash-safe.
    // SQLite and file writes block: they run on the blocking pool so that
    // a slow disk (fsync) never stalls the runtime's few worker threads.
    let (items, merge) = {
        let store = store.clone();
        let (id, keep, rules) = (feed.id.clone(), retention(feed), feed.identity.clone());
        tokio::task::spawn_blocking(move || {
            let merge = store.merge_items_with(&id, &items, now, &keep, &rules);
            (items, merge)
        })
        .await
        .map_err(|e| RefreshError::Task(e.to_string()))?
    };
    let merge = merge.map_err(RefreshError::State)?;
    if let Some(name) = &merge.learned {
        tracing::info!(
            feed = %feed.id,
            "learned volatile link parameter `{name}`: every record's link changed only in it \
             since the last run; item identity ignores it from now on"
        );
    }
    let keys = merge.keys.clone();
    let counts = if feed.bodies.enabled {
        let wanted = store
            .items_needing_body(&feed.id, &keys, MAX_BODY_ATTEMPTS, now)
            .map_err(RefreshError::State)?;
        let jobs: Vec<(String, Url)> = wanted
            .into_iter()
            .filter_map(|key| {
                let i = keys.iter().position(|k| *k == key)?;
                let link = items[i].link.clone()?;
                may_follow(&link, &final_url, feed.bodies.allow_other_hosts).then_some((key, link))
            })
            .take(MAX_BODIES_PER_RUN)
            .collect();
        fill_bodies(services, feed, jobs, now).await?
    } else {
        BodyCounts::default()
    };
    let (filled, failed) = (counts.filled, counts.failed);

    let old_title = store.page_meta(&feed.id).ok().and_then(|(t, _)| t);
    if let Err(e) = store.save_page_meta(&feed.id, page_title.as_deref(), lang.as_deref()) {
        tracing::warn!(feed = %feed.id, "{}", anyhow_like(&e));
    } else if feed.title.is_none() && old_title != page_title {
        // The OPML names this feed by its page's title: it just changed.
        if let Err(e) = write_opml(config, Some(store)) {
            tracing::warn!(feed = %feed.id, "cannot update {OPML_FILE}: {}", anyhow_like(&e));
        }
    }
    let channel = channel_info(config, feed, now, page_title, lang);
    let targets = format_targets(config, feed);
    let page = page_path(config, feed);
    let paths = {
        let (services, feed) = (services.clone(), feed.clone());
        tokio::task::spawn_blocking(move || {
            publish_from_state(&services, &feed, now, &channel, &targets, &page)
        })
        .await
        .map_err(|e| RefreshError::Task(e.to_string()))??
    };
    let published = paths.1;
    if let Err(e) =
        store.save_validators(&feed.id, feed.url.as_str(), &feed.config_hash, &validators)
    {
        tracing::warn!(feed = %feed.id, "cannot save the fetch cache: {}", anyhow_like(&e));
    }
    // A pinned feed that fell back to automatic detection publishes, but
    // shows as degraded until its selectors match again.
    let (outcome, drift) = if chosen.fell_back {
        (RunOutcome::Degraded, pinned_notes)
    } else {
        (RunOutcome::Published, Vec::new())
    };
    Ok(RunReport {
        outcome,
        records: items.len(),
        new_items: merge.new_keys.len(),
        published,
        bodies_filled: filled,
        bodies_failed: failed,
        bodies_missing: counts.missing,
        pattern,
        drift,
        paths: paths.0,
        elapsed: started.elapsed(),
        notes,
    })
}

/// A run whose list page answered 304 still owes the bodies that failed
/// before: retry those that are due (their backoff passed, tries left) and
/// republish when one was filled. Returns the counts (twice, for the
/// filled and the failed side of the report) and the paths written.
async fn owed_bodies(
    services: &Services,
    config: &Config,
    feed: &Feed,
    now: DateTime<Utc>,
) -> Result<(BodyCounts, BodyCounts, Vec<PathBuf>), RefreshError> {
    if !feed.bodies.enabled {
        return Ok((BodyCounts::default(), BodyCounts::default(), Vec::new()));
    }
    let store = &services.store;
    let current = store
        .current_links_by_key(&feed.id)
        .map_err(RefreshError::State)?;
    let keys: Vec<String> = current.iter().map(|(k, _)| k.clone()).collect();
    let due = store
        .items_needing_body(&feed.id, &keys, MAX_BODY_ATTEMPTS, now)
        .map_err(RefreshError::State)?;
    let jobs: Vec<(String, Url)> = current
        .into_iter()
        .filter(|(k, link)| {
            due.contains(k) && may_follow(link, &feed.url, feed.bodies.allow_other_hosts)
        })
        .take(MAX_BODIES_PER_RUN)
        .collect();
    let counts = fill_bodies(services, feed, jobs, now).await?;
    if counts.filled == 0 {
        return Ok((counts, counts, Vec::new()));
    }
    let (title, lang) = store.page_meta(&feed.id).map_err(RefreshError::State)?;
    let channel = channel_info(config, feed, now, title, lang);
    let targets = format_targets(config, feed);
    let page = page_path(config, feed);
    let (services, feed) = (services.clone(), feed.clone());
    let (paths, _) = tokio::task::spawn_blocking(move || {
        publish_from_state(&services, &feed, now, &channel, &targets, &page)
    })
    .await
    .map_err(|e| RefreshError::Task(e.to_string()))??;
    Ok((counts, counts, paths))
}

/// Render every format of a feed from its stored items and write each to
/// its path. Returns the paths written and the number of items published.
/// Blocking (SQLite, fsync): call it on the blocking pool.
fn publish_from_state(
    services: &Services,
    feed: &Feed,
    now: DateTime<Utc>,
    channel: &ChannelInfo,
    targets: &[(Format, PathBuf)],
    page: &Path,
) -> Result<(Vec<PathBuf>, usize), RefreshError> {
    let (items, stored) = items_to_publish(services, feed, now)?;
    if items.is_empty() && stored > 0 && targets.iter().all(|(_, p)| p.is_file()) {
        // Publishing an empty feed would make every reader drop what it
        // shows; the filters are more likely wrong than every item.
        tracing::warn!(
            feed = %feed.id,
            "the include/exclude filters removed all {stored} items: nothing new published, \
             the previous files stay",
        );
        return Ok((Vec::new(), 0));
    }
    // Render every format first, then write: a render error leaves all
    // the files as they were.
    let mut rendered = Vec::new();
    for (format, path) in targets {
        let text = crate::publish::feed::render(*format, channel, &items).map_err(|source| {
            RefreshError::Render {
                format: format.name(),
                source,
            }
        })?;
        rendered.push((format.ext(), path.as_path(), text));
    }
    let page_html = render_page(services, feed, channel, PageStatus::ok(), &items, now)?;
    rendered.push(("html", page, page_html));
    store_documents(
        &services.store,
        &feed.id,
        rendered.iter().map(|(ext, _, text)| (*ext, text.as_str())),
    )?;
    let mut paths = Vec::new();
    for (_, path, text) in rendered {
        write_atomically(path, text.as_bytes()).map_err(RefreshError::Publish)?;
        paths.push(path.to_path_buf());
    }
    Ok((paths, items.len()))
}

/// Keep a feed's published documents (extension, text) in a shared state,
/// all in one transaction, before the files are written: every instance
/// serves them from there (see `state::documents`). A no-op on SQLite.
fn store_documents<'a>(
    store: &Store,
    feed: &str,
    docs: impl Iterator<Item = (&'a str, &'a str)>,
) -> Result<(), RefreshError> {
    if !store.is_shared() {
        return Ok(());
    }
    let now = Utc::now();
    let docs: Vec<Document> = docs
        .map(|(ext, text)| {
            Document::new(
                feed_document(feed, ext),
                Some(feed),
                text.as_bytes().to_vec(),
                now,
            )
        })
        .collect();
    store.store_documents(&docs).map_err(RefreshError::State)
}

/// The feed's HTML page (see `publish::page`).
fn render_page(
    services: &Services,
    feed: &Feed,
    channel: &ChannelInfo,
    status: PageStatus,
    items: &[Item],
    now: DateTime<Utc>,
) -> Result<String, RefreshError> {
    let ctx = PageContext {
        id: &feed.id,
        channel,
        formats: &feed.formats,
        status,
        generated: now,
    };
    services
        .templates()
        .page
        .render(&ctx, items)
        .map_err(RefreshError::Page)
}

/// Rewrite a feed's HTML page from its stored items with `status` (after a
/// run that published nothing: failed or drifted), so the page a reader
/// opens says what the index says. The title is the configured one (the
/// list page's own title is only known on a run that fetched it). Blocking.
pub fn republish_page(
    services: &Services,
    config: &Config,
    feed: &Feed,
    status: PageStatus,
    now: DateTime<Utc>,
) -> Result<(), RefreshError> {
    let (items, _) = items_to_publish(services, feed, now)?;
    let channel = channel_info(config, feed, now, None, None);
    let html = render_page(services, feed, &channel, status, &items, now)?;
    store_documents(
        &services.store,
        &feed.id,
        [("html", html.as_str())].into_iter(),
    )?;
    write_atomically(&page_path(config, feed), html.as_bytes()).map_err(RefreshError::Publish)
}

/// Every format the feed publishes with its file.
fn format_targets(config: &Config, feed: &Feed) -> Vec<(Format, PathBuf)> {
    feed.formats
        .iter()
        .map(|f| (*f, output_path(config, feed, *f)))
        .collect()
}

/// Path of a feed's HTML page: `<output_dir>/<id>.html`.
pub fn page_path(config: &Config, feed: &Feed) -> PathBuf {
    config.output_dir.join(format!("{}.html", feed.id))
}

/// The stored items a feed publishes now: retention, filters, the item
/// template; with the number of stored items the filters looked at.
/// Blocking (SQLite).
fn items_to_publish(
    services: &Services,
    feed: &Feed,
    now: DateTime<Utc>,
) -> Result<(Vec<Item>, usize), RefreshError> {
    let retention = Retention {
        // Filters drop items after the cut, so read a margin more.
        max_items: feed.max_items.saturating_mul(4),
        ..retention(feed)
    };
    let stored = services
        .store
        .published_items(&feed.id, now, &retention)
        .map_err(RefreshError::State)?;
    let filters = Filters::new(&feed.include, &feed.exclude, feed.filter_case_insensitive)
        .map_err(RefreshError::Filter)?;
    let mut items: Vec<Item> = stored
        .iter()
        .map(|s| s.to_item())
        .filter(|item| filters.keep(item))
        .take(feed.max_items)
        .collect();
    let templates = services.templates();
    for item in &mut items {
        // A broken template was rejected at load; a render error here
        // (e.g. a filter failing on odd data) keeps the plain body.
        match templates.item.render(item) {
            Ok(Some(html)) => item.body_html = Some(html),
            Ok(None) => {}
            Err(e) => tracing::warn!(feed = %feed.id, "{e}"),
        }
    }
    Ok((items, stored.len()))
}

/// How long and how many items a feed keeps.
fn retention(feed: &Feed) -> Retention {
    Retention {
        max_items: feed.max_items,
        max_age: chrono::Duration::from_std(feed.max_age).ok(),
    }
}

/// Channel facts of a feed.
fn channel_info(
    config: &Config,
    feed: &Feed,
    now: DateTime<Utc>,
    page_title: Option<String>,
    lang: Option<String>,
) -> ChannelInfo {
    ChannelInfo {
        title: feed
            .title
            .clone()
            .or(page_title)
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| feed.id.clone()),
        link: feed.url.clone(),
        description: feed
            .description
            .clone()
            .unwrap_or_else(|| format!("Records of {}, found by feedmine", feed.url)),
        self_url: config
            .public_url
            .as_ref()
            .and_then(|u| u.join(&format!("{}.xml", feed.id)).ok()),
        last_build: now,
        language: lang,
        stylesheet: Some(STYLESHEET_FILE.to_string()),
    }
}

/// Write `feed.xsl` into the output directory (at start-up and after a
/// reload). `feeds.opml` is [`write_opml`]'s, once the state (which knows
/// the page titles) is open: a state that cannot be opened leaves it as it
/// was.
pub fn publish_shared_files(config: &Config, templates: &Templates) -> Result<(), PublishError> {
    write_atomically(
        &config.output_dir.join(STYLESHEET_FILE),
        templates.stylesheet.as_bytes(),
    )
}

/// Keep `feed.xsl` in a shared state too (at start-up and after a reload),
/// so every instance serves the same stylesheet. A no-op on SQLite.
pub fn store_shared_documents(store: &Store, templates: &Templates) -> Result<(), StateError> {
    if !store.is_shared() {
        return Ok(());
    }
    let xsl = Document::new(
        XSL_DOCUMENT.to_string(),
        None,
        templates.stylesheet.as_bytes().to_vec(),
        Utc::now(),
    );
    store.store_documents(&[xsl])
}

/// Write `feeds.opml`: each feed titled by its config `title`, else (with
/// a store) its list page's own `<title>`, else its id; `xmlUrl`s relative
/// to the file's own directory, or under `public_url`.
pub fn write_opml(config: &Config, store: Option<&Store>) -> Result<(), PublishError> {
    // One read for every feed: this runs after any run whose page title
    // changed, and one query per feed made a cold start of N feeds cost N²
    // queries (minutes over a networked database).
    let titles = store.and_then(|s| s.page_titles().ok()).unwrap_or_default();
    let entries: Vec<OpmlEntry> = config
        .feeds
        .iter()
        .map(|f| {
            let page_title = titles.get(&f.id).cloned().filter(|t| !t.trim().is_empty());
            OpmlEntry::new(
                &f.id,
                f.title
                    .as_deref()
                    .or(page_title.as_deref())
                    .unwrap_or(&f.id),
                f.url.as_str(),
                &f.formats,
                config.public_url.as_ref(),
            )
        })
        .collect();
    write_atomically(
        &config.output_dir.join(OPML_FILE),
        crate::publish::feed::render_opml(&entries).as_bytes(),
    )
}

/// Why the fetcher refused a URL, naming the setting that allows it when
/// the cause is the address policy (the site said nothing).
fn refusal_message(e: &FetchError) -> String {
    format!(
        "{} (feedmine refused it, the site was not asked: article links to private, loopback \
         or other non-public addresses need `allow_private_addresses = true` on the feed)",
        anyhow_like(e)
    )
}

/// True when an item's link may be followed for its body: http(s) on the
/// list page's host (any host with `allow_other_hosts`), or a local file
/// when the list page itself is one. Address checks (SSRF) happen in
/// `fetch` at connect time, for every redirect hop.
pub fn may_follow(link: &Url, list_url: &Url, allow_other_hosts: bool) -> bool {
    matches!(link.scheme(), "http" | "https" | "file")
        && link.scheme() == list_url.scheme()
        && (allow_other_hosts || link.host_str() == list_url.host_str())
}

/// Fetch each job's page, extract its main content and store it. Returns
/// (filled, failed).
async fn fill_bodies(
    services: &Services,
    feed: &Feed,
    jobs: Vec<(String, Url)>,
    now: DateTime<Utc>,
) -> Result<BodyCounts, RefreshError> {
    if jobs.is_empty() {
        return Ok(BodyCounts::default());
    }
    let method: Method = match feed.bodies.method.parse() {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(feed = %feed.id, "bodies skipped: {e}");
            return Ok(BodyCounts::default());
        }
    };
    let fetcher = services
        .fetcher(article_fetch_options(feed))
        .map_err(RefreshError::Client)?;
    let check_robots = feed.robots != RobotsPolicy::Off;
    // `bodies_delay` asks for more spacing than the daemon-wide host delay
    // on this feed's article hosts: raise theirs (never lower it).
    for host in jobs.iter().filter_map(|(_, l)| l.host_str()) {
        if feed.bodies.delay > services.politeness.host_delay(host) {
            services.politeness.set_host_delay(host, feed.bodies.delay);
        }
    }
    // Each body is recorded as it arrives, so the bodies of a run are never
    // all in memory together.
    let mut results = futures_util::stream::iter(jobs)
        .map(|(key, link)| {
            let fetcher = fetcher.clone();
            let params = feed.bodies.params.clone();
            let metrics = services.metrics.clone();
            let robots = services.robots.clone();
            let memory = services.memory.clone();
            let renderer = services.renderer.clone();
            async move {
                if check_robots && link.scheme() != "file" {
                    match robots.check(&fetcher, &link).await {
                        RobotsVerdict::Allowed => {}
                        RobotsVerdict::Disallowed => {
                            return (key, link, Err("disallowed by robots.txt".to_string()));
                        }
                        RobotsVerdict::Refused(e) => {
                            let why = refusal_message(&e);
                            return (key, link, Err(format!("robots.txt not requested: {why}")));
                        }
                    }
                }
                let t = Instant::now();
                let mut charge = memory.charge();
                if feed.bodies.render {
                    let request = render_request(feed, &link, feed.bodies.timeout);
                    let rendered =
                        load_in_browser(&renderer, &request, &feed.id, &mut charge).await;
                    metrics.record_fetch(FetchKind::Article, t.elapsed(), rendered.is_ok());
                    let page = match rendered {
                        Ok(p) => p,
                        Err(e) => return (key, link, Err(anyhow_like(&e))),
                    };
                    return (key, link, extract_body(page, charge, method, &params).await);
                }
                let fetched = fetcher.fetch_metered(&link, &mut charge).await;
                metrics.record_fetch(FetchKind::Article, t.elapsed(), fetched.is_ok());
                let page = match fetched {
                    Ok(p) => p,
                    Err(e @ FetchError::Blocked { .. }) => {
                        return (key, link, Err(refusal_message(&e)));
                    }
                    Err(e) if is_missing_page(&e) => {
                        return (key, link, Err(format!("{MISSING_PAGE}{}", anyhow_like(&e))));
                    }
                    Err(e) => return (key, link, Err(anyhow_like(&e))),
                };
                let r = extract_body(page, charge, method, &params).await;
                (key, link, r)
            }
        })
        .buffer_unordered(feed.bodies.concurrency.max(1));
    let mut counts = BodyCounts::default();
    while let Some((key, link, r)) = results.next().await {
        let r: Result<Found, String> = r;
        let no_meta = ArticleMeta::default();
        let (body, meta) = match &r {
            Ok((html, meta)) => {
                counts.filled += 1;
                (Some(html.as_str()), meta)
            }
            Err(reason) if reason.starts_with(MISSING_PAGE) => {
                counts.missing += 1;
                tracing::info!(feed = %feed.id, link = %link, "{reason}");
                (None, &no_meta)
            }
            Err(reason) => {
                counts.failed += 1;
                tracing::warn!(feed = %feed.id, link = %link, "body not extracted: {reason}");
                (None, &no_meta)
            }
        };
        services
            .store
            .record_body(&feed.id, &key, body, meta, now)
            .map_err(RefreshError::State)?;
    }
    Ok(counts)
}

/// What one article page gave: its body and metadata, or why not.
type Found = (String, ArticleMeta);

/// The body of an article page, extracted on the blocking pool while the
/// page stays charged to the memory budget.
async fn extract_body(
    page: Page,
    charge: crate::fetch::memory::Charge,
    method: Method,
    params: &crate::bodies::BodyParams,
) -> Result<Found, String> {
    let mut charge = charge;
    let params = params.clone();
    let base = page.final_url.clone();
    let link = page.final_url.clone();
    // Charged until the tree is dropped: see `fetch::memory`.
    let Page { text, .. } = page;
    charge.grow_to(parse_cost(&text, ParseKind::Article)).await;
    let extracted = tokio::task::spawn_blocking(move || {
        let body = bodies::extract(&text, Some(&base), method, &params);
        drop(charge);
        body
    })
    .await;
    if let Ok(Ok(x)) = &extracted
        && x.cut_at_budget
    {
        tracing::info!(
            link = %link,
            "the article has more elements than the parse budget: only its first part was read"
        );
    }
    match extracted {
        Ok(Ok(x)) if !x.html.trim().is_empty() => Ok((
            x.html,
            ArticleMeta {
                author: x.byline,
                tags: x.tags,
            },
        )),
        Ok(Ok(x)) => Err(x
            .empty_reason
            .unwrap_or_else(|| "no main text found".to_string())),
        Ok(Err(e)) => Err(e.to_string()),
        Err(e) => Err(format!("extraction task failed: {e}")),
    }
}

/// What one round of body fetches did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BodyCounts {
    pub filled: usize,
    pub failed: usize,
    /// Linked pages that do not exist (see [`is_missing_page`]).
    pub missing: usize,
}

/// Start of the reason of a body whose page does not exist.
const MISSING_PAGE: &str = "no page at the item's link, it keeps its summary: ";

/// A linked page that does not exist: HTTP 404 or 410, or a local file
/// that is not there. Sites and example sets link pages they never wrote;
/// that is not a failure to warn about (the fetch is still counted and
/// retried with the backoff, in case the page appears).
fn is_missing_page(e: &FetchError) -> bool {
    match e {
        FetchError::Status { status, .. } => matches!(status, 404 | 410),
        FetchError::File { source, .. } => source.kind() == std::io::ErrorKind::NotFound,
        _ => false,
    }
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
