//! `feeds.toml`, in two stages: [`RawConfig`] is exactly the file (serde,
//! `deny_unknown_fields`, with spans), and [`Config`] is the validated form
//! (parsed URLs, schedules, time zones, durations, per-feed thresholds
//! merged over the global ones).
//!
//! Invariants: every error names the feed (when there is one), the field and
//! the line; validation reports all errors of a file at once, not only the
//! first; feed ids are unique and safe as file names.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;
use url::Url;

use crate::fetch::FetchOptions;
use crate::patterns::{MiningParams, Mode};
use crate::schedule::Schedule;

/// The schedule a feed gets when neither it nor the file names one.
pub const DEFAULT_SCHEDULE: &str = "0 * * * *";
/// Output directory when the file names none (relative to the file).
pub const DEFAULT_OUTPUT_DIR: &str = "public";
/// State file name, beside the output directory, when the file names none.
pub const DEFAULT_STATE_FILE: &str = "feedmine.db";
/// Items a published feed holds at most.
pub const DEFAULT_MAX_ITEMS: usize = 50;
/// How long an item that left the list page stays in the feed: 30 days.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(30 * 86_400);
/// Pages the daemon fetches at once, over all feeds.
pub const DEFAULT_CONCURRENCY: usize = 16;
/// Pages fetched at once from one host.
pub const DEFAULT_HOST_CONCURRENCY: usize = 2;
/// Minimum time between two request starts to one host.
pub const DEFAULT_HOST_DELAY: Duration = Duration::from_secs(1);
/// First retry delay after a failed run; doubles per consecutive failure.
pub const DEFAULT_BACKOFF_BASE: Duration = Duration::from_secs(60);
/// Longest retry delay: a feed failing for days is still tried daily.
pub const DEFAULT_BACKOFF_MAX: Duration = Duration::from_secs(86_400);

/// One problem in a config file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigIssue {
    pub feed: Option<String>,
    pub field: String,
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ConfigIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        if let Some(feed) = &self.feed {
            write!(f, "feed {feed:?}: ")?;
        }
        write!(f, "{}: {}", self.field, self.message)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {path}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {}", issues.iter().map(|i| i.to_string()).collect::<Vec<_>>().join("; "))]
    Invalid {
        path: PathBuf,
        issues: Vec<ConfigIssue>,
    },
}

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConfig {
    /// Where feeds are written; relative paths are relative to the file.
    pub output_dir: Option<Spanned<String>>,
    /// Public base URL the output directory is served at (for
    /// `atom:link rel="self"`), e.g. `https://example.org/feeds/`.
    pub public_url: Option<Spanned<String>>,
    pub user_agent: Option<String>,
    /// Total time limit of one page fetch, e.g. `"30s"`.
    pub timeout: Option<Spanned<String>>,
    pub max_body_bytes: Option<u64>,
    pub schedule: Option<Spanned<String>>,
    pub timezone: Option<Spanned<String>>,
    /// A file replacing `templates/item.html` (how image, summary and
    /// extracted body make an item's HTML).
    pub item_template: Option<Spanned<String>>,
    /// Record-mining thresholds for every feed.
    pub mining: Option<Spanned<RawMining>>,
    /// The SQLite state file (items, fetch cache, run history); relative
    /// to this file. Default: `feedmine.db` beside the output directory.
    pub state: Option<Spanned<String>>,
    /// Address `feedmine run` serves the feeds on, e.g. `127.0.0.1:8080`
    /// (`--listen` overrides it).
    pub listen: Option<Spanned<String>>,
    /// Require `Authorization: Bearer <token>` for everything the server
    /// serves but `/health` (the `FEEDMINE_TOKEN` environment variable
    /// overrides it, so the token need not live in the file).
    pub bearer_token: Option<String>,
    /// A file replacing `templates/index.html` (the server's index page).
    pub index_template: Option<Spanned<String>>,
    /// A file replacing `templates/feed.xsl` (how a browser shows a feed).
    pub stylesheet: Option<Spanned<String>>,
    /// Pages fetched at once by the whole daemon.
    pub concurrency: Option<Spanned<usize>>,
    /// Pages fetched at once from one host.
    pub host_concurrency: Option<Spanned<usize>>,
    /// Minimum time between two request starts to one host, e.g. `"1s"`.
    pub host_delay: Option<Spanned<String>>,
    /// First retry delay after a failed run (doubles per failure).
    pub backoff_base: Option<Spanned<String>>,
    /// Longest retry delay after failures.
    pub backoff_max: Option<Spanned<String>>,
    /// Defaults of the per-feed settings of the same names.
    pub every: Option<Spanned<String>>,
    pub jitter: Option<Spanned<String>>,
    pub formats: Option<Spanned<Vec<String>>>,
    pub max_items: Option<Spanned<usize>>,
    pub max_age: Option<Spanned<String>>,
    pub headers: Option<Spanned<std::collections::BTreeMap<String, String>>>,
    pub cookies: Option<String>,
    pub proxy: Option<Spanned<String>>,
    pub robots: Option<Spanned<String>>,
    pub allow_private_addresses: Option<bool>,
    #[serde(default)]
    pub feed: Vec<Spanned<RawFeed>>,
}

/// Mining thresholds, every one optional (unset = default or global).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMining {
    pub mode: Option<Spanned<String>>,
    pub min_instances: Option<usize>,
    pub min_pattern_len: Option<usize>,
    pub min_record_len: Option<usize>,
    pub key_tags: Option<Vec<String>>,
    pub min_coverage: Option<Spanned<f64>>,
    pub max_pattern_len: Option<usize>,
    pub max_candidates: Option<usize>,
}

