//! Pathological pages: every case finishes with a clear outcome (records
//! found, empty text with a reason, or a typed error) at a size that runs in
//! seconds in a debug build. Full sizes with timings and peak memory are in
//! `examples/pathological.rs`; no test here asserts a duration.
//!
//! The network cases (200 MB body, gzip bomb, endless chunked stream) use a
//! raw local server written here, because they stream hostile replies that
//! `tests/common` has no reply for (chunked encoding, unbounded gzip).

use std::time::Duration;

use chrono::{FixedOffset, TimeZone, Utc};
use feedmine::bodies::{self, BodyParams, Method};
use feedmine::extract::dates::DateContext;
use feedmine::extract::dom;
use feedmine::extract::patterns::MiningParams;
use feedmine::fetch::decode::{self, CharsetSource};
use feedmine::fetch::{FetchError, FetchOptions, Fetcher};
use feedmine::pipeline::{self, ListPage};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use url::Url;

fn analyze(html: &str) -> ListPage {
    let url = Url::parse("https://example.com/news/").unwrap();
    let dates = DateContext {
        now: Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap(),
        offset: FixedOffset::east_opt(0).unwrap(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    };
    pipeline::analyze_list(html, &url, &MiningParams::default(), &dates)
}

/// A plain news list of `n` distinct stories.
fn news_list(head: &str, n: usize) -> String {
    let mut html = format!("<html><head>{head}<title>News</title></head><body><ul>");
    for i in 0..n {
        html.push_str(&format!(
            "<li><a href=\"/story/{i}\">Harbour story number {i}</a> <span>2026-11-{:02}</span></li>",
            i % 28 + 1
        ));
    }
    html.push_str("</ul><footer>Contact</footer></body></html>");
    html
}

#[test]
fn hundred_thousand_nested_divs_are_capped_for_lists_and_bodies() {
    let depth = 100_000;
    let html = format!(
        "<html><body><h1>Deep</h1>{}deep text at the bottom of a very deep page{}\
         <p>after the deep part</p></body></html>",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    );
    let page = analyze(&html);
    assert_eq!(page.doc.dropped_deep_tags, depth - dom::depth::MAX_DEPTH);
    assert!(page.items.is_empty(), "no repeated records on this page");
    let text = page.doc.text(0);
    assert!(text.contains("deep text at the bottom"), "{text:.200}");
    assert!(text.ends_with("after the deep part"), "{text:.200}");

    // The bodies tokenizer and backward tree builder see the page uncapped.
    let ex = bodies::extract(&html, None, Method::Reverse, &BodyParams::default()).unwrap();
    assert!(
        ex.text.contains("deep text at the bottom") || ex.empty_reason.is_some(),
        "{ex:?}"
    );
    for method in [Method::Cevc, Method::Tagpath, Method::Similarity] {
        let ex = bodies::extract(&html, None, method, &BodyParams::default()).unwrap();
        assert!(ex.nodes_total > depth, "{method}");
    }
}

/// Regression: formatting elements left open, each distinct, are re-opened
/// by the parser in every later paragraph, so paragraph N held N nested
/// copies (a 46 KB page of 1,000 took 44 s, quadratic in elements and
/// cubic in work). The pre-pass keeps the parser's list of them short:
/// each paragraph re-opens a few, and no link or word is lost.
#[test]
fn formatting_elements_left_open_are_not_reopened_without_bound() {
    let mut html = String::from("<html><body>");
    for i in 0..400 {
        html.push_str(&format!(
            "<b id=b{i}><p>Paragraph {i} <a href=\"/story/{i}\">Harbour story number {i}</a>"
        ));
    }
    html.push_str("</body></html>");
    let doc = dom::parse(&html);
    let links = (0..doc.nodes.len() as u32)
        .filter(|&i| doc.is_tag(i, "a"))
        .count();
    assert_eq!(links, 400, "every link is kept");
    let bold = (0..doc.nodes.len() as u32)
        .filter(|&i| doc.is_tag(i, "b"))
        .count();
    assert!(bold < 400 * 10, "{bold} b elements for 400 paragraphs");
    let deepest = doc.nodes.iter().map(|n| n.depth).max().unwrap_or(0);
    assert!(deepest < 32, "nested {deepest} deep");
    let page = analyze(&html);
    assert!(
        page.doc
            .text(0)
            .contains("Paragraph 399 Harbour story number 399")
    );
}

#[test]
fn twenty_thousand_identical_list_items_are_one_list_and_one_item() {
    // Only the first sequence::MAX_CHILDREN items are mined (a cut on a
    // record boundary, tested in sequence.rs; the full 1,000,000-item case
    // is in the example).
    let n = 20_000;
    let mut html = String::from("<html><body><h1>News</h1><ul>");
    html.push_str(&"<li><a href=\"/story\">Same story</a> <span>2026-11-01</span></li>".repeat(n));
    html.push_str("</ul></body></html>");
    let page = analyze(&html);
    assert!(page.seq.truncated_nodes >= n - feedmine::extract::sequence::MAX_CHILDREN as usize);
    let winner = page.detection.winner().expect("the list is found");
    assert_eq!(
        winner.records.len(),
        feedmine::extract::sequence::MAX_CHILDREN as usize
    );
    // Identical items share one guid: one item survives deduplication.
    assert_eq!(page.items.len(), 1);
    assert_eq!(page.items[0].title, "Same story");
}

#[test]
fn five_megabyte_text_node_is_one_text_and_no_records() {
    let sentence = "The quick brown fox jumps over the lazy dog. ";
    let body = sentence.repeat(5_000_000 / sentence.len());
    let html = format!("<html><body><article><p>{body}</p></article></body></html>");
    let page = analyze(&html);
    assert!(page.items.is_empty());
    assert_eq!(page.seq.total_text(), body.trim().len() as u64);
    let ex = bodies::extract(&html, None, Method::Reverse, &BodyParams::default()).unwrap();
    assert_eq!(ex.text, body.trim());
}

#[test]
fn invalid_utf8_in_a_page_declaring_utf8_falls_back_and_is_mined() {
    // A lone continuation byte or a truncated lead byte in every title.
    let mut bytes = Vec::new();
    for (i, part) in news_list("<meta charset=\"utf-8\">", 50)
        .split("story")
        .enumerate()
    {
        if i > 0 {
            bytes.extend_from_slice(if i % 2 == 0 { b"st\x80ry" } else { b"st\xC3ry" });
        }
        bytes.extend_from_slice(part.as_bytes());
    }
    let d = decode::decode(&bytes, Some("text/html; charset=utf-8"), Some("com")).unwrap();
    // The bytes are not UTF-8, so decode does not trust the declarations
    // (header and meta): both are recorded as ignored and the detector picks
    // a single-byte encoding that maps every byte.
    assert_ne!(d.encoding, encoding_rs::UTF_8);
    assert_eq!(d.source, CharsetSource::Detector);
    assert_eq!(d.ignored.len(), 2, "{:?}", d.ignored);
    let page = analyze(&d.text);
    assert_eq!(page.items.len(), 50);
}

#[test]
fn nul_bytes_throughout_are_a_binary_decode_error() {
    let html = news_list("<meta charset=\"utf-8\">", 20);
    let bytes: Vec<u8> = html.bytes().flat_map(|b| [b, 0]).collect();
    let err = decode::decode(&bytes, Some("text/html"), Some("com")).unwrap_err();
    assert!(matches!(err, decode::DecodeError::Binary { .. }), "{err:?}");
    // A few stray NULs are text: the page still decodes and mines, and the
    // NULs never reach an item title.
    let sparse = news_list("", 20).replace("</a>", "\0</a>");
    let d = decode::decode(sparse.as_bytes(), Some("text/html"), None).unwrap();
    let page = analyze(&d.text);
    assert_eq!(page.items.len(), 20);
    assert!(page.items.iter().all(|it| !it.title.contains('\0')));
}

#[test]
fn unknown_meta_charset_is_ignored_and_recorded() {
    let html = news_list("<meta charset=\"x-unknown-foo\">", 20).replace("story", "störy");
    let latin1: Vec<u8> = html
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect();
    let d = decode::decode(&latin1, Some("text/html"), Some("de")).unwrap();
    assert_eq!(d.source, CharsetSource::Detector);
    assert_eq!(d.ignored.len(), 1, "{:?}", d.ignored);
    assert!(d.text.contains("Harbour störy number 7"));
    assert_eq!(analyze(&d.text).items.len(), 20);
}

// --- network cases -------------------------------------------------------

const CAP: u64 = 1024 * 1024;

fn capped_fetcher() -> Fetcher {
    Fetcher::new(FetchOptions {
        connect_timeout: Duration::from_secs(2),
        read_timeout: Duration::from_secs(5),
        total_timeout: Duration::from_secs(30),
        max_body_bytes: CAP,
        ..FetchOptions::default()
    })
    .unwrap()
}

/// Serves hostile replies by path until the test ends; never holds a whole
/// body in memory.
async fn hostile_server() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(serve_one(stream));
        }
    });
    addr
}

