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
//! skipped. A bot that plays many games at once in one process (see
//! [`crate::bot::session`]) is checked on games interleaved in one session
//! and on a fault in one of them too; one that plays any seat, on one
//! process playing every seat in turn. A bot's misbehaviour is a failed
//! check, never an error.
//!
//! - [`checks`]: the checks themselves; [`sessions`]: those of a bot that
//!   plays many games at once; [`any_seat`]: that of a bot that plays any
//!   seat; [`games`]: whole games as a match plays them; [`start`]: the
//!   fresh process each starts from; [`report`]: the printed checklist.

pub(crate) mod any_seat;
pub(crate) mod checks;
pub(crate) mod games;
pub(crate) mod report;
pub(crate) mod sessions;
pub(crate) mod start;

use crate::bot::orphans;
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::engine::spec::Engine;
use crate::run::table::{Limits, Resolved};
use game::{Game, Position};
use serde_json::Value;
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
    /// The least left on the bot's game clock after a move (`--clock`), in
    /// the games played under one.
    pub least_clock: Option<Duration>,
}

impl Timing {
    /// Counts one answer that took `elapsed`.
    pub fn note(&mut self, elapsed: Duration) {
        self.answers += 1;
        self.slowest = self.slowest.max(elapsed);
    }

    /// Notes that a move left `left` on the bot's clock.
    pub fn note_clock(&mut self, left: Duration) {
        self.least_clock = Some(self.least_clock.map_or(left, |least| least.min(left)));
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

/// A position a bot is checked at, of a built-in game: what its seat was
/// told of the events that led there, then its turn.
pub struct Case {
    /// A short name for the checklist, e.g. `"spinner-sides"`.
    pub name: &'static str,
    /// What a correct bot must do, in a sentence.
    pub expect: &'static str,
    /// The variant in force.
    pub variant: Resolved,
    /// The seat to act.
    pub seat: usize,
    /// What the seat was told of each event so far.
    pub told: Vec<Value>,
    /// What it observes now.
    pub state: Value,
    /// Its legal choices.
    pub choices: Vec<Value>,
    /// The index of a move named by value, or why it is not legal.
    pub find: Finder,
}

/// How a position finds a move named by value: its index, or why it is not legal.
pub type Finder = Box<dyn Fn(&Value) -> Result<usize, Option<String>> + Send + Sync>;

impl Case {
    /// The case of a typed game's position.
    pub fn of<G: Game>(position: Position<G>) -> Case {
        let Position { name, expect, variant, game } = position;
        let seat = game.to_act().expect("a position has a seat to act");
        let told = game.events().iter().filter_map(|event| game.view(event, seat)).map(|view| json(&view)).collect();
        let (state, choices) = (json(&game.state(seat)), game.choices().iter().map(json).collect());
        let find: Finder = Box::new(move |named: &Value| {
            let named: G::Move =
                serde_json::from_value(named.clone()).map_err(|e| Some(format!("not a move of {}: {e}", G::NAME)))?;
            game.find_move(&named).ok_or_else(|| game.why_illegal(&named))
        });
        Case { name, expect, variant: Resolved::of::<G>(&variant), seat, told, state, choices, find }
    }
}

/// A game's payload as a JSON value.
fn json<T: serde::Serialize>(payload: &T) -> Value {
    serde_json::to_value(payload).expect("a game's payloads serialize")
}

/// What the bot is checked on: the game's engine, its tables (a short name
/// and a variant each; at least one) and its positions.
pub struct Checked {
    /// The engine.
    pub engine: Arc<Engine>,
    /// The tables whole games are played at.
    pub tables: Vec<(String, Resolved)>,
    /// The positions.
    pub cases: Vec<Case>,
}

/// Everything the checks of one run share.
pub struct Context {
    /// The run's settings.
    pub settings: Settings,
    /// What the bot is checked on.
    pub checked: Checked,
    /// Live processes of the bot.
    pub registry: Registry,
}

/// Runs every check on the bot and returns the checklist, in order. Every
/// process is recorded in `registry` while it lives.
pub fn run(settings: Settings, checked: Checked, registry: Registry) -> Vec<Outcome> {
    orphans::adopt();
    let watch = orphans::watch(&registry);
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a single-threaded runtime starts");
    let context = Arc::new(Context { settings, checked, registry });
    let mut outcomes = runtime.block_on(checks::run_all(Arc::clone(&context)));
    drop(watch);
    let swept = orphans::sweep(&context.registry);
    outcomes.push(checks::leftovers(context.registry.escaped(), swept.remaining));
    outcomes
}
