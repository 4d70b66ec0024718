//! The game-agnostic envelope of protocol v1.
//!
//! These types are generic over a game's payloads: `V` the variant settings,
//! `S` the state a seat observes when asked to move, `C` a legal move as listed
//! to the bot, and `M` a move as a bot names it. Game events are the game's own
//! tagged objects and travel as separate lines between these messages.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The `type` of every message of the envelope, either way ([`ToBot`] and
/// [`FromBot`]): reserved, so that no game's event (an engine program's
/// view, sent to a bot as a line of its own) can be taken for one.
pub const ENVELOPE_TYPES: [&str; 7] = ["hello", "game_start", "turn", "game_end", "bye", "ready", "move"];

/// Messages of the envelope that the arena sends to a bot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot<V, S, C> {
    /// First message of a match; the bot answers `ready`.
    Hello(Hello<V>),
    /// A game begins; this process plays the given seat in it.
    GameStart(GameStart),
    /// The bot must answer `move` with the same `id` within `time_ms`.
    Turn(Turn<S, C>),
    /// The game is over.
    GameEnd(GameEnd),
    /// The match is over; the bot should exit.
    Bye,
}

/// Messages a bot sends to the arena.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromBot<M> {
    /// The answer to `hello`.
    Ready(Ready),
    /// The answer to `turn`.
    Move(MoveReply<M>),
}

/// The handshake request: what the match is and which seat this process plays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Hello<V> {
    /// The protocol version the arena speaks (currently 1).
    pub protocol: u32,
    /// The game's name, e.g. `"all-fives"`.
    pub game: String,
    /// Every variant setting in force, defaults included.
    pub variant: V,
    /// The seat this process plays in every game of the match (0-based).
    pub seat: usize,
    /// The number of seats at the table.
    pub seats: usize,
    /// The sides of the game: each inner list holds the seats that score together.
    pub teams: Vec<Vec<usize>>,
    /// The name the user gave this bot on the command line.
    pub name: String,
    /// Wall-clock time allowed for each answer to `turn`, in milliseconds.
    pub move_timeout_ms: u64,
    /// Wall-clock time allowed for answering `hello`, in milliseconds.
    pub startup_timeout_ms: u64,
}

/// A bot's answer to `hello`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ready {
    /// The bot's own name for itself.
    pub name: String,
    /// The bot's version, free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The bot's author, free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// The protocol version the bot speaks; when given it must be 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<u32>,
    /// How many games the process plays at once (at least 1), when it plays
    /// them in a session: every later line either way but `bye` then names
    /// its game (see [`crate::session`]). Absent: one game at a time, lines
    /// naming no game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u32>,
    /// Whether the process may play any seat: it takes each game's seat
    /// from that game's `game_start`, not from `hello`, and the arena may
    /// give it games at different seats of one lane. Absent: false, every
    /// game at `hello`'s seat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub any_seat: bool,
}

/// The start of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameStart {
    /// The game's id: no other game of the match has it, and it is opaque (it
    /// tells neither the deal nor the game's place in the schedule).
    pub id: u64,
    /// A seed for the bot's own randomness in this game, derived from the match seed.
    pub seed: u64,
    /// The seat this process plays in this game: `hello`'s, unless the
    /// process said `any_seat` in `ready`.
    pub seat: usize,
}

/// A request for a move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Turn<S, C> {
    /// The request id; the answer must carry the same id.
    pub id: u64,
    /// Time allowed for this answer, in milliseconds, counted from when the arena wrote this line:
    /// the per-move limit, or what is left on this seat's clock when that is less.
    pub time_ms: u64,
    /// Under a game clock (`--clock`): what is left on this seat's clock, in
    /// milliseconds, before this move; absent without a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_ms: Option<u64>,
    /// Under a game clock: what a move adds to the mover's clock once it is
    /// made, in milliseconds; absent without a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<u64>,
    /// What this seat can see of the game now.
    pub state: S,
    /// Every legal move, in a fixed order; answer with an index into this list or with one of its moves.
    pub legal: Vec<C>,
}

/// A bot's answer to `turn`: exactly one of `index` and `move`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveReply<M> {
    /// The `id` of the `turn` being answered.
    pub id: u64,
    /// The 0-based index of the chosen move in `legal`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// The chosen move, by value.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub value: Option<M>,
}

