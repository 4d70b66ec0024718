//! What must hold for any line a bot or the arena could send, checked on
//! arbitrary bytes. Shared by the `protocol_line` fuzz target (`fuzz/` at the
//! repository root) and the regression tests that replay what it found.

use crate::all_fives::{FromBot, ToBot};
use crate::line;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// Decodes `bytes` as an All Fives [`FromBot`] and as a [`ToBot`] line.
/// Decoding may fail, but never panics; a message that decodes encodes to
/// one line that decodes back to an equal message (see [`round_trip`]); and
/// a move the fast path ([`crate::messages::move_by_index`]) reads is the
/// move the general decoder reads.
///
/// # Panics
/// When an invariant is broken: that is the bug the caller is looking for.
pub fn line(bytes: &[u8]) {
    let decoded = line::decode::<FromBot>(bytes);
    if let Ok(message) = &decoded {
        round_trip(message);
    }
    // The arena's fast path for `{"type":"move","id":N,"index":K}` accepts
    // only what the general decoder reads as that very move.
    if let Some((id, index)) = crate::messages::move_by_index(bytes) {
        let expected =
            crate::messages::FromBot::Move(crate::messages::MoveReply { id, index: Some(index), value: None });
        assert_eq!(decoded, Ok(expected), "the fast path read a move from {:?}", String::from_utf8_lossy(bytes));
    }
    if let Ok(message) = line::decode::<ToBot>(bytes) {
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

    #[test]
    fn checks_valid_and_invalid_lines() {
        line(br#"{"type":"move","id":7,"move":{"tile":[5,3],"end":1,"points":5}}"#);
        line(br#"{"type":"ready","name":"x\n\u2028y"}"#);
        line(br#"{"type":"pass","seat":1}"#);
        line(b"\xff{");
        line(b"");
    }
}
