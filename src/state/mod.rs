//! The daemon's memory between runs: per feed, the items ever seen
//! (identity, first/last sight, content hash, fetched body), the
//! fetch-cache validators (ETag / Last-Modified per URL) and the run
//! history. Two backends hold it with the same meaning:
//! - [`sqlite`]: one SQLite file (the default; `state = "feedmine.db"`);
//! - [`postgres`]: a PostgreSQL database (`state = "postgres://…"` or the
//!   `FEEDMINE_STATE` environment variable), which several `feedmine run`
//!   instances can share.
//!
//! # Why a sync facade over two backends
//! [`Store`] is one type with one set of *synchronous* methods; inside it an
//! enum holds the backend, and both backends implement the crate-private
//! [`Backend`] trait (the compiler checks they offer the same operations).
//! `refresh`, `daemon`, the server and the commands only see [`Store`] and
//! never learn which backend they use. The API stays synchronous because it
//! always was (SQLite is a sync library, and its calls sit in plain code
//! and on blocking threads all over `refresh`): an async trait would have
//! turned every call site async for the sake of one backend. The PostgreSQL
//! backend runs its async driver (tokio-postgres with a deadpool pool) on a
//! small runtime of its own and waits for each operation's answer, bounded
//! by a timeout, so a lost database makes calls fail, never hang.
//!
//! A shared state also keeps the published documents ([`documents`]) so
//! that every instance serves them alike; on SQLite the files in
//! `output_dir` are all there is (the backend's default methods do
//! nothing).
//!
//! What the two backends share (identity keys, the rows a merge writes,
//! reading rows back into [`StoredItem`]s, the re-keying plan, the order of
//! published items) lives in `rows` and here, so the meaning cannot drift
//! apart; the backends only move rows.
//!
//! # Item identity
//! A record seen again is the same item even when its position, summary or
//! thumbnail changed. Its *key* (unique per feed) is:
//! - with a link: the link normalized by [`identity::IdentityRules`]:
//!   fragment dropped, session and tracking parameters dropped (defaults,
//!   the feed's `ignore_params`, and parameters learnt as volatile; the
//!   other parameters are kept byte for byte, in order), the path's
//!   trailing slash kept as is, the host lowercased (by `url`);
//! - without a link: `title:` + the title lowercased with whitespace
//!   collapsed;
//! - when two records of one page get the same key, the 2nd gets `#2`
//!   appended, the 3rd `#3`, and so on (page order decides).
//!
//! A parameter learnt as volatile is stored per feed (`volatile_params`);
//! the merge that learns it re-keys the stored items under the new rules
//! (of items that become one, the first seen is kept), so the same records
//! never come back as new. The stored link is always the newest one (it
//! keeps working: a session id of the latest visit).
//!
//! A date resolved from a relative phrase ("2 days ago", "today") is kept
//! from the first sight; an absolute page date replaces the stored one.
//!
//! The published *guid* is chosen at first sight and never changes: the
//! link's URL string for linked items, else
//! `feedmine:<feed id>:<first 16 hex of sha256 of the key>`. The *content
//! hash* (sha256 hex over title, summary, image and link) tells an updated
//! record from an unchanged one.
//!
//! # Invariants (both backends)
//! - An item keeps its `first_seen` and `guid` for as long as it is stored;
//!   items new in one run get first_seen `now`, `now - 1 s`, `now - 2 s`, …
//!   in page order, so readers sorting by date keep the page order.
//! - The items of the latest merge of a feed (the *current* items) are never
//!   pruned, so a record still on the page never reappears as new. Other
//!   items are pruned when unseen for longer than max(max_age, 90 days) or
//!   beyond 10 × max_items (least recently seen first): storage is bounded.
//! - Every multi-row change runs in one transaction: a crash (kill -9 at
//!   any point) leaves either all of a merge or none of it.
//! - Times are stored as UTC milliseconds since the epoch; a page date
//!   keeps its offset as RFC 3339 text.
//! - Each backend versions its schema and migrates older databases step by
//!   step at open; a database newer than this build is refused with
//!   [`StateError::TooNew`], never touched.
//! - Error texts name the database by its *label*: the file path, or for
//!   PostgreSQL the connection URL without its password (see `postgres`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, FixedOffset, Utc};
use url::Url;

use crate::drift::Observation;
use crate::extract::items::Item;

pub mod documents;
pub mod identity;
pub mod postgres;
mod preflight;
mod rows;
pub mod sqlite;
mod unfinished;

use documents::{Document, DocumentLookup};
use identity::IdentityRules;
pub use preflight::reset;
pub use rows::content_hash;
pub use unfinished::UNFINISHED_CAUSE;

