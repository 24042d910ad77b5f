//! `bodies::tokenize` on arbitrary text: must never panic, and every token's
//! byte span must lie inside the input on char boundaries.
#![no_main]

use feedmine::bodies::tokenize;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|html: &str| {
    let toks = tokenize::tokenize(html);
    for tok in &toks.tokens {
        let span = tok.span.start as usize..tok.span.end as usize;
        assert!(span.start <= span.end && span.end <= html.len());
        assert!(html.is_char_boundary(span.start) && html.is_char_boundary(span.end));
        let attrs = tok.attrs.start as usize..tok.attrs.end as usize;
        assert!(attrs.start <= attrs.end && attrs.end <= html.len());
        let _ = tokenize::attr(html, tok, "href");
        for _ in tokenize::attrs(html, tok) {}
    }
});
