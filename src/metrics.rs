//! Prometheus metrics of the daemon (work in progress: the API below is the
//! contract; the server helper fills it in).

use std::time::Duration;

use crate::status::RunOutcome;

/// Counters and histograms of the daemon, shared by the scheduler and the
/// server. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub struct Metrics {}

impl Metrics {
    pub fn new() -> Self {
        Self::default()
    }
    /// One finished feed run.
    pub fn record_run(
        &self,
        _feed: &str,
        _outcome: &RunOutcome,
        _duration: Duration,
        _records: usize,
        _items_published: usize,
    ) {
    }
    /// One HTTP fetch (list or article page), successful or not.
    pub fn record_fetch(&self, _kind: FetchKind, _latency: Duration, _ok: bool) {}
    /// Prometheus text exposition of everything.
    pub fn render(&self) -> String {
        String::new()
    }
}

/// Which kind of page a fetch was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FetchKind {
    List,
    Article,
}
