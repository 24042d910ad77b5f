//! One list page through every pure stage: parse → tag sequence → mine →
//! records → items, with the page's embedded data (`extract::embedded`)
//! read beside the DOM. The async, I/O-bearing run of a whole feed (fetch,
//! bodies, publish) lives in [`crate::refresh`]; this module has no I/O so it
//! can be measured and tested on plain strings.
//!
//! Invariants: the items are in page (or data) order, one per record of the
//! winning group, with duplicate guids removed (first occurrence kept, its
//! empty fields filled from the repeats); an
//! embedded-data group wins only the automatic choice, only when it passed
//! its rules and outscores the DOM's winner on the same scale (a tie goes
//! to the DOM); `group = N` and `[feed.select]` always mean the DOM.

use std::time::{Duration, Instant};

use url::Url;

use crate::extract::dates::DateContext;
use crate::extract::dom::{self, Document};
use crate::extract::embedded::{self, Embedded};
use crate::extract::items::{self, Item};
use crate::extract::patterns::{self, Mining, MiningParams};
use crate::extract::records::{self, Detection, Record, RecordGroup};
use crate::extract::section_dates;
use crate::extract::selectors::{self, CssDoc, ListChoice};
use crate::extract::sequence::{self, TagSequence};
use crate::extract::shell::{self, AppShell};

/// Wall time of each stage.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timings {
    pub parse: Duration,
    pub mine: Duration,
    /// Reading the embedded data and finding its groups.
    pub embedded: Duration,
    pub items: Duration,
}

impl Timings {
    pub fn total(&self) -> Duration {
        self.parse + self.mine + self.embedded + self.items
    }
}

/// The advice for a page built by JavaScript.
pub const RENDER_HINT: &str = "this page is built by JavaScript: its records are not in the HTML; try `render = \"chromium\"` in its [[feed]] table (or `feedmine preview --render`)";

/// Everything learnt about one list page.
#[derive(Debug, Clone)]
pub struct ListPage {
    pub doc: Document,
    pub seq: TagSequence,
    pub mining: Mining,
    pub detection: Detection,
    /// Base URL links were resolved against (`<base href>` or the page URL).
    pub base: Url,
    pub items: Vec<Item>,
    pub timings: Timings,
    /// How the items were chosen (automatic winner, a group, selectors).
    pub chosen: Chosen,
    /// Record groups found in the data the page embeds for its scripts.
    pub embedded: Embedded,
    /// Set when the page looks like an app shell (see `extract::shell`).
    pub shell: Option<AppShell>,
}

impl ListPage {
    /// What a reader of `preview` or of the run's message should know about
    /// where the records came from: the embedded data that was used, or,
    /// when the page gave nothing and looks like an app shell, that its
    /// records are built by JavaScript.
    pub fn hint(&self) -> Option<String> {
        if let Some(location) = &self.chosen.embedded {
            return Some(format!(
                "records read from data embedded in the page ({location}); no browser needed"
            ));
        }
        match &self.shell {
            Some(shell) if self.items.is_empty() => Some(format!("{RENDER_HINT} ({shell})")),
            _ => None,
        }
    }
}

/// Which records the items came from, and what a pinned choice noticed.
#[derive(Debug, Clone, Default)]
pub struct Chosen {
    /// Index into `detection.groups` of the items' group (`None` when
    /// selectors chose the records, or nothing was found).
    pub group: Option<usize>,
    /// `[feed.select]`: what the records selector matched.
    pub select: Option<SelectOutcome>,
    /// Sentences for logs and `/health`: a pinned choice that found nothing,
    /// or that automatic detection now disagrees with.
    pub notes: Vec<String>,
    /// The pinned choice found nothing and automatic detection was used
    /// (`fallback = "auto"`).
    pub fell_back: bool,
    /// The records came from embedded data: its `source path`.
    pub embedded: Option<String>,
}

/// The outcome of a `records` selector on one page.
#[derive(Debug, Clone, Default)]
pub struct SelectOutcome {
    pub records_selector: String,
    /// Records selected (outermost matches, capped).
    pub records: usize,
    /// Matches nested in other matches, and matches beyond the cap.
    pub nested: usize,
    pub capped: usize,
    /// Records dropped for having neither title nor link, or a repeated guid.
    pub skipped: usize,
    /// Per field: records on which the field's selector found nothing.
    pub missing: std::collections::BTreeMap<&'static str, usize>,
}

