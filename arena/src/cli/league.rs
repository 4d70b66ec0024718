//! `arena league`: a league from a configuration file and flags, resumable
//! from its output directory.

use super::flags::{BotPlaceFlags, FaultFlags, OddsFlags, PlayFlags, number};
use super::game::GameArgs;
use super::{Failure, current_dir, exit, internal, random_seed, resumable, usage};
use crate::bot::cpus::cores;
use crate::bot::signals;
use crate::bot::spec::{BotSpec, binary_dir};
use crate::bot::start_failures::GiveUp;
use crate::league::config::{LeagueConfig, Overrides, SettingProblem, entering_bots};
use crate::league::learning::{self, Field, Next};
use crate::league::queued::{self, Request};
use crate::league::swiss;
use crate::league::{check_played, full_schedule, utc, withdrawn};
use crate::run::execute::{Earlier, ReportRequest, Run, Titles, execute_with, left_out};
use crate::run::runner::Flow;
use crate::schedule::lanes::Plan;
use crate::schedule::{Format, Schedule, Seating, Selection, Shard};
use crate::session::live::{listen_run, serve_run};
use crate::settings::LEAGUE_GAMES;
use crate::stats::ratings::{Pairwise, pairwise};
use crate::store::output::{self, LEAGUE, OutDir, read_config};
use crate::store::record::GameSummary;
use crate::terminal::console::{errln, outln};
use crate::terminal::untrusted::escape;
use clap::Args;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Examples shown by `arena league --help`.
pub const EXAMPLES: &str = "Examples:
  arena league                                    # the demo: a ladder of the sample bots
  arena league --config league.toml --out results
  arena league --bot a=./a --bot b=./b --bot c=./c --games 100 --concurrency 4 --out results
  arena league --format learning --games 2 --bot a=./a --bot b=./b --bot c=./c --out results
  arena league --resume results                   # continue a stopped league
  arena league --resume results --bot mine-2=./mine-2 --retire mine   # a new version in, the old one out
  arena league --config league.toml --shard 0/4 --out shard0   # one quarter of it
  arena league --config league.toml --out results --fail-on-fault   # in CI

Exit status: 0 the league was played (or a change queued for the arena that
runs it), 1 the arena failed, 2 usage error, 4 a bot forfeited every game it
was in (it never started, say), 5 with --fail-on-fault: a bot faulted, 130
interrupted.";

/// The flags of `arena league`.
#[derive(Debug, Args)]
pub struct LeagueArgs {
    /// Read the league from this TOML file (flags override it).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Continue the league in DIR (its configuration is in DIR/league.json),
    /// stopped or finished; with --bot and --retire, its field changes first.
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "config", "game", "engine", "engine_timeout", "format", "players", "games", "seed",
        "move_timeout", "clock", "startup_timeout", "variants", "out", "shard", "limits", "sandbox", "deals",
        "bot_clocks", "bot_move_timeouts",
    ])]
    resume: Option<PathBuf>,
    /// A bot: NAME=COMMAND (adds a bot, or replaces the command of one in the
    /// file; with --resume, a bot that enters the league).
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    bots: Vec<String>,
    /// With --resume: the bot NAME retires (its games stay; it plays no more).
    #[arg(long = "retire", value_name = "NAME", requires = "resume")]
    retire: Vec<String>,
    #[command(flatten)]
    place: BotPlaceFlags,
    #[command(flatten)]
    odds: OddsFlags,
    #[command(flatten)]
    game: GameArgs,
    /// round-robin (every group of bots), gauntlet (the first bot against
    /// the others), learning (pairs chosen round by round by what they
    /// would teach, until every adjacent pair's order is known at 95%) or
    /// swiss (rounds of pairs of like score that have not met).
    #[arg(long)]
    format: Option<String>,
    /// Number of players (2, 3 or 4).
    #[arg(long)]
    players: Option<u64>,
    /// Games per group of bots, rounded up to whole deals.
    #[arg(long, value_parser = number(&LEAGUE_GAMES), help = LEAGUE_GAMES.help())]
    games: Option<u64>,
    /// A learning league's budget: it plays at most this many games
    /// (default: those of the round robin of its field with the same
    /// --games); with --resume, a new budget for a league that spent its own.
    #[arg(long, value_name = "GAMES")]
    budget: Option<u64>,
    /// A swiss league's rounds (default: ⌈log₂ N⌉ for N bots); with
    /// --resume, more rounds for a league that played its own.
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u64).range(1..))]
    swiss_rounds: Option<u64>,
    /// The league seed (default: a random one, kept in league.json).
    #[arg(long)]
    seed: Option<u64>,
    #[command(flatten)]
    play: PlayFlags,
    #[command(flatten)]
    faults: FaultFlags,
    /// Keep everything here: league.json, games.jsonl, standings.json, logs/.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Play only shard K of N (0 <= K < N): the games whose id is K modulo N.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Also write the standings as json, csv or markdown: FORMAT or FORMAT=PATH
    /// (default: standings.<ext> in the output directory, or stdout without one).
    #[arg(long = "report", value_name = "FORMAT[=PATH]")]
    reports: Vec<ReportRequest>,
}

