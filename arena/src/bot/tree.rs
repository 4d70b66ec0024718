//! The tree of processes below a process, read from `/proc`, and killing
//! every process of it so that none escapes: what is found is frozen first
//! (SIGSTOP: a stopped process cannot fork), found again until nothing new
//! appears, then killed (SIGKILL), and all of that again until nothing is
//! found or a deadline passes.
//!
//! Moving to another process group or session (`setpgid`, `setsid`) does not
//! take a process out of the tree, and an orphan is adopted by the nearest
//! subreaper above it, so it stays in the tree of that subreaper. The whole
//! process table is read each time (`/proc/PID/task/TID/children` is missing
//! from many kernels): about a millisecond for a few hundred processes.

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// How many times one round looks again for processes started before the
/// ones it found were stopped.
const FREEZE_LOOKS: usize = 20;
/// How many looks in a row must find nothing before nothing is left: a look
/// may miss a process started while it reads the table.
const QUIET_LOOKS: usize = 2;
/// How long a round waits for the processes it killed to exit before looking again.
const SETTLE: Duration = Duration::from_millis(1);

/// One process, as `/proc/PID/stat` shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Process {
    /// Its pid.
    pub pid: i32,
    /// Its parent's pid.
    pub parent: i32,
    /// Its process group.
    pub group: i32,
    /// Whether it has exited and waits to be reaped.
    pub zombie: bool,
    /// Whether its main thread has begun to exit (the kernel's `PF_EXITING`).
    pub exiting: bool,
}

/// The kernel's flag of a task that has begun to exit (`include/linux/sched.h`).
const PF_EXITING: u64 = 0x4;

/// The process `pid`, if there is one.
pub fn process(pid: i32) -> Option<Process> {
    read(pid, &mut [0u8; 1024])
}

/// The start time of process `pid` (clock ticks since boot), which tells it from a later one of the same pid.
pub fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.split_whitespace().nth(19)?.parse().ok()
}

/// Whether process `pid` is on its way out, so that what it holds is about to
/// be freed: a zombie, exiting, or with a SIGKILL pending (a process killed
/// while it waits on the disk, in an `fsync`, exits only once that returns).
pub fn dying(pid: i32) -> bool {
    let Some(process) = process(pid) else { return false };
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let sigkill = 1u64 << (nix::libc::SIGKILL - 1);
    let pending = status
        .lines()
        .filter_map(|line| line.strip_prefix("SigPnd:").or_else(|| line.strip_prefix("ShdPnd:")))
        .any(|mask| u64::from_str_radix(mask.trim(), 16).is_ok_and(|mask| mask & sigkill != 0));
    process.zombie || process.exiting || pending
}

/// Every process in `/proc`.
pub fn table() -> Vec<Process> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    let mut buffer = [0u8; 1024];
    entries.flatten().filter_map(|entry| read(entry.file_name().to_str()?.parse().ok()?, &mut buffer)).collect()
}

/// The process `pid`, read with `buffer`: its state, parent and group
/// follow the command name, which may hold anything, even `)`.
fn read(pid: i32, buffer: &mut [u8]) -> Option<Process> {
    use std::io::Read;
    let length = std::fs::File::open(format!("/proc/{pid}/stat")).ok()?.read(buffer).ok()?;
    let stat = &buffer[..length];
    let after_name = &stat[stat.iter().rposition(|&b| b == b')')? + 1..];
    let mut fields = after_name.split(|&b| b == b' ').filter(|field| !field.is_empty());
    let zombie = fields.next()? == b"Z";
    let mut number = || std::str::from_utf8(fields.next()?).ok()?.parse::<i64>().ok();
    let parent = number()? as i32;
    let group = number()? as i32;
    // Then the session, the terminal, its foreground group and the flags.
    let flags = (0..3).try_for_each(|_| number().map(drop)).and_then(|()| number()).unwrap_or(0) as u64;
    Some(Process { pid, parent, group, zombie, exiting: flags & PF_EXITING != 0 })
}