/// Run history kept per feed; older runs are deleted by [`Store::record_run`].
pub const MAX_RUNS_PER_FEED: usize = 200;
/// Items unseen for less than this are never pruned, whatever `max_age` says.
pub const MIN_PRUNE_AGE: Duration = Duration::days(90);
/// Items kept per feed at most, as a multiple of `max_items` (current items
/// are kept even beyond it).
pub const PRUNE_ITEMS_FACTOR: usize = 10;

/// Why the state database could not be used. Every message names the
/// database by its label (the file, `:memory:` for an in-memory store, or
/// the PostgreSQL URL without password) and the operation.
#[derive(thiserror::Error, Debug)]
pub enum StateError {
    #[error("cannot create the directory for state database {path}")]
    CreateDir {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("state database {path}: cannot {op}")]
    Sql {
        path: String,
        op: &'static str,
        #[source]
        source: rusqlite::Error,
    },
    #[error(
        "state database {path} has schema version {found}, newer than the {supported} this feedmine understands; {hint}"
    )]
    TooNew {
        path: String,
        found: u32,
        supported: u32,
        /// What to do (differs per backend).
        hint: &'static str,
    },
    #[error("state database {path}: cannot {op}: {detail}")]
    Corrupt {
        path: String,
        op: &'static str,
        detail: String,
    },
    #[error("state database {path} {problem}. {hint}")]
    Unusable {
        path: String,
        problem: String,
        hint: String,
    },
    #[error("cannot move state file {path} aside to {to}")]
    Reset {
        path: String,
        to: String,
        #[source]
        source: std::io::Error,
    },
    #[error("state database {path}: cannot {op}: {detail}")]
    Postgres {
        path: String,
        op: &'static str,
        detail: String,
    },
    #[error("state database {path} is unreachable: cannot {op}: {detail}")]
    Unreachable {
        path: String,
        op: &'static str,
        detail: String,
    },
    #[error("invalid PostgreSQL state URL {path}: {detail}")]
    BadUrl { path: String, detail: String },
    #[error("state database {path}: cannot {op}: feed {feed:?} has no item {key:?}")]
    UnknownItem {
        path: String,
        op: &'static str,
        feed: String,
        key: String,
    },
}

/// Conditional-GET validators of one URL, as the server last sent them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CachedValidators {
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

/// One item as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredItem {
    /// Identity key (see the module header); unique per feed.
    pub key: String,
    /// Published guid, fixed at first sight.
    pub guid: String,
    pub link: Option<Url>,
    pub title: String,
    pub summary: String,
    pub image: Option<Url>,
    /// The date found in the record on the page, if any (latest sight).
    pub page_date: Option<DateTime<FixedOffset>>,
    /// When a run first found the record (never changes).
    pub first_seen: DateTime<Utc>,
    /// When a run last found the record on the page.
    pub last_seen: DateTime<Utc>,
    /// sha256 hex over title, summary, image and link (latest sight).
    pub content_hash: String,
    /// Extracted body of the linked page, once fetched.
    pub body_html: Option<String>,
    /// Body fetches tried so far (successful or not).
    pub body_attempts: u32,
    /// The record's byline (latest sight).
    pub author: Option<String>,
    /// The record's tags (latest sight).
    pub categories: Vec<String>,
}

impl StoredItem {
    /// The item for the feed: `date` is the page date, else (or when the
    /// page date is later) `first_seen` (as a UTC offset); `guid` is the
    /// stored guid.
    pub fn to_item(&self) -> Item {
        Item {
            title: self.title.clone(),
            link: self.link.clone(),
            guid: self.guid.clone(),
            // Never after the first sight: a date-only "today" read as noon
            // is dated when it was first seen instead (see the README).
            date: Some(match self.page_date {
                Some(d) if d.to_utc() <= self.first_seen => d,
                _ => self.first_seen.fixed_offset(),
            }),
            summary: self.summary.clone(),
            image: self.image.clone(),
            date_relative: false,
            author: self.author.clone(),
            categories: self.categories.clone(),
            body_html: self.body_html.clone(),
        }
    }
}

/// What the published feed keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Items in the feed at most (the newest).
    pub max_items: usize,
    /// Items unseen for longer than this leave the feed (`None`: never by
    /// age). The current items always stay.
    pub max_age: Option<Duration>,
}

impl Default for Retention {
    /// 100 items, no age limit: prunes storage beyond 1,000 items and 90
    /// days unseen.
    fn default() -> Self {
        Retention {
            max_items: 100,
            max_age: None,
        }
    }
}

