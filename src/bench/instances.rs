//! `feedmine bench daemon --state S --instances N`: the daemon bench with
//! N real `feedmine run` processes over one state (PostgreSQL, or SQLite
//! with one instance), against the same synthetic site.
//!
//! Each pass clears the bench feeds' run history (so every feed is due at
//! once, as a feed that never ran), starts N processes (the instances
//! share the feeds through leases, exactly as deployed), waits until the
//! instances'
//! `feedmine_runs_total` (scraped from each one's `/metrics` on 127.0.0.1)
//! add up to the feed count, reads each process's peak RSS (`VmHWM` from
//! `/proc/<pid>/status`) and stops them with SIGTERM. Three passes: cold
//! (all new), unchanged (304s), changed (2 new records per page). A pass is
//! timed from the site's first list request to the last run counted, so
//! process start-up (config, connections, 2 reads per feed) is not in it.
//!
//! The feeds get ids unique to this bench run (`b<random>-f<i>`), so a
//! shared database needs no reset; they are forgotten again at the end.
//!
//! Invariants: children only talk to 127.0.0.1 (site, metrics) and the
//! given state; every child is stopped (SIGTERM, then SIGKILL after
//! [`STOP_WAIT`]) before this returns, also on errors.

use std::fmt::Write as _;
use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::{BenchError, Faults, Site, bench_config, start_site};
use crate::state::{StateLocation, Store};

/// Longest wait for a pass (start-up included).
const PASS_LIMIT: Duration = Duration::from_secs(600);
/// How long a stopped child gets before SIGKILL.
const STOP_WAIT: Duration = Duration::from_secs(15);

/// What one instance did in one pass.
#[derive(Debug, Clone, Copy, Default)]
struct InstanceFigures {
    runs: u64,
    peak_rss_mib: f64,
}

/// One pass over every feed.
#[derive(Debug)]
struct Pass {
    elapsed: Duration,
    per_instance: Vec<InstanceFigures>,
}

/// A running `feedmine run` child.
struct Instance {
    child: Child,
    metrics: String,
}

impl Instance {
    fn start(exe: &Path, config: &Path, log: &Path) -> Result<Instance, BenchError> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let listen = SocketAddr::from(([127, 0, 0, 1], port));
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)?;
        let child = Command::new(exe)
            .arg("run")
            .arg("--config")
            .arg(config)
            .args(["--shutdown-grace", "5s", "--listen"])
            .arg(listen.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()?;
        Ok(Instance {
            child,
            metrics: format!("http://{listen}/metrics"),
        })
    }

    /// Runs counted so far (`None` while the server is not up yet).
    async fn runs(&self, client: &reqwest::Client) -> Option<u64> {
        let text = client
            .get(&self.metrics)
            .send()
            .await
            .ok()?
            .text()
            .await
            .ok()?;
        Some(
            text.lines()
                .filter(|l| l.starts_with("feedmine_runs_total{"))
                .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
                .sum::<f64>() as u64,
        )
    }

    fn peak_rss_mib(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()));
        status
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmHWM:"))?
                    .split_whitespace()
                    .nth(1)?
                    .parse::<f64>()
                    .ok()
            })
            .map_or(f64::NAN, |kib| kib / 1024.0)
    }

    /// SIGTERM, then SIGKILL after [`STOP_WAIT`].
    fn stop(mut self) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill has no memory preconditions; the pid is our
            // child's, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGTERM) };
        }
        let until = Instant::now() + STOP_WAIT;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Run one pass with `n` fresh instances.
async fn pass(
    exe: &Path,
    config: &Path,
    log: &Path,
    n: usize,
    feeds: u64,
    site: &Site,
) -> Result<Pass, BenchError> {
    let baseline = site.requests.load(Ordering::Relaxed);
    let mut children = Vec::new();
    for _ in 0..n {
        match Instance::start(exe, config, log) {
            Ok(c) => children.push(c),
            Err(e) => {
                children.into_iter().for_each(Instance::stop);
                return Err(e);
            }
        }
    }
    let outcome = wait_for_pass(&children, feeds, site, baseline).await;
    let rss: Vec<f64> = children.iter().map(Instance::peak_rss_mib).collect();
    let client = reqwest::Client::new();
    let mut runs = Vec::new();
    for c in &children {
        runs.push(c.runs(&client).await.unwrap_or(0));
    }
    tokio::task::spawn_blocking(move || children.into_iter().for_each(Instance::stop))
        .await
        .map_err(|e| BenchError::Instances(format!("cannot stop the instances: {e}")))?;
    let elapsed = outcome?;
    Ok(Pass {
        elapsed,
        per_instance: runs
            .into_iter()
            .zip(rss)
            .map(|(runs, peak_rss_mib)| InstanceFigures { runs, peak_rss_mib })
            .collect(),
    })
}

