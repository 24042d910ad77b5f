//! Companions: the winner's list continued in another container of its
//! kind elsewhere in the content. A department's seminars list the coming
//! months, and fold the past months into a `details` below in markup of
//! their own around the same cards; a site splits one list across two
//! blocks of one component.
//!
//! A kept group continues the winner when its records start at elements
//! of the winner's record kind, in a container of the winner's container
//! kind (both naming a class, so that two plain `ul > li` lists never
//! join), outside page chrome and outside the winner's records, and every
//! link in its records' headings is of the shape of the winner's headline
//! links (same host, directory and depth: see `straggler`; a seminar whose
//! title is to be announced has none; see below for a promo among them).
//! Its records join the winner's,
//! in page order. Rows are a table's: tables of the same stable classes
//! join whatever their rows' classes and `id`s, each row headed by its
//! first link (a council's weekly list, two wards in tables of their own
//! and four in one table grouped by header rows).
//!
//! A kept group continues the winner too when the winner's list stands in
//! a headed section (`section.issue-section` opening with its `h2`, or
//! several such sections side by side) and the group's records all stand
//! in one more section of that kind (tag and first class) beside them,
//! opening with a heading of the same level, most of its records holding
//! a link, most of their headline links on the winner's host and depth
//! (under its first directory, where the winner's links share one) or
//! sharing its templated file name (`article_<uuid>.html`): a newsletter's "Quick bits"
//! one-line items after its sections of articles, a conference's tracks
//! listed in a `ul`, a table and `div`s. One group joins per section.
//!
//! A group of the winner's kinds joins without the few records (one in
//! four at most) whose heading links leave that shape: a museum's
//! membership promo in its exhibitions' card markup, among the current
//! shows, is no exhibition.
//!
//! Invariants: only the winner's records change; they stay disjoint and
//! in page order; a group joins whole (but for those few) or not at all. Cost: one kind lookup
//! per group, and one shape per record of a group of the winner's kinds.

use super::kinds::Kinds;
use super::short::{heading_level, in_chrome};
use super::straggler::{
    common_file_form, file_form, heading_link, headline_href, record_hrefs, records_shape,
    rows_shape,
};
use super::{Record, RecordGroup, has_link};
use crate::extract::dom::{Document, NodeId};

/// Join the winner's companions to it (`groups` ranked, winner first).
pub(super) fn join(doc: &Document, kinds: &mut Kinds<'_>, groups: &mut [RecordGroup]) {
    let Some((winner, rest)) = groups.split_first_mut() else {
        return;
    };
    if winner.dropped.is_some() || winner.thread {
        return;
    }
    let mut joined = of_its_kind(doc, kinds, winner, rest);
    joined.extend(in_sections(doc, kinds, winner, rest, &joined));
    if !joined.is_empty() {
        winner.records.extend(joined);
        winner.records.sort_unstable_by_key(|r| r.start);
    }
}

/// The records of the groups in `rest` of the winner's kinds whose
/// heading links have the shape of its headline links.
fn of_its_kind(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    winner: &RecordGroup,
    rest: &[RecordGroup],
) -> Vec<Record> {
    let mut joined: Vec<Record> = Vec::new();
    let Some(own) = KindsOf::of(doc, kinds, winner) else {
        return joined;
    };
    // Read only once a group of the winner's kinds is met: most pages
    // have none.
    let mut shape = None;
    for g in rest.iter().filter(|g| g.dropped.is_none() && !g.thread) {
        if KindsOf::of(doc, kinds, g).as_ref() != Some(&own)
            || g.container.is_some_and(|c| in_chrome(doc, c))
            || overlaps(&winner.records, &g.records)
            || overlaps(&joined, &g.records)
        {
            continue;
        }
        // A table's rows have no headings: the first of a row's links that
        // has the shape heads it (an upcoming talk's title after its "+
        // calendar" link), else its first link.
        let rows = own.record.is_none();
        let winners_shape = || match rows {
            true => {
                rows_shape(doc, &winner.records).or_else(|| records_shape(doc, &winner.records))
            }
            false => records_shape(doc, &winner.records),
        };
        let Some(shape) = shape.get_or_insert_with(winners_shape) else {
            return joined;
        };
        let href = |r: &Record| match rows {
            true => record_hrefs(doc, r)
                .find(|h| shape.admits_href(h))
                .or_else(|| headline_href(doc, r)),
            false => doc.element(heading_link(doc, r)?)?.attr("href"),
        };
        // Each record's heading link, and whether it has the shape (a
        // record without one has).
        let fits: Vec<(bool, bool)> = g
            .records
            .iter()
            .map(|r| href(r).map_or((false, true), |h| (true, shape.admits_href(h))))
            .collect();
        let linked = fits.iter().filter(|f| f.0).count();
        let misfits = fits.iter().filter(|f| !f.1).count();
        if linked > 0 && misfits * MAX_MISFIT_SHARE <= linked {
            joined.extend(
                g.records
                    .iter()
                    .zip(&fits)
                    .filter(|(_, f)| f.1)
                    .map(|(r, _)| *r),
            );
            joined.sort_unstable_by_key(|r| r.start);
        }
    }
    joined
}

