//! `feedmine bench daemon` and `feedmine bench soak`: end-to-end figures of
//! the daemon against synthetic list pages served from 127.0.0.1, so they
//! need no network and no labelled data.
//!
//! The synthetic site spreads its feeds over [`HOSTS`] loopback addresses
//! (127.0.1.1, 127.0.1.2, …: Linux routes all of 127/8 to `lo`) so that
//! per-host politeness applies as it would across many real sites. Pages
//! carry an `ETag` and answer `If-None-Match` with 304, like a well-behaved
//! server; each page's records change when the site's `version` moves.
//!
//! With `--state` the bench runs real `feedmine run` processes over that
//! state instead, one or several (see `instances`).
//!
//! Figures are medians/totals measured in-process: wall time around
//! `daemon::run_once`, peak RSS from `/proc/self/status` (`VmHWM`), CPU time
//! from `/proc/self/stat`.

use std::fmt::Write as _;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{Path as UrlPath, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio_util::sync::CancellationToken;

use crate::config;
use crate::daemon::{self, DaemonOptions};
use crate::serve::status::{RunOutcome, StatusBoard};

mod instances;
pub use instances::daemon_instances;

/// Loopback addresses the synthetic feeds are spread over.
pub const HOSTS: u8 = 50;

/// Why a benchmark could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("cannot start the synthetic site on {addr}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot write the benchmark config")]
    Io(#[from] std::io::Error),
    #[error("the benchmark config is invalid")]
    Config(#[from] config::ConfigError),
    #[error(transparent)]
    Daemon(#[from] daemon::DaemonError),
    #[error("cannot use the state")]
    State(#[from] crate::state::StateError),
    #[error("{0}")]
    Instances(String),
}

/// How the synthetic site misbehaves (soak only).
#[derive(Debug, Default)]
struct Faults {
    /// Share of requests that fail, in millionths.
    rate_ppm: u64,
    /// Feeds `0..outage_feeds` answer 500 while `outage` is set.
    outage_feeds: usize,
    outage: std::sync::atomic::AtomicBool,
}

/// The synthetic site's shared state.
struct Site {
    records: usize,
    /// Bumped to change every page (new records on top).
    version: AtomicU64,
    faults: Faults,
    requests: AtomicU64,
    failures_injected: AtomicU64,
}

const WORDS: [&str; 24] = [
    "harbour",
    "council",
    "ferry",
    "market",
    "library",
    "festival",
    "repairs",
    "weather",
    "school",
    "bridge",
    "museum",
    "railway",
    "garden",
    "lantern",
    "fishing",
    "budget",
    "theatre",
    "station",
    "kayak",
    "robotics",
    "choir",
    "bakery",
    "lighthouse",
    "tides",
];

fn words(seed: u64, n: usize) -> String {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n)
        .map(|_| WORDS[rng.usize(..WORDS.len())])
        .collect::<Vec<_>>()
        .join(" ")
}

/// A realistic list page: header, nav, sidebar, `records` teasers (the
/// newest `version` ones on top), footer.
fn list_page(feed: usize, records: usize, version: u64) -> String {
    let mut s = String::with_capacity(records * 400 + 2000);
    let _ = write!(
        s,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Site {feed} news</title></head><body>\
         <header><a href=\"/\">Home</a><nav><ul><li><a href=\"/a\">Local</a></li><li><a href=\"/b\">Sport</a></li>\
         <li><a href=\"/c\">Business</a></li></ul></nav></header><main><h1>Latest news</h1>"
    );
    for k in 0..records {
        // Record ids count down from the version, so a new version adds
        // records on top and pushes the oldest off the page.
        let id = version as usize * 2 + records - k;
        let day = 1 + (id % 28);
        let _ = write!(
            s,
            "<article class=\"teaser\"><h2><a href=\"/article/{feed}/{id}\">{} {id}</a></h2>\
             <time datetime=\"2026-10-{day:02}T09:00:00Z\">{day} October 2026</time>\
             <p class=\"dek\">{}.</p></article>",
            words((feed * 100_000 + id) as u64, 6),
            words((feed * 100_000 + id) as u64 + 7, 22),
        );
    }
    let _ = write!(
        s,
        "</main><aside><h3>Most read</h3><ol><li><a href=\"/x\">One</a></li><li><a href=\"/y\">Two</a></li></ol></aside>\
         <footer><p>© Site {feed}</p></footer></body></html>"
    );
    s
}

fn article_page(feed: usize, id: usize) -> String {
    let mut s = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Story {id}</title></head><body>\
         <nav><a href=\"/\">Home</a> <a href=\"/a\">Local</a></nav><article><h1>Story {id}</h1>"
    );
    for p in 0..6 {
        let _ = write!(
            s,
            "<p>{}.</p>",
            words((feed * 1_000_000 + id * 10 + p) as u64, 40)
        );
    }
    s.push_str("</article><footer>© Site</footer></body></html>");
    s
}

async fn list_handler(
    State(site): State<Arc<Site>>,
    UrlPath(feed): UrlPath<usize>,
    headers: HeaderMap,
) -> Response {
    site.requests.fetch_add(1, Ordering::Relaxed);
    if site.faults.outage.load(Ordering::Relaxed) && feed < site.faults.outage_feeds {
        return (StatusCode::INTERNAL_SERVER_ERROR, "outage").into_response();
    }
    if site.faults.rate_ppm > 0 && fastrand::u64(..1_000_000) < site.faults.rate_ppm {
        site.failures_injected.fetch_add(1, Ordering::Relaxed);
        return injected_fault().await;
    }
    let version = site.version.load(Ordering::Relaxed);
    let etag = format!("\"v{version}\"");
    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == etag)
    {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
    }
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8".to_string()),
            (header::ETAG, etag),
        ],
        list_page(feed, site.records, version),
    )
        .into_response()
}

