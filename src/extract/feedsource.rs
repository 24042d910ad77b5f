//! A feed (RSS 0.9x/1.0/2.0, Atom, JSON Feed) as the items of a feedmine
//! feed: `source = "feed"`, or a `url` that turns out to serve a feed.
//! Parsing is feed-rs's; this module maps its model onto [`Item`].
//!
//! # Invariants
//! - Items keep the feed's order; one per entry with a title or a link;
//!   guids follow [`Item::guid`]'s rule (the link, else a content hash), so
//!   identity works as for mined records.
//! - Links are absolute http(s) (file for a local feed); relative ones are
//!   resolved against the entry's `xml:base`, else the feed's URL.
//! - `body_html` is set only when the entry carries full content (see
//!   [`MIN_FULL_TEXT_WORDS`]); the published HTML is sanitized later, in
//!   every renderer, like extracted bodies.

use std::collections::HashSet;

use feed_rs::model::{Entry, FeedType, Text};
use url::Url;

use crate::extract::advertised::FeedKind;
use crate::extract::dom;
use crate::extract::items::{self, Item};

/// An entry's content counts as its full text (no extraction needed) from
/// this many words on: shorter content is a teaser.
pub const MIN_FULL_TEXT_WORDS: usize = 80;
/// Longest summary kept, in characters (the rest is cut at a word).
pub const MAX_SUMMARY_CHARS: usize = 1_000;

/// Why a feed could not be read.
#[derive(thiserror::Error, Debug)]
pub enum FeedSourceError {
    #[error("{url} is not a readable RSS, Atom or JSON feed")]
    Parse {
        url: Url,
        #[source]
        source: Box<feed_rs::parser::ParseFeedError>,
    },
}

/// A parsed source feed.
#[derive(Debug, Clone)]
pub struct SourceFeed {
    pub kind: FeedKind,
    /// "RSS 2.0", "Atom", "JSON Feed", ...
    pub version: &'static str,
    pub title: Option<String>,
    pub items: Vec<Item>,
}

impl SourceFeed {
    /// Items that came with their full text.
    pub fn with_full_text(&self) -> usize {
        self.items.iter().filter(|i| i.body_html.is_some()).count()
    }

    /// "RSS 2.0, 20 items, summaries only" (or "full text", or "full text
    /// in 3 of 20").
    pub fn describe(&self) -> String {
        let n = self.items.len();
        let full = self.with_full_text();
        let content = match full {
            0 => "summaries only".to_string(),
            f if f == n => "full text".to_string(),
            f => format!("full text in {f} of {n}"),
        };
        format!(
            "{}, {n} item{}, {content}",
            self.version,
            if n == 1 { "" } else { "s" }
        )
    }
}

/// Does a response look like a feed rather than an HTML page? By media
/// type, else by the first bytes (`<rss`, `<feed`, `<rdf:RDF`, or a JSON
/// object naming the JSON Feed version).
pub fn looks_like_feed(body: &[u8], content_type: Option<&str>) -> bool {
    if content_type.and_then(FeedKind::from_media_type).is_some() {
        return true;
    }
    let head = String::from_utf8_lossy(&body[..body.len().min(1024)]).to_ascii_lowercase();
    let head = head.trim_start_matches('\u{feff}').trim_start();
    if head.starts_with('{') {
        return head.contains("jsonfeed.org/version");
    }
    // Skip the XML declaration, comments and processing instructions.
    let mut rest = head;
    while let Some(r) = rest
        .strip_prefix("<?")
        .or_else(|| rest.strip_prefix("<!--"))
    {
        let end = r.find('>').map_or(r.len(), |i| i + 1);
        rest = r[end..].trim_start();
    }
    ["<rss", "<feed", "<rdf:rdf"]
        .iter()
        .any(|t| rest.starts_with(t))
}

