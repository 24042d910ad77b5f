//! Record → item: turns one mined record (a run of sibling DOM subtrees) into
//! a feed item with title, absolute link, date, summary and image.
//!
//! Invariants: `link` and `image` are absolute http(s) URLs; `guid` is stable
//! for the same record content (the link when there is one, otherwise a hash
//! of title and summary), so a record seen again maps to the same item.

use chrono::{DateTime, FixedOffset};
use sha2::{Digest, Sha256};
use url::Url;

use crate::extract::dates::{DateContext, find_date, parse_date};
use crate::extract::dom::{Document, NodeData, NodeId, collapse_whitespace};
use crate::extract::records::Record;

/// One entry of a published feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The record's main link text or heading, whitespace-collapsed.
    pub title: String,
    /// Absolute URL of the record's main link, if it has one.
    pub link: Option<Url>,
    /// Stable identifier: the link's string when there is a link, otherwise
    /// `"urn:feedmine:<hex sha256 prefix>"` of title + summary.
    pub guid: String,
    /// Publication date found in the record, if any.
    pub date: Option<DateTime<FixedOffset>>,
    /// True when `date` was resolved from a phrase relative to the fetch
    /// time ("2 days ago", "today"): the state keeps the first sight's.
    pub date_relative: bool,
    /// The record's remaining text (without the title), whitespace-collapsed.
    pub summary: String,
    /// First content image of the record, absolute.
    pub image: Option<Url>,
    /// The record's byline (poster, author), whitespace-collapsed.
    pub author: Option<String>,
    /// The record's tags or labels, in page order, without duplicates.
    pub categories: Vec<String>,
    /// Sanitized main-content HTML of the linked page (filled by `bodies`).
    pub body_html: Option<String>,
}

impl Item {
    /// True when `guid` is the link itself (RSS `isPermaLink="true"`).
    pub fn guid_is_permalink(&self) -> bool {
        self.link.as_ref().is_some_and(|l| l.as_str() == self.guid)
    }
}

/// Link texts that name an action, not the record: never a title when the
/// record has a better link.
const ACTION_TEXTS: &[&str] = &[
    "read more",
    "more",
    "continue reading",
    "read the rest",
    "read full story",
    "more »",
    "more...",
    "comments",
    "reply",
    "share",
    "weiterlesen",
    "mehr",
    "lire la suite",
    "leer más",
    "阅读全文",
    "更多",
    "続きを読む",
];

/// True for "Read more", "Comments" and the like.
fn is_action_text(t: &str) -> bool {
    let l = t.to_lowercase();
    let l = l.trim_matches(|c: char| !c.is_alphanumeric() && (c as u32) <= 0x2E80);
    !l.is_empty()
        && ACTION_TEXTS
            .iter()
            .any(|a| a.trim_matches(|c: char| !c.is_alphanumeric()) == l)
}

/// Summaries are cut (at a word boundary) beyond this many characters.
pub const MAX_SUMMARY_CHARS: usize = 1_000;

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

fn is_heading(name: &str) -> bool {
    matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
}

/// The group-level choice of the title link: the structural path (tags and
/// classes from the record down to the `<a>`) that most records share and
/// whose link texts differ from record to record. Per-record guesses are
/// fooled by links in excerpts and by repeated action links ("Source code
/// (tar.gz)", "12 comments"); the path that is the same in every record
/// and says something different in each is the headline.
#[derive(Debug, Clone, Default)]
pub struct TitlePlan {
    pub path: Option<String>,
    /// Image sources found in more than one record: status icons, rating
    /// stars and spacers, never a record's own picture.
    pub shared_images: std::collections::HashSet<String>,
    /// The link at `path` in each record (computed once for the group).
    pub title_links: std::collections::HashSet<NodeId>,
    /// Title text of every link of the group's records, by node.
    pub link_texts: rustc_hash::FxHashMap<NodeId, String>,
}

/// Share of records a title path must appear in.
const TITLE_PATH_PRESENCE: f64 = 0.6;
/// Share of distinct texts among a title path's links.
const TITLE_PATH_DISTINCT: f64 = 0.7;

