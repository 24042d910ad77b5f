//! Debug one page: `cargo run --release --example debug_body -- FILE.html.gz [reverse|reverse-paper]`
use std::io::Read;

use feedmine::bodies::{BodyParams, Method, extract};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else { return };
    let method: Method = args.get(1).and_then(|m| m.parse().ok()).unwrap_or(Method::Reverse);
    let mut bytes = Vec::new();
    let Ok(f) = std::fs::File::open(path) else { return };
    if flate2::read::GzDecoder::new(f).read_to_end(&mut bytes).is_err() {
        return;
    }
    let html = feedmine::eval::articles::decode_page(&bytes);
    let mut p = BodyParams::default();
    p.debug = true;
    match extract(&html, None, method, &p) {
        Ok(ex) => {
            println!("title {:?} byline {:?} date {:?} img {:?}", ex.title, ex.byline, ex.published, ex.lead_image);
            println!("nodes {}/{} reason {:?}\n-----\n{}", ex.nodes_built, ex.nodes_total, ex.empty_reason, ex.text);
        }
        Err(e) => println!("error {e}"),
    }
}
