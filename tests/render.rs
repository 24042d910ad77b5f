//! `render = "chromium"` end to end with Debian's Chromium and `feedmine
//! once`: a list built by script from `/api/items` is published; the
//! page's requests to internal addresses and `file:` are refused (the
//! "internal" listener on 127.0.0.2 sees nothing); a page that never goes
//! quiet is read at the timeout; a page that hangs its renderer fails its
//! feed only. Skipped with one line when Chromium is absent.

mod common;

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::Ordering;

use common::{Reply, TestServer, internal_service};

fn chromium_present() -> bool {
    let found = Command::new("sh")
        .args(["-c", "command -v chromium || command -v chromium-browser"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: Chromium not found on PATH (apt-get install chromium)");
    }
    found
}

/// A job board whose list is fetched by script and rendered in the
/// browser; it also tries to reach inside.
fn app_page(internal_port: u16) -> String {
    format!(
        r#"<!doctype html><html><head><meta charset=utf-8><title>Harbour Jobs</title></head>
<body><header><h1>Harbour Jobs</h1></header><main id="app"><p class="loading">Loading…</p></main>
<img src="http://127.0.0.2:{internal_port}/pixel.gif" alt="">
<script>
for (const u of ["http://127.0.0.2:{internal_port}/secret", "http://169.254.169.254/latest/meta-data/",
                 "file:///etc/passwd", "http://localhost:{internal_port}/admin"]) {{
  fetch(u).catch(() => {{}});
}}
fetch("/api/items").then(r => r.json()).then(items => {{
  const main = document.getElementById("app");
  main.innerHTML = items.map(i =>
    `<article class="job"><h2><a href="/jobs/${{i.id}}">${{i.title}}</a></h2>
     <time datetime="${{i.posted}}">${{i.posted}}</time><p>${{i.text}}</p></article>`).join("");
}});
</script></body></html>"#
    )
}

fn items_json() -> String {
    let items: Vec<String> = (1..=5)
        .map(|i| {
            format!(
                r#"{{"id":{i},"title":"Deck officer wanted for ferry route {i}","posted":"2026-11-0{i}","text":"Two weeks on, two weeks off; watchkeeping certificate required."}}"#
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// A job advert whose text is written by script.
fn job_page(i: usize) -> String {
    format!(
        r#"<!doctype html><html><head><title>Deck officer {i}</title></head><body>
<header><nav><a href="/">Home</a> <a href="/jobs">Jobs</a></nav></header><main id="job"></main>
<script>
document.getElementById("job").innerHTML = `<article><h1>Deck officer for route {i}</h1>
<p>The harbour authority is looking for a deck officer for the ferry on route {i}. You keep
watches on the bridge, lead the mooring crew and look after the passengers' safety drills.</p>
<p>The rotation is two weeks on and two weeks off, with travel paid from any port in the
country. A watchkeeping certificate and two years at sea are required for this position.</p></article>`;
</script></body></html>"#
    )
}

fn once(config: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["once", "--config"])
        .arg(config)
        .env("RUST_LOG", "warn,feedmine::refresh=info")
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_list_built_by_script_is_rendered_and_the_page_cannot_reach_inside() {
    if !chromium_present() {
        return;
    }
    let (internal_port, internal_hits) = internal_service();
    let mut routes = vec![
        ("/jobs".to_string(), Reply::html(app_page(internal_port))),
        (
            "/api/items".to_string(),
            Reply::bytes("application/json", items_json()),
        ),
    ];
    for i in 1..=5 {
        routes.push((format!("/jobs/{i}"), Reply::html(job_page(i))));
    }
    let server = TestServer::start(routes).await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("feeds.toml");
    std::fs::write(
        &config,
        format!(
            "output_dir = \"out\"\n\n[[feed]]\nid = \"static\"\nurl = \"{0}\"\nbodies = false\n\n\
             [[feed]]\nid = \"jobs\"\nurl = \"{0}\"\nrender = \"chromium\"\ntimeout = \"20s\"\n\
             bodies_render = \"chromium\"\nbodies_delay = \"0s\"\nrobots = \"off\"\n",
            server.url("/jobs")
        ),
    )
    .unwrap();
    let out = tokio::task::spawn_blocking(move || once(&config))
        .await
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        stdout.contains("feed jobs: published (5 records, 5 new, 5 items, 5 bodies, 0 failed)"),
        "{stdout}{stderr}"
    );
    let rss = std::fs::read_to_string(dir.path().join("out/jobs.xml")).unwrap();
    assert!(
        rss.contains("Deck officer wanted for ferry route 3") && rss.contains("/jobs/3</link>"),
        "{rss}"
    );
    // Without the browser the same page has nothing, and says why.
    let static_line = stderr
        .lines()
        .find(|l| l.contains("feed static"))
        .unwrap_or_default();
    assert!(static_line.contains("built by JavaScript"), "{stderr}");
    // Nothing reached the internal service; each refusal was logged.
    assert_eq!(internal_hits.load(Ordering::SeqCst), 0, "{stderr}");
    for refused in ["127.0.0.2", "169.254.169.254", "localhost"] {
        assert!(
            stderr
                .lines()
                .any(|l| l.contains("not allowed to load") && l.contains(refused)),
            "{refused} not refused: {stderr}"
        );
    }
    // The bodies were written by the article pages' scripts.
    assert!(
        rss.contains("lead the mooring crew") && rss.contains("route 4"),
        "{rss}"
    );
    // Chromium itself never lets an http page read file: URLs.
    assert!(!rss.contains("root:"), "{rss}");
    assert_eq!(
        server.hits("/api/items"),
        1,
        "the page's own API was reachable"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_that_never_goes_quiet_is_read_at_the_timeout_and_a_hung_one_fails_alone() {
    if !chromium_present() {
        return;
    }
    let polling = r#"<!doctype html><html><head><title>Live scores</title></head><body><main id="m"></main>
<script>
const rows = [1,2,3,4].map(i => `<article class="score"><h2><a href="/match/${i}">Harbour FC against visitors, match ${i}</a></h2><p>Second half under way on the quay ground.</p></article>`);
document.getElementById("m").innerHTML = rows.join("");
setInterval(() => fetch("/api/ping?" + Date.now()).catch(() => {}), 100);
</script></body></html>"#;
    let hung = r#"<!doctype html><html><head><title>Broken</title></head><body>
<script>while (true) {}</script></body></html>"#;
    let server = TestServer::start(vec![
        ("/live", Reply::html(polling)),
        ("/api/ping", Reply::bytes("application/json", "{}")),
        ("/hung", Reply::html(hung)),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("feeds.toml");
    std::fs::write(
        &config,
        format!(
            "output_dir = \"out\"\n\n[[feed]]\nid = \"live\"\nurl = \"{}\"\nrender = \"chromium\"\n\
             bodies = false\ntimeout = \"8s\"\n\n[[feed]]\nid = \"hung\"\nurl = \"{}\"\n\
             render = \"chromium\"\nbodies = false\ntimeout = \"8s\"\n",
            server.url("/live"),
            server.url("/hung")
        ),
    )
    .unwrap();
    let started = std::time::Instant::now();
    let out = tokio::task::spawn_blocking(move || once(&config))
        .await
        .unwrap();
    let took = started.elapsed();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        stdout.contains("feed live: published (4 records"),
        "{stdout}{stderr}"
    );
    // (It is usually also logged as "kept loading until the timeout"; not
    // asserted: a starved renderer can pause its timers for half a second.)
    let hung_line = stderr
        .lines()
        .find(|l| l.contains("feed hung"))
        .unwrap_or_default();
    assert!(hung_line.contains("did not finish within 8s"), "{stderr}");
    assert_ne!(out.status.code(), Some(0));
    // Bounded: two 8 s renders (at most two at once) and a browser start.
    assert!(took.as_secs() < 60, "took {took:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_browser_that_dies_is_started_again_for_the_next_page() {
    use feedmine::fetch::render::{RenderRequest, Renderer};
    if !chromium_present() {
        return;
    }
    let server = TestServer::start(vec![
        ("/jobs/1", Reply::html(job_page(1))),
        ("/jobs/2", Reply::html(job_page(2))),
    ])
    .await;
    let renderer = Renderer::new(None, 2);
    let request = |path: &str| RenderRequest {
        url: server.url(path),
        timeout: std::time::Duration::from_secs(20),
        wait_for: Some("article h1".into()),
        allow_private: false,
        headers: Vec::new(),
        user_agent: "feedmine-test".into(),
    };
    let first = renderer.render(&request("/jobs/1")).await.unwrap();
    assert!(
        first.html.contains("Deck officer for route 1"),
        "{}",
        first.html
    );
    let pid = renderer.browser_pid().await.expect("a browser runs");
    // The browser dies (OOM killer, a crash): the next page still renders.
    let killed = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let second = renderer.render(&request("/jobs/2")).await.unwrap();
    assert!(second.html.contains("Deck officer for route 2"));
    let new_pid = renderer.browser_pid().await.expect("a browser runs again");
    assert_ne!(pid, new_pid);
    renderer.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn extract_render_reads_an_article_written_by_script() {
    if !chromium_present() {
        return;
    }
    let server = TestServer::start(vec![("/jobs/3", Reply::html(job_page(3)))]).await;
    let url = server.url("/jobs/3").to_string();
    let out = tokio::task::spawn_blocking(move || {
        let run = |extra: &[&str]| {
            Command::new(env!("CARGO_BIN_EXE_feedmine"))
                .arg("extract")
                .arg(&url)
                .args(extra)
                .output()
                .unwrap()
        };
        (run(&[]), run(&["--render"]))
    })
    .await
    .unwrap();
    let (plain, rendered) = out;
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("mooring crew"));
    let text = String::from_utf8_lossy(&rendered.stdout);
    assert!(rendered.status.success(), "{text}");
    assert!(text.contains("lead the mooring crew"), "{text}");
}
