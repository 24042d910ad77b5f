//! A small local HTTP/1.1 server for integration tests, with canned replies
//! per path, including the misbehaviours real sites show: slow drips, bodies
//! that never end, connections reset mid-body, redirect loops.
//!
//! Use from any `#[tokio::test]` (current-thread or multi-thread runtime):
//!
//! ```ignore
//! mod common;
//! use common::{Reply, TestServer};
//!
//! let server = TestServer::start(vec![
//!     ("/news", Reply::html("<html>…</html>")),
//!     ("/old", Reply::Redirect("/news".into())),
//! ]).await;
//! let page = fetcher.fetch(&server.url("/news")).await?;
//! assert_eq!(server.hits("/news"), 1);
//! ```
//!
//! Invariants: binds 127.0.0.1 on a free port; one request per connection
//! (every response says `Connection: close`); unknown paths get a 404; all
//! requests are recorded with their arrival time; the largest number of
//! requests in flight at once is tracked, overall and per `Host` header
//! (without port); the server and every open
//! connection stop when the [`TestServer`] is dropped.

#![allow(dead_code)] // Each test crate uses a different subset.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use url::Url;

/// What the server answers on one path.
#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 with this `Content-Type` (omitted when empty) and an exact `Content-Length`.
    Ok { content_type: String, body: Vec<u8> },
    /// This status with an HTML body.
    Status(u16, Vec<u8>),
    /// 302 to this location (absolute URL or a path on this server).
    Redirect(String),
    /// Waits, then sends the inner reply (headers included).
    Delay(Duration, Box<Reply>),
    /// 200 HTML, `Content-Length` announced up front, body trickled at this rate.
    Drip { bytes_per_sec: usize, body: Vec<u8> },
    /// 200 HTML without `Content-Length`; sends HTML forever until the client hangs up.
    Endless,
    /// 200 HTML announcing more bytes than this body, sends the body, then
    /// resets the connection (TCP RST).
    ResetMidBody(Vec<u8>),
    /// 200 without `Content-Length`: the body ends when the connection closes.
    NoLength { content_type: String, body: Vec<u8> },
    /// Adds these headers to the inner reply (e.g. `Content-Encoding`, `ETag`).
    WithHeaders(Vec<(String, String)>, Box<Reply>),
    /// The n-th request (from 0) gets the n-th reply; the last one repeats.
    Sequence(Vec<Reply>),
}

impl Reply {
    /// 200 `text/html; charset=utf-8`.
    pub fn html(body: impl Into<String>) -> Reply {
        Reply::Ok {
            content_type: "text/html; charset=utf-8".into(),
            body: body.into().into_bytes(),
        }
    }

    /// 200 with raw bytes and the given `Content-Type` (empty: none sent).
    pub fn bytes(content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply::Ok {
            content_type: content_type.into(),
            body: body.into(),
        }
    }

    /// This reply after `delay`.
    pub fn delayed(self, delay: Duration) -> Reply {
        Reply::Delay(delay, Box::new(self))
    }

    /// This reply with an extra header.
    pub fn with_header(self, name: &str, value: &str) -> Reply {
        match self {
            Reply::WithHeaders(mut headers, inner) => {
                headers.push((name.into(), value.into()));
                Reply::WithHeaders(headers, inner)
            }
            other => Reply::WithHeaders(vec![(name.into(), value.into())], Box::new(other)),
        }
    }
}

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct RecordedRequest {
    pub method: String,
    /// The request target: path plus query, e.g. `/list?page=2`.
    pub target: String,
    /// Header names lower-cased, in arrival order.
    pub headers: Vec<(String, String)>,
    /// When the request head had been read.
    pub at: Instant,
}

impl RecordedRequest {
    /// The path without the query.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or_default()
    }

    /// The first header with this (case-insensitive) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Default)]