/// One `[[feed]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFeed {
    pub id: Spanned<String>,
    pub url: Spanned<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub schedule: Option<Spanned<String>>,
    pub timezone: Option<Spanned<String>>,
    pub user_agent: Option<String>,
    pub timeout: Option<Spanned<String>>,
    pub max_body_bytes: Option<u64>,
    /// Per-feed overrides of `[mining]`, written inline.
    pub mode: Option<Spanned<String>>,
    pub min_instances: Option<usize>,
    pub min_pattern_len: Option<usize>,
    pub min_record_len: Option<usize>,
    pub key_tags: Option<Vec<String>>,
    pub min_coverage: Option<Spanned<f64>>,
    pub max_pattern_len: Option<usize>,
    pub max_candidates: Option<usize>,
    /// Fill item bodies from the linked pages.
    pub bodies: Option<bool>,
    pub bodies_method: Option<Spanned<String>>,
    pub bodies_concurrency: Option<usize>,
    pub bodies_allow_other_hosts: Option<bool>,
    pub bodies_timeout: Option<Spanned<String>>,
    pub bodies_max_bytes: Option<u64>,
    pub bodies_delay: Option<Spanned<String>>,
    /// Parameters of the alternative body extractors (paper defaults when
    /// unset): `cevc = { alpha = 0.5 }`, `similarity = { beta = 0.7 }`, ...
    pub cevc: Option<crate::bodies::cevc::CevcParams>,
    pub tagpath: Option<crate::bodies::tagpath::TagpathParams>,
    pub similarity: Option<crate::bodies::similarity_blocks::SimilarityParams>,
    /// Thresholds learnt by `feedmine train tagpath` (path beside this file).
    pub tagpath_thresholds: Option<Spanned<String>>,
    /// Run every so long instead of on a crontab `schedule`, e.g. `"30m"`.
    pub every: Option<Spanned<String>>,
    /// Random delay up to this long added to each scheduled run.
    pub jitter: Option<Spanned<String>>,
    /// Published formats: any of `"rss"`, `"atom"`, `"json"`.
    pub formats: Option<Spanned<Vec<String>>>,
    /// Items a published feed holds at most.
    pub max_items: Option<Spanned<usize>>,
    /// How long an item that left the page stays in the feed, e.g. `"30d"`.
    pub max_age: Option<Spanned<String>>,
    /// Extra request headers.
    pub headers: Option<Spanned<std::collections::BTreeMap<String, String>>>,
    /// `Cookie` header value sent with every request, e.g. `"a=1; b=2"`.
    pub cookies: Option<String>,
    /// Proxy URL for every request (`http://`, `https://`).
    pub proxy: Option<Spanned<String>>,
    /// robots.txt: `"articles"` (default: article pages only), `"all"`
    /// (also the list page) or `"off"`.
    pub robots: Option<Spanned<String>>,
    /// Follow article links that resolve to loopback/private addresses
    /// (off by default: server-side request forgery guard).
    pub allow_private_addresses: Option<bool>,
    /// Keep only items matching one of these rules, e.g.
    /// `include = [{ title = "rust|tokio" }]` (regex per field).
    #[serde(default)]
    pub include: Vec<crate::filters::RawFilterRule>,
    /// Drop items matching any of these rules.
    #[serde(default)]
    pub exclude: Vec<crate::filters::RawFilterRule>,
    /// Match filter regexes ignoring case (default true).
    pub filter_case_insensitive: Option<bool>,
}

/// Item-body settings of one feed.
#[derive(Debug, Clone)]
pub struct BodySettings {
    pub enabled: bool,
    pub method: String,
    /// Article pages fetched at once.
    pub concurrency: usize,
    /// Follow links to hosts other than the list page's.
    pub allow_other_hosts: bool,
    pub timeout: Duration,
    pub max_bytes: u64,
    /// Pause between two requests to the same host (politeness).
    pub delay: Duration,
    /// Parameters of every extraction method.
    pub params: crate::bodies::BodyParams,
}

impl Default for BodySettings {
    fn default() -> Self {
        BodySettings {
            enabled: true,
            method: "reverse".to_string(),
            concurrency: 4,
            allow_other_hosts: false,
            timeout: Duration::from_secs(20),
            max_bytes: 5 * 1024 * 1024,
            delay: Duration::from_millis(250),
            params: crate::bodies::BodyParams::default(),
        }
    }
}

/// A validated feed.
#[derive(Debug, Clone)]
pub struct Feed {
    pub id: String,
    pub url: Url,
    pub title: Option<String>,
    pub description: Option<String>,
    pub schedule: Schedule,
    pub timezone: chrono_tz::Tz,
    pub fetch: FetchOptions,
    pub mining: MiningParams,
    pub bodies: BodySettings,
    /// Random delay up to this long added to each scheduled run.
    pub jitter: Duration,
    /// Published formats, in config order, without duplicates.
    pub formats: Vec<crate::feed::Format>,
    /// Items a published feed holds at most.
    pub max_items: usize,
    /// How long an item that left the list page stays in the feed.
    pub max_age: Duration,
    /// Which pages robots.txt is checked for.
    pub robots: RobotsPolicy,
    /// Proxy for every request of this feed.
    pub proxy: Option<Url>,
    /// `Cookie` header of every request of this feed.
    pub cookies: Option<String>,
    /// Follow article links to loopback/private addresses (SSRF opt-in).
    pub allow_private_addresses: bool,
    /// Include rules (see [`RawFeed::include`]); checked at load.
    pub include: Vec<crate::filters::RawFilterRule>,
    /// Exclude rules (see [`RawFeed::exclude`]); checked at load.
    pub exclude: Vec<crate::filters::RawFilterRule>,
    pub filter_case_insensitive: bool,
    /// Hash of everything in the file that shapes this feed's output: a
    /// change invalidates the feed's conditional-GET cache.
    pub config_hash: String,
    /// Line of the `[[feed]]` table.
    pub line: usize,
}

/// Which pages robots.txt is respected for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RobotsPolicy {
    /// Never fetch robots.txt.
    Off,
    /// Article pages only (the list page was chosen by the user).
    Articles,
    /// Article pages and the list page.
    All,
}

/// Daemon-wide fetching and retry limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DaemonLimits {
    /// See [`DEFAULT_CONCURRENCY`].
    pub concurrency: usize,
    /// See [`DEFAULT_HOST_CONCURRENCY`].
    pub host_concurrency: usize,
    /// See [`DEFAULT_HOST_DELAY`].
    pub host_delay: Duration,
    /// See [`DEFAULT_BACKOFF_BASE`].
    pub backoff_base: Duration,
    /// See [`DEFAULT_BACKOFF_MAX`].
    pub backoff_max: Duration,
}

