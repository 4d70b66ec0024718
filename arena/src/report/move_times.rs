//! A bot's thinking times, from the `time_us` of its recorded moves, kept
//! as a bounded summary: a log-linear histogram ([`hdrhistogram`]) whose
//! size does not grow with the number of moves; and under a game clock the
//! least it left on its clock (`clock_us`). Pure.
//!
//! The count and the longest time are exact; the median and the 99th
//! percentile are exact up to 256 µs and within 1% of the
//! exact nearest-rank value above (each is the highest time of its bucket,
//! never above the longest).

use hdrhistogram::Histogram;
use serde::Serialize;

/// Significant decimal digits the histogram keeps.
const DIGITS: u8 = 2;

#[cfg(test)]
/// The largest relative error of a percentile: 1%.
pub const RELATIVE_ERROR: f64 = 0.01;

#[cfg(test)]
/// Times below this many microseconds are counted each in a bucket of its own (exactly).
pub const BELOW: u64 = 256;

/// Every move time of one bot, summarized.
#[derive(Debug, Clone)]
pub struct Recorder {
    histogram: Histogram<u64>,
    max: u64,
}

impl Default for Recorder {
    fn default() -> Self {
        // Every time a u64 holds that the histogram can take: a fixed size, no resizing.
        let histogram = Histogram::new_with_max(u64::MAX / 2, DIGITS).expect("2 digits up to 2^63 are valid bounds");
        Recorder { histogram, max: 0 }
    }
}

impl Recorder {
    /// Counts one move of `time_us`.
    pub fn record(&mut self, time_us: u64) {
        self.histogram.saturating_record(time_us);
        self.max = self.max.max(time_us);
    }

    /// The statistics of the moves counted (by nearest rank), `None` when there are none.
    pub fn times(&self) -> Option<MoveTimes> {
        let n = self.histogram.len();
        if n == 0 {
            return None;
        }
        // The nearest rank of fraction p: the ⌈p·n⌉th smallest, counted from 1.
        let rank = |percent: u64| (percent * n).div_ceil(100).max(1);
        let at = |percent: u64| {
            let rank = rank(percent);
            let mut seen = 0;
            for bucket in self.histogram.iter_recorded() {
                seen += bucket.count_at_value();
                if seen >= rank {
                    return self.histogram.highest_equivalent(bucket.value_iterated_to()).min(self.max);
                }
            }
            self.max
        };
        Some(MoveTimes { moves: n, median_us: at(50), p99_us: at(99), max_us: self.max, least_clock_us: None })
    }
}

/// A bot's move times, in microseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MoveTimes {
    /// How many moves were timed (exact).
    pub moves: u64,
    /// The median (the lower one of an even number of moves), within 1%.
    pub median_us: u64,
    /// The 99th percentile: the time that 99% of the moves took at most, within 1%.
    pub p99_us: u64,
    /// The longest (exact).
    pub max_us: u64,
    /// The least left on its clock after a move, under a game clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub least_clock_us: Option<u64>,
}

impl MoveTimes {
    #[cfg(test)]
    /// The statistics of `times` (by nearest rank), `None` when it is empty.
    pub fn of(times: impl IntoIterator<Item = u64>) -> Option<MoveTimes> {
        let mut recorder = Recorder::default();
        times.into_iter().for_each(|time| recorder.record(time));
        recorder.times()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_p99_and_max_by_nearest_rank() {
        assert_eq!(MoveTimes::of(vec![]), None);
        let one = MoveTimes::of(vec![7]).unwrap();
        assert_eq!((one.moves, one.median_us, one.p99_us, one.max_us), (1, 7, 7, 7));
        let four = MoveTimes::of(vec![40, 10, 30, 20]).unwrap();
        assert_eq!((four.median_us, four.p99_us, four.max_us), (20, 40, 40));
        // 1..=200 µs: the 100th, the 198th and the 200th.
        let many = MoveTimes::of((1..=200).rev()).unwrap();
        assert_eq!((many.moves, many.median_us, many.p99_us, many.max_us), (200, 100, 198, 200));
    }

    /// The exact nearest-rank value of `percent` in sorted `times`.
    fn exact(times: &[u64], percent: usize) -> u64 {
        times[(percent * times.len()).div_ceil(100).max(1) - 1]
    }

    #[test]
    fn percentiles_are_within_one_percent_and_count_and_max_exact() {
        // A million times spread over six decades (1 µs to 1 s), in a scrambled order.
        let mut times: Vec<u64> =
            (0..1_000_000u64).map(|i| (i * 7_919 % 1_000_003).pow(3) / 1_000_000_000_000 + 1).collect();
        times.push(3_600_000_000);
        let summary = MoveTimes::of(times.iter().copied()).unwrap();
        times.sort_unstable();
        assert_eq!((summary.moves, summary.max_us), (times.len() as u64, 3_600_000_000));
        for (got, percent) in [(summary.median_us, 50), (summary.p99_us, 99)] {
            let want = exact(&times, percent);
            assert!(want >= BELOW, "the test reaches the buckets wider than 1 µs");
            let error = (got as f64 - want as f64).abs() / want as f64;
            assert!(error <= RELATIVE_ERROR, "p{percent}: {got} against {want}");
        }
        // The summary's size is fixed (about 7,000 counters, 57 KB), however many moves it counts.
        let empty = Recorder::default().histogram.distinct_values();
        let full = times.iter().fold(Recorder::default(), |mut r, &t| {
            r.record(t);
            r
        });
        assert_eq!(full.histogram.distinct_values(), empty);
        assert!(empty < 8_000, "{empty} counters");
    }
}
