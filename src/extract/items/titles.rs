//! A record's title: the chosen link's text without its badges, a heading,
//! a bold citation title, or the pieces of a title split into glued links;
//! with the tests that place a link in a heading, a header or a closed
//! `details`.
//!
//! Invariants: a title is what a reader sees (hidden and screen-reader text
//! left out unless it is all there is), whitespace-collapsed.

use super::*;

/// Link texts that name an action, not the record: never a title when the
/// record has a better link. Written lower case and without the punctuation
/// around them ("More »", "more..." are "more"), as [`is_action_text`]
/// compares them.
pub(super) const ACTION_TEXTS: &[&str] = &[
    "comments",
    "reply",
    "quote",
    "edit",
    "edit source",
    "share",
    "save",
    "report",
    "permalink",
    "view all",
    "see all",
    "show all",
    "all posts",
    "older posts",
    "newer posts",
    "load more",
];

/// Link texts that lead on to the record's own page ("Read more", "Full
/// story"): action texts too, written as [`ACTION_TEXTS`] are.
pub(super) const MORE_TEXTS: &[&str] = &[
    "read more",
    "more",
    "learn more",
    "continue reading",
    "read the rest",
    "read full story",
    "full story",
    "weiterlesen",
    "mehr",
    "lire la suite",
    "leer más",
    "阅读全文",
    "更多",
    "続きを読む",
];

/// True for "Read more", "Comments", "36 commits" and the like.
pub(crate) fn is_action_text(t: &str) -> bool {
    with_action_key(t, |l| {
        !l.is_empty() && (ACTION_TEXTS.contains(&l) || MORE_TEXTS.contains(&l) || is_count_text(l))
    })
}

/// Longest link text (bytes) that may be one of [`MORE_TEXTS`], with
/// the punctuation around it ("Read the rest »", "阅读全文").
pub(super) const MAX_MORE_BYTES: usize = 32;

/// True for "Read more", "Full story »" and the like ([`MORE_TEXTS`]).
pub(super) fn is_more_text(t: &str) -> bool {
    with_action_key(t, |l| MORE_TEXTS.contains(&l))
}

/// `f` of a link text as [`ACTION_TEXTS`] and [`MORE_TEXTS`] are written:
/// lower case, without the punctuation around it (CJK kept).
fn with_action_key<R>(t: &str, f: impl FnOnce(&str) -> R) -> R {
    let l = t.to_lowercase();
    f(l.trim_matches(|c: char| !c.is_alphanumeric() && (c as u32) <= 0x2E80))
}

/// A count of something: a number and one word ("187 comments", "36
/// commits", "4 replies", "1.2k points") — a counter, never a headline.
pub(super) fn is_count_text(t: &str) -> bool {
    let mut words = t.split_whitespace();
    let (Some(number), Some(noun), None) = (words.next(), words.next(), words.next()) else {
        return false;
    };
    number.starts_with(|c: char| c.is_ascii_digit())
        && number
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | 'k' | 'm'))
        && noun.chars().all(char::is_alphabetic)
}

/// True when link `a` sits in a closed `<details>` (outside its summary):
/// hidden until the reader opens it.
pub(super) fn in_closed_details(doc: &Document, record: &Record, a: NodeId) -> bool {
    let mut in_summary = false;
    for x in doc.ancestors(a).take_while(|&x| x >= record.start) {
        match doc.element(x) {
            Some(e) if e.name == "summary" => in_summary = true,
            Some(e) if e.name == "details" => return !in_summary && e.attr("open").is_none(),
            _ => {}
        }
    }
    false
}

/// True when link `a` sits in the record's header block (`<header>` or a
/// class naming a header, e.g. `release-header`, `entry-header`).
pub(super) fn in_header_block(doc: &Document, record: &Record, a: NodeId) -> bool {
    doc.ancestors(a)
        .take_while(|&x| x >= record.start)
        .any(|x| {
            doc.element(x).is_some_and(|e| {
                e.name == "header"
                    || e.attr("class").is_some_and(|c| {
                        c.split_whitespace()
                            .any(|t| ends_with_ascii_ci(t, "header"))
                    })
            })
        })
}

/// True when link `a` is inside a heading or holds one (within the record).
pub(super) fn in_or_has_heading(doc: &Document, record: &Record, a: NodeId) -> bool {
    doc.ancestors(a)
        .take_while(|&x| x >= record.start)
        .any(|x| is_title_element(doc, x))
        || (a + 1..doc.node(a).end).any(|x| is_title_element(doc, x))
}

/// True for headings and for elements whose class names them a title
/// (`card-title`, `post-headline`, ...).
pub(crate) fn is_title_element(doc: &Document, id: NodeId) -> bool {
    doc.element(id).is_some_and(|e| {
        is_heading(&e.name)
            || e.attr("class")
                .is_some_and(|c| c.split_ascii_whitespace().any(names_title_token))
    })
}

/// True for a class token that names a title (`card-title`,
/// `post-headline`, `app-tender-row__title`), not a subtitle, nor its
/// absence (a planet's untitled post, `div.entry.untitled`, whose every
/// link would stand in a title).
pub(super) fn names_title_token(token: &str) -> bool {
    let t = token.as_bytes();
    holds_any_ascii_ci(t, &["title", "headline", "heading"])
        && !names_subtitle(t)
        && !holds_any_ascii_ci(t, &["untitled", "notitle", "no-title"])
}

/// True for a class token that names a subtitle (`subtitle`,
/// `card__sub-title`, `subheading`): a catalogue's "The Salt Road :
/// <span class=subtitle>Walking the Coast</span>" is titled by the whole
/// link, not its subtitle.
pub(super) fn names_subtitle(token: &[u8]) -> bool {
    holds_any_ascii_ci(token, &["subtitle", "sub-title", "sub_title", "subhead"])
}

/// Class-name parts of a link that carries a record's summary, not its
/// title: a product's tagline linked where its name links, a teaser.
const SUMMARY_CLASS_PARTS: &[&str] = &[
    "tagline",
    "subtitle",
    "excerpt",
    "summary",
    "description",
    "teaser",
    "standfirst",
    "dek",
];

/// True when link `a` is classed as a summary ([`SUMMARY_CLASS_PARTS`] as
/// a `-` or `_` separated part: `styles_tagline__aB1cD`, `post-excerpt`).
pub(super) fn is_summary_link(doc: &Document, a: NodeId) -> bool {
    doc.element(a)
        .and_then(|e| e.attr("class"))
        .is_some_and(|c| has_part(c.split_ascii_whitespace(), b"-_", SUMMARY_CLASS_PARTS))
}

/// True when link `a` is styled as muted by a class part "muted"
/// (Primer's `Link--muted`, Bootstrap's `text-muted`) and its class does
/// not name it a title: the site shows it as secondary (a release's tag
/// name in its side column, beside the same name in large type). A
/// blog's `uk-article-title uk-link-muted` is its headline, only greyed.
pub(super) fn is_muted(doc: &Document, a: NodeId) -> bool {
    doc.element(a)
        .and_then(|e| e.attr("class"))
        .is_some_and(|c| {
            has_part(c.split_ascii_whitespace(), b"-_", &["muted"])
                && !c.split_ascii_whitespace().any(names_title_token)
        })
}

