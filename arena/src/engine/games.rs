//! The games built into the arena, and what the arena asks of one
//! ([`BuiltIn`], answered for a typed game by [`Native`]). This table is the
//! only place where the arena meets a particular game: a built-in game is
//! one crate and one line of `built_in!`. Everything else reaches a game
//! through its engine (`crate::engine`), built in or a program of its own.

use super::link::Link;
use super::origin::Origin;
use super::recorded::{self, Annotation, Misread, Recorded, VerifyError};
use super::serve::Server;
use game::Game;
use protocol::engine::EngineInfo;
use serde_json::Value;
use serde_json::value::RawValue;
use std::marker::PhantomData;

/// Something to do with a built-in game chosen by name at run time, with
/// its Rust types (the commands that read a built-in game's records typed).
pub trait GameCommand {
    /// What it returns.
    type Output;
    /// Does it with game `G`.
    fn run<G: Game>(self) -> Self::Output;
}

/// Declares the built-in games: [`BUILT_IN`], [`NAMES`] and [`dispatch`].
macro_rules! built_in {
    ($($game:ty),+ $(,)?) => {
        /// The built-in games' engines.
        pub const BUILT_IN: &[&dyn BuiltIn] = &[$(&Native::<$game>::NEW),+];

        /// The names of the built-in games, for help and error messages.
        pub const NAMES: &[&str] = &[$(<$game as Game>::NAME),+];

        /// Runs `command` with the built-in game called `name`.
        ///
        /// # Errors
        /// When no built-in game has that name.
        pub fn dispatch<C: GameCommand>(name: &str, command: C) -> Result<C::Output, UnknownGame> {
            $(if name == <$game as Game>::NAME {
                return Ok(command.run::<$game>());
            })+
            Err(UnknownGame(name.to_string()))
        }
    };
}

built_in!(all_fives::AllFives, leduc::Leduc);

/// A game built into the arena: one crate, one line of [`BUILT_IN`].
pub trait BuiltIn: Sync {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// What the engine says of itself in answer to `hello`.
    fn info(&self) -> EngineInfo;
    /// A new in-process engine holding no game.
    fn server(&self) -> Box<dyn Link>;
    /// The game's own replay page of a record (its `games.jsonl` line).
    fn html_page(&self, record_json: &str) -> String;
    /// A copy of a game of `variant` set up from `origin`, that draws it in
    /// text for a person (`arena play`); `None` when they cannot be read.
    fn mirror(&self, variant: &Value, origin: Origin<'_>) -> Option<Box<dyn Mirror>>;
    /// The sides of a game of `variant` (as records and `league.json` store it).
    ///
    /// # Errors
    /// When it is not a variant of this game.
    fn teams(&self, variant: &Value) -> Result<Vec<Vec<usize>>, VerifyError>;
    /// Checks that a record's variant and events (`events`) are this game's.
    ///
    /// # Errors
    /// When one is not, naming it.
    fn reads(&self, recorded: &Recorded<'_>, events: &[&Value]) -> Result<(), Misread>;
    /// A record of this game (its parts and its events) made ready for a
    /// replay through the engine protocol ([`recorded::annotate`]).
    ///
    /// # Errors
    /// When the game cannot be set up again as the record says.
    fn annotate(&self, recorded: &Recorded<'_>, events: &[&Value]) -> Result<Annotation, Misread>;
    /// [`Self::annotate`] for the events' text, read straight into the
    /// game's types ([`recorded::annotate_text`]); `None` when one cannot be.
    fn annotate_text(&self, recorded: &Recorded<'_>, events: &[&RawValue]) -> Option<Result<Annotation, Misread>>;
}

/// A typed copy of a game in progress, kept in step with it, that draws
/// what one seat may see as text for a person at the terminal.
pub trait Mirror: Send {
    /// The seat to act played choice `index`.
    fn played(&mut self, index: usize);
    /// What `seat` is told of the events since the last call, a line each;
    /// `names` names the seats.
    fn news(&mut self, seat: usize, names: &[String]) -> Vec<String>;
    /// The position as `seat` sees it and its moves numbered from 1.
    fn turn(&self, seat: usize, names: &[String]) -> String;
}

/// The [`Mirror`] of a typed game.
struct Typed<G> {
    game: G,
    told: usize,
}

impl<G: Game> Mirror for Typed<G> {
    fn played(&mut self, index: usize) {
        let _ = self.game.play(index);
    }
    fn news(&mut self, seat: usize, names: &[String]) -> Vec<String> {
        let news = self.game.events_since(self.told);
        self.told = self.game.event_count();
        news.iter()
            .filter_map(|event| self.game.view(event, seat))
            .map(|view| G::text_view(&view, seat, names))
            .collect()
    }
    fn turn(&self, seat: usize, names: &[String]) -> String {
        self.game.text_turn(seat, names)
    }
}

/// The built-in engine of game `G`.
pub struct Native<G>(PhantomData<fn() -> G>);

impl<G> Native<G> {
    /// The engine.
    pub const NEW: Native<G> = Native(PhantomData);
}

impl<G: Game> BuiltIn for Native<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn info(&self) -> EngineInfo {
        super::serve::info::<G>()
    }
    fn server(&self) -> Box<dyn Link> {
        Box::new(Server::<G>::default())
    }
    fn html_page(&self, record_json: &str) -> String {
        G::html_page(record_json)
    }
    fn mirror(&self, variant: &Value, origin: Origin<'_>) -> Option<Box<dyn Mirror>> {
        let variant: G::Variant = serde_json::from_value(variant.clone()).ok()?;
        let game = match origin {
            Origin::Seed(seed) => G::new(&variant, seed),
            Origin::Setup(setup) => G::from_setup(&variant, &serde_json::from_value(setup.clone()).ok()?).ok()?,
        };
        Some(Box::new(Typed { game, told: 0 }))
    }
    fn teams(&self, variant: &Value) -> Result<Vec<Vec<usize>>, VerifyError> {
        recorded::teams::<G>(variant)
    }
    fn reads(&self, recorded: &Recorded<'_>, events: &[&Value]) -> Result<(), Misread> {
        recorded::reads::<G>(recorded, events)
    }
    fn annotate(&self, recorded: &Recorded<'_>, events: &[&Value]) -> Result<Annotation, Misread> {
        recorded::annotate::<G>(recorded, events)
    }
    fn annotate_text(&self, recorded: &Recorded<'_>, events: &[&RawValue]) -> Option<Result<Annotation, Misread>> {
        recorded::annotate_text::<G>(recorded, events)
    }
}

/// The replay page of a record of `game` (its `games.jsonl` line): the
/// built-in game's own page, or for a game of an engine program (`program`)
/// the generic page of its events.
pub fn html_page(game: &str, program: bool, record_json: &str) -> String {
    match BUILT_IN.iter().find(|built_in| built_in.name() == game).filter(|_| !program) {
        Some(built_in) => built_in.html_page(record_json),
        None => super::page::page(record_json, None),
    }
}

/// No game built into the arena has this name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl std::fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown game {:?}; the games built in are: {} (any other game is an engine program: --engine COMMAND)",
            self.0,
            BUILT_IN.iter().map(|game| game.name()).collect::<Vec<_>>().join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}
