//! Pinned feeds: turning a detected record group into a `[feed.select]`
//! table (`feedmine pin`), writing it into `feeds.toml` without disturbing
//! the rest of the file, and the sentences a pinned feed logs when the site
//! changes under its selectors.
//!
//! Invariants:
//! - [`edit_config`] changes only the named feed's `select`/`group` keys;
//!   every comment, blank line and key order elsewhere is kept (toml_edit).
//! - A written table always validates: its selectors were generated and
//!   verified on the page, and [`edit_config`]'s output is re-parsed before
//!   it is returned.
//! - The file is replaced atomically (temp file + rename), never truncated.

use toml_edit::{DocumentMut, Item as TomlItem, Table, value};

use crate::config::Feed;
use crate::extract::dates::DateContext;
use crate::extract::items;
use crate::extract::selectors::{self, CssDoc, Field, SelectSpec};
use crate::pipeline::{Chosen, ListPage};

/// Why a pin cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum PinError {
    #[error("the page has {groups} ranked groups; there is no group {rank}")]
    NoGroup { rank: usize, groups: usize },
    #[error(
        "no stable CSS selector selects exactly group {rank}'s {records} records; \
         use `group = {rank}` instead"
    )]
    NoSelector { rank: usize, records: usize },
    #[error("the config is not valid TOML: {0}")]
    Toml(String),
    #[error("no [[feed]] with id \"{0}\" in the config")]
    NoFeed(String),
    #[error("the edited config does not parse back: {0}")]
    Roundtrip(String),
}

/// The `[feed.select]` that reproduces group `rank` (1 = the winner) of an
/// analysed page: its verified records selector plus the field selectors
/// that agree with automatic field finding.
pub fn spec_for_group(
    page: &ListPage,
    rank: usize,
    dates: &DateContext,
) -> Result<SelectSpec, PinError> {
    let groups = page.detection.groups.len();
    let group = rank
        .checked_sub(1)
        .and_then(|i| page.detection.groups.get(i))
        .ok_or(PinError::NoGroup { rank, groups })?;
    let css = CssDoc::new(&page.doc);
    let records =
        selectors::group_selector(&page.doc, &css, &group.records).ok_or(PinError::NoSelector {
            rank,
            records: group.records.len(),
        })?;
    let plan = items::plan_titles(&page.doc, &group.records, dates);
    let fields =
        selectors::field_selectors(&page.doc, &css, &group.records, &page.base, dates, &plan);
    let mut spec = SelectSpec {
        records,
        siblings: selectors::group_siblings(&page.doc, &group.records),
        ..SelectSpec::default()
    };
    for f in Field::ALL {
        if let Some(s) = fields.get(f) {
            spec.fields.insert(f.key(), s.to_string());
        }
    }
    Ok(spec)
}

/// `text` with feed `feed_id`'s `select` table set to `spec` (and any
/// `group` key removed), everything else as it was.
pub fn edit_config(text: &str, feed_id: &str, spec: &SelectSpec) -> Result<String, PinError> {
    let mut doc: DocumentMut = text.parse().map_err(|e| PinError::Toml(format!("{e}")))?;
    let feeds = doc
        .get_mut("feed")
        .and_then(TomlItem::as_array_of_tables_mut)
        .ok_or_else(|| PinError::NoFeed(feed_id.to_string()))?;
    let feed = feeds
        .iter_mut()
        .find(|t| t.get("id").and_then(TomlItem::as_str).map(str::trim) == Some(feed_id))
        .ok_or_else(|| PinError::NoFeed(feed_id.to_string()))?;
    feed.remove("group");
    let mut table = match feed.remove("select") {
        Some(TomlItem::Table(mut t)) => {
            t.clear();
            t
        }
        _ => Table::new(),
    };
    table.insert("records", value(spec.records.as_str()));
    if spec.siblings > 0 {
        table.insert("siblings", value(spec.siblings as i64));
    }
    for f in Field::ALL {
        if let Some(s) = spec.fields.get(f.key()) {
            table.insert(f.key(), value(s.as_str()));
        }
    }
    table.set_implicit(false);
    feed.insert("select", TomlItem::Table(table));
    let out = doc.to_string();
    toml::from_str::<toml::Table>(&out).map_err(|e| PinError::Roundtrip(e.to_string()))?;
    Ok(out)
}

/// What `feedmine pin` would write, and how it was checked.
#[derive(Debug, Clone)]
pub struct PinPlan {
    pub rank: usize,
    pub spec: SelectSpec,
    /// The whole config with the feed's `[feed.select]` set.
    pub new_text: String,
    /// Items detection gives for the group.
    pub detected_items: usize,
    /// Items the written selectors give on the same page.
    pub selected_items: usize,
}

/// Detect on the feed's page (decoded HTML from `final_url`), turn group
/// `rank` into selectors, check them by re-extracting through them, and
/// edit `config_text`. Pure: the caller fetches and writes.
pub fn plan(
    config_text: &str,
    feed: &Feed,
    html: &str,
    final_url: &url::Url,
    rank: usize,
    dates: &DateContext,
) -> Result<PinPlan, PinError> {
    use crate::extract::selectors::ListChoice;
    use crate::pipeline::analyze_list_with;
    let group = ListChoice::Group {
        rank,
        fallback_auto: false,
    };
    let page = analyze_list_with(html, final_url, &feed.mining, dates, &group);
    let spec = spec_for_group(&page, rank, dates)?;
    let select = ListChoice::Select {
        spec: spec.clone(),
        fallback_auto: false,
    };
    let again = analyze_list_with(html, final_url, &feed.mining, dates, &select);
    let new_text = edit_config(config_text, &feed.id, &spec)?;
    Ok(PinPlan {
        rank,
        spec,
        new_text,
        detected_items: page.items.len(),
        selected_items: again.items.len(),
    })
}

