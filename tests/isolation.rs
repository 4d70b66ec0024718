//! Under `--sandbox bwrap`, no bot process carries anything from one game
//! into another, and none can signal another through a file both read:
//! the memory and covert-channel bots of `tests/bots/` find nothing.

use e2e::*;
use serde_json::Value;
use std::time::{Duration, Instant};

/// Plays a sandboxed match of `bots` (name, script and its arguments; each
/// a Python bot of `tests/bots/` run from `scratch/bots`, or greedy-bot for
/// the script "greedy-bot") from `scratch`, and returns every report (the
/// JSON after `prefix`) in the logs.
fn sandboxed_match(scratch: &Scratch, bots: &[(&str, &str)], extra: &[&str], prefix: &str) -> Vec<Value> {
    let dir = scratch.path().join("bots");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["covert.py", "memory.py", "marks.py", "botlib.py"] {
        std::fs::copy(repo_path(&format!("tests/bots/{file}")), dir.join(file)).unwrap();
    }
    std::fs::copy(bin("greedy-bot"), dir.join("greedy-bot")).unwrap();
    // The output directory lies outside the bots' directory.
    let out = format!("{}-out", scratch.path().display());
    let _ = std::fs::remove_dir_all(&out);
    let mut command = std::process::Command::new(bin("arena"));
    command.current_dir(scratch.path()).args(["match", "--sandbox", "bwrap", "--out", &out, "--seed", "11"]);
    command.args(["--concurrency", "2"]).args(PATIENT).args(extra);
    for (name, script) in bots {
        let run = match *script {
            "greedy-bot" => "bots/greedy-bot".to_string(),
            script => format!("{} bots/{script}", python()),
        };
        command.args(["--bot", &format!("{name}={run}")]);
    }
    let output = output(&mut command);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let mut reports = Vec::new();
    for entry in std::fs::read_dir(format!("{out}/logs")).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        reports.extend(text.lines().filter_map(|l| l.strip_prefix(prefix)).map(|l| serde_json::from_str(l).unwrap()));
    }
    std::fs::remove_dir_all(&out).unwrap();
    reports
}

/// Checks that no covert report found another process's lock, nor could watch or probe a file.
fn assert_no_channel(reports: &[Value], games: usize) {
    assert_eq!(reports.len(), games, "a report per game and process: {reports:?}");
    for report in reports {
        // Locks succeed without locking: every process "holds" it, so none learns anything.
        assert_eq!(report["flock"], "held", "another process's lock was seen: {report}");
        for probe in ["inotify", "mincore"] {
            assert_ne!(report[probe], "ok", "{probe} works: {report}");
        }
    }
}

#[test]
fn partners_cannot_signal_each_other_through_a_lock() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    // At 4 players a bot's two seats are partners: two processes alive at once.
    let scratch = Scratch::new("covert-partners");
    let reports = sandboxed_match(
        &scratch,
        &[("c", "covert.py"), ("g", "greedy-bot")],
        &["--players", "4", "--games", "8"],
        "covert: ",
    );
    assert_no_channel(&reports, 16);
    // Each process reads a copy of its own: partners alive at once never read the same file.
    let mut files: std::collections::BTreeMap<String, Vec<&Value>> = Default::default();
    for report in &reports {
        files.entry(report["game"].to_string()).or_default().push(&report["file"]);
    }
    for (game, seen) in files {
        assert_eq!(seen.len(), 2, "game {game}: {seen:?}");
        assert_ne!(seen[0], seen[1], "game {game}: partners read the same file");
    }
}

#[test]
fn two_bots_cannot_signal_each_other_through_a_system_file() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("covert-pair");
    let bots = [("c", "covert.py /usr/share/zoneinfo/UTC"), ("d", "covert.py /usr/share/zoneinfo/UTC")];
    let reports = sandboxed_match(&scratch, &bots, &["--games", "6"], "covert: ");
    assert_no_channel(&reports, 12);
}

#[test]
fn a_bot_never_meets_a_deal_it_remembers() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    // At 3 players a process kept across games met its deals again in 12 of 60 games.
    let scratch = Scratch::new("memory");
    let bots = [("m", "memory.py"), ("g", "greedy-bot"), ("h", "greedy-bot")];
    let reports = sandboxed_match(&scratch, &bots, &["--players", "3", "--games", "24"], "memory: ");
    assert_eq!(reports.len(), 24, "{reports:?}");
    for report in &reports {
        assert_eq!(
            (&report["seen_seed"], &report["seen_hand"]),
            (&Value::Bool(false), &Value::Bool(false)),
            "{report}"
        );
    }
}

/// Whether the arena hands a dead process's copy of its view to a later
/// process here (`bot::copies::reusable`): no swap, and tmpfs huge pages
/// only when asked.
fn copies_reused() -> bool {
    let swaps = std::fs::read_to_string("/proc/swaps").map_or(0, |text| text.lines().skip(1).count());
    let huge = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/shmem_enabled").unwrap_or_default();
    let unasked = ["[always]", "[within_size]", "[force]"].iter().any(|mode| huge.contains(mode));
    swaps == 0 && !unasked
}

