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

pub(crate) mod kind;
pub(crate) mod mle;
pub(crate) mod pairs;
pub(crate) mod payoff;
pub(crate) mod pentanomial;
pub(crate) mod report;
pub(crate) mod test;

pub use kind::Test;
pub use pairs::DealSequence;
pub use payoff::PayoffSprt;
pub use pentanomial::Model;
pub use test::Sprt;
