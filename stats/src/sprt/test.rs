//! The sequential probability ratio test over pentanomial counts, as fishtest
//! and fastchess run it. Pure.
//!
//! H0: the Elo difference is `elo0`; H1: it is `elo1`. After N pairs with
//! observed (regularized) distribution `p` of the pair score, the generalized
//! log-likelihood ratio is `N · Σ p_i (ln p1_i - ln p0_i)`, where `p0`, `p1`
//! are the most likely distributions under H0 and H1 ([`super::mle`]): with
//! the expected score fixed at `1 / (1 + 10^(-elo/400))` for logistic Elo, or
//! with the t-value `(μ - ½) / σ_pair` fixed at `√2 · nelo / (800 / ln 10)` for
//! normalized Elo. The test accepts H1 once the LLR reaches
//! `ln((1 - β) / α)` and H0 once it falls to `ln(β / (1 - α))`.

use super::SprtError;
use super::mle::{self, Pdf};
use super::pentanomial::{Model, NELO_PER_T, Pentanomial, logistic_score};
use serde::{Deserialize, Serialize};

/// A test's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The error rates.
    #[serde(flatten)]
    pub errors: ErrorRates,
    /// The Elo scale of `elo0` and `elo1`.
    pub model: Model,
}

/// The error rates of a test, which set the bounds of its LLR.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ErrorRates {
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl ErrorRates {
    /// Checks `0 < α, β < 1` and `α + β < 1`.
    pub fn new(alpha: f64, beta: f64) -> Result<ErrorRates, SprtError> {
        for (flag, value) in [("--alpha", alpha), ("--beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::ErrorRate { flag, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorRates { sum: alpha + beta });
        }
        Ok(ErrorRates { alpha, beta })
    }

    /// The lower bound of the LLR, `ln(β / (1 - α))`: at or below it, H0 is accepted.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound of the LLR, `ln((1 - β) / α)`: at or above it, H1 is accepted.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The hypothesis this LLR accepts, if any.
    pub fn verdict(&self, llr: f64) -> Option<Hypothesis> {
        if llr >= self.upper() {
            Some(Hypothesis::H1)
        } else if llr <= self.lower() {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}

/// A hypothesis the test accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hypothesis {
    /// The difference is `elo0` (or less): not the improvement looked for.
    H0,
    /// The difference is `elo1` (or more).
    H1,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, `0 < α, β < 1`, `α + β < 1`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: Model) -> Result<Sprt, SprtError> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(SprtError::EloBounds { elo0, elo1 });
        }
        Ok(Sprt { elo0, elo1, errors: ErrorRates::new(alpha, beta)?, model })
    }

    /// The log-likelihood ratio of H1 against H0 given these pairs (0 before any).
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        let pdf = penta.regularized_pdf();
        let n: f64 = penta.counts.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).sum();
        let fits = match self.model {
            Model::Logistic => {
                let fit = |elo| mle::with_expectation(&pdf, logistic_score(elo));
                fit(self.elo0).zip(fit(self.elo1))
            }
            Model::Normalized => {
                let fit = |nelo| mle::with_t_value(&pdf, 0.5, std::f64::consts::SQRT_2 * nelo / NELO_PER_T);
                fit(self.elo0).zip(fit(self.elo1))
            }
        };
        match fits {
            Some((h0, h1)) => n * jump_mean(&pdf, &h0, &h1),
            None => n * self.approximate_llr_per_pair(&pdf),
        }
    }

    /// The LLR per pair by the closed-form approximations fishtest keeps beside
    /// the exact fit (`LLR_alt`, and `LLR_normalized_alt` of
    /// normalized_elo_practical.pdf §4.2); used only when a fit cannot reach
    /// the hypothesis (an extreme `elo1`).
    fn approximate_llr_per_pair(&self, pdf: &Pdf) -> f64 {
        match self.model {
            Model::Logistic => {
                let spread = |elo| pdf.spread_around(logistic_score(elo));
                0.5 * (spread(self.elo0) / spread(self.elo1)).ln()
            }
            Model::Normalized => {
                let nt = (pdf.mean() - 0.5) / (2.0 * pdf.variance()).sqrt();
                let term = |nelo: f64| 1.0 + (nt - nelo / NELO_PER_T).powi(2);
                (term(self.elo0) / term(self.elo1)).ln()
            }
        }
    }
}

