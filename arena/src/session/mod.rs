//! A command's run as the library runs it: what the commands of `cli/`
//! call once their flags are parsed.
//!
//! - [`check_bot`]: the conformance test of one bot, and its checklist;
//! - [`command`]: what every command shares: the program's name, the
//!   working directory, a random seed, how to continue a stopped run;
//! - [`engines`]: a built-in game served over the engine protocol, and an engine program's conformance test;
//! - [`entrants`]: who plays a league's or an SPRT's run, read from its configuration;
//! - [`exit`]: the exit statuses, and the one place where the library's errors become them;
//! - [`league`]: a league's life, from its flags or output directory to its standings;
//! - [`live`]: what a run serves while it runs (`--serve`, `--listen`);
//! - [`mod@matches`]: a match's life, from its flags to its standings;
//! - [`play`]: a person's sitting against bots, in the terminal or the browser;
//! - [`merge`]: a league's shards combined into one output directory;
//! - [`recorded`]: which engine program a command that reads records may run;
//! - [`replay`]: a bot fed recorded games, and where it now chooses differently;
//! - [`mod@report`]: the HTML page of a run's output directory;
//! - [`sprt`]: an SPRT's life, from its flags or output directory to its verdict;
//! - [`verify`]: recorded games re-played through their engine, and where they disagree;
//! - [`view`]: a recorded game's page.

pub mod check_bot;
mod command;
pub mod engines;
mod entrants;
pub mod exit;
pub mod league;
pub mod live;
pub mod matches;
pub mod merge;
pub mod play;
pub mod recorded;
pub mod replay;
pub mod report;
pub mod sprt;
pub mod verify;
pub mod view;

pub use command::{current_dir, program, random_seed, resumable};