/// At most one in this many of a continuing group's linked records may
/// link out of the winner's shape ([`of_its_kind`]); they stay out: a
/// museum's membership promo in its exhibitions' own card markup.
const MAX_MISFIT_SHARE: usize = 4;

/// The records of the groups in `rest`, each in one more headed section
/// beside the winner's ([`Sections`]), one group per section, none of
/// them overlapping the winner's or `joined`.
fn in_sections(
    doc: &Document,
    kinds: &mut Kinds<'_>,
    winner: &RecordGroup,
    rest: &[RecordGroup],
    joined: &[Record],
) -> Vec<Record> {
    let mut found: Vec<Record> = Vec::new();
    let Some(sections) = Sections::of(doc, kinds, &winner.records) else {
        return found;
    };
    let mut taken: Vec<NodeId> = Vec::new();
    // Where the winner's headline links share a place, most of the
    // group's must be there too (a programme's workshops, `/workshops/…`,
    // beside its papers, `/program/papers/p014/`). Read once a group is
    // in a section of the kind: most pages have none.
    // Or, where the winner's pages share a templated file name
    // (`article_<uuid>.html`), there: a newspaper's Local desk one folder
    // deeper (`/news/local/…`) than its Sports and Business desks.
    let shape = std::cell::OnceCell::new();
    let form = std::cell::OnceCell::new();
    let placed = |records: &[Record]| {
        let Some(shape) = shape.get_or_init(|| records_shape(doc, &winner.records)) else {
            return true;
        };
        let form = form.get_or_init(|| common_file_form(doc, &winner.records));
        let here = records
            .iter()
            .filter_map(|r| headline_href(doc, r))
            .filter(|h| shape.admits_place(h) || form.as_ref().is_some_and(|f| file_form(h) == *f))
            .count();
        here * 2 > records.len()
    };
    for g in rest.iter().filter(|g| g.dropped.is_none() && !g.thread) {
        if g.container.is_some_and(|c| in_chrome(doc, c))
            || overlaps(&winner.records, &g.records)
            || overlaps(joined, &g.records)
            || overlaps(&found, &g.records)
            || g.records.iter().filter(|r| has_link(doc, r)).count() * 2 <= g.records.len()
        {
            continue;
        }
        if let Some(section) = sections.another(doc, kinds, &g.records)
            && !taken.contains(&section)
            && placed(&g.records)
        {
            taken.push(section);
            found.extend_from_slice(&g.records);
            found.sort_unstable_by_key(|r| r.start);
        }
    }
    found
}

/// Levels above the winner's first record its section is looked for.
const SECTION_LEVELS: usize = 6;

/// The headed sections that hold the winner's list: children of `parent`
/// of one classed `kind`, each opening with a heading of `level`.
struct Sections {
    parent: NodeId,
    kind: super::kinds::Kind,
    level: usize,
    /// The sections that hold the winner's records.
    own: Vec<NodeId>,
}

