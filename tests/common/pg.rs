//! A throw-away PostgreSQL 15 cluster for tests: `initdb` into a temporary
//! directory (as the `postgres` user when the tests run as root, since
//! initdb refuses root), the server listening on 127.0.0.1 on a free port
//! with its Unix socket inside that directory, trust authentication, no
//! fsync. Dropping the [`PgCluster`] stops the server and removes the
//! directory.
//!
//! Without the binaries ([`BIN_DIR`]) [`PgCluster::start`] prints one line,
//! "skipping: PostgreSQL 15 not installed (…/initdb)", and returns `None`:
//! the test returns and passes.
//!
//! Invariants: nothing listens beyond 127.0.0.1; every database a test
//! makes lives in its own cluster's directory.

#![allow(dead_code)] // Each test crate uses a different subset.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where Debian's PostgreSQL 15 keeps its server binaries.
pub const BIN_DIR: &str = "/usr/lib/postgresql/15/bin";

/// One running cluster.
pub struct PgCluster {
    dir: tempfile::TempDir,
    port: u16,
    /// Run server commands as `postgres` (we are root).
    as_postgres: bool,
}

fn bin(name: &str) -> PathBuf {
    Path::new(BIN_DIR).join(name)
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// A free TCP port on 127.0.0.1 (free when asked; the server start retries
/// on a clash).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port on 127.0.0.1")
}

fn check(what: &str, out: std::io::Result<Output>) -> Output {
    let out = out.unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}): {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

impl PgCluster {
    /// Make and start a cluster, or say why not (`None`: PostgreSQL 15 is
    /// not installed; the caller returns).
    pub fn start() -> Option<PgCluster> {
        let initdb = bin("initdb");
        if !initdb.is_file() {
            println!(
                "skipping: PostgreSQL 15 not installed ({})",
                initdb.display()
            );
            return None;
        }
        let dir = tempfile::Builder::new()
            .prefix("feedmine-pg-")
            .tempdir()
            .expect("a temporary directory");
        let as_postgres = is_root();
        if as_postgres {
            check(
                "chown",
                Command::new("chown")
                    .args(["postgres:postgres"])
                    .arg(dir.path())
                    .output(),
            );
        }
        let mut cluster = PgCluster {
            dir,
            port: 0,
            as_postgres,
        };
        let data = cluster.data_dir();
        check(
            "initdb",
            cluster
                .server_command("initdb")
                .args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"])
                .arg("-D")
                .arg(&data)
                .output(),
        );
        cluster.start_server();
        Some(cluster)
    }

    fn data_dir(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn server_command(&self, name: &str) -> Command {
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(bin(name));
            c
        } else {
            Command::new(bin(name))
        }
    }

    /// Start (or start again) the server on a free port; a port taken in
    /// the meantime is retried with another.
    pub fn start_server(&mut self) {
        let mut last = None;
        for _ in 0..5 {
            let port = if self.port == 0 {
                free_port()
            } else {
                self.port
            };
            let options = format!(
                "-h 127.0.0.1 -p {port} -k {} -F -c max_connections=60 -c shared_buffers=16MB",
                self.dir.path().display()
            );
            let out = self
                .server_command("pg_ctl")
                .arg("-D")
                .arg(self.data_dir())
                .arg("-l")
                .arg(self.dir.path().join("server.log"))
                .args(["-w", "-t", "60", "-o", &options, "start"])
                .output()
                .expect("pg_ctl runs");
            if out.status.success() {
                self.port = port;
                return;
            }
            last = Some(self.log());
            self.port = 0;
        }
        panic!(
            "the PostgreSQL server did not start: {}",
            last.unwrap_or_default()
        );
    }

    /// Stop the server (fast: connections are cut), keeping the data.
    pub fn stop_server(&self) {
        let _ = self
            .server_command("pg_ctl")
            .arg("-D")
            .arg(self.data_dir())
            .args(["-w", "-m", "fast", "stop"])
            .output();
    }

    /// Freeze (SIGSTOP) or thaw (SIGCONT) the server and every backend:
    /// connections stay open but nothing answers, a database that hangs.
    pub fn freeze(&self, frozen: bool) {
        let pid_file = std::fs::read_to_string(self.data_dir().join("postmaster.pid"))
            .expect("the server runs");
        let postmaster = pid_file
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        let children = Command::new("pgrep")
            .args(["-P", &postmaster])
            .output()
            .expect("pgrep runs");
        let mut pids = vec![postmaster];
        pids.extend(
            String::from_utf8_lossy(&children.stdout)
                .split_whitespace()
                .map(str::to_string),
        );
        let signal = if frozen { "-STOP" } else { "-CONT" };
        let status = Command::new("kill")
            .arg(signal)
            .args(&pids)
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal} {pids:?}");
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("server.log")).unwrap_or_default()
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Connection URL of database `db` as the superuser (no password).
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }

    /// Run SQL in database `db` with psql; returns its unaligned output.
    pub fn psql(&self, db: &str, sql: &str) -> String {
        let out = check(
            "psql",
            Command::new(bin("psql"))
                .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"])
                .args(["-h", "127.0.0.1", "-U", "postgres"])
                .arg("-p")
                .arg(self.port.to_string())
                .args(["-d", db, "-c", sql])
                .output(),
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Create an empty database and return its URL.
    pub fn create_database(&self, name: &str) -> String {
        self.psql("postgres", &format!("CREATE DATABASE \"{name}\""));
        self.url(name)
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = self
            .server_command("pg_ctl")
            .arg("-D")
            .arg(self.data_dir())
            .args(["-w", "-m", "immediate", "stop"])
            .output();
        // The TempDir removes the directory.
    }
}
