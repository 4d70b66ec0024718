//! Changes of a running league's field, queued in its output directory.
//!
//! `arena league --resume DIR --bot …` / `--retire …` while another arena
//! runs the league in `DIR` cannot change `DIR/league.json` itself (the
//! running arena holds the directory): it writes the change, checked, to
//! `DIR/changes/`, and the running arena takes it in once the games in flight
//! have ended. A resume takes in whatever is still queued.
//!
//! Anyone who may write to `DIR` may plant anything in `DIR/changes/`, so the
//! queue is read and written like every other file of the output directory:
//! no link is followed (files are opened with `O_NOFOLLOW`, and written to a
//! fresh temporary file then renamed over their name), only regular files of
//! at most [`MAX_CHANGE_BYTES`] are read (opened with `O_NONBLOCK`, so a FIFO
//! cannot block the arena), and anything else is set aside once, with one
//! warning, as `NAME.refused`.

use crate::bot::spec::BotSpec;
use crate::store::output::write_atomically;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The folder of an output directory that holds queued changes.
pub const QUEUE: &str = "changes";

/// The most bytes a queued change's file may hold; a larger file is not read.
pub const MAX_CHANGE_BYTES: u64 = 1 << 20;

/// The ending of a queued change's file name.
const QUEUED: &str = ".json";

/// The ending of a queued change the league refused (kept, for the operator to read).
const REFUSED: &str = ".refused";

/// The entries of the queue this process refused but could not set aside
/// (by path and inode): ignored from then on, so that each is refused once.
static IGNORED: Mutex<BTreeSet<(PathBuf, u64)>> = Mutex::new(BTreeSet::new());

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
        error: io::Error,
    },
    /// The change cannot be written.
    Unwritten {
        /// Its file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A queued change cannot be read.
    Unreadable {
        /// Its file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// A queued change is not a regular file (a link, a FIFO, a directory…).
    NotAFile {
        /// Its name in the queue.
        path: PathBuf,
        /// What it is instead, e.g. "a symbolic link".
        kind: &'static str,
    },
    /// A queued change's file is larger than [`MAX_CHANGE_BYTES`].
    TooLarge {
        /// Its file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// A queued change is not a change.
    NotAChange {
        /// Its file.
        path: PathBuf,
        /// Why.
        error: serde_json::Error,
    },
    /// A queued change's `at` is not a time as the arena writes it.
    NotATime {
        /// Its file.
        path: PathBuf,
    },
}

impl fmt::Display for QueueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueueError::Unmade { folder, error } => write!(
                f,
                "cannot make {}: {error} (it must be a directory of its own, not a link: remove whatever holds its name)",
                folder.display()
            ),
            QueueError::Unwritten { path, error } => write!(f, "cannot write {}: {error}", path.display()),
            QueueError::Unreadable { path, error } => write!(f, "cannot read {}: {error}", path.display()),
            QueueError::NotAFile { path, kind } => write!(
                f,
                "{} is {kind}, not a regular file, so it is not a change (a queued change is a file that `arena \
                 league --resume DIR --bot …` or `--retire …` writes; queue a change with that command)",
                path.display()
            ),
            QueueError::TooLarge { path, size } => write!(
                f,
                "{} holds {size} bytes, more than the {MAX_CHANGE_BYTES} a queued change may, so it is not a change \
                 (queue a change with `arena league --resume DIR --bot …` or `--retire …`)",
                path.display()
            ),
            QueueError::NotAChange { path, error } => write!(f, "{} is not a change: {error}", path.display()),
            QueueError::NotATime { path } => write!(
                f,
                "{} is not a change: its \"at\" is not a time written as YYYY-MM-DDTHH:MM:SSZ",
                path.display()
            ),
        }
    }
}

impl std::error::Error for QueueError {}

/// A queued change read back: its file and what it holds (or why it cannot be read).
pub type Queued = (PathBuf, Result<Request, QueueError>);

