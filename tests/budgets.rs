//! The parse budget keeps one hostile page within the daemon's memory:
//! `feedmine once` on pages at the 10 MiB fetch cap, run as a child whose
//! peak RSS (VmHWM) is read from /proc while it runs.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Peak resident memory a run of one feed may reach (the bound).
const MAX_PEAK_RSS_KB: u64 = 200 * 1024;

fn peak_rss_kb_of_once(dir: &Path) -> (u64, std::process::Output) {
    let child = Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["once", "--config"])
        .arg(dir.join("feeds.toml"))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let poll = std::thread::spawn(move || {
        let mut peak = 0;
        while let Ok(text) = std::fs::read_to_string(&status) {
            if let Some(kb) = text
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
            {
                peak = peak.max(kb);
            }
            if text.contains("State:\tZ") {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        peak
    });
    let out = child.wait_with_output().unwrap();
    (poll.join().unwrap(), out)
}

#[test]
fn pages_at_the_fetch_cap_stay_under_200_mb() {
    if !Path::new("/proc/self/status").exists() {
        eprintln!("skipped: no /proc to read peak memory from");
        return;
    }
    // 2.6 million one-letter paragraphs: 1.6 GB peak before the budget.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("flat.html"), "<p>a".repeat(2_600_000)).unwrap();
    let records: String = (0..150_000)
        .map(|i| format!("<li><a href=/p/{i}>Title number {i}</a></li>"))
        .collect();
    std::fs::write(
        dir.path().join("records.html"),
        format!("<html><body><ul>{records}</ul></body></html>"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("feeds.toml"),
        "output_dir = \"out\"\n[[feed]]\nid = \"flat\"\nurl = \"flat.html\"\nbodies = false\n\n\
         [[feed]]\nid = \"records\"\nurl = \"records.html\"\nbodies = false\n",
    )
    .unwrap();
    let (peak, out) = peak_rss_kb_of_once(dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(peak > 0, "could not read the child's memory");
    assert!(
        peak < MAX_PEAK_RSS_KB,
        "peak RSS {peak} KB over {MAX_PEAK_RSS_KB} KB\n{stderr}"
    );
    // The budget says what it did, naming the feed; the list still gives
    // the records of its first part.
    assert!(
        stderr.contains("parse budget") || stdout.contains("parse budget"),
        "{stdout}{stderr}"
    );
    assert!(
        stdout.contains("feed records: published"),
        "{stdout}{stderr}"
    );
}
