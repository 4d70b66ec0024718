//! One running bot process: spawned into its own process group, spoken to
//! through its stdin and stdout, and killed as a group.
//!
//! Messages for the bot are queued in an outbox and written together only
//! when the arena waits for an answer, so each decision costs one write and
//! one read.

use super::limits::ResourceLimits;
use super::lines::{LineReader, ReadError};
use super::logs::LogPlace;
use super::registry::{Registry, kill_group};
use super::stderr::StderrDrain;
use crate::fault::{Fault, FaultKind};
use serde::Serialize;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::Instant;

/// How long the arena waits, after a bot's stdout closes, to see whether it exited.
const EXIT_PATIENCE: Duration = Duration::from_millis(200);
/// How long the arena waits for the stderr pipe to close after the group is killed.
const STDERR_PATIENCE: Duration = Duration::from_millis(200);

/// The answer the arena waits for, as fault messages name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awaited {
    /// `ready`.
    Hello,
    /// The `move` answering the turn with this request id.
    Turn(u64),
}

impl std::fmt::Display for Awaited {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Awaited::Hello => f.write_str("the answer to hello"),
            Awaited::Turn(id) => write!(f, "the answer to turn {id}"),
        }
    }
}

/// How to start a bot process.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// The working directory.
    pub dir: PathBuf,
    /// The whole environment of the process (nothing else is inherited).
    pub env: Vec<(String, String)>,
    /// Resource limits.
    pub resources: ResourceLimits,
    /// The CPU to run on, if pinned.
    pub cpu: Option<usize>,
    /// Where to copy the process's stderr, if anywhere.
    pub log: Option<LogPlace>,
    /// How many bytes of stderr to keep in the log.
    pub stderr_cap: u64,
    /// The longest line accepted from the bot, in bytes.
    pub line_cap: usize,
    /// Where live process groups are recorded.
    pub registry: Registry,
}

/// A live bot process.
pub struct BotProcess {
    child: Child,
    group: i32,
    stdin: Option<ChildStdin>,
    stdout: LineReader<ChildStdout>,
    stderr: Option<StderrDrain>,
    outbox: Vec<u8>,
    /// What the last exchange wrote (its buffer is reused as the next outbox).
    sent: Vec<u8>,
    next_id: u64,
    registry: Registry,
    /// Whether the process group has been killed and the child reaped.
    finished: bool,
}

