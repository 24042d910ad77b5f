//! The daemon's read-only HTTP server: the index page, the published feed
//! files, `/health` and `/metrics`.
//!
//! Routes (GET and HEAD only; every other method is 405 on every path):
//! - `/` — index page rendered by the [`IndexRenderer`] from the board.
//! - `/feeds/<id>.<ext>` — a published feed file (RSS/Atom as
//!   `application/xml` and JSON as `application/json` to a client that
//!   accepts `text/html`, the registered feed types otherwise);
//!   `/feeds/<id>.html` — the feed's HTML page; `/feeds/feed.xsl` — the
//!   stylesheet the daemon writes next to them.
//! - `/feeds.opml` (also `/feeds/feeds.opml`, beside the pages) — every feed
//!   on the board, with absolute `xmlUrl`s built from `public_url` or,
//!   without it, from the request's `Host` (`http://<host>/feeds/<id>.<ext>`),
//!   so a reader can import it as is. When the client authenticated with the
//!   token, each `xmlUrl` carries it as `?token=` (most readers cannot send a
//!   header).
//! - `/console` — [`crate::serve::console`], when enabled (GET and POST).
//! - `/health` — `ok` (200) or one line per feed that is not ok (503); JSON
//!   when the client accepts `application/json`. Never needs the token. On
//!   a shared state also `database unreachable` (503) while the database
//!   does not answer, and one `config differs` line (status unchanged) per
//!   instance alive that runs another config than this one.
//!
//! Where documents come from: on SQLite, the files in `output_dir`; on a
//! shared state (PostgreSQL), the `documents` the instance that ran the
//! feed stored ([`crate::serve::documents`]), so every instance answers
//! with the same bytes, `ETag` and `Last-Modified` (the stored publish
//! time), and keeps answering from its cached copies while the database is
//! unreachable.
//! - `/metrics` — [`Metrics::render`].
//!
//! Invariants:
//! - The server never writes anything: it only opens files for reading.
//! - A file path or document name is built from a validated feed id taken
//!   from the status board and a [`Format`] extension (or is one of two
//!   fixed names), never from request text, so no request can name a file
//!   or document outside that set.
//! - File responses carry a strong `ETag` (quoted hex SHA-256 of the bytes,
//!   so an unchanged re-publish keeps its tag) and `Last-Modified` (mtime),
//!   both taken from the same open file handle as the bytes; documents
//!   carry the same tag and their stored publish time.
//! - With a bearer token configured, every route but `/health` needs the
//!   token: as `Authorization: Bearer <token>`, as the password of HTTP
//!   Basic (any user name), or as a `?token=` query parameter. Compared in
//!   constant time (SHA-256 of both sides, then a branch-free byte compare,
//!   so length leaks nothing); never logged.
//! - Each request must be answered within `request_timeout` (else 503);
//!   a client must finish its request head within `header_read_timeout`
//!   (else the connection is closed; this also bounds idle keep-alive
//!   connections); a peer that stops reading its responses is disconnected
//!   once a write has made no progress for `request_timeout`; at most
//!   `max_connections` connections are served at once — beyond that, new
//!   connections wait in the listen backlog, unaccepted, until one closes.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path as FsPath, PathBuf};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncSeekExt, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower_http::timeout::TimeoutLayer;

use crate::publish::feed::{Format, OpmlEntry, render_opml};
use crate::serve::cluster::ClusterView;
use crate::serve::documents::{Served, SharedDocuments};
use crate::serve::metrics::Metrics;
use crate::serve::status::{FeedStatus, StatusBoard};
use crate::state::documents::feed_document;

/// File name of the OPML list of all feeds, in the output directory.
pub const OPML_FILE: &str = "feeds.opml";
/// File name of the XSL stylesheet the feeds reference, in the output directory.
pub const XSL_FILE: &str = "feed.xsl";

