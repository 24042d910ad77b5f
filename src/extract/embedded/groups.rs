//! Record groups in parsed data: arrays (and `Type:id`-keyed maps) of
//! similar objects whose members carry a title-like and a URL-like field,
//! scored on the scale of the DOM's record groups.
//!
//! Fields are not hard-coded per framework. For each candidate array the
//! *role* of a field (title, link, date, summary, image, author,
//! categories, id) is chosen once for the whole group, like the DOM's title
//! plan: the field path (own key, or one level down such as `node.title` or
//! `attributes.slug`) whose values fit the role in most members, preferring
//! names that say the role (`headline`, `permalink`, `datePublished`, …)
//! and values that differ from member to member.
//!
//! Score (see `extract::records::score_group` for the DOM's):
//! `coverage × headline × link_share² × dated × EMBEDDED_WEIGHT`, where
//! coverage is the group's text over the page's visible text (capped at 1:
//! on an app shell the data *is* the page), headline is the median title
//! length over 30 characters (clamped to 0.1..1, as for DOM links), and
//! dated is `0.8 + 0.2 × share of members with a date`.
//!
//! Invariants: at most [`MAX_WALK`] values are visited per page, at most
//! [`MAX_CANDIDATES`] arrays judged, [`PLAN_SAMPLE`] members looked at to
//! choose the fields, and [`MAX_RECORDS`] records kept per group.

use chrono::{DateTime, FixedOffset, TimeZone};
use rustc_hash::FxHashMap as HashMap;
use serde_json::{Map, Value};

use crate::extract::dates::{DateContext, parse_date};
use crate::extract::dom::collapse_whitespace;
use crate::extract::items::MAX_SUMMARY_CHARS;

/// Values visited per page, over all sources.
pub const MAX_WALK: usize = 400_000;
/// Candidate arrays judged per page.
pub const MAX_CANDIDATES: usize = 300;
/// Members looked at to choose a group's fields.
pub const PLAN_SAMPLE: usize = 200;
/// Records kept per group (as the DOM miner keeps 2,000 children).
pub const MAX_RECORDS: usize = 2_000;
/// Embedded groups lose close calls to DOM groups: what the page shows is
/// what its reader sees, the data behind it may hold more than that.
pub const EMBEDDED_WEIGHT: f64 = 0.9;
/// Members of a group must share this much of their keys (mean Jaccard
/// with the keys most members have).
const MIN_LIKENESS: f64 = 0.4;

/// One record read from embedded data.
#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddedRecord {
    pub title: String,
    /// The link as written (relative or absolute).
    pub url: Option<String>,
    pub date: Option<DateTime<FixedOffset>>,
    pub summary: String,
    /// The image as written.
    pub image: Option<String>,
    pub author: Option<String>,
    pub categories: Vec<String>,
    /// A stable identifier of the record in the data (`id`, `slug`, …).
    pub id: Option<String>,
}

/// Why an embedded group cannot win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbeddedDrop {
    /// Fewer members than `min_instances` (Rule 1).
    TooFew,
    /// Members are not alike (different key sets).
    Unlike,
    /// Fewer than half the members have a title-like field.
    NoTitle,
    /// Fewer than half the members have a URL-like field (Rule 3's `<a>`).
    NoLink,
    /// The group's text is below `min_coverage` of the page (Rule 5).
    Coverage,
}

impl EmbeddedDrop {
    pub fn describe(self) -> &'static str {
        match self {
            EmbeddedDrop::TooFew => "embedded: too few records (rule 1)",
            EmbeddedDrop::Unlike => "embedded: members not alike",
            EmbeddedDrop::NoTitle => "embedded: no title-like field",
            EmbeddedDrop::NoLink => "embedded: no URL-like field (rule 3)",
            EmbeddedDrop::Coverage => "embedded: coverage too low (rule 5)",
        }
    }
}

/// The field path chosen for each role (for display).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldPlan {
    pub title: Option<String>,
    pub url: Option<String>,
    pub date: Option<String>,
    pub summary: Option<String>,
    pub image: Option<String>,
    pub author: Option<String>,
    pub categories: Option<String>,
    pub id: Option<String>,
}

