//! The sequential test of a game scored by payoffs (Leduc's chips): is the
//! new bot's mean payoff per game `payoff1` (or more) rather than
//! `payoff0` (or less)? Pure.
//!
//! Every deal is played in every seat order, so that the luck of the cards
//! cancels; the deal's value `x` is the new bot's mean payoff per game over
//! those games, in the game's unit per game. Deals are independent, and `x`
//! is taken as normal with a variance estimated from the deals: the normal
//! approximation of the generalized SPRT (fishtest's `LLR_alt2`). After N
//! deals of mean x̄ and variance v,
//!
//! `LLR = N (payoff1 − payoff0) (2 x̄ − payoff0 − payoff1) / (2 v)`,
//!
//! the sum over the deals of `ln(φ((x − payoff1)/σ) / φ((x − payoff0)/σ))`.
//! The variance counts, besides the deals, one deal of the widest spread
//! seen: `v = (Σ (x − x̄)² + m²) / (N + 1)`, `m` the largest payoff (won or
//! lost) of the new bot in one game so far. Deals that all come out alike
//! (a bot against a copy of itself, whose mirrored games cancel exactly)
//! then give a small variance instead of none and an infinite LLR, and the
//! test still needs some deals to decide; the extra deal's weight fades as
//! deals are counted.

use super::SprtError;
use super::test::ErrorRates;
#[cfg(test)]
use super::test::Hypothesis;
use crate::ratings::normal::normal_cdf;
use serde::{Deserialize, Serialize};

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// A payoff test's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PayoffSprt {
    /// H0: the new bot's mean payoff per game, in the game's unit.
    pub payoff0: f64,
    /// H1: the new bot's mean payoff per game.
    pub payoff1: f64,
    /// The error rates.
    #[serde(flatten)]
    pub errors: ErrorRates,
}

/// The deals counted: their number, mean and spread, and the widest payoff seen.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Payoffs {
    /// The deals counted.
    pub deals: u64,
    /// Their mean value (the new bot's mean payoff per game).
    mean: f64,
    /// `Σ (x − x̄)²` over the deals (Welford's running sum).
    spread: f64,
    /// The largest payoff, won or lost, of the new bot in one game.
    widest: f64,
}

pub use records::sprt::PayoffEstimate;

impl PayoffSprt {
    /// Checks the parameters: `payoff0 < payoff1`, and the error rates.
    pub fn new(payoff0: f64, payoff1: f64, alpha: f64, beta: f64) -> Result<PayoffSprt, SprtError> {
        if !(payoff0.is_finite() && payoff1.is_finite()) || payoff0 >= payoff1 {
            return Err(SprtError::PayoffBounds { payoff0, payoff1 });
        }
        Ok(PayoffSprt { payoff0, payoff1, errors: ErrorRates::new(alpha, beta)? })
    }

    /// The log-likelihood ratio of H1 against H0 given these deals (0 before any).
    pub fn llr(&self, payoffs: &Payoffs) -> f64 {
        let Some(variance) = payoffs.variance() else { return 0.0 };
        let (h0, h1) = (self.payoff0, self.payoff1);
        payoffs.deals as f64 * (h1 - h0) * (2.0 * payoffs.mean - h0 - h1) / (2.0 * variance)
    }

    #[cfg(test)]
    /// The hypothesis this LLR accepts, if any.
    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        self.errors.verdict(llr)
    }
}

impl Payoffs {
    /// Counts a deal: the new bot's payoff in each of its games.
    pub fn add(&mut self, payoffs: &[f64]) {
        if payoffs.is_empty() {
            return;
        }
        let x = payoffs.iter().sum::<f64>() / payoffs.len() as f64;
        self.widest = payoffs.iter().fold(self.widest, |widest, p| widest.max(p.abs()));
        self.deals += 1;
        let before = self.mean;
        self.mean += (x - before) / self.deals as f64;
        self.spread += (x - before) * (x - self.mean);
    }

    /// The variance of a deal's value the test uses, with its one extra
    /// deal of the widest spread seen; `None` before any deal, or while every
    /// game has paid nothing.
    pub fn variance(&self) -> Option<f64> {
        let variance = (self.spread + self.widest * self.widest) / (self.deals + 1) as f64;
        (self.deals > 0 && variance > 0.0).then_some(variance)
    }

    /// The mean payoff per game and its 95% interval, `x̄ ± 1.96 √(v / N)`.
    pub fn estimate(&self) -> Option<PayoffEstimate> {
        let variance = self.variance()?;
        Some(PayoffEstimate { mean: self.mean, margin: Z95 * (variance / self.deals as f64).sqrt() })
    }

