//! Running a whole match: worker threads play games from the schedule while
//! the calling thread records each finished game as it arrives.
//!
//! Each worker is one thread with a single-threaded async runtime; it plays
//! its share of the concurrent games and keeps its own processes, so a
//! game's bot processes are always driven from the same thread. Each of its
//! game slots plays units of the run's plan (see [`crate::schedule::lanes`])
//! from start to end, lane after lane: the processes of a lane are ended
//! after its last game, and the next lane of the unit begins once they are
//! gone. Processes for the lanes to come are started ahead, in the
//! background, as long before they are needed as their bot takes to start
//! (see [`Pace`]), so that a bot that is slow to start costs its start-up
//! once, not once a lane.
//!
//! A bot that plays many games at once in one process (a session, see
//! [`crate::bot::session`]) has a slot play the games of its lanes several
//! at once: after each lane's first game, up to as many as the bot plays at
//! once, at most the run's concurrency, each on an engine link of its own,
//! the session's process playing them all and a plain bot a process for
//! each game played at once (its *copy*). Fewer slots then play (see
//! [`Layout`]), so that no more games are in flight than the concurrency,
//! and the run is planned for them, so that each has lanes long enough to
//! keep as many games in flight: before any game, the first slot's worker
//! greets the processes of the first lane, whose bots say how many games
//! each plays at once (see [`first_lane`]), and plans the run; the other
//! workers wait for it, and the slots beyond those needed play no unit.

use crate::bot::fault::FaultKind;
use crate::bot::placement::Placement;
use crate::bot::pool::Role;
use crate::bot::pool::{self, Pool};
use crate::bot::{cpus, orphans};
use crate::engine::link::Link;
use crate::run::dealer::{Ahead, Dealer, Dealt};
use crate::run::first_lane;
use crate::run::play::{Unplayable, play_game, start_ahead};
use crate::run::table::Table;
use crate::schedule::lanes::{Lane, Plan, Restart};
use crate::schedule::{Schedule, Selection};
use crate::stats::standings::Standings;
use crate::stats::standings::whole_deals::WholeDeals;
use crate::store::output::OutDir;
use crate::store::record::GameSummary;
use futures_util::future::join_all;
use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinSet;

/// A finished game, as a worker hands it over.
pub struct Finished {
    /// The game record, serialized (one line without the newline); empty
    /// when the run writes no records.
    pub line: String,
    /// What standings need.
    pub summary: GameSummary,
    /// How many decisions the bots made.
    pub decisions: usize,
    /// The least each bot left on its clock after a move, in microseconds
    /// (empty without a game clock).
    pub least_clock: BTreeMap<String, u64>,
}

/// The games of a run.
pub struct Work {
    /// The whole schedule.
    pub schedule: Schedule,
    /// The games of it to play.
    pub selection: Selection,
    /// How many to play at once.
    pub concurrency: usize,
    /// Whether the run may stop on a finished game (an SPRT at its verdict):
    /// its units are then small, no game slot plays a unit more than the
    /// slots' number ahead of the oldest unit not yet over, and the workers
    /// never run more than one game each ahead of the games counted, so that
    /// few games are played and not counted when it stops.
    pub stops_early: bool,
}

/// Whether a run goes on after a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Keep starting games.
    Continue,
    /// Start no new game; the games in flight finish and are counted.
    Stop,
}

/// What a run produced.
pub struct MatchReport {
    /// Standings over all games counted (those of earlier runs included):
    /// for a run that was stopped, over its whole deals only.
    pub standings: Standings,
    /// Finished games left out of the standings of a stopped run, their
    /// deals unfinished (they are in the records, and a resumed run counts them).
    pub unfinished: u64,
    /// Games finished in this run.
    pub games: u64,
    /// Decisions made by bots in them.
    pub decisions: u64,
    /// Wall-clock time of the whole match.
    pub elapsed: Duration,
    /// Whether the match was stopped before its end.
    pub interrupted: bool,
    /// The least each bot left on its clock after a move in this run, in
    /// microseconds by name (empty without a game clock; filled in by
    /// [`crate::run::execute::execute_with`]).
    pub least_clock: BTreeMap<String, u64>,
}

