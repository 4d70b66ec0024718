//! Replaying a recorded game to one bot: the bot is seated in one seat and
//! told the game exactly as that seat saw it, but every move, its own
//! included, is the recorded one. Wherever the bot now chooses differently
//! from the record, the difference is noted: a behaviour diff between the
//! bot that played the game and the one replayed. Each decision is also
//! sorted by the kind of its recorded move ([`kind`]), and each difference
//! carries what either move adds to the seat's score at once. A game played
//! under a clock is replayed under it: each turn tells the bot the clock the
//! record shows it had then.

use crate::bot::fault::Fault;
use crate::bot::placement::Placement;
use crate::bot::process::BotProcess;
use crate::bot::process::Envelope;
use crate::engine::link::Link;
use crate::engine::origin::Origin;
use crate::engine::process::EngineError;
use crate::engine::running::Running;
use crate::engine::spec::Trouble;
use crate::run::game_loop::{Answer, Ended, Seats, play_out};
use crate::run::session::{self, Decision};
use crate::run::table::Table;
use crate::schedule::clock::Clock;
use crate::store::record::JsonRecord;
use crate::terminal::untrusted;
use protocol::engine::{Raw, StepEvent};
use protocol::messages::{Forfeit, GameEnd, GameStart};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::time::Duration;

/// A decision where the bot chose differently from the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The index of the recorded move in the record's `events`.
    pub event: usize,
    /// The recorded move, as the bot was offered it (JSON).
    pub recorded: String,
    /// The move the bot chose now (JSON).
    pub chosen: String,
    /// What the recorded move added to the seat's score at once: the
    /// engine's score of the seat after the move less its score before.
    pub recorded_gain: i64,
    /// What the bot's move would have added to it, in the same game.
    pub chosen_gain: i64,
}

/// What a replay found.
#[derive(Debug, Default)]
pub struct Replayed {
    /// How many times the bot was asked to move.
    pub decisions: usize,
    /// Those decisions by the [`kind`] of the recorded move.
    pub kinds: BTreeMap<String, usize>,
    /// Its choices that differ from the record, in order.
    pub differences: Vec<Difference>,
    /// The bot's total thinking time, in microseconds.
    pub time_us: u64,
    /// What went wrong with the bot, if it did not see the game through: its
    /// message is made for a terminal, what the bot wrote escaped (see
    /// [`untrusted`]), with the end of its stderr.
    pub fault: Option<Fault>,
}

/// The kind of a move, read off the JSON of the choice in a game-neutral
/// way: for an object, the values of its fields that are strings, joined by
/// spaces (Leduc's `{"action":"call","chips":2}` is `call`); for an object
/// without one, its shape: the names of its fields that are not null, joined
/// by `+` (All Fives's play on an end `tile+end+points`, its lead, whose
/// `end` is null, `tile+points`); a string is itself; anything else the name
/// of its JSON type.
pub fn kind(choice: &str) -> String {
    match serde_json::from_str::<Value>(choice) {
        Ok(Value::Object(fields)) => {
            let strings: Vec<&str> = fields.values().filter_map(Value::as_str).collect();
            if strings.is_empty() {
                let present = fields.iter().filter(|(_, value)| !value.is_null()).map(|(name, _)| name.as_str());
                present.collect::<Vec<_>>().join("+")
            } else {
                strings.join(" ")
            }
        }
        Ok(Value::String(text)) => text,
        Ok(Value::Array(_)) => "array".to_string(),
        Ok(Value::Number(_)) => "number".to_string(),
        Ok(Value::Bool(_)) => "boolean".to_string(),
        Ok(Value::Null) => "null".to_string(),
        Err(_) => "not JSON".to_string(),
    }
}

