//! Every published format and the index page against hostile input: known
//! XSS payloads (OWASP cheat-sheet style) in item titles, summaries and
//! bodies and in the index page's fields, and characters XML forbids. The
//! outputs are parsed back (rss, atom_syndication, serde_json, quick-xml,
//! and html5ever via kuchikikiki for every HTML part, as a browser would)
//! and the parsed trees are checked; nothing is decided by grepping.

use chrono::{TimeZone, Utc};
use feedmine::extract::items::Item;
use feedmine::publish::feed::{self, ChannelInfo, Format, OpmlEntry};
use feedmine::publish::templates::{IndexContext, IndexTemplate, ItemTemplate};
use feedmine::serve::status::{FeedStatus, Health, LastRun, RunOutcome};
use kuchikikiki::NodeRef;
use kuchikikiki::traits::TendrilSink;
use url::Url;

/// XSS payloads: script, handlers, URL schemes (plain, mixed case,
/// entity- and whitespace-obfuscated), frames, CSS, mutation XSS, and
/// document-level elements that hijack a page.
const PAYLOADS: &[&str] = &[
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "<svg><a xlink:href=\"javascript:alert(1)\"><text y=\"20\">x</text></a></svg>",
    "<a href=\"javascript:alert(1)\">click</a>",
    "<a href=\"JaVaScRiPt:alert(1)\">click</a>",
    "<a href=\"jav&#x09;ascript:alert(1)\">click</a>",
    "<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)\">click</a>",
    "<a href=\"&#x6A;avascript&colon;alert(1)\">click</a>",
    "<a href=\" \u{1}javascript:alert(1)\">click</a>",
    "<a href=\"vbscript:msgbox(1)\">click</a>",
    "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">click</a>",
    "<img src=\"data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+\">",
    "<img srcset=\"javascript:alert(1) 1x, x.png 2x\">",
    "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
    "<iframe src=\"https://evil.example/\"></iframe>",
    "<object data=\"javascript:alert(1)\"></object><embed src=\"javascript:alert(1)\">",
    "<style>@import 'https://evil.example/x.css';</style>",
    "<div style=\"background:url(//evil.example/x)\">styled</div>",
    "<p style=\"position:fixed;top:0;left:0;width:100%;height:100%\">overlay</p>",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
    "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\">",
    "<template><script>alert(1)</script></template>",
    "<base href=\"https://evil.example/\">",
    "<meta http-equiv=\"refresh\" content=\"0;url=https://evil.example/\">",
    "<link rel=\"stylesheet\" href=\"https://evil.example/x.css\">",
    "<form action=\"https://evil.example/steal\"><input name=\"pw\" type=\"password\"><button formaction=\"javascript:alert(1)\">go</button></form>",
    "<details open ontoggle=alert(1)>d</details>",
    "<body onload=alert(1)>",
    "\"><script>alert(1)</script><p x=\"",
    "<scr<script>ipt>alert(1)</script>",
    "<a href=\"https://ok.example/\" onmouseover=\"alert(1)\" target=\"_top\" id=\"x\" class=\"y\">ok</a>",
];

/// Elements that never appear in a sanitized body.
const BANNED_ELEMENTS: &[&str] = &[
    "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "form", "input",
    "button", "textarea", "select", "base", "meta", "link", "svg", "math", "noscript", "template",
    "mglyph", "mtext", "animate", "set",
];

/// Attributes a sanitized body may carry.
const ALLOWED_ATTRIBUTES: &[&str] = &[
    "href", "hreflang", "rel", "src", "srcset", "sizes", "alt", "width", "height", "media", "type",
    "colspan", "rowspan", "headers", "scope", "span", "start", "reversed", "datetime", "dir",
    "lang", "title",
];

