//! `fetch::Fetcher` against the local test server: statuses, charsets,
//! redirects, limits, timeouts, content encoding, binary bodies and files;
//! conditional GET, Retry-After, cookies, proxies, and the SSRF guard
//! (`AddressPolicy::PublicOnly`). Timeouts are a few hundred milliseconds so
//! the whole file stays fast.

mod common;

use std::io::Write;
use std::time::Duration;

use common::{Reply, TestServer};
use feedmine::fetch::decode::DecodeError;
use feedmine::fetch::netguard::{AddressClass, BlockReason};
use feedmine::fetch::{
    AddressPolicy, FetchError, FetchOptions, Fetched, Fetcher, RedirectProblem, TimeoutPhase,
    resolve_target,
};
use url::Url;

const NEWS_ZH: &str = "国务院常务会议部署进一步优化营商环境的措施，推动经济持续回升向好。";
const NEWS_JA: &str =
    "東京都は来年度の予算案を発表しました。子育て支援と防災対策に重点を置きます。";

fn list_page(lang: &str, charset_meta: &str, headline: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"{lang}\"><head>{charset_meta}<title>News</title></head>\
         <body><ul class=\"news\">\
         <li><a href=\"/2026/11/01/a.html\">{headline}</a><span>2026-11-01</span></li>\
         <li><a href=\"/2026/11/02/b.html\">{headline}</a><span>2026-11-02</span></li>\
         </ul></body></html>"
    )
}

fn fetcher() -> Fetcher {
    Fetcher::new(quick_options()).unwrap()
}

fn quick_options() -> FetchOptions {
    FetchOptions {
        connect_timeout: Duration::from_millis(500),
        read_timeout: Duration::from_millis(500),
        total_timeout: Duration::from_secs(2),
        max_body_bytes: 64 * 1024,
        ..FetchOptions::default()
    }
}