impl LeagueArgs {
    fn is_empty(&self) -> bool {
        self.config.is_none() && self.resume.is_none() && self.bots.is_empty()
    }

    fn overrides(&self) -> Overrides {
        Overrides {
            config: self.config.clone(),
            bots: self.bots.clone(),
            bot_dirs: self.place.bot_dirs.clone(),
            bot_envs: self.place.bot_envs.clone(),
            bot_clocks: self.odds.bot_clocks.clone(),
            bot_move_timeouts: self.odds.bot_move_timeouts.clone(),
            game: self.game.game.clone(),
            engine: self.game.engine.clone(),
            engine_timeout: self.game.engine_timeout,
            format: self.format.clone(),
            players: self.players,
            games: self.games,
            seed: self.seed,
            budget: self.budget,
            swiss_rounds: self.swiss_rounds,
            out: self.out.clone(),
            shard: self.shard,
            ..self.play.overrides()
        }
    }
}

/// A league about to run: its configuration, output and the games already played.
struct Prepared {
    config: LeagueConfig,
    out: Option<OutDir>,
    played: Vec<GameSummary>,
    /// A new league, whose configuration is still to be written.
    fresh: bool,
    /// The changes of the field already in the league's configuration when
    /// it was read: those after them are new, to be written.
    changes: usize,
    /// The queued changes taken in, removed once the configuration is written.
    taken: Vec<PathBuf>,
    /// A learning league that chose a round: its configuration is to be written again.
    chose: bool,
    /// Extra standings reports.
    reports: Vec<ReportRequest>,
    /// The rounds this command played before (of a learning league).
    earlier: Earlier,
}

/// Runs `arena league`.
pub fn run(args: LeagueArgs) -> Result<i32, Failure> {
    args.play.serve.listen()?;
    args.play.remote.keep()?;
    let cwd = current_dir()?;
    let mut prepared = if let Some(dir) = &args.resume {
        match resume(&cwd.join(dir), &args, &cwd, true)? {
            Some(prepared) => prepared,
            // The league runs in another arena, which takes the change in.
            None => return Ok(exit::SUCCESS),
        }
    } else {
        let config = if args.is_empty() {
            demo(&args, &cwd)?
        } else {
            LeagueConfig::resolve(&args.overrides(), &cwd, random_seed(), cores())?
        };
        Prepared {
            config,
            out: None,
            played: Vec::new(),
            fresh: true,
            changes: 0,
            taken: Vec::new(),
            chose: false,
            reports: Vec::new(),
            earlier: Earlier::default(),
        }
    };
    prepared.reports = args.reports.clone();
    if prepared.config.format.has_rounds() {
        return learn(prepared, &args, &cwd);
    }
    loop {
        let played = play(prepared, false, args.faults)?;
        match played.changing {
            None => return Ok(played.ended()),
            Some(dir) => prepared = taking_changes(&dir, &args, &cwd, played.reports, played.earlier)?,
        }
    }
}

/// The league in `dir` resumed to take in the changes queued while it ran,
/// with the reports still to write and what this command played before.
fn taking_changes(
    dir: &Path,
    args: &LeagueArgs,
    cwd: &Path,
    reports: Vec<ReportRequest>,
    earlier: Earlier,
) -> Result<Prepared, Failure> {
    let prepared = resume(dir, args, cwd, false)?.expect("a league resumed without a change of its own runs");
    Ok(Prepared { reports, earlier, ..prepared })
}

