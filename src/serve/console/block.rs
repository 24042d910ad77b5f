//! The `[[feed]]` block the console shows and writes: built with
//! `toml_edit`, appended to `feeds.toml` with every comment and the layout
//! kept; secrets (header and cookie values, URL passwords) masked in the
//! copy a page shows.

use url::Url;

/// `base` unless a feed already has it, else `base-2`, `base-3`, …
pub(super) fn unused_id(config_text: &str, base: &str) -> String {
    let taken: Vec<String> = config_text
        .parse::<toml_edit::DocumentMut>()
        .ok()
        .and_then(|d| {
            d.get("feed")?.as_array_of_tables().map(|a| {
                a.iter()
                    .filter_map(|t| t.get("id")?.as_str().map(str::to_string))
                    .collect()
            })
        })
        .unwrap_or_default();
    (1..)
        .map(|n| {
            if n == 1 {
                base.to_string()
            } else {
                format!("{base}-{n}")
            }
        })
        .find(|id| !taken.iter().any(|t| t.eq_ignore_ascii_case(id)))
        .unwrap_or_else(|| base.to_string())
}

/// A feed id from a URL: host (without `www.`) and path words.
pub(super) fn suggested_id(url: &Url) -> String {
    let host = url.host_str().unwrap_or("feed").trim_start_matches("www.");
    let raw = format!("{host} {}", url.path());
    let mut id = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.ends_with('-') && !id.is_empty() {
            id.push('-');
        }
    }
    let id: String = id.trim_end_matches('-').chars().take(40).collect();
    let id = id.trim_end_matches('-').to_string();
    if id.is_empty() { "feed".into() } else { id }
}

/// What a `[[feed]]` block says.
#[derive(Debug, Clone)]
pub(super) struct FeedSpec {
    pub(super) id: String,
    pub(super) url: Url,
    pub(super) title: Option<String>,
    /// 1-based rank; 1 (the winner) is not written.
    pub(super) group: usize,
    pub(super) headers: Vec<(String, String)>,
    pub(super) cookies: Option<String>,
}

pub(super) const MASK: &str = "********";

/// A URL as a page may show it: a password in it is masked.
pub(super) fn shown_url(url: &Url) -> String {
    let mut shown = url.clone();
    if shown.password().is_some() {
        let _ = shown.set_password(Some(MASK));
    }
    shown.to_string()
}

/// The `[[feed]]` table of `spec` (values masked when `mask`).
pub(super) fn feed_table(spec: &FeedSpec, mask: bool) -> toml_edit::Table {
    use toml_edit::{InlineTable, value};
    let mut t = toml_edit::Table::new();
    t["id"] = value(spec.id.as_str());
    t["url"] = value(if mask {
        shown_url(&spec.url)
    } else {
        spec.url.to_string()
    });
    if let Some(title) = &spec.title {
        t["title"] = value(title.as_str());
    }
    if spec.group > 1 {
        t["group"] = value(i64::try_from(spec.group).unwrap_or(i64::MAX));
    }
    if !spec.headers.is_empty() {
        let mut h = InlineTable::new();
        for (k, v) in &spec.headers {
            h.insert(k, (if mask { MASK } else { v.as_str() }).into());
        }
        t["headers"] = value(h);
    }
    if let Some(c) = &spec.cookies {
        t["cookies"] = value(if mask { MASK } else { c.as_str() });
    }
    t
}

/// The block shown to copy.
pub(super) fn block_text(spec: &FeedSpec) -> String {
    let mut aot = toml_edit::ArrayOfTables::new();
    aot.push(feed_table(spec, true));
    let mut doc = toml_edit::DocumentMut::new();
    doc.insert("feed", toml_edit::Item::ArrayOfTables(aot));
    doc.to_string()
}

/// `config_text` with `spec` appended as a `[[feed]]`, everything else
/// (comments, order, layout) as it was.
pub(super) fn append_feed(
    config_text: &str,
    spec: &FeedSpec,
    mask: bool,
) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut = config_text
        .parse()
        .map_err(|e| format!("feeds.toml is not valid TOML: {e}"))?;
    let mut table = feed_table(spec, mask);
    table.decor_mut().set_prefix("\n");
    match doc.get_mut("feed") {
        None => {
            let mut aot = toml_edit::ArrayOfTables::new();
            aot.push(table);
            doc.insert("feed", toml_edit::Item::ArrayOfTables(aot));
        }
        Some(toml_edit::Item::ArrayOfTables(aot)) => aot.push(table),
        Some(_) => return Err("`feed` in feeds.toml is not a list of [[feed]] tables".into()),
    }
    Ok(doc.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> FeedSpec {
        FeedSpec {
            id: "town-events".into(),
            url: Url::parse("https://town.example/events/").unwrap(),
            title: Some("Town \"events\"".into()),
            group: 2,
            headers: vec![("X-Key".into(), "s3cret".into())],
            cookies: Some("sid=abc".into()),
        }
    }

    #[test]
    fn append_keeps_comments_and_layout_and_adds_one_feed() {
        let text = "# my feeds\noutput_dir = \"out\"  # where\n\n[[feed]]\n# the blog\nid = \"blog\"\nurl = \"https://blog.example/\"\n";
        let new = append_feed(text, &spec(), false).unwrap();
        assert!(new.starts_with(text), "existing text changed:\n{new}");
        assert!(new.contains("id = \"town-events\""));
        assert!(new.contains("group = 2"));
        assert!(new.contains("s3cret") && new.contains("sid=abc"));
        let doc: toml_edit::DocumentMut = new.parse().unwrap();
        assert_eq!(doc["feed"].as_array_of_tables().unwrap().len(), 2);
        assert_eq!(doc["feed"][1]["title"].as_str(), Some("Town \"events\""));
    }

    #[test]
    fn the_block_shown_masks_header_and_cookie_values() {
        let block = block_text(&spec());
        assert!(block.starts_with("[[feed]]\n"), "{block}");
        assert!(
            !block.contains("s3cret") && !block.contains("sid=abc"),
            "{block}"
        );
        assert!(
            block.contains("\"X-Key\" = \"********\"") || block.contains("X-Key = \"********\""),
            "{block}"
        );
    }

    #[test]
    fn url_passwords_are_masked_in_the_block() {
        let mut s = spec();
        s.url = Url::parse("https://ann:pa55word@town.example/events/").unwrap();
        let block = block_text(&s);
        assert!(
            !block.contains("pa55word") && block.contains("ann:********@"),
            "{block}"
        );
        let written = append_feed("", &s, false).unwrap();
        assert!(written.contains("ann:pa55word@"));
    }

    #[test]
    fn ids_come_from_the_url_and_avoid_taken_ones() {
        let url = Url::parse("https://www.Town.example/events/2026/").unwrap();
        assert_eq!(suggested_id(&url), "town-example-events-2026");
        let text = "[[feed]]\nid = \"town\"\nurl = \"a\"\n[[feed]]\nid = \"Town-2\"\nurl = \"b\"\n";
        assert_eq!(unused_id(text, "town"), "town-3");
        assert_eq!(unused_id(text, "other"), "other");
    }
}
