//! eval::articles (work in progress)
