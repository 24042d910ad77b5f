//! Record → item: turns one mined record (a run of sibling DOM subtrees) into
//! a feed item with title, absolute link, date, summary and image.
//!
//! Invariants: `link` and `image` are absolute http(s) URLs; `guid` is stable
//! for the same record content (the link when there is one, otherwise a hash
//! of title and summary), so a record seen again maps to the same item.
//!
//! [`item_from_record`] reads the record once and hands over: `plan` (a
//! group's title path, read once for all its records), `titles`, `posts`
//! (records without a headline), `record_dates`, `links`, `images`, and
//! `interruptions` (what stands among the records without being one).
//! Once a list's items are made, `title_dates` and `link_dates` date
//! those nothing else dated (by their titles, by their permalinks).

use std::borrow::Cow;
use std::ops::Range;

use chrono::{DateTime, FixedOffset};
use sha2::{Digest, Sha256};
use url::Url;

use crate::extract::dates::{
    DateContext, date_in, find_any, find_date, may_hold_date, numeric_orders_of, parse_any,
    parse_date, parse_day, parse_range_start, reads_clock,
};
use crate::extract::dom::{
    Document, Element, NodeData, NodeId, collapse_whitespace, ends_with_ascii_ci, find_ascii_ci,
    heading_level, holds_any_ascii_ci, is_block_element, is_heading, starts_with_ascii_ci,
};
use crate::extract::records::Record;

mod images;
mod interruptions;
mod link_dates;
mod links;
mod numbering;
mod plan;
mod posts;
mod record_dates;
mod releases;
mod repeats;
mod strays;
mod title_dates;
mod titles;

use images::*;
use links::*;
use posts::*;
use record_dates::*;
use titles::*;

pub use images::{img_source, is_shared_image};
pub use interruptions::{
    interludes, interruptions, is_advertising, is_deleted_entry, is_deleted_stub, is_signup_box,
    without_house_promos,
};
pub use link_dates::dated_by_links;
pub(crate) use links::is_download;
pub use links::{base_url, is_listing_link, resolve, resolve_link, resolve_with_fragment};
pub use numbering::without_list_numbering;
pub use plan::{TitlePlan, plan_titles};
pub use posts::HEADLESS_TITLE_CHARS;
pub(crate) use posts::shows_only_time;
pub use record_dates::{ListDates, list_dates};
pub(crate) use record_dates::{date_moves_with_clock, tooltip_date};
pub use releases::without_unreleased;
pub use repeats::without_repeats;
pub use strays::without_strays;
pub use title_dates::dated_by_titles;
pub(crate) use titles::{is_action_text, is_title_element, title_text};

/// One entry of a published feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The record's main link text or heading, whitespace-collapsed.
    pub title: String,
    /// Absolute URL of the record's main link, if it has one.
    pub link: Option<Url>,
    /// Stable identifier: the link's string when there is a link, otherwise
    /// `"urn:feedmine:<hex sha256 prefix>"` of title + summary.
    pub guid: String,
    /// Publication date found in the record, if any.
    pub date: Option<DateTime<FixedOffset>>,
    /// True when `date` was resolved from a phrase relative to the fetch
    /// time ("2 days ago", "today"): the state keeps the first sight's.
    pub date_relative: bool,
    /// The record's remaining text (without the title), whitespace-collapsed.
    pub summary: String,
    /// First content image of the record, absolute.
    pub image: Option<Url>,
    /// The record's byline (poster, author), whitespace-collapsed.
    pub author: Option<String>,
    /// The record's tags or labels, in page order, without duplicates.
    pub categories: Vec<String>,
    /// Sanitized main-content HTML of the linked page (filled by `bodies`).
    pub body_html: Option<String>,
}

#[cfg(test)]
impl Item {
    /// Tests' item: `title` and nothing else.
    pub(crate) fn bare(title: &str) -> Item {
        Item {
            title: title.to_owned(),
            link: None,
            guid: String::new(),
            date: None,
            date_relative: false,
            summary: String::new(),
            image: None,
            author: None,
            categories: Vec::new(),
            body_html: None,
        }
    }
}

