//! Flags that `arena league` and `arena sprt` share: how games are played
//! and how bot processes are confined.

use crate::league::config::Overrides;
use crate::schedule::clock::TimeControl;
use clap::Args;

/// How the games of a run are played.
#[derive(Debug, Args)]
pub struct PlayFlags {
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    pub concurrency: Option<u64>,
    /// Time allowed for each move, in milliseconds (default 1000; under
    /// --clock, the clock's base).
    #[arg(long, value_name = "MS")]
    pub move_timeout: Option<u64>,
    /// A game clock for each seat: BASE+INC, each in milliseconds or with a
    /// unit ms, s or m (e.g. 60s+1s, 5000+100). A move may use what is left
    /// on the clock, up to --move-timeout; each move adds INC. A seat whose
    /// clock runs out forfeits on time.
    #[arg(long, value_name = "BASE+INC")]
    pub clock: Option<TimeControl>,
    /// Time allowed for a bot to answer hello, in milliseconds (default 10000).
    #[arg(long, value_name = "MS")]
    pub startup_timeout: Option<u64>,
    /// A variant setting, KEY=VALUE (repeatable; see `arena rules`).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    pub variants: Vec<String>,
    /// A resource limit of every bot process, NAME=VALUE (cpu, address-space, processes, file-size, open-files, tmp; `none` lifts it).
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    pub limits: Vec<String>,
    /// Run every bot in a sandbox: none (the default) or bwrap (bubblewrap).
    #[arg(long)]
    pub sandbox: Option<String>,
    /// CPUs of each game in flight: the bots of a game and the worker that
    /// plays it run on this many CPUs of their own (default 1; 0: not
    /// pinned, the system places them; more for bots that use several threads).
    #[arg(long, value_name = "K")]
    pub cpus_per_game: Option<u64>,
    /// Set the games up from the deals in FILE instead of dealing from the
    /// seed: deal d is the file's game d, cycling through the file (see
    /// README, "Fixed deals").
    #[arg(long, value_name = "FILE")]
    pub deals: Option<std::path::PathBuf>,
}

impl PlayFlags {
    /// These flags as configuration overrides (every other override empty).
    pub fn overrides(&self) -> Overrides {
        Overrides {
            concurrency: self.concurrency,
            move_timeout: self.move_timeout,
            clock: self.clock,
            startup_timeout: self.startup_timeout,
            variants: self.variants.clone(),
            limits: self.limits.clone(),
            sandbox: self.sandbox.clone(),
            cpus_per_game: self.cpus_per_game,
            deals: self.deals.clone(),
            ..Overrides::default()
        }
    }
}
