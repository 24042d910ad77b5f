//! pipeline (work in progress)
