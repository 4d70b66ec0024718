//! The supervisor between the arena and each bot process, so that
//! everything a bot starts dies with the arena, even when the arena is
//! killed outright (SIGKILL), and so that nothing a bot starts piles up as
//! zombies.
//!
//! The kernel's parent-death signal (`PR_SET_PDEATHSIG`) reaches only the
//! arena's own children and is cleared in every process they fork, and
//! process groups and sessions are the bot's to leave. So the arena starts
//! each bot through a supervisor: the arena's own executable run again in a
//! hidden mode ([`MODE`]), which
//!
//! - is the *subreaper* of everything below it (an orphan below it is adopted
//!   by it, not by init, so it stays below it), and reaps what exits there at
//!   once;
//! - on SIGTERM, which the arena sends to end the bot and the kernel sends
//!   when the arena dies (its parent-death signal), kills the bot by its
//!   process group and by its pid (it alone can do so safely: until it reaps
//!   the bot, that pid cannot be another process's), and every process below
//!   it (see [`super::tree`]);
//! - when the bot exits or is killed, kills what the bot left, reports how
//!   many of those were in the bot's process group and how many had left it,
//!   and exits the way the bot did (the same status, or the same signal), so
//!   the arena sees the bot's own exit.
//!
//! It starts the bot with its own standard input, output and error, which
//! are the arena's pipes, then lets go of them: the bot and the arena talk
//! directly, and each decision costs what it cost without a supervisor. It
//! tells the arena, through a pipe of its own (the *report* pipe), the bot's
//! pid or why it could not start it, and at the end what the bot left.
//! A supervisor costs about a megabyte of memory and a millisecond at start.
//!
//! Sandboxed bots run the same way: the supervisor starts `bwrap`, handing
//! it its options through a descriptor of their own (`--args`, a memory
//! file), so that `bwrap`'s command line, which the bot can read inside its
//! sandbox, shows only the bot's own command.

use super::limits::ResourceLimits;
use super::seccomp;
use super::tree;
use nix::libc;
use nix::sys::signal::{SigSet, Signal};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::Pid;
use std::cell::RefCell;
use std::collections::HashSet;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The first argument that makes the arena's executable a supervisor.
pub const MODE: &str = "__bot-supervisor";
/// The executable of the supervisor: the arena's own, whatever became of its file.
pub const PROGRAM: &str = "/proc/self/exe";
/// How long the supervisor spends killing what is below it.
const KILL_PATIENCE: Duration = Duration::from_secs(5);

/// The arguments, after [`PROGRAM`], that supervise `argv` with these
/// limits, reporting to descriptor `report`; the `options` words after the
/// program reach it through a descriptor, `--args FD` (see `hand_over`);
/// the bot joins the control groups `groups` (see [`super::cgroup`]).
pub fn arguments(
    report: RawFd,
    limits: &ResourceLimits,
    options: usize,
    groups: &[PathBuf],
    argv: &[String],
) -> Vec<String> {
    let limits = serde_json::to_string(limits).expect("limits serialize");
    let groups = serde_json::to_string(groups).expect("paths serialize");
    [MODE.to_string(), report.to_string(), limits, options.to_string(), groups, "--".to_string()]
        .into_iter()
        .chain(argv.iter().cloned())
        .collect()
}

/// What the bot left when it exited: processes the supervisor then killed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Leftovers {
    /// Those still in the bot's process group.
    pub in_group: usize,
    /// Those that had left it (`setsid`, `setpgid`).
    pub escaped: usize,
}

impl Leftovers {
    /// What `killed` held besides the bot itself, by whether it stayed in the
    /// bot's process group (`bot`, the bot's pid).
    /// Processes in `sandboxed` (inside the bot's sandbox, which they cannot
    /// leave) are left out.
    fn of(killed: &tree::Killed, bot: i32, sandboxed: &HashSet<i32>) -> Leftovers {
        let others = killed.processes.iter().filter(|p| p.pid != bot && !sandboxed.contains(&p.pid));
        let (in_group, escaped): (Vec<&tree::Process>, Vec<_>) = others.partition(|p| p.group == bot);
        Leftovers { in_group: in_group.len(), escaped: escaped.len() }
    }
}

