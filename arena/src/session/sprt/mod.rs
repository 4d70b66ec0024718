//! An SPRT's life as the library runs it (`arena sprt` parses its flags
//! and calls [`run`]): the games of a new test from its flags, or a stopped
//! one read back from its output directory; played until the test decides.
//!
//! - [`mod@test`]: which test and its bounds;
//! - [`mod@play`]: what is left of a test played, and its verdict.

mod play;
pub mod test;

use crate::bot::cpus::cores;
use crate::bot::spec::BotSpec;
use crate::league::config::{LeagueConfig, Overrides, SprtConfig};
use crate::session::exit::{Failure, usage};
use crate::session::{current_dir, random_seed};
use crate::stats::sprt::Test;
use crate::store::output::{self, OutDir, SPRT_CONFIG, read_config};
use crate::store::record::GameSummary;
use play::play;
use std::path::PathBuf;
use test::TestFlags;

/// What `arena sprt` asks of a test.
#[derive(Debug)]
pub struct SprtRequest {
    /// `--new NAME=COMMAND`: the new version of the bot.
    pub new: Option<String>,
    /// `--base NAME=COMMAND`: the version it is tested against.
    pub base: Option<String>,
    /// The other settings of its games (`--game`, `--players`, `--seed`,
    /// `--out`, the time limits, …; `games` is `--max-games`).
    pub overrides: Overrides,
    /// The test and its bounds.
    pub test: TestFlags,
    /// `--resume DIR`: the test to continue.
    pub resume: Option<PathBuf>,
    /// `--fail-on-fault`: any fault of a bot makes the exit status 5.
    pub fail_on_fault: bool,
}

/// A test about to run: its games, and its test (stored, or to be chosen
/// from the flags once the game's scoring is known).
pub(super) struct Prepared {
    games: LeagueConfig,
    test: Result<Test, TestFlags>,
    out: Option<OutDir>,
    played: Vec<GameSummary>,
    /// A new test, whose configuration is still to be written.
    fresh: bool,
}

/// Runs `arena sprt`.
pub fn run(args: SprtRequest) -> Result<i32, Failure> {
    let prepared = match &args.resume {
        Some(dir) => {
            let dir = current_dir()?.join(dir);
            let mut config: SprtConfig = read_config(&dir, SPRT_CONFIG, "an SPRT configuration")?;
            config.games.resume_in(&dir, args.overrides.concurrency, args.overrides.cpus_per_game)?;
            let (out, played) = output::resume(&dir)?;
            Prepared { games: config.games, test: Ok(config.test), out: Some(out), played, fresh: false }
        }
        None => Prepared { games: resolve(&args)?, test: Err(args.test), out: None, played: Vec::new(), fresh: true },
    };
    play(prepared, args.fail_on_fault)
}

/// The games of a new test from the flags.
pub(super) fn resolve(args: &SprtRequest) -> Result<LeagueConfig, Failure> {
    let (new, base) = (args.new.clone().unwrap_or_default(), args.base.clone().unwrap_or_default());
    let cwd = current_dir()?;
    let mut names = Vec::new();
    for (flag, text) in [("--new", &new), ("--base", &base)] {
        let (name, command) = text.split_once('=').ok_or_else(|| {
            usage(format!("{flag} {text:?}: expected NAME=COMMAND, e.g. {flag} {}=./my-bot", &flag[2..]))
        })?;
        names.push(
            BotSpec::new(name, command, &cwd, Default::default()).map_err(|e| usage(format!("{flag}: {e}")))?.name,
        );
    }
    if names[0] == names[1] {
        return Err(usage(format!("--new and --base are both named {:?}; give them different names", names[0])));
    }
    let flags = Overrides { bots: vec![new, base], format: Some("gauntlet".to_string()), ..args.overrides.clone() };
    Ok(LeagueConfig::resolve(&flags, &cwd, random_seed(), cores())?)
}

/// Seats copies of the base bot (`base.2`, `base.3`) so that the new bot
/// faces one base bot per other side.
pub(super) fn add_copies(games: &mut LeagueConfig, sides: usize) -> Result<(), Failure> {
    let base = games.bots[1].clone();
    for copy in 2..sides {
        let name = format!("{}.{copy}", base.name);
        if games.bots.iter().any(|bot| bot.name == name) {
            return Err(usage(format!("the copies of the base bot are named {name:?}, like the new bot; rename one")));
        }
        games.bots.push(BotSpec { name, ..base.clone() });
    }
    Ok(())
}
