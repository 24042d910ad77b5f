//! feedmine: turns list pages that have no feed into RSS feeds, automatically.
//!
//! The folders read like the data flow of one run:
//! `config` → `fetch` (http, decode, netguard, politeness, robots) →
//! `extract` (dom, sequence, patterns, records, items, dates) → `drift` →
//! `state` → `bodies` → `filters` → `publish` (templates, sanitize, feed
//! formats, atomic files) → `serve` (server, status, metrics).
//! `pipeline` strings the pure stages together for one page, `refresh` runs
//! one feed with its I/O, `daemon` schedules feeds; `eval` measures the
//! extractors on labelled data. Algorithms are pure functions over plain data
//! (tokens, arenas, byte ranges); network and file I/O stay in `fetch`,
//! `state`, `publish`, `serve` and the orchestrators.

pub mod bench;
pub mod bodies;
pub mod commands;
pub mod config;
pub mod daemon;
pub mod demo;
pub mod drift;
pub mod eval;
pub mod extract;
pub mod fetch;
pub mod filters;
pub mod pin;
pub mod pipeline;
pub mod publish;
pub mod refresh;
pub mod schedule;
pub mod serve;
pub mod state;
