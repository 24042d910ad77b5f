//! fetch (work in progress)