impl Default for DaemonLimits {
    fn default() -> Self {
        DaemonLimits {
            concurrency: DEFAULT_CONCURRENCY,
            host_concurrency: DEFAULT_HOST_CONCURRENCY,
            host_delay: DEFAULT_HOST_DELAY,
            backoff_base: DEFAULT_BACKOFF_BASE,
            backoff_max: DEFAULT_BACKOFF_MAX,
        }
    }
}

/// A validated config file.
#[derive(Debug, Clone)]
pub struct Config {
    pub path: PathBuf,
    pub output_dir: PathBuf,
    pub public_url: Option<Url>,
    pub item_template: crate::templates::ItemTemplate,
    /// Override of `templates/index.html`, checked at load.
    pub index_template: Option<PathBuf>,
    /// Override of `templates/feed.xsl`, checked at load.
    pub stylesheet: Option<PathBuf>,
    /// The SQLite state file.
    pub state_path: PathBuf,
    /// Where `feedmine run` serves (unless `--listen` says otherwise).
    pub listen: Option<std::net::SocketAddr>,
    /// Token the server requires (see [`RawConfig::bearer_token`]).
    pub bearer_token: Option<String>,
    pub limits: DaemonLimits,
    pub feeds: Vec<Feed>,
}

/// Parse a duration like `30s`, `500ms`, `2m`, `1h` (a bare number is seconds).
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let split = s
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(s.len());
    let (num, unit) = s.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("{s:?} is not a duration like \"30s\", \"500ms\", \"2m\""))?;
    let secs = match unit.trim() {
        "" | "s" | "sec" | "secs" => n,
        "ms" => n / 1000.0,
        "m" | "min" | "mins" => n * 60.0,
        "h" => n * 3600.0,
        "d" => n * 86400.0,
        other => return Err(format!("unknown duration unit {other:?} in {s:?}")),
    };
    if !secs.is_finite() || secs < 0.0 {
        return Err(format!("{s:?} is not a valid duration"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Format a duration the way [`parse_duration`] reads it (`90s` → `1m30s`
/// is not produced: the largest exact unit is used, e.g. `30m`, `90s`).
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_millis();
    if !ms.is_multiple_of(1000) {
        return format!("{ms}ms");
    }
    let s = d.as_secs();
    for (unit, n) in [("d", 86_400), ("h", 3_600), ("m", 60)] {
        if s >= n && s.is_multiple_of(n) {
            return format!("{}{unit}", s / n);
        }
    }
    format!("{s}s")
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Read and validate a config file.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    parse(&text, path)
}

/// Validate config text; `path` locates relative output paths and errors.
pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    let invalid = |issues| ConfigError::Invalid {
        path: path.to_path_buf(),
        issues,
    };
    let raw: RawConfig = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        // Find the feed the error is in: the last `[[feed]]` before it
        // with an `id` line.
        let feed = e.span().and_then(|s| feed_id_before(text, s.start));
        invalid(vec![ConfigIssue {
            feed,
            field: field_of_message(e.message()),
            line,
            message: e.message().trim().to_string(),
        }])
    })?;
    validate(raw, text, path).map_err(invalid)
}

/// The id of the `[[feed]]` table that contains byte `offset`, if any.
fn feed_id_before(text: &str, offset: usize) -> Option<String> {
    let head = &text[..offset.min(text.len())];
    let start = head.rfind("[[feed]]")?;
    let table_end = text[start + 8..]
        .find("[[")
        .map_or(text.len(), |i| start + 8 + i);
    text[start..table_end].lines().find_map(|l| {
        let (k, v) = l.split_once('=')?;
        (k.trim() == "id").then(|| v.trim().trim_matches('"').to_string())
    })
}

fn field_of_message(msg: &str) -> String {
    // toml/serde messages quote the field: "unknown field `foo`, expected ...".
    msg.split('`').nth(1).unwrap_or("syntax").to_string()
}

