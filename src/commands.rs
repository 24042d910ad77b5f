//! The subcommands' work, behind the thin CLI in `main.rs`: each function
//! takes parsed arguments, writes its report to a `Write`, and returns a
//! typed error; `main` only parses arguments, prints errors and picks the
//! exit code.

use std::io::Write;
use std::path::Path;

use chrono::{Offset, Utc};
use url::Url;

use crate::eval::lists::{self, EvalError, ListRun, ListsSummary, PredictedRecord};
use crate::extract::dates::DateContext;
use crate::extract::patterns::MiningParams;
use crate::fetch::decode;
use crate::pipeline::analyze_list;

/// Date context for pages without a configured time zone: now, in UTC.
pub fn default_date_context() -> DateContext {
    DateContext {
        now: Utc::now(),
        offset: Utc.fix(),
    }
}

/// `feedmine check`'s warnings about a config that loads but will not do
/// what it says: a feed with bodies whose list page is on a private or
/// loopback address while `allow_private_addresses` is off (its article
/// links, on the same host, will all be refused). Names are resolved with
/// the system resolver; a name that does not resolve gives no warning.
pub fn config_warnings(cfg: &crate::config::Config) -> Vec<String> {
    use std::net::ToSocketAddrs;
    let mut out = Vec::new();
    for feed in &cfg.feeds {
        if !feed.bodies.enabled || feed.allow_private_addresses {
            continue;
        }
        let Some(host) = feed.url.host() else {
            continue;
        };
        let ips: Vec<std::net::IpAddr> = match host {
            url::Host::Ipv4(ip) => vec![ip.into()],
            url::Host::Ipv6(ip) => vec![ip.into()],
            url::Host::Domain(name) => (name, feed.url.port_or_known_default().unwrap_or(80))
                .to_socket_addrs()
                .map(|a| a.map(|s| s.ip()).collect())
                .unwrap_or_default(),
        };
        if let Some(class) = ips
            .iter()
            .find_map(|ip| crate::fetch::netguard::classify(*ip))
        {
            out.push(format!(
                "feed {:?} (line {}): its list page {} is on a {class}, and                  `allow_private_addresses` is off: every article link will be refused                  (set `allow_private_addresses = true` on this feed if the site is yours)",
                feed.id, feed.line, feed.url
            ));
        }
    }
    out
}

/// `feedmine eval lists DIR`: the record extractor over labelled list pages.
pub fn eval_lists(
    dir: &Path,
    params: &MiningParams,
    out: &mut dyn Write,
) -> Result<ListsSummary, EvalError> {
    let dates = default_date_context();
    let mut extract = |bytes: &[u8], base: &Url| -> Result<ListRun, String> {
        let decoded = decode::decode(bytes, None, None).map_err(|e| e.to_string())?;
        let page = analyze_list(&decoded.text, base, params, &dates);
        Ok(ListRun {
            records: page
                .items
                .iter()
                .map(|it| PredictedRecord {
                    title: it.title.clone(),
                    link: it.link.as_ref().map(|l| l.to_string()),
                    date: it.date,
                })
                .collect(),
            parse_ms: page.timings.parse.as_secs_f64() * 1e3,
            total_ms: page.timings.total().as_secs_f64() * 1e3,
        })
    };
    lists::run(dir, out, &mut extract)
}

/// What `feedmine preview` shows, also as JSON.
#[derive(Debug, serde::Serialize)]
pub struct Preview {
    pub url: String,
    pub title: Option<String>,
    /// When the target itself is a feed: "RSS 2.0, 20 items, summaries
    /// only" (its items are the records; there are no groups).
    pub source_feed: Option<String>,
    /// Feeds the page advertises (and, with `--discover`, feeds found at
    /// the usual paths).
    pub feeds: Vec<PreviewFeed>,
    pub records: Vec<PreviewRecord>,
    pub groups: Vec<PreviewGroup>,
    pub patterns: Vec<PreviewPattern>,
    pub stats: PreviewStats,
}

/// A feed the page offers.
#[derive(Debug, serde::Serialize)]
pub struct PreviewFeed {
    pub url: String,
    /// `RSS`, `Atom` or `JSON Feed`, as advertised.
    pub kind: &'static str,
    /// "RSS 2.0, 20 items, summaries only" once fetched, else why not.
    pub description: String,
    /// Advertised by the page (`false`: found at a usual path).
    pub advertised: bool,
}

