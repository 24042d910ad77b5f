//! What the servers of several daemons over one PostgreSQL state answer:
//! every instance (three here) serves every feed byte for byte alike
//! (body, ETag, Last-Modified, 304s), `/health` names an instance that runs
//! another config and a reload on one instance is picked up by the other,
//! PostgreSQL stopped for 30 s and restarted costs no crash (`/health`
//! says the database is unreachable, cached feeds are still served, runs
//! resume), and a database that hangs holds up neither the index nor
//! `/health`. Runs on a throw-away PostgreSQL 15 cluster (`common/pg.rs`;
//! skipped with one line without PostgreSQL) against a local 127.0.0.1
//! test server; the daemons serve on 127.0.0.1 only.

mod common;
#[path = "common/pg.rs"]
mod pg;
#[path = "common/shared_state.rs"]
mod shared_state;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{Reply, TestServer};
use feedmine::daemon::{self, DaemonOptions};
use feedmine::serve::status::StatusBoard;
use reqwest::StatusCode;
use shared_state::list_page;
use tokio_util::sync::CancellationToken;

const FEEDS: [&str; 2] = ["alpha", "bravo"];
const EXTS: [&str; 4] = ["xml", "atom", "json", "html"];

async fn site() -> TestServer {
    TestServer::start(
        FEEDS
            .iter()
            .map(|f| (format!("/{f}"), Reply::html(list_page(f, 6))))
            .collect::<Vec<_>>(),
    )
    .await
}

/// A config in `dir` with every feed on `every`; `extra` goes into the
/// first feed's table.
fn write_config(dir: &Path, server: &TestServer, state: &str, every: &str, extra: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut text = format!(
        "output_dir = \"out\"\nstate = \"{state}\"\nlease_time = \"3s\"\nhost_delay = \"0s\"\n\
         timeout = \"3s\"\nbackoff_base = \"1s\"\nevery = \"{every}\"\n\
         formats = [\"rss\", \"atom\", \"json\"]\npublic_url = \"https://feeds.example/feeds/\"\n"
    );
    for (i, feed) in FEEDS.iter().enumerate() {
        text.push_str(&format!(
            "\n[[feed]]\nid = \"{feed}\"\nurl = \"{}\"\nallow_private_addresses = true\nbodies = false\n{}\n",
            server.url(&format!("/{feed}")),
            if i == 0 { extra } else { "" }
        ));
    }
    // Replaced whole: a daemon reading it meanwhile sees one or the other.
    let path = dir.join("feeds.toml");
    std::fs::write(dir.join("feeds.toml.new"), text).unwrap();
    std::fs::rename(dir.join("feeds.toml.new"), &path).unwrap();
    path
}

/// One in-process daemon serving on 127.0.0.1.
struct Daemon {
    addr: SocketAddr,
    stop: CancellationToken,
    reload: tokio::sync::mpsc::Sender<()>,
    handle: tokio::task::JoinHandle<()>,
}

