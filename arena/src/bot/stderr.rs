//! Draining a bot's stderr: into a size-capped log file, keeping the last
//! lines in memory for fault reports. The pipe is always read to its end, so a
//! bot can never block on a full stderr pipe, however much it writes.

use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::task::JoinHandle;

/// How many bytes of the end of stderr are kept in memory.
const TAIL_BYTES: usize = 4096;
/// How many lines of that tail a fault report shows.
const TAIL_LINES: usize = 10;

/// A running drain of one process's stderr.
pub struct StderrDrain {
    tail: Arc<Mutex<VecDeque<u8>>>,
    task: JoinHandle<()>,
}

impl StderrDrain {
    /// Starts draining `stderr`, copying at most `cap` bytes to `log` (if any).
    pub fn start(stderr: impl AsyncRead + Unpin + Send + 'static, log: Option<File>, cap: u64) -> Self {
        let tail = Arc::new(Mutex::new(VecDeque::with_capacity(TAIL_BYTES)));
        let task = tokio::spawn(drain(stderr, log, cap, Arc::clone(&tail)));
        StderrDrain { tail, task }
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

async fn drain(mut stderr: impl AsyncRead + Unpin, mut log: Option<File>, cap: u64, tail: Arc<Mutex<VecDeque<u8>>>) {
    let mut chunk = vec![0u8; 8192];
    let mut logged: u64 = 0;
    let mut dropped: u64 = 0;
    loop {
        let n = match stderr.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let bytes = &chunk[..n];
        if let Some(file) = log.as_mut() {
            let room = cap.saturating_sub(logged).min(n as u64) as usize;
            if room > 0 && file.write_all(&bytes[..room]).is_ok() {
                logged += room as u64;
            }
            dropped += (n - room) as u64;
        }
        let mut tail = tail.lock().expect("tail lock");
        let keep = &bytes[n.saturating_sub(TAIL_BYTES)..];
        let excess = (tail.len() + keep.len()).saturating_sub(TAIL_BYTES);
        tail.drain(..excess);
        tail.extend(keep);
    }
    if let Some(file) = log.as_mut()
        && dropped > 0
    {
        let _ = writeln!(file, "\n[arena: log capped at {cap} bytes; {dropped} more bytes were discarded]");
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
    use std::time::Duration;

    #[test]
    fn keeps_the_last_lines_and_caps_the_log() {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let dir = std::env::temp_dir().join(format!("arena-stderr-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("log");
        let mut input = Vec::new();
        for i in 0..1000 {
            input.extend_from_slice(format!("line {i}\n").as_bytes());
        }
        let lines = rt.block_on(async {
            let drain = StderrDrain::start(std::io::Cursor::new(input), Some(File::create(&path).unwrap()), 100);
            drain.finish(Duration::from_secs(5)).await
        });
        assert_eq!(lines.len(), TAIL_LINES);
        assert_eq!(lines.last().unwrap(), "line 999");
        let log = std::fs::read_to_string(&path).unwrap();
        assert!(log.starts_with("line 0\nline 1\n"));
        assert!(log.contains("[arena: log capped at 100 bytes;"), "{log}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
