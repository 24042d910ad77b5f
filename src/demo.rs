//! `feedmine demo`: the whole thing working offline in one command.
//!
//! Serves the bundled example site (`examples/site/`, compiled into the
//! binary so the command works from any directory) on 127.0.0.1, writes a
//! config whose feeds read that site over HTTP, and runs the daemon over it
//! with the server on, printing where everything is.
//!
//! Invariant: [`SITE`] holds every file under `examples/site/` (a test
//! checks it against the directory).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::extract::Path as UrlPath;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use tokio_util::sync::CancellationToken;

use crate::daemon::{DaemonError, DaemonOptions};

/// The example site: (path under `examples/site/`, contents).
pub const SITE: &[(&str, &[u8])] = &[
    ("README.md", include_bytes!("../examples/site/README.md")),
    (
        "blog/index.html",
        include_bytes!("../examples/site/blog/index.html"),
    ),
    (
        "blog/posts/cut-list-packer.html",
        include_bytes!("../examples/site/blog/posts/cut-list-packer.html"),
    ),
    (
        "blog/posts/restoring-a-smoothing-plane.html",
        include_bytes!("../examples/site/blog/posts/restoring-a-smoothing-plane.html"),
    ),
    (
        "blog/posts/shed-humidity-logger.html",
        include_bytes!("../examples/site/blog/posts/shed-humidity-logger.html"),
    ),
    ("index.html", include_bytes!("../examples/site/index.html")),
    (
        "news/about.html",
        include_bytes!("../examples/site/news/about.html"),
    ),
    (
        "news/articles/east-wall-repairs-begin.html",
        include_bytes!("../examples/site/news/articles/east-wall-repairs-begin.html"),
    ),
    (
        "news/articles/fish-auction-prices-hold.html",
        include_bytes!("../examples/site/news/articles/fish-auction-prices-hold.html"),
    ),
    (
        "news/articles/kayaker-search-point-carrow.html",
        include_bytes!("../examples/site/news/articles/kayaker-search-point-carrow.html"),
    ),
    (
        "news/articles/lantern-procession-route.html",
        include_bytes!("../examples/site/news/articles/lantern-procession-route.html"),
    ),
    (
        "news/articles/library-saturday-hours.html",
        include_bytes!("../examples/site/news/articles/library-saturday-hours.html"),
    ),
    (
        "news/articles/market-hall-reopening-plan.html",
        include_bytes!("../examples/site/news/articles/market-hall-reopening-plan.html"),
    ),
    (
        "news/articles/robotics-team-national-final.html",
        include_bytes!("../examples/site/news/articles/robotics-team-national-final.html"),
    ),
    (
        "news/articles/winter-ferry-timetable.html",
        include_bytes!("../examples/site/news/articles/winter-ferry-timetable.html"),
    ),
    (
        "news/index.html",
        include_bytes!("../examples/site/news/index.html"),
    ),
    (
        "releases.html",
        include_bytes!("../examples/site/releases.html"),
    ),
    (
        "releases/v3.2.0.html",
        include_bytes!("../examples/site/releases/v3.2.0.html"),
    ),
    (
        "releases/v3.2.1.html",
        include_bytes!("../examples/site/releases/v3.2.1.html"),
    ),
    (
        "releases/v3.3.0.html",
        include_bytes!("../examples/site/releases/v3.3.0.html"),
    ),
];

/// Why the demo could not run.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("cannot start the example site server on 127.0.0.1")]
    Bind(#[source] std::io::Error),
    #[error("cannot write the demo config into {}", dir.display())]
    Write {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "cannot serve the demo on {listen}: {source}{}",
        free.map(|f| format!("; {f} is free: run `feedmine demo --listen {f}`")).unwrap_or_default()
    )]
    PortInUse {
        listen: SocketAddr,
        #[source]
        source: std::io::Error,
        /// A port that was free on the same address a moment ago.
        free: Option<SocketAddr>,
    },
    #[error(transparent)]
    Daemon(#[from] DaemonError),
}

/// Fails when `listen` cannot be bound now (in use, not permitted),
/// offering a free port on the same address. Checked before the banner so
/// the demo never announces an address it cannot serve.
pub fn check_listen(listen: SocketAddr) -> Result<(), DemoError> {
    match std::net::TcpListener::bind(listen) {
        Ok(_) => Ok(()),
        Err(source) => {
            let free = std::net::TcpListener::bind(SocketAddr::new(listen.ip(), 0))
                .and_then(|l| l.local_addr())
                .ok();
            Err(DemoError::PortInUse {
                listen,
                source,
                free,
            })
        }
    }
}

/// One file of the site, by its path (`/` is `index.html`).
pub fn site_file(path: &str) -> Option<&'static [u8]> {
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    SITE.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("md") => "text/markdown; charset=utf-8",
        _ => "application/octet-stream",
    }
}

