//! Each feed's HTML page (`<id>.html` beside its feed files, served as
//! `/feeds/<id>.html`): what a person sees when they open a feed in a
//! browser, rendered from `templates/feed.html` (user-overridable with
//! `page_template`), plus the Content-Security-Policy every HTML page of
//! feedmine is sent with.
//!
//! Invariants: every value from a fetched page is escaped by the template
//! engine (the page gets no item body HTML, only text, and links/images
//! only when they are http(s)); the page is self-contained (styles inline,
//! no script, fonts or external CSS), so it works from disk and from any
//! static host; links to the feed files and the OPML are relative to the
//! page, which lives in the same folder as them in both places.

use std::path::Path;

use chrono::{DateTime, Utc};
use minijinja::{Environment, context};
use sha2::{Digest, Sha256};
use url::Url;

use crate::extract::items::Item;
use crate::publish::feed::{ChannelInfo, Format};
use crate::publish::templates::{TemplateError, compile, read};

/// The bundled feed page template.
pub const DEFAULT_PAGE_TEMPLATE: &str = include_str!("../../templates/feed.html");

/// Items shown on a page at most (the feed files hold the same cut).
pub const PAGE_ITEMS: usize = 500;

/// The status line of a feed page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageStatus {
    /// ok, degraded or failing.
    pub word: &'static str,
    /// One sentence per reason (drift reasons, the failure).
    pub details: Vec<String>,
}

impl PageStatus {
    pub fn ok() -> PageStatus {
        PageStatus {
            word: "ok",
            details: Vec::new(),
        }
    }
}

/// What a feed page shows besides the items.
#[derive(Debug, Clone)]
pub struct PageContext<'a> {
    pub id: &'a str,
    pub channel: &'a ChannelInfo,
    pub formats: &'a [Format],
    pub status: PageStatus,
    /// When the page was written.
    pub generated: DateTime<Utc>,
}

/// The compiled feed page template.
#[derive(Debug, Clone)]
pub struct PageTemplate {
    env: Environment<'static>,
    name: String,
}

impl Default for PageTemplate {
    fn default() -> Self {
        // The bundled template is tested to compile.
        PageTemplate::new(DEFAULT_PAGE_TEMPLATE.to_string()).unwrap_or_else(|_| PageTemplate {
            env: Environment::new(),
            name: "page".into(),
        })
    }
}

impl PageTemplate {
    /// Compile a template's source.
    pub fn new(source: String) -> Result<Self, TemplateError> {
        let (env, name) = compile("page", "page".into(), source)?;
        Ok(PageTemplate { env, name })
    }

    /// Read and compile the template at `path`, and render it once with a
    /// sample so that a template failing at render time fails `check`.
    pub fn from_file(path: &Path) -> Result<Self, TemplateError> {
        let source = read("page", path)?;
        let (env, name) = compile("page", path.display().to_string(), source)?;
        let t = PageTemplate { env, name };
        t.check_renders()?;
        Ok(t)
    }

    fn check_renders(&self) -> Result<(), TemplateError> {
        let channel = ChannelInfo {
            title: "Sample".into(),
            link: Url::parse("https://example.org/news/").map_err(|_| sample_error())?,
            description: "Records of https://example.org/news/".into(),
            self_url: None,
            last_build: Utc::now(),
            language: None,
            stylesheet: None,
        };
        let item = Item {
            title: "A sample item".into(),
            link: Url::parse("https://example.org/news/1").ok(),
            guid: "https://example.org/news/1".into(),
            date: None,
            summary: "Its summary.".into(),
            image: None,
            author: Some("Someone".into()),
            categories: vec!["news".into()],
            body_html: None,
            date_relative: false,
        };
        let ctx = PageContext {
            id: "sample",
            channel: &channel,
            formats: &Format::ALL,
            status: PageStatus::ok(),
            generated: Utc::now(),
        };
        self.render(&ctx, &[item]).map(drop)
    }

