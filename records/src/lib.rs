//! What a run of the bot arena writes and any tool reads back, at the
//! bottom of the workspace: the game record, one line of `games.jsonl`, and
//! its summary ([`record`]); faults as data ([`fault`]); the engine
//! program a record names ([`identity`]); time controls ([`clock`]); and the
//! seeds a record's games are set up from ([`seeds`]). `arena/RECORDS.md`
//! documents every field.
//!
//! It depends on serde and the protocol's types only: no process, no
//! runtime, no command line.
#![deny(missing_docs)]

pub mod clock;
pub mod fault;
pub mod identity;
pub mod record;
pub mod seeds;
