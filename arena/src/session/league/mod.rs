//! A league's life as the library runs it (`arena league` parses its flags
//! and calls [`run`]): a new league resolved from its file and flags, or
//! one resumed from its output directory with its field changed; played to
//! its end, round by round for a learning or Swiss league, taking in the
//! changes queued for it while it runs.
//!
//! - [`mod@resume`]: a league read back, its queued changes taken in;
//! - [`mod@demo`]: the demo league;
//! - [`mod@play`]: what is left of a league played, and its closing lines;
//! - [`mod@learn`]: a learning or Swiss league played round by round;
//! - [`rounds`]: the next round of a learning or Swiss league;
//! - [`notes`]: what a change of the field does, and who retired.

mod demo;
mod learn;
mod notes;
mod play;
mod resume;
mod rounds;

use crate::bot::cpus::cores;
use crate::league::config::{LeagueConfig, Overrides};
use crate::run::execute::{Earlier, ReportRequest};
use crate::session::exit::{self, Failure};
use crate::session::{current_dir, random_seed};
use crate::store::output::OutDir;
use crate::store::record::GameSummary;
use crate::terminal::console::errln;
use demo::demo;
use learn::learn;
use play::play;
use resume::resume;
use std::path::{Path, PathBuf};

/// What `arena league` asks of a league.
#[derive(Debug, Clone, Default)]
pub struct LeagueRequest {
    /// The settings given: `--config`, `--bot`, `--games`, ….
    pub overrides: Overrides,
    /// `--resume DIR`: the league to continue.
    pub resume: Option<PathBuf>,
    /// `--retire NAME`, in order: the bots that retire from a resumed league.
    pub retire: Vec<String>,
    /// `--fail-on-fault`: any fault of a bot makes the exit status 5.
    pub fail_on_fault: bool,
    /// `--report`: the standings also written as these reports.
    pub reports: Vec<ReportRequest>,
}

impl LeagueRequest {
    /// Whether no league is named: the demo league is run.
    fn is_empty(&self) -> bool {
        self.overrides.config.is_none() && self.resume.is_none() && self.overrides.bots.is_empty()
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
pub fn run(args: LeagueRequest) -> Result<i32, Failure> {
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
            LeagueConfig::resolve(&args.overrides.clone(), &cwd, random_seed(), cores())?
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
    if prepared.config.kept.format.has_rounds() {
        return learn(prepared, &args, &cwd);
    }
    loop {
        let played = play(prepared, false, args.fail_on_fault)?;
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
    args: &LeagueRequest,
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
