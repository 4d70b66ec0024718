//! The seccomp filters of `--sandbox bwrap`: `tests/bots/syscalls.py` makes
//! every call they answer, and gets what they answer inside the sandbox
//! (and the kernel's own answers outside it); ordinary programs, a JVM and
//! a Python bot, still play.

use e2e::*;
use serde_json::Value;

/// Plays a match of `syscalls.py` against greedy-bot from `scratch`, with
/// `extra` flags, and returns the probe's reports.
fn probed(scratch: &Scratch, extra: &[&str]) -> Vec<Value> {
    let dir = scratch.path().join("bots");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["syscalls.py", "botlib.py"] {
        std::fs::copy(repo_path(&format!("tests/bots/{file}")), dir.join(file)).unwrap();
    }
    std::fs::copy(bin("greedy-bot"), dir.join("greedy-bot")).unwrap();
    let out = format!("{}-out", scratch.path().display());
    let _ = std::fs::remove_dir_all(&out);
    let mut command = std::process::Command::new(bin("arena"));
    command.current_dir(scratch.path()).args(["match", "--out", &out, "--games", "2"]).args(PATIENT).args(extra);
    command.args(["--bot", &format!("probe={} bots/syscalls.py", python()), "--bot", "g=bots/greedy-bot"]);
    let output = output(&mut command);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let standings = Standings::read(&out);
    assert_eq!(standings.bot("probe").faults, 0, "{standings:?}");
    let mut reports = Vec::new();
    for entry in std::fs::read_dir(format!("{out}/logs")).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        reports.extend(
            text.lines().filter_map(|l| l.strip_prefix("syscalls: ")).map(|l| serde_json::from_str(l).unwrap()),
        );
    }
    std::fs::remove_dir_all(&out).unwrap();
    assert!(!reports.is_empty(), "the probe reported nothing");
    reports
}

/// What the filters answer: the calls that do nothing succeed where the
/// kernel would have failed them (bad descriptors, unaligned addresses).
const FILTERED: [(&str, &str); 27] = [
    ("flock", "0"),
    ("fcntl F_SETLK", "0"),
    ("fcntl F_OFD_SETLKW", "0"),
    ("fcntl F_GETLK", "ENOLCK"),
    ("fcntl F_SETLEASE", "ENOLCK"),
    ("fcntl F_NOTIFY", "ENOLCK"),
    ("fadvise DONTNEED", "0"),
    ("fadvise NOREUSE", "0"),
    ("fadvise WILLNEED", "EBADF"),
    ("madvise COLD", "0"),
    ("madvise PAGEOUT", "0"),
    ("madvise COLLAPSE", "0"),
    ("madvise HUGEPAGE", "0"),
    ("madvise DONTNEED", "EINVAL"),
    ("preadv2 NOWAIT", "EOPNOTSUPP"),
    ("preadv2", "64"),
    ("pwritev2 NOWAIT", "EOPNOTSUPP"),
    ("inotify_init1", "ENOSYS"),
    ("fanotify_init", "ENOSYS"),
    ("mincore", "ENOSYS"),
    ("cachestat", "ENOSYS"),
    ("process_madvise", "ENOSYS"),
    ("io_uring_setup", "ENOSYS"),
    ("io_uring_enter", "ENOSYS"),
    ("io_uring_register", "ENOSYS"),
    ("io_setup", "ENOSYS"),
    ("io_submit", "ENOSYS"),
];

#[test]
fn the_filters_answer_every_call_they_name() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("seccomp-filtered");
    let reports = probed(&scratch, &["--sandbox", "bwrap"]);
    assert_eq!(reports.len(), 2, "a process per game: {reports:?}");
    for report in &reports {
        for (call, answer) in FILTERED {
            assert_eq!(report[call], answer, "{call}: {report}");
        }
        assert_eq!(report["fcntl F_GETFD"], "1", "the rest of fcntl works: {report}");
        if std::env::consts::ARCH == "x86_64" {
            assert_eq!(report["x32 getpid"], "EPERM", "{report}");
        }
    }
    // Outside the sandbox the same calls get the kernel's answers: the probe tells them apart.
    let plain = Scratch::new("seccomp-plain");
    for report in probed(&plain, &[]) {
        for call in ["flock", "fcntl F_SETLK", "fadvise DONTNEED", "fadvise NOREUSE"] {
            assert_eq!(report[call], "EBADF", "{call}: {report}");
        }
        for call in ["madvise COLD", "madvise PAGEOUT", "madvise COLLAPSE", "madvise HUGEPAGE"] {
            assert_eq!(report[call], "EINVAL", "{call}: {report}");
        }
        assert_eq!(report["preadv2 NOWAIT"], "64", "a cached file read without waiting: {report}");
    }
}

#[test]
fn a_jvm_and_a_python_bot_play_under_the_filters() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("seccomp-ordinary");
    let Some(java) = java_greedy(scratch.path()) else { return };
    let out = format!("{}-out", scratch.path().display());
    let _ = std::fs::remove_dir_all(&out);
    let mut command = std::process::Command::new(bin("arena"));
    command.current_dir(scratch.path()).args(["match", "--sandbox", "bwrap", "--out", &out, "--games", "2"]);
    command.args(PATIENT).args(["--bot", &format!("java={java}"), "--bot", &format!("py={}", python_greedy())]);
    let output = output(&mut command);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let standings = Standings::read(&out);
    for bot in ["java", "py"] {
        assert_eq!(standings.bot(bot).faults, 0, "{standings:?}");
    }
    assert_eq!(records(&out).len(), 2);
    std::fs::remove_dir_all(&out).unwrap();
}
