//! Which bots sit where in each game. Pure: the schedule is a function of
//! the configuration alone, so every game has a stable id, and a league can
//! be resumed or split into shards by id.
//!
//! Games are played in *duplicate deals*: every deal is played once in each
//! seat rotation, so every bot holds every seat's tiles once. With `k` sides
//! (the seats that score together: one seat each in a free-for-all, two
//! partners in a partnership game) and a group of `k` bots, rotation `r`
//! gives side `t` to the group's bot `(t + r) mod k`. Every group plays the
//! same deals: deal `d` has the same seed in every group.

use crate::seeds;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One game of a schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's id: its position in the schedule, from 0.
    pub id: u64,
    /// The deal number; all rotations of a deal share its seed.
    pub deal: u64,
    /// The seat rotation, from 0.
    pub rotation: usize,
    /// The seed the game is set up from.
    pub seed: u64,
    /// For each seat, the index of the bot that plays it.
    pub seats: Vec<usize>,
}

/// Who meets whom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every group of `k` bots (every pair, with two sides) plays.
    RoundRobin,
    /// The first bot plays every group of `k - 1` of the others.
    Gauntlet,
}

impl FromStr for Format {
    type Err = String;
    fn from_str(text: &str) -> Result<Format, String> {
        match text {
            "round-robin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            other => Err(format!("unknown format {other:?}; the formats are round-robin and gauntlet")),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

/// The groups of `sides` bots (out of `bots`) that meet, each in increasing
/// bot order, in lexicographic order.
pub fn groups(format: Format, bots: usize, sides: usize) -> Vec<Vec<usize>> {
    match format {
        Format::RoundRobin => combinations(0, bots, sides),
        Format::Gauntlet if bots == 0 => Vec::new(),
        Format::Gauntlet => combinations(1, bots, sides.saturating_sub(1))
            .into_iter()
            .map(|rest| std::iter::once(0).chain(rest).collect())
            .collect(),
    }
}

/// Every `size`-subset of `from..to`, each in increasing order, lexicographically.
fn combinations(from: usize, to: usize, size: usize) -> Vec<Vec<usize>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for first in from..to {
        for rest in combinations(first + 1, to, size - 1) {
            all.push(std::iter::once(first).chain(rest).collect());
        }
    }
    all
}

/// The most games one schedule may hold: more than the arena plays in a day
/// with the fastest bots, and a run keeps one bit per game of its schedule
/// (12.5 MB at most).
pub const MAX_GAMES: u64 = 100_000_000;

/// The schedule of a league: for each group, at least `games` games,
/// rounded up to whole rotations. Games are ordered deal by deal (every group
/// plays deal 0 in every rotation, then deal 1, …), so any prefix of the
/// schedule is balanced. A game is computed from its id when asked for, so a
/// schedule takes the same memory whatever its length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    seed: u64,
    teams: Vec<Vec<usize>>,
    groups: Vec<Vec<usize>>,
    deals: u64,
}

impl Schedule {
    /// The games of `groups` of bots, `games` per group (rounded up to whole
    /// rotations); an error when that is more than [`MAX_GAMES`] in all.
    pub fn league(seed: u64, teams: &[Vec<usize>], groups: &[Vec<usize>], games: u64) -> Result<Schedule, String> {
        let sides = teams.len().max(1) as u64;
        let schedule = Schedule { seed, teams: teams.to_vec(), groups: groups.to_vec(), deals: games.div_ceil(sides) };
        match schedule.checked_len() {
            Some(len) if len <= MAX_GAMES => Ok(schedule),
            len => Err(format!(
                "{} deals × {} groups of bots × {sides} seat rotations is {} games; a run may schedule at most {MAX_GAMES}",
                schedule.deals,
                groups.len(),
                len.map_or_else(|| "more".to_string(), |len| len.to_string())
            )),
        }
    }

    /// A match between `teams.len()` bots: one group, bot `b` starting on side `b`.
    pub fn duplicate_match(seed: u64, teams: &[Vec<usize>], games: u64) -> Result<Schedule, String> {
        Schedule::league(seed, teams, &[(0..teams.len()).collect()], games)
    }

    /// The number of games, `None` if it does not fit in a `u64`.
    fn checked_len(&self) -> Option<u64> {
        self.deals.checked_mul(self.groups.len() as u64)?.checked_mul(self.sides())
    }

    fn sides(&self) -> u64 {
        self.teams.len().max(1) as u64
    }

