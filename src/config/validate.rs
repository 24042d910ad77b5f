//! Stage two of the config: [`RawConfig`] → [`Config`]. Each setting is
//! checked by a named step; every step reports into one [`Issues`] list, so
//! a file's problems are all reported at once, each with the feed, the
//! field and the line.
//!
//! Invariant: a step that finds a problem records it and returns a default
//! (or `None`), so later steps still run and report their own problems.

use std::collections::{BTreeMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::Duration;

use toml::Spanned;
use url::Url;

use super::raw::{RawBodies, RawConfig, RawFeed, RawMining, RawSelect};
use super::{
    BodySettings, Config, ConfigIssue, DEFAULT_MAX_AGE, DEFAULT_MAX_ITEMS, DEFAULT_OUTPUT_DIR,
    DEFAULT_SCHEDULE, DEFAULT_STATE_FILE, DaemonLimits, Feed, MAX_FEED_ID_LEN, MAX_PAGES,
    RenderSettings, RobotsPolicy, Source, config_hash, line_of, parse_duration, table_range,
};
use crate::extract::patterns::{MiningParams, Mode};
use crate::extract::selectors::{self, ListChoice, SelectSpec};
use crate::fetch::FetchOptions;
use crate::publish::feed::Format;
use crate::schedule::Schedule;
use crate::state::StateLocation;

/// The problems found so far, and the text they are located in.
pub(super) struct Issues<'t> {
    text: &'t str,
    list: Vec<ConfigIssue>,
}

impl<'t> Issues<'t> {
    fn new(text: &'t str) -> Self {
        Issues {
            text,
            list: Vec::new(),
        }
    }

    /// Line of a span's start.
    fn line(&self, span: Range<usize>) -> Option<usize> {
        Some(line_of(self.text, span.start))
    }

    fn push(&mut self, feed: Option<&str>, field: &str, line: Option<usize>, message: String) {
        self.list.push(ConfigIssue {
            feed: feed.map(str::to_string),
            field: field.to_string(),
            line,
            message,
        });
    }

    /// Record a problem located at `value`'s span.
    fn at<T>(&mut self, feed: Option<&str>, field: &str, value: &Spanned<T>, message: String) {
        let line = self.line(value.span());
        self.push(feed, field, line, message);
    }
}

/// What the file's global part gives every feed.
struct Globals {
    base_dir: PathBuf,
    fetch: FetchOptions,
    schedule: (String, Option<usize>),
    timezone: chrono_tz::Tz,
    mining: MiningParams,
    /// Hash input shared by every feed (see [`shared_hash_input`]).
    shared_hash: String,
}

/// Validate a parsed file.
pub(super) fn validate(
    raw: RawConfig,
    text: &str,
    path: &Path,
) -> Result<Config, Vec<ConfigIssue>> {
    let mut issues = Issues::new(text);
    let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let output_dir = base_dir.join(
        raw.output_dir
            .as_ref()
            .map_or(DEFAULT_OUTPUT_DIR, |o| o.get_ref().as_str()),
    );
    let public_url = public_url(&raw, &mut issues);
    let (item_template, item_template_source) = item_template(&raw, &base_dir, &mut issues);
    let index_template = template_file(
        "index_template",
        &raw.index_template,
        &base_dir,
        &mut issues,
    );
    let stylesheet = template_file("stylesheet", &raw.stylesheet, &base_dir, &mut issues);
    let page_template = template_file("page_template", &raw.page_template, &base_dir, &mut issues);
    if let Err(e) = crate::publish::templates::Templates::load(
        None,
        index_template.as_deref(),
        stylesheet.as_deref(),
    ) {
        issues.push(None, "index_template", None, e.to_string());
    }
    if let Some(page) = page_template.as_deref()
        && let Err(e) = crate::publish::page::PageTemplate::from_file(page)
    {
        issues.push(None, "page_template", None, e.to_string());
    }
    let state = state_location(raw.state.as_ref(), &base_dir, &output_dir, &mut issues);
    let listen = listen(&raw, &mut issues);
    let bearer_token = bearer_token(raw.bearer_token.as_deref(), &mut issues);
    console_switches(&raw, bearer_token.is_some(), &mut issues);
    let limits = limits(&raw, &mut issues);
    let chromium_path = raw
        .chromium_path
        .as_ref()
        .map(|p| base_dir.join(p.get_ref()));
    let globals = globals(&raw, base_dir, &item_template_source, &mut issues);
    if raw.feed.is_empty() {
        issues.push(
            None,
            "feed",
            None,
            "no [[feed]] tables: nothing to do".into(),
        );
    }
    let feeds = feeds(&raw, &globals, &mut issues);
    if !issues.list.is_empty() {
        return Err(issues.list);
    }
    Ok(Config {
        path: path.to_path_buf(),
        output_dir,
        public_url,
        item_template,
        index_template,
        stylesheet,
        page_template,
        console: raw.console.unwrap_or(false),
        console_write: raw.console_write.unwrap_or(false),
        state,
        listen,
        bearer_token,
        limits,
        chromium_path,
        feeds,
    })
}

