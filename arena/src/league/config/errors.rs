//! Why a league's configuration is refused.

use crate::bot::limits::LimitError;
use crate::bot::sandbox::SandboxError;
use crate::bot::spec::SpecError;
use crate::schedule::clock::ClockError;
use crate::schedule::lanes::UnknownRestart;
use crate::schedule::{Format, ScheduleError};
use crate::settings::ValueError;
use std::fmt;
use std::path::PathBuf;

/// Why a league's configuration is refused: each the user's to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// The league file cannot be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: String,
    },
    /// The league file is not TOML, or has a key no league has.
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong, on one line.
        error: String,
    },
    /// A setting is wrong: `key` of the league file `file`, or of the flags when `file` is `None`.
    Setting {
        /// The league file that gave it, if any.
        file: Option<String>,
        /// The setting (`games`, `bot[1]`, `limits.cpu`).
        key: String,
        /// What is wrong with it.
        why: SettingProblem,
    },
    /// A flag is wrong; the message names it (`--retire x: …`).
    Flag(FlagError),
    /// Two leagues (shards to merge) differ in `key`.
    Differs {
        /// The setting that differs.
        key: &'static str,
    },
    /// The deals stored in `league.json` are not a list.
    StoredDeals,
}

/// What is wrong with a setting of a league (see [`ConfigError::Setting`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingProblem {
    /// Two bots of the league file have this name.
    DuplicateBot {
        /// The name.
        name: String,
    },
    /// A bot is refused.
    Bot(Box<SpecError>),
    /// The format is refused.
    Format(ScheduleError),
    /// A variant setting that is not a string, integer or boolean.
    NotScalar {
        /// The value, as TOML.
        value: String,
    },
    /// A limit that is not a number or string.
    NotAmount {
        /// The value, as TOML.
        value: String,
    },
    /// A limit is refused.
    Limit(LimitError),
    /// The sandbox is refused.
    Sandbox(SandboxError),
    /// The restart policy is refused.
    Restart(UnknownRestart),
    /// A sharded league without a fixed seed.
    ShardWithoutSeed,
    /// A number out of range.
    Value(ValueError),
    /// The time control is refused.
    Clock(ClockError),
    /// Both a game and an engine.
    GameAndEngine,
    /// A budget for a league that is not a learning league.
    BudgetNotLearning {
        /// The league's format.
        format: Format,
    },
    /// Swiss rounds for a league that is not a Swiss league.
    RoundsNotSwiss {
        /// The league's format.
        format: Format,
    },
    /// No Swiss rounds.
    NoRounds,
    /// Shards of a league that chooses its rounds (learning, Swiss).
    ShardedRounds {
        /// The league's format.
        format: Format,
    },
}

impl fmt::Display for SettingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingProblem::DuplicateBot { name } => write!(f, "{name:?} names two bots"),
            SettingProblem::Bot(error) => error.fmt(f),
            SettingProblem::Format(error) => error.fmt(f),
            SettingProblem::NotScalar { value } => write!(f, "{value} is not a string, integer or boolean"),
            SettingProblem::NotAmount { value } => write!(f, "{value} is not a number or string"),
            SettingProblem::Limit(error) => error.fmt(f),
            SettingProblem::Sandbox(error) => error.fmt(f),
            SettingProblem::Restart(error) => error.fmt(f),
            SettingProblem::ShardWithoutSeed => f.write_str(
                "a sharded league needs a fixed seed (in the file or --seed), so that every shard plays the same \
                 schedule",
            ),
            SettingProblem::Value(error) => error.fmt(f),
            SettingProblem::Clock(error) => error.fmt(f),
            SettingProblem::GameAndEngine => f.write_str("give a game or an engine, not both"),
            SettingProblem::BudgetNotLearning { format } => {
                write!(f, "only a learning league has a budget (this one is a {format})")
            }
            SettingProblem::RoundsNotSwiss { format } => {
                write!(f, "only a swiss league has swiss rounds (this one is a {format})")
            }
            SettingProblem::NoRounds => f.write_str("a swiss league plays at least 1 round"),
            SettingProblem::ShardedRounds { format } => write!(
                f,
                "a {format} league chooses each round from the results of the rounds before, so it cannot be split \
                 into shards"
            ),
        }
    }
}

