//! Statistics over finished games, fed the games' summaries
//! ([`records::record::GameSummary`]). Pure and deterministic: no I/O, no
//! process, no runtime.
//!
//! - [`ratings`]: Elo, Weng–Lin and the pairwise results they rest on.
//! - [`standings`]: each bot's results and ratings, and the standings as
//!   a document (`standings.json`, CSV, Markdown, text tables).
//! - [`sprt`]: the sequential probability ratio test of `arena sprt`, and
//!   `sprt.json`.
//! - [`fault_summary`]: a run's faults, bot by bot and kind by kind.
#![deny(missing_docs)]

pub mod fault_summary;
pub mod ratings;
pub mod sprt;
pub mod standings;
