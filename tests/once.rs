//! `feedmine once`, `check` and `preview` as a user runs them: the real
//! binary against a local HTTP server serving realistic pages, good and bad.
//! Good feeds are published (with bodies from the linked articles), each bad
//! one gets one line naming the feed and the cause, the previous file of a
//! failed feed stays as it was, and the exit code tells what happened.

mod common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use common::{Reply, TestServer};

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(path),
    )
    .unwrap()
}

/// A news section page whose teasers link to article pages on the server.
fn news_index() -> String {
    let mut html = String::from(
        "<!doctype html><html lang=en><head><title>Harbour News — Local</title></head><body>\
         <nav><ul><li><a href='/'>Home</a></li><li><a href='/local/'>Local</a></li>\
         <li><a href='/sport/'>Sport</a></li><li><a href='/about'>About</a></li></ul></nav><main><div class=teasers>",
    );
    let heads = [
        "Ferry timetable changes from Monday",
        "Harbour wall repairs finish ahead of schedule",
        "Night market returns to the old quay",
        "Lifeboat crew honoured for winter rescue",
        "New cycle lane splits opinion on Front Street",
        "School choir heads to national final",
    ];
    for (i, h) in heads.iter().enumerate() {
        let img = if i % 2 == 0 {
            format!(
                "<a href='/articles/{}.html'><img src='/img/{}.jpg' width=320 height=180></a>",
                i + 1,
                i + 1
            )
        } else {
            String::new()
        };
        html.push_str(&format!(
            "<article class=teaser>{img}<h2><a href='/articles/{n}.html'>{h}</a></h2>\
             <p class=dek>What the change means for residents, in brief.</p>\
             <time datetime='2024-03-0{n}T09:00:00+00:00'>{n} March 2024</time></article>",
            n = i + 1
        ));
    }
    html.push_str("</div></main><footer><a href='/contact'>Contact</a> <a href='/privacy'>Privacy</a></footer></body></html>");
    html
}

async fn server() -> TestServer {
    let article = fixture("articles/news.html");
    let mut routes: Vec<(String, Reply)> = vec![
        ("/news/".into(), Reply::html(news_index())),
        (
            "/gbk/".into(),
            Reply::bytes("text/html", fixture("lists/gbk_portal.html")),
        ),
        (
            "/broken".into(),
            Reply::Status(500, b"<h1>Internal Server Error</h1>".to_vec()),
        ),
        (
            "/slow".into(),
            Reply::html(news_index()).delayed(Duration::from_secs(5)),
        ),
        ("/empty".into(), Reply::html("")),
        (
            "/binary".into(),
            Reply::bytes(
                "application/octet-stream",
                b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01".to_vec(),
            ),
        ),
        (
            "/about".into(),
            Reply::bytes("text/html", fixture("lists/no_records.html")),
        ),
        ("/loop".into(), Reply::Redirect("/loop".into())),
    ];
    for n in 1..=5 {
        routes.push((
            format!("/articles/{n}.html"),
            Reply::bytes("text/html; charset=utf-8", article.clone()),
        ));
    }
    // Article 6 is missing: its item keeps its summary.
    TestServer::start(routes).await
}

fn feedmine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

async fn feedmine_async(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        feedmine(&refs)
    })
    .await
    .unwrap()
}