/// How long a game that a bot's death ended is held before it is recorded.
/// A scheduler stopping the arena and its bots at once (`kill 0`, a control
/// group's kill, Slurm's `scancel`) may kill a bot a moment before the
/// arena's own signal arrives; if the run stops within this time, the game
/// is taken as cut short by the stop, not as the bot's fault, and is played
/// again on resume.
const STOP_GRACE: Duration = Duration::from_millis(250);

/// Whether a fault of `kind` can be what a bot's death from outside looks
/// like: the process exited, or closed a pipe by exiting.
fn ends_by_death(kind: FaultKind) -> bool {
    matches!(kind, FaultKind::Exited | FaultKind::ClosedStdout | FaultKind::ClosedStdin)
}

/// Why a run's games stopped before their end.
#[derive(Debug)]
pub enum GamesError {
    /// A game could not be played, for a reason that is not a bot's doing.
    Unplayable(Unplayable),
    /// Finished games could not be appended to the games file.
    Unwritten {
        /// The games file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The output directory could not be finished.
    Unfinished(std::io::Error),
}

impl fmt::Display for GamesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let explain = crate::bot::signals::explain_write_error;
        match self {
            GamesError::Unplayable(Unplayable { why, .. }) => f.write_str(why),
            GamesError::Unwritten { path, error } => {
                write!(f, "cannot append to {}: {}", path.display(), explain(error))
            }
            GamesError::Unfinished(error) => write!(f, "cannot finish the output directory: {}", explain(error)),
        }
    }
}

impl std::error::Error for GamesError {}

