//! Checking what was played and who plays it: records against the engine
//! ([`verify`]), a bot against recorded games ([`replay`]) and the
//! conformance test of one bot ([`conformance`], `arena check-bot`).

pub mod conformance;
pub mod replay;
pub mod verify;
