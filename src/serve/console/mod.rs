//! The console at `/console` (only with `console = true`): paste a list
//! page URL (optionally headers and cookies), see the native feed the page
//! advertises, the ranked record groups as cards, and a `[[feed]]` block
//! for the chosen group; with `console_write = true`, "Add feed" appends
//! that block to `feeds.toml` and the daemon reloads.
//!
//! `block` builds and appends the `[[feed]]` block.
//!
//! Routes: `GET /console` (the form), `POST /console` (preview a URL, or
//! choose another group of a previewed page), `POST /console/add`.
//!
//! Invariants:
//! - The page is fetched like a feed's list page with the file's defaults
//!   (timeouts, size cap, user agent, politeness, proxy, robots.txt when
//!   the file says `robots = "all"`), but only over
//!   http(s) and to public addresses unless `allow_private_addresses =
//!   true`: the URL comes from a web form, not from the operator's file.
//! - Every POST needs the page's CSRF token and, when the browser says
//!   where the request comes from (`Origin`, `Sec-Fetch-Site`), the same
//!   origin. The bearer token (the server's middleware) covers every route.
//! - Header and cookie values never appear in a page: they stay in a
//!   server-side draft (bounded in number and age) named by a random
//!   handle; the block shown masks them, "Add feed" writes the real ones.
//! - Everything taken from the fetched page is escaped by the template;
//!   links and images are shown only when http(s). The response carries a
//!   CSP that allows the page's own `<style>` (by hash) and no script.
//! - "Add feed" edits the file with `toml_edit` (comments and layout
//!   kept), validates the whole new text as `check` does, and replaces the
//!   file atomically; an invalid result leaves the file untouched.

mod block;

use std::collections::HashMap;
use std::io::Read as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use minijinja::{Environment, context};
use sha2::{Digest, Sha256};
use tokio::sync::{Semaphore, mpsc, oneshot};
use url::Url;

use crate::commands::default_date_context;
use crate::config::{self, Feed};
use crate::extract::dom::Document;
use crate::fetch::{AddressPolicy, Fetcher};
use crate::pipeline::{ListPage, analyze_list, items_of_group};
use crate::publish::page::{content_security_policy, web_href};
use crate::publish::templates::TemplateError;
use crate::refresh::{Services, anyhow_like, list_fetch_options};
use block::{FeedSpec, append_feed, block_text, shown_url, suggested_id, unused_id};

/// The console page template (bundled; not user-overridable).
const CONSOLE_TEMPLATE: &str = include_str!("../../../templates/console.html");

/// Groups shown, and cards per group.
pub const CONSOLE_GROUPS: usize = 8;
pub const CONSOLE_CARDS: usize = 6;
/// Drafts (previewed pages) kept at once, and how long.
const MAX_DRAFTS: usize = 16;
const DRAFT_TTL: Duration = Duration::from_secs(30 * 60);
/// Previews analysed at once (mining is CPU work).
const MAX_PREVIEWS: usize = 2;
/// Largest form accepted.
const MAX_FORM_BYTES: usize = 64 * 1024;
/// Id given to the feed a preview is validated as.
const PREVIEW_ID: &str = "console-preview";

/// A reload request from the console: the daemon answers with the number
/// of feeds it now runs, or why it kept the old config.
pub type ReloadAck = oneshot::Sender<Result<usize, String>>;

