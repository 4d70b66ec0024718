//! A game engine running as a process of its own, spoken to over the engine
//! protocol (`engines/ENGINES.md`): started like a bot (a supervisor, a
//! process group of its own, a clean environment, resource limits), every
//! answer awaited with a deadline, and killed with everything it started.
//! Whatever the engine does wrong is an [`EngineError`] that names it, never
//! a bot's fault.

use super::sandbox::Confinement;
use crate::bot::fault::FaultKind;
use crate::bot::limits::ResourceLimits;
use crate::bot::lines::excerpt;
use crate::bot::placement::Placement;
use crate::bot::process::{Awaited, BotProcess, Launch};
use crate::bot::registry::Registry;
use crate::bot::sandbox::Wrapped;
use crate::terminal::untrusted::escape;
use protocol::engine::{Answer, ENGINE_VERSION, EngineInfo, Raw, Request};
use std::path::Path;
use std::time::Duration;
use tokio::time::Instant;

/// How much of an engine's stderr is kept.
const STDERR_CAP: u64 = 1 << 20;
/// The longest line an engine may answer with (a `page` aside): ample for a
/// step, whose events are those of one move, and it bounds what reading an
/// engine's answers holds (engines/ENGINES.md states the memory it costs).
pub const LINE_CAP: usize = 1 << 20;
/// The longest `page` an engine may answer with, for `arena view` (one
/// engine): the record it draws, which may take
/// [`MAX_RECORD_BYTES`](crate::store::output::MAX_RECORD_BYTES) (64 MiB),
/// and as much again for the drawing (`store::output` checks the two agree).
pub const PAGE_LINE_CAP: usize = 128 << 20;
/// How long an engine may take to exit after `bye`.
pub const EXIT_GRACE: Duration = Duration::from_secs(2);

/// An engine that failed: it could not start, answered late or not at all,
/// exited, or wrote something that is not the answer it owed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineError {
    /// What went wrong, naming the engine's command.
    pub message: String,
    /// The last lines the engine wrote to stderr.
    pub stderr: Vec<String>,
}

/// Shown escaped ([`crate::terminal::untrusted`]): the message quotes the
/// engine's answers, and its stderr is the engine's own.
impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&escape(&self.message))?;
        if let Some(last) = self.stderr.last() {
            write!(f, " (its stderr ends: {})", escape(&excerpt(last.as_bytes())))?;
        }
        Ok(())
    }
}

/// A live engine process.
pub struct EngineProcess {
    process: Option<BotProcess>,
    /// The command, as the user gave it, for messages.
    command: String,
    /// How long each answer may take.
    timeout: Duration,
    /// Whether it runs in the sandbox, for messages.
    sandboxed: bool,
}

/// The request's type, as messages name it.
fn kind(request: &Request) -> &'static str {
    match request {
        Request::Hello { .. } => "hello",
        Request::Variant { .. } => "variant",
        Request::Start { .. } => "start",
        Request::Play { .. } => "play",
        Request::Find { .. } => "find",
        Request::Observe { .. } => "observe",
        Request::Forfeit { .. } => "forfeit",
        Request::Page { .. } => "page",
        Request::Bye => "bye",
    }
}

/// The most an engine may ask for each answer at `engine` (its `step_ms`),
/// in milliseconds; an answer timeout the user gives that is longer wins.
pub const STEP_MS_LIMIT: u64 = 60_000;

/// How long each answer of an engine that asks `step_ms` at `engine` may
/// take, the user giving `timeout` (`--engine-timeout`): what it asks, up to
/// [`STEP_MS_LIMIT`], and never less than `timeout`.
pub fn granted(timeout: Duration, step_ms: Option<u64>) -> Duration {
    timeout.max(Duration::from_millis(step_ms.unwrap_or(0).min(STEP_MS_LIMIT)))
}

impl EngineProcess {
    /// Starts `command` in `dir` (placed as `placement`, confined as
    /// `confinement` says if it does) and asks it `hello`; every answer
    /// must come within `timeout`.
    ///
    /// # Errors
    /// When the command cannot be run, or the engine does not answer `hello`
    /// with `engine` in time, or speaks another protocol version.
    pub async fn start(
        command: &str,
        dir: &Path,
        timeout: Duration,
        registry: &Registry,
        placement: Placement,
        confinement: Option<&Confinement>,
    ) -> Result<(EngineProcess, EngineInfo), EngineError> {
        Self::launch(command, dir, timeout, registry, placement, LINE_CAP, confinement).await
    }

