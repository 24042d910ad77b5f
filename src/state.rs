//! The daemon's memory between runs: one SQLite file holding, per feed, the
//! items ever seen (identity, first/last sight, content hash, fetched body),
//! the fetch-cache validators (ETag / Last-Modified per URL) and the run
//! history.
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
//! # Invariants
//! - An item keeps its `first_seen` and `guid` for as long as it is stored;
//!   items new in one run get first_seen `now`, `now - 1 s`, `now - 2 s`, …
//!   in page order, so readers sorting by date keep the page order.
//! - The items of the latest merge of a feed (the *current* items) are never
//!   pruned, so a record still on the page never reappears as new. Other
//!   items are pruned when unseen for longer than max(max_age, 90 days) or
//!   beyond 10 × max_items (least recently seen first): storage is bounded.
//! - Every multi-row change runs in one `IMMEDIATE` transaction: a crash
//!   (kill -9 at any point) leaves either all of a merge or none of it.
//!
//! # Durability
//! WAL journal with `synchronous=NORMAL`. In WAL mode NORMAL never corrupts
//! the file and loses no committed transaction when the *process* dies
//! (kill -9, panic, OOM): the WAL is in the OS page cache. Only an OS crash
//! or power cut can roll back the last few commits, and that costs at most
//! a repeated run (the guids are derived from links and keys, so items that
//! come back carry the same guid). FULL would fsync on every commit for
//! protection against power loss only, which a feed cache does not need.
//! `busy_timeout` lets a second process (e.g. `feedmine status` next to the
//! daemon) wait for the write lock instead of failing at once.
//!
//! An existing file that is empty, not a database or fails SQLite's
//! integrity check is refused with a recovery hint, never replaced
//! (`preflight`); `--reset-state` moves it aside.
//!
//! The schema version lives in `PRAGMA user_version`; [`SCHEMA_VERSION`] is
//! the version this build writes, and [`Store::open`] migrates older files
//! step by step (each step in its own transaction) and refuses newer ones.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration as StdDuration;

use chrono::{DateTime, Duration, FixedOffset, Utc};
use rusqlite::{Connection, OptionalExtension, Row, Transaction, TransactionBehavior, params};
use sha2::{Digest, Sha256};
use url::Url;

use crate::drift::Observation;
use crate::extract::items::Item;

mod preflight;
pub use preflight::reset;
pub mod identity;
mod unfinished;
use identity::IdentityRules;
pub use unfinished::UNFINISHED_CAUSE;

/// Schema version this build reads and writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: u32 = 3;
/// How long a statement waits for another connection's write lock.
pub const BUSY_TIMEOUT: StdDuration = StdDuration::from_secs(5);
/// Run history kept per feed; older runs are deleted by [`Store::record_run`].
pub const MAX_RUNS_PER_FEED: usize = 200;
/// Items unseen for less than this are never pruned, whatever `max_age` says.
pub const MIN_PRUNE_AGE: Duration = Duration::days(90);
/// Items kept per feed at most, as a multiple of `max_items` (current items
/// are kept even beyond it).
pub const PRUNE_ITEMS_FACTOR: usize = 10;

/// Migration `i` brings a database from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // v0 → v1: items, validators, runs. Times are UTC milliseconds since the
    // epoch; page_date keeps the page's offset as RFC 3339 text.
    "CREATE TABLE items (
        feed TEXT NOT NULL,
        key TEXT NOT NULL,
        guid TEXT NOT NULL,
        link TEXT,
        title TEXT NOT NULL,
        summary TEXT NOT NULL,
        image TEXT,
        page_date TEXT,
        page_pos INTEGER NOT NULL,
        first_seen_ms INTEGER NOT NULL,
        last_seen_ms INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        body_html TEXT,
        body_attempts INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (feed, key)
    );
    CREATE INDEX items_by_last_seen ON items (feed, last_seen_ms);
    CREATE TABLE validators (
        feed TEXT NOT NULL,
        url TEXT NOT NULL,
        config_hash TEXT NOT NULL,
        etag TEXT,
        last_modified TEXT,
        saved_ms INTEGER NOT NULL,
        PRIMARY KEY (feed, url)
    );
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        feed TEXT NOT NULL,
        started_ms INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        status TEXT NOT NULL,
        records INTEGER NOT NULL,
        new_items INTEGER NOT NULL,
        pattern TEXT,
        error TEXT
    );
    CREATE INDEX runs_by_feed ON runs (feed, started_ms);",
    // v1 → v2: parameters learnt as volatile; author and categories (one
    // per line) of items; when a failed body may be tried again; the list
    // page's own title and language (for runs answered 304, OPML, index).
    "CREATE TABLE volatile_params (
        feed TEXT NOT NULL,
        name TEXT NOT NULL,
        learned_ms INTEGER NOT NULL,
        PRIMARY KEY (feed, name)
    );
    ALTER TABLE items ADD COLUMN author TEXT;
    ALTER TABLE items ADD COLUMN categories TEXT NOT NULL DEFAULT '';
    ALTER TABLE items ADD COLUMN body_retry_ms INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE pages (
        feed TEXT PRIMARY KEY,
        title TEXT,
        language TEXT
    );",
    // v2 → v3: runs in progress (see `unfinished`).
    "CREATE TABLE run_marks (
        feed TEXT PRIMARY KEY,
        started_ms INTEGER NOT NULL
    );",
];

/// Why the state database could not be used. Every message names the
/// database file (`:memory:` for an in-memory store) and the operation.
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
        "state database {path} has schema version {found}, newer than the {supported} this feedmine understands; upgrade feedmine or move the file away"
    )]
    TooNew {
        path: String,
        found: u32,
        supported: u32,
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

/// Run status of a run whose items were published (a "good" run for drift).
pub const STATUS_PUBLISHED: &str = "published";
/// Run status of a run whose extraction drifted (previous items kept).
pub const STATUS_DEGRADED: &str = "degraded";

/// The state database. `Send + Sync`: one connection behind a mutex (the
/// daemon's writes are small and short; readers wait a few milliseconds).
pub struct Store {
    conn: Mutex<Connection>,
    path: Option<PathBuf>,
    /// The path as shown in errors (`:memory:` in memory).
    label: String,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.label).finish()
    }
}

fn ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// One `items` row as SQLite holds it, before URLs and times are parsed
/// (the parsing happens after the connection lock is released).
struct ItemRow {
    key: String,
    guid: String,
    link: Option<String>,
    title: String,
    summary: String,
    image: Option<String>,
    page_date: Option<String>,
    first_seen_ms: i64,
    last_seen_ms: i64,
    content_hash: String,
    body_html: Option<String>,
    body_attempts: i64,
    page_pos: i64,
    author: Option<String>,
    categories: String,
}

const ITEM_COLUMNS: &str = "key, guid, link, title, summary, image, page_date, first_seen_ms, \
     last_seen_ms, content_hash, body_html, body_attempts, page_pos, author, categories";

impl ItemRow {
    /// Read a row selected with [`ITEM_COLUMNS`].
    fn read(r: &Row<'_>) -> rusqlite::Result<ItemRow> {
        Ok(ItemRow {
            key: r.get("key")?,
            guid: r.get("guid")?,
            link: r.get("link")?,
            title: r.get("title")?,
            summary: r.get("summary")?,
            image: r.get("image")?,
            page_date: r.get("page_date")?,
            first_seen_ms: r.get("first_seen_ms")?,
            last_seen_ms: r.get("last_seen_ms")?,
            content_hash: r.get("content_hash")?,
            body_html: r.get("body_html")?,
            body_attempts: r.get("body_attempts")?,
            page_pos: r.get("page_pos")?,
            author: r.get("author")?,
            categories: r.get("categories")?,
        })
    }
}

