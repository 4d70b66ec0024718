//! Which game a run plays next: the games of the schedule deal by deal,
//! each deal in play order ([`Schedule::in_play_order`]: a keyed shuffle of
//! its groups and seat orders), except
//! that no game starts while another game of the same deal is in flight. The
//! arrangements of a deal, and its copies in other groups, are then played
//! one after another, so no two bot processes alive at the same time have
//! been dealt the same cards (which they could otherwise tell each other).

use crate::schedule::{GameSpec, Schedule, Selection};
use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;
use tokio::sync::Notify;

/// How many games may wait for their deal before the dealer stops looking
/// further ahead (and waits for a deal to be free).
const MOST_DEFERRED: usize = 4096;

/// Hands out the games of a run.
pub struct Dealer {
    state: Mutex<State>,
    released: Notify,
    /// How many distinct deals there are (`None`: each deal number is its own).
    distinct: Option<u64>,
}

#[derive(Default)]
struct State {
    /// The rest of the current deal, in play order.
    deal: VecDeque<u64>,
    /// Where the next deal starts.
    next_deal: u64,
    /// Games passed over while their deal was in flight, in schedule order.
    deferred: VecDeque<GameSpec>,
    /// The deals in flight.
    busy: HashSet<u64>,
}

impl Dealer {
    /// A dealer for a run whose deal `d` is the same cards as deal
    /// `d % distinct` (games set up from a file of `distinct` setups), or
    /// whose every deal number is its own deal (`None`).
    pub fn new(distinct: Option<u64>) -> Dealer {
        Dealer { state: Mutex::default(), released: Notify::new(), distinct }
    }

    /// The deal a game is dealt.
    pub fn deal_of(&self, spec: &GameSpec) -> u64 {
        self.distinct.map_or(spec.deal, |distinct| spec.deal % distinct.max(1))
    }

    /// The next game of `selection` to play, once no game of its deal is in
    /// flight; `None` when every game has been handed out.
    pub async fn next(&self, schedule: &Schedule, selection: &Selection) -> Option<GameSpec> {
        loop {
            let released = self.released.notified();
            tokio::pin!(released);
            released.as_mut().enable();
            {
                let mut state = self.state.lock().expect("dealer lock");
                let state = &mut *state;
                if let Some(at) = state.deferred.iter().position(|spec| !state.busy.contains(&self.deal_of(spec))) {
                    let spec = state.deferred.remove(at).expect("found");
                    state.busy.insert(self.deal_of(&spec));
                    return Some(spec);
                }
                while state.deferred.len() < MOST_DEFERRED {
                    let Some(id) = state.deal.pop_front() else {
                        let games = schedule.deal_games(state.next_deal);
                        if games.is_empty() {
                            break;
                        }
                        state.next_deal = games.end;
                        if games.clone().any(|id| selection.contains(id)) {
                            state.deal = schedule.in_play_order(games).into();
                        }
                        continue;
                    };
                    if !selection.contains(id) {
                        continue;
                    }
                    let spec = schedule.get(id).expect("an id of the schedule");
                    let deal = self.deal_of(&spec);
                    if state.busy.insert(deal) {
                        return Some(spec);
                    }
                    state.deferred.push_back(spec);
                }
                if state.deferred.is_empty() {
                    return None;
                }
            }
            released.await;
        }
    }

    /// Notes that `spec`, handed out by [`Dealer::next`], is over.
    pub fn done(&self, spec: &GameSpec) {
        self.state.lock().expect("dealer lock").busy.remove(&self.deal_of(spec));
        self.released.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<T>(future: impl std::future::Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
    }

    #[test]
    fn one_game_at_a_time_goes_in_play_order() {
        let schedule = Schedule::duplicate_match(7, &[vec![0], vec![1]], 40).unwrap();
        let selection = Selection::new(&schedule, None, |id| id == 3);
        let dealer = Dealer::new(None);
        let mut expected = Vec::new();
        let mut start = 0;
        while start < schedule.len() {
            let games = schedule.deal_games(start);
            start = games.end;
            expected.extend(schedule.in_play_order(games).into_iter().filter(|&id| id != 3));
        }
        let handed = run(async {
            let mut handed = Vec::new();
            while let Some(spec) = dealer.next(&schedule, &selection).await {
                handed.push(spec.id);
                dealer.done(&spec);
            }
            handed
        });
        assert_eq!(handed, expected, "every deal in play order, less the game played before");
        assert_ne!(handed, (0..40).filter(|&id| id != 3).collect::<Vec<_>>(), "not in the order of the ids");
    }

    #[test]
    fn no_two_games_of_a_deal_are_handed_out_at_once() {
        let schedule = Schedule::duplicate_match(7, &[vec![0], vec![1], vec![2]], 12).unwrap();
        let selection = Selection::new(&schedule, None, |_| false);
        let dealer = Dealer::new(None);
        run(async {
            let first = dealer.next(&schedule, &selection).await.unwrap();
            let second = dealer.next(&schedule, &selection).await.unwrap();
            assert_ne!(first.deal, second.deal, "the other deal's first game, not the first deal's second");
            dealer.done(&first);
            let third = dealer.next(&schedule, &selection).await.unwrap();
            assert_eq!(third.deal, first.deal, "the first deal again once it is free");
            let mut all = vec![first.id, second.id, third.id];
            dealer.done(&second);
            dealer.done(&third);
            while let Some(spec) = dealer.next(&schedule, &selection).await {
                all.push(spec.id);
                dealer.done(&spec);
            }
            all.sort();
            assert_eq!(all, (0..12).collect::<Vec<_>>(), "every game, once");
        });
        let copies = Dealer::new(Some(2));
        let spec = |deal| GameSpec { id: 0, deal, arrangement: 0, seed: 0, seats: vec![], bot_seeds: vec![] };
        assert_eq!(copies.deal_of(&spec(5)), 1, "set up from the same setup as deal 1");
    }
}
