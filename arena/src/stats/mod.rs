//! Statistics over finished games: ratings ([`ratings`]), standings
//! ([`standings`]) and the SPRT ([`sprt`]) from the pure `stats` crate;
//! beside them, the standings counting whole deals only ([`whole_deals`],
//! which reads the schedule) and the faults of a run, bot by bot
//! ([`fault_summary`]).

pub(crate) mod fault_summary;
pub(crate) use ::stats::{ratings, sprt, standings};
pub(crate) mod whole_deals;