/// A unified diff of the config before and after, for showing first.
pub fn diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(path, path)
        .to_string()
}

/// The sentences a pinned feed's run reports (logs; `/health` when the run
/// is degraded), logged here: a warning when the choice found nothing,
/// details about missing fields at info level.
pub fn notes(feed: &Feed, chosen: &Chosen) -> Vec<String> {
    if !feed.choice.is_pinned() {
        return Vec::new();
    }
    let mut notes = chosen.notes.clone();
    if chosen.fell_back {
        notes.push("using automatic detection meanwhile (fallback = \"auto\")".to_string());
    }
    if let Some(sel) = &chosen.select {
        for (field, n) in &sel.missing {
            tracing::info!(
                feed = %feed.id,
                "select.{field} found nothing in {n} of {} records",
                sel.records
            );
        }
        if sel.capped > 0 || sel.skipped > 0 {
            tracing::info!(
                feed = %feed.id,
                capped = sel.capped,
                skipped = sel.skipped,
                "records selector: {} records kept, {} beyond the cap of {}, {} without title or link or repeated",
                sel.records - sel.capped.min(sel.records),
                sel.capped,
                selectors::MAX_SELECTED_RECORDS,
                sel.skipped
            );
        }
    }
    let nothing = chosen.fell_back
        || chosen
            .select
            .as_ref()
            .is_some_and(|s| s.records == 0 || s.records == s.skipped);
    for n in &chosen.notes {
        if nothing {
            tracing::warn!(feed = %feed.id, "{n}");
        } else {
            tracing::info!(feed = %feed.id, "{n}");
        }
    }
    notes
}

/// The sentences a drifted pinned run adds to its reasons: its notes, or at
/// least what the records selector matched.
pub fn drift_notes(notes: &[String], chosen: &Chosen) -> Vec<String> {
    match (&chosen.select, notes.is_empty()) {
        (Some(sel), true) => vec![format!(
            "the records selector \"{}\" matches {} records",
            sel.records_selector, sel.records
        )],
        _ => notes.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = r#"# My feeds
output_dir = "out"

# the events page
[[feed]]
id = "events"   # keep this comment
url = "https://example.org/events"
group = 2

[[feed]]
id = "news"
url = "https://example.org/news"
"#;

    fn spec() -> SelectSpec {
        let mut s = SelectSpec {
            records: "div.events > article.card".into(),
            ..SelectSpec::default()
        };
        s.fields.insert("title", "h3".into());
        s.fields.insert("link", "h3 a@href".into());
        s
    }

    #[test]
    fn edit_keeps_comments_and_attaches_the_table_to_its_feed() {
        let out = edit_config(CONFIG, "events", &spec()).unwrap();
        assert!(out.contains("# My feeds"));
        assert!(out.contains("# the events page"));
        assert!(out.contains("id = \"events\"   # keep this comment"));
        assert!(!out.contains("group = 2"));
        let parsed: toml::Table = toml::from_str(&out).unwrap();
        let feeds = parsed["feed"].as_array().unwrap();
        assert_eq!(
            feeds[0]["select"]["records"].as_str(),
            Some("div.events > article.card")
        );
        assert_eq!(feeds[0]["select"]["link"].as_str(), Some("h3 a@href"));
        assert!(feeds[1].get("select").is_none());
        // The second feed is untouched and still after the first.
        assert!(out.find("[feed.select]").unwrap() < out.find("id = \"news\"").unwrap());
    }

    #[test]
    fn drift_notes_name_the_selector_even_when_detection_agrees() {
        let chosen = Chosen {
            select: Some(crate::pipeline::SelectOutcome {
                records_selector: "ul.posts > li".into(),
                records: 4,
                ..Default::default()
            }),
            ..Chosen::default()
        };
        assert_eq!(
            drift_notes(&[], &chosen),
            vec!["the records selector \"ul.posts > li\" matches 4 records".to_string()]
        );
        let notes = vec!["automatic detection finds 20 records".to_string()];
        assert_eq!(drift_notes(&notes, &chosen), notes);
    }

    #[test]
    fn a_missing_group_is_a_clear_error() {
        let page = crate::pipeline::analyze_list(
            "<html><body><p>No list here.</p></body></html>",
            &url::Url::parse("https://x.example/").unwrap(),
            &crate::extract::patterns::MiningParams::default(),
            &crate::commands::default_date_context(),
        );
        let err = spec_for_group(&page, 2, &crate::commands::default_date_context()).unwrap_err();
        assert!(matches!(err, PinError::NoGroup { rank: 2, .. }), "{err}");
    }

    #[test]
    fn edit_replaces_an_existing_select_and_names_a_missing_feed() {
        let once = edit_config(CONFIG, "events", &spec()).unwrap();
        let mut other = spec();
        other.records = "ul > li".into();
        other.fields.clear();
        let twice = edit_config(&once, "events", &other).unwrap();
        let parsed: toml::Table = toml::from_str(&twice).unwrap();
        let sel = parsed["feed"].as_array().unwrap()[0]["select"]
            .as_table()
            .unwrap();
        assert_eq!(sel.len(), 1);
        assert_eq!(sel["records"].as_str(), Some("ul > li"));
        assert!(matches!(
            edit_config(CONFIG, "nope", &spec()),
            Err(PinError::NoFeed(_))
        ));
    }
}
