//! The bot arena: runs bots as external processes and pits them against each
//! other in turn-based games with hidden information, enforcing the rules, the
//! protocol and the time limits, recording every game and ranking the bots.
//!
//! - [`games`]: the engines, by name (the `game` crate holds the boundary every
//!   engine implements; each engine is a crate of its own).
//! - [`schedule`], [`seeds`], [`outcome`], [`clock`], [`standings`], [`whole_deals`], [`ratings`], [`sprt`]: pure match logic.
//! - [`bot`], [`session`], [`pool`], [`play`], [`run`], [`replay`]: processes and the protocol.
//! - [`verify`]: re-checking a record against the engine.
//! - [`record`], [`output`]: what is written; [`queued`]: changes of a running league's field; [`report`]: pages that show it; [`setups`]: games set up from a file; [`cli`], [`console`], [`progress`], [`signals`]: the terminal; [`untrusted`]: what a bot wrote, made safe to show there.
//! - [`conformance`]: `arena check-bot`, the conformance test of one bot.
//! - [`engine`]: game engines as processes: `arena engine` (a built-in game
//!   served over the engine protocol) and `arena check-engine`.
#![deny(missing_docs)]

pub mod bot;
pub mod cli;
pub mod clock;
pub mod config;
pub mod conformance;
pub mod console;
pub mod dealer;
pub mod engine;
pub mod fault;
pub mod fault_summary;
pub mod games;
pub mod league;
pub mod learning;
pub mod outcome;
pub mod output;
pub mod play;
pub mod pool;
pub mod progress;
pub mod queued;
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
pub mod whole_deals;
