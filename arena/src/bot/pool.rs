//! The bot processes of one worker: idle between games, keyed by bot, seat
//! and lane, or being started ahead of their lane; and the cap on how many
//! it keeps alive.
//!
//! A process plays the seat it was started for (its `hello` names the seat)
//! in the games of one lane (see [`crate::schedule::lanes`]; with processes
//! kept for the whole run, every lane is lane 0). A worker keeps at most
//! [`cap`] processes alive, in games, idle, started ahead or ending: when it
//! needs a new one and has that many, it first ends the one idle longest
//! (`bye`, then up to the grace period to exit, as at the end of a run). A
//! process is started ahead only while that leaves room for every seat of
//! the games in play to be started again.

use crate::bot::census::{Census, Counted};
use crate::bot::fault::Fault;
use crate::bot::placement::Placement;
use crate::bot::process::Envelope;
use crate::bot::process::{BotProcess, Launch};
use crate::bot::session::Session;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::{JoinHandle, JoinSet};

/// Descriptors the arena holds for each live bot process: its stdin, stdout
/// and stderr pipes, its log file, its supervisor's report pipe, and the
/// pidfd that tokio waits on.
const DESCRIPTORS_PER_PROCESS: u64 = 6;
/// Descriptors the arena needs besides: its own files and pipes, and those
/// of each worker thread (its event loop, and a process being started).
const DESCRIPTORS_BASE: u64 = 32;
/// See [`DESCRIPTORS_BASE`].
const DESCRIPTORS_PER_WORKER: u64 = 12;

/// How many seats' worth of processes a worker may start ahead of their
/// lanes, for each game it plays at once.
pub const AHEAD_SEATS: usize = 6;

/// The most processes kept alive for `games` played at once with `seats`
/// seats each, a lane of each needing `width` processes (one for each seat,
/// or, for a lane that spans the groups of a few bots, one for each of them
/// in each seat): for each game, the lane in play, the lane before it
/// (ending), and [`AHEAD_SEATS`] seats' worth started ahead.
pub fn cap(games: usize, width: usize, seats: usize) -> usize {
    games * (2 * width + AHEAD_SEATS * seats)
}

/// How many descriptors a run of `games` at once with `seats` seats, lanes
/// of `width` processes, needs.
fn descriptors_needed(games: usize, width: usize, seats: usize) -> u64 {
    let workers = games.min(std::thread::available_parallelism().map_or(1, |n| n.get()));
    let processes = cap(games, width, seats) as u64;
    DESCRIPTORS_BASE + DESCRIPTORS_PER_WORKER * workers as u64 + DESCRIPTORS_PER_PROCESS * processes
}

/// Too few file descriptors for a run, even at the hard limit (`ulimit -n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooFewDescriptors {
    /// The games played at once.
    pub games: usize,
    /// The most bot processes they keep ([`cap`]).
    pub processes: usize,
    /// The descriptors needed.
    pub needed: u64,
    /// The hard limit.
    pub hard: u64,
    /// The most games at once that the hard limit allows, if any.
    pub fits: Option<usize>,
}

impl fmt::Display for TooFewDescriptors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let TooFewDescriptors { games, processes, needed, hard, fits } = self;
        let lower = fits.map_or_else(String::new, |fits| format!(", or lower --concurrency to {fits}"));
        write!(
            f,
            "too few file descriptors: {games} games at once keep up to {processes} bot processes, which need \
             {needed} open files, but the limit (ulimit -n) is {hard}; raise it (ulimit -n {needed}, which may need \
             root){lower}"
        )
    }
}

impl std::error::Error for TooFewDescriptors {}

/// Makes sure the arena may keep open the descriptors of a run of `games`
/// at once with `seats` seats, lanes of `width` processes (see [`cap`]):
/// raises its soft limit of open files (`RLIMIT_NOFILE`) as far as needed,
/// up to the hard limit, or says what to do when even that is too few.
/// Called before a run starts.
pub fn reserve_descriptors(games: usize, width: usize, seats: usize) -> Result<(), TooFewDescriptors> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let needed = descriptors_needed(games, width, seats);
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else { return Ok(()) };
    if soft >= needed || (hard >= needed && setrlimit(Resource::RLIMIT_NOFILE, needed, hard).is_ok()) {
        return Ok(());
    }
    let fits = (1..games).rev().find(|&fewer| descriptors_needed(fewer, width, seats) <= hard);
    Err(TooFewDescriptors { games, processes: cap(games, width, seats), needed, hard, fits })
}

/// The processes of one worker.
pub struct Pool {
    /// Idle processes, the one idle longest first.
    idle: Mutex<Vec<Idle>>,
    /// Processes being started ahead of their lane.
    ahead: Mutex<Vec<Ahead>>,
    /// Processes playing many games of their lane at once (see [`crate::bot::session`]).
    sessions: Mutex<Vec<(Role, Arc<Session>)>>,
    placement: Mutex<Placement>,
    census: Arc<Census>,
    grace: Duration,
}

