//! How a game is set up: drawn from a seed, or given in advance.

use serde_json::Value;

/// How a game is set up.
#[derive(Debug, Clone, Copy)]
pub enum Origin<'a> {
    /// Drawn from this seed.
    Seed(u64),
    /// Given in advance.
    Setup(&'a Value),
}
