//! `arena sprt`: a sequential probability ratio test of a new version of a
//! bot against its base, on duplicate deals, resumable from its output directory.

use super::flags::{FaultFlags, PlayFlags};
use super::game::GameArgs;
use super::{Failure, current_dir, exit, internal, random_seed, resumable, usage};
use crate::bot::cpus::cores;
use crate::bot::spec::BotSpec;
use crate::bot::start_failures::GiveUp;
use crate::league::config::{LeagueConfig, Overrides, SprtConfig};
use crate::league::{check_played, full_schedule};
use crate::run::execute::{Earlier, Run, RunError, Titles, execute_with};
use crate::run::play::Unplayable;
use crate::run::runner::{Flow, GamesError};
use crate::schedule::{Schedule, Seating, Selection};
use crate::session::live::{listen_run, serve_run};
use crate::stats::sprt::report::{Conclusion, Summary, parameters, status};
use crate::stats::sprt::{DealSequence, Model, PayoffSprt, Sprt, Test};
use crate::store::output::{self, OutDir, SPRT_CONFIG, SPRT_RESULT, read_config, write_atomically};
use crate::store::record::GameSummary;
use crate::terminal::console::{errln, outln};
use clap::Args;
use game::Scoring;

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

/// H0 of the payoff test: new wins this much per game from base (or less), in the game's unit.
const PAYOFF0: f64 = 0.0;
/// H1 of the payoff test: new wins this much per game (or more).
const PAYOFF1: f64 = 0.2;

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
    /// Number of players (2, 3 or 4; 4 plays partnerships, new's team against base's).
    #[arg(long)]
    players: Option<u64>,
    /// The seed of the deals (default: a random one, printed and kept).
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    play: PlayFlags,
    #[command(flatten)]
    faults: FaultFlags,
    /// Keep everything here: sprt-config.json, games.jsonl, standings.json, sprt.json, logs/.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Continue the stopped test in DIR (its configuration is in DIR/sprt-config.json).
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "new", "base", "test", "bounds", "elo0", "elo1", "model", "payoff0", "payoff1", "alpha", "beta", "max_games", "game", "engine", "engine_timeout", "players",
        "variants", "seed", "move_timeout", "clock", "startup_timeout", "limits", "sandbox", "out", "deals",
    ])]
    resume: Option<PathBuf>,
}

/// The flags that choose the test and its bounds.
#[derive(Debug, Clone, Copy, Args)]
struct TestFlags {
    /// The test: pentanomial (pairwise results, in Elo) or payoff (the mean score per game, in the game's unit); default payoff for a game that ranks bots by their mean score (leduc), else pentanomial.
    #[arg(long, value_enum)]
    test: Option<TestKind>,
    /// Named bounds of the pentanomial test, in nElo, instead of --elo0 and --elo1 (see docs/sprt.md).
    #[arg(long, value_enum, conflicts_with_all = ["elo0", "elo1", "model"])]
    bounds: Option<Bounds>,
    /// H0 of the pentanomial test: new is this much better than base (or less), in the model's Elo (default 0).
    #[arg(long, allow_negative_numbers = true)]
    elo0: Option<f64>,
    /// H1 of the pentanomial test: new is this much better than base (or more), in the model's Elo (default 5).
    #[arg(long, allow_negative_numbers = true)]
    elo1: Option<f64>,
    /// The Elo scale of --elo0 and --elo1: normalized (nElo, the default) or logistic.
    #[arg(long)]
    model: Option<Model>,
    /// H0 of the payoff test: new wins this much per game from base (or less), in the game's unit, e.g. chips (default 0).
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["bounds", "elo0", "elo1", "model"])]
    payoff0: Option<f64>,
    /// H1 of the payoff test: new wins this much per game (or more), in the game's unit (default 0.2).
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["bounds", "elo0", "elo1", "model"])]
    payoff1: Option<f64>,
    /// The probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
}

/// Which test `arena sprt` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum TestKind {
    /// Pairs of games by their pairwise results (which bot ends ahead), in Elo, as fishtest and fastchess.
    Pentanomial,
    /// Deals by the new bot's mean score (payoff) per game, in the game's unit.
    Payoff,
}

