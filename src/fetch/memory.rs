//! One memory budget for every page the process holds at once: list pages,
//! later pages and article pages of all feeds share it. A page is charged
//! while its body streams in (by the bytes read) and, before it is parsed,
//! by what its parse is estimated to cost ([`parse_cost`]); the charge is
//! released when the page and its tree are dropped. Two feeds that each
//! link eight 5 MiB articles thus wait for each other instead of parsing
//! sixteen pages at once (920 MB before this budget).
//!
//! Invariants: a charge never exceeds the gate's capacity (a page bigger
//! than the whole budget runs alone, it is never refused); a charge that
//! must wait for more releases what it holds first, so charges never wait
//! while holding (no deadlock between pages); [`Charge::none`] meters
//! nothing, for one-off commands.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::extract::dom::budget::MAX_ELEMENTS;

/// The memory all pages in flight may take together (MiB), by default:
/// a list page at the parse budget (~140 MB) runs alone, typical pages
/// (≤ 1 MB) by the dozen. Configured with `memory_budget_mib`.
pub const DEFAULT_MEMORY_BUDGET_MIB: u32 = 128;

/// Estimated memory per byte of page text during a parse (the tree's text
/// nodes, the flattened sequence, the extracted copies), measured on a
/// 5 MB text-only page: 40 MB.
const COST_PER_TEXT_BYTE: u64 = 8;
/// Estimated memory per element when mining a list page (nodes, tag
/// sequence, suffix array, records), measured: 150,000 one-link records
/// took 137 MB.
const COST_PER_LIST_ELEMENT: u64 = 900;
/// Estimated memory per element when extracting an article body,
/// measured: 150,000 paragraphs took 26 MB.
const COST_PER_ARTICLE_ELEMENT: u64 = 200;
/// The step a streaming body's charge grows by (it doubles from here).
const FIRST_CHARGE: u64 = 64 * 1024;
/// The gate counts in KiB (a semaphore permit each).
const UNIT: u64 = 1024;

/// What a page is parsed for (list mining costs more per element).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParseKind {
    List,
    Article,
}

/// The estimated peak memory of parsing `html` as `kind`, in bytes.
pub fn parse_cost(html: &str, kind: ParseKind) -> u64 {
    let per_element = match kind {
        ParseKind::List => COST_PER_LIST_ELEMENT,
        ParseKind::Article => COST_PER_ARTICLE_ELEMENT,
    };
    let elements = count_start_tags(html.as_bytes(), MAX_ELEMENTS) as u64;
    (html.len() as u64).saturating_mul(COST_PER_TEXT_BYTE) + elements * per_element
}

/// Start tags (`<` followed by a letter) in `b`, counted up to `limit`.
/// An over-count (a `<a` inside a script) only makes the estimate safer.
fn count_start_tags(b: &[u8], limit: usize) -> usize {
    b.windows(2)
        .filter(|w| w[0] == b'<' && w[1].is_ascii_alphabetic())
        .take(limit)
        .count()
}

/// The shared budget (cheap to clone: all clones are one gate).
#[derive(Debug, Clone)]
pub struct MemoryGate {
    permits: Arc<Semaphore>,
    capacity: u32,
}

impl MemoryGate {
    /// A gate of `mib` MiB (at least 1).
    pub fn new(mib: u32) -> MemoryGate {
        let capacity = mib.max(1).saturating_mul(1024);
        MemoryGate {
            permits: Arc::new(Semaphore::new(capacity as usize)),
            capacity,
        }
    }

    /// A charge of nothing yet on this gate.
    pub fn charge(&self) -> Charge {
        Charge {
            gate: Some(self.clone()),
            permit: None,
        }
    }

    /// KiB not charged to any page right now.
    pub fn available_kib(&self) -> usize {
        self.permits.available_permits()
    }
}

/// What one page holds of the gate; released on drop.
#[derive(Debug, Default)]
pub struct Charge {
    gate: Option<MemoryGate>,
    permit: Option<OwnedSemaphorePermit>,
}

impl Charge {
    /// A charge that meters nothing (one-off commands, tests).
    pub fn none() -> Charge {
        Charge::default()
    }

    /// The bytes charged now.
    pub fn bytes(&self) -> u64 {
        self.permit.as_ref().map_or(0, |p| p.num_permits() as u64) * UNIT
    }

