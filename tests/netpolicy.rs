//! One address policy and one origin for secrets, end to end with
//! `feedmine once`: a list page's redirect to an internal address is
//! refused (the list URL itself is trusted as written), and the feed's
//! `headers` reach only the list page's origin.

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::Ordering;

use common::{Reply, TestServer, internal_service};

fn feedmine(args: Vec<String>) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

async fn once(config: &Path) -> Output {
    let args = vec![
        "once".into(),
        "--config".into(),
        config.display().to_string(),
    ];
    tokio::task::spawn_blocking(move || feedmine(args))
        .await
        .unwrap()
}

fn write_config(dir: &Path, feeds: &str) -> std::path::PathBuf {
    let path = dir.join("feeds.toml");
    std::fs::write(
        &path,
        format!("output_dir = \"out\"\nhost_delay = \"0s\"\ntimeout = \"3s\"\n\n{feeds}"),
    )
    .unwrap();
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn a_list_page_redirecting_to_an_internal_address_is_refused() {
    let (port, internal_hits) = internal_service();
    let server = TestServer::start(vec![
        (
            "/news",
            Reply::Redirect(format!("http://127.0.0.2:{port}/admin")),
        ),
        (
            "/blog",
            Reply::Redirect(
                "http://169.254.169.254/latest/meta-data/iam/security-credentials/".into(),
            ),
        ),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"news\"\nurl = \"{}\"\nbodies = false\n\n\
             [[feed]]\nid = \"blog\"\nurl = \"{}\"\nbodies = false\n",
            server.url("/news"),
            server.url("/blog")
        ),
    );
    let out = once(&config).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("feed news") && stderr.contains("127.0.0.2"),
        "{stderr}"
    );
    assert!(
        stderr.contains("feed blog") && stderr.contains("169.254.169.254"),
        "{stderr}"
    );
    assert_eq!(
        internal_hits.load(Ordering::SeqCst),
        0,
        "nothing reached it"
    );
    assert!(!dir.path().join("out/news.xml").exists());
    assert!(!dir.path().join("out/blog.xml").exists());

    // The feed that opts in may follow its own redirect inward.
    let config = write_config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"news\"\nurl = \"{}\"\nbodies = false\nallow_private_addresses = true\n",
            server.url("/news")
        ),
    );
    let out = once(&config).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(internal_hits.load(Ordering::SeqCst), 1);
}

fn article(title: &str) -> String {
    format!(
        "<html><body><article><h1>{title}</h1><p>{}</p></article></body></html>",
        "The harbour authority confirmed the change after a long meeting. ".repeat(8)
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn feed_headers_reach_only_the_list_pages_origin() {
    let other = TestServer::start(vec![
        ("/story", Reply::html(article("Elsewhere"))),
        ("/landing", Reply::html(article("Landed"))),
    ])
    .await;
    let list = format!(
        "<html><body><ul class=posts>\
         <li><h2><a href=/a1>Harbour story one is here</a></h2><p>Text of the first story.</p></li>\
         <li><h2><a href={}>Harbour story two is elsewhere</a></h2><p>Text of the second story.</p></li>\
         <li><h2><a href=/moved>Harbour story three moved away</a></h2><p>Text of the third story.</p></li>\
         </ul></body></html>",
        other.url("/story")
    );
    let home = TestServer::start(vec![
        ("/list", Reply::html(list)),
        ("/a1", Reply::html(article("Home"))),
        ("/moved", Reply::Redirect(other.url("/landing").to_string())),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"news\"\nurl = \"{}\"\nallow_private_addresses = true\n\
             bodies_allow_other_hosts = true\nbodies_delay = \"0s\"\n\
             headers = {{ X-Api-Key = \"s3cret-key\", Authorization = \"Bearer s3cret-token\" }}\n\
             cookies = \"session=s3cret-cookie\"\n",
            home.url("/list")
        ),
    );
    let out = once(&config).await;
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for r in home.requests() {
        if r.path() == "/list" || r.path() == "/a1" {
            assert_eq!(r.header("x-api-key"), Some("s3cret-key"), "{}", r.path());
        }
    }
    let seen = other.requests();
    assert!(
        seen.iter().any(|r| r.path() == "/story") && seen.iter().any(|r| r.path() == "/landing"),
        "the other origin was asked for its pages: {:?}",
        seen.iter()
            .map(|r| r.path().to_string())
            .collect::<Vec<_>>()
    );
    for r in &seen {
        for name in ["x-api-key", "authorization", "cookie"] {
            assert_eq!(r.header(name), None, "{name} sent to {}", r.path());
        }
    }
}

/// Regression: `FEEDMINE_TOKEN=` (set, empty) silently switched off the
/// config's `bearer_token`.
#[test]
fn an_empty_token_in_the_environment_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "bearer_token = \"s3cret\"\n[[feed]]\nid = \"a\"\nurl = \"https://example.org/\"\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["check", "--config"])
        .arg(&config)
        .env("FEEDMINE_TOKEN", "")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("FEEDMINE_TOKEN") && stderr.contains("empty"),
        "{stderr}"
    );
}

