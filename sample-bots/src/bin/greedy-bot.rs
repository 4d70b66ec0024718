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
//! To start a bot of your own, copy this file and change [`choose`].

use all_fives::wire::{Choice, FromBot, State, ToBot};
use protocol::line::encode;
use protocol::messages::{MoveReply, Ready};
use std::cmp::Reverse;
use std::io::{BufRead, Write};

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
                })
            }
            Ok(ToBot::Turn(turn)) => {
                FromBot::Move(MoveReply { id: turn.id, index: Some(choose(&turn.state, &turn.legal)), value: None })
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
