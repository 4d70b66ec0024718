//! `arena check-bot`: every sample bot passes every check, and each
//! misbehaving bot of `tests/bots/` fails the check meant to catch it, with
//! the advice a bot author needs, and leaves no process behind.

use e2e::*;
use std::time::{Duration, Instant};

/// (script in tests/bots, a check it must fail)
const CASES: &[(&str, &str)] = &[
    ("crash_at_start.py", "handshake"),
    ("silent_hello.py", "handshake"),
    ("wrong_protocol.py", "handshake"),
    ("counts_ids.py", "request-ids"),
    ("late_answer.py", "answers-in-time"),
    ("never_moves.py", "answers-in-time"),
    ("not_json.py", "game:2-players"),
    ("wrong_id.py", "game:3-players"),
    ("illegal_value.py", "game:4-partners"),
    ("crash_mid_game.py", "game:4-players"),
    ("spinner_sides.py", "position:spinner-sides"),
    ("crash_on_hand_end.py", "position:next-hand"),
    ("one_game.py", "next-game"),
    ("ignore_sigterm.py", "exit-on-bye"),
    ("never_exits.py", "exit-on-eof"),
    ("escaped_child.py", "no-leftovers"),
];

/// The checks every run lists, in order.
const CHECKS: &[&str] = &[
    "handshake",
    "request-ids",
    "position:lead",
    "position:spinner-lead",
    "position:spinner-sides",
    "position:spinner-ends",
    "position:equal-ends",
    "position:double-at-end",
    "position:forced-draw",
    "position:next-hand",
    "position:after-pass",
    "position:partners",
    "game:2-players",
    "game:3-players",
    "game:4-partners",
    "game:4-players",
    "next-game",
    "exit-on-bye",
    "exit-on-eof",
    "answers-in-time",
    "no-leftovers",
];

/// Runs `arena check-bot` on `command` (tagged with the scratch marker);
/// returns the exit status and stdout.
fn check_bot(scratch: &Scratch, command: &str) -> (Option<i32>, String) {
    let bot = format!("{command} {}", scratch.marker());
    // What is checked here is that the bot speaks the protocol: limits a
    // busy machine keeps, where a bot may wait a second or more for a core
    // (at 500 ms, greedy-bot's moves were read late at load 25; the start-up
    // limit is the default: a Python bot under a loaded machine's other
    // tests once took over 3 s to answer hello; late_answer.py is late by
    // its turn's own limit, whatever it is); and more for a JVM, which
    // compiles the code it runs as it goes, four of them starting at once for
    // a 4-seat game while other tests run.
    let patient = ["--move-timeout", "5000", "--startup-timeout", "10000"];
    let jvm = ["--move-timeout", "10000", "--startup-timeout", "30000"];
    let limits = if command.contains("java") { &jvm[..] } else { &patient[..] };
    let output = arena(&[&["check-bot"][..], limits, &[&bot]].concat());
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The mark of each check in the checklist (`✓`, `✗` or `-`), by name.
fn marks(stdout: &str) -> Vec<(String, char)> {
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("  ")?;
            let mark = rest.chars().next().filter(|c| "✓✗-".contains(*c))?;
            let name = rest[mark.len_utf8()..].split_whitespace().next()?;
            Some((name.to_string(), mark))
        })
        .collect()
}

/// How many times a well-behaved bot is checked when only a timeout, a busy
/// machine's doing, fails it.
const ATTEMPTS: usize = 3;

/// Whether a check failed for want of an answer, or of an exit, in time.
fn timed_out(stdout: &str) -> bool {
    let late = |line: &str| line.contains("timeout") || line.contains(" within ") || line.contains("still running");
    stdout.lines().any(|line| line.trim_start().starts_with("problem:") && late(line))
}

