//! The deck, the deal from a seed, and the strength of a hand.
//!
//! # The exact deal
//!
//! Another program can reproduce every deal from this description:
//!
//! 1. The deck of a game of `N` players holds `2(N + 1)` cards in
//!    increasing order (rank, then `s` before `h`): with 2 players
//!    `Js Jh Qs Qh Ks Kh`, with 3 `Js … Ah`, with 4 `Ts … Ah`.
//! 2. The generator is the arena's seeded draw ([`game::draw`]) of the
//!    game's seed `S` and stream 1: ChaCha8 keyed with `S` as 8
//!    little-endian bytes followed by 24 zero bytes, stream (nonce) 1, word
//!    position 0; `below(n)` draws 32-bit words until one is below
//!    `(2^32 / n) * n` and returns it modulo `n`.
//! 3. For `i` from `2N + 1` down to 1, swap positions `i` and `below(i + 1)`
//!    (a Fisher–Yates shuffle).
//! 4. Seat `s` gets the card at position `s`; the public card is the one at
//!    position `N`.

use crate::wire::Card;
use game::draw::Draw;
use serde::{Deserialize, Serialize};

/// The most seats at a table.
pub(crate) const MAX_SEATS: usize = 4;

/// The cards of a game of `players`, in increasing order.
pub fn deck(players: usize) -> &'static [Card] {
    let start = if players >= 4 { 0 } else { 2 };
    &Card::ALL[start..start + 2 * (players + 1)]
}

/// The cards of one game: each seat's private card and the public card.
/// Also the setup `arena match --deals` reads, one JSON object per game:
/// `{"cards": ["Js", "Kh"], "public": "Jh"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// Each seat's private card, seat 0 first.
    pub cards: Vec<Card>,
    /// The public card, revealed after round 1.
    pub public: Card,
}

impl Deal {
    /// The deal of the game of `players` with seed `seed`, exactly as the
    /// [module documentation](self) describes.
    pub fn seeded(seed: u64, players: usize) -> Deal {
        let mut cards = [Card::Ts; 2 * (MAX_SEATS + 1)];
        let deck = deck(players);
        cards[..deck.len()].copy_from_slice(deck);
        Draw::new(seed, 1).shuffle(&mut cards[..deck.len()]);
        Deal { cards: cards[..players].to_vec(), public: cards[players] }
    }

    /// Checks that the deal fits a game of `players`: one card per seat and
    /// a public card, all from the game's deck and all different.
    pub fn check(&self, players: usize) -> Result<(), String> {
        if self.cards.len() != players {
            return Err(format!("{} private cards dealt for {players} players", self.cards.len()));
        }
        let deck = deck(players);
        let mut seen = Vec::with_capacity(players + 1);
        for &card in self.cards.iter().chain([&self.public]) {
            if !deck.contains(&card) {
                let names: Vec<&str> = deck.iter().map(|c| c.name()).collect();
                return Err(format!(
                    "{} is not in the deck of a {players}-player game ({})",
                    card.name(),
                    names.join(" ")
                ));
            }
            if seen.contains(&card) {
                return Err(format!("{} is dealt twice", card.name()));
            }
            seen.push(card);
        }
        Ok(())
    }
}

/// The strength of a private card at the showdown: a pair with the public
/// card beats every unpaired card; otherwise the higher rank wins.
pub(crate) fn strength(card: Card, public: Card) -> u8 {
    if card.rank() == public.rank() { 16 + card.rank() } else { card.rank() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decks_follow_the_player_count() {
        let names = |players| deck(players).iter().map(|c| c.name()).collect::<Vec<_>>().join(" ");
        assert_eq!(names(2), "Js Jh Qs Qh Ks Kh");
        assert_eq!(names(3), "Js Jh Qs Qh Ks Kh As Ah");
        assert_eq!(names(4), "Ts Th Js Jh Qs Qh Ks Kh As Ah");
    }

    /// Golden deals, so that a third party re-dealing by the documented
    /// procedure can check its implementation (these were also reproduced
    /// by a separate Python implementation of ChaCha8 and the shuffle).
    #[test]
    fn golden_deals() {
        let golden = [(42, 2, "Ks Js", "Qh"), (7, 3, "Ks Js Qs", "Kh"), (2024, 4, "As Th Jh Js", "Qh")];
        for (seed, players, cards, public) in golden {
            let deal = Deal::seeded(seed, players);
            let got: Vec<&str> = deal.cards.iter().map(|c| c.name()).collect();
            assert_eq!((got.join(" "), deal.public.name()), (cards.to_string(), public), "seed {seed}");
        }
    }

    #[test]
    fn seeded_deals_are_valid_and_vary() {
        for players in 2..=4 {
            let deals: Vec<Deal> = (0..200).map(|seed| Deal::seeded(seed, players)).collect();
            for deal in &deals {
                deal.check(players).expect("a seeded deal is valid");
            }
            for card in deck(players) {
                assert!(deals.iter().any(|d| d.public == *card), "{} is never public", card.name());
            }
        }
    }

    #[test]
    fn bad_deals_are_refused_with_the_reason() {
        let deal = |cards: &[Card], public| Deal { cards: cards.to_vec(), public };
        assert_eq!(deal(&[Card::Js], Card::Jh).check(2), Err("1 private cards dealt for 2 players".to_string()));
        assert_eq!(deal(&[Card::Js, Card::Js], Card::Jh).check(2), Err("Js is dealt twice".to_string()));
        let error = deal(&[Card::As, Card::Js], Card::Jh).check(2).unwrap_err();
        assert_eq!(error, "As is not in the deck of a 2-player game (Js Jh Qs Qh Ks Kh)");
        assert_eq!(deal(&[Card::As, Card::Js, Card::Ks], Card::Jh).check(3), Ok(()));
    }

    #[test]
    fn a_pair_beats_any_high_card() {
        assert!(strength(Card::Js, Card::Jh) > strength(Card::Kh, Card::Jh));
        assert!(strength(Card::Kh, Card::Qs) > strength(Card::Qh, Card::Js));
        assert_eq!(strength(Card::Ks, Card::Jh), strength(Card::Kh, Card::Js));
    }
}
