//! The bot arena's wire protocol, version 1.
//!
//! The arena and a bot exchange one JSON object per line over the bot's
//! stdin and stdout. Every object has a `type` field. The full description,
//! with a transcript of a hand, is in `PROTOCOL.md` beside this crate.
//!
//! - [`messages`]: the game-agnostic envelope (handshake, game start, turn
//!   requests, replies, game end, bye), generic over the game's payloads.
//! - [`all_fives`]: the payloads of the All Fives game, and [`all_fives::ToBot`],
//!   every message an All Fives bot can receive, for bots written in Rust.
//! - [`leduc`]: the payloads of the Leduc Hold'em game, and [`leduc::ToBot`].
//! - [`line`](mod@line): pure encoding and decoding of one line.
//! - [`schema`]: the JSON Schema of every message, generated from these types.
//! - [`invariants`]: the checks the line fuzz target and its regression tests run.
#![deny(missing_docs)]

pub mod all_fives;
pub mod invariants;
pub mod leduc;
pub mod line;
pub mod messages;
pub mod schema;

/// The protocol version this crate speaks, sent in `hello`.
pub const VERSION: u32 = 1;
