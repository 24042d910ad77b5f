//! Sections taken for records: a page that groups its list under headings
//! (a researcher's publications by year, stories by topic) also repeats the
//! heading-and-list pairs themselves, and those pairs, richer in headings
//! and text, can outscore the list. A group whose records are each a
//! heading and the records of another kept group, nested inside them and
//! making almost all of their text, holds that group's sections: its score
//! is divided by the records each section holds, as a record holding
//! several headlines is in `score`, and loses the richness its headings
//! and dates earned (they are the sections', not their records'), so the
//! records inside win even when few of them link their titles.
//!
//! A quarter or more of the sections that hold any of the records hold
//! two or more (an article holding its body `div` is a record and its
//! parts; a blog's archive by day holds one post on some days and two
//! on others), and half of those hold two of one kind (tag and first
//! class): a release card's body and footer, one of each, are its parts.
//!
//! "Nested" means below the section's own top-level parts, so a record made
//! of sibling rows (a title row and its metadata row) is not the section of
//! a group of single rows; and a section is headed (an `h1`–`h6` outside
//! its nested records, or right before it: a year's `h2` and its `ol`), so
//! a table row is not the section of its cells.
//! Sections that mostly hold a date line of their own outside their
//! headings are records with notes, not sections: a changelog's release
//! is a version heading, "November 18, 2026" and its lists of changes;
//! unless most of their nested records are dated too (a sermon series'
//! "October 18, 2026 – November 29, 2026" spans its dated sermons).
//! The nested records may be those of several kept groups of one kind
//! (tag and class) taken together: each series' table of sermons is a
//! group of its own for the miner.
//! So are sections whose nested records mostly link only inside their
//! sentences (a change citing "#1301" is a note, not a record).
//!
//!
//! A group of the page's own regions (a bar above the header, the header
//! and content, the footer: blocks that an unclosed wrapper leaves side by
//! side) is no list either: when its largest region carries most of the
//! group's text, and a kept list inside it carries most of the region's
//! and holds at least three in four of that list's records, the region is
//! the page around the list, and its group's score is divided by the
//! records it holds.
//!
//! Invariants: only scores change; the work is one binary search per
//! section, one text count per nested record and one pass over each
//! section's own nodes, for the few best groups, and once more over the
//! records of each kind that has two or more groups.

use crate::extract::dom::{Document, NodeData, NodeId, is_heading, trim_text};

use super::score::{MAX_DATE_TEXT, has_year, is_dated, richness};
use super::short::heading_level;
use super::{Record, RecordGroup};

/// How many of the ranked groups are tried as sections.
const TRIED: usize = 3;
/// One in this many of the sections that hold records must hold two or
/// more of them.
const MIN_SEVERAL_SHARE: usize = 4;
/// Records the page region of [`records_in_region`] must hold (and no
/// fewer than its group has regions).
const MIN_REGION_RECORDS: usize = 3;
/// Share of its group's text the page region carries, and share of the
/// region's text the list inside carries.
const MIN_REGION_TEXT: f64 = 0.5;
/// Share of a section's text its nested records must carry (median over
/// the sections that hold any).
const MIN_NESTED_TEXT: f64 = 0.8;

/// Divide the score of each of the best groups that holds another kept
/// group's sections. True when some score changed.
pub(super) fn demote(doc: &Document, groups: &mut [RecordGroup]) -> bool {
    let kept: Vec<usize> = (0..groups.len())
        .filter(|&i| groups[i].dropped.is_none())
        .collect();
    let mut changed = false;
    for &s in kept.iter().take(TRIED) {
        // Read once per group, and only when its records hold no sections.
        let mut largest: Option<Option<Largest>> = None;
        let per_section = kept
            .iter()
            .filter(|&&r| r != s)
            .filter_map(|&r| {
                let (sections, records) = (&groups[s].records, &groups[r].records);
                records_per_section(doc, sections, records).or_else(|| {
                    let largest = largest.get_or_insert_with(|| Largest::of(doc, sections));
                    records_in_region(doc, sections.len(), largest.as_ref()?, records)
                })
            })
            .fold(1.0_f64, f64::max)
            .max(per_section_of_twins(doc, groups, &kept, s));
        if per_section > 1.0 {
            // The sections' headings and dates are theirs, not a record's:
            // the richness they earned goes with them.
            groups[s].score /= per_section * richness(doc, &groups[s].records);
            changed = true;
        }
    }
    changed
}

