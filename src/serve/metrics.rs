//! Prometheus metrics of the daemon: what the scheduler records after each
//! run and fetch, and what `/metrics` renders.
//!
//! Families (all prefixed `feedmine_`):
//! - `runs_total{feed,outcome}` counter, outcome = published | not_modified |
//!   degraded | failed; `run_failures_total{feed}` counter;
//!   `run_duration_seconds` histogram; `not_modified_total` counter (runs whose
//!   list page answered 304).
//! - `records{feed}` gauge (records found by the last run that parsed the
//!   page) and `items_published{feed}` gauge (items in the published feed).
//! - `fetch_duration_seconds{kind}` histogram and `fetch_errors_total{kind}`
//!   counter, kind = list | article.
//! - `feeds` gauge (feeds loaded) and `build_info{version}` gauge (always 1).
//! - On a shared state (PostgreSQL): `instances_alive` gauge (instances
//!   sharing it, this one included) and `leases_held` gauge (feeds this
//!   instance is running now); both stay 0 on SQLite.
//!
//! Invariants: [`Metrics`] is an `Arc` around one registry, so clones share
//! every value and recording never blocks for long (atomics, plus a short
//! `RwLock` per labelled family). [`Metrics::render`] is OpenMetrics 1.0 text;
//! it avoids the `info` type and `# UNIT` lines so the same text also parses as
//! Prometheus text format 0.0.4 (where `# EOF` is just a comment).

use std::sync::Arc;
use std::time::Duration;

use std::fmt::Write as _;

use prometheus_client::encoding::{EncodeLabelSet, EncodeLabelValue, LabelValueEncoder};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use crate::serve::status::RunOutcome;

