//! The network and file edge: fetches one page (http, https or a local file)
//! and hands back its bytes and decoded text, unconditionally or as a
//! conditional GET.
//!
//! Invariants:
//! - Every request is bounded: connect, per-read and total timeouts, a body
//!   size cap enforced while streaming (and up front from `Content-Length`),
//!   and a redirect limit with loop detection. Nothing here can hang forever
//!   or fill memory on a hostile server. Time spent waiting for a
//!   [`Politeness`] permit does not count against the total timeout.
//! - Redirects are followed here, hop by hop, not by reqwest: every hop is
//!   re-checked (scheme always, address under [`AddressPolicy::PublicOnly`]),
//!   takes a politeness turn when it changes host, and loses the cookie and
//!   credentials when it leaves the original origin.
//! - Only 2xx responses become a [`Page`] (and 304 a [`Fetched::NotModified`]
//!   for a conditional request); everything else is a [`FetchError`] whose
//!   `Display` names the URL and the cause, and whose `source()` chain
//!   carries the underlying error (print with `{err:#}` through anyhow).
//! - Text is decoded by [`crate::fetch::decode::decode`] (BOM → header → meta →
//!   detector), never by reqwest's header-only `text()`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use thiserror::Error;
use tokio::time::Instant;
use url::Url;

use crate::fetch::decode::{self, DecodeError};
use crate::fetch::memory::Charge;
pub use crate::fetch::netguard::AddressPolicy;
use crate::fetch::netguard::{self, BlockReason, Hop, PublicResolver, ResolveError};
use crate::fetch::politeness::{Permit, Politeness};
use crate::fetch::redact;

/// Sent as `User-Agent` unless [`FetchOptions::user_agent`] says otherwise.
pub const DEFAULT_USER_AGENT: &str = concat!(
    "feedmine/",
    env!("CARGO_PKG_VERSION"),
    " (+https://github.com/feedmine/feedmine)"
);
/// Time allowed to establish the TCP (and TLS) connection.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Time allowed between two reads (response headers or body chunks).
pub const DEFAULT_READ_TIMEOUT: Duration = Duration::from_secs(20);
/// Time allowed for the whole request, redirects and body included.
pub const DEFAULT_TOTAL_TIMEOUT: Duration = Duration::from_secs(30);
/// Largest body accepted (after content decoding), in bytes: 10 MiB.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 10 * 1024 * 1024;
/// Redirects followed before giving up.
pub const DEFAULT_MAX_REDIRECTS: usize = 10;
/// Longest `Retry-After` honoured; longer values are cut to this.
pub const MAX_RETRY_AFTER: Duration = crate::fetch::politeness::MAX_DEFERRAL;

/// Limits and headers for a [`Fetcher`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchOptions {
    /// `User-Agent` header value.
    pub user_agent: String,
    /// See [`DEFAULT_CONNECT_TIMEOUT`].
    pub connect_timeout: Duration,
    /// See [`DEFAULT_READ_TIMEOUT`].
    pub read_timeout: Duration,
    /// See [`DEFAULT_TOTAL_TIMEOUT`].
    pub total_timeout: Duration,
    /// See [`DEFAULT_MAX_BODY_BYTES`]; also applies to local files.
    pub max_body_bytes: u64,
    /// See [`DEFAULT_MAX_REDIRECTS`].
    pub max_redirects: usize,
    /// Extra request headers (name, value), sent with every request.
    /// `Authorization` and `Cookie` are dropped on redirects to another
    /// origin.
    pub headers: Vec<(String, String)>,
    /// Send every request through this http(s) proxy (`None`: reqwest's
    /// default, which honours the `HTTP(S)_PROXY` environment variables).
    /// Behind a proxy, names are resolved by the proxy, so
    /// [`AddressPolicy::PublicOnly`] can check only schemes, IP literals and
    /// `localhost` names.
    pub proxy: Option<Url>,
    /// A `Cookie` header value (`name=value; name2=value2`), sent to the
    /// requested URL and to redirects that stay on its origin.
    pub cookies: Option<String>,
    /// Which addresses may be connected to.
    pub address_policy: AddressPolicy,
    /// A host trusted as written under [`AddressPolicy::PublicOnly`]: the
    /// feed's own list page, which the user chose and may well be on an
    /// intranet. Every other host (redirect targets included) must be
    /// public.
    pub trusted_host: Option<String>,
    /// Send `headers` and `cookies` only to this origin (scheme, host,
    /// port), never to another one nor across a redirect to another one;
    /// `None`: only to the requested URL's origin.
    pub credentials_origin: Option<url::Origin>,
    /// `file:` URLs are read only inside this directory (symlinks resolved):
    /// the directory of a local list page, for the pages it links.
    pub file_root: Option<std::path::PathBuf>,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            user_agent: DEFAULT_USER_AGENT.to_owned(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            read_timeout: DEFAULT_READ_TIMEOUT,
            total_timeout: DEFAULT_TOTAL_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_redirects: DEFAULT_MAX_REDIRECTS,
            headers: Vec::new(),
            proxy: None,
            cookies: None,
            address_policy: AddressPolicy::AllowAll,
            trusted_host: None,
            credentials_origin: None,
            file_root: None,
        }
    }
}

/// A fetched, decoded page.
#[derive(Debug, Clone)]
pub struct Page {
    /// URL after redirects (the base for resolving relative links).
    pub final_url: Url,
    /// HTTP status (200 for local files).
    pub status: u16,
    /// The `Content-Type` header as sent (`None` for local files).
    pub content_type: Option<String>,
    /// The body after content decoding (gzip etc.), before charset decoding.
    pub bytes: Vec<u8>,
    /// The body as text.
    pub text: String,
    /// The charset `text` was decoded from.
    pub encoding: &'static encoding_rs::Encoding,
    /// The `ETag` header, for conditional requests.
    pub etag: Option<String>,
    /// The `Last-Modified` header, for conditional requests.
    pub last_modified: Option<String>,
}

/// The outcome of a conditional GET.
#[derive(Debug, Clone)]
pub enum Fetched {
    /// The page changed (or the server ignores validators).
    Page(Page),
    /// 304: the copy the validators came from is still current.
    NotModified {
        /// URL after redirects.
        final_url: Url,
    },
}

