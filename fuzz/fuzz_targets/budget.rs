//! The parse budget's linear pre-pass (`extract::dom::budget::bound`):
//! never panics (every cut on a character boundary), never grows the
//! input, keeps pages within the budget borrowed and unchanged, and its
//! output still parses.
#![no_main]

use std::borrow::Cow;

use feedmine::extract::dom::budget::bound;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|html: &str| {
    let b = bound(html);
    assert!(b.html.len() <= html.len());
    if matches!(b.html, Cow::Borrowed(_)) {
        assert_eq!(b.html.as_ref(), html);
        assert!(!b.truncated && b.dropped_attributes == 0);
    }
    let _ = feedmine::extract::dom::parse(html);
});
