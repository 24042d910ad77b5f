//! A damaged state file stops `once` and `run` with a message naming the
//! file and the way out; `--reset-state` moves it aside; temporary files a
//! killed run left in the output directory are removed at start.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn feedmine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(args)
        .env("RUST_LOG", "info")
        .output()
        .unwrap()
}

/// A config over a local copy of a realistic blog index (no network).
fn setup(dir: &Path) -> PathBuf {
    let page = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lists/blog_index.html");
    std::fs::copy(page, dir.join("blog.html")).unwrap();
    let config = dir.join("feeds.toml");
    std::fs::write(
        &config,
        "output_dir = \"out\"\nstate = \"state/feedmine.db\"\n\n[[feed]]\nid = \"blog\"\nurl = \"blog.html\"\nbodies = false\nevery = \"1h\"\n",
    )
    .unwrap();
    config
}

#[test]
fn empty_state_file_is_refused_by_once_and_run_until_reset() {
    let dir = tempfile::tempdir().unwrap();
    let config = setup(dir.path());
    let cfg = config.to_str().unwrap();
    let state = dir.path().join("state/feedmine.db");
    std::fs::create_dir_all(state.parent().unwrap()).unwrap();
    std::fs::write(&state, b"").unwrap();

    for args in [
        vec!["once", "--config", cfg],
        vec!["run", "--config", cfg, "--shutdown-grace", "1s"],
    ] {
        let out = feedmine(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            stderr.contains("feedmine.db")
                && stderr.contains("empty (0 bytes)")
                && stderr.contains("--reset-state"),
            "{args:?}: {stderr}"
        );
        assert_eq!(std::fs::metadata(&state).unwrap().len(), 0, "not replaced");
        assert!(
            !dir.path().join("out/blog.xml").exists(),
            "nothing published"
        );
    }

    let out = feedmine(&["once", "--config", cfg, "--reset-state"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("moved aside to"), "{stderr}");
    let aside: Vec<_> = std::fs::read_dir(state.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".broken-"))
        .collect();
    assert_eq!(aside.len(), 1, "the empty file was kept aside");
    assert!(
        std::fs::metadata(&state).unwrap().len() > 0,
        "a new database"
    );
    assert!(dir.path().join("out/blog.xml").exists());
}

#[test]
fn leftover_temp_files_of_a_killed_publish_are_removed_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let config = setup(dir.path());
    let out_dir = dir.path().join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let leftover = out_dir.join(".blog.xml.Qw3rTy.tmp");
    std::fs::write(&leftover, b"<rss><channel><title>half").unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&leftover)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let keep = out_dir.join("notes.txt");
    std::fs::write(&keep, b"mine").unwrap();

    let out = feedmine(&["once", "--config", config.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!leftover.exists(), "{stderr}");
    assert!(stderr.contains(".blog.xml.Qw3rTy.tmp"), "logged: {stderr}");
    assert!(keep.exists() && out_dir.join("blog.xml").exists());
}

/// Plant the mark a run leaves while it works, as if the process had been
/// killed (out of memory, kill -9) in the middle of it.
fn plant_unfinished_run(dir: &Path, feed: &str, ago: chrono::Duration) {
    let store = feedmine::state::Store::open(&dir.join("state/feedmine.db")).unwrap();
    store
        .mark_run_started(feed, chrono::Utc::now() - ago)
        .unwrap();
}

#[test]
fn a_run_killed_midway_is_recorded_as_failed_and_does_not_run_first() {
    let dir = tempfile::tempdir().unwrap();
    let config = setup(dir.path());
    plant_unfinished_run(dir.path(), "blog", chrono::Duration::seconds(20));

    // The daemon starts: the killed run counts as a failure, so the feed
    // backs off and waits for its schedule instead of running at once.
    let child = Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args([
            "run",
            "--config",
            config.to_str().unwrap(),
            "--shutdown-grace",
            "1s",
        ])
        .env("RUST_LOG", "info")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(3));
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("did not finish"), "{stderr}");
    assert!(
        !dir.path().join("out/blog.xml").exists(),
        "the feed that took the process down must not run first: {stderr}"
    );
    let store = feedmine::state::Store::open(&dir.path().join("state/feedmine.db")).unwrap();
    let runs = store.recent_runs("blog", 5).unwrap();
    assert_eq!(runs.len(), 1, "{runs:?}");
    assert_eq!(runs[0].status, "failed");
    assert!(runs[0].error.as_deref().unwrap().contains("did not finish"));

    // `once` (asked explicitly) runs it, and the mark it leaves is cleared.
    let out = feedmine(&["once", "--config", config.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(store.settle_unfinished_runs().unwrap().is_empty());
}