/// Why the console could not start.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    #[error("cannot read random bytes for the console's CSRF token")]
    Random(#[source] std::io::Error),
    #[error(transparent)]
    Template(#[from] TemplateError),
}

/// The console's state, shared by its handlers.
pub struct Console {
    config_path: PathBuf,
    services: Services,
    write: bool,
    reload: mpsc::Sender<ReloadAck>,
    /// Longest a preview fetch, or the reload after "Add feed", may take
    /// (below the server's request timeout).
    fetch_budget: Duration,
    secret: [u8; 32],
    env: Environment<'static>,
    drafts: Mutex<Drafts>,
    previews: Semaphore,
    /// One "Add feed" at a time (read, edit, write the file).
    writing: tokio::sync::Mutex<()>,
}

/// What the user submitted for one page, and the page as fetched.
#[derive(Clone)]
struct Draft {
    url: Url,
    headers: Vec<(String, String)>,
    cookies: Option<String>,
    final_url: Url,
    html: Arc<String>,
    created: Instant,
}

#[derive(Default)]
struct Drafts {
    by_handle: HashMap<String, Draft>,
    counter: u64,
}

impl Console {
    /// A console editing `config_path`, fetching through `services`.
    pub fn new(
        config_path: PathBuf,
        services: Services,
        write: bool,
        reload: mpsc::Sender<ReloadAck>,
        request_timeout: Duration,
    ) -> Result<Console, ConsoleError> {
        let mut secret = [0u8; 32];
        std::fs::File::open("/dev/urandom")
            .and_then(|mut f| f.read_exact(&mut secret))
            .map_err(ConsoleError::Random)?;
        let (env, _) = crate::publish::templates::compile(
            "console",
            "console".into(),
            CONSOLE_TEMPLATE.to_string(),
        )?;
        Ok(Console {
            config_path,
            services,
            write,
            reload,
            fetch_budget: request_timeout
                .saturating_sub(Duration::from_secs(2))
                .max(Duration::from_secs(1)),
            secret,
            env,
            drafts: Mutex::default(),
            previews: Semaphore::new(MAX_PREVIEWS),
            writing: tokio::sync::Mutex::new(()),
        })
    }

    fn csrf_token(&self) -> String {
        hex(&Sha256::digest([&self.secret[..], b"csrf"].concat()))
    }

    fn drafts(&self) -> std::sync::MutexGuard<'_, Drafts> {
        match self.drafts.lock() {
            Ok(d) => d,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// Keep `draft`; returns its handle (unguessable: a hash of the secret
    /// and a counter).
    fn keep(&self, draft: Draft) -> String {
        let mut drafts = self.drafts();
        drafts
            .by_handle
            .retain(|_, d| d.created.elapsed() < DRAFT_TTL);
        if drafts.by_handle.len() >= MAX_DRAFTS
            && let Some(oldest) = drafts
                .by_handle
                .iter()
                .min_by_key(|(_, d)| d.created)
                .map(|(k, _)| k.clone())
        {
            drafts.by_handle.remove(&oldest);
        }
        drafts.counter += 1;
        let n = drafts.counter;
        let handle = hex(&Sha256::digest(
            [&self.secret[..], b"draft", &n.to_le_bytes()].concat(),
        ))[..32]
            .to_string();
        drafts.by_handle.insert(handle.clone(), draft);
        handle
    }

    fn draft(&self, handle: &str) -> Option<Draft> {
        self.drafts()
            .by_handle
            .get(handle)
            .filter(|d| d.created.elapsed() < DRAFT_TTL)
            .cloned()
    }
}

/// The console's routes (merged into the server's router).
pub fn router<S>(console: Arc<Console>) -> Router<S> {
    Router::new()
        .route("/console", get(form_page).post(preview))
        .route("/console/add", post(add))
        .layer(DefaultBodyLimit::max(MAX_FORM_BYTES))
        .with_state(console)
}

/// The form fields of a POST.
#[derive(Debug, Default)]
struct Fields(HashMap<String, String>);

impl Fields {
    fn parse(body: &[u8]) -> Fields {
        Fields(url::form_urlencoded::parse(body).into_owned().collect())
    }
    fn get(&self, name: &str) -> &str {
        self.0.get(name).map(String::as_str).unwrap_or("").trim()
    }
}

/// What the page shows above the results.
#[derive(Default)]
struct FormView {
    url: String,
    headers_text: String,
    cookies_set: bool,
    error: Option<String>,
}

async fn form_page(State(console): State<Arc<Console>>) -> Response {
    render(&console, StatusCode::OK, &FormView::default(), None)
}

/// `POST /console`: preview a URL, or show another group of a draft.
async fn preview(State(console): State<Arc<Console>>, headers: HeaderMap, body: Bytes) -> Response {
    let fields = Fields::parse(&body);
    if let Err(r) = check_post(&console, &headers, &fields) {
        return r;
    }
    let group: usize = fields.get("group").parse().unwrap_or(0);
    // Fetching and mining are bounded together: a few previews at once.
    let Ok(_permit) = console.previews.try_acquire() else {
        let view = FormView {
            url: fields.get("url").to_string(),
            error: Some("The console is busy with other previews; try again in a moment.".into()),
            ..FormView::default()
        };
        return render(&console, StatusCode::SERVICE_UNAVAILABLE, &view, None);
    };
    let (handle, draft) = match fields.get("draft") {
        "" => match new_draft(&console, &fields).await {
            Ok(d) => (console.keep(d.clone()), d),
            Err(view) => return render(&console, StatusCode::BAD_REQUEST, &view, None),
        },
        h => match console.draft(h) {
            Some(d) => (h.to_string(), d),
            None => return expired(&console),
        },
    };
    let view = FormView {
        url: shown_url(&draft.url),
        headers_text: draft
            .headers
            .iter()
            .map(|(k, _)| format!("{k}: "))
            .collect::<Vec<_>>()
            .join("\n"),
        cookies_set: draft.cookies.is_some(),
        error: None,
    };
    let analysed = {
        let draft = draft.clone();
        tokio::task::spawn_blocking(move || {
            let page = analyze_list(
                &draft.html,
                &draft.final_url,
                &Default::default(),
                &default_date_context(),
            );
            let natives = native_feeds(&page.doc, &page.base);
            (page, natives)
        })
        .await
    };
    let Ok((page, natives)) = analysed else {
        let view = FormView {
            error: Some("The page could not be analysed.".into()),
            ..view
        };
        return render(&console, StatusCode::INTERNAL_SERVER_ERROR, &view, None);
    };
    let result = result_view(&console, &handle, &draft, &page, &natives, group);
    render(&console, StatusCode::OK, &view, Some(result))
}

/// Validate the submitted URL, headers and cookies as a feed of the
/// current file would be, then fetch the page.
async fn new_draft(console: &Console, fields: &Fields) -> Result<Draft, FormView> {
    let mut view = FormView {
        url: fields.get("url").to_string(),
        headers_text: fields.get("headers").to_string(),
        cookies_set: false,
        error: None,
    };
    let fail = |mut view: FormView, msg: String| {
        view.error = Some(msg);
        view
    };
    let url = match Url::parse(fields.get("url")) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => u,
        Ok(u) => {
            return Err(fail(
                view,
                format!(
                    "Only http and https pages can be previewed, not {}:.",
                    u.scheme()
                ),
            ));
        }
        Err(e) => return Err(fail(view, format!("Not a URL: {e}."))),
    };
    let headers = match parse_headers(fields.get("headers")) {
        Ok(h) => h,
        Err(e) => return Err(fail(view, e)),
    };
    let cookies = Some(fields.get("cookies").to_string()).filter(|c| !c.is_empty());
    view.cookies_set = cookies.is_some();
    let spec = FeedSpec {
        id: PREVIEW_ID.into(),
        url: url.clone(),
        title: None,
        group: 1,
        headers: headers.clone(),
        cookies: cookies.clone(),
    };
    let feed = match feed_with_defaults(console, &spec) {
        Ok(f) => f,
        Err(e) => return Err(fail(view, e)),
    };
    let mut opts = list_fetch_options(&feed);
    opts.total_timeout = opts.total_timeout.min(console.fetch_budget);
    opts.address_policy = if feed.allow_private_addresses {
        AddressPolicy::AllowAll
    } else {
        AddressPolicy::PublicOnly
    };
    // A URL typed into a web form is not the operator's list page: no host
    // is trusted as written here.
    opts.trusted_host = None;
    let fetcher: Fetcher = match console.services.fetcher(opts) {
        Ok(f) => f,
        Err(e) => return Err(fail(view, anyhow_like(&e))),
    };
    if feed.robots == crate::config::RobotsPolicy::All
        && !console.services.robots.allowed(&fetcher, &url).await
    {
        let msg =
            format!("robots.txt of {url} disallows fetching it (the file says robots = \"all\").");
        return Err(fail(view, msg));
    }
    match fetcher.fetch(&url).await {
        Ok(page) => Ok(Draft {
            url,
            headers,
            cookies,
            final_url: page.final_url,
            html: Arc::new(page.text),
            created: Instant::now(),
        }),
        Err(e) => {
            let mut msg = anyhow_like(&e);
            if matches!(e, crate::fetch::FetchError::Blocked { .. }) {
                msg.push_str(" (the console fetches public addresses only; set allow_private_addresses = true in feeds.toml to allow others)");
            }
            Err(fail(view, msg))
        }
    }
}

/// `Name: value` lines (blank lines skipped).
fn parse_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(format!(
                "Header line {} has no colon: write it as Name: value.",
                n + 1
            ));
        };
        out.push((name.trim().to_string(), value.trim().to_string()));
    }
    Ok(out)
}

