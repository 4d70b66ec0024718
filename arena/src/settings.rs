//! The numbers of a run, each written once: its key in a league file, its
//! default, the least (and most) value it takes, and its help text.
//!
//! The table of settings (`league/config/table.rs`) names a number in its
//! row, from which its flag (`--move-timeout`), its key in a league file
//! (`move_timeout = …`) and in `league.json` come, so a default is changed
//! in one place, and help texts show the default in force.
//! Settings whose value is an enum (`--sandbox`, `--format`) take their
//! default from the type's [`Default`] instead.
//!
//! The bottom layer: it imports nothing from the crate.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Why a setting's value is refused; the message names no setting (the
/// caller says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueError {
    /// A number below the least the setting takes.
    BelowLeast {
        /// The least value taken.
        least: u64,
    },
    /// A number above the most the setting takes.
    AboveMost {
        /// The most value taken.
        most: u64,
    },
    /// A variant setting without `=`.
    NotKeyValue,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::BelowLeast { least } => write!(f, "must be at least {least}"),
            ValueError::AboveMost { most } => write!(f, "must be at most {most}"),
            ValueError::NotKeyValue => f.write_str("expected KEY=VALUE"),
        }
    }
}

impl std::error::Error for ValueError {}

/// A setting counted in whole numbers: milliseconds, games, CPUs.
#[derive(Debug)]
pub struct Number {
    /// The key of a league file, and the setting's name in its errors:
    /// `move_timeout` (its flag is the same with dashes, `--move-timeout`).
    pub key: &'static str,
    /// The value when none is given.
    pub default: u64,
    /// The least value taken.
    pub least: u64,
    /// The most value taken.
    pub most: u64,
    /// The help text, `{default}` standing for the default.
    pub help: &'static str,
}

impl Number {
    /// The help text, with the default in it.
    pub fn help(&self) -> String {
        self.help_as(self.help)
    }

    /// Another help text of this setting (a command's own wording), with
    /// `{default}` in `text` replaced by the default.
    pub fn help_as(&self, text: &str) -> String {
        text.replace("{default}", &self.default.to_string())
    }

    /// The value given, or the default: an error (naming no setting) when
    /// it is out of range.
    pub fn or_default(&self, given: Option<u64>) -> Result<u64, ValueError> {
        match given {
            Some(value) if value < self.least => Err(ValueError::BelowLeast { least: self.least }),
            Some(value) if value > self.most => Err(ValueError::AboveMost { most: self.most }),
            Some(value) => Ok(value),
            None => Ok(self.default),
        }
    }

    /// The default as a duration, for a setting in milliseconds.
    pub const fn millis(&self) -> Duration {
        Duration::from_millis(self.default)
    }
}

/// Time allowed for each move, in milliseconds.
pub const MOVE_TIMEOUT: Number = Number {
    key: "move_timeout",
    default: 1000,
    least: 1,
    most: u64::MAX,
    help: "Time allowed for each move, in milliseconds (default {default}; under --clock, the clock's base)",
};

/// Time allowed for a bot to answer `hello` after it starts, in milliseconds.
pub const STARTUP_TIMEOUT: Number = Number {
    key: "startup_timeout",
    default: 10_000,
    least: 1,
    most: u64::MAX,
    help: "Time allowed for a bot to answer hello after it starts, in milliseconds (default {default})",
};

/// Time allowed for each answer of an engine program, in milliseconds.
pub const ENGINE_TIMEOUT: Number = Number {
    key: "engine_timeout",
    default: 10_000,
    least: 1,
    most: u64::MAX,
    help: "Time allowed for each answer of an --engine program, in milliseconds (default {default}; an engine that \
           asks more at hello, its step_ms, is given up to 60000)",
};

