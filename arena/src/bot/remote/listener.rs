//! `--listen`: bots that connect in to a run, each with its token.
//!
//! The listener runs on a thread of its own. Each connection first says who
//! it is: over TCP with one line, `{"type":"auth","bot":NAME,"token":TOKEN}`;
//! over WebSocket with its URL, `ws://HOST:PORT/NAME?token=TOKEN`. A
//! connection whose bot or token is wrong is refused (a `refused` line, or
//! an HTTP 401) and closed; nothing of it is recorded, and the seat that
//! waits for that bot waits on. An admitted connection is queued for its
//! bot; each seat that would start a process of the bot takes the next one
//! (see [`super::Peer::connect`]). A WebSocket is relayed to a socket pair
//! on the listener's thread (see [`super::websocket`]), so a seat holds a
//! descriptor either way.

use super::wire::{Reader, Writer};
use crate::terminal::console::errln;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{Mutex, mpsc};
use tokio::time::Instant;

/// How long a new connection has to say who it is.
const AUTH_PATIENCE: Duration = Duration::from_secs(10);
/// The longest auth line, in bytes.
const AUTH_CAP: usize = 1024;

/// An admitted connection, waiting for a seat.
enum Admitted {
    /// A TCP connection, past its auth line.
    Tcp(std::net::TcpStream),
    /// The arena's end of a WebSocket's relay.
    Relay(std::os::unix::net::UnixStream),
}

/// A run's listener for bots that connect in.
pub struct Listener {
    address: SocketAddr,
    /// The connections admitted for each bot, by name.
    queues: BTreeMap<String, Mutex<mpsc::UnboundedReceiver<Admitted>>>,
}

/// Who may connect: each bot's token, and where its connections go.
struct Doors {
    bots: BTreeMap<String, (String, mpsc::UnboundedSender<Admitted>)>,
    /// The longest message a WebSocket client may send, in bytes.
    line_cap: usize,
}

/// The auth line of a TCP client.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Auth {
    /// `"auth"`.
    #[serde(rename = "type")]
    kind: String,
    bot: String,
    token: String,
}

/// `--listen`'s address: `PORT` or `HOST:PORT`, the host 127.0.0.1 when
/// not given; an address other than the loopback only when `public`.
pub fn address(text: &str, public: bool) -> Result<SocketAddr, String> {
    let text = text.trim();
    let full = if text.parse::<u16>().is_ok() { format!("127.0.0.1:{text}") } else { text.to_string() };
    let address = full
        .to_socket_addrs()
        .map_err(|e| format!("--listen {text:?}: {e} (give PORT or HOST:PORT, e.g. 127.0.0.1:9000)"))?
        .next()
        .ok_or_else(|| format!("--listen {text:?}: the address resolves to nothing"))?;
    if !address.ip().is_loopback() && !public {
        return Err(format!(
            "--listen {text:?}: {} is not a loopback address, so other machines could connect and try tokens; \
             add --listen-public to listen there",
            address.ip()
        ));
    }
    Ok(address)
}

/// The listener of the running command, once it listens.
static CURRENT: std::sync::Mutex<Option<Arc<Listener>>> = std::sync::Mutex::new(None);

/// The listener of the running command, if it listens.
pub fn current() -> Option<Arc<Listener>> {
    CURRENT.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
}

/// A fresh token: 128 random bits in hex.
pub fn token() -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

impl Listener {
    /// Listens on `address` for the bots of `tokens` (name and token), each
    /// line from a client at most `line_cap` bytes: an address that cannot be
    /// listened on (one in use) is an error now.
    pub fn start(address: SocketAddr, tokens: &[(String, String)], line_cap: usize) -> Result<Arc<Listener>, String> {
        let socket = std::net::TcpListener::bind(address).map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let address = socket.local_addr().map_err(|e| format!("cannot listen on {address}: {e}"))?;
        socket.set_nonblocking(true).map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let mut queues = BTreeMap::new();
        let mut bots = BTreeMap::new();
        for (name, token) in tokens {
            let (sender, receiver) = mpsc::unbounded_channel();
            queues.insert(name.clone(), Mutex::new(receiver));
            bots.insert(name.clone(), (token.clone(), sender));
        }
        let doors = Arc::new(Doors { bots, line_cap });
        std::thread::Builder::new()
            .name("listen".to_string())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
                if let Ok(runtime) = runtime {
                    runtime.block_on(accept(socket, doors));
                }
            })
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let listener = Arc::new(Listener { address, queues });
        *CURRENT.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Arc::clone(&listener));
        Ok(listener)
    }

    /// The address listened on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The next live connection of bot `name`, once one is admitted, if
    /// before `deadline`.
    pub async fn take(&self, name: &str, deadline: Instant) -> Option<(Reader, Writer)> {
        let mut queue = tokio::time::timeout_at(deadline, self.queues.get(name)?.lock()).await.ok()?;
        loop {
            let admitted = tokio::time::timeout_at(deadline, queue.recv()).await.ok()??;
            // A client that left while it waited is not taken.
            match admitted {
                Admitted::Tcp(stream) if open(&stream) => {
                    return TcpStream::from_std(stream).ok().map(super::split_tcp);
                }
                Admitted::Relay(stream) => {
                    let (read, write) = tokio::net::UnixStream::from_std(stream).ok()?.into_split();
                    return Some((Reader::Relay(read), Writer::Relay(write)));
                }
                Admitted::Tcp(_) => {}
            }
        }
    }
}

