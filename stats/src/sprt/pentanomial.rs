//! Pentanomial counts: how many pairs of games ended 0, ½, 1, 1½ or 2 points
//! for the tested bot, and the Elo estimate they give. Pure.

use super::SprtError;
use super::mle::Pdf;
use crate::ratings::normal::normal_cdf;
use serde::Serialize;

/// 800 / ln 10: normalized Elo per unit of t-value per game (fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 347.435_585_522_601_46;

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The Elo scale of a test: logistic Elo, or normalized Elo (nElo).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// `score = 1 / (1 + 10^(-elo/400))`.
    Logistic,
    /// `nelo = (score - ½) / σ_game · 800 / ln 10`: the score difference in standard
    /// deviations of a game's score, so that a given nElo takes the same number of
    /// games to detect whatever the draw rate.
    Normalized,
}

impl Model {
    /// The scale's name, as `--model` and `sprt.json` give it.
    pub fn name(self) -> &'static str {
        match self {
            Model::Logistic => "logistic",
            Model::Normalized => "normalized",
        }
    }

    /// The name of the scale's unit: `Elo` or `nElo`.
    pub fn unit(self) -> &'static str {
        match self {
            Model::Logistic => "Elo",
            Model::Normalized => "nElo",
        }
    }
}

impl std::str::FromStr for Model {
    type Err = SprtError;
    fn from_str(text: &str) -> Result<Model, SprtError> {
        [Model::Logistic, Model::Normalized]
            .into_iter()
            .find(|model| model.name() == text)
            .ok_or_else(|| SprtError::UnknownModel { text: text.to_string() })
    }
}

/// The expected score of logistic Elo `elo`.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo of expected score `score` (±∞ at 1 and 0).
pub fn logistic_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Pairs counted by their points for the tested bot: `counts[h]` pairs scored `h`
/// half-points (0 = two losses, 1 = a loss and a draw, 2 = a win and a loss or two
/// draws, 3 = a win and a draw, 4 = two wins).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    /// LL, LD, WL+DD, WD, WW.
    pub counts: [u64; 5],
}

/// An Elo difference with its 95% interval, half its width (as fastchess prints it).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// The estimate.
    pub elo: f64,
    /// Half the width of the 95% interval.
    pub margin: f64,
}

impl Pentanomial {
    /// Counts a pair scoring `half_points` (0 to 4).
    pub fn add(&mut self, half_points: usize) {
        self.counts[half_points] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The observed distribution of a pair's score as a fraction of its 2 points
    /// (values 0, ¼, ½, ¾, 1); an outcome never seen gets a count of 0.001, as
    /// in fishtest and fastchess, so that every fit has all five values to use.
    pub fn regularized_pdf(&self) -> Pdf {
        let counts: Vec<f64> = self.counts.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).collect();
        pdf(&counts)
    }

    /// The Elo difference and its 95% interval on the scale of `model`, from the
    /// mean pair score μ and its variance σ² over N pairs: the interval of the
    /// score is μ ± 1.96 σ/√N, turned into Elo (a logistic bound beyond a
    /// score of 0 or 1 is infinite). `None` until two pairs score differently.
    pub fn estimate(&self, model: Model) -> Option<Estimate> {
        let pairs = self.pairs();
        let counts: Vec<f64> = self.counts.iter().map(|&c| c as f64).collect();
        let pdf = (pairs > 0).then(|| pdf(&counts))?;
        let (mean, variance) = (pdf.mean(), pdf.variance());
        if variance <= 0.0 {
            return None;
        }
        let half = Z95 * (variance / pairs as f64).sqrt();
        let to_elo = |score: f64| match model {
            Model::Logistic => logistic_elo(score.clamp(0.0, 1.0)),
            Model::Normalized => (score - 0.5) / (2.0 * variance).sqrt() * NELO_PER_T,
        };
        Some(Estimate { elo: to_elo(mean), margin: (to_elo(mean + half) - to_elo(mean - half)) / 2.0 })
    }

    /// The likelihood of superiority, as fastchess gives it: the probability
    /// that the new bot's true expected pair score is above ½,
    /// `Φ((μ - ½) / (σ/√N))`; `None` until two pairs score differently.
    pub fn los(&self) -> Option<f64> {
        let pairs = self.pairs();
        let counts: Vec<f64> = self.counts.iter().map(|&c| c as f64).collect();
        let pdf = (pairs > 0).then(|| pdf(&counts))?;
        let spread = (pdf.variance() / pairs as f64).sqrt();
        (spread > 0.0).then(|| normal_cdf((pdf.mean() - 0.5) / spread))
    }

