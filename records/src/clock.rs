//! Game clocks: a time control (`--clock BASE+INC`, as a chess tester's
//! `tc=time+inc`) and the clock each seat of a game runs on it. Pure.
//!
//! Each seat starts a game with `base` on its clock. A move may use what
//! the clock has left, and no more than the per-move limit
//! (`--move-timeout`): the time from writing the turn to reading the answer
//! is taken off the seat's clock, then `increment` is added. A seat whose
//! answer comes after its clock ran out forfeits on time (a `timeout`
//! fault, blamed on that seat).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control: what each seat's clock starts a game with, and what
/// each move adds to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// What each seat's clock starts a game with, in milliseconds.
    pub base_ms: u64,
    /// What each move adds to the mover's clock once it is made, in milliseconds.
    pub increment_ms: u64,
}

/// How `--clock` is written, for error messages and help.
pub const FORM: &str = "BASE+INC, each milliseconds or a number with a unit ms, s or m (e.g. 60s+1s, 5000+100, 2m+0)";

impl TimeControl {
    /// What each seat's clock starts a game with.
    pub fn base(&self) -> Duration {
        Duration::from_millis(self.base_ms)
    }

    /// What each move adds.
    pub fn increment(&self) -> Duration {
        Duration::from_millis(self.increment_ms)
    }

    /// A clock that starts a game.
    pub fn start(&self) -> Clock {
        Clock { left: self.base(), increment: self.increment() }
    }
}

/// Why a time control (`--clock`, a league file's `clock`) is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockError {
    /// No `+` between the base and the increment.
    NoPlus {
        /// The time control as given.
        text: String,
    },
    /// The base is not a time.
    BadBase {
        /// The time control as given.
        text: String,
        /// Its base.
        base: String,
    },
    /// The increment is not a time.
    BadIncrement {
        /// The time control as given.
        text: String,
        /// Its increment.
        increment: String,
    },
    /// The base is 0.
    EmptyBase {
        /// The time control as given.
        text: String,
    },
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::NoPlus { text } => write!(f, "{text:?}: expected {FORM}"),
            ClockError::BadBase { text, base } => {
                write!(f, "{text:?}: the base {base:?} is not a time; expected {FORM}")
            }
            ClockError::BadIncrement { text, increment } => {
                write!(f, "{text:?}: the increment {increment:?} is not a time; expected {FORM}")
            }
            ClockError::EmptyBase { text } => {
                write!(f, "{text:?}: the base must be more than 0 (a clock that starts empty loses every game)")
            }
        }
    }
}

impl std::error::Error for ClockError {}

impl FromStr for TimeControl {
    type Err = ClockError;

    fn from_str(text: &str) -> Result<TimeControl, ClockError> {
        let given = || text.to_string();
        let (base, increment) = text.split_once('+').ok_or_else(|| ClockError::NoPlus { text: given() })?;
        let base_ms = millis(base).ok_or_else(|| ClockError::BadBase { text: given(), base: base.to_string() })?;
        let increment_ms = millis(increment)
            .ok_or_else(|| ClockError::BadIncrement { text: given(), increment: increment.to_string() })?;
        if base_ms == 0 {
            return Err(ClockError::EmptyBase { text: given() });
        }
        Ok(TimeControl { base_ms, increment_ms })
    }
}

/// A time in milliseconds: digits, with an optional unit `ms`, `s` or `m`
/// (a fraction allowed with a unit, e.g. `1.5s`).
fn millis(text: &str) -> Option<u64> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale = match unit.trim() {
        "" | "ms" => 1.0,
        "s" => 1000.0,
        "m" => 60_000.0,
        _ => return None,
    };
    if number.is_empty() || (unit.is_empty() && number.contains('.')) {
        return None;
    }
    let value: f64 = number.parse().ok()?;
    let ms = (value * scale).round();
    (ms.is_finite() && ms < u64::MAX as f64).then_some(ms as u64)
}

impl fmt::Display for TimeControl {
    /// As `--clock` takes it, in milliseconds: `60000+1000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.base_ms, self.increment_ms)
    }
}

/// The time a seat plays under: its per-move limit and its game clock, if
/// any. A run gives every seat the same, unless a bot has time odds of its
/// own (`arena match --bot-clock`, `--bot-move-timeout`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// The most a move may take, in milliseconds.
    pub move_timeout_ms: u64,
    /// The seat's game clock, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControl>,
}

impl Timing {
    /// The most a move may take.
    pub fn move_timeout(&self) -> Duration {
        Duration::from_millis(self.move_timeout_ms)
    }
}

/// One seat's clock in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// What is left on it.
    pub left: Duration,
    /// What each move adds once it is made.
    pub increment: Duration,
}

impl Clock {
    /// The time a move may use under the per-move limit `move_limit`: what
    /// is left, and no more than the limit.
    pub fn allows(&self, move_limit: Duration) -> Duration {
        self.left.min(move_limit)
    }

    /// Whether a move that took `elapsed` came before the clock ran out.
    pub fn covers(&self, elapsed: Duration) -> bool {
        elapsed <= self.left
    }

    /// Takes a move that took `elapsed` (which the clock [covers](Self::covers)) off
    /// the clock and adds the increment.
    pub fn spend(&mut self, elapsed: Duration) {
        self.left = self.left.saturating_sub(elapsed) + self.increment;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_forms_of_a_time_control() {
        let control = |base_ms, increment_ms| Ok(TimeControl { base_ms, increment_ms });
        assert_eq!("60s+1s".parse(), control(60_000, 1000));
        assert_eq!("5000+100".parse(), control(5000, 100));
        assert_eq!("2m+0".parse(), control(120_000, 0));
        assert_eq!("1.5s+250ms".parse(), control(1500, 250));
        assert_eq!(" 10s + 0.1s ".parse(), control(10_000, 100));
        for (bad, why) in [
            ("60s", "expected BASE+INC"),
            ("x+1", "the base \"x\" is not a time"),
            ("1+1h", "the increment \"1h\" is not a time"),
            ("1.5+0", "the base \"1.5\" is not a time"),
            ("0+100", "the base must be more than 0"),
            ("+1", "the base \"\" is not a time"),
        ] {
            let err = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
        assert_eq!(TimeControl { base_ms: 60_000, increment_ms: 1000 }.to_string(), "60000+1000");
    }

    #[test]
    fn a_move_uses_the_clock_then_gains_the_increment() {
        let ms = Duration::from_millis;
        let mut clock = TimeControl { base_ms: 2000, increment_ms: 100 }.start();
        assert_eq!(clock.allows(ms(1000)), ms(1000), "the per-move limit binds while the clock has more");
        assert!(clock.covers(ms(600)));
        clock.spend(ms(600));
        assert_eq!(clock.left, ms(1500));
        clock.spend(ms(900));
        clock.spend(ms(650));
        assert_eq!(clock.left, ms(150));
        assert_eq!(clock.allows(ms(1000)), ms(150), "then the clock does");
        assert!(!clock.covers(ms(151)));
    }
}
