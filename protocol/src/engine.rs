//! The engine protocol, version 1: what the arena says to a game engine that
//! runs as a process of its own, and what the engine answers (see
//! `engines/ENGINES.md` at the repository root). The game's own payloads
//! (variants, states, choices, events, views) are JSON values here: the arena
//! passes them on without reading them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

/// The engine protocol version the arena speaks, sent in `hello`.
pub const ENGINE_VERSION: u32 = 1;

/// A `start` without `describe` asks for every part of each step.
fn read_by_default() -> bool {
    true
}

/// What the arena asks an engine; each request is answered by one [`Answer`]
/// (but `bye`, which the engine answers by exiting).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Once, first: the engine answers [`Answer::Engine`].
    Hello {
        /// The engine protocol version the arena speaks.
        protocol: u32,
    },
    /// Resolves `KEY=VALUE` settings (later ones win) into a full variant.
    Variant {
        /// The settings, in the order given.
        settings: Vec<(String, String)>,
    },
    /// A new game, from a seed or from a setup given in advance.
    Start {
        /// The variant, as the engine resolved it.
        variant: Value,
        /// The deal seed, when the game is drawn from one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
        /// The setup, when the game's starting material is given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        setup: Option<Value>,
        /// Whether anyone reads the optional parts of this game's steps
        /// (`text`, `texts`, `private`); `false` in a match, where the
        /// engine may leave them out. Sent only when `false`.
        #[serde(default = "read_by_default", skip_serializing_if = "Clone::clone")]
        describe: bool,
    },
    /// The seat to act plays the choice with this index.
    Play {
        /// An index into the last step's `choices`.
        index: usize,
    },
    /// Which choice a move named by value is.
    Find {
        /// The move, as a bot sent it.
        #[serde(rename = "move")]
        named: Value,
    },
    /// What a seat observes now.
    Observe {
        /// The seat.
        seat: usize,
    },
    /// The final scores if these seats forfeit now.
    Forfeit {
        /// The seats at fault.
        faulted: Vec<usize>,
    },
    /// The replay page of a finished game, from an engine whose `engine`
    /// answer says `page`.
    Page {
        /// The game's record, as `games.jsonl` holds it.
        record: Value,
    },
    /// The end: the engine exits.
    Bye,
}

/// A game's payload (a state, a choice, an event, a view) as JSON text
/// kept as it is: what the arena passes on without reading.
pub type Raw = Box<RawValue>;

/// What an engine answers, its game's payloads as `J`: JSON values as read
/// from an engine program, or [`Raw`] text where the arena only passes them on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Answer<J = Value> {
    /// The answer to `hello`.
    Engine(EngineInfo),
    /// A resolved variant.
    Variant(VariantInfo),
    /// What is new after `start` or `play`.
    Step(Step<J>),
    /// The answer to `find`.
    Found {
        /// The index of the choice, or `None` when the move is not legal.
        index: Option<usize>,
        /// Why it is not legal, in words a bot author can act on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        why: Option<String>,
    },
    /// The answer to `observe`.
    Observe {
        /// What the seat observes.
        state: J,
    },
    /// The answer to `forfeit`.
    Scores {
        /// Each seat's final score.
        scores: Vec<i64>,
    },
    /// The answer to `page`.
    Page {
        /// A self-contained HTML page that replays the game.
        html: String,
    },
    /// A request the engine refuses (a variant it does not take, an illegal index).
    Error {
        /// Why, for the user.
        message: String,
    },
}

/// Who the engine is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EngineInfo {
    /// The game's name.
    pub name: String,
    /// The engine's own version.
    pub version: String,
    /// The engine protocol version it speaks.
    pub protocol: u32,
    /// How the standings read its scores.
    #[serde(default)]
    pub scoring: ScoringInfo,
    /// The variant settings it takes.
    #[serde(default)]
    pub options: Vec<OptionInfo>,
    /// Whether it draws a game's replay page itself (answers `page`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub page: bool,
    /// How long, in milliseconds, its answers may take, for an engine whose
    /// steps take longer than the arena's answer timeout allows (the arena
    /// grants it up to a limit: engines/ENGINES.md, "engine").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_ms: Option<u64>,
}