impl Store {
    /// Open (creating it and its parent directory if needed) the database at
    /// `path`, switch it to WAL and migrate it to [`SCHEMA_VERSION`].
    pub fn open(path: &Path) -> Result<Store, StateError> {
        let label = path.display().to_string();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StateError::CreateDir {
                path: label.clone(),
                source,
            })?;
        }
        preflight::before_open(path)?;
        let existed = path.exists();
        let conn = Connection::open(path).map_err(|source| StateError::Sql {
            path: label.clone(),
            op: "open the file",
            source,
        })?;
        let store = Store {
            conn: Mutex::new(conn),
            path: Some(path.to_path_buf()),
            label,
        };
        if existed {
            store.configure(true).map_err(|e| match e {
                StateError::Sql { source, .. } => preflight::damaged(path, source),
                other => other,
            })?;
            preflight::after_open(&store.lock(), path)?;
        } else {
            store.configure(true)?;
        }
        store.migrate()?;
        Ok(store)
    }

    /// A fresh database in memory (tests, `feedmine once` without state).
    pub fn open_in_memory() -> Result<Store, StateError> {
        let label = ":memory:".to_string();
        let conn = Connection::open_in_memory().map_err(|source| StateError::Sql {
            path: label.clone(),
            op: "open an in-memory database",
            source,
        })?;
        let store = Store {
            conn: Mutex::new(conn),
            path: None,
            label,
        };
        store.configure(false)?;
        store.migrate()?;
        Ok(store)
    }

    /// The database file (`None` in memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The connection. A panic while it was held cannot have left a
    /// half-done change behind (an unfinished transaction rolls back when
    /// dropped), so a poisoned lock is simply taken over.
    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn sql(&self, op: &'static str) -> impl Fn(rusqlite::Error) -> StateError + '_ {
        move |source| StateError::Sql {
            path: self.label.clone(),
            op,
            source,
        }
    }

    fn corrupt(&self, op: &'static str, detail: String) -> StateError {
        StateError::Corrupt {
            path: self.label.clone(),
            op,
            detail,
        }
    }

    fn configure(&self, on_disk: bool) -> Result<(), StateError> {
        let conn = self.lock();
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(self.sql("set busy_timeout"))?;
        if on_disk {
            let mode: String = conn
                .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))
                .map_err(self.sql("switch to the WAL journal"))?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(self.corrupt(
                    "switch to the WAL journal",
                    format!("SQLite kept journal_mode {mode}"),
                ));
            }
        }
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(self.sql("set synchronous=NORMAL"))?;
        Ok(())
    }

    /// Bring the schema to [`SCHEMA_VERSION`], one transaction per step. The
    /// version is re-read inside each transaction, so two processes opening
    /// the same new file at once migrate it once.
    fn migrate(&self) -> Result<(), StateError> {
        let mut conn = self.lock();
        loop {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(self.sql("begin the schema migration"))?;
            let version: u32 = tx
                .pragma_query_value(None, "user_version", |r| r.get(0))
                .map_err(self.sql("read the schema version"))?;
            if version > SCHEMA_VERSION {
                return Err(StateError::TooNew {
                    path: self.label.clone(),
                    found: version,
                    supported: SCHEMA_VERSION,
                });
            }
            let Some(step) = MIGRATIONS.get(version as usize) else {
                return Ok(());
            };
            tx.execute_batch(step)
                .map_err(self.sql("migrate the schema"))?;
            tx.pragma_update(None, "user_version", version + 1)
                .map_err(self.sql("write the schema version"))?;
            tx.commit()
                .map_err(self.sql("commit the schema migration"))?;
        }
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
        let conn = self.lock();
        let row: Option<(String, Option<String>, Option<String>)> = conn
            .query_row(
                "SELECT config_hash, etag, last_modified FROM validators WHERE feed = ?1 AND url = ?2",
                params![feed, url],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(self.sql("read fetch validators"))?;
        Ok(row
            .filter(|(hash, _, _)| hash == config_hash)
            .map(|(_, etag, last_modified)| CachedValidators {
                etag,
                last_modified,
            }))
    }

    /// Save (replace) the validators of `url` of `feed`.
    pub fn save_validators(
        &self,
        feed: &str,
        url: &str,
        config_hash: &str,
        v: &CachedValidators,
    ) -> Result<(), StateError> {
        let conn = self.lock();
        conn.execute(
            "INSERT INTO validators (feed, url, config_hash, etag, last_modified, saved_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (feed, url) DO UPDATE SET config_hash = excluded.config_hash,
               etag = excluded.etag, last_modified = excluded.last_modified,
               saved_ms = excluded.saved_ms",
            params![
                feed,
                url,
                config_hash,
                v.etag,
                v.last_modified,
                ms(Utc::now())
            ],
        )
        .map_err(self.sql("save fetch validators"))?;
        Ok(())
    }

    /// Forget every validator of `feed` (the next fetch is unconditional).
    pub fn clear_validators(&self, feed: &str) -> Result<(), StateError> {
        let conn = self.lock();
        conn.execute("DELETE FROM validators WHERE feed = ?1", params![feed])
            .map_err(self.sql("clear fetch validators"))?;
        Ok(())
    }

    /// The identity keys of one page's items (page order) under `rules`:
    /// see the module header. Pure.
    pub fn identity_keys(rules: &IdentityRules, items: &[Item]) -> Vec<String> {
        let mut taken: HashSet<String> = HashSet::with_capacity(items.len());
        let mut repeats: HashMap<String, usize> = HashMap::new();
        items
            .iter()
            .map(|item| {
                let base = match &item.link {
                    Some(link) => rules.key(link),
                    None => format!("title:{}", collapsed_lowercase(&item.title)),
                };
                let mut key = base.clone();
                // A title can itself end in "#2": count up until unused.
                while taken.contains(&key) {
                    let n = repeats.entry(base.clone()).or_insert(1);
                    *n += 1;
                    key = format!("{base}#{n}");
                }
                taken.insert(key.clone());
                key
            })
            .collect()
    }

    /// Remember the list page's `<title>` and language of `feed`.
    pub fn save_page_meta(
        &self,
        feed: &str,
        title: Option<&str>,
        language: Option<&str>,
    ) -> Result<(), StateError> {
        let conn = self.lock();
        conn.execute(
            "INSERT INTO pages (feed, title, language) VALUES (?1, ?2, ?3)
             ON CONFLICT (feed) DO UPDATE SET title = ?2, language = ?3",
            params![feed, title, language],
        )
        .map(drop)
        .map_err(self.sql("save the page title"))
    }

    /// The list page's `<title>` and language of `feed`, as last seen.
    pub fn page_meta(&self, feed: &str) -> Result<(Option<String>, Option<String>), StateError> {
        let conn = self.lock();
        conn.query_row(
            "SELECT title, language FROM pages WHERE feed = ?1",
            params![feed],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()
        .map(Option::unwrap_or_default)
        .map_err(self.sql("read the page title"))
    }

    /// The parameters learnt as volatile for `feed`, sorted.
    pub fn volatile_params(&self, feed: &str) -> Result<Vec<String>, StateError> {
        let conn = self.lock();
        Self::volatile_params_in(&conn, feed).map_err(self.sql("read volatile parameters"))
    }

    fn volatile_params_in(conn: &Connection, feed: &str) -> rusqlite::Result<Vec<String>> {
        let mut stmt =
            conn.prepare_cached("SELECT name FROM volatile_params WHERE feed = ?1 ORDER BY name")?;
        stmt.query_map(params![feed], |r| r.get(0))?.collect()
    }

    /// Which of `keys` `feed` already has.
    pub fn known_keys(&self, feed: &str, keys: &[String]) -> Result<HashSet<String>, StateError> {
        let conn = self.lock();
        let mut stmt = conn
            .prepare_cached("SELECT 1 FROM items WHERE feed = ?1 AND key = ?2")
            .map_err(self.sql("look up known items"))?;
        let mut known = HashSet::new();
        for key in keys {
            let hit = stmt
                .exists(params![feed, key])
                .map_err(self.sql("look up known items"))?;
            if hit {
                known.insert(key.clone());
            }
        }
        Ok(known)
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
        const OP: &str = "merge items";
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.sql(OP))?;
        let mut merge = Merge::default();
        let learned = Self::volatile_params_in(&tx, feed).map_err(self.sql(OP))?;
        let mut rules = rules.clone().with_learned(learned);
        let previous = Self::current_links(&tx, feed).map_err(self.sql(OP))?;
        let current: Vec<Url> = items.iter().filter_map(|i| i.link.clone()).collect();
        if let Some(name) = identity::learn_volatile(&rules, &previous, &current) {
            tx.execute(
                "INSERT OR IGNORE INTO volatile_params (feed, name, learned_ms) VALUES (?1, ?2, ?3)",
                params![feed, name, ms(now)],
            )
            .map_err(self.sql(OP))?;
            rules = rules.with_learned([name.clone()]);
            Self::rekey_in(&tx, feed, &rules).map_err(self.sql(OP))?;
            merge.learned = Some(name);
        }
        let keys = Self::identity_keys(&rules, items);
        {
            let mut select = tx
                .prepare_cached("SELECT content_hash FROM items WHERE feed = ?1 AND key = ?2")
                .map_err(self.sql(OP))?;
            let mut update = tx
                .prepare_cached(
                    "UPDATE items SET link = ?3, title = ?4, summary = ?5, image = ?6,
                       page_date = CASE WHEN ?12 AND page_date IS NOT NULL
                         THEN page_date ELSE ?7 END,
                       page_pos = ?8, last_seen_ms = ?9, content_hash = ?10,
                       body_html = COALESCE(?11, body_html), author = COALESCE(?13, author),
                       categories = CASE WHEN ?14 = '' THEN categories ELSE ?14 END
                     WHERE feed = ?1 AND key = ?2",
                )
                .map_err(self.sql(OP))?;
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO items (feed, key, guid, link, title, summary, image, page_date,
                       page_pos, first_seen_ms, last_seen_ms, content_hash, body_html, body_attempts,
                       author, categories)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 0, ?14, ?15)",
                )
                .map_err(self.sql(OP))?;
            for (pos, (item, key)) in items.iter().zip(&keys).enumerate() {
                let hash = content_hash(item);
                let link = item.link.as_ref().map(Url::as_str);
                let image = item.image.as_ref().map(Url::as_str);
                let page_date = item.date.map(|d| d.to_rfc3339());
                let categories = item.categories.join("\n");
                let old_hash: Option<String> = select
                    .query_row(params![feed, key], |r| r.get(0))
                    .optional()
                    .map_err(self.sql(OP))?;
                match old_hash {
                    Some(old) => {
                        update
                            .execute(params![
                                feed,
                                key,
                                link,
                                item.title,
                                item.summary,
                                image,
                                page_date,
                                to_i64(pos),
                                ms(now),
                                hash,
                                item.body_html,
                                item.date_relative,
                                item.author,
                                categories,
                            ])
                            .map_err(self.sql(OP))?;
                        if old == hash {
                            merge.unchanged += 1;
                        } else {
                            merge.updated += 1;
                        }
                    }
                    None => {
                        let rank = Duration::seconds(to_i64(merge.new_keys.len()));
                        let first_seen = now.checked_sub_signed(rank).unwrap_or(now);
                        let guid = match link {
                            Some(l) => l.to_string(),
                            None => linkless_guid(feed, key),
                        };
                        insert
                            .execute(params![
                                feed,
                                key,
                                guid,
                                link,
                                item.title,
                                item.summary,
                                image,
                                page_date,
                                to_i64(pos),
                                ms(first_seen),
                                ms(now),
                                hash,
                                item.body_html,
                                item.author,
                                categories,
                            ])
                            .map_err(self.sql(OP))?;
                        merge.new_keys.push(key.clone());
                    }
                }
            }
        }
        self.prune_in(&tx, feed, keep, now)?;
        tx.commit().map_err(self.sql(OP))?;
        merge.keys = keys;
        Ok(merge)
    }

    /// Links of the items of the latest merge of `feed`.
    fn current_links(tx: &Transaction<'_>, feed: &str) -> rusqlite::Result<Vec<Url>> {
        let mut stmt = tx.prepare_cached(
            "SELECT link FROM items WHERE feed = ?1 AND link IS NOT NULL
               AND last_seen_ms = (SELECT MAX(last_seen_ms) FROM items WHERE feed = ?1)",
        )?;
        let links: Vec<String> = stmt
            .query_map(params![feed], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(links.iter().filter_map(|l| Url::parse(l).ok()).collect())
    }

    /// Recompute the keys of the linked items of `feed` under `rules`. Of
    /// items that get the same key, the first seen stays (its guid was
    /// published first) and the others are deleted.
    fn rekey_in(tx: &Transaction<'_>, feed: &str, rules: &IdentityRules) -> rusqlite::Result<()> {
        let rows: Vec<(i64, String, String)> = tx
            .prepare(
                "SELECT rowid, key, link FROM items WHERE feed = ?1 AND link IS NOT NULL
                 ORDER BY first_seen_ms, rowid",
            )?
            .query_map(params![feed], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let mut taken = HashSet::new();
        let mut renames = Vec::new();
        for (rowid, key, link) in rows {
            let Ok(url) = Url::parse(&link) else { continue };
            let new_key = rules.key(&url);
            if !taken.insert(new_key.clone()) {
                tx.execute("DELETE FROM items WHERE rowid = ?1", params![rowid])?;
            } else if new_key != key {
                renames.push((rowid, new_key));
            }
        }
        // Two passes: a new key may equal another row's old key.
        for (rowid, _) in &renames {
            tx.execute(
                "UPDATE items SET key = char(1) || rowid WHERE rowid = ?1",
                params![rowid],
            )?;
        }
        for (rowid, key) in &renames {
            tx.execute(
                "UPDATE items SET key = ?2 WHERE rowid = ?1",
                params![rowid, key],
            )?;
        }
        Ok(())
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
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.sql("prune items"))?;
        let n = self.prune_in(&tx, feed, keep, now)?;
        tx.commit().map_err(self.sql("prune items"))?;
        Ok(n)
    }

    fn prune_in(
        &self,
        tx: &Transaction<'_>,
        feed: &str,
        keep: &Retention,
        now: DateTime<Utc>,
    ) -> Result<usize, StateError> {
        const OP: &str = "prune items";
        let Some(latest): Option<i64> = tx
            .query_row(
                "SELECT MAX(last_seen_ms) FROM items WHERE feed = ?1",
                params![feed],
                |r| r.get(0),
            )
            .map_err(self.sql(OP))?
        else {
            return Ok(0);
        };
        let age = keep.max_age.unwrap_or(MIN_PRUNE_AGE).max(MIN_PRUNE_AGE);
        let cutoff = now.checked_sub_signed(age).map_or(i64::MIN, ms);
        let by_age = tx
            .execute(
                "DELETE FROM items WHERE feed = ?1 AND last_seen_ms < ?2 AND last_seen_ms < ?3",
                params![feed, cutoff, latest],
            )
            .map_err(self.sql(OP))?;
        let cap = to_i64(keep.max_items.saturating_mul(PRUNE_ITEMS_FACTOR));
        let by_count = tx
            .execute(
                "DELETE FROM items WHERE feed = ?1 AND last_seen_ms < ?2 AND key IN (
                   SELECT key FROM items WHERE feed = ?1
                   ORDER BY last_seen_ms DESC, first_seen_ms DESC LIMIT -1 OFFSET ?3)",
                params![feed, latest, cap],
            )
            .map_err(self.sql(OP))?;
        Ok(by_age + by_count)
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
        const OP: &str = "record a body fetch";
        let conn = self.lock();
        let attempts: Option<i64> = conn
            .query_row(
                "SELECT body_attempts FROM items WHERE feed = ?1 AND key = ?2",
                params![feed, key],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.sql(OP))?;
        let retry = attempts.map_or(0, |a| {
            let delay = body_retry_delay(u32::try_from(a + 1).unwrap_or(u32::MAX));
            now.checked_add_signed(delay).map_or(i64::MAX, ms)
        });
        let n = conn
            .execute(
                "UPDATE items SET body_attempts = body_attempts + 1,
                   body_html = COALESCE(?3, body_html), body_retry_ms = ?4,
                   author = COALESCE(author, ?5),
                   categories = CASE WHEN categories = '' THEN ?6 ELSE categories END
                 WHERE feed = ?1 AND key = ?2",
                params![
                    feed,
                    key,
                    body_html,
                    retry,
                    meta.author,
                    meta.tags.join("\n")
                ],
            )
            .map_err(self.sql(OP))?;
        if n == 0 {
            return Err(StateError::UnknownItem {
                path: self.label.clone(),
                op: OP,
                feed: feed.to_string(),
                key: key.to_string(),
            });
        }
        Ok(())
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
        let conn = self.lock();
        let mut stmt = conn
            .prepare_cached(
                "SELECT 1 FROM items WHERE feed = ?1 AND key = ?2
                   AND body_html IS NULL AND body_attempts < ?3 AND body_retry_ms <= ?4",
            )
            .map_err(self.sql("list items needing a body"))?;
        let mut out = Vec::new();
        for key in keys {
            if stmt
                .exists(params![feed, key, max_attempts, ms(now)])
                .map_err(self.sql("list items needing a body"))?
            {
                out.push(key.clone());
            }
        }
        Ok(out)
    }

    /// Keys and links of the current items of `feed` (those of the latest
    /// merge), in page order: what a run whose list page answered 304 still
    /// owes bodies to.
    pub fn current_links_by_key(&self, feed: &str) -> Result<Vec<(String, Url)>, StateError> {
        const OP: &str = "read the current items";
        let conn = self.lock();
        let mut stmt = conn
            .prepare_cached(
                "SELECT key, link FROM items WHERE feed = ?1 AND link IS NOT NULL
                   AND last_seen_ms = (SELECT MAX(last_seen_ms) FROM items WHERE feed = ?1)
                 ORDER BY page_pos",
            )
            .map_err(self.sql(OP))?;
        let rows: Vec<(String, String)> = stmt
            .query_map(params![feed], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(self.sql(OP))?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.sql(OP))?;
        Ok(rows
            .into_iter()
            .filter_map(|(k, l)| Url::parse(&l).ok().map(|u| (k, u)))
            .collect())
    }

    /// Drop every stored body of `feed` and reset the attempt counts, so
    /// the next runs fetch them again ("re-fetch on request"). Returns how
    /// many items were reset.
    pub fn clear_bodies(&self, feed: &str) -> Result<usize, StateError> {
        let conn = self.lock();
        conn.execute(
            "UPDATE items SET body_html = NULL, body_attempts = 0, body_retry_ms = 0
             WHERE feed = ?1 AND (body_html IS NOT NULL OR body_attempts > 0)",
            params![feed],
        )
        .map_err(self.sql("clear bodies"))
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
        const OP: &str = "read published items";
        // A max_age beyond chrono's range means "no limit", not a panic.
        let since = keep
            .max_age
            .and_then(|a| now.checked_sub_signed(a))
            .map_or(i64::MIN, ms);
        let rows: Vec<ItemRow> = {
            let conn = self.lock();
            let mut stmt = conn
                .prepare_cached(&format!(
                    "SELECT {ITEM_COLUMNS} FROM items WHERE feed = ?1 AND (last_seen_ms >= ?2
                       OR last_seen_ms = (SELECT MAX(last_seen_ms) FROM items WHERE feed = ?1))"
                ))
                .map_err(self.sql(OP))?;
            stmt.query_map(params![feed, since], ItemRow::read)
                .map_err(self.sql(OP))?
                .collect::<rusqlite::Result<_>>()
                .map_err(self.sql(OP))?
        };
        let mut items: Vec<(StoredItem, i64)> = rows
            .into_iter()
            .map(|row| self.stored_item(row, OP))
            .collect::<Result<_, _>>()?;
        items.sort_by(|(a, apos), (b, bpos)| {
            let when = |i: &StoredItem| i.page_date.map_or(i.first_seen, |d| d.to_utc());
            when(b)
                .cmp(&when(a))
                .then(b.last_seen.cmp(&a.last_seen))
                .then(apos.cmp(bpos))
        });
        items.truncate(keep.max_items);
        Ok(items.into_iter().map(|(i, _)| i).collect())
    }

    /// Typed item (and its last page position) from a row.
    fn stored_item(&self, row: ItemRow, op: &'static str) -> Result<(StoredItem, i64), StateError> {
        let url = |s: Option<String>| -> Result<Option<Url>, StateError> {
            s.map(|s| {
                Url::parse(&s).map_err(|e| self.corrupt(op, format!("stored URL {s:?}: {e}")))
            })
            .transpose()
        };
        let time = |t: i64| {
            DateTime::<Utc>::from_timestamp_millis(t)
                .ok_or_else(|| self.corrupt(op, format!("stored time {t} out of range")))
        };
        let page_date = row
            .page_date
            .map(|d| {
                DateTime::parse_from_rfc3339(&d)
                    .map_err(|e| self.corrupt(op, format!("stored date {d:?}: {e}")))
            })
            .transpose()?;
        Ok((
            StoredItem {
                link: url(row.link)?,
                image: url(row.image)?,
                page_date,
                first_seen: time(row.first_seen_ms)?,
                last_seen: time(row.last_seen_ms)?,
                key: row.key,
                guid: row.guid,
                title: row.title,
                summary: row.summary,
                content_hash: row.content_hash,
                body_html: row.body_html,
                body_attempts: u32::try_from(row.body_attempts).unwrap_or(0),
                author: row.author,
                categories: row
                    .categories
                    .lines()
                    .filter(|c| !c.is_empty())
                    .map(str::to_string)
                    .collect(),
            },
            row.page_pos,
        ))
    }

    /// One stored item by key.
    pub fn item(&self, feed: &str, key: &str) -> Result<Option<StoredItem>, StateError> {
        const OP: &str = "read an item";
        let row = {
            let conn = self.lock();
            conn.query_row(
                &format!("SELECT {ITEM_COLUMNS} FROM items WHERE feed = ?1 AND key = ?2"),
                params![feed, key],
                ItemRow::read,
            )
            .optional()
            .map_err(self.sql(OP))?
        };
        row.map(|r| self.stored_item(r, OP).map(|(i, _)| i))
            .transpose()
    }

    /// Items stored for `feed` (published or not).
    pub fn item_count(&self, feed: &str) -> Result<usize, StateError> {
        let conn = self.lock();
        let n: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM items WHERE feed = ?1",
                params![feed],
                |r| r.get(0),
            )
            .map_err(self.sql("count items"))?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Append one run to the history of `feed` and drop the runs beyond the
    /// newest [`MAX_RUNS_PER_FEED`], in one transaction.
    pub fn record_run(&self, feed: &str, run: &RunRow) -> Result<(), StateError> {
        const OP: &str = "record a run";
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.sql(OP))?;
        tx.execute(
            "INSERT INTO runs (feed, started_ms, duration_ms, status, records, new_items, pattern, error)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                feed,
                ms(run.started),
                i64::try_from(run.duration_ms).unwrap_or(i64::MAX),
                run.status,
                to_i64(run.records),
                to_i64(run.new_items),
                run.pattern,
                run.error,
            ],
        )
        .map_err(self.sql(OP))?;
        tx.execute("DELETE FROM run_marks WHERE feed = ?1", params![feed])
            .map_err(self.sql(OP))?;
        tx.execute(
            "DELETE FROM runs WHERE feed = ?1 AND id NOT IN (
               SELECT id FROM runs WHERE feed = ?1 ORDER BY started_ms DESC, id DESC LIMIT ?2)",
            params![feed, to_i64(MAX_RUNS_PER_FEED)],
        )
        .map_err(self.sql(OP))?;
        tx.commit().map_err(self.sql(OP))
    }

    /// The newest `n` runs of `feed`, newest first.
    pub fn recent_runs(&self, feed: &str, n: usize) -> Result<Vec<RunRow>, StateError> {
        const OP: &str = "read the run history";
        type RawRun = (i64, i64, String, i64, i64, Option<String>, Option<String>);
        let raws: Vec<RawRun> = {
            let conn = self.lock();
            let mut stmt = conn
                .prepare_cached(
                    "SELECT started_ms, duration_ms, status, records, new_items, pattern, error
                     FROM runs WHERE feed = ?1 ORDER BY started_ms DESC, id DESC LIMIT ?2",
                )
                .map_err(self.sql(OP))?;
            stmt.query_map(params![feed, to_i64(n)], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                ))
            })
            .map_err(self.sql(OP))?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.sql(OP))?
        };
        raws.into_iter()
            .map(
                |(started, duration, status, records, new_items, pattern, error)| {
                    Ok(RunRow {
                        started: DateTime::<Utc>::from_timestamp_millis(started).ok_or_else(
                            || self.corrupt(OP, format!("stored time {started} out of range")),
                        )?,
                        duration_ms: u64::try_from(duration).unwrap_or(0),
                        status,
                        records: usize::try_from(records).unwrap_or(0),
                        new_items: usize::try_from(new_items).unwrap_or(0),
                        pattern,
                        error,
                    })
                },
            )
            .collect()
    }

    /// Drift history of `feed`: records and pattern of its newest `n`
    /// published ("good") runs, newest first, ready for
    /// [`crate::drift::judge`].
    pub fn good_runs(&self, feed: &str, n: usize) -> Result<Vec<Observation>, StateError> {
        let conn = self.lock();
        let mut stmt = conn
            .prepare_cached(
                "SELECT records, pattern FROM runs WHERE feed = ?1 AND status = ?2
                 ORDER BY started_ms DESC, id DESC LIMIT ?3",
            )
            .map_err(self.sql("read the good runs"))?;
        stmt.query_map(params![feed, STATUS_PUBLISHED, to_i64(n)], |r| {
            Ok(Observation {
                records: usize::try_from(r.get::<_, i64>(0)?).unwrap_or(0),
                pattern: r.get(1)?,
            })
        })
        .map_err(self.sql("read the good runs"))?
        .collect::<rusqlite::Result<_>>()
        .map_err(self.sql("read the good runs"))
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
    /// parameters), in one
    /// transaction.
    pub fn forget_feed(&self, feed: &str) -> Result<(), StateError> {
        const OP: &str = "forget a feed";
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(self.sql(OP))?;
        for table in ["items", "validators", "runs", "volatile_params", "pages"] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE feed = ?1"),
                params![feed],
            )
            .map_err(self.sql(OP))?;
        }
        tx.commit().map_err(self.sql(OP))
    }
}

