//! The bot processes alive right now (each a supervisor, see
//! [`super::supervisor`], with the bot below it), so that all of them can be
//! killed at once when the arena is interrupted, and so that what is not
//! theirs can be told apart; the arena's own helpers (its *companions*: the
//! keeper of the sandbox's copies, the dynamic loader listing a library),
//! which are no bot's and no leftover; and a count of the processes that
//! left their bot's process group, for `arena check-bot`.

use super::tree;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long killing every bot's processes at once may take.
const KILL_PATIENCE: Duration = Duration::from_secs(5);

/// A shared set of live bot processes (their supervisors' pids). Cloning shares the set.
///
/// Each pid is counted: a supervisor is forgotten only after the arena has
/// reaped it, and by then its pid may be another new supervisor's.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    live: Arc<Mutex<HashMap<i32, usize>>>,
    /// Those of `live` that are the arena's own helpers, not bots.
    companions: Arc<Mutex<HashSet<i32>>>,
    escaped: Arc<AtomicUsize>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Starts a process with `spawn` and records it, both while holding the
    /// registry, so that no one who looks at the registry sees the process
    /// unrecorded (see [`Registry::with_live`]).
    pub fn start(
        &self,
        spawn: impl FnOnce() -> std::io::Result<tokio::process::Child>,
    ) -> std::io::Result<tokio::process::Child> {
        let mut live = self.live.lock().expect("registry lock");
        let child = spawn()?;
        if let Some(pid) = child.id() {
            *live.entry(pid as i32).or_default() += 1;
        }
        Ok(child)
    }

    /// Starts `command`, a helper of the arena's own, and records it as
    /// such (see [`Registry::start`]): no sweep for leftovers kills or reaps
    /// it, and killing every bot's processes spares it. Forget it with
    /// [`Registry::forget_companion`] once it is reaped.
    pub fn start_companion(&self, command: &mut std::process::Command) -> std::io::Result<std::process::Child> {
        let mut live = self.live.lock().expect("registry lock");
        let child = command.spawn()?;
        *live.entry(child.id() as i32).or_default() += 1;
        self.companions.lock().expect("registry lock").insert(child.id() as i32);
        Ok(child)
    }

    /// The helpers of the arena's own alive now (see [`Registry::start_companion`]).
    pub fn companions(&self) -> HashSet<i32> {
        self.companions.lock().expect("registry lock").clone()
    }

    /// Forgets a helper started by [`Registry::start_companion`], once reaped.
    pub fn forget_companion(&self, pid: i32) {
        self.companions.lock().expect("registry lock").remove(&pid);
        self.remove(pid);
    }

    /// Forgets a process that has been killed and reaped (or is being reaped).
    pub fn remove(&self, pid: i32) {
        let mut live = self.live.lock().expect("registry lock");
        if let Some(count) = live.get_mut(&pid) {
            *count -= 1;
            if *count == 0 {
                live.remove(&pid);
            }
        }
    }

    /// Calls `look` with the live processes (as keys), none starting meanwhile.
    pub fn with_live<T>(&self, look: impl FnOnce(&HashMap<i32, usize>) -> T) -> T {
        look(&self.live.lock().expect("registry lock"))
    }

    /// Whether no bot process is alive (helpers of the arena's own aside).
    pub fn is_empty(&self) -> bool {
        let companions = self.companions.lock().expect("registry lock").len();
        self.with_live(|live| live.len() <= companions)
    }

    /// Kills every process recorded, and everything below each.
    pub fn kill_all(&self) {
        let me = std::process::id() as i32;
        let companions = self.companions.lock().expect("registry lock").clone();
        let live: Vec<i32> =
            self.with_live(|live| live.keys().copied().filter(|pid| !companions.contains(pid)).collect());
        let select = |table: &[tree::Process]| {
            // Only children of the arena: a pid recorded may be reaped by now, and another process's.
            let ours = |p: &&tree::Process| p.parent == me && live.contains(&p.pid);
            let mut found: Vec<tree::Process> = table.iter().filter(ours).copied().collect();
            for root in found.clone() {
                found.extend(tree::below(table, root.pid, |_| false));
            }
            found
        };
        tree::kill_all(|| tree::look(select), |_| {}, Instant::now() + KILL_PATIENCE);
    }

    /// Counts `count` more processes that left their bot's process group.
    pub fn note_escaped(&self, count: usize) {
        self.escaped.fetch_add(count, Ordering::SeqCst);
    }

    /// How many processes left their bot's process group so far.
    pub fn escaped(&self) -> usize {
        self.escaped.load(Ordering::SeqCst)
    }
}
