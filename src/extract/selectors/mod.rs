//! CSS selectors over the page arena: matching user-written selectors
//! (`[feed.select]`), and generating selectors for detected record groups
//! (what `preview` shows and `pin` writes).
//!
//! Matching is the `selectors` crate's engine (the browsers' matcher, not a
//! hand-written one) run on the arena itself (`matching`): [`CssDoc`]
//! borrows the page and indexes element siblings, so a match is a
//! [`NodeId`] and no second tree is built.
//!
//! Invariants:
//! - A record chosen by a selector is the matched element's whole subtree
//!   (`id..node.end`); matches nested inside an earlier match are not
//!   records of their own (counted in [`RecordSelection::nested`]); at most
//!   [`MAX_SELECTED_RECORDS`] records are kept (the rest counted).
//! - Field selectors are relative to a record: they match descendants of the
//!   record's root (or the root itself), in document order.
//! - A record the date selector finds no element in keeps the date
//!   detection reads from it; an element that shows an age ("45 minutes
//!   ago") is dated by its `title` tooltip when that holds a date; one that no field selector dates takes the
//!   date of its day heading, as detected records do (`section_dates`).
//! - A generated records selector is returned only when it was verified: on
//!   this page it selects exactly the group's record roots and nothing else.
//!   It prefers stable hooks: ids, semantic tags and class names that do not
//!   look hashed or generated (`css-1x2y3z`, `sc-bdVaJa`).
//! - Nothing here does I/O; all work is bounded by the arena's size.

mod matching;

use std::collections::{BTreeMap, HashSet};

use chrono::{DateTime, FixedOffset};
use url::Url;

use crate::extract::dates::{DateContext, date_in, parse_date, parse_range_start, reads_clock};
use crate::extract::dom::{Document, NodeId, collapse_whitespace};
use crate::extract::items::{self, Item, TitlePlan};
use crate::extract::records::Record;
use crate::extract::section_dates;
pub use matching::{CssDoc, MAX_STEPS_PER_ELEMENT, Selectors};

/// Records a `records` selector may select; the rest are dropped and counted.
pub const MAX_SELECTED_RECORDS: usize = 2_000;
/// Longest selector accepted (bounds parsing and matching work).
pub const MAX_SELECTOR_LEN: usize = 1_000;

/// A selector that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectorError {
    #[error("empty selector")]
    Empty,
    #[error("selector longer than {MAX_SELECTOR_LEN} characters")]
    TooLong,
    #[error("invalid CSS selector \"{0}\"")]
    Syntax(String),
    #[error("invalid attribute name \"{0}\" after '@'")]
    Attribute(String),
}

/// Compile a CSS selector list.
pub fn compile(css: &str) -> Result<Selectors, SelectorError> {
    let css = css.trim();
    if css.is_empty() {
        return Err(SelectorError::Empty);
    }
    if css.len() > MAX_SELECTOR_LEN {
        return Err(SelectorError::TooLong);
    }
    Selectors::parse(css)
}

/// A field selector: CSS relative to a record, optionally `@attr` to read an
/// attribute instead of the text.
#[derive(Clone)]
pub struct FieldSelector {
    pub css: String,
    pub attr: Option<String>,
    compiled: std::rc::Rc<Selectors>,
}

impl std::fmt::Debug for FieldSelector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FieldSelector")
            .field("css", &self.css)
            .field("attr", &self.attr)
            .finish()
    }
}

fn is_attr_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || "-_:.".contains(c))
}

/// Split `"h3 a@href"` into the CSS and the attribute. An `@` inside the CSS
/// (a quoted attribute value) is left alone: only a trailing `@name` counts.
pub fn split_attr(s: &str) -> Result<(&str, Option<&str>), SelectorError> {
    let s = s.trim();
    match s.rfind('@') {
        Some(at) if !s[at + 1..].contains([']', '"', '\'', ' ', ')']) => {
            let name = &s[at + 1..];
            if !is_attr_name(name) {
                return Err(SelectorError::Attribute(name.to_string()));
            }
            Ok((s[..at].trim(), Some(name)))
        }
        _ => Ok((s, None)),
    }
}

impl FieldSelector {
    pub fn parse(s: &str) -> Result<FieldSelector, SelectorError> {
        let (css, attr) = split_attr(s)?;
        let compiled = compile(css)?;
        Ok(FieldSelector {
            css: css.to_string(),
            attr: attr.map(|a| a.to_ascii_lowercase()),
            compiled: std::rc::Rc::new(compiled),
        })
    }
}

/// What a `records` selector selected on one page.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecordSelection {
    pub records: Vec<Record>,
    /// Matches inside an earlier match (not records of their own).
    pub nested: usize,
    /// Records beyond [`MAX_SELECTED_RECORDS`], dropped.
    pub capped: usize,
}

/// Most element siblings a record may take after its matched element.
pub const MAX_SIBLINGS: usize = 20;

/// One past the last node of `id` and its next `siblings` element siblings
/// (fewer when the parent ends first; text between them comes along).
fn span_end(doc: &Document, id: NodeId, siblings: usize) -> NodeId {
    let mut end = doc.node(id).end;
    let Some(parent) = doc.node(id).parent else {
        return end;
    };
    let parent_end = doc.node(parent).end;
    let mut taken = 0;
    let mut next = end;
    while taken < siblings && next < parent_end {
        let sib_end = doc.node(next).end;
        if doc.element(next).is_some() {
            taken += 1;
            end = sib_end;
        }
        next = sib_end;
    }
    end
}

/// Element roots (top-level elements) in a record's range.
fn record_roots(doc: &Document, r: &Record) -> usize {
    let mut n = 0;
    let mut i = r.start;
    while i < r.end {
        n += usize::from(doc.element(i).is_some());
        i = doc.node(i).end;
    }
    n
}

/// The element roots of a record, in order (blank text around them is not
/// part of what a record *is*).
pub fn roots_of(doc: &Document, r: &Record) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut i = r.start;
    while i < r.end {
        if doc.element(i).is_some() {
            out.push(i);
        }
        i = doc.node(i).end;
    }
    out
}

/// Do two record lists hold the same elements, record by record?
pub fn same_records(doc: &Document, a: &[Record], b: &[Record]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| roots_of(doc, x) == roots_of(doc, y))
}

/// `siblings` for a group: how many element siblings follow each record's
/// first element inside the record (dt + dd pairs: 1), when all records
/// agree; 0 otherwise.
pub fn group_siblings(doc: &Document, records: &[Record]) -> usize {
    if records.is_empty() {
        return 0;
    }
    // The usual span: a last record that absorbed a trailing element (a
    // pager, a separator) must not cost the others their second half.
    let mut counts: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for r in records {
        *counts
            .entry(record_roots(doc, r).saturating_sub(1))
            .or_default() += 1;
    }
    let (k, n) = counts
        .into_iter()
        .max_by_key(|&(k, n)| (n, std::cmp::Reverse(k)))
        .unwrap_or((0, 0));
    if n * 5 >= records.len() * 4 {
        k.min(MAX_SIBLINGS)
    } else {
        0
    }
}

