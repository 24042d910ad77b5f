//! Pages rendered by the system's headless Chromium, driven through the
//! DevTools protocol (`chromiumoxide`), for feeds with `render =
//! "chromium"` and `preview --render`: load the page, let its scripts run
//! until the network goes quiet (or `wait_for` matches), take the DOM.
//!
//! Invariants:
//! - One browser process for the whole daemon, launched on first use from
//!   `chromium_path` or `PATH` (never downloaded), relaunched when it died;
//!   a fresh browser context (cookies, cache, storage) per page, disposed
//!   after; at most `render_concurrency` pages at once.
//! - Every request the page makes is paused and judged by the daemon's
//!   address policy before it may go on: only http(s) (and `data:`/`blob:`,
//!   which never touch the network), and outside the configured page's own
//!   host only names that are not internal by name and resolve to public
//!   addresses, unless the feed sets `allow_private_addresses`. Images,
//!   fonts and media are not loaded. The feed's headers and cookies go only
//!   to the page's origin.
//! - A render ends by the feed's timeout whatever the page does: a page
//!   that never goes quiet gives the DOM it has at the deadline; a page
//!   that hangs its renderer fails that feed, not the browser.
//!
//! Known limit: Chromium resolves names again after our check, so a name
//! whose DNS answer changes between the two (rebinding) is judged by the
//! first answer.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::fetch::{
    ContinueRequestParams, EventRequestPaused, FailRequestParams, HeaderEntry,
};
use chromiumoxide::cdp::browser_protocol::network::{ErrorReason, ResourceType};
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, CreateTargetParams,
};
use futures_util::StreamExt;
use thiserror::Error;
use tokio::sync::Semaphore;
use tokio::time::Instant;
use url::Url;

use crate::fetch::netguard::{self, Hop, PublicResolver, ResolveError};

/// Pages rendered at once by default (`render_concurrency`).
pub const DEFAULT_RENDER_CONCURRENCY: usize = 2;
/// The network is quiet when no request started for this long.
const QUIET: Duration = Duration::from_millis(500);
/// How often `wait_for` and quiet are checked.
const POLL: Duration = Duration::from_millis(100);
/// Names tried on `PATH` when `chromium_path` is not set.
const CHROMIUM_NAMES: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

/// Why a page could not be rendered. Messages name the page.
#[derive(Debug, Error)]
pub enum RenderError {
    #[error(
        "no Chromium to render {url} with: set `chromium_path` or install Debian's `chromium` package (looked for {searched})"
    )]
    NoChromium { url: Url, searched: String },
    #[error("could not start Chromium ({path}): {reason}")]
    Launch { path: PathBuf, reason: String },
    #[error("Chromium could not render {url}: {reason}")]
    Page { url: Url, reason: String },
    #[error("refused to load {url} in the browser: {reason}")]
    Blocked { url: Url, reason: String },
    #[error("rendering {url} did not finish within {limit:?}")]
    Timeout { url: Url, limit: Duration },
}

/// What one render needs to know about its feed.
#[derive(Debug, Clone)]
pub struct RenderRequest {
    pub url: Url,
    /// The whole render's bound (the feed's `timeout`).
    pub timeout: Duration,
    /// Wait until this CSS selector matches (else until the network is
    /// quiet).
    pub wait_for: Option<String>,
    /// `allow_private_addresses`: every host may be any address.
    pub allow_private: bool,
    /// The feed's headers (and `Cookie`), sent to the page's origin only.
    pub headers: Vec<(String, String)>,
    pub user_agent: String,
}

/// The rendered DOM.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub final_url: Url,
    pub html: String,
    /// Requests the address policy refused, as `url: reason` (at most 20).
    pub refused: Vec<String>,
    /// The page never went quiet: the DOM is the one at the deadline.
    pub unquiet: bool,
}

impl Rendered {
    /// The rendered DOM as a page the pipeline reads like a fetched one
    /// (UTF-8 text, no validators: a render is never conditional).
    pub fn into_page(self) -> crate::fetch::Page {
        crate::fetch::Page {
            final_url: self.final_url,
            status: 200,
            content_type: Some("text/html; charset=utf-8".into()),
            bytes: Vec::new(),
            text: self.html,
            encoding: encoding_rs::UTF_8,
            etag: None,
            last_modified: None,
        }
    }
}

struct Running {
    browser: Arc<Browser>,
    pid: Option<u32>,
    handler: tokio::task::JoinHandle<()>,
    _profile: tempfile::TempDir,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.handler.abort();
    }
}