/// True when link `a` is taken out of the keyboard's order
/// (`tabindex="-1"`) while another link of record `r`, in that order and
/// with words of its own (not a thumbnail's "48:12"), goes to the same
/// address: the site marks it as
/// a repeat of that link (a launch's tagline under its name, both linking
/// the launch), which is the title.
pub(super) fn is_skipped_twin(doc: &Document, r: &Record, a: NodeId) -> bool {
    let skipped = |i: NodeId| {
        doc.element(i)
            .and_then(|e| e.attr("tabindex"))
            .is_some_and(|t| t.trim() == "-1")
    };
    let Some(href) = link_href(doc, a).filter(|_| skipped(a)) else {
        return false;
    };
    (r.start..r.end).any(|j| {
        j != a && doc.is_tag(j, "a") && !skipped(j) && link_href(doc, j) == Some(href) && {
            let text = doc.text(j);
            text.chars().any(char::is_alphabetic) && !is_action_text(&text)
        }
    })
}

/// A link's title text: the heading (or title-classed element) inside it
/// when it wraps a whole card (heading + excerpt), else its text.
pub(super) fn link_title_text(doc: &Document, a: NodeId) -> String {
    let text = title_text(doc, link_title_node(doc, a));
    match doc.element(a).and_then(|e| e.attr("title")) {
        Some(tooltip) => completed_title(text, tooltip),
        None => text,
    }
}

/// A title the site cut to fit ("关于公开征求《…（征求意…", "Council approves
/// new …") whose link's `title` attribute holds it whole: the whole title,
/// when it starts with the shown part. Other tooltips ("Permalink", a
/// date) leave the text as it is.
pub(super) fn completed_title(text: String, tooltip: &str) -> String {
    let Some(shown) = text
        .strip_suffix('…')
        .or_else(|| text.strip_suffix("..."))
        .map(str::trim_end)
    else {
        return text;
    };
    let full = collapse_whitespace(tooltip);
    if !shown.is_empty() && full.len() > shown.len() && full.starts_with(shown) {
        full
    } else {
        text
    }
}

/// The text of a title element without the badges it may start or end
/// with ([`title_badges`]); field selectors read titles the same way.
pub(crate) fn title_text(doc: &Document, node: NodeId) -> String {
    let range = title_range(doc, node);
    without_status_note(doc.shown_text_of_range(range.start, range.end))
}

/// What a Q&A site appends to a question's title when moderators close
/// it: "Best laptop for programming in 2027? [closed]".
const STATUS_NOTES: &[&str] = &[
    "closed",
    "duplicate",
    "on hold",
    "migrated",
    "deleted",
    "locked",
];

/// `title` without a trailing bracketed [`STATUS_NOTES`] word: the site's
/// note on the record's state, not its author's words (a title that is
/// nothing but the note stays).
pub(super) fn without_status_note(mut title: String) -> String {
    let cut = title.strip_suffix(']').and_then(|t| {
        let (head, note) = t.rsplit_once('[')?;
        let head = head.trim_end();
        let noted = STATUS_NOTES
            .iter()
            .any(|n| note.trim().eq_ignore_ascii_case(n));
        (noted && !head.is_empty()).then_some(head.len())
    });
    if let Some(len) = cut {
        title.truncate(len);
    }
    title
}

/// The nodes [`title_text`] reads: title element `node` without its
/// badges.
pub(crate) fn title_range(doc: &Document, node: NodeId) -> std::ops::Range<NodeId> {
    let node = sole_wrapper(doc, node);
    let (leading, trailing) = title_badges(doc, node);
    let trailing = match trailing {
        Some(t) => Some(label_before_date(doc, node, t).unwrap_or(t)),
        // A label before a date written out after a separator ("… <span
        // class=badge-beta>Beta</span> — 28 April 2026"): the title ends
        // before the label (the date goes with it, see `undated_title`).
        None => date_tail(doc, node)
            .and_then(|t| label_before_date(doc, node, t))
            .or_else(|| date_inside(doc, node)),
    };
    leading.map_or(node, |b| doc.node(b).end)..trailing.unwrap_or(doc.node(node).end)
}

/// The element a title element only wraps (an accordion's `h2` around
/// its `button`, which holds the title and its badges), else `node`. A
/// link stays: its title is read as a link's ([`link_title_node`]).
fn sole_wrapper(doc: &Document, node: NodeId) -> NodeId {
    let mut shown = shown_children(doc, node);
    match (shown.next(), shown.next()) {
        (Some(c), None) if doc.element(c).is_some_and(|e| e.name != "a") => c,
        _ => node,
    }
}

/// The children of `node` a reader sees: all but blank texts.
fn shown_children(doc: &Document, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    doc.children(node)
        .filter(|&c| !matches!(doc.node(c).data, NodeData::Text { blank: true, .. }))
}

/// The last child of `node` when it is a text that opens with a
/// separator and holds a year ("— 28 April 2026").
fn date_tail(doc: &Document, node: NodeId) -> Option<NodeId> {
    let last = shown_children(doc, node).last()?;
    match &doc.node(last).data {
        NodeData::Text { text, .. } => {
            let t = text.trim_start();
            (t.starts_with(DATE_SEPARATORS) && has_year_digits(t)).then_some(last)
        }
        _ => None,
    }
}

/// The separator before a date element inside title element `node`,
/// with a name before it and words after it ("<span>Patch 7.14.2</span> —
/// <time>November 26, 2026</time> <span>Frostbound event fixes</span>"
/// in a disclosure's summary): the title is the name before the date, and
/// the words after it are the record's tagline.
fn date_inside(doc: &Document, node: NodeId) -> Option<NodeId> {
    let mut children = shown_children(doc, node);
    let mut separator = None;
    loop {
        let c = children.next()?;
        if doc.element(c).is_some_and(names_date) {
            break;
        }
        separator = Some(c);
    }
    let separator = separator?;
    let text = doc.text(separator);
    let named = || {
        doc.text_of_range(node, separator)
            .chars()
            .any(char::is_alphanumeric)
    };
    let after = children.any(|c| doc.text(c).chars().any(char::is_alphabetic));
    (after && !text.trim().is_empty() && only_separators(&text) && named()).then_some(separator)
}

/// True when element `e` is a date: a `<time>`, or classed as one
/// ([`DATE_BADGE_PARTS`]).
pub(super) fn names_date(e: &Element) -> bool {
    e.name == "time"
        || e.attr("class")
            .is_some_and(|class| has_part(class.split_ascii_whitespace(), b"-_", DATE_BADGE_PARTS))
}

/// True when `text` holds nothing but [`DATE_SEPARATORS`] and spaces.
fn only_separators(text: &str) -> bool {
    text.trim()
        .chars()
        .all(|ch| DATE_SEPARATORS.contains(&ch) || ch.is_whitespace())
}

/// The label badge right before a dropped trailing date `date`, with
/// only a separator between them ("Version 5.12.0-beta.2 <span
/// class=badge-beta>Beta</span> — <time>29 October 2026</time>"): the
/// title ends before the badge too, when a headline or version stays.
fn label_before_date(doc: &Document, node: NodeId, date: NodeId) -> Option<NodeId> {
    let separator = |c: NodeId| matches!(&doc.node(c).data, NodeData::Text { text, .. } if only_separators(text));
    let badge = doc
        .children(node)
        .take_while(|&c| c < date)
        .filter(|&c| !separator(c))
        .last()?;
    let labelled = doc
        .element(badge)?
        .attr("class")
        .is_some_and(|c| has_part(c.split_ascii_whitespace(), b"-_", BADGE_CLASS_PARTS));
    if !labelled || doc.text_bytes(badge) > MAX_BADGE_BYTES {
        return None;
    }
    let rest = doc.text_of_range(node, badge);
    (rest.trim().len() >= MIN_TITLE_AFTER_BADGE || releases::has_version(&rest)).then_some(badge)
}