/// Structural path of node `id` inside `record`: `tag.class` steps from the
/// record's top down to `id`.
fn path_in_record(doc: &Document, record: &Record, id: NodeId) -> String {
    let mut steps: Vec<String> = std::iter::once(id)
        .chain(doc.ancestors(id))
        .take_while(|&a| a >= record.start && a < record.end)
        .filter_map(|a| {
            let e = doc.element(a)?;
            let class = e
                .attr("class")
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or("");
            Some(format!("{}.{}", e.name, class))
        })
        .collect();
    steps.reverse();
    steps.join("/")
}

/// Choose the title path for a group of records.
pub fn plan_titles(doc: &Document, records: &[Record]) -> TitlePlan {
    use rustc_hash::FxHashMap as HashMap;
    struct PathStats {
        records: usize,
        texts: Vec<String>,
        chars: usize,
        heading: usize,
        slug: f64,
    }
    let mut stats: HashMap<String, PathStats> = HashMap::default();
    let mut link_texts: HashMap<NodeId, String> = HashMap::default();
    // (path, link node) of the first usable link at each path of each record.
    let mut firsts: Vec<(String, NodeId)> = Vec::new();
    for r in records {
        let mut seen_here: Vec<String> = Vec::new();
        for i in r.start..r.end {
            let Some(el) = doc.element(i) else { continue };
            if el.name != "a" || el.attr("href").is_none() {
                continue;
            }
            let text = link_title_text(doc, i);
            link_texts.insert(i, text.clone());
            if is_action_text(&text) {
                continue;
            }
            let key = path_in_record(doc, r, i);
            if seen_here.contains(&key) {
                continue; // the first link at a path is the record's
            }
            let heading = in_or_has_heading(doc, r, i);
            let slug = slug_match(&text, el.attr("href").unwrap_or(""));
            let st = stats.entry(key.clone()).or_insert(PathStats {
                records: 0,
                texts: Vec::new(),
                chars: 0,
                heading: 0,
                slug: 0.0,
            });
            st.slug += slug;
            st.records += 1;
            st.chars += text.chars().count();
            st.heading += usize::from(heading);
            st.texts.push(text);
            firsts.push((key.clone(), i));
            seen_here.push(key);
        }
    }
    let mut image_records: HashMap<String, usize> = HashMap::default();
    for r in records {
        let mut here: Vec<&str> = (r.start..r.end)
            .filter_map(|i| doc.element(i).filter(|e| e.name == "img")?.attr("src"))
            .collect();
        here.sort_unstable();
        here.dedup();
        for src in here {
            *image_records.entry(src.trim().to_string()).or_insert(0) += 1;
        }
    }
    let shared_images = image_records
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(src, _)| src)
        .collect();
    let k = records.len().max(1) as f64;
    let best = stats
        .into_iter()
        .filter(|(_, st)| st.records as f64 >= TITLE_PATH_PRESENCE * k && st.chars > 0)
        .filter(|(_, st)| {
            let mut t: Vec<&String> = st.texts.iter().filter(|t| !t.is_empty()).collect();
            let n = t.len().max(1) as f64;
            t.sort();
            t.dedup();
            records.len() < 3 || t.len() as f64 >= TITLE_PATH_DISTINCT * n
        })
        .map(|(key, st)| {
            let mean = st.chars as f64 / st.records as f64;
            // Length counts, but with diminishing returns: an excerpt link is
            // longer than the headline link, and must not win on length alone.
            let heading = if st.heading * 2 >= st.records {
                3.0
            } else {
                1.0
            };
            let presence = st.records as f64 / k;
            let slug = 1.0 + st.slug / st.records as f64;
            (key, mean.min(80.0).sqrt() * heading * presence * slug)
        })
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
    let path = best.map(|(k, _)| k);
    let title_links = firsts
        .into_iter()
        .filter(|(k, _)| Some(k) == path.as_ref())
        .map(|(_, n)| n)
        .collect();
    TitlePlan {
        path,
        shared_images,
        title_links,
        link_texts,
    }
}

/// True when link `a` is inside a heading or holds one (within the record).
fn in_or_has_heading(doc: &Document, record: &Record, a: NodeId) -> bool {
    doc.ancestors(a)
        .take_while(|&x| x >= record.start)
        .any(|x| is_title_element(doc, x))
        || (a + 1..doc.node(a).end).any(|x| is_title_element(doc, x))
}

/// True for headings and for elements whose class names them a title
/// (`card-title`, `post-headline`, ...).
fn is_title_element(doc: &Document, id: NodeId) -> bool {
    doc.element(id).is_some_and(|e| {
        is_heading(&e.name)
            || e.attr("class").is_some_and(|c| {
                let c = c.to_ascii_lowercase();
                c.contains("title") || c.contains("headline") || c.contains("heading")
            })
    })
}

