//! One game's end of a session: what a seat's process is in a plain game.

use super::{Command, Conversation, Incoming};
use crate::bot::fault::{Fault, FaultKind};
use crate::bot::lines::excerpt;
use crate::bot::process::Awaited;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// How long the last lines of a game (its `game_end`) may take to be written.
const END_PATIENCE: Duration = Duration::from_secs(5);

/// One game of a session: its outbox, its requests and its answers.
pub struct GameLine {
    game: u64,
    commands: mpsc::UnboundedSender<Command>,
    incoming: mpsc::UnboundedReceiver<Incoming>,
    ids: Arc<AtomicU64>,
    /// One message a line, each naming the game.
    outbox: Vec<u8>,
    /// What the last exchange wrote.
    sent: Vec<u8>,
    /// The line the last exchange read, without its game.
    received: Vec<u8>,
    /// The last lines of stderr of the process, once it died.
    stderr: Arc<Vec<String>>,
    /// Whether it was closed.
    closed: bool,
}

impl GameLine {
    /// Opens `game` in the session that takes `commands`.
    pub(super) fn open(game: u64, commands: mpsc::UnboundedSender<Command>, ids: Arc<AtomicU64>) -> GameLine {
        let (to, incoming) = mpsc::unbounded_channel();
        let _ = commands.send(Command::Open { game, to });
        GameLine {
            game,
            commands,
            incoming,
            ids,
            outbox: Vec::with_capacity(1024),
            sent: Vec::new(),
            received: Vec::new(),
            stderr: Arc::default(),
            closed: false,
        }
    }

    /// The game's id.
    pub fn game(&self) -> u64 {
        self.game
    }

    /// The messages the last exchange wrote, one per line, each naming the game.
    pub fn last_sent(&self) -> &[u8] {
        &self.sent
    }

    /// The last lines of stderr of the process, once it died (else none).
    pub fn stderr(&self) -> &[String] {
        &self.stderr
    }

    /// Writes what is queued (its `game_end`) and closes the game: the
    /// process plays on in its other games.
    pub fn end(mut self) {
        if !self.outbox.is_empty() {
            let lines = std::mem::take(&mut self.outbox);
            let _ = self.commands.send(Command::Write(lines, Instant::now() + END_PATIENCE));
        }
        self.close();
    }

    fn close(&mut self) {
        if !self.closed {
            self.closed = true;
            let _ = self.commands.send(Command::Close(self.game));
        }
    }

    /// The fault of the process, once it died: noted for [`GameLine::stderr`].
    fn died(&mut self, (fault, stderr): (Fault, Arc<Vec<String>>)) -> Fault {
        self.stderr = stderr;
        fault
    }
}

impl Drop for GameLine {
    fn drop(&mut self) {
        self.close();
    }
}

impl Conversation for GameLine {
    fn queue<T: serde::Serialize + ?Sized>(&mut self, message: &T) {
        let line = protocol::line::encode(message);
        protocol::session::tag_into(&line, self.game, &mut self.outbox);
    }

    fn next_request_id(&mut self) -> u64 {
        self.ids.fetch_add(1, Ordering::Relaxed)
    }

    async fn make_way(&mut self) {}

    async fn exchange(&mut self, deadline: Instant, limit: Duration, what: Awaited) -> Result<&[u8], Fault> {
        let game = self.game;
        match self.incoming.try_recv() {
            Ok(Ok(early)) => {
                return Err(Fault::new(
                    FaultKind::Protocol,
                    format!(
                        "wrote a line for game {game} before the arena asked for {what} (an answer must follow its \
                         request): {}",
                        excerpt(&early)
                    ),
                ));
            }
            Ok(Err(died)) => return Err(self.died(died)),
            Err(_) => {}
        }
        self.sent = std::mem::take(&mut self.outbox);
        if self.commands.send(Command::Write(self.sent.clone(), deadline)).is_err() {
            return Err(Fault::new(FaultKind::Exited, format!("its session ended while the arena awaited {what}")));
        }
        match tokio::time::timeout_at(deadline, self.incoming.recv()).await {
            Ok(Some(Ok(line))) => {
                self.received = line;
                Ok(&self.received)
            }
            Ok(Some(Err(died))) => Err(self.died(died)),
            Ok(None) => Err(Fault::new(FaultKind::Exited, format!("its session ended while the arena awaited {what}"))),
            Err(_) => Err(Fault::new(
                FaultKind::Timeout,
                format!("no line for game {game} as {what} within {} ms", limit.as_millis()),
            )),
        }
    }
}
