//! What is left of a test played: its games run, counted deal by deal,
//! until the test decides; then its verdict, written and said.

use super::{Prepared, add_copies};
use crate::league::config::SprtConfig;
use crate::league::{check_played, full_schedule};
use crate::run::execute::{Run, RunError, execute_with};
use crate::run::plan::Entrants;
use crate::run::play::Unplayable;
use crate::run::runner::{Flow, GamesError};
use crate::schedule::{Schedule, Seating, Selection};
use crate::session::exit::{self, Failure, internal, usage};
use crate::session::live::{listen_run, serve_run};
use crate::session::resumable;
use crate::stats::sprt::report::{Conclusion, Summary, parameters, status};
use crate::stats::sprt::{DealSequence, Test};
use crate::store::output::{OutDir, SPRT_CONFIG, SPRT_RESULT, write_atomically};
use crate::store::record::GameSummary;
use crate::terminal::console::{errln, outln};
use std::path::PathBuf;

/// Plays what is left of a test; `fail_on_fault` says what its bots' faults
/// make of its exit status.
pub(super) fn play(prepared: Prepared, fail_on_fault: bool) -> Result<i32, Failure> {
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
    listen_run(&config.games.bots, config.games.kept.sandbox)?;
    config.games.kept.sandbox.check(&config.games.bots, &config.games.private())?;
    config.games.limits.check(config.games.kept.sandbox.grouped())?;
    let at_once = config.games.kept.concurrency.min(schedule.len()) as usize;
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
        // The test as it stands, for the live page, when it asks (`--serve`).
        if let Some(flights) = crate::run::flights::watched() {
            flights.tested(sequence);
        }
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
        config.games.kept.seed
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
    if let Some(flights) = crate::run::flights::watched() {
        flights.tested(&sequence);
    }
    let entrants = Entrants::from(&config.games);
    let run = Run::new(entrants, (engine, variant, setups).into(), Schedule::clone(&schedule), selection, out)
        .after(played)
        .until_answered();
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
    let (status, why) = exit::of_faults(&report.standings, fail_on_fault);
    match why {
        Some(why) => {
            errln!("{why}, whatever the verdict");
            Ok(status)
        }
        None => Ok(verdict),
    }
}

/// Writes `sprt.json`, says how to go on, and returns the exit status of `summary`.
pub(super) fn finish(out: &Option<PathBuf>, summary: &Summary) -> Result<i32, Failure> {
    if let Some(dir) = out {
        let json = serde_json::to_string_pretty(summary).expect("summaries serialize") + "\n";
        write_atomically(&dir.join(SPRT_RESULT), json.as_bytes())
            .map_err(|e| internal(format!("cannot write {SPRT_RESULT}: {e}")))?;
        let _ = outln!("results: {}", dir.display());
    }
    Ok(match summary.file.conclusion {
        Conclusion::H1 => exit::SUCCESS,
        Conclusion::H0 => exit::FAILED,
        Conclusion::Inconclusive => exit::INCONCLUSIVE,
        Conclusion::Interrupted => {
            let _ = match out {
                Some(dir) => outln!("continue with: {} sprt --resume {}", crate::session::program(), dir.display()),
                None => outln!("(no --out, so the test cannot be resumed)"),
            };
            exit::INTERRUPTED
        }
    })
}
