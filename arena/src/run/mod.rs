//! Running games with real processes: the protocol with one bot
//! ([`session`]), one game ([`play`]), a whole run of them on worker threads
//! ([`runner`]) and what the user sees meanwhile ([`progress`]), a run as a
//! command runs it ([`execute`]), and what they share: the match
//! ([`table`]), which game comes next ([`dealer`]), games set up from a file
//! ([`setups`]), what the engine is asked before a run ([`setting`]) and
//! places after a fault ([`outcome`]).

pub(crate) mod dealer;
pub(crate) mod execute;
pub(crate) mod outcome;
pub mod play;
pub(crate) mod progress;
pub(crate) mod runner;
pub(crate) mod session;
pub(crate) mod setting;
pub(crate) mod setups;
pub(crate) mod table;
