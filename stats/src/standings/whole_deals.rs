//! Standings that count a deal only once it is whole. Pure.
//!
//! A deal is played in every arrangement of every group's bots, and only
//! the whole deal is balanced: each bot of a group has then held each seat
//! equally often, and every group has played it. A run stopped in the middle
//! of a deal (Ctrl-C) keeps the deal's finished games in its records (a
//! resumed run counts them once it finishes the deal), but its standings
//! leave them out, so that they stay balanced.

use super::Standings;
use records::record::GameSummary;
use std::collections::BTreeMap;

/// Standings over whole deals, and the finished games of the deals that are not whole yet.
pub struct WholeDeals<'a> {
    standings: Standings,
    /// How many games of the run the deal of a game has, by the game's id.
    deal_games: Box<dyn Fn(u64) -> u64 + 'a>,
    /// By deal: its finished games not counted yet, and how many of its
    /// games the run has still to finish.
    pending: BTreeMap<u64, (Vec<GameSummary>, u64)>,
}

impl<'a> WholeDeals<'a> {
    /// `standings` (with no games yet) of a run that has `deal_games(id)`
    /// games to play of the deal of game `id` (not counting those `played`
    /// before it, which it counts too).
    pub fn new(standings: Standings, deal_games: impl Fn(u64) -> u64 + 'a, played: Vec<GameSummary>) -> WholeDeals<'a> {
        let mut counted = WholeDeals { standings, deal_games: Box::new(deal_games), pending: BTreeMap::new() };
        for game in played {
            counted.hold(game);
        }
        let whole: Vec<u64> =
            counted.pending.iter().filter(|(_, (_, missing))| *missing == 0).map(|(&d, _)| d).collect();
        for deal in whole {
            counted.count(deal);
        }
        counted
    }

    /// Adds a game the run finished; its deal is counted once it is whole.
    pub fn add(&mut self, game: &GameSummary) {
        let deal = game.origin.deal;
        let missing = self.hold(game.clone());
        *missing -= 1;
        if *missing == 0 {
            self.count(deal);
        }
    }

    /// The standings over the whole deals so far.
    pub fn standings(&self) -> &Standings {
        &self.standings
    }

    /// The finished games of deals that are not whole.
    pub fn unfinished(&self) -> u64 {
        self.pending.values().map(|(games, _)| games.len() as u64).sum()
    }

    /// The standings at the end of a run: over the whole deals only, or
    /// (`all`) over every game finished, for a run that ended where it meant
    /// to (its schedule played, or an SPRT at its verdict).
    pub fn into_standings(mut self, all: bool) -> Standings {
        if all {
            while let Some((&deal, _)) = self.pending.first_key_value() {
                self.count(deal);
            }
        }
        self.standings
    }

    /// Keeps `game` with the other finished games of its deal; returns how
    /// many of the deal's games the run has still to finish.
    fn hold(&mut self, game: GameSummary) -> &mut u64 {
        let deal_games = &self.deal_games;
        let (games, missing) =
            self.pending.entry(game.origin.deal).or_insert_with(|| (Vec::new(), deal_games(game.id)));
        games.push(game);
        missing
    }

    /// Counts the games held of `deal`, in id order, and closes it.
    fn count(&mut self, deal: u64) {
        let (mut games, _) = self.pending.remove(&deal).unwrap_or_default();
        games.sort_by_key(|game| game.id);
        for game in &games {
            self.standings.add(game);
        }
        self.standings.close_deal(deal);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::fixtures::{game_with_id, names};
    use game::Scoring;

    /// The seats of each game of a deal: every pair of 3 bots in both orders.
    const PAIRS: [[&str; 2]; 6] = [["a", "b"], ["b", "a"], ["a", "c"], ["c", "a"], ["b", "c"], ["c", "b"]];

    /// Game `id` (6 games a deal), won by its seat 0.
    fn finished(id: u64) -> GameSummary {
        let mut game = game_with_id(id, &PAIRS[id as usize % 6], &[1, 0], &[0, 1]);
        game.origin.deal = id / 6;
        game
    }

    fn games_of(standings: &Standings) -> Vec<u64> {
        standings.bots.iter().map(|b| b.games).collect()
    }

    #[test]
    fn a_deal_counts_once_every_game_of_it_has_finished() {
        // 2 deals of 6 games, resumed after games 0 and 7; game 9 is not to
        // be played (another shard's): 5 games of deal 0 to play, 4 of deal 1.
        let deal_games = |id: u64| if id / 6 == 0 { 5 } else { 4 };
        let run = |ids: &[u64]| {
            let played = vec![finished(0), finished(7)];
            let mut counted =
                WholeDeals::new(Standings::new(&names(&["a", "b", "c"]), Scoring::POINTS), deal_games, played);
            for &id in ids {
                counted.add(&finished(id));
            }
            counted
        };
        assert_eq!((run(&[]).standings().games, run(&[]).unfinished()), (0, 2));
        assert_eq!(run(&[2, 1, 3, 4, 6]).standings().games, 0, "deal 0 still lacks game 5");
        let stopped = run(&[2, 1, 3, 4, 6, 5, 8]);
        assert_eq!(games_of(stopped.standings()), [4, 4, 4], "deal 0, balanced");
        assert_eq!(stopped.unfinished(), 3, "games 6, 7 and 8 of deal 1");
        assert_eq!(games_of(&stopped.into_standings(false)), [4, 4, 4], "a stopped run counts whole deals");
        let ended = run(&[2, 1, 3, 4, 6, 5, 8]).into_standings(true);
        assert_eq!(games_of(&ended), [7, 6, 5], "a run that ended counts every game");
        let whole = run(&[2, 1, 3, 4, 6, 5, 8, 10, 11]);
        assert_eq!((whole.standings().games, whole.unfinished()), (11, 0), "deal 1 is whole without game 9");
    }
}