/// An error with its causes, `a: b: c` (minijinja puts the useful part,
/// such as which include failed, in the source).
fn anyhow_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cur = c.source();
    }
    out
}

/// The state: `FEEDMINE_STATE`, else `state`, else `feedmine.db` beside
/// the output directory. A bad PostgreSQL URL is an issue whose text never
/// holds the URL's password.
fn state_location(
    from_file: Option<&Spanned<String>>,
    base_dir: &Path,
    output_dir: &Path,
    issues: &mut Issues<'_>,
) -> StateLocation {
    let default = || {
        let dir = output_dir
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        StateLocation::Sqlite(dir.join(DEFAULT_STATE_FILE))
    };
    let env = std::env::var("FEEDMINE_STATE").ok();
    let (field, value, line) = match (&env, from_file) {
        (Some(v), _) if v.trim().is_empty() => {
            let msg = "the FEEDMINE_STATE environment variable is set but empty: give it a \
                       file or a postgres:// URL, or unset it to use `state` from this file";
            issues.push(None, "FEEDMINE_STATE", None, msg.into());
            return default();
        }
        (Some(v), _) => ("FEEDMINE_STATE", v.as_str(), None),
        (None, Some(v)) => ("state", v.get_ref().as_str(), issues.line(v.span())),
        (None, None) => return default(),
    };
    StateLocation::parse(value, base_dir).unwrap_or_else(|e| {
        issues.push(None, field, line, e.to_string());
        default()
    })
}

/// The server's token: `FEEDMINE_TOKEN`, else `bearer_token`. A token set
/// but empty is an error, never a silent "no auth".
fn bearer_token(from_file: Option<&str>, issues: &mut Issues<'_>) -> Option<String> {
    let env = std::env::var("FEEDMINE_TOKEN").ok();
    if env.as_deref().is_some_and(|t| t.trim().is_empty()) {
        let msg = "the FEEDMINE_TOKEN environment variable is set but empty: give it the \
                   token, or unset it to use bearer_token from this file";
        issues.push(None, "FEEDMINE_TOKEN", None, msg.into());
        return None;
    }
    if env.is_none() && from_file.is_some_and(|t| t.trim().is_empty()) {
        let msg = "is empty: remove it to serve without a token, or give it one";
        issues.push(None, "bearer_token", None, msg.into());
        return None;
    }
    env.or_else(|| from_file.map(str::to_owned))
}

/// `public_url`: an http(s) URL, normalised to end in `/`.
fn public_url(raw: &RawConfig, issues: &mut Issues<'_>) -> Option<Url> {
    let u = raw.public_url.as_ref()?;
    match Url::parse(u.get_ref()) {
        Ok(mut url) if matches!(url.scheme(), "http" | "https") => {
            if !url.path().ends_with('/') {
                let p = format!("{}/", url.path());
                url.set_path(&p);
            }
            Some(url)
        }
        Ok(_) => {
            issues.at(None, "public_url", u, "must be an http(s) URL".into());
            None
        }
        Err(e) => {
            issues.at(None, "public_url", u, format!("not a URL: {e}"));
            None
        }
    }
}

/// `item_template`: compiled, with its source (part of every feed's hash).
fn item_template(
    raw: &RawConfig,
    base_dir: &Path,
    issues: &mut Issues<'_>,
) -> (crate::publish::templates::ItemTemplate, String) {
    use crate::publish::templates::ItemTemplate;
    let Some(t) = &raw.item_template else {
        return (ItemTemplate::default(), String::new());
    };
    let path = base_dir.join(t.get_ref());
    let mut source = String::new();
    let compiled = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
        .and_then(|src| {
            source = src.clone();
            ItemTemplate::new(src).map_err(|e| e.to_string())
        })
        .and_then(|t| {
            t.check_renders()
                .map(|()| t)
                .map_err(|e| format!("{} (rendering a sample item)", anyhow_chain(&e)))
        });
    match compiled {
        Ok(c) => (c, source),
        Err(m) => {
            issues.at(None, "item_template", t, m);
            (ItemTemplate::default(), source)
        }
    }
}

/// A template override path that must name a readable file.
fn template_file(
    field: &str,
    value: &Option<Spanned<String>>,
    base_dir: &Path,
    issues: &mut Issues<'_>,
) -> Option<PathBuf> {
    let v = value.as_ref()?;
    let p = base_dir.join(v.get_ref());
    if !p.is_file() {
        issues.at(
            None,
            field,
            v,
            format!("{} is not a readable file", p.display()),
        );
        return None;
    }
    Some(p)
}

/// `console_write` needs the console, and a bearer token: a page that
/// rewrites the config must not be open to anyone who reaches the port.
fn console_switches(raw: &RawConfig, has_token: bool, issues: &mut Issues<'_>) {
    if raw.console_write != Some(true) {
        return;
    }
    if raw.console != Some(true) {
        let msg = "needs `console = true`".to_string();
        issues.push(None, "console_write", None, msg);
    }
    if !has_token {
        let msg = "needs a bearer_token (or FEEDMINE_TOKEN): adding feeds from a web page must be authenticated".to_string();
        issues.push(None, "console_write", None, msg);
    }
}