/// The feed a block would define, with everything else from the current
/// file: the file's text plus the block, validated as `check` does.
fn feed_with_defaults(console: &Console, spec: &FeedSpec) -> Result<Feed, String> {
    let text = std::fs::read_to_string(&console.config_path)
        .map_err(|e| format!("Cannot read {}: {e}.", console.config_path.display()))?;
    let spec = FeedSpec {
        id: unused_id(&text, &spec.id),
        ..spec.clone()
    };
    let new_text = append_feed(&text, &spec, false)?;
    let config = config::parse(&new_text, &console.config_path).map_err(|e| format!("{e:#}"))?;
    config
        .feeds
        .into_iter()
        .find(|f| f.id == spec.id)
        .ok_or_else(|| "The new feed did not validate.".to_string())
}

/// Feeds the page advertises: `<link rel="alternate">` with an RSS, Atom
/// or JSON Feed type, resolved against the page; http(s) only.
fn native_feeds(doc: &Document, base: &Url) -> Vec<(String, String, String)> {
    crate::extract::advertised::advertised_feeds(doc, base)
        .into_iter()
        .filter_map(|f| {
            let href = web_href(&f.url)?;
            Some((
                href,
                f.kind.media_type().to_string(),
                f.title.unwrap_or_default(),
            ))
        })
        .take(10)
        .collect()
}

