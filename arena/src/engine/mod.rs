//! Game engines as processes (`engines/ENGINES.md`): [`serve`] serves a
//! built-in game over the engine protocol (`arena engine NAME`), [`process`]
//! runs an engine program and speaks to it, and [`check`] is
//! `arena check-engine`, the engine author's conformance test.

pub mod check;
pub mod link;
pub mod page;
pub mod process;
pub mod running;
pub mod serve;
pub mod spec;
pub mod verify;
