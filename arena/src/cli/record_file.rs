//! Reading a `games.jsonl` file given on the command line: line by line, or
//! one game by id, each record handed to its game by name.

use super::{Failure, usage};
use crate::store::output::{GAMES, read_record_line, scan_file};
use crate::terminal::console::errln;
use serde::Deserialize;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The file of records at `path`: the file itself, or `games.jsonl` in a directory.
pub fn resolve(path: &Path) -> PathBuf {
    if path.is_dir() { path.join(GAMES) } else { path.to_path_buf() }
}

/// What every record says first: which game it is.
#[derive(Debug, Deserialize)]
pub struct Header {
    /// The game's id.
    pub id: u64,
    /// The game's name.
    pub game: String,
    /// The engine program that played it, when it is not a built-in game.
    #[serde(default)]
    pub engine: Option<crate::engine::spec::Identity>,
}

/// A line of the file: its number (from 1), its text and what it says it is.
pub struct Line {
    /// The line's number, from 1.
    pub number: usize,
    /// The record's JSON text.
    pub text: String,
    /// Its id and game, or why they cannot be read.
    pub header: Result<Header, String>,
}

/// Every non-blank line of the records file at `path`, in order. A line
/// longer than [`crate::store::output::MAX_RECORD_BYTES`] is not kept: it comes with an empty text
/// and an error as its header.
pub fn lines(path: &Path) -> Result<impl Iterator<Item = Result<Line, Failure>>, Failure> {
    let file = std::fs::File::open(path).map_err(|e| usage(format!("cannot open {}: {e}", path.display())))?;
    let shown = path.display().to_string();
    let mut reader = BufReader::new(file);
    let mut bytes = Vec::new();
    let mut number = 0;
    let lines = std::iter::from_fn(move || {
        loop {
            number += 1;
            let text = match read_record_line(&mut reader, &mut bytes) {
                Err(e) => return Some(Err(usage(format!("{shown}: cannot read line {number}: {e}")))),
                Ok(Ok(0)) => return None,
                Ok(Err(too_long)) => {
                    return Some(Ok(Line { number, text: String::new(), header: Err(too_long.to_string()) }));
                }
                Ok(Ok(_)) => match std::str::from_utf8(&bytes) {
                    Ok(text) => {
                        let text = text.strip_suffix('\n').unwrap_or(text);
                        text.strip_suffix('\r').unwrap_or(text)
                    }
                    Err(e) => return Some(Err(usage(format!("{shown}: cannot read line {number}: {e}")))),
                },
            };
            if text.trim().is_empty() {
                continue;
            }
            let header = serde_json::from_str::<Header>(text).map_err(|e| format!("not a game record: {e}"));
            return Some(Ok(Line { number, text: text.to_string(), header }));
        }
    });
    Ok(lines)
}

/// The line of the record of game `id` in the records file at `path`. A
/// damaged line is refused unless it is the last one (cut short by an
/// interruption), which is skipped with a warning.
pub fn find(path: &Path, id: u64) -> Result<String, Failure> {
    let name = path.display();
    let scan = scan_file(path).map_err(usage)?;
    if scan.good_bytes < scan.total_bytes {
        errln!("warning: {name}: ignoring a last line that is cut short");
    }
    let Some(index) = scan.games.iter().position(|game| game.id == id) else {
        let ids: Vec<u64> = scan.games.iter().map(|game| game.id).collect();
        return Err(usage(match ids.is_empty() {
            true => format!("{name} holds no games"),
            false => format!("{name} has no game {id}; its games are {}", id_ranges(ids)),
        }));
    };
    read_span(path, scan.spans[index]).map_err(|e| usage(format!("cannot read {name}: {e}")))
}

/// The line at `span` (byte offset, length) of `path`.
fn read_span(path: &Path, (offset, length): (u64, usize)) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::Start(offset))?;
    let mut line = String::with_capacity(length);
    file.take(length as u64).read_to_string(&mut line)?;
    Ok(line)
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
