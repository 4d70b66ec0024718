//! `arena serve`: the live page of a run's directory (see [`crate::serve`]),
//! served until the command is stopped.

use super::{Failure, internal, usage};
use crate::serve::{self, DEFAULT_ADDR, Live};
use crate::terminal::console::errln;
use clap::Args;
use std::path::PathBuf;

/// Examples shown by `arena serve --help`.
pub const EXAMPLES: &str = "Examples:
  arena serve results                           # then open http://127.0.0.1:8000/
  arena serve league-out --listen 127.0.0.1:8001
  arena league --config my.toml --out league-out --serve   # serve a run while it runs";

/// The flags of `arena serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The output directory of `arena match --out`, `arena league --out` or `arena sprt --out`
    /// (running, stopped or finished).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Where to listen: HOST:PORT (port 0 for any free one).
    #[arg(long, value_name = "ADDR", default_value = DEFAULT_ADDR)]
    listen: String,
}

/// Runs `arena serve`: serves until stopped.
pub fn run(args: ServeArgs) -> Result<i32, Failure> {
    if !args.dir.is_dir() {
        return Err(usage(format!(
            "{} is not a directory: give the output directory of `arena match --out`, `arena league --out` or `arena sprt --out`",
            args.dir.display()
        )));
    }
    let listener = serve::bind(&args.listen).map_err(|e| usage(format!("--listen: {e}")))?;
    errln!("live page: {} (of {}; Ctrl-C stops it)", serve::url(&listener), args.dir.display());
    serve::serve(&args.dir, listener, Live::default()).map_err(|e| internal(e.0))?;
    Ok(super::exit::SUCCESS)
}
