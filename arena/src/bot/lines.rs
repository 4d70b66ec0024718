//! Reading newline-terminated lines of bounded length from a bot's stdout.

use nix::errno::Errno;
use std::os::fd::{AsFd, BorrowedFd};
use tokio::io::{AsyncRead, AsyncReadExt};

/// What ended a read without a line.
#[derive(Debug)]
pub enum ReadError {
    /// The stream ended (a partial last line is discarded).
    Eof,
    /// The line being read exceeded the cap; the stream is unusable afterwards.
    TooLong,
    /// The read failed.
    Io(std::io::Error),
}

/// Reads lines from `inner`, refusing any line longer than `cap` bytes.
///
/// Memory use is bounded by the cap: bytes of an over-long line are never
/// kept beyond it.
pub struct LineReader<R> {
    inner: R,
    buf: Vec<u8>,
    /// Start of unread data in `buf`.
    start: usize,
    /// End of valid data in `buf`.
    end: usize,
    /// Bytes in `start..scanned` are known to hold no newline.
    scanned: usize,
    /// The range of the line last returned.
    last: (usize, usize),
    cap: usize,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    /// The next line, without its newline.
    pub async fn next_line(&mut self) -> Result<&[u8], ReadError> {
        loop {
            if let Some(found) = self.buffered_line() {
                return found.map(|()| self.last_line());
            }
            self.make_room();
            match self.inner.read(&mut self.buf[self.end..]).await {
                Ok(0) => return Err(ReadError::Eof),
                Ok(n) => self.end += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadError::Io(e)),
            }
        }
    }
}

impl<R> LineReader<R> {
    /// A reader of lines of at most `cap` bytes (excluding the newline).
    pub fn new(inner: R, cap: usize) -> Self {
        LineReader { inner, buf: vec![0; 4096.min(cap + 1)], start: 0, end: 0, scanned: 0, last: (0, 0), cap }
    }

    /// Takes the next line (see [`LineReader::last_line`]) if the buffer
    /// holds all of it; `None` when more must be read.
    pub fn buffered_line(&mut self) -> Option<Result<(), ReadError>> {
        if let Some(pos) = self.buf[self.scanned..self.end].iter().position(|&b| b == b'\n') {
            let line_end = self.scanned + pos;
            let line_start = self.start;
            self.start = line_end + 1;
            self.scanned = self.start;
            if line_end - line_start > self.cap {
                return Some(Err(ReadError::TooLong));
            }
            self.last = (line_start, line_end);
            return Some(Ok(()));
        }
        self.scanned = self.end;
        (self.end - self.start > self.cap).then_some(Err(ReadError::TooLong))
    }

    /// The line the last successful [`LineReader::next_line`] returned.
    pub fn last_line(&self) -> &[u8] {
        &self.buf[self.last.0..self.last.1]
    }

    /// The longest line accepted, in bytes.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Ensures there is free space after `end`: moves unread data to the front,
    /// or grows the buffer up to one byte past the cap.
    fn make_room(&mut self) {
        self.last = (0, 0);
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.scanned -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            let grown = (self.buf.len() * 2).min(self.cap + 2).max(self.end + 1);
            self.buf.resize(grown, 0);
        }
    }
}

/// What a [`LineReader`] can read without the runtime: a descriptor, if
/// it has one yet (a bot over the network has none until it connects).
pub trait Descriptor {
    /// The descriptor, non-blocking.
    fn descriptor(&self) -> Option<BorrowedFd<'_>>;
}

impl<T: AsFd> Descriptor for T {
    fn descriptor(&self) -> Option<BorrowedFd<'_>> {
        Some(self.as_fd())
    }
}

impl<R: Descriptor> LineReader<R> {
    /// Reads what the descriptor holds, without the runtime and without
    /// waiting (the descriptor is non-blocking): whether anything came.
    pub fn read_now(&mut self) -> Result<bool, ReadError> {
        self.make_room();
        let Some(fd) = self.inner.descriptor() else { return Ok(false) };
        match nix::unistd::read(fd, &mut self.buf[self.end..]) {
            Ok(0) => Err(ReadError::Eof),
            Ok(n) => {
                self.end += n;
                Ok(true)
            }
            Err(Errno::EINTR | Errno::EAGAIN) => Ok(false),
            Err(e) => Err(ReadError::Io(e.into())),
        }
    }

