//! feed (work in progress)
