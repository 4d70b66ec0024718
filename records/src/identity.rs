//! What a record keeps of the engine program that played a game.

use protocol::engine::ScoringInfo;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What a record says of the engine program that played it, so that the
/// game can be checked again without anything else.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The command it was run with.
    pub command: String,
    /// The directory it ran in (absent in records of earlier arenas).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    /// The version it gave in answer to `hello`.
    pub version: String,
    /// The sides of the variant, as the engine resolved it.
    pub teams: Vec<Vec<usize>>,
    /// How the standings read its scores, as the engine said.
    pub scoring: ScoringInfo,
}
