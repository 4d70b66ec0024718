//! The sequential probability ratio test of `arena sprt`: is a new version of
//! a bot better than its base? Pure: no I/O, no knowledge of any game.
//!
//! - [`kind`]: which test runs (pentanomial or payoff) and what it counts.
//! - [`pairs`]: finished games to the test's evidence, deal by deal in schedule order.
//! - [`pentanomial`]: the counts of pairs, the Elo models, the Elo ± 95% estimate.
//! - [`test`](mod@test): the LLR, its bounds and the verdict, as fishtest and fastchess compute them.
//! - [`mle`]: the maximum-likelihood fits the LLR is made of.
//! - [`payoff`]: the test of a payoff game (chips), on the new bot's mean payoff per deal.
//! - [`report`]: the progress status, the final summary and `sprt.json`.

pub mod kind;
pub mod mle;
pub mod pairs;
pub mod payoff;
pub mod pentanomial;
pub mod report;
pub mod test;

pub use kind::Test;
pub use pairs::DealSequence;
pub use payoff::PayoffSprt;
pub use pentanomial::Model;
pub use test::Sprt;

use std::fmt;

/// Why a test cannot run as asked.
#[derive(Debug, Clone, PartialEq)]
pub enum SprtError {
    /// An Elo model the test does not have.
    UnknownModel {
        /// The model as given.
        text: String,
    },
    /// An error rate (`--alpha`, `--beta`) not between 0 and 1.
    ErrorRate {
        /// Its flag.
        flag: &'static str,
        /// Its value.
        value: f64,
    },
    /// Error rates whose sum is 1 or more.
    ErrorRates {
        /// Their sum.
        sum: f64,
    },
    /// `--elo0` not less than `--elo1` (or either not finite).
    EloBounds {
        /// The Elo difference of H0.
        elo0: f64,
        /// The Elo difference of H1.
        elo1: f64,
    },
    /// `--payoff0` not less than `--payoff1` (or either not finite).
    PayoffBounds {
        /// The mean payoff of H0.
        payoff0: f64,
        /// The mean payoff of H1.
        payoff1: f64,
    },
    /// The pentanomial test of a game whose results do not pair up within a game or a deal.
    Unpaired {
        /// The new bot's results in each game, one per copy of the base bot.
        results_per_game: usize,
    },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::UnknownModel { text } => {
                write!(f, "unknown Elo model {text:?}; the models are normalized and logistic")
            }
            SprtError::ErrorRate { flag, value } => write!(f, "{flag} ({value}) must be between 0 and 1, e.g. 0.05"),
            SprtError::ErrorRates { sum } => write!(f, "--alpha + --beta ({sum}) must be less than 1"),
            SprtError::EloBounds { elo0, elo1 } => write!(f, "--elo0 ({elo0}) must be less than --elo1 ({elo1})"),
            SprtError::PayoffBounds { payoff0, payoff1 } => {
                write!(f, "--payoff0 ({payoff0}) must be less than --payoff1 ({payoff1})")
            }
            SprtError::Unpaired { results_per_game } => write!(
                f,
                "with {} sides, each game gives the new bot {results_per_game} results (one against each copy of \
                 the base bot), which do not pair up within a game or a deal; play 2 or 3 players, or 4 in \
                 partnerships",
                results_per_game + 1
            ),
        }
    }
}

impl std::error::Error for SprtError {}
