//! The learning format: a league that chooses, round by round, the pairs
//! whose games would teach the most about the order of its table, and stops
//! once that order is known. Pure: the next round is a function of the
//! league seed, the round's number, the field and the results of the rounds
//! before it, so a league replays its choices from its records.
//!
//! - A bot that has no result yet (every bot at the start, or one that
//!   entered a grown league) makes the round a *draw*: the field, in an
//!   order the seed fixes ([`seeds::draw_key`]), in a cycle, each bot
//!   meeting the next one: every bot plays two pairs, and the results
//!   connect the whole field.
//! - Otherwise the bots are ranked by their Elo ratings ([`Elo`], as the
//!   standings rank them) and the candidates are the pairs at most
//!   [`REACH`] places apart whose order is not known yet (likelihood of
//!   superiority under [`CONFIDENCE`]). Each is worth what its games would
//!   take off the variance of the difference of its two ratings: with
//!   variance `v` (in natural logistic units) and `k` games that each carry
//!   Fisher information `q(1 − q)` (`q` the predicted score), one round takes
//!   `v − 1/(1/v + k·q(1 − q))` off it. That worth is doubled at the top of
//!   the table and falls evenly to 1× at its foot, as a table is read from
//!   the top. The round is the most valuable pairs in which no bot plays
//!   twice, chosen greedily (ties to the higher places); when they are fewer
//!   than the ⌊N/2⌋ pairs a round of N bots holds (late in a league, when few
//!   pairs are uncertain), the candidates whose further games are worth most
//!   play again, on deals of their own, until it holds ⌊N/2⌋:
//!   the last rounds keep as many games in flight as the first ones, instead
//!   of one pair at a time.
//! - The league stops when every pair of bots adjacent in the table has its
//!   order known at [`CONFIDENCE`] ([`Next::Known`]), or when not even one
//!   more pair fits in its budget of games ([`Next::Spent`]); a round that
//!   would pass the budget keeps only the pairs that fit.

use crate::schedule::Seating;
use crate::schedule::seeds;
use crate::stats::ratings::elo::ELO_PER_UNIT;
use crate::stats::ratings::{Elo, Pairwise};

/// The likelihood of superiority at which the order of two bots counts as known.
pub const CONFIDENCE: f64 = 0.95;

/// How many places apart in the table two bots may be for a round to pair them.
pub const REACH: usize = 2;

/// What a learning league knows before a round.
#[derive(Debug, Clone)]
pub struct Field {
    /// The league seed.
    pub seed: u64,
    /// The round about to be chosen: 0 for the first.
    pub round: u64,
    /// The bots that may play (the league's field), in increasing order.
    pub active: Vec<usize>,
    /// The pairwise results of the rounds played (indexed like the league's bots).
    pub results: Pairwise,
    /// The games played so far.
    pub played: u64,
    /// The most games the league may play.
    pub budget: u64,
    /// The games each pair plays in a round (whole deals in every seat order).
    pub games_per_pair: u64,
}

/// The next round of a learning league, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// The pairs that play it, each in increasing bot order.
    Round(Vec<Vec<usize>>),
    /// Every adjacent pair's order is known at [`CONFIDENCE`].
    Known,
    /// No pair fits in what is left of the budget.
    Spent,
}

/// The games a pair plays in a round of a learning league of `games` a
/// pair: `games` rounded up to whole deals, each in both seat orders.
pub fn games_per_pair(games: u64) -> u64 {
    let per_deal = Seating::EveryOrder.games_per_deal(2);
    games.div_ceil(per_deal) * per_deal
}

/// The next round of a learning league (see the module's documentation).
pub fn next_round(field: &Field) -> Next {
    let fits = field.budget.saturating_sub(field.played) / field.games_per_pair.max(1);
    if field.active.len() < 2 {
        return Next::Known;
    }
    if fits == 0 {
        return Next::Spent;
    }
    let mut pairs = if field.active.iter().any(|&bot| !field.results.has_played(bot)) {
        draw(field.seed, field.round, &field.active)
    } else {
        let elo = Elo::fit(&field.results);
        let table = table(&elo, &field.active);
        if known_adjacent(&elo, &table) + 1 == table.len() {
            return Next::Known;
        }
        informative(&elo, &table, field.games_per_pair)
    };
    pairs.truncate(fits.min(usize::MAX as u64) as usize);
    Next::Round(pairs)
}

