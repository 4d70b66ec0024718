//! A league's resolved configuration, as `league.json` stores it, and what
//! a run makes of it: its engine, limits and setups.

use super::field::Change;
use super::table::Kept;
use super::{ConfigError, FlagError};
use crate::bot::limits::ResourceLimits;
use crate::bot::spec::BotSpec;
use crate::engine::program::Program;
use crate::engine::sandbox::Confinement;
use crate::engine::spec::Engine;
use crate::run::setting::{Setting, SettingError};
use crate::run::table::{Limits, Resolved};
use crate::schedule::clock::Timing;
use crate::schedule::{Dealing, Shard};
use crate::stats::sprt::Test;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A league's resolved configuration: everything that decides its games.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeagueConfig {
    /// The game's name (an engine program's, as it gives it): not a
    /// [`Kept`] setting, as the engine names the game (`--game` or the
    /// league file's `game` says which built-in engine plays).
    pub game: String,
    /// The engine program that plays the game, when it is not built in: not
    /// a [`Kept`] setting, as it is `engine` and `engine_timeout` together,
    /// with the directory it runs in (the league file's, or the working one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Program>,
    /// The settings of the table that `league.json` keeps, as resolved:
    /// `format`, `games` per group (before rounding up to whole deals; in a
    /// learning league, per pair of each round), `budget`, `swiss_rounds`,
    /// `seed`, `concurrency`, `move_timeout_ms`, `clock`, `startup_timeout_ms`,
    /// `sandbox`, `restart`, `cpus_per_game` (see [`Limits::cpus_per_game`]).
    #[serde(flatten)]
    pub kept: Kept,
    /// The bots, in order.
    pub bots: Vec<BotSpec>,
    /// The variant settings as given (`players` included), later ones winning.
    pub settings: Vec<(String, String)>,
    /// The variant they resolve to, every setting included (filled in once the game is known).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub variant: serde_json::Value,
    /// The rounds a learning or Swiss league chose, each its pairs of bots (numbers
    /// in [`bots`](Self::bots), in increasing order), in the order they were played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<Vec<Vec<usize>>>,
    /// Time odds: the timing of each bot that has one of its own, by name
    /// (absent in the `league.json` of a league without).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub odds: BTreeMap<String, Timing>,
    /// Operating-system limits of each bot process.
    #[serde(default)]
    pub limits: ResourceLimits,
    /// Whether each group plays deals of its own ([`Dealing::ByGroup`]), as
    /// every league begun since groups had them does; absent (false) in the
    /// `league.json` of a league begun before, whose groups go on sharing
    /// their deals ([`Dealing::Shared`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deals_by_group: bool,
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

impl LeagueConfig {
    /// The engine of the league, the variant its settings resolve to and
    /// the setups of its games (if set up in advance), checked by the
    /// engine; the game's name and the setups are kept here.
    pub fn open_engine(&mut self) -> Result<Opened, SettingError> {
        // Under the sandbox, the engine runs sandboxed too, hidden from the bots and they from it.
        let confinement = match &self.engine {
            Some(program) => Confinement::of(self.kept.sandbox, program, &self.bots, &self.private())
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
            odds: self.odds.clone(),
            resources: self.limits.clone(),
            sandbox: self.kept.sandbox,
            cpus_per_game: self.kept.cpus_per_game as usize,
            restart: self.kept.restart,
            ..Limits::timed(Some(self.kept.move_timeout_ms), self.kept.clock, Some(self.kept.startup_timeout_ms))
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
            self.kept.concurrency = concurrency;
        }
        if let Some(cpus_per_game) = cpus_per_game {
            self.kept.cpus_per_game = cpus_per_game;
        }
        self.out = Some(dir.to_path_buf());
        Ok(())
    }
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
