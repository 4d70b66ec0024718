//! Idle bot processes between games, keyed by bot and seat.
//!
//! A process plays the seat it was started for (its `hello` names the seat)
//! for as long as it lives, across all the games of a match.

use crate::bot::process::BotProcess;
use std::collections::HashMap;
use std::sync::Mutex;

/// Idle processes of one worker.
#[derive(Default)]
pub struct Pool {
    idle: Mutex<HashMap<(usize, usize), Vec<BotProcess>>>,
    cpu: Option<usize>,
}

impl Pool {
    /// A pool whose processes run on `cpu` (if pinned).
    pub fn on(cpu: Option<usize>) -> Pool {
        Pool { idle: Mutex::default(), cpu }
    }

    /// The CPU new processes of this pool are pinned to, if any.
    pub fn cpu(&self) -> Option<usize> {
        self.cpu
    }

    /// An idle process of `bot` for `seat`, if there is one.
    pub fn take(&self, bot: usize, seat: usize) -> Option<BotProcess> {
        self.idle.lock().expect("pool lock").get_mut(&(bot, seat)).and_then(Vec::pop)
    }

    /// Returns a healthy process to the pool.
    pub fn put(&self, bot: usize, seat: usize, process: BotProcess) {
        self.idle.lock().expect("pool lock").entry((bot, seat)).or_default().push(process);
    }

    /// Removes and returns every idle process.
    pub fn drain(&self) -> Vec<BotProcess> {
        self.idle.lock().expect("pool lock").drain().flat_map(|(_, processes)| processes).collect()
    }
}