/// [`records_per_section`] of the section group `s` over the records of
/// the other kept groups of one kind taken together: a sermon archive's
/// series, each a heading and a table of its own, whose rows the miner
/// finds as one group per table (1.0 when none holds).
fn per_section_of_twins(doc: &Document, groups: &[RecordGroup], kept: &[usize], s: usize) -> f64 {
    let kind = |g: &RecordGroup| {
        let e = doc.element(g.records.first()?.start)?;
        Some((e.name.as_str(), e.attr("class").unwrap_or("").trim()))
    };
    let sections = &groups[s].records;
    // The section holding node `id` (the sections are disjoint, in order).
    let section_of = |id: NodeId| {
        let k = sections.partition_point(|x| x.start <= id);
        (k > 0 && id < sections[k - 1].end).then(|| k - 1)
    };
    // The one section all of group `g`'s records lie in.
    let within = |g: &RecordGroup| {
        let (first, last) = (g.records.first()?, g.records.last()?);
        let at = section_of(first.start)?;
        (section_of(last.start)? == at).then_some(at)
    };
    // The other kept groups that each lie in one section, by kind and
    // section; a kind in one section only was tried group by group.
    let mut kinds: Vec<((&str, &str), usize, usize)> = kept
        .iter()
        .filter(|&&r| r != s)
        .filter_map(|&r| Some((kind(&groups[r])?, within(&groups[r])?, r)))
        .collect();
    kinds.sort_unstable();
    kinds
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.first().map(|f| f.1) != run.last().map(|l| l.1))
        .filter_map(|run| {
            let mut records: Vec<Record> = run
                .iter()
                .flat_map(|&(_, _, r)| groups[r].records.iter().copied())
                .collect();
            records.sort_by_key(|r| r.start);
            let disjoint = records.windows(2).all(|w| w[0].end <= w[1].start);
            disjoint.then(|| records_per_section(doc, sections, &records))?
        })
        .fold(1.0, f64::max)
}

/// When `sections` are sections of `records` (see the module header): the
/// mean number of `records` each section that holds any holds.
fn records_per_section(doc: &Document, sections: &[Record], records: &[Record]) -> Option<f64> {
    let (mut holders, mut inside, mut headed, mut dated) = (0usize, 0usize, 0usize, 0usize);
    let (mut several, mut standing, mut listing) = (0usize, 0usize, 0usize);
    let mut shares: Vec<f64> = Vec::new();
    for s in sections {
        let nested = nested_in(doc, s, records);
        match nested.len() {
            0 => continue,
            1 => {}
            _ => {
                several += 1;
                listing += usize::from(repeats_a_kind(doc, nested));
            }
        }
        standing += nested.iter().filter(|r| has_standing_link(doc, r)).count();
        headed += usize::from(has_own_heading(doc, s, nested) || headed_before(doc, s));
        dated += usize::from(has_own_date_line(doc, s, nested));
        let text = doc.range_text_bytes(s.start, s.end).max(1);
        let nested_text: usize = nested
            .iter()
            .map(|r| doc.range_text_bytes(r.start, r.end))
            .sum();
        holders += 1;
        inside += nested.len();
        shares.push(nested_text as f64 / text as f64);
    }
    shares.sort_by(f64::total_cmp);
    let median = shares.get(shares.len() / 2).copied().unwrap_or(0.0);
    // Sections dated outside their headings are records with notes of
    // their own (a changelog's releases, each a version heading, a date
    // line and its lists of changes), not the headings of a list, unless
    // their records are dated too: a sermon series' line "October 18,
    // 2026 – November 29, 2026 · 7 messages" spans its dated sermons.
    let own_dates = dated * 2 > holders && !mostly_dated(doc, sections, records, inside);
    // Sections that each hold one record are records and their parts (an
    // article and its body); a day of a blog's archive may hold one post
    // where others hold two.
    let grouped = several * MIN_SEVERAL_SHARE >= holders;
    // Records that link only inside their sentences are notes (a
    // changelog's changes citing "#1301"): their sections are the records.
    let linked = inside > 0 && standing * 2 >= inside;
    // A section that holds several records lists them: two of one kind at
    // least. A release card's body and footer, one each, are its parts.
    let listed = listing * 2 >= several;
    let sections_hold = holders >= 2
        && grouped
        && listed
        && linked
        && holders * 2 >= sections.len()
        && headed * 2 >= holders
        && !own_dates;
    let records_inside = inside * 4 >= records.len() * 3;
    (sections_hold && records_inside && median >= MIN_NESTED_TEXT)
        .then(|| inside as f64 / holders as f64)
}

