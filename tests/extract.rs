//! `feedmine extract` and `feedmine train tagpath` as a user runs them, on
//! the article fixtures: every method gives the article and not the page
//! chrome, and trained tag-path thresholds are written and used.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/articles")
        .join(name)
}

fn feedmine(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn every_method_extracts_the_article() {
    let page = fixture("news.html");
    let html = std::fs::read_to_string(&page).unwrap();
    for method in ["reverse", "reverse-paper", "cevc", "tagpath", "similarity"] {
        let run = feedmine(&["extract", page.to_str().unwrap(), "--method", method]);
        assert!(
            run.status.success(),
            "{method}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let text = String::from_utf8_lossy(&run.stdout);
        assert!(
            text.split_whitespace().count() > 100,
            "{method} gave too little: {text}"
        );
        // Every line printed is text of the page, not something made up.
        let first = text.lines().find(|l| l.len() > 40).unwrap();
        let probe: String = first.chars().take(30).collect();
        assert!(
            html.contains(probe.trim()),
            "{method}: {probe:?} not in the page"
        );
    }
}

#[test]
fn json_format_carries_metadata() {
    let run = feedmine(&[
        "extract",
        fixture("news.html").to_str().unwrap(),
        "--base-url",
        "https://news.example.com/a/1",
        "--format",
        "json",
    ]);
    assert!(run.status.success());
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert!(v["title"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(v["text"].as_str().is_some_and(|t| t.len() > 500));
    assert!(v["html"].as_str().is_some_and(|h| h.contains("<p>")));
}

#[test]
fn trained_tagpath_thresholds_are_written_and_used() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tp.toml");
    let run = feedmine(&[
        "train",
        "tagpath",
        fixture("").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let saved = std::fs::read_to_string(&out).unwrap();
    assert!(
        saved.contains("length") && saved.contains("cn") && saved.contains("frequency"),
        "{saved}"
    );
    let run = feedmine(&[
        "extract",
        fixture("blog.html").to_str().unwrap(),
        "--method",
        "tagpath",
        "--thresholds",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(!run.stdout.is_empty());
    // A bad method name is a clear error, not a default.
    let run = feedmine(&[
        "extract",
        fixture("blog.html").to_str().unwrap(),
        "--method",
        "magic",
    ]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("unknown extraction method"));
}
