//! The network and file edge: fetches one page (http, https or a local file)
//! and hands back its bytes and decoded text.
//!
//! Invariants:
//! - Every request is bounded: connect, per-read and total timeouts, a body
//!   size cap enforced while streaming (and up front from `Content-Length`),
//!   and a redirect limit with loop detection. Nothing here can hang forever
//!   or fill memory on a hostile server.
//! - Only 2xx responses become a [`Page`]; everything else is a [`FetchError`]
//!   whose `Display` names the URL and the cause, and whose `source()` chain
//!   carries the underlying error (print with `{err:#}` through anyhow).
//! - Text is decoded by [`crate::decode::decode`] (BOM → header → meta →
//!   detector), never by reqwest's header-only `text()`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use thiserror::Error;
use url::Url;

use crate::decode::{self, DecodeError};

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
    pub headers: Vec<(String, String)>,
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
    /// A header in [`FetchOptions::headers`] or the user agent is not valid HTTP.
    #[error("invalid request header {name:?}: {reason}")]
    BadHeader {
        /// The header name.
        name: String,
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
    #[error("HTTP {status}{} from {url}", reason_phrase(*status))]
    Status {
        /// The status code.
        status: u16,
        /// The URL that answered (after redirects).
        url: Url,
    },
    /// A time limit ran out.
    #[error("timed out after {limit:?} {phase} {url}")]
    Timeout {
        /// The requested URL.
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
    /// The body exceeds [`FetchOptions::max_body_bytes`].
    #[error("body of {url} exceeds the limit of {limit} bytes")]
    TooLarge {
        /// The requested URL.
        url: Url,
        /// The limit in bytes.
        limit: u64,
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

/// Fetches pages with fixed limits. Cheap to clone: clones share one
/// connection pool.
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    opts: std::sync::Arc<FetchOptions>,
}

impl Fetcher {
    /// Builds the HTTP client. Fails only on invalid header values in `opts`
    /// or when the TLS backend cannot initialise.
    pub fn new(opts: FetchOptions) -> Result<Self, FetchError> {
        let mut headers = reqwest::header::HeaderMap::new();
        for (name, value) in &opts.headers {
            let bad = |reason: String| FetchError::BadHeader {
                name: name.clone(),
                reason,
            };
            let header_name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
                .map_err(|e| bad(e.to_string()))?;
            let header_value =
                reqwest::header::HeaderValue::from_str(value).map_err(|e| bad(e.to_string()))?;
            headers.append(header_name, header_value);
        }
        let user_agent = reqwest::header::HeaderValue::from_str(&opts.user_agent).map_err(|e| {
            FetchError::BadHeader {
                name: "User-Agent".into(),
                reason: e.to_string(),
            }
        })?;
        let max_redirects = opts.max_redirects;
        let client = reqwest::Client::builder()
            .user_agent(user_agent)
            .default_headers(headers)
            .connect_timeout(opts.connect_timeout)
            .read_timeout(opts.read_timeout)
            // The total timeout is enforced around the whole fetch (see
            // `fetch_http`) so that it is reported as such.
            .redirect(reqwest::redirect::Policy::custom(move |attempt| {
                redirect_decision(attempt, max_redirects)
            }))
            .build()
            .map_err(FetchError::Client)?;
        Ok(Fetcher {
            client,
            opts: std::sync::Arc::new(opts),
        })
    }

    /// The options this fetcher was built with.
    pub fn options(&self) -> &FetchOptions {
        &self.opts
    }

    /// Fetches `url`: http(s) through the HTTP client, `file://` from disk.
    /// Plain local paths must first go through [`resolve_target`].
    pub async fn fetch(&self, url: &Url) -> Result<Page, FetchError> {
        match url.scheme() {
            "http" | "https" => {
                let total = self.opts.total_timeout;
                match tokio::time::timeout(total, self.fetch_http(url)).await {
                    Ok(result) => result,
                    Err(_elapsed) => Err(FetchError::Timeout {
                        url: url.clone(),
                        phase: TimeoutPhase::Total,
                        limit: total,
                    }),
                }
            }
            "file" => self.fetch_file(url).await,
            other => Err(FetchError::UnsupportedScheme {
                url: url.clone(),
                scheme: other.to_owned(),
            }),
        }
    }

    async fn fetch_http(&self, url: &Url) -> Result<Page, FetchError> {
        let mut response = self
            .client
            .get(url.clone())
            .send()
            .await
            .map_err(|e| self.request_error(url, e, TimeoutPhase::Response))?;

        let final_url = response.url().clone();
        let status = response.status();
        if !status.is_success() {
            return Err(FetchError::Status {
                status: status.as_u16(),
                url: final_url,
            });
        }
        let limit = self.opts.max_body_bytes;
        let too_large = || FetchError::TooLarge {
            url: url.clone(),
            limit,
        };
        // The header, not `response.content_length()`: the latter is unknown
        // for compressed bodies, while a compressed length over the cap means
        // the decompressed body is over it too.
        let declared_length = header(&response, reqwest::header::CONTENT_LENGTH)
            .and_then(|value| value.trim().parse::<u64>().ok());
        if declared_length.is_some_and(|len| len > limit) {
            return Err(too_large());
        }
        let content_type = header(&response, reqwest::header::CONTENT_TYPE);
        let etag = header(&response, reqwest::header::ETAG);
        let last_modified = header(&response, reqwest::header::LAST_MODIFIED);

        let capacity = declared_length.unwrap_or(0).min(limit).min(1 << 20);
        let mut bytes = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
        loop {
            let chunk = tokio::time::timeout(self.opts.read_timeout, response.chunk())
                .await
                .map_err(|_elapsed| FetchError::Timeout {
                    url: url.clone(),
                    phase: TimeoutPhase::Read,
                    limit: self.opts.read_timeout,
                })?
                .map_err(|e| self.request_error(url, e, TimeoutPhase::Read))?;
            let Some(chunk) = chunk else { break };
            if bytes.len() as u64 + chunk.len() as u64 > limit {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }

        let tld = final_url.domain().and_then(|d| d.rsplit('.').next());
        let decoded = decode::decode(&bytes, content_type.as_deref(), tld).map_err(|source| {
            FetchError::Decode {
                url: final_url.clone(),
                source,
            }
        })?;
        Ok(Page {
            final_url,
            status: status.as_u16(),
            content_type,
            bytes,
            text: decoded.text,
            encoding: decoded.encoding,
            etag,
            last_modified,
        })
    }

    async fn fetch_file(&self, url: &Url) -> Result<Page, FetchError> {
        let path = url.to_file_path().map_err(|()| FetchError::Target {
            arg: url.to_string(),
            reason: "not a local file path".into(),
        })?;
        let file_error = |source| FetchError::File {
            path: path.clone(),
            source,
        };
        let meta = tokio::fs::metadata(&path).await.map_err(file_error)?;
        if meta.len() > self.opts.max_body_bytes {
            return Err(FetchError::TooLarge {
                url: url.clone(),
                limit: self.opts.max_body_bytes,
            });
        }
        let bytes = tokio::fs::read(&path).await.map_err(file_error)?;
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

    /// Classifies a reqwest error; `phase` is what a timeout that is not a
    /// connect timeout was waiting for.
    fn request_error(&self, url: &Url, error: reqwest::Error, phase: TimeoutPhase) -> FetchError {
        let url = url.clone();
        // Looked up in the whole chain: reqwest may wrap the policy's error.
        if let Some(problem) = find_in_chain::<RedirectProblemError>(&error) {
            return FetchError::Redirects {
                url,
                problem: problem.0.clone(),
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
            FetchError::Connect { url, source: error }
        } else {
            FetchError::Network { url, source: error }
        }
    }
}

/// The redirect policy: stop on a loop or past the limit, otherwise follow.
fn redirect_decision(
    attempt: reqwest::redirect::Attempt<'_>,
    max_redirects: usize,
) -> reqwest::redirect::Action {
    // `previous` starts with the original URL, so it holds redirects + 1 URLs.
    if attempt.previous().contains(attempt.url()) {
        let at = Box::new(attempt.url().clone());
        attempt.error(RedirectProblemError(RedirectProblem::Loop { at }))
    } else if attempt.previous().len() > max_redirects {
        attempt.error(RedirectProblemError(RedirectProblem::TooMany {
            limit: max_redirects,
        }))
    } else {
        attempt.follow()
    }
}

/// Carries a [`RedirectProblem`] through reqwest's error chain.
#[derive(Debug)]
struct RedirectProblemError(RedirectProblem);

impl std::fmt::Display for RedirectProblemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for RedirectProblemError {}

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

fn header(response: &reqwest::Response, name: reqwest::header::HeaderName) -> Option<String> {
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

    #[tokio::test]
    async fn unsupported_scheme_is_rejected_by_fetch() {
        let fetcher = Fetcher::new(FetchOptions::default()).unwrap();
        let url = Url::parse("ftp://example.org/list").unwrap();
        let err = fetcher.fetch(&url).await.unwrap_err();
        assert!(err.to_string().contains("ftp://example.org/list"), "{err}");
    }
}