impl Chosen {
    /// The pattern signature drift compares for selector feeds.
    pub fn select_signature(&self) -> Option<String> {
        self.select
            .as_ref()
            .map(|s| format!("select: {}", s.records_selector))
    }
}

/// Analyse decoded list-page HTML fetched from `page_url` (its final URL
/// after redirects).
pub fn analyze_list(
    html: &str,
    page_url: &Url,
    params: &MiningParams,
    dates: &DateContext,
) -> ListPage {
    analyze_list_with(html, page_url, params, dates, &ListChoice::Auto)
}

/// [`analyze_list`] with the feed's choice of records (`group`, `select`).
pub fn analyze_list_with(
    html: &str,
    page_url: &Url,
    params: &MiningParams,
    dates: &DateContext,
    choice: &ListChoice,
) -> ListPage {
    let t0 = Instant::now();
    let doc = dom::parse(html);
    let t1 = Instant::now();
    let seq = sequence::flatten(&doc);
    let mining = patterns::mine(&seq, params);
    let detection = records::detect(&doc, &seq, &mining, params);
    let t2 = Instant::now();
    let visible = usize::try_from(seq.total_text()).unwrap_or(usize::MAX);
    let embedded = embedded::find(html, &doc.scripts, visible, params, dates);
    let shell = shell::detect(&doc, visible, &embedded.scripts, html);
    let t3 = Instant::now();
    let base = items::base_url(&doc, page_url);
    let (mut items, mut chosen) = choose_items(&doc, &detection, &base, dates, choice);
    if let Some(g) = embedded_winner(&detection, &embedded, choice, &chosen) {
        let found = embedded::items(g, &base);
        if !found.is_empty() {
            items = found;
            chosen.group = None;
            chosen.embedded = Some(g.location());
        }
    }
    let t4 = Instant::now();
    ListPage {
        timings: Timings {
            parse: t1 - t0,
            mine: t2 - t1,
            embedded: t3 - t2,
            items: t4 - t3,
        },
        doc,
        seq,
        mining,
        detection,
        base,
        items,
        chosen,
        embedded,
        shell,
    }
}

/// The embedded-data group that beats the DOM's automatic winner, if any
/// (see the module header).
fn embedded_winner<'e>(
    detection: &Detection,
    embedded: &'e Embedded,
    choice: &ListChoice,
    chosen: &Chosen,
) -> Option<&'e embedded::EmbeddedGroup> {
    let automatic = matches!(choice, ListChoice::Auto) || chosen.fell_back;
    let best = embedded.best()?;
    let dom = detection.winner().map_or(f64::NEG_INFINITY, |g| g.score);
    (automatic && best.score > dom).then_some(best)
}

/// Items of group `index` (records with neither title nor link and repeated
/// guids dropped).
fn group_items(
    doc: &Document,
    detection: &Detection,
    index: usize,
    base: &Url,
    dates: &DateContext,
) -> Vec<Item> {
    detection
        .groups
        .get(index)
        .map(|g| items_of_group(doc, g, base, dates))
        .unwrap_or_default()
}

/// Drop items with neither title nor link, and merge repeated guids into
/// their first (`items::without_repeats`); count both.
fn keep_usable(all: impl Iterator<Item = Item>) -> (Vec<Item>, usize) {
    let mut total = 0;
    let usable: Vec<Item> = all
        .inspect(|_| total += 1)
        .filter(|it| !it.title.is_empty() || it.link.is_some())
        .collect();
    let kept = items::without_repeats(usable);
    let skipped = total - kept.len();
    (kept, skipped)
}

