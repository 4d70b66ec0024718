//! `arena replay`: feeds a bot a recorded game from one seat's point of view
//! and lists every decision where it now chooses differently.

use super::record_file::{self, Header};
use super::{Failure, current_dir, internal, usage};
use crate::bot::orphans;
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::game::Game;
use crate::games::{GameCommand, dispatch};
use crate::play::Record;
use crate::replay::{Replayed, replay};
use crate::table::{Limits, Table};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Examples shown by `arena replay --help`.
pub const EXAMPLES: &str = "Examples:
  arena replay results/games.jsonl --game 12 --seat 1 --bot new=./my-bot-v2
  arena replay results --game 0 --seat 0 --bot py=\"python3 sample-bots/python/greedy.py\"

Exit status: 0 when the bot chooses as recorded at every decision, 1 when it
chooses differently at any, 2 on a usage error or when the bot fails (crash,
timeout, protocol error) before the game's end.";

/// The flags of `arena replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The records file (games.jsonl), or an output directory holding one.
    #[arg(value_name = "GAMES")]
    file: PathBuf,
    /// The id of the game to replay.
    #[arg(long = "game", value_name = "ID")]
    id: u64,
    /// The seat the bot takes, from 0.
    #[arg(long)]
    seat: usize,
    /// The bot: NAME=COMMAND, the command split like a shell splits words.
    #[arg(long, value_name = "NAME=COMMAND")]
    bot: String,
    /// Time allowed for each move, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    move_timeout: u64,
    /// Time allowed for the bot to answer hello after it starts, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    startup_timeout: u64,
}

/// Runs `arena replay`.
pub fn run(args: ReplayArgs) -> Result<i32, Failure> {
    let path = record_file::resolve(&args.file);
    let text = record_file::find(&path, args.id)?;
    let header: Header = serde_json::from_str(&text)
        .map_err(|e| usage(format!("{}: game {} has no game name: {e}", path.display(), args.id)))?;
    let bot = BotSpec::parse(&args.bot, &current_dir()?).map_err(usage)?;
    dispatch(&header.game, Replay { args, bot, text, path }).map_err(usage)?
}

/// A replay of a record of game `G`, given as its JSON text.
struct Replay {
    args: ReplayArgs,
    bot: BotSpec,
    text: String,
    path: PathBuf,
}

impl GameCommand for Replay {
    type Output = Result<i32, Failure>;
    fn run<G: Game>(self) -> Result<i32, Failure> {
        let Replay { args, bot, text, path } = self;
        let record: Record<G> = serde_json::from_str(&text)
            .map_err(|e| usage(format!("{}: game {} is not a {} record: {e}", path.display(), args.id, G::NAME)))?;
        let seats = record.bots.len();
        if args.seat >= seats {
            return Err(usage(format!("--seat {}: game {} has seats 0 to {}", args.seat, args.id, seats - 1)));
        }
        let name = bot.name.clone();
        println!(
            "replaying game {} of {} to {name} in seat {} (played by {:?})",
            args.id,
            path.display(),
            args.seat,
            record.bots[args.seat]
        );
        let limits = Limits {
            move_timeout: Duration::from_millis(args.move_timeout),
            startup_timeout: Duration::from_millis(args.startup_timeout),
            ..Limits::default()
        };
        let registry = Registry::new();
        orphans::adopt();
        let table = Table::<G>::new(vec![bot], record.variant.clone(), 0, limits, None, registry.clone());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| internal(format!("cannot start the runtime: {e}")))?;
        let replayed = runtime.block_on(replay(&table, &record, args.seat));
        orphans::sweep(&registry);
        let replayed =
            replayed.map_err(|e| usage(format!("game {} of {} cannot be replayed: {e}", args.id, path.display())))?;
        report(&name, &replayed)
    }
}

/// Prints the differences and the summary; the exit status.
fn report(name: &str, replayed: &Replayed) -> Result<i32, Failure> {
    for difference in &replayed.differences {
        println!("event {}: recorded {}, {name} chose {}", difference.event, difference.recorded, difference.chosen);
    }
    if let Some(fault) = &replayed.fault {
        return Err(usage(format!(
            "{name} failed after {} decisions: {}: {}",
            replayed.decisions,
            fault.kind.name(),
            fault.message
        )));
    }
    let (differ, decisions) = (replayed.differences.len(), replayed.decisions);
    let time = replayed.time_us as f64 / 1000.0;
    if differ == 0 {
        println!("{name} chose as recorded at all {decisions} decisions ({time:.1} ms of thinking)");
        Ok(0)
    } else {
        println!("{name} chose differently at {differ} of {decisions} decisions ({time:.1} ms of thinking)");
        Ok(1)
    }
}
