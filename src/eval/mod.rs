//! Measurement of the extractors on the evaluation data set (labelled pages
//! outside this repository, never copied into it; paths are arguments). `lists` scores record extraction on list
//! pages; `articles` scores main-text extraction on article pages. Both
//! report the exact metrics the data set defines, plus timings;
//! `feedbodies` runs the article pages through a `source = "feed"` feed and
//! scores the bodies it publishes.

pub mod articles;
pub mod feedbodies;
pub mod lists;