/// The items the feed's [`ListChoice`] picks, and what it noticed.
fn choose_items(
    doc: &Document,
    detection: &Detection,
    base: &Url,
    dates: &DateContext,
    choice: &ListChoice,
) -> (Vec<Item>, Chosen) {
    let auto = |chosen: Chosen| {
        let group = detection.winner().map(|_| 0);
        let items = group.map_or_else(Vec::new, |i| group_items(doc, detection, i, base, dates));
        (items, Chosen { group, ..chosen })
    };
    match choice {
        ListChoice::Auto => auto(Chosen::default()),
        ListChoice::Group {
            rank,
            fallback_auto,
        } => {
            let index = rank.saturating_sub(1);
            let items = group_items(doc, detection, index, base, dates);
            if !items.is_empty() {
                let chosen = Chosen {
                    group: Some(index),
                    ..Chosen::default()
                };
                return (items, chosen);
            }
            let note = format!(
                "group = {rank} found nothing: the page has {} ranked groups now",
                detection.groups.len()
            );
            let chosen = Chosen {
                notes: vec![note],
                fell_back: *fallback_auto,
                ..Chosen::default()
            };
            if *fallback_auto {
                auto(chosen)
            } else {
                (Vec::new(), chosen)
            }
        }
        ListChoice::Select {
            spec,
            fallback_auto,
        } => {
            let (items, chosen) = select_items(doc, detection, base, dates, spec);
            if items.is_empty() && *fallback_auto {
                auto(Chosen {
                    fell_back: true,
                    ..chosen
                })
            } else {
                (items, chosen)
            }
        }
    }
}

/// Items by `[feed.select]`, with a note when automatic detection disagrees.
fn select_items(
    doc: &Document,
    detection: &Detection,
    base: &Url,
    dates: &DateContext,
    spec: &selectors::SelectSpec,
) -> (Vec<Item>, Chosen) {
    let mut chosen = Chosen::default();
    let compiled = match spec.compile() {
        Ok(c) => c,
        Err((field, e)) => {
            // Validated at load; only reachable through a hand-built config.
            chosen.notes.push(format!("select.{field}: {e}"));
            return (Vec::new(), chosen);
        }
    };
    let css = CssDoc::new(doc);
    let sel = selectors::apply(doc, &css, &compiled, base, dates);
    let (items, skipped) = keep_usable(sel.items.into_iter());
    let outcome = SelectOutcome {
        records_selector: spec.records.clone(),
        records: sel.selection.records.len(),
        nested: sel.selection.nested,
        capped: sel.selection.capped,
        skipped,
        missing: sel.missing,
    };
    if let Some(note) = disagreement(doc, &css, detection, &sel.selection.records, &outcome) {
        chosen.notes.push(note);
    }
    if css.out_of_steps() {
        chosen.notes.push(format!(
            "a selector took more than its work budget ({} moves per element; a `~` over a long list?): some matches may be missing",
            selectors::MAX_STEPS_PER_ELEMENT
        ));
    }
    chosen.select = Some(outcome);
    (items, chosen)
}

/// A sentence when the selected records and the automatic winner differ
/// (naming the winner's selector so that re-pinning is one command), or
/// when the selector matched nothing.
fn disagreement(
    doc: &Document,
    css: &CssDoc<'_>,
    detection: &Detection,
    selected: &[records::Record],
    outcome: &SelectOutcome,
) -> Option<String> {
    let winner = detection.winner();
    let same = winner.is_some_and(|g| {
        g.records.len() == selected.len()
            && g.records
                .iter()
                .zip(selected)
                .all(|(a, b)| a.start == b.start)
    });
    if same && !selected.is_empty() {
        return None;
    }
    let auto = match winner {
        Some(g) => match selectors::group_selector(doc, css, &g.records) {
            Some(s) => format!(
                "automatic detection finds {} records at \"{s}\"",
                g.records.len()
            ),
            None => format!(
                "automatic detection finds {} records at {} (no stable selector)",
                g.records.len(),
                g.selector
            ),
        },
        None => "automatic detection finds no list either".to_string(),
    };
    let head = if selected.is_empty() {
        format!(
            "the records selector \"{}\" matches nothing",
            outcome.records_selector
        )
    } else {
        format!(
            "the records selector \"{}\" matches {} records",
            outcome.records_selector,
            selected.len()
        )
    };
    Some(format!("{head}; {auto}"))
}

