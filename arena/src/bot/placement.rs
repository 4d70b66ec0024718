//! Where a worker's processes run, and how its thread waits for them.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where the processes of a worker (its bots, and an engine program) run,
/// and how the worker's thread waits for their answers.
#[derive(Debug, Clone, Default)]
pub struct Placement {
    /// The CPUs they are pinned to, if pinned (see [`super::cpus`]).
    pub cpus: Option<Vec<usize>>,
    /// Whether their answers are awaited in place, the thread blocked on
    /// their pipes rather than handed back to the runtime: for a thread
    /// with nothing else to do meanwhile (a worker playing one game at a
    /// time). See [`super::process::BotProcess::exchange`].
    pub in_place: bool,
    /// How many processes the worker is starting in the background (ahead
    /// of their lane): while any is, answers are awaited through the
    /// runtime, so that their greetings are read as they come.
    pub starting: Arc<AtomicUsize>,
}

impl Placement {
    /// Whether an answer may be awaited in place now.
    pub fn waits_in_place(&self) -> bool {
        self.in_place && self.starting.load(Ordering::Relaxed) == 0
    }

    /// Counts a process being started in the background until the guard is dropped.
    pub fn starting(&self) -> Starting {
        self.starting.fetch_add(1, Ordering::Relaxed);
        Starting(Arc::clone(&self.starting))
    }
}

/// A process being started in the background (see [`Placement::starting`]).
#[derive(Debug)]
pub struct Starting(Arc<AtomicUsize>);

impl Drop for Starting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}
