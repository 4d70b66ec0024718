//! Running games with real processes: one game ([`play`]), a whole run of
//! them on worker threads ([`runner`]), run as a command runs it
//! ([`execute`]), and what they share: the match ([`table`]), which game
//! comes next ([`dealer`]), games set up from a file ([`setups`]), what the
//! engine is asked before a run ([`setting`]), game clocks ([`clock`]) and
//! places after a fault ([`outcome`]).

pub mod clock;
pub mod dealer;
pub mod execute;
pub mod outcome;
pub mod play;
pub mod runner;
pub mod setting;
pub mod setups;
pub mod table;
