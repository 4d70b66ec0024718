//! The files of a run's output directory that this crate reads, read back
//! typed: `games.jsonl` ([`games`]), `standings.json` ([`standings`]) and
//! `sprt.json` ([`sprt`]).

use crate::record::GameRecord;
use crate::sprt::Sprt;
use crate::standings::Standings;
use serde::de::DeserializeOwned;
use std::fmt;
use std::path::{Path, PathBuf};

/// The name of the game records file.
pub const GAMES: &str = "games.jsonl";
/// The name of the standings file.
pub const STANDINGS: &str = "standings.json";
/// The name of an SPRT's result file.
pub const SPRT_RESULT: &str = "sprt.json";

/// Why a file of a run could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The file, or one line of it, is not what the arena writes.
    Json {
        /// The file.
        path: PathBuf,
        /// The line, from 1, in a file of one record a line.
        line: Option<usize>,
        /// Why.
        error: serde_json::Error,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            ReadError::Json { path, line: Some(line), error } => {
                write!(f, "{}, line {line}: not a record of this arena: {error}", path.display())
            }
            ReadError::Json { path, line: None, error } => {
                write!(f, "{}: not as this arena writes it: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// The text of `dir/name`.
fn text(dir: &Path, name: &str) -> Result<(PathBuf, String), ReadError> {
    let path = dir.join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok((path, text)),
        Err(error) => Err(ReadError::Io { path, error }),
    }
}

/// The records of `dir/games.jsonl`, in the file's order, each with its
/// variant read as `V` and its events as `E` (e.g. [`crate::record::JsonRecord`]).
///
/// # Errors
/// When the file cannot be read, or a line is not a record.
pub fn games<V: DeserializeOwned, E: DeserializeOwned>(dir: &Path) -> Result<Vec<GameRecord<V, E>>, ReadError> {
    let (path, text) = text(dir, GAMES)?;
    text.lines()
        .enumerate()
        .map(|(at, line)| {
            serde_json::from_str(line).map_err(|error| ReadError::Json {
                path: path.clone(),
                line: Some(at + 1),
                error,
            })
        })
        .collect()
}

/// A JSON file of `dir`, read as `T`.
fn document<T: DeserializeOwned>(dir: &Path, name: &str) -> Result<T, ReadError> {
    let (path, text) = text(dir, name)?;
    serde_json::from_str(&text).map_err(|error| ReadError::Json { path, line: None, error })
}

/// `dir/standings.json`.
///
/// # Errors
/// When the file cannot be read or is not standings.
pub fn standings(dir: &Path) -> Result<Standings, ReadError> {
    document(dir, STANDINGS)
}

/// `dir/sprt.json`.
///
/// # Errors
/// When the file cannot be read or is not an SPRT's result.
pub fn sprt(dir: &Path) -> Result<Sprt, ReadError> {
    document(dir, SPRT_RESULT)
}