/// Parse `body`, fetched from `url`, into items.
pub fn parse_feed(body: &[u8], url: &Url) -> Result<SourceFeed, FeedSourceError> {
    let parsed = feed_rs::parser::Builder::new()
        .base_uri(Some(url.as_str()))
        .build()
        .parse(body)
        .map_err(|source| FeedSourceError::Parse {
            url: url.clone(),
            source: Box::new(source),
        })?;
    let (kind, version) = match parsed.feed_type {
        FeedType::Atom => (FeedKind::Atom, "Atom"),
        FeedType::JSON => (FeedKind::Json, "JSON Feed"),
        FeedType::RSS0 => (FeedKind::Rss, "RSS 0.9x"),
        FeedType::RSS1 => (FeedKind::Rss, "RSS 1.0"),
        FeedType::RSS2 => (FeedKind::Rss, "RSS 2.0"),
    };
    let mut seen = HashSet::new();
    let items = parsed
        .entries
        .iter()
        .map(|e| entry_item(e, url))
        .filter(|it| !it.title.is_empty() || it.link.is_some())
        .filter(|it| seen.insert(it.guid.clone()))
        .collect();
    Ok(SourceFeed {
        kind,
        version,
        title: parsed.title.as_ref().map(plain).filter(|t| !t.is_empty()),
        items,
    })
}

fn entry_item(e: &Entry, feed_url: &Url) -> Item {
    let base = e
        .base
        .as_deref()
        .and_then(|b| feed_url.join(b).ok())
        .unwrap_or_else(|| feed_url.clone());
    let link = e
        .links
        .iter()
        .filter(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
        .find_map(|l| link_url(&base, &l.href, feed_url));
    let content_html = e.content.as_ref().and_then(|c| c.body.clone());
    let summary_html = e.summary.as_ref().map(|t| t.content.clone());
    let summary_text = e.summary.as_ref().map(plain).unwrap_or_default();
    let mut title = e.title.as_ref().map(plain).unwrap_or_default();
    if title.is_empty() {
        // RSS and JSON Feed allow an item with only a description/content.
        let text = if summary_text.is_empty() {
            content_html.as_deref().map(html_text).unwrap_or_default()
        } else {
            summary_text.clone()
        };
        title = cut(&text, 80);
    }
    // Full text: the content element, else a description that is itself
    // the whole article (common in RSS 2.0 without content:encoded).
    let body_html = [content_html.as_deref(), summary_html.as_deref()]
        .into_iter()
        .flatten()
        .find(|html| word_count(html) >= MIN_FULL_TEXT_WORDS)
        .map(str::to_string);
    let summary = if summary_text.is_empty() {
        content_html
            .as_deref()
            .map(|h| cut(&html_text(h), 300))
            .unwrap_or_default()
    } else {
        cut(&summary_text, MAX_SUMMARY_CHARS)
    };
    let guid = link
        .as_ref()
        .map_or_else(|| items::content_guid(&title, &summary), Url::to_string);
    Item {
        title,
        link,
        guid,
        date: e.published.or(e.updated).map(|d| d.fixed_offset()),
        summary,
        image: entry_image(e, &base, feed_url).or_else(|| {
            [summary_html.as_deref(), content_html.as_deref()]
                .into_iter()
                .flatten()
                .find_map(|h| first_img(h, &base, feed_url))
        }),
        author: e
            .authors
            .iter()
            .find_map(|p| p.name.as_deref().map(dom::collapse_whitespace))
            .filter(|n| !n.is_empty()),
        categories: categories(e),
        body_html,
        date_relative: false,
    }
}

/// A link target: absolute, http(s), or file when the feed itself is local.
fn link_url(base: &Url, href: &str, feed_url: &Url) -> Option<Url> {
    let url = items::resolve(base, href)?;
    (url.scheme() != "file" || feed_url.scheme() == "file").then_some(url)
}

/// Media RSS thumbnail, then an image media object, then an image
/// enclosure.
fn entry_image(e: &Entry, base: &Url, feed_url: &Url) -> Option<Url> {
    let thumbs = e
        .media
        .iter()
        .flat_map(|m| m.thumbnails.iter().map(|t| t.image.uri.as_str()));
    let contents = e.media.iter().flat_map(|m| {
        m.content
            .iter()
            .filter(|c| {
                c.content_type
                    .as_ref()
                    .is_some_and(|t| t.ty().as_str() == "image")
            })
            .filter_map(|c| c.url.as_ref().map(Url::as_str))
    });
    let enclosures = e
        .links
        .iter()
        .filter(|l| l.rel.as_deref() == Some("enclosure"))
        .filter(|l| {
            l.media_type
                .as_deref()
                .is_some_and(|t| t.starts_with("image/"))
        })
        .map(|l| l.href.as_str());
    thumbs
        .chain(contents)
        .chain(enclosures)
        .find_map(|u| link_url(base, u, feed_url))
}

/// The first `<img src>` of an HTML fragment (feed-rs drops a lone
/// `media:thumbnail`; most such feeds also put the image in the text).
fn first_img(html: &str, base: &Url, feed_url: &Url) -> Option<Url> {
    if !html.contains("<img") {
        return None;
    }
    let doc = dom::parse(html);
    (0..doc.nodes.len() as u32)
        .filter_map(|id| doc.element(id).filter(|e| e.name == "img"))
        .find_map(|e| link_url(base, e.attr("src")?, feed_url))
}

fn categories(e: &Entry) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in &e.categories {
        let name = dom::collapse_whitespace(c.label.as_deref().unwrap_or(&c.term));
        if !name.is_empty() && !out.iter().any(|o| o.eq_ignore_ascii_case(&name)) {
            out.push(name);
        }
    }
    out
}

