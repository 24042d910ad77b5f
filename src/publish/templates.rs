//! User-facing HTML from templates: the item HTML that becomes each entry's
//! content (`templates/item.html`), the daemon's index page listing every
//! feed (`templates/index.html`), and the XSLT stylesheet that makes a feed
//! readable when opened in a browser (`templates/feed.xsl`); each feed's
//! HTML page (`templates/feed.html`) is in `page`. The bundled
//! files are compiled in; the config may replace any of them by path
//! ([`Templates::load`]).
//!
//! Invariants: every value is HTML-escaped by the template engine
//! (autoescape on, for user templates too) except the item's `body`, which
//! is marked safe here and sanitized again by `feed` before publishing
//! (`crate::publish::sanitize`), so a user template cannot publish active content; a
//! template is compiled when the config is loaded, so a broken one fails
//! `check` with the file and line, never a run.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use minijinja::{Environment, Value, context};
use url::Url;

use crate::extract::items::Item;
use crate::publish::feed::Format;
use crate::serve::status::{FeedStatus, Health, RunOutcome};

/// The bundled item template.
pub const DEFAULT_ITEM_TEMPLATE: &str = include_str!("../../templates/item.html");

/// The bundled index page template.
pub const DEFAULT_INDEX_TEMPLATE: &str = include_str!("../../templates/index.html");

/// The bundled XSLT 1.0 stylesheet for RSS and Atom.
pub const DEFAULT_STYLESHEET: &str = include_str!("../../templates/feed.xsl");

/// Where the index page links the OPML list of all feeds.
pub const OPML_HREF: &str = "feeds.opml";

/// The bundled feed stylesheet (`templates/feed.xsl`).
pub fn stylesheet() -> &'static str {
    DEFAULT_STYLESHEET
}

/// Why a template could not be loaded or rendered.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// Compiling or rendering failed; minijinja's message names the
    /// template (the file path for user templates) and the line.
    #[error("{what} template: {source}")]
    Template {
        /// `item` or `index`.
        what: &'static str,
        source: minijinja::Error,
    },
    #[error("{what} template {}: {source}", path.display())]
    Read {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("stylesheet {}: {reason}", path.display())]
    Stylesheet { path: PathBuf, reason: String },
}

/// An environment that HTML-escapes every value that is not marked safe.
fn html_env() -> Environment<'static> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    // Escape what HTML needs and no more: minijinja's default also escapes
    // `/`, which makes every URL unreadable in the feed source.
    env.set_formatter(|out, _state, value| {
        use std::fmt::Write as _;
        if value.is_none() || value.is_undefined() {
            return Ok(());
        }
        let text = value.to_string();
        if value.is_safe() {
            out.write_str(&text)?;
            return Ok(());
        }
        for c in text.chars() {
            match c {
                '&' => out.write_str("&amp;")?,
                '<' => out.write_str("&lt;")?,
                '>' => out.write_str("&gt;")?,
                '"' => out.write_str("&quot;")?,
                '\'' => out.write_str("&#39;")?,
                c => out.write_char(c)?,
            }
        }
        Ok(())
    });
    env
}

/// Compile `source` as template `name` (a file path for user templates,
/// so errors point at the file).
pub(crate) fn compile(
    what: &'static str,
    name: String,
    source: String,
) -> Result<(Environment<'static>, String), TemplateError> {
    let mut env = html_env();
    env.add_template_owned(name.clone(), source)
        .map_err(|source| TemplateError::Template { what, source })?;
    Ok((env, name))
}

pub(crate) fn read(what: &'static str, path: &Path) -> Result<String, TemplateError> {
    std::fs::read_to_string(path).map_err(|source| TemplateError::Read {
        what,
        path: path.to_owned(),
        source,
    })
}

/// A compiled item template.
#[derive(Debug, Clone)]
pub struct ItemTemplate {
    env: Environment<'static>,
    name: String,
}

impl Default for ItemTemplate {
    fn default() -> Self {
        // The bundled template is tested to compile.
        ItemTemplate::new(DEFAULT_ITEM_TEMPLATE.to_string()).unwrap_or_else(|_| ItemTemplate {
            env: Environment::new(),
            name: "item".into(),
        })
    }
}