impl Sections {
    /// The nearest ancestor of the first record that is a headed section
    /// of a classed kind whose siblings of that kind, headed alike, hold
    /// all of `records`.
    fn of(doc: &Document, kinds: &mut Kinds<'_>, records: &[Record]) -> Option<Sections> {
        let first = records.first()?.start;
        for a in doc.ancestors(first).take(SECTION_LEVELS) {
            let (Some(parent), Some(level)) = (doc.node(a).parent, opening_level(doc, a)) else {
                continue;
            };
            // Its component (tag and first class): a section's own class
            // beside it (`section.block.section-local`) names that one
            // section, not its kind.
            let kind = kinds.component(a);
            if kinds.name(kind).ends_with(".*") {
                continue;
            }
            let mut own: Vec<NodeId> = Vec::new();
            let all_in = records.iter().all(|r| {
                let Some(c) = child_holding(doc, parent, r.start) else {
                    return false;
                };
                let fits =
                    c == a || (kinds.component(c) == kind && opening_level(doc, c) == Some(level));
                if fits && !own.contains(&c) {
                    own.push(c);
                }
                fits
            });
            if all_in {
                return Some(Sections {
                    parent,
                    kind,
                    level,
                    own,
                });
            }
        }
        None
    }

    /// The section of this kind, not one of the winner's, that holds all
    /// of `records`.
    fn another(&self, doc: &Document, kinds: &mut Kinds<'_>, records: &[Record]) -> Option<NodeId> {
        let c = child_holding(doc, self.parent, records.first()?.start)?;
        let fits = !self.own.contains(&c)
            && kinds.component(c) == self.kind
            && opening_level(doc, c) == Some(self.level)
            && records.iter().all(|r| doc.contains(c, r.start));
        fits.then_some(c)
    }
}

/// The child of `parent` that holds `id`.
fn child_holding(doc: &Document, parent: NodeId, id: NodeId) -> Option<NodeId> {
    std::iter::once(id)
        .chain(doc.ancestors(id))
        .find(|&a| doc.node(a).parent == Some(parent))
}

/// The level of the heading `section` opens with (`0` for `h1`): its
/// first element child is the heading, or a caption block holding it.
fn opening_level(doc: &Document, section: NodeId) -> Option<usize> {
    let first = doc.children(section).find(|&c| doc.element(c).is_some())?;
    if let Some(level) = heading_level(doc, first) {
        return Some(level);
    }
    if !doc.is_caption(first) {
        return None;
    }
    (first..doc.node(first).end).find_map(|i| heading_level(doc, i))
}

/// The kinds a group's list is made of: its container's and its first
/// record's, when every record starts at an element of that kind and both
/// kinds name a class. A table body is its table's: the rows of a
/// classed table need no class of their own (a council's weekly list,
/// `table.planning-list-table` for two wards and the same table grouped
/// by rows for four, with bare `tr`s in each).
#[derive(Clone, PartialEq, Eq)]
struct KindsOf {
    container: ContainerKind,
    /// The records' kind; none for a table's rows, which are rows
    /// whatever their classes (`tr.views-row-first`, then bare `tr`s).
    record: Option<super::kinds::Kind>,
}

/// What a list's container is: an element's kind, or a table's stable
/// classes (its `id` names which table it is, a ward's, not what it is).
#[derive(Clone, PartialEq, Eq)]
enum ContainerKind {
    Element(super::kinds::Kind),
    Table(String),
}

impl KindsOf {
    fn of(doc: &Document, kinds: &mut Kinds<'_>, g: &RecordGroup) -> Option<KindsOf> {
        if let Some(table) = g.container.and_then(|c| table_of_body(doc, c)) {
            let rows = g.records.iter().all(|r| doc.is_tag(r.start, "tr"));
            let classes: Vec<&str> = super::kinds::stable_classes(doc, table).collect();
            return (rows && !classes.is_empty()).then(|| KindsOf {
                container: ContainerKind::Table(classes.join(".")),
                record: None,
            });
        }
        let container = kinds.kind(g.container?);
        let first = g.records.first()?;
        let record = kinds.kind(first.start);
        let classed = |kinds: &Kinds<'_>, k| kinds.name(k).contains('.');
        let alike = g.records.iter().all(|r| kinds.kind(r.start) == record);
        (alike && classed(kinds, container) && classed(kinds, record)).then_some(KindsOf {
            container: ContainerKind::Element(container),
            record: Some(record),
        })
    }
}

/// The table whose body (`tbody`, or the table itself) `id` is, when
/// its rows are the records.
fn table_of_body(doc: &Document, id: NodeId) -> Option<NodeId> {
    match doc.tag(id)? {
        "table" => Some(id),
        "tbody" => doc.node(id).parent.filter(|&t| doc.is_tag(t, "table")),
        _ => None,
    }
}

