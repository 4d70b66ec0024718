//! Settling a hand that ended with a player going out or with a block.

use crate::wire::HandEndRule;

/// `pips` rounded to the nearest multiple of five: a remainder of 1 or 2
/// rounds down, 3 or 4 rounds up (7 → 5, 8 → 10, 2 → 0, 13 → 15).
pub fn round5(pips: u32) -> u32 {
    (pips + 2) / 5 * 5
}

/// The score change of each side from settling a hand.
///
/// `side_of[seat]` is the seat's side (`0..sides`), `pips[seat]` the pips
/// left in its hand, and `out` the seat that went out (`None` for a blocked
/// hand).
///
/// - [`HandEndRule::SubtractOwn`]: each seat's pips, rounded, are subtracted
///   from its own side.
/// - [`HandEndRule::WinnerTakes`]: the side that went out scores the sum of
///   all opponents' pips, rounded once. In a blocked hand the side with the
///   fewest pips (partners' unrounded pips added) scores the opponents' pips
///   the same way; if two or more sides tie for fewest, nobody scores.
pub(crate) fn settle(rule: HandEndRule, side_of: &[usize], sides: usize, pips: &[u32], out: Option<usize>) -> Vec<i64> {
    let mut changes = vec![0i64; sides];
    match rule {
        HandEndRule::SubtractOwn => {
            for (&side, &p) in side_of.iter().zip(pips) {
                changes[side] -= i64::from(round5(p));
            }
        }
        HandEndRule::WinnerTakes => {
            let winner = match out {
                Some(seat) => Some(side_of[seat]),
                None => {
                    let mut side_pips = vec![0u32; sides];
                    for (&side, &p) in side_of.iter().zip(pips) {
                        side_pips[side] += p;
                    }
                    let fewest = side_pips.iter().copied().min().unwrap_or(0);
                    let mut lowest = (0..sides).filter(|&s| side_pips[s] == fewest);
                    match (lowest.next(), lowest.next()) {
                        (Some(side), None) => Some(side),
                        _ => None,
                    }
                }
            };
            if let Some(winner) = winner {
                let opponents: u32 =
                    side_of.iter().zip(pips).filter(|&(&side, _)| side != winner).map(|(_, &p)| p).sum();
                changes[winner] = i64::from(round5(opponents));
            }
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;
    use HandEndRule::{SubtractOwn, WinnerTakes};

    #[test]
    fn rounding_table() {
        let table = [(0, 0), (2, 0), (3, 5), (7, 5), (8, 10), (12, 10), (13, 15)];
        for (pips, rounded) in table {
            assert_eq!(round5(pips), rounded, "{pips}");
        }
        assert_eq!(round5(1), 0);
        assert_eq!(round5(4), 5);
        assert_eq!(round5(5), 5);
        assert_eq!(round5(6), 5);
    }

    #[test]
    fn subtract_own_individuals() {
        // 3 players, seat 1 went out.
        let changes = settle(SubtractOwn, &[0, 1, 2], 3, &[7, 0, 13], Some(1));
        assert_eq!(changes, [-5, 0, -15]);
        // Blocked: the same, everyone pays for his own tiles.
        let changes = settle(SubtractOwn, &[0, 1], 2, &[8, 2], None);
        assert_eq!(changes, [-10, 0]);
    }

    #[test]
    fn subtract_own_partners_round_each_partner() {
        // Seats 0 and 2 against 1 and 3. 2 -> 0 and 2 -> 0 (not 4 -> 5).
        let side_of = [0, 1, 0, 1];
        let changes = settle(SubtractOwn, &side_of, 2, &[2, 7, 2, 8], Some(0));
        assert_eq!(changes, [0, -15]);
    }

    #[test]
    fn winner_takes_out() {
        // Sum of all opponents, rounded once: 7 + 8 = 15 (not 5 + 10).
        let changes = settle(WinnerTakes, &[0, 1, 2], 3, &[0, 7, 8], Some(0));
        assert_eq!(changes, [15, 0, 0]);
        let changes = settle(WinnerTakes, &[0, 1, 2], 3, &[1, 1, 0], Some(2));
        assert_eq!(changes, [0, 0, 0]);
    }

    #[test]
    fn winner_takes_out_partners_ignore_the_partner() {
        // Seat 1 out; its partner seat 3 holds 9, which is not counted.
        let side_of = [0, 1, 0, 1];
        let changes = settle(WinnerTakes, &side_of, 2, &[11, 0, 2, 9], Some(1));
        assert_eq!(changes, [0, 15]);
    }

    #[test]
    fn winner_takes_blocked_fewest_pips() {
        let changes = settle(WinnerTakes, &[0, 1, 2], 3, &[10, 4, 12], None);
        assert_eq!(changes, [0, 20, 0]);
        // Partners add their unrounded pips: 2 + 2 = 4 against 1 + 6 = 7.
        let side_of = [0, 1, 0, 1];
        let changes = settle(WinnerTakes, &side_of, 2, &[2, 1, 2, 6], None);
        assert_eq!(changes, [5, 0]);
    }

    #[test]
    fn winner_takes_blocked_tie_scores_nothing() {
        assert_eq!(settle(WinnerTakes, &[0, 1], 2, &[9, 9], None), [0, 0]);
        // Two of three tie for fewest: nobody scores, even though seat 2 has more.
        assert_eq!(settle(WinnerTakes, &[0, 1, 2], 3, &[5, 5, 20], None), [0, 0, 0]);
        // Partnership tie on unrounded sums.
        let side_of = [0, 1, 0, 1];
        assert_eq!(settle(WinnerTakes, &side_of, 2, &[3, 4, 5, 4], None), [0, 0]);
    }
}
