//! Which game a command plays: a built-in one (`--game NAME`) or an engine
//! program (`--engine COMMAND`), and the variant settings it is asked with.

use super::flags::setting_flags;
use super::{Failure, current_dir};
use crate::engine::program::Program;
use crate::settings::{ENGINE_TIMEOUT, GAME};

setting_flags! {
    /// The game of a run: `--game` or `--engine`.
    pub struct GameArgs { game, engine, engine_timeout }
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
