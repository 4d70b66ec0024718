//! Statistics over finished games: ratings ([`ratings`]), standings
//! ([`standings`], with those counting whole deals only), the SPRT
//! ([`sprt`]) and a run's faults bot by bot ([`fault_summary`]) from the
//! pure `stats` crate; the edge here writes the faults as text, escaped.

pub(crate) mod fault_summary;
pub(crate) use ::stats::{ratings, sprt, standings};