/// Counters and histograms of the daemon, shared by the scheduler and the
/// server. Cheap to clone: clones share the same values.
#[derive(Debug, Clone)]
pub struct Metrics {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    registry: Registry,
    runs: Family<RunLabels, Counter>,
    run_failures: Family<FeedLabel, Counter>,
    run_duration: Histogram,
    not_modified: Counter,
    records: Family<FeedLabel, Gauge>,
    items_published: Family<FeedLabel, Gauge>,
    fetch_duration: Family<KindLabel, Histogram>,
    fetch_errors: Family<KindLabel, Counter>,
    feeds: Gauge,
    instances_alive: Gauge,
    leases_held: Gauge,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RunLabels {
    feed: FeedName,
    outcome: OutcomeLabel,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FeedLabel {
    feed: FeedName,
}

/// A feed id as a label value. prometheus-client writes label values
/// verbatim, so the exposition escapes (`\\`, `\"`, `\n`) are applied here;
/// config ids never need them, but the API takes any `&str`.
#[derive(Debug, Clone, Hash, PartialEq, Eq)]
struct FeedName(String);

impl EncodeLabelValue for FeedName {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> Result<(), std::fmt::Error> {
        for c in self.0.chars() {
            match c {
                '\\' => encoder.write_str("\\\\")?,
                '"' => encoder.write_str("\\\"")?,
                '\n' => encoder.write_str("\\n")?,
                c => encoder.write_char(c)?,
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: FetchKind,
}

#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VersionLabel {
    version: &'static str,
}

/// `outcome` label value of `feedmine_runs_total` (lower-case variant names).
#[derive(Debug, Clone, Copy, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
enum OutcomeLabel {
    published,
    not_modified,
    degraded,
    failed,
}

impl From<&RunOutcome> for OutcomeLabel {
    fn from(outcome: &RunOutcome) -> Self {
        match outcome {
            RunOutcome::Published => OutcomeLabel::published,
            RunOutcome::NotModified => OutcomeLabel::not_modified,
            RunOutcome::Degraded => OutcomeLabel::degraded,
            RunOutcome::Failed => OutcomeLabel::failed,
        }
    }
}

/// Histogram buckets of a whole feed run, in seconds: 0.1 s … ~410 s
/// (a run fetches a list page and up to a few dozen article pages).
fn run_buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(0.1, 2.0, 13)
}

/// Histogram buckets of one HTTP fetch, in seconds: 10 ms … ~41 s.
fn fetch_buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(0.01, 2.0, 13)
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        let mut registry = Registry::default();
        let runs = Family::<RunLabels, Counter>::default();
        registry.register(
            "feedmine_runs",
            "Finished feed runs, by feed and outcome (published, not_modified, degraded, failed)",
            runs.clone(),
        );
        let run_failures = Family::<FeedLabel, Counter>::default();
        registry.register(
            "feedmine_run_failures",
            "Feed runs that failed (previous files stay published), by feed",
            run_failures.clone(),
        );
        let run_duration = Histogram::new(run_buckets());
        registry.register(
            "feedmine_run_duration_seconds",
            "Wall time of one feed run, fetches included",
            run_duration.clone(),
        );
        let not_modified = Counter::default();
        registry.register(
            "feedmine_not_modified",
            "Feed runs whose list page answered 304 Not Modified",
            not_modified.clone(),
        );
        let records = Family::<FeedLabel, Gauge>::default();
        registry.register(
            "feedmine_records",
            "Records found on the list page by the feed's last run that parsed it",
            records.clone(),
        );
        let items_published = Family::<FeedLabel, Gauge>::default();
        registry.register(
            "feedmine_items_published",
            "Items in the feed's published documents after its last successful run",
            items_published.clone(),
        );
        let fetch_duration = Family::<KindLabel, Histogram>::new_with_constructor(
            (|| Histogram::new(fetch_buckets())) as fn() -> Histogram,
        );
        registry.register(
            "feedmine_fetch_duration_seconds",
            "Latency of one HTTP fetch, successful or not, by page kind (list, article)",
            fetch_duration.clone(),
        );
        let fetch_errors = Family::<KindLabel, Counter>::default();
        registry.register(
            "feedmine_fetch_errors",
            "HTTP fetches that failed, by page kind (list, article)",
            fetch_errors.clone(),
        );
        let feeds = Gauge::default();
        registry.register(
            "feedmine_feeds",
            "Feeds loaded from the config",
            feeds.clone(),
        );
        let instances_alive = Gauge::default();
        registry.register(
            "feedmine_instances_alive",
            "Instances sharing the state database (this one included; 0 on SQLite)",
            instances_alive.clone(),
        );
        let leases_held = Gauge::default();
        registry.register(
            "feedmine_leases_held",
            "Feed leases this instance holds now (feeds it is running)",
            leases_held.clone(),
        );
        let build_info = Family::<VersionLabel, Gauge>::default();
        build_info
            .get_or_create(&VersionLabel {
                version: env!("CARGO_PKG_VERSION"),
            })
            .set(1);
        registry.register(
            "feedmine_build_info",
            "Always 1; the label says which feedmine version is running",
            build_info,
        );
        // Both kinds exist from the start so `rate()` has a zero to start from.
        for kind in [FetchKind::List, FetchKind::Article] {
            let _ = fetch_errors.get_or_create(&KindLabel { kind });
        }
        Metrics {
            inner: Arc::new(Inner {
                registry,
                runs,
                run_failures,
                run_duration,
                not_modified,
                records,
                items_published,
                fetch_duration,
                fetch_errors,
                feeds,
                instances_alive,
                leases_held,
            }),
        }
    }

    /// One finished feed run. `records` is the record count of the list
    /// page (0 when it was not parsed); `items_published` the items in the
    /// published feed. The per-feed gauges keep their previous value when the
    /// run did not produce a new one: `records` only changes on runs that
    /// parsed the page (published, degraded), `items_published` on every run
    /// that did not fail.
    pub fn record_run(
        &self,
        feed: &str,
        outcome: &RunOutcome,
        duration: Duration,
        records: usize,
        items_published: usize,
    ) {
        let inner = &self.inner;
        inner
            .runs
            .get_or_create(&RunLabels {
                feed: FeedName(feed.to_owned()),
                outcome: outcome.into(),
            })
            .inc();
        inner.run_duration.observe(duration.as_secs_f64());
        let feed_label = FeedLabel {
            feed: FeedName(feed.to_owned()),
        };
        match outcome {
            RunOutcome::Failed => {
                inner.run_failures.get_or_create(&feed_label).inc();
            }
            RunOutcome::NotModified => {
                inner.not_modified.inc();
                set_gauge(&inner.items_published, &feed_label, items_published);
            }
            RunOutcome::Published | RunOutcome::Degraded => {
                set_gauge(&inner.records, &feed_label, records);
                set_gauge(&inner.items_published, &feed_label, items_published);
            }
        }
        // A feed that never failed still shows `run_failures_total 0`.
        let _ = inner.run_failures.get_or_create(&feed_label);
    }

    /// One HTTP fetch (list or article page), successful or not.
    pub fn record_fetch(&self, kind: FetchKind, latency: Duration, ok: bool) {
        let label = KindLabel { kind };
        self.inner
            .fetch_duration
            .get_or_create(&label)
            .observe(latency.as_secs_f64());
        if !ok {
            self.inner.fetch_errors.get_or_create(&label).inc();
        }
    }

    /// How many feeds are loaded (after start-up and every config reload).
    pub fn set_feeds(&self, feeds: usize) {
        self.inner.feeds.set(gauge_value(feeds));
    }

    /// The shared state's view at the last heartbeat: instances alive and
    /// leases this instance holds.
    pub fn set_cluster(&self, instances_alive: usize, leases_held: usize) {
        self.inner.instances_alive.set(gauge_value(instances_alive));
        self.inner.leases_held.set(gauge_value(leases_held));
    }

    /// Drops the per-feed gauges of a feed a config reload removed, so it
    /// stops showing a stale item count. Its counters stay (they are totals).
    pub fn remove_feed(&self, feed: &str) {
        let label = FeedLabel {
            feed: FeedName(feed.to_owned()),
        };
        self.inner.records.remove(&label);
        self.inner.items_published.remove(&label);
    }

    /// OpenMetrics text exposition of everything (ends with `# EOF`).
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(4096);
        // Writing into a String cannot fail; an encoder error would leave a
        // truncated exposition, which a scraper rejects anyway.
        if let Err(e) = prometheus_client::encoding::text::encode(&mut out, &self.inner.registry) {
            tracing::error!("rendering metrics failed: {e}");
        }
        out
    }
}

