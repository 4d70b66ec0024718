//! The one interface between the arena core and a game engine: the engine
//! protocol itself (`engines/ENGINES.md`). A built-in game answers in the
//! arena's own process ([`Server`]), an engine program over its pipes
//! ([`EngineProcess`]); everything above this line is the same for both.

use super::process::EngineError;
use super::process::EngineProcess;
use super::serve::Server;
use game::Game;
use protocol::engine::{Answer, Raw, Request};
use std::future::Future;
use std::pin::Pin;

/// An answer on its way.
pub type Asked<'a> = Pin<Box<dyn Future<Output = Result<Answer<Raw>, EngineError>> + Send + 'a>>;

/// A connection to one engine that holds one game at a time. The game's
/// payloads come back as [`Raw`] text, passed on to bots and records as they are.
pub trait Link: Send {
    /// Sends `request` and awaits the engine's answer (not for `bye`: see
    /// [`Link::close`]).
    fn ask(&mut self, request: Request) -> Asked<'_>;

    /// Says `bye`, and waits for the engine to go.
    fn close(self: Box<Self>) -> Pin<Box<dyn Future<Output = Result<(), EngineError>> + Send>>;
}

impl<G: Game> Link for Server<G> {
    fn ask(&mut self, request: Request) -> Asked<'_> {
        let answer = self.answer(request).unwrap_or(Answer::Error { message: "bye is not asked".to_string() });
        Box::pin(std::future::ready(Ok(answer)))
    }

    fn close(self: Box<Self>) -> Pin<Box<dyn Future<Output = Result<(), EngineError>> + Send>> {
        Box::pin(std::future::ready(Ok(())))
    }
}

/// The keys a run adds to a recorded move: an engine's event may not use them.
pub const RESERVED: [&str; 3] = ["time_us", "choice", "clock_us"];

/// The reserved key `event` uses, if any (looked for in its text first, and
/// read only when the text holds one).
fn reserved(event: &Raw) -> Option<&'static str> {
    const QUOTED: [&str; 3] = ["\"time_us\"", "\"choice\"", "\"clock_us\""];
    if !QUOTED.iter().any(|key| event.get().contains(key)) {
        return None;
    }
    let text = event.get();
    let object: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text).ok()?;
    RESERVED.iter().copied().find(|key| object.contains_key(*key))
}

impl Link for EngineProcess {
    fn ask(&mut self, request: Request) -> Asked<'_> {
        Box::pin(async move {
            let answer = self.ask_payloads(&request).await?;
            if let Answer::Step(step) = &answer {
                let used = step.events.iter().enumerate().find_map(|(n, e)| reserved(&e.event).map(|key| (n, key)));
                if let Some((n, key)) = used {
                    let problem = format!(
                        "answered with event {n} holding the key {key:?}, which the record adds to a move: \
                         name it otherwise"
                    );
                    return Err(self.fail(problem).await);
                }
            }
            Ok(answer)
        })
    }

    fn close(self: Box<Self>) -> Pin<Box<dyn Future<Output = Result<(), EngineError>> + Send>> {
        Box::pin(self.bye())
    }
}
