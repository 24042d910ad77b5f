//! dates (work in progress)