/// The shared browser (see the module header).
pub struct Renderer {
    path: Option<PathBuf>,
    running: tokio::sync::Mutex<Option<Running>>,
    slots: Semaphore,
}

impl Renderer {
    /// A renderer using `path` (else Chromium found on `PATH`), rendering
    /// at most `concurrency` pages at once. Nothing starts until used.
    pub fn new(path: Option<PathBuf>, concurrency: usize) -> Renderer {
        Renderer {
            path,
            running: tokio::sync::Mutex::new(None),
            slots: Semaphore::new(concurrency.max(1)),
        }
    }

    /// The browser binary: the configured path, else the first of
    /// [`CHROMIUM_NAMES`] on `PATH`.
    pub fn chromium(&self) -> Option<PathBuf> {
        match &self.path {
            Some(p) => p.is_file().then(|| p.clone()),
            None => find_on_path(&CHROMIUM_NAMES),
        }
    }

    /// The process id of the running browser, if one runs.
    pub async fn browser_pid(&self) -> Option<u32> {
        self.running.lock().await.as_ref().and_then(|r| r.pid)
    }

    /// Stop the browser (it is started again by the next render).
    pub async fn shutdown(&self) {
        if let Some(mut running) = self.running.lock().await.take()
            && let Some(browser) = Arc::get_mut(&mut running.browser)
        {
            let _ = browser.close().await;
            let _ = browser.wait().await;
        }
    }

    /// A fresh browser context; a browser that no longer answers (it died,
    /// or was killed) is replaced once.
    async fn context(
        &self,
        url: &Url,
    ) -> Result<
        (
            Arc<Browser>,
            chromiumoxide::cdp::browser_protocol::browser::BrowserContextId,
        ),
        RenderError,
    > {
        let browser = self.browser(url).await?;
        match browser
            .create_browser_context(CreateBrowserContextParams::default())
            .await
        {
            Ok(context) => Ok((browser, context)),
            Err(first) => {
                tracing::warn!("the browser does not answer ({first}); starting it again");
                self.running.lock().await.take();
                let browser = self.browser(url).await?;
                let context = browser
                    .create_browser_context(CreateBrowserContextParams::default())
                    .await
                    .map_err(|e| page_error(url, e))?;
                Ok((browser, context))
            }
        }
    }

    /// The running browser, launched or relaunched as needed.
    async fn browser(&self, url: &Url) -> Result<Arc<Browser>, RenderError> {
        let mut running = self.running.lock().await;
        if let Some(r) = running.as_ref()
            && !r.handler.is_finished()
            && r.pid.is_none_or(process_alive)
        {
            return Ok(r.browser.clone());
        }
        *running = None;
        let path = self.chromium().ok_or_else(|| RenderError::NoChromium {
            url: url.clone(),
            searched: match &self.path {
                Some(p) => p.display().to_string(),
                None => format!("{} on PATH", CHROMIUM_NAMES.join(", ")),
            },
        })?;
        let launched = launch(&path).await?;
        let browser = launched.browser.clone();
        *running = Some(launched);
        Ok(browser)
    }

    /// Render `req.url` (see the module header).
    pub async fn render(&self, req: &RenderRequest) -> Result<Rendered, RenderError> {
        let deadline = Instant::now() + req.timeout;
        let timeout = || RenderError::Timeout {
            url: req.url.clone(),
            limit: req.timeout,
        };
        let _slot = tokio::time::timeout_at(deadline, self.slots.acquire())
            .await
            .map_err(|_| timeout())?
            .map_err(|e| page_error(&req.url, e))?;
        let (browser, context) = tokio::time::timeout_at(deadline, self.context(&req.url))
            .await
            .map_err(|_| timeout())??;
        let result =
            tokio::time::timeout_at(deadline, render_in(&browser, &context, req, deadline))
                .await
                .map_err(|_| timeout())
                .and_then(|r| r);
        // Closes the context's pages too; a dead browser is relaunched next time.
        let _ = browser.dispose_browser_context(context).await;
        result
    }
}

fn page_error(url: &Url, e: impl std::fmt::Display) -> RenderError {
    RenderError::Page {
        url: url.clone(),
        reason: e.to_string(),
    }
}

/// Is process `pid` running (not gone, not a zombie)? Linux's `/proc`;
/// elsewhere assumed alive (the connection's failure then tells).
fn process_alive(pid: u32) -> bool {
    if !Path::new("/proc/self/stat").exists() {
        return true;
    }
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat.rsplit_once(") ")?.1.chars().next()?;
            Some(state != 'Z' && state != 'X')
        })
        .unwrap_or(false)
}

fn find_on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

