//! Draining a bot's stderr: into a size-capped log file, keeping the last
//! lines in memory for fault reports. The pipe is always read to its end, so a
//! bot can never block on a full stderr pipe, however much it writes.

use super::logs::Log;
use std::collections::VecDeque;
use std::io::Write;
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::ChildStderr;
use tokio::task::JoinHandle;

/// How many bytes of the end of stderr are kept in memory.
const TAIL_BYTES: usize = 4096;
/// How many lines of that tail a fault report shows.
const TAIL_LINES: usize = 10;

/// A running drain of one process's stderr.
pub struct StderrDrain {
    tail: Arc<Mutex<VecDeque<u8>>>,
    task: JoinHandle<()>,
    /// The pipe's descriptor, which the task owns until it ends.
    pipe: Option<RawFd>,
}

impl StderrDrain {
    /// Starts draining `stderr`, copying at most `cap` bytes to `log` (if
    /// any), within what is left of its bot's budget.
    pub fn start(stderr: ChildStderr, log: Option<Log>, cap: u64) -> Self {
        let pipe = stderr.as_raw_fd();
        Self::spawn(stderr, Some(pipe), log, cap)
    }

    fn spawn(stderr: impl AsyncRead + Unpin + Send + 'static, pipe: Option<RawFd>, log: Option<Log>, cap: u64) -> Self {
        let tail = Arc::new(Mutex::new(VecDeque::with_capacity(TAIL_BYTES)));
        let task = tokio::spawn(drain(stderr, log, cap, Arc::clone(&tail)));
        StderrDrain { tail, task, pipe }
    }

    /// The pipe being drained, while it is: to wait for it to hold something
    /// without the runtime. Only for a caller on the thread of a
    /// current-thread runtime that started the drain, which cannot close the
    /// pipe while the caller runs.
    pub fn pipe(&self) -> Option<BorrowedFd<'_>> {
        // SAFETY: the task owns the descriptor and closes it as it ends; it
        // has not ended, and runs on the caller's thread (see above), so it
        // cannot end before the borrow does.
        self.pipe.filter(|_| !self.task.is_finished()).map(|pipe| unsafe { BorrowedFd::borrow_raw(pipe) })
    }

    /// Waits until the pipe is closed (at most `patience`), then returns the
    /// last lines written, lossily decoded.
    pub async fn finish(self, patience: std::time::Duration) -> Vec<String> {
        let mut task = self.task;
        if tokio::time::timeout(patience, &mut task).await.is_err() {
            // A grandchild that escaped the process group may hold the pipe open.
            task.abort();
        }
        last_lines(&self.tail.lock().expect("tail lock"))
    }
}

async fn drain(mut stderr: impl AsyncRead + Unpin, mut log: Option<Log>, cap: u64, tail: Arc<Mutex<VecDeque<u8>>>) {
    let mut chunk = vec![0u8; 8192];
    let mut logged: u64 = 0;
    let mut dropped: u64 = 0;
    let mut budget_spent = false;
    loop {
        let n = match stderr.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let bytes = &chunk[..n];
        if let Some(log) = log.as_mut() {
            let room = cap.saturating_sub(logged).min(n as u64);
            let granted = log.take(room);
            budget_spent |= granted < room;
            if granted > 0 && log.file().write_all(&bytes[..granted as usize]).is_ok() {
                logged += granted;
            }
            dropped += n as u64 - granted;
        }
        let mut tail = tail.lock().expect("tail lock");
        let keep = &bytes[n.saturating_sub(TAIL_BYTES)..];
        let excess = (tail.len() + keep.len()).saturating_sub(TAIL_BYTES);
        tail.drain(..excess);
        tail.extend(keep);
    }
    if let Some(log) = log.as_mut()
        && dropped > 0
    {
        let note = match budget_spent {
            true => log.budget_note(dropped),
            false => format!("[arena: log capped at {cap} bytes; {dropped} more bytes were discarded]"),
        };
        let _ = writeln!(log.file(), "\n{note}");
    }
}

/// The last complete-or-not lines of `tail`, at most [`TAIL_LINES`], each at most 300 characters.
fn last_lines(tail: &VecDeque<u8>) -> Vec<String> {
    let bytes: Vec<u8> = tail.iter().copied().collect();
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let skip = lines.len().saturating_sub(TAIL_LINES);
    lines[skip..].iter().map(|line| line.chars().take(300).collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::logs::{FILE_COST, Logs};
    use std::time::Duration;

    fn lines(count: usize) -> Vec<u8> {
        (0..count).flat_map(|i| format!("line {i}\n").into_bytes()).collect()
    }

    fn drain_into(logs: &Arc<Logs>, input: Vec<u8>, cap: u64) -> Vec<String> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let log = logs.place("b", 0).open().unwrap();
        rt.block_on(async {
            StderrDrain::spawn(std::io::Cursor::new(input), None, log, cap).finish(Duration::from_secs(5)).await
        })
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-stderr-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn keeps_the_last_lines_and_caps_the_log() {
        let dir = scratch("cap");
        let tail = drain_into(&Arc::new(Logs::new(dir.clone(), 1 << 20)), lines(1000), 100);
        assert_eq!(tail.len(), TAIL_LINES);
        assert_eq!(tail.last().unwrap(), "line 999");
        let log = std::fs::read_to_string(dir.join("b.seat0.1.log")).unwrap();
        assert!(log.starts_with("line 0\nline 1\n"));
        assert!(log.contains("[arena: log capped at 100 bytes;"), "{log}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_bot_s_logs_stop_at_its_budget() {
        let dir = scratch("budget");
        let logs = Arc::new(Logs::new(dir.clone(), 2 * FILE_COST + 150));
        drain_into(&logs, lines(1000), 100);
        let tail = drain_into(&logs, lines(1000), 100);
        assert_eq!(tail.last().unwrap(), "line 999", "stderr is still drained");
        let second = std::fs::read_to_string(dir.join("b.seat0.2.log")).unwrap();
        assert!(second.starts_with("line 0\n"), "{second}");
        assert!(second.contains("reached their budget of 8342 bytes for this run"), "{second}");
        assert_eq!(second.split('\n').next().map(str::len), Some(6));
        assert!(second.len() < 50 + 300, "50 bytes of stderr and the note: {second}");
        drain_into(&logs, lines(10), 100);
        assert!(!dir.join("b.seat0.3.log").exists(), "no file once the budget is spent");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
