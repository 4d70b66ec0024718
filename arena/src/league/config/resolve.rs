//! A league's configuration resolved from its file and the flags.

use super::bots::{Entry, apply_bot_flags, checked_bots};
use super::file::{scalar, toml_error};
use super::table::{Chosen, ConfigFile, Given, Kept, Numbers, Origin};
use super::{ConfigError, FlagError, LeagueConfig, Overrides, SettingProblem};
use crate::bot::limits::ResourceLimits;
use crate::engine::program::Program;
use crate::run::table::{OwnTime, apply_odds_flags, move_limit, time_odds};
use crate::schedule::Format;
use crate::schedule::clock::TimeControl;
use crate::settings::{CONCURRENCY, ENGINE_TIMEOUT, GAME, MOVE_TIMEOUT, Number, VariantSetting};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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

        let given = Given::of(flags, &file, key_error)?;
        let numbers = Numbers::of(&given, key_error)?;
        let format: Format = given
            .format
            .map(|text| text.value().parse())
            .transpose()
            .map_err(|e| key_error("format", SettingProblem::Format(e)))?
            .unwrap_or_default();
        let mut settings = Vec::new();
        if let Some(players) = given.players {
            settings.push(("players".to_string(), players.value().to_string()));
        }
        for (key, value) in &file.variant {
            let value = scalar(value).ok_or_else(|| {
                key_error(&format!("variant.{key}"), SettingProblem::NotScalar { value: value.to_string() })
            })?;
            settings.push((key.clone(), value));
        }
        settings.extend(flags.variants.iter().map(VariantSetting::pair));
        let limits = resource_limits(&file, &flags.limits, key_error)?;
        let seed = given.seed.map(Origin::value);
        if flags.shard.is_some() && seed.is_none() {
            return Err(key_error("seed", SettingProblem::ShardWithoutSeed));
        }
        let number = |setting: &Number, given: Option<Origin<u64>>| {
            setting.or_default(given.map(Origin::value)).map_err(|e| key_error(setting.key, SettingProblem::Value(e)))
        };
        let clock = given.clock.map(Origin::value);
        let given_move_timeout = given.move_timeout.map(|ms| number(&MOVE_TIMEOUT, Some(ms))).transpose()?;
        let move_timeout = move_limit(given_move_timeout, clock);
        let odds = time_odds(&own, clock, given_move_timeout);
        let deals_file = given.deals.map(|deals| deals.path(cwd, &base));
        secrets.extend(deals_file.clone());
        if given.engine.is_some() && given.game.is_some() {
            return Err(key_error("engine", SettingProblem::GameAndEngine));
        }
        let timeout_ms = number(&ENGINE_TIMEOUT, given.engine_timeout)?;
        let engine = given.engine.map(|command| {
            let (command, dir) = command.with_dir(cwd, &base);
            Program { command, dir, timeout_ms }
        });
        let chosen = Chosen {
            format,
            budget: match given.budget.map(Origin::value) {
                Some(_) if format != Format::Learning => {
                    return Err(key_error("budget", SettingProblem::BudgetNotLearning { format }));
                }
                budget => budget,
            },
            swiss_rounds: match given.swiss_rounds.map(Origin::value) {
                Some(_) if format != Format::Swiss => {
                    return Err(key_error("swiss_rounds", SettingProblem::RoundsNotSwiss { format }));
                }
                Some(0) => return Err(key_error("swiss_rounds", SettingProblem::NoRounds)),
                rounds => rounds,
            },
            seed: seed.unwrap_or(random_seed),
            // By default, a game in flight on each set of CPUs a game gets.
            concurrency: match given.concurrency {
                None => (cores / numbers.cpus_per_game.max(1)).max(1),
                given => number(&CONCURRENCY, given)?,
            },
            move_timeout_ms: move_timeout.as_millis() as u64,
            clock,
            sandbox: given.sandbox.map(Origin::value).unwrap_or_default(),
            restart: given.restart.map(Origin::value).unwrap_or_default(),
        };
        Ok(LeagueConfig {
            game: given.game.map_or_else(|| GAME.to_string(), Origin::value),
            engine,
            kept: Kept::of(numbers, chosen),
            bots,
            settings,
            variant: serde_json::Value::Null,
            rounds: Vec::new(),
            odds,
            limits,
            deals_by_group: true,
            shard: match flags.shard {
                Some(_) if format.has_rounds() => {
                    return Err(key_error("shard", SettingProblem::ShardedRounds { format }));
                }
                shard => shard,
            },
            deals_file,
            deals: serde_json::Value::Null,
            out: given.out.map(|out| out.path(cwd, &base)),
            secrets,
            history: Vec::new(),
        })
    }
}

/// The bots' resource limits: the defaults, then the file's `[limits]`, then `--limit` in order.
fn resource_limits(
    file: &ConfigFile,
    flags: &[String],
    key_error: impl Fn(&str, SettingProblem) -> ConfigError,
) -> Result<ResourceLimits, ConfigError> {
    let mut limits = ResourceLimits::default();
    for (key, value) in &file.limits {
        let value = scalar(value).ok_or_else(|| {
            key_error(&format!("limits.{key}"), SettingProblem::NotAmount { value: value.to_string() })
        })?;
        limits
            .set(&format!("{key}={value}"))
            .map_err(|e| key_error(&format!("limits.{key}"), SettingProblem::Limit(e)))?;
    }
    for text in flags {
        limits.set(text).map_err(|e| ConfigError::Flag(FlagError::Limit(e)))?;
    }
    Ok(limits)
}
