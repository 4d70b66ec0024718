//! `arena match`: a match between bots, one per side.

use super::flags::{BotPlaceFlags, FaultFlags, OddsFlags, RemoteFlags, ServeFlag, TimeFlags, setting_flags};
use super::game::{GameArgs, settings};
use super::{Failure, current_dir, exit, random_seed, usage};
use crate::bot::limits::ResourceLimits;
use crate::bot::spec::{BotSpec, SpecError};
use crate::engine::sandbox::Confinement;
use crate::league::config::{Overrides, named_bots};
use crate::run::execute::{ReportRequest, Run, execute, left_out};
use crate::run::plan::{Entrants, Staged};
use crate::run::setting::Setting;
use crate::run::table::{Limits, apply_odds_flags, time_odds};
use crate::schedule::clock::Timing;
use crate::schedule::{Schedule, Seating, Selection};
use crate::session::live::{listen_run, serve_run};
use crate::settings::{CONCURRENCY, CPUS_PER_GAME, MATCH_GAMES, VariantSetting};
use crate::store::output::OutDir;
use crate::terminal::console::{errln, outln};
use clap::{Arg, Args};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Examples shown by `arena match --help`.
pub const EXAMPLES: &str = "Examples:
  arena match --bot greedy=target/release/greedy-bot --bot random=target/release/random-bot --games 1000
  arena match --bot py=\"python3 sample-bots/python/greedy.py\" --bot js=\"node sample-bots/js/greedy.js\" --out results
  arena match --players 4 --bot a=./my-bot --bot b=target/release/greedy-bot --variant hand_end=winner-takes
  arena match --bot new=./my-bot --bot greedy=target/release/greedy-bot --fail-on-fault   # in CI

Exit status: 0 the match was played, 1 the arena failed, 2 usage error, 4 a bot
forfeited every game it was in (it never started, say), 5 with --fail-on-fault:
a bot faulted, 130 interrupted.";

setting_flags! {
    /// The settings of a match, worded for it.
    struct MatchSettings {
        players: |arg: Arg| arg.help("Number of players (2, 3 or 4; 4 plays partnerships unless --variant partners=false)"),
        games: |arg: Arg| arg.help(MATCH_GAMES.help()),
        deals: |arg: Arg| arg.conflicts_with("games").help(
            "Play the games set up in FILE instead of dealing from the seed: every game in the file, each in every \
             order of the bots (see docs/leagues.md, \"Fixed deals\")",
        ),
        seed: |arg: Arg| arg.help("The match seed (default: a random one, printed so the match can be repeated)"),
        concurrency: |arg: Arg| arg.help(CONCURRENCY.help()),
        out: |arg: Arg| arg.help("Write games.jsonl, standings.json and the bots' stderr logs here"),
        sandbox,
        restart,
        cpus_per_game,
    }
}

/// The flags of `arena match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// A bot: NAME=COMMAND, the command split like a shell splits words (no shell syntax; VAR=value words before the program set its environment). Give one per side.
    #[arg(long = "bot", value_name = "NAME=COMMAND")]
    bots: Vec<String>,
    #[command(flatten)]
    place: BotPlaceFlags,
    #[command(flatten)]
    odds: OddsFlags,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    settings: MatchSettings,
    #[command(flatten)]
    time: TimeFlags,
    /// A variant setting, KEY=VALUE (repeatable; see `arena rules`).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    variants: Vec<VariantSetting>,
    #[arg(long = "limit", value_name = "NAME=VALUE", help = crate::bot::limits::help())]
    limits: Vec<String>,
    /// Also write the standings as json, csv or markdown: FORMAT or FORMAT=PATH
    /// (default: standings.<ext> in the output directory, or stdout without one).
    #[arg(long = "report", value_name = "FORMAT[=PATH]")]
    reports: Vec<ReportRequest>,
    #[command(flatten)]
    faults: FaultFlags,
    #[command(flatten)]
    serve: ServeFlag,
    #[command(flatten)]
    remote: RemoteFlags,
}

