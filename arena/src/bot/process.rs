//! One running bot process: started through a supervisor (see
//! [`super::supervisor`]) in a process group of its own, spoken to through
//! its stdin and stdout, and killed together with everything it started,
//! wherever that went (see [`super::tree`]). No wait for it is without a
//! deadline.
//!
//! Messages for the bot are queued in an outbox and written together only
//! when the arena waits for an answer, so each decision costs one write and
//! one read. A worker with one game waits for that answer in place, blocked
//! in `ppoll` on the bot's pipes rather than handing its thread back to the
//! runtime (see [`Placement::in_place`]); anything but the answer (stderr to
//! drain, the bot's exit, a full stdin, the deadline) is left to the runtime.
//!
//! A bot over the network (see [`super::remote`]) is a `BotProcess` too,
//! with a connection where a process has pipes and no process here: it
//! connects at its first exchange, within that exchange's deadline.

use super::census::Counted;
use super::copies::Lease;
use super::limits::ResourceLimits;
use super::lines::{LineReader, ReadError};
use super::logs::LogPlace;
use super::placement::Placement;
use super::registry::Registry;
use super::remote::Peer;
use super::remote::wire::{Reader, Writer};
use super::stderr::StderrDrain;
use super::supervisor::{self, Leftovers, Report, Reports};
use super::tree;
use crate::bot::fault::{Fault, FaultKind};
use nix::fcntl::OFlag;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use serde::Serialize;
use std::os::fd::{AsRawFd, BorrowedFd};
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, Command};
use tokio::time::Instant;

/// An envelope message that carries no payload of the game's (`game_start`,
/// `game_end`, `bye`).
pub type Envelope = protocol::messages::ToBot<(), (), ()>;

/// How long the arena waits, after a bot's stdout closes, to see whether it
/// exited: when a bot exits leaving a child that holds its stdout, the pipe
/// closes only once the supervisor has killed that child, and the supervisor
/// exits a moment later, which on a busy machine can take a second or more.
const CLOSED_PATIENCE: Duration = Duration::from_secs(3);
/// How long a supervisor that closed its report pipe takes to die at most.
const EXIT_PATIENCE: Duration = Duration::from_millis(200);
/// How long the arena waits for the stderr pipe to close after the bot is killed.
const STDERR_PATIENCE: Duration = Duration::from_millis(200);
/// How long the arena waits for a supervisor to say that its bot started.
const SPAWN_PATIENCE: Duration = Duration::from_secs(10);
/// How long killing a supervisor and everything below it may take.
const KILL_PATIENCE: Duration = Duration::from_secs(5);
/// How long a supervisor may take to exit once its bot is dead (and again once it is killed).
const SUPERVISOR_PATIENCE: Duration = Duration::from_secs(2);

/// How many exchanges in a row may be answered in place before the runtime
/// gets the thread (see [`BotProcess::make_way`]).
const YIELD_EVERY: u32 = 32;

/// How an exchange in place ended.
enum InPlace {
    /// The answer was read, or stdout ended or failed.
    Answered(Result<(), ReadError>),
    /// Left to the runtime, with the first `written` bytes of the request written.
    Unanswered { written: usize },
}

/// The answer the arena waits for, as fault messages name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Awaited {
    /// `ready`.
    Hello,
    /// The `move` answering the turn with this request id.
    Turn(u64),
    /// A game engine's answer to the request of this type (`"hello"`, `"play"`, …).
    Engine(&'static str),
    /// Any answer of the games a session plays at once (see [`crate::bot::session`]).
    Games,
}

impl std::fmt::Display for Awaited {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Awaited::Hello => f.write_str("the answer to hello"),
            Awaited::Turn(id) => write!(f, "the answer to turn {id}"),
            Awaited::Engine(request) => write!(f, "the engine's answer to {request}"),
            Awaited::Games => f.write_str("the answers of its games"),
        }
    }
}

