//! A real reader end to end: newsboat (Debian's package) imports the OPML
//! feedmine serves and reloads the served feeds after each of three runs
//! over a board whose links carry a new session id on every visit. Its
//! cache (SQLite) must hold every topic once, with the right titles and
//! dates. Everything is on 127.0.0.1; newsboat runs with a temporary HOME,
//! config, URL file and cache. Skipped, with one line, when newsboat is not
//! installed (`.ci/run` installs it).

mod common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use common::{Reply, TestServer};
use feedmine::config;
use feedmine::publish::feed::Format;
use feedmine::publish::templates::Templates;
use feedmine::refresh::{Services, run_feed};
use feedmine::serve::metrics::Metrics;
use feedmine::serve::server::{self, AppState, ServerOptions};
use feedmine::serve::status::{FeedStatus, Health, StatusBoard};
use tokio_util::sync::CancellationToken;

/// newsboat on PATH (or at Debian's path), if installed.
fn newsboat() -> Option<PathBuf> {
    let debian = PathBuf::from("/usr/bin/newsboat");
    if debian.is_file() {
        return Some(debian);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("newsboat"))
            .find(|p| p.is_file())
    })
}

/// A phpBB-style board: topic links carry this visit's `sid`; each topic
/// has a poster and an absolute date (minutes apart).
fn board(sid: &str, topics: &[u32]) -> String {
    let mut html = String::from(
        "<!doctype html><html><head><title>Harbour makers — General board</title></head><body>\
         <div class=navbar><a href='./index.php?sid=x'>Board index</a> <a href='./faq.php'>FAQ</a></div>\
         <ul class='topiclist topics'>",
    );
    for t in topics {
        html.push_str(&format!(
            "<li class=row><dl><dt><a class=topictitle href='./viewtopic.php?f=2&amp;t={t}&amp;sid={sid}'>\
             Topic {t}: mooring lines and winter storage</a><br>by <a class=username \
             href='./memberlist.php?u={t}&amp;sid={sid}'>skipper{t}</a> » 2026-11-{:02} 14:{:02} UTC</dt>\
             <dd class=posts>{t} replies</dd></dl></li>",
            10 + t,
            t * 3
        ));
    }
    html.push_str("</ul><div class=copyright>Powered by a board</div></body></html>");
    html
}

/// The published files served by feedmine's own server.
async fn serve_output(out: &Path) -> (SocketAddr, CancellationToken) {
    let board = StatusBoard::new();
    board.put(FeedStatus {
        id: "board".into(),
        title: "Harbour makers — General board".into(),
        source: "http://127.0.0.1/board".into(),
        formats: vec![Format::Rss, Format::Atom],
        health: Health::Ok,
        last_run: None,
        last_success: None,
        items: 0,
        next_run: None,
    });
    let state = AppState {
        board,
        metrics: Metrics::new(),
        render_index: Arc::new(|_: &[FeedStatus]| Ok(String::new())),
        options: Arc::new(ServerOptions::new(out)),
        console: None,
        cluster: None,
    };
    let listener = server::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    let token = shutdown.clone();
    tokio::spawn(async move { server::serve(listener, state, token).await.unwrap() });
    (addr, shutdown)
}

