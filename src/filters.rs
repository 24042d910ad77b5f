//! Per-feed include/exclude filters: which items of a run get published.
//!
//! A rule holds regexes on fields of an item (`title`, `summary`, `body`,
//! `link`, or `any` of them); it matches an item when every field it names
//! matches. An item is kept when it matches at least one include rule (if
//! there are any) and no exclude rule.
//!
//! Invariants: regexes are compiled once, when the config is loaded, with
//! a bounded size ([`REGEX_SIZE_LIMIT`]), so a config can neither fail a
//! run nor blow memory; `body` is matched on the body's *text* (tags
//! removed, entities decoded), never on markup or attribute values; a field
//! the item lacks (no link, no body) is matched as the empty string.

use std::cell::OnceCell;

use regex::{Regex, RegexBuilder};
use serde::Deserialize;

use crate::extract::items::Item;

/// Upper bound on one compiled regex (bytes of its program), so that a
/// pattern like `(a{1000}){1000}` is refused instead of taking memory.
pub const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Upper bound on one regex's lazy DFA cache (bytes).
pub const REGEX_DFA_SIZE_LIMIT: usize = 2 << 20;

/// One rule as written in the config.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFilterRule {
    pub title: Option<String>,
    pub summary: Option<String>,
    pub body: Option<String>,
    pub link: Option<String>,
    /// Matches when the pattern matches any of title, summary, body, link.
    pub any: Option<String>,
}

/// Why the filters of a feed could not be built.
#[derive(Debug, thiserror::Error)]
pub enum FilterError {
    #[error("{list} rule {number}: {field} pattern {pattern:?} is not a usable regex: {source}")]
    BadRegex {
        /// `include` or `exclude`.
        list: &'static str,
        /// 1-based position of the rule in its list.
        number: usize,
        field: &'static str,
        pattern: String,
        source: regex::Error,
    },
    #[error("{list} rule {number} names no field (give title, summary, body, link or any)")]
    EmptyRule { list: &'static str, number: usize },
}

/// A compiled rule.
#[derive(Debug, Clone)]
struct Rule {
    title: Option<Regex>,
    summary: Option<Regex>,
    body: Option<Regex>,
    link: Option<Regex>,
    any: Option<Regex>,
}

/// The compiled include/exclude rules of one feed.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    include: Vec<Rule>,
    exclude: Vec<Rule>,
}

impl Filters {
    /// Compile the rules; `case_insensitive` applies to every pattern.
    pub fn new(
        include: &[RawFilterRule],
        exclude: &[RawFilterRule],
        case_insensitive: bool,
    ) -> Result<Filters, FilterError> {
        let compile_list = |list: &'static str, raw: &[RawFilterRule]| {
            raw.iter()
                .enumerate()
                .map(|(i, r)| compile_rule(list, i + 1, r, case_insensitive))
                .collect::<Result<Vec<Rule>, FilterError>>()
        };
        Ok(Filters {
            include: compile_list("include", include)?,
            exclude: compile_list("exclude", exclude)?,
        })
    }

    /// True when there are no rules (every item is kept).
    pub fn is_empty(&self) -> bool {
        self.include.is_empty() && self.exclude.is_empty()
    }

    /// Whether `item` is published.
    pub fn keep(&self, item: &Item) -> bool {
        if self.is_empty() {
            return true;
        }
        let fields = Fields::new(item);
        (self.include.is_empty() || self.include.iter().any(|r| r.matches(&fields)))
            && !self.exclude.iter().any(|r| r.matches(&fields))
    }
}

fn compile_rule(
    list: &'static str,
    number: usize,
    raw: &RawFilterRule,
    case_insensitive: bool,
) -> Result<Rule, FilterError> {
    let compile = |field: &'static str, pattern: &Option<String>| -> Result<_, FilterError> {
        pattern
            .as_deref()
            .map(|p| {
                RegexBuilder::new(p)
                    .case_insensitive(case_insensitive)
                    .size_limit(REGEX_SIZE_LIMIT)
                    .dfa_size_limit(REGEX_DFA_SIZE_LIMIT)
                    .build()
                    .map_err(|source| FilterError::BadRegex {
                        list,
                        number,
                        field,
                        pattern: p.to_owned(),
                        source,
                    })
            })
            .transpose()
    };
    let rule = Rule {
        title: compile("title", &raw.title)?,
        summary: compile("summary", &raw.summary)?,
        body: compile("body", &raw.body)?,
        link: compile("link", &raw.link)?,
        any: compile("any", &raw.any)?,
    };
    if rule.title.is_none()
        && rule.summary.is_none()
        && rule.body.is_none()
        && rule.link.is_none()
        && rule.any.is_none()
    {
        return Err(FilterError::EmptyRule { list, number });
    }
    Ok(rule)
}

