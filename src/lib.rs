//! feedmine: turns list pages that have no feed into RSS feeds, automatically.
//!
//! The modules read like the data flow of one run:
//! `config` → `fetch` → `decode` → `dom` → `sequence` → `patterns` →
//! `records` → `items` (with `dates`) → `bodies` → `feed` → `publish`.
//! `pipeline` strings the stages together for one feed; `eval` measures the
//! extractors on labelled data. Algorithms are pure functions over plain data
//! (tokens, arenas, byte ranges); network and file I/O stay in `fetch`,
//! `publish` and `pipeline`.

pub mod bench;
pub mod bodies;
pub mod commands;
pub mod config;
pub mod daemon;
pub mod dates;
pub mod decode;
pub mod demo;
pub mod dom;
pub mod drift;
pub mod eval;
pub mod feed;
pub mod fetch;
pub mod filters;
pub mod items;
pub mod metrics;
pub mod netguard;
pub mod patterns;
pub mod pipeline;
pub mod politeness;
pub mod publish;
pub mod records;
pub mod refresh;
pub mod robots;
pub mod sanitize;
pub mod schedule;
pub mod sequence;
pub mod server;
pub mod state;
pub mod status;
pub mod templates;