impl FeedSpec {
    fn of(draft: &Draft, id: String, title: Option<String>, group: usize) -> FeedSpec {
        FeedSpec {
            id,
            url: draft.url.clone(),
            title,
            group,
            headers: draft.headers.clone(),
            cookies: draft.cookies.clone(),
        }
    }
}

/// The results part of the page.
fn result_view(
    console: &Console,
    handle: &str,
    draft: &Draft,
    page: &ListPage,
    natives: &[(String, String, String)],
    wanted: usize,
) -> minijinja::Value {
    let shown = page.detection.groups.len().min(CONSOLE_GROUPS);
    let winner = page.detection.winner().is_some();
    let chosen = if (1..=shown).contains(&wanted) {
        wanted
    } else {
        1
    };
    let dates = default_date_context();
    let css = crate::extract::selectors::CssDoc::new(&page.doc);
    let groups: Vec<minijinja::Value> = page
        .detection
        .groups
        .iter()
        .take(shown)
        .enumerate()
        .map(|(i, g)| {
            let cards: Vec<minijinja::Value> = items_of_group(&page.doc, g, &page.base, &dates)
                .iter()
                .take(CONSOLE_CARDS)
                .map(|it| {
                    context! {
                        title => &it.title,
                        link => it.link.as_ref().and_then(web_href),
                        date => it.date.map(|d| d.format("%Y-%m-%d %H:%M").to_string()),
                        summary => clip(&it.summary, 200),
                        image => it.image.as_ref().and_then(web_href),
                    }
                })
                .collect();
            context! {
                rank => i + 1,
                records => g.records.len(),
                coverage => format!("{:.2}", g.coverage),
                score => format!("{:.3}", g.score),
                dropped => g.dropped.map(|d| d.describe()),
                winner => i == 0 && winner,
                chosen => i + 1 == chosen,
                container => &g.selector,
                // A selector verified to pick exactly this group's records.
                selector => crate::extract::selectors::group_selector(&page.doc, &css, &g.records),
                cards => cards,
            }
        })
        .collect();
    let config_text = std::fs::read_to_string(&console.config_path).unwrap_or_default();
    let id = unused_id(&config_text, &suggested_id(&draft.url));
    let title = page.doc.title.clone().filter(|t| !t.trim().is_empty());
    let spec = FeedSpec::of(draft, id.clone(), title.clone(), chosen);
    let block = block_text(&spec);
    context! {
        draft => handle,
        final_url => shown_url(&draft.final_url),
        title => title.clone(),
        // Records from embedded data, or a page built by JavaScript.
        hint => page.hint(),
        natives => natives.iter().map(|(href, kind, t)| context! { href => href, type => kind, title => t }).collect::<Vec<_>>(),
        groups => groups,
        chosen => chosen,
        block_lines => block.lines().count() + 1,
        block => block,
        has_secrets => !draft.headers.is_empty() || draft.cookies.is_some() || draft.url.password().is_some(),
        write => console.write,
        id => id,
        feed_title => title,
    }
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// `POST /console/add`: append the chosen group's block, validate, write,
/// reload, then show the index.
async fn add(State(console): State<Arc<Console>>, headers: HeaderMap, body: Bytes) -> Response {
    if !console.write {
        return plain(
            StatusCode::FORBIDDEN,
            "adding feeds is off: set console_write = true in feeds.toml",
        );
    }
    let fields = Fields::parse(&body);
    if let Err(r) = check_post(&console, &headers, &fields) {
        return r;
    }
    let Some(draft) = console.draft(fields.get("draft")) else {
        return expired(&console);
    };
    let group: usize = fields.get("group").parse().unwrap_or(1).max(1);
    let title = Some(fields.get("title").to_string()).filter(|t| !t.is_empty());
    let spec = FeedSpec::of(&draft, fields.get("id").to_string(), title, group);
    let back = |error: String| FormView {
        url: shown_url(&draft.url),
        error: Some(error),
        ..FormView::default()
    };
    let written = {
        let _one = console.writing.lock().await;
        write_feed(&console, &spec)
    };
    if let Err(e) = written {
        return render(&console, StatusCode::BAD_REQUEST, &back(e), None);
    }
    tracing::info!(feed = %spec.id, "console: feed added to {}", console.config_path.display());
    let (tx, rx) = oneshot::channel();
    if console.reload.send(tx).await.is_err() {
        return render(
            &console,
            StatusCode::INTERNAL_SERVER_ERROR,
            &back("The feed was written, but the daemon is not running to load it.".into()),
            None,
        );
    }
    match tokio::time::timeout(console.fetch_budget, rx).await {
        Ok(Ok(Ok(_))) => {
            let target = format!("/#feed-{}", crate::publish::page::encode_segment(&spec.id));
            let mut r = StatusCode::SEE_OTHER.into_response();
            if let Ok(v) = HeaderValue::from_str(&target) {
                r.headers_mut().insert(header::LOCATION, v);
            }
            r
        }
        Ok(Ok(Err(e))) => render(
            &console,
            StatusCode::INTERNAL_SERVER_ERROR,
            &back(format!(
                "The feed was written, but the daemon kept its previous config: {e}"
            )),
            None,
        ),
        _ => render(
            &console,
            StatusCode::INTERNAL_SERVER_ERROR,
            &back("The feed was written; the daemon has not confirmed the reload yet.".into()),
            None,
        ),
    }
}

/// Append `spec` to the config file: edit, validate, replace atomically.
fn write_feed(console: &Console, spec: &FeedSpec) -> Result<(), String> {
    let path = &console.config_path;
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("Cannot read {}: {e}.", path.display()))?;
    let new_text = append_feed(&text, spec, false)?;
    config::parse(&new_text, path).map_err(|e| format!("The feed was not added: {e:#}"))?;
    crate::publish::write_atomically(path, new_text.as_bytes())
        .map_err(|e| format!("The feed was not added: {}", anyhow_like(&e)))
}