/// Whether the peer of `stream` has not closed it.
fn open(stream: &std::net::TcpStream) -> bool {
    !matches!(stream.peek(&mut [0]), Ok(0))
}

/// Admits connections on `socket` until the process exits.
async fn accept(socket: std::net::TcpListener, doors: Arc<Doors>) {
    let Ok(socket) = tokio::net::TcpListener::from_std(socket) else { return };
    loop {
        let Ok((stream, from)) = socket.accept().await else {
            // Out of descriptors, say: a moment for some to close.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let doors = Arc::clone(&doors);
        tokio::spawn(async move {
            match tokio::time::timeout(AUTH_PATIENCE, admit(stream, &doors)).await {
                Ok(Ok(())) => {}
                Ok(Err(why)) => errln!("refused a connection from {from}: {why}"),
                Err(_) => errln!(
                    "refused a connection from {from}: it did not say who it is within {} s",
                    AUTH_PATIENCE.as_secs()
                ),
            }
        });
    }
}

/// Reads who `stream` is, and queues it for its bot or refuses it.
async fn admit(mut stream: TcpStream, doors: &Doors) -> Result<(), String> {
    let _ = stream.set_nodelay(true);
    if http(&stream).await {
        return super::websocket::accept(stream, doors.line_cap, |bot, token| doors.check(bot, token)).await.map(
            |(bot, relay)| {
                let _ = doors.bots[&bot].1.send(Admitted::Relay(relay));
            },
        );
    }
    let line = auth_line(&mut stream).await?;
    let checked = serde_json::from_slice::<Auth>(&line)
        .map_err(|e| format!("the first line is not {{\"type\":\"auth\",\"bot\":NAME,\"token\":TOKEN}} ({e})"))
        .and_then(|auth| match auth.kind.as_str() {
            "auth" => doors.check(&auth.bot, &auth.token).map(|()| auth.bot),
            other => Err(format!("the first line is of type {other:?}, not \"auth\"")),
        });
    match checked {
        Ok(bot) => {
            let stream = stream.into_std().map_err(|e| e.to_string())?;
            let _ = doors.bots[&bot].1.send(Admitted::Tcp(stream));
            Ok(())
        }
        Err(why) => {
            let refusal = serde_json::json!({"type": "refused", "reason": why});
            let _ = stream.write_all(format!("{refusal}\n").as_bytes()).await;
            let _ = stream.shutdown().await;
            Err(why)
        }
    }
}

impl Doors {
    /// Whether `token` is bot `bot`'s: why not, if not.
    fn check(&self, bot: &str, token: &str) -> Result<(), String> {
        match self.bots.get(bot) {
            None => Err(format!("no bot named {bot:?} connects in to this run")),
            Some((expected, _)) if expected != token => Err(format!("wrong token for bot {bot:?}")),
            Some(_) => Ok(()),
        }
    }
}

/// Whether the client opened with an HTTP request (a WebSocket's upgrade),
/// looking without reading.
async fn http(stream: &TcpStream) -> bool {
    let mut start = [0u8; 4];
    loop {
        match stream.peek(&mut start).await {
            Ok(4) => return &start == b"GET ",
            Ok(n) if n > 0 && start[..n] == b"GET "[..n] => tokio::time::sleep(Duration::from_millis(5)).await,
            _ => return false,
        }
    }
}

/// The first line of `stream`, read a byte at a time so that nothing after it is read.
async fn auth_line(stream: &mut TcpStream) -> Result<Vec<u8>, String> {
    let mut line = Vec::new();
    loop {
        match stream.read_u8().await {
            Ok(b'\n') => return Ok(line),
            Ok(_) if line.len() >= AUTH_CAP => return Err(format!("the auth line is over {AUTH_CAP} bytes")),
            Ok(byte) => line.push(byte),
            Err(e) => return Err(format!("the connection ended before its auth line ({e})")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listens_on_the_loopback_unless_told_otherwise() {
        assert_eq!(address("9000", false), Ok("127.0.0.1:9000".parse().unwrap()));
        assert_eq!(address("[::1]:0", false), Ok("[::1]:0".parse().unwrap()));
        let err = address("0.0.0.0:9000", false).unwrap_err();
        assert!(err.contains("not a loopback address") && err.contains("--listen-public"), "{err}");
        assert_eq!(address("0.0.0.0:9000", true), Ok("0.0.0.0:9000".parse().unwrap()));
        assert!(address("no port", false).unwrap_err().contains("give PORT or HOST:PORT"));
        let token = token().unwrap();
        assert!(token.len() == 32 && token.chars().all(|c| c.is_ascii_hexdigit()), "{token}");
    }
}