    /// The likelihood of superiority: the probability that the new bot's
    /// true mean payoff is above 0, `Φ(x̄ / √(v / N))`.
    pub fn los(&self) -> Option<f64> {
        let variance = self.variance()?;
        Some(normal_cdf(self.mean / (variance / self.deals as f64).sqrt()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    fn test(payoff0: f64, payoff1: f64) -> PayoffSprt {
        PayoffSprt::new(payoff0, payoff1, 0.05, 0.05).unwrap()
    }

    fn deals(values: &[[f64; 2]]) -> Payoffs {
        let mut payoffs = Payoffs::default();
        values.iter().for_each(|games| payoffs.add(games));
        payoffs
    }

    #[test]
    fn the_statistic_by_hand() {
        // Four deals of two games: x = (3 + 1)/2 = 2, (-1 + 1)/2 = 0, (4 + 2)/2 = 3, (-2 + 0)/2 = -1.
        // x̄ = 4/4 = 1; Σ (x - x̄)² = 1 + 1 + 4 + 4 = 10; the widest payoff m = 4, so
        // v = (10 + 16) / 5 = 5.2.
        let payoffs = deals(&[[3.0, 1.0], [-1.0, 1.0], [4.0, 2.0], [-2.0, 0.0]]);
        assert_eq!(payoffs.deals, 4);
        assert!(close(payoffs.variance().unwrap(), 5.2, 1e-12));
        // H0: 0, H1: 0.5: LLR = 4 · 0.5 · (2 - 0.5) / (2 · 5.2) = 3 / 10.4 = 0.288462.
        assert!(close(test(0.0, 0.5).llr(&payoffs), 0.288462, 1e-6));
        // H0: -1, H1: 2: 4 · 3 · (2 - 1) / 10.4 = 1.153846.
        assert!(close(test(-1.0, 2.0).llr(&payoffs), 1.153846, 1e-6));
        // 1 ± 1.959964 · √(5.2 / 4) = 1 ± 1.959964 · 1.140175 = 1 ± 2.234703; LOS Φ(1 / 1.140175) = Φ(0.877058) = 0.809772.
        let estimate = payoffs.estimate().unwrap();
        assert!(close(estimate.mean, 1.0, 1e-12) && close(estimate.margin, 2.234703, 1e-6), "{estimate:?}");
        assert!(close(payoffs.los().unwrap(), 0.809772, 1e-5), "{:?}", payoffs.los());
    }

    #[test]
    fn no_deals_no_evidence() {
        assert_eq!(test(0.0, 1.0).llr(&Payoffs::default()), 0.0);
        assert_eq!(Payoffs::default().estimate(), None);
        assert_eq!(test(0.0, 1.0).llr(&deals(&[[0.0, 0.0]])), 0.0, "nothing paid: no variance yet");
    }

    /// Deals from a fixed cycle of values, shifted by `edge` chips per game.
    fn synthetic(sprt: PayoffSprt, edge: f64) -> (Option<Hypothesis>, u64) {
        let cycle = [[5.0, -3.0], [-2.0, 1.0], [-13.0, 11.0], [4.0, 4.0], [-1.0, -6.0], [2.0, 0.0], [7.0, -9.0]];
        let mut payoffs = Payoffs::default();
        for deal in 0..100_000 {
            let games = cycle[deal % cycle.len()].map(|p| p + edge);
            payoffs.add(&games);
            if let Some(verdict) = sprt.verdict(sprt.llr(&payoffs)) {
                return (Some(verdict), payoffs.deals);
            }
        }
        (None, payoffs.deals)
    }

    #[test]
    fn synthetic_deals_reach_each_hypothesis() {
        // The cycle's deals are worth 1, -0.5, -1, 4, -3.5, 1 and -1 chips/game, 0 on
        // average: with no edge H0 holds, with an edge of 1 chip/game H1.
        let sprt = test(0.0, 0.5);
        let (verdict, deals) = synthetic(sprt, 0.0);
        assert_eq!(verdict, Some(Hypothesis::H0), "after {deals} deals");
        let (verdict, deals) = synthetic(sprt, 1.0);
        assert_eq!(verdict, Some(Hypothesis::H1), "after {deals} deals");
        // Mirrored games (a bot against a copy of itself) cancel in every deal: H0,
        // after some deals rather than at once. With m = 13: LLR = -N (N + 1) · 0.25 / (2 · 169),
        // at or below -2.944439 from N (N + 1) ≥ 3980.9, N = 63.
        let mut mirrored = Payoffs::default();
        let mut decided = None;
        for deal in 1..=1000 {
            mirrored.add(&[13.0, -13.0]);
            if sprt.verdict(sprt.llr(&mirrored)).is_some() {
                decided = Some(deal);
                break;
            }
        }
        assert_eq!(decided, Some(63));
        assert_eq!(sprt.verdict(sprt.llr(&mirrored)), Some(Hypothesis::H0));
    }

    #[test]
    fn bad_bounds_are_refused() {
        let err = PayoffSprt::new(0.5, 0.5, 0.05, 0.05).unwrap_err().to_string();
        assert!(err.contains("--payoff0 (0.5) must be less than --payoff1 (0.5)"), "{err}");
        assert!(PayoffSprt::new(0.0, 0.5, 0.0, 0.05).unwrap_err().to_string().contains("--alpha"));
    }
}
