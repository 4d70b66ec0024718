//! Sessions: many games at once in one bot process. Pure: no I/O.
//!
//! A bot that answers `hello` with `"games": N` (see [`crate::messages::Ready`])
//! plays up to N games at once. Every line either way but `hello`, `ready`
//! and `bye` then names its game: the arena writes [`GAME_KEY`] as the first
//! key of each line for a game ([`tag_into`]), and the bot writes it in each
//! answer, anywhere in the object; the arena takes it out ([`untag`]) and
//! reads the rest as it reads a plain answer.

use crate::line::{LineError, decode};
use serde_json::{Map, Value};

/// The key that names a line's game: its value is the game's id, the `id` of
/// its `game_start`.
pub const GAME_KEY: &str = "game";

/// Appends `line` (one JSON object and its newline, as
/// [`crate::line::encode_into`] writes one) to `out` with `"game":game` as
/// its first key.
pub fn tag_into(line: &[u8], game: u64, out: &mut Vec<u8>) {
    let body = line.strip_prefix(b"{").unwrap_or(line);
    out.extend_from_slice(b"{\"");
    out.extend_from_slice(GAME_KEY.as_bytes());
    out.extend_from_slice(b"\":");
    out.extend_from_slice(game.to_string().as_bytes());
    if !body.starts_with(b"}") {
        out.push(b',');
    }
    out.extend_from_slice(body);
}

/// Why a bot's line names no game.
#[derive(Debug, Clone, PartialEq)]
pub enum Untagged {
    /// The line is not UTF-8, or not JSON.
    Unreadable(LineError),
    /// The line is JSON, but not an object whose `game` is an unsigned 64-bit integer.
    NoGame,
}

/// The game a bot's line names, and the line without its [`GAME_KEY`] (the
/// other keys in the same order), for the arena to read as a plain answer.
pub fn untag(line: &[u8]) -> Result<(u64, Vec<u8>), Untagged> {
    let mut object: Map<String, Value> = match decode::<Value>(line) {
        Ok(Value::Object(object)) => object,
        Ok(_) => return Err(Untagged::NoGame),
        Err(e) => return Err(Untagged::Unreadable(e)),
    };
    let game = object.shift_remove(GAME_KEY).and_then(|game| game.as_u64()).ok_or(Untagged::NoGame)?;
    let rest = serde_json::to_vec(&object).expect("a JSON object serializes");
    Ok((game, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_is_the_first_key() {
        let mut out = Vec::new();
        tag_into(b"{\"type\":\"turn\",\"id\":3}\n", 18446744073709551615, &mut out);
        tag_into(b"{}\n", 7, &mut out);
        assert_eq!(out, b"{\"game\":18446744073709551615,\"type\":\"turn\",\"id\":3}\n{\"game\":7}\n");
    }

    #[test]
    fn an_answer_names_its_game_anywhere() {
        let (game, rest) = untag(br#"{"type":"move","id":4,"game":12,"index":0}"#).unwrap();
        assert_eq!(game, 12);
        let reply: crate::messages::FromBot<Value> = decode(&rest).unwrap();
        assert!(matches!(reply, crate::messages::FromBot::Move(m) if m.id == 4 && m.index == Some(0)));
    }

    #[test]
    fn a_line_without_a_game_names_none() {
        assert_eq!(untag(br#"{"type":"move","id":4,"index":0}"#), Err(Untagged::NoGame));
        assert_eq!(untag(br#"{"type":"move","game":-1}"#), Err(Untagged::NoGame));
        assert_eq!(untag(br#"{"type":"move","game":"12"}"#), Err(Untagged::NoGame));
        assert_eq!(untag(b"[1]"), Err(Untagged::NoGame));
        assert!(matches!(untag(b"{\"game\":1,"), Err(Untagged::Unreadable(LineError::NotJson(_)))));
        assert!(matches!(untag(b"\xff"), Err(Untagged::Unreadable(LineError::NotUtf8(0)))));
    }
}