impl TestFlags {
    /// The test of a game named `game` scored as `scoring`.
    fn resolve(&self, game: &str, scoring: Scoring) -> Result<Test, Failure> {
        let by_mean = if scoring.rank_by_mean { TestKind::Payoff } else { TestKind::Pentanomial };
        let (alpha, beta) = (self.alpha, self.beta);
        match self.test.unwrap_or(by_mean) {
            TestKind::Pentanomial => {
                if self.payoff0.is_some() || self.payoff1.is_some() {
                    return Err(usage(
                        "--payoff0 and --payoff1 are the bounds of the payoff test; the pentanomial test \
                         takes --elo0 and --elo1 (or --bounds), or add --test payoff",
                    ));
                }
                let (elo0, elo1) = match self.bounds {
                    Some(bounds) => bounds.elo(),
                    None => {
                        let (default0, default1) = Bounds::Fine.elo();
                        (self.elo0.unwrap_or(default0), self.elo1.unwrap_or(default1))
                    }
                };
                let model = self.model.unwrap_or(Model::Normalized);
                Ok(Test::Pentanomial(Sprt::new(elo0, elo1, alpha, beta, model)?))
            }
            TestKind::Payoff => {
                if self.bounds.is_some() || self.elo0.is_some() || self.elo1.is_some() || self.model.is_some() {
                    let why = match self.test {
                        Some(_) => "the payoff test".to_string(),
                        None => format!(
                            "{game} ranks bots by {}/game, so arena sprt runs the payoff test, which",
                            scoring.unit
                        ),
                    };
                    return Err(usage(format!(
                        "--bounds, --elo0, --elo1 and --model are the pentanomial test's (pairwise results, in Elo); \
                         {why} takes --payoff0 and --payoff1 in {}/game (default {PAYOFF0} and {PAYOFF1}); \
                         for the pentanomial test add --test pentanomial",
                        scoring.unit
                    )));
                }
                let (payoff0, payoff1) = (self.payoff0.unwrap_or(PAYOFF0), self.payoff1.unwrap_or(PAYOFF1));
                Ok(Test::Payoff(PayoffSprt::new(payoff0, payoff1, alpha, beta)?))
            }
        }
    }
}

/// Named SPRT bounds (H0 and H1 in nElo), for the size of change being
/// tested, as fishtest and OpenBench name theirs. Games to a verdict grow as
/// the square of 1 / (elo1 − elo0): a wide interval answers fast but only
/// tells apart large differences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Bounds {
    /// nElo [0, 40]: a change meant to matter a lot (a new heuristic);
    /// decided in tens of games when it is much better, in hundreds when it
    /// is no better.
    Quick,
    /// nElo [0, 20]: a change worth a clear gain; a few times the games of quick.
    Normal,
    /// nElo [0, 5] (the default): tuning, small gains; tens of times the games of quick.
    Fine,
    /// nElo [-10, 0]: a change that must not make the bot worse (a clean-up,
    /// a speed-up); H1 says it is not worse.
    NoRegression,
}

impl Bounds {
    /// H0 and H1, in nElo.
    pub fn elo(self) -> (f64, f64) {
        match self {
            Bounds::Quick => (0.0, 40.0),
            Bounds::Normal => (0.0, 20.0),
            Bounds::Fine => (0.0, 5.0),
            Bounds::NoRegression => (-10.0, 0.0),
        }
    }
}

/// A test about to run: its games, and its test (stored, or to be chosen
/// from the flags once the game's scoring is known).
struct Prepared {
    games: LeagueConfig,
    test: Result<Test, TestFlags>,
    out: Option<OutDir>,
    played: Vec<GameSummary>,
    /// A new test, whose configuration is still to be written.
    fresh: bool,
}

/// Runs `arena sprt`.
pub fn run(args: SprtArgs) -> Result<i32, Failure> {
    args.play.serve.listen()?;
    args.play.remote.keep()?;
    let prepared = match &args.resume {
        Some(dir) => {
            let dir = current_dir()?.join(dir);
            let mut config: SprtConfig = read_config(&dir, SPRT_CONFIG, "an SPRT configuration")?;
            config.games.resume_in(&dir, args.play.concurrency, args.play.cpus_per_game)?;
            let (out, played) = output::resume(&dir)?;
            Prepared { games: config.games, test: Ok(config.test), out: Some(out), played, fresh: false }
        }
        None => Prepared { games: resolve(&args)?, test: Err(args.test), out: None, played: Vec::new(), fresh: true },
    };
    play(prepared, args.faults)
}