/// Which part of a request ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutPhase {
    /// Establishing the connection ([`FetchOptions::connect_timeout`]).
    Connect,
    /// Waiting for the response headers ([`FetchOptions::read_timeout`]).
    Response,
    /// Waiting for the next body chunk ([`FetchOptions::read_timeout`]).
    Read,
    /// The whole request ([`FetchOptions::total_timeout`]).
    Total,
}

impl std::fmt::Display for TimeoutPhase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TimeoutPhase::Connect => "connecting to",
            TimeoutPhase::Response => "waiting for the response from",
            TimeoutPhase::Read => "reading the body of",
            TimeoutPhase::Total => "fetching",
        })
    }
}

/// Why redirects were given up on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RedirectProblem {
    /// A redirect pointed back to a URL already visited in this chain.
    Loop {
        /// The URL that was visited twice (boxed to keep `FetchError` small).
        at: Box<Url>,
    },
    /// More than [`FetchOptions::max_redirects`] redirects.
    TooMany {
        /// The limit that was exceeded.
        limit: usize,
    },
}

impl std::fmt::Display for RedirectProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RedirectProblem::Loop { at } => write!(f, "redirect loop back to {at}"),
            RedirectProblem::TooMany { limit } => write!(f, "more than {limit} redirects"),
        }
    }
}