/// Plays the games of `schedule` in `selection` with up to `concurrency` games at once,
/// after the games `played` before, adding each finished game to `standings`
/// once it is on disk in `out` and its deal is whole (see [`WholeDeals`]).
///
/// `observe` sees every finished game as it is counted; when it returns
/// [`Flow::Stop`], no game starts after it, but the games in flight finish
/// and are counted. Setting `cancel` stops the run: no game starts after it,
/// and games still in flight are dropped (the caller kills their processes
/// through the registry). A game that cannot be played for a reason that is
/// not a bot's doing ([`Unplayable`]), or games that cannot be written to
/// `out`, stop the run the same way, and are the error returned.
pub fn run_games(
    table: Table,
    work: Work,
    standings: Standings,
    played: Vec<GameSummary>,
    mut out: Option<OutDir>,
    cancel: Arc<AtomicBool>,
    mut observe: impl FnMut(&Finished, &Standings) -> Flow,
) -> Result<MatchReport, GamesError> {
    let started = Instant::now();
    orphans::adopt();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Work { schedule, selection, concurrency, stops_early } = work;
    let concurrency = concurrency.max(1).min(selection.count().max(1) as usize);
    let threads = concurrency.min(cores);
    let setups = table.setups.as_ref().map(|setups| setups.len() as u64);
    let sketch = Plan::new(schedule, table.limits.restart, (concurrency, 1), setups, stops_early);
    let ahead = Ahead { play: concurrency as u64, take: (concurrency * (1 + QUEUED_UNITS)) as u64 };
    let dealer = Dealer::new(stops_early.then_some(ahead));
    let shared = Arc::new(Shared {
        layout: Layout::default(),
        table,
        sketch,
        setups,
        selection,
        dealer,
        cancel: Arc::clone(&cancel),
        stop: AtomicBool::new(false),
        failure: Mutex::new(None),
        keep_records: out.is_some(),
        slots: concurrency,
        stops_early,
    });
    // Bounded, so that workers wait (without blocking their threads) when
    // the disk falls behind, instead of piling finished games up in memory.
    let queue = if stops_early { concurrency } else { (2 * concurrency).max(16) };
    let (tx, rx) = mpsc::channel::<Finished>(queue);
    let mut games = 0;
    let mut decisions = 0;
    let watch = orphans::watch(&shared.table.registry);
    let (schedule, selection) = (shared.sketch.schedule(), &shared.selection);
    let deal_games = |id| schedule.same_deal(id).into_iter().filter(|&id| selection.contains(id)).count() as u64;
    let mut counted = WholeDeals::new(standings, deal_games, played);
    let flights = crate::run::flights::watched().filter(|_| out.is_some());
    if let (Some(flights), Some(out)) = (flights, out.as_ref()) {
        flights.records_from(out.end());
        flights.ask();
        flights.counted(counted.standings());
    }
    std::thread::scope(|scope| {
        // Owned by this closure, so that if recording panics, unwinding drops
        // the receiver and the workers stop (their sends fail) instead of
        // blocking for ever with their bots alive.
        let mut rx = rx;
        for worker in 0..threads {
            // The slots in turn, so that the first few, which alone play when
            // each plays many games at once, are on workers of their own.
            let slots = (worker..concurrency).step_by(threads).collect();
            let (shared, tx) = (Arc::clone(&shared), tx.clone());
            scope.spawn(move || run_worker(shared, tx, slots, (worker, threads)));
        }
        drop(tx);
        while let Some(first) = rx.blocking_recv() {
            // Group commit: everything that finished meanwhile goes to disk with one sync.
            let batch: Vec<Finished> =
                std::iter::once(first).chain(std::iter::from_fn(|| rx.try_recv().ok())).collect();
            if shared.failed() {
                continue;
            }
            if let Some(out) = out.as_mut()
                && let Err(e) = out.append(batch.iter().map(|f| (f.summary.id, f.line.as_str())))
            {
                // Without a place to record games there is no point going on.
                shared.fail(GamesError::Unwritten { path: out.path().join(crate::store::output::GAMES), error: e });
                continue;
            }
            for finished in &batch {
                counted.add(&finished.summary);
                games += 1;
                decisions += finished.decisions as u64;
                if observe(finished, counted.standings()) == Flow::Stop {
                    shared.stop.store(true, Ordering::SeqCst);
                }
            }
            if let (Some(flights), Some(out)) = (flights, out.as_ref()) {
                flights.counted(counted.standings());
                let spans = out.last_spans(batch.len());
                flights.recorded(batch.into_iter().map(|finished| finished.summary).zip(spans));
            }
        }
    });
    // Every bot process is gone now; what may be left is what escaped them.
    drop(watch);
    orphans::sweep(&shared.table.registry);
    if let Some(e) = shared.failure.lock().expect("failure lock").take() {
        return Err(e);
    }
    let interrupted = cancel.load(Ordering::SeqCst);
    let unfinished = if interrupted { counted.unfinished() } else { 0 };
    let standings = counted.into_standings(!interrupted);
    if let Some(out) = out {
        out.finish(&standings.to_json(shared.table.engine.name(), shared.table.seed))
            .map_err(GamesError::Unfinished)?;
    }
    Ok(MatchReport {
        standings,
        unfinished,
        games,
        decisions,
        elapsed: started.elapsed(),
        interrupted,
        least_clock: BTreeMap::new(),
    })
}

/// How many of a run's game slots play units (and so how many games each
/// plays at once in a lane of a bot that plays many in one process), and
/// the plan made for them: settled by the worker of the first slot, once
/// the bots of the first lane have said how many games each plays at once
/// (see [`crate::run::first_lane`]).
#[derive(Default)]
struct Layout {
    /// The plan, and the slots that play units.
    planned: OnceLock<(Plan, usize)>,
    settled: Notify,
}

/// What every worker of a run shares.
struct Shared {
    layout: Layout,
    table: Table,
    /// The run's games in units and lanes as if every bot played one game
    /// at a time: its first lane is greeted before the run is planned.
    sketch: Plan,
    /// How many setups the deals file has, if the games are set up from one.
    setups: Option<u64>,
    selection: Selection,
    /// Which unit to start next.
    dealer: Dealer,
    cancel: Arc<AtomicBool>,
    /// Set when no new game is to start, the games in flight still counting.
    stop: AtomicBool,
    /// Why the run failed, if it did: set once, and the run is cancelled.
    failure: Mutex<Option<GamesError>>,
    /// Whether finished games are serialized (only when they are written).
    keep_records: bool,
    /// How many games are played at once.
    slots: usize,
    /// Whether the run may stop on a finished game (see [`Work::stops_early`]).
    stops_early: bool,
}