impl Daemon {
    async fn start(config: &Path) -> Daemon {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = CancellationToken::new();
        let (reload, rx) = tokio::sync::mpsc::channel(1);
        let opts = DaemonOptions {
            config_path: config.to_path_buf(),
            listen: None,
            once_now: false,
            watch_config: false,
            shutdown_grace: Duration::from_secs(2),
        };
        let token = stop.clone();
        let handle = tokio::spawn(async move {
            daemon::run_with_board(opts, token, rx, StatusBoard::new(), Some(listener))
                .await
                .unwrap();
        });
        Daemon {
            addr,
            stop,
            reload,
            handle,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn shut_down(self) {
        self.stop.cancel();
        self.handle.await.unwrap();
    }
}

/// Status, headers and body of a GET with `headers`.
async fn get(
    url: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, reqwest::header::HeaderMap, Vec<u8>) {
    let client = reqwest::Client::new();
    let mut req = client.get(url).timeout(Duration::from_secs(15));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = req.send().await.unwrap();
    let (status, h) = (resp.status(), resp.headers().clone());
    (status, h, resp.bytes().await.unwrap().to_vec())
}

fn header(h: &reqwest::header::HeaderMap, name: &str) -> String {
    h.get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// Wait (at most `limit`) until `check` holds.
async fn wait_for<F, Fut>(what: &str, limit: Duration, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while !check().await {
        assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Every document of every feed, and the stylesheet.
fn documents() -> Vec<String> {
    let mut names: Vec<String> = FEEDS
        .iter()
        .flat_map(|f| EXTS.iter().map(move |e| format!("/feeds/{f}.{e}")))
        .collect();
    names.push("/feeds/feed.xsl".into());
    names
}

async fn start_cluster() -> Option<pg::PgCluster> {
    tokio::task::spawn_blocking(pg::PgCluster::start)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_instance_serves_every_feed_byte_identically() {
    // Three instances: A, B and C each serve every feed, whoever ran it.
    let Some(cluster) = start_cluster().await else {
        return;
    };
    let url = cluster.create_database("serve");
    let server = site().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server, &url, "1h", "");
    let (a, b, c) = (
        Daemon::start(&config).await,
        Daemon::start(&config).await,
        Daemon::start(&config).await,
    );
    for path in documents() {
        for d in [&a, &b, &c] {
            let u = d.url(&path);
            wait_for(&u.clone(), Duration::from_secs(20), || {
                let u = u.clone();
                async move { get(&u, &[]).await.0 == StatusCode::OK }
            })
            .await;
        }
    }
    // Each feed ran once (every = 1h), by one instance or the other.
    for feed in FEEDS {
        assert_eq!(server.hits(&format!("/{feed}")), 1, "{feed}");
    }
    // The files are not what is served: all answer from the database.
    std::fs::remove_dir_all(dir.path().join("out")).unwrap();
    for path in documents() {
        let (sa, ha, body_a) = get(&a.url(&path), &[]).await;
        assert_eq!(sa, StatusCode::OK, "{path}");
        assert!(!body_a.is_empty(), "{path}");
        let etag = header(&ha, "etag");
        let modified = header(&ha, "last-modified");
        assert!(etag.starts_with('"') && etag.len() == 66, "{path}: {etag}");
        assert!(!modified.is_empty(), "{path}");
        for other in [&b, &c] {
            let (so, ho, body_o) = get(&other.url(&path), &[]).await;
            assert_eq!(so, StatusCode::OK, "{path}");
            assert_eq!(body_a, body_o, "{path}: bodies differ");
            assert_eq!(etag, header(&ho, "etag"), "{path}");
            assert_eq!(modified, header(&ho, "last-modified"), "{path}");
            assert_eq!(
                header(&ha, "content-type"),
                header(&ho, "content-type"),
                "{path}"
            );
            // A's validators are the others': 304, by tag and by date.
            let (s, _, body) = get(&other.url(&path), &[("if-none-match", &etag)]).await;
            assert_eq!(s, StatusCode::NOT_MODIFIED, "{path}");
            assert!(body.is_empty());
            let (s, _, _) = get(&other.url(&path), &[("if-modified-since", &modified)]).await;
            assert_eq!(s, StatusCode::NOT_MODIFIED, "{path}");
            let (s, _, _) = get(&other.url(&path), &[("if-none-match", "\"other\"")]).await;
            assert_eq!(s, StatusCode::OK, "{path}");
        }
    }
    // Nothing outside the published set is served from the database.
    for path in [
        "/feeds/alpha.txt",
        "/feeds/charlie.xml",
        "/feeds/..%2Falpha.xml",
    ] {
        assert_eq!(
            get(&a.url(path), &[]).await.0,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    // The OPML lists the same titles (the list pages' own) and, under
    // `public_url`, the same addresses on both.
    wait_for("the same OPML on both", Duration::from_secs(5), || async {
        let opml = get(&a.url("/feeds.opml"), &[]).await.2;
        opml == get(&b.url("/feeds.opml"), &[]).await.2
            && String::from_utf8_lossy(&opml).contains("bravo news")
    })
    .await;
    // Each board shows every feed's run, whichever instance ran it; the
    // index shows the cluster; the metrics count it per instance.
    for d in [&a, &b, &c] {
        // The cluster section is the last heartbeat's (every second here).
        wait_for(
            "the index to show the three instances",
            Duration::from_secs(5),
            || async {
                let index = String::from_utf8(get(&d.url("/"), &[]).await.2).unwrap();
                index.contains("3 instances alive")
            },
        )
        .await;
        let (_, _, index) = get(&d.url("/"), &[]).await;
        let index = String::from_utf8(index).unwrap();
        assert!(!index.contains("not run yet"), "{index}");
        assert_eq!(index.matches("published, 6 records").count(), 2, "{index}");
        assert!(index.contains("(this instance)"), "{index}");
    }
    // Set by the heartbeat (every second here): B may not have seen C yet.
    wait_for(
        "B's gauge to count A and C",
        Duration::from_secs(5),
        || async {
            let metrics = get(&b.url("/metrics"), &[]).await.2;
            String::from_utf8_lossy(&metrics).contains("feedmine_instances_alive 3")
        },
    )
    .await;
    let (s, _, health) = get(&a.url("/health"), &[]).await;
    assert_eq!((s, health.as_slice()), (StatusCode::OK, b"ok\n".as_slice()));
    for d in [a, b, c] {
        d.shut_down().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_reload_is_picked_up_and_another_config_is_named_on_health() {
    let Some(cluster) = start_cluster().await else {
        return;
    };
    let url = cluster.create_database("configs");
    let server = site().await;
    let dir = tempfile::tempdir().unwrap();
    let shared = write_config(&dir.path().join("shared"), &server, &url, "1h", "");
    let (a, b) = (Daemon::start(&shared).await, Daemon::start(&shared).await);
    for d in [&a, &b] {
        wait_for("the daemon to serve", Duration::from_secs(15), || async {
            get(&d.url("/health"), &[]).await.2 == b"ok\n"
        })
        .await;
    }
    // The file changes; only A is told to reload. B picks it up from A's
    // new config hash: its index shows the new title.
    write_config(
        &dir.path().join("shared"),
        &server,
        &url,
        "1h",
        "title = \"Alpha, renamed\"",
    );
    a.reload.send(()).await.unwrap();
    wait_for(
        "B to pick up A's reload",
        Duration::from_secs(15),
        || async {
            let (_, _, index) = get(&b.url("/"), &[]).await;
            String::from_utf8_lossy(&index).contains("Alpha, renamed")
        },
    )
    .await;
    wait_for("A and B to agree", Duration::from_secs(15), || async {
        get(&a.url("/health"), &[]).await.2 == b"ok\n"
    })
    .await;
    // A third instance on another file: named by the others' /health,
    // which stays 200 (the feeds are served), and in the JSON.
    let other = write_config(
        &dir.path().join("other"),
        &server,
        &url,
        "1h",
        "title = \"Other\"",
    );
    let c = Daemon::start(&other).await;
    wait_for("config differs on A", Duration::from_secs(15), || async {
        let (s, _, body) = get(&a.url("/health"), &[]).await;
        let body = String::from_utf8_lossy(&body).into_owned();
        s == StatusCode::OK && body.contains("config differs: instance ")
    })
    .await;
    // B reads the instances on its own clock: A seeing C first is no
    // promise that B already has (this raced on a loaded CI machine).
    let b_json = || async {
        let (_, _, body) = get(&b.url("/health"), &[("accept", "application/json")]).await;
        serde_json::from_slice::<serde_json::Value>(&body).unwrap()
    };
    wait_for("config differs on B", Duration::from_secs(15), || async {
        b_json().await["config_differs"].as_array().map(Vec::len) == Some(1)
    })
    .await;
    let json = b_json().await;
    assert_eq!(
        json["config_differs"].as_array().map(Vec::len),
        Some(1),
        "{json}"
    );
    assert_eq!(json["database"]["reachable"], true, "{json}");
    wait_for("C to name A and B", Duration::from_secs(15), || async {
        let (_, _, body) = get(&c.url("/health"), &[]).await;
        String::from_utf8_lossy(&body)
            .matches("config differs")
            .count()
            == 2
    })
    .await;
    // C leaves: A's /health is plain ok again.
    c.shut_down().await;
    wait_for(
        "config differs to clear",
        Duration::from_secs(15),
        || async { get(&a.url("/health"), &[]).await.2 == b"ok\n" },
    )
    .await;
    a.shut_down().await;
    b.shut_down().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_stopped_for_30_s_and_restarted() {
    let Some(mut cluster) = start_cluster().await else {
        return;
    };
    // A password in the URL (trust authentication ignores it) must never
    // show on /health or the index.
    let url = cluster
        .create_database("outage")
        .replace("postgres@", "postgres:hunter2-pw@");
    let server = site().await;
    let dir = tempfile::tempdir().unwrap();
    // alpha runs once (its documents stay as first published), bravo
    // every 2 s (its runs show the schedules resume).
    let config = write_config(dir.path(), &server, &url, "2s", "every = \"1h\"");
    let a = Daemon::start(&config).await;
    let feed = a.url("/feeds/alpha.xml");
    wait_for("alpha to be served", Duration::from_secs(20), || async {
        get(&feed, &[]).await.0 == StatusCode::OK
    })
    .await;
    let count_runs = |c: &pg::PgCluster| -> usize {
        c.psql(
            "outage",
            "SELECT count(*) FROM runs WHERE feed = 'bravo' AND status <> 'failed'",
        )
        .parse()
        .unwrap()
    };
    let runs_before = tokio::task::block_in_place(|| count_runs(&cluster));
    let (_, h, cached_body) = get(&feed, &[]).await;
    let cached_etag = header(&h, "etag");
    // The server keeps a copy of every feed, refreshed every
    // lease_time / 3 (1 s here): let it take one.
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let stopped = Instant::now();
    tokio::task::block_in_place(|| cluster.stop_server());
    wait_for("/health to say so", Duration::from_secs(10), || async {
        let (s, _, body) = get(&a.url("/health"), &[]).await;
        s == StatusCode::SERVICE_UNAVAILABLE
            && String::from_utf8_lossy(&body).contains("database unreachable")
    })
    .await;
    // The index shows the last heartbeat's view (every second here).
    wait_for("the index to say so", Duration::from_secs(10), || async {
        String::from_utf8_lossy(&get(&a.url("/"), &[]).await.2).contains("unreachable")
    })
    .await;
    for path in ["/health", "/"] {
        let (_, _, body) = get(&a.url(path), &[]).await;
        let body = String::from_utf8_lossy(&body).into_owned();
        assert!(body.contains("unreachable"), "{path}: {body}");
        assert!(!body.contains("hunter2"), "{path}: {body}");
    }
    // Never asked for before the outage, yet kept.
    for path in documents().iter().filter(|p| !p.ends_with("alpha.xml")) {
        let (s, _, body) = get(&a.url(path), &[]).await;
        assert_eq!(s, StatusCode::OK, "{path}");
        assert!(!body.is_empty(), "{path}");
    }
    while stopped.elapsed() < Duration::from_secs(30) {
        // The last copy this instance served, as it served it.
        let (s, h, body) = get(&feed, &[]).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(header(&h, "etag"), cached_etag);
        assert_eq!(body, cached_body);
        let (s, _, _) = get(&feed, &[("if-none-match", &cached_etag)]).await;
        assert_eq!(s, StatusCode::NOT_MODIFIED);
        let (s, _, _) = get(&a.url("/health"), &[]).await;
        assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE);
        assert!(!a.handle.is_finished(), "the daemon stopped");
        tokio::time::sleep(Duration::from_secs(2)).await;
    }

    tokio::task::block_in_place(|| cluster.start_server());
    let restarted = Instant::now();
    wait_for(
        "/health to be ok again",
        Duration::from_secs(30),
        || async { get(&a.url("/health"), &[]).await.2 == b"ok\n" },
    )
    .await;
    let healthy_after = restarted.elapsed();
    wait_for("runs to resume", Duration::from_secs(20), || async {
        tokio::task::block_in_place(|| count_runs(&cluster)) >= runs_before + 2
    })
    .await;
    // What is served again follows the database.
    wait_for(
        "the newest copy to be served",
        Duration::from_secs(10),
        || async {
            let (s, h, _) = get(&a.url("/feeds/bravo.xml"), &[]).await;
            let stored = tokio::task::block_in_place(|| {
                cluster.psql(
                    "outage",
                    "SELECT etag FROM documents WHERE name = 'bravo.xml'",
                )
            });
            s == StatusCode::OK && header(&h, "etag") == stored
        },
    )
    .await;
    assert_eq!(
        server.hits("/alpha"),
        1,
        "alpha ran once, before the outage"
    );
    println!(
        "outage of {:?}; healthy again {healthy_after:?} after the restart",
        restarted - stopped
    );
    a.shut_down().await;
}

/// Regression: the index page read the instances and leases from the
/// database on every request, so a database that hangs (no answer, no
/// error) held the page for up to twice the 20 s operation timeout. The
/// page now shows the last heartbeat's view and `/health` gives up after
/// 2 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_hanging_database_holds_up_neither_the_index_nor_health() {
    let Some(cluster) = start_cluster().await else {
        return;
    };
    let url = cluster.create_database("hang");
    let server = site().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server, &url, "1h", "every = \"1h\"");
    let a = Daemon::start(&config).await;
    wait_for(
        "the index to show the instance",
        Duration::from_secs(20),
        || async {
            String::from_utf8_lossy(&get(&a.url("/"), &[]).await.2).contains("1 instance alive")
        },
    )
    .await;
    tokio::task::block_in_place(|| cluster.freeze(true));
    let quick = |path: &'static str| {
        let url = a.url(path);
        async move {
            let asked = Instant::now();
            let answer = tokio::time::timeout(Duration::from_secs(8), get(&url, &[])).await;
            (answer, asked.elapsed())
        }
    };
    let (index, index_took) = quick("/").await;
    let (health, health_took) = quick("/health").await;
    tokio::task::block_in_place(|| cluster.freeze(false));
    let (status, _, body) = index.expect("the index answers while the database hangs");
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&body).contains("1 instance alive"));
    let (status, _, body) = health.expect("/health answers while the database hangs");
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(String::from_utf8_lossy(&body).contains("database unreachable"));
    println!("database hanging: index in {index_took:?}, /health in {health_took:?}");
    wait_for(
        "/health to be ok again",
        Duration::from_secs(30),
        || async { get(&a.url("/health"), &[]).await.2 == b"ok\n" },
    )
    .await;
    a.shut_down().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn once_skips_a_feed_another_instance_holds() {
    let Some(cluster) = start_cluster().await else {
        return;
    };
    let url = cluster.create_database("once");
    let server = site().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server, &url, "1h", "");
    let once = || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_feedmine"))
            .args(["once", "--config"])
            .arg(&config)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        (
            out.status.code(),
            stdout,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // The schema exists once a first run has opened the state.
    let (code, stdout, stderr) = tokio::task::block_in_place(once);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    // Another instance is running alpha: `once` leaves it alone.
    cluster.psql(
        "once",
        "INSERT INTO leases (feed, holder, acquired_ms, expires_ms) \
         VALUES ('alpha', 'elsewhere-1-abcd', 0, 9223372036854775807)",
    );
    let (code, stdout, stderr) = tokio::task::block_in_place(once);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "feed alpha: skipped: instance elsewhere-1-abcd is running this feed (it holds the feed's lease)"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("feed bravo: published"), "{stdout}");
    assert_eq!(server.hits("/alpha"), 1, "alpha ran on the first pass only");
    assert_eq!(server.hits("/bravo"), 2);
    // `once` stores what it publishes, and leaves no lease of its own.
    assert_eq!(
        cluster.psql(
            "once",
            "SELECT count(*) FROM documents WHERE feed = 'bravo'"
        ),
        "4"
    );
    assert_eq!(
        cluster.psql("once", "SELECT holder FROM leases"),
        "elsewhere-1-abcd"
    );
}
