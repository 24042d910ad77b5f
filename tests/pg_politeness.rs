//! Per-host politeness across instances (`fetch::cluster_gate`): several
//! `Politeness` schedulers, each over its own connection to one PostgreSQL
//! state (as separate instances have), share `host_concurrency`,
//! `host_delay` and Retry-After deferrals; a dead instance's slots expire;
//! a lost database falls back to local limits within seconds. Runs on a
//! throw-away PostgreSQL 15 cluster (`common/pg.rs`; skipped with one line
//! without PostgreSQL). No network: the gate is exercised without requests.

#[path = "common/pg.rs"]
mod pg;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use feedmine::fetch::cluster_gate::{ClusterGate, HOLD_MARGIN};
use feedmine::fetch::politeness::{Limits, Politeness};
use feedmine::state::{StateLocation, Store};
use url::Url;

/// One "instance": its own store (pool) and scheduler.
fn instance(url: &str, per_host: usize, delay_ms: u64) -> Arc<Politeness> {
    let location = StateLocation::parse(url, Path::new(".")).unwrap();
    let store = Arc::new(Store::open_location(&location).unwrap());
    let gate = ClusterGate::new(store);
    assert!(gate.is_some(), "a PostgreSQL state is shared");
    Politeness::with_cluster(
        Limits {
            global: 16,
            per_host,
            min_delay: Duration::from_millis(delay_ms),
        },
        gate,
    )
}

fn host_url() -> Url {
    Url::parse("http://news.example/list").unwrap()
}

async fn start_cluster() -> Option<pg::PgCluster> {
    tokio::task::spawn_blocking(pg::PgCluster::start)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrency_and_spacing_hold_across_instances() {
    let Some(cluster) = start_cluster().await else {
        return;
    };
    let url = cluster.create_database("gate");
    // Concurrency: three instances, 2 slots per host, 4 requests each of
    // 150 ms; no spacing.
    let instances: Vec<_> = (0..3).map(|_| instance(&url, 2, 0)).collect();
    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for p in &instances {
        for _ in 0..4 {
            let (p, in_flight, most) = (p.clone(), in_flight.clone(), most.clone());
            tasks.push(tokio::spawn(async move {
                let _permit = p.acquire(&host_url()).await;
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(150)).await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
            }));
        }
    }
    for t in tasks {
        t.await.unwrap();
    }
    // Each instance alone would allow 2, all three 6.
    assert_eq!(
        most.load(Ordering::SeqCst),
        2,
        "host_concurrency across instances"
    );
    // Released slots are gone (given up on drop, in the background).
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(cluster.psql("gate", "SELECT count(*) FROM host_slots"), "0");

    // Spacing: three instances, 250 ms between starts, 3 requests each.
    let instances: Vec<_> = (0..3).map(|_| instance(&url, 4, 250)).collect();
    let spaced = Url::parse("https://spaced.example/").unwrap();
    let starts = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for p in &instances {
        for _ in 0..3 {
            let (p, starts, spaced) = (p.clone(), starts.clone(), spaced.clone());
            tasks.push(tokio::spawn(async move {
                let _permit = p.acquire(&spaced).await;
                starts.lock().unwrap().push(Instant::now());
            }));
        }
    }
    for t in tasks {
        t.await.unwrap();
    }
    let mut starts = starts.lock().unwrap().clone();
    starts.sort();
    let gaps: Vec<Duration> = starts.windows(2).map(|w| w[1] - w[0]).collect();
    // The database's clock decides; 30 ms for the answers' travel.
    assert!(
        gaps.iter().all(|g| *g >= Duration::from_millis(220)),
        "host_delay across instances: {gaps:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn deferrals_cross_instances_and_a_dead_holders_slot_expires() {
    let Some(cluster) = start_cluster().await else {
        return;
    };
    let url = cluster.create_database("gate");
    let a = instance(&url, 1, 0);
    let b = instance(&url, 1, 0);
    // A Retry-After seen by one instance holds the other back.
    a.defer("news.example", Duration::from_millis(1500));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let t = Instant::now();
    drop(b.acquire(&host_url()).await);
    let waited = t.elapsed();
    assert!(
        waited >= Duration::from_millis(1100) && waited < Duration::from_secs(5),
        "deferred by the other instance: waited {waited:?}"
    );

    // An instance dies holding the only slot (its permit is never
    // dropped): the slot expires after its hold plus the margin.
    let other = Url::parse("http://slow.example/").unwrap();
    std::mem::forget(a.acquire_holding(&other, Duration::from_secs(1)).await);
    let t = Instant::now();
    drop(b.acquire(&other).await);
    let waited = t.elapsed();
    let expiry = Duration::from_secs(1) + HOLD_MARGIN;
    assert!(
        waited >= expiry - Duration::from_millis(300) && waited < expiry + Duration::from_secs(2),
        "the dead holder's slot expired: waited {waited:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_lost_database_falls_back_to_local_limits_quickly() {
    let Some(cluster) = start_cluster().await else {
        return;
    };
    let url = cluster.create_database("gate");
    let a = instance(&url, 1, 0);
    drop(a.acquire(&host_url()).await);
    cluster.stop_server();
    // The first request after the loss waits for the database's error
    // (bounded by the gate timeout), the next ones not at all.
    let t = Instant::now();
    drop(a.acquire(&host_url()).await);
    let first = t.elapsed();
    assert!(first < Duration::from_secs(5), "first request: {first:?}");
    let t = Instant::now();
    for _ in 0..5 {
        drop(a.acquire(&host_url()).await);
    }
    let next = t.elapsed();
    assert!(next < Duration::from_millis(500), "next requests: {next:?}");
}
