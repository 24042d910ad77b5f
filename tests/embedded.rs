//! Pages built by JavaScript, read without a browser: the records come
//! from the data the page embeds for its scripts (Next.js `__NEXT_DATA__`,
//! JSON-LD `ItemList`, a `window.__INITIAL_STATE__` assignment), competing
//! with the DOM's groups; an app shell with no data gets the hint.

use feedmine::extract::dates::DateContext;
use feedmine::extract::patterns::MiningParams;
use feedmine::pipeline::{ListPage, analyze_list};
use url::Url;

fn run(html: &str) -> ListPage {
    let url = Url::parse("https://jobs.example.com/board/").unwrap();
    let dates = DateContext {
        now: chrono::Utc::now(),
        offset: chrono::FixedOffset::east_opt(0).unwrap(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
    };
    analyze_list(html, &url, &MiningParams::default(), &dates)
}

/// The shell every page below shares: a mount point and a bundle.
fn shell(head: &str, body_scripts: &str) -> String {
    format!(
        "<!doctype html><html><head><meta charset=utf-8><title>Harbour Jobs</title>{head}\
         <script src=\"/_next/static/chunks/main-3f2a1c.js\" defer></script></head>\
         <body><div id=\"__next\"></div>{body_scripts}</body></html>"
    )
}

#[test]
fn next_data_gives_the_posts_of_a_next_js_page() {
    let posts: Vec<String> = (1..=6)
        .map(|i| {
            format!(
                r#"{{"id":{i},"slug":"harbour-news-{i}","title":"Harbour news number {i}: the ferry timetable changes","excerpt":"What changes for commuters on line {i} from Monday, and why.","publishedAt":"2026-10-0{i}T08:30:00Z","author":{{"name":"Ana Ruiz"}},"href":"/news/harbour-news-{i}"}}"#
            )
        })
        .collect();
    let data = format!(
        r#"{{"props":{{"pageProps":{{"posts":[{}],"nav":[{{"label":"Home","href":"/"}},{{"label":"Jobs","href":"/jobs"}}]}}}},"page":"/news","buildId":"x1"}}"#,
        posts.join(",")
    );
    let html = shell(
        "",
        &format!("<script id=\"__NEXT_DATA__\" type=\"application/json\">{data}</script>"),
    );
    let page = run(&html);
    assert_eq!(page.items.len(), 6, "{:?}", page.embedded.groups);
    let first = &page.items[0];
    assert_eq!(
        first.title,
        "Harbour news number 1: the ferry timetable changes"
    );
    assert_eq!(
        first.link.as_ref().map(Url::as_str),
        Some("https://jobs.example.com/news/harbour-news-1")
    );
    assert_eq!(
        first.date.map(|d| d.to_rfc3339()),
        Some("2026-10-01T08:30:00+00:00".to_string())
    );
    let used = page.chosen.embedded.as_deref().unwrap_or_default();
    assert!(
        used.contains("__NEXT_DATA__") && used.contains("posts"),
        "{used}"
    );
    let hint = page.hint().unwrap_or_default();
    assert!(hint.contains("embedded in the page"), "{hint}");
}

#[test]
fn json_ld_item_list_gives_the_job_postings() {
    let elements: Vec<String> = (1..=4)
        .map(|i| {
            format!(
                r#"{{"@type":"ListItem","position":{i},"item":{{"@type":"JobPosting","title":"Deck officer, vessel {i}","url":"https://jobs.example.com/jobs/{i}","datePosted":"2026-11-1{i}","description":"Watchkeeping on a coastal ferry, rotation two weeks on and two off."}}}}"#
            )
        })
        .collect();
    let ld = format!(
        r#"{{"@context":"https://schema.org","@type":"ItemList","itemListElement":[{}]}}"#,
        elements.join(",")
    );
    let html = shell(
        &format!("<script type=\"application/ld+json\">{ld}</script>"),
        "",
    );
    let page = run(&html);
    let titles: Vec<&str> = page.items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Deck officer, vessel 1",
            "Deck officer, vessel 2",
            "Deck officer, vessel 3",
            "Deck officer, vessel 4"
        ],
        "{:?}",
        page.embedded.groups
    );
    assert_eq!(
        page.items[3].link.as_ref().map(Url::as_str),
        Some("https://jobs.example.com/jobs/4")
    );
}

#[test]
fn an_initial_state_assignment_is_read_without_running_it() {
    // A store the page's own script renders from; the assignment is a JS
    // object literal (unquoted keys, single quotes, a trailing comma).
    let items: Vec<String> = (1..=5)
        .map(|i| {
            format!(
                "{{id: {i}, name: 'Marina berth {i} for rent, 12 m', url: '/berths/{i}', \
                 listed: '2026-09-2{i}', price: {i}00,}}"
            )
        })
        .collect();
    let script = format!(
        "<script>window.__INITIAL_STATE__ = {{listings: {{items: [{}], total: 5}}, \
         user: null}};\nrender(document.getElementById('__next'));</script>",
        items.join(", ")
    );
    let page = run(&shell("", &script));
    assert_eq!(page.items.len(), 5, "{:?}", page.embedded.groups);
    assert_eq!(page.items[4].title, "Marina berth 5 for rent, 12 m");
    assert_eq!(
        page.items[0].link.as_ref().map(Url::as_str),
        Some("https://jobs.example.com/berths/1")
    );
}

