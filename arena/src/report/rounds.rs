//! The course of a learning league (see [`crate::league::learning`]): after each
//! round, how many pairs of bots adjacent in the table had their order known
//! and how close that table was to the last one. Pure.

use crate::league::learning::{known_adjacent, spearman, table};
use crate::stats::ratings::RatingTally;
use crate::store::record::GameSummary;
use serde::Serialize;

/// A learning league after one of its rounds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Round {
    /// The pairs the round played.
    pub pairs: usize,
    /// The games counted after it (those of the rounds up to it).
    pub games: u64,
    /// The pairs of bots adjacent in the table then whose order was known at
    /// [`crate::league::learning::CONFIDENCE`].
    pub known: usize,
    /// The pairs of bots adjacent in the table then (one fewer than the bots rated).
    pub adjacent: usize,
    /// Spearman's rank correlation of the table then with the table of every
    /// game (the standings' order), over the bots rated then.
    pub spearman: f64,
}

/// The rounds of a learning league of `names` that chose `rounds`, each
/// pair playing `per_pair` games a round, from its `games` (in id order: a
/// round's games take the ids after those of the rounds before it).
pub fn rounds<I: Iterator<Item = GameSummary>>(
    names: &[String],
    games: impl Fn() -> I,
    rounds: &[Vec<Vec<usize>>],
    per_pair: u64,
) -> Vec<Round> {
    let mut tally = RatingTally::new(names);
    let ranked = |tally: &RatingTally| {
        let elo = tally.elo();
        let rated: Vec<usize> = (0..names.len()).filter(|&bot| elo.rating(bot).is_some()).collect();
        (table(&elo, &rated), elo)
    };
    let mut all = RatingTally::new(names);
    games().for_each(|game| all.add(&game));
    let (last, _) = ranked(&all);
    let mut next = games().peekable();
    let (mut end, mut counted) = (0, 0);
    let mut course = Vec::new();
    for pairs in rounds {
        end += pairs.len() as u64 * per_pair;
        while let Some(game) = next.next_if(|game| game.id < end) {
            tally.add(&game);
            counted += 1;
        }
        let (now, elo) = ranked(&tally);
        let then: Vec<usize> = last.iter().copied().filter(|bot| now.contains(bot)).collect();
        course.push(Round {
            pairs: pairs.len(),
            games: counted,
            known: known_adjacent(&elo, &now),
            adjacent: now.len().saturating_sub(1),
            spearman: spearman(&then, &now).unwrap_or(1.0),
        });
    }
    course
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::standings::fixtures::{game_with_id, names};

    /// Game `id` of `a` against `b`, won by `a`.
    fn won(id: u64, a: &str, b: &str) -> GameSummary {
        game_with_id(id, &[a, b], &[250, 10], &[0, 1])
    }

    #[test]
    fn each_round_counts_its_games_and_compares_its_table_with_the_last() {
        let names = names(&["a", "b", "c"]);
        // Round 1: c beats b, b beats a (2 games each); round 2: a beats c twice.
        let mut games = vec![won(0, "c", "b"), won(1, "c", "b"), won(2, "b", "a"), won(3, "b", "a")];
        games.extend((4..6).map(|id| won(id, "a", "c")));
        let chosen = vec![vec![vec![1, 2], vec![0, 1]], vec![vec![0, 2]]];
        let course = rounds(&names, || games.iter().cloned(), &chosen, 2);
        assert_eq!(course.len(), 2);
        assert_eq!((course[0].pairs, course[0].games, course[0].adjacent), (2, 4, 2));
        assert_eq!((course[1].pairs, course[1].games), (1, 6));
        assert_eq!(course[1].spearman, 1.0, "the last round's table is the standings'");
        assert!(course.iter().all(|round| round.known <= round.adjacent));
        // A round not played yet counts no games.
        let course = rounds(&names, || games[..4].iter().cloned(), &chosen, 2);
        assert_eq!(course[1].games, 4);
    }
}
