//! Checking what was played and who plays it: records against the engine
//! ([`verify`]), a bot against recorded games ([`replay`]), the conformance
//! test of one bot ([`conformance`], `arena check-bot`) and of one engine
//! program ([`engine`], `arena check-engine`), and what the seats of a
//! recorded game of an engine program were told ([`told`], for `arena view`).

pub(crate) mod conformance;
pub(crate) mod engine;
pub(crate) mod replay;
pub(crate) mod told;
pub mod verify;
