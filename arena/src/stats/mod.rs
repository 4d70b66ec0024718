//! Statistics over finished games. Pure and deterministic: ratings
//! ([`ratings`]), standings ([`standings`], counting whole deals only with
//! [`whole_deals`]), the SPRT ([`sprt`]) and the faults of a run, bot by bot
//! ([`fault_summary`]).

pub(crate) mod fault_summary;
pub(crate) mod ratings;
pub(crate) mod sprt;
pub(crate) mod standings;
pub(crate) mod whole_deals;
