//! Full-text bodies through a feed source, measured: the article pages of
//! a labelled set are served from 127.0.0.1 together with an RSS feed
//! whose items carry only a title and a link to each page; a
//! `source = "feed"` feedmine feed runs over it (stateful runs, as the
//! daemon does them, until every body is fetched) and the stored bodies
//! are scored against the true texts with the `articles` metrics, next to
//! the direct extraction of the same pages (`eval articles`). The two
//! must agree: the feed path adds fetching, not a different extractor.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use chrono::Utc;

use super::articles::{self, EvalError, lcs_scores, shingle_scores, word_f1};
use crate::bodies::{self, BodyParams, Method};
use crate::state::Retention;

/// Figures of one run.
#[derive(Debug, Clone, Default)]
pub struct FeedBodiesSummary {
    pub pages: usize,
    /// Items that got a body through the feed.
    pub bodies: usize,
    /// Macro word F1 of the bodies published through the feed.
    pub feed_word_f1: f64,
    /// Macro word F1 of `eval articles` (direct extraction) on the same pages.
    pub direct_word_f1: f64,
    pub feed_shingle_f1: f64,
    pub feed_lcs_f1: f64,
    /// Runs it took (each fetches at most `MAX_BODIES_PER_RUN` bodies).
    pub runs: usize,
    /// Pages whose word F1 differs between the two paths by more than 0.001.
    pub differing: Vec<String>,
}

