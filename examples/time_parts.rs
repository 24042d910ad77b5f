//! Where one page's extraction time goes: `time_parts FILE.html.gz`.
use std::io::Read;
use std::time::Instant;

use feedmine::bodies::{BodyParams, Method, extract, tokenize};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        return;
    };
    let mut bytes = Vec::new();
    let Ok(f) = std::fs::File::open(&path) else {
        return;
    };
    if flate2::read::GzDecoder::new(f)
        .read_to_end(&mut bytes)
        .is_err()
    {
        return;
    }
    let html = feedmine::eval::articles::decode_page(&bytes);
    let n = 20;
    let t = Instant::now();
    for _ in 0..n {
        std::hint::black_box(tokenize::tokenize(&html));
    }
    println!(
        "tokenize {:.3} ms",
        t.elapsed().as_secs_f64() * 1000.0 / n as f64
    );
    for want_html in [false, true] {
        let p = BodyParams {
            want_html,
            ..BodyParams::default()
        };
        let t = Instant::now();
        for _ in 0..n {
            std::hint::black_box(extract(&html, None, Method::Reverse, &p).ok());
        }
        println!(
            "extract html={want_html} {:.3} ms",
            t.elapsed().as_secs_f64() * 1000.0 / n as f64
        );
    }
}
