//! One address policy and one origin for secrets, end to end with
//! `feedmine once`: a list page's redirect to an internal address is
//! refused (the list URL itself is trusted as written), and the feed's
//! `headers` reach only the list page's origin.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Reply, TestServer};

fn feedmine(args: Vec<String>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

async fn once(config: &Path) -> Output {
    let args = vec![
        "once".into(),
        "--config".into(),
        config.display().to_string(),
    ];
    tokio::task::spawn_blocking(move || feedmine(args))
        .await
        .unwrap()
}

/// An "internal" service on 127.0.0.2 that counts the connections it gets
/// and answers each with a secret page.
fn internal_service() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.2:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counter.fetch_add(1, Ordering::SeqCst);
            let mut buf = [0u8; 2048];
            let _ = stream.read(&mut buf);
            let body = "<html><body><ul><li><a href=/k1>AKIA-secret-1</a></li>\
                        <li><a href=/k2>AKIA-secret-2</a></li><li><a href=/k3>AKIA-secret-3</a></li></ul></body></html>";
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (port, hits)
}

fn write_config(dir: &Path, feeds: &str) -> std::path::PathBuf {
    let path = dir.join("feeds.toml");
    std::fs::write(
        &path,
        format!("output_dir = \"out\"\nhost_delay = \"0s\"\ntimeout = \"3s\"\n\n{feeds}"),
    )
    .unwrap();
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn a_list_page_redirecting_to_an_internal_address_is_refused() {
    let (port, internal_hits) = internal_service();
    let server = TestServer::start(vec![
        (
            "/news",
            Reply::Redirect(format!("http://127.0.0.2:{port}/admin")),
        ),
        (
            "/blog",
            Reply::Redirect(
                "http://169.254.169.254/latest/meta-data/iam/security-credentials/".into(),
            ),
        ),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"news\"\nurl = \"{}\"\nbodies = false\n\n\
             [[feed]]\nid = \"blog\"\nurl = \"{}\"\nbodies = false\n",
            server.url("/news"),
            server.url("/blog")
        ),
    );
    let out = once(&config).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("feed news") && stderr.contains("127.0.0.2"),
        "{stderr}"
    );
    assert!(
        stderr.contains("feed blog") && stderr.contains("169.254.169.254"),
        "{stderr}"
    );
    assert_eq!(
        internal_hits.load(Ordering::SeqCst),
        0,
        "nothing reached it"
    );
    assert!(!dir.path().join("out/news.xml").exists());
    assert!(!dir.path().join("out/blog.xml").exists());

    // The feed that opts in may follow its own redirect inward.
    let config = write_config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"news\"\nurl = \"{}\"\nbodies = false\nallow_private_addresses = true\n",
            server.url("/news")
        ),
    );
    let out = once(&config).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(internal_hits.load(Ordering::SeqCst), 1);
}

fn article(title: &str) -> String {
    format!(
        "<html><body><article><h1>{title}</h1><p>{}</p></article></body></html>",
        "The harbour authority confirmed the change after a long meeting. ".repeat(8)
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn feed_headers_reach_only_the_list_pages_origin() {
    let other = TestServer::start(vec![
        ("/story", Reply::html(article("Elsewhere"))),
        ("/landing", Reply::html(article("Landed"))),
    ])
    .await;
    let list = format!(
        "<html><body><ul class=posts>\
         <li><h2><a href=/a1>Harbour story one is here</a></h2><p>Text of the first story.</p></li>\
         <li><h2><a href={}>Harbour story two is elsewhere</a></h2><p>Text of the second story.</p></li>\
         <li><h2><a href=/moved>Harbour story three moved away</a></h2><p>Text of the third story.</p></li>\
         </ul></body></html>",
        other.url("/story")
    );
    let home = TestServer::start(vec![
        ("/list", Reply::html(list)),
        ("/a1", Reply::html(article("Home"))),
        ("/moved", Reply::Redirect(other.url("/landing").to_string())),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"news\"\nurl = \"{}\"\nallow_private_addresses = true\n\
             bodies_allow_other_hosts = true\nbodies_delay = \"0s\"\n\
             headers = {{ X-Api-Key = \"s3cret-key\", Authorization = \"Bearer s3cret-token\" }}\n\
             cookies = \"session=s3cret-cookie\"\n",
            home.url("/list")
        ),
    );
    let out = once(&config).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for r in home.requests() {
        if r.path() == "/list" || r.path() == "/a1" {
            assert_eq!(r.header("x-api-key"), Some("s3cret-key"), "{}", r.path());
        }
    }
    let seen = other.requests();
    assert!(
        seen.iter().any(|r| r.path() == "/story") && seen.iter().any(|r| r.path() == "/landing"),
        "the other origin was asked for its pages: {:?}",
        seen.iter()
            .map(|r| r.path().to_string())
            .collect::<Vec<_>>()
    );
    for r in &seen {
        for name in ["x-api-key", "authorization", "cookie"] {
            assert_eq!(r.header(name), None, "{name} sent to {}", r.path());
        }
    }
}

/// Regression: `FEEDMINE_TOKEN=` (set, empty) silently switched off the
/// config's `bearer_token`.
#[test]
fn an_empty_token_in_the_environment_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "bearer_token = \"s3cret\"\n[[feed]]\nid = \"a\"\nurl = \"https://example.org/\"\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["check", "--config"])
        .arg(&config)
        .env("FEEDMINE_TOKEN", "")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("FEEDMINE_TOKEN") && stderr.contains("empty"),
        "{stderr}"
    );
}
