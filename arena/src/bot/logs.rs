//! The stderr logs of a run's bot processes, in `logs/` of the output
//! directory: one new file per process, `BOT.seatS.N.log`. A log is never a
//! file that exists already, nor a link planted under its name (it is
//! created with `O_EXCL`; a name in use is skipped). Each keeps at most the
//! per-process cap, and all the logs of one bot together at most its budget
//! for the run: a bot that faults every game, and so starts a process every
//! game, cannot fill the disk. Once a bot's budget is spent, the stderr of
//! its processes is still drained, but no longer written.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What a log file costs a bot's budget on top of its bytes (a block on
/// disk, and an inode), so that a bot whose processes write nothing cannot
/// make a file per game for ever either.
pub const FILE_COST: u64 = 4096;

/// The logs of one run.
#[derive(Debug)]
pub struct Logs {
    dir: PathBuf,
    budget: u64,
    /// Bytes of its budget each bot has left.
    left: Mutex<HashMap<String, Arc<AtomicU64>>>,
    /// The number of the last log (of any bot).
    number: AtomicU64,
}

impl Logs {
    /// The logs in `dir`, `budget` bytes for each bot.
    pub fn new(dir: PathBuf, budget: u64) -> Logs {
        Logs { dir, budget, left: Mutex::new(HashMap::new()), number: AtomicU64::new(0) }
    }

    /// Where the stderr of a new process of `bot` in `seat` goes.
    pub fn place(self: &Arc<Self>, bot: &str, seat: usize) -> LogPlace {
        LogPlace { logs: Arc::clone(self), bot: bot.to_string(), seat }
    }
}

/// Where the stderr of one process is to go, before the process starts.
#[derive(Debug, Clone)]
pub struct LogPlace {
    logs: Arc<Logs>,
    bot: String,
    seat: usize,
}

impl LogPlace {
    /// Creates the process's log: a new file, or `None` when the bot's budget
    /// is spent (its stderr is then drained but not kept).
    pub fn open(&self) -> io::Result<Option<Log>> {
        let logs = &self.logs;
        let left = {
            let mut left = logs.left.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(left.entry(self.bot.clone()).or_insert_with(|| Arc::new(AtomicU64::new(logs.budget))))
        };
        if take(&left, FILE_COST) < FILE_COST {
            return Ok(None);
        }
        loop {
            let number = logs.number.fetch_add(1, Ordering::Relaxed) + 1;
            let path = logs.dir.join(format!("{}.seat{}.{number}.log", self.bot, self.seat));
            match OpenOptions::new().write(true).create_new(true).custom_flags(nix::libc::O_NOFOLLOW).open(&path) {
                Ok(file) => return Ok(Some(Log { file, left, bot: self.bot.clone(), budget: logs.budget })),
                // A log of an earlier run (on resume), or something planted there.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io::Error::new(e.kind(), format!("cannot create {}: {e}", path.display()))),
            }
        }
    }
}

/// The open log of one process.
#[derive(Debug)]
pub struct Log {
    file: File,
    left: Arc<AtomicU64>,
    bot: String,
    budget: u64,
}

impl Log {
    /// Takes up to `wanted` bytes of the bot's budget: how many may be written.
    pub fn take(&self, wanted: u64) -> u64 {
        take(&self.left, wanted)
    }

    /// The file.
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// The note that ends a log whose bot's budget ran out while it was written.
    pub fn budget_note(&self, dropped: u64) -> String {
        format!(
            "[arena: the logs of {} reached their budget of {} bytes for this run; {dropped} more bytes were discarded, and the stderr of its later processes is not kept]",
            self.bot, self.budget
        )
    }
}

/// Takes up to `wanted` from `left`; returns how much it took.
fn take(left: &AtomicU64, wanted: u64) -> u64 {
    let before = left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| Some(left.saturating_sub(wanted)));
    let before = before.unwrap_or_else(|left| left);
    before.min(wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_gets_new_files_until_its_budget_is_spent() {
        let dir = std::env::temp_dir().join(format!("arena-logs-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A file of an earlier run, and a link planted where the next log would go.
        std::fs::write(dir.join("b.seat0.1.log"), "earlier").unwrap();
        std::os::unix::fs::symlink(dir.join("target"), dir.join("b.seat0.2.log")).unwrap();
        let logs = Arc::new(Logs::new(dir.clone(), 2 * FILE_COST + 100));
        let place = logs.place("b", 0);
        let first = place.open().unwrap().expect("within the budget");
        assert!(dir.join("b.seat0.3.log").is_file());
        assert_eq!(std::fs::read_to_string(dir.join("b.seat0.1.log")).unwrap(), "earlier");
        assert!(!dir.join("target").exists(), "the planted link is not followed");
        assert_eq!(first.take(60), 60);
        let second = place.open().unwrap().expect("within the budget");
        assert_eq!(second.take(60), 40, "what is left");
        assert_eq!(first.take(1), 0);
        assert!(logs.place("other", 1).open().unwrap().is_some(), "each bot has its own budget");
        assert!(place.open().unwrap().is_none(), "spent");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
