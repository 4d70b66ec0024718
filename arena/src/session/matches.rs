//! A match's life as the library runs it (`arena match` parses its flags
//! and calls [`run`]): its bots, one per side, its game and limits checked,
//! every deal played in every order of the bots, its standings and exit status.

use crate::bot::limits::ResourceLimits;
use crate::bot::spec::{BotSpec, SpecError};
use crate::engine::program::Program;
use crate::engine::sandbox::Confinement;
use crate::league::config::{Overrides, named_bots};
use crate::run::execute::{ReportRequest, Run, execute, left_out};
use crate::run::plan::{Entrants, Staged};
use crate::run::setting::{Setting, given};
use crate::run::table::{Limits, apply_odds_flags, time_odds};
use crate::schedule::clock::Timing;
use crate::schedule::{Schedule, Seating, Selection};
use crate::session::exit::{self, Failure, usage};
use crate::session::live::{listen_run, serve_run};
use crate::session::{current_dir, random_seed};
use crate::settings::{CONCURRENCY, CPUS_PER_GAME, MATCH_GAMES};
use crate::store::output::OutDir;
use crate::terminal::console::{errln, outln};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What `arena match` asks of a match.
#[derive(Debug)]
pub struct MatchRequest {
    /// The settings given: `--bot`, `--games`, `--seed`, `--out`, the time
    /// and process limits, … (the game in [`game`](Self::game) and
    /// [`program`](Self::program)).
    pub overrides: Overrides,
    /// The built-in game (`--game`, or the default one).
    pub game: String,
    /// The engine program of `--engine`, if given.
    pub program: Option<Program>,
    /// `--report`: the standings also written as these reports.
    pub reports: Vec<ReportRequest>,
    /// `--fail-on-fault`: any fault of a bot makes the exit status 5.
    pub fail_on_fault: bool,
}

/// Runs `arena match`.
pub fn run(args: MatchRequest) -> Result<i32, Failure> {
    let flags = &args.overrides;
    if flags.bots.is_empty() && !(flags.bot_dirs.is_empty() && flags.bot_envs.is_empty()) {
        return Err(usage("--bot-dir and --bot-env set the directory and environment of a --bot: give the bots too"));
    }
    let bots = if flags.bots.is_empty() { demo_bots()? } else { parse_bots(flags)? };
    let secrets: Vec<PathBuf> = flags.deals.iter().cloned().collect();
    let private: Vec<PathBuf> = flags.out.iter().chain(&secrets).cloned().collect();
    let sandbox = flags.sandbox.unwrap_or_default();
    let confinement = args.program.as_ref().map(|program| Confinement::of(sandbox, program, &bots, &private));
    let mut setting = Setting::open(&args.game, args.program.clone(), confinement.transpose()?.flatten())?;
    let variant = setting.resolve(&given(flags.players.map(|players| players as usize), &flags.variants))?;
    let teams = variant.teams.clone();
    let odds = odds(flags, &bots)?;
    if bots.len() != teams.len() {
        return Err(usage(format!(
            "this game has {} sides, so give {} --bot (got {}){}",
            teams.len(),
            teams.len(),
            bots.len(),
            if teams.iter().any(|t| t.len() > 1) { "; each bot plays both seats of its side" } else { "" }
        )));
    }
    let seed = flags.seed.unwrap_or_else(random_seed);
    let mut resources = ResourceLimits::default();
    for text in &flags.limits {
        resources.set(text)?;
    }
    listen_run(&bots, sandbox)?;
    sandbox.check(&bots, &private)?;
    resources.check(sandbox.grouped())?;
    let limits = Limits {
        resources,
        sandbox,
        cpus_per_game: flags.cpus_per_game.unwrap_or(CPUS_PER_GAME.default) as usize,
        restart: flags.restart.unwrap_or_default(),
        odds,
        ..Limits::timed(flags.move_timeout, flags.clock, flags.startup_timeout)
    };
    let setups = flags.deals.as_deref().map(|path| setting.read_setups(&variant, path)).transpose()?;
    let engine = setting.close()?;
    let per_deal = Seating::EveryOrder.games_per_deal(teams.len());
    let games = flags.games.unwrap_or(MATCH_GAMES.default);
    let games = setups.as_ref().map_or(games, |setups| (setups.len() as u64).saturating_mul(per_deal));
    let schedule =
        Schedule::duplicate_match(seed, &teams, games).map_err(|e| usage(format!("--games {games}: {e}")))?;
    let concurrency = flags.concurrency.unwrap_or(CONCURRENCY.default);
    let at_once = concurrency.min(schedule.len()) as usize;
    let seats = teams.iter().map(Vec::len).sum();
    crate::bot::pool::reserve_descriptors(at_once, seats, seats)?;
    let out = flags.out.as_deref().map(OutDir::create).transpose()?;
    let selection = Selection::new(&schedule, None, |_| false);
    let names: Vec<String> = bots.iter().map(|b| b.name.clone()).collect();
    errln!("{}: {} games, {} — seed {seed}", engine.name(), schedule.len(), names.join(" vs "));
    let entrants = Entrants { bots, seed, limits, concurrency: concurrency as usize, secrets };
    let run = Run::new(entrants, Staged { engine, variant, setups }, schedule, selection, out)
        .reporting(args.reports.clone());
    serve_run(run.out.as_ref().map(OutDir::path), Some(run.selection.count()), &run.engine)?;
    let report = execute(run)?;
    if let Some(dir) = &flags.out {
        let _ = outln!("records: {}", dir.join(crate::store::output::GAMES).display());
    }
    if report.interrupted {
        let _ = outln!("interrupted after {} games", report.games);
        if let Some(note) = left_out(&report) {
            let _ = outln!("{note}");
        }
        return Ok(exit::INTERRUPTED);
    }
    let (status, why) = exit::of_faults(&report.standings, args.fail_on_fault);
    if let Some(why) = why {
        errln!("{why}");
    }
    Ok(status)
}

