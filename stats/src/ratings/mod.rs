//! Ratings from finished games. Pure and deterministic.
//!
//! - [`pairwise`]: every game as one result between each pair of bots in it,
//!   tallied so that the order of the games does not matter.
//! - [`elo`]: Elo ratings by maximum likelihood (Bradley–Terry), their
//!   covariance, 95% intervals and the likelihood of superiority.
//! - [`weng_lin`]: Weng–Lin ratings for free-for-all games of 3 or more sides.
//! - [`normal`]: the error function and the normal distribution function.
//!
//! [`RatingTally`] keeps what both ratings need, fed one game at a time.

pub mod elo;
mod linalg;
pub mod normal;
pub mod pairwise;
pub mod weng_lin;

pub use elo::Elo;
pub use pairwise::Pairwise;
pub use weng_lin::{FreeForAll, WengLin};

use records::record::GameSummary;

/// What the ratings of `n` bots are computed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingTally {
    names: Vec<String>,
    /// The pairwise results.
    pub pairwise: Pairwise,
    /// The free-for-all games.
    pub free_for_all: FreeForAll,
}

impl RatingTally {
    /// An empty tally for these bots.
    pub fn new(names: &[String]) -> RatingTally {
        RatingTally {
            names: names.to_vec(),
            pairwise: Pairwise::new(names.len()),
            free_for_all: FreeForAll::new(names.len()),
        }
    }

    /// Adds one finished game. Bots not in the tally are ignored.
    pub fn add(&mut self, game: &GameSummary) {
        let places = pairwise::places(game, &self.names);
        self.pairwise.add_game(&places);
        let at = weng_lin::Position { deal: game.origin.deal, arrangement: game.origin.arrangement, id: game.id };
        self.free_for_all.add_game(at, &places);
    }

    /// The Elo ratings.
    pub fn elo(&self) -> Elo {
        Elo::fit(&self.pairwise)
    }

    /// The Weng–Lin ratings, `None` when no game had 3 or more sides.
    pub fn weng_lin(&self) -> Option<Vec<Option<WengLin>>> {
        (self.free_for_all.games() > 0).then(|| self.free_for_all.ratings())
    }
}