/// Why a record cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The game was set up in advance, but the record holds no setup.
    NoSetup,
    /// The engine does not start the game.
    Refused {
        /// The engine's reason.
        why: String,
    },
    /// The engine failed.
    Engine(EngineError),
    /// A seat moves, but the record has no choice it can play.
    NoChoice {
        /// The event, from 0.
        event: usize,
        /// The seat to move.
        seat: usize,
    },
    /// The game played again to score a choice has no recorded choice where it needs one.
    NoRecordedChoice {
        /// The event, from 0.
        event: usize,
    },
    /// The game played again to score a choice does not reach the decision.
    NotReached {
        /// The event of the decision, from 0.
        event: usize,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::NoSetup => f.write_str("the game was set up in advance, but the record holds no setup"),
            ReplayError::Refused { why } => write!(f, "the engine does not start this game: {why}"),
            ReplayError::Engine(error) => error.fmt(f),
            ReplayError::NoChoice { event, seat } => {
                write!(f, "event {event}: seat {seat} moves here, but the record has no choice it can play")
            }
            ReplayError::NoRecordedChoice { event } => {
                write!(f, "event {event}: the game played again has no recorded choice here")
            }
            ReplayError::NotReached { event } => {
                write!(f, "event {event}: the game played again does not reach this decision")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

impl From<EngineError> for ReplayError {
    fn from(error: EngineError) -> Self {
        ReplayError::Engine(error)
    }
}

/// How the game of `record` is set up.
fn origin(record: &JsonRecord) -> Result<Origin<'_>, ReplayError> {
    match (&record.setup, record.preset) {
        (Some(setup), true) => Ok(Origin::Setup(setup)),
        (None, true) => Err(ReplayError::NoSetup),
        (_, false) => Ok(Origin::Seed(record.seed)),
    }
}

/// The game of `record` started on `link`, as `table` seats it.
async fn start<'t>(table: &'t Table, link: &mut dyn Link, record: &JsonRecord) -> Result<Running<'t>, ReplayError> {
    match Running::start(&table.engine, link, &table.variant, &table.teams, origin(record)?, false).await {
        Ok(game) => Ok(game),
        Err(Trouble::Refused(why)) => Err(ReplayError::Refused { why }),
        Err(Trouble::Failed(e)) => Err(ReplayError::Engine(e)),
    }
}

/// What choice `index` of the seat to act at event `at` of `record` adds to
/// `seat`'s score: the game started again on `probe`, played as recorded up
/// to event `at`, then `index`.
async fn probe_gain(
    table: &Table,
    probe: &mut dyn Link,
    record: &JsonRecord,
    at: usize,
    seat: usize,
    index: usize,
) -> Result<i64, ReplayError> {
    let mut game = start(table, probe, record).await?;
    while game.to_act().is_some() && game.events().len() < at {
        let next = game.events().len();
        match record.events[next].choice {
            Some(choice) if choice < game.choices().len() => game.play(probe, choice).await?,
            _ => return Err(ReplayError::NoRecordedChoice { event: next }),
        }
    }
    if game.events().len() != at || game.to_act().is_none() {
        return Err(ReplayError::NotReached { event: at });
    }
    let before = game.scores()[seat];
    game.play(probe, index).await?;
    Ok(game.scores()[seat] - before)
}

/// The bot's processes that replays keep between games, one per seat, as a
/// match's lanes keep theirs: a process replays game after game in its
/// seat, and is replaced (after `bye`) before it would meet a deal again, or
/// for a game whose `hello` differs (another variant, another time limit).
#[derive(Default)]
pub struct Kept {
    seats: BTreeMap<usize, KeptProcess>,
}

/// A process kept for a seat.
struct KeptProcess {
    process: BotProcess,
    /// The `hello` it was greeted with, as JSON.
    hello: String,
    /// The deals it has met: each game's seed and setup.
    met: HashSet<String>,
}

impl Kept {
    /// Ends every process kept: `bye`, then up to `grace` each to exit.
    pub async fn close(&mut self, grace: Duration) {
        for (_, kept) in std::mem::take(&mut self.seats) {
            bye(kept.process, grace).await;
        }
    }
}