/// The checks of a bot that also says how it plays: [`CHECKS`], with
/// `more` after `next-game`.
fn listing(more: &[&'static str]) -> Vec<&'static str> {
    let next = CHECKS.iter().position(|&check| check == "next-game").unwrap() + 1;
    let mut checks = CHECKS.to_vec();
    checks.splice(next..next, more.iter().copied());
    checks
}

/// A bot to check: a label, its command, the check it must fail (if any)
/// and the checks its checklist lists.
type Case = (String, String, Option<&'static str>, Vec<&'static str>);

/// Checks one bot, the checklist listing `checks`; returns what went
/// wrong, if anything. A well-behaved bot that fails only for want of time
/// is checked again (see [`ATTEMPTS`]).
fn verify((label, command, failing, checks): &Case) -> Result<(), String> {
    let failing = *failing;
    let scratch = Scratch::new(&format!("check-bot-{}", label.replace(['/', '.', ' '], "-")));
    for attempt in 1.. {
        let started = Instant::now();
        let (status, stdout) = check_bot(&scratch, command);
        let seconds = started.elapsed().as_secs_f64();
        eprintln!("{label}: {seconds:.1} s");
        let marks = marks(&stdout);
        let names: Vec<&str> = marks.iter().map(|(name, _)| name.as_str()).collect();
        let problem = if names != *checks {
            Some(format!("the checklist lists {names:?}"))
        } else {
            match failing {
                None if status != Some(0) || marks.iter().any(|(_, mark)| *mark != '✓') => {
                    Some(format!("not every check passed (status {status:?})"))
                }
                Some(check) if status != Some(1) => Some(format!("status {status:?}, not 1, although {check} fails")),
                Some(check) if !marks.contains(&(check.to_string(), '✗')) => Some(format!("{check} did not fail")),
                Some(_)
                    if !(stdout.contains("problem:") && stdout.contains("fix:") && stdout.contains("PROTOCOL.md#")) =>
                {
                    Some("a failure without its problem and fix".to_string())
                }
                _ => None,
            }
        };
        let left = scratch.lingering(LINGER);
        if problem.is_some() && failing.is_none() && timed_out(&stdout) && left.is_empty() && attempt < ATTEMPTS {
            eprintln!("notice: {label}: out of time (a busy machine), attempt {attempt}:\n{stdout}");
            continue;
        }
        return match (problem, left.is_empty()) {
            (None, true) => Ok(()),
            (problem, _) => Err(format!("{label}: {} {left:?}\n{stdout}", problem.unwrap_or_default())),
        };
    }
    unreachable!("the last attempt returns")
}

/// Runs `cases` three at a time; panics with every problem.
fn verify_all(cases: Vec<Case>) {
    let problems: Vec<String> = at_once(3, &cases, |case| verify(case).err()).into_iter().flatten().collect();
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn every_sample_bot_passes_every_check() {
    let cases = [
        ("greedy-bot", bin("greedy-bot")),
        ("random-bot", bin("random-bot")),
        // A small budget: the check is of the protocol, not of strength, and
        // a debug build searches slowly.
        ("search-bot", format!("{} --playouts 30", bin("search-bot"))),
        ("greedy.js", format!("node {}", repo_path("sample-bots/js/greedy.js"))),
    ];
    let mut cases: Vec<Case> =
        cases.into_iter().map(|(label, command)| (label.to_string(), command, None, CHECKS.to_vec())).collect();
    // greedy.py says it plays any seat.
    cases.push(("greedy.py".to_string(), python_greedy(), None, listing(&["any-seat"])));
    verify_all(cases);
}

#[test]
fn the_cpp_and_java_sample_bots_pass_every_check() {
    let build = Scratch::new("check-bot-build");
    let mut cases = Vec::new();
    if let Some(cpp) = cpp_greedy(build.path()) {
        cases.push(("greedy.cpp".to_string(), cpp, None, CHECKS.to_vec()));
    }
    if let Some(java) = java_greedy(build.path()) {
        cases.push(("Greedy.java".to_string(), java, None, CHECKS.to_vec()));
    }
    verify_all(cases);
}

#[test]
fn each_misbehaving_bot_fails_its_check() {
    let cases = CASES.iter().map(|(script, check)| {
        let command = format!("{} {}", python(), repo_path(&format!("tests/bots/{script}")));
        (script.to_string(), command, Some(*check), CHECKS.to_vec())
    });
    verify_all(cases.collect());
}

/// A bot that plays many games at once in one process is checked on games
/// interleaved in one session, answered out of order, and on a fault in one
/// of them (and, if it also plays any seat, on playing every seat in one
/// session); one that names no game in its answers fails.
#[test]
fn a_session_bot_is_checked_on_games_at_once() {
    let checks = listing(&["session:interleaved", "session:one-fault"]);
    let bot = format!("{} {} 4", python(), repo_path("tests/bots/batches.py"));
    verify_all(vec![
        ("batches.py".to_string(), bot.clone(), None, checks.clone()),
        ("batches.py untagged".to_string(), format!("{bot} untagged"), Some("session:interleaved"), checks),
        (
            "batches.py any-seat".to_string(),
            format!("{bot} any-seat"),
            None,
            listing(&["session:interleaved", "session:one-fault", "any-seat"]),
        ),
    ]);
}

/// A bot that says it plays any seat is checked on one process playing a
/// whole game in each seat in turn; one that plays only the seat `hello`
/// gave it fails, and so does one whose later processes do not say it.
#[test]
fn a_bot_that_plays_any_seat_is_checked_in_every_seat() {
    let checks = listing(&["any-seat"]);
    let script = |name: &str| format!("{} {}", python(), repo_path(&format!("tests/bots/{name}")));
    verify_all(vec![
        ("witness.py --any-seat".to_string(), format!("{} --any-seat", script("witness.py")), None, checks.clone()),
        ("one_seat.py".to_string(), script("one_seat.py"), Some("any-seat"), checks.clone()),
        ("any_seat_once.py".to_string(), script("any_seat_once.py"), Some("any-seat"), checks),
    ]);
}

#[test]
fn a_command_that_cannot_run_is_a_usage_error() {
    let output = arena(&["check-bot", "surely-no-such-bot-program"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not found in PATH"));
}

#[test]
fn an_interrupted_check_leaves_nothing_behind() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let scratch = Scratch::new("check-bot-interrupted");
    let bot = format!("{} {} {}", python(), repo_path("tests/bots/escaped_child.py"), scratch.marker());
    let child = std::process::Command::new(bin("arena"))
        .args(["check-bot", &bot])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("arena starts");
    // (A Python bot may take seconds to start on a busy machine.)
    let deadline = Instant::now() + Duration::from_secs(60);
    while scratch.leftover_processes().len() < 2 {
        assert!(Instant::now() < deadline, "the bot never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).expect("signal sent");
    assert_eq!(finish(child).status.code(), Some(130));
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn the_bot_is_checked_under_the_limits_given() {
    let scratch = Scratch::new("check-bot-limits");
    // Starts only under an address-space limit of 1G (`ulimit -v` counts KiB).
    let bot = format!("sh -c 'test \"$(ulimit -v)\" = 1048576 && exec {}' {}", bin("greedy-bot"), scratch.marker());
    let run = |extra: &[&str]| {
        let output = arena(&[&["check-bot"], &PATIENT[..], extra, &[bot.as_str()]].concat());
        (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let (status, stdout) = run(&["--limit", "address-space=1G"]);
    assert_eq!(status, Some(0), "{stdout}");
    assert!(stdout.contains("limits cpu=none address-space=1073741824 "), "{stdout}");
    let (status, stdout) = run(&[]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(marks(&stdout).contains(&("handshake".to_string(), '✗')), "{stdout}");
    let (_, stderr) = arena_expect(&["check-bot", "--limit", "colour=red", "sh"], 2);
    assert!(stderr.contains("colour"), "{stderr}");
}

/// What `check-bot` tells a bot in its whole games is what a match tells it:
/// the bot's name (from its script) and the rules a match has by default.
#[test]
fn check_bot_hellos_are_those_of_a_real_match() {
    let scratch = Scratch::new("check-bot-looks-real");
    let (checked, matched) = (scratch.path().join("checked"), scratch.path().join("matched"));
    let recorder = |dir: &std::path::Path| {
        std::fs::create_dir_all(dir).unwrap();
        format!("{} {} {}", python(), repo_path("tests/bots/recorder.py"), dir.display())
    };
    let hellos = |dir: &std::path::Path| -> Vec<serde_json::Value> {
        let logs = std::fs::read_dir(dir).unwrap().map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap());
        let lines: Vec<String> = logs.flat_map(|log| log.lines().map(str::to_string).collect::<Vec<_>>()).collect();
        lines.iter().filter(|l| l.contains("\"type\":\"hello\"")).map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    // (Limits a busy machine keeps: a timeout would end the checks' games early.)
    let real_match = match_args(
        &scratch,
        &[("recorder", &recorder(&matched)), ("g", &bin("greedy-bot"))],
        &patient(&["--games", "2"]),
    );
    arena_expect(&real_match, 0);
    let real = hellos(&matched).into_iter().find(|h| h["name"] == "recorder").expect("the recorder's hello");
    let output =
        arena(&[&["check-bot"][..], &PATIENT, &[&format!("{} {}", recorder(&checked), scratch.marker())]].concat());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("check-bot: recorder ("), "{stdout}");
    let told = hellos(&checked);
    assert!(told.len() > 10, "{told:?}");
    for hello in &told {
        assert_eq!(hello["name"], "recorder", "{hello}");
        assert_eq!(hello["variant"]["max_hands"], real["variant"]["max_hands"], "{hello}");
    }
    assert!(told.iter().any(|hello| hello["variant"] == real["variant"]), "a 2-player game by the default rules");
}

#[test]
fn a_sandboxed_check_still_plays_the_next_game_with_the_same_process() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    // In a match, a sandboxed process plays one game; check-bot keeps it for its next one all the same.
    let bot = format!("{} {}", python(), repo_path("tests/bots/one_game.py"));
    let output = arena(&[&["check-bot", "--sandbox", "bwrap"][..], &PATIENT, &[&bot]].concat());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(marks(&stdout).contains(&("next-game".to_string(), '✗')), "{stdout}");
}