/// How the server behaves; see [`ServerOptions::new`] for the defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerOptions {
    /// Where the daemon publishes `<id>.<ext>`, `feeds.opml` and `feed.xsl`.
    pub output_dir: PathBuf,
    /// When set, every route but `/health` needs the token (see the module
    /// header for the three ways to give it).
    pub bearer_token: Option<String>,
    /// Where the feeds are served publicly (`xmlUrl`s of the served OPML).
    pub public_url: Option<url::Url>,
    /// Connections served at once; more wait unaccepted (default 256; 0
    /// counts as 1).
    pub max_connections: usize,
    /// Time to produce a response, else 503; also how long a response
    /// write may make no progress before the connection is closed
    /// (default 10 s).
    pub request_timeout: Duration,
    /// Time for a client to send a complete request head, else the
    /// connection is closed (default 5 s).
    pub header_read_timeout: Duration,
}

impl ServerOptions {
    /// Options with the defaults: no token, 256 connections, 10 s request
    /// timeout, 5 s header read timeout.
    pub fn new(output_dir: impl Into<PathBuf>) -> Self {
        ServerOptions {
            output_dir: output_dir.into(),
            bearer_token: None,
            public_url: None,
            max_connections: 256,
            request_timeout: Duration::from_secs(10),
            header_read_timeout: Duration::from_secs(5),
        }
    }
}

/// Renders the index page from a snapshot of the board (the daemon passes a
/// closure over the index template). Runs on a blocking thread.
pub type IndexRenderer = Arc<dyn Fn(&[FeedStatus]) -> Result<String, String> + Send + Sync>;

/// What every handler can see. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub board: StatusBoard,
    pub metrics: Metrics,
    pub render_index: IndexRenderer,
    pub options: Arc<ServerOptions>,
    /// `/console` when `console = true` (see [`crate::serve::console`]).
    pub console: Option<Arc<crate::serve::console::Console>>,
    /// On a shared state (PostgreSQL): the documents, the database's
    /// reachability and the other instances (see [`ClusterView`]).
    pub cluster: Option<ClusterView>,
}

/// Why the server could not start or keep running.
#[derive(thiserror::Error, Debug)]
pub enum ServerError {
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("the listening socket has no local address: {0}")]
    LocalAddr(std::io::Error),
}

/// Binds a listener on `addr` (an error names the address).
pub async fn bind(addr: SocketAddr) -> Result<TcpListener, ServerError> {
    TcpListener::bind(addr)
        .await
        .map_err(|source| ServerError::Bind { addr, source })
}

/// Serves HTTP/1.1 on `listener` until `shutdown` is cancelled, then stops
/// accepting, lets in-flight requests finish (each is bounded by the request
/// timeout; idle connections close at once) and returns.
///
/// Accept errors (a peer that reset before accept, or the process out of file
/// descriptors) are logged and retried: they never end the server.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: CancellationToken,
) -> Result<(), ServerError> {
    let addr = listener.local_addr().map_err(ServerError::LocalAddr)?;
    let options = Arc::clone(&state.options);
    let app = router(state);
    let permits = Arc::new(Semaphore::new(options.max_connections.max(1)));
    let connections = TaskTracker::new();
    let clients = ClientCounts::default();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(options.header_read_timeout);
    tracing::info!(%addr, "HTTP server listening");

    loop {
        // Take a permit before accepting: beyond the limit, connections stay
        // in the kernel's backlog instead of being accepted and dropped.
        let permit = tokio::select! {
            () = shutdown.cancelled() => break,
            permit = Arc::clone(&permits).acquire_owned() => match permit {
                Ok(p) => p,
                // The semaphore is never closed; stop rather than spin.
                Err(_) => break,
            },
        };
        let (stream, peer) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    if !is_connection_error(&e) {
                        // Out of descriptors or memory: back off instead of spinning.
                        tracing::error!(%addr, "accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                    continue;
                }
            },
        };
        let Some(slot) = ClientSlot::take(&clients, peer.ip(), MAX_CONNECTIONS_PER_CLIENT) else {
            tracing::debug!(%peer, "too many connections from this client: closed");
            drop(stream);
            continue;
        };
        let stream = WriteStallTimeout::new(stream, options.request_timeout);
        let conn =
            http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(app.clone()));
        let shutdown = shutdown.clone();
        connections.spawn(async move {
            let _permit = permit;
            let _slot = slot;
            let mut conn = std::pin::pin!(conn);
            let result = tokio::select! {
                r = conn.as_mut() => r,
                () = shutdown.cancelled() => {
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
            };
            if let Err(e) = result {
                tracing::debug!(%peer, "connection ended: {e}");
            }
        });
    }
    drop(listener);
    connections.close();
    connections.wait().await;
    tracing::info!(%addr, "HTTP server stopped");
    Ok(())
}

