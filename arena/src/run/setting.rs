//! A conversation with a run's engine before the run: which game it is,
//! the variant its settings resolve to, and whether it plays the games set
//! up in advance. Asked of the engine itself before any bot starts.

use crate::bot::placement::Placement;
use crate::bot::registry::Registry;
use crate::engine::link::Link;
use crate::engine::origin::Origin;
use crate::engine::process::EngineError;
use crate::engine::program::Program;
use crate::engine::running::Running;
use crate::engine::sandbox::Confinement;
use crate::engine::spec::{Engine, Trouble};
use crate::run::table::Resolved;
use crate::settings::VariantSetting;
use serde_json::Value;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// Why a run's game could not be set.
#[derive(Debug)]
pub enum SettingError {
    /// What was asked of the engine is refused (an unknown game, a variant
    /// it does not have, a setup it does not play): the user's to change.
    Refused(String),
    /// The engine failed, or the arena could not talk to it.
    Failed(String),
}

impl SettingError {
    /// The error, said of the file `path`.
    fn of_file(self, path: &Path) -> SettingError {
        match self {
            SettingError::Refused(why) => SettingError::Refused(format!("{}: {why}", path.display())),
            SettingError::Failed(why) => SettingError::Failed(format!("{}: {why}", path.display())),
        }
    }
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::Refused(why) | SettingError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SettingError {}

impl From<EngineError> for SettingError {
    fn from(error: EngineError) -> SettingError {
        SettingError::Failed(error.to_string())
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
    /// Opens the engine of `game` (or of `program`, when given, its every
    /// process confined as `confinement` says if it does).
    pub fn open(
        game: &str,
        program: Option<Program>,
        confinement: Option<Confinement>,
    ) -> Result<Setting, SettingError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| SettingError::Failed(format!("cannot start the runtime: {e}")))?;
        let registry = Registry::new();
        let engine = match program {
            None => Engine::built_in(game).map_err(|e| SettingError::Refused(e.to_string()))?,
            Some(program) => runtime.block_on(Engine::program(program, &registry, confinement))?,
        };
        let link = runtime.block_on(engine.connect(&registry, Placement::default()))?;
        Ok(Setting { runtime, registry, engine: Arc::new(engine), link: Some(link) })
    }

    /// The engine.
    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// The variant `settings` resolve to (later ones win).
    pub fn resolve(&mut self, settings: &[(String, String)]) -> Result<Resolved, SettingError> {
        let link = self.link.as_deref_mut().expect("open until closed");
        match self.runtime.block_on(self.engine.variant(settings, link)) {
            Ok(info) => Ok(Resolved { variant: info.variant, teams: info.teams }),
            Err(Trouble::Refused(why)) => Err(SettingError::Refused(format!("variant: {why}"))),
            Err(Trouble::Failed(e)) => Err(e.into()),
        }
    }

    /// Whether the engine plays `setup` with `resolved`: a
    /// [`SettingError::Refused`] with its reason when it does not.
    pub fn check_setup(&mut self, resolved: &Resolved, setup: &Value) -> Result<(), SettingError> {
        let link = self.link.as_deref_mut().expect("open until closed");
        let started =
            Running::start(&self.engine, link, &resolved.variant, &resolved.teams, Origin::Setup(setup), false);
        match self.runtime.block_on(started) {
            Ok(_) => Ok(()),
            Err(Trouble::Refused(why)) => Err(SettingError::Refused(why)),
            Err(Trouble::Failed(e)) => Err(e.into()),
        }
    }

    /// Reads the setups file `path` and has the engine check each one.
    pub fn read_setups(&mut self, resolved: &Resolved, path: &Path) -> Result<Vec<Value>, SettingError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| SettingError::Refused(format!("cannot read {}: {e}", path.display())))?;
        self.check_setups(resolved, &text).map_err(|error| error.of_file(path))
    }

    /// Parses setups from the text of a setups file and has the engine check each one.
    fn check_setups(&mut self, resolved: &Resolved, text: &str) -> Result<Vec<Value>, SettingError> {
        let parsed = crate::run::setups::parse(text).map_err(|e| SettingError::Refused(e.to_string()))?;
        for (number, (line, setup)) in (1..).zip(&parsed) {
            match self.check_setup(resolved, setup) {
                Ok(()) => {}
                Err(SettingError::Refused(why)) => {
                    return Err(SettingError::Refused(format!("game {number} (line {line}): {why}")));
                }
                Err(failed) => return Err(failed),
            }
        }
        Ok(parsed.into_iter().map(|(_, setup)| setup).collect())
    }

    /// Says goodbye to the engine; the engine to run with.
    pub fn close(mut self) -> Result<Arc<Engine>, SettingError> {
        if let Some(link) = self.link.take() {
            self.runtime.block_on(link.close())?;
        }
        crate::bot::orphans::sweep(&self.registry);
        Ok(Arc::clone(&self.engine))
    }
}

/// The settings of `--players N` (if given) and `--variant KEY=VALUE`, in order.
pub fn given(players: Option<usize>, variants: &[VariantSetting]) -> Vec<(String, String)> {
    let players = players.map(|players| ("players".to_string(), players.to_string()));
    players.into_iter().chain(variants.iter().map(VariantSetting::pair)).collect()
}
