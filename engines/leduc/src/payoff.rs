//! Settling the pot: who wins it, how a tie splits it, and the payoffs.

use super::cards::{MAX_SEATS, strength};
use crate::wire::Card;

/// What each seat wins from `pot` at a showdown between the seats in
/// `showing` (a bit set), whose private cards are `cards`: the best hand
/// takes the pot; equal best hands share it, each getting `pot / n` and the
/// `pot % n` chips left over going one each to the tied seats in seat order
/// from seat 0.
pub(crate) fn showdown(pot: u32, cards: &[Card], public: Card, showing: u8) -> [u32; MAX_SEATS] {
    let in_hand = |seat: &usize| showing & (1 << seat) != 0;
    let best = (0..cards.len()).filter(in_hand).map(|seat| strength(cards[seat], public)).max().unwrap_or(0);
    let winners: Vec<usize> =
        (0..cards.len()).filter(in_hand).filter(|&s| strength(cards[s], public) == best).collect();
    split(pot, &winners)
}

/// `pot` shared among `winners` (in seat order) by the odd-chip rule.
pub(crate) fn split(pot: u32, winners: &[usize]) -> [u32; MAX_SEATS] {
    let mut won = [0; MAX_SEATS];
    let share = pot / winners.len() as u32;
    let odd = (pot % winners.len() as u32) as usize;
    for (i, &seat) in winners.iter().enumerate() {
        won[seat] = share + u32::from(i < odd);
    }
    won
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_odd_chips_go_to_the_tied_seats_from_seat_0() {
        assert_eq!(split(10, &[1, 3]), [0, 5, 0, 5]);
        assert_eq!(split(11, &[1, 3]), [0, 6, 0, 5]);
        assert_eq!(split(14, &[0, 2, 3]), [5, 0, 5, 4]);
        assert_eq!(split(7, &[2]), [0, 0, 7, 0]);
    }

    #[test]
    fn a_showdown_pays_the_best_hand() {
        // The worked example: seat 0 pairs the public jack.
        assert_eq!(showdown(22, &[Card::Js, Card::Kh], Card::Jh, 0b11), [22, 0, 0, 0]);
        // Equal kings split; the folded seat 2 (not showing) holds the pair but takes nothing.
        assert_eq!(showdown(9, &[Card::Ks, Card::Kh, Card::Qs], Card::Qh, 0b011), [5, 4, 0, 0]);
        // Without a pair the higher rank wins.
        assert_eq!(showdown(9, &[Card::Js, Card::As, Card::Qs], Card::Kh, 0b111), [0, 9, 0, 0]);
    }
}
