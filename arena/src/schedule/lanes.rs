//! Which games each bot process plays: the run's games cut into *units*,
//! each unit into *lanes*. Pure: the plan is a function of the schedule,
//! the restart policy, the games played at once and the deals file's size.
//!
//! A unit is some deals of one group (or, in a league, of a few groups that
//! play deals of their own: see [`LANE_BOTS`]), all their games, played by one worker
//! from start to end. Each of its lanes holds at most one game of each of
//! its deals (see `Layout`: one seat order each, or, in a unit's first
//! lane and in a unit of several groups at 3 players and more, several). With
//! [`Restart::Lane`] (the default), every seat of a lane is played by a
//! process of its own (for each bot holding it there), started for the lane
//! and ended with it, so a process never meets a deal twice: it plays one
//! game of each of its unit's deals, and those deals are its group's alone
//! (see
//! [`crate::schedule::Dealing`]; where groups share deals, as a deals
//! file's setups, no two units of a deal are in flight at once). The lanes
//! of a unit are played one after another, each once the processes of the
//! lane before it are gone.
//!
//! Which game of a deal is played first is a keyed shuffle, as it has
//! always been: the arrangement whose game has the least key
//! ([`seeds::play_key`]). A unit plays each of its deals' first games in
//! its first lane (with 2 orders a deal, a unit holds deals that begin with
//! the same arrangement, so that lane is one seat order), so that the first
//! game of every deal is the one the key says, whatever the units are: the
//! test for a bot that does better on deals it has met before
//! ([`crate::stats::standings::repeats`]) compares a bot's later games of a
//! deal with that one, and which one it is must not depend on how the games
//! go (a seat order that comes first for many deals at once would make its
//! seats look better or worse). The other lanes, and the deals within each
//! lane, go in keyed orders too: a process can tell neither which seat order
//! of its deals it plays, nor which game of another lane is the same deal as
//! its `i`th.
//!
//! A group's deals are taken in *windows* of consecutive deals; with 2
//! orders a deal, a window's deals are split by the arrangement they begin
//! with, one unit each; with more, a window is one unit. A lane holds about
//! [`LANE_DEALS`] games at most (a lane played several games at once, up to
//! [`GAMES_PER_COPY`] for each), fewer so that a run has at least a unit
//! for each game played at once (a short match at `--concurrency 2` still
//! keeps both workers busy), and no more deals
//! than a deals file has setups (so that a unit never holds two deals set
//! up from the same one). With [`Restart::Game`] a window is one deal; in a
//! run that stops at its answer (an SPRT), [`STOPPING_LANE_DEALS`] deals a
//! unit, so that few games are played past it.

use super::seeds;
use super::{Dealing, Place, Schedule};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// The most deals in one block: a lane plays at most this many games.
pub const LANE_DEALS: u64 = 256;

/// A lane played several games at once (by a bot that plays many games in
/// one process) may hold this many games for each game played at once, more
/// than [`LANE_DEALS`]: each process of a plain bot in it, one per game
/// played at once, then plays about this many games, not a few.
pub const GAMES_PER_COPY: u64 = 16;

/// The deals a unit holds, at most about, in a run that stops as soon as it
/// has its answer (an SPRT): the games of a unit played when it stops are
/// not counted until the unit's deals are whole, and a process is started
/// for each lane, so a unit of a couple of deals keeps both few (a process
/// of a bot slow to start, such as Python's, plays two games).
pub const STOPPING_LANE_DEALS: u64 = 4;

/// How long a bot process lives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Restart {
    /// A process for each lane: it never meets a deal twice (the default).
    #[default]
    Lane,
    /// A process for each game.
    Game,
    /// Processes kept for the whole run, as long as they do not fault: the
    /// fastest, but a process meets every deal again in its other seat
    /// orders, so a bot that remembers deals gains from it.
    Off,
}

impl Restart {
    /// Every policy, as named on the command line.
    pub const NAMES: [&'static str; 3] = ["lane", "game", "off"];
}

/// A restart policy the arena does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRestart(pub String);

impl fmt::Display for UnknownRestart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown restart policy {:?}; the policies are lane, game and off", self.0)
    }
}

impl std::error::Error for UnknownRestart {}

impl FromStr for Restart {
    type Err = UnknownRestart;
    fn from_str(text: &str) -> Result<Restart, UnknownRestart> {
        match text {
            "lane" => Ok(Restart::Lane),
            "game" => Ok(Restart::Game),
            "off" => Ok(Restart::Off),
            other => Err(UnknownRestart(other.to_string())),
        }
    }
}

