//! `leduc-bot`: a sample Leduc Hold'em bot, random or rule-based.
//!
//! - `--play random` (the default): a uniformly random legal action; its
//!   generator is reseeded from each `game_start`'s seed, so a match run twice
//!   with the same match seed is played the same way.
//! - `--play rules`: rules of thumb on the strength of its hand, exactly as
//!   `sample-bots/python/leduc.py` plays. Round 1: the top rank (K with 2
//!   players, A with 3 or 4) raises while it may, else calls; the rank below
//!   calls; anything lower checks when it can and folds when it owes.
//!   Round 2: a pair with the public card raises while it may, else calls;
//!   the top rank calls; anything else checks when it can and folds when it owes.
//!
//! It speaks the arena's protocol on stdin/stdout, one JSON object per line.
//! Build it with `cargo build --release -p sample-bots` and run it in a match:
//!
//! ```text
//! target/release/arena match --game leduc --bot random=target/release/leduc-bot \
//!     --bot rules="target/release/leduc-bot --play rules"
//! ```

use clap::{Parser, ValueEnum};
use leduc::wire::{Action, Card, Choice, FromBot, State, ToBot};
use protocol::line::{decode, encode};
use protocol::messages::{MoveReply, Ready};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::{BufRead, Write};

/// How the bot chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Play {
    /// A uniformly random legal action.
    Random,
    /// Rules of thumb on the strength of the hand.
    Rules,
}

/// A sample Leduc Hold'em bot for the arena.
#[derive(Parser)]
struct Args {
    /// How to choose each action.
    #[arg(long, value_enum, default_value = "random")]
    play: Play,
    /// Further arguments are ignored, as by the other sample bots (a test
    /// harness may tag the process with one).
    #[arg(hide = true)]
    _ignored: Vec<String>,
}

/// The action the rules of thumb take in `state`, given the legal `actions`.
fn by_rules(state: &State, actions: &[Action]) -> Action {
    let top = if state.put_in.len() == 2 { Card::Ks.rank() } else { Card::As.rank() };
    let rank = state.card.rank();
    let (strong, fair) = match state.public {
        None => (rank == top, rank + 1 == top),
        Some(public) => (rank == public.rank(), rank == top),
    };
    if strong {
        if actions.contains(&Action::Raise) { Action::Raise } else { Action::Call }
    } else if fair || state.owed == 0 {
        Action::Call
    } else {
        Action::Fold
    }
}

/// Picks an action: returns an index into `legal`, which is never empty.
fn choose(play: Play, state: &State, legal: &[Choice], rng: &mut ChaCha8Rng) -> usize {
    match play {
        Play::Random => rng.random_range(0..legal.len()),
        Play::Rules => {
            let actions: Vec<Action> = legal.iter().map(|c| c.action).collect();
            let wanted = by_rules(state, &actions);
            actions.iter().position(|&a| a == wanted).expect("call is always legal, fold whenever chips are owed")
        }
    }
}

fn main() {
    let play = Args::parse().play;
    let name = match play {
        Play::Random => "leduc-random",
        Play::Rules => "leduc-rules",
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().split(b'\n') {
        let Ok(line) = line else { return }; // The arena has gone away.
        let reply = match decode::<ToBot>(&line) {
            Ok(ToBot::Hello(hello)) => {
                if hello.protocol != protocol::VERSION {
                    eprintln!("{name}: unsupported protocol version {}", hello.protocol);
                    std::process::exit(1);
                }
                FromBot::Ready(Ready {
                    name: name.into(),
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
                index: Some(choose(play, &turn.state, &turn.legal, &mut rng)),
                value: None,
            }),
            Ok(ToBot::Bye) => return,
            // Game events (deal, act, public, hand_end): a smarter bot would track them.
            Ok(_) => continue,
            // Probably a message type added after this bot was written: skip it.
            Err(e) => {
                eprintln!("{name}: ignoring a line: {e}");
                continue;
            }
        };
        if out.write_all(&encode(&reply)).and_then(|()| out.flush()).is_err() {
            return; // The arena has gone away.
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(card: Card, public: Option<Card>, players: usize, owed: u32) -> State {
        State {
            round: if public.is_some() { 2 } else { 1 },
            card,
            public,
            pot: 0,
            put_in: vec![1; players],
            folded: vec![false; players],
            raises: 0,
            owed,
            bet: 2,
        }
    }

    #[test]
    fn the_rules_of_thumb() {
        use Action::{Call, Fold, Raise};
        let all = [Fold, Call, Raise];
        assert_eq!(by_rules(&state(Card::Kh, None, 2, 0), &all[1..]), Raise);
        assert_eq!(by_rules(&state(Card::Kh, None, 2, 2), &all[..2]), Call);
        assert_eq!(by_rules(&state(Card::Kh, None, 3, 2), &all), Call);
        assert_eq!(by_rules(&state(Card::Js, None, 2, 0), &all[1..]), Call);
        assert_eq!(by_rules(&state(Card::Js, None, 2, 2), &all), Fold);
        assert_eq!(by_rules(&state(Card::Js, Some(Card::Jh), 2, 4), &all), Raise);
        assert_eq!(by_rules(&state(Card::Qs, Some(Card::Jh), 2, 4), &all), Fold);
    }
}