fn collapsed_lowercase(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn sha256_hex(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        // Length-prefixed so ("ab", "c") and ("a", "bc") differ.
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Guid of an item without a link: `feedmine:<feed>:<16 hex of sha256(key)>`.
fn linkless_guid(feed: &str, key: &str) -> String {
    format!("feedmine:{feed}:{}", &sha256_hex(&[key])[..16])
}

/// sha256 hex over title, summary, image and link.
pub fn content_hash(item: &Item) -> String {
    sha256_hex(&[
        &item.title,
        &item.summary,
        item.image.as_ref().map_or("", Url::as_str),
        item.link.as_ref().map_or("", Url::as_str),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(h: u32, m: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 20, h, m, 0).unwrap()
    }

    fn story(slug: &str, title: &str, summary: &str, thumb: Option<&str>) -> Item {
        let link = Url::parse(&format!("https://news.example.org/2026/11/{slug}")).unwrap();
        Item {
            title: title.into(),
            guid: link.to_string(),
            link: Some(link),
            date: None,
            date_relative: false,
            summary: summary.into(),
            image: thumb.map(|s| Url::parse(s).unwrap()),
            author: None,
            categories: Vec::new(),
            body_html: None,
        }
    }

    fn front_page() -> Vec<Item> {
        vec![
            story(
                "council-budget",
                "Council approves 2027 budget",
                "After four hours of debate the council passed the budget 7-2.",
                Some("https://cdn.example.org/img/council-320.jpg"),
            ),
            story(
                "river-flooding",
                "River levels expected to peak on Thursday",
                "The water agency warns residents along the east bank.",
                None,
            ),
            story(
                "school-lunches",
                "Free school lunches extended to all pupils",
                "The program starts in January.",
                Some("https://cdn.example.org/img/lunch-320.jpg"),
            ),
        ]
    }

    fn linkless(title: &str, summary: &str) -> Item {
        Item {
            title: title.into(),
            link: None,
            guid: String::new(),
            date: None,
            date_relative: false,
            summary: summary.into(),
            image: None,
            author: None,
            categories: Vec::new(),
            body_html: None,
        }
    }

    fn keep(max_items: usize, days: Option<i64>) -> Retention {
        Retention {
            max_items,
            max_age: days.map(Duration::days),
        }
    }

    fn run(started: DateTime<Utc>, status: &str, records: usize) -> RunRow {
        RunRow {
            started,
            duration_ms: 840,
            status: status.into(),
            records,
            new_items: 1,
            pattern: Some("body > main > ul.posts > li".into()),
            error: (status == "failed").then(|| "HTTP 503 Service Unavailable".to_string()),
        }
    }

    #[test]
    fn changed_position_summary_and_thumbnail_stay_one_item() {
        let store = Store::open_in_memory().unwrap();
        let first = store.merge_items("city", &front_page(), t(8, 0)).unwrap();
        assert_eq!(first.new_keys.len(), 3);
        let key = first.new_keys[1].clone();
        let before = store.item("city", &key).unwrap().unwrap();

        // An hour later a new story on top; the river story moved down,
        // got a new summary and a thumbnail, its link picked up utm tags.
        let mut page = front_page();
        page[1].summary = "Update: the peak is now expected on Friday morning.".into();
        page[1].image = Some(Url::parse("https://cdn.example.org/img/river-320.jpg").unwrap());
        let mut tagged = page[1].link.clone().unwrap();
        tagged.set_query(Some("utm_source=rss&utm_medium=feed"));
        page[1].link = Some(tagged);
        page.insert(
            0,
            story("new-bridge", "New bridge opens", "Traffic relief.", None),
        );
        let second = store.merge_items("city", &page, t(9, 0)).unwrap();
        assert_eq!(second.new_keys.len(), 1);
        assert_eq!(second.updated, 1);
        assert_eq!(second.unchanged, 2);
        assert_eq!(store.item_count("city").unwrap(), 4);

        let after = store.item("city", &key).unwrap().unwrap();
        assert_eq!(after.first_seen, before.first_seen);
        assert_eq!(after.guid, before.guid);
        assert_eq!(
            after.guid,
            "https://news.example.org/2026/11/river-flooding"
        );
        assert_eq!(after.last_seen, t(9, 0));
        assert_ne!(after.content_hash, before.content_hash);
        assert!(after.summary.starts_with("Update:"));
        assert!(after.image.is_some());
    }

    #[test]
    fn new_items_of_one_run_get_decreasing_first_seen_in_page_order() {
        let store = Store::open_in_memory().unwrap();
        store
            .merge_items("city", &front_page()[1..2], t(7, 0))
            .unwrap();
        let merge = store.merge_items("city", &front_page(), t(8, 0)).unwrap();
        assert_eq!(merge.new_keys.len(), 2);
        let a = store.item("city", &merge.new_keys[0]).unwrap().unwrap();
        let b = store.item("city", &merge.new_keys[1]).unwrap().unwrap();
        assert_eq!(a.title, "Council approves 2027 budget");
        assert_eq!(a.first_seen, t(8, 0));
        assert_eq!(b.first_seen, t(8, 0) - Duration::seconds(1));
        // The published order is the page order.
        let published = store
            .published_items("city", t(8, 0), &keep(10, None))
            .unwrap();
        let titles: Vec<_> = published.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Council approves 2027 budget",
                "Free school lunches extended to all pupils",
                "River levels expected to peak on Thursday"
            ]
        );
        let item = published[0].to_item();
        assert_eq!(item.date, Some(t(8, 0).fixed_offset()));
        assert!(item.guid_is_permalink());
    }

    #[test]
    fn scrolled_off_item_stays_published_until_max_age() {
        let store = Store::open_in_memory().unwrap();
        store.merge_items("city", &front_page(), t(8, 0)).unwrap();
        // Next day only the first story is still on the page.
        let day2 = t(8, 0) + Duration::days(1);
        store.merge_items("city", &front_page()[..1], day2).unwrap();
        let week = keep(50, Some(7));
        assert_eq!(store.published_items("city", day2, &week).unwrap().len(), 3);
        let day9 = t(8, 0) + Duration::days(9);
        let left = store.published_items("city", day9, &week).unwrap();
        // The current item stays even though it was last seen 8 days ago.
        assert_eq!(left.len(), 1);
        assert_eq!(left[0].title, "Council approves 2027 budget");
        // Still stored (pruning waits 90 days), only not published.
        assert_eq!(store.item_count("city").unwrap(), 3);
        // An absurd max_age means no limit, not a panic.
        let forever = Retention {
            max_items: 50,
            max_age: Some(Duration::MAX),
        };
        assert_eq!(
            store.published_items("city", day9, &forever).unwrap().len(),
            3
        );
        store
            .merge_items_keeping("city", &front_page()[..1], day9, &forever)
            .unwrap();
    }

    #[test]
    fn max_items_cuts_the_oldest() {
        let store = Store::open_in_memory().unwrap();
        for (hour, item) in front_page().into_iter().rev().enumerate() {
            store
                .merge_items("city", &[item], t(6 + hour as u32, 0))
                .unwrap();
        }
        let two = store
            .published_items("city", t(10, 0), &keep(2, None))
            .unwrap();
        let titles: Vec<_> = two.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Council approves 2027 budget",
                "River levels expected to peak on Thursday"
            ]
        );
    }

    #[test]
    fn page_dates_order_before_first_seen() {
        let store = Store::open_in_memory().unwrap();
        let mut page = front_page();
        let offset = FixedOffset::east_opt(3600).unwrap();
        // The page lists an older story first (a pinned post).
        page[0].date = Some(offset.with_ymd_and_hms(2026, 11, 1, 9, 0, 0).unwrap());
        page[1].date = Some(offset.with_ymd_and_hms(2026, 11, 19, 9, 0, 0).unwrap());
        page[2].date = Some(offset.with_ymd_and_hms(2026, 11, 19, 9, 0, 0).unwrap());
        store.merge_items("city", &page, t(8, 0)).unwrap();
        let items = store
            .published_items("city", t(8, 0), &keep(10, None))
            .unwrap();
        let titles: Vec<_> = items.iter().map(|i| i.title.as_str()).collect();
        // Same date: page order; the pinned old story last.
        assert_eq!(
            titles,
            [
                "River levels expected to peak on Thursday",
                "Free school lunches extended to all pupils",
                "Council approves 2027 budget"
            ]
        );
        assert_eq!(items[0].to_item().date, page[1].date);
    }

    #[test]
    fn linkless_duplicate_titles_get_distinct_keys_and_stable_guids() {
        let page = vec![
            linkless("Weekly  Market Report", "Prices rose."),
            linkless("weekly market report", "Prices fell."),
            linkless("Road works on Main St", "Closed until May."),
            linkless("Weekly Market Report", "Unchanged."),
        ];
        let keys = Store::identity_keys(&IdentityRules::default(), &page);
        assert_eq!(
            keys,
            [
                "title:weekly market report",
                "title:weekly market report#2",
                "title:road works on main st",
                "title:weekly market report#3"
            ]
        );
        let store = Store::open_in_memory().unwrap();
        let merge = store.merge_items("notices", &page, t(8, 0)).unwrap();
        assert_eq!(merge.new_keys.len(), 4);
        let again = store.merge_items("notices", &page, t(9, 0)).unwrap();
        assert!(again.new_keys.is_empty());
        assert_eq!(again.unchanged, 4);
        let item = store.item("notices", &keys[1]).unwrap().unwrap();
        assert!(item.guid.starts_with("feedmine:notices:"));
        assert_eq!(item.guid.len(), "feedmine:notices:".len() + 16);
        assert_ne!(
            item.guid,
            store.item("notices", &keys[0]).unwrap().unwrap().guid
        );
        assert!(!item.to_item().guid_is_permalink());
    }

    /// A board whose links carry a per-visit parameter no default knows:
    /// the second run learns it and the stored items are re-keyed, so the
    /// third and later runs add nothing; the newest link is kept.
    #[test]
    fn volatile_parameter_is_learnt_and_items_are_not_duplicated() {
        let store = Store::open_in_memory().unwrap();
        let board = |visit: &str, topics: &[u32]| -> Vec<Item> {
            topics
                .iter()
                .map(|t| {
                    let mut it = story("x", &format!("Topic {t}"), "", None);
                    let link = Url::parse(&format!(
                        "https://forum.example.org/viewtopic.php?t={t}&visit={visit}"
                    ))
                    .unwrap();
                    it.guid = link.to_string();
                    it.link = Some(link);
                    it
                })
                .collect()
        };
        let rules = IdentityRules::default();
        let m1 = store
            .merge_items_with(
                "board",
                &board("a1", &[1, 2, 3]),
                t(9, 0),
                &keep(100, None),
                &rules,
            )
            .unwrap();
        assert_eq!((m1.new_keys.len(), m1.learned.as_deref()), (3, None));
        let m2 = store
            .merge_items_with(
                "board",
                &board("b2", &[4, 1, 2, 3]),
                t(10, 0),
                &keep(100, None),
                &rules,
            )
            .unwrap();
        assert_eq!(m2.learned.as_deref(), Some("visit"));
        assert_eq!(
            m2.new_keys,
            vec!["https://forum.example.org/viewtopic.php?t=4".to_string()]
        );
        let m3 = store
            .merge_items_with(
                "board",
                &board("c3", &[4, 1, 2, 3]),
                t(11, 0),
                &keep(100, None),
                &rules,
            )
            .unwrap();
        assert_eq!((m3.new_keys.len(), m3.learned), (0, None));
        assert_eq!(store.item_count("board").unwrap(), 4);
        assert_eq!(
            store.volatile_params("board").unwrap(),
            vec!["visit".to_string()]
        );
        let first = store
            .item("board", "https://forum.example.org/viewtopic.php?t=1")
            .unwrap()
            .unwrap();
        assert!(
            first.link.unwrap().as_str().ends_with("visit=c3"),
            "newest link kept"
        );
        assert!(
            first.guid.ends_with("visit=a1"),
            "guid fixed at first sight"
        );
    }

    /// "2 days ago" read on three runs gives three times; the first stays.
    /// An absolute date that changes (an edit) replaces it.
    #[test]
    fn relative_dates_stay_fixed_and_absolute_dates_update() {
        let store = Store::open_in_memory().unwrap();
        let mut items = front_page();
        for (run, h) in [(0, 9), (1, 10), (2, 13)] {
            let mut it = items[0].clone();
            it.date = Some((t(h, run * 7) - Duration::days(2)).fixed_offset());
            it.date_relative = true;
            store.merge_items("f", &[it], t(h, run * 7)).unwrap();
        }
        let key = Store::identity_keys(&IdentityRules::default(), &items[..1]).remove(0);
        let stored = store.item("f", &key).unwrap().unwrap();
        assert_eq!(
            stored.page_date,
            Some((t(9, 0) - Duration::days(2)).fixed_offset())
        );
        items[0].date = Some(t(8, 0).fixed_offset());
        store.merge_items("f", &items[..1], t(14, 0)).unwrap();
        items[0].date = Some(t(8, 30).fixed_offset());
        store.merge_items("f", &items[..1], t(15, 0)).unwrap();
        let stored = store.item("f", &key).unwrap().unwrap();
        assert_eq!(stored.page_date, Some(t(8, 30).fixed_offset()));
    }

    /// A date-only "today" is read as noon; seen at 09:00 it would be
    /// dated in the future: it is dated at its first sight instead, and a
    /// day's items keep the page order. Yesterday's noon stays.
    #[test]
    fn date_only_items_are_never_dated_in_the_future() {
        let store = Store::open_in_memory().unwrap();
        let mut items = front_page();
        items[0].date = Some(t(12, 0).fixed_offset());
        items[1].date = Some(t(12, 0).fixed_offset());
        items[2].date = Some((t(12, 0) - Duration::days(1)).fixed_offset());
        store.merge_items("f", &items, t(9, 0)).unwrap();
        let published = store
            .published_items("f", t(9, 0), &keep(10, None))
            .unwrap();
        let dates: Vec<_> = published
            .iter()
            .map(|i| i.to_item().date.unwrap())
            .collect();
        assert_eq!(
            dates,
            [
                t(9, 0).fixed_offset(),
                (t(9, 0) - Duration::seconds(1)).fixed_offset(),
                (t(12, 0) - Duration::days(1)).fixed_offset(),
            ]
        );
    }

    #[test]
    fn link_normalization_drops_tracking_and_fragment_only() {
        let u = |s: &str| Url::parse(s).unwrap();
        let normalized_link = |l: &Url| IdentityRules::default().key(l);
        assert_eq!(
            normalized_link(&u(
                "https://News.Example.org/a/?id=7&utm_source=x&fbclid=Z&p=2#top"
            )),
            "https://news.example.org/a/?id=7&p=2"
        );
        assert_eq!(
            normalized_link(&u("https://example.org/a?gclid=1&UTM_Medium=m")),
            "https://example.org/a"
        );
        // Trailing slash is kept as is: /a and /a/ are different pages.
        assert_ne!(
            normalized_link(&u("https://example.org/a/")),
            normalized_link(&u("https://example.org/a"))
        );
    }

    #[test]
    fn validators_are_dropped_when_config_hash_changes() {
        let store = Store::open_in_memory().unwrap();
        let url = "https://news.example.org/latest";
        assert_eq!(store.validators("city", url, "cfg1").unwrap(), None);
        let v = CachedValidators {
            etag: Some("W/\"5e1-abc\"".into()),
            last_modified: Some("Fri, 20 Nov 2026 07:55:00 GMT".into()),
        };
        store.save_validators("city", url, "cfg1", &v).unwrap();
        assert_eq!(
            store.validators("city", url, "cfg1").unwrap(),
            Some(v.clone())
        );
        assert_eq!(store.validators("city", url, "cfg2").unwrap(), None);
        assert_eq!(store.validators("other", url, "cfg1").unwrap(), None);
        let v2 = CachedValidators {
            etag: None,
            last_modified: Some("Fri, 20 Nov 2026 08:55:00 GMT".into()),
        };
        store.save_validators("city", url, "cfg2", &v2).unwrap();
        assert_eq!(store.validators("city", url, "cfg2").unwrap(), Some(v2));
        assert_eq!(store.validators("city", url, "cfg1").unwrap(), None);
        store.clear_validators("city").unwrap();
        assert_eq!(store.validators("city", url, "cfg2").unwrap(), None);
    }

    #[test]
    fn reopening_the_file_keeps_everything() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state").join("feedmine.db");
        let keys = {
            let store = Store::open(&path).unwrap();
            assert_eq!(store.path(), Some(path.as_path()));
            let m = store.merge_items("city", &front_page(), t(8, 0)).unwrap();
            store
                .record_body_attempt("city", &m.new_keys[0], Some("<p>Full story.</p>"), t(8, 0))
                .unwrap();
            store
                .save_validators(
                    "city",
                    "https://news.example.org/",
                    "h",
                    &CachedValidators {
                        etag: Some("\"v1\"".into()),
                        last_modified: None,
                    },
                )
                .unwrap();
            store
                .record_run("city", &run(t(8, 0), "published", 3))
                .unwrap();
            m.new_keys
        };
        let store = Store::open(&path).unwrap();
        assert_eq!(store.item_count("city").unwrap(), 3);
        let item = store.item("city", &keys[0]).unwrap().unwrap();
        assert_eq!(item.body_html.as_deref(), Some("<p>Full story.</p>"));
        assert_eq!(item.first_seen, t(8, 0));
        assert!(
            store
                .validators("city", "https://news.example.org/", "h")
                .unwrap()
                .is_some()
        );
        assert_eq!(
            store.recent_runs("city", 5).unwrap(),
            vec![run(t(8, 0), "published", 3)]
        );
        // Seen again after the restart: not new.
        let m = store.merge_items("city", &front_page(), t(9, 0)).unwrap();
        assert!(m.new_keys.is_empty());
        let conn = store.lock();
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let version: u32 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
    }

    #[test]
    fn newer_schema_is_refused_with_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("future.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.pragma_update(None, "user_version", 7).unwrap();
        }
        let err = Store::open(&path).unwrap_err();
        assert!(matches!(err, StateError::TooNew { found: 7, .. }));
        assert!(err.to_string().contains("future.db"), "{err}");
    }

    #[test]
    fn failing_merge_leaves_nothing_behind() {
        let store = Store::open_in_memory().unwrap();
        store
            .merge_items("city", &front_page()[..1], t(7, 0))
            .unwrap();
        // Make the 3rd insert of the next merge fail, after one update and
        // one insert have already run inside the transaction.
        store
            .lock()
            .execute_batch(
                "CREATE TRIGGER fail_lunches BEFORE INSERT ON items
                 WHEN NEW.title LIKE 'Free school%' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;",
            )
            .unwrap();
        let err = store
            .merge_items("city", &front_page(), t(8, 0))
            .unwrap_err();
        assert!(err.to_string().contains(":memory:"), "{err}");
        assert!(err.to_string().contains("merge items"), "{err}");
        assert_eq!(store.item_count("city").unwrap(), 1);
        let only = store
            .published_items("city", t(8, 0), &keep(10, None))
            .unwrap();
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].last_seen, t(7, 0), "the update was rolled back too");
        // The store is still usable afterwards.
        store
            .lock()
            .execute_batch("DROP TRIGGER fail_lunches")
            .unwrap();
        let m = store.merge_items("city", &front_page(), t(8, 0)).unwrap();
        assert_eq!(m.new_keys.len(), 2);
    }

    #[test]
    fn body_attempts_count_and_limit_refetches() {
        let store = Store::open_in_memory().unwrap();
        let mut page = front_page();
        page[2].body_html = Some("<p>Lunch details.</p>".into());
        let keys = store.merge_items("city", &page, t(8, 0)).unwrap().new_keys;
        assert_eq!(
            store
                .items_needing_body("city", &keys, 3, t(23, 0))
                .unwrap(),
            keys[..2]
        );
        store
            .record_body_attempt("city", &keys[0], Some("<p>Budget.</p>"), t(8, 0))
            .unwrap();
        for _ in 0..3 {
            store
                .record_body_attempt("city", &keys[1], None, t(8, 0))
                .unwrap();
        }
        assert!(
            store
                .items_needing_body("city", &keys, 3, t(23, 0))
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            store
                .items_needing_body("city", &keys, 4, t(23, 0))
                .unwrap(),
            [keys[1].clone()]
        );
        assert_eq!(
            store.item("city", &keys[1]).unwrap().unwrap().body_attempts,
            3
        );
        // A failed body waits its backoff: 15 min after the 1st failure.
        store.clear_bodies("city").unwrap();
        store
            .record_body_attempt("city", &keys[0], None, t(8, 0))
            .unwrap();
        let due = |at| {
            store
                .items_needing_body("city", &keys[..1], 3, at)
                .unwrap()
                .len()
        };
        assert_eq!((due(t(8, 14)), due(t(8, 15))), (0, 1));
        store
            .record_body_attempt("city", &keys[0], None, t(8, 15))
            .unwrap();
        assert_eq!((due(t(8, 44)), due(t(8, 45))), (0, 1));
        store
            .record_body_attempt("city", &keys[0], Some("<p>Budget.</p>"), t(8, 45))
            .unwrap();
        store
            .record_body_attempt("city", &keys[2], Some("<p>Lunch details.</p>"), t(8, 45))
            .unwrap();
        // A later merge without bodies keeps the stored ones.
        store.merge_items("city", &front_page(), t(9, 0)).unwrap();
        let lunch = store.item("city", &keys[2]).unwrap().unwrap();
        assert_eq!(lunch.body_html.as_deref(), Some("<p>Lunch details.</p>"));
        assert_eq!(store.clear_bodies("city").unwrap(), 2);
        assert_eq!(
            store
                .items_needing_body("city", &keys, 1, t(23, 0))
                .unwrap(),
            keys
        );
        let err = store.record_body_attempt("city", "https://nowhere.example/", None, t(8, 0));
        assert!(matches!(err, Err(StateError::UnknownItem { .. })));
    }

    #[test]
    fn run_history_is_newest_first_and_pruned() {
        let store = Store::open_in_memory().unwrap();
        let start = t(0, 0);
        for i in 0..(MAX_RUNS_PER_FEED + 25) {
            let status = if i % 10 == 9 { "failed" } else { "published" };
            let mut r = run(start + Duration::minutes(15 * i as i64), status, 10 + i % 3);
            r.new_items = i;
            store.record_run("city", &r).unwrap();
        }
        store
            .record_run("other", &run(start, "not_modified", 0))
            .unwrap();
        // A redesign: degraded runs, a 304 and a failure after the last good run.
        let later = start + Duration::days(30);
        for (i, status) in ["degraded", "not_modified", "degraded", "failed", "degraded"]
            .into_iter()
            .enumerate()
        {
            let mut r = run(later + Duration::hours(i as i64), status, 30 + i);
            r.pattern = Some("main > div.grid > article".into());
            store.record_run("other", &r).unwrap();
        }
        let streak = store.degraded_streak("other", 50).unwrap();
        let counts: Vec<usize> = streak.iter().map(|o| o.records).collect();
        assert_eq!(counts, [34, 32, 30]);
        assert!(store.degraded_streak("city", 50).unwrap().is_empty());
        let all = store.recent_runs("city", 1000).unwrap();
        assert_eq!(all.len(), MAX_RUNS_PER_FEED);
        assert_eq!(all[0].new_items, MAX_RUNS_PER_FEED + 24);
        assert_eq!(all.last().unwrap().new_items, 25);
        assert!(all.windows(2).all(|w| w[0].started > w[1].started));
        assert_eq!(
            all.iter()
                .find(|r| r.status == "failed")
                .unwrap()
                .error
                .as_deref(),
            Some("HTTP 503 Service Unavailable")
        );
        let good = store.good_runs("city", 5).unwrap();
        assert_eq!(good.len(), 5);
        assert_eq!(good[0].records, 10 + (MAX_RUNS_PER_FEED + 24) % 3);
        assert_eq!(store.recent_runs("other", 10).unwrap().len(), 6);
        store.forget_feed("city").unwrap();
        assert!(store.recent_runs("city", 3).unwrap().is_empty());
        assert_eq!(store.recent_runs("other", 10).unwrap().len(), 6);
    }

    #[test]
    fn pruning_bounds_storage_but_keeps_current_items() {
        let store = Store::open_in_memory().unwrap();
        let k = keep(2, Some(1));
        // 30 one-story runs, one a day: only 10 × max_items survive.
        for d in 0..30 {
            let item = story(&format!("day-{d}"), &format!("Story of day {d}"), "", None);
            store
                .merge_items_keeping("city", &[item], t(8, 0) + Duration::days(d), &k)
                .unwrap();
        }
        assert_eq!(store.item_count("city").unwrap(), 20);
        assert!(
            store
                .item("city", "https://news.example.org/2026/11/day-9")
                .unwrap()
                .is_none()
        );
        assert!(
            store
                .item("city", "https://news.example.org/2026/11/day-10")
                .unwrap()
                .is_some()
        );
        // 200 days later nothing but the current page is left; a page larger
        // than the cap is kept whole.
        let page: Vec<Item> = (0..25)
            .map(|i| story(&format!("big-{i}"), &format!("Big {i}"), "", None))
            .collect();
        let later = t(8, 0) + Duration::days(230);
        store.merge_items_keeping("city", &page, later, &k).unwrap();
        assert_eq!(store.item_count("city").unwrap(), 25);
        assert_eq!(
            store
                .prune_items("city", &k, later + Duration::days(400))
                .unwrap(),
            0
        );
    }

    #[test]
    fn two_connections_share_the_file_without_busy_errors() {
        // The daemon and a CLI command each open the file: every write must
        // wait for the other's lock (busy_timeout), never fail with BUSY.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shared.db");
        let writers: Vec<_> = ["north", "south"]
            .into_iter()
            .map(|feed| {
                let store = std::sync::Arc::new(Store::open(&path).unwrap());
                std::thread::spawn(move || {
                    for round in 0..40 {
                        let item = story(
                            &format!("{feed}-{round}"),
                            &format!("{feed} {round}"),
                            "",
                            None,
                        );
                        let now = t(0, 0) + Duration::minutes(round);
                        store.merge_items(feed, &[item], now).unwrap();
                        store.record_run(feed, &run(now, "published", 1)).unwrap();
                    }
                })
            })
            .collect();
        for w in writers {
            w.join().unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.item_count("north").unwrap(), 40);
        assert_eq!(store.item_count("south").unwrap(), 40);
        assert_eq!(store.recent_runs("south", 100).unwrap().len(), 40);
    }

    #[test]
    fn store_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Store>();
    }

    /// Child half of `kill_9_mid_writes_leaves_whole_merges`: writes merges
    /// of 5 new items and a run row each, forever. Runs only when the parent
    /// test starts it.
    #[test]
    #[ignore = "started by kill_9_mid_writes_leaves_whole_merges"]
    fn crash_child_writer() {
        let Some(path) = std::env::var_os("FEEDMINE_CRASH_DB") else {
            return;
        };
        let store = Store::open(Path::new(&path)).unwrap();
        let roomy = keep(1_000_000, None);
        // Bounded so an orphaned child cannot run forever.
        let deadline = std::time::Instant::now() + StdDuration::from_secs(300);
        for round in 0.. {
            if std::time::Instant::now() > deadline {
                return;
            }
            let page: Vec<Item> = (0..5)
                .map(|i| {
                    let mut it = story(
                        &format!("r{round}-{i}"),
                        &format!("Story {round}.{i}"),
                        "",
                        None,
                    );
                    it.body_html = Some("<p>body</p>".repeat(200));
                    it
                })
                .collect();
            let now = t(0, 0) + Duration::minutes(round);
            store
                .merge_items_keeping("crash", &page, now, &roomy)
                .unwrap();
            store
                .record_run("crash", &run(now, "published", 5))
                .unwrap();
        }
    }

    #[test]
    fn kill_9_mid_writes_leaves_whole_merges() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("crash.db");
        /// Kills the writer even when an assertion below fails.
        struct KillOnDrop(std::process::Child);
        impl Drop for KillOnDrop {
            fn drop(&mut self) {
                let _ = self.0.kill();
                let _ = self.0.wait();
            }
        }
        let mut child = KillOnDrop(
            std::process::Command::new(std::env::current_exe().unwrap())
                .args(["--ignored", "--exact", "state::tests::crash_child_writer"])
                .env("FEEDMINE_CRASH_DB", &path)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap(),
        );
        // Wait (bounded) until the child has committed a few hundred items.
        let mut seen = 0;
        for _ in 0..600 {
            std::thread::sleep(StdDuration::from_millis(100));
            if let Some(status) = child.0.try_wait().unwrap() {
                panic!("writer exited early: {status}");
            }
            if let Ok(store) = Store::open(&path) {
                seen = store.item_count("crash").unwrap_or(0);
                if seen >= 200 {
                    break;
                }
            }
        }
        child.0.kill().unwrap(); // SIGKILL on Unix
        child.0.wait().unwrap();
        assert!(seen >= 200, "writer made too little progress: {seen}");
        let store = Store::open(&path).unwrap();
        let check: String = store
            .lock()
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(check, "ok");
        let items = store.item_count("crash").unwrap();
        let runs = store.recent_runs("crash", MAX_RUNS_PER_FEED).unwrap();
        assert_eq!(items % 5, 0, "a merge was cut in half: {items} items");
        assert!(items >= seen);
        let rounds = items / 5;
        // The run row is written right after its merge: at most one behind.
        let last_run_round =
            runs[0].started.signed_duration_since(t(0, 0)).num_minutes() as usize + 1;
        assert!(
            last_run_round == rounds || last_run_round + 1 == rounds,
            "{last_run_round} vs {rounds}"
        );
    }
}
