//! The scheduler: runs every feed on its own schedule, for years.
//!
//! One tokio task per feed (a *worker*) sleeps until the feed is due, runs
//! it ([`crate::refresh::run_feed`]) and computes the next due time. So:
//! - a feed never runs twice at once (its worker is sequential), and a run
//!   that outlives its interval delays the next one instead of piling up
//!   (the next due time is computed after the run ends);
//! - the next due time is the schedule's next firing after the last run's
//!   start (from the state, so it survives restarts: a run missed while the
//!   daemon was down happens once at start-up, not once per missed slot),
//!   pushed back by exponential backoff with jitter after failures and by
//!   any `Retry-After`, plus the feed's configured jitter;
//! - a feed that never ran runs at once;
//! - sleeps are capped at [`MAX_SLEEP`] and the due time recomputed, so a
//!   clock jump (suspend, NTP step) costs at most that much lateness; an
//!   idle daemon wakes once a minute per feed and does nothing else.
//!
//! Reloading (SIGHUP or `--watch-config`) loads the file again; a broken
//! file is rejected with its errors and the old config keeps running.
//! Changed feeds get their new config at their next wake-up; removed feeds
//! stop after their current run; new feeds start.
//!
//! Shutdown (SIGTERM/SIGINT): no new runs start; runs in flight get
//! [`DaemonOptions::shutdown_grace`] to finish and are abandoned after that.
//! Abandoning is safe at any point: files are replaced atomically and the
//! state changes in transactions (see `refresh`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use chrono::{DateTime, Utc};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::config::{self, Config, ConfigError, Feed};
use crate::fetch::politeness::Backoff;
use crate::publish::page::PageStatus;
use crate::publish::templates::{IndexContext, Templates};
use crate::refresh::{self, RefreshError, RunReport, Services};
use crate::serve::status::{FeedStatus, Health, LastRun, RunOutcome, StatusBoard};
use crate::state::{RunRow, StateError, Store};

pub mod cluster;
pub mod report;

/// Longest single sleep of a worker before it looks at the clock again.
pub const MAX_SLEEP: Duration = Duration::from_secs(60);
/// How often `--watch-config` looks at the config file.
pub const WATCH_INTERVAL: Duration = Duration::from_secs(2);
/// Default time in-flight runs get to finish at shutdown.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// How `feedmine run` was asked to behave.
#[derive(Debug, Clone)]
pub struct DaemonOptions {
    pub config_path: PathBuf,
    /// Serve the feeds here (overrides the config's `listen`).
    pub listen: Option<SocketAddr>,
    /// Run every feed at start-up, then follow the schedules.
    pub once_now: bool,
    /// Reload the config when the file changes.
    pub watch_config: bool,
    /// See [`DEFAULT_SHUTDOWN_GRACE`].
    pub shutdown_grace: Duration,
}