/// `listen`: a socket address.
fn listen(raw: &RawConfig, issues: &mut Issues<'_>) -> Option<std::net::SocketAddr> {
    let l = raw.listen.as_ref()?;
    match l.get_ref().trim().parse::<std::net::SocketAddr>() {
        Ok(a) => Some(a),
        Err(e) => {
            let msg = format!(
                "{:?} is not an address like 127.0.0.1:8080: {e}",
                l.get_ref()
            );
            issues.at(None, "listen", l, msg);
            None
        }
    }
}

/// The daemon-wide limits: concurrency, host pacing and backoff.
fn limits(raw: &RawConfig, issues: &mut Issues<'_>) -> DaemonLimits {
    let mut limits = DaemonLimits::default();
    for (name, value, slot) in [
        ("concurrency", &raw.concurrency, &mut limits.concurrency),
        (
            "host_concurrency",
            &raw.host_concurrency,
            &mut limits.host_concurrency,
        ),
        (
            "memory_budget_mib",
            &raw.memory_budget_mib,
            &mut limits.memory_budget_mib,
        ),
        (
            "render_concurrency",
            &raw.render_concurrency,
            &mut limits.render_concurrency,
        ),
    ] {
        if let Some(v) = value {
            if *v.get_ref() == 0 {
                issues.at(None, name, v, "must be at least 1".into());
            } else {
                *slot = *v.get_ref();
            }
        }
    }
    for (name, value, slot) in [
        ("host_delay", &raw.host_delay, &mut limits.host_delay),
        ("backoff_base", &raw.backoff_base, &mut limits.backoff_base),
        ("backoff_max", &raw.backoff_max, &mut limits.backoff_max),
        ("lease_time", &raw.lease_time, &mut limits.lease_time),
    ] {
        if let Some(v) = value {
            match parse_duration(v.get_ref()) {
                Ok(d) => *slot = d,
                Err(m) => issues.at(None, name, v, m),
            }
        }
    }
    if limits.lease_time < Duration::from_secs(2) {
        let line = raw.lease_time.as_ref().and_then(|v| issues.line(v.span()));
        let msg = "must be at least 2s (the holder renews it every third of it)".to_string();
        issues.push(None, "lease_time", line, msg);
    }
    if limits.backoff_max < limits.backoff_base {
        let line = raw.backoff_max.as_ref().and_then(|v| issues.line(v.span()));
        issues.push(
            None,
            "backoff_max",
            line,
            "must not be shorter than backoff_base".into(),
        );
    }
    limits
}

/// The defaults the global part gives every feed.
fn globals(
    raw: &RawConfig,
    base_dir: PathBuf,
    item_template_source: &str,
    issues: &mut Issues<'_>,
) -> Globals {
    let mut fetch = FetchOptions::default();
    apply_fetch(
        &mut fetch,
        FetchOverrides {
            user_agent: raw.user_agent.as_ref(),
            timeout: raw.timeout.as_ref(),
            max_body_bytes: raw.max_body_bytes,
        },
        None,
        issues,
    );
    let schedule = raw
        .schedule
        .as_ref()
        .map(|s| (s.get_ref().clone(), issues.line(s.span())))
        .unwrap_or((DEFAULT_SCHEDULE.to_string(), None));
    let timezone = raw
        .timezone
        .as_ref()
        .and_then(|tz| parse_tz(tz, None, issues))
        .unwrap_or(chrono_tz::UTC);
    let mut mining = MiningParams::default();
    if let Some(m) = &raw.mining {
        let line = issues.line(m.span());
        apply_mining(&mut mining, m.get_ref(), None, line, issues);
    }
    Globals {
        base_dir,
        fetch,
        schedule,
        timezone,
        mining,
        shared_hash: shared_hash_input(raw, issues.text, item_template_source),
    }
}

/// Hash input shared by every feed: the file without its `[[feed]]` tables,
/// plus the item template's source.
fn shared_hash_input(raw: &RawConfig, text: &str, item_template_source: &str) -> String {
    let mut shared = String::new();
    let mut cursor = 0;
    for f in &raw.feed {
        let table = table_range(text, f.span().start);
        shared.push_str(text.get(cursor..table.start).unwrap_or(""));
        cursor = table.end.max(cursor);
    }
    shared.push_str(text.get(cursor..).unwrap_or(""));
    shared.push_str(item_template_source);
    shared
}

/// Every `[[feed]]` table; ids must be unique.
fn feeds(raw: &RawConfig, globals: &Globals, issues: &mut Issues<'_>) -> Vec<Feed> {
    // Ids name output files: unique ignoring case, since `News.xml` and
    // `news.xml` are one file on case-insensitive filesystems.
    let mut ids = HashSet::new();
    let mut feeds = Vec::new();
    for f in &raw.feed {
        let table = FeedTable {
            raw: f.get_ref(),
            line: line_of(issues.text, f.span().start),
            span: table_range(issues.text, f.span().start),
        };
        let id = table.raw.id.get_ref().trim().to_string();
        if feed_id_ok(&id, &table, issues) && !ids.insert(id.to_ascii_lowercase()) {
            let msg = "duplicate feed id (ids must differ in more than letter case)";
            issues.at(Some(&id), "id", &table.raw.id, msg.into());
        }
        if let Some(feed) = feed(id, &table, raw, globals, issues) {
            feeds.push(feed);
        }
    }
    feeds
}