/// Serve `dir`'s pages and a titles-and-links feed of them, run feedmine
/// over it and report.
pub async fn run(dir: &Path, out: &mut dyn Write) -> Result<FeedBodiesSummary, EvalError> {
    let cases = articles::load_cases(dir)?;
    let mut pages = HashMap::new();
    for c in &cases {
        pages.insert(c.id.clone(), articles::read_page(&c.html_path)?);
    }
    let pages = Arc::new(pages);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(io_err(dir))?;
    let addr = listener.local_addr().map_err(io_err(dir))?;
    let feed_xml = titles_and_links_feed(&cases, &format!("http://{addr}"));
    let app = router(pages.clone(), feed_xml);
    let server = tokio::spawn(async move { axum::serve(listener, app).await });

    let work = tempfile::tempdir().map_err(io_err(dir))?;
    let config_path = work.path().join("feeds.toml");
    std::fs::write(
        &config_path,
        config_text(&format!("http://{addr}/feed.xml"), cases.len()),
    )
    .map_err(io_err(&config_path))?;
    let config = crate::config::load(&config_path).map_err(|e| EvalError::Extract {
        path: config_path.clone(),
        message: format!("{:#}", crate::refresh::anyhow_like(&e)),
    })?;
    let bodies = fetch_all_bodies(&config).await?;
    server.abort();

    let mut s = FeedBodiesSummary {
        pages: cases.len(),
        runs: bodies.1,
        ..Default::default()
    };
    for c in &cases {
        let link = format!("http://{addr}/p/{}", c.id);
        let via_feed = bodies
            .0
            .get(&link)
            .map(|h| html_text(h))
            .unwrap_or_default();
        s.bodies += usize::from(bodies.0.contains_key(&link));
        let direct = bodies::extract(&pages[&c.id], None, Method::Reverse, &BodyParams::default())
            .map(|x| x.text)
            .unwrap_or_default();
        let (wf_feed, wf_direct) = (word_f1(&via_feed, &c.truth), word_f1(&direct, &c.truth));
        s.feed_word_f1 += wf_feed;
        s.direct_word_f1 += wf_direct;
        s.feed_lcs_f1 += lcs_scores(&via_feed, &c.truth).2;
        let (p, r) = shingle_scores(&via_feed, &c.truth);
        s.feed_shingle_f1 += if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        if (wf_feed - wf_direct).abs() > 0.001 {
            s.differing.push(c.id.clone());
        }
    }
    let n = cases.len().max(1) as f64;
    s.feed_word_f1 /= n;
    s.direct_word_f1 /= n;
    s.feed_lcs_f1 /= n;
    s.feed_shingle_f1 /= n;
    report(dir, &s, out).map_err(EvalError::Report)?;
    Ok(s)
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> EvalError + '_ {
    move |source| EvalError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn report(dir: &Path, s: &FeedBodiesSummary, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{}: {} pages through a titles-and-links RSS feed (source = \"feed\"), {} runs\n\
         bodies published {} of {}\n\
         word F1 via the feed {:.4}; direct extraction (eval articles) {:.4}; pages that differ: {}\n\
         via the feed: per-page shingle F1 {:.4}, LCS F1 {:.4}",
        dir.display(),
        s.pages,
        s.runs,
        s.bodies,
        s.pages,
        s.feed_word_f1,
        s.direct_word_f1,
        s.differing.len(),
        s.feed_shingle_f1,
        s.feed_lcs_f1
    )?;
    for id in s.differing.iter().take(10) {
        writeln!(out, "  differs: {id}")?;
    }
    Ok(())
}

/// RSS 2.0 with one item per page: title (the page id) and link only.
fn titles_and_links_feed(cases: &[articles::Case], origin: &str) -> String {
    let items: String = cases
        .iter()
        .map(|c| {
            format!(
                "<item><title>{id}</title><link>{origin}/p/{id}</link></item>",
                id = xml_escape(&c.id)
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel>\
         <title>articles</title><link>{origin}/</link><description>eval</description>{items}\
         </channel></rss>"
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn config_text(feed_url: &str, n: usize) -> String {
    format!(
        "output_dir = \"out\"\nhost_delay = \"0s\"\nhost_concurrency = 8\nconcurrency = 8\n\
         [[feed]]\nid = \"articles\"\nsource = \"feed\"\nurl = \"{feed_url}\"\n\
         allow_private_addresses = true\nrobots = \"off\"\nformats = [\"json\"]\n\
         max_items = {}\nbodies_concurrency = 8\nbodies_delay = \"0s\"\ntimeout = \"60s\"\n\
         bodies_timeout = \"60s\"\n",
        n.max(1)
    )
}

fn router(pages: Arc<HashMap<String, String>>, feed_xml: String) -> axum::Router {
    use axum::extract::Path as UrlPath;
    use axum::http::{StatusCode, header};
    use axum::routing::get;
    axum::Router::new()
        .route(
            "/feed.xml",
            get(move || {
                let xml = feed_xml.clone();
                async move { ([(header::CONTENT_TYPE, "application/rss+xml")], xml) }
            }),
        )
        .route(
            "/p/{id}",
            get(move |UrlPath(id): UrlPath<String>| {
                let pages = pages.clone();
                async move {
                    match pages.get(&id) {
                        Some(html) => Ok((
                            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                            html.clone(),
                        )),
                        None => Err(StatusCode::NOT_FOUND),
                    }
                }
            }),
        )
}

/// Run the feed until a run fills no more bodies; returns link → body
/// HTML and the number of runs.
async fn fetch_all_bodies(
    config: &crate::config::Config,
) -> Result<(HashMap<String, String>, usize), EvalError> {
    let fail = |message: String| EvalError::Extract {
        path: config.path.clone(),
        message,
    };
    let templates = crate::daemon::load_templates(config).map_err(|e| fail(e.to_string()))?;
    let services = crate::refresh::Services::open(config, templates)
        .map_err(|e| fail(crate::refresh::anyhow_like(&e)))?;
    let feed = &config.feeds[0];
    let mut runs = 0;
    let max_runs = feed.max_items / crate::refresh::MAX_BODIES_PER_RUN + 3;
    while runs < max_runs {
        runs += 1;
        let report = crate::refresh::run_feed(&services, config, feed, Utc::now())
            .await
            .map_err(|e| fail(crate::refresh::anyhow_like(&e)))?;
        if report.bodies_filled + report.bodies_failed == 0 {
            break;
        }
    }
    let keep = Retention {
        max_items: usize::MAX,
        max_age: None,
    };
    let items = services
        .store
        .published_items(&feed.id, Utc::now(), &keep)
        .map_err(|e| fail(crate::refresh::anyhow_like(&e)))?;
    let bodies = items
        .into_iter()
        .filter_map(|i| Some((i.link?.to_string(), i.body_html?)))
        .collect();
    Ok((bodies, runs))
}

fn html_text(html: &str) -> String {
    let doc = crate::extract::dom::parse(html);
    doc.text(0)
}
