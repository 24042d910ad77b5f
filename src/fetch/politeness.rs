//! Politeness towards servers: how many requests run at once (overall and per
//! host), how far apart request starts to one host are, Retry-After deferrals,
//! robots.txt crawl delays, and the backoff between failed runs of a feed.
//!
//! Invariants:
//! - One [`Politeness`] is shared by every feed of a daemon; a [`Permit`]
//!   holds one global slot and one slot of its host until dropped.
//! - Request starts to one host are at least the host's delay apart
//!   (`max(min_delay, crawl delay)`) and never before a Retry-After deferral
//!   ends.
//! - A request waiting for its host's turn holds no global slot: it takes the
//!   host slot and turn first and the global slot last, so a slow host cannot
//!   starve the others.
//! - Memory is bounded by activity: host entries idle for more than
//!   [`IDLE_EXPIRY`] (and not deferred, not in use) are dropped lazily.
//! - With a [`ClusterGate`] (a state shared by several instances) the same
//!   limits also hold across instances: after the local host slot and turn
//!   a request takes a cluster slot and then, holding a global slot, the
//!   host's cluster turn; a refused turn gives the global slot back while
//!   it waits. Deferrals are passed on to the other instances. See
//!   `cluster_gate` for how a database failure falls back to local limits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use url::Url;

use super::cluster_gate::{ClusterGate, ClusterSlot, Turn};

/// Longest robots.txt `Crawl-delay` honoured: longer ones would stall a feed
/// for hours on a single site.
pub const MAX_CRAWL_DELAY: Duration = Duration::from_secs(60);
/// Longest Retry-After deferral honoured (a server's "come back next year"
/// must not silence a feed forever).
pub const MAX_DEFERRAL: Duration = Duration::from_secs(6 * 3600);
/// Host entries unused for this long are forgotten.
pub const IDLE_EXPIRY: Duration = Duration::from_secs(3600);
/// How often at most the host table is swept for idle entries.
const SWEEP_INTERVAL: Duration = Duration::from_secs(60);
/// How long a request holds its cluster slot at most when the caller does
/// not say (see [`Politeness::acquire_holding`]).
pub const DEFAULT_HOLD: Duration = Duration::from_secs(120);

/// Concurrency and spacing limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Requests in flight at once, all hosts together (default 16).
    pub global: usize,
    /// Requests in flight at once to one host (default 2).
    pub per_host: usize,
    /// Least time between two request starts to one host (default 1 s).
    pub min_delay: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            global: 16,
            per_host: 2,
            min_delay: Duration::from_secs(1),
        }
    }
}

/// Per-host bookkeeping.
#[derive(Debug)]
struct HostState {
    /// `Limits::per_host` slots.
    slots: Arc<Semaphore>,
    /// Held while waiting for the host's next start time, so that starts are
    /// handed out one at a time.
    turn: tokio::sync::Mutex<()>,
    timing: Mutex<Timing>,
}

#[derive(Debug)]
struct Timing {
    last_start: Option<Instant>,
    crawl_delay: Duration,
    deferred_until: Option<Instant>,
    last_used: Instant,
}

impl Timing {
    /// The earliest time the next request to this host may start.
    fn ready_at(&self, min_delay: Duration) -> Instant {
        let spacing = min_delay.max(self.crawl_delay);
        let after_last = self.last_start.map(|t| t + spacing);
        match (after_last, self.deferred_until) {
            (Some(a), Some(b)) => a.max(b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => Instant::now(),
        }
    }
}

/// Locks a std mutex, ignoring poisoning: the guarded data stays consistent
/// because every critical section here is a few plain assignments.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[derive(Debug)]
struct Hosts {
    map: HashMap<String, Arc<HostState>>,
    last_sweep: Instant,
}

/// Shared request scheduler. See the module docs for its guarantees.
#[derive(Debug)]
pub struct Politeness {
    limits: Limits,
    global: Arc<Semaphore>,
    hosts: Mutex<Hosts>,
    /// The limits shared with other instances (shared states only).
    cluster: Option<Arc<ClusterGate>>,
}

/// The right to start one request; dropping it frees the slots.
#[derive(Debug)]
pub struct Permit {
    _global: Option<OwnedSemaphorePermit>,
    _host_slot: Option<OwnedSemaphorePermit>,
    _cluster_slot: Option<ClusterSlot>,
    host: Option<Arc<HostState>>,
}

impl Drop for Permit {
    fn drop(&mut self) {
        if let Some(host) = &self.host {
            lock(&host.timing).last_used = Instant::now();
        }
    }
}

/// The key a URL's host is scheduled under (`None`: no host, no politeness).
fn host_key(url: &Url) -> Option<String> {
    match url.scheme() {
        "http" | "https" => url.host_str().map(normalise_host),
        _ => None,
    }
}

fn normalise_host(host: &str) -> String {
    host.trim_end_matches('.').to_ascii_lowercase()
}

impl Politeness {
    /// A scheduler with these limits (zero limits are raised to 1: a zero
    /// would block every request forever).
    pub fn new(limits: Limits) -> Arc<Politeness> {
        Politeness::with_cluster(limits, None)
    }