/// What a league's run ended with.
struct Played {
    /// The exit status.
    status: i32,
    /// Why the status is not [`exit::SUCCESS`], for a league played to its
    /// end: a bot never played, or faulted under `--fail-on-fault`.
    why: Option<String>,
    /// Whether it was stopped before its end.
    interrupted: bool,
    /// It stopped to take in the changes queued in its output directory, and goes on.
    changing: Option<PathBuf>,
    /// Its configuration.
    config: LeagueConfig,
    /// Every game played, those of earlier runs first: kept for a learning
    /// league only (the next round is chosen from them), empty otherwise.
    games: Vec<GameSummary>,
    /// Extra standings reports, not written yet.
    reports: Vec<ReportRequest>,
    /// What this command has played so far, this run included.
    earlier: Earlier,
}

impl Played {
    /// The exit status of the command that ends with this run, once the
    /// line saying why it is not 0 (if there is one) is printed, last.
    fn ended(self) -> i32 {
        if let Some(why) = &self.why {
            errln!("{why}");
        }
        self.status
    }
}

/// Runs a learning or Swiss league (see [`crate::league::learning`],
/// [`crate::league::swiss`]) round after round: each
/// round is chosen from the results of those before it, written to
/// `league.json` and played as a resumed league plays, until the chooser
/// stops; then the standings follow. A league resumed in the middle of a
/// round finishes it first; one whose field changed while it ran takes the
/// change in and goes on.
fn learn(mut prepared: Prepared, args: &LeagueArgs, cwd: &Path) -> Result<i32, Failure> {
    loop {
        let config = &prepared.config;
        let stop = match round_finished(config, &prepared.played)? {
            false => None,
            true => match next_round(config, &prepared.played)? {
                Next::Round(pairs) => {
                    prepared.config.rounds.push(pairs);
                    prepared.chose = true;
                    None
                }
                stop => Some(stop),
            },
        };
        let config = prepared.config.clone();
        let played = play(prepared, stop.is_none(), args.faults)?;
        if let Some(dir) = played.changing {
            prepared = taking_changes(&dir, args, cwd, played.reports, played.earlier)?;
            continue;
        }
        if let Some(stop) = stop {
            if !played.interrupted {
                let _ = outln!("{}", stop_note(&config, &stop, played.games.len() as u64));
            }
            return Ok(played.ended());
        }
        if played.interrupted || signals::stopped() {
            return Ok(played.status);
        }
        let (out, games) = match &played.config.out {
            Some(dir) => {
                let (out, games) = output::resume(dir)?;
                (Some(out), games)
            }
            None => (None, played.games),
        };
        prepared = Prepared {
            changes: played.config.history.len(),
            config: played.config,
            out,
            played: games,
            fresh: false,
            taken: Vec::new(),
            chose: false,
            reports: played.reports,
            earlier: played.earlier,
        };
    }
}

/// Whether the last round a learning league chose is played (every game of
/// its pairs but those of retired bots), or it has chosen none.
fn round_finished(config: &LeagueConfig, played: &[GameSummary]) -> Result<bool, Failure> {
    if config.rounds.is_empty() {
        return Ok(true);
    }
    // Which pair plays which game does not depend on who sits where within a side.
    let schedule =
        Schedule::rounds(config.seed, &[vec![0], vec![1]], &config.rounds, Seating::EveryOrder, config.games)?;
    let (_, ids) = schedule.stage(config.rounds.len() - 1).expect("a stage for every round");
    let retired = config.retired();
    let done: HashSet<u64> = played.iter().map(|game| game.id).filter(|id| ids.contains(id)).collect();
    Ok(ids.clone().all(|id| done.contains(&id) || withdrawn(&schedule, &retired, id)))
}

/// The next round of a learning or Swiss league, or why there is none (a
/// Swiss league whose rounds are played is [`Next::Spent`]).
fn next_round(config: &LeagueConfig, played: &[GameSummary]) -> Result<Next, Failure> {
    let field = learning_field(config, played)?;
    Ok(match config.format {
        Format::Swiss => match swiss::next_round(&field, swiss_rounds(config, field.active.len())) {
            Some(pairs) => Next::Round(pairs),
            None => Next::Spent,
        },
        _ => learning::next_round(&field),
    })
}

/// How many of a league's bots have not retired.
fn active_bots(config: &LeagueConfig) -> usize {
    config.retired().iter().filter(|&&retired| !retired).count()
}

/// The rounds a Swiss league of `bots` bots (not retired) plays.
fn swiss_rounds(config: &LeagueConfig, bots: usize) -> u64 {
    config.swiss_rounds.unwrap_or_else(|| swiss::default_rounds(bots))
}

