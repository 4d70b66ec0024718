//! Weng–Lin ratings (the Bayesian approximation behind OpenSkill) for
//! free-for-all games of 3 or more sides, from the `skillratings` crate.
//!
//! Weng–Lin updates ratings game by game, so the result depends on the order
//! of the games. To make it independent of the order games *finish* in, only
//! a compact record of each game (where it is in the schedule and each bot's
//! place) is kept, and the ratings are computed by feeding the games in
//! schedule order: by deal, then by group (the bots in the game, as a list of
//! their numbers in increasing order, compared lexicographically), then by
//! arrangement, then by id. That is the id order of a league's games, and
//! also that of a league that gained bots (whose new groups' games come
//! after the old ones, ids aside) had it had every bot from the start.
//! Every game is one multi-team game whose teams are its sides, each a single
//! bot, ranked by the bot's place (equal places tie). The defaults of
//! `skillratings` apply: every bot starts at μ = 25, σ = 25/3, with β = 25/6.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use std::sync::Arc;

pub use records::standings::WengLin;

/// One free-for-all game: where it is in the schedule and the place of each bot in it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct FreeForAllGame {
    deal: u64,
    /// The bots in the game, in bot order: its group.
    group: Vec<usize>,
    arrangement: usize,
    id: u64,
    /// `(bot, place)`, in bot order.
    places: Vec<(usize, u32)>,
}

/// Where a game is in its schedule: deal, arrangement, id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// The deal.
    pub deal: u64,
    /// The arrangement of the deal.
    pub arrangement: usize,
    /// The game's id.
    pub id: u64,
}

/// How many games a chunk of [`FreeForAll`]'s holds once filled.
const CHUNK: usize = 1024;

/// The free-for-all games of a match, for Weng–Lin ratings of `n` bots.
///
/// Kept in chunks of 1,024 games (`CHUNK`), each shared once filled, so that a
/// copy (as a run hands its standings to its live page a few times a second)
/// copies only the games of the chunk being filled, not every game so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FreeForAll {
    n: usize,
    filled: Vec<Arc<[FreeForAllGame]>>,
    filling: Vec<FreeForAllGame>,
}

impl FreeForAll {
    /// No games yet, for `n` bots.
    pub fn new(n: usize) -> FreeForAll {
        FreeForAll { n, filled: Vec::new(), filling: Vec::new() }
    }

    /// Adds the game at `at`, given each bot's place (`None` for bots not in it).
    /// Games with fewer than 3 bots are not free-for-alls and are ignored.
    pub fn add_game(&mut self, at: Position, places: &[Option<u32>]) {
        assert_eq!(places.len(), self.n, "one place per bot");
        let places: Vec<(usize, u32)> =
            places.iter().enumerate().filter_map(|(bot, place)| place.map(|p| (bot, p))).collect();
        if places.len() >= 3 {
            let group = places.iter().map(|&(bot, _)| bot).collect();
            let Position { deal, arrangement, id } = at;
            self.filling.push(FreeForAllGame { deal, group, arrangement, id, places });
            if self.filling.len() == CHUNK {
                self.filled.push(std::mem::take(&mut self.filling).into());
            }
        }
    }

    /// The number of free-for-all games added.
    pub fn games(&self) -> usize {
        self.filled.len() * CHUNK + self.filling.len()
    }

