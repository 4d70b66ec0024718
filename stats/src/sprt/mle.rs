//! Maximum-likelihood fits of a discrete distribution under one constraint,
//! the building block of the generalized log-likelihood ratio. Pure.
//!
//! The method is Michel Van den Bergh's, as fishtest and fastchess use it:
//! given an empirical distribution `p` over outcome values `a`, the
//! distribution closest to it (in likelihood) whose expectation is `s` is
//! `p_i / (1 + x (a_i - s))`, where `x` solves the *secular equation*
//! `Σ p_i (a_i - s) / (1 + x (a_i - s)) = 0`. Fixing the t-value
//! `(μ - ref) / σ` instead is done by iterating the same step with shifted
//! values until the distribution stops changing.

/// A discrete distribution: outcome values and their probabilities.
#[derive(Debug, Clone, PartialEq)]
pub struct Pdf {
    /// The outcome values, ascending.
    pub values: Vec<f64>,
    /// The probability of each value (they sum to 1).
    pub probs: Vec<f64>,
}

impl Pdf {
    /// The expectation.
    pub fn mean(&self) -> f64 {
        self.values.iter().zip(&self.probs).map(|(a, p)| a * p).sum()
    }

    /// The variance.
    pub fn variance(&self) -> f64 {
        let mean = self.mean();
        self.values.iter().zip(&self.probs).map(|(a, p)| p * (a - mean) * (a - mean)).sum()
    }

    /// The expectation of `(a - s)²`: the variance around `s` instead of the mean.
    pub fn spread_around(&self, s: f64) -> f64 {
        self.values.iter().zip(&self.probs).map(|(a, p)| p * (a - s) * (a - s)).sum()
    }

    /// The same values with these probabilities `probs[i] / (1 + x shifted[i])`.
    fn tilted(&self, shifted: &[f64], x: f64) -> Pdf {
        let probs = self.probs.iter().zip(shifted).map(|(p, d)| p / (1.0 + x * d)).collect();
        Pdf { values: self.values.clone(), probs }
    }
}

/// Solves `Σ p_i d_i / (1 + x d_i) = 0` for `x` in `(-1 / max d, -1 / min d)`,
/// where the left side falls from +∞ to -∞, by bisection. `None` unless
/// some `d_i` are negative and some positive.
fn secular(d: &[f64], probs: &[f64]) -> Option<f64> {
    let low = d.iter().copied().fold(f64::INFINITY, f64::min);
    let high = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(low < 0.0 && high > 0.0) {
        return None;
    }
    let f = |x: f64| d.iter().zip(probs).map(|(d, p)| p * d / (1.0 + x * d)).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / high, -1.0 / low);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The most likely distribution, given the observed `pdf`, whose expectation is `s`
/// (`None` when `s` is not strictly between the smallest and largest values).
pub fn with_expectation(pdf: &Pdf, s: f64) -> Option<Pdf> {
    let shifted: Vec<f64> = pdf.values.iter().map(|a| a - s).collect();
    let x = secular(&shifted, &pdf.probs)?;
    Some(pdf.tilted(&shifted, x))
}

/// The most likely distribution, given the observed `pdf`, whose t-value
/// `(μ - reference) / σ` is `t` (`None` when the fit cannot reach it).
pub fn with_t_value(pdf: &Pdf, reference: f64, t: f64) -> Option<Pdf> {
    let uniform = 1.0 / pdf.values.len() as f64;
    let mut fit = Pdf { values: pdf.values.clone(), probs: vec![uniform; pdf.values.len()] };
    for _ in 0..10 {
        let (mean, sigma) = (fit.mean(), fit.variance().sqrt());
        let shifted: Vec<f64> = pdf
            .values
            .iter()
            .map(|a| {
                let z = (mean - a) / sigma;
                a - reference - t * sigma * (1.0 + z * z) / 2.0
            })
            .collect();
        let next = pdf.tilted(&shifted, secular(&shifted, &pdf.probs)?);
        let change = next.probs.iter().zip(&fit.probs).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        fit = next;
        if change < 1e-9 {
            break;
        }
    }
    Some(fit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn a_two_point_distribution_moves_its_mass_to_the_expectation() {
        // On two values 0 and 1 the only distribution with expectation s is (1 - s, s),
        // whatever was observed.
        let pdf = Pdf { values: vec![0.0, 1.0], probs: vec![0.5, 0.5] };
        let fit = with_expectation(&pdf, 0.6).unwrap();
        assert!(close(fit.probs[0], 0.4, 1e-12) && close(fit.probs[1], 0.6, 1e-12), "{fit:?}");
    }

    #[test]
    fn three_values_solve_the_secular_equation_by_hand() {
        // Values 0, ½, 1 observed ¼, ½, ¼; expectation s = 0.6, so d = a - s = (-0.6, -0.1, 0.4).
        // The secular equation -0.15/(1 - 0.6x) - 0.05/(1 - 0.1x) + 0.1/(1 + 0.4x) = 0, times
        // the three denominators:
        //   -0.15 (1 + 0.3x - 0.04x²) - 0.05 (1 - 0.2x - 0.24x²) + 0.1 (1 - 0.7x + 0.06x²)
        //   = 0.024x² - 0.105x - 0.1 = 0,
        // whose root in (-1/0.4, 1/0.6) = (-2.5, 1.67) is x = (0.105 - √0.020625) / 0.048
        //   = (0.105 - 0.1436141) / 0.048 = -0.8044597.
        // The fit p_i / (1 + x d_i) = (0.25/1.4826758, 0.5/1.0804460, 0.25/0.6782161)
        //   = (0.1686141, 0.4627719, 0.3686141): it sums to 1 and its mean is 0.6.
        let pdf = Pdf { values: vec![0.0, 0.5, 1.0], probs: vec![0.25, 0.5, 0.25] };
        let fit = with_expectation(&pdf, 0.6).unwrap();
        for (got, want) in fit.probs.iter().zip([0.1686141, 0.4627719, 0.3686141]) {
            assert!(close(*got, want, 1e-7), "{fit:?}");
        }
        assert!(close(fit.mean(), 0.6, 1e-9), "{fit:?}");
    }

    #[test]
    fn a_t_value_fit_on_two_values_is_exact() {
        // On values 0 and 1 with P(1) = q: μ = q, σ = √(q(1-q)), and t = (q - ½)/σ.
        // For t = 0.5: (q - ½)² = ¼ q(1 - q)  ⇒  q = ½ + ½ · t/√(1 + t²) = ½ + ½ · 0.5/√1.25
        //   = 0.5 + 0.2236068 = 0.7236068.
        let pdf = Pdf { values: vec![0.0, 1.0], probs: vec![0.7, 0.3] };
        let fit = with_t_value(&pdf, 0.5, 0.5).unwrap();
        assert!(close(fit.probs[1], 0.7236068, 1e-6), "{fit:?}");
    }

    #[test]
    fn unreachable_constraints_have_no_fit() {
        let pdf = Pdf { values: vec![0.0, 1.0], probs: vec![0.5, 0.5] };
        assert_eq!(with_expectation(&pdf, 1.5), None);
        assert_eq!(with_expectation(&pdf, 0.0), None);
    }
}
