//! The game record: one JSON object per finished game, one per line of
//! `games.jsonl`. `RECORDS.md` documents every field.

use crate::clock::{TimeControl, Timing};
use crate::fault::FaultKind;
use crate::identity::Identity;
use protocol::engine::Raw;
use serde::ser::Error as _;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// The record of a game of any engine, as read back: its payloads as JSON values.
pub type JsonRecord = GameRecord<serde_json::Value, Timed<serde_json::Value>>;

/// A finished game, as written to `games.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord<V, E> {
    /// The game's id: its position in the match schedule.
    pub id: u64,
    /// The game's name, e.g. `"all-fives"`.
    pub game: String,
    /// The engine program that played it, for a game that is not built in
    /// (`--engine`); written only then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Identity>,
    /// The deal number; every arrangement of a deal has the same seed.
    pub deal: u64,
    /// The arrangement of the bots over the seats for this deal (read as
    /// `rotation` from records of earlier versions).
    #[serde(alias = "rotation")]
    pub arrangement: usize,
    /// The seed the game was set up from (unless `preset`).
    pub seed: u64,
    /// Whether the game was set up from a given setup (`arena match
    /// --deals`) rather than from `seed`; written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub preset: bool,
    /// The setup it was played from, for a game of an engine program set
    /// up in advance (a built-in game's setup is read off its events).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<serde_json::Value>,
    /// Every variant setting in force.
    pub variant: V,
    /// The bot playing each seat.
    pub bots: Vec<String>,
    /// The seed each seat was told in `game_start`.
    pub bot_seeds: Vec<u64>,
    /// The game clock each seat played on (`--clock`); written only under one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
    /// Each seat's timing (its per-move limit and clock), when a bot of the
    /// run had time odds of its own; written only then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_timing: Option<Vec<Timing>>,
    /// Every event, in order, with full information (each a [`Timed`] event
    /// as read back, an [`Entry`] as written).
    pub events: Vec<E>,
    /// How the game came out.
    pub result: GameResult,
    /// Faults, in the order they happened.
    pub faults: Vec<FaultRecord>,
    /// Wall-clock time the game took, in milliseconds (a timing field).
    pub duration_ms: u64,
}

/// An event as a run writes it: the engine's JSON object as it gave it,
/// with the time and the choice spliced in when it was a move (so that it
/// reads back as a [`Timed`] event).
#[derive(Debug, Clone)]
pub struct Entry {
    /// The event: a JSON object.
    pub event: Raw,
    /// Microseconds from writing the request to reading the answer (a timing field).
    pub time_us: Option<u64>,
    /// The index of the choice made, when it was a move.
    pub choice: Option<usize>,
    /// Microseconds left on the mover's clock after the move, its increment
    /// added, under a game clock (a timing field).
    pub clock_us: Option<u64>,
}

impl Serialize for Entry {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.time_us.is_none() && self.choice.is_none() && self.clock_us.is_none() {
            return self.event.serialize(serializer);
        }
        let text = self.event.get();
        let body =
            text.trim_end().strip_suffix('}').ok_or_else(|| S::Error::custom("an event is not a JSON object"))?;
        let mut spliced = String::with_capacity(text.len() + 40);
        spliced.push_str(body);
        let mut field = |key: &str, value: u64| {
            if !spliced.trim_end().ends_with('{') {
                spliced.push(',');
            }
            spliced.push_str(&format!("\"{key}\":{value}"));
        };
        if let Some(time_us) = self.time_us {
            field("time_us", time_us);
        }
        if let Some(choice) = self.choice {
            field("choice", choice as u64);
        }
        if let Some(clock_us) = self.clock_us {
            field("clock_us", clock_us);
        }
        spliced.push('}');
        RawValue::from_string(spliced).map_err(S::Error::custom)?.serialize(serializer)
    }
}

/// An event, with the time the deciding bot took when it was a bot's move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Timed<E> {
    /// The event itself.
    #[serde(flatten)]
    pub event: E,
    /// Microseconds from writing the request to reading the answer (a timing field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_us: Option<u64>,
    /// The index of the choice made, when it was a move: what a replay plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<usize>,
    /// Microseconds left on the mover's clock after the move, its increment
    /// added, under a game clock (a timing field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_us: Option<u64>,
}

/// How a game came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// Why it ended: the game's reason, or `"forfeit"`.
    pub reason: String,
    /// Each seat's final score.
    pub scores: Vec<i64>,
    /// Each seat's place, 0 for first; shared places share a number.
    pub ranks: Vec<u32>,
}

/// A fault, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRecord {
    /// The faulting seat.
    pub seat: usize,
    /// The bot in that seat.
    pub bot: String,
    /// The kind of fault.
    pub kind: FaultKind,
    /// What happened.
    pub message: String,
    /// The last lines the process wrote to stderr.
    pub stderr: Vec<String>,
}