/// Class-name parts of a badge: a short label set before or after a
/// headline inside its link ("Abonnés", "Video", "New", "AN+", a "動画"
/// video icon, a Trac timeline's "17:58", a news site's "Analysis"
/// kicker).
pub(super) const BADGE_CLASS_PARTS: &[&str] = &[
    "badge", "label", "pill", "flag", "sticker", "premium", "icon", "kicker", "eyebrow",
];

/// Class-name parts of a date stamped into a title link ("17:58" on a
/// Trac timeline, a release card's "Oct 2, 2026", a notice's "Posted
/// 02/20/2024").
pub(super) const DATE_BADGE_PARTS: &[&str] = &[
    "time",
    "date",
    "datetime",
    "timestamp",
    "posted",
    "published",
];

/// Longest badge text (bytes).
pub(super) const MAX_BADGE_BYTES: usize = 24;

/// Longest date badge text (bytes): a posting day and an update day.
pub(super) const MAX_DATE_BADGE_BYTES: usize = 48;

/// Text a title keeps at least once its badges are dropped (bytes).
pub(super) const MIN_TITLE_AFTER_BADGE: usize = 10;

/// The badges a title element starts and ends with, if any: its first
/// (last) non-blank child is an element whose class names a badge, with a
/// short text, and a headline of [`MIN_TITLE_AFTER_BADGE`] bytes (or a
/// version) remains beside it; a date badge (a `<time>`, or a class naming a date), a
/// symbol hidden from screen readers and a control (an "[edit]" link)
/// need only some text beside them, and go first when not both can. A
/// badge that is the whole title is none.
pub(super) fn title_badges(doc: &Document, node: NodeId) -> (Option<NodeId>, Option<NodeId>) {
    let mut shown = shown_children(doc, node);
    let Some(first) = shown.next() else {
        return (None, None);
    };
    // A file's icon after the note of its size ("(PDF 2.4MB)<img
    // alt=PDF>") says nothing: the note ends the title.
    let last = match shown.last() {
        Some(l) if l != first && doc.is_tag(l, "img") => shown_children(doc, node)
            .take_while(|&c| c < l)
            .last()
            .filter(|&b| b != first),
        l => l,
    };
    // A badge's text bytes, and whether it needs only some text beside it
    // (a time stamped into the link: "<span class=time>17:58</span>
    // Changeset [4827]").
    let badge = |c: NodeId| {
        // A file's note in brackets as bare text after its icon ("…を掲載
        // しました<img class=iconPdf>（PDF：8,412KB）") is a label as in
        // its own element.
        if let NodeData::Text { text, .. } = &doc.node(c).data {
            let bytes = doc.text_bytes(c);
            let bracketed = text.trim_start().starts_with(['(', '[', '（', '［']);
            return (bytes <= MAX_BADGE_BYTES && bracketed && links::is_file_note(text))
                .then_some((bytes, false));
        }
        let e = doc.element(c)?;
        let part = |parts: &[&str]| {
            e.attr("class")
                .is_some_and(|class| has_part(class.split_ascii_whitespace(), b"-_", parts))
        };
        let bytes = doc.text_bytes(c);
        // A symbol hidden from screen readers ("↗" after a link post's
        // title) or an in-page anchor ("¶" after a heading) is decoration:
        // like a date, it needs only some text beside.
        let decoration = (e.attr("aria-hidden").is_some_and(|h| h.trim() == "true")
            || (e.name == "a" && e.attr("href").is_some_and(|h| h.trim().starts_with('#'))))
            && !doc.text(c).chars().any(char::is_alphanumeric);
        // A wiki heading's "[edit]" link is a control beside the title.
        let control = bytes <= MAX_BADGE_BYTES
            && (c..doc.node(c).end).any(|i| doc.is_tag(i, "a"))
            && is_action_text(&doc.text(c));
        let decoration = decoration || control;
        let date = names_date(e) || decoration;
        let short = bytes <= MAX_BADGE_BYTES;
        let label = short
            && (part(BADGE_CLASS_PARTS) || {
                let text = doc.text(c);
                is_bracketed_label(&text) || links::is_file_note(&text)
            });
        // A date line may say when it changed too ("Posted 11/20/2026 ·
        // Updated 11/23/2026").
        ((date && bytes <= MAX_DATE_BADGE_BYTES) || label).then_some((bytes, date))
    };
    let total = doc.text_bytes(node);
    // A leading label in capitals ("NEW LISTING" glued before an
    // auction's title) is a badge whatever its class says.
    let caps = |c: NodeId| {
        let bytes = doc.text_bytes(c);
        (doc.element(c).is_some() && bytes <= MAX_BADGE_BYTES && is_caps_label(&doc.text(c)))
            .then_some((bytes, false))
    };
    // A short label of words the title's words are glued to ("<span>New
    // Listing</span>Canon AE-1"): only styling sets it apart, as a badge.
    let glued = |c: NodeId| {
        let bytes = doc.text_bytes(c);
        let next = shown_children(doc, node).find(|&n| n > c)?;
        let NodeData::Text { text, .. } = &doc.node(next).data else {
            return None;
        };
        let label = doc.text(c);
        let words = label.chars().all(|ch| ch.is_alphabetic() || ch == ' ');
        let ends_word = words && label.chars().next_back().is_some_and(char::is_lowercase);
        let opens_word = text
            .chars()
            .next()
            .is_some_and(|ch| ch.is_uppercase() || ch.is_ascii_digit());
        (doc.element(c).is_some() && bytes <= MAX_BADGE_BYTES && ends_word && opens_word)
            .then_some((bytes, false))
    };
    let leading = badge(first)
        .or_else(|| caps(first))
        .or_else(|| glued(first))
        .filter(|&(b, _)| b > 0)
        .map(|b| (first, b));
    // A date badge before a trailing symbol (an accordion's "Posted
    // 11/24/2026" before its chevron) ends the title as the symbol does.
    let trailing = last.and_then(|l| {
        let (bytes, date) = badge(l)?;
        let before = (bytes == 0 && date)
            .then(|| shown_children(doc, node).take_while(|&c| c < l).last())
            .flatten()
            .filter(|&b| b != first)
            .and_then(|b| Some((b, badge(b).filter(|d| d.1)?)));
        Some(before.unwrap_or((l, (bytes, date))))
    });
    // A label needs a headline or a version beside it (a release's
    // "3.1.1" beside its "yanked"); a date only some text (a release
    // card's "3.14.0" beside its "Oct 2, 2026").
    let keeps = |dropped: &[(usize, bool)]| {
        let bytes: usize = dropped.iter().map(|d| d.0).sum();
        let rest = total.saturating_sub(bytes);
        rest > 0
            && (dropped.iter().all(|d| d.1)
                || rest >= MIN_TITLE_AFTER_BADGE
                || releases::has_version(&doc.text(node)))
    };
    match (leading, trailing) {
        (Some((f, a)), Some((l, b))) if keeps(&[a, b]) => (Some(f), Some(l)),
        (_, Some((l, b))) if b.1 && keeps(&[b]) => (None, Some(l)),
        (Some((f, a)), _) if keeps(&[a]) => (Some(f), None),
        (_, Some((l, b))) if keeps(&[b]) => (None, Some(l)),
        _ => (None, None),
    }
}

