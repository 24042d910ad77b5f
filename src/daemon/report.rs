//! What `feedmine status` prints: every feed of the config with its last
//! run, that run's outcome, when it is next due and which instance holds
//! its lease now, plus the instances alive on a shared state. Read from
//! the state only (no daemon needs to run; several may).
//!
//! Invariants: read-only; the next due time is computed as a worker
//! would, without the random jitter.

use std::io::Write;

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;

use super::{memory_of, next_due};
use crate::config::Config;
use crate::fetch::politeness::Backoff;
use crate::state::{Instance, StateError, Store};

/// One feed's line.
#[derive(Debug, Clone, Serialize)]
pub struct FeedState {
    pub id: String,
    /// Start of the last run (RFC 3339, UTC).
    pub last_run: Option<String>,
    /// `published`, `not_modified`, `degraded` or `failed`.
    pub outcome: Option<String>,
    pub error: Option<String>,
    /// When a worker will run it next (RFC 3339, UTC; jitter left out).
    pub next_due: String,
    /// The instance holding the feed's lease (running it) now.
    pub held_by: Option<String>,
    /// Items stored.
    pub items: usize,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Status {
    /// The state, as messages name it (never with a password).
    pub state: String,
    pub feeds: Vec<FeedState>,
    /// Instances alive (shared states only): `id on host (pid N)`.
    pub instances: Vec<String>,
}

fn stamp(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn describe(i: &Instance) -> String {
    format!(
        "{} on {} (pid {}, since {})",
        i.id,
        i.host,
        i.pid,
        stamp(i.started)
    )
}

/// Read the status of every feed of `config` from `store` at `now`.
pub fn status(config: &Config, store: &Store, now: DateTime<Utc>) -> Result<Status, StateError> {
    let backoff = Backoff {
        base: config.limits.backoff_base,
        max: config.limits.backoff_max,
    };
    let leases = store.leases()?;
    let mut feeds = Vec::with_capacity(config.feeds.len());
    for feed in &config.feeds {
        let history = store.recent_runs(&feed.id, 50)?;
        let mut unjittered = feed.clone();
        unjittered.jitter = std::time::Duration::ZERO;
        let due = next_due(
            &unjittered,
            &memory_of(&history),
            &backoff,
            &mut fastrand::Rng::with_seed(0),
            now,
        );
        let last = history.first();
        feeds.push(FeedState {
            id: feed.id.clone(),
            last_run: last.map(|r| stamp(r.started)),
            outcome: last.map(|r| r.status.clone()),
            error: last.and_then(|r| r.error.clone()),
            next_due: stamp(due),
            held_by: leases
                .iter()
                .find(|l| l.feed == feed.id)
                .map(|l| l.holder.clone()),
            items: store.item_count(&feed.id)?,
        });
    }
    let alive = store.instances(config.limits.lease_time * 2)?;
    Ok(Status {
        state: store.label().to_string(),
        feeds,
        instances: alive.iter().map(describe).collect(),
    })
}

/// The report as a table, one feed per line.
pub fn write_table(s: &Status, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "state: {}", s.state)?;
    for i in &s.instances {
        writeln!(out, "instance: {i}")?;
    }
    writeln!(
        out,
        "{:<24} {:<21} {:<13} {:<21} {:>6}  held by",
        "feed", "last run", "outcome", "next due", "items"
    )?;
    for f in &s.feeds {
        writeln!(
            out,
            "{:<24} {:<21} {:<13} {:<21} {:>6}  {}",
            f.id,
            f.last_run.as_deref().unwrap_or("never"),
            f.outcome.as_deref().unwrap_or("-"),
            f.next_due,
            f.items,
            f.held_by.as_deref().unwrap_or("-")
        )?;
        if let Some(e) = &f.error {
            writeln!(out, "{:<24} error: {e}", "")?;
        }
    }
    Ok(())
}
