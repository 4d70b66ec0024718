//! Idle bot processes between games, keyed by bot and seat, and the cap on
//! how many processes a worker keeps alive.
//!
//! A process plays the seat it was started for (its `hello` names the seat)
//! for as long as it lives, across the games of a match; in a sandbox that
//! isolates games ([`crate::bot::sandbox::Sandbox::process_per_game`]) it
//! plays one game and is retired. A worker keeps at
//! most [`cap`] processes alive, in games or idle: when it needs a new one
//! and has that many, it first ends the one idle longest (`bye`, then up to
//! the grace period to exit, as at the end of a run).

use crate::bot::census::Census;
use crate::bot::fault::Fault;
use crate::bot::placement::Placement;
use crate::bot::process::Envelope;
use crate::bot::process::{BotProcess, Launch};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Descriptors the arena holds for each live bot process: its stdin, stdout
/// and stderr pipes, its log file, its supervisor's report pipe, and the
/// pidfd that tokio waits on.
const DESCRIPTORS_PER_PROCESS: u64 = 6;
/// Descriptors the arena needs besides: its own files and pipes, and those
/// of each worker thread (its event loop, and a process being started).
const DESCRIPTORS_BASE: u64 = 32;
/// See [`DESCRIPTORS_BASE`].
const DESCRIPTORS_PER_WORKER: u64 = 12;

/// The most processes kept alive for `games` played at once with `seats`
/// seats each: twice the seats in play, and at least a process for each
/// seat of each bot of a free-for-all group (which holds every seat in the
/// orders of a deal), so that a match of 3 or 4 players at one game at a
/// time keeps all its processes instead of starting some for every game.
pub fn cap(games: usize, seats: usize) -> usize {
    (2 * games * seats).max(seats * seats)
}

/// How many descriptors a run of `games` at once with `seats` seats each needs.
fn descriptors_needed(games: usize, seats: usize) -> u64 {
    let workers = games.min(std::thread::available_parallelism().map_or(1, |n| n.get()));
    DESCRIPTORS_BASE + DESCRIPTORS_PER_WORKER * workers as u64 + DESCRIPTORS_PER_PROCESS * cap(games, seats) as u64
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
/// at once with `seats` seats each: raises its soft limit of open files
/// (`RLIMIT_NOFILE`) as far as needed, up to the hard limit, or says what
/// to do when even that is too few. Called before a run starts.
pub fn reserve_descriptors(games: usize, seats: usize) -> Result<(), TooFewDescriptors> {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let needed = descriptors_needed(games, seats);
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else { return Ok(()) };
    if soft >= needed || (hard >= needed && setrlimit(Resource::RLIMIT_NOFILE, needed, hard).is_ok()) {
        return Ok(());
    }
    let fits = (1..games).rev().find(|&fewer| descriptors_needed(fewer, seats) <= hard);
    Err(TooFewDescriptors { games, processes: cap(games, seats), needed, hard, fits })
}

/// The processes of one worker.
pub struct Pool {
    /// Idle processes, the one idle longest first.
    idle: Mutex<Vec<Idle>>,
    placement: Placement,
    census: Arc<Census>,
    grace: Duration,
}

/// A process waiting for its next game.
struct Idle {
    bot: usize,
    seat: usize,
    process: BotProcess,
}

impl Pool {
    /// A pool of processes placed as `placement`, at most `cap` of them
    /// alive, each given `grace` to exit after `bye`.
    pub fn new(placement: Placement, cap: usize, grace: Duration) -> Pool {
        Pool { idle: Mutex::default(), placement, census: Census::new(cap), grace }
    }

    /// Where new processes of this pool run.
    pub fn placement(&self) -> Placement {
        self.placement.clone()
    }

    /// An idle process of `bot` for `seat`, if there is one.
    pub fn take(&self, bot: usize, seat: usize) -> Option<BotProcess> {
        let mut idle = self.idle.lock().expect("pool lock");
        let at = idle.iter().rposition(|i| i.bot == bot && i.seat == seat)?;
        Some(idle.remove(at).process)
    }

    /// Returns a healthy process to the pool.
    pub fn put(&self, bot: usize, seat: usize, process: BotProcess) {
        self.idle.lock().expect("pool lock").push(Idle { bot, seat, process });
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
                // Every process is in a game, or being ended by another one.
                None => freed.await,
            }
        };
        let mut process = BotProcess::spawn(launch)?;
        process.count_in(counted);
        Ok(process)
    }

    /// Ends every idle process: sends each `bye` and waits (up to the grace
    /// period) for all of them to exit, killing what is left.
    pub async fn close_all(&self) {
        let mut closing = tokio::task::JoinSet::new();
        for idle in self.drain() {
            let mut process = idle.process;
            process.queue(&Envelope::Bye);
            closing.spawn(process.close(self.grace));
        }
        while closing.join_next().await.is_some() {}
    }

    /// Kills every idle process at once.
    pub async fn kill_all(&self) {
        for idle in self.drain() {
            idle.process.kill().await;
        }
    }

    /// Ends a process that plays no more games: `bye`, then up to the grace
    /// period to exit, as at the end of a run.
    pub async fn retire(&self, process: BotProcess) {
        self.farewell(process).await;
    }

    async fn farewell(&self, mut process: BotProcess) {
        process.queue(&Envelope::Bye);
        process.close(self.grace).await;
    }

    fn drain(&self) -> Vec<Idle> {
        std::mem::take(&mut *self.idle.lock().expect("pool lock"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_twice_the_seats_in_play() {
        assert_eq!(cap(2, 2), 8);
        assert_eq!(cap(1, 4), 16);
        assert_eq!(cap(1, 3), 9);
    }

    #[test]
    fn the_descriptors_of_a_run_are_checked_against_the_hard_limit() {
        use nix::sys::resource::{Resource, getrlimit};
        let (_, hard) = getrlimit(Resource::RLIMIT_NOFILE).unwrap();
        assert_eq!(reserve_descriptors(1, 2), Ok(()));
        let games = (hard / (DESCRIPTORS_PER_PROCESS * 4)) as usize + 1;
        let err = reserve_descriptors(games, 2).unwrap_err().to_string();
        assert!(err.contains(&format!("the limit (ulimit -n) is {hard}")), "{err}");
        let fits: usize = err.rsplit("lower --concurrency to ").next().unwrap().parse().unwrap();
        assert!(descriptors_needed(fits, 2) <= hard && descriptors_needed(fits + 1, 2) > hard, "{err}");
    }
}
