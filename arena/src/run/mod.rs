//! Running games with real processes: the protocol with one bot
//! ([`session`]), one game ([`play`]) on the one game loop every caller
//! shares ([`game_loop`]), a person's seat at the terminal or in the
//! browser ([`person`]), a whole run of them on worker threads ([`runner`]), planned once its
//! first lane's bots have said how many games each plays at once
//! ([`first_lane`]), and what the user sees
//! meanwhile ([`progress`]) and the games in flight of a served run
//! ([`flights`]), a run as a command runs it ([`execute`]), built
//! once by every command ([`plan`]), and
//! what they share: the match ([`table`]), which game comes next
//! ([`dealer`]), games set up from a file ([`setups`]), what the engine is
//! asked before a run ([`setting`]) and places after a fault ([`outcome`]).

pub(crate) mod dealer;
pub(crate) mod execute;
pub(crate) mod first_lane;
pub mod flights;
pub(crate) mod game_loop;
pub(crate) mod outcome;
pub(crate) mod person;
pub(crate) mod plan;
pub mod play;
pub(crate) mod progress;
pub(crate) mod runner;
pub(crate) mod session;
pub(crate) mod setting;
pub(crate) mod setups;
pub(crate) mod table;