    /// The share of pairs scoring 1 point of 2 (a win and a loss, or two
    /// draws), fastchess's draw ratio; `None` before any pair.
    pub fn draw_ratio(&self) -> Option<f64> {
        let pairs = self.pairs();
        (pairs > 0).then(|| self.counts[2] as f64 / pairs as f64)
    }
}

/// The distribution of the pair score fraction from the five counts.
fn pdf(counts: &[f64]) -> Pdf {
    let total: f64 = counts.iter().sum();
    Pdf { values: (0..5).map(|i| i as f64 / 4.0).collect(), probs: counts.iter().map(|c| c / total).collect() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn estimates_by_hand() {
        // Counts (LL, LD, WL+DD, WD, WW) = (10, 20, 40, 20, 30), N = 120 pairs.
        // μ = (0·10 + ¼·20 + ½·40 + ¾·20 + 1·30) / 120 = (5 + 20 + 15 + 30) / 120 = 70/120 = 0.583333
        // E[a²] = (1/16·20 + ¼·40 + 9/16·20 + 1·30) / 120 = (1.25 + 10 + 11.25 + 30) / 120 = 0.4375
        // σ² = 0.4375 - 0.583333² = 0.097222, σ/√N = √(0.097222/120) = 0.028464
        // half-width of the score interval: 1.959964 · 0.028464 = 0.055788
        let penta = Pentanomial { counts: [10, 20, 40, 20, 30] };
        // nElo = (μ - ½) / √(2σ²) · 347.4356 = 0.083333 / 0.440959 · 347.4356 = 65.659;
        // ± 0.055788 / 0.440959 · 347.4356 = 43.956.
        let normalized = penta.estimate(Model::Normalized).unwrap();
        assert!(close(normalized.elo, 65.659, 1e-3), "{normalized:?}");
        assert!(close(normalized.margin, 43.956, 1e-3), "{normalized:?}");
        // Elo = -400 log10(1/μ - 1) = -400 log10(0.714286) = 58.451;
        // interval: Elo(0.639121) = 99.289 and Elo(0.527545) = 19.160, so ± 40.064.
        let logistic = penta.estimate(Model::Logistic).unwrap();
        assert!(close(logistic.elo, 58.451, 1e-3), "{logistic:?}");
        assert!(close(logistic.margin, 40.064, 1e-3), "{logistic:?}");
    }

    #[test]
    fn los_and_draw_ratio_by_hand() {
        // The same counts: μ = 0.583333, σ² = 0.097222, N = 120, σ/√N = 0.028464;
        // LOS = Φ(0.083333 / 0.028464) = Φ(2.927700) = 0.998293. Draw ratio: 40 / 120.
        let penta = Pentanomial { counts: [10, 20, 40, 20, 30] };
        assert!(close(penta.los().unwrap(), 0.998293, 1e-5), "{:?}", penta.los());
        assert!(close(penta.draw_ratio().unwrap(), 1.0 / 3.0, 1e-12));
        assert_eq!(Pentanomial { counts: [0, 0, 5, 0, 0] }.los(), None);
        assert_eq!(Pentanomial::default().draw_ratio(), None);
    }

    #[test]
    fn a_logistic_interval_past_a_perfect_score_is_infinite() {
        let estimate = Pentanomial { counts: [0, 0, 1, 0, 9] }.estimate(Model::Logistic).unwrap();
        assert!(estimate.elo.is_finite() && estimate.margin == f64::INFINITY, "{estimate:?}");
    }

    #[test]
    fn no_estimate_without_spread() {
        assert_eq!(Pentanomial::default().estimate(Model::Normalized), None);
        assert_eq!(Pentanomial { counts: [0, 0, 0, 0, 7] }.estimate(Model::Logistic), None);
    }

    #[test]
    fn regularization_fills_empty_cells() {
        let pdf = Pentanomial { counts: [0, 0, 1, 0, 0] }.regularized_pdf();
        assert!(close(pdf.probs[2], 1.0 / 1.004, 1e-12));
        assert!(close(pdf.probs[0], 0.001 / 1.004, 1e-12));
        assert_eq!(pdf.values, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    }

    #[test]
    fn logistic_conversions_invert_each_other() {
        assert!(close(logistic_score(0.0), 0.5, 1e-15));
        assert!(close(logistic_elo(logistic_score(123.0)), 123.0, 1e-9));
        assert!(close(NELO_PER_T, 800.0 / 10f64.ln(), 1e-12));
    }
}
