//! `arena league`: a league from a configuration file and flags, resumable
//! from its output directory.

use super::Failure;
use super::flags::{BotPlaceFlags, FaultFlags, OddsFlags, PlayFlags, number};
use super::game::GameArgs;
use crate::league::config::Overrides;
use crate::run::execute::ReportRequest;
use crate::schedule::Shard;
use crate::session::league::{self, LeagueRequest};
use crate::settings::LEAGUE_GAMES;
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

/// The flags of `arena league`.
#[derive(Debug, Args)]
pub struct LeagueArgs {
    /// Read the league from this TOML file (flags override it).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Continue the league in DIR (its configuration is in DIR/league.json),
    /// stopped or finished; with --bot and --retire, its field changes first.
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "config", "game", "engine", "engine_timeout", "format", "players", "games", "seed",
        "move_timeout", "clock", "startup_timeout", "variants", "out", "shard", "limits", "sandbox", "deals",
        "bot_clocks", "bot_move_timeouts",
    ])]
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
    /// round-robin (every group of bots), gauntlet (the first bot against
    /// the others), learning (pairs chosen round by round by what they
    /// would teach, until every adjacent pair's order is known at 95%) or
    /// swiss (rounds of pairs of like score that have not met).
    #[arg(long)]
    format: Option<String>,
    /// Number of players (2, 3 or 4).
    #[arg(long)]
    players: Option<u64>,
    /// Games per group of bots, rounded up to whole deals.
    #[arg(long, value_parser = number(&LEAGUE_GAMES), help = LEAGUE_GAMES.help())]
    games: Option<u64>,
    /// A learning league's budget: it plays at most this many games
    /// (default: those of the round robin of its field with the same
    /// --games); with --resume, a new budget for a league that spent its own.
    #[arg(long, value_name = "GAMES")]
    budget: Option<u64>,
    /// A swiss league's rounds (default: ⌈log₂ N⌉ for N bots); with
    /// --resume, more rounds for a league that played its own.
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u64).range(1..))]
    swiss_rounds: Option<u64>,
    /// The league seed (default: a random one, kept in league.json).
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    play: PlayFlags,
    #[command(flatten)]
    faults: FaultFlags,
    /// Keep everything here: league.json, games.jsonl, standings.json, logs/.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
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
        Overrides {
            config: self.config.clone(),
            bots: self.bots.clone(),
            bot_dirs: self.place.bot_dirs.clone(),
            bot_envs: self.place.bot_envs.clone(),
            bot_clocks: self.odds.bot_clocks.clone(),
            bot_move_timeouts: self.odds.bot_move_timeouts.clone(),
            game: self.game.game.clone(),
            engine: self.game.engine.clone(),
            engine_timeout: self.game.engine_timeout,
            format: self.format.clone(),
            players: self.players,
            games: self.games,
            seed: self.seed,
            budget: self.budget,
            swiss_rounds: self.swiss_rounds,
            out: self.out.clone(),
            shard: self.shard,
            ..self.play.overrides()
        }
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
        for key in crate::league::config::KEYS {
            let flag = key.replace('_', "-");
            assert!(flags.contains(&flag.as_str()), "the league file's {key} has no flag --{flag}: {flags:?}");
        }
    }
}
