//! `greedy-bot`: a sample All Fives bot that plays the legal move scoring the
//! most points at once; ties go to the heaviest tile (tiles left in hand cost
//! points when the hand ends), then to the earliest move in the `legal` list.
//!
//! It speaks the arena's protocol on stdin/stdout, one JSON object per line.
//! Build it with `cargo build --release -p sample-bots` and run it in a match:
//!
//! ```text
//! target/release/arena match --bot greedy=target/release/greedy-bot --bot random=target/release/random-bot
//! ```
//!
//! With `--noise P` it plays a random legal move instead with probability
//! `P` at each decision, drawn from a generator reseeded from each
//! `game_start`'s seed, so it stays deterministic: a field of greedy bots at
//! several noise levels is a field of known order (`bench/learning-schedule`).
//!
//! To start a bot of your own, copy this file and change [`choose`].

use all_fives::wire::{Choice, FromBot, State, ToBot};
use clap::Parser;
use protocol::line::encode;
use protocol::messages::{MoveReply, Ready};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::io::{BufRead, Write};

/// An All Fives bot for the arena that plays the move scoring the most points at once.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// The probability of a random legal move instead of the greedy one, at each decision.
    #[arg(long, default_value_t = 0.0, value_parser = probability)]
    noise: f64,
    /// Further arguments are ignored, as by the other sample bots (a test
    /// harness may tag the process with one).
    #[arg(hide = true)]
    _ignored: Vec<String>,
}

/// A probability from the command line: a number from 0 to 1.
fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("{text:?} is not a probability (a number from 0 to 1)")),
    }
}

/// Picks a move: returns an index into `legal`, which is never empty.
fn choose(_state: &State, legal: &[Choice]) -> usize {
    // The largest key wins: most points, then most pips, then lowest index.
    (0..legal.len())
        .max_by_key(|&i| {
            let [a, b] = legal[i].tile;
            (legal[i].points, a + b, Reverse(i))
        })
        .expect("the arena asks only when there is a legal move")
}

fn main() {
    let args = Args::parse();
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().split(b'\n') {
        let line = line.expect("cannot read stdin");
        let reply = match ToBot::decode(&line) {
            Ok(ToBot::Hello(hello)) => {
                if hello.protocol != protocol::VERSION {
                    eprintln!("greedy-bot: unsupported protocol version {}", hello.protocol);
                    std::process::exit(1);
                }
                FromBot::Ready(Ready {
                    name: "greedy-bot".into(),
                    version: Some(env!("CARGO_PKG_VERSION").into()),
                    author: None,
                    protocol: Some(protocol::VERSION),
                    games: None,
                    any_seat: false,
                })
            }
            Ok(ToBot::GameStart(start)) => {
                rng = ChaCha8Rng::seed_from_u64(start.seed);
                continue;
            }
            Ok(ToBot::Turn(turn)) => {
                // Both draws at every decision, whatever the noise: until the games part, a bot
                // with more noise plays randomly wherever one with less does, and the same move there.
                let (draw, random) = (rng.random::<f64>(), rng.random_range(0..turn.legal.len()));
                let index = if draw < args.noise { random } else { choose(&turn.state, &turn.legal) };
                FromBot::Move(MoveReply { id: turn.id, index: Some(index), value: None })
            }
            Ok(ToBot::Bye) => return,
            // Game events (hand_start, play, draw, ...): a smarter bot would track them.
            Ok(_) => continue,
            // Probably a message type added after this bot was written: skip it.
            Err(e) => {
                eprintln!("greedy-bot: ignoring a line: {e}");
                continue;
            }
        };
        if out.write_all(&encode(&reply)).and_then(|()| out.flush()).is_err() {
            return; // The arena has gone away.
        }
    }
}