#[test]
fn an_app_shell_without_data_says_it_is_built_by_javascript() {
    // The list is fetched by script from /api/items: nothing to read here.
    let html = shell(
        "",
        "<noscript>You need to enable JavaScript to run this app.</noscript>\
         <script>fetch('/api/items').then(r => r.json()).then(render);</script>",
    );
    let page = run(&html);
    assert!(page.items.is_empty());
    let hint = page.hint().unwrap_or_default();
    assert!(hint.contains("built by JavaScript"), "{hint:?}");
}

#[test]
fn a_static_list_keeps_its_dom_records_beside_unrelated_data() {
    // A server-rendered blog whose page also embeds a small settings blob
    // and a breadcrumb: the DOM list wins, nothing is said about data.
    let posts: String = (1..=5)
        .map(|i| {
            format!(
                "<article class=\"post\"><h2><a href=\"/2026/10/post-{i}\">Notes from the quay, \
                 part {i}</a></h2><time datetime=\"2026-10-0{i}\">October {i}</time>\
                 <p>The morning ferry ran late again, and the fishermen had opinions.</p></article>"
            )
        })
        .collect();
    let html = format!(
        "<html><head><title>Quay notes</title><script type=\"application/ld+json\">\
         {{\"@context\":\"https://schema.org\",\"@type\":\"BreadcrumbList\",\"itemListElement\":[\
         {{\"@type\":\"ListItem\",\"position\":1,\"name\":\"Home\",\"item\":\"https://quay.example/\"}},\
         {{\"@type\":\"ListItem\",\"position\":2,\"name\":\"Blog\",\"item\":\"https://quay.example/blog/\"}}]}}\
         </script><script>window.__SETTINGS__ = {{theme: 'dark', lang: 'en'}};</script></head>\
         <body><main>{posts}</main></body></html>"
    );
    let page = run(&html);
    assert_eq!(page.items.len(), 5);
    assert!(page.chosen.embedded.is_none());
    assert_eq!(page.chosen.group, Some(0));
    assert_eq!(page.hint(), None);
}

#[test]
fn once_publishes_embedded_records_and_names_an_app_shell() {
    let dir = tempfile::tempdir().unwrap();
    let posts: Vec<String> = (1..=4)
        .map(|i| {
            format!(
                r#"{{"title":"Regatta results, race {i}","url":"https://quay.example/regatta/{i}","date":"2026-08-1{i}","summary":"Who won race {i} in the harbour, and by how much."}}"#
            )
        })
        .collect();
    let data = format!(
        r#"{{"props":{{"pageProps":{{"results":[{}]}}}}}}"#,
        posts.join(",")
    );
    let next = shell(
        "",
        &format!("<script id=\"__NEXT_DATA__\" type=\"application/json\">{data}</script>"),
    );
    std::fs::write(dir.path().join("regatta.html"), next).unwrap();
    std::fs::write(
        dir.path().join("app.html"),
        shell(
            "",
            "<script>fetch('/api/items').then(r => r.json()).then(render);</script>",
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("feeds.toml"),
        "output_dir = \"out\"\n[[feed]]\nid = \"regatta\"\nurl = \"regatta.html\"\nbodies = false\n\n\
         [[feed]]\nid = \"app\"\nurl = \"app.html\"\nbodies = false\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["once", "--config"])
        .arg(dir.path().join("feeds.toml"))
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        stdout.contains("feed regatta: published (4 records"),
        "{stdout}{stderr}"
    );
    let rss = std::fs::read_to_string(dir.path().join("out/regatta.xml")).unwrap();
    assert!(rss.contains("https://quay.example/regatta/3"), "{rss}");
    assert_ne!(out.status.code(), Some(0), "the app shell feed failed");
    let line = stderr
        .lines()
        .find(|l| l.contains("feed app"))
        .unwrap_or_default();
    assert!(line.contains("built by JavaScript"), "{stderr}");
}

#[test]
fn a_list_built_by_inline_script_from_an_inline_array_is_read() {
    // The issue's first shape: the script holds the array and writes the
    // DOM from it; nothing runs here, the array is read as data.
    let script = r#"<script>
const jobs = [
  {"title": "Harbour pilot, night shifts", "url": "/jobs/pilot", "posted": "2026-11-02"},
  {"title": "Crane operator for the container quay", "url": "/jobs/crane", "posted": "2026-11-03"},
  {"title": "Ferry steward, summer season", "url": "/jobs/steward", "posted": "2026-11-04"}
];
document.getElementById("__next").innerHTML =
  jobs.map(j => `<a href="${j.url}">${j.title}</a>`).join("");
</script>"#;
    let page = run(&shell("", script));
    let links: Vec<String> = page
        .items
        .iter()
        .filter_map(|i| i.link.as_ref().map(|l| l.path().to_string()))
        .collect();
    assert_eq!(
        links,
        ["/jobs/pilot", "/jobs/crane", "/jobs/steward"],
        "{:?}",
        page.embedded.groups
    );
}
