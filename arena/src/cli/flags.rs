//! Flags that several commands share, in one shape: a setting of the
//! league's table ([`crate::league::config::row`]) is an `Option` (absent:
//! the default in force, which a resumed run reads from its output
//! directory), its flag made from its row: its value checked by its range,
//! its help text showing its default. [`setting_flags!`] declares a group
//! of such flags by the settings' keys.

use crate::bot::sandbox::Sandbox;
use crate::league::config::{Overrides, Row};
use crate::run::table::Limits;
use crate::schedule::clock::TimeControl;
use crate::schedule::lanes::Restart;
use crate::session::live;
use crate::settings::{Number, VariantSetting};
use clap::builder::{RangedU64ValueParser, ValueParser};
use clap::{Arg, Args};
use std::path::PathBuf;

/// Declares a group of settings' flags: a struct of each setting's value
/// as given, by the keys of the table's rows, each key optionally followed
/// by `: ADJUST`, a function of its [`Arg`] that words it for the command
/// (`seed: |arg: Arg| arg.help("…")`). The group is a `#[command(flatten)]`
/// of a command's flags; [`SettingGroup::give`] puts its values in the
/// settings a run is resolved from.
macro_rules! setting_flags {
    ($(#[$doc:meta])* $vis:vis struct $name:ident { $( $key:ident $(: $adjust:expr)? ),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Default)]
        $vis struct $name {
            $(
                #[doc = concat!("The setting `", stringify!($key), "` as its flag gives it, if given.")]
                pub $key: Option<$crate::league::config::flag_type::$key>,
            )*
        }

        impl $crate::cli::flags::SettingGroup for $name {
            const KEYS: &'static [&'static str] = &[$(stringify!($key)),*];

            fn give(&self, overrides: &mut $crate::league::config::Overrides) {
                $( if self.$key.is_some() { overrides.$key = self.$key.clone(); } )*
            }
        }

        impl clap::FromArgMatches for $name {
            fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
                let mut flags = Self::default();
                flags.update_from_arg_matches(matches)?;
                Ok(flags)
            }

            fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
                $(
                    let given = matches.get_one::<$crate::league::config::flag_type::$key>(stringify!($key));
                    if let Some(value) = given {
                        self.$key = Some(value.clone());
                    }
                )*
                Ok(())
            }
        }

        impl clap::Args for $name {
            fn augment_args(command: clap::Command) -> clap::Command {
                command $( .arg({
                    let arg = $crate::cli::flags::setting::<$crate::league::config::flag_type::$key>(
                        &$crate::league::config::row::$key,
                    );
                    $( let arg = ($adjust)(arg); )?
                    arg
                }) )*
            }

            fn augment_args_for_update(command: clap::Command) -> clap::Command {
                Self::augment_args(command)
            }
        }
    };
}
pub(crate) use setting_flags;

/// A group of settings' flags, as [`setting_flags!`] declares it.
pub trait SettingGroup {
    /// The keys of its settings.
    const KEYS: &'static [&'static str];

    /// Puts the settings given in `overrides`.
    fn give(&self, overrides: &mut Overrides);
}

/// The value of a setting's flag: how it is parsed.
pub trait FlagValue: Clone + Send + Sync + 'static {
    /// The parser of `row`'s flag.
    fn parser(row: &Row) -> ValueParser;
}

impl FlagValue for u64 {
    /// A whole number in the row's range.
    fn parser(row: &Row) -> ValueParser {
        whole(row.least, row.most).into()
    }
}

/// The parser of the flag of a whole-number setting: its range.
pub fn number(setting: &Number) -> RangedU64ValueParser<u64> {
    whole(setting.least, setting.most)
}

/// The parser of a whole number from `least` to `most`.
fn whole(least: u64, most: u64) -> RangedU64ValueParser<u64> {
    match most {
        u64::MAX => clap::value_parser!(u64).range(least..),
        most => clap::value_parser!(u64).range(least..=most),
    }
}

