//! Runs that started and never finished. A run marks its feed before any
//! work and [`Store::record_run`] clears the mark in the same transaction
//! that records the outcome, so a mark left at start-up means the process
//! died mid-run (out of memory, kill -9, power loss): without it, the run
//! that took the daemon down would go unrecorded and run first again at
//! every restart, a crash loop.
//!
//! Invariant: at most one mark per feed (the newest start).

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::{RunRow, StateError, Store, ms};

/// The cause recorded for a run that left its mark behind.
pub const UNFINISHED_CAUSE: &str = "the previous run did not finish (the process was killed: \
     out of memory, kill -9 or power loss); the page may exceed what the machine allows";

impl Store {
    /// Note that a run of `feed` starts now.
    pub fn mark_run_started(&self, feed: &str, started: DateTime<Utc>) -> Result<(), StateError> {
        self.lock()
            .execute(
                "INSERT INTO run_marks (feed, started_ms) VALUES (?1, ?2)
                 ON CONFLICT (feed) DO UPDATE SET started_ms = excluded.started_ms",
                params![feed, ms(started)],
            )
            .map(drop)
            .map_err(self.sql("mark a run as started"))
    }

    /// Record every marked run as failed with [`UNFINISHED_CAUSE`] (at the
    /// time it started) and clear the marks; returns the feeds concerned.
    /// Call once at start-up, before any run.
    pub fn settle_unfinished_runs(&self) -> Result<Vec<(String, DateTime<Utc>)>, StateError> {
        let marks: Vec<(String, i64)> = {
            let conn = self.lock();
            let mut st = conn
                .prepare("SELECT feed, started_ms FROM run_marks ORDER BY started_ms")
                .map_err(self.sql("read unfinished runs"))?;
            st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .and_then(|rows| rows.collect())
                .map_err(self.sql("read unfinished runs"))?
        };
        let mut out = Vec::with_capacity(marks.len());
        for (feed, started_ms) in marks {
            let started = DateTime::from_timestamp_millis(started_ms).unwrap_or_else(Utc::now);
            let row = RunRow {
                started,
                duration_ms: 0,
                status: "failed".into(),
                records: 0,
                new_items: 0,
                pattern: None,
                error: Some(UNFINISHED_CAUSE.into()),
            };
            // record_run clears the mark in the same transaction.
            self.record_run(&feed, &row)?;
            out.push((feed, started));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_that_never_finished_is_recorded_as_failed_once() {
        let store = Store::open_in_memory().unwrap();
        let t0 = DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        store.mark_run_started("news", t0).unwrap();
        store.mark_run_started("blog", t0).unwrap();
        // blog's run finished: its mark goes with the recorded run.
        let done = RunRow {
            started: t0,
            duration_ms: 10,
            status: "published".into(),
            records: 3,
            new_items: 3,
            pattern: None,
            error: None,
        };
        store.record_run("blog", &done).unwrap();
        let settled = store.settle_unfinished_runs().unwrap();
        assert_eq!(settled, vec![("news".to_string(), t0)]);
        let runs = store.recent_runs("news", 5).unwrap();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].status, "failed");
        assert_eq!(runs[0].started, t0);
        assert!(runs[0].error.as_deref().unwrap().contains("did not finish"));
        assert!(
            store.settle_unfinished_runs().unwrap().is_empty(),
            "settled once"
        );
        assert_eq!(store.recent_runs("blog", 5).unwrap()[0].status, "published");
    }
}
