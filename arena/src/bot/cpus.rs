//! Pinning: each worker thread, and the bot processes of the games it plays,
//! on one CPU. A decision is then a switch between processes on one core
//! instead of a wake-up of another core, which costs several times more.
//! Not for bots that use several threads: they would get one core.

use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;

/// The CPUs this process may run on, in increasing order.
pub fn allowed() -> Vec<usize> {
    match sched_getaffinity(Pid::from_raw(0)) {
        Ok(set) => (0..CpuSet::count()).filter(|&cpu| set.is_set(cpu).unwrap_or(false)).collect(),
        Err(_) => Vec::new(),
    }
}

/// The CPU of worker `worker`: the allowed CPUs in turn.
pub fn for_worker(worker: usize) -> Option<usize> {
    let cpus = allowed();
    (!cpus.is_empty()).then(|| cpus[worker % cpus.len()])
}

/// A set holding only `cpu`.
pub fn only(cpu: usize) -> CpuSet {
    let mut set = CpuSet::new();
    // An out-of-range CPU leaves the set empty, and pinning then fails harmlessly.
    let _ = set.set(cpu);
    set
}

/// Pins the calling thread to `cpu` (best effort).
pub fn pin_this_thread(cpu: usize) {
    let _ = sched_setaffinity(Pid::from_raw(0), &only(cpu));
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
        assert_eq!(for_worker(0), Some(cpus[0]));
        assert_eq!(for_worker(cpus.len()), Some(cpus[0]));
    }
}
