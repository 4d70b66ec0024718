//! The sequential probability ratio test of `arena sprt`: is a new version of
//! a bot better than its base? Pure: no I/O, no knowledge of any game.
//!
//! - [`pairs`]: finished games to pentanomial pairs, deal by deal in schedule order.
//! - [`pentanomial`]: the counts of pairs, the Elo models, the Elo ± 95% estimate.
//! - [`test`](mod@test): the LLR, its bounds and the verdict, as fishtest and fastchess compute them.
//! - [`mle`]: the maximum-likelihood fits the LLR is made of.
//! - [`report`]: the progress status, the final summary and `sprt.json`.

pub mod mle;
pub mod pairs;
pub mod pentanomial;
pub mod report;
pub mod test;

pub use pairs::DealSequence;
pub use pentanomial::{Estimate, Model, Pentanomial};
pub use test::{Hypothesis, Sprt};