/// Why a fetch failed. Every variant's message names the URL (or path).
#[derive(Debug, Error)]
pub enum FetchError {
    /// The HTTP client could not be built from the options.
    #[error("could not set up the HTTP client")]
    Client(#[source] reqwest::Error),
    /// A header in [`FetchOptions::headers`], the user agent or the cookie
    /// string is not valid HTTP.
    #[error("invalid request header {name:?}: {reason}")]
    BadHeader {
        /// The header name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// [`FetchOptions::proxy`] is not usable.
    #[error("invalid proxy {proxy}: {reason}")]
    BadProxy {
        /// The proxy URL.
        proxy: Url,
        /// What is wrong with it.
        reason: String,
    },
    /// The URL's scheme is not http, https or file.
    #[error("unsupported URL scheme {scheme:?} in {url} (expected http, https or file)")]
    UnsupportedScheme {
        /// The offending URL.
        url: Url,
        /// Its scheme.
        scheme: String,
    },
    /// A CLI argument is neither a URL nor an existing file.
    #[error("{arg:?} is not a URL or an existing file: {reason}")]
    Target {
        /// The argument as given.
        arg: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The server answered with a non-2xx status.
    #[error("HTTP {status}{} from {url}{}", reason_phrase(*status), retry_note(*retry_after))]
    Status {
        /// The status code.
        status: u16,
        /// The URL that answered (after redirects).
        url: Url,
        /// `Retry-After` on a 429 or 503 (capped at [`MAX_RETRY_AFTER`]).
        retry_after: Option<Duration>,
    },
    /// A time limit ran out.
    #[error("timed out after {limit:?} {phase} {url}")]
    Timeout {
        /// The requested URL (the redirect hop, for hop-level phases).
        url: Url,
        /// What was being waited for.
        phase: TimeoutPhase,
        /// The limit that ran out.
        limit: Duration,
    },
    /// Redirects were not followed to the end.
    #[error("gave up following redirects from {url}: {problem}")]
    Redirects {
        /// The requested URL.
        url: Url,
        /// Loop or limit.
        problem: RedirectProblem,
    },
    /// The address policy or the redirect rules refused the URL; no
    /// connection was made to it.
    #[error("refused to fetch {url}: {reason}")]
    Blocked {
        /// The refused URL (the redirect target, for a redirect); boxed to
        /// keep `FetchError` small.
        url: Box<Url>,
        /// Which rule refused it (names the address class).
        reason: BlockReason,
    },
    /// The body exceeds [`FetchOptions::max_body_bytes`].
    #[error("body of {url} exceeds the limit of {limit} bytes")]
    TooLarge {
        /// The requested URL.
        url: Url,
        /// The limit in bytes.
        limit: u64,
    },
    /// Behind a proxy, the proxy could not be reached or would not open
    /// the connection: a proxy problem, not the site's.
    #[error(
        "could not fetch {url} through the proxy {proxy}: check that the proxy runs and accepts connections"
    )]
    Proxy {
        /// The requested URL.
        url: Url,
        /// The proxy, credentials redacted, and where it was set (`proxy =`
        /// or an environment variable); boxed to keep `FetchError` small.
        proxy: Box<str>,
        /// The underlying error.
        #[source]
        source: reqwest::Error,
    },
    /// The connection could not be established (DNS, refused, TLS).
    #[error("could not connect to {url}")]
    Connect {
        /// The requested URL.
        url: Url,
        /// The underlying error.
        #[source]
        source: reqwest::Error,
    },
    /// The TLS handshake failed (bad or expired certificate, a server that
    /// does not speak TLS on that port, no common protocol version).
    #[error("TLS handshake with {url} failed")]
    Tls {
        /// The requested URL.
        url: Url,
        /// The underlying error.
        #[source]
        source: reqwest::Error,
    },
    /// The request failed after connecting (reset, protocol error, broken
    /// content encoding, connection lost mid-body).
    #[error("network error fetching {url}")]
    Network {
        /// The requested URL.
        url: Url,
        /// The underlying error.
        #[source]
        source: reqwest::Error,
    },
    /// A local file could not be read.
    #[error("could not read local file {}", path.display())]
    File {
        /// The file path.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The body is not a text page (binary or empty).
    #[error("{url} is not a usable page")]
    Decode {
        /// The URL after redirects.
        url: Url,
        /// Binary or empty.
        #[source]
        source: DecodeError,
    },
}

impl FetchError {
    /// How long the server asked us to wait (429 and 503 only).
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            FetchError::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// Whether trying again later may succeed: timeouts, connection
    /// failures, connections lost mid-response, 5xx and 429. Client
    /// errors, refusals, oversize and undecodable bodies are not.
    pub fn is_transient(&self) -> bool {
        match self {
            FetchError::Timeout { .. } | FetchError::Connect { .. } | FetchError::Tls { .. } => {
                true
            }
            FetchError::Network { .. } => true,
            FetchError::Status { status, .. } => *status == 429 || (500..600).contains(status),
            _ => false,
        }
    }
}

/// How a body over the size limit is treated.
#[derive(Debug, Clone, Copy)]
enum BodyLimit {
    /// [`FetchError::TooLarge`].
    Fail(u64),
    /// Keep the first bytes, drop the rest (robots.txt: rules past the cap
    /// are ignored, as Google does).
    Truncate(u64),
}

/// An undecoded response body.
#[derive(Debug)]
pub(crate) struct RawBody {
    /// URL after redirects.
    pub final_url: Url,
    /// HTTP status (always 2xx).
    pub status: u16,
    pub content_type: Option<String>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The body after content decoding.
    pub bytes: Vec<u8>,
}

/// What one HTTP exchange (after redirects) produced.
enum RawOutcome {
    Body(RawBody),
    NotModified(Url),
}

/// Headers that control the connection or message framing: set by the
/// client, never by configuration.
const RESERVED_HEADERS: [&str; 9] = [
    "host",
    "content-length",
    "transfer-encoding",
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "upgrade",
];

/// Fetches pages with fixed limits. Cheap to clone: clones share one
/// connection pool (and the politeness scheduler, if any).
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    opts: Arc<FetchOptions>,
    /// Validated [`FetchOptions::headers`] plus the cookie.
    headers: Arc<HeaderMap>,
    politeness: Option<Arc<Politeness>>,
    /// The proxies requests go through, to name them when they fail.
    proxies: Arc<Vec<ProxyInUse>>,
}

/// A proxy the client sends requests through, and where it was set.
#[derive(Debug, Clone)]
struct ProxyInUse {
    /// `None`: every scheme; else only URLs of this scheme.
    scheme: Option<&'static str>,
    host: String,
    /// The proxy URL with credentials redacted.
    shown: String,
    origin: String,
}

/// The configured proxy, else the environment's (`HTTP_PROXY`,
/// `HTTPS_PROXY`, `ALL_PROXY`, any case: what reqwest reads).
fn proxies_in_use(configured: Option<&Url>) -> Vec<ProxyInUse> {
    if let Some(p) = configured {
        return vec![ProxyInUse {
            scheme: None,
            host: p.host_str().unwrap_or_default().to_owned(),
            shown: redact::redact_url(p),
            origin: "`proxy =` in the config".into(),
        }];
    }
    let vars = [
        ("HTTP_PROXY", Some("http")),
        ("HTTPS_PROXY", Some("https")),
        ("ALL_PROXY", None),
    ];
    let mut found = Vec::new();
    for (var, scheme) in vars {
        for name in [var.to_string(), var.to_ascii_lowercase()] {
            let Ok(value) = std::env::var(&name) else {
                continue;
            };
            let value = value.trim();
            let with_scheme = if value.contains("://") {
                value.to_owned()
            } else {
                format!("http://{value}")
            };
            if let Ok(url) = Url::parse(&with_scheme) {
                found.push(ProxyInUse {
                    scheme,
                    host: url.host_str().unwrap_or_default().to_owned(),
                    shown: redact::redact_url(&url),
                    origin: format!("the environment variable {name}"),
                });
            }
        }
    }
    found
}

impl Fetcher {
    /// Builds the HTTP client. Fails on invalid headers, cookie string or
    /// proxy in `opts`, or when the TLS backend cannot initialise.
    pub fn new(opts: FetchOptions) -> Result<Self, FetchError> {
        let headers = request_headers(&opts)?;
        let user_agent =
            HeaderValue::from_str(&opts.user_agent).map_err(|e| FetchError::BadHeader {
                name: "User-Agent".into(),
                reason: e.to_string(),
            })?;
        let mut builder = reqwest::Client::builder()
            .user_agent(user_agent)
            .connect_timeout(opts.connect_timeout)
            .read_timeout(opts.read_timeout)
            // The total timeout is enforced around the whole fetch (see
            // `fetch_http`) so that it is reported as such; redirects are
            // followed there too, so that every hop is checked.
            .redirect(reqwest::redirect::Policy::none());
        let proxies = proxies_in_use(opts.proxy.as_ref());
        // The proxy is the user's choice and may live on a private network
        // (`localhost:3128`): its own name is never filtered.
        let mut exempt_names: Vec<String> = proxies.iter().map(|p| p.host.clone()).collect();
        if let Some(proxy) = &opts.proxy {
            let bad = |reason: String| FetchError::BadProxy {
                proxy: proxy.clone(),
                reason,
            };
            if !matches!(proxy.scheme(), "http" | "https") {
                return Err(bad("expected an http:// or https:// proxy URL".into()));
            }
            let Some(host) = proxy.host_str() else {
                return Err(bad("the proxy URL has no host".into()));
            };
            exempt_names.push(host.to_owned());
            exempt_names.dedup();
            let proxy_config =
                reqwest::Proxy::all(proxy.as_str()).map_err(|e| bad(e.to_string()))?;
            builder = builder.proxy(proxy_config);
        }
        if opts.address_policy == AddressPolicy::PublicOnly {
            exempt_names.extend(opts.trusted_host.clone());
            builder = builder.dns_resolver(PublicResolver::new(exempt_names));
        }
        let client = builder.build().map_err(FetchError::Client)?;
        Ok(Fetcher {
            client,
            opts: Arc::new(opts),
            headers: Arc::new(headers),
            politeness: None,
            proxies: Arc::new(proxies),
        })
    }

    /// This fetcher, with every request (and every redirect to another host)
    /// first waiting for a permit from `politeness`; 429 and 503 answers with
    /// `Retry-After` defer their host there.
    pub fn with_politeness(mut self, politeness: Arc<Politeness>) -> Fetcher {
        self.politeness = Some(politeness);
        self
    }

    /// The scheduler set by [`Fetcher::with_politeness`].
    pub fn politeness(&self) -> Option<&Arc<Politeness>> {
        self.politeness.as_ref()
    }

    /// The options this fetcher was built with.
    pub fn options(&self) -> &FetchOptions {
        &self.opts
    }

    /// Fetches `url`: http(s) through the HTTP client, `file://` from disk
    /// (refused under [`AddressPolicy::PublicOnly`]). Plain local paths must
    /// first go through [`resolve_target`].
    pub async fn fetch(&self, url: &Url) -> Result<Page, FetchError> {
        self.fetch_metered(url, &mut Charge::none()).await
    }

