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
    if tiny || decoration_class(el) {
        return None;
    }
    // Judged by the picture shown, not a lazy loader's placeholder `src`
    // ("blank.gif" with the real picture in `data-src`).
    content_source(img_source(el, base)?)
}

/// True when `el`'s class calls it a person's picture or decoration
/// (`avatar`, `img-icon`, a chat's `i.emoji`).
fn decoration_class(el: &Element) -> bool {
    el.attr("class").is_some_and(|c| {
        find_ascii_ci(c.as_bytes(), b"avatar").is_some()
            || has_part(c.split_ascii_whitespace(), b"-_", &["icon", "emoji"])
    })
}

/// The picture an element other than `img` shows as its CSS background
/// (`style="background-image: url(…)"`, a news theme's thumbnail box or a
/// channel's photo link), read from its lazy loader's `data-src` first as
/// an `img` is ([`img_source`]), when it names no decoration.
pub(super) fn background_image(el: &Element, base: &Url) -> Option<Url> {
    let styled = el
        .attr("style")
        .is_some_and(|s| background_url(s).is_some());
    if !styled || decoration_class(el) {
        return None;
    }
    content_source(img_source(el, base)?)
}

/// The address in a `style`'s `background-image: url(…)` (or
/// `background: … url(…)`), quotes trimmed.
fn background_url(style: &str) -> Option<&str> {
    let at = find_ascii_ci(style.as_bytes(), b"background")?;
    let rest = &style[at..];
    let open = find_ascii_ci(rest.as_bytes(), b"url(")? + 4;
    let close = rest[open..].find(')')? + open;
    let url = rest[open..close].trim().trim_matches(['\'', '"']).trim();
    (!url.is_empty() && !url.starts_with("data:")).then_some(url)
}

/// `source` unless its file or address names decoration (an icon, a
/// spacer, an avatar).
fn content_source(source: Url) -> Option<Url> {
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
/// candidate, then an element's CSS background ([`background_image`]);
/// inline `data:` images are skipped.
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
        )
        .chain(
            el.attr("style")
                .and_then(background_url)
                .map(str::to_string),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (a news theme's hero block, a photo pool's tiles): a
    /// picture shown as an element's CSS background was no record's image.
    #[test]
    fn a_css_background_is_read_as_a_picture() {
        assert_eq!(
            background_url("width: 164px; background-image: url(\"//cdn.example/p/1_n.jpg\");"),
            Some("//cdn.example/p/1_n.jpg")
        );
        assert_eq!(
            background_url("background: #000 url('/img/hero.jpg') no-repeat"),
            Some("/img/hero.jpg")
        );
        assert_eq!(background_url("background-color: #fff"), None);
        assert_eq!(
            background_url("background-image: url(data:image/gif;base64,R0l)"),
            None
        );
        let base = Url::parse("https://news.example/habari/").expect("static URL");
        let doc = crate::extract::dom::parse(
            "<div class=thumb style=\"background-image: url('/up/a-750x536.jpg')\"></div>\
             <i class=icon style=\"background-image: url('/theme/sprite-icons.png')\"></i>\
             <i class=emoji style=\"background-image: url('//chat.example/emoji/40/F09F.png')\"></i>",
        );
        let shown: Vec<Option<String>> = (0..doc.nodes.len())
            .filter_map(|i| NodeId::try_from(i).ok())
            .filter_map(|i| doc.element(i))
            .filter(|e| e.name == "div" || e.name == "i")
            .map(|e| background_image(e, &base).map(|u| u.to_string()))
            .collect();
        assert_eq!(
            shown,
            [
                Some("https://news.example/up/a-750x536.jpg".to_string()),
                None,
                None
            ]
        );
    }
}
