//! Page metadata for `json` output and feeds: title, byline, publication
//! date and lead image, from `<meta>` tags (Open Graph, article:*, Dublin
//! Core, name=author), JSON-LD (`Article`-like objects, `@graph` included),
//! `<time datetime>`, `<title>` and the first `<h1>`.
//!
//! Invariants: reads only the token list (no tree); every value is trimmed
//! and non-empty or absent; URLs are absolute (resolved against the base
//! when relative, dropped when that is impossible). Precedence per field:
//! JSON-LD, then meta tags, then the document's own elements.

use super::Extraction;
use super::output::token_text;
use super::tokenize::{TokenKind, Tokens, attr, tag};

/// Fill the metadata fields of `ex`.
pub fn fill(src: &str, toks: &Tokens, base: Option<&url::Url>, ex: &mut Extraction) {
    let mut m = Found::default();
    for r in &toks.json_ld {
        if let Some(body) = src.get(r.start as usize..r.end as usize)
            && let Ok(v) = serde_json::from_str::<serde_json::Value>(body.trim())
        {
            json_ld(&v, &mut m, 0);
        }
    }
    let mut in_title = false;
    let mut h1_open = false;
    let mut h1_text = String::new();
    for (i, t) in toks.tokens.iter().enumerate() {
        match t.kind {
            TokenKind::Start => match t.tag {
                tag::META => {
                    let key = attr(src, t, "property")
                        .or_else(|| attr(src, t, "name"))
                        .or_else(|| attr(src, t, "itemprop"));
                    let (Some(key), Some(content)) = (key, attr(src, t, "content")) else {
                        continue;
                    };
                    let key = key.to_ascii_lowercase();
                    if key == "article:tag" {
                        m.meta_tags.push(content.to_string());
                        continue;
                    }
                    if key == "keywords" || key == "news_keywords" {
                        m.meta_keywords
                            .extend(content.split(',').map(str::to_string));
                        continue;
                    }
                    let slot = match key.as_str() {
                        "og:title" | "twitter:title" => &mut m.meta_title,
                        "author" | "article:author" | "dc.creator" | "byl" | "sailthru.author"
                        | "parsely-author" => &mut m.meta_byline,
                        "article:published_time"
                        | "datepublished"
                        | "pubdate"
                        | "dc.date"
                        | "dc.date.issued"
                        | "date"
                        | "publish-date"
                        | "sailthru.date"
                        | "parsely-pub-date"
                        | "og:published_time" => &mut m.meta_date,
                        "og:image" | "og:image:url" | "twitter:image" | "twitter:image:src" => {
                            &mut m.meta_image
                        }
                        _ => continue,
                    };
                    set_once(slot, &content);
                }
                tag::TIME => {
                    if let Some(d) = attr(src, t, "datetime") {
                        set_once(&mut m.time_date, &d);
                    }
                }
                tag::TITLE => in_title = true,
                tag::H1 => h1_open = m.h1.is_none(),
                _ => {}
            },
            TokenKind::End => match t.tag {
                tag::TITLE => in_title = false,
                tag::H1 => {
                    if h1_open {
                        set_once(&mut m.h1, &h1_text);
                    }
                    h1_open = false;
                }
                _ => {}
            },
            TokenKind::Text => {
                if in_title && m.doc_title.is_none() {
                    set_once(&mut m.doc_title, &token_text(src, toks, i as u32));
                } else if h1_open {
                    if t.space_before {
                        h1_text.push(' ');
                    }
                    h1_text.push_str(&token_text(src, toks, i as u32));
                }
            }
        }
    }
    ex.title = m.ld_title.or(m.meta_title).or(m.h1).or(m.doc_title);
    ex.byline = m.ld_byline.or(m.meta_byline);
    // Tags name topics; keywords are often SEO lists: the first source
    // that has any wins, at most MAX_TAGS.
    let tags = [m.ld_tags, m.meta_tags, m.meta_keywords]
        .into_iter()
        .find(|t| t.iter().any(|x| !x.trim().is_empty()))
        .unwrap_or_default();
    for t in tags {
        let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if !t.is_empty() && !ex.tags.contains(&t) && ex.tags.len() < MAX_TAGS {
            ex.tags.push(t);
        }
    }
    ex.published = [m.ld_date, m.meta_date, m.time_date]
        .into_iter()
        .flatten()
        .find_map(|d| parse_date(&d));
    ex.lead_image = [m.ld_image, m.meta_image]
        .into_iter()
        .flatten()
        .find_map(|u| absolute(&u, base));
}