fn validate(raw: RawConfig, text: &str, path: &Path) -> Result<Config, Vec<ConfigIssue>> {
    let mut issues = Vec::new();
    let line = |span: std::ops::Range<usize>| Some(line_of(text, span.start));
    let mut issue = |feed: Option<&str>, field: &str, line: Option<usize>, message: String| {
        issues.push(ConfigIssue {
            feed: feed.map(str::to_string),
            field: field.to_string(),
            line,
            message,
        })
    };

    let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let output_dir = raw
        .output_dir
        .as_ref()
        .map(|o| o.get_ref().clone())
        .unwrap_or_else(|| DEFAULT_OUTPUT_DIR.to_string());
    let output_dir = base_dir.join(output_dir);

    let public_url = raw
        .public_url
        .as_ref()
        .and_then(|u| match Url::parse(u.get_ref()) {
            Ok(mut url) if matches!(url.scheme(), "http" | "https") => {
                if !url.path().ends_with('/') {
                    let p = format!("{}/", url.path());
                    url.set_path(&p);
                }
                Some(url)
            }
            Ok(_) => {
                issue(
                    None,
                    "public_url",
                    line(u.span()),
                    "must be an http(s) URL".into(),
                );
                None
            }
            Err(e) => {
                issue(
                    None,
                    "public_url",
                    line(u.span()),
                    format!("not a URL: {e}"),
                );
                None
            }
        });

    let mut item_template_source = String::new();
    let item_template = match &raw.item_template {
        None => crate::templates::ItemTemplate::default(),
        Some(t) => {
            let path = base_dir.join(t.get_ref());
            let compiled = std::fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))
                .and_then(|src| {
                    item_template_source = src.clone();
                    crate::templates::ItemTemplate::new(src).map_err(|e| e.to_string())
                });
            match compiled {
                Ok(c) => c,
                Err(m) => {
                    issue(None, "item_template", line(t.span()), m);
                    crate::templates::ItemTemplate::default()
                }
            }
        }
    };

    let mut global_fetch = FetchOptions::default();
    apply_fetch(
        &mut global_fetch,
        FetchOverrides {
            user_agent: raw.user_agent.as_ref(),
            timeout: raw.timeout.as_ref(),
            max_body_bytes: raw.max_body_bytes,
        },
        None,
        text,
        &mut issue,
    );
    let global_schedule = raw
        .schedule
        .as_ref()
        .map(|s| (s.get_ref().clone(), line(s.span())))
        .unwrap_or((DEFAULT_SCHEDULE.to_string(), None));
    let global_tz = raw
        .timezone
        .as_ref()
        .and_then(|tz| parse_tz(tz, None, text, &mut issue))
        .unwrap_or(chrono_tz::UTC);
    let mut global_mining = MiningParams::default();
    if let Some(m) = &raw.mining {
        let m_line = line(m.span());
        apply_mining(
            &mut global_mining,
            m.get_ref(),
            None,
            m_line,
            &mut issue,
            text,
        );
    }
    let mut template_path = |field: &str, value: &Option<Spanned<String>>| {
        let v = value.as_ref()?;
        let p = base_dir.join(v.get_ref());
        if !p.is_file() {
            issue(
                None,
                field,
                line(v.span()),
                format!("{} is not a readable file", p.display()),
            );
            return None;
        }
        Some(p)
    };
    let index_template = template_path("index_template", &raw.index_template);
    let stylesheet = template_path("stylesheet", &raw.stylesheet);
    {
        if let Err(e) = crate::templates::Templates::load(
            None,
            index_template.as_deref(),
            stylesheet.as_deref(),
        ) {
            issue(None, "index_template", None, e.to_string());
        }
    }
    let state_path = match &raw.state {
        Some(p) => base_dir.join(p.get_ref()),
        None => output_dir
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
            .join(DEFAULT_STATE_FILE),
    };
    let listen = raw.listen.as_ref().and_then(|l| {
        match l.get_ref().trim().parse::<std::net::SocketAddr>() {
            Ok(a) => Some(a),
            Err(e) => {
                issue(
                    None,
                    "listen",
                    line(l.span()),
                    format!(
                        "{:?} is not an address like 127.0.0.1:8080: {e}",
                        l.get_ref()
                    ),
                );
                None
            }
        }
    });
    let bearer_token = std::env::var("FEEDMINE_TOKEN")
        .ok()
        .or_else(|| raw.bearer_token.clone())
        .filter(|t| !t.trim().is_empty());
    let mut limits = DaemonLimits::default();
    for (name, value, slot) in [
        ("concurrency", &raw.concurrency, &mut limits.concurrency),
        (
            "host_concurrency",
            &raw.host_concurrency,
            &mut limits.host_concurrency,
        ),
    ] {
        if let Some(v) = value {
            if *v.get_ref() == 0 {
                issue(None, name, line(v.span()), "must be at least 1".into());
            } else {
                *slot = *v.get_ref();
            }
        }
    }
    for (name, value, slot) in [
        ("host_delay", &raw.host_delay, &mut limits.host_delay),
        ("backoff_base", &raw.backoff_base, &mut limits.backoff_base),
        ("backoff_max", &raw.backoff_max, &mut limits.backoff_max),
    ] {
        if let Some(v) = value {
            match parse_duration(v.get_ref()) {
                Ok(d) => *slot = d,
                Err(m) => issue(None, name, line(v.span()), m),
            }
        }
    }
    if limits.backoff_max < limits.backoff_base {
        issue(
            None,
            "backoff_max",
            raw.backoff_max.as_ref().and_then(|v| line(v.span())),
            "must not be shorter than backoff_base".into(),
        );
    }
    // Hash input shared by every feed: the file without its [[feed]]
    // tables, plus the item template's source.
    let mut shared_hash_input = String::new();
    {
        let mut cursor = 0;
        for f in &raw.feed {
            let table = table_range(text, f.span().start);
            shared_hash_input.push_str(text.get(cursor..table.start).unwrap_or(""));
            cursor = table.end.max(cursor);
        }
        shared_hash_input.push_str(text.get(cursor..).unwrap_or(""));
        shared_hash_input.push_str(&item_template_source);
    }
    if raw.feed.is_empty() {
        issue(
            None,
            "feed",
            None,
            "no [[feed]] tables: nothing to do".into(),
        );
    }

    let mut ids = HashSet::new();
    let mut feeds = Vec::new();
    for f in &raw.feed {
        let feed_line = line_of(text, f.span().start);
        let table_span = table_range(text, f.span().start);
        let f = f.get_ref();
        let id = f.id.get_ref().trim().to_string();
        let fid = Some(id.as_str());
        if id.is_empty()
            || !id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
            || id.starts_with('.')
        {
            issue(
                fid,
                "id",
                line(f.id.span()),
                "must be non-empty and use only A-Z a-z 0-9 - _ . (it names the output file)"
                    .into(),
            );
        } else if !ids.insert(id.clone()) {
            issue(fid, "id", line(f.id.span()), "duplicate feed id".into());
        }
        let url = match Url::parse(f.url.get_ref().trim()) {
            Ok(u) if matches!(u.scheme(), "http" | "https" | "file") => Some(u),
            // A relative path names a local page beside the config file.
            Err(url::ParseError::RelativeUrlWithoutBase) => {
                let local = base_dir.join(f.url.get_ref().trim());
                match std::path::absolute(&local)
                    .ok()
                    .and_then(|p| Url::from_file_path(p).ok())
                {
                    Some(u) if local.is_file() => Some(u),
                    _ => {
                        issue(
                            fid,
                            "url",
                            line(f.url.span()),
                            format!(
                                "{:?} is neither a URL nor a file beside the config",
                                f.url.get_ref()
                            ),
                        );
                        None
                    }
                }
            }
            Ok(u) => {
                issue(
                    fid,
                    "url",
                    line(f.url.span()),
                    format!("scheme {:?} is not http, https or file", u.scheme()),
                );
                None
            }
            Err(e) => {
                issue(
                    fid,
                    "url",
                    line(f.url.span()),
                    format!("not a URL ({e}): {:?}", f.url.get_ref()),
                );
                None
            }
        };
        if let (Some(_), Some(e)) = (&f.schedule, &f.every) {
            issue(
                fid,
                "every",
                line(e.span()),
                "give either `schedule` (crontab) or `every` (interval), not both".into(),
            );
        }
        // The feed's own schedule or interval wins over the file's; of the
        // file's, `every` wins over `schedule` when both are given.
        let every = f.every.as_ref().or(if f.schedule.is_some() {
            None
        } else {
            raw.every.as_ref()
        });
        let schedule = if let Some(e) = every {
            match parse_duration(e.get_ref()).and_then(|d| Schedule::every(d).map_err(|e| e.reason))
            {
                Ok(s) => Some(s),
                Err(m) => {
                    issue(fid, "every", line(e.span()), m);
                    None
                }
            }
        } else {
            let (sched_src, sched_line) = f
                .schedule
                .as_ref()
                .map(|s| (s.get_ref().clone(), line(s.span())))
                .unwrap_or_else(|| global_schedule.clone());
            match sched_src.parse::<Schedule>() {
                Ok(s) => Some(s),
                Err(e) => {
                    issue(fid, "schedule", sched_line, e.reason);
                    None
                }
            }
        };
        let jitter = match f.jitter.as_ref().or(raw.jitter.as_ref()) {
            Some(j) => parse_duration(j.get_ref()).unwrap_or_else(|m| {
                issue(fid, "jitter", line(j.span()), m);
                Duration::ZERO
            }),
            None => Duration::ZERO,
        };
        let formats = match f.formats.as_ref().or(raw.formats.as_ref()) {
            None => vec![crate::feed::Format::Rss],
            Some(list) => {
                let mut out = Vec::new();
                for name in list.get_ref() {
                    match crate::feed::Format::from_name(name.trim()) {
                        Some(fmt) if !out.contains(&fmt) => out.push(fmt),
                        Some(_) => {}
                        None => issue(
                            fid,
                            "formats",
                            line(list.span()),
                            format!("unknown format {name:?} (expected rss, atom or json)"),
                        ),
                    }
                }
                if out.is_empty() && !list.get_ref().is_empty() {
                    out.push(crate::feed::Format::Rss);
                } else if list.get_ref().is_empty() {
                    issue(
                        fid,
                        "formats",
                        line(list.span()),
                        "needs at least one format".into(),
                    );
                }
                out
            }
        };
        let max_items = match f.max_items.as_ref().or(raw.max_items.as_ref()) {
            Some(m) if *m.get_ref() == 0 => {
                issue(
                    fid,
                    "max_items",
                    line(m.span()),
                    "must be at least 1".into(),
                );
                DEFAULT_MAX_ITEMS
            }
            Some(m) => *m.get_ref(),
            None => DEFAULT_MAX_ITEMS,
        };
        let max_age = match f.max_age.as_ref().or(raw.max_age.as_ref()) {
            Some(a) => parse_duration(a.get_ref()).unwrap_or_else(|m| {
                issue(fid, "max_age", line(a.span()), m);
                DEFAULT_MAX_AGE
            }),
            None => DEFAULT_MAX_AGE,
        };
        let robots = match f.robots.as_ref().or(raw.robots.as_ref()) {
            None => RobotsPolicy::Articles,
            Some(r) => match r.get_ref().trim() {
                "articles" => RobotsPolicy::Articles,
                "all" => RobotsPolicy::All,
                "off" => RobotsPolicy::Off,
                other => {
                    issue(
                        fid,
                        "robots",
                        line(r.span()),
                        format!("{other:?} is not one of \"articles\", \"all\", \"off\""),
                    );
                    RobotsPolicy::Articles
                }
            },
        };
        let proxy = f.proxy.as_ref().or(raw.proxy.as_ref()).and_then(|p| {
            match Url::parse(p.get_ref().trim()) {
                Ok(u) if matches!(u.scheme(), "http" | "https") => Some(u),
                Ok(u) => {
                    issue(
                        fid,
                        "proxy",
                        line(p.span()),
                        format!("proxy scheme {:?} is not http or https", u.scheme()),
                    );
                    None
                }
                Err(e) => {
                    issue(fid, "proxy", line(p.span()), format!("not a URL: {e}"));
                    None
                }
            }
        });
        let cookies = f.cookies.clone().or_else(|| raw.cookies.clone());
        if cookies
            .as_ref()
            .is_some_and(|c| c.chars().any(|ch| ch.is_control()))
        {
            issue(
                fid,
                "cookies",
                Some(feed_line),
                "must not contain control characters or newlines".into(),
            );
        }
        let allow_private_addresses = f
            .allow_private_addresses
            .or(raw.allow_private_addresses)
            .unwrap_or(false);
        let filter_case_insensitive = f.filter_case_insensitive.unwrap_or(true);
        if let Err(e) =
            crate::filters::Filters::new(&f.include, &f.exclude, filter_case_insensitive)
        {
            issue(fid, "include/exclude", Some(feed_line), e.to_string());
        }
        let timezone = f
            .timezone
            .as_ref()
            .and_then(|tz| parse_tz(tz, fid, text, &mut issue))
            .unwrap_or(global_tz);
        let mut fetch = global_fetch.clone();
        apply_fetch(
            &mut fetch,
            FetchOverrides {
                user_agent: f.user_agent.as_ref(),
                timeout: f.timeout.as_ref(),
                max_body_bytes: f.max_body_bytes,
            },
            fid,
            text,
            &mut issue,
        );
        for headers in [&raw.headers, &f.headers].into_iter().flatten() {
            for (name, value) in headers.get_ref() {
                let valid_name = reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_ok();
                let valid_value = reqwest::header::HeaderValue::from_str(value).is_ok();
                if !valid_name || !valid_value {
                    issue(
                        fid,
                        "headers",
                        line(headers.span()),
                        format!("invalid header {name:?}: {value:?}"),
                    );
                    continue;
                }
                fetch.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
                fetch.headers.push((name.clone(), value.clone()));
            }
        }
        let mut mining = global_mining.clone();
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
        apply_mining(
            &mut mining,
            &overrides,
            fid,
            Some(feed_line),
            &mut issue,
            text,
        );
        let mut bodies = BodySettings::default();
        if let Some(b) = f.bodies {
            bodies.enabled = b;
        }
        if let Some(m) = &f.bodies_method {
            let name = m.get_ref().trim();
            if let Err(e) = name.parse::<crate::bodies::Method>() {
                issue(fid, "bodies_method", line(m.span()), e.to_string());
            }
            bodies.method = name.to_string();
        }
        if let Some(c) = f.bodies_concurrency {
            if c == 0 {
                issue(
                    fid,
                    "bodies_concurrency",
                    Some(feed_line),
                    "must be at least 1".into(),
                );
            }
            bodies.concurrency = c.max(1);
        }
        if let Some(a) = f.bodies_allow_other_hosts {
            bodies.allow_other_hosts = a;
        }
        if let Some(t) = &f.bodies_timeout {
            match parse_duration(t.get_ref()) {
                Ok(d) => bodies.timeout = d,
                Err(m) => issue(fid, "bodies_timeout", line(t.span()), m),
            }
        }
        if let Some(t) = &f.bodies_delay {
            match parse_duration(t.get_ref()) {
                Ok(d) => bodies.delay = d,
                Err(m) => issue(fid, "bodies_delay", line(t.span()), m),
            }
        }
        if let Some(m) = f.bodies_max_bytes {
            bodies.max_bytes = m;
        }
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
                Err(e) => issue(fid, "tagpath_thresholds", line(t.span()), e.to_string()),
            }
        }
        if let (Some(url), Some(schedule)) = (url, schedule) {
            feeds.push(Feed {
                id,
                url,
                title: f.title.clone(),
                description: f.description.clone(),
                schedule,
                timezone,
                fetch,
                mining,
                bodies,
                jitter,
                formats,
                max_items,
                max_age,
                robots,
                proxy,
                cookies,
                allow_private_addresses,
                include: f.include.clone(),
                exclude: f.exclude.clone(),
                filter_case_insensitive,
                config_hash: config_hash(&shared_hash_input, text.get(table_span).unwrap_or("")),
                line: feed_line,
            });
        }
    }
    if issues.is_empty() {
        Ok(Config {
            path: path.to_path_buf(),
            output_dir,
            public_url,
            item_template,
            index_template,
            stylesheet,
            state_path,
            listen,
            bearer_token,
            limits,
            feeds,
        })
    } else {
        Err(issues)
    }
}