/// One `[[feed]]` table with where it stands in the file.
struct FeedTable<'a> {
    raw: &'a RawFeed,
    /// Line of the `[[feed]]` header.
    line: usize,
    /// Bytes of the whole table.
    span: Range<usize>,
}

/// Is `id` a safe file name: 1 to [`MAX_FEED_ID_LEN`] characters from
/// `A-Z a-z 0-9 - _ .`, not starting with `.`? Reports when not.
fn feed_id_ok(id: &str, table: &FeedTable<'_>, issues: &mut Issues<'_>) -> bool {
    let ok = !id.is_empty()
        && id.len() <= MAX_FEED_ID_LEN
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        && !id.starts_with('.');
    if !ok {
        let shown: String = id.chars().take(40).collect();
        let msg = format!(
            "{shown:?}{}: an id must have 1 to {MAX_FEED_ID_LEN} characters from A-Z a-z 0-9 - _ . \
             and not start with a dot (it names the output files)",
            if id.chars().count() > 40 { "…" } else { "" }
        );
        issues.at(Some(&shown), "id", &table.raw.id, msg);
    }
    ok
}

/// One validated feed, or `None` when its URL or schedule is unusable
/// (the problems are in `issues`).
fn feed(
    id: String,
    table: &FeedTable<'_>,
    raw: &RawConfig,
    globals: &Globals,
    issues: &mut Issues<'_>,
) -> Option<Feed> {
    let f = table.raw;
    let fid = Some(id.as_str());
    let url = feed_url(f, fid, &globals.base_dir, issues);
    let schedule = feed_schedule(f, raw, fid, globals, issues);
    let jitter = feed_duration(
        "jitter",
        &f.jitter,
        &raw.jitter,
        Duration::ZERO,
        fid,
        issues,
    );
    let formats = feed_formats(f.formats.as_ref().or(raw.formats.as_ref()), fid, issues);
    let max_items = feed_max_items(f.max_items.as_ref().or(raw.max_items.as_ref()), fid, issues);
    let max_age = feed_duration(
        "max_age",
        &f.max_age,
        &raw.max_age,
        DEFAULT_MAX_AGE,
        fid,
        issues,
    );
    let robots = feed_robots(f.robots.as_ref().or(raw.robots.as_ref()), fid, issues);
    let proxy = feed_proxy(f.proxy.as_ref().or(raw.proxy.as_ref()), fid, issues);
    let cookies = f.cookies.clone().or_else(|| raw.cookies.clone());
    if cookies
        .as_ref()
        .is_some_and(|c| c.chars().any(|ch| ch.is_control()))
    {
        let msg = "must not contain control characters or newlines".into();
        issues.push(fid, "cookies", Some(table.line), msg);
    }
    let filter_case_insensitive = f.filter_case_insensitive.unwrap_or(true);
    if let Err(e) = crate::filters::Filters::new(&f.include, &f.exclude, filter_case_insensitive) {
        issues.push(fid, "include/exclude", Some(table.line), e.to_string());
    }
    let timezone = f
        .timezone
        .as_ref()
        .and_then(|tz| parse_tz(tz, fid, issues))
        .unwrap_or(globals.timezone);
    let fetch = feed_fetch(f, raw, fid, globals, issues);
    let mining = feed_mining(f, fid, table.line, globals, issues);
    let bodies = feed_bodies(f, fid, table.line, &globals.base_dir, issues);
    let (source, pages) = feed_source(f, fid, issues);
    let choice = feed_choice(f, fid, table.line, issues);
    let render = feed_render(f, fid, issues);
    let config_hash = config_hash(
        &globals.shared_hash,
        issues.text.get(table.span.clone()).unwrap_or(""),
    );
    Some(Feed {
        url: url?,
        schedule: schedule?,
        id,
        title: f.title.clone(),
        description: f.description.clone(),
        timezone,
        fetch,
        mining,
        bodies,
        source,
        pages,
        jitter,
        formats,
        max_items,
        max_age,
        robots,
        proxy,
        cookies,
        allow_private_addresses: f
            .allow_private_addresses
            .or(raw.allow_private_addresses)
            .unwrap_or(false),
        include: f.include.clone(),
        exclude: f.exclude.clone(),
        filter_case_insensitive,
        identity: crate::state::identity::IdentityRules::new(&f.ignore_params, &f.keep_params),
        config_hash,
        line: table.line,
        choice,
        render,
    })
}

