//! `arena play`: a person's seat, its moves piped in. The game is shown as
//! the seat sees it, bad answers are asked again, and the game is recorded
//! like any other (so `arena verify` and `arena view` take it); leaving the
//! game records nothing and leaves no process behind.

use e2e::*;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `arena play` with `input` on its stdin, under limits a busy machine
/// keeps (a bot's move read late would change the game); returns (status, stdout).
fn play(args: &[&str], input: &str) -> (Option<i32>, String) {
    let mut child = Command::new(bin("arena"))
        .arg("play")
        .args(args)
        .args(PATIENT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena starts");
    // The arena may stop reading early (it quits at `q`): a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let output = finish(child);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    (output.status.code(), stdout)
}

/// "1\n" many times: always the first legal move.
fn first_moves() -> String {
    "1\n".repeat(400)
}

#[test]
fn a_piped_game_is_shown_re_asked_and_recorded_like_any_other() {
    let scratch = Scratch::new("play-piped");
    let out = scratch.join("out");
    let greedy = format!("greedy={} {}", bin("greedy-bot"), scratch.marker());
    let input = format!("x\n0\n99\n{}", first_moves());
    let (status, stdout) = play(&["--bot", &greedy, "--seed", "3", "--out", &out], &input);
    assert_eq!(status, Some(0), "{stdout}");
    for wanted in [
        "you are seat 0 (you), seed 3",
        "hand 1 begins: seat 0 (you) holds ",
        "  layout:  (empty: the next tile played is the lead)",
        "     1. [",
        "rules: players=2 partners=false deal=standard boneyard_keep=0 hand_end=subtract-own target=250 max_hands=100 (",
        "  unseen:  [",
        "your move (1-",
        "\"x\" is not a move: answer with a number from 1 to ",
        "\"0\" is not a move",
        "\"99\" is not a move",
        "  open:    end 0 shows ",
        "seat 1 (greedy) plays ",
        "game over (",
        "recorded in ",
    ] {
        assert!(stdout.contains(wanted), "{wanted:?} not in:\n{stdout}");
    }
    let hint = format!("`{} view {out} --game 0 -o game.html` replays it", bin("arena"));
    assert!(stdout.contains(&hint), "the hint names the arena as it was run: {hint:?} not in:\n{stdout}");
    let records = records(&out);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].bots, ["you", "greedy"]);
    assert!(records[0].faults.is_empty());
    let (verified, _) = arena_expect(&["verify", &out], 0);
    assert!(verified.contains("1 games verified: every record agrees"), "{verified}");
    arena_expect(&["view", &out, "--game", "0", "-o", &scratch.join("game.html")], 0);
    // Every answer was "1": the record holds the first legal move at each of the seat's turns.
    let first = format!("first={} {}", python(), repo_path("tests/bots/first_legal.py"));
    let (replayed, _) = arena_expect(&[&["replay", &out, "--seat", "0", "--bot", &first][..], &PATIENT].concat(), 0);
    assert!(replayed.contains("first chose as recorded at all "), "{replayed}");
    assert!(scratch.leftover_processes().is_empty(), "{:?}", scratch.leftover_processes());
}

#[test]
fn any_seat_at_any_table_one_bot_for_all_other_seats_or_one_each() {
    let scratch = Scratch::new("play-tables");
    let greedy = format!("greedy={}", bin("greedy-bot"));
    let random = format!("random={}", bin("random-bot"));
    let out = scratch.join("three");
    let args = ["--players", "3", "--seat", "1", "--bot", &greedy, "--bot", &random, "--out", &out, "--seed", "5"];
    let (status, stdout) = play(&args, &first_moves());
    assert_eq!(status, Some(0), "{stdout}");
    assert_eq!(records(&out)[0].bots, ["greedy", "you", "random"]);
    let out = scratch.join("partners");
    let args = ["--players", "4", "--seat", "3", "--name", "me", "--bot", &greedy, "--out", &out];
    let (status, stdout) = play(&args, &first_moves());
    assert_eq!(status, Some(0), "{stdout}");
    assert_eq!(records(&out)[0].bots, ["greedy", "greedy", "greedy", "me"]);
    assert!(stdout.contains("seat 3 (me) to play"), "{stdout}");
    arena_expect(&["verify", &out], 0);
}

