//! Extraction drift: telling "the site changed under us" from "the site is
//! quiet today", so a broken extraction never replaces a good feed.
//!
//! When a feed that used to find N records suddenly finds none or far
//! fewer, or its winning record pattern changes, the daemon keeps the
//! previous items published and marks the feed degraded. [`judge`] decides
//! that from the feed's recent *good* (published) runs; it is a pure
//! function over counts and pattern signatures.
//!
//! Rules (parameters in [`DriftParams`]):
//! - No verdict without history: fewer than `min_history` good runs is
//!   always [`Verdict::Stable`] (a new feed has nothing to drift from).
//! - Baseline = median record count of the newest up to `baseline_runs`
//!   good runs. The median, not the mean or the last run, so one odd run
//!   (a holiday page, a one-off mega-list) does not move it.
//! - Zero records when the baseline is ≥ 1 is always drift.
//! - Fewer than `min_ratio` × baseline records is drift, but only for
//!   baselines of at least `min_baseline`: a feed that lists 2 or 3 items
//!   swings by half on ordinary days.
//! - A pattern change is drift only when the newest `min_history` good runs
//!   agreed on one pattern, the new one differs, AND the count moved by more
//!   than `pattern_min_shift` from the baseline. A site that merely renames
//!   a class (same records, new signature) must not flap, and a site whose
//!   patterns already alternate has no pattern to drift from; a different
//!   pattern with a very different count is the mark of a redesign that
//!   made the miner pick another list (navigation, a sidebar, comments).
//!
//! Invariant: every reason is one full sentence that names the numbers it
//! compares, ready for `/health` and the index page.

use crate::extract::dom::{Document, NodeId};
use crate::pipeline::ListPage;

/// Thresholds of the drift rules (module header).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DriftParams {
    /// Good runs needed before any drift is reported (first runs of a feed
    /// are never degraded).
    pub min_history: usize,
    /// Count rule: fewer than this share of the baseline is drift (0.5:
    /// fewer than half).
    pub min_ratio: f64,
    /// Count rule: baselines below this never drift on count (small feeds
    /// vary too much); zero records still drift.
    pub min_baseline: usize,
    /// Baseline window: the median is taken over this many newest good runs.
    pub baseline_runs: usize,
    /// Pattern rule: a changed pattern is drift only when the count moved by
    /// more than this share of the baseline (0.3 = 30 %).
    pub pattern_min_shift: f64,
    /// New-normal rule ([`settled`]): this many drifted runs in a row that
    /// agree with each other are accepted as the site's new shape (0: never,
    /// a degraded feed then waits for a person).
    pub accept_after: usize,
}

impl Default for DriftParams {
    fn default() -> Self {
        DriftParams {
            min_history: 3,
            min_ratio: 0.5,
            min_baseline: 4,
            baseline_runs: 10,
            pattern_min_shift: 0.3,
            accept_after: 6,
        }
    }
}

/// What one run found: its record count and winning pattern signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation {
    pub records: usize,
    /// [`pattern_signature`] of the run's page (`None`: no group won).
    pub pattern: Option<String>,
}

/// The judgement of one run against the feed's history.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Stable,
    /// Keep the previous items; each reason is one sentence with numbers.
    Drifted {
        reasons: Vec<String>,
    },
}

impl Verdict {
    pub fn is_drifted(&self) -> bool {
        matches!(self, Verdict::Drifted { .. })
    }
}

/// Judge run `now` against `history` (the feed's good runs, newest first).
pub fn judge(history: &[Observation], now: &Observation, p: &DriftParams) -> Verdict {
    if history.is_empty() || history.len() < p.min_history {
        return Verdict::Stable;
    }
    let window = &history[..history.len().min(p.baseline_runs.max(1))];
    let baseline = median(window.iter().map(|o| o.records).collect());
    let runs = window.len();
    let base_text = number(baseline);
    let found = now.records as f64;
    let mut reasons = Vec::new();

    let too_few = p.min_baseline as f64 <= baseline && found < p.min_ratio * baseline;
    if (now.records == 0 && baseline >= 1.0) || too_few {
        reasons.push(format!(
            "found {} record{}, the last {runs} good runs found {base_text} (median)",
            now.records,
            if now.records == 1 { "" } else { "s" },
        ));
    }

    if let (Some(new), Some(old)) = (now.pattern.as_deref(), agreed_pattern(history, p)) {
        let shift = if baseline > 0.0 {
            (found - baseline).abs() / baseline
        } else if now.records > 0 {
            f64::INFINITY
        } else {
            0.0
        };
        if new != old && shift > p.pattern_min_shift {
            reasons.push(format!(
                "the record pattern changed from \"{old}\" (the last {} good runs) to \"{new}\", \
                 and the record count moved from {base_text} (median) to {}",
                p.min_history, now.records,
            ));
        }
    }

    if reasons.is_empty() {
        Verdict::Stable
    } else {
        Verdict::Drifted { reasons }
    }
}