    /// [`Fetcher::fetch`], charging the body to `charge` as it streams in
    /// (see [`super::memory`]).
    pub async fn fetch_metered(&self, url: &Url, charge: &mut Charge) -> Result<Page, FetchError> {
        match self
            .fetch_conditional_metered(url, None, None, charge)
            .await?
        {
            Fetched::Page(page) => Ok(page),
            // Without validators a 304 is just an odd status.
            Fetched::NotModified { final_url } => Err(FetchError::Status {
                status: 304,
                url: final_url,
                retry_after: None,
            }),
        }
    }

    /// Fetches `url` with `If-None-Match: etag` and `If-Modified-Since:
    /// last_modified` (each only when given); a 304 answer is
    /// [`Fetched::NotModified`] and its body is not read. Validators that
    /// are not valid header values are left out (the request is then
    /// unconditional). Local files are always a [`Fetched::Page`].
    pub async fn fetch_conditional(
        &self,
        url: &Url,
        etag: Option<&str>,
        last_modified: Option<&str>,
    ) -> Result<Fetched, FetchError> {
        self.fetch_conditional_metered(url, etag, last_modified, &mut Charge::none())
            .await
    }

    /// [`Fetcher::fetch_conditional`], charging the body to `charge`.
    pub async fn fetch_conditional_metered(
        &self,
        url: &Url,
        etag: Option<&str>,
        last_modified: Option<&str>,
        charge: &mut Charge,
    ) -> Result<Fetched, FetchError> {
        match url.scheme() {
            "http" | "https" => {
                let mut validators = HeaderMap::new();
                let pairs = [
                    (reqwest::header::IF_NONE_MATCH, etag),
                    (reqwest::header::IF_MODIFIED_SINCE, last_modified),
                ];
                for (name, value) in pairs {
                    if let Some(value) = value.and_then(|v| HeaderValue::from_str(v.trim()).ok()) {
                        validators.insert(name, value);
                    }
                }
                let limit = BodyLimit::Fail(self.opts.max_body_bytes);
                match self.fetch_http(url, &validators, limit, charge).await? {
                    RawOutcome::NotModified(final_url) => Ok(Fetched::NotModified { final_url }),
                    RawOutcome::Body(raw) => decode_page(raw).map(Fetched::Page),
                }
            }
            "file" => {
                if self.opts.address_policy == AddressPolicy::PublicOnly {
                    return Err(FetchError::Blocked {
                        url: Box::new(url.clone()),
                        reason: BlockReason::Scheme {
                            hop: Hop::Request,
                            scheme: "file".into(),
                        },
                    });
                }
                self.fetch_file(url, charge).await.map(Fetched::Page)
            }
            other => Err(FetchError::UnsupportedScheme {
                url: url.clone(),
                scheme: other.to_owned(),
            }),
        }
    }