/// From the first list request of the pass until the instances' runs add
/// up to `feeds`.
async fn wait_for_pass(
    children: &[Instance],
    feeds: u64,
    site: &Site,
    baseline: u64,
) -> Result<Duration, BenchError> {
    let client = reqwest::Client::new();
    let limit = Instant::now() + PASS_LIMIT;
    let mut first: Option<Instant> = None;
    while Instant::now() < limit {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let served = site.requests.load(Ordering::Relaxed) - baseline;
        if served > 0 && first.is_none() {
            first = Some(Instant::now());
        }
        if served < feeds {
            continue;
        }
        let mut total = 0;
        for c in children {
            total += c.runs(&client).await.unwrap_or(0);
        }
        if total >= feeds {
            let start = first.unwrap_or_else(Instant::now);
            return Ok(start.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    Err(BenchError::Instances(format!(
        "a pass did not finish within {} s",
        PASS_LIMIT.as_secs()
    )))
}

/// `feedmine bench daemon --state S --instances N`: see the module header.
pub async fn daemon_instances(
    feeds: usize,
    records: usize,
    state: &str,
    instances: usize,
) -> Result<String, BenchError> {
    let dir = tempfile::tempdir()?;
    // A relative SQLite path is the caller's, not the temporary config's.
    let location = StateLocation::parse(state, &std::env::current_dir()?)?;
    let state = match location.sqlite_path() {
        Some(path) => path.display().to_string(),
        None => state.to_string(),
    };
    if location.sqlite_path().is_some() && instances != 1 {
        return Err(BenchError::Instances(
            "an SQLite state is for one instance: --instances 1, or a postgres:// state".into(),
        ));
    }
    let exe = std::env::current_exe()?;
    let shutdown = CancellationToken::new();
    let site = Arc::new(Site {
        records,
        version: AtomicU64::new(1),
        faults: Faults::default(),
        requests: AtomicU64::new(0),
        failures_injected: AtomicU64::new(0),
    });
    let addrs = start_site(site.clone(), &shutdown).await?;
    let prefix = format!("b{:06x}-f", fastrand::u32(..0x100_0000));
    let state_line = toml_string(&state);
    let extra = format!("every = \"1h\"\nstate = {state_line}\nlease_time = \"30s\"");
    let config = dir.path().join("feeds.toml");
    std::fs::write(&config, bench_config(&addrs, feeds, false, &extra, &prefix))?;
    crate::config::load(&config)?;
    let log = dir.path().join("instances.log");
    let mut out = format!(
        "feedmine bench daemon: {feeds} feeds x {records} records over {} hosts, {instances} \
         instance(s) over {}\n",
        addrs.len(),
        location.label()
    );
    let mut passes = Vec::new();
    for name in ["cold (all new)", "unchanged (304s)", "changed (2 new each)"] {
        if passes.len() == 2 {
            site.version.fetch_add(1, Ordering::Relaxed);
        }
        // The first pass's feeds are new (the ids are this run's own).
        if !passes.is_empty()
            && let Err(e) = clear_runs(&location, &prefix).await
        {
            shutdown.cancel();
            return Err(e);
        }
        let p = pass(&exe, &config, &log, instances, feeds as u64, &site).await;
        let p = match p {
            Ok(p) => p,
            Err(e) => {
                shutdown.cancel();
                return Err(e);
            }
        };
        write_pass(&mut out, name, feeds, &p);
        passes.push(p);
    }
    write_rss(&mut out, &passes, instances);
    shutdown.cancel();
    forget_feeds(&location, &prefix, feeds).await;
    Ok(out)
}

fn write_pass(out: &mut String, name: &str, feeds: usize, p: &Pass) {
    let secs = p.elapsed.as_secs_f64();
    let total: u64 = p.per_instance.iter().map(|i| i.runs).sum();
    let per: Vec<String> = p
        .per_instance
        .iter()
        .map(|i| format!("{:.1}", i.runs as f64 / secs))
        .collect();
    let _ = writeln!(
        out,
        "  {name:<22} {:>8.1} pages/s  per instance [{}]  ({total} runs for {feeds} feeds, {secs:.2} s)",
        feeds as f64 / secs,
        per.join(", ")
    );
}

fn write_rss(out: &mut String, passes: &[Pass], instances: usize) {
    let peaks: Vec<String> = (0..instances)
        .map(|i| {
            let peak = passes
                .iter()
                .filter_map(|p| p.per_instance.get(i))
                .map(|f| f.peak_rss_mib)
                .fold(f64::NAN, f64::max);
            format!("{peak:.1}")
        })
        .collect();
    let _ = writeln!(
        out,
        "  peak RSS per instance:  [{}] MiB (the largest of the passes)",
        peaks.join(", ")
    );
}

/// `value` as a TOML basic string.
fn toml_string(value: &str) -> String {
    toml::Value::String(value.to_string()).to_string()
}

/// Delete the run history of the feeds named `<prefix>…` (no instance
/// runs meanwhile): each is then due at once. Straight SQL, the bench's
/// own business (the daemon never forgets runs this way).
async fn clear_runs(location: &StateLocation, prefix: &str) -> Result<(), BenchError> {
    let failed = |e: &dyn std::fmt::Display| {
        BenchError::Instances(format!("cannot clear the bench runs: {e}"))
    };
    match location {
        StateLocation::Sqlite(path) => {
            let db = rusqlite::Connection::open(path).map_err(|e| failed(&e))?;
            db.execute(
                "DELETE FROM runs WHERE substr(feed, 1, length(?1)) = ?1",
                [prefix],
            )
            .map_err(|e| failed(&e))?;
        }
        StateLocation::Postgres(url) => {
            let (client, connection) = tokio_postgres::connect(url.raw(), tokio_postgres::NoTls)
                .await
                .map_err(|e| failed(&url.redact(&e.to_string())))?;
            let driver = tokio::spawn(connection);
            let deleted = client
                .execute("DELETE FROM runs WHERE starts_with(feed, $1)", &[&prefix])
                .await;
            drop(client);
            let _ = driver.await;
            deleted.map_err(|e| failed(&url.redact(&e.to_string())))?;
        }
    }
    Ok(())
}

/// Forget this run's feeds (best effort; a shared database stays tidy).
async fn forget_feeds(location: &StateLocation, prefix: &str, feeds: usize) {
    let (location, prefix) = (location.clone(), prefix.to_string());
    let _ = tokio::task::spawn_blocking(move || {
        let Ok(store) = Store::open_location(&location) else {
            return;
        };
        for i in 0..feeds {
            let _ = store.forget_feed(&format!("{prefix}{i}"));
        }
    })
    .await;
}
