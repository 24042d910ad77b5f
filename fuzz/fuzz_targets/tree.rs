//! The backward (and forward) tree builders of `bodies::tree`, directly and
//! through `bodies::extract` with every method: never panic, stay bounded.
#![no_main]

use feedmine::bodies::{self, BodyParams, Method, tokenize, tree};
use libfuzzer_sys::fuzz_target;

const METHODS: [Method; 5] = [
    Method::Reverse,
    Method::ReversePaper,
    Method::Cevc,
    Method::Tagpath,
    Method::Similarity,
];

fuzz_target!(|html: &str| {
    let toks = tokenize::tokenize(html);
    let _ = tree::build_backward(&toks.tokens);
    let _ = tree::build_forward(&toks.tokens);
    let base = url::Url::parse("https://example.com/a/b.html").ok();
    let params = BodyParams::default();
    for method in METHODS {
        let ex = bodies::extract(html, base.as_ref(), method, &params);
        assert!(ex.is_ok(), "extract errs only on bad params");
    }
});
