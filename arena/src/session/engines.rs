//! The engine commands as the library runs them: a built-in game served
//! over the engine protocol on stdin and stdout (`arena engine NAME`,
//! [`serve`]), and the conformance test of an engine program
//! (`arena check-engine`, [`check`]: random games played through it, every
//! answer checked, and the checklist printed).

use super::exit::{self, Failure, internal, unwritten};
use crate::bot::registry::Registry;
use crate::bot::signals;
use crate::check::conformance::{Outcome, report};
use crate::check::engine::{self as check_engine, Settings};
use crate::engine::games::{GameCommand, dispatch};
use crate::terminal::console::outln;
use game::Game;
use std::io::Write;

/// Runs `arena engine NAME` until `bye` or the end of its input.
pub fn serve(name: &str) -> Result<i32, Failure> {
    struct Serve;
    impl GameCommand for Serve {
        type Output = std::io::Result<()>;
        fn run<G: Game>(self) -> std::io::Result<()> {
            crate::engine::serve::serve::<G>(std::io::stdin().lock(), std::io::stdout().lock())
        }
    }
    dispatch(name, Serve)?.map_err(|e| match e.kind() {
        std::io::ErrorKind::BrokenPipe => unwritten(e),
        _ => internal(format!("engine {name}: {e}")),
    })?;
    Ok(exit::SUCCESS)
}

/// Runs the conformance test of the engine program `settings` names, and
/// prints its checklist: exit status 0 when every check passed, 1 when any failed.
pub fn check(settings: &Settings) -> Result<i32, Failure> {
    outln!("check-engine: {:?}", settings.command).map_err(unwritten)?;
    outln!(
        "{} games, seed {}, answer timeout {} ms, at most {} moves a game",
        settings.games,
        settings.seed,
        settings.timeout.as_millis(),
        settings.max_moves
    )
    .map_err(unwritten)?;
    let registry = Registry::new();
    let interruption = signals::exit_on_interrupt(registry.clone());
    let outcomes = check_engine::run(settings, registry);
    interruption.settle();
    let mut stdout = std::io::stdout().lock();
    report::write(&outcomes, &mut stdout).and_then(|()| stdout.flush()).map_err(unwritten)?;
    Ok(exit::answer(!outcomes.iter().any(Outcome::failed)))
}
