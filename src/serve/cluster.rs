//! What the server of one instance knows about the shared state
//! (PostgreSQL) and the other instances: where the published documents
//! come from ([`SharedDocuments`]), whether the database answers, and
//! which instances run a config other than this one's (the daemon's
//! heartbeat keeps [`Peers`] up to date).
//!
//! Invariants: nothing here ever names the database with its password
//! (errors carry the state's label only); a probe never takes longer than
//! [`crate::serve::documents::DB_WAIT`].

use std::sync::{Arc, RwLock};

use crate::serve::documents::{DB_WAIT, SharedDocuments};
use crate::state::{Instance, Store};

/// The instances alive whose config hash differs from this instance's,
/// described for `/health` (`<id> on <host>`). Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Peers {
    differing: Arc<RwLock<Vec<String>>>,
}

impl Peers {
    /// Record who runs another config than `mine`, among `alive`.
    pub fn update(&self, mine: &str, alive: &[Instance]) {
        let differing = alive
            .iter()
            .filter(|i| i.config_hash != mine)
            .map(|i| format!("{} on {}", i.id, i.host))
            .collect();
        let mut d = self.differing.write().unwrap_or_else(|p| p.into_inner());
        *d = differing;
    }

    /// The instances whose config differs (as described by [`Peers::update`]).
    pub fn differing(&self) -> Vec<String> {
        match self.differing.read() {
            Ok(d) => d.clone(),
            Err(p) => p.into_inner().clone(),
        }
    }
}

/// The server's view of a shared state. Cheap to clone.
#[derive(Clone)]
pub struct ClusterView {
    pub store: Arc<Store>,
    pub documents: Arc<SharedDocuments>,
    pub peers: Peers,
}

impl ClusterView {
    pub fn new(store: Arc<Store>, peers: Peers) -> ClusterView {
        ClusterView {
            documents: Arc::new(SharedDocuments::new(Arc::clone(&store))),
            store,
            peers,
        }
    }

    /// `Err(why)` when the database does not answer within
    /// [`DB_WAIT`] (the state's label, never a password).
    pub async fn reachable(&self) -> Result<(), String> {
        let store = Arc::clone(&self.store);
        match tokio::time::timeout(DB_WAIT, tokio::task::spawn_blocking(move || store.ping())).await
        {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(e))) => Err(e.to_string()),
            Ok(Err(_)) => Err("the database probe stopped".into()),
            Err(_) => Err(format!(
                "{}: no answer within {} s",
                self.store.label(),
                DB_WAIT.as_secs()
            )),
        }
    }
}
