//! Elo ratings by maximum likelihood, with error bars and the likelihood of
//! superiority, from a [`Pairwise`] tally — the way Ordo and BayesElo rate.
//!
//! # The model
//!
//! Bradley–Terry on the logistic Elo scale: bot `i` scores against bot `j`
//! with probability `P(i, j) = 1 / (1 + 10^((r_j − r_i) / 400))`, a draw
//! counting as half a win and half a loss. The ratings maximise the
//! likelihood `Π P(i, j)^s_ij` over all ordered pairs, where `s_ij` is `i`'s
//! score against `j`. Only differences are determined; the ratings are centred
//! so that their mean over the rated bots is 0.
//!
//! # The prior
//!
//! A bot that won (or lost) every game would have an infinite maximum
//! likelihood rating. To keep every rating finite, [`PRIOR_DRAWS`] virtual
//! draws (a quarter of a game, scored ½–½) are added between **every pair of
//! bots that met**. The ratings are then the mode of the posterior. The prior
//! is weak: it moves a 75% score over 1000 games (+190.85 Elo) by 0.06 Elo,
//! and a 30-win 20-draw 10-loss record (66.7%, +120.41) by 0.54 Elo.
//! (BayesElo's default is 2 virtual draws per pair; one would move the
//! 60-game record by 2.1 Elo.) Pairs that never met get only [`LINK_DRAWS`],
//! a thousandth of that, so that the ratings stay defined when the results
//! fall apart into groups that never met (each group then centred on the
//! same mean): virtual draws between bots that never met would pull the
//! ratings of a sparse schedule together — in a field of 200 bots, 50
//! virtual games for each bot against every other — and a learning league
//! meets few of its pairs. In a round robin every pair meets, so both priors
//! are the same. A bot is *rated* when it has at least one pairwise result.
//!
//! # Fitting
//!
//! Newton's method on the log-posterior from all ratings 0, each step halved
//! until the log-posterior does not decrease, until no rating moves by more
//! than 1e-12 natural units (about 2e-10 Elo). Everything is computed in a
//! fixed order from the tally's counts, so the result is deterministic and
//! does not depend on the order of the games.
//!
//! # Error bars
//!
//! The covariance of the ratings is the inverse of the observed information
//! (the Hessian `H` of the negative log-posterior at the mode, virtual games
//! included) under the constraint that the ratings sum to 0. `H` is a graph
//! Laplacian — `H_ii = Σ_j n_ij P(i,j) P(j,i)`, `H_ij = −n_ij P(i,j) P(j,i)` —
//! singular along `(1, …, 1)`; the constrained covariance is its
//! Moore–Penrose pseudo-inverse `H⁺ = (H + J/m)⁻¹ − J/m`, where `J` is the
//! all-ones matrix and `m` the number of rated bots, scaled by `(400 / ln 10)²`
//! to Elo². The 95% interval is `±1.96 σ`.

use super::linalg::{self, Matrix};
use super::normal::normal_cdf;
use super::pairwise::Pairwise;
use std::f64::consts::LN_10;

/// Virtual draws added between every pair of rated bots that met (see the module docs).
pub const PRIOR_DRAWS: f64 = 0.25;

/// Virtual draws between two rated bots that never met: a thousandth of
/// [`PRIOR_DRAWS`], only to keep the ratings defined (see the module docs).
pub const LINK_DRAWS: f64 = PRIOR_DRAWS / 1000.0;

/// The normal quantile of 97.5%: a 95% interval is `±Z95 σ`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo points per natural logistic unit (400 / ln 10).
pub const ELO_PER_UNIT: f64 = 400.0 / LN_10;

/// Fitted ratings and their covariance.
#[derive(Debug, Clone, PartialEq)]
pub struct Elo {
    ratings: Vec<Option<f64>>,
    /// `n × n`, Elo²; zero rows and columns for unrated bots.
    covariance: Matrix,
}

impl Elo {
    /// The ratings with the default prior, [`PRIOR_DRAWS`].
    pub fn fit(tally: &Pairwise) -> Elo {
        Elo::fit_with_prior(tally, PRIOR_DRAWS)
    }

