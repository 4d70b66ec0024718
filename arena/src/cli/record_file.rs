//! Reading a `games.jsonl` file given on the command line: line by line, or
//! one game by id, each record handed to its game by name.

use super::{Failure, usage};
use crate::output::GAMES;
use serde::Deserialize;
use std::io::{BufRead, BufReader};
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

/// Every non-blank line of the records file at `path`, in order.
pub fn lines(path: &Path) -> Result<impl Iterator<Item = Result<Line, Failure>>, Failure> {
    let file = std::fs::File::open(path).map_err(|e| usage(format!("cannot open {}: {e}", path.display())))?;
    let shown = path.display().to_string();
    let lines = BufReader::new(file).lines().enumerate().filter_map(move |(index, line)| match line {
        Err(e) => Some(Err(usage(format!("{shown}: cannot read line {}: {e}", index + 1)))),
        Ok(text) if text.trim().is_empty() => None,
        Ok(text) => {
            let header = serde_json::from_str::<Header>(&text).map_err(|e| format!("not a game record: {e}"));
            Some(Ok(Line { number: index + 1, text, header }))
        }
    });
    Ok(lines)
}

/// The line of the record of game `id` in the records file at `path`.
pub fn find(path: &Path, id: u64) -> Result<Line, Failure> {
    let mut ids = Vec::new();
    for line in lines(path)? {
        let line = line?;
        if let Ok(header) = &line.header {
            if header.id == id {
                return Ok(line);
            }
            ids.push(header.id);
        }
    }
    Err(usage(format!("{} has no game {id}{}", path.display(), available(&mut ids))))
}

/// The ids in the file, in words: "; its games are 0 to 99" or a short list.
fn available(ids: &mut [u64]) -> String {
    ids.sort_unstable();
    match &*ids {
        [] => "; it holds no game records".to_string(),
        [first, .., last] if (last - first) as usize + 1 == ids.len() => format!("; its games are {first} to {last}"),
        _ if ids.len() <= 10 => {
            format!("; its games are {}", ids.iter().map(u64::to_string).collect::<Vec<_>>().join(", "))
        }
        _ => format!("; it holds {} games, ids {} to {}", ids.len(), ids[0], ids[ids.len() - 1]),
    }
}
