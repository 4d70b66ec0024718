//! The copies of what sandboxed bots see live in memory (`/dev/shm`) and
//! die with the arena, after a normal run and after `kill -9`.

use e2e::*;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The arena's directories of copies in /dev/shm, for the arena with pid `pid`.
fn copies_of(pid: u32) -> Vec<std::path::PathBuf> {
    let prefix = format!("arena-views-{pid}-");
    std::fs::read_dir("/dev/shm")
        .unwrap()
        .flatten()
        .filter(|entry| entry.file_name().to_string_lossy().starts_with(&prefix))
        .map(|entry| entry.path())
        .collect()
}

/// Waits up to 5 s for the copies of arena `pid` to be gone.
fn assert_gone(pid: u32) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !copies_of(pid).is_empty() {
        assert!(Instant::now() < deadline, "left in /dev/shm: {:?}", copies_of(pid));
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A sandboxed match of the Python sample bot against greedy-bot, from
/// `scratch`, into `out` (a directory of its own, not shown to the bots).
fn sandboxed(scratch: &Scratch, out: &Scratch, games: &str) -> std::process::Command {
    let dir = scratch.path().join("bots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(bin("greedy-bot"), dir.join("greedy-bot")).unwrap();
    std::fs::copy(repo_path("sample-bots/python/greedy.py"), dir.join("greedy.py")).unwrap();
    let out = out.path().join("results");
    let mut command = std::process::Command::new(bin("arena"));
    command.current_dir(scratch.path()).args(["match", "--sandbox", "bwrap", "--games", games]).arg("--out").arg(&out);
    command.args(PATIENT).args(["--bot", "g=bots/greedy-bot", "--bot", &format!("py={} bots/greedy.py", python())]);
    command
}

#[test]
fn the_copies_die_with_the_arena() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let (scratch, out) = (Scratch::new("views-normal"), Scratch::new("views-normal-out"));
    let child = sandboxed(&scratch, &out, "2").stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let pid = child.id();
    let output = finish(child);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_gone(pid);
}

#[test]
fn the_copies_die_with_an_arena_killed_outright() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let (scratch, out) = (Scratch::new("views-killed"), Scratch::new("views-killed-out"));
    let mut arena = sandboxed(&scratch, &out, "400").stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let pid = arena.id();
    let deadline = Instant::now() + Duration::from_secs(30);
    let copied = || copies_of(pid).iter().any(|dir| std::fs::read_dir(dir).is_ok_and(|mut e| e.next().is_some()));
    while !copied() {
        if Instant::now() > deadline {
            let _ = arena.kill();
            panic!("the arena never made a copy");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    arena.kill().expect("SIGKILL sent");
    arena.wait().expect("the arena is reaped");
    assert_gone(pid);
}
