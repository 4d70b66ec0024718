//! Faults: the ways a bot can break the protocol or the rules.
//!
//! A fault is an outcome of a game, recorded as data, never an error of the
//! arena: the faulting seat's side forfeits the game and its process is
//! replaced before the next game.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The kind of a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// The bot's command could not be started.
    Spawn,
    /// No answer within the time limit (start-up or move).
    Timeout,
    /// The process exited or was killed by a signal.
    Exited,
    /// The process closed its stdout but kept running.
    ClosedStdout,
    /// The process stopped accepting input (closed its stdin) but kept running.
    ClosedStdin,
    /// A line that is not UTF-8 JSON.
    NotJson,
    /// A JSON line that is not the message expected now (wrong shape, unknown or misplaced type).
    BadMessage,
    /// A protocol version the arena does not speak, or a line written before its request was sent.
    Protocol,
    /// An answer whose id is not the id of the pending request.
    WrongId,
    /// A move that is not one of the legal moves.
    IllegalMove,
    /// A line longer than the size cap.
    LineTooLong,
    /// Not started: the run gave up on the bot after it failed to start in
    /// several games in a row, and forfeits its remaining games.
    NotStarted,
}

impl FaultKind {
    /// Every kind, in a fixed order (the order of standings columns).
    pub const ALL: [FaultKind; 12] = [
        FaultKind::Spawn,
        FaultKind::Timeout,
        FaultKind::Exited,
        FaultKind::ClosedStdout,
        FaultKind::ClosedStdin,
        FaultKind::NotJson,
        FaultKind::BadMessage,
        FaultKind::Protocol,
        FaultKind::WrongId,
        FaultKind::IllegalMove,
        FaultKind::LineTooLong,
        FaultKind::NotStarted,
    ];

    /// The kind's name in records and reports, e.g. `"timeout"`.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Spawn => "spawn",
            FaultKind::Timeout => "timeout",
            FaultKind::Exited => "exited",
            FaultKind::ClosedStdout => "closed_stdout",
            FaultKind::ClosedStdin => "closed_stdin",
            FaultKind::NotJson => "not_json",
            FaultKind::BadMessage => "bad_message",
            FaultKind::Protocol => "protocol",
            FaultKind::WrongId => "wrong_id",
            FaultKind::IllegalMove => "illegal_move",
            FaultKind::LineTooLong => "line_too_long",
            FaultKind::NotStarted => "not_started",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an empty line is a fault, and the usual cause: an answer followed by
/// an extra newline.
pub const EMPTY_LINE: &str = "an empty line where an answer was due: write exactly one line per answer (an answer \
     followed by an extra newline, as Python's print(answer + \"\\n\") writes, leaves an empty line that is read as \
     the next answer)";

/// A fault with its explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// What kind of fault.
    pub kind: FaultKind,
    /// What happened, in words a bot author can act on.
    pub message: String,
}

impl Fault {
    /// A fault of `kind` explained by `message`.
    pub fn new(kind: FaultKind, message: impl Into<String>) -> Fault {
        Fault { kind, message: message.into() }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_serialized_form() {
        for kind in FaultKind::ALL {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
        }
    }
}
