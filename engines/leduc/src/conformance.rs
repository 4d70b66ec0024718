//! The positions and tables `arena check-bot` tries a bot on: the places in
//! RULES.md where bots commonly go wrong, each set up from a hand-built deal
//! and a few actions.

use super::{Deal, Leduc, Variant};
use crate::wire::{Action, Card, Move};
use game::{Game, Position};

/// A game of `players` dealt `cards` and `public`, after `actions` (by value).
fn scripted(players: usize, cards: &[Card], public: Card, actions: &[Action]) -> (Variant, Leduc) {
    let variant = Variant { players };
    let deal = Deal { cards: cards.to_vec(), public };
    let mut game = Leduc::from_setup(&variant, &deal).expect("a valid built-in deal");
    for &action in actions {
        let index = game.find_move(&Move { action }).expect("a legal built-in action");
        game.play(index).expect("a legal built-in action");
    }
    (variant, game)
}

fn position(name: &'static str, expect: &'static str, (variant, game): (Variant, Leduc)) -> Position<Leduc> {
    Position { name, expect, variant, game }
}

/// The positions, in the order of the checklist.
pub fn positions() -> Vec<Position<Leduc>> {
    use Action::{Call, Fold, Raise};
    vec![
        position(
            "no-fold-when-checking",
            "check or raise: nothing is owed, so fold is not offered (seat 0 opens round 1)",
            scripted(2, &[Card::Js, Card::Kh], Card::Qs, &[]),
        ),
        position(
            "raise-cap",
            "call or fold: round 1's 2 raises have been made, so raise is not offered",
            scripted(2, &[Card::Qs, Card::Kh], Card::Js, &[Raise, Raise]),
        ),
        position(
            "round-2-bet-size",
            "answer a round-2 raise, which costs 4, not 2",
            scripted(2, &[Card::Qs, Card::Kh], Card::Js, &[Call, Call, Raise]),
        ),
        position(
            "round-2-after-fold",
            "seat 1 acts first in round 2 of 3 players: seat 0 folded in round 1",
            scripted(3, &[Card::Js, Card::Qh, Card::Ks], Card::As, &[Call, Raise, Call, Fold]),
        ),
    ]
}

/// The tables whole games are played at: 2, 3 and 4 players.
pub fn tables() -> Vec<(&'static str, Variant)> {
    vec![
        ("2-players", Variant { players: 2 }),
        ("3-players", Variant { players: 3 }),
        ("4-players", Variant { players: 4 }),
    ]
}
