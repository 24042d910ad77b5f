//! The feeds a page advertises: `<link rel="alternate">` with a feed media
//! type, resolved against the page's base. Also the paths that common site
//! generators publish feeds at, for `preview --discover` to try.
//!
//! Invariant: only http(s) URLs (or file URLs for local pages), each once, in
//! document order; comment feeds (`/comments/feed`) come after the others.

use url::Url;

use crate::extract::dom::Document;
use crate::extract::items;

/// The kind of feed, as advertised (or as parsed, once fetched).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedKind {
    Rss,
    Atom,
    Json,
}

impl FeedKind {
    /// From a `type` attribute or `Content-Type` (parameters ignored).
    pub fn from_media_type(t: &str) -> Option<FeedKind> {
        let t = t
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        match t.as_str() {
            "application/rss+xml" | "application/rdf+xml" => Some(FeedKind::Rss),
            "application/atom+xml" => Some(FeedKind::Atom),
            "application/feed+json" | "application/json+feed" => Some(FeedKind::Json),
            _ => None,
        }
    }

    /// The media type a page advertises this kind with.
    pub fn media_type(self) -> &'static str {
        match self {
            FeedKind::Rss => "application/rss+xml",
            FeedKind::Atom => "application/atom+xml",
            FeedKind::Json => "application/feed+json",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            FeedKind::Rss => "RSS",
            FeedKind::Atom => "Atom",
            FeedKind::Json => "JSON Feed",
        }
    }
}

/// One advertised feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Advertised {
    pub url: Url,
    pub kind: FeedKind,
    /// The link's `title`, whitespace-collapsed.
    pub title: Option<String>,
}

/// Paths where blog engines and static site generators put a site's feed
/// (WordPress, Ghost, Hugo, Jekyll, Eleventy, Blogger, Medium-style, JSON
/// Feed): tried only when asked (`preview --discover`), never by runs.
pub const COMMON_FEED_PATHS: &[&str] = &[
    "/feed",
    "/feed/",
    "/rss",
    "/rss.xml",
    "/feed.xml",
    "/atom.xml",
    "/index.xml",
    "/feed.json",
    "/rss/",
    "/?feed=rss2",
    "/feeds/posts/default",
];

/// The feeds `doc` advertises, resolved against `base`.
pub fn advertised_feeds(doc: &Document, base: &Url) -> Vec<Advertised> {
    let mut found: Vec<Advertised> = Vec::new();
    for id in 0..doc.nodes.len() as u32 {
        let Some(el) = doc.element(id).filter(|e| e.name == "link") else {
            continue;
        };
        let alternate = el.has_token("rel", "alternate");
        let kind = el.attr("type").and_then(FeedKind::from_media_type);
        let (true, Some(kind), Some(href)) = (alternate, kind, el.attr("href")) else {
            continue;
        };
        let Some(url) = items::resolve(base, href) else {
            continue;
        };
        if found.iter().any(|f| f.url == url) {
            continue;
        }
        let title = el
            .attr("title")
            .map(crate::extract::dom::collapse_whitespace)
            .filter(|t| !t.is_empty());
        found.push(Advertised { url, kind, title });
    }
    // The site's main feed before per-post comment feeds.
    found.sort_by_key(is_comment_feed);
    found
}

fn is_comment_feed(f: &Advertised) -> bool {
    f.url.path().contains("comments")
        || f.title
            .as_deref()
            .is_some_and(|t| t.to_lowercase().contains("comments"))
}

/// The candidate URLs of [`COMMON_FEED_PATHS`] on `page`'s origin.
pub fn common_feed_urls(page: &Url) -> Vec<Url> {
    if !matches!(page.scheme(), "http" | "https") {
        return Vec::new();
    }
    COMMON_FEED_PATHS
        .iter()
        .filter_map(|p| page.join(p).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom;

    #[test]
    fn alternate_feed_links_are_found_resolved_and_ordered() {
        let html = r#"<!doctype html><html><head>
            <base href="https://blog.example.org/">
            <link rel="stylesheet" href="/style.css">
            <link rel="alternate" type="application/rss+xml" title="Comments Feed" href="/comments/feed/">
            <link rel="alternate" type="application/rss+xml" title="Harbour Blog &raquo; Feed" href="/feed/">
            <link rel="Alternate" type="application/atom+xml; charset=utf-8" href="atom.xml">
            <link rel="alternate" type="application/feed+json" href="/feed.json">
            <link rel="alternate" type="text/html" hreflang="de" href="/de/">
            <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
            <link rel="alternate" type="application/rss+xml" href="/feed/">
            </head><body><p>Hello</p></body></html>"#;
        let doc = dom::parse(html);
        let page = Url::parse("https://blog.example.org/posts/").unwrap();
        let base = items::base_url(&doc, &page);
        let got: Vec<(String, FeedKind)> = advertised_feeds(&doc, &base)
            .into_iter()
            .map(|f| (f.url.to_string(), f.kind))
            .collect();
        assert_eq!(
            got,
            vec![
                ("https://blog.example.org/feed/".into(), FeedKind::Rss),
                ("https://blog.example.org/atom.xml".into(), FeedKind::Atom),
                ("https://blog.example.org/feed.json".into(), FeedKind::Json),
                (
                    "https://blog.example.org/comments/feed/".into(),
                    FeedKind::Rss
                ),
            ]
        );
    }

    #[test]
    fn a_page_without_feed_links_advertises_nothing() {
        let doc =
            dom::parse("<html><head><link rel=alternate hreflang=fr href=/fr/></head></html>");
        let base = Url::parse("https://example.com/").unwrap();
        assert!(advertised_feeds(&doc, &base).is_empty());
        assert_eq!(
            common_feed_urls(&base)[0].as_str(),
            "https://example.com/feed"
        );
        assert!(common_feed_urls(&Url::parse("file:///tmp/x.html").unwrap()).is_empty());
    }
}