/// A feed text as plain text (HTML types are parsed, entities decoded).
fn plain(t: &Text) -> String {
    let essence = t.content_type.essence().to_string();
    if essence.contains("html") {
        html_text(&t.content)
    } else {
        dom::collapse_whitespace(&t.content)
    }
}

fn html_text(html: &str) -> String {
    let doc = dom::parse(html);
    doc.text(0)
}

fn word_count(html: &str) -> usize {
    html_text(html).split_whitespace().count()
}

/// At most `max` characters, cut at a word boundary with an ellipsis.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let head: String = s.chars().take(max).collect();
    let at = head
        .rfind(' ')
        .filter(|&i| i > max / 2)
        .unwrap_or(head.len());
    format!("{}…", head[..at].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    const RSS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- generator: WordPress 6.5 -->
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
<channel>
  <title>Harbour Blog</title>
  <link>https://blog.example.org/</link>
  <description>Notes from the harbour</description>
  <item>
    <title>Ferry timetable &amp; winter changes</title>
    <link>/2026/11/ferry-timetable/</link>
    <pubDate>Sat, 21 Nov 2026 09:30:00 +0100</pubDate>
    <dc:creator>Ines Marsh</dc:creator>
    <category>Transport</category><category>Winter</category><category>transport</category>
    <description><![CDATA[<p>The late sailings are cut from December.</p>]]></description>
    <media:content url="https://cdn.example.org/ferry.jpg" type="image/jpeg" medium="image">
      <media:thumbnail url="https://cdn.example.org/ferry-small.jpg" width="300" height="200"/>
    </media:content>
  </item>
  <item>
    <title>Fish market reopens</title>
    <link>https://blog.example.org/2026/11/fish-market/</link>
    <pubDate>Fri, 20 Nov 2026 17:00:00 GMT</pubDate>
    <description>After the repairs the market hall opens again on Monday.</description>
    <enclosure url="https://cdn.example.org/hall.png" length="48213" type="image/png"/>
  </item>
  <item>
    <title>Lighthouse open day</title>
    <link>https://blog.example.org/2026/11/lighthouse/</link>
    <description><![CDATA[<img src="/img/lighthouse.jpg" alt=""> Climb the 120 steps on Sunday.]]></description>
  </item>
</channel></rss>"#;

    #[test]
    fn rss_with_summaries_only_becomes_items_without_bodies() {
        let f = parse_feed(RSS.as_bytes(), &url("https://blog.example.org/feed/")).unwrap();
        assert_eq!(f.kind, FeedKind::Rss);
        assert_eq!(f.title.as_deref(), Some("Harbour Blog"));
        assert_eq!(f.describe(), "RSS 2.0, 3 items, summaries only");
        let a = &f.items[0];
        assert_eq!(a.title, "Ferry timetable & winter changes");
        assert_eq!(
            a.link.as_ref().map(Url::as_str),
            Some("https://blog.example.org/2026/11/ferry-timetable/")
        );
        assert_eq!(a.guid, "https://blog.example.org/2026/11/ferry-timetable/");
        assert_eq!(a.summary, "The late sailings are cut from December.");
        assert_eq!(
            a.date.map(|d| d.to_rfc3339()),
            Some("2026-11-21T08:30:00+00:00".to_string())
        );
        assert_eq!(a.author.as_deref(), Some("Ines Marsh"));
        assert_eq!(a.categories, vec!["Transport", "Winter"]);
        assert_eq!(
            a.image.as_ref().map(Url::as_str),
            Some("https://cdn.example.org/ferry-small.jpg")
        );
        assert!(a.body_html.is_none());
        assert_eq!(
            f.items[1].image.as_ref().map(Url::as_str),
            Some("https://cdn.example.org/hall.png")
        );
        assert_eq!(
            f.items[2].image.as_ref().map(Url::as_str),
            Some("https://blog.example.org/img/lighthouse.jpg")
        );
        assert_eq!(f.items[2].summary, "Climb the 120 steps on Sunday.");
    }

    #[test]
    fn atom_and_json_feed_with_full_content_keep_it() {
        let body =
            "<p>".to_string() + &"The harbour master explained the new rules. ".repeat(20) + "</p>";
        let atom = format!(
            r#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://news.example.net/">
  <title type="html">Port &lt;b&gt;News&lt;/b&gt;</title>
  <id>urn:uuid:1</id><updated>2026-11-21T10:00:00Z</updated>
  <entry>
    <title>New mooring rules</title><id>urn:uuid:2</id>
    <link rel="alternate" href="articles/mooring"/>
    <link rel="replies" href="articles/mooring#comments"/>
    <updated>2026-11-21T10:00:00Z</updated>
    <author><name>Port Office</name></author>
    <content type="html">{}</content>
  </entry>
</feed>"#,
            body.replace('<', "&lt;").replace('>', "&gt;")
        );
        let f = parse_feed(atom.as_bytes(), &url("https://news.example.net/atom.xml")).unwrap();
        assert_eq!(f.title.as_deref(), Some("Port News"));
        assert_eq!(f.describe(), "Atom, 1 item, full text");
        let it = &f.items[0];
        assert_eq!(
            it.link.as_ref().unwrap().as_str(),
            "https://news.example.net/articles/mooring"
        );
        assert!(it.body_html.as_deref().unwrap().contains("harbour master"));
        assert!(
            it.summary.starts_with("The harbour master"),
            "{}",
            it.summary
        );

        let json = serde_json::json!({
            "version": "https://jsonfeed.org/version/1.1",
            "title": "Jobs at the port",
            "items": [
                {"id": "1", "url": "https://jobs.example.com/1", "title": "Crane operator",
                 "summary": "Night shifts", "date_published": "2026-11-20T08:00:00+01:00",
                 "tags": ["logistics"], "image": "https://jobs.example.com/crane.jpg"},
                {"id": "2", "content_text": "Deckhand wanted for the winter season."}
            ]
        })
        .to_string();
        assert!(looks_like_feed(json.as_bytes(), Some("application/json")));
        let f = parse_feed(json.as_bytes(), &url("https://jobs.example.com/feed.json")).unwrap();
        assert_eq!(f.kind, FeedKind::Json);
        assert_eq!(f.items.len(), 2);
        assert_eq!(f.items[0].title, "Crane operator");
        assert_eq!(f.items[0].categories, vec!["logistics"]);
        assert!(f.items[1].link.is_none());
        assert_eq!(f.items[1].title, "Deckhand wanted for the winter season.");
        assert!(
            f.items[1].guid.starts_with("urn:feedmine:"),
            "{}",
            f.items[1].guid
        );
    }

    #[test]
    fn feeds_are_told_from_pages_and_broken_xml_is_a_clear_error() {
        assert!(looks_like_feed(RSS.as_bytes(), Some("text/xml")));
        assert!(looks_like_feed(
            b"<feed xmlns='http://www.w3.org/2005/Atom'>",
            None
        ));
        assert!(looks_like_feed(
            b"",
            Some("application/atom+xml; charset=utf-8")
        ));
        assert!(!looks_like_feed(
            b"<!doctype html><html><body>",
            Some("text/html")
        ));
        assert!(!looks_like_feed(
            b"{\"items\": []}",
            Some("application/json")
        ));
        let err = parse_feed(
            b"<rss><channel><item><title>Half",
            &url("https://x.example/feed"),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("https://x.example/feed"), "{err}");
        assert!(err.contains("not a readable"), "{err}");
    }
}