#[derive(Debug, serde::Serialize)]
pub struct PreviewRecord {
    pub title: String,
    pub link: Option<String>,
    /// RFC 3339, or null.
    pub date: Option<String>,
    pub summary: String,
    pub image: Option<String>,
    pub author: Option<String>,
    pub categories: Vec<String>,
}

#[derive(Debug, serde::Serialize)]
pub struct PreviewGroup {
    pub selector: String,
    pub records: usize,
    pub coverage: f64,
    pub score: f64,
    /// `null` for kept groups, else the rule that dropped it.
    pub dropped: Option<&'static str>,
    pub winner: bool,
}

#[derive(Debug, serde::Serialize)]
pub struct PreviewPattern {
    pub tokens: String,
    pub length: u32,
    /// Occurrences in the suffix tree.
    pub found: usize,
    /// Instances left after the rules.
    pub instances: usize,
    pub coverage: f64,
    pub dropped: Option<&'static str>,
}

#[derive(Debug, serde::Serialize)]
pub struct PreviewStats {
    pub tokens: usize,
    pub intervals: usize,
    pub dropped_rule1: usize,
    pub dropped_rule2: usize,
    pub parse_ms: f64,
    pub mine_ms: f64,
    pub items_ms: f64,
}

/// How many groups and patterns a preview lists.
pub const PREVIEW_GROUPS: usize = 10;
pub const PREVIEW_PATTERNS: usize = 15;

/// Build the preview of an analysed page.
pub fn preview_of(page: &crate::pipeline::ListPage, url: &Url) -> Preview {
    let winner = page.detection.winner().map(|g| g.selector.clone());
    Preview {
        url: url.to_string(),
        title: page.doc.title.clone(),
        source_feed: None,
        feeds: Vec::new(),
        records: page.items.iter().map(preview_record).collect(),
        groups: page
            .detection
            .groups
            .iter()
            .take(PREVIEW_GROUPS)
            .enumerate()
            .map(|(i, g)| PreviewGroup {
                selector: g.selector.clone(),
                records: g.records.len(),
                coverage: g.coverage,
                score: g.score,
                dropped: g.dropped.map(|d| d.describe()),
                winner: i == 0 && winner.is_some(),
            })
            .collect(),
        patterns: page
            .mining
            .candidates
            .iter()
            .take(PREVIEW_PATTERNS)
            .map(|c| PreviewPattern {
                tokens: page.seq.render(c.tokens(&page.seq)),
                length: c.len,
                found: c.found,
                instances: c.instances.len(),
                coverage: c.coverage,
                dropped: c.dropped.map(|d| d.describe()),
            })
            .collect(),
        stats: PreviewStats {
            tokens: page.seq.len(),
            intervals: page.mining.intervals,
            dropped_rule1: page.mining.dropped_rule1,
            dropped_rule2: page.mining.dropped_rule2,
            parse_ms: page.timings.parse.as_secs_f64() * 1e3,
            mine_ms: page.timings.mine.as_secs_f64() * 1e3,
            items_ms: page.timings.items.as_secs_f64() * 1e3,
        },
    }
}

fn preview_record(it: &crate::extract::items::Item) -> PreviewRecord {
    PreviewRecord {
        title: it.title.clone(),
        link: it.link.as_ref().map(|l| l.to_string()),
        date: it.date.map(|d| d.to_rfc3339()),
        summary: it.summary.clone(),
        image: it.image.as_ref().map(|l| l.to_string()),
        author: it.author.clone(),
        categories: it.categories.clone(),
    }
}

/// The preview of a target that is itself a feed.
pub fn preview_of_feed(feed: &crate::extract::feedsource::SourceFeed, url: &Url) -> Preview {
    Preview {
        url: url.to_string(),
        title: feed.title.clone(),
        source_feed: Some(feed.describe()),
        feeds: Vec::new(),
        records: feed.items.iter().map(preview_record).collect(),
        groups: Vec::new(),
        patterns: Vec::new(),
        stats: PreviewStats {
            tokens: 0,
            intervals: 0,
            dropped_rule1: 0,
            dropped_rule2: 0,
            parse_ms: 0.0,
            mine_ms: 0.0,
            items_ms: 0.0,
        },
    }
}