/// True when two of `records` start at elements of one kind (tag and
/// first class: `li.post odd` and `li.post even` are one kind), or at no
/// element.
fn repeats_a_kind(doc: &Document, records: &[Record]) -> bool {
    let kind = |r: &Record| {
        doc.element(r.start).map(|e| {
            let class = e.attr("class").and_then(|c| c.split_whitespace().next());
            (e.name.as_str(), class.unwrap_or(""))
        })
    };
    let mut kinds: Vec<Option<(&str, &str)>> = records.iter().map(kind).collect();
    kinds.sort_unstable();
    kinds.windows(2).any(|w| w[0] == w[1])
}

/// True when most of the `inside` records nested in `sections` are dated
/// (read only for sections that carry date lines of their own).
fn mostly_dated(doc: &Document, sections: &[Record], records: &[Record], inside: usize) -> bool {
    let dated: usize = sections
        .iter()
        .map(|s| {
            nested_in(doc, s, records)
                .iter()
                .filter(|r| is_dated(doc, r))
                .count()
        })
        .sum();
    dated * 2 > inside
}

/// A group's record with the most text: the page region, if the group's
/// records are the page's own blocks ([`records_in_region`]).
struct Largest {
    region: Record,
    text: usize,
}

impl Largest {
    /// The record of `regions` with the most text, when it carries
    /// [`MIN_REGION_TEXT`] of theirs.
    fn of(doc: &Document, regions: &[Record]) -> Option<Largest> {
        let texts: Vec<usize> = regions
            .iter()
            .map(|r| doc.range_text_bytes(r.start, r.end))
            .collect();
        let all: usize = texts.iter().sum();
        let (k, &text) = texts.iter().enumerate().max_by_key(|&(_, t)| *t)?;
        (text as f64 >= all as f64 * MIN_REGION_TEXT).then_some(Largest {
            region: regions[k],
            text,
        })
    }
}

/// When the `largest` of a group's `regions` records is the page around
/// the list `records` (see the module header): the number of `records`
/// it holds.
fn records_in_region(
    doc: &Document,
    regions: usize,
    largest: &Largest,
    records: &[Record],
) -> Option<f64> {
    let nested = nested_in(doc, &largest.region, records);
    if nested.len() < MIN_REGION_RECORDS.max(regions) || nested.len() * 4 < records.len() * 3 {
        return None;
    }
    let nested_text: usize = nested
        .iter()
        .map(|r| doc.range_text_bytes(r.start, r.end))
        .sum();
    (nested_text as f64 >= largest.text as f64 * MIN_REGION_TEXT).then_some(nested.len() as f64)
}

/// True when `record` holds a link that stands on its own, not inside a
/// sentence ([`Document::in_running_text`]).
fn has_standing_link(doc: &Document, record: &Record) -> bool {
    (record.start..record.end).any(|i| {
        doc.element(i)
            .is_some_and(|e| e.name == "a" && e.attr("href").is_some())
            && !doc.in_running_text(i, doc.text_bytes(i))
    })
}

