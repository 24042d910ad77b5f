use std::time::Instant;
fn main() {
    let dir = std::path::Path::new("../shared/data/lists");
    let params = feedmine::patterns::MiningParams::default();
    let ctx = feedmine::commands::default_date_context();
    let mut pages = vec![];
    for e in std::fs::read_dir(dir).unwrap() { let p = e.unwrap().path().join("page.html"); let b = std::fs::read(&p).unwrap(); pages.push(feedmine::decode::decode(&b, None, None).unwrap().text); }
    let url = url::Url::parse("https://page.invalid/").unwrap();
    let (mut parse, mut flat, mut mine, mut det, mut items) = (vec![], vec![], vec![], vec![], vec![]);
    for round in 0..3 { for html in &pages {
        let t0 = Instant::now(); let doc = feedmine::dom::parse(html);
        let t1 = Instant::now(); let seq = feedmine::sequence::flatten(&doc);
        let t2 = Instant::now(); let m = feedmine::patterns::mine(&seq, &params);
        let t3 = Instant::now(); let d = feedmine::records::detect(&doc, &seq, &m, &params);
        let t4 = Instant::now();
        let base = feedmine::items::base_url(&doc, &url);
        if let Some(g) = d.winner() { let plan = feedmine::items::plan_titles(&doc, &g.records); for r in &g.records { std::hint::black_box(feedmine::items::item_from_record(&doc, r, &base, &ctx, &plan)); } }
        let t5 = Instant::now();
        if round > 0 { parse.push(t1-t0); flat.push(t2-t1); mine.push(t3-t2); det.push(t4-t3); items.push(t5-t4); }
    }}
    for (n, mut v) in [("parse",parse),("flatten",flat),("mine",mine),("detect",det),("items",items)] { v.sort(); let s: f64 = v.iter().map(|d| d.as_secs_f64()).sum::<f64>()*1e3; println!("{n:8} median {:.3} ms  sum {:.1} ms", v[v.len()/2].as_secs_f64()*1e3, s); }
}