/// `Σ p_i (ln p1_i - ln p0_i)`: the expected jump of the LLR per pair.
fn jump_mean(pdf: &Pdf, h0: &Pdf, h1: &Pdf) -> f64 {
    (0..pdf.probs.len()).map(|i| pdf.probs[i] * (h1.probs[i].ln() - h0.probs[i].ln())).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    fn sprt(elo0: f64, elo1: f64, model: Model) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
    }

    #[test]
    fn bounds_by_hand() {
        // α = β = 0.05: ln(0.05 / 0.95) = -ln 19 = -2.944439, ln(0.95 / 0.05) = ln 19.
        let test = sprt(0.0, 5.0, Model::Normalized).errors;
        assert!(close(test.lower(), -2.944439, 1e-6) && close(test.upper(), 2.944439, 1e-6));
        // α = 0.1, β = 0.2: ln(0.2 / 0.9) = -1.504077, ln(0.8 / 0.1) = ln 8 = 2.079442.
        let test = Sprt::new(0.0, 5.0, 0.1, 0.2, Model::Logistic).unwrap().errors;
        assert!(close(test.lower(), -1.504077, 1e-6) && close(test.upper(), 2.079442, 1e-6));
        assert_eq!(test.verdict(2.1), Some(Hypothesis::H1));
        assert_eq!(test.verdict(-1.6), Some(Hypothesis::H0));
        assert_eq!(test.verdict(0.0), None);
    }

    #[test]
    fn llr_of_pairs_that_are_all_won_or_all_lost_by_hand() {
        // 40 pairs LL and 60 WW, nothing else (the three empty cells get 0.001 each,
        // which moves the result by less than 1e-4). On the two values 0 and 1 the
        // only distribution with expected score s is (1 - s, s), so per pair
        //   LLR/N = 0.4 ln((1 - s1)/(1 - s0)) + 0.6 ln(s1/s0).
        let penta = Pentanomial { counts: [40, 0, 0, 0, 60] };
        // Logistic, H0: 0 Elo, H1: 5 Elo: s0 = ½, s1 = 1/(1 + 10^(-5/400)) = 0.507195;
        //   0.4 ln(0.492805/0.5) + 0.6 ln(0.507195/0.5) = 0.4 (-0.014495) + 0.6 (0.014288)
        //   = 0.0027747, times N = 100: LLR = 0.27747.
        let llr = sprt(0.0, 5.0, Model::Logistic).llr(&penta);
        assert!(close(llr, 0.27747, 1e-4), "{llr}");
        // Normalized, H0: 0 nElo, H1: 5 nElo: t1 = √2 · 5 / 347.4356 = 0.020353, and on
        // two values (q - ½)/√(q(1 - q)) = t gives q = ½ + ½ t/√(1 + t²) = 0.510174 (q0 = ½);
        //   0.4 ln(0.489826/0.5) + 0.6 ln(0.510174/0.5) = 0.4 (-0.020558) + 0.6 (0.020144)
        //   = 0.0038631, times 100: LLR = 0.38631.
        let llr = sprt(0.0, 5.0, Model::Normalized).llr(&penta);
        assert!(close(llr, 0.38631, 1e-4), "{llr}");
    }

    #[test]
    fn llr_of_a_full_pentanomial_by_hand() {
        // Counts (LL, LD, WL+DD, WD, WW) = (10, 20, 40, 20, 30), N = 120 pairs:
        // μ = 0.583333, σ² = 0.097222 (see the estimate test in pentanomial.rs).
        // The closed-form approximation of the GSPRT (fishtest's LLR_alt2),
        //   LLR ≈ N (s1 - s0)(2μ - s0 - s1) / (2σ²),
        // for logistic H0: 0 Elo (s0 = ½), H1: 20 Elo (s1 = 0.528751):
        //   120 · 0.028751 · (1.166667 - 1.028751) / 0.194444 = 120 · 0.028751 · 0.709283
        //   = 2.4471.
        // The exact fit (the secular equations solved numerically, as fishtest's
        // LLR_logistic does; the value below comes from a separate Python transcription of
        // its formulas) differs from it by terms of higher order: 2.3644.
        let penta = Pentanomial { counts: [10, 20, 40, 20, 30] };
        let llr = sprt(0.0, 20.0, Model::Logistic).llr(&penta);
        assert!(close(llr, 2.3644, 1e-3), "{llr}");
        // Normalized, H0: 0, H1: 20 nElo: nt = (μ - ½)/√(2σ²) = 0.188982, nt1 = 20/347.4356
        // = 0.057565, and LLR_normalized_alt = 2N/2 · ln((1 + nt²)/(1 + (nt - nt1)²))
        //   = 120 · ln(1.035714/1.017271) = 120 · 0.017968 = 2.1562;
        // the exact t-value fit (fishtest's LLR_normalized, by the same Python) gives 2.1647.
        let llr = sprt(0.0, 20.0, Model::Normalized).llr(&penta);
        assert!(close(llr, 2.1647, 1e-3), "{llr}");
    }

    #[test]
    fn closed_form_approximations_by_hand() {
        // The same counts: μ = 0.583333, σ² = 0.097222, N = 120.
        let pdf = Pentanomial { counts: [10, 20, 40, 20, 30] }.regularized_pdf();
        // LLR_alt = N/2 · ln(E(a - s0)² / E(a - s1)²), E(a - s)² = σ² + (μ - s)²:
        //   (0.097222 + 0.006944) / (0.097222 + 0.002979) = 0.104167 / 0.100202 = 1.039572,
        //   60 · ln 1.039572 = 60 · 0.038809 = 2.3285.
        let logistic = sprt(0.0, 20.0, Model::Logistic).approximate_llr_per_pair(&pdf) * 120.0;
        assert!(close(logistic, 2.3285, 1e-3), "{logistic}");
        // LLR_normalized_alt: 2.1562 (computed in the previous test).
        let normalized = sprt(0.0, 20.0, Model::Normalized).approximate_llr_per_pair(&pdf) * 120.0;
        assert!(close(normalized, 2.1562, 1e-3), "{normalized}");
    }

    #[test]
    fn no_pairs_no_evidence() {
        assert_eq!(sprt(0.0, 5.0, Model::Normalized).llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn bad_parameters_are_refused() {
        for (elo0, elo1, alpha, beta, why) in [
            (5.0, 5.0, 0.05, 0.05, "less than --elo1"),
            (0.0, 5.0, 0.0, 0.05, "--alpha (0) must be between 0 and 1"),
            (0.0, 5.0, 0.05, 1.5, "--beta (1.5) must be between 0 and 1"),
            (0.0, 5.0, 0.6, 0.5, "must be less than 1"),
        ] {
            let err = Sprt::new(elo0, elo1, alpha, beta, Model::Normalized).unwrap_err().to_string();
            assert!(err.contains(why), "{err}");
        }
    }
}