/// What a learning or Swiss league knows before its next round: its field
/// (the bots not retired) and the results of every game played.
fn learning_field(config: &LeagueConfig, played: &[GameSummary]) -> Result<Field, Failure> {
    let stages = crate::league::stages(config)?;
    let active = stages.last().map(|stage| stage.active.clone()).unwrap_or_default();
    let names: Vec<String> = config.bots.iter().map(|bot| bot.name.clone()).collect();
    let mut results = Pairwise::new(names.len());
    for game in played {
        results.add_game(&pairwise::places(game, &names));
    }
    let per_pair = learning::games_per_pair(config.games);
    let n = active.len() as u64;
    let budget = match config.format {
        // A Swiss league is as long as its rounds.
        Format::Swiss => u64::MAX,
        _ => config.budget.unwrap_or(n * n.saturating_sub(1) / 2 * per_pair),
    };
    let round = config.rounds.len() as u64;
    Ok(Field {
        seed: config.seed,
        round,
        active,
        results,
        played: played.len() as u64,
        budget,
        games_per_pair: per_pair,
    })
}

/// Reads a league back from its output directory, takes in the changes
/// queued there, then (with `own`) changes its field as `--bot` and
/// `--retire` say. While another arena runs the league, that change is
/// checked and queued for it instead, and there is nothing to run (`None`).
fn resume(dir: &Path, args: &LeagueArgs, cwd: &Path, own: bool) -> Result<Option<Prepared>, Failure> {
    let load = || -> Result<LeagueConfig, Failure> {
        let mut config: LeagueConfig = read_config(dir, LEAGUE, "a league configuration")?;
        config.resume_in(dir, args.play.concurrency, args.play.cpus_per_game)?;
        Ok(config)
    };
    let mut config = load()?;
    let flags = [&args.bots, &args.place.bot_dirs, &args.place.bot_envs, &args.retire];
    let request = match own && flags.iter().any(|given| !given.is_empty()) {
        true => {
            Some(Request { at: now(), entering: entering_bots(&args.overrides(), cwd)?, retiring: args.retire.clone() })
        }
        false => None,
    };
    if let (Some(request), Some(pid)) = (&request, crate::store::output::holder(dir)) {
        queue_for_running(dir, config, request, pid)?;
        if crate::store::output::holder(dir).is_some() {
            return Ok(None);
        }
        errln!("that arena has ended meanwhile: this one takes the change in");
        return resume(dir, args, cwd, false);
    }
    let (out, played) = output::resume(dir)?;
    // Read again under the lock: an arena that ran the league until now may have changed it.
    config = load()?;
    let changes = config.history.len();
    // A new budget, or more Swiss rounds, for a league that has them.
    let format = config.format;
    let refused = |flag: &str, problem: SettingProblem| usage(format!("--{flag}: {problem}"));
    if let Some(budget) = args.budget {
        if format != Format::Learning {
            return Err(refused("budget", SettingProblem::BudgetNotLearning { format }));
        }
        config.budget = Some(budget);
    }
    if let Some(rounds) = args.swiss_rounds {
        if format != Format::Swiss {
            return Err(refused("swiss-rounds", SettingProblem::RoundsNotSwiss { format }));
        }
        config.swiss_rounds = Some(rounds);
    }
    let taken = take_queued(dir, &mut config)?;
    if let Some(request) = request {
        config.grow(request.entering, &request.retiring, request.at)?;
    }
    Ok(Some(Prepared {
        config,
        out: Some(out),
        played,
        fresh: false,
        changes,
        taken,
        chose: false,
        reports: Vec::new(),
        earlier: Earlier::default(),
    }))
}

/// Checks the change `request` of the league in `dir`, which the arena
/// process `pid` runs, against the league with the changes already queued,
/// and queues it for that arena.
fn queue_for_running(dir: &Path, mut config: LeagueConfig, request: &Request, pid: i32) -> Result<(), Failure> {
    let teams = teams_of(&config)?;
    for (_, queued) in queued::pending(dir) {
        if let Ok(queued) = queued {
            let _ = changed(&config, &queued, &teams).map(|grown| config = grown);
        }
    }
    let grown = changed(&config, request, &teams)?;
    if grown.history.len() == config.history.len() {
        return Ok(());
    }
    let now_ns = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_nanos());
    let path = queued::queue(dir, request, now_ns)?;
    errln!(
        "the league in {} is running (arena process {pid}): the change is queued as {}; that arena takes it in \
         once its games in flight have ended, and plays the new groups after the others",
        dir.display(),
        path.display()
    );
    Ok(())
}

