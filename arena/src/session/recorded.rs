//! Which engine program a command that reads records (`verify`, `replay`,
//! `view`) may run for a game of an engine program. A record names the
//! command that played it, and a record from someone else (a bug report, a
//! shared league) could name any command: so reading records runs nothing
//! unless the user names the engine (`--engine COMMAND`, run from here) or
//! asks for the recorded one (`--run-recorded-engine`, run in the directory
//! the record says it ran in).

use crate::engine::process::EngineError;
use crate::engine::program::Program;
use crate::engine::spec::Identity;
use crate::session::current_dir;
use crate::session::exit::{Failure, usage};
use crate::terminal::untrusted::escape;
use clap::Args;
use std::path::{Path, PathBuf};

/// The flags that say which engine program may run for the records' games of an engine program.
#[derive(Debug, Clone, Default, Args)]
pub struct RecordedEngine {
    /// The engine program to run for games of an engine program, from here
    /// (the records' own command runs only with --run-recorded-engine).
    #[arg(long, value_name = "COMMAND")]
    pub engine: Option<String>,
    /// Run the engine program each record names, in the directory it ran in
    /// (read the command first: a record from someone else can name any).
    #[arg(long, conflicts_with = "engine")]
    pub run_recorded_engine: bool,
}

/// Where a recorded engine program would run: the directory its record
/// names, or for a record that names none (recorded before records kept
/// it), here.
fn recorded_dir(identity: &Identity) -> Result<PathBuf, Failure> {
    identity.dir.clone().map_or_else(current_dir, Ok)
}

/// `dir` as shown in a message.
fn shown(dir: &Path) -> String {
    escape(&dir.display().to_string()).into_owned()
}

impl RecordedEngine {
    /// The engine program to run for a game the engine program `identity`
    /// played, answering within `timeout_ms`: the one the user named, or
    /// the recorded one if asked for; `None` when neither.
    ///
    /// # Errors
    /// When the recorded one is asked for but the directory it ran in is
    /// not one here, naming it and `--engine`.
    pub fn chosen(&self, identity: &Identity, timeout_ms: u64) -> Result<Option<Program>, Failure> {
        if let Some(command) = &self.engine {
            return Ok(Some(Program { command: command.clone(), dir: current_dir()?, timeout_ms }));
        }
        if !self.run_recorded_engine {
            return Ok(None);
        }
        let dir = recorded_dir(identity)?;
        if !dir.is_dir() {
            return Err(usage(format!(
                "the records' engine program \"{}\" ran in {}, which is not a directory here: run where the games \
                 were played, or give --engine COMMAND",
                escape(&identity.command),
                shown(&dir)
            )));
        }
        Ok(Some(Program { command: identity.command.clone(), dir, timeout_ms }))
    }

    /// [`chosen`](Self::chosen), required: for `what` (e.g.
    /// `games.jsonl: game 3`), a game that cannot be read without its engine.
    ///
    /// # Errors
    /// As `chosen`, and a usage error when the user neither named an engine
    /// nor asked for the recorded one: [`refusal`].
    pub fn program(&self, what: &str, identity: &Identity, timeout_ms: u64) -> Result<Program, Failure> {
        match self.chosen(identity, timeout_ms)? {
            Some(program) => Ok(program),
            None => Err(usage(format!("{what}: {}", refusal(identity)?))),
        }
    }

    /// `error`, of the engine program `program` run for a record, with what
    /// to do when it was the recorded one that failed: where it ran, and `--engine`.
    pub fn failed(&self, error: EngineError, program: &Program) -> EngineError {
        if self.engine.is_some() {
            return error;
        }
        EngineError {
            message: format!(
                "{} (the recorded command, run in {}: to run another engine program from here, give --engine COMMAND)",
                error.message,
                shown(&program.dir)
            ),
            stderr: error.stderr,
        }
    }
}

/// Why the recorded engine program of `identity` was not run, and the two
/// ways to have an engine run: the recorded command (escaped), where it
/// would run, `--run-recorded-engine` and `--engine`.
///
/// # Errors
/// When the working directory cannot be read.
pub fn refusal(identity: &Identity) -> Result<String, Failure> {
    let here = current_dir()?;
    let place = match &identity.dir {
        Some(dir) => format!("in {}, where it ran", shown(dir)),
        None => format!("here, in {} (the record does not say where it ran)", shown(&here)),
    };
    Ok(format!(
        "the record names the engine program \"{}\", and reading records runs no program unasked: to run it {place}, \
         add --run-recorded-engine (read the command first: a record from someone else can name any); to run an \
         engine program of your choosing from here ({}), give --engine COMMAND",
        escape(&identity.command),
        shown(&here)
    ))
}
