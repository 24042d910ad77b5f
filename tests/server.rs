//! The daemon's HTTP server end to end: routes through `router` (oneshot)
//! and the real accept loop over TCP on 127.0.0.1 (raw request bytes where
//! the test is about what arrives on the wire).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use feedmine::publish::feed::Format;
use feedmine::serve::metrics::{FetchKind, Metrics};
use feedmine::serve::server::{self, AppState, IndexRenderer, ServerOptions};
use feedmine::serve::status::{FeedStatus, Health, RunOutcome, StatusBoard};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

const NEWS_RSS: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>City news</title><link>https://news.example.com/</link>
<description>Latest stories</description>
<item><title>Council approves the new tram line</title><link>https://news.example.com/2026/tram</link>
<guid>https://news.example.com/2026/tram</guid></item>
</channel></rss>
"#;
const NEWS_JSON: &str = r#"{"version":"https://jsonfeed.org/version/1.1","title":"City news","items":[{"id":"https://news.example.com/2026/tram","title":"Council approves the new tram line"}]}"#;
const SECRET: &str = "TOP-SECRET-7f3a";

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    out: PathBuf,
    board: StatusBoard,
    metrics: Metrics,
}

fn feed(id: &str, title: &str, formats: &[Format], health: Health) -> FeedStatus {
    FeedStatus {
        id: id.into(),
        title: title.into(),
        source: format!("https://{id}.example.com/"),
        formats: formats.to_vec(),
        health,
        last_run: None,
        last_success: None,
        items: 1,
        next_run: None,
    }
}

/// An output dir with `news` (rss + json published, atom configured but not
/// written yet) and `blog` (rss, pending), plus secret files inside the
/// output dir (not a feed) and next to it.
fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().to_path_buf();
    let out = root.join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("news.xml"), NEWS_RSS).unwrap();
    std::fs::write(out.join("news.json"), NEWS_JSON).unwrap();
    std::fs::write(
        out.join("feeds.opml"),
        r#"<?xml version="1.0"?><opml version="2.0"><head><title>feedmine</title></head><body><outline type="rss" text="City news" xmlUrl="/feeds/news.xml"/></body></opml>"#,
    )
    .unwrap();
    std::fs::write(
        out.join("feed.xsl"),
        r#"<?xml version="1.0"?><xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"/>"#,
    )
    .unwrap();
    for secret in [
        root.join("secret.xml"),
        out.join("secret.xml"),
        out.join("x"),
    ] {
        std::fs::write(secret, SECRET).unwrap();
    }
    let board = StatusBoard::new();
    board.put(feed(
        "news",
        "City news",
        &[Format::Rss, Format::Json, Format::Atom],
        Health::Ok,
    ));
    board.put(feed("blog", "Team blog", &[Format::Rss], Health::Pending));
    Fixture {
        _dir: dir,
        root,
        out,
        board,
        metrics: Metrics::new(),
    }
}

fn list_renderer() -> IndexRenderer {
    Arc::new(|feeds: &[FeedStatus]| {
        let items: String = feeds
            .iter()
            .map(|f| format!("<li>{} — {} ({})</li>", f.id, f.title, f.health.word()))
            .collect();
        Ok(format!("<!doctype html><ul>{items}</ul>"))
    })
}

impl Fixture {
    fn options(&self) -> ServerOptions {
        ServerOptions::new(&self.out)
    }

    fn state(&self, options: ServerOptions) -> AppState {
        self.state_with(options, list_renderer())
    }

    fn state_with(&self, options: ServerOptions, render_index: IndexRenderer) -> AppState {
        AppState {
            board: self.board.clone(),
            metrics: self.metrics.clone(),
            render_index,
            console: None,
            options: Arc::new(options),
            cluster: None,
        }
    }

    fn app(&self) -> axum::Router {
        server::router(self.state(self.options()))
    }
}

