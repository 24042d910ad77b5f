//! When detection picks wrong: `[feed.select]`, `group = N`, `pin` and
//! pinned drift, end to end through the real binary against pages served
//! from 127.0.0.1.
//!
//! The page: an arts centre's "What's on" with three event cards and a
//! footer sitemap of twelve long links, in a `div` styled as the footer
//! (in a `footer` element it would be chrome and lose). Detection ranks
//! the footer first (more text, more records); the user's levers must
//! get the cards.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{Reply, TestServer};

const EVENTS: [(&str, &str, &str, &str, &str); 3] = [
    (
        "Late Jazz on the Terrace",
        "jazz-night",
        "2024-06-07T20:00:00+01:00",
        "Fri 7 June",
        "Music",
    ),
    (
        "Printmaking for Beginners",
        "printmaking",
        "2024-06-12T10:00:00+01:00",
        "Wed 12 June",
        "Workshop",
    ),
    (
        "Film Club: The Third Man",
        "film-club",
        "2024-06-19T19:30:00+01:00",
        "Wed 19 June",
        "Film",
    ),
];

const FOOTER_LINKS: [&str; 12] = [
    "About the Riverside Arts Centre and its history",
    "People, trustees and annual reports",
    "Jobs, internships and volunteering with us",
    "Hire a room for your meeting or celebration",
    "Café, bar and opening times this season",
    "Access information and assisted performances",
    "Getting here by bus, train, bike or car",
    "Membership: priority booking and discounts",
    "Donate and support our community programme",
    "Sign up for our weekly newsletter",
    "Press releases and media enquiries",
    "Contact us, lost property and feedback",
];

fn footer() -> String {
    let mut h = String::from("<div class=\"site-footer\"><ul class=\"sitemap\">\n");
    for (i, l) in FOOTER_LINKS.iter().enumerate() {
        h += &format!(
            "<li><a href=\"/info/page-{}\">{l}</a></li>\n",
            (b'a' + i as u8) as char
        );
    }
    h + "</ul><p class=\"legal\">© Riverside Arts Centre, registered charity 1234567</p></div>"
}

/// The events page as it is: cards in `div.events > article.card`.
fn events_page() -> String {
    let mut h = String::from(
        "<!doctype html><html lang=\"en\"><head><title>What's on — Riverside Arts Centre</title></head>\
         <body><header class=\"site-header\"><a class=\"logo\" href=\"/\">Riverside Arts Centre</a></header>\
         <main id=\"content\"><h1>What's on</h1><div class=\"events\">\n",
    );
    for (title, slug, dt, when, tag) in EVENTS {
        h += &format!(
            "<article class=\"card\">\n  <h3><a href=\"/events/{slug}\">{title}</a></h3>\n  \
             <time datetime=\"{dt}\">{when}</time>\n  <span class=\"byline\">Riverside Presents</span>\n  \
             <ul class=\"tags\"><li>{tag}</li></ul>\n</article>\n"
        );
    }
    h + "</div></main>" + &footer() + "</body></html>"
}

/// The same page after a redesign: the cards are now `li.event-tile`.
fn redesigned_page() -> String {
    let mut h = String::from(
        "<!doctype html><html lang=\"en\"><head><title>What's on — Riverside Arts Centre</title></head>\
         <body><main id=\"content\"><h1>What's on</h1><ul class=\"programme\">\n",
    );
    for (title, slug, dt, when, _) in EVENTS {
        h += &format!(
            "<li class=\"event-tile\"><h2><a href=\"/events/{slug}\">{title}</a></h2>\
             <time datetime=\"{dt}\">{when}</time></li>\n"
        );
    }
    h + "</ul></main>" + &footer() + "</body></html>"
}

fn feedmine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

async fn run(args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        feedmine(&refs)
    })
    .await
    .unwrap()
}