/// The bots of `--bot`, each in its `--bot-dir` with its `--bot-env`.
fn parse_bots(flags: &Overrides) -> Result<Vec<BotSpec>, Failure> {
    let cwd = current_dir()?;
    let mut names: Vec<&str> = Vec::new();
    for text in &flags.bots {
        let (name, _) = text.split_once('=').ok_or_else(|| SpecError::NotNameCommand { text: text.clone() })?;
        if names.contains(&name.trim()) {
            return Err(usage(format!("two bots are named {:?}; give each --bot a different NAME", name.trim())));
        }
        names.push(name.trim());
    }
    let placed = Overrides {
        bots: flags.bots.clone(),
        bot_dirs: flags.bot_dirs.clone(),
        bot_envs: flags.bot_envs.clone(),
        ..Overrides::default()
    };
    let named = named_bots(&placed, &cwd).map_err(|e| usage(e.to_string()))?;
    let mut bots = Vec::new();
    for ((name, command, dir, env), text) in named.into_iter().zip(&flags.bots) {
        let flag = |error| SpecError::Flag { text: text.clone(), error: Box::new(error) };
        bots.push(BotSpec::new(&name, &command, &dir, env).map_err(flag)?);
    }
    Ok(bots)
}

/// The time odds of `--bot-clock` and `--bot-move-timeout`: each named bot's timing.
fn odds(flags: &Overrides, bots: &[BotSpec]) -> Result<BTreeMap<String, Timing>, Failure> {
    let mut own = BTreeMap::new();
    let known = |name: &str| bots.iter().any(|bot| bot.name == name);
    apply_odds_flags(&mut own, &flags.bot_clocks, &flags.bot_move_timeouts, known).map_err(usage)?;
    Ok(time_odds(&own, flags.clock, flags.move_timeout))
}

/// The sample bots next to the arena binary: greedy-bot against random-bot.
fn demo_bots() -> Result<Vec<BotSpec>, Failure> {
    let cwd = current_dir()?;
    let bots = vec![BotSpec::sample("greedy", &cwd)?, BotSpec::sample("random", &cwd)?];
    errln!("no --bot given: playing the sample bots greedy-bot and random-bot");
    Ok(bots)
}