/// Flag values parsed as their type parses them.
macro_rules! parsed_as_its_type {
    ($($value:ty),*) => {
        $( impl FlagValue for $value {
            fn parser(_: &Row) -> ValueParser {
                clap::value_parser!($value).into()
            }
        } )*
    };
}

parsed_as_its_type!(String, PathBuf, TimeControl, Sandbox, Restart);

/// The flag of the setting of `row`, its value a `T`.
pub fn setting<T: FlagValue>(row: &Row) -> Arg {
    let arg = Arg::new(row.key).long(row.flag()).value_name(row.value_name).value_parser(T::parser(row));
    arg.help(row.help()).conflicts_with_all(row.conflicts)
}

setting_flags! {
    /// The time limits of a run's bots.
    pub struct TimeFlags { move_timeout, clock, startup_timeout }
}

impl TimeFlags {
    /// The limits of a run timed by these flags (see [`Limits::timed`]).
    pub fn limits(&self) -> Limits {
        Limits::timed(self.move_timeout, self.clock, self.startup_timeout)
    }
}

setting_flags! {
    /// How the bots of a league or an SPRT are run, and its games set up.
    pub struct RunSettings { concurrency, sandbox, restart, cpus_per_game, deals }
}

/// Where and with what environment each bot runs, beside its `--bot`.
#[derive(Debug, Clone, Args)]
pub struct BotPlaceFlags {
    /// The working directory of a bot: NAME=DIR (relative to here; default: here).
    #[arg(long = "bot-dir", value_name = "NAME=DIR")]
    pub bot_dirs: Vec<String>,
    /// An environment variable of a bot: NAME=KEY=VALUE (repeatable).
    #[arg(long = "bot-env", value_name = "NAME=KEY=VALUE")]
    pub bot_envs: Vec<String>,
}

/// Time odds: a bot's own clock or per-move limit, in place of the run's.
#[derive(Debug, Clone, Args)]
pub struct OddsFlags {
    /// Time odds: a game clock of a bot's own, NAME=BASE+INC (as --clock), in place of --clock for its seats.
    #[arg(long = "bot-clock", value_name = "NAME=BASE+INC")]
    pub bot_clocks: Vec<String>,
    /// Time odds: a per-move limit of a bot's own, NAME=MS, in place of --move-timeout for its seats.
    #[arg(long = "bot-move-timeout", value_name = "NAME=MS")]
    pub bot_move_timeouts: Vec<String>,
}

/// `--limit NAME=VALUE`: the bots' resource limits, in order, a later one
/// winning (`match`, `league`, `sprt`, `check-bot`).
#[derive(Debug, Clone, Args)]
pub struct LimitFlags {
    #[arg(long = "limit", value_name = "NAME=VALUE", help = crate::bot::limits::help())]
    pub limits: Vec<String>,
}

/// What a run's exit status says of its bots' faults (`match`, `league`, `sprt`).
#[derive(Debug, Clone, Copy, Args)]
pub struct FaultFlags {
    /// Exit with status 5 when any bot faulted, even once, whatever else the run says (an SPRT's verdict too); without it, only a bot that forfeited every game it was in makes the status 4.
    #[arg(long)]
    pub fail_on_fault: bool,
}

/// How the games of a league or an SPRT are played.
#[derive(Debug, Args)]
pub struct PlayFlags {
    #[command(flatten)]
    pub run: RunSettings,
    #[command(flatten)]
    pub time: TimeFlags,
    /// A variant setting, KEY=VALUE (repeatable; see `arena rules`).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variants: Vec<VariantSetting>,
    #[command(flatten)]
    pub limit: LimitFlags,
    #[command(flatten)]
    pub serve: ServeFlag,
    #[command(flatten)]
    pub remote: RemoteFlags,
}

impl PlayFlags {
    /// These flags as configuration overrides (every other override empty).
    pub fn overrides(&self) -> Overrides {
        let mut overrides =
            Overrides { variants: self.variants.clone(), limits: self.limit.limits.clone(), ..Overrides::default() };
        self.run.give(&mut overrides);
        self.time.give(&mut overrides);
        overrides
    }
}

