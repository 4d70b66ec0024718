//! Flat Monte Carlo search over determinizations: guess the hidden tiles
//! many times; in each guess play every legal move and finish the hand with
//! a fast, mostly greedy policy on the arena's own engine; play the move with
//! the best average result for the seat's side at the end of the hand.

use crate::sample::{Seen, determinize};
use all_fives::AllFives;
use all_fives::wire::{Choice, Variant};
use game::Game;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::time::Instant;

/// How much searching one decision may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Hands played out in all, shared among the legal moves (at least one
    /// guess of the hidden tiles is searched).
    pub playouts: u32,
    /// Stop starting new guesses at this moment (makes the choice depend
    /// on the machine's speed).
    pub deadline: Option<Instant>,
}

/// What a side gains for reaching the target, beyond its points: winning
/// the game matters more than any margin.
const TARGET_BONUS: f64 = 100.0;

/// The chance that the playout policy plays a random legal move instead of
/// the greedy one, so that playouts see more than one line of play.
const EXPLORE: f64 = 0.1;

/// The greedy choice (as `greedy-bot` plays): most points, then heaviest
/// tile, then first listed.
pub fn greedy(legal: &[Choice]) -> usize {
    (0..legal.len())
        .max_by_key(|&i| (legal[i].points, legal[i].tile[0] + legal[i].tile[1], Reverse(i)))
        .expect("a legal move")
}

/// Plays the game (set up to end with this hand) out with the playout policy.
fn play_out(game: &mut AllFives, rng: &mut ChaCha8Rng) {
    while game.to_act().is_some() {
        let count = game.legal_count();
        let index = if count == 1 {
            0
        } else if rng.random_bool(EXPLORE) {
            rng.random_range(0..count)
        } else {
            greedy(&game.choices())
        };
        game.play(index).expect("a listed move is legal");
    }
}

/// How good the finished game is for `seat`'s side: its score minus the best
/// score of another side, and [`TARGET_BONUS`] more (or less) if a side
/// reached the target.
fn value(game: &AllFives, seat: usize, team: &[usize]) -> f64 {
    let scores = game.scores();
    let mine = scores[seat];
    let best_other = (0..scores.len()).filter(|s| !team.contains(s)).map(|s| scores[s]).max().unwrap_or(mine);
    let mut value = (mine - best_other) as f64;
    if let Some(outcome) = game.outcome().filter(|o| o.reason == "target") {
        value += if outcome.ranks[seat] == 0 { TARGET_BONUS } else { -TARGET_BONUS };
    }
    value
}

/// Chooses a move: an index into `legal` (never empty). Pure given `rng`
/// when the budget has no deadline. Falls back to the greedy choice if the
/// position cannot be set up (what the seat knows does not fit the turn).
pub fn choose(variant: &Variant, seen: &Seen, legal: &[Choice], budget: Budget, rng: &mut ChaCha8Rng) -> usize {
    if legal.len() == 1 {
        return 0;
    }
    let team = variant.teams().into_iter().find(|t| t.contains(&seen.seat)).unwrap_or_else(|| vec![seen.seat]);
    let guesses = budget.playouts.div_ceil(legal.len() as u32).max(1);
    let mut totals = vec![0.0; legal.len()];
    for guess in 0..guesses {
        if guess > 0 && budget.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let position = determinize(seen, rng);
        let game = match AllFives::from_midhand(variant, &position) {
            Ok(game) if game.to_act() == Some(seen.seat) && game.legal_count() == legal.len() => game,
            Ok(_) => {
                eprintln!("search-bot: the position set up does not offer the turn's moves; playing greedily");
                return greedy(legal);
            }
            Err(e) => {
                eprintln!("search-bot: cannot set up the position ({e}); playing greedily");
                return greedy(legal);
            }
        };
        for (index, total) in totals.iter_mut().enumerate() {
            let mut line = game.clone();
            line.play(index).expect("a listed move is legal");
            play_out(&mut line, rng);
            *total += value(&line, seen.seat, &team);
        }
    }
    // The best total; ties go to the greedy order (most points, heaviest).
    (0..legal.len())
        .max_by(|&a, &b| {
            totals[a].total_cmp(&totals[b]).then_with(|| {
                let key = |i: usize| (legal[i].points, legal[i].tile[0] + legal[i].tile[1], Reverse(i));
                key(a).cmp(&key(b))
            })
        })
        .expect("a legal move")
}
