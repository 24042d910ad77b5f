//! patterns/mod (work in progress)
