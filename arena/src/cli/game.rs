//! Which game a command plays: a built-in one (`--game NAME`) or an engine
//! program (`--engine COMMAND`), and the variant settings it is asked with.

use super::flags::number;
use super::{Failure, current_dir};
use crate::engine::program::Program;
use crate::settings::{ENGINE_TIMEOUT, GAME, VariantSetting};
use clap::Args;

/// The game of a run: `--game` or `--engine`.
#[derive(Debug, Clone, Default, Args)]
pub struct GameArgs {
    /// The game built into the arena.
    #[arg(long, conflicts_with = "engine", help = game_help())]
    pub game: Option<String>,
    /// A game engine program, for any other game: a command that speaks the
    /// engine protocol (engines/ENGINES.md), quoted as one argument.
    #[arg(long, value_name = "COMMAND")]
    pub engine: Option<String>,
    /// Time allowed for each answer of an --engine program, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&ENGINE_TIMEOUT), help = ENGINE_TIMEOUT.help())]
    pub engine_timeout: Option<u64>,
}

/// The help text of `--game`.
fn game_help() -> String {
    format!("The game built into the arena: {GAME} (the default) or leduc (`arena rules --game NAME` explains it)")
}

impl GameArgs {
    /// The built-in game named, or the default one.
    pub fn game(&self) -> &str {
        self.game.as_deref().unwrap_or(GAME)
    }

    /// The engine program of `--engine`, run from the current directory.
    pub fn program(&self) -> Result<Option<Program>, Failure> {
        self.engine
            .as_ref()
            .map(|command| {
                Ok(Program {
                    command: command.clone(),
                    dir: current_dir()?,
                    timeout_ms: self.engine_timeout.unwrap_or(ENGINE_TIMEOUT.default),
                })
            })
            .transpose()
    }
}

/// The settings of `--players N` (if given) and `--variant KEY=VALUE`, in order.
pub fn settings(players: Option<usize>, variants: &[VariantSetting]) -> Vec<(String, String)> {
    let players = players.map(|players| ("players".to_string(), players.to_string()));
    players.into_iter().chain(variants.iter().map(VariantSetting::pair)).collect()
}
