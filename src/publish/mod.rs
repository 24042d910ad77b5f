//! Everything a reader receives: `feed` renders RSS, Atom, JSON Feed and
//! OPML, `page` each feed's HTML page, `templates` holds the user-overridable minijinja templates,
//! `sanitize` cleans item HTML before any renderer sees it, and `atomic`
//! puts finished files on disk so that no reader sees a partial one.

mod atomic;
pub mod feed;
pub mod page;
pub mod sanitize;
pub mod templates;

pub use atomic::*;