/// How to start a bot process.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The program and its arguments.
    pub argv: Vec<String>,
    /// How many words after the program are a sandbox's options, handed to
    /// it through a descriptor (see [`super::sandbox::Wrapped`]).
    pub options: usize,
    /// The working directory.
    pub dir: PathBuf,
    /// The whole environment of the process (nothing else is inherited).
    pub env: Vec<(String, String)>,
    /// Resource limits.
    pub resources: ResourceLimits,
    /// The control groups the process joins (see [`super::cgroup`]).
    pub groups: Vec<PathBuf>,
    /// Where it runs, and how its answers are awaited.
    pub placement: Placement,
    /// Where to copy the process's stderr, if anywhere.
    pub log: Option<LogPlace>,
    /// How many bytes of stderr to keep in the log.
    pub stderr_cap: u64,
    /// The longest line accepted from the bot, in bytes.
    pub line_cap: usize,
    /// Where live bot processes are recorded.
    pub registry: Registry,
    /// The copy of its view a sandboxed process runs in (see
    /// [`super::copies`]), or why none could be had; held until the process
    /// and everything it started are dead.
    pub view: Option<Result<Arc<Lease>, String>>,
    /// For a bot over the network, where its connection comes from (no
    /// process is started then).
    pub remote: Option<Peer>,
}

/// What the arena holds of a bot process run on this machine.
struct Local {
    /// The supervisor, which exits as the bot does.
    child: Child,
    /// The supervisor's pid.
    root: i32,
    /// The bot's own pid, also its process group (unless the bot left it).
    bot: i32,
    reports: Reports,
    stderr: Option<StderrDrain>,
    /// The copy of its view, returned once it is dead (see [`Launch::view`]).
    view: Option<Arc<Lease>>,
}

/// A live bot process.
pub struct BotProcess {
    /// The process and its supervisor; `None` for a bot over the network.
    local: Option<Local>,
    /// A bot over the network not connected yet: where it connects from.
    peer: Option<Peer>,
    /// What the bot left when it exited, once it did.
    leftovers: Option<Leftovers>,
    /// Counts the process in a pool's census while it lives.
    counted: Option<Counted>,
    stdin: Option<Writer>,
    stdout: LineReader<Reader>,
    outbox: Vec<u8>,
    /// What the last exchange wrote (its buffer is reused as the next outbox).
    sent: Vec<u8>,
    next_id: u64,
    registry: Registry,
    /// Whether everything has been killed and the supervisor reaped.
    finished: bool,
    /// Where it runs: whether an exchange waits for its answer in place
    /// (see [`Placement::waits_in_place`]).
    placement: Placement,
    /// Exchanges answered in place since the runtime last had the thread.
    unyielded: u32,
}

impl BotProcess {
    /// Starts the process, under its supervisor, in a process group of its own
    /// (the supervisor has another); waits for the supervisor to say the bot
    /// runs, blocking the thread (see [`BotProcess::start`]).
    pub fn spawn(launch: &Launch) -> Result<BotProcess, Fault> {
        match BotProcess::fork(launch)? {
            None => Ok(BotProcess::unconnected(launch, launch.remote.clone())),
            Some(mut forked) => {
                let report = forked.reports.wait(SPAWN_PATIENCE);
                forked.finish(launch, report)
            }
        }
    }

    /// As [`BotProcess::spawn`], but the runtime's thread plays on while the
    /// supervisor starts the bot (an exec of the arena, then of the bot: tens
    /// of milliseconds, more on a busy machine, that would otherwise stall
    /// every game of the worker).
    pub async fn start(launch: &Launch) -> Result<BotProcess, Fault> {
        match BotProcess::fork(launch)? {
            None => Ok(BotProcess::unconnected(launch, launch.remote.clone())),
            Some(mut forked) => {
                let report = forked.reports.wait_async(SPAWN_PATIENCE).await;
                forked.finish(launch, report)
            }
        }
    }