    /// The page of one feed. Template variables: `id`, `title`,
    /// `description`, `source`, `source_href` (http(s) only), `language`,
    /// `status` (`word`, `details`), `generated`, `generated_iso`,
    /// `item_count`, `items` (each: `title`, `link`, `date`, `date_iso`,
    /// `author`, `categories`, `image`, `summary`), `formats` (each:
    /// `name`, `label`, `href`, `content_type`), `opml_href`, `version`.
    pub fn render(&self, ctx: &PageContext<'_>, items: &[Item]) -> Result<String, TemplateError> {
        let err = |source| TemplateError::Template {
            what: "page",
            source,
        };
        let items: Vec<minijinja::Value> = items.iter().take(PAGE_ITEMS).map(item_value).collect();
        let formats: Vec<minijinja::Value> = ctx
            .formats
            .iter()
            .map(|&f| {
                context! {
                    name => f.name(),
                    label => format_label(f),
                    href => format!("{}.{}", encode_segment(ctx.id), f.ext()),
                    content_type => f.content_type().split(';').next().unwrap_or(""),
                }
            })
            .collect();
        let html = self
            .env
            .get_template(&self.name)
            .map_err(err)?
            .render(context! {
                id => ctx.id,
                title => &ctx.channel.title,
                description => &ctx.channel.description,
                source => ctx.channel.link.as_str(),
                source_href => web_href(&ctx.channel.link),
                language => ctx.channel.language.as_deref(),
                status => context! { word => ctx.status.word, details => &ctx.status.details },
                generated => ctx.generated.format("%Y-%m-%d %H:%M UTC").to_string(),
                generated_iso => ctx.generated.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                item_count => items.len(),
                items => items,
                formats => formats,
                opml_href => crate::publish::templates::OPML_HREF,
                version => env!("CARGO_PKG_VERSION"),
            })
            .map_err(err)?;
        Ok(with_meta_csp(&html))
    }
}

fn sample_error() -> TemplateError {
    TemplateError::Template {
        what: "page",
        source: minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, "sample URL"),
    }
}

fn item_value(item: &Item) -> minijinja::Value {
    context! {
        title => &item.title,
        link => item.link.as_ref().and_then(web_href),
        date => item.date.map(|d| d.format("%Y-%m-%d %H:%M").to_string()),
        date_iso => item.date.map(|d| d.to_rfc3339()),
        author => item.author.as_deref(),
        categories => &item.categories,
        image => item.image.as_ref().and_then(web_href),
        summary => &item.summary,
    }
}

/// A URL a page may link or load: http(s) only (never `javascript:`,
/// `data:` or a local file).
pub fn web_href(url: &Url) -> Option<String> {
    matches!(url.scheme(), "http" | "https").then(|| url.to_string())
}

/// How a page names a format.
pub fn format_label(format: Format) -> &'static str {
    match format {
        Format::Rss => "RSS",
        Format::Atom => "Atom",
        Format::Json => "JSON Feed",
    }
}

