//! What a run of the bot arena writes and any tool reads back, at the
//! bottom of the workspace: the game record, one line of `games.jsonl`, and
//! its summary ([`record`]); faults as data ([`fault`]); the engine
//! program a record names ([`identity`]); time controls ([`clock`]); and the
//! seeds a record's games are set up from ([`seeds`]); and the files of a
//! run's output directory read back typed ([`files`]: `games.jsonl`,
//! `standings.json` as [`standings`], `sprt.json` as [`sprt`]).
//! `arena/RECORDS.md` documents every field.
//!
//! It depends on serde and the protocol's types only: no process, no
//! runtime, no command line.
#![deny(missing_docs)]

pub mod clock;
pub mod fault;
pub mod files;
pub mod identity;
pub mod record;
pub mod seeds;
pub mod sprt;
pub mod standings;