    /// The ratings with `prior_draws` virtual draws between every pair of
    /// rated bots that met, and a thousandth of that between those that did
    /// not. With 0 the plain maximum-likelihood ratings, which are
    /// finite only when no group of bots scored 100% against the rest (else
    /// the fit stops after its iteration limit with very large ratings).
    pub fn fit_with_prior(tally: &Pairwise, prior_draws: f64) -> Elo {
        let n = tally.bots();
        let rated: Vec<usize> = (0..n).filter(|&i| tally.has_played(i)).collect();
        let mut elo = Elo { ratings: vec![None; n], covariance: vec![vec![0.0; n]; n] };
        if rated.is_empty() {
            return elo;
        }
        let model = Model::new(tally, &rated, prior_draws);
        let theta = model.mode();
        let covariance = model.covariance(&theta);
        for (a, &i) in rated.iter().enumerate() {
            elo.ratings[i] = Some(theta[a] * ELO_PER_UNIT);
            for (b, &j) in rated.iter().enumerate() {
                elo.covariance[i][j] = covariance[a][b] * ELO_PER_UNIT * ELO_PER_UNIT;
            }
        }
        elo
    }

    /// Bot `i`'s rating, `None` if it has no pairwise result.
    pub fn rating(&self, i: usize) -> Option<f64> {
        self.ratings[i]
    }

    /// The standard error of bot `i`'s rating.
    pub fn sigma(&self, i: usize) -> Option<f64> {
        self.ratings[i].map(|_| self.covariance[i][i].max(0.0).sqrt())
    }

    /// The half-width of the 95% interval of bot `i`'s rating.
    pub fn interval(&self, i: usize) -> Option<f64> {
        self.sigma(i).map(|sigma| Z95 * sigma)
    }

    /// The covariance of two bots' ratings, in Elo².
    pub fn covariance(&self, i: usize, j: usize) -> Option<f64> {
        self.ratings[i].and(self.ratings[j]).map(|_| self.covariance[i][j])
    }

    /// The likelihood of superiority: the probability that bot `a` is
    /// stronger than bot `b`, `Φ((r_a − r_b) / σ_{a−b})` with
    /// `σ²_{a−b} = var_a + var_b − 2 cov_ab`. `None` unless both are rated.
    pub fn los(&self, a: usize, b: usize) -> Option<f64> {
        let (ra, rb) = (self.ratings[a]?, self.ratings[b]?);
        let variance = self.covariance[a][a] + self.covariance[b][b] - 2.0 * self.covariance[a][b];
        let difference = ra - rb;
        Some(if variance > 0.0 {
            normal_cdf(difference / variance.sqrt())
        } else if difference == 0.0 {
            0.5
        } else {
            f64::from(u8::from(difference > 0.0))
        })
    }
}

/// The log-posterior over the rated bots, in natural logistic units.
struct Model {
    /// `games[a][b]`, virtual games included.
    games: Matrix,
    /// `score[a][b]`: `a`'s score against `b`, virtual draws included.
    score: Matrix,
}

impl Model {
    fn new(tally: &Pairwise, rated: &[usize], prior_draws: f64) -> Model {
        let m = rated.len();
        let mut games = vec![vec![0.0; m]; m];
        let mut score = vec![vec![0.0; m]; m];
        for (a, &i) in rated.iter().enumerate() {
            for (b, &j) in rated.iter().enumerate() {
                if a != b {
                    let met = tally.games(i, j) > 0;
                    let prior = if met { prior_draws } else { prior_draws * LINK_DRAWS / PRIOR_DRAWS };
                    games[a][b] = tally.games(i, j) as f64 + prior;
                    score[a][b] = tally.score(i, j) + prior / 2.0;
                }
            }
        }
        Model { games, score }
    }

    fn size(&self) -> usize {
        self.games.len()
    }

    fn log_posterior(&self, theta: &[f64]) -> f64 {
        let mut sum = 0.0;
        for a in 0..self.size() {
            for b in 0..self.size() {
                if self.score[a][b] > 0.0 {
                    sum -= self.score[a][b] * softplus(theta[b] - theta[a]);
                }
            }
        }
        sum
    }

    /// The gradient of the log-posterior and the Hessian of its negative.
    fn derivatives(&self, theta: &[f64]) -> (Vec<f64>, Matrix) {
        let m = self.size();
        let mut gradient = vec![0.0; m];
        let mut hessian = vec![vec![0.0; m]; m];
        for a in 0..m {
            for b in 0..m {
                if a != b && self.games[a][b] > 0.0 {
                    let p = logistic(theta[a] - theta[b]);
                    gradient[a] += self.score[a][b] - self.games[a][b] * p;
                    let information = self.games[a][b] * p * (1.0 - p);
                    hessian[a][b] -= information;
                    hessian[a][a] += information;
                }
            }
        }
        (gradient, hessian)
    }

