//! Game engines: the engine protocol every game is reached through
//! ([`link`]: in process for a built-in game, over pipes for an engine
//! program, [`process`]), what an engine is ([`spec`]), the built-in games
//! ([`games`]), one game in progress, checked as it goes ([`running`], with
//! the rules every answer must follow in [`rules`]), a built-in game served
//! as a program ([`serve`], `arena engine NAME`) and the generic page of a
//! recorded game ([`page`]); an engine program confined with the bots under
//! `--sandbox bwrap` ([`sandbox`]).

pub(crate) mod games;
pub(crate) mod link;
pub(crate) mod page;
pub(crate) mod process;
pub(crate) mod rules;
pub(crate) mod running;
pub(crate) mod sandbox;
pub(crate) mod serve;
pub(crate) mod spec;
