//! `random-bot`: a sample All Fives bot that plays a uniformly random legal
//! move. Its random generator is reseeded from each `game_start`'s seed, so a
//! match run twice with the same match seed is played the same way.
//!
//! It speaks the arena's protocol on stdin/stdout, one JSON object per line.
//! Build it with `cargo build --release -p sample-bots` and run it in a match:
//!
//! ```text
//! target/release/arena match --bot random=target/release/random-bot --bot greedy=target/release/greedy-bot
//! ```
//!
//! To start a bot of your own, copy this file and change [`choose`].

use all_fives::wire::{Choice, FromBot, State, ToBot};
use protocol::line::{encode, message_type};
use protocol::messages::{MoveReply, Ready};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, Write};

/// Picks a move: returns an index into `legal`, which is never empty.
fn choose(_state: &State, legal: &[Choice], rng: &mut ChaCha8Rng) -> usize {
    rng.random_range(0..legal.len())
}

fn main() {
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut out = std::io::stdout().lock();
    let mut input = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return, // end of input: the arena has gone away
            Ok(_) => {}
        }
        // A random bot has no use for the game events (hand_start, play, draw,
        // ...): a cheap look at the type skips them unparsed. A smarter bot
        // would decode and track them.
        if !matches!(message_type(&line), Some("hello" | "game_start" | "turn" | "bye") | None) {
            continue;
        }
        let reply = match ToBot::decode(line.trim_ascii_end()) {
            Ok(ToBot::Hello(hello)) => {
                if hello.protocol != protocol::VERSION {
                    eprintln!("random-bot: unsupported protocol version {}", hello.protocol);
                    std::process::exit(1);
                }
                FromBot::Ready(Ready {
                    name: "random-bot".into(),
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
            Ok(ToBot::Turn(turn)) => FromBot::Move(MoveReply {
                id: turn.id,
                index: Some(choose(&turn.state, &turn.legal, &mut rng)),
                value: None,
            }),
            Ok(ToBot::Bye) => return,
            Ok(_) => continue,
            // Probably a message type added after this bot was written: skip it.
            Err(e) => {
                eprintln!("random-bot: ignoring a line: {e}");
                continue;
            }
        };
        if out.write_all(&encode(&reply)).and_then(|()| out.flush()).is_err() {
            return; // The arena has gone away.
        }
    }
}
