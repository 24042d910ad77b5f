//! Per-host politeness rows shared by every instance of one PostgreSQL
//! state (the database half of `fetch::cluster_gate`).
//!
//! - `host_turns`: per host, the last request start (`last_ms`), the time
//!   its starter asked the next one to wait for (`next_ms` = start + its
//!   spacing) and any Retry-After deferral (`deferred_ms`). A turn is taken
//!   by one conditional upsert, so two instances can never both start
//!   within one spacing: the row lock orders them and the loser's `WHERE`
//!   sees the winner's start.
//! - `host_slots`: per host, numbered concurrency slots `0..n` held by a
//!   holder until `expires_ms` (like leases). A slot is taken by one
//!   conditional upsert over the first slot free in the statement's
//!   snapshot; a concurrent taker of the same number waits for the row and
//!   then fails its `WHERE`, so a slot is never granted twice (it may be
//!   refused while another is free; the caller asks again).
//!
//! Invariants: every time is the database's clock (`NOW_MS`); every call
//! is one statement (or two reads-after-write in the turn case) bounded by
//! [`GATE_TIMEOUT`], so a lost database answers with an error quickly.

use std::time::Duration as StdDuration;

use super::cached::Cached;
use super::{NOW_MS, PostgresStore, millis};
use crate::state::StateError;

/// Longest wait for one politeness statement: a request must not stall
/// long on a database that went away (the gate then falls back to local
/// limits).
pub const GATE_TIMEOUT: StdDuration = StdDuration::from_secs(2);

/// See [`crate::state::Store::take_host_slot`].
pub(super) fn take_slot(
    store: &PostgresStore,
    host: &str,
    holder: &str,
    slots: u32,
    hold: StdDuration,
) -> Result<Option<u32>, StateError> {
    let (host, holder) = (host.to_string(), holder.to_string());
    let slots = i32::try_from(slots.max(1)).unwrap_or(i32::MAX);
    let hold = millis(hold);
    store.run_within("take a host slot", GATE_TIMEOUT, move |c| async move {
        let row = c
            .query_opt_cached(
                &format!(
                    "WITH now AS (SELECT {NOW_MS} AS ms),
                     free AS (
                       SELECT s FROM generate_series(0, $3 - 1) s, now
                       WHERE NOT EXISTS (
                         SELECT 1 FROM host_slots h
                         WHERE h.host = $1 AND h.slot = s AND h.expires_ms > now.ms)
                       ORDER BY s LIMIT 1)
                     INSERT INTO host_slots (host, slot, holder, expires_ms)
                     SELECT $1, s, $2, now.ms + $4 FROM free, now
                     ON CONFLICT (host, slot) DO UPDATE
                       SET holder = excluded.holder, expires_ms = excluded.expires_ms
                       WHERE host_slots.expires_ms <= excluded.expires_ms - $4
                     RETURNING slot"
                ),
                &[&host, &holder, &slots, &hold],
            )
            .await?;
        match row {
            Some(r) => Ok(u32::try_from(r.try_get::<_, i32>(0)?).ok()),
            None => Ok(None),
        }
    })
}

/// See [`crate::state::Store::release_host_slot`].
pub(super) fn release_slot(
    store: &PostgresStore,
    host: &str,
    holder: &str,
    slot: u32,
) -> Result<(), StateError> {
    let (host, holder) = (host.to_string(), holder.to_string());
    let slot = i32::try_from(slot).unwrap_or(i32::MAX);
    store.run_within("give a host slot up", GATE_TIMEOUT, move |c| async move {
        c.execute_cached(
            "DELETE FROM host_slots WHERE host = $1 AND slot = $2 AND holder = $3",
            &[&host, &slot, &holder],
        )
        .await?;
        Ok(())
    })
}

/// See [`crate::state::Store::take_host_turn`].
pub(super) fn take_turn(
    store: &PostgresStore,
    host: &str,
    spacing: StdDuration,
) -> Result<Option<StdDuration>, StateError> {
    let host = host.to_string();
    let spacing = millis(spacing);
    store.run_within("take a host's turn", GATE_TIMEOUT, move |c| async move {
        let granted = c
            .query_opt_cached(
                &format!(
                    "INSERT INTO host_turns (host, last_ms, next_ms, deferred_ms)
                     VALUES ($1, {NOW_MS}, {NOW_MS} + $2, 0)
                     ON CONFLICT (host) DO UPDATE
                       SET last_ms = excluded.last_ms, next_ms = excluded.last_ms + $2
                       WHERE host_turns.next_ms <= excluded.last_ms
                         AND host_turns.last_ms + $2 <= excluded.last_ms
                         AND host_turns.deferred_ms <= excluded.last_ms
                     RETURNING host"
                ),
                &[&host, &spacing],
            )
            .await?;
        if granted.is_some() {
            return Ok(None);
        }
        let wait = c
            .query_opt_cached(
                &format!(
                    "SELECT GREATEST(next_ms, last_ms + $2, deferred_ms) - {NOW_MS}
                     FROM host_turns WHERE host = $1"
                ),
                &[&host, &spacing],
            )
            .await?;
        let ms = match wait {
            Some(r) => r.try_get::<_, i64>(0)?,
            None => 0,
        };
        // At least 1 ms: the caller asks again after the wait.
        Ok(Some(StdDuration::from_millis(
            u64::try_from(ms.max(1)).unwrap_or(1),
        )))
    })
}

/// See [`crate::state::Store::defer_host`].
pub(super) fn defer(
    store: &PostgresStore,
    host: &str,
    for_: StdDuration,
) -> Result<(), StateError> {
    let host = host.to_string();
    let for_ = millis(for_);
    store.run_within("defer a host", GATE_TIMEOUT, move |c| async move {
        c.execute_cached(
            &format!(
                "INSERT INTO host_turns (host, last_ms, next_ms, deferred_ms)
                 VALUES ($1, 0, 0, {NOW_MS} + $2)
                 ON CONFLICT (host) DO UPDATE
                   SET deferred_ms = GREATEST(host_turns.deferred_ms, excluded.deferred_ms)"
            ),
            &[&host, &for_],
        )
        .await?;
        Ok(())
    })
}

/// See [`crate::state::Store::sweep_hosts`].
pub(super) fn sweep(store: &PostgresStore, idle: StdDuration) -> Result<usize, StateError> {
    let idle = millis(idle);
    store.run_within("sweep the host rows", GATE_TIMEOUT, move |c| async move {
        let slots = c
            .execute_cached(
                &format!("DELETE FROM host_slots WHERE expires_ms <= {NOW_MS}"),
                &[],
            )
            .await?;
        let turns = c
            .execute_cached(
                &format!(
                    "DELETE FROM host_turns
                     WHERE GREATEST(next_ms, deferred_ms) < {NOW_MS} - $1"
                ),
                &[&idle],
            )
            .await?;
        Ok(usize::try_from(slots + turns).unwrap_or(usize::MAX))
    })
}
