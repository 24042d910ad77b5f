//! Lines of a list that lead to no article of their own. A "start here"
//! page's reading lists mix the articles with a few links of other kinds:
//! a whole section's index (`/guides/`, whose articles the list links
//! too), a tag page (`/tags/writing/`), the site's own profile on another
//! site ("… on LinkedIn" → `linkedin.example/company/<site>`), a line
//! that links nowhere a reader can go (`mailto:`, a broken scheme), and a
//! download of the whole list as an archive (a mailing list's "Download
//! this month as a gzip'd text file" under its thread index).
//!
//! Invariants: each kind is dropped only while it stays a few of the list
//! (at most [`STRAY_SHARE`] of at least [`MIN_ITEMS`] items), so a list of
//! sections, of tags or of profiles keeps all its entries; a dated item is
//! never a stray. Sorting the items' paths once makes the section test
//! n log n in the items.

use url::Url;

use super::Item;

/// Lists shorter than this keep every line.
pub const MIN_ITEMS: usize = 5;
/// Each kind of stray goes only while it is at most one in this many items.
pub const STRAY_SHARE: usize = 4;
/// Path segments that name a taxonomy; the one segment after it is a term.
const TAXONOMY_SEGMENTS: &[&str] = &[
    "tag",
    "tags",
    "category",
    "categories",
    "topic",
    "topics",
    "label",
    "labels",
];
/// A site's name (the host's label before its top-level domain) shorter
/// than this is too common a string to look for in a path or a title.
const MIN_SITE_NAME: usize = 4;

/// Endings of an archive file's path: a download of many things at once
/// (a month of mail, every photo of a gallery), not one record's page.
const ARCHIVE_EXTENSIONS: &[&str] = &[
    ".gz", ".tgz", ".bz2", ".xz", ".zip", ".7z", ".rar", ".tar", ".mbox",
];

/// How many kinds of stray line there are.
const STRAY_KINDS: usize = 5;

/// The kinds of stray line, one test each.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stray {
    SectionIndex,
    Taxonomy,
    ProfileElsewhere,
    DeadEnd,
    Archive,
}

/// `items` without the strays of each kind that stays a few (see the
/// module header); `page` is the list page's URL (its site's name).
pub fn without_strays(items: &mut Vec<Item>, page: &Url) {
    if items.len() < MIN_ITEMS {
        return;
    }
    let parents = section_indexes(items);
    let linked = items.iter().filter(|i| i.link.is_some()).count();
    let mostly_linked = linked * 4 >= items.len() * 3;
    let here = site_name(page);
    let kinds: Vec<Option<Stray>> = items
        .iter()
        .zip(&parents)
        .map(|(it, &parent)| stray_kind(it, parent, mostly_linked, page, here.as_deref()))
        .collect();
    let mut counts = [0usize; STRAY_KINDS];
    for k in kinds.iter().flatten() {
        counts[*k as usize] += 1;
    }
    let total = items.len();
    let mut kind = kinds.iter();
    items.retain(|_| {
        kind.next()
            .copied()
            .flatten()
            .is_none_or(|k| counts[k as usize] * STRAY_SHARE > total)
    });
}

/// What kind of stray `item` is, if any (`parent`: its link is a section
/// index of another item's; `mostly_linked`: three in four items link;
/// `here`: the page's site's name, [`site_name`]).
fn stray_kind(
    item: &Item,
    parent: bool,
    mostly_linked: bool,
    page: &Url,
    here: Option<&str>,
) -> Option<Stray> {
    if item.date.is_some() {
        return None;
    }
    let Some(link) = &item.link else {
        return (mostly_linked && is_bare(item)).then_some(Stray::DeadEnd);
    };
    if parent {
        Some(Stray::SectionIndex)
    } else if is_taxonomy(link, page) {
        Some(Stray::Taxonomy)
    } else if here.is_some_and(|h| is_profile_elsewhere(&item.title, link, h)) {
        Some(Stray::ProfileElsewhere)
    } else if is_archive_file(link) {
        Some(Stray::Archive)
    } else {
        None
    }
}

