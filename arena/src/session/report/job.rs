//! A report to write: what the directory holds besides its games, and
//! the game of its records.

use crate::league::config::{LeagueConfig, SprtConfig};
use std::path::PathBuf;

/// What the directory holds besides its games.
pub(super) enum Setup {
    Match,
    League(LeagueConfig),
    Sprt(SprtConfig),
}

/// A report to write, once its game is known.
pub(super) struct Job {
    pub(super) dir: PathBuf,
    pub(super) output: PathBuf,
    pub(super) setup: Setup,
    pub(super) limit: usize,
}

/// The game of the records.
pub(super) struct GameOf {
    pub(super) name: String,
    /// Whether an engine program played it.
    pub(super) program: bool,
    pub(super) scoring: game::Scoring,
}
