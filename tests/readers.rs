//! What a subscriber sees over repeated runs, against pages served from
//! 127.0.0.1: one item per record whatever the session ids in its links,
//! relative dates that do not move, whole-second UTC times, bylines and
//! tags, bodies retried after a 304, and private-address refusals that say
//! so. Every format is parsed back with a reader's parser (rss,
//! atom_syndication, serde_json).

mod common;

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};
use common::{Reply, TestServer};
use feedmine::config::{self, Config};
use feedmine::publish::templates::Templates;
use feedmine::refresh::{Services, run_feed};

/// A phpBB-style board: every link carries this visit's session id in
/// `param`, each topic has a poster, a label and a relative date.
fn board(param: &str, sid: &str, topics: &[u32]) -> String {
    let mut html = String::from(
        "<!doctype html><html><head><title>Harbour makers — General board</title></head><body>\
         <div class=navbar><a href='./index.php'>Board index</a> <a href='./search.php'>Search</a></div>\
         <ul class='topiclist topics'>",
    );
    for t in topics {
        html.push_str(&format!(
            "<li class=row><dl><dt><a class=topictitle href='./viewtopic.php?f=2&amp;t={t}&amp;{param}={sid}'>\
             Topic number {t} about tides and boats</a><br>by <a class=username href='./memberlist.php?u={t}&amp;{param}={sid}'>\
             skipper{t}</a> » Posted {t} days ago <span class=labels><a href='./tag.php?l=sail'>Sailing</a></span></dt>\
             <dd class=posts>{t} replies</dd><dd class=views>{} views</dd></dl></li>",
            t * 17
        ));
    }
    html.push_str("</ul><div class=copyright>Powered by a board</div></body></html>");
    html
}

fn write_config(dir: &Path, server: &TestServer, feed_extra: &str) -> PathBuf {
    let path = dir.join("feeds.toml");
    std::fs::write(
        &path,
        format!(
            "output_dir = \"out\"\ntimeout = \"3s\"\nhost_delay = \"0s\"\n\
             formats = [\"rss\", \"atom\", \"json\"]\n\n[[feed]]\nid = \"board\"\nurl = \"{}\"\n\
             bodies_delay = \"0s\"\n{feed_extra}\n",
            server.url("/board")
        ),
    )
    .unwrap();
    path
}

fn load(path: &Path) -> (Config, Services) {
    let cfg = config::load(path).unwrap();
    let services = Services::open(&cfg, Templates::load(None, None, None).unwrap()).unwrap();
    (cfg, services)
}

/// One RSS item as read back: guid, title, pubDate, dc:creator, categories.
type RssItem = (String, String, String, Option<String>, Vec<String>);

/// Items of the three files, as (id, title, date text) per format.
struct Published {
    rss: Vec<RssItem>,
    atom: Vec<(String, String)>,
    json: Vec<(String, String)>,
    atom_xml: String,
}