    /// The number of games (at most [`MAX_GAMES`], checked when the schedule was made).
    pub fn len(&self) -> u64 {
        self.checked_len().expect("a schedule's length is checked when it is made")
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `id`, if the schedule has it.
    pub fn get(&self, id: u64) -> Option<GameSpec> {
        if id >= self.len() {
            return None;
        }
        let sides = self.sides();
        let per_deal = self.groups.len() as u64 * sides;
        let deal = id / per_deal;
        let group = &self.groups[((id % per_deal) / sides) as usize];
        let rotation = (id % sides) as usize;
        let mut seats = vec![0; self.teams.iter().map(Vec::len).sum()];
        for (side, members) in self.teams.iter().enumerate() {
            for &seat in members {
                seats[seat] = group[(side + rotation) % sides as usize];
            }
        }
        Some(GameSpec { id, deal, rotation, seed: seeds::deal_seed(self.seed, deal), seats })
    }

    /// Every game, in id order.
    pub fn iter(&self) -> impl Iterator<Item = GameSpec> + '_ {
        (0..self.len()).filter_map(|id| self.get(id))
    }
}

/// The games of a run: those of its shard that were not played before, kept
/// as one bit per game of the schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    bits: Vec<u64>,
    count: u64,
}

impl Selection {
    /// The games of `schedule` in `shard` (all if none) whose id `done` does not contain.
    pub fn new(schedule: &Schedule, shard: Option<Shard>, done: impl Fn(u64) -> bool) -> Selection {
        let len = schedule.len();
        let mut bits = vec![0u64; len.div_ceil(64) as usize];
        let mut count = 0;
        for id in 0..len {
            if shard.is_none_or(|s| s.contains(id)) && !done(id) {
                bits[(id / 64) as usize] |= 1 << (id % 64);
                count += 1;
            }
        }
        Selection { bits, count }
    }

    /// Whether game `id` is to be played.
    pub fn contains(&self, id: u64) -> bool {
        self.bits.get((id / 64) as usize).is_some_and(|word| word >> (id % 64) & 1 == 1)
    }

    /// How many games are to be played.
    pub fn count(&self) -> u64 {
        self.count
    }
}

