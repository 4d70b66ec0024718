//! The protocol as the arena speaks it with one bot process: the handshake
//! and a move request, each turning whatever the bot does into either the
//! expected answer or a [`Fault`].

use crate::bot::process::{Awaited, BotProcess};
use crate::fault::{Fault, FaultKind};
use game::Game;
use protocol::line::{self, LineError};
use protocol::messages::{FromBot, Hello, Ready, ToBot, Turn};
use std::time::Duration;
use tokio::time::Instant;

/// The envelope messages of game `G`.
pub type Envelope<G> = ToBot<<G as Game>::Variant, <G as Game>::State, <G as Game>::Choice>;

/// Sends `hello` (with whatever else is queued) and waits for `ready`.
pub async fn handshake<G: Game>(
    process: &mut BotProcess,
    hello: Hello<G::Variant>,
    limit: Duration,
) -> Result<Ready, Fault> {
    process.queue(&Envelope::<G>::Hello(hello));
    let line = process.exchange(Instant::now() + limit, limit, Awaited::Hello).await?;
    let answer = match decode::<G>(line) {
        Ok(answer) => answer,
        Err(fault) if fault.kind == FaultKind::NotJson => return Err(not_started(process, fault).await),
        Err(fault) => return Err(fault),
    };
    match answer {
        FromBot::Ready(ready) => match ready.protocol {
            Some(version) if version != protocol::VERSION => Err(Fault::new(
                FaultKind::Protocol,
                format!("the bot speaks protocol version {version}; the arena speaks version {}", protocol::VERSION),
            )),
            _ => Ok(ready),
        },
        FromBot::Move(_) => Err(Fault::new(
            FaultKind::BadMessage,
            format!("expected \"ready\" in answer to hello, got a move: {}", excerpt(line)),
        )),
    }
}

/// How many more lines of a bot's stdout a start-up fault shows.
const STARTUP_LINES: usize = 4;
/// How long the arena waits for them.
const STARTUP_LINES_PATIENCE: Duration = Duration::from_millis(200);

/// A bot that answered `hello` with something other than JSON has usually
/// failed to start and said why on stdout (the JVM prints its fatal errors
/// there): the fault shows the next few lines it wrote too.
async fn not_started(process: &mut BotProcess, mut fault: Fault) -> Fault {
    let more = process.more_lines(STARTUP_LINES, STARTUP_LINES_PATIENCE).await;
    if !more.is_empty() {
        fault.message = format!("{}; then on stdout: {}", fault.message, more.join(" / "));
    }
    fault
        .message
        .push_str(" (a bot's first line must be its JSON answer to hello; anything for humans goes to stderr)");
    fault
}

/// A move the bot chose, and how long it took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The index of the move in the game's legal moves.
    pub index: usize,
    /// From writing the request to reading the answer.
    pub elapsed: Duration,
}

/// Asks the bot in `seat` for its move and checks the answer against `game`.
pub async fn ask_move<G: Game>(
    process: &mut BotProcess,
    game: &G,
    seat: usize,
    limit: Duration,
) -> Result<Decision, Fault> {
    let id = process.next_request_id();
    let legal = game.choices();
    let count = legal.len();
    let turn = Turn { id, time_ms: limit.as_millis() as u64, state: game.state(seat), legal };
    process.queue(&Envelope::<G>::Turn(turn));
    let start = Instant::now();
    let line = process.exchange(start + limit, limit, Awaited::Turn(id)).await?;
    let elapsed = start.elapsed();
    in_time(elapsed, limit, id)?;
    if let Some((answered, index)) = protocol::messages::move_by_index(line)
        && answered == id
        && index < count
    {
        return Ok(Decision { index, elapsed });
    }
    let reply = match decode::<G>(line)? {
        FromBot::Move(reply) => reply,
        FromBot::Ready(_) => {
            return Err(Fault::new(
                FaultKind::BadMessage,
                format!("expected a move in answer to turn {id}, got \"ready\": {}", excerpt(line)),
            ));
        }
    };
    if reply.id != id {
        return Err(Fault::new(
            FaultKind::WrongId,
            format!("answered id {} while turn {id} was pending: {}", reply.id, excerpt(line)),
        ));
    }
    let index = match (reply.index, &reply.value) {
        (Some(index), None) if index < count => index,
        (Some(index), None) => {
            return Err(Fault::new(
                FaultKind::IllegalMove,
                format!(
                    "index {index} is out of range: turn {id} listed {count} legal moves (indices 0 to {})",
                    count.saturating_sub(1)
                ),
            ));
        }
        (None, Some(named)) => game.find_move(named).ok_or_else(|| {
            let why = game.why_illegal(named).map(|why| format!(" ({why})")).unwrap_or_default();
            Fault::new(
                FaultKind::IllegalMove,
                format!("the move is not one of the {count} legal moves of turn {id}{why}: {}", excerpt(line)),
            )
        })?,
        _ => {
            return Err(Fault::new(
                FaultKind::BadMessage,
                format!("a move must give exactly one of \"index\" and \"move\": {}", excerpt(line)),
            ));
        }
    };
    Ok(Decision { index, elapsed })
}

/// Whether a move read `elapsed` after its request came within `limit`. A
/// line can be read past the deadline when the arena's thread ran late (an
/// oversubscribed machine): such a move is a timeout all the same, never
/// recorded as made in time.
fn in_time(elapsed: Duration, limit: Duration, id: u64) -> Result<(), Fault> {
    if elapsed <= limit {
        return Ok(());
    }
    Err(Fault::new(
        FaultKind::Timeout,
        format!(
            "the answer to turn {id} was read {} ms after its request, over the limit of {} ms",
            elapsed.as_millis(),
            limit.as_millis()
        ),
    ))
}

/// Queues what `seat` is told of every event of `game` from number `from` on,
/// and returns the number of the next event to tell.
pub fn tell<G: Game>(process: &mut BotProcess, game: &G, seat: usize, from: usize) -> usize {
    for event in game.events_since(from) {
        if let Some(view) = game.view(&event, seat) {
            process.queue(&view);
        }
    }
    game.event_count()
}

fn decode<G: Game>(line: &[u8]) -> Result<FromBot<G::Move>, Fault> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Err(Fault::new(FaultKind::NotJson, crate::fault::EMPTY_LINE));
    }
    line::decode(line).map_err(|e| {
        let kind = match e {
            LineError::NotUtf8(_) | LineError::NotJson(_) => FaultKind::NotJson,
            LineError::Shape(_) => FaultKind::BadMessage,
        };
        Fault::new(kind, format!("{e}: {}", excerpt(line)))
    })
}

/// The start of a line, for fault messages.
pub(crate) fn excerpt(line: &[u8]) -> String {
    const MAX: usize = 160;
    let text = String::from_utf8_lossy(&line[..line.len().min(MAX)]);
    if line.len() > MAX { format!("{text}… ({} bytes)", line.len()) } else { text.into_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_read_past_the_limit_is_a_timeout() {
        let limit = Duration::from_millis(30);
        assert!(in_time(limit, limit, 1).is_ok());
        let late = in_time(Duration::from_millis(294), limit, 7).unwrap_err();
        assert_eq!(late.kind, FaultKind::Timeout);
        assert!(
            late.message.contains("turn 7 was read 294 ms after its request, over the limit of 30 ms"),
            "{}",
            late.message
        );
    }
}
