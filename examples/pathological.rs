//! Pathological pages at full size: every case runs in its own child process
//! (so its peak RSS is its own) and the parent prints a table of input,
//! size, wall time, peak RSS and outcome.
//!
//!     cargo run --release --example pathological            # every case
//!     cargo run --release --example pathological -- NAME    # one case, in-process
//!
//! Wall time covers the processing only (not building the input); peak RSS
//! is the child's `VmHWM` and includes the input itself. The network cases
//! use a local raw HTTP server that streams the hostile reply without ever
//! holding it in memory, and the default `FetchOptions` (10 MiB cap).

use std::io::Write as _;
use std::time::{Duration, Instant};

use chrono::{FixedOffset, TimeZone, Utc};
use feedmine::bodies::{self, BodyParams, Method};
use feedmine::extract::dates::DateContext;
use feedmine::extract::patterns::MiningParams;
use feedmine::fetch::decode;
use feedmine::fetch::{FetchOptions, Fetcher};
use feedmine::pipeline;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use url::Url;

const CASES: &[(&str, &str)] = &[
    ("nested-divs", "100,000 nested divs → list pipeline"),
    (
        "nested-divs-bodies",
        "100,000 nested divs → bodies (reverse)",
    ),
    (
        "list-items",
        "1,000,000 identical list items → list pipeline",
    ),
    (
        "many-comments",
        "400,000 comments in list items → list pipeline",
    ),
    (
        "open-formatting",
        "1,000 distinct <b> left open in a paragraph, then 140,000 paragraphs → list pipeline",
    ),
    (
        "stray-end-tags",
        "2,500,000 stray </p> after a list (a paragraph each) → list pipeline",
    ),
    (
        "list-items-bodies",
        "1,000,000 identical list items → bodies (reverse)",
    ),
    ("text-node", "one 50 MB text node → list pipeline"),
    ("text-node-bodies", "one 50 MB text node → bodies (reverse)"),
    (
        "invalid-utf8",
        "invalid UTF-8 in a page declaring UTF-8 → decode + list",
    ),
    ("nul-bytes", "NUL bytes throughout → decode + list"),
    (
        "unknown-charset",
        "<meta charset=x-unknown-foo> → decode + list",
    ),
    (
        "body-200mb",
        "200 MB body (with and without Content-Length) → fetch",
    ),
    ("gzip-bomb", "gzip bomb, 10 GiB of zeros → fetch"),
    ("endless-chunked", "endless chunked stream → fetch"),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(name) = args.first() {
        let (size, outcome, elapsed) = run_case(name);
        println!(
            "{size}\t{}\t{}\t{outcome}",
            elapsed.as_secs_f64(),
            peak_rss_kib()
        );
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        eprintln!("cannot find this example's executable");
        std::process::exit(1);
    };
    println!("| case | input | size | wall time | peak RSS | outcome |");
    println!("|---|---|---|---|---|---|");
    for (name, what) in CASES {
        let out = std::process::Command::new(&exe).arg(name).output();
        let line = match out {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
            Ok(o) => format!(
                "-\t0\t0\tFAILED: {}",
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            ),
            Err(e) => format!("-\t0\t0\tFAILED: {e}"),
        };
        let mut parts = line.splitn(4, '\t');
        let size = parts.next().unwrap_or("-");
        let secs: f64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
        let rss: f64 = parts.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
        let outcome = parts.next().unwrap_or("");
        println!(
            "| {name} | {what} | {size} | {secs:.2} s | {:.0} MiB | {outcome} |",
            rss / 1024.0
        );
        let _ = std::io::stdout().flush();
    }
}

/// Peak resident set of this process in KiB (`VmHWM`), 0 if unknown.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn mib(n: usize) -> String {
    format!("{:.1} MiB", n as f64 / (1024.0 * 1024.0))
}

