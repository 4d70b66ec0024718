//! `arena view`: one game of a `games.jsonl` file as a self-contained HTML
//! page, drawn by the game's engine ([`game::Game::html_page`]; an engine
//! program's own page, or the generic page of its events; see
//! [`crate::session::view`], which makes it).

use super::{Failure, exit, unwritten, usage};
use crate::session::recorded::RecordedEngine;
use crate::session::view::{self, ViewRequest};
use crate::terminal::console::{self, outln};
use clap::Args;
use std::path::PathBuf;

/// Examples shown by `arena view --help`.
pub const EXAMPLES: &str = "Examples:
  arena view results/games.jsonl --game 3 -o game3.html
  arena view results/games.jsonl --game 0 > game0.html
  arena view results --game 3 --step 41 -o game3.html   # opens after the first 41 events
  arena view results --game 3 --step 41 --mark 'recorded pass, new chose raise' -o game3.html";

/// The flags of `arena view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// The games file (`games.jsonl` of `arena match --out` or `arena league --out`), or that directory.
    #[arg(value_name = "GAMES")]
    file: PathBuf,
    /// The id of the game to show.
    #[arg(long, value_name = "ID")]
    game: u64,
    /// The position the page opens at: after the first N events (the page's
    /// `#step=N`; an address that gives a step of its own wins).
    #[arg(long, value_name = "N")]
    step: Option<usize>,
    /// With --step: mark that position as a decision, with TEXT over the
    /// page (what `arena replay` found there: the recorded move and the new one).
    #[arg(long, value_name = "TEXT", requires = "step")]
    mark: Option<String>,
    /// Where to write the page; `-` (the default) is standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE", default_value = "-")]
    output: String,
    /// For a game of an engine program: the engine asked for its own page,
    /// if it draws one (without either flag, the page is the generic page of
    /// the game's events and nothing runs).
    #[command(flatten)]
    recorded: RecordedEngine,
}

/// Runs `arena view`: the page made, then written to `--output` (`-`:
/// standard output).
pub fn run(args: ViewArgs) -> Result<i32, Failure> {
    let page = view::page(&ViewRequest {
        file: args.file,
        game: args.game,
        step: args.step,
        mark: args.mark,
        recorded: args.recorded,
    })?;
    let output = args.output.as_str();
    if output == "-" {
        console::out_bytes(page.as_bytes()).map_err(unwritten)?;
        return Ok(exit::SUCCESS);
    }
    std::fs::write(output, &page).map_err(|e| usage(format!("cannot write {output}: {e}")))?;
    outln!("wrote {output}").map_err(unwritten)?;
    Ok(exit::SUCCESS)
}