    /// `(H + J/m)⁻¹`, which is `H⁺ + J/m` for a connected comparison graph.
    fn shifted_inverse(hessian: &[Vec<f64>]) -> Option<Matrix> {
        let m = hessian.len() as f64;
        let shifted: Matrix = hessian.iter().map(|row| row.iter().map(|h| h + 1.0 / m).collect()).collect();
        linalg::invert(&shifted)
    }

    /// The mode of the posterior, centred on 0.
    fn mode(&self) -> Vec<f64> {
        const MAX_ITERATIONS: usize = 200;
        const TOLERANCE: f64 = 1e-12;
        let m = self.size();
        let mut theta = vec![0.0; m];
        for _ in 0..MAX_ITERATIONS {
            let (gradient, hessian) = self.derivatives(&theta);
            let Some(inverse) = Model::shifted_inverse(&hessian) else { break };
            // The gradient sums to 0, so this is the pseudo-inverse's Newton step.
            let step = linalg::mul_vec(&inverse, &gradient);
            let before = self.log_posterior(&theta);
            let mut t = 1.0;
            let mut next: Vec<f64>;
            loop {
                next = theta.iter().zip(&step).map(|(x, d)| x + t * d).collect();
                if self.log_posterior(&next) >= before - 1e-12 * before.abs() || t < 1e-6 {
                    break;
                }
                t /= 2.0;
            }
            let moved = step.iter().fold(0.0_f64, |max, d| max.max((t * d).abs()));
            let mean = next.iter().sum::<f64>() / m as f64;
            theta = next.iter().map(|x| x - mean).collect();
            if moved < TOLERANCE {
                break;
            }
        }
        theta
    }

    /// The covariance of the mode under the sum-zero constraint, `H⁺`.
    fn covariance(&self, theta: &[f64]) -> Matrix {
        let m = self.size();
        let (_, hessian) = self.derivatives(theta);
        match Model::shifted_inverse(&hessian) {
            Some(inverse) => inverse.iter().map(|row| row.iter().map(|x| x - 1.0 / m as f64).collect()).collect(),
            // Only without a prior and with bots that never met: no error bars.
            None => vec![vec![f64::INFINITY; m]; m],
        }
    }
}

