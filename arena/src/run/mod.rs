//! Running games with real processes: one game ([`play`]) on the one game
//! loop every caller shares ([`game_loop`]), a whole run of
//! them on worker threads ([`runner`]), and what they share: the match
//! ([`table`]), which game comes next ([`dealer`]), games set up from a file
//! ([`setups`]), game clocks ([`clock`]) and places after a fault
//! ([`outcome`]).

pub mod clock;
pub mod dealer;
pub mod game_loop;
pub mod outcome;
pub mod play;
pub mod runner;
pub mod setups;
pub mod table;