/// What one merge did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Merge {
    /// The identity key of every merged item, in the items' order.
    pub keys: Vec<String>,
    /// A parameter this merge learnt as volatile (see [`identity`]).
    pub learned: Option<String>,
    /// Keys of the items seen for the first time, in page order.
    pub new_keys: Vec<String>,
    /// Known items whose content hash changed.
    pub updated: usize,
    /// Known items whose content hash stayed the same.
    pub unchanged: usize,
}

/// One run in the history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRow {
    pub started: DateTime<Utc>,
    pub duration_ms: u64,
    /// `published`, `not_modified`, `degraded` or `failed`.
    pub status: String,
    /// Records found on the list page.
    pub records: usize,
    pub new_items: usize,
    /// [`crate::drift::pattern_signature`] of the winning group.
    pub pattern: Option<String>,
    pub error: Option<String>,
}

/// Body fetches an item gets before it is left with its summary (a value
/// for `items_needing_body`'s `max_attempts`).
pub const DEFAULT_BODY_ATTEMPTS: u32 = 3;

/// Wait after the first failed body fetch of an item; it doubles with each
/// further failure (see [`body_retry_delay`]).
pub const BODY_RETRY_BASE: Duration = Duration::minutes(15);

/// How long after its `attempts`-th failed fetch an item's body may be
/// tried again: 15 min, 30 min, 1 h, ... (capped at 24 h).
pub fn body_retry_delay(attempts: u32) -> Duration {
    let factor = 1i32 << attempts.saturating_sub(1).min(7);
    (BODY_RETRY_BASE * factor).min(Duration::hours(24))
}

/// What an article page says about itself, kept for items whose record
/// had no byline or tags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArticleMeta {
    pub author: Option<String>,
    pub tags: Vec<String>,
}

/// One feedmine process using the state (shared states only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// `<host>-<pid>-<random>`: unique per process start.
    pub id: String,
    pub host: String,
    pub pid: u32,
    pub started: DateTime<Utc>,
    /// Last sign of life (the database's clock; zero until registered).
    pub heartbeat: DateTime<Utc>,
    /// Hash of the config the instance runs (see `daemon::cluster`).
    pub config_hash: String,
}

/// A feed's lease as stored: `holder` may run it until `expires`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    pub feed: String,
    pub holder: String,
    pub expires: DateTime<Utc>,
}

/// Run status of a run whose items were published (a "good" run for drift).
pub const STATUS_PUBLISHED: &str = "published";
/// Run status of a run whose extraction drifted (previous items kept).
pub const STATUS_DEGRADED: &str = "degraded";

