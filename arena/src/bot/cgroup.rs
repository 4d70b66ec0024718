//! A control group for each sandboxed bot, so that all its processes
//! together are bounded (`bot-processes`, `bot-memory`) whoever runs the
//! arena: resource limits are per process, and the process limit counts the
//! processes of a user (none at all for root).
//!
//! The arena makes `arena-PID/bot-N` below its own group in the `pids` and
//! `memory` hierarchies (cgroup v1), or in the unified one (cgroup v2, when
//! the arena runs in the root of its cgroup namespace, as in a container,
//! where both controllers can be enabled), and every process of bot `N`
//! joins it before its program starts; the groups are removed at the end.
//! The group's bound of processes is `bot-processes`, or `processes` if
//! lower: root's processes are exempt from the per-process limit.
//!
//! An arena killed with `kill -9` cannot remove its groups: each arena, as
//! it makes its own, removes beside them those of arenas no longer running
//! (see [`sweep`]). A group's name holds its arena's pid and start time
//! (`arena-PID-START`), so that a later process with the same pid is not
//! taken for it.
//!
//! Where the arena may not make groups (an ordinary user without a
//! delegated cgroup), nothing is made and only the per-process limits hold.

use super::limits::ResourceLimits;
use std::ffi::CString;
use std::io;
use std::path::{Path, PathBuf};

/// Where cgroups are mounted.
const ROOT: &str = "/sys/fs/cgroup";

/// The groups of a run's bots; empty where none could be made.
#[derive(Debug, Default)]
pub struct BotGroups {
    /// For each bot, the groups its processes join (one per hierarchy).
    bots: Vec<Vec<PathBuf>>,
    /// The run's own groups, which hold the bots'.
    runs: Vec<PathBuf>,
}

impl BotGroups {
    /// Groups for `bots` bots with these limits, if the arena may make them.
    pub fn create(bots: usize, limits: &ResourceLimits) -> BotGroups {
        let me = std::process::id();
        let name = format!("{PREFIX}{me}-{}", super::tree::start_time(me).unwrap_or(0));
        let mut groups = BotGroups::default();
        let made = match unified_root() {
            Some(root) => groups.make_v2(&root.join(&name), bots, limits),
            None => groups.make_v1(&name, bots, limits),
        };
        if made.is_err() {
            groups.remove();
            return BotGroups::default();
        }
        groups
    }

    /// Whether the arena may make groups here: it makes and removes its own.
    pub fn possible() -> bool {
        !BotGroups::create(0, &ResourceLimits::default()).runs.is_empty()
    }

    /// The groups the processes of bot `bot` join (none if there are none).
    pub fn of(&self, bot: usize) -> &[PathBuf] {
        self.bots.get(bot).map_or(&[], Vec::as_slice)
    }

    fn make_v1(&mut self, name: &str, bots: usize, limits: &ResourceLimits) -> io::Result<()> {
        let own = std::fs::read_to_string("/proc/self/cgroup")?;
        let path_of = |controller: &str| {
            own.lines().find_map(|line| {
                let mut parts = line.splitn(3, ':');
                let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
                controllers.split(',').any(|c| c == controller).then(|| path.trim_start_matches('/').to_string())
            })
        };
        let missing = || io::Error::other("no pids and memory hierarchies");
        let pids = Path::new(ROOT).join("pids").join(path_of("pids").ok_or_else(missing)?).join(name);
        let memory = Path::new(ROOT).join("memory").join(path_of("memory").ok_or_else(missing)?).join(name);
        for run in [&pids, &memory] {
            sweep(run.parent().expect("a group has a parent"));
            std::fs::create_dir(run)?;
            self.runs.push(run.clone());
        }
        for bot in 0..bots {
            let (pids, memory) = (pids.join(format!("bot-{bot}")), memory.join(format!("bot-{bot}")));
            std::fs::create_dir(&pids)?;
            std::fs::create_dir(&memory)?;
            self.bots.push(vec![pids.clone(), memory.clone()]);
            write(&pids.join("pids.max"), limits.group_processes())?;
            write(&memory.join("memory.limit_in_bytes"), limits.bot_memory.or(Some(u64::MAX >> 1)))?;
            // With swap accounting, swap counts too.
            let swap = memory.join("memory.memsw.limit_in_bytes");
            if swap.exists() {
                write(&swap, limits.bot_memory.or(Some(u64::MAX >> 1)))?;
            }
        }
        Ok(())
    }