/// Where a game comes from: the fields of a record that tie it to its
/// schedule and the match seed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// The deal number.
    pub deal: u64,
    /// The arrangement of the bots over the seats.
    #[serde(alias = "rotation")]
    pub arrangement: usize,
    /// The deal's seed.
    pub seed: u64,
    /// The seed each seat was told.
    pub bot_seeds: Vec<u64>,
}

/// The fields of a record that standings need; parsing a line into this skips the events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "SummaryFields")]
pub struct GameSummary {
    /// The game's id.
    pub id: u64,
    /// Where it comes from.
    #[serde(flatten)]
    pub origin: Origin,
    /// The bot playing each seat.
    pub bots: Vec<String>,
    /// How the game came out.
    pub result: GameResult,
    /// The faults.
    pub faults: Vec<FaultRecord>,
}

/// A [`GameSummary`] as a line holds it, each field read in place. (Read
/// through `flatten`, serde would first copy every field it does not know,
/// the events among them, about 17 KB of a game of All Fives, into values of
/// its own: 4 to 5 times the time of reading the line.) Every other field is
/// skipped unread.
#[derive(Deserialize)]
struct SummaryFields {
    id: u64,
    deal: u64,
    #[serde(alias = "rotation")]
    arrangement: usize,
    seed: u64,
    bot_seeds: Vec<u64>,
    bots: Vec<String>,
    result: GameResult,
    faults: Vec<FaultRecord>,
}

impl GameSummary {
    /// A record's summary read from its line without reading its events:
    /// the fields before `"events"` and those from `"result"` on, read as
    /// one object. Either cut is at the record's top level whenever each
    /// piece is an object of its own (a cut inside a nested value leaves one
    /// unbalanced; no string of JSON holds an unescaped `"`), so the summary
    /// is the one the whole line gives; a line laid out otherwise (fields
    /// in another order, a field missing) is read whole. (A key repeated in
    /// what is skipped, which the arena never writes, goes unnoticed: the
    /// live page reads lines so; `arena verify` and the standings read them
    /// whole.)
    pub fn from_line(line: &[u8]) -> serde_json::Result<GameSummary> {
        use serde::de::IgnoredAny;
        let cut = || {
            let head_end = memchr::memmem::find(line, b",\"events\":")?;
            let tail_start = memchr::memmem::rfind(line, b",\"result\":")?;
            if tail_start <= head_end {
                return None;
            }
            // Each piece an object of its own: both cuts at the top level.
            let mut piece = line[..head_end].to_vec();
            piece.push(b'}');
            serde_json::from_slice::<IgnoredAny>(&piece).ok()?;
            let mut tail = line[tail_start..].to_vec();
            tail[0] = b'{';
            serde_json::from_slice::<IgnoredAny>(&tail).ok()?;
            // The record without what lies between them.
            piece.pop();
            piece.extend_from_slice(&line[tail_start..]);
            serde_json::from_slice(&piece).ok()
        };
        match cut() {
            Some(summary) => Ok(summary),
            None => serde_json::from_slice(line),
        }
    }
}

impl From<SummaryFields> for GameSummary {
    fn from(line: SummaryFields) -> GameSummary {
        let SummaryFields { id, deal, arrangement, seed, bot_seeds, bots, result, faults } = line;
        GameSummary { id, origin: Origin { deal, arrangement, seed, bot_seeds }, bots, result, faults }
    }
}

impl<V, E> GameRecord<V, E> {
    /// The id its bots were told ([`crate::seeds::game_tag`]).
    pub fn tag(&self) -> u64 {
        crate::seeds::game_tag(self.seed, self.id)
    }

    /// The fields standings need.
    pub fn summary(&self) -> GameSummary {
        GameSummary {
            id: self.id,
            origin: Origin {
                deal: self.deal,
                arrangement: self.arrangement,
                seed: self.seed,
                bot_seeds: self.bot_seeds.clone(),
            },
            bots: self.bots.clone(),
            result: self.result.clone(),
            faults: self.faults.clone(),
        }
    }
}

impl<V, E> GameRecord<V, E> {
    /// The game clock seat `seat` played on, if any: its own under time
    /// odds, else the game's.
    pub fn clock_of(&self, seat: usize) -> Option<TimeControl> {
        match &self.seat_timing {
            Some(timings) => timings.get(seat).and_then(|timing| timing.clock),
            None => self.clock,
        }
    }
}

impl<V> GameRecord<V, Entry> {
    /// How many decisions bots made in this game.
    pub fn decisions(&self) -> usize {
        self.events.iter().filter(|e| e.time_us.is_some()).count()
    }

    /// The least each bot left on its clock after a move in this game, in
    /// microseconds, by name (empty without a game clock). A move names the
    /// seat that made it (`engines/ENGINES.md`).
    pub fn least_clock(&self) -> BTreeMap<String, u64> {
        #[derive(Deserialize)]
        struct Mover {
            seat: usize,
        }
        let mut least = BTreeMap::new();
        for entry in &self.events {
            let Some(left) = entry.clock_us else { continue };
            let Ok(Mover { seat }) = serde_json::from_str(entry.event.get()) else { continue };
            if let Some(bot) = self.bots.get(seat) {
                keep_least(&mut least, bot, left);
            }
        }
        least
    }
}

