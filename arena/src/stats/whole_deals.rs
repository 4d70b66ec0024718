//! Standings that count a deal only once it is whole. Pure.
//!
//! A deal is played in every arrangement of every group's bots, and only
//! the whole deal is balanced: each bot of a group has then held each seat
//! equally often, and every group has played it. A run stopped in the middle
//! of a deal (Ctrl-C) keeps the deal's finished games in its records (a
//! resumed run counts them once it finishes the deal), but its standings
//! leave them out, so that they stay balanced.

use crate::schedule::{Schedule, Selection};
use crate::stats::standings::Standings;
use crate::store::record::GameSummary;
use std::collections::BTreeMap;

/// Standings over whole deals, and the finished games of the deals that are not whole yet.
pub struct WholeDeals<'a> {
    standings: Standings,
    schedule: &'a Schedule,
    selection: &'a Selection,
    /// By deal: its finished games not counted yet, and how many of its
    /// games the run has still to finish.
    pending: BTreeMap<u64, (Vec<GameSummary>, u64)>,
}

impl<'a> WholeDeals<'a> {
    /// `standings` (with no games yet) of a run playing the games of
    /// `schedule` in `selection`, after the games `played` before it.
    pub fn new(
        standings: Standings,
        schedule: &'a Schedule,
        selection: &'a Selection,
        played: Vec<GameSummary>,
    ) -> WholeDeals<'a> {
        let mut counted = WholeDeals { standings, schedule, selection, pending: BTreeMap::new() };
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
        let (schedule, selection) = (self.schedule, self.selection);
        let (games, missing) = self.pending.entry(game.origin.deal).or_insert_with(|| {
            (Vec::new(), schedule.same_deal(game.id).into_iter().filter(|&id| selection.contains(id)).count() as u64)
        });
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
    use crate::schedule::{Format, Seating, groups};
    use crate::stats::standings::fixtures::{game_with_id, names};
    use game::Scoring;

    const BOTS: [&str; 3] = ["a", "b", "c"];

    /// Game `id` of `schedule`, won by its seat 0.
    fn finished(schedule: &Schedule, id: u64) -> GameSummary {
        let spec = schedule.get(id).unwrap();
        let seated: Vec<&str> = spec.seats.iter().map(|&b| BOTS[b]).collect();
        let mut game = game_with_id(id, &seated, &[1, 0], &[0, 1]);
        game.origin.deal = spec.deal;
        game
    }

    fn games_of(standings: &Standings) -> Vec<u64> {
        standings.bots.iter().map(|b| b.games).collect()
    }

    #[test]
    fn a_deal_counts_once_every_game_of_it_has_finished() {
        // 3 pairs × 2 seatings: 6 games a deal, 2 deals.
        let pairs = groups(Format::RoundRobin, 3, 2);
        let schedule = Schedule::league(1, &[vec![0], vec![1]], &pairs, Seating::EveryOrder, 4).unwrap();
        // Resumed after games 0 and 7; game 9 is not to be played (another shard's).
        let selection = Selection::new(&schedule, None, |id| [0, 7, 9].contains(&id));
        let run = |ids: &[u64]| {
            let played = vec![finished(&schedule, 0), finished(&schedule, 7)];
            let mut counted =
                WholeDeals::new(Standings::new(&names(&BOTS), Scoring::POINTS), &schedule, &selection, played);
            for &id in ids {
                counted.add(&finished(&schedule, id));
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
