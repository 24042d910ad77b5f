//! Items → RSS 2.0 document (pure; writing the file is `publish`'s job).
//!
//! Invariants of the output:
//! - It is well-formed XML 1.0 whatever the page text contained: characters
//!   XML 1.0 forbids (C0 controls other than tab, newline and carriage return,
//!   U+FFFE, U+FFFF) are removed from every string before writing, and the
//!   writer escapes or CDATA-splits the rest (`]]>`, `<script>`, `&`).
//! - Every link in it (channel, `atom:link rel="self"`, items, enclosures) is
//!   an absolute http(s) URL; anything else is a [`FeedError`].
//! - Guids are unique: of several items with the same guid only the first is
//!   kept (a list page that repeats a record must not yield a duplicate entry).
//! - An item's `description` is its summary as *escaped* text: readers treat
//!   `description` as HTML, so plain text is HTML-escaped (then written as
//!   CDATA by the `rss` crate) and markup in a summary shows as text, never
//!   runs. It is omitted when the summary is empty. The sanitized article HTML
//!   goes to `content:encoded`.
//! - The item image becomes `<enclosure type="image/…" length="0">` (length is
//!   unknown without fetching it; 0 is the common convention). Its type is
//!   guessed from the file extension; an image with an unknown extension gets
//!   no enclosure rather than a wrong type. No `<img>` is put in the
//!   description.
//! - An item with neither title nor summary gets its link (or guid) as title,
//!   because RSS 2.0 requires one of title/description.

use std::collections::HashSet;

use rss::extension::atom::{AtomExtension, Link};
use rss::{ChannelBuilder, EnclosureBuilder, GuidBuilder, ItemBuilder};
use url::Url;

use crate::items::Item;

/// A published feed format. Each is written to `<output_dir>/<id>.<ext>`
/// and served at `/feeds/<id>.<ext>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// RSS 2.0 (`<id>.xml`).
    Rss,
    /// Atom 1.0 (`<id>.atom`).
    Atom,
    /// JSON Feed 1.1 (`<id>.json`).
    Json,
}

impl Format {
    /// Every format, in the default order.
    pub const ALL: [Format; 3] = [Format::Rss, Format::Atom, Format::Json];

    /// File extension (without the dot).
    pub fn ext(self) -> &'static str {
        match self {
            Format::Rss => "xml",
            Format::Atom => "atom",
            Format::Json => "json",
        }
    }

    /// The name used in `formats = [...]` in the config.
    pub fn name(self) -> &'static str {
        match self {
            Format::Rss => "rss",
            Format::Atom => "atom",
            Format::Json => "json",
        }
    }

    /// The format with config name `name` (`rss`, `atom`, `json`).
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The format served under file extension `ext`.
    pub fn from_ext(ext: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.ext() == ext)
    }

    /// HTTP `Content-Type` of a document in this format.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Rss => "application/rss+xml; charset=utf-8",
            Format::Atom => "application/atom+xml; charset=utf-8",
            Format::Json => "application/feed+json; charset=utf-8",
        }
    }
}

/// Channel-level facts of one feed.
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelInfo {
    /// Feed title; must be non-empty (choosing a fallback is the caller's job).
    pub title: String,
    /// The list page the feed was made from.
    pub link: Url,
    /// Short description of the feed.
    pub description: String,
    /// Where the feed itself will be served, for `atom:link rel="self"`.
    pub self_url: Option<Url>,
    /// When this document was produced (`lastBuildDate`).
    pub last_build: chrono::DateTime<chrono::Utc>,
    /// Language code of the page (`language`), e.g. `"en"` or `"zh-CN"`.
    pub language: Option<String>,
}