async fn launch(path: &Path) -> Result<Running, RenderError> {
    let fail = |reason: String| RenderError::Launch {
        path: path.to_path_buf(),
        reason,
    };
    let profile = tempfile::tempdir().map_err(|e| fail(format!("no temporary profile: {e}")))?;
    let config = BrowserConfig::builder()
        .chrome_executable(path)
        .user_data_dir(profile.path())
        .no_sandbox()
        .enable_request_intercept()
        .window_size(1280, 900)
        .args([
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
            "--disable-breakpad",
            "--metrics-recording-only",
            "--mute-audio",
            "--no-proxy-server",
            "--blink-settings=imagesEnabled=false",
        ])
        .launch_timeout(Duration::from_secs(30))
        .request_timeout(Duration::from_secs(30))
        .build()
        .map_err(fail)?;
    let (mut browser, mut handler) = Browser::launch(config)
        .await
        .map_err(|e| fail(e.to_string()))?;
    let pid = browser.get_mut_child().and_then(|c| c.inner.id());
    // Messages it cannot read are logged by the crate itself; an error
    // here is the connection to the browser failing: the browser is gone.
    let handler = tokio::spawn(async move {
        while let Some(event) = handler.next().await {
            if event.is_err() {
                break;
            }
        }
    });
    Ok(Running {
        browser: Arc::new(browser),
        pid,
        handler,
        _profile: profile,
    })
}

/// What the request watcher saw, shared with the render.
#[derive(Debug, Default)]
struct Watch {
    last_request: Option<Instant>,
    refused: Vec<String>,
    /// The main document itself was refused: why.
    document_refused: Option<String>,
}

async fn render_in(
    browser: &Browser,
    context: &chromiumoxide::cdp::browser_protocol::browser::BrowserContextId,
    req: &RenderRequest,
    deadline: Instant,
) -> Result<Rendered, RenderError> {
    let url = &req.url;
    let params = CreateTargetParams::builder()
        .url("about:blank")
        .browser_context_id(context.clone())
        .build()
        .map_err(|e| page_error(url, e))?;
    let page = browser
        .new_page(params)
        .await
        .map_err(|e| page_error(url, e))?;
    let _ = page.set_user_agent(req.user_agent.as_str()).await;
    let watch = Arc::new(Mutex::new(Watch::default()));
    let mut paused = page
        .event_listener::<EventRequestPaused>()
        .await
        .map_err(|e| page_error(url, e))?;
    let judge_page = page.clone();
    let policy = Policy::for_request(req);
    let judged = watch.clone();
    let watcher = tokio::spawn(async move {
        while let Some(ev) = paused.next().await {
            let verdict = policy.judge(&ev).await;
            note(&judged, &ev, &verdict);
            let _ = match verdict {
                Ok(headers) => {
                    let mut cont = ContinueRequestParams::new(ev.request_id.clone());
                    cont.headers = headers;
                    judge_page.execute(cont).await.map(|_| ())
                }
                Err(_) => judge_page
                    .execute(FailRequestParams::new(
                        ev.request_id.clone(),
                        ErrorReason::BlockedByClient,
                    ))
                    .await
                    .map(|_| ()),
            };
        }
    });
    let loaded = page.goto(url.as_str()).await;
    let outcome = match loaded {
        Err(e) => Err(match lock(&watch).document_refused.clone() {
            Some(reason) => RenderError::Blocked {
                url: url.clone(),
                reason,
            },
            None => page_error(url, e),
        }),
        // Leave time to read the DOM of a page that never goes quiet.
        Ok(_) => {
            let reserve = (req.timeout / 4).min(Duration::from_secs(1));
            settle_and_read(&page, req, &watch, deadline - reserve).await
        }
    };
    watcher.abort();
    let _ = page.close().await;
    outcome
}

fn lock(watch: &Mutex<Watch>) -> std::sync::MutexGuard<'_, Watch> {
    watch.lock().unwrap_or_else(|p| p.into_inner())
}

fn note(
    watch: &Mutex<Watch>,
    ev: &EventRequestPaused,
    verdict: &Result<Option<Vec<HeaderEntry>>, String>,
) {
    let mut w = lock(watch);
    w.last_request = Some(Instant::now());
    if let Err(reason) = verdict {
        if ev.resource_type == ResourceType::Document && w.document_refused.is_none() {
            w.document_refused = Some(reason.clone());
        }
        let media = matches!(
            ev.resource_type,
            ResourceType::Image | ResourceType::Media | ResourceType::Font
        );
        if !media && w.refused.len() < 20 {
            w.refused.push(format!(
                "{}: {reason}",
                crate::fetch::redact::redact_text(&ev.request.url)
            ));
        }
    }
}

