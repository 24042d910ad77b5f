//! Debug one page: `cargo run --release --example debug_body -- FILE.html.gz [reverse|reverse-paper] [BASE-URL: also print the HTML]`
use std::io::Read;

use feedmine::bodies::{BodyParams, Method, extract};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else { return };
    let method: Method = args
        .get(1)
        .and_then(|m| m.parse().ok())
        .unwrap_or(Method::Reverse);
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
    let p = BodyParams {
        debug: true,
        ..BodyParams::default()
    };
    let base = args.get(2).and_then(|u| url::Url::parse(u).ok());
    match extract(&html, base.as_ref(), method, &p) {
        Ok(ex) => {
            println!(
                "title {:?} byline {:?} date {:?} img {:?}",
                ex.title, ex.byline, ex.published, ex.lead_image
            );
            println!(
                "nodes {}/{} reason {:?}\n-----\n{}",
                ex.nodes_built, ex.nodes_total, ex.empty_reason, ex.text
            );
            if base.is_some() {
                println!("-----\n{}", ex.html);
            }
        }
        Err(e) => println!("error {e}"),
    }
}