/// The operations every backend provides: rows in, rows out. What is
/// derived from them (the convenience merges, the order of published
/// items, the drift streak, settling unfinished runs) is [`Store`]'s, once
/// for both. Every method is one transaction or one statement.
pub(crate) trait Backend: Send + Sync {
    /// How errors name the database (never a password).
    fn label(&self) -> &str;
    fn validators(
        &self,
        feed: &str,
        url: &str,
        config_hash: &str,
    ) -> Result<Option<CachedValidators>, StateError>;
    fn save_validators(
        &self,
        feed: &str,
        url: &str,
        config_hash: &str,
        v: &CachedValidators,
    ) -> Result<(), StateError>;
    fn clear_validators(&self, feed: &str) -> Result<(), StateError>;
    fn save_page_meta(
        &self,
        feed: &str,
        title: Option<&str>,
        language: Option<&str>,
    ) -> Result<(), StateError>;
    fn page_meta(&self, feed: &str) -> Result<(Option<String>, Option<String>), StateError>;
    /// Every feed's list page `<title>` (feeds without one left out).
    fn page_titles(&self) -> Result<HashMap<String, String>, StateError>;
    fn volatile_params(&self, feed: &str) -> Result<Vec<String>, StateError>;
    fn known_keys(&self, feed: &str, keys: &[String]) -> Result<HashSet<String>, StateError>;
    /// [`Store::merge_items_with`], in one transaction.
    fn merge(
        &self,
        feed: &str,
        items: &[Item],
        now: DateTime<Utc>,
        keep: &Retention,
        rules: &IdentityRules,
    ) -> Result<Merge, StateError>;
    fn prune_items(
        &self,
        feed: &str,
        keep: &Retention,
        now: DateTime<Utc>,
    ) -> Result<usize, StateError>;
    fn record_body(
        &self,
        feed: &str,
        key: &str,
        body_html: Option<&str>,
        meta: &ArticleMeta,
        now: DateTime<Utc>,
    ) -> Result<(), StateError>;
    fn items_needing_body(
        &self,
        feed: &str,
        keys: &[String],
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, StateError>;
    fn current_links_by_key(&self, feed: &str) -> Result<Vec<(String, Url)>, StateError>;
    fn clear_bodies(&self, feed: &str) -> Result<usize, StateError>;
    /// The items seen since `since_ms` plus the current ones, unordered,
    /// each with its last page position.
    fn published_rows(
        &self,
        feed: &str,
        since_ms: i64,
    ) -> Result<Vec<(StoredItem, i64)>, StateError>;
    fn item(&self, feed: &str, key: &str) -> Result<Option<StoredItem>, StateError>;
    fn item_count(&self, feed: &str) -> Result<usize, StateError>;
    /// Append a run, clear the feed's run mark, keep the newest
    /// [`MAX_RUNS_PER_FEED`] runs: one transaction.
    fn record_run(&self, feed: &str, run: &RunRow) -> Result<(), StateError>;
    fn recent_runs(&self, feed: &str, n: usize) -> Result<Vec<RunRow>, StateError>;
    fn good_runs(&self, feed: &str, n: usize) -> Result<Vec<Observation>, StateError>;
    fn forget_feed(&self, feed: &str) -> Result<(), StateError>;
    fn mark_run_started(&self, feed: &str, started: DateTime<Utc>) -> Result<(), StateError>;
    /// The run marks left (feed, start), oldest first; in a shared state
    /// only those of feeds whose lease nobody holds.
    fn run_marks(&self) -> Result<Vec<(String, DateTime<Utc>)>, StateError>;
    /// The run mark of `feed`, if one is left.
    fn run_mark(&self, feed: &str) -> Result<Option<DateTime<Utc>>, StateError>;

    // Sharing between instances. A state only one process uses (SQLite)
    // grants every lease and keeps no registry: these defaults.

    /// Whether several instances may share this state.
    fn shared(&self) -> bool {
        false
    }
    /// Take `feed`'s lease for `holder` for `ttl` (or extend it when
    /// `holder` already has it): true when `holder` has it now. Atomic.
    fn acquire_lease(
        &self,
        _feed: &str,
        _holder: &str,
        _ttl: StdDuration,
    ) -> Result<bool, StateError> {
        Ok(true)
    }
    /// Extend `holder`'s lease of `feed` by `ttl` from now: false when it
    /// is not (or no longer) `holder`'s.
    fn renew_lease(
        &self,
        _feed: &str,
        _holder: &str,
        _ttl: StdDuration,
    ) -> Result<bool, StateError> {
        Ok(true)
    }
    /// Give `feed`'s lease up, if `holder` has it.
    fn release_lease(&self, _feed: &str, _holder: &str) -> Result<(), StateError> {
        Ok(())
    }
    /// The unexpired leases.
    fn leases(&self) -> Result<Vec<Lease>, StateError> {
        Ok(Vec::new())
    }
    /// Register `me` or refresh its heartbeat and config hash.
    fn heartbeat(&self, _me: &Instance) -> Result<(), StateError> {
        Ok(())
    }
    /// The instances whose heartbeat is younger than `within`.
    fn instances(&self, _within: StdDuration) -> Result<Vec<Instance>, StateError> {
        Ok(Vec::new())
    }
    /// Remove instance `id` and give up its leases (at shutdown).
    fn leave(&self, _id: &str) -> Result<(), StateError> {
        Ok(())
    }

    // Published documents (see `documents`). A state only one process
    // uses keeps none: the files in `output_dir` are what is served.

    /// Store `docs` (replacing documents of the same name), in one
    /// transaction; a document whose bytes did not change keeps its
    /// `modified` time.
    fn store_documents(&self, _docs: &[Document]) -> Result<(), StateError> {
        Ok(())
    }
    /// The document `name`, or [`DocumentLookup::Unchanged`] when its tag
    /// is still `known_etag`.
    fn document(
        &self,
        _name: &str,
        _known_etag: Option<&str>,
    ) -> Result<DocumentLookup, StateError> {
        Ok(DocumentLookup::Missing)
    }
    /// The name and tag of every stored document.
    fn document_tags(&self) -> Result<Vec<(String, String)>, StateError> {
        Ok(Vec::new())
    }
    /// One round trip to the database (is it reachable?).
    fn ping(&self) -> Result<(), StateError> {
        Ok(())
    }

    // Per-host politeness between instances (`fetch::cluster_gate`). A
    // state only one process uses leaves it to the in-process gate: every
    // slot and turn is granted, nothing is stored.

    /// Take one of `host`'s `slots` concurrency slots for `holder` until
    /// `hold` from now: its number, or `None` while all are held.
    fn take_host_slot(
        &self,
        _host: &str,
        _holder: &str,
        _slots: u32,
        _hold: StdDuration,
    ) -> Result<Option<u32>, StateError> {
        Ok(Some(0))
    }
    /// Give slot `slot` of `host` up, if `holder` still has it.
    fn release_host_slot(&self, _host: &str, _holder: &str, _slot: u32) -> Result<(), StateError> {
        Ok(())
    }
    /// Start a request to `host` now, when the last start is `spacing` (and
    /// its starter's own spacing) ago and no deferral is running: `None`
    /// when granted, else how long to wait before asking again.
    fn take_host_turn(
        &self,
        _host: &str,
        _spacing: StdDuration,
    ) -> Result<Option<StdDuration>, StateError> {
        Ok(None)
    }
    /// No request to `host` starts before `for_` from now (a later
    /// deferral already stored is kept).
    fn defer_host(&self, _host: &str, _for: StdDuration) -> Result<(), StateError> {
        Ok(())
    }
    /// Drop expired slots and host rows idle for longer than `idle`.
    fn sweep_hosts(&self, _idle: StdDuration) -> Result<usize, StateError> {
        Ok(0)
    }
}

/// The backend a [`Store`] holds.
enum Inner {
    Sqlite(sqlite::SqliteStore),
    Postgres(postgres::PostgresStore),
}

/// Where the state lives: the `state` config value, or `FEEDMINE_STATE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateLocation {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database (`postgres://` or `postgresql://`).
    Postgres(postgres::PgUrl),
}