    /// Fetches an http(s) `url` undecoded, keeping at most `max_bytes` of
    /// the body (the rest is not read). For small control files such as
    /// robots.txt.
    pub(crate) async fn fetch_prefix(
        &self,
        url: &Url,
        max_bytes: u64,
    ) -> Result<RawBody, FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::UnsupportedScheme {
                url: url.clone(),
                scheme: url.scheme().to_owned(),
            });
        }
        match self
            .fetch_http(
                url,
                &HeaderMap::new(),
                BodyLimit::Truncate(max_bytes),
                &mut Charge::none(),
            )
            .await?
        {
            RawOutcome::Body(raw) => Ok(raw),
            RawOutcome::NotModified(final_url) => Err(FetchError::Status {
                status: 304,
                url: final_url,
                retry_after: None,
            }),
        }
    }

    /// One http(s) exchange, following redirects hop by hop under the total
    /// timeout (paused while waiting for politeness permits).
    async fn fetch_http(
        &self,
        url: &Url,
        validators: &HeaderMap,
        body_limit: BodyLimit,
        charge: &mut Charge,
    ) -> Result<RawOutcome, FetchError> {
        let total = self.opts.total_timeout;
        let total_timeout = || FetchError::Timeout {
            url: url.clone(),
            phase: TimeoutPhase::Total,
            limit: total,
        };
        let mut deadline = Instant::now() + total;
        let mut visited = vec![url.clone()];
        let mut current = url.clone();
        // The permit of the host being talked to, kept across same-host hops.
        let mut permit: Option<(String, Permit)> = None;
        loop {
            self.check_hop(&current, visited.len() > 1)?;
            if let Some(politeness) = &self.politeness {
                let host = current.host_str().unwrap_or_default().to_owned();
                if permit.as_ref().is_none_or(|(held, _)| *held != host) {
                    // Release the previous host's slots before queueing.
                    drop(permit.take());
                    let waiting_since = Instant::now();
                    // The request ends by the deadline: its cluster slot
                    // (shared states) is held no longer than that.
                    let hold = deadline.saturating_duration_since(Instant::now());
                    let granted = politeness.acquire_holding(&current, hold).await;
                    deadline += waiting_since.elapsed();
                    permit = Some((host, granted));
                }
            }
            let request = self
                .client
                .get(current.clone())
                .headers(self.hop_headers(url, &current, validators));
            let response = tokio::time::timeout_at(deadline, request.send())
                .await
                .map_err(|_elapsed| total_timeout())?
                .map_err(|e| self.request_error(&current, e, TimeoutPhase::Response))?;
            let status = response.status().as_u16();

            if let Some(next) = redirect_target(&response, &current) {
                if visited.contains(&next) {
                    return Err(FetchError::Redirects {
                        url: url.clone(),
                        problem: RedirectProblem::Loop { at: Box::new(next) },
                    });
                }
                if visited.len() > self.opts.max_redirects {
                    return Err(FetchError::Redirects {
                        url: url.clone(),
                        problem: RedirectProblem::TooMany {
                            limit: self.opts.max_redirects,
                        },
                    });
                }
                visited.push(next.clone());
                current = next;
                continue;
            }
            if status == 304 && !validators.is_empty() {
                return Ok(RawOutcome::NotModified(current));
            }
            if !response.status().is_success() {
                let retry_after = if status == 429 || status == 503 {
                    header(&response, reqwest::header::RETRY_AFTER)
                        .and_then(|value| parse_retry_after(&value, chrono::Utc::now()))
                } else {
                    None
                };
                if let (Some(politeness), Some(wait), Some(host)) =
                    (&self.politeness, retry_after, current.host_str())
                {
                    politeness.defer(host, wait);
                }
                return Err(FetchError::Status {
                    status,
                    url: current,
                    retry_after,
                });
            }
            let body = self.read_body(url, &current, response, body_limit, charge);
            return tokio::time::timeout_at(deadline, body)
                .await
                .map_err(|_elapsed| total_timeout())?
                .map(RawOutcome::Body);
        }
    }

    /// Refuses a hop before any connection: non-http(s) redirect targets
    /// always, IP literals outside public space under `PublicOnly`.
    fn check_hop(&self, url: &Url, is_redirect: bool) -> Result<(), FetchError> {
        let hop = if is_redirect {
            Hop::Redirect
        } else {
            Hop::Request
        };
        let trusted = self
            .opts
            .trusted_host
            .as_deref()
            .is_some_and(|t| url.host_str().is_some_and(|h| h.eq_ignore_ascii_case(t)));
        let policy = if trusted {
            AddressPolicy::AllowAll
        } else {
            self.opts.address_policy
        };
        let verdict = match policy {
            // Behind a proxy our resolver never sees the name: judge it here.
            AddressPolicy::PublicOnly if self.opts.proxy.is_some() || env_proxy() => {
                netguard::check_url(url, hop).and_then(|()| netguard::check_name(url))
            }
            AddressPolicy::PublicOnly => netguard::check_url(url, hop),
            AddressPolicy::AllowAll if is_redirect && !matches!(url.scheme(), "http" | "https") => {
                Err(BlockReason::Scheme {
                    hop,
                    scheme: url.scheme().to_owned(),
                })
            }
            AddressPolicy::AllowAll => Ok(()),
        };
        verdict.map_err(|reason| FetchError::Blocked {
            url: Box::new(url.clone()),
            reason,
        })
    }

    /// Configured headers for a hop to `current` of a fetch of `original`:
    /// credentials only while on the original origin (scheme, host and port,
    /// as reqwest does: no cookie leaks to another site or over a downgrade
    /// to plain http), validators always.
    fn hop_headers(&self, original: &Url, current: &Url, validators: &HeaderMap) -> HeaderMap {
        let home = self
            .opts
            .credentials_origin
            .clone()
            .unwrap_or_else(|| original.origin());
        // Every configured header may be a secret (`X-Api-Key`, a session
        // header): none of them leaves the origin it was configured for.
        let mut headers = if current.origin() == home && original.origin() == home {
            HeaderMap::clone(&self.headers)
        } else {
            HeaderMap::new()
        };
        for (name, value) in validators {
            headers.insert(name.clone(), value.clone());
        }
        headers
    }

    /// Streams the body of a 2xx `response` to `current` under `limit`.
    async fn read_body(
        &self,
        url: &Url,
        current: &Url,
        mut response: reqwest::Response,
        limit: BodyLimit,
        charge: &mut Charge,
    ) -> Result<RawBody, FetchError> {
        let (cap, truncate) = match limit {
            BodyLimit::Fail(cap) => (cap, false),
            BodyLimit::Truncate(cap) => (cap, true),
        };
        let too_large = || FetchError::TooLarge {
            url: url.clone(),
            limit: cap,
        };
        // The header, not `response.content_length()`: the latter is unknown
        // for compressed bodies, while a compressed length over the cap means
        // the decompressed body is over it too.
        let declared_length = header(&response, reqwest::header::CONTENT_LENGTH)
            .and_then(|value| value.trim().parse::<u64>().ok());
        if !truncate && declared_length.is_some_and(|len| len > cap) {
            return Err(too_large());
        }
        let status = response.status().as_u16();
        let content_type = header(&response, reqwest::header::CONTENT_TYPE);
        let etag = header(&response, reqwest::header::ETAG);
        let last_modified = header(&response, reqwest::header::LAST_MODIFIED);

        let capacity = declared_length.unwrap_or(0).min(cap).min(1 << 20);
        let mut bytes = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
        loop {
            let chunk = tokio::time::timeout(self.opts.read_timeout, response.chunk())
                .await
                .map_err(|_elapsed| FetchError::Timeout {
                    url: current.clone(),
                    phase: TimeoutPhase::Read,
                    limit: self.opts.read_timeout,
                })?
                .map_err(|e| self.request_error(current, e, TimeoutPhase::Read))?;
            let Some(chunk) = chunk else { break };
            charge
                .grow_for_stream((bytes.len() + chunk.len()) as u64)
                .await;
            if bytes.len() as u64 + chunk.len() as u64 > cap {
                if !truncate {
                    return Err(too_large());
                }
                let room = usize::try_from(cap).unwrap_or(usize::MAX) - bytes.len();
                bytes.extend_from_slice(&chunk[..room.min(chunk.len())]);
                break;
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(RawBody {
            final_url: current.clone(),
            status,
            content_type,
            etag,
            last_modified,
            bytes,
        })
    }

    async fn fetch_file(&self, url: &Url, charge: &mut Charge) -> Result<Page, FetchError> {
        let path = url.to_file_path().map_err(|()| FetchError::Target {
            arg: url.to_string(),
            reason: "not a local file path".into(),
        })?;
        let file_error = |source| FetchError::File {
            path: path.clone(),
            source,
        };
        let refuse = |reason: &str| FetchError::Target {
            arg: url.to_string(),
            reason: reason.to_owned(),
        };
        if let Some(root) = &self.opts.file_root {
            let real = tokio::fs::canonicalize(&path).await.map_err(file_error)?;
            let root = tokio::fs::canonicalize(root).await.map_err(file_error)?;
            if !real.starts_with(&root) {
                return Err(refuse(&format!(
                    "outside the list page's directory {} (local pages may link only below it)",
                    root.display()
                )));
            }
        }
        // Checked before opening: a FIFO would block the open, a device
        // (/dev/zero) never ends.
        let meta = tokio::fs::metadata(&path).await.map_err(file_error)?;
        if !meta.is_file() {
            return Err(refuse(
                "not a regular file (a directory, device, FIFO or socket)",
            ));
        }
        if meta.len() > self.opts.max_body_bytes {
            return Err(FetchError::TooLarge {
                url: url.clone(),
                limit: self.opts.max_body_bytes,
            });
        }
        let limit = self.opts.max_body_bytes;
        charge.grow_to(meta.len()).await;
        let read = async {
            use tokio::io::AsyncReadExt;
            let file = tokio::fs::File::open(&path).await?;
            let mut bytes = Vec::new();
            file.take(limit.saturating_add(1))
                .read_to_end(&mut bytes)
                .await?;
            Ok::<_, std::io::Error>(bytes)
        };
        let bytes = tokio::time::timeout(self.opts.total_timeout, read)
            .await
            .map_err(|_elapsed| FetchError::Timeout {
                url: url.clone(),
                phase: TimeoutPhase::Total,
                limit: self.opts.total_timeout,
            })?
            .map_err(file_error)?;
        if bytes.len() as u64 > limit {
            return Err(FetchError::TooLarge {
                url: url.clone(),
                limit,
            });
        }
        let decoded = decode::decode(&bytes, None, None).map_err(|source| FetchError::Decode {
            url: url.clone(),
            source,
        })?;
        Ok(Page {
            final_url: url.clone(),
            status: 200,
            content_type: None,
            bytes,
            text: decoded.text,
            encoding: decoded.encoding,
            etag: None,
            last_modified: None,
        })
    }

    /// Classifies a reqwest error for a request to `url`; `phase` is what a
    /// timeout that is not a connect timeout was waiting for.
    fn request_error(&self, url: &Url, error: reqwest::Error, phase: TimeoutPhase) -> FetchError {
        let url = url.clone();
        // Looked up in the whole chain: hyper wraps the resolver's error.
        if let Some(ResolveError::Blocked(reason)) = find_in_chain::<ResolveError>(&error) {
            return FetchError::Blocked {
                url: Box::new(url),
                reason: reason.clone(),
            };
        }
        // The URL is already in our message; reqwest would repeat it.
        let error = error.without_url();
        if error.is_timeout() {
            let (phase, limit) = if error.is_connect() {
                (TimeoutPhase::Connect, self.opts.connect_timeout)
            } else {
                (phase, self.opts.read_timeout)
            };
            return FetchError::Timeout { url, phase, limit };
        }
        if error.is_connect() {
            let proxy = self
                .proxies
                .iter()
                .find(|p| p.scheme.is_none_or(|s| s == url.scheme()));
            if let Some(p) = proxy {
                return FetchError::Proxy {
                    url,
                    proxy: format!("{} (set by {})", p.shown, p.origin).into(),
                    source: error,
                };
            }
            if url.scheme() == "https" && is_tls_failure(&error) {
                return FetchError::Tls { url, source: error };
            }
            FetchError::Connect { url, source: error }
        } else {
            FetchError::Network { url, source: error }
        }
    }
}

/// True when a connect error came from TLS: rustls reports through an
/// `io::Error` of kind `InvalidData` somewhere in the source chain.
fn is_tls_failure(error: &reqwest::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        // An io::Error's `source()` skips the error it wraps; look inside.
        let mut io = e.downcast_ref::<std::io::Error>();
        while let Some(i) = io {
            if i.kind() == std::io::ErrorKind::InvalidData {
                return true;
            }
            io = i
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<std::io::Error>());
        }
        source = e.source();
    }
    false
}

