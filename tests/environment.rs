//! The environment is not a bot: closed output pipes, files planted in the
//! output directory, a `kill -9`, absurd sizes and huge records must never
//! crash or hang the arena, nor make it write where it should not.

use e2e::*;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// Waits for `child` at most `limit`; on time-out kills it, and every process
/// mentioning the scratch directory, and fails.
fn wait_bounded(child: &mut Child, scratch: &Scratch, limit: Duration, what: &str) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let left = scratch.leftover_processes();
            for line in &left {
                let pid: i32 = line.split(':').next().unwrap().parse().unwrap();
                let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
            }
            panic!("{what} still ran after {limit:?}; processes left: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `arena ARGS` with stdout, stderr or both being pipes whose reader has gone.
fn arena_without_readers(args: &[String], stdout_closed: bool, stderr_closed: bool) -> Output {
    let closed = || {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        Stdio::from(writer)
    };
    let mut command = Command::new(bin("arena"));
    command.args(args).stdin(Stdio::null());
    command.stdout(if stdout_closed { closed() } else { Stdio::piped() });
    command.stderr(if stderr_closed { closed() } else { Stdio::piped() });
    command.output().unwrap()
}

/// A league of greedy-bot, random-bot and a bot that crashes mid-game (so
/// that fault lines are written while it runs): its arguments and its length.
fn faulty_league(scratch: &Scratch, out: &str) -> (Vec<String>, usize) {
    let crash = format!("{} {}", python(), repo_path("tests/bots/crash_mid_game.py"));
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let flags = ["--games", "4", "--seed", "3", "--concurrency", "2", "--out", out];
    let mut args = match_args(scratch, &[("crash", &crash), ("g", &greedy), ("r", &random)], &flags);
    args[0] = "league".to_string();
    (args, 12)
}

#[test]
fn a_league_whose_stderr_reader_went_away_runs_to_its_end() {
    let scratch = Scratch::new("stderr-head");
    let out = scratch.join("out");
    let (args, games) = faulty_league(&scratch, &out);
    // The reproduction: `arena league … 2>&1 >/dev/null | head -c 10`.
    let quoted: Vec<String> = std::iter::once(bin("arena")).chain(args).map(|a| format!("'{a}'")).collect();
    let script = format!("{} 2>&1 >/dev/null | head -c 10 >/dev/null; exit ${{PIPESTATUS[0]}}", quoted.join(" "));
    let mut child = Command::new("bash").args(["-c", &script]).stdin(Stdio::null()).spawn().unwrap();
    let status = wait_bounded(&mut child, &scratch, Duration::from_secs(120), "the league");
    // Exit status 4, as usual: the crashing bot forfeited every game it was in.
    assert_eq!(status.code(), Some(4), "the league ends as usual");
    assert_eq!(records(&out).len(), games, "every game is recorded");
    assert!(records(&out).iter().any(|r| !r.faults.is_empty()));
    assert!(std::path::Path::new(&out).join("standings.json").is_file());
    assert!(scratch.leftover_processes().is_empty(), "{:?}", scratch.leftover_processes());
}

#[test]
fn a_league_with_no_reader_on_stdout_or_stderr_runs_to_its_end() {
    let scratch = Scratch::new("no-readers");
    let out = scratch.join("out");
    let (mut args, games) = faulty_league(&scratch, &out);
    args.extend(["--report".to_string(), "csv".to_string()]);
    let output = arena_without_readers(&args, true, true);
    // Exit status 4, as usual: the crashing bot forfeited every game it was in.
    assert_eq!(output.status.code(), Some(4), "the league ends as usual");
    assert_eq!(records(&out).len(), games, "every game is recorded");
    assert!(std::path::Path::new(&out).join("standings.csv").is_file());
}

#[test]
fn verify_into_head_0_exits_quietly() {
    let scratch = Scratch::new("verify-head");
    let out = scratch.join("out");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    arena_expect(&match_args(&scratch, &[("g", &greedy), ("r", &random)], &["--games", "4", "--out", &out]), 0);
    // The reproduction: `arena verify … | head -0` (head may exit before or
    // after the arena writes, so either status is right; a panic is not).
    let script = format!("'{}' verify '{out}' | head -0; exit ${{PIPESTATUS[0]}}", bin("arena"));
    let output = Command::new("bash").args(["-c", &script]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(matches!(output.status.code(), Some(0 | 141)), "{:?}: {stderr}", output.status);
    assert_eq!(stderr, "", "nothing is said when the reader went away");
}

#[test]
fn commands_whose_job_is_output_stop_quietly_when_their_reader_went_away() {
    let scratch = Scratch::new("output-commands");
    let out = scratch.join("out");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    arena_expect(&match_args(&scratch, &[("g", &greedy), ("r", &random)], &["--games", "2", "--out", &out]), 0);
    let commands: Vec<Vec<String>> = vec![
        vec!["verify".into(), out.clone()],
        vec!["view".into(), out.clone(), "--game".into(), "0".into()],
        vec!["view".into(), out.clone(), "--game".into(), "0".into(), "-o".into(), scratch.join("page.html")],
        vec!["replay".into(), out.clone(), "--seat".into(), "0".into(), "--bot".into(), format!("new={greedy}")],
        vec!["rules".into()],
        vec!["check-bot".into(), format!("{greedy} {}", scratch.marker())],
    ];
    for args in &commands {
        let output = arena_without_readers(args, true, false);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(141), "arena {args:?}: {stderr}");
        assert_eq!(stderr, "", "arena {args:?} says nothing");
    }
    assert!(scratch.leftover_processes().is_empty(), "{:?}", scratch.leftover_processes());
}

#[test]
fn merge_writes_its_directory_when_the_reader_of_its_report_went_away() {
    let scratch = Scratch::new("merge-no-reader");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let mut shards = Vec::new();
    for shard in 0..2 {
        let dir = scratch.join(&format!("shard{shard}"));
        let flags = ["--games", "2", "--seed", "5", "--shard", &format!("{shard}/2"), "--out", &dir];
        let mut args = match_args(&scratch, &[("g", &greedy), ("r", &random)], &flags);
        args[0] = "league".to_string();
        arena_expect(&args, 0);
        shards.push(dir);
    }
    let merged = scratch.join("merged");
    let mut args = vec!["merge".to_string(), "--out".to_string(), merged.clone()];
    args.extend(shards);
    let output = arena_without_readers(&args, true, true);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(records(&merged).len(), 2);
    assert!(std::path::Path::new(&merged).join("standings.json").is_file());
}

#[test]
fn a_league_killed_outright_resumes_at_once() {
    let scratch = Scratch::new("kill-resume");
    let out = scratch.join("out");
    // A bot that exits at once: a new process for nearly every game, so that
    // the arena is often between fork and exec when it is killed.
    let flags = ["--games", "100000", "--seed", "2", "--concurrency", "2", "--startup-timeout", "2000", "--out", &out];
    let mut args = match_args(&scratch, &[("quits", "sh -c 'exit 0'"), ("g", &bin("greedy-bot"))], &flags);
    args[0] = "league".to_string();
    let resume = ["league".to_string(), "--resume".to_string(), out.clone()];
    let start = |args: &[String]| {
        Command::new(bin("arena")).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
    };
    // `kill -9`, then `--resume` at once: the killed arena is reaped only
    // after its successor has started (as a shell does not wait for it).
    let mut refusals = Vec::new();
    let mut refused = |child: Child| {
        let stderr = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
        if stderr.contains("in use") {
            refusals.push(stderr);
        }
    };
    let mut killed: Option<Child> = None;
    for round in 0..=60 {
        let mut child = start(if round == 0 { &args } else { &resume });
        if let Some(previous) = killed.take() {
            refused(previous);
        }
        if round == 0 {
            // However slowly a busy machine plays it, a game is recorded before the first kill.
            wait_for_records(&out, 1);
        } else {
            std::thread::sleep(Duration::from_millis(200 + 23 * (round % 13)));
        }
        let _ = child.kill();
        killed = Some(child);
    }
    refused(killed.expect("the last round's arena"));
    assert!(refusals.is_empty(), "resumes refused:\n{}", refusals.join("\n"));
    assert!(!records(&out).is_empty());
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn links_planted_in_the_output_directory_are_not_followed() {
    let scratch = Scratch::new("planted-links");
    let out = scratch.path().join("out");
    std::fs::create_dir_all(out.join("logs")).unwrap();
    let victim = scratch.path().join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let planted = ["standings.tmp", "league.tmp", "games.tmp", "standings.csv", "logs/g.seat0.1.log"];
    for name in planted {
        std::os::unix::fs::symlink(&victim, out.join(name)).unwrap();
    }
    let out = out.to_string_lossy().into_owned();
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    // At concurrency 4 games finish out of order, so games.jsonl is rewritten too.
    let flags = ["--games", "8", "--concurrency", "4", "--out", &out, "--report", "csv"];
    let mut args = match_args(&scratch, &[("g", &greedy), ("r", &random)], &flags);
    args[0] = "league".to_string();
    arena_expect(&args, 0);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(records(&out).len(), 8);
    let csv = std::path::Path::new(&out).join("standings.csv");
    assert!(!csv.symlink_metadata().unwrap().is_symlink(), "the report replaced the link");
    let logs: Vec<String> = std::fs::read_dir(format!("{out}/logs"))
        .unwrap()
        .flatten()
        .filter(|e| !e.file_type().unwrap().is_symlink())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(logs.iter().any(|name| name.starts_with("g.seat0.")), "{logs:?}");
}

#[test]
fn the_logs_of_a_bot_are_capped_over_a_run() {
    let scratch = Scratch::new("log-budget");
    let out = scratch.join("out");
    // Starts, then writes 1.1 MB to stderr and exits, in every game: a fault
    // and a new process each time (a bot that never starts would be given up).
    let noisy = r#"sh -c 'read hello; echo "{\"type\":\"ready\",\"name\":\"noisy\",\"version\":\"1\",\"protocol\":1}"; head -c 1100000 /dev/zero | tr "\0" x >&2; exit 3'"#;
    // Patient, so that on a busy machine no seat times out: bad exits in every game, g never faults.
    let flags = patient(&["--games", "80", "--seed", "1", "--out", &out]);
    // Exit status 4: bad forfeits every game.
    arena_expect(&match_args(&scratch, &[("bad", noisy), ("g", &bin("greedy-bot"))], &flags), 4);
    assert_eq!(records(&out).len(), 80);
    let (mut files, mut bytes, mut notes) = (0, 0, 0);
    for entry in std::fs::read_dir(format!("{out}/logs")).unwrap().flatten() {
        if entry.file_name().to_string_lossy().starts_with("bad.") {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            files += 1;
            bytes += text.len();
            notes += usize::from(text.contains("reached their budget of 67108864 bytes for this run"));
        }
    }
    assert!(bytes <= (64 << 20) + files * 300, "{files} logs hold {bytes} bytes");
    assert!(files < 80, "no log once the budget is spent: {files} files");
    assert_eq!(notes, 1, "the log that reached the budget says so");
}

#[test]
fn sizes_that_cannot_be_run_are_usage_errors_and_write_nothing() {
    let scratch = Scratch::new("sizes");
    let out = scratch.join("out");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let bots = [("g", greedy.as_str()), ("r", random.as_str())];
    for games in ["1000000000000", "18446744073709551615", "100000001"] {
        let (_, stderr) = arena_expect(&match_args(&scratch, &bots, &["--games", games, "--out", &out]), 2);
        assert!(stderr.contains(&format!("--games {games}: ")), "{stderr}");
        assert!(stderr.contains("a run may schedule at most 100000000"), "{stderr}");
        let mut league = match_args(&scratch, &bots, &["--games", games, "--out", &out]);
        league[0] = "league".to_string();
        let (_, stderr) = arena_expect(&league, 2);
        assert!(stderr.contains("a run may schedule at most 100000000"), "{stderr}");
        let sprt = ["sprt", "--new", &format!("g={greedy}"), "--base", &format!("r={random}"), "--max-games", games];
        let (_, stderr) = arena_expect(&[&sprt[..], &["--out", &out]].concat(), 2);
        assert!(stderr.contains("--max-games: ") && stderr.contains("at most 100000000"), "{stderr}");
        assert!(!std::path::Path::new(&out).exists(), "nothing is written");
    }
    let (_, stderr) = arena_expect(&match_args(&scratch, &bots, &["--variant", "max_hands=5001"]), 2);
    assert!(stderr.contains("max_hands must be at most 5000"), "{stderr}");
}

#[test]
fn a_record_line_past_the_maximum_is_refused_without_being_held() {
    let scratch = Scratch::new("huge-record");
    let out = scratch.join("out");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let mut args = match_args(&scratch, &[("g", &greedy), ("r", &random)], &["--games", "4", "--seed", "4"]);
    args[0] = "league".to_string();
    args.extend(["--out".to_string(), out.clone()]);
    arena_expect(&args, 0);
    let games = std::path::Path::new(&out).join("games.jsonl");
    let text = std::fs::read_to_string(&games).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // 70 MB on line 2: past the 64 MiB a record may take.
    let huge = format!("{{\"id\":9,\"game\":\"all-fives\",\"pad\":\"{}\"}}", "x".repeat(70_000_000));
    std::fs::write(&games, format!("{}\n{huge}\n{}\n", lines[0], lines[1..].join("\n"))).unwrap();
    let named = "line 2 is damaged: it is longer than the 67108864 bytes a record may take";
    for command in [
        vec!["view".to_string(), out.clone(), "--game".to_string(), "0".to_string()],
        vec![
            "replay".to_string(),
            out.clone(),
            "--game".to_string(),
            "0".to_string(),
            "--seat".to_string(),
            "0".to_string(),
            "--bot".to_string(),
            format!("new={greedy}"),
        ],
        vec!["league".to_string(), "--resume".to_string(), out.clone()],
        vec!["merge".to_string(), "--out".to_string(), scratch.join("merged"), out.clone()],
    ] {
        let (_, stderr) = arena_expect(&command, 2);
        assert!(stderr.contains(named), "arena {command:?}: {stderr}");
    }
    let (stdout, _) = arena_expect(&["verify", &out], 1);
    assert!(stdout.contains(":2: it is longer than the 67108864 bytes a record may take"), "{stdout}");
    assert!(stdout.contains("5 games verified: 1 disagree"), "{stdout}");
    let (_, stderr) = arena_expect(&["replay", &out, "--as", "g", "--bot", &format!("new={greedy}")], 2);
    assert!(stderr.contains(":2: it is longer than the 67108864 bytes"), "{stderr}");
}