fn published(dir: &Path) -> Published {
    let out = dir.join("out");
    let rss_bytes = std::fs::read(out.join("board.xml")).unwrap();
    let channel = rss::Channel::read_from(&rss_bytes[..]).unwrap();
    let rss = channel
        .items()
        .iter()
        .map(|i| {
            (
                i.guid().unwrap().value().to_string(),
                i.title().unwrap_or_default().to_string(),
                i.pub_date().unwrap_or_default().to_string(),
                i.dublin_core_ext()
                    .and_then(|d| d.creators().first().cloned()),
                i.categories()
                    .iter()
                    .map(|c| c.name().to_string())
                    .collect(),
            )
        })
        .collect();
    let atom_xml = std::fs::read_to_string(out.join("board.atom")).unwrap();
    let feed = atom_syndication::Feed::read_from(atom_xml.as_bytes()).unwrap();
    let atom = feed
        .entries
        .iter()
        .map(|e| (e.id.clone(), e.updated.to_rfc3339()))
        .collect();
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("board.json")).unwrap()).unwrap();
    let json = json["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["id"].as_str().unwrap().to_string(),
                i["date_published"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    Published {
        rss,
        atom,
        json,
        atom_xml,
    }
}

async fn run(cfg: &Config, services: &Services, now: DateTime<Utc>) {
    run_feed(services, cfg, &cfg.feeds[0], now)
        .await
        .unwrap_or_else(|e| panic!("run failed: {e}"));
}

/// Regression (issue: a board went 7 → 15 → 22 items in three runs): a
/// new session id per visit, default-ignored (`sid`) or learnt (`vk`),
/// never makes an item new. The relative dates ("Posted 3 days ago") keep
/// their first-sight value though the runs happen hours apart, and every
/// time is whole-second UTC (`+0000`, `Z`).
#[tokio::test(flavor = "multi_thread")]
async fn session_ids_and_relative_dates_over_three_runs() {
    for param in ["sid", "vk"] {
        let topics = [1, 2, 3, 4, 5, 6, 7];
        let server =
            TestServer::start([("/board", Reply::html(board(param, "a1f3", &topics)))]).await;
        let dir = tempfile::tempdir().unwrap();
        let config_path = write_config(dir.path(), &server, "");
        let (cfg, services) = load(&config_path);
        let t0 = DateTime::parse_from_rfc3339("2026-11-20T09:15:42.123456789Z")
            .unwrap()
            .to_utc();
        run(&cfg, &services, t0).await;
        let first = published(dir.path());
        assert_eq!(first.rss.len(), 7, "{param}");
        for (n, sid) in [(1, "b2c4"), (2, "c3d5")] {
            server.set("/board", Reply::html(board(param, sid, &topics)));
            run(&cfg, &services, t0 + Duration::minutes(97 * n)).await;
        }
        let third = published(dir.path());
        assert_eq!(
            third.rss.len(),
            7,
            "{param}: no duplicates after three runs"
        );
        assert_eq!(third.atom.len(), 7);
        assert_eq!(third.json.len(), 7);
        let ids = |p: &Published| p.rss.iter().map(|i| i.0.clone()).collect::<Vec<_>>();
        assert_eq!(
            ids(&first),
            ids(&third),
            "{param}: guids fixed at first sight"
        );
        let dates = |p: &Published| p.rss.iter().map(|i| i.2.clone()).collect::<Vec<_>>();
        assert_eq!(
            dates(&first),
            dates(&third),
            "{param}: relative dates moved"
        );
        assert_eq!(first.rss[0].2, "Thu, 19 Nov 2026 09:15:42 +0000");
        assert_eq!(third.atom[0].1, "2026-11-19T09:15:42+00:00");
        assert!(
            third
                .atom_xml
                .contains("<updated>2026-11-19T09:15:42Z</updated>")
        );
        assert_eq!(third.json[0].1, "2026-11-19T09:15:42Z");
        for (_, _, date, _, _) in &third.rss {
            assert!(date.ends_with(":42 +0000"), "{date}");
        }
        // The poster and the label reach the feed.
        assert_eq!(third.rss[0].3.as_deref(), Some("skipper1"));
        assert_eq!(third.rss[0].4, ["Sailing"]);
        if param == "vk" {
            assert_eq!(services.store.volatile_params("board").unwrap(), ["vk"]);
            // `preview --feed` shows what the state learnt, and the bylines.
            let config_arg = config_path.to_str().unwrap().to_string();
            let out = tokio::task::spawn_blocking(move || {
                std::process::Command::new(env!("CARGO_BIN_EXE_feedmine"))
                    .args(["preview", "--config", &config_arg, "--feed", "board"])
                    .output()
                    .unwrap()
            })
            .await
            .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(stdout.contains("learnt as volatile: vk"), "{stdout}");
            assert!(stdout.contains("by:    skipper1"), "{stdout}");
            assert!(stdout.contains("tags:  Sailing"), "{stdout}");
        }
        assert_eq!(services.store.item_count("board").unwrap(), 7);
    }
}

fn article(title: &str) -> String {
    let para = "The harbour master announced that the winter ferry timetable starts on the \
                first Monday of December, with two extra crossings on market days. ";
    format!(
        "<!doctype html><html><head><title>{title}</title>\
         <meta property='article:tag' content='Ferries'></head><body><nav><a href='/'>Home</a></nav>\
         <article><h1>{title}</h1><p>{}</p><p>{}</p><p>{}</p></article></body></html>",
        para.repeat(3),
        para.repeat(2),
        para.repeat(3)
    )
}

fn news_list() -> String {
    let mut html = String::from(
        "<!doctype html><html><head><title>Harbour Gazette</title></head><body><main><ul class=news>",
    );
    for (slug, title) in [
        ("ferry", "Winter ferry timetable announced"),
        ("quay", "Quay repairs finish early"),
        ("fish", "Fish market moves to the east pier"),
    ] {
        html.push_str(&format!(
            "<li class=story><h2><a href='/n/{slug}'>{title}</a></h2>\
             <p>A short summary of the story about the {slug} for the front page.</p></li>"
        ));
    }
    html.push_str("</ul></main></body></html>");
    html
}

/// Regression: an article that failed once kept only its summary forever
/// when the list page then answered 304. It is retried once its backoff
/// has passed, and the republished feed carries the body and the article
/// page's tag.
#[tokio::test(flavor = "multi_thread")]
async fn failed_bodies_are_retried_after_a_304() {
    let server = TestServer::start([
        (
            "/board",
            Reply::html(news_list()).with_header("ETag", "\"v1\""),
        ),
        ("/n/ferry", Reply::Status(500, b"busy".to_vec())),
        ("/n/quay", Reply::html(article("Quay repairs finish early"))),
        ("/n/fish", Reply::html(article("Fish market moves"))),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let (cfg, services) = load(&write_config(
        dir.path(),
        &server,
        "bodies = true\nallow_private_addresses = true",
    ));
    let t0 = Utc::now();
    let report = run_feed(&services, &cfg, &cfg.feeds[0], t0).await.unwrap();
    assert_eq!((report.bodies_filled, report.bodies_failed), (2, 1));
    server.set("/board", Reply::Status(304, Vec::new()));
    server.set(
        "/n/ferry",
        Reply::html(article("Winter ferry timetable announced")),
    );
    // Too early: the backoff (15 min after the first failure) holds it.
    let early = run_feed(&services, &cfg, &cfg.feeds[0], t0 + Duration::minutes(5))
        .await
        .unwrap();
    assert_eq!(early.bodies_filled + early.bodies_failed, 0);
    assert_eq!(server.hits("/n/ferry"), 1);
    let later = run_feed(&services, &cfg, &cfg.feeds[0], t0 + Duration::minutes(16))
        .await
        .unwrap();
    assert_eq!((later.bodies_filled, later.bodies_failed), (1, 0));
    assert!(!later.paths.is_empty(), "the feed is republished");
    let rss = std::fs::read(dir.path().join("out/board.xml")).unwrap();
    let channel = rss::Channel::read_from(&rss[..]).unwrap();
    let ferry = channel
        .items()
        .iter()
        .find(|i| i.link().is_some_and(|l| l.ends_with("/n/ferry")))
        .unwrap();
    assert!(ferry.content().unwrap().contains("two extra crossings"));
    assert_eq!(ferry.categories()[0].name(), "Ferries");
    assert_eq!(
        channel.title(),
        "Harbour Gazette",
        "page title kept across the 304"
    );
}

/// Regression: with `allow_private_addresses` off, an article on
/// 127.0.0.1 failed as "disallowed by robots.txt" and that verdict was
/// cached for an hour, so fixing the config did not help.
#[tokio::test(flavor = "multi_thread")]
async fn private_address_refusals_name_the_setting_and_are_not_cached() {
    let server = TestServer::start([
        ("/board", Reply::html(news_list())),
        (
            "/n/ferry",
            Reply::html(article("Winter ferry timetable announced")),
        ),
        ("/n/quay", Reply::html(article("Quay repairs finish early"))),
        ("/n/fish", Reply::html(article("Fish market moves"))),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let path = write_config(dir.path(), &server, "bodies = true");
    let check = std::process::Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["check", "--config", path.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(check.status.success(), "{stderr}");
    assert!(
        stderr.contains("loopback address") && stderr.contains("allow_private_addresses = true"),
        "{stderr}"
    );
    let (cfg, services) = load(&path);
    let t0 = Utc::now();
    let report = run_feed(&services, &cfg, &cfg.feeds[0], t0).await.unwrap();
    assert_eq!(report.bodies_failed, 3);
    assert_eq!(
        server.hits("/robots.txt"),
        0,
        "nothing was asked of the site"
    );
    assert!(
        services.robots.is_empty(),
        "a refusal is not a robots.txt answer"
    );
    // The user fixes the config; the next run (after the backoff) fetches.
    std::fs::write(
        &path,
        std::fs::read_to_string(&path).unwrap().replace(
            "bodies = true",
            "bodies = true\nallow_private_addresses = true",
        ),
    )
    .unwrap();
    let cfg = config::load(&path).unwrap();
    let report = run_feed(&services, &cfg, &cfg.feeds[0], t0 + Duration::minutes(16))
        .await
        .unwrap();
    assert_eq!((report.bodies_filled, report.bodies_failed), (3, 0));
}

/// An exclude rule that removes every item must not empty the feed
/// readers see: nothing new is published, the previous files stay.
#[tokio::test(flavor = "multi_thread")]
async fn a_filter_that_removes_every_item_publishes_nothing_new() {
    let server = TestServer::start([("/board", Reply::html(news_list()))]).await;
    let dir = tempfile::tempdir().unwrap();
    let path = write_config(dir.path(), &server, "");
    let (cfg, services) = load(&path);
    run(&cfg, &services, Utc::now()).await;
    let before = std::fs::read(dir.path().join("out/board.xml")).unwrap();
    std::fs::write(
        &path,
        std::fs::read_to_string(&path).unwrap() + "exclude = [{ any = \".\" }]\n",
    )
    .unwrap();
    let cfg = config::load(&path).unwrap();
    let report = run_feed(
        &services,
        &cfg,
        &cfg.feeds[0],
        Utc::now() + Duration::minutes(1),
    )
    .await
    .unwrap();
    assert_eq!(report.published, 0);
    assert!(report.paths.is_empty());
    assert_eq!(
        std::fs::read(dir.path().join("out/board.xml")).unwrap(),
        before
    );
}

/// The bundled example runs clean: no warning, no failure; the pages the
/// example leaves out on purpose are named as missing, and the summary
/// ends with where the files are and what to try next.
#[test]
fn bundled_example_runs_clean() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(root.join("feeds.toml"), dir.path().join("feeds.toml")).unwrap();
    copy_dir(
        &root.join("examples/site"),
        &dir.path().join("examples/site"),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["once", "--config", "feeds.toml"])
        .current_dir(dir.path())
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(!stderr.contains("WARN"), "{stderr}");
    assert!(
        !stdout.contains(" 1 failed") && stdout.contains("0 failed"),
        "{stdout}"
    );
    assert!(stdout.contains("Feeds are in public"), "{stdout}");
    assert!(stdout.contains("feedmine demo"), "{stdout}");
    // Feeds without a configured title are listed by their page's title.
    let opml = std::fs::read_to_string(dir.path().join("public/feeds.opml")).unwrap();
    assert!(
        opml.contains(r#"title="Notes from the workshop" xmlUrl="workshop-notes.xml""#),
        "{opml}"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