/// One of the assorted ways a request fails in the soak.
async fn injected_fault() -> Response {
    match fastrand::u8(..6) {
        0 => (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response(),
        1 => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::RETRY_AFTER, "20")],
            "busy",
        )
            .into_response(),
        2 => (StatusCode::TOO_MANY_REQUESTS, [(header::RETRY_AFTER, "15")], "slow down")
            .into_response(),
        3 => {
            // Slower than the feed's timeout.
            tokio::time::sleep(Duration::from_secs(8)).await;
            (StatusCode::OK, "too late").into_response()
        }
        4 => {
            // Reset mid-body.
            let chunks: Vec<Result<&'static str, std::io::Error>> = vec![
                Ok("<html><body><article>"),
                Err(std::io::Error::other("reset")),
            ];
            Response::new(Body::from_stream(futures_util::stream::iter(chunks)))
        }
        _ => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/html")],
            "<html><body><h1>Service temporarily unavailable</h1><p>Please try again.</p></body></html>",
        )
            .into_response(),
    }
}

async fn article_handler(
    State(site): State<Arc<Site>>,
    UrlPath((feed, id)): UrlPath<(usize, usize)>,
) -> Response {
    site.requests.fetch_add(1, Ordering::Relaxed);
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        article_page(feed, id),
    )
        .into_response()
}

/// Start the synthetic site on every loopback host; returns their addresses.
async fn start_site(
    site: Arc<Site>,
    shutdown: &CancellationToken,
) -> Result<Vec<SocketAddr>, BenchError> {
    let app = axum::Router::new()
        .route("/list/{feed}", axum::routing::get(list_handler))
        .route("/article/{feed}/{id}", axum::routing::get(article_handler))
        .with_state(site);
    let mut addrs = Vec::new();
    for h in 1..=HOSTS {
        let addr = SocketAddr::from((Ipv4Addr::new(127, 0, 1, h), 0));
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| BenchError::Bind { addr, source })?;
        addrs.push(listener.local_addr()?);
        let app = app.clone();
        let token = shutdown.clone();
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async move { token.cancelled().await })
                .await;
        });
    }
    Ok(addrs)
}

