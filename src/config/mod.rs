//! `feeds.toml`, in two stages: [`RawConfig`] is exactly the file (serde,
//! `deny_unknown_fields`, with spans), and [`Config`] is the validated form
//! (parsed URLs, schedules, time zones, durations, per-feed thresholds
//! merged over the global ones).
//!
//! Invariants: every error names the feed (when there is one), the field and
//! the line; validation reports all errors of a file at once, not only the
//! first; feed ids are unique and safe as file names.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use url::Url;

use crate::extract::patterns::MiningParams;
use crate::fetch::FetchOptions;
use crate::schedule::Schedule;

mod raw;
mod validate;

pub use raw::{RawConfig, RawFeed, RawMining};

/// The schedule a feed gets when neither it nor the file names one.
pub const DEFAULT_SCHEDULE: &str = "0 * * * *";
/// Output directory when the file names none (relative to the file).
pub const DEFAULT_OUTPUT_DIR: &str = "public";
/// State file name, beside the output directory, when the file names none.
pub const DEFAULT_STATE_FILE: &str = "feedmine.db";
/// Longest feed id: ids name files (`<id>.xml`, `<id>.html`, …), and some
/// filesystems and URL paths choke on long names.
pub const MAX_FEED_ID_LEN: usize = 100;
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
/// Default `lease_time` (see [`DaemonLimits::lease_time`]).
pub const DEFAULT_LEASE_TIME: Duration = Duration::from_secs(60);

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

/// Item-body settings of one feed.
#[derive(Debug, Clone)]
pub struct BodySettings {
    pub enabled: bool,
    /// `bodies = "always"`: extract bodies even for items whose source feed
    /// already carries full content.
    pub always: bool,
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
    /// `bodies_render = "chromium"`: article pages are loaded in the browser.
    pub render: bool,
}

impl Default for BodySettings {
    fn default() -> Self {
        BodySettings {
            enabled: true,
            always: false,
            method: "reverse".to_string(),
            concurrency: 4,
            allow_other_hosts: false,
            timeout: Duration::from_secs(20),
            max_bytes: 5 * 1024 * 1024,
            delay: Duration::from_millis(250),
            params: crate::bodies::BodyParams::default(),
            render: false,
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
    /// Where the items come from.
    pub source: Source,
    /// List pages read at most per run (`pages`, 1 = only `url`).
    pub pages: usize,
    /// Random delay up to this long added to each scheduled run.
    pub jitter: Duration,
    /// Published formats, in config order, without duplicates.
    pub formats: Vec<crate::publish::feed::Format>,
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
    /// Which link parameters item identity ignores (`ignore_params`,
    /// `keep_params` over the defaults).
    pub identity: crate::state::identity::IdentityRules,
    /// Hash of everything in the file that shapes this feed's output: a
    /// change invalidates the feed's conditional-GET cache.
    pub config_hash: String,
    /// Line of the `[[feed]]` table.
    pub line: usize,
    /// How the records are chosen: automatically, `group = N` or
    /// `[feed.select]`.
    pub choice: crate::extract::selectors::ListChoice,
    /// `render = "chromium"`: the list page is loaded in the browser.
    pub render: Option<RenderSettings>,
}

/// How a rendered feed's page is loaded (`render = "chromium"`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenderSettings {
    /// Wait until this CSS selector matches, else until the network is
    /// quiet (both bounded by the feed's `timeout`).
    pub wait_for: Option<String>,
}

/// Where a feed's items come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Source {
    /// Records mined from the list page (a page that turns out to be a
    /// feed is read as one).
    #[default]
    Page,
    /// The RSS, Atom or JSON Feed at `url`.
    Feed,
}

/// Most list pages `pages` may ask for: a backfill of this many pages is
/// already a burst of requests to one host.
pub const MAX_PAGES: usize = 20;

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
    /// See [`crate::fetch::memory::DEFAULT_MEMORY_BUDGET_MIB`] (read at start).
    pub memory_budget_mib: usize,
    /// See [`crate::fetch::render::DEFAULT_RENDER_CONCURRENCY`] (read at start).
    pub render_concurrency: usize,
    /// See [`DEFAULT_HOST_DELAY`].
    pub host_delay: Duration,
    /// See [`DEFAULT_BACKOFF_BASE`].
    pub backoff_base: Duration,
    /// See [`DEFAULT_BACKOFF_MAX`].
    pub backoff_max: Duration,
    /// How long a feed's lease in a shared state lasts unless renewed
    /// (see [`DEFAULT_LEASE_TIME`]; at least 2 s).
    pub lease_time: Duration,
}

