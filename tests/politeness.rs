//! `politeness::Politeness` through `Fetcher::with_politeness`, and
//! `robots::RobotsCache`, against the local test server.
//!
//! Timing is measured with the server's recorded arrival times. Only
//! orderings and lower bounds are asserted (a busy machine makes everything
//! slower, never faster); lower bounds allow 50 ms for the difference
//! between a request's start and its arrival.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Reply, TestServer};
use feedmine::fetch::politeness::{Backoff, Limits, Politeness};
use feedmine::fetch::robots::RobotsCache;
use feedmine::fetch::{FetchError, FetchOptions, Fetcher};
use futures_util::future::join_all;
use url::Url;

/// Allowance between a request's start (client) and its arrival (server).
const SLACK: Duration = Duration::from_millis(50);

fn polite_fetcher(limits: Limits) -> Fetcher {
    let opts = FetchOptions {
        connect_timeout: Duration::from_secs(2),
        read_timeout: Duration::from_secs(5),
        total_timeout: Duration::from_secs(10),
        ..FetchOptions::default()
    };
    Fetcher::new(opts)
        .unwrap()
        .with_politeness(Politeness::new(limits))
}

fn limits(global: usize, per_host: usize, min_delay_ms: u64) -> Limits {
    Limits {
        global,
        per_host,
        min_delay: Duration::from_millis(min_delay_ms),
    }
}

/// Fetches all `urls` at once; every fetch must succeed.
async fn fetch_all(fetcher: &Fetcher, urls: &[Url]) {
    let results = join_all(urls.iter().map(|url| fetcher.fetch(url))).await;
    for (url, result) in urls.iter().zip(results) {
        if let Err(e) = result {
            panic!("{url}: {e}");
        }
    }
}

fn gaps(times: &[Instant]) -> Vec<Duration> {
    times.windows(2).map(|w| w[1] - w[0]).collect()
}

#[test]
fn defaults_are_the_documented_ones() {
    let limits = Limits::default();
    assert_eq!(limits.global, 16);
    assert_eq!(limits.per_host, 2);
    assert_eq!(limits.min_delay, Duration::from_secs(1));
    let backoff = Backoff::default();
    assert_eq!(backoff.base, Duration::from_secs(60));
    assert_eq!(backoff.max, Duration::from_secs(24 * 3600));
}

#[test]
fn backoff_grows_caps_and_jitters_deterministically_per_seed() {
    let backoff = Backoff {
        base: Duration::from_secs(10),
        max: Duration::from_secs(300),
    };
    let mut rng = fastrand::Rng::with_seed(42);
    assert_eq!(backoff.delay(0, &mut rng), Duration::ZERO);
    // Ceilings 10, 20, 40, 80, 160, then capped at 300.
    let ceilings = [10, 20, 40, 80, 160, 300, 300, 300];
    for (n, ceiling) in (1..).zip(ceilings) {
        let ceiling = Duration::from_secs(ceiling);
        for _ in 0..100 {
            let d = backoff.delay(n, &mut rng);
            assert!(d >= ceiling / 2 && d <= ceiling, "n={n}: {d:?}");
        }
    }
    let sequence = |seed| {
        let mut rng = fastrand::Rng::with_seed(seed);
        (1..=8)
            .map(|n| backoff.delay(n, &mut rng))
            .collect::<Vec<_>>()
    };
    assert_eq!(sequence(7), sequence(7));
    assert_ne!(sequence(7), sequence(8));
}

#[tokio::test]
async fn per_host_concurrency_never_exceeds_the_limit() {
    let server = TestServer::start(vec![(
        "/slow",
        Reply::html("<p>slow page</p>").delayed(Duration::from_millis(150)),
    )])
    .await;
    let urls: Vec<Url> = (0..8)
        .map(|i| server.url(&format!("/slow?i={i}")))
        .collect();

    fetch_all(&polite_fetcher(limits(16, 2, 0)), &urls).await;
    assert_eq!(server.hits("/slow"), 8);
    assert_eq!(server.max_in_flight(), 2);

    // Control: without politeness the same burst overlaps more, so the
    // assertion above is not vacuous.
    let control = TestServer::start(vec![(
        "/slow",
        Reply::html("<p>slow page</p>").delayed(Duration::from_millis(150)),
    )])
    .await;
    let urls: Vec<Url> = (0..8)
        .map(|i| control.url(&format!("/slow?i={i}")))
        .collect();
    let plain = Fetcher::new(FetchOptions::default()).unwrap();
    fetch_all(&plain, &urls).await;
    assert!(control.max_in_flight() > 2, "{}", control.max_in_flight());
}

