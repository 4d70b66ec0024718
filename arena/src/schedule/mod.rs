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
//! 24 with four; for four sides 3 orders cannot seat every bot right after
//! every other exactly once, since the complete directed graph on 4
//! vertices has no decomposition into directed Hamiltonian cycles (Tillson,
//! 1980), and the least balanced set, of 12 chosen orders, is not a simpler
//! rule than every order). Which deals the groups play is the schedule's [`Dealing`]: the
//! same deals for every group (a match's one group, and leagues begun before
//! groups had deals of their own), or deals of its own for each group (a
//! league's groups, a learning league's rounds), so that no bot meets a deal
//! again in another of its groups.
//!
//! Beside it: [`lanes`] (which games a bot process plays: the runs of games
//! in which it never meets a deal twice).

pub use records::clock;
pub mod lanes;
pub use records::seeds;

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
    /// The deal's place among the deals its group plays in its stage, from
    /// 0: a game set up from a deals file is set up from the file's setup
    /// `nth` (modulo their number), whatever the deal's number.
    pub nth: u64,
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
    /// Deals of their own for groups of bots numbered this high do not fit
    /// a deal number (a 64-bit integer).
    TooManyDeals {
        /// The deals of each group.
        deals: u64,
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
            ScheduleError::TooManyDeals { deals } => write!(
                f,
                "{deals} deals of its own for each group of so many bots do not fit a deal number; play fewer games \
                 per group"
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
/// rounded up to whole deals (every arrangement of the deal). A league whose
/// field grew has one *stage* of groups for each change (see
/// [`entering_groups`]): each stage's games follow those of the stages
/// before it, so the ids of the earlier games stay what they were. Within a
/// stage, games are ordered deal by deal (every group's first deal in every
/// arrangement, then every group's second deal, …), so any prefix of the
/// schedule is balanced; a learning league's rounds go group by group
/// instead (see [`Schedule::rounds`]). Which deals each group plays is the
/// schedule's [`Dealing`]. A game is computed from its id when asked for,
/// so a schedule takes the same memory whatever its length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    seed: u64,
    teams: Vec<Vec<usize>>,
    /// The groups of every stage, stage after stage.
    groups: Vec<Vec<usize>>,
    /// Where each stage starts, in stage order.
    stages: Vec<Stage>,
    arrangements: Vec<Vec<usize>>,
    /// The deals each group plays in each stage.
    deals: u64,
    dealing: Dealing,
}

/// Which deals the groups of a schedule play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dealing {
    /// Every group plays the same deals, `0` to `D - 1` (`D` a group's deals),
    /// in every stage: a match or an SPRT (one group), and leagues begun
    /// before groups had deals of their own.
    Shared,
    /// Each group plays `D` deals of its own: deal `r·D + n` is the `n`th of
    /// the group whose rank among the groups of its size is `r` (colexicographic:
    /// the sum over its bots `b₁ < b₂ < …` of `C(bᵢ, i)`), so that a group
    /// plays the same deals whichever stage it enters in, and a bot meets
    /// each deal in one group only.
    ByGroup,
    /// A learning or Swiss league's rounds: group `g` of a round whose first
    /// deal is `f` plays deals `f + g·D` to `f + g·D + D − 1`, after those
    /// of the rounds before it.
    Rounds,
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
}

/// Where a game lies in its schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// Its stage, from 0.
    pub stage: usize,
    /// Its group's index within the stage, from 0.
    pub group: usize,
    /// Its deal's place among the deals its group plays in the stage, from 0.
    pub nth: u64,
    /// Its arrangement.
    pub arrangement: usize,
}

impl Schedule {
    /// The games of `groups` of bots, all playing the same deals, seated as
    /// `seating` says, `games` per group (rounded up to whole deals); an
    /// error when that is more than [`MAX_GAMES`] in all.
    pub fn league(
        seed: u64,
        teams: &[Vec<usize>],
        groups: &[Vec<usize>],
        seating: Seating,
        games: u64,
    ) -> Result<Schedule, ScheduleError> {
        Schedule::staged(seed, teams, &[groups.to_vec()], seating, games, Dealing::Shared)
    }

