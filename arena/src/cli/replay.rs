//! `arena replay`: feeds a bot recorded games from one seat's point of view
//! and lists every decision where it now chooses differently (see
//! [`crate::session::replay`], which does it).

use super::Failure;
use super::flags::number;
use crate::session::recorded::RecordedEngine;
use crate::session::replay::{self, ReplayRequest};
use crate::settings::{MOVE_TIMEOUT, STARTUP_TIMEOUT};
use clap::Args;
use std::path::PathBuf;

/// Examples shown by `arena replay --help`.
pub const EXAMPLES: &str = "Examples:
  arena replay results/games.jsonl --game 12 --seat 1 --bot new=./my-bot-v2
  arena replay results --as mine --bot new=./my-bot-v2      # every game, wherever mine sat
  arena replay results --game 0 --seat 0 --bot py=\"python3 sample-bots/python/greedy.py\"
  arena replay results --as mine --bot new=./my-bot-v2 --jobs 4 --min-diff 5 --limit 20

Exit status: 0 when the bot chooses as recorded at every decision, 1 when it
chooses differently at any, 2 on a usage error or when the bot fails (crash,
timeout, protocol error) before a game's end.";

/// The flags of `arena replay`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("seats").required(true).args(["seat", "as_bot"])))]
pub struct ReplayArgs {
    /// The records file (games.jsonl), or an output directory holding one.
    #[arg(value_name = "GAMES")]
    file: PathBuf,
    /// The id of the game to replay (default: every game in the file).
    #[arg(long = "game", value_name = "ID")]
    id: Option<u64>,
    /// The seat the bot takes, from 0.
    #[arg(long)]
    seat: Option<usize>,
    /// The bot takes every seat that the bot of this name played in the record.
    #[arg(long = "as", value_name = "NAME")]
    as_bot: Option<String>,
    /// The bot: NAME=COMMAND, the command split like a shell splits words (no shell syntax; VAR=value words before the program set its environment).
    #[arg(long, value_name = "NAME=COMMAND")]
    bot: String,
    /// Time allowed for each move, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&MOVE_TIMEOUT), help = MOVE_TIMEOUT.help_as(
        "Time allowed for each move, in milliseconds (default {default}; for a game played under a clock, the \
         clock's base, and what the record shows was left on it when that is less)"
    ))]
    move_timeout: Option<u64>,
    /// Time allowed for the bot to answer hello after it starts, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&STARTUP_TIMEOUT), help = STARTUP_TIMEOUT.help())]
    startup_timeout: Option<u64>,
    #[command(flatten)]
    recorded: RecordedEngine,
    /// Games replayed at once (default: the cores available, as a league's `--concurrency`).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=4096))]
    jobs: Option<u64>,
    /// List only the differences where the recorded move or the bot's is of
    /// this kind (the kinds are the summary's: e.g. `raise`, `tile+points`).
    #[arg(long, value_name = "KIND")]
    only: Option<String>,
    /// List only the differences where what the two moves score at once
    /// differs by N points or more.
    #[arg(long, value_name = "N")]
    min_diff: Option<u64>,
    /// List at most N differences (the summary still counts every one).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

impl ReplayArgs {
    /// The replay these flags ask for.
    fn request(self) -> ReplayRequest {
        ReplayRequest {
            file: self.file,
            id: self.id,
            seat: self.seat,
            as_bot: self.as_bot,
            bot: self.bot,
            move_timeout: self.move_timeout,
            startup_timeout: self.startup_timeout,
            recorded: self.recorded,
            jobs: self.jobs,
            only: self.only,
            min_diff: self.min_diff,
            limit: self.limit,
        }
    }
}

/// Runs `arena replay`.
pub fn run(args: ReplayArgs) -> Result<i32, Failure> {
    replay::run(args.request())
}
