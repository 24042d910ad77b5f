//! decode (work in progress)
