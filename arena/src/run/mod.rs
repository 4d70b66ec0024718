//! Running games with real processes: the protocol with one bot
//! ([`session`]), one game ([`play`]), a whole run of them on worker threads
//! ([`runner`]) and what the user sees meanwhile ([`progress`]), and what
//! they share: the match ([`table`]), which game comes next ([`dealer`]),
//! games set up from a file ([`setups`]) and places after a fault
//! ([`outcome`]).

pub mod dealer;
pub mod outcome;
pub mod play;
pub mod progress;
pub mod runner;
pub mod session;
pub mod setups;
pub mod table;