/// Why a feed could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    #[error("feed channel title is empty")]
    EmptyTitle,
    #[error("{what} is not an absolute http(s) or file URL: {url}")]
    NotHttpUrl { what: String, url: String },
    #[error("writing the RSS XML failed: {0}")]
    Write(#[from] rss::Error),
    #[error("the RSS writer produced invalid UTF-8: {0}")]
    Utf8(#[from] std::string::FromUtf8Error),
}

/// Renders the channel and items as a pretty-printed RSS 2.0 document.
pub fn render_rss(channel: &ChannelInfo, items: &[Item]) -> Result<String, FeedError> {
    let title = xml_clean(&channel.title).trim().to_owned();
    if title.is_empty() {
        return Err(FeedError::EmptyTitle);
    }
    require_http("channel link", &channel.link)?;

    let mut seen_guids: HashSet<&str> = HashSet::new();
    let mut rss_items = Vec::with_capacity(items.len());
    for item in items {
        // An empty guid identifies nothing, so it neither dedupes nor is written.
        if !item.guid.is_empty() && !seen_guids.insert(item.guid.as_str()) {
            continue;
        }
        rss_items.push(rss_item(item)?);
    }

    let mut builder = ChannelBuilder::default();
    builder
        .title(title)
        .link(channel.link.as_str().to_owned())
        .description(xml_clean(&channel.description).trim().to_owned())
        .last_build_date(channel.last_build.to_rfc2822())
        .generator(format!("feedmine {}", env!("CARGO_PKG_VERSION")))
        .items(rss_items);
    if let Some(language) = &channel.language {
        let language = xml_clean(language).trim().to_owned();
        if !language.is_empty() {
            builder.language(language);
        }
    }
    if let Some(self_url) = &channel.self_url {
        require_http("feed self URL", self_url)?;
        let link = Link {
            href: self_url.as_str().to_owned(),
            rel: "self".to_owned(),
            mime_type: Some("application/rss+xml".to_owned()),
            ..Link::default()
        };
        builder.atom_ext(AtomExtension { links: vec![link] });
    }
    let bytes = builder.build().pretty_write_to(Vec::new(), b' ', 2)?;
    Ok(String::from_utf8(bytes)?)
}

fn rss_item(item: &Item) -> Result<rss::Item, FeedError> {
    let mut builder = ItemBuilder::default();
    let title = xml_clean(&item.title).trim().to_owned();
    let summary = xml_clean(&item.summary).trim().to_owned();
    if let Some(link) = &item.link {
        require_http(&format!("link of item {:?}", item.guid), link)?;
        builder.link(link.as_str().to_owned());
    }
    if !title.is_empty() {
        builder.title(title);
    } else if summary.is_empty() {
        let fallback = item
            .link
            .as_ref()
            .map_or_else(|| xml_clean(&item.guid), |l| l.as_str().to_owned());
        builder.title(fallback);
    }
    if !summary.is_empty() {
        builder.description(escape_html(&summary));
    }
    if !item.guid.is_empty() {
        builder.guid(
            GuidBuilder::default()
                .value(xml_clean(&item.guid))
                .permalink(item.guid_is_permalink())
                .build(),
        );
    }
    if let Some(date) = item.date {
        builder.pub_date(date.to_rfc2822());
    }
    if let Some(body) = &item.body_html {
        let body = xml_clean(body);
        if !body.trim().is_empty() {
            builder.content(body);
        }
    }
    if let Some(image) = &item.image {
        require_http(&format!("image of item {:?}", item.guid), image)?;
        if let Some(mime) = image_mime(image) {
            builder.enclosure(
                EnclosureBuilder::default()
                    .url(image.as_str().to_owned())
                    .mime_type(mime.to_owned())
                    .length("0".to_owned())
                    .build(),
            );
        }
    }
    Ok(builder.build())
}

/// Links must be absolute http(s) URLs, or file URLs for feeds made from
/// local pages (the user's own files, read by a reader on the same machine).
fn require_http(what: &str, url: &Url) -> Result<(), FeedError> {
    let ok = (matches!(url.scheme(), "http" | "https") && url.host().is_some())
        || url.scheme() == "file";
    if ok {
        Ok(())
    } else {
        Err(FeedError::NotHttpUrl {
            what: what.to_owned(),
            url: url.as_str().to_owned(),
        })
    }
}

/// Image MIME type from the URL path's extension.
fn image_mime(url: &Url) -> Option<&'static str> {
    let path = url.path();
    let file = path.rsplit('/').next()?;
    let (_, extension) = file.rsplit_once('.')?;
    Some(match extension.to_ascii_lowercase().as_str() {
        "jpg" | "jpeg" | "jpe" | "jfif" => "image/jpeg",
        "png" => "image/png",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "svg" => "image/svg+xml",
        "bmp" => "image/bmp",
        _ => return None,
    })
}

/// True for characters XML 1.0 allows in a document.
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// `s` without the characters XML 1.0 forbids.
fn xml_clean(s: &str) -> String {
    s.chars().filter(|&c| is_xml_char(c)).collect()
}