/// Records selected by `sel`: outermost matches, each a whole subtree plus
/// its next `siblings` element siblings, up to the next match (a record
/// without its optional part ends where the next one starts).
pub fn select_records(
    doc: &Document,
    css: &CssDoc<'_>,
    sel: &Selectors,
    siblings: usize,
) -> RecordSelection {
    let mut out = RecordSelection::default();
    let mut matches = css
        .matches(sel, 0..doc.nodes.len() as NodeId)
        .into_iter()
        .peekable();
    while let Some(id) = matches.next() {
        // Matches inside this one's subtree are nested ones, not records.
        let own_end = doc.node(id).end;
        while matches.next_if(|&m| m < own_end).is_some() {
            out.nested += 1;
        }
        let next = matches.peek().copied().unwrap_or(NodeId::MAX);
        let end = span_end(doc, id, siblings.min(MAX_SIBLINGS)).min(next);
        if out.records.len() >= MAX_SELECTED_RECORDS {
            out.capped += 1;
        } else {
            out.records.push(Record { start: id, end });
        }
    }
    out
}

/// The item fields a selector can set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Title,
    Link,
    Date,
    Summary,
    Image,
    Author,
    Categories,
}

impl Field {
    pub const ALL: [Field; 7] = [
        Field::Title,
        Field::Link,
        Field::Date,
        Field::Summary,
        Field::Image,
        Field::Author,
        Field::Categories,
    ];

    /// The key in `[feed.select]`.
    pub fn key(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Link => "link",
            Field::Date => "date",
            Field::Summary => "summary",
            Field::Image => "image",
            Field::Author => "author",
            Field::Categories => "categories",
        }
    }
}

/// A `[feed.select]` table as written (selectors as strings, checked by
/// [`SelectSpec::compile`] at config load).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SelectSpec {
    pub records: String,
    /// Element siblings after each matched element that belong to the
    /// record (`dt` + `dd`: 1). 0 by default.
    pub siblings: usize,
    /// Field selectors by field; a missing field is found automatically.
    pub fields: BTreeMap<&'static str, String>,
}

/// A compiled `[feed.select]`.
pub struct CompiledSelect {
    pub records: Selectors,
    pub siblings: usize,
    pub fields: Vec<(Field, FieldSelector)>,
}

impl SelectSpec {
    /// Compile every selector; the error names the field.
    pub fn compile(&self) -> Result<CompiledSelect, (&'static str, SelectorError)> {
        let records = compile(&self.records).map_err(|e| ("records", e))?;
        if split_attr(&self.records).is_ok_and(|(_, a)| a.is_some()) {
            return Err((
                "records",
                SelectorError::Attribute("(records select elements, not attributes)".into()),
            ));
        }
        let mut fields = Vec::new();
        for f in Field::ALL {
            if let Some(s) = self.fields.get(f.key()) {
                fields.push((f, FieldSelector::parse(s).map_err(|e| (f.key(), e))?));
            }
        }
        Ok(CompiledSelect {
            records,
            siblings: self.siblings,
            fields,
        })
    }
}

/// Items from a `[feed.select]`, with what went missing.
#[derive(Debug, Clone, Default)]
pub struct SelectedItems {
    pub selection: RecordSelection,
    /// One item per selected record, in page order (none dropped here).
    pub items: Vec<Item>,
    /// Per field: records on which the field's selector found nothing.
    pub missing: BTreeMap<&'static str, usize>,
}

/// Value of `fs` in `record`: the first match's text (or attribute).
fn first_value(
    doc: &Document,
    css: &CssDoc<'_>,
    rec: &Record,
    fs: &FieldSelector,
) -> Option<String> {
    all_values(doc, css, rec, fs).into_iter().next()
}

/// Values of every match of `fs` in `record`, non-empty, in page order.
fn all_values(doc: &Document, css: &CssDoc<'_>, rec: &Record, fs: &FieldSelector) -> Vec<String> {
    css.matches(&fs.compiled, rec.start..rec.end)
        .into_iter()
        .filter_map(|id| value_of(doc, id, fs.attr.as_deref()))
        .collect()
}

fn value_of(doc: &Document, id: NodeId, attr: Option<&str>) -> Option<String> {
    let v = match attr {
        Some(a) => collapse_whitespace(doc.element(id)?.attr(a)?),
        None => collapse_whitespace(&doc.text(id)),
    };
    (!v.is_empty()).then_some(v)
}

/// The date a date field's value gives. A date with a note after it
/// ("Published 20 November 2026 (reprint)") is still the field's date:
/// the first it holds.
fn date_value(v: &str, dates: &DateContext) -> Option<DateTime<FixedOffset>> {
    parse_date(v, dates)
        .or_else(|| parse_range_start(v, dates))
        .or_else(|| date_in(v, dates))
}

/// The date element `id` gives a date selector without `@attr`: `None`
/// when it shows nothing; its `datetime`, else its text's, except that
/// an age ("před 45 minutami", which moves with the clock) gives way to
/// the exact date of its `title` tooltip, as detection reads it.
fn element_date(
    doc: &Document,
    id: NodeId,
    dates: &DateContext,
) -> Option<Option<DateTime<FixedOffset>>> {
    if let Some(v) = value_of(doc, id, Some("datetime")) {
        return Some(date_value(&v, dates));
    }
    let text = value_of(doc, id, None)?;
    let (date, moves) = reads_clock(|| date_value(&text, dates));
    let exact = moves
        .then(|| value_of(doc, id, Some("title")))
        .flatten()
        .and_then(|t| items::tooltip_date(&t, dates));
    Some(exact.or(date))
}

/// A title field's value: its `@attr`, or the first match's text as
/// detection reads a title (without its badges, `items::title_text`).
fn title_value(
    doc: &Document,
    css: &CssDoc<'_>,
    rec: &Record,
    fs: &FieldSelector,
) -> Option<String> {
    match fs.attr {
        Some(_) => first_value(doc, css, rec, fs),
        None => css
            .matches(&fs.compiled, rec.start..rec.end)
            .into_iter()
            .map(|id| collapse_whitespace(&items::title_text(doc, id)))
            .find(|t| !t.is_empty()),
    }
}

/// A link field's value: its `@attr`, or the `href` of the first match.
fn link_value(
    doc: &Document,
    css: &CssDoc<'_>,
    rec: &Record,
    fs: &FieldSelector,
) -> Option<String> {
    match fs.attr {
        Some(_) => first_value(doc, css, rec, fs),
        None => css
            .matches(&fs.compiled, rec.start..rec.end)
            .into_iter()
            .find_map(|id| value_of(doc, id, Some("href"))),
    }
}

