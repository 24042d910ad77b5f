//! Secrets out of URLs before they are shown: a URL's password and the
//! values of query parameters that look like credentials become `***`.
//! Used for every URL that reaches logs, `/health`, the index page, the
//! run history and error messages.
//!
//! Invariant: redaction only removes; the scheme, host, path and the other
//! parameters stay, so a redacted URL still says which page it was.

use std::sync::LazyLock;

use url::Url;

/// What replaces a secret.
pub const MASK: &str = "***";

/// Query parameter names (lower case) whose values are credentials. A name
/// matches when it equals one of these or ends with `_` / `-` plus one.
const SECRET_PARAMS: &[&str] = &[
    "token",
    "key",
    "apikey",
    "api_key",
    "access_token",
    "auth",
    "secret",
    "password",
    "passwd",
    "pass",
    "pwd",
    "signature",
    "sig",
    "session",
    "sessionid",
    "sid",
    "code",
    "credential",
];

fn is_secret_param(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    SECRET_PARAMS.iter().any(|s| {
        name == *s
            || name
                .strip_suffix(s)
                .is_some_and(|head| head.ends_with('_') || head.ends_with('-'))
    })
}

/// `url` with its password and secret query values masked.
pub fn redact_url(url: &Url) -> String {
    let mut u = url.clone();
    if u.password().is_some() {
        let _ = u.set_password(Some(MASK));
    }
    if u.query().is_some() {
        let pairs: Vec<(String, String)> = u
            .query_pairs()
            .map(|(k, v)| {
                let v = if is_secret_param(&k) {
                    MASK.to_string()
                } else {
                    v.into_owned()
                };
                (k.into_owned(), v)
            })
            .collect();
        u.query_pairs_mut().clear().extend_pairs(pairs);
    }
    u.to_string()
}

/// `text` with every http(s) URL in it redacted.
pub fn redact_text(text: &str) -> String {
    static URL: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r#"https?://[^\s"'<>]+"#).unwrap_or_else(|_| unreachable!())
    });
    if !text.contains("://") {
        return text.to_string();
    }
    URL.replace_all(text, |c: &regex::Captures<'_>| {
        let raw = &c[0];
        // Keep trailing punctuation of the sentence out of the URL.
        let trimmed = raw.trim_end_matches(['.', ',', ';', ')', ':']);
        match Url::parse(trimmed) {
            Ok(u) => format!("{}{}", redact_url(&u), &raw[trimmed.len()..]),
            Err(_) => raw.to_string(),
        }
    })
    .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_and_secret_parameters_are_masked() {
        let u = Url::parse("https://bob:hunter2@api.example.com/v1/list?apikey=AKIA123&page=2&access_token=x&X-Api-Key=k")
            .unwrap();
        let r = redact_url(&u);
        assert!(
            !r.contains("hunter2") && !r.contains("AKIA123") && !r.contains("=x&"),
            "{r}"
        );
        assert!(r.contains("bob:***@api.example.com/v1/list"), "{r}");
        assert!(r.contains("page=2"), "{r}");
        assert!(r.contains("X-Api-Key=***"), "{r}");
        let plain = Url::parse("https://news.example.com/local/?page=3&sort=new").unwrap();
        assert_eq!(redact_url(&plain), plain.to_string());
    }

    #[test]
    fn urls_inside_messages_are_masked() {
        let msg = "cannot fetch the list page: https://u:p4ss@intranet.example/feed?token=abc123. (status 500)";
        let r = redact_text(msg);
        assert!(!r.contains("p4ss") && !r.contains("abc123"), "{r}");
        assert!(r.ends_with("?token=***. (status 500)"), "{r}");
        assert_eq!(redact_text("no url here"), "no url here");
    }
}