/// The items of one record group, in page order, without records that
/// have neither title nor link, duplicate guids merged into the first
/// (`items::without_repeats`), and without the few lines that lead to no
/// article (`items::without_strays`).
pub fn items_of_group(
    doc: &Document,
    group: &RecordGroup,
    base: &Url,
    dates: &DateContext,
) -> Vec<Item> {
    let list_dates = items::list_dates(doc, group.records.iter().chain(&group.stragglers), dates);
    let dates = &list_dates.dates;
    let plan = items::plan_titles(doc, &group.records, dates);
    // A straggler is a record of its own shape: it plans its own title,
    // unless it is a twin of the records (a live blog's pinned post).
    let interrupting = items::interruptions(doc, &group.records);
    let mut kept: Vec<(Record, bool)> = group
        .records
        .iter()
        .zip(interrupting)
        .filter(|&(r, interrupts)| !interrupts && !plan.activity.contains(&r.start))
        .map(|(r, _)| r)
        .filter(|r| !items::is_deleted_entry(doc, r, group.thread || plan.headless))
        .map(|r| (*r, false))
        .chain(group.stragglers.iter().map(|r| (*r, true)))
        .collect();
    kept.sort_by_key(|(r, _)| r.start);
    let records: Vec<Record> = kept.iter().map(|(r, _)| *r).collect();
    let all = section_dates::items_in_sections(doc, &records, dates, |i, reading| {
        let (r, straggler) = &kept[i];
        if *straggler && !group.is_twin(doc, r) {
            let own = items::plan_titles(doc, std::slice::from_ref(r), dates);
            items::item_from_record(doc, r, base, reading, &own)
        } else {
            items::item_from_record(doc, r, base, reading, &plan)
        }
    });
    let mut all = items::without_house_promos(doc, &records, all);
    items::without_list_numbering(&mut all);
    let (mut found, _) = keep_usable(all.into_iter());
    // A "view all" link closing (or opening) the list is not a record.
    if let Some((last, rest)) = found.split_last()
        && items::is_listing_link(last, rest)
    {
        found.pop();
    }
    if let Some((first, rest)) = found.split_first()
        && items::is_listing_link(first, rest)
    {
        found.remove(0);
    }
    items::without_unreleased(&mut found);
    list_dates.tell_in_shown_offset(&mut found);
    // Paper mode's groups (no container) keep the paper's records as
    // they are: the strays and the titles' dates are a structural reading
    // of a list.
    if group.container.is_some() {
        items::without_strays(&mut found, base);
        items::dated_by_titles(&mut found, dates);
        items::dated_by_links(&mut found, base, dates);
    }
    found
}

