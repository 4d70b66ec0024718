//! How the Elo ratings moved as the games were played: the same fit as the
//! standings ([`crate::stats::ratings::RatingTally`]), re-run on growing prefixes of
//! the games in schedule (id) order. Pure.

use crate::stats::ratings::RatingTally;
use crate::store::record::GameSummary;
use serde::Serialize;
use std::borrow::Borrow;

/// The ratings after the first `games` games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Checkpoint {
    /// How many games (the first ones, by id) are counted.
    pub games: u64,
    /// Each bot's Elo rating and the half-width of its 95% interval, in the
    /// order of the names given; `None` while a bot has no result.
    pub elo: Vec<Option<(f64, f64)>>,
}

/// The ratings of `names` after every batch of about `games.len() / points`
/// games of `games` (in id order), a batch ending only where a deal does (so
/// that every arrangement of a deal is in or out together), and after the
/// last game: at most about `points` checkpoints, the last being the ratings
/// of every game, as in the standings.
pub fn history<G: Borrow<GameSummary>>(
    names: &[String],
    games: impl ExactSizeIterator<Item = G>,
    points: usize,
) -> Vec<Checkpoint> {
    let count = games.len();
    let step = count.div_ceil(points.max(1)).max(1);
    let mut tally = RatingTally::new(names);
    let mut checkpoints = Vec::new();
    let mut since = 0;
    let mut games = games.peekable();
    let mut at = 0;
    while let Some(game) = games.next() {
        let game = game.borrow();
        tally.add(game);
        since += 1;
        let deal_ends = games.peek().is_none_or(|next| next.borrow().origin.deal != game.origin.deal);
        if (since >= step && deal_ends) || at + 1 == count {
            let elo = tally.elo();
            let ratings = (0..names.len()).map(|i| elo.rating(i).zip(elo.interval(i))).collect();
            checkpoints.push(Checkpoint { games: at as u64 + 1, elo: ratings });
            since = 0;
        }
        at += 1;
    }
    checkpoints
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::standings::fixtures::{names, results, standings};

    /// `games` with deal numbers: two games (both arrangements) per deal.
    fn dealt(mut games: Vec<GameSummary>) -> Vec<GameSummary> {
        for (at, game) in games.iter_mut().enumerate() {
            game.id = at as u64;
            game.origin.deal = at as u64 / 2;
        }
        games
    }

    #[test]
    fn the_last_checkpoint_is_the_standings_and_batches_end_with_deals() {
        let games = dealt(results("a", "b", 30, 5, 15));
        let points = history(&names(&["a", "b"]), games.iter(), 7);
        // 50 games in batches of 8 (rounded up to whole deals) and the last.
        let counted: Vec<u64> = points.iter().map(|p| p.games).collect();
        assert_eq!(counted, [8, 16, 24, 32, 40, 48, 50]);
        let ranking = standings(&["a", "b"], &games);
        let elo = ranking.ranking().elo;
        let last = points.last().unwrap();
        assert_eq!(last.elo[0], Some((elo.rating(0).unwrap(), elo.interval(0).unwrap())));
        assert_eq!(last.elo[1].map(|(r, _)| r), elo.rating(1));
        // The intervals shrink as games are added.
        assert!(points[0].elo[0].unwrap().1 > last.elo[0].unwrap().1);
    }

    #[test]
    fn odd_batches_wait_for_the_end_of_their_deal_and_bots_without_games_have_none() {
        let games = dealt(results("a", "b", 3, 0, 3));
        let points = history(&names(&["a", "b", "idle"]), games.iter(), 6);
        assert_eq!(points.iter().map(|p| p.games).collect::<Vec<_>>(), [2, 4, 6]);
        assert!(points.iter().all(|p| p.elo[2].is_none()));
        assert!(history(&names(&["a"]), Vec::<GameSummary>::new().into_iter(), 10).is_empty());
    }
}