/// Validates [`FetchOptions::headers`] and [`FetchOptions::cookies`] into the
/// header map sent with every request.
fn request_headers(opts: &FetchOptions) -> Result<HeaderMap, FetchError> {
    let mut headers = HeaderMap::new();
    for (name, value) in &opts.headers {
        let bad = |reason: String| FetchError::BadHeader {
            name: name.clone(),
            reason,
        };
        let header_name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|e| bad(format!("{e} (header names are tokens such as X-Api-Key)")))?;
        if RESERVED_HEADERS.contains(&header_name.as_str()) {
            return Err(bad("set by the HTTP client, not configurable".into()));
        }
        let header_value = HeaderValue::from_str(value)
            .map_err(|e| bad(format!("{e} (control characters or line breaks)")))?;
        headers.append(header_name, header_value);
    }
    if let Some(cookies) = &opts.cookies {
        let bad = |reason: String| FetchError::BadHeader {
            name: "Cookie".into(),
            reason,
        };
        if headers.contains_key(reqwest::header::COOKIE) {
            return Err(bad(
                "given both in headers and as cookies; use only one".into()
            ));
        }
        let value = validate_cookies(cookies).map_err(bad)?;
        let value = HeaderValue::from_str(&value).map_err(|e| bad(e.to_string()))?;
        headers.insert(reqwest::header::COOKIE, value);
    }
    Ok(headers)
}

/// Checks a `Cookie` header value (`name=value; name2=value2`, RFC 6265
/// §4.2.1) and returns it normalised (pairs trimmed, joined by `"; "`).
fn validate_cookies(cookies: &str) -> Result<String, String> {
    let mut pairs = Vec::new();
    for pair in cookies.split(';').map(str::trim) {
        if pair.is_empty() {
            continue;
        }
        let Some((name, value)) = pair.split_once('=') else {
            return Err(format!("{pair:?} is not name=value"));
        };
        let name = name.trim();
        let is_token_char = |c: char| c.is_ascii_graphic() && !"()<>@,;:\\\"/[]?={}".contains(c);
        if name.is_empty() || !name.chars().all(is_token_char) {
            return Err(format!("invalid cookie name {name:?} in {pair:?}"));
        }
        let value = value.trim();
        let unquoted = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        let is_cookie_octet = |c: char| c.is_ascii_graphic() && !"\",;\\".contains(c);
        if !unquoted.chars().all(is_cookie_octet) {
            return Err(format!(
                "invalid cookie value in {pair:?} (no spaces, quotes, commas, semicolons, backslashes or non-ASCII)"
            ));
        }
        pairs.push(format!("{name}={value}"));
    }
    if pairs.is_empty() {
        return Err("empty cookie string".into());
    }
    Ok(pairs.join("; "))
}

/// The next URL when `response` is a followable redirect (301, 302, 303,
/// 307, 308 with a usable `Location`); `None` makes it the final response.
fn redirect_target(response: &reqwest::Response, current: &Url) -> Option<Url> {
    if !matches!(response.status().as_u16(), 301 | 302 | 303 | 307 | 308) {
        return None;
    }
    let location = header(response, reqwest::header::LOCATION)?;
    current.join(location.trim()).ok()
}

