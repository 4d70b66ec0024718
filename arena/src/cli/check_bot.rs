//! `arena check-bot`: the conformance test of one bot (see
//! [`crate::session::check_bot`], which runs it).
//!
//! Exit status: 0 when every check passed, 1 when a check failed, 2 for a
//! usage error (e.g. the command cannot be run), 130 when interrupted.

use super::Failure;
use super::flags::{LimitFlags, TimeFlags};
use super::game::GameArgs;
use crate::bot::sandbox::Sandbox;
use crate::session::check_bot::{self, CheckBotRequest};
use crate::settings::VariantSetting;
use clap::Args;

/// Examples shown by `arena check-bot --help`.
pub const EXAMPLES: &str = "Examples:
  arena check-bot target/release/greedy-bot
  arena check-bot \"python3 sample-bots/python/greedy.py\"
  arena check-bot mine=\"node my-bot.js --depth 2\" --move-timeout 200

Exit status: 0 when every check passed, 1 when a check failed, 2 for a usage error, 130 when interrupted.";

/// The flags of `arena check-bot`.
#[derive(Debug, Args)]
pub struct CheckBotArgs {
    /// The bot: COMMAND or NAME=COMMAND, the command split like a shell splits words (no shell syntax; VAR=value words before the program set its environment).
    #[arg(value_name = "COMMAND")]
    bot: String,
    #[command(flatten)]
    game: GameArgs,
    /// A variant setting of an --engine program's game, KEY=VALUE (repeatable; a built-in game is checked at the tables it names).
    #[arg(long = "variant", value_name = "KEY=VALUE", requires = "engine")]
    variants: Vec<VariantSetting>,
    #[command(flatten)]
    time: TimeFlags,
    /// The seed of the games played (default: a fresh random one, printed, as in a match).
    #[arg(long)]
    seed: Option<u64>,
    /// Checks run at once (default: the number of cores, at least 2).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: Option<u64>,
    #[command(flatten)]
    limit: LimitFlags,
    /// Run the bot in a sandbox, as `arena match` does.
    #[arg(long, help = crate::league::config::row::sandbox.help())]
    sandbox: Option<Sandbox>,
}

/// Runs `arena check-bot`.
pub fn run(args: CheckBotArgs) -> Result<i32, Failure> {
    check_bot::run(CheckBotRequest {
        game: args.game.game().to_string(),
        program: args.game.program()?,
        bot: args.bot,
        variants: args.variants,
        timed: args.time.limits(),
        seed: args.seed,
        jobs: args.jobs,
        limits: args.limit.limits,
        sandbox: args.sandbox,
    })
}
