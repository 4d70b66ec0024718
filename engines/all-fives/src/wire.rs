//! The payloads of the All Fives game: variant settings, the state a seat
//! observes, legal moves, and the events every seat is told.
//!
//! Seats are numbered from 0. Scores are always given per seat; in a
//! partnership game both partners show their team's score.

use protocol::line::{self, LineError};
use protocol::messages;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A domino `[a, b]` with `a <= b`; the set holds each of the 28 tiles with `0 <= a <= b <= 6` once.
pub type Tile = [u8; 2];

/// Hand sizes (variant `deal`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DealSize {
    /// 9 tiles each with 2 players, 7 with 3, 5 with 4.
    Standard,
    /// 5 tiles each, whatever the player count.
    Five,
    /// 7 tiles each with 2 players, 5 with 3 or 4.
    SevenFive,
}

/// What happens at the end of a hand (variant `hand_end`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum HandEndRule {
    /// Each player's remaining pips, rounded to a multiple of five, are subtracted from his own score.
    SubtractOwn,
    /// The side that went out (or, when blocked, has fewest pips) scores the opponents' pips, rounded.
    WinnerTakes,
}

/// Every variant setting of an All Fives game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Variant {
    /// Number of players: 2, 3 or 4.
    pub players: usize,
    /// With 4 players: seats 0 and 2 play against seats 1 and 3.
    pub partners: bool,
    /// Hand sizes.
    pub deal: DealSize,
    /// Tiles that stay in the boneyard for good (0, 1 or 2).
    pub boneyard_keep: usize,
    /// Scoring at the end of a hand.
    pub hand_end: HandEndRule,
    /// The score that wins the game.
    pub target: i64,
    /// After this many hands without a winner the highest score wins.
    pub max_hands: u32,
}

impl Variant {
    /// The number of tiles each player is dealt.
    pub fn hand_size(&self) -> usize {
        match (self.deal, self.players) {
            (DealSize::Standard, 2) => 9,
            (DealSize::Standard, 3) => 7,
            (DealSize::Standard, _) => 5,
            (DealSize::Five, _) => 5,
            (DealSize::SevenFive, 2) => 7,
            (DealSize::SevenFive, _) => 5,
        }
    }

    /// The sides of the game: the seats that score together.
    pub fn teams(&self) -> Vec<Vec<usize>> {
        if self.partners { vec![vec![0, 2], vec![1, 3]] } else { (0..self.players).map(|seat| vec![seat]).collect() }
    }
}

/// An open end of the layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct End {
    /// The end's id: 0 and 1 are the two ends of the line (the spinner's sides),
    /// 2 and 3 the spinner's short ends once they are open.
    pub id: u8,
    /// The number a tile must show to be played here.
    pub pips: u8,
    /// What this end adds to the count now. A lone spinner's two sides share its count.
    pub counts: u32,
}

/// What the seat to move can see.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct State {
    /// The number of the hand being played, from 1.
    pub hand_number: u32,
    /// Your tiles, in increasing order.
    pub hand: Vec<Tile>,
    /// The open ends, by increasing id; empty before the lead.
    pub ends: Vec<End>,
    /// Every seat's score.
    pub scores: Vec<i64>,
    /// How many tiles each seat holds.
    pub hand_sizes: Vec<usize>,
    /// How many tiles the boneyard holds.
    pub boneyard: usize,
    /// How many of those may still be drawn (the boneyard minus `boneyard_keep`).
    pub drawable: usize,
}

/// A move as a bot names it in a `move` reply. Other fields are ignored, so a
/// move from the `legal` list may be sent back as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Move {
    /// The tile to play; `[a, b]` and `[b, a]` name the same tile.
    pub tile: Tile,
    /// The id of the end to play on; absent or null for the lead.
    #[serde(default)]
    pub end: Option<u8>,
}

/// A legal move as listed in `turn`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Choice {
    /// The tile to play.
    pub tile: Tile,
    /// The end to play on; null for the lead.
    pub end: Option<u8>,
    /// The points this play scores at once.
    pub points: u32,
}

/// A new hand: your tiles and who leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HandStart {
    /// The hand's number, from 1.
    pub hand: u32,
    /// The seat that leads.
    pub leader: usize,
    /// Your tiles, in increasing order.
    pub tiles: Vec<Tile>,
    /// How many tiles each seat holds.
    pub hand_sizes: Vec<usize>,
    /// How many tiles the boneyard holds.
    pub boneyard: usize,
    /// Every seat's score.
    pub scores: Vec<i64>,
}

/// A tile was played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Play {
    /// Who played.
    pub seat: usize,
    /// The tile.
    pub tile: Tile,
    /// The end it was played on; null for the lead.
    pub end: Option<u8>,
    /// The points it scored.
    pub points: u32,
    /// Every seat's score after the play.
    pub scores: Vec<i64>,
}

/// A player drew from the boneyard (the arena draws for him).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Draw {
    /// Who drew.
    pub seat: usize,
    /// How many tiles he drew.
    pub count: usize,
    /// The tiles drawn, in order: told only to the player who drew them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiles: Option<Vec<Tile>>,
}

/// A player could not play and could not draw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Pass {
    /// Who passed.
    pub seat: usize,
}

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HandOver {
    /// A player played his last tile.
    Out,
    /// Nothing could be drawn and every player passed in turn.
    Blocked,
    /// A play reached the target; the hand is not settled.
    Target,
}

