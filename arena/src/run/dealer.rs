//! Which unit of games a worker plays next (see [`crate::schedule::lanes`]):
//! the plan's units in order, those with no game left to play passed over,
//! except that no unit starts while another unit of one of its deals is in
//! flight (units of groups that share their deals, or a deals file's
//! setups), so that no two processes alive at the same time play the same
//! deal in two games.
//!
//! A run that stops at its answer (an SPRT) also bounds how far its units
//! may run ahead of the oldest not yet over ([`Ahead`]): the games it
//! counts are whole deals in plan order, so a unit played far ahead of an
//! unfinished one would be played and not counted.

use crate::schedule::Selection;
use crate::schedule::lanes::{Plan, Unit};
use std::collections::{BTreeSet, HashSet, VecDeque};
use std::sync::Mutex;
use tokio::sync::Notify;

/// How many units may wait for their deals before the dealer stops looking
/// further ahead (and waits for a deal to be free).
const MOST_DEFERRED: usize = 1024;

/// Hands out the units of a run.
pub struct Dealer {
    state: Mutex<State>,
    released: Notify,
    /// How far units may run ahead of the oldest not yet over; `None` for no bound.
    ahead: Option<Ahead>,
}

/// How far the units of a run that stops at its answer may run ahead of the
/// oldest unit not yet over, in units of plan order.
#[derive(Debug, Clone, Copy)]
pub struct Ahead {
    /// Units played at once, from the oldest handed out ([`Dealer::turn`]).
    pub play: u64,
    /// Units taken at once (handed out, or waiting for their deals), from the
    /// oldest taken: units are handed out ahead of their turn so that their
    /// processes may be started ahead, and a unit waiting for its deals (a
    /// deals file's setups) must not let later units run on without it.
    pub take: u64,
}

/// A unit handed out, with its place among the units handed out.
pub struct Dealt {
    /// The unit.
    pub unit: Unit,
    /// Its place in plan order among the units with games to play, from 0.
    pub seq: u64,
}

/// What the dealer has for a worker now.
enum Taken {
    Unit(Dealt),
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
    deferred: VecDeque<Dealt>,
    /// The deals in flight.
    busy: HashSet<u64>,
    /// How many units have been taken from the plan (handed out or deferred).
    taken: u64,
    /// The places ([`Dealt::seq`]) of the units handed out and not yet over
    /// (not those deferred: a unit that waits for its deals must not hold
    /// back the unit in flight it waits for, which [`Dealer::turn`] would).
    pending: BTreeSet<u64>,
}

impl Dealer {
    /// A dealer of a run's units, bounded by `ahead` if given.
    pub fn new(ahead: Option<Ahead>) -> Dealer {
        let ahead = ahead.map(|ahead| Ahead { play: ahead.play.max(1), take: ahead.take.max(ahead.play).max(1) });
        Dealer { state: Mutex::default(), released: Notify::new(), ahead }
    }