struct Reply {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

async fn send(app: &axum::Router, request: Request<Body>) -> Reply {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    Reply {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

async fn get(app: &axum::Router, uri: &str, headers: &[(&str, &str)]) -> Reply {
    let mut request = Request::get(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    send(app, request.body(Body::empty()).unwrap()).await
}

fn header_str(reply: &Reply, name: header::HeaderName) -> &str {
    reply
        .headers
        .get(&name)
        .unwrap_or_else(|| panic!("no {name} header"))
        .to_str()
        .unwrap()
}

/// Runs the real server on 127.0.0.1:0.
async fn start(state: AppState) -> (SocketAddr, CancellationToken, tokio::task::JoinHandle<()>) {
    let listener = server::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let shutdown = CancellationToken::new();
    let token = shutdown.clone();
    let task = tokio::spawn(async move { server::serve(listener, state, token).await.unwrap() });
    (addr, shutdown, task)
}

/// Sends raw bytes, returns everything the server sends until it closes.
async fn raw(addr: SocketAddr, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .expect("the server did not close the connection")
        .unwrap();
    String::from_utf8_lossy(&response).into_owned()
}

fn status_of(response: &str) -> u16 {
    response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {response:?}"))
}

/// Every file under `dir` with its bytes, to prove nothing was written.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                files.push((path, bytes));
            }
        }
    }
    files.sort();
    files
}

#[tokio::test]
async fn index_lists_the_feeds_on_the_board() {
    let f = fixture();
    let app = f.app();
    let reply = get(&app, "/", &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        header_str(&reply, header::CONTENT_TYPE),
        "text/html; charset=utf-8"
    );
    assert!(reply.body.contains("<li>blog — Team blog (pending)</li>"));
    assert!(reply.body.contains("<li>news — City news (ok)</li>"));

    // The page follows the board live.
    f.board
        .put(feed("zoo", "Zoo notes", &[Format::Atom], Health::Ok));
    let reply = get(&app, "/", &[]).await;
    assert!(reply.body.contains("<li>zoo — Zoo notes (ok)</li>"));
}