impl ItemTemplate {
    /// Compile a template's source.
    pub fn new(source: String) -> Result<Self, TemplateError> {
        let (env, name) = compile("item", "item".into(), source)?;
        Ok(ItemTemplate { env, name })
    }

    /// Read and compile the template at `path`.
    pub fn from_file(path: &Path) -> Result<Self, TemplateError> {
        let source = read("item", path)?;
        let (env, name) = compile("item", path.display().to_string(), source)?;
        Ok(ItemTemplate { env, name })
    }

    /// Render a sample item with every field set, so that what only fails
    /// at render time (an `include` of a missing file, an unknown filter,
    /// a type error) is reported by `check` instead of by every run.
    pub fn check_renders(&self) -> Result<(), TemplateError> {
        let sample = Item {
            title: "Sample title".into(),
            link: url::Url::parse("https://example.com/a").ok(),
            guid: "sample".into(),
            date: Some(chrono::Utc::now().fixed_offset()),
            summary: "Sample summary".into(),
            image: url::Url::parse("https://example.com/a.jpg").ok(),
            author: Some("Sample Author".into()),
            categories: vec!["sample".into()],
            body_html: Some("<p>Sample body</p>".into()),
            date_relative: false,
        };
        self.render(&sample).map(drop)
    }

    /// The item's HTML, or `None` when it has neither body nor image (the
    /// summary alone already is the description).
    pub fn render(&self, item: &Item) -> Result<Option<String>, TemplateError> {
        if item.body_html.is_none() && item.image.is_none() {
            return Ok(None);
        }
        let err = |source| TemplateError::Template {
            what: "item",
            source,
        };
        let html = self
            .env
            .get_template(&self.name)
            .map_err(err)?
            .render(context! {
                title => &item.title,
                link => item.link.as_ref().map(|u| u.as_str()),
                summary => &item.summary,
                image => item.image.as_ref().map(|u| u.as_str()),
                body => item.body_html.clone().map(Value::from_safe_string),
                date => item.date.map(|d| d.to_rfc3339()),
            })
            .map_err(err)?;
        Ok(Some(html.trim().to_string()))
    }
}

/// What the index page says besides the feeds.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexContext {
    /// When the page was rendered.
    pub generated: DateTime<Utc>,
    /// Public base URL of the feed files, when configured.
    pub public_url: Option<Url>,
    /// feedmine's version (`env!("CARGO_PKG_VERSION")`).
    pub version: &'static str,
    /// Whether the server has `/console` (the page links it).
    pub console: bool,
    /// On a shared state (PostgreSQL): the instances and their leases.
    pub cluster: Option<ClusterInfo>,
}

/// The cluster's view for the index page (shared states only).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClusterInfo {
    /// Instances alive, oldest first.
    pub instances: Vec<InstanceInfo>,
    /// Leases held now: (feed, holder instance id).
    pub leases: Vec<(String, String)>,
    /// Why the database could not be read (then the lists are empty).
    pub unreachable: Option<String>,
}

/// One instance alive, as the index page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceInfo {
    pub id: String,
    pub host: String,
    pub started: DateTime<Utc>,
    /// This is the instance serving the page.
    pub this: bool,
    /// It runs another config than the instance serving the page.
    pub config_differs: bool,
}

/// `cluster` as the index template sees it: `instances` (each `id`,
/// `host`, `started`, `started_iso`, `this`, `config_differs`, `leases`:
/// the feeds it holds), `leases` (each `feed`, `holder`), `unreachable`.
fn cluster_value(c: &ClusterInfo) -> Value {
    let instances: Vec<Value> = c
        .instances
        .iter()
        .map(|i| {
            let held: Vec<String> = c
                .leases
                .iter()
                .filter(|(_, holder)| *holder == i.id)
                .map(|(feed, _)| feed.clone())
                .collect();
            context! {
                id => &i.id,
                host => &i.host,
                started => human_time(i.started),
                started_iso => i.started.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                this => i.this,
                config_differs => i.config_differs,
                leases => held,
            }
        })
        .collect();
    let leases: Vec<Value> = c
        .leases
        .iter()
        .map(|(feed, holder)| context! { feed => feed, holder => holder })
        .collect();
    context! {
        instances => instances,
        leases => leases,
        unreachable => &c.unreachable,
    }
}