    /// Make the charge at least `bytes` (at most the gate's capacity),
    /// waiting until other pages release enough.
    pub async fn grow_to(&mut self, bytes: u64) {
        let Some(gate) = self.gate.clone() else {
            return;
        };
        let want = u32::try_from(bytes.div_ceil(UNIT))
            .unwrap_or(u32::MAX)
            .min(gate.capacity);
        let held = self.permit.as_ref().map_or(0, |p| p.num_permits() as u32);
        if want <= held {
            return;
        }
        if let Ok(more) = gate.permits.clone().try_acquire_many_owned(want - held) {
            match &mut self.permit {
                Some(p) => p.merge(more),
                None => self.permit = Some(more),
            }
            return;
        }
        // Never wait while holding: release, then wait for the whole.
        self.permit = None;
        // The semaphore is never closed, so acquiring cannot fail.
        self.permit = gate.permits.clone().acquire_many_owned(want).await.ok();
    }

    /// Grow for a streaming body that has reached `len` bytes: doubling
    /// steps, so a page is charged at most twice what it holds.
    pub async fn grow_for_stream(&mut self, len: u64) {
        if self.gate.is_none() || len <= self.bytes() {
            return;
        }
        let target = self.bytes().max(FIRST_CHARGE).saturating_mul(2).max(len);
        self.grow_to(target).await;
    }
}

/// A charge at least this big gives its freed memory back to the system
/// when it ends (see [`Charge`]'s `Drop`).
const TRIM_AFTER: u64 = 32 * 1024 * 1024;

impl Drop for Charge {
    /// A big page's tree is freed by now, but the allocator keeps the pages
    /// in the arena of the thread that parsed it; the next big page, parsed
    /// on another thread, would grow a second arena beside it and the
    /// process would hold both. Returning them first keeps the footprint
    /// that of one page at a time, as the budget means.
    fn drop(&mut self) {
        if self.gate.is_some() && self.bytes() >= TRIM_AFTER {
            return_freed_memory();
        }
    }
}

/// Give free heap pages of every arena back to the system.
fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory; it is thread-safe.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn list_pages_cost_more_per_element_than_articles() {
        let html = "<p>a".repeat(1000);
        let list = parse_cost(&html, ParseKind::List);
        let article = parse_cost(&html, ParseKind::Article);
        assert_eq!(list, 4000 * 8 + 1000 * 900);
        assert_eq!(article, 4000 * 8 + 1000 * 200);
        // Only start tags count: end tags, comments and text do not.
        assert_eq!(count_start_tags(b"</p><!-- x --> a < b <b>", 10), 1);
        assert_eq!(count_start_tags("<i>".repeat(50).as_bytes(), 7), 7);
    }

    #[tokio::test]
    async fn a_charge_waits_until_others_release_and_never_exceeds_the_gate() {
        let gate = MemoryGate::new(1);
        let mut first = gate.charge();
        first.grow_to(600 * 1024).await;
        assert_eq!(first.bytes(), 600 * 1024);
        // More than the whole gate is clamped to it, and must wait.
        let mut second = gate.charge();
        let waiter = tokio::spawn(async move {
            second.grow_to(10 * 1024 * 1024).await;
            second.bytes()
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiter.is_finished(), "the second page ran alongside");
        drop(first);
        let got = tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("released memory wakes the waiter")
            .unwrap();
        assert_eq!(got, 1024 * 1024);
        assert_eq!(gate.available_kib(), 1024);
    }

    #[tokio::test]
    async fn growing_charges_do_not_deadlock_each_other() {
        // Two streams each holding half the gate and wanting more: the one
        // that must wait releases first, so the other completes.
        let gate = MemoryGate::new(1);
        let (mut a, mut b) = (gate.charge(), gate.charge());
        a.grow_to(512 * 1024).await;
        b.grow_to(512 * 1024).await;
        let grow_b = tokio::spawn(async move {
            b.grow_to(900 * 1024).await;
            b.bytes()
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        a.grow_to(1024 * 1024).await;
        assert_eq!(a.bytes(), 1024 * 1024);
        drop(a);
        let b = tokio::time::timeout(Duration::from_secs(5), grow_b)
            .await
            .expect("no deadlock")
            .unwrap();
        assert_eq!(b, 900 * 1024);
    }

    #[tokio::test]
    async fn streaming_charges_double_and_none_meters_nothing() {
        let gate = MemoryGate::new(64);
        let mut c = gate.charge();
        c.grow_for_stream(10).await;
        assert_eq!(c.bytes(), 128 * 1024);
        c.grow_for_stream(129 * 1024).await;
        assert_eq!(c.bytes(), 256 * 1024);
        let mut none = Charge::none();
        none.grow_to(1 << 30).await;
        assert_eq!(none.bytes(), 0);
    }
}
