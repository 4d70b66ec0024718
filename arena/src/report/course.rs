//! The course of an SPRT: the LLR and the test's estimate after each deal
//! counted, from the same [`DealSequence`] `arena sprt` runs, fed the games
//! in schedule order. Pure.

use crate::stats::sprt::{DealSequence, SprtError, Test};
use crate::store::record::GameSummary;
use serde::Serialize;
use std::borrow::Borrow;

/// The test after some deals.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Step {
    /// The games counted.
    pub games: u64,
    /// The LLR.
    pub llr: f64,
    /// The test's estimate and half its 95% interval (the Elo difference, or
    /// the mean payoff per game), once there is one.
    pub estimate: Option<[f64; 2]>,
}

/// The test of `names[0]` against `names[1..]` over `games` (in id order),
/// and its course: a step after every `every` deals counted (every deal
/// while there are at most `points` of them) and after the last one.
pub fn course<G: Borrow<GameSummary>>(
    test: Test,
    games_per_deal: usize,
    results_per_game: usize,
    names: &[String],
    games: impl ExactSizeIterator<Item = G>,
    points: usize,
) -> Result<(DealSequence, Vec<Step>, u64), SprtError> {
    let mut sequence = DealSequence::new(test, games_per_deal, results_per_game)?;
    let deals = (games.len() / games_per_deal.max(1)) as u64;
    let every = deals.div_ceil(points.max(1) as u64).max(1);
    let step = |sequence: &DealSequence| Step {
        games: sequence.games(),
        llr: sequence.llr(),
        estimate: sequence.evidence().estimate(&test),
    };
    let mut steps = Vec::new();
    let mut counted = 0;
    for game in games {
        let game = game.borrow();
        sequence.add_game(game, game.origin.deal, game.origin.arrangement, &names[0], &names[1..]);
        let now = sequence.games() / games_per_deal as u64;
        if now > counted {
            counted = now;
            if counted % every == 0 || sequence.verdict().is_some() {
                steps.push(step(&sequence));
            }
        }
    }
    if steps.last().is_none_or(|last| last.games != sequence.games()) {
        steps.push(step(&sequence));
    }
    Ok((sequence, steps, every))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::sprt::{Model, Sprt};
    use crate::stats::standings::fixtures::{game, names};

    /// Deal `deal`'s two games: new wins the first and `second` says whether it wins the second.
    fn deal(deal: u64, second: bool) -> Vec<GameSummary> {
        let mut first = game(&["new", "base"], &[250, 10], &[0, 1]);
        let mut other = game(&["base", "new"], &[250, 10], if second { &[1, 0] } else { &[0, 1] });
        for (arrangement, g) in [&mut first, &mut other].into_iter().enumerate() {
            g.id = deal * 2 + arrangement as u64;
            g.origin.deal = deal;
            g.origin.arrangement = arrangement;
        }
        vec![first, other]
    }

    #[test]
    fn a_step_per_deal_ending_where_the_sequence_ends() {
        let sprt = Test::Pentanomial(Sprt::new(0.0, 40.0, 0.05, 0.05, Model::Normalized).unwrap());
        let games: Vec<GameSummary> = (0..6).flat_map(|d| deal(d, d % 3 != 0)).collect();
        let names = names(&["new", "base"]);
        let (sequence, steps, every) = course(sprt, 2, 1, &names, games.iter(), 100).unwrap();
        assert_eq!(every, 1);
        assert_eq!(steps.iter().map(|s| s.games).collect::<Vec<_>>(), [2, 4, 6, 8, 10, 12]);
        let last = steps.last().unwrap();
        assert_eq!((last.llr, last.games), (sequence.llr(), 12));
        assert_eq!(last.estimate, sequence.evidence().estimate(&sprt));
        assert_eq!(steps[0].estimate, None, "one pair: no spread yet");
        // Fewer points: every other deal, and the last.
        let (_, steps, every) = course(sprt, 2, 1, &names, games[..10].iter(), 2).unwrap();
        assert_eq!((every, steps.iter().map(|s| s.games).collect::<Vec<_>>()), (3, vec![6, 10]));
    }
}