fn write_config(dir: &Path, server: &TestServer) -> std::path::PathBuf {
    let feed = |id: &str, path: &str, extra: &str| {
        format!(
            "[[feed]]\nid = \"{id}\"\nurl = \"{}\"\n{extra}\n",
            server.url(path)
        )
    };
    let mut text = String::from(
        "output_dir = \"out\"\npublic_url = \"https://feeds.example.org/\"\ntimeout = \"2s\"\n\
         # The test server is on 127.0.0.1: let article links reach it.\n\
         allow_private_addresses = true\nhost_delay = \"0s\"\n\n",
    );
    text += &feed(
        "news",
        "/news/",
        "bodies_delay = \"10ms\"\ntitle = \"Harbour News\"",
    );
    text += &feed("gbk", "/gbk/", "bodies = false");
    text += &feed("broken", "/broken", "");
    text += &feed("slow", "/slow", "timeout = \"500ms\"");
    text += &feed("empty", "/empty", "");
    text += &feed("binary", "/binary", "");
    text += &feed("about", "/about", "");
    text += &feed("loop", "/loop", "");
    let path = dir.join("feeds.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn once_publishes_good_feeds_and_reports_each_bad_one() {
    let server = server().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server);
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("broken.xml"), "previous feed").unwrap();

    let run = feedmine_async(vec![
        "once".into(),
        "--config".into(),
        config.display().to_string(),
    ])
    .await;
    let stderr = String::from_utf8_lossy(&run.stderr);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(1),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );

    // One line per failed feed, naming the feed and the cause.
    let line = |id: &str| {
        stderr
            .lines()
            .find(|l| l.starts_with(&format!("feedmine: feed {id}:")))
            .unwrap_or_else(|| panic!("no error line for {id} in:\n{stderr}"))
            .to_string()
    };
    assert!(line("broken").contains("500"), "{}", line("broken"));
    assert!(line("slow").contains("timed out"), "{}", line("slow"));
    assert!(
        line("empty").to_lowercase().contains("empty"),
        "{}",
        line("empty")
    );
    assert!(
        line("binary").to_lowercase().contains("binary"),
        "{}",
        line("binary")
    );
    assert!(
        line("about").contains("no repeated records"),
        "{}",
        line("about")
    );
    assert!(
        line("loop").to_lowercase().contains("redirect"),
        "{}",
        line("loop")
    );

    // The failed feed's previous file is untouched; nothing half-written.
    assert_eq!(
        std::fs::read_to_string(out.join("broken.xml")).unwrap(),
        "previous feed"
    );
    for id in ["slow", "empty", "binary", "about", "loop"] {
        assert!(!out.join(format!("{id}.xml")).exists(), "{id}.xml written");
    }
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());

    // The news feed: 6 items, newest first by their page dates, bodies for
    // the 5 articles that exist.
    let news = rss::Channel::read_from(&std::fs::read(out.join("news.xml")).unwrap()[..]).unwrap();
    assert_eq!(news.title(), "Harbour News");
    assert_eq!(news.items().len(), 6);
    assert_eq!(
        news.items()[5].title(),
        Some("Ferry timetable changes from Monday")
    );
    assert_eq!(
        news.items()[5].link(),
        Some(server.url("/articles/1.html").as_str())
    );
    let date = news.items()[5].pub_date().unwrap_or_default();
    assert!(date.contains("1 Mar 2024 09:00:00"), "{date}");
    assert_eq!(
        news.items()[0].title(),
        Some("School choir heads to national final")
    );
    let with_body = news
        .items()
        .iter()
        .filter(|i| i.content().is_some_and(|c| !c.is_empty()))
        .count();
    assert_eq!(with_body, 5, "{stdout}");
    // Article 6 is missing: that item keeps its summary.
    assert!(news.items()[0].content().is_none());
    assert!(
        news.items()[0]
            .description()
            .is_some_and(|d| d.contains("What the change means"))
    );
    assert!(
        stdout.contains(
            "feed news: published (6 records, 6 new, 6 items, 5 bodies, 0 failed, \
             1 linked pages do not exist and keep their summaries)"
        ),
        "{stdout}"
    );
    let self_link = news
        .atom_ext()
        .and_then(|a| a.links().first().map(|l| l.href().to_string()));
    assert_eq!(
        self_link.as_deref(),
        Some("https://feeds.example.org/news.xml")
    );

    // The GBK page came out as Chinese, not mojibake.
    let gbk = rss::Channel::read_from(&std::fs::read(out.join("gbk.xml")).unwrap()[..]).unwrap();
    assert_eq!(gbk.items().len(), 20);
    assert!(gbk.items().iter().all(|i| {
        i.title()
            .is_some_and(|t| t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)))
    }));

    // Only the named feed, all good: exit 0.
    let run = feedmine_async(vec![
        "once".into(),
        "--config".into(),
        config.display().to_string(),
        "gbk".into(),
    ])
    .await;
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(server.hits("/broken"), 1, "only the named feed runs");
}

#[test]
fn check_reports_feed_field_and_line_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("feeds.toml");
    std::fs::write(
        &config,
        "[[feed]]\nid = \"news\"\nurl = \"https://news.example.com/\"\nschedule = \"*/15 * *\"\n\n[[feed]]\nid = \"blog\"\nurl = \"https://blog.example.com/\"\nmin_coverge = 0.1\n",
    )
    .unwrap();
    let run = feedmine(&["check", "--config", config.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("line 9")
            && stderr.contains("feed \"blog\"")
            && stderr.contains("min_coverge"),
        "{stderr}"
    );

    std::fs::write(
        &config,
        "[[feed]]\nid = \"news\"\nurl = \"https://news.example.com/\"\nschedule = \"*/15 * *\"\n",
    )
    .unwrap();
    let run = feedmine(&["check", "--config", config.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2));
    assert!(
        stderr.contains("line 4")
            && stderr.contains("feed \"news\"")
            && stderr.contains("schedule"),
        "{stderr}"
    );

    std::fs::write(
        &config,
        "[[feed]]\nid = \"news\"\nurl = \"https://news.example.com/\"\n",
    )
    .unwrap();
    let run = feedmine(&["check", "--config", config.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0));
}

#[test]
fn preview_json_has_records_and_patterns() {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lists/blog_index.html");
    let run = feedmine(&[
        "preview",
        page.to_str().unwrap(),
        "--base-url",
        "https://annwrites.example.org/",
        "--json",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let records = v["records"].as_array().unwrap();
    assert_eq!(records.len(), 3);
    assert!(
        records[0]["link"]
            .as_str()
            .unwrap()
            .starts_with("https://annwrites.example.org/blog/2024/")
    );
    assert!(
        records[0]["date"]
            .as_str()
            .unwrap()
            .starts_with("2024-03-05")
    );
    assert!(v["patterns"].as_array().is_some_and(|p| !p.is_empty()));
    assert!(v["patterns"][0]["tokens"].as_str().unwrap().contains("<a>"));
    assert!(v["groups"][0]["winner"].as_bool().unwrap());
}

/// Regression: a page without records printed empty tables and nothing
/// else; now one line says why and what to try.
#[test]
fn preview_of_a_page_without_records_says_why_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let shell = dir.path().join("app.html");
    std::fs::write(
        &shell,
        "<!doctype html><html><head><title>Jobs</title><script src=app.js></script></head>\
         <body><div id=root></div></body></html>",
    )
    .unwrap();
    let run = feedmine(&["preview", shell.to_str().unwrap()]);
    assert!(run.status.success());
    let stdout = String::from_utf8_lossy(&run.stdout);
    let hint: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("no records:"))
        .collect();
    assert_eq!(hint.len(), 1, "{stdout}");
    assert!(hint[0].contains("JavaScript"), "{stdout}");
}