#[test]
fn a_process_leaves_no_mark_in_a_copy_a_later_one_gets() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    // A process a game, more than are ever alive at once: copies are handed on.
    let scratch = Scratch::new("marks");
    let bots = [("m", "marks.py"), ("g", "greedy-bot")];
    let reports = sandboxed_match(&scratch, &bots, &["--games", "40", "--restart", "game"], "marks: ");
    assert_eq!(reports.len(), 40, "{reports:?}");
    for report in &reports {
        assert_eq!(report["seen"], serde_json::json!([]), "a mark of an earlier process: {report}");
        assert_eq!(report["left"], serde_json::json!([]), "a mark left: {report}");
    }
    let copies: std::collections::BTreeSet<String> = reports.iter().map(|r| r["file"].to_string()).collect();
    if copies_reused() {
        assert!(copies.len() < reports.len(), "no copy was handed on: {copies:?}");
    } else {
        assert_eq!(copies.len(), reports.len(), "a copy handed on where it may not be");
    }
}

/// The group below which an arena run by these tests makes its groups in the
/// `pids` hierarchy: the tests' own there (cgroup v1), or the root of the
/// unified hierarchy (cgroup v2).
fn pids_parent() -> std::path::PathBuf {
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    match own
        .lines()
        .find_map(|line| line.split(':').nth(1).filter(|c| c.split(',').any(|c| c == "pids")).map(|_| line))
    {
        Some(line) => std::path::Path::new("/sys/fs/cgroup/pids")
            .join(line.splitn(3, ':').nth(2).unwrap_or("").trim_start_matches('/')),
        None => std::path::PathBuf::from("/sys/fs/cgroup"),
    }
}

/// Whether the arena can make a control group for each bot here (as root,
/// with cgroup v1's pids and memory hierarchies or at the root of a cgroup
/// v2 namespace); says so when it cannot.
fn bot_groups_possible() -> bool {
    let probe = pids_parent().join(format!("arena-e2e-probe-{}", std::process::id()));
    let possible = std::fs::create_dir(&probe).is_ok() && std::fs::remove_dir(&probe).is_ok();
    if !possible {
        let test = std::thread::current().name().unwrap_or("a test").to_string();
        eprintln!(
            "notice: SKIPPED {test}: the arena cannot make control groups here (it needs root and a writable \
             /sys/fs/cgroup)"
        );
    }
    possible
}

