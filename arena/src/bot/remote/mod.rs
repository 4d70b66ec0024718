//! Bots over the network: the same line protocol over a socket instead of
//! a child's pipes.
//!
//! A bot's command may name a bot that lives elsewhere (see [`Remote`]):
//! `tcp://HOST:PORT`, which the arena dials once for each process it would
//! have started, or `listen`, a bot that connects in to the run's `--listen`
//! address with a token (see [`listener`]), over TCP or WebSocket (see
//! [`websocket`]). Either way the arena holds a descriptor to read lines
//! from and one to write to (see [`wire`]), so that everything above the
//! connection (lines, their cap, faults, timeouts, the game loop) is what
//! it is for a process; a remote bot's time is the arena's clock, round
//! trip included. A connection lives as a process does: for one seat of one
//! lane, never reconnected within a game: a dropped connection is the bot's
//! fault. No sandbox confines a remote bot.

pub(crate) mod listener;
pub(crate) mod websocket;
pub(crate) mod wire;

use crate::bot::fault::{Fault, FaultKind};
use listener::Listener;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::time::Instant;
use wire::{Reader, Writer};

/// A bot that lives elsewhere, as its command names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remote {
    /// `tcp://HOST:PORT`: the arena connects there for each process it would start.
    Dial(String),
    /// `listen` or `listen TOKEN-FILE`: the bot connects in to `--listen`,
    /// with a token the arena makes and prints, or the first line of this file.
    Listen(Option<PathBuf>),
}

/// The command word of a bot that connects in.
pub const LISTEN: &str = "listen";
/// The scheme of a bot the arena dials.
pub const TCP: &str = "tcp://";

impl Remote {
    /// The remote bot `command` names, if it names one (relative token
    /// files against `dir`), or why it is malformed.
    pub fn parse(command: &str, dir: &Path) -> Option<Result<Remote, String>> {
        let command = command.trim();
        if let Some(address) = command.strip_prefix(TCP) {
            let port = address.rsplit_once(':').map(|(host, port)| (host, port.parse::<u16>()));
            return Some(match port {
                Some((host, Ok(port))) if !host.is_empty() && port != 0 => Ok(Remote::Dial(address.to_string())),
                _ => Err(format!("{command:?} is not tcp://HOST:PORT (e.g. tcp://127.0.0.1:9000)")),
            });
        }
        let mut words = command.split_whitespace();
        if words.next() != Some(LISTEN) {
            return None;
        }
        Some(match (words.next(), words.next()) {
            (None, _) => Ok(Remote::Listen(None)),
            (Some(file), None) => Ok(Remote::Listen(Some(dir.join(file)))),
            _ => Err(format!("{command:?}: expected `listen` or `listen TOKEN-FILE`")),
        })
    }
}

/// How a new "process" of a remote bot gets its connection.
#[derive(Clone)]
pub enum Peer {
    /// Dials this `HOST:PORT`.
    Dial(String),
    /// Takes the next connection of the bot of this name from the run's
    /// listener (none when the run does not listen).
    Listen(Option<Arc<Listener>>, String),
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Peer::Dial(address) => write!(f, "{TCP}{address}"),
            Peer::Listen(listener, name) => {
                let address = listener.as_ref().map_or_else(|| "nothing".to_string(), |l| l.address().to_string());
                write!(f, "{name} on {address}")
            }
        }
    }
}

impl Peer {
    /// Where the connections of bot `name`, named by `remote`, come from in this run.
    pub fn of(remote: &Remote, name: &str) -> Peer {
        match remote {
            Remote::Dial(address) => Peer::Dial(address.clone()),
            Remote::Listen(_) => Peer::Listen(listener::current(), name.to_string()),
        }
    }

    /// The connection, made before `deadline`: a fault of the bot's when
    /// it cannot be had.
    pub async fn connect(&self, deadline: Instant) -> Result<(Reader, Writer), Fault> {
        let limit = deadline.saturating_duration_since(Instant::now()).as_millis();
        match self {
            Peer::Dial(address) => {
                let stream = match tokio::time::timeout_at(deadline, tokio::net::TcpStream::connect(address)).await {
                    Ok(Ok(stream)) => stream,
                    Ok(Err(e)) => {
                        return Err(Fault::new(
                            FaultKind::Spawn,
                            format!("cannot connect to {TCP}{address}: {e} (is the bot's server running there?)"),
                        ));
                    }
                    Err(_) => {
                        return Err(Fault::new(
                            FaultKind::Spawn,
                            format!("cannot connect to {TCP}{address}: no connection within {limit} ms"),
                        ));
                    }
                };
                Ok(split_tcp(stream))
            }
            Peer::Listen(None, name) => Err(Fault::new(
                FaultKind::Spawn,
                format!("bot {name:?} connects in, but this command does not listen (--listen ADDR)"),
            )),
            Peer::Listen(Some(listener), name) => listener.take(name, deadline).await.ok_or_else(|| {
                Fault::new(
                    FaultKind::Timeout,
                    format!(
                        "no client of bot {name:?} connected to {} within {limit} ms (the start-up timeout): connect \
                         one with the bot's token (see docs/bots.md, \"Bots over the network\"), or raise \
                         --startup-timeout",
                        listener.address()
                    ),
                )
            }),
        }
    }
}

/// The two ends of a TCP connection, with Nagle's delay off (each message is
/// awaited as soon as it is written).
pub fn split_tcp(stream: tokio::net::TcpStream) -> (Reader, Writer) {
    let _ = stream.set_nodelay(true);
    let (read, write) = stream.into_split();
    (Reader::Tcp(read), Writer::Tcp(write))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_remote_bots() {
        let dir = Path::new("/d");
        assert_eq!(Remote::parse("tcp://127.0.0.1:9000", dir), Some(Ok(Remote::Dial("127.0.0.1:9000".into()))));
        assert_eq!(Remote::parse("tcp://[::1]:9000", dir), Some(Ok(Remote::Dial("[::1]:9000".into()))));
        assert_eq!(Remote::parse("listen", dir), Some(Ok(Remote::Listen(None))));
        assert_eq!(Remote::parse("listen t.txt", dir), Some(Ok(Remote::Listen(Some("/d/t.txt".into())))));
        assert_eq!(Remote::parse("./listen", dir), None);
        assert_eq!(Remote::parse("python3 bot.py", dir), None);
        for bad in ["tcp://host", "tcp://:80", "tcp://h:0", "tcp://h:x", "listen a b"] {
            assert!(Remote::parse(bad, dir).unwrap().is_err(), "{bad}");
        }
    }
}
