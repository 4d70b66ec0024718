//! The terminal: the arena's own stdout and stderr ([`console`]), progress
//! while games run ([`progress`]), signals ([`signals`]) and text a bot
//! wrote, made safe to show ([`untrusted`]).

pub mod console;
pub mod progress;
pub mod signals;
pub mod untrusted;