/// The compiled index page template.
#[derive(Debug, Clone)]
pub struct IndexTemplate {
    env: Environment<'static>,
    name: String,
}

impl Default for IndexTemplate {
    fn default() -> Self {
        // The bundled template is tested to compile.
        IndexTemplate::new(DEFAULT_INDEX_TEMPLATE.to_string()).unwrap_or_else(|_| IndexTemplate {
            env: Environment::new(),
            name: "index".into(),
        })
    }
}

impl IndexTemplate {
    /// Compile a template's source.
    pub fn new(source: String) -> Result<Self, TemplateError> {
        let (env, name) = compile("index", "index".into(), source)?;
        Ok(IndexTemplate { env, name })
    }

    /// Read and compile the template at `path`.
    pub fn from_file(path: &Path) -> Result<Self, TemplateError> {
        let source = read("index", path)?;
        let (env, name) = compile("index", path.display().to_string(), source)?;
        Ok(IndexTemplate { env, name })
    }

    /// The index page listing `feeds`.
    ///
    /// Template variables: `feeds` (list; see [`feed_value`] for the fields
    /// of each), `counts` (`ok`, `pending`, `degraded`, `failing`, `total`),
    /// `generated` and `generated_iso`, `public_url`, `version`, `opml_href`,
    /// `console_href` (none when the console is off), `cluster` (none
    /// unless the state is shared; see [`cluster_value`]).
    pub fn render(
        &self,
        feeds: &[FeedStatus],
        ctx: &IndexContext,
    ) -> Result<String, TemplateError> {
        let count = |word: &str| feeds.iter().filter(|f| f.health.word() == word).count();
        let err = |source| TemplateError::Template {
            what: "index",
            source,
        };
        self.env
            .get_template(&self.name)
            .map_err(err)?
            .render(context! {
                feeds => feeds.iter().map(feed_value).collect::<Vec<_>>(),
                counts => context! {
                    ok => count("ok"),
                    pending => count("pending"),
                    degraded => count("degraded"),
                    failing => count("failing"),
                    total => feeds.len(),
                },
                generated => human_time(ctx.generated),
                generated_iso => ctx.generated.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                public_url => ctx.public_url.as_ref().map(|u| u.as_str()),
                version => ctx.version,
                opml_href => OPML_HREF,
                console_href => ctx.console.then_some("console"),
                cluster => ctx.cluster.as_ref().map(cluster_value),
            })
            .map_err(err)
    }
}

/// One feed as the index template sees it: `id`, `title`, `source`,
/// `source_href` (the source when it is an http(s)/file URL, else none),
/// `status` (ok/pending/degraded/failing), `reasons` (list), `error`,
/// `consecutive_failures`, `last_run` (none or `started`, `started_iso`,
/// `duration_ms`, `outcome`, `records`, `new_items`), `items`, `next_run`
/// and `next_run_iso` (or none), `formats` (list of `name`, `label`, `content_type`, `ext`, `href`),
/// `page_href` (the feed's HTML page).
pub fn feed_value(f: &FeedStatus) -> Value {
    let (reasons, error, failures) = match &f.health {
        Health::Degraded { reasons } => (reasons.clone(), None, 0),
        Health::Failing {
            error,
            consecutive_failures,
        } => (Vec::new(), Some(error.clone()), *consecutive_failures),
        Health::Ok | Health::Pending => (Vec::new(), None, 0),
    };
    let last_run = f.last_run.as_ref().map(|r| {
        context! {
            started => human_time(r.started),
            started_iso => r.started.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            duration_ms => r.duration_ms,
            outcome => outcome_word(&r.outcome),
            records => r.records,
            new_items => r.new_items,
        }
    });
    let source_href = Url::parse(&f.source)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https" | "file"))
        .map(|u| u.to_string());
    let formats: Vec<Value> = f
        .formats
        .iter()
        .map(|&format| {
            context! {
                name => format.name(),
                label => format_label(format),
                content_type => format.content_type().split(';').next().unwrap_or(""),
                ext => format.ext(),
                href => format_href(&f.id, format),
            }
        })
        .collect();
    context! {
        id => &f.id,
        title => &f.title,
        source => &f.source,
        source_href => source_href,
        status => f.health.word(),
        reasons => reasons,
        error => error,
        consecutive_failures => failures,
        last_run => last_run,
        items => f.items,
        next_run => f.next_run.map(human_time),
        next_run_iso => f.next_run.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
        formats => formats,
        page_href => format!("feeds/{}.html", crate::publish::page::encode_segment(&f.id)),
    }
}