fn date_context() -> DateContext {
    DateContext {
        now: Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap(),
        offset: FixedOffset::east_opt(0).unwrap(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    }
}

fn list_outcome(html: &str) -> (String, Duration) {
    let url = Url::parse("https://example.com/news/").unwrap();
    let t = Instant::now();
    let page = pipeline::analyze_list(html, &url, &MiningParams::default(), &date_context());
    let elapsed = t.elapsed();
    let records = page.detection.winner().map_or(0, |g| g.records.len());
    (
        format!(
            "{} arena nodes, {} tokens, {} deep tags dropped, {records} records, {} items \
             (parse {:.1} s, mine {:.1} s, items {:.1} s)",
            page.doc.nodes.len(),
            page.seq.len(),
            page.doc.dropped_deep_tags,
            page.items.len(),
            page.timings.parse.as_secs_f64(),
            page.timings.mine.as_secs_f64(),
            page.timings.items.as_secs_f64(),
        ),
        elapsed,
    )
}

fn bodies_outcome(html: &str) -> (String, Duration) {
    let t = Instant::now();
    let ex = bodies::extract(html, None, Method::Reverse, &BodyParams::default());
    let elapsed = t.elapsed();
    let outcome = match ex {
        Ok(ex) => format!(
            "{} text bytes, {} of {} nodes built{}",
            ex.text.len(),
            ex.nodes_built,
            ex.nodes_total,
            ex.empty_reason
                .map(|r| format!(", empty: {r}"))
                .unwrap_or_default()
        ),
        Err(e) => format!("error: {e}"),
    };
    (outcome, elapsed)
}

fn decode_then_list(bytes: &[u8], content_type: Option<&str>) -> (String, Duration) {
    let t = Instant::now();
    match decode::decode(bytes, content_type, Some("com")) {
        Ok(d) => {
            let t_decode = t.elapsed();
            let (list, t_list) = list_outcome(&d.text);
            (
                format!(
                    "decoded as {} ({:?}, errors replaced: {}, {} declarations ignored); {list}",
                    d.encoding.name(),
                    d.source,
                    d.had_errors,
                    d.ignored.len()
                ),
                t_decode + t_list,
            )
        }
        Err(e) => (format!("decode error: {e}"), t.elapsed()),
    }
}

fn nested_divs() -> String {
    let depth = 100_000;
    format!(
        "<html><body><h1>Deep</h1><p>An article paragraph long enough to count as text.</p>{}\
         deep text at the bottom{}</body></html>",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    )
}

/// The item count: `ITEMS` from the environment (for measuring how time
/// scales), else `default`.
fn items(default: usize) -> usize {
    std::env::var("ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A news page whose list repeats `item` `n` times.
fn repeated_list(item: &str, n: usize) -> String {
    format!(
        "<html><body><h1>News</h1><ul>{}</ul></body></html>",
        item.repeat(n)
    )
}

fn list_items() -> String {
    let item = "<li><a href=\"/story\">Same story</a> <span>2026-11-01</span></li>";
    repeated_list(item, items(1_000_000))
}

/// List items that each hold a comment: the comment scan was once
/// quadratic in their number (each looked for `--!>` to the page's end).
fn many_comments() -> String {
    let item = "<li><!-- teaser --><a href=\"/story\">Same story</a></li>";
    repeated_list(item, items(400_000))
}

/// Formatting elements left open, each distinct, then paragraphs: the
/// parser re-opens every open one in each paragraph (once 44 s for a
/// 46 KB page of 1,000 `<b id=N><p>`); the pre-pass caps how many stay open.
fn open_formatting() -> String {
    let n = items(140_000);
    let mut html = String::from("<html><body><h1>News</h1><p>");
    for i in 0..1_000 {
        html.push_str(&format!("<b id=b{i}>"));
    }
    html.push_str(&"<p><a href=\"/story\">Same story</a> 2026-11-01".repeat(n));
    html.push_str("</body></html>");
    html
}

/// Stray `</p>` end tags, each of which the parser makes a paragraph of
/// (2.5 million elements and 710 MB before the node budget).
fn stray_end_tags() -> String {
    let stories = repeated_list("<li><a href=\"/story\">Same story</a></li>", 20);
    stories.replace(
        "</body>",
        &format!("<div>{}</div></body>", "</p>".repeat(items(2_500_000))),
    )
}

fn text_node() -> String {
    let mut html = String::from("<html><body><article><p>");
    let sentence = "The quick brown fox jumps over the lazy dog. ";
    html.push_str(&sentence.repeat(50_000_000 / sentence.len()));
    html.push_str("</p></article></body></html>");
    html
}

fn small_list(extra: &str) -> String {
    let mut html = format!("<html><head>{extra}</head><body><ul>");
    for i in 0..200 {
        html.push_str(&format!(
            "<li><a href=\"/story/{i}\">Story number {i}</a> <span>2026-11-{:02}</span></li>",
            i % 28 + 1
        ));
    }
    html.push_str("</ul></body></html>");
    html
}

/// Size, outcome and time of the list pipeline on `html`.
fn list_case(html: String) -> (String, String, Duration) {
    let (o, t) = list_outcome(&html);
    (mib(html.len()), o, t)
}

/// Size, outcome and time of body extraction on `html`.
fn bodies_case(html: String) -> (String, String, Duration) {
    let (o, t) = bodies_outcome(&html);
    (mib(html.len()), o, t)
}

fn run_case(name: &str) -> (String, String, Duration) {
    match name {
        "nested-divs" => list_case(nested_divs()),
        "nested-divs-bodies" => bodies_case(nested_divs()),
        "list-items" => list_case(list_items()),
        "many-comments" => list_case(many_comments()),
        "open-formatting" => list_case(open_formatting()),
        "stray-end-tags" => list_case(stray_end_tags()),
        "list-items-bodies" => bodies_case(list_items()),
        "text-node" => list_case(text_node()),
        "text-node-bodies" => bodies_case(text_node()),
        "invalid-utf8" => {
            let mut bytes = small_list("<meta charset=\"utf-8\">").into_bytes();
            // Every 50th byte becomes a lone continuation or an overlong lead.
            for (i, b) in bytes.iter_mut().enumerate() {
                if i % 50 == 49 && b.is_ascii_alphabetic() {
                    *b = if i % 100 == 49 { 0x80 } else { 0xC0 };
                }
            }
            let (o, t) = decode_then_list(&bytes, Some("text/html; charset=utf-8"));
            (mib(bytes.len()), o, t)
        }
        "nul-bytes" => {
            let html = small_list("<meta charset=\"utf-8\">");
            let bytes: Vec<u8> = html.bytes().flat_map(|b| [b, 0]).collect();
            let (o, t) = decode_then_list(&bytes, Some("text/html"));
            (mib(bytes.len()), o, t)
        }
        "unknown-charset" => {
            let bytes = small_list("<meta charset=\"x-unknown-foo\">").into_bytes();
            let (o, t) = decode_then_list(&bytes, Some("text/html"));
            (mib(bytes.len()), o, t)
        }
        "body-200mb" | "gzip-bomb" | "endless-chunked" => fetch_case(name),
        other => (
            "-".into(),
            format!("unknown case {other:?}"),
            Duration::ZERO,
        ),
    }
}

fn fetch_case(name: &str) -> (String, String, Duration) {
    let Ok(rt) = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    else {
        return ("-".into(), "no runtime".into(), Duration::ZERO);
    };
    rt.block_on(async {
        let Ok(listener) = TcpListener::bind("127.0.0.1:0").await else {
            return ("-".into(), "cannot bind".into(), Duration::ZERO);
        };
        let Ok(addr) = listener.local_addr() else {
            return ("-".into(), "no address".into(), Duration::ZERO);
        };
        tokio::spawn(serve(listener));
        let Ok(fetcher) = Fetcher::new(FetchOptions::default()) else {
            return ("-".into(), "no fetcher".into(), Duration::ZERO);
        };
        let paths: &[&str] = match name {
            "body-200mb" => &["/big-length", "/big-no-length"],
            "gzip-bomb" => &["/gzip-bomb"],
            _ => &["/endless-chunked"],
        };
        let size = match name {
            "body-200mb" => "200 MB",
            "gzip-bomb" => "10 GiB (≈10 MB gzip)",
            _ => "∞",
        };
        let t = Instant::now();
        let mut outcomes = Vec::new();
        for p in paths {
            let url = Url::parse(&format!("http://{addr}{p}")).unwrap();
            outcomes.push(match fetcher.fetch(&url).await {
                Ok(page) => format!("{p}: fetched {} bytes", page.bytes.len()),
                Err(e) => format!("{p}: {e}"),
            });
        }
        (size.to_string(), outcomes.join("; "), t.elapsed())
    })
}

/// Answers every connection by path with a hostile streamed reply.
async fn serve(listener: TcpListener) {
    while let Ok((mut stream, _)) = listener.accept().await {
        tokio::spawn(async move {
            let mut head = Vec::new();
            let mut buf = [0u8; 1024];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => head.extend_from_slice(&buf[..n]),
                }
            }
            let head = String::from_utf8_lossy(&head);
            let path = head.split_whitespace().nth(1).unwrap_or("/").to_string();
            let _ = reply(&mut stream, &path).await;
        });
    }
}

const BIG: usize = 200_000_000;

async fn reply(stream: &mut tokio::net::TcpStream, path: &str) -> std::io::Result<()> {
    let chunk = "<p>filler text</p>\n".repeat(4096).into_bytes();
    match path {
        "/big-length" | "/big-no-length" => {
            let length = if path == "/big-length" {
                format!("Content-Length: {BIG}\r\n")
            } else {
                String::new()
            };
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n{length}Connection: close\r\n\r\n"
            );
            stream.write_all(head.as_bytes()).await?;
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
            let (first, repeat) = gzip_bomb_parts();
            stream.write_all(&first).await?;
            // 10 GiB of zeros in 1 MiB segments; the trailer is never
            // reached by a client that respects its cap.
            for _ in 1..10 * 1024 {
                stream.write_all(&repeat).await?;
            }
        }
        _ => {
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
    }
    Ok(())
}

/// A gzip header plus the deflate encoding of 1 MiB of zeros, and a second
/// sync-flushed segment of 1 MiB of zeros that may be repeated any number of
/// times (its back-references only reach into zeros).
fn gzip_bomb_parts() -> (Vec<u8>, Vec<u8>) {
    use flate2::{Compress, Compression, FlushCompress};
    let zeros = vec![0u8; 1 << 20];
    let mut c = Compress::new(Compression::best(), false);
    let segment = |c: &mut Compress| {
        // 1 MiB of zeros compresses to about 1 KiB: one call with room to
        // spare consumes it all and flushes to a byte boundary.
        let mut out = Vec::with_capacity(1 << 20);
        let before = c.total_in();
        let _ = c.compress_vec(&zeros, &mut out, FlushCompress::Sync);
        assert_eq!(c.total_in() - before, zeros.len() as u64);
        out
    };
    let mut first = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    first.extend(segment(&mut c));
    let repeat = segment(&mut c);
    (first, repeat)
}