/// `1 / (1 + e^(−x))`.
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln(1 + e^x)`, without overflow.
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `400 · log10(s / (1 − s))`.
    fn closed_form(s: f64) -> f64 {
        400.0 * (s / (1.0 - s)).log10()
    }

    fn two_bots(wins: u64, draws: u64, losses: u64) -> Pairwise {
        let mut tally = Pairwise::new(2);
        tally.add_results(0, 1, wins, draws, losses);
        tally
    }

    fn difference(elo: &Elo, a: usize, b: usize) -> f64 {
        elo.rating(a).unwrap() - elo.rating(b).unwrap()
    }

    #[test]
    fn a_75_percent_score_is_191_elo() {
        let tally = two_bots(750, 0, 250);
        let elo = Elo::fit(&tally);
        let expected = closed_form(0.75);
        assert!((expected - 190.85).abs() < 0.01);
        assert!((difference(&elo, 0, 1) - expected).abs() < 1.0, "{}", difference(&elo, 0, 1));
        // Centred: the mean rating is 0.
        assert!((elo.rating(0).unwrap() + elo.rating(1).unwrap()).abs() < 1e-9);
        // Without the prior the fit is the closed form exactly; the prior moves it by 0.06 Elo.
        let plain = Elo::fit_with_prior(&tally, 0.0);
        assert!((difference(&plain, 0, 1) - expected).abs() < 1e-6);
        let shift = difference(&plain, 0, 1) - difference(&elo, 0, 1);
        assert!(shift > 0.05 && shift < 0.07, "the prior moved the rating by {shift}");
        // With the prior the fit is the closed form of the counts with the virtual draws.
        let with_prior = (750.0 + PRIOR_DRAWS / 2.0) / (1000.0 + PRIOR_DRAWS);
        assert!((difference(&elo, 0, 1) - closed_form(with_prior)).abs() < 1e-6);
    }

    #[test]
    fn draws_count_half() {
        // 30 wins, 20 draws, 10 losses: 66.7%, +120.4 Elo.
        let elo = Elo::fit(&two_bots(30, 20, 10));
        let expected = closed_form(40.0 / 60.0);
        assert!((expected - 120.41).abs() < 0.01);
        assert!((difference(&elo, 0, 1) - expected).abs() < 1.0, "{}", difference(&elo, 0, 1));
        assert!((difference(&elo, 1, 0) + expected).abs() < 1.0);
        // The prior's share of that: 0.54 Elo on 60 games.
        let shift = expected - difference(&elo, 0, 1);
        assert!((shift - 0.54).abs() < 0.01, "{shift}");
    }

    #[test]
    fn the_interval_is_the_binomial_one_and_halves_with_four_times_the_games() {
        // Two bots, n games at 75%: σ of the difference is (400/ln 10)/√(n p q),
        // and each bot (centred) carries half of it.
        let elo = Elo::fit(&two_bots(750, 0, 250));
        let sigma_difference = ELO_PER_UNIT / (1000.0_f64 * 0.75 * 0.25).sqrt();
        assert!((elo.sigma(0).unwrap() - sigma_difference / 2.0).abs() < 0.01, "{:?}", elo.sigma(0));
        assert!((elo.interval(0).unwrap() - 12.43).abs() < 0.01, "{:?}", elo.interval(0));
        assert!((elo.covariance(0, 1).unwrap() + elo.sigma(0).unwrap().powi(2)).abs() < 1e-6);

        let small = Elo::fit(&two_bots(30, 20, 10));
        let large = Elo::fit(&two_bots(120, 80, 40));
        let ratio = large.interval(0).unwrap() / small.interval(0).unwrap();
        assert!((ratio - 0.5).abs() < 0.01, "ratio {ratio}");
        assert!((difference(&small, 0, 1) - difference(&large, 0, 1)).abs() < 1.0);
    }

    #[test]
    fn three_bots_consistent_with_the_model() {
        // a beats b 3:1, b beats c 3:1, so a beats c 9:1 under Bradley–Terry.
        let mut tally = Pairwise::new(3);
        tally.add_results(0, 1, 280, 40, 80);
        tally.add_results(1, 2, 300, 0, 100);
        tally.add_results(0, 2, 340, 40, 20);
        let elo = Elo::fit(&tally);
        let (a, b, c) = (elo.rating(0).unwrap(), elo.rating(1).unwrap(), elo.rating(2).unwrap());
        assert!(a > b && b > c);
        assert!((a - b - closed_form(0.75)).abs() < 1.0, "a − b = {}", a - b);
        assert!((b - c - closed_form(0.75)).abs() < 1.0, "b − c = {}", b - c);
        assert!((a - c - closed_form(0.9)).abs() < 1.0, "a − c = {}", a - c);
        assert!((a + b + c).abs() < 1e-9);
        // Equal games and a symmetric spread: b sits at the mean.
        assert!(b.abs() < 1.0, "{b}");
    }

    #[test]
    fn the_fit_solves_the_likelihood_equations() {
        // Inconsistent data: at the mode each bot's expected score equals its
        // actual one, virtual draws included.
        let mut tally = Pairwise::new(4);
        tally.add_results(0, 1, 7, 3, 2);
        tally.add_results(1, 2, 9, 0, 1);
        tally.add_results(2, 0, 4, 1, 3);
        tally.add_results(3, 0, 2, 2, 5);
        tally.add_results(3, 2, 0, 0, 6);
        let elo = Elo::fit(&tally);
        for i in 0..4 {
            let (mut expected, mut actual) = (0.0, 0.0);
            for j in (0..4).filter(|&j| j != i) {
                // Bots 1 and 3 never met: only the link's virtual draws between them.
                let prior = if tally.games(i, j) > 0 { PRIOR_DRAWS } else { LINK_DRAWS };
                let games = tally.games(i, j) as f64 + prior;
                let difference = elo.rating(j).unwrap() - elo.rating(i).unwrap();
                expected += games / (1.0 + 10f64.powf(difference / 400.0));
                actual += tally.score(i, j) + prior / 2.0;
            }
            assert!((expected - actual).abs() < 1e-9, "bot {i}: expected {expected}, scored {actual}");
        }
        let covariance_row: f64 = (0..4).map(|j| elo.covariance(1, j).unwrap()).sum();
        assert!(covariance_row.abs() < 1e-9, "the covariance respects the sum-zero constraint");
    }

    #[test]
    fn a_perfect_score_stays_finite_and_a_bot_without_games_is_unrated() {
        let mut tally = Pairwise::new(3);
        tally.add_results(0, 1, 20, 0, 0);
        let elo = Elo::fit(&tally);
        let gap = difference(&elo, 0, 1);
        // 20.125 : 0.125 with the virtual draws.
        assert!((gap - closed_form(20.125 / 20.25)).abs() < 1e-6, "{gap}");
        assert!(gap > 800.0 && gap < 1000.0 && elo.interval(0).unwrap().is_finite());
        assert_eq!((elo.rating(2), elo.interval(2), elo.sigma(2)), (None, None, None));
        assert_eq!((elo.los(0, 2), elo.los(2, 1), elo.covariance(0, 2)), (None, None, None));

        let empty = Elo::fit(&Pairwise::new(2));
        assert_eq!((empty.rating(0), empty.interval(1)), (None, None));
    }

    #[test]
    fn a_chain_of_neighbours_keeps_its_gaps() {
        // Eight bots, each meeting only the next: 7 wins in 10. Virtual draws
        // between bots that never met would pull the ends together; the prior
        // between bots that met keeps each gap the closed form of its counts.
        let n = 8;
        let mut tally = Pairwise::new(n);
        for i in 0..n - 1 {
            tally.add_results(i, i + 1, 7, 0, 3);
        }
        let elo = Elo::fit(&tally);
        let step = closed_form((7.0 + PRIOR_DRAWS / 2.0) / (10.0 + PRIOR_DRAWS));
        for i in 0..n - 1 {
            let gap = difference(&elo, i, i + 1);
            assert!((gap - step).abs() < 0.5, "gap {i}: {gap} against {step}");
        }
        let span = difference(&elo, 0, n - 1);
        assert!(span > 6.0 * step, "the chain spans {span} Elo");
    }

    #[test]
    fn groups_that_never_met_are_rated_each_around_the_mean() {
        let mut tally = Pairwise::new(4);
        tally.add_results(0, 1, 8, 0, 2);
        tally.add_results(2, 3, 2, 0, 8);
        let elo = Elo::fit(&tally);
        let ratings: Vec<f64> = (0..4).map(|i| elo.rating(i).unwrap()).collect();
        assert!(ratings.iter().all(|r| r.is_finite()), "{ratings:?}");
        assert!((ratings[0] + ratings[1]).abs() < 1.0 && (ratings[2] + ratings[3]).abs() < 1.0, "{ratings:?}");
        assert!((difference(&elo, 0, 1) - difference(&elo, 3, 2)).abs() < 1e-6);
        // Their order across the groups is unknown: even, with wide error bars, finite.
        assert!((elo.los(0, 3).unwrap() - 0.5).abs() < 1e-6, "{:?}", elo.los(0, 3));
        let within = Elo::fit(&two_bots(8, 0, 2)).interval(0).unwrap();
        let interval = elo.interval(0).unwrap();
        assert!(interval.is_finite() && interval > 10.0 * within, "{interval} against {within} within a group");
    }

    #[test]
    fn likelihood_of_superiority() {
        let mut tally = Pairwise::new(3);
        tally.add_results(0, 1, 30, 10, 20);
        tally.add_results(1, 2, 15, 5, 15);
        tally.add_results(0, 2, 12, 1, 9);
        let elo = Elo::fit(&tally);
        for a in 0..3 {
            for b in 0..3 {
                let sum = elo.los(a, b).unwrap() + elo.los(b, a).unwrap();
                assert!((sum - 1.0).abs() < 1e-12, "LOS({a},{b}) + LOS({b},{a}) = {sum}");
            }
        }
        assert!(elo.los(0, 1).unwrap() > 0.5 && elo.los(0, 1).unwrap() < 0.99);
        // σ of the difference as defined by the covariance.
        let variance =
            elo.covariance(0, 0).unwrap() + elo.covariance(1, 1).unwrap() - 2.0 * elo.covariance(0, 1).unwrap();
        let z = difference(&elo, 0, 1) / variance.sqrt();
        assert!((elo.los(0, 1).unwrap() - normal_cdf(z)).abs() < 1e-15);

        let equal = Elo::fit(&two_bots(10, 5, 10));
        assert_eq!(equal.los(0, 1), Some(0.5));
        let clear = Elo::fit(&two_bots(750, 0, 250));
        assert!(clear.los(0, 1).unwrap() > 0.999_999);
        assert!(clear.los(1, 0).unwrap() < 1e-6);
    }
}
