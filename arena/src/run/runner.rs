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

use crate::bot::fault::FaultKind;
use crate::bot::placement::Placement;
use crate::bot::pool::Role;
use crate::bot::pool::{self, Pool};
use crate::bot::{cpus, orphans};
use crate::run::dealer::{Ahead, Dealer, Dealt};
use crate::run::play::{Unplayable, play_game, start_ahead};
use crate::run::table::Table;
use crate::schedule::lanes::{Lane, Plan, Restart};
use crate::schedule::{Schedule, Selection};
use crate::stats::standings::Standings;
use crate::stats::whole_deals::WholeDeals;
use crate::store::output::OutDir;
use crate::store::record::GameSummary;
use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
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
    let plan = Plan::new(schedule, table.limits.restart, concurrency, setups, stops_early);
    let ahead = Ahead { play: concurrency as u64, take: (concurrency * (1 + QUEUED_UNITS)) as u64 };
    let dealer = Dealer::new(stops_early.then_some(ahead));
    let shared = Arc::new(Shared {
        table,
        plan,
        selection,
        dealer,
        cancel: Arc::clone(&cancel),
        stop: AtomicBool::new(false),
        failure: Mutex::new(None),
        keep_records: out.is_some(),
        slots: concurrency,
    });
    // Bounded, so that workers wait (without blocking their threads) when
    // the disk falls behind, instead of piling finished games up in memory.
    let queue = if stops_early { concurrency } else { (2 * concurrency).max(16) };
    let (tx, rx) = mpsc::channel::<Finished>(queue);
    let mut games = 0;
    let mut decisions = 0;
    let watch = orphans::watch(&shared.table.registry);
    let mut counted = WholeDeals::new(standings, shared.plan.schedule(), &shared.selection, played);
    std::thread::scope(|scope| {
        // Owned by this closure, so that if recording panics, unwinding drops
        // the receiver and the workers stop (their sends fail) instead of
        // blocking for ever with their bots alive.
        let mut rx = rx;
        for worker in 0..threads {
            let slots = concurrency / threads + usize::from(worker < concurrency % threads);
            let cpus = cpus::for_worker(worker, shared.table.limits.cpus_per_game);
            let (shared, tx) = (Arc::clone(&shared), tx.clone());
            scope.spawn(move || run_worker(shared, tx, slots, cpus));
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

/// What every worker of a run shares.
struct Shared {
    table: Table,
    /// The run's games in units and lanes.
    plan: Plan,
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
}

/// One worker thread: `slots` games at a time, it and its processes on `cpus` if pinned.
fn run_worker(shared: Arc<Shared>, tx: mpsc::Sender<Finished>, slots: usize, cpus: Option<Vec<usize>>) {
    if let Some(cpus) = &cpus {
        cpus::pin_this_thread(cpus);
    }
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a single-threaded runtime starts");
    runtime.block_on(async move {
        let cap = pool::cap(slots, shared.plan.lane_width(), shared.table.seats());
        // With one game, the thread has nothing else to do while it waits for a bot.
        let placement = Placement { cpus, in_place: slots == 1, ..Placement::default() };
        let pool = Arc::new(Pool::new(placement.clone(), cap, shared.table.limits.exit_grace));
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..slots {
            let (shared, tx, pool, placement) = (Arc::clone(&shared), tx.clone(), Arc::clone(&pool), placement.clone());
            tasks.spawn(async move {
                // This slot's engine: in process, or a process of its own on the worker's CPUs.
                let mut link = match shared.table.engine.connect(&shared.table.registry, placement).await {
                    Ok(link) => link,
                    Err(e) => {
                        fail_unless_stopped(&shared, Unplayable::from(e)).await;
                        return;
                    }
                };
                let mut slot =
                    Slot { shared: &shared, pool: &pool, tx: &tx, pace: Pace::default(), ending: Vec::new() };
                slot.play(link.as_mut()).await;
                slot.wait_ended().await;
                if !shared.cancel.load(Ordering::SeqCst)
                    && let Err(e) = link.close().await
                {
                    // Every game it played is recorded and checked; only its exit is late.
                    crate::terminal::console::errln!("warning: {e}");
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
    /// For each lane, its (bot, seat) pairs.
    roles: Vec<Vec<(usize, usize)>>,
}

impl InPlay {
    fn new(dealt: Dealt, schedule: &Schedule) -> InPlay {
        let roles = dealt
            .unit
            .lanes
            .iter()
            .map(|lane| {
                let mut roles: Vec<(usize, usize)> = lane
                    .games
                    .iter()
                    .filter_map(|&id| schedule.get(id))
                    .flat_map(|spec| spec.seats.into_iter().enumerate().map(|(seat, bot)| (bot, seat)))
                    .collect();
                roles.sort_unstable();
                roles.dedup();
                roles
            })
            .collect();
        InPlay { dealt, roles }
    }

    /// The lanes from lane `from` on, each with its roles.
    fn lanes_from(&self, from: usize) -> impl Iterator<Item = (&Lane, &[(usize, usize)])> {
        self.dealt.unit.lanes.iter().zip(&self.roles).skip(from).map(|(lane, roles)| (lane, roles.as_slice()))
    }
}

impl Slot<'_> {
    /// Plays units until there are none left or the run halts.
    async fn play(&mut self, link: &mut dyn crate::engine::link::Link) {
        let shared = self.shared;
        let schedule = shared.plan.schedule();
        // The units after the one in play, taken while they are free, so that
        // their processes may be started ahead.
        let mut queued: VecDeque<InPlay> = VecDeque::new();
        loop {
            if halted(shared) {
                break;
            }
            if queued.is_empty() {
                match shared.dealer.next(&shared.plan, &shared.selection).await {
                    Some(dealt) => queued.push_back(InPlay::new(dealt, schedule)),
                    None => break,
                }
            }
            // The one to play now and up to QUEUED_UNITS after it.
            while shared.table.limits.restart != Restart::Off && queued.len() <= QUEUED_UNITS {
                // Never a unit another game slot would otherwise wait for.
                match shared.dealer.next_now(&shared.plan, &shared.selection, shared.slots) {
                    Some(next) => queued.push_back(InPlay::new(next, schedule)),
                    None => break,
                }
            }
            // In the order of their places, so that the oldest never waits for its turn for ever.
            queued.make_contiguous().sort_by_key(|unit| unit.dealt.seq);
            let unit = queued.pop_front().expect("a unit");
            shared.dealer.turn(&unit.dealt).await;
            let played = self.play_unit(link, &unit, &queued).await;
            // The unit's deals are free once its last processes are gone.
            if let Some(last) = self.ending.last_mut() {
                while last.join_next().await.is_some() {}
            }
            shared.dealer.done(&unit.dealt);
            if played.is_err() {
                break;
            }
        }
        for unit in queued {
            shared.dealer.done(&unit.dealt);
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
                if !kept {
                    // This lane's processes not started yet (a fault's, or in a lane
                    // that spans groups, a seat first met later), then the next lanes'.
                    let later = unit.lanes_from(at + 1).chain(queued.iter().flat_map(|next| next.lanes_from(0)));
                    let this_unit = unit.dealt.unit.lanes.len() - at;
                    self.start_ahead(lane.games.len() - played, this_unit, unit.lanes_from(at).take(1), later);
                }
                let spec = shared.plan.schedule().get(id).expect("an id of the schedule");
                let started = Instant::now();
                let played = play_game(&shared.table, self.pool, link, &spec, lane.key).await;
                self.pace.note(started.elapsed());
                self.finish(played).await?;
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
        let keep = self.shared.plan.lane_width();
        let mut before = 0;
        for (at, (lane, roles)) in this.chain(later).take(LOOK_AHEAD).enumerate() {
            if at == 1 {
                before = left;
            }
            let roles = roles.iter().map(|&(bot, seat)| Role { bot, seat, lane: lane.key });
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

    /// Sends the record of a game played, or stops the run when it could not be.
    async fn finish(&mut self, played: Result<crate::run::play::Record, Unplayable>) -> Result<(), Halt> {
        let shared = self.shared;
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
        self.tx.send(finished).await.map_err(|_| Halt)
    }

    /// Waits until the processes of every lane played are gone.
    async fn wait_ended(&mut self) {
        for mut set in self.ending.drain(..) {
            while set.join_next().await.is_some() {}
        }
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
