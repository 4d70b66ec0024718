//! What the user sees while a match runs: a progress line on a terminal, and
//! one line on stderr for every fault as it happens.

use crate::run::Finished;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Progress of a match on stderr.
pub struct Progress {
    total: u64,
    done: u64,
    started: Instant,
    last_drawn: Option<Instant>,
    terminal: bool,
}

impl Progress {
    /// Progress over `total` games.
    pub fn new(total: u64) -> Progress {
        Progress {
            total,
            done: 0,
            started: Instant::now(),
            last_drawn: None,
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// Counts a finished game, reports its faults, redraws now and then.
    pub fn finished(&mut self, game: &Finished) {
        self.done += 1;
        for fault in &game.summary.faults {
            self.clear();
            eprintln!(
                "fault: game {} seat {} ({}): {}: {}",
                game.summary.id, fault.seat, fault.bot, fault.kind, fault.message
            );
        }
        let now = Instant::now();
        let due = self.last_drawn.is_none_or(|t| now - t >= Duration::from_millis(100));
        if self.terminal && (due || self.done == self.total) {
            self.last_drawn = Some(now);
            let rate = self.done as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
            eprint!("\r\x1b[2K{}/{} games, {:.1} games/s", self.done, self.total, rate);
            let _ = std::io::stderr().flush();
        }
    }

    /// Erases the progress line.
    pub fn clear(&mut self) {
        if self.terminal && self.last_drawn.is_some() {
            eprint!("\r\x1b[2K");
            let _ = std::io::stderr().flush();
        }
    }
}
