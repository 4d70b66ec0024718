//! One game in progress, as the core sees any engine: the events so far
//! (each with what every seat is told of it), who is to act, the choices,
//! the state of the seat to act, the scores and the outcome, kept from the
//! engine's last `step`. Every answer is checked before it is believed: an
//! engine that answers something that does not hold has failed, and its
//! failure is never a bot's.

use super::link::Link;
use super::origin::Origin;
use super::process::{EngineError, name};
use super::rules::check_step;
use super::spec::{Engine, Trouble};
use protocol::engine::{Answer, OutcomeInfo, Raw, Request, Step, StepEvent};
use serde_json::Value;

/// The seat a move event names.
#[derive(serde::Deserialize)]
struct Mover {
    seat: Option<usize>,
}

/// A game in progress on a [`Link`].
pub struct Running<'e> {
    engine: &'e Engine,
    seats: usize,
    teams: &'e [Vec<usize>],
    events: Vec<StepEvent<Raw>>,
    to_act: Option<usize>,
    choices: Vec<Raw>,
    state: Raw,
    scores: Vec<i64>,
    outcome: Option<OutcomeInfo>,
    text: Option<String>,
}

/// Which choice a move named by value is.
pub enum Found {
    /// This one.
    Index(usize),
    /// None: the move is not legal, and perhaps why.
    Illegal(Option<String>),
}

impl<'e> Running<'e> {
    /// Starts a game of `variant` (seated as `teams`) on `link`; `describe`
    /// when someone reads its steps' texts (a person at the terminal).
    ///
    /// # Errors
    /// [`Trouble::Refused`] when the engine refuses the setup (or the
    /// variant), [`Trouble::Failed`] when it fails.
    pub async fn start(
        engine: &'e Engine,
        link: &mut dyn Link,
        variant: &Value,
        teams: &'e [Vec<usize>],
        origin: Origin<'_>,
        describe: bool,
    ) -> Result<Running<'e>, Trouble> {
        let (seed, setup) = match origin {
            Origin::Seed(seed) => (Some(seed), None),
            Origin::Setup(setup) => (None, Some(setup.clone())),
        };
        let seats = teams.iter().map(Vec::len).sum();
        let mut running = Running {
            engine,
            seats,
            teams,
            events: Vec::new(),
            to_act: None,
            choices: Vec::new(),
            state: protocol::engine::raw(&Value::Null),
            scores: Vec::new(),
            outcome: None,
            text: None,
        };
        match link.ask(Request::Start { variant: variant.clone(), seed, setup, describe }).await? {
            Answer::Step(step) => running.take("start", step)?,
            Answer::Error { message } => return Err(Trouble::refused(&message)),
            other => return Err(running.wrong("start", &other).into()),
        }
        Ok(running)
    }

    /// The seat to act, or `None` when the game is over.
    pub fn to_act(&self) -> Option<usize> {
        self.to_act
    }

    /// The legal choices of the seat to act.
    pub fn choices(&self) -> &[Raw] {
        &self.choices
    }

    /// What the seat to act observes.
    pub fn state(&self) -> &Raw {
        &self.state
    }

    /// What the seat to act sees, as text for a person, when the engine draws it.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Every event so far, with what each seat is told of it.
    pub fn events(&self) -> &[StepEvent<Raw>] {
        &self.events
    }

    /// Every event of the game, which it ends.
    pub fn into_events(self) -> Vec<StepEvent<Raw>> {
        self.events
    }

    /// Each seat's score now.
    pub fn scores(&self) -> &[i64] {
        &self.scores
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<&OutcomeInfo> {
        self.outcome.as_ref()
    }

    /// Plays choice `index` (one of [`Running::choices`]) for the seat to act.
    ///
    /// # Errors
    /// When the engine fails, or refuses a choice it listed.
    pub async fn play(&mut self, link: &mut dyn Link, index: usize) -> Result<(), EngineError> {
        debug_assert!(index < self.choices.len(), "the arena plays listed choices only");
        match link.ask(Request::Play { index }).await? {
            Answer::Step(step) if step.events.is_empty() => Err(self
                .engine
                .failed(format!("answered play {index} with a step of no events (the first is the move)"))),
            Answer::Step(step) => {
                let seat = self.to_act.expect("a game in progress has a seat to act");
                let mover = serde_json::from_str::<Mover>(step.events[0].event.get()).ok().and_then(|m| m.seat);
                if mover != Some(seat) {
                    return Err(self.engine.failed(format!(
                        "answered play {index} (seat {seat}'s move) with a first event whose \"seat\" is {}, not {seat}: \
                         the first event of a play is the move, naming the seat that made it",
                        mover.map_or("missing".to_string(), |m| m.to_string())
                    )));
                }
                self.take("play", step)
            }
            Answer::Error { message } => Err(self
                .engine
                .failed(format!("refused choice {index} of the {} it listed: {message}", self.choices.len()))),
            other => Err(self.wrong("play", &other)),
        }
    }

    /// Which choice the move `named` (as a bot sent it) is.
    ///
    /// # Errors
    /// When the engine fails, or names an index out of range.
    pub async fn find(&self, link: &mut dyn Link, named: Value) -> Result<Found, EngineError> {
        match link.ask(Request::Find { named }).await? {
            Answer::Found { index: Some(index), .. } if index < self.choices.len() => Ok(Found::Index(index)),
            Answer::Found { index: Some(index), .. } => Err(self
                .engine
                .failed(format!("answered find with choice {index}, but it listed {}", self.choices.len()))),
            Answer::Found { index: None, why } => Ok(Found::Illegal(why)),
            other => Err(self.wrong("find", &other)),
        }
    }

    /// Each seat's final score when the seats in `faulted` forfeit now.
    ///
    /// # Errors
    /// When the engine fails, or gives the wrong number of scores.
    pub async fn forfeit(&self, link: &mut dyn Link, faulted: &[usize]) -> Result<Vec<i64>, EngineError> {
        match link.ask(Request::Forfeit { faulted: faulted.to_vec() }).await? {
            Answer::Scores { scores } if scores.len() == self.seats => Ok(scores),
            Answer::Scores { scores } => Err(self.engine.failed(format!(
                "answered forfeit with {} scores for {} seats",
                scores.len(),
                self.seats
            ))),
            other => Err(self.wrong("forfeit", &other)),
        }
    }

    /// Takes in a step, once it is checked.
    fn take(&mut self, request: &str, step: Step<Raw>) -> Result<(), EngineError> {
        check_step(&step, self.seats, self.teams)
            .map_err(|e| self.engine.failed(format!("answered {request} with a step that does not hold: {e}")))?;
        self.events.extend(step.events);
        self.to_act = step.to_act;
        self.choices = step.choices;
        self.state = step.state;
        self.scores = step.scores;
        self.outcome = step.outcome;
        self.text = step.text;
        Ok(())
    }

    fn wrong(&self, request: &str, answer: &Answer<Raw>) -> EngineError {
        self.engine.failed(format!("answered {request} with {}", name(answer)))
    }
}