/// Why the daemon could not start (once started, it does not stop on
/// errors: they are logged and shown on `/health`).
#[derive(Debug, thiserror::Error)]
pub enum DaemonError {
    #[error("invalid config")]
    Config(#[source] ConfigError),
    #[error("cannot open the state file")]
    State(#[source] StateError),
    #[error("cannot load the templates")]
    Templates(#[source] crate::publish::templates::TemplateError),
    #[error("cannot listen on {addr}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("the HTTP server failed")]
    Server(#[source] crate::serve::server::ServerError),
    #[error("cannot start the console")]
    Console(#[source] crate::serve::console::ConsoleError),
}

/// Load the templates a config names (bundled ones where it names none).
pub fn load_templates(
    config: &Config,
) -> Result<Templates, crate::publish::templates::TemplateError> {
    let mut t = Templates::load(
        None,
        config.index_template.as_deref(),
        config.stylesheet.as_deref(),
    )?
    .with_page(config.page_template.as_deref())?;
    t.item = config.item_template.clone();
    Ok(t)
}

/// Failed runs in a row at the start of `history` (newest first).
fn failures_in_a_row(history: &[RunRow]) -> u32 {
    let n = history.iter().take_while(|r| r.status == "failed").count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The title the index and the OPML show: the config's, else the list
/// page's own `<title>` (as last seen), else the id.
fn display_title(store: &Store, feed: &Feed) -> String {
    feed.title
        .clone()
        .or_else(|| store.page_meta(&feed.id).ok().and_then(|(t, _)| t))
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| feed.id.clone())
}

/// A status entry for a feed that has not run in this process yet.
fn initial_status(feed: &Feed, history: &[RunRow], items: usize) -> FeedStatus {
    let last = history.first();
    FeedStatus {
        id: feed.id.clone(),
        title: feed.title.clone().unwrap_or_else(|| feed.id.clone()),
        source: crate::fetch::redact::redact_url(&feed.url),
        formats: feed.formats.clone(),
        health: match last {
            None => Health::Pending,
            Some(r) if r.status == "failed" => Health::Failing {
                error: r.error.clone().unwrap_or_default(),
                consecutive_failures: failures_in_a_row(history),
            },
            Some(r) if r.status == "degraded" => Health::Degraded {
                reasons: r.error.iter().cloned().collect(),
            },
            Some(_) => Health::Ok,
        },
        last_run: last.map(last_run_of),
        last_success: None,
        items,
        next_run: None,
    }
}

fn last_run_of(r: &RunRow) -> LastRun {
    LastRun {
        started: r.started,
        duration_ms: r.duration_ms,
        outcome: match r.status.as_str() {
            "published" => RunOutcome::Published,
            "not_modified" => RunOutcome::NotModified,
            "degraded" => RunOutcome::Degraded,
            _ => RunOutcome::Failed,
        },
        records: r.records,
        new_items: r.new_items,
    }
}

/// What a worker remembers between runs (rebuilt from the state's run
/// history at start-up).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunMemory {
    pub last_start: Option<DateTime<Utc>>,
    pub last_end: Option<DateTime<Utc>>,
    pub consecutive_failures: u32,
    /// The last failure's `Retry-After`.
    pub retry_after: Option<Duration>,
}

/// What the run history (newest first) says about the last run.
fn memory_of(history: &[RunRow]) -> RunMemory {
    RunMemory {
        last_start: history.first().map(|r| r.started),
        last_end: history.first().map(|r| {
            r.started + chrono::Duration::milliseconds(i64::try_from(r.duration_ms).unwrap_or(0))
        }),
        consecutive_failures: failures_in_a_row(history),
        retry_after: None,
    }
}

/// When a feed is next due (pure; see the module header for the rules).
pub fn next_due(
    feed: &Feed,
    memory: &RunMemory,
    backoff: &Backoff,
    rng: &mut fastrand::Rng,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    let RunMemory {
        last_start,
        last_end,
        consecutive_failures,
        retry_after,
    } = memory.clone();
    let Some(last_start) = last_start else {
        return now;
    };
    let scheduled = feed
        .schedule
        .next_after_in(&feed.timezone, last_start)
        .unwrap_or(now + chrono::Duration::days(365));
    let mut due = scheduled;
    let end = last_end.unwrap_or(last_start);
    if consecutive_failures > 0 {
        let wait = backoff.delay(consecutive_failures, rng);
        due = due.max(end + chrono::Duration::from_std(wait).unwrap_or_default());
    }
    if let Some(ra) = retry_after {
        due = due.max(end + chrono::Duration::from_std(ra).unwrap_or_default());
    }
    if !feed.jitter.is_zero() {
        let ms = u64::try_from(feed.jitter.as_millis()).unwrap_or(u64::MAX);
        due += chrono::Duration::milliseconds(i64::try_from(rng.u64(0..ms)).unwrap_or(0));
    }
    due
}

/// Everything workers share.
struct Shared {
    services: Services,
    /// This instance among those sharing the state (leases).
    cluster: Arc<cluster::Cluster>,
    board: StatusBoard,
    backoff: Backoff,
    /// Runs in flight are abandoned when this is cancelled.
    abort: CancellationToken,
}

type FeedConfig = (Arc<Config>, Feed);

struct WorkerHandle {
    tx: watch::Sender<FeedConfig>,
    stop: CancellationToken,
}

/// Run the daemon until `shutdown` is cancelled. `reload` receives a
/// message for each SIGHUP.
pub async fn run(
    opts: DaemonOptions,
    shutdown: CancellationToken,
    reload: tokio::sync::mpsc::Receiver<()>,
) -> Result<(), DaemonError> {
    run_with_board(opts, shutdown, reload, StatusBoard::new(), None).await
}

/// [`run`] with a status board the caller can watch (benchmarks, tests),
/// and optionally a pre-bound listener for the server.
pub async fn run_with_board(
    opts: DaemonOptions,
    shutdown: CancellationToken,
    mut reload: tokio::sync::mpsc::Receiver<()>,
    board: StatusBoard,
    listener: Option<tokio::net::TcpListener>,
) -> Result<(), DaemonError> {
    let config = Arc::new(config::load(&opts.config_path).map_err(DaemonError::Config)?);
    let templates = load_templates(&config).map_err(DaemonError::Templates)?;
    // A full or read-only output disk must not stop the daemon from
    // serving the files it already has.
    if let Err(e) = refresh::publish_shared_files(&config, &templates) {
        tracing::warn!(
            "cannot write feed.xsl/feeds.opml: {}",
            refresh::anyhow_like(&e)
        );
    }
    remove_leftovers(&config);
    let services = Services::open(&config, templates).map_err(DaemonError::State)?;
    services.settle_unfinished_runs();
    // Again with the page titles the state remembers.
    if let Err(e) = refresh::write_opml(&config, Some(&services.store)) {
        tracing::warn!("cannot write feeds.opml: {}", refresh::anyhow_like(&e));
    }
    store_stylesheet(&services);
    let cluster = cluster::Cluster::new(services.store.clone(), &config, services.metrics.clone());
    // Another instance's reload is picked up here too (see `cluster`).
    let (foreign_tx, mut foreign_config) = tokio::sync::mpsc::channel::<()>(1);
    cluster.on_foreign_config(foreign_tx);
    let heartbeat_stop = CancellationToken::new();
    let heartbeat = cluster.spawn_heartbeat(heartbeat_stop.clone());
    let shared = Arc::new(Shared {
        cluster: cluster.clone(),
        services: services.clone(),
        board: board.clone(),
        backoff: Backoff {
            base: config.limits.backoff_base,
            max: config.limits.backoff_max,
        },
        abort: CancellationToken::new(),
    });

    let mut tasks = JoinSet::new();
    // "Add feed" in the console asks for a reload and waits for its outcome.
    let (console_reload_tx, mut console_reload) =
        tokio::sync::mpsc::channel::<crate::serve::console::ReloadAck>(4);
    let listener = match (listener, opts.listen.or(config.listen)) {
        (Some(l), _) => Some(l),
        (None, Some(addr)) => Some(
            tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|source| DaemonError::Bind { addr, source })?,
        ),
        (None, None) => None,
    };
    if let Some(listener) = listener {
        let local = listener.local_addr().map_err(|source| DaemonError::Bind {
            addr: SocketAddr::from(([0, 0, 0, 0], 0)),
            source,
        })?;
        tracing::info!("serving the feeds on http://{local}/");
        if config.bearer_token.is_some() {
            tracing::info!("auth on: every path but /health needs the token");
        } else {
            tracing::warn!(
                "auth off: no bearer_token or FEEDMINE_TOKEN, anyone who can reach the server reads every feed"
            );
        }
        let options = crate::serve::server::ServerOptions {
            bearer_token: config.bearer_token.clone(),
            public_url: config.public_url.clone(),
            ..crate::serve::server::ServerOptions::new(config.output_dir.clone())
        };
        let console = if config.console {
            let console = crate::serve::console::Console::new(
                opts.config_path.clone(),
                services.clone(),
                config.console_write,
                console_reload_tx.clone(),
                options.request_timeout,
            )
            .map_err(DaemonError::Console)?;
            tracing::info!(
                write = config.console_write,
                "the console is on at http://{local}/console"
            );
            Some(Arc::new(console))
        } else {
            None
        };
        let state = crate::serve::server::AppState {
            board: board.clone(),
            metrics: services.metrics.clone(),
            render_index: index_renderer(
                services.clone(),
                config.public_url.clone(),
                config.console,
                cluster.shared().then(|| cluster.clone()),
            ),
            options: Arc::new(options),
            console,
            cluster: cluster.shared().then(|| {
                let view = crate::serve::cluster::ClusterView::new(
                    services.store.clone(),
                    cluster.peers(),
                );
                // A copy of every feed, for when the database goes away.
                let every = config.limits.lease_time / 3;
                view.spawn_warming(board.clone(), every, shutdown.clone());
                view
            }),
        };
        let token = shutdown.clone();
        tasks.spawn(async move {
            if let Err(e) = crate::serve::server::serve(listener, state, token).await {
                tracing::error!("the HTTP server stopped: {}", refresh::anyhow_like(&e));
            }
        });
    }

    let mut workers: HashMap<String, WorkerHandle> = HashMap::new();
    for feed in &config.feeds {
        let h = spawn_worker(&mut tasks, &shared, &config, feed, opts.once_now, &shutdown);
        workers.insert(feed.id.clone(), h);
    }
    services.metrics.set_feeds(workers.len());
    tracing::info!(
        feeds = workers.len(),
        "feedmine daemon started with {}",
        opts.config_path.display()
    );

    let mut watched = file_stamp(&opts.config_path);
    let mut watch_tick = tokio::time::interval(WATCH_INTERVAL);
    loop {
        let (reload_now, ack) = tokio::select! {
            _ = shutdown.cancelled() => break,
            msg = reload.recv() => (msg.is_some(), None),
            Some(()) = foreign_config.recv() => (true, None),
            Some(ack) = console_reload.recv() => {
                // The console wrote the file: no second reload from the watch.
                watched = file_stamp(&opts.config_path);
                (true, Some(ack))
            }
            _ = watch_tick.tick(), if opts.watch_config => {
                let stamp = file_stamp(&opts.config_path);
                let changed = stamp != watched;
                watched = stamp;
                (changed, None)
            }
        };
        if !reload_now {
            continue;
        }
        let outcome = match reload_config(&opts.config_path) {
            Err(e) => {
                let e = refresh::anyhow_like(&e);
                tracing::error!("config reload rejected, the previous config keeps running: {e}");
                Err(e)
            }
            Ok((new, templates)) => {
                let new = Arc::new(new);
                if let Err(e) = refresh::publish_shared_files(&new, &templates)
                    .and_then(|()| refresh::write_opml(&new, Some(&shared.services.store)))
                {
                    tracing::warn!(
                        "cannot write feed.xsl/feeds.opml: {}",
                        refresh::anyhow_like(&e)
                    );
                }
                services.set_templates(templates);
                store_stylesheet(&services);
                cluster.set_config(&new);
                let ids: Vec<String> = new.feeds.iter().map(|f| f.id.clone()).collect();
                workers.retain(|id, h| {
                    let keep = ids.contains(id);
                    if !keep {
                        tracing::info!(feed = %id, "feed removed from the config");
                        h.stop.cancel();
                    }
                    keep
                });
                board.retain(&ids);
                for feed in &new.feeds {
                    match workers.get(&feed.id) {
                        Some(h) => {
                            let _ = h.tx.send((new.clone(), feed.clone()));
                            board.update(&feed.id, |s| {
                                s.title = feed.title.clone().unwrap_or_else(|| feed.id.clone());
                                s.source = feed.url.to_string();
                                s.formats = feed.formats.clone();
                            });
                        }
                        None => {
                            tracing::info!(feed = %feed.id, "feed added to the config");
                            let h = spawn_worker(&mut tasks, &shared, &new, feed, false, &shutdown);
                            workers.insert(feed.id.clone(), h);
                        }
                    }
                }
                services.metrics.set_feeds(workers.len());
                tracing::info!(feeds = workers.len(), "config reloaded");
                Ok(workers.len())
            }
        };
        if let Some(ack) = ack {
            let _ = ack.send(outcome);
        }
    }

    tracing::info!(
        "shutting down: waiting up to {:?} for runs in flight",
        opts.shutdown_grace
    );
    for h in workers.values() {
        h.stop.cancel();
    }
    let grace = tokio::time::sleep(opts.shutdown_grace);
    tokio::pin!(grace);
    // A run stuck in CPU-bound parsing (spawn_blocking) cannot see the abort
    // token; after this extra second the daemon stops waiting for it.
    let hard = tokio::time::sleep(opts.shutdown_grace + ABANDON_AFTER_ABORT);
    tokio::pin!(hard);
    loop {
        tokio::select! {
            next = tasks.join_next() => if next.is_none() { break },
            _ = &mut grace, if !shared.abort.is_cancelled() => {
                tracing::warn!("abandoning runs still in flight");
                shared.abort.cancel();
            }
            _ = &mut hard => {
                tracing::warn!(left = tasks.len(), "runs did not stop after abort; exiting without them");
                break;
            }
        }
    }
    // Unregister (and give up any lease left) only once no run is in flight.
    heartbeat_stop.cancel();
    let _ = tokio::time::timeout(ABANDON_AFTER_ABORT, heartbeat).await;
    // The shared browser, if a feed started it (bounded: exiting matters more).
    let _ = tokio::time::timeout(ABANDON_AFTER_ABORT, shared.services.renderer.shutdown()).await;
    tracing::info!("stopped");
    Ok(())
}

/// How long past the shutdown grace the daemon waits for aborted runs
/// before it exits without them (a page still parsing cannot be interrupted).
pub const ABANDON_AFTER_ABORT: Duration = Duration::from_secs(1);

/// Keep the current stylesheet in a shared state (a warning on failure:
/// the instances keep serving the copy they have).
fn store_stylesheet(services: &Services) {
    if let Err(e) = refresh::store_shared_documents(&services.store, &services.templates()) {
        tracing::warn!(
            "cannot store feed.xsl in the state: {}",
            refresh::anyhow_like(&e)
        );
    }
}

/// The server's index page renderer over the current templates; with a
/// shared state's `cluster`, the page shows the instances and leases.
fn index_renderer(
    services: Services,
    public_url: Option<url::Url>,
    console: bool,
    cluster: Option<Arc<cluster::Cluster>>,
) -> crate::serve::server::IndexRenderer {
    Arc::new(move |feeds: &[FeedStatus]| {
        let ctx = IndexContext {
            generated: Utc::now(),
            public_url: public_url.clone(),
            version: env!("CARGO_PKG_VERSION"),
            console,
            cluster: cluster.as_ref().map(|c| c.info()),
        };
        services
            .templates()
            .index
            .render(feeds, &ctx)
            .map_err(|e| e.to_string())
    })
}

#[derive(Debug, thiserror::Error)]
enum ReloadError {
    #[error(transparent)]
    Config(ConfigError),
    #[error("cannot load the templates")]
    Templates(#[source] crate::publish::templates::TemplateError),
}

fn reload_config(path: &Path) -> Result<(Config, Templates), ReloadError> {
    let config = config::load(path).map_err(ReloadError::Config)?;
    let templates = load_templates(&config).map_err(ReloadError::Templates)?;
    Ok((config, templates))
}

/// Modification time and length of a file (None when unreadable).
fn file_stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let m = std::fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

fn spawn_worker(
    tasks: &mut JoinSet<()>,
    shared: &Arc<Shared>,
    config: &Arc<Config>,
    feed: &Feed,
    run_now: bool,
    shutdown: &CancellationToken,
) -> WorkerHandle {
    let (tx, rx) = watch::channel((config.clone(), feed.clone()));
    let stop = shutdown.child_token();
    // On the board before the task starts: a reload is acknowledged (and
    // the console's "Add feed" answered) only once the new feed is listed.
    let store = &shared.services.store;
    let history = store.recent_runs(&feed.id, 50).unwrap_or_default();
    let items = store.item_count(&feed.id).unwrap_or(0);
    let mut status = initial_status(feed, &history, items.min(feed.max_items));
    status.title = display_title(store, feed);
    shared.board.put(status);
    let shared = shared.clone();
    let worker_stop = stop.clone();
    tasks.spawn(async move { worker(shared, rx, worker_stop, run_now, history).await });
    WorkerHandle { tx, stop }
}

async fn worker(
    shared: Arc<Shared>,
    mut rx: watch::Receiver<FeedConfig>,
    stop: CancellationToken,
    mut run_now: bool,
    history: Vec<RunRow>,
) {
    let mut memory = memory_of(&history);
    let mut rng = fastrand::Rng::new();
    loop {
        let (config, feed) = rx.borrow_and_update().clone();
        let now = Utc::now();
        let due = if run_now {
            now
        } else {
            next_due(&feed, &memory, &shared.backoff, &mut rng, now)
        };
        shared.board.update(&feed.id, |s| s.next_run = Some(due));
        if due > now {
            let wait = (due - now).to_std().unwrap_or_default().min(MAX_SLEEP);
            tokio::select! {
                _ = stop.cancelled() => return,
                _ = rx.changed() => continue,
                _ = tokio::time::sleep(wait) => {}
            }
            if Utc::now() < due {
                continue;
            }
        }
        if stop.is_cancelled() {
            return;
        }
        let Some(lease) = take_lease(&shared, &feed, &mut memory, &mut run_now, &stop).await else {
            continue;
        };
        run_now = false;
        let started = Utc::now();
        let result = tokio::select! {
            r = refresh::run_feed(&shared.services, &config, &feed, started) => r,
            _ = shared.abort.cancelled() => {
                tracing::warn!(feed = %feed.id, "run abandoned at shutdown");
                return;
            }
        };
        lease.release();
        let ended = Utc::now();
        memory.last_start = Some(started);
        memory.last_end = Some(ended);
        memory.retry_after = None;
        let was_ok = shared
            .board
            .get(&feed.id)
            .is_some_and(|s| s.health == Health::Ok);
        report(&shared, &feed, started, ended, &result, &mut memory);
        if let Some(status) = page_status_after(&result, was_ok, memory.consecutive_failures) {
            let (services, config, feed) = (shared.services.clone(), config.clone(), feed.clone());
            let written = tokio::task::spawn_blocking(move || {
                refresh::republish_page(&services, &config, &feed, status, Utc::now())
                    .map_err(|e| (feed.id.clone(), refresh::anyhow_like(&e)))
            })
            .await;
            if let Ok(Err((id, e))) = written {
                tracing::warn!(feed = %id, "cannot update the feed's HTML page: {e}");
            }
        }
        if stop.is_cancelled() {
            return;
        }
    }
}

/// Take the feed's lease for a run that is due. `None` (skip this due
/// time) when another instance holds it, or ran the feed since `memory`
/// was read (then `memory` is the shared history's and the board shows the
/// other instance's run), or the database cannot be reached; a busy feed
/// is looked at again after [`cluster::Cluster::busy_poll`]. A
/// `--once-now` run (`run_now`) another instance made since this one
/// started counts as this instance's: `run_now` is cleared.
async fn take_lease(
    shared: &Shared,
    feed: &Feed,
    memory: &mut RunMemory,
    run_now: &mut bool,
    stop: &CancellationToken,
) -> Option<cluster::Held> {
    let held = match shared.cluster.take(&feed.id) {
        Ok(Some(held)) => held,
        Ok(None) => {
            tracing::debug!(feed = %feed.id, "another instance holds the feed's lease");
            refresh_memory(shared, feed, memory);
            pause(shared.cluster.busy_poll(), stop).await;
            return None;
        }
        Err(e) => {
            tracing::warn!(feed = %feed.id, "cannot take the feed's lease: {}", refresh::anyhow_like(&e));
            pause(shared.cluster.busy_poll(), stop).await;
            return None;
        }
    };
    if !shared.cluster.shared() {
        return Some(held);
    }
    let settled = match shared.services.store.settle_unfinished_run(&feed.id) {
        Ok(Some(t)) => {
            tracing::error!(
                feed = %feed.id,
                "the run started at {} did not finish (its instance died): recorded as failed",
                t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            );
            true
        }
        Ok(None) => false,
        Err(e) => {
            tracing::warn!(feed = %feed.id, "{}", refresh::anyhow_like(&e));
            false
        }
    };
    refresh_memory(shared, feed, memory);
    let now = Utc::now();
    let still_due = if retry_cut_run(settled, memory) {
        tracing::info!(feed = %feed.id, "running it again now, in this instance");
        true
    } else if *run_now {
        // --once-now: once per start of this instance, by whichever runs it.
        memory
            .last_start
            .is_none_or(|t| t < shared.cluster.started())
    } else {
        next_due(
            feed,
            memory,
            &shared.backoff,
            &mut fastrand::Rng::new(),
            now,
        ) <= now
    };
    if still_due {
        Some(held)
    } else {
        // Without this, a --once-now worker would ask for the lease again
        // at once, for ever.
        *run_now = false;
        held.release();
        None
    }
}

/// Whether a run cut by its instance's death (`settled`: just recorded as
/// failed) is run again at once rather than at the next due time: yes when
/// it is the only failure in a row, so a feed resumes within the lease
/// time after an instance dies. A second cut in a row backs off like any
/// failure: a page that kills the instances running it takes down at most
/// two of them before it waits.
fn retry_cut_run(settled: bool, memory: &RunMemory) -> bool {
    settled && memory.consecutive_failures == 1
}

/// Read the feed's run history (shared states: another instance may have
/// run it) into `memory` and onto the board. Keeps a `Retry-After`.
fn refresh_memory(shared: &Shared, feed: &Feed, memory: &mut RunMemory) {
    if !shared.cluster.shared() {
        return;
    }
    let Ok(history) = shared.services.store.recent_runs(&feed.id, 50) else {
        return;
    };
    let fresh = memory_of(&history);
    if fresh.last_start == memory.last_start {
        return;
    }
    let retry_after = memory.retry_after;
    *memory = RunMemory {
        retry_after,
        ..fresh
    };
    // The other instance's run, as its own board shows it.
    let store = &shared.services.store;
    let items = store.item_count(&feed.id).unwrap_or(0).min(feed.max_items);
    let seen = initial_status(feed, &history, items);
    let title = display_title(store, feed);
    shared.board.update(&feed.id, |s| {
        s.title = title;
        s.health = seen.health;
        s.last_run = seen.last_run;
        s.items = seen.items;
    });
}

/// Sleep `d`, or less when `stop` is cancelled.
async fn pause(d: Duration, stop: &CancellationToken) {
    tokio::select! {
        _ = stop.cancelled() => {}
        _ = tokio::time::sleep(d) => {}
    }
}

/// The status a feed's HTML page must be rewritten with after a run that
/// did not publish (a publishing run writes the page itself): failing,
/// degraded, or ok again after either.
fn page_status_after(
    result: &Result<RunReport, RefreshError>,
    was_ok: bool,
    failures: u32,
) -> Option<PageStatus> {
    match result {
        Ok(r) if r.outcome == RunOutcome::Published => None,
        Ok(r) if !r.drift.is_empty() => Some(PageStatus {
            word: "degraded",
            details: r.drift.clone(),
        }),
        Ok(_) => (!was_ok).then(PageStatus::ok),
        Err(e) => Some(PageStatus {
            word: "failing",
            details: vec![
                refresh::anyhow_like(e),
                format!(
                    "{failures} failure{} in a row; the items below are from the last good run",
                    if failures == 1 { "" } else { "s" }
                ),
            ],
        }),
    }
}

/// Log a finished run and put it on the status board.
fn report(
    shared: &Shared,
    feed: &Feed,
    started: DateTime<Utc>,
    ended: DateTime<Utc>,
    result: &Result<RunReport, RefreshError>,
    memory: &mut RunMemory,
) {
    let duration_ms = u64::try_from((ended - started).num_milliseconds()).unwrap_or(0);
    match result {
        Ok(r) => {
            memory.consecutive_failures = 0;
            let health = if r.drift.is_empty() {
                Health::Ok
            } else {
                Health::Degraded {
                    reasons: r.drift.clone(),
                }
            };
            match r.outcome {
                RunOutcome::Published => tracing::info!(
                    feed = %feed.id,
                    records = r.records,
                    new = r.new_items,
                    items = r.published,
                    bodies = r.bodies_filled,
                    ms = duration_ms,
                    "published"
                ),
                RunOutcome::NotModified => {
                    tracing::debug!(feed = %feed.id, ms = duration_ms, "not modified")
                }
                _ => {}
            }
            let succeeded = matches!(r.outcome, RunOutcome::Published | RunOutcome::NotModified);
            let title = display_title(&shared.services.store, feed);
            shared.board.update(&feed.id, |s| {
                s.title = title;
                s.health = health;
                s.items = r.published;
                if succeeded {
                    s.last_success = Some(ended);
                }
                s.last_run = Some(LastRun {
                    started,
                    duration_ms,
                    outcome: r.outcome.clone(),
                    records: r.records,
                    new_items: r.new_items,
                });
            });
        }
        Err(e) => {
            memory.consecutive_failures = memory.consecutive_failures.saturating_add(1);
            memory.retry_after = e.retry_after();
            let error = refresh::anyhow_like(e);
            tracing::warn!(
                feed = %feed.id,
                failures = memory.consecutive_failures,
                "run failed, the previous feed stays published: {error}"
            );
            let failures = memory.consecutive_failures;
            shared.board.update(&feed.id, |s| {
                s.health = Health::Failing {
                    error,
                    consecutive_failures: failures,
                };
                s.last_run = Some(LastRun {
                    started,
                    duration_ms,
                    outcome: RunOutcome::Failed,
                    records: 0,
                    new_items: 0,
                });
            });
        }
    }
}

/// The outcome of `feedmine once` for one feed.
pub struct OnceResult {
    pub feed: String,
    pub result: Result<RunReport, RefreshError>,
}

/// Run the given feeds once each (concurrently, politely) and return their
/// outcomes in config order.
pub async fn run_once(config: &Config, feeds: &[&Feed]) -> Result<Vec<OnceResult>, DaemonError> {
    use futures_util::StreamExt;
    let templates = load_templates(config).map_err(DaemonError::Templates)?;
    // The feeds can still be published (or fail with their own cause).
    if let Err(e) = refresh::publish_shared_files(config, &templates) {
        tracing::warn!(
            "cannot write feed.xsl/feeds.opml: {}",
            refresh::anyhow_like(&e)
        );
    }
    remove_leftovers(config);
    let services = Services::open(config, templates).map_err(DaemonError::State)?;
    services.settle_unfinished_runs();
    if let Err(e) = refresh::write_opml(config, Some(&services.store)) {
        tracing::warn!("cannot write feeds.opml: {}", refresh::anyhow_like(&e));
    }
    store_stylesheet(&services);
    let cluster = cluster::Cluster::new(services.store.clone(), config, services.metrics.clone());
    let mut results: Vec<(usize, OnceResult)> =
        futures_util::stream::iter(feeds.iter().enumerate())
            .map(|(i, feed)| {
                let (services, cluster) = (services.clone(), cluster.clone());
                async move {
                    let result = run_once_leased(&services, &cluster, config, feed).await;
                    (
                        i,
                        OnceResult {
                            feed: feed.id.clone(),
                            result,
                        },
                    )
                }
            })
            .buffer_unordered(config.limits.concurrency.max(1))
            .collect()
            .await;
    services.renderer.shutdown().await;
    results.sort_by_key(|(i, _)| *i);
    Ok(results.into_iter().map(|(_, r)| r).collect())
}

/// One feed of `feedmine once`, under its lease on a shared state: a feed
/// another instance holds is skipped ([`RefreshError::Leased`]).
async fn run_once_leased(
    services: &Services,
    cluster: &Arc<cluster::Cluster>,
    config: &Config,
    feed: &Feed,
) -> Result<RunReport, RefreshError> {
    let held = match cluster.take(&feed.id).map_err(RefreshError::State)? {
        Some(held) => held,
        None => {
            let holder = services
                .store
                .leases()
                .ok()
                .and_then(|l| l.into_iter().find(|l| l.feed == feed.id))
                .map_or_else(|| "another instance".to_string(), |l| l.holder);
            return Err(RefreshError::Leased { holder });
        }
    };
    let result = refresh::run_feed(services, config, feed, Utc::now()).await;
    held.release();
    result
}

/// Remove the temporary files that a run killed while publishing left in
/// the output directory; a failure only warns (it costs disk, not feeds).
fn remove_leftovers(config: &Config) {
    match crate::publish::remove_stale_temps(&config.output_dir) {
        Ok(removed) => {
            for path in removed {
                tracing::info!(
                    "removed {}, left by a run that did not finish",
                    path.display()
                );
            }
        }
        Err(e) => tracing::warn!(
            "cannot clean leftover temporary files in {}: {e}",
            config.output_dir.display()
        ),
    }
}

/// Turn SIGTERM/SIGINT into `shutdown` and SIGHUP into a reload message.
pub fn install_signal_handlers(
    shutdown: CancellationToken,
) -> std::io::Result<tokio::sync::mpsc::Receiver<()>> {
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate())?;
        let mut int = signal(SignalKind::interrupt())?;
        let mut hup = signal(SignalKind::hangup())?;
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = term.recv() => { tracing::info!("SIGTERM received"); shutdown.cancel(); }
                    _ = int.recv() => { tracing::info!("SIGINT received"); shutdown.cancel(); }
                    _ = hup.recv() => {
                        tracing::info!("SIGHUP received: reloading the config");
                        let _ = tx.try_send(());
                    }
                }
            }
        });
    }
    #[cfg(not(unix))]
    {
        let _ = tx;
        tokio::spawn(async move {
            let _ = tokio::signal::ctrl_c().await;
            shutdown.cancel();
        });
    }
    Ok(rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(toml_feed: &str) -> Feed {
        let text =
            format!("[[feed]]\nid = \"a\"\nurl = \"https://example.com/news/\"\n{toml_feed}\n");
        let c = crate::config::parse(&text, Path::new("/tmp/feeds.toml")).unwrap();
        c.feeds.into_iter().next().unwrap()
    }

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn mem(
        last_start: Option<DateTime<Utc>>,
        last_end: Option<DateTime<Utc>>,
        consecutive_failures: u32,
        retry_after: Option<Duration>,
    ) -> RunMemory {
        RunMemory {
            last_start,
            last_end,
            consecutive_failures,
            retry_after,
        }
    }

    const BACKOFF: Backoff = Backoff {
        base: Duration::from_secs(60),
        max: Duration::from_secs(86_400),
    };

    #[test]
    fn a_run_cut_by_a_dead_instance_is_run_again_once_then_backs_off() {
        let cut = t("2024-03-05T10:00:00Z");
        // The first cut in a row: again at once.
        assert!(retry_cut_run(true, &mem(Some(cut), Some(cut), 1, None)));
        // The page killed two instances in a row: back off.
        assert!(!retry_cut_run(true, &mem(Some(cut), Some(cut), 2, None)));
        // Nothing was cut: the schedule and the backoff decide.
        assert!(!retry_cut_run(false, &mem(Some(cut), Some(cut), 1, None)));
    }

    #[test]
    fn a_feed_that_never_ran_runs_at_once() {
        let f = feed("schedule = \"0 9 * * *\"");
        let now = t("2024-03-05T10:00:00Z");
        let mut rng = fastrand::Rng::with_seed(1);
        assert_eq!(
            next_due(&f, &mem(None, None, 0, None), &BACKOFF, &mut rng, now),
            now
        );
    }

    #[test]
    fn next_run_follows_the_schedule_after_the_last_start() {
        let f = feed("schedule = \"*/30 * * * *\"");
        let mut rng = fastrand::Rng::with_seed(1);
        let last = t("2024-03-05T10:00:00Z");
        let due = next_due(
            &f,
            &mem(Some(last), Some(last), 0, None),
            &BACKOFF,
            &mut rng,
            last,
        );
        assert_eq!(due, t("2024-03-05T10:30:00Z"));
        // A run that outlived its slot: the next is the first slot after the
        // last start, which is already past, so it runs once, now.
        let now = t("2024-03-05T11:47:00Z");
        let due = next_due(
            &f,
            &mem(Some(last), Some(now), 0, None),
            &BACKOFF,
            &mut rng,
            now,
        );
        assert!(due <= now);
    }

    #[test]
    fn failures_back_off_exponentially_and_retry_after_is_honoured() {
        let f = feed("every = \"1m\"");
        let mut rng = fastrand::Rng::with_seed(7);
        let last = t("2024-03-05T10:00:00Z");
        let mut previous = Duration::ZERO;
        for failures in [1, 3, 6, 10, 20] {
            let due = next_due(
                &f,
                &mem(Some(last), Some(last), failures, None),
                &BACKOFF,
                &mut rng,
                last,
            );
            let wait = (due - last).to_std().unwrap();
            assert!(wait >= Duration::from_secs(60), "{failures}: {wait:?}");
            assert!(wait <= Duration::from_secs(86_400), "{failures}: {wait:?}");
            if failures >= 6 {
                assert!(
                    wait > previous / 2,
                    "{failures}: {wait:?} after {previous:?}"
                );
            }
            previous = wait;
        }
        // 20 failures in a row: capped at a day, never more.
        assert!(previous >= Duration::from_secs(43_200));
        let due = next_due(
            &f,
            &mem(Some(last), Some(last), 0, Some(Duration::from_secs(900))),
            &BACKOFF,
            &mut rng,
            last,
        );
        assert_eq!(due, t("2024-03-05T10:15:00Z"));
    }

    #[test]
    fn jitter_delays_within_its_bound() {
        let f = feed("every = \"10m\"\njitter = \"2m\"");
        let mut rng = fastrand::Rng::with_seed(3);
        let last = t("2024-03-05T10:00:00Z");
        let dues: Vec<_> = (0..50)
            .map(|_| {
                next_due(
                    &f,
                    &mem(Some(last), Some(last), 0, None),
                    &BACKOFF,
                    &mut rng,
                    last,
                )
            })
            .collect();
        assert!(
            dues.iter()
                .all(|d| *d >= t("2024-03-05T10:10:00Z") && *d < t("2024-03-05T10:12:00Z"))
        );
        assert!(dues.iter().any(|d| *d != dues[0]));
    }

    fn report_with(outcome: RunOutcome, drift: Vec<String>) -> Result<RunReport, RefreshError> {
        Ok(RunReport {
            outcome,
            records: 0,
            new_items: 0,
            published: 0,
            bodies_filled: 0,
            bodies_failed: 0,
            bodies_missing: 0,
            pattern: None,
            drift,
            paths: Vec::new(),
            elapsed: Duration::ZERO,
            notes: Vec::new(),
        })
    }

    #[test]
    fn the_feed_page_is_rewritten_after_runs_that_do_not_publish() {
        let published = report_with(RunOutcome::Published, Vec::new());
        assert_eq!(page_status_after(&published, false, 0), None);
        let drifted = report_with(RunOutcome::Degraded, vec!["found 0 records".into()]);
        let status = page_status_after(&drifted, true, 0).unwrap();
        assert_eq!((status.word, status.details.len()), ("degraded", 1));
        let failed: Result<RunReport, RefreshError> = Err(RefreshError::Task("boom".into()));
        let status = page_status_after(&failed, true, 3).unwrap();
        assert_eq!(status.word, "failing");
        assert!(status.details[0].contains("boom"));
        assert!(status.details[1].starts_with("3 failures in a row"));
        let unchanged = report_with(RunOutcome::NotModified, Vec::new());
        assert_eq!(page_status_after(&unchanged, true, 0), None);
        assert_eq!(
            page_status_after(&unchanged, false, 0),
            Some(PageStatus::ok())
        );
    }
}