/// The games of a new test from the flags.
fn resolve(args: &SprtArgs) -> Result<LeagueConfig, Failure> {
    let (new, base) = (args.new.clone().unwrap_or_default(), args.base.clone().unwrap_or_default());
    let cwd = current_dir()?;
    let mut names = Vec::new();
    for (flag, text) in [("--new", &new), ("--base", &base)] {
        let (name, command) = text.split_once('=').ok_or_else(|| {
            usage(format!("{flag} {text:?}: expected NAME=COMMAND, e.g. {flag} {}=./my-bot", &flag[2..]))
        })?;
        names.push(
            BotSpec::new(name, command, &cwd, Default::default()).map_err(|e| usage(format!("{flag}: {e}")))?.name,
        );
    }
    if names[0] == names[1] {
        return Err(usage(format!("--new and --base are both named {:?}; give them different names", names[0])));
    }
    let flags = Overrides {
        bots: vec![new, base],
        game: args.game.game.clone(),
        engine: args.game.engine.clone(),
        engine_timeout: args.game.engine_timeout,
        format: Some("gauntlet".to_string()),
        players: args.players,
        games: Some(args.max_games),
        seed: args.seed,
        out: args.out.clone(),
        ..args.play.overrides()
    };
    Ok(LeagueConfig::resolve(&flags, &cwd, random_seed(), cores())?)
}

/// Seats copies of the base bot (`base.2`, `base.3`) so that the new bot
/// faces one base bot per other side.
fn add_copies(games: &mut LeagueConfig, sides: usize) -> Result<(), Failure> {
    let base = games.bots[1].clone();
    for copy in 2..sides {
        let name = format!("{}.{copy}", base.name);
        if games.bots.iter().any(|bot| bot.name == name) {
            return Err(usage(format!("the copies of the base bot are named {name:?}, like the new bot; rename one")));
        }
        games.bots.push(BotSpec { name, ..base.clone() });
    }
    Ok(())
}

