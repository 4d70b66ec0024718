//! Which test `arena sprt` runs, and the evidence it gathers deal by deal:
//! the pentanomial test of pairwise results ([`Sprt`]) or, for a game whose
//! bots are ranked by their mean score (a payoff, as Leduc's chips), the
//! test of the new bot's mean payoff ([`PayoffSprt`]). Pure.

use super::payoff::{PayoffSprt, Payoffs};
use super::pentanomial::Pentanomial;
use super::test::{ErrorRates, Sprt};
use crate::ratings::pairwise::places;
use records::record::GameSummary;
use serde::{Deserialize, Serialize};

/// A test: its parameters say which (in `sprt-config.json`, `elo0` … or `payoff0` …).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Test {
    /// Pairs of games by their pairwise results, in Elo.
    Pentanomial(Sprt),
    /// Deals by the new bot's mean payoff, in the game's unit.
    Payoff(PayoffSprt),
}

/// What a test has counted.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// The pairs, by their score.
    Pairs(Pentanomial),
    /// The deals' payoffs.
    Payoffs(Payoffs),
}

impl Test {
    /// The test's name, as `sprt.json`'s `test` gives it.
    pub fn name(&self) -> &'static str {
        match self {
            Test::Pentanomial(_) => "pentanomial",
            Test::Payoff(_) => "payoff",
        }
    }

    /// H0 and H1: Elo differences, or mean payoffs per game.
    pub fn bounds(&self) -> (f64, f64) {
        match self {
            Test::Pentanomial(sprt) => (sprt.elo0, sprt.elo1),
            Test::Payoff(sprt) => (sprt.payoff0, sprt.payoff1),
        }
    }

    /// The unit of the bounds: `nElo` or `Elo`, or `unit/game` for the
    /// payoff test of a game whose scores count `unit` (`chips`).
    pub fn unit(&self, unit: &str) -> String {
        match self {
            Test::Pentanomial(sprt) => sprt.model.unit().to_string(),
            Test::Payoff(_) => format!("{unit}/game"),
        }
    }

    /// The error rates.
    pub fn errors(&self) -> ErrorRates {
        match self {
            Test::Pentanomial(sprt) => sprt.errors,
            Test::Payoff(sprt) => sprt.errors,
        }
    }

    /// Nothing counted yet.
    pub fn no_evidence(&self) -> Evidence {
        match self {
            Test::Pentanomial(_) => Evidence::Pairs(Pentanomial::default()),
            Test::Payoff(_) => Evidence::Payoffs(Payoffs::default()),
        }
    }

    /// What the test counts of `game` for `new`: its half-points against
    /// each of `opponents` (see [`half_points`]), or its payoff, the mean
    /// score of its seats (one seat, but for partners, who share a score).
    pub fn results(&self, game: &GameSummary, new: &str, opponents: &[String]) -> Vec<f64> {
        match self {
            Test::Pentanomial(_) => half_points(game, new, opponents).into_iter().map(f64::from).collect(),
            Test::Payoff(_) => {
                let mine: Vec<f64> = (game.bots.iter().zip(&game.result.scores))
                    .filter(|(bot, _)| *bot == new)
                    .map(|(_, &score)| score as f64)
                    .collect();
                vec![mine.iter().sum::<f64>() / mine.len().max(1) as f64]
            }
        }
    }

    /// The LLR of `evidence` (of this test).
    pub fn llr(&self, evidence: &Evidence) -> f64 {
        match (self, evidence) {
            (Test::Pentanomial(sprt), Evidence::Pairs(counts)) => sprt.llr(counts),
            (Test::Payoff(sprt), Evidence::Payoffs(payoffs)) => sprt.llr(payoffs),
            _ => unreachable!("the evidence of another test"),
        }
    }
}

impl Evidence {
    #[cfg(test)]
    /// The pentanomial counts, for the pentanomial test.
    pub fn pentanomial(&self) -> Option<&Pentanomial> {
        match self {
            Evidence::Pairs(counts) => Some(counts),
            Evidence::Payoffs(_) => None,
        }
    }

