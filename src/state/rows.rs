//! What both state backends share, so that their meaning cannot drift
//! apart: the identity keys of a page's items, the column values a merge
//! writes for an item, the guid and first sight of new items, the
//! re-keying plan after a volatile parameter was learnt, reading stored
//! rows back into typed items and runs, and the order of published items.
//!
//! Invariants: everything here is pure (no I/O); the column names in
//! [`ITEM_COLUMNS`] are the same in the SQLite and the PostgreSQL schema.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use url::Url;

use super::identity::IdentityRules;
use super::{RunRow, StateError, StoredItem};
use crate::extract::items::Item;

/// UTC milliseconds since the epoch (how both schemas store times).
pub(crate) fn ms(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

/// A count as a database integer (saturating).
pub(crate) fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The identity keys of one page's items (page order) under `rules`: see
/// the `state` module header.
pub(crate) fn identity_keys(rules: &IdentityRules, items: &[Item]) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::with_capacity(items.len());
    let mut repeats: HashMap<String, usize> = HashMap::new();
    items
        .iter()
        .map(|item| {
            let base = match &item.link {
                Some(link) => rules.key(link),
                None => format!("title:{}", collapsed_lowercase(&item.title)),
            };
            let mut key = base.clone();
            // A title can itself end in "#2": count up until unused.
            while taken.contains(&key) {
                let n = repeats.entry(base.clone()).or_insert(1);
                *n += 1;
                key = format!("{base}#{n}");
            }
            taken.insert(key.clone());
            key
        })
        .collect()
}

