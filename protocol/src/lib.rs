//! The bot arena's wire protocol, version 1.
//!
//! The arena and a bot exchange one JSON object per line over the bot's
//! stdin and stdout. Every object has a `type` field. The full description,
//! with the game-neutral messages, is in `PROTOCOL.md` beside this crate; each
//! game's own messages and a transcript of its play are beside its engine
//! (for All Fives, `engines/all-fives/PROTOCOL.md`).
//!
//! This crate names no game: each engine crate holds its own payloads (its
//! variant, states, choices, moves and events, in a module `wire`) and the
//! JSON Schema of its messages.
//!
//! - [`messages`]: the game-agnostic envelope (handshake, game start, turn
//!   requests, replies, game end, bye), generic over the game's payloads.
//! - [`engine`]: the engine protocol, between the arena and a game engine that
//!   runs as a process of its own (`engines/ENGINES.md`).
//! - [`line`](mod@line): pure encoding and decoding of one line.
//! - [`session`]: many games at once in one bot process, each line naming its game.
//! - [`schema`]: the JSON Schema of a game's messages, generated from its types.
//! - [`invariants`]: the checks the line fuzz target and its regression tests run.
#![deny(missing_docs)]

pub mod engine;
pub mod invariants;
pub mod line;
pub mod messages;
pub mod schema;
pub mod session;

/// The protocol version this crate speaks, sent in `hello`.
pub const VERSION: u32 = 1;
