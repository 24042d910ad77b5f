//! publish (work in progress)
