//! The faults of a run as text, for the summary printed at its end: a line
//! per bot with its faults by kind, then each kind's first message and
//! stderr line, escaped (a bot's words may hold terminal controls).

use crate::terminal::untrusted::escape;
pub use ::stats::fault_summary::{FaultSummary, KindSummary};
use std::io::{self, Write};

/// Writes `summary`: a line per bot with its faults by kind, then, for each
/// kind, its first message and stderr line.
pub fn write(summary: &FaultSummary, out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "faults by bot:")?;
    for (bot, kinds) in summary.bots() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::fault::FaultKind;
    use crate::stats::standings::fixtures::{faulty_games, game_with_faults};

    #[test]
    fn a_line_per_bot_then_each_kind_s_first_message_and_stderr() {
        let mut summary = FaultSummary::default();
        faulty_games().iter().for_each(|game| summary.add(game));
        let mut text = Vec::new();
        write(&summary, &mut text).unwrap();
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
    }

    #[test]
    fn what_a_bot_wrote_is_shown_escaped() {
        let mut summary = FaultSummary::default();
        summary.add(&game_with_faults(&[(
            "a",
            FaultKind::NotJson,
            "not JSON: \"\u{1b}]0;owned\u{7}\"",
            &["\u{1b}[2J21 checks: 21 passed"],
        )]));
        let mut text = Vec::new();
        write(&summary, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text}");
        assert!(text.contains("\\u{1b}]0;owned\\u{7}") && text.contains("stderr: \\u{1b}[2J21 checks"), "{text}");
    }
}