#[tokio::test]
async fn global_limit_caps_all_hosts_together() {
    let server = TestServer::start(vec![(
        "/slow",
        Reply::html("<p>slow page</p>").delayed(Duration::from_millis(100)),
    )])
    .await;
    let urls: Vec<Url> = (0..3)
        .flat_map(|i| {
            let path = format!("/slow?i={i}");
            [server.url(&path), server.url_on("localhost", &path)]
        })
        .collect();
    fetch_all(&polite_fetcher(limits(1, 2, 0)), &urls).await;
    assert_eq!(server.hits("/slow"), 6);
    assert_eq!(server.max_in_flight(), 1);
}

#[tokio::test]
async fn min_delay_separates_request_starts_to_one_host() {
    let server = TestServer::start(vec![("/page", Reply::html("<p>page</p>"))]).await;
    let urls: Vec<Url> = (0..4)
        .map(|i| server.url(&format!("/page?i={i}")))
        .collect();
    let delay = Duration::from_millis(300);
    // per_host 4: only the delay spaces them out.
    fetch_all(&polite_fetcher(limits(16, 4, 300)), &urls).await;
    let times = server.times("/page");
    assert_eq!(times.len(), 4);
    for gap in gaps(&times) {
        assert!(gap + SLACK >= delay, "{gap:?} between starts");
    }
}

#[tokio::test]
async fn two_hosts_proceed_in_parallel() {
    let server = TestServer::start(vec![
        ("/a", Reply::html("<p>host a</p>")),
        ("/b", Reply::html("<p>host b</p>")),
    ])
    .await;
    // Same server under two host names: 127.0.0.1 and localhost.
    let urls = [
        server.url("/a?n=1"),
        server.url("/a?n=2"),
        server.url_on("localhost", "/b?n=1"),
        server.url_on("localhost", "/b?n=2"),
    ];
    fetch_all(&polite_fetcher(limits(16, 1, 400)), &urls).await;
    let a = server.times("/a");
    let b = server.times("/b");
    assert_eq!((a.len(), b.len()), (2, 2));
    // Each host keeps its own spacing...
    assert!(a[1] - a[0] + SLACK >= Duration::from_millis(400));
    assert!(b[1] - b[0] + SLACK >= Duration::from_millis(400));
    // ...but neither waits for the other: both first requests come before
    // either second one.
    assert!(b[0] < a[1] && a[0] < b[1], "{a:?} {b:?}");
}

#[tokio::test]
async fn a_host_waiting_for_its_delay_holds_no_global_slot() {
    let server = TestServer::start(vec![
        ("/a", Reply::html("<p>host a</p>")),
        ("/b", Reply::html("<p>host b</p>")),
    ])
    .await;
    // One global slot; host a's second request must wait 500 ms for its
    // turn. Host b must not wait behind it.
    let urls = [
        server.url("/a?n=1"),
        server.url("/a?n=2"),
        server.url_on("localhost", "/b"),
    ];
    fetch_all(&polite_fetcher(limits(1, 2, 500)), &urls).await;
    let a = server.times("/a");
    let b = server.times("/b");
    assert!(b[0] < a[1], "b waited behind a's delay: {a:?} {b:?}");
    assert!(a[1] - a[0] + SLACK >= Duration::from_millis(500));
}

