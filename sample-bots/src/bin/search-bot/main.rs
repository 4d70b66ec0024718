//! `search-bot`: a sample All Fives bot that searches. At each decision it
//! guesses the hidden tiles many times, consistently with everything the
//! game revealed (see `knowledge`), plays each legal move in each guess and
//! finishes the hand with a mostly greedy policy, using the arena's own
//! engine (the `all-fives` crate), and plays the move with the best
//! average result for its side at the end of the hand (see `search`).
//!
//! With a playout budget only (the default) it is deterministic: its random
//! generator is reseeded from each `game_start`'s seed, so a match replays
//! exactly. Build it with `cargo build --release -p sample-bots`:
//!
//! ```text
//! target/release/arena match --bot search=target/release/search-bot --bot greedy=target/release/greedy-bot
//! ```

mod knowledge;
mod sample;
mod search;
#[cfg(test)]
mod tests;

use all_fives::wire::{Event, FromBot, ToBot, Variant};
use clap::Parser;
use knowledge::Knowledge;
use protocol::line::encode;
use protocol::messages::{MoveReply, Ready};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sample::Seen;
use search::Budget;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// An All Fives bot for the arena that searches sampled deals with the
/// arena's engine. With --playouts only, it plays the same way every time
/// given the game's seed; --time-ms makes its moves depend on the machine's
/// speed and load (not reproducible).
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Hands played out per decision, shared among the legal moves.
    #[arg(long, default_value_t = 1000)]
    playouts: u32,
    /// Also stop searching after this many milliseconds per decision
    /// (non-deterministic: the move then depends on the machine's speed).
    #[arg(long)]
    time_ms: Option<u64>,
    /// Further arguments are ignored, as by the other sample bots (a test
    /// harness may tag the process with one).
    #[arg(hide = true)]
    _ignored: Vec<String>,
}

/// A decision's budget from the command line, starting now.
fn budget(args: &Args) -> Budget {
    Budget { playouts: args.playouts, deadline: args.time_ms.map(|ms| Instant::now() + Duration::from_millis(ms)) }
}

fn main() {
    let args = Args::parse();
    let mut out = std::io::stdout().lock();
    let mut seat = 0;
    let mut variant: Option<Variant> = None;
    let mut knowledge = Knowledge::new(0);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    for line in std::io::stdin().lock().split(b'\n') {
        let line = line.expect("cannot read stdin");
        let event = match ToBot::decode(&line) {
            Ok(ToBot::Hello(hello)) => {
                if hello.protocol != protocol::VERSION {
                    eprintln!("search-bot: unsupported protocol version {}", hello.protocol);
                    std::process::exit(1);
                }
                seat = hello.seat;
                variant = Some(hello.variant);
                knowledge = Knowledge::new(seat);
                let ready = FromBot::Ready(Ready {
                    name: "search-bot".into(),
                    version: Some(env!("CARGO_PKG_VERSION").into()),
                    author: None,
                    protocol: Some(protocol::VERSION),
                    games: None,
                    any_seat: false,
                });
                if out.write_all(&encode(&ready)).and_then(|()| out.flush()).is_err() {
                    return;
                }
                continue;
            }
            Ok(ToBot::GameStart(start)) => {
                rng = ChaCha8Rng::seed_from_u64(start.seed);
                knowledge = Knowledge::new(seat);
                continue;
            }
            Ok(ToBot::Turn(turn)) => {
                let index = match &variant {
                    Some(variant) => {
                        let seen = Seen { seat, knowledge: &knowledge, state: &turn.state };
                        search::choose(variant, &seen, &turn.legal, budget(&args), &mut rng)
                    }
                    None => search::greedy(&turn.legal),
                };
                let reply = FromBot::Move(MoveReply { id: turn.id, index: Some(index), value: None });
                if out.write_all(&encode(&reply)).and_then(|()| out.flush()).is_err() {
                    return; // The arena has gone away.
                }
                continue;
            }
            Ok(ToBot::Bye) => return,
            Ok(ToBot::HandStart(e)) => Event::HandStart(e),
            Ok(ToBot::Play(e)) => Event::Play(e),
            Ok(ToBot::Draw(e)) => Event::Draw(e),
            Ok(ToBot::Pass(e)) => Event::Pass(e),
            Ok(ToBot::HandEnd(e)) => Event::HandEnd(e),
            Ok(ToBot::GameEnd(_)) => continue,
            // Probably a message type added after this bot was written: skip it.
            Err(e) => {
                eprintln!("search-bot: ignoring a line: {e}");
                continue;
            }
        };
        knowledge.observe(&event);
    }
}
