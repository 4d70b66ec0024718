//! `arena match`: a match between bots, one per side.

use super::execute::{ReportRequest, Run, execute, left_out};
use super::game::{GameArgs, Setting, read_setups};
use super::{Failure, current_dir, random_seed, usage};
use crate::bot::limits::ResourceLimits;
use crate::bot::sandbox::Sandbox;
use crate::bot::signals;
use crate::bot::spec::BotSpec;
use crate::bot::start_failures::GiveUp;
use crate::run::table::{Limits, move_limit};
use crate::schedule::clock::TimeControl;
use crate::schedule::{Schedule, Seating, Selection};
use crate::store::output::OutDir;
use crate::terminal::console::{errln, outln};
use clap::Args;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Examples shown by `arena match --help`.
pub const EXAMPLES: &str = "Examples:
  arena match --bot greedy=target/release/greedy-bot --bot random=target/release/random-bot --games 1000
  arena match --bot py=\"python3 sample-bots/python/greedy.py\" --bot js=\"node sample-bots/js/greedy.js\" --out results
  arena match --players 4 --bot a=./my-bot --bot b=target/release/greedy-bot --variant hand_end=winner-takes";

/// The flags of `arena match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// A bot: NAME=COMMAND, the command split like a shell splits words (no shell syntax; VAR=value words before the program set its environment). Give one per side.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    bots: Vec<String>,
    #[command(flatten)]
    game: GameArgs,
    /// Number of players (2, 3 or 4; 4 plays partnerships unless --variant partners=false).
    #[arg(long)]
    players: Option<usize>,
    /// Number of games; rounded up to whole deals (every order of the bots
    /// over the seats: 2 with two sides, 6 with three, 24 with four).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Play the games set up in FILE instead of dealing from the seed: every
    /// game in the file, each in every order of the bots (see README, "Fixed deals").
    #[arg(long, value_name = "FILE", conflicts_with = "games")]
    deals: Option<PathBuf>,
    /// The match seed (default: a random one, printed so the match can be repeated).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=4096))]
    concurrency: u64,
    /// Time allowed for each move, in milliseconds (default 1000; under
    /// --clock, the clock's base).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    move_timeout: Option<u64>,
    /// A game clock for each seat: BASE+INC, each in milliseconds or with a
    /// unit ms, s or m (e.g. 60s+1s, 5000+100). A move may use what is left
    /// on the clock, up to --move-timeout; each move adds INC. A seat whose
    /// clock runs out forfeits on time.
    #[arg(long, value_name = "BASE+INC")]
    clock: Option<TimeControl>,
    /// Time allowed for a bot to answer hello after it starts, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    startup_timeout: u64,
    /// A variant setting, KEY=VALUE (repeatable; see `arena rules`).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    variants: Vec<String>,
    /// Write games.jsonl, standings.json and the bots' stderr logs here.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// A resource limit of every bot process, NAME=VALUE (cpu, address-space, processes, file-size, open-files, tmp; `none` lifts it).
    #[arg(long = "limit", value_name = "NAME=VALUE")]
    limits: Vec<String>,
    /// Also write the standings as json, csv or markdown: FORMAT or FORMAT=PATH
    /// (default: standings.<ext> in the output directory, or stdout without one).
    #[arg(long = "report", value_name = "FORMAT[=PATH]")]
    reports: Vec<ReportRequest>,
    /// Run every bot in a sandbox: none (the default) or bwrap (bubblewrap).
    #[arg(long, default_value = "none")]
    sandbox: Sandbox,
    /// CPUs of each game in flight: the bots of a game and the worker that
    /// plays it run on this many CPUs of their own (0: not
    /// pinned, the system places them; more for bots that use several threads).
    #[arg(long, value_name = "K", default_value_t = crate::run::table::CPUS_PER_GAME as u64)]
    cpus_per_game: u64,
}

