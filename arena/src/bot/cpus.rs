//! Pinning: each worker thread, and the bot processes of the games it plays,
//! on CPUs of their own (by default one: `--cpus-per-game`). A decision is
//! then a switch between processes on one core instead of a wake-up of
//! another core, which costs several times more, and games in flight do not
//! take time from each other. A bot that uses several threads needs a game
//! with several CPUs.

use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;

/// The cores available to the arena: the CPUs of its affinity mask, within
/// its control group's CPU quota (as the standard library counts them).
pub fn cores() -> u64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u64)
}

/// The CPUs this process may run on, in increasing order: those of its
/// affinity mask (as `taskset`, a control group's cpuset or a batch
/// scheduler's allocation leave it).
pub fn allowed() -> Vec<usize> {
    match sched_getaffinity(Pid::from_raw(0)) {
        Ok(set) => (0..CpuSet::count()).filter(|&cpu| set.is_set(cpu).unwrap_or(false)).collect(),
        Err(_) => Vec::new(),
    }
}

/// The CPUs of worker `worker` when each game gets `per_game` of them: the
/// allowed CPUs in turn, `per_game` at a time (all of them if there are
/// fewer); `None` when `per_game` is 0 (not pinned) or nothing is allowed.
pub fn for_worker(worker: usize, per_game: usize) -> Option<Vec<usize>> {
    let cpus = allowed();
    if per_game == 0 || cpus.is_empty() {
        return None;
    }
    if per_game >= cpus.len() {
        return Some(cpus);
    }
    let mut mine: Vec<usize> = (0..per_game).map(|i| cpus[(worker * per_game + i) % cpus.len()]).collect();
    mine.sort_unstable();
    Some(mine)
}

/// The CPUs of worker `worker` of `workers` once only the first `active`
/// of them play (a run of a bot that plays many games at once in one
/// process has fewer game slots, each playing as many games as several: see
/// [`crate::run::first_lane`]): its own, and those of the workers it plays
/// for, `worker + active`, `worker + 2 × active`, … (each `per_game` CPUs,
/// as [`for_worker`]), so that the games of an active slot have the CPUs of
/// the slots it stands for. `None` when not pinned.
pub fn for_active_worker(worker: usize, active: usize, workers: usize, per_game: usize) -> Option<Vec<usize>> {
    let own = for_worker(worker, per_game)?;
    if active == 0 || active >= workers || worker >= active {
        return Some(own);
    }
    let mut mine: Vec<usize> =
        (worker..workers).step_by(active).filter_map(|other| for_worker(other, per_game)).flatten().collect();
    mine.sort_unstable();
    mine.dedup();
    Some(mine)
}

/// A set holding `cpus`.
pub fn set(cpus: &[usize]) -> CpuSet {
    let mut set = CpuSet::new();
    for &cpu in cpus {
        // An out-of-range CPU is left out, and pinning then fails harmlessly.
        let _ = set.set(cpu);
    }
    set
}

/// Pins the calling thread to `cpus` (best effort).
pub fn pin_this_thread(cpus: &[usize]) {
    let _ = sched_setaffinity(Pid::from_raw(0), &set(cpus));
}

/// Pins the calling process (in a child between fork and exec: one system call).
pub fn pin_this_process(set: &CpuSet) -> std::io::Result<()> {
    sched_setaffinity(Pid::from_raw(0), set).map_err(std::io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_take_the_allowed_cpus_in_turn() {
        let cpus = allowed();
        assert!(!cpus.is_empty());
        assert_eq!(for_worker(0, 1), Some(vec![cpus[0]]));
        assert_eq!(for_worker(cpus.len(), 1), Some(vec![cpus[0]]));
        assert_eq!(for_worker(0, 0), None, "0 CPUs a game: not pinned");
        assert_eq!(for_worker(3, cpus.len() + 5), Some(cpus.clone()), "more than there are: all of them");
        if cpus.len() >= 2 {
            assert_eq!(for_worker(1, 1), Some(vec![cpus[1]]));
            assert_eq!(for_worker(0, 2), Some(vec![cpus[0], cpus[1]]));
        }
    }

    #[test]
    fn an_active_worker_takes_the_cpus_of_the_workers_it_plays_for() {
        let cpus = allowed();
        let workers = cpus.len();
        // One slot plays for all: every CPU, as many games as all the slots.
        assert_eq!(for_active_worker(0, 1, workers, 1), Some(cpus.clone()));
        // Every worker plays: each its own CPUs, as without sessions.
        for worker in 0..workers {
            assert_eq!(for_active_worker(worker, workers, workers, 1), for_worker(worker, 1));
        }
        assert_eq!(for_active_worker(0, 1, workers, 0), None, "not pinned");
        if workers >= 4 {
            // Two active of four: worker 0 for itself and worker 2, worker 1 for itself and worker 3.
            assert_eq!(for_active_worker(0, 2, 4, 1), Some(vec![cpus[0], cpus[2]]));
            assert_eq!(for_active_worker(1, 2, 4, 1), Some(vec![cpus[1], cpus[3]]));
        }
    }
}
