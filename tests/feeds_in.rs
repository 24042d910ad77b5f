//! Feeds as sources (`source = "feed"`, or a `url` that serves a feed) made
//! full-text, and lists followed over several pages (`pages = N`), run
//! end to end with `feedmine once` against local servers.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{Reply, TestServer};

fn feedmine(args: Vec<String>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

async fn feedmine_async(args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    tokio::task::spawn_blocking(move || feedmine(args))
        .await
        .unwrap()
}

fn config(dir: &Path, feeds: &str) -> PathBuf {
    let path = dir.join("feeds.toml");
    let text = format!(
        "output_dir = \"out\"\ntimeout = \"3s\"\nhost_delay = \"0s\"\n\
         # The test server is on 127.0.0.1.\nallow_private_addresses = true\n\n{feeds}"
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn article(title: &str) -> String {
    let para = format!(
        "<p>{title}: the harbour authority confirmed the change after a long meeting with the \
         ferry operators, the fishermen's association and the residents of the old town, who \
         had asked for years that the late sailings be kept through the winter months.</p>"
    );
    format!(
        "<!doctype html><html><head><title>{title}</title></head><body>\
         <nav><a href=\"/\">Home</a> <a href=\"/about\">About</a></nav>\
         <article><h1>{title}</h1>{}</article>\
         <footer><a href=\"/privacy\">Privacy</a></footer></body></html>",
        para.repeat(4)
    )
}

fn rss(items: &[(&str, &str)]) -> String {
    let items: String = items
        .iter()
        .map(|(title, link)| {
            format!(
                "<item><title>{title}</title><link>{link}</link>\
                 <description>Short teaser for {title}.</description>\
                 <pubDate>Sat, 21 Nov 2026 09:30:00 +0000</pubDate></item>"
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Harbour Blog</title>\
         <link>https://blog.example.org/</link><description>x</description>{items}</channel></rss>"
    )
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join("out").join(file)).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_summaries_only_rss_feed_becomes_full_text_and_preview_names_it() {
    let feed = rss(&[
        ("Ferry timetable", "/blog/posts/ferry"),
        ("Fish market", "/blog/posts/market"),
    ]);
    let page = "<!doctype html><html><head><title>Harbour Blog</title>\
        <link rel=\"alternate\" type=\"application/rss+xml\" title=\"Harbour Blog\" href=\"/blog/feed/\">\
        </head><body><h1>Blog</h1></body></html>";
    let server = TestServer::start(vec![
        ("/blog/", Reply::html(page)),
        ("/blog/feed/", Reply::bytes("application/rss+xml", feed)),
        ("/blog/posts/ferry", Reply::html(article("Ferry timetable"))),
        ("/blog/posts/market", Reply::html(article("Fish market"))),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"blog\"\nsource = \"feed\"\nurl = \"{}\"\nbodies_delay = \"0s\"\n",
            server.url("/blog/feed/")
        ),
    );
    let out = feedmine_async(&["once", "--config", cfg.to_str().unwrap()]).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let xml = read(dir.path(), "blog.xml");
    assert!(xml.contains("Ferry timetable"), "{xml}");
    assert!(
        xml.contains("the harbour authority confirmed the change"),
        "full text from the article page: {xml}"
    );
    assert_eq!(server.hits("/blog/posts/ferry"), 1);

    let url = server.url("/blog/").to_string();
    let out = feedmine_async(&["preview", &url]).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!(
            "this page advertises a feed: {} (RSS 2.0, 2 items, summaries only)",
            server.url("/blog/feed/")
        )),
        "{stdout}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn atom_full_content_is_kept_json_feed_is_recognised_and_always_extracts() {
    let long = "The harbour master explained the new mooring rules at length. ".repeat(20);
    let atom = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\">\
         <title>Port News</title><id>urn:x</id><updated>2026-11-21T10:00:00Z</updated>\
         <entry><title>Mooring rules</title><id>urn:1</id><link href=\"/port/mooring\"/>\
         <updated>2026-11-21T10:00:00Z</updated><content type=\"html\">&lt;p&gt;{long}&lt;/p&gt;</content></entry>\
         </feed>"
    );
    let json = serde_json::json!({
        "version": "https://jsonfeed.org/version/1.1",
        "title": "Jobs",
        "items": [{"id": "1", "url": "/jobs/crane", "title": "Crane operator", "summary": "Nights"}]
    })
    .to_string();
    let server = TestServer::start(vec![
        ("/port/atom.xml", Reply::bytes("application/atom+xml", atom)),
        ("/port/mooring", Reply::html(article("Mooring rules"))),
        (
            "/jobs/feed.json",
            Reply::bytes("application/feed+json", json),
        ),
        ("/jobs/crane", Reply::html(article("Crane operator"))),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let feeds = format!(
        "[[feed]]\nid = \"port\"\nsource = \"feed\"\nurl = \"{}\"\nformats = [\"atom\"]\n\n\
         [[feed]]\nid = \"jobs\"\nurl = \"{}\"\nformats = [\"json\"]\nbodies_delay = \"0s\"\n",
        server.url("/port/atom.xml"),
        server.url("/jobs/feed.json")
    );
    let cfg = config(dir.path(), &feeds);
    let out = feedmine_async(&["once", "--config", cfg.to_str().unwrap()]).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(read(dir.path(), "port.atom").contains("mooring rules at length"));
    assert_eq!(
        server.hits("/port/mooring"),
        0,
        "full content needs no extraction"
    );
    let jobs = read(dir.path(), "jobs.json");
    assert!(jobs.contains("Crane operator"), "{jobs}");
    assert!(jobs.contains("the harbour authority confirmed"), "{jobs}");

    // bodies = "always": the page's own text replaces the feed's content.
    let feeds = feeds.replace(
        "formats = [\"atom\"]\n",
        "formats = [\"atom\"]\nbodies = \"always\"\nbodies_delay = \"0s\"\n",
    );
    let fresh = tempfile::tempdir().unwrap();
    let cfg = config(fresh.path(), &feeds);
    let out = feedmine_async(&["once", "--config", cfg.to_str().unwrap()]).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        server.hits("/port/mooring"),
        1,
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_broken_feed_fails_clearly_and_keeps_the_published_items() {
    let server = TestServer::start(vec![(
        "/feed.xml",
        Reply::bytes("application/rss+xml", rss(&[("Ferry timetable", "/a")])),
    )])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"news\"\nsource = \"feed\"\nurl = \"{}\"\nbodies = false\n",
            server.url("/feed.xml")
        ),
    );
    let args = ["once", "--config", cfg.to_str().unwrap()];
    assert_eq!(feedmine_async(&args).await.status.code(), Some(0));
    let before = read(dir.path(), "news.xml");
    assert!(before.contains("Ferry timetable"));
    server.set(
        "/feed.xml",
        Reply::bytes("application/rss+xml", "<rss><channel><item><title>Half"),
    );
    let out = feedmine_async(&args).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("feed news") && stderr.contains("is not a readable RSS, Atom or JSON feed"),
        "{stderr}"
    );
    assert_eq!(read(dir.path(), "news.xml"), before, "old items kept");
}

/// One archive page of five posts, numbered from `first` down.
fn archive_page(posts: &[u32], next: Option<&str>) -> String {
    let items: String = posts
        .iter()
        .map(|n| {
            format!(
                "<li class=\"post\"><h2><a href=\"/posts/{n}\">Post number {n} about the harbour</a></h2>\
                 <p class=\"meta\">Posted by the editors</p>\
                 <p>What happened at the harbour in episode {n}, told at some length for the reader.</p></li>"
            )
        })
        .collect();
    let pager = next.map_or(String::new(), |n| {
        format!("<div class=\"pager\"><a href=\"/\">Newer posts</a> <a href=\"{n}\">Older posts</a></div>")
    });
    format!(
        "<!doctype html><html><head><title>Archive</title></head><body>\
         <header><a href=\"/\">Home</a> <a href=\"/about\">About</a></header>\
         <main><ul class=\"posts\">{items}</ul>{pager}</main>\
         <footer><a href=\"/privacy\">Privacy</a></footer></body></html>"
    )
}

fn guids(xml: &str) -> Vec<String> {
    xml.split("<link>")
        .skip(2) // the channel's own link
        .filter_map(|s| s.split("</link>").next())
        .map(|s| s.rsplit('/').next().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn pages_backfill_on_first_run_then_follow_only_bursts() {
    let server = TestServer::start(vec![
        (
            "/archive/",
            Reply::html(archive_page(
                &[20, 19, 18, 17, 16],
                Some("/archive/page/2/"),
            )),
        ),
        (
            "/archive/page/2/",
            Reply::html(archive_page(
                &[15, 14, 13, 12, 11],
                Some("/archive/page/3/"),
            )),
        ),
        (
            "/archive/page/3/",
            Reply::html(archive_page(&[10, 9, 8, 7, 6], Some("/archive/page/4/"))),
        ),
        (
            "/archive/page/4/",
            Reply::html(archive_page(&[5, 4, 3, 2, 1], None)),
        ),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"archive\"\nurl = \"{}\"\npages = 3\nbodies = false\n",
            server.url("/archive/")
        ),
    );
    let args = ["once", "--config", cfg.to_str().unwrap()];
    let out = feedmine_async(&args).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first: Vec<String> = guids(&read(dir.path(), "archive.xml"));
    let want: Vec<String> = (6..=20).rev().map(|n| n.to_string()).collect();
    assert_eq!(first, want, "pages 1-3 in page order");
    assert_eq!(server.hits("/archive/page/3/"), 1);
    assert_eq!(server.hits("/archive/page/4/"), 0, "never past pages = 3");

    // Nothing new: page 1 only.
    assert_eq!(feedmine_async(&args).await.status.code(), Some(0));
    assert_eq!(server.hits("/archive/"), 2);
    assert_eq!(server.hits("/archive/page/2/"), 1);

    // A burst of seven posts: page 1 is all new, so page 2 is read too; it
    // holds known posts, so page 3 is not.
    server.set(
        "/archive/",
        Reply::html(archive_page(
            &[27, 26, 25, 24, 23],
            Some("/archive/page/2/"),
        )),
    );
    server.set(
        "/archive/page/2/",
        Reply::html(archive_page(
            &[22, 21, 20, 19, 18],
            Some("/archive/page/3/"),
        )),
    );
    let out = feedmine_async(&args).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.hits("/archive/page/2/"), 2);
    assert_eq!(server.hits("/archive/page/3/"), 1);
    let items = guids(&read(dir.path(), "archive.xml"));
    assert!(
        items.contains(&"21".to_string()) && items.contains(&"22".to_string()),
        "{items:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_looping_next_link_stops_and_a_missing_next_page_keeps_what_was_found() {
    let server = TestServer::start(vec![
        (
            "/a",
            Reply::html(archive_page(&[9, 8, 7, 6, 5], Some("/b"))),
        ),
        (
            "/b",
            Reply::html(archive_page(&[4, 3, 2, 1, 0], Some("/a"))),
        ),
        (
            "/c",
            Reply::html(archive_page(&[9, 8, 7, 6, 5], Some("/gone"))),
        ),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"loop\"\nurl = \"{}\"\npages = 5\nbodies = false\n\n\
             [[feed]]\nid = \"gap\"\nurl = \"{}\"\npages = 3\nbodies = false\n",
            server.url("/a"),
            server.url("/c")
        ),
    );
    let out = feedmine_async(&["once", "--config", cfg.to_str().unwrap()]).await;
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(server.hits("/a"), 1, "the loop is not followed");
    assert_eq!(server.hits("/b"), 1);
    assert!(stdout.contains("loops back"), "{stdout}");
    assert_eq!(guids(&read(dir.path(), "loop.xml")).len(), 10);
    assert!(
        stdout.contains("page 2 (") && stdout.contains("failed, keeping the records of pages 1-1"),
        "{stdout}"
    );
    assert_eq!(guids(&read(dir.path(), "gap.xml")).len(), 5);
}
