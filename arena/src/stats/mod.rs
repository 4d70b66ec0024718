//! Statistics over finished games: ratings ([`ratings`]), standings
//! ([`standings`], with those counting whole deals only) and the SPRT
//! ([`sprt`]) from the pure `stats` crate; beside them, the faults of a
//! run, bot by bot ([`fault_summary`]).

pub(crate) mod fault_summary;
pub(crate) use ::stats::{ratings, sprt, standings};