async fn serve_one(mut stream: TcpStream) {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let path = String::from_utf8_lossy(&head)
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .to_string();
    let _ = reply(&mut stream, &path).await;
}

async fn reply(stream: &mut TcpStream, path: &str) -> std::io::Result<()> {
    let chunk = "<p>filler text</p>\n".repeat(1024).into_bytes();
    const BIG: usize = 200_000_000;
    match path {
        "/big-length" | "/big-no-length" => {
            let length = if path == "/big-length" {
                format!("Content-Length: {BIG}\r\n")
            } else {
                String::new()
            };
            stream
                .write_all(
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n{length}Connection: close\r\n\r\n"
                    )
                    .as_bytes(),
                )
                .await?;
            let mut sent = 0;
            while sent < BIG {
                stream.write_all(&chunk).await?;
                sent += chunk.len();
            }
        }
        "/gzip-bomb" => {
            stream
                .write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\
                      Connection: close\r\n\r\n",
                )
                .await?;
            let (first, repeat) = gzip_zero_segments();
            stream.write_all(&first).await?;
            // Up to 10 GiB of zeros; a capped client hangs up long before.
            for _ in 1..10 * 1024 {
                stream.write_all(&repeat).await?;
            }
        }
        "/endless-chunked" => {
            stream
                .write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n",
                )
                .await?;
            let framed = [
                format!("{:x}\r\n", chunk.len()).into_bytes(),
                chunk.clone(),
                b"\r\n".to_vec(),
            ]
            .concat();
            loop {
                stream.write_all(&framed).await?;
            }
        }
        _ => {
            stream
                .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                .await?;
        }
    }
    Ok(())
}

