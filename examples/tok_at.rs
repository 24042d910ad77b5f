//! Debug: which token covers byte OFFSET of a gzipped page.
//! `cargo run --release --example tok_at -- FILE.html.gz OFFSET`
use std::io::Read;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), Some(off)) = (a.first(), a.get(1).and_then(|o| o.parse::<u32>().ok())) else {
        return;
    };
    let mut bytes = Vec::new();
    let Ok(f) = std::fs::File::open(path) else {
        return;
    };
    if flate2::read::GzDecoder::new(f)
        .read_to_end(&mut bytes)
        .is_err()
    {
        return;
    }
    let html = feedmine::eval::articles::decode_page(&bytes);
    let toks = feedmine::bodies::tokenize::tokenize(&html);
    let i = toks.tokens.partition_point(|t| t.span.end <= off);
    for t in toks.tokens.iter().skip(i.saturating_sub(3)).take(6) {
        let s = &html[t.span.start as usize..t.span.end.min(t.span.start + 120) as usize];
        println!("{:?} {} {:?} {:?}", t.kind, toks.name(t.tag), t.span, s);
    }
}
