//! The table of a league's settings: one row each, from which come the
//! league file's keys ([`ConfigFile`]), the flags as given ([`Overrides`]),
//! the two merged, a flag winning ([`Given`]), each setting's flag: its
//! name, value, range and help ([`row`], of the type [`flag_type`]), which
//! `cli/` turns into the commands' flags, and what `league.json` keeps
//! ([`Kept`]).
//!
//! A row is the setting's key in a league file (its flag is the same with
//! dashes: `move_timeout`, `--move-timeout`), what its flag gives, what the
//! file gives, how the file's value is read into the flag's type (its
//! errors said of the key), and its flag: the name of its value, its least
//! value, its number of [`crate::settings`] (whose range, and help text
//! with the default in force, it takes), its help text, a flag it cannot be
//! given with, and whether `--resume` takes it. A setting that `league.json`
//! keeps names its key there: a number resolved from the row alone (the
//! number given or its default) as `number: NUMBER => KEY`, another as
//! `kept: KEY: TYPE`, resolved where
//! [`LeagueConfig::resolve`](super::LeagueConfig::resolve) fills in
//! [`Chosen`] (`or:` its value for a `league.json` written before it was
//! kept); `per_shard` says that the shards of a league may differ in it.
//! Adding a setting is a row here, its name in the flags of the commands
//! that take it, and where the run reads it.
//!
//! Kept elsewhere: `game` as the game's name that the engine gives and
//! `engine` with `engine_timeout` as the engine program (its command, its
//! directory and its answer time), both resolved by the engine, not from
//! the row alone; `players` among the variant settings; the setups of
//! `deals`, not the file's path; `out` not at all (it is where
//! `league.json` is).