/// Regression: behind a proxy the resolver never sees the names, and
/// `metadata.google.internal`, `intranet`, `kubernetes.default.svc` or
/// `admin.localhost` were fetched and published. The fake proxy answers
/// every request itself and forwards nothing.
#[tokio::test(flavor = "multi_thread")]
async fn behind_a_proxy_internal_names_are_refused_by_name() {
    let internal = [
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://intranet/wiki/",
        "http://kubernetes.default.svc/api/",
        "http://admin.localhost:8080/",
        "http://printer.local/status",
    ];
    let mut links = String::from(
        "<li><h2><a href=\"http://news.example.com/a1\">A public story of the harbour</a></h2><p>Text one.</p></li>",
    );
    for (i, u) in internal.iter().enumerate() {
        links += &format!(
            "<li><h2><a href=\"{u}\">Internal page number {i} here</a></h2><p>Text.</p></li>"
        );
    }
    let mut routes = vec![
        (
            "http://news.example.com/list".to_string(),
            Reply::html(format!("<html><body><ul>{links}</ul></body></html>")),
        ),
        (
            "http://news.example.com/a1".to_string(),
            Reply::html(article("Public")),
        ),
    ];
    for u in internal {
        routes.push((u.to_string(), Reply::html(article("SECRET internal"))));
    }
    let proxy = TestServer::start(routes).await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"news\"\nurl = \"http://news.example.com/list\"\nproxy = \"{}\"\n\
             bodies_allow_other_hosts = true\nbodies_delay = \"0s\"\nrobots = \"off\"\n",
            proxy.url("/")
        ),
    );
    let out = once(&config).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let asked: Vec<String> = proxy.requests().iter().map(|r| r.target.clone()).collect();
    assert!(
        asked.iter().any(|t| t == "http://news.example.com/a1"),
        "{asked:?}"
    );
    for u in internal {
        assert!(
            !asked.iter().any(|t| t == u),
            "{u} reached the proxy: {asked:?}"
        );
    }
    let xml = std::fs::read_to_string(dir.path().join("out/news.xml")).unwrap();
    assert!(!xml.contains("SECRET internal"), "{xml}");
}

/// `feedmine once` with extra environment variables.
async fn once_with_env(config: &Path, env: Vec<(&'static str, String)>) -> Output {
    let config = config.display().to_string();
    tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_feedmine"))
            .args(["once", "--config", &config])
            .env("RUST_LOG", "warn")
            .envs(env)
            .output()
            .unwrap()
    })
    .await
    .unwrap()
}

