//! The bot arena: runs bots as external processes and pits them against each
//! other in turn-based games with hidden information, enforcing the rules, the
//! protocol and the time limits, recording every game and ranking the bots.
//!
//! The layers, from the edge inwards (docs/architecture.md walks through
//! them):
//!
//! - [`cli`]: the command line: flags parsed, one library call per command.
//! - [`terminal`]: what the user sees, signals, and text from bots made safe.
//! - [`run`]: games played with real processes, one or a whole run at once.
//! - [`check`]: records re-checked, a bot replayed against records, and the
//!   conformance test of one bot.
//! - [`report`]: the HTML page of a run.
//! - [`bot`]: bot processes, the protocol with one bot, and faults as data.
//! - [`engine`]: the engine protocol every game is reached through, in
//!   process or as a program of its own; [`games`]: the built-in games.
//! - [`store`]: records, the output directory and a league's configuration.
//! - [`schedule`]: which games are played, and their seeds. Pure.
//! - [`stats`]: ratings, standings and the SPRT. Pure.
//! - [`settings`]: each setting of a run (flag, league-file key, default,
//!   help) written once. Imports nothing of the crate.
#![deny(missing_docs)]

pub mod bot;
pub mod check;
pub mod cli;
pub mod engine;
pub mod games;
pub mod report;
pub mod run;
pub mod schedule;
pub mod settings;
pub mod stats;
pub mod store;
pub mod terminal;
