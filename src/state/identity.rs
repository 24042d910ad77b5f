//! Which parts of a record's link name the record, and which are noise.
//!
//! A link's identity key is the link without its fragment and without the
//! query (and `;path`) parameters that change per visit or per campaign:
//! session ids (`sid`, `PHPSESSID`, `;jsessionid=`), tracking tags
//! (`utm_*`, `fbclid`, `ref`, ...). Three sources name such parameters:
//! - [`DEFAULT_IGNORED_PARAMS`] (and the `utm_` prefix), always, unless a
//!   feed lists the name in `keep_params`;
//! - the feed's `ignore_params`;
//! - *learning* ([`learn_volatile`]): when every record seen in two
//!   consecutive runs kept its link except for the value of one parameter,
//!   that parameter is volatile for the feed. The store remembers it.
//!
//! `s` (vBulletin's session hash) is ignored only when its value looks like
//! one (32 hex digits): elsewhere `s` is often a search or a slug.
//!
//! Invariants: names compare ASCII-case-insensitively; the remaining
//! parameters keep their bytes and order; the key is a pure function of the
//! link and the rules.

use std::collections::{BTreeSet, HashMap, HashSet};

use url::Url;

/// Query and path parameter names that never identify a record (lowercase):
/// session ids of common server stacks and forum engines, and the click and
/// mail-campaign tags of the large ad and newsletter platforms.
pub const DEFAULT_IGNORED_PARAMS: &[&str] = &[
    "sid",
    "phpsessid",
    "jsessionid",
    "sessionid",
    "session_id",
    "sessid",
    "aspsessionid",
    "cfid",
    "cftoken",
    "ref",
    "ref_src",
    "mc_cid",
    "mc_eid",
    "fbclid",
    "gclid",
    "dclid",
    "msclkid",
    "yclid",
    "igshid",
    "_ga",
    "_gl",
];

/// Parameter name prefixes that never identify a record.
pub const IGNORED_PREFIXES: &[&str] = &["utm_"];

/// The parameters a feed's identity ignores.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdentityRules {
    /// From the config: added to the defaults (lowercase).
    extra: BTreeSet<String>,
    /// From the config: defaults that do identify records here (lowercase).
    keep: BTreeSet<String>,
    /// Learnt by [`learn_volatile`] (lowercase).
    learned: BTreeSet<String>,
}

impl IdentityRules {
    /// The defaults plus `ignore_params`, minus `keep_params`.
    pub fn new(ignore_params: &[String], keep_params: &[String]) -> IdentityRules {
        let lower = |v: &[String]| v.iter().map(|s| s.to_ascii_lowercase()).collect();
        IdentityRules {
            extra: lower(ignore_params),
            keep: lower(keep_params),
            learned: BTreeSet::new(),
        }
    }

    /// These rules plus parameters learnt as volatile.
    pub fn with_learned<I: IntoIterator<Item = String>>(mut self, names: I) -> IdentityRules {
        self.learned
            .extend(names.into_iter().map(|s| s.to_ascii_lowercase()));
        self
    }

    /// The learnt parameters, sorted.
    pub fn learned(&self) -> impl Iterator<Item = &str> {
        self.learned.iter().map(String::as_str)
    }

    /// True when parameter `name` with `value` is noise under these rules.
    pub fn ignores(&self, name: &str, value: &str) -> bool {
        let name = name.to_ascii_lowercase();
        if name.is_empty() || self.extra.contains(&name) || self.learned.contains(&name) {
            return true;
        }
        if self.keep.contains(&name) {
            return false;
        }
        DEFAULT_IGNORED_PARAMS.contains(&name.as_str())
            || IGNORED_PREFIXES.iter().any(|p| name.starts_with(p))
            || (name == "s" && value.len() == 32 && value.bytes().all(|b| b.is_ascii_hexdigit()))
    }

    /// The identity key of `link` (see the module header).
    pub fn key(&self, link: &Url) -> String {
        self.key_ignoring(link, None)
    }

