//! The `arena` command line: parsing, validation, and the commands.
//!
//! Exit status: 0 on success, 1 when the arena itself fails (e.g. it cannot
//! write its output), 2 for a usage error, 130 when interrupted. Commands
//! that answer a question say the answer in it too: `verify` exits 1 when a
//! record disagrees, `replay` 1 when the bot chooses differently, and `sprt`
//! 0 when H1 is accepted (the new bot is better), 1 when H0 is accepted (so
//! 1 means either H0 or a failure, as the error message on stderr tells
//! apart), 3 when it ends inconclusive. `match`, `league` and `sprt` exit 4
//! when a bot forfeited every game it was in (it never started; for `sprt`,
//! also when it stopped because a bot failed to start), and with
//! `--fail-on-fault` 5 when a bot faulted at all, whatever the verdict.
//!
//! A command whose job is its output (`verify`, `replay`, `view`, `rules`,
//! `check-bot`) stops quietly with status 141 when the reader of its stdout
//! has gone (`arena verify … | head`), as a shell reports a program killed by
//! SIGPIPE; a run (`match`, `league`, `sprt`, `merge`) goes on without its
//! report and exits as usual.

// The doc comments of the flags are their --help texts, which name files
// such as `standings.<ext>` as a user reads them, not as HTML.
#![allow(rustdoc::invalid_html_tags)]

mod check_bot;
mod engine;
mod flags;
mod game;
mod league;
mod match_cmd;
mod merge;
mod play_cmd;
mod replay;
mod report;
mod rules;
mod serve;
mod sprt;
mod unquoted;
mod verify;
mod view;

use crate::session::current_dir;
use crate::session::exit::{self, internal, unwritten, usage};
pub use crate::session::exit::{Failure, READER_GONE};
pub use crate::session::program;
use crate::terminal::console::errln;
use clap::{CommandFactory, Parser, Subcommand};

/// Where `arena --help` sends a new user: the first command, and the documents.
const START: &str = "\
Start with `arena match` (the sample greedy-bot against random-bot, no flags needed), then `arena match --help`.
Documents: README.md, docs/ (docs/bots.md to write a bot, docs/matches.md, docs/leagues.md) and protocol/PROTOCOL.md.";