impl fmt::Display for Restart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Restart::Lane => "lane",
            Restart::Game => "game",
            Restart::Off => "off",
        })
    }
}

/// Some of one group's deals, all their games, in lanes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Its lanes, in the order they are played.
    pub lanes: Vec<Lane>,
    /// What no other unit in flight may play at the same time: its deals'
    /// numbers, or the setups they are set up from.
    pub deals: Vec<u64>,
}

/// Games played by the same processes, one after another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lane {
    /// Which processes play it: a number of its own in the run, or 0 for
    /// every lane when processes are kept ([`Restart::Off`]).
    pub key: u64,
    /// Its games' ids, in the order they are played.
    pub games: Vec<u64>,
}

/// How a schedule's games are cut into units and lanes.
#[derive(Debug, Clone)]
pub struct Plan {
    schedule: Schedule,
    restart: Restart,
    /// For each stage: its windows of deals and its chunks of groups.
    stages: Vec<StagePlan>,
    /// The index of each stage's first cell (a window of one chunk), and
    /// after the last the number of cells.
    first_cells: Vec<u64>,
    /// How many setups the deals file has, if the games are set up from one.
    setups: Option<u64>,
}

/// How one stage is cut.
#[derive(Debug, Clone)]
struct StagePlan {
    /// The deals of each window (the last may hold fewer).
    window: u64,
    /// Where each chunk of groups starts, and after the last the number of groups.
    chunks: Vec<usize>,
    /// How a window of a chunk is cut into units and lanes.
    layout: Layout,
}

/// How a window of a chunk of groups is cut into units and lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// One group, or several at 2 orders a deal: a unit for each seat
    /// order (arrangement) the window's deals begin with, each lane of it
    /// one arrangement, of every group. In a league at 2 players, a bot
    /// then holds seat 0 in a lane against the bots it is listed before in
    /// their groups, seat 1 against the others: in a round robin the first
    /// and the last bot one seat a lane, the others two.
    ByOrder,
    /// One group: one unit, its first lane each deal's first game (a bot
    /// holding a seat in it for each seat order those begin with), then a
    /// lane for each seat order, of the deals that do not begin with it.
    Opening,
    /// Several groups at 3 orders a deal and more: one unit, lane `ℓ` the
    /// `ℓ`th game of each deal.
    Mixed,
}

/// The most bots whose groups share a unit: each bot may need a process
/// for each seat in each of its lanes.
pub const LANE_BOTS: usize = 8;

/// The most seat orders a deal may have for a group alone to be cut into
/// units by the order its deals begin with (each lane then one order, a
/// process for each seat: `Layout::ByOrder`). More orders make as many
/// units, each lane of a few deals and a process for each seat: from 3
/// orders on (3 players and more), a group's window is one unit instead
/// (`Layout::Opening`): a first lane of each deal's first game, in which a
/// bot has a process for each seat it holds there, then a lane for each
/// seat order, a process for each seat. At 3 players that is 9 + 6 × 3
/// processes for a window's deals where cutting by order takes 6 × 6 × 3;
/// a run that stops at its answer, whose units hold a few deals, and the
/// game policy still cut by order up to [`MOST_ORDERS_APART_SMALL`] orders.
pub const MOST_ORDERS_APART: u64 = 2;

/// The most seat orders a deal may have for a group alone to be cut by
/// order in a run whose units hold a deal or a few ([`STOPPING_LANE_DEALS`],
/// [`Restart::Game`]).
pub const MOST_ORDERS_APART_SMALL: u64 = 6;

