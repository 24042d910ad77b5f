//! The file-writing edge: puts a rendered feed on disk atomically.
//!
//! Invariants: readers of `path` see either the complete old file or the
//! complete new one, never a partial write. The new bytes go to a temporary
//! file in the same directory (same filesystem, so the final `rename` is
//! atomic), which is fsynced before it is renamed over the target; the
//! directory is fsynced afterwards (best effort) so the rename survives a
//! crash. On any failure the old file is untouched and the temporary file is
//! removed. The written file gets the old file's permissions, or `0644` for a
//! new one (tempfile creates `0600`, which a web server could not read).
//! Bytes identical to the file already in place are not written again: an
//! unchanged file is already published, and a full or read-only disk must
//! not fail a run that has nothing new to write (`feed.xsl` and
//! `feeds.opml` are "published" at every start).
//!
//! Error messages name the target and the step; the OS error is the
//! error's `source()` (not repeated in the message, so a `{:#}` chain reads
//! each cause once).

use std::ffi::OsString;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be published.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error("cannot publish to {path}: the path has no file name")]
    NoFileName { path: PathBuf },
    #[error("cannot create directory {dir} for {path}")]
    CreateDir {
        dir: PathBuf,
        path: PathBuf,
        source: io::Error,
    },
    #[error("cannot create a temporary file in {dir} for {path}")]
    TempFile {
        dir: PathBuf,
        path: PathBuf,
        source: io::Error,
    },
    #[error("cannot write the new contents of {path} (temporary file {temp})")]
    Write {
        path: PathBuf,
        temp: PathBuf,
        source: io::Error,
    },
    #[error("cannot replace {path} with the new file")]
    Rename { path: PathBuf, source: io::Error },
}

/// Write bytes to `path` atomically: temp file in the same directory, fsync,
/// rename; the old file stays intact on any failure. Creates the directory if
/// missing. Does nothing when `path` already holds exactly these bytes.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), PublishError> {
    if holds_exactly(path, bytes) {
        return Ok(());
    }
    write_with(path, |file| file.write_all(bytes))
}

/// True when `path` is a regular file whose contents are `bytes` (any
/// error reading it: false, and the normal write path reports it).
fn holds_exactly(path: &Path, bytes: &[u8]) -> bool {
    match fs::metadata(path) {
        // The length check first, so a changed feed costs no extra read.
        Ok(meta) if meta.is_file() && meta.len() == bytes.len() as u64 => {
            fs::read(path).is_ok_and(|old| old == bytes)
        }
        _ => false,
    }
}

/// [`write_atomically`] with the contents produced by `fill` (separate so the
/// failure path can be tested with a writer that fails half-way).
fn write_with(
    path: &Path,
    fill: impl FnOnce(&mut fs::File) -> io::Result<()>,
) -> Result<(), PublishError> {
    let file_name = path.file_name().ok_or_else(|| PublishError::NoFileName {
        path: path.to_owned(),
    })?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(|source| PublishError::CreateDir {
        dir: dir.to_owned(),
        path: path.to_owned(),
        source,
    })?;

    // Hidden name next to the target, so a crash leaves an obvious leftover
    // rather than something a web server would list or serve as the feed.
    let mut prefix = OsString::from(".");
    prefix.push(file_name);
    prefix.push(".");
    let mut temp = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|source| PublishError::TempFile {
            dir: dir.to_owned(),
            path: path.to_owned(),
            source,
        })?;
    let write_error = |source: io::Error, temp: &tempfile::NamedTempFile| PublishError::Write {
        path: path.to_owned(),
        temp: temp.path().to_owned(),
        source,
    };
    // Dropping `temp` on an early return deletes the temporary file.
    if let Err(err) = fill(temp.as_file_mut()) {
        return Err(write_error(err, &temp));
    }
    if let Err(err) = set_published_permissions(path, temp.as_file()) {
        return Err(write_error(err, &temp));
    }
    if let Err(err) = temp.as_file().sync_all() {
        return Err(write_error(err, &temp));
    }
    temp.persist(path).map_err(|err| PublishError::Rename {
        path: path.to_owned(),
        source: err.error,
    })?;
    // Durability of the rename itself; some filesystems refuse to fsync a
    // directory, and the file is already in place, so this is best effort.
    if let Ok(dir_handle) = fs::File::open(dir) {
        let _ = dir_handle.sync_all();
    }
    Ok(())
}

