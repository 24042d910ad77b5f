//! Before the state file is trusted: refuse an empty or damaged file rather
//! than silently starting a new database over it, and move a file aside on
//! request (`--reset-state`).
//!
//! # Invariants
//! - A state file that exists is never replaced or emptied here: an empty
//!   (0-byte) file without a write-ahead log, a file SQLite cannot read, or
//!   one that fails `PRAGMA quick_check` is an error naming the file, what
//!   is wrong and how to recover.
//! - [`reset`] only renames (the file and its `-wal`/`-shm` companions, to
//!   `<file>.broken-<UTC time>`): nothing is deleted, so a damaged file can
//!   still be rescued with `sqlite3 <file> .recover`.

use std::path::{Path, PathBuf};

use chrono::Utc;
use rusqlite::Connection;

use super::StateError;

/// The companions SQLite keeps beside a WAL-mode database.
const COMPANIONS: [&str; 2] = ["-wal", "-shm"];

/// How to get going again, appended to every refusal.
fn recovery_hint(path: &Path) -> String {
    format!(
        "feedmine will not replace it by itself (that would lose every feed's items and dates). \
         To start afresh, stop feedmine and run it once with --reset-state: the file is moved \
         aside as {}.broken-<time> (rescue what you can from it with `sqlite3 <that file> .recover`)",
        path.display()
    )
}

fn refuse(path: &Path, problem: String) -> StateError {
    StateError::Unusable {
        path: path.display().to_string(),
        problem,
        hint: recovery_hint(path),
    }
}

fn companion(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// Checks on the file before SQLite opens it: it must be absent (a new
/// database is made), or a regular file that is not empty. A 0-byte file is
/// accepted only with a non-empty write-ahead log beside it (a database
/// created and killed before its first checkpoint).
pub(super) fn before_open(path: &Path) -> Result<(), StateError> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(refuse(path, format!("cannot read its metadata: {e}"))),
    };
    if !meta.is_file() {
        return Err(refuse(path, "is not a regular file".into()));
    }
    let wal_len = std::fs::metadata(companion(path, "-wal")).map_or(0, |m| m.len());
    if meta.len() == 0 && wal_len == 0 {
        return Err(refuse(
            path,
            "is empty (0 bytes): it was truncated or replaced, and holds no feed history".into(),
        ));
    }
    Ok(())
}

/// Checks once SQLite has the file open: the header is a database and the
/// pages pass `PRAGMA quick_check` (which reads every page: a few ms per MB).
pub(super) fn after_open(conn: &Connection, path: &Path) -> Result<(), StateError> {
    let verdict: Result<Vec<String>, rusqlite::Error> = conn
        .prepare("PRAGMA quick_check(5)")
        .and_then(|mut st| st.query_map([], |r| r.get(0))?.collect());
    match verdict {
        Ok(lines) if lines.len() == 1 && lines[0] == "ok" => Ok(()),
        Ok(lines) => Err(refuse(
            path,
            format!("is damaged (integrity check: {})", lines.join("; ")),
        )),
        Err(e) => Err(refuse(
            path,
            format!("is not a readable SQLite database ({e})"),
        )),
    }
}

/// Map an SQLite error met while opening an existing file to a refusal with
/// the recovery hint (a file that is not a database fails at the first
/// statement, before any check can run).
pub(super) fn damaged(path: &Path, err: rusqlite::Error) -> StateError {
    refuse(path, format!("is not a readable SQLite database ({err})"))
}

/// Move the state file and its companions aside; returns where the file
/// went, or `None` when there was no file.
pub fn reset(path: &Path) -> Result<Option<PathBuf>, StateError> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let stamp = Utc::now().format("%Y%m%dT%H%M%SZ");
    let aside = companion(path, &format!(".broken-{stamp}"));
    let rename = |from: &Path, to: &Path| {
        std::fs::rename(from, to).map_err(|source| StateError::Reset {
            path: from.display().to_string(),
            to: to.display().to_string(),
            source,
        })
    };
    rename(path, &aside)?;
    for suffix in COMPANIONS {
        let from = companion(path, suffix);
        if from.exists() {
            rename(&from, &companion(&aside, suffix))?;
        }
    }
    Ok(Some(aside))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Store;

    fn refusal(path: &Path) -> String {
        match Store::open(path) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{} was opened", path.display()),
        }
    }

    #[test]
    fn empty_file_is_refused_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        std::fs::write(&path, b"").unwrap();
        let err = refusal(&path);
        assert!(err.contains("state.sqlite"), "{err}");
        assert!(err.contains("empty (0 bytes)"), "{err}");
        assert!(err.contains("--reset-state"), "{err}");
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0, "untouched");
    }

    #[test]
    fn file_damaged_mid_way_is_refused_with_the_recovery_hint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        {
            let store = Store::open(&path).unwrap();
            store.clear_bodies("x").unwrap();
        }
        // Checkpointed and closed: overwrite the second page (the items
        // table's root) with garbage.
        let mut bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() >= 3 * 4096, "{} bytes", bytes.len());
        for b in &mut bytes[4096..8192] {
            *b = 0xA5;
        }
        std::fs::write(&path, &bytes).unwrap();
        let err = refusal(&path);
        assert!(
            err.contains("damaged") || err.contains("not a readable"),
            "{err}"
        );
        assert!(err.contains("--reset-state"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        std::fs::write(&path, "[[feed]]\nid = \"oops\"\n".repeat(300)).unwrap();
        let err = refusal(&path);
        assert!(err.contains("not a readable SQLite database"), "{err}");
        assert!(
            std::fs::read_to_string(&path)
                .unwrap()
                .starts_with("[[feed]]")
        );
    }

    #[test]
    fn reset_moves_the_file_and_companions_aside_and_a_fresh_one_opens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.sqlite");
        std::fs::write(&path, b"").unwrap();
        std::fs::write(companion(&path, "-shm"), b"x").unwrap();
        let aside = reset(&path).unwrap().expect("moved");
        assert!(aside.to_string_lossy().contains("state.sqlite.broken-"));
        assert!(aside.exists() && companion(&aside, "-shm").exists());
        assert!(!path.exists());
        Store::open(&path).expect("fresh database");
        assert_eq!(reset(&dir.path().join("absent")).unwrap(), None);
    }
}