impl Plan {
    /// The plan of `schedule` under `restart`, for `concurrency` lanes in
    /// play at once, each playing `at_once` games at once (see
    /// [`GAMES_PER_COPY`]), its games set up from a deals file of `setups`
    /// setups if any. A run that may stop as soon as it has its answer
    /// (`stops_early`: an SPRT) has units of about [`STOPPING_LANE_DEALS`]
    /// deals, so that the games played when it stops, whose deals are not
    /// whole, are few.
    pub fn new(
        schedule: Schedule,
        restart: Restart,
        (concurrency, at_once): (usize, usize),
        setups: Option<u64>,
        stops_early: bool,
    ) -> Plan {
        let deals = schedule.deals_per_group().max(1);
        let orders = schedule.games_per_deal().max(1);
        let wanted = concurrency.max(1) as u64;
        let mut stages = Vec::new();
        let mut first_cells = vec![0];
        for stage in 0..schedule.stages() {
            let groups = schedule.stage(stage).map_or(&[][..], |(groups, _)| groups);
            // A lane may span groups that play deals of their own.
            let own = schedule.dealing() != Dealing::Shared && setups.is_none() && restart != Restart::Game;
            // Groups share units only where their windows still give a unit to
            // each game played at once: not a learning league's round, its
            // pairs a deal each, which would be one unit, one game at a time.
            let together = if own { chunks(groups) } else { Vec::new() };
            let fill = (together.len() as u64).saturating_sub(1) * deals >= wanted;
            let chunks = if own && fill { together } else { (0..=groups.len()).collect() };
            let count = chunks.len() as u64 - 1;
            // A group alone is cut by the seat order its deals begin with, or
            // opens its units with their first games; groups that share their
            // deals cannot be in flight at once, so the windows of one group
            // must then keep the workers busy.
            let shared = groups.len() > 1 && !own;
            let small = stops_early || restart == Restart::Game;
            let apart = if small { MOST_ORDERS_APART_SMALL } else { MOST_ORDERS_APART };
            // The deals of a window: about LANE_DEALS games a lane at most.
            let window_of = |layout: Layout| {
                let units_a_window = match (shared, layout) {
                    (true, _) => 1,
                    (false, Layout::ByOrder) => orders * count,
                    (false, _) => count,
                };
                let per_group = wanted.div_ceil(units_a_window.max(1)).clamp(1, deals);
                let lane = LANE_DEALS.max(at_once as u64 * GAMES_PER_COPY);
                let mut most = if layout == Layout::Opening { lane } else { orders * lane };
                if let Some(setups) = setups {
                    most = most.min(setups.max(1));
                }
                if stops_early {
                    most = most.min(orders * STOPPING_LANE_DEALS);
                }
                if restart == Restart::Game {
                    most = 1;
                }
                deals.div_ceil(per_group).clamp(1, most)
            };
            let layout = match chunks.len() == groups.len() + 1 {
                true if orders <= apart => Layout::ByOrder,
                true => Layout::Opening,
                // Several groups at 2 orders a deal: cut by the order each deal
                // begins with, as a group alone is, where that starts fewer
                // processes than lanes of each deal's first game, then its second.
                false if orders <= MOST_ORDERS_APART => {
                    let (by_order, mixed) = (window_of(Layout::ByOrder), window_of(Layout::Mixed));
                    let (mut apart, mut together) = (0, 0);
                    for chunk in chunks.windows(2) {
                        let roles: Vec<BTreeSet<(usize, usize)>> =
                            (0..orders as usize).map(|order| roles_of(&schedule, stage, chunk, order)).collect();
                        apart +=
                            deals.div_ceil(by_order) * orders * roles.iter().map(BTreeSet::len).sum::<usize>() as u64;
                        together += deals.div_ceil(mixed)
                            * orders
                            * roles.iter().flatten().collect::<BTreeSet<_>>().len() as u64;
                    }
                    if apart < together { Layout::ByOrder } else { Layout::Mixed }
                }
                false => Layout::Mixed,
            };
            let window = window_of(layout);
            first_cells.push(first_cells[stage] + deals.div_ceil(window) * count);
            stages.push(StagePlan { window, chunks, layout });
        }
        Plan { schedule, restart, stages, first_cells, setups }
    }

    /// The schedule.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The restart policy.
    pub fn restart(&self) -> Restart {
        self.restart
    }

    /// The most processes one lane needs: a bot for each seat it holds in
    /// the lane's games, for every bot of its unit.
    pub fn lane_width(&self) -> usize {
        let seats = self.schedule.teams.iter().map(Vec::len).sum::<usize>();
        let most_bots = (0..self.stages.len())
            .flat_map(|stage| {
                let chunks = &self.stages[stage].chunks;
                chunks.windows(2).map(move |chunk| (stage, chunk[0]..chunk[1])).collect::<Vec<_>>()
            })
            .map(|(stage, groups)| match self.stages[stage].layout {
                Layout::ByOrder if groups.len() == 1 => 1,
                _ => bots_of(groups.map(|group| self.schedule.group_in(stage, group))).len(),
            })
            .max()
            .unwrap_or(1);
        most_bots * seats
    }

    /// How many cells there are: windows of a chunk of groups, each one
    /// unit or more (see [`Plan::cell`]).
    pub fn cells(&self) -> u64 {
        *self.first_cells.last().expect("one entry at least")
    }

