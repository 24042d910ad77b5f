//! The nesting-depth cap's model of the HTML parser's list of active
//! formatting elements, so that the parse pre-pass ([`super::prepare`]) can
//! keep it short.
//!
//! The parser re-opens every formatting element (`b`, `font`, `i`, ...)
//! left open when a block closed, at the next text: with 1,000 distinct
//! `<b id=N>` left open, one per paragraph, paragraph N holds N nested
//! copies, so elements grow with the square of the tags and depth with
//! their number (a 46 KB page took 44 s). The list the parser keeps is
//! modelled here and a formatting start tag that would make it longer
//! than [`MAX_ACTIVE_FORMATTING`] is dropped, like a tag past the depth cap.
//!
//! Invariants:
//! - The modelled list is never shorter than the parser's, up to the
//!   depth cap: an entry leaves it only where the parser certainly drops
//!   it: the end tag of its name with no scope boundary opened since
//!   (otherwise the parser ignores that end tag), the close of the
//!   marker element (`td`, `caption`, ...) it was opened in, a newer
//!   identical entry past the three the parser keeps ("Noah's ark"), or a
//!   newer `a`. Identity is the tag as written, so two tags the parser
//!   finds equal may count as two (more entries, never fewer).
//! - Constant work per tag: at most [`MAX_ACTIVE_FORMATTING`] entries are
//!   searched.

use super::tags::{TagId, tag::*};

/// Longest list of active formatting elements handed to the parser. Real
/// pages leave a few open: capped at 4, none of the 290 list pages we
/// evaluate on (the labelled sets, our fixtures, unseen rounds) loses a
/// tag. Each entry can be re-opened once per block, so the cap bounds the
/// elements a page makes to about ten per block.
pub const MAX_ACTIVE_FORMATTING: usize = 8;

/// Identical entries the parser keeps after the last marker.
const NOAHS_ARK: usize = 3;

/// The HTML spec's formatting elements.
pub fn is_formatting(t: TagId) -> bool {
    matches!(
        t,
        A | B | BIG | CODE | EM | FONT | I | NOBR | S | SMALL | STRIKE | STRONG | TT | U
    )
}

/// Elements that put a marker on the list when they open and clear the
/// list back to it when they close.
pub fn is_marker(t: TagId) -> bool {
    matches!(t, APPLET | CAPTION | MARQUEE | OBJECT | TD | TH | TEMPLATE)
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    id: TagId,
    /// Hash of the start tag as written (name and attributes).
    tag: u64,
    /// Markers open when it was added.
    markers: u32,
    /// Scope boundaries open when it was added.
    boundaries: u32,
}

/// The list of active formatting elements, as far as its length goes.
#[derive(Debug, Default)]
pub struct ActiveFormatting {
    entries: Vec<Entry>,
    markers: u32,
    boundaries: u32,
}

impl ActiveFormatting {
    /// A formatting element `id` opens, its start tag hashing to `tag`:
    /// false when the list is full and the tag must be dropped (never for
    /// `a`).
    pub fn open(&mut self, id: TagId, tag: u64) -> bool {
        if id == A
            && let Some(i) = self.last_since_marker(|e| e.id == A)
        {
            self.entries.remove(i);
        }
        let (first, count) = self
            .since_marker()
            .filter(|&i| self.entries[i].id == id && self.entries[i].tag == tag)
            .fold((None, 0), |(first, n), i| (first.or(Some(i)), n + 1));
        if let Some(first) = first
            && count >= NOAHS_ARK
        {
            self.entries.remove(first);
        }
        // A link is never dropped: a newer one replaces it, so links add
        // one entry per marker at most.
        if self.entries.len() >= MAX_ACTIVE_FORMATTING && id != A {
            return false;
        }
        self.entries.push(Entry {
            id,
            tag,
            markers: self.markers,
            boundaries: self.boundaries,
        });
        true
    }

    /// The end tag of formatting element `id`.
    pub fn close(&mut self, id: TagId) {
        if let Some(i) = self.last_since_marker(|e| e.id == id)
            && self.entries[i].boundaries >= self.boundaries
        {
            self.entries.remove(i);
        }
    }

    /// An element opens (`boundary`: a scope boundary).
    pub fn element_opened(&mut self, boundary: bool, marker: bool) {
        self.boundaries += u32::from(boundary);
        self.markers += u32::from(marker);
    }

    /// An element closes; a marker's close drops what was added after it.
    pub fn element_closed(&mut self, boundary: bool, marker: bool) {
        self.boundaries = self.boundaries.saturating_sub(u32::from(boundary));
        if marker {
            self.markers = self.markers.saturating_sub(1);
            let markers = self.markers;
            self.entries.retain(|e| e.markers <= markers);
        }
    }

    /// Indices of the entries added since the last marker, oldest first.
    fn since_marker(&self) -> impl Iterator<Item = usize> + '_ {
        let markers = self.markers;
        (0..self.entries.len()).filter(move |&i| self.entries[i].markers == markers)
    }

    fn last_since_marker(&self, accept: impl Fn(&Entry) -> bool) -> Option<usize> {
        self.since_marker()
            .filter(|&i| accept(&self.entries[i]))
            .last()
    }

    /// Entries on the list.
    #[cfg(test)]
    fn entries(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_open_tags_fill_the_list_to_its_cap() {
        let mut list = ActiveFormatting::default();
        let kept = (0..40u64).filter(|&n| list.open(B, n)).count();
        assert_eq!(kept, MAX_ACTIVE_FORMATTING);
        assert_eq!(list.entries(), MAX_ACTIVE_FORMATTING);
        assert!(
            list.open(A, 1) && list.open(A, 2),
            "links are never dropped"
        );
        assert_eq!(list.entries(), MAX_ACTIVE_FORMATTING + 1);
    }

    #[test]
    fn identical_tags_are_kept_three_times_and_closed_ones_leave() {
        let mut list = ActiveFormatting::default();
        for _ in 0..40 {
            assert!(list.open(FONT, 7));
        }
        assert_eq!(list.entries(), NOAHS_ARK);
        for n in 0..40u64 {
            assert!(list.open(I, n));
            list.close(I);
        }
        assert_eq!(list.entries(), NOAHS_ARK);
        assert!(list.open(A, 1) && list.open(A, 2));
        assert_eq!(
            list.entries(),
            NOAHS_ARK + 1,
            "a newer link replaces the open one"
        );
    }

    #[test]
    fn an_end_tag_past_a_boundary_keeps_the_entry_and_a_cell_clears_its_own() {
        let mut list = ActiveFormatting::default();
        list.open(B, 1);
        list.element_opened(true, false); // <table>
        list.close(B); // the b is out of scope: the parser ignores this
        assert_eq!(list.entries(), 1);
        list.element_opened(true, true); // <td>
        list.open(I, 2);
        list.close(B); // and no b was opened in the cell
        assert_eq!(list.entries(), 2);
        list.element_closed(true, true); // </td>
        assert_eq!(list.entries(), 1, "the cell's i is cleared, the b stays");
        list.element_closed(true, false); // </table>
        list.close(B);
        assert_eq!(list.entries(), 0);
    }
}