/// Plain text → HTML text (for `description`, which readers render as HTML).
fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{FixedOffset, TimeZone, Utc};

    fn channel(self_url: Option<&str>) -> ChannelInfo {
        ChannelInfo {
            title: "Example Engineering Blog".to_owned(),
            link: Url::parse("https://blog.example.org/posts/").unwrap(),
            description: "Posts from https://blog.example.org/posts/".to_owned(),
            self_url: self_url.map(|u| Url::parse(u).unwrap()),
            last_build: Utc.with_ymd_and_hms(2026, 3, 10, 9, 0, 0).unwrap(),
            language: Some("en".to_owned()),
        }
    }

    fn item(title: &str, link: Option<&str>) -> Item {
        let link = link.map(|l| Url::parse(l).unwrap());
        Item {
            title: title.to_owned(),
            guid: link.as_ref().map_or_else(
                || format!("urn:feedmine:{}", title.len()),
                |l| l.as_str().to_owned(),
            ),
            link,
            date: None,
            summary: String::new(),
            image: None,
            body_html: None,
        }
    }

    fn read_back(xml: &str) -> rss::Channel {
        rss::Channel::read_from(xml.as_bytes()).unwrap()
    }

    #[test]
    fn renders_channel_and_items_that_read_back() {
        let mut first = item(
            "Faster builds with sccache",
            Some("https://blog.example.org/posts/sccache/"),
        );
        first.date = Some(
            FixedOffset::east_opt(9 * 3600)
                .unwrap()
                .with_ymd_and_hms(2024, 3, 5, 14, 30, 0)
                .unwrap(),
        );
        first.summary = "We cut CI time by 40% & kept caches warm.".to_owned();
        first.image = Some(Url::parse("https://cdn.example.org/img/build.PNG?w=640").unwrap());
        first.body_html = Some("<p>Full <em>article</em> text.</p>".to_owned());
        let mut second = item("Release notes without a page", None);
        second.guid = "urn:feedmine:0123abcd".to_owned();
        second.summary = "Minor fixes.".to_owned();

        let xml = render_rss(
            &channel(Some("https://feeds.example.net/blog.xml")),
            &[first, second],
        )
        .unwrap();
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>"));
        assert!(
            xml.contains("\n  <channel>\n    <title>"),
            "pretty printed:\n{xml}"
        );

        let ch = read_back(&xml);
        assert_eq!(ch.title(), "Example Engineering Blog");
        assert_eq!(ch.link(), "https://blog.example.org/posts/");
        assert_eq!(ch.language(), Some("en"));
        assert_eq!(
            ch.last_build_date(),
            Some("Tue, 10 Mar 2026 09:00:00 +0000")
        );
        let self_link = &ch.atom_ext().unwrap().links()[0];
        assert_eq!(self_link.rel(), "self");
        assert_eq!(self_link.href(), "https://feeds.example.net/blog.xml");

        assert_eq!(ch.items().len(), 2);
        let a = &ch.items()[0];
        assert_eq!(a.title(), Some("Faster builds with sccache"));
        assert_eq!(a.link(), Some("https://blog.example.org/posts/sccache/"));
        assert_eq!(
            a.description(),
            Some("We cut CI time by 40% &amp; kept caches warm.")
        );
        let guid = a.guid().unwrap();
        assert_eq!(guid.value(), "https://blog.example.org/posts/sccache/");
        assert!(guid.is_permalink());
        assert_eq!(a.pub_date(), Some("Tue, 5 Mar 2024 14:30:00 +0900"));
        assert_eq!(a.content(), Some("<p>Full <em>article</em> text.</p>"));
        let enclosure = a.enclosure().unwrap();
        assert_eq!(
            enclosure.url(),
            "https://cdn.example.org/img/build.PNG?w=640"
        );
        assert_eq!(enclosure.mime_type(), "image/png");
        assert_eq!(enclosure.length(), "0");

        let b = &ch.items()[1];
        assert_eq!(b.link(), None);
        assert_eq!(b.pub_date(), None);
        assert_eq!(b.content(), None);
        let guid = b.guid().unwrap();
        assert_eq!(guid.value(), "urn:feedmine:0123abcd");
        assert!(!guid.is_permalink());
        assert!(xml.contains(r#"<guid isPermaLink="false">urn:feedmine:0123abcd</guid>"#));
    }

    #[test]
    fn hostile_text_stays_well_formed_and_round_trips() {
        let mut it = item(
            "Tricky ]]> <script>alert(1)</script> & \u{0}\u{1}\u{b}\u{1f}bell\u{7}\u{FFFE}\u{FFFF} end",
            Some("https://blog.example.org/p?a=1&b=2"),
        );
        it.summary = "x ]]> y <b>bold</b> \u{8} \"quoted\" 'single'".to_owned();
        it.body_html =
            Some("<p>a ]]> b</p><script>evil()</script>\u{0}<![CDATA[inner]]>".to_owned());
        let mut ch = channel(None);
        ch.title = "Feed <of> & \u{1}things ]]>".to_owned();
        ch.description = "desc\u{2} ]]>".to_owned();
        let xml = render_rss(&ch, &[it]).unwrap();

        for forbidden in [
            '\u{0}', '\u{1}', '\u{7}', '\u{8}', '\u{b}', '\u{1f}', '\u{FFFE}',
        ] {
            assert!(!xml.contains(forbidden), "{forbidden:?} in output");
        }
        // Outside content:encoded (HTML by definition, inside CDATA) no page
        // markup may appear as markup.
        let outside_content: String = xml
            .lines()
            .filter(|l| !l.contains("content:encoded"))
            .collect();
        assert!(!outside_content.contains("<script>"), "{xml}");
        assert!(!outside_content.contains("<b>"), "{xml}");

        let back = read_back(&xml);
        assert_eq!(back.title(), "Feed <of> & things ]]>");
        assert_eq!(back.description(), "desc ]]>");
        let item = &back.items()[0];
        assert_eq!(
            item.title(),
            Some("Tricky ]]> <script>alert(1)</script> & bell end")
        );
        assert_eq!(item.link(), Some("https://blog.example.org/p?a=1&b=2"));
        assert_eq!(
            item.description(),
            Some("x ]]&gt; y &lt;b&gt;bold&lt;/b&gt;  &quot;quoted&quot; &#39;single&#39;")
        );
        assert_eq!(
            item.content(),
            Some("<p>a ]]> b</p><script>evil()</script><![CDATA[inner]]>")
        );
    }

    #[test]
    fn duplicate_guids_keep_the_first_item() {
        let a = item("First", Some("https://blog.example.org/a"));
        let mut dup = item("Second copy", Some("https://blog.example.org/a"));
        dup.summary = "repeated on the page".to_owned();
        let b = item("Other", Some("https://blog.example.org/b"));
        let xml = render_rss(&channel(None), &[a, dup, b]).unwrap();
        let titles: Vec<_> = read_back(&xml)
            .items()
            .iter()
            .map(|i| i.title().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(titles, ["First", "Other"]);
    }

    #[test]
    fn empty_channel_title_is_an_error() {
        for bad in ["", "   ", "\u{1}\u{2}"] {
            let mut ch = channel(None);
            ch.title = bad.to_owned();
            let err = render_rss(&ch, &[]).unwrap_err();
            assert!(matches!(err, FeedError::EmptyTitle), "{bad:?}");
        }
    }

    #[test]
    fn non_http_links_are_errors_naming_the_url() {
        let mut ch = channel(None);
        ch.link = Url::parse("ftp://files.example.org/").unwrap();
        let err = render_rss(&ch, &[]).unwrap_err();
        assert!(
            err.to_string().contains("ftp://files.example.org/"),
            "{err}"
        );

        let it = item("Bad", Some("javascript:alert(1)"));
        let err = render_rss(&channel(None), &[it]).unwrap_err();
        assert!(matches!(err, FeedError::NotHttpUrl { .. }));
        assert!(err.to_string().contains("javascript:alert(1)"), "{err}");

        let mut it = item("Bad image", Some("https://blog.example.org/x"));
        it.image = Some(Url::parse("data:image/png;base64,AAAA").unwrap());
        assert!(render_rss(&channel(None), &[it]).is_err());

        // Feeds made from local pages (the bundled example site) link to
        // file URLs; those are absolute and allowed.
        let ch = channel(Some("file:///srv/feed.xml"));
        let local = item("Local page", Some("file:///srv/site/post.html"));
        assert!(render_rss(&ch, &[local]).is_ok());
    }

    #[test]
    fn optional_parts_are_omitted() {
        let mut it = item("Only a title", Some("https://blog.example.org/t"));
        it.image = Some(Url::parse("https://cdn.example.org/photo").unwrap());
        let mut ch = channel(None);
        ch.language = None;
        let xml = render_rss(&ch, &[it]).unwrap();
        assert!(!xml.contains("<description><![CDATA["), "{xml}");
        assert!(!xml.contains("<enclosure"), "unknown image type skipped");
        assert!(!xml.contains("atom:link"));
        assert!(!xml.contains("xmlns:atom"));
        assert!(!xml.contains("<language>"));
        assert!(!xml.contains("<pubDate>"));
        assert!(!xml.contains("content:encoded"));
        let back = read_back(&xml);
        assert_eq!(back.items()[0].description(), None);
    }

    #[test]
    fn item_without_title_or_summary_is_titled_by_its_link() {
        let it = item("  ", Some("https://blog.example.org/untitled"));
        let xml = render_rss(&channel(None), &[it]).unwrap();
        let back = read_back(&xml);
        assert_eq!(
            back.items()[0].title(),
            Some("https://blog.example.org/untitled")
        );
    }

    #[test]
    fn image_types_follow_the_extension() {
        let cases = [
            ("https://x.org/a.jpg", Some("image/jpeg")),
            ("https://x.org/a.JPEG", Some("image/jpeg")),
            ("https://x.org/a.webp?v=2", Some("image/webp")),
            ("https://x.org/a.svg", Some("image/svg+xml")),
            ("https://x.org/a.gif#f", Some("image/gif")),
            ("https://x.org/a.php?img=b.png", None),
            ("https://x.org/v1.2/photo", None),
            ("https://x.org/", None),
        ];
        for (url, want) in cases {
            assert_eq!(image_mime(&Url::parse(url).unwrap()), want, "{url}");
        }
    }
}
