//! The HTTP side of the daemon: `server` (routes, auth, limits), `console`
//! (preview a page and add it as a feed), `status`
//! (what each feed is doing, shown on the index and `/health`) and `metrics`
//! (Prometheus). On a shared state (PostgreSQL), `documents` is where the
//! published documents come from and `cluster` what the server knows of
//! the database and the other instances.

pub mod cluster;
pub mod console;
pub mod documents;
pub mod metrics;
pub mod server;
pub mod status;