/// How the standings read a game's scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ScoringInfo {
    /// What a score counts, in the plural.
    pub unit: String,
    /// Whether bots are ranked by mean score per game rather than by Elo.
    pub rank_by_mean: bool,
}

impl Default for ScoringInfo {
    fn default() -> Self {
        ScoringInfo { unit: "points".to_string(), rank_by_mean: false }
    }
}

/// One variant setting an engine takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OptionInfo {
    /// The key, as given to `--variant KEY=VALUE`.
    pub key: String,
    /// The values it takes, in words.
    pub values: String,
    /// The default, in words.
    pub default: String,
    /// What it means.
    pub help: String,
}

/// A resolved variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct VariantInfo {
    /// Every setting, defaults filled in.
    pub variant: Value,
    /// The number of seats.
    pub seats: usize,
    /// The sides: each the seats that score together.
    pub teams: Vec<Vec<usize>>,
}

/// Everything new after `start` or `play`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step<J = Value> {
    /// What happened, in order, each with what every seat is told of it.
    pub events: Vec<StepEvent<J>>,
    /// The seat to choose now, or `None` when the game is over.
    pub to_act: Option<usize>,
    /// Its legal choices, in a fixed order.
    pub choices: Vec<J>,
    /// What it observes (`null` when the game is over).
    pub state: J,
    /// Each seat's score now.
    pub scores: Vec<i64>,
    /// How the game came out, once it is over.
    pub outcome: Option<OutcomeInfo>,
    /// Each seat's private information now, for `arena check-engine`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private: Option<Vec<Vec<Value>>>,
    /// What the seat to act sees, as text for a person who plays it
    /// (`arena play`), its choices numbered from 1 in their order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// One event with full information and what each seat is told of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepEvent<J = Value> {
    /// The event as the record keeps it.
    pub event: J,
    /// What each seat is told, `None` for a seat told nothing.
    pub views: Vec<Option<J>>,
    /// The same as a line of text for a person, for each seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texts: Option<Vec<Option<String>>>,
}

/// What the arena needs to know of a payload it otherwise passes on.
pub trait Payload {
    /// Whether it is JSON `null`.
    fn is_null(&self) -> bool;
    /// Whether it is a JSON object (as an event must be).
    fn is_object(&self) -> bool;
    /// Its `type`, when it is a JSON object whose `type` is a string (as a
    /// view, which a bot is sent as a message, must be).
    fn message_type(&self) -> Option<String>;
    /// Whether it is a JSON object with the key that names a game in a
    /// session ([`crate::session::GAME_KEY`]), which no view may have.
    fn names_a_game(&self) -> bool;
}

impl Payload for Value {
    fn is_null(&self) -> bool {
        Value::is_null(self)
    }
    fn is_object(&self) -> bool {
        Value::is_object(self)
    }
    fn message_type(&self) -> Option<String> {
        self.get("type").and_then(Value::as_str).map(str::to_string)
    }
    fn names_a_game(&self) -> bool {
        self.get(crate::session::GAME_KEY).is_some()
    }
}

/// The `type` of a JSON object, its other members skipped.
#[derive(Deserialize)]
struct Typed {
    #[serde(rename = "type")]
    kind: String,
}

/// Whether a JSON object has the key [`crate::session::GAME_KEY`], its
/// value and the other members skipped (no key is kept).
#[derive(Deserialize)]
struct GameKey {
    #[serde(rename = "game", default, deserialize_with = "present")]
    game: bool,
}

/// `true` for any value: the key is there.
fn present<'de, D: serde::Deserializer<'de>>(value: D) -> Result<bool, D::Error> {
    serde::de::IgnoredAny::deserialize(value).map(|_| true)
}

impl Payload for Raw {
    fn is_null(&self) -> bool {
        self.get() == "null"
    }
    fn is_object(&self) -> bool {
        self.get().starts_with('{')
    }
    fn message_type(&self) -> Option<String> {
        serde_json::from_str::<Typed>(self.get()).ok().map(|typed| typed.kind)
    }
    fn names_a_game(&self) -> bool {
        // An object that does not read as one `game` key at most (the others
        // skipped) has it twice: that names a game too.
        serde_json::from_str::<GameKey>(self.get()).map_or(true, |keys| keys.game)
    }
}