use super::file::BotEntry;
use super::{ConfigError, SettingProblem};
use crate::bot::sandbox::Sandbox;
use crate::schedule::clock::TimeControl;
use crate::schedule::lanes::Restart;
use crate::schedule::{Format, Shard};
use crate::settings::{
    CONCURRENCY, CPUS_PER_GAME, ENGINE_TIMEOUT, GAME, LEAGUE_GAMES, MOVE_TIMEOUT, STARTUP_TIMEOUT, VariantSetting,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Declares the settings: each row `key: FLAG, FILE => read { value: NAME,
/// least: N, number: NUMBER => STORED, kept: STORED: TYPE, or: OLDER, help: TEXT,
/// conflicts: KEY, resumes: BOOL, per_shard: BOOL }` (all but `value`
/// optional, in this order), its doc comment saying what it is (see the
/// module's docs).
macro_rules! settings {
    ($( $(#[$doc:meta])* $key:ident: $flag:ty, $file:ty => $read:path {
        value: $value:literal
        $(, least: $least:literal)?
        $(, number: $number:path $(=> $stored:ident)?)?
        $(, kept: $kept:ident: $kept_type:ty $(, or: $older:expr)?)?
        $(, help: $help:expr)?
        $(, conflicts: $conflicts:literal)?
        $(, resumes: $resumes:literal)?
        $(, per_shard: $per_shard:literal)?
    }; )*) => {
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

        /// The type of each setting's flag, by its key.
        #[allow(non_camel_case_types)]
        pub mod flag_type {
            use super::*;
            $( $(#[$doc])* pub type $key = $flag; )*
        }

        /// Each setting's flag, by its key.
        #[allow(non_upper_case_globals)]
        pub mod row {
            use super::*;
            $( $(#[$doc])* pub const $key: Row = Row {
                key: stringify!($key),
                value_name: $value,
                least: first(&[$($number.least,)? $($least,)? 0]),
                most: first(&[$($number.most,)? u64::MAX]),
                help: || None$(.or(Some(String::from($help))))?$(.or(Some($number.help())))?.unwrap_or_default(),
                conflicts: &[$($conflicts)?],
                resumes: false $(|| $resumes)?,
                per_shard: false $(|| $per_shard)?,
            }; )*
        }

        /// Every row, in the table's order.
        pub const ROWS: &[Row] = &[$(row::$key),*];

        /// The numbers resolved from the table alone (a row's `number:
        /// NUMBER => STORED`): each the number given or its default.
        #[derive(Debug)]
        pub(super) struct Numbers {
            $($($( pub(super) $stored: u64, )?)?)*
        }

        impl Numbers {
            /// The numbers given (each checked by its range), else their defaults.
            pub(super) fn of(
                given: &Given,
                key_error: impl Fn(&str, SettingProblem) -> ConfigError,
            ) -> Result<Numbers, ConfigError> {
                Ok(Numbers { $($($(
                    $stored: $number
                        .or_default(given.$key.clone().map(Origin::value))
                        .map_err(|e| key_error(stringify!($key), SettingProblem::Value(e)))?,
                )?)?)* })
            }
        }

        /// The other settings `league.json` keeps (a row's `kept: STORED:
        /// TYPE`), as [`LeagueConfig::resolve`](super::LeagueConfig::resolve)
        /// resolves them from the flags and the league file.
        #[derive(Debug)]
        pub(super) struct Chosen {
            $($( pub(super) $kept: $kept_type, )?)*
        }

        /// The settings `league.json` keeps, as resolved, each under its row's
        /// STORED key (`number: NUMBER => STORED` or `kept: STORED: TYPE`), in
        /// the table's order. A key that an older `league.json` lacks reads as
        /// the number's default or the row's `or: OLDER`; another is missing.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(try_from = "KeptAsRead")]
        pub struct Kept {
            $(
                $($(
                    #[doc = concat!("`", stringify!($key), "` as resolved.")]
                    #[serde(skip_serializing_if = "Stored::absent")]
                    pub $stored: u64,
                )?)?
                $(
                    #[doc = concat!("`", stringify!($key), "` as resolved.")]
                    #[serde(skip_serializing_if = "Stored::absent")]
                    pub $kept: $kept_type,
                )?
            )*
        }

        /// [`Kept`] as a `league.json` holds it, each key perhaps absent.
        #[derive(Deserialize)]
        pub struct KeptAsRead {
            $(
                $($( #[serde(default)] $stored: Option<u64>, )?)?
                $( #[serde(default)] $kept: Option<$kept_type>, )?
            )*
        }

        impl TryFrom<KeptAsRead> for Kept {
            type Error = String;

            fn try_from(read: KeptAsRead) -> Result<Kept, String> {
                Ok(Kept { $(
                    $($( $stored: read.$stored.unwrap_or($number.default), )?)?
                    $( $kept: match read.$kept.or(None::<$kept_type>$(.or(Some($older)))?) {
                        Some(value) => value,
                        None => return Err(format!("missing field `{}`", stringify!($kept))),
                    }, )?
                )* })
            }
        }

        impl Kept {
            /// The settings kept: the `numbers` resolved from the table and those `chosen`.
            pub(super) fn of(numbers: Numbers, chosen: Chosen) -> Kept {
                Kept { $(
                    $($( $stored: numbers.$stored, )?)?
                    $( $kept: chosen.$kept, )?
                )* }
            }

            /// The key of the first setting that differs between `self` and
            /// `other` among those every shard of a league shares (see [`Row::per_shard`]).
            pub(super) fn differs(&self, other: &Kept) -> Option<&'static str> {
                [$(
                    $($( (stringify!($key), row::$key.per_shard || self.$stored == other.$stored), )?)?
                    $( (stringify!($key), row::$key.per_shard || self.$kept == other.$kept), )?
                )*]
                .into_iter()
                .find_map(|(key, same)| (!same).then_some(key))
            }
        }
    };
}

/// A type of a setting that `league.json` keeps.
pub trait Stored {
    /// Whether `league.json` leaves it out: a setting not given, by default none.
    fn absent(&self) -> bool {
        false
    }
}

impl Stored for u64 {}
impl Stored for Format {}
impl Stored for Sandbox {}
impl Stored for Restart {}

impl<T> Stored for Option<T> {
    fn absent(&self) -> bool {
        self.is_none()
    }
}

/// A setting's flag: `--KEY` with dashes, its value's name, range and help.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// The setting's key in a league file (`move_timeout`), and its flag's id.
    pub key: &'static str,
    /// The name of the flag's value in the help (`MS`).
    pub value_name: &'static str,
    /// The least value of a whole number.
    pub least: u64,
    /// The most value of a whole number.
    pub most: u64,
    /// The help text.
    help: fn() -> String,
    /// The keys of the flags this one cannot be given with.
    pub conflicts: &'static [&'static str],
    /// Whether the flag may be given with `--resume` (it changes how the rest is played).
    pub resumes: bool,
    /// Whether the shards of a league may differ in it (`arena merge` does not compare it).
    pub per_shard: bool,
}

impl Row {
    /// The flag's name: the key with dashes (`move-timeout`).
    pub fn flag(&self) -> String {
        self.key.replace('_', "-")
    }

    /// The help text.
    pub fn help(&self) -> String {
        (self.help)()
    }
}

/// The first of `values`: of a row's parts, the one given.
const fn first(values: &[u64]) -> u64 {
    values[0]
}

/// The keys among `keys` of settings that `--resume` does not take, a
/// resumed run keeping its own: `--resume` conflicts with their flags.
pub fn fixed_on_resume(keys: &[&'static str]) -> Vec<&'static str> {
    let resumes = |key: &&str| ROWS.iter().any(|row| row.key == *key && row.resumes);
    keys.iter().copied().filter(|key| !resumes(key)).collect()
}

settings! {
    /// `game`: the game's name.
    game: String, String => same {
        value: "GAME",
        help: format!("The game built into the arena: {GAME} (the default) or leduc (`arena rules --game NAME` explains it)"),
        conflicts: "engine"
    };
    /// `engine`: an engine program's command (run in the league file's directory, or the working directory).
    engine: String, String => same {
        value: "COMMAND",
        help: "A game engine program, for any other game: a command that speaks the engine protocol \
               (engines/ENGINES.md), quoted as one argument"
    };
    /// `engine_timeout`: ms an engine program has for each answer.
    engine_timeout: u64, u64 => same { value: "MS", number: ENGINE_TIMEOUT };
    /// `format`: who meets whom.
    format: String, String => same {
        value: "FORMAT",
        kept: format: Format,
        help: "round-robin (every group of bots), gauntlet (the first bot against the others), learning (pairs \
               chosen round by round by what they would teach, until every adjacent pair's order is known at 95%) \
               or swiss (rounds of pairs of like score that have not met)"
    };
    /// `players`: seats at each game.
    players: u64, u64 => same { value: "PLAYERS", help: "Number of players (2, 3 or 4)" };
    /// `games`: games per group of bots.
    games: u64, u64 => same { value: "GAMES", number: LEAGUE_GAMES => games };
    /// `budget`: the most games of a learning league.
    budget: u64, u64 => same {
        value: "GAMES",
        kept: budget: Option<u64>, or: None,
        help: "A learning league's budget: it plays at most this many games (default: those of the round robin of \
               its field with the same --games); with --resume, a new budget for a league that spent its own",
        resumes: true
    };
    /// `swiss_rounds`: the rounds of a Swiss league.
    swiss_rounds: u64, u64 => same {
        value: "R",
        least: 1,
        kept: swiss_rounds: Option<u64>, or: None,
        help: "A swiss league's rounds (default: ⌈log₂ N⌉ for N bots); with --resume, more rounds for a league \
               that played its own",
        resumes: true
    };
    /// `seed`: the league seed.
    seed: u64, u64 => same {
        value: "SEED",
        kept: seed: u64,
        help: "The league seed (default: a random one, kept in league.json)"
    };
    /// `concurrency`: games played at once.
    concurrency: u64, u64 => same {
        value: "CONCURRENCY",
        number: CONCURRENCY,
        kept: concurrency: u64,
        help: "Games played at once (default: the number of cores)",
        resumes: true,
        per_shard: true
    };
    /// `move_timeout`: ms per move.
    move_timeout: u64, u64 => same { value: "MS", number: MOVE_TIMEOUT, kept: move_timeout_ms: u64 };
    /// `clock`: each seat's game clock, BASE+INC.
    clock: TimeControl, String => parsed {
        value: "BASE+INC",
        kept: clock: Option<TimeControl>, or: None,
        help: "A game clock for each seat: BASE+INC, each in milliseconds or with a unit ms, s or m (e.g. 60s+1s, \
               5000+100). A move may use what is left on the clock, up to --move-timeout; each move adds INC. A seat \
               whose clock runs out forfeits on time"
    };
    /// `startup_timeout`: ms to answer `hello`.
    startup_timeout: u64, u64 => same { value: "MS", number: STARTUP_TIMEOUT => startup_timeout_ms };
    /// `out`: the output directory.
    out: PathBuf, PathBuf => same {
        value: "DIR",
        help: "Keep everything here: league.json, games.jsonl, standings.json, logs/"
    };
    /// `sandbox`: how bot processes are confined.
    sandbox: Sandbox, String => parsed {
        value: "SANDBOX",
        kept: sandbox: Sandbox, or: Sandbox::default(),
        help: sandbox_help(),
        per_shard: true
    };
    /// `restart`: when bot processes are started.
    restart: Restart, String => parsed {
        value: "POLICY",
        kept: restart: Restart, or: Restart::default(),
        help: restart_help(),
        per_shard: true
    };
    /// `cpus_per_game`: CPUs of each game in flight.
    cpus_per_game: u64, u64 => same {
        value: "K",
        number: CPUS_PER_GAME => cpus_per_game,
        resumes: true,
        per_shard: true
    };
    /// `deals`: the file to set the games up from.
    deals: PathBuf, PathBuf => same {
        value: "FILE",
        help: "Set the games up from the deals in FILE instead of dealing from the seed: deal d is the file's game \
               d, cycling through the file (see docs/leagues.md, \"Fixed deals\")"
    };
}

/// The help text of `--sandbox`.
fn sandbox_help() -> String {
    format!("Run every bot in a sandbox: none or bwrap (bubblewrap); default {}", Sandbox::default())
}

/// The help text of `--restart`.
fn restart_help() -> String {
    format!(
        "When bot processes are started: lane (a process for each seat order of a block of deals, so that no \
         process meets a deal twice), game (a process for each game) or off (kept for the whole run: fastest, \
         but a bot that remembers deals gains); default {}",
        Restart::default()
    )
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
