//! Checking what was played and who plays it: records against the engine
//! ([`verify`]), a bot against recorded games ([`replay`]), the conformance
//! test of one bot ([`conformance`], `arena check-bot`) and of one engine
//! program ([`engine`], `arena check-engine`).

pub mod conformance;
pub mod engine;
pub mod replay;
pub mod verify;
