//! Processes below the arena that belong to no live bot: what a bot started
//! and left behind when its supervisor was killed (see
//! [`super::supervisor`], which takes care of everything else). The arena
//! makes itself their "subreaper", so the kernel hands them to the arena
//! rather than to init; while a run lasts, [`watch`] kills and reaps them as
//! they come, and [`sweep`] kills the last ones when it ends.
//!
//! While a run lasts, every child of the arena is a live bot process in the
//! [`Registry`] or such a leftover: nothing else may be started meanwhile.
//! A live bot process is never reaped here (tokio owns its exit status).

use super::registry::Registry;
use super::tree::{self, Process};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::Pid;
use signal_hook::consts::SIGCHLD;
use signal_hook::iterator::{Handle, Signals};
use std::time::{Duration, Instant};

/// How long a sweep may take.
const SWEEP_PATIENCE: Duration = Duration::from_secs(5);
/// While a run lasts, a sweep is followed by a pause this many times as long
/// as the sweep took, so that sweeping takes at most a twentieth of a core
/// however many processes the machine runs (each sweep reads the whole
/// process table); the exits during the pause are swept together after it.
const PAUSE_SHARE: u32 = 20;
/// How often a pause looks whether the run has ended.
const PAUSE_STEP: Duration = Duration::from_millis(5);

/// Asks the kernel to make the arena the parent of its orphaned descendants.
pub fn adopt() {
    // Not fatal if refused: the supervisors still catch what the bots start.
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// What a sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Processes killed.
    pub killed: usize,
    /// Processes still alive when the sweep gave up (0 when none is left).
    pub remaining: usize,
}

/// Kills every process below the arena that is not a live bot process in
/// `registry` or below one, freezing each first so that none escapes by
/// forking, again until none is left (or 5 s have passed), and reaps them.
/// Counts them in the registry as processes that left their bot's group.
///
/// Once no bot process is alive, every child of the arena is a leftover,
/// and the sweep goes on until the arena has no child at all: a look at the
/// process table may miss a process that keeps changing its pid, but
/// nothing is below a subreaper without a child.
pub fn sweep(registry: &Registry) -> Swept {
    let me = std::process::id() as i32;
    // The table is read while the registry is held, so that no bot process
    // starts or is forgotten meanwhile: those not recorded are not bots.
    let look = || registry.with_live(|live| tree::look(|table| tree::below(table, me, |pid| live.contains_key(&pid))));
    let deadline = Instant::now() + SWEEP_PATIENCE;
    let mut swept = Swept::default();
    loop {
        let killed = tree::kill_all(look, |table| reap(registry, me, table), deadline);
        registry.note_escaped(killed.processes.len());
        swept.killed += killed.processes.len();
        let more = registry.is_empty() && has_children() && !only_companions(registry, me);
        if !more || Instant::now() >= deadline {
            swept.remaining = killed.remaining.max(usize::from(more));
            return swept;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether every child of the arena is a helper of its own (see
/// [`Registry::start_companion`]), which outlives the bots.
fn only_companions(registry: &Registry, me: i32) -> bool {
    let companions = registry.companions();
    !companions.is_empty() && tree::table().iter().filter(|p| p.parent == me).all(|p| companions.contains(&p.pid))
}

/// Whether the arena has a child, alive or not yet reaped (reaping none).
fn has_children() -> bool {
    use nix::sys::wait::{Id, waitid};
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    !matches!(waitid(Id::All, flags), Err(nix::errno::Errno::ECHILD))
}

/// Reaps the children of the arena in `table` that have exited and are no live bot process.
fn reap(registry: &Registry, me: i32, table: &[Process]) {
    let exited: Vec<i32> = registry.with_live(|live| {
        table.iter().filter(|p| p.parent == me && p.zombie && !live.contains_key(&p.pid)).map(|p| p.pid).collect()
    });
    for pid in exited {
        let _ = waitpid(Pid::from_raw(pid), Some(WaitPidFlag::WNOHANG));
    }
}

/// Sweeps (see [`sweep`]) each time a child of the arena exits (the exits
/// during a sweep and the pause after it together: [`PAUSE_SHARE`]), on a
/// thread of its own, until the returned guard is dropped.
pub fn watch(registry: &Registry) -> Watch {
    let registry = registry.clone();
    // Listen before returning, so that no exit is missed.
    let Ok(mut exits) = Signals::new([SIGCHLD]) else {
        // Not fatal: the supervisors reap what the bots start, and the end of the run sweeps.
        return Watch { handle: None, thread: None };
    };
    let handle = exits.handle();
    let closed = handle.clone();
    let thread = std::thread::spawn(move || {
        for _ in exits.forever() {
            let started = Instant::now();
            sweep(&registry);
            // The exits meanwhile are swept together after the pause.
            let resume = started + started.elapsed() * (PAUSE_SHARE + 1);
            while !closed.is_closed() && Instant::now() < resume {
                std::thread::sleep(PAUSE_STEP.min(resume.saturating_duration_since(Instant::now())));
            }
        }
    });
    Watch { handle: Some(handle), thread: Some(thread) }
}

/// Keeps [`watch`] sweeping while it lives.
pub struct Watch {
    handle: Option<Handle>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            handle.close();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
