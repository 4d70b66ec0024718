//! The bot arena: runs bots as external processes and pits them against each
//! other in turn-based games with hidden information, enforcing the rules, the
//! protocol and the time limits, recording every game and ranking the bots.
//!
//! - [`game`]: the boundary every game engine implements; [`games`]: the engines.
//! - [`schedule`], [`seeds`], [`outcome`], [`standings`], [`ratings`], [`sprt`]: pure match logic.
//! - [`bot`], [`session`], [`pool`], [`play`], [`run`], [`replay`]: processes and the protocol.
//! - [`verify`]: re-checking a record against the engine.
//! - [`record`], [`output`]: what is written; [`html`], [`report`]: pages that show it; [`setups`]: games set up from a file; [`cli`], [`console`], [`progress`], [`signals`]: the terminal; [`untrusted`]: what a bot wrote, made safe to show there.
//! - [`conformance`]: `arena check-bot`, the conformance test of one bot.
//! - [`fuzz_input`]: arbitrary bytes read as a game's choices, for each engine's
//!   `invariants` (checks shared by the fuzz targets in `fuzz/` and the tests).
#![deny(missing_docs)]

pub mod bot;
pub mod cli;
pub mod config;
pub mod conformance;
pub mod console;
pub mod dealer;
pub mod fault;
pub mod fault_summary;
pub mod fuzz_input;
pub mod game;
pub mod games;
pub mod html;
pub mod league;
pub mod outcome;
pub mod output;
pub mod play;
pub mod pool;
pub mod progress;
pub mod ratings;
pub mod record;
pub mod replay;
pub mod report;
pub mod run;
pub mod schedule;
pub mod seeds;
pub mod session;
pub mod setups;
pub mod signals;
pub mod sprt;
pub mod standings;
pub mod start_failures;
pub mod table;
pub mod untrusted;
pub mod verify;