impl StateLocation {
    /// Read a `state` value: a PostgreSQL URL, else a file path relative
    /// to `base_dir`.
    pub fn parse(value: &str, base_dir: &Path) -> Result<StateLocation, StateError> {
        if postgres::PgUrl::is_postgres(value) {
            postgres::PgUrl::parse(value.trim()).map(StateLocation::Postgres)
        } else {
            Ok(StateLocation::Sqlite(base_dir.join(value)))
        }
    }

    /// The SQLite file, when the state is one.
    pub fn sqlite_path(&self) -> Option<&Path> {
        match self {
            StateLocation::Sqlite(p) => Some(p),
            StateLocation::Postgres(_) => None,
        }
    }

    /// How messages name it (a PostgreSQL URL without its password).
    pub fn label(&self) -> String {
        match self {
            StateLocation::Sqlite(p) => p.display().to_string(),
            StateLocation::Postgres(u) => u.label().to_string(),
        }
    }
}

/// The state database, whichever backend holds it. `Send + Sync`; every
/// method blocks until its statement or transaction is done (call the
/// heavier ones, merges and publishing reads, on the blocking pool).
pub struct Store {
    inner: Inner,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("db", &self.backend().label())
            .finish()
    }
}

impl Store {
    /// Open (creating it and its parent directory if needed) the SQLite
    /// database at `path` and migrate it (see [`sqlite::SqliteStore::open`]).
    pub fn open(path: &Path) -> Result<Store, StateError> {
        sqlite::SqliteStore::open(path).map(Store::from)
    }

    /// Open the state wherever `location` says.
    pub fn open_location(location: &StateLocation) -> Result<Store, StateError> {
        match location {
            StateLocation::Sqlite(path) => Store::open(path),
            StateLocation::Postgres(url) => postgres::PostgresStore::open(url).map(|p| Store {
                inner: Inner::Postgres(p),
            }),
        }
    }

    /// A fresh SQLite database in memory (tests, `feedmine once` without
    /// state).
    pub fn open_in_memory() -> Result<Store, StateError> {
        sqlite::SqliteStore::open_in_memory().map(Store::from)
    }

    fn backend(&self) -> &dyn Backend {
        match &self.inner {
            Inner::Sqlite(s) => s,
            Inner::Postgres(p) => p,
        }
    }

    /// The SQLite backend, if that is the one in use.
    pub fn sqlite(&self) -> Option<&sqlite::SqliteStore> {
        match &self.inner {
            Inner::Sqlite(s) => Some(s),
            Inner::Postgres(_) => None,
        }
    }

    /// The database file (`None` in memory or on PostgreSQL).
    pub fn path(&self) -> Option<&Path> {
        self.sqlite().and_then(sqlite::SqliteStore::path)
    }

    /// How errors and logs name the database (never with a password).
    pub fn label(&self) -> &str {
        self.backend().label()
    }

