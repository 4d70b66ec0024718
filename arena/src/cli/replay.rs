//! `arena replay`: feeds a bot recorded games from one seat's point of view
//! and lists every decision where it now chooses differently.

use super::game::engine_failure;
use super::record_file::{self, Header};
use super::{Failure, current_dir, internal, unwritten, usage};
use crate::bot::orphans;
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::console::{errln, outln};
use crate::engine::link::Link;
use crate::engine::spec::{ENGINE_TIMEOUT, Engine, Identity, Program};
use crate::games::{GameCommand, dispatch};
use crate::record::{JsonRecord, RecordOf};
use crate::replay::replay;
use crate::table::{Limits, Resolved, Table, move_limit};
use crate::untrusted;
use crate::verify;
use clap::Args;
use game::Game;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::runtime::Runtime;

/// Examples shown by `arena replay --help`.
pub const EXAMPLES: &str = "Examples:
  arena replay results/games.jsonl --game 12 --seat 1 --bot new=./my-bot-v2
  arena replay results --as mine --bot new=./my-bot-v2      # every game, wherever mine sat
  arena replay results --game 0 --seat 0 --bot py=\"python3 sample-bots/python/greedy.py\"

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
    /// Time allowed for each move, in milliseconds (default 1000; for a game
    /// played under a clock, the clock's base, and what the record shows
    /// was left on it when that is less).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    move_timeout: Option<u64>,
    /// Time allowed for the bot to answer hello after it starts, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    startup_timeout: u64,
    /// The engine program to replay games of an engine program through
    /// (default: the command each record names, run from here).
    #[arg(long, value_name = "COMMAND")]
    engine: Option<String>,
}

/// The engine the games are replayed through: opened for the first game,
/// and kept while the games are of the same one.
#[derive(Default)]
struct Engines {
    open: Option<(String, Arc<Engine>, Box<dyn Link>)>,
}

impl Engines {
    /// The engine of a game of `game` (an engine program's, when `program`
    /// names it), and a link to it.
    fn of(
        &mut self,
        runtime: &Runtime,
        registry: &Registry,
        game: &str,
        program: Option<&Identity>,
        args: &ReplayArgs,
    ) -> Result<(Arc<Engine>, &mut Box<dyn Link>), Failure> {
        let key =
            program.map_or_else(|| game.to_string(), |p| args.engine.clone().unwrap_or_else(|| p.command.clone()));
        if self.open.as_ref().is_none_or(|(open, ..)| *open != key) {
            self.close(runtime);
            let engine = match program {
                None => Engine::built_in(game).map_err(usage)?,
                Some(_) => {
                    let program = Program {
                        command: key.clone(),
                        dir: current_dir()?,
                        timeout_ms: ENGINE_TIMEOUT.as_millis() as u64,
                    };
                    runtime.block_on(Engine::program(program, registry)).map_err(engine_failure)?
                }
            };
            if engine.name() != game {
                return Err(usage(format!("a record of {game}, but the engine {key:?} plays {}", engine.name())));
            }
            let link = runtime.block_on(engine.connect(registry, None)).map_err(engine_failure)?;
            self.open = Some((key, Arc::new(engine), link));
        }
        let (_, engine, link) = self.open.as_mut().expect("just opened");
        Ok((Arc::clone(engine), link))
    }

    /// Says goodbye to the engine, if one is open.
    fn close(&mut self, runtime: &Runtime) {
        if let Some((_, _, link)) = self.open.take() {
            let _ = runtime.block_on(link.close());
        }
    }
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
    /// Thinking time in microseconds.
    time_us: u64,
}

/// Everything a replay of one record needs.
struct Context<'a> {
    args: &'a ReplayArgs,
    bot: &'a BotSpec,
    path: &'a Path,
    runtime: &'a Runtime,
    registry: &'a Registry,
    totals: &'a mut Totals,
    engines: &'a mut Engines,
}

