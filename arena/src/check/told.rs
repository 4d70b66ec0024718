//! What the seats were told of each event of a recorded game of an engine
//! program, found by playing it again on the engine with descriptions
//! (`arena view` shows them on the game's generic page).

use crate::bot::placement::Placement;
use crate::bot::registry::Registry;
use crate::engine::link::Link;
use crate::engine::origin::Origin;
use crate::engine::page::Told;
use crate::engine::process::EngineError;
use crate::engine::program::Program;
use crate::engine::running::Running;
use crate::engine::spec::{Engine, Trouble};
use crate::store::record::JsonRecord;

/// What the seats were told of each event of the record `line`, a game of
/// the engine program `program` whose sides are `teams`: the game played
/// again on it with descriptions ([`replayed`]).
pub(crate) fn told_of(
    program: &Program,
    teams: &[Vec<usize>],
    line: &str,
) -> Result<Result<Vec<Told>, String>, EngineError> {
    let trouble = |message: String| EngineError { message, stderr: Vec::new() };
    let record: JsonRecord = serde_json::from_str(line).map_err(|e| trouble(format!("not a record: {e}")))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| trouble(format!("cannot start the runtime: {e}")))?;
    let registry = Registry::new();
    let told = runtime.block_on(async {
        let engine = Engine::program(program.clone(), &registry, None).await?;
        let mut link = engine.connect(&registry, Placement::default()).await?;
        let told = replayed(&engine, link.as_mut(), teams, &record).await;
        let closed = link.close().await;
        let told = told?;
        closed.map(|()| told)
    });
    crate::bot::orphans::sweep(&registry);
    told
}

/// Plays `record` (a game of `engine`, whose sides are `teams`) again on
/// `link`, asking for descriptions: what the seats were told of each of its
/// events. `Err` with why not, in words, when the replay does not follow
/// the record (another engine, or one that is not a function of its
/// requests: `arena verify` says where).
///
/// # Errors
/// When the engine fails.
async fn replayed(
    engine: &Engine,
    link: &mut dyn Link,
    teams: &[Vec<usize>],
    record: &JsonRecord,
) -> Result<Result<Vec<Told>, String>, EngineError> {
    let origin = match (&record.setup, record.preset) {
        (Some(setup), true) => Origin::Setup(setup),
        (None, true) => return Ok(Err("the game was set up in advance, but the record holds no setup".to_string())),
        (_, false) => Origin::Seed(record.seed),
    };
    let mut game = match Running::start(engine, link, &record.variant, teams, origin, true).await {
        Ok(game) => game,
        Err(Trouble::Refused(why)) => return Ok(Err(format!("the engine does not start this game: {why}"))),
        Err(Trouble::Failed(e)) => return Err(e),
    };
    while game.events().len() < record.events.len() && game.to_act().is_some() {
        match record.events[game.events().len()].choice {
            Some(choice) if choice < game.choices().len() => game.play(link, choice).await?,
            _ => return Ok(Err(format!("event {} is not the move the engine awaits", game.events().len()))),
        }
    }
    let events = game.into_events();
    if events.len() != record.events.len() {
        return Ok(Err(format!("the engine gives {} events, the record {}", events.len(), record.events.len())));
    }
    let mut told = Vec::with_capacity(events.len());
    for (at, (event, timed)) in events.iter().zip(&record.events).enumerate() {
        let given: serde_json::Value = serde_json::from_str(event.event.get()).expect("the engine's events are JSON");
        if given != timed.event {
            return Ok(Err(format!("event {at} is {given} played again, {} in the record", timed.event)));
        }
        let seats = event.views.iter().enumerate().filter(|(_, view)| view.is_some()).map(|(seat, _)| seat).collect();
        told.push(Told { seats, texts: event.texts.clone() });
    }
    Ok(Ok(told))
}