impl Shared {
    /// Stops the run because of `why` (the first reason given is kept): no
    /// game starts, games in flight are dropped and their bots killed.
    fn fail(&self, why: GamesError) {
        self.failure.lock().expect("failure lock").get_or_insert(why);
        self.cancel.store(true, Ordering::SeqCst);
        self.table.registry.kill_all();
    }

    /// Whether the run failed.
    fn failed(&self) -> bool {
        self.failure.lock().expect("failure lock").is_some()
    }

    /// The most games of a lane played at once: of its bots, the most games
    /// one plays at once in one process, at most as many as the run's
    /// concurrency allows each active slot.
    fn width(&self, bots: impl Iterator<Item = usize>) -> usize {
        let most = bots.map(|bot| self.table.games(bot)).max().unwrap_or(1);
        most.min(self.slots.div_ceil(self.active()))
    }

    /// The run's plan (once settled: see [`Layout`]).
    fn plan(&self) -> &Plan {
        &self.layout.planned.get().expect("the run is planned before its games").0
    }

    /// How many slots play units (once settled).
    fn active(&self) -> usize {
        self.layout.planned.get().map_or(self.slots, |planned| planned.1).max(1)
    }

    /// Greets a process of each bot of the sketch's first lane in `pool`,
    /// then plans the run for the slots that play, from what the bots said: as
    /// many slots as keep `slots` games in flight when each plays as many at
    /// once as the bot that plays most. Hands the greeted processes to the
    /// plan's first unit, which it returns for the first slot. Once.
    async fn settle(&self, pool: &Pool) -> Option<Dealt> {
        let sketched = Dealer::new(None).next_now(&self.sketch, &self.selection, 0);
        let lane = sketched.as_ref().and_then(|first| first.unit.lanes.first());
        let mut roles =
            lane.map(|lane| first_lane::roles(lane, self.sketch.schedule(), &self.table)).unwrap_or_default();
        // One process of each bot says how it plays; the lane's others start with its first game.
        let mut heard = std::collections::BTreeSet::new();
        roles.retain(|&(bot, _)| heard.insert(bot));
        let greeted = first_lane::greet(&self.table, pool, &roles).await;
        let bots = 0..self.table.bots.len();
        let most = bots.map(|bot| self.table.games(bot)).max().unwrap_or(1).clamp(1, self.slots);
        let active = self.slots.div_ceil(most);
        let schedule = self.sketch.schedule().clone();
        let plan = Plan::new(schedule, self.table.limits.restart, (active, most), self.setups, self.stops_early);
        // Taken before any other slot may take one.
        let first = self.dealer.next(&plan, &self.selection).await;
        let lane = first.as_ref().and_then(|first| first.unit.lanes.first());
        first_lane::hand_over(&self.table, pool, greeted, lane, plan.schedule()).await;
        let _ = self.layout.planned.set((plan, active));
        self.layout.settled.notify_waiters();
        first
    }

    /// Waits until the run is planned.
    async fn planned(&self) {
        loop {
            let settled = self.layout.settled.notified();
            tokio::pin!(settled);
            settled.as_mut().enable();
            if self.layout.planned.get().is_some() {
                return;
            }
            settled.await;
        }
    }
}

