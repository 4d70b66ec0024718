//! The table of a league's settings: one row each, from which come the
//! league file's keys ([`ConfigFile`]), the flags as given ([`Overrides`])
//! and the two merged, a flag winning ([`Given`]).
//!
//! A row is the setting's key in a league file (its flag is the same with
//! dashes: `move_timeout`, `--move-timeout`), what its flag gives, what the
//! file gives, and how the file's value is read into the flag's type (its
//! errors said of the key). A number's default, range and help text are
//! its row of [`crate::settings`]; the flags' parsers and help texts read
//! them there. Adding a setting is a row here, its flag in `cli/`, and
//! where [`LeagueConfig::resolve`](super::LeagueConfig::resolve) keeps it.

use super::file::BotEntry;
use super::{ConfigError, SettingProblem};
use crate::bot::sandbox::Sandbox;
use crate::schedule::Shard;
use crate::schedule::clock::TimeControl;
use crate::schedule::lanes::Restart;
use crate::settings::VariantSetting;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Declares the settings: each row `key: FLAG, FILE => read;`, its doc
/// comment saying what it is (see the module's docs).
macro_rules! settings {
    ($( $(#[$doc:meta])* $key:ident: $flag:ty, $file:ty => $read:path; )*) => {
        /// The league file (TOML), every key optional.
        #[derive(Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub(super) struct ConfigFile {
            $( $(#[$doc])* pub(super) $key: Option<$file>, )*
            /// `[limits]`: the bots' resource limits, by name.
            #[serde(default)]
            pub(super) limits: BTreeMap<String, toml::Value>,
            /// `[variant]`: the variant settings.
            #[serde(default)]
            pub(super) variant: BTreeMap<String, toml::Value>,
            /// `[[bot]]`: the bots, in order.
            #[serde(default, rename = "bot")]
            pub(super) bots: Vec<BotEntry>,
        }

        /// What the user gave on the command line (each `None` when absent).
        #[derive(Debug, Default, Clone)]
        pub struct Overrides {
            $( $(#[$doc])* pub $key: Option<$flag>, )*
            /// `--config FILE`.
            pub config: Option<PathBuf>,
            /// `--bot NAME=COMMAND`, in order.
            pub bots: Vec<String>,
            /// `--bot-dir NAME=DIR`.
            pub bot_dirs: Vec<String>,
            /// `--bot-env NAME=KEY=VALUE`.
            pub bot_envs: Vec<String>,
            /// `--bot-clock NAME=BASE+INC`.
            pub bot_clocks: Vec<String>,
            /// `--bot-move-timeout NAME=MS`.
            pub bot_move_timeouts: Vec<String>,
            /// `--variant KEY=VALUE`, in order.
            pub variants: Vec<VariantSetting>,
            /// `--limit NAME=VALUE`, in order.
            pub limits: Vec<String>,
            /// `--shard K/N` (a run's part, not a setting of the league file).
            pub shard: Option<Shard>,
        }

        /// Each setting as given: by its flag, else by the league file, read.
        #[derive(Debug)]
        pub(super) struct Given {
            $( $(#[$doc])* pub(super) $key: Option<Origin<$flag>>, )*
        }

        impl Given {
            /// The settings of `flags` and `file`, a flag winning; an error
            /// names the key whose value in the file cannot be read.
            pub(super) fn of(
                flags: &Overrides,
                file: &ConfigFile,
                key_error: impl Fn(&str, SettingProblem) -> ConfigError,
            ) -> Result<Given, ConfigError> {
                Ok(Given {
                    $( $key: match (&flags.$key, &file.$key) {
                        (Some(value), _) => Some(Origin::Flag(value.clone())),
                        (None, Some(value)) => {
                            Some(Origin::File($read(value).map_err(|why| key_error(stringify!($key), why))?))
                        }
                        (None, None) => None,
                    }, )*
                })
            }
        }

        /// The keys of the league file's settings (each the name of a flag, with dashes).
        #[cfg(test)]
        pub const KEYS: &[&str] = &[$(stringify!($key)),*];
    };
}

settings! {
    /// `game`: the game's name.
    game: String, String => same;
    /// `engine`: an engine program's command (run in the league file's directory, or the working directory).
    engine: String, String => same;
    /// `engine_timeout`: ms an engine program has for each answer.
    engine_timeout: u64, u64 => same;
    /// `format`: who meets whom.
    format: String, String => same;
    /// `players`: seats at each game.
    players: u64, u64 => same;
    /// `games`: games per group of bots.
    games: u64, u64 => same;
    /// `budget`: the most games of a learning league.
    budget: u64, u64 => same;
    /// `swiss_rounds`: the rounds of a Swiss league.
    swiss_rounds: u64, u64 => same;
    /// `seed`: the league seed.
    seed: u64, u64 => same;
    /// `concurrency`: games played at once.
    concurrency: u64, u64 => same;
    /// `move_timeout`: ms per move.
    move_timeout: u64, u64 => same;
    /// `clock`: each seat's game clock, BASE+INC.
    clock: TimeControl, String => parsed;
    /// `startup_timeout`: ms to answer `hello`.
    startup_timeout: u64, u64 => same;
    /// `out`: the output directory.
    out: PathBuf, PathBuf => same;
    /// `sandbox`: how bot processes are confined.
    sandbox: Sandbox, String => parsed;
    /// `restart`: when bot processes are started.
    restart: Restart, String => parsed;
    /// `cpus_per_game`: CPUs of each game in flight.
    cpus_per_game: u64, u64 => same;
    /// `deals`: the file to set the games up from.
    deals: PathBuf, PathBuf => same;
}

/// Where a setting was given: a flag or the league file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Origin<T> {
    /// By its flag.
    Flag(T),
    /// By the league file.
    File(T),
}

impl<T> Origin<T> {
    /// The value, wherever it was given.
    pub(super) fn value(self) -> T {
        match self {
            Origin::Flag(value) | Origin::File(value) => value,
        }
    }

    /// The value, and the directory a relative path in it is relative to:
    /// the working directory `cwd` for a flag, the league file's `base` for the file.
    pub(super) fn with_dir(self, cwd: &Path, base: &Path) -> (T, PathBuf) {
        match self {
            Origin::Flag(value) => (value, cwd.to_path_buf()),
            Origin::File(value) => (value, base.to_path_buf()),
        }
    }
}

impl Origin<PathBuf> {
    /// The path, relative to the working directory `cwd` for a flag, to the league file's `base` for the file.
    pub(super) fn path(self, cwd: &Path, base: &Path) -> PathBuf {
        let (path, dir) = self.with_dir(cwd, base);
        dir.join(path)
    }
}

/// A file's value of the flag's own type, as it is.
fn same<T: Clone>(value: &T) -> Result<T, SettingProblem> {
    Ok(value.clone())
}

/// A file's value as text, parsed as the flag's parser does.
fn parsed<T: FromStr>(text: &str) -> Result<T, SettingProblem>
where
    SettingProblem: From<T::Err>,
{
    text.parse().map_err(SettingProblem::from)
}