    /// Starts the supervisor; `None` for a bot over the network, which
    /// starts itself.
    fn fork(launch: &Launch) -> Result<Option<Supervised>, Fault> {
        if launch.remote.is_some() {
            return Ok(None);
        }
        let program = &launch.argv[0];
        let view = match &launch.view {
            Some(Ok(lease)) => {
                lease.write().map_err(|why| Fault::new(FaultKind::Spawn, why))?;
                Some(lease.clone())
            }
            Some(Err(why)) => return Err(Fault::new(FaultKind::Spawn, why.clone())),
            None => None,
        };
        let log = match &launch.log {
            Some(place) => place.open().map_err(|e| Fault::new(FaultKind::Spawn, e.to_string()))?,
            None => None,
        };
        let (report_read, report_write) =
            nix::unistd::pipe2(OFlag::O_CLOEXEC | OFlag::O_NONBLOCK).map_err(|e| cannot_start(program, e.into()))?;
        let report = report_write.as_raw_fd();
        let mut command = Command::new(supervisor::PROGRAM);
        command
            .arg0("arena")
            .args(supervisor::arguments(report, &launch.resources, launch.options, &launch.groups, &launch.argv))
            .current_dir(&launch.dir)
            .env_clear()
            .envs(launch.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let cpu = launch.placement.cpus.as_deref().map(super::cpus::set);
        let arena = nix::unistd::getpid();
        let descriptors = super::descriptors::open_file_limit();
        let held = supervisor::awaited_signals();
        // SAFETY: the closure runs in the child between fork and exec; it
        // only makes sigprocmask, prctl, getppid, signal, sched_setaffinity,
        // close_range and fcntl system calls, which are async-signal-safe,
        // and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                // The supervisor starts with the signals it waits for held
                // (a mask survives exec): none kills it before it is ready.
                nix::sys::signal::sigprocmask(nix::sys::signal::SigmaskHow::SIG_BLOCK, Some(&held), None)?;
                // If the arena dies without cleaning up (SIGKILL), the
                // supervisor kills everything the bot started.
                nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGTERM).map_err(std::io::Error::from)?;
                if nix::unistd::getppid() != arena {
                    return Err(nix::errno::Errno::ESRCH.into()); // the arena is gone
                }
                // The arena ignores SIGXFSZ; the supervisor and the bot keep the default.
                crate::bot::signals::restore_file_size_signal();
                if let Some(cpu) = &cpu {
                    super::cpus::pin_this_process(cpu)?;
                }
                // Nothing the arena holds reaches the supervisor (nor so the
                // bot) but its standard descriptors and the report pipe,
                // which it keeps across exec.
                super::descriptors::close_on_exec_above_stderr(descriptors)?;
                let report = BorrowedFd::borrow_raw(report);
                nix::fcntl::fcntl(report, nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::empty()))?;
                Ok(())
            });
        }
        let child = launch.registry.start(|| command.spawn()).map_err(|e| cannot_start(program, e))?;
        drop(report_write);
        let root = child.id().expect("a just-spawned child has a pid") as i32;
        Ok(Some(Supervised { child, root, reports: Reports::new(report_read), log, view }))
    }
}

/// A supervisor started, its report on the bot not read yet.
struct Supervised {
    child: Child,
    root: i32,
    reports: Reports,
    log: Option<crate::bot::logs::Log>,
    view: Option<Arc<Lease>>,
}