/// Relative link to a feed file as the daemon serves it:
/// `feeds/<id>.<ext>`, the id percent-encoded.
pub fn format_href(id: &str, format: Format) -> String {
    let mut href = String::from("feeds/");
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            href.push(char::from(b));
        } else {
            href.push_str(&format!("%{b:02X}"));
        }
    }
    href.push('.');
    href.push_str(format.ext());
    href
}

/// How the index page names a format.
fn format_label(format: Format) -> &'static str {
    match format {
        Format::Rss => "RSS",
        Format::Atom => "Atom",
        Format::Json => "JSON Feed",
    }
}

fn outcome_word(outcome: &RunOutcome) -> &'static str {
    match outcome {
        RunOutcome::Published => "published",
        RunOutcome::NotModified => "not modified",
        RunOutcome::Degraded => "degraded",
        RunOutcome::Failed => "failed",
    }
}

fn human_time(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// Every template and the stylesheet, bundled or from the user's files.
#[derive(Debug, Clone)]
pub struct Templates {
    pub item: ItemTemplate,
    pub index: IndexTemplate,
    /// XSLT source served next to the feeds (see [`stylesheet`]).
    pub stylesheet: String,
    /// Each feed's HTML page (`templates/feed.html`).
    pub page: crate::publish::page::PageTemplate,
}

impl Default for Templates {
    fn default() -> Self {
        Templates {
            item: ItemTemplate::default(),
            index: IndexTemplate::default(),
            stylesheet: DEFAULT_STYLESHEET.to_owned(),
            page: crate::publish::page::PageTemplate::default(),
        }
    }
}

impl Templates {
    /// The bundled templates, each replaced by the file given for it. A
    /// file that cannot be read or does not compile is an error naming it
    /// (and, for templates, the line).
    pub fn load(
        item: Option<&Path>,
        index: Option<&Path>,
        stylesheet: Option<&Path>,
    ) -> Result<Templates, TemplateError> {
        let item = match item {
            Some(path) => ItemTemplate::from_file(path)?,
            None => ItemTemplate::default(),
        };
        let index = match index {
            Some(path) => IndexTemplate::from_file(path)?,
            None => IndexTemplate::default(),
        };
        let stylesheet = match stylesheet {
            Some(path) => {
                let source =
                    std::fs::read_to_string(path).map_err(|e| TemplateError::Stylesheet {
                        path: path.to_owned(),
                        reason: e.to_string(),
                    })?;
                check_stylesheet(&source).map_err(|reason| TemplateError::Stylesheet {
                    path: path.to_owned(),
                    reason,
                })?;
                source
            }
            None => DEFAULT_STYLESHEET.to_owned(),
        };
        Ok(Templates {
            item,
            index,
            stylesheet,
            page: crate::publish::page::PageTemplate::default(),
        })
    }

    /// These templates with the feed page template read from `page`
    /// (`page_template`), or the bundled one.
    pub fn with_page(mut self, page: Option<&Path>) -> Result<Templates, TemplateError> {
        if let Some(path) = page {
            self.page = crate::publish::page::PageTemplate::from_file(path)?;
        }
        Ok(self)
    }
}

/// A cheap check that a file is an XSLT stylesheet (browsers report a
/// broken one only as a blank page).
fn check_stylesheet(source: &str) -> Result<(), String> {
    let start = source.trim_start_matches('\u{feff}').trim_start();
    if !start.starts_with('<') {
        return Err("does not start with an XML tag".into());
    }
    if !source.contains("http://www.w3.org/1999/XSL/Transform") {
        return Err("declares no XSLT namespace (http://www.w3.org/1999/XSL/Transform)".into());
    }
    if !(source.contains(":stylesheet") || source.contains(":transform")) {
        return Err("has no xsl:stylesheet or xsl:transform element".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::status::LastRun;
    use chrono::TimeZone;

    fn item() -> Item {
        Item {
            title: "Ferry <times> change".into(),
            link: Some(Url::parse("https://news.example.com/a?x=1&y=2").unwrap()),
            guid: "g".into(),
            date: None,
            date_relative: false,
            summary: "Late sailings <b>cut</b>".into(),
            image: None,
            author: None,
            categories: Vec::new(),
            body_html: None,
        }
    }

    #[test]
    fn body_and_image_are_combined_and_text_is_escaped() {
        let t = ItemTemplate::default();
        assert_eq!(t.render(&item()).unwrap(), None);
        let mut it = item();
        it.image = Some(Url::parse("https://news.example.com/i.jpg?a=1&b=2").unwrap());
        let html = t.render(&it).unwrap().unwrap();
        assert!(
            html.contains(r#"<img src="https://news.example.com/i.jpg?a=1&amp;b=2""#),
            "{html}"
        );
        assert!(
            html.contains("Late sailings &lt;b&gt;cut&lt;/b&gt;"),
            "{html}"
        );
        it.body_html = Some("<p>The <em>full</em> story.</p>".into());
        let html = t.render(&it).unwrap().unwrap();
        assert!(html.contains("<p>The <em>full</em> story.</p>"), "{html}");
        assert!(!html.contains("Late sailings"), "{html}");
    }

    #[test]
    fn user_template_replaces_the_default_and_errors_are_clear() {
        let t = ItemTemplate::new("<div>{{ title }}</div>{{ body }}".into()).unwrap();
        let mut it = item();
        it.body_html = Some("<p>x</p>".into());
        assert_eq!(
            t.render(&it).unwrap().unwrap(),
            "<div>Ferry &lt;times&gt; change</div><p>x</p>"
        );
        let err = ItemTemplate::new("{% if %}".into()).unwrap_err();
        assert!(err.to_string().starts_with("item template:"), "{err}");
    }

    fn statuses() -> Vec<FeedStatus> {
        let t = |h| Utc.with_ymd_and_hms(2026, 3, 10, h, 0, 0).unwrap();
        vec![
            FeedStatus {
                id: "city-news".into(),
                title: "City <News> & Notices".into(),
                source: "https://city.example.gov/news/".into(),
                formats: vec![Format::Rss, Format::Json],
                health: Health::Ok,
                last_run: Some(LastRun {
                    started: t(9),
                    duration_ms: 1840,
                    outcome: RunOutcome::Published,
                    records: 24,
                    new_items: 3,
                }),
                last_success: None,
                items: 24,
                next_run: Some(t(10)),
            },
            FeedStatus {
                id: "shop".into(),
                title: "Shop offers".into(),
                source: "javascript:alert(1)".into(),
                formats: vec![Format::Atom],
                health: Health::Failing {
                    error: "HTTP 503 from https://shop.example.com/".into(),
                    consecutive_failures: 4,
                },
                last_run: Some(LastRun {
                    started: t(8),
                    duration_ms: 30000,
                    outcome: RunOutcome::Failed,
                    records: 0,
                    new_items: 0,
                }),
                last_success: None,
                items: 12,
                next_run: None,
            },
            FeedStatus {
                id: "blog".into(),
                title: "Blog".into(),
                source: "https://blog.example.org/".into(),
                formats: Format::ALL.to_vec(),
                health: Health::Degraded {
                    reasons: vec!["found 2 records, had 20".into()],
                },
                last_run: None,
                last_success: None,
                items: 20,
                next_run: None,
            },
        ]
    }

    fn ctx() -> IndexContext {
        IndexContext {
            generated: Utc.with_ymd_and_hms(2026, 3, 10, 9, 30, 0).unwrap(),
            public_url: Some(Url::parse("https://feeds.example.net/feeds/").unwrap()),
            version: "9.9.9",
            console: true,
            cluster: None,
        }
    }

    #[test]
    fn index_shows_the_instances_and_their_leases_on_a_shared_state() {
        let started = Utc.with_ymd_and_hms(2026, 3, 10, 8, 0, 0).unwrap();
        let instance = |id: &str, this, config_differs| InstanceInfo {
            id: id.into(),
            host: "web".into(),
            started,
            this,
            config_differs,
        };
        let mut c = ctx();
        c.cluster = Some(ClusterInfo {
            instances: vec![
                instance("web-1-aa", true, false),
                instance("web-2-bb", false, true),
            ],
            leases: vec![("city-news".into(), "web-2-bb".into())],
            unreachable: None,
        });
        let html = IndexTemplate::default().render(&statuses(), &c).unwrap();
        for want in [
            "2 instances alive,\n  1 lease held.",
            "<strong>web-1-aa</strong> on web, since <time datetime=\"2026-03-10T08:00:00Z\">",
            "08:00 UTC</time> <span class=\"muted\">(this instance)</span></li>",
            "config differs</span>: running city-news</li>",
        ] {
            assert!(html.contains(want), "{want:?} missing from {html}");
        }
        c.cluster = Some(ClusterInfo {
            unreachable: Some("state database postgres://db/x is unreachable".into()),
            ..ClusterInfo::default()
        });
        let html = IndexTemplate::default().render(&statuses(), &c).unwrap();
        assert!(html.contains("The state database is unreachable: state database"));
        assert!(!html.contains("instances alive"));
        c.cluster = None;
        let html = IndexTemplate::default().render(&statuses(), &c).unwrap();
        assert!(!html.contains("id=\"cluster\""));
    }

    #[test]
    fn index_lists_every_feed_with_status_and_format_links() {
        let html = IndexTemplate::default()
            .render(&statuses(), &ctx())
            .unwrap();
        for want in [
            "City &lt;News&gt; &amp; Notices",
            r#"href="https://city.example.gov/news/""#,
            r#"href="feeds/city-news.xml""#,
            r#"href="feeds/city-news.json""#,
            r#"href="feeds/shop.atom""#,
            r#"href="feeds/blog.atom""#,
            r#"href="feeds.opml""#,
            "HTTP 503 from https://shop.example.com/",
            "4 failures in a row",
            "found 2 records, had 20",
            "2026-03-10 09:00 UTC",
            "published",
            "24 records, 3 new",
            "2026-03-10 10:00 UTC",
            "9.9.9",
            "https://feeds.example.net/feeds/",
        ] {
            assert!(html.contains(want), "missing {want}\n{html}");
        }
        for word in ["ok", "failing", "degraded"] {
            assert!(
                html.contains(&format!("class=\"status {word}\"")),
                "{word}\n{html}"
            );
        }
        // A source that is not a web URL is shown, never linked.
        assert!(!html.contains("href=\"javascript"), "{html}");
        assert!(html.contains("javascript:alert(1)"), "{html}");
        assert!(!html.contains("<script"), "{html}");
    }

    #[test]
    fn format_links_encode_odd_ids() {
        assert_eq!(format_href("a b/c", Format::Json), "feeds/a%20b%2Fc.json");
        assert_eq!(format_href("news-1_x", Format::Rss), "feeds/news-1_x.xml");
    }

    #[test]
    fn load_uses_defaults_and_names_broken_files() {
        let t = Templates::load(None, None, None).unwrap();
        assert_eq!(t.stylesheet, stylesheet());
        assert!(check_stylesheet(stylesheet()).is_ok());

        let dir = tempfile::tempdir().unwrap();
        let broken = dir.path().join("index.html");
        std::fs::write(
            &broken,
            "<h1>{{ title }}</h1>\n<ul>\n{% for f in feeds %}\n",
        )
        .unwrap();
        let err = Templates::load(None, Some(&broken), None).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("index template: "), "{msg}");
        assert!(msg.contains(&broken.display().to_string()), "{msg}");
        assert!(msg.contains(":4)") || msg.contains(":3)"), "line: {msg}");

        let missing = dir.path().join("nope.html");
        let err = Templates::load(Some(&missing), None, None).unwrap_err();
        assert!(err.to_string().contains("nope.html"), "{err}");

        let not_xsl = dir.path().join("feed.xsl");
        std::fs::write(&not_xsl, "<html></html>").unwrap();
        let err = Templates::load(None, None, Some(&not_xsl)).unwrap_err();
        assert!(err.to_string().contains("XSLT namespace"), "{err}");

        let good = dir.path().join("item.html");
        std::fs::write(&good, "<p>{{ title }}</p>{{ body }}").unwrap();
        let t = Templates::load(Some(&good), None, None).unwrap();
        let mut it = item();
        it.body_html = Some("<b>b</b>".into());
        assert_eq!(
            t.item.render(&it).unwrap().unwrap(),
            "<p>Ferry &lt;times&gt; change</p><b>b</b>"
        );
    }
}