/// Tags kept from one article page at most.
pub const MAX_TAGS: usize = 16;

#[derive(Default)]
struct Found {
    ld_tags: Vec<String>,
    meta_tags: Vec<String>,
    meta_keywords: Vec<String>,
    ld_title: Option<String>,
    ld_byline: Option<String>,
    ld_date: Option<String>,
    ld_image: Option<String>,
    meta_title: Option<String>,
    meta_byline: Option<String>,
    meta_date: Option<String>,
    meta_image: Option<String>,
    time_date: Option<String>,
    doc_title: Option<String>,
    h1: Option<String>,
}

fn set_once(slot: &mut Option<String>, v: &str) {
    let v = v.split_whitespace().collect::<Vec<_>>().join(" ");
    if slot.is_none() && !v.is_empty() {
        *slot = Some(v);
    }
}

/// Walk JSON-LD for the first article-like object (depth-capped).
fn json_ld(v: &serde_json::Value, m: &mut Found, depth: usize) {
    use serde_json::Value;
    if depth > 8 {
        return;
    }
    match v {
        Value::Array(items) => items.iter().for_each(|x| json_ld(x, m, depth + 1)),
        Value::Object(o) => {
            if let Some(g) = o.get("@graph") {
                json_ld(g, m, depth + 1);
            }
            let ty = match o.get("@type") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Array(a)) => a
                    .iter()
                    .filter_map(|x| x.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
                _ => String::new(),
            };
            let article = ["Article", "NewsArticle", "BlogPosting", "Report", "WebPage"]
                .iter()
                .any(|t| ty.contains(t));
            if !article {
                return;
            }
            if let Some(Value::String(h)) = o.get("headline").or_else(|| o.get("name")) {
                set_once(&mut m.ld_title, h);
            }
            if let Some(d) = o.get("datePublished").and_then(|d| d.as_str()) {
                set_once(&mut m.ld_date, d);
            }
            if let Some(a) = o.get("author")
                && let Some(name) = person_names(a)
            {
                set_once(&mut m.ld_byline, &name);
            }
            if m.ld_tags.is_empty() {
                match o.get("keywords") {
                    Some(Value::String(k)) => m.ld_tags.extend(k.split(',').map(str::to_string)),
                    Some(Value::Array(a)) => m
                        .ld_tags
                        .extend(a.iter().filter_map(|x| x.as_str()).map(str::to_string)),
                    _ => {}
                }
            }
            if let Some(img) = o.get("image")
                && let Some(u) = image_url(img)
            {
                set_once(&mut m.ld_image, &u);
            }
        }
        _ => {}
    }
}

fn person_names(v: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("name").and_then(|n| n.as_str()).map(str::to_string),
        Value::Array(a) => {
            let names: Vec<String> = a.iter().filter_map(person_names).collect();
            (!names.is_empty()).then(|| names.join(", "))
        }
        _ => None,
    }
}

fn image_url(v: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("url").and_then(|n| n.as_str()).map(str::to_string),
        Value::Array(a) => a.iter().find_map(image_url),
        _ => None,
    }
}

fn absolute(u: &str, base: Option<&url::Url>) -> Option<url::Url> {
    match url::Url::parse(u) {
        Ok(x) if matches!(x.scheme(), "http" | "https") => Some(x),
        Ok(_) => None,
        Err(_) => base.and_then(|b| b.join(u).ok()),
    }
}