/// Runs `arena replay`.
pub fn run(args: ReplayArgs) -> Result<i32, Failure> {
    let path = record_file::resolve(&args.file);
    let bot = BotSpec::parse(&args.bot, &current_dir()?).map_err(usage)?;
    let records = match args.id {
        Some(id) => vec![record_file::find(&path, id)?],
        None => every_record(&path)?,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
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
    let mut engines = Engines::default();
    let mut outcome = Ok(());
    for text in &records {
        let header: Header = match serde_json::from_str(text) {
            Ok(header) => header,
            Err(e) => return Err(usage(format!("{}: a line is not a game record: {e}", path.display()))),
        };
        let context = Context {
            args: &args,
            bot: &bot,
            path: &path,
            runtime: &runtime,
            registry: &registry,
            totals: &mut totals,
            engines: &mut engines,
        };
        outcome = replay_record(context, &header, text);
        if outcome.is_err() {
            break;
        }
    }
    engines.close(&runtime);
    orphans::sweep(&registry);
    outcome?;
    summarize(&bot.name, &args, &totals)
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

/// A record of a built-in game made ready for a replay through any engine:
/// its setup, when it was set up in advance, and the choice of each move
/// (which records of earlier versions do not hold) read off its events.
struct Annotate<'a>(&'a str);

impl GameCommand for Annotate<'_> {
    type Output = Result<(JsonRecord, Vec<Vec<usize>>), String>;
    fn run<G: Game>(self) -> Result<(JsonRecord, Vec<Vec<usize>>), String> {
        let typed: RecordOf<G> = serde_json::from_str(self.0).map_err(|e| format!("not a {} record: {e}", G::NAME))?;
        let mut record: JsonRecord = serde_json::from_str(self.0).map_err(|e| format!("not a record: {e}"))?;
        let mut game = verify::set_up::<G>(&typed)?;
        if typed.preset {
            let events: Vec<G::Event> = typed.events.iter().map(|timed| timed.event.clone()).collect();
            record.setup = Some(serde_json::to_value(G::recorded_setup(&events)).expect("setups serialize"));
        }
        while game.to_act().is_some() && game.event_count() < typed.events.len() {
            let at = game.event_count();
            let index = verify::recorded_move(&game, &typed, at)
                .map_err(|e| format!("event {at}: {e} (`arena verify` lists every disagreement)"))?;
            record.events[at].choice = Some(index);
            game.play(index).expect("a recorded move the game found is legal");
        }
        Ok((record, G::teams(&typed.variant)))
    }
}

/// Replays one record, given as its JSON text.
fn replay_record(context: Context<'_>, header: &Header, text: &str) -> Result<(), Failure> {
    let Context { args, bot, path, runtime, registry, totals, engines } = context;
    let cannot = |e: String| usage(format!("{}: a game cannot be replayed: {e}", path.display()));
    let (record, teams, program) = match &header.engine {
        Some(identity) => {
            let record: JsonRecord = serde_json::from_str(text).map_err(|e| cannot(format!("not a record: {e}")))?;
            (record, identity.teams.clone(), Some(identity))
        }
        None => {
            let (record, teams) = dispatch(&header.game, Annotate(text)).map_err(usage)?.map_err(cannot)?;
            (record, teams, None)
        }
    };
    let id = record.id;
    let seats: Vec<usize> = match (args.seat, &args.as_bot) {
        (Some(seat), _) if seat >= record.bots.len() => {
            return Err(usage(format!("--seat {seat}: game {id} has seats 0 to {}", record.bots.len() - 1)));
        }
        (Some(seat), _) => vec![seat],
        (None, Some(name)) => (0..record.bots.len()).filter(|&seat| record.bots[seat] == *name).collect(),
        (None, None) => unreachable!("clap requires --seat or --as"),
    };
    let limits = Limits {
        move_timeout: move_limit(args.move_timeout, record.clock),
        startup_timeout: Duration::from_millis(args.startup_timeout),
        ..Limits::default()
    };
    let (engine, link) = engines.of(runtime, registry, &header.game, program, args)?;
    let resolved = Resolved { variant: record.variant.clone(), teams };
    let table = Table::new(vec![bot.clone()], engine, resolved, 0, limits, None, registry.clone());
    let name = &bot.name;
    let mut differs = false;
    totals.games += usize::from(!seats.is_empty());
    for seat in seats {
        let replayed = runtime
            .block_on(replay(&table, link.as_mut(), &record, seat))
            .map_err(|e| usage(format!("game {id} of {} cannot be replayed: {e}", path.display())))?;
        if let Some(fault) = &replayed.fault {
            return Err(usage(format!(
                "game {id}, seat {seat}: {name} failed after {} decisions: {}: {}",
                replayed.decisions,
                fault.kind.name(),
                fault.message
            )));
        }
        for difference in &replayed.differences {
            outln!(
                "game {id}, seat {seat} ({}), event {}: recorded {}, {name} chose {}",
                untrusted::escape(&record.bots[seat]),
                difference.event,
                difference.recorded,
                difference.chosen
            )
            .map_err(unwritten)?;
        }
        differs |= !replayed.differences.is_empty();
        totals.decisions += replayed.decisions;
        totals.differences += replayed.differences.len();
        totals.time_us += replayed.time_us;
    }
    totals.differing_games += usize::from(differs);
    Ok(())
}

/// Prints the summary; the exit status.
fn summarize(name: &str, args: &ReplayArgs, totals: &Totals) -> Result<i32, Failure> {
    if totals.games == 0 {
        let who = args.as_bot.as_deref().unwrap_or_default();
        return Err(usage(format!("no game of the file has a seat played by {who:?}")));
    }
    let time = totals.time_us as f64 / 1000.0;
    let games = match totals.games {
        1 => String::new(),
        n => format!(" in {} of {n} games", totals.differing_games),
    };
    if totals.differences == 0 {
        outln!("{name} chose as recorded at all {} decisions; {time:.1} ms of thinking", totals.decisions)
            .map_err(unwritten)?;
        return Ok(0);
    }
    let share = 100.0 * totals.differences as f64 / totals.decisions.max(1) as f64;
    outln!(
        "{name} chose differently at {} of {} decisions ({share:.1}%){games}; {time:.1} ms of thinking",
        totals.differences,
        totals.decisions
    )
    .map_err(unwritten)?;
    Ok(1)
}
