//! Several `feedmine run` instances sharing one state database
//! (PostgreSQL) share the feeds: a feed runs only under its *lease*.
//!
//! - Before a run, the feed's worker takes the lease (one atomic statement
//!   in the database, see [`Store::acquire_lease`]); when another instance
//!   holds it, this instance skips that due time and reads the feed's run
//!   history (the holder's run) to compute its next one.
//! - Holding the lease, the worker reads the shared run history again and
//!   runs only when the feed is still due: an instance that wakes after
//!   another one ran and released the feed does not run it a second time.
//! - While the run is in flight the lease is renewed every third of
//!   `lease_time`; it is given up when the run ends. An instance that dies
//!   stops renewing: its leases expire within `lease_time` and another
//!   instance takes its feeds.
//! - Every instance registers itself (id, host, pid, start, config hash)
//!   and keeps a heartbeat. Seeing an instance with another config hash
//!   (another instance reloaded its config), an instance reads its own
//!   config file again, once per such hash: a reload on one instance is
//!   picked up by the others that share the file. Instances still running
//!   another config after that are named in the log and on `/health`
//!   ([`Peers`]).
//! - The heartbeat also sets the `instances_alive` and `leases_held`
//!   gauges of this instance's metrics.
//!
//! On a state only one process uses (SQLite) every lease is granted at
//! once, nothing is renewed or registered, and the daemon behaves as it
//! always did.
//!
//! Invariants: a run starts only while this instance holds the feed's
//! lease; the lease's clock is the database's (skewed host clocks do not
//! matter).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::publish::templates::{ClusterInfo, InstanceInfo};
use crate::serve::cluster::Peers;
use crate::serve::metrics::Metrics;
use crate::state::{Instance, StateError, Store};

/// How long a worker whose feed is leased elsewhere waits before it looks
/// again (at most; less when the lease time is short).
pub const BUSY_POLL: Duration = Duration::from_secs(5);

/// This instance, as the other instances see it.
pub struct Cluster {
    store: Arc<Store>,
    me: Mutex<Instance>,
    lease_time: Duration,
    /// Config hashes of other instances already reported as different.
    told: Mutex<Vec<(String, String)>>,
    /// Who runs another config, for `/health`.
    peers: Peers,
    metrics: Metrics,
    /// Leases this instance holds now.
    held: AtomicUsize,
    /// Asks the daemon to read its config file again.
    reload: Mutex<Option<tokio::sync::mpsc::Sender<()>>>,
    /// The index page's view, read by the heartbeat.
    view: Mutex<ClusterInfo>,
}

/// A lease this instance holds; renewed in the background until
/// [`Held::release`] (or drop, which stops renewing).
pub struct Held {
    cluster: Arc<Cluster>,
    feed: String,
    stop: CancellationToken,
}

