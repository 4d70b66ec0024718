//! `arena check-bot`: a conformance test of one bot, for its author.
//!
//! Each check starts fresh processes of the bot, so that one failure does
//! not hide another: the handshake, echoing request ids, positions the game
//! engine sets up where bots commonly go wrong ([`Game::conformance_positions`]),
//! whole games at every table the engine names ([`Game::conformance_tables`])
//! with the bot in every seat, a second game in the same processes, and
//! exiting on `bye` and at the end of input. Two checks are drawn from all
//! the others: whether every answer came in time, and whether any process
//! the bot started outlived it. If the handshake fails, every other check is
//! skipped. A bot's misbehaviour is a failed check, never an error.
//!
//! - [`checks`]: the checks themselves; [`report`]: the printed checklist.

pub mod checks;
pub mod report;

use crate::bot::orphans;
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::table::Limits;
use game::{Game, Position};
use std::sync::Arc;
use std::time::Duration;

/// What a check-bot run needs.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The bot under test.
    pub bot: BotSpec,
    /// The time limits (and other limits) its processes get.
    pub limits: Limits,
    /// The seed of the whole games (and of the bot's `game_start` seeds).
    pub seed: u64,
    /// How many checks run at once.
    pub jobs: usize,
}

/// How a check came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It passed; what was seen, briefly.
    Pass(String),
    /// It failed.
    Fail(Box<Failure>),
    /// It was not run, and why.
    Skip(String),
}

/// A failed check, with what a bot author needs to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What went wrong, including what the bot answered, if anything.
    pub problem: String,
    /// What the bot was sent last, one message a line (or a note saying what these lines are).
    pub sent: Vec<String>,
    /// The last lines the bot wrote to stderr.
    pub stderr: Vec<String>,
    /// How to fix it, pointing to PROTOCOL.md.
    pub fix: String,
}

/// The answers a check received, for the timing check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Timing {
    /// How many moves were answered.
    pub answers: usize,
    /// The slowest of them.
    pub slowest: Duration,
    /// Whether a move went unanswered within the time limit.
    pub timed_out: bool,
}

impl Timing {
    /// Counts one answer that took `elapsed`.
    pub fn note(&mut self, elapsed: Duration) {
        self.answers += 1;
        self.slowest = self.slowest.max(elapsed);
    }
}

/// One line of the checklist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The check's name, e.g. `"handshake"` or `"position:lead"`.
    pub name: String,
    /// What a correct bot does, when the check is about a position.
    pub expect: Option<&'static str>,
    /// How it came out.
    pub verdict: Verdict,
    /// The answers it received.
    pub timing: Timing,
}

impl Outcome {
    /// Whether the check failed.
    pub fn failed(&self) -> bool {
        matches!(self.verdict, Verdict::Fail(_))
    }
}

/// Everything the checks of one run share.
pub struct Context<G: Game> {
    /// The run's settings.
    pub settings: Settings,
    /// The engine's positions.
    pub positions: Vec<Position<G>>,
    /// The engine's tables: a short name and a variant each.
    pub tables: Vec<(&'static str, G::Variant)>,
    /// Live processes of the bot.
    pub registry: Registry,
}

/// Runs every check on the bot and returns the checklist, in order. Every
/// process is recorded in `registry` while it lives.
pub fn run<G: Game>(settings: Settings, registry: Registry) -> Vec<Outcome> {
    orphans::adopt();
    let watch = orphans::watch(&registry);
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a single-threaded runtime starts");
    let context = Arc::new(Context::<G> {
        settings,
        positions: G::conformance_positions(),
        tables: G::conformance_tables(),
        registry,
    });
    let mut outcomes = runtime.block_on(checks::run_all(Arc::clone(&context)));
    drop(watch);
    let swept = orphans::sweep(&context.registry);
    outcomes.push(checks::leftovers(context.registry.escaped(), swept.remaining));
    outcomes
}