    /// The validators saved for `url` of `feed`; `None` when there are none
    /// or they were saved under another `config_hash` (a changed config must
    /// re-fetch and re-parse even if the page did not change).
    pub fn validators(
        &self,
        feed: &str,
        url: &str,
        config_hash: &str,
    ) -> Result<Option<CachedValidators>, StateError> {
        self.backend().validators(feed, url, config_hash)
    }

    /// Save (replace) the validators of `url` of `feed`.
    pub fn save_validators(
        &self,
        feed: &str,
        url: &str,
        config_hash: &str,
        v: &CachedValidators,
    ) -> Result<(), StateError> {
        self.backend().save_validators(feed, url, config_hash, v)
    }

    /// Forget every validator of `feed` (the next fetch is unconditional).
    pub fn clear_validators(&self, feed: &str) -> Result<(), StateError> {
        self.backend().clear_validators(feed)
    }

    /// The identity keys of one page's items (page order) under `rules`:
    /// see the module header. Pure.
    pub fn identity_keys(rules: &IdentityRules, items: &[Item]) -> Vec<String> {
        rows::identity_keys(rules, items)
    }

    /// Remember the list page's `<title>` and language of `feed`.
    pub fn save_page_meta(
        &self,
        feed: &str,
        title: Option<&str>,
        language: Option<&str>,
    ) -> Result<(), StateError> {
        self.backend().save_page_meta(feed, title, language)
    }

    /// The list page's `<title>` and language of `feed`, as last seen.
    pub fn page_meta(&self, feed: &str) -> Result<(Option<String>, Option<String>), StateError> {
        self.backend().page_meta(feed)
    }

    /// Every feed's list page `<title>`, as last seen, in one read (the
    /// OPML names feeds by them).
    pub fn page_titles(&self) -> Result<HashMap<String, String>, StateError> {
        self.backend().page_titles()
    }

    /// The parameters learnt as volatile for `feed`, sorted.
    pub fn volatile_params(&self, feed: &str) -> Result<Vec<String>, StateError> {
        self.backend().volatile_params(feed)
    }

    /// Which of `keys` `feed` already has.
    pub fn known_keys(&self, feed: &str, keys: &[String]) -> Result<HashSet<String>, StateError> {
        self.backend().known_keys(feed, keys)
    }

    /// Merge one run's items (page order) with [`Retention::default`]
    /// pruning; see [`Store::merge_items_keeping`].
    pub fn merge_items(
        &self,
        feed: &str,
        items: &[Item],
        now: DateTime<Utc>,
    ) -> Result<Merge, StateError> {
        self.merge_items_keeping(feed, items, now, &Retention::default())
    }

    /// Merge one run's items (page order), in one transaction, then prune
    /// with `keep` (use the feed's own retention so pruning never removes
    /// what [`Store::published_items`] would publish).
    ///
    /// New items are inserted with first_seen `now - i s` (i = rank among
    /// the new ones) and their guid. Known items get last_seen = `now` and
    /// their title, summary, image, link, page date, position and content
    /// hash refreshed; first_seen, guid and body are kept (a body given in
    /// `items[i].body_html` replaces the stored one only when it is `Some`).
    pub fn merge_items_keeping(
        &self,
        feed: &str,
        items: &[Item],
        now: DateTime<Utc>,
        keep: &Retention,
    ) -> Result<Merge, StateError> {
        self.merge_items_with(feed, items, now, keep, &IdentityRules::default())
    }

    /// [`Store::merge_items_keeping`] with the feed's identity rules (its
    /// `ignore_params` / `keep_params`). Before merging, the links of the
    /// previous run's items and these items are compared: a parameter that
    /// [`identity::learn_volatile`] finds is stored, the stored items are
    /// re-keyed without it, and [`Merge::learned`] names it.
    pub fn merge_items_with(
        &self,
        feed: &str,
        items: &[Item],
        now: DateTime<Utc>,
        keep: &Retention,
        rules: &IdentityRules,
    ) -> Result<Merge, StateError> {
        self.backend().merge(feed, items, now, keep, rules)
    }

    /// Delete the items of `feed` unseen for longer than max(max_age, 90
    /// days), then the least recently seen beyond 10 × max_items. The
    /// current items (those of the latest merge) are always kept. Returns
    /// how many items were deleted.
    pub fn prune_items(
        &self,
        feed: &str,
        keep: &Retention,
        now: DateTime<Utc>,
    ) -> Result<usize, StateError> {
        self.backend().prune_items(feed, keep, now)
    }

