//! The game engines the arena can run, by name. This registry is the only
//! place where the arena core meets a particular game.

use game::Game;

/// The names of the games, for help and error messages.
pub const NAMES: &[&str] = &["all-fives", "leduc"];

/// Something to do with a game chosen by name at run time.
pub trait GameCommand {
    /// What it returns.
    type Output;
    /// Does it with game `G`.
    fn run<G: Game>(self) -> Self::Output;
}

/// Runs `command` with the game called `name`.
pub fn dispatch<C: GameCommand>(name: &str, command: C) -> Result<C::Output, String> {
    match name {
        "all-fives" => Ok(command.run::<all_fives::AllFives>()),
        "leduc" => Ok(command.run::<leduc::Leduc>()),
        other => Err(format!("unknown game {other:?}; the games are: {}", NAMES.join(", "))),
    }
}
