//! dom (work in progress)
