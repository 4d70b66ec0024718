//! What a run writes and reads back: the game record ([`record`]), the
//! output directory ([`output`]), and a records file given on the command
//! line ([`record_file`]).

pub mod output;
pub mod record;
pub mod record_file;