    /// Count one body fetch of item `key` made at `now`; `body_html` is
    /// stored when the fetch produced one (a failed fetch keeps any earlier
    /// body and may be tried again [`body_retry_delay`] after `now`).
    pub fn record_body_attempt(
        &self,
        feed: &str,
        key: &str,
        body_html: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<(), StateError> {
        self.record_body(feed, key, body_html, &ArticleMeta::default(), now)
    }

    /// [`Store::record_body_attempt`], also keeping the article page's
    /// byline and tags for an item whose record had none.
    pub fn record_body(
        &self,
        feed: &str,
        key: &str,
        body_html: Option<&str>,
        meta: &ArticleMeta,
        now: DateTime<Utc>,
    ) -> Result<(), StateError> {
        self.backend().record_body(feed, key, body_html, meta, now)
    }

    /// Of `keys` (in their order), those stored without a body, tried
    /// fewer than `max_attempts` times and due at `now` (their last failure's
    /// [`body_retry_delay`] has passed). Unknown keys are skipped.
    pub fn items_needing_body(
        &self,
        feed: &str,
        keys: &[String],
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, StateError> {
        self.backend()
            .items_needing_body(feed, keys, max_attempts, now)
    }

    /// Keys and links of the current items of `feed` (those of the latest
    /// merge), in page order: what a run whose list page answered 304 still
    /// owes bodies to.
    pub fn current_links_by_key(&self, feed: &str) -> Result<Vec<(String, Url)>, StateError> {
        self.backend().current_links_by_key(feed)
    }

    /// Drop every stored body of `feed` and reset the attempt counts, so
    /// the next runs fetch them again ("re-fetch on request"). Returns how
    /// many items were reset.
    pub fn clear_bodies(&self, feed: &str) -> Result<usize, StateError> {
        self.backend().clear_bodies(feed)
    }

    /// The items to publish: those seen within `max_age` of `now` plus the
    /// current ones (even if older), newest first by page date (else
    /// first_seen), at most `max_items`. Ties: current before scrolled-off,
    /// then page order.
    pub fn published_items(
        &self,
        feed: &str,
        now: DateTime<Utc>,
        keep: &Retention,
    ) -> Result<Vec<StoredItem>, StateError> {
        // A max_age beyond chrono's range means "no limit", not a panic.
        let since = keep
            .max_age
            .and_then(|a| now.checked_sub_signed(a))
            .map_or(i64::MIN, |t| t.timestamp_millis());
        let items = self.backend().published_rows(feed, since)?;
        Ok(rows::in_published_order(items, keep.max_items))
    }

    /// One stored item by key.
    pub fn item(&self, feed: &str, key: &str) -> Result<Option<StoredItem>, StateError> {
        self.backend().item(feed, key)
    }

    /// Items stored for `feed` (published or not).
    pub fn item_count(&self, feed: &str) -> Result<usize, StateError> {
        self.backend().item_count(feed)
    }

    /// Append one run to the history of `feed` and drop the runs beyond the
    /// newest [`MAX_RUNS_PER_FEED`], in one transaction.
    pub fn record_run(&self, feed: &str, run: &RunRow) -> Result<(), StateError> {
        self.backend().record_run(feed, run)
    }

    /// The newest `n` runs of `feed`, newest first.
    pub fn recent_runs(&self, feed: &str, n: usize) -> Result<Vec<RunRow>, StateError> {
        self.backend().recent_runs(feed, n)
    }

    /// Drift history of `feed`: records and pattern of its newest `n`
    /// published ("good") runs, newest first, ready for
    /// [`crate::drift::judge`].
    pub fn good_runs(&self, feed: &str, n: usize) -> Result<Vec<Observation>, StateError> {
        self.backend().good_runs(feed, n)
    }

    /// The drifted runs since the last published one (newest first, at most
    /// `n` runs looked at), for [`crate::drift::settled`]; `not_modified`
    /// and `failed` runs in between are skipped, they say nothing about the
    /// page's shape.
    pub fn degraded_streak(&self, feed: &str, n: usize) -> Result<Vec<Observation>, StateError> {
        Ok(self
            .recent_runs(feed, n)?
            .into_iter()
            .take_while(|r| r.status != STATUS_PUBLISHED)
            .filter(|r| r.status == STATUS_DEGRADED)
            .map(|r| Observation {
                records: r.records,
                pattern: r.pattern,
            })
            .collect())
    }

    /// Delete everything stored for `feed` (items, validators, runs, learnt
    /// parameters, page title), in one transaction.
    pub fn forget_feed(&self, feed: &str) -> Result<(), StateError> {
        self.backend().forget_feed(feed)
    }

    /// Whether several instances may share this state (PostgreSQL): then
    /// a feed runs only under its lease (see `daemon::cluster`).
    pub fn is_shared(&self) -> bool {
        self.backend().shared()
    }

    /// Take (or extend) `feed`'s lease for instance `holder` for `ttl`, in
    /// one atomic statement: true when `holder` has it now. Always true on
    /// a state only one process uses.
    pub fn acquire_lease(
        &self,
        feed: &str,
        holder: &str,
        ttl: StdDuration,
    ) -> Result<bool, StateError> {
        self.backend().acquire_lease(feed, holder, ttl)
    }

    /// Extend `holder`'s lease of `feed` to `ttl` from now; false when the
    /// lease is no longer `holder`'s (it expired and another took it).
    pub fn renew_lease(
        &self,
        feed: &str,
        holder: &str,
        ttl: StdDuration,
    ) -> Result<bool, StateError> {
        self.backend().renew_lease(feed, holder, ttl)
    }

    /// Give `feed`'s lease up, if `holder` has it.
    pub fn release_lease(&self, feed: &str, holder: &str) -> Result<(), StateError> {
        self.backend().release_lease(feed, holder)
    }

    /// The leases held now.
    pub fn leases(&self) -> Result<Vec<Lease>, StateError> {
        self.backend().leases()
    }

    /// Register instance `me`, or refresh its heartbeat and config hash.
    pub fn heartbeat(&self, me: &Instance) -> Result<(), StateError> {
        self.backend().heartbeat(me)
    }

    /// The instances alive (heartbeat younger than `within`), oldest first.
    pub fn instances(&self, within: StdDuration) -> Result<Vec<Instance>, StateError> {
        self.backend().instances(within)
    }

    /// Unregister instance `id` and give up its leases.
    pub fn leave(&self, id: &str) -> Result<(), StateError> {
        self.backend().leave(id)
    }

    /// Keep published documents in the state (shared states only; a no-op
    /// on SQLite), in one transaction: see [`documents`].
    pub fn store_documents(&self, docs: &[Document]) -> Result<(), StateError> {
        self.backend().store_documents(docs)
    }

    /// A published document kept in the state; `known_etag` spares the
    /// bytes when the caller already holds them.
    pub fn document(
        &self,
        name: &str,
        known_etag: Option<&str>,
    ) -> Result<DocumentLookup, StateError> {
        self.backend().document(name, known_etag)
    }

    /// The name and tag of every published document kept in the state
    /// (none on SQLite).
    pub fn document_tags(&self) -> Result<Vec<(String, String)>, StateError> {
        self.backend().document_tags()
    }

    /// Whether the database answers (always on SQLite).
    pub fn ping(&self) -> Result<(), StateError> {
        self.backend().ping()
    }

    /// Take one of `host`'s `slots` request slots shared by the instances,
    /// for `holder` until `hold` from now (the database's clock): its
    /// number, or `None` while all are held. Always slot 0 on an unshared
    /// state.
    pub fn take_host_slot(
        &self,
        host: &str,
        holder: &str,
        slots: u32,
        hold: StdDuration,
    ) -> Result<Option<u32>, StateError> {
        self.backend().take_host_slot(host, holder, slots, hold)
    }

    /// Give `host`'s slot `slot` up, if `holder` still has it.
    pub fn release_host_slot(&self, host: &str, holder: &str, slot: u32) -> Result<(), StateError> {
        self.backend().release_host_slot(host, holder, slot)
    }

    /// Take `host`'s turn to start a request now, `spacing` after the last
    /// start by any instance (and never before a deferral ends): `None`
    /// when granted, else how long to wait. Always granted on an unshared
    /// state.
    pub fn take_host_turn(
        &self,
        host: &str,
        spacing: StdDuration,
    ) -> Result<Option<StdDuration>, StateError> {
        self.backend().take_host_turn(host, spacing)
    }

    /// Defer every instance's requests to `host` by `for_` (Retry-After).
    pub fn defer_host(&self, host: &str, for_: StdDuration) -> Result<(), StateError> {
        self.backend().defer_host(host, for_)
    }

    /// Forget expired host slots and host rows idle for longer than `idle`;
    /// returns how many rows went.
    pub fn sweep_hosts(&self, idle: StdDuration) -> Result<usize, StateError> {
        self.backend().sweep_hosts(idle)
    }
}

impl From<sqlite::SqliteStore> for Store {
    fn from(s: sqlite::SqliteStore) -> Store {
        Store {
            inner: Inner::Sqlite(s),
        }
    }
}
