//! `arena replay`: feeds a bot recorded games from one seat's point of view
//! and lists every decision where it now chooses differently, each with the
//! command that opens its position in `arena view`, then sums them up: by
//! the kind of the recorded move and by what the chosen move scores at once
//! against the recorded one. The games are replayed several at a time
//! (`--jobs`), and listed in the file's order whatever the number; each
//! replay at once keeps the bot's processes from game to game (see [`Kept`]).

use super::flags::number;
use super::{Failure, current_dir, exit, internal, program, unwritten, usage};
use crate::bot::cpus::cores;
use crate::bot::orphans;
use crate::bot::placement::Placement;
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::check::replay::{Difference, Kept, Replayed, kind, replay};
use crate::check::verify;
use crate::engine::link::Link;
use crate::engine::recorded::Misread;
use crate::engine::spec::{Engine, Identity};
use crate::run::table::{Limits, Resolved, Table};
use crate::session::recorded::RecordedEngine;
use crate::settings::{ENGINE_TIMEOUT, MOVE_TIMEOUT, STARTUP_TIMEOUT};
use crate::store::record::JsonRecord;
use crate::store::record_file::{self, Header};
use crate::terminal::console::{errln, outln};
use crate::terminal::untrusted;
use clap::Args;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use tokio::runtime::Runtime;

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

/// An engine open for replays.
struct Open {
    /// What it was opened for: the game, or the command of an engine program and its directory.
    key: String,
    engine: Arc<Engine>,
    /// The link games are replayed on.
    link: Box<dyn Link>,
    /// The link the bot's other choices are scored on.
    probe: Box<dyn Link>,
}

/// The engine the games are replayed through: opened for the first game,
/// and kept while the games are of the same one; and the bot's processes,
/// kept from game to game.
#[derive(Default)]
struct Engines {
    open: Option<Open>,
    kept: Kept,
}

impl Engines {
    /// The engine of a game of `game` (an engine program's, when `identity`
    /// names it; `what` names the game for messages), with its links.
    fn of(
        &mut self,
        runtime: &Runtime,
        registry: &Registry,
        (what, game): (&str, &str),
        identity: Option<&Identity>,
        args: &ReplayArgs,
    ) -> Result<&mut Open, Failure> {
        let program =
            identity.map(|identity| args.recorded.program(what, identity, ENGINE_TIMEOUT.default)).transpose()?;
        let key = program
            .as_ref()
            .map_or_else(|| game.to_string(), |program| format!("{} in {}", program.command, program.dir.display()));
        if self.open.as_ref().is_none_or(|open| open.key != key) {
            self.close(runtime);
            let engine = match program {
                None => Engine::built_in(game)?,
                Some(program) => runtime
                    .block_on(Engine::program(program.clone(), registry, None))
                    .map_err(|e| args.recorded.failed(e, &program))?,
            };
            if engine.name() != game {
                let command = engine.program_of().map_or("", |program| program.command.as_str());
                return Err(usage(format!("a record of {game}, but the engine {command:?} plays {}", engine.name())));
            }
            let link = runtime.block_on(engine.connect(registry, Placement::default()))?;
            let probe = runtime.block_on(engine.connect(registry, Placement::default()))?;
            self.open = Some(Open { key, engine: Arc::new(engine), link, probe });
        }
        Ok(self.open.as_mut().expect("just opened"))
    }

    /// Says goodbye to the bot's processes and to the engine, if one is open.
    fn close(&mut self, runtime: &Runtime) {
        runtime.block_on(self.kept.close(Limits::default().exit_grace));
        if let Some(Open { link, probe, .. }) = self.open.take() {
            let _ = runtime.block_on(link.close());
            let _ = runtime.block_on(probe.close());
        }
    }
}

/// The decisions of one kind of recorded move.
#[derive(Debug, Default)]
struct Kind {
    /// Decisions of this kind.
    decisions: usize,
    /// Those where the bot chose differently, by the kind of its choice.
    instead: BTreeMap<String, usize>,
}