    /// [`EngineProcess::start`] for `arena view`, whose answer may be a
    /// whole page: a line may take [`PAGE_LINE_CAP`] bytes.
    ///
    /// # Errors
    /// As [`EngineProcess::start`].
    pub async fn start_for_page(
        command: &str,
        dir: &Path,
        timeout: Duration,
        registry: &Registry,
    ) -> Result<(EngineProcess, EngineInfo), EngineError> {
        Self::launch(command, dir, timeout, registry, Placement::default(), PAGE_LINE_CAP, None).await
    }

    /// Starts `command`, whose lines may take `line_cap` bytes, and asks it `hello`.
    async fn launch(
        command: &str,
        dir: &Path,
        timeout: Duration,
        registry: &Registry,
        placement: Placement,
        line_cap: usize,
        confinement: Option<&Confinement>,
    ) -> Result<(EngineProcess, EngineInfo), EngineError> {
        let spec = super::sandbox::spec(command, dir)
            .map_err(|e| EngineError { message: format!("engine {command:?}: {e}"), stderr: Vec::new() })?;
        let wrapped = match confinement {
            Some(confinement) => confinement.wrap(&spec),
            None => Wrapped { argv: spec.argv.clone(), options: 0 },
        };
        let sandboxed = confinement.is_some();
        let launch = Launch {
            argv: wrapped.argv,
            options: wrapped.options,
            dir: spec.dir.clone(),
            env: crate::bot::spec::bot_environment(&spec.env),
            resources: ResourceLimits::default(),
            groups: Vec::new(),
            placement,
            log: None,
            stderr_cap: STDERR_CAP,
            line_cap,
            registry: registry.clone(),
            view: None,
            remote: None,
        };
        let process = BotProcess::spawn(&launch).map_err(|fault| EngineError {
            message: format!("engine {command:?} cannot be started: {}{}", fault.message, sandbox_note(sandboxed)),
            stderr: Vec::new(),
        })?;
        let mut engine = EngineProcess { process: Some(process), command: command.to_string(), timeout, sandboxed };
        match engine.ask(&Request::Hello { protocol: ENGINE_VERSION }).await? {
            Answer::Engine(info) if !is_game_name(&info.name) => Err(engine
                .fail(format!(
                    "called its game {:?}: a game's name is lower case letters, digits and -, as records and the \
                     command line name it",
                    info.name
                ))
                .await),
            Answer::Engine(info) if info.protocol == ENGINE_VERSION => {
                engine.timeout = granted(timeout, info.step_ms);
                Ok((engine, info))
            }
            Answer::Engine(info) => Err(engine
                .fail(format!(
                    "speaks engine protocol version {}; the arena speaks version {ENGINE_VERSION}",
                    info.protocol
                ))
                .await),
            other => Err(engine.fail(format!("answered hello with {} instead of \"engine\"", name(&other))).await),
        }
    }

    /// Sends `request` and reads the answer, within the timeout. `bye` is
    /// not asked this way ([`EngineProcess::bye`]).
    ///
    /// # Errors
    /// When the engine does not answer in time, exits, or answers with
    /// something that is not an engine-protocol answer. The process is then
    /// killed: an engine that failed is not asked again.
    pub async fn ask(&mut self, request: &Request) -> Result<Answer, EngineError> {
        self.ask_raw(request).await.map(|(answer, _)| answer)
    }

    /// [`EngineProcess::ask`], with the answer's line as the engine wrote it.
    ///
    /// # Errors
    /// As [`EngineProcess::ask`].
    pub async fn ask_raw(&mut self, request: &Request) -> Result<(Answer, Vec<u8>), EngineError> {
        self.ask_with(request, |line| protocol::line::decode::<Answer>(line).map(|answer| (answer, line.to_vec())))
            .await
    }