/// RFC 3339 / ISO 8601 with or without seconds or offset, or a bare date
/// (taken as midnight UTC).
pub fn parse_date(s: &str) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};
    let s = s.trim();
    if let Ok(d) = DateTime::parse_from_rfc3339(s) {
        return Some(d);
    }
    if let Ok(d) = DateTime::parse_from_rfc2822(s) {
        return Some(d);
    }
    for f in [
        "%Y-%m-%dT%H:%M:%S%.f%z",
        "%Y-%m-%dT%H:%M%z",
        "%Y-%m-%d %H:%M:%S%z",
    ] {
        if let Ok(d) = DateTime::parse_from_str(s, f) {
            return Some(d);
        }
    }
    let utc = chrono::FixedOffset::east_opt(0)?;
    for f in [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(s, f) {
            return Some(Utc.from_utc_datetime(&d).with_timezone(&utc));
        }
    }
    let date_part = s.get(..10).unwrap_or(s);
    NaiveDate::parse_from_str(date_part, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|d| Utc.from_utc_datetime(&d).with_timezone(&utc))
}

#[cfg(test)]
mod tests {
    use super::super::tokenize::tokenize;
    use super::*;

    #[test]
    fn tags_come_from_article_tag_before_keywords() {
        let src = r#"<html><head>
            <meta name="keywords" content="news, city, news">
            <meta property="article:tag" content="Harbour">
            <meta property="article:tag" content=" Ferries  ">
            <meta property="article:tag" content="Harbour">
            </head><body><p>x</p></body></html>"#;
        let mut ex = Extraction::default();
        fill(src, &tokenize(src), None, &mut ex);
        assert_eq!(ex.tags, ["Harbour", "Ferries"]);
        let src = r#"<meta name="keywords" content="news, city, news">"#;
        let mut ex = Extraction::default();
        fill(src, &tokenize(src), None, &mut ex);
        assert_eq!(ex.tags, ["news", "city"]);
        let src = r#"<script type="application/ld+json">{"@type":"BlogPosting","keywords":["rust","async"]}</script>
            <meta property="article:tag" content="Other">"#;
        let mut ex = Extraction::default();
        fill(src, &tokenize(src), None, &mut ex);
        assert_eq!(ex.tags, ["rust", "async"]);
    }

    #[test]
    fn json_ld_wins_over_meta_and_urls_are_absolute() {
        let src = r#"<html><head><title>Site | Page</title>
            <meta property="og:title" content="OG title">
            <meta name="author" content="Meta Author">
            <meta property="og:image" content="/img/lead.jpg">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
              {"@type":"NewsArticle","headline":"LD headline","datePublished":"2024-03-05T10:00:00+01:00",
               "author":[{"@type":"Person","name":"Ann Lee"},{"@type":"Person","name":"Bo Chan"}]}]}</script>
            </head><body><h1>H1 title</h1><time datetime="2020-01-01">x</time></body></html>"#;
        let toks = tokenize(src);
        let base = url::Url::parse("https://news.example/a/b.html").unwrap();
        let mut ex = Extraction::default();
        fill(src, &toks, Some(&base), &mut ex);
        assert_eq!(ex.title.as_deref(), Some("LD headline"));
        assert_eq!(ex.byline.as_deref(), Some("Ann Lee, Bo Chan"));
        assert_eq!(
            ex.published.unwrap().to_rfc3339(),
            "2024-03-05T10:00:00+01:00"
        );
        assert_eq!(
            ex.lead_image.unwrap().as_str(),
            "https://news.example/img/lead.jpg"
        );
    }

    #[test]
    fn falls_back_to_time_and_h1() {
        let src = r#"<title>Doc</title><body><h1>Real <b>title</b></h1><time datetime="2021-06-07">June</time>"#;
        let toks = tokenize(src);
        let mut ex = Extraction::default();
        fill(src, &toks, None, &mut ex);
        assert_eq!(ex.title.as_deref(), Some("Real title"));
        assert_eq!(
            ex.published.unwrap().to_rfc3339(),
            "2021-06-07T00:00:00+00:00"
        );
        assert!(ex.byline.is_none() && ex.lead_image.is_none());
    }
}
