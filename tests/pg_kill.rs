//! kill -9 of a `feedmine run` process mid-run, three times, with two
//! instances (real processes of this build) over one PostgreSQL state:
//! - the killed instance's feeds resume on another instance within
//!   `lease_time` + 10 s;
//! - no item is lost, duplicated or re-dated (guid and first sight kept),
//!   and no feed ever ran twice at once (completed runs never overlap);
//! - every published document in every instance's `output_dir` is whole
//!   (parses as a complete RSS feed with all its items) at every check,
//!   taken every 100 ms throughout.
//!
//! A run cut short by its instance's death is recorded as failed by the
//! instance that takes the feed next, which runs it again at once when that
//! is the only failure in a row (a second cut in a row backs off, so a page
//! that kills instances does not kill them all). The backoff here is the
//! default (`backoff_base` 1 min, far above `lease_time` + 10 s), so the
//! test fails if the cut run waited for it.
//!
//! "Mid-run" is guaranteed by the test server: every second request for
//! the feed `held` waits a minute before its answer, so the instance that
//! sent it holds the feed's lease, inside its run, until it is killed.
//! Runs on a throw-away PostgreSQL 15 cluster (`common/pg.rs`; skipped with
//! one line without PostgreSQL); only 127.0.0.1 traffic.

mod common;
#[path = "common/pg.rs"]
mod pg;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{Reply, TestServer};

const FEEDS: [&str; 3] = ["held", "steady1", "steady2"];
const STORIES: usize = 5;
const LEASE_TIME: Duration = Duration::from_secs(3);
const KILLS: usize = 3;

fn list_page(feed: &str) -> String {
    let mut html = format!(
        "<!doctype html><html><head><title>{feed} news</title></head><body><ul class=posts>"
    );
    for i in 0..STORIES {
        html.push_str(&format!(
            "<li class=post><a href='/{feed}/story-{i}'>Story number {i} of the {feed} desk</a>\
             <p>What happened on day {i} at the {feed} desk, told in a few words.</p>\
             <time datetime='2026-11-0{}T10:00:00Z'>2026-11-0{}</time></li>",
            i + 1,
            i + 1
        ));
    }
    html + "</ul></body></html>"
}

/// Even requests (from 0) answer at once, odd ones after a minute.
fn held_reply() -> Reply {
    let page = Reply::html(list_page("held"));
    let mut seq = Vec::new();
    for _ in 0..KILLS {
        seq.push(page.clone());
        seq.push(page.clone().delayed(Duration::from_secs(60)));
    }
    seq.push(page);
    Reply::Sequence(seq)
}

fn config_text(server: &TestServer, state: &str) -> String {
    let mut text = format!(
        "output_dir = \"out\"\nstate = \"{state}\"\nlease_time = \"{}s\"\nhost_delay = \"0s\"\n\
         host_concurrency = 4\ntimeout = \"90s\"\nevery = \"2s\"\nrobots = \"off\"\n",
        LEASE_TIME.as_secs()
    );
    for feed in FEEDS {
        text.push_str(&format!(
            "\n[[feed]]\nid = \"{feed}\"\nurl = \"{}\"\nallow_private_addresses = true\nbodies = false\n",
            server.url(&format!("/{feed}"))
        ));
    }
    text
}

/// The running instances; every one left is killed when dropped (also
/// when an assertion fails).
struct Instances {
    root: PathBuf,
    config: String,
    children: Vec<(Child, PathBuf)>,
    started: usize,
}

impl Instances {
    /// One more instance in a directory of its own (same feeds.toml text,
    /// its own output_dir).
    fn start(&mut self) {
        let dir = self.root.join(format!("instance{}", self.started));
        self.started += 1;
        std::fs::create_dir_all(&dir).unwrap();
        let config = dir.join("feeds.toml");
        std::fs::write(&config, &self.config).unwrap();
        let log = std::fs::File::create(dir.join("log")).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_feedmine"))
            .args(["run", "--shutdown-grace", "2s", "--config"])
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        self.children.push((child, dir));
    }

    /// kill -9 the instance with this pid.
    fn kill(&mut self, pid: u32) {
        let at = self
            .children
            .iter()
            .position(|(c, _)| c.id() == pid)
            .unwrap_or_else(|| panic!("pid {pid} is none of ours"));
        let (mut child, _) = self.children.remove(at);
        child.kill().unwrap();
        child.wait().unwrap();
    }

