//! Which unit of games a worker plays next (see [`crate::schedule::lanes`]):
//! the plan's units in order, those with no game left to play passed over,
//! except that no unit starts while another unit of one of its deals is in
//! flight (units of groups that share their deals, or a deals file's
//! setups), so that no two processes alive at the same time play the same
//! deal in two games.

use crate::schedule::Selection;
use crate::schedule::lanes::{Plan, Unit};
use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;
use tokio::sync::Notify;

/// How many units may wait for their deals before the dealer stops looking
/// further ahead (and waits for a deal to be free).
const MOST_DEFERRED: usize = 1024;

/// Hands out the units of a run.
pub struct Dealer {
    state: Mutex<State>,
    released: Notify,
}

/// What the dealer has for a worker now.
enum Taken {
    Unit(Unit),
    /// Units are left, but every one of them waits for its deals.
    Busy,
    None,
}

#[derive(Default)]
struct State {
    /// The next cell of the plan to look at.
    next: u64,
    /// The units of the cells looked at, not yet handed out nor deferred.
    ready: VecDeque<Unit>,
    /// Units passed over while one of their deals was in flight, in plan order.
    deferred: VecDeque<Unit>,
    /// The deals in flight.
    busy: HashSet<u64>,
}

impl Dealer {
    /// A dealer of a run's units.
    pub fn new() -> Dealer {
        Dealer { state: Mutex::default(), released: Notify::new() }
    }

    /// The next unit of `plan` with games of `selection` to play, its lanes
    /// holding only those games, once none of its deals is in flight;
    /// `None` when every unit has been handed out.
    pub async fn next(&self, plan: &Plan, selection: &Selection) -> Option<Unit> {
        loop {
            let released = self.released.notified();
            tokio::pin!(released);
            released.as_mut().enable();
            match self.take(plan, selection) {
                Taken::Unit(unit) => return Some(unit),
                Taken::None => return None,
                Taken::Busy => released.await,
            }
        }
    }

    /// [`Dealer::next`] without waiting, for a worker that takes units
    /// ahead of the one it plays: `None` when every unit left must wait for
    /// its deals, or when fewer than `leave` others would be left (for the
    /// workers that have none).
    pub fn next_now(&self, plan: &Plan, selection: &Selection, leave: usize) -> Option<Unit> {
        {
            let state = self.state.lock().expect("dealer lock");
            let left = state.ready.len() + state.deferred.len() + (plan.cells() - state.next) as usize;
            if left <= leave {
                return None;
            }
        }
        match self.take(plan, selection) {
            Taken::Unit(unit) => Some(unit),
            Taken::None | Taken::Busy => None,
        }
    }

    fn take(&self, plan: &Plan, selection: &Selection) -> Taken {
        let mut state = self.state.lock().expect("dealer lock");
        let state = &mut *state;
        let free = |unit: &Unit, busy: &HashSet<u64>| unit.deals.iter().all(|deal| !busy.contains(deal));
        if let Some(at) = state.deferred.iter().position(|unit| free(unit, &state.busy)) {
            let unit = state.deferred.remove(at).expect("found");
            state.busy.extend(&unit.deals);
            return Taken::Unit(unit);
        }
        while state.deferred.len() < MOST_DEFERRED {
            let Some(mut unit) = state.ready.pop_front() else {
                if state.next == plan.cells() {
                    break;
                }
                state.ready.extend(plan.cell(state.next));
                state.next += 1;
                continue;
            };
            for lane in &mut unit.lanes {
                lane.games.retain(|&id| selection.contains(id));
            }
            unit.lanes.retain(|lane| !lane.games.is_empty());
            if unit.lanes.is_empty() {
                continue;
            }
            if free(&unit, &state.busy) {
                state.busy.extend(&unit.deals);
                return Taken::Unit(unit);
            }
            state.deferred.push_back(unit);
        }
        if state.deferred.is_empty() { Taken::None } else { Taken::Busy }
    }

    /// Notes that `unit`, handed out by [`Dealer::next`], is over.
    pub fn done(&self, unit: &Unit) {
        let mut state = self.state.lock().expect("dealer lock");
        for deal in &unit.deals {
            state.busy.remove(deal);
        }
        drop(state);
        self.released.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::lanes::Restart;
    use crate::schedule::{Format, Schedule, Seating, groups};

    fn run<T>(future: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
    }

    #[test]
    fn units_come_in_plan_order_without_the_games_played_before() {
        let schedule = Schedule::duplicate_match(7, &[vec![0], vec![1]], 40).unwrap();
        let plan = Plan::new(schedule.clone(), Restart::Lane, 2, None, false);
        let selection = Selection::new(&schedule, None, |id| id == 3);
        let dealer = Dealer::new();
        let handed = run(async {
            let mut handed = Vec::new();
            while let Some(unit) = dealer.next(&plan, &selection).await {
                handed.push(unit.clone());
                dealer.done(&unit);
            }
            handed
        });
        let all: Vec<Unit> = (0..plan.cells()).flat_map(|cell| plan.cell(cell)).collect();
        assert_eq!(
            handed.iter().map(|u| &u.deals).collect::<Vec<_>>(),
            all.iter().map(|u| &u.deals).collect::<Vec<_>>()
        );
        let mut ids: Vec<u64> = handed.iter().flat_map(|u| u.lanes.iter().flat_map(|l| l.games.clone())).collect();
        ids.sort_unstable();
        assert_eq!(ids, (0..40).filter(|&id| id != 3).collect::<Vec<_>>());
    }

    #[test]
    fn no_two_units_of_a_deal_are_handed_out_at_once() {
        // Three pairs sharing their deals: a window's units wait for each other.
        let pairs = groups(Format::RoundRobin, 3, 2);
        let schedule = Schedule::league(7, &[vec![0], vec![1]], &pairs, Seating::EveryOrder, 8).unwrap();
        let plan = Plan::new(schedule.clone(), Restart::Lane, 1, None, false);
        let selection = Selection::new(&schedule, None, |_| false);
        let dealer = Dealer::new();
        let all: Vec<Unit> = (0..plan.cells()).flat_map(|cell| plan.cell(cell)).collect();
        let overlap = |a: &Unit, b: &Unit| a.deals.iter().any(|deal| b.deals.contains(deal));
        run(async {
            let first = dealer.next(&plan, &selection).await.unwrap();
            let second = dealer.next(&plan, &selection).await.unwrap();
            assert!(!overlap(&first, &second), "never two units of a deal");
            let third = dealer.next_now(&plan, &selection, 0);
            if let Some(unit) = &third {
                assert!(!overlap(unit, &first) && !overlap(unit, &second), "never two units of a deal");
            }
            for unit in [Some(first), Some(second), third.clone()].iter().flatten() {
                dealer.done(unit);
            }
            let mut handed = 2 + usize::from(third.is_some());
            while let Some(unit) = dealer.next(&plan, &selection).await {
                handed += 1;
                dealer.done(&unit);
            }
            assert_eq!(handed, all.len(), "every unit, once");
        });
    }
}
