//! The Swiss format: a fixed number of rounds, each pairing bots of like
//! score that have not met yet, as chess tournaments pair players. Pure: a
//! round is a function of the league seed, the round's number, the field
//! and the results of the rounds before it, as a learning league's is (see
//! [`crate::league::learning`]), so a Swiss league replays its rounds from its
//! records and resumes as one does.
//!
//! - **Score.** A bot's score is its share of the points of its games so
//!   far (a win 1, a draw ½), 0.5 before its first game; the bots are
//!   ordered by score, best first, ties in an order the seed draws anew each
//!   round ([`seeds::draw_key`]): the first round is a random draw.
//! - **Bye.** With an odd number of bots, one sits the round out: the
//!   lowest in that order of those with the most games (so no bot sits out
//!   twice before every other has sat out once, in a field that did not
//!   change).
//! - **Pairs.** From the top of the order down, each bot not yet paired meets
//!   the first one below it that it has not met yet and that leaves the bots
//!   below a pairing without a rematch (a search that backtracks). When
//!   there is none (a Swiss league longer than the field allows), each bot
//!   meets the next one below it that it has not met, or else the next one.
//! - Each pair plays its round's games as a learning league's pairs do:
//!   whole deals in both seat orders, on deals of its own.

use super::learning::Field;
use crate::schedule::seeds;

/// How many tries the search for a round without a rematch may make before
/// the round settles for [`top_down`] pairs.
const SEARCH_STEPS: u32 = 100_000;

/// The pairs of `order` (best first) in which no two bots that `met` meet,
/// the first bot left always meeting the first one below it that keeps a
/// way open for the others (so, of all such pairings, the one that pairs
/// from the top down); `None` when there is none, or `steps` run out.
fn without_rematch(order: &[usize], met: &impl Fn(usize, usize) -> bool, steps: &mut u32) -> Option<Vec<Vec<usize>>> {
    let Some((&top, rest)) = order.split_first() else { return Some(Vec::new()) };
    for (at, &other) in rest.iter().enumerate() {
        if *steps == 0 {
            return None;
        }
        *steps -= 1;
        if met(top, other) {
            continue;
        }
        let left: Vec<usize> = rest.iter().enumerate().filter(|&(i, _)| i != at).map(|(_, &bot)| bot).collect();
        if let Some(mut pairs) = without_rematch(&left, met, steps) {
            pairs.insert(0, vec![top, other]);
            return Some(pairs);
        }
    }
    None
}

/// The pairs of `order` (best first), each bot left meeting the next one
/// below it that it has not met, or else the next one.
fn top_down(mut left: Vec<usize>, met: &impl Fn(usize, usize) -> bool) -> Vec<Vec<usize>> {
    let mut pairs = Vec::new();
    while left.len() >= 2 {
        let top = left.remove(0);
        let opponent = left.iter().position(|&other| !met(top, other)).unwrap_or(0);
        pairs.push(vec![top, left.remove(opponent)]);
    }
    pairs
}

/// The Swiss rounds by default for a field of `bots`: `⌈log₂ bots⌉`, the
/// rounds that can leave one bot alone at the top, at least one.
pub fn default_rounds(bots: usize) -> u64 {
    u64::from(bots.max(2).next_power_of_two().trailing_zeros()).max(1)
}