/// `text` without a bracketed label it ends with ("2026-06-03
/// [YANKED]": a changelog's withdrawn release).
fn without_bracketed_label(text: &str) -> &str {
    match text.rfind(" [") {
        Some(at) if is_bracketed_label(&text[at..]) => text[..at].trim_end(),
        _ => text,
    }
}

/// True for a label written in capitals: two words at most, of capital
/// letters only, four letters or more in all ("NEW LISTING", "LIVE";
/// not "AI", nor a model's "OM-1n").
fn is_caps_label(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let letters = words.iter().map(|w| w.chars().count()).sum::<usize>();
    (1..=2).contains(&words.len())
        && letters >= 4
        && words
            .iter()
            .all(|w| w.chars().all(|c| c.is_alphabetic() && c.is_uppercase()))
}

/// True for a label in square brackets set apart from a title: a search
/// result's "[CITATION]" or "[PDF]" (with its short form, "[CITATION][C]",
/// one shown per screen size), a forum's "[Solved]". Each bracket holds one
/// word.
pub(super) fn is_bracketed_label(text: &str) -> bool {
    let t = text.trim();
    t.len() > 2
        && t.starts_with('[')
        && t.ends_with(']')
        && t[1..t.len() - 1]
            .split("][")
            .all(|w| !w.is_empty() && w.chars().all(char::is_alphanumeric))
}

/// True when `id` is the `summary` of the `details` element `record` is:
/// a disclosure's summary is its heading (a notice's title and date
/// above the folded text).
pub(super) fn is_own_summary(doc: &Document, record: &Record, id: NodeId) -> bool {
    doc.is_tag(record.start, "details")
        && doc.is_tag(id, "summary")
        && doc.node(id).parent == Some(record.start)
}

/// A heading's title text; a disclosure's summary ([`is_own_summary`]) is
/// read as a block link is, by the title element it holds.
pub(super) fn heading_text(doc: &Document, h: NodeId) -> String {
    title_text(doc, heading_title_node(doc, h))
}

/// The element [`heading_text`] reads.
pub(super) fn heading_title_node(doc: &Document, h: NodeId) -> NodeId {
    if doc.is_tag(h, "summary") {
        link_title_node(doc, h)
    } else {
        h
    }
}

/// Where a link's title text comes from: the title element inside a block
/// link (a card whose `<a>` wraps heading, summary and date), else the
/// first of the blocks it stacks when it stacks several with text (a
/// release card's version line above its date line and its yank reason),
/// else the link itself.
pub(super) fn link_title_node(doc: &Document, a: NodeId) -> NodeId {
    (a + 1..doc.node(a).end)
        .find(|&x| is_title_element(doc, x))
        .filter(|&h| doc.text_bytes(h) > 0)
        .map(|h| with_continued_subtitle(doc, h))
        .or_else(|| first_of_stacked_blocks(doc, a))
        .unwrap_or(a)
}

/// Title element `h`, or the element holding it and the subtitle after it
/// when that subtitle continues the title's sentence (a catalogue's
/// "Salt Marsh Summer<span class=subtitle>: a novel</span>"): opened by a
/// colon or a dash, or after a title ending in one. A card's subtitle that
/// says more ("Water rose overnight") stays out.
fn with_continued_subtitle(doc: &Document, h: NodeId) -> NodeId {
    let Some(parent) = doc.node(h).parent else {
        return h;
    };
    let next = doc
        .children(parent)
        .skip_while(|&c| c != h)
        .skip(1)
        .find(|&c| doc.element(c).is_some());
    let continues = next.is_some_and(|sub| {
        let subtitle = doc
            .element(sub)
            .and_then(|e| e.attr("class"))
            .is_some_and(|c| {
                c.split_ascii_whitespace()
                    .any(|t| names_subtitle(t.as_bytes()))
            });
        let joins = |c: char| matches!(c, ':' | '-' | '\u{2013}' | '\u{2014}');
        subtitle
            && (doc.text(sub).trim_start().starts_with(joins)
                || doc.text(h).trim_end().ends_with(joins))
    });
    if continues { parent } else { h }
}

/// The first child block with text of link `a` when two or more of its
/// child blocks hold text and nothing but blank text stands beside them.
fn first_of_stacked_blocks(doc: &Document, a: NodeId) -> Option<NodeId> {
    let mut blocks = doc.children(a).filter(|&c| doc.text_bytes(c) > 0);
    let first = blocks.next()?;
    let second = blocks.next()?;
    let stacked = [first, second]
        .iter()
        .all(|&b| doc.tag(b).is_some_and(|t| is_block_element(t) && t != "br"));
    (stacked && blocks.all(|b| doc.tag(b).is_some_and(is_block_element))).then_some(first)
}

/// Share of the words of a URL's last path segment that occur in `text`:
/// posts are usually published under a slug made from their title.
pub(super) fn slug_match(text: &str, href: &str) -> f64 {
    let path = href.split(['?', '#']).next().unwrap_or("");
    let segment = path
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".html")
        .trim_end_matches(".htm");
    let mut words: Vec<String> = segment
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1 && !w.chars().all(|c| c.is_ascii_digit()))
        .map(str::to_lowercase)
        .collect();
    words.sort_unstable();
    words.dedup();
    // One-word slugs are user names and tags as often as titles, and
    // version strings (`v3.2.1~1...v3.2.1`) are no slug at all; a text
    // that is itself a path or URL is no headline.
    let t = text.trim_start();
    let wordy = words
        .iter()
        .any(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 3);
    if words.len() < 2 || !wordy || t.starts_with('/') || t.starts_with("http") {
        return 0.0;
    }
    let text = text.to_lowercase();
    words.iter().filter(|w| text.contains(w.as_str())).count() as f64 / words.len() as f64
}

/// True when `heading`, its date left out, has fewer than half the
/// letters and digits of file link text `file`: a press release's date
/// line, "2026年10月30日お知らせ" (its day and its category) above its
/// file, "本社事務所移転のお知らせ", says less than the file's name, where a
/// notice's summary says more than its "Cancellation Notice (PDF, 41 KB)".
fn says_less(heading: &str, file: &str, dates: &DateContext) -> bool {
    let words = |t: &str| t.chars().filter(|c| c.is_alphanumeric()).count();
    let own = match find_date(heading, dates) {
        Some((_, at)) => words(&heading[..at.start]) + words(&heading[at.end..]),
        None => words(heading),
    };
    own * 2 < words(file)
}

