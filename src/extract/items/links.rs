//! Where a record points: links resolved against the page's base, the
//! fragments that tell records apart, file downloads, comment anchors, and
//! "view all" links that lead to the listing rather than a record.
//!
//! Invariants: resolved links are absolute http(s) URLs; a fragment is kept
//! only when asked (it names one comment or one release of a page).

use super::*;

/// The base URL links of a page resolve against: `<base href>` (itself
/// resolved against the page's final URL) or the final URL.
pub fn base_url(doc: &Document, page_url: &Url) -> Url {
    doc.base_href
        .as_deref()
        .and_then(|b| page_url.join(b).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https" | "file"))
        .unwrap_or_else(|| page_url.clone())
}

/// Resolve `href` against `base`, keeping only http(s) (and file, for local
/// pages) targets.
pub fn resolve(base: &Url, href: &str) -> Option<Url> {
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let mut url = base.join(href).ok()?;
    if !matches!(url.scheme(), "http" | "https" | "file") {
        return None;
    }
    url.set_fragment(None);
    Some(url)
}

/// [`resolve`] keeping the fragment, and taking fragment-only links
/// (`#comment-12`) as the page's own URL with that fragment: for records
/// that a fragment tells apart.
pub fn resolve_with_fragment(base: &Url, href: &str) -> Option<Url> {
    let href = href.trim();
    if href.is_empty() || href == "#" {
        return None;
    }
    let url = base.join(href).ok()?;
    matches!(url.scheme(), "http" | "https" | "file").then_some(url)
}

/// A record's link: [`resolve`], or [`resolve_with_fragment`] when the
/// group's links differ by their fragments (`keep_fragments`) or the
/// fragment names one comment of the page ([`names_comment`]).
pub fn resolve_link(base: &Url, href: &str, keep_fragments: bool) -> Option<Url> {
    if keep_fragments || names_comment(href) {
        resolve_with_fragment(base, href)
    } else {
        resolve(base, href)
    }
}

/// The trimmed `href` of link `a`, if it has one.
pub(super) fn link_href(doc: &Document, a: NodeId) -> Option<&str> {
    doc.element(a)?.attr("href").map(str::trim)
}

/// True when the links differ only by fragment: `post#comment-1`,
/// `post#comment-2` (or `#c1`, `#c2`) are one page without it.
pub(super) fn fragments_identify(doc: &Document, links: &[NodeId]) -> bool {
    let hrefs: Vec<&str> = links.iter().filter_map(|&a| link_href(doc, a)).collect();
    if hrefs.len() < 2 {
        return false;
    }
    let mut full: Vec<&str> = hrefs.clone();
    full.sort_unstable();
    full.dedup();
    let mut pages: Vec<&str> = hrefs
        .iter()
        .map(|h| h.split('#').next().unwrap_or(""))
        .collect();
    pages.sort_unstable();
    pages.dedup();
    full.len() > pages.len()
}

/// Words that name a comment or post when an anchor's number follows
/// them (`#comment:6`, `#comment-12`, `#issuecomment-88`, `#post-5`).
pub(super) const COMMENT_ANCHORS: &[&str] = &["comment", "reply", "post", "answer", "note"];

/// True when `href` links to one comment or post of another page (its
/// fragment is a [`COMMENT_ANCHORS`] word and a number): a timeline's
/// "Ticket #1193 closed" or a "recent comments" list links each record to
/// its event in the page, and without the fragment two events of one page
/// would share a link and a guid, and a new one would look already seen.
pub(super) fn names_comment(href: &str) -> bool {
    let Some((page, fragment)) = href.trim().split_once('#') else {
        return false;
    };
    let word_end = fragment
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(fragment.len());
    let (word, rest) = fragment.split_at(word_end);
    let number = rest.strip_prefix(['-', '_', ':']).unwrap_or(rest);
    !page.is_empty()
        && !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit())
        && COMMENT_ANCHORS
            .iter()
            .any(|w| word.to_ascii_lowercase().ends_with(w))
}

/// File extensions of downloads: such a link is an asset of the record,
/// never its title (a PDF can be, so it is not here).
pub(super) const DOWNLOAD_EXTENSIONS: &[&str] = &[
    ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".tar", ".dmg", ".exe", ".msi", ".deb",
    ".rpm", ".apk", ".whl", ".jar", ".iso", ".img", ".mp3", ".m4a", ".ogg", ".mp4", ".sig", ".asc",
    ".sha256", ".json",
];

/// True when `href` names a download ([`DOWNLOAD_EXTENSIONS`]): a
/// release's asset, an archive, a data file.
pub(crate) fn is_download(href: &str) -> bool {
    has_extension(href, DOWNLOAD_EXTENSIONS)
}

/// True when `href`'s path ends with one of `extensions`, in any case.
fn has_extension(href: &str, extensions: &[&str]) -> bool {
    let path = href.split(['?', '#']).next().unwrap_or("");
    extensions
        .iter()
        .any(|e| crate::extract::dom::ends_with_ascii_ci(path, e))
}

/// File extensions of pictures: a link to one shows a photo, it is no
/// page of the record's.
const PICTURE_EXTENSIONS: &[&str] = &[".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif"];

