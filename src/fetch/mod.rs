//! The network and file edge: everything that asks another host (or the
//! local disk) for bytes. `http` fetches one page with every bound and the
//! redirect policy, `decode` turns bytes into text, `netguard` is the one
//! address policy every request obeys, `politeness` paces hosts, `robots`
//! reads robots.txt, `memory` bounds the pages held at once, `render` loads pages in headless Chromium, `redact` masks secrets in URLs before they are shown.

pub mod cluster_gate;
pub mod decode;
mod http;
pub mod memory;
pub mod netguard;
pub mod politeness;
pub mod redact;
pub mod render;
pub mod robots;

pub use http::*;