/// A line of the report pipe.
#[derive(Debug)]
pub enum Report {
    /// The bot runs, with this pid.
    Started(i32),
    /// The bot could not be started.
    Failed(io::Error),
    /// The bot exited, and this is what it left.
    Left(Leftovers),
}

impl Report {
    fn encode(&self) -> String {
        match self {
            Report::Started(pid) => format!("started {pid}\n"),
            Report::Failed(e) => format!("failed {} {e}\n", e.raw_os_error().unwrap_or(0)),
            Report::Left(left) => format!("left {} {}\n", left.in_group, left.escaped),
        }
    }

    fn decode(line: &str) -> Option<Report> {
        let mut words = line.splitn(3, ' ');
        match (words.next()?, words.next()?, words.next()) {
            ("started", pid, None) => Some(Report::Started(pid.parse().ok()?)),
            ("failed", errno, message) => Some(Report::Failed(match errno.parse().ok()? {
                0 => io::Error::other(message.unwrap_or_default().to_string()),
                errno => io::Error::from_raw_os_error(errno),
            })),
            ("left", in_group, Some(escaped)) => {
                Some(Report::Left(Leftovers { in_group: in_group.parse().ok()?, escaped: escaped.parse().ok()? }))
            }
            _ => None,
        }
    }
}

/// The arena's end of a report pipe.
pub struct Reports {
    file: File,
    pending: Vec<u8>,
}

impl Reports {
    /// Reads reports from `pipe`, which must be non-blocking.
    pub fn new(pipe: OwnedFd) -> Reports {
        Reports { file: File::from(pipe), pending: Vec::new() }
    }

    /// The next report, waiting for it up to `patience`; `None` if none came
    /// (the supervisor exited or is stuck).
    pub fn wait(&mut self, patience: Duration) -> Option<Report> {
        use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
        let deadline = Instant::now() + patience;
        loop {
            if let Some(report) = self.ready() {
                return Some(report);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let timeout = PollTimeout::try_from(left).unwrap_or(PollTimeout::MAX);
            let mut fds = [PollFd::new(self.file.as_fd(), PollFlags::POLLIN)];
            match poll(&mut fds, timeout) {
                Ok(0) => return None,
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => return None,
                Ok(_) if self.fill() == 0 => return self.ready(),
                Ok(_) => {}
            }
        }
    }

    /// As [`Reports::wait`], the runtime's thread free meanwhile.
    pub async fn wait_async(&mut self, patience: Duration) -> Option<Report> {
        let deadline = tokio::time::Instant::now() + patience;
        // A second descriptor of the pipe, which the runtime watches while this waits.
        let watch = tokio::net::unix::pipe::Receiver::from_file(self.file.try_clone().ok()?).ok()?;
        loop {
            if let Some(report) = self.ready() {
                return Some(report);
            }
            let Ok(Ok(())) = tokio::time::timeout_at(deadline, watch.readable()).await else { return None };
            let mut chunk = [0u8; 256];
            match watch.try_read(&mut chunk) {
                // The supervisor closed the pipe: what it wrote is all there is.
                Ok(0) => return self.ready(),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                // Read already (by `ready`): waited for again.
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return None,
            }
        }
    }

    /// The pipe the reports come through: readable once the bot has exited
    /// (or the supervisor has).
    pub fn pipe(&self) -> BorrowedFd<'_> {
        self.file.as_fd()
    }

    /// The next report already written, if any (never waits).
    pub fn ready(&mut self) -> Option<Report> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                if let Some(report) = Report::decode(String::from_utf8_lossy(&line[..end]).as_ref()) {
                    return Some(report);
                }
            } else if self.fill() == 0 {
                return None;
            }
        }
    }

    /// Reads what is in the pipe; how many bytes (0 at the end or when empty).
    fn fill(&mut self) -> usize {
        let mut chunk = [0u8; 256];
        match self.file.read(&mut chunk) {
            Ok(n) => {
                self.pending.extend_from_slice(&chunk[..n]);
                n
            }
            Err(_) => 0,
        }
    }
}

