//! Places at the end of a game that a fault cut short. Pure.

/// Ranks when the sides holding `faulted` seats forfeit: the other sides are
/// ranked by score (equal scores share a place, the next place is skipped),
/// and every forfeiting side shares the last place after them.
pub fn forfeit_ranks(teams: &[Vec<usize>], scores: &[i64], faulted: &[usize]) -> Vec<u32> {
    let side_faulted: Vec<bool> = teams.iter().map(|seats| seats.iter().any(|s| faulted.contains(s))).collect();
    let side_score = |side: usize| teams[side].first().map_or(0, |&seat| scores[seat]);
    let standing: Vec<usize> = (0..teams.len()).filter(|&side| !side_faulted[side]).collect();
    let seat_count = teams.iter().map(Vec::len).sum();
    let mut ranks = vec![0; seat_count];
    for (side, seats) in teams.iter().enumerate() {
        let rank = if side_faulted[side] {
            standing.len()
        } else {
            standing.iter().filter(|&&other| side_score(other) > side_score(side)).count()
        };
        for &seat in seats {
            ranks[seat] = rank as u32;
        }
    }
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_faulting_side_loses_a_two_sided_game() {
        let teams = vec![vec![0], vec![1]];
        assert_eq!(forfeit_ranks(&teams, &[100, 5], &[0]), vec![1, 0]);
        assert_eq!(forfeit_ranks(&teams, &[0, 0], &[0, 1]), vec![0, 0]);
    }

    #[test]
    fn partners_forfeit_together() {
        let teams = vec![vec![0, 2], vec![1, 3]];
        assert_eq!(forfeit_ranks(&teams, &[50, 10, 50, 10], &[2]), vec![1, 0, 1, 0]);
    }

    #[test]
    fn free_for_all_places_the_faulting_seat_last() {
        let teams = vec![vec![0], vec![1], vec![2], vec![3]];
        assert_eq!(forfeit_ranks(&teams, &[30, 90, 30, 0], &[1]), vec![0, 3, 0, 2]);
        assert_eq!(forfeit_ranks(&teams, &[30, 90, 30, 0], &[1, 3]), vec![0, 2, 0, 2]);
    }
}