/// Takes in the changes queued in `dir` that hold (each checked as
/// `--bot`/`--retire` would be); sets aside, with a warning, those that do
/// not. Returns the files of those taken in.
fn take_queued(dir: &Path, config: &mut LeagueConfig) -> Result<Vec<PathBuf>, Failure> {
    let queued = queued::pending(dir);
    if queued.is_empty() {
        return Ok(Vec::new());
    }
    let teams = teams_of(config)?;
    let mut taken = Vec::new();
    for (path, request) in queued {
        match request.map_err(Failure::from).and_then(|request| changed(config, &request, &teams)) {
            Ok(grown) => {
                *config = grown;
                taken.push(path);
            }
            Err(Failure { message: why, .. }) => {
                // The reason and the names may hold the change's own text: shown escaped.
                let shown = escape(&why);
                let show = |path: &Path| escape(&path.display().to_string()).into_owned();
                match queued::refuse(&path, &why) {
                    Ok(kept) => errln!(
                        "warning: a queued change of the league is refused: {shown}; it is set aside as {} (read it, \
                         then remove it)",
                        show(&kept)
                    ),
                    Err(error) => errln!(
                        "warning: a queued change of the league is refused: {shown}; it cannot be set aside as \
                         {}.refused ({error}), so this arena ignores it from now on: remove it",
                        show(&path.with_extension(""))
                    ),
                }
            }
        }
    }
    Ok(taken)
}

/// The league `config` changed by `request`, checked as the league's run
/// checks it: the names, the bots that enter meet someone, the sandbox can hold them.
fn changed(config: &LeagueConfig, request: &Request, teams: &[Vec<usize>]) -> Result<LeagueConfig, Failure> {
    let entering = request.entering.iter().map(BotSpec::revalidated).collect::<Result<Vec<_>, _>>()?;
    let mut grown = config.clone();
    grown.grow(entering, &request.retiring, request.at.clone())?;
    if grown.history.len() != config.history.len() {
        let schedule = full_schedule(&grown, teams, Seating::EveryOrder)?;
        entering_bots_play(&grown, &schedule, teams.len())?;
        grown.sandbox.check(&grown.bots, &grown.private())?;
    }
    Ok(grown)
}

/// The sides of the game of a league, as its engine resolves its variant.
fn teams_of(config: &LeagueConfig) -> Result<Vec<Vec<usize>>, Failure> {
    Ok(config.clone().open_engine()?.1.teams)
}

/// The time now, as [`utc`] writes it.
fn now() -> String {
    utc(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs()))
}

/// Writes the configuration of a league to its output directory.
fn write_league(out: &OutDir, config: &LeagueConfig) -> Result<(), Failure> {
    let json = serde_json::to_string_pretty(config).expect("configurations serialize");
    out.write_config(&json).map_err(|e| internal(format!("cannot write {LEAGUE}: {e}")))
}

/// The demo league: a ladder of the sample bots that can run here, from
/// random play through greedy ones (in Rust, and in Python and JavaScript when
/// a checkout and the interpreters are at hand) to `search-bot`, in a round
/// robin. Every other flag given applies to it as to any league.
fn demo(args: &LeagueArgs, cwd: &Path) -> Result<LeagueConfig, Failure> {
    let sample = |name| BotSpec::sample(name, cwd);
    let mut bots = vec![sample("random")?, sample("greedy")?];
    // The scripted samples, when a checkout is at hand (around the binary, in
    // the working directory, or where the arena was built) and the interpreters exist.
    let candidates = [binary_dir()?.join("../.."), cwd.to_path_buf(), Path::new(env!("CARGO_MANIFEST_DIR")).join("..")];
    let repo = candidates
        .into_iter()
        .find(|dir| dir.join("sample-bots/python/greedy.py").is_file())
        .unwrap_or_else(|| PathBuf::from("."));
    for (name, interpreter, script) in
        [("greedy-py", "python3", "sample-bots/python/greedy.py"), ("greedy-js", "node", "sample-bots/js/greedy.js")]
    {
        let script = repo.join(script);
        if script.is_file() {
            let command = format!("{interpreter} {}", shell_words::quote(&script.to_string_lossy()));
            if let Ok(bot) = BotSpec::new(name, &command, cwd, Default::default()) {
                bots.push(bot);
            }
        }
    }
    bots.push(sample("search")?);
    let names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
    errln!("no league given: a demo round robin of the sample bots {}", names.join(", "));
    let mut overrides = args.overrides();
    overrides.bots = bots.iter().map(|b| format!("{}={}", b.name, b.command)).collect();
    Ok(LeagueConfig::resolve(&overrides, cwd, random_seed(), cores())?)
}