/// `--serve [ADDR]` of `match`, `league` and `sprt`: the run's live page
/// while it runs (see `arena serve`).
#[derive(Debug, Clone, Args)]
pub struct ServeFlag {
    /// Serve the run's live page while it runs, on ADDR (default 127.0.0.1:8000; port 0 for any free one):
    /// standings, the SPRT, faults and the games in flight, updated as games end. Needs an output directory.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = crate::serve::DEFAULT_ADDR)]
    pub serve: Option<String>,
}

impl ServeFlag {
    /// Listens on `--serve`'s address, if given, so that an address in use
    /// is refused before any game is played (see [`live::listen`]).
    ///
    /// # Errors
    /// A usage error when the address cannot be listened on.
    pub fn listen(&self) -> Result<(), super::Failure> {
        live::listen(self.serve.as_deref())
    }
}

/// Bots over the network (`match`, `league` and `sprt`): `--listen` for
/// those that connect in, and the consent a sandboxed run needs to play any.
#[derive(Debug, Clone, Args)]
pub struct RemoteFlags {
    /// Listen for bots that connect in (a bot given as NAME=listen), over TCP and WebSocket, on ADDR: PORT or HOST:PORT (default 127.0.0.1:0, any free port; the address and each bot's token are printed).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1:0")]
    pub listen: Option<String>,
    /// Allow --listen on an address other than the loopback (other machines may then connect and try tokens).
    #[arg(long)]
    pub listen_public: bool,
    /// Allow bots over the network in a run with --sandbox bwrap: no sandbox confines a bot that runs elsewhere.
    #[arg(long)]
    pub unsandboxed_remote: bool,
}

impl RemoteFlags {
    /// Checks `--listen`'s address and keeps the flags for [`live::listen_run`].
    ///
    /// # Errors
    /// A usage error for an address that is malformed, or not the loopback without `--listen-public`.
    pub fn keep(&self) -> Result<(), super::Failure> {
        live::keep(self.listen.as_deref(), self.listen_public, self.unsandboxed_remote)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Cli;
    use clap::error::ErrorKind;
    use clap::{CommandFactory, Parser};

    #[test]
    fn every_command_s_flags_hold_together() {
        // Every id a conflict names is a flag of its command, no flag is declared twice, ….
        Cli::command().debug_assert();
    }

    #[test]
    fn every_command_that_limits_the_bots_takes_one_limit_flag() {
        let command = Cli::command();
        for name in ["match", "league", "sprt", "check-bot"] {
            let sub = command.find_subcommand(name).unwrap();
            let limit = sub.get_arguments().find(|arg| arg.get_id() == "limits").unwrap();
            assert_eq!(limit.get_long(), Some("limit"), "{name}");
            assert_eq!(limit.get_help().unwrap().to_string(), crate::bot::limits::help(), "{name}");
        }
    }

    #[test]
    fn resume_refuses_the_settings_a_resumed_run_keeps_and_takes_the_others() {
        let parse = |args: &[&str]| Cli::try_parse_from(["arena"].iter().chain(args)).map(|_| ()).map_err(|e| e.kind());
        for command in ["league", "sprt"] {
            for fixed in [["--seed", "1"], ["--restart", "game"], ["--move-timeout", "5"], ["--out", "x"]] {
                let args = [command, "--resume", "dir", fixed[0], fixed[1]];
                assert_eq!(parse(&args), Err(ErrorKind::ArgumentConflict), "{args:?}");
            }
            for taken in [["--concurrency", "2"], ["--cpus-per-game", "0"]] {
                assert_eq!(parse(&[command, "--resume", "dir", taken[0], taken[1]]), Ok(()));
            }
        }
        assert_eq!(parse(&["league", "--resume", "dir", "--budget", "9", "--swiss-rounds", "2"]), Ok(()));
        assert_eq!(parse(&["match", "--deals", "f", "--games", "2"]), Err(ErrorKind::ArgumentConflict));
        assert_eq!(parse(&["rules", "--game", "leduc", "--engine", "x"]), Err(ErrorKind::ArgumentConflict));
    }
}