/// Same origin (when the browser says) and the CSRF token.
#[allow(clippy::result_large_err)]
fn check_post(console: &Console, headers: &HeaderMap, fields: &Fields) -> Result<(), Response> {
    let forbidden = |why: &str| plain(StatusCode::FORBIDDEN, why);
    if !same_origin(headers) {
        return Err(forbidden("cross-site request refused"));
    }
    let expected = console.csrf_token();
    let presented = fields.get("csrf");
    let equal = presented.len() == expected.len()
        && presented
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if !equal {
        return Err(forbidden(
            "missing or wrong form token: reload the console and try again",
        ));
    }
    Ok(())
}

/// `Sec-Fetch-Site` (when sent) must be same-origin or none, and `Origin`
/// (when sent) must name the host the request was sent to.
fn same_origin(headers: &HeaderMap) -> bool {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    if let Some(site) = text(header::HeaderName::from_static("sec-fetch-site"))
        && !matches!(site, "same-origin" | "none")
    {
        return false;
    }
    match (text(header::ORIGIN), text(header::HOST)) {
        (None, _) => true,
        (Some(origin), Some(host)) => Url::parse(origin).ok().is_some_and(|o| {
            let port = o.port().map(|p| format!(":{p}")).unwrap_or_default();
            o.host_str()
                .is_some_and(|h| format!("{h}{port}").eq_ignore_ascii_case(host))
        }),
        (Some(_), None) => false,
    }
}