/// A group of records found in embedded data.
#[derive(Debug, Clone)]
pub struct EmbeddedGroup {
    /// The data source, e.g. `script#__NEXT_DATA__`.
    pub source: String,
    /// JSON path of the records, e.g. `$.props.pageProps.posts[*]`.
    pub path: String,
    pub records: Vec<EmbeddedRecord>,
    pub fields: FieldPlan,
    /// Share of the page's text in the records (capped at 1).
    pub coverage: f64,
    /// Ranking score, on the DOM groups' scale.
    pub score: f64,
    pub dropped: Option<EmbeddedDrop>,
}

impl EmbeddedGroup {
    /// `source path`, as shown by `preview`.
    pub fn location(&self) -> String {
        format!("{} {}", self.source, self.path)
    }
}

/// What scoring needs from the page.
#[derive(Debug, Clone, Copy)]
pub struct PageFacts {
    /// Bytes of visible text on the page (the DOM's text).
    pub visible_text: usize,
    pub min_instances: usize,
    pub min_coverage: f64,
}

/// Arrays of objects (and `Type:id` maps) under `root`, as (path, members).
pub fn candidates<'v>(
    root: &'v Value,
    walked: &mut usize,
) -> Vec<(String, Vec<&'v Map<String, Value>>)> {
    let mut out = Vec::new();
    let mut stack: Vec<(&Value, String)> = vec![(root, "$".to_string())];
    while let Some((v, path)) = stack.pop() {
        if *walked >= MAX_WALK || out.len() >= MAX_CANDIDATES {
            break;
        }
        *walked += 1;
        match v {
            Value::Array(items) => {
                let objects: Vec<&Map<String, Value>> =
                    items.iter().filter_map(Value::as_object).collect();
                if objects.len() >= 2 && objects.len() * 2 >= items.len() {
                    out.push((format!("{path}[*]"), objects));
                }
                for (i, item) in items.iter().enumerate().rev() {
                    if item.is_object() || item.is_array() {
                        stack.push((item, format!("{path}[{i}]")));
                    }
                }
            }
            Value::Object(map) => {
                out.extend(typed_maps(map, &path));
                // Reverse so that the walk meets keys in their order.
                let children: Vec<_> = map
                    .iter()
                    .filter(|(_, c)| c.is_object() || c.is_array())
                    .collect();
                for (k, c) in children.into_iter().rev() {
                    stack.push((c, format!("{path}{}", key_step(k))));
                }
            }
            _ => {}
        }
    }
    out
}

/// Normalised caches (Apollo's `__APOLLO_STATE__`, Relay) keep records as
/// `"Post:42": {…}` entries of one object: each type with several entries
/// is a candidate.
fn typed_maps<'v>(
    map: &'v Map<String, Value>,
    path: &str,
) -> Vec<(String, Vec<&'v Map<String, Value>>)> {
    let mut by_type: HashMap<&str, Vec<&Map<String, Value>>> = HashMap::default();
    for (k, v) in map {
        let (Some((ty, id)), Some(obj)) = (k.split_once(':'), v.as_object()) else {
            continue;
        };
        if !ty.is_empty() && !id.is_empty() && ty.chars().all(|c| c.is_alphanumeric() || c == '_') {
            by_type.entry(ty).or_default().push(obj);
        }
    }
    let mut out: Vec<_> = by_type
        .into_iter()
        .filter(|(_, members)| members.len() >= 2)
        .map(|(ty, members)| (format!("{path}[\"{ty}:*\"]"), members))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// `.key` or `["key"]` for a JSON path.
fn key_step(k: &str) -> String {
    let plain = !k.is_empty()
        && k.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        && !k.starts_with(|c: char| c.is_ascii_digit());
    if plain {
        format!(".{k}")
    } else {
        format!("[{k:?}]")
    }
}

/// The roles a field can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Title,
    Url,
    Date,
    Summary,
    Image,
    Author,
    Categories,
    Id,
}