    /// Each bot's rating after every game in schedule order; `None` for a
    /// bot that played no free-for-all game.
    pub fn ratings(&self) -> Vec<Option<WengLin>> {
        let mut games: Vec<&FreeForAllGame> =
            self.filled.iter().flat_map(|chunk| chunk.iter()).chain(&self.filling).collect();
        // The places only order games that share a position (never in a run).
        games.sort();
        let config = WengLinConfig::new();
        let mut ratings = vec![WengLinRating::new(); self.n];
        let mut played = vec![false; self.n];
        for game in games {
            let teams: Vec<[WengLinRating; 1]> = game.places.iter().map(|&(bot, _)| [ratings[bot]]).collect();
            let teams_and_ranks: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(&game.places)
                .map(|(team, &(_, place))| (&team[..], MultiTeamOutcome::new(place as usize)))
                .collect();
            let updated = weng_lin_multi_team(&teams_and_ranks, &config);
            for (team, &(bot, _)) in updated.iter().zip(&game.places) {
                ratings[bot] = team[0];
                played[bot] = true;
            }
        }
        ratings
            .iter()
            .zip(played)
            .map(|(r, played)| played.then_some(WengLin { mu: r.rating, sigma: r.uncertainty }))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game `id` of deal 0, arrangement 0.
    fn at(id: u64) -> Position {
        Position { deal: 0, arrangement: 0, id }
    }

    fn games() -> Vec<(u64, Vec<Option<u32>>)> {
        vec![
            (0, vec![Some(0), Some(1), Some(2), None]),
            (1, vec![Some(2), Some(0), Some(1), None]),
            (2, vec![Some(0), Some(2), Some(1), None]),
            (3, vec![Some(1), Some(1), Some(0), None]),
            (4, vec![Some(0), Some(2), Some(2), None]),
        ]
    }

    #[test]
    fn the_ids_decide_the_order() {
        let mut forward = FreeForAll::new(4);
        for (id, places) in games() {
            forward.add_game(at(id), &places);
        }
        let mut backward = FreeForAll::new(4);
        for (id, places) in games().into_iter().rev() {
            backward.add_game(at(id), &places);
        }
        assert_ne!(forward, backward, "added in different orders");
        assert_eq!(forward.ratings(), backward.ratings());
        // Feeding the same games with other ids (another order) changes the ratings.
        let mut renumbered = FreeForAll::new(4);
        for (id, places) in games() {
            renumbered.add_game(at(10 - id), &places);
        }
        assert_ne!(forward.ratings(), renumbered.ratings());
        assert_eq!(forward.ratings()[3], None);
        assert_eq!(forward.games(), 5);
    }

    #[test]
    fn the_schedule_decides_the_order_before_the_ids() {
        // Three bots at two deals, then a fourth bot's groups at the same
        // deals under later ids, as a league that grew has them …
        let games = [
            (Position { deal: 0, arrangement: 0, id: 0 }, [Some(0), Some(1), Some(2), None]),
            (Position { deal: 0, arrangement: 1, id: 1 }, [Some(2), Some(0), Some(1), None]),
            (Position { deal: 1, arrangement: 0, id: 2 }, [Some(1), Some(2), Some(0), None]),
            (Position { deal: 0, arrangement: 0, id: 3 }, [Some(0), None, Some(1), Some(2)]),
            (Position { deal: 1, arrangement: 0, id: 4 }, [None, Some(2), Some(0), Some(1)]),
        ];
        let mut grown = FreeForAll::new(4);
        for (position, places) in &games {
            grown.add_game(*position, places);
        }
        // … and a league that had the four from the start numbers them.
        let mut whole = FreeForAll::new(4);
        for (id, (position, places)) in [0, 1, 3, 2, 4].into_iter().map(|i| &games[i]).enumerate() {
            whole.add_game(Position { id: id as u64, ..*position }, places);
        }
        assert_eq!(grown.ratings(), whole.ratings());
        let mut by_id = FreeForAll::new(4);
        for (id, (_, places)) in games.iter().enumerate() {
            by_id.add_game(at(id as u64), places);
        }
        assert_ne!(grown.ratings(), by_id.ratings(), "the order matters");
    }

    #[test]
    fn a_bot_that_always_wins_rates_highest() {
        let mut ffa = FreeForAll::new(3);
        for id in 0..20 {
            let rotate = |k: u64| Some(1 + ((id + k) % 2) as u32);
            ffa.add_game(at(id), &[Some(0), rotate(0), rotate(1)]);
        }
        let ratings: Vec<WengLin> = ffa.ratings().into_iter().map(Option::unwrap).collect();
        assert!(ratings[0].mu > ratings[1].mu + 5.0 && ratings[0].mu > ratings[2].mu + 5.0, "{ratings:?}");
        assert!(ratings.iter().all(|r| r.sigma < 25.0 / 3.0));
        // The first game alone: the winner gains, the last loses, from μ = 25.
        let mut one = FreeForAll::new(3);
        one.add_game(at(0), &[Some(0), Some(1), Some(2)]);
        let one = one.ratings();
        assert!(one[0].unwrap().mu > 25.0 && one[2].unwrap().mu < 25.0);
        assert!((one[1].unwrap().mu - 25.0).abs() < 1e-9, "the middle place is even");
    }

    #[test]
    fn two_sided_games_are_not_free_for_alls() {
        let mut ffa = FreeForAll::new(3);
        ffa.add_game(at(0), &[Some(0), Some(1), None]);
        assert_eq!(ffa.games(), 0);
        assert_eq!(ffa.ratings(), vec![None, None, None]);
    }

    #[test]
    fn a_copy_shares_the_filled_chunks_and_rates_as_the_games_do() {
        let mut ffa = FreeForAll::new(3);
        let places = |id: u64| [Some((id % 3) as u32), Some(((id + 1) % 3) as u32), Some(((id + 2) % 3) as u32)];
        for id in 0..(2 * CHUNK as u64 + 5) {
            ffa.add_game(at(id), &places(id));
        }
        let copy = ffa.clone();
        assert_eq!((copy.games(), copy.filled.len()), (2 * CHUNK + 5, 2));
        assert!(Arc::ptr_eq(&copy.filled[1], &ffa.filled[1]), "a filled chunk is shared, not copied");
        let mut whole = FreeForAll::new(3);
        whole.filling =
            copy.filled.iter().flat_map(|chunk| chunk.iter().cloned()).chain(copy.filling.clone()).collect();
        assert_eq!(copy.ratings(), whole.ratings(), "the games of every chunk are rated");
    }
}
