//! A record's picture: the first content image (lazy-loading attributes and
//! `srcset` read as browsers do), never the decoration repeated across the
//! group's records (status icons, avatars, rating stars).
//!
//! Invariants: image URLs are absolute; tiny and inline images are skipped.

use super::*;

/// Image sources found in more than one record (decoration, not content).
pub(super) fn shared_images(
    doc: &Document,
    records: &[Record],
) -> std::collections::HashSet<String> {
    let mut image_records: rustc_hash::FxHashMap<String, usize> = Default::default();
    for r in records {
        let mut here: Vec<&str> = (r.start..r.end)
            .filter_map(|i| shown_src(doc.element(i).filter(|e| e.name == "img")?))
            .collect();
        here.sort_unstable();
        here.dedup();
        for src in here {
            *image_records.entry(src.trim().to_string()).or_insert(0) += 1;
        }
    }
    image_records
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(src, _)| src)
        .collect()
}

/// A content image's absolute URL: `src`, lazy-loading attributes, or the
/// first `srcset` candidate; tracking pixels and inline data are skipped.
pub(super) fn image_url(el: &Element, base: &Url) -> Option<Url> {
    // Declared dimensions below this are icons, spacers and tracking pixels.
    const MIN_CONTENT_IMAGE_PX: u32 = 40;
    let tiny = ["width", "height"].iter().any(|a| {
        el.attr(a)
            .and_then(|v| v.trim().trim_end_matches("px").parse::<u32>().ok())
            .is_some_and(|v| v < MIN_CONTENT_IMAGE_PX)
    });
    // People's pictures beside a record (a poster's avatar) are not its
    // own, nor are pictures the page's classes call icons or emoji
    // (`img-icon`: a commenter's picture in their name's link).
    let decoration_class = el.attr("class").is_some_and(|c| {
        find_ascii_ci(c.as_bytes(), b"avatar").is_some()
            || has_part(c.split_ascii_whitespace(), b"-_", &["icon", "emoji"])
    });
    if tiny || decoration_class {
        return None;
    }
    // Judged by the picture shown, not a lazy loader's placeholder `src`
    // ("blank.gif" with the real picture in `data-src`).
    let source = img_source(el, base)?;
    let path = source.path().to_ascii_lowercase();
    let name = path.rsplit('/').next().unwrap_or("");
    // File names that say what the picture is for.
    let decorative = [
        "icon",
        "sprite",
        "spacer",
        "pixel",
        "blank.",
        "transparent.",
    ]
    .iter()
    .any(|w| name.contains(w));
    let avatar = find_ascii_ci(source.as_str().as_bytes(), b"avatar").is_some();
    (!decorative && !avatar).then_some(source)
}

/// True when image `id` sits in an element whose class calls what it
/// holds icons, a class name ending in "icons" (a forum's
/// `div.threaddetailicons` with a thread's "closed" padlock, which only
/// one thread of the list shows, so it is not decoration by being
/// repeated); a link classed `no-attachment-icon` around a comment's
/// graph is no such box.
pub(super) fn in_icon_box(doc: &Document, id: NodeId) -> bool {
    doc.node(id)
        .parent
        .and_then(|p| doc.element(p)?.attr("class"))
        .is_some_and(|c| {
            c.split_ascii_whitespace().any(|t| {
                let b = t.as_bytes();
                b.len() >= 5 && b[b.len() - 5..].eq_ignore_ascii_case(b"icons")
            })
        })
}

/// Attributes that hold the address of the picture an `img` shows, in the
/// order they are read: lazy loaders keep the real one in `data-*` and a
/// placeholder in `src`.
pub(super) const IMG_SOURCE_ATTRS: [&str; 4] =
    ["data-src", "data-lazy-src", "data-original", "src"];

/// True when the picture `el` shows is one of the `shared` pictures of a
/// list's records ([`shared_images`]): decoration, a "no photo"
/// placeholder, never a record's image.
pub fn is_shared_image(el: &Element, shared: &std::collections::HashSet<String>) -> bool {
    shown_src(el).is_some_and(|s| shared.contains(s.trim()))
}

/// The address an `img` shows as written (see [`IMG_SOURCE_ATTRS`]); inline
/// `data:` images are none.
pub(super) fn shown_src(el: &Element) -> Option<&str> {
    IMG_SOURCE_ATTRS
        .iter()
        .filter_map(|a| el.attr(a))
        .find(|v| !v.trim().is_empty() && !v.trim_start().starts_with("data:"))
}

/// The picture an `img` shows, resolved: a lazy-loading attribute first
/// (`src` then holds a placeholder), then `src`, then the first `srcset`
/// candidate; inline `data:` images are skipped.
pub fn img_source(el: &Element, base: &Url) -> Option<Url> {
    let candidates = IMG_SOURCE_ATTRS
        .iter()
        .filter_map(|a| el.attr(a).map(str::to_string))
        .chain(
            ["srcset", "data-srcset"]
                .iter()
                .filter_map(|a| el.attr(a))
                .filter_map(|s| {
                    s.split(',')
                        .next()?
                        .split_whitespace()
                        .next()
                        .map(str::to_string)
                }),
        );
    for c in candidates {
        if c.trim_start().starts_with("data:") {
            continue;
        }
        if let Some(u) = resolve(base, &c) {
            return Some(u);
        }
    }
    None
}