/// A config with one feed `events` and `extra` lines in its table.
fn config(dir: &Path, server: &TestServer, extra: &str) -> PathBuf {
    let text = format!(
        "# Riverside feeds: edited by hand, comments must survive `pin`.\n\
         output_dir = \"out\"\nformats = [\"json\"]\nhost_delay = \"0s\"\n\n\
         # The arts centre's programme page.\n\
         [[feed]]\nid = \"events\"  # short id\nurl = \"{}\"\nbodies = false\n{extra}\n",
        server.url("/whats-on")
    );
    let path = dir.join("feeds.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Titles of the published JSON Feed, sorted (the feed orders by date).
fn published_titles(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("out/events.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["title"].as_str().unwrap_or("").to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

fn event_titles() -> Vec<String> {
    let mut t: Vec<String> = EVENTS.iter().map(|e| e.0.to_string()).collect();
    t.sort();
    t
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

async fn serve(page: String) -> TestServer {
    TestServer::start([("/whats-on", Reply::html(page))]).await
}

#[tokio::test(flavor = "multi_thread")]
async fn default_picks_the_footer_and_select_records_picks_the_cards() {
    let server = serve(events_page()).await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &server, "");
    let out = run(&["once", "--config", cfg.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let titles = published_titles(dir.path());
    assert_eq!(titles.len(), 12, "the footer wins by default: {titles:?}");

    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        dir.path(),
        &server,
        "[feed.select]\nrecords = \"div.events > article.card\"\ntitle = \"h3\"\n\
         link = \"h3 a@href\"\ndate = \"time@datetime\"\nauthor = \".byline\"\n\
         categories = \"ul.tags li\"\n",
    );
    let out = run(&["once", "--config", cfg.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(published_titles(dir.path()), event_titles());

    // The fields come from the selectors.
    let out = run(&[
        "preview",
        "--config",
        cfg.to_str().unwrap(),
        "--feed",
        "events",
        "--json",
    ])
    .await;
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rec = &v["records"][1];
    assert_eq!(rec["title"], "Printmaking for Beginners");
    assert_eq!(rec["link"], server.url("/events/printmaking").as_str());
    assert_eq!(rec["date"], "2024-06-12T10:00:00+01:00");
    assert_eq!(rec["author"], "Riverside Presents");
    assert_eq!(rec["categories"], serde_json::json!(["Workshop"]));
    assert_eq!(v["choice"]["how"], "select");
    assert_eq!(v["choice"]["selected"], 3);
}

#[tokio::test(flavor = "multi_thread")]
async fn preview_shows_a_verified_selector_per_group_and_group_two_picks_the_cards() {
    let server = serve(events_page()).await;
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["preview", server.url("/whats-on").as_str(), "--json"]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let groups = v["groups"].as_array().unwrap();
    assert_eq!(groups[0]["rank"], 1);
    assert_eq!(groups[0]["records"], 12);
    assert_eq!(groups[0]["selector"], "ul.sitemap > li");
    assert_eq!(groups[0]["fields"]["link"], "a@href");
    assert_eq!(groups[1]["rank"], 2);
    assert_eq!(groups[1]["records"], 3);
    assert_eq!(groups[1]["selector"], "article.card");

    let cfg = config(dir.path(), &server, "group = 2\n");
    let out = run(&["once", "--config", cfg.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(published_titles(dir.path()), event_titles());

    // The text report marks the group the feed uses.
    let out = run(&[
        "preview",
        "--config",
        cfg.to_str().unwrap(),
        "--feed",
        "events",
    ])
    .await;
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("CHOSEN by the feed"), "{text}");
    assert!(text.contains("css: article.card"), "{text}");
}

#[tokio::test(flavor = "multi_thread")]
async fn pin_group_two_writes_a_config_that_publishes_the_cards_keeping_comments() {
    let server = serve(events_page()).await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path(), &server, "");
    let before = std::fs::read_to_string(&cfg).unwrap();
    let c = cfg.to_str().unwrap();

    let out = run(&["pin", "events", "--group", "2", "--config", c, "--dry-run"]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains("+[feed.select]"), "{shown}");
    assert!(shown.contains("+records = \"article.card\""), "{shown}");
    assert_eq!(
        std::fs::read_to_string(&cfg).unwrap(),
        before,
        "--dry-run wrote"
    );

    let out = run(&["pin", "events", "--group", "2", "--config", c]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let after = std::fs::read_to_string(&cfg).unwrap();
    for line in before.lines() {
        assert!(after.contains(line), "lost {line:?}:\n{after}");
    }
    assert!(after.contains("# Riverside feeds: edited by hand"));
    assert!(after.contains("id = \"events\"  # short id"));
    assert!(after.contains("link = \"a@href\""), "{after}");
    assert!(after.contains("date = \"time@datetime\""), "{after}");

    let out = run(&["check", "--config", c]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&["once", "--config", c]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(published_titles(dir.path()), event_titles());

    // Pinning again changes nothing.
    let out = run(&["pin", "events", "--group", "2", "--config", c]).await;
    assert!(String::from_utf8_lossy(&out.stdout).contains("already pinned"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_redesign_that_breaks_the_pinned_selector_degrades_and_keeps_old_items() {
    let server = serve(events_page()).await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        dir.path(),
        &server,
        "[feed.select]\nrecords = \"div.events > article.card\"\n",
    );
    let c = cfg.to_str().unwrap();
    for _ in 0..3 {
        let out = run(&["once", "--config", c]).await;
        assert!(out.status.success(), "{}", stderr(&out));
    }
    server.set("/whats-on", Reply::html(redesigned_page()));
    let out = run(&["once", "--config", c]).await;
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("degraded"), "{err}");
    assert!(
        err.contains("the records selector \"div.events > article.card\" matches nothing"),
        "{err}"
    );
    // What detection finds now, with its selector: fixing is one `pin`.
    assert!(err.contains("automatic detection finds"), "{err}");
    assert!(err.contains("ul.sitemap > li"), "{err}");
    assert_eq!(
        published_titles(dir.path()),
        event_titles(),
        "old items kept"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn fallback_auto_uses_detection_while_the_selector_matches_nothing() {
    let server = serve(redesigned_page()).await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        dir.path(),
        &server,
        "fallback = \"auto\"\n[feed.select]\nrecords = \"div.events > article.card\"\n",
    );
    let out = run(&["once", "--config", cfg.to_str().unwrap()]).await;
    let err = stderr(&out);
    assert!(err.contains("degraded"), "{err}");
    assert!(
        err.contains("fallback = \\\"auto\\\"") || err.contains("fallback = \"auto\""),
        "{err}"
    );
    assert!(!err.contains("previous items stay"), "{err}");
    // Detection's items were published.
    assert!(!published_titles(dir.path()).is_empty());

    // Without the fallback: a clear error naming the selector, nothing
    // published.
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        dir.path(),
        &server,
        "[feed.select]\nrecords = \"div.events > article.card\"\n",
    );
    let out = run(&["once", "--config", cfg.to_str().unwrap()]).await;
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("div.events > article.card"), "{err}");
    assert!(!dir.path().join("out/events.json").exists());
}

#[test]
fn check_reports_bad_selectors_with_field_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("feeds.toml");
    let cases = [
        (
            "[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\n[feed.select]\nrecords = \"div..card\"\n",
            "select.records",
            "line 5",
        ),
        (
            "[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\n[feed.select]\nrecords = \"li\"\nlink = \"a@h ref\"\n",
            "select.link",
            "line 6",
        ),
        (
            "[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\n[feed.select]\ntitle = \"h3\"\n",
            "select.records",
            "required",
        ),
        (
            "[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\ngroup = 0\n",
            "group",
            "line 4",
        ),
        (
            "[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\ngroup = 2\nfallback = \"maybe\"\n",
            "fallback",
            "line 5",
        ),
        (
            "[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\n[feed.select]\nrecords = \"li\"\nheadline = \"h3\"\n",
            "headline",
            "",
        ),
    ];
    for (text, field, detail) in cases {
        std::fs::write(&path, text).unwrap();
        let out = feedmine(&["check", "--config", path.to_str().unwrap()]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{text}: {err}");
        assert!(err.contains(field) && err.contains(detail), "{text}: {err}");
        assert!(
            err.contains("feed \"a\"") || field == "headline",
            "{text}: {err}"
        );
    }
}
