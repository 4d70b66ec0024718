//! Which bots sit where in each game. Pure: the schedule is a function of
//! the configuration alone, so every game has a stable id, and a league can
//! be resumed or split into shards by id.
//!
//! Beside it: [`seeds`] (every seed derived from the match seed) and
//! [`clock`] (time controls and the clock each seat runs on).
//!
//! Games are played in *duplicate deals*: every deal is played once in each
//! *arrangement* of a group's bots over the sides (the seats that score
//! together: one seat each in a free-for-all, two partners in a partnership
//! game), so every bot holds every seat's tiles, and, with 3 or 4 sides,
//! every bot also sits after every other bot equally often: who plays right
//! after whom decides a lot in a game where a player can block the next one.
//! With `k` sides that is all `k!` orders (2 with two sides, 6 with three,
//! 24 with four; for four sides no smaller set of orders can seat every bot
//! after every other equally often, since the complete directed graph on 4
//! vertices has no decomposition into directed Hamiltonian cycles (Tillson,
//! 1980)). Every group plays the same deals: deal `d` has the same seed in
//! every group (but in a learning league's rounds, where each group plays
//! deals of its own: [`Schedule::rounds`]).

pub mod clock;
pub mod seeds;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One game of a schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's id: its position in the schedule, from 0.
    pub id: u64,
    /// The deal number; all arrangements of a deal share its seed.
    pub deal: u64,
    /// The arrangement of the group's bots over the sides, from 0 (see [`Seating`]).
    pub arrangement: usize,
    /// The seed the game is set up from.
    pub seed: u64,
    /// For each seat, the index of the bot that plays it.
    pub seats: Vec<usize>,
    /// For each seat, the seed its bot is told in `game_start`.
    pub bot_seeds: Vec<u64>,
}

impl GameSpec {
    /// The id its bots are told ([`seeds::game_tag`]): opaque.
    pub fn tag(&self) -> u64 {
        seeds::game_tag(self.seed, self.id)
    }

    /// The key of its place in play order ([`seeds::play_key`]).
    pub fn play_key(&self) -> u64 {
        seeds::play_key(self.seed, self.id)
    }
}

/// Which arrangements of a group's bots over the sides a deal is played in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seating {
    /// Every order: arrangement `a` is the `a`th permutation of the group in
    /// lexicographic order, side `t` going to the group's bot `p[t]`. For bots
    /// that are all different.
    EveryOrder,
    /// The `k` rotations: in arrangement `a`, side `t` goes to the group's
    /// bot `(t + a) mod k`. Enough when the bots other than the first are
    /// copies of one bot (an SPRT at three players), since orders that differ
    /// only in where the copies sit are the same game.
    Rotations,
}

impl Seating {
    /// The arrangements of a group of `sides` bots: for each, the group
    /// member that plays each side.
    pub fn arrangements(self, sides: usize) -> Vec<Vec<usize>> {
        match self {
            Seating::EveryOrder => permutations(sides),
            Seating::Rotations => (0..sides).map(|a| (0..sides).map(|t| (t + a) % sides).collect()).collect(),
        }
    }

    /// How many arrangements a group of `sides` bots has: the games each
    /// group plays of one deal.
    pub fn games_per_deal(self, sides: usize) -> u64 {
        match self {
            Seating::EveryOrder => (1..=sides as u64).product(),
            Seating::Rotations => sides.max(1) as u64,
        }
    }
}

/// Every permutation of `0..n`, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for first in 0..n {
        for rest in permutations(n - 1) {
            let tail = rest.into_iter().map(|x| if x >= first { x + 1 } else { x });
            all.push(std::iter::once(first).chain(tail).collect());
        }
    }
    all
}

/// Who meets whom.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every group of `k` bots (every pair, with two sides) plays: the default.
    #[default]
    RoundRobin,
    /// The first bot plays every group of `k - 1` of the others.
    Gauntlet,
    /// Pairs chosen round by round by what their games would teach (see
    /// [`crate::league::learning`]), until the order is known or a budget is spent.
    Learning,
    /// Rounds of pairs of like score that have not met (see [`crate::league::swiss`]).
    Swiss,
}

impl Format {
    /// Whether the league chooses its pairs round by round from the results
    /// of the rounds before (learning and Swiss), rather than all at its start.
    pub fn has_rounds(self) -> bool {
        matches!(self, Format::Learning | Format::Swiss)
    }
}