/// Byte range of the table whose header starts at `header_start`: up to the
/// next line that opens a table (`[` at the start of a line) or the end.
/// (toml's span of an array-of-tables entry covers only its header.)
fn table_range(text: &str, header_start: usize) -> std::ops::Range<usize> {
    let after_header = text
        .get(header_start..)
        .and_then(|t| t.find('\n'))
        .map_or(text.len(), |i| header_start + i);
    let end = text
        .get(after_header..)
        .and_then(|t| {
            t.match_indices('\n')
                .find(|(i, _)| t[i + 1..].trim_start_matches([' ', '\t']).starts_with('['))
                .map(|(i, _)| after_header + i + 1)
        })
        .unwrap_or(text.len());
    header_start..end
}

/// sha256 hex of the shared part of the file and one feed's table.
fn config_hash(shared: &str, table: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(shared.as_bytes());
    h.update([0]);
    h.update(table.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

type IssueSink<'a> = dyn FnMut(Option<&str>, &str, Option<usize>, String) + 'a;

/// Fetch settings that both the file and a feed may set.
struct FetchOverrides<'a> {
    user_agent: Option<&'a String>,
    timeout: Option<&'a Spanned<String>>,
    max_body_bytes: Option<u64>,
}

fn apply_fetch(
    fetch: &mut FetchOptions,
    o: FetchOverrides<'_>,
    feed: Option<&str>,
    text: &str,
    issue: &mut IssueSink<'_>,
) {
    if let Some(ua) = o.user_agent {
        fetch.user_agent = ua.clone();
    }
    if let Some(t) = o.timeout {
        match parse_duration(t.get_ref()) {
            Ok(d) => fetch.total_timeout = d,
            Err(m) => issue(feed, "timeout", Some(line_of(text, t.span().start)), m),
        }
    }
    if let Some(m) = o.max_body_bytes {
        fetch.max_body_bytes = m;
    }
}

fn parse_tz(
    tz: &Spanned<String>,
    feed: Option<&str>,
    text: &str,
    issue: &mut IssueSink<'_>,
) -> Option<chrono_tz::Tz> {
    let parsed = tz.get_ref().trim().parse::<chrono_tz::Tz>().ok();
    if parsed.is_none() {
        issue(
            feed,
            "timezone",
            Some(line_of(text, tz.span().start)),
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
    issue: &mut IssueSink<'_>,
    text: &str,
) {
    if let Some(m) = &raw.mode {
        match m.get_ref().parse::<Mode>() {
            Ok(mode) => params.mode = mode,
            Err(e) => issue(feed, "mode", Some(line_of(text, m.span().start)), e),
        }
    }
    let mut positive = |name: &str, v: Option<usize>, slot: &mut usize| {
        if let Some(v) = v {
            if v == 0 {
                issue(feed, name, table_line, "must be at least 1".into());
            } else {
                *slot = v;
            }
        }
    };
    positive(
        "min_instances",
        raw.min_instances,
        &mut params.min_instances,
    );
    positive(
        "min_pattern_len",
        raw.min_pattern_len,
        &mut params.min_pattern_len,
    );
    positive(
        "min_record_len",
        raw.min_record_len,
        &mut params.min_record_len,
    );
    positive(
        "max_pattern_len",
        raw.max_pattern_len,
        &mut params.max_pattern_len,
    );
    positive(
        "max_candidates",
        raw.max_candidates,
        &mut params.max_candidates,
    );
    if let Some(k) = &raw.key_tags {
        params.key_tags = k.clone();
    }
    if let Some(c) = &raw.min_coverage {
        let v = *c.get_ref();
        if (0.0..=1.0).contains(&v) {
            params.min_coverage = v;
        } else {
            issue(
                feed,
                "min_coverage",
                Some(line_of(text, c.span().start)),
                format!("{v} is not a share between 0 and 1"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(s: &str) -> Result<Config, ConfigError> {
        parse(s, Path::new("/etc/feedmine/feeds.toml"))
    }

    fn issues(s: &str) -> Vec<ConfigIssue> {
        match parse_str(s) {
            Err(ConfigError::Invalid { issues, .. }) => issues,
            other => panic!("expected issues, got {other:?}"),
        }
    }

    #[test]
    fn valid_file_merges_globals_and_overrides() {
        let c = parse_str(
            r#"
output_dir = "out"
public_url = "https://example.org/feeds"
timeout = "10s"
timezone = "Europe/Berlin"

[mining]
min_instances = 4

[[feed]]
id = "news"
url = "https://news.example.com/world/"
schedule = "*/30 * * * *"

[[feed]]
id = "blog"
url = "https://blog.example.com/"
mode = "paper"
min_instances = 5
bodies = false
timezone = "Asia/Shanghai"
"#,
        )
        .unwrap();
        assert_eq!(c.output_dir, PathBuf::from("/etc/feedmine/out"));
        assert_eq!(c.public_url.unwrap().as_str(), "https://example.org/feeds/");
        assert_eq!(c.feeds.len(), 2);
        let (news, blog) = (&c.feeds[0], &c.feeds[1]);
        assert_eq!(news.mining.min_instances, 4);
        assert_eq!(news.mining.mode, Mode::Structural);
        assert_eq!(news.fetch.total_timeout, Duration::from_secs(10));
        assert_eq!(news.timezone, chrono_tz::Europe::Berlin);
        assert_eq!(news.line, 10);
        assert_eq!(blog.mining.min_instances, 5);
        assert_eq!(blog.mining.mode, Mode::Paper);
        assert!(!blog.bodies.enabled && news.bodies.enabled);
        assert_eq!(blog.schedule.source, DEFAULT_SCHEDULE);
        assert_eq!(blog.timezone, chrono_tz::Asia::Shanghai);
    }

    #[test]
    fn typo_names_feed_field_and_line() {
        let got =
            issues("[[feed]]\nid = \"news\"\nurl = \"https://x.example/\"\nmin_instance = 3\n");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].feed.as_deref(), Some("news"));
        assert_eq!(got[0].field, "min_instance");
        assert_eq!(got[0].line, Some(4));
    }

    #[test]
    fn all_validation_errors_are_reported_with_lines() {
        let got = issues(
            "[[feed]]\nid = \"a b\"\nurl = \"ftp://x/\"\n\n[[feed]]\nid = \"ok\"\nurl = \"not a url\"\nschedule = \"* * *\"\ntimezone = \"Mars/Base\"\nmin_coverage = 2.0\ntimeout = \"5 parsecs\"\nbodies_method = \"magic\"\n",
        );
        let fields: Vec<(&str, Option<usize>)> =
            got.iter().map(|i| (i.field.as_str(), i.line)).collect();
        assert!(fields.contains(&("id", Some(2))), "{got:?}");
        assert!(fields.contains(&("url", Some(3))));
        assert!(fields.contains(&("url", Some(7))));
        assert!(fields.contains(&("schedule", Some(8))));
        assert!(fields.contains(&("timezone", Some(9))));
        assert!(fields.contains(&("min_coverage", Some(10))));
        assert!(fields.contains(&("timeout", Some(11))));
        assert!(fields.contains(&("bodies_method", Some(12))));
        assert!(
            got.iter()
                .filter(|i| i.line.unwrap_or(0) >= 6)
                .all(|i| i.feed.as_deref() == Some("ok"))
        );
    }

    #[test]
    fn duplicate_ids_and_empty_file() {
        let got = issues(
            "[[feed]]\nid = \"a\"\nurl = \"https://x/\"\n[[feed]]\nid = \"a\"\nurl = \"https://y/\"\n",
        );
        assert_eq!(got[0].message, "duplicate feed id");
        assert_eq!(got[0].line, Some(5));
        let got = issues("output_dir = \"x\"\n");
        assert_eq!(got[0].field, "feed");
    }

    #[test]
    fn relative_url_is_a_local_page_beside_the_config() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("site")).unwrap();
        std::fs::write(dir.path().join("site/index.html"), "<p>x</p>").unwrap();
        let cfg = dir.path().join("feeds.toml");
        let c = parse("[[feed]]\nid = \"demo\"\nurl = \"site/index.html\"\n", &cfg).unwrap();
        assert_eq!(c.feeds[0].url.scheme(), "file");
        assert!(c.feeds[0].url.path().ends_with("/site/index.html"));
        // A relative path that is not a file is an error, not a silent path.
        assert!(
            parse(
                "[[feed]]\nid = \"demo\"\nurl = \"site/missing.html\"\n",
                &cfg
            )
            .is_err()
        );
    }

    #[test]
    fn body_method_parameters_are_per_feed_config_fields() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("tp.toml"),
            "length = 120.0\ncn = 30.0\nfrequency = 3.0\n",
        )
        .unwrap();
        let cfg = dir.path().join("feeds.toml");
        let c = parse(
            "[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\nbodies_method = \"cevc\"\ncevc = { alpha = 0.4 }\nsimilarity = { beta = 0.6 }\ntagpath_thresholds = \"tp.toml\"\n",
            &cfg,
        )
        .unwrap();
        let b = &c.feeds[0].bodies;
        assert_eq!(b.method, "cevc");
        assert_eq!(b.params.cevc.alpha, 0.4);
        assert_eq!(b.params.similarity.beta, 0.6);
        assert_eq!(b.params.tagpath.thresholds.length, 120.0);
        // Paper defaults where unset.
        let d = parse("[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\n", &cfg).unwrap();
        assert_eq!(d.feeds[0].bodies.params.cevc.alpha, 0.5);
        assert_eq!(d.feeds[0].bodies.params.similarity.beta, 0.7);
        // A typo inside a parameter table is an error with its line.
        let e = parse(
            "[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\ncevc = { alpah = 0.4 }\n",
            &cfg,
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("line 4") && e.to_string().contains("alpah"),
            "{e}"
        );
    }

    #[test]
    fn item_template_is_loaded_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("feeds.toml");
        std::fs::write(dir.path().join("good.html"), "<div>{{ body | safe }}</div>").unwrap();
        std::fs::write(dir.path().join("bad.html"), "{% if %}").unwrap();
        let feed = "[[feed]]\nid = \"a\"\nurl = \"https://x.example/\"\n";
        assert!(parse(&format!("item_template = \"good.html\"\n{feed}"), &cfg).is_ok());
        let e = parse(&format!("item_template = \"bad.html\"\n{feed}"), &cfg).unwrap_err();
        assert!(
            e.to_string().contains("line 1") && e.to_string().contains("item_template"),
            "{e}"
        );
        let e = parse(&format!("item_template = \"missing.html\"\n{feed}"), &cfg).unwrap_err();
        assert!(e.to_string().contains("cannot read"), "{e}");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("15").unwrap(), Duration::from_secs(15));
        assert!(parse_duration("soon").is_err());
    }

    #[test]
    fn daemon_settings_merge_globals_and_feed_overrides() {
        let c = parse_str(
            r#"
every = "30m"
jitter = "1m"
formats = ["rss", "atom"]
max_items = 20
max_age = "7d"
headers = { "Accept-Language" = "en", "X-Trace" = "global" }
cookies = "consent=yes"
concurrency = 8
host_delay = "2s"
backoff_base = "30s"
backoff_max = "6h"
listen = "127.0.0.1:8080"
state = "var/state.db"

[[feed]]
id = "a"
url = "https://example.com/news/"
schedule = "0 9 * * 1-5"
formats = ["json", "rss", "json"]
headers = { "X-Trace" = "feed-a" }
proxy = "http://proxy.internal:3128"
robots = "all"
allow_private_addresses = true
exclude = [{ title = "sponsored" }]

[[feed]]
id = "b"
url = "https://example.org/blog/"
"#,
        )
        .unwrap();
        let (a, b) = (&c.feeds[0], &c.feeds[1]);
        // A feed's crontab schedule wins over the file's interval.
        assert!(a.schedule.interval().is_none());
        assert_eq!(b.schedule.interval(), Some(Duration::from_secs(1800)));
        assert_eq!(
            a.formats,
            [crate::feed::Format::Json, crate::feed::Format::Rss]
        );
        assert_eq!(
            b.formats,
            [crate::feed::Format::Rss, crate::feed::Format::Atom]
        );
        assert_eq!(
            (a.max_items, b.max_age),
            (20, Duration::from_secs(7 * 86_400))
        );
        assert_eq!(b.jitter, Duration::from_secs(60));
        let header = |f: &Feed, n: &str| {
            f.fetch
                .headers
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.clone())
        };
        assert_eq!(header(a, "X-Trace").as_deref(), Some("feed-a"));
        assert_eq!(header(b, "X-Trace").as_deref(), Some("global"));
        assert_eq!(header(a, "Accept-Language").as_deref(), Some("en"));
        assert_eq!(a.cookies.as_deref(), Some("consent=yes"));
        assert_eq!(
            a.proxy.as_ref().map(Url::as_str),
            Some("http://proxy.internal:3128/")
        );
        assert_eq!(
            (a.robots, b.robots),
            (RobotsPolicy::All, RobotsPolicy::Articles)
        );
        assert!(a.allow_private_addresses && !b.allow_private_addresses);
        assert_eq!(a.exclude.len(), 1);
        assert_eq!(c.limits.concurrency, 8);
        assert_eq!(c.limits.host_delay, Duration::from_secs(2));
        assert_eq!(c.limits.backoff_max, Duration::from_secs(6 * 3600));
        assert_eq!(c.listen, Some("127.0.0.1:8080".parse().unwrap()));
        assert_eq!(c.state_path, Path::new("/etc/feedmine/var/state.db"));
        assert_ne!(a.config_hash, b.config_hash);
    }

    #[test]
    fn config_hash_changes_with_the_feed_or_the_globals_only() {
        let base = "timeout = \"30s\"\n[[feed]]\nid = \"a\"\nurl = \"https://a.example/\"\n[[feed]]\nid = \"b\"\nurl = \"https://b.example/\"\n";
        let hash = |text: &str, i: usize| parse_str(text).unwrap().feeds[i].config_hash.clone();
        let other_feed_changed = base.replace("https://b.example/", "https://b.example/x");
        assert_eq!(hash(base, 0), hash(&other_feed_changed, 0));
        assert_ne!(hash(base, 1), hash(&other_feed_changed, 1));
        let global_changed = base.replace("30s", "20s");
        assert_ne!(hash(base, 0), hash(&global_changed, 0));
        // Defaults: state beside the output directory, rss only.
        let c = parse_str(base).unwrap();
        assert_eq!(c.state_path, Path::new("/etc/feedmine/feedmine.db"));
        assert_eq!(c.feeds[0].formats, [crate::feed::Format::Rss]);
    }

    #[test]
    fn bad_daemon_settings_name_feed_field_and_line() {
        let found = issues(
            r#"listen = "localhost"
[[feed]]
id = "a"
url = "https://example.com/"
schedule = "@hourly"
every = "10m"
formats = ["rss", "mobi"]
max_items = 0
proxy = "socks5://x:1"
headers = { "Bad Header" = "x" }
robots = "sometimes"
include = [{ title = "(unclosed" }]
"#,
        );
        let fields: Vec<&str> = found.iter().map(|i| i.field.as_str()).collect();
        for f in [
            "listen",
            "every",
            "formats",
            "max_items",
            "proxy",
            "headers",
            "robots",
            "include/exclude",
        ] {
            assert!(fields.contains(&f), "{f} missing from {found:?}");
        }
        let every = found.iter().find(|i| i.field == "every").unwrap();
        assert_eq!((every.feed.as_deref(), every.line), (Some("a"), Some(6)));
    }
}