/// A connection whose peer stops reading: any write or flush that makes no
/// progress for `limit` fails with `TimedOut`, which ends the connection
/// (hyper has no write timeout, and a stuck write would hold a connection
/// slot forever). Reads pass through untouched: the header read timeout
/// bounds those.
struct WriteStallTimeout<T> {
    inner: T,
    limit: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> WriteStallTimeout<T> {
    fn new(inner: T, limit: Duration) -> Self {
        WriteStallTimeout {
            inner,
            limit,
            stalled: None,
        }
    }

    /// Starts the stall clock on `Pending`, stops it on progress.
    fn watch<R>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<std::io::Result<R>>,
    ) -> Poll<std::io::Result<R>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let limit = self.limit;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        if stalled.as_mut().poll(cx).is_ready() {
            self.stalled = None;
            return Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client stopped reading the response",
            )));
        }
        Poll::Pending
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for WriteStallTimeout<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for WriteStallTimeout<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.watch(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.inner).poll_flush(cx);
        this.watch(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.watch(cx, poll)
    }
}

/// Most connections one client address may hold open at once: beyond it,
/// a new connection from that address is closed as soon as it is accepted,
/// so one client holding idle sockets cannot starve the others.
pub const MAX_CONNECTIONS_PER_CLIENT: usize = 32;

/// Open connections per client address; a [`ClientSlot`] holds one.
type ClientCounts = Arc<std::sync::Mutex<HashMap<IpAddr, usize>>>;

/// One counted connection of a client; released on drop.
struct ClientSlot {
    counts: ClientCounts,
    ip: IpAddr,
}

impl ClientSlot {
    /// A slot for `ip`, or `None` when it already holds `limit`.
    fn take(counts: &ClientCounts, ip: IpAddr, limit: usize) -> Option<ClientSlot> {
        let mut map = counts.lock().unwrap_or_else(|p| p.into_inner());
        let n = map.entry(ip).or_insert(0);
        if *n >= limit {
            return None;
        }
        *n += 1;
        Some(ClientSlot {
            counts: Arc::clone(counts),
            ip,
        })
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut map = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = map.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

/// Errors of one incoming connection, not of the listening socket.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset | Interrupted | WouldBlock
    )
}

/// The routes with their middleware (method filter, token, timeout).
/// [`serve`] runs it; tests can drive it with `tower::ServiceExt::oneshot`.
pub fn router(state: AppState) -> Router {
    let timeout = state.options.request_timeout;
    let mut routes = Router::new()
        .route("/", get(index))
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .route("/feeds.opml", get(opml))
        .route("/feeds/feed.xsl", get(xsl))
        .route("/feeds/{file}", get(feed_file));
    if let Some(console) = state.console.clone() {
        routes = routes.merge(crate::serve::console::router(console));
    }
    routes
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(state.clone(), require_token))
        .layer(middleware::from_fn(only_get_and_head))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            timeout,
        ))
        .with_state(state)
}

fn plain(status: StatusCode, text: impl Into<String>) -> Response {
    let mut text = text.into();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        text,
    )
        .into_response()
}

async fn not_found() -> Response {
    plain(StatusCode::NOT_FOUND, "not found")
}

/// 405 for every method but GET and HEAD, whatever the path (POST reaches
/// the console's paths, which answer 404 when the console is off).
async fn only_get_and_head(request: Request, next: Next) -> Response {
    let method = request.method();
    let console_post = method == Method::POST && request.uri().path().starts_with("/console");
    if method == Method::GET || method == Method::HEAD || console_post {
        return next.run(request).await;
    }
    let mut response = plain(StatusCode::METHOD_NOT_ALLOWED, "method not allowed");
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}