    /// [`IdentityRules::key`], also ignoring parameter `extra`.
    fn key_ignoring(&self, link: &Url, extra: Option<&str>) -> String {
        let drop = |name: &str, value: &str| {
            self.ignores(name, value) || extra.is_some_and(|e| name.eq_ignore_ascii_case(e))
        };
        let mut url = link.clone();
        url.set_fragment(None);
        if url.path().contains(';') {
            let path: Vec<String> = url
                .path()
                .split('/')
                .map(|segment| {
                    let mut parts = segment.split(';');
                    let head = parts.next().unwrap_or("");
                    let kept: Vec<&str> = parts
                        .filter(|p| {
                            let (n, v) = p.split_once('=').unwrap_or((p, ""));
                            !drop(n, v)
                        })
                        .collect();
                    std::iter::once(head)
                        .chain(kept)
                        .collect::<Vec<_>>()
                        .join(";")
                })
                .collect();
            url.set_path(&path.join("/"));
        }
        if let Some(query) = url.query() {
            let kept: Vec<&str> = query
                .split('&')
                .filter(|pair| {
                    let (n, v) = pair.split_once('=').unwrap_or((pair, ""));
                    !drop(n, v)
                })
                .collect();
            let kept = kept.join("&");
            url.set_query((!kept.is_empty()).then_some(kept.as_str()));
        }
        url.to_string()
    }
}

/// Fewest records that must show the same change before a parameter is
/// learnt as volatile (one changed link proves nothing).
pub const MIN_LEARNING_RECORDS: usize = 2;

/// The parameter that is volatile between two consecutive runs of a feed,
/// if any: a parameter present in every `current` link such that
/// - dropping it still tells the current links apart (it does not identify
///   the records: `?id=` never qualifies),
/// - every current link that matches a `previous` link once it is dropped
///   carries a different value than that previous link (none kept it),
/// - and at least half of the current links (and at least
///   [`MIN_LEARNING_RECORDS`]) match a previous link that way (new records
///   on the page are allowed; a different page is not).
///
/// Parameters the rules already ignore are not considered. When several
/// qualify (they changed together) none is learnt: the change is not "one
/// parameter". Pure.
pub fn learn_volatile(rules: &IdentityRules, previous: &[Url], current: &[Url]) -> Option<String> {
    if current.len() < MIN_LEARNING_RECORDS || previous.is_empty() {
        return None;
    }
    let candidates = common_params(rules, current);
    let qualifying: Vec<String> = candidates
        .into_iter()
        .filter(|name| volatile_between(rules, name, previous, current))
        .collect();
    match qualifying.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// Query parameter names (lowercase) present in every link and not already
/// ignored.
fn common_params(rules: &IdentityRules, links: &[Url]) -> BTreeSet<String> {
    let names = |u: &Url| -> BTreeSet<String> {
        u.query_pairs()
            .filter(|(n, v)| !rules.ignores(n, v))
            .map(|(n, _)| n.to_ascii_lowercase())
            .collect()
    };
    let mut iter = links.iter();
    let Some(first) = iter.next() else {
        return BTreeSet::new();
    };
    iter.fold(names(first), |acc, u| {
        acc.intersection(&names(u)).cloned().collect()
    })
}

/// The value of parameter `name` (case-insensitive) in `link`.
fn value_of(link: &Url, name: &str) -> Option<String> {
    link.query_pairs()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.into_owned())
}

