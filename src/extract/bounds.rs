//! Bounds on what one item may carry into the state and every published
//! format, whatever the page says: a hostile or broken page must not grow
//! the feeds (a 9 MB "title" republished on every run), smuggle a `file:`
//! link into a public feed, or put markup into `<language>`.
//!
//! Invariants after [`bound_items`]: titles at most [`MAX_TITLE_CHARS`],
//! summaries at most [`MAX_SUMMARY_CHARS`], author at most
//! [`MAX_AUTHOR_CHARS`], at most [`MAX_CATEGORIES`] categories of at most
//! [`MAX_CATEGORY_CHARS`] each (cut at a character boundary, with `…`);
//! links and images are http(s), or `file:` only when the list page itself
//! is a local file.

use crate::extract::items::{Item, MAX_SUMMARY_CHARS};

/// Longest published title, in characters. Feed readers show one line or
/// two; real headlines stay far below it.
pub const MAX_TITLE_CHARS: usize = 300;
/// Longest author name.
pub const MAX_AUTHOR_CHARS: usize = 200;
/// Categories kept per item, and the longest one.
pub const MAX_CATEGORIES: usize = 20;
pub const MAX_CATEGORY_CHARS: usize = 100;

/// Apply the bounds to every item of a run (see the module header).
pub fn bound_items(items: &mut [Item], list_is_local: bool) {
    for item in items {
        bound_item(item, list_is_local);
    }
}

fn bound_item(item: &mut Item, list_is_local: bool) {
    let allowed = |u: &url::Url| {
        matches!(u.scheme(), "http" | "https") || (list_is_local && u.scheme() == "file")
    };
    if item.link.as_ref().is_some_and(|l| !allowed(l)) {
        item.link = None;
        if item.guid.starts_with("file:") {
            item.guid = crate::extract::items::content_guid(&item.title, &item.summary);
        }
    }
    if item.image.as_ref().is_some_and(|l| !allowed(l)) {
        item.image = None;
    }
    cut(&mut item.title, MAX_TITLE_CHARS);
    cut(&mut item.summary, MAX_SUMMARY_CHARS);
    if let Some(a) = item.author.as_mut() {
        cut(a, MAX_AUTHOR_CHARS);
    }
    item.categories.truncate(MAX_CATEGORIES);
    for c in &mut item.categories {
        cut(c, MAX_CATEGORY_CHARS);
    }
}

/// Cut `s` to at most `max` characters (the last one an ellipsis).
fn cut(s: &mut String, max: usize) {
    if let Some((at, _)) = s.char_indices().nth(max.saturating_sub(1))
        && s[at..].chars().nth(1).is_some()
    {
        s.truncate(at);
        s.push('…');
    }
}

/// A page's `lang` when it is a well-formed language tag (BCP 47 shape:
/// letters, then `-`-separated alphanumeric subtags of 1–8), else `None`:
/// it goes into `<language>` and `xml:lang` as is.
pub fn valid_lang(lang: &str) -> Option<String> {
    let lang = lang.trim();
    let mut parts = lang.split(['-', '_']);
    let first = parts.next()?;
    let ok_first = (1..=8).contains(&first.len()) && first.chars().all(|c| c.is_ascii_alphabetic());
    let ok_rest =
        parts.all(|p| (1..=8).contains(&p.len()) && p.chars().all(|c| c.is_ascii_alphanumeric()));
    (ok_first && ok_rest && lang.len() <= 35).then(|| lang.replace('_', "-"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;

    fn item(title: &str, link: &str) -> Item {
        Item {
            title: title.into(),
            link: Url::parse(link).ok(),
            guid: link.into(),
            date: None,
            date_relative: false,
            summary: "s".repeat(5_000),
            image: Url::parse("file:///etc/passwd").ok(),
            author: Some("A".repeat(1_000)),
            categories: (0..50).map(|i| format!("tag{i}")).collect(),
            body_html: None,
        }
    }

    #[test]
    fn huge_fields_are_cut_and_local_links_kept_only_for_local_lists() {
        let mut items = vec![item(&"Ä".repeat(9_000_000 / 2), "file:///etc/passwd")];
        bound_items(&mut items, false);
        let it = &items[0];
        assert_eq!(it.title.chars().count(), MAX_TITLE_CHARS);
        assert!(it.title.ends_with('…'));
        assert_eq!(it.summary.chars().count(), MAX_SUMMARY_CHARS);
        assert_eq!(
            it.author.as_ref().unwrap().chars().count(),
            MAX_AUTHOR_CHARS
        );
        assert_eq!(it.categories.len(), MAX_CATEGORIES);
        assert!(it.link.is_none() && it.image.is_none());
        assert!(it.guid.starts_with("urn:feedmine:"), "{}", it.guid);

        let mut local = vec![item("Short", "file:///srv/site/a.html")];
        bound_items(&mut local, true);
        assert_eq!(local[0].title, "Short");
        assert!(local[0].link.is_some() && local[0].image.is_some());
    }

    #[test]
    fn language_tags_are_checked() {
        assert_eq!(valid_lang("en").as_deref(), Some("en"));
        assert_eq!(valid_lang(" zh-Hans-CN ").as_deref(), Some("zh-Hans-CN"));
        assert_eq!(valid_lang("pt_BR").as_deref(), Some("pt-BR"));
        for bad in [
            "",
            "en\"><script>",
            "e n",
            "toolonglanguage",
            "en-",
            "1en",
            &"a-".repeat(40),
        ] {
            assert_eq!(valid_lang(bad), None, "{bad:?}");
        }
    }
}
