//! The HTTP side of the daemon: `server` (routes, auth, limits), `console`
//! (preview a page and add it as a feed), `status`
//! (what each feed is doing, shown on the index and `/health`) and `metrics`
//! (Prometheus).

pub mod console;
pub mod metrics;
pub mod server;
pub mod status;
