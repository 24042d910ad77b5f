//! Feed pages and the console, against a running daemon and a local town
//! website: in Debian's Chromium (index → feed page; console by keyboard →
//! preview → second group → block → Add feed → index after the reload,
//! with screenshots at 1280 and 390 px), and over plain HTTP for the security
//! rules (private addresses, the token, CSRF, content types).

#[path = "common/browser.rs"]
mod browser;
mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use browser::{TestBrowser, eval, press, screenshot, tab_to, type_text, wait_until};
use common::{Reply, TestServer};
use feedmine::daemon::{self, DaemonOptions};
use feedmine::serve::status::StatusBoard;
use tokio_util::sync::CancellationToken;

const TOKEN: &str = "s3cret-console-token";

const NEWS: [(&str, &str, &str, &str); 6] = [
    (
        "council-budget",
        "Council adopts the 2026 budget",
        "2026-03-02",
        "The council voted 9 to 4 for a budget that funds two new bus lines and repairs to the old swimming pool.",
    ),
    (
        "library-hours",
        "Library opens on Sundays from April",
        "2026-03-01",
        "After a survey of 1,200 residents the central library will open from noon to five on Sundays.",
    ),
    (
        "bridge-works",
        "Night works on the river bridge",
        "2026-02-27",
        "The east lane of the river bridge closes between 22:00 and 05:00 for three weeks of resurfacing.",
    ),
    (
        "vote-count",
        // Text that is markup once unescaped: must stay text on our pages.
        "Vote count &lt;img src=x onerror=&quot;window.__canary='title'&quot;&gt; published",
        "2026-02-25",
        "Results &lt;b onmouseover=alert(1)&gt;online&lt;/b&gt; <script>window.__canary='summary'</script> with turnout by district.",
    ),
    (
        "market",
        "Farmers' market moves to the square",
        "2026-02-24",
        "From March the Saturday market takes over the cathedral square, with forty stalls and live music.",
    ),
    (
        "school",
        "New primary school gets its name",
        "2026-02-20",
        "Pupils chose to name the school after the botanist who mapped the valley's wild orchids.",
    ),
];

const EVENTS: [(&str, &str, &str); 5] = [
    ("spring-fair", "Spring fair", "14 March"),
    ("jazz-night", "Jazz night at the old mill", "21 March"),
    ("clean-up", "River clean-up morning", "28 March"),
    ("film-club", "Film club: silent classics", "4 April"),
    ("orchid-walk", "Guided orchid walk", "11 April"),
];

/// A town's news page: six stories (detection's winner) and a sidebar of
/// five events (the second group), advertising a native RSS feed.
fn town_page() -> String {
    let mut html = String::from(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Town of Elmbridge — News</title>\
         <link rel=alternate type=application/rss+xml href='/press.rss' title='Press releases'></head>\
         <body><header><nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/contact'>Contact</a></nav></header>\
         <main><h1>News</h1><div class=news>",
    );
    for (slug, title, date, summary) in NEWS {
        html.push_str(&format!(
            "<article class=story><h2><a href='/news/{slug}'>{title}</a></h2>\
             <time datetime='{date}'>{date}</time><p>{summary}</p></article>"
        ));
    }
    html.push_str("</div></main><aside><h2>Upcoming events</h2><ul class=events>");
    for (slug, title, when) in EVENTS {
        html.push_str(&format!(
            "<li class=event><a href='/events/{slug}'>{title}</a> <span class=when>{when}</span></li>"
        ));
    }
    html.push_str(
        "</ul></aside><footer><a href='/privacy'>Privacy</a> <a href='/imprint'>Imprint</a></footer></body></html>",
    );
    html
}

async fn town() -> TestServer {
    TestServer::start(vec![("/news", Reply::html(town_page()))]).await
}