impl Item {
    /// True when `guid` is the link itself (RSS `isPermaLink="true"`).
    pub fn guid_is_permalink(&self) -> bool {
        self.link.as_ref().is_some_and(|l| l.as_str() == self.guid)
    }
}

/// Summaries are cut (at a word boundary) beyond this many characters.
pub const MAX_SUMMARY_CHARS: usize = 1_000;

/// True when one of `tokens`, or a part of one cut at `separators` (ASCII
/// bytes), is one of `words` (any case): `ad-slot` holds `ad`, `img-icon`
/// holds `icon`. Cut on the bytes: no character is decoded.
pub(crate) fn has_part<'t>(
    tokens: impl Iterator<Item = &'t str>,
    separators: &[u8],
    words: &[&str],
) -> bool {
    tokens
        .flat_map(|t| t.as_bytes().split(|b| separators.contains(b)))
        .any(|part| {
            words
                .iter()
                .any(|w| part.eq_ignore_ascii_case(w.as_bytes()))
        })
}

/// A link inside a record, with what the title choice needs.
struct LinkInfo<'p> {
    node: NodeId,
    url: Url,
    /// Its title text (borrowed from the plan, which read every link).
    text: Cow<'p, str>,
    on_title_path: bool,
}

/// The link of a heading read as the title that is the whole heading: a
/// docs page's dated entry "<h3 id=…><a href=release-notes/…>November 10,
/// 2026</a><a href=#… class=hash-link>​</a></h3>" (its text is a date,
/// so it was not read as a title link) is linked by it, not by its
/// place on the page. A file, an in-page anchor or a link over part of
/// the heading is not the heading's.
fn heading_link(doc: &Document, heading: NodeId, links: &[LinkInfo]) -> Option<Url> {
    let end = doc.node(heading).end;
    let words = |t: &str| -> String { t.chars().filter(|c| c.is_alphanumeric()).collect() };
    let whole = words(&doc.text(heading));
    links
        .iter()
        .filter(|l| (heading + 1..end).contains(&l.node))
        .find(|l| {
            let href = links::link_href(doc, l.node).unwrap_or("").trim();
            !whole.is_empty()
                && !href.starts_with('#')
                && !links::is_download(href)
                && words(&doc.text(l.node)) == whole
        })
        .map(|l| l.url.clone())
}

/// True when `i` is the `dt` that starts `record`, holds no worded link
/// and is no date: the term a description list's record is about
/// ("Version 5.12.1 — 24 November 2026" over its notes) heads it as a
/// heading does, even where a permalink ("¶") would make the record
/// headless. A term holding its headline link is titled by that link; a
/// term that is the date of the event its `dd` names is no title.
fn is_lead_term(doc: &Document, record: &Record, i: NodeId, dates: &DateContext) -> bool {
    i == record.start
        && doc.is_tag(i, "dt")
        && (i..doc.node(i).end)
            .all(|j| !doc.is_tag(j, "a") || !doc.text(j).chars().any(char::is_alphanumeric))
        && {
            // A date term keeps no word of its own beside its date.
            let text = doc.text(i);
            let day = crate::extract::dates::find_date(&text, dates).map_or(0..0, |(_, r)| r);
            let letters = |t: &str| t.chars().filter(|c| c.is_alphabetic()).count();
            letters(&text[..day.start]) + letters(&text[day.end..]) >= MIN_TERM_LETTERS
        }
}

/// Fewest letters a term keeps beside its date to head its record
/// ([`is_lead_term`]): "Version", not a weekday's "Wed".
const MIN_TERM_LETTERS: usize = 4;

