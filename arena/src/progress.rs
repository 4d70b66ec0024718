//! What the user sees while games run: on a terminal, a progress bar with
//! games done, games per second, time left and the current leader; otherwise
//! a plain line every ten seconds. Every fault is reported on a line of its
//! own as it happens.

use crate::console::errln;
use crate::fault::FaultKind;
use crate::run::Finished;
use crate::standings::Standings;
use crate::untrusted;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashSet;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How often the plain progress line is printed when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(10);
/// How often the status shown on the bar (by default the leader) is recomputed.
const LEADER_EVERY: Duration = Duration::from_millis(500);

/// Progress of a run on stderr.
pub struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    /// Whether `total` is only a limit (the run stops when it has its answer).
    at_most: bool,
    done: u64,
    started: Instant,
    last_update: Instant,
    /// The bots whose remaining games are forfeited, already reported.
    given_up: HashSet<String>,
}

impl Progress {
    /// Progress over `total` games.
    pub fn new(total: u64) -> Progress {
        Progress::shown(total, false, "{elapsed_precise} [{bar:30}] {pos}/{len} games, {per_sec}, {eta} left {msg}")
    }

    /// Progress of a run of at most `limit` games that stops when it has its
    /// answer (an SPRT): the games so far and the limit, without a bar
    /// towards it or a time left.
    pub fn at_most(limit: u64) -> Progress {
        Progress::shown(limit, true, "{elapsed_precise} {pos} games (at most {len}), {per_sec} {msg}")
    }

    fn shown(total: u64, at_most: bool, template: &str) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let style = ProgressStyle::with_template(template).expect("the template is valid").progress_chars("=> ");
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(style);
            bar
        });
        let now = Instant::now();
        Progress { bar, total, at_most, done: 0, started: now, last_update: now, given_up: HashSet::new() }
    }

    /// Counts a finished game and reports its faults.
    pub fn finished(&mut self, game: &Finished, standings: &Standings) {
        self.finished_with(game, || leader(standings));
    }

    /// Counts a finished game and reports its faults; `status` (called only
    /// when the display is updated) is shown after the count.
    pub fn finished_with(&mut self, game: &Finished, status: impl FnOnce() -> String) {
        self.done += 1;
        for fault in &game.summary.faults {
            // A bot given up on forfeits every game left: said once, not once a game.
            if fault.kind == FaultKind::NotStarted && !self.given_up.insert(fault.bot.clone()) {
                continue;
            }
            let mut line = format!(
                "fault: game {} seat {} ({}): {}: {}",
                game.summary.id,
                fault.seat,
                fault.bot,
                fault.kind,
                untrusted::escape(&fault.message)
            );
            if let Some(last) = fault.stderr.iter().rev().find(|l| !l.trim().is_empty()) {
                line.push_str(&format!(" | its stderr ended: {}", untrusted::escape(last.trim_end())));
            }
            match &self.bar {
                Some(bar) => bar.println(line),
                None => errln!("{line}"),
            }
        }
        let now = Instant::now();
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                if now - self.last_update >= LEADER_EVERY || self.done == self.total {
                    self.last_update = now;
                    bar.set_message(status());
                }
            }
            None if now - self.last_update >= PLAIN_EVERY => {
                self.last_update = now;
                let rate = self.done as f64 / (now - self.started).as_secs_f64().max(1e-9);
                errln!("{}, {rate:.1} games/s {}", self.games_text(), status());
            }
            None => {}
        }
    }

    /// The games so far, as the plain line shows them: `49/400 games`, or
    /// `49 games (at most 100000)` for a run that stops when it has its answer.
    fn games_text(&self) -> String {
        match self.at_most {
            true => format!("{} games (at most {})", self.done, self.total),
            false => format!("{}/{} games", self.done, self.total),
        }
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

fn leader(standings: &Standings) -> String {
    match standings.ranked().first() {
        Some(bot) if bot.games > 0 => format!("| leader {} ({:.1}%)", bot.name, bot.score * 100.0),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_that_stops_at_its_answer_counts_its_games_against_a_limit() {
        let mut sprt = Progress::at_most(100_000);
        sprt.done = 49;
        assert_eq!(sprt.games_text(), "49 games (at most 100000)");
        let mut league = Progress::new(400);
        league.done = 49;
        assert_eq!(league.games_text(), "49/400 games");
    }
}