#[test]
fn leaving_the_game_records_nothing_and_leaves_no_process() {
    let scratch = Scratch::new("play-quit");
    let greedy = format!("greedy={} {}", bin("greedy-bot"), scratch.marker());
    for (label, input) in [("q", "1\nq\n"), ("eof", "1\n")] {
        let out = scratch.join(label);
        let (status, stdout) = play(&["--bot", &greedy, "--seed", "3", "--out", &out], input);
        assert_eq!(status, Some(130), "{label}: {stdout}");
        assert!(stdout.contains("you left the game: it is not recorded"), "{label}: {stdout}");
        assert_eq!(std::fs::read_to_string(format!("{out}/games.jsonl")).unwrap(), "", "{label}");
    }
    // Leaving the second game of a session: the first is recorded only with --out, as the message says.
    let rules = format!("rules={} --play rules {}", bin("leduc-bot"), scratch.marker());
    for out in [Some(scratch.join("session")), None] {
        let mut args = vec!["--game", "leduc", "--bot", &rules, "--games", "3", "--seed", "1"];
        args.extend(out.iter().flat_map(|out| ["--out", out.as_str()]));
        let (status, stdout) = play(&args, "1\n1\nq\n");
        assert_eq!(status, Some(130), "{stdout}");
        let said = match &out {
            Some(out) => {
                assert_eq!(records(out).len(), 1, "{stdout}");
                "you left game 2: it is not recorded (the 1 before it are)"
            }
            None => "you left game 2: no game is recorded, neither it nor the 1 before it (--out DIR records them)",
        };
        assert!(stdout.contains(said), "{said:?} not in:\n{stdout}");
    }
    assert!(scratch.leftover_processes().is_empty(), "{:?}", scratch.leftover_processes());
    let (_, stderr) = arena_expect(&["play", "--bot", &greedy, "--seat", "2"], 2);
    assert!(stderr.contains("--seat 2: this game has seats 0 to 1"), "{stderr}");
    let (_, stderr) = arena_expect(&["play", "--players", "4", "--bot", &greedy, "--bot", "r=sh"], 2);
    assert!(stderr.contains("give one --bot (it plays every other seat) or 3"), "{stderr}");
    let (_, stderr) = arena_expect(&["play", "--bot", "you=sh"], 2);
    assert!(stderr.contains("two players are named \"you\""), "{stderr}");
}

/// `--games N`: a session of Leduc hands, one after another in the same
/// processes, with the running total after each; every hand is recorded.
#[test]
fn a_session_of_leduc_hands_keeps_a_running_total() {
    let scratch = Scratch::new("play-session");
    let out = scratch.join("out");
    let rules = format!("rules={} --play rules {}", bin("leduc-bot"), scratch.marker());
    let args = ["play", "--game", "leduc", "--bot", &rules, "--games", "3", "--seed", "1", "--out", &out];
    let mut command = arena_command(&args);
    command.stdin(Stdio::piped());
    let mut child = command.spawn().expect("arena starts");
    // Always the first move: a check, or a fold when owing.
    child.stdin.take().unwrap().write_all("1\n".repeat(20).as_bytes()).unwrap();
    let output = finish(child);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let records = records(&out);
    assert_eq!(records.len(), 3);
    let mut total = 0;
    for (n, record) in records.iter().enumerate() {
        assert_eq!(record.deal, n as u64);
        total += record.result.scores[0];
        assert!(stdout.contains(&format!("\ngame {} of 3\n", n + 1)), "{stdout}");
        let line = format!("after {} of 3 games: totals seat 0 (you) {total} · seat 1 (rules) {}", n + 1, -total);
        assert!(stdout.contains(&line), "{line:?} not in:\n{stdout}");
    }
    let (verified, _) = arena_expect(&["verify", &out], 0);
    assert!(verified.contains("3 games verified: every record agrees"), "{verified}");
}

#[test]
fn piped_input_is_never_held_whole() {
    let scratch = Scratch::new("play-bounded");
    let greedy = format!("greedy={} {}", bin("greedy-bot"), scratch.marker());
    // A 200 MiB line, then many more answers than the game asks for, made by
    // the shell (so that this process, which the arena is forked from, stays small).
    let script = "{ head -c 209715200 /dev/zero | tr '\\0' 9; echo; yes 1 | head -n 100000; } | exec \"$0\" \"$@\"";
    // Python runs it and says the peak memory of the largest process it waited
    // for: a process this test binary starts counts the binary's own memory
    // (which other tests of the binary grow) until its exec, the arena does not.
    let measure = "import resource, subprocess, sys\n\
                   status = subprocess.run(sys.argv[1:]).returncode\n\
                   print('peak', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n\
                   sys.exit(status)";
    let mut shell = Command::new(python());
    shell.args(["-c", measure, "sh", "-c", script, &bin("arena"), "play", "--bot", &greedy, "--seed", "3"]);
    let output = output(&mut shell);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", &stdout[..stdout.len().min(2000)]);
    assert!(stdout.contains("game over ("), "{}", &stdout[..stdout.len().min(2000)]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let peak = stderr.lines().rev().find_map(|line| line.strip_prefix("peak "));
    let largest_kib: u64 = peak.and_then(|kib| kib.parse().ok()).unwrap_or_else(|| panic!("no peak in {stderr}"));
    // The largest of the arena and its processes stayed small.
    assert!(largest_kib < 100 << 10, "the arena grew to {largest_kib} KiB");
}
