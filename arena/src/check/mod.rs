//! Checking what was played and who plays it: records against the engine
//! ([`verify`]), a bot against recorded games ([`replay`]), the conformance
//! test of one bot ([`conformance`], `arena check-bot`) and of one engine
//! program ([`engine`], `arena check-engine`).

pub(crate) mod conformance;
pub(crate) mod engine;
pub(crate) mod replay;
pub mod verify;