/// Why a schedule, or a part of one, cannot be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScheduleError {
    /// A format no league has.
    UnknownFormat {
        /// The format as given.
        text: String,
    },
    /// A shard that is not `K/N` with `0 <= K < N`.
    BadShard {
        /// The shard as given.
        text: String,
    },
    /// More games than [`MAX_GAMES`].
    TooManyGames {
        /// The deals of each group.
        deals: u64,
        /// The groups, of every stage.
        groups: usize,
        /// The games of a group for each deal: one per seat order.
        per_deal: u64,
        /// The games in all, when that is a `u64`.
        games: Option<u64>,
    },
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::UnknownFormat { text } => {
                write!(f, "unknown format {text:?}; the formats are round-robin, gauntlet, learning and swiss")
            }
            ScheduleError::BadShard { text } => write!(f, "--shard {text:?}: expected K/N with 0 <= K < N, e.g. 0/4"),
            ScheduleError::TooManyGames { deals, groups, per_deal, games } => write!(
                f,
                "{deals} deals × {groups} groups of bots × {per_deal} seat orders is {} games; a run may schedule at \
                 most {MAX_GAMES}",
                games.map_or_else(|| "more".to_string(), |games| games.to_string())
            ),
        }
    }
}

impl std::error::Error for ScheduleError {}

impl FromStr for Format {
    type Err = ScheduleError;
    fn from_str(text: &str) -> Result<Format, ScheduleError> {
        match text {
            "round-robin" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            "learning" => Ok(Format::Learning),
            "swiss" => Ok(Format::Swiss),
            other => Err(ScheduleError::UnknownFormat { text: other.to_string() }),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Learning => "learning",
            Format::Swiss => "swiss",
        })
    }
}

/// The groups of `sides` bots (out of `bots`) that meet, each in increasing
/// bot order, in lexicographic order. A learning league's groups are chosen
/// as it plays (see [`crate::league::learning`]): those it may choose from are every
/// group of the round robin.
pub fn groups(format: Format, bots: usize, sides: usize) -> Vec<Vec<usize>> {
    match format {
        Format::RoundRobin | Format::Learning | Format::Swiss => combinations(0, bots, sides),
        Format::Gauntlet if bots == 0 => Vec::new(),
        Format::Gauntlet => combinations(1, bots, sides.saturating_sub(1))
            .into_iter()
            .map(|rest| std::iter::once(0).chain(rest).collect())
            .collect(),
    }
}

/// The groups a change of a league's field creates: the groups of `format`
/// among the bots `active` after the change (increasing bot numbers) that
/// hold at least one of the bots `entering` (increasing too), each in increasing bot order,
/// in lexicographic order. They are exactly the groups of those bots that a
/// league of all of them from the start would have and the league before
/// the change did not. A gauntlet's groups all hold bot 0, so once it has
/// retired (is not `active`), no group is created.
pub fn entering_groups(format: Format, active: &[usize], entering: &[usize], sides: usize) -> Vec<Vec<usize>> {
    if format == Format::Gauntlet && active.first() != Some(&0) {
        return Vec::new();
    }
    groups(format, active.len(), sides)
        .into_iter()
        .map(|group| group.into_iter().map(|at| active[at]).collect::<Vec<usize>>())
        .filter(|group| group.iter().any(|bot| entering.binary_search(bot).is_ok()))
        .collect()
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
/// rounded up to whole deals (every arrangement of the deal). Games are
/// ordered deal by deal (every group plays deal 0 in every arrangement, then
/// deal 1, …), so any prefix of the schedule is balanced. A league whose
/// field grew has one *stage* of groups for each change (see
/// [`entering_groups`]): each stage's games follow those of the stages
/// before it, in the same order, so the ids of the earlier games stay what
/// they were. Deal `d` has the same seeds in every group of every stage that
/// plays it. A
/// game is computed from its id when asked for, so a schedule takes the same
/// memory whatever its length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    seed: u64,
    teams: Vec<Vec<usize>>,
    /// The groups of every stage, stage after stage.
    groups: Vec<Vec<usize>>,
    /// Where each stage starts, in stage order.
    stages: Vec<Stage>,
    arrangements: Vec<Vec<usize>>,
    deals: u64,
}