    /// The next unit of `plan` with games of `selection` to play, its lanes
    /// holding only those games, once none of its deals is in flight;
    /// `None` when every unit has been handed out.
    pub async fn next(&self, plan: &Plan, selection: &Selection) -> Option<Dealt> {
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
    pub fn next_now(&self, plan: &Plan, selection: &Selection, leave: usize) -> Option<Dealt> {
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
        if let Some(at) = state.deferred.iter().position(|dealt| free(&dealt.unit, &state.busy)) {
            let dealt = state.deferred.remove(at).expect("found");
            state.busy.extend(&dealt.unit.deals);
            state.pending.insert(dealt.seq);
            return Taken::Unit(dealt);
        }
        loop {
            // The oldest unit taken and not yet over (those deferred are in plan order).
            let deferred = state.deferred.front().map(|dealt| dealt.seq);
            let oldest = state.pending.first().copied().into_iter().chain(deferred).min();
            let held = self.ahead.zip(oldest).is_some_and(|(ahead, oldest)| state.taken >= oldest + ahead.take);
            if held || state.deferred.len() >= MOST_DEFERRED {
                return Taken::Busy;
            }
            let Some(mut unit) = state.ready.pop_front() else {
                if state.next == plan.cells() {
                    return if state.deferred.is_empty() { Taken::None } else { Taken::Busy };
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
            let dealt = Dealt { unit, seq: state.taken };
            state.taken += 1;
            if free(&dealt.unit, &state.busy) {
                state.busy.extend(&dealt.unit.deals);
                state.pending.insert(dealt.seq);
                return Taken::Unit(dealt);
            }
            state.deferred.push_back(dealt);
        }
    }

    /// Waits until `dealt` may be played: at once without a bound, else
    /// once it is among the [`Ahead::play`] units from the oldest handed out
    /// and not yet over. The oldest may always be played, so a slot that plays its
    /// units in the order of their places never waits for ever.
    pub async fn turn(&self, dealt: &Dealt) {
        let Some(ahead) = self.ahead.map(|ahead| ahead.play) else { return };
        loop {
            let released = self.released.notified();
            tokio::pin!(released);
            released.as_mut().enable();
            let oldest = self.state.lock().expect("dealer lock").pending.first().copied();
            if oldest.is_none_or(|oldest| dealt.seq < oldest + ahead) {
                return;
            }
            released.await;
        }
    }

    /// Notes that `dealt`, handed out by [`Dealer::next`], is over.
    pub fn done(&self, dealt: &Dealt) {
        let mut state = self.state.lock().expect("dealer lock");
        for deal in &dealt.unit.deals {
            state.busy.remove(deal);
        }
        state.pending.remove(&dealt.seq);
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
        let plan = Plan::new(schedule.clone(), Restart::Lane, (2, 1), None, false);
        let selection = Selection::new(&schedule, None, |id| id == 3);
        let dealer = Dealer::new(None);
        let handed = run(async {
            let mut handed = Vec::new();
            while let Some(dealt) = dealer.next(&plan, &selection).await {
                handed.push(dealt.unit.clone());
                dealer.done(&dealt);
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
        let plan = Plan::new(schedule.clone(), Restart::Lane, (1, 1), None, false);
        let selection = Selection::new(&schedule, None, |_| false);
        let dealer = Dealer::new(None);
        let all: Vec<Unit> = (0..plan.cells()).flat_map(|cell| plan.cell(cell)).collect();
        let overlap = |a: &Unit, b: &Unit| a.deals.iter().any(|deal| b.deals.contains(deal));
        run(async {
            let first = dealer.next(&plan, &selection).await.unwrap();
            let second = dealer.next(&plan, &selection).await.unwrap();
            assert!(!overlap(&first.unit, &second.unit), "never two units of a deal");
            let third = dealer.next_now(&plan, &selection, 0);
            if let Some(dealt) = &third {
                let unit = &dealt.unit;
                assert!(!overlap(unit, &first.unit) && !overlap(unit, &second.unit), "never two units of a deal");
            }
            let mut handed = 2 + usize::from(third.is_some());
            for dealt in [Some(first), Some(second), third].iter().flatten() {
                dealer.done(dealt);
            }
            while let Some(dealt) = dealer.next(&plan, &selection).await {
                handed += 1;
                dealer.done(&dealt);
            }
            assert_eq!(handed, all.len(), "every unit, once");
        });
    }

    #[test]
    fn a_bounded_dealer_plays_no_unit_beyond_the_oldest_not_yet_over() {
        let schedule = Schedule::duplicate_match(7, &[vec![0], vec![1]], 40).unwrap();
        let plan = Plan::new(schedule.clone(), Restart::Lane, (2, 1), None, true);
        let selection = Selection::new(&schedule, None, |_| false);
        let dealer = Dealer::new(Some(Ahead { play: 2, take: 4 }));
        let waits = |dealt: &Dealt| {
            let turn = std::pin::pin!(dealer.turn(dealt));
            run(async { tokio::time::timeout(std::time::Duration::from_millis(1), turn).await.is_err() })
        };
        let first = run(dealer.next(&plan, &selection)).unwrap();
        let second = run(dealer.next(&plan, &selection)).unwrap();
        let third = run(dealer.next(&plan, &selection)).unwrap();
        assert_eq!([first.seq, second.seq, third.seq], [0, 1, 2]);
        let fourth = dealer.next_now(&plan, &selection, 0).unwrap();
        assert!(dealer.next_now(&plan, &selection, 0).is_none(), "no fifth unit is taken before the first is over");
        assert!(!waits(&first) && !waits(&second), "the two oldest may be played");
        assert!(waits(&third), "the third waits for the oldest");
        dealer.done(&second);
        assert!(waits(&third), "the oldest is not over yet");
        dealer.done(&first);
        assert!(!waits(&third), "within two of the oldest now");
        assert!(waits(&Dealt { unit: third.unit.clone(), seq: 4 }), "4 is not within two of 2");
        assert_eq!(dealer.next_now(&plan, &selection, 0).map(|dealt| dealt.seq), Some(4), "within four of 2");
        assert!(!waits(&fourth));
    }
}