#[tokio::test]
async fn ok_html_page() {
    let html = list_page("en", "<meta charset=\"utf-8\">", "Council approves budget");
    let server = TestServer::start(vec![(
        "/news",
        Reply::html(html.clone())
            .with_header("ETag", "\"v1\"")
            .with_header("Last-Modified", "Sun, 01 Nov 2026 10:00:00 GMT"),
    )])
    .await;
    let url = server.url("/news");
    let page = fetcher().fetch(&url).await.unwrap();

    assert_eq!(page.status, 200);
    assert_eq!(page.final_url, url);
    assert_eq!(page.text, html);
    assert_eq!(page.bytes, html.as_bytes());
    assert_eq!(page.encoding, encoding_rs::UTF_8);
    assert_eq!(
        page.content_type.as_deref(),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(page.etag.as_deref(), Some("\"v1\""));
    assert_eq!(
        page.last_modified.as_deref(),
        Some("Sun, 01 Nov 2026 10:00:00 GMT")
    );

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let agent = requests[0].header("user-agent").unwrap();
    assert!(agent.starts_with("feedmine/"), "{agent}");
}

#[tokio::test]
async fn extra_headers_are_sent() {
    let server = TestServer::start(vec![("/", Reply::html("<p>hello</p>"))]).await;
    let opts = FetchOptions {
        user_agent: "test-agent/1".into(),
        headers: vec![("If-None-Match".into(), "\"v1\"".into())],
        ..quick_options()
    };
    Fetcher::new(opts)
        .unwrap()
        .fetch(&server.url("/"))
        .await
        .unwrap();
    let request = &server.requests()[0];
    assert_eq!(request.header("User-Agent"), Some("test-agent/1"));
    assert_eq!(request.header("if-none-match"), Some("\"v1\""));
}

#[tokio::test]
async fn gbk_declared_only_in_meta() {
    let html = list_page("zh", "<meta charset=\"gbk\">", NEWS_ZH);
    let (bytes, _, _) = encoding_rs::GBK.encode(&html);
    let server = TestServer::start(vec![("/gbk", Reply::bytes("text/html", bytes.to_vec()))]).await;
    let page = fetcher().fetch(&server.url("/gbk")).await.unwrap();
    assert_eq!(page.encoding, encoding_rs::GBK);
    assert!(page.text.contains(NEWS_ZH), "{}", page.text);
}

#[tokio::test]
async fn shift_jis_declared_in_header() {
    let html = list_page("ja", "", NEWS_JA);
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(&html);
    let server = TestServer::start(vec![(
        "/sjis",
        Reply::bytes("text/html; charset=Shift_JIS", bytes.to_vec()),
    )])
    .await;
    let page = fetcher().fetch(&server.url("/sjis")).await.unwrap();
    assert_eq!(page.encoding, encoding_rs::SHIFT_JIS);
    assert!(page.text.contains(NEWS_JA), "{}", page.text);
}

#[tokio::test]
async fn error_statuses_name_the_url() {
    let server = TestServer::start(vec![(
        "/broken",
        Reply::Status(500, b"<h1>oops</h1>".to_vec()),
    )])
    .await;
    for (path, expected) in [("/missing", 404), ("/broken", 500)] {
        let url = server.url(path);
        let err = fetcher().fetch(&url).await.unwrap_err();
        match &err {
            FetchError::Status {
                status, url: at, ..
            } => {
                assert_eq!(*status, expected);
                assert_eq!(*at, url);
            }
            other => panic!("{path}: expected Status, got {other:?}"),
        }
        let message = err.to_string();
        assert!(message.contains(&expected.to_string()), "{message}");
        assert!(message.contains(url.as_str()), "{message}");
        let reason = if expected == 404 {
            "Not Found"
        } else {
            "Internal Server Error"
        };
        assert!(message.contains(reason), "{message}");
    }
}

#[tokio::test]
async fn slow_response_headers_time_out() {
    let server = TestServer::start(vec![(
        "/slow",
        Reply::html("<p>late</p>").delayed(Duration::from_secs(3)),
    )])
    .await;
    let opts = FetchOptions {
        read_timeout: Duration::from_millis(200),
        ..quick_options()
    };
    let url = server.url("/slow");
    let err = Fetcher::new(opts).unwrap().fetch(&url).await.unwrap_err();
    match &err {
        FetchError::Timeout { phase, url: at, .. } => {
            assert_eq!(*phase, TimeoutPhase::Response);
            assert_eq!(*at, url);
        }
        other => panic!("expected Timeout, got {other:?}"),
    }
    assert!(err.to_string().contains(url.as_str()), "{err}");
}

#[tokio::test]
async fn stalled_body_hits_the_read_timeout() {
    let body = list_page("en", "", "A headline that arrives one byte at a time").into_bytes();
    let server = TestServer::start(vec![(
        "/stall",
        Reply::Drip {
            bytes_per_sec: 2,
            body,
        },
    )])
    .await;
    let opts = FetchOptions {
        read_timeout: Duration::from_millis(150),
        ..quick_options()
    };
    let err = Fetcher::new(opts)
        .unwrap()
        .fetch(&server.url("/stall"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            FetchError::Timeout {
                phase: TimeoutPhase::Read,
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn slow_drip_hits_the_total_timeout() {
    // Each read arrives well within the read timeout, but the whole body takes ~2.5 s.
    let body = vec![b'x'; 5000];
    let server = TestServer::start(vec![(
        "/drip",
        Reply::Drip {
            bytes_per_sec: 2000,
            body,
        },
    )])
    .await;
    let opts = FetchOptions {
        read_timeout: Duration::from_millis(500),
        total_timeout: Duration::from_millis(400),
        ..quick_options()
    };
    let err = Fetcher::new(opts)
        .unwrap()
        .fetch(&server.url("/drip"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            FetchError::Timeout {
                phase: TimeoutPhase::Total,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("400ms"), "{err}");
}

#[tokio::test]
async fn redirect_is_followed_and_final_url_reported() {
    let server = TestServer::start(vec![
        ("/old-news", Reply::Redirect("/news".into())),
        ("/news", Reply::html("<ul><li>moved here</li></ul>")),
    ])
    .await;
    let page = fetcher().fetch(&server.url("/old-news")).await.unwrap();
    assert_eq!(page.final_url, server.url("/news"));
    assert!(page.text.contains("moved here"));
    assert_eq!(server.hits("/old-news"), 1);
    assert_eq!(server.hits("/news"), 1);
}

#[tokio::test]
async fn redirect_loop_is_an_error() {
    let server = TestServer::start(vec![
        ("/a", Reply::Redirect("/b".into())),
        ("/b", Reply::Redirect("/a".into())),
    ])
    .await;
    let url = server.url("/a");
    let err = fetcher().fetch(&url).await.unwrap_err();
    match &err {
        FetchError::Redirects { url: at, problem } => {
            assert_eq!(*at, url);
            assert_eq!(
                *problem,
                RedirectProblem::Loop {
                    at: Box::new(url.clone())
                }
            );
        }
        other => panic!("expected Redirects, got {other:?}"),
    }
    assert!(err.to_string().contains("redirect loop"), "{err}");
    // Detected on the first repeat, not after exhausting the limit.
    assert_eq!(server.hits("/a"), 1);
}

#[tokio::test]
async fn too_many_redirects_is_an_error() {
    let hops = (0..6).map(|i| {
        (
            format!("/hop{i}"),
            Reply::Redirect(format!("/hop{}", i + 1)),
        )
    });
    let server = TestServer::start(hops).await;
    let opts = FetchOptions {
        max_redirects: 3,
        ..quick_options()
    };
    let err = Fetcher::new(opts)
        .unwrap()
        .fetch(&server.url("/hop0"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            FetchError::Redirects {
                problem: RedirectProblem::TooMany { limit: 3 },
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(server.hits("/hop3"), 1);
    assert_eq!(server.hits("/hop4"), 0);
}

#[tokio::test]
async fn body_over_the_cap_is_too_large() {
    let big = "<p>filler</p>".repeat(10_000).into_bytes(); // 130 kB > 64 KiB cap
    let server = TestServer::start(vec![
        ("/with-length", Reply::bytes("text/html", big.clone())),
        (
            "/no-length",
            Reply::NoLength {
                content_type: "text/html".into(),
                body: big,
            },
        ),
        ("/endless", Reply::Endless),
    ])
    .await;
    for path in ["/with-length", "/no-length", "/endless"] {
        let err = fetcher().fetch(&server.url(path)).await.unwrap_err();
        assert!(
            matches!(err, FetchError::TooLarge { limit: 65536, .. }),
            "{path}: {err:?}"
        );
        assert!(err.to_string().contains(server.url(path).as_str()), "{err}");
    }
}

#[tokio::test]
async fn gzip_response_is_decoded() {
    let html = list_page("en", "", "Compressed headline");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(html.as_bytes()).unwrap();
    let gzipped = encoder.finish().unwrap();
    let server = TestServer::start(vec![(
        "/gz",
        Reply::bytes("text/html; charset=utf-8", gzipped).with_header("Content-Encoding", "gzip"),
    )])
    .await;
    let page = fetcher().fetch(&server.url("/gz")).await.unwrap();
    assert_eq!(page.text, html);
    let accept = server.requests()[0]
        .header("accept-encoding")
        .unwrap()
        .to_owned();
    assert!(accept.contains("gzip"), "{accept}");
}

#[tokio::test]
async fn binary_and_empty_bodies_are_decode_errors() {
    let png =
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89".to_vec();
    let server = TestServer::start(vec![
        // Mislabelled as HTML, as misconfigured servers do.
        ("/logo", Reply::bytes("text/html", png)),
        ("/blank", Reply::bytes("text/html", b"\n  \n".to_vec())),
    ])
    .await;
    let err = fetcher().fetch(&server.url("/logo")).await.unwrap_err();
    match &err {
        FetchError::Decode {
            source: DecodeError::Binary { what },
            ..
        } => assert!(what.contains("PNG"), "{what}"),
        other => panic!("expected Binary, got {other:?}"),
    }
    let chain = format!("{:#}", anyhow::Error::new(err));
    assert!(
        chain.contains("/logo") && chain.contains("PNG image"),
        "{chain}"
    );

    let err = fetcher().fetch(&server.url("/blank")).await.unwrap_err();
    assert!(
        matches!(
            err,
            FetchError::Decode {
                source: DecodeError::Empty,
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn refused_connection_is_a_connect_error_with_cause() {
    let url = common::refused_url().await;
    let err = fetcher().fetch(&url).await.unwrap_err();
    assert!(matches!(err, FetchError::Connect { .. }), "{err:?}");
    let chain = format!("{:#}", anyhow::Error::new(err));
    assert!(chain.contains(url.as_str()), "{chain}");
    assert!(chain.to_lowercase().contains("refused"), "{chain}");
}

#[tokio::test]
async fn unanswered_connect_hits_the_connect_timeout() {
    let blackhole = common::Blackhole::start().await;
    let opts = FetchOptions {
        connect_timeout: Duration::from_millis(200),
        ..quick_options()
    };
    let err = Fetcher::new(opts)
        .unwrap()
        .fetch(&blackhole.url)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            FetchError::Timeout {
                phase: TimeoutPhase::Connect,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("connecting to"), "{err}");
}

#[tokio::test]
async fn reset_mid_body_is_a_network_error() {
    let body = list_page("en", "", "Half a page").into_bytes();
    let server = TestServer::start(vec![("/reset", Reply::ResetMidBody(body))]).await;
    let err = fetcher().fetch(&server.url("/reset")).await.unwrap_err();
    assert!(matches!(err, FetchError::Network { .. }), "{err:?}");
}

#[tokio::test]
async fn file_url_is_read_and_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("list.html");
    let html = list_page("zh", "<meta charset=\"gb2312\">", NEWS_ZH);
    std::fs::write(&path, encoding_rs::GBK.encode(&html).0).unwrap();

    let url = url::Url::from_file_path(&path).unwrap();
    let page = fetcher().fetch(&url).await.unwrap();
    assert_eq!(page.final_url, url);
    assert_eq!(page.status, 200);
    assert_eq!(page.encoding, encoding_rs::GBK);
    assert!(page.text.contains(NEWS_ZH));

    let missing = url::Url::from_file_path(dir.path().join("gone.html")).unwrap();
    let err = fetcher().fetch(&missing).await.unwrap_err();
    assert!(matches!(err, FetchError::File { .. }), "{err:?}");
    assert!(err.to_string().contains("gone.html"), "{err}");
}

#[tokio::test]
async fn relative_path_resolves_to_an_absolute_file_url() {
    // Cargo runs integration tests from the package root.
    let url = resolve_target("tests/fetch.rs").unwrap();
    let expected = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fetch.rs");
    assert_eq!(url, url::Url::from_file_path(&expected).unwrap());
    let page = fetcher().fetch(&url).await.unwrap();
    assert!(
        page.text
            .contains("relative_path_resolves_to_an_absolute_file_url")
    );
}

#[tokio::test]
async fn conditional_get_sends_validators_and_maps_304() {
    let html = list_page("en", "", "Unchanged headline");
    let server = TestServer::start(vec![
        (
            "/news",
            Reply::Sequence(vec![
                Reply::html(html.clone())
                    .with_header("ETag", "W/\"abc\"")
                    .with_header("Last-Modified", "Sun, 22 Nov 2026 06:00:00 GMT"),
                Reply::Status(304, Vec::new()).with_header("ETag", "W/\"abc\""),
            ]),
        ),
        ("/moved", Reply::Redirect("/news".into())),
    ])
    .await;
    let url = server.url("/news");
    let first = fetcher().fetch_conditional(&url, None, None).await.unwrap();
    let Fetched::Page(page) = first else {
        panic!("expected a page, got {first:?}")
    };
    assert_eq!(page.text, html);
    assert_eq!(server.requests()[0].header("if-none-match"), None);

    let etag = page.etag.as_deref();
    let last_modified = page.last_modified.as_deref();
    let second = fetcher()
        .fetch_conditional(&server.url("/moved"), etag, last_modified)
        .await
        .unwrap();
    match second {
        // The final URL after the redirect, not the requested one.
        Fetched::NotModified { final_url } => assert_eq!(final_url, url),
        other => panic!("expected NotModified, got {other:?}"),
    }
    let revalidation = &server.requests()[2];
    assert_eq!(revalidation.target, "/news");
    assert_eq!(revalidation.header("if-none-match"), Some("W/\"abc\""));
    assert_eq!(
        revalidation.header("if-modified-since"),
        Some("Sun, 22 Nov 2026 06:00:00 GMT")
    );
    // The redirect hop carried them too.
    assert_eq!(
        server.requests()[1].header("if-none-match"),
        Some("W/\"abc\"")
    );

    // Without validators, a 304 is an error status, not a page.
    let err = fetcher().fetch(&url).await.unwrap_err();
    assert!(
        matches!(err, FetchError::Status { status: 304, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn server_ignoring_validators_gives_a_page() {
    let server = TestServer::start(vec![("/news", Reply::html("<p>always fresh</p>"))]).await;
    let fetched = fetcher()
        .fetch_conditional(&server.url("/news"), Some("\"old\""), None)
        .await
        .unwrap();
    assert!(matches!(fetched, Fetched::Page(ref p) if p.text.contains("always fresh")));
    assert_eq!(
        server.requests()[0].header("if-none-match"),
        Some("\"old\"")
    );
    assert_eq!(server.requests()[0].header("if-modified-since"), None);
}

#[tokio::test]
async fn retry_after_is_reported_on_429_and_503_only() {
    let server = TestServer::start(vec![
        (
            "/busy",
            Reply::Status(429, b"<h1>slow down</h1>".to_vec()).with_header("Retry-After", "120"),
        ),
        (
            "/maintenance",
            Reply::Status(503, b"<h1>back soon</h1>".to_vec())
                .with_header("Retry-After", "Sat, 01 Jan 2000 00:00:00 GMT"),
        ),
        (
            "/forbidden",
            Reply::Status(403, b"<h1>no</h1>".to_vec()).with_header("Retry-After", "60"),
        ),
    ])
    .await;
    let err = fetcher().fetch(&server.url("/busy")).await.unwrap_err();
    assert_eq!(err.retry_after(), Some(Duration::from_secs(120)));
    assert!(err.is_transient());
    assert!(err.to_string().contains("retry after 120 s"), "{err}");

    // A date in the past: retry now.
    let err = fetcher()
        .fetch(&server.url("/maintenance"))
        .await
        .unwrap_err();
    assert_eq!(err.retry_after(), Some(Duration::ZERO));
    assert!(err.is_transient());

    let err = fetcher()
        .fetch(&server.url("/forbidden"))
        .await
        .unwrap_err();
    assert_eq!(err.retry_after(), None);
    assert!(!err.is_transient());
}

#[tokio::test]
async fn cookies_are_sent_but_not_across_hosts() {
    let server = TestServer::start(vec![("/news", Reply::html("<p>members only</p>"))]).await;
    // Same server, other host name: the cookie must not follow.
    let elsewhere = server.url_on("localhost", "/news");
    server.set("/same-host", Reply::Redirect("/news".into()));
    server.set("/other-host", Reply::Redirect(elsewhere.to_string()));
    let opts = FetchOptions {
        cookies: Some("session=s3cr3t; lang=en".into()),
        headers: vec![("Authorization".into(), "Bearer t0ken".into())],
        ..quick_options()
    };
    let fetcher = Fetcher::new(opts).unwrap();

    fetcher.fetch(&server.url("/same-host")).await.unwrap();
    let requests = server.requests();
    for request in &requests {
        assert_eq!(request.header("cookie"), Some("session=s3cr3t; lang=en"));
        assert_eq!(request.header("authorization"), Some("Bearer t0ken"));
    }

    let page = fetcher.fetch(&server.url("/other-host")).await.unwrap();
    assert_eq!(page.final_url, elsewhere);
    let requests = server.requests();
    let (first_hop, second_hop) = (&requests[2], &requests[3]);
    assert_eq!(first_hop.target, "/other-host");
    assert_eq!(first_hop.header("cookie"), Some("session=s3cr3t; lang=en"));
    assert_eq!(second_hop.target, "/news");
    assert!(second_hop.header("host").unwrap().starts_with("localhost:"));
    assert_eq!(second_hop.header("cookie"), None);
    assert_eq!(second_hop.header("authorization"), None);
}

#[tokio::test]
async fn requests_go_through_the_configured_proxy() {
    // The test server plays a forward proxy: it sees absolute-form targets.
    let proxy = TestServer::start(vec![(
        "http://news.example/list",
        Reply::html("<p>via proxy</p>"),
    )])
    .await;
    let opts = FetchOptions {
        proxy: Some(proxy.base.clone()),
        ..quick_options()
    };
    let url = Url::parse("http://news.example/list").unwrap();
    let page = Fetcher::new(opts).unwrap().fetch(&url).await.unwrap();
    assert!(page.text.contains("via proxy"));
    assert_eq!(page.final_url, url);
    assert_eq!(proxy.requests()[0].target, "http://news.example/list");
    assert_eq!(proxy.requests()[0].header("host"), Some("news.example"));
}

#[tokio::test]
async fn redirects_to_other_schemes_are_blocked_under_any_policy() {
    let server = TestServer::start(vec![
        ("/to-file", Reply::Redirect("file:///etc/passwd".into())),
        (
            "/to-ftp",
            Reply::Redirect("ftp://files.example/list".into()),
        ),
        (
            "/to-data",
            Reply::Redirect("data:text/html,<p>hi</p>".into()),
        ),
    ])
    .await;
    for (path, scheme) in [
        ("/to-file", "file"),
        ("/to-ftp", "ftp"),
        ("/to-data", "data"),
    ] {
        let err = fetcher().fetch(&server.url(path)).await.unwrap_err();
        match &err {
            FetchError::Blocked {
                url,
                reason: BlockReason::Scheme { scheme: s, .. },
            } => {
                assert_eq!(url.scheme(), scheme);
                assert_eq!(s, scheme);
            }
            other => panic!("{path}: expected Blocked, got {other:?}"),
        }
        assert!(
            err.to_string()
                .contains(&format!("redirect to a {scheme}: URL")),
            "{err}"
        );
    }
}

fn public_only() -> Fetcher {
    Fetcher::new(FetchOptions {
        address_policy: AddressPolicy::PublicOnly,
        ..quick_options()
    })
    .unwrap()
}

#[tokio::test]
async fn public_only_blocks_internal_addresses_before_connecting() {
    let server = TestServer::start(vec![("/admin", Reply::html("<p>internal</p>"))]).await;
    let port = server.base.port().unwrap();
    // (URL, what the refusal must name).
    let cases = [
        (
            format!("http://127.0.0.1:{port}/admin"),
            "loopback address 127.0.0.1",
        ),
        (
            format!("http://localhost:{port}/admin"),
            "localhost resolves only to non-public addresses",
        ),
        (format!("http://[::1]:{port}/admin"), "loopback address ::1"),
        (
            "http://10.0.0.1/admin".to_owned(),
            "private address 10.0.0.1",
        ),
        (
            "http://169.254.169.254/latest/meta-data/".to_owned(),
            "cloud metadata address 169.254.169.254",
        ),
        (
            format!("http://[::ffff:127.0.0.1]:{port}/admin"),
            "loopback address ::ffff:127.0.0.1",
        ),
        (
            "http://[fd00::1]/admin".to_owned(),
            "unique local address fd00::1",
        ),
        (
            format!("http://0.0.0.0:{port}/admin"),
            "unspecified address 0.0.0.0",
        ),
        (
            format!("http://2130706433:{port}/admin"),
            "loopback address 127.0.0.1",
        ),
        (
            format!("http://0x7f.1:{port}/admin"),
            "loopback address 127.0.0.1",
        ),
        (
            format!("http://0177.0.0.1:{port}/admin"),
            "loopback address 127.0.0.1",
        ),
        (
            format!("http://192.168.1.1:{port}/router"),
            "private address 192.168.1.1",
        ),
        (
            format!("http://[fe80::1]:{port}/admin"),
            "link-local address fe80::1",
        ),
        (
            format!("http://100.64.0.1:{port}/admin"),
            "shared (CGNAT) address 100.64.0.1",
        ),
        (
            format!("http://[64:ff9b::7f00:1]:{port}/admin"),
            "loopback address 64:ff9b::7f00:1",
        ),
    ];
    for (text, named) in &cases {
        let url = Url::parse(text).unwrap();
        let err = public_only().fetch(&url).await.unwrap_err();
        assert!(matches!(err, FetchError::Blocked { .. }), "{text}: {err:?}");
        let message = err.to_string();
        assert!(message.contains(named), "{text}: {message}");
        assert!(message.starts_with("refused to fetch http://"), "{message}");
    }
    assert_eq!(cases.len(), 15);
    // No connection reached the server.
    assert!(server.requests().is_empty(), "{:?}", server.requests());

    // Local files are refused too; the user-chosen policy still fetches all.
    let file = resolve_target("tests/fetch.rs").unwrap();
    let err = public_only().fetch(&file).await.unwrap_err();
    assert!(err.to_string().contains("request to a file: URL"), "{err}");
    let page = fetcher().fetch(&server.url("/admin")).await.unwrap();
    assert!(page.text.contains("internal"));
    assert!(fetcher().fetch(&file).await.is_ok());
}

#[tokio::test]
async fn public_only_rechecks_every_redirect_hop() {
    // The server stands in for the internet through the proxy, so that the
    // first hop is a public-looking name; its redirects point inside.
    let server = TestServer::start(vec![("/secret", Reply::html("<p>internal</p>"))]).await;
    let port = server.base.port().unwrap();
    let secret_literal = format!("http://127.0.0.1:{port}/secret");
    let secret_name = format!("http://localhost:{port}/secret");
    let metadata = "http://169.254.169.254/latest/meta-data/".to_owned();
    server.set(
        "http://news.example/a",
        Reply::Redirect(secret_literal.clone()),
    );
    server.set(
        "http://news.example/b",
        Reply::Redirect(secret_name.clone()),
    );
    server.set("http://news.example/c", Reply::Redirect(metadata.clone()));
    server.set("http://news.example/ok", Reply::html("<p>public page</p>"));
    let fetcher = Fetcher::new(FetchOptions {
        address_policy: AddressPolicy::PublicOnly,
        proxy: Some(server.base.clone()),
        ..quick_options()
    })
    .unwrap();

    let page = fetcher
        .fetch(&Url::parse("http://news.example/ok").unwrap())
        .await
        .unwrap();
    assert!(page.text.contains("public page"));
    for (start, target, class) in [
        ("/a", &secret_literal, "loopback address 127.0.0.1"),
        ("/b", &secret_name, "loopback name localhost"),
        ("/c", &metadata, "cloud metadata address"),
    ] {
        let url = Url::parse(&format!("http://news.example{start}")).unwrap();
        let err = fetcher.fetch(&url).await.unwrap_err();
        match &err {
            FetchError::Blocked { url, .. } => assert_eq!(url.as_str(), target),
            other => panic!("{start}: expected Blocked, got {other:?}"),
        }
        assert!(err.to_string().contains(class), "{err}");
    }
    // Four first hops reached the "internet"; nothing went inside.
    let targets: Vec<String> = server.requests().iter().map(|r| r.target.clone()).collect();
    assert_eq!(
        targets,
        [
            "http://news.example/ok",
            "http://news.example/a",
            "http://news.example/b",
            "http://news.example/c"
        ]
    );
    assert_eq!(server.hits("/secret"), 0);
}

#[tokio::test]
async fn blocked_reason_names_the_class() {
    let err = public_only()
        .fetch(&Url::parse("http://[fd12:3456::1]/").unwrap())
        .await
        .unwrap_err();
    match err {
        FetchError::Blocked {
            reason: BlockReason::Address { class, ip },
            ..
        } => {
            assert_eq!(class, AddressClass::UniqueLocal);
            assert_eq!(ip.to_string(), "fd12:3456::1");
        }
        other => panic!("expected Blocked, got {other:?}"),
    }
}

#[tokio::test]
async fn tls_handshake_failure_names_the_url_and_the_cause() {
    // A plain-HTTP server reached over https: it answers the ClientHello
    // with an HTTP response, and the TLS handshake fails.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        use tokio::io::AsyncWriteExt;
        while let Ok((mut sock, _)) = listener.accept().await {
            let _ = sock
                .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                .await;
        }
    });
    let url = url::Url::parse(&format!("https://{addr}/")).unwrap();
    let err = fetcher().fetch(&url).await.unwrap_err();
    assert!(matches!(err, FetchError::Tls { .. }), "{err:?}");
    let chain = format!("{:#}", anyhow::Error::new(err));
    assert!(chain.contains(url.as_str()), "{chain}");
    let lower = chain.to_lowercase();
    assert!(
        lower.contains("tls")
            || lower.contains("ssl")
            || lower.contains("handshake")
            || lower.contains("certificate")
            || lower.contains("record"),
        "{chain}"
    );
}

#[tokio::test]
async fn dns_failure_names_the_host() {
    // `.invalid` never resolves (RFC 6761).
    let url = url::Url::parse("http://feedmine-test-host.invalid/news/").unwrap();
    let err = fetcher().fetch(&url).await.unwrap_err();
    assert!(matches!(err, FetchError::Connect { .. }), "{err:?}");
    let chain = format!("{:#}", anyhow::Error::new(err));
    assert!(chain.contains("feedmine-test-host.invalid"), "{chain}");
}
