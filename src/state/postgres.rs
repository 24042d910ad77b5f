//! The PostgreSQL backend of the state: the same tables and meaning as the
//! SQLite backend (see the `state` module header), in a database that
//! several feedmine instances can share. Chosen when the `state` value (or
//! `FEEDMINE_STATE`) starts with `postgres://` or `postgresql://`.
//!
//! # How the sync API meets the async driver
//! tokio-postgres is async. The backend owns a small tokio runtime (one
//! worker thread, `feedmine-pg`) that runs the deadpool pool and every
//! statement; a [`Backend`] call hands its work to that runtime and blocks
//! the calling thread until the answer (inside a multi-thread runtime
//! through `block_in_place`, so other tasks move on). Every call is bounded
//! by [`OP_TIMEOUT`]: when the server is gone, calls fail with
//! [`StateError::Unreachable`] and the pool reconnects by itself once the
//! server is back.
//!
//! Beyond the SQLite tables it holds what sharing needs: `instances` and
//! `leases` (see `daemon::cluster`) and the published `documents` (see
//! `state::documents`).
//!
//! # Schema versions
//! `schema_version` holds one row per applied migration. At open, under a
//! transaction-scoped advisory lock (so instances starting together migrate
//! once), the missing steps of [`MIGRATIONS`] are applied in one
//! transaction; a database whose version is newer than [`SCHEMA_VERSION`] is
//! refused with [`StateError::TooNew`] and left untouched. The versions are
//! this backend's own (SQLite counts its own in `PRAGMA user_version`).
//!
//! # Secrets
//! The connection URL's password never leaves this module: the store is
//! named by its *label* (the URL without password), [`PgUrl`]'s `Debug`
//! prints the label, and every error text from the driver or the pool is
//! passed through [`PgUrl::redact`] before it becomes a [`StateError`].

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::str::FromStr;
use std::time::Duration as StdDuration;

use chrono::{DateTime, Utc};
use deadpool_postgres::GenericClient;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio_postgres::{NoTls, Row};
use url::Url;

use super::documents::{Document, DocumentLookup};
use super::identity::{self, IdentityRules};
use super::rows::{self, ITEM_COLUMNS, ItemRow, ItemWrite, RawRun, ms, to_i64};
use super::{
    ArticleMeta, Backend, CachedValidators, MAX_RUNS_PER_FEED, MIN_PRUNE_AGE, Merge,
    PRUNE_ITEMS_FACTOR, Retention, RunRow, STATUS_PUBLISHED, StateError, StoredItem,
    body_retry_delay,
};
use crate::drift::Observation;
use crate::extract::items::Item;

mod cached;
mod hosts;

use cached::Cached;

/// Schema version this build reads and writes (rows of `schema_version`).
pub const SCHEMA_VERSION: u32 = 4;
/// Longest wait for one operation (connection included) before it fails
/// as [`StateError::Unreachable`].
pub const OP_TIMEOUT: StdDuration = StdDuration::from_secs(20);
/// Longest wait for a TCP connection to the server.
pub const CONNECT_TIMEOUT: StdDuration = StdDuration::from_secs(5);
/// Connections the pool keeps at most (per instance).
pub const POOL_SIZE: usize = 8;
/// What [`StateError::TooNew`] tells the user to do.
const TOO_NEW_HINT: &str = "upgrade feedmine: every instance sharing this database must run a \
     version that knows its schema";
/// Key of the advisory lock that serializes migrations.
const MIGRATION_LOCK: i64 = 0x6665_6564_6d69_6e65; // "feedmine"

/// Migration `i` brings the schema from version `i` to `i + 1`. Times are
/// UTC milliseconds since the epoch (BIGINT), as in SQLite; `items.id`
/// plays SQLite's `rowid` (re-keying order and row identity).
const MIGRATIONS: &[&str] = &[
    // v0 → v1: the SQLite schema of version 3, at once.
    "CREATE TABLE items (
        id BIGSERIAL UNIQUE,
        feed TEXT NOT NULL,
        key TEXT NOT NULL,
        guid TEXT NOT NULL,
        link TEXT,
        title TEXT NOT NULL,
        summary TEXT NOT NULL,
        image TEXT,
        page_date TEXT,
        page_pos BIGINT NOT NULL,
        first_seen_ms BIGINT NOT NULL,
        last_seen_ms BIGINT NOT NULL,
        content_hash TEXT NOT NULL,
        body_html TEXT,
        body_attempts BIGINT NOT NULL DEFAULT 0,
        author TEXT,
        categories TEXT NOT NULL DEFAULT '',
        body_retry_ms BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (feed, key)
    );
    CREATE INDEX items_by_last_seen ON items (feed, last_seen_ms);
    CREATE TABLE validators (
        feed TEXT NOT NULL,
        url TEXT NOT NULL,
        config_hash TEXT NOT NULL,
        etag TEXT,
        last_modified TEXT,
        saved_ms BIGINT NOT NULL,
        PRIMARY KEY (feed, url)
    );
    CREATE TABLE runs (
        id BIGSERIAL PRIMARY KEY,
        feed TEXT NOT NULL,
        started_ms BIGINT NOT NULL,
        duration_ms BIGINT NOT NULL,
        status TEXT NOT NULL,
        records BIGINT NOT NULL,
        new_items BIGINT NOT NULL,
        pattern TEXT,
        error TEXT
    );
    CREATE INDEX runs_by_feed ON runs (feed, started_ms);
    CREATE TABLE volatile_params (
        feed TEXT NOT NULL,
        name TEXT NOT NULL,
        learned_ms BIGINT NOT NULL,
        PRIMARY KEY (feed, name)
    );
    CREATE TABLE pages (
        feed TEXT PRIMARY KEY,
        title TEXT,
        language TEXT
    );
    CREATE TABLE run_marks (
        feed TEXT PRIMARY KEY,
        started_ms BIGINT NOT NULL
    );",
    // v1 → v2: instances sharing the database and the feeds' leases. Their
    // times are the server's clock (one clock for every instance).
    "CREATE TABLE instances (
        id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid BIGINT NOT NULL,
        started_ms BIGINT NOT NULL,
        heartbeat_ms BIGINT NOT NULL,
        config_hash TEXT NOT NULL
    );
    CREATE TABLE leases (
        feed TEXT PRIMARY KEY,
        holder TEXT NOT NULL,
        acquired_ms BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL
    );
    CREATE INDEX leases_by_holder ON leases (holder);",
    // v2 → v3: the published documents every instance serves (see
    // `state::documents`); `feed` is '' for shared ones (the stylesheet).
    "CREATE TABLE documents (
        name TEXT PRIMARY KEY,
        feed TEXT NOT NULL,
        body BYTEA NOT NULL,
        etag TEXT NOT NULL,
        modified_ms BIGINT NOT NULL
    );
    CREATE INDEX documents_by_feed ON documents (feed);",
    // v3 → v4: per-host politeness shared between instances (see
    // `postgres/hosts.rs`): each host's last request start, the spacing it
    // asked for and any Retry-After deferral, and its concurrency slots
    // (held like leases, so a dead instance's slots expire).
    "CREATE TABLE host_turns (
        host TEXT PRIMARY KEY,
        last_ms BIGINT NOT NULL,
        next_ms BIGINT NOT NULL,
        deferred_ms BIGINT NOT NULL
    );
    CREATE TABLE host_slots (
        host TEXT NOT NULL,
        slot INTEGER NOT NULL,
        holder TEXT NOT NULL,
        expires_ms BIGINT NOT NULL,
        PRIMARY KEY (host, slot)
    );",
];

