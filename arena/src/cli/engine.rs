//! `arena engine NAME`: serves a built-in game over the engine protocol on
//! stdin and stdout, and `arena check-engine COMMAND`: the conformance test
//! of an engine program (see [`crate::session::engines`], which runs both).

use super::flags::number;
use super::{Failure, current_dir};
use crate::check::engine::Settings;
use crate::session::engines;
use crate::settings::{ENGINE_TIMEOUT, VariantSetting};
use clap::Args;
use std::time::Duration;

/// Examples shown after `arena check-engine --help`.
pub const EXAMPLES: &str = "Examples:
  arena check-engine \"python3 engines/connect-four/engine.py\"
  arena check-engine \"arena engine leduc\" --variant players=3 --games 50";

/// Runs `arena engine NAME` until `bye` or the end of its input.
pub fn serve(name: &str) -> Result<i32, Failure> {
    engines::serve(name)
}

/// `arena check-engine`'s flags.
#[derive(Debug, Args)]
pub struct CheckEngineArgs {
    /// The engine: a command, split like a shell splits words (quote it as one argument).
    #[arg(value_name = "COMMAND")]
    engine: String,
    /// A variant setting, KEY=VALUE, to check the engine with (repeatable; by default its default variant).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    variants: Vec<VariantSetting>,
    /// Games played with random choices.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    games: u64,
    /// The seed of the games and of the choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Time allowed for each answer of the engine, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&ENGINE_TIMEOUT), help = ENGINE_TIMEOUT.help_as(
        "Time allowed for each answer of the engine, in milliseconds (default {default}; an engine that asks more at hello, its step_ms, is given up to 60000)"
    ))]
    timeout: Option<u64>,
    /// The most moves a game may last.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_moves: u64,
}

/// Runs `arena check-engine`: exit status 0 when every check passed, 1 when any failed.
pub fn check(args: CheckEngineArgs) -> Result<i32, Failure> {
    engines::check(&Settings {
        command: args.engine,
        dir: current_dir()?,
        variant: args.variants.iter().map(VariantSetting::pair).collect(),
        games: args.games as usize,
        seed: args.seed,
        timeout: Duration::from_millis(args.timeout.unwrap_or(ENGINE_TIMEOUT.default)),
        max_moves: args.max_moves as usize,
    })
}
