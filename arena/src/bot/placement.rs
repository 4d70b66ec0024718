//! Where a worker's processes run, and how its thread waits for them.

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
}
