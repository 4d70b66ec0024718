//! `arena check-bot`: the conformance test of one bot (see [`crate::conformance`]).
//!
//! Exit status: 0 when every check passed, 1 when a check failed, 2 for a
//! usage error (e.g. the command cannot be run), 130 when interrupted.

use super::{Failure, current_dir, unwritten, usage};
use crate::bot::limits::ResourceLimits;
use crate::bot::registry::Registry;
use crate::bot::sandbox::Sandbox;
use crate::bot::spec::BotSpec;
use crate::conformance::{self, Settings};
use crate::console::outln;
use crate::game::Game;
use crate::games::{GameCommand, dispatch};
use crate::signals;
use crate::table::Limits;
use clap::Args;
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

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
    /// The game.
    #[arg(long, default_value = "all-fives")]
    game: String,
    /// Time allowed for each move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    move_timeout: u64,
    /// Time allowed for the bot to answer hello after it starts, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    startup_timeout: u64,
    /// The seed of the whole games played.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Checks run at once (default: the number of cores, at least 2).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
    jobs: Option<u64>,
    /// A resource limit of every bot process, NAME=VALUE, as `arena match` takes it (cpu, address-space, processes, file-size, open-files; `none` lifts it).
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    limits: Vec<String>,
    /// Run the bot in a sandbox, as `arena match` does: none (the default) or bwrap (bubblewrap).
    #[arg(long, default_value = "none")]
    sandbox: Sandbox,
}

/// Runs `arena check-bot`.
pub fn run(args: CheckBotArgs) -> Result<i32, Failure> {
    let game = args.game.clone();
    dispatch(&game, args).map_err(usage)?
}

/// The bot from `NAME=COMMAND`, or from a bare COMMAND (named `bot`): the
/// text before the first `=` is a name only if it looks like one, and if
/// the rest can be run; otherwise (as in `FOO=1 python3 bot.py`) the whole
/// text is the command, its `VAR=value` words the bot's environment.
fn parse_bot(text: &str) -> Result<BotSpec, Failure> {
    let cwd = current_dir()?;
    let named = text.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    });
    let bare = || BotSpec::new("bot", text, &cwd, BTreeMap::new());
    let bot = if named { BotSpec::parse(text, &cwd).or_else(|named| bare().map_err(|_| named)) } else { bare() };
    bot.map_err(usage)
}

fn check<G: Game>(args: CheckBotArgs) -> Result<i32, Failure> {
    let bot = parse_bot(&args.bot)?;
    let mut resources = ResourceLimits::default();
    for text in &args.limits {
        resources.set(text).map_err(usage)?;
    }
    args.sandbox.check(std::slice::from_ref(&bot), &[]).map_err(usage)?;
    let limits = Limits {
        move_timeout: Duration::from_millis(args.move_timeout),
        startup_timeout: Duration::from_millis(args.startup_timeout),
        resources,
        sandbox: args.sandbox,
        ..Limits::default()
    };
    limits.resources.check().map_err(usage)?;
    let jobs = args.jobs.unwrap_or_else(|| super::cores().max(2)) as usize;
    outln!("check-bot: {} ({:?}), {}", bot.name, bot.command, G::NAME).map_err(unwritten)?;
    outln!(
        "move timeout {} ms, start-up timeout {} ms, exit grace {} ms, seed {}",
        args.move_timeout,
        args.startup_timeout,
        limits.exit_grace.as_millis(),
        args.seed
    )
    .map_err(unwritten)?;
    outln!("limits {}, sandbox {}", limits.resources, limits.sandbox).map_err(unwritten)?;
    let registry = Registry::new();
    let interruption = signals::exit_on_interrupt(registry.clone());
    let outcomes = conformance::run::<G>(Settings { bot, limits, seed: args.seed, jobs }, registry);
    interruption.settle();
    let mut stdout = std::io::stdout().lock();
    conformance::report::write(&outcomes, &mut stdout).and_then(|()| stdout.flush()).map_err(unwritten)?;
    Ok(if outcomes.iter().any(conformance::Outcome::failed) { 1 } else { 0 })
}

impl GameCommand for CheckBotArgs {
    type Output = Result<i32, Failure>;
    fn run<G: Game>(self) -> Result<i32, Failure> {
        check::<G>(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_optional() {
        assert_eq!(parse_bot("sh -c 'exit 0'").unwrap().name, "bot");
        assert_eq!(parse_bot("me=sh -c 'exit 0'").unwrap().name, "me");
        let spec = parse_bot("sh -c 'a=b'").unwrap();
        assert_eq!((spec.name.as_str(), spec.argv.len()), ("bot", 3));
        assert_eq!(parse_bot("no-such-program-here").unwrap_err().status, 2);
        let spec = parse_bot("FOO=1 sh -c 'exit 0'").unwrap();
        assert_eq!((spec.name.as_str(), spec.env["FOO"].as_str(), spec.argv[0].as_str()), ("bot", "1", "sh"));
        let spec = parse_bot("me=FOO=1 sh -c 'exit 0'").unwrap();
        assert_eq!((spec.name.as_str(), spec.env["FOO"].as_str()), ("me", "1"));
        let err = parse_bot("me=no-such-program-here").unwrap_err().message;
        assert!(err.starts_with("--bot \"me=no-such-program-here\": bot \"me\": cannot run"), "{err}");
    }
}
