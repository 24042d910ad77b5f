//! The daemon and the stateful run, against a local server: conditional
//! GET, stable item identity and dates, bodies only for new items, drift,
//! Retry-After, config reload, signals, serving, and kill -9 at random
//! points of a run with nothing lost or duplicated.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{Reply, TestServer};
use feedmine::daemon::{self, DaemonOptions};
use feedmine::serve::status::{Health, StatusBoard};
use tokio_util::sync::CancellationToken;

/// A forum board: topics without dates (so pubDate comes from first-seen),
/// each linking to its thread page.
fn board(topics: &[(&str, &str)]) -> String {
    let mut html = String::from(
        "<!doctype html><html lang=en><head><title>Tinkerers' forum — Workshop board</title></head><body>\
         <header><a href='/'>Forum</a> <a href='/search'>Search</a> <a href='/login'>Log in</a></header>\
         <main><h1>Workshop</h1><table class=topics><tbody>",
    );
    for (slug, title) in topics {
        html.push_str(&format!(
            "<tr class=topic><td class=title><a href='/t/{slug}'>{title}</a>\
             <div class=starter>started by <a href='/u/{slug}-author'>{slug}_author</a></div></td>\
             <td class=replies>12 replies</td><td class=views>340 views</td></tr>"
        ));
    }
    html.push_str("</tbody></table></main><footer><a href='/rules'>Rules</a> <a href='/privacy'>Privacy</a></footer></body></html>");
    html
}

fn thread(title: &str) -> String {
    let para = "The bench vice kept slipping on the old oak top until I fitted a pair of \
                leather jaw liners, which took an afternoon and cost almost nothing. ";
    format!(
        "<!doctype html><html><head><title>{title}</title></head><body><nav><a href='/'>Forum</a></nav>\
         <article><h1>{title}</h1><p>{}</p><p>{}</p><p>{}</p></article><footer>Rules</footer></body></html>",
        para.repeat(3),
        para.repeat(2),
        para.repeat(4)
    )
}

const TOPICS: [(&str, &str); 6] = [
    ("vice-jaws", "Leather liners for vice jaws"),
    ("plane-iron", "Flattening a plane iron back"),
    ("glue-up", "Clamping a wide panel glue-up"),
    ("dust", "Cyclone dust collector on a budget"),
    ("saw-set", "Setting teeth on an old rip saw"),
    ("finish", "Oil versus wax on a workbench"),
];

async fn forum() -> TestServer {
    let mut routes: Vec<(String, Reply)> = vec![(
        "/board".into(),
        Reply::html(board(&TOPICS)).with_header("ETag", "\"v1\""),
    )];
    for (slug, title) in TOPICS
        .iter()
        .chain([("new-topic", "Sharpening card scrapers")].iter())
    {
        routes.push((format!("/t/{slug}"), Reply::html(thread(title))));
    }
    TestServer::start(routes).await
}

fn write_config(dir: &Path, body: &str) -> PathBuf {
    let path = dir.join("feeds.toml");
    std::fs::write(&path, body).unwrap();
    path
}

/// The forum feed's config; `extra` lines go to the top (file-wide
/// settings), `feed_extra` into the feed's table.
fn forum_config_with(dir: &Path, server: &TestServer, extra: &str, feed_extra: &str) -> PathBuf {
    write_config(
        dir,
        &format!(
            "output_dir = \"out\"\ntimeout = \"3s\"\nhost_delay = \"0s\"\nformats = [\"rss\", \"atom\", \"json\"]\n{extra}\n\
             [[feed]]\nid = \"forum\"\nurl = \"{}\"\nallow_private_addresses = true\nbodies_delay = \"0s\"\n{feed_extra}\n",
            server.url("/board")
        ),
    )
}

fn forum_config(dir: &Path, server: &TestServer, extra: &str) -> PathBuf {
    forum_config_with(dir, server, extra, "")
}

fn feedmine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

async fn once(config: &Path) -> Output {
    let config = config.display().to_string();
    tokio::task::spawn_blocking(move || feedmine(&["once", "--config", &config]))
        .await
        .unwrap()
}