/// Where a stage of a schedule starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stage {
    /// The index in [`Schedule::groups`] of its first group.
    first_group: usize,
    /// How many groups it has.
    groups: usize,
    /// The id of its first game.
    first_id: u64,
    /// The number of its first deal: 0, but for a round of a learning
    /// league, which plays the deals after those of the rounds before it.
    first_deal: u64,
    /// Whether every group plays the stage's deals (a league's stage), or
    /// each group deals of its own (a learning league's round).
    shared_deals: bool,
}

impl Schedule {
    /// The games of `groups` of bots, seated as `seating` says, `games` per
    /// group (rounded up to whole deals); an error when that is more than
    /// [`MAX_GAMES`] in all.
    pub fn league(
        seed: u64,
        teams: &[Vec<usize>],
        groups: &[Vec<usize>],
        seating: Seating,
        games: u64,
    ) -> Result<Schedule, ScheduleError> {
        Schedule::staged(seed, teams, &[groups.to_vec()], seating, games)
    }

    /// The games of a league whose groups came in `stages` (the groups of
    /// its start, then those each change of its field created), seated as
    /// `seating` says, `games` per group (rounded up to whole deals); an
    /// error when that is more than [`MAX_GAMES`] in all.
    pub fn staged(
        seed: u64,
        teams: &[Vec<usize>],
        stages: &[Vec<Vec<usize>>],
        seating: Seating,
        games: u64,
    ) -> Result<Schedule, ScheduleError> {
        Schedule::built(seed, teams, stages, seating, games, false)
    }

    /// The games of a learning league's `rounds` of groups, seated as
    /// `seating` says, `games` per group of each round (rounded up to whole
    /// deals, `D` of them): like [`Schedule::staged`], one stage a round, but
    /// each group of a round plays deals of its own, after those of the
    /// rounds before (group `g` of a round whose first deal is `f` plays
    /// deals `f + g·D` to `f + g·D + D − 1`, group after group). So a group
    /// that meets in several rounds plays new deals each time, a bot plays
    /// new deals in each of its groups, and the games of a round, no two of
    /// one deal, can all be in flight at once (a run plays no two games of
    /// a deal at the same time). Game ids go group after group, each group's
    /// deals in order, each deal in every arrangement.
    pub fn rounds(
        seed: u64,
        teams: &[Vec<usize>],
        rounds: &[Vec<Vec<usize>>],
        seating: Seating,
        games: u64,
    ) -> Result<Schedule, ScheduleError> {
        Schedule::built(seed, teams, rounds, seating, games, true)
    }

    /// [`Schedule::staged`], or with `rounds` [`Schedule::rounds`].
    fn built(
        seed: u64,
        teams: &[Vec<usize>],
        stages: &[Vec<Vec<usize>>],
        seating: Seating,
        games: u64,
        rounds: bool,
    ) -> Result<Schedule, ScheduleError> {
        let arrangements = seating.arrangements(teams.len());
        let per_deal = arrangements.len() as u64;
        let deals = games.div_ceil(per_deal);
        let mut schedule =
            Schedule { seed, teams: teams.to_vec(), groups: Vec::new(), stages: Vec::new(), arrangements, deals };
        let mut first_id = Some(0u64);
        let mut first_deal = 0u64;
        for groups in stages {
            let first_group = schedule.groups.len();
            let start = first_id.unwrap_or(u64::MAX);
            let shared_deals = !rounds;
            schedule.stages.push(Stage {
                first_group,
                groups: groups.len(),
                first_id: start,
                first_deal,
                shared_deals,
            });
            if rounds {
                first_deal = first_deal.saturating_add(deals.saturating_mul(groups.len() as u64));
            }
            schedule.groups.extend_from_slice(groups);
            let games = deals.checked_mul(groups.len() as u64).and_then(|g| g.checked_mul(per_deal));
            first_id = first_id.zip(games).and_then(|(id, games)| id.checked_add(games));
        }
        match first_id {
            Some(len) if len <= MAX_GAMES => Ok(schedule),
            games => Err(ScheduleError::TooManyGames { deals, groups: schedule.groups.len(), per_deal, games }),
        }
    }

    /// A match between `teams.len()` different bots: one group, in every order.
    pub fn duplicate_match(seed: u64, teams: &[Vec<usize>], games: u64) -> Result<Schedule, ScheduleError> {
        Schedule::league(seed, teams, &[(0..teams.len()).collect()], Seating::EveryOrder, games)
    }

    /// The games each group plays of one deal: one per arrangement.
    pub fn games_per_deal(&self) -> u64 {
        self.arrangements.len() as u64
    }

