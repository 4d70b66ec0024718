//! Statistics over finished games. Pure and deterministic: ratings
//! ([`ratings`]), standings ([`standings`], counting whole deals only with
//! [`whole_deals`]), the SPRT ([`sprt`]) and the faults of a run, bot by bot
//! ([`fault_summary`]).

pub mod fault_summary;
pub mod ratings;
pub mod sprt;
pub mod standings;
pub mod whole_deals;