impl Drop for Held {
    fn drop(&mut self) {
        self.stop.cancel();
        self.cluster.held.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Held {
    /// Give the lease up (a no-op on an unshared state).
    pub fn release(self) {
        if !self.cluster.store.is_shared() {
            return;
        }
        let id = self.cluster.id();
        if let Err(e) = self.cluster.store.release_lease(&self.feed, &id) {
            tracing::warn!(feed = %self.feed, "cannot give the lease up: {}", e);
        }
    }
}

/// The hash of a whole config: its feeds' config hashes (each covers the
/// feed and the file's global settings).
pub fn config_hash(config: &Config) -> String {
    let mut h = Sha256::new();
    for f in &config.feeds {
        h.update(f.id.as_bytes());
        h.update(b"=");
        h.update(f.config_hash.as_bytes());
        h.update(b"\n");
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at
    // most that many bytes.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    let end = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
    match rc {
        0 if end > 0 => String::from_utf8_lossy(&buf[..end]).into_owned(),
        _ => "unknown-host".to_string(),
    }
}

impl Cluster {
    /// This process as an instance of the state in `store`.
    pub fn new(store: Arc<Store>, config: &Config, metrics: Metrics) -> Arc<Cluster> {
        let host = host_name();
        let pid = std::process::id();
        let me = Instance {
            id: format!("{host}-{pid}-{:04x}", fastrand::u16(..)),
            host,
            pid,
            started: Utc::now(),
            heartbeat: DateTime::default(),
            config_hash: config_hash(config),
        };
        Arc::new(Cluster {
            store,
            me: Mutex::new(me),
            lease_time: config.limits.lease_time,
            told: Mutex::default(),
            peers: Peers::default(),
            metrics,
            held: AtomicUsize::new(0),
            reload: Mutex::default(),
            view: Mutex::default(),
        })
    }

    /// Who runs another config (kept up to date by the heartbeat).
    pub fn peers(&self) -> Peers {
        self.peers.clone()
    }

    /// Where to ask for a config reload when another instance runs a
    /// config this one has not seen.
    pub fn on_foreign_config(&self, reload: tokio::sync::mpsc::Sender<()>) {
        *self.reload.lock().unwrap_or_else(|p| p.into_inner()) = Some(reload);
    }

    /// This instance's id.
    pub fn id(&self) -> String {
        self.me.lock().unwrap_or_else(|p| p.into_inner()).id.clone()
    }

    /// When this instance started.
    pub fn started(&self) -> DateTime<Utc> {
        self.me.lock().unwrap_or_else(|p| p.into_inner()).started
    }

    /// Whether other instances may share the feeds.
    pub fn shared(&self) -> bool {
        self.store.is_shared()
    }

    /// How long a worker waits before it looks at a busy feed again.
    pub fn busy_poll(&self) -> Duration {
        (self.lease_time / 4).min(BUSY_POLL)
    }

    /// Take `feed`'s lease: `None` when another instance holds it. While
    /// held it is renewed in the background.
    pub fn take(self: &Arc<Self>, feed: &str) -> Result<Option<Held>, StateError> {
        let id = self.id();
        if !self.store.acquire_lease(feed, &id, self.lease_time)? {
            return Ok(None);
        }
        self.held.fetch_add(1, Ordering::Relaxed);
        let held = Held {
            cluster: self.clone(),
            feed: feed.to_string(),
            stop: CancellationToken::new(),
        };
        if self.shared() {
            self.spawn_renewal(feed.to_string(), held.stop.clone());
        }
        Ok(Some(held))
    }

    fn spawn_renewal(self: &Arc<Self>, feed: String, stop: CancellationToken) {
        let cluster = self.clone();
        tokio::spawn(async move {
            let every = cluster.lease_time / 3;
            loop {
                tokio::select! {
                    _ = stop.cancelled() => return,
                    _ = tokio::time::sleep(every) => {}
                }
                match cluster
                    .store
                    .renew_lease(&feed, &cluster.id(), cluster.lease_time)
                {
                    Ok(true) => {}
                    Ok(false) => tracing::warn!(
                        feed = %feed,
                        "the lease expired before it was renewed: another instance may run this feed too"
                    ),
                    Err(e) => tracing::warn!(feed = %feed, "cannot renew the lease: {e}"),
                }
            }
        });
    }

    /// A new config was loaded: the heartbeat carries its hash from now on.
    pub fn set_config(&self, config: &Config) {
        self.me
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .config_hash = config_hash(config);
    }

    /// Register this instance and keep its heartbeat (every third of the
    /// lease time) until `stop`; then unregister and give every lease up.
    pub fn spawn_heartbeat(
        self: &Arc<Self>,
        stop: CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        let cluster = self.clone();
        tokio::spawn(async move {
            if !cluster.shared() {
                return;
            }
            loop {
                cluster.beat();
                tokio::select! {
                    _ = stop.cancelled() => break,
                    _ = tokio::time::sleep(cluster.lease_time / 3) => {}
                }
            }
            if let Err(e) = cluster.store.leave(&cluster.id()) {
                tracing::warn!("cannot unregister this instance: {e}");
            }
        })
    }

    /// One heartbeat; then the peers and gauges, and a word (and a reload)
    /// about instances with another config.
    fn beat(&self) {
        let me = self.me.lock().unwrap_or_else(|p| p.into_inner()).clone();
        if let Err(e) = self.store.heartbeat(&me) {
            tracing::warn!("cannot record this instance's heartbeat: {e}");
            self.set_view(unreachable_view(&e));
            return;
        }
        let alive = match self.store.instances(self.lease_time * 2) {
            Ok(alive) => alive,
            Err(e) => {
                self.set_view(unreachable_view(&e));
                return;
            }
        };
        self.set_view(self.read_view(&me, &alive));
        self.peers.update(&me.config_hash, &alive);
        self.metrics
            .set_cluster(alive.len(), self.held.load(Ordering::Relaxed));
        let mut told = self.told.lock().unwrap_or_else(|p| p.into_inner());
        // Bounded: only instances alive are remembered.
        told.retain(|(id, _)| alive.iter().any(|i| &i.id == id));
        for other in alive.iter().filter(|i| i.config_hash != me.config_hash) {
            let key = (other.id.clone(), other.config_hash.clone());
            if told.contains(&key) {
                continue;
            }
            tracing::warn!(
                instance = %other.id,
                "instance {} on {} runs a different config than this one: reading the config \
                 file again; every instance sharing the database should read the same feeds.toml",
                other.id,
                other.host
            );
            told.push(key);
            if let Some(reload) = &*self.reload.lock().unwrap_or_else(|p| p.into_inner()) {
                let _ = reload.try_send(());
            }
        }
    }
}

impl Cluster {
    /// The cluster's view for the index page as the last heartbeat read it
    /// (every third of `lease_time`): instances alive (which one is this,
    /// which run another config) and the leases held. Never asks the
    /// database, so the index page does not wait on one that hangs.
    pub fn info(&self) -> ClusterInfo {
        self.view.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Read the view [`Cluster::info`] shows (the heartbeat calls it).
    fn read_view(&self, me: &Instance, alive: &[Instance]) -> ClusterInfo {
        match self.store.leases() {
            Ok(leases) => ClusterInfo {
                instances: alive
                    .iter()
                    .map(|i| InstanceInfo {
                        this: i.id == me.id,
                        config_differs: i.config_hash != me.config_hash,
                        id: i.id.clone(),
                        host: i.host.clone(),
                        started: i.started,
                    })
                    .collect(),
                leases: leases.into_iter().map(|l| (l.feed, l.holder)).collect(),
                unreachable: None,
            },
            Err(e) => unreachable_view(&e),
        }
    }

    fn set_view(&self, view: ClusterInfo) {
        *self.view.lock().unwrap_or_else(|p| p.into_inner()) = view;
    }
}

/// The index's view while the database cannot be read.
fn unreachable_view(e: &StateError) -> ClusterInfo {
    ClusterInfo {
        unreachable: Some(e.to_string()),
        ..ClusterInfo::default()
    }
}