struct State {
    routes: Mutex<HashMap<String, Reply>>,
    requests: Mutex<Vec<RecordedRequest>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    /// Per host (the `Host` header without port): in flight now, most.
    per_host: Mutex<HashMap<String, (usize, usize)>>,
}

/// Counts one request in flight from its arrival until its connection task
/// ends (response sent, client gone, or server dropped).
struct InFlight(Arc<State>, String);

impl InFlight {
    fn start(state: &Arc<State>, host: String) -> InFlight {
        let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        state.max_in_flight.fetch_max(now, Ordering::SeqCst);
        {
            let mut per_host = state.per_host.lock().expect("per-host lock");
            let entry = per_host.entry(host.clone()).or_default();
            entry.0 += 1;
            entry.1 = entry.1.max(entry.0);
        }
        InFlight(Arc::clone(state), host)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
        if let Some(entry) = self
            .0
            .per_host
            .lock()
            .expect("per-host lock")
            .get_mut(&self.1)
        {
            entry.0 -= 1;
        }
    }
}

/// A `Host` header without its port, lower-cased.
fn host_of(request: &RecordedRequest) -> String {
    let host = request.header("host").unwrap_or_default();
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    name.to_ascii_lowercase()
}

/// The running server. Stops (with all its connections) when dropped.
pub struct TestServer {
    /// `http://127.0.0.1:<port>/`.
    pub base: Url,
    state: Arc<State>,
    accept_loop: tokio::task::JoinHandle<()>,
}

impl TestServer {
    /// Binds a free port on 127.0.0.1 and serves `routes` (path → reply).
    /// A route path may include a query (`/list?page=2`); it then matches only
    /// that exact target, otherwise any query on that path.
    pub async fn start<P: AsRef<str>>(routes: impl IntoIterator<Item = (P, Reply)>) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind test server");
        let addr = listener.local_addr().expect("test server address");
        let state = Arc::new(State::default());
        {
            let mut table = state.routes.lock().expect("routes lock");
            for (path, reply) in routes {
                table.insert(path.as_ref().to_owned(), reply);
            }
        }
        let accept_loop = tokio::spawn(accept_loop(listener, Arc::clone(&state)));
        TestServer {
            base: Url::parse(&format!("http://{addr}/")).expect("base URL"),
            state,
            accept_loop,
        }
    }

    /// Absolute URL of `path` (with or without leading `/`) on this server.
    pub fn url(&self, path: &str) -> Url {
        self.base
            .join(path.trim_start_matches('/'))
            .expect("join test URL")
    }

    /// Requests received so far whose path (query ignored) or full target is `path`.
    pub fn hits(&self, path: &str) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.target == path || r.path() == path)
            .count()
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state.requests.lock().expect("requests lock").clone()
    }

    /// The same URL with `host` (e.g. `localhost`) instead of 127.0.0.1:
    /// another host name for the same server.
    pub fn url_on(&self, host: &str, path: &str) -> Url {
        let mut url = self.url(path);
        url.set_host(Some(host)).expect("host name");
        url
    }

    /// The most requests this server has had in flight at once.
    pub fn max_in_flight(&self) -> usize {
        self.state.max_in_flight.load(Ordering::SeqCst)
    }

    /// The most requests in flight at once for `host` (the `Host` header
    /// without port, e.g. `localhost`).
    pub fn max_in_flight_on(&self, host: &str) -> usize {
        let per_host = self.state.per_host.lock().expect("per-host lock");
        per_host.get(&host.to_ascii_lowercase()).map_or(0, |e| e.1)
    }

    /// Arrival times of every request for `host`, in order.
    pub fn times_on(&self, host: &str) -> Vec<Instant> {
        let host = host.to_ascii_lowercase();
        self.requests()
            .iter()
            .filter(|r| host_of(r) == host)
            .map(|r| r.at)
            .collect()
    }

    /// Arrival times of the requests whose path or target is `path`, in order.
    pub fn times(&self, path: &str) -> Vec<Instant> {
        self.requests()
            .iter()
            .filter(|r| r.target == path || r.path() == path)
            .map(|r| r.at)
            .collect()
    }

    /// Adds or replaces the reply for `path` while the server runs (a page
    /// that changes between two runs of the pipeline).
    pub fn set(&self, path: &str, reply: Reply) {
        self.state
            .routes
            .lock()
            .expect("routes lock")
            .insert(path.to_owned(), reply);
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        // Aborting the accept loop drops its JoinSet, which aborts every
        // connection task (an Endless reply included).
        self.accept_loop.abort();
    }
}

