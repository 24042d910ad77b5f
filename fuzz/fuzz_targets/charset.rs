//! `decode::decode` on arbitrary bytes with an arbitrary Content-Type and TLD.
//! Input layout: `content-type \n tld \n body` (missing lines mean `None`).
#![no_main]

use feedmine::fetch::decode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == b'\n');
    let first = parts.next().unwrap_or_default();
    let second = parts.next();
    let third = parts.next();
    let (content_type, tld, body) = match (second, third) {
        (Some(tld), Some(body)) => (Some(first), Some(tld), body),
        (Some(body), None) => (Some(first), None, body),
        _ => (None, None, first),
    };
    let content_type = content_type.map(String::from_utf8_lossy);
    let tld = tld.map(String::from_utf8_lossy);
    let _ = decode::charset_from_content_type(content_type.as_deref().unwrap_or(""));
    let _ = decode::looks_binary(body);
    if let Ok(d) = decode::decode(body, content_type.as_deref(), tld.as_deref()) {
        // Decoding is total: every byte becomes text or U+FFFD.
        assert!(!d.text.is_empty() || body.len() <= 4);
    }
});
