//! The two ends of a bot's line protocol as the arena holds them, whatever
//! carries it: the pipes of a child process, a TCP connection, or the arena's
//! end of a socket pair whose other end a WebSocket relay serves (see
//! [`super::websocket`]). Each is a descriptor, so that an answer can be
//! awaited in place on any of them (see [`crate::bot::process`]).

use crate::bot::lines::Descriptor;
use std::io;
use std::os::fd::{AsFd, BorrowedFd};
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{tcp, unix};
use tokio::process::{ChildStdin, ChildStdout};

/// What the arena reads a bot's lines from.
pub enum Reader {
    /// A child's stdout.
    Pipe(ChildStdout),
    /// A TCP connection.
    Tcp(tcp::OwnedReadHalf),
    /// A socket pair to a relay (a WebSocket's).
    Relay(unix::OwnedReadHalf),
    /// A bot over the network not connected yet: nothing to read.
    Unconnected,
}

/// What the arena writes a bot's messages to.
pub enum Writer {
    /// A child's stdin.
    Pipe(ChildStdin),
    /// A TCP connection.
    Tcp(tcp::OwnedWriteHalf),
    /// A socket pair to a relay (a WebSocket's).
    Relay(unix::OwnedWriteHalf),
}

impl AsyncRead for Reader {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Reader::Pipe(r) => Pin::new(r).poll_read(cx, buf),
            Reader::Tcp(r) => Pin::new(r).poll_read(cx, buf),
            Reader::Relay(r) => Pin::new(r).poll_read(cx, buf),
            Reader::Unconnected => Poll::Ready(Ok(())),
        }
    }
}

impl Descriptor for Reader {
    fn descriptor(&self) -> Option<BorrowedFd<'_>> {
        match self {
            Reader::Pipe(r) => Some(r.as_fd()),
            Reader::Tcp(r) => Some(r.as_ref().as_fd()),
            Reader::Relay(r) => Some(r.as_ref().as_fd()),
            Reader::Unconnected => None,
        }
    }
}

impl AsyncWrite for Writer {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Writer::Pipe(w) => Pin::new(w).poll_write(cx, buf),
            Writer::Tcp(w) => Pin::new(w).poll_write(cx, buf),
            Writer::Relay(w) => Pin::new(w).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Writer::Pipe(w) => Pin::new(w).poll_flush(cx),
            Writer::Tcp(w) => Pin::new(w).poll_flush(cx),
            Writer::Relay(w) => Pin::new(w).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Writer::Pipe(w) => Pin::new(w).poll_shutdown(cx),
            Writer::Tcp(w) => Pin::new(w).poll_shutdown(cx),
            Writer::Relay(w) => Pin::new(w).poll_shutdown(cx),
        }
    }
}

impl AsFd for Writer {
    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            Writer::Pipe(w) => w.as_fd(),
            Writer::Tcp(w) => w.as_ref().as_fd(),
            Writer::Relay(w) => w.as_ref().as_fd(),
        }
    }
}