/// An item's matchable text; the body's text is computed only when a rule
/// asks for it.
struct Fields<'a> {
    item: &'a Item,
    body_text: OnceCell<String>,
}

impl<'a> Fields<'a> {
    fn new(item: &'a Item) -> Self {
        Fields {
            item,
            body_text: OnceCell::new(),
        }
    }

    fn title(&self) -> &str {
        &self.item.title
    }

    fn summary(&self) -> &str {
        &self.item.summary
    }

    fn link(&self) -> &str {
        self.item.link.as_ref().map_or("", |l| l.as_str())
    }

    fn body(&self) -> &str {
        self.body_text.get_or_init(|| {
            self.item
                .body_html
                .as_deref()
                .map_or_else(String::new, html_text)
        })
    }
}

impl Rule {
    /// Every field the rule names matches.
    fn matches(&self, f: &Fields<'_>) -> bool {
        // Cheap fields first; the body's text only when still needed.
        matches_opt(&self.title, f.title())
            && matches_opt(&self.summary, f.summary())
            && matches_opt(&self.link, f.link())
            && self.body.as_ref().is_none_or(|re| re.is_match(f.body()))
            && self.any.as_ref().is_none_or(|re| {
                re.is_match(f.title())
                    || re.is_match(f.summary())
                    || re.is_match(f.link())
                    || re.is_match(f.body())
            })
    }
}

fn matches_opt(re: &Option<Regex>, text: &str) -> bool {
    re.as_ref().is_none_or(|re| re.is_match(text))
}

