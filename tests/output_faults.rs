//! Output faults (issue 6, "nothing lost"): a full disk, a read-only output
//! directory and an output path that cannot be a directory. In every case
//! the run fails with a message naming the feed (when there is one), the
//! file and the OS error; the previously published files stay byte for
//! byte; no temporary file is left; a later run without the fault publishes
//! every item; and the daemon keeps serving the old files meanwhile.
//!
//! Tests run as root in CI, where permissions do not stop writes, so the
//! faults are made differently: a full disk is `ulimit -f` (with SIGXFSZ
//! ignored, writes past the limit fail with EFBIG, "File too large"); a
//! read-only directory is a read-only bind mount in a private mount
//! namespace (`unshare -m`), or failing that an immutable directory
//! (`chattr +i`).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{Reply, TestServer};

/// A local news list: `n` stories. Each summary ends with `amps` escaped
/// ampersands: one byte each in the state, but `&amp;amp;` (9 bytes) in
/// the RSS and Atom files, so the feed files outgrow the state database
/// and a file-size limit can sit between the two.
fn news_page(n: usize, amps: usize) -> String {
    let mut html = String::from(
        "<!doctype html><html lang=en><head><title>Harbour Gazette — Local</title></head><body>\
         <header><a href='/'>Home</a> <a href='/sport'>Sport</a> <a href='/about'>About</a></header>\
         <main><h1>Local news</h1><ul class=stories>",
    );
    for i in 0..n {
        html.push_str(&format!(
            "<li class=story><h2><a href='/local/story-{i}'>Harbour wall repairs, part {i}</a></h2>\
             <p class=standfirst>Councillors argued over the cost of stage {i} of the works. {}</p>\
             <time datetime='2026-11-{:02}T08:00:00Z'>{} November</time></li>",
            "&amp;".repeat(amps),
            1 + i % 20,
            1 + i % 20
        ));
    }
    html.push_str("</ul></main><footer><a href='/privacy'>Privacy</a></footer></body></html>");
    html
}

const FEW: usize = 6;
const MANY: usize = 30;
const AMPS: usize = 900;

/// A file-size limit (512-byte blocks, as `sh`'s `ulimit -f` counts) that
/// the state database and its WAL stay under while the grown feed files
/// (about 145 kB each for RSS and Atom) do not: publishing fails, the state
/// does not.
const LIMIT_BETWEEN: u32 = 200;

async fn news_server() -> TestServer {
    TestServer::start([("/local", Reply::html(news_page(FEW, 0)))]).await
}

fn write_config(dir: &Path, server: &TestServer, output_dir: &str, extra: &str) -> PathBuf {
    let path = dir.join("feeds.toml");
    std::fs::write(
        &path,
        format!(
            "output_dir = \"{output_dir}\"\ntimeout = \"5s\"\nhost_delay = \"0s\"\n\
             formats = [\"rss\", \"atom\", \"json\"]\n{extra}\n\
             [[feed]]\nid = \"news\"\nurl = \"{}\"\nbodies = false\n",
            server.url("/local")
        ),
    )
    .unwrap();
    path
}

fn feedmine() -> &'static str {
    env!("CARGO_BIN_EXE_feedmine")
}

/// `feedmine once` on `config`, optionally under a file-size limit.
async fn once(config: &Path, size_limit: Option<u32>) -> Output {
    let config = config.display().to_string();
    let mut command = match size_limit {
        None => {
            let mut c = Command::new(feedmine());
            c.args(["once", "--config", &config]);
            c
        }
        Some(blocks) => limited(blocks, &["once", "--config", &config]),
    };
    tokio::task::spawn_blocking(move || command.env("RUST_LOG", "warn").output().unwrap())
        .await
        .unwrap()
}

