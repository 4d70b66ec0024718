//! Pinning: each worker thread, and the bot processes of the games it plays,
//! on CPUs of their own (by default one: `--cpus-per-game`). A decision is
//! then a switch between processes on one core instead of a wake-up of
//! another core, which costs several times more, and games in flight do not
//! take time from each other. A bot that uses several threads needs a game
//! with several CPUs.

use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;

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
}