#[tokio::test]
async fn retry_after_on_429_defers_only_that_host() {
    let server = TestServer::start(vec![
        (
            "/limited",
            Reply::Sequence(vec![
                Reply::Status(429, b"<h1>Too many</h1>".to_vec()).with_header("Retry-After", "1"),
                Reply::html("<p>welcome back</p>"),
            ]),
        ),
        ("/other", Reply::html("<p>other host</p>")),
    ])
    .await;
    let fetcher = polite_fetcher(limits(16, 2, 0));
    let limited = server.url("/limited");
    let err = fetcher.fetch(&limited).await.unwrap_err();
    assert!(
        matches!(err, FetchError::Status { status: 429, .. }),
        "{err:?}"
    );
    assert_eq!(err.retry_after(), Some(Duration::from_secs(1)));
    let politeness = fetcher.politeness().unwrap();
    assert_eq!(politeness.deferred_for("localhost"), None);

    let other_host = server.url_on("localhost", "/other");
    let (again, other) = tokio::join!(fetcher.fetch(&limited), fetcher.fetch(&other_host));
    again.unwrap();
    other.unwrap();
    let limited_times = server.times("/limited");
    let other_times = server.times("/other");
    assert!(limited_times[1] - limited_times[0] + SLACK >= Duration::from_secs(1));
    // The other host was not deferred.
    assert!(other_times[0] < limited_times[1]);
}

#[tokio::test]
async fn same_host_redirects_share_one_turn() {
    let server = TestServer::start(vec![
        ("/old", Reply::Redirect("/new".into())),
        ("/new", Reply::html("<p>moved</p>")),
    ])
    .await;
    let fetcher = polite_fetcher(limits(16, 1, 400));
    fetcher.fetch(&server.url("/old")).await.unwrap();
    fetcher.fetch(&server.url("/old")).await.unwrap();
    let old = server.times("/old");
    let new = server.times("/new");
    // The redirect hop did not wait for another turn: it came before the
    // next fetch's first request, which did wait.
    assert!(new[0] < old[1]);
    assert!(old[1] - old[0] + SLACK >= Duration::from_millis(400));
}

const ROBOTS: &str = "\
# Rules for everyone else
User-agent: *
Disallow: /

User-agent: feedmine
Disallow: /private/
Allow: /private/press-kit.html
Crawl-delay: 2
";

#[tokio::test]
async fn robots_rules_for_our_token_are_applied_and_fetched_once() {
    let server = TestServer::start(vec![("/robots.txt", Reply::bytes("text/plain", ROBOTS))]).await;
    let fetcher = polite_fetcher(limits(16, 2, 0));
    let robots = RobotsCache::new(feedmine::fetch::DEFAULT_USER_AGENT);
    assert_eq!(robots.token(), "feedmine");

    assert!(
        robots
            .allowed(&fetcher, &server.url("/news/2026/11/22/budget.html"))
            .await
    );
    assert!(
        !robots
            .allowed(&fetcher, &server.url("/private/staff.html"))
            .await
    );
    assert!(
        robots
            .allowed(&fetcher, &server.url("/private/press-kit.html"))
            .await
    );

    // Many checks at once and in a row: still one fetch.
    let urls: Vec<Url> = (0..20).map(|i| server.url(&format!("/news/{i}"))).collect();
    let verdicts = join_all(urls.iter().map(|u| robots.allowed(&fetcher, u))).await;
    assert!(verdicts.into_iter().all(|allowed| allowed));
    assert_eq!(server.hits("/robots.txt"), 1);

    // Crawl-delay is exposed and applied to the fetcher's scheduler.
    let page = server.url("/news/1");
    assert_eq!(robots.crawl_delay(&page), Some(Duration::from_secs(2)));
    let politeness = Arc::clone(fetcher.politeness().unwrap());
    assert_eq!(politeness.host_delay("127.0.0.1"), Duration::from_secs(2));

    // Another user agent falls back to the `*` group.
    // (Checked with a fetcher outside the scheduler, which now spaces
    // requests to this host 2 s apart.)
    let other = RobotsCache::new("OtherBot/1.0");
    let plain = Fetcher::new(FetchOptions::default()).unwrap();
    assert!(!other.allowed(&plain, &page).await);
    assert_eq!(server.hits("/robots.txt"), 2);
}

