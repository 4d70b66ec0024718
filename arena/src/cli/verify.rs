//! `arena verify`: re-plays every recorded game through the engine and
//! reports every disagreement.

use super::flags::number;
use super::recorded::RecordedEngine;
use super::{Failure, exit, internal, unwritten};
use crate::bot::placement::Placement;
use crate::bot::registry::Registry;
use crate::check::verify::engine as engine_verify;
use crate::check::verify::{self, Disagreement};
use crate::engine::games::{GameCommand, dispatch};
use crate::engine::link::Link;
use crate::engine::spec::{Engine, Identity};
use crate::settings::ENGINE_TIMEOUT;
use crate::store::record::RecordOf;
use crate::store::record_file::{self, Header, Line};
use crate::terminal::console::{errln, outln};
use crate::terminal::untrusted::escape;
use clap::Args;
use game::Game;
use std::path::PathBuf;

/// The flags of `arena verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Record files (games.jsonl), or output directories holding one.
    #[arg(required = true, value_name = "GAMES")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    recorded: RecordedEngine,
    /// Time allowed for each answer of the engine program, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = number(&ENGINE_TIMEOUT), help = ENGINE_TIMEOUT.help_as(
        "Time allowed for each answer of the engine program, in milliseconds (default {default}; an engine that asks more at hello, its step_ms, is given up to 60000)"
    ))]
    engine_timeout: Option<u64>,
}

/// The engine program the games of engine programs are replayed through:
/// started once, on the first such game, and kept for the others.
struct Programs {
    runtime: tokio::runtime::Runtime,
    registry: Registry,
    open: Option<(Engine, Box<dyn Link>)>,
    recorded: RecordedEngine,
    timeout_ms: u64,
}

impl Programs {
    /// Checks `record`, a game of the engine program `identity` (`what`
    /// names it for messages).
    fn check(&mut self, what: &str, identity: &Identity, game: &str, text: &str) -> Result<Vec<Disagreement>, Failure> {
        let record: crate::store::record::JsonRecord = match serde_json::from_str(text) {
            Ok(record) => record,
            Err(e) => return Ok(vec![Disagreement::whole(format!("not a record: {e}"))]),
        };
        if self.open.is_none() {
            let program = self.recorded.program(what, identity, self.timeout_ms)?;
            let engine = self
                .runtime
                .block_on(Engine::program(program.clone(), &self.registry, None))
                .map_err(|e| self.recorded.failed(e, &program))?;
            if engine.info().version != identity.version {
                errln!(
                    "warning: the records were played by {} {}, and are replayed through version {}",
                    game,
                    escape(&identity.version),
                    escape(&engine.info().version)
                );
            }
            let link = self.runtime.block_on(engine.connect(&self.registry, Placement::default()))?;
            self.open = Some((engine, link));
        }
        let (engine, link) = self.open.as_mut().expect("just opened");
        if engine.name() != game {
            return Ok(vec![Disagreement::whole(format!(
                "a record of {game}, but the engine {:?} plays {}",
                engine.program_of().map_or("", |p| p.command.as_str()),
                engine.name()
            ))]);
        }
        self.runtime
            .block_on(engine_verify::check(engine, link.as_mut(), identity, &record))
            .map_err(|e| internal(format!("{e}; verifying stopped (an engine that fails cannot check a record)")))
    }

    /// Says goodbye to the engine, if one was started.
    fn close(mut self) {
        if let Some((_, link)) = self.open.take() {
            let _ = self.runtime.block_on(link.close());
        }
        crate::bot::orphans::sweep(&self.registry);
    }
}

/// Runs `arena verify`: exit status 0 when every record agrees with the
/// engine, 1 when any does not (or a line is not a record).
pub fn run(args: VerifyArgs) -> Result<i32, Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| internal(format!("cannot start the runtime: {e}")))?;
    let mut programs = Programs {
        runtime,
        registry: Registry::new(),
        open: None,
        recorded: args.recorded.clone(),
        timeout_ms: args.engine_timeout.unwrap_or(ENGINE_TIMEOUT.default),
    };
    let result = verify_files(&args, &mut programs);
    programs.close();
    result
}

fn verify_files(args: &VerifyArgs, programs: &mut Programs) -> Result<i32, Failure> {
    let mut failing = 0;
    for given in &args.files {
        let path = record_file::resolve(given);
        let (mut games, mut bad_games, mut disagreements) = (0, 0, 0);
        for line in record_file::lines(&path)? {
            let line = line?;
            games += 1;
            let game = line.header.as_ref().map_or_else(|_| String::new(), |h| format!(" game {},", h.id));
            let what = format!("{}:{}:{}", path.display(), line.number, game.trim_end_matches(','));
            let found = check_line(&what, &line, programs)?;
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
fn check_line(what: &str, line: &Line, programs: &mut Programs) -> Result<Vec<Disagreement>, Failure> {
    let whole = |message: String| vec![Disagreement { event: None, message }];
    Ok(match &line.header {
        Err(e) => whole(e.to_string()),
        Ok(Header { engine: Some(identity), game, .. }) => programs.check(what, identity, game, &line.text)?,
        Ok(header) => dispatch(&header.game, CheckRecord(&line.text)).unwrap_or_else(|e| whole(e.to_string())),
    })
}

/// Checks one record of game `G`, given as its JSON text.
struct CheckRecord<'a>(&'a str);

impl GameCommand for CheckRecord<'_> {
    type Output = Vec<Disagreement>;
    fn run<G: Game>(self) -> Vec<Disagreement> {
        match serde_json::from_str::<RecordOf<G>>(self.0) {
            Ok(record) => verify::check::<G>(&record),
            Err(e) => vec![Disagreement { event: None, message: format!("not a {} record: {e}", G::NAME) }],
        }
    }
}