/// What the replays found so far.
#[derive(Debug, Default)]
struct Totals {
    /// Games replayed (in one seat or more).
    games: usize,
    /// Games with at least one different choice.
    differing_games: usize,
    /// Decisions asked.
    decisions: usize,
    /// Decisions that differ from the record.
    differences: usize,
    /// Differences the filters let through.
    matching: usize,
    /// Differences listed.
    listed: usize,
    /// Thinking time in microseconds.
    time_us: u64,
    /// The decisions by the kind of the recorded move.
    kinds: BTreeMap<String, Kind>,
    /// The differences by what the chosen move scores at once less what the recorded one scores.
    gains: BTreeMap<i64, usize>,
}

/// One game replayed: its id, who sat where, and what each seat the bot
/// took found.
struct GameReplay {
    id: u64,
    bots: Vec<String>,
    seats: Vec<(usize, Replayed)>,
}

/// Everything a replay of one record needs.
struct Context<'a> {
    args: &'a ReplayArgs,
    bot: &'a BotSpec,
    path: &'a Path,
    runtime: &'a Runtime,
    registry: &'a Registry,
    engines: &'a mut Engines,
}

/// Runs `arena replay`.
pub fn run(args: ReplayArgs) -> Result<i32, Failure> {
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

/// Replays every record with `replay`, as many at once as there are
/// `runtimes` (a thread for each, with engines of its own), and hands each
/// game to `take` in the records' order. Stops at the first failure in that
/// order (of `replay` or `take`), and returns it.
fn in_order(
    records: &[String],
    runtimes: Vec<Runtime>,
    replay: impl Fn(&Runtime, &mut Engines, &str) -> Result<GameReplay, Failure> + Sync,
    mut take: impl FnMut(GameReplay) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (send, receive) = mpsc::channel();
        for runtime in runtimes {
            let (send, next, stop, replay) = (send.clone(), &next, &stop, &replay);
            scope.spawn(move || {
                let mut engines = Engines::default();
                while !stop.load(Ordering::Relaxed) {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(text) = records.get(at) else { break };
                    if send.send((at, replay(&runtime, &mut engines, text))).is_err() {
                        break;
                    }
                }
                engines.close(&runtime);
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut wanted = 0;
        for (at, replayed) in receive {
            waiting.insert(at, replayed);
            while let Some(replayed) = waiting.remove(&wanted) {
                wanted += 1;
                if let Err(failure) = replayed.and_then(&mut take) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(failure);
                }
            }
        }
        Ok(())
    })
}

/// The text of every record in the file (a last line cut short is skipped).
fn every_record(path: &Path) -> Result<Vec<String>, Failure> {
    let mut records = Vec::new();
    let mut lines = record_file::lines(path)?.peekable();
    while let Some(line) = lines.next() {
        let line = line?;
        match &line.header {
            Ok(_) => records.push(line.text),
            Err(e) if lines.peek().is_some() => {
                return Err(usage(format!("{}:{}: {e}", path.display(), line.number)));
            }
            Err(_) => errln!("warning: {}: ignoring a last line that is cut short", path.display()),
        }
    }
    Ok(records)
}

/// Replays one record, given as its JSON text, in each seat the bot takes.
fn replay_record(context: Context<'_>, text: &str) -> Result<GameReplay, Failure> {
    let Context { args, bot, path, runtime, registry, engines } = context;
    let header: Header = serde_json::from_str(text)
        .map_err(|e| usage(format!("{}: a line is not a game record: {e}", path.display())))?;
    let cannot = |e: String| usage(format!("{}: a game cannot be replayed: {e}", path.display()));
    let mut record: JsonRecord = serde_json::from_str(text).map_err(|e| cannot(format!("not a record: {e}")))?;
    let what = format!("{}: game {}", path.display(), header.id);
    engines.of(runtime, registry, (&what, &header.game), header.engine.as_ref(), args)?;
    let Engines { open, kept } = engines;
    let Open { engine, link, probe, .. } = open.as_mut().expect("just opened");
    let teams = verify::prepare(engine, &mut record).map_err(|Misread { event, error }| {
        let at = event.map_or_else(String::new, |at| format!("event {at}: "));
        cannot(format!("{at}{error} (`arena verify` lists every disagreement)"))
    })?;
    let id = record.id;
    let seats: Vec<usize> = match (args.seat, &args.as_bot) {
        (Some(seat), _) if seat >= record.bots.len() => {
            return Err(usage(format!("--seat {seat}: game {id} has seats 0 to {}", record.bots.len() - 1)));
        }
        (Some(seat), _) => vec![seat],
        (None, Some(name)) => (0..record.bots.len()).filter(|&seat| record.bots[seat] == *name).collect(),
        (None, None) => unreachable!("clap requires --seat or --as"),
    };
    // Under time odds the seats the bot takes (all of one bot's) share their clock.
    let clock = seats.first().map_or(record.clock, |&seat| record.clock_of(seat));
    let limits = Limits::timed(args.move_timeout, clock, args.startup_timeout);
    let resolved = Resolved { variant: record.variant.clone(), teams };
    let table = Table::new(vec![bot.clone()], Arc::clone(engine), resolved, 0, limits, None, registry.clone());
    let name = &bot.name;
    let mut replays = Vec::new();
    for seat in seats {
        let replayed = runtime
            .block_on(replay(&table, link.as_mut(), probe.as_mut(), &record, seat, kept))
            .map_err(|e| usage(format!("game {id} of {} cannot be replayed: {e}", path.display())))?;
        if let Some(fault) = &replayed.fault {
            return Err(usage(format!(
                "game {id}, seat {seat}: {name} failed after {} decisions: {}: {}",
                replayed.decisions,
                fault.kind.name(),
                fault.message
            )));
        }
        replays.push((seat, replayed));
    }
    Ok(GameReplay { id, bots: record.bots, seats: replays })
}

/// How the command that opens a difference's position starts: this arena
/// program's `view` of the records file.
struct ViewCommand(String);

impl ViewCommand {
    fn new(path: &Path) -> ViewCommand {
        ViewCommand(format!("{} view {}", program(), shell_words::quote(&path.display().to_string())))
    }

    /// The command that writes the page of game `id` opening at
    /// `difference`'s decision, marked with what seat `seat` recorded there
    /// and what the bot `name` chose.
    fn at(&self, id: u64, seat: usize, name: &str, difference: &Difference) -> String {
        let step = difference.event;
        let mark = format!("seat {seat}: recorded {}, {name} chose {}", difference.recorded, difference.chosen);
        let mark = shell_words::quote(&untrusted::escape(&mark)).into_owned();
        format!("{} --game {id} --step {step} --mark {mark} -o game-{id}-{step}.html", self.0)
    }
}

/// Whether the filters of `args` list `difference`.
fn wanted(args: &ReplayArgs, difference: &Difference) -> bool {
    let of_kind = |only: &String| kind(&difference.recorded) == *only || kind(&difference.chosen) == *only;
    let apart = difference.chosen_gain.abs_diff(difference.recorded_gain);
    args.only.as_ref().is_none_or(of_kind) && args.min_diff.is_none_or(|least| apart >= least)
}

/// A score gain, signed: `+10`, `0`, `-5`.
fn signed(gain: i64) -> String {
    if gain > 0 { format!("+{gain}") } else { gain.to_string() }
}

/// Lists the differences of `game` the filters let through (up to the
/// limit, each with the command that opens its position), and counts them all.
fn list(
    args: &ReplayArgs,
    name: &str,
    view: &ViewCommand,
    totals: &mut Totals,
    game: &GameReplay,
) -> Result<(), Failure> {
    let id = game.id;
    totals.games += usize::from(!game.seats.is_empty());
    totals.differing_games += usize::from(game.seats.iter().any(|(_, replayed)| !replayed.differences.is_empty()));
    for (seat, replayed) in &game.seats {
        for (of, decisions) in &replayed.kinds {
            totals.kinds.entry(of.clone()).or_default().decisions += decisions;
        }
        for difference in &replayed.differences {
            let of = totals.kinds.entry(kind(&difference.recorded)).or_default();
            *of.instead.entry(kind(&difference.chosen)).or_default() += 1;
            *totals.gains.entry(difference.chosen_gain - difference.recorded_gain).or_default() += 1;
            if !wanted(args, difference) {
                continue;
            }
            totals.matching += 1;
            if args.limit.is_some_and(|limit| totals.listed >= limit) {
                continue;
            }
            totals.listed += 1;
            outln!(
                "game {id}, seat {seat} ({}), event {}: recorded {} (scores {}), {name} chose {} (scores {})\n  {}",
                untrusted::escape(&game.bots[*seat]),
                difference.event,
                difference.recorded,
                signed(difference.recorded_gain),
                difference.chosen,
                signed(difference.chosen_gain),
                view.at(id, *seat, name, difference)
            )
            .map_err(unwritten)?;
        }
        totals.decisions += replayed.decisions;
        totals.differences += replayed.differences.len();
        totals.time_us += replayed.time_us;
    }
    Ok(())
}

/// A share of a whole, in per cent with one decimal.
fn percent(part: usize, whole: usize) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

/// Prints the summary; the exit status. The bot's thinking time, which
/// differs from run to run, goes to stderr, so that stdout is the same for
/// any `--jobs`.
fn summarize(name: &str, args: &ReplayArgs, totals: &Totals) -> Result<i32, Failure> {
    if totals.games == 0 {
        let who = args.as_bot.as_deref().unwrap_or_default();
        return Err(usage(format!("no game of the file has a seat played by {who:?}")));
    }
    let games = match totals.games {
        1 => String::new(),
        n => format!(" in {} of {n} games", totals.differing_games),
    };
    if totals.differences == 0 {
        outln!("{name} chose as recorded at all {} decisions", totals.decisions).map_err(unwritten)?;
    } else {
        outln!(
            "{name} chose differently at {} of {} decisions ({}){games}",
            totals.differences,
            totals.decisions,
            percent(totals.differences, totals.decisions)
        )
        .map_err(unwritten)?;
    }
    outln!("by kind of the recorded move:").map_err(unwritten)?;
    let width = totals.kinds.keys().map(|of| untrusted::escape(of).chars().count()).max().unwrap_or(0);
    let digits = totals.kinds.values().map(|counts| counts.decisions.to_string().len()).max().unwrap_or(0);
    for (of, counts) in &totals.kinds {
        let differ: usize = counts.instead.values().sum();
        let mut line = format!(
            "  {:<width$}  {:>digits$} decisions, {differ} differ ({})",
            untrusted::escape(of),
            counts.decisions,
            percent(differ, counts.decisions)
        );
        if differ > 0 {
            let instead: Vec<String> =
                counts.instead.iter().map(|(to, n)| format!("{} {n}", untrusted::escape(to))).collect();
            line.push_str(&format!("; chose instead: {}", instead.join(", ")));
        }
        outln!("{line}").map_err(unwritten)?;
    }
    if totals.differences > 0 {
        outln!("by what the chosen move scores at once, less what the recorded one scores:").map_err(unwritten)?;
        for (gain, n) in &totals.gains {
            outln!("  {:>6}  {n} ({})", signed(*gain), percent(*n, totals.differences)).map_err(unwritten)?;
        }
    }
    if totals.listed < totals.differences {
        let filters = [
            args.only.as_ref().map(|only| format!("--only {}", shell_words::quote(only))),
            args.min_diff.map(|least| format!("--min-diff {least}")),
            args.limit.map(|limit| format!("--limit {limit}")),
        ];
        let filters: Vec<String> = filters.into_iter().flatten().collect();
        outln!(
            "listed {} of the {} differences ({}: {} match)",
            totals.listed,
            totals.differences,
            filters.join(" "),
            totals.matching
        )
        .map_err(unwritten)?;
    }
    if let Some(only) = &args.only {
        let mut seen = std::collections::BTreeSet::new();
        for (of, counts) in &totals.kinds {
            seen.insert(of);
            seen.extend(counts.instead.keys());
        }
        if !seen.contains(only) {
            let seen: Vec<String> = seen.into_iter().map(|of| untrusted::escape(of).into_owned()).collect();
            errln!(
                "warning: --only {}: no move of that kind was met; the kinds are: {}",
                untrusted::escape(only),
                seen.join(", ")
            );
        }
    }
    errln!("{name} thought for {:.1} ms in all", totals.time_us as f64 / 1000.0);
    Ok(exit::answer(totals.differences == 0))
}