/// Decodes a raw body into a [`Page`].
fn decode_page(raw: RawBody) -> Result<Page, FetchError> {
    let tld = raw.final_url.domain().and_then(|d| d.rsplit('.').next());
    let decoded =
        decode::decode(&raw.bytes, raw.content_type.as_deref(), tld).map_err(|source| {
            FetchError::Decode {
                url: raw.final_url.clone(),
                source,
            }
        })?;
    Ok(Page {
        final_url: raw.final_url,
        status: raw.status,
        content_type: raw.content_type,
        bytes: raw.bytes,
        text: decoded.text,
        encoding: decoded.encoding,
        etag: raw.etag,
        last_modified: raw.last_modified,
    })
}

/// Parses a `Retry-After` value, delta-seconds or HTTP-date (IMF-fixdate,
/// RFC 850 or asctime), as a wait from `now`: a past date is zero, anything
/// over [`MAX_RETRY_AFTER`] is cut to it, garbage is `None`.
pub fn parse_retry_after(value: &str, now: chrono::DateTime<chrono::Utc>) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // All digits: only overflow can fail, and that is "very long".
        let seconds = value.parse::<u64>().unwrap_or(u64::MAX);
        return Some(Duration::from_secs(seconds).min(MAX_RETRY_AFTER));
    }
    let date = chrono::DateTime::parse_from_rfc2822(value)
        .map(|d| d.with_timezone(&chrono::Utc))
        .ok()
        .or_else(|| {
            ["%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"]
                .iter()
                .find_map(|format| chrono::NaiveDateTime::parse_from_str(value, format).ok())
                .map(|naive| naive.and_utc())
        })?;
    let wait = (date - now).to_std().unwrap_or(Duration::ZERO);
    Some(wait.min(MAX_RETRY_AFTER))
}

fn retry_note(retry_after: Option<Duration>) -> String {
    retry_after
        .map(|d| format!(" (retry after {} s)", d.as_secs()))
        .unwrap_or_default()
}

fn find_in_chain<'e, T: std::error::Error + 'static>(
    error: &'e (dyn std::error::Error + 'static),
) -> Option<&'e T> {
    let mut current = Some(error);
    while let Some(err) = current {
        if let Some(found) = err.downcast_ref::<T>() {
            return Some(found);
        }
        current = err.source();
    }
    None
}

/// `" Not Found"` for 404 etc.; empty for codes without a standard phrase.
fn reason_phrase(status: u16) -> String {
    reqwest::StatusCode::from_u16(status)
        .ok()
        .and_then(|code| code.canonical_reason())
        .map(|reason| format!(" {reason}"))
        .unwrap_or_default()
}

fn header(response: &reqwest::Response, name: HeaderName) -> Option<String> {
    let value = response.headers().get(name)?;
    Some(String::from_utf8_lossy(value.as_bytes()).into_owned())
}

/// Turns a CLI argument into a URL: `http(s)://` and `file://` URLs pass
/// through; anything else is a local path, made absolute against the current
/// directory, which must exist. A scheme-less host such as `example.com/news`
/// that is not a file gets an error suggesting `https://`.
pub fn resolve_target(arg: &str) -> Result<Url, FetchError> {
    let target_error = |reason: String| FetchError::Target {
        arg: arg.to_owned(),
        reason,
    };
    let trimmed = arg.trim();
    if trimmed.is_empty() {
        return Err(target_error("empty argument".into()));
    }
    // Only a known scheme or an explicit `://` makes a URL: `example.com:8080/x`
    // parses with scheme "example.com", and `C:\pages\a.html` with scheme "c".
    if let Ok(url) = Url::parse(trimmed)
        && (matches!(url.scheme(), "http" | "https" | "file") || trimmed.contains("://"))
    {
        return match url.scheme() {
            "http" | "https" | "file" => Ok(url),
            scheme => Err(FetchError::UnsupportedScheme {
                scheme: scheme.to_owned(),
                url,
            }),
        };
    }
    let path = Path::new(trimmed);
    let absolute = std::path::absolute(path)
        .map_err(|e| target_error(format!("cannot make the path absolute: {e}")))?;
    if !absolute.exists() {
        let first = trimmed.split('/').next().unwrap_or_default();
        let looks_like_host = !trimmed.starts_with('.')
            && first.contains('.')
            && !first.ends_with(".html")
            && !first.ends_with(".htm")
            && Url::parse(&format!("https://{trimmed}")).is_ok();
        let reason = if looks_like_host {
            format!("no such file (did you mean https://{trimmed} ?)")
        } else {
            format!("no such file {}", absolute.display())
        };
        return Err(target_error(reason));
    }
    Url::from_file_path(&absolute)
        .map_err(|()| target_error(format!("cannot express {} as a URL", absolute.display())))
}