fn channel() -> ChannelInfo {
    ChannelInfo {
        title: "City notices".to_owned(),
        link: Url::parse("https://city.example.gov/notices/").unwrap(),
        description: "Notices of the city".to_owned(),
        self_url: Some(Url::parse("https://feeds.example.net/city.xml").unwrap()),
        last_build: Utc.with_ymd_and_hms(2026, 3, 10, 9, 0, 0).unwrap(),
        language: Some("en".to_owned()),
        stylesheet: Some("/feed.xsl".to_owned()),
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    Title,
    Summary,
    Body,
}

const PLACES: [Place; 3] = [Place::Title, Place::Summary, Place::Body];

/// One item per (payload, place); the guid says which.
fn hostile_items() -> Vec<Item> {
    let mut items = Vec::new();
    for (p, payload) in PAYLOADS.iter().enumerate() {
        for place in PLACES {
            let link = Url::parse(&format!(
                "https://city.example.gov/notices/{p}-{place:?}.html"
            ))
            .unwrap();
            let mut item = Item {
                title: format!("Notice {p}"),
                guid: link.to_string(),
                link: Some(link),
                date: None,
                date_relative: false,
                summary: "Plain summary".to_owned(),
                image: None,
                author: None,
                categories: Vec::new(),
                body_html: Some("<p>Plain body</p>".to_owned()),
            };
            match place {
                Place::Title => item.title = (*payload).to_owned(),
                Place::Summary => item.summary = (*payload).to_owned(),
                Place::Body => item.body_html = Some((*payload).to_owned()),
            }
            items.push(item);
        }
    }
    items
}

/// `s` without the characters XML forbids (what every format does to text).
fn xml_text(s: &str) -> String {
    s.chars().filter(|&c| is_xml_char(c)).collect()
}

fn place_of(id: &str) -> (usize, Place) {
    let file = id.rsplit('/').next().unwrap().trim_end_matches(".html");
    let (p, place) = file.split_once('-').unwrap();
    let place = match place {
        "Title" => Place::Title,
        "Summary" => Place::Summary,
        _ => Place::Body,
    };
    (p.parse().unwrap(), place)
}

fn parse_html(html: &str) -> NodeRef {
    kuchikikiki::parse_html().one(html)
}

/// Every element of `root` (html5ever's tree: what a browser builds).
fn elements(root: &NodeRef) -> Vec<(String, Vec<(String, String)>)> {
    root.descendants()
        .filter_map(|n| {
            let el = n.as_element()?;
            let attrs = el
                .attributes
                .borrow()
                .map
                .iter()
                .map(|(k, v)| (k.local.to_string(), v.value.clone()))
                .collect();
            Some((el.name.local.to_string(), attrs))
        })
        .collect()
}

/// Panics unless `url` is an absolute URL with an allowed scheme.
fn assert_safe_url(url: &str, allowed: &[&str], ctx: &str) {
    let parsed = Url::parse(url.trim()).unwrap_or_else(|e| panic!("{ctx}: {url:?}: {e}"));
    assert!(
        allowed.contains(&parsed.scheme()),
        "{ctx}: scheme of {url:?} not allowed"
    );
}

/// The checks on sanitized body HTML, on the tree a browser would build.
fn assert_inert_body(html: &str, ctx: &str) {
    let doc = parse_html(html);
    for (name, attrs) in elements(&doc) {
        assert!(
            !BANNED_ELEMENTS.contains(&name.as_str()),
            "{ctx}: <{name}> survived in {html}"
        );
        for (attr, value) in attrs {
            assert!(
                ALLOWED_ATTRIBUTES.contains(&attr.as_str()),
                "{ctx}: attribute {attr}={value:?} on <{name}> in {html}"
            );
            match attr.as_str() {
                "href" | "src" => assert_safe_url(&value, &["http", "https", "mailto"], ctx),
                "srcset" => {
                    for candidate in value.split(',') {
                        let url = candidate.split_whitespace().next().unwrap_or("");
                        assert_safe_url(url, &["http", "https"], ctx);
                    }
                }
                "rel" => assert_eq!(value, "noopener noreferrer", "{ctx}"),
                _ => {}
            }
        }
    }
}

/// Plain text carried into an HTML context must parse to text only.
fn assert_html_is_text(html: &str, want_text: &str, ctx: &str) {
    let doc = parse_html(html);
    let tags: Vec<String> = elements(&doc)
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| !matches!(n.as_str(), "html" | "head" | "body"))
        .collect();
    assert!(tags.is_empty(), "{ctx}: elements {tags:?} in {html}");
    assert_eq!(doc.text_contents(), want_text, "{ctx}");
}

