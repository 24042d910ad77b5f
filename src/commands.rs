//! The subcommands' work, behind the thin CLI in `main.rs`: each function
//! takes parsed arguments, writes its report to a `Write`, and returns a
//! typed error; `main` only parses arguments, prints errors and picks the
//! exit code.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use chrono::{Offset, Utc};
use url::Url;

use crate::eval::lists::{self, EvalError, ListRun, ListsSummary, PredictedRecord};
use crate::extract::dates::DateContext;
use crate::extract::patterns::MiningParams;
use crate::extract::selectors::{self, CssDoc, ListChoice};
use crate::fetch::decode;
use crate::pipeline::{Timings, analyze_list};

/// Date context for pages without a configured time zone: now, in UTC.
pub fn default_date_context() -> DateContext {
    DateContext {
        now: Utc::now(),
        offset: Utc.fix(),
        day_first: false,
        dash_month_first: false,
        year_near: None,
        section_dated: false,
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

/// How `eval lists --pinned` went: selectors generated for the winners and
/// whether they re-select the same records.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PinnedStats {
    /// Pages with a winning group.
    pub winners: usize,
    /// Winners a verified selector was generated for.
    pub selectors: usize,
    /// Pages whose selector, applied back, gives the same records (each
    /// starting at the same element).
    pub same_records: usize,
    /// ... and each made of the same elements (detection may let a record
    /// absorb a trailing pagination element or separator; a selector's
    /// record does not).
    pub same_elements: usize,
    /// Pages whose items through the selectors equal detection's items.
    pub same_items: usize,
}

/// Detect, pin the winner, re-extract through the selectors: the page as a
/// pinned feed would read it, with what matched.
fn pinned_page(
    text: &str,
    base: &Url,
    params: &MiningParams,
    dates: &DateContext,
    stats: &mut PinnedStats,
) -> crate::pipeline::ListPage {
    let page = analyze_list(text, base, params, dates);
    let Some(winner) = page.detection.winner() else {
        return page;
    };
    stats.winners += 1;
    let Ok(spec) = crate::pin::spec_for_group(&page, 1, dates) else {
        return page;
    };
    stats.selectors += 1;
    let choice = ListChoice::Select {
        spec,
        fallback_auto: false,
    };
    let again = crate::pipeline::analyze_list_with(text, base, params, dates, &choice);
    let css = CssDoc::new(&again.doc);
    if let Some(sel) = choice_records(&again, &css, &choice) {
        let starts =
            |rs: &[crate::extract::records::Record]| rs.iter().map(|r| r.start).collect::<Vec<_>>();
        stats.same_records += usize::from(starts(&sel) == starts(&winner.records));
        stats.same_elements +=
            usize::from(selectors::same_records(&again.doc, &sel, &winner.records));
    }
    stats.same_items += usize::from(again.items == page.items);
    again
}

fn choice_records(
    page: &crate::pipeline::ListPage,
    css: &CssDoc<'_>,
    choice: &ListChoice,
) -> Option<Vec<crate::extract::records::Record>> {
    let ListChoice::Select { spec, .. } = choice else {
        return None;
    };
    let compiled = spec.compile().ok()?;
    let sel = selectors::select_records(&page.doc, css, &compiled.records, compiled.siblings);
    Some(sel.records)
}

/// Analyses of each page whose timings `eval lists` reports, by their
/// median: one analysis of a page that takes half a millisecond is mostly
/// the noise of the machine (total/parse moved by ±0.1 between two runs of
/// the same binary). The records are the first analysis's.
pub const EVAL_TIMING_RUNS: usize = 5;

/// Medians of parse, total and embedded time over `first` and
/// `EVAL_TIMING_RUNS - 1` more timings from `again`, each taken apart.
fn median_timings(first: Timings, mut again: impl FnMut() -> Timings) -> [Duration; 3] {
    let mut runs = vec![first];
    runs.extend((1..EVAL_TIMING_RUNS).map(|_| again()));
    [
        |t: &Timings| t.parse,
        Timings::total,
        |t: &Timings| t.embedded,
    ]
    .map(|stage| {
        let mut v: Vec<Duration> = runs.iter().map(stage).collect();
        v.sort();
        v[v.len() / 2]
    })
}

/// `feedmine eval lists DIR`: the record extractor over labelled list pages.
pub fn eval_lists(
    dir: &Path,
    params: &MiningParams,
    out: &mut dyn Write,
) -> Result<ListsSummary, EvalError> {
    eval_lists_with(dir, params, false, out).map(|(s, _)| s)
}

/// [`eval_lists`]; with `pinned`, every page goes through detect → pin →
/// re-extract through the selectors, and the pinning figures are returned.
pub fn eval_lists_with(
    dir: &Path,
    params: &MiningParams,
    pinned: bool,
    out: &mut dyn Write,
) -> Result<(ListsSummary, PinnedStats), EvalError> {
    let dates = default_date_context();
    let mut stats = PinnedStats::default();
    let mut extract = |bytes: &[u8], base: &Url| -> Result<ListRun, String> {
        let decoded = decode::decode(bytes, None, None).map_err(|e| e.to_string())?;
        let (page, [parse, total, embedded]) = if pinned {
            let page = pinned_page(&decoded.text, base, params, &dates, &mut stats);
            let t = page.timings;
            (page, [t.parse, t.total(), t.embedded])
        } else {
            let page = analyze_list(&decoded.text, base, params, &dates);
            let timings = median_timings(page.timings, || {
                analyze_list(&decoded.text, base, params, &dates).timings
            });
            (page, timings)
        };
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
            parse_ms: parse.as_secs_f64() * 1e3,
            total_ms: total.as_secs_f64() * 1e3,
            embedded_ms: embedded.as_secs_f64() * 1e3,
        })
    };
    let summary = lists::run(dir, out, &mut extract)?;
    if pinned {
        let line = format!(
            "pinned: {} winners, {} with a verified selector, {} re-select the same records \
             ({} element for element), {} give the same items as detection\n",
            stats.winners,
            stats.selectors,
            stats.same_records,
            stats.same_elements,
            stats.same_items
        );
        out.write_all(line.as_bytes()).map_err(EvalError::Report)?;
    }
    Ok((summary, stats))
}