    /// What arrived and was not read as a line yet: the bytes already
    /// buffered, else what one read of the descriptor finds without waiting
    /// (nothing if it finds the end of the stream or fails: the next read
    /// tells). A read of its own, not the runtime's: the runtime knows a
    /// pipe holds something only once it has polled it, which it need not
    /// have done since the last answer.
    pub fn unread(&mut self) -> &[u8] {
        if self.start == self.end {
            let _ = self.read_now();
        }
        &self.buf[self.start..self.end]
    }

    /// The descriptor read, once there is one.
    pub fn fd(&self) -> Option<BorrowedFd<'_>> {
        self.inner.descriptor()
    }

    /// Reads from `inner` from now on (a bot over the network, once connected).
    pub fn connect(&mut self, inner: R) {
        self.inner = inner;
    }
}

/// The start of a line, for fault messages.
pub(crate) fn excerpt(line: &[u8]) -> String {
    const MAX: usize = 160;
    let text = String::from_utf8_lossy(&line[..line.len().min(MAX)]);
    if line.len() > MAX { format!("{text}… ({} bytes)", line.len()) } else { text.into_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T>(future: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(future)
    }

    #[test]
    fn splits_lines_across_reads() {
        run(async {
            let (mut tx, rx) = tokio::io::duplex(8);
            let writer = async move {
                use tokio::io::AsyncWriteExt;
                tx.write_all(b"first line\nsecond").await.unwrap();
                tx.write_all(b" line\n\nlast-without-newline").await.unwrap();
            };
            let reader = async move {
                let mut lines = LineReader::new(rx, 64);
                let mut got = Vec::new();
                loop {
                    match lines.next_line().await {
                        Ok(line) => got.push(String::from_utf8(line.to_vec()).unwrap()),
                        Err(ReadError::Eof) => break got,
                        Err(e) => panic!("{e:?}"),
                    }
                }
            };
            let ((), got) = tokio::join!(writer, reader);
            assert_eq!(got, vec!["first line", "second line", ""]);
        });
    }

    #[test]
    fn unread_bytes_are_those_buffered_or_written_since() {
        use std::io::Write;
        let (rx, tx) = nix::unistd::pipe2(nix::fcntl::OFlag::O_NONBLOCK).unwrap();
        let mut tx = std::fs::File::from(tx);
        let mut lines = LineReader::new(rx, 64);
        assert_eq!(lines.unread(), b"", "nothing written: no wait either");
        tx.write_all(b"one\ntwo\n").unwrap();
        assert_eq!(lines.unread(), b"one\ntwo\n", "written since, read without the runtime");
        assert!(matches!(lines.buffered_line(), Some(Ok(()))));
        assert_eq!(lines.last_line(), b"one");
        assert_eq!(lines.unread(), b"two\n", "buffered with the line before");
        assert!(matches!(lines.buffered_line(), Some(Ok(()))));
        assert_eq!(lines.unread(), b"");
        tx.write_all(b"thr").unwrap();
        assert_eq!(lines.unread(), b"thr", "even part of a line");
        assert!(lines.buffered_line().is_none());
        tx.write_all(b"ee\n").unwrap();
        assert!(matches!(lines.read_now(), Ok(true)));
        assert!(matches!(lines.buffered_line(), Some(Ok(()))));
        assert_eq!(lines.last_line(), b"three");
        drop(tx);
        assert_eq!(lines.unread(), b"", "the end of the stream is nothing unread");
        assert!(matches!(lines.read_now(), Err(ReadError::Eof)));
    }

    #[test]
    fn refuses_lines_over_the_cap_without_buffering_them() {
        run(async {
            let data = vec![b'x'; 10_000];
            let mut lines = LineReader::new(&data[..], 100);
            assert!(matches!(lines.next_line().await, Err(ReadError::TooLong)));
            assert!(lines.buf.len() <= 102);
            let mut exact = LineReader::new(&b"12345\n123456\n"[..], 5);
            assert_eq!(exact.next_line().await.unwrap(), b"12345");
            assert!(matches!(exact.next_line().await, Err(ReadError::TooLong)));
        });
    }
}
