//! Debian's Chromium (`/usr/bin/chromium`, never downloaded) driven through
//! the DevTools protocol with `chromiumoxide`, for the browser tests.
//!
//! Use: `let Some(browser) = TestBrowser::launch().await else { return };`
//! — without Chromium the test prints one line saying it was skipped.
//! The browser runs headless with a throw-away profile, no network but
//! what the test pages name (all on 127.0.0.1), and is killed on drop.

#![allow(dead_code)] // Each test crate uses a different subset.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chromiumoxide::Page;
use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::emulation::SetDeviceMetricsOverrideParams;
use chromiumoxide::cdp::browser_protocol::network::{Headers, SetExtraHttpHeadersParams};
use chromiumoxide::page::ScreenshotParams;
use futures_util::StreamExt;

/// Where Debian's `chromium` package puts the browser (`FEEDMINE_CHROMIUM`
/// overrides it).
pub fn chromium_path() -> Option<PathBuf> {
    let path = std::env::var_os("FEEDMINE_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    path.is_file().then_some(path)
}

/// A running headless Chromium.
pub struct TestBrowser {
    pub browser: Browser,
    handler: tokio::task::JoinHandle<()>,
    _profile: tempfile::TempDir,
}

impl TestBrowser {
    /// Start Chromium, or print why not and return `None`.
    pub async fn launch() -> Option<TestBrowser> {
        let Some(path) = chromium_path() else {
            eprintln!(
                "skipped: Chromium not found at /usr/bin/chromium or $FEEDMINE_CHROMIUM (apt-get install chromium)"
            );
            return None;
        };
        let profile = tempfile::tempdir().expect("temp profile dir");
        let config = BrowserConfig::builder()
            .chrome_executable(path)
            .user_data_dir(profile.path())
            .no_sandbox()
            .window_size(1280, 900)
            .viewport(None)
            .args([
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--metrics-recording-only",
                "--no-proxy-server",
            ])
            .launch_timeout(Duration::from_secs(30))
            .request_timeout(Duration::from_secs(30))
            .build()
            .expect("browser config");
        let (browser, mut handler) = Browser::launch(config).await.expect("launch Chromium");
        let handler = tokio::spawn(async move { while handler.next().await.is_some() {} });
        Some(TestBrowser {
            browser,
            handler,
            _profile: profile,
        })
    }

    /// A new tab at `url`, `width` CSS pixels wide, sending `Authorization:
    /// Bearer <token>` when given, loaded.
    pub async fn open(&self, url: &str, width: i64, token: Option<&str>) -> Page {
        let page = self.browser.new_page("about:blank").await.expect("new tab");
        set_width(&page, width).await;
        if let Some(token) = token {
            let headers = serde_json::json!({ "Authorization": format!("Bearer {token}") });
            page.execute(SetExtraHttpHeadersParams::new(Headers::new(headers)))
                .await
                .expect("set headers");
        }
        page.goto(url).await.expect("navigate");
        page.wait_for_navigation().await.expect("load");
        page
    }
}

impl Drop for TestBrowser {
    fn drop(&mut self) {
        self.handler.abort();
    }
}

/// Emulate a viewport `width` CSS pixels wide (phones: 390).
pub async fn set_width(page: &Page, width: i64) {
    let mobile = width < 600;
    page.execute(SetDeviceMetricsOverrideParams::new(
        width,
        if mobile { 844 } else { 900 },
        if mobile { 3.0 } else { 1.0 },
        mobile,
    ))
    .await
    .expect("set the viewport");
}

/// A full-page PNG of `page` at `width` into `dir/name-<width>.png`.
pub async fn screenshot(page: &Page, dir: &Path, name: &str, width: i64) -> PathBuf {
    set_width(page, width).await;
    std::fs::create_dir_all(dir).expect("screenshot dir");
    let path = dir.join(format!("{name}-{width}.png"));
    let png = page
        .screenshot(ScreenshotParams::builder().full_page(true).build())
        .await
        .expect("screenshot");
    std::fs::write(&path, png).expect("write screenshot");
    path
}

/// Evaluate `js` and return its value as JSON.
pub async fn eval(page: &Page, js: &str) -> serde_json::Value {
    page.evaluate(js)
        .await
        .unwrap_or_else(|e| panic!("evaluate {js}: {e}"))
        .into_value()
        .unwrap_or(serde_json::Value::Null)
}

/// Wait until `js` evaluates to true (up to 10 s), e.g. after a click
/// that navigates.
pub async fn wait_until(page: &Page, js: &str) {
    for _ in 0..100 {
        if let Ok(r) = page.evaluate(js).await
            && r.into_value::<bool>().unwrap_or(false)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let url = page.url().await.ok().flatten().unwrap_or_default();
    let text = eval(
        page,
        "document.body ? document.body.innerText.slice(0, 2000) : ''",
    )
    .await;
    panic!(
        "timed out waiting for {js} on {url}; the page says:\n{}",
        text.as_str().unwrap_or("")
    );
}

/// Press Tab (at most `max` times) until `js` is true of the focused
/// element: a keyboard user can reach it.
pub async fn tab_to(page: &Page, js: &str, max: usize) {
    let body = page.find_element("body").await.expect("a body");
    for _ in 0..max {
        body.press_key("Tab").await.expect("press Tab");
        if eval(page, js).await == serde_json::Value::Bool(true) {
            return;
        }
    }
    panic!("{js} not reached with {max} Tab presses");
}

/// Press `key` ("Enter", "Tab", …) on whatever has the focus.
pub async fn press(page: &Page, key: &str) {
    let body = page.find_element("body").await.expect("a body");
    body.press_key(key).await.expect("press a key");
}

/// Type `text` into whatever has the focus.
pub async fn type_text(page: &Page, text: &str) {
    let body = page.find_element("body").await.expect("a body");
    body.type_str(text).await.expect("type");
}