    /// The games of a league whose groups came in `stages` (the groups of
    /// its start, then those each change of its field created), dealt as
    /// `dealing` says ([`Dealing::Shared`] or [`Dealing::ByGroup`]), seated
    /// as `seating` says, `games` per group (rounded up to whole deals); an
    /// error when that is more than [`MAX_GAMES`] in all.
    pub fn staged(
        seed: u64,
        teams: &[Vec<usize>],
        stages: &[Vec<Vec<usize>>],
        seating: Seating,
        games: u64,
        dealing: Dealing,
    ) -> Result<Schedule, ScheduleError> {
        Schedule::built(seed, teams, stages, seating, games, dealing)
    }

    /// The games of a learning league's `rounds` of groups, seated as
    /// `seating` says, `games` per group of each round (rounded up to whole
    /// deals, `D` of them): like [`Schedule::staged`], one stage a round, but
    /// each group of a round plays deals of its own, after those of the
    /// rounds before ([`Dealing::Rounds`]). So a group that meets in several
    /// rounds plays new deals each time, a bot plays new deals in each of
    /// its groups, and the games of a round can all be in flight at once.
    /// Game ids go group after group, each group's deals in order, each
    /// deal in every arrangement.
    pub fn rounds(
        seed: u64,
        teams: &[Vec<usize>],
        rounds: &[Vec<Vec<usize>>],
        seating: Seating,
        games: u64,
    ) -> Result<Schedule, ScheduleError> {
        Schedule::built(seed, teams, rounds, seating, games, Dealing::Rounds)
    }

    fn built(
        seed: u64,
        teams: &[Vec<usize>],
        stages: &[Vec<Vec<usize>>],
        seating: Seating,
        games: u64,
        dealing: Dealing,
    ) -> Result<Schedule, ScheduleError> {
        let arrangements = seating.arrangements(teams.len());
        let per_deal = arrangements.len() as u64;
        let deals = games.div_ceil(per_deal);
        let mut schedule = Schedule {
            seed,
            teams: teams.to_vec(),
            groups: Vec::new(),
            stages: Vec::new(),
            arrangements,
            deals,
            dealing,
        };
        let mut first_id = Some(0u64);
        let mut first_deal = 0u64;
        for groups in stages {
            let first_group = schedule.groups.len();
            let start = first_id.unwrap_or(u64::MAX);
            schedule.stages.push(Stage { first_group, groups: groups.len(), first_id: start, first_deal });
            if dealing == Dealing::Rounds {
                first_deal = first_deal.saturating_add(deals.saturating_mul(groups.len() as u64));
            }
            schedule.groups.extend_from_slice(groups);
            let games = deals.checked_mul(groups.len() as u64).and_then(|g| g.checked_mul(per_deal));
            first_id = first_id.zip(games).and_then(|(id, games)| id.checked_add(games));
        }
        match first_id {
            Some(len) if len <= MAX_GAMES => {}
            games => {
                return Err(ScheduleError::TooManyGames { deals, groups: schedule.groups.len(), per_deal, games });
            }
        }
        if dealing == Dealing::ByGroup {
            let last = schedule.groups.iter().map(|group| colex_rank(group)).max().flatten();
            let fits = last.and_then(|rank| rank.checked_mul(deals)).and_then(|first| first.checked_add(deals));
            if fits.is_none() && !schedule.groups.is_empty() {
                return Err(ScheduleError::TooManyDeals { deals });
            }
        }
        Ok(schedule)
    }

    /// A match between `teams.len()` different bots: one group, in every order.
    pub fn duplicate_match(seed: u64, teams: &[Vec<usize>], games: u64) -> Result<Schedule, ScheduleError> {
        Schedule::league(seed, teams, &[(0..teams.len()).collect()], Seating::EveryOrder, games)
    }

    /// The games each group plays of one deal: one per arrangement.
    pub fn games_per_deal(&self) -> u64 {
        self.arrangements.len() as u64
    }

    /// The deals each group plays in each stage.
    pub fn deals_per_group(&self) -> u64 {
        self.deals
    }

    /// Which deals the groups play.
    pub fn dealing(&self) -> Dealing {
        self.dealing
    }

    /// How many stages the schedule has.
    pub fn stages(&self) -> usize {
        self.stages.len()
    }

    /// The games of `stage`.
    fn stage_len(&self, stage: &Stage) -> u64 {
        self.deals * stage.groups as u64 * self.games_per_deal()
    }

