//! The protocol as the arena speaks it with one bot process: the handshake
//! and a move request (of a plain process, or of one game of a session: see
//! [`crate::bot::session`]), each turning whatever the bot does into either
//! the expected answer or a [`Fault`].

use crate::bot::fault::{Fault, FaultKind};
use crate::bot::lines::excerpt;
use crate::bot::process::{Awaited, BotProcess};
use crate::bot::session::Conversation;
use crate::engine::link::Link;
use crate::engine::process::EngineError;
use crate::engine::running::{Found, Running};
use crate::schedule::clock::Clock;
use protocol::line::{self, LineError};
use protocol::messages::{FromBot, Hello, Ready, ToBot, Turn};
use serde::Serialize;
use serde_json::Value;
use std::time::Duration;
use tokio::time::Instant;

/// Sends `hello` (with whatever else is queued) and waits for `ready`.
pub async fn handshake<V: Serialize>(
    process: &mut BotProcess,
    hello: Hello<V>,
    limit: Duration,
) -> Result<Ready, Fault> {
    process.queue(&ToBot::<V, (), ()>::Hello(hello));
    let line = process.exchange(Instant::now() + limit, limit, Awaited::Hello).await?;
    let answer = match decode(line) {
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

/// A bot's answer to a turn, in time and well formed.
#[derive(Debug, Clone, PartialEq)]
pub enum Answered {
    /// A choice by its index, in range.
    Index(Decision),
    /// A move named by value, which the game must find among the choices.
    Named(Named),
}

/// A move a bot named by value.
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// The move, as the bot sent it.
    pub named: Value,
    /// From writing the request to reading the answer.
    pub elapsed: Duration,
    /// The turn's id.
    pub id: u64,
    /// How many choices the turn listed.
    pub count: usize,
    /// The start of the bot's line, for a fault's message.
    pub excerpt: String,
}

impl Named {
    /// The decision, once the game found the move at `index`.
    pub fn found(&self, index: usize) -> Decision {
        Decision { index, elapsed: self.elapsed }
    }

    /// The fault of a move that is none of the choices; `why`, if the game says.
    pub fn not_legal(&self, why: Option<String>) -> Fault {
        let why = why.map(|why| format!(" ({why})")).unwrap_or_default();
        Fault::new(
            FaultKind::IllegalMove,
            format!("the move is not one of the {} legal moves of turn {}{why}: {}", self.count, self.id, self.excerpt),
        )
    }
}

/// Asks the bot in `process` (a plain process, or a game of a session) for its move: sends a turn with `state` and
/// the `legal` choices, and checks that the answer is one of them (by index)
/// or names a move by value. The answer is due within `limit`, and within
/// what is left on the seat's `clock` when there is one (which the turn tells
/// the bot); the caller takes the move's time off the clock.
pub async fn ask_move<S: Serialize, C: Serialize>(
    process: &mut impl Conversation,
    state: &S,
    legal: &[C],
    limit: Duration,
    clock: Option<Clock>,
) -> Result<Answered, Fault> {
    let id = process.next_request_id();
    let count = legal.len();
    let allowed = clock.map_or(limit, |clock| clock.allows(limit));
    // The clock, when it is what runs out first.
    let binding = clock.filter(|clock| clock.left < limit);
    let ms = |time: Duration| time.as_millis() as u64;
    let turn = Turn {
        id,
        time_ms: ms(allowed),
        clock_ms: clock.map(|clock| ms(clock.left)),
        increment_ms: clock.map(|clock| ms(clock.increment)),
        state,
        legal: legal.iter().collect(),
    };
    process.queue(&ToBot::<(), &S, &C>::Turn(turn));
    process.make_way().await;
    let start = Instant::now();
    let line = match process.exchange(start + allowed, allowed, Awaited::Turn(id)).await {
        Err(fault) if fault.kind == FaultKind::Timeout && binding.is_some() => return Err(out_of_clock(fault)),
        answer => answer?,
    };
    let elapsed = start.elapsed();
    match binding {
        Some(clock) if !clock.covers(elapsed) => {
            let late = late(elapsed, "the time left on its clock", allowed, id);
            return Err(out_of_clock(late));
        }
        _ => in_time(elapsed, limit, id)?,
    }
    if let Some((answered, index)) = protocol::messages::move_by_index(line)
        && answered == id
        && index < count
    {
        return Ok(Answered::Index(Decision { index, elapsed }));
    }
    let reply = match decode(line)? {
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
    match (reply.index, reply.value) {
        (Some(index), None) if index < count => Ok(Answered::Index(Decision { index, elapsed })),
        (Some(index), None) => Err(Fault::new(
            FaultKind::IllegalMove,
            format!(
                "index {index} is out of range: turn {id} listed {count} legal moves (indices 0 to {})",
                count.saturating_sub(1)
            ),
        )),
        (None, Some(named)) => Ok(Answered::Named(Named { named, elapsed, id, count, excerpt: excerpt(line) })),
        _ => Err(Fault::new(
            FaultKind::BadMessage,
            format!("a move must give exactly one of \"index\" and \"move\": {}", excerpt(line)),
        )),
    }
}

/// Asks the bot in `process` for its move in `game`, where its seat is to
/// act, a move named by value found by the engine on `link`, under `limit`
/// and `clock` as [`ask_move`]. The outer
/// error is the engine's failure, the inner one the bot's fault.
pub async fn ask_in_game(
    process: &mut impl Conversation,
    game: &Running<'_>,
    link: &mut dyn Link,
    limit: Duration,
    clock: Option<Clock>,
) -> Result<Result<Decision, Fault>, EngineError> {
    Ok(match ask_move(process, game.state(), game.choices(), limit, clock).await {
        Ok(Answered::Index(decision)) => Ok(decision),
        Ok(Answered::Named(named)) => match game.find(link, named.named.clone()).await? {
            Found::Index(index) => Ok(named.found(index)),
            Found::Illegal(why) => Err(named.not_legal(why)),
        },
        Err(fault) => Err(fault),
    })
}

/// Whether a move read `elapsed` after its request came within `limit`. A
/// line can be read past the deadline when the arena's thread ran late (an
/// oversubscribed machine): such a move is a timeout all the same, never
/// recorded as made in time.
fn in_time(elapsed: Duration, limit: Duration, id: u64) -> Result<(), Fault> {
    match elapsed <= limit {
        true => Ok(()),
        false => Err(late(elapsed, "the limit", limit, id)),
    }
}

/// The timeout of the answer to turn `id`, read `elapsed` after its
/// request, past `what` (`allowed`).
fn late(elapsed: Duration, what: &str, allowed: Duration, id: u64) -> Fault {
    Fault::new(
        FaultKind::Timeout,
        format!(
            "the answer to turn {id} was read {} ms after its request, over {what} of {} ms",
            elapsed.as_millis(),
            allowed.as_millis()
        ),
    )
}

/// A timeout that came from the game clock: the seat lost on time.
fn out_of_clock(mut fault: Fault) -> Fault {
    fault.message = format!(
        "out of time on its game clock: {} (a move may use what is left on the clock, up to the per-move limit; \
         budget the clock over the game, using the turn's clock_ms and increment_ms)",
        fault.message
    );
    fault
}

fn decode(line: &[u8]) -> Result<FromBot<Value>, Fault> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Err(Fault::new(FaultKind::NotJson, crate::bot::fault::EMPTY_LINE));
    }
    line::decode(line).map_err(|e| {
        let kind = match e {
            LineError::NotUtf8(_) | LineError::NotJson(_) => FaultKind::NotJson,
            LineError::Shape(_) => FaultKind::BadMessage,
        };
        Fault::new(kind, format!("{e}: {}", excerpt(line)))
    })
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