/// A URL on 127.0.0.1 where nothing listens: connecting is refused.
pub async fn refused_url() -> Url {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");
    drop(listener);
    Url::parse(&format!("http://{addr}/nothing-here")).expect("URL")
}

/// A listening port that never completes a connection: its accept queue is
/// full and nobody accepts, so further SYNs are dropped (Linux behaviour) and
/// connecting hangs until the client's connect timeout. Keep it alive while
/// the test runs.
pub struct Blackhole {
    /// `http://127.0.0.1:<port>/`.
    pub url: Url,
    _listener: TcpListener,
    _queued: Vec<TcpStream>,
}

impl Blackhole {
    pub async fn start() -> Blackhole {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind("127.0.0.1:0".parse().expect("address"))
            .expect("bind");
        let addr = socket.local_addr().expect("address");
        let listener = socket.listen(1).expect("listen");
        // Fill the accept queue until a connect stalls: that one is the sign.
        let mut queued = Vec::new();
        for _ in 0..64 {
            let attempt =
                tokio::time::timeout(Duration::from_millis(100), TcpStream::connect(addr));
            match attempt.await {
                Ok(Ok(stream)) => queued.push(stream),
                _ => break,
            }
        }
        Blackhole {
            url: Url::parse(&format!("http://{addr}/")).expect("URL"),
            _listener: listener,
            _queued: queued,
        }
    }
}

async fn accept_loop(listener: TcpListener, state: Arc<State>) {
    let mut connections = tokio::task::JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                if let Ok((stream, _)) = accepted {
                    connections.spawn(serve(stream, Arc::clone(&state)));
                }
            }
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
}

async fn serve(mut stream: TcpStream, state: Arc<State>) {
    let Some(request) = read_request(&mut stream).await else {
        return;
    };
    let _in_flight = InFlight::start(&state, host_of(&request));
    let (reply, nth) = {
        let routes = state.routes.lock().expect("routes lock");
        let mut requests = state.requests.lock().expect("requests lock");
        let reply = routes
            .get(&request.target)
            .or_else(|| routes.get(request.path()))
            .cloned();
        let nth = requests
            .iter()
            .filter(|r| r.target == request.target)
            .count();
        requests.push(request);
        (reply, nth)
    };
    let reply = reply.unwrap_or_else(|| Reply::Status(404, b"<h1>404 Not Found</h1>".to_vec()));
    // Write errors mean the client hung up, which is what several tests do.
    let _ = respond(&mut stream, reply, nth).await;
}

