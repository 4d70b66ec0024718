//! A person's sitting as the library runs it (`arena play` parses its flags
//! and calls [`run`]): the game and its variant checked, the bots seated
//! around the person's seat, and the games played by [`crate::run::person`],
//! from the terminal or from the page [`crate::serve::seat`] serves.

use super::exit::{self, Failure, internal, usage};
use super::{current_dir, random_seed};
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::engine::program::Program;
use crate::run::person::terminal::Terminal;
use crate::run::person::{self, Ending, Failed, Sitting};
use crate::run::setting::{Setting, given};
use crate::run::table::{Limits, Table};
use crate::serve::seat::InBrowser;
use crate::settings::VariantSetting;
use crate::store::output::OutDir;
use crate::terminal::console::errln;
use std::path::PathBuf;

/// What `arena play` is asked.
pub struct PlayRequest {
    /// The bots, NAME=COMMAND: one for every other seat, or one per other seat in seat order.
    pub bots: Vec<String>,
    /// The built-in game's name, when no engine program is given.
    pub game: String,
    /// The engine program, if the game is one.
    pub program: Option<Program>,
    /// The number of players asked for.
    pub players: Option<usize>,
    /// The variant settings asked for.
    pub variants: Vec<VariantSetting>,
    /// The person's seat, from 0.
    pub seat: usize,
    /// The seed, if one is given.
    pub seed: Option<u64>,
    /// Where to write the records, if anywhere.
    pub out: Option<PathBuf>,
    /// The person's name in the record.
    pub name: String,
    /// Games to play one after another.
    pub games: u64,
    /// Where to serve the seat's page, for a seat in the browser.
    pub web: Option<String>,
    /// Time allowed for each move of a bot, in milliseconds.
    pub move_timeout: Option<u64>,
    /// Time allowed for a bot to answer hello after it starts, in milliseconds.
    pub startup_timeout: Option<u64>,
}

/// Plays the sitting `args` asks for: the exit status says whether it was
/// played to its end or the person left.
pub fn run(args: PlayRequest) -> Result<i32, Failure> {
    let mut setting = Setting::open(&args.game, args.program.clone(), None)?;
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
fn seat_bots(args: &PlayRequest, seats: usize) -> Result<(Vec<BotSpec>, Vec<usize>), Failure> {
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