/// Which seat of which lane a process plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Role {
    /// The bot.
    pub bot: usize,
    /// The seat.
    pub seat: usize,
    /// The lane ([`crate::schedule::lanes::Lane::key`]).
    pub lane: u64,
    /// Which of the lane's games played at once it plays: 0, but where a
    /// lane's games are played several at once (for a bot that plays them
    /// in one process, a session), each of a plain bot's processes for one
    /// of them.
    pub copy: usize,
}

/// A process waiting for its next game.
struct Idle {
    role: Role,
    process: BotProcess,
}

/// What a process's `ready` said of how it plays.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Said {
    /// How many games it plays at once, if it said (see [`super::session`]).
    pub games: Option<u32>,
    /// Whether it plays any seat, each game's as its `game_start` says.
    pub any_seat: bool,
}

impl Said {
    /// What `ready` says.
    pub fn of(ready: &protocol::messages::Ready) -> Said {
        Said { games: ready.games, any_seat: ready.any_seat }
    }
}

/// How starting a process ahead of its lane went.
pub enum Started {
    /// It answered `hello`, this long after it was started, saying how it plays.
    Greeted(BotProcess, Duration, Said),
    /// It failed to start: the bot's fault, recorded in the first game of
    /// its lane (with the process, to be killed there, if it was started).
    Faulted(Fault, Option<BotProcess>),
    /// It could not be started, for a reason that is not the bot's doing.
    Failed(String),
}

/// A process being started ahead of its lane.
struct Ahead {
    role: Role,
    task: JoinHandle<Started>,
}

impl Pool {
    /// A pool of processes placed as `placement`, at most `cap` of them
    /// alive, each given `grace` to exit after `bye`.
    pub fn new(placement: Placement, cap: usize, grace: Duration) -> Pool {
        Pool {
            idle: Mutex::default(),
            ahead: Mutex::default(),
            sessions: Mutex::default(),
            placement: Mutex::new(placement),
            census: Census::new(cap),
            grace,
        }
    }

    /// Allows `cap` processes alive from now on (see [`cap`]).
    pub fn recap(&self, cap: usize) {
        self.census.recap(cap);
    }

    /// Where new processes of this pool run.
    pub fn placement(&self) -> Placement {
        self.placement.lock().expect("pool lock").clone()
    }

    /// Places the processes started from now on on `cpus` (see
    /// [`crate::bot::cpus::for_active_worker`]).
    pub fn pin_to(&self, cpus: Option<Vec<usize>>) {
        self.placement.lock().expect("pool lock").cpus = cpus;
    }

    /// An idle process for `role`, if there is one.
    pub fn take(&self, role: Role) -> Option<BotProcess> {
        let mut idle = self.idle.lock().expect("pool lock");
        let at = idle.iter().rposition(|i| i.role == role)?;
        Some(idle.remove(at).process)
    }

    /// The start of a process for `role` begun ahead of its lane, if there is one.
    pub fn take_ahead(&self, role: Role) -> Option<JoinHandle<Started>> {
        let mut ahead = self.ahead.lock().expect("pool lock");
        let at = ahead.iter().position(|a| a.role == role)?;
        Some(ahead.remove(at).task)
    }

    /// Whether a process for `role` is idle or being started ahead.
    pub fn holds(&self, role: Role) -> bool {
        self.idle.lock().expect("pool lock").iter().any(|i| i.role == role)
            || self.ahead.lock().expect("pool lock").iter().any(|a| a.role == role)
    }

    /// The live session playing `role`, if there is one.
    pub fn session(&self, role: Role) -> Option<Arc<Session>> {
        let mut sessions = self.sessions.lock().expect("pool lock");
        sessions.retain(|(_, session)| !session.is_dead());
        sessions.iter().find(|(held, _)| *held == role).map(|(_, session)| Arc::clone(session))
    }

    /// Keeps `session`, playing `role`, until its lane ends.
    pub fn keep_session(&self, role: Role, session: Arc<Session>) {
        self.sessions.lock().expect("pool lock").push((role, session));
    }

    /// Returns a healthy process to the pool.
    pub fn put(&self, role: Role, process: BotProcess) {
        self.idle.lock().expect("pool lock").push(Idle { role, process });
    }

    /// Starts a new process, after ending idle ones (the one idle longest
    /// first) while the pool has as many alive as it may.
    pub async fn start(&self, launch: &Launch) -> Result<BotProcess, Fault> {
        let counted = loop {
            let freed = self.census.freed();
            tokio::pin!(freed);
            freed.as_mut().enable();
            if let Some(counted) = self.census.try_count() {
                break counted;
            }
            let longest_idle = {
                let mut idle = self.idle.lock().expect("pool lock");
                (!idle.is_empty()).then(|| idle.remove(0))
            };
            match longest_idle {
                Some(idle) => self.farewell(idle.process).await,
                // Every process is in a game, being started ahead, or being ended by another one.
                None => freed.await,
            }
        };
        Self::spawn(launch, counted).await
    }

    /// Room for a process started ahead of its lane, if the pool has it
    /// while keeping room for `keep` more.
    pub fn room_ahead(&self, keep: usize) -> Option<Counted> {
        self.census.try_count_keeping(keep)
    }