/// Plays a sandboxed round robin of `swarm.py ARGS` against two greedy
/// bots; returns the swarm's reports, and checks that the greedy bots'
/// games against each other went as usual.
fn swarm_league(test: &str, args: &str, extra: &[&str]) -> Vec<Value> {
    let scratch = Scratch::new(test);
    let dir = scratch.path().join("bots");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["swarm.py", "botlib.py"] {
        std::fs::copy(repo_path(&format!("tests/bots/{file}")), dir.join(file)).unwrap();
    }
    std::fs::copy(bin("greedy-bot"), dir.join("greedy-bot")).unwrap();
    let out = format!("{}-out", scratch.path().display());
    let _ = std::fs::remove_dir_all(&out);
    let mut command = std::process::Command::new(bin("arena"));
    command.current_dir(scratch.path()).args(["league", "--sandbox", "bwrap", "--out", &out, "--seed", "5"]);
    // Starting hundreds of processes takes a while on a busy machine.
    command.args(["--games", "2", "--concurrency", "2", "--startup-timeout", "60000", "--move-timeout", "60000"]);
    command.args(extra);
    command.args(["--bot", &format!("swarm={} bots/swarm.py {args}", python())]);
    command.args(["--bot", "g=bots/greedy-bot", "--bot", "h=bots/greedy-bot"]);
    let output = output(&mut command);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let mut reports = Vec::new();
    for entry in std::fs::read_dir(format!("{out}/logs")).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        reports
            .extend(text.lines().filter_map(|l| l.strip_prefix("swarm: ")).map(|l| serde_json::from_str(l).unwrap()));
    }
    assert!(!reports.is_empty(), "the swarm reported nothing");
    for record in records(&out) {
        if !record.bots.iter().any(|bot| bot == "swarm") {
            assert_eq!(record.faults, [], "the other bots' games are unaffected: {record:?}");
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
    reports
}

#[test]
fn a_sandboxed_bot_s_processes_are_bounded_together_even_as_root() {
    if optional_tool(BWRAP).is_none() || !bot_groups_possible() {
        return;
    }
    // 500 children, where the default bound of a bot is 256 processes and threads.
    for report in &swarm_league("swarm-processes", "500 0", &[]) {
        let started = report["started"].as_u64().unwrap();
        assert!(started < 256, "{report}");
        assert_eq!(report["stop"], "Resource temporarily unavailable", "{report}");
    }
}

#[test]
fn a_sandboxed_bot_s_memory_is_bounded_together_even_as_root() {
    if optional_tool(BWRAP).is_none() || !bot_groups_possible() {
        return;
    }
    // 4 GiB across 8 processes (which each may hold 8), where the bot may hold 1 GiB:
    // the kernel kills in the bot's group what is past it.
    for report in &swarm_league("swarm-memory", "8 512", &["--limit", "bot-memory=1G"]) {
        assert!(report["held_mib"].as_u64().unwrap() <= 1024, "{report}");
    }
}

#[test]
fn a_limit_of_processes_asked_as_root_holds_through_the_bot_s_group() {
    if optional_tool(BWRAP).is_none() || !bot_groups_possible() {
        return;
    }
    // The per-process limit does not bind root: the group bounds the bot at what was asked.
    for report in &swarm_league("swarm-processes-root", "500 0", &["--limit", "processes=50"]) {
        assert!(report["started"].as_u64().unwrap() < 50, "{report}");
        assert_eq!(report["stop"], "Resource temporarily unavailable", "{report}");
    }
}

#[test]
fn a_limit_of_processes_that_cannot_hold_as_root_is_refused() {
    // SAFETY: geteuid takes nothing and cannot fail.
    if unsafe { nix::libc::geteuid() } != 0 {
        let test = std::thread::current().name().unwrap_or("a test").to_string();
        eprintln!("notice: SKIPPED {test}: the arena does not run as root here");
        return;
    }
    let scratch = Scratch::new("processes-as-root");
    let greedy = bin("greedy-bot");
    let args = match_args(&scratch, &[("a", &greedy), ("b", &greedy)], &["--limit", "processes=50"]);
    let (_, stderr) = arena_expect(&args, 2);
    assert!(stderr.contains("--limit processes=50: the arena runs as root"), "{stderr}");
    assert!(stderr.contains("--limit bot-processes=50"), "{stderr}");
}

#[test]
fn the_groups_an_arena_killed_with_kill_9_left_are_removed_by_the_next() {
    if optional_tool(BWRAP).is_none() || !bot_groups_possible() {
        return;
    }
    let scratch = Scratch::new("stale-groups");
    let greedy = scratch.path().join("greedy-bot");
    std::fs::copy(bin("greedy-bot"), &greedy).unwrap();
    let greedy = greedy.to_string_lossy().into_owned();
    let bots = [("a", greedy.as_str()), ("b", greedy.as_str())];
    // Run from the scratch directory, which the bots see.
    let arena = |extra: &[&str]| {
        let mut command = std::process::Command::new(bin("arena"));
        command.current_dir(scratch.path()).args(match_args(&scratch, &bots, extra));
        command
    };
    let mut killed = arena(&["--sandbox", "bwrap", "--games", "100000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let parent = pids_parent();
    let prefix = format!("arena-{}-", killed.id());
    let groups_of = |prefix: &str| -> Vec<std::path::PathBuf> {
        let entries = std::fs::read_dir(&parent).unwrap().flatten();
        entries.filter(|e| e.file_name().to_string_lossy().starts_with(prefix)).map(|e| e.path()).collect()
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    while !groups_of(&prefix).first().is_some_and(|group| group.join("bot-0").exists()) {
        assert!(Instant::now() < deadline, "the arena made no groups in {}", parent.display());
        std::thread::sleep(Duration::from_millis(50));
    }
    let group = groups_of(&prefix).remove(0);
    killed.kill().unwrap();
    killed.wait().unwrap();
    // Its bots die with it (their supervisors see to it); its groups stay.
    let empty = |dir: &std::path::Path| {
        std::fs::read_to_string(dir.join("cgroup.procs")).is_ok_and(|procs| procs.trim().is_empty())
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    while !["bot-0", "bot-1"].iter().all(|bot| empty(&group.join(bot))) {
        assert!(Instant::now() < deadline, "the killed arena's bots lived on");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(group.exists());
    // Groups of other dead arenas: one whose pid now belongs to another process
    // (this test), one gone, and one named as older arenas named them.
    let me = std::process::id();
    let planted: Vec<_> = [format!("arena-{me}-1"), "arena-999999999-1".to_string(), format!("arena-{me}")]
        .iter()
        .map(|name| parent.join(name))
        .collect();
    for dir in &planted {
        std::fs::create_dir_all(dir.join("bot-0")).unwrap();
    }

    let next = output(&mut arena(&["--sandbox", "bwrap", "--games", "2"]));
    assert_eq!(next.status.code(), Some(0), "{}", String::from_utf8_lossy(&next.stderr));
    assert!(!group.exists(), "{} is left", group.display());
    for dir in &planted {
        assert!(!dir.exists(), "{} is left", dir.display());
    }
    assert!(scratch.leftover_processes().is_empty());
}
