//! Running a schedule as a command does: signals, progress, the standings
//! and figures at the end, the extra reports.

use crate::bot::registry::Registry;
use crate::bot::signals;
use crate::bot::spec::BotSpec;
use crate::bot::start_failures::GiveUp;
use crate::engine::spec::Engine;
use crate::run::progress::Progress;
use crate::run::runner::{Finished, Flow, GamesError, MatchReport, Work, run_games};
use crate::run::table::{Limits, Resolved, Table};
use crate::schedule::{Schedule, Selection};
use crate::stats::fault_summary::{self, FaultSummary};
use crate::stats::standings::{ReportFormat, Standings, UnknownReportFormat};
use crate::store::output::OutDir;
use crate::store::record::{GameSummary, keep_least};
use crate::terminal::console::{errln, outln};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Everything a run needs.
pub struct Run {
    /// The bots.
    pub bots: Vec<BotSpec>,
    /// The game's engine.
    pub engine: Arc<Engine>,
    /// The variant in force.
    pub variant: Resolved,
    /// The seed of the schedule.
    pub seed: u64,
    /// Process limits.
    pub limits: Limits,
    /// The schedule.
    pub schedule: Schedule,
    /// The games of it to play now.
    pub selection: Selection,
    /// Games at once.
    pub concurrency: usize,
    /// The games an earlier run played (of a resumed league or SPRT).
    pub played: Vec<GameSummary>,
    /// Where to write, if anywhere.
    pub out: Option<OutDir>,
    /// Extra reports to write at the end.
    pub reports: Vec<ReportRequest>,
    /// Games set up in advance, by deal number (`--deals`).
    pub setups: Option<Vec<Value>>,
    /// Files no sandboxed bot sees besides the output directory: the league file, the deals file.
    pub secrets: Vec<PathBuf>,
    /// What to do with a bot that keeps failing to start.
    pub give_up: GiveUp,
    /// Whether the run stops as soon as it has its answer (an SPRT at its
    /// verdict), so that its games are a limit rather than a goal: the
    /// progress then counts the games without a bar or a time left.
    pub stops_early: bool,
    /// Whether the run prints nothing at its end (no standings, no figures,
    /// no reports): a round of a learning league, whose standings follow its last.
    pub quiet: bool,
    /// The runs before this one of the same command (the rounds of a
    /// learning league), whose games the figures at the end count as this one's.
    pub earlier: Earlier,
    /// The lines over the standings, if any: which games they cover.
    pub titles: Titles,
}

/// The line over a run's standings, saying which games they cover (`{games}`
/// stands for the number counted), as the run ends.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Titles {
    /// Over the standings of a run played to its end (or interrupted).
    pub ended: Option<String>,
    /// Over the standings of a run that its `watch` stopped (a league whose
    /// field is about to change).
    pub stopped: Option<String>,
}

/// Games, decisions and time of the runs that came before a run within one
/// command (the rounds of a learning league).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Earlier {
    /// Games finished.
    pub games: u64,
    /// Decisions made by bots in them.
    pub decisions: u64,
    /// Wall-clock time of those runs.
    pub elapsed: Duration,
    /// The least each bot left on its clock after a move in them, in
    /// microseconds by name (empty without a game clock).
    pub least_clock: BTreeMap<String, u64>,
}

impl Earlier {
    /// These runs and `report`'s together.
    pub fn and(&self, report: &MatchReport) -> Earlier {
        let mut least_clock = self.least_clock.clone();
        for (bot, &left) in &report.least_clock {
            keep_least(&mut least_clock, bot, left);
        }
        Earlier {
            games: self.games + report.games,
            decisions: self.decisions + report.decisions,
            elapsed: self.elapsed + report.elapsed,
            least_clock,
        }
    }
}

/// `--report FORMAT[=PATH]`: the standings in another format, written to
/// PATH, or by default to `standings.<ext>` in the output directory, or to
/// stdout when there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRequest {
    /// The format.
    pub format: ReportFormat,
    /// Where to write it.
    pub path: Option<PathBuf>,
}

/// `--report` names a format no report has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadReportRequest(pub UnknownReportFormat);

impl fmt::Display for BadReportRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--report: {}", self.0)
    }
}

impl std::error::Error for BadReportRequest {}

impl FromStr for ReportRequest {
    type Err = BadReportRequest;
    fn from_str(text: &str) -> Result<ReportRequest, BadReportRequest> {
        let (format, path) = match text.split_once('=') {
            Some((format, path)) => (format, Some(PathBuf::from(path))),
            None => (text, None),
        };
        Ok(ReportRequest { format: format.parse().map_err(BadReportRequest)?, path })
    }
}

