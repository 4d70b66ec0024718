//! Re-checking a game record against its engine, through the engine
//! protocol, for a built-in game and an engine program alike: the game is
//! started again (from its seed, or from its setup when it was set up in
//! advance), every recorded choice is played again, and every event the
//! engine gives, and the result, must be exactly what the record says. An
//! engine that gives another game from the same requests is caught here. A
//! built-in game's record is first made ready for the replay by the game
//! itself (its setup and its moves' choices read off its events:
//! [`crate::engine::recorded`]).

use crate::engine::games::UnknownGame;
use crate::engine::link::Link;
use crate::engine::origin::Origin;
use crate::engine::process::EngineError;
use crate::engine::recorded::{Misread, Recorded, VerifyError};
use crate::engine::running::Running;
use crate::engine::spec::{Engine, Trouble};
use crate::run::outcome::forfeit_ranks;
use crate::run::play::game_result;
use crate::store::record::{GameRecord, GameResult, JsonRecord};
use crate::store::record_file::Header;
use game::Game;
use serde::Serialize;
use serde_json::Value;

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

/// A record read for a replay through its engine: its sides, and for a
/// built-in game, why its moves from one on cannot be read, if they cannot.
struct Prepared {
    teams: Vec<Vec<usize>>,
    misread: Option<Misread>,
}

/// Makes `record`, a game of `engine`, ready for a replay through it: the
/// sides of an engine program's game as its record says; a built-in game's
/// setup and choices read off its events.
///
/// # Errors
/// When the game cannot be set up again as the record says.
pub fn prepare(engine: &Engine, record: &mut JsonRecord) -> Result<Vec<Vec<usize>>, Misread> {
    let prepared = ready(engine, record)?;
    match prepared.misread {
        None => Ok(prepared.teams),
        Some(misread) => Err(misread),
    }
}

/// The parts of `record` a built-in game reads, and its events.
pub fn parts(record: &JsonRecord) -> (Recorded<'_>, Vec<&Value>) {
    (recorded_of(record), record.events.iter().map(|timed| &timed.event).collect())
}

/// The parts of `record` a built-in game reads.
fn recorded_of<E>(record: &GameRecord<Value, E>) -> Recorded<'_> {
    Recorded {
        variant: &record.variant,
        seed: record.seed,
        preset: record.preset,
        bots: record.bots.len(),
        bot_seeds: record.bot_seeds.len(),
    }
}

fn ready(engine: &Engine, record: &mut JsonRecord) -> Result<Prepared, Misread> {
    let Some(game) = engine.built_in_game() else {
        return match &record.engine {
            Some(identity) => Ok(Prepared { teams: identity.teams.clone(), misread: None }),
            None => Err(Misread { event: None, error: VerifyError::NoEngine }),
        };
    };
    let (recorded, events) = parts(record);
    let annotation = game.annotate(&recorded, &events)?;
    record.setup = annotation.setup;
    if let Some(Misread { event: Some(at), .. }) = annotation.misread {
        record.events[at].choice = None;
    }
    for (at, choice) in annotation.choices {
        record.events[at].choice = Some(choice);
    }
    Ok(Prepared { teams: annotation.teams, misread: annotation.misread })
}