/// True when a record of `b` and one of `a` share a node (both in page
/// order).
fn overlaps(a: &[Record], b: &[Record]) -> bool {
    b.iter().any(|r| {
        let i = a.partition_point(|x| x.end <= r.start);
        a.get(i).is_some_and(|x| x.start < r.end)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::records::detect_html;

    fn records(doc: &Document, class: &str) -> Vec<Record> {
        (0..doc.nodes.len() as u32)
            .filter(|&i| {
                doc.element(i)
                    .and_then(|e| e.attr("class"))
                    .is_some_and(|c| c.split_whitespace().any(|t| t == class))
            })
            .map(|i| Record {
                start: i,
                end: doc.node(i).end,
            })
            .collect()
    }

    /// A newsletter issue: three sections of articles (`section.issue`
    /// opening with an `h2`), then a "Quick bits" section of the same kind
    /// holding one-line items in a `ul`, and a "Jobs" section of another.
    fn issue(quick_section: &str) -> String {
        let article = |s: usize, i: usize| {
            format!(
                "<article class=item><h3 class=item__title><a href='https://blog{s}{i}.example/post'>\
                 Article {i} of section {s}, a headline of its own</a></h3>\
                 <p class=item__desc>A paragraph saying what the article is about, at length.</p>\
                 <p class=item__source>— Author {i}, blog{s}{i}.example</p></article>"
            )
        };
        let mut html = String::from("<body><main class=issue>");
        for s in 0..3 {
            let items: String = (0..5).map(|i| article(s, i)).collect();
            html.push_str(&format!(
                "<section class=issue-section><h2>Section {s}</h2>{items}</section>"
            ));
        }
        let bits: String = (0..6)
            .map(|i| format!("<li><a href='https://news{i}.example/r'>Release {i}</a> ships a new feature.</li>"))
            .collect();
        html.push_str(&format!(
            "<section class={quick_section}><h2>Quick bits</h2><ul class=bits>{bits}</ul></section>"
        ));
        html.push_str("</main></body>");
        html
    }

    #[test]
    fn a_list_in_one_more_section_of_the_kind_joins_the_winner() {
        let (_, det) = detect_html(&issue("issue-section"));
        assert_eq!(det.winner().map(|w| w.records.len()), Some(21));
        // A section of another kind (the issue's job ads) stays apart.
        let (_, det) = detect_html(&issue("jobs"));
        assert_eq!(det.winner().map(|w| w.records.len()), Some(15));
    }

    /// Regression (a newspaper's home page): each desk a `section.block`
    /// with a class of its own (`section-sports`) and its heading in a
    /// `header`, then a grid of four cards. The desks' own classes made
    /// each section a kind of its own, so one desk's four stories were
    /// the feed.
    #[test]
    fn sections_with_classes_of_their_own_are_one_kind() {
        let card = |desk: &str, i: usize| {
            format!(
                "<article class='card summary'><h3><a href='/{desk}/story-{i}-of-the-{desk}-desk/article_{i}.html'>\
                 Story {i} of the {desk} desk, a headline</a></h3><p>What happened, in a sentence or two.</p>\
                 <time datetime='2026-11-30'>Nov. 30, 2026</time></article>"
            )
        };
        let mut html = String::from("<body><main>");
        for desk in ["sports", "business", "opinion"] {
            let cards: String = (0..4).map(|i| card(desk, i)).collect();
            html.push_str(&format!(
                "<section class='block section-{desk}'><header class=block-title><h2><a href='/{desk}/'>{desk}</a></h2></header>\
                 <div class=card-grid>{cards}</div></section>"
            ));
        }
        html.push_str("</main></body>");
        let (_, det) = detect_html(&html);
        assert_eq!(det.winner().map(|w| w.records.len()), Some(12));
    }

    /// Regression (a newspaper's home page): the Local desk's stories
    /// (`/news/local/<slug>/article_<uuid>.html`) lie one folder deeper
    /// than the other desks' (`/sports/<slug>/article_<uuid>.html`), so
    /// the desk was left out; the templated file name they share places
    /// them. A programme's workshops beside its papers share none.
    #[test]
    fn a_desk_one_folder_deeper_joins_by_its_templated_file_names() {
        let card = |dir: &str, i: usize| {
            format!(
                "<article class='card summary'><h3><a href='/{dir}/story-{i}-from-{i}/article_{i}f3c9a0e-77b{i}.html'>\
                 Story {i} from {dir}, a headline</a></h3><p>What happened, in a sentence or two.</p>\
                 <time datetime='2026-11-30'>Nov. 30, 2026</time></article>"
            )
        };
        let mut html = String::from("<body><main>");
        for (desk, dir) in [
            ("local", "news/local"),
            ("sports", "sports"),
            ("business", "business"),
        ] {
            let cards: String = (0..4).map(|i| card(dir, i)).collect();
            html.push_str(&format!(
                "<section class='block section-{desk}'><header class=block-title><h2><a href='/{dir}/'>{desk}</a></h2></header>\
                 <div class=card-grid>{cards}</div></section>"
            ));
        }
        html.push_str("</main></body>");
        let (_, det) = detect_html(&html);
        assert_eq!(det.winner().map(|w| w.records.len()), Some(12));
        assert_eq!(
            file_form("/news/local/a-story/article_8f80f1e4-c45f-7c41.html"),
            "article_#.html"
        );
        assert_eq!(file_form("/program/papers/p014/"), "p#");
        assert_eq!(file_form("/workshops/ws3/"), "ws#");
        assert_eq!(file_form("/blog/a-post-about-rust/"), "a-post-about-rust");
    }

    #[test]
    fn overlapping_records_are_told_apart() {
        let doc = crate::extract::dom::parse(
            "<div class=a><p class=r>1</p><p class=r>2</p></div><div class=b><p class=s>3</p></div>",
        );
        let r = records(&doc, "r");
        let s = records(&doc, "s");
        assert!(!overlaps(&r, &s));
        assert!(overlaps(&r, &r[1..]));
    }

    /// Regression (a council's weekly planning list): two wards in tables
    /// of their own (an `id` and a `<caption>` each) and two in one table
    /// grouped by header rows, all `table.planning-list`, rows without a
    /// class but the first's `views-row-first`; only one table's rows were
    /// found. A table body is its table's kind, whatever its rows' classes.
    #[test]
    fn tables_of_one_class_split_by_ward_are_one_list() {
        let row = |n: u32| {
            let class = if n % 10 == 1 {
                " class=views-row-first"
            } else {
                ""
            };
            format!(
                "<tr{class}><td><a href='https://pa.example/applicationDetails.do?keyVal=K{n}'>26/04{n}/FUL</a></td>\
                 <td>{n} Mill Lane</td><td>Erection of a single storey rear extension, number {n}</td>\
                 <td>23 Nov 2026</td></tr>"
            )
        };
        let head = "<thead><tr><th>Reference</th><th>Address</th><th>Proposal</th><th>Received</th></tr></thead>";
        let rows = |from: u32, n: u32| (from..from + n).map(row).collect::<String>();
        let group =
            |ward: &str| format!("<tr class=group-header><th colspan=4>Ward: {ward}</th></tr>");
        let html = format!(
            "<body><main><h1>Weekly list</h1>\
             <table class='views-table planning-list' id=ward-abbey><caption>Abbey</caption>{head}<tbody>{}</tbody></table>\
             <table class='views-table planning-list planning-list--grouped'>{head}<tbody>{}{}{}{}</tbody></table>\
             <table class='views-table planning-list' id=ward-westgate><caption>Westgate</caption>{head}<tbody>{}</tbody></table>\
             </main></body>",
            rows(11, 3),
            group("Castle"),
            rows(21, 5),
            group("Harbour"),
            rows(31, 6),
            rows(41, 3),
        );
        let (doc, det) = detect_html(&html);
        let winner = det.winner().expect("a winner");
        let refs: Vec<String> = winner
            .records
            .iter()
            .filter_map(|r| (r.start..r.end).find(|&i| doc.is_tag(i, "a")))
            .map(|a| doc.text(a))
            .collect();
        assert_eq!(refs.len(), 17, "{refs:?}");
        assert_eq!(refs.first().map(String::as_str), Some("26/0411/FUL"));
        assert_eq!(refs.last().map(String::as_str), Some("26/0443/FUL"));
    }
}
