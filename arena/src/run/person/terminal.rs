//! The terminal as a person's [`Front`]: the seat's view of the game on
//! stdout, moves read from stdin as numbers (`q` leaves).

use super::seat::{Front, Turn};
use super::{Ending, Failed};
use crate::terminal::console::outln;
use std::io::{BufRead, IsTerminal, Write};
use tokio::sync::mpsc;

/// The longest answer read, in bytes: a longer line is cut there (the rest
/// of it is skipped), so that no input makes the arena hold more.
const ANSWER_CAP: usize = 1024;
/// How many answers are read ahead of the game, at most (the reader then
/// waits), so that piped input is never buffered whole.
const READ_AHEAD: usize = 16;

/// The next line of `input`, without its line ending, cut to [`ANSWER_CAP`]
/// bytes and lossily decoded; `None` at the end of the input (or when it
/// cannot be read).
fn read_answer(input: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    loop {
        let chunk = input.fill_buf().ok()?;
        if chunk.is_empty() {
            return (!line.is_empty()).then(|| String::from_utf8_lossy(&line).into_owned());
        }
        let end = chunk.iter().position(|&b| b == b'\n');
        let take = end.map_or(chunk.len(), |at| at + 1);
        let room = ANSWER_CAP.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        if end.is_some() {
            while matches!(line.last(), Some(b'\n' | b'\r')) {
                line.pop();
            }
            return Some(String::from_utf8_lossy(&line).into_owned());
        }
    }
}

/// A person at the terminal: moves read from stdin (on a thread of its own,
/// so that the bots' processes are served meanwhile).
pub struct Terminal {
    /// Lines of standard input; closed at its end.
    input: mpsc::Receiver<String>,
    /// Whether to show the answers read (when they do not come from a terminal, which shows them).
    echo: bool,
}

impl Terminal {
    /// The terminal, its standard input read from now on.
    pub fn stdin() -> Terminal {
        let (tx, input) = mpsc::channel(READ_AHEAD);
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            while let Some(line) = read_answer(&mut stdin) {
                if tx.blocking_send(line).is_err() {
                    break;
                }
            }
        });
        Terminal { input, echo: !std::io::stdin().is_terminal() }
    }
}

impl Front for Terminal {
    fn show(&mut self, lines: Vec<String>) {
        let mut out = std::io::stdout().lock();
        for line in lines {
            let _ = writeln!(out, "{line}");
        }
    }

    fn say(&mut self, line: String) {
        let _ = outln!("{line}");
    }

    async fn ask(&mut self, turn: Turn<'_>) -> Option<usize> {
        let count = turn.choices.len();
        let _ = crate::terminal::console::out(format_args!("\n{}", turn.text));
        let range = if count == 1 { "1".to_string() } else { format!("1-{count}") };
        loop {
            let _ = crate::terminal::console::out(format_args!("your move ({range}, q to quit): "));
            let Some(line) = self.input.recv().await else {
                let _ = outln!("\n(the end of the input)");
                return None;
            };
            if self.echo {
                let _ = outln!("{line}");
            }
            let answer = line.trim();
            if answer.eq_ignore_ascii_case("q") || answer.eq_ignore_ascii_case("quit") {
                return None;
            }
            match answer.parse::<usize>() {
                Ok(number) if (1..=count).contains(&number) => {
                    let _ = outln!("");
                    return Some(number - 1);
                }
                _ => {
                    let _ = outln!("{answer:?} is not a move: answer with a number from 1 to {count}, or q to quit");
                }
            }
        }
    }

    fn finish(&mut self, _: &Result<Ending, Failed>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_a_line_at_a_time_and_cut_at_the_cap() {
        let long = "7".repeat(3 * ANSWER_CAP);
        let text = format!("1\r\n{long}\n\nlast");
        let mut input = std::io::BufReader::with_capacity(100, text.as_bytes());
        assert_eq!(read_answer(&mut input).as_deref(), Some("1"));
        assert_eq!(read_answer(&mut input), Some("7".repeat(ANSWER_CAP)), "cut, and the rest skipped");
        assert_eq!(read_answer(&mut input).as_deref(), Some(""));
        assert_eq!(read_answer(&mut input).as_deref(), Some("last"));
        assert_eq!(read_answer(&mut input), None);
    }
}