fn expired(console: &Console) -> Response {
    let view = FormView {
        error: Some("That preview has expired: submit the URL again.".into()),
        ..FormView::default()
    };
    render(console, StatusCode::GONE, &view, None)
}

/// The console page with a strict policy.
fn render(
    console: &Console,
    status: StatusCode,
    view: &FormView,
    result: Option<minijinja::Value>,
) -> Response {
    let html = console.env.get_template("console").and_then(|t| {
        t.render(context! {
            csrf => console.csrf_token(),
            url => &view.url,
            headers_text => &view.headers_text,
            cookies_set => view.cookies_set,
            error => &view.error,
            result => result,
        })
    });
    let html: String = match html {
        Ok(h) => h,
        Err(e) => {
            tracing::error!("console page failed to render: {e}");
            return plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the console page could not be rendered",
            );
        }
    };
    let csp = content_security_policy(&html);
    let mut response = (status, html).into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Not `no-referrer`: with it, browsers send `Origin: null` on the
    // console's own form posts, which the same-origin check refuses.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    if let Ok(csp) = HeaderValue::from_str(&csp) {
        h.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    response
}

fn plain(status: StatusCode, text: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{text}\n"),
    )
        .into_response()
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_feeds_are_found_resolved_and_filtered() {
        let html = r#"<html><head>
            <link rel="alternate" type="application/rss+xml" href="/feed.xml" title="News">
            <link rel="Alternate stylesheet" type="application/atom+xml" href="https://x.example/atom">
            <link rel="alternate" type="text/html" href="/other">
            <link rel="alternate" type="application/feed+json" href="javascript:alert(1)">
            </head><body></body></html>"#;
        let doc = crate::extract::dom::parse(html);
        let base = Url::parse("https://town.example/news/").unwrap();
        let found = native_feeds(&doc, &base);
        assert_eq!(
            found,
            vec![
                (
                    "https://town.example/feed.xml".into(),
                    "application/rss+xml".into(),
                    "News".into()
                ),
                (
                    "https://x.example/atom".into(),
                    "application/atom+xml".into(),
                    String::new()
                ),
            ]
        );
    }

    #[test]
    fn cross_site_posts_are_refused() {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        assert!(same_origin(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:8080"),
        );
        assert!(same_origin(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://evil.example"),
        );
        assert!(!same_origin(&h));
        h.insert(
            header::ORIGIN,
            HeaderValue::from_static("http://127.0.0.1:8080"),
        );
        h.insert("sec-fetch-site", HeaderValue::from_static("cross-site"));
        assert!(!same_origin(&h));
    }

    #[test]
    fn header_lines_need_a_colon() {
        assert_eq!(
            parse_headers("X-A: 1\n\n Accept-Language : de \n").unwrap(),
            vec![
                ("X-A".into(), "1".into()),
                ("Accept-Language".into(), "de".into())
            ]
        );
        assert!(parse_headers("nocolon").unwrap_err().contains("line 1"));
    }
}
