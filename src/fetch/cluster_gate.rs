//! Per-host politeness across instances: when several `feedmine run`
//! instances share one PostgreSQL state, `host_concurrency`, `host_delay`
//! (with robots.txt crawl delays) and Retry-After deferrals hold for all of
//! them together, not only within each.
//!
//! This is the second layer of [`super::politeness::Politeness`]: a request
//! first passes the in-process gate (cheap, no database), then, holding
//! its local host slot and turn, takes a *cluster slot* and the host's
//! *cluster turn* from the database (`state/postgres/hosts.rs`):
//! - a cluster slot is one of the host's `host_concurrency` numbered slots,
//!   held until the request's permit is dropped (released at once, best
//!   effort) and in any case only until the longest the request can take
//!   (its total timeout) plus [`HOLD_MARGIN`], so a dead instance's slots
//!   expire by themselves, like its leases;
//! - a cluster turn is granted when the host's last start (by any instance)
//!   is at least the spacing ago (this instance's and that starter's,
//!   whichever is longer) and no deferral runs; a refusal says how long to
//!   wait, which the request sleeps before asking again (holding no global
//!   slot while it waits).
//!
//! Only a shared state gets a gate ([`ClusterGate::new`] is `None` on
//! SQLite): a single instance behaves exactly as before.
//!
//! # When the database fails
//! Politeness must never stop fetching: every call is bounded by the
//! store's gate timeout (2 s). On an error the gate says so once (a
//! warning naming the error, never the password), lets that request go on
//! under the local limits only, and does not ask the database again for
//! [`DOWN_FOR`]; the first answer after that says so too. During an outage
//! each instance keeps its own limits, so a host may get up to
//! `instances × host_concurrency` requests at once.
//!
//! Invariants: the database's clock decides every turn and expiry; a slot
//! or turn is never granted twice (one conditional upsert each); waiting
//! for a slot polls with a bounded, jittered backoff
//! ([`SLOT_POLL_MIN`]..[`SLOT_POLL_MAX`]).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;

use crate::state::{StateError, Store};

/// How long the gate leaves the database alone after an error.
pub const DOWN_FOR: Duration = Duration::from_secs(10);
/// Added to a slot's hold: room for the clock of this process and the
/// database's to disagree on when the request started.
pub const HOLD_MARGIN: Duration = Duration::from_secs(2);
/// First wait before asking for a slot again.
pub const SLOT_POLL_MIN: Duration = Duration::from_millis(20);
/// Longest wait between two asks for a slot.
pub const SLOT_POLL_MAX: Duration = Duration::from_millis(500);
/// Longest single sleep for a turn before asking again.
const TURN_WAIT_MAX: Duration = Duration::from_secs(60);
/// How often expired slots and idle host rows are swept.
const SWEEP_EVERY: Duration = Duration::from_secs(600);
/// Host rows unused for this long are swept.
const HOST_IDLE: Duration = Duration::from_secs(3600);

/// Whether the database answered lately.
#[derive(Debug)]
struct Health {
    /// Calls are skipped until then (after an error).
    down_until: Option<Instant>,
    /// An outage was reported and its end not yet.
    outage_told: bool,
    last_sweep: Instant,
}

/// The cluster layer of one instance. See the module header.
#[derive(Debug)]
pub struct ClusterGate {
    store: Arc<Store>,
    /// Who holds this instance's slots (unique per process start).
    holder: String,
    health: Mutex<Health>,
}

/// One cluster slot of a host; given up when dropped.
#[derive(Debug)]
pub struct ClusterSlot {
    gate: Arc<ClusterGate>,
    host: String,
    slot: u32,
}

impl Drop for ClusterSlot {
    fn drop(&mut self) {
        let (gate, host, slot) = (self.gate.clone(), std::mem::take(&mut self.host), self.slot);
        let release = move || {
            if let Err(e) = gate.store.release_host_slot(&host, &gate.holder, slot) {
                // Expiry frees it anyway.
                tracing::debug!(host = %host, "cannot give a host slot up: {e}");
            }
        };
        match tokio::runtime::Handle::try_current() {
            Ok(h) => drop(h.spawn_blocking(release)),
            Err(_) => release(),
        }
    }
}

/// What the database says about a host's next start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// Start now (also: the database could not be asked; local limits only).
    Go,
    /// Ask again after this long.
    Wait(Duration),
}