/// One worker thread, `worker` of `workers`: the game slots `slots` (their
/// numbers among the run's), it and its processes on its CPUs if pinned
/// (see [`cpus::for_worker`]; once the run is planned, those of the workers
/// whose slots play no unit too: [`cpus::for_active_worker`]).
fn run_worker(shared: Arc<Shared>, tx: mpsc::Sender<Finished>, slots: Vec<usize>, (worker, workers): (usize, usize)) {
    let per_game = shared.table.limits.cpus_per_game;
    let cpus = cpus::for_worker(worker, per_game);
    if let Some(cpus) = &cpus {
        cpus::pin_this_thread(cpus);
    }
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a single-threaded runtime starts");
    runtime.block_on(async move {
        let cap = |plan: &Plan| pool::cap(slots.len(), plan.lane_width(), shared.table.seats());
        // With one game, the thread has nothing else to do while it waits for a bot.
        let placement = Placement { cpus: cpus.clone(), in_place: slots.len() == 1, ..Placement::default() };
        let pool = Arc::new(Pool::new(placement.clone(), cap(&shared.sketch), shared.table.limits.exit_grace));
        // The first slot's worker plans the run; the others wait for it.
        let mut first = match slots.first() {
            Some(0) => shared.settle(&pool).await,
            _ => {
                shared.planned().await;
                None
            }
        };
        pool.recap(cap(shared.plan()));
        let wider = cpus::for_active_worker(worker, shared.active(), workers, per_game);
        let placement = match wider != cpus {
            true => {
                if let Some(cpus) = &wider {
                    cpus::pin_this_thread(cpus);
                }
                pool.pin_to(wider);
                pool.placement()
            }
            false => placement,
        };
        let mut tasks = tokio::task::JoinSet::new();
        for _ in slots.into_iter().take_while(|&index| index < shared.active()) {
            let (shared, tx, pool, placement) = (Arc::clone(&shared), tx.clone(), Arc::clone(&pool), placement.clone());
            let first = first.take();
            tasks.spawn(async move {
                // This slot's engine: in process, or a process of its own on the worker's CPUs.
                let mut link = match shared.table.engine.connect(&shared.table.registry, placement.clone()).await {
                    Ok(link) => link,
                    Err(e) => {
                        if let Some(first) = &first {
                            shared.dealer.done(first);
                        }
                        fail_unless_stopped(&shared, Unplayable::from(e)).await;
                        return;
                    }
                };
                let mut slot = Slot {
                    shared: &shared,
                    pool: &pool,
                    tx: &tx,
                    pace: Pace::default(),
                    ending: Vec::new(),
                    placement,
                    links: Vec::new(),
                };
                slot.play(link.as_mut(), first).await;
                slot.wait_ended().await;
                let links = std::iter::once(link).chain(std::mem::take(&mut slot.links));
                for link in links {
                    if !shared.cancel.load(Ordering::SeqCst)
                        && let Err(e) = link.close().await
                    {
                        // Every game it played is recorded and checked; only its exit is late.
                        crate::terminal::console::errln!("warning: {e}");
                    }
                }
            });
        }
        while tasks.join_next().await.is_some() {}
        if shared.cancel.load(Ordering::SeqCst) {
            pool.kill_all().await;
        } else {
            pool.close_all().await;
        }
    });
}

/// Stops the run because a game could not be played (`why`: the engine
/// failed), unless the run was stopped: a signal to the arena kills every
/// process it started, engines included, and an engine killed by the stop
/// (or, as a bot's death, a moment before the arena's own signal arrives:
/// [`STOP_GRACE`]) is nobody's fault.
async fn fail_unless_stopped(shared: &Shared, why: Unplayable) {
    if !shared.cancel.load(Ordering::SeqCst) {
        tokio::time::sleep(STOP_GRACE).await;
    }
    if !shared.cancel.load(Ordering::SeqCst) {
        shared.fail(GamesError::Unplayable(why));
    }
}

/// Whether the run takes no more games: stopped, cancelled or failed.
fn halted(shared: &Shared) -> bool {
    shared.cancel.load(Ordering::SeqCst) || shared.stop.load(Ordering::SeqCst)
}

/// One game slot of a worker: plays units, lane after lane.
struct Slot<'a> {
    shared: &'a Shared,
    pool: &'a Pool,
    tx: &'a mpsc::Sender<Finished>,
    pace: Pace,
    /// Processes of lanes played to their end, being ended.
    ending: Vec<JoinSet<()>>,
    /// Where its engine links run.
    placement: Placement,
    /// Its engine links beyond the first, for the games of a lane played at once.
    links: Vec<Box<dyn Link>>,
}

/// Why a slot stops.
struct Halt;

/// How many lanes ahead a slot looks for processes to start.
const LOOK_AHEAD: usize = 32;
/// How many units a slot takes ahead of the one it plays, when they are free.
const QUEUED_UNITS: usize = 2;

