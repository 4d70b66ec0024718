//! Descendants of bots that escape their process group (a child that calls
//! `setsid`, say) and outlive the bot. The arena makes itself their
//! "subreaper", so the kernel hands them to the arena rather than to init
//! when their parent dies, and sweeps them away when a run ends.

use super::registry::Registry;
use nix::sys::signal::{Signal, kill};
use nix::sys::wait::waitpid;
use nix::unistd::Pid;

/// Asks the kernel to make the arena the parent of its orphaned descendants.
pub fn adopt() {
    // Not fatal if refused: process groups still catch well-behaved children.
    let _ = nix::sys::prctl::set_child_subreaper(true);
}

/// Kills and reaps every child of the arena that is not a live bot in
/// `registry`: descendants of bots that outlived them. Returns how many.
pub fn sweep(registry: &Registry) -> usize {
    let me = std::process::id() as i32;
    let mut swept = 0;
    for pid in children_of(me) {
        if registry.contains(pid) {
            continue;
        }
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        let _ = waitpid(Pid::from_raw(pid), None);
        swept += 1;
    }
    swept
}

/// The processes whose parent is `parent`, from `/proc`.
fn children_of(parent: i32) -> Vec<i32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| parent_of(pid) == Some(parent))
        .collect()
}

/// The parent of `pid`, from `/proc/PID/stat` (the field after the state, past the command name).
fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_its_own_children() {
        let mut child = std::process::Command::new("sleep").arg("5").spawn().unwrap();
        let me = std::process::id() as i32;
        assert_eq!(parent_of(child.id() as i32), Some(me));
        assert!(children_of(me).contains(&(child.id() as i32)));
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