fn volatile_between(rules: &IdentityRules, name: &str, previous: &[Url], current: &[Url]) -> bool {
    let skeletons: Vec<String> = current
        .iter()
        .map(|u| rules.key_ignoring(u, Some(name)))
        .collect();
    if skeletons.iter().collect::<HashSet<_>>().len() != current.len() {
        return false;
    }
    let before: HashMap<String, Option<String>> = previous
        .iter()
        .map(|u| (rules.key_ignoring(u, Some(name)), value_of(u, name)))
        .collect();
    let mut changed = 0;
    for (link, skeleton) in current.iter().zip(&skeletons) {
        if let Some(old) = before.get(skeleton) {
            if *old == value_of(link, name) {
                return false;
            }
            changed += 1;
        }
    }
    changed >= MIN_LEARNING_RECORDS && changed * 2 >= current.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(list: &[&str]) -> Vec<Url> {
        list.iter().map(|s| Url::parse(s).unwrap()).collect()
    }

    #[test]
    fn defaults_drop_sessions_and_tracking_but_keep_the_rest_in_order() {
        let rules = IdentityRules::default();
        let key = |s: &str| rules.key(&Url::parse(s).unwrap());
        assert_eq!(
            key("https://B.example/viewtopic.php?f=2&t=9&sid=0123abcd#p4"),
            "https://b.example/viewtopic.php?f=2&t=9"
        );
        assert_eq!(
            key("https://b.example/a;jsessionid=ABC123/item;JSESSIONID=x?id=7&PHPSESSID=z"),
            "https://b.example/a/item?id=7"
        );
        assert_eq!(
            key("https://b.example/x?utm_source=a&ref=tw&mc_cid=1&p=2&fbclid=q"),
            "https://b.example/x?p=2"
        );
        // vBulletin's `s` is a 32-hex session hash; a search `s` stays.
        assert_eq!(
            key("https://b.example/showthread.php?s=0123456789abcdef0123456789abcdef&t=5"),
            "https://b.example/showthread.php?t=5"
        );
        assert_eq!(
            key("https://b.example/?s=rust"),
            "https://b.example/?s=rust"
        );
    }

    #[test]
    fn config_adds_and_keeps_parameters() {
        let rules = IdentityRules::new(&["visit".into()], &["ref".into()]);
        let key = |s: &str| rules.key(&Url::parse(s).unwrap());
        assert_eq!(
            key("https://b.example/x?ref=42&visit=9&sid=1"),
            "https://b.example/x?ref=42"
        );
    }

    #[test]
    fn a_parameter_that_changed_in_every_record_is_learnt() {
        let rules = IdentityRules::default();
        let before = urls(&[
            "https://f.example/topic?id=1&vk=aa11",
            "https://f.example/topic?id=2&vk=aa11",
            "https://f.example/topic?id=3&vk=aa11",
        ]);
        let after = urls(&[
            "https://f.example/topic?id=4&vk=bb22",
            "https://f.example/topic?id=1&vk=bb22",
            "https://f.example/topic?id=2&vk=bb22",
            "https://f.example/topic?id=3&vk=bb22",
        ]);
        assert_eq!(
            learn_volatile(&rules, &before, &after).as_deref(),
            Some("vk")
        );
        let learned = rules.with_learned(["vk".to_string()]);
        assert_eq!(
            learned.key(&after[1]),
            learned.key(&before[0]),
            "identity ignores it from then on"
        );
    }

    #[test]
    fn identifying_or_unchanged_parameters_are_not_learnt() {
        let rules = IdentityRules::default();
        // `id` changes, but it is what tells the records apart.
        let before = urls(&["https://f.example/t?id=1", "https://f.example/t?id=2"]);
        let after = urls(&["https://f.example/t?id=3", "https://f.example/t?id=4"]);
        assert_eq!(learn_volatile(&rules, &before, &after), None);
        // Same links: nothing changed.
        assert_eq!(learn_volatile(&rules, &before, &before), None);
        // One record kept its value: not volatile.
        let before = urls(&[
            "https://f.example/t?id=1&v=a",
            "https://f.example/t?id=2&v=a",
            "https://f.example/t?id=3&v=a",
        ]);
        let after = urls(&[
            "https://f.example/t?id=1&v=b",
            "https://f.example/t?id=2&v=b",
            "https://f.example/t?id=3&v=a",
        ]);
        assert_eq!(learn_volatile(&rules, &before, &after), None);
        // Two parameters changed together: not "one parameter".
        let before = urls(&[
            "https://f.example/t?id=1&v=a&w=a",
            "https://f.example/t?id=2&v=a&w=a",
        ]);
        let after = urls(&[
            "https://f.example/t?id=1&v=b&w=b",
            "https://f.example/t?id=2&v=b&w=b",
        ]);
        assert_eq!(learn_volatile(&rules, &before, &after), None);
        // A different page entirely: nothing matches.
        let other = urls(&[
            "https://f.example/u?id=8&v=c",
            "https://f.example/u?id=9&v=c",
        ]);
        assert_eq!(learn_volatile(&rules, &before, &other), None);
    }
}
