//! What the tests of daemons sharing one PostgreSQL state have in common:
//! a list page per feed and an in-process daemon to start and stop.

#![allow(dead_code)] // Each test crate uses a different subset.

use std::path::Path;
use std::time::Duration;

use feedmine::daemon::{self, DaemonOptions};
use feedmine::serve::status::StatusBoard;
use tokio_util::sync::CancellationToken;

/// A news list of `stories` teasers for `feed` (links `/<feed>/story-<i>`).
pub fn list_page(feed: &str, stories: usize) -> String {
    let mut html = format!(
        "<!doctype html><html><head><title>{feed} news</title></head><body><ul class=posts>"
    );
    for i in 0..stories {
        html.push_str(&format!(
            "<li class=post><a href='/{feed}/story-{i}'>Story number {i} of the {feed} desk</a>\
             <p>What happened on day {i} at the {feed} desk, told in a few words.</p></li>"
        ));
    }
    html + "</ul></body></html>"
}

/// A daemon on `config` without a server, stopped by cancelling the token
/// (runs in flight get `grace`).
pub fn start_daemon(
    config: &Path,
    grace: Duration,
) -> (CancellationToken, tokio::task::JoinHandle<()>) {
    let token = CancellationToken::new();
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    let opts = DaemonOptions {
        config_path: config.to_path_buf(),
        listen: None,
        once_now: false,
        watch_config: false,
        shutdown_grace: grace,
    };
    let handle = tokio::spawn({
        let token = token.clone();
        async move {
            let _tx = tx;
            daemon::run_with_board(opts, token, rx, StatusBoard::new(), None)
                .await
                .unwrap();
        }
    });
    (token, handle)
}