/// `render` (`"chromium"` or `"none"`) and `wait_for` (a CSS selector,
/// only with `render`).
fn feed_render(f: &RawFeed, fid: Option<&str>, issues: &mut Issues<'_>) -> Option<RenderSettings> {
    let render = match f.render.as_ref().map(|r| (r, r.get_ref().trim())) {
        None | Some((_, "none")) => false,
        Some((_, "chromium")) => true,
        Some((r, other)) => {
            let msg = format!("{other:?} is not one of \"chromium\", \"none\"");
            issues.at(fid, "render", r, msg);
            false
        }
    };
    let wait_for = f.wait_for.as_ref().and_then(|w| {
        if !render {
            let msg = "only applies with render = \"chromium\"".to_string();
            issues.at(fid, "wait_for", w, msg);
            return None;
        }
        match crate::extract::selectors::compile(w.get_ref()) {
            Ok(_) => Some(w.get_ref().clone()),
            Err(e) => {
                issues.at(fid, "wait_for", w, e.to_string());
                None
            }
        }
    });
    render.then_some(RenderSettings { wait_for })
}

/// `select`, `group` and `fallback`: how the feed's records are chosen.
fn feed_choice(f: &RawFeed, fid: Option<&str>, line: usize, issues: &mut Issues<'_>) -> ListChoice {
    let fallback_auto = match f.fallback.as_ref() {
        None => false,
        Some(v) => match v.get_ref().as_str() {
            "auto" => true,
            "none" => false,
            other => {
                let msg = format!("must be \"auto\" or \"none\", not \"{other}\"");
                issues.at(fid, "fallback", v, msg);
                false
            }
        },
    };
    if f.fallback.is_some() && f.select.is_none() && f.group.is_none() {
        let msg = "only applies to a feed with `select` or `group`".to_string();
        issues.push(fid, "fallback", Some(line), msg);
    }
    match (&f.select, &f.group) {
        (Some(sel), Some(g)) => {
            let msg = "use either [feed.select] or `group`, not both".to_string();
            issues.at(fid, "group", g, msg);
            let _ = sel;
            ListChoice::Auto
        }
        (None, Some(g)) => match usize::try_from(*g.get_ref()) {
            Ok(rank) if rank >= 1 => ListChoice::Group {
                rank,
                fallback_auto,
            },
            _ => {
                let msg = "must be 1 or more (1 is the automatic winner)".to_string();
                issues.at(fid, "group", g, msg);
                ListChoice::Auto
            }
        },
        (Some(sel), None) => match feed_select(sel, fid, issues) {
            Some(spec) => ListChoice::Select {
                spec,
                fallback_auto,
            },
            None => ListChoice::Auto,
        },
        (None, None) => ListChoice::Auto,
    }
}

/// `[feed.select]`: every selector compiled, errors with field and line.
fn feed_select(
    sel: &Spanned<RawSelect>,
    fid: Option<&str>,
    issues: &mut Issues<'_>,
) -> Option<SelectSpec> {
    let raw = sel.get_ref();
    let fields = [
        ("title", &raw.title),
        ("link", &raw.link),
        ("date", &raw.date),
        ("summary", &raw.summary),
        ("image", &raw.image),
        ("author", &raw.author),
        ("categories", &raw.categories),
    ];
    let mut ok = true;
    let mut spec = SelectSpec::default();
    match &raw.records {
        None => {
            let msg = "required when [feed.select] is present".to_string();
            issues.at(fid, "select.records", sel, msg);
            ok = false;
        }
        Some(r) => {
            let check = selectors::compile(r.get_ref()).and_then(|_| {
                match selectors::split_attr(r.get_ref()) {
                    Ok((_, Some(_))) => Err(selectors::SelectorError::Attribute(
                        "(records selects elements; `@attr` is for fields)".into(),
                    )),
                    _ => Ok(()),
                }
            });
            if let Err(e) = check {
                issues.at(fid, "select.records", r, e.to_string());
                ok = false;
            }
            spec.records = r.get_ref().trim().to_string();
        }
    }
    if let Some(n) = &raw.siblings {
        match usize::try_from(*n.get_ref()) {
            Ok(k) if k <= selectors::MAX_SIBLINGS => spec.siblings = k,
            _ => {
                let msg = format!("must be 0 to {}", selectors::MAX_SIBLINGS);
                issues.at(fid, "select.siblings", n, msg);
                ok = false;
            }
        }
    }
    for (key, value) in fields {
        let Some(v) = value else { continue };
        if let Err(e) = selectors::FieldSelector::parse(v.get_ref()) {
            issues.at(fid, &format!("select.{key}"), v, e.to_string());
            ok = false;
        }
        spec.fields.insert(key, v.get_ref().trim().to_string());
    }
    ok.then_some(spec)
}