/// Why a run failed.
#[derive(Debug)]
pub enum RunError {
    /// The games stopped with `error`; those finished are kept in `kept`
    /// (the output directory), if any.
    Stopped {
        /// What stopped them.
        error: GamesError,
        /// The output directory.
        kept: Option<PathBuf>,
    },
    /// A report of the standings could not be written to `path`.
    Report {
        /// Where it was to go.
        path: PathBuf,
        /// Why it could not.
        error: std::io::Error,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Stopped { error, kept: Some(dir) } => {
                write!(f, "{error}; the run stopped, and the games finished so far are kept in {}", dir.display())
            }
            RunError::Stopped { error, kept: None } => write!(f, "{error}; the run stopped"),
            RunError::Report { path, error } => write!(f, "cannot write {}: {error}", path.display()),
        }
    }
}

impl std::error::Error for RunError {}

impl ReportRequest {
    /// Writes the report of `standings`.
    pub fn write(&self, standings: &Standings, game: &str, seed: u64, out: Option<&Path>) -> Result<(), RunError> {
        let text = standings.report(self.format, game, seed);
        let extension = match self.format {
            ReportFormat::Json => "json",
            ReportFormat::Csv => "csv",
            ReportFormat::Markdown => "md",
        };
        // In the output directory, atomically (never through a link planted
        // there); a path the user chose (`/dev/stdout`, say) is written as it is.
        let (path, written) = match (&self.path, out) {
            (Some(path), _) => (Some(path.clone()), std::fs::write(path, &text)),
            (None, Some(dir)) => {
                let path = dir.join(format!("standings.{extension}"));
                let written = crate::store::output::write_atomically(&path, text.as_bytes());
                (Some(path), written)
            }
            (None, None) => (None, Ok(())),
        };
        match path {
            Some(path) => {
                written.map_err(|error| RunError::Report { path: path.clone(), error })?;
                let _ = outln!("{} report: {}", self.format, path.display());
            }
            None => {
                let _ = crate::terminal::console::out(format_args!("{text}"));
            }
        }
        Ok(())
    }
}

/// Plays the games with Ctrl-C handling and a progress display; prints the standings.
pub fn execute(run: Run) -> Result<MatchReport, RunError> {
    execute_with(run, |progress, finished, standings| {
        progress.finished(finished, standings);
        Flow::Continue
    })
}

/// [`execute`], with `watch` shown every finished game (and the progress
/// display to update): it may stop the run ([`Flow::Stop`]).
pub fn execute_with(
    run: Run,
    mut watch: impl FnMut(&mut Progress, &Finished, &Standings) -> Flow,
) -> Result<MatchReport, RunError> {
    let games_at_once = (run.concurrency as u64).min(run.selection.count());
    if let Some(warning) = oversubscription(games_at_once, crate::bot::cpus::cores()) {
        errln!("{warning}");
    }
    let registry = Registry::new();
    if let Some(flights) = crate::run::flights::watched() {
        flights.run_in(&registry);
    }
    let cancel = Arc::new(AtomicBool::new(false));
    signals::watch(Arc::clone(&cancel), registry.clone());
    let already = run.played.len();
    let names: Vec<String> = run.bots.iter().map(|bot| bot.name.clone()).collect();
    let standings = Standings::new(&names, run.engine.scoring());
    let game = run.engine.name().to_string();
    let logs = run.out.as_ref().map(OutDir::logs);
    let out_dir = run.out.as_ref().map(|out| out.path().to_path_buf());
    let private = private(out_dir.as_deref(), &run);
    let limits = run.limits.clone();
    let table = Table::new(run.bots, run.engine, run.variant, run.seed, run.limits, logs, registry)
        .with_setups(run.setups)
        .with_private(private)
        .with_give_up(run.give_up);
    let mut progress = match run.stops_early {
        true => Progress::at_most(run.selection.count()),
        false => Progress::new(run.selection.count()),
    };
    let mut faults = FaultSummary::default();
    let mut least_clock = BTreeMap::new();
    let mut stopped = false;
    let result = run_games(
        table,
        Work {
            schedule: run.schedule,
            selection: run.selection,
            concurrency: run.concurrency,
            stops_early: run.stops_early,
        },
        standings,
        run.played,
        run.out,
        cancel,
        |finished, standings| {
            faults.add(&finished.summary);
            for (bot, &left) in &finished.least_clock {
                keep_least(&mut least_clock, bot, left);
            }
            let flow = watch(&mut progress, finished, standings);
            stopped |= matches!(flow, Flow::Stop);
            flow
        },
    );
    progress.finish();
    let mut summary = Vec::new();
    if !faults.is_empty() {
        fault_summary::write(&faults, &mut summary).expect("writing to memory succeeds");
    }
    let mut report = result.map_err(|error| {
        if !summary.is_empty() {
            errln!("{}", String::from_utf8_lossy(&summary).trim_end());
        }
        RunError::Stopped { error, kept: out_dir.clone() }
    })?;
    report.least_clock = least_clock;
    if run.quiet {
        let _ = crate::terminal::console::out_bytes(&summary);
        return Ok(report);
    }
    // The run is done and recorded: a reader that has gone away loses only the report.
    let title = if stopped && !report.interrupted { &run.titles.stopped } else { &run.titles.ended };
    if let Some(title) = title {
        let _ = outln!("{}", title.replace("{games}", &report.standings.games.to_string()));
    }
    let _ = outln!("{}", report.standings.table_within(crate::terminal::console::stdout_width()));
    let _ = crate::terminal::console::out_bytes(&summary);
    let this = run.earlier.and(&report);
    let seconds = this.elapsed.as_secs_f64().max(1e-9);
    // The rates are this command's: the games of an earlier one took time not counted here.
    let earlier = match already.saturating_sub(run.earlier.games as usize) {
        0 => String::new(),
        n => format!(" in this run ({n} played before)"),
    };
    let _ = outln!(
        "{} games{earlier}, {} decisions in {:.2} s: {:.1} games/s, {:.0} decisions/s; peak memory {:.1} MB; seed {}",
        this.games,
        this.decisions,
        seconds,
        this.games as f64 / seconds,
        this.decisions as f64 / seconds,
        peak_memory_mb(),
        run.seed
    );
    if let Some(line) = clock_summary(&limits, &this.least_clock) {
        let _ = outln!("{line}");
    }
    for request in &run.reports {
        request.write(&report.standings, &game, run.seed, out_dir.as_deref())?;
    }
    Ok(report)
}

