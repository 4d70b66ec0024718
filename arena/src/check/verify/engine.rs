//! Re-checking the record of a game of any engine through the engine
//! protocol, as `arena verify` does for a game of an engine program: the
//! game is started again (from its seed, or from its recorded setup), every
//! recorded choice is played again, and every event the engine gives, and
//! the result, must be exactly what the record says. An engine that gives
//! another game from the same requests is caught here.

use crate::check::verify::{Disagreement, check_ending, differences};
use crate::engine::link::Link;
use crate::engine::origin::Origin;
use crate::engine::process::EngineError;
use crate::engine::running::Running;
use crate::engine::spec::{Engine, Identity, Trouble};
use crate::run::play::game_result;
use crate::store::record::JsonRecord;
use serde_json::Value;

/// Every disagreement between `record`, a game of the engine described by
/// `identity`, and a replay of it on `link` (empty when the record is
/// exactly what the engine gives).
///
/// # Errors
/// When the engine fails.
pub async fn check(
    engine: &Engine,
    link: &mut dyn Link,
    identity: &Identity,
    record: &JsonRecord,
) -> Result<Vec<Disagreement>, EngineError> {
    let whole = |message: String| Ok(vec![Disagreement::whole(message)]);
    let teams = &identity.teams;
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
                found.push(Disagreement::at(
                    compared,
                    format!("seat {seat} must move here, but the record has no choice"),
                ));
                return Ok(found);
            }
        };
        game.play(link, choice).await?;
    }
    let Some(faulted) = check_ending(&mut found, record, compared, game.to_act().is_none()) else {
        return Ok(found);
    };
    let result = game_result(&game, link, teams, &faulted).await?;
    if result != record.result {
        found.push(Disagreement::whole(format!("result: {}", differences(&record.result, &result))));
    }
    Ok(found)
}
