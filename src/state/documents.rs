//! Published documents kept in a shared state (PostgreSQL), so that every
//! instance serves every feed byte for byte as the instance that ran it
//! published it: each feed format, the feed's HTML page and the shared
//! stylesheet, by name.
//!
//! Invariants:
//! - A document's `etag` is the quoted hex SHA-256 of its bytes, the same
//!   strong tag the server computes for a file (`serve::server`).
//! - `modified` is when these bytes were first published: storing the same
//!   bytes again keeps it, so `Last-Modified` and `If-Modified-Since`
//!   answer alike on every instance and across unchanged re-publishes.
//! - Names are built by [`feed_document`] / [`XSL_DOCUMENT`] from a
//!   validated feed id and an extension, never from request text.

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

/// Name of the shared stylesheet document.
pub const XSL_DOCUMENT: &str = "feed.xsl";

/// The name of feed `id`'s document with extension `ext` (`xml`, `atom`,
/// `json`, `html`).
pub fn feed_document(id: &str, ext: &str) -> String {
    format!("{id}.{ext}")
}

/// One published document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// `<feed id>.<ext>`, or [`XSL_DOCUMENT`].
    pub name: String,
    /// The feed it belongs to (`None` for shared documents).
    pub feed: Option<String>,
    pub body: Vec<u8>,
    /// Quoted hex SHA-256 of `body`.
    pub etag: String,
    /// When these bytes were first published.
    pub modified: DateTime<Utc>,
}

impl Document {
    /// A document published at `now` (its tag computed from `body`).
    pub fn new(name: String, feed: Option<&str>, body: Vec<u8>, now: DateTime<Utc>) -> Document {
        Document {
            etag: etag_of(&body),
            name,
            feed: feed.map(str::to_string),
            body,
            modified: now,
        }
    }
}

/// The strong ETag of `bytes`: quoted hex SHA-256.
pub fn etag_of(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// What a lookup found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentLookup {
    /// No such document (never published, or the state keeps none).
    Missing,
    /// The stored document still has the tag the caller already holds.
    Unchanged,
    /// The stored document (another tag than the caller's).
    Found(Document),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_is_the_quoted_sha256_of_the_bytes() {
        let d = Document::new(
            feed_document("a", "xml"),
            Some("a"),
            b"abc".to_vec(),
            Utc::now(),
        );
        assert_eq!(d.name, "a.xml");
        assert_eq!(
            d.etag,
            "\"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\""
        );
    }
}
