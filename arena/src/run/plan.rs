//! One plan for every run: a [`Run`] built by [`Run::new`] from what a
//! command resolved (who plays, under which limits, which game, which of its
//! games, where to write), with the parts in which `match`, `league` and
//! `sprt` differ set by the methods that follow it.

use crate::bot::spec::BotSpec;
use crate::bot::start_failures::GiveUp;
use crate::engine::spec::Engine;
use crate::run::execute::{Earlier, ReportRequest, Run, Titles};
use crate::run::table::{Limits, Resolved};
use crate::schedule::{Schedule, Selection};
use crate::store::output::OutDir;
use crate::store::record::GameSummary;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

/// Who plays a run and under what: the part of a command's settings that
/// every run has.
pub struct Entrants {
    /// The bots.
    pub bots: Vec<BotSpec>,
    /// The seed of the schedule.
    pub seed: u64,
    /// Process limits.
    pub limits: Limits,
    /// Games at once.
    pub concurrency: usize,
    /// Files no sandboxed bot sees besides the output directory.
    pub secrets: Vec<PathBuf>,
}

/// The game a run plays: its engine, the variant in force, and its games
/// set up in advance (`--deals`), by deal number, if any.
pub struct Staged {
    /// The game's engine.
    pub engine: Arc<Engine>,
    /// The variant in force.
    pub variant: Resolved,
    /// Games set up in advance.
    pub setups: Option<Vec<Value>>,
}

impl From<(Arc<Engine>, Resolved, Option<Vec<Value>>)> for Staged {
    fn from((engine, variant, setups): (Arc<Engine>, Resolved, Option<Vec<Value>>)) -> Staged {
        Staged { engine, variant, setups }
    }
}

impl Run {
    /// The run of `selection` of `schedule` by `entrants` at the game
    /// `staged`, written to `out` if anywhere: nothing played before, no extra
    /// reports, a bot that keeps failing to start forfeiting the rest of its
    /// games, played to its end, its standings printed under no title.
    pub fn new(
        entrants: Entrants,
        staged: Staged,
        schedule: Schedule,
        selection: Selection,
        out: Option<OutDir>,
    ) -> Run {
        let Entrants { bots, seed, limits, concurrency, secrets } = entrants;
        let Staged { engine, variant, setups } = staged;
        Run {
            bots,
            engine,
            variant,
            seed,
            limits,
            schedule,
            selection,
            concurrency,
            played: Vec::new(),
            out,
            reports: Vec::new(),
            setups,
            secrets,
            give_up: GiveUp::ForfeitRest,
            stops_early: false,
            quiet: false,
            earlier: Earlier::default(),
            titles: Titles::default(),
        }
    }

    /// This run, after the games `played` by an earlier one (resumed).
    pub fn after(self, played: Vec<GameSummary>) -> Run {
        Run { played, ..self }
    }

    /// This run, writing the standings as `reports` too at its end.
    pub fn reporting(self, reports: Vec<ReportRequest>) -> Run {
        Run { reports, ..self }
    }

    /// This run, stopping as soon as it has its answer (see
    /// [`Run::stops_early`]) and at a bot that keeps failing to start.
    pub fn until_answered(self) -> Run {
        Run { stops_early: true, give_up: GiveUp::StopRun, ..self }
    }

    /// This run as one of several of one command: `quiet` at its end when
    /// another follows, after the runs `earlier`, its standings under `titles`.
    pub fn within(self, quiet: bool, earlier: Earlier, titles: Titles) -> Run {
        Run { quiet, earlier, titles, ..self }
    }
}