/// A bot arena for All Fives dominoes: bots are programs in any language that
/// speak line-delimited JSON on stdin/stdout (see protocol/PROTOCOL.md).
#[derive(Debug, Parser)]
#[command(name = "arena", version, about, long_about = None, after_help = START)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a match between bots and print the standings.
    ///
    /// Every deal is played in every order of the bots over the seats, so
    /// each bot holds each seat's tiles and sits after each other bot equally
    /// often. Without --bot, plays the sample greedy-bot against random-bot
    /// (built with `cargo build --release`).
    #[command(after_help = match_cmd::EXAMPLES)]
    Match(Box<match_cmd::MatchArgs>),
    /// Run a league: every group of bots plays, with ratings and durable, resumable results.
    ///
    /// Without --config, --bot or --resume, runs a demo league: a ladder of the
    /// sample bots, from random play to search-bot.
    #[command(after_help = league::EXAMPLES)]
    League(Box<league::LeagueArgs>),
    /// Test whether a new version of a bot is better than its base (a sequential probability ratio test).
    ///
    /// Plays duplicate deals of the new bot against the base bot until the
    /// test accepts H0 (new is at most --elo0 better) or H1 (at least --elo1
    /// better), or --max-games is reached; prints the LLR, its bounds, the
    /// Elo difference and the pentanomial counts as it goes.
    #[command(after_help = sprt::EXAMPLES)]
    Sprt(Box<sprt::SprtArgs>),
    /// Take a seat yourself against bots, in the terminal (moves can be piped in).
    ///
    /// At each of your turns the position is shown with your legal moves
    /// numbered; answer with a number (q quits). With --out the game is
    /// recorded like any other, for `arena view` and `arena verify`.
    #[command(after_help = play_cmd::EXAMPLES)]
    Play(play_cmd::PlayArgs),
    /// Combine the output directories of a league's shards into one.
    Merge(merge::MergeArgs),
    /// Re-play every recorded game through the engine and report every disagreement.
    ///
    /// Exit status 0 when every record agrees, 1 when any does not.
    Verify(verify::VerifyArgs),
    /// Feed a bot a recorded game from one seat's point of view and list every
    /// decision where it now chooses differently from the record.
    #[command(after_help = replay::EXAMPLES)]
    Replay(replay::ReplayArgs),
    /// Check that a bot speaks the protocol and plays by the rules: a checklist for bot authors.
    #[command(after_help = check_bot::EXAMPLES)]
    CheckBot(check_bot::CheckBotArgs),
    /// Write one recorded game as a self-contained HTML page that replays it.
    #[command(after_help = view::EXAMPLES)]
    View(view::ViewArgs),
    /// Write the results of a match, a league or an SPRT as an HTML page:
    /// standings, ratings with their intervals and their course, the
    /// matrices, the SPRT's course, faults, move times and every game's replay.
    ///
    /// Works on a directory still being written too (the page then says it is partial).
    #[command(after_help = report::EXAMPLES)]
    Report(report::ReportArgs),
    /// Serve the live page of a run (running, stopped or finished) on 127.0.0.1:
    /// standings with their intervals, the SPRT, faults, the games in flight,
    /// updated as games end.
    ///
    /// Reads the run's directory and never changes it.
    #[command(after_help = serve::EXAMPLES)]
    Serve(serve::ServeArgs),
    /// Serve a built-in game over the engine protocol on stdin and stdout
    /// (engines/ENGINES.md): the protocol's reference implementation.
    Engine {
        /// The game.
        #[arg(value_name = "GAME")]
        game: String,
    },
    /// Check that a game engine program speaks the engine protocol and
    /// behaves (engines/ENGINES.md): a checklist for engine authors.
    #[command(after_help = engine::EXAMPLES)]
    CheckEngine(engine::CheckEngineArgs),
    /// Print the game's variant settings and their defaults.
    Rules(game::GameArgs),
}

/// Runs the command line; returns the exit status.
pub fn main() -> i32 {
    let args: Vec<String> = std::env::args_os().map(|arg| arg.to_string_lossy().into_owned()).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(error) => return refused(&error, &args),
    };
    let result = match cli.command {
        Command::Match(args) => match_cmd::run(*args),
        Command::League(args) => league::run(*args),
        Command::Sprt(args) => sprt::run(*args),
        Command::Play(args) => play_cmd::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Replay(args) => replay::run(args),
        Command::CheckBot(args) => check_bot::run(args),
        Command::Rules(game) => rules::run(&game),
        Command::Engine { game } => engine::serve(&game),
        Command::CheckEngine(args) => engine::check(args),
        Command::View(args) => view::run(args),
        Command::Report(args) => report::run(args),
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(status) => status,
        Err(failure) => {
            if !failure.message.is_empty() {
                errln!("error: {}", failure.message);
            }
            failure.status
        }
    }
}

/// Reports a command line clap refused and returns the exit status: an
/// unexpected argument that continues a bot command (`arena check-bot perl
/// bot.pl`) is explained, with the command line corrected.
fn refused(error: &clap::Error, args: &[String]) -> i32 {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let unexpected = match (error.kind(), error.get(ContextKind::InvalidArg)) {
        (ErrorKind::UnknownArgument, Some(ContextValue::String(arg))) => Some(arg),
        _ => None,
    };
    match unexpected.and_then(|arg| Some((arg, unquoted::corrected(&Cli::command(), args, &program(), arg)?))) {
        Some((arg, line)) => {
            errln!(
                "error: unexpected argument {arg:?}: a bot command with arguments is one argument, in quotes (the \
                 arena splits it into words itself); did you mean:\n  {line}"
            );
            exit::USAGE
        }
        None => error.exit(),
    }
}