/// `url`: http(s), `file:`, or a path beside the config file.
fn feed_url(
    f: &RawFeed,
    fid: Option<&str>,
    base_dir: &Path,
    issues: &mut Issues<'_>,
) -> Option<Url> {
    let written = f.url.get_ref().trim();
    match Url::parse(written) {
        Ok(u) if matches!(u.scheme(), "http" | "https" | "file") => Some(u),
        // A relative path names a local page beside the config file.
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            let local = base_dir.join(written);
            let url = std::path::absolute(&local)
                .ok()
                .and_then(|p| Url::from_file_path(p).ok())
                .filter(|_| local.is_file());
            if url.is_none() {
                let msg = format!(
                    "{:?} is neither a URL nor a file beside the config",
                    f.url.get_ref()
                );
                issues.at(fid, "url", &f.url, msg);
            }
            url
        }
        Ok(u) => {
            let msg = format!("scheme {:?} is not http, https or file", u.scheme());
            issues.at(fid, "url", &f.url, msg);
            None
        }
        Err(e) => {
            let msg = format!("not a URL ({e}): {:?}", f.url.get_ref());
            issues.at(fid, "url", &f.url, msg);
            None
        }
    }
}

/// `schedule` or `every`: the feed's own wins over the file's; of the
/// file's, `every` wins over `schedule` when both are given.
fn feed_schedule(
    f: &RawFeed,
    raw: &RawConfig,
    fid: Option<&str>,
    globals: &Globals,
    issues: &mut Issues<'_>,
) -> Option<Schedule> {
    if let (Some(_), Some(e)) = (&f.schedule, &f.every) {
        let msg = "give either `schedule` (crontab) or `every` (interval), not both".into();
        issues.at(fid, "every", e, msg);
    }
    let every = f.every.as_ref().or(if f.schedule.is_some() {
        None
    } else {
        raw.every.as_ref()
    });
    if let Some(e) = every {
        return match parse_duration(e.get_ref())
            .and_then(|d| Schedule::every(d).map_err(|e| e.reason))
        {
            Ok(s) => Some(s),
            Err(m) => {
                issues.at(fid, "every", e, m);
                None
            }
        };
    }
    let (source, line) = f
        .schedule
        .as_ref()
        .map(|s| (s.get_ref().clone(), issues.line(s.span())))
        .unwrap_or_else(|| globals.schedule.clone());
    match source.parse::<Schedule>() {
        Ok(s) => Some(s),
        Err(e) => {
            issues.push(fid, "schedule", line, e.reason);
            None
        }
    }
}

/// `source` (`page` or `feed`) and `pages` (1 to [`MAX_PAGES`]).
fn feed_source(f: &RawFeed, fid: Option<&str>, issues: &mut Issues<'_>) -> (Source, usize) {
    let source = match f.source.as_ref().map(|s| (s, s.get_ref().trim())) {
        None | Some((_, "page")) => Source::Page,
        Some((_, "feed")) => Source::Feed,
        Some((s, other)) => {
            let msg = format!("{other:?} is not one of \"page\", \"feed\"");
            issues.at(fid, "source", s, msg);
            Source::Page
        }
    };
    let pages = match &f.pages {
        None => 1,
        Some(p) if (1..=MAX_PAGES).contains(p.get_ref()) => *p.get_ref(),
        Some(p) => {
            let msg = format!("must be between 1 and {MAX_PAGES}");
            issues.at(fid, "pages", p, msg);
            1
        }
    };
    if source == Source::Feed
        && let Some(p) = f.pages.as_ref().filter(|p| *p.get_ref() > 1)
    {
        let msg = "a feed source has no next pages: remove `pages` or use source = \"page\"";
        issues.at(fid, "pages", p, msg.into());
    }
    (source, pages)
}

/// A duration setting the feed may override; `default` when neither sets it.
fn feed_duration(
    field: &str,
    own: &Option<Spanned<String>>,
    global: &Option<Spanned<String>>,
    default: Duration,
    fid: Option<&str>,
    issues: &mut Issues<'_>,
) -> Duration {
    match own.as_ref().or(global.as_ref()) {
        Some(v) => parse_duration(v.get_ref()).unwrap_or_else(|m| {
            issues.at(fid, field, v, m);
            default
        }),
        None => default,
    }
}

/// `formats`: known names, in order, without duplicates; at least one.
fn feed_formats(
    list: Option<&Spanned<Vec<String>>>,
    fid: Option<&str>,
    issues: &mut Issues<'_>,
) -> Vec<Format> {
    let Some(list) = list else {
        return vec![Format::Rss];
    };
    let mut out = Vec::new();
    for name in list.get_ref() {
        match Format::from_name(name.trim()) {
            Some(fmt) if !out.contains(&fmt) => out.push(fmt),
            Some(_) => {}
            None => {
                let msg = format!("unknown format {name:?} (expected rss, atom or json)");
                issues.at(fid, "formats", list, msg);
            }
        }
    }
    if list.get_ref().is_empty() {
        issues.at(fid, "formats", list, "needs at least one format".into());
    } else if out.is_empty() {
        out.push(Format::Rss);
    }
    out
}

/// `max_items`: at least 1.
fn feed_max_items(v: Option<&Spanned<usize>>, fid: Option<&str>, issues: &mut Issues<'_>) -> usize {
    match v {
        Some(m) if *m.get_ref() == 0 => {
            issues.at(fid, "max_items", m, "must be at least 1".into());
            DEFAULT_MAX_ITEMS
        }
        Some(m) => *m.get_ref(),
        None => DEFAULT_MAX_ITEMS,
    }
}