impl Supervised {
    /// The process, once its supervisor's first report (`report`, if it
    /// came) says the bot runs; else the fault, everything started killed.
    fn finish(self, launch: &Launch, report: Option<Report>) -> Result<BotProcess, Fault> {
        let Supervised { mut child, root, reports, log, view } = self;
        let program = &launch.argv[0];
        let bot = match report {
            Some(Report::Started(pid)) => pid,
            failed => {
                let killed = match failed {
                    None => killed_from_outside(&mut child),
                    _ => None,
                };
                // Dead before it is forgotten (tokio reaps it in the background):
                // a process below the arena and not recorded is not a bot's supervisor.
                tree::kill_tree(root, KILL_PATIENCE);
                launch.registry.remove(root);
                return Err(match (failed, killed) {
                    (Some(Report::Failed(e)), _) => cannot_start(program, e),
                    // As a scheduler stopping the arena and its bots at once does: a death like any other.
                    (_, Some(how)) => Fault::new(FaultKind::Exited, format!("{how} as it was being started")),
                    _ => cannot_start(program, std::io::Error::other("its supervisor did not start it")),
                });
            }
        };
        let stdin = child.stdin.take().map(Writer::Pipe);
        let stdout = Reader::Pipe(child.stdout.take().expect("stdout is piped"));
        let stderr = StderrDrain::start(child.stderr.take().expect("stderr is piped"), log, launch.stderr_cap);
        let mut process = BotProcess::unconnected(launch, None);
        process.local = Some(Local { child, root, bot, reports, stderr: Some(stderr), view });
        process.stdin = stdin;
        process.stdout.connect(stdout);
        Ok(process)
    }
}

impl BotProcess {
    /// A bot over the network, before it connects to `peer`; with no peer,
    /// the shape a process started here is given before its pipes.
    fn unconnected(launch: &Launch, peer: Option<Peer>) -> BotProcess {
        BotProcess {
            local: None,
            peer,
            leftovers: None,
            counted: None,
            stdin: None,
            stdout: LineReader::new(Reader::Unconnected, launch.line_cap),
            outbox: Vec::with_capacity(1024),
            sent: Vec::with_capacity(1024),
            next_id: 1,
            registry: launch.registry.clone(),
            finished: false,
            placement: launch.placement.clone(),
            unyielded: 0,
        }
    }

    /// Counts the process in a census for as long as it lives.
    pub fn count_in(&mut self, counted: Counted) {
        self.counted = Some(counted);
    }