/// Plays what is left of a test; `faults` say what its bots' faults make of
/// its exit status.
fn play(prepared: Prepared, faults: FaultFlags) -> Result<i32, Failure> {
    let Prepared { mut games, test, mut out, played, fresh } = prepared;
    let (engine, variant, setups) = games.open_engine()?;
    let scoring = engine.scoring();
    let test = test.or_else(|flags| flags.resolve(engine.name(), scoring.clone()))?;
    let mut config = SprtConfig { games, test };
    let teams = variant.teams.clone();
    let seats: usize = teams.iter().map(Vec::len).sum();
    if fresh {
        add_copies(&mut config.games, teams.len())?;
    }
    // The base bot's copies are the same bot: orders that differ only in
    // where they sit would be the same games, counted twice.
    let schedule =
        full_schedule(&config.games, &teams, Seating::Rotations).map_err(|e| usage(format!("--max-games: {e}")))?;
    let mut sequence = DealSequence::new(config.test, schedule.games_per_deal() as usize, teams.len() - 1)?;
    listen_run(&config.games.bots, config.games.sandbox)?;
    config.games.sandbox.check(&config.games.bots, &config.games.private())?;
    config.games.limits.check(config.games.sandbox.grouped())?;
    let at_once = config.games.concurrency.min(schedule.len()) as usize;
    crate::bot::pool::reserve_descriptors(at_once, seats, seats)?;
    if let (true, Some(dir)) = (fresh, &config.games.out) {
        // Everything is checked: only now is the output directory made.
        let created = OutDir::create(dir)?;
        config.games.variant = variant.variant.clone();
        let json = serde_json::to_string_pretty(&config).expect("configurations serialize");
        write_atomically(&dir.join(SPRT_CONFIG), json.as_bytes())
            .map_err(|e| internal(format!("cannot write {SPRT_CONFIG}: {e}")))?;
        out = Some(created);
    }
    let names: Vec<String> = config.games.bots.iter().map(|b| b.name.clone()).collect();
    let done = check_played(&schedule, &names, &played).map_err(|e| {
        let path = out.as_ref().map_or(PathBuf::new(), |o| o.path().join(crate::store::output::GAMES));
        usage(format!("{}: {e}", path.display()))
    })?;
    let count = |sequence: &mut DealSequence, game: &GameSummary| {
        let spec = schedule.get(game.id).expect("a game of the schedule");
        sequence.add_game(game, spec.deal, spec.arrangement, &names[0], &names[1..]);
    };
    for game in &played {
        count(&mut sequence, game);
    }
    let finished = sequence.verdict().is_some();
    let selection = Selection::new(&schedule, None, |id| finished || done.contains(&id));
    errln!(
        "{} SPRT of {} against {}, {} players: {}; at most {} games, {} already played — seed {}",
        engine.name(),
        names[0],
        names[1..].join(", "),
        seats,
        parameters(&config.test, &config.test.unit(&scoring.unit)),
        schedule.len(),
        played.len(),
        config.games.seed
    );
    if scoring.rank_by_mean && matches!(config.test, Test::Pentanomial(_)) {
        errln!(
            "note: {} ranks bots by {}/game, but this test judges pairwise results (which bot ends a game ahead), \
             not the size of what it wins: read it beside the {} per game in the standings",
            engine.name(),
            scoring.unit,
            scoring.unit
        );
    }
    serve_run(config.games.out.as_deref(), None, &engine)?;
    let run = Run {
        setups,
        bots: config.games.bots.clone(),
        engine,
        variant,
        seed: config.games.seed,
        limits: config.games.limits(),
        schedule: Schedule::clone(&schedule),
        selection,
        concurrency: config.games.concurrency as usize,
        played,
        out,
        reports: Vec::new(),
        give_up: GiveUp::StopRun,
        stops_early: true,
        quiet: false,
        earlier: Earlier::default(),
        titles: Titles::default(),
        secrets: config.games.secrets.clone(),
    };
    let report = execute_with(run, |progress, finished, _| {
        count(&mut sequence, &finished.summary);
        progress.finished_with(finished, || status(&sequence, &scoring.unit));
        if sequence.verdict().is_some() { Flow::Stop } else { Flow::Continue }
    })
    .map_err(|failure| {
        // A bot that keeps failing to start stops the test: its own doing, told apart from the arena's failure.
        let gave_up = matches!(
            &failure,
            RunError::Stopped { error: GamesError::Unplayable(Unplayable { gave_up: true, .. }), .. }
        );
        let failure = resumable(failure, "sprt", config.games.out.as_deref());
        match gave_up {
            true => Failure { status: exit::BOT_NEVER_PLAYED, ..failure },
            false => failure,
        }
    })?;
    let conclusion = sequence.conclusion(report.interrupted);
    let played = report.standings.games + report.unfinished;
    let summary = Summary::new(&names[0], &names[1], &sequence, &scoring.unit, played, conclusion);
    let _ = crate::terminal::console::out(format_args!("{}", summary.text()));
    let verdict = finish(&config.games.out, &summary)?;
    if report.interrupted {
        return Ok(verdict);
    }
    // A bot that never played, or faulted under --fail-on-fault, makes the verdict moot.
    let (status, why) = exit::of_faults(&report.standings, faults.fail_on_fault);
    match why {
        Some(why) => {
            errln!("{why}, whatever the verdict");
            Ok(status)
        }
        None => Ok(verdict),
    }
}

/// Writes `sprt.json`, says how to go on, and returns the exit status of `summary`.
fn finish(out: &Option<PathBuf>, summary: &Summary) -> Result<i32, Failure> {
    if let Some(dir) = out {
        let json = serde_json::to_string_pretty(summary).expect("summaries serialize") + "\n";
        write_atomically(&dir.join(SPRT_RESULT), json.as_bytes())
            .map_err(|e| internal(format!("cannot write {SPRT_RESULT}: {e}")))?;
        let _ = outln!("results: {}", dir.display());
    }
    Ok(match summary.conclusion {
        Conclusion::H1 => exit::SUCCESS,
        Conclusion::H0 => exit::FAILED,
        Conclusion::Inconclusive => exit::INCONCLUSIVE,
        Conclusion::Interrupted => {
            let _ = match out {
                Some(dir) => outln!("continue with: {} sprt --resume {}", super::program(), dir.display()),
                None => outln!("(no --out, so the test cannot be resumed)"),
            };
            exit::INTERRUPTED
        }
    })
}