/// Every disagreement between `text`, the record of a game of `engine`
/// (a line of `games.jsonl`), and a replay of it on `link` (empty when the
/// record is exactly what the engine gives). A record that agrees is
/// proven so on [`quick`]'s road; any other is replayed again here, to say
/// what differs.
///
/// # Errors
/// When the engine fails.
pub async fn check(engine: &Engine, link: &mut dyn Link, text: &str) -> Result<Vec<Disagreement>, EngineError> {
    if quick::agrees(engine, link, text).await? {
        return Ok(Vec::new());
    }
    let whole = |message: String| Ok(vec![Disagreement::whole(message)]);
    let mut record: JsonRecord = match serde_json::from_str(text) {
        Ok(record) => record,
        Err(e) => return whole(format!("not a {} record: {e}", engine.name())),
    };
    let Prepared { teams, mut misread } = match ready(engine, &mut record) {
        Ok(prepared) => prepared,
        Err(Misread { event, error }) => return Ok(vec![Disagreement { event, message: error.to_string() }]),
    };
    let teams = &teams;
    let seats: usize = teams.iter().map(Vec::len).sum();
    if record.bots.len() != seats || record.bot_seeds.len() != seats {
        return whole(format!(
            "the sides {teams:?} hold {seats} seats, but the record names {} bots and {} bot seeds",
            record.bots.len(),
            record.bot_seeds.len()
        ));
    }
    let origin = match (&record.setup, record.preset) {
        (Some(setup), true) => Origin::Setup(setup),
        (None, true) => return whole("the game was set up in advance, but the record holds no setup".to_string()),
        (_, false) => Origin::Seed(record.seed),
    };
    let mut game = match Running::start(engine, link, &record.variant, teams, origin, false).await {
        Ok(game) => game,
        Err(Trouble::Refused(why)) => return whole(format!("the engine does not start this game: {why}")),
        Err(Trouble::Failed(e)) => return Err(e),
    };
    let mut found = Vec::new();
    let mut compared = 0;
    loop {
        for (at, event) in (compared..).zip(&game.events()[compared..]) {
            let replayed: Value = serde_json::from_str(event.event.get()).expect("the engine's events are JSON");
            match record.events.get(at) {
                Some(timed) if timed.event == replayed => {}
                Some(timed) => found.push(Disagreement::at(at, differences(&timed.event, &replayed))),
                None => {
                    found.push(Disagreement::at(at, format!("the record ends, but the engine goes on: {replayed}")));
                    return Ok(found);
                }
            }
        }
        compared = game.events().len();
        if game.to_act().is_none() {
            break;
        }
        if compared == record.events.len() {
            if record.faults.is_empty() {
                found.push(Disagreement::whole("the record ends before the game does, and no fault ends it".into()));
            }
            break;
        }
        let seat = game.to_act().expect("checked above");
        let choice = match record.events[compared].choice {
            Some(choice) if choice < game.choices().len() => choice,
            Some(choice) => {
                let count = game.choices().len();
                found.push(Disagreement::at(compared, format!("choice {choice} of seat {seat}, but it has {count}")));
                return Ok(found);
            }
            None => {
                let message = match misread.take() {
                    Some(misread) => misread.error.to_string(),
                    None => format!("seat {seat} must move here, but the record has no choice"),
                };
                found.push(Disagreement::at(compared, message));
                return Ok(found);
            }
        };
        game.play(link, choice).await?;
    }
    let Some(faulted) = check_ending(&mut found, &record, compared, game.to_act().is_none()) else {
        return Ok(found);
    };
    let result = game_result(&game, link, teams, &faulted).await?;
    if result != record.result {
        found.push(Disagreement::whole(format!("result: {}", differences(&record.result, &result))));
    }
    Ok(found)
}

/// Every disagreement between `text`, the record of a built-in game, and a
/// replay of it through the game's engine in this process: [`check`], for
/// tools and tests that hold no runtime.
///
/// # Errors
/// When the record names no built-in game.
pub fn check_built_in(text: &str) -> Result<Vec<Disagreement>, UnknownGame> {
    let name = serde_json::from_str::<Header>(text).map_or_else(|_| String::new(), |header| header.game);
    let engine = Engine::built_in(&name)?;
    let mut link = engine.built_in_game().expect("a built-in engine").server();
    let runtime = tokio::runtime::Builder::new_current_thread().build().expect("a runtime without drivers starts");
    let found = runtime.block_on(check(&engine, link.as_mut(), text));
    Ok(found.expect("a built-in engine does not fail"))
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

/// How a game of `G` came out, as its record says: its own outcome, or,
/// when any seat faulted (`faulted`), a forfeit by the sides of those seats
/// (what tests build a built-in game's records with).
pub fn typed_result<G: Game>(game: &G, teams: &[Vec<usize>], faulted: &[usize]) -> GameResult {
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

mod quick;
#[cfg(test)]
mod tests;
