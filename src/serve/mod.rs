//! The HTTP side of the daemon: `server` (routes, auth, limits), `status`
//! (what each feed is doing, shown on the index and `/health`) and `metrics`
//! (Prometheus).

pub mod metrics;
pub mod server;
pub mod status;
