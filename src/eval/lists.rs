//! eval::lists (work in progress)