/// A unit a slot plays, with the processes each of its lanes needs.
struct InPlay {
    dealt: Dealt,
    /// For each lane, its (bot, kept seat) pairs.
    roles: Vec<Vec<(usize, usize)>>,
    /// Units played with it, their lanes joined to its own (see [`InPlay::join`]).
    joined: Vec<Dealt>,
}

impl InPlay {
    fn new(dealt: Dealt, schedule: &Schedule, table: &Table) -> InPlay {
        let roles = InPlay::roles(&dealt, schedule, table);
        InPlay { dealt, roles, joined: Vec::new() }
    }

    /// Plays `other`'s lanes as part of its own, lane by lane (the `i`th
    /// of each in one lane), so that a bot playing many games at once in one
    /// process has enough of them. Fair as each unit alone: the units' deals
    /// are apart, so a lane still meets each deal once, and each lane begins
    /// once the processes of the lanes before it, of every unit, are gone.
    fn join(&mut self, mut other: InPlay, schedule: &Schedule, table: &Table) {
        let lanes = std::mem::take(&mut other.dealt.unit.lanes);
        for (at, lane) in lanes.into_iter().enumerate() {
            match self.dealt.unit.lanes.get_mut(at) {
                Some(mine) => mine.games.extend(lane.games),
                None => self.dealt.unit.lanes.push(lane),
            }
        }
        self.joined.push(other.dealt);
        self.joined.append(&mut other.joined);
        self.roles = InPlay::roles(&self.dealt, schedule, table);
    }

    /// For each lane of `dealt`, its (bot, seat) pairs.
    fn roles(dealt: &Dealt, schedule: &Schedule, table: &Table) -> Vec<Vec<(usize, usize)>> {
        dealt.unit.lanes.iter().map(|lane| first_lane::roles(lane, schedule, table)).collect()
    }

    /// The lanes from lane `from` on, each with its roles.
    fn lanes_from(&self, from: usize) -> impl Iterator<Item = (&Lane, &[(usize, usize)])> {
        self.dealt.unit.lanes.iter().zip(&self.roles).skip(from).map(|(lane, roles)| (lane, roles.as_slice()))
    }
}