/// (feed url, title, pubDate) of every item in newsboat's cache.
fn cached_items(cache: &Path) -> Vec<(String, String, i64)> {
    let conn = rusqlite::Connection::open(cache).unwrap();
    let mut stmt = conn
        .prepare("SELECT feedurl, title, pubDate FROM rss_item ORDER BY feedurl, pubDate DESC")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn run_newsboat(bin: &Path, home: &Path, args: &[&str]) {
    let out = Command::new(bin)
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env_remove("http_proxy")
        .env_remove("HTTP_PROXY")
        .current_dir(home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "newsboat {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn newsboat_imports_the_opml_and_sees_each_topic_once_with_its_date() {
    let Some(bin) = newsboat() else {
        eprintln!("skipping newsboat end-to-end test: newsboat is not installed");
        return;
    };
    let site = TestServer::start([("/board", Reply::html(board("a1", &[1, 2, 3, 4, 5])))]).await;
    let dir = tempfile::tempdir().unwrap();
    let config_path = dir.path().join("feeds.toml");
    std::fs::write(
        &config_path,
        format!(
            "output_dir = \"out\"\ntimeout = \"3s\"\nhost_delay = \"0s\"\ntimezone = \"UTC\"\n\
             formats = [\"rss\", \"atom\"]\n\n[[feed]]\nid = \"board\"\nurl = \"{}\"\n",
            site.url("/board")
        ),
    )
    .unwrap();
    let cfg = config::load(&config_path).unwrap();
    let services = Services::open(&cfg, Templates::load(None, None, None).unwrap()).unwrap();
    let out = dir.path().join("out");
    let t0: DateTime<Utc> = Utc::now();
    run_feed(&services, &cfg, &cfg.feeds[0], t0).await.unwrap();
    let (addr, shutdown) = serve_output(&out).await;

    // The reader's own files, nowhere near the real HOME.
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".newsboat")).unwrap();
    let nb_config = home.join("config");
    std::fs::write(
        &nb_config,
        "reload-threads 1\ndownload-timeout 10\nshow-read-feeds yes\n",
    )
    .unwrap();
    let opml = reqwest::get(format!("http://{addr}/feeds.opml"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let opml_path = home.join("feeds.opml");
    std::fs::write(&opml_path, &opml).unwrap();
    let (urls, cache) = (home.join("urls"), home.join("cache.db"));
    let (urls_s, cache_s, conf_s) = (
        urls.to_str().unwrap().to_string(),
        cache.to_str().unwrap().to_string(),
        nb_config.to_str().unwrap().to_string(),
    );
    run_newsboat(
        &bin,
        &home,
        &[
            "-i",
            opml_path.to_str().unwrap(),
            "-u",
            &urls_s,
            "-C",
            &conf_s,
        ],
    );
    let imported = std::fs::read_to_string(&urls).unwrap();
    assert!(
        imported.contains(&format!("http://{addr}/feeds/board.xml")),
        "newsboat imported: {imported}"
    );
    let reload = ["-x", "reload", "-u", &urls_s, "-c", &cache_s, "-C", &conf_s];
    run_newsboat(&bin, &home, &reload);
    let first = cached_items(&cache);
    assert_eq!(first.len(), 5, "{first:?}");

    // Two more visits, each with a new session id; a sixth topic appears.
    for (n, sid) in [(1, "b2"), (2, "c3")] {
        site.set("/board", Reply::html(board(sid, &[6, 1, 2, 3, 4, 5])));
        run_feed(
            &services,
            &cfg,
            &cfg.feeds[0],
            t0 + Duration::minutes(30 * n),
        )
        .await
        .unwrap();
        run_newsboat(&bin, &home, &reload);
    }
    let items = cached_items(&cache);
    assert_eq!(items.len(), 6, "one entry per topic: {items:?}");
    let mut titles: Vec<&str> = items.iter().map(|i| i.1.as_str()).collect();
    titles.sort();
    titles.dedup();
    assert_eq!(titles.len(), 6);
    // Dates as the page wrote them (UTC), read right by the reader.
    let expected = |t: u32| {
        DateTime::parse_from_rfc3339(&format!("2026-11-{:02}T14:{:02}:00Z", 10 + t, t * 3))
            .unwrap()
            .timestamp()
    };
    for (_, title, date) in &items {
        let t: u32 = title["Topic ".len()..title.find(':').unwrap()]
            .parse()
            .unwrap();
        assert_eq!(*date, expected(t), "{title}");
    }
    let feed_title: String = rusqlite::Connection::open(&cache)
        .unwrap()
        .query_row("SELECT title FROM rss_feed", [], |r| r.get(0))
        .unwrap();
    assert_eq!(feed_title, "Harbour makers — General board");
    shutdown.cancel();
}
