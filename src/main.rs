//! The `feedmine` command line: parses arguments, sets up logging, hands
//! over to the library and turns the outcome into an exit code:
//! 0 = everything succeeded, 1 = one or more feeds (or pages) failed,
//! 2 = bad usage or an invalid config.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use feedmine::bodies::{self, BodyParams, Method};
use feedmine::extract::patterns::{MiningParams, Mode};
use feedmine::serve::status::RunOutcome;
use feedmine::{commands, config, fetch, pipeline};

/// Exit code when some feed failed but the others were published.
const EXIT_FEED_FAILED: u8 = 1;
/// Exit code for usage and config errors.
const EXIT_USAGE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "feedmine",
    version,
    about = "Turns websites that have no feed into RSS feeds, automatically"
)]
struct Cli {
    /// Log lines as human-readable text or as JSON objects (one per line).
    #[arg(long, global = true, value_enum, default_value = "human")]
    log_format: LogFormat,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    Human,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Run the daemon: every feed on its schedule, optionally serving them.
    Run {
        #[arg(long, default_value = "feeds.toml")]
        config: PathBuf,
        /// Serve the feeds, index page, /health and /metrics here
        /// (e.g. 127.0.0.1:8080; overrides `listen` in the config).
        #[arg(long)]
        listen: Option<std::net::SocketAddr>,
        /// Run every feed at start-up, then follow the schedules.
        #[arg(long)]
        once_now: bool,
        /// Reload the config when the file changes (SIGHUP always does).
        #[arg(long)]
        watch_config: bool,
        /// Time runs in flight get to finish at shutdown, e.g. "10s".
        #[arg(long, default_value = "10s", value_parser = parse_duration_arg)]
        shutdown_grace: std::time::Duration,
        /// Move a damaged state file aside (as `<file>.broken-<time>`) and
        /// start with a new one: every feed's history starts over.
        #[arg(long)]
        reset_state: bool,
    },
    /// Serve the bundled example site on 127.0.0.1 and run the daemon over
    /// it: the whole thing working offline, in one command.
    Demo {
        /// Where the feeds are served.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: std::net::SocketAddr,
        /// Keep the demo's files here instead of a temporary directory.
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// Benchmarks that need no labelled data.
    Bench {
        #[command(subcommand)]
        what: BenchWhat,
    },
    /// Refresh every feed (or the named ones) once and exit: for crontab.
    Once {
        #[arg(long, default_value = "feeds.toml")]
        config: PathBuf,
        /// Fetch the bodies of the feeds' current items again (bodies are
        /// otherwise fetched once, for new items).
        #[arg(long)]
        refetch_bodies: bool,
        /// Move a damaged state file aside (as `<file>.broken-<time>`) and
        /// start with a new one: every feed's history starts over.
        #[arg(long)]
        reset_state: bool,
        /// Only these feed ids.
        feeds: Vec<String>,
    },
    /// Every feed with its last run, outcome, next due time and the
    /// instance holding it (read from the state; daemons may be running).
    Status {
        #[arg(long, default_value = "feeds.toml")]
        config: PathBuf,
        /// Print one JSON object instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Show what would be published for a page, and why: the ranked record
    /// groups with a CSS selector for each, and the winner's field selectors.
    Preview {
        /// URL or local file (default with --feed: the feed's URL).
        target: Option<String>,
        /// Read the page as this feed of the config does (its fetch
        /// settings, mining parameters, `group` or `[feed.select]`).
        #[arg(long)]
        feed: Option<String>,
        #[arg(long, default_value = "feeds.toml")]
        config: PathBuf,
        /// Resolve links against this URL (for local files).
        #[arg(long)]
        base_url: Option<url::Url>,
        /// Print one JSON object instead of the report.
        #[arg(long)]
        json: bool,
        #[arg(long, default_value = "structural")]
        mode: Mode,
        /// Also look for feeds at the paths site generators use (/feed,
        /// /rss.xml, /atom.xml, /index.xml, /feed.json, ...).
        #[arg(long)]
        discover: bool,
        /// Load the page in headless Chromium first (as `render =
        /// "chromium"` does; implied by a feed that renders).
        #[arg(long)]
        render: bool,
    },
    /// Fetch a feed's page, detect, and write the chosen group's selectors
    /// into the feed's `[feed.select]` in the config (comments and layout
    /// kept), showing the diff first.
    Pin {
        /// The feed's id.
        feed: String,
        /// The ranked group to pin, as `preview` numbers them (default: the
        /// feed's `group`, else 1, the winner).
        #[arg(long)]
        group: Option<usize>,
        #[arg(long, default_value = "feeds.toml")]
        config: PathBuf,
        /// Only show the diff.
        #[arg(long)]
        dry_run: bool,
    },
    /// Validate the config; each error names the feed, the field and the line.
    Check {
        #[arg(long, default_value = "feeds.toml")]
        config: PathBuf,
    },
    /// Print the main content of one article page.
    Extract {
        /// URL or local file.
        target: String,
        #[arg(long)]
        base_url: Option<url::Url>,
        #[arg(long, default_value = "reverse")]
        method: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ExtractFormat,
        /// Thresholds from `feedmine train tagpath` (for --method tagpath).
        #[arg(long)]
        thresholds: Option<PathBuf>,
        /// Load the page in headless Chromium first (Chromium on PATH).
        #[arg(long)]
        render: bool,
    },
    /// Measure the extractors on labelled data.
    Eval {
        #[command(subcommand)]
        what: EvalWhat,
    },
    /// Learn parameters from sample pages.
    Train {
        #[command(subcommand)]
        what: TrainWhat,
    },
}

#[derive(Subcommand)]
enum BenchWhat {
    /// N synthetic list pages from a local server, run end to end: list
    /// pages per second, peak RSS, idle CPU.
    Daemon {
        #[arg(long, default_value_t = 2000)]
        feeds: usize,
        /// Records per synthetic list page.
        #[arg(long, default_value_t = 20)]
        records: usize,
        /// Also fetch article bodies for new items.
        #[arg(long)]
        bodies: bool,
        /// Run real `feedmine run` processes over this state (a
        /// postgres:// URL, or an SQLite file for one instance) instead of
        /// the in-process passes.
        #[arg(long)]
        state: Option<String>,
        /// How many instances share the state (with --state).
        #[arg(long, default_value_t = 1)]
        instances: usize,
    },
    /// The daemon over N feeds for a while, with a share of requests failing
    /// in assorted ways: memory over time, feeds updated, recoveries.
    Soak {
        #[arg(long, default_value_t = 2000)]
        feeds: usize,
        /// How long, e.g. "10m".
        #[arg(long, default_value = "10m", value_parser = parse_duration_arg)]
        duration: std::time::Duration,
        /// Share of requests that fail (0..1).
        #[arg(long, default_value_t = 0.1)]
        fail_rate: f64,
    },
}

fn parse_duration_arg(s: &str) -> Result<std::time::Duration, String> {
    config::parse_duration(s)
}

#[derive(Subcommand)]
enum TrainWhat {
    /// Paper 003's thresholds (k-means over text length and Cn, mean
    /// frequency) from sample article pages (DIR/*.html or *.html.gz).
    Tagpath {
        dir: PathBuf,
        #[arg(long, default_value = "tagpath-thresholds.toml")]
        out: PathBuf,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum ExtractFormat {
    Text,
    Html,
    Json,
}

#[derive(Subcommand)]
enum EvalWhat {
    /// List pages: DIR/<case>/{page.html, expected.json}.
    Lists {
        dir: PathBuf,
        #[arg(long, default_value = "structural")]
        mode: Mode,
        /// Detect, pin the winner as selectors, and score the records
        /// re-extracted through them.
        #[arg(long)]
        pinned: bool,
    },
    /// Article pages: DIR/<id>.html.gz + DIR/<id>.json.
    Articles {
        dir: PathBuf,
        #[arg(long, default_value = "reverse")]
        method: String,
        /// Write each prediction to OUT/<id>.txt.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Thresholds from `feedmine train tagpath` (for --method tagpath).
        #[arg(long)]
        thresholds: Option<PathBuf>,
    },
    /// Article pages served on 127.0.0.1 behind a titles-and-links RSS
    /// feed, run through `source = "feed"`: the published bodies scored
    /// next to direct extraction. DIR as for `articles`.
    FeedBodies { dir: PathBuf },
}

/// glibc gives every thread that allocates its own malloc arena and keeps
/// what a parse freed there: pages parsed one after another on different
/// blocking threads held twice the memory they needed (two feeds of eight
/// 5 MiB articles: 200+ MB instead of 130). Two arenas keep the memory
/// budget (`fetch::memory`) close to the process's real footprint.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a tuning parameter; it is called before any
    // other thread exists, as glibc asks.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS);
    }
}

/// See [`limit_malloc_arenas`].
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MALLOC_ARENAS: libc::c_int = 2;

fn main() -> ExitCode {
    limit_malloc_arenas();
    let cli = Cli::parse();
    // The daemon reports each run at info; one-shot commands only warn.
    let default_level = match cli.command {
        Command::Run { .. } | Command::Demo { .. } | Command::Bench { .. } => "info",
        _ => "warn",
    };
    // html5ever logs parser internals ("foster parenting not implemented")
    // and chromiumoxide protocol messages it cannot read at warn; they say
    // nothing about the feed.
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new(format!(
            "{default_level},html5ever=error,chromiumoxide=error"
        ))
    });
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match cli.log_format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Human => builder
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .init(),
    }
    let outcome = match cli.command {
        Command::Run {
            config,
            listen,
            once_now,
            watch_config,
            shutdown_grace,
            reset_state,
        } => reset_state_if(reset_state, &config).and_then(|()| {
            run_daemon(feedmine::daemon::DaemonOptions {
                config_path: config,
                listen,
                once_now,
                watch_config,
                shutdown_grace,
            })
        }),
        Command::Demo { listen, dir } => demo(listen, dir),
        Command::Bench {
            what:
                BenchWhat::Daemon {
                    feeds,
                    records,
                    bodies,
                    state,
                    instances,
                },
        } => bench_daemon(feeds, records, bodies, state, instances),
        Command::Bench {
            what:
                BenchWhat::Soak {
                    feeds,
                    duration,
                    fail_rate,
                },
        } => bench_soak(feeds, duration, fail_rate),
        Command::Once {
            config,
            feeds,
            refetch_bodies,
            reset_state,
        } => reset_state_if(reset_state, &config)
            .and_then(|()| once(&config, &feeds, refetch_bodies)),
        Command::Preview {
            target,
            feed,
            config,
            base_url,
            json,
            mode,
            discover,
            render,
        } => preview(
            target.as_deref(),
            feed.as_deref().map(|f| (config.as_path(), f)),
            base_url,
            json,
            mode,
            discover,
            render,
        ),
        Command::Pin {
            feed,
            group,
            config,
            dry_run,
        } => pin(&config, &feed, group, dry_run),
        Command::Check { config } => check(&config),
        Command::Status { config, json } => status(&config, json),
        Command::Extract {
            target,
            base_url,
            method,
            format,
            thresholds,
            render,
        } => extract(
            &target,
            base_url,
            &method,
            format,
            thresholds.as_deref(),
            render,
        )
        .map(|()| ExitCode::SUCCESS),
        Command::Eval {
            what: EvalWhat::Lists { dir, mode, pinned },
        } => {
            let params = MiningParams {
                mode,
                ..MiningParams::default()
            };
            commands::eval_lists_with(&dir, &params, pinned, &mut std::io::stdout().lock())
                .map(|_| ExitCode::SUCCESS)
                .map_err(Into::into)
        }
        Command::Eval {
            what:
                EvalWhat::Articles {
                    dir,
                    method,
                    save,
                    thresholds,
                },
        } => eval_articles(&dir, &method, save.as_deref(), thresholds.as_deref())
            .map(|()| ExitCode::SUCCESS),
        Command::Eval {
            what: EvalWhat::FeedBodies { dir },
        } => runtime().and_then(|rt| {
            rt.block_on(feedmine::eval::feedbodies::run(
                &dir,
                &mut std::io::stdout().lock(),
            ))
            .map(|_| ExitCode::SUCCESS)
            .map_err(Into::into)
        }),
        Command::Train {
            what: TrainWhat::Tagpath { dir, out },
        } => train_tagpath(&dir, &out).map(|()| ExitCode::SUCCESS),
    };
    match outcome {
        Ok(code) => code,
        Err(err) => {
            eprintln!("feedmine: {err:#}");
            ExitCode::from(EXIT_FEED_FAILED)
        }
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

fn load_config(path: &Path) -> Result<config::Config, ExitCode> {
    config::load(path).map_err(|err| {
        match &err {
            config::ConfigError::Invalid { path, issues } => {
                for issue in issues {
                    eprintln!("feedmine: {}: {issue}", path.display());
                }
            }
            config::ConfigError::Read { .. } => {
                eprintln!("feedmine: {:#}", anyhow::Error::new(err))
            }
        }
        ExitCode::from(EXIT_USAGE)
    })
}

/// `--reset-state`: move the config's state file aside before the run.
/// A config that does not load is left for the run to report.
fn reset_state_if(reset: bool, config_path: &Path) -> anyhow::Result<()> {
    let Some(cfg) = reset.then(|| config::load(config_path).ok()).flatten() else {
        return Ok(());
    };
    let Some(path) = cfg.state.sqlite_path() else {
        eprintln!(
            "feedmine: --reset-state moves an SQLite file aside; the state is the PostgreSQL \
             database {}, which is left as it is",
            cfg.state.label()
        );
        return Ok(());
    };
    match feedmine::state::reset(path)? {
        Some(aside) => eprintln!(
            "feedmine: state database {} moved aside to {}; starting with a new one",
            path.display(),
            aside.display()
        ),
        None => eprintln!(
            "feedmine: no state database at {}; nothing to reset",
            path.display()
        ),
    }
    Ok(())
}

fn once(config_path: &Path, only: &[String], refetch_bodies: bool) -> anyhow::Result<ExitCode> {
    let cfg = match load_config(config_path) {
        Ok(c) => c,
        Err(code) => return Ok(code),
    };
    let unknown: Vec<&String> = only
        .iter()
        .filter(|id| !cfg.feeds.iter().any(|f| &f.id == *id))
        .collect();
    if !unknown.is_empty() {
        for id in unknown {
            eprintln!("feedmine: no feed {id:?} in {}", config_path.display());
        }
        return Ok(ExitCode::from(EXIT_USAGE));
    }
    let rt = runtime()?;
    let selected: Vec<&config::Feed> = cfg
        .feeds
        .iter()
        .filter(|f| only.is_empty() || only.contains(&f.id))
        .collect();
    if refetch_bodies {
        let store = feedmine::state::Store::open_location(&cfg.state)?;
        for feed in &selected {
            let n = store.clear_bodies(&feed.id)?;
            // A 304 would skip the run: ask for the page itself.
            store.clear_validators(&feed.id)?;
            eprintln!(
                "feedmine: feed {}: {n} bodies will be fetched again",
                feed.id
            );
        }
    }
    let results = match rt.block_on(feedmine::daemon::run_once(&cfg, &selected)) {
        Ok(r) => r,
        Err(err) => {
            eprintln!("feedmine: {:#}", anyhow::Error::new(err));
            return Ok(ExitCode::from(EXIT_FEED_FAILED));
        }
    };
    let mut failed = 0;
    for r in results {
        match r.result {
            // Nothing new was published: for crontab that is a failure to
            // look at, even though the previous items stay.
            Ok(rep) if rep.outcome == RunOutcome::Degraded => {
                failed += 1;
                // A pinned feed on `fallback = "auto"` published detection's
                // items; its reasons say so.
                let kept = if rep.new_items == 0 && rep.paths.is_empty() {
                    ", the previous items stay published"
                } else {
                    ""
                };
                eprintln!(
                    "feedmine: feed {}: degraded{kept}: {}",
                    r.feed,
                    rep.drift.join("; ")
                );
            }
            Ok(rep) => println!(
                "feed {}: {} ({} records, {} new, {} items, {} bodies, {} failed{}) in {:.1}s{}{}",
                r.feed,
                match rep.outcome {
                    RunOutcome::Published => "published",
                    RunOutcome::NotModified => "not modified",
                    RunOutcome::Degraded => "DEGRADED, previous items kept",
                    RunOutcome::Failed => "failed",
                },
                rep.records,
                rep.new_items,
                rep.published,
                rep.bodies_filled,
                rep.bodies_failed,
                if rep.bodies_missing > 0 {
                    format!(
                        ", {} linked pages do not exist and keep their summaries",
                        rep.bodies_missing
                    )
                } else {
                    String::new()
                },
                rep.elapsed.as_secs_f64(),
                if rep.drift.is_empty() && rep.notes.is_empty() {
                    String::new()
                } else {
                    format!(": {}", [rep.drift, rep.notes].concat().join("; "))
                },
                if rep.published == 0 && rep.outcome == RunOutcome::Published {
                    " — the feed has no items (see the warnings above: filters, or no records)"
                } else {
                    ""
                }
            ),
            // Another instance runs it now: not a failure.
            Err(err @ feedmine::refresh::RefreshError::Leased { .. }) => {
                println!("feed {}: {err}", r.feed);
            }
            Err(err) => {
                failed += 1;
                let err = anyhow::Error::new(err);
                eprintln!("feedmine: feed {}: {err:#}", r.feed);
            }
        }
    }
    print_next_steps(&cfg, config_path);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FEED_FAILED)
    })
}

