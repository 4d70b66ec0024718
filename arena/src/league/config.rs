//! A league's configuration: read from a TOML file, overridden by flags,
//! resolved into a [`LeagueConfig`] that is stored in the output directory
//! (`league.json`), so that a league can be resumed with nothing else.
//!
//! Paths in a configuration file (a bot's `dir`, `out`) are relative to the
//! file's directory; paths given as flags are relative to the working
//! directory. A bot runs in its `dir`, by default the directory of the file
//! that named it (or the working directory for `--bot`).

use crate::bot::limits::{LimitError, ResourceLimits};
use crate::bot::sandbox::{Sandbox, SandboxError};
use crate::bot::spec::{BotSpec, SpecError};
use crate::engine::sandbox::Confinement;
use crate::engine::spec::{Engine, Program};
use crate::run::setting::{Setting, SettingError};
use crate::run::table::{Limits, OwnTime, Resolved, apply_odds_flags, move_limit, time_odds};
use crate::schedule::clock::{ClockError, TimeControl, Timing};
use crate::schedule::lanes::{Restart, UnknownRestart};
use crate::schedule::{Dealing, Format, ScheduleError, Shard};
use crate::settings::{
    CONCURRENCY, CPUS_PER_GAME, ENGINE_TIMEOUT, GAME, LEAGUE_GAMES, MOVE_TIMEOUT, Number, STARTUP_TIMEOUT, ValueError,
    VariantSetting,
};
use crate::stats::sprt::Test;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The TOML file, every key optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    game: Option<String>,
    engine: Option<String>,
    engine_timeout: Option<u64>,
    format: Option<String>,
    players: Option<u64>,
    games: Option<u64>,
    budget: Option<u64>,
    swiss_rounds: Option<u64>,
    seed: Option<u64>,
    concurrency: Option<u64>,
    move_timeout: Option<u64>,
    clock: Option<String>,
    startup_timeout: Option<u64>,
    out: Option<PathBuf>,
    sandbox: Option<String>,
    restart: Option<String>,
    cpus_per_game: Option<u64>,
    deals: Option<PathBuf>,
    #[serde(default)]
    limits: BTreeMap<String, toml::Value>,
    #[serde(default)]
    variant: BTreeMap<String, toml::Value>,
    #[serde(default, rename = "bot")]
    bots: Vec<BotEntry>,
}

/// A `[[bot]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BotEntry {
    name: String,
    command: String,
    dir: Option<PathBuf>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    /// Time odds: its own game clock, BASE+INC.
    clock: Option<String>,
    /// Time odds: its own per-move limit, in ms.
    move_timeout: Option<u64>,
}