/// A field of a member: its path below the member and its value.
type Field<'v> = (String, &'v Value);

/// The fields of one member: own keys, and the keys of objects one level
/// down (`node.title`, `attributes.slug`, `item.url`).
fn fields_of(obj: &Map<String, Value>) -> Vec<Field<'_>> {
    let mut out = Vec::new();
    for (k, v) in obj.iter().take(128) {
        out.push((k.clone(), v));
        if let Value::Object(inner) = v {
            for (k2, v2) in inner.iter().take(64) {
                out.push((format!("{k}.{k2}"), v2));
            }
        }
    }
    out
}

/// The value at a member's field path.
fn at<'v>(obj: &'v Map<String, Value>, path: &str) -> Option<&'v Value> {
    match path.split_once('.') {
        // Own keys may contain dots: try the whole key first.
        Some((a, b)) => obj.get(path).or_else(|| obj.get(a)?.as_object()?.get(b)),
        None => obj.get(path),
    }
}

/// The last key of a field path, lower-case, without `@`, `_` or `-`.
fn name_of(path: &str) -> String {
    path.rsplit('.')
        .next()
        .unwrap_or(path)
        .chars()
        .filter(|c| !matches!(c, '@' | '_' | '-'))
        .collect::<String>()
        .to_lowercase()
}

const IMAGE_WORDS: &[&str] = &[
    "image", "img", "thumb", "avatar", "logo", "icon", "photo", "picture", "cover", "poster",
    "banner", "hero", "featured", "media", "video", "audio", "src",
];

/// How strongly a field's name says it plays `role` (0: not by name).
fn name_score(role: Role, path: &str) -> u32 {
    let n = name_of(path);
    let has = |w: &str| n.contains(w);
    match role {
        Role::Title => match n.as_str() {
            "title" | "headline" => 4,
            "name" => 3,
            "heading" | "subject" | "label" | "caption" | "displaytitle" | "displayname"
            | "jobtitle" | "question" => 2,
            _ if has("title") && !has("subtitle") && !has("seo") && !has("meta") => 2,
            _ => 0,
        },
        Role::Url => {
            if IMAGE_WORDS.iter().any(|w| has(w)) || has("api") || has("edit") || has("share") {
                0
            } else {
                match n.as_str() {
                    "url" | "link" | "href" | "permalink" | "canonicalurl" | "canonical"
                    | "weburl" | "htmlurl" | "absoluteurl" | "fullurl" | "articleurl"
                    | "posturl" => 4,
                    "uri" | "path" | "pathname" | "slug" | "item" | "as" => 2,
                    "id" => 1,
                    _ if has("url") || has("link") || has("href") => 3,
                    _ => 0,
                }
            }
        }
        Role::Date => {
            if has("published") || has("pubdate") || n == "date" || n == "dateposted" {
                4
            } else if has("posted") || has("created") || has("released") || has("issued") {
                3
            } else if has("updated") || has("modified") || has("expir") || has("valid") {
                1
            } else if has("date") || has("time") || path_ends_at(path) {
                2
            } else {
                0
            }
        }
        Role::Summary => match n.as_str() {
            "description" | "summary" | "excerpt" | "abstract" | "teaser" | "subtitle"
            | "subheading" | "snippet" | "lead" | "intro" | "dek" | "standfirst" | "blurb"
            | "preview" | "shortdescription" | "metadescription" => 3,
            "body" | "content" | "text" | "articlebody" | "html" | "contenthtml" | "bodytext" => 1,
            _ if has("description") || has("summary") || has("excerpt") => 2,
            _ => 0,
        },
        Role::Image => {
            const RECORD_IMAGE_WORDS: &[&str] = &[
                "image", "img", "thumb", "photo", "picture", "cover", "poster", "banner", "hero",
                "featured", "visual",
            ];
            if RECORD_IMAGE_WORDS.iter().any(|w| has(w)) {
                3
            } else {
                0
            }
        }
        Role::Author => match n.as_str() {
            "author" | "authors" | "byline" | "creator" | "writer" | "by" | "postedby"
            | "authorname" | "contributor" => 3,
            "user" | "username" | "owner" | "poster" => 1,
            _ if has("author") => 2,
            _ => 0,
        },
        Role::Categories => match n.as_str() {
            "tags" | "categories" | "keywords" | "topics" | "labels" | "genres" | "subjects"
            | "articlesection" => 3,
            "tag" | "category" | "section" | "topic" | "genre" | "label" => 2,
            _ => 0,
        },
        Role::Id => match n.as_str() {
            "id" | "uuid" | "guid" | "identifier" | "key" => 3,
            "slug" => 2,
            _ => 0,
        },
    }
}

