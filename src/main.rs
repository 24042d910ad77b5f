//! The `feedmine` command line: parses arguments and hands over to the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use feedmine::patterns::{MiningParams, Mode};

#[derive(Parser)]
#[command(name = "feedmine", version, about = "Turns websites that have no feed into RSS feeds")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show what would be published for a page, and why.
    Preview {
        /// URL or local file.
        target: String,
        /// Resolve links against this URL (for local files).
        #[arg(long)]
        base_url: Option<url::Url>,
        #[arg(long)]
        json: bool,
        #[arg(long, default_value = "structural")]
        mode: Mode,
    },
    /// Measure the extractors on labelled data.
    Eval {
        #[command(subcommand)]
        what: EvalWhat,
    },
}

#[derive(Subcommand)]
enum EvalWhat {
    /// List pages: DIR/<case>/{page.html, expected.json}.
    Lists {
        dir: PathBuf,
        #[arg(long, default_value = "structural")]
        mode: Mode,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: anyhow::Result<()> = match cli.command {
        Command::Preview { target, base_url, json, mode } => {
            let params = MiningParams { mode, ..MiningParams::default() };
            preview(&target, base_url, json, &params)
        }
        Command::Eval { what: EvalWhat::Lists { dir, mode } } => {
            let params = MiningParams { mode, ..MiningParams::default() };
            feedmine::commands::eval_lists(&dir, &params, &mut std::io::stdout().lock())
                .map(|_| ())
                .map_err(Into::into)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("feedmine: {err:#}");
            ExitCode::from(2)
        }
    }
}

fn preview(target: &str, base_url: Option<url::Url>, json: bool, params: &MiningParams) -> anyhow::Result<()> {
    use anyhow::Context;
    let url = feedmine::fetch::resolve_target(target)?;
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let fetcher = feedmine::fetch::Fetcher::new(feedmine::fetch::FetchOptions::default())?;
    let page = rt.block_on(fetcher.fetch(&url)).with_context(|| format!("fetching {target}"))?;
    let base = base_url.unwrap_or(page.final_url);
    let dates = feedmine::commands::default_date_context();
    let list = feedmine::pipeline::analyze_list(&page.text, &base, params, &dates);
    let p = feedmine::commands::preview_of(&list, &base);
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &p)?;
        use std::io::Write;
        writeln!(out)?;
    } else {
        feedmine::commands::write_preview(&p, &mut out)?;
    }
    Ok(())
}