    fn make_v2(&mut self, run: &Path, bots: usize, limits: &ResourceLimits) -> io::Result<()> {
        std::fs::write(Path::new(ROOT).join("cgroup.subtree_control"), "+pids +memory")?;
        sweep(Path::new(ROOT));
        std::fs::create_dir(run)?;
        self.runs.push(run.to_path_buf());
        std::fs::write(run.join("cgroup.subtree_control"), "+pids +memory")?;
        for bot in 0..bots {
            let group = run.join(format!("bot-{bot}"));
            std::fs::create_dir(&group)?;
            self.bots.push(vec![group.clone()]);
            write(&group.join("pids.max"), limits.group_processes())?;
            write(&group.join("memory.max"), limits.bot_memory)?;
            write(&group.join("memory.swap.max"), limits.bot_memory.map(|_| 0))?;
        }
        Ok(())
    }

    /// Removes the groups (those with processes left stay).
    fn remove(&mut self) {
        for dir in self.bots.drain(..).flatten().chain(self.runs.drain(..)) {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

impl Drop for BotGroups {
    fn drop(&mut self) {
        self.remove();
    }
}

/// The start of the name of an arena's group.
const PREFIX: &str = "arena-";

/// Removes the groups in `parent` of arenas no longer running, each with
/// its bots' groups: `arena-PID-START` unless process `PID` started at
/// `START`, and `arena-PID` (the name older arenas gave) unless process
/// `PID` is an arena. A group that still holds a process is kept (the
/// kernel refuses to remove it), and removed by a later arena.
fn sweep(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(PREFIX) else { continue };
        let (pid, started) = rest.split_once('-').map_or((rest, None), |(pid, started)| (pid, Some(started)));
        let Ok(pid) = pid.parse::<u32>() else { continue };
        let running = match started.map(str::parse::<u64>) {
            Some(Ok(started)) => super::tree::start_time(pid) == Some(started),
            Some(Err(_)) => continue,
            None => std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|comm| comm.trim() == "arena"),
        };
        if running {
            continue;
        }
        let group = entry.path();
        for bot in std::fs::read_dir(&group).into_iter().flatten().flatten() {
            if bot.file_type().is_ok_and(|kind| kind.is_dir()) {
                let _ = std::fs::remove_dir(bot.path());
            }
        }
        let _ = std::fs::remove_dir(&group);
    }
}

/// The unified hierarchy's root, when the arena runs at the root of its
/// cgroup namespace with the `pids` and `memory` controllers at hand.
fn unified_root() -> Option<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let controllers = std::fs::read_to_string(Path::new(ROOT).join("cgroup.controllers")).ok()?;
    let available = |name: &str| controllers.split_whitespace().any(|c| c == name);
    (own.trim() == "0::/" && available("pids") && available("memory")).then(|| PathBuf::from(ROOT))
}

/// Writes a limit (`max` for none).
fn write(file: &Path, limit: Option<u64>) -> io::Result<()> {
    std::fs::write(file, limit.map_or("max".to_string(), |limit| limit.to_string()))
}

/// The `cgroup.procs` files of `groups`, ready for [`join`].
pub fn procs_files(groups: &[PathBuf]) -> Vec<CString> {
    use std::os::unix::ffi::OsStrExt;
    groups.iter().filter_map(|group| CString::new(group.join("cgroup.procs").as_os_str().as_bytes()).ok()).collect()
}

/// Moves the calling process into the group of `procs` (a `cgroup.procs`
/// file). Meant for the child between fork and exec: it makes only getpid,
/// open, write and close system calls, and allocates nothing.
pub fn join(procs: &CString) -> io::Result<()> {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    // SAFETY: getpid takes nothing.
    let mut pid = unsafe { nix::libc::getpid() } as u64;
    loop {
        at -= 1;
        digits[at] = b'0' + (pid % 10) as u8;
        pid /= 10;
        if pid == 0 {
            break;
        }
    }
    // SAFETY: a NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { nix::libc::open(procs.as_ptr(), nix::libc::O_WRONLY | nix::libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: writes from a live buffer of that length.
    let written = unsafe { nix::libc::write(fd, digits[at..].as_ptr().cast(), digits.len() - at) };
    let error = io::Error::last_os_error();
    // SAFETY: closing the descriptor opened above.
    unsafe { nix::libc::close(fd) };
    if written < 0 { Err(error) } else { Ok(()) }
}