/// The end of `once`'s summary: where the files are and what to try next.
fn print_next_steps(cfg: &config::Config, config_path: &Path) {
    println!(
        "\nFeeds are in {} (<id>.xml, .atom, .json; feeds.opml lists them all).",
        cfg.output_dir.display()
    );
    println!(
        "Next: `feedmine run --config {} --listen 127.0.0.1:8080` keeps them fresh and serves \
         them (subscribe to http://127.0.0.1:8080/feeds.opml); `feedmine demo` shows the bundled \
         example in a browser.",
        config_path.display()
    );
}

fn run_daemon(opts: feedmine::daemon::DaemonOptions) -> anyhow::Result<ExitCode> {
    // Validate first so config errors print one per line with exit 2.
    if let Err(code) = load_config(&opts.config_path) {
        return Ok(code);
    }
    let rt = runtime()?;
    let outcome = rt.block_on(async {
        let shutdown = tokio_util::sync::CancellationToken::new();
        let reload = feedmine::daemon::install_signal_handlers(shutdown.clone())
            .context("installing signal handlers")?;
        feedmine::daemon::run(opts, shutdown, reload).await?;
        Ok(ExitCode::SUCCESS)
    });
    // Dropping the runtime would wait for a parse still running on a
    // blocking thread; the daemon has already given up on it.
    rt.shutdown_timeout(feedmine::daemon::ABANDON_AFTER_ABORT);
    outcome
}

