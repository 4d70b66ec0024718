//! The printed checklist of `arena check-bot`, and the advice it gives.

use super::{Outcome, Verdict};
use crate::bot::fault::FaultKind;
use crate::terminal::untrusted::escape;
use std::io::{self, Write};

/// The most lines of what was sent that a failure shows (the last ones).
const SENT_LINES: usize = 12;
/// The most characters of one line a failure shows.
const LINE_CHARS: usize = 1000;

/// How to fix a fault of `kind`, pointing to the section of PROTOCOL.md that says how.
pub fn fix_for(kind: FaultKind) -> String {
    let (advice, section) = match kind {
        FaultKind::Spawn => {
            ("check the command: the program must exist and be executable", "the-life-of-a-bot-process")
        }
        FaultKind::Timeout => {
            ("answer every request with one line and flush stdout after it, within the time limit", "timing")
        }
        FaultKind::NotStarted => (
            "answer `hello` with `ready` (and flush stdout) within the start-up timeout: the failures of its \
             earlier starts say what went wrong",
            "hello",
        ),
        FaultKind::Exited => (
            "keep running until `bye` or the end of input; the stderr above may say why it stopped",
            "the-life-of-a-bot-process",
        ),
        FaultKind::ClosedStdout | FaultKind::ClosedStdin => {
            ("keep stdin and stdout open until `bye` or the end of input", "the-life-of-a-bot-process")
        }
        FaultKind::NotJson => (
            "write exactly one JSON object per line on stdout, UTF-8; anything for humans goes to stderr",
            "the-arena-protocol-version-1",
        ),
        FaultKind::BadMessage => (
            "answer `hello` with `ready` and `turn` with `move`, with exactly the fields listed",
            "messages-from-a-bot",
        ),
        FaultKind::Protocol => (
            "speak protocol 1 (or leave `protocol` out of `ready`), and write each answer once, after its request arrived",
            "faults",
        ),
        FaultKind::WrongId => (
            "copy the `id` of the turn into the move; ids increase but are not consecutive, so never count them",
            "turn",
        ),
        FaultKind::IllegalMove => (
            "choose one of the turn's `legal` moves: send its `index`, or its `tile` and `end` exactly as listed \
             (end ids are explained under `turn`)",
            "move",
        ),
        FaultKind::LineTooLong => ("keep every line under 1 MiB", "faults"),
    };
    format!("{advice}: see protocol/PROTOCOL.md#{section}")
}

/// The lines of a batch of messages as a failure shows them: the last
/// 12 lines, each cut to 1000 characters.
pub fn lines(batch: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(batch);
    let all: Vec<&str> = text.lines().collect();
    let skipped = all.len().saturating_sub(SENT_LINES);
    let mut shown: Vec<String> = all[skipped..].iter().map(|line| cut(line)).collect();
    if skipped > 0 {
        shown.insert(0, format!("(… {skipped} earlier lines)"));
    }
    shown
}

fn cut(line: &str) -> String {
    match line.char_indices().nth(LINE_CHARS) {
        Some((at, _)) => format!("{}… ({} bytes)", &line[..at], line.len()),
        None => line.to_string(),
    }
}

/// Writes the checklist: one line per check, the details of each failure,
/// and a summary line. Whatever the bot wrote is shown escaped (see
/// [`crate::terminal::untrusted`]).
pub fn write(outcomes: &[Outcome], out: &mut impl Write) -> io::Result<()> {
    let width = outcomes.iter().map(|o| o.name.len()).max().unwrap_or(0);
    for outcome in outcomes {
        let name = &outcome.name;
        match &outcome.verdict {
            Verdict::Pass(detail) => writeln!(out, "  ✓ {name:width$}  {}", escape(detail))?,
            Verdict::Skip(why) => writeln!(out, "  - {name:width$}  skipped: {}", escape(why))?,
            Verdict::Fail(failure) => {
                writeln!(out, "  ✗ {name:width$}  FAILED")?;
                if let Some(expect) = outcome.expect {
                    writeln!(out, "      position: {expect}")?;
                }
                writeln!(out, "      problem:  {}", escape(&failure.problem))?;
                section(out, "sent:    ", &failure.sent, "(nothing)")?;
                section(out, "stderr:  ", &failure.stderr, "(nothing)")?;
                writeln!(out, "      fix:      {}", failure.fix)?;
            }
        }
    }
    let count = |pick: fn(&Verdict) -> bool| outcomes.iter().filter(|o| pick(&o.verdict)).count();
    let passed = count(|v| matches!(v, Verdict::Pass(_)));
    let failed = count(|v| matches!(v, Verdict::Fail(_)));
    let skipped = count(|v| matches!(v, Verdict::Skip(_)));
    writeln!(out, "{} checks: {passed} passed, {failed} failed, {skipped} skipped", outcomes.len())
}