/// The server's clock in UTC milliseconds (leases and heartbeats use it,
/// so instances with skewed clocks still agree).
const NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// Instances silent for longer than this are removed from the registry.
const FORGET_INSTANCES_AFTER: StdDuration = StdDuration::from_secs(86_400);

/// A PostgreSQL connection URL: the text itself is secret (it may hold a
/// password); [`PgUrl::label`] is what may be shown.
#[derive(Clone, PartialEq, Eq)]
pub struct PgUrl {
    raw: String,
    label: String,
    /// The password as written and percent-decoded, for redaction.
    secrets: Vec<String>,
}

impl std::fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("PgUrl").field(&self.label).finish()
    }
}

impl PgUrl {
    /// True when `value` names a PostgreSQL database rather than a file.
    pub fn is_postgres(value: &str) -> bool {
        let lower = value.trim_start().to_ascii_lowercase();
        lower.starts_with("postgres://") || lower.starts_with("postgresql://")
    }

    /// Check and keep a `postgres://` URL. A password in it is kept for the
    /// connection only; errors never show it.
    pub fn parse(value: &str) -> Result<PgUrl, StateError> {
        let (label, secrets) = match Url::parse(value) {
            Ok(mut url) => {
                let secrets = url
                    .password()
                    .map(|p| {
                        let decoded = percent_decoded(p);
                        vec![p.to_string(), decoded]
                    })
                    .unwrap_or_default();
                let _ = url.set_password(None);
                (url.to_string(), secrets)
            }
            Err(_) => ("the PostgreSQL URL in `state`".to_string(), Vec::new()),
        };
        let url = PgUrl {
            raw: value.to_string(),
            label,
            secrets,
        };
        url.config()?;
        Ok(url)
    }

    /// The URL without its password.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The URL as given, password included: for a connection only, never
    /// for a message.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// `text` with every form of the password replaced by `***`.
    pub fn redact(&self, text: &str) -> String {
        self.secrets
            .iter()
            .filter(|s| !s.is_empty())
            .fold(text.to_string(), |t, s| t.replace(s.as_str(), "***"))
    }

    /// The driver's connection settings (`PGPASSWORD` fills in a password
    /// the URL leaves out).
    fn config(&self) -> Result<tokio_postgres::Config, StateError> {
        let mut config =
            tokio_postgres::Config::from_str(&self.raw).map_err(|e| StateError::BadUrl {
                path: self.label.clone(),
                detail: self.redact(&e.to_string()),
            })?;
        if config.get_password().is_none()
            && let Ok(pw) = std::env::var("PGPASSWORD")
        {
            config.password(pw);
        }
        if config.get_hosts().is_empty() {
            config.host("localhost");
        }
        config
            .connect_timeout(CONNECT_TIMEOUT)
            .application_name("feedmine");
        Ok(config)
    }
}

fn percent_decoded(s: &str) -> String {
    url::form_urlencoded::parse(format!("x={s}").as_bytes())
        .next()
        .map_or_else(|| s.to_string(), |(_, v)| v.into_owned())
}

/// What went wrong inside an operation, before it is named and redacted.
#[derive(Debug)]
enum Fail {
    Db(tokio_postgres::Error),
    Pool(deadpool_postgres::PoolError),
    State(StateError),
}

impl From<tokio_postgres::Error> for Fail {
    fn from(e: tokio_postgres::Error) -> Fail {
        Fail::Db(e)
    }
}

impl From<deadpool_postgres::PoolError> for Fail {
    fn from(e: deadpool_postgres::PoolError) -> Fail {
        Fail::Pool(e)
    }
}

impl From<StateError> for Fail {
    fn from(e: StateError) -> Fail {
        Fail::State(e)
    }
}

/// An error and its sources as one line.
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = s.source();
    }
    out
}

/// The PostgreSQL state database. `Send + Sync`.
pub struct PostgresStore {
    runtime: Option<tokio::runtime::Runtime>,
    handle: tokio::runtime::Handle,
    pool: Pool,
    url: PgUrl,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore")
            .field("url", &self.url)
            .finish()
    }
}

impl Drop for PostgresStore {
    fn drop(&mut self) {
        // Never blocks: the store may be dropped inside an async context.
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

impl PostgresStore {
    /// Connect to the database at `url` and migrate it to
    /// [`SCHEMA_VERSION`]. Fails when the server cannot be reached (within
    /// [`OP_TIMEOUT`]) or the schema is newer than this build.
    pub fn open(url: &PgUrl) -> Result<PostgresStore, StateError> {
        let config = url.config()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("feedmine-pg")
            .enable_all()
            .build()
            .map_err(|e| StateError::Unreachable {
                path: url.label.clone(),
                op: "start the database runtime",
                detail: e.to_string(),
            })?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(OP_TIMEOUT))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .recycle_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|e| StateError::Unreachable {
                path: url.label.clone(),
                op: "set up the connection pool",
                detail: url.redact(&e.to_string()),
            })?;
        let store = PostgresStore {
            handle: runtime.handle().clone(),
            runtime: Some(runtime),
            pool,
            url: url.clone(),
        };
        store.migrate()?;
        Ok(store)
    }

