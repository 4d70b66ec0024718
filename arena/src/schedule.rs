//! Which bots sit where in each game of a match. Pure.
//!
//! A match plays *duplicate deals*: every deal is played once in each seat
//! rotation, so every bot holds every seat's tiles once. With `k` sides (the
//! seats that score together: one seat each in a free-for-all, two partners in
//! a partnership game), rotation `r` gives side `t` to bot `(t + r) mod k`.

use crate::seeds;

/// One game of a schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's id: its position in the schedule, from 0.
    pub id: u64,
    /// The deal number; all rotations of a deal share its seed.
    pub deal: u64,
    /// The seat rotation, from 0.
    pub rotation: usize,
    /// The seed the game is set up from.
    pub seed: u64,
    /// For each seat, the index of the bot that plays it.
    pub seats: Vec<usize>,
}

/// The games of a match between `teams.len()` bots, at least `games` of them,
/// rounded up to whole rotations. Bot `b` starts on side `b`.
pub fn duplicate_match(match_seed: u64, teams: &[Vec<usize>], games: u64) -> Vec<GameSpec> {
    let sides = teams.len().max(1);
    let seat_count = teams.iter().map(Vec::len).sum();
    let deals = games.div_ceil(sides as u64);
    let mut specs = Vec::with_capacity((deals * sides as u64) as usize);
    for deal in 0..deals {
        for rotation in 0..sides {
            let mut seats = vec![0; seat_count];
            for (side, members) in teams.iter().enumerate() {
                for &seat in members {
                    seats[seat] = (side + rotation) % sides;
                }
            }
            specs.push(GameSpec {
                id: specs.len() as u64,
                deal,
                rotation,
                seed: seeds::deal_seed(match_seed, deal),
                seats,
            });
        }
    }
    specs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free_for_all(players: usize) -> Vec<Vec<usize>> {
        (0..players).map(|seat| vec![seat]).collect()
    }

    #[test]
    fn games_round_up_to_whole_rotations() {
        assert_eq!(duplicate_match(1, &free_for_all(2), 5).len(), 6);
        assert_eq!(duplicate_match(1, &free_for_all(3), 7).len(), 9);
        assert_eq!(duplicate_match(1, &free_for_all(2), 0).len(), 0);
    }

    #[test]
    fn every_bot_holds_every_seat_of_each_deal_once() {
        for players in 2..=4 {
            let specs = duplicate_match(9, &free_for_all(players), 4 * players as u64);
            for deal in specs.chunks(players) {
                assert!(deal.iter().all(|g| g.seed == deal[0].seed && g.deal == deal[0].deal));
                for seat in 0..players {
                    let mut bots: Vec<usize> = deal.iter().map(|g| g.seats[seat]).collect();
                    bots.sort();
                    assert_eq!(bots, (0..players).collect::<Vec<_>>(), "seat {seat}");
                }
            }
        }
    }

    #[test]
    fn partners_sit_opposite_and_swap_sides() {
        let teams = vec![vec![0, 2], vec![1, 3]];
        let specs = duplicate_match(3, &teams, 2);
        assert_eq!(specs[0].seats, vec![0, 1, 0, 1]);
        assert_eq!(specs[1].seats, vec![1, 0, 1, 0]);
        assert_eq!(specs[0].seed, specs[1].seed);
        assert_eq!((specs[1].id, specs[1].deal, specs[1].rotation), (1, 0, 1));
    }
}
