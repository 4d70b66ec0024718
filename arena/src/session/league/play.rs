//! What is left of a league played: its output directory made or its
//! field changed once everything is checked, its games run, its closing lines.

use super::notes::{change_note, entering_bots_play, retired_note};
use super::resume::{now, write_league};
use super::{Played, Prepared};
use crate::league::queued;
use crate::league::{check_played, full_schedule, withdrawn};
use crate::run::execute::{Run, Titles, execute_with, left_out};
use crate::run::plan::Entrants;
use crate::run::runner::Flow;
use crate::schedule::lanes::Plan;
use crate::schedule::{Seating, Selection};
use crate::session::exit::{self, Failure, usage};
use crate::session::live::{listen_run, serve_run};
use crate::session::resumable;
use crate::store::output::OutDir;
use crate::terminal::console::{errln, outln};
use std::time::{Duration, Instant};

/// How often a running league looks for queued changes of its field, at most.
pub(super) const CHANGES_POLL: Duration = Duration::from_millis(500);

/// Plays what is left of a league; `quiet` for a round of a learning league
/// that is not its last (no standings, no closing lines, no exit status but 0
/// or 130); `fail_on_fault` says what its bots' faults make of its exit status.
pub(super) fn play(prepared: Prepared, quiet: bool, fail_on_fault: bool) -> Result<Played, Failure> {
    let Prepared { mut config, mut out, played, fresh, changes, taken, chose, reports, earlier } = prepared;
    let grown = !fresh && config.history.len() != changes;
    // A learning or Swiss league: it chooses its rounds from the games played.
    let learning = config.kept.format.has_rounds();
    let (engine, variant, setups) = config.open_engine()?;
    let teams = variant.teams.clone();
    let schedule = full_schedule(&config, &teams, Seating::EveryOrder)?;
    if grown {
        entering_bots_play(&config, &schedule, teams.len())?;
    }
    listen_run(&config.bots, config.kept.sandbox)?;
    config.kept.sandbox.check(&config.bots, &config.private())?;
    config.limits.check(config.kept.sandbox.grouped())?;
    let at_once = config.kept.concurrency.min(schedule.len()) as usize;
    let setups_count = setups.as_ref().map(|setups| setups.len() as u64);
    let plan = Plan::new(schedule.clone(), config.kept.restart, (at_once, 1), setups_count, false);
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
        config.kept.format,
        config.kept.seed
    );
    // (Not after the rounds this command played: a learning league that has just stopped.)
    if let (false, Some(dir), 0, 0) = (fresh, &config.out, selection.count(), earlier.games) {
        let what = if config.shard.is_some() { "shard" } else { "league" };
        errln!("this {what} is finished: all {total} games are in {}; its standings follow", dir.display());
    }
    serve_run(config.out.as_deref(), Some(total), &engine)?;
    // Only a learning league needs the games back: others need not copy every summary.
    let mut games = if learning { played.clone() } else { Vec::new() };
    let titles = Titles {
        ended: grown.then(|| {
            "Standings after the league's field changed ({games} games counted, the earlier ones included):".to_string()
        }),
        stopped: config
            .out
            .is_some()
            .then(|| "Standings before the league's field changes ({games} games counted):".to_string()),
    };
    let run = Run::new(Entrants::from(&config), (engine, variant, setups).into(), schedule, selection, out)
        .after(played)
        .reporting(if quiet { Vec::new() } else { reports.clone() })
        .within(quiet, earlier.clone(), titles);
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
        false => exit::of_faults(&report.standings, fail_on_fault),
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
                crate::session::program(),
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
