//! `arena view`: one game of a `games.jsonl` file as a self-contained HTML
//! page, drawn by the game's engine ([`Game::html_page`]).

use super::record_file::{self, Header};
use super::{Failure, unwritten, usage};
use crate::console::{self, outln};
use crate::games::{GameCommand, dispatch};
use crate::record::RecordOf;
use clap::Args;
use game::Game;
use std::path::PathBuf;

/// Examples shown by `arena view --help`.
pub const EXAMPLES: &str = "Examples:
  arena view results/games.jsonl --game 3 -o game3.html
  arena view results/games.jsonl --game 0 > game0.html";

/// The flags of `arena view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// The games file (`games.jsonl` of `arena match --out` or `arena league --out`), or that directory.
    #[arg(value_name = "GAMES")]
    file: PathBuf,
    /// The id of the game to show.
    #[arg(long, value_name = "ID")]
    game: u64,
    /// Where to write the page; `-` (the default) is standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE", default_value = "-")]
    output: String,
}

/// Runs `arena view`.
pub fn run(args: ViewArgs) -> Result<i32, Failure> {
    let path = record_file::resolve(&args.file);
    let name = path.display().to_string();
    let line = record_file::find(&path, args.game)?;
    let header: Header =
        serde_json::from_str(&line).map_err(|e| usage(format!("{name}: game {} has no game name: {e}", args.game)))?;
    if header.engine.is_some() {
        // A game of an engine program: the generic page of its events.
        serde_json::from_str::<crate::record::JsonRecord>(&line)
            .map_err(|e| usage(format!("{name}: game {} is not a valid record: {e}", args.game)))?;
        write_page(&args.output, &crate::engine::spec::html_page(&header.game, true, &line))?;
        return Ok(0);
    }
    let page = dispatch(&header.game, Render { line: &line })
        .map_err(|e| usage(format!("{name}: game {} is a record of another game: {e}", args.game)))?
        .map_err(|e| usage(format!("{name}: game {} is not a valid {} record: {e}", args.game, header.game)))?;
    write_page(&args.output, &page)?;
    Ok(0)
}

/// Checks a record against its engine's types, then renders its page.
struct Render<'a> {
    line: &'a str,
}

impl GameCommand for Render<'_> {
    type Output = Result<String, serde_json::Error>;
    fn run<G: Game>(self) -> Self::Output {
        serde_json::from_str::<RecordOf<G>>(self.line)?;
        Ok(G::html_page(self.line))
    }
}

/// Writes the page to `output` (`-`: standard output).
fn write_page(output: &str, page: &str) -> Result<(), Failure> {
    if output == "-" {
        return console::out_bytes(page.as_bytes()).map_err(unwritten);
    }
    std::fs::write(output, page).map_err(|e| usage(format!("cannot write {output}: {e}")))?;
    outln!("wrote {output}").map_err(unwritten)?;
    Ok(())
}