/// Queues `request` in the output directory `dir`: written to a temporary
/// file created exclusively, synced, then renamed, so a reader sees it whole
/// or not at all, and no link planted in the queue is followed. Returns the
/// path of the queued change. Changes are taken in by the order of their
/// names: the time they were queued, then the queuing process.
pub fn queue(dir: &Path, request: &Request, now_ns: u128) -> Result<PathBuf, QueueError> {
    let folder = dir.join(QUEUE);
    let unmade = |error| QueueError::Unmade { folder: folder.clone(), error };
    match fs::create_dir(&folder) {
        Err(error) if error.kind() != io::ErrorKind::AlreadyExists => return Err(unmade(error)),
        _ => {}
    }
    if !fs::symlink_metadata(&folder).map_err(unmade)?.is_dir() {
        return Err(unmade(io::Error::other("it is not a directory")));
    }
    let path = folder.join(format!("{now_ns:030}-{}{QUEUED}", std::process::id()));
    let json = serde_json::to_string_pretty(request).expect("requests serialize");
    write_atomically(&path, json.as_bytes()).map_err(|error| QueueError::Unwritten { path: path.clone(), error })?;
    Ok(path)
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
            let read = read(&path).and_then(|bytes| {
                let request: Request = serde_json::from_slice(&bytes)
                    .map_err(|error| QueueError::NotAChange { path: path.clone(), error })?;
                match is_time(&request.at) {
                    true => Ok(request),
                    false => Err(QueueError::NotATime { path: path.clone() }),
                }
            });
            (path, read)
        })
        .collect()
}

/// Removes the queued changes at `paths`, taken in: the league's
/// configuration now holds them. (Removing a name never follows a link.)
pub fn remove(paths: &[PathBuf]) {
    for path in paths {
        let _ = fs::remove_file(path);
    }
}

/// Sets aside a queued change the league refused, as `NAME.refused` beside
/// it, so that it is refused once: a regular file is written there anew with
/// the reason at its top, through a temporary file renamed over the name
/// (never following a link planted there), and removed from the queue;
/// anything else (a link, a FIFO, a directory, a file too large) is renamed
/// as it is. Returns the new path, or why it could not be set aside: it is
/// then ignored for the rest of this process.
pub fn refuse(path: &Path, why: &str) -> Result<PathBuf, io::Error> {
    let refused = path.with_extension(&REFUSED[1..]);
    let set_aside = match read(path) {
        Ok(bytes) => {
            let mut text = format!("refused: {why}\n").into_bytes();
            text.extend_from_slice(&bytes);
            write_atomically(&refused, &text).and_then(|()| fs::remove_file(path))
        }
        Err(_) => fs::rename(path, &refused),
    };
    match set_aside {
        Ok(()) => Ok(refused),
        Err(error) => {
            if let Ok(meta) = fs::symlink_metadata(path) {
                IGNORED.lock().unwrap_or_else(|e| e.into_inner()).insert((path.to_path_buf(), meta.ino()));
            }
            Err(error)
        }
    }
}

/// The bytes of the queued change at `path`, read safely: opened without
/// following a link and without blocking (a FIFO), and only if it is a
/// regular file of at most [`MAX_CHANGE_BYTES`].
fn read(path: &Path) -> Result<Vec<u8>, QueueError> {
    let unreadable = |error| QueueError::Unreadable { path: path.to_path_buf(), error };
    let file =
        OpenOptions::new().read(true).custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK).open(path).map_err(
            |error| match error.raw_os_error() {
                Some(nix::libc::ELOOP) => QueueError::NotAFile { path: path.to_path_buf(), kind: "a symbolic link" },
                _ => unreadable(error),
            },
        )?;
    let meta = file.metadata().map_err(unreadable)?;
    if !meta.is_file() {
        return Err(QueueError::NotAFile { path: path.to_path_buf(), kind: kind(meta.file_type()) });
    }
    if meta.len() > MAX_CHANGE_BYTES {
        return Err(QueueError::TooLarge { path: path.to_path_buf(), size: meta.len() });
    }
    let mut bytes = Vec::new();
    file.take(MAX_CHANGE_BYTES + 1).read_to_end(&mut bytes).map_err(unreadable)?;
    if bytes.len() as u64 > MAX_CHANGE_BYTES {
        // It grew after it was looked at.
        return Err(QueueError::TooLarge { path: path.to_path_buf(), size: bytes.len() as u64 });
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, for a message.
fn kind(file_type: fs::FileType) -> &'static str {
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_block_device() || file_type.is_char_device() {
        "a device"
    } else {
        "not a file"
    }
}

/// Whether `at` is a time as [`crate::league::utc`] writes it: `YYYY-MM-DDTHH:MM:SSZ`.
pub fn is_time(at: &str) -> bool {
    let shape = b"dddd-dd-ddTdd:dd:ddZ";
    at.len() == shape.len()
        && at.bytes().zip(shape).all(|(c, &want)| if want == b'd' { c.is_ascii_digit() } else { c == want })
}

