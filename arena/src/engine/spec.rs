//! Which engine a run plays, and how to reach it: a game built into the
//! arena, answering in process, or an engine program (`--engine COMMAND`),
//! one process of it for each game in flight. The core knows a game only
//! as an [`Engine`].

use super::games::{BUILT_IN, BuiltIn, Mirror, UnknownGame};
use super::link::Link;
use super::origin::Origin;
use super::process::{EngineError, EngineProcess};
use super::program::Program;
use super::sandbox::Confinement;
use crate::bot::placement::Placement;
use crate::bot::registry::Registry;
use game::{Game, Scoring};
use protocol::engine::{Answer, EngineInfo, Request, ScoringInfo, VariantInfo};
pub use records::identity::Identity;
use serde_json::Value;
use std::borrow::Cow;

/// Where an engine comes from.
enum Source {
    BuiltIn(&'static dyn BuiltIn),
    Program(Program),
}

/// The engine of a run.
pub struct Engine {
    info: EngineInfo,
    source: Source,
    /// How the program's processes are confined, under a sandbox.
    confinement: Option<Confinement>,
}

impl Engine {
    /// The built-in game called `name`.
    ///
    /// # Errors
    /// When there is none, naming the games there are.
    pub fn built_in(name: &str) -> Result<Engine, UnknownGame> {
        match BUILT_IN.iter().find(|game| game.name() == name) {
            Some(game) => Ok(Engine { info: game.info(), source: Source::BuiltIn(*game), confinement: None }),
            None => Err(UnknownGame(name.to_string())),
        }
    }

    /// The built-in engine of the typed game `G`.
    ///
    /// # Panics
    /// When `G` is not one of [`BUILT_IN`].
    pub fn of<G: Game>() -> Engine {
        Engine::built_in(G::NAME).expect("a typed game is built in")
    }

    /// The engine program `program`, asked once who it is; every process of
    /// it confined as `confinement` says, if it does.
    ///
    /// # Errors
    /// When it cannot be started or does not answer `hello` as it should.
    pub async fn program(
        program: Program,
        registry: &Registry,
        confinement: Option<Confinement>,
    ) -> Result<Engine, EngineError> {
        let (process, info) = EngineProcess::start(
            &program.command,
            &program.dir,
            program.timeout(),
            registry,
            Placement::default(),
            confinement.as_ref(),
        )
        .await?;
        process.bye().await?;
        Ok(Engine { info, source: Source::Program(program), confinement })
    }

    /// The game's name, as records and bots are told it.
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// What the engine says of itself.
    pub fn info(&self) -> &EngineInfo {
        &self.info
    }

    /// How the standings read the game's scores.
    pub fn scoring(&self) -> Scoring {
        scoring(&self.info.scoring)
    }

    /// The built-in game, if the engine is one (what reads its records typed).
    pub fn built_in_game(&self) -> Option<&'static dyn BuiltIn> {
        match &self.source {
            Source::BuiltIn(game) => Some(*game),
            Source::Program(_) => None,
        }
    }

    /// The engine program, if the game is not built in.
    pub fn program_of(&self) -> Option<&Program> {
        match &self.source {
            Source::BuiltIn(_) => None,
            Source::Program(program) => Some(program),
        }
    }

    /// A typed copy of a game of `variant` set up from `origin`, to draw it
    /// in text; `None` for an engine program (whose states and views are
    /// then shown as they are).
    pub fn mirror(&self, variant: &Value, origin: Origin<'_>) -> Option<Box<dyn Mirror>> {
        match &self.source {
            Source::BuiltIn(game) => game.mirror(variant, origin),
            Source::Program(_) => None,
        }
    }

    /// What a record keeps of the engine of a game whose sides are
    /// `teams`: the program's command, directory and version; nothing for a built-in
    /// game (the arena's version says it).
    pub fn identity(&self, teams: &[Vec<usize>]) -> Option<Identity> {
        self.program_of().map(|program| Identity {
            command: program.command.clone(),
            dir: Some(program.dir.clone()),
            version: self.info.version.clone(),
            teams: teams.to_vec(),
            scoring: self.info.scoring.clone(),
        })
    }

    /// A new connection to the engine, holding no game: an in-process
    /// engine, or a new process of the program (placed as `placement`).
    ///
    /// # Errors
    /// When the program cannot be started, fails its `hello`, or now calls
    /// itself another game.
    pub async fn connect(&self, registry: &Registry, placement: Placement) -> Result<Box<dyn Link>, EngineError> {
        match &self.source {
            Source::BuiltIn(game) => Ok(game.server()),
            Source::Program(program) => {
                let (process, info) = EngineProcess::start(
                    &program.command,
                    &program.dir,
                    program.timeout(),
                    registry,
                    placement,
                    self.confinement.as_ref(),
                )
                .await?;
                if info.name != self.info.name || info.version != self.info.version {
                    let stderr = process.kill().await;
                    return Err(EngineError {
                        message: format!(
                            "engine {:?} called itself {} {} and now {} {}: an engine must answer hello alike in \
                             every process",
                            program.command, self.info.name, self.info.version, info.name, info.version
                        ),
                        stderr,
                    });
                }
                Ok(Box::new(process))
            }
        }
    }

    /// The variant `settings` resolve to (later ones win).
    ///
    /// # Errors
    /// [`Trouble::Refused`] with the engine's reason when it does not
    /// take them, [`Trouble::Failed`] when the engine failed.
    pub async fn variant(&self, settings: &[(String, String)], link: &mut dyn Link) -> Result<VariantInfo, Trouble> {
        match link.ask(Request::Variant { settings: settings.to_vec() }).await? {
            Answer::Variant(variant) => {
                super::rules::check_teams(&variant)
                    .map_err(|e| self.failed(format!("answered variant with sides that do not hold: {e}")))?;
                Ok(variant)
            }
            Answer::Error { message } => Err(Trouble::refused(&message)),
            other => Err(Trouble::Failed(
                self.failed(format!("answered variant with {} instead of \"variant\"", super::process::name(&other))),
            )),
        }
    }

    /// An error of this engine: `problem`, naming it.
    pub fn failed(&self, problem: impl std::fmt::Display) -> EngineError {
        let who = match &self.source {
            Source::BuiltIn(game) => format!("the built-in engine {}", game.name()),
            Source::Program(program) => format!("engine {:?}", program.command),
        };
        EngineError { message: format!("{who} {problem}"), stderr: Vec::new() }
    }
}

/// How the standings read scores the engine describes as `info`.
pub fn scoring(info: &ScoringInfo) -> Scoring {
    Scoring { unit: Cow::Owned(info.unit.clone()), rank_by_mean: info.rank_by_mean }
}

/// Why an engine did not give what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trouble {
    /// It refused the request, for this reason (a variant it does not take,
    /// a setup it cannot play): the user's to fix.
    Refused(String),
    /// It failed: the engine's author's to fix.
    Failed(EngineError),
}

impl Trouble {
    /// The engine refused, saying `message` (escaped: it is shown to the
    /// user, and the engine wrote it).
    pub fn refused(message: &str) -> Trouble {
        Trouble::Refused(crate::terminal::untrusted::escape(message).into_owned())
    }
}

impl From<EngineError> for Trouble {
    fn from(e: EngineError) -> Self {
        Trouble::Failed(e)
    }
}

impl std::fmt::Display for Trouble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Trouble::Refused(why) => f.write_str(why),
            Trouble::Failed(e) => e.fmt(f),
        }
    }
}