/// A link's title text: the heading (or title-classed element) inside it
/// when it wraps a whole card (heading + excerpt), else its text.
fn link_title_text(doc: &Document, a: NodeId) -> String {
    (a + 1..doc.node(a).end)
        .find(|&x| is_title_element(doc, x))
        .map(|h| doc.text(h))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| doc.text(a))
}

/// Share of the words of a URL's last path segment that occur in `text`:
/// posts are usually published under a slug made from their title.
fn slug_match(text: &str, href: &str) -> f64 {
    let path = href.split(['?', '#']).next().unwrap_or("");
    let segment = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".html")
        .trim_end_matches(".htm");
    let words: Vec<String> = segment
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1 && !w.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_lowercase)
        .collect();
    // One-word slugs are user names and tags as often as titles; a text
    // that is itself a path or URL is no headline.
    let t = text.trim_start();
    if words.len() < 2 || t.starts_with('/') || t.starts_with("http") {
        return 0.0;
    }
    let text = text.to_lowercase();
    words.iter().filter(|w| text.contains(w.as_str())).count() as f64 / words.len() as f64
}

/// A link inside a record, with what the title choice needs.
struct LinkInfo {
    node: NodeId,
    url: Url,
    text: String,
    in_heading: bool,
    on_title_path: bool,
}

/// Turn one record into an item. `base` is [`base_url`] of the page.
pub fn item_from_record(
    doc: &Document,
    record: &Record,
    base: &Url,
    dates: &DateContext,
    plan: &TitlePlan,
) -> Item {
    let mut links: Vec<LinkInfo> = Vec::new();
    let mut heading: Option<NodeId> = None;
    let mut image: Option<Url> = None;
    let mut attr_date: Option<DateTime<FixedOffset>> = None;
    for i in record.start..record.end {
        let Some(el) = doc.element(i) else { continue };
        let name = el.name.as_str();
        if name == "a" {
            if let Some(url) = el.attr("href").and_then(|h| resolve(base, h)) {
                let text = plan
                    .link_texts
                    .get(&i)
                    .cloned()
                    .unwrap_or_else(|| link_title_text(doc, i));
                let in_heading = in_or_has_heading(doc, record, i);
                let on_title_path = plan.title_links.contains(&i);
                links.push(LinkInfo {
                    node: i,
                    url,
                    text,
                    in_heading,
                    on_title_path,
                });
            }
        } else if is_heading(name) && heading.is_none() && doc.text_bytes(i) > 0 {
            heading = Some(i);
        } else if name == "img"
            && image.is_none()
            && !el
                .attr("src")
                .is_some_and(|s| plan.shared_images.contains(s.trim()))
        {
            image = image_url(el, base);
        }
        if attr_date.is_none() {
            attr_date = [
                "datetime",
                "data-datetime",
                "data-date",
                "data-time",
                "title",
            ]
            .iter()
            .filter(|a| **a != "title" || name == "abbr" || name == "time" || name == "span")
            .filter_map(|a| el.attr(a))
            .find_map(|v| parse_date(v, dates));
        }
    }

    // Title: the link on the group's title path, else a link inside a
    // heading, else the heading, else the longest non-action link text,
    // else the first text.
    let usable = |l: &&LinkInfo| {
        !l.text.is_empty() && !is_action_text(&l.text) && parse_date(&l.text, dates).is_none()
    };
    let title_link = links
        .iter()
        .filter(usable)
        .find(|l| l.on_title_path)
        .or_else(|| links.iter().filter(usable).find(|l| l.in_heading))
        .or_else(|| {
            links
                .iter()
                .filter(usable)
                .max_by_key(|l| (l.text.chars().count(), std::cmp::Reverse(l.node)))
        });
    let (title, link_node) = match (title_link, heading) {
        (Some(l), _) if l.in_heading || l.on_title_path => (l.text.clone(), Some(l.node)),
        (_, Some(h)) if title_link.is_none_or(|l| l.text.chars().count() < 4) => {
            (doc.text(h), title_link.map(|l| l.node))
        }
        (Some(l), _) => (l.text.clone(), Some(l.node)),
        _ => (first_text(doc, record), None),
    };
    let link = link_node
        .and_then(|n| links.iter().find(|l| l.node == n))
        .or_else(|| links.first())
        .map(|l| l.url.clone());

    let full = doc.text_of_range(record.start, record.end);
    let summary = summary_without(&full, &title);
    let date = attr_date.or_else(|| text_date(doc, record, link_node, dates));
    let date_relative =
        date.is_some() && date_moves_with_clock(doc, record, link_node, dates, date);
    let (author, categories) = crate::extract::byline::byline_and_tags(doc, record, link_node);
    let guid = match &link {
        Some(l) => l.to_string(),
        None => content_guid(&title, &summary),
    };
    Item {
        title,
        link,
        guid,
        date,
        date_relative,
        summary,
        image,
        author,
        categories,
        body_html: None,
    }
}

