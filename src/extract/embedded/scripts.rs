//! The `<script>` elements of raw HTML, and the data they embed.
//!
//! The DOM arena drops script contents (they are not visible text), so the
//! scripts are read straight from the HTML. The parser's pass over the
//! page's tags already notes where each script is ([`ScriptSpans`]);
//! [`of_page`] reads them there, and [`scan`] reads the rest of a page that
//! pass did not cover (past the element budget), the way a browser's
//! tokenizer does: a script's text runs from its start tag to the next
//! `</script` (any case); comments (`<!-- … -->`) outside scripts are
//! skipped.
//!
//! [`sources`] turns scripts into parsed data [`Source`]s: JSON-LD blocks,
//! JSON data blocks (`__NEXT_DATA__`, Nuxt 3's `__NUXT_DATA__` devalue
//! payload, any `type="application/json"`), and values assigned in inline
//! JavaScript (`window.__INITIAL_STATE__ = {…}`, `window["x"] = JSON.parse(…)`,
//! `__NUXT__ = (function(a){return …}(…))`, `var data = [...]`).
//!
//! Invariants: at most [`MAX_SCRIPTS`] scripts and [`MAX_SOURCES`] sources
//! per page; a script longer than [`MAX_SCRIPT_BYTES`] is counted but not
//! parsed, and all parsed or scanned text together stays under
//! [`MAX_PARSED_BYTES`]; the sources parsed hold at most
//! [`MAX_DATA_VALUES`] structural characters together (code without a data
//! assignment parses nothing, so it counts none). Nothing is executed.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::{devalue, jsvalue};
use crate::extract::dom::find_ascii_ci;
use crate::extract::dom::prepare::{MAX_SCRIPT_SPANS, ScriptSpans};

/// Scripts looked at per page.
pub const MAX_SCRIPTS: usize = MAX_SCRIPT_SPANS;
/// Longest script whose data is read.
pub const MAX_SCRIPT_BYTES: usize = 6 * 1024 * 1024;
/// Script text parsed per page, over all scripts.
pub const MAX_PARSED_BYTES: usize = 12 * 1024 * 1024;
/// Data sources kept per page.
pub const MAX_SOURCES: usize = 64;
/// Structural characters (`{ [ , :`, a bound on the values they make) all
/// parsed sources of a page may hold together. A parsed value costs a few
/// hundred bytes: 680,000 tiny objects in one 5 MB `__NEXT_DATA__` took
/// 540 MB before this bound; real data blocks hold well under 100,000.
pub const MAX_DATA_VALUES: usize = 150_000;
/// Assignments read per inline script.
const MAX_ASSIGNMENTS_PER_SCRIPT: usize = 16;

/// What a script element holds, by its `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptKind {
    /// `application/ld+json`.
    LdJson,
    /// `application/json` (and other `…+json` types but ld+json).
    Json,
    /// Code: no type, a JavaScript type, or `module`.
    JavaScript,
    /// Anything else (templates, `text/plain`, …).
    Other,
}

/// One `<script>` element.
#[derive(Debug, Clone)]
pub struct Script<'a> {
    pub kind: ScriptKind,
    pub id: Option<String>,
    /// `src` attribute (external script), if any.
    pub src: Option<String>,
    /// The text between the tags, as written.
    pub text: &'a str,
}

/// The scripts of `html` (the string the spans were taken from), in
/// document order (at most [`MAX_SCRIPTS`]): those of `spans`, then those
/// [`scan`] finds past [`ScriptSpans::scanned_to`]. A span that is not a
/// range of `html` is skipped.
pub fn of_page<'a>(html: &'a str, spans: &ScriptSpans) -> Vec<Script<'a>> {
    let mut out: Vec<Script<'a>> = spans
        .spans
        .iter()
        .filter_map(|s| {
            Some(script(
                html.get(s.attributes.clone())?,
                html.get(s.body.clone())?,
            ))
        })
        .take(MAX_SCRIPTS)
        .collect();
    if out.len() < MAX_SCRIPTS
        && let Some(rest) = html.get(spans.scanned_to..).filter(|r| !r.is_empty())
    {
        let room = MAX_SCRIPTS - out.len();
        out.extend(scan(rest).into_iter().take(room));
    }
    out
}