/// `robots`: `articles` (default), `all` or `off`.
fn feed_robots(
    v: Option<&Spanned<String>>,
    fid: Option<&str>,
    issues: &mut Issues<'_>,
) -> RobotsPolicy {
    let Some(r) = v else {
        return RobotsPolicy::Articles;
    };
    match r.get_ref().trim() {
        "articles" => RobotsPolicy::Articles,
        "all" => RobotsPolicy::All,
        "off" => RobotsPolicy::Off,
        other => {
            let msg = format!("{other:?} is not one of \"articles\", \"all\", \"off\"");
            issues.at(fid, "robots", r, msg);
            RobotsPolicy::Articles
        }
    }
}

/// `proxy`: an http(s) URL.
fn feed_proxy(
    v: Option<&Spanned<String>>,
    fid: Option<&str>,
    issues: &mut Issues<'_>,
) -> Option<Url> {
    let p = v?;
    match Url::parse(p.get_ref().trim()) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => Some(u),
        Ok(u) => {
            let msg = format!("proxy scheme {:?} is not http or https", u.scheme());
            issues.at(fid, "proxy", p, msg);
            None
        }
        Err(e) => {
            issues.at(fid, "proxy", p, format!("not a URL: {e}"));
            None
        }
    }
}

/// Fetch options: the file's, then the feed's overrides, then the headers
/// of both (the feed's win by name).
fn feed_fetch(
    f: &RawFeed,
    raw: &RawConfig,
    fid: Option<&str>,
    globals: &Globals,
    issues: &mut Issues<'_>,
) -> FetchOptions {
    let mut fetch = globals.fetch.clone();
    apply_fetch(
        &mut fetch,
        FetchOverrides {
            user_agent: f.user_agent.as_ref(),
            timeout: f.timeout.as_ref(),
            max_body_bytes: f.max_body_bytes,
        },
        fid,
        issues,
    );
    for headers in [&raw.headers, &f.headers].into_iter().flatten() {
        apply_headers(&mut fetch, headers, fid, issues);
    }
    fetch
}

/// Add valid headers to `fetch`, replacing any of the same name.
fn apply_headers(
    fetch: &mut FetchOptions,
    headers: &Spanned<BTreeMap<String, String>>,
    fid: Option<&str>,
    issues: &mut Issues<'_>,
) {
    for (name, value) in headers.get_ref() {
        let valid_name = reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_ok();
        let valid_value = reqwest::header::HeaderValue::from_str(value).is_ok();
        if !valid_name || !valid_value {
            issues.at(
                fid,
                "headers",
                headers,
                format!("invalid header {name:?}: {value:?}"),
            );
            continue;
        }
        fetch.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        fetch.headers.push((name.clone(), value.clone()));
    }
}

/// Mining thresholds: `[mining]`, then the feed's inline overrides.
fn feed_mining(
    f: &RawFeed,
    fid: Option<&str>,
    line: usize,
    globals: &Globals,
    issues: &mut Issues<'_>,
) -> MiningParams {
    let mut mining = globals.mining.clone();
    let overrides = RawMining {
        mode: f.mode.clone(),
        min_instances: f.min_instances,
        min_pattern_len: f.min_pattern_len,
        min_record_len: f.min_record_len,
        key_tags: f.key_tags.clone(),
        min_coverage: f.min_coverage.clone(),
        max_pattern_len: f.max_pattern_len,
        max_candidates: f.max_candidates,
    };
    apply_mining(&mut mining, &overrides, fid, Some(line), issues);
    mining
}

/// Item-body settings of one feed.
fn feed_bodies(
    f: &RawFeed,
    fid: Option<&str>,
    line: usize,
    base_dir: &Path,
    issues: &mut Issues<'_>,
) -> BodySettings {
    let mut bodies = BodySettings::default();
    if let Some(b) = &f.bodies {
        match b.get_ref() {
            RawBodies::Flag(on) => bodies.enabled = *on,
            RawBodies::Word(w) if w.trim() == "always" => bodies.always = true,
            RawBodies::Word(w) => {
                let msg = format!("{w:?} is not one of true, false, \"always\"");
                issues.at(fid, "bodies", b, msg);
            }
        }
    }
    if let Some(m) = &f.bodies_method {
        let name = m.get_ref().trim();
        if let Err(e) = name.parse::<crate::bodies::Method>() {
            issues.at(fid, "bodies_method", m, e.to_string());
        }
        bodies.method = name.to_string();
    }
    if let Some(c) = f.bodies_concurrency {
        if c == 0 {
            issues.push(
                fid,
                "bodies_concurrency",
                Some(line),
                "must be at least 1".into(),
            );
        }
        bodies.concurrency = c.max(1);
    }
    if let Some(a) = f.bodies_allow_other_hosts {
        bodies.allow_other_hosts = a;
    }
    bodies.timeout = feed_duration(
        "bodies_timeout",
        &f.bodies_timeout,
        &None,
        bodies.timeout,
        fid,
        issues,
    );
    if bodies.timeout.is_zero()
        && let Some(t) = &f.bodies_timeout
    {
        let msg = "must be longer than 0s (every article fetch would time out at once)";
        issues.at(fid, "bodies_timeout", t, msg.into());
    }
    bodies.delay = feed_duration(
        "bodies_delay",
        &f.bodies_delay,
        &None,
        bodies.delay,
        fid,
        issues,
    );
    if let Some(m) = f.bodies_max_bytes {
        bodies.max_bytes = m;
    }
    match f.bodies_render.as_ref().map(|r| (r, r.get_ref().trim())) {
        None | Some((_, "none")) => {}
        Some((_, "chromium")) => bodies.render = true,
        Some((r, other)) => {
            let msg = format!("{other:?} is not one of \"chromium\", \"none\"");
            issues.at(fid, "bodies_render", r, msg);
        }
    }
    body_method_params(f, fid, base_dir, &mut bodies, issues);
    bodies
}