/// Is a proxy set in the environment (`HTTP_PROXY`, `HTTPS_PROXY`,
/// `ALL_PROXY`, any case)? reqwest then sends requests through it, names
/// unresolved here, so the address policy must judge names as well.
fn env_proxy() -> bool {
    ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"].iter().any(|v| {
        [v.to_string(), v.to_ascii_lowercase()]
            .iter()
            .any(|k| std::env::var(k).is_ok_and(|x| !x.trim().is_empty()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_named_constants() {
        let opts = FetchOptions::default();
        assert_eq!(opts.max_body_bytes, 10 * 1024 * 1024);
        assert_eq!(opts.total_timeout, Duration::from_secs(30));
        assert!(opts.user_agent.starts_with("feedmine/"));
        assert!(Fetcher::new(opts).is_ok());
    }

    #[test]
    fn invalid_header_is_a_typed_error() {
        let opts = FetchOptions {
            headers: vec![("X-Bad".into(), "line\nbreak".into())],
            ..FetchOptions::default()
        };
        let err = Fetcher::new(opts).unwrap_err();
        assert!(matches!(err, FetchError::BadHeader { ref name, .. } if name == "X-Bad"));
    }

    #[test]
    fn resolve_target_passes_urls_and_rejects_other_schemes() {
        let url = resolve_target("https://example.org/news?page=2").unwrap();
        assert_eq!(url.as_str(), "https://example.org/news?page=2");
        assert_eq!(
            resolve_target("file:///tmp/x.html").unwrap().scheme(),
            "file"
        );
        assert!(matches!(
            resolve_target("ftp://example.org/list"),
            Err(FetchError::UnsupportedScheme { .. })
        ));
    }

    #[test]
    fn resolve_target_suggests_https_for_bare_hosts() {
        let err = resolve_target("news.example.org/latest").unwrap_err();
        assert!(
            err.to_string()
                .contains("did you mean https://news.example.org/latest"),
            "{err}"
        );
        let err = resolve_target("example.com:8080/news").unwrap_err();
        assert!(
            err.to_string()
                .contains("did you mean https://example.com:8080/news"),
            "{err}"
        );
        let err = resolve_target("./missing-page.html").unwrap_err();
        assert!(err.to_string().contains("no such file"), "{err}");
        assert!(!err.to_string().contains("did you mean"), "{err}");
    }

    #[test]
    fn retry_after_parses_seconds_and_http_dates() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-22T08:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        let parse = |v: &str| parse_retry_after(v, now);
        assert_eq!(parse("120"), Some(Duration::from_secs(120)));
        assert_eq!(parse(" 0 "), Some(Duration::ZERO));
        // IMF-fixdate, RFC 850 and asctime forms of the same instant.
        let in_90_s = Some(Duration::from_secs(90));
        assert_eq!(parse("Sun, 22 Nov 2026 08:01:30 GMT"), in_90_s);
        assert_eq!(parse("Sunday, 22-Nov-26 08:01:30 GMT"), in_90_s);
        assert_eq!(parse("Sun Nov 22 08:01:30 2026"), in_90_s);
        // Past dates mean now; huge values are capped at 6 h.
        assert_eq!(parse("Sat, 21 Nov 2026 08:00:00 GMT"), Some(Duration::ZERO));
        assert_eq!(parse("86400"), Some(MAX_RETRY_AFTER));
        assert_eq!(parse("99999999999999999999999"), Some(MAX_RETRY_AFTER));
        assert_eq!(
            parse("Fri, 01 Jan 2100 00:00:00 GMT"),
            Some(MAX_RETRY_AFTER)
        );
        assert_eq!(MAX_RETRY_AFTER, Duration::from_secs(6 * 3600));
        for garbage in ["", "soon", "-5", "1.5", "tomorrow at noon"] {
            assert_eq!(parse(garbage), None, "{garbage:?}");
        }
    }

    #[test]
    fn transient_errors_and_retry_after() {
        let url = Url::parse("https://example.org/").unwrap();
        let status = |status, retry_after| FetchError::Status {
            status,
            url: url.clone(),
            retry_after,
        };
        let wait = Some(Duration::from_secs(30));
        assert!(status(429, wait).is_transient());
        assert_eq!(status(429, wait).retry_after(), wait);
        assert!(status(503, None).is_transient());
        assert!(status(500, None).is_transient());
        assert!(!status(404, None).is_transient());
        assert!(!status(403, None).is_transient());
        let timeout = FetchError::Timeout {
            url: url.clone(),
            phase: TimeoutPhase::Total,
            limit: Duration::from_secs(1),
        };
        assert!(timeout.is_transient());
        assert_eq!(timeout.retry_after(), None);
        let blocked = FetchError::Blocked {
            url: Box::new(url.clone()),
            reason: BlockReason::NoHost,
        };
        assert!(!blocked.is_transient());
        let too_large = FetchError::TooLarge {
            url: url.clone(),
            limit: 1,
        };
        assert!(!too_large.is_transient());
        assert!(
            status(429, wait)
                .to_string()
                .contains("429 Too Many Requests from https://example.org/ (retry after 30 s)")
        );
    }

    #[test]
    fn cookie_strings_are_checked_and_normalised() {
        assert_eq!(
            validate_cookies(" session=abc123 ;theme=dark;; ").unwrap(),
            "session=abc123; theme=dark"
        );
        assert_eq!(
            validate_cookies("consent=\"yes\"").unwrap(),
            "consent=\"yes\""
        );
        assert_eq!(validate_cookies("empty=").unwrap(), "empty=");
        for bad in [
            "", " ; ", "novalue", "=x", "a b=1", "a=x y", "a=1,b=2", "a=\u{e9}",
        ] {
            assert!(validate_cookies(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn options_are_validated_at_construction() {
        let err = |opts: FetchOptions| Fetcher::new(opts).unwrap_err().to_string();
        let reserved = err(FetchOptions {
            headers: vec![("Host".into(), "evil.example".into())],
            ..FetchOptions::default()
        });
        assert!(
            reserved.contains("\"Host\"") && reserved.contains("not configurable"),
            "{reserved}"
        );
        let bad_name = err(FetchOptions {
            headers: vec![("X Bad".into(), "1".into())],
            ..FetchOptions::default()
        });
        assert!(bad_name.contains("\"X Bad\""), "{bad_name}");
        let cookie = err(FetchOptions {
            cookies: Some("novalue".into()),
            ..FetchOptions::default()
        });
        assert!(
            cookie.contains("Cookie") && cookie.contains("name=value"),
            "{cookie}"
        );
        let twice = err(FetchOptions {
            cookies: Some("a=1".into()),
            headers: vec![("cookie".into(), "b=2".into())],
            ..FetchOptions::default()
        });
        assert!(twice.contains("both"), "{twice}");
        let proxy = err(FetchOptions {
            proxy: Some(Url::parse("ftp://proxy.example:21").unwrap()),
            ..FetchOptions::default()
        });
        assert!(
            proxy.contains("invalid proxy ftp://proxy.example/"),
            "{proxy}"
        );
        let ok = FetchOptions {
            cookies: Some("a=1; b=2".into()),
            proxy: Some(Url::parse("http://proxy.internal:3128").unwrap()),
            address_policy: AddressPolicy::PublicOnly,
            ..FetchOptions::default()
        };
        assert!(Fetcher::new(ok).is_ok());
    }

    #[tokio::test]
    async fn unsupported_scheme_is_rejected_by_fetch() {
        let fetcher = Fetcher::new(FetchOptions::default()).unwrap();
        let url = Url::parse("ftp://example.org/list").unwrap();
        let err = fetcher.fetch(&url).await.unwrap_err();
        assert!(err.to_string().contains("ftp://example.org/list"), "{err}");
    }
}
