//! The faults of a run, bot by bot, for the summary printed at its end and
//! the page of `arena report`: how many of each kind, with the first message
//! of each kind and the last lines its process wrote to stderr, so that a bot
//! that failed 400 times is explained in a few lines. Pure: fed game
//! summaries, written to any `Write` or serialized (bot → kind → summary).

use crate::bot::fault::FaultKind;
use crate::store::record::GameSummary;
use crate::terminal::untrusted::escape;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

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

    /// Writes the summary: a line per bot with its faults by kind, then,
    /// for each kind, its first message and stderr line.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "faults by bot:")?;
        for (bot, kinds) in &self.bots {
            let total: u64 = kinds.values().map(|k| k.count).sum();
            let by_kind: Vec<String> = kinds.iter().map(|(kind, k)| format!("{} {kind}", k.count)).collect();
            writeln!(out, "  {bot}: {total} fault{}: {}", if total == 1 { "" } else { "s" }, by_kind.join(", "))?;
            for (kind, summary) in kinds {
                writeln!(out, "    {kind}, first: {}", escape(&summary.message))?;
                if let Some(line) = summary.stderr.iter().rev().find(|line| !line.trim().is_empty()) {
                    writeln!(out, "      stderr: {}", escape(line))?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::record::FaultRecord;

    fn game(faults: &[(&str, FaultKind, &str, &[&str])]) -> GameSummary {
        let mut game = crate::stats::standings::fixtures::game(&["a", "b"], &[0, 0], &[0, 1]);
        game.faults = faults
            .iter()
            .map(|&(bot, kind, message, stderr)| FaultRecord {
                seat: 0,
                bot: bot.to_string(),
                kind,
                message: message.to_string(),
                stderr: stderr.iter().map(|s| s.to_string()).collect(),
            })
            .collect();
        game
    }

    #[test]
    fn counts_by_bot_and_kind_with_the_first_message_and_stderr() {
        let mut summary = FaultSummary::default();
        assert!(summary.is_empty());
        summary.add(&game(&[("b", FaultKind::Timeout, "no ready within 300 ms", &[])]));
        summary.add(&game(&[("b", FaultKind::Timeout, "no ready within 300 ms again", &["loading", "Traceback", ""])]));
        summary.add(&game(&[("b", FaultKind::NotStarted, "not started: it failed", &[])]));
        summary.add(&game(&[("a", FaultKind::Exited, "exited with status 2", &["No such file"])]));
        summary.add(&game(&[]));
        let mut text = Vec::new();
        summary.write(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(
            text,
            "faults by bot:\n\
             \x20 a: 1 fault: 1 exited\n\
             \x20   exited, first: exited with status 2\n\
             \x20     stderr: No such file\n\
             \x20 b: 3 faults: 2 timeout, 1 not_started\n\
             \x20   timeout, first: no ready within 300 ms\n\
             \x20     stderr: Traceback\n\
             \x20   not_started, first: not started: it failed\n"
        );
        let b = summary.of("b").unwrap();
        assert_eq!(b[&FaultKind::Timeout].stderr, ["loading", "Traceback", ""], "the whole tail is kept");
        assert!(b[&FaultKind::NotStarted].stderr.is_empty() && summary.of("c").is_none());
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(
            json["a"]["exited"],
            serde_json::json!({"count": 1, "message": "exited with status 2", "stderr": ["No such file"]})
        );
    }

    #[test]
    fn what_a_bot_wrote_is_shown_escaped() {
        let mut summary = FaultSummary::default();
        summary.add(&game(&[(
            "a",
            FaultKind::NotJson,
            "not JSON: \"\u{1b}]0;owned\u{7}\"",
            &["\u{1b}[2J21 checks: 21 passed"],
        )]));
        let mut text = Vec::new();
        summary.write(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text}");
        assert!(text.contains("\\u{1b}]0;owned\\u{7}") && text.contains("stderr: \\u{1b}[2J21 checks"), "{text}");
    }
}