    /// The units of cell `index` (less than [`Plan::cells`]): the deals of
    /// one window of one chunk of a stage's groups. A chunk of up to
    /// [`MOST_ORDERS_APART`] orders a deal (or, of one group,
    /// [`MOST_ORDERS_APART_SMALL`], in a run of small units) makes one unit
    /// for each arrangement some of the window's deals begin with, in the
    /// order of the arrangements, each lane of it one arrangement; a chunk
    /// of one group of more orders makes one unit, its first lane each
    /// deal's first game, then a lane for each arrangement (in the order of
    /// the first deal's keys) of the deals that do not begin with it; a
    /// chunk of several groups of more orders makes one unit, lane `ℓ` the
    /// `ℓ`th game of each deal. The windows of a stage go in order, each for every chunk
    /// of the stage.
    pub fn cell(&self, index: u64) -> Vec<Unit> {
        let schedule = &self.schedule;
        let stage = self.first_cells.partition_point(|&first| first <= index) - 1;
        let plan = &self.stages[stage];
        let count = plan.chunks.len() as u64 - 1;
        let within = index - self.first_cells[stage];
        let (window, chunk) = (within / count, (within % count) as usize);
        let from = window * plan.window;
        let to = (from + plan.window).min(schedule.deals_per_group());
        let groups = plan.chunks[chunk]..plan.chunks[chunk + 1];
        let orders = schedule.games_per_deal() as usize;
        // Each deal's games by key, least first.
        let deals: Vec<Vec<(u64, u64)>> = groups
            .clone()
            .flat_map(|group| (from..to).map(move |nth| (group, nth)))
            .map(|(group, nth)| {
                let seed = self.seed_of(stage, group, nth);
                let mut games: Vec<(u64, u64)> = (0..orders)
                    .map(|arrangement| schedule.id_at(Place { stage, group, nth, arrangement }))
                    .map(|id| (seeds::play_key(seed, id), id))
                    .collect();
                games.sort_unstable();
                games
            })
            .collect();
        let number = |lane: usize, unit: u64| match self.restart {
            Restart::Off => 0,
            Restart::Lane | Restart::Game => 1 + (index * orders as u64 + unit) * (orders as u64 + 1) + lane as u64,
        };
        let keys = |deals: &[&Vec<(u64, u64)>]| -> Vec<u64> {
            deals
                .iter()
                .map(|games| {
                    let place = schedule.place(games[0].1).expect("a game of the schedule");
                    match self.setups {
                        Some(setups) => place.nth % setups.max(1),
                        None => schedule.deal_number(stage, place.group, place.nth),
                    }
                })
                .collect()
        };
        let arrangement = |id: u64| schedule.place(id).expect("a game of the schedule").arrangement;
        let ids = |mut games: Vec<(u64, u64)>| -> Vec<u64> {
            games.sort_unstable();
            games.into_iter().map(|(_, id)| id).collect()
        };
        if plan.layout == Layout::Opening {
            let all: Vec<&Vec<(u64, u64)>> = deals.iter().collect();
            let mut lanes = vec![Lane { key: number(0, 0), games: ids(all.iter().map(|games| games[0]).collect()) }];
            // The seat orders in the order of the first deal's keys.
            for &(_, sample) in all[0].iter() {
                let seating = arrangement(sample);
                let games: Vec<(u64, u64)> = all
                    .iter()
                    .filter_map(|games| games[1..].iter().find(|&&(_, id)| arrangement(id) == seating).copied())
                    .collect();
                if !games.is_empty() {
                    lanes.push(Lane { key: number(lanes.len(), 0), games: ids(games) });
                }
            }
            return vec![Unit { lanes, deals: keys(&all) }];
        }
        if plan.layout == Layout::Mixed {
            let all: Vec<&Vec<(u64, u64)>> = deals.iter().collect();
            let lanes = (0..orders)
                .map(|lane| {
                    let mut games: Vec<(u64, u64)> = all.iter().map(|games| games[lane]).collect();
                    games.sort_unstable();
                    Lane { key: number(lane, 0), games: games.into_iter().map(|(_, id)| id).collect() }
                })
                .collect();
            return vec![Unit { lanes, deals: keys(&all) }];
        }
        // One group: by the arrangement each deal begins with.
        let mut units = Vec::new();
        for first in 0..orders {
            let begin: Vec<&Vec<(u64, u64)>> = deals.iter().filter(|games| arrangement(games[0].1) == first).collect();
            let Some(sample) = begin.first() else { continue };
            // The other seat orders in the order of the first deal's keys.
            let order: Vec<usize> = sample.iter().map(|&(_, id)| arrangement(id)).collect();
            let lanes = order
                .iter()
                .enumerate()
                .map(|(lane, &seating)| {
                    let mut games: Vec<(u64, u64)> = begin
                        .iter()
                        .map(|games| {
                            *games.iter().find(|&&(_, id)| arrangement(id) == seating).expect("every arrangement")
                        })
                        .collect();
                    games.sort_unstable();
                    Lane { key: number(lane, first as u64), games: games.into_iter().map(|(_, id)| id).collect() }
                })
                .collect();
            units.push(Unit { lanes, deals: keys(&begin) });
        }
        units
    }

