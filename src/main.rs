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
use feedmine::patterns::{MiningParams, Mode};
use feedmine::{commands, config, fetch, pipeline, refresh};

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
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Refresh every feed (or the named ones) once and exit: for crontab.
    Once {
        #[arg(long, default_value = "feeds.toml")]
        config: PathBuf,
        /// Only these feed ids.
        feeds: Vec<String>,
    },
    /// Show what would be published for a page, and why.
    Preview {
        /// URL or local file.
        target: String,
        /// Resolve links against this URL (for local files).
        #[arg(long)]
        base_url: Option<url::Url>,
        /// Print one JSON object instead of the report.
        #[arg(long)]
        json: bool,
        #[arg(long, default_value = "structural")]
        mode: Mode,
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                // html5ever logs parser internals ("foster parenting not
                // implemented") at warn; they say nothing about the feed.
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,html5ever=error")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let outcome = match cli.command {
        Command::Once { config, feeds } => once(&config, &feeds),
        Command::Preview {
            target,
            base_url,
            json,
            mode,
        } => preview(&target, base_url, json, mode).map(|()| ExitCode::SUCCESS),
        Command::Check { config } => check(&config),
        Command::Extract {
            target,
            base_url,
            method,
            format,
            thresholds,
        } => extract(&target, base_url, &method, format, thresholds.as_deref())
            .map(|()| ExitCode::SUCCESS),
        Command::Eval {
            what: EvalWhat::Lists { dir, mode },
        } => {
            let params = MiningParams {
                mode,
                ..MiningParams::default()
            };
            commands::eval_lists(&dir, &params, &mut std::io::stdout().lock())
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

fn once(config_path: &Path, only: &[String]) -> anyhow::Result<ExitCode> {
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
    let mut failed = 0;
    for feed in cfg
        .feeds
        .iter()
        .filter(|f| only.is_empty() || only.contains(&f.id))
    {
        match rt.block_on(refresh::refresh(&cfg, feed)) {
            Ok(r) => println!(
                "feed {}: {} items ({} bodies, {} failed) -> {} in {:.1}s",
                feed.id,
                r.items,
                r.bodies_filled,
                r.bodies_failed,
                r.path.display(),
                r.elapsed.as_secs_f64()
            ),
            Err(err) => {
                failed += 1;
                let err = anyhow::Error::new(err);
                eprintln!("feedmine: feed {}: {err:#}", feed.id);
            }
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FEED_FAILED)
    })
}

fn check(config_path: &Path) -> anyhow::Result<ExitCode> {
    match load_config(config_path) {
        Ok(cfg) => {
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

fn preview(target: &str, base_url: Option<url::Url>, json: bool, mode: Mode) -> anyhow::Result<()> {
    let page = fetch_target(target)?;
    let params = MiningParams {
        mode,
        ..MiningParams::default()
    };
    let base = base_url.unwrap_or(page.final_url);
    let list = pipeline::analyze_list(
        &page.text,
        &base,
        &params,
        &commands::default_date_context(),
    );
    let p = commands::preview_of(&list, &base);
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &p)?;
        writeln!(out)?;
    } else {
        commands::write_preview(&p, &mut out)?;
    }
    Ok(())
}

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
) -> anyhow::Result<()> {
    let method: Method = method.parse()?;
    let params = body_params(thresholds)?;
    let page = fetch_target(target)?;
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