/// Percent-encode a feed id for a relative link.
pub fn encode_segment(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The policy of a feedmine HTML page: nothing but its own inline
/// `<style>` blocks (allowed by hash, so an injected style could not run
/// either), images over http(s), forms posting back to the server only, no
/// scripts, frames, plugins or `<base>`.
pub fn content_security_policy(html: &str) -> String {
    format!(
        "default-src 'none'; style-src {}; img-src http: https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        style_hashes(html)
    )
}

/// `'sha256-…'` sources of every `<style>` element of `html` (the ones the
/// template wrote: escaped text cannot contain a literal `<style>`).
fn style_hashes(html: &str) -> String {
    use base64_lite::encode;
    let mut sources = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find("<style>") {
        let body = &rest[open + "<style>".len()..];
        let Some(close) = body.find("</style>") else {
            break;
        };
        let digest = Sha256::digest(&body.as_bytes()[..close]);
        sources.push(format!("'sha256-{}'", encode(&digest)));
        rest = &body[close..];
    }
    if sources.is_empty() {
        "'none'".into()
    } else {
        sources.join(" ")
    }
}

/// The page with its policy as a `<meta>` right after `<head>`, so a page
/// opened from disk or a static host is as locked down as a served one
/// (`frame-ancestors` is ignored in a meta policy, so it is left out).
fn with_meta_csp(html: &str) -> String {
    let Some(at) = html.find("<head>").map(|i| i + "<head>".len()) else {
        return html.to_string();
    };
    let policy = content_security_policy(html).replace("; frame-ancestors 'none'", "");
    format!(
        "{}\n<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">{}",
        &html[..at],
        &html[at..]
    )
}

/// Standard base64 (for CSP hashes): small enough not to need a crate.
mod base64_lite {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    pub fn encode(bytes: &[u8]) -> String {
        let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
        for chunk in bytes.chunks(3) {
            let b = [
                chunk[0],
                chunk.get(1).copied().unwrap_or(0),
                chunk.get(2).copied().unwrap_or(0),
            ];
            let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
                } else {
                    out.push('=');
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel() -> ChannelInfo {
        ChannelInfo {
            title: "Town <news>".into(),
            link: Url::parse("https://town.example/news/").unwrap(),
            description: "Records".into(),
            self_url: None,
            last_build: Utc::now(),
            language: Some("en".into()),
            stylesheet: None,
        }
    }

    fn item(title: &str, link: &str) -> Item {
        Item {
            title: title.into(),
            link: Url::parse(link).ok(),
            guid: link.into(),
            date: chrono::DateTime::parse_from_rfc3339("2026-03-01T10:00:00+01:00").ok(),
            summary: "Summary <b>not bold</b>".into(),
            image: Url::parse("javascript:alert(1)").ok(),
            author: Some("Ann".into()),
            categories: vec![],
            body_html: Some("<script>alert(1)</script>".into()),
            date_relative: false,
        }
    }

    #[test]
    fn base64_matches_known_vectors() {
        assert_eq!(base64_lite::encode(b""), "");
        assert_eq!(base64_lite::encode(b"f"), "Zg==");
        assert_eq!(base64_lite::encode(b"fo"), "Zm8=");
        assert_eq!(base64_lite::encode(b"foo"), "Zm9v");
        assert_eq!(base64_lite::encode(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn page_escapes_text_drops_unsafe_urls_and_links_every_format() {
        let ch = channel();
        let ctx = PageContext {
            id: "town news",
            channel: &ch,
            formats: &[Format::Rss, Format::Json],
            status: PageStatus::ok(),
            generated: Utc::now(),
        };
        let items = [
            item("<img src=x onerror=alert(1)>", "https://town.example/1"),
            item("Second", "javascript:alert(2)"),
        ];
        let html = PageTemplate::default().render(&ctx, &items).unwrap();
        assert!(
            html.contains("&lt;img src=x onerror=alert(1)&gt;"),
            "{html}"
        );
        assert!(html.contains("Town &lt;news&gt;"));
        assert!(!html.contains("<script"));
        assert!(!html.contains("javascript:"), "unsafe URL kept: {html}");
        assert!(html.contains(r#"href="town%20news.xml""#));
        assert!(html.contains(r#"href="town%20news.json""#));
        assert!(!html.contains(r#"href="town%20news.atom""#));
        assert!(html.contains(r#"href="feeds.opml""#));
        assert!(html.contains(r#"href="https://town.example/1""#));
        assert!(html.contains("Ann"));
        assert!(html.contains("2026-03-01"));
        assert!(html.contains("http-equiv=\"Content-Security-Policy\""));
    }

    #[test]
    fn csp_allows_exactly_the_template_styles() {
        let html = "<head><style>a{}</style></head><body>&lt;style&gt;x</body>";
        let csp = content_security_policy(html);
        let expected = base64_lite::encode(&Sha256::digest(b"a{}"));
        assert!(
            csp.contains(&format!("style-src 'sha256-{expected}';")),
            "{csp}"
        );
        assert!(csp.contains("default-src 'none'"));
        assert_eq!(csp.matches("sha256-").count(), 1);
    }

    #[test]
    fn a_user_page_template_that_fails_to_render_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("page.html");
        std::fs::write(&path, "{{ items | nosuchfilter }}").unwrap();
        let err = PageTemplate::from_file(&path).unwrap_err().to_string();
        assert!(err.contains("page.html"), "{err}");
    }
}
