//! The one game loop: a game on the engine is played out turn by turn, each
//! seat told what it sees of every event before anyone moves, the seat to
//! act asked for its move, the move played. Who answers a seat is the
//! caller's ([`Seats`]): a bot process through its session (a match, `arena
//! play`'s other seats), a person at the terminal (`arena play`), the
//! recorded move (`arena replay`), or a check's probe (`arena check-bot`).

use crate::bot::fault::Fault;
use crate::engine::link::Link;
use crate::engine::process::EngineError;
use crate::engine::running::Running;
use crate::run::session::Decision;
use protocol::engine::{Raw, StepEvent};

/// How the seat to act answered its turn.
#[derive(Debug)]
pub enum Answer {
    /// The choice to play (an index into [`Running::choices`]), and how long
    /// the seat took to decide.
    Play(Decision),
    /// The seat faulted: the game ends at once, forfeited by that seat.
    Fault(Fault),
    /// The game ends at once without an outcome: a person left, or the
    /// caller has seen what it needed.
    Stop,
}

/// How a game played out.
#[derive(Debug)]
pub enum Ended {
    /// The game is over (every seat was told every event).
    Over,
    /// The seat to act faulted, as it answered its turn.
    Faulted(usize, Fault),
    /// The seat to act answered [`Answer::Stop`].
    Stopped,
}

/// Who answers each seat of a game, and what each seat is told.
pub trait Seats {
    /// Why a game cannot go on (the engine's failure among them).
    type Error: From<EngineError>;

    /// Tells `seat` what it sees of `event` (its `views[seat]`, if any).
    fn tell(&mut self, seat: usize, event: &StepEvent<Raw>);

    /// The answer of `seat`, the seat to act in `game` (on `link`).
    fn answer(
        &mut self,
        seat: usize,
        game: &Running<'_>,
        link: &mut dyn Link,
    ) -> impl Future<Output = Result<Answer, Self::Error>>;

    /// Notes that `seat`'s move, `decision`, was played in `game`: the move
    /// is its event number `at`.
    fn played(&mut self, seat: usize, decision: Decision, at: usize, game: &Running<'_>);
}

/// Plays `game` (on `link`) out from where it stands, each seat answered
/// and told by `seats`.
///
/// # Errors
/// When the engine fails, or `seats` cannot go on.
pub async fn play_out<S: Seats>(game: &mut Running<'_>, link: &mut dyn Link, seats: &mut S) -> Result<Ended, S::Error> {
    let mut told = 0;
    while let Some(seat) = game.to_act() {
        told = tell(game, told, seats);
        let decision = match seats.answer(seat, game, link).await? {
            Answer::Play(decision) => decision,
            Answer::Fault(fault) => return Ok(Ended::Faulted(seat, fault)),
            Answer::Stop => return Ok(Ended::Stopped),
        };
        let at = game.events().len();
        game.play(link, decision.index).await?;
        seats.played(seat, decision, at, game);
    }
    tell(game, told, seats);
    Ok(Ended::Over)
}

/// Tells every seat what it sees of each event of `game` from number `from`
/// on, event by event; returns the number of the next event to tell.
pub fn tell(game: &Running<'_>, from: usize, seats: &mut impl Seats) -> usize {
    for event in &game.events()[from..] {
        for seat in 0..event.views.len() {
            seats.tell(seat, event);
        }
    }
    game.events().len()
}
