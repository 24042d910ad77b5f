//! The daemon's live view of every feed: last run, item count, health.
//!
//! The scheduler (`daemon`) writes it after each run; the HTTP server
//! (`server`) reads it for `/`, `/health` and the index page. It is plain
//! data behind one `RwLock`; nobody holds the lock across an `.await`.
//!
//! Invariants: a feed's entry exists from the moment the daemon loads it
//! (as [`Health::Pending`]) until a config reload drops the feed; `health`
//! only changes after a run finishes (or a reload), never mid-run.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

use chrono::{DateTime, Utc};

use crate::publish::feed::Format;

/// How a feed is doing, as shown on `/health` and the index page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Health {
    /// Loaded, not run yet.
    Pending,
    /// The last run published (or found the page unchanged).
    Ok,
    /// The last run worked, but extraction drifted: the previous items stay
    /// published. Each reason is one human-readable sentence.
    Degraded { reasons: Vec<String> },
    /// The last run failed; `error` is the cause (`{err:#}`) and the feed
    /// has failed `consecutive_failures` times in a row.
    Failing {
        error: String,
        consecutive_failures: u32,
    },
}

impl Health {
    /// Short word for the index page and `/health`: ok, pending, degraded,
    /// failing.
    pub fn word(&self) -> &'static str {
        match self {
            Health::Pending => "pending",
            Health::Ok => "ok",
            Health::Degraded { .. } => "degraded",
            Health::Failing { .. } => "failing",
        }
    }
}

/// What one finished run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunOutcome {
    /// New feed files were published.
    Published,
    /// The list page answered 304 Not Modified: nothing re-parsed or written.
    NotModified,
    /// Records were found but drift was detected: old items kept.
    Degraded,
    /// The run failed; the previous files stay published.
    Failed,
}

/// The last run of a feed, as shown on the index page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastRun {
    pub started: DateTime<Utc>,
    pub duration_ms: u64,
    pub outcome: RunOutcome,
    /// Records found on the list page (0 for 304 and failures).
    pub records: usize,
    /// Items that were new in this run.
    pub new_items: usize,
}

/// One feed's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedStatus {
    pub id: String,
    pub title: String,
    /// The list page URL.
    pub source: String,
    /// Formats published, in config order (each is `/feeds/<id>.<ext>`).
    pub formats: Vec<Format>,
    pub health: Health,
    pub last_run: Option<LastRun>,
    /// When a run last succeeded (published or found the page unchanged).
    pub last_success: Option<DateTime<Utc>>,
    /// Items in the published feed.
    pub items: usize,
    /// When the scheduler will run this feed next.
    pub next_run: Option<DateTime<Utc>>,
}

/// Shared, cheaply cloneable board of every feed's status, by feed id.
#[derive(Debug, Clone, Default)]
pub struct StatusBoard {
    inner: Arc<RwLock<BTreeMap<String, FeedStatus>>>,
}

impl StatusBoard {
    pub fn new() -> Self {
        Self::default()
    }

    /// A copy of every entry, ordered by feed id.
    pub fn snapshot(&self) -> Vec<FeedStatus> {
        match self.inner.read() {
            Ok(map) => map.values().cloned().collect(),
            Err(poisoned) => poisoned.get_ref().values().cloned().collect(),
        }
    }

    /// A copy of one entry.
    pub fn get(&self, id: &str) -> Option<FeedStatus> {
        match self.inner.read() {
            Ok(map) => map.get(id).cloned(),
            Err(poisoned) => poisoned.get_ref().get(id).cloned(),
        }
    }

    /// Insert or replace one entry.
    pub fn put(&self, status: FeedStatus) {
        let mut map = match self.inner.write() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        map.insert(status.id.clone(), status);
    }

    /// Change one entry in place (no-op when the feed is unknown).
    pub fn update(&self, id: &str, f: impl FnOnce(&mut FeedStatus)) {
        let mut map = match self.inner.write() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(s) = map.get_mut(id) {
            f(s);
        }
    }

    /// Keep only the feeds whose ids are in `ids` (after a config reload).
    pub fn retain(&self, ids: &[String]) {
        let mut map = match self.inner.write() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        map.retain(|k, _| ids.iter().any(|i| i == k));
    }

    /// Overall health: `Ok` when no feed is degraded or failing, else the
    /// list of `(feed id, reason)` pairs that are not ok.
    pub fn overall(&self) -> Result<(), Vec<(String, String)>> {
        let problems: Vec<(String, String)> = self
            .snapshot()
            .into_iter()
            .filter_map(|s| match s.health {
                Health::Degraded { reasons } => Some((s.id, reasons.join("; "))),
                Health::Failing {
                    error,
                    consecutive_failures,
                } => Some((
                    s.id,
                    format!("failed {consecutive_failures} time(s) in a row: {error}"),
                )),
                Health::Ok | Health::Pending => None,
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(id: &str, health: Health) -> FeedStatus {
        FeedStatus {
            id: id.into(),
            title: id.into(),
            source: "https://example.com/".into(),
            formats: vec![Format::Rss],
            health,
            last_run: None,
            last_success: None,
            items: 0,
            next_run: None,
        }
    }

    #[test]
    fn overall_lists_only_feeds_that_are_not_ok() {
        let board = StatusBoard::new();
        board.put(status("a", Health::Ok));
        board.put(status("b", Health::Pending));
        assert_eq!(board.overall(), Ok(()));
        board.put(status(
            "c",
            Health::Degraded {
                reasons: vec!["found 0 records, had 12".into()],
            },
        ));
        board.put(status(
            "d",
            Health::Failing {
                error: "HTTP 500".into(),
                consecutive_failures: 3,
            },
        ));
        let problems = board.overall().unwrap_err();
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].0, "c");
        assert!(problems[1].1.contains("3 time(s)"));
        board.retain(&["a".into(), "d".into()]);
        assert_eq!(board.snapshot().len(), 2);
        board.update("d", |s| s.health = Health::Ok);
        assert_eq!(board.overall(), Ok(()));
    }
}