fn gauge_value(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn set_gauge(family: &Family<FeedLabel, Gauge>, label: &FeedLabel, n: usize) {
    family.get_or_create(label).set(gauge_value(n));
}

/// Which kind of page a fetch was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FetchKind {
    List,
    Article,
}

impl FetchKind {
    /// The `kind` label value: `list` or `article`.
    pub fn label(self) -> &'static str {
        match self {
            FetchKind::List => "list",
            FetchKind::Article => "article",
        }
    }
}

impl EncodeLabelValue for FetchKind {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> Result<(), std::fmt::Error> {
        encoder.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of the sample line that starts with `prefix` followed by a
    /// space, e.g. `feedmine_runs_total{feed="a",outcome="failed"}`.
    fn sample(text: &str, prefix: &str) -> Option<f64> {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix)?.strip_prefix(' '))
            .map(|v| v.trim().parse().unwrap())
    }

    #[test]
    fn records_runs_and_fetches_and_renders_them() {
        let m = Metrics::new();
        let clone = m.clone();
        m.record_run(
            "news",
            &RunOutcome::Published,
            Duration::from_millis(1500),
            24,
            20,
        );
        m.record_run(
            "news",
            &RunOutcome::NotModified,
            Duration::from_millis(200),
            0,
            20,
        );
        clone.record_run("news", &RunOutcome::Failed, Duration::from_secs(3), 0, 0);
        m.record_run("blog", &RunOutcome::Degraded, Duration::from_secs(1), 3, 9);
        m.record_fetch(FetchKind::List, Duration::from_millis(120), true);
        m.record_fetch(FetchKind::Article, Duration::from_millis(30), false);
        m.record_fetch(FetchKind::Article, Duration::from_millis(40), true);
        m.set_feeds(2);

        let text = m.render();
        assert!(text.ends_with("# EOF\n"), "{text}");
        assert!(text.contains("# TYPE feedmine_runs counter"), "{text}");
        assert!(
            text.contains("# HELP feedmine_run_duration_seconds "),
            "{text}"
        );
        let v = |p: &str| sample(&text, p).unwrap_or_else(|| panic!("no {p} in\n{text}"));
        assert_eq!(
            v(r#"feedmine_runs_total{feed="news",outcome="published"}"#),
            1.0
        );
        assert_eq!(
            v(r#"feedmine_runs_total{feed="news",outcome="not_modified"}"#),
            1.0
        );
        assert_eq!(
            v(r#"feedmine_runs_total{feed="news",outcome="failed"}"#),
            1.0
        );
        assert_eq!(
            v(r#"feedmine_runs_total{feed="blog",outcome="degraded"}"#),
            1.0
        );
        assert_eq!(v(r#"feedmine_run_failures_total{feed="news"}"#), 1.0);
        assert_eq!(v(r#"feedmine_run_failures_total{feed="blog"}"#), 0.0);
        assert_eq!(v("feedmine_not_modified_total"), 1.0);
        assert_eq!(v("feedmine_run_duration_seconds_count"), 4.0);
        assert!((v("feedmine_run_duration_seconds_sum") - 5.7).abs() < 1e-9);
        assert_eq!(v(r#"feedmine_run_duration_seconds_bucket{le="1.6"}"#), 3.0);
        // The failed run kept the gauges of the published one; 304 kept records.
        assert_eq!(v(r#"feedmine_records{feed="news"}"#), 24.0);
        assert_eq!(v(r#"feedmine_items_published{feed="news"}"#), 20.0);
        assert_eq!(v(r#"feedmine_records{feed="blog"}"#), 3.0);
        assert_eq!(
            v(r#"feedmine_fetch_duration_seconds_count{kind="article"}"#),
            2.0
        );
        assert_eq!(
            v(r#"feedmine_fetch_duration_seconds_count{kind="list"}"#),
            1.0
        );
        assert_eq!(v(r#"feedmine_fetch_errors_total{kind="article"}"#), 1.0);
        assert_eq!(v(r#"feedmine_fetch_errors_total{kind="list"}"#), 0.0);
        assert_eq!(v("feedmine_feeds"), 2.0);
        let version = format!(
            r#"feedmine_build_info{{version="{}"}}"#,
            env!("CARGO_PKG_VERSION")
        );
        assert_eq!(v(&version), 1.0);
        // 0.0.4 parsers know no `info`/`unit` lines.
        assert!(
            !text.contains(" info\n") && !text.contains("# UNIT"),
            "{text}"
        );

        m.remove_feed("news");
        let text = m.render();
        assert_eq!(sample(&text, r#"feedmine_records{feed="news"}"#), None);
        assert_eq!(sample(&text, r#"feedmine_records{feed="blog"}"#), Some(3.0));
        assert_eq!(
            sample(
                &text,
                r#"feedmine_runs_total{feed="news",outcome="failed"}"#
            ),
            Some(1.0)
        );
    }

    #[test]
    fn label_values_are_escaped() {
        let m = Metrics::new();
        m.record_run("a\"b\\c\nd", &RunOutcome::Published, Duration::ZERO, 1, 1);
        let text = m.render();
        assert!(
            text.contains(r#"feedmine_records{feed="a\"b\\c\nd"} 1"#),
            "{text}"
        );
    }
}