/// The end of a game, with its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameEnd {
    /// The game's id, as in `game_start`.
    pub id: u64,
    /// Why the game ended: a reason given by the game (e.g. `"target"`), or `"forfeit"` after a fault.
    pub reason: String,
    /// Final score of each seat (partners show their team's score).
    pub scores: Vec<i64>,
    /// Finishing place of each seat, 0 for first; equal places share a number.
    pub ranks: Vec<u32>,
    /// Seats that forfeited through a fault, with the fault's kind.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<Forfeit>,
}

/// A seat that forfeited a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Forfeit {
    /// The seat.
    pub seat: usize,
    /// The fault's kind, e.g. `"timeout"`.
    pub kind: String,
}

/// Reads a move reply by index, `{"type":"move","id":N,"index":K}`, the
/// commonest line a bot writes, without going through serde: the three keys
/// in any order, whitespace allowed, nothing else. Returns `(id, index)`, or
/// `None` for any other line (which the general decoder then reads, and
/// judges). Never accepts a line the general decoder would refuse.
pub fn move_by_index(line: &[u8]) -> Option<(u64, usize)> {
    let mut rest = crate::line::trim_json_whitespace(line);
    rest = rest.strip_prefix(b"{")?.strip_suffix(b"}")?;
    let (mut kind, mut id, mut index) = (false, None, None);
    for pair in rest.split(|&b| b == b',') {
        let colon = pair.iter().position(|&b| b == b':')?;
        let key = crate::line::trim_json_whitespace(&pair[..colon]).strip_prefix(b"\"")?.strip_suffix(b"\"")?;
        let value = crate::line::trim_json_whitespace(&pair[colon + 1..]);
        match key {
            b"type" if !kind && value == b"\"move\"" => kind = true,
            b"id" if id.is_none() => id = Some(number(value)?),
            b"index" if index.is_none() => index = Some(usize::try_from(number(value)?).ok()?),
            _ => return None,
        }
    }
    match (kind, id, index) {
        (true, Some(id), Some(index)) => Some((id, index)),
        _ => None,
    }
}

/// A plain unsigned decimal integer, as JSON writes one.
fn number(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 20 || !text.iter().all(u8::is_ascii_digit) || (text.len() > 1 && text[0] == b'0')
    {
        return None;
    }
    std::str::from_utf8(text).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_replies_by_index_exactly_as_the_general_decoder() {
        let lines: [&[u8]; 12] = [
            br#"{"type":"move","id":17,"index":3}"#,
            br#"{"id": 17, "type": "move", "index": 3}"#,
            b"{\"type\":\"move\",\"id\":17,\"index\":3}\r",
            br#"{"type":"move","id":17,"index":3,"index":4}"#,
            br#"{"type":"move","id":17}"#,
            br#"{"type":"move","id":017,"index":3}"#,
            br#"{"type":"move","id":-1,"index":3}"#,
            br#"{"type":"move","id":1.5,"index":3}"#,
            br#"{"type":"ready","id":1,"index":3}"#,
            br#"{"type":"move","id":1,"index":3,"move":{"tile":[1,2]}}"#,
            br#"{"type":"move","id":1,"idx":3}"#,
            br#"{"type":"move","id":99999999999999999999999,"index":3}"#,
        ];
        for line in lines {
            let general = crate::line::decode::<FromBot<serde_json::Value>>(line);
            let fast = move_by_index(line);
            match (&general, fast) {
                (Ok(FromBot::Move(MoveReply { id, index: Some(index), value: None })), Some(got)) => {
                    assert_eq!(got, (*id, *index), "{}", String::from_utf8_lossy(line))
                }
                (_, None) => {}
                _ => panic!(
                    "the fast path accepted {} but the general decoder gave {general:?}",
                    String::from_utf8_lossy(line)
                ),
            }
        }
        assert_eq!(move_by_index(br#"{"type":"move","id":17,"index":3}"#), Some((17, 3)));
        assert_eq!(move_by_index(br#"{"id": 17, "type": "move", "index": 3}"#), Some((17, 3)));
    }

    #[test]
    fn the_reserved_types_are_those_of_the_envelope() {
        type Value = serde_json::Value;
        // serde names the variants it expects when the type is unknown.
        let unknown = r#"{"type":"?"}"#;
        let to_bot = serde_json::from_str::<ToBot<Value, Value, Value>>(unknown).unwrap_err().to_string();
        let from_bot = serde_json::from_str::<FromBot<Value>>(unknown).unwrap_err().to_string();
        let listed: Vec<String> = [to_bot, from_bot]
            .iter()
            .flat_map(|error| {
                let names = error.split("expected ").nth(1).unwrap_or_default();
                names.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(listed, ENVELOPE_TYPES, "the envelope's messages, either way");
    }
}