/// A part of a schedule: shard `index` of `count` plays the games whose id
/// is `index` modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// Whether game `id` belongs to this shard.
    pub fn contains(&self, id: u64) -> bool {
        id % self.count == self.index
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {text:?}: expected K/N with 0 <= K < N, e.g. 0/4");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = index.trim().parse().map_err(|_| bad())?;
        let count: u64 = count.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn free_for_all(players: usize) -> Vec<Vec<usize>> {
        (0..players).map(|seat| vec![seat]).collect()
    }

    fn partnership() -> Vec<Vec<usize>> {
        vec![vec![0, 2], vec![1, 3]]
    }

    fn league(seed: u64, teams: &[Vec<usize>], groups: &[Vec<usize>], games: u64) -> Vec<GameSpec> {
        Schedule::league(seed, teams, groups, games).unwrap().iter().collect()
    }

    fn duplicate_match(seed: u64, teams: &[Vec<usize>], games: u64) -> Vec<GameSpec> {
        Schedule::duplicate_match(seed, teams, games).unwrap().iter().collect()
    }

    #[test]
    fn games_round_up_to_whole_rotations() {
        assert_eq!(duplicate_match(1, &free_for_all(2), 5).len(), 6);
        assert_eq!(duplicate_match(1, &free_for_all(3), 7).len(), 9);
        assert_eq!(duplicate_match(1, &free_for_all(2), 0).len(), 0);
        assert_eq!(Schedule::duplicate_match(1, &free_for_all(2), 5).unwrap().get(6), None);
    }

    #[test]
    fn a_schedule_longer_than_the_limit_is_refused_even_past_u64() {
        let groups: Vec<Vec<usize>> = (0..10).map(|b| vec![b, b + 1]).collect();
        assert_eq!(Schedule::league(1, &free_for_all(2), &groups, MAX_GAMES / 10).unwrap().len(), MAX_GAMES);
        let err = Schedule::league(1, &free_for_all(2), &groups, MAX_GAMES / 10 + 2).unwrap_err();
        assert!(err.contains("is 100000020 games; a run may schedule at most 100000000"), "{err}");
        // u64::MAX games, in 2^63 deals of two games: the product overflows.
        let err = Schedule::duplicate_match(1, &free_for_all(2), u64::MAX).unwrap_err();
        assert!(err.contains("9223372036854775808 deals × 1 groups of bots × 2 seat rotations is more games"), "{err}");
    }

    #[test]
    fn a_selection_keeps_the_shard_minus_what_was_played() {
        let schedule = Schedule::duplicate_match(1, &free_for_all(2), 200).unwrap();
        let shard = Some(Shard { index: 1, count: 3 });
        let selection = Selection::new(&schedule, shard, |id| id == 4 || id == 7);
        let ids: Vec<u64> = (0..200).filter(|&id| selection.contains(id)).collect();
        let expected: Vec<u64> = (0..200).filter(|id| id % 3 == 1 && *id != 4 && *id != 7).collect();
        assert_eq!(ids, expected);
        assert_eq!(selection.count(), expected.len() as u64);
        assert!(!selection.contains(10_000));
    }

    #[test]
    fn round_robin_and_gauntlet_groups() {
        assert_eq!(groups(Format::RoundRobin, 4, 2), vec![[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
        assert_eq!(groups(Format::RoundRobin, 4, 3), vec![[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]);
        assert_eq!(groups(Format::RoundRobin, 5, 4).len(), 5);
        assert_eq!(groups(Format::Gauntlet, 4, 2), vec![[0, 1], [0, 2], [0, 3]]);
        assert_eq!(groups(Format::Gauntlet, 4, 3), vec![[0, 1, 2], [0, 1, 3], [0, 2, 3]]);
        assert!(groups(Format::RoundRobin, 2, 3).is_empty(), "too few bots for a group");
    }

    /// For each schedule: every group plays `games` games (rounded up), every
    /// bot of a group holds every seat equally often, and each deal is played
    /// in every rotation by every group with one seed.
    fn check_balance(teams: &[Vec<usize>], bots: usize, format: Format, games: u64) {
        let sides = teams.len();
        let groups = groups(format, bots, sides);
        let specs = league(42, teams, &groups, games);
        let per_group = games.div_ceil(sides as u64) * sides as u64;
        assert_eq!(specs.len() as u64, per_group * groups.len() as u64);
        for (i, spec) in specs.iter().enumerate() {
            assert_eq!(spec.id, i as u64, "ids are positions");
        }
        for group in &groups {
            let mine: Vec<&GameSpec> = specs
                .iter()
                .filter(|g| {
                    let mut present: Vec<usize> = g.seats.clone();
                    present.sort();
                    present.dedup();
                    &present == group
                })
                .collect();
            assert_eq!(mine.len() as u64, per_group, "games of group {group:?}");
            let mut seat_counts: BTreeMap<(usize, usize), u64> = BTreeMap::new();
            for game in &mine {
                for (seat, &bot) in game.seats.iter().enumerate() {
                    *seat_counts.entry((bot, seat)).or_default() += 1;
                }
            }
            for &bot in group {
                for seat in 0..game_seats(teams) {
                    let expected = if sides == teams.iter().map(Vec::len).sum::<usize>() {
                        per_group / sides as u64
                    } else {
                        // partnerships: a bot holds both seats of its side
                        per_group / 2
                    };
                    assert_eq!(seat_counts.get(&(bot, seat)).copied().unwrap_or(0), expected, "bot {bot} seat {seat}");
                }
            }
            for deal in mine.chunks(sides) {
                assert!(deal.iter().all(|g| g.seed == deal[0].seed && g.deal == deal[0].deal));
                let rotations: Vec<usize> = deal.iter().map(|g| g.rotation).collect();
                assert_eq!(rotations, (0..sides).collect::<Vec<_>>());
            }
        }
        let first_deal_seeds: Vec<u64> = specs.iter().filter(|g| g.deal == 0).map(|g| g.seed).collect();
        assert!(first_deal_seeds.iter().all(|&s| s == first_deal_seeds[0]), "every group plays the same deals");
    }

    fn game_seats(teams: &[Vec<usize>]) -> usize {
        teams.iter().map(Vec::len).sum()
    }

    #[test]
    fn every_bot_holds_every_seat_equally_often() {
        for format in [Format::RoundRobin, Format::Gauntlet] {
            check_balance(&free_for_all(2), 5, format, 10);
            check_balance(&free_for_all(3), 4, format, 9);
            check_balance(&free_for_all(4), 5, format, 8);
            check_balance(&partnership(), 3, format, 6);
        }
    }

    #[test]
    fn partners_sit_opposite_and_swap_sides() {
        let specs = duplicate_match(3, &partnership(), 2);
        assert_eq!(specs[0].seats, vec![0, 1, 0, 1]);
        assert_eq!(specs[1].seats, vec![1, 0, 1, 0]);
        assert_eq!(specs[0].seed, specs[1].seed);
        assert_eq!((specs[1].id, specs[1].deal, specs[1].rotation), (1, 0, 1));
    }

    #[test]
    fn a_prefix_of_the_schedule_is_balanced() {
        let groups = groups(Format::RoundRobin, 3, 2);
        let specs = league(1, &free_for_all(2), &groups, 20);
        // After each deal, every group has played the same number of games.
        assert_eq!(specs[..6].iter().filter(|g| g.deal == 0).count(), 6);
        assert!(specs[6..12].iter().all(|g| g.deal == 1));
    }

    #[test]
    fn shards_split_the_schedule() {
        let shard: Shard = "1/3".parse().unwrap();
        assert_eq!(shard, Shard { index: 1, count: 3 });
        let ids: Vec<u64> = (0..10).filter(|&id| shard.contains(id)).collect();
        assert_eq!(ids, vec![1, 4, 7]);
        for bad in ["3/3", "1", "a/b", "0/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(shard.to_string(), "1/3");
    }
}
