//! The checks of a bot that plays many games at once in one process (its
//! `ready` says `"games": N`, N of 2 or more): games interleaved in one
//! session, their answers taken in whatever order they come, and a fault
//! in one game that leaves the others playing. Each check plays the first
//! position of the engine's in several games at once.

use super::report::{fix_for, lines};
use super::start::{start, table};
use super::{Case, Context, Failure, Timing};
use crate::bot::fault::{Fault, FaultKind};
use crate::bot::process::Envelope;
use crate::bot::session::{Conversation, GameLine, Session};
use crate::run::session::{self, Answered};
use crate::run::table::Table;
use crate::schedule::seeds;
use futures_util::future::join_all;
use protocol::messages::{Forfeit, GameEnd, GameStart};
use std::time::Duration;

/// How many games a check plays at once, at most.
const AT_ONCE: usize = 4;

/// A fresh session of the bot, in the seat of the first position.
async fn session(context: &Context, table: &Table) -> Result<Session, Failure> {
    let (process, _) = start(table, context.checked.cases[0].seat).await?;
    Ok(Session::start(process, context.settings.limits.exit_grace))
}

/// Opens game `n` of a check in `session`: its `game_start` and what its seat was told of the position.
fn open(context: &Context, session: &Session, n: u64) -> GameLine {
    let case = &context.checked.cases[0];
    let deal = seeds::deal_seed(context.settings.seed, n);
    let mut line = session.open(seeds::game_tag(deal, 0));
    let start =
        GameStart { id: line.game(), seed: seeds::bot_seed(context.settings.seed, n, case.seat), seat: case.seat };
    line.queue(&Envelope::GameStart(start));
    for view in &case.told {
        line.queue(view);
    }
    line
}

/// Asks `line` for its move at the first position within `limit`: the
/// answer in time and legal, or the check's failure.
async fn ask(context: &Context, line: &mut GameLine, limit: Duration) -> Result<Duration, (FaultKind, Failure)> {
    let case: &Case = &context.checked.cases[0];
    let answered = session::ask_move(line, &case.state, &case.choices, limit, None).await;
    let fault = match answered {
        Ok(Answered::Index(decision)) => return Ok(decision.elapsed),
        Ok(Answered::Named(named)) => match (case.find)(&named.named) {
            Ok(_) => return Ok(named.elapsed),
            Err(why) => named.not_legal(why),
        },
        Err(fault) => fault,
    };
    Err((fault.kind, failed(line, fault)))
}

/// The failure of an answer, noted in `timing` when it is a timeout.
fn noted(timing: &mut Timing, (kind, failure): (FaultKind, Failure)) -> Failure {
    timing.timed_out |= kind == FaultKind::Timeout;
    failure
}

/// The failure of a check whose game `line` faulted.
fn failed(line: &GameLine, fault: Fault) -> Failure {
    let problem = format!("game {}: {fault}", line.game());
    let mut fix = fix_for(fault.kind);
    fix.push_str("; in a session, every line names its game: see protocol/PROTOCOL.md#many-games-in-one-process");
    let sent = lines(line.last_sent());
    Failure { problem, sent, stderr: line.stderr().to_vec(), fix }
}

/// Ends game `line` as a match does: its `game_end`, forfeited by `forfeits`.
fn end(table: &Table, mut line: GameLine, forfeits: Vec<Forfeit>) {
    let seats = table.seats();
    let last = forfeits.first().map(|forfeit| forfeit.seat);
    let ranks = (0..seats).map(|seat| u32::from(Some(seat) == last)).collect();
    let reason = if forfeits.is_empty() { "checked" } else { "forfeit" }.to_string();
    line.queue(&Envelope::GameEnd(GameEnd { id: line.game(), reason, scores: vec![0; seats], ranks, forfeits }));
    line.end();
}

/// Up to four games at once: every game's `game_start` and position, then
/// every game's turn, all written before any answer is read; the answers
/// are taken in the order they come.
pub async fn interleaved(context: &Context, games: usize, timing: &mut Timing) -> Result<String, Failure> {
    let table = table(context, &context.checked.cases[0].variant);
    let session = session(context, &table).await?;
    let count = games.min(AT_ONCE);
    let mut lines: Vec<GameLine> = (0..count as u64).map(|n| open(context, &session, n)).collect();
    let limit = context.settings.limits.move_timeout;
    let answers = join_all(lines.iter_mut().map(|line| ask(context, line, limit))).await;
    let mut order: Vec<(Duration, usize)> = Vec::new();
    for (n, answer) in answers.into_iter().enumerate() {
        let elapsed = answer.map_err(|failed| noted(timing, failed))?;
        timing.note(elapsed);
        order.push((elapsed, n + 1));
    }
    for line in lines {
        end(&table, line, Vec::new());
    }
    session.close(context.settings.limits.exit_grace).await;
    order.sort();
    let order: Vec<String> = order.iter().map(|(_, n)| n.to_string()).collect();
    let sorted = order.windows(2).all(|pair| pair[0] <= pair[1]);
    let how = if sorted { "in the order asked" } else { "out of order" };
    Ok(format!("{count} games at once, answered {how} (games {})", order.join(", ")))
}

/// A fault in one game leaves the others: game 1's turn times out at once
/// and the game ends, forfeited; game 2, open meanwhile, and game 3, opened
/// after, must still be answered, in the same process.
pub async fn one_fault(context: &Context, timing: &mut Timing) -> Result<String, Failure> {
    let table = table(context, &context.checked.cases[0].variant);
    let session = session(context, &table).await?;
    let seat = context.checked.cases[0].seat;
    let mut first = open(context, &session, 0);
    let mut second = open(context, &session, 1);
    // No answer can come in no time: the turn is the first game's timeout, at once.
    let _ = ask(context, &mut first, Duration::ZERO).await;
    end(&table, first, vec![Forfeit { seat, kind: FaultKind::Timeout.name().to_string() }]);
    let limit = context.settings.limits.move_timeout;
    let elapsed = ask(context, &mut second, limit).await.map_err(|failed| noted(timing, failed))?;
    timing.note(elapsed);
    end(&table, second, Vec::new());
    let mut third = open(context, &session, 2);
    let elapsed = ask(context, &mut third, limit).await.map_err(|failed| noted(timing, failed))?;
    timing.note(elapsed);
    end(&table, third, Vec::new());
    session.close(context.settings.limits.exit_grace).await;
    Ok("game 1 forfeited on a timeout; game 2, open meanwhile, and game 3, opened after, answered in the same \
        process"
        .to_string())
}