/// True when node `i` is inside one of `nested` (disjoint and in
/// document order: the record that could hold `i` is the last one
/// starting at or before it).
fn in_nested(nested: &[Record], i: NodeId) -> bool {
    let k = nested.partition_point(|r| r.start <= i);
    k > 0 && i < nested[k - 1].end
}

/// True when `section` holds a heading outside its `nested` records.
fn has_own_heading(doc: &Document, section: &Record, nested: &[Record]) -> bool {
    (section.start..section.end)
        .any(|i| doc.tag(i).is_some_and(is_heading) && !in_nested(nested, i))
}

/// True when the element right before `section` is a heading: a year's
/// `h2` and then its `ol` of papers, the list unwrapped. A table row has
/// rows before it, not headings, so it is still no section of its cells.
fn headed_before(doc: &Document, section: &Record) -> bool {
    doc.previous_element(section.start)
        .and_then(|p| doc.tag(p))
        .is_some_and(is_heading)
}

/// True when `section` holds a date line (a `<time>`, or a short text
/// with a year) outside its headings and its `nested` records: "November
/// 18, 2026" under a release's version heading. A section headed by its
/// date ("March 2024", "Commits on Mar 5, 2024") has none.
fn has_own_date_line(doc: &Document, section: &Record, nested: &[Record]) -> bool {
    let mut heading_end = 0;
    (section.start..section.end).any(|i| {
        if in_nested(nested, i) || i < heading_end {
            return false;
        }
        match &doc.node(i).data {
            NodeData::Element(e) if is_heading(&e.name) => {
                heading_end = doc.node(i).end;
                false
            }
            NodeData::Element(e) => e.name == "time",
            NodeData::Text { text, blank: false } => {
                let t = trim_text(text);
                t.len() <= MAX_DATE_TEXT && has_year(t)
            }
            _ => false,
        }
    })
}