/// Title and title link of an ordinary record: the link on the group's
/// title path, else a link inside a heading, else the heading, else (a
/// post without a headline that has a permalink) the start of its words,
/// else the longest non-action link text, else the record's first line;
/// and the heading the title was read from beside a file link, whose
/// dates are the headline's, not the record's.
pub(super) fn choose_title(
    doc: &Document,
    record: &Record,
    links: &[LinkInfo],
    heading: Option<NodeId>,
    plan: &TitlePlan,
    dates: &DateContext,
) -> (String, Option<NodeId>, Option<NodeId>) {
    let permalinks = &plan.permalinks;
    let usable = |l: &&LinkInfo| {
        !l.text.is_empty() && !is_action_text(&l.text) && parse_date(&l.text, dates).is_none()
    };
    // Read only when asked: most records' title link is on the path.
    let in_heading = |l: &LinkInfo| in_or_has_heading(doc, record, l.node);
    let authored = |l: &LinkInfo| super::plan::in_author_list(doc, record, l.node);
    let title_link = links
        .iter()
        .filter(usable)
        .find(|l| l.on_title_path)
        .or_else(|| links.iter().filter(usable).find(|l| in_heading(l)))
        .or_else(|| {
            links
                .iter()
                .filter(usable)
                .find(|l| leaf_twin(doc, plan, l.node))
        })
        .or_else(|| {
            // Off the title path, a name in the record's list of authors
            // is no headline (an accepted paper without a page of its
            // own, "Leonie Brandt and Matteo Guidi" under its title).
            links
                .iter()
                .filter(usable)
                .filter(|l| !authored(l))
                .max_by_key(|l| (l.text.chars().count(), std::cmp::Reverse(l.node)))
        });
    let link_chars = title_link.map_or(0, |l| l.text.chars().count());
    let link_title =
        |l: &LinkInfo| split_link_title(doc, l.node).unwrap_or_else(|| l.text.to_string());
    let heading_title = |h: NodeId| undated_title(heading_text(doc, h), dates);
    match (title_link, heading) {
        // A live blog's updates are linked by their timestamps: an update
        // is titled by its heading, or else by its words, as a comment is.
        (Some(l), _) if l.on_title_path && is_timestamp_link(doc, l.node, &l.text) => {
            let title = heading.map_or_else(
                || body_title(doc, record, Some(l.node)),
                |h| heading_text(doc, h),
            );
            (title, Some(l.node), None)
        }
        // A title link that says no word (a changelog's "2.4.1" in
        // "## [2.4.1] - 2025-02-03") names the heading it stands in: the
        // heading titles the record, as an unlinked one does.
        (Some(l), Some(h))
            if (l.on_title_path || in_heading(l))
                && doc.contains(h, l.node)
                && !l.text.chars().any(char::is_alphabetic) =>
        {
            (heading_title(h), Some(l.node), None)
        }
        // A file is no headline: a notice whose heading has no link of
        // its own and whose only page is its file ("Hearing Notice (PDF,
        // 212 KB)") is titled by its heading and linked by the file.
        (Some(l), Some(h))
            if !links.iter().any(|x| doc.contains(h, x.node))
                && is_attachment(&l.text, l.url.path())
                && !says_less(&heading_text(doc, h), &l.text, dates) =>
        {
            (heading_title(h), Some(l.node), Some(h))
        }
        // An identifier is no headline: a preprint listing's entry is
        // linked by "arXiv:2611.18042" and titled in its `div.list-title`.
        (Some(l), _)
            if is_identifier(&l.text)
                && let Some(title) = identified_title(doc, record, l.node) =>
        {
            (title, Some(l.node), None)
        }
        // A file name is no headline either: a tracker's draft is linked by
        // "draft-ruiz-widget-transport-03" and titled in bold under it.
        (Some(l), _)
            if is_slug(&l.text)
                && let Some(title) = emphasis_after(doc, l.node) =>
        {
            (title, Some(l.node), None)
        }
        // A title link that says no word between the words around it (a
        // result's score "2–1" between its two teams) is read with them.
        (Some(l), _)
            if !l.text.chars().any(char::is_alphabetic)
                && let Some(title) = between_words(doc, l.node) =>
        {
            (title, Some(l.node), None)
        }
        (Some(l), _) if l.on_title_path || in_heading(l) => (link_title(l), Some(l.node), None),
        (_, Some(h)) if link_chars < 4 => (heading_title(h), title_link.map(|l| l.node), None),
        // A heading off the title path, with no link of its own but its
        // place on the page (a changelog's "[1.9.2] - 2026-01-20¶" whose
        // version has no compare link, a wiki discussion's `h2` with its
        // `id`): the heading titles it, and its anchor links it (see
        // `item_from_record`), never a pull request or a user its words
        // cite; its "Full story" link, if any, leads to its own page.
        (_, Some(h))
            if heading_fragment(doc, h).is_some() || unlinked_headline(doc, h, links, plan) =>
        {
            let more = links
                .iter()
                .find(|l| is_more_text(&l.text))
                .or_else(|| call_to_action(doc, links));
            (heading_title(h), more.map(|l| l.node), None)
        }
        // An untitled post among titled ones (a blog's one-line note, its
        // only links the author and the time it was posted) is titled as a
        // comment is, and linked by its permalink.
        (_, None) if let Some(p) = links.iter().find(|l| permalinks.contains(&l.node)) => {
            (body_title(doc, record, Some(p.node)), Some(p.node), None)
        }
        // A heading without a link over a link whose text every record
        // repeats (a patch's `<summary>` over its "Full notes"): the
        // heading titles the record and the label leads to its page.
        (Some(l), Some(h))
            if plan.label_links.get(&l.node) == Some(&true)
                && !links.iter().any(|x| doc.contains(h, x.node)) =>
        {
            (heading_title(h), Some(l.node), None)
        }
        _ if link_chars < MIN_EMPHASIS_TITLE_CHARS
            && let Some(title) = emphasis_title(doc, record, link_chars) =>
        {
            // A term's page (its category cell's "Allotments") only when
            // nothing else is linked: a notice's own page is its file.
            let link = links
                .iter()
                .filter(usable)
                .find(|l| !authored(l) && !super::strays::names_term(&l.url))
                .or_else(|| links.iter().filter(usable).find(|l| !authored(l)))
                .or_else(|| links.iter().find(usable));
            (title, link.map(|l| l.node), None)
        }
        // Every link a label its group repeats (or an identifier, a file
        // number): the record's own words title it, and its button (or
        // first link) leads to its page.
        (Some(_), None)
            if labelled_links(plan, links, usable)
                && let Some(title) = labelled_title(doc, record, dates) =>
        {
            let link = call_to_action(doc, links).or_else(|| links.iter().find(usable));
            (title, link.map(|l| l.node), None)
        }
        // A record without the group's headline whose link is its date
        // line ("Reviewed in the United Kingdom on 3 October 2026" among
        // reviews headed by their titles) is an untitled post: titled by
        // its words, linked by its date line.
        (Some(l), None)
            if plan.path.is_some() && !l.on_title_path && find_date(&l.text, dates).is_some() =>
        {
            (body_title(doc, record, Some(l.node)), Some(l.node), None)
        }
        (Some(l), _) => (link_title(l), Some(l.node), None),
        _ => (first_line(doc, record), None, None),
    }
}

/// Most characters of the words around a link that says none, read as
/// one title with it ([`between_words`]).
const MAX_BETWEEN_WORDS_CHARS: usize = 120;

/// The text of link `a`'s parent when words stand on both sides of the
/// link inside it, and it is short: "Ashcombe Town 2–1 Bramwell Rovers"
/// around a score linking the match report.
fn between_words(doc: &Document, a: NodeId) -> Option<String> {
    let parent = doc.node(a).parent?;
    let worded = |range: std::ops::Range<NodeId>| {
        doc.text_of_range(range.start, range.end)
            .chars()
            .any(char::is_alphabetic)
    };
    let both = worded(parent + 1..a) && worded(doc.node(a).end..doc.node(parent).end);
    let text = collapse_whitespace(&doc.text(parent));
    (both && text.chars().count() <= MAX_BETWEEN_WORDS_CHARS).then_some(text)
}

