//! Sessions: many games at once in one bot process, for a bot that said at
//! `ready` that it plays them so (`"games": N`, see [`protocol::session`]).
//!
//! A session owns the process: one task ([`driver`]) writes the requests of
//! every game and reads every line the bot writes, routing each to its game
//! by the game it names. Each game talks through a [`GameLine`], which has
//! the role a seat's process has in a plain game (the same
//! [`Conversation`]), so the game loop does not change: its own outbox,
//! its own request, its own deadline and its own faults. A fault in one
//! game (a bad or late answer, a line written before it was asked, naming
//! that game) ends that game only; the process dying, a line that is not
//! JSON or names no game this process was given, is a fault of every game
//! open in it, and the process is killed.
//!
//! - [`driver`]: the task that owns the process; [`game`]: one game's end of it.

pub(crate) mod driver;
pub(crate) mod game;

use crate::bot::fault::Fault;
use crate::bot::process::{Awaited, BotProcess};
pub use game::GameLine;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

/// One seat's conversation with a bot: the messages it is told, queued,
/// and its requests, each written with what is queued and answered by one
/// line. A plain process's, or one game's of a session ([`GameLine`]).
pub trait Conversation {
    /// Appends a message to the outbox; it is written with the next exchange.
    fn queue<T: Serialize + ?Sized>(&mut self, message: &T);
    /// A fresh request id, never used before by this process.
    fn next_request_id(&mut self) -> u64;
    /// Lets the runtime have the thread before a request's time starts, if it waited long enough.
    async fn make_way(&mut self);
    /// Writes the outbox and reads the answer, all before `deadline`;
    /// `what` names the answer in fault messages.
    async fn exchange(&mut self, deadline: Instant, limit: Duration, what: Awaited) -> Result<&[u8], Fault>;
}

impl Conversation for BotProcess {
    fn queue<T: Serialize + ?Sized>(&mut self, message: &T) {
        BotProcess::queue(self, message);
    }
    fn next_request_id(&mut self) -> u64 {
        BotProcess::next_request_id(self)
    }
    async fn make_way(&mut self) {
        BotProcess::make_way(self).await;
    }
    async fn exchange(&mut self, deadline: Instant, limit: Duration, what: Awaited) -> Result<&[u8], Fault> {
        BotProcess::exchange(self, deadline, limit, what).await
    }
}

/// What a game's end of a session asks of its driver.
pub(crate) enum Command {
    /// Routes the lines naming `game` to `to`.
    Open { game: u64, to: mpsc::UnboundedSender<Incoming> },
    /// Writes these lines, by this deadline.
    Write(Vec<u8>, Instant),
    /// The game is over: lines naming it from now on are stale.
    Close(u64),
    /// Writes `bye`, and ends the process within the grace; says when done.
    End(Duration, oneshot::Sender<()>),
}

/// What a game's end of a session receives: a line naming it (without its
/// game), or the fault that ended the process, with its last lines of stderr.
pub(crate) type Incoming = Result<Vec<u8>, (Fault, Arc<Vec<String>>)>;

/// A bot process playing many games at once.
pub struct Session {
    commands: mpsc::UnboundedSender<Command>,
    /// The request ids of all its games: one sequence, as in a plain process.
    ids: Arc<AtomicU64>,
    /// Set once the process is dead (a fault of the process, or its end).
    dead: Arc<AtomicBool>,
}

impl Session {
    /// Takes over `process`, past its handshake, in which it said it plays
    /// many games at once; `grace` is how long it may take to exit once
    /// every game's end and the session are dropped.
    pub fn start(process: BotProcess, grace: Duration) -> Session {
        let (commands, received) = mpsc::unbounded_channel();
        let dead = Arc::new(AtomicBool::new(false));
        tokio::spawn(driver::drive(process, received, grace, Arc::clone(&dead)));
        Session { commands, ids: Arc::new(AtomicU64::new(1)), dead }
    }

    /// Whether its process is dead: no game can be opened in it any more.
    pub fn is_dead(&self) -> bool {
        self.dead.load(Ordering::SeqCst)
    }

    /// Opens game `game` (the id its `game_start` tells) in the process.
    pub fn open(&self, game: u64) -> GameLine {
        GameLine::open(game, self.commands.clone(), Arc::clone(&self.ids))
    }

    /// Sends `bye` and ends the process: it may exit within `grace`, then
    /// everything it started is killed.
    pub async fn close(&self, grace: Duration) {
        let (done, ended) = oneshot::channel();
        if self.commands.send(Command::End(grace, done)).is_ok() {
            let _ = ended.await;
        }
    }
}