/// The items of a later page of a list whose first page's winning group
/// sits at `selector` (its [`RecordGroup::selector`]): the group of `page`
/// at the same place, winner or not (a last page may hold too few records
/// to win). `None` when the page has no such group.
pub fn items_like(page: &ListPage, selector: &str, dates: &DateContext) -> Option<Vec<Item>> {
    let group = page
        .detection
        .groups
        .iter()
        .find(|g| g.selector == selector)?;
    Some(items_of_group(&page.doc, group, &page.base, dates))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::selectors::SelectSpec;

    fn page() -> String {
        let mut h = String::from("<html><body><nav><ul>");
        for n in ["Home", "News", "Sport", "Weather", "About"] {
            h += &format!("<li><a href='/{n}'>{n}</a></li>");
        }
        h += "</ul></nav><main><div class='posts'>";
        for i in 1..=6 {
            h += &format!(
                "<article class='post'><h2><a href='/p/{i}'>Story number {i} about the harbour</a></h2>\
                 <p>Several words of summary for story {i}, long enough to matter.</p></article>"
            );
        }
        h + "</div></main></body></html>"
    }

    /// A news list split by "Today" / "Yesterday" / a dated heading: the
    /// records without a date of their own take their section's day,
    /// marked relative when the heading moves with the clock; a record's
    /// own date is kept.
    #[test]
    fn undated_records_take_their_day_heading_and_own_dates_win() {
        let mut html = String::from("<html><body><main><div class=days>");
        for (day, stories) in [("Today", 3), ("Yesterday", 2), ("Thursday 7 March 2024", 2)] {
            html += &format!("<h2>{day}</h2><ul class=stories>");
            for i in 0..stories {
                let own = if day == "Yesterday" && i == 1 {
                    "<span class=when>1 March 2024</span>"
                } else {
                    ""
                };
                html += &format!(
                    "<li><a href='/{}/{i}'>Harbour story {i} filed under {day}</a>{own}\
                     <p>A few words of summary for this story, long enough.</p></li>",
                    day.len()
                );
            }
            html += "</ul>";
        }
        html += "</div></main></body></html>";
        let dates = DateContext {
            now: chrono::TimeZone::with_ymd_and_hms(&chrono::Utc, 2024, 3, 9, 18, 0, 0).unwrap(),
            offset: chrono::FixedOffset::east_opt(0).unwrap(),
            day_first: false,
            dash_month_first: false,
            year_near: None,
            section_dated: false,
        };
        let page = analyze_list(
            &html,
            &Url::parse("https://x.example/").unwrap(),
            &MiningParams::default(),
            &dates,
        );
        let got: Vec<(String, bool)> = page
            .items
            .iter()
            .map(|it| {
                let day = it
                    .date
                    .map(|d| d.date_naive().to_string())
                    .unwrap_or_default();
                (day, it.date_relative)
            })
            .collect();
        let want = [
            ("2024-03-09", true),
            ("2024-03-09", true),
            ("2024-03-09", true),
            ("2024-03-08", true),
            ("2024-03-01", false),
            ("2024-03-07", false),
            ("2024-03-07", false),
        ]
        .map(|(d, r)| (d.to_owned(), r));
        assert_eq!(got, want);
    }

    /// Regression: a job board puts a "Get new jobs by email" box among
    /// its results, in an `li` of the results' own class; it became an
    /// item titled by the link in its fine print ("Terms").
    #[test]
    fn a_signup_box_among_the_results_is_no_item() {
        let mut html = String::from("<html><body><main><ul class=results>");
        for i in 1..=6 {
            html += &format!(
                "<li class=result-item><div class=job-card><h2><a href='/job/{i}'>Data analyst                  number {i}</a></h2><div class=company><a href='/cmp/{i}'>Company {i}</a></div>                 <p>Evaluate programme outcomes and prepare reports, role {i}.</p></div></li>"
            );
            if i == 3 {
                html += "<li class='result-item result-item--alert'><div class=inline-alert>                         <h3>Get new data analyst jobs by email</h3><form action='/alerts'>                         <input type=email name=email><button>Activate</button></form>                         <p>By creating an alert you agree to our <a href='/legal/terms'>Terms</a>.</p>                         </div></li>";
            }
        }
        html += "</ul></main></body></html>";
        let page = analyze_list(
            &html,
            &Url::parse("https://jobs.example/").unwrap(),
            &MiningParams::default(),
            &crate::commands::default_date_context(),
        );
        let titles: Vec<&str> = page.items.iter().map(|it| it.title.as_str()).collect();
        assert_eq!(titles.len(), 6, "{titles:?}");
        assert!(
            titles.iter().all(|t| t.starts_with("Data analyst")),
            "{titles:?}"
        );
        // A card's own form (save, add to cart) asks for no address.
        let save = html.replace(
            "<p>Evaluate",
            "<form><input type=hidden name=jk><button>Save</button></form><p>Evaluate",
        );
        let page = analyze_list(
            &save,
            &Url::parse("https://jobs.example/").unwrap(),
            &MiningParams::default(),
            &crate::commands::default_date_context(),
        );
        assert_eq!(page.items.len(), 6);
    }

    fn run(choice: &ListChoice) -> ListPage {
        analyze_list_with(
            &page(),
            &Url::parse("https://x.example/").unwrap(),
            &MiningParams::default(),
            &crate::commands::default_date_context(),
            choice,
        )
    }

    #[test]
    fn a_missing_group_finds_nothing_or_falls_back() {
        let strict = run(&ListChoice::Group {
            rank: 9,
            fallback_auto: false,
        });
        assert!(strict.items.is_empty());
        assert!(strict.chosen.notes[0].contains("group = 9 found nothing"));
        let lenient = run(&ListChoice::Group {
            rank: 9,
            fallback_auto: true,
        });
        assert_eq!(lenient.items.len(), 6);
        assert!(lenient.chosen.fell_back);
    }

    #[test]
    fn a_selector_that_matches_nothing_names_what_detection_finds() {
        let spec = SelectSpec {
            records: "div.events > article.card".into(),
            ..SelectSpec::default()
        };
        let page = run(&ListChoice::Select {
            spec,
            fallback_auto: false,
        });
        assert!(page.items.is_empty());
        let note = &page.chosen.notes[0];
        assert!(note.contains("matches nothing"), "{note}");
        assert!(
            note.contains("automatic detection finds 6 records at \"article.post\""),
            "{note}"
        );
        assert_eq!(
            crate::drift::pattern_signature(&page).as_deref(),
            Some("select: div.events > article.card")
        );
    }
}
