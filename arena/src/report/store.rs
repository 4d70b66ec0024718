//! The games of a report held compactly: a fixed-size row per game, the
//! seats of every game in shared arrays, the bots and the reasons each
//! stored once, and the faults (rare) aside. A two-player game takes 128
//! bytes (an 80-byte row, 48 bytes of seats): a million about 130 MB, against
//! about 0.9 KB a game as [`GameSummary`]s. Pure.

use crate::store::record::{FaultRecord, GameResult, GameSummary, Origin};
use std::collections::{BTreeMap, HashMap};

/// One game: its fields of fixed size, and where its seats are.
#[derive(Debug, Clone, Copy)]
struct Row {
    id: u64,
    deal: u64,
    seed: u64,
    /// Where its line is in the records: byte offset.
    offset: u64,
    /// Its line's length in bytes.
    length: u32,
    arrangement: u32,
    bots: Part,
    bot_seeds: Part,
    scores: Part,
    ranks: Part,
    reason: u32,
    faulty: bool,
}

/// Where a game's part of a shared array is.
#[derive(Debug, Clone, Copy)]
struct Part {
    first: u32,
    len: u16,
}

impl Part {
    /// Appends `items` to `array`: their part.
    fn push<T: Copy>(array: &mut Vec<T>, items: &[T]) -> Part {
        let part = Part { first: array.len() as u32, len: items.len() as u16 };
        array.extend_from_slice(items);
        part
    }

    /// The part of `array`.
    fn of<T>(self, array: &[T]) -> &[T] {
        &array[self.first as usize..self.first as usize + self.len as usize]
    }
}

/// Strings stored once each, by number.
#[derive(Debug, Default)]
struct Interned {
    strings: Vec<String>,
    numbers: HashMap<String, u32>,
}

impl Interned {
    fn number(&mut self, text: &str) -> u32 {
        if let Some(&number) = self.numbers.get(text) {
            return number;
        }
        let number = self.strings.len() as u32;
        self.strings.push(text.to_string());
        self.numbers.insert(text.to_string(), number);
        number
    }
}

/// The games, compactly; in id order once [`GameStore::sort`] has run.
#[derive(Debug, Default)]
pub struct GameStore {
    rows: Vec<Row>,
    bots: Vec<u32>,
    bot_seeds: Vec<u64>,
    scores: Vec<i64>,
    ranks: Vec<u32>,
    names: Interned,
    reasons: Interned,
    /// The faults of the faulty games, by where their bots start in `bots`.
    faults: BTreeMap<u32, Vec<FaultRecord>>,
}

impl GameStore {
    /// Adds `game`, whose line is `length` bytes at `offset` of the records.
    pub fn push(&mut self, game: &GameSummary, (offset, length): (u64, usize)) {
        let numbers: Vec<u32> = game.bots.iter().map(|name| self.names.number(name)).collect();
        let bots = Part::push(&mut self.bots, &numbers);
        if !game.faults.is_empty() {
            self.faults.insert(bots.first, game.faults.clone());
        }
        let reason = self.reasons.number(&game.result.reason);
        self.rows.push(Row {
            id: game.id,
            deal: game.origin.deal,
            seed: game.origin.seed,
            offset,
            length: length as u32,
            arrangement: game.origin.arrangement as u32,
            bots,
            bot_seeds: Part::push(&mut self.bot_seeds, &game.origin.bot_seeds),
            scores: Part::push(&mut self.scores, &game.result.scores),
            ranks: Part::push(&mut self.ranks, &game.result.ranks),
            reason,
            faulty: !game.faults.is_empty(),
        });
    }

    /// Puts the games in id order.
    pub fn sort(&mut self) {
        self.rows.sort_by_key(|row| row.id);
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Game `at` (in order) as its summary.
    pub fn get(&self, at: usize) -> GameSummary {
        let row = &self.rows[at];
        let game = self.listed(at);
        GameSummary {
            id: row.id,
            origin: Origin {
                deal: row.deal,
                arrangement: row.arrangement as usize,
                seed: row.seed,
                bot_seeds: row.bot_seeds.of(&self.bot_seeds).to_vec(),
            },
            bots: game.bots.iter().map(|&b| self.names.strings[b as usize].clone()).collect(),
            result: GameResult {
                reason: game.reason.to_string(),
                scores: game.scores.to_vec(),
                ranks: game.ranks.to_vec(),
            },
            faults: game.faults.to_vec(),
        }
    }

    /// Every game as its summary, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = GameSummary> + '_ {
        (0..self.len()).map(|at| self.get(at))
    }

    /// Whether each game (in order) has a fault.
    pub fn faulty(&self) -> Vec<bool> {
        self.rows.iter().map(|row| row.faulty).collect()
    }

    /// Where each game's line is (byte offset, length), in order.
    pub fn spans(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.rows.iter().map(|row| (row.offset, row.length as usize))
    }

    /// Game `at`'s id, deal, and its seats' bots (as numbers of [`GameStore::names`]),
    /// places and scores, reason, and faults (seat, kind): what the game list shows.
    pub fn listed(&self, at: usize) -> Listing<'_> {
        let row = &self.rows[at];
        Listing {
            id: row.id,
            deal: row.deal,
            bots: row.bots.of(&self.bots),
            ranks: row.ranks.of(&self.ranks),
            scores: row.scores.of(&self.scores),
            reason: &self.reasons.strings[row.reason as usize],
            faults: self.faults.get(&row.bots.first).map(Vec::as_slice).unwrap_or_default(),
        }
    }

    /// The bots the games name, by number.
    pub fn names(&self) -> &[String] {
        &self.names.strings
    }
}

/// A game as the game list shows it, borrowed from a [`GameStore`].
#[derive(Debug, Clone, Copy)]
pub struct Listing<'a> {
    /// The game's id.
    pub id: u64,
    /// Its deal.
    pub deal: u64,
    /// The bot of each seat, as its number among [`GameStore::names`].
    pub bots: &'a [u32],
    /// Each seat's place.
    pub ranks: &'a [u32],
    /// Each seat's score.
    pub scores: &'a [i64],
    /// Why it ended.
    pub reason: &'a str,
    /// Its faults.
    pub faults: &'a [FaultRecord],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::standings::fixtures::results;

    #[test]
    fn games_come_back_as_they_went_in_and_in_id_order() {
        let mut games = results("a", "b", 3, 1, 2);
        for (at, game) in games.iter_mut().enumerate() {
            (game.id, game.origin.deal, game.origin.seed) = (10 - at as u64, at as u64 / 2, 99 + at as u64);
        }
        games[2].faults.push(FaultRecord {
            seat: 1,
            bot: "b".into(),
            kind: crate::bot::fault::FaultKind::Timeout,
            message: "slow".into(),
            stderr: vec![],
        });
        let mut store = GameStore::default();
        for (at, game) in games.iter().enumerate() {
            store.push(game, (at as u64 * 100, 90));
        }
        store.sort();
        games.reverse();
        assert_eq!(store.iter().collect::<Vec<_>>(), games);
        assert_eq!(store.faulty().iter().filter(|&&f| f).count(), 1);
        assert_eq!(store.spans().next(), Some((500, 90)));
        assert_eq!(store.names(), ["a", "b"]);
        assert_eq!(store.listed(3).faults.len(), 1);
        assert!(std::mem::size_of::<Row>() <= 80, "a row is {} bytes", std::mem::size_of::<Row>());
    }
}
