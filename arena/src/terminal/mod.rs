//! The terminal: the arena's own stdout and stderr ([`console`]) and text a
//! bot wrote, made safe to show there ([`untrusted`]).

pub(crate) mod console;
pub(crate) mod untrusted;