    /// The number of games (at most [`MAX_GAMES`], checked when the schedule was made).
    pub fn len(&self) -> u64 {
        self.stages.last().map_or(0, |last| last.first_id + self.stage_len(last))
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the stage that game `id` (less than [`Schedule::len`])
    /// is in. A stage without groups starts where the next one does, and is
    /// passed over.
    fn stage_index(&self, id: u64) -> usize {
        self.stages.partition_point(|stage| stage.first_id <= id) - 1
    }

    /// Stage `index` (0 for the first): its groups and the ids of its games.
    pub fn stage(&self, index: usize) -> Option<(&[Vec<usize>], std::ops::Range<u64>)> {
        let stage = self.stages.get(index)?;
        let groups = &self.groups[stage.first_group..stage.first_group + stage.groups];
        Some((groups, stage.first_id..stage.first_id + self.stage_len(stage)))
    }

    /// Where game `id` lies, if the schedule has it.
    pub fn place(&self, id: u64) -> Option<Place> {
        if id >= self.len() {
            return None;
        }
        let index = self.stage_index(id);
        let stage = &self.stages[index];
        let (within, per_deal) = (id - stage.first_id, self.games_per_deal());
        let arrangement = (within % per_deal) as usize;
        let (group, nth) = match self.dealing {
            Dealing::Shared | Dealing::ByGroup => {
                let per_round = stage.groups as u64 * per_deal;
                ((within % per_round / per_deal) as usize, within / per_round)
            }
            Dealing::Rounds => {
                let per_group = self.deals * per_deal;
                ((within / per_group) as usize, within % per_group / per_deal)
            }
        };
        Some(Place { stage: index, group, nth, arrangement })
    }

    /// The id of the game at `place` (which the schedule has).
    pub fn id_at(&self, place: Place) -> u64 {
        let stage = &self.stages[place.stage];
        let per_deal = self.games_per_deal();
        let (group, nth, arrangement) = (place.group as u64, place.nth, place.arrangement as u64);
        stage.first_id
            + arrangement
            + match self.dealing {
                Dealing::Shared | Dealing::ByGroup => (nth * stage.groups as u64 + group) * per_deal,
                Dealing::Rounds => (group * self.deals + nth) * per_deal,
            }
    }

    /// Group `group` of stage `stage` (the bots that play it, in increasing order).
    pub fn group_in(&self, stage: usize, group: usize) -> &[usize] {
        &self.groups[self.stages[stage].first_group + group]
    }

    /// The number of the deal that group `group` of stage `stage` plays `nth`.
    pub fn deal_number(&self, stage: usize, group: usize, nth: u64) -> u64 {
        let at = &self.stages[stage];
        match self.dealing {
            Dealing::Shared => nth,
            Dealing::ByGroup => {
                let rank = colex_rank(self.group_in(stage, group)).expect("checked when the schedule was made");
                rank * self.deals + nth
            }
            Dealing::Rounds => at.first_deal + group as u64 * self.deals + nth,
        }
    }

    /// The group of game `id` (the bots that play it, in increasing order),
    /// if the schedule has the game.
    pub fn group_of(&self, id: u64) -> Option<&[usize]> {
        self.place(id).map(|place| self.group_in(place.stage, place.group))
    }

    /// Game `id`, if the schedule has it.
    pub fn get(&self, id: u64) -> Option<GameSpec> {
        let place = self.place(id)?;
        let group = self.group_in(place.stage, place.group);
        let deal = self.deal_number(place.stage, place.group, place.nth);
        let order = &self.arrangements[place.arrangement];
        let mut seats = vec![0; self.teams.iter().map(Vec::len).sum()];
        for (side, members) in self.teams.iter().enumerate() {
            for &seat in members {
                seats[seat] = group[order[side]];
            }
        }
        let bot_seeds = (0..seats.len()).map(|seat| seeds::bot_seed(self.seed, deal, seat)).collect();
        Some(GameSpec {
            id,
            deal,
            arrangement: place.arrangement,
            nth: place.nth,
            seed: seeds::deal_seed(self.seed, deal),
            seats,
            bot_seeds,
        })
    }

    /// The ids of every game of the deal that game `id` is of: every
    /// arrangement of it, in every group that plays it (every group of
    /// every stage, when the groups share their deals).
    pub fn same_deal(&self, id: u64) -> Vec<u64> {
        let Some(place) = self.place(id) else { return Vec::new() };
        let per_deal = self.games_per_deal() as usize;
        let stages = match self.dealing {
            Dealing::Shared => 0..self.stages.len(),
            Dealing::ByGroup | Dealing::Rounds => place.stage..place.stage + 1,
        };
        let mut ids = Vec::new();
        for stage in stages {
            let groups = match self.dealing {
                Dealing::Shared => 0..self.stages[stage].groups,
                Dealing::ByGroup | Dealing::Rounds => place.group..place.group + 1,
            };
            for group in groups {
                ids.extend(
                    (0..per_deal).map(|arrangement| self.id_at(Place { stage, group, nth: place.nth, arrangement })),
                );
            }
        }
        ids
    }

    /// Every game, in id order.
    pub fn iter(&self) -> impl Iterator<Item = GameSpec> + '_ {
        (0..self.len()).filter_map(|id| self.get(id))
    }
}