/// The draw of `round`: `active` in the order of their draw keys, each bot
/// paired with the next one, the last with the first (one pair for two bots).
fn draw(seed: u64, round: u64, active: &[usize]) -> Vec<Vec<usize>> {
    let mut order = active.to_vec();
    order.sort_by_key(|&bot| (seeds::draw_key(seed, round, bot), bot));
    let n = order.len();
    let links = if n == 2 { 1 } else { n };
    (0..links)
        .map(|i| {
            let (a, b) = (order[i], order[(i + 1) % n]);
            vec![a.min(b), a.max(b)]
        })
        .collect()
}

/// `active` in the order of the table: by Elo rating, best first (a bot
/// without a rating last), ties to the lower bot number.
pub fn table(elo: &Elo, active: &[usize]) -> Vec<usize> {
    let mut order = active.to_vec();
    let rating = |bot: usize| elo.rating(bot).unwrap_or(f64::NEG_INFINITY);
    order.sort_by(|&a, &b| rating(b).total_cmp(&rating(a)).then(a.cmp(&b)));
    order
}

/// How many pairs of bots adjacent in `table` have their order known: the
/// upper one stronger with a likelihood of superiority of [`CONFIDENCE`].
pub fn known_adjacent(elo: &Elo, table: &[usize]) -> usize {
    table.windows(2).filter(|pair| elo.los(pair[0], pair[1]).is_some_and(|los| los >= CONFIDENCE)).count()
}

/// Spearman's rank correlation of two orders of the same bots (best first):
/// 1 when they agree, −1 when one is the other reversed; 1 for fewer than
/// two bots. `None` unless `b` orders exactly the bots of `a`.
pub fn spearman(a: &[usize], b: &[usize]) -> Option<f64> {
    let n = a.len();
    let mut sorted = (a.to_vec(), b.to_vec());
    sorted.0.sort_unstable();
    sorted.1.sort_unstable();
    if sorted.0 != sorted.1 {
        return None;
    }
    if n < 2 {
        return Some(1.0);
    }
    let place_in_b = |bot: usize| b.iter().position(|&x| x == bot).expect("the same bots");
    let squares: f64 = a.iter().enumerate().map(|(i, &bot)| (i as f64 - place_in_b(bot) as f64).powi(2)).sum();
    let n = n as f64;
    Some(1.0 - 6.0 * squares / (n * (n * n - 1.0)))
}