/// Regression: with `HTTP_PROXY=http://localhost:…` every article fetch
/// failed with a message about the article's host (the proxy's own name
/// was filtered as loopback). The proxy the user set is trusted by name.
#[tokio::test(flavor = "multi_thread")]
async fn a_proxy_named_localhost_in_the_environment_is_used_not_refused() {
    let list = "<html><body><ul>\
        <li><h2><a href=\"http://news.example.com/a1\">Fair weather for the regatta</a></h2><p>One.</p></li>\
        <li><h2><a href=\"http://news.example.com/a2\">The ferry timetable changes</a></h2><p>Two.</p></li>\
        <li><h2><a href=\"http://news.example.com/a3\">New benches along the quay</a></h2><p>Three.</p></li>\
        </ul></body></html>";
    let proxy = TestServer::start(vec![
        (
            "http://news.example.com/list".to_string(),
            Reply::html(list.to_string()),
        ),
        (
            "http://news.example.com/a1".to_string(),
            Reply::html(article("Regatta")),
        ),
        (
            "http://news.example.com/a2".to_string(),
            Reply::html(article("Ferry")),
        ),
        (
            "http://news.example.com/a3".to_string(),
            Reply::html(article("Benches")),
        ),
    ])
    .await;
    let port = proxy.url("/").port().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        "[[feed]]\nid = \"news\"\nurl = \"http://news.example.com/list\"\n\
         bodies_delay = \"0s\"\nrobots = \"off\"\n",
    );
    let env = vec![
        ("HTTP_PROXY", format!("http://localhost:{port}")),
        ("NO_PROXY", String::new()),
    ];
    let out = once_with_env(&config, env).await;
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("3 bodies, 0 failed"), "{stdout}{stderr}");
    assert!(!stderr.contains("refused"), "{stderr}");
}

/// Regression: a proxy that is not running was reported as the site
/// failing ("could not connect to http://news.example.com/list").
#[tokio::test(flavor = "multi_thread")]
async fn an_unreachable_proxy_is_reported_as_a_proxy_problem() {
    // A port nothing listens on: bound, then released.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(
        dir.path(),
        &format!(
            "[[feed]]\nid = \"news\"\nurl = \"http://news.example.com/list\"\n\
             proxy = \"http://squid:s3cret@127.0.0.1:{port}\"\nrobots = \"off\"\n"
        ),
    );
    let out = once(&config).await;
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_ne!(out.status.code(), Some(0), "{stdout}{stderr}");
    let all = format!("{stdout}{stderr}");
    assert!(
        all.contains(&format!(
            "through the proxy http://squid:***@127.0.0.1:{port}/ (set by `proxy =` in the config)"
        )),
        "{all}"
    );
    assert!(all.contains("feed news"), "{all}");
    assert!(!all.contains("s3cret"), "the proxy password leaked: {all}");
}

/// Regression: a local list page's `file:` links were followed anywhere
/// (`../feeds.toml`, `/etc/passwd`, `/proc/self/environ` published as
/// bodies), `/dev/zero` read without bound and a FIFO blocked the run.
#[tokio::test(flavor = "multi_thread")]
async fn a_local_list_page_links_only_regular_files_below_its_directory() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(
        site.join("a1.html"),
        article("Fair weather for the regatta at the harbour"),
    )
    .unwrap();
    std::os::unix::fs::symlink("/etc/hostname", site.join("escape.html")).unwrap();
    let fifo = site.join("pipe.html");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let targets = [
        ("a1.html", "The regatta story"),
        ("../feeds.toml", "The config file"),
        ("/etc/passwd", "The password file"),
        ("/proc/self/environ", "The environment"),
        ("/dev/zero", "Endless zeros"),
        ("escape.html", "A symlink out"),
        ("pipe.html", "A named pipe"),
    ];
    let items: String = targets
        .iter()
        .map(|(href, title)| {
            format!(
                "<li><h2><a href=\"{href}\">{title} of this week</a></h2><p>Summary text.</p></li>"
            )
        })
        .collect();
    std::fs::write(
        site.join("index.html"),
        format!("<html><body><ul class=list>{items}</ul></body></html>"),
    )
    .unwrap();
    let config = write_config(
        dir.path(),
        "[[feed]]\nid = \"local\"\nurl = \"site/index.html\"\nbodies_delay = \"0s\"\n",
    );
    let started = std::time::Instant::now();
    let out = once(&config).await;
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "the FIFO blocked"
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let xml = std::fs::read_to_string(dir.path().join("out/local.xml")).unwrap();
    assert!(
        xml.contains("The harbour authority confirmed"),
        "the legit page: {xml}"
    );
    for leaked in ["output_dir", "root:", "PATH=", "HOME="] {
        assert!(!xml.contains(leaked), "{leaked} leaked: {xml}");
    }
    let hostname = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    if hostname.trim().len() > 3 {
        let bodies: Vec<&str> = xml.split("<content:encoded>").skip(1).collect();
        assert!(bodies.iter().all(|b| !b.contains(hostname.trim())), "{xml}");
    }
}