/// The pid namespace of process `pid` (the inode `/proc/PID/ns/pid` names),
/// if it can be read.
pub fn pid_namespace(pid: i32) -> Option<u64> {
    let link = std::fs::read_link(format!("/proc/{pid}/ns/pid")).ok()?;
    link.to_str()?.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
}

/// The processes below `root` in `table`, leaving out every process for
/// which `skip` holds together with everything below it.
pub fn below(table: &[Process], root: i32, skip: impl Fn(i32) -> bool) -> Vec<Process> {
    let mut children: HashMap<i32, Vec<&Process>> = HashMap::new();
    for process in table {
        children.entry(process.parent).or_default().push(process);
    }
    let mut found = Vec::new();
    let mut parents = vec![root];
    while let Some(parent) = parents.pop() {
        for &child in children.get(&parent).into_iter().flatten() {
            if child.pid != root && !skip(child.pid) {
                found.push(*child);
                parents.push(child.pid);
            }
        }
    }
    found
}

/// What [`kill_all`] did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Killed {
    /// Each process it killed, as it was when first found.
    pub processes: Vec<Process>,
    /// How many were still alive when the deadline passed (0 when all died).
    pub remaining: usize,
}

/// One look at the process table: all of it, and the processes in it to kill.
#[derive(Debug, Default)]
pub struct Look {
    /// Every process.
    pub table: Vec<Process>,
    /// Those to kill.
    pub found: Vec<Process>,
}

/// Reads the process table and picks from it with `select`.
pub fn look(select: impl Fn(&[Process]) -> Vec<Process>) -> Look {
    let table = table();
    let found = select(&table);
    Look { table, found }
}

/// Kills every process that `look` finds (zombies aside), and every one it
/// finds after that, until it finds none twice in a row or `deadline`
/// passes. `reap` runs after each round, with the table of that round, to
/// reap what the caller may reap. Only a process that could be stopped
/// (that still existed) counts as killed.
///
/// A process group all of whose live processes are found is stopped and
/// killed as a whole too (once one of them is stopped, so that the group
/// still exists): so are those of its processes that a look at the table
/// missed, having been started meanwhile.
pub fn kill_all(mut look: impl FnMut() -> Look, mut reap: impl FnMut(&[Process]), deadline: Instant) -> Killed {
    let mut killed: Vec<Process> = Vec::new();
    let mut seen: HashSet<i32> = HashSet::new();
    let mut quiet = 0;
    let live = |found: &[Process]| -> Vec<Process> { found.iter().filter(|p| !p.zombie).copied().collect() };
    loop {
        let Look { mut table, mut found } = look();
        if live(&found).is_empty() {
            // Nothing to stop, and so no group known to be ours: a group
            // whose members a look missed is left to the next look.
            quiet += 1;
            reap(&table);
            if quiet >= QUIET_LOOKS {
                return Killed { processes: killed, remaining: 0 };
            }
            std::thread::sleep(SETTLE);
            continue;
        }
        quiet = 0;
        if Instant::now() >= deadline {
            return Killed { processes: killed, remaining: live(&found).len() };
        }
        let mut frozen: Vec<Process> = Vec::new();
        let mut frozen_groups: HashSet<i32> = HashSet::new();
        for _ in 0..FREEZE_LOOKS {
            let fresh = live(&found).into_iter().filter(|p| !frozen.iter().any(|f| f.pid == p.pid));
            let stopped: Vec<Process> = fresh.filter(|p| signal(p.pid, Signal::SIGSTOP)).collect();
            frozen.extend(&stopped);
            let groups: HashSet<i32> = contained_groups(&table, &found)
                .into_iter()
                .filter(|g| !frozen_groups.contains(g) && frozen.iter().any(|p| p.group == *g))
                .collect();
            if stopped.is_empty() && groups.is_empty() {
                break;
            }
            signal_groups(&groups, Signal::SIGSTOP);
            frozen_groups.extend(groups);
            Look { table, found } = look();
        }
        signal_groups(&frozen_groups, Signal::SIGKILL);
        for process in &frozen {
            signal(process.pid, Signal::SIGKILL);
            if seen.insert(process.pid) {
                killed.push(*process);
            }
        }
        std::thread::sleep(SETTLE);
        reap(&table);
    }
}