#[cfg(unix)]
fn set_published_permissions(path: &Path, file: &fs::File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let permissions = match fs::metadata(path) {
        Ok(old) if old.is_file() => old.permissions(),
        _ => fs::Permissions::from_mode(0o644),
    };
    file.set_permissions(permissions)
}

#[cfg(not(unix))]
fn set_published_permissions(_path: &Path, _file: &fs::File) -> io::Result<()> {
    Ok(())
}

/// Temporary files older than this are leftovers of a process that died
/// mid-write (a write takes milliseconds); younger ones may belong to
/// another feedmine writing into the same directory right now.
pub const STALE_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(300);

/// Is `name` one of [`write_atomically`]'s temporary names,
/// `.<file name>.<6 random characters>.tmp`?
fn is_own_temp_name(name: &str) -> bool {
    let Some(stem) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else {
        return false;
    };
    stem.rsplit_once('.').is_some_and(|(file, random)| {
        !file.is_empty() && random.len() == 6 && random.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// Remove the temporary files a killed run left in `dir` (not recursive):
/// only regular files with [`write_atomically`]'s naming pattern, older
/// than [`STALE_TEMP_AGE`]. Returns the removed paths; a directory that
/// does not exist yet has none.
pub fn remove_stale_temps(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let now = std::time::SystemTime::now();
    let mut removed = Vec::new();
    for entry in entries {
        let entry = entry?;
        let name = entry.file_name();
        if !name.to_str().is_some_and(is_own_temp_name) {
            continue;
        }
        let meta = entry.metadata()?;
        let age = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .unwrap_or_default();
        if meta.is_file() && age >= STALE_TEMP_AGE {
            fs::remove_file(entry.path())?;
            removed.push(entry.path());
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// The message and its sources, as `{:#}` prints them.
    fn chain(err: &(dyn std::error::Error + 'static)) -> String {
        let mut out = err.to_string();
        let mut source = err.source();
        while let Some(s) = source {
            out.push_str(": ");
            out.push_str(&s.to_string());
            source = s.source();
        }
        out
    }

    #[cfg(unix)]
    #[test]
    fn identical_bytes_are_not_rewritten() {
        use std::os::unix::fs::MetadataExt;
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("feed.xsl");
        write_atomically(&path, b"<xsl>same</xsl>").unwrap();
        let inode = fs::metadata(&path).unwrap().ino();
        // A rewrite would rename a new file (a new inode) over the old one.
        write_atomically(&path, b"<xsl>same</xsl>").unwrap();
        assert_eq!(fs::metadata(&path).unwrap().ino(), inode);
        // Same length, other bytes: replaced.
        write_atomically(&path, b"<xsl>diff</xsl>").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"<xsl>diff</xsl>");
        assert_ne!(fs::metadata(&path).unwrap().ino(), inode);
        assert_eq!(entries(root.path()), ["feed.xsl"]);
    }

    #[test]
    fn writes_creating_directories_and_replaces() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("feeds/tech/blog.xml");
        write_atomically(&path, b"<rss>first</rss>").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"<rss>first</rss>");

        write_atomically(&path, b"<rss>second, longer</rss>").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"<rss>second, longer</rss>");
        write_atomically(&path, b"").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"");
        assert_eq!(
            entries(path.parent().unwrap()),
            ["blog.xml"],
            "no temp files left"
        );
    }

    #[cfg(unix)]
    #[test]
    fn new_files_are_world_readable_and_old_modes_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("feed.xml");
        write_atomically(&path, b"a").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644);

        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
        write_atomically(&path, b"b").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[test]
    fn parent_that_is_a_file_gives_a_clear_error() {
        let root = tempfile::tempdir().unwrap();
        let blocker = root.path().join("feeds");
        fs::write(&blocker, b"not a directory").unwrap();
        let path = blocker.join("blog.xml");
        let err = write_atomically(&path, b"<rss/>").unwrap_err();
        assert!(matches!(err, PublishError::CreateDir { .. }), "{err:?}");
        let message = err.to_string();
        assert!(message.contains(&*path.to_string_lossy()), "{message}");
        assert_eq!(fs::read(&blocker).unwrap(), b"not a directory");
    }

    #[test]
    fn failed_write_leaves_old_file_and_no_temp_file() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("feed.xml");
        write_atomically(&path, b"<rss>old</rss>").unwrap();

        let err = write_with(&path, |file| {
            file.write_all(b"<rss>half")?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
        })
        .unwrap_err();
        assert!(matches!(err, PublishError::Write { .. }), "{err:?}");
        let message = chain(&err);
        assert!(
            message.contains("feed.xml") && message.contains("disk full"),
            "{message}"
        );
        assert_eq!(
            message.matches("disk full").count(),
            1,
            "the OS error is said once: {message}"
        );
        assert_eq!(fs::read(&path).unwrap(), b"<rss>old</rss>");
        assert_eq!(entries(root.path()), ["feed.xml"]);
    }

    #[test]
    fn target_that_is_a_directory_is_refused_intact() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join("feed.xml");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("keep"), b"x").unwrap();
        let err = write_atomically(&path, b"<rss/>").unwrap_err();
        assert!(matches!(err, PublishError::Rename { .. }), "{err:?}");
        assert!(err.to_string().contains("feed.xml"));
        assert_eq!(fs::read(path.join("keep")).unwrap(), b"x");
        assert_eq!(entries(root.path()), ["feed.xml"], "temp file removed");
    }

    #[test]
    fn path_without_file_name_is_refused() {
        let err = write_atomically(Path::new("/"), b"x").unwrap_err();
        assert!(matches!(err, PublishError::NoFileName { .. }));
    }

    #[cfg(unix)]
    #[test]
    fn read_only_directory_keeps_old_file_when_permissions_apply() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("ro");
        let path = dir.join("feed.xml");
        write_atomically(&path, b"old").unwrap();
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
        // Root ignores directory permissions; then there is nothing to test.
        let enforced = fs::File::create(dir.join("probe")).is_err();
        let result = write_atomically(&path, b"new");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
        if enforced {
            let err = result.unwrap_err();
            assert!(matches!(err, PublishError::TempFile { .. }), "{err:?}");
            assert!(err.to_string().contains("ro"), "{err}");
            assert_eq!(fs::read(&path).unwrap(), b"old");
        } else {
            assert_eq!(fs::read(&path).unwrap(), b"new");
        }
    }

    #[test]
    fn stale_temp_files_of_our_pattern_are_removed_and_nothing_else() {
        let root = tempfile::tempdir().unwrap();
        let old = std::time::SystemTime::now() - STALE_TEMP_AGE * 2;
        let make = |name: &str, aged: bool| {
            let p = root.path().join(name);
            fs::write(&p, b"partial").unwrap();
            if aged {
                fs::File::options()
                    .write(true)
                    .open(&p)
                    .unwrap()
                    .set_modified(old)
                    .unwrap();
            }
            p
        };
        let stale = make(".news.xml.a1B2c3.tmp", true);
        let fresh = make(".news.atom.Zz9Yy8.tmp", false);
        let feed = make("news.xml", true);
        let user = make(".notes.tmp", true);
        let other = make(".news.xml.toolong1.tmp", true);
        let removed = remove_stale_temps(root.path()).unwrap();
        assert_eq!(removed, vec![stale.clone()]);
        assert!(!stale.exists());
        for kept in [fresh, feed, user, other] {
            assert!(kept.exists(), "{} kept", kept.display());
        }
        assert!(
            remove_stale_temps(&root.path().join("absent"))
                .unwrap()
                .is_empty()
        );
    }
}