/// How often a running league looks for queued changes of its field, at most.
const CHANGES_POLL: Duration = Duration::from_millis(500);

/// Plays what is left of a league; `quiet` for a round of a learning league
/// that is not its last (no standings, no closing lines, no exit status but 0
/// or 130); `faults` say what its bots' faults make of its exit status.
fn play(prepared: Prepared, quiet: bool, faults: FaultFlags) -> Result<Played, Failure> {
    let Prepared { mut config, mut out, played, fresh, changes, taken, chose, reports, earlier } = prepared;
    let grown = !fresh && config.history.len() != changes;
    // A learning or Swiss league: it chooses its rounds from the games played.
    let learning = config.format.has_rounds();
    let (engine, variant, setups) = config.open_engine()?;
    let teams = variant.teams.clone();
    let schedule = full_schedule(&config, &teams, Seating::EveryOrder)?;
    if grown {
        entering_bots_play(&config, &schedule, teams.len())?;
    }
    listen_run(&config.bots, config.sandbox)?;
    config.sandbox.check(&config.bots, &config.private())?;
    config.limits.check(config.sandbox.grouped())?;
    let at_once = config.concurrency.min(schedule.len()) as usize;
    let setups_count = setups.as_ref().map(|setups| setups.len() as u64);
    let plan = Plan::new(schedule.clone(), config.restart, at_once, setups_count, false);
    crate::bot::pool::reserve_descriptors(at_once, plan.lane_width(), teams.iter().map(Vec::len).sum())?;
    if let (true, Some(dir)) = (fresh, &config.out) {
        // Everything is checked: only now is the output directory made.
        let created = OutDir::create(dir)?;
        config.variant = variant.variant.clone();
        config.start(now());
        write_league(&created, &config)?;
        out = Some(created);
    }
    let names: Vec<String> = config.bots.iter().map(|b| b.name.clone()).collect();
    let done = check_played(&schedule, &names, &played).map_err(|e| {
        usage(format!(
            "{}: {e}",
            out.as_ref().map_or(String::new(), |o| o.path().join(crate::store::output::GAMES).display().to_string())
        ))
    })?;
    let retired = config.retired();
    let dropped = std::cell::Cell::new(0u64);
    let selection = Selection::new(&schedule, config.shard, |id| {
        let played = done.contains(&id);
        let dropping = !played && withdrawn(&schedule, &retired, id);
        dropped.set(dropped.get() + u64::from(dropping));
        played || dropping
    });
    let total = selection.count() + played.len() as u64;
    let already = played.len();
    drop(done);
    if let (true, Some(out)) = (grown, &out) {
        // Everything is checked: only now does the league change.
        write_league(out, &config)?;
        queued::remove(&taken);
        for change in changes..config.history.len() {
            let last = change + 1 == config.history.len();
            errln!("{}", change_note(&config, &schedule, change, last.then(|| dropped.get())));
        }
    }
    if let (true, false, Some(out)) = (chose, grown, &out) {
        write_league(out, &config)?;
    }
    let shard = config.shard.map_or(String::new(), |s| format!(", shard {s}"));
    let field = match retired.iter().filter(|&&r| r).count() {
        0 => format!("{} bots", names.len()),
        gone => format!("{} bots ({gone} retired)", names.len() - gone),
    };
    let round = match (learning, config.rounds.len()) {
        (true, rounds) if selection.count() > 0 => {
            let pairs = config.rounds.last().map_or(0, Vec::len);
            format!(", round {rounds} ({pairs} {})", if pairs == 1 { "pair" } else { "pairs" })
        }
        _ => String::new(),
    };
    errln!(
        "{} {} league of {field}{round}: {total} games{shard}, {already} already played — seed {}",
        engine.name(),
        config.format,
        config.seed
    );
    // (Not after the rounds this command played: a learning league that has just stopped.)
    if let (false, Some(dir), 0, 0) = (fresh, &config.out, selection.count(), earlier.games) {
        let what = if config.shard.is_some() { "shard" } else { "league" };
        errln!("this {what} is finished: all {total} games are in {}; its standings follow", dir.display());
    }
    let limits = config.limits();
    serve_run(config.out.as_deref(), Some(total), &engine)?;
    // Only a learning league needs the games back: others need not copy every summary.
    let mut games = if learning { played.clone() } else { Vec::new() };
    let run = Run {
        setups,
        bots: config.bots.clone(),
        engine,
        variant,
        seed: config.seed,
        limits,
        schedule,
        selection,
        concurrency: config.concurrency as usize,
        played,
        out,
        reports: if quiet { Vec::new() } else { reports.clone() },
        give_up: GiveUp::ForfeitRest,
        stops_early: false,
        secrets: config.secrets.clone(),
        quiet,
        earlier: earlier.clone(),
        titles: Titles {
            ended: grown.then(|| {
                "Standings after the league's field changed ({games} games counted, the earlier ones included):"
                    .to_string()
            }),
            stopped: config
                .out
                .is_some()
                .then(|| "Standings before the league's field changes ({games} games counted):".to_string()),
        },
    };
    // A change queued by another arena stops the run once the games in flight have ended.
    let mut looked: Option<Instant> = None;
    let watched = config.out.clone();
    let report = execute_with(run, |progress, finished, standings| {
        progress.finished(finished, standings);
        if learning {
            games.push(finished.summary.clone());
        }
        let (Some(dir), false) = (&watched, looked.is_some_and(|at| at.elapsed() < CHANGES_POLL)) else {
            return Flow::Continue;
        };
        looked = Some(Instant::now());
        match queued::any(dir) {
            true => Flow::Stop,
            false => Flow::Continue,
        }
    })
    .map_err(|failure| resumable(failure, "league", config.out.as_deref()))?;
    if let (false, Some(dir)) = (report.interrupted, &config.out)
        && queued::any(dir)
    {
        errln!("a change of the league's field was queued: the league takes it in and goes on");
        let changing = Some(dir.clone());
        let earlier = earlier.and(&report);
        let status = exit::SUCCESS;
        return Ok(Played { status, why: None, interrupted: false, changing, config, games, reports, earlier });
    }
    let earlier = earlier.and(&report);
    if quiet && !report.interrupted {
        let status = exit::SUCCESS;
        return Ok(Played { status, why: None, interrupted: false, changing: None, config, games, reports, earlier });
    }
    let (status, why) = match report.interrupted {
        true => (exit::INTERRUPTED, None),
        false => exit::of_faults(&report.standings, faults.fail_on_fault),
    };
    if let Some(note) = left_out(&report) {
        let _ = outln!("{note}; a resumed league counts them once their deals are played");
    }
    if let Some(note) = retired_note(&config) {
        let _ = outln!("{note}");
    }
    match &config.out {
        Some(dir) if report.interrupted => {
            let _ = outln!(
                "interrupted after {} games; continue with: {} league --resume {}",
                earlier.games,
                super::program(),
                dir.display()
            );
        }
        None if report.interrupted => {
            let _ = outln!("interrupted after {} games (no --out, so the league cannot be resumed)", earlier.games);
        }
        Some(dir) => {
            let _ = outln!("results: {}", dir.display());
        }
        None => {}
    }
    let interrupted = report.interrupted;
    Ok(Played { status, why, interrupted, changing: None, config, games, reports, earlier })
}

