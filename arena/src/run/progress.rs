//! What the user sees while games run: on a terminal, a progress bar with
//! games done, games per second, time left and the current leader; otherwise
//! a plain line every ten seconds. Every fault is reported on a line of its
//! own as it happens.

use crate::bot::fault::FaultKind;
use crate::run::runner::Finished;
use crate::stats::standings::Standings;
use crate::terminal::console::errln;
use crate::terminal::untrusted;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::collections::HashSet;
use std::io::IsTerminal;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How often the plain progress line is printed when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(10);
/// How often the thread printing the plain line looks whether it is due.
const TICK: Duration = Duration::from_millis(500);
/// How often the status shown on the bar (by default the leader) is recomputed.
const LEADER_EVERY: Duration = Duration::from_millis(500);

/// Progress of a run on stderr.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// What the plain line shows, shared with the thread that prints it.
    plain: Arc<Mutex<Plain>>,
    /// The thread printing the plain line (when stderr is not a terminal),
    /// and the sender whose drop stops it.
    ticker: Option<(mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
    last_update: Instant,
    /// The bots whose remaining games are forfeited, already reported.
    given_up: HashSet<String>,
}

/// The plain progress line, and when it is due. Pure: the clock is given.
struct Plain {
    total: u64,
    /// Whether `total` is only a limit (the run stops when it has its answer).
    at_most: bool,
    done: u64,
    started: Instant,
    last_line: Instant,
    /// The status shown after the count (by default the leader), as last computed.
    status: String,
}

impl Plain {
    fn new(total: u64, at_most: bool, now: Instant) -> Plain {
        Plain { total, at_most, done: 0, started: now, last_line: now, status: String::new() }
    }

    /// The line to print at `now`, if one is due: every [`PLAIN_EVERY`],
    /// whether or not a game has finished meanwhile.
    fn due(&mut self, now: Instant) -> Option<String> {
        if now.saturating_duration_since(self.last_line) < PLAIN_EVERY {
            return None;
        }
        self.last_line = now;
        let rate = self.done as f64 / now.saturating_duration_since(self.started).as_secs_f64().max(1e-9);
        Some(format!("{}, {} {}", self.games_text(), games_per_second(rate), self.status).trim_end().to_string())
    }

    /// The games so far, as the plain line shows them: `49/400 games`, or
    /// `49 games (at most 100000)` for a run that stops when it has its answer.
    fn games_text(&self) -> String {
        match self.at_most {
            true => format!("{} games (at most {})", self.done, self.total),
            false => format!("{}/{} games", self.done, self.total),
        }
    }
}

/// A rate of games, to the digits that mean something: `8.9 games/s`,
/// `357 games/s`, `0.12 games/s`.
fn games_per_second(rate: f64) -> String {
    match rate {
        r if r >= 100.0 => format!("{r:.0} games/s"),
        r if r >= 1.0 => format!("{r:.1} games/s"),
        r => format!("{r:.2} games/s"),
    }
}

impl Progress {
    /// Progress over `total` games.
    pub fn new(total: u64) -> Progress {
        Progress::shown(total, false, "{elapsed_precise} [{bar:30}] {pos}/{len} games, {rate}, {eta} left {msg}")
    }

    /// Progress of a run of at most `limit` games that stops when it has its
    /// answer (an SPRT): the games so far and the limit, without a bar
    /// towards it or a time left.
    pub fn at_most(limit: u64) -> Progress {
        Progress::shown(limit, true, "{elapsed_precise} {pos} games (at most {len}), {rate} {msg}")
    }

    fn shown(total: u64, at_most: bool, template: &str) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let style = ProgressStyle::with_template(template)
                .expect("the template is valid")
                .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&games_per_second(state.per_sec()));
                })
                .progress_chars("=> ");
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            bar.set_style(style);
            // Redrawn while no game finishes, too: the clock and the rate move on.
            bar.enable_steady_tick(Duration::from_secs(1));
            bar
        });
        let now = Instant::now();
        let plain = Arc::new(Mutex::new(Plain::new(total, at_most, now)));
        let ticker = bar.is_none().then(|| tick(Arc::clone(&plain)));
        Progress { bar, plain, ticker, last_update: now, given_up: HashSet::new() }
    }

    /// Counts a finished game and reports its faults.
    pub fn finished(&mut self, game: &Finished, standings: &Standings) {
        self.finished_with(game, || leader(standings));
    }

    /// Counts a finished game and reports its faults; `status` (called only
    /// when the display is updated) is shown after the count.
    pub fn finished_with(&mut self, game: &Finished, status: impl FnOnce() -> String) {
        let mut plain = self.plain.lock().expect("progress lock");
        plain.done += 1;
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
        let update = now - self.last_update >= LEADER_EVERY || plain.done == plain.total;
        if update {
            self.last_update = now;
            plain.status = status();
        }
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                if update {
                    bar.set_message(plain.status.clone());
                }
            }
            None => {
                if let Some(line) = plain.due(now) {
                    errln!("{line}");
                }
            }
        }
    }

    /// Removes the bar, or stops the plain line.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if let Some((stop, thread)) = self.ticker.take() {
            drop(stop);
            let _ = thread.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// Starts the thread that prints the plain line when it is due, also while
/// no game finishes (games waiting out a long move, a bot's start-up, the
/// disk); it stops when the sender it returns is dropped.
fn tick(plain: Arc<Mutex<Plain>>) -> (mpsc::Sender<()>, std::thread::JoinHandle<()>) {
    let (stop, stopped) = mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(TICK) {
            if let Some(line) = plain.lock().expect("progress lock").due(Instant::now()) {
                errln!("{line}");
            }
        }
    });
    (stop, thread)
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
        let now = Instant::now();
        let mut sprt = Plain::new(100_000, true, now);
        sprt.done = 49;
        assert_eq!(sprt.games_text(), "49 games (at most 100000)");
        let mut league = Plain::new(400, false, now);
        league.done = 49;
        assert_eq!(league.games_text(), "49/400 games");
    }

    #[test]
    fn the_plain_line_is_due_every_ten_seconds_whether_or_not_games_finish() {
        let start = Instant::now();
        let mut plain = Plain::new(400, false, start);
        assert_eq!(plain.due(start + Duration::from_secs(9)), None);
        // No game has finished in the first 10 s: the line says so all the same.
        assert_eq!(plain.due(start + PLAIN_EVERY).as_deref(), Some("0/400 games, 0.00 games/s"));
        assert_eq!(plain.due(start + PLAIN_EVERY + Duration::from_secs(1)), None, "not again at once");
        (plain.done, plain.status) = (89, "| leader g (51.0%)".to_string());
        let line = plain.due(start + 2 * PLAIN_EVERY).unwrap();
        assert_eq!(line, "89/400 games, 4.5 games/s | leader g (51.0%)");
    }

    #[test]
    fn rates_are_shown_to_the_digits_that_mean_something() {
        assert_eq!(games_per_second(8.9428), "8.9 games/s");
        assert_eq!(games_per_second(357.93), "358 games/s");
        assert_eq!(games_per_second(0.1234), "0.12 games/s");
    }
}