/// True when the record's date depends on the fetch time ("2 days ago",
/// "today", a day without a year): read one day later, it is another date.
fn date_moves_with_clock(
    doc: &Document,
    record: &Record,
    title_link: Option<NodeId>,
    ctx: &DateContext,
    date: Option<DateTime<FixedOffset>>,
) -> bool {
    let Some(now) = ctx.now.checked_add_signed(chrono::Duration::days(1)) else {
        return false;
    };
    let later = DateContext { now, ..*ctx };
    let attr = (record.start..record.end).find_map(|i| {
        let el = doc.element(i)?;
        [
            "datetime",
            "data-datetime",
            "data-date",
            "data-time",
            "title",
        ]
        .iter()
        .filter(|a| **a != "title" || matches!(el.name.as_str(), "abbr" | "time" | "span"))
        .filter_map(|a| el.attr(a))
        .find_map(|v| parse_date(v, &later))
    });
    attr.or_else(|| text_date(doc, record, title_link, &later)) != date
}

/// First date in the record's text, in document order (a record's own date
/// comes before "last reply 3 hours ago"): a text node that is a date on
/// its own or holds one, else a date spanning several nodes.
fn text_date(
    doc: &Document,
    record: &Record,
    title_link: Option<NodeId>,
    ctx: &DateContext,
) -> Option<DateTime<FixedOffset>> {
    let inside_title = |i: NodeId| title_link.is_some_and(|t| doc.contains(t, i));
    for i in record.start..record.end {
        if let NodeData::Text { text, blank: false } = &doc.node(i).data
            && !inside_title(i)
            && let Some(d) = parse_date(text, ctx).or_else(|| find_date(text, ctx).map(|(d, _)| d))
        {
            return Some(d);
        }
    }
    let mut raw = String::new();
    doc.push_text_of_range(record.start, record.end, &mut raw, |i| !inside_title(i));
    find_date(&collapse_whitespace(&raw), ctx).map(|(d, _)| d)
}

fn first_text(doc: &Document, record: &Record) -> String {
    (record.start..record.end)
        .find_map(|i| match &doc.node(i).data {
            NodeData::Text { text, blank: false } => Some(collapse_whitespace(text)),
            _ => None,
        })
        .unwrap_or_default()
}

/// The record's text with the title's first occurrence removed, cut to
/// [`MAX_SUMMARY_CHARS`].
fn summary_without(full: &str, title: &str) -> String {
    let rest = match (title.is_empty(), full.find(title)) {
        (false, Some(pos)) => format!("{} {}", &full[..pos], &full[pos + title.len()..]),
        _ => full.to_string(),
    };
    let rest = collapse_whitespace(&rest);
    if rest.chars().count() <= MAX_SUMMARY_CHARS {
        return rest;
    }
    let cut: String = rest.chars().take(MAX_SUMMARY_CHARS).collect();
    let cut = match cut.rfind(' ') {
        Some(p) if p > MAX_SUMMARY_CHARS / 2 => cut[..p].to_string(),
        _ => cut,
    };
    format!("{cut}…")
}

