//! `feeds.toml` exactly as written: serde structs with `deny_unknown_fields`
//! and spans, so that validation (`validate`) can name the line of every
//! problem. Nothing here interprets a value.

use serde::Deserialize;
use toml::Spanned;

/// The file as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConfig {
    /// Where feeds are written; relative paths are relative to the file.
    pub output_dir: Option<Spanned<String>>,
    /// Public base URL the output directory is served at (for
    /// `atom:link rel="self"`), e.g. `https://example.org/feeds/`.
    pub public_url: Option<Spanned<String>>,
    pub user_agent: Option<Spanned<String>>,
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
    /// Where the state lives (items, fetch cache, run history): an SQLite
    /// file, relative to this file (default: `feedmine.db` beside the
    /// output directory), or a `postgres://user@host/db` URL shared by
    /// several instances. `FEEDMINE_STATE` overrides it (so a password need
    /// not live in the file; `PGPASSWORD` works too).
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
    /// A file replacing `templates/feed.html` (each feed's HTML page).
    pub page_template: Option<Spanned<String>>,
    /// Serve the console at `/console` (preview a page, copy a `[[feed]]`).
    pub console: Option<bool>,
    /// Let the console append feeds to this file (needs `console`).
    pub console_write: Option<bool>,
    /// Pages fetched at once by the whole daemon.
    pub concurrency: Option<Spanned<usize>>,
    /// Pages fetched at once from one host.
    pub host_concurrency: Option<Spanned<usize>>,
    /// Memory (MiB) all pages being read and parsed may take together.
    pub memory_budget_mib: Option<Spanned<usize>>,
    /// Pages rendered in Chromium at once.
    pub render_concurrency: Option<Spanned<usize>>,
    /// The Chromium binary (default: `chromium` on `PATH`).
    pub chromium_path: Option<Spanned<String>>,
    /// Minimum time between two request starts to one host, e.g. `"1s"`.
    pub host_delay: Option<Spanned<String>>,
    /// First retry delay after a failed run (doubles per failure).
    pub backoff_base: Option<Spanned<String>>,
    /// Longest retry delay after failures.
    pub backoff_max: Option<Spanned<String>>,
    /// With a PostgreSQL state shared by several instances: how long a
    /// feed's lease lasts unless its holder renews it (a dead instance's
    /// feeds move to another within this time).
    pub lease_time: Option<Spanned<String>>,
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

/// `bodies = true | false | "always"`.
#[derive(Debug, Deserialize, Clone)]
#[serde(untagged)]
pub enum RawBodies {
    Flag(bool),
    Word(String),
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
    pub user_agent: Option<Spanned<String>>,
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
    /// Fill item bodies from the linked pages: `true`, `false`, or
    /// `"always"` (also for feed items that carry their own content).
    pub bodies: Option<Spanned<RawBodies>>,
    /// Where the items come from: `"page"` (records mined from the list
    /// page, the default) or `"feed"` (the RSS/Atom/JSON Feed at `url`).
    pub source: Option<Spanned<String>>,
    /// List pages to follow through "next" links (1 = only `url`).
    pub pages: Option<Spanned<usize>>,
    pub bodies_method: Option<Spanned<String>>,
    pub bodies_concurrency: Option<usize>,
    pub bodies_allow_other_hosts: Option<bool>,
    pub bodies_timeout: Option<Spanned<String>>,
    pub bodies_max_bytes: Option<u64>,
    pub bodies_delay: Option<Spanned<String>>,
    /// `"chromium"`: load article pages in headless Chromium; `"none"`.
    pub bodies_render: Option<Spanned<String>>,
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
    /// Link parameters that never identify a record here (added to the
    /// session/tracking defaults), e.g. `["visit", "token"]`.
    #[serde(default)]
    pub ignore_params: Vec<String>,
    /// Default-ignored parameters that do identify records here, e.g.
    /// `["ref"]`.
    #[serde(default)]
    pub keep_params: Vec<String>,
    /// `[feed.select]`: CSS selectors for the records and their fields,
    /// instead of automatic detection (`feedmine pin` writes it).
    pub select: Option<Spanned<RawSelect>>,
    /// Take the automatic group ranked N (1 = the winner) as `preview`
    /// numbers them. Fragile; `select` (via `pin`) is the lasting way.
    pub group: Option<Spanned<i64>>,
    /// `"auto"`: while `select`/`group` find nothing, use automatic
    /// detection (the feed is still shown as degraded); `"none"` (default).
    pub fallback: Option<Spanned<String>>,
    /// `"chromium"`: load the list page in headless Chromium; `"none"`.
    pub render: Option<Spanned<String>>,
    /// With `render`: wait until this CSS selector matches.
    pub wait_for: Option<Spanned<String>>,
}

/// `[feed.select]` as written: `records` is required, the rest optional;
/// `"css@attr"` reads an attribute instead of the text.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSelect {
    pub records: Option<Spanned<String>>,
    /// Element siblings after each match that belong to its record.
    pub siblings: Option<Spanned<i64>>,
    pub title: Option<Spanned<String>>,
    pub link: Option<Spanned<String>>,
    pub date: Option<Spanned<String>>,
    pub summary: Option<Spanned<String>>,
    pub image: Option<Spanned<String>>,
    pub author: Option<Spanned<String>>,
    pub categories: Option<Spanned<String>>,
}