/// The bearer-token check of every route but `/health`.
async fn require_token(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(expected) = state.options.bearer_token.as_deref() else {
        return next.run(request).await;
    };
    if request.uri().path() == "/health" {
        // Open to probes, but only an authenticated client sees reasons.
        let mut request = request;
        if let Some(token) = presented_token(&request).filter(|t| tokens_equal(t, expected)) {
            request.extensions_mut().insert(Authenticated(token));
        }
        return next.run(request).await;
    }
    match presented_token(&request) {
        Some(token) if tokens_equal(&token, expected) => {
            let mut request = request;
            request.extensions_mut().insert(Authenticated(token));
            next.run(request).await
        }
        Some(_) => unauthorized(r#"Bearer realm="feedmine", error="invalid_token""#),
        None => unauthorized(r#"Bearer realm="feedmine""#),
    }
}

/// The token a request authenticated with (set by [`require_token`]).
#[derive(Clone)]
struct Authenticated(String);

/// The token a request presents: Bearer, else the Basic password, else the
/// `token` query parameter.
fn presented_token(request: &Request) -> Option<String> {
    let auth = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    if let Some(t) = auth.and_then(bearer_token) {
        return Some(t.to_owned());
    }
    if let Some(t) = auth.and_then(basic_password) {
        return Some(t);
    }
    let query = request.uri().query()?;
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "token")
        .map(|(_, v)| v.into_owned())
        .filter(|v| !v.is_empty())
}

/// The password of an `Authorization: Basic` value (user name ignored).
fn basic_password(value: &str) -> Option<String> {
    use base64::Engine;
    let (scheme, encoded) = value.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (_, password) = text.split_once(':')?;
    (!password.is_empty()).then(|| password.to_owned())
}

fn unauthorized(challenge: &'static str) -> Response {
    let mut response = plain(StatusCode::UNAUTHORIZED, "unauthorized");
    response.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(challenge),
    );
    // Readers that only speak Basic learn they may use it.
    response.headers_mut().append(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(r#"Basic realm="feedmine""#),
    );
    response
}

/// The token of an `Authorization: Bearer <token>` value (scheme is
/// case-insensitive, RFC 6750 §2.1).
fn bearer_token(value: &str) -> Option<&str> {
    let (scheme, token) = value.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Constant-time equality: comparing fixed-size digests with a branch-free
/// fold takes the same time whatever the inputs and their lengths.
fn tokens_equal(presented: &str, expected: &str) -> bool {
    let a = Sha256::digest(presented.as_bytes());
    let b = Sha256::digest(expected.as_bytes());
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

async fn index(State(state): State<AppState>) -> Response {
    let render = Arc::clone(&state.render_index);
    let board = state.board.clone();
    // Off the async threads, so a slow template cannot stall other requests
    // and the request timeout can fire.
    let rendered = tokio::task::spawn_blocking(move || render(&board.snapshot())).await;
    match rendered {
        Ok(Ok(html)) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    &crate::publish::page::content_security_policy(&html),
                ),
            ],
            html,
        )
            .into_response(),
        Ok(Err(e)) => {
            tracing::error!("index page failed to render: {e}");
            plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the index page could not be rendered: {e}"),
            )
        }
        Err(e) => {
            tracing::error!("index page renderer panicked: {e}");
            plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the index page could not be rendered",
            )
        }
    }
}