/// A gzip header plus deflate data for 1 MiB of zeros, and a sync-flushed
/// 1 MiB-of-zeros segment that may follow any number of times (its
/// back-references reach only into zeros).
fn gzip_zero_segments() -> (Vec<u8>, Vec<u8>) {
    use flate2::{Compress, Compression, FlushCompress};
    let zeros = vec![0u8; 1 << 20];
    let mut c = Compress::new(Compression::fast(), false);
    let segment = |c: &mut Compress| {
        let mut out = Vec::with_capacity(1 << 20);
        let before = c.total_in();
        c.compress_vec(&zeros, &mut out, FlushCompress::Sync)
            .unwrap();
        assert_eq!(c.total_in() - before, zeros.len() as u64);
        out
    };
    let mut first = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    first.extend(segment(&mut c));
    let repeat = segment(&mut c);
    (first, repeat)
}

async fn fetch_is_too_large(path: &str) {
    let addr = hostile_server().await;
    let url = Url::parse(&format!("http://{addr}{path}")).unwrap();
    let err = capped_fetcher().fetch(&url).await.unwrap_err();
    assert!(
        matches!(err, FetchError::TooLarge { limit: CAP, .. }),
        "{path}: {err:?}"
    );
}

#[tokio::test]
async fn two_hundred_megabyte_body_is_too_large() {
    fetch_is_too_large("/big-length").await;
    fetch_is_too_large("/big-no-length").await;
}

#[tokio::test]
async fn gzip_bomb_is_too_large_after_the_cap_of_decompressed_bytes() {
    fetch_is_too_large("/gzip-bomb").await;
}

#[tokio::test]
async fn endless_chunked_stream_is_too_large() {
    fetch_is_too_large("/endless-chunked").await;
}