/// For each item, true when its link is a section's index: on the same
/// host, without a query, another item's path runs on below its path
/// (`/guides/` above `/guides/remote-onboarding/`). The site's root is
/// no section.
fn section_indexes(items: &[Item]) -> Vec<bool> {
    let key = |u: &Url| format!("{}{}", u.host_str().unwrap_or(""), u.path());
    let candidate = |u: &Url| u.query().is_none() && u.path() != "/";
    // Only an undated item can be a stray: most lists are dated, and
    // their paths are never sorted.
    let undated = |it: &&Item| it.date.is_none();
    if !items
        .iter()
        .filter(undated)
        .filter_map(|i| i.link.as_ref())
        .any(candidate)
    {
        return vec![false; items.len()];
    }
    let mut keys: Vec<String> = items
        .iter()
        .filter_map(|i| i.link.as_ref())
        .map(key)
        .collect();
    keys.sort_unstable();
    items
        .iter()
        .map(|it| {
            let link = it.link.as_ref().filter(|u| undated(&it) && candidate(u));
            link.is_some_and(|u| {
                let mut dir = key(u);
                if !dir.ends_with('/') {
                    dir.push('/');
                }
                let after = keys.partition_point(|k| k.as_str() <= dir.as_str());
                keys.get(after).is_some_and(|k| k.starts_with(&dir))
            })
        })
        .collect()
}

/// True when `link` is a term's page of a taxonomy on the page's own site
/// (`/tags/writing/`, `/category/news`): the term is the path's last
/// segment and a taxonomy segment comes just before it.
fn is_taxonomy(link: &Url, page: &Url) -> bool {
    link.host_str() == page.host_str() && in_taxonomy_path(link)
}

/// True when `link`'s last path segment is a term after a taxonomy
/// segment ([`TAXONOMY_SEGMENTS`]).
fn in_taxonomy_path(link: &Url) -> bool {
    let segments: Vec<&str> = link.path().split('/').filter(|s| !s.is_empty()).collect();
    match segments.as_slice() {
        [.., taxonomy, _term] => is_taxonomy_name(taxonomy),
        _ => false,
    }
}

/// True when `name` is one of [`TAXONOMY_SEGMENTS`], in any case.
fn is_taxonomy_name(name: &str) -> bool {
    TAXONOMY_SEGMENTS
        .iter()
        .any(|t| t.eq_ignore_ascii_case(name))
}

/// True when `link` names a term of a taxonomy: by its path
/// (`/tags/writing/`) or by a query key (a notices table's category cell,
/// `/public-notices/?category=allotments`, the list itself filtered).
pub(super) fn names_term(link: &Url) -> bool {
    in_taxonomy_path(link) || link.query_pairs().any(|(k, _)| is_taxonomy_name(&k))
}

/// True when `link` is the own profile on another site of the page's site
/// (named `here`): the link's host is another site, whose name the line's
/// `title` says ("Hygge Work on Instagram"), and the link's path names the
/// page's site (`instagram.example/hygge.work/`).
fn is_profile_elsewhere(title: &str, link: &Url, here: &str) -> bool {
    let Some(there) = site_name(link) else {
        return false;
    };
    there != here && folded(title).contains(&there) && folded(link.path()).contains(here)
}

/// True when `link` downloads an archive file ([`ARCHIVE_EXTENSIONS`]).
fn is_archive_file(link: &Url) -> bool {
    let path = link.path().to_ascii_lowercase();
    ARCHIVE_EXTENSIONS.iter().any(|e| path.ends_with(e))
}

/// A host's site name: its label before the top-level domain, folded
/// (`www.instagram.com` → "instagram"); none when shorter than
/// [`MIN_SITE_NAME`].
fn site_name(url: &Url) -> Option<String> {
    let host = url.host_str()?;
    let mut labels = host.rsplit('.');
    labels.next()?;
    let name = folded(labels.next()?);
    (name.len() >= MIN_SITE_NAME).then_some(name)
}