fn write_feeds(p: &Preview, out: &mut dyn Write) -> std::io::Result<()> {
    if let Some(d) = &p.source_feed {
        writeln!(
            out,
            "feed      this is a feed: {d}; use it with source = \"feed\" (bodies are added from the linked pages)"
        )?;
    }
    for f in &p.feeds {
        let how = if f.advertised {
            "this page advertises a feed"
        } else {
            "a feed at a usual path"
        };
        writeln!(out, "feed      {how}: {} ({})", f.url, f.description)?;
    }
    Ok(())
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n).collect::<String>())
    }
}

/// Human-readable preview.
pub fn write_preview(p: &Preview, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "page      {}", p.url)?;
    writeln!(out, "title     {}", p.title.as_deref().unwrap_or("(none)"))?;
    write_feeds(p, out)?;
    writeln!(
        out,
        "sequence  {} tokens, {} repeated patterns ({} below min instances, {} below min length)",
        p.stats.tokens, p.stats.intervals, p.stats.dropped_rule1, p.stats.dropped_rule2
    )?;
    writeln!(
        out,
        "time      parse {:.2} ms, mine {:.2} ms, items {:.2} ms",
        p.stats.parse_ms, p.stats.mine_ms, p.stats.items_ms
    )?;
    writeln!(out, "\nrecord groups (ranked)")?;
    writeln!(out, "    # records coverage    score  where / verdict")?;
    for (i, g) in p.groups.iter().enumerate() {
        let verdict = match (g.winner, g.dropped) {
            (true, _) => "WINNER".to_string(),
            (false, Some(d)) => format!("dropped: {d}"),
            (false, None) => "lost the ranking".to_string(),
        };
        writeln!(
            out,
            "  {:>3} {:>7} {:>8.3} {:>8.4}  {}  [{}]",
            i + 1,
            g.records,
            g.coverage,
            g.score,
            clip(&g.selector, 70),
            verdict
        )?;
    }
    writeln!(out, "\ncandidate patterns (by coverage)")?;
    writeln!(out, "   len found instances coverage  tokens / verdict")?;
    for c in &p.patterns {
        writeln!(
            out,
            "  {:>4} {:>5} {:>9} {:>8.3}  {}  [{}]",
            c.length,
            c.found,
            c.instances,
            c.coverage,
            clip(&c.tokens, 70),
            c.dropped.unwrap_or("kept")
        )?;
    }
    writeln!(out, "\nrecords ({})", p.records.len())?;
    for (i, r) in p.records.iter().enumerate() {
        writeln!(out, "  {:>3}. {}", i + 1, clip(&r.title, 100))?;
        writeln!(out, "       link:  {}", r.link.as_deref().unwrap_or("-"))?;
        writeln!(out, "       date:  {}", r.date.as_deref().unwrap_or("-"))?;
        if !r.summary.is_empty() {
            writeln!(out, "       text:  {}", clip(&r.summary, 100))?;
        }
        if let Some(img) = &r.image {
            writeln!(out, "       image: {img}")?;
        }
        if let Some(author) = &r.author {
            writeln!(out, "       by:    {author}")?;
        }
        if !r.categories.is_empty() {
            writeln!(out, "       tags:  {}", r.categories.join(", "))?;
        }
    }
    if p.records.is_empty() {
        writeln!(out, "\n{}", no_records_hint(p))?;
    }
    Ok(())
}

/// One line on why a page gave no records, and what to try.
pub fn no_records_hint(p: &Preview) -> String {
    if p.stats.tokens < 20 {
        format!(
            "no records: the page has almost no markup ({} tokens); it is probably built by \
             JavaScript or is an error page — open it in a browser and check what the server sends",
            p.stats.tokens
        )
    } else if p.groups.is_empty() {
        "no records: nothing on the page repeats at least `min_instances` times; try \
         `min_instances = 2` or the page that lists more items"
            .to_string()
    } else {
        format!(
            "no records: {} candidate groups, none passed the rules (see `dropped:` above); try a \
             lower `min_coverage` or `min_record_len`, or `--mode paper`",
            p.groups.len()
        )
    }
}

/// The identity lines `preview --feed` adds: parameters the feed's links
/// ignore, and those learnt as volatile (from the state file).
pub fn write_identity(learned: &[String], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "\nidentity  link parameters ignored: the defaults (session ids, utm_*, ...), the \
         feed's ignore_params, and learnt as volatile: {}",
        if learned.is_empty() {
            "none yet".to_string()
        } else {
            learned.join(", ")
        }
    )
}
