//! The bots that `--bot`, `--bot-dir` and `--bot-env` name.

use super::{ConfigError, FlagError, Overrides};
use crate::bot::spec::{BotSpec, SpecError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
pub(super) fn apply_bot_flags(entries: &mut Vec<Entry>, flags: &Overrides, cwd: &Path) -> Result<(), FlagError> {
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
pub(super) fn checked_bots(
    entries: Vec<Entry>,
    key_error: impl Fn(&str, SpecError) -> ConfigError,
) -> Result<Vec<BotSpec>, ConfigError> {
    let mut bots = Vec::new();
    for (i, (name, command, dir, env)) in entries.into_iter().enumerate() {
        bots.push(BotSpec::new(&name, &command, &dir, env).map_err(|e| key_error(&format!("bot[{i}]"), e))?);
    }
    Ok(bots)
}

/// `text`, the value of `flag`, split at its first `=`; it takes `shape`.
fn split_pair<'a>(text: &'a str, flag: &'static str, shape: &'static str) -> Result<(&'a str, &'a str), FlagError> {
    text.split_once('=').ok_or_else(|| FlagError::NotAPair { flag, text: text.to_string(), shape })
}

/// `flag` names `name`, which is no bot's name.
fn unknown_bot(flag: &'static str, name: &str) -> FlagError {
    FlagError::UnknownBot { flag, name: name.to_string() }
}