    /// A scheduler whose limits also hold across the instances behind
    /// `cluster` (see the module header).
    pub fn with_cluster(limits: Limits, cluster: Option<Arc<ClusterGate>>) -> Arc<Politeness> {
        let limits = Limits {
            global: limits.global.max(1),
            per_host: limits.per_host.max(1),
            ..limits
        };
        Arc::new(Politeness {
            limits,
            global: Arc::new(Semaphore::new(limits.global)),
            hosts: Mutex::new(Hosts {
                map: HashMap::new(),
                last_sweep: Instant::now(),
            }),
            cluster,
        })
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// [`Politeness::acquire_holding`] for a request of at most
    /// [`DEFAULT_HOLD`].
    pub async fn acquire(&self, url: &Url) -> Permit {
        self.acquire_holding(url, DEFAULT_HOLD).await
    }

    /// Waits until a request to `url` may start: a slot of its host, the
    /// host's turn (delay since the last start, Retry-After deferral), then a
    /// global slot; with a cluster gate also a cluster slot (held at most
    /// `hold`, the longest the request can take) and the cluster turn.
    /// `file:` URLs (and anything without a host) pass at once.
    pub async fn acquire_holding(&self, url: &Url, hold: Duration) -> Permit {
        let Some(key) = host_key(url) else {
            return Permit {
                _global: None,
                _host_slot: None,
                _cluster_slot: None,
                host: None,
            };
        };
        let host = self.host_state(&key);
        // The semaphores are never closed, so acquiring cannot fail.
        let host_slot = Arc::clone(&host.slots).acquire_owned().await.ok();
        let turn = host.turn.lock().await;
        loop {
            let ready_at = lock(&host.timing).ready_at(self.limits.min_delay);
            if ready_at <= Instant::now() {
                break;
            }
            // Re-checked after waking: a deferral may have arrived meanwhile.
            tokio::time::sleep_until(ready_at).await;
        }
        let (global, cluster_slot) = self.start_slots(&key, hold).await;
        {
            let mut timing = lock(&host.timing);
            let now = Instant::now();
            timing.last_start = Some(now);
            timing.last_used = now;
        }
        drop(turn);
        Permit {
            _global: global,
            _host_slot: host_slot,
            _cluster_slot: cluster_slot,
            host: Some(host),
        }
    }

    /// The global slot, and with a cluster gate first a cluster slot and
    /// the host's cluster turn (taken while holding the global slot, so the
    /// start follows at once; given back while waiting for the turn).
    async fn start_slots(
        &self,
        key: &str,
        hold: Duration,
    ) -> (Option<OwnedSemaphorePermit>, Option<ClusterSlot>) {
        let Some(gate) = &self.cluster else {
            return (Arc::clone(&self.global).acquire_owned().await.ok(), None);
        };
        let slot = gate.take_slot(key, self.limits.per_host, hold).await;
        let spacing = self.host_delay(key);
        loop {
            let global = Arc::clone(&self.global).acquire_owned().await.ok();
            match gate.take_turn(key, spacing).await {
                Turn::Go => return (global, slot),
                Turn::Wait(wait) => {
                    drop(global);
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    /// No request to `host` starts before `for_` from now (capped at
    /// [`MAX_DEFERRAL`]); an earlier deferral that ends later is kept.
    pub fn defer(&self, host: &str, for_: Duration) {
        let key = normalise_host(host);
        if let Some(gate) = &self.cluster {
            gate.defer(&key, for_.min(MAX_DEFERRAL));
        }
        let state = self.host_state(&key);
        let until = Instant::now() + for_.min(MAX_DEFERRAL);
        let mut timing = lock(&state.timing);
        timing.deferred_until = Some(timing.deferred_until.map_or(until, |t| t.max(until)));
    }

    /// Sets the host's robots.txt crawl delay (capped at [`MAX_CRAWL_DELAY`]);
    /// the effective spacing is the larger of it and `Limits::min_delay`.
    pub fn set_host_delay(&self, host: &str, delay: Duration) {
        let state = self.host_state(&normalise_host(host));
        lock(&state.timing).crawl_delay = delay.min(MAX_CRAWL_DELAY);
    }

    /// The spacing between request starts to `host` now in force:
    /// `max(min_delay, crawl delay)`.
    pub fn host_delay(&self, host: &str) -> Duration {
        let key = normalise_host(host);
        let crawl_delay = lock(&self.hosts)
            .map
            .get(&key)
            .map_or(Duration::ZERO, |state| lock(&state.timing).crawl_delay);
        self.limits.min_delay.max(crawl_delay)
    }

    /// How long requests to `host` are still deferred by a Retry-After
    /// (`None`: not deferred). Lets a scheduler skip a feed instead of
    /// letting its fetch wait in [`Politeness::acquire`].
    pub fn deferred_for(&self, host: &str) -> Option<Duration> {
        let key = normalise_host(host);
        let until = lock(&self.hosts)
            .map
            .get(&key)
            .and_then(|state| lock(&state.timing).deferred_until)?;
        let left = until.saturating_duration_since(Instant::now());
        (!left.is_zero()).then_some(left)
    }

    /// Number of hosts currently remembered (for tests and metrics).
    pub fn tracked_hosts(&self) -> usize {
        lock(&self.hosts).map.len()
    }

    /// The entry for `key`, created if missing; sweeps idle entries at most
    /// once per [`SWEEP_INTERVAL`].
    fn host_state(&self, key: &str) -> Arc<HostState> {
        let now = Instant::now();
        let mut hosts = lock(&self.hosts);
        if now.duration_since(hosts.last_sweep) >= SWEEP_INTERVAL {
            sweep(&mut hosts, now);
        }
        let per_host = self.limits.per_host;
        Arc::clone(hosts.map.entry(key.to_owned()).or_insert_with(|| {
            Arc::new(HostState {
                slots: Arc::new(Semaphore::new(per_host)),
                turn: tokio::sync::Mutex::new(()),
                timing: Mutex::new(Timing {
                    last_start: None,
                    crawl_delay: Duration::ZERO,
                    deferred_until: None,
                    last_used: now,
                }),
            })
        }))
    }
}

/// Drops the idle entries (as seen at `now`).
fn sweep(hosts: &mut Hosts, now: Instant) {
    hosts.last_sweep = now;
    hosts.map.retain(|_, state| !is_idle(state, now));
}

/// Unused for [`IDLE_EXPIRY`], not deferred, and referenced by nobody but the
/// table (no permit or waiter holds it).
fn is_idle(state: &Arc<HostState>, now: Instant) -> bool {
    if Arc::strong_count(state) > 1 {
        return false;
    }
    let timing = lock(&state.timing);
    now.duration_since(timing.last_used) > IDLE_EXPIRY
        && timing.deferred_until.is_none_or(|t| t <= now)
}

/// Delay before retrying a feed that failed `n` times in a row: exponential
/// with full jitter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// Delay scale after the first failure (default 1 min).
    pub base: Duration,
    /// Largest delay (default 24 h).
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            base: Duration::from_secs(60),
            max: Duration::from_secs(24 * 3600),
        }
    }
}

impl Backoff {
    /// Zero after no failure; otherwise uniform in `[d/2, d]` where
    /// `d = min(max, base · 2^(n-1))`. The jitter keeps feeds that failed
    /// together (one outage) from retrying together.
    pub fn delay(&self, consecutive_failures: u32, rng: &mut fastrand::Rng) -> Duration {
        if consecutive_failures == 0 {
            return Duration::ZERO;
        }
        let factor = 1u32.checked_shl(consecutive_failures - 1);
        let ceiling = factor
            .and_then(|f| self.base.checked_mul(f))
            .map_or(self.max, |d| d.min(self.max));
        let floor = ceiling / 2;
        let span = u64::try_from((ceiling - floor).as_nanos()).unwrap_or(u64::MAX);
        floor + Duration::from_nanos(rng.u64(0..=span))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_caps_and_stays_within_jitter_bounds() {
        let backoff = Backoff::default();
        let mut rng = fastrand::Rng::with_seed(7);
        assert_eq!(backoff.delay(0, &mut rng), Duration::ZERO);
        let minute = Duration::from_secs(60);
        for n in 1..=40u32 {
            let ceiling = if n <= 11 {
                minute * (1 << (n - 1))
            } else {
                backoff.max
            };
            let ceiling = ceiling.min(backoff.max);
            for _ in 0..50 {
                let d = backoff.delay(n, &mut rng);
                assert!(d >= ceiling / 2 && d <= ceiling, "n={n}: {d:?}");
            }
        }
        // 2^10 min < 24 h < 2^11 min: the 12th failure is the first capped one.
        assert!(minute * 1024 < backoff.max && minute * 2048 > backoff.max);
        let mut rng_a = fastrand::Rng::with_seed(1);
        assert!(backoff.delay(12, &mut rng_a) >= backoff.max / 2);
        // Very large counts do not overflow.
        assert!(backoff.delay(u32::MAX, &mut rng) <= backoff.max);
        // Full jitter really varies.
        let samples: std::collections::HashSet<_> =
            (0..20).map(|_| backoff.delay(5, &mut rng)).collect();
        assert!(samples.len() > 10);
    }

    #[test]
    fn ready_at_takes_the_later_of_spacing_and_deferral() {
        let now = Instant::now();
        let timing = Timing {
            last_start: Some(now),
            crawl_delay: Duration::from_secs(5),
            deferred_until: Some(now + Duration::from_secs(3)),
            last_used: now,
        };
        assert_eq!(
            timing.ready_at(Duration::from_secs(1)),
            now + Duration::from_secs(5)
        );
        assert_eq!(
            timing.ready_at(Duration::from_secs(9)),
            now + Duration::from_secs(9)
        );
        let deferred = Timing {
            deferred_until: Some(now + Duration::from_secs(30)),
            ..timing
        };
        assert_eq!(
            deferred.ready_at(Duration::from_secs(1)),
            now + Duration::from_secs(30)
        );
    }

    #[test]
    fn deferral_and_host_delay_are_reported() {
        let politeness = Politeness::new(Limits::default());
        assert_eq!(politeness.deferred_for("news.example"), None);
        politeness.defer("News.Example.", Duration::from_secs(3600));
        politeness.defer("news.example", Duration::from_secs(60));
        // The later deferral wins; names are normalised.
        let left = politeness.deferred_for("news.example").unwrap();
        assert!(left > Duration::from_secs(60) && left <= Duration::from_secs(3600));
        politeness.defer("far.example", Duration::from_secs(999_999));
        assert!(politeness.deferred_for("far.example").unwrap() <= MAX_DEFERRAL);

        assert_eq!(
            politeness.host_delay("news.example"),
            Duration::from_secs(1)
        );
        politeness.set_host_delay("news.example", Duration::from_secs(5));
        assert_eq!(
            politeness.host_delay("news.example"),
            Duration::from_secs(5)
        );
        politeness.set_host_delay("news.example", Duration::from_secs(3600));
        assert_eq!(politeness.host_delay("news.example"), MAX_CRAWL_DELAY);
    }

    #[tokio::test]
    async fn idle_hosts_are_forgotten_but_deferred_and_busy_ones_kept() {
        let politeness = Politeness::new(Limits::default());
        let a = Url::parse("https://a.example/x").unwrap();
        let c = Url::parse("https://C.example./y").unwrap();
        drop(politeness.acquire(&a).await);
        let busy = politeness.acquire(&c).await;
        politeness.defer("b.example", MAX_DEFERRAL);
        // file: URLs are not tracked.
        let file = Url::parse("file:///tmp/list.html").unwrap();
        drop(politeness.acquire(&file).await);
        assert_eq!(politeness.tracked_hosts(), 3);
        let later = Instant::now() + IDLE_EXPIRY + Duration::from_secs(1);
        sweep(&mut lock(&politeness.hosts), later);
        // a.example idle > 1 h: dropped; b.example deferred and c.example
        // held by a permit: kept.
        let hosts = lock(&politeness.hosts);
        let mut kept: Vec<_> = hosts.map.keys().cloned().collect();
        kept.sort();
        assert_eq!(kept, ["b.example", "c.example"]);
        drop(hosts);
        drop(busy);
    }
}
