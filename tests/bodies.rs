//! End-to-end extraction on realistic pages written for these tests
//! (`tests/fixtures/articles/`): main text in, boilerplate out, metadata read.

use feedmine::bodies::{BodyParams, Method, extract};

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/articles/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

fn run(name: &str, method: Method) -> feedmine::bodies::Extraction {
    let base = url::Url::parse("https://news.example/2025/04/bridge.html").unwrap();
    extract(&fixture(name), Some(&base), method, &BodyParams::default()).unwrap()
}

#[test]
fn news_article_keeps_story_and_drops_chrome() {
    let ex = run("news.html", Method::Reverse);
    let t = &ex.text;
    for want in [
        "The Harbour Bridge reopened to traffic on Tuesday morning",
        "Hundreds of residents walked across the deck",
        "The repair cost 48 million euros",
        "Traffic expected to ease",
        "Buses 4 and 17 return to their old routes on Monday.",
        "would now be inspected every year instead of every five.",
    ] {
        assert!(t.contains(want), "missing {want:?} in\n{t}");
    }
    for unwanted in [
        "Sport",
        "We use cookies",
        "Share on Facebook",
        "Photo: R. Lind",
        "Ferry timetable extended",
        "I will not miss the smell",
        "All rights reserved",
        "bridges transport",
    ] {
        assert!(!t.contains(unwanted), "boilerplate {unwanted:?} in\n{t}");
    }
    // Paragraphs one blank line apart, the omitted </p> handled.
    assert!(
        t.contains("brass band played on the quay below.\n\nThe repair cost"),
        "{t}"
    );
    assert!(ex.empty_reason.is_none());
    assert!(ex.nodes_built > 0 && ex.nodes_built < ex.nodes_total);
    // Metadata.
    assert_eq!(
        ex.title.as_deref(),
        Some("Harbour bridge reopens after two-year repair")
    );
    assert_eq!(ex.byline.as_deref(), Some("Maria Okafor"));
    assert_eq!(
        ex.published.unwrap().to_rfc3339(),
        "2025-04-02T08:30:00+02:00"
    );
    assert_eq!(
        ex.lead_image.unwrap().as_str(),
        "https://news.example/media/bridge-lead.jpg"
    );
    // HTML: sanitized, content tags kept, no chrome.
    let h = &ex.html;
    assert!(h.contains("<p>The Harbour Bridge reopened"), "{h}");
    assert!(h.contains("<h2>Traffic expected to ease</h2>"), "{h}");
    assert!(h.contains("<li>Buses 4 and 17"), "{h}");
    assert!(
        !h.contains("class=") && !h.contains("<script") && !h.contains("Share on"),
        "{h}"
    );
}

#[test]
fn blog_post_keeps_code_and_lists() {
    let ex = run("blog.html", Method::Reverse);
    let t = &ex.text;
    assert!(
        t.contains("Most parsers read a page from the first byte to the last."),
        "{t}"
    );
    assert!(
        t.contains("fn step(tok: &Token, stack: &mut Vec<Node>) {"),
        "{t}"
    );
    assert!(
        t.contains("        Kind::Start => { stack.pop(); }"),
        "code indentation kept:\n{t}"
    );
    assert!(
        t.contains("a list item ends where the next list item starts;"),
        "{t}"
    );
    assert!(
        t.contains("build both and compare them node by node."),
        "{t}"
    );
    for unwanted in [
        "October 2024",
        "Sign up",
        "Great write-up",
        "Powered by",
        "Leave a comment",
    ] {
        assert!(!t.contains(unwanted), "boilerplate {unwanted:?} in\n{t}");
    }
    assert_eq!(ex.title.as_deref(), Some("Parsing HTML backwards"));
    assert_eq!(ex.byline.as_deref(), Some("Jun Park"));
    assert_eq!(
        ex.published.unwrap().to_rfc3339(),
        "2024-11-05T00:00:00+00:00"
    );
    assert_eq!(
        ex.lead_image.unwrap().as_str(),
        "https://blog.example/img/tree.png"
    );
    assert!(ex.html.contains("<pre><code>fn step"), "{}", ex.html);
    assert!(ex.html.contains("<ol>"), "{}", ex.html);
}

#[test]
fn chinese_article_in_utf8() {
    let ex = run("chinese.html", Method::Reverse);
    let t = &ex.text;
    assert!(t.starts_with("经过为期一年的改造"), "{t}");
    assert!(t.contains("节假日期间将适当延长开放时间。"), "{t}");
    for unwanted in ["首页", "热点新闻", "地铁三号线", "版权所有", "微博"] {
        assert!(!t.contains(unwanted), "boilerplate {unwanted:?} in\n{t}");
    }
    assert_eq!(ex.byline.as_deref(), Some("李明"));
}

#[test]
fn page_without_article_is_empty_with_reason() {
    for method in [Method::Reverse, Method::ReversePaper] {
        let ex = run("empty.html", method);
        assert!(ex.text.is_empty(), "{method}: {}", ex.text);
        assert!(ex.html.is_empty());
        assert!(ex.empty_reason.is_some(), "{method}");
    }
}

#[test]
fn paper_method_finds_the_story_too() {
    let ex = run("news.html", Method::ReversePaper);
    assert!(
        ex.text.contains("The repair cost 48 million euros"),
        "{}",
        ex.text
    );
    assert!(ex.text.contains("inspected every year"), "{}", ex.text);
}

#[test]
fn method_names_parse() {
    assert_eq!("reverse".parse::<Method>().unwrap(), Method::Reverse);
    assert_eq!(
        "reverse-paper".parse::<Method>().unwrap(),
        Method::ReversePaper
    );
    assert_eq!("cevc".parse::<Method>().unwrap(), Method::Cevc);
    assert!("bogus".parse::<Method>().is_err());
}

#[test]
fn hostile_inputs_do_not_panic() {
    let deep = "<div>".repeat(50_000) + "some words here and there" + &"</span>".repeat(1000);
    let inputs = [
        String::new(),
        "<".into(),
        "</p></p></li><td>".into(),
        "<p>unclosed <b>bold <i>italic".into(),
        deep,
        "<table><tr><td>a<td>b<tr><td>c</table></tr></td>".repeat(200),
        "text only, no tags at all, but long enough to be a block of main text".into(),
    ];
    for html in &inputs {
        for method in [Method::Reverse, Method::ReversePaper] {
            let _ = extract(html, None, method, &BodyParams::default()).unwrap();
        }
    }
}

#[test]
fn an_article_beyond_the_parse_budget_keeps_its_first_part() {
    // Regression: 650,000 one-word paragraphs took 110 MB in the reverse
    // extractor, which did not apply the list pages' parse budget.
    let story = "<p>The harbour master opened the new quay on Monday morning, \
                 and the first ferry docked there before noon.</p>";
    let html = format!(
        "<html><body><article><h1>New quay</h1>{}{}</article></body></html>",
        story.repeat(20),
        "<p>x ".repeat(200_000)
    );
    let ex = extract(&html, None, Method::Reverse, &BodyParams::default()).unwrap();
    assert!(ex.cut_at_budget);
    assert!(
        ex.text.contains("harbour master opened the new quay"),
        "{}",
        ex.text
    );
    // A page within the budget is read whole.
    let small = format!(
        "<html><body><article>{}</article></body></html>",
        story.repeat(20)
    );
    let ex = extract(&small, None, Method::Reverse, &BodyParams::default()).unwrap();
    assert!(!ex.cut_at_budget);
}