impl std::error::Error for SettingProblem {}

impl From<ClockError> for SettingProblem {
    fn from(error: ClockError) -> SettingProblem {
        SettingProblem::Clock(error)
    }
}

impl From<SandboxError> for SettingProblem {
    fn from(error: SandboxError) -> SettingProblem {
        SettingProblem::Sandbox(error)
    }
}

impl From<UnknownRestart> for SettingProblem {
    fn from(error: UnknownRestart) -> SettingProblem {
        SettingProblem::Restart(error)
    }
}

/// What is wrong with a flag that names bots or limits, or changes a league's field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlagError {
    /// A flag's value without `=`.
    NotAPair {
        /// The flag.
        flag: &'static str,
        /// Its value.
        text: String,
        /// What it takes (`NAME=DIR`).
        shape: &'static str,
    },
    /// A flag names a bot no `--bot` nor the league file names.
    UnknownBot {
        /// The flag.
        flag: &'static str,
        /// The name.
        name: String,
    },
    /// A bot is refused.
    Bot(Box<SpecError>),
    /// `--limit` is refused.
    Limit(LimitError),
    /// `--concurrency 0`.
    NoConcurrency,
    /// `--retire` names no bot of the league.
    RetiresStranger {
        /// The name.
        name: String,
    },
    /// `--retire` names a bot that has retired.
    RetiredAlready {
        /// The name.
        name: String,
    },
    /// `--retire` names a bot twice.
    RetiresTwice {
        /// The name.
        name: String,
    },
    /// `--bot-clock` or `--bot-move-timeout` is refused; the message says why.
    Odds(String),
    /// `--bot` names a bot that the league has had.
    NameTaken {
        /// The name.
        name: String,
    },
}

impl fmt::Display for FlagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlagError::NotAPair { flag, text, shape } => write!(f, "{flag} {text:?}: expected {shape}"),
            FlagError::UnknownBot { flag, name } => {
                write!(f, "{flag}: no bot is named {name:?} (name it with --bot or in the configuration file first)")
            }
            FlagError::Bot(error) => error.fmt(f),
            FlagError::Odds(why) => f.write_str(why),
            FlagError::Limit(error) => error.fmt(f),
            FlagError::NoConcurrency => f.write_str("--concurrency: must be at least 1"),
            FlagError::RetiresStranger { name } => write!(f, "--retire {name}: this league has no bot of that name"),
            FlagError::RetiredAlready { name } => write!(f, "--retire {name}: {name} has retired already"),
            FlagError::RetiresTwice { name } => write!(f, "--retire {name}: given twice"),
            FlagError::NameTaken { name } => write!(
                f,
                "--bot {name}: this league has had a bot named {name:?}; a new version of a bot enters under a name \
                 of its own (e.g. --bot {name}-2=COMMAND, and --retire {name} to retire the old one)"
            ),
        }
    }
}

impl std::error::Error for FlagError {}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Unreadable { path, error } => {
                write!(f, "cannot read the configuration {}: {error}", path.display())
            }
            ConfigError::Malformed { path, error } => write!(f, "configuration {}: {error}", path.display()),
            ConfigError::Setting { file: Some(file), key, why } => write!(f, "configuration {file}: {key}: {why}"),
            ConfigError::Setting { file: None, key, why } => write!(f, "{key}: {why}"),
            ConfigError::Flag(error) => error.fmt(f),
            ConfigError::Differs { key } => write!(f, "their {key} differs"),
            ConfigError::StoredDeals => f.write_str("the stored deals cannot be read: not a list"),
        }
    }
}

impl std::error::Error for ConfigError {}
