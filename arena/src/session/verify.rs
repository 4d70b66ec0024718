//! A verification as the library runs it (`arena verify` parses its flags
//! and calls [`run`]): every recorded game of each file re-played through its
//! engine ([`crate::check::verify`]: the built-in game, or the engine program
//! the record names, started once and kept while the games are its own),
//! every disagreement listed with the line, game and event it is at, and each
//! file summed up.

use super::exit::{self, Failure, internal, unwritten};
use super::recorded::RecordedEngine;
use crate::bot::placement::Placement;
use crate::bot::registry::Registry;
use crate::check::verify::{self, Disagreement};
use crate::engine::link::Link;
use crate::engine::spec::{Engine, Identity};
use crate::store::record_file::{self, Header, Line};
use crate::terminal::console::{errln, outln};
use crate::terminal::untrusted::escape;
use std::path::PathBuf;

/// What `arena verify` is asked.
pub struct VerifyRequest {
    /// Record files (games.jsonl), or output directories holding one.
    pub files: Vec<PathBuf>,
    /// Which engine program the records may run.
    pub recorded: RecordedEngine,
    /// Time allowed for each answer of the engine program, in milliseconds.
    pub timeout_ms: u64,
}

/// The engine the games are replayed through: opened on the first game of
/// its kind (a built-in game, or an engine program, started once), and kept
/// while the games are of the same one.
struct Engines {
    runtime: tokio::runtime::Runtime,
    registry: Registry,
    open: Option<(String, Engine, Box<dyn Link>)>,
    recorded: RecordedEngine,
    timeout_ms: u64,
}

impl Engines {
    /// Checks `text`, the record of a game of `game` (of the engine program
    /// `identity`, if it names one; `what` names the line for messages).
    fn check(
        &mut self,
        what: &str,
        identity: Option<&Identity>,
        game: &str,
        text: &str,
    ) -> Result<Vec<Disagreement>, Failure> {
        let program = identity.map(|identity| self.recorded.program(what, identity, self.timeout_ms)).transpose()?;
        let key =
            program.as_ref().map_or_else(|| game.to_string(), |p| format!("{} in {}", p.command, p.dir.display()));
        if self.open.as_ref().is_none_or(|(open, ..)| *open != key) {
            self.close_engine();
            let engine = match (&program, identity) {
                (Some(program), Some(identity)) => {
                    let engine = self
                        .runtime
                        .block_on(Engine::program(program.clone(), &self.registry, None))
                        .map_err(|e| self.recorded.failed(e, program))?;
                    if engine.info().version != identity.version {
                        errln!(
                            "warning: the records were played by {} {}, and are replayed through version {}",
                            game,
                            escape(&identity.version),
                            escape(&engine.info().version)
                        );
                    }
                    engine
                }
                _ => match Engine::built_in(game) {
                    Ok(engine) => engine,
                    Err(e) => return Ok(vec![Disagreement::whole(e.to_string())]),
                },
            };
            let link = self.runtime.block_on(engine.connect(&self.registry, Placement::default()))?;
            self.open = Some((key, engine, link));
        }
        let (_, engine, link) = self.open.as_mut().expect("just opened");
        if engine.name() != game {
            return Ok(vec![Disagreement::whole(format!(
                "a record of {game}, but the engine {:?} plays {}",
                engine.program_of().map_or("", |p| p.command.as_str()),
                engine.name()
            ))]);
        }
        self.runtime
            .block_on(verify::check(engine, link.as_mut(), text))
            .map_err(|e| internal(format!("{e}; verifying stopped (an engine that fails cannot check a record)")))
    }

    /// Says goodbye to the open engine, if there is one.
    fn close_engine(&mut self) {
        if let Some((_, _, link)) = self.open.take() {
            let _ = self.runtime.block_on(link.close());
        }
    }

    /// Says goodbye to the engine, and makes sure nothing is left.
    fn close(mut self) {
        self.close_engine();
        crate::bot::orphans::sweep(&self.registry);
    }
}

/// Runs `arena verify`: exit status 0 when every record agrees with the
/// engine, 1 when any does not (or a line is not a record).
pub fn run(request: VerifyRequest) -> Result<i32, Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| internal(format!("cannot start the runtime: {e}")))?;
    let mut engines = Engines {
        runtime,
        registry: Registry::new(),
        open: None,
        recorded: request.recorded,
        timeout_ms: request.timeout_ms,
    };
    let result = verify_files(&request.files, &mut engines);
    engines.close();
    result
}

fn verify_files(files: &[PathBuf], engines: &mut Engines) -> Result<i32, Failure> {
    let mut failing = 0;
    for given in files {
        let path = record_file::resolve(given);
        let (mut games, mut bad_games, mut disagreements) = (0, 0, 0);
        for line in record_file::lines(&path)? {
            let line = line?;
            games += 1;
            let game = line.header.as_ref().map_or_else(|_| String::new(), |h| format!(" game {},", h.id));
            let what = format!("{}:{}:{}", path.display(), line.number, game.trim_end_matches(','));
            let found = check_line(&what, &line, engines)?;
            if found.is_empty() {
                continue;
            }
            bad_games += 1;
            disagreements += found.len();
            for disagreement in found {
                let event = disagreement.event.map_or_else(String::new, |at| format!(" event {at}:"));
                let message = escape(&disagreement.message);
                outln!("{}:{}:{game}{event} {message}", path.display(), line.number).map_err(unwritten)?;
            }
        }
        if bad_games == 0 {
            outln!("{}: {games} games verified: every record agrees with the engine", path.display())
                .map_err(unwritten)?;
        } else {
            outln!(
                "{}: {games} games verified: {bad_games} disagree with the engine ({disagreements} disagreements)",
                path.display()
            )
            .map_err(unwritten)?;
        }
        failing += bad_games;
    }
    Ok(exit::answer(failing == 0))
}

/// The disagreements of one line of a records file (`what` names it for messages).
fn check_line(what: &str, line: &Line, engines: &mut Engines) -> Result<Vec<Disagreement>, Failure> {
    match &line.header {
        Err(e) => Ok(vec![Disagreement::whole(e.to_string())]),
        Ok(Header { engine, game, .. }) => engines.check(what, engine.as_ref(), game, &line.text),
    }
}