/// Reads the request head (GET only; a body is ignored). `None` on EOF or garbage.
async fn read_request(stream: &mut TcpStream) -> Option<RecordedRequest> {
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 || head.len() > 64 * 1024 {
            return None;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&head);
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split_whitespace();
    let method = request_line.next()?.to_owned();
    let target = request_line.next()?.to_owned();
    let headers = lines
        .take_while(|line| !line.is_empty())
        .filter_map(|line| {
            let (name, value) = line.split_once(':')?;
            Some((name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        })
        .collect();
    Some(RecordedRequest {
        method,
        target,
        headers,
        at: Instant::now(),
    })
}

async fn respond(stream: &mut TcpStream, reply: Reply, nth: usize) -> std::io::Result<()> {
    let mut extra: Vec<(String, String)> = Vec::new();
    let mut current = reply;
    // Peel the wrappers; what remains is a terminal reply.
    let reply = loop {
        current = match current {
            Reply::Delay(delay, inner) => {
                tokio::time::sleep(delay).await;
                *inner
            }
            Reply::WithHeaders(headers, inner) => {
                extra.extend(headers);
                *inner
            }
            Reply::Sequence(mut replies) => {
                if replies.is_empty() {
                    Reply::Status(500, b"empty Sequence".to_vec())
                } else {
                    let index = nth.min(replies.len() - 1);
                    replies.swap_remove(index)
                }
            }
            terminal => break terminal,
        };
    };
    const HTML: &str = "text/html; charset=utf-8";
    match reply {
        Reply::Ok { content_type, body } => {
            write_head(stream, 200, &content_type, Some(body.len()), &extra).await?;
            stream.write_all(&body).await?;
        }
        Reply::Status(status, body) => {
            write_head(stream, status, HTML, Some(body.len()), &extra).await?;
            stream.write_all(&body).await?;
        }
        Reply::Redirect(location) => {
            extra.push(("Location".into(), location));
            write_head(stream, 302, "", Some(0), &extra).await?;
        }
        Reply::Drip {
            bytes_per_sec,
            body,
        } => {
            write_head(stream, 200, HTML, Some(body.len()), &extra).await?;
            let bytes_per_sec = bytes_per_sec.max(1);
            // About ten writes a second, at least one byte each.
            let piece = (bytes_per_sec / 10).max(1);
            let pause = Duration::from_secs_f64(piece as f64 / bytes_per_sec as f64);
            for chunk in body.chunks(piece) {
                stream.write_all(chunk).await?;
                stream.flush().await?;
                tokio::time::sleep(pause).await;
            }
        }
        Reply::Endless => {
            write_head(stream, 200, HTML, None, &extra).await?;
            let chunk = "<p>and on and on</p>\n".repeat(400);
            loop {
                stream.write_all(chunk.as_bytes()).await?;
            }
        }
        Reply::ResetMidBody(body) => {
            write_head(stream, 200, HTML, Some(body.len() + 4096), &extra).await?;
            stream.write_all(&body).await?;
            stream.flush().await?;
            // Let the client read what was sent before the reset.
            tokio::time::sleep(Duration::from_millis(50)).await;
            // SO_LINGER 0 makes the close send RST instead of FIN.
            stream.set_zero_linger()?;
            return Ok(());
        }
        Reply::NoLength { content_type, body } => {
            write_head(stream, 200, &content_type, None, &extra).await?;
            stream.write_all(&body).await?;
        }
        Reply::Delay(..) | Reply::WithHeaders(..) | Reply::Sequence(..) => {
            unreachable!("wrappers are peeled above")
        }
    }
    stream.flush().await?;
    stream.shutdown().await
}

async fn write_head(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
    content_length: Option<usize>,
    extra: &[(String, String)],
) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    if !content_type.is_empty() {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    if let Some(len) = content_length {
        head.push_str(&format!("Content-Length: {len}\r\n"));
    }
    head.push_str("Connection: close\r\n");
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        410 => "Gone",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// An "internal" service on 127.0.0.2 that counts the connections it gets
/// and answers each with a secret page.
pub fn internal_service() -> (u16, Arc<AtomicUsize>) {
    let listener = std::net::TcpListener::bind("127.0.0.2:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counter.fetch_add(1, Ordering::SeqCst);
            let mut buf = [0u8; 2048];
            let _ = std::io::Read::read(&mut stream, &mut buf);
            let body = "<html><body><ul><li><a href=/k1>AKIA-secret-1</a></li>\
                        <li><a href=/k2>AKIA-secret-2</a></li><li><a href=/k3>AKIA-secret-3</a></li></ul></body></html>";
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = std::io::Write::write_all(&mut stream, (head + body).as_bytes());
        }
    });
    (port, hits)
}