/// Runs `arena match`.
pub fn run(args: MatchArgs) -> Result<i32, Failure> {
    args.serve.listen()?;
    args.remote.keep()?;
    if args.bots.is_empty() && !(args.place.bot_dirs.is_empty() && args.place.bot_envs.is_empty()) {
        return Err(usage("--bot-dir and --bot-env set the directory and environment of a --bot: give the bots too"));
    }
    let bots = if args.bots.is_empty() { demo_bots()? } else { parse_bots(&args)? };
    let secrets: Vec<PathBuf> = args.settings.deals.iter().cloned().collect();
    let private: Vec<PathBuf> = args.settings.out.iter().chain(&secrets).cloned().collect();
    let sandbox = args.settings.sandbox.unwrap_or_default();
    let program = args.game.program()?;
    let confinement = program.as_ref().map(|program| Confinement::of(sandbox, program, &bots, &private));
    let mut setting = Setting::open(args.game.game(), program, confinement.transpose()?.flatten())?;
    let variant = setting.resolve(&settings(args.settings.players.map(|players| players as usize), &args.variants))?;
    let teams = variant.teams.clone();
    let odds = odds(&args, &bots)?;
    if bots.len() != teams.len() {
        return Err(usage(format!(
            "this game has {} sides, so give {} --bot (got {}){}",
            teams.len(),
            teams.len(),
            bots.len(),
            if teams.iter().any(|t| t.len() > 1) { "; each bot plays both seats of its side" } else { "" }
        )));
    }
    let seed = args.settings.seed.unwrap_or_else(random_seed);
    let mut resources = ResourceLimits::default();
    for text in &args.limits {
        resources.set(text)?;
    }
    listen_run(&bots, sandbox)?;
    sandbox.check(&bots, &private)?;
    resources.check(sandbox.grouped())?;
    let limits = Limits {
        resources,
        sandbox,
        cpus_per_game: args.settings.cpus_per_game.unwrap_or(CPUS_PER_GAME.default) as usize,
        restart: args.settings.restart.unwrap_or_default(),
        odds,
        ..args.time.limits()
    };
    let setups = args.settings.deals.as_deref().map(|path| setting.read_setups(&variant, path)).transpose()?;
    let engine = setting.close()?;
    let per_deal = Seating::EveryOrder.games_per_deal(teams.len());
    let games = args.settings.games.unwrap_or(MATCH_GAMES.default);
    let games = setups.as_ref().map_or(games, |setups| (setups.len() as u64).saturating_mul(per_deal));
    let schedule =
        Schedule::duplicate_match(seed, &teams, games).map_err(|e| usage(format!("--games {games}: {e}")))?;
    let concurrency = args.settings.concurrency.unwrap_or(CONCURRENCY.default);
    let at_once = concurrency.min(schedule.len()) as usize;
    let seats = teams.iter().map(Vec::len).sum();
    crate::bot::pool::reserve_descriptors(at_once, seats, seats)?;
    let out = args.settings.out.as_deref().map(OutDir::create).transpose()?;
    let selection = Selection::new(&schedule, None, |_| false);
    let names: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
    errln!("{}: {} games, {} — seed {seed}", engine.name(), schedule.len(), names.join(" vs "));
    let entrants = Entrants { bots, seed, limits, concurrency: concurrency as usize, secrets };
    let run = Run::new(entrants, Staged { engine, variant, setups }, schedule, selection, out)
        .reporting(args.reports.clone());
    serve_run(run.out.as_ref().map(OutDir::path), Some(run.selection.count()), &run.engine)?;
    let report = execute(run)?;
    if let Some(dir) = &args.settings.out {
        let _ = outln!("records: {}", dir.join(crate::store::output::GAMES).display());
    }
    if report.interrupted {
        let _ = outln!("interrupted after {} games", report.games);
        if let Some(note) = left_out(&report) {
            let _ = outln!("{note}");
        }
        return Ok(exit::INTERRUPTED);
    }
    let (status, why) = exit::of_faults(&report.standings, args.faults.fail_on_fault);
    if let Some(why) = why {
        errln!("{why}");
    }
    Ok(status)
}

/// The bots of `--bot`, each in its `--bot-dir` with its `--bot-env`.
fn parse_bots(args: &MatchArgs) -> Result<Vec<BotSpec>, Failure> {
    let cwd = current_dir()?;
    let mut names: Vec<&str> = Vec::new();
    for text in &args.bots {
        let (name, _) = text.split_once('=').ok_or_else(|| SpecError::NotNameCommand { text: text.clone() })?;
        if names.contains(&name.trim()) {
            return Err(usage(format!("two bots are named {:?}; give each --bot a different NAME", name.trim())));
        }
        names.push(name.trim());
    }
    let flags = Overrides {
        bots: args.bots.clone(),
        bot_dirs: args.place.bot_dirs.clone(),
        bot_envs: args.place.bot_envs.clone(),
        ..Overrides::default()
    };
    let named = named_bots(&flags, &cwd).map_err(|e| usage(e.to_string()))?;
    let mut bots = Vec::new();
    for ((name, command, dir, env), text) in named.into_iter().zip(&args.bots) {
        let flag = |error| SpecError::Flag { text: text.clone(), error: Box::new(error) };
        bots.push(BotSpec::new(&name, &command, &dir, env).map_err(flag)?);
    }
    Ok(bots)
}

/// The time odds of `--bot-clock` and `--bot-move-timeout`: each named bot's timing.
fn odds(args: &MatchArgs, bots: &[BotSpec]) -> Result<BTreeMap<String, Timing>, Failure> {
    let mut own = BTreeMap::new();
    let known = |name: &str| bots.iter().any(|bot| bot.name == name);
    apply_odds_flags(&mut own, &args.odds.bot_clocks, &args.odds.bot_move_timeouts, known).map_err(usage)?;
    Ok(time_odds(&own, args.time.clock, args.time.move_timeout))
}

/// The sample bots next to the arena binary: greedy-bot against random-bot.
fn demo_bots() -> Result<Vec<BotSpec>, Failure> {
    let cwd = current_dir()?;
    let bots = vec![BotSpec::sample("greedy", &cwd)?, BotSpec::sample("random", &cwd)?];
    errln!("no --bot given: playing the sample bots greedy-bot and random-bot");
    Ok(bots)
}
