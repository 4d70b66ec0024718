//! What a run writes and reads back: the game record ([`record`]) and the
//! output directory ([`output`]).

pub mod output;
pub mod record;
