//! Record extraction from one list page, as pure functions over plain data:
//! `dom` (parse into a flat arena, with depth and size caps) → `sequence`
//! (the tag sequence) → `patterns` (repeats by suffix array and LCP
//! intervals, filtered by the paper's rules) → `records` (record groups,
//! ranked) → `items` (title, link, date, summary, image per record, with
//! `dates` reading dates). Nothing here does I/O.

pub mod dates;
pub mod dom;
pub mod items;
pub mod patterns;
pub mod records;
pub mod selectors;
pub mod sequence;
