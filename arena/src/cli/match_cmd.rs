//! `arena match`: a match between bots, one per side.

use super::Failure;
use super::flags::{
    BotPlaceFlags, FaultFlags, LimitFlags, OddsFlags, RemoteFlags, ServeFlag, TimeFlags, setting_flags,
};
use super::game::GameArgs;
use crate::league::config::Overrides;
use crate::run::execute::ReportRequest;
use crate::session::matches::{self, MatchRequest};
use crate::settings::{CONCURRENCY, MATCH_GAMES, VariantSetting};
use clap::{Arg, Args};

/// Examples shown by `arena match --help`.
pub const EXAMPLES: &str = "Examples:
  arena match --bot greedy=target/release/greedy-bot --bot random=target/release/random-bot --games 1000
  arena match --bot py=\"python3 sample-bots/python/greedy.py\" --bot js=\"node sample-bots/js/greedy.js\" --out results
  arena match --players 4 --bot a=./my-bot --bot b=target/release/greedy-bot --variant hand_end=winner-takes
  arena match --bot new=./my-bot --bot greedy=target/release/greedy-bot --fail-on-fault   # in CI

Exit status: 0 the match was played, 1 the arena failed, 2 usage error, 4 a bot
forfeited every game it was in (it never started, say), 5 with --fail-on-fault:
a bot faulted, 130 interrupted.";

setting_flags! {
    /// The settings of a match, worded for it.
    struct MatchSettings {
        players: |arg: Arg| arg.help("Number of players (2, 3 or 4; 4 plays partnerships unless --variant partners=false)"),
        games: |arg: Arg| arg.help(MATCH_GAMES.help()),
        deals: |arg: Arg| arg.conflicts_with("games").help(
            "Play the games set up in FILE instead of dealing from the seed: every game in the file, each in every \
             order of the bots (see docs/leagues.md, \"Fixed deals\")",
        ),
        seed: |arg: Arg| arg.help("The match seed (default: a random one, printed so the match can be repeated)"),
        concurrency: |arg: Arg| arg.help(CONCURRENCY.help()),
        out: |arg: Arg| arg.help("Write games.jsonl, standings.json and the bots' stderr logs here"),
        sandbox,
        restart,
        cpus_per_game,
    }
}

/// The flags of `arena match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// A bot: NAME=COMMAND, the command split like a shell splits words (no shell syntax; VAR=value words before the program set its environment). Give one per side.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    bots: Vec<String>,
    #[command(flatten)]
    place: BotPlaceFlags,
    #[command(flatten)]
    odds: OddsFlags,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    settings: MatchSettings,
    #[command(flatten)]
    time: TimeFlags,
    /// A variant setting, KEY=VALUE (repeatable; see `arena rules`).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    variants: Vec<VariantSetting>,
    #[command(flatten)]
    limit: LimitFlags,
    /// Also write the standings as json, csv or markdown: FORMAT or FORMAT=PATH
    /// (default: standings.<ext> in the output directory, or stdout without one).
    #[arg(long = "report", value_name = "FORMAT[=PATH]")]
    reports: Vec<ReportRequest>,
    #[command(flatten)]
    faults: FaultFlags,
    #[command(flatten)]
    serve: ServeFlag,
    #[command(flatten)]
    remote: RemoteFlags,
}

impl MatchArgs {
    /// The match these flags ask for.
    fn request(&self) -> Result<MatchRequest, Failure> {
        Ok(MatchRequest {
            overrides: Overrides {
                bots: self.bots.clone(),
                bot_dirs: self.place.bot_dirs.clone(),
                bot_envs: self.place.bot_envs.clone(),
                bot_clocks: self.odds.bot_clocks.clone(),
                bot_move_timeouts: self.odds.bot_move_timeouts.clone(),
                players: self.settings.players,
                games: self.settings.games,
                deals: self.settings.deals.clone(),
                seed: self.settings.seed,
                concurrency: self.settings.concurrency,
                move_timeout: self.time.move_timeout,
                clock: self.time.clock,
                startup_timeout: self.time.startup_timeout,
                variants: self.variants.clone(),
                out: self.settings.out.clone(),
                limits: self.limit.limits.clone(),
                sandbox: self.settings.sandbox,
                restart: self.settings.restart,
                cpus_per_game: self.settings.cpus_per_game,
                ..Overrides::default()
            },
            game: self.game.game().to_string(),
            program: self.game.program()?,
            reports: self.reports.clone(),
            fail_on_fault: self.faults.fail_on_fault,
        })
    }
}

/// Runs `arena match`: the addresses of `--serve` and `--listen` bound, then the match.
pub fn run(args: MatchArgs) -> Result<i32, Failure> {
    args.serve.listen()?;
    args.remote.keep()?;
    matches::run(args.request()?)
}
