//! Record extraction from one list page, as pure functions over plain data:
//! `dom` (parse into a flat arena, with depth and size caps) → `sequence`
//! (the tag sequence) → `patterns` (repeats by suffix array and LCP
//! intervals, filtered by the paper's rules) → `records` (record groups,
//! ranked) → `items` (title, link, date, summary, image per record, with
//! `dates` reading dates and `section_dates` the dates of day headings).
//! Beside the mining: `advertised` (the feeds a page links to),
//! `feedsource` (a feed read as items) and `pagination` (where a list
//! continues), `embedded` (records from the data a page embeds for its
//! scripts: JSON-LD, `__NEXT_DATA__`, state assignments) and `shell` (is an
//! empty static page an app shell?). Nothing here does I/O.

pub mod advertised;
pub mod bounds;
pub mod byline;
pub mod dates;
pub mod dom;
pub mod embedded;
pub mod feedsource;
pub mod items;
pub mod pagination;
pub mod patterns;
pub mod records;
pub mod section_dates;
pub mod selectors;
pub mod sequence;
pub mod shell;
pub mod timetable;
