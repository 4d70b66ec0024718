//! The set of bot process groups alive right now, so that all of them can be
//! killed at once when the arena is interrupted.

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// A shared set of live process-group ids. Cloning shares the set.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    groups: Arc<Mutex<HashSet<i32>>>,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Self {
        Registry::default()
    }

    /// Records a live process group.
    pub fn add(&self, group: i32) {
        self.groups.lock().expect("registry lock").insert(group);
    }

    /// Forgets a process group that has been killed.
    pub fn remove(&self, group: i32) {
        self.groups.lock().expect("registry lock").remove(&group);
    }

    /// Whether `group` is a live bot process group (its leader's pid).
    pub fn contains(&self, group: i32) -> bool {
        self.groups.lock().expect("registry lock").contains(&group)
    }

    /// How many process groups are alive.
    pub fn len(&self) -> usize {
        self.groups.lock().expect("registry lock").len()
    }

    /// Whether no process group is alive.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sends SIGKILL to every process group recorded.
    pub fn kill_all(&self) {
        for &group in self.groups.lock().expect("registry lock").iter() {
            kill_group(group);
        }
    }
}

/// Sends SIGKILL to a process group; a group that is already gone is fine.
pub fn kill_group(group: i32) {
    let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
}
