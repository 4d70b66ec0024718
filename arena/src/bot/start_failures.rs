//! Giving up on a bot that cannot start. A bot that never answers `hello`
//! costs the whole start-up timeout in every game it plays (400 games at 10 s
//! each: over an hour), so after [`IN_A_ROW`] start-up failures in a row the
//! run stops paying for it: its remaining games are forfeited without
//! starting it, or, where the run means nothing without it (an SPRT), the run
//! stops.

use crate::bot::fault::Fault;
use std::sync::Mutex;

/// How many start-up failures in a row make the run give up on a bot.
pub const IN_A_ROW: u32 = 3;

/// What a run does once it gives up on a bot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum GiveUp {
    /// Keep starting it (each attempt is checked on its own, as in `check-bot`).
    #[default]
    Never,
    /// Forfeit its remaining games without starting it (`match`, `league`).
    ForfeitRest,
    /// Stop the run (`sprt`, whose test means nothing without both bots).
    StopRun,
}

/// Each bot's start-up failures in a row, shared by the games of a run.
#[derive(Debug, Default)]
pub struct StartFailures {
    bots: Mutex<Vec<Streak>>,
}

#[derive(Debug, Clone, Default)]
struct Streak {
    in_a_row: u32,
    last: String,
}

impl StartFailures {
    /// No failures yet, for `bots` bots.
    pub fn new(bots: usize) -> StartFailures {
        StartFailures { bots: Mutex::new(vec![Streak::default(); bots]) }
    }

    /// Notes that a process of `bot` answered `hello`.
    pub fn started(&self, bot: usize) {
        self.bots.lock().expect("start failures lock")[bot].in_a_row = 0;
    }

    /// Notes that a process of `bot` failed to start with `fault`.
    pub fn failed(&self, bot: usize, fault: &Fault) {
        let mut bots = self.bots.lock().expect("start failures lock");
        let streak = &mut bots[bot];
        streak.in_a_row += 1;
        streak.last = fault.to_string();
    }

    /// Why the run gives up on `bot`, once it failed to start [`IN_A_ROW`]
    /// times in a row.
    pub fn given_up(&self, bot: usize) -> Option<String> {
        let bots = self.bots.lock().expect("start failures lock");
        let streak = &bots[bot];
        (streak.in_a_row >= IN_A_ROW).then(|| {
            format!("it failed to start in {} games in a row (the last time: {})", streak.in_a_row, streak.last)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::fault::FaultKind;

    #[test]
    fn three_failures_in_a_row_give_a_bot_up() {
        let starts = StartFailures::new(2);
        let fault = Fault::new(FaultKind::Timeout, "no complete line as the answer to hello within 300 ms");
        starts.failed(0, &fault);
        starts.failed(0, &fault);
        starts.started(0);
        starts.failed(0, &fault);
        starts.failed(0, &fault);
        assert_eq!(starts.given_up(0), None, "a start in between breaks the streak");
        starts.failed(0, &fault);
        let why = starts.given_up(0).unwrap();
        assert!(why.contains("failed to start in 3 games in a row"), "{why}");
        assert!(why.contains("timeout: no complete line as the answer to hello"), "{why}");
        assert_eq!(starts.given_up(1), None, "per bot");
    }
}