/// Separators between a heading's name and the date after it.
const DATE_SEPARATORS: &[char] = &['-', '–', '—', '|', '·'];

/// Longest date read after a heading's name ([`undated_title`]).
const MAX_HEADING_DATE_BYTES: usize = 40;

/// A heading's title without the date it ends with after a separator
/// ("2.8.0 - 2026-11-12", "Version 5.12.1 — 24 November 2026"): the
/// record's date is its date, its title the name before it, out of the
/// brackets of an unlinked reference ("[2.3.1]"). A heading that is a
/// date alone, or whose end is no whole date, stays as it is.
pub(super) fn undated_title(title: String, dates: &DateContext) -> String {
    let whole = title.trim_end();
    let t = whole.trim_end_matches(DATE_SEPARATORS).trim_end();
    // The separator before a date the title's badges dropped.
    if t.len() < whole.len() && whole[t.len()..].starts_with(char::is_whitespace) {
        return t.to_string();
    }
    // The last separator with a space on each side.
    let mut spaced = t.char_indices().filter(|&(at, c)| {
        DATE_SEPARATORS.contains(&c)
            && t[..at].ends_with(char::is_whitespace)
            && t[at + c.len_utf8()..].starts_with(char::is_whitespace)
    });
    let Some((at, _)) = spaced.next_back() else {
        return title;
    };
    let (name, day) = (
        t[..at].trim_end(),
        without_bracketed_label(t[at..].trim_start_matches(DATE_SEPARATORS).trim()),
    );
    let dated = day.len() <= MAX_HEADING_DATE_BYTES && is_whole_day(day, dates);
    if !dated || !name.chars().any(char::is_alphanumeric) {
        return title;
    }
    let bare = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .filter(|n| !n.contains(['[', ']']));
    bare.unwrap_or(name).to_string()
}

/// Class-name parts of a link shown as a button, or of the element
/// around it.
const BUTTON_CLASS_PARTS: &[&str] = &["button", "btn"];

/// The record's first link shown as a button to another page, whose
/// text is no action on the record ("Reply", "Share"): a roundup's "Get
/// the recipe" under each recipe's unlinked heading
/// (`a.wp-block-button__link` in a `div.wp-block-button`) leads to the
/// recipe, before its "Watch the video".
fn call_to_action<'l, 'p>(doc: &Document, links: &'l [LinkInfo<'p>]) -> Option<&'l LinkInfo<'p>> {
    let button = |id: NodeId| {
        doc.element(id)
            .and_then(|e| e.attr("class"))
            .is_some_and(|c| has_part(c.split_ascii_whitespace(), b"-_", BUTTON_CLASS_PARTS))
    };
    links.iter().find(|l| {
        !is_action_text(&l.text)
            && link_href(doc, l.node).is_some_and(|h| !h.trim_start().starts_with('#'))
            && (button(l.node) || doc.node(l.node).parent.is_some_and(button))
    })
}

/// True when `heading` holds no link in a group whose headlines are
/// heading links ([`TitlePlan::in_headings`]): the heading titles its
/// record, which has no headline link (a search result cited without a
/// page, "[CITATION] Urban heat island mitigation", whose "Related
/// articles" and "Cited by 3" are other searches). Only a "more" link
/// leads to its page, or else its record's own place on the page
/// ([`record_anchor`]).
pub(super) fn unlinked_headline(
    doc: &Document,
    heading: NodeId,
    links: &[LinkInfo],
    plan: &TitlePlan,
) -> bool {
    plan.in_headings && !links.iter().any(|l| doc.contains(heading, l.node))
}

/// A title the site split into links glued to each other around an inline
/// reference or markup: "Fix panic (" + "#482" + ")" in a forge's commit
/// list, "Render " + "<code>" + " blocks". Read as one title when two or
/// more of the glued links (no text, not even a space, between them) go
/// where the title link goes, all classed as it is.
pub(super) fn split_link_title(doc: &Document, a: NodeId) -> Option<String> {
    let parent = doc.node(a).parent?;
    let href = doc.element(a)?.attr("href")?.trim();
    let kids: Vec<NodeId> = doc.children(parent).collect();
    let at = kids.iter().position(|&k| k == a)?;
    let is_link = |k: NodeId| doc.is_tag(k, "a");
    let first = kids[..at]
        .iter()
        .rposition(|&k| !is_link(k))
        .map_or(0, |i| i + 1);
    let last = kids[at..]
        .iter()
        .position(|&k| !is_link(k))
        .map_or(kids.len(), |i| at + i);
    let glued = &kids[first..last];
    let pieces: Vec<NodeId> = glued
        .iter()
        .copied()
        .filter(|&k| link_href(doc, k) == Some(href))
        .collect();
    let same = pieces.len();
    // Pieces of one title are styled alike: a product's name and its
    // tagline, two links to its page set in two styles, are two texts.
    let class = |k: NodeId| doc.element(k).and_then(|e| e.attr("class")).map(str::trim);
    if pieces.iter().any(|&k| class(k) != class(a)) {
        return None;
    }
    // Glued pieces of a title are inline: a card link holding a heading
    // and its summary, right before its "Read Article" link, is no piece.
    let inline = || {
        glued.iter().all(|&k| {
            (k + 1..doc.node(k).end).all(|i| doc.tag(i).is_none_or(|t| !is_block_element(t)))
        })
    };
    (same >= 2 && inline())
        .then(|| doc.text_of_range(glued[0], doc.node(glued[glued.len() - 1]).end))
}

/// Fewest characters of a bold or title-classed text read as a record's
/// title, and most characters of the best link it outranks.
pub(super) const MIN_EMPHASIS_TITLE_CHARS: usize = 15;

/// A record whose links are labels ("PDF", "DOI", "BibTeX", as a list of
/// citations has) names itself in bold or in an element whose class names
/// it a title (`span.pub-title`; a heading still wins over links shorter
/// than 4 characters, in `choose_title`), or else between curly quotes in
/// its text ([`quoted_spans`]): the longest such text of at
/// least [`MIN_EMPHASIS_TITLE_CHARS`] characters, longer than the best
/// link's `link_chars`, outside links, without the quotes a citation puts
/// around it ([`unquoted_title`]). Its link is then the record's first
/// usable one (a citation's first link is its paper).
pub(super) fn emphasis_title(doc: &Document, record: &Record, link_chars: usize) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    // True when `text` is long enough to title the record.
    let mut consider = |text: String| {
        let chars = text.chars().count();
        let long = chars >= MIN_EMPHASIS_TITLE_CHARS && chars > link_chars;
        if long && best.as_ref().is_none_or(|(n, _)| chars > *n) {
            best = Some((chars, text));
        }
        long
    };
    let mut emphasised = false;
    for (i, tag) in elements_outside_links(doc, record) {
        if matches!(tag, "b" | "strong") || is_title_element(doc, i) {
            emphasised |= consider(unquoted_title(&doc.text(i)).to_string());
        }
    }
    if !emphasised {
        quoted_spans(doc, record, |q| {
            consider(q.to_string());
        });
    }
    best.map(|(_, text)| text)
}

