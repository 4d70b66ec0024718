//! The exit statuses of `arena` (the crate's [`cli`](crate::cli) docs say
//! which command exits with which), and the one place where the library's
//! errors become them.

use crate::bot::limits::LimitError;
use crate::bot::pool::TooFewDescriptors;
use crate::bot::sandbox::SandboxError;
use crate::bot::spec::SpecError;
use crate::engine::games::UnknownGame;
use crate::engine::process::EngineError;
use crate::league::config::ConfigError;
use crate::league::queued::QueueError;
use crate::league::{HistoryError, LeagueError};
use crate::run::execute::RunError;
use crate::run::setting::SettingError;
use crate::schedule::ScheduleError;
use crate::stats::sprt::SprtError;
use crate::stats::standings::Standings;
use crate::store::output::OutputError;
use crate::store::record_file::RecordFileError;

/// Success; for a command that answers a question, yes.
pub const SUCCESS: i32 = 0;
/// The arena failed, or the command's answer is no: a record disagrees
/// (`verify`), the bot chooses differently (`replay`), a check failed
/// (`check-bot`, `check-engine`), H0 is accepted (`sprt`).
pub const FAILED: i32 = 1;
/// A usage error.
pub const USAGE: i32 = 2;
/// `sprt` reached its game limit without a verdict.
pub const INCONCLUSIVE: i32 = 3;
/// `match`, `league` or `sprt` played to its end, but a bot forfeited every
/// game it was in (it never started, say: a typo in its command); or `sprt`
/// stopped without a verdict because a bot failed to start again and again.
pub const BOT_NEVER_PLAYED: i32 = 4;
/// `match`, `league` or `sprt` with `--fail-on-fault` played to its end, and
/// a bot faulted.
pub const BOT_FAULTED: i32 = 5;
/// Interrupted (Ctrl-C, SIGTERM), or the user left the game (`play`).
pub use crate::bot::signals::INTERRUPTED;
/// A command whose job is its output found its reader gone: 128 + SIGPIPE,
/// what a shell reports for a program killed by SIGPIPE.
pub const READER_GONE: i32 = 141;

/// The status of a command that answers a question: [`SUCCESS`] for yes,
/// [`FAILED`] for no.
pub fn answer(yes: bool) -> i32 {
    if yes { SUCCESS } else { FAILED }
}

/// The status of a run that played to its end with `standings`: [`SUCCESS`],
/// [`BOT_NEVER_PLAYED`] when a bot forfeited every game it was in, or
/// (`fail_on_fault`) [`BOT_FAULTED`] when a bot faulted; with a line saying why.
pub fn of_faults(standings: &Standings, fail_on_fault: bool) -> (i32, Option<String>) {
    let bots = &standings.bots;
    if let Some(bot) = bots.iter().find(|bot| bot.games > 0 && bot.forfeits == bot.games) {
        let why = format!(
            "{} forfeited every one of its {} games (see its faults above): exit status {BOT_NEVER_PLAYED}",
            bot.name, bot.games
        );
        return (BOT_NEVER_PLAYED, Some(why));
    }
    let faulted: Vec<String> =
        bots.iter().filter(|bot| bot.faults > 0).map(|bot| format!("{} ({})", bot.name, bot.faults)).collect();
    if fail_on_fault && !faulted.is_empty() {
        let why = format!("faults by {} and --fail-on-fault: exit status {BOT_FAULTED}", faulted.join(", "));
        return (BOT_FAULTED, Some(why));
    }
    (SUCCESS, None)
}

/// A failure with its exit status.
#[derive(Debug)]
pub struct Failure {
    /// The exit status.
    pub status: i32,
    /// The message, one line.
    pub message: String,
}

impl From<RunError> for Failure {
    fn from(error: RunError) -> Failure {
        internal(error.to_string())
    }
}

impl From<SettingError> for Failure {
    fn from(error: SettingError) -> Failure {
        match error {
            SettingError::Refused(why) => usage(why),
            SettingError::Failed(why) => internal(why),
        }
    }
}

impl From<ConfigError> for Failure {
    fn from(error: ConfigError) -> Failure {
        usage(error.to_string())
    }
}

impl From<HistoryError> for Failure {
    fn from(error: HistoryError) -> Failure {
        usage(error.to_string())
    }
}

impl From<LeagueError> for Failure {
    fn from(error: LeagueError) -> Failure {
        usage(error.to_string())
    }
}

impl From<QueueError> for Failure {
    fn from(error: QueueError) -> Failure {
        internal(error.to_string())
    }
}

impl From<OutputError> for Failure {
    fn from(error: OutputError) -> Failure {
        usage(error.to_string())
    }
}

impl From<RecordFileError> for Failure {
    fn from(error: RecordFileError) -> Failure {
        usage(error.to_string())
    }
}

impl From<UnknownGame> for Failure {
    fn from(error: UnknownGame) -> Failure {
        usage(error.to_string())
    }
}

impl From<LimitError> for Failure {
    fn from(error: LimitError) -> Failure {
        usage(error.to_string())
    }
}

impl From<TooFewDescriptors> for Failure {
    fn from(error: TooFewDescriptors) -> Failure {
        usage(error.to_string())
    }
}

impl From<SandboxError> for Failure {
    fn from(error: SandboxError) -> Failure {
        usage(error.to_string())
    }
}

impl From<SpecError> for Failure {
    fn from(error: SpecError) -> Failure {
        usage(error.to_string())
    }
}

impl From<ScheduleError> for Failure {
    fn from(error: ScheduleError) -> Failure {
        usage(error.to_string())
    }
}

impl From<SprtError> for Failure {
    fn from(error: SprtError) -> Failure {
        usage(error.to_string())
    }
}

impl From<EngineError> for Failure {
    fn from(error: EngineError) -> Failure {
        internal(error.to_string())
    }
}

/// A usage error (exit status 2).
pub fn usage(message: impl Into<String>) -> Failure {
    Failure { status: USAGE, message: message.into() }
}

/// A failure of the arena itself (exit status 1).
pub fn internal(message: impl Into<String>) -> Failure {
    Failure { status: FAILED, message: message.into() }
}

/// What a failed write to stdout means for a command whose job is its
/// output: a quiet exit when the reader went away, else a failure.
pub fn unwritten(error: std::io::Error) -> Failure {
    match error.kind() {
        std::io::ErrorKind::BrokenPipe => Failure { status: READER_GONE, message: String::new() },
        _ => internal(format!("cannot write to standard output: {error}")),
    }
}
