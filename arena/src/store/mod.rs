//! What a run writes and reads back: the game record ([`record`]), the
//! output directory ([`output`]), a league's configuration ([`config`]:
//! its file, its flags, `league.json`) and the changes queued for a running
//! league ([`queued`]).

pub mod config;
pub mod output;
pub mod queued;
pub mod record;