/// Notes that `bot` left `left_us` on its clock after a move: `least`
/// keeps the least of each bot.
pub fn keep_least(least: &mut BTreeMap<String, u64>, bot: &str, left_us: u64) {
    match least.get_mut(bot) {
        Some(kept) => *kept = (*kept).min(left_us),
        None => {
            least.insert(bot.to_string(), left_us);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_least_clock_of_each_bot() {
        let mut least = BTreeMap::new();
        for (bot, left) in [("a", 30), ("b", 5), ("a", 10), ("a", 20)] {
            keep_least(&mut least, bot, left);
        }
        assert_eq!(least, BTreeMap::from([("a".to_string(), 10), ("b".to_string(), 5)]));
    }

    #[test]
    fn a_summary_reads_its_fields_of_a_whole_line_and_writes_them_back_the_same() {
        let line = r#"{"id":4,"game":"g","deal":2,"rotation":1,"seed":9,"variant":{"x":[1]},"bots":["a","b"],
            "bot_seeds":[5,6],"events":[{"type":"play","seat":0,"result":{"reason":"no"}}],
            "result":{"reason":"target","scores":[250,10],"ranks":[0,1]},
            "faults":[{"seat":1,"bot":"b","kind":"illegal_move","message":"m","stderr":["e"]}],"duration_ms":3}"#;
        let summary: GameSummary = serde_json::from_str(line).unwrap();
        assert_eq!(summary.origin, Origin { deal: 2, arrangement: 1, seed: 9, bot_seeds: vec![5, 6] });
        assert_eq!((summary.id, summary.bots.join(","), summary.result.reason.as_str()), (4, "a,b".into(), "target"));
        assert_eq!(summary.faults[0].stderr, ["e"]);
        let written = serde_json::to_string(&summary).unwrap();
        assert!(written.contains(r#""arrangement":1"#), "{written}");
        assert_eq!(serde_json::from_str::<GameSummary>(&written).unwrap(), summary);
    }

    #[test]
    fn a_summary_read_around_the_events_is_the_one_the_whole_line_gives() {
        let whole = |line: &str| serde_json::from_str::<GameSummary>(line).map_err(|e| e.to_string());
        let cut = |line: &str| GameSummary::from_line(line.as_bytes()).map_err(|e| e.to_string());
        let lines = [
            // As the arena writes it: the events between the two cuts, keys like the cuts' inside them.
            r#"{"id":4,"game":"g","deal":2,"arrangement":1,"seed":9,"variant":{"x":[1]},"bots":["a","b"],"bot_seeds":[5,6],"events":[{"type":"play","result":{"reason":"no"}},{"x":1,"events":[]}],"result":{"reason":"target","scores":[250,10],"ranks":[0,1]},"faults":[{"seat":1,"bot":"b","kind":"illegal_move","message":"m,\"result\":{}","stderr":[",\"result\":"]}],"duration_ms":3}"#,
            // A variant holding the keys of the cuts: the head does not parse, the line is read whole.
            r#"{"id":1,"deal":0,"arrangement":0,"seed":1,"variant":{"a":1,"events":2,"result":3},"bots":["a"],"bot_seeds":[1],"events":[],"result":{"reason":"r","scores":[1],"ranks":[0]},"faults":[]}"#,
            // Fields in another order, one of them among the events: read whole.
            r#"{"id":1,"deal":0,"arrangement":0,"seed":1,"bot_seeds":[1],"events":[],"bots":["a"],"result":{"reason":"r","scores":[1],"ranks":[0]},"faults":[]}"#,
            r#"{"result":{"reason":"r","scores":[1],"ranks":[0]},"id":1,"deal":0,"arrangement":0,"seed":1,"bot_seeds":[1],"bots":["a"],"events":[],"faults":[]}"#,
            // A result nested after the top-level one: its tail does not parse, read whole.
            r#"{"id":1,"deal":0,"arrangement":0,"seed":1,"bot_seeds":[1],"bots":["a"],"events":[],"result":{"reason":"r","scores":[1],"ranks":[0]},"faults":[],"x":{"y":1,"result":2}}"#,
            // Damaged lines fail either way.
            r#"{"id":1,"deal":0,"arrangement":0,"seed":1,"bot_seeds":[1],"bots":["a"],"events":[],"result":{"reason":"r","scores":[1],"ranks":[0]}}"#,
            r#"{"id":1,"events":[,"result":{}}"#,
        ];
        for line in lines {
            assert_eq!(cut(line), whole(line), "{line}");
        }
        assert_eq!(cut(lines[0]).unwrap().faults[0].message, "m,\"result\":{}");
    }
}