/// The new-normal rule: true when `streak` (the current run and the
/// drifted runs right before it, newest first) holds at least
/// `accept_after` runs that all found records with one and the same
/// pattern, every count within `min_ratio` of the streak's median. The
/// daemon then publishes the run as good, so it becomes the new baseline.
///
/// Why: drift is judged against good runs only, so without this a site that
/// redesigned for good would stay degraded forever; requiring a consistent
/// streak keeps a broken page (nothing found, or results that jump around)
/// from ever being accepted.
pub fn settled(streak: &[Observation], p: &DriftParams) -> bool {
    if p.accept_after == 0 || streak.len() < p.accept_after {
        return false;
    }
    let recent = &streak[..p.accept_after];
    let Some(pattern) = recent[0].pattern.as_deref() else {
        return false;
    };
    let mid = median(recent.iter().map(|o| o.records).collect());
    recent.iter().all(|o| {
        let n = o.records as f64;
        o.records > 0
            && o.pattern.as_deref() == Some(pattern)
            && n >= p.min_ratio * mid
            && n * p.min_ratio <= mid
    })
}

/// The pattern the newest `min_history` good runs share, if they all have
/// the same one.
fn agreed_pattern<'h>(history: &'h [Observation], p: &DriftParams) -> Option<&'h str> {
    let recent = history.get(..p.min_history)?;
    let first = recent.first()?.pattern.as_deref()?;
    recent
        .iter()
        .all(|o| o.pattern.as_deref() == Some(first))
        .then_some(first)
}

/// Median of a non-empty list (mean of the middle two for even lengths).
fn median(mut xs: Vec<usize>) -> f64 {
    xs.sort_unstable();
    let n = xs.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => xs[n / 2] as f64,
        _ => (xs[n / 2 - 1] + xs[n / 2]) as f64 / 2.0,
    }
}

/// `12` for whole numbers, `12.5` otherwise.
fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// Class tokens that say what a thing is in a state, not what it is.
const STATE_CLASSES: &[&str] = &[
    "active", "selected", "current", "open", "closed", "hidden", "visible", "first", "last", "odd",
    "even", "loaded", "loading",
];

/// Class tokens generated per build (CSS-in-JS) or per state (`is-*`).
const VOLATILE_PREFIXES: &[&str] = &["is-", "has-", "css-", "sc-", "jsx-", "svelte-", "ng-"];

/// True for class tokens that survive re-deploys and page states: no
/// digits (grid sizes, ids and build hashes carry them), no state words,
/// no generated prefixes.
fn stable_class(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    !token.is_empty()
        && token.len() <= 40
        && !token.bytes().any(|b| b.is_ascii_digit())
        && !STATE_CLASSES.contains(&lower.as_str())
        && !VOLATILE_PREFIXES.iter().any(|p| lower.starts_with(p))
}

/// `tag.class1.class2` with the stable class tokens, sorted.
fn step(doc: &Document, id: NodeId) -> Option<String> {
    let el = doc.element(id)?;
    let mut classes: Vec<&str> = el
        .attr("class")
        .unwrap_or("")
        .split_whitespace()
        .filter(|c| stable_class(c))
        .collect();
    classes.sort_unstable();
    classes.dedup();
    let mut s = el.name.to_string();
    for c in classes {
        s.push('.');
        s.push_str(c);
    }
    Some(s)
}