/// Says `bye` to `process` and gives it up to `grace` to exit.
async fn bye(mut process: BotProcess, grace: Duration) {
    process.queue(&Envelope::Bye);
    process.close(grace).await;
}

/// Replays `record` to bot 0 of `table`, seated in `seat`, the game played
/// again on `link` from its seed (or setup) with the recorded choices; the
/// games that find what the bot's different choices score are played on
/// `probe`. The bot's process for the seat is taken from `kept` when it may
/// play this game, else started, and is kept there after the game. Fails,
/// before any process starts, when the game cannot be started; and where the
/// record and the engine part ways (`arena verify` lists every disagreement).
pub async fn replay(
    table: &Table,
    link: &mut dyn Link,
    probe: &mut dyn Link,
    record: &JsonRecord,
    seat: usize,
    kept: &mut Kept,
) -> Result<Replayed, ReplayError> {
    let mut game = start(table, link, record).await?;
    let hello = serde_json::to_string(&table.hello(0, seat)).expect("a hello serializes");
    let deal = format!("{} {}", record.seed, record.setup.as_ref().map_or_else(String::new, Value::to_string));
    let (mut process, mut met) = match kept.seats.remove(&seat) {
        Some(same) if same.hello == hello && !same.met.contains(&deal) => (same.process, same.met),
        other => {
            if let Some(other) = other {
                bye(other.process, table.limits.exit_grace).await;
            }
            let mut process = match BotProcess::spawn(&table.launch(0, seat, Placement::default())) {
                Ok(process) => process,
                Err(fault) => return Ok(Replayed { fault: Some(fault), ..Replayed::default() }),
            };
            if let Err(fault) =
                session::handshake(&mut process, table.hello(0, seat), table.limits.startup_timeout).await
            {
                return Ok(failed(process, fault, Replayed::default()).await);
            }
            (process, HashSet::new())
        }
    };
    met.insert(deal);
    process.queue(&Envelope::GameStart(GameStart { id: record.tag(), seed: record.bot_seeds[seat], seat }));
    let mut seats = Replaying {
        table,
        probe,
        record,
        seat,
        process,
        clock: record.clock_of(seat).map(|control| control.start()),
        replayed: Replayed::default(),
        differs: None,
    };
    let ended = play_out(&mut game, link, &mut seats).await;
    let Replaying { mut process, replayed, .. } = seats;
    match ended {
        Err(e) => {
            process.kill().await;
            return Err(e);
        }
        Ok(Ended::Faulted(_, fault)) => return Ok(failed(process, fault, replayed).await),
        // Stopped where the record ends: the game was cut short by a fault.
        Ok(Ended::Over | Ended::Stopped) => {}
    }
    let result = &record.result;
    let forfeits = record.faults.iter().map(|f| Forfeit { seat: f.seat, kind: f.kind.name().to_string() }).collect();
    process.queue(&Envelope::GameEnd(GameEnd {
        id: record.tag(),
        reason: result.reason.clone(),
        scores: result.scores.clone(),
        ranks: result.ranks.clone(),
        forfeits,
    }));
    kept.seats.insert(seat, KeptProcess { process, hello, met });
    Ok(replayed)
}

/// The seats of a game replayed: the bot in its seat, asked at each of its
/// turns but answered for by the recorded move, as every other seat is.
struct Replaying<'a> {
    table: &'a Table,
    /// Where the bot's different choices are scored.
    probe: &'a mut dyn Link,
    record: &'a JsonRecord,
    seat: usize,
    process: BotProcess,
    /// Under a game clock, the seat's clock as the record has it before each
    /// of its moves: the base, then what its last recorded move left.
    clock: Option<Clock>,
    replayed: Replayed,
    /// The bot's choice at the move being played, when it differs from the
    /// record, and the seat's score before the move.
    differs: Option<(Difference, i64)>,
}