/// The signals a supervisor takes with sigwait, so that none is missed and
/// none kills it: SIGCHLD and SIGTERM. SIGHUP is held off too: the kernel
/// sends it to a process group orphaned (by the arena's death) while one of
/// its processes is stopped, as killing may leave them. The bot starts with
/// no signal blocked.
pub fn awaited_signals() -> SigSet {
    let mut signals = SigSet::empty();
    signals.add(Signal::SIGCHLD);
    signals.add(Signal::SIGTERM);
    signals.add(Signal::SIGHUP);
    signals
}

/// Runs as a bot's supervisor, and exits, if this process was started as
/// one (its first argument is [`MODE`]); otherwise returns at once. The
/// arena's `main` calls it first.
pub fn serve_if_asked() {
    let mut args = std::env::args_os().skip(1);
    if args.next().is_some_and(|first| first == MODE) {
        let args: Vec<OsString> = args.collect();
        let status = match parse(&args) {
            Some(Parsed { report, limits, options, groups, argv }) => serve(report, limits, options, &groups, argv),
            None => {
                eprintln!("arena {MODE}: for the arena's own use (REPORT-FD LIMITS OPTIONS GROUPS -- COMMAND...)");
                2
            }
        };
        std::process::exit(status);
    }
}

/// A supervisor's arguments, read back.
#[derive(Debug)]
struct Parsed<'a> {
    report: RawFd,
    limits: ResourceLimits,
    options: usize,
    groups: Vec<PathBuf>,
    argv: &'a [OsString],
}

fn parse(args: &[OsString]) -> Option<Parsed<'_>> {
    let [report, limits, options, groups, dashes, argv @ ..] = args else { return None };
    let report: RawFd = report.to_str()?.parse().ok()?;
    let limits = serde_json::from_str(limits.to_str()?).ok()?;
    let options: usize = options.to_str()?.parse().ok()?;
    let groups = serde_json::from_str(groups.to_str()?).ok()?;
    (dashes == "--" && argv.len() > options && report > 2).then_some(Parsed { report, limits, options, groups, argv })
}

/// The command that runs `argv` with its first `options` words after the
/// program written to a memory file instead, each ended by a NUL, and
/// given as `--args FD` (bubblewrap's way), each word
/// [`seccomp::PLACEHOLDER`] among them replaced by the number of another
/// holding the next of the seccomp filters: the command and the
/// descriptors, which the child must inherit.
fn hand_over(argv: &[OsString], options: usize) -> io::Result<(Vec<OsString>, Vec<OwnedFd>)> {
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    if options == 0 {
        return Ok((argv.to_vec(), Vec::new()));
    }
    let mut handed = Vec::new();
    let mut text = Vec::new();
    let mut filters = seccomp::programs().into_iter();
    for word in &argv[1..=options] {
        match (word == seccomp::PLACEHOLDER).then(|| filters.next()).flatten() {
            Some(filter) => {
                let fd = memory_file(&filter)?;
                text.extend_from_slice(fd.as_raw_fd().to_string().as_bytes());
                handed.push(fd);
            }
            None => text.extend_from_slice(word.as_bytes()),
        }
        text.push(0);
    }
    let fd = memory_file(&text)?;
    let command = [argv[0].clone(), "--args".into(), fd.as_raw_fd().to_string().into()]
        .into_iter()
        .chain(argv[options + 1..].iter().cloned())
        .collect();
    handed.push(fd);
    Ok((command, handed))
}