    /// [`EngineProcess::ask`], the game's payloads kept as the engine wrote
    /// them ([`protocol::engine::decode_raw`]).
    ///
    /// # Errors
    /// As [`EngineProcess::ask`].
    pub async fn ask_payloads(&mut self, request: &Request) -> Result<Answer<Raw>, EngineError> {
        self.ask_with(request, protocol::engine::decode_raw).await
    }

    /// Sends `request` and reads the answer with `decode`, within the timeout.
    async fn ask_with<T>(
        &mut self,
        request: &Request,
        decode: impl FnOnce(&[u8]) -> Result<T, protocol::line::LineError>,
    ) -> Result<T, EngineError> {
        let Some(process) = self.process.as_mut() else {
            return Err(EngineError {
                message: format!("engine {:?} has already failed", self.command),
                stderr: vec![],
            });
        };
        process.queue(request);
        process.make_way().await;
        let what = Awaited::Engine(kind(request));
        let cap = process.line_cap();
        let result = match process.exchange(Instant::now() + self.timeout, self.timeout, what).await {
            Ok(line) => match decode(line) {
                Ok(answer) => Ok(answer),
                Err(e) => Err(format!("answered {} with {}: {e}", kind(request), excerpt(line))),
            },
            Err(fault) if fault.kind == FaultKind::LineTooLong => Err(format!(
                "answered {} with a line longer than the {} bytes an engine's answer may take (engines/ENGINES.md, \
                 Lines): send less in one answer",
                kind(request),
                cap
            )),
            Err(fault)
                if matches!(fault.kind, FaultKind::Exited | FaultKind::ClosedStdout | FaultKind::ClosedStdin) =>
            {
                Err(format!("{}{}", fault.message, sandbox_note(self.sandboxed)))
            }
            Err(fault) => Err(fault.message),
        };
        match result {
            Ok(answer) => Ok(answer),
            Err(message) => Err(self.fail(message).await),
        }
    }

    /// Kills the engine and describes what it did wrong.
    pub async fn fail(&mut self, problem: String) -> EngineError {
        let stderr = match self.process.take() {
            Some(process) => process.kill().await,
            None => Vec::new(),
        };
        EngineError { message: format!("engine {:?} {problem}", self.command), stderr }
    }

    /// Says `bye` and waits for the engine to exit.
    ///
    /// # Errors
    /// When it is still running [`EXIT_GRACE`] later (it is then killed).
    pub async fn bye(mut self) -> Result<(), EngineError> {
        let Some(mut process) = self.process.take() else { return Ok(()) };
        process.queue(&Request::Bye);
        match process.await_exit(false, EXIT_GRACE).await {
            Some(_) => {
                process.close(Duration::ZERO).await;
                Ok(())
            }
            None => {
                let stderr = process.kill().await;
                Err(EngineError {
                    message: format!(
                        "engine {:?} was still running {} ms after bye",
                        self.command,
                        EXIT_GRACE.as_millis()
                    ),
                    stderr,
                })
            }
        }
    }

    /// Kills the engine and everything it started; returns the last lines
    /// of its stderr.
    pub async fn kill(mut self) -> Vec<String> {
        match self.process.take() {
            Some(process) => process.kill().await,
            None => Vec::new(),
        }
    }
}

/// What an engine that could not start, or died, is told it ran in, if it
/// ran in the sandbox: what it may have missed there.
fn sandbox_note(sandboxed: bool) -> &'static str {
    match sandboxed {
        true => {
            "; it ran in the sandbox (--sandbox bwrap), which shows an engine only the system, its own directory, \
             the directories its command names and its interpreter's installation, read-only, with a private /tmp, \
             no network and no other process (docs/sandbox.md, Engine programs)"
        }
        false => "",
    }
}

/// Whether `name` is a game's name as ENGINES.md defines it: lower case
/// letters, digits and `-`, not empty.
fn is_game_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// An answer's type, as messages name it.
pub fn name<J>(answer: &Answer<J>) -> &'static str {
    match answer {
        Answer::Engine(_) => "\"engine\"",
        Answer::Variant(_) => "\"variant\"",
        Answer::Step(_) => "\"step\"",
        Answer::Found { .. } => "\"found\"",
        Answer::Observe { .. } => "\"observe\"",
        Answer::Scores { .. } => "\"scores\"",
        Answer::Page { .. } => "\"page\"",
        Answer::Error { .. } => "\"error\"",
    }
}
