//! What the server of one instance knows about the shared state
//! (PostgreSQL) and the other instances: where the published documents
//! come from ([`SharedDocuments`]), whether the database answers, and
//! which instances run a config other than this one's (the daemon's
//! heartbeat keeps [`Peers`] up to date). [`ClusterView::spawn_warming`]
//! keeps a copy of every feed's documents in memory.
//!
//! Invariants: nothing here ever names the database with its password
//! (errors carry the state's label only); a probe never takes longer than
//! [`crate::serve::documents::DB_WAIT`].

use std::collections::HashSet;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::serve::documents::{DB_WAIT, SharedDocuments};
use crate::serve::status::StatusBoard;
use crate::state::documents::{XSL_DOCUMENT, feed_document};
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

    /// Until `stop`: every `every`, fetch the documents of the feeds on
    /// `board` that changed (see [`SharedDocuments::warm`]).
    pub fn spawn_warming(
        &self,
        board: StatusBoard,
        every: Duration,
        stop: CancellationToken,
    ) -> tokio::task::JoinHandle<()> {
        let documents = Arc::clone(&self.documents);
        tokio::spawn(async move {
            loop {
                documents.warm(&served_names(&board)).await;
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(every) => {}
                }
            }
        })
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

/// The documents the server may serve for the feeds on `board`: each
/// format, each HTML page, and the stylesheet.
fn served_names(board: &StatusBoard) -> HashSet<String> {
    let mut names: HashSet<String> = board
        .snapshot()
        .iter()
        .flat_map(|s| {
            let exts = s.formats.iter().map(|f| f.ext()).chain(["html"]);
            exts.map(|ext| feed_document(&s.id, ext))
                .collect::<Vec<_>>()
        })
        .collect();
    names.insert(XSL_DOCUMENT.to_string());
    names
}