/// A payload as [`Raw`] text.
pub fn raw(value: &Value) -> Raw {
    serde_json::value::to_raw_value(value).expect("a JSON value serializes")
}

/// A `step` answer read straight into [`Raw`] payloads: an untagged struct,
/// which serde reads without first buffering the whole answer.
#[derive(Deserialize)]
struct StepLine {
    #[serde(rename = "type")]
    _type: StepTag,
    events: Vec<StepEvent<Raw>>,
    to_act: Option<usize>,
    choices: Vec<Raw>,
    state: Raw,
    scores: Vec<i64>,
    outcome: Option<OutcomeInfo>,
    #[serde(default)]
    private: Option<Vec<Vec<Value>>>,
    #[serde(default)]
    text: Option<String>,
}

/// The only `type` a [`StepLine`] takes.
#[derive(Deserialize)]
enum StepTag {
    #[serde(rename = "step")]
    Step,
}

/// An engine's answer line, its payloads as [`Raw`] text: a `step` read
/// directly (the answer to every move, so the one that must be quick), any
/// other answer as [`Answer`] is.
///
/// # Errors
/// As [`crate::line::decode`].
pub fn decode_raw(line: &[u8]) -> Result<Answer<Raw>, crate::line::LineError> {
    if crate::line::message_type(line) == Some("step")
        && let Ok(step) = crate::line::decode::<StepLine>(line)
    {
        let StepLine { _type: StepTag::Step, events, to_act, choices, state, scores, outcome, private, text } = step;
        return Ok(Answer::Step(Step { events, to_act, choices, state, scores, outcome, private, text }));
    }
    crate::line::decode::<Answer>(line).map(Answer::into_raw)
}

impl Answer<Value> {
    /// The same answer, its payloads as [`Raw`] text.
    pub fn into_raw(self) -> Answer<Raw> {
        match self {
            Answer::Engine(info) => Answer::Engine(info),
            Answer::Variant(variant) => Answer::Variant(variant),
            Answer::Step(step) => Answer::Step(Step {
                events: step
                    .events
                    .iter()
                    .map(|e| StepEvent {
                        event: raw(&e.event),
                        views: e.views.iter().map(|v| v.as_ref().map(raw)).collect(),
                        texts: e.texts.clone(),
                    })
                    .collect(),
                to_act: step.to_act,
                choices: step.choices.iter().map(raw).collect(),
                state: raw(&step.state),
                scores: step.scores,
                outcome: step.outcome,
                private: step.private,
                text: step.text,
            }),
            Answer::Found { index, why } => Answer::Found { index, why },
            Answer::Observe { state } => Answer::Observe { state: raw(&state) },
            Answer::Scores { scores } => Answer::Scores { scores },
            Answer::Page { html } => Answer::Page { html },
            Answer::Error { message } => Answer::Error { message },
        }
    }
}

/// How a finished game came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OutcomeInfo {
    /// Why it ended, in the game's words.
    pub reason: String,
    /// Each seat's place, 0 first.
    pub ranks: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::{Payload, Raw, raw};
    use serde_json::json;

    /// The raw text `text`, as an engine sends it.
    fn text(text: &str) -> Raw {
        serde_json::from_str(text).expect("JSON")
    }

    #[test]
    fn a_view_names_a_game_read_raw_as_read_whole() {
        let views = [
            json!({"type": "turn", "hand": [1, 2]}),
            json!({"type": "turn", "game": 3}),
            json!({"type": "turn", "game": null}),
            json!({"game": {"nested": ["game"]}, "type": "turn"}),
            json!({"type": "turn", "state": {"game": 1}}),
            json!({"type": "turn", "games": 1}),
        ];
        for view in views {
            assert_eq!(raw(&view).names_a_game(), view.names_a_game(), "{view}");
            assert_eq!(view.names_a_game(), view.get(crate::session::GAME_KEY).is_some());
        }
    }

    #[test]
    fn a_view_with_its_game_key_twice_names_a_game() {
        assert!(text(r#"{"type":"turn","game":1,"game":2}"#).names_a_game());
        assert!(!text(r#"{"type":"turn","name":1,"name":2}"#).names_a_game());
    }
}
