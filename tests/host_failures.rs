//! Failures of the machine are not a bot's: a bot process that cannot be
//! started stops the run (exit status 1, resumable) and forfeits nothing,
//! and limits the arena cannot give its bots are refused before any starts.

use e2e::*;
use std::process::{Command, Stdio};

#[test]
fn a_process_that_cannot_start_stops_the_run_and_forfeits_nothing() {
    let scratch = Scratch::new("host-spawn");
    let out = scratch.join("out");
    // A bot that crashes every few turns is restarted often, so new
    // processes keep being started while the league runs.
    let crashing = format!("{} {}", python(), repo_path("tests/bots/crash_mid_game.py"));
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let mut args = match_args(&scratch, &[("bad", &crashing), ("g", &greedy), ("r", &random)], &[]);
    args[0] = "league".to_string();
    // (Limits no busy machine reaches: the bot's crashes are the only faults.)
    args.extend(
        patient(&["--games", "20", "--seed", "5", "--concurrency", "1", "--out", &out]).into_iter().map(String::from),
    );
    let arena = Command::new(bin("arena")).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    wait_for_records(&out, 3);
    // The disk fails the arena: its logs directory is now a file, so the
    // next bot process's log (and so the process) cannot be created.
    let logs = format!("{out}/logs");
    std::fs::remove_dir_all(&logs).unwrap();
    std::fs::write(&logs, "not a directory").unwrap();
    let output = finish(arena);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error: cannot start a process of bot"), "{stderr}");
    assert!(stderr.contains(&format!("continue with: {} league --resume {out}", bin("arena"))), "{stderr}");
    let kept = records(&out);
    assert!(kept.len() < 60, "the run stopped early: {} games", kept.len());
    for record in &kept {
        for fault in &record.faults {
            assert_eq!(fault.bot, "bad", "{fault:?}");
            assert_eq!(fault.kind.name(), "exited", "only the bot's own crashes are its faults: {fault:?}");
        }
    }

    // Mended, the league resumes to its end.
    std::fs::remove_file(&logs).unwrap();
    std::fs::create_dir(&logs).unwrap();
    // Exit status 4: the crashing bot forfeited every game it was in.
    arena_expect(&["league", "--resume", &out], 4);
    let records = records(&out);
    assert_eq!(records.len(), 60);
    assert!(records.iter().all(|r| r.fault_kinds().iter().all(|&kind| kind == "exited")));
    assert!(scratch.leftover_processes().is_empty(), "{:?}", scratch.leftover_processes());
}

#[test]
fn a_limit_above_the_arena_s_own_hard_limit_is_refused_before_any_bot_starts() {
    let scratch = Scratch::new("host-limits");
    let out = scratch.join("out");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let arena_args = match_args(&scratch, &[("g", &greedy), ("r", &random)], &["--games", "2", "--out", &out]);
    // The arena's hard file-size limit is 1000 blocks of 512 bytes, below the
    // bots' default 64M, and it may not raise it (setpriv drops the
    // capability that would let root do so).
    let script = r#"ulimit -f 1000; exec "$@""#;
    let output = output(
        Command::new("setpriv")
            .args(["--bounding-set=-sys_resource", "sh", "-c", script, "sh", &bin("arena")])
            .args(&arena_args),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--limit file-size=64M: the arena's own hard limit is"), "{stderr}");
    assert!(!std::path::Path::new(&out).exists(), "nothing was written");

    // Within the arena's limit, the match plays.
    let mut within = arena_args.clone();
    within.extend(["--limit".to_string(), "file-size=256K".to_string()]);
    let output = e2e::output(
        Command::new("setpriv")
            .args(["--bounding-set=-sys_resource", "sh", "-c", script, "sh", &bin("arena")])
            .args(&within),
    );
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn a_low_file_size_limit_is_a_clear_error_not_a_silent_death() {
    let scratch = Scratch::new("host-file-size");
    let out = scratch.join("out");
    let mut args = match_args(&scratch, &[("g", &bin("greedy-bot")), ("r", &bin("random-bot"))], &["--out", &out]);
    args.extend(["--games", "20"].map(String::from));
    // A soft limit of 2 KiB (dash counts 512-byte blocks): the first record is larger.
    let mut shell = Command::new("sh");
    shell.arg("-c").arg("ulimit -S -f 4; exec \"$0\" \"$@\"").arg(bin("arena")).args(&args);
    let output = output(&mut shell);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "killed by SIGXFSZ, or not stopped: {stderr}");
    assert!(stderr.contains("File too large") && stderr.contains("ulimit -f"), "{stderr}");
}