/// Wait for `wait_for` or quiet (never past `deadline`), then read.
async fn settle_and_read(
    page: &chromiumoxide::Page,
    req: &RenderRequest,
    watch: &Mutex<Watch>,
    deadline: Instant,
) -> Result<Rendered, RenderError> {
    let mut unquiet = true;
    while Instant::now() + POLL < deadline {
        tokio::time::sleep(POLL).await;
        let ready = match &req.wait_for {
            Some(sel) => page.find_element(sel.as_str()).await.is_ok(),
            None => lock(watch)
                .last_request
                .is_none_or(|t| t.elapsed() >= QUIET),
        };
        if ready {
            unquiet = false;
            break;
        }
    }
    let html = page.content().await.map_err(|e| page_error(&req.url, e))?;
    let final_url = page
        .url()
        .await
        .ok()
        .flatten()
        .and_then(|u| Url::parse(&u).ok())
        .unwrap_or_else(|| req.url.clone());
    let refused = lock(watch).refused.clone();
    Ok(Rendered {
        final_url,
        html,
        refused,
        unquiet,
    })
}

/// The address policy inside the browser (see the module header).
#[derive(Debug, Clone)]
struct Policy {
    /// The configured page itself is always loaded (a local file too).
    page: Url,
    origin: url::Origin,
    allow_private: bool,
    headers: Vec<(String, String)>,
    resolver: PublicResolver,
}

impl Policy {
    fn for_request(req: &RenderRequest) -> Policy {
        Policy {
            page: req.url.clone(),
            origin: req.url.origin(),
            allow_private: req.allow_private,
            headers: req.headers.clone(),
            resolver: PublicResolver::new(Vec::new()),
        }
    }

    /// `Ok(headers to send instead of the page's, if any)` or why not.
    async fn judge(&self, ev: &EventRequestPaused) -> Result<Option<Vec<HeaderEntry>>, String> {
        if matches!(
            ev.resource_type,
            ResourceType::Image | ResourceType::Media | ResourceType::Font
        ) {
            return Err("images, fonts and media are not loaded".into());
        }
        let url = Url::parse(&ev.request.url).map_err(|e| format!("not a URL: {e}"))?;
        if url == self.page && ev.resource_type == ResourceType::Document {
            return Ok(self.origin_headers(ev));
        }
        match url.scheme() {
            "data" | "blob" => return Ok(None),
            "http" | "https" => {}
            other => return Err(format!("the {other}: scheme is not fetched")),
        }
        if url.origin() == self.origin {
            return Ok(self.origin_headers(ev));
        }
        if !self.allow_private {
            self.public_only(&url).await?;
        }
        Ok(None)
    }

    async fn public_only(&self, url: &Url) -> Result<(), String> {
        netguard::check_url(url, Hop::Request).map_err(|r| r.to_string())?;
        netguard::check_name(url).map_err(|r| r.to_string())?;
        let host = url.host_str().unwrap_or_default();
        if url
            .host()
            .is_some_and(|h| matches!(h, url::Host::Domain(_)))
        {
            match self.resolver.lookup(host).await {
                Ok(_) => {}
                Err(ResolveError::Blocked(reason)) => return Err(reason.to_string()),
                Err(e) => return Err(e.to_string()),
            }
        }
        Ok(())
    }

    /// The page's own headers plus the feed's (which win), for a request
    /// to the page's origin; `None` when the feed has none.
    fn origin_headers(&self, ev: &EventRequestPaused) -> Option<Vec<HeaderEntry>> {
        if self.headers.is_empty() {
            return None;
        }
        let mut out: Vec<HeaderEntry> = ev
            .request
            .headers
            .inner()
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| !self.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case(k)))
            .filter_map(|(k, v)| v.as_str().map(|v| HeaderEntry::new(k.clone(), v)))
            .collect();
        out.extend(
            self.headers
                .iter()
                .map(|(k, v)| HeaderEntry::new(k.clone(), v.clone())),
        );
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_alive_until_it_exits() {
        assert!(process_alive(std::process::id()));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert!(!process_alive(pid));
    }

    #[test]
    fn chromium_is_looked_up_on_path_by_its_usual_names() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(find_on_path(&["no-such-browser-here"]), None);
        let missing = Renderer::new(Some(dir.path().join("chromium")), 2);
        assert_eq!(missing.chromium(), None);
        let fake = dir.path().join("chromium");
        std::fs::write(&fake, "").unwrap();
        assert_eq!(missing.chromium(), Some(fake));
    }
}