/// A stable description of the page's winning record pattern: the tag path
/// from `<html>` down to the winning group's container (tag names plus
/// stable class tokens; no ids, no tokens with digits) followed by the
/// record root tag, e.g. `html > body > main.content > ul.posts > li`.
/// `None` when no group won. Two pages of one site with different text (and
/// a different number of records) give the same signature.
/// Selector feeds sign with their records selector; `group = N` feeds with
/// the chosen group.
pub fn pattern_signature(page: &ListPage) -> Option<String> {
    // Records from embedded data: their place in the data is the pattern.
    if let Some(location) = &page.chosen.embedded {
        return Some(format!("embedded {location}"));
    }
    if let Some(sig) = page
        .chosen
        .select_signature()
        .filter(|_| !page.chosen.fell_back)
    {
        return Some(sig);
    }
    let doc = &page.doc;
    let group = page.detection.groups.get(page.chosen.group?)?;
    let first = group.records.first()?;
    if first.start as usize >= doc.nodes.len() {
        return None;
    }
    // Paper mode has no container: the first record's parent stands in.
    let container = group.container.or(doc.node(first.start).parent)?;
    let mut steps: Vec<String> = std::iter::once(container)
        .chain(doc.ancestors(container))
        .filter_map(|id| step(doc, id))
        .collect();
    steps.reverse();
    steps.push(
        doc.element(first.start)
            .map_or_else(|| "#text".to_string(), |e| e.name.to_string()),
    );
    Some(steps.join(" > "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dates::DateContext;
    use crate::extract::patterns::MiningParams;
    use crate::pipeline::analyze_list;
    use chrono::{FixedOffset, TimeZone, Utc};
    use url::Url;

    const NEWS: &str = "main > section.latest > ul.story-list > li";

    fn obs(records: usize, pattern: &str) -> Observation {
        Observation {
            records,
            pattern: Some(pattern.to_string()),
        }
    }

    /// Newest first, as the store returns them.
    fn history(counts: &[usize], pattern: &str) -> Vec<Observation> {
        counts.iter().map(|&n| obs(n, pattern)).collect()
    }

    fn reasons(v: Verdict) -> Vec<String> {
        match v {
            Verdict::Drifted { reasons } => reasons,
            Verdict::Stable => panic!("expected drift"),
        }
    }

    #[test]
    fn steady_news_site_is_stable() {
        let h = history(&[20, 21, 20, 19, 20, 22, 20, 20, 18, 20, 21], NEWS);
        let p = DriftParams::default();
        assert_eq!(judge(&h, &obs(20, NEWS), &p), Verdict::Stable);
        assert_eq!(judge(&h, &obs(17, NEWS), &p), Verdict::Stable);
    }

    #[test]
    fn redesign_that_loses_the_list_is_drift() {
        let h = history(&[20, 21, 20, 19, 20], NEWS);
        let p = DriftParams::default();
        let r = reasons(judge(
            &h,
            &Observation {
                records: 0,
                pattern: None,
            },
            &p,
        ));
        assert_eq!(
            r,
            ["found 0 records, the last 5 good runs found 20 (median)"]
        );
        // The miner now picks the footer links: few records, new pattern.
        let footer = "footer.site-footer > ul.links > li";
        let r = reasons(judge(&h, &obs(3, footer), &p));
        assert_eq!(r.len(), 2, "{r:?}");
        assert_eq!(
            r[0],
            "found 3 records, the last 5 good runs found 20 (median)"
        );
        assert!(r[1].contains(footer) && r[1].contains(NEWS), "{}", r[1]);
        assert!(r[1].contains("from 20 (median) to 3"), "{}", r[1]);
        // Or the navigation menu: many more records, new pattern.
        let nav = "header > nav.primary > ul > li";
        let r = reasons(judge(&h, &obs(45, nav), &p));
        assert_eq!(r.len(), 1);
        assert!(
            r[0].starts_with("the record pattern changed from"),
            "{}",
            r[0]
        );
    }

    #[test]
    fn renamed_class_with_the_same_count_does_not_flap() {
        let h = history(&[20, 21, 20, 19, 20], NEWS);
        let renamed = "main > section.latest > ul.stories > li";
        let p = DriftParams::default();
        assert_eq!(judge(&h, &obs(21, renamed), &p), Verdict::Stable);
        assert_eq!(judge(&h, &obs(15, renamed), &p), Verdict::Stable); // −25 %
        assert!(judge(&h, &obs(13, renamed), &p).is_drifted()); // −35 %
        // Once the rename is history, the new pattern is the norm.
        let mut h2 = history(&[20, 20, 21], renamed);
        h2.extend(h);
        assert_eq!(judge(&h2, &obs(20, renamed), &p), Verdict::Stable);
    }

    #[test]
    fn patterns_that_already_alternate_never_count_as_changed() {
        let h = vec![obs(12, NEWS), obs(30, "div.grid > article"), obs(12, NEWS)];
        let p = DriftParams::default();
        assert_eq!(
            judge(&h, &obs(30, "div.grid > article"), &p),
            Verdict::Stable
        );
    }

    #[test]
    fn slow_growth_is_stable() {
        // A blog whose front page grew from 10 to 19 posts over ten runs.
        let counts: Vec<usize> = (10..20).rev().collect();
        let h = history(&counts, NEWS);
        let p = DriftParams::default();
        assert_eq!(judge(&h, &obs(20, NEWS), &p), Verdict::Stable);
        assert_eq!(judge(&h, &obs(25, NEWS), &p), Verdict::Stable);
    }

    #[test]
    fn quiet_day_with_fewer_items_is_stable_far_fewer_is_drift() {
        let h = history(&[12, 12, 11, 12, 13], NEWS);
        let p = DriftParams::default();
        assert_eq!(judge(&h, &obs(7, NEWS), &p), Verdict::Stable);
        assert_eq!(judge(&h, &obs(6, NEWS), &p), Verdict::Stable); // exactly half
        let r = reasons(judge(&h, &obs(5, NEWS), &p));
        assert_eq!(
            r,
            ["found 5 records, the last 5 good runs found 12 (median)"]
        );
        // A small feed swings by half on ordinary days; only zero is drift.
        let small = history(&[3, 3, 2, 3], NEWS);
        assert_eq!(judge(&small, &obs(1, NEWS), &p), Verdict::Stable);
        let r = reasons(judge(&small, &obs(0, NEWS), &p));
        assert_eq!(
            r,
            ["found 0 records, the last 4 good runs found 3 (median)"]
        );
    }

    #[test]
    fn baseline_is_the_median_of_the_last_ten_good_runs() {
        let p = DriftParams::default();
        // Even count: median is the mean of the middle two (13).
        let h = history(&[10, 14, 12, 16], NEWS);
        assert_eq!(judge(&h, &obs(7, NEWS), &p), Verdict::Stable);
        let r = reasons(judge(&h, &obs(6, NEWS), &p));
        assert_eq!(
            r,
            ["found 6 records, the last 4 good runs found 13 (median)"]
        );
        // Runs beyond the tenth do not count: the list shrank for good a
        // while ago and the old size is forgotten.
        let mut h = history(&[8; 10], NEWS);
        h.extend(history(&[40; 20], NEWS));
        assert_eq!(judge(&h, &obs(8, NEWS), &p), Verdict::Stable);
        // One odd run does not move the median.
        let h = history(&[20, 20, 200, 20, 20], NEWS);
        assert!(judge(&h, &obs(9, NEWS), &p).is_drifted());
        // Singular for one record.
        let h = history(&[4, 4, 3, 4], NEWS);
        let r = reasons(judge(&h, &obs(1, NEWS), &p));
        assert_eq!(r, ["found 1 record, the last 4 good runs found 4 (median)"]);
    }

    #[test]
    fn first_runs_without_history_are_stable() {
        let p = DriftParams::default();
        let nothing = Observation {
            records: 0,
            pattern: None,
        };
        assert_eq!(judge(&[], &nothing, &p), Verdict::Stable);
        assert_eq!(judge(&history(&[20], NEWS), &nothing, &p), Verdict::Stable);
        assert_eq!(
            judge(&history(&[20, 20], NEWS), &obs(2, "table > tr"), &p),
            Verdict::Stable
        );
        assert!(judge(&history(&[20, 20, 20], NEWS), &nothing, &p).is_drifted());
    }

    #[test]
    fn a_consistent_new_shape_is_accepted_after_a_streak() {
        let p = DriftParams::default();
        let grid = "main > div.grid > article";
        // Six runs in a row of the redesigned site: 30ish cards.
        let streak = history(&[31, 30, 30, 29, 30, 30], grid);
        assert!(settled(&streak, &p));
        assert!(!settled(&streak[..5], &p), "too short");
        // A maintenance page finds nothing: never accepted.
        let broken = vec![
            Observation {
                records: 0,
                pattern: None
            };
            8
        ];
        assert!(!settled(&broken, &p));
        // Results that jump around are not a new shape.
        let jumpy = history(&[31, 4, 30, 29, 30, 30], grid);
        assert!(!settled(&jumpy, &p));
        let mixed = {
            let mut h = history(&[30, 30, 30], grid);
            h.extend(history(&[30, 30, 30], NEWS));
            h
        };
        assert!(!settled(&mixed, &p));
        let never = DriftParams {
            accept_after: 0,
            ..p
        };
        assert!(!settled(&streak, &never));
    }

    fn analyze(html: &str) -> ListPage {
        let ctx = DateContext {
            now: Utc.with_ymd_and_hms(2026, 11, 20, 12, 0, 0).unwrap(),
            offset: FixedOffset::east_opt(0).unwrap(),
            day_first: false,
            dash_month_first: false,
            year_near: None,
            section_dated: false,
        };
        let url = Url::parse("https://news.example.org/latest").unwrap();
        analyze_list(html, &url, &MiningParams::default(), &ctx)
    }

    /// A news list page in the `<ul>` layout; `col` changes a grid class.
    fn ul_page(col: u32, stories: &[(&str, &str)]) -> String {
        let mut lis = String::new();
        for (i, (title, summary)) in stories.iter().enumerate() {
            lis.push_str(&format!(
                "<li class=\"story story-{i}\" id=\"post-{}\"><h2 class=\"headline\"><a href=\"/2026/11/{}\">{title}</a></h2>\
                 <p class=\"dek\">{summary}</p><span class=\"byline\">By Staff Reporter</span></li>\n",
                1000 + i * 7,
                title.to_lowercase().replace(' ', "-"),
            ));
        }
        format!(
            "<!doctype html><html><head><title>Latest</title></head><body>\
             <header><nav><a href=\"/\">Home</a> <a href=\"/about\">About</a></nav></header>\
             <main class=\"content col-{col}\"><section class=\"latest is-loaded\"><h1>Latest news</h1>\
             <ul class=\"story-list\">{lis}</ul></section></main>\
             <footer><p>© 2026 Example News</p></footer></body></html>"
        )
    }

    /// The same site after a redesign: a table of stories.
    fn table_page(stories: &[(&str, &str)]) -> String {
        let mut rows = String::new();
        for (title, summary) in stories {
            rows.push_str(&format!(
                "<tr><td class=\"title\"><a href=\"/n/{}\">{title}</a></td><td>{summary}</td><td>Staff</td></tr>\n",
                title.to_lowercase().replace(' ', "-")
            ));
        }
        format!(
            "<html><body><div id=\"page\"><h1>Latest news</h1><table class=\"stories\"><tbody>{rows}</tbody></table></div></body></html>"
        )
    }

    const MONDAY: &[(&str, &str)] = &[
        (
            "Council approves budget",
            "After four hours of debate the council passed the budget seven to two.",
        ),
        (
            "River levels expected to peak",
            "The water agency warns residents along the east bank to prepare.",
        ),
        (
            "Free school lunches extended",
            "The program will cover every pupil in the district from January.",
        ),
        (
            "New bridge opens to traffic",
            "Commuters saved twenty minutes on the first morning of operation.",
        ),
        (
            "Library hours extended",
            "Branches will stay open until nine on weekdays starting next month.",
        ),
    ];
    const TUESDAY: &[(&str, &str)] = &[
        (
            "Storm warning for the coast",
            "Forecasters expect gusts above one hundred kilometres per hour tonight.",
        ),
        (
            "Hospital wing reopens",
            "The renovated wing adds forty beds and a new maternity ward downstairs.",
        ),
        (
            "Local team wins the cup",
            "Thousands lined the streets to greet the players on their return home.",
        ),
        (
            "Market square redesign unveiled",
            "Architects presented three options at a crowded public meeting.",
        ),
        (
            "Tram line delayed again",
            "The operator blames supply problems for the latest postponement.",
        ),
        (
            "Museum receives rare donation",
            "A collector left two hundred medieval manuscripts to the city museum.",
        ),
    ];

    #[test]
    fn same_structure_different_text_gives_the_same_signature() {
        let monday = analyze(&ul_page(8, MONDAY));
        let tuesday = analyze(&ul_page(12, TUESDAY));
        assert_eq!(monday.items.len(), MONDAY.len());
        assert_eq!(tuesday.items.len(), TUESDAY.len());
        let a = pattern_signature(&monday).unwrap();
        let b = pattern_signature(&tuesday).unwrap();
        assert_eq!(a, b);
        assert_eq!(
            a,
            "html > body > main.content > section.latest > ul.story-list > li"
        );
    }

    #[test]
    fn different_structure_gives_a_different_signature() {
        let before = pattern_signature(&analyze(&ul_page(8, MONDAY))).unwrap();
        let after_page = analyze(&table_page(TUESDAY));
        assert_eq!(after_page.items.len(), TUESDAY.len());
        let after = pattern_signature(&after_page).unwrap();
        assert_ne!(before, after);
        assert!(after.ends_with("table.stories > tbody > tr"), "{after}");
        assert!(!after.contains("page"), "ids never enter: {after}");
    }

    #[test]
    fn no_winning_group_has_no_signature() {
        let page = analyze(
            "<html><body><h1>Maintenance</h1><p>We will be back shortly. Thank you for your patience.</p></body></html>",
        );
        assert_eq!(pattern_signature(&page), None);
    }

    #[test]
    fn unstable_class_tokens_are_dropped() {
        for t in [
            "col-8",
            "css-1x2y3z",
            "is-active",
            "active",
            "sc-bdVaJa",
            "post-1234",
        ] {
            assert!(!stable_class(t), "{t}");
        }
        for t in ["story-list", "headline", "content", "latest"] {
            assert!(stable_class(t), "{t}");
        }
    }
}
