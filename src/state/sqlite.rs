//! The SQLite backend of the state (the default): one file, one
//! connection behind a mutex (the daemon's writes are small and short;
//! readers wait a few milliseconds).
//!
//! # Invariants
//! - Every multi-row change runs in one `IMMEDIATE` transaction: a crash
//!   (kill -9 at any point) leaves either all of a merge or none of it.
//! - The schema version lives in `PRAGMA user_version`; [`SCHEMA_VERSION`]
//!   is the version this build writes, and [`SqliteStore::open`] migrates
//!   older files step by step (each step in its own transaction) and
//!   refuses newer ones.
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

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, Row, Transaction, TransactionBehavior, params};
use url::Url;

use super::identity::{self, IdentityRules};
use super::rows::{self, ITEM_COLUMNS, ItemRow, ItemWrite, RawRun, ms, to_i64};
use super::{
    ArticleMeta, Backend, CachedValidators, MAX_RUNS_PER_FEED, MIN_PRUNE_AGE, Merge,
    PRUNE_ITEMS_FACTOR, Retention, RunRow, STATUS_PUBLISHED, StateError, StoredItem,
    body_retry_delay, preflight,
};
use crate::drift::Observation;
use crate::extract::items::Item;

/// Schema version this build reads and writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: u32 = 3;
/// How long a statement waits for another connection's write lock.
pub const BUSY_TIMEOUT: StdDuration = StdDuration::from_secs(5);
/// What [`StateError::TooNew`] tells the user to do.
const TOO_NEW_HINT: &str = "upgrade feedmine or move the file away";

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

/// The SQLite state database. `Send + Sync`.
pub struct SqliteStore {
    conn: Mutex<Connection>,
    path: Option<PathBuf>,
    /// The path as shown in errors (`:memory:` in memory).
    label: String,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("path", &self.label)
            .finish()
    }
}

