//! A bot that connects in over WebSocket (`ws://HOST:PORT/NAME?token=TOKEN`):
//! one text message for each line, either way. The connection is relayed to
//! a socket pair whose other end a seat holds as it would a process's pipes,
//! so that lines, their cap and every fault are read there as for any bot.

use futures_util::{SinkExt, StreamExt};
use std::os::unix::net::UnixStream as StdUnixStream;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpStream, UnixStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, http};

/// Completes the WebSocket handshake of `stream` if `check` admits the bot
/// and token of its URL (else answers 401 and says why), and starts its
/// relay: the bot's name and the seat's end of the relay. A message over
/// `line_cap` bytes (and a little) ends the connection.
pub async fn accept(
    stream: TcpStream,
    line_cap: usize,
    check: impl FnOnce(&str, &str) -> Result<(), String> + Unpin,
) -> Result<(String, StdUnixStream), String> {
    let mut admitted = Err("no request".to_string());
    #[allow(clippy::result_large_err, reason = "tungstenite's callback returns its own error response")]
    let callback = |request: &Request, response: Response| -> Result<Response, ErrorResponse> {
        let (bot, token) = who(request);
        admitted = check(&bot, &token).map(|()| bot);
        match &admitted {
            Ok(_) => Ok(response),
            Err(why) => {
                let mut refusal = ErrorResponse::new(Some(why.clone()));
                *refusal.status_mut() = http::StatusCode::UNAUTHORIZED;
                Err(refusal)
            }
        }
    };
    // A little over the cap, so that the seat's reader sees the line over it and says so.
    let config = WebSocketConfig::default().max_message_size(Some(line_cap + 2)).max_frame_size(Some(line_cap + 2));
    let handshake = tokio_tungstenite::accept_hdr_async_with_config(stream, callback, Some(config)).await;
    let bot = admitted?;
    let socket = handshake.map_err(|e| format!("the WebSocket handshake of bot {bot:?} failed: {e}"))?;
    let (seat, relayed) = UnixStream::pair().map_err(|e| e.to_string())?;
    tokio::spawn(relay(socket, relayed));
    Ok((bot, seat.into_std().map_err(|e| e.to_string())?))
}

/// The bot and the token a WebSocket request names: `/NAME?token=TOKEN`.
fn who(request: &Request) -> (String, String) {
    let bot = request.uri().path().trim_start_matches('/').to_string();
    let token = request
        .uri()
        .query()
        .unwrap_or_default()
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
        .unwrap_or_default()
        .to_string();
    (bot, token)
}

/// Carries lines between `socket` and `seat` until either ends: each message
/// from the bot becomes a line (a newline ending it is one), each line of
/// the arena's a message.
async fn relay(socket: WebSocketStream<TcpStream>, seat: UnixStream) {
    let (mut to_bot, mut from_bot) = socket.split();
    let (from_seat, mut to_seat) = seat.into_split();
    let mut from_seat = BufReader::new(from_seat);
    let mut line = Vec::new();
    loop {
        tokio::select! {
            message = from_bot.next() => {
                let text = match message {
                    Some(Ok(Message::Text(text))) => text.as_bytes().to_vec(),
                    Some(Ok(Message::Binary(bytes))) => bytes.to_vec(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => continue,
                    // Closed, or broken: the seat reads the end of its stream.
                    _ => break,
                };
                let text = text.strip_suffix(b"\n").unwrap_or(&text);
                let mut written = Vec::with_capacity(text.len() + 1);
                written.extend_from_slice(text);
                written.push(b'\n');
                if to_seat.write_all(&written).await.is_err() {
                    break;
                }
            }
            read = from_seat.read_until(b'\n', &mut line) => {
                match read {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(line.strip_suffix(b"\n").unwrap_or(&line)).into_owned();
                        line.clear();
                        if to_bot.send(Message::text(text)).await.is_err() {
                            break;
                        }
                    }
                }
            }
        }
    }
    let _ = to_bot.send(Message::Close(None)).await;
    let _ = to_seat.shutdown().await;
}
