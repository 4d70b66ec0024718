//! What the person's page and the game share: the page's view of the
//! seat (kept whole, so that a page opened again shows the game where it
//! stands) and the move awaited, which only a post from the page holding
//! the seat, naming the move awaited and one of its choices, answers.

use protocol::engine::Raw;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use tokio::sync::{oneshot, watch};

/// The person's answer to a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// Choice `index` of the turn.
    Play(usize),
    /// The person leaves the game (as `q` at the terminal).
    Leave,
}

/// Why a post was refused: an HTTP status and a message for the person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// 409 when the post is out of date or out of turn, 400 when it names no move.
    pub status: u16,
    /// What happened and what to do.
    pub message: String,
}

impl Refusal {
    fn conflict(message: impl Into<String>) -> Refusal {
        Refusal { status: 409, message: message.into() }
    }
}

/// A move offered: its label (the terminal's text) and the choice as the engine lists it.
#[derive(Debug, Serialize)]
pub struct Offered {
    /// What the terminal shows for it.
    pub label: String,
    /// The choice, as the engine lists it (shown only as text).
    pub choice: Raw,
}

/// A move awaited from the person.
#[derive(Debug, Serialize)]
pub struct Asked {
    /// Its number in the sitting, from 1: a post names it, so that a post
    /// from a page out of date answers nothing.
    pub number: u64,
    /// The position as the seat sees it, drawn in text.
    pub position: String,
    /// The legal moves, in the engine's order.
    pub moves: Vec<Offered>,
    /// What the seat observes, as the engine gives it.
    pub state: Raw,
    /// What the seat was told of each event of the game so far, as the engine gives it.
    pub views: Vec<Raw>,
}

/// What the page shows: everything it needs to draw the seat at any time.
#[derive(Debug, Default, Serialize)]
struct View {
    /// The game's name, and whether an engine program plays it.
    game: String,
    program: bool,
    /// The person's seat.
    seat: usize,
    /// Every line of the sitting so far: its games, what the seat was told, the games' ends.
    log: Vec<String>,
    /// Where in `log` the lines since the person's last move begin.
    since: usize,
    /// The move awaited, if any.
    turn: Option<Asked>,
    /// The page that holds the seat (the last one opened).
    holder: u64,
    /// How the sitting ended, once it has.
    ended: Option<String>,
    /// Counts the changes, for a page to tell the views apart.
    version: u64,
}

struct Inner {
    view: View,
    /// The answer to the move awaited.
    pending: Option<oneshot::Sender<Answer>>,
    /// How many moves were asked for.
    asked: u64,
}

/// The seat's page's state, shared by the game and the server.
pub struct Desk {
    inner: Mutex<Inner>,
    changed: watch::Sender<u64>,
    /// The newest version a page was sent.
    delivered: AtomicU64,
}

impl Desk {
    /// A desk for seat `seat` of a game `game` (an engine program's when `program`).
    pub fn new(game: &str, program: bool, seat: usize) -> Desk {
        let view = View { game: game.to_string(), program, seat, ..View::default() };
        Desk {
            inner: Mutex::new(Inner { view, pending: None, asked: 0 }),
            changed: watch::channel(0).0,
            delivered: AtomicU64::new(0),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies `change` to the view and tells every page.
    fn change(&self, change: impl FnOnce(&mut Inner)) {
        let mut inner = self.lock();
        change(&mut inner);
        inner.view.version += 1;
        let version = inner.view.version;
        drop(inner);
        self.changed.send_replace(version);
    }

    /// Adds `lines` to the log (empty ones left out).
    pub fn log(&self, lines: impl IntoIterator<Item = String>) {
        let lines: Vec<String> = lines.into_iter().filter(|line| !line.trim().is_empty()).collect();
        if !lines.is_empty() {
            self.change(|inner| inner.view.log.extend(lines));
        }
    }

    /// Awaits move `asked` (its number is given here): it is shown until a post answers.
    pub fn ask(&self, mut asked: Asked) -> oneshot::Receiver<Answer> {
        let (sender, receiver) = oneshot::channel();
        self.change(|inner| {
            inner.asked += 1;
            asked.number = inner.asked;
            inner.view.turn = Some(asked);
            inner.pending = Some(sender);
        });
        receiver
    }

    /// A page takes the seat: the number it posts with from now on (any
    /// page that held it before only shows the game).
    pub fn claim(&self) -> u64 {
        let mut holder = 0;
        self.change(|inner| {
            inner.view.holder += 1;
            holder = inner.view.holder;
        });
        holder
    }

    /// The answer `answer` to move `number`, posted by page `holder`:
    /// taken, or refused (and nothing changes) when the page does not hold
    /// the seat, no move is awaited, `number` is not the move awaited, or
    /// `answer` is none of its moves.
    ///
    /// # Errors
    /// The refusal, saying why.
    pub fn post(&self, holder: u64, number: u64, answer: Answer) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let view = &inner.view;
        if let Some(ended) = &view.ended {
            return Err(Refusal::conflict(format!("the sitting is over ({ended}): nothing more is played")));
        }
        if holder != view.holder {
            return Err(Refusal::conflict(
                "another page has taken this seat since this one opened: this one only shows the game; reload it to take the seat back",
            ));
        }
        let Some(turn) = &view.turn else {
            return Err(Refusal::conflict(format!(
                "it is not your move (move {number} was posted): the others are playing; wait for your move"
            )));
        };
        if number != turn.number {
            return Err(Refusal::conflict(format!(
                "move {number} is not the move awaited, which is move {}: the page was out of date and now shows the game as it stands",
                turn.number
            )));
        }
        if let Answer::Play(index) = answer
            && index >= turn.moves.len()
        {
            return Err(Refusal {
                status: 400,
                message: format!(
                    "there is no choice {index} in move {number}: its legal moves are 0 to {}",
                    turn.moves.len() - 1
                ),
            });
        }
        let pending = inner.pending.take();
        inner.view.turn = None;
        inner.view.since = inner.view.log.len();
        inner.view.version += 1;
        let version = inner.view.version;
        drop(inner);
        self.changed.send_replace(version);
        if let Some(pending) = pending {
            let _ = pending.send(answer);
        }
        Ok(())
    }

    /// The sitting ended, as `how` says.
    pub fn end(&self, how: String) {
        self.change(|inner| {
            inner.view.turn = None;
            inner.pending = None;
            inner.view.ended = Some(how);
        });
    }

    /// The view as JSON, and its version.
    pub fn view(&self) -> (String, u64) {
        let inner = self.lock();
        (serde_json::to_string(&inner.view).expect("views serialize"), inner.view.version)
    }

    /// Notes that a page was sent version `version`.
    pub fn delivered(&self, version: u64) {
        self.delivered.fetch_max(version, Ordering::Relaxed);
    }

    /// Whether no page waits for the newest version: a page following the
    /// view (an `/events` stream open) has been sent it, or none follows.
    pub fn settled(&self) -> bool {
        self.changed.receiver_count() == 0 || self.delivered.load(Ordering::Relaxed) >= self.lock().view.version
    }

    /// Follows the changes.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offered(label: &str) -> Offered {
        Offered { label: label.into(), choice: protocol::engine::raw(&serde_json::json!({"label": label})) }
    }

