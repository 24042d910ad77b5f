//! `fetch::Fetcher` against the local test server: statuses, charsets,
//! redirects, limits, timeouts, content encoding, binary bodies and files.
//! Timeouts are a few hundred milliseconds so the whole file stays fast.

mod common;

use std::io::Write;
use std::time::Duration;

use common::{Reply, TestServer};
use feedmine::decode::DecodeError;
use feedmine::fetch::{
    FetchError, FetchOptions, Fetcher, RedirectProblem, TimeoutPhase, resolve_target,
};

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