/// A config with the news feed, and `extra` top-level lines.
fn write_config(dir: &Path, server: &TestServer, extra: &str) -> PathBuf {
    let path = dir.join("feeds.toml");
    let text = format!(
        "# Elmbridge feeds (this comment must survive the console)\n\
         output_dir = \"out\"\n\
         every = \"1h\"\n\
         {extra}\n\n\
         [[feed]]\n\
         id = \"town-news\"   # the main list\n\
         url = \"{}\"\n\
         bodies = false\n",
        server.url("/news")
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn start_daemon(
    config: &Path,
    listener: tokio::net::TcpListener,
) -> (StatusBoard, CancellationToken, tokio::task::JoinHandle<()>) {
    let board = StatusBoard::new();
    let token = CancellationToken::new();
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    let opts = DaemonOptions {
        config_path: config.to_path_buf(),
        listen: None,
        once_now: true,
        watch_config: false,
        shutdown_grace: Duration::from_secs(2),
    };
    let handle = tokio::spawn({
        let board = board.clone();
        let token = token.clone();
        async move {
            let _tx = tx;
            daemon::run_with_board(opts, token, rx, board, Some(listener))
                .await
                .unwrap();
        }
    });
    (board, token, handle)
}

async fn wait_for(what: &str, mut check: impl FnMut() -> bool) {
    let start = Instant::now();
    while !check() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A running daemon with the news feed published.
struct Site {
    server: TestServer,
    dir: tempfile::TempDir,
    config: PathBuf,
    base: String,
    board: StatusBoard,
    stop: CancellationToken,
    handle: tokio::task::JoinHandle<()>,
}

impl Site {
    async fn start(extra: &str) -> Site {
        let server = town().await;
        let dir = tempfile::tempdir().unwrap();
        let config = write_config(dir.path(), &server, extra);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (board, stop, handle) = start_daemon(&config, listener);
        wait_for("the news feed's first run", || {
            board.get("town-news").is_some_and(|s| s.last_run.is_some())
        })
        .await;
        Site {
            server,
            dir,
            config,
            base,
            board,
            stop,
            handle,
        }
    }

    async fn stop(self) {
        self.stop.cancel();
        let _ = self.handle.await;
    }
}

/// `application/x-www-form-urlencoded` bodies (reqwest's `form` feature
/// is not enabled).
trait FormPairs {
    fn form_pairs(self, pairs: &[(&str, &str)]) -> Self;
}

impl FormPairs for reqwest::RequestBuilder {
    fn form_pairs(self, pairs: &[(&str, &str)]) -> Self {
        let body: String = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish();
        self.header("Content-Type", "application/x-www-form-urlencoded")
            .body(body)
    }
}

/// A client that shows redirects instead of following them.
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// The CSRF token in a console page.
fn csrf_of(html: &str) -> String {
    let at = html.find("name=\"csrf\" value=\"").expect("a csrf field") + 19;
    html[at..].split('"').next().unwrap().to_string()
}

fn shots_dir(test: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("screenshots")
        .join(test)
}

#[tokio::test(flavor = "multi_thread")]
async fn feed_pages_and_the_console_work_in_chromium() {
    let Some(chrome) = TestBrowser::launch().await else {
        return;
    };
    let site = Site::start(&format!(
        "console = true\nconsole_write = true\nbearer_token = \"{TOKEN}\"\nallow_private_addresses = true"
    ))
    .await;
    let shots = shots_dir("feed_pages_and_the_console_work_in_chromium");
    let _ = std::fs::remove_dir_all(&shots);

    // The index links each feed's page; the page shows the items.
    let page = chrome
        .open(&format!("{}/", site.base), 1280, Some(TOKEN))
        .await;
    screenshot(&page, &shots, "index", 1280).await;
    screenshot(&page, &shots, "index", 390).await;
    let link = page.find_element("a.page").await.expect("a feed page link");
    link.click().await.unwrap();
    wait_until(
        &page,
        "location.pathname === '/feeds/town-news.html' && document.readyState === 'complete'",
    )
    .await;
    let titles = eval(
        &page,
        "[...document.querySelectorAll('ol.items h2')].map(h => h.textContent.trim())",
    )
    .await;
    let titles: Vec<String> = serde_json::from_value(titles).unwrap();
    assert_eq!(titles.len(), NEWS.len(), "{titles:?}");
    assert_eq!(titles[0], "Council adopts the 2026 budget");
    assert!(
        titles[3].contains("<img src=x onerror="),
        "the payload is shown as text: {titles:?}"
    );
    let subscribe = eval(
        &page,
        "[...document.querySelectorAll('.subscribe a')].map(a => a.getAttribute('href'))",
    )
    .await;
    assert_eq!(
        subscribe,
        serde_json::json!(["town-news.xml", "feeds.opml"])
    );
    assert_eq!(eval(&page, "typeof window.__canary").await, "undefined");
    assert_eq!(
        eval(
            &page,
            "document.querySelectorAll('script, ol.items img').length"
        )
        .await,
        0
    );
    assert_eq!(
        eval(
            &page,
            "document.documentElement.scrollWidth <= window.innerWidth"
        )
        .await,
        true
    );
    screenshot(&page, &shots, "feed-page", 1280).await;
    screenshot(&page, &shots, "feed-page", 390).await;
    assert_eq!(
        eval(
            &page,
            "document.documentElement.scrollWidth <= window.innerWidth"
        )
        .await,
        true,
        "the feed page scrolls sideways at 390 px"
    );
    // The subscribe links work: the RSS file loads from the page.
    page.find_element(".subscribe a")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_until(&page, "location.pathname === '/feeds/town-news.xml'").await;

    // The console: preview the page, choose the second group, add it.
    let page = chrome
        .open(&format!("{}/console", site.base), 1280, Some(TOKEN))
        .await;
    let url = site.server.url("/news").to_string();
    // By keyboard: Tab to the URL field, type, Enter.
    tab_to(&page, "document.activeElement.id === 'url'", 10).await;
    assert_eq!(
        eval(
            &page,
            "getComputedStyle(document.activeElement).outlineStyle !== 'none'"
        )
        .await,
        true,
        "keyboard focus is visible"
    );
    type_text(&page, &url).await;
    press(&page, "Enter").await;
    wait_until(&page, "document.querySelectorAll('li.group').length >= 2").await;
    assert_eq!(eval(&page, "typeof window.__canary").await, "undefined");
    let native = eval(
        &page,
        "document.querySelector('.note a').getAttribute('href')",
    )
    .await;
    assert_eq!(native, site.server.url("/press.rss").as_str());
    let first_cards = eval(&page, "document.querySelectorAll('#group-1 .card').length").await;
    assert_eq!(first_cards, 6);
    // Each group shows the selector `[feed.select]` would take.
    let selector = eval(
        &page,
        "document.querySelector('#group-1 code.selector').textContent",
    )
    .await;
    assert!(
        selector.as_str().is_some_and(|s| !s.is_empty()),
        "{selector}"
    );
    let payload = eval(
        &page,
        "document.querySelectorAll('#group-1 .card .title')[3].textContent",
    )
    .await;
    assert!(payload.as_str().unwrap().contains("onerror="), "{payload}");
    screenshot(&page, &shots, "console-preview", 1280).await;
    tab_to(
        &page,
        "document.activeElement.tagName === 'BUTTON' && !!document.activeElement.closest('#group-2')",
        80,
    )
    .await;
    press(&page, "Enter").await;
    wait_until(&page, "!!document.querySelector('#group-2.chosen')").await;
    let block = eval(&page, "document.querySelector('#block').value").await;
    let block = block.as_str().unwrap().to_string();
    assert!(block.starts_with("[[feed]]\n"), "{block}");
    assert!(block.contains(&format!("url = \"{url}\"")), "{block}");
    assert!(block.contains("group = 2"), "{block}");
    let cards = eval(
        &page,
        "[...document.querySelectorAll('#group-2 .card .title')].map(t => t.textContent.trim())",
    )
    .await;
    assert_eq!(cards[0], "Spring fair");
    assert_eq!(eval(&page, "typeof window.__canary").await, "undefined");
    screenshot(&page, &shots, "console-group-2", 1280).await;
    screenshot(&page, &shots, "console-group-2", 390).await;
    assert_eq!(
        eval(
            &page,
            "document.documentElement.scrollWidth <= window.innerWidth"
        )
        .await,
        true,
        "the console scrolls sideways at 390 px"
    );
    let id = eval(&page, "document.querySelector('#id').value").await;
    let id = id.as_str().unwrap().to_string();
    page.find_element("#title")
        .await
        .unwrap()
        .type_str(" events")
        .await
        .unwrap();
    page.find_element("form[action='/console/add'] button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_until(
        &page,
        "location.pathname === '/' && document.readyState === 'complete'",
    )
    .await;
    let row = eval(&page, &format!("!!document.getElementById('feed-{id}')")).await;
    assert_eq!(row, true, "the new feed {id} is on the index");
    screenshot(&page, &shots, "index-after-add", 1280).await;

    // The file kept its comments and now has the block; the new feed runs
    // the events group.
    let text = std::fs::read_to_string(&site.config).unwrap();
    assert!(text.starts_with("# Elmbridge feeds (this comment must survive the console)\n"));
    assert!(text.contains("id = \"town-news\"   # the main list"));
    assert!(text.contains(&format!("id = \"{id}\"")) && text.contains("group = 2"));
    wait_for("the new feed's first run", || {
        site.board.get(&id).is_some_and(|s| s.last_run.is_some())
    })
    .await;
    let page = chrome
        .open(&format!("{}/feeds/{id}.html", site.base), 390, Some(TOKEN))
        .await;
    let titles = eval(
        &page,
        "[...document.querySelectorAll('ol.items h2')].map(h => h.textContent.trim())",
    )
    .await;
    let mut titles: Vec<String> = serde_json::from_value(titles).unwrap();
    titles.sort();
    let mut expected: Vec<String> = EVENTS.iter().map(|e| e.1.to_string()).collect();
    expected.sort();
    assert_eq!(titles, expected, "the new feed publishes the events group");
    screenshot(&page, &shots, "new-feed-page", 390).await;
    eprintln!("screenshots in {}", shots.display());
    drop(chrome);
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn feed_pages_are_written_and_served_with_browser_friendly_types() {
    let site = Site::start("").await;
    let page = site.dir.path().join("out/town-news.html");
    let html = std::fs::read_to_string(&page).expect("town-news.html beside the feed files");
    assert!(html.contains("Council adopts the 2026 budget"));
    assert!(html.contains("http-equiv=\"Content-Security-Policy\""));
    assert!(!html.contains("<script"), "no script on a feed page");
    let c = client();
    let r = c
        .get(format!("{}/feeds/town-news.html", site.base))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "text/html; charset=utf-8");
    let csp = r.headers()["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("default-src 'none'") && !csp.contains("script-src"),
        "{csp}"
    );
    let browser = c
        .get(format!("{}/feeds/town-news.xml", site.base))
        .header(
            "Accept",
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        )
        .send()
        .await
        .unwrap();
    assert_eq!(
        browser.headers()["content-type"],
        "application/xml; charset=utf-8"
    );
    assert_eq!(browser.headers()["vary"], "Accept");
    assert!(
        browser.headers()["link"]
            .to_str()
            .unwrap()
            .contains("<town-news.html>")
    );
    let reader = c
        .get(format!("{}/feeds/town-news.xml", site.base))
        .header("Accept", "application/rss+xml, application/xml;q=0.9")
        .send()
        .await
        .unwrap();
    assert_eq!(
        reader.headers()["content-type"],
        "application/rss+xml; charset=utf-8"
    );
    let opml = c
        .get(format!("{}/feeds/feeds.opml", site.base))
        .send()
        .await
        .unwrap();
    assert_eq!(opml.status(), 200, "the OPML link of a feed page resolves");
    let index = c.get(format!("{}/", site.base)).send().await.unwrap();
    assert!(index.headers().contains_key("content-security-policy"));
    assert!(
        index
            .text()
            .await
            .unwrap()
            .contains("href=\"feeds/town-news.html\"")
    );
    let missing = c
        .get(format!("{}/feeds/nobody.html", site.base))
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404);
    let off = c
        .get(format!("{}/console", site.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        off.status(),
        404,
        "the console is off unless console = true"
    );
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_console_refuses_private_addresses_unless_configured() {
    let site = Site::start("console = true").await;
    let c = client();
    let form = c
        .get(format!("{}/console", site.base))
        .send()
        .await
        .unwrap();
    let csp = form.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        csp.contains("style-src 'sha256-") && !csp.contains("unsafe"),
        "{csp}"
    );
    // Regression: with `no-referrer` Chromium posts the console's own forms
    // with `Origin: null`, which the same-origin check refuses.
    assert_eq!(form.headers()["referrer-policy"], "same-origin");
    let csrf = csrf_of(&form.text().await.unwrap());
    let hits = site.server.hits("/news");
    let url = site.server.url("/news").to_string();
    let r = c
        .post(format!("{}/console", site.base))
        .form_pairs(&[("csrf", csrf.as_str()), ("url", url.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400);
    let body = r.text().await.unwrap();
    assert!(body.contains("refused to fetch"), "{body}");
    assert!(body.contains("allow_private_addresses"), "{body}");
    assert_eq!(
        site.server.hits("/news"),
        hits,
        "no request reached the page"
    );
    let file = c
        .post(format!("{}/console", site.base))
        .form_pairs(&[("csrf", csrf.as_str()), ("url", "file:///etc/passwd")])
        .send()
        .await
        .unwrap();
    assert!(file.text().await.unwrap().contains("Only http and https"));
    site.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn console_posts_need_the_token_the_form_token_and_the_same_origin() {
    let site = Site::start(&format!(
        "console = true\nconsole_write = true\nbearer_token = \"{TOKEN}\"\nallow_private_addresses = true"
    ))
    .await;
    let c = client();
    let before = std::fs::read_to_string(&site.config).unwrap();
    let no_token = c
        .post(format!("{}/console/add", site.base))
        .form_pairs(&[("id", "x"), ("draft", "y")])
        .send()
        .await
        .unwrap();
    assert_eq!(no_token.status(), 401);
    let auth = format!("Bearer {TOKEN}");
    let form = c
        .get(format!("{}/console", site.base))
        .header("Authorization", &auth)
        .send()
        .await
        .unwrap();
    let csrf = csrf_of(&form.text().await.unwrap());
    let url = site.server.url("/news").to_string();
    let wrong_csrf = c
        .post(format!("{}/console", site.base))
        .header("Authorization", &auth)
        .form_pairs(&[("csrf", "0000"), ("url", url.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_csrf.status(), 403);
    let cross = c
        .post(format!("{}/console", site.base))
        .header("Authorization", &auth)
        .header("Origin", "http://evil.example")
        .form_pairs(&[("csrf", csrf.as_str()), ("url", url.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(cross.status(), 403);
    // A proper preview keeps header values out of the page.
    let preview = c
        .post(format!("{}/console", site.base))
        .header("Authorization", &auth)
        .form_pairs(&[
            ("csrf", csrf.as_str()),
            ("url", url.as_str()),
            ("headers", "X-Api-Key: hush-hush-42"),
            ("cookies", "session=cookie-value-77"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(preview.status(), 200);
    assert_eq!(preview.headers()["cache-control"], "no-store");
    let html = preview.text().await.unwrap();
    assert!(!html.contains("hush-hush-42") && !html.contains("cookie-value-77"));
    assert!(html.contains("********"));
    assert_eq!(
        site.server
            .requests()
            .last()
            .and_then(|r| r.header("x-api-key").map(str::to_string))
            .as_deref(),
        Some("hush-hush-42"),
        "the preview sent the header"
    );
    // An id that breaks validation leaves the file as it was.
    let draft = html
        .split("name=\"draft\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let bad = c
        .post(format!("{}/console/add", site.base))
        .header("Authorization", &auth)
        .form_pairs(&[
            ("csrf", csrf.as_str()),
            ("draft", draft),
            ("group", "1"),
            ("id", "town-news"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    assert!(bad.text().await.unwrap().contains("town-news"));
    assert_eq!(std::fs::read_to_string(&site.config).unwrap(), before);
    // Adding the second group works without a browser too: 303 to the
    // index, which lists the feed once the daemon has reloaded.
    let added = c
        .post(format!("{}/console/add", site.base))
        .header("Authorization", &auth)
        .header("Origin", &site.base)
        .form_pairs(&[
            ("csrf", csrf.as_str()),
            ("draft", draft),
            ("group", "2"),
            ("id", "town-events"),
            ("title", "Elmbridge events"),
        ])
        .send()
        .await
        .unwrap();
    let status = added.status();
    let location = added.headers().get("location").cloned();
    assert_eq!(status, 303, "{}", added.text().await.unwrap_or_default());
    assert_eq!(location.unwrap(), "/#feed-town-events");
    assert!(
        site.board.get("town-events").is_some(),
        "reloaded before the answer"
    );
    let text = std::fs::read_to_string(&site.config).unwrap();
    assert!(
        text.starts_with(&before),
        "the existing text is kept as it was:\n{text}"
    );
    assert!(
        text.contains("group = 2") && text.contains("hush-hush-42"),
        "{text}"
    );
    site.stop().await;
}

#[test]
fn check_refuses_console_write_without_a_token_or_console() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("feeds.toml");
    std::fs::write(
        &path,
        "console_write = true\n[[feed]]\nid = \"a\"\nurl = \"https://example.org/\"\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["check", "--config"])
        .arg(&path)
        .env_remove("FEEDMINE_TOKEN")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("console_write") && err.contains("bearer_token"),
        "{err}"
    );
    assert!(err.contains("needs `console = true`"), "{err}");
    std::fs::write(
        &path,
        "[[feed]]\nid = \"a\"\nurl = \"https://example.org/\"\ngroup = 0\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_feedmine"))
        .args(["check", "--config"])
        .arg(&path)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("group") && err.contains("must be 1 or more"),
        "{err}"
    );
}
