//! `arena league`: a league from a configuration file and flags, resumable
//! from its output directory.

use super::Failure;
use super::flags::{
    BotPlaceFlags, FaultFlags, OddsFlags, PlayFlags, RunSettings, SettingGroup, TimeFlags, setting_flags,
};
use super::game::GameArgs;
use crate::league::config::{Overrides, fixed_on_resume};
use crate::run::execute::ReportRequest;
use crate::schedule::Shard;
use crate::session::league::{self, LeagueRequest};
use clap::Args;
use std::path::PathBuf;

/// Examples shown by `arena league --help`.
pub const EXAMPLES: &str = "Examples:
  arena league                                    # the demo: a ladder of the sample bots
  arena league --config league.toml --out results
  arena league --bot a=./a --bot b=./b --bot c=./c --games 100 --concurrency 4 --out results
  arena league --format learning --games 2 --bot a=./a --bot b=./b --bot c=./c --out results
  arena league --resume results                   # continue a stopped league
  arena league --resume results --bot mine-2=./mine-2 --retire mine   # a new version in, the old one out
  arena league --config league.toml --shard 0/4 --out shard0   # one quarter of it
  arena league --config league.toml --out results --fail-on-fault   # in CI

Exit status: 0 the league was played (or a change queued for the arena that
runs it), 1 the arena failed, 2 usage error, 4 a bot forfeited every game it
was in (it never started, say), 5 with --fail-on-fault: a bot faulted, 130
interrupted.";

setting_flags! {
    /// The settings of a league that no other command shares.
    struct LeagueSettings { format, players, games, budget, swiss_rounds, seed, out }
}

/// What `--resume` cannot be given with: a resumed league keeps its own.
fn fixed() -> Vec<&'static str> {
    let settings = [GameArgs::KEYS, LeagueSettings::KEYS, TimeFlags::KEYS, RunSettings::KEYS].concat();
    let flags = ["config", "variants", "shard", "limits", "bot_clocks", "bot_move_timeouts"];
    fixed_on_resume(&settings).into_iter().chain(flags).collect()
}

/// The flags of `arena league`.
#[derive(Debug, Args)]
pub struct LeagueArgs {
    /// Read the league from this TOML file (flags override it).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Continue the league in DIR (its configuration is in DIR/league.json),
    /// stopped or finished; with --bot and --retire, its field changes first.
    #[arg(long, value_name = "DIR", conflicts_with_all = fixed())]
    resume: Option<PathBuf>,
    /// A bot: NAME=COMMAND (adds a bot, or replaces the command of one in the
    /// file; with --resume, a bot that enters the league).
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    bots: Vec<String>,
    /// With --resume: the bot NAME retires (its games stay; it plays no more).
    #[arg(long = "retire", value_name = "NAME", requires = "resume")]
    retire: Vec<String>,
    #[command(flatten)]
    place: BotPlaceFlags,
    #[command(flatten)]
    odds: OddsFlags,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    settings: LeagueSettings,
    #[command(flatten)]
    play: PlayFlags,
    #[command(flatten)]
    faults: FaultFlags,
    /// Play only shard K of N (0 <= K < N): the games whose id is K modulo N.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Also write the standings as json, csv or markdown: FORMAT or FORMAT=PATH
    /// (default: standings.<ext> in the output directory, or stdout without one).
    #[arg(long = "report", value_name = "FORMAT[=PATH]")]
    reports: Vec<ReportRequest>,
}

impl LeagueArgs {
    /// The league these flags ask for.
    fn request(&self) -> LeagueRequest {
        LeagueRequest {
            overrides: self.overrides(),
            resume: self.resume.clone(),
            retire: self.retire.clone(),
            fail_on_fault: self.faults.fail_on_fault,
            reports: self.reports.clone(),
        }
    }

    /// The settings these flags give.
    fn overrides(&self) -> Overrides {
        let mut overrides = Overrides {
            config: self.config.clone(),
            bots: self.bots.clone(),
            bot_dirs: self.place.bot_dirs.clone(),
            bot_envs: self.place.bot_envs.clone(),
            bot_clocks: self.odds.bot_clocks.clone(),
            bot_move_timeouts: self.odds.bot_move_timeouts.clone(),
            shard: self.shard,
            ..self.play.overrides()
        };
        self.game.give(&mut overrides);
        self.settings.give(&mut overrides);
        overrides
    }
}

/// Runs `arena league`: the addresses of `--serve` and `--listen` bound, then the league.
pub fn run(args: LeagueArgs) -> Result<i32, Failure> {
    args.play.serve.listen()?;
    args.play.remote.keep()?;
    league::run(args.request())
}

#[cfg(test)]
mod tests {
    use super::LeagueArgs;
    use clap::{Args, Command};

    #[test]
    fn every_key_of_a_league_file_is_a_flag_of_arena_league() {
        let command = LeagueArgs::augment_args(Command::new("league"));
        let flags: Vec<&str> = command.get_arguments().filter_map(|arg| arg.get_long()).collect();
        for row in crate::league::config::ROWS {
            let (key, flag) = (row.key, row.flag());
            assert!(flags.contains(&flag.as_str()), "the league file's {key} has no flag --{flag}: {flags:?}");
        }
    }
}