/// The benchmark's feeds.toml.
/// Feed `i` is `<prefix><i>`.
fn bench_config(
    addrs: &[SocketAddr],
    feeds: usize,
    bodies: bool,
    extra: &str,
    prefix: &str,
) -> String {
    let mut s = format!(
        "# feedmine bench: {feeds} synthetic feeds over {} loopback hosts.\n\
         output_dir = \"public\"\nconcurrency = 32\nhost_concurrency = 4\nhost_delay = \"0s\"\n\
         allow_private_addresses = true\nrobots = \"off\"\nmax_items = 30\n{extra}\n",
        addrs.len()
    );
    for i in 0..feeds {
        let addr = addrs[i % addrs.len()];
        let _ = write!(
            s,
            "[[feed]]\nid = \"{prefix}{i}\"\nurl = \"http://{addr}/list/{i}\"\nbodies = {bodies}\n"
        );
    }
    s
}

/// Peak resident set size of this process so far, in MiB (Linux).
pub fn peak_rss_mib() -> Option<f64> {
    proc_status_kib("VmHWM:").map(|k| k as f64 / 1024.0)
}

/// Current resident set size in MiB (Linux).
pub fn rss_mib() -> Option<f64> {
    proc_status_kib("VmRSS:").map(|k| k as f64 / 1024.0)
}

fn proc_status_kib(key: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// CPU time (user + system) of this process so far (Linux).
pub fn cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) in parentheses.
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    // USER_HZ is 100 on every Linux this runs on.
    Some(Duration::from_millis(ticks * 10))
}

async fn timed_pass(config: &config::Config) -> Result<(Duration, usize, usize), BenchError> {
    let feeds: Vec<&config::Feed> = config.feeds.iter().collect();
    let t = Instant::now();
    let results = daemon::run_once(config, &feeds).await?;
    let elapsed = t.elapsed();
    let ok = results.iter().filter(|r| r.result.is_ok()).count();
    let modified = results
        .iter()
        .filter(|r| {
            r.result
                .as_ref()
                .is_ok_and(|x| x.outcome == RunOutcome::Published)
        })
        .count();
    Ok((elapsed, ok, modified))
}

/// `feedmine bench daemon`: see the module header.
pub async fn daemon(feeds: usize, records: usize, bodies: bool) -> Result<String, BenchError> {
    let shutdown = CancellationToken::new();
    let site = Arc::new(Site {
        records,
        version: AtomicU64::new(1),
        faults: Faults::default(),
        requests: AtomicU64::new(0),
        failures_injected: AtomicU64::new(0),
    });
    let addrs = start_site(site.clone(), &shutdown).await?;
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("feeds.toml");
    std::fs::write(
        &path,
        bench_config(&addrs, feeds, bodies, "every = \"1h\"", "f"),
    )?;
    let config = config::load(&path)?;
    let rss_before = peak_rss_mib();
    let mut out = format!(
        "feedmine bench daemon: {feeds} feeds x {records} records over {} hosts, bodies {}\n",
        addrs.len(),
        if bodies { "on" } else { "off" }
    );
    let (cold, ok, _) = timed_pass(&config).await?;
    let _ = writeln!(
        out,
        "  cold pass (all new):      {:>8.1} pages/s  ({ok}/{feeds} ok, {:.2} s)",
        feeds as f64 / cold.as_secs_f64(),
        cold.as_secs_f64()
    );
    let (warm, ok, _) = timed_pass(&config).await?;
    let _ = writeln!(
        out,
        "  unchanged pass (304s):    {:>8.1} pages/s  ({ok}/{feeds} ok, {:.2} s)",
        feeds as f64 / warm.as_secs_f64(),
        warm.as_secs_f64()
    );
    site.version.fetch_add(1, Ordering::Relaxed);
    let (changed, ok, modified) = timed_pass(&config).await?;
    let _ = writeln!(
        out,
        "  changed pass (2 new each): {:>7.1} pages/s  ({ok}/{feeds} ok, {modified} published, {:.2} s)",
        feeds as f64 / changed.as_secs_f64(),
        changed.as_secs_f64()
    );
    // Idle: the daemon with every feed not due for an hour.
    let board = StatusBoard::new();
    let token = shutdown.child_token();
    let (_tx, rx) = tokio::sync::mpsc::channel(1);
    let opts = DaemonOptions {
        config_path: path.clone(),
        listen: None,
        once_now: false,
        watch_config: false,
        shutdown_grace: Duration::from_secs(1),
    };
    let handle = tokio::spawn(daemon::run_with_board(opts, token.clone(), rx, board, None));
    tokio::time::sleep(Duration::from_secs(2)).await;
    let cpu0 = cpu_time();
    let idle = Duration::from_secs(10);
    tokio::time::sleep(idle).await;
    let cpu1 = cpu_time();
    token.cancel();
    let _ = handle.await;
    if let (Some(a), Some(b)) = (cpu0, cpu1) {
        let _ = writeln!(
            out,
            "  idle daemon CPU:          {:>8.2} % of one core over {} s ({:?} CPU)",
            (b - a).as_secs_f64() / idle.as_secs_f64() * 100.0,
            idle.as_secs(),
            b - a
        );
    }
    let _ = writeln!(
        out,
        "  peak RSS:                 {:>8.1} MiB (before the passes: {:.1} MiB)",
        peak_rss_mib().unwrap_or(f64::NAN),
        rss_before.unwrap_or(f64::NAN)
    );
    let _ = writeln!(
        out,
        "  requests served:          {:>8}",
        site.requests.load(Ordering::Relaxed)
    );
    shutdown.cancel();
    Ok(out)
}