impl BotProcess {
    /// Starts the process in a process group of its own.
    pub fn spawn(launch: &Launch) -> Result<BotProcess, Fault> {
        let log = match &launch.log {
            Some(place) => place.open().map_err(|e| Fault::new(FaultKind::Spawn, e.to_string()))?,
            None => None,
        };
        let mut command = Command::new(&launch.argv[0]);
        command
            .args(&launch.argv[1..])
            .current_dir(&launch.dir)
            .env_clear()
            .envs(launch.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let resources = launch.resources.clone();
        let cpu = launch.cpu.map(super::cpus::only);
        let descriptors = super::descriptors::open_file_limit();
        // SAFETY: the closure runs in the child between fork and exec; it
        // only makes prctl, sched_setaffinity, setrlimit, close_range and
        // fcntl system calls, which are async-signal-safe, and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                // If the arena dies without cleaning up (SIGKILL), the kernel kills the bot.
                nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL).map_err(std::io::Error::from)?;
                if let Some(cpu) = &cpu {
                    super::cpus::pin_this_process(cpu)?;
                }
                resources.apply()?;
                super::descriptors::close_on_exec_above_stderr(descriptors)
            });
        }
        let mut child = command
            .spawn()
            .map_err(|e| Fault::new(FaultKind::Spawn, format!("cannot start {:?}: {e}", launch.argv[0])))?;
        let group = child.id().expect("a just-spawned child has a pid") as i32;
        launch.registry.add(group);
        let stdin = child.stdin.take();
        let stdout = LineReader::new(child.stdout.take().expect("stdout is piped"), launch.line_cap);
        let stderr = StderrDrain::start(child.stderr.take().expect("stderr is piped"), log, launch.stderr_cap);
        Ok(BotProcess {
            child,
            group,
            stdin,
            stdout,
            stderr: Some(stderr),
            outbox: Vec::with_capacity(1024),
            sent: Vec::with_capacity(1024),
            next_id: 1,
            registry: launch.registry.clone(),
            finished: false,
        })
    }

    /// Appends a message to the outbox; it is written with the next exchange.
    pub fn queue<T: Serialize + ?Sized>(&mut self, message: &T) {
        protocol::line::encode_into(message, &mut self.outbox);
    }

    /// A fresh request id, never used before by this process.
    pub fn next_request_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Writes the outbox and reads one line, all before `deadline`.
    /// `what` names the awaited answer in fault messages.
    pub async fn exchange(&mut self, deadline: Instant, limit: Duration, what: Awaited) -> Result<&[u8], Fault> {
        enum Failure {
            Write,
            Read(ReadError),
            Died(std::io::Result<ExitStatus>),
            Late,
        }
        if let Awaited::Turn(_) = what {
            let early = self.stdout.unread().await;
            if !early.is_empty() {
                return Err(early_line(early, what));
            }
        }
        let outbox = std::mem::take(&mut self.outbox);
        let batch = &outbox;
        let stdin = self.stdin.as_mut();
        let stdout = &mut self.stdout;
        let child = &mut self.child;
        let mut written = false;
        let written_flag = &mut written;
        let result = tokio::time::timeout_at(deadline, async move {
            let talk = async move {
                if let Some(stdin) = stdin
                    && (stdin.write_all(batch).await.is_err() || stdin.flush().await.is_err())
                {
                    return Err(Failure::Write);
                }
                *written_flag = true;
                stdout.next_line().await.map(|_| ()).map_err(Failure::Read)
            };
            // A bot that exits while something it started still holds its
            // stdout open would otherwise look merely slow.
            tokio::select! {
                biased;
                line = talk => line,
                status = child.wait() => Err(Failure::Died(status)),
            }
        })
        .await
        .unwrap_or(Err(Failure::Late));
        self.outbox = std::mem::replace(&mut self.sent, outbox);
        self.outbox.clear();
        match result {
            Ok(()) => Ok(self.stdout.last_line()),
            Err(Failure::Died(status)) => {
                let how = status.map_or_else(|e| format!("exited ({e})"), describe);
                Err(Fault::new(FaultKind::Exited, format!("{how} while the arena awaited {what}")))
            }
            Err(Failure::Late) if !written => Err(Fault::new(
                FaultKind::Timeout,
                format!(
                    "the request for {what} could not be written within {} ms: the bot is not reading its stdin",
                    limit.as_millis()
                ),
            )),
            Err(Failure::Late) => Err(Fault::new(
                FaultKind::Timeout,
                format!("no complete line as {what} within {} ms", limit.as_millis()),
            )),
            Err(Failure::Read(ReadError::TooLong)) => Err(Fault::new(
                FaultKind::LineTooLong,
                format!("a line longer than the cap of {} bytes as {what}", self.stdout.cap()),
            )),
            Err(Failure::Read(ReadError::Eof)) => {
                Err(self.closed(FaultKind::ClosedStdout, "closed its stdout", what).await)
            }
            Err(Failure::Read(ReadError::Io(e))) => {
                Err(self.closed(FaultKind::ClosedStdout, &format!("stdout failed ({e})"), what).await)
            }
            Err(Failure::Write) => Err(self.closed(FaultKind::ClosedStdin, "stopped reading its stdin", what).await),
        }
    }

    /// Explains a closed pipe: the process exited, or it closed the pipe and lives on.
    async fn closed(&mut self, alive_kind: FaultKind, alive_action: &str, what: Awaited) -> Fault {
        match tokio::time::timeout(EXIT_PATIENCE, self.child.wait()).await {
            Ok(Ok(status)) => {
                Fault::new(FaultKind::Exited, format!("{} while the arena awaited {what}", describe(status)))
            }
            _ => Fault::new(alive_kind, format!("{alive_action} but kept running, while the arena awaited {what}")),
        }
    }

    /// Up to `max` more lines the bot has written (or writes within
    /// `patience`), lossily decoded and cut to 300 characters: what follows
    /// a line that was not the expected answer, for the fault's message.
    pub async fn more_lines(&mut self, max: usize, patience: Duration) -> Vec<String> {
        let deadline = Instant::now() + patience;
        let mut lines = Vec::new();
        while lines.len() < max {
            match tokio::time::timeout_at(deadline, self.stdout.next_line()).await {
                Ok(Ok(line)) => lines.push(String::from_utf8_lossy(line).chars().take(300).collect()),
                _ => break,
            }
        }
        lines
    }

    /// The messages the last exchange wrote (or tried to write), one per line.
    pub fn last_sent(&self) -> &[u8] {
        &self.sent
    }

    /// The line the last successful exchange read.
    pub fn last_received(&self) -> &[u8] {
        self.stdout.last_line()
    }

    /// Writes what is queued (e.g. `bye`), closes stdin if `close_stdin`, and
    /// waits up to `grace` for the process to exit by itself: how it exited,
    /// or `None` if it is still running. The process is not killed.
    pub async fn await_exit(&mut self, close_stdin: bool, grace: Duration) -> Option<String> {
        let deadline = Instant::now() + grace;
        let outbox = std::mem::take(&mut self.outbox);
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = tokio::time::timeout_at(deadline, async {
                let _ = stdin.write_all(&outbox).await;
                let _ = stdin.flush().await;
            })
            .await;
        }
        self.sent = outbox;
        if close_stdin {
            self.stdin = None;
        }
        match tokio::time::timeout_at(deadline, self.child.wait()).await {
            Ok(status) => Some(status.map_or_else(|e| format!("exited ({e})"), describe)),
            Err(_) => None,
        }
    }

    /// Whether any process is left in the bot's process group (the bot itself
    /// or anything it started that stayed in the group).
    pub fn group_alive(&self) -> bool {
        nix::sys::signal::killpg(nix::unistd::Pid::from_raw(self.group), None).is_ok()
    }

    /// Kills the process group at once and returns the last lines of stderr.
    pub async fn kill(mut self) -> Vec<String> {
        self.terminate().await;
        match self.stderr.take() {
            Some(drain) => drain.finish(STDERR_PATIENCE).await,
            None => Vec::new(),
        }
    }

    /// Ends the process politely: writes what is queued (normally `bye`),
    /// closes its stdin, waits up to `grace` for it to exit, then kills the
    /// group so that nothing it started outlives it.
    pub async fn close(mut self, grace: Duration) {
        let outbox = std::mem::take(&mut self.outbox);
        if let Some(mut stdin) = self.stdin.take() {
            let _ = tokio::time::timeout(grace, async {
                let _ = stdin.write_all(&outbox).await;
                let _ = stdin.flush().await;
            })
            .await;
        }
        let _ = tokio::time::timeout(grace, self.child.wait()).await;
        self.terminate().await;
        if let Some(drain) = self.stderr.take() {
            drain.finish(STDERR_PATIENCE).await;
        }
    }

    /// SIGKILL to the group, reap the child, forget the group.
    async fn terminate(&mut self) {
        if self.finished {
            return;
        }
        kill_group(self.group);
        let _ = self.child.wait().await;
        self.registry.remove(self.group);
        self.finished = true;
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if !self.finished {
            // Dropped without kill/close (e.g. the arena is unwinding): kill
            // the group now; tokio reaps the child in the background.
            kill_group(self.group);
            self.registry.remove(self.group);
        }
    }
}

/// The fault of a bot that wrote `early` before it was asked `what`: a
/// protocol fault, unless what it wrote first is an empty line, which is
/// almost always an answer followed by an extra newline.
fn early_line(early: &[u8], what: Awaited) -> Fault {
    let first = early.split(|&b| b == b'\n').next().unwrap_or_default();
    if first.iter().all(u8::is_ascii_whitespace) {
        return Fault::new(FaultKind::NotJson, format!("{} (before {what})", crate::fault::EMPTY_LINE));
    }
    let shown: String = String::from_utf8_lossy(&first[..first.len().min(120)]).escape_debug().collect();
    Fault::new(
        FaultKind::Protocol,
        format!("wrote to stdout before the arena asked for {what} (an answer must follow its request): \"{shown}\""),
    )
}

/// "exited with status 3", "killed by signal 9 (SIGKILL)".
fn describe(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(code) = status.code() {
        format!("exited with status {code}")
    } else if let Some(signal) = status.signal() {
        let name = nix::sys::signal::Signal::try_from(signal).map(|s| s.as_str()).unwrap_or("unknown");
        format!("was killed by signal {signal} ({name})")
    } else {
        status.to_string()
    }
}
