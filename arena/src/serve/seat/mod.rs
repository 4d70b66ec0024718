//! `arena play --web`: the person's seat played from a page in the
//! browser, served over HTTP (axum, on a thread of its own) while the
//! sitting is played as at the terminal ([`crate::run::person`]): only
//! where the seat is shown and its moves come from differs.
//!
//! The page (`seat.html`, `seat.js`, `seat.css`) follows the seat's view
//! ([`desk`]) as server-sent events (`/events`; `/state` gives it once):
//! the log of the sitting, what happened since the person's last move, the
//! position as the game draws it in text for the seat (All Fives' layout
//! also drawn by its replay page's board, from the seat's views of the
//! hand's plays; Leduc's cards, pot and chips in from the seat's state),
//! and the legal moves.
//! It posts a move as `/move?holder=H&number=N&index=I` (`/leave?holder=H&number=N`
//! leaves the game, as `q` at the terminal): refused, changing nothing,
//! unless page `H` holds the seat and move `N` is the move awaited. A page
//! takes the seat when it opens (`/claim`), so the page opened last holds it
//! and any older one only shows the game: closing the tab and opening the
//! address again resumes the game where it stands. Everything the engine
//! or a bot wrote reaches the page as JSON and is put in as text, under the
//! live page's content security policy (nothing loads from the network).

mod desk;
mod server;
mod turn;

use crate::run::person::{Ending, Failed, Front, Turn};
use crate::serve::ServeError;
use crate::terminal::console::outln;
use desk::{Answer, Asked, Desk, Offered};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the arena waits, once the sitting has ended, for a page that
/// follows it to be sent how it ended (with no page open, it ends at once).
const FAREWELL: Duration = Duration::from_secs(2);

/// The person's seat in the browser: a [`Front`] whose page is served on a
/// listener of its own.
pub struct InBrowser {
    desk: Arc<Desk>,
}

impl InBrowser {
    /// Serves seat `seat` of a game of `game` (an engine program's when
    /// `program`) on `listener`, from a thread of its own.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn serve(listener: TcpListener, game: &str, program: bool, seat: usize) -> Result<InBrowser, ServeError> {
        let desk = Arc::new(Desk::new(game, program, seat));
        server::spawn(Arc::clone(&desk), listener)?;
        Ok(InBrowser { desk })
    }
}

impl Front for InBrowser {
    fn show(&mut self, lines: Vec<String>) {
        self.desk.log(lines);
    }

    fn say(&mut self, line: String) {
        let _ = outln!("{line}");
        self.desk.log(line.lines().map(str::to_string));
    }

    async fn ask(&mut self, turn: Turn<'_>) -> Option<usize> {
        let (position, labels) = turn::split(&turn.text, turn.choices.len()).unwrap_or_else(|| {
            (turn.text.clone(), turn.choices.iter().map(|choice| choice.get().to_string()).collect())
        });
        let moves =
            labels.into_iter().zip(turn.choices).map(|(label, choice)| Offered { label, choice: choice.clone() });
        let (state, views) = (turn.state.clone(), turn.views.to_vec());
        match self.desk.ask(Asked { number: 0, position, moves: moves.collect(), state, views }).await {
            Ok(Answer::Play(index)) => Some(index),
            Ok(Answer::Leave) | Err(_) => None,
        }
    }

    fn finish(&mut self, ended: &Result<Ending, Failed>) {
        self.desk.end(match ended {
            Ok(Ending::Played) => "every game was played: the arena has stopped".to_string(),
            Ok(Ending::Left) => "you left: the arena has stopped".to_string(),
            Err(Failed(why)) => format!("the arena failed: {why}"),
        });
        let deadline = Instant::now() + FAREWELL;
        while !self.desk.settled() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
