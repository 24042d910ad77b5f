//! Measurement of the extractors on labelled data (`../shared/data`, never
//! copied into the repository). `lists` scores record extraction on list
//! pages; `articles` scores main-text extraction on article pages. Both
//! report the exact metrics of `shared/data/README.md` plus timings.

pub mod articles;
pub mod lists;