    /// The games of one deal in `stage`: one per arrangement of each of its
    /// groups, or of its one group if each group has deals of its own.
    fn per_deal(&self, stage: &Stage) -> u64 {
        match stage.shared_deals {
            true => stage.groups as u64 * self.games_per_deal(),
            false => self.games_per_deal(),
        }
    }

    /// The games of `stage`.
    fn stage_len(&self, stage: &Stage) -> u64 {
        self.deals * stage.groups as u64 * self.games_per_deal()
    }

    /// How many deals `stage` deals.
    fn stage_deals(&self, stage: &Stage) -> u64 {
        match stage.shared_deals {
            true => self.deals,
            false => self.deals * stage.groups as u64,
        }
    }

    /// The number of games (at most [`MAX_GAMES`], checked when the schedule was made).
    pub fn len(&self) -> u64 {
        self.stages.last().map_or(0, |last| last.first_id + self.stage_len(last))
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The stage that game `id` (less than [`Schedule::len`]) is in. A stage
    /// without groups starts where the next one does, and is passed over.
    fn stage_of(&self, id: u64) -> &Stage {
        &self.stages[self.stages.partition_point(|stage| stage.first_id <= id) - 1]
    }

    /// Stage `index` (0 for the first): its groups and the ids of its games.
    pub fn stage(&self, index: usize) -> Option<(&[Vec<usize>], std::ops::Range<u64>)> {
        let stage = self.stages.get(index)?;
        let groups = &self.groups[stage.first_group..stage.first_group + stage.groups];
        Some((groups, stage.first_id..stage.first_id + self.stage_len(stage)))
    }

    /// The group of game `id` (the bots that play it, in increasing order),
    /// if the schedule has the game.
    pub fn group_of(&self, id: u64) -> Option<&[usize]> {
        (id < self.len()).then(|| {
            let stage = self.stage_of(id);
            let group = match stage.shared_deals {
                true => (id - stage.first_id) % self.per_deal(stage) / self.games_per_deal(),
                false => (id - stage.first_id) / (self.deals * self.games_per_deal()),
            };
            self.groups[stage.first_group + group as usize].as_slice()
        })
    }

    /// Game `id`, if the schedule has it.
    pub fn get(&self, id: u64) -> Option<GameSpec> {
        let group = self.group_of(id)?;
        let stage = self.stage_of(id);
        let deal = stage.first_deal + (id - stage.first_id) / self.per_deal(stage);
        let arrangement = ((id - stage.first_id) % self.games_per_deal()) as usize;
        let order = &self.arrangements[arrangement];
        let mut seats = vec![0; self.teams.iter().map(Vec::len).sum()];
        for (side, members) in self.teams.iter().enumerate() {
            for &seat in members {
                seats[seat] = group[order[side]];
            }
        }
        let bot_seeds = (0..seats.len()).map(|seat| seeds::bot_seed(self.seed, deal, seat)).collect();
        Some(GameSpec { id, deal, arrangement, seed: seeds::deal_seed(self.seed, deal), seats, bot_seeds })
    }

    /// The ids of the games of deal `deal`: every arrangement of it in every
    /// group that plays it, stage after stage.
    pub fn deal_ids(&self, deal: u64) -> impl Iterator<Item = u64> + '_ {
        self.stages.iter().flat_map(move |stage| {
            let per_deal = self.per_deal(stage);
            let within = deal.checked_sub(stage.first_deal).filter(|&d| d < self.stage_deals(stage));
            let start = stage.first_id + within.unwrap_or(0) * per_deal;
            start..start + if within.is_some() { per_deal } else { 0 }
        })
    }

    /// The ids of the games of one deal in one stage, the first being
    /// `start` (0, or where the deal before ended): every arrangement of
    /// the deal in every group of the stage that plays it.
    pub fn deal_games(&self, start: u64) -> std::ops::Range<u64> {
        if start >= self.len() {
            return start..start;
        }
        start..start + self.per_deal(self.stage_of(start))
    }