fn section(out: &mut impl Write, label: &str, lines: &[String], empty: &str) -> io::Result<()> {
    let mut rest = lines.iter().map(|line| escape(line));
    writeln!(out, "      {label} {}", rest.next().unwrap_or(empty.into()))?;
    for line in rest {
        writeln!(out, "                {line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Failure, Timing};
    use super::*;

    fn outcome(name: &str, verdict: Verdict) -> Outcome {
        Outcome { name: name.to_string(), expect: None, verdict, timing: Timing::default() }
    }

    #[test]
    fn a_failure_shows_what_was_sent_what_came_back_and_the_fix() {
        let failure = Failure {
            problem: "wrong_id: answered id 7 while turn 3 was pending".to_string(),
            sent: lines(b"{\"type\":\"game_start\"}\n{\"type\":\"turn\",\"id\":3}\n"),
            stderr: Vec::new(),
            fix: fix_for(FaultKind::WrongId),
        };
        let outcomes = [
            outcome("handshake", Verdict::Pass("ready in 3 ms".to_string())),
            outcome("request-ids", Verdict::Fail(Box::new(failure))),
            outcome("exit-on-bye", Verdict::Skip("the handshake failed".to_string())),
        ];
        let mut text = Vec::new();
        write(&outcomes, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let expected = "  ✓ handshake    ready in 3 ms
  ✗ request-ids  FAILED
      problem:  wrong_id: answered id 7 while turn 3 was pending
      sent:     {\"type\":\"game_start\"}
                {\"type\":\"turn\",\"id\":3}
      stderr:   (nothing)
      fix:      copy the `id` of the turn into the move; ids increase but are not consecutive, so never count them: see protocol/PROTOCOL.md#turn
  - exit-on-bye  skipped: the handshake failed
3 checks: 1 passed, 1 failed, 1 skipped
";
        assert_eq!(text, expected);
    }

    /// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
    fn anchor(heading: &str) -> String {
        let kept =
            heading.to_lowercase().chars().filter(|c| c.is_alphanumeric() || " -".contains(*c)).collect::<String>();
        kept.trim().replace(' ', "-")
    }

    #[test]
    fn every_link_into_the_protocol_names_a_section() {
        let doc = include_str!("../../../../protocol/PROTOCOL.md");
        let anchors: Vec<String> =
            doc.lines().filter(|l| l.starts_with('#')).map(|l| anchor(l.trim_start_matches('#'))).collect();
        let advice: Vec<String> = FaultKind::ALL.iter().map(|&kind| fix_for(kind)).collect();
        let sources = [include_str!("checks.rs").to_string(), advice.join("\n")];
        let mut links = 0;
        for source in &sources {
            for link in source.split("PROTOCOL.md#").skip(1) {
                let name: String = link.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
                assert!(anchors.contains(&name), "no section #{name} in PROTOCOL.md");
                links += 1;
            }
        }
        assert!(links > FaultKind::ALL.len());
    }

    #[test]
    fn long_batches_are_cut() {
        let batch: String = (0..20).map(|i| format!("{i}{}\n", "x".repeat(if i == 19 { 1100 } else { 1 }))).collect();
        let shown = lines(batch.as_bytes());
        assert_eq!(shown.len(), SENT_LINES + 1);
        assert_eq!(shown[0], "(… 8 earlier lines)");
        assert!(shown[SENT_LINES].ends_with("… (1102 bytes)"), "{}", shown[SENT_LINES]);
    }
}