/// One script from its start tag's attribute text and its body.
fn script<'a>(attribute_text: &str, text: &'a str) -> Script<'a> {
    let attrs = attributes(attribute_text);
    let get = |name: &str| {
        attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    Script {
        kind: kind_of(get("type").as_deref()),
        id: get("id").filter(|v| !v.trim().is_empty()),
        src: get("src").filter(|v| !v.trim().is_empty()),
        text,
    }
}

/// The scripts of a page, in document order (at most [`MAX_SCRIPTS`]).
pub fn scan(html: &str) -> Vec<Script<'_>> {
    let b = html.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(n) = memchr::memchr(b'<', &b[i..]) {
        i += n;
        if b[i..].starts_with(b"<!--") {
            i = memchr::memmem::find(&b[i + 4..], b"-->").map_or(b.len(), |n| i + 4 + n + 3);
            continue;
        }
        if !starts_with_tag(&b[i..], b"<script") {
            i += 1;
            continue;
        }
        let Some(tag_end) = start_tag_end(b, i + 7) else {
            break;
        };
        let content_start = tag_end + 1;
        let content_end =
            find_ascii_ci(&b[content_start..], b"</script").map_or(b.len(), |n| content_start + n);
        out.push(script(
            &html[i + 7..tag_end],
            &html[content_start..content_end],
        ));
        if out.len() >= MAX_SCRIPTS {
            break;
        }
        i = content_end;
    }
    out
}

/// `<script` followed by a character that ends the tag name.
fn starts_with_tag(b: &[u8], name: &[u8]) -> bool {
    b.len() > name.len()
        && b[..name.len()].eq_ignore_ascii_case(name)
        && matches!(
            b[name.len()],
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'>' | b'/'
        )
}

/// The `>` that closes a start tag whose attributes begin at `from`
/// (quotes respected).
fn start_tag_end(b: &[u8], from: usize) -> Option<usize> {
    let mut quote = None;
    for (n, &c) in b[from..].iter().enumerate() {
        match (quote, c) {
            (None, b'"' | b'\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, b'>') => return Some(from + n),
            _ => {}
        }
    }
    None
}

/// Attributes read from a script's start tag.
const MAX_TAG_ATTRIBUTES: usize = 32;

/// Attributes of a start tag (names lower-case, values with entities
/// decoded), at most [`MAX_TAG_ATTRIBUTES`]: each a name (a run of
/// characters but whitespace, quotes, `>`, `/` and `=`) and, when `=`
/// follows it (whitespace around allowed), its value: quoted (up to the
/// same quote; with none, there is no value) or bare (up to whitespace, a
/// quote or `>`). Whatever is no name is skipped. Read by hand, as the
/// pattern `ATTRIBUTE_PATTERN` of the tests reads it: a regex search per
/// script cost more than the rest of its reading.
fn attributes(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s;
    while out.len() < MAX_TAG_ATTRIBUTES {
        let Some(start) = rest.find(is_attribute_name_char) else {
            break;
        };
        let named = &rest[start..];
        let end = named
            .find(|c| !is_attribute_name_char(c))
            .unwrap_or(named.len());
        let (name, after) = named.split_at(end);
        let (value, after) = attribute_value(after).unwrap_or(("", after));
        out.push((
            name.to_ascii_lowercase(),
            html_escape::decode_html_entities(value).trim().to_string(),
        ));
        rest = after;
    }
    out
}

/// A character of an attribute's name.
fn is_attribute_name_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '"' | '\'' | '>' | '/' | '=')
}

/// The value given right after an attribute's name (`="v"`, `= 'v'`,
/// `=v`), and the text after it; `None` when there is none.
fn attribute_value(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start().strip_prefix('=')?.trim_start();
    for quote in ['"', '\''] {
        if let Some(quoted) = s.strip_prefix(quote) {
            let close = quoted.find(quote)?;
            return Some((&quoted[..close], &quoted[close + 1..]));
        }
    }
    let end = s
        .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '>'))
        .unwrap_or(s.len());
    (end > 0).then(|| s.split_at(end))
}

