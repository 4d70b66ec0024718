//! Which game a command plays: a built-in one (`--game NAME`) or an engine
//! program (`--engine COMMAND`), and the variant its settings resolve to,
//! asked of the engine itself before any bot starts.

use super::{Failure, current_dir, internal, usage};
use crate::bot::registry::Registry;
use crate::engine::link::Link;
use crate::engine::running::{Origin, Running};
use crate::engine::spec::{ENGINE_TIMEOUT, Engine, Program, Trouble};
use crate::league::config::DEFAULT_GAME;
use crate::run::table::Resolved;
use clap::Args;
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

/// The game of a run: `--game` or `--engine`.
#[derive(Debug, Clone, Default, Args)]
pub struct GameArgs {
    /// The game built into the arena: all-fives (the default) or leduc (`arena rules --game NAME` explains it).
    #[arg(long, conflicts_with = "engine")]
    pub game: Option<String>,
    /// A game engine program, for any other game: a command that speaks the
    /// engine protocol (engines/ENGINES.md), quoted as one argument.
    #[arg(long, value_name = "COMMAND")]
    pub engine: Option<String>,
    /// Time allowed for each answer of an --engine program, in milliseconds (default 10000).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub engine_timeout: Option<u64>,
}

impl GameArgs {
    /// The built-in game named, or the default one.
    pub fn game(&self) -> &str {
        self.game.as_deref().unwrap_or(DEFAULT_GAME)
    }

    /// The engine program of `--engine`, run from the current directory.
    pub fn program(&self) -> Result<Option<Program>, Failure> {
        self.engine
            .as_ref()
            .map(|command| {
                Ok(Program {
                    command: command.clone(),
                    dir: current_dir()?,
                    timeout_ms: self.engine_timeout.unwrap_or(ENGINE_TIMEOUT.as_millis() as u64),
                })
            })
            .transpose()
    }
}

/// A conversation with a run's engine before the run: who it is, the
/// variant, the setups.
pub struct Setting {
    runtime: tokio::runtime::Runtime,
    registry: Registry,
    engine: Arc<Engine>,
    link: Option<Box<dyn Link>>,
}

impl Setting {
    /// Opens the engine of `game` (or of `program`, when given).
    pub fn open(game: &str, program: Option<Program>) -> Result<Setting, Failure> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| internal(format!("cannot start the runtime: {e}")))?;
        let registry = Registry::new();
        let engine = match program {
            None => Engine::built_in(game).map_err(usage)?,
            Some(program) => runtime.block_on(Engine::program(program, &registry)).map_err(engine_failure)?,
        };
        let link = runtime.block_on(engine.connect(&registry, None)).map_err(engine_failure)?;
        Ok(Setting { runtime, registry, engine: Arc::new(engine), link: Some(link) })
    }

    /// The engine.
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// The variant of `--players N` (if given) and the `--variant KEY=VALUE` settings.
    pub fn variant(&mut self, players: Option<usize>, variants: &[String]) -> Result<Resolved, Failure> {
        self.resolve(&settings(players, variants)?)
    }

    /// The variant `settings` resolve to (later ones win).
    pub fn resolve(&mut self, settings: &[(String, String)]) -> Result<Resolved, Failure> {
        let link = self.link.as_deref_mut().expect("open until closed");
        match self.runtime.block_on(self.engine.variant(settings, link)) {
            Ok(info) => Ok(Resolved { variant: info.variant, teams: info.teams }),
            Err(Trouble::Refused(why)) => Err(usage(format!("variant: {why}"))),
            Err(Trouble::Failed(e)) => Err(engine_failure(e)),
        }
    }

    /// Whether the engine plays `setup` with `resolved`: `Err` with its reason when it does not.
    pub fn check_setup(&mut self, resolved: &Resolved, setup: &Value) -> Result<(), SetupTrouble> {
        let link = self.link.as_deref_mut().expect("open until closed");
        let started = Running::start(&self.engine, link, &resolved.variant, &resolved.teams, Origin::Setup(setup));
        match self.runtime.block_on(started) {
            Ok(_) => Ok(()),
            Err(Trouble::Refused(why)) => Err(SetupTrouble::Refused(why)),
            Err(Trouble::Failed(e)) => Err(SetupTrouble::Failed(engine_failure(e))),
        }
    }

    /// Says goodbye to the engine; the engine to run with.
    pub fn close(mut self) -> Result<Arc<Engine>, Failure> {
        if let Some(link) = self.link.take() {
            self.runtime.block_on(link.close()).map_err(engine_failure)?;
        }
        crate::bot::orphans::sweep(&self.registry);
        Ok(Arc::clone(&self.engine))
    }
}

/// Why a setup was not taken.
pub enum SetupTrouble {
    /// The engine does not play it, for this reason.
    Refused(String),
    /// The engine failed.
    Failed(Failure),
}

/// The failure of a command whose engine failed.
pub fn engine_failure(e: crate::engine::process::EngineError) -> Failure {
    internal(e.to_string())
}

/// The settings of `--players N` (if given) and `--variant KEY=VALUE`, in order.
pub fn settings(players: Option<usize>, variants: &[String]) -> Result<Vec<(String, String)>, Failure> {
    let mut settings = Vec::new();
    if let Some(players) = players {
        settings.push(("players".to_string(), players.to_string()));
    }
    for pair in variants {
        let (key, value) =
            pair.split_once('=').ok_or_else(|| usage(format!("--variant {pair:?}: expected KEY=VALUE")))?;
        settings.push((key.trim().to_string(), value.trim().to_string()));
    }
    Ok(settings)
}

/// Reads the setups file `path` and has the engine check each one.
pub fn read_setups(setting: &mut Setting, resolved: &Resolved, path: &Path) -> Result<Vec<Value>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
    check_setups(setting, resolved, &text)
        .map_err(|failure| Failure { message: format!("{}: {}", path.display(), failure.message), ..failure })
}

/// Parses setups from the text of a setups file and has the engine check each one.
pub fn check_setups(setting: &mut Setting, resolved: &Resolved, text: &str) -> Result<Vec<Value>, Failure> {
    let parsed = crate::run::setups::parse(text).map_err(usage)?;
    for (number, (line, setup)) in (1..).zip(&parsed) {
        match setting.check_setup(resolved, setup) {
            Ok(()) => {}
            Err(SetupTrouble::Refused(why)) => return Err(usage(format!("game {number} (line {line}): {why}"))),
            Err(SetupTrouble::Failed(failure)) => return Err(failure),
        }
    }
    Ok(parsed.into_iter().map(|(_, setup)| setup).collect())
}
