//! The quick road through [`super::check`]: a record that agrees with its
//! engine is proven to, without reading its events into JSON trees. Each
//! recorded event is compared with the engine's as text, the record's
//! being the engine's with the move's time and choice spliced in (as a run
//! writes it: [`records::record::Entry`]); text that is the same is the
//! same event. Whatever is not proven so (other text, an event that cannot
//! be read, a disagreement) is left to [`super::check`], which says what
//! differs exactly as it does for any record.

use super::{Prepared, recorded_of};
use crate::engine::link::Link;
use crate::engine::origin::Origin;
use crate::engine::process::EngineError;
use crate::engine::running::Running;
use crate::engine::spec::{Engine, Trouble};
use crate::run::play::game_result;
use crate::store::record::GameRecord;
use serde_json::Value;
use serde_json::value::RawValue;

/// A record with its events kept as their text.
type Lean<'a> = GameRecord<Value, &'a RawValue>;

/// The keys a run splices into a move, in the order it writes them.
const SPLICED: [&str; 3] = ["\"time_us\"", "\"choice\"", "\"clock_us\""];

/// A recorded event's text: where the keys a run splices in begin (if it
/// holds any), and the choice among them.
pub(super) struct Spliced<'a> {
    text: &'a str,
    tail: Option<usize>,
    pub(super) choice: Option<usize>,
}

impl<'a> Spliced<'a> {
    /// `text` read as a run writes an event: the engine's object, then
    /// perhaps `"time_us":T,"choice":C,"clock_us":K` (each optional, in
    /// this order, plain numbers) before its closing brace.
    pub(super) fn read(text: &'a str) -> Self {
        let whole = Spliced { text, tail: None, choice: None };
        let Some(at) = text.rfind(SPLICED[0]).or_else(|| text.rfind(SPLICED[1])) else {
            return whole;
        };
        let Some(fields) = text[at..].strip_suffix('}') else {
            return whole;
        };
        let mut next = 0;
        let mut choice = None;
        for field in fields.split(',') {
            let Some((key, value)) = field.split_once(':') else {
                return whole;
            };
            let Some(index) = SPLICED.iter().skip(next).position(|k| *k == key).map(|i| i + next) else {
                return whole;
            };
            let plain = !value.is_empty()
                && value.bytes().all(|b| b.is_ascii_digit())
                && (value == "0" || !value.starts_with('0'));
            let Some(number) = value.parse::<u64>().ok().filter(|_| plain) else {
                return whole;
            };
            if index == 1 {
                let Ok(number) = usize::try_from(number) else {
                    return whole;
                };
                choice = Some(number);
            }
            next = index + 1;
        }
        Spliced { text, tail: Some(at), choice }
    }

    /// Whether this is the engine's event `replayed` (its text), spliced
    /// into or not.
    pub(super) fn is(&self, replayed: &str) -> bool {
        let Some(at) = self.tail else {
            return self.text == replayed;
        };
        let head = &self.text[..at];
        let Some(body) = replayed.trim_end().strip_suffix('}') else {
            return false;
        };
        if body.trim_end().ends_with('{') { head == body } else { head.strip_suffix(',') == Some(body) }
    }
}

/// Whether `text`, the record of a game of `engine`, is proven to be
/// exactly what a replay of it on `link` gives; `false` when it is not
/// proven (not that it disagrees: [`super::check`] tells).
///
/// # Errors
/// When the engine fails.
pub(super) async fn agrees(engine: &Engine, link: &mut dyn Link, text: &str) -> Result<bool, EngineError> {
    let Ok(mut record) = serde_json::from_str::<Lean<'_>>(text) else {
        return Ok(false);
    };
    let events: Vec<Spliced<'_>> = record.events.iter().map(|event| Spliced::read(event.get())).collect();
    let mut choices: Vec<Option<usize>> = events.iter().map(|event| event.choice).collect();
    let Some(Prepared { teams, misread: None }) = ready(engine, &mut record, &mut choices) else {
        return Ok(false);
    };
    let seats: usize = teams.iter().map(Vec::len).sum();
    if record.bots.len() != seats || record.bot_seeds.len() != seats {
        return Ok(false);
    }
    let origin = match (&record.setup, record.preset) {
        (Some(setup), true) => Origin::Setup(setup),
        (None, true) => return Ok(false),
        (_, false) => Origin::Seed(record.seed),
    };
    let mut game = match Running::start(engine, link, &record.variant, &teams, origin, false).await {
        Ok(game) => game,
        Err(Trouble::Refused(_)) => return Ok(false),
        Err(Trouble::Failed(e)) => return Err(e),
    };
    let mut compared = 0;
    loop {
        let replayed = &game.events()[compared..];
        if replayed.len() > events.len() - compared {
            return Ok(false);
        }
        if !replayed.iter().zip(&events[compared..]).all(|(event, recorded)| recorded.is(event.event.get())) {
            return Ok(false);
        }
        compared = game.events().len();
        if game.to_act().is_none() {
            break;
        }
        let choice = match choices.get(compared) {
            Some(Some(choice)) if *choice < game.choices().len() => *choice,
            _ => return Ok(false),
        };
        game.play(link, choice).await?;
    }
    if compared != events.len() || !record.faults.is_empty() {
        return Ok(false);
    }
    Ok(game_result(&game, link, &teams, &[]).await? == record.result)
}

/// [`super::ready`] for a record whose events are kept as text: the sides,
/// and for a built-in game its setup and its moves' choices (into
/// `choices`); `None` when that cannot be done so.
fn ready(engine: &Engine, record: &mut Lean<'_>, choices: &mut [Option<usize>]) -> Option<Prepared> {
    let Some(game) = engine.built_in_game() else {
        let teams = record.engine.as_ref()?.teams.clone();
        return Some(Prepared { teams, misread: None });
    };
    let annotation = game.annotate_text(&recorded_of(record), &record.events).and_then(Result::ok)?;
    record.setup = annotation.setup;
    for (at, choice) in annotation.choices {
        choices[at] = Some(choice);
    }
    Some(Prepared { teams: annotation.teams, misread: annotation.misread })
}
