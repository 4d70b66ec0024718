//! The game record ([`records::record`]), and the record of a built-in game
//! as its own types read it back.

pub use records::record::*;

/// The record of a game of the typed game `G` (a built-in game), as read back.
pub type RecordOf<G> = GameRecord<<G as game::Game>::Variant, Timed<<G as game::Game>::Event>>;