    fn output_dirs(&self) -> Vec<PathBuf> {
        (0..self.started)
            .map(|i| self.root.join(format!("instance{i}/out")))
            .collect()
    }

    fn logs(&self) -> String {
        (0..self.started)
            .map(|i| {
                let log = std::fs::read_to_string(self.root.join(format!("instance{i}/log")));
                let log = log.unwrap_or_default();
                let tail: Vec<&str> = log.lines().rev().take(15).collect();
                format!(
                    "--- instance{i}:\n{}",
                    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// SIGTERM every instance and wait for it.
    fn stop_all(&mut self) {
        for (child, _) in &self.children {
            // SAFETY: kill has no memory preconditions; the child is ours
            // and not reaped yet.
            unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        }
        for (mut child, _) in self.children.drain(..) {
            child.wait().unwrap();
        }
    }
}

impl Drop for Instances {
    fn drop(&mut self) {
        for (child, _) in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Every `.xml` feed in `dirs` parses whole, with all its items: `Err`
/// names the first that does not. Returns how many were read.
fn check_documents(dirs: &[PathBuf]) -> Result<usize, String> {
    let mut read = 0;
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "xml") {
                continue;
            }
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let channel = rss::Channel::read_from(&bytes[..])
                .map_err(|e| format!("{}: not a whole feed: {e}", path.display()))?;
            if channel.items().len() != STORIES {
                return Err(format!(
                    "{}: {} items",
                    path.display(),
                    channel.items().len()
                ));
            }
            read += 1;
        }
    }
    Ok(read)
}

/// Reads every instance's documents every 100 ms until `stop`.
fn spawn_document_checker(
    dirs: Arc<Mutex<Vec<PathBuf>>>,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<(usize, Vec<String>)> {
    std::thread::spawn(move || {
        let (mut read, mut broken) = (0, Vec::new());
        while !stop.load(Ordering::SeqCst) {
            let dirs = dirs.lock().unwrap().clone();
            match check_documents(&dirs) {
                Ok(n) => read += n,
                Err(e) => broken.push(e),
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        (read, broken)
    })
}

/// feed → key → (guid, first_seen_ms) of every stored item.
type Items = BTreeMap<String, BTreeMap<String, (String, i64)>>;

fn items(cluster: &pg::PgCluster) -> Items {
    let mut out = Items::new();
    let rows = cluster.psql(
        "shared",
        "SELECT feed, key, guid, first_seen_ms FROM items ORDER BY feed, key",
    );
    for line in rows.lines() {
        let f: Vec<&str> = line.split('|').collect();
        out.entry(f[0].to_string())
            .or_default()
            .insert(f[1].to_string(), (f[2].to_string(), f[3].parse().unwrap()));
    }
    out
}

/// Everything stored before is still stored, with the same guid and first
/// sight.
fn assert_kept(before: &Items, after: &Items) {
    for (feed, keys) in before {
        for (key, item) in keys {
            assert_eq!(
                after.get(feed).and_then(|k| k.get(key)),
                Some(item),
                "{feed}/{key}: lost or re-dated"
            );
        }
    }
}

/// The pid in a lease holder id `<host>-<pid>-<random>`.
fn holder_pid(holder: &str) -> u32 {
    let mut parts = holder.rsplitn(3, '-');
    parts.next();
    parts.next().unwrap().parse().unwrap()
}

async fn wait_until(
    what: &str,
    limit: Duration,
    logs: impl Fn() -> String,
    mut ok: impl FnMut() -> bool,
) {
    let until = Instant::now() + limit;
    while !ok() {
        assert!(
            Instant::now() < until,
            "{what}: not within {limit:?}\n{}",
            logs()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_instances_feeds_resume_elsewhere_and_nothing_is_lost() {
    let Some(cluster) = tokio::task::spawn_blocking(pg::PgCluster::start)
        .await
        .unwrap()
    else {
        return;
    };
    let url = cluster.create_database("shared");
    let server = TestServer::start(vec![
        ("/held".to_string(), held_reply()),
        ("/steady1".to_string(), Reply::html(list_page("steady1"))),
        ("/steady2".to_string(), Reply::html(list_page("steady2"))),
    ])
    .await;
    let root = tempfile::tempdir().unwrap();
    let mut instances = Instances {
        root: root.path().to_path_buf(),
        config: config_text(&server, &url),
        children: Vec::new(),
        started: 0,
    };
    instances.start();
    instances.start();
    let dirs = Arc::new(Mutex::new(instances.output_dirs()));
    let stop = Arc::new(AtomicBool::new(false));
    let checker = spawn_document_checker(dirs.clone(), stop.clone());

    let mut first: Option<Items> = None;
    for round in 0..KILLS {
        // Request 2·round + 1 of `held` is the one held: its sender is
        // mid-run.
        let logs = || instances.logs();
        wait_until("the held request", Duration::from_secs(30), logs, || {
            server.hits("/held") == 2 * round + 2
        })
        .await;
        let before = items(&cluster);
        first.get_or_insert_with(|| before.clone());
        let holder = cluster.psql("shared", "SELECT holder FROM leases WHERE feed = 'held'");
        let steady_hits: Vec<usize> = FEEDS[1..]
            .iter()
            .map(|f| server.hits(&format!("/{f}")))
            .collect();
        instances.kill(holder_pid(&holder));
        let killed_at = Instant::now();
        instances.start();
        *dirs.lock().unwrap() = instances.output_dirs();

        // Its feed resumes on another instance within lease_time + 10 s,
        // and so do the others.
        let limit = LEASE_TIME + Duration::from_secs(10);
        let logs = || instances.logs();
        wait_until("the held feed resumed", limit, logs, || {
            server.hits("/held") == 2 * round + 3
        })
        .await;
        let resumed = killed_at.elapsed();
        for (feed, hits) in FEEDS[1..].iter().zip(steady_hits) {
            let logs = || instances.logs();
            wait_until(&format!("{feed} ran again"), limit, logs, || {
                server.hits(&format!("/{feed}")) > hits
            })
            .await;
        }
        // The resumed run finished: nothing lost or re-dated.
        let logs = || instances.logs();
        let done = "SELECT count(*) FROM runs WHERE feed = 'held' AND status <> 'failed'";
        wait_until("the resumed run finished", limit, logs, || {
            cluster.psql("shared", done) == (round + 2).to_string()
        })
        .await;
        assert_kept(&before, &items(&cluster));
        eprintln!(
            "kill {}: {holder} killed, its feed resumed after {resumed:?}",
            round + 1
        );
    }
    // One more round of every feed, then a clean stop.
    tokio::time::sleep(Duration::from_secs(3)).await;
    instances.stop_all();
    stop.store(true, Ordering::SeqCst);
    let (read, broken) = checker.join().unwrap();

    let last = items(&cluster);
    assert_kept(first.as_ref().unwrap(), &last);
    for feed in FEEDS {
        let stored = last.get(feed).map_or(0, BTreeMap::len);
        assert_eq!(stored, STORIES, "{feed}: every story stored once");
        let guids: std::collections::HashSet<_> =
            last[feed].values().map(|(guid, _)| guid.clone()).collect();
        assert_eq!(guids.len(), STORIES, "{feed}: no duplicated guid");
        assert_no_overlapping_runs(&cluster, feed);
    }
    // The killed runs were found and counted as failed, once each.
    assert_eq!(
        cluster.psql(
            "shared",
            "SELECT count(*) FROM runs WHERE feed = 'held' AND status = 'failed'"
        ),
        KILLS.to_string()
    );
    assert!(broken.is_empty(), "documents not whole: {broken:?}");
    assert!(read > 100, "only {read} documents read");
    eprintln!("{read} document reads, all whole");
}

/// Completed runs of `feed` never overlap: it never ran twice at once.
fn assert_no_overlapping_runs(cluster: &pg::PgCluster, feed: &str) {
    let rows = cluster.psql(
        "shared",
        &format!(
            "SELECT started_ms, duration_ms FROM runs WHERE feed = '{feed}' AND status <> 'failed'
             ORDER BY started_ms"
        ),
    );
    let runs: Vec<(i64, i64)> = rows
        .lines()
        .map(|l| {
            let (s, d) = l.split_once('|').unwrap();
            (s.parse().unwrap(), d.parse().unwrap())
        })
        .collect();
    for w in runs.windows(2) {
        assert!(w[1].0 >= w[0].0 + w[0].1, "{feed}: runs overlap: {w:?}");
    }
}
