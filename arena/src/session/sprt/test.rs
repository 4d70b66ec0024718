//! Which test an SPRT runs and its bounds, chosen by its flags once the
//! game's scoring is known. (The flags are declared here, beside what
//! reads them, and flattened into `arena sprt`'s.)

use crate::session::exit::{Failure, usage};
use crate::stats::sprt::{Model, PayoffSprt, Sprt, Test};
use clap::Args;
use game::Scoring;

/// H0 of the payoff test: new wins this much per game from base (or less), in the game's unit.
const PAYOFF0: f64 = 0.0;
/// H1 of the payoff test: new wins this much per game (or more).
const PAYOFF1: f64 = 0.2;

/// The flags that choose the test and its bounds.
#[derive(Debug, Clone, Copy, Args)]
pub struct TestFlags {
    /// The test: pentanomial (pairwise results, in Elo) or payoff (the mean score per game, in the game's unit); default payoff for a game that ranks bots by their mean score (leduc), else pentanomial.
    #[arg(long, value_enum)]
    pub test: Option<TestKind>,
    /// Named bounds of the pentanomial test, in nElo, instead of --elo0 and --elo1 (see docs/sprt.md).
    #[arg(long, value_enum, conflicts_with_all = ["elo0", "elo1", "model"])]
    pub bounds: Option<Bounds>,
    /// H0 of the pentanomial test: new is this much better than base (or less), in the model's Elo (default 0).
    #[arg(long, allow_negative_numbers = true)]
    pub elo0: Option<f64>,
    /// H1 of the pentanomial test: new is this much better than base (or more), in the model's Elo (default 5).
    #[arg(long, allow_negative_numbers = true)]
    pub elo1: Option<f64>,
    /// The Elo scale of --elo0 and --elo1: normalized (nElo, the default) or logistic.
    #[arg(long)]
    pub model: Option<Model>,
    /// H0 of the payoff test: new wins this much per game from base (or less), in the game's unit, e.g. chips (default 0).
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["bounds", "elo0", "elo1", "model"])]
    pub payoff0: Option<f64>,
    /// H1 of the payoff test: new wins this much per game (or more), in the game's unit (default 0.2).
    #[arg(long, allow_negative_numbers = true, conflicts_with_all = ["bounds", "elo0", "elo1", "model"])]
    pub payoff1: Option<f64>,
    /// The probability of accepting H1 when H0 holds.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
}

/// Which test `arena sprt` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TestKind {
    /// Pairs of games by their pairwise results (which bot ends ahead), in Elo, as fishtest and fastchess.
    Pentanomial,
    /// Deals by the new bot's mean score (payoff) per game, in the game's unit.
    Payoff,
}

impl TestFlags {
    /// The test of a game named `game` scored as `scoring`.
    pub(super) fn resolve(&self, game: &str, scoring: Scoring) -> Result<Test, Failure> {
        let by_mean = if scoring.rank_by_mean { TestKind::Payoff } else { TestKind::Pentanomial };
        let (alpha, beta) = (self.alpha, self.beta);
        match self.test.unwrap_or(by_mean) {
            TestKind::Pentanomial => {
                if self.payoff0.is_some() || self.payoff1.is_some() {
                    return Err(usage(
                        "--payoff0 and --payoff1 are the bounds of the payoff test; the pentanomial test \
                         takes --elo0 and --elo1 (or --bounds), or add --test payoff",
                    ));
                }
                let (elo0, elo1) = match self.bounds {
                    Some(bounds) => bounds.elo(),
                    None => {
                        let (default0, default1) = Bounds::Fine.elo();
                        (self.elo0.unwrap_or(default0), self.elo1.unwrap_or(default1))
                    }
                };
                let model = self.model.unwrap_or(Model::Normalized);
                Ok(Test::Pentanomial(Sprt::new(elo0, elo1, alpha, beta, model)?))
            }
            TestKind::Payoff => {
                if self.bounds.is_some() || self.elo0.is_some() || self.elo1.is_some() || self.model.is_some() {
                    let why = match self.test {
                        Some(_) => "the payoff test".to_string(),
                        None => format!(
                            "{game} ranks bots by {}/game, so arena sprt runs the payoff test, which",
                            scoring.unit
                        ),
                    };
                    return Err(usage(format!(
                        "--bounds, --elo0, --elo1 and --model are the pentanomial test's (pairwise results, in Elo); \
                         {why} takes --payoff0 and --payoff1 in {}/game (default {PAYOFF0} and {PAYOFF1}); \
                         for the pentanomial test add --test pentanomial",
                        scoring.unit
                    )));
                }
                let (payoff0, payoff1) = (self.payoff0.unwrap_or(PAYOFF0), self.payoff1.unwrap_or(PAYOFF1));
                Ok(Test::Payoff(PayoffSprt::new(payoff0, payoff1, alpha, beta)?))
            }
        }
    }
}

/// Named SPRT bounds (H0 and H1 in nElo), for the size of change being
/// tested, as fishtest and OpenBench name theirs. Games to a verdict grow as
/// the square of 1 / (elo1 − elo0): a wide interval answers fast but only
/// tells apart large differences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Bounds {
    /// nElo [0, 40]: a change meant to matter a lot (a new heuristic);
    /// decided in tens of games when it is much better, in hundreds when it
    /// is no better.
    Quick,
    /// nElo [0, 20]: a change worth a clear gain; a few times the games of quick.
    Normal,
    /// nElo [0, 5] (the default): tuning, small gains; tens of times the games of quick.
    Fine,
    /// nElo [-10, 0]: a change that must not make the bot worse (a clean-up,
    /// a speed-up); H1 says it is not worse.
    NoRegression,
}

impl Bounds {
    /// H0 and H1, in nElo.
    pub fn elo(self) -> (f64, f64) {
        match self {
            Bounds::Quick => (0.0, 40.0),
            Bounds::Normal => (0.0, 20.0),
            Bounds::Fine => (0.0, 5.0),
            Bounds::NoRegression => (-10.0, 0.0),
        }
    }
}
