//! `arena play`: take a seat yourself, against bots, in the terminal or
//! (`--web`) in the browser. The flags, checked, make a table and a sitting
//! that [`crate::run::person`] plays, from the terminal or from the page
//! [`crate::serve::seat`] serves.

use super::flags::number;
use super::game::GameArgs;
use super::{Failure, current_dir, exit, internal, random_seed, usage};
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::run::person::terminal::Terminal;
use crate::run::person::{self, Ending, Failed, Sitting};
use crate::run::setting::Setting;
use crate::run::setting::given;
use crate::run::table::{Limits, Table};
use crate::serve::seat::InBrowser;
use crate::settings::{MOVE_TIMEOUT, STARTUP_TIMEOUT, VariantSetting};
use crate::store::output::OutDir;
use crate::terminal::console::errln;
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
    let mut setting = Setting::open(args.game.game(), args.game.program()?, None)?;
    let variant = setting.resolve(&given(args.players, &args.variants))?;
    let engine = setting.close()?;
    let seats: usize = variant.teams.iter().map(Vec::len).sum();
    if args.seat >= seats {
        return Err(usage(format!("--seat {}: this game has seats 0 to {}", args.seat, seats - 1)));
    }
    let (bots, seating) = seat_bots(&args, seats)?;
    let seed = args.seed.unwrap_or_else(random_seed);
    let out = args.out.as_deref().map(OutDir::create).transpose()?;
    let limits = Limits::timed(args.move_timeout, None, args.startup_timeout);
    let web = args.web.as_deref().map(listen).transpose()?;
    let logs = out.as_ref().map(OutDir::logs);
    let table = Table::new(bots, engine, variant, seed, limits, logs, Registry::new());
    let sitting =
        Sitting { seat: args.seat, name: args.name, seating, games: args.games, out, program: super::program() };
    let (game, program) = (table.engine.name().to_string(), table.engine.program_of().is_some());
    let ended = match web {
        Some(listener) => {
            let url = crate::serve::url(&listener);
            let front = InBrowser::serve(listener, &game, program, args.seat).map_err(|e| internal(e.0))?;
            errln!("your seat: {url} (open it in a browser; the arena waits for your moves; Ctrl-C stops it)");
            person::play(table, sitting, front)
        }
        None => person::play(table, sitting, Terminal::stdin()),
    };
    match ended {
        Ok(Ending::Played) => Ok(exit::SUCCESS),
        Ok(Ending::Left) => Ok(exit::INTERRUPTED),
        Err(Failed(message)) => Err(internal(message)),
    }
}

/// Listens for `--web ADDR`: a port alone is on 127.0.0.1; another
/// machine may reach the seat only at an address given in full (said aloud).
fn listen(addr: &str) -> Result<std::net::TcpListener, Failure> {
    let addr = if addr.parse::<u16>().is_ok() { format!("127.0.0.1:{addr}") } else { addr.to_string() };
    let listener = crate::serve::bind(&addr).map_err(|e| usage(format!("--web: {e}")))?;
    if listener.local_addr().is_ok_and(|local| !local.ip().is_loopback()) {
        errln!("warning: --web {addr} is reachable from other machines: anyone who can reach it can play your seat");
    }
    Ok(listener)
}

/// The bots, and the bot of each seat (an index into them; `usize::MAX`,
/// never read, for the person's seat): one bot for every other seat, or one
/// per other seat in seat order.
fn seat_bots(args: &PlayArgs, seats: usize) -> Result<(Vec<BotSpec>, Vec<usize>), Failure> {
    let others = seats - 1;
    if args.bots.len() != 1 && args.bots.len() != others {
        return Err(usage(format!(
            "give one --bot (it plays every other seat) or {others} (one per other seat, in seat order); got {}",
            args.bots.len()
        )));
    }
    let cwd = current_dir()?;
    let mut bots: Vec<BotSpec> = Vec::new();
    for text in &args.bots {
        let bot = BotSpec::parse(text, &cwd)?;
        if bots.iter().any(|b| b.name == bot.name) || bot.name == args.name {
            return Err(usage(format!(
                "two players are named {:?}; give each --bot a different NAME (and --name for yours)",
                bot.name
            )));
        }
        bots.push(bot);
    }
    let mut next = 0;
    let seating = (0..seats)
        .map(|seat| {
            if seat == args.seat {
                return usize::MAX;
            }
            let bot = next.min(bots.len() - 1);
            next += 1;
            bot
        })
        .collect();
    Ok((bots, seating))
}