/// The pairs of the next round of a Swiss league of `rounds` rounds (each in
/// increasing bot order, best-placed pair first), or `None` when its rounds
/// are played, fewer than two bots are left, or not one more pair fits in the
/// budget of `field`. A round that would pass the budget keeps the pairs that fit.
pub fn next_round(field: &Field, rounds: u64) -> Option<Vec<Vec<usize>>> {
    let fits = field.budget.saturating_sub(field.played) / field.games_per_pair.max(1);
    if field.round >= rounds || field.active.len() < 2 || fits == 0 {
        return None;
    }
    let results = &field.results;
    let games = |bot: usize| field.active.iter().map(|&other| results.games(bot, other)).sum::<u64>();
    let score = |bot: usize| {
        let points: f64 = field.active.iter().map(|&other| results.score(bot, other)).sum();
        match games(bot) {
            0 => 0.5,
            n => points / n as f64,
        }
    };
    let mut order = field.active.clone();
    order.sort_by(|&a, &b| {
        score(b)
            .total_cmp(&score(a))
            .then_with(|| seeds::draw_key(field.seed, field.round, a).cmp(&seeds::draw_key(field.seed, field.round, b)))
    });
    if order.len() % 2 == 1 {
        let most = order.iter().map(|&bot| games(bot)).max().unwrap_or(0);
        let bye = order.iter().rposition(|&bot| games(bot) == most).expect("a bot with the most games");
        order.remove(bye);
    }
    let met = |a: usize, b: usize| results.games(a, b) > 0;
    let mut steps = SEARCH_STEPS;
    let mut pairs = match without_rematch(&order, &met, &mut steps) {
        Some(pairs) => pairs,
        None => top_down(order, &met),
    };
    for pair in &mut pairs {
        pair.sort_unstable();
    }
    pairs.truncate(fits.min(usize::MAX as u64) as usize);
    Some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::ratings::Pairwise;

    fn field(active: &[usize], results: &Pairwise, round: u64) -> Field {
        Field {
            seed: 11,
            round,
            active: active.to_vec(),
            results: results.clone(),
            played: 0,
            budget: 1000,
            games_per_pair: 2,
        }
    }

    /// Every bot of `pairs` once at most.
    fn each_once(pairs: &[Vec<usize>]) -> bool {
        let mut bots: Vec<usize> = pairs.iter().flatten().copied().collect();
        let all = bots.len();
        bots.sort_unstable();
        bots.dedup();
        bots.len() == all
    }

    #[test]
    fn the_default_rounds_are_the_log_of_the_field() {
        assert_eq!([2, 3, 4, 5, 8, 9, 34, 200].map(default_rounds), [1, 2, 2, 3, 3, 4, 6, 8]);
    }

    #[test]
    fn the_first_round_is_a_draw_the_seed_fixes() {
        let active: Vec<usize> = (0..8).collect();
        let empty = Pairwise::new(8);
        let first = next_round(&field(&active, &empty, 0), 3).expect("a round");
        assert_eq!(first.len(), 4);
        assert!(each_once(&first), "{first:?}");
        assert_eq!(next_round(&field(&active, &empty, 0), 3), Some(first.clone()), "the same seed, the same draw");
        let other = next_round(&Field { seed: 12, ..field(&active, &empty, 0) }, 3);
        assert_ne!(other, Some(first), "another seed, another draw");
    }

    #[test]
    fn winners_meet_winners_and_no_pair_meets_twice() {
        // Round 1: 0–1, 2–3, 4–5, 6–7; the lower number won 2–0.
        let mut results = Pairwise::new(8);
        for pair in [(0, 1), (2, 3), (4, 5), (6, 7)] {
            results.add_results(pair.0, pair.1, 2, 0, 0);
        }
        let active: Vec<usize> = (0..8).collect();
        let pairs = next_round(&field(&active, &results, 1), 3).expect("a round");
        assert!(each_once(&pairs), "{pairs:?}");
        let winners = [0, 2, 4, 6];
        for pair in &pairs {
            assert_eq!(winners.contains(&pair[0]), winners.contains(&pair[1]), "like scores meet: {pairs:?}");
            assert_eq!(results.games(pair[0], pair[1]), 0, "no rematch: {pairs:?}");
        }
    }

    #[test]
    fn an_odd_field_gives_the_bye_to_the_lowest_bot_that_has_not_had_one() {
        let active: Vec<usize> = (0..5).collect();
        let mut results = Pairwise::new(5);
        // Bot 4 sat out the first round; 3 lost, and is the lowest of those who played.
        results.add_results(0, 1, 1, 1, 0);
        results.add_results(2, 3, 2, 0, 0);
        let pairs = next_round(&field(&active, &results, 1), 3).expect("a round");
        assert_eq!(pairs.len(), 2);
        assert!(pairs.iter().all(|pair| !pair.contains(&3)), "3 sits out: {pairs:?}");
        assert!(pairs.iter().any(|pair| pair.contains(&4)), "4 plays: {pairs:?}");
    }

    #[test]
    fn it_stops_after_its_rounds_or_at_its_budget() {
        let active: Vec<usize> = (0..4).collect();
        let results = Pairwise::new(4);
        assert_eq!(next_round(&field(&active, &results, 3), 3), None, "three rounds played");
        assert_eq!(next_round(&field(&[2], &results, 0), 3), None, "one bot");
        let tight = Field { played: 999, ..field(&active, &results, 0) };
        assert_eq!(next_round(&tight, 3), None, "not one pair's games left");
        let one = Field { played: 997, ..field(&active, &results, 0) };
        assert_eq!(next_round(&one, 3).map(|pairs| pairs.len()), Some(1), "one pair of two fits");
    }

    #[test]
    fn the_top_gives_way_so_that_no_pair_below_meets_again() {
        // Top down, 0 would meet 3 and leave 1 and 4, who met: 0 meets 1 instead.
        let mut results = Pairwise::new(5);
        for (a, b) in [(1, 4), (2, 3), (1, 3), (0, 2), (0, 4)] {
            results.add_results(a, b, 1, 0, 1);
        }
        let met = |a: usize, b: usize| results.games(a, b) > 0;
        assert_eq!(top_down(vec![0, 3, 1, 4], &met), [vec![0, 3], vec![1, 4]], "the greedy way rematches");
        let mut steps = SEARCH_STEPS;
        assert_eq!(without_rematch(&[0, 3, 1, 4], &met, &mut steps), Some(vec![vec![0, 1], vec![3, 4]]));
    }

    #[test]
    fn a_bot_that_met_everyone_left_meets_again() {
        // Three rounds of four bots: every pair has met, so a fourth round rematches.
        let mut results = Pairwise::new(4);
        for (a, b) in [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)] {
            results.add_results(a, b, 1, 0, 1);
        }
        let pairs = next_round(&field(&[0, 1, 2, 3], &results, 3), 4).expect("a round");
        assert_eq!(pairs.len(), 2);
        assert!(each_once(&pairs), "{pairs:?}");
    }
}
