//! A league read back from its output directory, and the changes queued
//! for it taken in (or queued for the arena that runs it).

use super::notes::entering_bots_play;
use super::{LeagueRequest, Prepared};
use crate::bot::spec::BotSpec;
use crate::league::config::{LeagueConfig, SettingProblem, entering_bots};
use crate::league::queued::{self, Request};
use crate::league::{full_schedule, utc};
use crate::run::execute::Earlier;
use crate::schedule::{Format, Seating};
use crate::session::exit::{Failure, internal, usage};
use crate::store::output::{self, LEAGUE, OutDir, read_config};
use crate::terminal::console::errln;
use crate::terminal::untrusted::escape;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Reads a league back from its output directory, takes in the changes
/// queued there, then (with `own`) changes its field as `--bot` and
/// `--retire` say. While another arena runs the league, that change is
/// checked and queued for it instead, and there is nothing to run (`None`).
pub(super) fn resume(dir: &Path, args: &LeagueRequest, cwd: &Path, own: bool) -> Result<Option<Prepared>, Failure> {
    let load = || -> Result<LeagueConfig, Failure> {
        let mut config: LeagueConfig = read_config(dir, LEAGUE, "a league configuration")?;
        config.resume_in(dir, args.overrides.concurrency, args.overrides.cpus_per_game)?;
        Ok(config)
    };
    let mut config = load()?;
    let flags = [&args.overrides.bots, &args.overrides.bot_dirs, &args.overrides.bot_envs, &args.retire];
    let request = match own && flags.iter().any(|given| !given.is_empty()) {
        true => Some(Request {
            at: now(),
            entering: entering_bots(&args.overrides.clone(), cwd)?,
            retiring: args.retire.clone(),
        }),
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
    let format = config.kept.format;
    let refused = |flag: &str, problem: SettingProblem| usage(format!("--{flag}: {problem}"));
    if let Some(budget) = args.overrides.budget {
        if format != Format::Learning {
            return Err(refused("budget", SettingProblem::BudgetNotLearning { format }));
        }
        config.kept.budget = Some(budget);
    }
    if let Some(rounds) = args.overrides.swiss_rounds {
        if format != Format::Swiss {
            return Err(refused("swiss-rounds", SettingProblem::RoundsNotSwiss { format }));
        }
        config.kept.swiss_rounds = Some(rounds);
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
pub(super) fn queue_for_running(
    dir: &Path,
    mut config: LeagueConfig,
    request: &Request,
    pid: i32,
) -> Result<(), Failure> {
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
pub(super) fn take_queued(dir: &Path, config: &mut LeagueConfig) -> Result<Vec<PathBuf>, Failure> {
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
pub(super) fn changed(config: &LeagueConfig, request: &Request, teams: &[Vec<usize>]) -> Result<LeagueConfig, Failure> {
    let entering = request.entering.iter().map(BotSpec::revalidated).collect::<Result<Vec<_>, _>>()?;
    let mut grown = config.clone();
    grown.grow(entering, &request.retiring, request.at.clone())?;
    if grown.history.len() != config.history.len() {
        let schedule = full_schedule(&grown, teams, Seating::EveryOrder)?;
        entering_bots_play(&grown, &schedule, teams.len())?;
        grown.kept.sandbox.check(&grown.bots, &grown.private())?;
    }
    Ok(grown)
}

/// The sides of the game of a league, as its engine resolves its variant.
pub(super) fn teams_of(config: &LeagueConfig) -> Result<Vec<Vec<usize>>, Failure> {
    Ok(config.clone().open_engine()?.1.teams)
}

/// The time now, as [`utc`] writes it.
pub(super) fn now() -> String {
    utc(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs()))
}

/// Writes the configuration of a league to its output directory.
pub(super) fn write_league(out: &OutDir, config: &LeagueConfig) -> Result<(), Failure> {
    let json = serde_json::to_string_pretty(config).expect("configurations serialize");
    out.write_config(&json).map_err(|e| internal(format!("cannot write {LEAGUE}: {e}")))
}
