//! A bot's thinking times, from the `time_us` of its recorded moves, and
//! under a game clock the least it left on its clock (`clock_us`). Pure.

use serde::Serialize;
use std::collections::BTreeMap;

/// Notes that `bot` left `left_us` on its clock after a move: `least`
/// keeps the least of each bot.
pub fn keep_least(least: &mut BTreeMap<String, u64>, bot: &str, left_us: u64) {
    match least.get_mut(bot) {
        Some(kept) => *kept = (*kept).min(left_us),
        None => {
            least.insert(bot.to_string(), left_us);
        }
    }
}

/// A bot's move times, in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MoveTimes {
    /// How many moves were timed.
    pub moves: u64,
    /// The median (the lower one of an even number of moves).
    pub median_us: u64,
    /// The 99th percentile: the time that 99% of the moves took at most.
    pub p99_us: u64,
    /// The longest.
    pub max_us: u64,
    /// The least left on its clock after a move, under a game clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub least_clock_us: Option<u64>,
}

impl MoveTimes {
    /// The statistics of `times` (by nearest rank), `None` when it is empty.
    pub fn of(mut times: Vec<u64>) -> Option<MoveTimes> {
        if times.is_empty() {
            return None;
        }
        times.sort_unstable();
        let n = times.len();
        // The nearest rank of fraction p: the ⌈p·n⌉th smallest, counted from 1.
        let rank = |percent: usize| (percent * n).div_ceil(100).max(1) - 1;
        Some(MoveTimes {
            moves: n as u64,
            median_us: times[rank(50)],
            p99_us: times[rank(99)],
            max_us: times[n - 1],
            least_clock_us: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_least_clock_of_each_bot() {
        let mut least = BTreeMap::new();
        for (bot, left) in [("a", 30), ("b", 5), ("a", 10), ("a", 20)] {
            keep_least(&mut least, bot, left);
        }
        assert_eq!(least, BTreeMap::from([("a".to_string(), 10), ("b".to_string(), 5)]));
    }

    #[test]
    fn median_p99_and_max_by_nearest_rank() {
        assert_eq!(MoveTimes::of(vec![]), None);
        let one = MoveTimes::of(vec![7]).unwrap();
        assert_eq!((one.moves, one.median_us, one.p99_us, one.max_us), (1, 7, 7, 7));
        let four = MoveTimes::of(vec![40, 10, 30, 20]).unwrap();
        assert_eq!((four.median_us, four.p99_us, four.max_us), (20, 40, 40));
        // 1..=200 µs: the 100th, the 198th and the 200th.
        let many = MoveTimes::of((1..=200).rev().collect()).unwrap();
        assert_eq!((many.moves, many.median_us, many.p99_us, many.max_us), (200, 100, 198, 200));
    }
}