    /// Counts a deal: its games' results, game by game in arrangement order
    /// (and within a game opponent by opponent), taken two at a time as pairs,
    /// or averaged as the deal's payoff.
    pub fn add_deal(&mut self, results: &[f64]) {
        match self {
            Evidence::Pairs(counts) => {
                for pair in results.chunks(2) {
                    counts.add(pair.iter().sum::<f64>() as usize);
                }
            }
            Evidence::Payoffs(payoffs) => payoffs.add(results),
        }
    }

    /// The test's estimate and half its 95% interval: the Elo difference on
    /// the scale of `test`'s model, or the mean payoff per game.
    pub fn estimate(&self, test: &Test) -> Option<[f64; 2]> {
        match (self, test) {
            (Evidence::Pairs(counts), Test::Pentanomial(sprt)) => {
                counts.estimate(sprt.model).map(|estimate| [estimate.elo, estimate.margin])
            }
            (Evidence::Payoffs(payoffs), Test::Payoff(_)) => payoffs.estimate().map(|e| [e.mean, e.margin]),
            _ => unreachable!("the evidence of another test"),
        }
    }
}

/// New's half-points against each of `opponents` in `game` (2 win, 1 draw, 0 loss),
/// by the best place each bot holds ([`places`]). A bot absent from the game counts as last.
pub fn half_points(game: &GameSummary, new: &str, opponents: &[String]) -> Vec<u8> {
    let names: Vec<String> = std::iter::once(new.to_string()).chain(opponents.iter().cloned()).collect();
    let places: Vec<u32> = places(game, &names).into_iter().map(|place| place.unwrap_or(u32::MAX)).collect();
    places[1..]
        .iter()
        .map(|opponent| match places[0].cmp(opponent) {
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::Model;
    use crate::standings::fixtures::{game, names};

    fn ranked(bots: &[&str], ranks: &[u32]) -> GameSummary {
        game(bots, &vec![0; bots.len()], ranks)
    }

    #[test]
    fn results_by_best_place() {
        assert_eq!(half_points(&ranked(&["new", "base"], &[0, 1]), "new", &names(&["base"])), [2]);
        assert_eq!(half_points(&ranked(&["base", "new"], &[0, 0]), "new", &names(&["base"])), [1]);
        // Partners share their place.
        let partners = ranked(&["base", "new", "base", "new"], &[0, 1, 0, 1]);
        assert_eq!(half_points(&partners, "new", &names(&["base"])), [0]);
        // Three players: second place beats the last and loses to the first.
        let three = ranked(&["b2", "new", "base"], &[0, 1, 2]);
        assert_eq!(half_points(&three, "new", &names(&["base", "b2"])), [2, 0]);
    }

    #[test]
    fn each_test_reads_its_own_results_of_a_game() {
        let pentanomial = Test::Pentanomial(Sprt::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap());
        let payoff = Test::Payoff(PayoffSprt::new(0.0, 0.5, 0.05, 0.05).unwrap());
        let played = game(&["base", "new"], &[-3, 3], &[1, 0]);
        assert_eq!(pentanomial.results(&played, "new", &names(&["base"])), [2.0]);
        assert_eq!(payoff.results(&played, "new", &names(&["base"])), [3.0]);
        let partners = game(&["new", "base", "new", "base"], &[4, 0, 4, 0], &[0, 1, 0, 1]);
        assert_eq!(payoff.results(&partners, "new", &names(&["base"])), [4.0], "partners share a score");
    }

    #[test]
    fn configurations_of_either_test_read_back() {
        for test in [
            Test::Pentanomial(Sprt::new(-1.0, 3.0, 0.1, 0.2, Model::Logistic).unwrap()),
            Test::Payoff(PayoffSprt::new(-0.25, 0.5, 0.05, 0.1).unwrap()),
        ] {
            let json = serde_json::to_string(&test).unwrap();
            assert_eq!(serde_json::from_str::<Test>(&json).unwrap(), test, "{json}");
        }
        // A configuration written before there were two tests.
        let old = r#"{"elo0":0.0,"elo1":5.0,"alpha":0.05,"beta":0.05,"model":"normalized"}"#;
        assert_eq!(serde_json::from_str::<Test>(old).unwrap().name(), "pentanomial");
    }
}