/// The line that ends a run played under game clocks: the least each bot
/// left on its clock after a move (`least`, in microseconds by name, only
/// bots that had a clock), after the clock they all had, or each after its
/// own when their clocks differ (time odds).
pub fn clock_summary(limits: &Limits, least: &BTreeMap<String, u64>) -> Option<String> {
    let ms = |us: u64| format!("{:.1} ms", us as f64 / 1000.0);
    let clock = |bot: &str| limits.timing(bot).clock.map_or_else(String::new, |clock| clock.to_string());
    let what = "the least each bot left on its clock after a move";
    let first = clock(least.keys().next()?);
    let shared = limits.odds.values().all(|timing| timing.clock == limits.clock);
    let each: Vec<String> = least
        .iter()
        .map(|(bot, &us)| match shared {
            true => format!("{bot} {}", ms(us)),
            false => format!("{bot} {} of {} ms", ms(us), clock(bot)),
        })
        .collect();
    Some(match shared {
        true => format!("clock {first} ms: {what}: {}", each.join(", ")),
        false => format!("clocks of their own (time odds): {what}: {}", each.join(", ")),
    })
}

/// What the standings of a stopped run left out, if anything: the games of
/// deals it did not finish (see [`crate::stats::standings::whole_deals`]).
pub fn left_out(report: &MatchReport) -> Option<String> {
    (report.unfinished > 0).then(|| {
        format!(
            "the standings count whole deals only ({} games): the {} finished games of unfinished deals are \
             in the records but not counted, so that every bot has held every seat equally often",
            report.standings.games, report.unfinished
        )
    })
}

/// A warning when more games run at once than the arena has cores: a game
/// has one bot thinking at a time, so each game in flight wants a core, and
/// the move clock measures wall-clock time, so bots that wait for a core may
/// run out of it.
fn oversubscription(games_at_once: u64, cores: u64) -> Option<String> {
    (games_at_once > cores).then(|| {
        format!(
            "warning: {games_at_once} games at once (--concurrency) on {cores} core{} available to the arena: bots \
             will wait for a core, and the move clock counts that wait (it measures wall-clock time), so \
             well-behaved bots may time out; use --concurrency {cores} or less for timings you can trust",
            if cores == 1 { "" } else { "s" }
        )
    })
}

/// The arena's own peak resident memory so far, in MB (bots not included):
/// `VmHWM` from `/proc/self/status`. (`getrusage` would also count the
/// memory of the process that started the arena, before its `exec`.)
fn peak_memory_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// What no sandboxed bot of `run` sees: the output directory, the
/// [`secrets`](Run::secrets), and the files its reports will overwrite, which
/// an earlier run left with its seed where the bots may be.
fn private(out_dir: Option<&Path>, run: &Run) -> Vec<PathBuf> {
    let reports = run.reports.iter().filter_map(|request| request.path.clone()).filter(|path| path.exists());
    out_dir.map(Path::to_path_buf).into_iter().chain(run.secrets.iter().cloned()).chain(reports).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_games_at_once_than_cores_is_warned_about() {
        assert_eq!(oversubscription(2, 2), None);
        assert_eq!(oversubscription(1, 4), None);
        let warning = oversubscription(8, 2).unwrap();
        assert!(warning.contains("8 games at once (--concurrency) on 2 cores"), "{warning}");
        assert!(warning.contains("--concurrency 2 or less"), "{warning}");
        assert!(oversubscription(3, 1).unwrap().contains("on 1 core available"));
    }
}
