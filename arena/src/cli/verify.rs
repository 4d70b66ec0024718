//! `arena verify`: re-plays every recorded game through the engine and
//! reports every disagreement (see [`crate::session::verify`], which does it).

use super::Failure;
use super::flags::number;
use crate::session::recorded::RecordedEngine;
use crate::session::verify::{self, VerifyRequest};
use crate::settings::ENGINE_TIMEOUT;
use clap::Args;
use std::path::PathBuf;

/// The flags of `arena verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Record files (games.jsonl), or output directories holding one.
    #[arg(required = true, value_name = "GAMES")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    recorded: RecordedEngine,
    /// Time allowed for each answer of the engine program, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&ENGINE_TIMEOUT), help = ENGINE_TIMEOUT.help_as(
        "Time allowed for each answer of the engine program, in milliseconds (default {default}; an engine that asks more at hello, its step_ms, is given up to 60000)"
    ))]
    engine_timeout: Option<u64>,
}

/// Runs `arena verify`: exit status 0 when every record agrees with the
/// engine, 1 when any does not (or a line is not a record).
pub fn run(args: VerifyArgs) -> Result<i32, Failure> {
    verify::run(VerifyRequest {
        files: args.files,
        recorded: args.recorded,
        timeout_ms: args.engine_timeout.unwrap_or(ENGINE_TIMEOUT.default),
    })
}