/// A content image's absolute URL: `src`, lazy-loading attributes, or the
/// first `srcset` candidate; tracking pixels and inline data are skipped.
fn image_url(el: &crate::extract::dom::Element, base: &Url) -> Option<Url> {
    // Declared dimensions below this are icons, spacers and tracking pixels.
    const MIN_CONTENT_IMAGE_PX: u32 = 40;
    let tiny = ["width", "height"].iter().any(|a| {
        el.attr(a)
            .and_then(|v| v.trim().trim_end_matches("px").parse::<u32>().ok())
            .is_some_and(|v| v < MIN_CONTENT_IMAGE_PX)
    });
    // File names that say what the picture is for.
    let decorative = el.attr("src").is_some_and(|src| {
        let name = src.rsplit('/').next().unwrap_or("").to_ascii_lowercase();
        [
            "icon",
            "sprite",
            "spacer",
            "pixel",
            "blank.",
            "transparent.",
        ]
        .iter()
        .any(|w| name.contains(w))
    });
    if tiny || decorative {
        return None;
    }
    let candidates = ["data-src", "data-lazy-src", "data-original", "src"]
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

/// Stable guid for a record without a link.
pub fn content_guid(title: &str, summary: &str) -> String {
    let mut h = Sha256::new();
    h.update(title.as_bytes());
    h.update([0u8]);
    h.update(summary.as_bytes());
    let digest = h.finalize();
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("urn:feedmine:{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{FixedOffset, TimeZone, Utc};

    fn ctx() -> DateContext {
        DateContext {
            now: Utc.with_ymd_and_hms(2024, 3, 10, 12, 0, 0).unwrap(),
            offset: FixedOffset::east_opt(0).unwrap(),
        }
    }

    fn item_of(html: &str, selector_tag: &str) -> Item {
        let doc = crate::extract::dom::parse(html);
        let id = (0..doc.nodes.len() as NodeId)
            .find(|&i| doc.is_tag(i, selector_tag))
            .unwrap();
        let rec = Record {
            start: id,
            end: doc.node(id).end,
        };
        let base = base_url(
            &doc,
            &Url::parse("https://news.example.com/world/").unwrap(),
        );
        let plan = plan_titles(&doc, &[rec]);
        item_from_record(&doc, &rec, &base, &ctx(), &plan)
    }

    #[test]
    fn teaser_with_thumbnail_heading_and_time() {
        let it = item_of(
            "<article><a href='/p/1'><img src='/i/1.jpg' alt=''></a><h3><a href='/p/1'>Floods reach the city</a></h3>\
             <p>Water levels rose overnight.</p><a href='/p/1#c'>12 comments</a>\
             <time datetime='2024-03-05T08:00:00+01:00'>5 March</time></article>",
            "article",
        );
        assert_eq!(it.title, "Floods reach the city");
        assert_eq!(it.link.unwrap().as_str(), "https://news.example.com/p/1");
        assert_eq!(
            it.image.unwrap().as_str(),
            "https://news.example.com/i/1.jpg"
        );
        assert_eq!(it.date.unwrap().to_rfc3339(), "2024-03-05T08:00:00+01:00");
        assert!(it.summary.contains("Water levels rose overnight."));
        assert!(!it.summary.contains("Floods reach"));
    }

    #[test]
    fn list_row_with_date_span_and_read_more() {
        let it = item_of(
            "<li><span>March 5, 2024</span> <a href='post.html'>Read more</a> <a href='post.html'>On writing</a></li>",
            "li",
        );
        assert_eq!(it.title, "On writing");
        assert_eq!(
            it.link.as_ref().unwrap().as_str(),
            "https://news.example.com/world/post.html"
        );
        assert_eq!(it.date.unwrap().date_naive().to_string(), "2024-03-05");
        assert!(it.guid_is_permalink());
    }

    #[test]
    fn record_without_link_gets_stable_content_guid() {
        let a = item_of("<div><b>Closed on Monday</b><p>Holiday.</p></div>", "div");
        let b = item_of("<div><b>Closed on Monday</b><p>Holiday.</p></div>", "div");
        assert_eq!(a.title, "Closed on Monday");
        assert!(a.link.is_none() && a.guid.starts_with("urn:feedmine:"));
        assert_eq!(a.guid, b.guid);
        assert!(!a.guid_is_permalink());
    }

    #[test]
    fn base_href_and_javascript_links() {
        let doc = crate::extract::dom::parse(
            "<head><base href='/blog/'></head><body><a href='javascript:void(0)'>x</a></body>",
        );
        let base = base_url(&doc, &Url::parse("https://ex.com/a/b").unwrap());
        assert_eq!(base.as_str(), "https://ex.com/blog/");
        assert!(resolve(&base, "javascript:void(0)").is_none());
        assert_eq!(
            resolve(&base, "p/1").unwrap().as_str(),
            "https://ex.com/blog/p/1"
        );
    }
}
