//! Re-checking a game record against the engine: the game is set up again
//! (from its seed, or from its recorded deals when it was set up in advance),
//! every recorded decision is played again, and every event the engine
//! produces, and the result, must be exactly what the record says. Pure.

pub(crate) mod engine;

use crate::run::outcome::forfeit_ranks;
use crate::store::record::{GameRecord, GameResult, RecordOf};
use game::{Game, VariantError};
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// Where a record and the engine disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// The index of the event in the record's `events`, when it is about one.
    pub event: Option<usize>,
    /// What differs, in words.
    pub message: String,
}

impl Disagreement {
    pub(crate) fn at(event: usize, message: String) -> Self {
        Disagreement { event: Some(event), message }
    }

    pub(crate) fn whole(message: String) -> Self {
        Disagreement { event: None, message }
    }
}

/// Why a record's game cannot be set up again, or its decision at an event
/// cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifyError {
    /// The game does not play the recorded variant.
    Variant(VariantError),
    /// The record names another number of bots or bot seeds than the variant has seats.
    Seats {
        /// The variant's seats.
        seats: usize,
        /// The bots the record names.
        bots: usize,
        /// The bot seeds it holds.
        bot_seeds: usize,
    },
    /// The game cannot be set up from the recorded deals.
    Deals {
        /// The game's reason.
        error: String,
    },
    /// The game is over.
    GameOver,
    /// The record ends.
    RecordEnds,
    /// A seat must move, but the record's event is no decision.
    NoDecision {
        /// The seat to move.
        seat: usize,
        /// The recorded event, as JSON.
        event: String,
    },
    /// The record has another seat move.
    OtherSeat {
        /// The seat that moves in the record.
        mover: usize,
        /// The seat to move.
        seat: usize,
    },
    /// The recorded move is not legal.
    Illegal {
        /// The seat to move.
        seat: usize,
        /// The recorded event, as JSON.
        event: String,
    },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Variant(error) => write!(f, "the variant cannot be played: {error}"),
            VerifyError::Seats { seats, bots, bot_seeds } => {
                write!(f, "the variant has {seats} seats, but the record names {bots} bots and {bot_seeds} bot seeds")
            }
            VerifyError::Deals { error } => write!(f, "the recorded deals cannot be played: {error}"),
            VerifyError::GameOver => f.write_str("the game is over"),
            VerifyError::RecordEnds => f.write_str("the record ends here"),
            VerifyError::NoDecision { seat, event } => {
                write!(f, "seat {seat} must move here, but the record has {event}")
            }
            VerifyError::OtherSeat { mover, seat } => {
                write!(f, "the record has seat {mover} move, but it is seat {seat}'s turn")
            }
            VerifyError::Illegal { seat, event } => write!(f, "seat {seat} cannot play {event} here"),
        }
    }
}

impl std::error::Error for VerifyError {}

/// A game set up again as its record says it was: from the recorded deals
/// when it was set up in advance (`preset`), else from its seed.
pub fn set_up<G: Game>(record: &RecordOf<G>) -> Result<G, VerifyError> {
    G::check_variant(&record.variant).map_err(VerifyError::Variant)?;
    let seats = G::seats(&record.variant);
    if record.bots.len() != seats || record.bot_seeds.len() != seats {
        return Err(VerifyError::Seats { seats, bots: record.bots.len(), bot_seeds: record.bot_seeds.len() });
    }
    if record.preset {
        let events: Vec<G::Event> = record.events.iter().map(|timed| timed.event.clone()).collect();
        G::from_setup(&record.variant, &G::recorded_setup(&events)).map_err(|error| VerifyError::Deals { error })
    } else {
        Ok(G::new(&record.variant, record.seed))
    }
}

/// The recorded decision at event `at`, as the index of the move among the
/// legal moves of `game` (which must be at that event): an error when the
/// record says something else happens there.
pub fn recorded_move<G: Game>(game: &G, record: &RecordOf<G>, at: usize) -> Result<usize, VerifyError> {
    let seat = game.to_act().ok_or(VerifyError::GameOver)?;
    let timed = record.events.get(at).ok_or(VerifyError::RecordEnds)?;
    let Some((mover, named)) = G::decision(&timed.event) else {
        return Err(VerifyError::NoDecision { seat, event: json(&timed.event) });
    };
    if mover != seat {
        return Err(VerifyError::OtherSeat { mover, seat });
    }
    game.find_move(&named).ok_or_else(|| VerifyError::Illegal { seat, event: json(&timed.event) })
}