/// `createdAt`, `published_at`, `posted_on`: time-stamp suffixes.
fn path_ends_at(path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap_or(path);
    last.ends_with("At") || last.ends_with("_at") || last.ends_with("_on") || last.ends_with("On")
}

/// True for a link as written: absolute http(s), protocol-relative or a
/// root-relative path, without spaces, and not a media file.
fn url_like(s: &str) -> bool {
    let s = s.trim();
    if s.is_empty() || s.len() > 2048 || s.contains(char::is_whitespace) {
        return false;
    }
    let lower = s.to_ascii_lowercase();
    let shaped = lower.starts_with("http://")
        || lower.starts_with("https://")
        || (lower.starts_with('/') && !lower.starts_with("/*"))
        || lower.starts_with("./");
    let path = lower.split(['?', '#']).next().unwrap_or("");
    const MEDIA: &[&str] = &[
        ".jpg", ".jpeg", ".png", ".gif", ".webp", ".svg", ".avif", ".ico", ".css", ".js", ".mp4",
        ".mp3", ".webm", ".woff", ".woff2", ".json",
    ];
    shaped && !MEDIA.iter().any(|m| path.ends_with(m))
}

/// A title-like string: short text with a letter, not a link or a date.
fn title_like(s: &str, ctx: &DateContext) -> bool {
    let t = s.trim();
    !t.is_empty()
        && t.chars().count() <= 400
        && t.chars().any(char::is_alphabetic)
        && !url_like(t)
        && !t.starts_with("http")
        && parse_date(t, ctx).is_none()
}

/// A date from a string or an epoch number (seconds or milliseconds).
fn date_of(v: &Value, ctx: &DateContext) -> Option<DateTime<FixedOffset>> {
    match v {
        Value::String(s) => parse_date(s, ctx),
        Value::Number(n) => {
            let n = n.as_f64()?;
            let secs = if (1e11..1e13).contains(&n) {
                n / 1000.0
            } else if (1e8..1e10).contains(&n) {
                n
            } else {
                return None;
            };
            let dt = chrono::Utc.timestamp_opt(secs as i64, 0).single()?;
            Some(dt.with_timezone(&ctx.offset))
        }
        Value::Object(m) => {
            // `{ "date": "…" }`, `{ "$date": … }`, `{ "iso": … }`
            ["date", "$date", "iso", "value"]
                .iter()
                .find_map(|k| m.get(*k))
                .and_then(|v| date_of(v, ctx))
        }
        _ => None,
    }
}

/// A string, or the name-like field of an object, or the first of an array.
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Object(m) => [
            "name",
            "title",
            "displayName",
            "display_name",
            "fullName",
            "username",
            "label",
            "value",
            "text",
        ]
        .iter()
        .find_map(|k| m.get(*k).and_then(Value::as_str))
        .map(str::to_string),
        Value::Array(a) => a.first().and_then(text_of),
        _ => None,
    }
}