/// Runs `arena match`.
pub fn run(args: MatchArgs) -> Result<i32, Failure> {
    let mut setting = Setting::open(args.game.game(), args.game.program()?)?;
    let variant = setting.variant(args.players, &args.variants)?;
    let teams = variant.teams.clone();
    let bots = if args.bots.is_empty() { demo_bots()? } else { parse_bots(&args.bots)? };
    if bots.len() != teams.len() {
        return Err(usage(format!(
            "this game has {} sides, so give {} --bot (got {}){}",
            teams.len(),
            teams.len(),
            bots.len(),
            if teams.iter().any(|t| t.len() > 1) { "; each bot plays both seats of its side" } else { "" }
        )));
    }
    let seed = args.seed.unwrap_or_else(random_seed);
    let mut resources = ResourceLimits::default();
    for text in &args.limits {
        resources.set(text).map_err(usage)?;
    }
    let secrets: Vec<PathBuf> = args.deals.iter().cloned().collect();
    let private: Vec<PathBuf> = args.out.iter().chain(&secrets).cloned().collect();
    args.sandbox.check(&bots, &private).map_err(usage)?;
    resources.check().map_err(usage)?;
    let limits = Limits {
        move_timeout: move_limit(args.move_timeout, args.clock),
        clock: args.clock,
        startup_timeout: Duration::from_millis(args.startup_timeout),
        resources,
        sandbox: args.sandbox,
        cpus_per_game: args.cpus_per_game as usize,
        ..Limits::default()
    };
    let setups = args.deals.as_deref().map(|path| read_setups(&mut setting, &variant, path)).transpose()?;
    let engine = setting.close()?;
    let per_deal = Seating::EveryOrder.games_per_deal(teams.len());
    let games = setups.as_ref().map_or(args.games, |setups| (setups.len() as u64).saturating_mul(per_deal));
    let schedule =
        Schedule::duplicate_match(seed, &teams, games).map_err(|e| usage(format!("--games {games}: {e}")))?;
    let at_once = args.concurrency.min(schedule.len()) as usize;
    crate::bot::pool::reserve_descriptors(at_once, teams.iter().map(Vec::len).sum()).map_err(usage)?;
    let out = args.out.as_deref().map(OutDir::create).transpose().map_err(usage)?;
    let selection = Selection::new(&schedule, None, |_| false);
    let names: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
    errln!("{}: {} games, {} — seed {seed}", engine.name(), schedule.len(), names.join(" vs "));
    let run = Run {
        bots,
        engine,
        variant,
        seed,
        limits,
        schedule,
        selection,
        concurrency: args.concurrency as usize,
        played: Vec::new(),
        out,
        reports: args.reports.clone(),
        setups,
        give_up: GiveUp::ForfeitRest,
        stops_early: false,
        quiet: false,
        secrets,
    };
    let report = execute(run)?;
    if let Some(dir) = &args.out {
        let _ = outln!("records: {}", dir.join(crate::store::output::GAMES).display());
    }
    if report.interrupted {
        let _ = outln!("interrupted after {} games", report.games);
        if let Some(note) = left_out(&report) {
            let _ = outln!("{note}");
        }
        return Ok(signals::INTERRUPTED);
    }
    Ok(0)
}

fn parse_bots(given: &[String]) -> Result<Vec<BotSpec>, Failure> {
    let cwd = current_dir()?;
    let mut bots: Vec<BotSpec> = Vec::new();
    for text in given {
        let bot = BotSpec::parse(text, &cwd).map_err(usage)?;
        if bots.iter().any(|b| b.name == bot.name) {
            return Err(usage(format!("two bots are named {:?}; give each --bot a different NAME", bot.name)));
        }
        bots.push(bot);
    }
    Ok(bots)
}

/// The directory of the arena binary, where `cargo build` puts the sample bots too.
pub fn binary_dir() -> Result<PathBuf, Failure> {
    let exe = std::env::current_exe().map_err(|e| usage(format!("cannot locate the arena binary: {e}")))?;
    Ok(exe.parent().unwrap_or(Path::new(".")).to_path_buf())
}

/// A sample Rust bot built next to the arena, e.g. `greedy` for `greedy-bot`.
pub fn sample_bot(name: &str) -> Result<BotSpec, Failure> {
    let dir = binary_dir()?;
    let quoted = shell_words::quote(&dir.join(format!("{name}-bot")).to_string_lossy()).into_owned();
    BotSpec::parse(&format!("{name}={quoted}"), &current_dir()?)
        .map_err(|e| usage(format!("the sample bots are not built ({e}); run `cargo build --release` first")))
}

/// The sample bots next to the arena binary: greedy-bot against random-bot.
fn demo_bots() -> Result<Vec<BotSpec>, Failure> {
    let bots = vec![sample_bot("greedy")?, sample_bot("random")?];
    errln!("no --bot given: playing the sample bots greedy-bot and random-bot");
    Ok(bots)
}
