//! An engine program: the command of a game's engine that runs as a
//! process of its own (`--engine COMMAND`).

use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::time::Duration;

/// An engine program: a command, split like a shell splits words, run in
/// `dir`, that speaks the engine protocol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    /// The command, as given.
    pub command: String,
    /// Where it runs.
    pub dir: PathBuf,
    /// How long each answer may take, in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
}

/// The answer time of an engine program whose record or `league.json` does not say.
fn default_timeout_ms() -> u64 {
    crate::settings::ENGINE_TIMEOUT.default
}

impl Program {
    /// How long each answer may take.
    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms)
    }
}