#[tokio::test]
async fn index_render_failure_is_a_plain_500() {
    let f = fixture();
    let failing: IndexRenderer =
        Arc::new(|_: &[FeedStatus]| Err("undefined variable `feeds`".into()));
    let app = server::router(f.state_with(f.options(), failing));
    let reply = get(&app, "/", &[]).await;
    assert_eq!(reply.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(header_str(&reply, header::CONTENT_TYPE).starts_with("text/plain"));
    assert!(
        reply.body.contains("undefined variable `feeds`"),
        "{}",
        reply.body
    );
}

#[tokio::test]
async fn slow_handler_hits_the_request_timeout() {
    let f = fixture();
    let slow: IndexRenderer = Arc::new(|_: &[FeedStatus]| {
        std::thread::sleep(Duration::from_millis(1500));
        Ok("late".into())
    });
    let mut options = f.options();
    options.request_timeout = Duration::from_millis(100);
    let app = server::router(f.state_with(options, slow));
    let reply = get(&app, "/", &[]).await;
    assert_eq!(reply.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(!reply.body.contains("late"));
    // Other routes are unaffected.
    assert_eq!(get(&app, "/health", &[]).await.status, StatusCode::OK);
}

#[tokio::test]
async fn feeds_are_served_with_their_content_type_and_validators() {
    let f = fixture();
    let app = f.app();
    let reply = get(&app, "/feeds/news.xml", &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body, NEWS_RSS);
    assert_eq!(
        header_str(&reply, header::CONTENT_TYPE),
        Format::Rss.content_type()
    );
    assert_eq!(header_str(&reply, header::CACHE_CONTROL), "max-age=60");
    let etag = header_str(&reply, header::ETAG);
    // Strong tag: quoted hex SHA-256 of the bytes.
    assert_eq!(etag.len(), 66, "{etag}");
    assert!(etag.starts_with('"') && etag.ends_with('"'));
    let mtime = std::fs::metadata(f.out.join("news.xml"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(
        header_str(&reply, header::LAST_MODIFIED),
        httpdate::fmt_http_date(mtime)
    );

    let json = get(&app, "/feeds/news.json", &[]).await;
    assert_eq!(json.status, StatusCode::OK);
    assert_eq!(json.body, NEWS_JSON);
    assert_eq!(
        header_str(&json, header::CONTENT_TYPE),
        "application/feed+json; charset=utf-8"
    );
    assert_ne!(header_str(&json, header::ETAG), etag);

    let opml = get(&app, "/feeds.opml", &[]).await;
    assert_eq!(opml.status, StatusCode::OK);
    assert!(opml.body.contains("<opml"));
    assert_eq!(
        header_str(&opml, header::CONTENT_TYPE),
        "text/x-opml; charset=utf-8"
    );
    let xsl = get(&app, "/feeds/feed.xsl", &[]).await;
    assert_eq!(xsl.status, StatusCode::OK);
    assert!(xsl.body.contains("xsl:stylesheet"));
    assert_eq!(
        header_str(&xsl, header::CONTENT_TYPE),
        "text/xsl; charset=utf-8"
    );
}

#[tokio::test]
async fn unknown_feeds_formats_and_unpublished_files_are_404() {
    let f = fixture();
    let app = f.app();
    for uri in [
        "/feeds/nope.xml",     // not on the board
        "/feeds/news.atom",    // configured but not written yet
        "/feeds/blog.xml",     // pending: not written yet
        "/feeds/blog.json",    // blog does not publish json
        "/feeds/news.html",    // not a format
        "/feeds/news",         // no extension
        "/feeds/secret.xml",   // a file in output_dir, but no such feed
        "/feeds/news.xml.bak", // not a format
        "/feeds/",
        "/feeds",
        "/nothing",
    ] {
        let reply = get(&app, uri, &[]).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{uri}");
        assert!(!reply.body.contains(SECRET), "{uri}");
    }
    // Without the stylesheet file, its route is 404 too.
    std::fs::remove_file(f.out.join("feed.xsl")).unwrap();
    assert_eq!(
        get(&app, "/feeds/feed.xsl", &[]).await.status,
        StatusCode::NOT_FOUND
    );
}

/// Regression: the served OPML said `xmlUrl="news.xml"`, which resolves
/// to `/news.xml` (404) and which newsboat rejects outright.
#[tokio::test]
async fn served_opml_has_absolute_urls_from_host_or_public_url() {
    let f = fixture();
    let app = f.app();
    let opml = get(&app, "/feeds.opml", &[("host", "feeds.lan:8080")]).await;
    assert_eq!(opml.status, StatusCode::OK);
    let doc = quick_xml_outlines(&opml.body);
    assert_eq!(
        doc,
        [
            (
                "City news".to_string(),
                "http://feeds.lan:8080/feeds/news.xml".to_string()
            ),
            (
                "Team blog".to_string(),
                "http://feeds.lan:8080/feeds/blog.xml".to_string()
            ),
        ]
    );
    // Every xmlUrl it lists is served.
    let news = get(&app, "/feeds/news.xml", &[]).await;
    assert_eq!(news.status, StatusCode::OK);
    let mut options = f.options();
    options.public_url = Some(url::Url::parse("https://example.org/rss/").unwrap());
    let app = server::router(f.state(options));
    let opml = get(&app, "/feeds.opml", &[("host", "feeds.lan:8080")]).await;
    assert!(
        opml.body
            .contains(r#"xmlUrl="https://example.org/rss/news.xml""#),
        "{}",
        opml.body
    );
    // A hostile Host header never becomes part of a URL.
    let f2 = fixture();
    let opml = get(&f2.app(), "/feeds.opml", &[("host", "evil/path?x")]).await;
    assert!(
        opml.body
            .contains(r#"xmlUrl="http://localhost/feeds/news.xml""#),
        "{}",
        opml.body
    );
}

/// (title, xmlUrl) of every outline, in order.
fn quick_xml_outlines(xml: &str) -> Vec<(String, String)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut out = Vec::new();
    loop {
        match reader.read_event().unwrap() {
            Event::Empty(e) | Event::Start(e) if e.name().as_ref() == b"outline" => {
                let attr = |name: &[u8]| {
                    e.attributes()
                        .flatten()
                        .find(|a| a.key.as_ref() == name)
                        .map(|a| {
                            a.decoded_and_normalized_value(
                                quick_xml::XmlVersion::Explicit1_0,
                                reader.decoder(),
                            )
                            .unwrap()
                            .into_owned()
                        })
                        .unwrap_or_default()
                };
                out.push((attr(b"title"), attr(b"xmlUrl")));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn large_files_are_streamed_whole_with_a_tag_of_all_their_bytes() {
    use sha2::{Digest, Sha256};
    let f = fixture();
    // Several read chunks, and a last partial one.
    let mut big = String::from("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel>");
    while big.len() < 300_000 {
        big += "<item><title>Quay wall piles delivered</title></item>";
    }
    big += "</channel></rss>";
    std::fs::write(f.out.join("news.xml"), &big).unwrap();
    let app = f.app();
    let reply = get(&app, "/feeds/news.xml", &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body.len(), big.len());
    assert!(reply.body == big);
    let expected: String = Sha256::digest(big.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(header_str(&reply, header::ETAG), format!("\"{expected}\""));
    let again = get(
        &app,
        "/feeds/news.xml",
        &[("if-none-match", header_str(&reply, header::ETAG))],
    )
    .await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn conditional_requests_answer_304() {
    let f = fixture();
    let app = f.app();
    let first = get(&app, "/feeds/news.xml", &[]).await;
    let etag = header_str(&first, header::ETAG).to_string();
    let last_modified = header_str(&first, header::LAST_MODIFIED).to_string();

    for inm in [
        etag.clone(),
        format!("W/{etag}"),
        format!("\"0000\", {etag}"),
        "*".to_string(),
    ] {
        let reply = get(&app, "/feeds/news.xml", &[("if-none-match", &inm)]).await;
        assert_eq!(reply.status, StatusCode::NOT_MODIFIED, "{inm}");
        assert!(reply.body.is_empty());
        assert_eq!(header_str(&reply, header::ETAG), etag);
    }
    let other = get(&app, "/feeds/news.xml", &[("if-none-match", "\"0000\"")]).await;
    assert_eq!(other.status, StatusCode::OK);
    assert_eq!(other.body, NEWS_RSS);

    let reply = get(
        &app,
        "/feeds/news.xml",
        &[("if-modified-since", &last_modified)],
    )
    .await;
    assert_eq!(reply.status, StatusCode::NOT_MODIFIED);
    let reply = get(
        &app,
        "/feeds/news.xml",
        &[("if-modified-since", "Sat, 01 Jan 2000 00:00:00 GMT")],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    // If-None-Match decides when both are present.
    let reply = get(
        &app,
        "/feeds/news.xml",
        &[
            ("if-none-match", "\"0000\""),
            ("if-modified-since", &last_modified),
        ],
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);

    // A re-published file gets a new tag: the old one no longer matches.
    let updated = NEWS_RSS.replace("tram line", "tram line (updated)");
    std::fs::write(f.out.join("news.xml"), &updated).unwrap();
    let reply = get(&app, "/feeds/news.xml", &[("if-none-match", &etag)]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body, updated);
    assert_ne!(header_str(&reply, header::ETAG), etag);
}

#[tokio::test]
async fn head_has_headers_but_no_body() {
    let f = fixture();
    let app = f.app();
    let full = get(&app, "/feeds/news.xml", &[]).await;
    let reply = send(
        &app,
        Request::head("/feeds/news.xml")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(reply.body.is_empty());
    assert_eq!(
        header_str(&reply, header::ETAG),
        header_str(&full, header::ETAG)
    );
    assert_eq!(
        header_str(&reply, header::CONTENT_TYPE),
        Format::Rss.content_type()
    );

    // Over the wire: the length of the GET body, and no body bytes.
    let (addr, shutdown, task) = start(f.state(f.options())).await;
    let response = raw(
        addr,
        b"HEAD /feeds/news.xml HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status_of(&response), 200);
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    assert!(body.is_empty(), "{response}");
    assert!(
        head.to_ascii_lowercase()
            .contains(&format!("content-length: {}", NEWS_RSS.len())),
        "{head}"
    );
    shutdown.cancel();
    task.await.unwrap();
}

#[tokio::test]
async fn only_get_and_head_are_allowed_and_nothing_is_written() {
    let f = fixture();
    let app = f.app();
    let before = tree(&f.root);
    for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        for uri in [
            "/",
            "/feeds/news.xml",
            "/feeds/new.xml",
            "/feeds.opml",
            "/health",
            "/metrics",
            "/nothing",
        ] {
            let request = Request::builder()
                .method(method)
                .uri(uri)
                .body(Body::from("<rss>overwritten</rss>"))
                .unwrap();
            let reply = send(&app, request).await;
            assert_eq!(
                reply.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {uri}"
            );
            assert_eq!(header_str(&reply, header::ALLOW), "GET, HEAD");
        }
    }
    assert_eq!(tree(&f.root), before);
}

#[tokio::test]
async fn traversal_attempts_never_reach_a_file() {
    let f = fixture();
    let (addr, shutdown, task) = start(f.state(f.options())).await;
    let before = tree(&f.root);
    let targets: &[&str] = &[
        "/feeds/../secret.xml",
        "/feeds/%2e%2e%2fsecret.xml",
        "/feeds/%2E%2E%2Fsecret.xml",
        "/feeds/..%2Fsecret.xml",
        "/feeds/..%2fout%2fsecret.xml",
        "/feeds/%252e%252e%252fsecret.xml",
        "/feeds/a%00.xml",
        "/feeds/news.xml%00",
        "/feeds/secret.xml%00.xml",
        "/feeds/feed.xml/../../x",
        "/feeds/news.xml/../../secret.xml",
        "/feeds/secret.xml",
        "/feeds/x",
        "/feeds//etc/passwd",
        "/feeds/%2Fetc%2Fpasswd.xml",
        "/feeds/%2e%2e%5csecret.xml",
        "/feeds/..%5Csecret.xml",
        "/feeds/..\\secret.xml",
        "/feeds/..\\..\\secret.xml",
        "/feeds/C:%5Csecret.xml",
        "/../secret.xml",
        "/..%2fsecret.xml",
        "//secret.xml",
        "/out/secret.xml",
        "/secret.xml",
        "/feeds/%ff.xml",
        "http://x/feeds/../secret.xml",
        "*",
    ];
    for target in targets {
        let request = format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let response = raw(addr, request.as_bytes()).await;
        let status = status_of(&response);
        assert!(
            status == 404 || status == 400,
            "{target}: {status}\n{response}"
        );
        assert!(!response.contains(SECRET), "{target} leaked:\n{response}");
    }
    // The same through the router, for targets `http::Uri` accepts.
    let app = f.app();
    for target in targets {
        let Ok(request) = Request::get(*target).body(Body::empty()) else {
            continue;
        };
        let reply = send(&app, request).await;
        assert!(
            reply.status == StatusCode::NOT_FOUND || reply.status == StatusCode::BAD_REQUEST,
            "{target}: {}",
            reply.status
        );
        assert!(!reply.body.contains(SECRET), "{target}");
    }
    assert_eq!(tree(&f.root), before);
    shutdown.cancel();
    task.await.unwrap();
}

#[tokio::test]
async fn bearer_token_guards_everything_but_health() {
    let f = fixture();
    let mut options = f.options();
    options.bearer_token = Some("s3cret-token".into());
    let app = server::router(f.state(options));
    for uri in [
        "/",
        "/feeds/news.xml",
        "/feeds.opml",
        "/metrics",
        "/nothing",
    ] {
        let missing = get(&app, uri, &[]).await;
        assert_eq!(missing.status, StatusCode::UNAUTHORIZED, "{uri}");
        assert!(header_str(&missing, header::WWW_AUTHENTICATE).starts_with("Bearer"));
        assert!(!missing.body.contains("tram"));
        for wrong in [
            "Bearer s3cret-tokem",
            "Bearer s3cret-token2",
            "Bearer s3cret",
            "Basic czNjcmV0LXRva2Vu",
            "s3cret-token",
        ] {
            let reply = get(&app, uri, &[("authorization", wrong)]).await;
            assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{uri} {wrong}");
        }
    }
    // Bearer, Basic with the token as password (readers can send it), and
    // `?token=` on the URL (readers that can send nothing).
    for auth in [
        "Bearer s3cret-token",
        "bearer s3cret-token",
        "Basic cmVhZGVyOnMzY3JldC10b2tlbg==", // reader:s3cret-token
        "Basic OnMzY3JldC10b2tlbg==",         // :s3cret-token
    ] {
        let ok = get(&app, "/feeds/news.xml", &[("authorization", auth)]).await;
        assert_eq!(ok.status, StatusCode::OK, "{auth}");
        assert_eq!(ok.body, NEWS_RSS);
    }
    let wrong_basic = get(
        &app,
        "/feeds/news.xml",
        &[("authorization", "Basic cmVhZGVyOnMzY3JldC10b2tlbQ==")],
    )
    .await;
    assert_eq!(wrong_basic.status, StatusCode::UNAUTHORIZED);
    let query = get(&app, "/feeds/news.xml?token=s3cret-token", &[]).await;
    assert_eq!(query.status, StatusCode::OK);
    for bad in ["/feeds/news.xml?token=s3cret", "/feeds/news.xml?token="] {
        assert_eq!(
            get(&app, bad, &[]).await.status,
            StatusCode::UNAUTHORIZED,
            "{bad}"
        );
    }
    // The OPML served to an authenticated client carries the token.
    let opml = get(&app, "/feeds.opml?token=s3cret-token", &[("host", "h.lan")]).await;
    assert!(
        opml.body
            .contains(r#"xmlUrl="http://h.lan/feeds/news.xml?token=s3cret-token""#),
        "{}",
        opml.body
    );
    let missing = get(&app, "/", &[]).await;
    let challenge: Vec<&str> = missing
        .headers
        .get_all(header::WWW_AUTHENTICATE)
        .iter()
        .map(|v| v.to_str().unwrap().split(' ').next().unwrap())
        .collect();
    assert_eq!(challenge, ["Bearer", "Basic"]);
    let index = get(&app, "/", &[("authorization", "Bearer s3cret-token")]).await;
    assert_eq!(index.status, StatusCode::OK);
    let unknown = get(
        &app,
        "/nothing",
        &[("authorization", "Bearer s3cret-token")],
    )
    .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);
    let health = get(&app, "/health", &[]).await;
    assert_eq!(health.status, StatusCode::OK);
    assert_eq!(health.body, "ok\n");
}

#[tokio::test]
async fn health_lists_problem_feeds() {
    let f = fixture();
    let app = f.app();
    let ok = get(&app, "/health", &[]).await;
    assert_eq!(ok.status, StatusCode::OK);
    assert_eq!(ok.body, "ok\n");
    let json = get(&app, "/health", &[("accept", "application/json")]).await;
    assert_eq!(json.status, StatusCode::OK);
    let value: serde_json::Value = serde_json::from_str(&json.body).unwrap();
    assert_eq!(value["status"], "ok");

    f.board.update("news", |s| {
        s.health = Health::Degraded {
            reasons: vec!["found 2 records, had 24".into()],
        }
    });
    f.board.update("blog", |s| {
        s.health = Health::Failing {
            error: "HTTP 503 from https://blog.example.com/".into(),
            consecutive_failures: 4,
        }
    });
    let bad = get(&app, "/health", &[]).await;
    assert_eq!(bad.status, StatusCode::SERVICE_UNAVAILABLE);
    let lines: Vec<&str> = bad.body.lines().collect();
    assert_eq!(
        lines,
        [
            "failing blog: failed 4 time(s) in a row: HTTP 503 from https://blog.example.com/",
            "degraded news: found 2 records, had 24",
        ]
    );
    let json = get(
        &app,
        "/health",
        &[("accept", "application/json, text/plain;q=0.5")],
    )
    .await;
    assert_eq!(json.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(header_str(&json, header::CONTENT_TYPE), "application/json");
    let value: serde_json::Value = serde_json::from_str(&json.body).unwrap();
    assert_eq!(value["status"], "unhealthy");
    assert_eq!(value["problems"][1]["feed"], "news");
    assert_eq!(value["problems"][1]["health"], "degraded");
    assert_eq!(value["problems"][1]["reason"], "found 2 records, had 24");
}

#[tokio::test]
async fn metrics_expose_the_families() {
    let f = fixture();
    f.metrics.record_run(
        "news",
        &RunOutcome::Published,
        Duration::from_millis(800),
        24,
        20,
    );
    f.metrics
        .record_fetch(FetchKind::List, Duration::from_millis(90), true);
    let app = f.app();
    let reply = get(&app, "/metrics", &[]).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        header_str(&reply, header::CONTENT_TYPE),
        "text/plain; version=0.0.4; charset=utf-8"
    );
    for family in [
        "# TYPE feedmine_runs counter",
        "# TYPE feedmine_run_failures counter",
        "# TYPE feedmine_run_duration_seconds histogram",
        "# TYPE feedmine_records gauge",
        "# TYPE feedmine_items_published gauge",
        "# TYPE feedmine_fetch_duration_seconds histogram",
        "# TYPE feedmine_fetch_errors counter",
        "# TYPE feedmine_not_modified counter",
        "# TYPE feedmine_feeds gauge",
        "# TYPE feedmine_build_info gauge",
    ] {
        assert!(
            reply.body.contains(family),
            "{family} missing:\n{}",
            reply.body
        );
    }
    assert!(
        reply
            .body
            .contains(r#"feedmine_runs_total{feed="news",outcome="published"} 1"#)
    );
    // The feeds gauge follows the board (2 feeds).
    assert!(
        reply.body.lines().any(|l| l == "feedmine_feeds 2"),
        "{}",
        reply.body
    );

    let om = get(
        &app,
        "/metrics",
        &[(
            "accept",
            "application/openmetrics-text;version=1.0.0,text/plain;q=0.5",
        )],
    )
    .await;
    assert!(header_str(&om, header::CONTENT_TYPE).starts_with("application/openmetrics-text"));
    assert!(om.body.ends_with("# EOF\n"));
}

#[tokio::test]
async fn a_client_that_never_finishes_its_headers_is_disconnected() {
    let f = fixture();
    let mut options = f.options();
    options.header_read_timeout = Duration::from_millis(200);
    let (addr, shutdown, task) = start(f.state(options)).await;

    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /feeds/news.xml HT").await.unwrap();
    let mut response = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), slow.read_to_end(&mut response))
        .await
        .expect("a half-sent request line kept its connection open");
    // Closed (possibly after a 408); never served.
    if read.is_ok() {
        let text = String::from_utf8_lossy(&response);
        assert!(!text.contains("tram"), "{text}");
        assert!(text.is_empty() || status_of(&text) == 408, "{text}");
    }
    // A silent connection is closed the same way.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), silent.read_to_end(&mut buf))
        .await
        .expect("an idle connection stayed open")
        .ok();
    // Complete requests are still answered.
    let ok = raw(
        addr,
        b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status_of(&ok), 200);
    shutdown.cancel();
    task.await.unwrap();
}

#[tokio::test]
async fn one_client_holding_many_idle_sockets_is_capped() {
    let f = fixture();
    let (addr, shutdown, task) = start(f.state(f.options())).await;
    let mut idle = Vec::new();
    for _ in 0..100 {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    // The server closes every socket beyond the per-client limit at once.
    let mut closed = 0;
    for stream in &mut idle {
        let mut byte = [0u8; 1];
        if let Ok(read) =
            tokio::time::timeout(Duration::from_millis(100), stream.read(&mut byte)).await
        {
            assert!(matches!(read, Ok(0) | Err(_)), "unexpected data");
            closed += 1;
        }
    }
    assert!(
        closed >= 100 - server::MAX_CONNECTIONS_PER_CLIENT,
        "only {closed} of 100 idle sockets were closed"
    );
    drop(idle);
    // With the sockets gone, a normal request is served.
    let ok = tokio::time::timeout(
        Duration::from_secs(10),
        raw(
            addr,
            b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        ),
    )
    .await
    .expect("a request after the idle sockets were dropped was not served");
    assert_eq!(status_of(&ok), 200);
    shutdown.cancel();
    task.await.unwrap();
}

/// Sends one keep-alive request and reads its complete response (it has a
/// Content-Length), leaving the connection open.
async fn keep_alive_get(stream: &mut TcpStream, path: &str) -> String {
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    loop {
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "closed early");
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf).into_owned();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().unwrap())
                })
                .unwrap();
            if body.len() >= length {
                return text;
            }
        }
    }
}

#[tokio::test]
async fn connections_beyond_the_limit_wait_until_one_closes() {
    let f = fixture();
    let mut options = f.options();
    options.max_connections = 2;
    options.header_read_timeout = Duration::from_secs(30);
    let (addr, shutdown, task) = start(f.state(options)).await;

    // Two connections take both slots (and are served).
    let mut first = TcpStream::connect(addr).await.unwrap();
    let mut second = TcpStream::connect(addr).await.unwrap();
    assert_eq!(status_of(&keep_alive_get(&mut first, "/health").await), 200);
    assert_eq!(
        status_of(&keep_alive_get(&mut second, "/health").await),
        200
    );

    // Further ones connect (the kernel queues them) but get no answer.
    let mut waiting = Vec::new();
    for _ in 0..3 {
        let mut extra = TcpStream::connect(addr).await.unwrap();
        extra
            .write_all(b"GET /feeds/news.xml HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        waiting.push(extra);
    }
    let mut probe = [0u8; 64];
    let answered =
        tokio::time::timeout(Duration::from_millis(500), waiting[0].read(&mut probe)).await;
    assert!(
        answered.is_err(),
        "a connection beyond the limit was served"
    );

    // Closing the held connections lets the queued ones through, in turn.
    drop(first);
    drop(second);
    for mut extra in waiting {
        let mut response = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), extra.read_to_end(&mut response))
            .await
            .expect("a queued connection was never served")
            .unwrap();
        let text = String::from_utf8_lossy(&response);
        assert_eq!(status_of(&text), 200);
        assert!(text.ends_with(NEWS_RSS));
    }
    shutdown.cancel();
    task.await.unwrap();
}

#[tokio::test]
async fn shutdown_stops_accepting_and_returns() {
    let f = fixture();
    let (addr, shutdown, task) = start(f.state(f.options())).await;
    // An idle keep-alive connection does not hold the shutdown up.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    assert_eq!(status_of(&keep_alive_get(&mut idle, "/health").await), 200);
    shutdown.cancel();
    tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .expect("serve did not return after shutdown")
        .unwrap();
    let mut rest = Vec::new();
    let closed = idle.read_to_end(&mut rest).await;
    assert!(closed.is_err() || rest.is_empty());
    assert!(TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn bind_errors_name_the_address() {
    let taken = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = taken.local_addr().unwrap();
    let err = server::bind(addr).await.unwrap_err();
    assert!(err.to_string().contains(&addr.to_string()), "{err}");
}

#[tokio::test]
async fn a_client_that_stops_reading_loses_its_connection() {
    let f = fixture();
    // Big enough that pipelined responses overflow both socket buffers.
    let item = "<item><title>Council approves the new tram line</title></item>\n";
    let big = format!("<rss><channel>{}</channel></rss>", item.repeat(200_000));
    std::fs::write(f.out.join("news.xml"), &big).unwrap();
    let mut options = f.options();
    options.max_connections = 1;
    options.request_timeout = Duration::from_millis(300);
    let (addr, shutdown, task) = start(f.state(options)).await;

    // Takes the only slot, asks for ~13 MB × 8 and reads none of it.
    let mut hog = TcpStream::connect(addr).await.unwrap();
    let request = "GET /feeds/news.xml HTTP/1.1\r\nHost: x\r\n\r\n".repeat(8);
    hog.write_all(request.as_bytes()).await.unwrap();

    // Once its writes stall past the limit, the slot frees up.
    let ok = raw(
        addr,
        b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(status_of(&ok), 200);
    drop(hog);
    shutdown.cancel();
    task.await.unwrap();
}

/// Regression: unauthenticated `/health` printed failing feeds' URLs with
/// their `user:password@` and `?apikey=` secrets.
#[tokio::test]
async fn health_hides_reasons_from_strangers_and_masks_secrets() {
    let f = fixture();
    let mut options = f.options();
    options.bearer_token = Some("s3cret-token".into());
    let app = server::router(f.state(options));
    f.board.update("blog", |s| {
        s.health = Health::Failing {
            error: "HTTP 503 from https://bob:hunter2@intranet.example/feed?apikey=AKIA42".into(),
            consecutive_failures: 1,
        }
    });
    let stranger = get(&app, "/health", &[]).await;
    assert_eq!(stranger.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(stranger.body, "failing blog\n");
    let owner = get(&app, "/health", &[("authorization", "Bearer s3cret-token")]).await;
    assert!(
        owner.body.contains("intranet.example/feed"),
        "{}",
        owner.body
    );
    assert!(
        !owner.body.contains("hunter2") && !owner.body.contains("AKIA42"),
        "{}",
        owner.body
    );
}
