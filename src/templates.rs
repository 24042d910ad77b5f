//! Item HTML from a template: how an item's image, summary and extracted
//! body become the `content:encoded` of the feed. The default template is
//! `templates/item.html`, compiled in; `item_template` in `feeds.toml`
//! replaces it with the user's own file.
//!
//! Invariants: values are HTML-escaped by the template engine except
//! `body`, which `bodies` has already sanitized (ammonia); a template is
//! checked when the config is loaded, so a broken one fails `check`, never a
//! run.

use minijinja::{Environment, context};

use crate::items::Item;

/// The bundled item template.
pub const DEFAULT_ITEM_TEMPLATE: &str = include_str!("../templates/item.html");

#[derive(Debug, thiserror::Error)]
#[error("item template: {0}")]
pub struct TemplateError(#[from] minijinja::Error);

/// A compiled item template.
#[derive(Debug, Clone)]
pub struct ItemTemplate {
    env: Environment<'static>,
}

impl Default for ItemTemplate {
    fn default() -> Self {
        // The bundled template is tested to compile.
        ItemTemplate::new(DEFAULT_ITEM_TEMPLATE.to_string()).unwrap_or_else(|_| ItemTemplate {
            env: Environment::new(),
        })
    }
}

impl ItemTemplate {
    /// Compile a template's source.
    pub fn new(source: String) -> Result<Self, TemplateError> {
        let mut env = Environment::new();
        env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
        // Escape what HTML needs and no more: minijinja's default also
        // escapes `/`, which makes every URL unreadable in the feed source.
        env.set_formatter(|out, _state, value| {
            use std::fmt::Write as _;
            let text = value.to_string();
            if value.is_safe() || value.is_none() || value.is_undefined() {
                if !(value.is_none() || value.is_undefined()) {
                    out.write_str(&text)?;
                }
                return Ok(());
            }
            for c in text.chars() {
                match c {
                    '&' => out.write_str("&amp;")?,
                    '<' => out.write_str("&lt;")?,
                    '>' => out.write_str("&gt;")?,
                    '"' => out.write_str("&quot;")?,
                    '\'' => out.write_str("&#39;")?,
                    c => out.write_char(c)?,
                }
            }
            Ok(())
        });
        env.add_template_owned("item", source)?;
        Ok(ItemTemplate { env })
    }

    /// The item's HTML, or `None` when it has neither body nor image (the
    /// summary alone already is the description).
    pub fn render(&self, item: &Item) -> Result<Option<String>, TemplateError> {
        if item.body_html.is_none() && item.image.is_none() {
            return Ok(None);
        }
        let html = self.env.get_template("item")?.render(context! {
            title => &item.title,
            link => item.link.as_ref().map(|u| u.as_str()),
            summary => &item.summary,
            image => item.image.as_ref().map(|u| u.as_str()),
            body => item.body_html.as_deref(),
            date => item.date.map(|d| d.to_rfc3339()),
        })?;
        Ok(Some(html.trim().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;

    fn item() -> Item {
        Item {
            title: "Ferry <times> change".into(),
            link: Some(Url::parse("https://news.example.com/a?x=1&y=2").unwrap()),
            guid: "g".into(),
            date: None,
            summary: "Late sailings <b>cut</b>".into(),
            image: None,
            body_html: None,
        }
    }

    #[test]
    fn body_and_image_are_combined_and_text_is_escaped() {
        let t = ItemTemplate::default();
        assert_eq!(t.render(&item()).unwrap(), None);
        let mut it = item();
        it.image = Some(Url::parse("https://news.example.com/i.jpg?a=1&b=2").unwrap());
        let html = t.render(&it).unwrap().unwrap();
        assert!(
            html.contains(r#"<img src="https://news.example.com/i.jpg?a=1&amp;b=2""#),
            "{html}"
        );
        assert!(
            html.contains("Late sailings &lt;b&gt;cut&lt;/b&gt;"),
            "{html}"
        );
        it.body_html = Some("<p>The <em>full</em> story.</p>".into());
        let html = t.render(&it).unwrap().unwrap();
        assert!(html.contains("<p>The <em>full</em> story.</p>"), "{html}");
        assert!(!html.contains("Late sailings"), "{html}");
    }

    #[test]
    fn user_template_replaces_the_default_and_errors_are_clear() {
        let t = ItemTemplate::new("<div>{{ title }}</div>{{ body | safe }}".into()).unwrap();
        let mut it = item();
        it.body_html = Some("<p>x</p>".into());
        assert_eq!(
            t.render(&it).unwrap().unwrap(),
            "<div>Ferry &lt;times&gt; change</div><p>x</p>"
        );
        let err = ItemTemplate::new("{% if %}".into()).unwrap_err();
        assert!(err.to_string().starts_with("item template:"), "{err}");
    }
}
