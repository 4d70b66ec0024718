//! A league's configuration: read from a TOML file, overridden by flags,
//! resolved into a [`LeagueConfig`] that is stored in the output directory
//! (`league.json`), so that a league can be resumed with nothing else.
//!
//! Paths in a configuration file (a bot's `dir`, `out`) are relative to the
//! file's directory; paths given as flags are relative to the working
//! directory. A bot runs in its `dir`, by default the directory of the file
//! that named it (or the working directory for `--bot`).
//!
//! - [`mod@file`]: the league file as read;
//! - [`table`]: the table of settings: the file's keys and the flags as given;
//! - [`resolve`]: the two resolved into a [`LeagueConfig`];
//! - [`league`]: the resolved configuration and what a run makes of it;
//! - [`field`]: the field as bots enter and retire;
//! - [`bots`]: the bots the flags name;
//! - [`errors`]: why a configuration is refused.

mod bots;
mod errors;
pub mod field;
mod file;
pub mod league;
mod resolve;
mod table;
#[cfg(test)]
mod tests;

pub use bots::{entering_bots, named_bots};
pub use errors::{ConfigError, FlagError, SettingProblem};
pub use league::{LeagueConfig, SprtConfig};
#[cfg(test)]
pub use table::ROWS;
pub use table::{Overrides, Row, fixed_on_resume, flag_type, row};