    /// The seed of the deal group `group` of stage `stage` plays `nth`.
    fn seed_of(&self, stage: usize, group: usize, nth: u64) -> u64 {
        seeds::deal_seed(self.schedule.seed, self.schedule.deal_number(stage, group, nth))
    }
}

/// Who holds which seat in arrangement `order` of the groups `chunk[0]..chunk[1]`
/// of stage `stage`: (bot, seat) pairs.
fn roles_of(schedule: &Schedule, stage: usize, chunk: &[usize], order: usize) -> BTreeSet<(usize, usize)> {
    (chunk[0]..chunk[1])
        .map(|group| schedule.id_at(Place { stage, group, nth: 0, arrangement: order }))
        .filter_map(|id| schedule.get(id))
        .flat_map(|spec| spec.seats.into_iter().enumerate().map(|(seat, bot)| (bot, seat)))
        .collect()
}

/// The bots of `groups`, in increasing order.
fn bots_of<'g>(groups: impl Iterator<Item = &'g [usize]>) -> Vec<usize> {
    let mut bots: Vec<usize> = groups.flatten().copied().collect();
    bots.sort_unstable();
    bots.dedup();
    bots
}

/// The chunks of `groups` whose lanes may span them: runs of consecutive
/// groups holding no more than [`LANE_BOTS`] bots in all, as
/// [`StagePlan::chunks`] has them.
fn chunks(groups: &[Vec<usize>]) -> Vec<usize> {
    let mut starts = vec![0];
    let mut bots: Vec<usize> = Vec::new();
    for (at, group) in groups.iter().enumerate() {
        let mut with = bots.clone();
        with.extend(group);
        with.sort_unstable();
        with.dedup();
        if with.len() > LANE_BOTS && at > *starts.last().expect("one start") {
            starts.push(at);
            with = group.clone();
        }
        bots = with;
    }
    starts.push(groups.len());
    starts.dedup();
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::{Format, GameSpec, Seating, groups};
    use std::collections::{BTreeMap, BTreeSet};

    fn free_for_all(players: usize) -> Vec<Vec<usize>> {
        (0..players).map(|seat| vec![seat]).collect()
    }

    fn all_units(plan: &Plan) -> Vec<Unit> {
        (0..plan.cells()).flat_map(|cell| plan.cell(cell)).collect()
    }

    /// Every game of the schedule once; within a lane no deal twice (and in
    /// a unit of one group, one seating, but for the first lane of a unit
    /// that holds deals beginning with several); a deal in one unit only,
    /// whose first lane is the deal's game with the least key; lanes have
    /// keys of their own, and no more processes than [`Plan::lane_width`].
    fn check(plan: &Plan) {
        check_at(plan, 1);
    }

    /// [`check`] of a plan whose lanes play `at_once` games at once.
    fn check_at(plan: &Plan, at_once: u64) {
        let schedule = plan.schedule();
        let units = all_units(plan);
        let mut ids: Vec<u64> = units.iter().flat_map(|u| u.lanes.iter().flat_map(|l| l.games.clone())).collect();
        ids.sort_unstable();
        assert_eq!(ids, (0..schedule.len()).collect::<Vec<_>>(), "every game once");
        let mut keys = BTreeSet::new();
        let mut owner: BTreeMap<(Option<Vec<usize>>, u64), usize> = BTreeMap::new();
        for (index, unit) in units.iter().enumerate() {
            let orders = schedule.games_per_deal();
            assert!(unit.lanes.len() as u64 == orders || unit.lanes.len() as u64 <= orders + 1);
            let groups: BTreeSet<Vec<usize>> =
                unit.lanes[0].games.iter().map(|&id| schedule.group_of(id).unwrap().to_vec()).collect();
            for (at, lane) in unit.lanes.iter().enumerate() {
                assert!(plan.restart() == Restart::Off || keys.insert(lane.key), "lane keys are the run's own");
                let specs: Vec<GameSpec> = lane.games.iter().map(|&id| schedule.get(id).unwrap()).collect();
                let mut deals: Vec<u64> = specs.iter().map(|g| g.deal).collect();
                deals.sort_unstable();
                deals.dedup();
                assert_eq!(deals.len(), specs.len(), "a lane meets no deal twice");
                let seatings: BTreeSet<usize> =
                    unit.lanes[0].games.iter().map(|&id| schedule.get(id).unwrap().arrangement).collect();
                let apart = groups.len() == 1 && (at > 0 || seatings.len() == 1);
                assert!(!apart || specs.iter().all(|g| g.seats == specs[0].seats), "one seating");
                let roles: BTreeSet<(usize, usize)> =
                    specs.iter().flat_map(|g| g.seats.iter().enumerate().map(|(seat, &bot)| (bot, seat))).collect();
                assert!(roles.len() <= plan.lane_width(), "{} processes in a lane", roles.len());
                let most = LANE_DEALS.max(at_once * GAMES_PER_COPY);
                assert!(deals.len() as u64 <= most * schedule.games_per_deal() * groups.len() as u64);
                for spec in &specs {
                    // Groups that share their deals each play them in units of their own.
                    let shared =
                        (schedule.dealing() == Dealing::Shared).then(|| schedule.group_of(spec.id).unwrap().to_vec());
                    let unit_of = owner.entry((shared, spec.deal)).or_insert(index);
                    assert_eq!(*unit_of, index, "deal {} in two units", spec.deal);
                    // (Groups that share a deal each play it in their own units.)
                    let group = schedule.group_of(spec.id);
                    let first = schedule.same_deal(spec.id).into_iter().filter(|&id| schedule.group_of(id) == group);
                    let first = first.map(|id| schedule.get(id).unwrap()).min_by_key(|g| g.play_key()).unwrap();
                    assert_eq!(at == 0, first.id == spec.id, "the first lane holds each deal's first game");
                }
            }
        }
    }

    #[test]
    fn a_match_is_cut_into_units_of_whole_deals_each_lane_a_seat_order() {
        let schedule = Schedule::duplicate_match(3, &free_for_all(2), 1000).unwrap();
        let plan = Plan::new(schedule.clone(), Restart::Lane, (2, 1), None, false);
        check(&plan);
        // 500 deals, in one window, split by the seat order each deal begins with: a unit a worker.
        assert_eq!((plan.cells(), all_units(&plan).len(), plan.lane_width()), (1, 2, 2));
        // Three players: a unit a window of up to LANE_DEALS deals, its first
        // lane each deal's first game, then a lane for each of the 6 orders.
        let three = Schedule::duplicate_match(3, &free_for_all(3), 6 * 1000).unwrap();
        let plan = Plan::new(three, Restart::Lane, (1, 1), None, false);
        check(&plan);
        assert_eq!((plan.cells(), all_units(&plan).len(), plan.lane_width()), (4, 4, 9));
        assert!(all_units(&plan).iter().all(|unit| unit.lanes.len() == 7), "an opening lane and 6 orders");
        let roles = |lane: &Lane| -> BTreeSet<(usize, usize)> {
            let specs = lane.games.iter().map(|&id| plan.schedule().get(id).unwrap());
            specs.flat_map(|g| g.seats.into_iter().enumerate().map(|(seat, bot)| (bot, seat))).collect()
        };
        let widths: Vec<usize> = all_units(&plan)[0].lanes.iter().map(|lane| roles(lane).len()).collect();
        assert_eq!(widths, [9, 3, 3, 3, 3, 3, 3], "9 + 6 × 3 processes a unit, where 6 units of 6 lanes take 108");
        // At --concurrency 2, a unit for each game slot.
        let plan = Plan::new(
            Schedule::duplicate_match(3, &free_for_all(3), 1000).unwrap(),
            Restart::Lane,
            (2, 1),
            None,
            false,
        );
        check(&plan);
        assert_eq!((plan.cells(), all_units(&plan).len()), (2, 2));
        let long = Schedule::duplicate_match(3, &free_for_all(2), 2 * 4000).unwrap();
        let plan = Plan::new(long, Restart::Lane, (1, 1), None, false);
        assert_eq!(plan.cells(), 4000u64.div_ceil(2 * LANE_DEALS), "about LANE_DEALS deals a unit at most");
        // Lanes played 64 games at once: GAMES_PER_COPY games for each, 1,024 a lane.
        let long = Schedule::duplicate_match(3, &free_for_all(2), 2 * 4000).unwrap();
        let plan = Plan::new(long, Restart::Lane, (1, 64), None, false);
        check_at(&plan, 64);
        assert_eq!(plan.cells(), 4000u64.div_ceil(2 * 64 * GAMES_PER_COPY));
        let lengths: Vec<usize> = all_units(&plan).iter().flat_map(|unit| &unit.lanes).map(|l| l.games.len()).collect();
        assert!(lengths.iter().all(|&games| games > 800 && games < 1200), "about 1,024 each: {lengths:?}");
        // Four individuals: 24 orders, one unit a window, a bot in every seat of its opening lane.
        let four = Schedule::duplicate_match(3, &free_for_all(4), 24 * 60).unwrap();
        let plan = Plan::new(four, Restart::Lane, (2, 1), None, false);
        check(&plan);
        assert_eq!((plan.cells(), all_units(&plan).len(), plan.lane_width()), (2, 2, 16));
        assert!(all_units(&plan).iter().all(|unit| unit.lanes.len() == 25));
        // The game policy: every game its own lane.
        let plan = Plan::new(schedule, Restart::Game, (2, 1), None, false);
        check(&plan);
        assert_eq!(plan.cells(), 500);
        assert!(all_units(&plan).iter().all(|u| u.lanes.iter().all(|l| l.games.len() == 1)));
        let off =
            Plan::new(Schedule::duplicate_match(3, &free_for_all(2), 40).unwrap(), Restart::Off, (1, 1), None, false);
        check(&off);
        assert!(all_units(&off).iter().all(|u| u.lanes.iter().all(|l| l.key == 0)));
    }

    #[test]
    fn a_run_that_may_stop_at_its_answer_has_units_of_a_couple_of_deals() {
        for teams in [free_for_all(2), free_for_all(3)] {
            let schedule = Schedule::duplicate_match(3, &teams, 2000).unwrap();
            let orders = schedule.games_per_deal();
            let plan = Plan::new(schedule, Restart::Lane, (2, 1), None, true);
            check(&plan);
            let windows: Vec<u64> = (0..plan.cells())
                .map(|cell| plan.cell(cell).iter().map(|u| u.lanes[0].games.len() as u64).sum())
                .collect();
            let (last, whole) = windows.split_last().unwrap();
            assert!(whole.iter().all(|&window| window == orders * STOPPING_LANE_DEALS), "{windows:?}");
            assert!(*last <= orders * STOPPING_LANE_DEALS, "{windows:?}");
            assert_eq!(windows.iter().sum::<u64>(), plan.schedule().deals_per_group());
        }
    }

    #[test]
    fn a_league_s_lanes_span_the_groups_of_a_few_bots_that_play_deals_of_their_own() {
        let teams = free_for_all(2);
        let pairs = groups(Format::RoundRobin, 6, 2);
        let staged = |groups: &[Vec<usize>], dealing| {
            Schedule::staged(5, &teams, &[groups.to_vec()], Seating::EveryOrder, 100, dealing).unwrap()
        };
        let plan = Plan::new(staged(&pairs, Dealing::ByGroup), Restart::Lane, (2, 1), None, false);
        check(&plan);
        // The 15 pairs of 6 bots in one chunk, its 50 deals a pair in one
        // window, a unit for each seat order the deals begin with (one for
        // each worker), each lane one seat order of every pair.
        assert_eq!((plan.cells(), all_units(&plan).len(), plan.lane_width()), (1, 2, 12));
        let processes = |plan: &Plan| -> usize {
            let roles = |lane: &Lane| -> BTreeSet<(usize, usize)> {
                let specs = lane.games.iter().map(|&id| plan.schedule().get(id).unwrap());
                specs.flat_map(|g| g.seats.into_iter().enumerate().map(|(seat, bot)| (bot, seat))).collect()
            };
            all_units(plan).iter().flat_map(|unit| unit.lanes.iter().map(roles)).map(|roles| roles.len()).sum()
        };
        // The first bot holds seat 0 in every game of a lane, the last seat 1,
        // the others both: 2 × 6 − 2 processes a lane, where a lane of each
        // deal's first games, whatever their seat order, took 2 × 6.
        assert_eq!(processes(&plan), 2 * 2 * (2 * 6 - 2));
        // A gauntlet: the champion in one seat a lane, each challenger in the other.
        let gauntlet =
            Plan::new(staged(&groups(Format::Gauntlet, 6, 2), Dealing::ByGroup), Restart::Lane, (2, 1), None, false);
        check(&gauntlet);
        assert_eq!(processes(&gauntlet), 2 * 2 * 6);
        // One game at a time: cut by order, each order's unit would need its
        // own processes; lanes of each deal's first game, then its second, need 2 × 12.
        let one = Plan::new(staged(&pairs, Dealing::ByGroup), Restart::Lane, (1, 1), None, false);
        check(&one);
        assert_eq!((all_units(&one).len(), processes(&one)), (1, 2 * 12));
        // One pair: by the seat order its deals begin with.
        let one = Plan::new(staged(&pairs[..1], Dealing::ByGroup), Restart::Lane, (2, 1), None, false);
        assert_eq!((one.cells(), all_units(&one).len()), (1, 2));
        // Twelve bots: chunks of pairs holding eight bots at most.
        let many =
            Schedule::staged(5, &teams, &[groups(Format::RoundRobin, 12, 2)], Seating::EveryOrder, 4, Dealing::ByGroup)
                .unwrap();
        let plan = Plan::new(many, Restart::Lane, (2, 1), None, false);
        check(&plan);
        assert_eq!(plan.lane_width(), 16);
        // Shared deals (a league begun before groups had deals of their own):
        // no two pairs' units of a window can be in flight, so a pair's deals
        // are cut in windows enough for the workers, and a lane never spans pairs.
        let plan = Plan::new(staged(&pairs, Dealing::Shared), Restart::Lane, (2, 1), None, false);
        check(&plan);
        assert_eq!((plan.cells(), plan.lane_width()), (15 * 2, 2));
        let deals = |cell| {
            let mut deals: Vec<u64> = plan.cell(cell).iter().flat_map(|u| u.deals.clone()).collect();
            deals.sort_unstable();
            deals
        };
        assert_eq!(deals(0), deals(1), "the same window of every pair: the same deals");
        // Rounds, and a grown league's stages.
        let rounds = [pairs[..3].to_vec(), pairs[3..4].to_vec()];
        let schedule = Schedule::rounds(5, &teams, &rounds, Seating::EveryOrder, 8).unwrap();
        check(&Plan::new(schedule, Restart::Lane, (2, 1), None, false));
        let stages = [groups(Format::RoundRobin, 3, 3), vec![vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]]];
        let grown = Schedule::staged(5, &free_for_all(3), &stages, Seating::EveryOrder, 60, Dealing::ByGroup).unwrap();
        check(&Plan::new(grown, Restart::Lane, (3, 1), None, false));
        assert_eq!(chunks(&groups(Format::RoundRobin, 10, 2))[..3], [0, 7, 13], "0-1 … 0-7, then 0-8 … 1-6");
    }

    #[test]
    fn a_unit_never_holds_two_deals_of_one_setup() {
        let schedule = Schedule::duplicate_match(3, &free_for_all(2), 400).unwrap();
        let plan = Plan::new(schedule, Restart::Lane, (1, 1), Some(30), false);
        for unit in all_units(&plan) {
            let mut setups = unit.deals.clone();
            setups.sort_unstable();
            setups.dedup();
            assert_eq!(setups.len(), unit.deals.len(), "{:?}", unit.deals);
            assert!(unit.deals.iter().all(|&setup| setup < 30));
        }
    }

    #[test]
    fn lanes_and_their_games_are_in_an_order_the_seed_keys() {
        let teams = free_for_all(3);
        let plan = |seed| {
            Plan::new(Schedule::duplicate_match(seed, &teams, 6 * 240).unwrap(), Restart::Lane, (1, 1), None, false)
        };
        let (one, other) = (plan(1), plan(2));
        let arrangements = |plan: &Plan| -> Vec<Vec<usize>> {
            all_units(plan)
                .iter()
                .map(|u| u.lanes.iter().map(|l| plan.schedule().get(l.games[0]).unwrap().arrangement).collect())
                .collect()
        };
        let unit = &all_units(&one)[0];
        let firsts: BTreeSet<usize> =
            unit.lanes[0].games.iter().map(|&id| one.schedule().get(id).unwrap().arrangement).collect();
        assert_eq!(firsts.len(), 6, "every seat order comes first for some deals");
        assert!(arrangements(&one).iter().any(|lanes| lanes[1..].windows(2).any(|w| w[0] > w[1])), "the rest shuffled");
        let deals =
            |lane: &Lane| -> Vec<u64> { lane.games.iter().map(|&id| one.schedule().get(id).unwrap().deal).collect() };
        let mut sorted = deals(&unit.lanes[0]);
        sorted.sort_unstable();
        assert_ne!(deals(&unit.lanes[0]), sorted, "deals shuffled");
        assert_ne!(deals(&unit.lanes[0]), deals(&unit.lanes[1]), "each lane in an order of its own");
        assert_ne!(arrangements(&one), arrangements(&other), "keyed by the seed");
        assert_eq!(all_units(&one), all_units(&plan(1)), "and only by it");
        assert_eq!("off".parse::<Restart>(), Ok(Restart::Off));
        assert!("never".parse::<Restart>().unwrap_err().to_string().contains("lane, game and off"));
    }
}