/// feedmine with `args` under `ulimit -f blocks`. An ignored SIGXFSZ stays
/// ignored across exec, so a write past the limit fails with EFBIG instead
/// of killing the process: what a full disk looks like to the program.
fn limited(blocks: u32, args: &[&str]) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg(format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" \"$@\""
        ))
        .arg(feedmine())
        .args(args);
    c
}

/// Every file of the output directory, name → bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Titles of the items of an RSS file, in order.
fn rss_titles(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    let channel = rss::Channel::read_from(&bytes[..]).unwrap();
    channel
        .items()
        .iter()
        .map(|i| i.title().unwrap_or_default().to_string())
        .collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Publishes the short page normally and returns the output directory's
/// files; then switches the page to the long one.
async fn publish_then_grow(
    config: &Path,
    server: &TestServer,
    out: &Path,
) -> BTreeMap<String, Vec<u8>> {
    let run = once(config, None).await;
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(rss_titles(&out.join("news.xml")).len(), FEW);
    server.set("/local", Reply::html(news_page(MANY, AMPS)));
    snapshot(out)
}

/// After the fault is gone, a normal run publishes every story once.
async fn later_run_publishes_everything(config: &Path, out: &Path) {
    let run = once(config, None).await;
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let titles = rss_titles(&out.join("news.xml"));
    let unique: std::collections::HashSet<_> = titles.iter().collect();
    assert_eq!(titles.len(), MANY, "{titles:?}");
    assert_eq!(unique.len(), MANY, "no duplicates: {titles:?}");
    for i in 0..MANY {
        assert!(titles.contains(&format!("Harbour wall repairs, part {i}")));
    }
    assert_no_temp_files(out);
}

fn assert_no_temp_files(out: &Path) {
    let leftovers: Vec<String> = snapshot(out)
        .into_keys()
        .filter(|name| name.ends_with(".tmp") || name.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

/// The common checks of a run that hit an output fault.
fn assert_failed_cleanly(run: &Output, out: &Path, before: &BTreeMap<String, Vec<u8>>) {
    let err = stderr(run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(&snapshot(out), before, "the published files changed: {err}");
    assert_no_temp_files(out);
}

#[tokio::test(flavor = "multi_thread")]
async fn full_disk_while_publishing_keeps_the_old_files_and_says_why() {
    let server = news_server().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server, "out", "");
    let out = dir.path().join("out");
    let before = publish_then_grow(&config, &server, &out).await;

    let run = once(&config, Some(LIMIT_BETWEEN)).await;
    assert_failed_cleanly(&run, &out, &before);
    let err = stderr(&run);
    // One line that names the feed, the step, the file, the temporary file
    // and the OS error, each once.
    let line = err
        .lines()
        .find(|l| l.starts_with("feedmine: feed news:"))
        .unwrap_or_else(|| panic!("no failure line for the feed: {err}"));
    assert!(line.contains("cannot publish the feed"), "{line}");
    assert!(line.contains("news.xml"), "{line}");
    assert!(
        line.contains("temporary file") && line.contains(".news.xml."),
        "{line}"
    );
    assert_eq!(line.matches("File too large").count(), 1, "{line}");

    later_run_publishes_everything(&config, &out).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn full_disk_under_the_state_database_loses_nothing() {
    // 1 block: the state cannot even open (its WAL index is 32 kB);
    // 80 blocks (40 kB): it opens, and the merge of the new items fails.
    for (blocks, expected) in [
        (1, "cannot open the state file"),
        (80, "cannot merge items"),
    ] {
        let server = news_server().await;
        let dir = tempfile::tempdir().unwrap();
        let config = write_config(dir.path(), &server, "out", "");
        let out = dir.path().join("out");
        let before = publish_then_grow(&config, &server, &out).await;

        let run = once(&config, Some(blocks)).await;
        assert_failed_cleanly(&run, &out, &before);
        let err = stderr(&run);
        assert!(err.contains(expected), "limit {blocks}: {err}");
        assert!(err.contains("feedmine.db"), "names the state file: {err}");
        // Whatever was rolled back is merged again: nothing is lost.
        later_run_publishes_everything(&config, &out).await;
        let db = rusqlite::Connection::open(dir.path().join("feedmine.db")).unwrap();
        let ok: String = db
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok", "limit {blocks}");
    }
}

/// Makes a directory unwritable for the commands it wraps, by the first
/// means this machine allows.
enum ReadOnly {
    /// A read-only bind mount in the command's own mount namespace: the
    /// real thing, invisible outside the command.
    BindMount,
    /// `chattr +i` on the directory (undone on drop): no new entries, even
    /// for root.
    Immutable(PathBuf),
}

impl ReadOnly {
    fn make(dir: &Path) -> Option<ReadOnly> {
        let probe = Command::new("unshare")
            .args(["-m", "sh", "-c"])
            .arg("mount --bind \"$0\" \"$0\" && mount -o remount,bind,ro \"$0\" && ! touch \"$0/.probe\"")
            .arg(dir)
            .stderr(Stdio::null())
            .status();
        if probe.is_ok_and(|s| s.success()) {
            return Some(ReadOnly::BindMount);
        }
        let chattr = Command::new("chattr")
            .arg("+i")
            .arg(dir)
            .stderr(Stdio::null())
            .status();
        if chattr.is_ok_and(|s| s.success()) {
            let guard = ReadOnly::Immutable(dir.to_owned());
            if std::fs::File::create(dir.join(".probe")).is_err() {
                return Some(guard);
            }
        }
        None
    }

    /// `feedmine args` with `dir` read-only.
    fn command(&self, dir: &Path, args: &[&str]) -> Command {
        match self {
            ReadOnly::BindMount => {
                let mut c = Command::new("unshare");
                c.args(["-m", "sh", "-c"])
                    .arg(
                        "d=$0; mount --bind \"$d\" \"$d\" && \
                         mount -o remount,bind,ro \"$d\" && exec \"$@\"",
                    )
                    .arg(dir)
                    .arg(feedmine())
                    .args(args);
                c
            }
            ReadOnly::Immutable(_) => {
                let mut c = Command::new(feedmine());
                c.args(args);
                c
            }
        }
    }
}

impl Drop for ReadOnly {
    fn drop(&mut self) {
        if let ReadOnly::Immutable(dir) = self {
            let _ = Command::new("chattr").arg("-i").arg(dir).status();
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn read_only_output_directory_keeps_the_old_files_and_says_why() {
    let server = news_server().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server, "out", "");
    let out = dir.path().join("out");
    let before = publish_then_grow(&config, &server, &out).await;

    let Some(read_only) = ReadOnly::make(&out) else {
        eprintln!("SKIPPED: neither a read-only bind mount nor chattr +i works here");
        return;
    };
    let config_arg = config.display().to_string();
    let mut command = read_only.command(&out, &["once", "--config", &config_arg]);
    command.env("RUST_LOG", "warn");
    let run = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    drop(read_only);
    assert_failed_cleanly(&run, &out, &before);
    let err = stderr(&run);
    let line = err
        .lines()
        .find(|l| l.starts_with("feedmine: feed news:"))
        .unwrap_or_else(|| panic!("no failure line for the feed: {err}"));
    assert!(
        line.contains("cannot create a temporary file") && line.contains("news.xml"),
        "{line}"
    );
    assert!(
        line.contains("Read-only file system") || line.contains("Operation not permitted"),
        "{line}"
    );

    later_run_publishes_everything(&config, &out).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn output_directory_under_a_regular_file_fails_clearly() {
    let server = news_server().await;
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("srv");
    std::fs::write(&blocker, b"a file where a directory should be").unwrap();
    let config = write_config(dir.path(), &server, "srv/feeds", "");

    let run = once(&config, None).await;
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("srv/feeds"), "names the directory: {err}");
    assert!(err.contains("Not a directory"), "gives the OS error: {err}");
    assert_eq!(
        std::fs::read(&blocker).unwrap(),
        b"a file where a directory should be"
    );

    // The path fixed: everything is published.
    std::fs::remove_file(&blocker).unwrap();
    let run = once(&config, None).await;
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(
        rss_titles(&dir.path().join("srv/feeds/news.xml")).len(),
        FEW
    );
}

async fn wait_for<T>(
    what: &str,
    timeout: Duration,
    mut check: impl AsyncFnMut() -> Option<T>,
) -> T {
    let start = Instant::now();
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn free_local_address() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    format!("127.0.0.1:{port}")
}

/// Starts the daemon by `command` (listening on `addr`, running every feed
/// at once) and checks that while publishing fails with `cause`: /health
/// says the feed is failing and why (503), /feeds/news.xml still serves the
/// old bytes, the process lives and the output directory is untouched; then
/// SIGTERM stops it cleanly.
async fn daemon_serves_the_old_files(
    mut command: Command,
    addr: &str,
    out: &Path,
    before: &BTreeMap<String, Vec<u8>>,
    causes: &[&str],
) {
    let mut child = command
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    let client = reqwest::Client::new();
    let health_url = format!("http://{addr}/health");
    let health = wait_for(
        "the failed run in /health",
        Duration::from_secs(20),
        async || {
            let r = client.get(&health_url).send().await.ok()?;
            let status = r.status();
            let body = r.text().await.ok()?;
            (status == 503).then_some(body)
        },
    )
    .await;
    assert!(health.starts_with("failing news:"), "{health}");
    assert!(health.contains("news.xml"), "{health}");
    assert!(causes.iter().any(|c| health.contains(c)), "{health}");

    let feed = client
        .get(format!("http://{addr}/feeds/news.xml"))
        .send()
        .await
        .unwrap();
    assert_eq!(feed.status(), 200);
    assert_eq!(&feed.bytes().await.unwrap()[..], &before["news.xml"][..]);
    assert!(child.try_wait().unwrap().is_none(), "the daemon exited");
    assert_eq!(&snapshot(out), before);
    assert_no_temp_files(out);

    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let (status, err) = tokio::task::spawn_blocking(move || {
        let status = child.wait().unwrap();
        let mut err = String::new();
        use std::io::Read;
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        (status, err)
    })
    .await
    .unwrap();
    assert!(status.success(), "{status:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn the_daemon_keeps_serving_the_old_files_while_the_disk_is_full() {
    let server = news_server().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server, "out", "every = \"1h\"");
    let out = dir.path().join("out");
    let before = publish_then_grow(&config, &server, &out).await;

    let addr = free_local_address();
    let config_arg = config.display().to_string();
    let command = limited(
        LIMIT_BETWEEN,
        &[
            "run",
            "--config",
            &config_arg,
            "--listen",
            &addr,
            "--once-now",
        ],
    );
    daemon_serves_the_old_files(command, &addr, &out, &before, &["File too large"]).await;
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread")]
async fn the_daemon_starts_and_serves_from_a_read_only_output_directory() {
    let server = news_server().await;
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path(), &server, "out", "every = \"1h\"");
    let out = dir.path().join("out");
    let before = publish_then_grow(&config, &server, &out).await;
    let Some(read_only) = ReadOnly::make(&out) else {
        eprintln!("SKIPPED: neither a read-only bind mount nor chattr +i works here");
        return;
    };

    let addr = free_local_address();
    let config_arg = config.display().to_string();
    let command = read_only.command(
        &out,
        &[
            "run",
            "--config",
            &config_arg,
            "--listen",
            &addr,
            "--once-now",
        ],
    );
    // feed.xsl and feeds.opml are unchanged, so start-up writes nothing.
    daemon_serves_the_old_files(
        command,
        &addr,
        &out,
        &before,
        &["Read-only file system", "Operation not permitted"],
    )
    .await;
    drop(read_only);
}