/// An image: a URL string, or an object with one, or the first of an array.
fn image_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if url_like(s) || s.starts_with("//") => Some(s.trim().to_string()),
        Value::String(s)
            if !s.contains(char::is_whitespace) && s.contains('.') && !s.starts_with("data:") =>
        {
            Some(s.trim().to_string())
        }
        Value::Object(m) => [
            "url",
            "src",
            "href",
            "contentUrl",
            "secure_url",
            "original",
            "large",
            "medium",
            "small",
            "data",
        ]
        .iter()
        .find_map(|k| m.get(*k).and_then(image_of)),
        Value::Array(a) => a.iter().take(4).find_map(image_of),
        _ => None,
    }
}

/// Names from a string, an object, or an array of either.
fn names_of(v: &Value, split_commas: bool) -> Vec<String> {
    let mut out: Vec<String> = match v {
        Value::String(s) if split_commas => s.split(',').map(str::to_string).collect(),
        Value::Array(a) => a.iter().take(20).filter_map(text_of).collect(),
        other => text_of(other).into_iter().collect(),
    };
    for s in &mut out {
        *s = collapse_whitespace(&html_escape::decode_html_entities(s));
    }
    out.retain(|s| !s.is_empty() && s.chars().count() <= 100);
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(s.clone()));
    out
}

/// Does `v` fit `role`?
fn fits(role: Role, v: &Value, ctx: &DateContext) -> bool {
    match role {
        Role::Title => v.as_str().is_some_and(|s| title_like(s, ctx)),
        Role::Url => v.as_str().is_some_and(url_like),
        Role::Date => date_of(v, ctx).is_some(),
        Role::Summary => v
            .as_str()
            .is_some_and(|s| !s.trim().is_empty() && !url_like(s)),
        Role::Image => image_of(v).is_some(),
        Role::Author => text_of(v).is_some_and(|s| !s.trim().is_empty() && !url_like(&s)),
        Role::Categories => !names_of(v, true).is_empty(),
        Role::Id => matches!(v, Value::String(s) if !s.trim().is_empty()) || v.is_number(),
    }
}

/// Text length used for the headline factor and coverage.
fn text_len(v: &Value) -> usize {
    v.as_str().map_or(0, |s| s.trim().chars().count())
}