fn demo(listen: std::net::SocketAddr, dir: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let rt = runtime()?;
    rt.block_on(async {
        let shutdown = tokio_util::sync::CancellationToken::new();
        let reload = feedmine::daemon::install_signal_handlers(shutdown.clone())
            .context("installing signal handlers")?;
        feedmine::demo::run(listen, dir, shutdown, reload).await?;
        Ok(ExitCode::SUCCESS)
    })
}

fn bench_daemon(
    feeds: usize,
    records: usize,
    bodies: bool,
    state: Option<String>,
    instances: usize,
) -> anyhow::Result<ExitCode> {
    let rt = runtime()?;
    let report = match state {
        None if instances != 1 => {
            anyhow::bail!("--instances needs --state (a postgres:// URL the instances share)")
        }
        None => rt.block_on(feedmine::bench::daemon(feeds, records, bodies))?,
        Some(_) if bodies => anyhow::bail!("--bodies is not measured with --state"),
        Some(state) => rt.block_on(feedmine::bench::daemon_instances(
            feeds, records, &state, instances,
        ))?,
    };
    println!("{report}");
    Ok(ExitCode::SUCCESS)
}

fn bench_soak(
    feeds: usize,
    duration: std::time::Duration,
    fail_rate: f64,
) -> anyhow::Result<ExitCode> {
    let rt = runtime()?;
    let report = rt.block_on(feedmine::bench::soak(feeds, duration, fail_rate))?;
    println!("{report}");
    Ok(ExitCode::SUCCESS)
}