/// True when a record's links are labels its group repeats: all of them
/// (or identifiers, a file number), with one label at least; or its first
/// usable link, a label in most records, and at least half of them (a
/// meeting's "Agenda" and "Minutes" beside its one "Draft minutes" or
/// "Live on the night"; a tag that few records repeat labels no row).
fn labelled_links(
    plan: &TitlePlan,
    links: &[LinkInfo],
    usable: impl Fn(&&LinkInfo) -> bool,
) -> bool {
    let is_label = |l: &LinkInfo| plan.label_links.contains_key(&l.node);
    let label = |l: &&LinkInfo| is_label(l) || is_identifier(&l.text);
    let mut shown = links.iter().filter(usable).peekable();
    let standing = shown
        .peek()
        .is_some_and(|l| plan.label_links.get(&l.node) == Some(&true));
    let (labels, all) = shown.fold((0, 0), |(n, all), l| (n + usize::from(label(&l)), all + 1));
    let every = labels == all && links.iter().any(is_label);
    every || (standing && labels * 2 >= all)
}

/// The title of a record whose links are all labels its group repeats
/// (a filings table's row: "Documents", "Interactive Data", its file
/// number): its first text outside links of at least
/// [`MIN_EMPHASIS_TITLE_CHARS`] characters, with a letter and no date,
/// the description its cell starts with ("Current report, items 7.01
/// and 9.01", not the form type "8-K" nor an "AMEND" badge); or the
/// whole date the record opens with: a meeting's row, its links "Agenda",
/// "Minutes" and "Watch", is known by its day ("Tue 24 Nov 2026 7:00pm"),
/// not by the "Extraordinary meeting" badge after it.
fn labelled_title(doc: &Document, record: &Record, dates: &DateContext) -> Option<String> {
    let first = (record.start..record.end)
        .find(|&i| matches!(doc.node(i).data, NodeData::Text { blank: false, .. }));
    outside_links(doc, record).find_map(|i| match &doc.node(i).data {
        NodeData::Text { text, blank: false } => {
            // Without the bracket its label links open ("… 2026. [").
            let t = collapse_whitespace(text);
            let t = t.trim_end_matches(['[', '(', '|', ' ']).to_string();
            let words = t.chars().count() >= MIN_EMPHASIS_TITLE_CHARS
                && t.chars().any(char::is_alphabetic)
                && parse_date(&t, dates).is_none();
            let day = Some(i) == first && is_whole_day(&t, dates);
            (words || day).then_some(t)
        }
        _ => None,
    })
}

/// True when `text` names a day with its year (four digits or more),
/// not "Posted today".
fn is_whole_day(text: &str, dates: &DateContext) -> bool {
    text.bytes().filter(u8::is_ascii_digit).count() >= 4 && parse_date(text, dates).is_some()
}

/// Calls `f` with each span a text node of `record` outside links holds
/// between curly quotes: the title of a citation written as plain text
/// (`J. Kim and L. Marchetti. “Calibrated Uncertainty for …,” Proc.
/// ICML, 2026`), without the comma before its closing quote.
fn quoted_spans(doc: &Document, record: &Record, mut f: impl FnMut(&str)) {
    for i in outside_links(doc, record) {
        if let NodeData::Text { text, blank: false } = &doc.node(i).data {
            let mut rest = text.as_str();
            while let Some((_, after)) = rest.split_once('“')
                && let Some((inner, tail)) = after.split_once('”')
            {
                f(unquoted_title(inner));
                rest = tail;
            }
        }
    }
}

/// True for a link text that is an identifier, not a headline: one token
/// with a run of at least [`MIN_IDENTIFIER_DIGITS`] digits, digits being
/// most of its letters and digits (`arXiv:2611.18042`, `#48213`; a
/// version, `v4.3.0-rc.1`, has no such run); or a few tokens of capitals
/// and digits, one of them a number (a bill's `HB 1204`, `SJR 4`, a
/// patent's `US 2026/0123456 A1`).
pub(super) fn is_identifier(text: &str) -> bool {
    let t = text.trim();
    if t.contains(char::is_whitespace) {
        return is_code_number(t);
    }
    if t.len() < MIN_IDENTIFIER_DIGITS {
        return false;
    }
    let digits = t.bytes().filter(u8::is_ascii_digit).count();
    let alnum = t.chars().filter(|c| c.is_alphanumeric()).count();
    let run = t
        .split(|c: char| !c.is_ascii_digit())
        .any(|r| r.len() >= MIN_IDENTIFIER_DIGITS);
    run && 2 * digits >= alnum
}

/// Most tokens of a spaced identifier ([`is_code_number`]).
const MAX_CODE_TOKENS: usize = 3;

/// True for a spaced identifier: at most [`MAX_CODE_TOKENS`] tokens, the
/// first of capitals (a series' code), each of capitals, digits and
/// `/-.:`, and one of them starting with a digit (`HB 1204`, `SJR 4`,
/// `US 2026/0123456 A1`; "iPhone 15" and "TOP Tips" are words).
fn is_code_number(t: &str) -> bool {
    let tokens: Vec<&str> = t.split_whitespace().collect();
    let code = |w: &str| {
        w.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b"/-.:".contains(&b))
    };
    (2..=MAX_CODE_TOKENS).contains(&tokens.len())
        && tokens[0].bytes().all(|b| b.is_ascii_uppercase())
        && tokens.iter().all(|w| code(w))
        && tokens[1..]
            .iter()
            .any(|w| w.starts_with(|c: char| c.is_ascii_digit()))
}

/// Fewest digits in a row of an identifier ([`is_identifier`]).
const MIN_IDENTIFIER_DIGITS: usize = 4;

/// The title of a record its identifier links: its first heading or
/// title-classed element outside links, holding no other, with at least
/// [`MIN_EMPHASIS_TITLE_CHARS`] characters: a heading's text
/// ([`heading_text`]), else the element's without the label before it
/// ([`without_label`]: "Title:").
pub(super) fn identified_title(doc: &Document, record: &Record, a: NodeId) -> Option<String> {
    // The innermost: a bill's `span.bill-title` in its `td.col-title`,
    // without the cell's "Hot" tag and fiscal note link.
    let innermost = |i: NodeId| !(i + 1..doc.node(i).end).any(|j| is_title_element(doc, j));
    let long = |text: &String| text.chars().count() >= MIN_EMPHASIS_TITLE_CHARS;
    elements_outside_links(doc, record)
        .filter(|&(i, _)| is_title_element(doc, i) && innermost(i))
        .map(|(i, tag)| match is_heading(tag) {
            true => heading_text(doc, i),
            false => without_label(doc, i),
        })
        .find(long)
        .or_else(|| text_after(doc, a).filter(long))
}

/// Fewest separators in a slug ([`is_slug`]).
const MIN_SLUG_SEPARATORS: usize = 2;

/// True for a link text that is a document's file name: one token of
/// lowercase letters, digits and `-`, `_` or `.`, with at least
/// [`MIN_SLUG_SEPARATORS`] dashes or underscores and a letter
/// (`draft-ruiz-widget-transport-03`).
pub(super) fn is_slug(text: &str) -> bool {
    let t = text.trim();
    t.bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_.".contains(&b))
        && t.bytes().filter(|b| b"-_".contains(b)).count() >= MIN_SLUG_SEPARATORS
        && t.bytes().any(|b| b.is_ascii_lowercase())
}

