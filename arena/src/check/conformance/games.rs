//! Whole games of a check, played as a match plays them (the bot's
//! processes kept from one game to the next), and the engine's link closed
//! after a check.

use super::report::fix_for;
use super::{Context, Failure, Timing};
use crate::bot::fault::FaultKind;
use crate::bot::placement::Placement;
use crate::bot::pool::{self, Pool};
use crate::engine::link::Link;
use crate::run::play::play_game;
use crate::run::table::Table;
use crate::schedule::GameSpec;
use crate::schedule::seeds;
use std::time::Duration;

/// `result`, once `link` is closed (the engine's failure to go, if it fails so).
pub(super) async fn closing<T>(link: Box<dyn Link>, result: Result<T, Failure>) -> Result<T, Failure> {
    let closed = link.close().await;
    let value = result?;
    closed?;
    Ok(value)
}

/// The pool that keeps the bot's processes from one game of `table` to the next.
pub(super) fn pool(context: &Context, table: &Table) -> Pool {
    let seats = table.seats();
    Pool::new(Placement::default(), pool::cap(1, seats, seats), context.settings.limits.exit_grace)
}

/// Whole games of `table` on `link`, one for each of `seatings` (the bot of
/// the table in each seat), their processes kept in `pool` from one game to
/// the next: what each game came to, or the failure of the first that
/// could not be played or in which a bot faulted.
pub(super) async fn play_games(
    context: &Context,
    (table, link, pool): (&Table, &mut dyn Link, &Pool),
    seatings: &[Vec<usize>],
    timing: &mut Timing,
) -> Result<Vec<String>, Failure> {
    let count = seatings.len();
    let mut summary = Vec::new();
    for (id, seats) in (0..).zip(seatings) {
        let spec = GameSpec {
            id,
            deal: id,
            arrangement: 0,
            nth: id,
            seed: seeds::deal_seed(context.settings.seed, id),
            seats: seats.clone(),
            bot_seeds: (0..seats.len()).map(|seat| seeds::bot_seed(context.settings.seed, id, seat)).collect(),
        };
        let record = play_game(table, pool, link, &spec, (0, 0)).await.map_err(|unplayable| Failure {
            problem: format!("game {} of {count}: {}", id + 1, unplayable.why),
            sent: Vec::new(),
            stderr: Vec::new(),
            fix: fix_for(FaultKind::Spawn),
        })?;
        let moves: Vec<u64> = record.events.iter().filter_map(|e| e.time_us).collect();
        for &us in &moves {
            timing.note(Duration::from_micros(us));
        }
        for us in record.events.iter().filter_map(|e| e.clock_us) {
            timing.note_clock(Duration::from_micros(us));
        }
        if let Some(fault) = record.faults.first() {
            timing.timed_out |= fault.kind == FaultKind::Timeout;
            let last = record.events.len().saturating_sub(4);
            let mut sent =
                vec![format!("(the last events of game {} before the fault, with full information:)", id + 1)];
            sent.extend(
                record.events[last..].iter().map(|e| serde_json::to_string(&e.event).expect("events serialize")),
            );
            return Err(Failure {
                problem: format!("game {} of {count}, seat {}: {}: {}", id + 1, fault.seat, fault.kind, fault.message),
                sent,
                stderr: fault.stderr.clone(),
                fix: fix_for(fault.kind),
            });
        }
        summary.push(format!("{} moves, ended by {}", moves.len(), record.result.reason));
    }
    Ok(summary)
}