/// Why a learning league stopped, after `games` games.
fn stop_note(config: &LeagueConfig, stop: &Next, games: u64) -> String {
    let rounds = config.rounds.len();
    if config.format == Format::Swiss {
        let planned = swiss_rounds(config, active_bots(config));
        return match rounds as u64 >= planned {
            true => format!(
                "the swiss league stopped after {rounds} rounds and {games} games: its {planned} rounds are played \
                 (a larger --swiss-rounds plays on)"
            ),
            false => format!("the swiss league stopped after {rounds} rounds and {games} games: too few bots are left"),
        };
    }
    match stop {
        Next::Known => format!(
            "the learning league stopped after {rounds} rounds and {games} games: every pair of bots adjacent in \
             the table has its order known at {:.0}%",
            learning::CONFIDENCE * 100.0
        ),
        _ => format!(
            "the learning league stopped after {rounds} rounds and {games} games: its budget{} is spent, with the \
             order of some adjacent pairs not known at {:.0}% (a larger --budget plays on)",
            config.budget.map_or_else(|| " (the round robin's games)".to_string(), |n| format!(" of {n} games")),
            learning::CONFIDENCE * 100.0
        ),
    }
}

/// An error unless the bots that entered with the last change of a grown
/// league's field (if any) meet someone: a league of `sides` sides.
fn entering_bots_play(config: &LeagueConfig, schedule: &Schedule, sides: usize) -> Result<(), Failure> {
    let change = config.history.last().expect("a grown league has a history");
    let active = active_bots(config);
    // A learning league's stages are its rounds: its next round meets a newcomer if anyone is left to meet.
    let meets = match config.format {
        Format::Learning | Format::Swiss => active >= 2,
        _ => !schedule.stage(config.history.len() - 1).expect("a stage for every change").0.is_empty(),
    };
    if change.added.is_empty() {
        return Ok(());
    }
    let planned = swiss_rounds(config, active);
    let newcomer = |bot: &usize| change.added.contains(&config.bots[*bot].name);
    // A round may have been chosen for them already (as this run takes the change in).
    let paired = config.rounds.iter().flatten().flatten().any(newcomer);
    if meets && config.format == Format::Swiss && !paired && config.rounds.len() as u64 >= planned {
        return Err(usage(format!(
            "{} would play no game: this swiss league has played its {planned} rounds (give more with \
             --swiss-rounds, with --bot or after it)",
            change.added.join(", ")
        )));
    }
    if meets {
        return Ok(());
    }
    let first = match config.format {
        Format::Gauntlet => format!(", or its first bot, {}, has retired", config.bots[0].name),
        Format::RoundRobin | Format::Learning | Format::Swiss => String::new(),
    };
    Err(usage(format!(
        "{} would play no game: this {} league of a {sides}-sided game has too few bots left{first}",
        change.added.join(", "),
        config.format,
    )))
}

