//! Flags that several commands share, in one shape: a setting of
//! [`crate::settings`] is an `Option` (absent: the default in force, which a
//! resumed run reads from its output directory), its value checked by the
//! range of its setting, its help text showing its default.

use crate::bot::sandbox::Sandbox;
use crate::league::config::Overrides;
use crate::run::table::Limits;
use crate::schedule::clock::TimeControl;
use crate::schedule::lanes::Restart;
use crate::session::live;
use crate::settings::{CONCURRENCY, CPUS_PER_GAME, MOVE_TIMEOUT, Number, STARTUP_TIMEOUT, VariantSetting};
use clap::Args;
use clap::builder::RangedU64ValueParser;

/// The parser of the flag of a whole-number setting: its range.
pub fn number(setting: &Number) -> RangedU64ValueParser<u64> {
    match setting.most {
        u64::MAX => clap::value_parser!(u64).range(setting.least..),
        most => clap::value_parser!(u64).range(setting.least..=most),
    }
}

/// The help text of `--sandbox`.
pub fn sandbox_help() -> String {
    format!("Run every bot in a sandbox: none or bwrap (bubblewrap); default {}", Sandbox::default())
}

/// The help text of `--restart`.
pub fn restart_help() -> String {
    format!(
        "When bot processes are started: lane (a process for each seat order of a block of deals, so that no \
         process meets a deal twice), game (a process for each game) or off (kept for the whole run: fastest, \
         but a bot that remembers deals gains); default {}",
        Restart::default()
    )
}

/// The time limits of a run's bots.
#[derive(Debug, Clone, Args)]
pub struct TimeFlags {
    /// Time allowed for each move, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&MOVE_TIMEOUT), help = MOVE_TIMEOUT.help())]
    pub move_timeout: Option<u64>,
    /// A game clock for each seat: BASE+INC, each in milliseconds or with a
    /// unit ms, s or m (e.g. 60s+1s, 5000+100). A move may use what is left
    /// on the clock, up to --move-timeout; each move adds INC. A seat whose
    /// clock runs out forfeits on time.
    #[arg(long, value_name = "BASE+INC")]
    pub clock: Option<TimeControl>,
    /// Time allowed for a bot to answer hello after it starts, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&STARTUP_TIMEOUT), help = STARTUP_TIMEOUT.help())]
    pub startup_timeout: Option<u64>,
}

impl TimeFlags {
    /// The limits of a run timed by these flags (see [`Limits::timed`]).
    pub fn limits(&self) -> Limits {
        Limits::timed(self.move_timeout, self.clock, self.startup_timeout)
    }
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
    /// Games played at once (default: the number of cores).
    #[arg(long, value_parser = number(&CONCURRENCY))]
    pub concurrency: Option<u64>,
    #[command(flatten)]
    pub time: TimeFlags,
    /// A variant setting, KEY=VALUE (repeatable; see `arena rules`).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variants: Vec<VariantSetting>,
    #[arg(long = "limit", value_name = "NAME=VALUE", help = crate::bot::limits::help())]
    pub limits: Vec<String>,
    /// Run every bot in a sandbox.
    #[arg(long, help = sandbox_help())]
    pub sandbox: Option<Sandbox>,
    /// When bot processes are started.
    #[arg(long, value_name = "POLICY", help = restart_help())]
    pub restart: Option<Restart>,
    /// CPUs of each game in flight.
    #[arg(long, value_name = "K", value_parser = number(&CPUS_PER_GAME), help = CPUS_PER_GAME.help())]
    pub cpus_per_game: Option<u64>,
    /// Set the games up from the deals in FILE instead of dealing from the
    /// seed: deal d is the file's game d, cycling through the file (see
    /// docs/leagues.md, "Fixed deals").
    #[arg(long, value_name = "FILE")]
    pub deals: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub serve: ServeFlag,
    #[command(flatten)]
    pub remote: RemoteFlags,
}

impl PlayFlags {
    /// These flags as configuration overrides (every other override empty).
    pub fn overrides(&self) -> Overrides {
        Overrides {
            concurrency: self.concurrency,
            move_timeout: self.time.move_timeout,
            clock: self.time.clock,
            startup_timeout: self.time.startup_timeout,
            variants: self.variants.clone(),
            limits: self.limits.clone(),
            sandbox: self.sandbox,
            restart: self.restart,
            cpus_per_game: self.cpus_per_game,
            deals: self.deals.clone(),
            ..Overrides::default()
        }
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