impl Default for DaemonLimits {
    fn default() -> Self {
        DaemonLimits {
            concurrency: DEFAULT_CONCURRENCY,
            host_concurrency: DEFAULT_HOST_CONCURRENCY,
            memory_budget_mib: crate::fetch::memory::DEFAULT_MEMORY_BUDGET_MIB as usize,
            render_concurrency: crate::fetch::render::DEFAULT_RENDER_CONCURRENCY,
            host_delay: DEFAULT_HOST_DELAY,
            backoff_base: DEFAULT_BACKOFF_BASE,
            backoff_max: DEFAULT_BACKOFF_MAX,
            lease_time: DEFAULT_LEASE_TIME,
        }
    }
}

/// A validated config file.
#[derive(Debug, Clone)]
pub struct Config {
    pub path: PathBuf,
    pub output_dir: PathBuf,
    pub public_url: Option<Url>,
    pub item_template: crate::publish::templates::ItemTemplate,
    /// Override of `templates/index.html`, checked at load.
    pub index_template: Option<PathBuf>,
    /// Override of `templates/feed.xsl`, checked at load.
    pub stylesheet: Option<PathBuf>,
    /// Override of `templates/feed.html`, checked at load.
    pub page_template: Option<PathBuf>,
    /// Serve `/console` (see [`RawConfig::console`]).
    pub console: bool,
    /// The console may append feeds to this file.
    pub console_write: bool,
    /// Where the state lives: an SQLite file (default) or a PostgreSQL
    /// database (`FEEDMINE_STATE` overrides the file's `state`).
    pub state: crate::state::StateLocation,
    /// Where `feedmine run` serves (unless `--listen` says otherwise).
    pub listen: Option<std::net::SocketAddr>,
    /// Token the server requires (see [`RawConfig::bearer_token`]).
    pub bearer_token: Option<String>,
    pub limits: DaemonLimits,
    /// `chromium_path` (resolved against the config's directory).
    pub chromium_path: Option<PathBuf>,
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
pub(super) fn line_of(text: &str, offset: usize) -> usize {
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
    let raw = parse_raw(text).map_err(invalid)?;
    validate::validate(raw, text, path).map_err(invalid)
}

/// Problems reported from one file at most (a file of garbage would
/// otherwise list thousands).
const MAX_SHAPE_ISSUES: usize = 50;

/// The file as serde structs. A syntax error stops at once; unknown keys
/// are all reported: each is removed from the parsed tree and the tree is
/// read again, so one typo does not hide the next.
fn parse_raw(text: &str) -> Result<RawConfig, Vec<ConfigIssue>> {
    use serde::Deserialize;
    if let Some(issue) = single_bracket_table(text) {
        return Err(vec![issue]);
    }
    let mut tree = toml::de::DeTable::parse(text).map_err(|e| vec![issue_of(text, &e)])?;
    let mut issues = Vec::new();
    while issues.len() < MAX_SHAPE_ISSUES {
        let err = match RawConfig::deserialize(toml::de::Deserializer::from(tree.clone())) {
            Ok(raw) if issues.is_empty() => return Ok(raw),
            Ok(_) => break,
            Err(e) => e,
        };
        issues.push(issue_of(text, &err));
        let removable = err.message().starts_with("unknown field");
        if !(removable && err.span().is_some_and(|s| remove_key(tree.get_mut(), &s))) {
            break;
        }
    }
    issues.sort_by_key(|i| i.line);
    Err(issues)
}

/// `[feed]` (or `[ feed ]`) where `[[feed]]` is meant: toml reads it as one
/// table and serde's "invalid type: map, expected a sequence" says nothing
/// useful, so it is named exactly.
fn single_bracket_table(text: &str) -> Option<ConfigIssue> {
    text.lines().enumerate().find_map(|(i, l)| {
        let code = l.split('#').next().unwrap_or("").trim();
        let inner = code.strip_prefix('[')?.strip_suffix(']')?;
        (!inner.starts_with('[') && inner.trim() == "feed").then(|| ConfigIssue {
            feed: None,
            field: "feed".to_string(),
            line: Some(i + 1),
            message: "`[feed]` declares a single table; each feed is an entry of the \
                      `feed` array: write `[[feed]]` (two brackets on each side)"
                .to_string(),
        })
    })
}

/// A toml/serde error as an issue with its feed, field and line.
fn issue_of(text: &str, e: &toml::de::Error) -> ConfigIssue {
    ConfigIssue {
        // The feed the error is in: the last `[[feed]]` before it with an
        // `id` line.
        feed: e.span().and_then(|s| feed_id_before(text, s.start)),
        field: field_of_message(e.message()),
        line: e.span().map(|s| line_of(text, s.start)),
        message: e.message().trim().to_string(),
    }
}

/// Remove the entry whose key sits at `span`, anywhere in the tree.
fn remove_key(table: &mut toml::de::DeTable<'_>, span: &std::ops::Range<usize>) -> bool {
    use toml::de::DeValue;
    let key = table
        .iter()
        .find(|(k, _)| k.span() == *span)
        .map(|(k, _)| k.clone());
    if let Some(key) = key {
        return table.remove(&key).is_some();
    }
    table.iter_mut().any(|(_, v)| match v.get_mut() {
        DeValue::Table(t) => remove_key(t, span),
        DeValue::Array(a) => a.iter_mut().any(|e| match e.get_mut() {
            DeValue::Table(t) => remove_key(t, span),
            _ => false,
        }),
        _ => false,
    })
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

/// Byte range of the table whose header starts at `header_start`: up to the
/// next line that opens a table (`[` at the start of a line) or the end.
/// (toml's span of an array-of-tables entry covers only its header.)
pub(super) fn table_range(text: &str, header_start: usize) -> std::ops::Range<usize> {
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
pub(super) fn config_hash(shared: &str, table: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(shared.as_bytes());
    h.update([0]);
    h.update(table.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::patterns::Mode;

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
    fn render_settings_are_checked() {
        let found = issues(
            r#"render_concurrency = 0
[[feed]]
id = "a"
url = "https://example.com/"
render = "firefox"
bodies_render = "yes"

[[feed]]
id = "b"
url = "https://example.com/b"
wait_for = "article"

[[feed]]
id = "c"
url = "https://example.com/c"
render = "chromium"
wait_for = "article[["
"#,
        );
        let got: Vec<(Option<&str>, &str)> = found
            .iter()
            .map(|i| (i.feed.as_deref(), i.field.as_str()))
            .collect();
        for want in [
            (None, "render_concurrency"),
            (Some("a"), "render"),
            (Some("a"), "bodies_render"),
            (Some("b"), "wait_for"),
            (Some("c"), "wait_for"),
        ] {
            assert!(got.contains(&want), "{want:?} missing from {found:?}");
        }
        let c = parse_str(
            "chromium_path = \"bin/chromium\"\n[[feed]]\nid = \"a\"\nurl = \"https://example.com/\"\n\
             render = \"chromium\"\nwait_for = \"article.job\"\nbodies_render = \"chromium\"\n",
        )
        .unwrap();
        let f = &c.feeds[0];
        assert_eq!(
            f.render.as_ref().and_then(|r| r.wait_for.as_deref()),
            Some("article.job")
        );
        assert!(f.bodies.render);
        assert!(c.chromium_path.is_some_and(|p| p.ends_with("bin/chromium")));
        assert_eq!(c.limits.render_concurrency, 2);
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

    /// Regression: `[feed]` gave "invalid type: map, expected a sequence".
    #[test]
    fn single_bracket_feed_table_is_named() {
        let got = issues(
            "output_dir = \"out\"\n\n[feed]  # mine\nid = \"n\"\nurl = \"https://x.example/\"\n",
        );
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].line, Some(3));
        assert!(
            got[0].message.contains("write `[[feed]]`"),
            "{}",
            got[0].message
        );
        // `ignore_params` / `keep_params` are read per feed.
        let c = parse_str(
            "[[feed]]\nid = \"b\"\nurl = \"https://x.example/\"\nignore_params = [\"Visit\"]\nkeep_params = [\"ref\"]\n",
        )
        .unwrap();
        let key = c.feeds[0]
            .identity
            .key(&url::Url::parse("https://x.example/t?id=1&visit=2&ref=3&sid=4").unwrap());
        assert_eq!(key, "https://x.example/t?id=1&ref=3");
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
    fn every_unknown_key_is_reported_at_once_with_its_line() {
        let text = "output_dir = \"out\"\nlisten_on = \"x\"\n\n[[feed]]\nid = \"a\"\nurl = \"https://a.example/\"\nschedul = \"0 * * * *\"\n\n[[feed]]\nid = \"b\"\nurl = \"https://b.example/\"\nformat = [\"rss\"]\n\n[mining]\nmin_instance = 3\n";
        let found = issues(text);
        let got: Vec<(Option<&str>, &str, Option<usize>)> = found
            .iter()
            .map(|i| (i.feed.as_deref(), i.field.as_str(), i.line))
            .collect();
        assert_eq!(
            got,
            vec![
                (None, "listen_on", Some(2)),
                (Some("a"), "schedul", Some(7)),
                (Some("b"), "format", Some(12)),
                (Some("b"), "min_instance", Some(15)),
            ],
            "{found:?}"
        );
    }

    #[test]
    fn values_that_would_fail_every_run_are_caught_by_check() {
        let base = "[[feed]]\nid = \"a\"\nurl = \"https://a.example/\"\n";
        let cases = [
            ("user_agent = \"bot/1.0\\nX-Evil: 1\"\n", "user_agent"),
            ("timeout = \"0s\"\n", "timeout"),
            ("bodies_timeout = \"0s\"\n", "bodies_timeout"),
            (
                "headers = { X-Api-Key = \"k\\r\\nHost: evil\" }\n",
                "headers",
            ),
        ];
        for (line, field) in cases {
            let found = issues(&format!("{base}{line}"));
            assert!(
                found.iter().any(|i| i.field == field && i.line == Some(4)),
                "{line}: {found:?}"
            );
        }
        let long = "x".repeat(MAX_FEED_ID_LEN + 1);
        let found = issues(&format!(
            "[[feed]]\nid = \"{long}\"\nurl = \"https://a.example/\"\n"
        ));
        assert!(
            found
                .iter()
                .any(|i| i.field == "id" && i.message.contains("1 to 100")),
            "{found:?}"
        );
        let ok_len = "x".repeat(MAX_FEED_ID_LEN);
        assert!(
            parse_str(&format!(
                "[[feed]]\nid = \"{ok_len}\"\nurl = \"https://a.example/\"\n"
            ))
            .is_ok()
        );
        let found = issues(
            "[[feed]]\nid = \"News\"\nurl = \"https://a.example/\"\n[[feed]]\nid = \"news\"\nurl = \"https://b.example/\"\n",
        );
        assert!(
            found
                .iter()
                .any(|i| i.feed.as_deref() == Some("news") && i.message.contains("duplicate")),
            "{found:?}"
        );
    }

    #[test]
    fn item_template_include_that_fails_at_render_time_is_caught() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("item.html"),
            "{% include \"missing-footer.html\" %}{{ item.title }}",
        )
        .unwrap();
        let path = dir.path().join("feeds.toml");
        let text =
            "item_template = \"item.html\"\n[[feed]]\nid = \"a\"\nurl = \"https://a.example/\"\n";
        let found = match parse(text, &path) {
            Err(ConfigError::Invalid { issues, .. }) => issues,
            other => panic!("expected issues, got {other:?}"),
        };
        assert!(
            found.iter().any(|i| i.field == "item_template"
                && i.line == Some(1)
                && i.message.contains("missing-footer.html")),
            "{found:?}"
        );
    }

    #[test]
    fn duplicate_ids_and_empty_file() {
        let got = issues(
            "[[feed]]\nid = \"a\"\nurl = \"https://x/\"\n[[feed]]\nid = \"a\"\nurl = \"https://y/\"\n",
        );
        assert_eq!(
            got[0].message,
            "duplicate feed id (ids must differ in more than letter case)"
        );
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
memory_budget_mib = 96
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
            [
                crate::publish::feed::Format::Json,
                crate::publish::feed::Format::Rss
            ]
        );
        assert_eq!(
            b.formats,
            [
                crate::publish::feed::Format::Rss,
                crate::publish::feed::Format::Atom
            ]
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
        assert_eq!(c.limits.memory_budget_mib, 96);
        assert_eq!(c.limits.host_delay, Duration::from_secs(2));
        assert_eq!(c.limits.backoff_max, Duration::from_secs(6 * 3600));
        assert_eq!(c.listen, Some("127.0.0.1:8080".parse().unwrap()));
        assert_eq!(
            c.state.sqlite_path(),
            Some(Path::new("/etc/feedmine/var/state.db"))
        );
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
        assert_eq!(
            c.state.sqlite_path(),
            Some(Path::new("/etc/feedmine/feedmine.db"))
        );
        assert_eq!(c.feeds[0].formats, [crate::publish::feed::Format::Rss]);
    }

    #[test]
    fn bad_daemon_settings_name_feed_field_and_line() {
        let found = issues(
            r#"listen = "localhost"
memory_budget_mib = 0
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
            "memory_budget_mib",
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
        assert_eq!((every.feed.as_deref(), every.line), (Some("a"), Some(7)));
    }
}