/// The process groups of `found` that no live process outside `found` belongs to.
fn contained_groups(table: &[Process], found: &[Process]) -> HashSet<i32> {
    let inside: HashSet<i32> = found.iter().map(|p| p.pid).collect();
    let mut groups: HashSet<i32> = found.iter().map(|p| p.group).filter(|&group| group > 1).collect();
    for process in table.iter().filter(|p| !p.zombie && !inside.contains(&p.pid)) {
        groups.remove(&process.group);
    }
    groups
}

/// Kills `root` and every process below it within `patience`.
pub fn kill_tree(root: i32, patience: Duration) -> Killed {
    let select = |table: &[Process]| {
        let mut found = below(table, root, |_| false);
        found.extend(table.iter().find(|p| p.pid == root));
        found
    };
    kill_all(|| look(select), |_| {}, Instant::now() + patience)
}

/// Sends `signal` to each process group in `groups`.
fn signal_groups(groups: &HashSet<i32>, signal: Signal) {
    for &group in groups {
        let _ = nix::sys::signal::killpg(Pid::from_raw(group), signal);
    }
}

/// Sends `signal` to `pid`; whether it still existed (a zombie does).
fn signal(pid: i32, signal: Signal) -> bool {
    kill(Pid::from_raw(pid), signal).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Child, Command};

    /// Time enough to kill a few hundred processes on a machine so loaded
    /// that one look at `/proc` takes a second.
    const PATIENCE: Duration = Duration::from_secs(60);

    fn me() -> i32 {
        std::process::id() as i32
    }

    /// A shell that starts `script` in the background and waits.
    fn shell(script: &str) -> Child {
        Command::new("sh").arg("-c").arg(script).spawn().expect("sh starts")
    }

    /// Waits until `count` processes are below `root`.
    fn wait_for(root: i32, count: usize) {
        let deadline = Instant::now() + PATIENCE;
        while below(&table(), root, |_| false).iter().filter(|p| !p.zombie).count() < count {
            assert!(Instant::now() < deadline, "never {count} processes below {root}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn reads_a_pid_namespace() {
        let mine = pid_namespace(me()).expect("its own pid namespace is readable");
        let mut child = shell("sleep 5");
        assert_eq!(pid_namespace(child.id() as i32), Some(mine), "a child shares it");
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(pid_namespace(-1), None);
    }

    #[test]
    fn a_process_that_has_exited_is_exiting_until_reaped() {
        let running = process(me()).expect("the test's own process");
        assert!(!running.exiting && !running.zombie && running.pid == me() && !dying(me()));
        // Stopped, then killed: the SIGKILL is pending until it runs again.
        let mut stopped = shell("kill -STOP $$; exit 0");
        let stopped_pid = stopped.id() as i32;
        let deadline = Instant::now() + PATIENCE;
        while !std::fs::read_to_string(format!("/proc/{stopped_pid}/stat")).is_ok_and(|stat| stat.contains(") T ")) {
            assert!(Instant::now() < deadline, "{stopped_pid} never stopped");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!dying(stopped_pid), "stopped is not dying");
        stopped.kill().unwrap();
        stopped.wait().unwrap();
        let mut child = shell("exit 0");
        let pid = child.id() as i32;
        // Not reaped yet: a zombie, so on its way out.
        let deadline = Instant::now() + PATIENCE;
        while !process(pid).is_some_and(|p| p.zombie) {
            assert!(Instant::now() < deadline, "{pid} never exited");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(dying(pid));
        child.wait().unwrap();
        assert!(process(pid).is_none(), "reaped, it is gone");
    }

    #[test]
    fn finds_the_whole_tree_and_leaves_out_what_it_is_told_to() {
        let mut child = shell("sleep 10 & sleep 10 & wait");
        let pid = child.id() as i32;
        wait_for(pid, 2);
        let table = table();
        let mine = below(&table, me(), |_| false);
        assert!(mine.iter().any(|p| p.pid == pid), "the shell is below the test");
        assert_eq!(mine.iter().filter(|p| p.parent == pid).count(), 2, "and its two sleeps too");
        assert!(below(&table, me(), |skipped| skipped == pid).iter().all(|p| p.pid != pid && p.parent != pid));
        let shell = table.iter().find(|p| p.pid == pid).unwrap();
        assert_eq!(shell.parent, me());
        assert!(!shell.zombie);
        let killed = kill_tree(pid, PATIENCE);
        assert_eq!((killed.processes.len(), killed.remaining), (3, 0));
        child.wait().unwrap();
    }

    #[test]
    fn a_chain_that_keeps_changing_its_pid_is_caught() {
        use nix::errno::Errno;
        use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
        use std::os::unix::process::CommandExt;
        // Orphans stay below the test process, as they stay below a supervisor.
        nix::sys::prctl::set_child_subreaper(true).unwrap();
        // Each step starts the next and exits: at most 500 steps (dash allows
        // 1000 nested calls), about 7 s.
        let step = "i=0; step() { i=$((i+1)); [ $i -le 500 ] || exit 0; sleep 0.01; step & exit 0; }; step";
        let mut first = Command::new("sh").arg("-c").arg(step).process_group(0).spawn().expect("sh starts");
        let group = first.id() as i32;
        let chain = |table: &[Process]| {
            below(table, me(), |_| false).into_iter().filter(|p| p.group == group).collect::<Vec<_>>()
        };
        // Reaps the chain's zombies that are this process's children.
        let reap = |_: &[Process]| {
            while let Ok(WaitStatus::Exited(..) | WaitStatus::Signaled(..)) =
                waitpid(Pid::from_raw(-group), Some(WaitPidFlag::WNOHANG))
            {}
        };
        // The first shell exits once it has started the next: the chain has moved on.
        first.wait().unwrap();
        // As a supervisor does (see `kill_below`): a look reads the table while
        // it changes, and may miss the next process of a chain whose current
        // one exits meanwhile (on a busy machine a look can outlast a step),
        // so kill until no process of the chain is a child of this one, the
        // subreaper: then nothing of it is left anywhere below.
        let deadline = Instant::now() + PATIENCE;
        let mut killed = Killed::default();
        loop {
            let round = kill_all(|| look(chain), reap, deadline);
            killed.processes.extend(round.processes);
            killed.remaining = round.remaining;
            assert_eq!(killed.remaining, 0, "{killed:?}");
            match waitpid(Pid::from_raw(-group), Some(WaitPidFlag::WNOHANG)) {
                Err(Errno::ECHILD) => break,
                Ok(WaitStatus::StillAlive) => {
                    assert!(Instant::now() < deadline, "the chain outlived {PATIENCE:?} of killing: {killed:?}")
                }
                _ => {}
            }
        }
        assert!(!killed.processes.is_empty(), "nothing of the chain was killed");
        for _ in 0..20 {
            std::thread::sleep(Duration::from_millis(10));
            let live: Vec<Process> = chain(&table()).into_iter().filter(|p| !p.zombie).collect();
            assert!(live.is_empty(), "the chain lives on: {live:?}, after {killed:?}");
        }
    }

    #[test]
    fn a_tree_that_keeps_forking_is_killed_whole() {
        // Forks about 100 times a second for at most 5 s; each sleep ends within 10 s.
        let mut child = shell("i=0; while [ $i -lt 500 ]; do sleep 5 & sleep 0.01; i=$((i+1)); done; wait");
        let pid = child.id() as i32;
        wait_for(pid, 20);
        let killed = kill_tree(pid, PATIENCE);
        assert_eq!(killed.remaining, 0);
        assert!(killed.processes.len() > 20, "{killed:?}");
        assert!(killed.processes.iter().any(|p| p.pid == pid));
        child.wait().unwrap();
    }
}
