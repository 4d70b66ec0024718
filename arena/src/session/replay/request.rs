//! What `arena replay` asks of a replay, and the replay run from it.

use super::order::{every_record, in_order};
use super::record::{Context, replay_record};
use super::tally::{Totals, ViewCommand, list, summarize};
use crate::bot::cpus::cores;
use crate::bot::orphans;
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::session::current_dir;
use crate::session::exit::{Failure, internal, unwritten};
use crate::session::recorded::RecordedEngine;
use crate::store::record_file;
use crate::terminal::console::outln;
use std::path::PathBuf;
use tokio::runtime::Runtime;

/// What `arena replay` asks of a replay.
#[derive(Debug)]
pub struct ReplayRequest {
    /// The records file, or an output directory holding one.
    pub file: PathBuf,
    /// `--game ID`: the one game to replay (default: every game in the file).
    pub id: Option<u64>,
    /// `--seat`: the seat the bot takes.
    pub seat: Option<usize>,
    /// `--as NAME`: the bot takes every seat the bot of this name played.
    pub as_bot: Option<String>,
    /// `--bot NAME=COMMAND`: the bot.
    pub bot: String,
    /// `--move-timeout`, in milliseconds.
    pub move_timeout: Option<u64>,
    /// `--startup-timeout`, in milliseconds.
    pub startup_timeout: Option<u64>,
    /// Which engine program may run for the games of an engine program.
    pub recorded: RecordedEngine,
    /// `--jobs`: games replayed at once.
    pub jobs: Option<u64>,
    /// `--only KIND`: list only the differences of this kind.
    pub only: Option<String>,
    /// `--min-diff N`: list only the differences whose moves score N apart or more.
    pub min_diff: Option<u64>,
    /// `--limit N`: list at most N differences.
    pub limit: Option<usize>,
}

/// Runs `arena replay`.
pub fn run(args: ReplayRequest) -> Result<i32, Failure> {
    let path = record_file::resolve(&args.file);
    let bot = BotSpec::parse(&args.bot, &current_dir()?)?;
    let records = match args.id {
        Some(id) => vec![record_file::find(&path, id)?],
        None => every_record(&path)?,
    };
    let jobs = (args.jobs.unwrap_or_else(cores) as usize).clamp(1, records.len().max(1));
    let runtimes = (0..jobs)
        .map(|_| tokio::runtime::Builder::new_current_thread().enable_all().build())
        .collect::<Result<Vec<Runtime>, _>>()
        .map_err(|e| internal(format!("cannot start the runtime: {e}")))?;
    let registry = Registry::new();
    orphans::adopt();
    let seats = match (args.seat, &args.as_bot) {
        (Some(seat), _) => format!("seat {seat}"),
        (None, name) => format!("the seats of {:?}", name.as_deref().unwrap_or_default()),
    };
    let games = args.id.map_or_else(|| format!("{} games", records.len()), |id| format!("game {id}"));
    outln!("replaying {games} of {} to {} in {seats}", path.display(), bot.name).map_err(unwritten)?;
    let mut totals = Totals::default();
    let view = ViewCommand::new(&path);
    let outcome = in_order(
        &records,
        runtimes,
        |runtime, engines, text| {
            let context = Context { args: &args, bot: &bot, path: &path, runtime, registry: &registry, engines };
            replay_record(context, text)
        },
        |game| list(&args, &bot.name, &view, &mut totals, &game),
    );
    orphans::sweep(&registry);
    outcome?;
    summarize(&bot.name, &args, &totals)
}