async fn serve_file(path: Option<UrlPath<String>>) -> Response {
    let path = path.map(|UrlPath(p)| p).unwrap_or_default();
    match site_file(&path) {
        Some(bytes) => (
            [(
                header::CONTENT_TYPE,
                content_type(if path.is_empty() { "index.html" } else { &path }),
            )],
            bytes,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such page in the example site\n").into_response(),
    }
}

/// Serve the example site on `listener` until `shutdown`.
pub async fn serve_site(listener: tokio::net::TcpListener, shutdown: CancellationToken) {
    let app = axum::Router::new()
        .route("/", axum::routing::get(|| serve_file(None)))
        .route(
            "/{*path}",
            axum::routing::get(|p: UrlPath<String>| serve_file(Some(p))),
        );
    let _ = axum::serve(listener, app)
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await;
}

/// The demo config for a site served at `site`.
pub fn demo_config(site: &str) -> String {
    format!(
        r#"# Written by `feedmine demo`: three feeds over the bundled example site,
# served at {site}. Edit and send SIGHUP (or restart) to try changes.
output_dir = "public"
every = "1m"
formats = ["rss", "atom", "json"]
# The example site is on 127.0.0.1: let article links reach it.
allow_private_addresses = true
host_delay = "100ms"

[[feed]]
id = "harbour-gazette"
url = "{site}news/index.html"
title = "The Harbour Gazette — Local news"

[[feed]]
id = "workshop-notes"
url = "{site}blog/index.html"

[[feed]]
id = "releases"
url = "{site}releases.html"
"#
    )
}

/// Run the demo until `shutdown`: site server + daemon + feed server.
pub async fn run(
    listen: SocketAddr,
    dir: Option<PathBuf>,
    shutdown: CancellationToken,
    reload: tokio::sync::mpsc::Receiver<()>,
) -> Result<(), DemoError> {
    check_listen(listen)?;
    let site_listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(DemoError::Bind)?;
    let site_addr = site_listener.local_addr().map_err(DemoError::Bind)?;
    tokio::spawn(serve_site(site_listener, shutdown.clone()));
    let temp;
    let dir = match dir {
        Some(d) => d,
        None => {
            temp = tempfile::tempdir().map_err(|source| DemoError::Write {
                dir: std::env::temp_dir(),
                source,
            })?;
            temp.path().to_path_buf()
        }
    };
    std::fs::create_dir_all(&dir).map_err(|source| DemoError::Write {
        dir: dir.clone(),
        source,
    })?;
    let config_path = dir.join("feeds.toml");
    let site = format!("http://{site_addr}/");
    std::fs::write(&config_path, demo_config(&site)).map_err(|source| DemoError::Write {
        dir: dir.clone(),
        source,
    })?;
    println!("feedmine demo");
    println!("  example site (the pages without feeds): {site}");
    println!(
        "  config:                                 {}",
        config_path.display()
    );
    println!("  feeds, index page:                      http://{listen}/");
    println!(
        "  e.g. http://{listen}/feeds/harbour-gazette.xml  (.atom, .json), /feeds.opml, /health, /metrics"
    );
    println!(
        "  files:                                  {}",
        dir.join("public").display()
    );
    println!("Press Ctrl-C to stop.");
    crate::daemon::run(
        DaemonOptions {
            config_path,
            listen: Some(listen),
            once_now: true,
            watch_config: true,
            shutdown_grace: Duration::from_secs(5),
        },
        shutdown,
        reload,
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_example_site_is_bundled() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/site");
        let mut on_disk = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    on_disk.push(
                        p.strip_prefix(&root)
                            .unwrap()
                            .to_string_lossy()
                            .replace('\\', "/"),
                    );
                }
            }
        }
        on_disk.sort();
        let mut bundled: Vec<String> = SITE.iter().map(|(p, _)| p.to_string()).collect();
        bundled.sort();
        assert_eq!(on_disk, bundled);
        assert!(site_file("/").is_some());
        assert!(site_file("news/index.html").is_some());
        assert!(site_file("../Cargo.toml").is_none());
    }

    /// Regression: with 8080 taken, the demo printed its banner and then
    /// failed to bind.
    #[test]
    fn a_taken_port_is_refused_with_a_free_one_offered() {
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = taken.local_addr().unwrap();
        let err = check_listen(addr).unwrap_err();
        let text = err.to_string();
        let DemoError::PortInUse {
            free: Some(free), ..
        } = err
        else {
            panic!("{text}");
        };
        assert_ne!(free, addr);
        assert!(
            text.contains(&format!("feedmine demo --listen {free}")),
            "{text}"
        );
        drop(taken);
        assert!(check_listen(addr).is_ok());
    }

    #[test]
    fn demo_config_is_valid() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("feeds.toml");
        std::fs::write(&path, demo_config("http://127.0.0.1:9/")).unwrap();
        let c = crate::config::load(&path).unwrap();
        assert_eq!(c.feeds.len(), 3);
        assert!(
            c.feeds
                .iter()
                .all(|f| f.allow_private_addresses && f.formats.len() == 3)
        );
    }
}
