//! bodies/mod (work in progress)