impl Slot<'_> {
    /// Plays units, `first` first if given, until there are none left or the run halts.
    async fn play(&mut self, link: &mut dyn crate::engine::link::Link, first: Option<Dealt>) {
        let shared = self.shared;
        let schedule = shared.plan().schedule();
        // The units after the one in play, taken while they are free, so that
        // their processes may be started ahead.
        let mut queued: VecDeque<InPlay> =
            first.into_iter().map(|first| InPlay::new(first, schedule, &shared.table)).collect();
        loop {
            if halted(shared) {
                break;
            }
            if queued.is_empty() {
                match shared.dealer.next(shared.plan(), &shared.selection).await {
                    Some(dealt) => queued.push_back(InPlay::new(dealt, schedule, &shared.table)),
                    None => break,
                }
            }
            // The one to play now and up to QUEUED_UNITS after it.
            while shared.table.limits.restart != Restart::Off && queued.len() <= QUEUED_UNITS {
                // Never a unit another game slot would otherwise wait for.
                match shared.dealer.next_now(shared.plan(), &shared.selection, shared.active()) {
                    Some(next) => queued.push_back(InPlay::new(next, schedule, &shared.table)),
                    None => break,
                }
            }
            // In the order of their places, so that the oldest never waits for its turn for ever.
            queued.make_contiguous().sort_by_key(|unit| unit.dealt.seq);
            let mut unit = queued.pop_front().expect("a unit");
            shared.dealer.turn(&unit.dealt).await;
            // Lanes long enough for a bot that plays many games at once (not in a run that may stop early).
            if !shared.stops_early {
                let width = shared.width(unit.roles.iter().flatten().map(|&(bot, _)| bot));
                while width > 1 && unit.dealt.unit.lanes.iter().map(|lane| lane.games.len()).min().unwrap_or(0) <= width
                {
                    let next = queued.pop_front().or_else(|| {
                        // Leaving a unit for each other slot that plays.
                        let next = shared.dealer.next_now(shared.plan(), &shared.selection, shared.active() - 1);
                        next.map(|next| InPlay::new(next, schedule, &shared.table))
                    });
                    let Some(next) = next else { break };
                    // Processes started ahead for its own lanes play none: they are ended.
                    for lane in &next.dealt.unit.lanes {
                        self.ending.push(self.pool.end_lane(lane.key));
                    }
                    unit.join(next, schedule, &shared.table);
                }
            }
            let played = self.play_unit(link, &unit, &queued).await;
            // The unit's deals are free once its last processes are gone.
            if let Some(last) = self.ending.last_mut() {
                while last.join_next().await.is_some() {}
            }
            shared.dealer.done(&unit.dealt);
            for joined in &unit.joined {
                shared.dealer.done(joined);
            }
            if played.is_err() {
                break;
            }
        }
        for unit in queued {
            shared.dealer.done(&unit.dealt);
            for joined in &unit.joined {
                shared.dealer.done(joined);
            }
        }
    }

    /// Plays `unit` lane after lane, starting ahead the processes of its
    /// later lanes and of the units `queued` after it.
    async fn play_unit(
        &mut self,
        link: &mut dyn crate::engine::link::Link,
        unit: &InPlay,
        queued: &VecDeque<InPlay>,
    ) -> Result<(), Halt> {
        let shared = self.shared;
        let kept = shared.table.limits.restart == Restart::Off;
        for (at, lane) in unit.dealt.unit.lanes.iter().enumerate() {
            // The lane before, which met the same deals, is gone first.
            if let Some(mut before) = self.ending.pop() {
                while before.join_next().await.is_some() {}
            }
            for (played, &id) in lane.games.iter().enumerate() {
                if halted(shared) {
                    return Err(Halt);
                }
                // After its first game, which has greeted its bots, a lane may be played several games at once.
                let width = shared.width(unit.roles[at].iter().map(|&(bot, _)| bot));
                if played > 0 && width > 1 {
                    self.play_at_once(link, lane.key, &lane.games[played..], width).await?;
                    break;
                }
                if !kept {
                    // This lane's processes not started yet (a fault's, or in a lane
                    // that spans groups, a seat first met later), then the next lanes'.
                    let later = unit.lanes_from(at + 1).chain(queued.iter().flat_map(|next| next.lanes_from(0)));
                    let this_unit = unit.dealt.unit.lanes.len() - at;
                    self.start_ahead(lane.games.len() - played, this_unit, unit.lanes_from(at).take(1), later);
                }
                let spec = shared.plan().schedule().get(id).expect("an id of the schedule");
                let started = Instant::now();
                let played = play_game(&shared.table, self.pool, link, &spec, (lane.key, 0)).await;
                self.pace.note(started.elapsed());
                finish(shared, self.tx, played).await?;
            }
            if !kept {
                self.ending.push(self.pool.end_lane(lane.key));
            }
        }
        Ok(())
    }

    /// Starts the processes of the lane in play (`this`, `left` games of it
    /// to play, `this_unit` lanes of its unit from it on) that are missing,
    /// and those of the lanes after it (`later`)
    /// that their bots would not have started by the time the games before
    /// them are played (the starts of a lane share its worker's CPUs, so
    /// they add up), as far as the pool has room.
    fn start_ahead<'l>(
        &self,
        left: usize,
        this_unit: usize,
        this: impl Iterator<Item = (&'l Lane, &'l [(usize, usize)])>,
        later: impl Iterator<Item = (&'l Lane, &'l [(usize, usize)])>,
    ) {
        let table = &self.shared.table;
        let keep = self.shared.plan().lane_width();
        let mut before = 0;
        for (at, (lane, roles)) in this.chain(later).take(LOOK_AHEAD).enumerate() {
            if at == 1 {
                before = left;
            }
            let roles = roles.iter().map(|&(bot, seat)| Role { bot, seat, lane: lane.key, copy: 0 });
            let missing: Vec<Role> = roles.filter(|&role| !self.pool.holds(role)).collect();
            let wait = self.pace.until(before);
            let startups: Vec<Option<Duration>> = missing.iter().map(|role| table.startup(role.bot)).collect();
            for (&role, own) in missing.iter().zip(&startups) {
                // Those of a lane start together, on its worker's CPUs: a start-up
                // takes its own time and at most as much of each other's. A bot not
                // yet seen to start may be slow: the lanes of its first unit start at once.
                let takes = own.map(|own| startups.iter().flatten().map(|&other| other.min(own)).sum());
                if takes.map_or(at < this_unit, |takes| wait <= Pace::lead(takes)) {
                    start_ahead(table, self.pool, role, keep);
                }
            }
            if at > 0 {
                before += lane.games.len();
            }
        }
    }

    /// Plays `games` of lane `lane`, `width` at once, each on an engine
    /// link of its own (`link`, then the slot's others, connected as needed).
    async fn play_at_once(&mut self, link: &mut dyn Link, lane: u64, games: &[u64], width: usize) -> Result<(), Halt> {
        let shared = self.shared;
        while self.links.len() + 1 < width {
            match shared.table.engine.connect(&shared.table.registry, self.placement.clone()).await {
                Ok(more) => self.links.push(more),
                Err(e) => {
                    fail_unless_stopped(shared, Unplayable::from(e)).await;
                    return Err(Halt);
                }
            }
        }
        let (pool, tx, next) = (self.pool, self.tx, AtomicUsize::new(0));
        let mut links = vec![link];
        for more in &mut self.links {
            links.push(more.as_mut());
        }
        let copies = links.into_iter().take(width).enumerate().map(|(copy, link)| {
            let next = &next;
            async move {
                loop {
                    let at = next.fetch_add(1, Ordering::SeqCst);
                    if at >= games.len() || halted(shared) {
                        return Ok(());
                    }
                    let spec = shared.plan().schedule().get(games[at]).expect("an id of the schedule");
                    let played = play_game(&shared.table, pool, link, &spec, (lane, copy)).await;
                    finish(shared, tx, played).await?;
                }
            }
        });
        let played: Result<Vec<()>, Halt> = join_all(copies).await.into_iter().collect();
        played?;
        if halted(shared) { Err(Halt) } else { Ok(()) }
    }

    /// Waits until the processes of every lane played are gone.
    async fn wait_ended(&mut self) {
        for mut set in self.ending.drain(..) {
            while set.join_next().await.is_some() {}
        }
    }
}

