//! The faults of a run, bot by bot, for the summary printed at its end and
//! the page of `arena report`: how many of each kind, with the first message
//! of each kind and the last lines its process wrote to stderr, so that a bot
//! that failed 400 times is explained in a few lines. Pure: fed game
//! summaries, read bot by bot or serialized (bot → kind → summary); the
//! arena writes it as text.

use records::fault::FaultKind;
use records::record::GameSummary;
use serde::Serialize;
use std::collections::BTreeMap;

/// The faults of the games added so far.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct FaultSummary {
    bots: BTreeMap<String, BTreeMap<FaultKind, KindSummary>>,
}

/// The faults of one kind of one bot.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct KindSummary {
    /// How many there were.
    pub count: u64,
    /// The message of the first fault of this kind, as recorded.
    pub message: String,
    /// The stderr tail of the first fault of this kind that has a non-blank
    /// line in it, as recorded (empty when none has).
    pub stderr: Vec<String>,
}

impl FaultSummary {
    /// Counts the faults of `game`.
    pub fn add(&mut self, game: &GameSummary) {
        for fault in &game.faults {
            let kind = self.bots.entry(fault.bot.clone()).or_default().entry(fault.kind).or_default();
            if kind.count == 0 {
                kind.message = fault.message.clone();
            }
            kind.count += 1;
            if kind.stderr.is_empty() && fault.stderr.iter().any(|line| !line.trim().is_empty()) {
                kind.stderr = fault.stderr.clone();
            }
        }
    }

    /// Whether no fault was counted.
    pub fn is_empty(&self) -> bool {
        self.bots.is_empty()
    }

    /// The faults of `bot` by kind, if it had any.
    pub fn of(&self, bot: &str) -> Option<&BTreeMap<FaultKind, KindSummary>> {
        self.bots.get(bot)
    }

    /// Every bot that faulted, by name, with its faults by kind.
    pub fn bots(&self) -> impl Iterator<Item = (&String, &BTreeMap<FaultKind, KindSummary>)> {
        self.bots.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::fixtures::faulty_games;

    #[test]
    fn counts_by_bot_and_kind_with_the_first_message_and_stderr() {
        let mut summary = FaultSummary::default();
        assert!(summary.is_empty());
        faulty_games().iter().for_each(|game| summary.add(game));
        let names: Vec<&String> = summary.bots().map(|(bot, _)| bot).collect();
        assert_eq!(names, ["a", "b"]);
        let b = summary.of("b").unwrap();
        assert_eq!(
            (b[&FaultKind::Timeout].count, b[&FaultKind::Timeout].message.as_str()),
            (2, "no ready within 300 ms")
        );
        assert_eq!(b[&FaultKind::Timeout].stderr, ["loading", "Traceback", ""], "the whole tail is kept");
        assert_eq!(b[&FaultKind::NotStarted].count, 1);
        assert!(b[&FaultKind::NotStarted].stderr.is_empty() && summary.of("c").is_none());
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(
            json["a"]["exited"],
            serde_json::json!({"count": 1, "message": "exited with status 2", "stderr": ["No such file"]})
        );
    }
}