    /// Starts a process in the room `counted` holds, the thread free for
    /// the games in play while its supervisor starts it.
    pub async fn spawn(launch: &Launch, counted: Counted) -> Result<BotProcess, Fault> {
        let mut process = BotProcess::start(launch).await?;
        process.count_in(counted);
        Ok(process)
    }

    /// Keeps `task`, which starts a process for `role` ahead of its lane
    /// (and greets it), until the lane takes it.
    pub fn adopt_ahead(&self, role: Role, task: JoinHandle<Started>) {
        self.ahead.lock().expect("pool lock").push(Ahead { role, task });
    }

    /// Ends the processes of `lane` that are idle or being started ahead:
    /// sends each `bye` and gives it the grace period to exit, killing what
    /// is left. The returned set finishes once they are all gone.
    pub fn end_lane(&self, lane: u64) -> JoinSet<()> {
        let idle: Vec<Idle> = {
            let mut all = self.idle.lock().expect("pool lock");
            let (this, rest) = std::mem::take(&mut *all).into_iter().partition(|i| i.role.lane == lane);
            *all = rest;
            this
        };
        let ahead: Vec<Ahead> = {
            let mut all = self.ahead.lock().expect("pool lock");
            let (this, rest) = std::mem::take(&mut *all).into_iter().partition(|a| a.role.lane == lane);
            *all = rest;
            this
        };
        let sessions: Vec<(Role, Arc<Session>)> = {
            let mut all = self.sessions.lock().expect("pool lock");
            let (this, rest) = std::mem::take(&mut *all).into_iter().partition(|(role, _)| role.lane == lane);
            *all = rest;
            this
        };
        let mut closing = JoinSet::new();
        let grace = self.grace;
        for (_, session) in sessions {
            closing.spawn(async move { session.close(grace).await });
        }
        for idle in idle {
            closing.spawn(farewell(idle.process, grace));
        }
        for ahead in ahead {
            closing.spawn(async move {
                match ahead.task.await {
                    Ok(Started::Greeted(process, ..)) => farewell(process, grace).await,
                    Ok(Started::Faulted(_, Some(process))) => drop(process.kill().await),
                    _ => {}
                }
            });
        }
        closing
    }

    /// Ends every idle process and every one started ahead: sends each
    /// `bye` and waits (up to the grace period) for all of them to exit,
    /// killing what is left.
    pub async fn close_all(&self) {
        let lanes: Vec<u64> = {
            let idle = self.idle.lock().expect("pool lock");
            let ahead = self.ahead.lock().expect("pool lock");
            let sessions = self.sessions.lock().expect("pool lock");
            let mut lanes: Vec<u64> = idle
                .iter()
                .map(|i| i.role.lane)
                .chain(ahead.iter().map(|a| a.role.lane))
                .chain(sessions.iter().map(|(role, _)| role.lane))
                .collect();
            lanes.sort_unstable();
            lanes.dedup();
            lanes
        };
        let mut closing: Vec<JoinSet<()>> = lanes.into_iter().map(|lane| self.end_lane(lane)).collect();
        for set in &mut closing {
            while set.join_next().await.is_some() {}
        }
    }

    /// Kills every idle process, every one started ahead and every session, at once.
    pub async fn kill_all(&self) {
        let sessions = std::mem::take(&mut *self.sessions.lock().expect("pool lock"));
        for (_, session) in sessions {
            session.close(Duration::ZERO).await;
        }
        let idle = std::mem::take(&mut *self.idle.lock().expect("pool lock"));
        for idle in idle {
            idle.process.kill().await;
        }
        let ahead = std::mem::take(&mut *self.ahead.lock().expect("pool lock"));
        for ahead in ahead {
            // Dropping the start kills what it started.
            ahead.task.abort();
            let _ = ahead.task.await;
        }
    }

    async fn farewell(&self, process: BotProcess) {
        farewell(process, self.grace).await;
    }
}

/// Ends `process`: `bye`, then up to `grace` to exit, then everything it left is killed.
async fn farewell(mut process: BotProcess, grace: Duration) {
    process.queue(&Envelope::Bye);
    process.close(grace).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_two_lanes_and_six_seats_ahead_for_each_game_in_play() {
        assert_eq!(cap(2, 2, 2), 32);
        assert_eq!(cap(1, 3, 3), 24);
        assert_eq!(cap(1, 12, 2), 36);
    }

    #[test]
    fn the_descriptors_of_a_run_are_checked_against_the_hard_limit() {
        use nix::sys::resource::{Resource, getrlimit};
        let (_, hard) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
        assert_eq!(reserve_descriptors(1, 2, 2), Ok(()));
        let games = (hard / (DESCRIPTORS_PER_PROCESS * 16)) as usize + 1;
        let err = reserve_descriptors(games, 2, 2).unwrap_err().to_string();
        assert!(err.contains(&format!("the limit (ulimit -n) is {hard}")), "{err}");
        let fits: usize = err.rsplit("lower --concurrency to ").next().unwrap().parse().unwrap();
        assert!(descriptors_needed(fits, 2, 2) <= hard && descriptors_needed(fits + 1, 2, 2) > hard, "{err}");
    }
}