    /// The StateError for a failure of operation `op`.
    fn error(&self, op: &'static str, fail: Fail) -> StateError {
        let label = self.url.label.clone();
        match fail {
            Fail::State(e) => e,
            Fail::Db(e) if e.as_db_error().is_some() => StateError::Postgres {
                path: label,
                op,
                detail: self.url.redact(&chain(&e)),
            },
            Fail::Db(e) => StateError::Unreachable {
                path: label,
                op,
                detail: self.url.redact(&chain(&e)),
            },
            Fail::Pool(e) => StateError::Unreachable {
                path: label,
                op,
                detail: self.url.redact(&chain(&e)),
            },
        }
    }

    /// Run `work` with a pooled connection on the backend's runtime and
    /// wait for its result (at most [`OP_TIMEOUT`]).
    fn run<T, F, Fut>(&self, op: &'static str, work: F) -> Result<T, StateError>
    where
        T: Send + 'static,
        F: FnOnce(deadpool_postgres::Client) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, Fail>> + Send + 'static,
    {
        self.run_within(op, OP_TIMEOUT, work)
    }

    /// [`PostgresStore::run`] bounded by `limit` instead of [`OP_TIMEOUT`].
    fn run_within<T, F, Fut>(
        &self,
        op: &'static str,
        limit: StdDuration,
        work: F,
    ) -> Result<T, StateError>
    where
        T: Send + 'static,
        F: FnOnce(deadpool_postgres::Client) -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, Fail>> + Send + 'static,
    {
        let pool = self.pool.clone();
        let task = async move {
            let client = pool.get().await?;
            work(client).await
        };
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.handle.spawn(async move {
            let outcome = tokio::time::timeout(limit, task).await;
            let _ = tx.send(outcome);
        });
        let wait = move || rx.recv();
        let received = match tokio::runtime::Handle::try_current() {
            Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(wait)
            }
            _ => wait(),
        };
        let unreachable = |detail: String| StateError::Unreachable {
            path: self.url.label.clone(),
            op,
            detail,
        };
        match received {
            Ok(Ok(result)) => result.map_err(|f| self.error(op, f)),
            Ok(Err(_)) => Err(unreachable(format!(
                "no answer within {} s",
                limit.as_secs()
            ))),
            Err(_) => Err(unreachable("the database task stopped".into())),
        }
    }

