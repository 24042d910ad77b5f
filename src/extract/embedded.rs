//! Records from the data a page embeds for its scripts, without a browser.
//!
//! Pages built by JavaScript usually ship their data inside the HTML:
//! JSON-LD (`ItemList`, arrays of `Article`, `BlogPosting`, `JobPosting`,
//! `Product`, …), Next.js `__NEXT_DATA__`, Nuxt `__NUXT__` and
//! `__NUXT_DATA__`, and `window.__INITIAL_STATE__` / `__APOLLO_STATE__`-style
//! assignments. `scripts` finds and parses them (JSON with serde_json;
//! script assignments by a bounded literal reader, never by executing
//! anything), `groups` finds arrays of similar objects with a title-like and
//! a URL-like field in them and scores them on the DOM groups' scale, so
//! that `pipeline` can rank both kinds together.
//!
//! Invariants: pure (no I/O); bounded per page (see each submodule's
//! limits); groups are returned kept-first, by score; the same records
//! found twice (one list under two paths) are kept once, at the better
//! score.

pub mod devalue;
pub mod groups;
pub mod jsvalue;
pub mod scripts;

use serde_json::{Map, Value};
use url::Url;

pub use groups::{EmbeddedDrop, EmbeddedGroup, EmbeddedRecord, FieldPlan, PageFacts};
use scripts::ScriptKind;

use crate::extract::dates::DateContext;
use crate::extract::dom::prepare::ScriptSpans;
use crate::extract::items::{self, Item};
use crate::extract::patterns::MiningParams;

/// What the page's scripts look like (for the app-shell hint).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScriptStats {
    /// Inline code scripts.
    pub inline: usize,
    /// Scripts loaded from a `src`.
    pub external: usize,
    /// Bytes of inline script text (code and data).
    pub inline_bytes: usize,
    /// Data sources parsed (JSON blocks and assignments).
    pub data_sources: usize,
}

/// The embedded data of one page.
#[derive(Debug, Clone, Default)]
pub struct Embedded {
    /// Record groups, kept ones first by descending score, then dropped.
    pub groups: Vec<EmbeddedGroup>,
    pub scripts: ScriptStats,
}

impl Embedded {
    /// The best group that passed the rules.
    pub fn best(&self) -> Option<&EmbeddedGroup> {
        self.groups.first().filter(|g| g.dropped.is_none())
    }
}

/// Finds the record groups in the data embedded in `html`, whose scripts
/// the parser noted in `spans` (the rest of the page is scanned; default
/// spans scan it all). `visible_text` is the byte count of the page's
/// visible text (the DOM's).
pub fn find(
    html: &str,
    spans: &ScriptSpans,
    visible_text: usize,
    params: &MiningParams,
    dates: &DateContext,
) -> Embedded {
    let found = scripts::of_page(html, spans);
    let mut stats = ScriptStats::default();
    for s in &found {
        if s.src.is_some() {
            stats.external += 1;
        } else {
            stats.inline_bytes += s.text.len();
            if s.kind == ScriptKind::JavaScript {
                stats.inline += 1;
            }
        }
    }
    let sources = scripts::sources(&found);
    stats.data_sources = sources.len();
    let facts = PageFacts {
        visible_text,
        min_instances: params.min_instances,
        min_coverage: params.min_coverage,
    };
    let mut out = Vec::new();
    let mut walked = 0;
    for source in &sources {
        for (path, members) in groups::candidates(&source.value, &mut walked) {
            out.push(groups::judge(&source.label, path, &members, &facts, dates));
        }
    }
    for (ty, members) in ld_json_by_type(&sources) {
        let path = format!("@type={ty}");
        out.push(groups::judge("ld+json", path, &members, &facts, dates));
    }
    Embedded {
        groups: rank(out),
        scripts: stats,
    }
}

/// JSON-LD nodes of all blocks (top-level objects, arrays and `@graph`
/// members) grouped by `@type`: product pages often carry one block per
/// product card. Only types with two nodes or more.
fn ld_json_by_type(sources: &[scripts::Source]) -> Vec<(String, Vec<&Map<String, Value>>)> {
    fn add<'v>(by_type: &mut Vec<(String, Vec<&'v Map<String, Value>>)>, node: &'v Value) {
        let Some(obj) = node.as_object() else { return };
        let ty = match obj.get("@type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(a)) => a.first().and_then(Value::as_str).unwrap_or("").to_string(),
            _ => return,
        };
        match by_type.iter_mut().find(|(t, _)| *t == ty) {
            Some((_, v)) => v.push(obj),
            None => by_type.push((ty, vec![obj])),
        }
    }
    let mut by_type = Vec::new();
    for s in sources.iter().filter(|s| s.kind == ScriptKind::LdJson) {
        let top: Vec<&Value> = match &s.value {
            Value::Array(a) => a.iter().collect(),
            v => vec![v],
        };
        for node in top {
            match node.get("@graph").and_then(Value::as_array) {
                Some(graph) => graph.iter().for_each(|n| add(&mut by_type, n)),
                None => add(&mut by_type, node),
            }
        }
    }
    by_type.retain(|(_, v)| v.len() >= 2);
    by_type
}

/// Kept groups first by score, dropped after; one copy of each record set.
fn rank(mut groups: Vec<EmbeddedGroup>) -> Vec<EmbeddedGroup> {
    groups.sort_by(|a, b| {
        a.dropped
            .is_some()
            .cmp(&b.dropped.is_some())
            .then(b.score.total_cmp(&a.score))
    });
    let mut seen = std::collections::HashSet::new();
    groups.retain(|g| {
        let key: Vec<(&str, Option<&str>)> = g
            .records
            .iter()
            .take(50)
            .map(|r| (r.title.as_str(), r.url.as_deref()))
            .collect();
        g.records.is_empty() || seen.insert(format!("{}{key:?}", g.records.len()))
    });
    groups
}

/// The items of a group: links and images resolved against `base`, guid
/// from the link, else the record's id in the data, else its text.
/// Records without title and link are left out, and repeated guids.
pub fn items(group: &EmbeddedGroup, base: &Url) -> Vec<Item> {
    let mut seen = std::collections::HashSet::new();
    group
        .records
        .iter()
        .map(|r| {
            let link = r.url.as_deref().and_then(|u| items::resolve(base, u));
            let image = r
                .image
                .as_deref()
                .and_then(|i| items::resolve(base, i))
                .filter(|u| matches!(u.scheme(), "http" | "https"));
            let guid = match (&link, &r.id) {
                (Some(l), _) => l.to_string(),
                (None, Some(id)) => items::content_guid(&format!("id:{id}"), ""),
                (None, None) => items::content_guid(&r.title, &r.summary),
            };
            Item {
                title: r.title.clone(),
                link,
                guid,
                date: r.date,
                // Dates in data are written out, never "2 days ago".
                date_relative: false,
                summary: r.summary.clone(),
                image,
                author: r.author.clone(),
                categories: r.categories.clone(),
                body_html: None,
            }
        })
        .filter(|it| !it.title.is_empty() || it.link.is_some())
        .filter(|it| seen.insert(it.guid.clone()))
        .collect()
}