/// Turn one record into an item. `base` is [`base_url`] of the page.
pub fn item_from_record(
    doc: &Document,
    record: &Record,
    base: &Url,
    dates: &DateContext,
    plan: &TitlePlan,
) -> Item {
    let mut links: Vec<LinkInfo> = Vec::new();
    let mut heading: Option<NodeId> = None;
    let mut image: Option<Url> = None;
    let mut attr_date: Option<DateTime<FixedOffset>> = None;
    // Subtrees hidden by their markup, and the first date found in them:
    // a reader sees the visible date (phpBB's hidden "last post" line
    // comes before the topic's own date).
    let mut hidden: Vec<Range<NodeId>> = Vec::new();
    let mut hidden_date: Option<DateTime<FixedOffset>> = None;
    // The exact date of a thread's latest activity, for a record without
    // a date of its own.
    let mut latest: Option<LatestActivity> = None;
    // The first attribute date labelled as a revision ("Updated:") or a
    // passed deadline: the record's only when no other date is.
    let mut fallback: Option<LatestActivity> = None;
    for i in record.start..record.end {
        let Some(el) = doc.element(i) else { continue };
        let name = el.name.as_str();
        if !hidden.last().is_some_and(|r| r.contains(&i)) && el.is_hidden() {
            hidden.push(i..doc.node(i).end);
        }
        let in_hidden = hidden.last().is_some_and(|r| r.contains(&i));
        if name == "a" {
            let url = el
                .attr("href")
                .and_then(|h| resolve_link(base, h, plan.keep_fragments));
            if let Some(url) = url {
                let text = match plan.link_texts.get(&i) {
                    Some(t) => Cow::Borrowed(t.as_str()),
                    None => Cow::Owned(link_title_text(doc, i)),
                };
                let on_title_path = plan.title_links.contains(&i);
                links.push(LinkInfo {
                    node: i,
                    url,
                    text,
                    on_title_path,
                });
            }
        } else if heading.is_none()
            && ((is_heading(name) && !plan.is_subheading(name))
                || is_own_summary(doc, record, i)
                || is_lead_term(doc, record, i, dates))
            && doc.text_bytes(i) > 0
        {
            heading = Some(i);
        } else if name == "img"
            && image.is_none()
            && !is_shared_image(el, &plan.shared_images)
            && !in_icon_box(doc, i)
            && !in_poster_profile(doc, record, i)
        {
            image = image_url(el, base);
        }
        if image.is_none() && name != "img" {
            image = background_image(el, base);
        }
        if attr_date.is_none() && !(in_hidden && hidden_date.is_some()) {
            let found = match attribute_date(doc, i, dates) {
                Some(d) if labelled_latest(doc, record, i) => {
                    if labelled_latest_activity(doc, record, i) {
                        latest.get_or_insert((d, i..doc.node(i).end));
                    } else if d <= dates.now {
                        // A deadline already passed ("Closed <abbr title=…>3
                        // days ago</abbr>", a map edit's changeset) dates a
                        // record that shows nothing else, as an update does.
                        fallback.get_or_insert((d, i..doc.node(i).end));
                    }
                    None
                }
                Some(d) if labelled_revision(doc, record, i) => {
                    fallback.get_or_insert((d, i..doc.node(i).end));
                    None
                }
                other => other,
            };
            if in_hidden {
                hidden_date = found;
            } else {
                attr_date = found;
            }
        }
    }

    // The link whose text is the title, which dates are not read from (a
    // year in a headline): a headless record's permalink is no title, and
    // its text is often the record's date ("Feb 12th, 2024").
    let termed = heading.is_some_and(|h| doc.is_tag(h, "dt"));
    let (title, link_node, title_link, title_heading) = if plan.headless && !termed {
        let (title, link, title_link) = headless_title(
            doc,
            record,
            &links,
            (&plan.permalinks, plan.subjects),
            dates,
        );
        (title, link, title_link, None)
    } else {
        let (title, link, heading) = choose_title(doc, record, &links, heading, plan, dates);
        // A date line the title was not read from (an untitled review's
        // "Reviewed … on 3 October 2026") dates its record.
        let dated_line = links
            .iter()
            .find(|l| Some(l.node) == link)
            .is_some_and(|l| {
                !title.contains(l.text.as_ref()) && find_date(&l.text, dates).is_some()
            });
        (title, link, link.filter(|_| !dated_line), heading)
    };
    let own = links.iter().find(|l| plan.change_links.contains(&l.node));
    // A heading read as the title beside a file link is linked by its own
    // place on the page when it has one (an agenda item's `h3 id`: the
    // file is an attachment of it); a record without a title link is
    // linked by the link that is its whole heading ([`heading_link`]),
    // else by its heading's place, before any link its words cite.
    let linked = links.iter().find(|l| Some(l.node) == link_node);
    let whole_heading = || heading.and_then(|h| heading_link(doc, h, &links));
    // "Learn more" and a heading's `¶` anchor lead to the entry only when
    // its heading does not.
    let in_page = |l: &LinkInfo| link_href(doc, l.node).is_some_and(|h| h.starts_with('#'));
    // A headline is read no further: "more" texts are short.
    let more = |l: &LinkInfo| l.text.len() <= MAX_MORE_BYTES && is_more_text(&l.text);
    let by_title = || match linked {
        Some(l) if in_page(l) || more(l) => whole_heading().or_else(|| Some(l.url.clone())),
        Some(l) => Some(l.url.clone()),
        None => whole_heading(),
    };
    let link = own
        .map(|l| l.url.clone())
        .or_else(|| title_heading.and_then(|h| titles::heading_place(doc, record, h, base)))
        .or_else(by_title)
        .or_else(|| heading.and_then(|h| titles::heading_place(doc, record, h, base)))
        .or_else(|| {
            // An unlinked headline among linked ones has no page of its
            // own: at most its record's place on the page. Else the first
            // link that is no author's name (a paper without a page of its
            // own is linked by its PDF, not by its first author's site).
            match heading.is_some_and(|h| titles::unlinked_headline(doc, h, &links, plan)) {
                true => record_anchor(doc, record, base),
                // A post without a page of its own (a review) is not
                // linked by the photo it shows.
                false => {
                    let page = |l: &&LinkInfo| !(plan.headless && is_picture_file(l.url.path()));
                    links
                        .iter()
                        .filter(page)
                        .find(|l| !plan::in_author_list(doc, record, l.node))
                        .or(links.first().filter(page))
                        .map(|l| l.url.clone())
                }
            }
        });

    // What a reader reads: the subtrees the markup hides (phpBB's
    // mobile-only "Last post by …" line) and the labels of buttons are
    // left out.
    let full = doc.read_text_prefix(record.start, record.end, summary_source_bytes(&title));
    // A headless record's title is a cut of its own prose (a comment): the
    // summary keeps the whole text, or a short comment would have none.
    let summary = summary_without(full, if plan.headless { "" } else { &title });
    // A machine-readable attribute date is absolute; only a date read from
    // the text can be relative ("2 days ago"), so only that one is re-read.
    let (date, date_relative) = match attr_date {
        Some(d) => (Some(d), false),
        None => {
            let title = TitleSource {
                link: title_link,
                heading: title_heading,
                link_is_permalink: title_link.is_some_and(|l| plan.permalinks.contains(&l)),
            };
            // A revision's date is one more exact date of the record's
            // activity: its element is not read again as text ("Updated
            // <time datetime=…>about 4 hours ago</time>").
            let exact = latest.or(fallback);
            record_text_date(doc, record, title, &hidden, hidden_date, exact, dates)
        }
    };
    let (author, categories) = crate::extract::byline::byline_and_tags(doc, record, link_node);
    let guid = match &link {
        Some(l) => l.to_string(),
        None => content_guid(&title, &summary),
    };
    Item {
        title,
        link,
        guid,
        date,
        date_relative,
        summary,
        image,
        author,
        categories,
        body_html: None,
    }
}