/// True for characters XML 1.0 allows.
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// A strict well-formedness check: legal characters, matching tags, one
/// root, legal references and attributes. Returns the element names seen.
fn assert_well_formed(xml: &str, ctx: &str) -> Vec<String> {
    use quick_xml::events::Event;
    if let Some(bad) = xml.chars().find(|&c| !is_xml_char(c)) {
        panic!("{ctx}: character {bad:?} not allowed in XML");
    }
    let mut reader = quick_xml::Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    reader.config_mut().check_comments = true;
    let (mut depth, mut roots) = (0usize, 0usize);
    let mut names = Vec::new();
    let decoder = reader.decoder();
    let attrs_ok = |e: &quick_xml::events::BytesStart<'_>| {
        for attr in e.attributes() {
            let attr = attr.unwrap_or_else(|err| panic!("{ctx}: attribute: {err}"));
            attr.decoded_and_normalized_value(quick_xml::XmlVersion::Explicit1_0, decoder)
                .unwrap_or_else(|err| panic!("{ctx}: attribute value: {err}"));
        }
    };
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                attrs_ok(&e);
                roots += usize::from(depth == 0);
                depth += 1;
                names.push(String::from_utf8_lossy(e.name().as_ref()).into_owned());
            }
            Ok(Event::Empty(e)) => {
                attrs_ok(&e);
                roots += usize::from(depth == 0);
                names.push(String::from_utf8_lossy(e.name().as_ref()).into_owned());
            }
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Text(t)) => {
                assert!(
                    depth > 0 || t.decode().unwrap().trim().is_empty(),
                    "{ctx}: text outside the root"
                );
            }
            Ok(Event::GeneralRef(r)) => {
                let name = r.decode().unwrap().into_owned();
                let ok = match name.strip_prefix('#') {
                    Some(num) => {
                        let code = match num.strip_prefix('x') {
                            Some(hex) => u32::from_str_radix(hex, 16),
                            None => num.parse(),
                        };
                        code.ok().and_then(char::from_u32).is_some_and(is_xml_char)
                    }
                    None => matches!(name.as_str(), "amp" | "lt" | "gt" | "quot" | "apos"),
                };
                assert!(ok, "{ctx}: reference &{name}; is not well-formed XML");
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!(
                "{ctx}: not well-formed at {}: {e}\n{xml}",
                reader.buffer_position()
            ),
        }
    }
    assert_eq!(depth, 0, "{ctx}: unclosed elements");
    assert_eq!(roots, 1, "{ctx}: one root element");
    names
}

/// Element names an RSS 2.0 document of ours may contain.
const RSS_ELEMENTS: &[&str] = &[
    "rss",
    "channel",
    "title",
    "link",
    "description",
    "language",
    "lastBuildDate",
    "generator",
    "atom:link",
    "item",
    "guid",
    "pubDate",
    "content:encoded",
    "enclosure",
];

/// Element names an Atom document of ours may contain.
const ATOM_ELEMENTS: &[&str] = &[
    "feed",
    "title",
    "id",
    "updated",
    "author",
    "name",
    "uri",
    "generator",
    "link",
    "subtitle",
    "entry",
    "published",
    "summary",
    "content",
];