/// A memory file holding `bytes`, read from its start (close-on-exec).
fn memory_file(bytes: &[u8]) -> io::Result<OwnedFd> {
    use std::io::Seek;
    // SAFETY: memfd_create takes a NUL-terminated name and flags.
    let fd = unsafe { libc::memfd_create(c"arena-sandbox".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: just created, and owned by nothing else.
    let mut file = File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    file.write_all(bytes)?;
    file.seek(io::SeekFrom::Start(0))?;
    Ok(OwnedFd::from(file))
}

/// Starts the bot and looks after it until it exits, or until the arena dies.
fn serve(report: RawFd, limits: ResourceLimits, options: usize, groups: &[PathBuf], argv: &[OsString]) -> i32 {
    // SAFETY: the arena passed this descriptor, open, for this process alone.
    let report = unsafe { OwnedFd::from_raw_fd(report) };
    let _ = nix::fcntl::fcntl(report.as_fd(), nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC));
    let mut report = File::from(report);
    // The arena started it with these held already (see [`awaited_signals`]).
    let awaited = awaited_signals();
    if awaited.thread_block().is_err() {
        return 1;
    }
    let _ = nix::sys::prctl::set_child_subreaper(true);
    let me = nix::unistd::getpid();
    let descriptors = super::descriptors::open_file_limit();
    let (argv, handed) = match hand_over(argv, options) {
        Ok(handed) => handed,
        Err(e) => {
            let _ = report.write_all(Report::Failed(e).encode().as_bytes());
            return 127;
        }
    };
    let handed_fds: Vec<RawFd> = handed.iter().map(std::os::fd::AsRawFd::as_raw_fd).collect();
    let procs = super::cgroup::procs_files(groups);
    let mut command = std::process::Command::new(&argv[0]);
    // The bot gets a process group of its own: the supervisor can then kill
    // it, and all that stayed in its group, at once.
    command.args(&argv[1..]).process_group(0);
    // SAFETY: the closure runs in the child between fork and exec; it makes
    // only prctl, getppid, setrlimit, close_range and fcntl system calls, and
    // allocates nothing.
    unsafe {
        command.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(io::Error::from)?;
            if nix::unistd::getppid() != me {
                return Err(nix::errno::Errno::ESRCH.into()); // the supervisor is gone
            }
            limits.apply()?;
            for procs in &procs {
                super::cgroup::join(procs)?;
            }
            // The bot starts with stdin, stdout and stderr only (and the
            // sandbox with its options, which it reads and closes).
            super::descriptors::close_on_exec_above_stderr(descriptors)?;
            for &fd in &handed_fds {
                let fd = std::os::fd::BorrowedFd::borrow_raw(fd);
                nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::empty()))?;
            }
            Ok(())
        });
    }
    let spawned = command.spawn();
    drop(handed);
    let bot = match spawned {
        Ok(child) => child.id() as i32,
        Err(e) => {
            let _ = report.write_all(Report::Failed(e).encode().as_bytes());
            return 127;
        }
    };
    let _ = report.write_all(Report::Started(bot).encode().as_bytes());
    let_go_of_stdio();
    let mut status = None;
    loop {
        let signal = awaited.wait().unwrap_or(Signal::SIGCHLD);
        let children = reap(bot, &mut status);
        // SIGTERM: the arena died, or it wants the bot gone. Nothing below may outlive either.
        let ended = signal == Signal::SIGTERM;
        if ended && status.is_none() {
            // Not reaped yet, so the pid is still the bot's and the group its
            // own: kill both, wherever the bot moved.
            let _ = nix::sys::signal::killpg(Pid::from_raw(bot), Signal::SIGKILL);
            let _ = nix::sys::signal::kill(Pid::from_raw(bot), Signal::SIGKILL);
        }
        if ended || status.is_some() {
            // With no child left, nothing is left below: no need to look.
            let (killed, sandboxed) = match ended || children {
                true => kill_below(me.as_raw(), bot, &mut status),
                false => Default::default(),
            };
            let left = Leftovers::of(&killed, bot, &sandboxed);
            // A dead arena reads no report (and the write fails: SIGPIPE is ignored).
            let _ = report.write_all(Report::Left(left).encode().as_bytes());
            break;
        }
    }
    relay(status)
}

/// Replaces standard input, output and error with `/dev/null`, so that only
/// the bot holds the arena's pipes (the arena sees them close when the bot
/// closes them).
fn let_go_of_stdio() {
    use nix::fcntl::{OFlag, open};
    use nix::sys::stat::Mode;
    match open("/dev/null", OFlag::O_RDWR, Mode::empty()) {
        Ok(null) => {
            let _ = nix::unistd::dup2_stdin(&null);
            let _ = nix::unistd::dup2_stdout(&null);
            let _ = nix::unistd::dup2_stderr(&null);
        }
        Err(_) => {
            for fd in 0..3 {
                // SAFETY: closing the standard descriptors, which nothing else here uses.
                drop(unsafe { OwnedFd::from_raw_fd(fd) });
            }
        }
    }
}

