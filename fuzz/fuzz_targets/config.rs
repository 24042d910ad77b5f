//! `config::parse` on arbitrary UTF-8: returns Ok or a typed error, never panics.
#![no_main]

use feedmine::config;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    match config::parse(text, std::path::Path::new("/etc/feedmine/feeds.toml")) {
        Ok(cfg) => drop(cfg),
        Err(e) => drop(e.to_string()),
    }
});