fn collapsed_lowercase(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn sha256_hex(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        // Length-prefixed so ("ab", "c") and ("a", "bc") differ.
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Guid of an item without a link: `feedmine:<feed>:<16 hex of sha256(key)>`.
pub(crate) fn linkless_guid(feed: &str, key: &str) -> String {
    format!("feedmine:{feed}:{}", &sha256_hex(&[key])[..16])
}

/// sha256 hex over title, summary, image and link.
pub fn content_hash(item: &Item) -> String {
    sha256_hex(&[
        &item.title,
        &item.summary,
        item.image.as_ref().map_or("", Url::as_str),
        item.link.as_ref().map_or("", Url::as_str),
    ])
}

/// The column values a merge writes for one item of a page.
#[derive(Debug, Clone)]
pub(crate) struct ItemWrite {
    pub key: String,
    pub link: Option<String>,
    pub title: String,
    pub summary: String,
    pub image: Option<String>,
    /// RFC 3339 with the page's offset.
    pub page_date: Option<String>,
    /// The page date was relative ("2 days ago"): a stored one is kept.
    pub date_relative: bool,
    pub page_pos: i64,
    pub content_hash: String,
    pub body_html: Option<String>,
    pub author: Option<String>,
    /// One per line; empty keeps the stored ones on update.
    pub categories: String,
}

impl ItemWrite {
    /// The values of `item`, at page position `pos`, under identity `key`.
    pub fn new(item: &Item, key: &str, pos: usize) -> ItemWrite {
        ItemWrite {
            key: key.to_string(),
            link: item.link.as_ref().map(|u| u.as_str().to_string()),
            title: item.title.clone(),
            summary: item.summary.clone(),
            image: item.image.as_ref().map(|u| u.as_str().to_string()),
            page_date: item.date.map(|d| d.to_rfc3339()),
            date_relative: item.date_relative,
            page_pos: to_i64(pos),
            content_hash: content_hash(item),
            body_html: item.body_html.clone(),
            author: item.author.clone(),
            categories: item.categories.join("\n"),
        }
    }

    /// The guid of this item when it is new in `feed`.
    pub fn guid(&self, feed: &str) -> String {
        match &self.link {
            Some(l) => l.clone(),
            None => linkless_guid(feed, &self.key),
        }
    }
}

/// first_seen of the `rank`-th new item (0-based) of a merge at `now`.
pub(crate) fn new_item_first_seen(now: DateTime<Utc>, rank: usize) -> DateTime<Utc> {
    now.checked_sub_signed(Duration::seconds(to_i64(rank)))
        .unwrap_or(now)
}

/// How stored items are re-keyed under new rules: rows to delete (they
/// became one with an earlier seen item) and rows to rename.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct RekeyPlan {
    pub delete: Vec<i64>,
    pub rename: Vec<(i64, String)>,
}

/// The re-keying of a feed's linked items `(row id, key, link)`, given
/// oldest first (first_seen, then row id): of items that get the same key,
/// the first seen stays (its guid was published first).
pub(crate) fn rekey_plan(rows: &[(i64, String, String)], rules: &IdentityRules) -> RekeyPlan {
    let mut taken = HashSet::new();
    let mut plan = RekeyPlan::default();
    for (id, key, link) in rows {
        let Ok(url) = Url::parse(link) else { continue };
        let new_key = rules.key(&url);
        if !taken.insert(new_key.clone()) {
            plan.delete.push(*id);
        } else if new_key != *key {
            plan.rename.push((*id, new_key));
        }
    }
    plan
}

/// Parse stored link texts, skipping any that no longer parse.
pub(crate) fn parse_links(links: &[String]) -> Vec<Url> {
    links.iter().filter_map(|l| Url::parse(l).ok()).collect()
}

/// One `items` row as stored, before URLs and times are parsed.
#[derive(Debug, Clone)]
pub(crate) struct ItemRow {
    pub key: String,
    pub guid: String,
    pub link: Option<String>,
    pub title: String,
    pub summary: String,
    pub image: Option<String>,
    pub page_date: Option<String>,
    pub first_seen_ms: i64,
    pub last_seen_ms: i64,
    pub content_hash: String,
    pub body_html: Option<String>,
    pub body_attempts: i64,
    pub page_pos: i64,
    pub author: Option<String>,
    pub categories: String,
}

/// The columns an [`ItemRow`] is read from, in both schemas.
pub(crate) const ITEM_COLUMNS: &str = "key, guid, link, title, summary, image, page_date, \
     first_seen_ms, last_seen_ms, content_hash, body_html, body_attempts, page_pos, author, \
     categories";

fn corrupt(label: &str, op: &'static str, detail: String) -> StateError {
    StateError::Corrupt {
        path: label.to_string(),
        op,
        detail,
    }
}

fn time(label: &str, op: &'static str, t: i64) -> Result<DateTime<Utc>, StateError> {
    DateTime::<Utc>::from_timestamp_millis(t)
        .ok_or_else(|| corrupt(label, op, format!("stored time {t} out of range")))
}

impl ItemRow {
    /// The typed item (and its last page position); a value that does not
    /// parse is [`StateError::Corrupt`] naming `label` and `op`.
    pub fn into_stored(
        self,
        label: &str,
        op: &'static str,
    ) -> Result<(StoredItem, i64), StateError> {
        let url = |s: Option<String>| -> Result<Option<Url>, StateError> {
            s.map(|s| {
                Url::parse(&s).map_err(|e| corrupt(label, op, format!("stored URL {s:?}: {e}")))
            })
            .transpose()
        };
        let page_date = self
            .page_date
            .map(|d| {
                DateTime::parse_from_rfc3339(&d)
                    .map_err(|e| corrupt(label, op, format!("stored date {d:?}: {e}")))
            })
            .transpose()?;
        let item = StoredItem {
            link: url(self.link)?,
            image: url(self.image)?,
            page_date,
            first_seen: time(label, op, self.first_seen_ms)?,
            last_seen: time(label, op, self.last_seen_ms)?,
            key: self.key,
            guid: self.guid,
            title: self.title,
            summary: self.summary,
            content_hash: self.content_hash,
            body_html: self.body_html,
            body_attempts: u32::try_from(self.body_attempts).unwrap_or(0),
            author: self.author,
            categories: self
                .categories
                .lines()
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect(),
        };
        Ok((item, self.page_pos))
    }
}

/// One `runs` row as stored.
#[derive(Debug, Clone)]
pub(crate) struct RawRun {
    pub started_ms: i64,
    pub duration_ms: i64,
    pub status: String,
    pub records: i64,
    pub new_items: i64,
    pub pattern: Option<String>,
    pub error: Option<String>,
}

impl RawRun {
    /// The typed run; an impossible time is [`StateError::Corrupt`].
    pub fn into_run(self, label: &str, op: &'static str) -> Result<RunRow, StateError> {
        Ok(RunRow {
            started: time(label, op, self.started_ms)?,
            duration_ms: u64::try_from(self.duration_ms).unwrap_or(0),
            status: self.status,
            records: usize::try_from(self.records).unwrap_or(0),
            new_items: usize::try_from(self.new_items).unwrap_or(0),
            pattern: self.pattern,
            error: self.error,
        })
    }
}

/// Published order: newest first by page date (else first_seen); ties:
/// current before scrolled-off, then page order; at most `max_items`.
pub(crate) fn in_published_order(
    mut items: Vec<(StoredItem, i64)>,
    max_items: usize,
) -> Vec<StoredItem> {
    items.sort_by(|(a, apos), (b, bpos)| {
        let when = |i: &StoredItem| i.page_date.map_or(i.first_seen, |d| d.to_utc());
        when(b)
            .cmp(&when(a))
            .then(b.last_seen.cmp(&a.last_seen))
            .then(apos.cmp(bpos))
    });
    items.truncate(max_items);
    items.into_iter().map(|(i, _)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rekey_keeps_the_first_seen_and_renames_the_rest() {
        let rules = IdentityRules::default().with_learned(["v".to_string()]);
        let rows = vec![
            (
                1,
                "https://a.example/t?id=1&v=a".into(),
                "https://a.example/t?id=1&v=a".into(),
            ),
            (
                2,
                "https://a.example/t?id=1&v=b".into(),
                "https://a.example/t?id=1&v=b".into(),
            ),
            (
                3,
                "https://a.example/t?id=2".into(),
                "https://a.example/t?id=2&v=b".into(),
            ),
        ];
        let plan = rekey_plan(&rows, &rules);
        assert_eq!(plan.delete, vec![2]);
        assert_eq!(
            plan.rename,
            vec![(1, "https://a.example/t?id=1".to_string())]
        );
    }
}
