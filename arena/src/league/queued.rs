//! Changes of a running league's field, queued in its output directory.
//!
//! `arena league --resume DIR --bot …` / `--retire …` while another arena
//! runs the league in `DIR` cannot change `DIR/league.json` itself (the
//! running arena holds the directory): it writes the change, checked, to
//! `DIR/changes/`, and the running arena takes it in once the games in flight
//! have ended. A resume takes in whatever is still queued.

use crate::bot::spec::BotSpec;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The folder of an output directory that holds queued changes.
pub const QUEUE: &str = "changes";

/// The ending of a queued change's file name.
const QUEUED: &str = ".json";

/// The ending of a queued change the league refused (kept, for the operator to read).
const REFUSED: &str = ".refused";

/// A change of a league's field, as `--bot` and `--retire` gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// When it was asked for, as [`crate::league::utc`] writes it.
    pub at: String,
    /// The bots that enter, checked.
    #[serde(default)]
    pub entering: Vec<BotSpec>,
    /// The bots that retire, by name.
    #[serde(default)]
    pub retiring: Vec<String>,
}

/// Why a change cannot be queued, or a queued change read back.
#[derive(Debug)]
pub enum QueueError {
    /// The folder of queued changes cannot be made.
    Unmade {
        /// The folder.
        folder: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The change cannot be written.
    Unwritten {
        /// Its file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A queued change cannot be read.
    Unreadable {
        /// Its file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A queued change is not a change.
    NotAChange {
        /// Its file.
        path: PathBuf,
        /// Why.
        error: serde_json::Error,
    },
}

impl fmt::Display for QueueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueueError::Unmade { folder, error } => write!(f, "cannot make {}: {error}", folder.display()),
            QueueError::Unwritten { path, error } => write!(f, "cannot write {}: {error}", path.display()),
            QueueError::Unreadable { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            QueueError::NotAChange { path, error } => write!(f, "{} is not a change: {error}", path.display()),
        }
    }
}

impl std::error::Error for QueueError {}

/// A queued change read back: its file and what it holds (or why it cannot be read).
pub type Queued = (PathBuf, Result<Request, QueueError>);

/// Queues `request` in the output directory `dir`: written to a temporary
/// file, synced, then renamed, so a reader sees it whole or not at all.
/// Returns the path of the queued change. Changes are taken in by the order
/// of their names: the time they were queued, then the queuing process.
pub fn queue(dir: &Path, request: &Request, now_ns: u128) -> Result<PathBuf, QueueError> {
    let folder = dir.join(QUEUE);
    fs::create_dir_all(&folder).map_err(|error| QueueError::Unmade { folder: folder.clone(), error })?;
    let name = format!("{now_ns:030}-{}", std::process::id());
    let temporary = folder.join(format!(".{name}.tmp"));
    let path = folder.join(format!("{name}{QUEUED}"));
    let json = serde_json::to_string_pretty(request).expect("requests serialize");
    let written = fs::File::create(&temporary).and_then(|mut file| {
        file.write_all(json.as_bytes())?;
        file.sync_all()
    });
    match written.and_then(|()| fs::rename(&temporary, &path)) {
        Ok(()) => Ok(path),
        Err(error) => Err(QueueError::Unwritten { path, error }),
    }
}

/// Whether any change is queued in `dir`.
pub fn any(dir: &Path) -> bool {
    names(dir).next().is_some()
}

/// The changes queued in `dir`, in the order they are taken in.
pub fn pending(dir: &Path) -> Vec<Queued> {
    let mut paths: Vec<PathBuf> = names(dir).collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let read = fs::read_to_string(&path)
                .map_err(|error| QueueError::Unreadable { path: path.clone(), error })
                .and_then(|text| {
                    serde_json::from_str(&text).map_err(|error| QueueError::NotAChange { path: path.clone(), error })
                });
            (path, read)
        })
        .collect()
}

/// Removes the queued changes at `paths`, taken in: the league's
/// configuration now holds them.
pub fn remove(paths: &[PathBuf]) {
    for path in paths {
        let _ = fs::remove_file(path);
    }
}

/// Sets aside a queued change the league refused, as `NAME.refused` beside
/// it, with the reason at its top; returns the new path.
pub fn refuse(path: &Path, why: &str) -> PathBuf {
    let refused = path.with_extension(&REFUSED[1..]);
    let text = fs::read_to_string(path).unwrap_or_default();
    let _ = fs::write(&refused, format!("refused: {why}\n{text}"));
    let _ = fs::remove_file(path);
    refused
}

/// The files of queued changes in `dir`, in no order.
fn names(dir: &Path) -> impl Iterator<Item = PathBuf> {
    fs::read_dir(dir.join(QUEUE)).into_iter().flatten().flatten().map(|entry| entry.path()).filter(|path| {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        !name.starts_with('.') && name.ends_with(QUEUED)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-queued-test-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn request(at: &str, retiring: &[&str]) -> Request {
        Request { at: at.to_string(), entering: Vec::new(), retiring: retiring.iter().map(|s| s.to_string()).collect() }
    }

    #[test]
    fn changes_come_back_in_the_order_they_were_queued() {
        let dir = scratch("order");
        assert!(!any(&dir) && pending(&dir).is_empty());
        let later = queue(&dir, &request("2026-01-01T00:00:02Z", &["b"]), 2_000).unwrap();
        let first = queue(&dir, &request("2026-01-01T00:00:01Z", &["a"]), 1_000).unwrap();
        // Neither a file being written nor a refused change is pending.
        fs::write(dir.join(QUEUE).join(".9-1.tmp"), "{").unwrap();
        assert!(any(&dir));
        let queued = pending(&dir);
        assert_eq!(queued.iter().map(|(path, _)| path.clone()).collect::<Vec<_>>(), [first.clone(), later.clone()]);
        assert_eq!(queued[0].1.as_ref().unwrap(), &request("2026-01-01T00:00:01Z", &["a"]));
        let refused = refuse(&first, "a has retired already");
        assert!(fs::read_to_string(&refused).unwrap().starts_with("refused: a has retired already\n{"));
        remove(&[later]);
        assert!(!any(&dir));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_change_says_so() {
        let dir = scratch("damaged");
        fs::create_dir_all(dir.join(QUEUE)).unwrap();
        fs::write(dir.join(QUEUE).join("1-1.json"), "{\"at\":").unwrap();
        let queued = pending(&dir);
        assert!(queued[0].1.as_ref().unwrap_err().to_string().contains("is not a change"), "{queued:?}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
