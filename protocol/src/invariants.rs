//! What must hold for any line a bot or the arena could send, checked on
//! arbitrary bytes. Shared by the `protocol_line` fuzz target (`fuzz/` at the
//! repository root) and the regression tests that replay what it found.

use crate::line;
use crate::messages::{FromBot, MoveReply};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// Decodes `bytes` as a [`FromBot`] line of a game whose moves are `M` and as
/// one of the messages `T` a bot of that game receives (for All Fives,
/// `all_fives::wire::Move` and `all_fives::wire::ToBot`).
/// Decoding may fail, but never panics; a message that decodes encodes to
/// one line that decodes back to an equal message (see [`round_trip`]); and
/// a move the fast path ([`crate::messages::move_by_index`]) reads is the
/// move the general decoder reads.
///
/// # Panics
/// When an invariant is broken: that is the bug the caller is looking for.
pub fn line<M, T>(bytes: &[u8])
where
    M: Serialize + DeserializeOwned + PartialEq + Debug,
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let decoded = line::decode::<FromBot<M>>(bytes);
    if let Ok(message) = &decoded {
        round_trip(message);
    }
    // The arena's fast path for `{"type":"move","id":N,"index":K}` accepts
    // only what the general decoder reads as that very move.
    if let Some((id, index)) = crate::messages::move_by_index(bytes) {
        let expected = FromBot::Move(MoveReply { id, index: Some(index), value: None });
        assert_eq!(decoded, Ok(expected), "the fast path read a move from {:?}", String::from_utf8_lossy(bytes));
    }
    if let Ok(message) = line::decode::<T>(bytes) {
        round_trip(&message);
    }
}

/// Encodes `message` and checks that it is one line, terminated by its only
/// newline, that decodes to an equal message (also with a `\r` before the
/// newline, as a bot on Windows might write it).
///
/// # Panics
/// When any of that fails.
pub fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(message: &T) {
    let encoded = line::encode(message);
    let Some((b'\n', body)) = encoded.split_last() else {
        panic!("{message:?} encodes without a final newline: {encoded:?}");
    };
    assert!(!body.contains(&b'\n'), "{message:?} encodes to more than one line: {:?}", String::from_utf8_lossy(body));
    let decoded = line::decode::<T>(body);
    assert_eq!(decoded.as_ref(), Ok(message), "line: {}", String::from_utf8_lossy(body));
    let mut crlf = body.to_vec();
    crlf.push(b'\r');
    assert_eq!(line::decode::<T>(&crlf).as_ref(), Ok(message), "with CRLF: {}", String::from_utf8_lossy(body));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::ToBot;
    use serde_json::Value;

    /// Any game's messages, with the payloads as JSON values.
    fn any_game(bytes: &[u8]) {
        line::<Value, ToBot<Value, Value, Value>>(bytes);
    }

    #[test]
    fn checks_valid_and_invalid_lines() {
        any_game(br#"{"type":"move","id":7,"move":{"tile":[5,3],"end":1,"points":5}}"#);
        any_game(br#"{"type":"ready","name":"x\n\u2028y"}"#);
        any_game(br#"{"type":"pass","seat":1}"#);
        any_game(br#"{"type":"turn","id":3,"time_ms":1000,"state":{"hand":[]},"legal":[{"a":1}]}"#);
        any_game(b"\xff{");
        any_game(b"");
    }
}