/// Parameters of the alternative body extractors.
fn body_method_params(
    f: &RawFeed,
    fid: Option<&str>,
    base_dir: &Path,
    bodies: &mut BodySettings,
    issues: &mut Issues<'_>,
) {
    if let Some(p) = &f.cevc {
        bodies.params.cevc = p.clone();
    }
    if let Some(p) = &f.tagpath {
        bodies.params.tagpath = p.clone();
    }
    if let Some(p) = &f.similarity {
        bodies.params.similarity = p.clone();
    }
    if let Some(t) = &f.tagpath_thresholds {
        let path = base_dir.join(t.get_ref());
        match crate::bodies::tagpath::load_thresholds(&path) {
            Ok(th) => bodies.params.tagpath.thresholds = th,
            Err(e) => issues.at(fid, "tagpath_thresholds", t, e.to_string()),
        }
    }
}

/// Fetch settings that both the file and a feed may set.
struct FetchOverrides<'a> {
    user_agent: Option<&'a Spanned<String>>,
    timeout: Option<&'a Spanned<String>>,
    max_body_bytes: Option<u64>,
}

fn apply_fetch(
    fetch: &mut FetchOptions,
    o: FetchOverrides<'_>,
    feed: Option<&str>,
    issues: &mut Issues<'_>,
) {
    if let Some(ua) = o.user_agent {
        if reqwest::header::HeaderValue::from_str(ua.get_ref()).is_ok() {
            fetch.user_agent = ua.get_ref().clone();
        } else {
            let msg = format!(
                "{:?} cannot be sent as a header (no line breaks or control characters)",
                ua.get_ref()
            );
            issues.at(feed, "user_agent", ua, msg);
        }
    }
    if let Some(t) = o.timeout {
        match parse_duration(t.get_ref()) {
            Ok(d) if d.is_zero() => {
                let msg = "must be longer than 0s (every fetch would time out at once)";
                issues.at(feed, "timeout", t, msg.into());
            }
            Ok(d) => fetch.total_timeout = d,
            Err(m) => issues.at(feed, "timeout", t, m),
        }
    }
    if let Some(m) = o.max_body_bytes {
        fetch.max_body_bytes = m;
    }
}

fn parse_tz(
    tz: &Spanned<String>,
    feed: Option<&str>,
    issues: &mut Issues<'_>,
) -> Option<chrono_tz::Tz> {
    let parsed = tz.get_ref().trim().parse::<chrono_tz::Tz>().ok();
    if parsed.is_none() {
        issues.at(
            feed,
            "timezone",
            tz,
            format!("unknown time zone {:?}", tz.get_ref()),
        );
    }
    parsed
}

/// Merge mining overrides into `params`, reporting out-of-range values.
fn apply_mining(
    params: &mut MiningParams,
    raw: &RawMining,
    feed: Option<&str>,
    table_line: Option<usize>,
    issues: &mut Issues<'_>,
) {
    if let Some(m) = &raw.mode {
        match m.get_ref().parse::<Mode>() {
            Ok(mode) => params.mode = mode,
            Err(e) => issues.at(feed, "mode", m, e),
        }
    }
    for (name, value, slot) in [
        (
            "min_instances",
            raw.min_instances,
            &mut params.min_instances,
        ),
        (
            "min_pattern_len",
            raw.min_pattern_len,
            &mut params.min_pattern_len,
        ),
        (
            "min_record_len",
            raw.min_record_len,
            &mut params.min_record_len,
        ),
        (
            "max_pattern_len",
            raw.max_pattern_len,
            &mut params.max_pattern_len,
        ),
        (
            "max_candidates",
            raw.max_candidates,
            &mut params.max_candidates,
        ),
    ] {
        match value {
            Some(0) => issues.push(feed, name, table_line, "must be at least 1".into()),
            Some(v) => *slot = v,
            None => {}
        }
    }
    if let Some(k) = &raw.key_tags {
        params.key_tags = k.clone();
    }
    if let Some(c) = &raw.min_coverage {
        let v = *c.get_ref();
        if (0.0..=1.0).contains(&v) {
            params.min_coverage = v;
        } else {
            issues.at(
                feed,
                "min_coverage",
                c,
                format!("{v} is not a share between 0 and 1"),
            );
        }
    }
}
