//! Several daemons over one PostgreSQL state share the feeds through
//! leases: every feed is refreshed exactly once per due time, whichever
//! instance runs it. Runs on a throw-away PostgreSQL 15 cluster
//! (`common/pg.rs`; skipped with one line without PostgreSQL) against a
//! local 127.0.0.1 test server.

mod common;
#[path = "common/pg.rs"]
mod pg;
#[path = "common/shared_state.rs"]
mod shared_state;

use std::path::Path;
use std::time::{Duration, Instant};

use common::{Reply, TestServer};
use shared_state::{list_page, start_daemon};

const FEEDS: [&str; 4] = ["alpha", "bravo", "charlie", "delta"];
const INTERVAL: Duration = Duration::from_secs(2);

fn write_config(dir: &Path, server: &TestServer, state: &str) -> std::path::PathBuf {
    let mut text = format!(
        "output_dir = \"out\"\nstate = \"{state}\"\nlease_time = \"3s\"\nhost_delay = \"0s\"\n\
         timeout = \"3s\"\nevery = \"{}s\"\n",
        INTERVAL.as_secs()
    );
    for feed in FEEDS {
        text.push_str(&format!(
            "\n[[feed]]\nid = \"{feed}\"\nurl = \"{}\"\nallow_private_addresses = true\nbodies = false\n",
            server.url(&format!("/{feed}"))
        ));
    }
    let path = dir.join("feeds.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_refresh_every_feed_once_per_due_time() {
    let Some(cluster) = tokio::task::spawn_blocking(pg::PgCluster::start)
        .await
        .unwrap()
    else {
        return;
    };
    let url = cluster.create_database("shared");
    let server = TestServer::start(
        FEEDS
            .iter()
            .map(|f| (format!("/{f}"), Reply::html(list_page(f, 6))))
            .collect::<Vec<_>>(),
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server, &url);
    let started = Instant::now();
    let daemons = [
        start_daemon(&config, Duration::from_secs(2)),
        start_daemon(&config, Duration::from_secs(2)),
    ];
    tokio::time::sleep(Duration::from_secs(13)).await;
    for (token, _) in &daemons {
        token.cancel();
    }
    for (_, handle) in daemons {
        handle.await.unwrap();
    }
    let elapsed = started.elapsed();
    for feed in FEEDS {
        let times = server.times(&format!("/{feed}"));
        let gaps: Vec<Duration> = times.windows(2).map(|w| w[1] - w[0]).collect();
        // No due time ran twice (a second run would follow the first at
        // once) and none was missed (runs keep the interval's pace).
        assert!(
            gaps.iter()
                .all(|g| *g >= INTERVAL - Duration::from_millis(300)),
            "{feed}: a due time ran twice: {gaps:?}"
        );
        assert!(
            gaps.iter().all(|g| *g <= INTERVAL * 2),
            "{feed}: a due time was missed: {gaps:?}"
        );
        let expected = elapsed.as_secs_f64() / INTERVAL.as_secs_f64();
        assert!(
            times.len() as f64 >= expected - 2.0,
            "{feed}: {} runs in {elapsed:?}",
            times.len()
        );
        let runs = cluster.psql(
            "shared",
            &format!("SELECT count(*) FROM runs WHERE feed = '{feed}' AND status <> 'failed'"),
        );
        assert_eq!(
            runs,
            times.len().to_string(),
            "{feed}: one recorded run per fetch"
        );
    }
    // `feedmine status` reads the same state: every feed, its last run.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["status", "--json", "--config"])
        .arg(&config)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["state"], url.as_str());
    let feeds = report["feeds"].as_array().unwrap();
    assert_eq!(feeds.len(), FEEDS.len());
    for f in feeds {
        assert!(f["last_run"].is_string(), "{f}");
        assert!(f["next_due"].is_string(), "{f}");
        assert_eq!(f["held_by"], serde_json::Value::Null, "{f}");
        assert!(
            matches!(f["outcome"].as_str(), Some("published" | "not_modified")),
            "{f}"
        );
    }
    // Both instances left: their registrations and leases are gone.
    assert_eq!(
        cluster.psql("shared", "SELECT count(*) FROM instances"),
        "0"
    );
    assert_eq!(cluster.psql("shared", "SELECT count(*) FROM leases"), "0");
}