/// Reaps every child that has exited, noting the bot's status; whether
/// any child is left.
fn reap(bot: i32, status: &mut Option<WaitStatus>) -> bool {
    loop {
        match waitpid(None::<Pid>, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => return true,
            Err(nix::errno::Errno::ECHILD) => return false,
            Ok(exit) if exit.pid() == Some(Pid::from_raw(bot)) => *status = Some(exit),
            Ok(_) | Err(nix::errno::Errno::EINTR) => {}
            Err(_) => return true,
        }
    }
}

/// Kills everything below the supervisor, reaping as it goes, until it has
/// no child left: a subreaper with no child has nothing below it, however
/// fast what was below changed its pid (a look at the process table may
/// miss a process that does). Returns what it killed, and which of those
/// were in another pid namespace than the supervisor's: inside the bot's
/// sandbox (`--sandbox bwrap` starts the bot in a session of its own there),
/// which they could not have left.
fn kill_below(me: i32, bot: i32, status: &mut Option<WaitStatus>) -> (tree::Killed, HashSet<i32>) {
    let own = tree::pid_namespace(me);
    let sandboxed = RefCell::new(HashSet::new());
    let select = |table: &[tree::Process]| {
        let found = tree::below(table, me, |_| false);
        for process in found.iter().filter(|p| p.group != bot && !p.zombie) {
            if own.is_some() && tree::pid_namespace(process.pid).is_some_and(|ns| Some(ns) != own) {
                sandboxed.borrow_mut().insert(process.pid);
            }
        }
        found
    };
    let deadline = Instant::now() + KILL_PATIENCE;
    let mut all = tree::Killed::default();
    loop {
        let killed = tree::kill_all(
            || tree::look(select),
            |_| {
                reap(bot, status);
            },
            deadline,
        );
        let fresh = killed.processes.into_iter().filter(|p| !all.processes.iter().any(|seen| seen.pid == p.pid));
        all.processes.extend(fresh.collect::<Vec<_>>());
        if !reap(bot, status) {
            return (all, sandboxed.into_inner());
        }
        if Instant::now() >= deadline {
            // A child is left, so at least one process is.
            all.remaining = killed.remaining.max(1);
            return (all, sandboxed.into_inner());
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Exits the way the bot did: with its status, or killed by its signal.
fn relay(status: Option<WaitStatus>) -> i32 {
    match status {
        Some(WaitStatus::Exited(_, code)) => code,
        Some(WaitStatus::Signaled(_, signal, _)) => {
            // Without a core dump of the supervisor's own.
            let _ = nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_CORE, 0, 0);
            // SAFETY: restoring the default action; no handler is involved.
            let _ = unsafe { nix::sys::signal::signal(signal, nix::sys::signal::SigHandler::SigDfl) };
            let mut only = SigSet::empty();
            only.add(signal);
            let _ = only.thread_unblock();
            let _ = nix::sys::signal::raise(signal);
            128 + signal as i32
        }
        _ => 128 + Signal::SIGKILL as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_read_back() {
        let left = Leftovers { in_group: 2, escaped: 3 };
        for report in [Report::Started(42), Report::Failed(io::Error::from_raw_os_error(2)), Report::Left(left)] {
            let line = report.encode();
            let back = Report::decode(line.trim_end()).unwrap();
            assert_eq!(back.encode(), line);
        }
        let line = Report::Failed(io::Error::other("odd")).encode();
        let Some(Report::Failed(e)) = Report::decode(line.trim_end()) else {
            panic!("a failure without an errno reads back")
        };
        assert_eq!(e.to_string(), "odd");
        assert!(Report::decode("started x").is_none());
    }

    #[test]
    fn a_report_pipe_is_read_a_line_at_a_time() {
        let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_NONBLOCK).unwrap();
        let mut reports = Reports::new(read);
        assert!(reports.ready().is_none(), "nothing written yet");
        let mut write = File::from(write);
        write.write_all(b"started 7\nleft 1").unwrap();
        assert!(matches!(reports.wait(Duration::from_secs(5)), Some(Report::Started(7))));
        assert!(reports.ready().is_none(), "half a line");
        write.write_all(b" 0\n").unwrap();
        drop(write);
        assert!(matches!(
            reports.wait(Duration::from_secs(5)),
            Some(Report::Left(Leftovers { in_group: 1, escaped: 0 }))
        ));
        assert!(reports.wait(Duration::from_secs(5)).is_none(), "the pipe is closed");
    }

    #[test]
    fn a_report_is_awaited_with_the_runtime_s_thread_free() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let (read, write) = nix::unistd::pipe2(nix::fcntl::OFlag::O_NONBLOCK).unwrap();
            let mut reports = Reports::new(read);
            let mut write = File::from(write);
            // Written by a task of the same thread: only a wait that gives the thread up sees it.
            let writer = tokio::spawn(async move {
                tokio::task::yield_now().await;
                write.write_all(b"started 7\nleft 1").unwrap();
                write
            });
            assert!(matches!(reports.wait_async(Duration::from_secs(60)).await, Some(Report::Started(7))));
            let mut write = writer.await.unwrap();
            assert!(reports.wait_async(Duration::from_millis(20)).await.is_none(), "half a line, then nothing");
            write.write_all(b" 0\n").unwrap();
            drop(write);
            let left = reports.wait_async(Duration::from_secs(60)).await;
            assert!(matches!(left, Some(Report::Left(Leftovers { in_group: 1, escaped: 0 }))));
            assert!(reports.wait_async(Duration::from_secs(60)).await.is_none(), "the pipe is closed");
        });
    }

    #[test]
    fn arguments_parse_back() {
        let limits = ResourceLimits::default();
        let words = ["bwrap", "--ro-bind", "/secret", "/secret", "python3", "bot.py"].map(String::from);
        let groups = [PathBuf::from("/sys/fs/cgroup/pids/arena-1/bot-0")];
        let args: Vec<OsString> = arguments(5, &limits, 3, &groups, &words).into_iter().map(Into::into).collect();
        assert_eq!(args[0], MODE);
        let parsed = parse(&args[1..]).unwrap();
        assert_eq!((parsed.report, &parsed.limits, parsed.options, parsed.argv.len()), (5, &limits, 3, 6));
        assert_eq!(parsed.groups, groups);
        assert!(parse(&args[1..5]).is_none());
    }

    #[test]
    fn options_are_handed_over_through_a_descriptor() {
        use std::io::Read;
        let argv: Vec<OsString> = ["bwrap", "--ro-bind", "/secret", "/secret", "--", "bot"].map(Into::into).to_vec();
        let (command, mut fds) = hand_over(&argv, 3).unwrap();
        let fd = fds.pop().unwrap();
        assert!(fds.is_empty(), "no filter asked for");
        let number = std::os::fd::AsRawFd::as_raw_fd(&fd).to_string();
        assert_eq!(command, ["bwrap", "--args", &number, "--", "bot"].map(OsString::from));
        let mut text = String::new();
        File::from(fd).read_to_string(&mut text).unwrap();
        assert_eq!(text, "--ro-bind\0/secret\0/secret\0");
        assert_eq!(hand_over(&argv, 0).unwrap().0, argv, "nothing to hand over");
        let mut filtered: Vec<OsString> = vec!["bwrap".into()];
        for _ in 0..seccomp::count() {
            filtered.extend(["--add-seccomp-fd".into(), seccomp::PLACEHOLDER.into()]);
        }
        filtered.extend(["--", "bot"].map(OsString::from));
        let (_, mut fds) = hand_over(&filtered, 2 * seccomp::count()).unwrap();
        let args = fds.pop().unwrap();
        let (mut text, mut expected) = (String::new(), String::new());
        File::from(args).read_to_string(&mut text).unwrap();
        assert_eq!(fds.len(), seccomp::programs().len());
        for (held, filter) in fds.iter().zip(seccomp::programs()) {
            let mut bytes = Vec::new();
            File::from(held.try_clone().unwrap()).read_to_end(&mut bytes).unwrap();
            assert_eq!(bytes, filter);
            expected += &format!("--add-seccomp-fd\0{}\0", std::os::fd::AsRawFd::as_raw_fd(held));
        }
        assert_eq!(text, expected);
    }
}