/// The words in bold or italics right after link `a` among its
/// siblings (past a line break), of at least [`MIN_EMPHASIS_TITLE_CHARS`]
/// characters and two words: `<a>draft-ruiz-widget-transport-03</a><br>
/// <b>Widget Transport over QUIC</b>`.
fn emphasis_after(doc: &Document, a: NodeId) -> Option<String> {
    let mut next = doc.next_element(a)?;
    if doc.is_tag(next, "br") {
        next = doc.next_element(next)?;
    }
    let between = (doc.node(a).end..next).any(|i| {
        !doc.is_tag(i, "br") && matches!(&doc.node(i).data, NodeData::Text { blank: false, .. })
    });
    let emphasis = ["b", "strong", "em", "i"]
        .iter()
        .any(|t| doc.is_tag(next, t));
    if between || !emphasis {
        return None;
    }
    let text = collapse_whitespace(&doc.text(next));
    (text.chars().count() >= MIN_EMPHASIS_TITLE_CHARS && text.contains(' ')).then_some(text)
}

/// The bare text right after link `a` (a gazette notice's title after
/// its number link, in no element of its own), collapsed.
fn text_after(doc: &Document, a: NodeId) -> Option<String> {
    let next = doc.node(a).end;
    match &doc.node(next).data {
        NodeData::Text { text, blank: false } if doc.node(next).parent == doc.node(a).parent => {
            Some(collapse_whitespace(text))
        }
        _ => None,
    }
}

/// True when link `a` is classed as the last step of the group's title
/// path names (`a.notice__number`) though it stands elsewhere: a notice
/// without the `div.notice__head` its group wraps numbers in.
fn leaf_twin(doc: &Document, plan: &TitlePlan, a: NodeId) -> bool {
    let Some(leaf) = plan
        .path
        .as_deref()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
    else {
        return false;
    };
    let Some(class) = leaf.strip_prefix("a.").filter(|c| !c.is_empty()) else {
        return false;
    };
    doc.element(a)
        .and_then(|e| e.attr("class"))
        .is_some_and(|c| c.split_whitespace().any(|t| t == class))
}

/// The record's elements (with their tags) that are neither links nor
/// inside one, in document order.
fn elements_outside_links<'d>(
    doc: &'d Document,
    record: &Record,
) -> impl Iterator<Item = (NodeId, &'d str)> {
    outside_links(doc, record).filter_map(|i| Some((i, doc.tag(i)?)))
}

/// The record's nodes that are neither links nor inside one, in document
/// order.
fn outside_links<'d>(doc: &'d Document, record: &Record) -> impl Iterator<Item = NodeId> + 'd {
    let mut link_end = 0;
    (record.start..record.end).filter(move |&i| {
        if doc.is_tag(i, "a") {
            link_end = link_end.max(doc.node(i).end);
        }
        i >= link_end
    })
}

/// Longest label set before a title in an element of its own.
const MAX_LABEL_BYTES: usize = 16;

/// The text of `id` without a label in its first child element: one word
/// ending in a colon (`<span class=descriptor>Title:</span>`).
fn without_label(doc: &Document, id: NodeId) -> String {
    let end = doc.node(id).end;
    let first = shown_children(doc, id).next();
    let label = first.filter(|&c| {
        let t = doc.text(c);
        let t = t.trim();
        doc.element(c).is_some()
            && t.len() <= MAX_LABEL_BYTES
            && t.len() > 1
            && t.ends_with(':')
            && !t.contains(char::is_whitespace)
    });
    match label {
        Some(c) => doc.text_of_range(doc.node(c).end, end).trim().to_string(),
        None => doc.text(id),
    }
}

/// A citation's title without the quotes around it and the comma after
/// it (`“When Indexes Forget,”` → `When Indexes Forget`); quotes inside
/// it stay (`“It Worked on My Laptop”: Pitfalls`).
pub(super) fn unquoted_title(text: &str) -> &str {
    fn bare(t: &str) -> &str {
        t.trim().trim_end_matches([',', ';', ':']).trim_end()
    }
    let t = bare(text);
    for (open, close) in [('“', '”'), ('"', '"'), ('«', '»'), ('„', '“')] {
        if let Some(inner) = t.strip_prefix(open).and_then(|t| t.strip_suffix(close)) {
            let inner = bare(inner);
            let balanced = inner.matches(open).count() == inner.matches(close).count();
            if balanced || open == close {
                return inner;
            }
        }
    }
    t
}

/// The address of a record's heading on the page, for a record that
/// links nowhere else: the heading's `id`, or the in-page anchor a link in
/// it points to (a release notes page's "Version 4.12.0" with its `¶`
/// permalink, `#v4-12-0`).
pub(super) fn heading_anchor(doc: &Document, heading: NodeId, base: &Url) -> Option<Url> {
    Some(place_on_page(base, heading_fragment(doc, heading)?))
}

/// The place a record's heading `h` links to: its own ([`heading_anchor`]),
/// unless that is the `id` of a control inside it (an accordion's
/// `button#announcement-2291-trigger`, there for scripts) and the record
/// has a place of its own (`div#announcement-2291`).
pub(super) fn heading_place(doc: &Document, record: &Record, h: NodeId, base: &Url) -> Option<Url> {
    let control = first_id(doc, h).is_some_and(|(i, _)| doc.is_tag(i, "button"));
    match control {
        true => record_anchor(doc, record, base).or_else(|| heading_anchor(doc, h, base)),
        false => heading_anchor(doc, h, base),
    }
}

/// `base` linked to the place `fragment` names on it.
fn place_on_page(base: &Url, fragment: &str) -> Url {
    let mut url = base.clone();
    url.set_fragment(Some(fragment));
    url
}

/// The record's place on the page, its element's `id` (a seminar whose
/// title is to be announced, `article#seminar-2026-12-17`), as a link.
pub(super) fn record_anchor(doc: &Document, record: &Record, base: &Url) -> Option<Url> {
    let id = doc.element(record.start)?.attr("id")?.trim();
    (!id.is_empty()).then(|| place_on_page(base, id))
}

/// The heading's place on the page: its own `id`, else the `id` of an
/// element inside it (MediaWiki's `<h2><span class=mw-headline
/// id=…>`), else the `#` place a link inside it points to
/// ([`anchor_of`]).
pub(super) fn heading_fragment(doc: &Document, heading: NodeId) -> Option<&str> {
    first_id(doc, heading)
        .map(|(_, id)| id)
        .or_else(|| anchor_of(doc, heading))
}

/// The first element of the subtree at `heading` (itself included) with
/// a non-blank `id`, or an anchor with a `name` (a hand-written news
/// page's `<h3><a name="sec-2026-10"></a>Security fix …</h3>`), and that
/// `id` or name, trimmed.
fn first_id(doc: &Document, heading: NodeId) -> Option<(NodeId, &str)> {
    (heading..doc.node(heading).end).find_map(|i| {
        let e = doc.element(i)?;
        let name = || e.attr("name").filter(|_| e.name == "a");
        let id = e.attr("id").or_else(name)?.trim();
        (!id.is_empty()).then_some((i, id))
    })
}

/// The in-page place a link inside `heading` points to (its `¶`
/// permalink's `#v4-12-0`), without the `#`.
pub(super) fn anchor_of(doc: &Document, heading: NodeId) -> Option<&str> {
    (heading + 1..doc.node(heading).end)
        .filter_map(|i| doc.element(i).filter(|e| e.name == "a")?.attr("href"))
        .map(str::trim)
        .find_map(|h| h.strip_prefix('#').filter(|f| !f.is_empty()))
}