/// Build items from `[feed.select]`: records by the `records` selector, each
/// field by its selector when given, else found automatically.
pub fn apply(
    doc: &Document,
    css: &CssDoc<'_>,
    select: &CompiledSelect,
    base: &Url,
    dates: &DateContext,
) -> SelectedItems {
    let mut selection = select_records(doc, css, &select.records, select.siblings);
    // An advertisement or a sign-up box among the selected records is not
    // an item, as in automatic detection.
    let mut interrupting = items::interruptions(doc, &selection.records).into_iter();
    selection
        .records
        .retain(|_| !interrupting.next().unwrap_or(false));
    let list_dates = items::list_dates(doc, &selection.records, dates);
    let dates = &list_dates.dates;
    let plan = items::plan_titles(doc, &selection.records, dates);
    // Nor are lines of activity among posts ("added the bug label"), nor
    // what a deleted comment leaves.
    selection.records.retain(|r| {
        !plan.activity.contains(&r.start) && !items::is_deleted_entry(doc, r, plan.headless)
    });
    let mut missing: BTreeMap<&'static str, usize> = BTreeMap::new();
    // Records the selectors gave no date take their day heading's; their
    // yearless days are read near their section's month or the record
    // before.
    let records = &selection.records;
    let items = section_dates::items_in_sections(doc, records, dates, |i, dates| {
        let r = &records[i];
        let mut item = items::item_from_record(doc, r, base, dates, &plan);
        for (field, fs) in &select.fields {
            let reading = (base, dates, &plan.shared_images);
            if !set_field(doc, css, r, reading, *field, fs, &mut item) {
                *missing.entry(field.key()).or_default() += 1;
            }
        }
        item.guid = match &item.link {
            Some(l) => l.to_string(),
            None => items::content_guid(&item.title, &item.summary),
        };
        item
    });
    // The site's own promotion among the selected records is no item either.
    let mut items = items::without_house_promos(doc, records, items);
    items::without_list_numbering(&mut items);
    // A release list's "Unreleased" is no release, a line leading to no
    // article of its own is no item (a forum's separator row between its
    // sticky and other threads, linking nothing), and a list of dated
    // titles is dated by them, an undated post by its permalink's day,
    // as in detection.
    items::without_unreleased(&mut items);
    items::without_strays(&mut items, base);
    items::dated_by_titles(&mut items, dates);
    items::dated_by_links(&mut items, base, dates);
    list_dates.tell_in_shown_offset(&mut items);
    SelectedItems {
        selection,
        items,
        missing,
    }
}

/// Set one field from its selector; false when the selector found nothing
/// usable in this record (the field is then left empty, but for a date
/// the selector finds no element for: detection's stays).
/// `reading` is the page's base URL, its dates' context and the pictures
/// shared by the records (decoration, never a record's image: a
/// placeholder shown where a story has no photo).
fn set_field(
    doc: &Document,
    css: &CssDoc<'_>,
    r: &Record,
    (base, dates, shared): (&Url, &DateContext, &HashSet<String>),
    field: Field,
    fs: &FieldSelector,
    item: &mut Item,
) -> bool {
    match field {
        Field::Title => {
            item.title = title_value(doc, css, r, fs).unwrap_or_default();
            !item.title.is_empty()
        }
        Field::Link => {
            item.link =
                link_value(doc, css, r, fs).and_then(|h| items::resolve_link(base, &h, false));
            item.link.is_some()
        }
        Field::Date => {
            let date = match fs.attr {
                Some(_) => first_value(doc, css, r, fs).map(|v| date_value(&v, dates)),
                None => css
                    .matches(&fs.compiled, r.start..r.end)
                    .into_iter()
                    .find_map(|id| element_date(doc, id, dates)),
            };
            // A record the selector finds nothing in keeps the date its
            // text shows, as detection reads it (a news list's `<time>`
            // on most items, "Σήμερα, 09:15" in plain text on the
            // newest); the selector still counts as missing there.
            let Some(date) = date else { return false };
            item.date = date;
            item.date.is_some()
        }
        Field::Summary => {
            let v = first_value(doc, css, r, fs).unwrap_or_default();
            item.summary = clip_summary(&v);
            !item.summary.is_empty()
        }
        Field::Image => {
            item.image = match fs.attr {
                Some(_) => first_value(doc, css, r, fs).and_then(|h| items::resolve(base, &h)),
                // Without `@attr`: the picture the element shows, as
                // detection reads it (lazy-loading attributes first).
                None => css
                    .matches(&fs.compiled, r.start..r.end)
                    .into_iter()
                    .filter_map(|id| doc.element(id))
                    .filter(|el| !items::is_shared_image(el, shared))
                    .find_map(|el| items::img_source(el, base)),
            };
            item.image.is_some()
        }
        Field::Author => {
            item.author = first_value(doc, css, r, fs);
            item.author.is_some()
        }
        Field::Categories => {
            let mut cats: Vec<String> = Vec::new();
            for c in all_values(doc, css, r, fs) {
                if !cats.contains(&c) {
                    cats.push(c);
                }
            }
            item.categories = cats;
            !item.categories.is_empty()
        }
    }
}

fn clip_summary(s: &str) -> String {
    if s.chars().count() <= items::MAX_SUMMARY_CHARS {
        return s.to_string();
    }
    let cut: String = s.chars().take(items::MAX_SUMMARY_CHARS).collect();
    match cut.rfind(' ') {
        Some(i) if i > 0 => format!("{}…", &cut[..i]),
        _ => format!("{cut}…"),
    }
}

// ---------------------------------------------------------------------------
// Generation

/// True for class names and ids that look generated by a build tool or a
/// CSS-in-JS library, and so change between deployments.
pub fn looks_hashed(name: &str) -> bool {
    const PREFIXES: &[&str] = &["css-", "sc-", "jsx-", "svelte-", "emotion-", "styled-"];
    if PREFIXES
        .iter()
        .any(|p| name.starts_with(p) && name.len() > p.len())
    {
        return true;
    }
    name.split(['-', '_']).any(|tok| {
        let digits = tok.chars().filter(char::is_ascii_digit).count();
        let letters = tok.chars().filter(char::is_ascii_alphabetic).count();
        let switches = tok
            .as_bytes()
            .windows(2)
            .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
            .count();
        (tok.len() >= 5 && digits > 0 && letters > 0) || (tok.len() <= 10 && switches >= 2)
    })
}

/// A plain CSS identifier (no escaping needed), not starting with a digit.
fn plain_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Stable classes of an element, in source order.
fn stable_classes(doc: &Document, id: NodeId) -> Vec<String> {
    let Some(e) = doc.element(id) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for c in e.attr("class").unwrap_or("").split_whitespace() {
        if plain_ident(c) && !looks_hashed(c) && !out.iter().any(|o| o == c) {
            out.push(c.to_string());
        }
    }
    out
}

/// A stable id of an element: no digits, not hashed.
fn stable_id(doc: &Document, id: NodeId) -> Option<String> {
    let v = doc.element(id)?.attr("id")?.trim();
    (plain_ident(v) && !v.chars().any(|c| c.is_ascii_digit()) && !looks_hashed(v))
        .then(|| v.to_string())
}

