//! Runs that started and never finished. A run marks its feed before any
//! work and [`Store::record_run`] clears the mark in the same transaction
//! that records the outcome, so a mark left at start-up means the process
//! died mid-run (out of memory, kill -9, power loss): without it, the run
//! that took the daemon down would go unrecorded and run first again at
//! every restart, a crash loop.
//!
//! Invariant: at most one mark per feed (the newest start).

use chrono::{DateTime, Utc};

use super::{RunRow, StateError, Store};

/// The cause recorded for a run that left its mark behind.
pub const UNFINISHED_CAUSE: &str = "the previous run did not finish (the process was killed: \
     out of memory, kill -9 or power loss); the page may exceed what the machine allows";

impl Store {
    /// Note that a run of `feed` starts now.
    pub fn mark_run_started(&self, feed: &str, started: DateTime<Utc>) -> Result<(), StateError> {
        self.backend().mark_run_started(feed, started)
    }

    /// Record `feed`'s run mark, if one is left, as a failed run (see
    /// [`Store::settle_unfinished_runs`]); returns when that run started.
    /// In a shared state call it holding the feed's lease: then nobody is
    /// running the feed, and a mark is a dead instance's.
    pub fn settle_unfinished_run(&self, feed: &str) -> Result<Option<DateTime<Utc>>, StateError> {
        let Some(started) = self.backend().run_mark(feed)? else {
            return Ok(None);
        };
        self.record_run(feed, &unfinished_row(started))?;
        Ok(Some(started))
    }

    /// Record every marked run as failed with [`UNFINISHED_CAUSE`] (at the
    /// time it started) and clear the marks; returns the feeds concerned.
    /// Call once at start-up, before any run.
    pub fn settle_unfinished_runs(&self) -> Result<Vec<(String, DateTime<Utc>)>, StateError> {
        let marks = self.backend().run_marks()?;
        for (feed, started) in &marks {
            // record_run clears the mark in the same transaction.
            self.record_run(feed, &unfinished_row(*started))?;
        }
        Ok(marks)
    }
}

/// The failed run recorded for a mark left by a run that started then.
fn unfinished_row(started: DateTime<Utc>) -> RunRow {
    RunRow {
        started,
        duration_ms: 0,
        status: "failed".into(),
        records: 0,
        new_items: 0,
        pattern: None,
        error: Some(UNFINISHED_CAUSE.into()),
    }
}