/// The CPUs of each game in flight: one by default, so that a decision is a
/// switch between processes on one core, several times cheaper than a
/// wake-up of another core.
pub const CPUS_PER_GAME: Number = Number {
    key: "cpus_per_game",
    default: 1,
    least: 0,
    most: u64::MAX,
    help: "CPUs of each game in flight: the bots of a game and the worker that plays it run on this many CPUs of \
           their own (default {default}; 0: not pinned, the system places them; more for bots that use several \
           threads)",
};

/// Games played at once by a match (a league's default is the cores it has).
pub const CONCURRENCY: Number =
    Number { key: "concurrency", default: 1, least: 1, most: 4096, help: "Games played at once (default {default})" };

/// The games of a match.
pub const MATCH_GAMES: Number = Number {
    key: "games",
    default: 100,
    least: 1,
    most: u64::MAX,
    help: "Number of games (default {default}); rounded up to whole deals (every order of the bots over the seats: \
           2 with two sides, 6 with three, 24 with four)",
};

/// The games of each group of bots of a league.
pub const LEAGUE_GAMES: Number = Number {
    key: "games",
    default: 20,
    least: 1,
    most: u64::MAX,
    help: "Games per group of bots (default {default}), rounded up to whole deals (every order of the group's \
           bots: 2 with two sides, 6 with three, 24 with four); in a learning league, per pair of each round",
};

/// The built-in game played when a run names none.
pub const GAME: &str = "all-fives";

/// A variant setting as given, `KEY=VALUE` (`--variant`): parsed once, where
/// it is given, and carried typed from there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariantSetting {
    /// The setting's name, trimmed.
    pub key: String,
    /// Its value, trimmed.
    pub value: String,
}

impl VariantSetting {
    /// The setting `key` = `value`.
    pub fn new(key: impl Into<String>, value: impl Into<String>) -> VariantSetting {
        VariantSetting { key: key.into(), value: value.into() }
    }

    /// The pair the engine is asked about.
    pub fn pair(&self) -> (String, String) {
        (self.key.clone(), self.value.clone())
    }
}

impl FromStr for VariantSetting {
    type Err = ValueError;
    fn from_str(text: &str) -> Result<VariantSetting, ValueError> {
        let (key, value) = text.split_once('=').ok_or(ValueError::NotKeyValue)?;
        Ok(VariantSetting::new(key.trim(), value.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_help_text_shows_the_default_in_force() {
        assert_eq!(
            MOVE_TIMEOUT.help(),
            "Time allowed for each move, in milliseconds (default 1000; under --clock, the clock's base)"
        );
        assert_eq!(STARTUP_TIMEOUT.help_as("hello within {default} ms"), "hello within 10000 ms");
    }

    #[test]
    fn a_value_out_of_range_is_refused_and_none_is_the_default() {
        assert_eq!(MOVE_TIMEOUT.or_default(None), Ok(1000));
        assert_eq!(MOVE_TIMEOUT.or_default(Some(5)), Ok(5));
        assert_eq!(MOVE_TIMEOUT.or_default(Some(0)), Err(ValueError::BelowLeast { least: 1 }));
        assert_eq!(ValueError::BelowLeast { least: 1 }.to_string(), "must be at least 1");
        assert_eq!(CPUS_PER_GAME.or_default(Some(0)), Ok(0));
        assert_eq!(CONCURRENCY.or_default(Some(5000)), Err(ValueError::AboveMost { most: 4096 }));
        assert_eq!(ValueError::AboveMost { most: 4096 }.to_string(), "must be at most 4096");
        assert_eq!(MOVE_TIMEOUT.millis(), Duration::from_millis(1000));
    }

    #[test]
    fn a_variant_setting_is_key_equals_value_trimmed() {
        assert_eq!("target = 250".parse(), Ok(VariantSetting::new("target", "250")));
        assert_eq!("a=b=c".parse(), Ok(VariantSetting::new("a", "b=c")));
        assert_eq!("target".parse::<VariantSetting>(), Err(ValueError::NotKeyValue));
        assert_eq!(ValueError::NotKeyValue.to_string(), "expected KEY=VALUE");
    }
}
