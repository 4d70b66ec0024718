//! From finished games to the test's evidence (pentanomial pairs, or the
//! payoffs of [`super::payoff`]), deal by deal in schedule order, so that
//! the test sees the same sequence whatever order games finish in. Pure.
//!
//! The tested bot ("new") plays every deal in every seat arrangement against
//! the base bot, or against copies of it that each count as an opponent.
//! Every game gives new one result against each opponent: a win (2
//! half-points) when new's best place is better than the opponent's, a draw
//! (1) when equal, a loss (0) otherwise. A deal's results, game by game in
//! arrangement order and within a game opponent by opponent, are taken two at
//! a time; each two form a *pair*, scored 0 to 4 half-points. Two sides give
//! one result per game, so a deal's two arrangements make one pair (the pair
//! of fishtest and fastchess: the same deal with the seats swapped). Three
//! sides give two results per game, which form a pair within that game.

use super::SprtError;
use super::kind::{Evidence, Test};
use super::test::Hypothesis;
use records::record::GameSummary;
use records::sprt::Conclusion;
use std::collections::BTreeMap;

/// The test fed deal by deal: games arrive in any order, and each deal is
/// counted once all its games are in, in deal order, until a verdict.
#[derive(Debug, Clone)]
pub struct DealSequence {
    test: Test,
    games_per_deal: usize,
    /// Results of games of deals not counted yet: deal → arrangement → results ([`Test::results`]).
    waiting: BTreeMap<u64, BTreeMap<usize, Vec<f64>>>,
    next_deal: u64,
    evidence: Evidence,
    llr: f64,
    verdict: Option<Hypothesis>,
}

impl DealSequence {
    /// A test over deals of `games_per_deal` games, each giving `results_per_game`
    /// results of new (one per opponent). The pentanomial test refuses shapes
    /// whose results do not pair up within a game or (with one result per
    /// game) within a deal.
    pub fn new(test: Test, games_per_deal: usize, results_per_game: usize) -> Result<DealSequence, SprtError> {
        let pairs = match results_per_game {
            1 => games_per_deal.is_multiple_of(2),
            2 => true,
            _ => false,
        };
        if !pairs && matches!(test, Test::Pentanomial(_)) {
            return Err(SprtError::Unpaired { results_per_game });
        }
        Ok(DealSequence {
            test,
            games_per_deal,
            waiting: BTreeMap::new(),
            next_deal: 0,
            evidence: test.no_evidence(),
            llr: 0.0,
            verdict: None,
        })
    }

    /// Adds the results of arrangement `arrangement` of deal `deal`, then counts
    /// every deal now complete in order, stopping at a verdict. Later games change nothing.
    pub fn add(&mut self, deal: u64, arrangement: usize, results: Vec<f64>) {
        if self.verdict.is_some() || deal < self.next_deal {
            return;
        }
        self.waiting.entry(deal).or_default().insert(arrangement, results);
        while self.verdict.is_none() {
            let complete = self.waiting.get(&self.next_deal).is_some_and(|games| games.len() == self.games_per_deal);
            if !complete {
                break;
            }
            let games = self.waiting.remove(&self.next_deal).expect("complete");
            let results: Vec<f64> = games.into_values().flatten().collect();
            self.evidence.add_deal(&results);
            self.next_deal += 1;
            self.llr = self.test.llr(&self.evidence);
            self.verdict = self.test.errors().verdict(self.llr);
        }
        if self.verdict.is_some() {
            self.waiting.clear();
        }
    }

    /// Adds `game`, arrangement `arrangement` of deal `deal`, as the test reads it
    /// for `new` against `opponents` ([`Test::results`]).
    pub fn add_game(&mut self, game: &GameSummary, deal: u64, arrangement: usize, new: &str, opponents: &[String]) {
        let results = self.test.results(game, new, opponents);
        self.add(deal, arrangement, results);
    }

    /// The test.
    pub fn test(&self) -> &Test {
        &self.test
    }