/// Every disagreement between `record` and a replay of it (empty when the
/// record is exactly what the engine gives).
pub fn check<G: Game>(record: &RecordOf<G>) -> Vec<Disagreement> {
    let mut game = match set_up::<G>(record) {
        Ok(game) => game,
        Err(error) => return vec![Disagreement::whole(error.to_string())],
    };
    let mut found = Vec::new();
    let mut compared = 0;
    let replayed_all = loop {
        for (at, event) in (compared..).zip(game.events_since(compared)) {
            match record.events.get(at) {
                Some(timed) if timed.event == event => {}
                Some(timed) => found.push(Disagreement::at(at, differences(&timed.event, &event))),
                None => {
                    found.push(Disagreement::at(
                        at,
                        format!("the record ends, but the engine goes on: {}", json(&event)),
                    ));
                    return found;
                }
            }
        }
        compared = game.event_count();
        if game.to_act().is_none() {
            break true;
        }
        if compared == record.events.len() {
            if record.faults.is_empty() {
                found.push(Disagreement::whole("the record ends before the game does, and no fault ends it".into()));
            }
            break true;
        }
        match recorded_move(&game, record, compared) {
            Ok(index) => game.play(index).expect("a move the game found is legal"),
            Err(error) => {
                found.push(Disagreement::at(compared, error.to_string()));
                break false;
            }
        }
    };
    if !replayed_all {
        return found;
    }
    let Some(faulted) = check_ending(&mut found, record, compared, game.to_act().is_none()) else {
        return found;
    };
    let result = game_result(&game, &G::teams(&record.variant), &faulted);
    if result != record.result {
        found.push(Disagreement::whole(format!("result: {}", differences(&record.result, &result))));
    }
    found
}

/// What must hold of a replay once it stopped `compared` events into
/// `record` (with the game over when `over`): the record ends there, lists
/// faults only for a game cut short, and names seats of the game. Adds what
/// does not hold to `found`; returns the faulted seats, or `None` when a
/// fault names no seat of the game (the result cannot then be checked).
pub(crate) fn check_ending<V, E>(
    found: &mut Vec<Disagreement>,
    record: &GameRecord<V, E>,
    compared: usize,
    over: bool,
) -> Option<Vec<usize>> {
    if record.events.len() > compared {
        let extra = record.events.len() - compared;
        found.push(Disagreement::at(compared, format!("the game is over, but the record goes on for {extra} events")));
    }
    if over && !record.faults.is_empty() {
        found.push(Disagreement::whole("the game was played to its end, but the record lists faults".into()));
    }
    let faulted: Vec<usize> = record.faults.iter().map(|fault| fault.seat).collect();
    if let Some(&seat) = faulted.iter().find(|&&seat| seat >= record.bots.len()) {
        found.push(Disagreement::whole(format!("a fault names seat {seat}, which is not a seat of this game")));
        return None;
    }
    Some(faulted)
}

/// How a game of `G` came out: its own outcome, or, when any seat faulted
/// (`faulted`), a forfeit by the sides of those seats.
pub fn game_result<G: Game>(game: &G, teams: &[Vec<usize>], faulted: &[usize]) -> GameResult {
    match (faulted.is_empty(), game.outcome()) {
        (true, Some(outcome)) => {
            GameResult { reason: outcome.reason.to_string(), scores: game.scores(), ranks: outcome.ranks }
        }
        _ => {
            let scores = game.forfeit_scores(faulted);
            let ranks = forfeit_ranks(teams, &scores, faulted);
            GameResult { reason: "forfeit".to_string(), scores, ranks }
        }
    }
}

/// The fields of two JSON objects that differ, as "FIELD: recorded X, the
/// replay gives Y"; the whole values when they are not both objects.
pub(crate) fn differences<T: Serialize>(recorded: &T, replayed: &T) -> String {
    let (recorded, replayed) = (to_value(recorded), to_value(replayed));
    match (&recorded, &replayed) {
        (Value::Object(old), Value::Object(new)) => {
            let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
            keys.sort_unstable();
            keys.dedup();
            let parts: Vec<String> = keys
                .into_iter()
                .filter(|key| old.get(*key) != new.get(*key))
                .map(|key| format!("{key}: recorded {}, the replay gives {}", shown(old.get(key)), shown(new.get(key))))
                .collect();
            parts.join("; ")
        }
        _ => format!("recorded {recorded}, the replay gives {replayed}"),
    }
}

fn shown(value: Option<&Value>) -> String {
    value.map_or_else(|| "nothing".to_string(), Value::to_string)
}

fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("records serialize")
}

fn json<T: Serialize>(value: &T) -> String {
    to_value(value).to_string()
}

#[cfg(test)]
mod tests;