#[test]
fn xss_payloads_do_not_survive_in_any_format() {
    let items = hostile_items();
    let ch = channel();
    let mut checks = 0usize;

    // RSS.
    let xml = feed::render(Format::Rss, &ch, &items).unwrap();
    for name in assert_well_formed(&xml, "rss") {
        assert!(
            RSS_ELEMENTS.contains(&name.as_str()),
            "rss element <{name}>"
        );
    }
    let rss = rss::Channel::read_from(xml.as_bytes()).unwrap();
    assert_eq!(rss.items().len(), items.len());
    for it in rss.items() {
        let (p, place) = place_of(it.guid().unwrap().value());
        let ctx = format!("rss payload {p} in {place:?}");
        match place {
            // RSS title is text: it must come back exactly as the payload.
            Place::Title => assert_eq!(it.title(), Some(xml_text(PAYLOADS[p]).as_str()), "{ctx}"),
            // description is HTML by convention: it must parse to text only.
            Place::Summary => {
                assert_html_is_text(it.description().unwrap(), &xml_text(PAYLOADS[p]), &ctx)
            }
            Place::Body => {}
        }
        assert_inert_body(it.content().unwrap_or(""), &ctx);
        checks += 1;
    }

    // Atom.
    let xml = feed::render(Format::Atom, &ch, &items).unwrap();
    for name in assert_well_formed(&xml, "atom") {
        assert!(
            ATOM_ELEMENTS.contains(&name.as_str()),
            "atom element <{name}>"
        );
    }
    let atom = atom_syndication::Feed::read_from(xml.as_bytes()).unwrap();
    assert_eq!(atom.entries.len(), items.len());
    for e in &atom.entries {
        let (p, place) = place_of(&e.id);
        let ctx = format!("atom payload {p} in {place:?}");
        assert_eq!(e.title.r#type, atom_syndication::TextType::Text, "{ctx}");
        let summary = e.summary.as_ref().unwrap();
        assert_eq!(summary.r#type, atom_syndication::TextType::Text, "{ctx}");
        match place {
            Place::Title => assert_eq!(e.title.value, xml_text(PAYLOADS[p]), "{ctx}"),
            Place::Summary => assert_eq!(summary.value, xml_text(PAYLOADS[p]), "{ctx}"),
            Place::Body => {}
        }
        if let Some(content) = &e.content {
            assert_eq!(content.content_type.as_deref(), Some("html"), "{ctx}");
            assert_inert_body(content.value.as_deref().unwrap_or(""), &ctx);
        }
        checks += 1;
    }

    // JSON Feed.
    let json = feed::render(Format::Json, &ch, &items).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let json_items = v["items"].as_array().unwrap();
    assert_eq!(json_items.len(), items.len());
    for it in json_items {
        let (p, place) = place_of(it["id"].as_str().unwrap());
        let ctx = format!("json payload {p} in {place:?}");
        match place {
            Place::Title => assert_eq!(it["title"], xml_text(PAYLOADS[p]), "{ctx}"),
            Place::Summary => assert_eq!(it["summary"], xml_text(PAYLOADS[p]), "{ctx}"),
            Place::Body => {}
        }
        if let Some(html) = it.get("content_html") {
            assert_inert_body(html.as_str().unwrap(), &ctx);
        }
        checks += 1;
    }
    assert_eq!(checks, PAYLOADS.len() * PLACES.len() * 3);
    eprintln!(
        "{} payloads x {} places x 3 formats = {checks} item checks",
        PAYLOADS.len(),
        PLACES.len()
    );
}

#[test]
fn bodies_keep_their_harmless_content() {
    // The sanitizer must not be so strict that it eats the article.
    let items = hostile_items();
    let json = feed::render(Format::Json, &channel(), &items).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let body_of = |p: usize| {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|it| place_of(it["id"].as_str().unwrap()) == (p, Place::Body))
            .and_then(|it| it["content_html"].as_str())
            .unwrap_or("")
            .to_owned()
    };
    let text_of = |p: usize| parse_html(&body_of(p)).text_contents();
    assert_eq!(text_of(18), "styled"); // <div style> keeps its text
    assert_eq!(text_of(19), "overlay");
    assert_eq!(text_of(27), "d"); // <details ontoggle>
    let ok_link = parse_html(&body_of(31));
    let links = elements(&ok_link);
    let a = links.iter().find(|(n, _)| n == "a").unwrap();
    assert!(a.1.contains(&("href".into(), "https://ok.example/".into())));
    // Relative image sources were resolved against the item's page.
    let img = elements(&parse_html(&body_of(1)))
        .into_iter()
        .find(|(n, _)| n == "img")
        .unwrap();
    assert_eq!(
        img.1,
        vec![(
            "src".to_owned(),
            "https://city.example.gov/notices/x".to_owned()
        )]
    );
}

#[test]
fn a_hostile_item_template_is_sanitized_before_publishing() {
    // A user template that marks everything safe cannot publish markup.
    let template = ItemTemplate::new(
        "<h3>{{ title | safe }}</h3><p>{{ summary | safe }}</p>{{ body }}".into(),
    )
    .unwrap();
    let mut items = hostile_items();
    for item in &mut items {
        if let Some(html) = template.render(item).unwrap() {
            item.body_html = Some(html);
        }
    }
    let mut checks = 0;
    for format in Format::ALL {
        let out = feed::render(format, &channel(), &items).unwrap();
        let bodies: Vec<String> = match format {
            Format::Rss => rss::Channel::read_from(out.as_bytes())
                .unwrap()
                .items()
                .iter()
                .map(|i| i.content().unwrap_or("").to_owned())
                .collect(),
            Format::Atom => atom_syndication::Feed::read_from(out.as_bytes())
                .unwrap()
                .entries
                .iter()
                .filter_map(|e| e.content.as_ref()?.value.clone())
                .collect(),
            Format::Json => serde_json::from_str::<serde_json::Value>(&out).unwrap()["items"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|i| Some(i.get("content_html")?.as_str()?.to_owned()))
                .collect(),
        };
        assert_eq!(bodies.len(), items.len(), "{format:?}");
        for body in bodies {
            assert_inert_body(&body, &format!("{format:?} templated"));
            checks += 1;
        }
    }
    assert_eq!(checks, PAYLOADS.len() * PLACES.len() * 3);
}

fn hostile_statuses() -> Vec<FeedStatus> {
    let started = Utc.with_ymd_and_hms(2026, 3, 10, 8, 0, 0).unwrap();
    let mut out = Vec::new();
    for (p, payload) in PAYLOADS.iter().enumerate() {
        // Title and degraded reason in one feed, source and failing error
        // in another.
        out.push(FeedStatus {
            id: format!("t{p}"),
            title: (*payload).to_owned(),
            source: "https://city.example.gov/notices/".to_owned(),
            formats: vec![Format::Rss, Format::Atom],
            health: Health::Degraded {
                reasons: vec![(*payload).to_owned()],
            },
            last_run: Some(LastRun {
                started,
                duration_ms: 120,
                outcome: RunOutcome::Degraded,
                records: 3,
                new_items: 0,
            }),
            last_success: None,
            items: 9,
            next_run: None,
        });
        out.push(FeedStatus {
            id: format!("s{p}"),
            title: "Plain".to_owned(),
            source: (*payload).to_owned(),
            formats: vec![Format::Json],
            health: Health::Failing {
                error: (*payload).to_owned(),
                consecutive_failures: 2,
            },
            last_run: None,
            last_success: None,
            items: 0,
            next_run: None,
        });
    }
    out
}

#[test]
fn xss_payloads_do_not_survive_on_the_index_page() {
    let statuses = hostile_statuses();
    let ctx = IndexContext {
        generated: Utc.with_ymd_and_hms(2026, 3, 10, 9, 0, 0).unwrap(),
        public_url: Some(Url::parse("https://feeds.example.net/feeds/").unwrap()),
        version: "test",
        console: false,
        cluster: None,
    };
    let html = IndexTemplate::default().render(&statuses, &ctx).unwrap();
    let doc = parse_html(&html);
    let mut styles = 0;
    for (name, attrs) in elements(&doc) {
        assert!(
            !matches!(
                name.as_str(),
                "script"
                    | "iframe"
                    | "object"
                    | "embed"
                    | "form"
                    | "input"
                    | "base"
                    | "svg"
                    | "math"
                    | "img"
                    | "noscript"
                    | "template"
                    | "link"
                    | "button"
                    | "details"
            ),
            "<{name}> on the index page"
        );
        styles += usize::from(name == "style");
        if name == "meta" {
            assert!(
                attrs.iter().all(|(k, _)| k != "http-equiv"),
                "meta http-equiv"
            );
        }
        for (attr, value) in attrs {
            assert!(!attr.starts_with("on"), "handler {attr} on <{name}>");
            assert_ne!(attr, "style", "style attribute on <{name}>");
            if attr == "href" {
                match Url::parse(&value) {
                    Ok(u) => assert!(
                        matches!(u.scheme(), "http" | "https" | "file"),
                        "href {value:?}"
                    ),
                    Err(url::ParseError::RelativeUrlWithoutBase) => {
                        assert!(value.starts_with("feeds"), "href {value:?}")
                    }
                    Err(e) => panic!("href {value:?}: {e}"),
                }
            }
        }
    }
    assert_eq!(styles, 1, "only the page's own stylesheet");
    // Each payload is shown, as text, in the four places.
    let text = doc.text_contents();
    for payload in PAYLOADS {
        assert!(
            text.matches(payload).count() >= 4,
            "payload not shown as text 4 times: {payload}"
        );
    }
    eprintln!(
        "{} payloads x 4 index places (title, source, reason, error)",
        PAYLOADS.len()
    );
}

#[test]
fn hostile_characters_stay_well_formed_in_every_format() {
    let nasty = "a\u{0}b\u{1}c\u{8}d\u{b}e\u{c}f\u{1f}g\u{fffe}h\u{ffff}i ]]> j ]]]]><![CDATA[ k &amp; &#xD800; \u{fffd} \u{1F600} </title></item>";
    let mut ch = channel();
    ch.title = format!("Feed {nasty}");
    ch.description = nasty.to_owned();
    let link = Url::parse("https://city.example.gov/a?x=1&y=]]>").unwrap();
    let item = Item {
        title: nasty.to_owned(),
        guid: format!("{link}\u{1}"),
        link: Some(link),
        date: None,
        date_relative: false,
        summary: nasty.to_owned(),
        image: Some(Url::parse("https://city.example.gov/i.png?a=1&b=2").unwrap()),
        author: None,
        categories: Vec::new(),
        body_html: Some(format!(
            "<p>{nasty}</p><p>&#xD800; &#0; &#x1; &#xFFFF; &#x10FFFF;</p><![CDATA[x]]>"
        )),
    };
    let expect_text: String = nasty.chars().filter(|&c| is_xml_char(c)).collect();
    let expect_text = expect_text.trim();

    let xml = feed::render_rss(&ch, std::slice::from_ref(&item)).unwrap();
    assert_well_formed(&xml, "rss");
    let rss = rss::Channel::read_from(xml.as_bytes()).unwrap();
    assert_eq!(rss.items()[0].title(), Some(expect_text));
    let body = rss.items()[0].content().unwrap();
    assert!(
        body.contains('\u{fffd}'),
        "lone surrogate became U+FFFD: {body}"
    );
    assert_inert_body(body, "rss nasty body");

    let xml = feed::render_atom(&ch, std::slice::from_ref(&item)).unwrap();
    assert_well_formed(&xml, "atom");
    let atom = atom_syndication::Feed::read_from(xml.as_bytes()).unwrap();
    assert_eq!(atom.title.value, format!("Feed {expect_text}"));
    assert_eq!(atom.entries[0].title.value, expect_text);
    assert_eq!(atom.entries[0].summary.as_ref().unwrap().value, expect_text);
    assert!(
        atom.entries[0]
            .content
            .as_ref()
            .and_then(|c| c.value.as_deref())
            .unwrap()
            .contains("]]&gt; j")
    );

    let json = feed::render_json(&ch, std::slice::from_ref(&item)).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["items"][0]["title"], expect_text);
    assert!(!json.contains("\\u0000") && !json.contains("\\u0001"));

    let opml = feed::render_opml(&[
        OpmlEntry::new(
            "nasty",
            nasty,
            "https://city.example.gov/?a=1&b=\"2\"",
            &[Format::Atom],
            None,
        ),
        OpmlEntry::new(
            "plain",
            "Plain",
            "https://city.example.gov/",
            &Format::ALL,
            None,
        ),
    ]);
    let names = assert_well_formed(&opml, "opml");
    assert_eq!(names.iter().filter(|n| *n == "outline").count(), 2);
}

#[test]
fn the_bundled_stylesheet_is_well_formed_xslt_for_rss_and_atom() {
    let xsl = feedmine::publish::templates::stylesheet();
    let names = assert_well_formed(xsl, "feed.xsl");
    assert_eq!(names.first().map(String::as_str), Some("xsl:stylesheet"));
    assert!(names.iter().any(|n| n == "xsl:output"));
    // One template per root kind: RSS's channel and Atom's feed.
    let mut reader = quick_xml::Reader::from_str(xsl);
    let mut matches = Vec::new();
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Start(e) if e.name().as_ref() == b"xsl:template" => {
                for a in e.attributes() {
                    let a = a.unwrap();
                    if a.key.as_ref() == b"match" {
                        matches.push(String::from_utf8_lossy(&a.value).into_owned());
                    }
                }
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(matches, ["/", "channel", "atom:feed"]);
}