    /// What the test has counted.
    pub fn evidence(&self) -> &Evidence {
        &self.evidence
    }

    /// The LLR of the deals counted.
    pub fn llr(&self) -> f64 {
        self.llr
    }

    /// The accepted hypothesis, once there is one.
    pub fn verdict(&self) -> Option<Hypothesis> {
        self.verdict
    }

    /// The games counted: those of the deals counted.
    pub fn games(&self) -> u64 {
        self.next_deal * self.games_per_deal as u64
    }

    /// How the test ended, after a run that was (or was not) interrupted.
    pub fn conclusion(&self, interrupted: bool) -> Conclusion {
        match self.verdict {
            Some(Hypothesis::H1) => Conclusion::H1,
            Some(Hypothesis::H0) => Conclusion::H0,
            None if interrupted => Conclusion::Interrupted,
            None => Conclusion::Inconclusive,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::pentanomial::{Model, Pentanomial};
    use crate::sprt::test::Sprt;

    fn sequence(games_per_deal: usize, per_game: usize) -> DealSequence {
        DealSequence::new(
            Test::Pentanomial(Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap()),
            games_per_deal,
            per_game,
        )
        .unwrap()
    }

    impl DealSequence {
        fn pairs(&self) -> &Pentanomial {
            self.evidence().pentanomial().expect("a pentanomial test")
        }
    }

    #[test]
    fn two_sides_pair_the_two_arrangements_of_a_deal() {
        let mut seq = sequence(2, 1);
        seq.add(1, 0, vec![2.0]);
        seq.add(0, 1, vec![1.0]);
        assert_eq!((seq.games(), seq.pairs().pairs()), (0, 0), "no deal is complete");
        seq.add(1, 1, vec![0.0]);
        assert_eq!(seq.games(), 0, "deal 1 waits for deal 0");
        seq.add(0, 0, vec![2.0]);
        assert_eq!(seq.pairs().counts, [0, 0, 1, 1, 0], "deal 0: win + draw = 3; deal 1: win + loss = 2");
        assert_eq!(seq.games(), 4);
    }

    #[test]
    fn three_sides_pair_the_two_results_of_each_game() {
        let mut seq = sequence(3, 2);
        for (arrangement, results) in [(2, vec![2.0, 2.0]), (0, vec![0.0, 1.0]), (1, vec![2.0, 0.0])] {
            seq.add(0, arrangement, results);
        }
        assert_eq!(seq.pairs().counts, [0, 1, 1, 0, 1]);
        assert_eq!(seq.games(), 3);
    }

    #[test]
    fn the_order_of_arrival_does_not_matter_and_the_verdict_is_final() {
        // New wins three games in four and loses the others, on a fixed pattern.
        let result = |deal: u64, arrangement: usize| if (deal * 2 + arrangement as u64) % 4 == 3 { 0.0 } else { 2.0 };
        let deals = 400;
        let mut in_order = sequence(2, 1);
        let mut reversed = sequence(2, 1);
        for deal in 0..deals {
            for arrangement in 0..2 {
                in_order.add(deal, arrangement, vec![result(deal, arrangement)]);
                let late = deals - 1 - deal;
                reversed.add(late, 1 - arrangement, vec![result(late, 1 - arrangement)]);
            }
        }
        assert_eq!(in_order.verdict(), Some(Hypothesis::H1));
        assert_eq!(in_order.games(), reversed.games());
        assert_eq!(in_order.pairs(), reversed.pairs());
        assert_eq!(in_order.llr(), reversed.llr());
        let before = in_order.pairs().pairs();
        assert!(before < deals, "stopped at the verdict, after {before} pairs");
        in_order.add(100, 0, vec![0.0]);
        assert_eq!(in_order.pairs().pairs(), before);
    }

    #[test]
    fn four_individuals_do_not_pair() {
        let sprt = Test::Pentanomial(Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap());
        let err = DealSequence::new(sprt, 4, 3).unwrap_err().to_string();
        assert!(err.contains("do not pair up"), "{err}");
    }
}