/// Sends the record of a game played, or stops the run when it could not be.
async fn finish(
    shared: &Shared,
    tx: &mpsc::Sender<Finished>,
    played: Result<crate::run::play::Record, Unplayable>,
) -> Result<(), Halt> {
    {
        let record = match played {
            Ok(record) => record,
            Err(unplayable) => {
                fail_unless_stopped(shared, unplayable).await;
                return Err(Halt);
            }
        };
        if record.faults.iter().any(|fault| ends_by_death(fault.kind)) {
            tokio::time::sleep(STOP_GRACE).await;
        }
        if shared.cancel.load(Ordering::SeqCst) {
            return Err(Halt); // in flight when the run was stopped: not a real result
        }
        let line = if shared.keep_records {
            serde_json::to_string(&record).expect("records serialize")
        } else {
            String::new()
        };
        let finished = Finished {
            line,
            summary: record.summary(),
            decisions: record.decisions(),
            least_clock: record.least_clock(),
        };
        tx.send(finished).await.map_err(|_| Halt)
    }
}

/// How long a worker's games take, to start a lane's processes in time:
/// a bot's process is started ahead once the games before its lane would
/// take no longer than [`Pace::lead`] of its start-up.
#[derive(Debug, Default)]
struct Pace {
    /// The time of a game, lately.
    per_game: Option<Duration>,
}

impl Pace {
    /// How much earlier than its start-up takes a process is started.
    fn lead(startup: Duration) -> Duration {
        startup * 3 / 2 + Duration::from_millis(20)
    }

    /// Notes a game that took `took`.
    fn note(&mut self, took: Duration) {
        self.per_game = Some(self.per_game.map_or(took, |before| (before * 7 + took) / 8));
    }

    /// About how long `games` games will take.
    fn until(&self, games: usize) -> Duration {
        self.per_game.unwrap_or_default() * games as u32
    }
}
