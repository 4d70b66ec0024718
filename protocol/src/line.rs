//! Encoding and decoding of single protocol lines. Pure: no I/O.
//!
//! Decoding separates the three ways a line can be wrong, because the arena
//! reports each as a different fault: bytes that are not UTF-8, text that is
//! not JSON, and JSON that is not a message of the expected shape.

use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt;

/// Why a line could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineError {
    /// The line is not valid UTF-8; holds the byte offset of the first bad byte.
    NotUtf8(usize),
    /// The line is not a JSON value; holds serde_json's description.
    NotJson(String),
    /// The line is JSON but not a message of the expected shape.
    Shape(String),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotUtf8(at) => write!(f, "line is not valid UTF-8 (bad byte at offset {at})"),
            LineError::NotJson(why) => write!(f, "line is not JSON: {why}"),
            LineError::Shape(why) => write!(f, "not a valid message: {why}"),
        }
    }
}

impl std::error::Error for LineError {}

/// Whether `byte` is whitespace to JSON: space, tab, carriage return or line
/// feed, and nothing else (not a form feed, unlike [`u8::is_ascii_whitespace`]).
pub fn is_json_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

/// `bytes` without the JSON whitespace ([`is_json_whitespace`]) at either end.
pub fn trim_json_whitespace(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&b| !is_json_whitespace(b)).unwrap_or(bytes.len());
    let end = bytes.iter().rposition(|&b| !is_json_whitespace(b)).map_or(start, |at| at + 1);
    &bytes[start..end]
}

/// Decodes one line (without its trailing newline; a trailing `\r` is allowed).
/// Only JSON's whitespace may surround or separate its tokens.
pub fn decode<T: DeserializeOwned>(line: &[u8]) -> Result<T, LineError> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|e| LineError::NotUtf8(e.valid_up_to()))?;
    match serde_json::from_str::<T>(text) {
        Ok(value) => Ok(value),
        Err(e) if e.is_syntax() || e.is_eof() => Err(LineError::NotJson(e.to_string())),
        Err(e) => Err(LineError::Shape(e.to_string())),
    }
}

/// The value of a line's `type` field when it is the object's first key, as
/// the arena writes it: `{"type":"turn",...}` gives `Some("turn")`. A cheap
/// look at a line before decoding it; `None` when the line has another form.
pub fn message_type(line: &[u8]) -> Option<&str> {
    let rest = trim_json_whitespace(line).strip_prefix(b"{")?;
    let rest = trim_json_whitespace(rest).strip_prefix(b"\"type\"")?;
    let rest = trim_json_whitespace(rest).strip_prefix(b":")?;
    let rest = trim_json_whitespace(rest).strip_prefix(b"\"")?;
    let end = rest.iter().position(|&b| b == b'"' || b == b'\\')?;
    if rest[end] != b'"' {
        return None;
    }
    std::str::from_utf8(&rest[..end]).ok()
}

/// Appends `message` as one JSON line (terminated by `\n`) to `out`.
pub fn encode_into<T: Serialize + ?Sized>(message: &T, out: &mut Vec<u8>) {
    // Serializing our own message types to a Vec cannot fail: they hold no
    // maps with non-string keys and no failing Serialize impls.
    serde_json::to_writer(&mut *out, message).expect("protocol messages always serialize");
    out.push(b'\n');
}

/// Encodes `message` as one JSON line, terminated by `\n`.
pub fn encode<T: Serialize + ?Sized>(message: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    encode_into(message, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::messages::FromBot;

    type Reply = FromBot<serde_json::Value>;

    #[test]
    fn classifies_bad_lines() {
        assert_eq!(decode::<Reply>(b"\xff\xfe"), Err(LineError::NotUtf8(0)));
        assert!(matches!(decode::<Reply>(b"{\"type\":"), Err(LineError::NotJson(_))));
        assert!(matches!(decode::<Reply>(b"hello"), Err(LineError::NotJson(_))));
        assert!(matches!(decode::<Reply>(b"{\"type\":\"dance\"}"), Err(LineError::Shape(_))));
        assert!(matches!(decode::<Reply>(b"[1,2]"), Err(LineError::Shape(_))));
    }

    #[test]
    fn reads_the_leading_type() {
        assert_eq!(message_type(br#"{"type":"turn","id":3}"#), Some("turn"));
        assert_eq!(message_type(br#" { "type" : "bye" }"#), Some("bye"));
        assert_eq!(message_type(br#"{"id":3,"type":"turn"}"#), None);
        assert_eq!(message_type(br#"{"type":"tu\"rn"}"#), None);
        assert_eq!(message_type(b"{\"type\":\"unterminated"), None);
        assert_eq!(message_type(b"[]"), None);
    }

    #[test]
    fn only_json_whitespace_is_whitespace() {
        assert_eq!(trim_json_whitespace(b" \t\r\n{}\r\n "), b"{}");
        assert_eq!(trim_json_whitespace(b"\x0c{}\x0c"), b"\x0c{}\x0c");
        assert_eq!(trim_json_whitespace(b" \t "), b"");
        assert!(matches!(
            decode::<Reply>(b"\x0c{\"type\":\"move\",\"id\":3,\"index\":1}\x0c"),
            Err(LineError::NotJson(_))
        ));
        assert_eq!(message_type(b"\x0c{\"type\":\"turn\"}"), None);
    }

    #[test]
    fn accepts_crlf_and_round_trips() {
        let reply: Reply = decode(b"{\"type\":\"move\",\"id\":3,\"index\":1}\r").unwrap();
        let line = encode(&reply);
        assert_eq!(line, b"{\"type\":\"move\",\"id\":3,\"index\":1}\n");
    }
}
