//! Running games with real processes: the protocol with one bot
//! ([`session`]), one game ([`play`]) on the one game loop every caller
//! shares ([`game_loop`]), a whole run of them on worker threads
//! ([`runner`]) and what the user sees meanwhile ([`progress`]), and what
//! they share: the match ([`table`]), which game comes next ([`dealer`]),
//! games set up from a file ([`setups`]) and places after a fault
//! ([`outcome`]).

pub(crate) mod dealer;
pub(crate) mod game_loop;
pub(crate) mod outcome;
pub(crate) mod person;
pub mod play;
pub(crate) mod progress;
pub(crate) mod runner;
pub(crate) mod session;
pub(crate) mod setups;
pub(crate) mod table;