    fn desk_awaiting(moves: &[&str]) -> (Desk, u64, u64, oneshot::Receiver<Answer>) {
        let desk = Desk::new("leduc", false, 0);
        let holder = desk.claim();
        let state = protocol::engine::raw(&serde_json::json!({}));
        let moves = moves.iter().map(|m| offered(m)).collect();
        let answer = desk.ask(Asked { number: 0, position: "position".into(), moves, state, views: Vec::new() });
        let number = desk.lock().view.turn.as_ref().unwrap().number;
        (desk, holder, number, answer)
    }

    #[test]
    fn only_the_holder_answering_the_move_awaited_with_one_of_its_choices_is_taken() {
        let (desk, holder, number, mut answer) = desk_awaiting(&["fold", "call"]);
        let before = desk.view().0;
        for (who, which, what, status) in [
            (holder, number + 1, Answer::Play(0), 409),
            (holder, number - 1, Answer::Leave, 409),
            (holder + 1, number, Answer::Play(0), 409),
            (holder, number, Answer::Play(2), 400),
        ] {
            let refused = desk.post(who, which, what).unwrap_err();
            assert_eq!(refused.status, status, "{refused:?}");
            assert_eq!(desk.view().0, before, "a refused post changes nothing");
        }
        assert!(answer.try_recv().is_err(), "nothing answered");
        desk.post(holder, number, Answer::Play(1)).unwrap();
        assert_eq!(answer.try_recv(), Ok(Answer::Play(1)));
        let again = desk.post(holder, number, Answer::Play(1)).unwrap_err();
        assert!(again.message.contains("not your move"), "{again:?}");
    }

    #[test]
    fn a_page_opened_later_takes_the_seat_and_sees_the_game_as_it_stands() {
        let (desk, first, number, _answer) = desk_awaiting(&["fold", "call"]);
        desk.log(["dealt: your card is Kh".to_string(), String::new()]);
        let second = desk.claim();
        assert!(desk.post(first, number, Answer::Leave).unwrap_err().message.contains("another page"));
        let view: serde_json::Value = serde_json::from_str(&desk.view().0).unwrap();
        assert_eq!(view["log"], serde_json::json!(["dealt: your card is Kh"]));
        assert_eq!(view["turn"]["moves"][1]["label"], "call");
        assert_eq!(view["holder"], second);
        desk.post(second, number, Answer::Leave).unwrap();
    }

    #[test]
    fn the_end_waits_for_a_page_that_follows_and_for_no_other() {
        let (desk, ..) = desk_awaiting(&["fold"]);
        desk.end("you left the game".into());
        assert!(desk.settled(), "no page follows: nothing to wait for");
        let page = desk.subscribe();
        assert!(!desk.settled(), "a page follows and has not been sent the end");
        desk.delivered(desk.view().1);
        assert!(desk.settled(), "the page was sent the end");
        desk.end("again".into());
        assert!(!desk.settled());
        drop(page);
        assert!(desk.settled(), "the page closed");
    }

    #[test]
    fn nothing_is_taken_once_the_sitting_is_over() {
        let (desk, holder, number, _answer) = desk_awaiting(&["fold"]);
        desk.end("you left the game".into());
        assert!(desk.post(holder, number, Answer::Play(0)).unwrap_err().message.contains("the sitting is over"));
    }
}