impl ClusterGate {
    /// The gate of a shared state; `None` for a state one process uses.
    pub fn new(store: Arc<Store>) -> Option<Arc<ClusterGate>> {
        if !store.is_shared() {
            return None;
        }
        let holder = format!("{}-{:08x}", std::process::id(), fastrand::u32(..));
        Some(Arc::new(ClusterGate {
            store,
            holder,
            health: Mutex::new(Health {
                down_until: None,
                outage_told: false,
                last_sweep: Instant::now(),
            }),
        }))
    }

    /// Who holds this instance's slots.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// Wait for one of `host`'s `slots` cluster slots, held at most `hold`
    /// (+ [`HOLD_MARGIN`]). `None`: the database failed, go on under the
    /// local limits.
    pub async fn take_slot(
        self: &Arc<Self>,
        host: &str,
        slots: usize,
        hold: Duration,
    ) -> Option<ClusterSlot> {
        let slots = u32::try_from(slots).unwrap_or(u32::MAX);
        let hold = hold.saturating_add(HOLD_MARGIN);
        let mut poll = SLOT_POLL_MIN;
        loop {
            let (gate, key) = (self.clone(), host.to_string());
            let taken = self
                .call(move |store| store.take_host_slot(&key, &gate.holder, slots, hold))
                .await?;
            if let Some(slot) = taken {
                return Some(ClusterSlot {
                    gate: self.clone(),
                    host: host.to_string(),
                    slot,
                });
            }
            // Full jitter in [poll/2, poll]: instances polling one host
            // do not ask in lockstep.
            let half = poll / 2;
            let jitter = fastrand::u64(..=u64::try_from(half.as_millis()).unwrap_or(0));
            tokio::time::sleep(half + Duration::from_millis(jitter)).await;
            poll = (poll * 2).min(SLOT_POLL_MAX);
        }
    }

    /// Ask for `host`'s turn with this instance's `spacing`.
    pub async fn take_turn(self: &Arc<Self>, host: &str, spacing: Duration) -> Turn {
        self.maybe_sweep();
        let key = host.to_string();
        match self
            .call(move |store| store.take_host_turn(&key, spacing))
            .await
        {
            Some(Some(wait)) => Turn::Wait(wait.min(TURN_WAIT_MAX)),
            Some(None) | None => Turn::Go,
        }
    }

    /// Tell every instance: no request to `host` before `for_` from now.
    /// Best effort, in the background.
    pub fn defer(self: &Arc<Self>, host: &str, for_: Duration) {
        let (gate, host) = (self.clone(), host.to_string());
        let task = async move {
            gate.call(move |store| store.defer_host(&host, for_)).await;
        };
        if let Ok(h) = tokio::runtime::Handle::try_current() {
            h.spawn(task);
        }
    }

    /// Run one store call on the blocking pool, unless the database failed
    /// less than [`DOWN_FOR`] ago. `None`: no answer (local limits only).
    async fn call<T, F>(&self, f: F) -> Option<T>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> Result<T, StateError> + Send + 'static,
    {
        if !self.available() {
            return None;
        }
        let store = self.store.clone();
        match tokio::task::spawn_blocking(move || f(&store)).await {
            Ok(Ok(v)) => {
                self.answered();
                Some(v)
            }
            Ok(Err(e)) => {
                self.failed(&e);
                None
            }
            Err(_) => None,
        }
    }

    fn health(&self) -> std::sync::MutexGuard<'_, Health> {
        self.health.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn available(&self) -> bool {
        self.health()
            .down_until
            .is_none_or(|until| Instant::now() >= until)
    }

    fn failed(&self, e: &StateError) {
        let mut health = self.health();
        health.down_until = Some(Instant::now() + DOWN_FOR);
        if !health.outage_told {
            health.outage_told = true;
            tracing::warn!(
                "per-host politeness across instances is off: {}; each instance keeps its own \
                 host limits until the database answers again",
                crate::refresh::anyhow_like(e)
            );
        }
    }

    fn answered(&self) {
        let mut health = self.health();
        health.down_until = None;
        if health.outage_told {
            health.outage_told = false;
            tracing::info!("per-host politeness across instances is back");
        }
    }

    /// Sweep old rows in the background every [`SWEEP_EVERY`].
    fn maybe_sweep(self: &Arc<Self>) {
        {
            let mut health = self.health();
            if health.last_sweep.elapsed() < SWEEP_EVERY {
                return;
            }
            health.last_sweep = Instant::now();
        }
        let gate = self.clone();
        if let Ok(h) = tokio::runtime::Handle::try_current() {
            h.spawn(async move {
                gate.call(|store| store.sweep_hosts(HOST_IDLE)).await;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unshared_state_gets_no_gate() {
        let store = Arc::new(Store::open_in_memory().unwrap());
        assert!(ClusterGate::new(store).is_none());
    }
}