/// Read an [`ItemRow`] selected with [`ITEM_COLUMNS`].
fn read_item(r: &Row<'_>) -> rusqlite::Result<ItemRow> {
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

impl SqliteStore {
    /// Open (creating it and its parent directory if needed) the database at
    /// `path`, switch it to WAL and migrate it to [`SCHEMA_VERSION`].
    pub fn open(path: &Path) -> Result<SqliteStore, StateError> {
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
        let store = SqliteStore {
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
    pub fn open_in_memory() -> Result<SqliteStore, StateError> {
        let label = ":memory:".to_string();
        let conn = Connection::open_in_memory().map_err(|source| StateError::Sql {
            path: label.clone(),
            op: "open an in-memory database",
            source,
        })?;
        let store = SqliteStore {
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
    pub fn lock(&self) -> MutexGuard<'_, Connection> {
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
                    hint: TOO_NEW_HINT,
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

    fn volatile_params_in(conn: &Connection, feed: &str) -> rusqlite::Result<Vec<String>> {
        let mut stmt =
            conn.prepare_cached("SELECT name FROM volatile_params WHERE feed = ?1 ORDER BY name")?;
        stmt.query_map(params![feed], |r| r.get(0))?.collect()
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
        Ok(rows::parse_links(&links))
    }

    /// Learn a volatile parameter from the previous run's links and these
    /// items' links; when one is learnt, store it and re-key the items.
    /// Returns the rules to key this merge with and the parameter learnt.
    fn learn_in(
        tx: &Transaction<'_>,
        feed: &str,
        items: &[Item],
        now: DateTime<Utc>,
        rules: &IdentityRules,
    ) -> rusqlite::Result<(IdentityRules, Option<String>)> {
        let learned = Self::volatile_params_in(tx, feed)?;
        let rules = rules.clone().with_learned(learned);
        let previous = Self::current_links(tx, feed)?;
        let current: Vec<Url> = items.iter().filter_map(|i| i.link.clone()).collect();
        let Some(name) = identity::learn_volatile(&rules, &previous, &current) else {
            return Ok((rules, None));
        };
        tx.execute(
            "INSERT OR IGNORE INTO volatile_params (feed, name, learned_ms) VALUES (?1, ?2, ?3)",
            params![feed, name, ms(now)],
        )?;
        let rules = rules.with_learned([name.clone()]);
        Self::rekey_in(tx, feed, &rules)?;
        Ok((rules, Some(name)))
    }

    /// Recompute the keys of the linked items of `feed` under `rules` (see
    /// [`rows::rekey_plan`]).
    fn rekey_in(tx: &Transaction<'_>, feed: &str, rules: &IdentityRules) -> rusqlite::Result<()> {
        let rows: Vec<(i64, String, String)> = tx
            .prepare(
                "SELECT rowid, key, link FROM items WHERE feed = ?1 AND link IS NOT NULL
                 ORDER BY first_seen_ms, rowid",
            )?
            .query_map(params![feed], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let plan = rows::rekey_plan(&rows, rules);
        for rowid in &plan.delete {
            tx.execute("DELETE FROM items WHERE rowid = ?1", params![rowid])?;
        }
        // Two passes: a new key may equal another row's old key.
        for (rowid, _) in &plan.rename {
            tx.execute(
                "UPDATE items SET key = char(1) || rowid WHERE rowid = ?1",
                params![rowid],
            )?;
        }
        for (rowid, key) in &plan.rename {
            tx.execute(
                "UPDATE items SET key = ?2 WHERE rowid = ?1",
                params![rowid, key],
            )?;
        }
        Ok(())
    }

    /// Insert or update the rows of one page's items; counts into `merge`.
    fn write_items_in(
        tx: &Transaction<'_>,
        feed: &str,
        writes: &[ItemWrite],
        now: DateTime<Utc>,
        merge: &mut Merge,
    ) -> rusqlite::Result<()> {
        let mut select =
            tx.prepare_cached("SELECT content_hash FROM items WHERE feed = ?1 AND key = ?2")?;
        let mut update = tx.prepare_cached(
            "UPDATE items SET link = ?3, title = ?4, summary = ?5, image = ?6,
               page_date = CASE WHEN ?12 AND page_date IS NOT NULL
                 THEN page_date ELSE ?7 END,
               page_pos = ?8, last_seen_ms = ?9, content_hash = ?10,
               body_html = COALESCE(?11, body_html), author = COALESCE(?13, author),
               categories = CASE WHEN ?14 = '' THEN categories ELSE ?14 END
             WHERE feed = ?1 AND key = ?2",
        )?;
        let mut insert = tx.prepare_cached(
            "INSERT INTO items (feed, key, guid, link, title, summary, image, page_date,
               page_pos, first_seen_ms, last_seen_ms, content_hash, body_html, body_attempts,
               author, categories)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 0, ?14, ?15)",
        )?;
        for w in writes {
            let old_hash: Option<String> = select
                .query_row(params![feed, w.key], |r| r.get(0))
                .optional()?;
            match old_hash {
                Some(old) => {
                    update.execute(params![
                        feed,
                        w.key,
                        w.link,
                        w.title,
                        w.summary,
                        w.image,
                        w.page_date,
                        w.page_pos,
                        ms(now),
                        w.content_hash,
                        w.body_html,
                        w.date_relative,
                        w.author,
                        w.categories,
                    ])?;
                    if old == w.content_hash {
                        merge.unchanged += 1;
                    } else {
                        merge.updated += 1;
                    }
                }
                None => {
                    let first_seen = rows::new_item_first_seen(now, merge.new_keys.len());
                    insert.execute(params![
                        feed,
                        w.key,
                        w.guid(feed),
                        w.link,
                        w.title,
                        w.summary,
                        w.image,
                        w.page_date,
                        w.page_pos,
                        ms(first_seen),
                        ms(now),
                        w.content_hash,
                        w.body_html,
                        w.author,
                        w.categories,
                    ])?;
                    merge.new_keys.push(w.key.clone());
                }
            }
        }
        Ok(())
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

    fn unknown_item(&self, op: &'static str, feed: &str, key: &str) -> StateError {
        StateError::UnknownItem {
            path: self.label.clone(),
            op,
            feed: feed.to_string(),
            key: key.to_string(),
        }
    }
}

impl Backend for SqliteStore {
    fn label(&self) -> &str {
        &self.label
    }

    fn validators(
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

    fn save_validators(
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

    fn clear_validators(&self, feed: &str) -> Result<(), StateError> {
        let conn = self.lock();
        conn.execute("DELETE FROM validators WHERE feed = ?1", params![feed])
            .map_err(self.sql("clear fetch validators"))?;
        Ok(())
    }

    fn save_page_meta(
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

    fn page_meta(&self, feed: &str) -> Result<(Option<String>, Option<String>), StateError> {
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

    fn page_titles(&self) -> Result<HashMap<String, String>, StateError> {
        let conn = self.lock();
        let read = || {
            let mut stmt = conn.prepare("SELECT feed, title FROM pages WHERE title IS NOT NULL")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<Result<HashMap<String, String>, _>>()
        };
        read().map_err(self.sql("read the page titles"))
    }

    fn volatile_params(&self, feed: &str) -> Result<Vec<String>, StateError> {
        let conn = self.lock();
        Self::volatile_params_in(&conn, feed).map_err(self.sql("read volatile parameters"))
    }

    fn known_keys(&self, feed: &str, keys: &[String]) -> Result<HashSet<String>, StateError> {
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

    fn merge(
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
        let (rules, learned) =
            Self::learn_in(&tx, feed, items, now, rules).map_err(self.sql(OP))?;
        let keys = rows::identity_keys(&rules, items);
        let writes: Vec<ItemWrite> = items
            .iter()
            .zip(&keys)
            .enumerate()
            .map(|(pos, (item, key))| ItemWrite::new(item, key, pos))
            .collect();
        let mut merge = Merge {
            learned,
            ..Merge::default()
        };
        Self::write_items_in(&tx, feed, &writes, now, &mut merge).map_err(self.sql(OP))?;
        self.prune_in(&tx, feed, keep, now)?;
        tx.commit().map_err(self.sql(OP))?;
        merge.keys = keys;
        Ok(merge)
    }

    fn prune_items(
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

    fn record_body(
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
        let Some(attempts) = attempts else {
            return Err(self.unknown_item(OP, feed, key));
        };
        let delay = body_retry_delay(u32::try_from(attempts + 1).unwrap_or(u32::MAX));
        let retry = now.checked_add_signed(delay).map_or(i64::MAX, ms);
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
            return Err(self.unknown_item(OP, feed, key));
        }
        Ok(())
    }

    fn items_needing_body(
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

    fn current_links_by_key(&self, feed: &str) -> Result<Vec<(String, Url)>, StateError> {
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

    fn clear_bodies(&self, feed: &str) -> Result<usize, StateError> {
        let conn = self.lock();
        conn.execute(
            "UPDATE items SET body_html = NULL, body_attempts = 0, body_retry_ms = 0
             WHERE feed = ?1 AND (body_html IS NOT NULL OR body_attempts > 0)",
            params![feed],
        )
        .map_err(self.sql("clear bodies"))
    }

    fn published_rows(
        &self,
        feed: &str,
        since_ms: i64,
    ) -> Result<Vec<(StoredItem, i64)>, StateError> {
        const OP: &str = "read published items";
        let rows: Vec<ItemRow> = {
            let conn = self.lock();
            let mut stmt = conn
                .prepare_cached(&format!(
                    "SELECT {ITEM_COLUMNS} FROM items WHERE feed = ?1 AND (last_seen_ms >= ?2
                       OR last_seen_ms = (SELECT MAX(last_seen_ms) FROM items WHERE feed = ?1))"
                ))
                .map_err(self.sql(OP))?;
            stmt.query_map(params![feed, since_ms], read_item)
                .map_err(self.sql(OP))?
                .collect::<rusqlite::Result<_>>()
                .map_err(self.sql(OP))?
        };
        rows.into_iter()
            .map(|row| row.into_stored(&self.label, OP))
            .collect()
    }

    fn item(&self, feed: &str, key: &str) -> Result<Option<StoredItem>, StateError> {
        const OP: &str = "read an item";
        let row = {
            let conn = self.lock();
            conn.query_row(
                &format!("SELECT {ITEM_COLUMNS} FROM items WHERE feed = ?1 AND key = ?2"),
                params![feed, key],
                read_item,
            )
            .optional()
            .map_err(self.sql(OP))?
        };
        row.map(|r| r.into_stored(&self.label, OP).map(|(i, _)| i))
            .transpose()
    }

    fn item_count(&self, feed: &str) -> Result<usize, StateError> {
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

    fn record_run(&self, feed: &str, run: &RunRow) -> Result<(), StateError> {
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

    fn recent_runs(&self, feed: &str, n: usize) -> Result<Vec<RunRow>, StateError> {
        const OP: &str = "read the run history";
        let raws: Vec<RawRun> = {
            let conn = self.lock();
            let mut stmt = conn
                .prepare_cached(
                    "SELECT started_ms, duration_ms, status, records, new_items, pattern, error
                     FROM runs WHERE feed = ?1 ORDER BY started_ms DESC, id DESC LIMIT ?2",
                )
                .map_err(self.sql(OP))?;
            stmt.query_map(params![feed, to_i64(n)], |r| {
                Ok(RawRun {
                    started_ms: r.get(0)?,
                    duration_ms: r.get(1)?,
                    status: r.get(2)?,
                    records: r.get(3)?,
                    new_items: r.get(4)?,
                    pattern: r.get(5)?,
                    error: r.get(6)?,
                })
            })
            .map_err(self.sql(OP))?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.sql(OP))?
        };
        raws.into_iter()
            .map(|r| r.into_run(&self.label, OP))
            .collect()
    }

    fn good_runs(&self, feed: &str, n: usize) -> Result<Vec<Observation>, StateError> {
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

    fn forget_feed(&self, feed: &str) -> Result<(), StateError> {
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

    fn mark_run_started(&self, feed: &str, started: DateTime<Utc>) -> Result<(), StateError> {
        self.lock()
            .execute(
                "INSERT INTO run_marks (feed, started_ms) VALUES (?1, ?2)
                 ON CONFLICT (feed) DO UPDATE SET started_ms = excluded.started_ms",
                params![feed, ms(started)],
            )
            .map(drop)
            .map_err(self.sql("mark a run as started"))
    }

    fn run_mark(&self, feed: &str) -> Result<Option<DateTime<Utc>>, StateError> {
        let started: Option<i64> = self
            .lock()
            .query_row(
                "SELECT started_ms FROM run_marks WHERE feed = ?1",
                params![feed],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.sql("read an unfinished run"))?;
        Ok(started.map(|t| DateTime::from_timestamp_millis(t).unwrap_or_else(Utc::now)))
    }

    fn run_marks(&self) -> Result<Vec<(String, DateTime<Utc>)>, StateError> {
        let conn = self.lock();
        let mut st = conn
            .prepare("SELECT feed, started_ms FROM run_marks ORDER BY started_ms")
            .map_err(self.sql("read unfinished runs"))?;
        let marks: Vec<(String, i64)> = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .and_then(|rows| rows.collect())
            .map_err(self.sql("read unfinished runs"))?;
        Ok(marks
            .into_iter()
            .map(|(feed, t)| {
                (
                    feed,
                    DateTime::from_timestamp_millis(t).unwrap_or_else(Utc::now),
                )
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Store;
    use chrono::{Duration, TimeZone};

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
        let conn = store.sqlite().unwrap().lock();
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
            .sqlite()
            .unwrap()
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
            .sqlite()
            .unwrap()
            .lock()
            .execute_batch("DROP TRIGGER fail_lunches")
            .unwrap();
        let m = store.merge_items("city", &front_page(), t(8, 0)).unwrap();
        assert_eq!(m.new_keys.len(), 2);
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
        assert_send_sync::<SqliteStore>();
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
                .args([
                    "--ignored",
                    "--exact",
                    "state::sqlite::tests::crash_child_writer",
                ])
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
            .sqlite()
            .unwrap()
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
