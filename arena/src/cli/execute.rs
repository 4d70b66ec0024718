//! Running a schedule from the command line: signals, progress, the report.

use super::{Failure, internal};
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::game::Game;
use crate::output::OutDir;
use crate::progress::Progress;
use crate::run::{MatchReport, run_games};
use crate::schedule::GameSpec;
use crate::signals;
use crate::standings::Standings;
use crate::table::{Limits, Table};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Everything a run needs.
pub struct Run<G: Game> {
    /// The bots.
    pub bots: Vec<BotSpec>,
    /// The variant in force.
    pub variant: G::Variant,
    /// The seed of the schedule.
    pub seed: u64,
    /// Process limits.
    pub limits: Limits,
    /// The games to play now.
    pub schedule: Vec<GameSpec>,
    /// Games at once.
    pub concurrency: usize,
    /// Standings so far (games of an earlier run of a resumed league).
    pub standings: Standings,
    /// Where to write, if anywhere.
    pub out: Option<OutDir>,
}

/// Plays the games with Ctrl-C handling and a progress display; prints the standings.
pub fn execute<G: Game>(run: Run<G>) -> Result<MatchReport, Failure> {
    let registry = Registry::new();
    let cancel = Arc::new(AtomicBool::new(false));
    signals::watch(Arc::clone(&cancel), registry.clone());
    let logs = run.out.as_ref().map(OutDir::logs);
    let table = Table::<G>::new(run.bots, run.variant, run.seed, run.limits, logs, registry);
    let mut progress = Progress::new(run.schedule.len() as u64);
    let report =
        run_games(table, run.schedule, run.concurrency, run.standings, run.out, cancel, |finished, standings| {
            progress.finished(finished, standings)
        })
        .map_err(internal)?;
    progress.finish();
    println!("{}", report.standings.table());
    let seconds = report.elapsed.as_secs_f64().max(1e-9);
    println!(
        "{} games, {} decisions in {:.2} s: {:.1} games/s, {:.0} decisions/s; seed {}",
        report.games,
        report.decisions,
        seconds,
        report.games as f64 / seconds,
        report.decisions as f64 / seconds,
        run.seed
    );
    Ok(report)
}
