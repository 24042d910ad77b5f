//! sequence (work in progress)