    /// The games of a deal (from [`Schedule::deal_games`]) in the order a run
    /// plays them: by their keys ([`GameSpec::play_key`]), a keyed shuffle of
    /// its groups and orders that only the deal's seed reproduces, so that
    /// which of them a bot meets first has nothing to do with how they go.
    pub fn in_play_order(&self, games: std::ops::Range<u64>) -> Vec<u64> {
        let Some(first) = self.get(games.start) else { return Vec::new() };
        let mut tagged: Vec<(u64, u64)> = games.map(|id| (seeds::play_key(first.seed, id), id)).collect();
        tagged.sort_unstable();
        tagged.into_iter().map(|(_, id)| id).collect()
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
    type Err = ScheduleError;
    fn from_str(text: &str) -> Result<Shard, ScheduleError> {
        let bad = || ScheduleError::BadShard { text: text.to_string() };
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
        Schedule::league(seed, teams, groups, Seating::EveryOrder, games).unwrap().iter().collect()
    }

    fn duplicate_match(seed: u64, teams: &[Vec<usize>], games: u64) -> Vec<GameSpec> {
        Schedule::duplicate_match(seed, teams, games).unwrap().iter().collect()
    }

    #[test]
    fn games_round_up_to_whole_deals() {
        assert_eq!(duplicate_match(1, &free_for_all(2), 5).len(), 6);
        assert_eq!(duplicate_match(1, &free_for_all(3), 7).len(), 12, "6 orders of 3 bots");
        assert_eq!(duplicate_match(1, &free_for_all(4), 20).len(), 24, "24 orders of 4 bots");
        assert_eq!(duplicate_match(1, &partnership(), 3).len(), 4, "2 orientations");
        assert_eq!(duplicate_match(1, &free_for_all(2), 0).len(), 0);
        assert_eq!(Schedule::duplicate_match(1, &free_for_all(2), 5).unwrap().get(6), None);
        let rotations = Schedule::league(1, &free_for_all(3), &[vec![0, 1, 2]], Seating::Rotations, 7).unwrap();
        assert_eq!((rotations.len(), rotations.games_per_deal()), (9, 3));
    }

    #[test]
    fn a_schedule_longer_than_the_limit_is_refused_even_past_u64() {
        let groups: Vec<Vec<usize>> = (0..10).map(|b| vec![b, b + 1]).collect();
        let league = |games| Schedule::league(1, &free_for_all(2), &groups, Seating::EveryOrder, games);
        assert_eq!(league(MAX_GAMES / 10).unwrap().len(), MAX_GAMES);
        let err = league(MAX_GAMES / 10 + 2).unwrap_err().to_string();
        assert!(err.contains("is 100000020 games; a run may schedule at most 100000000"), "{err}");
        // u64::MAX games, in 2^63 deals of two games: the product overflows.
        let err = Schedule::duplicate_match(1, &free_for_all(2), u64::MAX).unwrap_err().to_string();
        assert!(err.contains("9223372036854775808 deals × 1 groups of bots × 2 seat orders is more games"), "{err}");
    }

    #[test]
    fn arrangements_are_the_orders_or_the_rotations() {
        for seating in [Seating::EveryOrder, Seating::Rotations] {
            for sides in 1..=4 {
                assert_eq!(seating.arrangements(sides).len() as u64, seating.games_per_deal(sides));
            }
        }
        assert_eq!(Seating::EveryOrder.arrangements(2), [[0, 1], [1, 0]]);
        assert_eq!(
            Seating::EveryOrder.arrangements(3),
            [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        );
        let four = Seating::EveryOrder.arrangements(4);
        assert_eq!(four.len(), 24);
        assert!(four.windows(2).all(|w| w[0] < w[1]), "lexicographic, no repeats");
        assert_eq!(Seating::Rotations.arrangements(3), [[0, 1, 2], [1, 2, 0], [2, 0, 1]]);
        assert_eq!(Seating::Rotations.arrangements(2), Seating::EveryOrder.arrangements(2));
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

    /// For each schedule: every group plays `games` games (rounded up), each
    /// deal in every arrangement with one seed; every bot of a group holds
    /// every seat equally often and, in a free-for-all, follows every other
    /// bot of its group (sits in the next seat) equally often.
    fn check_balance(teams: &[Vec<usize>], bots: usize, format: Format, games: u64) {
        let sides = teams.len();
        let seats = game_seats(teams);
        let orders: u64 = (1..=sides as u64).product();
        let groups = groups(format, bots, sides);
        let specs = league(42, teams, &groups, games);
        let per_group = games.div_ceil(orders) * orders;
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
            let mut follows: BTreeMap<(usize, usize), u64> = BTreeMap::new();
            for game in &mine {
                for (seat, &bot) in game.seats.iter().enumerate() {
                    *seat_counts.entry((bot, seat)).or_default() += 1;
                    *follows.entry((game.seats[(seat + seats - 1) % seats], bot)).or_default() += 1;
                }
            }
            for &bot in group {
                for seat in 0..seats {
                    // In a partnership a bot holds both seats of its side.
                    let expected = per_group * (seats / sides) as u64 / seats as u64;
                    assert_eq!(seat_counts.get(&(bot, seat)).copied().unwrap_or(0), expected, "bot {bot} seat {seat}");
                }
                if sides == seats && sides > 2 {
                    for &before in group.iter().filter(|&&b| b != bot) {
                        let expected = per_group / (sides as u64 - 1);
                        assert_eq!(follows[&(before, bot)], expected, "bot {bot} after bot {before}");
                    }
                }
            }
            for deal in mine.chunks(orders as usize) {
                assert!(deal.iter().all(|g| g.seed == deal[0].seed && g.deal == deal[0].deal));
                let arrangements: Vec<usize> = deal.iter().map(|g| g.arrangement).collect();
                assert_eq!(arrangements, (0..orders as usize).collect::<Vec<_>>());
                let mut seatings: Vec<&Vec<usize>> = deal.iter().map(|g| &g.seats).collect();
                seatings.sort();
                seatings.dedup();
                assert_eq!(seatings.len() as u64, orders, "no seating repeats within a deal");
            }
        }
        let first_deal_seeds: Vec<u64> = specs.iter().filter(|g| g.deal == 0).map(|g| g.seed).collect();
        assert!(first_deal_seeds.iter().all(|&s| s == first_deal_seeds[0]), "every group plays the same deals");
    }

    fn game_seats(teams: &[Vec<usize>]) -> usize {
        teams.iter().map(Vec::len).sum()
    }

    #[test]
    fn every_bot_holds_every_seat_and_follows_every_other_equally_often() {
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
        assert_eq!((specs[1].id, specs[1].deal, specs[1].arrangement), (1, 0, 1));
    }

    #[test]
    fn a_prefix_of_the_schedule_is_balanced() {
        let groups = groups(Format::RoundRobin, 3, 2);
        let specs = league(1, &free_for_all(2), &groups, 20);
        // After each deal, every group has played the same number of games.
        assert_eq!(specs[..6].iter().filter(|g| g.deal == 0).count(), 6);
        assert!(specs[6..12].iter().all(|g| g.deal == 1));
        let schedule = Schedule::league(1, &free_for_all(2), &groups, Seating::EveryOrder, 20).unwrap();
        assert!(schedule.deal_ids(1).eq(6..12));
        assert!(schedule.iter().all(|g| schedule.deal_ids(g.deal).any(|id| id == g.id)));
        assert_eq!(schedule.deal_ids(10).count(), 0, "past the end");
    }

    #[test]
    fn each_group_of_a_round_plays_deals_of_its_own_after_those_of_the_rounds_before() {
        // Three rounds: 2 pairs, then 3, then 1; 4 games (2 deals) a pair.
        let rounds = [vec![vec![0, 1], vec![2, 3]], vec![vec![0, 2], vec![1, 3], vec![0, 1]], vec![vec![1, 2]]];
        let schedule = Schedule::rounds(5, &free_for_all(2), &rounds, Seating::EveryOrder, 3).unwrap();
        assert_eq!(schedule.len(), 6 * 4);
        let specs: Vec<GameSpec> = schedule.iter().collect();
        // Group after group, each group's deals in order, each deal in both seat orders.
        let deals: Vec<u64> = specs.iter().map(|g| g.deal).collect();
        assert_eq!(deals, (0..12).flat_map(|d| [d, d]).collect::<Vec<_>>());
        let groups: Vec<&[usize]> = (0..schedule.len()).map(|id| schedule.group_of(id).unwrap()).collect();
        let chosen: Vec<&[usize]> = rounds.iter().flatten().flat_map(|g| [g.as_slice(); 4]).collect();
        assert_eq!(groups, chosen);
        for deal in specs.chunks(2) {
            assert_eq!((deal[0].seed, deal[0].arrangement, deal[1].arrangement), (deal[1].seed, 0, 1));
            assert_eq!(deal[0].seed, seeds::deal_seed(5, deal[0].deal));
        }
        // A pair that meets again, in the same round or a later one, plays new deals.
        let of_pair: Vec<u64> = specs.iter().filter(|g| groups[g.id as usize] == [0, 1]).map(|g| g.deal).collect();
        assert_eq!(of_pair, [0, 0, 1, 1, 8, 8, 9, 9]);
        // Every deal is one group's, and the dealer finds its games.
        for spec in &specs {
            assert!(schedule.deal_ids(spec.deal).eq(spec.deal * 2..spec.deal * 2 + 2));
            assert_eq!(schedule.deal_games(spec.deal * 2), spec.deal * 2..spec.deal * 2 + 2);
        }
        assert_eq!(schedule.deal_ids(12).count(), 0, "past the end");
        assert_eq!(schedule.stage(1).map(|(groups, ids)| (groups.len(), ids)), Some((3, 8..20)));
        // The rounds before a round are a prefix: its ids and deals stay.
        let fewer = Schedule::rounds(5, &free_for_all(2), &rounds[..2], Seating::EveryOrder, 3).unwrap();
        assert!(fewer.iter().eq(schedule.iter().take(20)));
    }

    #[test]
    fn a_change_creates_the_groups_of_its_entering_bots_among_the_active_ones() {
        // Four bots, then a fifth: only the pairs that hold it.
        assert_eq!(entering_groups(Format::RoundRobin, &[0, 1, 2, 3, 4], &[4], 2), [[0, 4], [1, 4], [2, 4], [3, 4]]);
        assert_eq!(entering_groups(Format::RoundRobin, &[0, 1, 2], &[0, 1, 2], 2), groups(Format::RoundRobin, 3, 2));
        // Bot 1 retired, bots 4 and 5 enter, at three players.
        assert_eq!(
            entering_groups(Format::RoundRobin, &[0, 2, 3, 4, 5], &[4, 5], 3),
            vec![
                vec![0, 2, 4],
                vec![0, 2, 5],
                vec![0, 3, 4],
                vec![0, 3, 5],
                vec![0, 4, 5],
                vec![2, 3, 4],
                vec![2, 3, 5],
                vec![2, 4, 5],
                vec![3, 4, 5]
            ]
        );
        assert_eq!(entering_groups(Format::Gauntlet, &[0, 1, 2, 3], &[3], 2), [[0, 3]]);
        assert!(entering_groups(Format::Gauntlet, &[1, 2, 3], &[3], 2).is_empty(), "bot 0, the gauntlet's, retired");
        assert!(entering_groups(Format::RoundRobin, &[0, 3], &[3], 3).is_empty(), "too few bots left for a group");
    }

    #[test]
    fn a_grown_schedule_keeps_the_old_ids_and_plays_the_games_of_a_league_that_had_every_bot() {
        for teams in [free_for_all(2), free_for_all(3), partnership()] {
            let sides = teams.len();
            let all = groups(Format::RoundRobin, 5, sides);
            let full = Schedule::league(9, &teams, &all, Seating::EveryOrder, 7).unwrap();
            // Three bots, then a fourth, then bot 1 retired and a fifth.
            let stages = [
                groups(Format::RoundRobin, 3, sides),
                entering_groups(Format::RoundRobin, &[0, 1, 2, 3], &[3], sides),
                entering_groups(Format::RoundRobin, &[0, 2, 3, 4], &[4], sides),
            ];
            let grown = Schedule::staged(9, &teams, &stages, Seating::EveryOrder, 7).unwrap();
            let first = Schedule::league(9, &teams, &stages[0], Seating::EveryOrder, 7).unwrap();
            assert!(first.iter().eq(grown.iter().take(first.len() as usize)), "the first stage's ids are unchanged");
            // Every game of the grown league is a game of the full one, seats and seeds alike.
            let key = |g: &GameSpec| (g.deal, g.arrangement, g.seed, g.seats.clone(), g.bot_seeds.clone());
            let full_games: Vec<_> = full.iter().map(|g| key(&g)).collect();
            let mut grown_games: Vec<_> = grown.iter().map(|g| key(&g)).collect();
            assert_eq!(grown.iter().map(|g| g.id).collect::<Vec<_>>(), (0..grown.len()).collect::<Vec<_>>());
            assert!(grown_games.iter().all(|g| full_games.contains(g)), "{sides} sides");
            grown_games.sort();
            grown_games.dedup();
            assert_eq!(grown_games.len() as u64, grown.len(), "no game twice");
            // The full league's games that are missing are those of bot 1 with bot 4.
            let missing: Vec<GameSpec> = full.iter().filter(|g| !grown_games.contains(&key(g))).collect();
            assert!(missing.iter().all(|g| g.seats.contains(&1) && g.seats.contains(&4)));
            assert_eq!(missing.len() as u64 + grown.len(), full.len());
            // A deal's ids are in every stage, and group_of names each game's bots.
            for spec in grown.iter() {
                assert!(grown.deal_ids(spec.deal).any(|id| id == spec.id));
                let mut bots = spec.seats.clone();
                bots.sort();
                bots.dedup();
                assert_eq!(grown.group_of(spec.id), Some(bots.as_slice()));
            }
            let per_deal: u64 = stages.iter().map(|s| s.len() as u64).sum::<u64>() * grown.games_per_deal();
            assert_eq!(grown.deal_ids(0).count() as u64, per_deal);
            assert_eq!(grown.group_of(grown.len()), None);
            let (groups, ids) = grown.stage(1).unwrap();
            assert_eq!((groups, ids.start), (stages[1].as_slice(), first.len()));
            assert_eq!(grown.stage(2).unwrap().1.end, grown.len());
            assert_eq!(grown.stage(3), None);
        }
    }

    #[test]
    fn a_stage_without_groups_is_passed_over() {
        let teams = free_for_all(2);
        let stages = [vec![vec![0, 1]], vec![], vec![vec![0, 2]], vec![]];
        let schedule = Schedule::staged(3, &teams, &stages, Seating::EveryOrder, 4).unwrap();
        assert_eq!(schedule.len(), 8);
        let seats: Vec<Vec<usize>> = schedule.iter().map(|g| g.seats).collect();
        assert_eq!(seats[..4], [[0, 1], [1, 0], [0, 1], [1, 0]]);
        assert_eq!(seats[4..], [[0, 2], [2, 0], [0, 2], [2, 0]]);
        assert_eq!(schedule.get(5).unwrap().deal, 0);
        assert_eq!(schedule.get(6).unwrap().deal, 1);
        assert!(schedule.deal_ids(1).eq([2, 3, 6, 7]));
        let err = Schedule::staged(3, &teams, &vec![vec![vec![0, 1]]; 20], Seating::EveryOrder, MAX_GAMES / 20 + 2)
            .unwrap_err()
            .to_string();
        assert!(err.contains("20 groups of bots"), "{err}");
    }

    #[test]
    fn each_deal_is_played_in_the_order_of_its_keys() {
        let teams: Vec<Vec<usize>> = (0..3).map(|s| vec![s]).collect();
        let league = |seed| Schedule::league(seed, &teams, &groups(Format::RoundRobin, 4, 3), Seating::EveryOrder, 18);
        let schedule = league(5).unwrap();
        let (mut start, mut seen) = (0, Vec::new());
        while start < schedule.len() {
            let games = schedule.deal_games(start);
            assert_eq!(games.clone().count(), 4 * 6, "every order of every group");
            start = games.end;
            let order = schedule.in_play_order(games.clone());
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(sorted, games.collect::<Vec<_>>(), "each game of the deal once");
            let specs: Vec<GameSpec> = order.iter().map(|&id| schedule.get(id).unwrap()).collect();
            assert!(specs.iter().all(|g| g.deal == specs[0].deal), "one deal");
            assert!(specs.windows(2).all(|pair| pair[0].play_key() < pair[1].play_key()), "in the order of the keys");
            seen.extend(order);
        }
        assert_eq!(seen.len() as u64, schedule.len());
        assert_ne!(seen, (0..schedule.len()).collect::<Vec<_>>(), "groups and orders shuffled");
        let other = league(6).unwrap();
        let first = |s: &Schedule| s.in_play_order(s.deal_games(0)).iter().map(|&id| id % 24).collect::<Vec<_>>();
        assert_ne!(first(&schedule), first(&other), "keyed by the seed");
    }

    #[test]
    fn tags_say_nothing_of_the_deal_or_the_place() {
        let schedule = Schedule::duplicate_match(9, &[vec![0], vec![1]], 200).unwrap();
        let tags: Vec<u64> = schedule.iter().map(|g| g.tag()).collect();
        let mut distinct = tags.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), tags.len(), "one tag per game");
        // Neither the deal (id / 2) nor the order (id % 2) shows in the low bit.
        let odd = tags.iter().filter(|&&t| t % 2 == 1).count();
        assert!((60..=140).contains(&odd), "{odd} odd tags of 200");
        assert!(tags.iter().all(|&t| t >= 200), "not small numbers");
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