/// The most valuable pairs of the table whose order is not known, no bot
/// twice; then, while the round holds fewer pairs than [`room`] allows, the
/// candidate pair whose next `games` are worth most plays again.
fn informative(elo: &Elo, table: &[usize], games: u64) -> Vec<Vec<usize>> {
    let n = table.len();
    // (the worth of one more round of games, upper place, lower place, rounds of games chosen)
    let mut candidates: Vec<(f64, usize, usize, u64)> = Vec::new();
    for upper in 0..n {
        for lower in upper + 1..(upper + 1 + REACH).min(n) {
            let (a, b) = (table[upper], table[lower]);
            let (Some(los), Some(worth)) = (elo.los(a, b), worth(elo, a, b, games)) else { continue };
            if los.max(1.0 - los) < CONFIDENCE {
                candidates.push((worth * top(upper, n), upper, lower, 0));
            }
        }
    }
    candidates.sort_by(|x, y| y.0.total_cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    let mut busy = vec![false; n];
    let mut pairs = Vec::new();
    let pair = |upper: usize, lower: usize| {
        let (a, b) = (table[upper], table[lower]);
        vec![a.min(b), a.max(b)]
    };
    for (_, upper, lower, chosen) in &mut candidates {
        if !busy[*upper] && !busy[*lower] {
            busy[*upper] = true;
            busy[*lower] = true;
            *chosen = 1;
            pairs.push(pair(*upper, *lower));
        }
    }
    while pairs.len() < room(n) {
        let more = |&(_, upper, lower, chosen): &(f64, usize, usize, u64)| {
            let (a, b) = (table[upper], table[lower]);
            let gain =
                worth(elo, a, b, games * (chosen + 1)).unwrap_or(0.0) - worth(elo, a, b, games * chosen).unwrap_or(0.0);
            gain * top(upper, n)
        };
        // The greatest gain, ties to the higher places.
        let Some(best) = (0..candidates.len()).max_by(|&x, &y| {
            let (cx, cy) = (&candidates[x], &candidates[y]);
            more(cx).total_cmp(&more(cy)).then((cy.1, cy.2).cmp(&(cx.1, cx.2)))
        }) else {
            break;
        };
        let (_, upper, lower, chosen) = &mut candidates[best];
        *chosen += 1;
        pairs.push(pair(*upper, *lower));
    }
    pairs
}

/// The pairs a round of `n` bots holds: as many as fit with no bot twice.
fn room(n: usize) -> usize {
    n / 2
}

/// How much more a pair at place `upper` (0 the top) of a table of `n`
/// bots is worth: 2× at the top, falling evenly to 1× at the foot.
fn top(upper: usize, n: usize) -> f64 {
    2.0 - upper as f64 / (n - 1).max(1) as f64
}

/// What `games` more games between `a` and `b` take off the variance of the
/// difference of their ratings, in natural logistic units squared.
fn worth(elo: &Elo, a: usize, b: usize, games: u64) -> Option<f64> {
    let variance = (elo.covariance(a, a)? + elo.covariance(b, b)? - 2.0 * elo.covariance(a, b)?) / ELO_PER_UNIT.powi(2);
    let difference = (elo.rating(a)? - elo.rating(b)?) / ELO_PER_UNIT;
    let score = 1.0 / (1.0 + (-difference).exp());
    let information = games as f64 * score * (1.0 - score);
    Some(variance.max(0.0) - 1.0 / (1.0 / variance.max(1e-12) + information))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field of `n` bots whose results are `results`.
    fn field(active: &[usize], results: &Pairwise, played: u64, budget: u64) -> Field {
        Field {
            seed: 7,
            round: 1,
            active: active.to_vec(),
            results: results.clone(),
            played,
            budget,
            games_per_pair: 2,
        }
    }

    /// Results in which bot `i` beats bot `j > i` `wins` times of `games`, for every pair.
    fn ladder(n: usize, wins: u64, games: u64) -> Pairwise {
        let mut results = Pairwise::new(n);
        for i in 0..n {
            for j in i + 1..n {
                results.add_results(i, j, wins, 0, games - wins);
            }
        }
        results
    }

    #[test]
    fn the_first_round_is_a_cycle_the_seed_fixes() {
        let active: Vec<usize> = (0..6).collect();
        let results = Pairwise::new(6);
        let Next::Round(pairs) = next_round(&Field { round: 0, ..field(&active, &results, 0, 1000) }) else {
            panic!("a round")
        };
        assert_eq!(pairs.len(), 6, "a cycle through the six");
        let mut meets = [0; 6];
        for pair in &pairs {
            assert!(pair[0] < pair[1]);
            meets[pair[0]] += 1;
            meets[pair[1]] += 1;
        }
        assert_eq!(meets, [2; 6], "every bot twice");
        let again = next_round(&Field { round: 0, ..field(&active, &results, 0, 1000) });
        assert_eq!(again, Next::Round(pairs.clone()), "the same seed, the same draw");
        let other = next_round(&Field { seed: 8, round: 0, ..field(&active, &results, 0, 1000) });
        assert_ne!(other, Next::Round(pairs), "another seed, another draw");
        let two = next_round(&Field { round: 0, ..field(&[3, 5], &results, 0, 1000) });
        assert_eq!(two, Next::Round(vec![vec![3, 5]]));
    }

    #[test]
    fn a_round_pairs_neighbours_whose_order_is_unknown() {
        // Bot 0 far ahead; bots 1, 2 and 3 close together, 4 and 5 close at the foot.
        let mut results = Pairwise::new(6);
        for j in 1..6 {
            results.add_results(0, j, 40, 0, 0);
        }
        for (i, j) in [(1, 2), (2, 3), (1, 3), (4, 5)] {
            results.add_results(i, j, 6, 0, 4);
        }
        for i in 1..4 {
            for j in 4..6 {
                results.add_results(i, j, 40, 0, 0);
            }
        }
        let active: Vec<usize> = (0..6).collect();
        let Next::Round(pairs) = next_round(&field(&active, &results, 0, 1000)) else { panic!("a round") };
        assert!(pairs.contains(&vec![4, 5]), "{pairs:?}");
        assert!(pairs.iter().any(|p| p[0] >= 1 && p[1] <= 3), "a pair among 1, 2, 3: {pairs:?}");
        assert!(!pairs.iter().any(|p| p.contains(&0)), "bot 0's place is known: {pairs:?}");
        // The first pairs have no bot twice; two uncertain pairs fit so, and a third fills the round's room.
        let bots: Vec<usize> = pairs[..2].iter().flatten().copied().collect();
        assert!((0..6).all(|b| bots.iter().filter(|&&x| x == b).count() <= 1), "no bot twice: {pairs:?}");
        assert_eq!(pairs.len(), 3, "six bots, three pairs a round: {pairs:?}");
    }

    #[test]
    fn a_round_with_few_uncertain_pairs_plays_them_again_to_fill_its_room() {
        // Six bots of known order but for one close pair, (2, 3).
        let mut results = ladder(6, 30, 30);
        results.add_results(2, 3, 5, 0, 5);
        results.add_results(2, 3, 0, 0, 30);
        let active: Vec<usize> = (0..6).collect();
        let Next::Round(pairs) = next_round(&field(&active, &results, 0, 1000)) else { panic!("a round") };
        assert_eq!(pairs, vec![vec![2, 3]; 3], "the one uncertain pair, three times (a round of six bots holds three)");
        // The budget still holds: two pairs' games are left.
        let Next::Round(pairs) = next_round(&field(&active, &results, 996, 1000)) else { panic!("a round") };
        assert_eq!(pairs.len(), 2, "{pairs:?}");
        // Worth shrinks as a pair's games grow, so another uncertain pair comes before a third round of the first.
        let elo = Elo::fit(&ladder(4, 5, 10));
        let (once, twice) = (worth(&elo, 0, 1, 2).unwrap(), worth(&elo, 0, 1, 4).unwrap());
        assert!(twice - once < once, "{once} {twice}");
    }

    #[test]
    fn the_top_of_the_table_comes_first() {
        // Two equally uncertain pairs, (0, 1) at the top and (2, 3) at the foot;
        // the budget allows one pair.
        let mut results = Pairwise::new(4);
        results.add_results(0, 1, 5, 0, 5);
        results.add_results(2, 3, 5, 0, 5);
        results.add_results(1, 2, 60, 0, 0);
        let active = [0, 1, 2, 3];
        assert_eq!(next_round(&field(&active, &results, 0, 3)), Next::Round(vec![vec![0, 1]]));
    }

    #[test]
    fn it_stops_when_the_order_is_known_or_the_budget_spent() {
        let active: Vec<usize> = (0..5).collect();
        assert_eq!(next_round(&field(&active, &ladder(5, 30, 30), 300, 1000)), Next::Known);
        let close = ladder(5, 6, 10);
        assert!(matches!(next_round(&field(&active, &close, 100, 1000)), Next::Round(_)));
        assert_eq!(next_round(&field(&active, &close, 999, 1000)), Next::Spent, "less than a pair's games left");
        let Next::Round(pairs) = next_round(&field(&active, &close, 996, 1000)) else { panic!("a round") };
        assert_eq!(pairs.len(), 2, "two pairs fit");
        // The known order is the stated test: every adjacent pair at 95%.
        let elo = Elo::fit(&ladder(5, 30, 30));
        assert!((0..4).all(|i| elo.los(i, i + 1).unwrap() >= CONFIDENCE));
        assert!((0..4).any(|i| Elo::fit(&close).los(i, i + 1).unwrap() < CONFIDENCE));
    }

    #[test]
    fn spearman_compares_two_orders() {
        assert_eq!(spearman(&[0, 1, 2, 3], &[0, 1, 2, 3]), Some(1.0));
        assert_eq!(spearman(&[0, 1, 2, 3], &[3, 2, 1, 0]), Some(-1.0));
        // One swap of neighbours among 4: 1 − 6·2 / (4·15) = 0.8.
        assert!((spearman(&[0, 1, 2, 3], &[1, 0, 2, 3]).unwrap() - 0.8).abs() < 1e-12);
        assert_eq!(spearman(&[5], &[5]), Some(1.0));
        assert_eq!(spearman(&[0, 1], &[0, 2]), None);
        let elo = Elo::fit(&ladder(4, 30, 30));
        assert_eq!(table(&elo, &[3, 1, 2, 0]), [0, 1, 2, 3]);
        assert_eq!(known_adjacent(&elo, &[0, 1, 2, 3]), 3);
        assert_eq!(known_adjacent(&Elo::fit(&ladder(4, 5, 10)), &[0, 1, 2, 3]), 0);
    }

    #[test]
    fn a_bot_without_results_makes_the_round_a_draw() {
        let mut results = ladder(4, 30, 30);
        let mut grown = Pairwise::new(5);
        for i in 0..4 {
            for j in i + 1..4 {
                grown.add_results(i, j, results.games(i, j), 0, 0);
            }
        }
        results = grown;
        let active = [0, 1, 2, 3, 4];
        let Next::Round(pairs) = next_round(&field(&active, &results, 0, 1000)) else { panic!("a round") };
        assert_eq!(pairs.iter().filter(|p| p.contains(&4)).count(), 2, "the newcomer plays twice: {pairs:?}");
    }
}