/// Ways to write one element, most specific stable form first.
fn step_options(doc: &Document, id: NodeId, shared_classes: &[String]) -> Vec<String> {
    let Some(e) = doc.element(id) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(i) = stable_id(doc, id) {
        out.push(format!("#{i}"));
    }
    if !shared_classes.is_empty() {
        out.push(format!("{}.{}", e.name, shared_classes.join(".")));
        for c in shared_classes {
            let s = format!("{}.{c}", e.name);
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out.push(e.name.to_string());
    out
}

/// Steps that tell `level` from its siblings of its tag by a class only
/// those siblings carry: `tbody:not(.meta)`, the bodies of a table's
/// rows apart from the bodies of its group header rows.
fn exclusion_options(doc: &Document, level: &[NodeId]) -> Vec<String> {
    let Some(tag) = level.first().and_then(|&n| doc.tag(n)) else {
        return Vec::new();
    };
    let parents: std::collections::BTreeSet<NodeId> =
        level.iter().filter_map(|&n| doc.node(n).parent).collect();
    let mut classes: Vec<String> = Vec::new();
    for &p in &parents {
        for c in doc.children(p).filter(|&c| doc.tag(c) == Some(tag)) {
            if level.contains(&c) {
                continue;
            }
            for class in stable_classes(doc, c) {
                if !classes.contains(&class) {
                    classes.push(class);
                }
            }
        }
    }
    classes.retain(|c| !level.iter().any(|&n| stable_classes(doc, n).contains(c)));
    classes
        .into_iter()
        .take(2)
        .map(|c| format!("{tag}:not(.{c})"))
        .collect()
}

/// Classes every one of `ids` carries (stable ones only).
fn shared_classes(doc: &Document, ids: &[NodeId]) -> Vec<String> {
    let Some((&first, rest)) = ids.split_first() else {
        return Vec::new();
    };
    let mut shared = stable_classes(doc, first);
    for &id in rest {
        let here = stable_classes(doc, id);
        shared.retain(|c| here.contains(c));
    }
    shared.truncate(3);
    shared
}

/// Does `css` select exactly `targets` (sorted record roots)?
fn verifies(doc: &Document, cssdoc: &CssDoc<'_>, css: &str, targets: &[NodeId]) -> bool {
    let Ok(sel) = compile(css) else { return false };
    let got = cssdoc.matches(&sel, 0..doc.nodes.len() as NodeId);
    got == targets
}

/// A verified CSS selector that selects exactly the roots of `records`
/// (the first element of each record) on this page, or `None` when no
/// stable selector does.
pub fn group_selector(doc: &Document, css: &CssDoc<'_>, records: &[Record]) -> Option<String> {
    let targets: Vec<NodeId> = records.iter().map(|r| r.start).collect();
    if targets.is_empty() || targets.iter().any(|&t| doc.element(t).is_none()) {
        return None;
    }
    // Records headed by elements of several tags (a changelog's minor
    // releases under `h2`, its patches under `h3`): one selector per tag,
    // as a selector list.
    let mut tags: Vec<&str> = targets.iter().filter_map(|&t| doc.tag(t)).collect();
    tags.sort_unstable();
    tags.dedup();
    if tags.len() > 1 {
        let parts: Option<Vec<String>> = tags
            .iter()
            .map(|&tag| {
                let of_tag: Vec<NodeId> = targets
                    .iter()
                    .copied()
                    .filter(|&t| doc.tag(t) == Some(tag))
                    .collect();
                tag_selector(doc, css, &of_tag)
            })
            .collect();
        return parts.map(|p| p.join(", "));
    }
    tag_selector(doc, css, &targets)
}

/// [`group_selector`] for record roots `targets` of one tag.
fn tag_selector(doc: &Document, css: &CssDoc<'_>, targets: &[NodeId]) -> Option<String> {
    let mut record_steps = step_options(doc, targets[0], &shared_classes(doc, targets))
        .into_iter()
        .filter(|s| !s.starts_with('#'))
        .collect::<Vec<_>>();
    // Last, the records apart from their siblings of a class of their own:
    // `tr:not(.group-header)`, a table's rows between its group headers.
    record_steps.extend(exclusion_options(doc, targets));
    // Record roots alone, most specific first.
    for r in &record_steps {
        if verifies(doc, css, r, targets) {
            return Some(r.clone());
        }
    }
    // Under their parent(s): the parents' common form, then ancestors.
    let parents: Vec<NodeId> = targets
        .iter()
        .filter_map(|&t| doc.node(t).parent)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut context: Vec<Vec<String>> = Vec::new();
    let mut level = parents;
    for _ in 0..4 {
        if level.is_empty() || level.iter().any(|&p| doc.element(p).is_none()) {
            break;
        }
        let mut opts = if level.len() == 1 {
            step_options(doc, level[0], &stable_classes(doc, level[0]))
        } else {
            let shared = shared_classes(doc, &level);
            let same_tag = level.iter().all(|&p| doc.tag(p) == doc.tag(level[0]));
            if !same_tag {
                break;
            }
            step_options(doc, level[0], &shared)
                .into_iter()
                .filter(|s| !s.starts_with('#'))
                .collect()
        };
        opts.extend(exclusion_options(doc, &level));
        context.push(opts);
        // Candidates: each option at this level, joined by `>` down the
        // most specific options of the levels below.
        for opt in context.last().into_iter().flatten() {
            let below: Vec<&str> = context[..context.len() - 1]
                .iter()
                .rev()
                .filter_map(|o| o.first().map(String::as_str))
                .collect();
            for r in &record_steps {
                let mut parts = vec![opt.as_str()];
                parts.extend(below.iter().copied());
                parts.push(r);
                let child = parts.join(" > ");
                if verifies(doc, css, &child, targets) {
                    return Some(child);
                }
                // Descendant form for a unique anchor (an id).
                if opt.starts_with('#') && below.is_empty() {
                    let desc = format!("{opt} {r}");
                    if verifies(doc, css, &desc, targets) {
                        return Some(desc);
                    }
                }
            }
        }
        let next: std::collections::BTreeSet<NodeId> =
            level.iter().filter_map(|&p| doc.node(p).parent).collect();
        level = next.into_iter().collect();
    }
    positional_selector(doc, css, targets)
}

/// Last resort: the parent's full path with `:nth-child` steps, then the
/// record tag (with `:not(:nth-child(k))` for children left out). Exact on
/// this page, fragile across redesigns.
fn positional_selector(doc: &Document, css: &CssDoc<'_>, targets: &[NodeId]) -> Option<String> {
    let parent = doc.node(targets[0]).parent?;
    if targets.iter().any(|&t| doc.node(t).parent != Some(parent)) {
        return None;
    }
    let mut steps = Vec::new();
    let mut cur = parent;
    loop {
        let e = doc.element(cur)?;
        if let Some(i) = stable_id(doc, cur) {
            steps.push(format!("#{i}"));
            break;
        }
        if e.name == "html" {
            steps.push("html".into());
            break;
        }
        let parent = doc.node(cur).parent?;
        let pos = doc
            .children(parent)
            .filter(|&c| doc.element(c).is_some())
            .position(|c| c == cur)?
            + 1;
        steps.push(format!("{}:nth-child({pos})", e.name));
        cur = parent;
    }
    steps.reverse();
    let tag = doc.tag(targets[0])?;
    let mut record = tag.to_string();
    for (k, c) in doc
        .children(parent)
        .filter(|&c| doc.element(c).is_some())
        .enumerate()
    {
        if doc.tag(c) == Some(tag) && !targets.contains(&c) {
            record.push_str(&format!(":not(:nth-child({}))", k + 1));
        }
    }
    steps.push(record);
    let s = steps.join(" > ");
    verifies(doc, css, &s, targets).then_some(s)
}

/// Field selectors of a group, relative to a record; `None` where no
/// selector reproduces what automatic field finding gives.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct FieldSelectors {
    pub title: Option<String>,
    pub link: Option<String>,
    pub date: Option<String>,
    pub summary: Option<String>,
    pub image: Option<String>,
    pub author: Option<String>,
    pub categories: Option<String>,
}

impl FieldSelectors {
    pub fn get(&self, f: Field) -> Option<&str> {
        match f {
            Field::Title => self.title.as_deref(),
            Field::Link => self.link.as_deref(),
            Field::Date => self.date.as_deref(),
            Field::Summary => self.summary.as_deref(),
            Field::Image => self.image.as_deref(),
            Field::Author => self.author.as_deref(),
            Field::Categories => self.categories.as_deref(),
        }
    }

    fn set(&mut self, f: Field, v: String) {
        let slot = match f {
            Field::Title => &mut self.title,
            Field::Link => &mut self.link,
            Field::Date => &mut self.date,
            Field::Summary => &mut self.summary,
            Field::Image => &mut self.image,
            Field::Author => &mut self.author,
            Field::Categories => &mut self.categories,
        };
        *slot = Some(v);
    }
}

/// Share of records (with a value) on which a field selector must reproduce
/// the automatic value to be offered.
const FIELD_AGREEMENT: f64 = 0.8;

/// Relative selector candidates for node `id` in `record`: the element's own
/// step (`tag.class`, `tag`) and the path from the record root down.
fn relative_candidates(doc: &Document, rec: &Record, id: NodeId) -> Vec<String> {
    let Some(e) = doc.element(id) else {
        return Vec::new();
    };
    let classes = stable_classes(doc, id);
    let mut out = Vec::new();
    if let Some(c) = classes.first() {
        out.push(format!(".{c}"));
        out.push(format!("{}.{c}", e.name));
    }
    out.push(e.name.to_string());
    // Parent step + own step ("h3 a", "h3.title > a"), by each of the
    // parent's first classes: a modifier tells the published date's line
    // from the updated one's (`p.card__date--published` beside
    // `p.card__date--updated`, both `p.card__date`).
    let parent = doc
        .node(id)
        .parent
        .filter(|&p| p >= rec.start && p < rec.end);
    if let Some((p, pe)) = parent.and_then(|p| Some((p, doc.element(p)?))) {
        let classes = stable_classes(doc, p);
        let mut steps: Vec<String> = classes
            .iter()
            .take(PARENT_CLASSES)
            .map(|c| format!("{}.{c}", pe.name))
            .collect();
        if steps.is_empty() {
            steps.push(pe.name.to_string());
        }
        for pstep in steps {
            out.push(format!("{pstep} {}", e.name));
            out.push(format!("{pstep} > {}", e.name));
        }
    }
    out
}

/// A parent's classes tried as steps of a field's selector.
const PARENT_CLASSES: usize = 3;

/// Find field selectors for a group whose items the automatic finder made.
pub fn field_selectors(
    doc: &Document,
    css: &CssDoc<'_>,
    records: &[Record],
    base: &Url,
    dates: &DateContext,
    plan: &TitlePlan,
) -> FieldSelectors {
    let autos: Vec<Item> = records
        .iter()
        .map(|r| items::item_from_record(doc, r, base, dates, plan))
        .collect();
    let mut out = FieldSelectors::default();
    for f in Field::ALL {
        // Records linked by their own change links where their titles
        // repeat (`TitlePlan::change_links`) keep that link automatically:
        // a selector names one place, and a page's creation has its link
        // in another.
        if f == Field::Link && !plan.change_links.is_empty() {
            continue;
        }
        let reading = (base, dates, &plan.shared_images);
        if let Some(s) = best_field_selector(doc, css, records, &autos, reading, f) {
            out.set(f, s);
        }
    }
    out
}

/// What an item holds for `f`, as comparable strings.
fn auto_values(item: &Item, f: Field) -> Vec<String> {
    match f {
        Field::Title => vec![item.title.clone()],
        Field::Link => item.link.iter().map(Url::to_string).collect(),
        Field::Date => item.date.iter().map(|d| d.to_rfc3339()).collect(),
        Field::Summary => vec![item.summary.clone()],
        Field::Image => item.image.iter().map(Url::to_string).collect(),
        Field::Author => item.author.iter().cloned().collect(),
        Field::Categories => item.categories.clone(),
    }
    .into_iter()
    .filter(|v| !v.is_empty())
    .collect()
}

/// Nodes of `rec` that carry `value` for field `f`, with the `@attr` they
/// carry it in.
fn carriers(
    doc: &Document,
    rec: &Record,
    base: &Url,
    dates: &DateContext,
    f: Field,
    value: &str,
) -> Vec<(NodeId, Option<&'static str>)> {
    let mut out = Vec::new();
    for id in rec.start..rec.end {
        let Some(e) = doc.element(id) else { continue };
        let hit = match f {
            Field::Link => e
                .attr("href")
                .and_then(|h| items::resolve(base, h))
                .is_some_and(|u| u.as_str() == value)
                .then_some(Some("href")),
            // The element as detection reads it (a lazy-loaded picture's
            // `data-src`), else the attribute that holds the value.
            Field::Image if items::img_source(e, base).is_some_and(|u| u.as_str() == value) => {
                Some(None)
            }
            Field::Image => ["src", "data-src"]
                .into_iter()
                .find(|a| {
                    e.attr(a)
                        .and_then(|h| items::resolve(base, h))
                        .is_some_and(|u| u.as_str() == value)
                })
                .map(Some),
            Field::Date => {
                let same = |s: &str| parse_date(s, dates).is_some_and(|d| d.to_rfc3339() == value);
                if e.attr("datetime").is_some_and(same) {
                    Some(Some("datetime"))
                } else if same(&collapse_whitespace(&doc.text(id))) {
                    Some(None)
                } else {
                    None
                }
            }
            Field::Title => {
                (collapse_whitespace(&items::title_text(doc, id)) == value).then_some(None)
            }
            _ => (collapse_whitespace(&doc.text(id)) == value).then_some(None),
        };
        if let Some(attr) = hit {
            out.push((id, attr));
        }
    }
    // The deepest carrier of a text is the most precise one.
    if matches!(
        f,
        Field::Title | Field::Summary | Field::Author | Field::Categories | Field::Date
    ) {
        out.reverse();
    }
    // A date's machine-readable attribute before any text: the wrappers
    // around a `<time>` carry its text too, and a generic wrapper class
    // (`div.field-content`) also matches a record's other fields.
    if f == Field::Date {
        out.sort_by_key(|(_, attr)| attr.is_none());
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn best_field_selector(
    doc: &Document,
    css: &CssDoc<'_>,
    records: &[Record],
    autos: &[Item],
    reading: (&Url, &DateContext, &HashSet<String>),
    f: Field,
) -> Option<String> {
    let (base, dates, _) = reading;
    // Candidates from the first few records that have a value.
    let mut cands: Vec<String> = Vec::new();
    for (rec, item) in records.iter().zip(autos).take(50) {
        for v in auto_values(item, f).iter().take(1) {
            for (id, attr) in carriers(doc, rec, base, dates, f, v).into_iter().take(2) {
                for c in relative_candidates(doc, rec, id) {
                    let full = match attr {
                        Some(a) => format!("{c}@{a}"),
                        None => c,
                    };
                    if !cands.contains(&full) {
                        cands.push(full);
                    }
                }
            }
        }
        if cands.len() > 24 {
            break;
        }
    }
    let with_value = autos
        .iter()
        .filter(|i| !auto_values(i, f).is_empty())
        .count();
    if with_value == 0 || (with_value as f64) < 0.5 * records.len() as f64 {
        return None;
    }
    let mut best: Option<(usize, String)> = None;
    for c in cands {
        let Ok(fs) = FieldSelector::parse(&c) else {
            continue;
        };
        let mut agree = 0;
        let mut wrong = 0;
        for (rec, item) in records.iter().zip(autos) {
            let want = auto_values(item, f);
            let mut probe = item.clone();
            let found = set_field(doc, css, rec, reading, f, &fs, &mut probe);
            let got = auto_values(&probe, f);
            if want.is_empty() {
                wrong += usize::from(found);
            } else if found && got == want {
                // Found: a date the selector misses stays detection's,
                // which is no agreement.
                agree += 1;
            } else {
                wrong += 1;
            }
        }
        // A title or link selector must give every record what detection
        // gives it: a wrong title or link (an item's name and identity) is
        // worse than an automatic one. A blog whose untitled post is titled
        // by its words, or whose link posts link out while the others link
        // their own page, has no one place for them.
        let exact = matches!(f, Field::Title | Field::Link);
        let ok = agree as f64 >= FIELD_AGREEMENT * with_value as f64
            && wrong * 5 <= records.len()
            && (!exact || wrong == 0);
        if ok && best.as_ref().is_none_or(|(a, _)| agree > *a) {
            best = Some((agree, c));
        }
    }
    best.map(|(_, c)| c)
}

/// How a feed's records are chosen on its list page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ListChoice {
    /// The automatic winner (the default).
    #[default]
    Auto,
    /// The automatic group ranked `rank` (1 = the winner), as `preview`
    /// numbers them. Fragile: rankings move when the page changes.
    Group { rank: usize, fallback_auto: bool },
    /// `[feed.select]`: records and fields by CSS selectors.
    Select {
        spec: SelectSpec,
        fallback_auto: bool,
    },
}

impl ListChoice {
    /// True for `group` and `select` feeds (what drift calls pinned).
    pub fn is_pinned(&self) -> bool {
        !matches!(self, ListChoice::Auto)
    }

    pub fn fallback_auto(&self) -> bool {
        match self {
            ListChoice::Auto => false,
            ListChoice::Group { fallback_auto, .. } | ListChoice::Select { fallback_auto, .. } => {
                *fallback_auto
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;
    use crate::extract::records::records_where;

    fn dates() -> DateContext {
        DateContext::utc_at(2024, 6, 1, 0)
    }

    fn base() -> Url {
        Url::parse("https://shop.example/list").unwrap()
    }

    /// Record roots by tag and class, in page order.
    fn roots(doc: &Document, tag: &str, class: &str) -> Vec<Record> {
        records_where(doc, |i| {
            doc.element(i).is_some_and(|e| {
                e.name == tag
                    && e.attr("class")
                        .is_some_and(|c| c.split_whitespace().any(|x| x == class))
            })
        })
    }

    #[test]
    fn hashed_names_are_told_from_stable_ones() {
        for h in [
            "css-1x2y3z",
            "sc-bdVaJa",
            "jsx-2914",
            "a1b2c3",
            "Card_root__3xYz9",
            "x7f3e",
        ] {
            assert!(looks_hashed(h), "{h}");
        }
        for s in [
            "card",
            "event-tile",
            "post_title",
            "col-2",
            "h264",
            "iPhone",
            "postTitleLink",
            "entry-title-link",
        ] {
            assert!(!looks_hashed(s), "{s}");
        }
    }

    #[test]
    fn attr_suffix_is_split_only_at_the_end() {
        assert_eq!(split_attr("h3 a@href").unwrap(), ("h3 a", Some("href")));
        assert_eq!(split_attr("time").unwrap(), ("time", None));
        assert_eq!(
            split_attr("a[href^='mailto:x@y']").unwrap(),
            ("a[href^='mailto:x@y']", None)
        );
        assert!(split_attr("a@1bad").is_err());
        assert!(FieldSelector::parse("div..x").is_err());
        assert!(FieldSelector::parse("  ").is_err());
        assert!(compile(&"div ".repeat(400)).is_err());
    }

    #[test]
    fn generated_selector_skips_hashed_classes_and_excludes_look_alikes() {
        let html = "<html><body><ul class='nav'><li class='item'><a href='/a'>About</a></li>\
            <li class='item'><a href='/b'>Blog</a></li></ul>\
            <ul id='results' class='css-9x8y7z'>\
            <li class='item sc-bdVaJa'><a href='/p/1'>Walnut desk</a></li>\
            <li class='item sc-bdVaJa'><a href='/p/2'>Oak shelf</a></li>\
            <li class='item sc-bdVaJa'><a href='/p/3'>Pine bench</a></li></ul></body></html>";
        let doc = parse(html);
        let css = CssDoc::new(&doc);
        let ul = (0..doc.nodes.len() as NodeId)
            .find(|&i| {
                doc.element(i)
                    .is_some_and(|e| e.attr("id") == Some("results"))
            })
            .unwrap();
        let records: Vec<Record> = doc
            .children(ul)
            .filter(|&c| doc.element(c).is_some())
            .map(|c| Record {
                start: c,
                end: doc.node(c).end,
            })
            .collect();
        let sel = group_selector(&doc, &css, &records).unwrap();
        assert_eq!(sel, "#results > li.item");
        let got = select_records(&doc, &css, &compile(&sel).unwrap(), 0);
        assert_eq!(got.records, records);
    }

    /// The table rows of `doc` whose text holds `needle`, as records.
    fn rows_holding(doc: &Document, needle: &str) -> Vec<Record> {
        records_where(doc, |i| {
            doc.tag(i) == Some("tr") && doc.text(i).contains(needle)
        })
    }

    /// Regression (a standards body's documents table): the document rows
    /// sit in plain `tbody`s between `tbody.meta` bodies of group header
    /// rows; no selector named them, so the list could not be pinned.
    #[test]
    fn rows_apart_from_classed_header_bodies_are_selected_by_exclusion() {
        let body = |n: u32| {
            format!(
                "<tbody class=meta><tr><th colspan=3>Group {n}</th></tr></tbody><tbody>\
                 <tr><td><a href='/doc/d{n}a/'>draft-d{n}a-01</a></td><td>2024-03-0{n}</td></tr>\
                 <tr><td><a href='/doc/d{n}b/'>draft-d{n}b-04</a></td><td>2024-02-0{n}</td></tr></tbody>"
            )
        };
        let html = format!(
            "<html><body><table id=docs><thead><tr><th>Document</th><th>Date</th></tr></thead>{}</table></body></html>",
            (1..=3).map(body).collect::<String>()
        );
        let doc = parse(&html);
        let css = CssDoc::new(&doc);
        let rows = rows_holding(&doc, "draft-");
        assert_eq!(rows.len(), 6);
        let sel = group_selector(&doc, &css, &rows).unwrap();
        assert_eq!(sel, "tbody:not(.meta) > tr");
        let got = select_records(&doc, &css, &compile(&sel).unwrap(), 0);
        assert_eq!(got.records, rows);
    }

    #[test]
    fn positional_fallback_when_no_class_tells_records_apart() {
        // The header row has the same tag and no class: only a positional
        // selector can leave it out.
        let html = "<html><body><table><tr><td>Name</td><td>Size</td></tr>\
            <tr><td><a href='/f/1'>one.tar.gz</a></td><td>1 MB</td></tr>\
            <tr><td><a href='/f/2'>two.tar.gz</a></td><td>2 MB</td></tr></table>\
            <table><tr><td>x</td></tr></table></body></html>";
        let doc = parse(html);
        let css = CssDoc::new(&doc);
        let trs = rows_holding(&doc, ".tar.gz");
        let sel = group_selector(&doc, &css, &trs).unwrap();
        let got = select_records(&doc, &css, &compile(&sel).unwrap(), 0);
        assert_eq!(got.records, trs, "{sel}");
    }

    #[test]
    fn fields_by_selector_with_missing_attributes_counted() {
        let html = "<html><body><div class='grid'>\
            <div class='product'><img data-src='/i/1.jpg'><h2><a href='/p/1'>Walnut desk</a></h2>\
              <span class='price'>£120</span><time datetime='2024-05-01'>1 May</time>\
              <ul class='tags'><li>Wood</li><li>Office</li><li>Wood</li></ul></div>\
            <div class='product'><h2><a href='/p/2'>Oak shelf</a></h2>\
              <span class='price'>£80</span></div></div></body></html>";
        let doc = parse(html);
        let css = CssDoc::new(&doc);
        let mut spec = SelectSpec {
            records: "div.grid > .product".into(),
            ..SelectSpec::default()
        };
        spec.fields.insert("title", "h2".into());
        spec.fields.insert("image", "img@data-src".into());
        spec.fields.insert("date", "time".into());
        spec.fields.insert("summary", ".price".into());
        spec.fields.insert("categories", "ul.tags li".into());
        let compiled = spec.compile().unwrap();
        let out = apply(&doc, &css, &compiled, &base(), &dates());
        assert_eq!(out.items.len(), 2);
        let a = &out.items[0];
        assert_eq!(a.title, "Walnut desk");
        assert_eq!(
            a.link.as_ref().unwrap().as_str(),
            "https://shop.example/p/1"
        );
        assert_eq!(a.guid, "https://shop.example/p/1");
        assert_eq!(
            a.image.as_ref().unwrap().as_str(),
            "https://shop.example/i/1.jpg"
        );
        assert_eq!(
            a.date.unwrap().to_rfc3339(),
            "2024-05-01T12:00:00+00:00",
            "date-only at noon, as detection reads it"
        );
        assert_eq!(a.summary, "£120");
        assert_eq!(a.categories, vec!["Wood", "Office"]);
        let b = &out.items[1];
        assert!(b.image.is_none() && b.date.is_none() && b.categories.is_empty());
        assert_eq!(out.missing.get("image"), Some(&1));
        assert_eq!(out.missing.get("date"), Some(&1));
        assert_eq!(out.missing.get("title"), None);
    }

    #[test]
    fn a_selector_matching_thousands_of_nodes_is_capped_and_nesting_counted() {
        let mut html = String::from("<html><body><div class='outer'><div>");
        for i in 0..5_000 {
            html.push_str(&format!("<p><a href='/n/{i}'>note {i}</a></p>"));
        }
        html.push_str("</div></div></body></html>");
        let doc = parse(&html);
        let css = CssDoc::new(&doc);
        let got = select_records(&doc, &css, &compile("p").unwrap(), 0);
        assert_eq!(got.records.len(), MAX_SELECTED_RECORDS);
        assert_eq!(got.capped, 5_000 - MAX_SELECTED_RECORDS);
        // `div` matches the outer div and the inner one inside it.
        let got = select_records(&doc, &css, &compile("div").unwrap(), 0);
        assert_eq!((got.records.len(), got.nested), (1, 1));
    }

    #[test]
    fn siblings_make_dt_dd_pairs_one_record() {
        let html = "<html><body><dl class='archive'>\
            <dt>2024-03-01</dt><dd><a href='/a'>Implicit Monte Carlo 1</a></dd>\
            <dt>2024-02-01</dt><dd><a href='/b'>Deterministic transport</a></dd>\
            <dt>2024-01-01</dt></dl></body></html>";
        let doc = parse(html);
        let css = CssDoc::new(&doc);
        let got = select_records(&doc, &css, &compile("dl.archive > dt").unwrap(), 1);
        assert_eq!(got.records.len(), 3);
        let texts: Vec<String> = got
            .records
            .iter()
            .map(|r| collapse_whitespace(&doc.text_of_range(r.start, r.end)))
            .collect();
        assert_eq!(texts[0], "2024-03-01 Implicit Monte Carlo 1");
        // The last dt has no dd: the parent ends the record.
        assert_eq!(texts[2], "2024-01-01");
        assert_eq!(group_siblings(&doc, &got.records[..2]), 1);
        assert_eq!(group_siblings(&doc, &got.records), 0);
    }

    /// Regression: an event without its price line took the next event's
    /// date badge as its last sibling, and that event was lost (counted as
    /// nested in the one before).
    #[test]
    fn a_record_without_its_optional_part_ends_where_the_next_starts() {
        let event = |n: u32, price: bool| {
            let price = if price {
                "<p class=price>From £12</p>"
            } else {
                ""
            };
            format!(
                "<div class=date>SAT DEC {n}</div><h3><a href='/e/{n}'>Event {n}</a></h3>\
                 <p class=venue>Hall {n}</p>{price}<div class=actions>Share</div>"
            )
        };
        let html = format!(
            "<html><body><div id=results>{}{}{}</div></body></html>",
            event(1, true),
            event(2, false),
            event(3, true)
        );
        let doc = parse(&html);
        let css = CssDoc::new(&doc);
        let got = select_records(&doc, &css, &compile("#results > div.date").unwrap(), 4);
        let texts: Vec<String> = got
            .records
            .iter()
            .map(|r| collapse_whitespace(&doc.text_of_range(r.start, r.end)))
            .collect();
        assert_eq!(
            texts,
            [
                "SAT DEC 1 Event 1 Hall 1 From £12 Share",
                "SAT DEC 2 Event 2 Hall 2 Share",
                "SAT DEC 3 Event 3 Hall 3 From £12 Share"
            ]
        );
        assert_eq!(got.nested, 0);
    }

    #[test]
    fn field_selectors_reproduce_automatic_fields() {
        let mut html = String::from("<html><body><main><section class='posts'>");
        for i in 1..=5 {
            html.push_str(&format!(
                "<article class='post'><h2 class='post-title'><a href='/posts/{i}'>Post number {i} about gardens</a></h2>\
                 <time datetime='2024-05-0{i}T08:00:00+00:00'>May {i}</time>\
                 <img src='/img/{i}.jpg'><p>Some words about the garden in spring, part {i}.</p></article>"
            ));
        }
        html.push_str("</section></main></body></html>");
        let doc = parse(&html);
        let css = CssDoc::new(&doc);
        let records = roots(&doc, "article", "post");
        let plan = items::plan_titles(&doc, &records, &dates());
        let f = field_selectors(&doc, &css, &records, &base(), &dates(), &plan);
        assert_eq!(
            group_selector(&doc, &css, &records).as_deref(),
            Some("article.post")
        );
        assert!(f.title.is_some() && f.link.is_some(), "{f:?}");
        assert_eq!(f.date.as_deref(), Some("time@datetime"));
        assert_eq!(f.image.as_deref(), Some("img"));
    }

    /// Drupal Views-style rows: every field sits in a `div.field-content`,
    /// and one row has an extra field before its date.
    fn views_rows() -> String {
        let mut html = String::from("<html><body><div class='view-content'>");
        for i in 1..=6 {
            let extra = if i == 3 {
                "<div class='views-field'><div class='field-content'><a href='/type/award'>Award</a></div></div>"
            } else {
                ""
            };
            html.push_str(&format!(
                "<div class='views-row'>\
                 <div class='views-field'><div class='field-content'><img src='/blank.gif' data-src='/img/{i}.jpg' width='300'></div></div>{extra}\
                 <div class='views-field'><h3 class='field-content'><a href='/news/{i}'>News item number {i} from the lab</a></h3></div>\
                 <div class='views-field'><div class='field-content'><span><time datetime='2024-02-0{i}T12:00:00Z'>{i} February 2024</time></span></div></div>\
                 </div>"
            ));
        }
        html.push_str("</div></body></html>");
        html
    }

    /// The field selectors found for [`views_rows`].
    fn views_fields(doc: &Document, css: &CssDoc<'_>) -> FieldSelectors {
        let records = roots(doc, "div", "views-row");
        let plan = items::plan_titles(doc, &records, &dates());
        field_selectors(doc, css, &records, &base(), &dates(), &plan)
    }

    #[test]
    fn date_selector_reads_the_time_element_not_its_wrapper_class() {
        // Regression: the two outermost carriers of the date text
        // (`div.views-field`, `div.field-content`) were the only candidates,
        // and `div.field-content` read "Award" on the row with an extra field.
        let html = views_rows();
        let doc = parse(&html);
        let css = CssDoc::new(&doc);
        let f = views_fields(&doc, &css);
        assert_eq!(f.date.as_deref(), Some("time@datetime"), "{f:?}");
    }

    #[test]
    fn image_selector_without_attribute_reads_the_lazy_loaded_picture() {
        // Regression: a pinned `img@src` read the placeholder of lazy-loaded
        // pictures that detection had read from `data-src`.
        let html = views_rows();
        let doc = parse(&html);
        let css = CssDoc::new(&doc);
        let f = views_fields(&doc, &css);
        assert_eq!(f.image.as_deref(), Some("img"), "{f:?}");
        let mut spec = SelectSpec {
            records: "div.views-row".into(),
            ..SelectSpec::default()
        };
        spec.fields.insert("image", "img".into());
        let out = apply(&doc, &css, &spec.compile().unwrap(), &base(), &dates());
        let first = out.items.first().and_then(|i| i.image.as_ref());
        assert_eq!(
            first.map(Url::as_str),
            Some("https://shop.example/img/1.jpg")
        );
    }

    /// Regression (round 71, a Czech news section): a date selector
    /// without `@attr` on `span.time` read "před 45 minutami" (45 minutes
    /// ago, against the clock) where the element's `title` tooltip gives
    /// the exact time, which detection reads.
    #[test]
    fn date_selector_reads_the_tooltip_of_an_age() {
        let html = "<div class=list>\
            <div class=art><h3><a href=/a1>Snow on the D1</a></h3>\
              <span class=time title='1. prosince 2026 8:32'>před 45 minutami</span></div>\
            <div class=art><h3><a href=/a2>Hospital opens a ward</a></h3>\
              <span class=time>28. listopadu 2026 14:03</span></div>\
            <div class=art><h3><a href=/a3>Trams to the campus</a></h3>\
              <span class=time>včera 21:40</span></div></div>";
        let doc = parse(html);
        let css = CssDoc::new(&doc);
        let mut spec = SelectSpec {
            records: "div.art".into(),
            ..SelectSpec::default()
        };
        spec.fields.insert("date", ".time".into());
        let now = DateContext::utc_at(2026, 12, 1, 10);
        let out = apply(&doc, &css, &spec.compile().unwrap(), &base(), &now);
        let got: Vec<String> = out
            .items
            .iter()
            .map(|i| {
                i.date
                    .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(
            got,
            ["2026-12-01 08:32", "2026-11-28 14:03", "2026-11-30 21:40"]
        );
    }

    /// Regression (a Thai news section): a pinned `img` gave two stories
    /// without a photo the section's placeholder picture, which detection
    /// leaves out as shared by several records.
    #[test]
    fn image_selector_skips_a_picture_shared_by_several_records() {
        let story = |k: u32, img: &str| {
            format!(
                "<article class=story><a href=/news/{k}><img src='{img}' width=360 height=203></a>\
                 <h3><a href=/news/{k}>Story number {k} about the budget</a></h3></article>"
            )
        };
        let html = format!(
            "<main>{}{}{}{}</main>",
            story(1, "/images/1.jpg"),
            story(2, "/assets/placeholder.png"),
            story(3, "/images/3.jpg"),
            story(4, "/assets/placeholder.png")
        );
        let doc = parse(&html);
        let css = CssDoc::new(&doc);
        let mut spec = SelectSpec {
            records: "article.story".into(),
            ..SelectSpec::default()
        };
        spec.fields.insert("image", "img".into());
        let out = apply(&doc, &css, &spec.compile().unwrap(), &base(), &dates());
        let images: Vec<Option<&str>> = out
            .items
            .iter()
            .map(|i| i.image.as_ref().map(Url::as_str))
            .collect();
        let host = base();
        let at = |p: &str| host.join(p).map(String::from).ok();
        assert_eq!(
            images,
            [
                at("/images/1.jpg").as_deref(),
                None,
                at("/images/3.jpg").as_deref(),
                None
            ]
        );
    }

    /// Regression: selected records kept what detection drops, a
    /// release list's "Unreleased" (no version, no date) among them.
    #[test]
    fn selected_release_notes_leave_out_unreleased() {
        let release = |v: &str, day: &str| {
            format!(
                "<section class=rel><h2><a href=/compare/{v}>{v}</a> - {day}</h2>\
                 <ul><li>Fixed a crash.</li></ul></section>"
            )
        };
        let html = format!(
            "<main><section class=rel><h2><a href=/compare/HEAD>Unreleased</a></h2>\
             <ul><li>Work in progress.</li></ul></section>{}{}{}</main>",
            release("2.4.1", "2025-02-03"),
            release("2.4.0", "2025-01-14"),
            release("2.3.0", "2024-10-21")
        );
        let doc = parse(&html);
        let css = CssDoc::new(&doc);
        let spec = SelectSpec {
            records: "section.rel".into(),
            ..SelectSpec::default()
        };
        let out = apply(&doc, &css, &spec.compile().unwrap(), &base(), &dates());
        let titles: Vec<&str> = out.items.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(titles, ["2.4.1", "2.4.0", "2.3.0"]);
    }
}
