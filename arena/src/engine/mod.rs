//! Game engines: the engine protocol every game is reached through
//! ([`link`]: in process for a built-in game, over pipes for an engine
//! program, [`process`]), what an engine is ([`spec`]; an engine program's
//! command in [`program`]), the built-in games and what the arena asks of
//! one ([`games`]; their records read typed in [`recorded`]), how a game is set up ([`origin`]), one game in
//! progress, checked as it goes ([`running`], with the rules every answer
//! must follow in [`rules`]), a built-in game served as a program
//! ([`serve`], `arena engine NAME`) and the generic page of a recorded game
//! ([`page`]); an engine program confined with the bots under `--sandbox
//! bwrap` ([`sandbox`]). The modules import in that order, without a cycle:
//! `running` → `spec` → `games` → `link`, `serve`.

pub(crate) mod games;
pub(crate) mod link;
pub(crate) mod origin;
pub(crate) mod page;
pub(crate) mod process;
pub(crate) mod program;
pub(crate) mod recorded;
pub(crate) mod rules;
pub(crate) mod running;
pub(crate) mod sandbox;
pub(crate) mod serve;
pub(crate) mod spec;