async fn health(
    State(state): State<AppState>,
    headers: HeaderMap,
    auth: Option<axum::Extension<Authenticated>>,
) -> Response {
    // With a token configured, an unauthenticated probe learns the status
    // and the feed ids only: reasons may name internal pages.
    let show_reasons = state.options.bearer_token.is_none() || auth.is_some();
    let problems = feed_problems(&state.board, show_reasons);
    let cluster = match &state.cluster {
        Some(view) => Some(cluster_health(view, show_reasons).await),
        None => None,
    };
    let database_down = cluster.as_ref().is_some_and(|c| c.database.is_err());
    let status = if problems.is_empty() && !database_down {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let wants_json = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    let (content_type, body) = if wants_json {
        (
            "application/json",
            health_json(status, &problems, cluster.as_ref()),
        )
    } else {
        (
            "text/plain; charset=utf-8",
            health_text(&problems, cluster.as_ref()),
        )
    };
    (
        status,
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// The feeds that are not ok: (id, word, reason); reasons only when
/// `show_reasons`.
fn feed_problems(board: &StatusBoard, show_reasons: bool) -> Vec<(String, &'static str, String)> {
    let problems = board.overall().err().unwrap_or_default();
    problems
        .into_iter()
        .map(|(id, reason)| {
            let reason = if show_reasons {
                crate::fetch::redact::redact_text(&reason)
            } else {
                String::new()
            };
            // `overall` gives (id, reason); the word (degraded/failing)
            // comes from the entry itself.
            let word = board.get(&id).map_or("degraded", |s| s.health.word());
            (id, word, reason)
        })
        .collect()
}

/// The shared state's part of `/health`.
struct ClusterHealth {
    /// `Err(why)` while the database is unreachable (`why` empty when
    /// reasons are hidden).
    database: Result<(), String>,
    /// Instances alive that run another config (empty descriptions when
    /// reasons are hidden, so the count still shows).
    config_differs: Vec<String>,
}

async fn cluster_health(view: &ClusterView, show_reasons: bool) -> ClusterHealth {
    let hide = |s: String| {
        if show_reasons {
            one_line(&s)
        } else {
            String::new()
        }
    };
    ClusterHealth {
        database: view.reachable().await.map_err(hide),
        config_differs: view.peers.differing().into_iter().map(hide).collect(),
    }
}

/// Plain text: `ok`, or one line per problem; then the shared state's
/// lines (`database unreachable`, `config differs`).
fn health_text(
    problems: &[(String, &'static str, String)],
    cluster: Option<&ClusterHealth>,
) -> String {
    let mut lines: String = problems
        .iter()
        .map(|(id, word, reason)| match reason.is_empty() {
            true => format!("{word} {id}\n"),
            false => format!("{word} {id}: {}\n", one_line(reason)),
        })
        .collect();
    let Some(cluster) = cluster else {
        return if lines.is_empty() {
            "ok\n".into()
        } else {
            lines
        };
    };
    match &cluster.database {
        Err(why) if why.is_empty() => lines.push_str("database unreachable\n"),
        Err(why) => lines.push_str(&format!("database unreachable: {why}\n")),
        Ok(()) if lines.is_empty() => lines.push_str("ok\n"),
        Ok(()) => {}
    }
    for other in &cluster.config_differs {
        match other.is_empty() {
            true => lines.push_str("config differs: another instance runs another config\n"),
            false => lines.push_str(&format!(
                "config differs: instance {other} runs another config than this one\n"
            )),
        }
    }
    lines
}

fn health_json(
    status: StatusCode,
    problems: &[(String, &'static str, String)],
    cluster: Option<&ClusterHealth>,
) -> String {
    let problems: Vec<serde_json::Value> = problems
        .iter()
        .map(|(id, word, reason)| serde_json::json!({ "feed": id, "health": word, "reason": reason }))
        .collect();
    let mut body = serde_json::json!({
        "status": if status == StatusCode::OK { "ok" } else { "unhealthy" },
        "problems": problems,
    });
    if let Some(c) = cluster {
        body["database"] = match &c.database {
            Ok(()) => serde_json::json!({ "reachable": true }),
            Err(why) => serde_json::json!({ "reachable": false, "reason": why }),
        };
        body["config_differs"] = serde_json::json!(c.config_differs);
    }
    format!("{body}\n")
}

/// A reason on one line, so each problem feed is exactly one line.
fn one_line(reason: &str) -> String {
    reason.split_whitespace().collect::<Vec<_>>().join(" ")
}

async fn metrics(State(state): State<AppState>, headers: HeaderMap) -> Response {
    state.metrics.set_feeds(state.board.snapshot().len());
    let body = state.metrics.render();
    // The text is OpenMetrics 1.0 and, by construction, also valid 0.0.4;
    // label it as what the scraper asked for.
    let openmetrics = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/openmetrics-text"));
    let content_type = if openmetrics {
        "application/openmetrics-text; version=1.0.0; charset=utf-8"
    } else {
        "text/plain; version=0.0.4; charset=utf-8"
    };
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

async fn opml(
    State(state): State<AppState>,
    headers: HeaderMap,
    auth: Option<axum::Extension<Authenticated>>,
) -> Response {
    let base = match &state.options.public_url {
        Some(u) => u.clone(),
        None => {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .filter(|h| is_host_header(h))
                .unwrap_or("localhost");
            match url::Url::parse(&format!("http://{host}/feeds/")) {
                Ok(u) => u,
                Err(_) => return plain(StatusCode::BAD_REQUEST, "bad Host header"),
            }
        }
    };
    let entries: Vec<OpmlEntry> = state
        .board
        .snapshot()
        .iter()
        .map(|s| {
            let mut entry = OpmlEntry::from_status(s, Some(&base));
            if let Some(axum::Extension(Authenticated(token))) = &auth
                && let Ok(mut u) = url::Url::parse(&entry.xml_url)
            {
                u.query_pairs_mut().append_pair("token", token);
                entry.xml_url = u.to_string();
            }
            entry
        })
        .collect();
    (
        [
            (header::CONTENT_TYPE, "text/x-opml; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        render_opml(&entries),
    )
        .into_response()
}

/// A `Host` value that is a host name or address with an optional port
/// (nothing that could change the URL's path or add credentials).
fn is_host_header(h: &str) -> bool {
    !h.is_empty()
        && h.len() <= 255
        && h.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

async fn xsl(State(state): State<AppState>, headers: HeaderMap) -> Response {
    serve_published(&state, XSL_FILE, "text/xsl; charset=utf-8", &headers).await
}

/// Serves the published document `name` (built from the board's validated
/// id and a format, or a fixed name): from the shared state when there is
/// one, else the file of that name in `output_dir`.
async fn serve_published(
    state: &AppState,
    name: &str,
    content_type: &'static str,
    headers: &HeaderMap,
) -> Response {
    match &state.cluster {
        Some(view) => serve_document(&view.documents, name, content_type, headers).await,
        None => {
            let path = state.options.output_dir.join(name);
            serve_file(&path, content_type, headers).await
        }
    }
}

/// `/feeds/<id>.<ext>`: only a feed on the board that publishes that format.
async fn feed_file(
    State(state): State<AppState>,
    Path(file): Path<String>,
    headers: HeaderMap,
    auth: Option<axum::Extension<Authenticated>>,
) -> Response {
    if file == OPML_FILE {
        // The feed pages link the OPML beside them.
        return opml(State(state), headers, auth).await;
    }
    if let Some(id) = feed_page(&state.board, &file) {
        let name = feed_document(&id, "html");
        let mut response =
            serve_published(&state, &name, "text/html; charset=utf-8", &headers).await;
        // The page's own <meta> policy allows exactly its styles by hash;
        // this one forbids scripts even in a user template without <head>.
        response.headers_mut().insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(FEED_PAGE_POLICY),
        );
        return response;
    }
    let Some((id, format)) = published_file(&state.board, &file) else {
        return not_found().await;
    };
    // Built from the board's id and the format, not from `file`.
    let name = feed_document(&id, format.ext());
    let browser = prefers_html(&headers);
    let content_type = if browser {
        format.browser_content_type()
    } else {
        format.content_type()
    };
    let mut response = serve_published(&state, &name, content_type, &headers).await;
    let h = response.headers_mut();
    h.insert(header::VARY, HeaderValue::from_static("Accept"));
    if let Ok(link) = HeaderValue::from_str(&format!(
        "<{}.html>; rel=\"alternate\"; type=\"text/html\"",
        crate::publish::page::encode_segment(&id)
    )) {
        h.insert(header::LINK, link);
    }
    response
}

/// Header policy of the feed pages (their `<meta>` policy narrows styles).
const FEED_PAGE_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; form-action 'none'; base-uri 'none'; frame-ancestors 'none'";

/// True when the client lists `text/html` in `Accept` (a browser opening a
/// link): it gets RSS/Atom as `application/xml` and JSON as
/// `application/json`, which browsers show instead of downloading; feed
/// readers, which ask for feed types, get the registered ones.
fn prefers_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| {
            a.split(',').any(|part| {
                part.split(';')
                    .next()
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("text/html"))
            })
        })
}

/// The feed id of `/feeds/<id>.html` for a feed on the board.
fn feed_page(board: &StatusBoard, file: &str) -> Option<String> {
    let id = file.strip_suffix(".html")?;
    let status = board.get(id)?;
    is_safe_stem(&status.id).then_some(status.id)
}

/// The feed id and format that the decoded path segment `file` names, if it
/// is `<id>.<ext>` for a feed on the board that publishes that format and
/// whose id is a safe file name stem.
fn published_file(board: &StatusBoard, file: &str) -> Option<(String, Format)> {
    let (id, ext) = file.rsplit_once('.')?;
    let format = Format::from_ext(ext)?;
    let status = board.get(id)?;
    if !status.formats.contains(&format) || !is_safe_stem(&status.id) {
        return None;
    }
    Some((status.id, format))
}

/// Belt and braces over config validation: an id that could leave the
/// output directory is never turned into a path.
fn is_safe_stem(id: &str) -> bool {
    !id.is_empty()
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Reads `path` (bytes, mtime and tag from one open handle) and answers
/// 200, 304 or 404.
async fn serve_file(path: &FsPath, content_type: &'static str, headers: &HeaderMap) -> Response {
    let file = match read_file(path).await {
        Ok(Some(f)) => f,
        Ok(None) => return not_found().await,
        Err(e) => {
            tracing::error!(path = %path.display(), "cannot read a published file: {e}");
            return plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the file could not be read",
            );
        }
    };
    let etag = format!("\"{}\"", hex(&file.digest));
    let body = Body::from_stream(tokio_util::io::ReaderStream::new(file.file));
    let validators = Validators {
        etag: &etag,
        modified: file.modified,
    };
    respond(validators, file.length, body, content_type, headers)
}

/// Serves the shared state's document `name` (see [`SharedDocuments`]):
/// the same bytes, tag and time on every instance; the cached copy while
/// the database is unreachable.
async fn serve_document(
    documents: &SharedDocuments,
    name: &str,
    content_type: &'static str,
    headers: &HeaderMap,
) -> Response {
    match documents.get(name).await {
        Served::Found(doc) => {
            let validators = Validators {
                etag: &doc.etag,
                modified: Some(SystemTime::from(doc.modified)),
            };
            let length = doc.body.len() as u64;
            let body = Body::from(doc.body.clone()); // shared, not copied
            respond(validators, length, body, content_type, headers)
        }
        Served::Missing => not_found().await,
        Served::Unavailable => plain(
            StatusCode::SERVICE_UNAVAILABLE,
            "the database is unreachable and this instance has no copy of this document yet",
        ),
    }
}

/// A published document's `ETag` and `Last-Modified`.
struct Validators<'a> {
    etag: &'a str,
    modified: Option<SystemTime>,
}

/// 200 with `body` (`length` bytes), or 304 when the request's
/// conditions match `validators`.
fn respond(
    validators: Validators<'_>,
    length: u64,
    body: Body,
    content_type: &'static str,
    headers: &HeaderMap,
) -> Response {
    let Validators { etag, modified } = validators;
    let mut common = vec![
        (header::ETAG, etag.to_string()),
        (header::CACHE_CONTROL, "max-age=60".to_string()),
    ];
    if let Some(lm) = modified.map(httpdate::fmt_http_date) {
        common.push((header::LAST_MODIFIED, lm));
    }
    let mut response = if is_not_modified(headers, etag, modified) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut r = Response::new(body);
        r.headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
        r.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        r.headers_mut().insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        r
    };
    for (name, value) in common {
        if let Ok(value) = HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, value);
        }
    }
    response
}

/// An open published file, positioned at its start, with the SHA-256 of
/// its bytes (hashed in chunks: the file is streamed, never held whole).
struct FileContents {
    file: tokio::fs::File,
    digest: [u8; 32],
    length: u64,
    modified: Option<SystemTime>,
}

/// `Ok(None)` when there is no regular file at `path`.
async fn read_file(path: &FsPath) -> std::io::Result<Option<FileContents>> {
    let mut file = match tokio::fs::File::open(path).await {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = file.metadata().await?;
    if !meta.is_file() {
        return Ok(None);
    }
    // Published files are replaced by rename, so this handle's bytes do
    // not change between hashing and streaming.
    let mut hasher = Sha256::new();
    let mut chunk = vec![0u8; 64 * 1024];
    let mut length = 0u64;
    loop {
        let n = file.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        hasher.update(&chunk[..n]);
        length += n as u64;
    }
    file.seek(std::io::SeekFrom::Start(0)).await?;
    Ok(Some(FileContents {
        file,
        digest: hasher.finalize().into(),
        length,
        modified: meta.modified().ok(),
    }))
}

/// RFC 9110 §13.2.2: `If-None-Match` (weak comparison, lists, `*`) decides
/// when present; otherwise `If-Modified-Since` against the mtime (whole
/// seconds, as `Last-Modified` shows it).
fn is_not_modified(headers: &HeaderMap, etag: &str, modified: Option<SystemTime>) -> bool {
    if let Some(value) = headers.get(header::IF_NONE_MATCH) {
        let Ok(value) = value.to_str() else {
            return false;
        };
        let ours = strip_weak(etag);
        return value
            .split(',')
            .map(str::trim)
            .any(|tag| tag == "*" || strip_weak(tag) == ours);
    }
    let since = headers
        .get(header::IF_MODIFIED_SINCE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| httpdate::parse_http_date(v).ok());
    match (since, modified) {
        (Some(since), Some(modified)) => unix_secs(modified) <= unix_secs(since),
        _ => false,
    }
}

fn strip_weak(tag: &str) -> &str {
    tag.strip_prefix("W/").unwrap_or(tag)
}

fn unix_secs(t: SystemTime) -> i128 {
    match t.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => i128::from(d.as_secs()),
        Err(e) => -i128::from(e.duration().as_secs()) - 1,
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_scheme_is_case_insensitive_and_needs_a_token() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer  abc "), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(bearer_token("Bearer"), None);
        assert!(tokens_equal("s3cret", "s3cret"));
        assert!(!tokens_equal("s3cret", "s3cre"));
        assert!(!tokens_equal("", "s3cret"));
    }

    #[test]
    fn only_board_feeds_with_that_format_map_to_files() {
        let board = StatusBoard::new();
        board.put(FeedStatus {
            id: "news.world".into(),
            title: "World".into(),
            source: "https://example.com/world/".into(),
            formats: vec![Format::Rss, Format::Json],
            health: crate::serve::status::Health::Ok,
            last_run: None,
            last_success: None,
            items: 3,
            next_run: None,
        });
        assert_eq!(
            published_file(&board, "news.world.xml"),
            Some(("news.world".into(), Format::Rss))
        );
        assert_eq!(
            published_file(&board, "news.world.json"),
            Some(("news.world".into(), Format::Json))
        );
        assert_eq!(published_file(&board, "news.world.atom"), None);
        assert_eq!(published_file(&board, "news.world"), None);
        assert_eq!(published_file(&board, "../news.world.xml"), None);
        assert_eq!(published_file(&board, "other.xml"), None);
        assert!(!is_safe_stem("../x") && !is_safe_stem(".hidden") && !is_safe_stem("a/b"));
    }

    #[test]
    fn health_text_adds_the_shared_state_lines() {
        let failing = vec![("a".to_string(), "failing", "HTTP 500".to_string())];
        assert_eq!(health_text(&failing, None), "failing a: HTTP 500\n");
        assert_eq!(health_text(&[], None), "ok\n");
        let cluster = ClusterHealth {
            database: Ok(()),
            config_differs: vec!["web-2-7-ab on web".into()],
        };
        assert_eq!(
            health_text(&[], Some(&cluster)),
            "ok\nconfig differs: instance web-2-7-ab on web runs another config than this one\n"
        );
        // Reasons hidden (a token is set, the probe has none): words only.
        let hidden = ClusterHealth {
            database: Err(String::new()),
            config_differs: vec![String::new()],
        };
        assert_eq!(
            health_text(&failing, Some(&hidden)),
            "failing a: HTTP 500\ndatabase unreachable\n\
             config differs: another instance runs another config\n"
        );
    }

    #[test]
    fn if_none_match_wins_over_if_modified_since() {
        let etag = "\"abc\"";
        let mtime = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let mut h = HeaderMap::new();
        h.insert(
            header::IF_MODIFIED_SINCE,
            HeaderValue::from_str(&httpdate::fmt_http_date(mtime)).unwrap(),
        );
        assert!(is_not_modified(&h, etag, Some(mtime)));
        assert!(!is_not_modified(
            &h,
            etag,
            Some(mtime + Duration::from_secs(1))
        ));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("\"other\""));
        assert!(!is_not_modified(&h, etag, Some(mtime)));
        h.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("\"x\", W/\"abc\""),
        );
        assert!(is_not_modified(&h, etag, None));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("*"));
        assert!(is_not_modified(&h, etag, None));
    }
}
