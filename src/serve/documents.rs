//! The server's source of published documents on a shared state
//! (PostgreSQL): the `documents` the instance that ran a feed stored (see
//! `state::documents`), so every instance answers with the same bytes,
//! `ETag` and `Last-Modified`.
//!
//! Each document's last good copy stays in memory: when the database
//! cannot be reached the server keeps serving it. A lookup asks the
//! database for the bytes only when its tag changed. [`SharedDocuments::warm`]
//! (run periodically) fetches every changed document of the feeds on the
//! board, so an instance holds a copy of every feed, even of those nobody
//! asked it for yet, before the database goes away.
//!
//! Invariants:
//! - A lookup never takes longer than [`DB_WAIT`]; after a failure, the
//!   database is asked again at most once per [`RETRY_AFTER`] (meanwhile
//!   the cached copies answer), so a lost database never stalls requests.
//! - The cache holds only names the server asked for, which are built
//!   from the board's validated ids (bounded by feeds × formats).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use crate::state::Store;
use crate::state::documents::{Document, DocumentLookup};

/// Longest wait for the database on one lookup.
pub const DB_WAIT: Duration = Duration::from_secs(2);
/// After a failed lookup, how long the cached copies answer alone.
pub const RETRY_AFTER: Duration = Duration::from_secs(2);

/// A document as the server holds it: the bytes are shared by every
/// response that sends them (no copy per request).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedDocument {
    pub name: String,
    pub body: axum::body::Bytes,
    /// Quoted hex SHA-256 of `body`.
    pub etag: String,
    /// When these bytes were first published.
    pub modified: DateTime<Utc>,
}

impl From<Document> for CachedDocument {
    fn from(d: Document) -> CachedDocument {
        CachedDocument {
            name: d.name,
            body: d.body.into(),
            etag: d.etag,
            modified: d.modified,
        }
    }
}

/// What a lookup gives the server.
#[derive(Debug, Clone)]
pub enum Served {
    /// The document (fresh from the database, or the cached copy while the
    /// database is unreachable).
    Found(Arc<CachedDocument>),
    /// The database has no such document.
    Missing,
    /// The database is unreachable and nothing is cached.
    Unavailable,
}

/// Documents from the shared state, with the last good copy of each.
pub struct SharedDocuments {
    store: Arc<Store>,
    cache: Mutex<HashMap<String, Arc<CachedDocument>>>,
    failed_at: Mutex<Option<Instant>>,
}

impl SharedDocuments {
    pub fn new(store: Arc<Store>) -> SharedDocuments {
        SharedDocuments {
            store,
            cache: Mutex::default(),
            failed_at: Mutex::default(),
        }
    }

    fn cached(&self, name: &str) -> Option<Arc<CachedDocument>> {
        let cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache.get(name).cloned()
    }

    fn keep(&self, doc: Document) -> Arc<CachedDocument> {
        let doc = Arc::new(CachedDocument::from(doc));
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache.insert(doc.name.clone(), Arc::clone(&doc));
        doc
    }

    fn forget(&self, name: &str) {
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        cache.remove(name);
    }

    /// Whether a recent failure says: do not ask the database yet.
    fn holding_off(&self) -> bool {
        let failed = self.failed_at.lock().unwrap_or_else(|p| p.into_inner());
        failed.is_some_and(|t| t.elapsed() < RETRY_AFTER)
    }

    fn set_failed(&self, failed: bool) {
        let mut at = self.failed_at.lock().unwrap_or_else(|p| p.into_inner());
        *at = failed.then(Instant::now);
    }

    /// The document `name` as the database has it now, else (database
    /// unreachable) the last good copy.
    pub async fn get(&self, name: &str) -> Served {
        let cached = self.cached(name);
        if self.holding_off() {
            return cached.map_or(Served::Unavailable, Served::Found);
        }
        let store = Arc::clone(&self.store);
        let (owned, known) = (name.to_string(), cached.as_ref().map(|d| d.etag.clone()));
        let lookup = tokio::time::timeout(
            DB_WAIT,
            tokio::task::spawn_blocking(move || store.document(&owned, known.as_deref())),
        )
        .await;
        let outcome = match lookup {
            Ok(Ok(Ok(found))) => found,
            Ok(Ok(Err(e))) => {
                tracing::debug!("serving the cached {name}: {e}");
                return self.unreachable(cached);
            }
            Ok(Err(_)) | Err(_) => return self.unreachable(cached),
        };
        self.set_failed(false);
        match (outcome, cached) {
            (DocumentLookup::Found(doc), _) => Served::Found(self.keep(doc)),
            (DocumentLookup::Unchanged, Some(doc)) => Served::Found(doc),
            (DocumentLookup::Unchanged | DocumentLookup::Missing, _) => {
                self.forget(name);
                Served::Missing
            }
        }
    }

    /// Fetch every stored document in `wanted` whose tag differs from the
    /// cached copy's (one query for the tags, one per changed document).
    /// Returns how many were fetched; a database error ends the pass.
    pub async fn warm(&self, wanted: &HashSet<String>) -> usize {
        let store = Arc::clone(&self.store);
        let tags = tokio::time::timeout(
            DB_WAIT,
            tokio::task::spawn_blocking(move || store.document_tags()),
        )
        .await;
        let Ok(Ok(Ok(tags))) = tags else {
            return 0;
        };
        let mut fetched = 0;
        for (name, etag) in tags {
            let stale = self.cached(&name).is_none_or(|d| d.etag != etag);
            if !wanted.contains(&name) || !stale {
                continue;
            }
            match self.get(&name).await {
                Served::Found(_) => fetched += 1,
                Served::Missing => {}
                Served::Unavailable => break,
            }
        }
        fetched
    }

    fn unreachable(&self, cached: Option<Arc<CachedDocument>>) -> Served {
        self.set_failed(true);
        cached.map_or(Served::Unavailable, Served::Found)
    }
}