fn status(config_path: &Path, json: bool) -> anyhow::Result<ExitCode> {
    let cfg = match load_config(config_path) {
        Ok(c) => c,
        Err(code) => return Ok(code),
    };
    if cfg.state.sqlite_path().is_some_and(|p| !p.is_file()) {
        eprintln!(
            "feedmine: no state at {}: no feed has run yet",
            cfg.state.label()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let store = feedmine::state::Store::open_location(&cfg.state)?;
    let report = feedmine::daemon::report::status(&cfg, &store, chrono::Utc::now())?;
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        feedmine::daemon::report::write_table(&report, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn check(config_path: &Path) -> anyhow::Result<ExitCode> {
    match load_config(config_path) {
        Ok(cfg) => {
            for warning in commands::config_warnings(&cfg) {
                eprintln!("warning: {warning}");
            }
            println!(
                "{}: ok, {} feeds, output to {}",
                config_path.display(),
                cfg.feeds.len(),
                cfg.output_dir.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(code) => Ok(code),
    }
}

/// Fetch a URL or local file with default options.
fn fetch_target(target: &str) -> anyhow::Result<fetch::Page> {
    let url = fetch::resolve_target(target)?;
    let fetcher = fetch::Fetcher::new(fetch::FetchOptions::default())?;
    runtime()?
        .block_on(fetcher.fetch(&url))
        .with_context(|| format!("fetching {target}"))
}

/// A feed of the config by id (config errors printed, exit code 2).
fn config_feed(path: &Path, id: &str) -> Result<(config::Config, config::Feed), ExitCode> {
    let cfg = load_config(path)?;
    match cfg.feeds.iter().find(|f| f.id == id).cloned() {
        Some(f) => Ok((cfg, f)),
        None => {
            eprintln!("feedmine: {}: no feed with id \"{id}\"", path.display());
            Err(ExitCode::from(EXIT_USAGE))
        }
    }
}

/// Fetch a feed's list page (or `target`) with the feed's settings.
fn fetch_for_feed(feed: &config::Feed, target: Option<&str>) -> anyhow::Result<fetch::Page> {
    let url = match target {
        Some(t) => fetch::resolve_target(t)?,
        None => feed.url.clone(),
    };
    let fetcher = fetch::Fetcher::new(feedmine::refresh::list_fetch_options(feed))?;
    runtime()?
        .block_on(fetcher.fetch(&url))
        .with_context(|| format!("fetching {url} for feed {}", feed.id))
}

/// The page loaded in headless Chromium (`preview --render`, `extract
/// --render`), with the feed's settings when given (its `wait_for`,
/// headers, timeout, address policy).
fn render_for_preview(
    target: Option<&str>,
    feed: Option<&config::Feed>,
    chromium: Option<PathBuf>,
) -> anyhow::Result<fetch::Page> {
    use feedmine::fetch::render::{RenderRequest, Renderer};
    let url = match (target, feed) {
        (Some(t), _) => fetch::resolve_target(t)?,
        (None, Some(f)) => f.url.clone(),
        (None, None) => anyhow::bail!("give a URL or file to preview (or --feed ID)"),
    };
    let request = match feed {
        Some(f) => {
            let timeout = feedmine::refresh::list_fetch_options(f).total_timeout;
            let mut request = feedmine::refresh::render_request(f, &url, timeout);
            request.wait_for = f.render.as_ref().and_then(|r| r.wait_for.clone());
            request
        }
        None => {
            let opts = fetch::FetchOptions::default();
            RenderRequest {
                url: url.clone(),
                timeout: opts.total_timeout,
                wait_for: None,
                allow_private: false,
                headers: Vec::new(),
                user_agent: opts.user_agent,
            }
        }
    };
    let rendered = runtime()?.block_on(async {
        let renderer = Renderer::new(chromium, 1);
        let out = renderer.render(&request).await;
        renderer.shutdown().await;
        out
    });
    let rendered = rendered.with_context(|| format!("rendering {url}"))?;
    for refused in &rendered.refused {
        eprintln!("note: the browser was not allowed to load {refused}");
    }
    Ok(rendered.into_page())
}

fn preview(
    target: Option<&str>,
    feed: Option<(&Path, &str)>,
    base_url: Option<url::Url>,
    json: bool,
    mode: Mode,
    discover: bool,
    render: bool,
) -> anyhow::Result<ExitCode> {
    use feedmine::extract::{advertised, feedsource};
    let (cfg, feed) = match feed {
        Some((path, id)) => match config_feed(path, id) {
            Ok((c, f)) => (Some(c), Some(f)),
            Err(code) => return Ok(code),
        },
        None => (None, None),
    };
    let render = render || feed.as_ref().is_some_and(|f| f.render.is_some());
    let fetched = |f: Option<&config::Feed>| -> anyhow::Result<fetch::Page> {
        if render {
            let chromium = cfg.as_ref().and_then(|c| c.chromium_path.clone());
            return render_for_preview(target, f, chromium);
        }
        match f {
            Some(f) => fetch_for_feed(f, target),
            None => fetch_target(target.context("give a URL or file to preview (or --feed ID)")?),
        }
    };
    let (page, params, dates, choice) = match &feed {
        Some(f) => (
            fetched(Some(f))?,
            f.mining.clone(),
            feedmine::refresh::date_context(f, chrono::Utc::now()),
            f.choice.clone(),
        ),
        None => {
            let params = MiningParams {
                mode,
                ..MiningParams::default()
            };
            let choice = feedmine::extract::selectors::ListChoice::Auto;
            (
                fetched(None)?,
                params,
                commands::default_date_context(),
                choice,
            )
        }
    };
    let base = base_url.unwrap_or(page.final_url.clone());
    let p = if feedsource::looks_like_feed(&page.bytes, page.content_type.as_deref()) {
        let parsed = feedsource::parse_feed(&page.bytes, &base)?;
        commands::preview_of_feed(&parsed, &base)
    } else {
        let list = pipeline::analyze_list_with(&page.text, &base, &params, &dates, &choice);
        let mut p = commands::preview_of(&list, &base, &dates, &choice);
        let offered = advertised::advertised_feeds(&list.doc, &list.base);
        let tried = if discover {
            advertised::common_feed_urls(&base)
        } else {
            Vec::new()
        };
        p.feeds = describe_feeds(&offered, &tried)?;
        p
    };
    // What the feed's state learnt about its links; a preview never
    // creates a state file.
    let learned = match (&cfg, &feed) {
        (Some(c), Some(f)) if c.state.sqlite_path().is_none_or(Path::is_file) => {
            feedmine::state::Store::open_location(&c.state)?.volatile_params(&f.id)?
        }
        _ => Vec::new(),
    };
    let mut out = std::io::stdout().lock();
    if json {
        let mut v = serde_json::to_value(&p)?;
        if feed.is_some() {
            v["volatile_params"] = serde_json::json!(learned);
        }
        serde_json::to_writer_pretty(&mut out, &v)?;
        writeln!(out)?;
    } else {
        commands::write_preview(&p, &mut out)?;
        if feed.is_some() {
            commands::write_identity(&learned, &mut out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn pin(
    config_path: &Path,
    id: &str,
    group: Option<usize>,
    dry_run: bool,
) -> anyhow::Result<ExitCode> {
    let (_, feed) = match config_feed(config_path, id) {
        Ok(v) => v,
        Err(code) => return Ok(code),
    };
    let rank = group.unwrap_or(match feed.choice {
        feedmine::extract::selectors::ListChoice::Group { rank, .. } => rank,
        _ => 1,
    });
    let page = fetch_for_feed(&feed, None)?;
    let dates = feedmine::refresh::date_context(&feed, chrono::Utc::now());
    let text = std::fs::read_to_string(config_path)
        .with_context(|| format!("reading {}", config_path.display()))?;
    let plan = feedmine::pin::plan(&text, &feed, &page.text, &page.final_url, rank, &dates)
        .with_context(|| format!("pinning feed {id}"))?;
    let shown = config_path.display().to_string();
    print!("{}", feedmine::pin::diff(&shown, &text, &plan.new_text));
    println!(
        "group {rank}: detection gives {} items, the selectors give {} on this page",
        plan.detected_items, plan.selected_items
    );
    if plan.new_text == text {
        println!("{shown}: already pinned to these selectors");
    } else if dry_run {
        println!("--dry-run: {shown} not changed");
    } else {
        feedmine::publish::write_atomically(config_path, plan.new_text.as_bytes())
            .with_context(|| format!("writing {shown}"))?;
        println!("{shown}: feed {id} pinned");
    }
    Ok(ExitCode::SUCCESS)
}

/// Fetch the advertised feeds (up to [`MAX_DESCRIBED_FEEDS`]) and the
/// `--discover` candidates to say what each holds; candidates that are not
/// feeds are left out, advertised feeds that fail say why.
fn describe_feeds(
    offered: &[feedmine::extract::advertised::Advertised],
    tried: &[url::Url],
) -> anyhow::Result<Vec<commands::PreviewFeed>> {
    use feedmine::extract::feedsource;
    let fetcher = fetch::Fetcher::new(fetch::FetchOptions::default())?;
    let rt = runtime()?;
    let describe = |url: &url::Url| -> Result<(String, &'static str), String> {
        let page = rt
            .block_on(fetcher.fetch(url))
            .map_err(|e| format!("{:#}", anyhow::Error::new(e)))?;
        if !feedsource::looks_like_feed(&page.bytes, page.content_type.as_deref()) {
            return Err("not a feed".into());
        }
        let feed = feedsource::parse_feed(&page.bytes, &page.final_url)
            .map_err(|e| format!("{:#}", anyhow::Error::new(e)))?;
        Ok((feed.describe(), feed.kind.label()))
    };
    let mut out = Vec::new();
    for a in offered.iter().take(MAX_DESCRIBED_FEEDS) {
        out.push(commands::PreviewFeed {
            url: a.url.to_string(),
            kind: a.kind.label(),
            description: describe(&a.url).map(|(d, _)| d).unwrap_or_else(|e| e),
            advertised: true,
        });
    }
    for url in tried {
        if offered.iter().any(|a| a.url == *url) || out.iter().any(|f| f.url == url.as_str()) {
            continue;
        }
        if let Ok((description, kind)) = describe(url) {
            out.push(commands::PreviewFeed {
                url: url.to_string(),
                kind,
                description,
                advertised: false,
            });
        }
    }
    Ok(out)
}

/// Advertised feeds `preview` fetches to describe.
const MAX_DESCRIBED_FEEDS: usize = 3;

/// Extraction parameters: defaults, plus trained tag-path thresholds.
fn body_params(thresholds: Option<&Path>) -> anyhow::Result<BodyParams> {
    let mut params = BodyParams::default();
    if let Some(path) = thresholds {
        params.tagpath.thresholds = bodies::tagpath::load_thresholds(path)
            .with_context(|| format!("loading thresholds {}", path.display()))?;
    }
    Ok(params)
}

fn extract(
    target: &str,
    base_url: Option<url::Url>,
    method: &str,
    format: ExtractFormat,
    thresholds: Option<&Path>,
    render: bool,
) -> anyhow::Result<()> {
    let method: Method = method.parse()?;
    let params = body_params(thresholds)?;
    let page = if render {
        render_for_preview(Some(target), None, None)?
    } else {
        fetch_target(target)?
    };
    let base = base_url.unwrap_or(page.final_url);
    let x = bodies::extract(&page.text, Some(&base), method, &params)
        .with_context(|| format!("extracting {target}"))?;
    let mut out = std::io::stdout().lock();
    if let Some(reason) = &x.empty_reason {
        eprintln!("feedmine: nothing extracted from {target}: {reason}");
    }
    match format {
        ExtractFormat::Text => writeln!(out, "{}", x.text)?,
        ExtractFormat::Html => writeln!(out, "{}", x.html)?,
        ExtractFormat::Json => {
            let v = serde_json::json!({
                "url": base.as_str(),
                "title": x.title,
                "byline": x.byline,
                "published": x.published.map(|d| d.to_rfc3339()),
                "lead_image": x.lead_image.map(|u| u.to_string()),
                "text": x.text,
                "html": x.html,
                "nodes_built": x.nodes_built,
                "nodes_total": x.nodes_total,
                "empty_reason": x.empty_reason,
            });
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

fn eval_articles(
    dir: &Path,
    method: &str,
    save: Option<&Path>,
    thresholds: Option<&Path>,
) -> anyhow::Result<()> {
    let method: Method = method.parse()?;
    let params = body_params(thresholds)?;
    feedmine::eval::articles::run(dir, method, &params, save, &mut std::io::stdout().lock())?;
    Ok(())
}

fn train_tagpath(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let t = bodies::tagpath::train_tagpath(dir)
        .with_context(|| format!("training tag-path thresholds on {}", dir.display()))?;
    bodies::tagpath::save_thresholds(&t, out)?;
    println!(
        "length > {:.1}, Cn > {:.1}, frequency >= {:.2} -> {} (use with --thresholds, or tagpath_thresholds in feeds.toml)",
        t.length,
        t.cn,
        t.frequency,
        out.display()
    );
    Ok(())
}