/// `feedmine bench soak`: see the module header. A tenth of the feeds have
/// an outage (500 on every request) during the middle third; on top,
/// `fail_rate` of all list requests fail in assorted ways (500, 503 and 429
/// with Retry-After, timeouts, resets mid-body, a 200 error page).
pub async fn soak(feeds: usize, duration: Duration, fail_rate: f64) -> Result<String, BenchError> {
    let shutdown = CancellationToken::new();
    let outage_feeds = feeds / 10;
    let site = Arc::new(Site {
        records: 20,
        version: AtomicU64::new(1),
        faults: Faults {
            rate_ppm: (fail_rate.clamp(0.0, 1.0) * 1_000_000.0) as u64,
            outage_feeds,
            outage: std::sync::atomic::AtomicBool::new(false),
        },
        requests: AtomicU64::new(0),
        failures_injected: AtomicU64::new(0),
    });
    let addrs = start_site(site.clone(), &shutdown).await?;
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("feeds.toml");
    std::fs::write(
        &path,
        bench_config(
            &addrs,
            feeds,
            false,
            "every = \"30s\"\njitter = \"5s\"\ntimeout = \"5s\"\nbackoff_base = \"10s\"\nbackoff_max = \"60s\"",
            "f",
        ),
    )?;
    let board = StatusBoard::new();
    let token = shutdown.child_token();
    let (_tx, rx) = tokio::sync::mpsc::channel(1);
    let opts = DaemonOptions {
        config_path: path.clone(),
        listen: None,
        once_now: true,
        watch_config: false,
        shutdown_grace: Duration::from_secs(2),
    };
    let handle = tokio::spawn(daemon::run_with_board(
        opts,
        token.clone(),
        rx,
        board.clone(),
        None,
    ));
    let mut out = format!(
        "feedmine bench soak: {feeds} feeds, {:?}, {:.0}% of requests failing, {outage_feeds} feeds down during the middle third\n\
         {:>6} {:>9} {:>6} {:>8} {:>8} {:>8} {:>10}\n",
        duration,
        fail_rate * 100.0,
        "t (s)",
        "RSS MiB",
        "ok",
        "failing",
        "degraded",
        "pending",
        "requests"
    );
    let start = Instant::now();
    let sample = Duration::from_secs(30)
        .min(duration / 4)
        .max(Duration::from_secs(1));
    let mut outage_started = false;
    let mut outage_ended = false;
    let mut outage_ended_at = None;
    let mut version_tick = Instant::now();
    let mut max_rss: f64 = 0.0;
    while start.elapsed() < duration {
        tokio::time::sleep(sample).await;
        let t = start.elapsed();
        if !outage_started && t >= duration / 3 {
            site.faults.outage.store(true, Ordering::Relaxed);
            outage_started = true;
        }
        if !outage_ended && t >= duration * 2 / 3 {
            site.faults.outage.store(false, Ordering::Relaxed);
            outage_ended = true;
            outage_ended_at = Some(chrono::Utc::now());
        }
        // Pages change every two minutes: new items keep arriving.
        if version_tick.elapsed() >= Duration::from_secs(120) {
            site.version.fetch_add(1, Ordering::Relaxed);
            version_tick = Instant::now();
        }
        let snap = board.snapshot();
        let count = |w: &str| snap.iter().filter(|s| s.health.word() == w).count();
        let rss = rss_mib().unwrap_or(f64::NAN);
        max_rss = max_rss.max(rss);
        let _ = writeln!(
            out,
            "{:>6} {:>9.1} {:>6} {:>8} {:>8} {:>8} {:>10}",
            t.as_secs(),
            rss,
            count("ok"),
            count("failing"),
            count("degraded"),
            count("pending"),
            site.requests.load(Ordering::Relaxed)
        );
    }
    let snap = board.snapshot();
    let recent = |s: &crate::serve::status::FeedStatus, within: chrono::Duration| {
        s.last_success
            .is_some_and(|t| chrono::Utc::now() - t < within)
    };
    // Five schedule intervals: a healthy feed fails five times in a row
    // with probability fail_rate^5.
    let window = chrono::Duration::seconds(150);
    let healthy: Vec<_> = snap
        .iter()
        .filter(|s| {
            s.id.trim_start_matches('f')
                .parse::<usize>()
                .is_ok_and(|i| i >= outage_feeds)
        })
        .collect();
    let healthy_updated = healthy.iter().filter(|s| recent(s, window)).count();
    let outage: Vec<_> = snap
        .iter()
        .filter(|s| {
            s.id.trim_start_matches('f')
                .parse::<usize>()
                .is_ok_and(|i| i < outage_feeds)
        })
        .collect();
    let outage_end = outage_ended_at.unwrap_or_else(chrono::Utc::now);
    let recovered = outage
        .iter()
        .filter(|s| s.last_success.is_some_and(|t| t > outage_end))
        .count();
    let _ = writeln!(
        out,
        "healthy feeds with a successful run in the last {} s: {healthy_updated}/{}\n\
         outage feeds with a successful run after their site came back: {recovered}/{}\n\
         max RSS during the soak: {max_rss:.1} MiB, peak {:.1} MiB\n\
         requests: {}, injected failures: {}",
        window.num_seconds(),
        healthy.len(),
        outage.len(),
        peak_rss_mib().unwrap_or(f64::NAN),
        site.requests.load(Ordering::Relaxed),
        site.failures_injected.load(Ordering::Relaxed),
    );
    token.cancel();
    let _ = handle.await;
    shutdown.cancel();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_list_page_yields_its_records() {
        let url = url::Url::parse("http://127.0.1.1:8000/list/7").unwrap();
        let html = list_page(7, 20, 1);
        let page = crate::pipeline::analyze_list(
            &html,
            &url,
            &crate::extract::patterns::MiningParams::default(),
            &crate::commands::default_date_context(),
        );
        assert_eq!(page.items.len(), 20);
        assert!(
            page.items[0]
                .link
                .as_ref()
                .unwrap()
                .path()
                .starts_with("/article/7/")
        );
        // A new version adds two records on top.
        let next = crate::pipeline::analyze_list(
            &list_page(7, 20, 2),
            &url,
            &crate::extract::patterns::MiningParams::default(),
            &crate::commands::default_date_context(),
        );
        assert_eq!(next.items[2].link, page.items[0].link);
    }
}
