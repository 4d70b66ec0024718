//! The engines a replay runs its games through, and the bot's processes, kept from game to game.

use super::ReplayRequest;
use crate::bot::placement::Placement;
use crate::bot::registry::Registry;
use crate::check::replay::Kept;
use crate::engine::link::Link;
use crate::engine::spec::{Engine, Identity};
use crate::run::table::Limits;
use crate::session::exit::{Failure, usage};
use crate::settings::ENGINE_TIMEOUT;
use std::sync::Arc;
use tokio::runtime::Runtime;

/// An engine open for replays.
pub(super) struct Open {
    /// What it was opened for: the game, or the command of an engine program and its directory.
    pub(super) key: String,
    pub(super) engine: Arc<Engine>,
    /// The link games are replayed on.
    pub(super) link: Box<dyn Link>,
    /// The link the bot's other choices are scored on.
    pub(super) probe: Box<dyn Link>,
}

/// The engine the games are replayed through: opened for the first game,
/// and kept while the games are of the same one; and the bot's processes,
/// kept from game to game.
#[derive(Default)]
pub(super) struct Engines {
    pub(super) open: Option<Open>,
    pub(super) kept: Kept,
}

impl Engines {
    /// The engine of a game of `game` (an engine program's, when `identity`
    /// names it; `what` names the game for messages), with its links.
    pub(super) fn of(
        &mut self,
        runtime: &Runtime,
        registry: &Registry,
        (what, game): (&str, &str),
        identity: Option<&Identity>,
        args: &ReplayRequest,
    ) -> Result<&mut Open, Failure> {
        let program =
            identity.map(|identity| args.recorded.program(what, identity, ENGINE_TIMEOUT.default)).transpose()?;
        let key = program
            .as_ref()
            .map_or_else(|| game.to_string(), |program| format!("{} in {}", program.command, program.dir.display()));
        if self.open.as_ref().is_none_or(|open| open.key != key) {
            self.close(runtime);
            let engine = match program {
                None => Engine::built_in(game)?,
                Some(program) => runtime
                    .block_on(Engine::program(program.clone(), registry, None))
                    .map_err(|e| args.recorded.failed(e, &program))?,
            };
            if engine.name() != game {
                let command = engine.program_of().map_or("", |program| program.command.as_str());
                return Err(usage(format!("a record of {game}, but the engine {command:?} plays {}", engine.name())));
            }
            let link = runtime.block_on(engine.connect(registry, Placement::default()))?;
            let probe = runtime.block_on(engine.connect(registry, Placement::default()))?;
            self.open = Some(Open { key, engine: Arc::new(engine), link, probe });
        }
        Ok(self.open.as_mut().expect("just opened"))
    }

    /// Says goodbye to the bot's processes and to the engine, if one is open.
    pub(super) fn close(&mut self, runtime: &Runtime) {
        runtime.block_on(self.kept.close(Limits::default().exit_grace));
        if let Some(Open { link, probe, .. }) = self.open.take() {
            let _ = runtime.block_on(link.close());
            let _ = runtime.block_on(probe.close());
        }
    }
}
