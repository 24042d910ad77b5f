//! Record → item: turns one mined record (a run of sibling DOM subtrees) into
//! a feed item with title, absolute link, date, summary and image.
//!
//! Invariants: `link` and `image` are absolute http(s) URLs; `guid` is stable
//! for the same record content (the link when there is one, otherwise a hash
//! of title and summary), so a record seen again maps to the same item.

use chrono::{DateTime, FixedOffset};
use url::Url;

/// One entry of a published feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The record's main link text or heading, whitespace-collapsed.
    pub title: String,
    /// Absolute URL of the record's main link, if it has one.
    pub link: Option<Url>,
    /// Stable identifier: the link's string when there is a link, otherwise
    /// `"urn:feedmine:<hex sha256 prefix>"` of title + summary.
    pub guid: String,
    /// Publication date found in the record, if any.
    pub date: Option<DateTime<FixedOffset>>,
    /// The record's remaining text (without the title), whitespace-collapsed.
    pub summary: String,
    /// First content image of the record, absolute.
    pub image: Option<Url>,
    /// Sanitized main-content HTML of the linked page (filled by `bodies`).
    pub body_html: Option<String>,
}

impl Item {
    /// True when `guid` is the link itself (RSS `isPermaLink="true"`).
    pub fn guid_is_permalink(&self) -> bool {
        self.link.as_ref().is_some_and(|l| l.as_str() == self.guid)
    }
}