/// Text of an HTML fragment: tags (and `script`/`style` content) removed,
/// entities decoded, whitespace collapsed.
fn html_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        text.push_str(&rest[..lt]);
        text.push(' ');
        let tag = &rest[lt..];
        let lower_start: String = tag.chars().take(8).collect::<String>().to_ascii_lowercase();
        // Raw-text elements: skip to their end tag.
        let raw_end = ["script", "style"].into_iter().find_map(|name| {
            lower_start
                .strip_prefix('<')
                .filter(|t| t.starts_with(name))
                .map(|_| format!("</{name}"))
        });
        rest = match raw_end {
            Some(end_tag) => {
                let lower = tag.to_ascii_lowercase();
                match lower.find(&end_tag) {
                    Some(i) => tag[i..].find('>').map_or("", |j| &tag[i + j + 1..]),
                    None => "",
                }
            }
            None => tag.find('>').map_or("", |gt| &tag[gt + 1..]),
        };
    }
    text.push_str(rest);
    let decoded = html_escape::decode_html_entities(&text);
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;

    fn item(title: &str, summary: &str, link: &str, body: Option<&str>) -> Item {
        Item {
            title: title.into(),
            link: Some(Url::parse(link).unwrap()),
            guid: link.into(),
            date: None,
            date_relative: false,
            summary: summary.into(),
            image: None,
            author: None,
            categories: Vec::new(),
            body_html: body.map(str::to_owned),
        }
    }

    /// A week of a tech news list page.
    fn items() -> Vec<Item> {
        vec![
            item(
                "Rust 1.95 released",
                "Edition 2024 polish and faster builds",
                "https://news.example.com/2026/rust-1-95",
                Some("<p>The <b>Rust</b> team is happy to announce a new version.</p>"),
            ),
            item(
                "Sponsored: Try CloudDB free for 30 days",
                "Advertisement",
                "https://ads.example.net/clouddb?ref=news",
                None,
            ),
            item(
                "Kernel 7.2 drops support for old ARM boards",
                "Maintainers removed 40k lines",
                "https://news.example.com/2026/kernel-7-2",
                Some("<p>Boards from 2009 are gone.</p><script>var rust = 1;</script>"),
            ),
            item(
                "Podcast #212: Memory safety",
                "We talk about RUST in the kernel",
                "https://news.example.com/podcast/212",
                Some("<p>Transcript follows &amp; show notes.</p>"),
            ),
            item(
                "Go 1.30 ships iterators everywhere",
                "",
                "https://news.example.com/2026/go-1-30",
                None,
            ),
        ]
    }

    fn kept(filters: &Filters) -> Vec<String> {
        items()
            .into_iter()
            .filter(|i| filters.keep(i))
            .map(|i| i.title)
            .collect()
    }

    fn rule(f: impl FnOnce(&mut RawFilterRule)) -> RawFilterRule {
        let mut r = RawFilterRule::default();
        f(&mut r);
        r
    }

    #[test]
    fn no_rules_keep_everything() {
        let f = Filters::new(&[], &[], false).unwrap();
        assert!(f.is_empty());
        assert_eq!(kept(&f).len(), 5);
    }

    #[test]
    fn exclude_drops_sponsored_posts_and_foreign_links() {
        let exclude = [
            rule(|r| r.title = Some("^Sponsored:".into())),
            rule(|r| r.link = Some(r"^https://ads\.".into())),
        ];
        let f = Filters::new(&[], &exclude, false).unwrap();
        assert!(!f.is_empty());
        assert_eq!(
            kept(&f),
            [
                "Rust 1.95 released",
                "Kernel 7.2 drops support for old ARM boards",
                "Podcast #212: Memory safety",
                "Go 1.30 ships iterators everywhere",
            ]
        );
    }

    #[test]
    fn include_any_field_with_and_without_case() {
        let include = [rule(|r| r.any = Some(r"\brust\b".into()))];
        // Case-sensitive: only the first item's link has lowercase "rust"
        // (the kernel item has it inside <script>, which is not body text).
        let f = Filters::new(&include, &[], false).unwrap();
        assert_eq!(kept(&f), ["Rust 1.95 released"]);
        let f = Filters::new(&include, &[], true).unwrap();
        assert_eq!(
            kept(&f),
            ["Rust 1.95 released", "Podcast #212: Memory safety"]
        );
    }

    #[test]
    fn all_fields_of_one_rule_must_match() {
        let include = [rule(|r| {
            r.link = Some("/2026/".into());
            r.body = Some("announce|gone".into());
        })];
        let f = Filters::new(&include, &[], false).unwrap();
        assert_eq!(
            kept(&f),
            [
                "Rust 1.95 released",
                "Kernel 7.2 drops support for old ARM boards"
            ]
        );
        // Include and exclude together: exclude wins.
        let exclude = [rule(|r| r.summary = Some("40k".into()))];
        let f = Filters::new(&include, &exclude, false).unwrap();
        assert_eq!(kept(&f), ["Rust 1.95 released"]);
    }

    #[test]
    fn body_is_matched_as_text_not_markup() {
        let f = Filters::new(&[rule(|r| r.body = Some("show notes".into()))], &[], false).unwrap();
        assert_eq!(kept(&f), ["Podcast #212: Memory safety"]);
        // Tag names and attributes are not text.
        let f = Filters::new(
            &[rule(|r| r.body = Some(r"<p>|\bscript\b|var rust".into()))],
            &[],
            false,
        )
        .unwrap();
        assert!(kept(&f).is_empty());
        assert_eq!(
            html_text("<p>A&amp;B</p><STYLE>p{}</STYLE><div>c\n d</div>"),
            "A&B c d"
        );
        // A missing body is the empty string: `^$` matches it.
        let f = Filters::new(&[rule(|r| r.body = Some("^$".into()))], &[], false).unwrap();
        assert_eq!(
            kept(&f),
            [
                "Sponsored: Try CloudDB free for 30 days",
                "Go 1.30 ships iterators everywhere"
            ]
        );
    }

    #[test]
    fn errors_name_the_rule_and_field() {
        let bad = [
            rule(|r| r.title = Some("ok".into())),
            rule(|r| r.summary = Some("(unclosed".into())),
        ];
        let err = Filters::new(&[], &bad, false).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with("exclude rule 2: summary pattern \"(unclosed\""),
            "{msg}"
        );
        assert!(msg.contains("unclosed group"), "{msg}");

        let err = Filters::new(&[RawFilterRule::default()], &[], false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "include rule 1 names no field (give title, summary, body, link or any)"
        );

        // A pattern whose compiled program would be huge is refused.
        let huge = [rule(|r| r.any = Some(r"(\w{100}){100}".into()))];
        let err = Filters::new(&huge, &[], true).unwrap_err();
        assert!(err.to_string().contains("size limit"), "{err}");
    }

    #[test]
    fn unknown_config_keys_are_rejected() {
        let ok: RawFilterRule = toml::from_str("title = \"^Ad\"\nlink = \"ads\"").unwrap();
        assert_eq!(ok.title.as_deref(), Some("^Ad"));
        assert!(toml::from_str::<RawFilterRule>("titel = \"x\"").is_err());
    }
}