/// What the user gave on the command line (each `None` when absent).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
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
    /// `--game`.
    pub game: Option<String>,
    /// `--engine`.
    pub engine: Option<String>,
    /// `--engine-timeout`.
    pub engine_timeout: Option<u64>,
    /// `--format`.
    pub format: Option<String>,
    /// `--players`.
    pub players: Option<u64>,
    /// `--games` (per group).
    pub games: Option<u64>,
    /// `--budget` (of a learning league).
    pub budget: Option<u64>,
    /// `--swiss-rounds` (of a Swiss league).
    pub swiss_rounds: Option<u64>,
    /// `--seed`.
    pub seed: Option<u64>,
    /// `--concurrency`.
    pub concurrency: Option<u64>,
    /// `--move-timeout` in ms.
    pub move_timeout: Option<u64>,
    /// `--clock BASE+INC`.
    pub clock: Option<TimeControl>,
    /// `--startup-timeout` in ms.
    pub startup_timeout: Option<u64>,
    /// `--variant KEY=VALUE`, in order.
    pub variants: Vec<VariantSetting>,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--shard K/N`.
    pub shard: Option<Shard>,
    /// `--limit NAME=VALUE`, in order.
    pub limits: Vec<String>,
    /// `--sandbox`.
    pub sandbox: Option<Sandbox>,
    /// `--restart`.
    pub restart: Option<Restart>,
    /// `--cpus-per-game`.
    pub cpus_per_game: Option<u64>,
    /// `--deals FILE`.
    pub deals: Option<PathBuf>,
}

/// The CPUs of each game in flight of a league whose `league.json` does not
/// say (written before the setting existed).
fn default_cpus_per_game() -> u64 {
    CPUS_PER_GAME.default
}

/// A league's resolved configuration: everything that decides its games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeagueConfig {
    /// The game's name (an engine program's, as it gives it).
    pub game: String,
    /// The engine program that plays the game, when it is not built in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Program>,
    /// Who meets whom.
    pub format: Format,
    /// The bots, in order.
    pub bots: Vec<BotSpec>,
    /// The variant settings as given (`players` included), later ones winning.
    pub settings: Vec<(String, String)>,
    /// The variant they resolve to, every setting included (filled in once the game is known).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub variant: serde_json::Value,
    /// Games per group, before rounding up to whole deals (in a learning
    /// league, per pair of each round).
    pub games: u64,
    /// The most games a learning league plays (`--budget`; by default
    /// those of the round robin of its field with the same `games`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<u64>,
    /// The rounds a Swiss league plays (`--swiss-rounds`; by default
    /// [`crate::league::swiss::default_rounds`] of its field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swiss_rounds: Option<u64>,
    /// The rounds a learning or Swiss league chose, each its pairs of bots (numbers
    /// in [`bots`](Self::bots), in increasing order), in the order they were played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<Vec<Vec<usize>>>,
    /// The league seed.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: u64,
    /// Time allowed per move, in ms.
    pub move_timeout_ms: u64,
    /// Each seat's game clock, if any (absent in the `league.json` of a league without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    /// Time odds: the timing of each bot that has one of its own, by name
    /// (absent in the `league.json` of a league without).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub odds: BTreeMap<String, Timing>,
    /// Time allowed for `ready`, in ms.
    pub startup_timeout_ms: u64,
    /// Operating-system limits of each bot process.
    #[serde(default)]
    pub limits: ResourceLimits,
    /// How bot processes are confined.
    #[serde(default)]
    pub sandbox: Sandbox,
    /// When bot processes are started (absent in the `league.json` of a
    /// league begun before the setting existed: the default then).
    #[serde(default)]
    pub restart: Restart,
    /// Whether each group plays deals of its own ([`Dealing::ByGroup`]), as
    /// every league begun since groups had them does; absent (false) in the
    /// `league.json` of a league begun before, whose groups go on sharing
    /// their deals ([`Dealing::Shared`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deals_by_group: bool,
    /// The CPUs of each game in flight (0: not pinned; see [`Limits::cpus_per_game`]).
    #[serde(default = "default_cpus_per_game")]
    pub cpus_per_game: u64,
    /// The part of the schedule this run plays, if not all of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// The deals file to read the games' setups from (`--deals`; not stored:
    /// its setups are, in `deals`).
    #[serde(skip)]
    pub deals_file: Option<PathBuf>,
    /// The games' setups, as read from the deals file (filled in once the
    /// game is known); deal `d` is set up from setup `d` modulo their number.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub deals: serde_json::Value,
    /// The output directory, if any (not stored; it is where the file is).
    #[serde(skip)]
    pub out: Option<PathBuf>,
    /// Files no sandboxed bot sees besides the output directory: the league
    /// file and the deals file (stored, so that a resumed run hides them too).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<PathBuf>,
    /// How the field came to be, its start first (see [`LeagueConfig::changes`]):
    /// every bot of [`bots`](Self::bots) entered in one of these changes, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Change>,
}

/// A run's engine, its variant and its games' setups (if set up in advance).
pub type Opened = (Arc<Engine>, Resolved, Option<Vec<serde_json::Value>>);

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

/// A test's stored configuration (`sprt-config.json`): the games (a
/// gauntlet of the new bot against the base bot and its copies) and the test.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SprtConfig {
    /// The games.
    #[serde(flatten)]
    pub games: LeagueConfig,
    /// The test.
    pub test: Test,
}

/// A change of a league's field: its start, or a resume that added or
/// retired bots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Change {
    /// When, in UTC to the second (RFC 3339, e.g. `2026-03-01T12:00:00Z`);
    /// absent for the start of a league begun by an arena that kept no history.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The bots that entered, by name: the next ones of the league's `bots`, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// The bots that retired, by name (before those of `added` entered).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retired: Vec<String>,
}

impl LeagueConfig {
    /// Reads the file named by `--config` (if any) and applies the flags.
    /// `cwd` resolves relative flag paths; `random_seed` is used when no seed is given.
    pub fn resolve(flags: &Overrides, cwd: &Path, random_seed: u64, cores: u64) -> Result<LeagueConfig, ConfigError> {
        let mut secrets: Vec<PathBuf> = flags.config.iter().map(|path| cwd.join(path)).collect();
        let (file, base, origin) = match &flags.config {
            Some(path) => {
                let path = cwd.join(path);
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| ConfigError::Unreadable { path: path.clone(), error: e.to_string() })?;
                let file: ConfigFile = toml::from_str(&text)
                    .map_err(|e| ConfigError::Malformed { path: path.clone(), error: toml_error(&text, &e) })?;
                let base = path.parent().map(Path::to_path_buf).unwrap_or_else(|| cwd.to_path_buf());
                (file, base, path.display().to_string())
            }
            None => (ConfigFile::default(), cwd.to_path_buf(), String::new()),
        };
        let key_error = |key: &str, why: SettingProblem| ConfigError::Setting {
            file: (!origin.is_empty()).then(|| origin.clone()),
            key: key.to_string(),
            why,
        };

        // Bots from the file, then --bot adds a bot or replaces a command.
        let mut entries: Vec<Entry> = Vec::new();
        for (i, entry) in file.bots.iter().enumerate() {
            if entries.iter().any(|(name, ..)| *name == entry.name) {
                return Err(key_error(
                    &format!("bot[{i}].name"),
                    SettingProblem::DuplicateBot { name: entry.name.clone() },
                ));
            }
            let dir = entry.dir.as_ref().map_or_else(|| base.clone(), |d| base.join(d));
            entries.push((entry.name.clone(), entry.command.clone(), dir, entry.env.clone()));
        }
        apply_bot_flags(&mut entries, flags, cwd).map_err(ConfigError::Flag)?;
        let bots = checked_bots(entries, |key, error| key_error(key, SettingProblem::Bot(Box::new(error))))?;
        let mut own = BTreeMap::new();
        for (i, entry) in file.bots.iter().enumerate() {
            let clock = entry.clock.as_ref().map(|text| text.parse::<TimeControl>());
            let clock =
                clock.transpose().map_err(|e| key_error(&format!("bot[{i}].clock"), SettingProblem::Clock(e)))?;
            let move_timeout_ms = entry
                .move_timeout
                .map(|ms| MOVE_TIMEOUT.or_default(Some(ms)))
                .transpose()
                .map_err(|e| key_error(&format!("bot[{i}].move_timeout"), SettingProblem::Value(e)))?;
            if clock.is_some() || move_timeout_ms.is_some() {
                own.insert(entry.name.clone(), OwnTime { clock, move_timeout_ms });
            }
        }
        let known = |name: &str| bots.iter().any(|bot| bot.name == name);
        apply_odds_flags(&mut own, &flags.bot_clocks, &flags.bot_move_timeouts, known)
            .map_err(|e| ConfigError::Flag(FlagError::Odds(e)))?;

        let format_text = flags.format.clone().or(file.format);
        let format: Format = format_text
            .map(|text| text.parse())
            .transpose()
            .map_err(|e| key_error("format", SettingProblem::Format(e)))?
            .unwrap_or_default();
        let mut settings = Vec::new();
        if let Some(players) = flags.players.or(file.players) {
            settings.push(("players".to_string(), players.to_string()));
        }
        for (key, value) in &file.variant {
            let value = scalar(value).ok_or_else(|| {
                key_error(&format!("variant.{key}"), SettingProblem::NotScalar { value: value.to_string() })
            })?;
            settings.push((key.clone(), value));
        }
        settings.extend(flags.variants.iter().map(VariantSetting::pair));
        let mut limits = ResourceLimits::default();
        for (key, value) in &file.limits {
            let value = scalar(value).ok_or_else(|| {
                key_error(&format!("limits.{key}"), SettingProblem::NotAmount { value: value.to_string() })
            })?;
            limits
                .set(&format!("{key}={value}"))
                .map_err(|e| key_error(&format!("limits.{key}"), SettingProblem::Limit(e)))?;
        }
        for text in &flags.limits {
            limits.set(text).map_err(|e| ConfigError::Flag(FlagError::Limit(e)))?;
        }
        let sandbox = match (flags.sandbox, file.sandbox) {
            (Some(sandbox), _) => sandbox,
            (None, Some(text)) => text.parse().map_err(|e| key_error("sandbox", SettingProblem::Sandbox(e)))?,
            (None, None) => Sandbox::default(),
        };
        let restart = match (flags.restart, file.restart) {
            (Some(restart), _) => restart,
            (None, Some(text)) => text.parse().map_err(|e| key_error("restart", SettingProblem::Restart(e)))?,
            (None, None) => Restart::default(),
        };
        let seed = flags.seed.or(file.seed);
        if flags.shard.is_some() && seed.is_none() {
            return Err(key_error("seed", SettingProblem::ShardWithoutSeed));
        }
        let number = |setting: &Number, given: Option<u64>| {
            setting.or_default(given).map_err(|e| key_error(setting.key, SettingProblem::Value(e)))
        };
        let cpus_per_game = number(&CPUS_PER_GAME, flags.cpus_per_game.or(file.cpus_per_game))?;
        let clock = match (flags.clock, &file.clock) {
            (Some(clock), _) => Some(clock),
            (None, Some(text)) => Some(text.parse().map_err(|e| key_error("clock", SettingProblem::Clock(e)))?),
            (None, None) => None,
        };
        let given_move_timeout = flags.move_timeout.or(file.move_timeout);
        let given_move_timeout = given_move_timeout.map(|ms| number(&MOVE_TIMEOUT, Some(ms))).transpose()?;
        let move_timeout = move_limit(given_move_timeout, clock);
        let odds = time_odds(&own, clock, given_move_timeout);
        let deals_file = flags.deals.as_ref().map(|d| cwd.join(d)).or(file.deals.map(|d| base.join(d)));
        secrets.extend(deals_file.clone());
        if (flags.engine.is_some() || file.engine.is_some()) && (flags.game.is_some() || file.game.is_some()) {
            return Err(key_error("engine", SettingProblem::GameAndEngine));
        }
        let engine_timeout = number(&ENGINE_TIMEOUT, flags.engine_timeout.or(file.engine_timeout))?;
        let engine = match (&flags.engine, file.engine) {
            (Some(command), _) => {
                Some(Program { command: command.clone(), dir: cwd.to_path_buf(), timeout_ms: engine_timeout })
            }
            (None, Some(command)) => Some(Program { command, dir: base.to_path_buf(), timeout_ms: engine_timeout }),
            (None, None) => None,
        };
        Ok(LeagueConfig {
            game: flags.game.clone().or(file.game).unwrap_or_else(|| GAME.to_string()),
            engine,
            format,
            bots,
            settings,
            variant: serde_json::Value::Null,
            games: number(&LEAGUE_GAMES, flags.games.or(file.games))?,
            budget: match flags.budget.or(file.budget) {
                Some(_) if format != Format::Learning => {
                    return Err(key_error("budget", SettingProblem::BudgetNotLearning { format }));
                }
                budget => budget,
            },
            swiss_rounds: match flags.swiss_rounds.or(file.swiss_rounds) {
                Some(_) if format != Format::Swiss => {
                    return Err(key_error("swiss_rounds", SettingProblem::RoundsNotSwiss { format }));
                }
                Some(0) => return Err(key_error("swiss_rounds", SettingProblem::NoRounds)),
                rounds => rounds,
            },
            rounds: Vec::new(),
            seed: seed.unwrap_or(random_seed),
            // By default, a game in flight on each set of CPUs a game gets.
            concurrency: match flags.concurrency.or(file.concurrency) {
                None => (cores / cpus_per_game.max(1)).max(1),
                given => number(&CONCURRENCY, given)?,
            },
            move_timeout_ms: move_timeout.as_millis() as u64,
            clock,
            odds,
            startup_timeout_ms: number(&STARTUP_TIMEOUT, flags.startup_timeout.or(file.startup_timeout))?,
            limits,
            sandbox,
            restart,
            deals_by_group: true,
            cpus_per_game,
            shard: match flags.shard {
                Some(_) if format.has_rounds() => {
                    return Err(key_error("shard", SettingProblem::ShardedRounds { format }));
                }
                shard => shard,
            },
            deals_file,
            deals: serde_json::Value::Null,
            out: flags.out.as_ref().map(|o| cwd.join(o)).or(file.out.map(|o| base.join(o))),
            secrets,
            history: Vec::new(),
        })
    }

    /// The engine of the league, the variant its settings resolve to and
    /// the setups of its games (if set up in advance), checked by the
    /// engine; the game's name and the setups are kept here.
    pub fn open_engine(&mut self) -> Result<Opened, SettingError> {
        // Under the sandbox, the engine runs sandboxed too, hidden from the bots and they from it.
        let confinement = match &self.engine {
            Some(program) => Confinement::of(self.sandbox, program, &self.bots, &self.private())
                .map_err(|e| SettingError::Refused(e.to_string()))?,
            None => None,
        };
        let mut setting = Setting::open(&self.game, self.engine.clone(), confinement)?;
        self.game = setting.engine().name().to_string();
        let variant = setting.resolve(&self.settings)?;
        let setups = match of_league(self).map_err(|e| SettingError::Refused(e.to_string()))? {
            LeagueSetups::None => None,
            LeagueSetups::File(path) => {
                let setups = setting.read_setups(&variant, &path)?;
                self.deals = serde_json::Value::Array(setups.clone());
                Some(setups)
            }
            LeagueSetups::Stored(stored) => {
                for (number, setup) in (1..).zip(&stored) {
                    match setting.check_setup(&variant, setup) {
                        Ok(()) => {}
                        Err(SettingError::Refused(why)) => {
                            return Err(SettingError::Refused(format!("stored deals, game {number}: {why}")));
                        }
                        Err(failed) => return Err(failed),
                    }
                }
                Some(stored)
            }
        };
        Ok((setting.close()?, variant, setups))
    }

    /// Which deals the league's groups play.
    pub fn dealing(&self) -> Dealing {
        if self.deals_by_group { Dealing::ByGroup } else { Dealing::Shared }
    }

    /// What no sandboxed bot sees: the output directory and the [`secrets`](Self::secrets).
    pub fn private(&self) -> Vec<PathBuf> {
        self.out.iter().chain(&self.secrets).cloned().collect()
    }

    /// The limits of every bot process.
    pub fn limits(&self) -> Limits {
        Limits {
            move_timeout: Duration::from_millis(self.move_timeout_ms),
            clock: self.clock,
            odds: self.odds.clone(),
            startup_timeout: Duration::from_millis(self.startup_timeout_ms),
            resources: self.limits.clone(),
            sandbox: self.sandbox,
            cpus_per_game: self.cpus_per_game as usize,
            restart: self.restart,
            ..Limits::default()
        }
    }

    /// Makes a configuration read back from output directory `dir` ready to
    /// resume: the bots re-checked, `--concurrency` and `--cpus-per-game` applied.
    pub fn resume_in(
        &mut self,
        dir: &Path,
        concurrency: Option<u64>,
        cpus_per_game: Option<u64>,
    ) -> Result<(), ConfigError> {
        // A retired bot plays no more: its program may be gone.
        let retired = self.retired();
        self.bots = (self.bots.iter().zip(retired))
            .map(|(bot, retired)| match bot.revalidated() {
                Err(_) if retired => Ok(bot.clone()),
                checked => checked,
            })
            .collect::<Result<_, _>>()
            .map_err(|e| ConfigError::Flag(FlagError::Bot(Box::new(e))))?;
        if let Some(concurrency) = concurrency {
            if concurrency == 0 {
                return Err(ConfigError::Flag(FlagError::NoConcurrency));
            }
            self.concurrency = concurrency;
        }
        if let Some(cpus_per_game) = cpus_per_game {
            self.cpus_per_game = cpus_per_game;
        }
        self.out = Some(dir.to_path_buf());
        Ok(())
    }

    /// The league's history, its start first: [`history`](Self::history),
    /// or, for a league that never changed and whose `league.json` has none
    /// (begun by an earlier arena), its start with every bot.
    pub fn changes(&self) -> Vec<Change> {
        if !self.history.is_empty() {
            return self.history.clone();
        }
        vec![Change { at: None, added: self.bots.iter().map(|b| b.name.clone()).collect(), retired: Vec::new() }]
    }

    /// Records the start of the league, `at` (see [`Change::at`]), with every bot.
    pub fn start(&mut self, at: String) {
        self.history = vec![Change { at: Some(at), ..self.changes().remove(0) }];
    }

    /// For each bot, whether it has retired.
    pub fn retired(&self) -> Vec<bool> {
        let retired: Vec<&String> = self.history.iter().flat_map(|change| &change.retired).collect();
        self.bots.iter().map(|bot| retired.contains(&&bot.name)).collect()
    }

    /// Changes the field of a resumed league, `at` (see [`Change::at`]): the
    /// bots named `retiring` retire, then the bots `entering` enter, after
    /// the others. A name stays its bot's for the life of the league: an
    /// entering bot needs a name no bot has had (a new version of a bot
    /// enters beside the old one, under a name of its own).
    pub fn grow(&mut self, entering: Vec<BotSpec>, retiring: &[String], at: String) -> Result<(), ConfigError> {
        self.grown(entering, retiring, at).map_err(ConfigError::Flag)
    }

    /// [`grow`](Self::grow), with the error said of the flags.
    fn grown(&mut self, entering: Vec<BotSpec>, retiring: &[String], at: String) -> Result<(), FlagError> {
        let retired = self.retired();
        for (i, name) in retiring.iter().enumerate() {
            let name_ = || name.clone();
            match self.bots.iter().position(|bot| bot.name == *name) {
                None => return Err(FlagError::RetiresStranger { name: name_() }),
                Some(bot) if retired[bot] => return Err(FlagError::RetiredAlready { name: name_() }),
                Some(_) if retiring[..i].contains(name) => return Err(FlagError::RetiresTwice { name: name_() }),
                Some(_) => {}
            }
        }
        for name in entering.iter().map(|bot| &bot.name) {
            if self.bots.iter().any(|other| other.name == *name) {
                return Err(FlagError::NameTaken { name: name.clone() });
            }
        }
        if entering.is_empty() && retiring.is_empty() {
            return Ok(());
        }
        let mut history = self.changes();
        history.push(Change {
            at: Some(at),
            added: entering.iter().map(|bot| bot.name.clone()).collect(),
            retired: retiring.to_vec(),
        });
        self.history = history;
        self.bots.extend(entering);
        Ok(())
    }

    /// Whether `other` plays the same games: everything but the shard, the
    /// concurrency, where the bots' commands live and when the field changed must agree.
    pub fn same_league(&self, other: &LeagueConfig) -> Result<(), ConfigError> {
        let names = |c: &LeagueConfig| c.bots.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
        let checks = [
            ("game", self.game == other.game),
            ("format", self.format == other.format),
            ("bots", names(self) == names(other)),
            ("history", without_times(self.changes()) == without_times(other.changes())),
            ("variant", self.variant == other.variant),
            ("games", self.games == other.games),
            ("budget", self.budget == other.budget),
            ("swiss_rounds", self.swiss_rounds == other.swiss_rounds),
            ("rounds", self.rounds == other.rounds),
            ("seed", self.seed == other.seed),
            ("deals", self.deals == other.deals),
            ("move_timeout", self.move_timeout_ms == other.move_timeout_ms),
            ("clock", self.clock == other.clock),
            ("odds", self.odds == other.odds),
            ("startup_timeout", self.startup_timeout_ms == other.startup_timeout_ms),
        ];
        match checks.iter().find(|(_, same)| !same) {
            Some((key, _)) => Err(ConfigError::Differs { key }),
            None => Ok(()),
        }
    }
}

/// A league's changes without their times: what they did.
fn without_times(changes: Vec<Change>) -> Vec<Change> {
    changes.into_iter().map(|change| Change { at: None, ..change }).collect()
}

/// The bots that `--bot`, `--bot-dir` and `--bot-env` name (flag paths
/// relative to `cwd`), each checked: those that enter a resumed league.
pub fn entering_bots(flags: &Overrides, cwd: &Path) -> Result<Vec<BotSpec>, ConfigError> {
    let entries = named_bots(flags, cwd).map_err(ConfigError::Flag)?;
    checked_bots(entries, |_, error| ConfigError::Flag(FlagError::Bot(Box::new(error))))
}

/// A bot as named before it is checked: name, command, working directory, environment.
pub type Entry = (String, String, PathBuf, BTreeMap<String, String>);

/// The bots that `--bot`, `--bot-dir` and `--bot-env` name (flag paths
/// relative to `cwd`), not checked yet: `--bot` in order, a name given twice
/// taking the later command.
pub fn named_bots(flags: &Overrides, cwd: &Path) -> Result<Vec<Entry>, FlagError> {
    let mut entries = Vec::new();
    apply_bot_flags(&mut entries, flags, cwd)?;
    Ok(entries)
}

/// Applies `--bot` (adds a bot, or replaces the command of one), `--bot-dir`
/// and `--bot-env` to `entries`; flag paths are relative to `cwd`.
fn apply_bot_flags(entries: &mut Vec<Entry>, flags: &Overrides, cwd: &Path) -> Result<(), FlagError> {
    for text in &flags.bots {
        let (name, command) = split_pair(text, "--bot", "NAME=COMMAND")?;
        match entries.iter_mut().find(|(n, ..)| *n == name) {
            Some(entry) => entry.1 = command.to_string(),
            None => entries.push((name.to_string(), command.to_string(), cwd.to_path_buf(), BTreeMap::new())),
        }
    }
    for text in &flags.bot_dirs {
        let (name, dir) = split_pair(text, "--bot-dir", "NAME=DIR")?;
        let entry = entries.iter_mut().find(|(n, ..)| n == name).ok_or_else(|| unknown_bot("--bot-dir", name))?;
        entry.2 = cwd.join(dir);
    }
    for text in &flags.bot_envs {
        let (name, pair) = split_pair(text, "--bot-env", "NAME=KEY=VALUE")?;
        let (key, value) = split_pair(pair, "--bot-env", "NAME=KEY=VALUE")?;
        let entry = entries.iter_mut().find(|(n, ..)| n == name).ok_or_else(|| unknown_bot("--bot-env", name))?;
        entry.3.insert(key.to_string(), value.to_string());
    }
    Ok(())
}

/// The bots of `entries`, each checked (see [`BotSpec::new`]); `key_error`
/// says where a bad one was given.
fn checked_bots(
    entries: Vec<Entry>,
    key_error: impl Fn(&str, SpecError) -> ConfigError,
) -> Result<Vec<BotSpec>, ConfigError> {
    let mut bots = Vec::new();
    for (i, (name, command, dir, env)) in entries.into_iter().enumerate() {
        bots.push(BotSpec::new(&name, &command, &dir, env).map_err(|e| key_error(&format!("bot[{i}]"), e))?);
    }
    Ok(bots)
}

/// A TOML string, integer or boolean as text.
fn scalar(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// `text`, the value of `flag`, split at its first `=`; it takes `shape`.
fn split_pair<'a>(text: &'a str, flag: &'static str, shape: &'static str) -> Result<(&'a str, &'a str), FlagError> {
    text.split_once('=').ok_or_else(|| FlagError::NotAPair { flag, text: text.to_string(), shape })
}

/// `flag` names `name`, which is no bot's name.
fn unknown_bot(flag: &'static str, name: &str) -> FlagError {
    FlagError::UnknownBot { flag, name: name.to_string() }
}

/// A TOML error of `text` on one line: where (line and column, counted from
/// 1, in characters), what, and the line it is on. (The parser's own text
/// draws a caret under the line, which a single line cannot keep aligned.)
fn toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ");
    let Some(span) = error.span() else { return message };
    let mut at = span.start.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[start..].chars().count() + 1;
    let source = text[start..].lines().next().unwrap_or("").trim_end();
    format!("line {line}, column {column}: {message}: {source:?}")
}

/// Where a league's setups come from.
pub enum LeagueSetups {
    /// None: every game is dealt from its seed.
    None,
    /// The deals file of a new run, whose text is to be checked and then
    /// kept in the configuration (so that a resumed run plays the same games
    /// whatever became of the file).
    File(std::path::PathBuf),
    /// The setups kept in the configuration by an earlier run.
    Stored(Vec<serde_json::Value>),
}

/// Where the setups of a league's configuration come from.
///
/// # Errors
/// When the stored setups are not a list.
pub fn of_league(config: &LeagueConfig) -> Result<LeagueSetups, ConfigError> {
    if let Some(path) = &config.deals_file {
        return Ok(LeagueSetups::File(path.clone()));
    }
    match &config.deals {
        serde_json::Value::Null => Ok(LeagueSetups::None),
        serde_json::Value::Array(setups) => Ok(LeagueSetups::Stored(setups.clone())),
        _ => Err(ConfigError::StoredDeals),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sprt::{Model, Sprt};

    fn repo() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    /// A league file holding `text` in a directory of its own, removed when
    /// the returned guard is dropped.
    fn write_config(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::Builder::new().prefix("arena-config-test-").tempdir().unwrap();
        let path = dir.path().join("league.toml");
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    fn resolve(flags: &Overrides) -> Result<LeagueConfig, ConfigError> {
        LeagueConfig::resolve(flags, &repo(), 99, 2)
    }

    #[test]
    fn file_then_flags() {
        let first_legal = repo().join("tests/bots/first_legal.py");
        let (_dir, path) = write_config(&format!(
            "format = \"gauntlet\"\ngames = 4\nseed = 7\nplayers = 3\nout = \"results\"\nsandbox = \"bwrap\"\n\
                 clock = \"10s+100ms\"\n\
                 [limits]\ncpu = 30\naddress-space = \"1G\"\n[variant]\ntarget = 100\n\
                 hand_end = \"winner-takes\"\n[[bot]]\nname = \"a\"\ncommand = \"python3 {0}\"\nenv = {{ DEPTH = \"3\" }}\n\
                 [[bot]]\nname = \"b\"\ncommand = \"{0}\"\ndir = \"..\"\n",
            first_legal.display()
        ));
        let flags = Overrides {
            config: Some(path.clone()),
            games: Some(6),
            bots: vec!["c=sh".into()],
            variants: vec!["target=150".parse().unwrap()],
            ..Overrides::default()
        };
        let config = resolve(&flags).unwrap();
        assert_eq!(config.format, Format::Gauntlet);
        assert_eq!(config.games, 6, "flags override the file");
        assert_eq!(config.seed, 7);
        assert_eq!(config.concurrency, 2, "the default is the number of cores");
        let names: Vec<&str> = config.bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        let dir = path.parent().unwrap();
        assert_eq!(config.bots[0].dir, dir);
        assert_eq!(config.bots[0].env.get("DEPTH").map(String::as_str), Some("3"));
        assert_eq!(config.bots[1].dir, dir.join(".."));
        assert_eq!(config.bots[2].dir, repo());
        assert_eq!(config.out, Some(dir.join("results")));
        let target: Vec<&str> =
            config.settings.iter().filter(|(k, _)| k == "target").map(|(_, v)| v.as_str()).collect();
        assert_eq!(target, ["100", "150"], "the later setting wins when the variant is parsed");
        assert!(config.settings.contains(&("players".into(), "3".into())));
        assert_eq!(config.sandbox, Sandbox::Bwrap);
        assert_eq!(config.clock, Some(TimeControl { base_ms: 10_000, increment_ms: 100 }));
        assert_eq!(config.move_timeout_ms, 10_000, "under a clock, the per-move limit is its base");
        let flagged = resolve(&Overrides { move_timeout: Some(300), ..flags.clone() }).unwrap();
        assert_eq!((flagged.move_timeout_ms, flagged.limits().clock), (300, config.clock));
        assert_eq!((config.limits.cpu_seconds, config.limits.address_space), (Some(30), Some(1 << 30)));
    }

    #[test]
    fn errors_name_the_key() {
        let cases = [
            ("colour = \"red\"\n", "unknown field `colour`"),
            ("games = \"many\"\n", "games"),
            ("games = 0\n", "games: must be at least 1"),
            ("format = \"knockout\"\n", "format: unknown format \"knockout\""),
            ("swiss_rounds = 3\n", "swiss_rounds: only a swiss league has swiss rounds (this one is a round-robin)"),
            ("format = \"swiss\"\nswiss_rounds = 0\n", "swiss_rounds: a swiss league plays at least 1 round"),
            ("[[bot]]\nname = \"a\"\n", "missing field `command`"),
            ("[[bot]]\nname = \"a\"\ncommand = \"no-such-program-x\"\n", "bot[0]: bot \"a\": cannot run"),
            ("[[bot]]\nname = \"a\"\ncommand = \"sh\"\n[[bot]]\nname = \"a\"\ncommand = \"sh\"\n", "bot[1].name"),
            ("[variant]\ntarget = [1]\n", "variant.target"),
            ("games = \n", "configuration"),
            ("seed = 7\ngames = [1,\n", "line 2, column 12: unclosed array, expected `]`: \"games = [1,\""),
            ("sandbox = \"docker\"\n", "sandbox: unknown sandbox"),
            ("[limits]\nmemory = 5\n", "limits.memory"),
            ("clock = \"fast\"\n", "clock: \"fast\": expected BASE+INC"),
            ("clock = \"1s+0\"\nmove_timeout = 0\n", "move_timeout: must be at least 1"),
        ];
        for (text, expected) in cases {
            let (_dir, path) = write_config(text);
            let err = resolve(&Overrides { config: Some(path), ..Overrides::default() }).unwrap_err().to_string();
            assert!(err.contains(expected), "{text:?}: {err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
        let err = resolve(&Overrides { config: Some("/no/such/league.toml".into()), ..Overrides::default() })
            .unwrap_err()
            .to_string();
        assert!(err.contains("cannot read the configuration"), "{err}");
        let err =
            resolve(&Overrides { bot_dirs: vec!["x=/tmp".into()], ..Overrides::default() }).unwrap_err().to_string();
        assert!(err.contains("no bot is named \"x\""), "{err}");
    }

    #[test]
    fn same_league_ignores_shard_and_concurrency() {
        let mut flags = Overrides { bots: vec!["a=sh".into(), "b=sh".into()], ..Overrides::default() };
        flags.shard = Some(Shard { index: 0, count: 2 });
        let err = resolve(&flags).unwrap_err().to_string();
        assert!(err.contains("a sharded league needs a fixed seed"), "{err}");
        flags.seed = Some(3);
        let one = resolve(&flags).unwrap();
        let mut other = one.clone();
        other.shard = Some(Shard { index: 1, count: 2 });
        other.concurrency = 7;
        assert!(one.same_league(&other).is_ok());
        let mut clocked = other.clone();
        clocked.clock = Some(TimeControl { base_ms: 1000, increment_ms: 0 });
        assert_eq!(one.same_league(&clocked), Err(ConfigError::Differs { key: "clock" }));
        other.seed = 4;
        assert_eq!(one.same_league(&other), Err(ConfigError::Differs { key: "seed" }));
    }

    #[test]
    fn a_field_grows_and_keeps_its_history() {
        let flags = Overrides { bots: vec!["a=sh".into(), "b=sh".into()], seed: Some(1), ..Overrides::default() };
        let mut league = resolve(&flags).unwrap();
        assert_eq!(league.changes().len(), 1, "a league without a history started with its bots");
        assert_eq!(league.changes()[0].added, ["a", "b"]);
        league.start("2026-01-01T00:00:00Z".into());
        let before = league.clone();
        let entering = |names: &[&str]| {
            let flags = Overrides { bots: names.iter().map(|n| format!("{n}=sh")).collect(), ..Overrides::default() };
            entering_bots(&flags, &repo()).unwrap()
        };
        let grown = |league: &mut LeagueConfig, names: &[&str], retiring: &[&str]| {
            let retiring: Vec<String> = retiring.iter().map(|r| r.to_string()).collect();
            league.grow(entering(names), &retiring, "2026-01-02T00:00:00Z".into())
        };
        grown(&mut league, &["c"], &["a"]).unwrap();
        let names: Vec<&str> = league.bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(league.retired(), [true, false, false]);
        let last = league.history.last().unwrap();
        assert_eq!(
            (last.at.as_deref(), &last.added[..], &last.retired[..]),
            (Some("2026-01-02T00:00:00Z"), &["c".to_string()][..], &["a".to_string()][..])
        );
        // What a user may get wrong is refused, and changes nothing.
        let unchanged = league.clone();
        for (names, retiring, expected) in [
            (&["a"][..], &[][..], "this league has had a bot named \"a\""),
            (&["c"], &[], "this league has had a bot named \"c\""),
            (&[], &["z"], "--retire z: this league has no bot of that name"),
            (&[], &["a"], "--retire a: a has retired already"),
            (&[], &["b", "b"], "--retire b: given twice"),
        ] {
            let err = grown(&mut league, names, retiring).unwrap_err().to_string();
            assert!(err.contains(expected), "{err}");
            assert_eq!(league, unchanged);
        }
        grown(&mut league, &[], &[]).unwrap();
        assert_eq!(league, unchanged, "no change, no history");
        // Shards that changed alike are the same league, whenever they changed; others are not.
        let mut later = before.clone();
        later.history[0].at = Some("2026-02-01T00:00:00Z".into());
        grown(&mut later, &["c"], &["a"]).unwrap();
        assert!(league.same_league(&later).is_ok());
        assert_eq!(before.same_league(&league), Err(ConfigError::Differs { key: "bots" }));
        let mut other = before.clone();
        grown(&mut other, &["c"], &[]).unwrap();
        assert_eq!(other.same_league(&league), Err(ConfigError::Differs { key: "history" }));
        let mut unrecorded = before.clone();
        unrecorded.history.clear();
        assert!(unrecorded.same_league(&before).is_ok(), "an older league.json without a history");
    }

    #[test]
    fn a_stored_sprt_configuration_reads_back() {
        let games = LeagueConfig::resolve(
            &Overrides { bots: vec!["new=sh".into(), "base=sh".into()], seed: Some(4), ..Overrides::default() },
            Path::new("/"),
            0,
            1,
        )
        .unwrap();
        let test = Test::Pentanomial(Sprt::new(-1.0, 3.0, 0.1, 0.2, Model::Logistic).unwrap());
        let config = SprtConfig { games, test };
        let json = serde_json::to_string(&config).unwrap();
        let back: SprtConfig = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json, "argv is not stored, and comes back from revalidation");
        assert_eq!(back.test, config.test);
        assert_eq!(back.games.seed, 4);
    }
}
