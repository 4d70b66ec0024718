//! The bot arena: runs bots as external processes and pits them against each
//! other in turn-based games with hidden information, enforcing the rules, the
//! protocol and the time limits, recording every game and ranking the bots.
//!
//! The layers, from the edge inwards (docs/architecture.md walks through
//! them):
//!
//! A module imports only from its own layer and the layers below it
//! (`tests/layers.rs` checks it):
//!
//! - [`cli`]: the command line: flags parsed, one library call per command.
//! - [`session`]: a command's run (a match's, a league's, an SPRT's, a
//!   replay's, a report's, a merge's) as the library runs it, the exit
//!   statuses, and what a run serves while it runs.
//! - [`serve`]: the live page of a run, served over HTTP (`arena serve`).
//! - [`report`]: the HTML page of a run.
//! - [`check`]: records re-checked, a bot replayed against records, and the
//!   conformance tests of a bot and of an engine program.
//! - [`league`]: a league's configuration, its field as it changes, and the
//!   learning format.
//! - [`run`]: games played with real processes, one or a whole run at once,
//!   and the progress shown meanwhile.
//! - [`stats`]: ratings, standings and the SPRT (the `stats` crate), the
//!   standings of whole deals and a run's faults bot by bot. Pure.
//! - [`store`]: game records (the `records` crate's) and the output directory.
//! - [`engine`]: the engine protocol every game is reached through, in
//!   process or as a program of its own, and the built-in games.
//! - [`bot`]: bot processes, their limits and sandbox, and faults as data.
//! - [`schedule`]: which games are played, their seeds and time controls.
//!   Pure.
//! - [`terminal`]: the arena's stdout and stderr, and text from bots made
//!   safe to show.
//! - [`settings`]: each setting of a run (flag, league-file key, default,
//!   help) written once. Imports nothing of the crate.
#![deny(missing_docs)]
// The library serves the `arena` binary and its tests, so most modules are
// private to the crate; its documentation is read, and its links checked,
// with `cargo doc -p arena --document-private-items` (as scripts/check runs it).
#![allow(rustdoc::private_intra_doc_links)]

pub mod bot;
pub mod check;
pub mod cli;
pub(crate) mod engine;
pub(crate) mod league;
pub(crate) mod report;
pub mod run;
pub mod schedule;
pub(crate) mod serve;
pub(crate) mod session;
pub(crate) mod settings;
pub(crate) mod stats;
pub mod store;
pub(crate) mod terminal;