/// The field path that plays `role` best in `members`, with the share of
/// members it has a fitting value in. `taken` are paths already used.
fn choose(
    role: Role,
    members: &[&Map<String, Value>],
    fields: &[Vec<Field<'_>>],
    taken: &[&str],
    ctx: &DateContext,
) -> Option<(String, f64)> {
    // path -> (fitting members, distinct fitting values, summed length)
    let mut stats: HashMap<&str, (usize, std::collections::HashSet<String>, usize)> =
        HashMap::default();
    for member_fields in fields {
        for (path, v) in member_fields {
            if taken.contains(&path.as_str()) || !fits(role, v, ctx) {
                continue;
            }
            let e = stats.entry(path.as_str()).or_default();
            e.0 += 1;
            if e.1.len() < 64 {
                e.1.insert(v.to_string());
            }
            e.2 += text_len(v);
        }
    }
    let n = members.len().clamp(1, PLAN_SAMPLE) as f64;
    let needs_name = !matches!(role, Role::Title | Role::Url);
    let best = stats
        .into_iter()
        .filter_map(|(path, (hits, distinct, len))| {
            let name = name_score(role, path);
            if name == 0 && needs_name {
                return None;
            }
            let share = hits as f64 / n;
            let distinct_share = distinct.len() as f64 / hits.clamp(1, 64) as f64;
            let mut score = share * (1.0 + f64::from(name));
            // A field one level down is a little less likely the record's own.
            if path.contains('.') {
                score *= 0.9;
            }
            match role {
                // Titles and links differ record to record.
                Role::Title | Role::Url | Role::Id => score *= distinct_share,
                _ => {}
            }
            if role == Role::Title && name == 0 {
                // An unnamed title must read like one: a few words.
                let mean = len as f64 / hits.max(1) as f64;
                if mean < 10.0 {
                    return None;
                }
            }
            Some((score, share, path))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.2.cmp(a.2)))?;
    Some((best.2.to_string(), best.1))
}

/// Mean Jaccard similarity of the members' key sets with the keys most of
/// them have.
fn likeness(members: &[&Map<String, Value>]) -> f64 {
    let sample = &members[..members.len().min(PLAN_SAMPLE)];
    let mut freq: HashMap<&str, usize> = HashMap::default();
    for m in sample {
        for k in m.keys().take(128) {
            *freq.entry(k.as_str()).or_default() += 1;
        }
    }
    let core: Vec<&str> = freq
        .iter()
        .filter(|(_, c)| **c * 2 >= sample.len())
        .map(|(k, _)| *k)
        .collect();
    if core.is_empty() {
        return 0.0;
    }
    let sum: f64 = sample
        .iter()
        .map(|m| {
            let inter = core.iter().filter(|k| m.contains_key(**k)).count();
            let union = core.len()
                + m.keys()
                    .take(128)
                    .filter(|k| !core.contains(&k.as_str()))
                    .count();
            inter as f64 / union.max(1) as f64
        })
        .sum();
    sum / sample.len() as f64
}

/// The fields chosen for a group of members.
fn plan(members: &[&Map<String, Value>], ctx: &DateContext) -> (FieldPlan, f64, f64) {
    let fields: Vec<Vec<Field<'_>>> = members
        .iter()
        .take(PLAN_SAMPLE)
        .map(|m| fields_of(m))
        .collect();
    let mut p = FieldPlan::default();
    let url = choose(Role::Url, members, &fields, &[], ctx);
    let url_path = url.as_ref().map(|(p, _)| p.clone());
    let mut taken: Vec<&str> = url_path.iter().map(String::as_str).collect();
    let title = choose(Role::Title, members, &fields, &taken, ctx);
    let title_path = title.as_ref().map(|(p, _)| p.clone());
    taken.extend(title_path.iter().map(String::as_str));
    let pick = |role, taken: &[&str]| choose(role, members, &fields, taken, ctx).map(|(p, _)| p);
    p.date = pick(Role::Date, &taken);
    p.summary = pick(Role::Summary, &taken);
    p.image = pick(Role::Image, &taken);
    p.author = pick(Role::Author, &taken);
    p.categories = pick(Role::Categories, &taken);
    p.id = pick(Role::Id, &[]);
    let (title_share, url_share) = (
        title.as_ref().map_or(0.0, |t| t.1),
        url.as_ref().map_or(0.0, |u| u.1),
    );
    p.title = title_path;
    p.url = url_path;
    (p, title_share, url_share)
}

/// HTML in a data string (descriptions often carry markup) as plain text.
fn plain_text(s: &str) -> String {
    let decoded = if s.contains('<') {
        let mut out = String::with_capacity(s.len());
        let mut in_tag = false;
        for c in s.chars() {
            match c {
                '<' => in_tag = true,
                '>' if in_tag => {
                    in_tag = false;
                    out.push(' ');
                }
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        out
    } else {
        s.to_string()
    };
    collapse_whitespace(&html_escape::decode_html_entities(&decoded))
}

/// `s` cut at a word boundary to [`MAX_SUMMARY_CHARS`].
fn clip_summary(s: String) -> String {
    if s.chars().count() <= MAX_SUMMARY_CHARS {
        return s;
    }
    let cut: String = s.chars().take(MAX_SUMMARY_CHARS).collect();
    let cut = match cut.rfind(' ') {
        Some(p) if p > MAX_SUMMARY_CHARS / 2 => cut[..p].to_string(),
        _ => cut,
    };
    format!("{cut}…")
}

/// One member read along the plan.
fn record(m: &Map<String, Value>, p: &FieldPlan, ctx: &DateContext) -> EmbeddedRecord {
    let get = |path: &Option<String>| path.as_deref().and_then(|path| at(m, path));
    let title = get(&p.title)
        .and_then(Value::as_str)
        .map(plain_text)
        .unwrap_or_default();
    let summary = get(&p.summary)
        .and_then(Value::as_str)
        .map(|s| clip_summary(plain_text(s)))
        .filter(|s| *s != title)
        .unwrap_or_default();
    let categories_split = p
        .categories
        .as_deref()
        .is_some_and(|c| name_of(c) == "keywords");
    EmbeddedRecord {
        url: get(&p.url)
            .and_then(Value::as_str)
            .filter(|s| url_like(s))
            .map(|s| s.trim().to_string()),
        date: get(&p.date).and_then(|v| date_of(v, ctx)),
        image: get(&p.image).and_then(image_of),
        author: get(&p.author).and_then(|v| {
            let names = names_of(v, false);
            (!names.is_empty()).then(|| names.join(", "))
        }),
        categories: get(&p.categories)
            .map(|v| names_of(v, categories_split))
            .unwrap_or_default(),
        id: get(&p.id)
            .and_then(text_of)
            .filter(|s| !s.trim().is_empty()),
        title,
        summary,
    }
}

fn median(mut v: Vec<usize>) -> usize {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    v[v.len() / 2]
}

/// Judge one candidate: read its records along the chosen fields, apply
/// the rules, score it.
pub fn judge(
    source: &str,
    path: String,
    members: &[&Map<String, Value>],
    facts: &PageFacts,
    ctx: &DateContext,
) -> EmbeddedGroup {
    let (fields, title_share, url_share) = plan(members, ctx);
    let records: Vec<EmbeddedRecord> = members
        .iter()
        .take(MAX_RECORDS)
        .map(|m| record(m, &fields, ctx))
        .collect();
    let k = records.len();
    let text: usize = records
        .iter()
        .map(|r| r.title.len() + r.summary.len())
        .sum();
    let coverage = (text as f64 / facts.visible_text.max(text).max(1) as f64).min(1.0);
    let mut g = EmbeddedGroup {
        source: source.to_string(),
        path,
        records,
        fields,
        coverage,
        score: 0.0,
        dropped: None,
    };
    g.dropped = if k < facts.min_instances.max(2) {
        Some(EmbeddedDrop::TooFew)
    } else if likeness(members) < MIN_LIKENESS {
        Some(EmbeddedDrop::Unlike)
    } else if title_share < 0.5 {
        Some(EmbeddedDrop::NoTitle)
    } else if url_share < 0.5 {
        Some(EmbeddedDrop::NoLink)
    } else if coverage < facts.min_coverage {
        Some(EmbeddedDrop::Coverage)
    } else {
        None
    };
    if g.dropped.is_none() {
        let with_link = g.records.iter().filter(|r| r.url.is_some()).count() as f64 / k as f64;
        let dated = g.records.iter().filter(|r| r.date.is_some()).count() as f64 / k as f64;
        let title_len = median(g.records.iter().map(|r| r.title.chars().count()).collect());
        let headline = (title_len as f64 / 30.0).clamp(0.1, 1.0);
        g.score =
            coverage * headline * with_link * with_link * (0.8 + 0.2 * dated) * EMBEDDED_WEIGHT;
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ctx() -> DateContext {
        DateContext::utc_at(2024, 6, 1, 12)
    }

    fn facts() -> PageFacts {
        PageFacts {
            visible_text: 0,
            min_instances: 3,
            min_coverage: 0.02,
        }
    }

    #[test]
    fn roles_are_chosen_by_name_and_value_for_the_whole_group() {
        let data = json!({"page": {"posts": [
            {"id": 1, "slug": "a", "headline": "Rust 2024 edition is out", "permalink": "/blog/a",
             "publishedAt": "2024-05-01T10:00:00Z", "updatedAt": "2024-05-20T10:00:00Z",
             "excerpt": "<p>The <b>new</b> edition &amp; more</p>", "cover": {"url": "/img/a.png"},
             "author": {"name": "Ana"}, "tags": [{"name": "rust"}, {"name": "release"}]},
            {"id": 2, "slug": "b", "headline": "Async closures stabilised", "permalink": "/blog/b",
             "publishedAt": 1714730400, "updatedAt": null, "excerpt": "Finally.",
             "cover": null, "author": {"name": "Bo"}, "tags": []},
            {"id": 3, "slug": "c", "headline": "A faster compiler backend", "permalink": "/blog/c",
             "publishedAt": "2024-05-03", "excerpt": "Cranelift.", "author": "Cy", "tags": ["perf"]}
        ]}});
        let mut walked = 0;
        let cands = candidates(&data, &mut walked);
        let paths: Vec<&str> = cands.iter().map(|c| c.0.as_str()).collect();
        // The first post's two tags are a candidate too, dropped by `judge`.
        assert_eq!(paths, ["$.page.posts[*]", "$.page.posts[0].tags[*]"]);
        let tags = judge("test", cands[1].0.clone(), &cands[1].1, &facts(), &ctx());
        assert!(tags.dropped.is_some());
        let g = judge("test", cands[0].0.clone(), &cands[0].1, &facts(), &ctx());
        assert_eq!(g.dropped, None);
        assert_eq!(g.fields.title.as_deref(), Some("headline"));
        assert_eq!(g.fields.url.as_deref(), Some("permalink"));
        assert_eq!(g.fields.date.as_deref(), Some("publishedAt"));
        assert_eq!(g.fields.summary.as_deref(), Some("excerpt"));
        assert_eq!(g.fields.image.as_deref(), Some("cover"));
        let r = &g.records;
        assert_eq!(r[0].summary, "The new edition & more");
        assert_eq!(r[0].image.as_deref(), Some("/img/a.png"));
        assert_eq!(r[0].author.as_deref(), Some("Ana"));
        assert_eq!(r[0].categories, ["rust", "release"]);
        assert_eq!(r[1].date.unwrap().to_rfc3339(), "2024-05-03T10:00:00+00:00");
        assert_eq!(r[2].author.as_deref(), Some("Cy"));
        assert!(g.coverage > 0.99 && g.score > 0.5, "{g:?}");
    }

    #[test]
    fn navigation_and_mixed_arrays_are_dropped() {
        let data = json!({
            "menu": [{"label": "Home", "href": "/"}, {"label": "About", "href": "/about"},
                     {"label": "Blog", "href": "/blog"}],
            "blocks": [{"type": "hero", "image": "/a.png"}, {"kind": "text", "body": "x"},
                       {"widget": 3, "items": []}],
            "pair": [{"title": "Only two", "url": "/a"}, {"title": "Of them", "url": "/b"}]
        });
        let mut walked = 0;
        let groups: Vec<EmbeddedGroup> = candidates(&data, &mut walked)
            .into_iter()
            .map(|(p, m)| judge("t", p, &m, &facts(), &ctx()))
            .collect();
        let by_path = |p: &str| groups.iter().find(|g| g.path == p).unwrap();
        // Menu entries are records too (the ranking's headline factor makes
        // them lose to real lists).
        assert!(by_path("$.menu[*]").score < 0.2);
        assert_eq!(by_path("$.blocks[*]").dropped, Some(EmbeddedDrop::Unlike));
        assert_eq!(by_path("$.pair[*]").dropped, Some(EmbeddedDrop::TooFew));
    }

    #[test]
    fn apollo_style_maps_are_candidates() {
        let data = json!({
            "Post:1": {"__typename": "Post", "title": "First of the posts", "url": "https://x.test/1"},
            "Post:2": {"__typename": "Post", "title": "Second of the posts", "url": "https://x.test/2"},
            "Post:3": {"__typename": "Post", "title": "Third of the posts", "url": "https://x.test/3"},
            "User:9": {"__typename": "User", "name": "Ann"},
            "ROOT_QUERY": {"posts": [{"__ref": "Post:1"}]}
        });
        let mut walked = 0;
        let cands = candidates(&data, &mut walked);
        let posts = cands.iter().find(|c| c.0 == "$[\"Post:*\"]").unwrap();
        let g = judge(
            "window.__APOLLO_STATE__",
            posts.0.clone(),
            &posts.1,
            &facts(),
            &ctx(),
        );
        assert_eq!(g.dropped, None);
        assert_eq!(g.records.len(), 3);
    }
}
