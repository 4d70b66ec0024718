//! `arena view`: one game of a `games.jsonl` file as a self-contained HTML
//! page, drawn by the game's engine ([`Game::html_page`]).

use super::{Failure, usage};
use crate::game::Game;
use crate::games::{GameCommand, dispatch};
use crate::output::scan_file;
use crate::record::GameRecord;
use clap::Args;
use serde::Deserialize;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

/// Examples shown by `arena view --help`.
pub const EXAMPLES: &str = "Examples:
  arena view results/games.jsonl --game 3 -o game3.html
  arena view results/games.jsonl --game 0 > game0.html";

/// The flags of `arena view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// The games file (`games.jsonl` of `arena match --out` or `arena league --out`).
    #[arg(value_name = "GAMES_JSONL")]
    file: PathBuf,
    /// The id of the game to show.
    #[arg(long, value_name = "ID")]
    game: u64,
    /// Where to write the page; `-` (the default) is standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE", default_value = "-")]
    output: String,
}

/// The one field of a record needed to choose the engine.
#[derive(Deserialize)]
struct Header {
    game: String,
}

/// Runs `arena view`.
pub fn run(args: ViewArgs) -> Result<i32, Failure> {
    let name = args.file.display().to_string();
    let scan = scan_file(&args.file).map_err(usage)?;
    if scan.good_bytes < scan.total_bytes {
        eprintln!("warning: {name}: ignoring a last line that is cut short");
    }
    let Some(index) = scan.games.iter().position(|g| g.id == args.game) else {
        let ids: Vec<u64> = scan.games.iter().map(|g| g.id).collect();
        return Err(usage(match ids.is_empty() {
            true => format!("{name} holds no games"),
            false => format!("{name} has no game {}; its games are {}", args.game, id_ranges(ids)),
        }));
    };
    let line = read_span(&args.file, scan.spans[index]).map_err(|e| usage(format!("cannot read {name}: {e}")))?;
    let header: Header =
        serde_json::from_str(&line).map_err(|e| usage(format!("{name}: game {} has no game name: {e}", args.game)))?;
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
        serde_json::from_str::<GameRecord<G::Variant, G::Event>>(self.line)?;
        Ok(G::html_page(self.line))
    }
}

/// The line at `span` (byte offset, length) of `path`.
fn read_span(path: &std::path::Path, (offset, length): (u64, usize)) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::Start(offset))?;
    let mut line = String::with_capacity(length);
    file.take(length as u64).read_to_string(&mut line)?;
    Ok(line)
}

/// Writes the page to `output` (`-`: standard output).
fn write_page(output: &str, page: &str) -> Result<(), Failure> {
    if output == "-" {
        let mut stdout = std::io::stdout().lock();
        return stdout
            .write_all(page.as_bytes())
            .and_then(|()| stdout.flush())
            .map_err(|e| usage(format!("cannot write the page to standard output: {e}")));
    }
    std::fs::write(output, page).map_err(|e| usage(format!("cannot write {output}: {e}")))?;
    println!("wrote {output}");
    Ok(())
}

/// Ids as runs, e.g. `0-3, 5, 7-9`.
fn id_ranges(mut ids: Vec<u64>) -> String {
    ids.sort_unstable();
    ids.dedup();
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for id in ids {
        match runs.last_mut() {
            Some((_, last)) if *last + 1 == id => *last = id,
            _ => runs.push((id, id)),
        }
    }
    let run = |&(first, last): &(u64, u64)| match first == last {
        true => first.to_string(),
        false => format!("{first}-{last}"),
    };
    runs.iter().map(run).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_listed_as_runs() {
        assert_eq!(id_ranges(vec![3, 0, 1, 2, 5, 9, 7, 8]), "0-3, 5, 7-9");
        assert_eq!(id_ranges(vec![4]), "4");
    }
}
