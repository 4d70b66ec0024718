//! `arena sprt`: a sequential probability ratio test of a new version of a
//! bot against its base, on duplicate deals, resumable from its output directory.

use super::Failure;
use super::flags::{FaultFlags, PlayFlags, RunSettings, SettingGroup, TimeFlags, setting_flags};
use super::game::GameArgs;
use crate::league::config::{Overrides, fixed_on_resume};
use crate::session::sprt::test::TestFlags;
use crate::session::sprt::{self, SprtRequest};
use clap::{Arg, Args};
use std::path::PathBuf;

/// Examples and reductions shown by `arena sprt --help`.
pub const EXAMPLES: &str = "Tests: the pentanomial test (--bounds, or --elo0 and --elo1, in Elo) judges
pairwise results, which bot ends each game ahead; the payoff test (--payoff0
and --payoff1, in the game's unit per game, e.g. chips) judges new's mean score
per game. Each game runs the test of what its standings rank by: payoff for
leduc, pentanomial for all-fives; --test chooses the other.

Pairs: every deal is played with the seats swapped. With 2 players, or 4 in
partnerships (new's team against base's team), the two games of a deal form
one pentanomial pair. With 3 players, new plays against two copies of base
(base and base.2), in each of the 3 seats of every deal (the copies being one
bot, the orders that only swap them would replay the same games); each game
gives new's result against each copy (by place), and those two results form
one pair. 4 players without partners are refused.

Exit status: 0 H1 accepted (new is better; with no-regression, not worse), 1 H0
accepted (or the arena failed), 2 usage error, 3 inconclusive (--max-games
reached), 4 a bot forfeited every game it was in or could not be started (the
test means nothing), 5 with --fail-on-fault: a bot faulted, 130 interrupted.

Examples:
  arena sprt --new new=./my-bot --base base=./my-bot-v1 --bounds quick      # is it clearly better?
  arena sprt --new new=./my-bot --base base=./my-bot-v1 --concurrency 2 --out sprt-results
  arena sprt --new greedy=target/release/greedy-bot --base random=target/release/random-bot --seed 1
  arena sprt --new new=./a --base base=./b --players 4 --elo0 -3 --elo1 3 --model logistic
  arena sprt --game leduc --new rules=\"target/release/leduc-bot --play rules\" --base random=target/release/leduc-bot
  arena sprt --game leduc --new new=./a --base base=./b --payoff0 0 --payoff1 0.5
  arena sprt --resume sprt-results                # continue a stopped test";

setting_flags! {
    /// The settings of a test that no other command shares, worded for it.
    struct SprtSettings {
        players: |arg: Arg| arg.help("Number of players (2, 3 or 4; 4 plays partnerships, new's team against base's)"),
        seed: |arg: Arg| arg.help("The seed of the deals (default: a random one, printed and kept)"),
        out: |arg: Arg| arg.help("Keep everything here: sprt-config.json, games.jsonl, standings.json, sprt.json, logs/"),
    }
}

/// What `--resume` cannot be given with: a resumed test keeps its own.
fn fixed() -> Vec<&'static str> {
    let settings = [GameArgs::KEYS, SprtSettings::KEYS, TimeFlags::KEYS, RunSettings::KEYS].concat();
    let test = ["new", "base", "test", "bounds", "elo0", "elo1", "model", "payoff0", "payoff1", "alpha", "beta"];
    let flags = test.into_iter().chain(["max_games", "variants", "limits"]);
    fixed_on_resume(&settings).into_iter().chain(flags).collect()
}

/// The flags of `arena sprt`.
#[derive(Debug, Args)]
pub struct SprtArgs {
    /// The new version of the bot: NAME=COMMAND, the command split like a shell splits words (no shell syntax; VAR=value words before the program set its environment).
    #[arg(long, value_name = "NAME=COMMAND", required_unless_present = "resume")]
    new: Option<String>,
    /// The base version it is tested against: NAME=COMMAND.
    #[arg(long, value_name = "NAME=COMMAND", required_unless_present = "resume")]
    base: Option<String>,
    #[command(flatten)]
    test: TestFlags,
    /// Stop without a verdict after this many games (rounded up to whole deals).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_games: u64,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    settings: SprtSettings,
    #[command(flatten)]
    play: PlayFlags,
    #[command(flatten)]
    faults: FaultFlags,
    /// Continue the stopped test in DIR (its configuration is in DIR/sprt-config.json).
    #[arg(long, value_name = "DIR", conflicts_with_all = fixed())]
    resume: Option<PathBuf>,
}

impl SprtArgs {
    /// The test these flags ask for.
    fn request(&self) -> SprtRequest {
        let mut overrides = Overrides { games: Some(self.max_games), ..self.play.overrides() };
        self.game.give(&mut overrides);
        self.settings.give(&mut overrides);
        SprtRequest {
            new: self.new.clone(),
            base: self.base.clone(),
            overrides,
            test: self.test,
            resume: self.resume.clone(),
            fail_on_fault: self.faults.fail_on_fault,
        }
    }
}

/// Runs `arena sprt`: the addresses of `--serve` and `--listen` bound, then the test.
pub fn run(args: SprtArgs) -> Result<i32, Failure> {
    args.play.serve.listen()?;
    args.play.remote.keep()?;
    sprt::run(args.request())
}