    /// Gives the runtime the thread if exchanges answered in place have
    /// kept it long enough, so that its other tasks (stderr drains,
    /// processes being ended) run: called before a request's time starts,
    /// so that their time is not the bot's.
    pub async fn make_way(&mut self) {
        if self.unyielded >= YIELD_EVERY {
            self.unyielded = 0;
            tokio::task::yield_now().await;
        }
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
        if let Some(peer) = self.peer.take() {
            let (reader, writer) = peer.connect(deadline).await?;
            self.stdout.connect(reader);
            self.stdin = Some(writer);
        }
        if let Awaited::Turn(_) = what {
            let early = self.stdout.unread();
            if !early.is_empty() {
                return Err(early_line(early, what));
            }
        }
        let outbox = std::mem::take(&mut self.outbox);
        let mut batch = &outbox[..];
        let mut answered = None;
        if self.placement.waits_in_place() {
            match self.answer_in_place(batch, deadline.into_std()) {
                InPlace::Answered(result) => {
                    self.unyielded += 1;
                    answered = Some(result.map_err(Failure::Read));
                }
                InPlace::Unanswered { written } => batch = &batch[written..],
            }
        }
        let mut written = answered.is_some();
        let result = match answered {
            Some(result) => result,
            None => {
                let stdin = self.stdin.as_mut();
                let stdout = &mut self.stdout;
                let child = self.local.as_mut().map(|local| &mut local.child);
                let written_flag = &mut written;
                tokio::time::timeout_at(deadline, async move {
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
                        status = exit(child) => Err(Failure::Died(status)),
                    }
                })
                .await
                .unwrap_or(Err(Failure::Late))
            }
        };
        self.outbox = std::mem::replace(&mut self.sent, outbox);
        self.outbox.clear();
        match result {
            Ok(()) => Ok(self.stdout.last_line()),
            Err(Failure::Died(status)) => {
                self.note_exit();
                let how = status.map_or_else(|e| format!("exited ({e})"), describe);
                Err(Fault::new(FaultKind::Exited, format!("{how} while the arena awaited {what}")))
            }
            Err(Failure::Late) if !written => Err(Fault::new(
                FaultKind::Timeout,
                format!(
                    "the request for {what} could not be written within {} ms: the process is not reading its stdin",
                    limit.as_millis()
                ),
            )),
            Err(Failure::Late) => Err(Fault::new(
                FaultKind::Timeout,
                format!("no complete line as {what} within {} ms", limit.as_millis()),
            )),
            Err(Failure::Read(e)) => Err(self.read_failed(e, what).await),
            Err(Failure::Write) => Err(self.closed(FaultKind::ClosedStdin, "stopped reading its stdin", what).await),
        }
    }

    /// Writes `bytes` (whole lines) by `deadline`, the outbox aside: for a
    /// session, whose answers are read apart from its requests (see
    /// [`BotProcess::next_line`]).
    pub async fn send(&mut self, bytes: &[u8], deadline: Instant) -> Result<(), Fault> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => {
                tokio::time::timeout_at(deadline, async { stdin.write_all(bytes).await.and(stdin.flush().await) }).await
            }
            None => Ok(Err(std::io::ErrorKind::BrokenPipe.into())),
        };
        match written {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(self.closed(FaultKind::ClosedStdin, "stopped reading its stdin", Awaited::Games).await),
            Err(_) => Err(Fault::new(
                FaultKind::Timeout,
                "a request to it could not be written in time: the process is not reading its stdin",
            )),
        }
    }

    /// The next line the process writes, whenever it comes: its exit, or
    /// the end of its stdout, is a fault. Cancel-safe: a call dropped
    /// before its end loses nothing.
    pub async fn next_line(&mut self) -> Result<&[u8], Fault> {
        let what = Awaited::Games;
        let read = match self.local.as_mut() {
            Some(local) => tokio::select! {
                biased;
                line = self.stdout.next_line() => line.map(|_| ()),
                status = local.child.wait() => {
                    self.note_exit();
                    let how = status.map_or_else(|e| format!("exited ({e})"), describe);
                    return Err(Fault::new(FaultKind::Exited, format!("{how} while the arena awaited {what}")));
                }
            },
            // A bot over the network: the end of its connection is its exit.
            None => self.stdout.next_line().await.map(|_| ()),
        };
        match read {
            Ok(()) => Ok(self.stdout.last_line()),
            Err(e) => Err(self.read_failed(e, what).await),
        }
    }

    /// The fault of a read of stdout that failed, awaiting `what`.
    async fn read_failed(&mut self, e: ReadError, what: Awaited) -> Fault {
        match e {
            ReadError::TooLong => Fault::new(
                FaultKind::LineTooLong,
                format!("a line longer than the cap of {} bytes as {what}", self.stdout.cap()),
            ),
            ReadError::Eof => self.closed(FaultKind::ClosedStdout, "closed its stdout", what).await,
            ReadError::Io(e) => self.closed(FaultKind::ClosedStdout, &format!("stdout failed ({e})"), what).await,
        }
    }

    /// Writes `batch` and reads the answer on this thread, as long as
    /// nothing else happens first: the write is whole, and the answer (or
    /// the end of stdout, or a line over the cap) arrives before `deadline`,
    /// before anything on stderr and before the bot's exit.
    fn answer_in_place(&mut self, batch: &[u8], deadline: std::time::Instant) -> InPlace {
        use nix::poll::{PollFd, PollFlags, ppoll};
        let Some(stdin) = self.stdin.as_ref() else { return InPlace::Unanswered { written: 0 } };
        let mut written = 0;
        while written < batch.len() {
            match nix::unistd::write(stdin, &batch[written..]) {
                Ok(n) => written += n,
                Err(nix::errno::Errno::EINTR) => {}
                // A full pipe or a closed one: the runtime's write waits or tells.
                Err(_) => return InPlace::Unanswered { written },
            }
        }
        loop {
            if let Some(result) = self.stdout.buffered_line() {
                return InPlace::Answered(result);
            }
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return InPlace::Unanswered { written };
            }
            let Some(out) = self.stdout.fd() else { return InPlace::Unanswered { written } };
            // Without a pipe to drain (its end was read), the third is the report pipe again;
            // a bot over the network has only its connection.
            let (reports, stderr) = match &self.local {
                Some(local) => {
                    let stderr = local.stderr.as_ref().and_then(StderrDrain::pipe).unwrap_or(local.reports.pipe());
                    (local.reports.pipe(), stderr)
                }
                None => (out, out),
            };
            let mut fds = [
                PollFd::new(out, PollFlags::POLLIN),
                PollFd::new(reports, PollFlags::POLLIN),
                PollFd::new(stderr, PollFlags::POLLIN),
            ];
            let quiet = |fd: &PollFd| fd.revents().is_none_or(|events| events.is_empty());
            match ppoll(&mut fds, Some(left.into()), None) {
                Ok(1..) if self.local.is_none() || fds[1..].iter().all(quiet) => {}
                Err(nix::errno::Errno::EINTR) => continue,
                // The deadline, stderr to drain, the bot's exit: the runtime's.
                _ => return InPlace::Unanswered { written },
            }
            if let Err(e) = self.stdout.read_now() {
                return InPlace::Answered(Err(e));
            }
        }
    }

    /// Explains a closed pipe: the process exited, or it closed the pipe and lives on.
    async fn closed(&mut self, alive_kind: FaultKind, alive_action: &str, what: Awaited) -> Fault {
        let Some(local) = self.local.as_mut() else {
            return Fault::new(
                FaultKind::Exited,
                format!(
                    "the connection closed while the arena awaited {what} (the bot disconnected or died; a bot over \
                     the network is not reconnected within a game)"
                ),
            );
        };
        match tokio::time::timeout(CLOSED_PATIENCE, local.child.wait()).await {
            Ok(Ok(status)) => {
                self.note_exit();
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

    /// The longest line the process may write, in bytes.
    pub fn line_cap(&self) -> usize {
        self.stdout.cap()
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
    /// waits up to `grace` for the process to exit by itself (a bot over the
    /// network, to close its connection): how it exited, or `None` if it is
    /// still running. The process is not killed.
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
        if self.local.is_none() {
            // A bot over the network ends by closing its connection.
            let stdout = &mut self.stdout;
            let closed = tokio::time::timeout_at(deadline, async { while stdout.next_line().await.is_ok() {} }).await;
            return closed.is_ok().then(|| "closed the connection".to_string());
        }
        match tokio::time::timeout_at(deadline, exit(self.local.as_mut().map(|local| &mut local.child))).await {
            Ok(status) => {
                self.note_exit();
                Some(status.map_or_else(|e| format!("exited ({e})"), describe))
            }
            Err(_) => None,
        }
    }

    /// What the bot left running when it exited by itself (all killed since),
    /// once it has exited.
    pub fn leftovers(&self) -> Option<Leftovers> {
        self.leftovers
    }

    /// Reads what the supervisor reported when the bot exited, and counts
    /// what had left the bot's process group.
    fn note_exit(&mut self) {
        let Some(local) = self.local.as_mut() else { return };
        while let Some(report) = local.reports.ready() {
            if let Report::Left(left) = report {
                self.registry.note_escaped(left.escaped);
                self.leftovers = Some(left);
            }
        }
    }

    /// Kills the process and everything it started at once, and returns the last lines of stderr.
    pub async fn kill(mut self) -> Vec<String> {
        self.terminate().await;
        match self.local.as_mut().and_then(|local| local.stderr.take()) {
            Some(drain) => drain.finish(STDERR_PATIENCE).await,
            None => Vec::new(),
        }
    }

    /// Ends the process politely: writes what is queued (normally `bye`),
    /// closes its stdin, waits up to `grace` for it to exit, then kills
    /// everything so that nothing it started outlives it.
    pub async fn close(mut self, grace: Duration) {
        let outbox = std::mem::take(&mut self.outbox);
        if let Some(mut stdin) = self.stdin.take() {
            let _ = tokio::time::timeout(grace, async {
                let _ = stdin.write_all(&outbox).await;
                let _ = stdin.flush().await;
            })
            .await;
        }
        if let Some(local) = self.local.as_mut()
            && tokio::time::timeout(grace, local.child.wait()).await.is_ok()
        {
            self.note_exit();
        }
        self.terminate().await;
        if let Some(drain) = self.local.as_mut().and_then(|local| local.stderr.take()) {
            drain.finish(STDERR_PATIENCE).await;
        }
    }

    /// Has the supervisor kill the bot, by group and by pid (wherever the
    /// bot moved), and everything below it, and exit; a supervisor that does
    /// not is killed with everything below it. Each wait has a deadline.
    async fn terminate(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        let Some(local) = self.local.as_mut() else { return };
        // Until the arena reaps the supervisor, its pid is the supervisor's.
        if !matches!(local.child.try_wait(), Ok(Some(_))) {
            let _ = kill(Pid::from_raw(local.root), Signal::SIGTERM);
            if tokio::time::timeout(SUPERVISOR_PATIENCE, local.child.wait()).await.is_err() {
                // Stuck, or stopped by the bot.
                let (root, bot) = (local.root, local.bot);
                let killed =
                    tokio::task::spawn_blocking(move || tree::kill_tree(root, KILL_PATIENCE)).await.unwrap_or_default();
                let escaped = killed.processes.iter().filter(|p| p.group != bot && p.pid != bot && p.pid != root);
                self.registry.note_escaped(escaped.count());
                let _ = tokio::time::timeout(SUPERVISOR_PATIENCE, local.child.wait()).await;
            }
        }
        self.note_exit();
        if let Some(local) = self.local.as_mut() {
            self.registry.remove(local.root);
            // Everything below the supervisor is dead: the copy may serve another process.
            local.view = None;
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if let Some(local) = self.local.as_mut()
            && !self.finished
        {
            // Dropped without kill/close (e.g. the arena is unwinding): kill
            // everything now; tokio reaps the supervisor in the background.
            if !matches!(local.child.try_wait(), Ok(Some(_))) {
                tree::kill_tree(local.root, KILL_PATIENCE);
            }
            self.registry.remove(local.root);
            local.view = None;
        }
    }
}

/// How the supervisor `child` exits; never, for a bot over the network (its
/// end is the end of its connection).
async fn exit(child: Option<&mut Child>) -> std::io::Result<ExitStatus> {
    match child {
        Some(child) => child.wait().await,
        None => std::future::pending().await,
    }
}

/// How a supervisor that closed its report pipe without starting the bot
/// died, if a signal from outside killed it ("killed by signal 15 (SIGTERM)"):
/// it then dies within a moment of closing the pipe.
fn killed_from_outside(supervisor: &mut Child) -> Option<String> {
    use std::os::unix::process::ExitStatusExt;
    let deadline = std::time::Instant::now() + EXIT_PATIENCE;
    loop {
        match supervisor.try_wait() {
            Ok(Some(status)) => return status.signal().map(|_| describe(status)),
            Ok(None) if std::time::Instant::now() < deadline => std::thread::sleep(Duration::from_millis(1)),
            _ => return None,
        }
    }
}

/// The fault of a bot that could not be started.
fn cannot_start(program: &str, e: std::io::Error) -> Fault {
    Fault::new(FaultKind::Spawn, format!("cannot start {program:?}: {e}"))
}

/// The fault of a bot that wrote `early` before it was asked `what`: a
/// protocol fault, unless what it wrote first is an empty line, which is
/// almost always an answer followed by an extra newline.
fn early_line(early: &[u8], what: Awaited) -> Fault {
    let first = early.split(|&b| b == b'\n').next().unwrap_or_default();
    if first.iter().all(u8::is_ascii_whitespace) {
        return Fault::new(FaultKind::NotJson, format!("{} (before {what})", crate::bot::fault::EMPTY_LINE));
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