/// The colexicographic rank of `group` (increasing bot numbers) among the
/// sets of its size: the sum over its bots `b₁ < b₂ < …` of `C(bᵢ, i)`;
/// `None` past a `u64`. A bot added to a league takes the next number, so
/// the rank of a group never changes as the league grows.
fn colex_rank(group: &[usize]) -> Option<u64> {
    group.iter().enumerate().try_fold(0u64, |sum, (at, &bot)| sum.checked_add(binomial(bot as u64, at as u64 + 1)?))
}

/// `C(n, k)`, or `None` past a `u64`.
fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut value: u128 = 1;
    for i in 0..k {
        value = value * u128::from(n - i) / u128::from(i + 1);
        if value > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(value).ok()
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
        assert_eq!(schedule.same_deal(7), (6..12).collect::<Vec<_>>());
        assert!(schedule.iter().all(|g| schedule.same_deal(g.id).contains(&g.id)));
        assert!(schedule.same_deal(schedule.len()).is_empty(), "past the end");
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
        // Every deal is one group's.
        for spec in &specs {
            assert_eq!(schedule.same_deal(spec.id), [spec.deal * 2, spec.deal * 2 + 1]);
            assert_eq!(schedule.id_at(schedule.place(spec.id).unwrap()), spec.id);
        }
        assert!(schedule.same_deal(24).is_empty(), "past the end");
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
        for (teams, dealing) in [free_for_all(2), free_for_all(3), partnership()]
            .into_iter()
            .flat_map(|teams| [(teams.clone(), Dealing::Shared), (teams, Dealing::ByGroup)])
        {
            let sides = teams.len();
            let staged = |stages: &[Vec<Vec<usize>>]| {
                Schedule::staged(9, &teams, stages, Seating::EveryOrder, 7, dealing).unwrap()
            };
            let full = staged(&[groups(Format::RoundRobin, 5, sides)]);
            // Three bots, then a fourth, then bot 1 retired and a fifth.
            let stages = [
                groups(Format::RoundRobin, 3, sides),
                entering_groups(Format::RoundRobin, &[0, 1, 2, 3], &[3], sides),
                entering_groups(Format::RoundRobin, &[0, 2, 3, 4], &[4], sides),
            ];
            let grown = staged(&stages);
            let first = staged(&stages[..1]);
            assert!(first.iter().eq(grown.iter().take(first.len() as usize)), "the first stage's ids are unchanged");
            // Every game of the grown league is a game of the full one, seats and seeds alike.
            let key = |g: &GameSpec| (g.deal, g.arrangement, g.seed, g.seats.clone(), g.bot_seeds.clone());
            let full_games: Vec<_> = full.iter().map(|g| key(&g)).collect();
            let mut grown_games: Vec<_> = grown.iter().map(|g| key(&g)).collect();
            assert_eq!(grown.iter().map(|g| g.id).collect::<Vec<_>>(), (0..grown.len()).collect::<Vec<_>>());
            assert!(grown_games.iter().all(|g| full_games.contains(g)), "{sides} sides, {dealing:?}");
            grown_games.sort();
            grown_games.dedup();
            assert_eq!(grown_games.len() as u64, grown.len(), "no game twice");
            // The full league's games that are missing are those of bot 1 with bot 4.
            let missing: Vec<GameSpec> = full.iter().filter(|g| !grown_games.contains(&key(g))).collect();
            assert!(missing.iter().all(|g| g.seats.contains(&1) && g.seats.contains(&4)));
            assert_eq!(missing.len() as u64 + grown.len(), full.len());
            // A deal's ids are those of its games, and group_of names each game's bots.
            for spec in grown.iter() {
                let same: Vec<GameSpec> = grown.same_deal(spec.id).into_iter().filter_map(|id| grown.get(id)).collect();
                assert!(same.iter().any(|g| g.id == spec.id));
                assert!(same.iter().all(|g| (g.deal, g.seed) == (spec.deal, spec.seed)));
                let mut bots = spec.seats.clone();
                bots.sort();
                bots.dedup();
                assert_eq!(grown.group_of(spec.id), Some(bots.as_slice()));
            }
            let groups_of_deal = match dealing {
                Dealing::Shared => stages.iter().map(|s| s.len() as u64).sum::<u64>(),
                _ => 1,
            };
            assert_eq!(grown.same_deal(0).len() as u64, groups_of_deal * grown.games_per_deal());
            assert_eq!(grown.group_of(grown.len()), None);
            let (groups, ids) = grown.stage(1).unwrap();
            assert_eq!((groups, ids.start), (stages[1].as_slice(), first.len()));
            assert_eq!(grown.stage(2).unwrap().1.end, grown.len());
            assert_eq!(grown.stage(3), None);
        }
    }

    #[test]
    fn each_group_plays_deals_of_its_own_when_dealt_by_group() {
        let teams = free_for_all(2);
        let schedule =
            Schedule::staged(4, &teams, &[groups(Format::RoundRobin, 4, 2)], Seating::EveryOrder, 6, Dealing::ByGroup)
                .unwrap();
        let mut deals: BTreeMap<u64, Vec<GameSpec>> = BTreeMap::new();
        for spec in schedule.iter() {
            assert_eq!(spec.seed, seeds::deal_seed(4, spec.deal));
            assert_eq!(schedule.id_at(schedule.place(spec.id).unwrap()), spec.id);
            deals.entry(spec.deal).or_default().push(spec);
        }
        assert_eq!(deals.len(), 6 * 3, "3 deals for each of the 6 pairs");
        for games in deals.values() {
            assert_eq!(games.len(), 2, "one deal, one pair, both seat orders");
            assert_eq!(games[0].seats, [games[1].seats[1], games[1].seats[0]]);
            assert_eq!(games[0].nth, games[1].nth);
        }
        // Still deal by deal: each pair's first deal, then each pair's second.
        assert!(schedule.iter().take(12).all(|g| g.nth == 0));
        // The pair of bots 1 and 3 has colexicographic rank 1 + 3 = 4: deals 12 to 14.
        let of_pair: Vec<u64> =
            schedule.iter().filter(|g| g.seats.contains(&1) && g.seats.contains(&3)).map(|g| g.deal).collect();
        assert_eq!(of_pair, [12, 12, 13, 13, 14, 14]);
        assert_eq!(colex_rank(&[0, 1, 2]), Some(0));
        assert_eq!(colex_rank(&[1, 2, 5]), Some(1 + 1 + 10));
        assert_eq!(binomial(60, 30), Some(118_264_581_564_861_424));
        assert_eq!(binomial(70, 35), None, "1.1e20, past a u64");
        let huge = Schedule::staged(1, &teams, &[vec![vec![0, 1 << 33]]], Seating::EveryOrder, 2, Dealing::ByGroup);
        assert!(huge.unwrap_err().to_string().contains("do not fit a deal number"));
    }

    #[test]
    fn a_stage_without_groups_is_passed_over() {
        let teams = free_for_all(2);
        let stages = [vec![vec![0, 1]], vec![], vec![vec![0, 2]], vec![]];
        let schedule = Schedule::staged(3, &teams, &stages, Seating::EveryOrder, 4, Dealing::Shared).unwrap();
        assert_eq!(schedule.len(), 8);
        let seats: Vec<Vec<usize>> = schedule.iter().map(|g| g.seats).collect();
        assert_eq!(seats[..4], [[0, 1], [1, 0], [0, 1], [1, 0]]);
        assert_eq!(seats[4..], [[0, 2], [2, 0], [0, 2], [2, 0]]);
        assert_eq!(schedule.get(5).unwrap().deal, 0);
        assert_eq!(schedule.get(6).unwrap().deal, 1);
        assert_eq!(schedule.same_deal(6), [2, 3, 6, 7]);
        let twenty = vec![vec![vec![0, 1]]; 20];
        let err = Schedule::staged(3, &teams, &twenty, Seating::EveryOrder, MAX_GAMES / 20 + 2, Dealing::Shared)
            .unwrap_err()
            .to_string();
        assert!(err.contains("20 groups of bots"), "{err}");
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