/// True when `href` names a picture file (a review's photo, opened in a
/// lightbox).
pub(super) fn is_picture_file(href: &str) -> bool {
    has_extension(href, PICTURE_EXTENSIONS)
}

/// File extensions of documents a record may attach (a notice's PDF).
const DOCUMENT_EXTENSIONS: &[&str] = &[
    ".pdf", ".doc", ".docx", ".odt", ".rtf", ".xls", ".xlsx", ".ods", ".csv", ".ppt", ".pptx",
];

/// Notes of a file's type or size in a link's text: "(PDF, 212 KB)",
/// "Agenda [DOCX 40kB]", "Minutes (pdf)".
const FILE_NOTES: &[&str] = &[
    "(pdf", "[pdf", "pdf,", "pdf)", "(doc", "[doc", "(xls", "[xls", " kb)", "kb]", " mb)", "mb]",
];

/// Longest note of a file's type or size set apart from a title
/// ([`is_file_note`]), in bytes.
const MAX_FILE_NOTE_BYTES: usize = 32;

/// True for a note of a file's type or size that is a whole text in
/// brackets: "(PDF 2.4MB)" in its own `span` after a press release's
/// title, "[DOCX, 40 kB]", "(1073 KB)", and in the full-width brackets
/// of Japanese and Chinese pages, "（PDF：245KB）".
pub(super) fn is_file_note(text: &str) -> bool {
    let t = text.trim();
    if t.contains(FULL_WIDTH_MARKS) {
        let narrow: String = t.chars().map(narrow_mark).collect();
        return narrow.len() <= MAX_FILE_NOTE_BYTES && is_file_note(&narrow);
    }
    if is_bare_file_note(t) {
        return true;
    }
    let bracketed =
        (t.starts_with('(') && t.ends_with(')')) || (t.starts_with('[') && t.ends_with(']'));
    bracketed
        && t.len() <= MAX_FILE_NOTE_BYTES
        && FILE_NOTES
            .iter()
            .any(|n| crate::extract::dom::find_ascii_ci(t.as_bytes(), n.as_bytes()).is_some())
}

/// The full-width brackets and colon a file note may be written with.
const FULL_WIDTH_MARKS: [char; 5] = ['（', '）', '［', '］', '：'];

/// `c`, or the ASCII mark of a full-width one ([`FULL_WIDTH_MARKS`]).
fn narrow_mark(c: char) -> char {
    match c {
        '（' => '(',
        '）' => ')',
        '［' => '[',
        '］' => ']',
        '：' => ':',
        other => other,
    }
}

/// Document types a file note names ([`is_bare_file_note`]).
const FILE_TYPES: &[&str] = &[
    "pdf", "doc", "docx", "odt", "rtf", "xls", "xlsx", "ods", "csv", "ppt", "pptx",
];

/// Units of a file's size ([`is_bare_file_note`]).
const SIZE_UNITS: &[&str] = &["kb", "mb", "gb", "kib", "mib", "bytes"];

/// True for a file note without brackets, its own element after a title
/// (an icon before it): "PDF, 0.9 MB", "DOCX 40kB" — a type, then a
/// size.
fn is_bare_file_note(t: &str) -> bool {
    let kind_end = t
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(t.len());
    let (kind, rest) = t.split_at(kind_end);
    let size = rest.trim_start_matches([',', ':', ' ']);
    let digits = size
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(size.len());
    let unit = size[digits..].trim();
    let one_of = |words: &[&str], w: &str| words.iter().any(|x| x.eq_ignore_ascii_case(w));
    t.len() <= MAX_FILE_NOTE_BYTES
        && one_of(FILE_TYPES, kind)
        && size.starts_with(|c: char| c.is_ascii_digit())
        && one_of(SIZE_UNITS, unit)
}

/// True when link `text` to `href` is a file attached to the record (a
/// download, a document by its extension, or a link whose text notes the
/// file's type or size), not a page of its own.
pub(super) fn is_attachment(text: &str, href: &str) -> bool {
    is_download(href)
        || has_extension(href, DOCUMENT_EXTENSIONS)
        || FILE_NOTES
            .iter()
            .any(|n| crate::extract::dom::find_ascii_ci(text.as_bytes(), n.as_bytes()).is_some())
}

/// True when `item` links to the listing the `others` live under ("View
/// all blog posts" → `/blog/`, the posts under `/blog/…`): a way to more
/// records, not a record. Needs two others, most of them under that path,
/// and a path other than the site's root; a dated item is a record.
pub fn is_listing_link(item: &Item, others: &[Item]) -> bool {
    let Some(link) = item.link.as_ref() else {
        return false;
    };
    let path = link.path();
    if item.date.is_some() || others.len() < 2 || path == "/" || !path.ends_with('/') {
        return false;
    }
    let under = others
        .iter()
        .filter_map(|o| o.link.as_ref())
        .filter(|o| {
            o.host_str() == link.host_str()
                && o.path().len() > path.len()
                && o.path().starts_with(path)
        })
        .count();
    under >= 2 && under * 2 > others.len()
}