fn kind_of(ty: Option<&str>) -> ScriptKind {
    let ty = ty.unwrap_or("").trim().to_ascii_lowercase();
    let ty = ty.split(';').next().unwrap_or("").trim();
    match ty {
        "application/ld+json" => ScriptKind::LdJson,
        "application/json" => ScriptKind::Json,
        t if t.ends_with("+json") => ScriptKind::Json,
        ""
        | "module"
        | "text/javascript"
        | "application/javascript"
        | "text/ecmascript"
        | "application/ecmascript"
        | "text/jscript" => ScriptKind::JavaScript,
        _ => ScriptKind::Other,
    }
}

/// Parsed data embedded in a page, with where it came from.
#[derive(Debug, Clone)]
pub struct Source {
    /// Where the data sits, e.g. `script#__NEXT_DATA__`,
    /// `window.__INITIAL_STATE__`, `ld+json #2`.
    pub label: String,
    pub kind: ScriptKind,
    pub value: Value,
}

/// Every data source of the page's scripts.
pub fn sources(scripts: &[Script<'_>]) -> Vec<Source> {
    let mut out = Vec::new();
    let mut budget = MAX_PARSED_BYTES;
    let mut values_left = MAX_DATA_VALUES;
    let mut ld_index = 0;
    for s in scripts {
        if out.len() >= MAX_SOURCES {
            break;
        }
        let text = s.text.trim();
        if text.is_empty() || text.len() > MAX_SCRIPT_BYTES || text.len() > budget {
            continue;
        }
        if s.kind == ScriptKind::Other || s.src.is_some() {
            continue;
        }
        // Code is scanned for data assignments (its bytes count against the
        // budget); code without one builds no value, so its structural
        // characters do not count against the values of the data.
        let mut targets = Vec::new();
        if s.kind == ScriptKind::JavaScript {
            budget -= text.len();
            targets = assignment_targets(text);
            if targets.is_empty() {
                continue;
            }
        }
        let values = structural_count(text);
        if values > values_left {
            continue;
        }
        values_left -= values;
        match s.kind {
            ScriptKind::LdJson => {
                ld_index += 1;
                budget -= text.len();
                if let Some(value) = parse_json_block(text) {
                    out.push(Source {
                        label: format!("ld+json #{ld_index}"),
                        kind: s.kind,
                        value,
                    });
                }
            }
            ScriptKind::Json => {
                budget -= text.len();
                let Some(value) = parse_json_block(text) else {
                    continue;
                };
                let label = match &s.id {
                    Some(id) => format!("script#{id}"),
                    None => "script[type=json]".to_string(),
                };
                // Nuxt 3's payload is flattened: resolve its references.
                let value = if s.id.as_deref() == Some("__NUXT_DATA__") {
                    devalue::unflatten(&value).unwrap_or(value)
                } else {
                    value
                };
                out.push(Source {
                    label,
                    kind: s.kind,
                    value,
                });
            }
            ScriptKind::JavaScript => {
                for (label, value) in assignments(text, targets) {
                    if out.len() >= MAX_SOURCES {
                        break;
                    }
                    out.push(Source {
                        label,
                        kind: s.kind,
                        value,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The `{ [ , :` bytes of `text`: at least the number of values parsing
/// it would build, less one (strings' contents count too: an over-count
/// only makes the bound safer).
fn structural_count(text: &str) -> usize {
    text.bytes()
        .filter(|b| matches!(b, b'{' | b'[' | b',' | b':'))
        .count()
}

/// A JSON data block, tolerating an HTML comment or CDATA wrapper.
fn parse_json_block(text: &str) -> Option<Value> {
    let t = text
        .trim()
        .trim_start_matches("<!--")
        .trim_end_matches("-->")
        .trim()
        .trim_start_matches("//<![CDATA[")
        .trim_end_matches("//]]>")
        .trim();
    serde_json::from_str(t)
        .ok()
        .or_else(|| jsvalue::parse_assigned(t))
}

/// Targets of a data assignment: `window.X`, `window["X"]`, `self.X`,
/// `globalThis.X`, `var|let|const X`, and bare `__X` names, then `=` and
/// the start of a data value (`{`, `[`, `JSON.parse`, `(function`,
/// `function`), so `==`, `=>` and assignments of other values never match.
///
/// Identifiers are ASCII and the key's length is checked after the match:
/// Unicode word classes and a counted repetition made every state of the
/// lazy DFA costly to build, and this pattern scans all inline script.
static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?x)
        (?:
            (?-u:\b)(?P<global>window|self|globalThis)\s*
              (?: \.\s*(?P<member>[A-Za-z_$][A-Za-z0-9_$]*)
                | \[\s*["'](?P<key>[^"'\]\n]+)["']\s*\] )
          | (?-u:\b)(?:var|let|const)\s+(?P<var>[A-Za-z_$][A-Za-z0-9_$]*)
          | (?:^|[^A-Za-z0-9_$.])(?P<dunder>__[A-Za-z0-9_$]+)
        )
        \s*=\s*(?P<data>[\[{]|JSON\.parse|\(?function)"#,
    )
    .expect("static regex")
});

/// Longest `window["…"]` key read (characters).
const MAX_KEY_CHARS: usize = 100;

/// The data assignments of a script: each target's name and where its
/// value starts (at most [`MAX_ASSIGNMENTS_PER_SCRIPT`]).
fn assignment_targets(text: &str) -> Vec<(String, usize)> {
    ASSIGNMENT
        .captures_iter(text)
        .filter_map(|caps| Some((assignment_label(&caps)?, caps.name("data")?.start())))
        .take(MAX_ASSIGNMENTS_PER_SCRIPT)
        .collect()
}

/// The data values of a script's [`assignment_targets`], with their
/// targets' names.
fn assignments(text: &str, targets: Vec<(String, usize)>) -> Vec<(String, Value)> {
    targets
        .into_iter()
        .filter_map(|(label, at)| match jsvalue::parse_assigned(&text[at..]) {
            Some(value @ (Value::Object(_) | Value::Array(_))) => Some((label, value)),
            _ => None,
        })
        .collect()
}

/// `window.X`, `window["X"]` (a key of at most [`MAX_KEY_CHARS`]), or the
/// variable's name.
fn assignment_label(caps: &regex::Captures<'_>) -> Option<String> {
    if let Some(g) = caps.name("global") {
        return match (caps.name("member"), caps.name("key")) {
            (Some(m), _) => Some(format!("{}.{}", g.as_str(), m.as_str())),
            (_, Some(k)) if k.as_str().chars().count() <= MAX_KEY_CHARS => {
                Some(format!("{}[{:?}]", g.as_str(), k.as_str()))
            }
            _ => None,
        };
    }
    caps.name("var")
        .or_else(|| caps.name("dunder"))
        .map(|v| v.as_str().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`attributes`] reads, as the pattern it was read with before.
    const ATTRIBUTE_PATTERN: &str =
        r#"([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?"#;

    fn attributes_by_pattern(s: &str) -> Vec<(String, String)> {
        static PATTERN: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(ATTRIBUTE_PATTERN).expect("the pattern"));
        PATTERN
            .captures_iter(s)
            .take(MAX_TAG_ATTRIBUTES)
            .map(|c| {
                let value = c
                    .get(2)
                    .or_else(|| c.get(3))
                    .or_else(|| c.get(4))
                    .map_or("", |m| m.as_str());
                (
                    c[1].to_ascii_lowercase(),
                    html_escape::decode_html_entities(value).trim().to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn attributes_are_read_as_the_pattern_reads_them() {
        for s in [
            r#" type="application/ld+json" id='x'"#,
            " async src=/a.js defer",
            r#" data-x = "a b" data-y= 'c' z =d/"#,
            r#" a="unclosed b=c"#,
            " a='unclosed b=c",
            " a= >b =c",
            " A=&amp;x B=\u{a0}v\u{a0} \u{3000}c=d",
            "",
        ] {
            assert_eq!(attributes(s), attributes_by_pattern(s), "{s:?}");
        }
        let many = " a=1".repeat(2 * MAX_TAG_ATTRIBUTES);
        assert_eq!(attributes(&many), attributes_by_pattern(&many));
        let alphabet = [
            'a', 'B', '-', '=', '"', '\'', '>', '/', ' ', '\t', '\n', '\u{a0}', '\u{3000}', 'é',
            '&', ';',
        ];
        let mut rng = fastrand::Rng::with_seed(32);
        for _ in 0..20_000 {
            let s: String = (0..rng.usize(0..24))
                .map(|_| alphabet[rng.usize(..alphabet.len())])
                .collect();
            assert_eq!(attributes(&s), attributes_by_pattern(&s), "{s:?}");
        }
    }

    #[test]
    fn data_beyond_the_value_budget_is_not_parsed() {
        // Regression: 680,000 tiny objects in one `__NEXT_DATA__` took
        // 540 MB. Blocks over the budget (80,000 objects: 240,000
        // structural bytes each) are skipped; a small one is still read.
        let huge = format!(r#"{{"x":[{}]}}"#, vec![r#"{"a":1}"#; 80_000].join(","));
        let html = format!(
            "<script id=__NEXT_DATA__ type=application/json>{huge}</script>\
             <script>window.__INITIAL_STATE__ = {{x: [{}]}};</script>\
             <script type=application/ld+json>{{\"@type\":\"Thing\"}}</script>",
            vec!["{a: 1}"; 80_000].join(",")
        );
        let found = scan(&html);
        let got = sources(&found);
        let labels: Vec<&str> = got.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["ld+json #1"], "{labels:?}");
        let small = format!(r#"{{"x":[{}]}}"#, vec![r#"{"a":1}"#; 1_000].join(","));
        let html = format!("<script id=__NEXT_DATA__ type=application/json>{small}</script>");
        assert_eq!(sources(&scan(&html)).len(), 1);
    }

    #[test]
    fn code_without_data_assignments_leaves_the_value_budget_to_data() {
        // A bundled library (100,000 commas in calls and literals, no data
        // assignment) before the page's data (60,000 values): the code
        // builds nothing, so the data stays within the budget and is read.
        let library = format!(
            "<script>(function(){{f({});}})();</script>",
            vec!["1"; 100_001].join(",")
        );
        let data = format!(
            "<script id=__NEXT_DATA__ type=application/json>{{\"x\":[{}]}}</script>",
            vec!["1"; 60_000].join(",")
        );
        let got = sources(&scan(&format!("{library}{data}")));
        let labels: Vec<&str> = got.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["script#__NEXT_DATA__"]);
    }

    /// What a test compares of a script.
    fn seen<'a>(s: &[Script<'a>]) -> Vec<(ScriptKind, Option<String>, Option<String>, &'a str)> {
        s.iter()
            .map(|s| (s.kind, s.id.clone(), s.src.clone(), s.text))
            .collect()
    }

    /// The scripts as the page reader finds them: at the parser's spans.
    fn parsed(html: &str) -> Vec<Script<'_>> {
        of_page(html, &crate::extract::dom::parse(html).scripts)
    }

    #[test]
    fn scans_scripts_like_a_tokenizer() {
        let html = r#"<html><head>
<!-- <script>not a script</script> -->
<script type="application/ld+json">{"@type":"Thing"}</script>
<SCRIPT id=__NEXT_DATA__ type="application/json">{"props":{}}</SCRIPT >
<script src="/app.js" defer></script>
<script>var s = "</scr" + "ipt>"; window.x = 1;</script>
<script type="text/template"><li>{{title}}</li></script>
</head><body></body></html>"#;
        let s = scan(html);
        // The parser's spans give the same scripts as a scan of the page.
        assert_eq!(seen(&parsed(html)), seen(&s));
        let kinds: Vec<ScriptKind> = s.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            [
                ScriptKind::LdJson,
                ScriptKind::Json,
                ScriptKind::JavaScript,
                ScriptKind::JavaScript,
                ScriptKind::Other
            ]
        );
        assert_eq!(s[1].id.as_deref(), Some("__NEXT_DATA__"));
        assert_eq!(s[1].text, r#"{"props":{}}"#);
        assert_eq!(s[2].src.as_deref(), Some("/app.js"));
        assert!(s[3].text.contains("window.x = 1"));
        // An unclosed script runs to the end of the input.
        for open in [
            scan("<script>window.a = [1]"),
            parsed("<script>window.a = [1]"),
        ] {
            assert_eq!(open[0].text, "window.a = [1]");
        }
        let unclosed_tag = parsed("<p>x</p><script type=application/json");
        assert_eq!(seen(&unclosed_tag), [(ScriptKind::Json, None, None, "")]);
    }

    /// Regression: a script shown as text in a `textarea` (a code sample, a
    /// comment form's preview) was read as the page's data.
    #[test]
    fn a_script_written_inside_a_textarea_is_text_not_data() {
        let html = r#"<body><textarea><script type="application/ld+json">{"@type":"ItemList"}</script></textarea>
<script type="application/ld+json">{"@type":"Thing"}</script></body>"#;
        let got = parsed(html);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].text, r#"{"@type":"Thing"}"#);
    }

    /// The parser's pass stops at the element budget; the data at the end
    /// of a page longer than that (where frameworks put it) is still read.
    #[test]
    fn scripts_past_the_element_budget_are_still_read() {
        use crate::extract::dom::budget::MAX_ELEMENTS;
        let html = format!(
            "<body><script id=early>window.a = 1</script>{}\
             <script id=__NEXT_DATA__ type=application/json>{{\"props\":{{}}}}</script></body>",
            "<i></i>".repeat(MAX_ELEMENTS)
        );
        let doc = crate::extract::dom::parse(&html);
        assert!(doc.truncated_at_budget);
        assert!(doc.scripts.scanned_to < html.len());
        let ids: Vec<Option<String>> = of_page(&html, &doc.scripts)
            .into_iter()
            .map(|s| s.id)
            .collect();
        assert_eq!(
            ids,
            [Some("early".to_string()), Some("__NEXT_DATA__".to_string())]
        );
        // Spans that are not ranges of the page are skipped, not a panic.
        let mut wrong = doc.scripts.clone();
        wrong.spans[0].body = html.len()..html.len() + 5;
        assert_eq!(of_page(&html, &wrong).len(), 1);
    }

    #[test]
    fn reads_assignments_but_not_comparisons() {
        let js = r#"
            if (window.mode == {}) {}
            window.__INITIAL_STATE__ = {"posts": [{"title": "A"}]};
            window["__APOLLO_STATE__"]=JSON.parse("{\"Post:1\":{\"title\":\"B\"}}");
            var items = [{title: 'C'}];
            __NUXT__=(function(a){return {data:[a]}}({title:"D"}));
            const f = (x) => { return x };
            let n = 5;
        "#;
        let got = assignments(js, assignment_targets(js));
        let labels: Vec<&str> = got.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(
            labels,
            [
                "window.__INITIAL_STATE__",
                "window[\"__APOLLO_STATE__\"]",
                "items",
                "__NUXT__"
            ]
        );
        assert_eq!(got[3].1["data"][0]["title"], "D");
    }

    #[test]
    fn only_data_assignments_count_against_the_script_limit() {
        // Scalars, comparisons and arrows before the data never match, so
        // they cannot use up the assignments tried per script.
        let mut js = String::new();
        for n in 0..MAX_ASSIGNMENTS_PER_SCRIPT * 2 {
            js.push_str(&format!(
                "var n{n} = {n}; if (a{n} == b) {{}} const f{n} = (x) => {{}};\n"
            ));
        }
        let long_key = "k".repeat(MAX_KEY_CHARS + 1);
        js.push_str(&format!("window[\"{long_key}\"] = {{\"a\": 1}};\n"));
        js.push_str("window['feed'] = {\"items\": [1, 2]};\n");
        let got = assignments(&js, assignment_targets(&js));
        let labels: Vec<&str> = got.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["window[\"feed\"]"]);
        assert_eq!(got[0].1["items"][1], 2);
    }
}
