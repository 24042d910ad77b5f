//! Measurement of the extractors on the evaluation data set (labelled pages
//! outside this repository, never copied into it; paths are arguments). `lists` scores record extraction on list
//! pages; `articles` scores main-text extraction on article pages. Both
//! report the exact metrics the data set defines, plus timings.

pub mod articles;
pub mod lists;