#[tokio::test]
async fn missing_robots_allows_everything() {
    // No route: the server answers 404.
    let server = TestServer::start(vec![("/news", Reply::html("<p>news</p>"))]).await;
    let fetcher = polite_fetcher(limits(16, 2, 0));
    let robots = RobotsCache::new("feedmine");
    assert!(robots.allowed(&fetcher, &server.url("/news")).await);
    assert!(
        robots
            .allowed(&fetcher, &server.url("/private/anything"))
            .await
    );
    assert_eq!(server.hits("/robots.txt"), 1);
    assert_eq!(robots.crawl_delay(&server.url("/news")), None);
}

#[tokio::test]
async fn unreachable_robots_disallows_the_origin_until_retried() {
    let server = TestServer::start(vec![(
        "/robots.txt",
        Reply::Status(503, b"<h1>down</h1>".to_vec()),
    )])
    .await;
    let fetcher = polite_fetcher(limits(16, 2, 0));
    let robots = RobotsCache::new("feedmine");
    assert!(!robots.allowed(&fetcher, &server.url("/news")).await);
    // Remembered (for an hour), not refetched on every check.
    assert!(!robots.allowed(&fetcher, &server.url("/other")).await);
    assert_eq!(server.hits("/robots.txt"), 1);

    // A connection failure counts the same.
    let refused = common::refused_url().await;
    assert!(!robots.allowed(&fetcher, &refused).await);
    // Local files have no robots.txt.
    let file = Url::parse("file:///tmp/list.html").unwrap();
    assert!(robots.allowed(&fetcher, &file).await);
}

#[tokio::test]
async fn robots_past_500_kib_is_ignored() {
    let mut txt = String::from("User-agent: feedmine\nDisallow: /early/\n");
    while txt.len() < 520 * 1024 {
        txt.push_str("# padding comment line that makes this robots.txt very large\n");
    }
    txt.push_str("Disallow: /late/\n");
    let server = TestServer::start(vec![("/robots.txt", Reply::bytes("text/plain", txt))]).await;
    let fetcher = polite_fetcher(limits(16, 2, 0));
    let robots = RobotsCache::new("feedmine");
    assert!(!robots.allowed(&fetcher, &server.url("/early/a")).await);
    assert!(robots.allowed(&fetcher, &server.url("/late/a")).await);
}

#[tokio::test]
async fn redirect_to_another_host_takes_that_hosts_turn() {
    let server = TestServer::start(vec![("/b", Reply::html("<p>host b</p>"))]).await;
    let on_b = server.url_on("localhost", "/b");
    server.set("/jump", Reply::Redirect(on_b.to_string()));
    let fetcher = polite_fetcher(limits(16, 1, 400));
    // Host b (localhost) was just visited; a redirect from host a
    // (127.0.0.1) to it must wait for b's delay, not ride on a's turn.
    fetcher.fetch(&on_b).await.unwrap();
    let page = fetcher.fetch(&server.url("/jump")).await.unwrap();
    assert_eq!(page.final_url, on_b);
    let b = server.times("/b");
    let jump = server.times("/jump");
    assert_eq!(b.len(), 2);
    assert!(b[1] - b[0] + SLACK >= Duration::from_millis(400), "{b:?}");
    assert!(jump[0] < b[1]);
}

#[tokio::test]
async fn waiting_for_a_turn_does_not_count_against_the_total_timeout() {
    let server = TestServer::start(vec![("/page", Reply::html("<p>page</p>"))]).await;
    let opts = FetchOptions {
        total_timeout: Duration::from_millis(500),
        ..FetchOptions::default()
    };
    let fetcher = Fetcher::new(opts)
        .unwrap()
        .with_politeness(Politeness::new(limits(16, 1, 1200)));
    // The second fetch waits ~1.2 s for its turn, longer than its 500 ms
    // budget, and must still succeed.
    fetcher.fetch(&server.url("/page?n=1")).await.unwrap();
    fetcher.fetch(&server.url("/page?n=2")).await.unwrap();
    let times = server.times("/page");
    assert!(times[1] - times[0] + SLACK >= Duration::from_millis(1200));
}
