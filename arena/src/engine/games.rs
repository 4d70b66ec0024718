//! The games built into the arena. This table is the only place where the
//! arena meets a particular game: a built-in game is one crate and one line
//! of `built_in!`. Everything else reaches a game through its engine
//! (`crate::engine`), built in or a program of its own.

use crate::engine::spec::{BuiltIn, Native};
use game::Game;

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
        pub fn dispatch<C: GameCommand>(name: &str, command: C) -> Result<C::Output, String> {
            $(if name == <$game as Game>::NAME {
                return Ok(command.run::<$game>());
            })+
            Err(format!("unknown game {name:?}; the games are: {}", NAMES.join(", ")))
        }
    };
}

built_in!(all_fives::AllFives, leduc::Leduc);