/// What the change `index` of a grown league's field does: the groups it
/// creates, and (when given) the games of the retired bots that are dropped.
fn change_note(config: &LeagueConfig, schedule: &Schedule, index: usize, dropped: Option<u64>) -> String {
    let change = &config.history[index];
    let mut parts = Vec::new();
    let verb = if change.added.len() == 1 { "enters" } else { "enter" };
    // A learning or Swiss league's stages are its rounds: the newcomers play from its next round.
    if !change.added.is_empty() && config.format == Format::Learning {
        parts.push(format!("{} {verb}: the next round is a draw of the whole field", change.added.join(", ")));
    } else if !change.added.is_empty() && config.format == Format::Swiss {
        parts.push(format!("{} {verb}: paired from the next round, at a score of 0.5", change.added.join(", ")));
    } else if !change.added.is_empty() {
        let (groups, ids) = schedule.stage(index).expect("a stage for every change");
        parts.push(format!(
            "{} {verb}: {} new groups of bots, {} games",
            change.added.join(", "),
            groups.len(),
            ids.end - ids.start
        ));
    }
    if !change.retired.is_empty() {
        let verb = if change.retired.len() == 1 { "retires" } else { "retire" };
        let games = match dropped.unwrap_or(0) {
            0 => String::new(),
            n => format!(": {n} games not played yet are dropped"),
        };
        parts.push(format!("{} {verb}{games}", change.retired.join(", ")));
    }
    format!("the league's field changes: {}", parts.join("; "))
}

/// Under the standings of a league with retired bots: who retired when.
fn retired_note(config: &LeagueConfig) -> Option<String> {
    let retired: Vec<String> = config
        .history
        .iter()
        .flat_map(|change| {
            // A time from a change file, which anyone who may write to the queue wrote: shown escaped.
            let when = change.at.as_deref().map_or_else(String::new, |at| format!(" since {}", escape(at)));
            change.retired.iter().map(move |name| format!("{name}{when}"))
        })
        .collect();
    (!retired.is_empty()).then(|| {
        format!("retired: {}; the standings count the games they played, and they play no more", retired.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::LeagueArgs;
    use clap::{Args, Command};

    #[test]
    fn every_key_of_a_league_file_is_a_flag_of_arena_league() {
        let command = LeagueArgs::augment_args(Command::new("league"));
        let flags: Vec<&str> = command.get_arguments().filter_map(|arg| arg.get_long()).collect();
        for key in crate::league::config::KEYS {
            let flag = key.replace('_', "-");
            assert!(flags.contains(&flag.as_str()), "the league file's {key} has no flag --{flag}: {flags:?}");
        }
    }
}
