//! `arena report`: the output directory of a match, a league or an SPRT as
//! an HTML page (see [`crate::session::report`], which writes it).

use super::Failure;
use crate::session::report::{self, ReportRequest};
use clap::Args;
use std::path::PathBuf;

/// Examples shown by `arena report --help`.
pub const EXAMPLES: &str = "Examples:
  arena report results                      # writes results/report.html and results/report-files/
  arena report league-out -o league.html    # league.html and league-files/ in the working directory
  arena report sprt-results -o sprt.html
  arena report big-league --replays all     # a replay for every game (the default is 2000 at most)";

/// The flags of `arena report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The output directory of `arena match --out`, `arena league --out` or `arena sprt --out`
    /// (finished, or still being written).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Where to write the page (default: DIR/report.html). The records of
    /// its replays go in a directory beside it, named after it: `NAME-files/`.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// How many games get a replay: `all`, or at most N (every game when
    /// there are no more; else the games with a fault, up to half of N,
    /// and evenly spaced others). Each costs its record's size beside the page.
    #[arg(long, value_name = "N|all", default_value = "2000", value_parser = replay_limit)]
    replays: usize,
}

/// `--replays` is neither a number nor `all`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct NotAReplayLimit {
    /// The flag's value.
    text: String,
}

impl std::fmt::Display for NotAReplayLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "expected a number of games or `all`, not {:?}", self.text)
    }
}

impl std::error::Error for NotAReplayLimit {}

/// `--replays`: a number, or `all`.
fn replay_limit(text: &str) -> Result<usize, NotAReplayLimit> {
    match text {
        "all" => Ok(usize::MAX),
        number => number.parse().map_err(|_| NotAReplayLimit { text: number.to_string() }),
    }
}

/// Runs `arena report`.
pub fn run(args: ReportArgs) -> Result<i32, Failure> {
    report::run(ReportRequest { dir: args.dir, output: args.output, replays: args.replays })
}
