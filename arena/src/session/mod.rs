//! A command's run as the library runs it: what the commands of `cli/`
//! call once their flags are parsed.
//!
//! - [`entrants`]: who plays a league's or an SPRT's run, read from its configuration;
//! - [`exit`]: the exit statuses, and the one place where the library's errors become them;
//! - [`league`]: a league's life, from its flags or output directory to its standings;
//! - [`live`]: what a run serves while it runs (`--serve`, `--listen`);
//! - [`mod@matches`]: a match's life, from its flags to its standings;
//! - [`merge`]: a league's shards combined into one output directory;
//! - [`recorded`]: which engine program a command that reads records may run;
//! - [`replay`]: a bot fed recorded games, and where it now chooses differently;
//! - [`mod@report`]: the HTML page of a run's output directory;
//! - [`sprt`]: an SPRT's life, from its flags or output directory to its verdict.

mod entrants;
pub mod exit;
pub mod league;
pub mod live;
pub mod matches;
pub mod merge;
pub mod recorded;
pub mod replay;
pub mod report;
pub mod sprt;

use exit::{Failure, internal};
use std::path::PathBuf;

/// The arena's program as it was run (`target/release/arena`, or `arena`
/// when found on PATH), quoted for a shell: what the commands it suggests start with.
pub fn program() -> String {
    let typed = std::env::args_os().next().map(|arg| arg.to_string_lossy().into_owned());
    shell_words::quote(typed.as_deref().unwrap_or("arena")).into_owned()
}

/// The working directory.
///
/// # Errors
/// When it cannot be read.
pub fn current_dir() -> Result<PathBuf, Failure> {
    std::env::current_dir().map_err(|e| internal(format!("cannot read the working directory: {e}")))
}

/// A seed from the operating system's randomness, for a run given none.
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    // RandomState is seeded from the operating system's randomness.
    RandomState::new().hash_one(std::time::SystemTime::now())
}

/// The failure of a run that stopped, saying how to continue it with
/// `arena COMMAND --resume` when it wrote to `out` (the arena named as it was run).
pub fn resumable(error: crate::run::execute::RunError, command: &str, out: Option<&std::path::Path>) -> Failure {
    match out {
        Some(dir) => internal(format!("{error}; continue with: {} {command} --resume {}", program(), dir.display())),
        None => internal(error.to_string()),
    }
}