/// The end of a hand: every hand revealed, and the score changes it brought.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HandEnd {
    /// The hand's number.
    pub hand: u32,
    /// How it ended.
    pub reason: HandOver,
    /// The seat that went out, if one did.
    pub out: Option<usize>,
    /// The tiles each seat still held.
    pub hands: Vec<Vec<Tile>>,
    /// The pips on those tiles, per seat (unrounded).
    pub pips: Vec<u32>,
    /// The change to each seat's score from settling the hand (deductions are negative).
    pub changes: Vec<i64>,
    /// Every seat's score after settling.
    pub scores: Vec<i64>,
}

/// A game event as one seat is told it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// See [`HandStart`].
    HandStart(HandStart),
    /// See [`Play`].
    Play(Play),
    /// See [`Draw`].
    Draw(Draw),
    /// See [`Pass`].
    Pass(Pass),
    /// See [`HandEnd`].
    HandEnd(HandEnd),
}

/// Every message an All Fives bot can receive, one per line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot {
    /// The handshake; answer `ready`.
    Hello(messages::Hello<Variant>),
    /// A game begins.
    GameStart(messages::GameStart),
    /// A hand begins.
    HandStart(HandStart),
    /// A tile was played.
    Play(Play),
    /// A player drew.
    Draw(Draw),
    /// A player passed.
    Pass(Pass),
    /// A hand ended.
    HandEnd(HandEnd),
    /// Your move; answer `move`.
    Turn(messages::Turn<State, Choice>),
    /// The game ended.
    GameEnd(messages::GameEnd),
    /// The match is over; exit.
    Bye,
}

impl ToBot {
    /// Decodes one line, like [`protocol::line::decode`], but faster for lines
    /// in the arena's own form (`"type"` first): the message's struct is read
    /// directly, without buffering the object to find its tag first.
    pub fn decode(line: &[u8]) -> Result<ToBot, LineError> {
        fn direct<T: serde::de::DeserializeOwned>(line: &[u8], wrap: fn(T) -> ToBot) -> Option<ToBot> {
            serde_json::from_slice::<T>(line.strip_suffix(b"\r").unwrap_or(line)).ok().map(wrap)
        }
        let fast = match line::message_type(line) {
            Some("turn") => direct(line, ToBot::Turn),
            Some("play") => direct(line, ToBot::Play),
            Some("draw") => direct(line, ToBot::Draw),
            Some("pass") => direct(line, ToBot::Pass),
            Some("hand_start") => direct(line, ToBot::HandStart),
            Some("hand_end") => direct(line, ToBot::HandEnd),
            Some("game_start") => direct(line, ToBot::GameStart),
            Some("game_end") => direct(line, ToBot::GameEnd),
            _ => None,
        };
        // Anything else (or anything the direct read refused) goes the general
        // way, which also classifies errors.
        fast.map_or_else(|| line::decode(line), Ok)
    }
}

/// Every message an All Fives bot can send.
pub type FromBot = messages::FromBot<Move>;

/// The JSON Schema of every message a bot receives and sends, as checked in
/// under this crate's `schema/` folder: file name and contents.
pub fn schema_documents() -> Vec<(&'static str, String)> {
    vec![
        ("all-fives.to-bot.schema.json", protocol::schema::document::<ToBot>()),
        ("all-fives.from-bot.schema.json", protocol::schema::document::<FromBot>()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_and_envelope_share_one_wire_form() {
        let play = Event::Play(Play { seat: 1, tile: [3, 5], end: Some(0), points: 10, scores: vec![0, 10] });
        let bytes = line::encode(&play);
        let parsed: ToBot = line::decode(bytes.trim_ascii_end()).unwrap();
        assert!(matches!(parsed, ToBot::Play(p) if p.points == 10 && p.end == Some(0)));
    }

    #[test]
    fn the_fast_decoder_agrees_with_the_general_one() {
        let lines: [&[u8]; 6] = [
            br#"{"type":"play","seat":1,"tile":[3,5],"end":0,"points":10,"scores":[0,10]}"#,
            br#"{"type":"turn","id":4,"time_ms":1000,"state":{"hand_number":1,"hand":[[0,3]],"ends":[],"scores":[0,0],"hand_sizes":[1,1],"boneyard":0,"drawable":0},"legal":[{"tile":[0,3],"end":null,"points":0}]}"#,
            br#"{"type":"bye"}"#,
            br#"{"seat":1,"type":"pass"}"#,
            br#"{"type":"draw","seat":0,"count":"two"}"#,
            b"not json",
        ];
        for line in lines {
            assert_eq!(ToBot::decode(line), line::decode::<ToBot>(line), "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn a_listed_move_can_be_sent_back_as_is() {
        let reply: FromBot =
            line::decode(br#"{"type":"move","id":7,"move":{"tile":[5,3],"end":1,"points":5}}"#).unwrap();
        let messages::FromBot::Move(reply) = reply else { panic!("not a move") };
        assert_eq!(reply.value, Some(Move { tile: [5, 3], end: Some(1) }));
    }

    #[test]
    fn replies_reject_unknown_fields() {
        let err = line::decode::<FromBot>(br#"{"type":"move","id":7,"idx":1}"#).unwrap_err();
        assert!(matches!(err, line::LineError::Shape(ref m) if m.contains("idx")), "{err}");
    }

    #[test]
    fn hand_sizes_follow_the_rules() {
        let mut v = Variant {
            players: 2,
            partners: false,
            deal: DealSize::Standard,
            boneyard_keep: 0,
            hand_end: HandEndRule::SubtractOwn,
            target: 250,
            max_hands: 100,
        };
        let table = [(DealSize::Standard, [9, 7, 5]), (DealSize::Five, [5, 5, 5]), (DealSize::SevenFive, [7, 5, 5])];
        for (deal, sizes) in table {
            for (players, size) in (2..=4).zip(sizes) {
                v.deal = deal;
                v.players = players;
                assert_eq!(v.hand_size(), size, "{deal:?} with {players} players");
            }
        }
    }
}