/// (guid, title, pubDate) of every item of an RSS file, in order.
fn rss_items(path: &Path) -> Vec<(String, String, String)> {
    let text = std::fs::read(path).unwrap();
    let channel = rss::Channel::read_from(&text[..]).unwrap();
    channel
        .items()
        .iter()
        .map(|i| {
            (
                i.guid().map(|g| g.value().to_string()).unwrap_or_default(),
                i.title().unwrap_or_default().to_string(),
                i.pub_date().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn article_hits(server: &TestServer) -> usize {
    server
        .requests()
        .iter()
        .filter(|r| r.path().starts_with("/t/"))
        .count()
}

#[tokio::test(flavor = "multi_thread")]
async fn conditional_get_stable_identity_and_bodies_only_for_new_items() {
    let server = forum().await;
    let dir = tempfile::tempdir().unwrap();
    let config = forum_config(dir.path(), &server, "");
    let out = dir.path().join("out");

    let run = once(&config).await;
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let first = rss_items(&out.join("forum.xml"));
    assert_eq!(first.len(), 6);
    assert_eq!(first[0].1, "Leather liners for vice jaws");
    // No dates on the page: pubDate is first-seen, decreasing in page order
    // so readers keep the page's order.
    let dates: Vec<_> = first
        .iter()
        .map(|(_, _, d)| chrono::DateTime::parse_from_rfc2822(d).unwrap())
        .collect();
    assert!(dates.windows(2).all(|w| w[0] > w[1]), "{dates:?}");
    assert_eq!(article_hits(&server), 6);
    for ext in ["atom", "json"] {
        assert!(out.join(format!("forum.{ext}")).is_file());
    }
    assert!(out.join("feeds.opml").is_file() && out.join("feed.xsl").is_file());

    // Second run: the validator goes out, a 304 comes back, nothing is
    // re-parsed or rewritten.
    server.set("/board", Reply::Status(304, Vec::new()));
    let before = std::fs::metadata(out.join("forum.xml"))
        .unwrap()
        .modified()
        .unwrap();
    let run = once(&config).await;
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stdout).contains("not modified"));
    let last = server
        .requests()
        .into_iter()
        .rfind(|r| r.path() == "/board")
        .unwrap();
    assert_eq!(last.header("if-none-match"), Some("\"v1\""));
    assert_eq!(
        std::fs::metadata(out.join("forum.xml"))
            .unwrap()
            .modified()
            .unwrap(),
        before
    );

    // The page changes: a new topic on top, the others shift and one is
    // renamed in place. The known ones stay the same items with the same
    // dates; only the new one's thread is fetched.
    let mut topics = vec![("new-topic", "Sharpening card scrapers")];
    topics.extend(TOPICS.iter().copied());
    topics[3].1 = "Clamping a wide panel glue-up (solved)";
    topics.pop();
    server.set(
        "/board",
        Reply::html(board(&topics)).with_header("ETag", "\"v2\""),
    );
    let run = once(&config).await;
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let third = rss_items(&out.join("forum.xml"));
    assert_eq!(third[0].1, "Sharpening card scrapers");
    assert_eq!(article_hits(&server), 7, "bodies only for the new item");
    for (guid, _, date) in &first {
        let again = third
            .iter()
            .find(|(g, _, _)| g == guid)
            .unwrap_or_else(|| panic!("item {guid} vanished: {third:?}"));
        assert_eq!(&again.2, date, "first-seen date of {guid} changed");
    }
    // The topic that scrolled off the page is still in the feed.
    assert_eq!(third.len(), 7);
    let guids: std::collections::HashSet<_> = third.iter().map(|(g, _, _)| g).collect();
    assert_eq!(guids.len(), 7, "no duplicates");
    assert!(
        third
            .iter()
            .any(|(_, t, _)| t == "Clamping a wide panel glue-up (solved)")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_feed_config_change_invalidates_its_fetch_cache() {
    let server = forum().await;
    let dir = tempfile::tempdir().unwrap();
    let config = forum_config(dir.path(), &server, "");
    assert_eq!(once(&config).await.status.code(), Some(0));
    server.set("/board", Reply::Status(304, Vec::new()));
    // The feed's config changes (another max_items): the stored validator
    // no longer applies, so the request is unconditional.
    forum_config(dir.path(), &server, "max_items = 3");
    let run = once(&config).await;
    let last = server
        .requests()
        .into_iter()
        .rfind(|r| r.path() == "/board")
        .unwrap();
    assert_eq!(last.header("if-none-match"), None);
    // The server answered 304 to an unconditional request: that is an error
    // (nothing to publish from), and the previous files stay.
    assert_eq!(run.status.code(), Some(1));
    assert_eq!(rss_items(&dir.path().join("out/forum.xml")).len(), 6);
}

#[tokio::test(flavor = "multi_thread")]
async fn drift_keeps_the_previous_items_and_says_degraded() {
    let server = forum().await;
    let dir = tempfile::tempdir().unwrap();
    let config = forum_config(dir.path(), &server, "");
    for v in 0..3 {
        server.set(
            "/board",
            Reply::html(board(&TOPICS)).with_header("ETag", &format!("\"r{v}\"")),
        );
        assert_eq!(once(&config).await.status.code(), Some(0));
    }
    // A redesign: the board now shows a single pinned topic row.
    server.set(
        "/board",
        Reply::html(board(&TOPICS[..1])).with_header("ETag", "\"x\""),
    );
    let run = once(&config).await;
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        format!("{stdout}{stderr}")
            .to_lowercase()
            .contains("degraded"),
        "{stdout}\n{stderr}"
    );
    let items = rss_items(&dir.path().join("out/forum.xml"));
    assert_eq!(items.len(), 6, "the previous items stay published");
    assert!(
        items
            .iter()
            .all(|(_, t, _)| !t.to_lowercase().contains("degraded"))
    );
}

async fn wait_for(what: &str, timeout: Duration, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn start_daemon(
    config: &Path,
    listener: Option<tokio::net::TcpListener>,
) -> (StatusBoard, CancellationToken, tokio::task::JoinHandle<()>) {
    let board = StatusBoard::new();
    let token = CancellationToken::new();
    let (_tx, rx) = tokio::sync::mpsc::channel(1);
    let opts = DaemonOptions {
        config_path: config.to_path_buf(),
        listen: None,
        once_now: true,
        watch_config: true,
        shutdown_grace: Duration::from_secs(2),
    };
    let handle = tokio::spawn({
        let board = board.clone();
        let token = token.clone();
        async move {
            let _tx = _tx;
            daemon::run_with_board(opts, token, rx, board, listener)
                .await
                .unwrap();
        }
    });
    (board, token, handle)
}

#[tokio::test(flavor = "multi_thread")]
async fn retry_after_is_honoured_by_the_scheduler() {
    let server = TestServer::start([(
        "/board",
        Reply::Status(503, b"busy".to_vec()).with_header("Retry-After", "3"),
    )])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "output_dir = \"out\"\nevery = \"1s\"\nbackoff_base = \"1s\"\nhost_delay = \"0s\"\n\
             [[feed]]\nid = \"busy\"\nurl = \"{}\"\n",
            server.url("/board")
        ),
    );
    let (board, token, handle) = start_daemon(&config, None);
    wait_for("the first failure", Duration::from_secs(10), || {
        matches!(
            board.get("busy").map(|s| s.health),
            Some(Health::Failing { .. })
        )
    })
    .await;
    tokio::time::sleep(Duration::from_millis(2000)).await;
    // Every second is the schedule, but the server asked for 3 s.
    assert_eq!(server.hits("/board"), 1);
    wait_for("the retry", Duration::from_secs(10), || {
        server.hits("/board") >= 2
    })
    .await;
    token.cancel();
    handle.await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn reload_applies_a_good_config_and_rejects_a_broken_one() {
    let server = forum().await;
    let dir = tempfile::tempdir().unwrap();
    let config = forum_config(dir.path(), &server, "every = \"1h\"");
    let (board, token, handle) = start_daemon(&config, None);
    wait_for("the first run", Duration::from_secs(20), || {
        board.get("forum").is_some_and(|s| s.last_run.is_some())
    })
    .await;
    // Add a feed.
    let good = format!(
        "{}\n[[feed]]\nid = \"forum2\"\nurl = \"{}\"\nbodies = false\n",
        std::fs::read_to_string(&config).unwrap(),
        server.url("/board")
    );
    // mtime resolution: make sure the stamp changes.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    std::fs::write(&config, &good).unwrap();
    wait_for("the new feed", Duration::from_secs(20), || {
        board.get("forum2").is_some_and(|s| s.last_run.is_some())
    })
    .await;
    // A broken file is rejected; both feeds keep running.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    std::fs::write(
        &config,
        "output_dir = \"out\"\n[[feed]]\nid = \"forum\"\nurl = 42\n",
    )
    .unwrap();
    tokio::time::sleep(Duration::from_secs(5)).await;
    assert!(board.get("forum").is_some() && board.get("forum2").is_some());
    token.cancel();
    handle.await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn the_server_answers_conditional_requests_for_published_feeds() {
    let server = forum().await;
    let dir = tempfile::tempdir().unwrap();
    let config = forum_config(dir.path(), &server, "every = \"1h\"");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (board, token, handle) = start_daemon(&config, Some(listener));
    wait_for("the first run", Duration::from_secs(20), || {
        board.get("forum").is_some_and(|s| s.last_run.is_some())
    })
    .await;
    let client = reqwest::Client::new();
    let url = format!("http://{addr}/feeds/forum.xml");
    let r = client.get(&url).send().await.unwrap();
    assert_eq!(r.status(), 200);
    let etag = r.headers()["etag"].to_str().unwrap().to_string();
    let body = r.text().await.unwrap();
    assert!(body.contains("Leather liners for vice jaws"));
    let r = client
        .get(&url)
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 304);
    let index = client
        .get(format!("http://{addr}/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(index.contains("forum"));
    let health = client
        .get(format!("http://{addr}/health"))
        .send()
        .await
        .unwrap();
    assert_eq!(health.status(), 200);
    let metrics = client
        .get(format!("http://{addr}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains("feedmine_runs_total"), "{metrics}");
    token.cancel();
    handle.await.unwrap();
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn sighup_reloads_and_sigterm_stops_cleanly() {
    let server = forum().await;
    let dir = tempfile::tempdir().unwrap();
    let config = forum_config(dir.path(), &server, "every = \"1h\"");
    let mut child = Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["run", "--config", &config.display().to_string()])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    let out = dir.path().join("out/forum.xml");
    wait_for("the first publish", Duration::from_secs(20), || {
        out.is_file()
    })
    .await;
    // A broken config + SIGHUP: rejected, the daemon keeps running.
    std::fs::write(&config, "[[feed]]\nid = \"forum\"\n").unwrap();
    Command::new("kill").args(["-HUP", &pid]).status().unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        child.try_wait().unwrap().is_none(),
        "the daemon died on a bad reload"
    );
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let status = tokio::task::spawn_blocking(move || {
        let status = child.wait().unwrap();
        let mut err = String::new();
        use std::io::Read;
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        (status, err)
    })
    .await
    .unwrap();
    assert!(status.0.success(), "{}", status.1);
    assert!(status.1.contains("reload rejected"), "{}", status.1);
    assert!(
        status.1.contains("url"),
        "the rejection names the field: {}",
        status.1
    );
    assert!(status.1.contains("stopped"), "{}", status.1);
}

/// kill -9 at random points of runs, many times: the published files are
/// always complete (old or new), the state is never corrupt, and after a
/// final clean run no item is lost or duplicated and no date changed.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn kill_9_at_random_points_loses_and_duplicates_nothing() {
    let server = forum().await;
    // Slow thread pages, so kills land while bodies are being fetched too.
    for (slug, title) in TOPICS
        .iter()
        .chain([("new-topic", "Sharpening card scrapers")].iter())
    {
        server.set(
            &format!("/t/{slug}"),
            Reply::html(thread(title)).delayed(Duration::from_millis(40)),
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let config = forum_config_with(
        dir.path(),
        &server,
        "every = \"1s\"",
        "bodies_concurrency = 1",
    );
    let out = dir.path().join("out/forum.xml");
    let mut rng = fastrand::Rng::with_seed(20261122);
    let trials = 25;
    let mut first_dates: Option<Vec<(String, String, String)>> = None;
    let mut trials_with_file = 0;
    for trial in 0..trials {
        // Halfway, the page gains a topic: kills also hit merges of new items.
        if trial == trials / 2 {
            let mut topics = vec![("new-topic", "Sharpening card scrapers")];
            topics.extend(TOPICS.iter().copied());
            server.set(
                "/board",
                Reply::html(board(&topics)).with_header("ETag", "\"v2\""),
            );
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_feedmine"))
            .args([
                "run",
                "--once-now",
                "--config",
                &config.display().to_string(),
            ])
            .env("RUST_LOG", "off")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        tokio::time::sleep(Duration::from_millis(rng.u64(20..700))).await;
        Command::new("kill")
            .args(["-KILL", &child.id().to_string()])
            .status()
            .unwrap();
        let _ = child.wait();
        if out.exists() {
            // Old or new, never partial: it always parses.
            let items = rss_items(&out);
            assert!(items.len() >= 6, "trial {trial}: {items:?}");
            trials_with_file += 1;
            if first_dates.is_none() {
                first_dates = Some(items);
            }
        }
    }
    // Some kills came after a publish, so old/new files were really checked.
    assert!(trials_with_file > 0);
    let run = once(&config).await;
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let items = rss_items(&out);
    assert_eq!(items.len(), 7, "{items:?}");
    let guids: std::collections::HashSet<_> = items.iter().map(|(g, _, _)| g.clone()).collect();
    assert_eq!(guids.len(), 7);
    if let Some(first) = first_dates {
        for (guid, _, date) in first {
            let now = items.iter().find(|(g, _, _)| *g == guid).unwrap();
            assert_eq!(now.2, date, "date of {guid} changed across kills");
        }
    }
    // The state file passes SQLite's own integrity check.
    let db = rusqlite::Connection::open(dir.path().join("feedmine.db")).unwrap();
    let ok: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failing_feed_backs_off_and_recovers_when_its_site_does() {
    let server = forum().await;
    server.set(
        "/board",
        Reply::Status(500, b"<h1>Internal Server Error</h1>".to_vec()),
    );
    let dir = tempfile::tempdir().unwrap();
    let config = forum_config(
        dir.path(),
        &server,
        "every = \"1s\"\nbackoff_base = \"1s\"\nbackoff_max = \"4s\"",
    );
    let (board, token, handle) = start_daemon(&config, None);
    tokio::time::sleep(Duration::from_millis(5500)).await;
    // Every second without backoff would be 6 tries; doubling waits (1 s,
    // then ≥1, ≥2, ≥2 s with jitter) put the 5th try at ≥6 s.
    let tries = server.hits("/board");
    assert!((2..=4).contains(&tries), "{tries} tries in 5.5 s");
    assert!(matches!(
        board.get("forum").map(|s| s.health),
        Some(Health::Failing { consecutive_failures, .. }) if consecutive_failures >= 2
    ));
    // The site comes back: the feed recovers on its own.
    server.set("/board", Reply::html(board_html()));
    wait_for("recovery", Duration::from_secs(15), || {
        board.get("forum").is_some_and(|s| s.health == Health::Ok)
    })
    .await;
    assert_eq!(rss_items(&dir.path().join("out/forum.xml")).len(), 6);
    token.cancel();
    handle.await.unwrap();
}

fn board_html() -> String {
    board(&TOPICS)
}