/// What `feedmine preview` shows, also as JSON.
#[derive(Debug, serde::Serialize)]
pub struct Preview {
    pub url: String,
    /// How the feed chose its records (automatic without `--feed`).
    pub choice: PreviewChoice,
    pub title: Option<String>,
    /// When the target itself is a feed: "RSS 2.0, 20 items, summaries
    /// only" (its items are the records; there are no groups).
    pub source_feed: Option<String>,
    /// Feeds the page advertises (and, with `--discover`, feeds found at
    /// the usual paths).
    pub feeds: Vec<PreviewFeed>,
    pub records: Vec<PreviewRecord>,
    pub groups: Vec<PreviewGroup>,
    /// Record groups in the data the page embeds for its scripts.
    pub embedded: Vec<PreviewEmbedded>,
    /// Where the records came from (embedded data), or that the page is
    /// built by JavaScript.
    pub hint: Option<String>,
    pub patterns: Vec<PreviewPattern>,
    pub stats: PreviewStats,
}

/// A record group found in embedded data (JSON-LD, `__NEXT_DATA__`, ...).
#[derive(Debug, serde::Serialize)]
pub struct PreviewEmbedded {
    /// The script it was read from, e.g. `script#__NEXT_DATA__`.
    pub source: String,
    /// JSON path of the records, e.g. `$.props.pageProps.posts[*]`.
    pub path: String,
    pub records: usize,
    pub coverage: f64,
    /// On the DOM groups' scale.
    pub score: f64,
    pub dropped: Option<&'static str>,
    /// The feed's items come from this group.
    pub chosen: bool,
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
    /// 1-based rank, as `group = N` and `pin --group N` take it.
    pub rank: usize,
    /// A CSS selector verified to select exactly this group's records on
    /// this page (`null` when no stable one does).
    pub selector: Option<String>,
    /// Human-readable location of the group's container.
    pub location: String,
    /// Field selectors relative to a record (the winner and the group the
    /// feed uses only).
    pub fields: Option<crate::extract::selectors::FieldSelectors>,
    /// The feed's items come from this group.
    pub chosen: bool,
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

/// How the previewed feed chose its records (`preview --feed`).
#[derive(Debug, Default, serde::Serialize)]
pub struct PreviewChoice {
    /// `"auto"`, `"group"` or `"select"`.
    pub how: &'static str,
    /// The `[feed.select]` table in use.
    pub select: Option<crate::extract::selectors::SelectSpec>,
    /// Records the `records` selector matched.
    pub selected: Option<usize>,
    /// Per field: records on which its selector found nothing.
    pub missing: std::collections::BTreeMap<&'static str, usize>,
    pub notes: Vec<String>,
    pub fell_back: bool,
}

fn preview_choice(page: &crate::pipeline::ListPage, choice: &ListChoice) -> PreviewChoice {
    let c = &page.chosen;
    PreviewChoice {
        how: match choice {
            ListChoice::Auto => "auto",
            ListChoice::Group { .. } => "group",
            ListChoice::Select { .. } => "select",
        },
        select: match choice {
            ListChoice::Select { spec, .. } => Some(spec.clone()),
            _ => None,
        },
        selected: c.select.as_ref().map(|s| s.records),
        missing: c
            .select
            .as_ref()
            .map(|s| s.missing.clone())
            .unwrap_or_default(),
        notes: c.notes.clone(),
        fell_back: c.fell_back,
    }
}

/// Build the preview of an analysed page.
pub fn preview_of(
    page: &crate::pipeline::ListPage,
    url: &Url,
    dates: &DateContext,
    choice: &ListChoice,
) -> Preview {
    let winner = page.detection.winner().map(|g| g.selector.clone());
    let css = CssDoc::new(&page.doc);
    Preview {
        choice: preview_choice(page, choice),
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
                rank: i + 1,
                selector: selectors::group_selector(&page.doc, &css, &g.records),
                location: g.selector.clone(),
                fields: ((i == 0 && winner.is_some()) || page.chosen.group == Some(i)).then(|| {
                    let plan = crate::extract::items::plan_titles(&page.doc, &g.records, dates);
                    selectors::field_selectors(
                        &page.doc, &css, &g.records, &page.base, dates, &plan,
                    )
                }),
                chosen: page.chosen.group == Some(i),
                records: g.records.len(),
                coverage: g.coverage,
                score: g.score,
                dropped: g.dropped.map(|d| d.describe()),
                winner: i == 0 && winner.is_some() && page.chosen.embedded.is_none(),
            })
            .collect(),
        embedded: page
            .embedded
            .groups
            .iter()
            .take(PREVIEW_GROUPS)
            .map(|g| PreviewEmbedded {
                source: g.source.clone(),
                path: g.path.clone(),
                records: g.records.len(),
                coverage: g.coverage,
                score: g.score,
                dropped: g.dropped.map(|d| d.describe()),
                chosen: page.chosen.embedded.as_deref() == Some(g.location().as_str()),
            })
            .collect(),
        hint: page.hint(),
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
        embedded: Vec::new(),
        hint: None,
        feeds: Vec::new(),
        choice: PreviewChoice {
            how: "feed",
            select: None,
            selected: None,
            missing: Default::default(),
            notes: Vec::new(),
            fell_back: false,
        },
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

fn write_choice(c: &PreviewChoice, out: &mut dyn Write) -> std::io::Result<()> {
    if c.how == "auto" || c.how == "feed" {
        return Ok(());
    }
    writeln!(out, "choice    {}", c.how)?;
    if let Some(spec) = &c.select {
        writeln!(
            out,
            "          records = {} ({} matched)",
            spec.records,
            c.selected.unwrap_or(0)
        )?;
        for (k, v) in &spec.fields {
            let miss = c
                .missing
                .get(k)
                .map(|n| format!(" (nothing in {n} records)"));
            writeln!(out, "          {k} = {v}{}", miss.unwrap_or_default())?;
        }
    }
    for n in &c.notes {
        writeln!(out, "  note    {n}")?;
    }
    if c.fell_back {
        writeln!(
            out,
            "  note    using automatic detection (fallback = \"auto\")"
        )?;
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
    write_choice(&p.choice, out)?;
    writeln!(
        out,
        "\nrecord groups (ranked; `group = N` or `pin --group N` takes #N)"
    )?;
    writeln!(out, "    # records coverage    score  where / verdict")?;
    for g in &p.groups {
        let mut verdict = match (g.winner, g.dropped) {
            (true, _) => "WINNER".to_string(),
            (false, Some(d)) => format!("dropped: {d}"),
            (false, None) => "lost the ranking".to_string(),
        };
        if g.chosen && !g.winner {
            verdict.push_str(", CHOSEN by the feed");
        }
        writeln!(
            out,
            "  {:>3} {:>7} {:>8.3} {:>8.4}  {}  [{}]",
            g.rank,
            g.records,
            g.coverage,
            g.score,
            clip(&g.location, 70),
            verdict
        )?;
        let css = g.selector.as_deref().unwrap_or("(no stable selector)");
        writeln!(out, "                                 css: {css}")?;
        if let Some(f) = &g.fields {
            for field in selectors::Field::ALL {
                if let Some(s) = f.get(field) {
                    writeln!(
                        out,
                        "                                   {:<10} {s}",
                        field.key()
                    )?;
                }
            }
        }
    }
    write_embedded(p, out)?;
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
    if let Some(hint) = &p.hint {
        writeln!(out, "\nnote      {hint}")?;
    }
    if p.records.is_empty() {
        writeln!(out, "\n{}", no_records_hint(p))?;
    }
    Ok(())
}

/// The groups found in the page's embedded data, if any.
fn write_embedded(p: &Preview, out: &mut dyn Write) -> std::io::Result<()> {
    if p.embedded.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\nembedded data groups (scored like the groups above; the best wins when it scores higher)"
    )?;
    writeln!(
        out,
        "      records coverage    score  source path / verdict"
    )?;
    for g in &p.embedded {
        let verdict = match (g.chosen, g.dropped) {
            (true, _) => "WINNER".to_string(),
            (false, Some(d)) => format!("dropped: {d}"),
            (false, None) => "lost the ranking".to_string(),
        };
        writeln!(
            out,
            "      {:>7} {:>8.3} {:>8.4}  {} {}  [{verdict}]",
            g.records,
            g.coverage,
            g.score,
            g.source,
            clip(&g.path, 70)
        )?;
    }
    Ok(())
}

/// One line on why a page gave no records, and what to try.
pub fn no_records_hint(p: &Preview) -> String {
    if let Some(hint) = p
        .hint
        .as_deref()
        .filter(|h| h.starts_with(crate::pipeline::RENDER_HINT))
    {
        format!("no records: {hint}")
    } else if p.stats.tokens < 20 {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// An outlier run (a page parsed while the machine was busy) moves no
    /// reported time; parse, total and embedded are each their own median.
    #[test]
    fn eval_timings_are_medians_of_the_runs() {
        let t = |parse, mine| Timings {
            parse: ms(parse),
            mine: ms(mine),
            embedded: ms(0),
            items: ms(1),
        };
        let mut more = [t(9, 1), t(3, 4), t(2, 2), t(2, 3)].into_iter();
        let [parse, total, embedded] = median_timings(t(40, 2), || more.next().unwrap_or_default());
        assert_eq!((parse, total, embedded), (ms(3), ms(8), ms(0)));
    }
}
