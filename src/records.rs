//! records (work in progress)
