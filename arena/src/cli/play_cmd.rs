//! `arena play`: take a seat yourself, against bots, in the terminal or
//! (`--web`) in the browser (see [`crate::session::play`], which plays it).

use super::Failure;
use super::flags::number;
use super::game::GameArgs;
use crate::session::play::{self, PlayRequest};
use crate::settings::{MOVE_TIMEOUT, STARTUP_TIMEOUT, VariantSetting};
use clap::Args;
use std::path::PathBuf;

/// Examples shown by `arena play --help`.
pub const EXAMPLES: &str = "Examples:
  arena play --bot greedy=target/release/greedy-bot
  arena play --players 3 --seat 1 --bot greedy=target/release/greedy-bot --out my-games
  arena play --players 4 --bot me2=./my-bot --bot opp=target/release/greedy-bot --bot opp2=target/release/random-bot
  printf '1\\n2\\n1\\n' | arena play --bot greedy=target/release/greedy-bot --seed 3
  arena play --web --game leduc --bot rules=\"target/release/leduc-bot --play rules\"   # then open the address it prints

Answer each turn with the number of a move; q quits (the game is not recorded).
With --web, play in the browser instead: click a move; the leave button quits.
With --games N, N games are played one after another, with the running total after each.
Exit status: 0 when the game was played to its end, 130 when you left it, 2 for a usage error.";

/// The flags of `arena play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The bots: NAME=COMMAND. One plays every other seat (a process per
    /// seat); or give one per other seat, in seat order.
    #[arg(long = "bot", value_name = "NAME=COMMAND", required = true)]
    bots: Vec<String>,
    #[command(flatten)]
    game: GameArgs,
    /// Number of players (2, 3 or 4; 4 plays partnerships unless --variant partners=false).
    #[arg(long)]
    players: Option<usize>,
    /// A variant setting, KEY=VALUE (repeatable; see `arena rules`).
    #[arg(long = "variant", value_name = "KEY=VALUE")]
    variants: Vec<VariantSetting>,
    /// The seat you take, from 0.
    #[arg(long, default_value_t = 0)]
    seat: usize,
    /// The seed (default: a random one, printed): the deal is that of game 0 of `arena match --seed S`.
    #[arg(long)]
    seed: Option<u64>,
    /// Write the game's record (games.jsonl), standings.json and the bots' stderr logs here.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Your name in the record.
    #[arg(long, default_value = "you")]
    name: String,
    /// Games to play one after another (deals 0, 1, …), with the running
    /// total after each: a session of Leduc hands, say.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Play in the browser: serve your seat's page at ADDR (PORT or HOST:PORT;
    /// default 127.0.0.1 and a free port) and print the address to open.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = WEB_ADDR)]
    web: Option<String>,
    /// Time allowed for each move of a bot, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&MOVE_TIMEOUT), help = MOVE_TIMEOUT.help_as(
        "Time allowed for each move of a bot, in milliseconds (default {default}; you have all the time you want)"
    ))]
    move_timeout: Option<u64>,
    /// Time allowed for a bot to answer hello after it starts, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&STARTUP_TIMEOUT), help = STARTUP_TIMEOUT.help())]
    startup_timeout: Option<u64>,
}

/// Where `--web` serves the seat unless told otherwise: this machine only, any free port.
const WEB_ADDR: &str = "127.0.0.1:0";

/// Runs `arena play`.
pub fn run(args: PlayArgs) -> Result<i32, Failure> {
    play::run(PlayRequest {
        game: args.game.game().to_string(),
        program: args.game.program()?,
        bots: args.bots,
        players: args.players,
        variants: args.variants,
        seat: args.seat,
        seed: args.seed,
        out: args.out,
        name: args.name,
        games: args.games,
        web: args.web,
        move_timeout: args.move_timeout,
        startup_timeout: args.startup_timeout,
    })
}