impl Seats for Replaying<'_> {
    type Error = ReplayError;

    fn tell(&mut self, seat: usize, event: &StepEvent<Raw>) {
        if let (true, Some(view)) = (seat == self.seat, &event.views[seat]) {
            self.process.queue(view);
        }
    }

    async fn answer(&mut self, to_act: usize, game: &Running<'_>, link: &mut dyn Link) -> Result<Answer, ReplayError> {
        let (record, seat) = (self.record, self.seat);
        let at = game.events().len();
        if at == record.events.len() {
            return Ok(Answer::Stop); // the game was cut short by a fault
        }
        let recorded = match record.events[at].choice {
            Some(choice) if choice < game.choices().len() => choice,
            _ => {
                return Err(ReplayError::NoChoice { event: at, seat: to_act });
            }
        };
        let as_recorded = Decision { index: recorded, elapsed: Duration::ZERO };
        if to_act != seat {
            return Ok(Answer::Play(as_recorded));
        }
        let limit = self.table.limits.move_timeout;
        let decision = match session::ask_in_game(&mut self.process, game, link, limit, self.clock).await? {
            Ok(decision) => decision,
            Err(fault) => return Ok(Answer::Fault(fault)),
        };
        self.replayed.decisions += 1;
        self.replayed.time_us += decision.elapsed.as_micros() as u64;
        let recorded_move = game.choices()[recorded].get().to_string();
        *self.replayed.kinds.entry(kind(&recorded_move)).or_default() += 1;
        if decision.index != recorded {
            // The bot's move scored in a game of its own; the recorded one's gain once it is played here.
            let chosen_gain = probe_gain(self.table, self.probe, record, at, seat, decision.index).await?;
            let chosen = game.choices()[decision.index].get().to_string();
            let difference = Difference { event: at, recorded: recorded_move, chosen, recorded_gain: 0, chosen_gain };
            self.differs = Some((difference, game.scores()[seat]));
        }
        Ok(Answer::Play(as_recorded))
    }

    fn played(&mut self, to_act: usize, _: Decision, at: usize, game: &Running<'_>) {
        if let Some((mut difference, before)) = self.differs.take() {
            difference.recorded_gain = game.scores()[self.seat] - before;
            self.replayed.differences.push(difference);
        }
        if let (true, Some(clock), Some(left)) =
            (to_act == self.seat, self.clock.as_mut(), self.record.events[at].clock_us)
        {
            clock.left = Duration::from_micros(left);
        }
    }
}

/// Ends a replay the bot could not see through.
async fn failed(process: BotProcess, mut fault: Fault, replayed: Replayed) -> Replayed {
    let stderr = process.kill().await;
    // Composed for the terminal: what the bot wrote is escaped, line by line.
    let mut message = untrusted::escape(&fault.message).into_owned();
    if !stderr.is_empty() {
        message.push_str("; its stderr ended with:");
        for line in &stderr {
            message.push_str("\n  ");
            message.push_str(&untrusted::escape(line));
        }
    }
    fault.message = message;
    Replayed { fault: Some(fault), ..replayed }
}

#[cfg(test)]
mod tests {
    use super::kind;

    #[test]
    fn a_move_is_of_the_kind_its_string_fields_name_or_else_of_its_shape() {
        assert_eq!(kind(r#"{"action":"raise","chips":4}"#), "raise");
        assert_eq!(kind(r#"{"verb":"take","what":"all","count":2}"#), "take all");
        assert_eq!(kind(r#"{"tile":[1,2],"end":3,"points":0}"#), "tile+end+points");
        assert_eq!(kind(r#"{"tile":[1,2],"end":null,"points":0}"#), "tile+points");
        assert_eq!(kind(r#""pass""#), "pass");
        assert_eq!(
            (kind("[3]"), kind("7"), kind("true"), kind("null")),
            ("array".into(), "number".into(), "boolean".into(), "null".into())
        );
    }
}