    /// Apply the missing migrations (see the module header).
    fn migrate(&self) -> Result<(), StateError> {
        let label = self.url.label.clone();
        self.run("migrate the schema", move |mut client| async move {
            let tx = client.transaction().await?;
            tx.execute_cached("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .await?;
            tx.batch_execute(
                "CREATE TABLE IF NOT EXISTS schema_version (
                    version INTEGER PRIMARY KEY,
                    applied_ms BIGINT NOT NULL
                 )",
            )
            .await?;
            let row = tx
                .query_one_cached("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])
                .await?;
            let found: i32 = row.try_get(0)?;
            let found = u32::try_from(found).unwrap_or(0);
            if found > SCHEMA_VERSION {
                return Err(Fail::State(StateError::TooNew {
                    path: label,
                    found,
                    supported: SCHEMA_VERSION,
                    hint: TOO_NEW_HINT,
                }));
            }
            for (i, step) in MIGRATIONS.iter().enumerate().skip(found as usize) {
                tx.batch_execute(step).await?;
                let version = i32::try_from(i + 1).unwrap_or(i32::MAX);
                tx.execute_cached(
                    "INSERT INTO schema_version (version, applied_ms) VALUES ($1, $2)",
                    &[&version, &ms(Utc::now())],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }
}

/// Read an [`ItemRow`] selected with [`ITEM_COLUMNS`].
fn read_item(r: &Row) -> Result<ItemRow, tokio_postgres::Error> {
    Ok(ItemRow {
        key: r.try_get("key")?,
        guid: r.try_get("guid")?,
        link: r.try_get("link")?,
        title: r.try_get("title")?,
        summary: r.try_get("summary")?,
        image: r.try_get("image")?,
        page_date: r.try_get("page_date")?,
        first_seen_ms: r.try_get("first_seen_ms")?,
        last_seen_ms: r.try_get("last_seen_ms")?,
        content_hash: r.try_get("content_hash")?,
        body_html: r.try_get("body_html")?,
        body_attempts: r.try_get("body_attempts")?,
        page_pos: r.try_get("page_pos")?,
        author: r.try_get("author")?,
        categories: r.try_get("categories")?,
    })
}

/// Links of the items of the latest merge of `feed`.
async fn current_links<C: GenericClient + Sync>(c: &C, feed: &str) -> Result<Vec<Url>, Fail> {
    let rows = c
        .query_cached(
            "SELECT link FROM items WHERE feed = $1 AND link IS NOT NULL
               AND last_seen_ms = (SELECT MAX(last_seen_ms) FROM items WHERE feed = $1)",
            &[&feed],
        )
        .await?;
    let links: Vec<String> = rows
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    Ok(rows::parse_links(&links))
}

/// Learn a volatile parameter (see the SQLite backend's `learn_in`).
async fn learn<C: GenericClient + Sync>(
    c: &C,
    feed: &str,
    items: &[Item],
    now: DateTime<Utc>,
    rules: &IdentityRules,
) -> Result<(IdentityRules, Option<String>), Fail> {
    let learned: Vec<String> = c
        .query_cached(
            "SELECT name FROM volatile_params WHERE feed = $1 ORDER BY name",
            &[&feed],
        )
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    let rules = rules.clone().with_learned(learned);
    let previous = current_links(c, feed).await?;
    let current: Vec<Url> = items.iter().filter_map(|i| i.link.clone()).collect();
    let Some(name) = identity::learn_volatile(&rules, &previous, &current) else {
        return Ok((rules, None));
    };
    c.execute_cached(
        "INSERT INTO volatile_params (feed, name, learned_ms) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING",
        &[&feed, &name, &ms(now)],
    )
    .await?;
    let rules = rules.with_learned([name.clone()]);
    rekey(c, feed, &rules).await?;
    Ok((rules, Some(name)))
}

/// Recompute the keys of the linked items of `feed` under `rules`.
async fn rekey<C: GenericClient + Sync>(
    c: &C,
    feed: &str,
    rules: &IdentityRules,
) -> Result<(), Fail> {
    let rows: Vec<(i64, String, String)> = c
        .query_cached(
            "SELECT id, key, link FROM items WHERE feed = $1 AND link IS NOT NULL
             ORDER BY first_seen_ms, id",
            &[&feed],
        )
        .await?
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
        .collect::<Result<_, tokio_postgres::Error>>()?;
    let plan = rows::rekey_plan(&rows, rules);
    for id in &plan.delete {
        c.execute_cached("DELETE FROM items WHERE id = $1", &[id])
            .await?;
    }
    // Two passes: a new key may equal another row's old key.
    for (id, _) in &plan.rename {
        c.execute_cached(
            "UPDATE items SET key = chr(1) || id::text WHERE id = $1",
            &[id],
        )
        .await?;
    }
    for (id, key) in &plan.rename {
        c.execute_cached("UPDATE items SET key = $2 WHERE id = $1", &[id, key])
            .await?;
    }
    Ok(())
}

/// Insert or update the rows of one page's items; counts into `merge`.
async fn write_items<C: GenericClient + Sync>(
    c: &C,
    feed: &str,
    writes: &[ItemWrite],
    now: DateTime<Utc>,
    merge: &mut Merge,
) -> Result<(), Fail> {
    let keys: Vec<&str> = writes.iter().map(|w| w.key.as_str()).collect();
    let known: HashMap<String, String> = c
        .query_cached(
            "SELECT key, content_hash FROM items WHERE feed = $1 AND key = ANY($2)",
            &[&feed, &keys],
        )
        .await?
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect::<Result<_, tokio_postgres::Error>>()?;
    let update = c
        .prepare_cached(
            "UPDATE items SET link = $3, title = $4, summary = $5, image = $6,
               page_date = CASE WHEN $12 AND page_date IS NOT NULL
                 THEN page_date ELSE $7 END,
               page_pos = $8, last_seen_ms = $9, content_hash = $10,
               body_html = COALESCE($11, body_html), author = COALESCE($13, author),
               categories = CASE WHEN $14 = '' THEN categories ELSE $14 END
             WHERE feed = $1 AND key = $2",
        )
        .await?;
    let insert = c
        .prepare_cached(
            "INSERT INTO items (feed, key, guid, link, title, summary, image, page_date,
               page_pos, first_seen_ms, last_seen_ms, content_hash, body_html, body_attempts,
               author, categories)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 0, $14, $15)",
        )
        .await?;
    for w in writes {
        match known.get(&w.key) {
            Some(old) => {
                c.execute(
                    &update,
                    &[
                        &feed,
                        &w.key,
                        &w.link,
                        &w.title,
                        &w.summary,
                        &w.image,
                        &w.page_date,
                        &w.page_pos,
                        &ms(now),
                        &w.content_hash,
                        &w.body_html,
                        &w.date_relative,
                        &w.author,
                        &w.categories,
                    ],
                )
                .await?;
                if *old == w.content_hash {
                    merge.unchanged += 1;
                } else {
                    merge.updated += 1;
                }
            }
            None => {
                let first_seen = rows::new_item_first_seen(now, merge.new_keys.len());
                c.execute(
                    &insert,
                    &[
                        &feed,
                        &w.key,
                        &w.guid(feed),
                        &w.link,
                        &w.title,
                        &w.summary,
                        &w.image,
                        &w.page_date,
                        &w.page_pos,
                        &ms(first_seen),
                        &ms(now),
                        &w.content_hash,
                        &w.body_html,
                        &w.author,
                        &w.categories,
                    ],
                )
                .await?;
                merge.new_keys.push(w.key.clone());
            }
        }
    }
    Ok(())
}

/// Prune the items of `feed` (see [`super::Store::prune_items`]).
async fn prune<C: GenericClient + Sync>(
    c: &C,
    feed: &str,
    keep: &Retention,
    now: DateTime<Utc>,
) -> Result<usize, Fail> {
    let latest: Option<i64> = c
        .query_one_cached(
            "SELECT MAX(last_seen_ms) FROM items WHERE feed = $1",
            &[&feed],
        )
        .await?
        .try_get(0)?;
    let Some(latest) = latest else {
        return Ok(0);
    };
    let age = keep.max_age.unwrap_or(MIN_PRUNE_AGE).max(MIN_PRUNE_AGE);
    let cutoff = now.checked_sub_signed(age).map_or(i64::MIN, ms);
    let by_age = c
        .execute_cached(
            "DELETE FROM items WHERE feed = $1 AND last_seen_ms < $2 AND last_seen_ms < $3",
            &[&feed, &cutoff, &latest],
        )
        .await?;
    let cap = to_i64(keep.max_items.saturating_mul(PRUNE_ITEMS_FACTOR));
    let by_count = c
        .execute_cached(
            "DELETE FROM items WHERE feed = $1 AND last_seen_ms < $2 AND key IN (
               SELECT key FROM items WHERE feed = $1
               ORDER BY last_seen_ms DESC, first_seen_ms DESC OFFSET $3)",
            &[&feed, &latest, &cap],
        )
        .await?;
    Ok(usize::try_from(by_age + by_count).unwrap_or(usize::MAX))
}

/// Serializes merges of one feed (what SQLite's write lock gives).
async fn lock_feed<C: GenericClient + Sync>(c: &C, feed: &str) -> Result<(), Fail> {
    c.execute_cached("SELECT pg_advisory_xact_lock(7001, hashtext($1))", &[&feed])
        .await?;
    Ok(())
}

fn count(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

impl Backend for PostgresStore {
    fn label(&self) -> &str {
        &self.url.label
    }

    fn validators(
        &self,
        feed: &str,
        url: &str,
        config_hash: &str,
    ) -> Result<Option<CachedValidators>, StateError> {
        let (feed, url, hash) = (feed.to_string(), url.to_string(), config_hash.to_string());
        self.run("read fetch validators", move |c| async move {
            let row = c
                .query_opt_cached(
                    "SELECT config_hash, etag, last_modified FROM validators
                     WHERE feed = $1 AND url = $2",
                    &[&feed, &url],
                )
                .await?;
            let Some(row) = row else { return Ok(None) };
            let stored: String = row.try_get(0)?;
            Ok((stored == hash).then_some(CachedValidators {
                etag: row.try_get(1)?,
                last_modified: row.try_get(2)?,
            }))
        })
    }

    fn save_validators(
        &self,
        feed: &str,
        url: &str,
        config_hash: &str,
        v: &CachedValidators,
    ) -> Result<(), StateError> {
        let (feed, url, hash, v) = (
            feed.to_string(),
            url.to_string(),
            config_hash.to_string(),
            v.clone(),
        );
        self.run("save fetch validators", move |c| async move {
            c.execute_cached(
                "INSERT INTO validators (feed, url, config_hash, etag, last_modified, saved_ms)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (feed, url) DO UPDATE SET config_hash = excluded.config_hash,
                   etag = excluded.etag, last_modified = excluded.last_modified,
                   saved_ms = excluded.saved_ms",
                &[
                    &feed,
                    &url,
                    &hash,
                    &v.etag,
                    &v.last_modified,
                    &ms(Utc::now()),
                ],
            )
            .await?;
            Ok(())
        })
    }

    fn clear_validators(&self, feed: &str) -> Result<(), StateError> {
        let feed = feed.to_string();
        self.run("clear fetch validators", move |c| async move {
            c.execute_cached("DELETE FROM validators WHERE feed = $1", &[&feed])
                .await?;
            Ok(())
        })
    }

    fn save_page_meta(
        &self,
        feed: &str,
        title: Option<&str>,
        language: Option<&str>,
    ) -> Result<(), StateError> {
        let feed = feed.to_string();
        let (title, language) = (title.map(str::to_string), language.map(str::to_string));
        self.run("save the page title", move |c| async move {
            c.execute_cached(
                "INSERT INTO pages (feed, title, language) VALUES ($1, $2, $3)
                 ON CONFLICT (feed) DO UPDATE SET title = $2, language = $3",
                &[&feed, &title, &language],
            )
            .await?;
            Ok(())
        })
    }

    fn page_meta(&self, feed: &str) -> Result<(Option<String>, Option<String>), StateError> {
        let feed = feed.to_string();
        self.run("read the page title", move |c| async move {
            let row = c
                .query_opt_cached(
                    "SELECT title, language FROM pages WHERE feed = $1",
                    &[&feed],
                )
                .await?;
            match row {
                Some(r) => Ok((r.try_get(0)?, r.try_get(1)?)),
                None => Ok((None, None)),
            }
        })
    }

    fn page_titles(&self) -> Result<HashMap<String, String>, StateError> {
        self.run("read the page titles", move |c| async move {
            let rows = c
                .query_cached("SELECT feed, title FROM pages WHERE title IS NOT NULL", &[])
                .await?;
            rows.iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect()
        })
    }

    fn volatile_params(&self, feed: &str) -> Result<Vec<String>, StateError> {
        let feed = feed.to_string();
        self.run("read volatile parameters", move |c| async move {
            let rows = c
                .query_cached(
                    "SELECT name FROM volatile_params WHERE feed = $1 ORDER BY name",
                    &[&feed],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?)
        })
    }

    fn known_keys(&self, feed: &str, keys: &[String]) -> Result<HashSet<String>, StateError> {
        let (feed, keys) = (feed.to_string(), keys.to_vec());
        self.run("look up known items", move |c| async move {
            let rows = c
                .query_cached(
                    "SELECT key FROM items WHERE feed = $1 AND key = ANY($2)",
                    &[&feed, &keys],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?)
        })
    }

    fn merge(
        &self,
        feed: &str,
        items: &[Item],
        now: DateTime<Utc>,
        keep: &Retention,
        rules: &IdentityRules,
    ) -> Result<Merge, StateError> {
        let (feed, items, keep, rules) = (feed.to_string(), items.to_vec(), *keep, rules.clone());
        self.run("merge items", move |mut client| async move {
            let tx = client.transaction().await?;
            lock_feed(&tx, &feed).await?;
            let (rules, learned) = learn(&tx, &feed, &items, now, &rules).await?;
            let keys = rows::identity_keys(&rules, &items);
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
            write_items(&tx, &feed, &writes, now, &mut merge).await?;
            prune(&tx, &feed, &keep, now).await?;
            tx.commit().await?;
            merge.keys = keys;
            Ok(merge)
        })
    }

    fn prune_items(
        &self,
        feed: &str,
        keep: &Retention,
        now: DateTime<Utc>,
    ) -> Result<usize, StateError> {
        let (feed, keep) = (feed.to_string(), *keep);
        self.run("prune items", move |mut client| async move {
            let tx = client.transaction().await?;
            lock_feed(&tx, &feed).await?;
            let n = prune(&tx, &feed, &keep, now).await?;
            tx.commit().await?;
            Ok(n)
        })
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
        let (feed, key) = (feed.to_string(), key.to_string());
        let (body, meta) = (body_html.map(str::to_string), meta.clone());
        let label = self.url.label.clone();
        self.run(OP, move |c| async move {
            let unknown = || {
                Fail::State(StateError::UnknownItem {
                    path: label.clone(),
                    op: OP,
                    feed: feed.clone(),
                    key: key.clone(),
                })
            };
            let row = c
                .query_opt_cached(
                    "SELECT body_attempts FROM items WHERE feed = $1 AND key = $2",
                    &[&feed, &key],
                )
                .await?;
            let attempts: i64 = row.ok_or_else(unknown)?.try_get(0)?;
            let delay = body_retry_delay(u32::try_from(attempts + 1).unwrap_or(u32::MAX));
            let retry = now.checked_add_signed(delay).map_or(i64::MAX, ms);
            let n = c
                .execute_cached(
                    "UPDATE items SET body_attempts = body_attempts + 1,
                       body_html = COALESCE($3, body_html), body_retry_ms = $4,
                       author = COALESCE(author, $5),
                       categories = CASE WHEN categories = '' THEN $6 ELSE categories END
                     WHERE feed = $1 AND key = $2",
                    &[
                        &feed,
                        &key,
                        &body,
                        &retry,
                        &meta.author,
                        &meta.tags.join("\n"),
                    ],
                )
                .await?;
            if n == 0 {
                return Err(unknown());
            }
            Ok(())
        })
    }

    fn items_needing_body(
        &self,
        feed: &str,
        keys: &[String],
        max_attempts: u32,
        now: DateTime<Utc>,
    ) -> Result<Vec<String>, StateError> {
        let (feed, keys) = (feed.to_string(), keys.to_vec());
        self.run("list items needing a body", move |c| async move {
            let due: HashSet<String> = c
                .query_cached(
                    "SELECT key FROM items WHERE feed = $1 AND key = ANY($2)
                       AND body_html IS NULL AND body_attempts < $3 AND body_retry_ms <= $4",
                    &[&feed, &keys, &i64::from(max_attempts), &ms(now)],
                )
                .await?
                .iter()
                .map(|r| r.try_get(0))
                .collect::<Result<_, _>>()?;
            Ok(keys.into_iter().filter(|k| due.contains(k)).collect())
        })
    }

    fn current_links_by_key(&self, feed: &str) -> Result<Vec<(String, Url)>, StateError> {
        let feed = feed.to_string();
        self.run("read the current items", move |c| async move {
            let rows = c
                .query_cached(
                    "SELECT key, link FROM items WHERE feed = $1 AND link IS NOT NULL
                       AND last_seen_ms = (SELECT MAX(last_seen_ms) FROM items WHERE feed = $1)
                     ORDER BY page_pos",
                    &[&feed],
                )
                .await?;
            let pairs: Vec<(String, String)> = rows
                .iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<_, tokio_postgres::Error>>()?;
            Ok(pairs
                .into_iter()
                .filter_map(|(k, l)| Url::parse(&l).ok().map(|u| (k, u)))
                .collect())
        })
    }

    fn clear_bodies(&self, feed: &str) -> Result<usize, StateError> {
        let feed = feed.to_string();
        self.run("clear bodies", move |c| async move {
            let n = c
                .execute_cached(
                    "UPDATE items SET body_html = NULL, body_attempts = 0, body_retry_ms = 0
                     WHERE feed = $1 AND (body_html IS NOT NULL OR body_attempts > 0)",
                    &[&feed],
                )
                .await?;
            Ok(count(n))
        })
    }

    fn published_rows(
        &self,
        feed: &str,
        since_ms: i64,
    ) -> Result<Vec<(StoredItem, i64)>, StateError> {
        const OP: &str = "read published items";
        let feed = feed.to_string();
        let rows: Vec<ItemRow> = self.run(OP, move |c| async move {
            let rows = c
                .query_cached(
                    &format!(
                        "SELECT {ITEM_COLUMNS} FROM items WHERE feed = $1 AND (last_seen_ms >= $2
                           OR last_seen_ms = (SELECT MAX(last_seen_ms) FROM items WHERE feed = $1))"
                    ),
                    &[&feed, &since_ms],
                )
                .await?;
            Ok(rows.iter().map(read_item).collect::<Result<_, _>>()?)
        })?;
        rows.into_iter()
            .map(|row| row.into_stored(&self.url.label, OP))
            .collect()
    }

    fn item(&self, feed: &str, key: &str) -> Result<Option<StoredItem>, StateError> {
        const OP: &str = "read an item";
        let (feed, key) = (feed.to_string(), key.to_string());
        let row: Option<ItemRow> = self.run(OP, move |c| async move {
            let row = c
                .query_opt_cached(
                    &format!("SELECT {ITEM_COLUMNS} FROM items WHERE feed = $1 AND key = $2"),
                    &[&feed, &key],
                )
                .await?;
            Ok(row.as_ref().map(read_item).transpose()?)
        })?;
        row.map(|r| r.into_stored(&self.url.label, OP).map(|(i, _)| i))
            .transpose()
    }

    fn item_count(&self, feed: &str) -> Result<usize, StateError> {
        let feed = feed.to_string();
        self.run("count items", move |c| async move {
            let n: i64 = c
                .query_one_cached("SELECT COUNT(*) FROM items WHERE feed = $1", &[&feed])
                .await?
                .try_get(0)?;
            Ok(usize::try_from(n).unwrap_or(0))
        })
    }

    fn record_run(&self, feed: &str, run: &RunRow) -> Result<(), StateError> {
        let (feed, run) = (feed.to_string(), run.clone());
        self.run("record a run", move |mut client| async move {
            let tx = client.transaction().await?;
            tx.execute_cached(
                "INSERT INTO runs (feed, started_ms, duration_ms, status, records, new_items,
                   pattern, error)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                &[
                    &feed,
                    &ms(run.started),
                    &i64::try_from(run.duration_ms).unwrap_or(i64::MAX),
                    &run.status,
                    &to_i64(run.records),
                    &to_i64(run.new_items),
                    &run.pattern,
                    &run.error,
                ],
            )
            .await?;
            tx.execute_cached("DELETE FROM run_marks WHERE feed = $1", &[&feed])
                .await?;
            tx.execute_cached(
                "DELETE FROM runs WHERE feed = $1 AND id NOT IN (
                   SELECT id FROM runs WHERE feed = $1
                   ORDER BY started_ms DESC, id DESC LIMIT $2)",
                &[&feed, &to_i64(MAX_RUNS_PER_FEED)],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn recent_runs(&self, feed: &str, n: usize) -> Result<Vec<RunRow>, StateError> {
        const OP: &str = "read the run history";
        let feed = feed.to_string();
        let raws: Vec<RawRun> = self.run(OP, move |c| async move {
            let rows = c
                .query_cached(
                    "SELECT started_ms, duration_ms, status, records, new_items, pattern, error
                     FROM runs WHERE feed = $1 ORDER BY started_ms DESC, id DESC LIMIT $2",
                    &[&feed, &to_i64(n)],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| {
                    Ok(RawRun {
                        started_ms: r.try_get(0)?,
                        duration_ms: r.try_get(1)?,
                        status: r.try_get(2)?,
                        records: r.try_get(3)?,
                        new_items: r.try_get(4)?,
                        pattern: r.try_get(5)?,
                        error: r.try_get(6)?,
                    })
                })
                .collect::<Result<_, tokio_postgres::Error>>()?)
        })?;
        raws.into_iter()
            .map(|r| r.into_run(&self.url.label, OP))
            .collect()
    }

    fn good_runs(&self, feed: &str, n: usize) -> Result<Vec<Observation>, StateError> {
        let feed = feed.to_string();
        self.run("read the good runs", move |c| async move {
            let rows = c
                .query_cached(
                    "SELECT records, pattern FROM runs WHERE feed = $1 AND status = $2
                     ORDER BY started_ms DESC, id DESC LIMIT $3",
                    &[&feed, &STATUS_PUBLISHED, &to_i64(n)],
                )
                .await?;
            Ok(rows
                .iter()
                .map(|r| {
                    Ok(Observation {
                        records: usize::try_from(r.try_get::<_, i64>(0)?).unwrap_or(0),
                        pattern: r.try_get(1)?,
                    })
                })
                .collect::<Result<_, tokio_postgres::Error>>()?)
        })
    }

    fn forget_feed(&self, feed: &str) -> Result<(), StateError> {
        let feed = feed.to_string();
        self.run("forget a feed", move |mut client| async move {
            let tx = client.transaction().await?;
            for table in [
                "items",
                "validators",
                "runs",
                "volatile_params",
                "pages",
                "documents",
            ] {
                tx.execute_cached(&format!("DELETE FROM {table} WHERE feed = $1"), &[&feed])
                    .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn mark_run_started(&self, feed: &str, started: DateTime<Utc>) -> Result<(), StateError> {
        let feed = feed.to_string();
        self.run("mark a run as started", move |c| async move {
            c.execute_cached(
                "INSERT INTO run_marks (feed, started_ms) VALUES ($1, $2)
                 ON CONFLICT (feed) DO UPDATE SET started_ms = excluded.started_ms",
                &[&feed, &ms(started)],
            )
            .await?;
            Ok(())
        })
    }

    fn run_marks(&self) -> Result<Vec<(String, DateTime<Utc>)>, StateError> {
        self.run("read unfinished runs", move |c| async move {
            let rows = c
                .query_cached(
                    &format!(
                        "SELECT feed, started_ms FROM run_marks m WHERE NOT EXISTS (
                           SELECT 1 FROM leases l WHERE l.feed = m.feed AND l.expires_ms > {NOW_MS})
                         ORDER BY started_ms"
                    ),
                    &[],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    let t: i64 = r.try_get(1)?;
                    Ok((
                        r.try_get(0)?,
                        DateTime::from_timestamp_millis(t).unwrap_or_else(Utc::now),
                    ))
                })
                .collect()
        })
    }

    fn run_mark(&self, feed: &str) -> Result<Option<DateTime<Utc>>, StateError> {
        let feed = feed.to_string();
        self.run("read an unfinished run", move |c| async move {
            let row = c
                .query_opt_cached("SELECT started_ms FROM run_marks WHERE feed = $1", &[&feed])
                .await?;
            let Some(row) = row else { return Ok(None) };
            let t: i64 = row.try_get(0)?;
            Ok(Some(
                DateTime::from_timestamp_millis(t).unwrap_or_else(Utc::now),
            ))
        })
    }

    fn shared(&self) -> bool {
        true
    }

    fn acquire_lease(
        &self,
        feed: &str,
        holder: &str,
        ttl: StdDuration,
    ) -> Result<bool, StateError> {
        let (feed, holder, ttl) = (feed.to_string(), holder.to_string(), millis(ttl));
        self.run("take a lease", move |c| async move {
            let row = c
                .query_opt_cached(
                    &format!(
                        "INSERT INTO leases (feed, holder, acquired_ms, expires_ms)
                         VALUES ($1, $2, {NOW_MS}, {NOW_MS} + $3)
                         ON CONFLICT (feed) DO UPDATE SET holder = excluded.holder,
                           acquired_ms = excluded.acquired_ms, expires_ms = excluded.expires_ms
                         WHERE leases.expires_ms <= excluded.acquired_ms
                           OR leases.holder = excluded.holder
                         RETURNING holder"
                    ),
                    &[&feed, &holder, &ttl],
                )
                .await?;
            Ok(row.is_some())
        })
    }

    fn renew_lease(&self, feed: &str, holder: &str, ttl: StdDuration) -> Result<bool, StateError> {
        let (feed, holder, ttl) = (feed.to_string(), holder.to_string(), millis(ttl));
        self.run("renew a lease", move |c| async move {
            let n = c
                .execute_cached(
                    &format!(
                        "UPDATE leases SET expires_ms = {NOW_MS} + $3
                         WHERE feed = $1 AND holder = $2 AND expires_ms > {NOW_MS}"
                    ),
                    &[&feed, &holder, &ttl],
                )
                .await?;
            Ok(n == 1)
        })
    }

    fn release_lease(&self, feed: &str, holder: &str) -> Result<(), StateError> {
        let (feed, holder) = (feed.to_string(), holder.to_string());
        self.run("give a lease up", move |c| async move {
            c.execute_cached(
                "DELETE FROM leases WHERE feed = $1 AND holder = $2",
                &[&feed, &holder],
            )
            .await?;
            Ok(())
        })
    }

    fn leases(&self) -> Result<Vec<super::Lease>, StateError> {
        self.run("read the leases", move |c| async move {
            let rows = c
                .query_cached(
                    &format!(
                        "SELECT feed, holder, expires_ms FROM leases WHERE expires_ms > {NOW_MS}
                         ORDER BY feed"
                    ),
                    &[],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(super::Lease {
                        feed: r.try_get(0)?,
                        holder: r.try_get(1)?,
                        expires: time_of(r.try_get(2)?),
                    })
                })
                .collect()
        })
    }

    fn heartbeat(&self, me: &super::Instance) -> Result<(), StateError> {
        let me = me.clone();
        let forget = millis(FORGET_INSTANCES_AFTER);
        self.run("record a heartbeat", move |c| async move {
            c.execute_cached(
                &format!(
                    "INSERT INTO instances (id, host, pid, started_ms, heartbeat_ms, config_hash)
                     VALUES ($1, $2, $3, $4, {NOW_MS}, $5)
                     ON CONFLICT (id) DO UPDATE SET heartbeat_ms = excluded.heartbeat_ms,
                       config_hash = excluded.config_hash"
                ),
                &[
                    &me.id,
                    &me.host,
                    &i64::from(me.pid),
                    &ms(me.started),
                    &me.config_hash,
                ],
            )
            .await?;
            c.execute_cached(
                &format!("DELETE FROM instances WHERE heartbeat_ms < {NOW_MS} - $1"),
                &[&forget],
            )
            .await?;
            Ok(())
        })
    }

    fn instances(&self, within: StdDuration) -> Result<Vec<super::Instance>, StateError> {
        let within = millis(within);
        self.run("read the instances", move |c| async move {
            let rows = c
                .query_cached(
                    &format!(
                        "SELECT id, host, pid, started_ms, heartbeat_ms, config_hash FROM instances
                         WHERE heartbeat_ms >= {NOW_MS} - $1 ORDER BY started_ms, id"
                    ),
                    &[&within],
                )
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(super::Instance {
                        id: r.try_get(0)?,
                        host: r.try_get(1)?,
                        pid: u32::try_from(r.try_get::<_, i64>(2)?).unwrap_or(0),
                        started: time_of(r.try_get(3)?),
                        heartbeat: time_of(r.try_get(4)?),
                        config_hash: r.try_get(5)?,
                    })
                })
                .collect()
        })
    }

    fn store_documents(&self, docs: &[Document]) -> Result<(), StateError> {
        let docs = docs.to_vec();
        self.run("store published documents", move |mut client| async move {
            let tx = client.transaction().await?;
            for d in &docs {
                tx.execute_cached(
                    "INSERT INTO documents (name, feed, body, etag, modified_ms)
                     VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (name) DO UPDATE SET feed = excluded.feed,
                       body = excluded.body, etag = excluded.etag,
                       modified_ms = excluded.modified_ms
                     WHERE documents.etag <> excluded.etag",
                    &[
                        &d.name,
                        &d.feed.as_deref().unwrap_or(""),
                        &d.body,
                        &d.etag,
                        &ms(d.modified),
                    ],
                )
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    fn document(&self, name: &str, known_etag: Option<&str>) -> Result<DocumentLookup, StateError> {
        let (name, known) = (name.to_string(), known_etag.unwrap_or("").to_string());
        self.run("read a published document", move |c| async move {
            // The bytes only when the caller does not hold them already.
            let row = c
                .query_opt_cached(
                    "SELECT feed, etag, modified_ms, CASE WHEN etag = $2 THEN NULL ELSE body END
                     FROM documents WHERE name = $1",
                    &[&name, &known],
                )
                .await?;
            let Some(row) = row else {
                return Ok(DocumentLookup::Missing);
            };
            let Some(body) = row.try_get::<_, Option<Vec<u8>>>(3)? else {
                return Ok(DocumentLookup::Unchanged);
            };
            let feed: String = row.try_get(0)?;
            Ok(DocumentLookup::Found(Document {
                name,
                feed: (!feed.is_empty()).then_some(feed),
                body,
                etag: row.try_get(1)?,
                modified: time_of(row.try_get(2)?),
            }))
        })
    }

    fn document_tags(&self) -> Result<Vec<(String, String)>, StateError> {
        self.run("read the document tags", move |c| async move {
            let rows = c
                .query_cached("SELECT name, etag FROM documents", &[])
                .await?;
            Ok(rows
                .iter()
                .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                .collect::<Result<_, tokio_postgres::Error>>()?)
        })
    }

    fn ping(&self) -> Result<(), StateError> {
        self.run("reach the database", move |c| async move {
            c.simple_query("SELECT 1").await?;
            Ok(())
        })
    }

    fn take_host_slot(
        &self,
        host: &str,
        holder: &str,
        slots: u32,
        hold: StdDuration,
    ) -> Result<Option<u32>, StateError> {
        hosts::take_slot(self, host, holder, slots, hold)
    }

    fn release_host_slot(&self, host: &str, holder: &str, slot: u32) -> Result<(), StateError> {
        hosts::release_slot(self, host, holder, slot)
    }

    fn take_host_turn(
        &self,
        host: &str,
        spacing: StdDuration,
    ) -> Result<Option<StdDuration>, StateError> {
        hosts::take_turn(self, host, spacing)
    }

    fn defer_host(&self, host: &str, for_: StdDuration) -> Result<(), StateError> {
        hosts::defer(self, host, for_)
    }

    fn sweep_hosts(&self, idle: StdDuration) -> Result<usize, StateError> {
        hosts::sweep(self, idle)
    }

    fn leave(&self, id: &str) -> Result<(), StateError> {
        let id = id.to_string();
        self.run("unregister the instance", move |mut client| async move {
            let tx = client.transaction().await?;
            tx.execute_cached("DELETE FROM leases WHERE holder = $1", &[&id])
                .await?;
            tx.execute_cached("DELETE FROM instances WHERE id = $1", &[&id])
                .await?;
            tx.commit().await?;
            Ok(())
        })
    }
}

/// A duration in milliseconds for SQL (saturating).
fn millis(d: StdDuration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// A stored time; an impossible one reads as the epoch.
fn time_of(t: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(t).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_label_and_errors_never_show_the_password() {
        let url = PgUrl::parse("postgres://feeds:s3cr%40t-pw@db.example:5433/feedmine").unwrap();
        assert_eq!(url.label(), "postgres://feeds@db.example:5433/feedmine");
        assert!(!format!("{url:?}").contains("s3cr"));
        assert_eq!(
            url.redact("auth failed for s3cr@t-pw and s3cr%40t-pw"),
            "auth failed for *** and ***"
        );
        assert!(PgUrl::is_postgres("postgresql://x/y"));
        assert!(!PgUrl::is_postgres("state/feedmine.db"));
        let bad = PgUrl::parse("postgres://u:hunter2@h:notaport/db").unwrap_err();
        assert!(!bad.to_string().contains("hunter2"), "{bad}");
    }
}