/// The files of queued changes in `dir`, in no order: nothing when the
/// queue's folder is not a directory of its own (a link is not followed).
fn names(dir: &Path) -> impl Iterator<Item = PathBuf> {
    let folder = dir.join(QUEUE);
    let real = fs::symlink_metadata(&folder).is_ok_and(|meta| meta.is_dir());
    let entries = real.then(|| fs::read_dir(&folder).ok()).flatten();
    entries.into_iter().flatten().flatten().filter_map(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !name.ends_with(QUEUED) {
            return None;
        }
        let path = entry.path();
        let ino = entry.metadata().ok()?.ino();
        let ignored = IGNORED.lock().unwrap_or_else(|e| e.into_inner()).contains(&(path.clone(), ino));
        (!ignored).then_some(path)
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
        let refused = refuse(&first, "a has retired already").unwrap();
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

    #[test]
    fn a_link_a_fifo_a_directory_or_a_large_file_is_refused_once_and_nothing_outside_is_touched() {
        let dir = scratch("hostile");
        let folder = dir.join(QUEUE);
        fs::create_dir_all(&folder).unwrap();
        let victim = dir.join("victim");
        fs::write(&victim, "precious").unwrap();
        let change = serde_json::to_string(&request("2026-01-01T00:00:01Z", &["a"])).unwrap();
        // A link as a change, and a link where its refusal would be written.
        std::os::unix::fs::symlink(&victim, folder.join("1-link.json")).unwrap();
        fs::write(folder.join("2-bad.json"), "{\"at\":").unwrap();
        std::os::unix::fs::symlink(&victim, folder.join("2-bad.refused")).unwrap();
        nix::unistd::mkfifo(&folder.join("3-fifo.json"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        fs::create_dir(folder.join("4-dir.json")).unwrap();
        fs::write(folder.join("5-large.json"), vec![b' '; MAX_CHANGE_BYTES as usize + 1]).unwrap();
        fs::write(folder.join("6-escape.json"), change.replace("2026-01-01T00:00:01Z", "\\u001b]0;owned\\u0007"))
            .unwrap();
        let queued = pending(&dir);
        let why: Vec<String> = queued.iter().map(|(_, read)| read.as_ref().unwrap_err().to_string()).collect();
        for (at, expected) in [
            (0, "is a symbolic link, not a regular file"),
            (1, "is not a change"),
            (2, "is a FIFO, not a regular file"),
            (3, "is a directory, not a regular file"),
            (4, &format!("holds {} bytes, more than the {MAX_CHANGE_BYTES}", MAX_CHANGE_BYTES + 1)),
            (5, "its \"at\" is not a time"),
        ] {
            assert!(why[at].contains(expected), "{at}: {}", why[at]);
        }
        for (path, read) in &queued {
            let kept = refuse(path, &read.as_ref().unwrap_err().to_string()).unwrap();
            assert!(kept.to_string_lossy().ends_with(REFUSED), "{}", kept.display());
        }
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        // The planted link was replaced, not followed; the refused are no longer queued.
        assert!(fs::read_to_string(folder.join("2-bad.refused")).unwrap().starts_with("refused: "));
        assert!(fs::symlink_metadata(folder.join("1-link.refused")).unwrap().file_type().is_symlink());
        assert!(!any(&dir));
        // What cannot be set aside (a directory holding its refused name) is ignored from then on.
        fs::create_dir(folder.join("7-stuck.json")).unwrap();
        fs::create_dir_all(folder.join("7-stuck.refused/full")).unwrap();
        let (path, read) = pending(&dir).remove(0);
        assert!(refuse(&path, &read.unwrap_err().to_string()).is_err());
        assert!(!any(&dir) && pending(&dir).is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_queue_that_is_a_link_is_neither_read_nor_written() {
        let dir = scratch("linked");
        let elsewhere = scratch("linked-elsewhere");
        fs::write(elsewhere.join("1-1.json"), serde_json::to_string(&request("2026-01-01T00:00:01Z", &[])).unwrap())
            .unwrap();
        std::os::unix::fs::symlink(&elsewhere, dir.join(QUEUE)).unwrap();
        assert!(!any(&dir));
        let error = queue(&dir, &request("2026-01-01T00:00:01Z", &["a"]), 1).unwrap_err().to_string();
        assert!(error.contains("it is not a directory"), "{error}");
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
        fs::remove_dir_all(&elsewhere).unwrap();
    }

    #[test]
    fn times_are_checked() {
        assert!(is_time("2026-12-04T09:30:00Z"));
        for bad in ["", "2026-12-04 09:30:00Z", "2026-12-04T09:30:00Z\u{1b}", "\u{1b}]0;x\u{7}aaaaaaaaaaaaa"] {
            assert!(!is_time(bad), "{bad:?}");
        }
    }
}