/// The `records` (a group's, so in document order) inside `section` and below its top-level
/// parts, or among them under a higher heading: a release notes page's
/// month, an `h2` and the siblings after it, holds the features that
/// each run from an `h3` (an outline, where no element wraps a level).
fn nested_in<'r>(doc: &Document, section: &Record, records: &'r [Record]) -> &'r [Record] {
    let from = records.partition_point(|r| r.start < section.start);
    let to = records.partition_point(|r| r.start < section.end);
    let inner = &records[from..to.max(from)];
    let top_parent = doc.node(section.start).parent;
    let level = heading_level(doc, section.start);
    let below = |r: &Record| {
        doc.node(r.start).parent != top_parent
            || level.is_some_and(|l| heading_level(doc, r.start).is_some_and(|h| h > l))
    };
    let all_nested = inner.iter().all(|r| r.end <= section.end && below(r));
    if all_nested { inner } else { &[] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    /// [`records_per_section`] of `html`'s [`runs_and_lines`].
    fn per_section(html: &str) -> Option<f64> {
        let doc = parse(html);
        let (runs, lines) = runs_and_lines(&doc);
        records_per_section(&doc, &runs, &lines)
    }

    /// The sibling runs from each `h2` to the next, and every `li`.
    fn runs_and_lines(doc: &Document) -> (Vec<Record>, Vec<Record>) {
        let ids = 0..doc.nodes.len() as NodeId;
        let heads: Vec<NodeId> = ids.clone().filter(|&i| doc.is_tag(i, "h2")).collect();
        let parent_end = doc.node(doc.node(heads[0]).parent.unwrap_or(0)).end;
        let runs = heads
            .iter()
            .enumerate()
            .map(|(k, &h)| Record {
                start: h,
                end: heads.get(k + 1).copied().unwrap_or(parent_end),
            })
            .collect();
        let lines = ids
            .filter(|&i| doc.is_tag(i, "li"))
            .map(|i| Record {
                start: i,
                end: doc.node(i).end,
            })
            .collect();
        (runs, lines)
    }

    /// Every `tag` element of `doc`, each a record.
    fn elements(doc: &Document, tag: &str) -> Vec<Record> {
        (0..doc.nodes.len() as NodeId)
            .filter(|&i| doc.is_tag(i, tag))
            .map(|i| Record {
                start: i,
                end: doc.node(i).end,
            })
            .collect()
    }

    /// Regression (a product's release notes): each month an `h2`, then
    /// its features as flat siblings, each an `h3`, a date line, words and
    /// a "Learn more" link. The months, runs of siblings holding the runs
    /// of their features, were not their sections (a run among the
    /// month's own parts was never nested in it) and won over them.
    #[test]
    fn a_month_heading_holds_the_features_under_its_lower_headings() {
        let feature = |m: u32, f: u32| {
            format!(
                "<h3 id=f{m}{f}><a class=anchor aria-hidden=true href=#f{m}{f}>#</a>Feature {f} of month {m}</h3>\
                 <p class=date>November {f}, 2026</p><p>What changed in this release, at some length, \
                 for the people who use it every day.</p><p><a href=/docs/f{m}{f}>Learn more</a></p>"
            )
        };
        let mut html = String::from("<div>");
        for m in 0..3 {
            html.push_str(&format!("<h2 id=m{m}>Month {m} 2026</h2>"));
            for f in 1..=3 {
                html.push_str(&feature(m, f));
            }
        }
        html.push_str("</div>");
        let doc = parse(&html);
        let runs = |tag: &str, stop: &[&str]| -> Vec<Record> {
            let heads: Vec<NodeId> = (0..doc.nodes.len() as NodeId)
                .filter(|&i| doc.is_tag(i, tag))
                .collect();
            heads
                .iter()
                .map(|&h| {
                    let next = (h + 1..doc.nodes.len() as NodeId)
                        .find(|&i| {
                            doc.node(i).parent == doc.node(h).parent
                                && stop.iter().any(|t| doc.is_tag(i, t))
                        })
                        .unwrap_or(doc.node(doc.node(h).parent.unwrap_or(0)).end);
                    Record {
                        start: h,
                        end: next,
                    }
                })
                .collect()
        };
        let months = runs("h2", &["h2"]);
        let features = runs("h3", &["h2", "h3"]);
        assert_eq!(records_per_section(&doc, &months, &features), Some(3.0));
        // Runs of one level are no sections of each other.
        assert_eq!(records_per_section(&doc, &features, &features), None);
    }

    /// Regression (a research group's publications, each year an `h2` and
    /// then its `ol`): the lists, headed before and not inside, were no
    /// sections, and won over the citations they hold.
    #[test]
    fn a_list_headed_right_before_it_is_a_section() {
        let page = |heading: &str| {
            let mut h = String::from("<div>");
            for y in 0..3 {
                h.push_str(&format!("{heading}<ol>"));
                for p in 0..4 {
                    h.push_str(&format!(
                        "<li>J. Kim. “A paper number {y}{p} on robots,” Proc. ICML, 2026.<br>\
                         <span class=links>[<a href=/papers/{y}{p}.pdf>PDF</a>]</span></li>"
                    ));
                }
                h.push_str("</ol>");
            }
            h.push_str("</div>");
            let doc = parse(&h);
            let lists = elements(&doc, "ol");
            let items = elements(&doc, "li");
            records_per_section(&doc, &lists, &items)
        };
        assert_eq!(page("<h2>2026</h2>"), Some(4.0));
        assert_eq!(page("<p>Selected papers</p>"), None);
    }

    /// Regression (a page an unclosed bar nests): three blocks side by
    /// side, the bar, the header and content, the footer, outscored the
    /// 21 citations the content holds.
    #[test]
    fn the_page_around_a_list_is_no_list() {
        let page = |items: usize| {
            let mut h = String::from(
                "<body><div><a href=/>Home</a> <a href=/about>About us here</a></div><div><h1>Papers</h1><ul>",
            );
            for p in 0..items {
                h.push_str(&format!(
                    "<li>J. Kim and L. Marchetti. “A long paper number {p} on robots,” Proc. ICML. \
                     [<a href=/papers/{p}.pdf>PDF</a>]</li>"
                ));
            }
            h.push_str("</ul></div><div><a href=/privacy>Privacy policy</a></div></body>");
            let doc = parse(&h);
            let blocks = elements(&doc, "div");
            let items = elements(&doc, "li");
            records_in_region(&doc, blocks.len(), &Largest::of(&doc, &blocks)?, &items)
        };
        assert_eq!(page(8), Some(8.0));
        // Two records are too few to tell a page from a record.
        assert_eq!(page(2), None);
    }

    /// Regression (a Blogger blog, posts under their day's heading): some
    /// days hold one post and others two. The days were no sections,
    /// since one held a single post, and won over their posts.
    #[test]
    fn days_holding_one_post_or_two_are_sections() {
        let page = |posts: &[usize]| {
            let mut h = String::from("<div>");
            for (d, &n) in posts.iter().enumerate() {
                h.push_str(&format!("<h2>Saturday, March {}, 2025</h2><ul>", 8 - d));
                for p in 0..n {
                    h.push_str(&format!(
                        "<li><h3><a href=/2025/03/post-{d}-{p}.html>Sourdough crackers, attempt \
                         {p}</a></h3><p>Rolled thinner than I thought was sensible, baked on the \
                         back of a sheet pan so the edges do not scorch.</p></li>"
                    ));
                }
                h.push_str("</ul>");
            }
            h.push_str("</div>");
            h
        };
        assert_eq!(per_section(&page(&[2, 1, 2, 1])), Some(1.5));
        // A post and its parts: every one holds one.
        assert_eq!(per_section(&page(&[1, 1, 1, 1])), None);
    }

    /// Regression (a changelog whose releases carry their date in the
    /// heading): the releases were taken for sections of their changes.
    /// Changes that link only inside their sentences are notes.
    #[test]
    fn sections_of_notes_are_records() {
        let page = |linked: bool| {
            let mut h = String::from("<div>");
            for r in 0..4 {
                h.push_str(&format!("<h2>2.{r}.0 - 2025-0{}-03</h2><ul>", 9 - r));
                for c in 0..3 {
                    let change = if linked {
                        format!("<a href=/posts/{r}{c}>A post about the release number {r}{c}</a>")
                    } else {
                        format!(
                            "Crash when a config file held an empty table of rules \
                             (<a href=/issues/{r}{c}>#{r}{c}</a>), fixed by the new loader"
                        )
                    };
                    h.push_str(&format!("<li>{change}</li>"));
                }
                h.push_str("</ul>");
            }
            h.push_str("</div>");
            h
        };
        assert_eq!(per_section(&page(false)), None);
        assert_eq!(per_section(&page(true)), Some(3.0));
    }

    /// Regression (a changelog): each release is a version heading, a
    /// date line and lists of changes, without a wrapper; the releases
    /// were taken for sections of their change lines and lost to them.
    /// A section dated outside its heading is a record; one headed by its
    /// date is still a section.
    #[test]
    fn a_section_dated_outside_its_heading_is_a_record() {
        let page = |dated: bool| {
            let mut h = String::from("<div>");
            for r in 0..4 {
                let (title, date) = match dated {
                    true => (
                        format!("v3.{r}.0"),
                        format!("<p class=release-date>November {}, 2026</p>", 20 - r),
                    ),
                    false => (format!("November {}, 2026", 20 - r), String::new()),
                };
                h.push_str(&format!(
                    "<h2>{title}</h2>{date}<h3>Fixed</h3><ul><li><a href=/commits/{r}1>The importer \
                     crashed when the config file used CRLF line endings on Windows</a></li><li>\
                     <a href=/commits/{r}2>Dark mode colours in the PDF export were not applied to \
                     callout blocks and code tabs</a></li></ul>"
                ));
            }
            h.push_str("</div>");
            h
        };
        assert_eq!(per_section(&page(true)), None);
        assert_eq!(per_section(&page(false)), Some(2.0));
    }
}