/// `text` whitespace-collapsed and cut at a word boundary to at most
/// `limit` characters, with an ellipsis when cut.
pub fn cut_at_word(text: &str, limit: usize) -> String {
    let text = collapse_whitespace(text);
    if text.chars().count() <= limit {
        return text;
    }
    let head: String = text.chars().take(limit + 1).collect();
    let cut = match head.rfind(' ') {
        Some(p) if p > 0 => &head[..p],
        _ => head.trim_end(),
    };
    let cut = cut.trim_end_matches([' ', ',', ';', ':', '-', '–', '—']);
    format!("{cut}…")
}

/// The record's first line: for a table row, its first cell with text
/// (the cell's blocks joined by spaces, never glued); otherwise the text
/// from the first text node to the next block boundary.
fn first_line(doc: &Document, record: &Record) -> String {
    if doc.is_tag(record.start, "tr")
        && let Some(cell) = doc
            .children(record.start)
            .filter(|&c| doc.is_tag(c, "td") || doc.is_tag(c, "th"))
            .find(|&c| doc.text_bytes(c) > 0)
    {
        return doc.text(cell);
    }
    let Some(first) = (record.start..record.end)
        .find(|&i| matches!(doc.node(i).data, NodeData::Text { blank: false, .. }))
    else {
        return String::new();
    };
    let block = doc
        .ancestors(first)
        .take_while(|&a| a >= record.start)
        .find(|&a| doc.tag(a).is_some_and(is_block_element))
        .unwrap_or(record.start);
    let end = doc.node(block).end.min(record.end);
    let mut raw = String::new();
    for i in first..end {
        match &doc.node(i).data {
            NodeData::Text { text, .. } => raw.push_str(text),
            NodeData::Element(e) if is_block_element(&e.name) => break,
            _ => {}
        }
    }
    collapse_whitespace(&raw)
}

