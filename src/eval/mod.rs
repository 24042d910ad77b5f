//! Measurement of the extractors on labelled data (`../shared/data`, never
//! copied into the repository). `lists` scores record extraction on list
//! pages; `articles` scores main-text extraction on article pages. Both
//! `feedbodies` runs the article pages through a `source = "feed"` feed and
//! scores the bodies it publishes. All
//! report the exact metrics of `shared/data/README.md` plus timings.

pub mod articles;
pub mod feedbodies;
pub mod lists;
