//! Does a static page look like an application shell, a page whose
//! content a script builds in the browser?
//!
//! Signals, all required: an almost empty body (little visible text), a
//! mount point (a root element such as `div#root`, `#app`, `#__next`,
//! `#__nuxt`, `[data-reactroot]`, `[ng-version]`, `<app-root>`, or a
//! `<noscript>` asking for JavaScript), and scripts that outweigh the text
//! (external scripts, or more inline script than text).
//!
//! Pure; used only to explain an empty result (`pipeline::ListPage::hint`).

use std::fmt;

use crate::extract::dom::{Document, NodeData};
use crate::extract::embedded::ScriptStats;

/// Pages with less visible text than this (bytes) have an almost empty body.
pub const MAX_SHELL_TEXT: usize = 600;

/// Ids of the elements frameworks mount into.
const ROOT_IDS: &[&str] = &[
    "root",
    "app",
    "__next",
    "__nuxt",
    "__layout",
    "svelte",
    "app-root",
    "main-app",
    "react-root",
    "application",
    "q-app",
    "___gatsby",
    "ember-app",
    "container-root",
];

/// Why a page looks like an app shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppShell {
    /// Visible text bytes.
    pub text: usize,
    /// The mount point found, e.g. `div#root`, or `noscript` when only a
    /// "please enable JavaScript" notice was found.
    pub mount: String,
    pub scripts: ScriptStats,
}

impl fmt::Display for AppShell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "almost empty body ({} bytes of text), mount point {}, {} external and {} inline scripts ({} KiB inline)",
            self.text,
            self.mount,
            self.scripts.external,
            self.scripts.inline,
            self.scripts.inline_bytes / 1024
        )
    }
}

/// `Some` when the page looks like an app shell.
pub fn detect(
    doc: &Document,
    visible_text: usize,
    scripts: &ScriptStats,
    html: &str,
) -> Option<AppShell> {
    if visible_text > MAX_SHELL_TEXT {
        return None;
    }
    let script_heavy = scripts.external > 0 || scripts.inline_bytes > visible_text.max(200);
    if !script_heavy {
        return None;
    }
    let mount =
        mount_point(doc).or_else(|| noscript_notice(html).then(|| "noscript".to_string()))?;
    Some(AppShell {
        text: visible_text,
        mount,
        scripts: *scripts,
    })
}

/// The first framework mount point in the body, as `tag#id` or
/// `tag[attr]`.
fn mount_point(doc: &Document) -> Option<String> {
    doc.nodes.iter().find_map(|n| {
        let NodeData::Element(e) = &n.data else {
            return None;
        };
        if let Some(id) = e.attr("id").map(str::trim)
            && ROOT_IDS.iter().any(|r| r.eq_ignore_ascii_case(id))
        {
            return Some(format!("{}#{id}", e.name));
        }
        for attr in [
            "data-reactroot",
            "ng-version",
            "ng-app",
            "data-v-app",
            "data-server-rendered",
        ] {
            if e.attr(attr).is_some() {
                return Some(format!("{}[{attr}]", e.name));
            }
        }
        matches!(e.name.as_str(), "app-root" | "my-app" | "ion-app").then(|| e.name.to_string())
    })
}

/// A `<noscript>` telling the reader to turn JavaScript on.
fn noscript_notice(html: &str) -> bool {
    let lower = html.get(..html.len().min(2 * 1024 * 1024)).unwrap_or("");
    let lower = lower.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find("<noscript") {
        let start = from + i;
        let end = lower[start..]
            .find("</noscript")
            .map_or(lower.len(), |e| start + e);
        if lower[start..end].contains("javascript") {
            return true;
        }
        from = end.max(start + 1);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::dom::parse;

    fn stats(external: usize, inline_bytes: usize) -> ScriptStats {
        ScriptStats {
            inline: 1,
            external,
            inline_bytes,
            data_sources: 0,
        }
    }

    #[test]
    fn react_shell_is_recognised_and_a_short_page_is_not() {
        let shell = r#"<html><body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script src="/static/js/main.js"></script></body></html>"#;
        let doc = parse(shell);
        let got = detect(&doc, 0, &stats(1, 0), shell).unwrap();
        assert_eq!(got.mount, "div#root");
        // A short static page with a root div but no scripts is just short.
        let short =
            r#"<html><body><div id="app"><p>Closed for the holidays.</p></div></body></html>"#;
        assert_eq!(detect(&parse(short), 25, &stats(0, 0), short), None);
        // Plenty of text: not a shell, whatever the scripts.
        assert_eq!(detect(&doc, 5_000, &stats(3, 100_000), shell), None);
        // No mount point, but a noscript notice.
        let bare = r#"<body><noscript>Please enable JavaScript.</noscript><script src="/a.js"></script></body>"#;
        assert_eq!(
            detect(&parse(bare), 0, &stats(1, 0), bare).unwrap().mount,
            "noscript"
        );
    }
}
