//! Two and three daemons over one PostgreSQL state and one feeds.toml,
//! for 32 due times per feed (1 s interval): every feed is refreshed
//! exactly once per due time (no duplicate, none missed, counted from the
//! run history and the test server's request log), and the per-host
//! limits hold across the instances (the test server records requests in
//! flight per host and when each arrives).
//!
//! The feeds are spread over two host names of the one 127.0.0.1 test
//! server (`127.0.0.1` and `localhost`); their replies are slow enough that
//! runs of one host on different instances would overlap without the
//! cluster gate. Runs on a throw-away PostgreSQL 15 cluster (`common/pg.rs`;
//! skipped with one line without PostgreSQL).

mod common;
#[path = "common/pg.rs"]
mod pg;
#[path = "common/shared_state.rs"]
mod shared_state;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{Reply, TestServer};
use shared_state::{list_page, start_daemon};

const INTERVAL: Duration = Duration::from_secs(1);
/// Due times per feed the test waits for (plus start-up).
const DUE_TIMES: u32 = 32;
/// Three feeds per host name.
const FEEDS: [(&str, &str); 6] = [
    ("a1", "127.0.0.1"),
    ("a2", "127.0.0.1"),
    ("a3", "127.0.0.1"),
    ("b1", "localhost"),
    ("b2", "localhost"),
    ("b3", "localhost"),
];
/// Allowance between a request's start (client) and its arrival (server).
const SLACK: Duration = Duration::from_millis(50);

/// What a scenario sets.
struct Scenario {
    instances: usize,
    host_concurrency: usize,
    host_delay: Duration,
    reply_delay: Duration,
}

fn write_config(dir: &Path, server: &TestServer, state: &str, s: &Scenario) -> std::path::PathBuf {
    let mut text = format!(
        "output_dir = \"out\"\nstate = \"{state}\"\nlease_time = \"3s\"\nhost_delay = \"{}ms\"\n\
         host_concurrency = {}\ntimeout = \"10s\"\nevery = \"{}s\"\nrobots = \"off\"\n",
        s.host_delay.as_millis(),
        s.host_concurrency,
        INTERVAL.as_secs()
    );
    for (feed, host) in FEEDS {
        text.push_str(&format!(
            "\n[[feed]]\nid = \"{feed}\"\nurl = \"{}\"\nallow_private_addresses = true\nbodies = false\n",
            server.url_on(host, &format!("/{feed}"))
        ));
    }
    let path = dir.join("feeds.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Start times (ms) and statuses of `feed`'s runs, oldest first.
fn runs(cluster: &pg::PgCluster, feed: &str) -> Vec<(i64, String)> {
    cluster
        .psql(
            "shared",
            &format!(
                "SELECT started_ms, status FROM runs WHERE feed = '{feed}' ORDER BY started_ms"
            ),
        )
        .lines()
        .map(|l| {
            let (t, s) = l.split_once('|').unwrap();
            (t.parse().unwrap(), s.to_string())
        })
        .collect()
}

async fn run_scenario(s: Scenario) {
    let Some(cluster) = tokio::task::spawn_blocking(pg::PgCluster::start)
        .await
        .unwrap()
    else {
        return;
    };
    let url = cluster.create_database("shared");
    let routes = FEEDS.iter().map(|(f, _)| {
        (
            format!("/{f}"),
            Reply::html(list_page(f, 5)).delayed(s.reply_delay),
        )
    });
    let server = TestServer::start(routes.collect::<Vec<_>>()).await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server, &url, &s);
    let started = Instant::now();
    let daemons: Vec<_> = (0..s.instances)
        .map(|_| start_daemon(&config, Duration::from_secs(3)))
        .collect();
    tokio::time::sleep(INTERVAL * DUE_TIMES + Duration::from_secs(1)).await;
    for (token, _) in &daemons {
        token.cancel();
    }
    for (_, handle) in daemons {
        handle.await.unwrap();
    }
    eprintln!("{} instances: {:?}", s.instances, started.elapsed());
    check_runs(&cluster, &server);
    check_hosts(&server, &s);
}

/// Exactly once per due time: consecutive run starts one interval apart
/// (a duplicate would start within the interval, a missed due time leave a
/// gap of two), at least DUE_TIMES - 2 runs, one fetch per run, none failed.
fn check_runs(cluster: &pg::PgCluster, server: &TestServer) {
    let interval = i64::try_from(INTERVAL.as_millis()).unwrap();
    for (feed, _) in FEEDS {
        let runs = runs(cluster, feed);
        let gaps: Vec<i64> = runs.windows(2).map(|w| w[1].0 - w[0].0).collect();
        let duplicates = gaps.iter().filter(|g| **g < interval - 20).count();
        let missed = gaps.iter().filter(|g| **g >= 2 * interval).count();
        eprintln!(
            "{feed}: {} runs, gaps {}..{} ms, {duplicates} duplicates, {missed} missed",
            runs.len(),
            gaps.iter().min().unwrap_or(&0),
            gaps.iter().max().unwrap_or(&0)
        );
        assert_eq!(duplicates, 0, "{feed}: a due time ran twice: {gaps:?}");
        assert_eq!(missed, 0, "{feed}: a due time was missed: {gaps:?}");
        assert!(
            runs.len() >= DUE_TIMES as usize - 2,
            "{feed}: only {} runs",
            runs.len()
        );
        assert!(
            runs.iter()
                .all(|(_, status)| status == "published" || status == "not_modified"),
            "{feed}: {runs:?}"
        );
        assert_eq!(
            server.hits(&format!("/{feed}")),
            runs.len(),
            "{feed}: one fetch per run"
        );
    }
}

/// `host_concurrency` and `host_delay` held across the instances.
fn check_hosts(server: &TestServer, s: &Scenario) {
    for host in ["127.0.0.1", "localhost"] {
        let most = server.max_in_flight_on(host);
        let mut times = server.times_on(host);
        times.sort();
        let gaps: Vec<Duration> = times.windows(2).map(|w| w[1] - w[0]).collect();
        let closest = gaps.iter().min().copied().unwrap_or_default();
        eprintln!(
            "{host}: {} requests, at most {most} in flight, closest starts {closest:?}",
            times.len()
        );
        assert!(
            most <= s.host_concurrency,
            "{host}: {most} requests at once, host_concurrency {}",
            s.host_concurrency
        );
        // The limit was reached: the test could have seen a breach.
        assert_eq!(
            most, s.host_concurrency,
            "{host}: the limit was never reached"
        );
        assert!(
            closest + SLACK >= s.host_delay,
            "{host}: starts {closest:?} apart, host_delay {:?}",
            s.host_delay
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_share_feeds_and_host_concurrency() {
    run_scenario(Scenario {
        instances: 2,
        host_concurrency: 1,
        host_delay: Duration::ZERO,
        reply_delay: Duration::from_millis(200),
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_instances_share_feeds_host_delay_and_concurrency() {
    run_scenario(Scenario {
        instances: 3,
        host_concurrency: 2,
        host_delay: Duration::from_millis(150),
        reply_delay: Duration::from_millis(400),
    })
    .await;
}