/// How much of a record's text [`summary_without`] needs to give what
/// the whole text would: with the title's first occurrence removed (one
/// space for it), more than [`MAX_SUMMARY_CHARS`] characters of four bytes
/// at most are left, so the summary is cut at the same place; and a title
/// that first occurs further on lies past the cut.
fn summary_source_bytes(title: &str) -> usize {
    4 * (MAX_SUMMARY_CHARS + 1) + title.len() + 1
}

/// The record's text with the title's first occurrence removed (unless
/// it is quoted there), cut to [`MAX_SUMMARY_CHARS`].
fn summary_without(full: String, title: &str) -> String {
    let rest = match (title.is_empty(), full.find(title)) {
        // A citation's quoted title stays in its sentence: the authors,
        // the title and the venue read as one.
        (false, Some(pos)) if !full[..pos].ends_with('“') => {
            // What is left on either side of the title, one space between
            // (the text is collapsed: its only whitespace is single spaces).
            let before = full[..pos].trim_end_matches(' ');
            let after = full[pos + title.len()..].trim_start_matches(' ');
            let mut rest = String::with_capacity(before.len() + 1 + after.len());
            rest.push_str(before);
            if !before.is_empty() && !after.is_empty() {
                rest.push(' ');
            }
            rest.push_str(after);
            rest
        }
        // The record's text is whitespace-collapsed already.
        _ => full,
    };
    if rest.len() <= MAX_SUMMARY_CHARS || rest.chars().count() <= MAX_SUMMARY_CHARS {
        return rest;
    }
    let cut: String = rest.chars().take(MAX_SUMMARY_CHARS).collect();
    let cut = match cut.rfind(' ') {
        Some(p) if p > MAX_SUMMARY_CHARS / 2 => cut[..p].to_string(),
        _ => cut,
    };
    format!("{cut}…")
}

/// What a content guid starts with.
const GUID_PREFIX: &str = "urn:feedmine:";

/// The digits of a lower-case hex number.
const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Stable guid for a record without a link.
pub fn content_guid(title: &str, summary: &str) -> String {
    let mut h = Sha256::new();
    h.update(title.as_bytes());
    h.update([0u8]);
    h.update(summary.as_bytes());
    let digest = h.finalize();
    let mut guid = String::with_capacity(GUID_PREFIX.len() + 32);
    guid.push_str(GUID_PREFIX);
    for b in digest.iter().take(16) {
        // Two lower-case hex digits a byte, as `{:02x}` writes them.
        for nibble in [b >> 4, b & 0xf] {
            guid.push(char::from(HEX_DIGITS[usize::from(nibble)]));
        }
    }
    guid
}

#[cfg(test)]
mod tests;