/// `s` lowercased with everything but letters and digits left out.
fn folded(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// True when unlinked `item` is a bare line that leads nowhere (no words
/// beside its title, no image or author: a `mailto:` "Write to me").
fn is_bare(item: &Item) -> bool {
    item.summary.is_empty() && item.image.is_none() && item.author.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(title: &str, link: Option<&str>) -> Item {
        Item {
            link: link.map(|l| Url::parse(l).expect("test url")),
            guid: link.unwrap_or(title).to_owned(),
            ..Item::bare(title)
        }
    }

    fn page() -> Url {
        Url::parse("https://fieldnotes.example/").expect("page url")
    }

    fn titles(items: &[Item]) -> Vec<&str> {
        items.iter().map(|i| i.title.as_str()).collect()
    }

    fn articles(n: usize) -> Vec<Item> {
        (0..n)
            .map(|i| {
                let link = format!("https://fieldnotes.example/guides/part-{i}/");
                line(&format!("Guide part {i}"), Some(&link))
            })
            .collect()
    }

    #[test]
    fn a_term_is_named_by_its_path_or_its_query_key() {
        let term = |u: &str| names_term(&Url::parse(u).expect("test url"));
        assert!(term("https://town.example/notices/?category=allotments"));
        assert!(term("https://town.example/tags/writing/"));
        assert!(term("https://town.example/blog/?Tag=rust&page=2"));
        assert!(!term("https://town.example/notices/allotment-rents/"));
        assert!(!term("https://town.example/notices/?page=2"));
        assert!(!term("https://town.example/category/"));
    }

    #[test]
    fn a_reading_list_drops_its_index_tag_profile_and_mailto_lines() {
        let mut items = articles(12);
        items.insert(
            2,
            line(
                "Everything in the Guides section",
                Some("https://fieldnotes.example/guides/"),
            ),
        );
        items.insert(
            5,
            line(
                "Everything tagged “writing”",
                Some("https://fieldnotes.example/tags/writing/"),
            ),
        );
        items.insert(
            8,
            line(
                "Field Notes on LinkedIn",
                Some("https://www.linkedin.example/company/fieldnotes"),
            ),
        );
        items.insert(10, line("Write to me", None));
        let mut kept = items.clone();
        without_strays(&mut kept, &page());
        assert_eq!(kept.len(), 12, "{:?}", titles(&kept));
        assert!(kept.iter().all(|i| i.title.starts_with("Guide part")));
    }

    #[test]
    fn a_thread_index_drops_its_download_of_the_month() {
        // A mailing list's archive: the messages, then the month as a file.
        let mut items = articles(9);
        items.push(line(
            "Download this month as a gzip'd text file",
            Some("https://fieldnotes.example/pipermail/2026-November.txt.gz"),
        ));
        without_strays(&mut items, &page());
        assert_eq!(items.len(), 9, "{:?}", titles(&items));
        // A list of downloads keeps them all.
        let mut files: Vec<Item> = (0..6)
            .map(|i| {
                let link = format!("https://fieldnotes.example/data/survey-{i}.zip");
                line(&format!("Survey {i}"), Some(&link))
            })
            .collect();
        without_strays(&mut files, &page());
        assert_eq!(files.len(), 6);
    }

    #[test]
    fn a_list_of_sections_or_tags_keeps_its_entries() {
        // A contents page: each section, then its pages.
        let mut sections = Vec::new();
        for part in ["guides", "notes", "talks"] {
            let index = format!("https://fieldnotes.example/{part}/");
            sections.push(line(part, Some(&index)));
            sections.push(line(
                &format!("{part}: first"),
                Some(&format!("{index}first/")),
            ));
        }
        let before = sections.len();
        without_strays(&mut sections, &page());
        assert_eq!(
            sections.len(),
            before,
            "a quarter or more of sections stays"
        );
        let mut tags: Vec<Item> = ["rust", "writing", "travel", "tools", "craft"]
            .iter()
            .map(|t| line(t, Some(&format!("https://fieldnotes.example/tags/{t}/"))))
            .collect();
        without_strays(&mut tags, &page());
        assert_eq!(tags.len(), 5);
    }

    #[test]
    fn a_dated_parent_or_an_outside_project_stays() {
        let mut items = articles(8);
        let mut dated = line(
            "Guides, the series",
            Some("https://fieldnotes.example/guides/"),
        );
        dated.date = chrono::DateTime::parse_from_rfc3339("2026-11-20T00:00:00Z").ok();
        items.insert(0, dated);
        // Another site's page that does not say which site it is on.
        items.push(line(
            "fieldnotes-cli",
            Some("https://code.example/fieldnotes/fieldnotes-cli"),
        ));
        // A line with words of its own is a record, linked or not.
        let mut noted = line("Harbour walk", None);
        noted.summary = "Four miles along the old quay.".into();
        items.push(noted);
        let before = items.len();
        without_strays(&mut items, &page());
        assert_eq!(items.len(), before, "{:?}", titles(&items));
    }

    #[test]
    fn a_short_list_keeps_every_line() {
        let mut items = articles(3);
        items.push(line("Write to me", None));
        without_strays(&mut items, &page());
        assert_eq!(items.len(), 4);
    }
}
