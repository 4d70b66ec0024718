//! Reading a `games.jsonl` file given on the command line: line by line, or
//! one game by id, each record handed to its game by name.

use crate::store::output::{GAMES, OutputError, TooLong, read_record_line, scan_file};
use crate::terminal::console::errln;
use serde::Deserialize;
use std::fmt;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Why a records file, or a line of it, cannot be read.
#[derive(Debug)]
pub enum RecordFileError {
    /// The file cannot be opened.
    Unopenable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A line cannot be read.
    Line {
        /// The file, as shown.
        file: String,
        /// The line's number, from 1.
        number: usize,
        /// Why.
        error: std::io::Error,
    },
    /// A line is not UTF-8.
    NotText {
        /// The file, as shown.
        file: String,
        /// The line's number, from 1.
        number: usize,
        /// Why.
        error: std::str::Utf8Error,
    },
    /// The file cannot be scanned for its games.
    Scan(OutputError),
    /// The file holds no games.
    NoGames {
        /// The file, as shown.
        file: String,
    },
    /// The file has no game of this id.
    NoSuchGame {
        /// The file, as shown.
        file: String,
        /// The id asked for.
        id: u64,
        /// The ids of its games.
        ids: Vec<u64>,
    },
    /// The game's line cannot be read.
    Unreadable {
        /// The file, as shown.
        file: String,
        /// Why.
        error: std::io::Error,
    },
}

impl fmt::Display for RecordFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordFileError::Unopenable { path, error } => write!(f, "cannot open {}: {error}", path.display()),
            RecordFileError::Line { file, number, error } => write!(f, "{file}: cannot read line {number}: {error}"),
            RecordFileError::NotText { file, number, error } => {
                write!(f, "{file}: cannot read line {number}: {error}")
            }
            RecordFileError::Scan(error) => error.fmt(f),
            RecordFileError::NoGames { file } => write!(f, "{file} holds no games"),
            RecordFileError::NoSuchGame { file, id, ids } => {
                write!(f, "{file} has no game {id}; its games are {}", id_ranges(ids.clone()))
            }
            RecordFileError::Unreadable { file, error } => write!(f, "cannot read {file}: {error}"),
        }
    }
}

impl std::error::Error for RecordFileError {}

impl From<OutputError> for RecordFileError {
    fn from(error: OutputError) -> Self {
        RecordFileError::Scan(error)
    }
}

/// Why a line of a records file is not a game record.
#[derive(Debug)]
pub enum HeaderError {
    /// The line is too long to be a record.
    TooLong(TooLong),
    /// The line does not say which game it is.
    NotARecord(serde_json::Error),
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::TooLong(error) => error.fmt(f),
            HeaderError::NotARecord(error) => write!(f, "not a game record: {error}"),
        }
    }
}

impl std::error::Error for HeaderError {}

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
    pub header: Result<Header, HeaderError>,
}

/// Every non-blank line of the records file at `path`, in order. A line
/// longer than [`crate::store::output::MAX_RECORD_BYTES`] is not kept: it comes with an empty text
/// and an error as its header.
pub fn lines(path: &Path) -> Result<impl Iterator<Item = Result<Line, RecordFileError>>, RecordFileError> {
    let file =
        std::fs::File::open(path).map_err(|error| RecordFileError::Unopenable { path: path.to_path_buf(), error })?;
    let shown = path.display().to_string();
    let mut reader = BufReader::new(file);
    let mut bytes = Vec::new();
    let mut number = 0;
    let lines = std::iter::from_fn(move || {
        loop {
            number += 1;
            let text = match read_record_line(&mut reader, &mut bytes) {
                Err(error) => return Some(Err(RecordFileError::Line { file: shown.clone(), number, error })),
                Ok(Ok(0)) => return None,
                Ok(Err(too_long)) => {
                    return Some(Ok(Line { number, text: String::new(), header: Err(HeaderError::TooLong(too_long)) }));
                }
                Ok(Ok(_)) => match std::str::from_utf8(&bytes) {
                    Ok(text) => {
                        let text = text.strip_suffix('\n').unwrap_or(text);
                        text.strip_suffix('\r').unwrap_or(text)
                    }
                    Err(error) => return Some(Err(RecordFileError::NotText { file: shown.clone(), number, error })),
                },
            };
            if text.trim().is_empty() {
                continue;
            }
            let header = serde_json::from_str::<Header>(text).map_err(HeaderError::NotARecord);
            return Some(Ok(Line { number, text: text.to_string(), header }));
        }
    });
    Ok(lines)
}

/// The line of the record of game `id` in the records file at `path`. A
/// damaged line is refused unless it is the last one (cut short by an
/// interruption), which is skipped with a warning.
pub fn find(path: &Path, id: u64) -> Result<String, RecordFileError> {
    let name = path.display();
    let file = || name.to_string();
    let scan = scan_file(path)?;
    if scan.good_bytes < scan.total_bytes {
        errln!("warning: {name}: ignoring a last line that is cut short");
    }
    let Some(index) = scan.games.iter().position(|game| game.id == id) else {
        let ids: Vec<u64> = scan.games.iter().map(|game| game.id).collect();
        return Err(match ids.is_empty() {
            true => RecordFileError::NoGames { file: file() },
            false => RecordFileError::NoSuchGame { file: file(), id, ids },
        });
    };
    read_span(path, scan.spans[index]).map_err(|error| RecordFileError::Unreadable { file: file(), error })
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
