//! Hostile bots: one tiny program in `tests/bots/` per misbehaviour, each
//! played in a league beside two well-behaved bots. For every one the league
//! finishes in bounded time, the right fault (or none) is recorded against
//! the hostile bot only, the games of the other bots are exactly those of a
//! league without it, the arena's own memory stays small, and once `arena`
//! exits no process started for any bot remains.

use e2e::*;
use records::fault::FaultKind;
use records::record::FaultRecord;
use std::time::Instant;

/// The move limit of these leagues: ample for every move of the well-behaved
/// bots (and of the hostile ones before they misbehave) on a busy machine,
/// where a bot may wait a second or more for a core. The bots that are late
/// on purpose read the limit from their turn and are later still.
const MOVE_TIMEOUT: &str = "5000";

/// (script in tests/bots, the fault it must cause — None: it must play on without one, extra flags)
const CASES: &[(&str, Option<&str>, &[&str])] = &[
    ("crash_at_start.py", Some("exited"), &[]),
    ("exits_at_once.py", Some("exited"), &[]),
    // (Time enough for greedy-bot and random-bot to start on a busy machine.)
    ("silent_hello.py", Some("timeout"), &["--startup-timeout", "3000"]),
    ("crash_mid_game.py", Some("exited"), &[]),
    ("hang_mid_game.py", Some("timeout"), &[]),
    ("late_answer.py", Some("timeout"), &[]),
    // Answered in time, but read past the limit (the arena ran late).
    ("stops_arena.py", Some("timeout"), &[]),
    ("half_line.py", Some("timeout"), &[]),
    ("close_stdout.py", Some("closed_stdout"), &[]),
    ("not_json.py", Some("not_json"), &[]),
    ("bad_utf8.py", Some("not_json"), &[]),
    ("wrong_shape.py", Some("bad_message"), &[]),
    ("misplaced.py", Some("bad_message"), &[]),
    ("wrong_id.py", Some("wrong_id"), &[]),
    ("stale_id.py", Some("wrong_id"), &[]),
    ("answers_twice.py", Some("protocol"), &[]),
    ("answers_early.py", Some("protocol"), &[]),
    ("form_feed.py", Some("not_json"), &[]),
    ("illegal_index.py", Some("illegal_move"), &[]),
    ("illegal_value.py", Some("illegal_move"), &[]),
    ("long_line.py", Some("line_too_long"), &[]),
    ("huge_line.py", Some("line_too_long"), &[]),
    ("orphan_child.py", Some("exited"), &[]),
    ("memory_hog.py", Some("exited"), &["--limit", "address-space=200M"]),
    // Whichever comes first: an answer written ahead of its turn, or the
    // arena's request not written because the bot's stdin pipe is full.
    ("stops_reading.py", Some("protocol|timeout"), &[]),
    ("stderr_flood.py", None, &[]),
    ("ignore_sigterm.py", None, &[]),
    ("escaped_child.py", None, &[]),
    ("many_processes.py", None, &[]),
];

/// The cases where how the arena waits for a bot makes a difference: a
/// worker with one game waits on the bot's pipes itself, and leaves to the
/// runtime whatever else happens (stderr, an exit, a late or cut answer); a
/// worker with several games waits through the runtime throughout.
const WAITING_CASES: &[&str] = &[
    "crash_mid_game.py",
    "hang_mid_game.py",
    "half_line.py",
    "close_stdout.py",
    "answers_twice.py",
    "answers_early.py",
    "huge_line.py",
    "orphan_child.py",
    "stops_reading.py",
    "stderr_flood.py",
    "escaped_child.py",
];

/// How a league's games share the arena's threads.
#[derive(Clone, Copy, PartialEq)]
enum Threads {
    /// One game at a time (`--concurrency 1`): the worker waits in place.
    Own,
    /// Two games at once on one CPU (the arena confined to it, as `taskset`
    /// does): one worker plays both, waiting through its runtime.
    Shared,
}

/// The games between the two well-behaved bots, without timing fields.
fn games_without(records: &[Record], hostile: &str) -> Vec<String> {
    records
        .iter()
        .filter(|r| !r.bots.iter().any(|b| b == hostile))
        .map(|r| without_timing(serde_json::to_value(r).unwrap()).to_string())
        .collect()
}

/// How many times a league is played when a timeout that no bot caused
/// spoils it.
const ATTEMPTS: usize = 3;

/// Runs the league with `hostile` (a command) as the first bot (with the
/// default start-up timeout: a Python bot may take seconds to start on a
/// busy machine) into `name`; returns (records, stdout, stderr, seconds).
///
/// A timeout of a bot that is not meant to time out (either well-behaved
/// bot, or the hostile one unless `timeouts` says it times out) is a busy
/// machine's doing: the league is then played again, up to [`ATTEMPTS`]
/// times in all, with a notice.
fn league(
    scratch: &Scratch,
    name: &str,
    hostile: &str,
    extra: &[&str],
    timeouts: bool,
    threads: Threads,
) -> (Vec<Record>, String, String, f64) {
    let out = scratch.join(name);
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let concurrency = if threads == Threads::Own { "1" } else { "2" };
    let flags = ["--games", "2", "--seed", "8", "--concurrency", concurrency, "--move-timeout", MOVE_TIMEOUT];
    let mut args = match_args(scratch, &[("bad", hostile), ("g", &greedy), ("r", &random)], &flags);
    args[0] = "league".to_string();
    args.extend(["--out".to_string(), out.clone()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    for attempt in 1.. {
        let started = Instant::now();
        let output = output(&mut arena_command(&args));
        let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        let (stdout, stderr) = (stdout.into_owned(), stderr.into_owned());
        let records = records(&out);
        // Exit status 4 when the hostile bot forfeited every game it was in, else 0.
        let theirs = records.iter().filter(|r| r.bots.iter().any(|b| b == "bad"));
        let forfeited_all = theirs.clone().all(|r| r.faults.iter().any(|f| f.bot == "bad"));
        let status = if forfeited_all && theirs.count() > 0 { 4 } else { 0 };
        assert_eq!(output.status.code(), Some(status), "{hostile}:\n{stdout}\n{stderr}");
        let unexplained: Vec<&FaultRecord> = records
            .iter()
            .flat_map(|r| &r.faults)
            .filter(|f| f.kind == FaultKind::Timeout && (f.bot != "bad" || !timeouts))
            .collect();
        if unexplained.is_empty() || attempt == ATTEMPTS {
            return (records, stdout, stderr, started.elapsed().as_secs_f64());
        }
        eprintln!(
            "notice: {hostile}: a timeout that no bot caused (a busy machine), attempt {attempt}: {unexplained:?}"
        );
        std::fs::remove_dir_all(&out).expect("the spoilt league's output is removed");
    }
    unreachable!("the last attempt returns")
}

fn run_case(script: &str, expected: Option<&str>, extra: &[&str], reference: &[String], threads: Threads) {
    if threads == Threads::Shared {
        // The arena started from this thread has its one CPU.
        let mut one = nix::sched::CpuSet::new();
        let allowed = nix::sched::sched_getaffinity(nix::unistd::Pid::from_raw(0)).expect("the affinity is readable");
        let first = (0..nix::sched::CpuSet::count()).find(|&cpu| allowed.is_set(cpu).unwrap_or(false));
        one.set(first.expect("a CPU is allowed")).unwrap();
        nix::sched::sched_setaffinity(nix::unistd::Pid::from_raw(0), &one).expect("the thread can be confined");
    }
    let mode = if threads == Threads::Own { "" } else { "shared-" };
    let scratch = Scratch::new(&format!("hostile-{mode}{}", script.trim_end_matches(".py")));
    let hostile = format!("{} {}", python(), repo_path(&format!("tests/bots/{script}")));
    // `expected` may name alternatives, as "protocol|timeout".
    let kinds: Vec<&str> = expected.map_or_else(Vec::new, |kind| kind.split('|').collect());
    let (records, stdout, stderr, seconds) =
        league(&scratch, "out", &hostile, extra, kinds.contains(&"timeout"), threads);
    // (That it ends at all, within `DEADLINE`, is what `arena_expect` checks.)
    assert_eq!(records.len(), 6, "{script}: the league runs to its end");
    let faults: Vec<&FaultRecord> = records.iter().flat_map(|r| &r.faults).collect();
    match expected {
        Some(_) => {
            assert!(!faults.is_empty(), "{script}: no fault recorded");
            assert!(
                kinds.iter().any(|kind| stderr.contains(&format!(": {kind}: "))),
                "{script}: the fault is reported as it happens:\n{stderr}"
            );
        }
        None => assert!(faults.is_empty(), "{script}: unexpected faults {faults:?}"),
    }
    for fault in &faults {
        assert_eq!(fault.bot, "bad", "{script}: only the hostile bot faults: {fault:?}");
        // After three start-up failures in a row the bot is given up on.
        let expected = faults.iter().filter(|f| kinds.contains(&f.kind.name())).count();
        let given_up = fault.kind == FaultKind::NotStarted && expected >= 3;
        assert!(given_up || kinds.contains(&fault.kind.name()), "{script}: {fault:?}");
        assert!(!fault.message.is_empty());
    }
    for record in records.iter().filter(|r| !r.faults.is_empty()) {
        assert_eq!(record.result.reason, "forfeit", "{script}");
        let seat = record.faults[0].seat;
        assert_eq!(record.result.ranks[seat], 1, "{script}: the faulting seat loses");
        assert_eq!(record.result.ranks[1 - seat], 0, "{script}: the opponent wins");
    }
    assert_eq!(games_without(&records, "bad"), reference, "{script}: the other bots' games changed");
    let peak: f64 = stdout
        .split("peak memory ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|mb| mb.parse().ok())
        .unwrap_or_else(|| panic!("{script}: no peak memory in:\n{stdout}"));
    assert!(peak < 64.0, "{script}: the arena peaked at {peak} MB");
    eprintln!("{script}: {seconds:.1} s, arena peak memory {peak:.1} MB");
    let left = scratch.lingering(LINGER);
    assert!(left.is_empty(), "{script}: processes left behind: {left:?}");
}

/// Plays each of `cases` (four at a time: many wait on timeouts) in
/// `threads`, and checks it against the games of a league without it.
fn contain(name: &str, cases: &[(&'static str, Option<&'static str>, &'static [&'static str])], threads: Threads) {
    let scratch = Scratch::new(name);
    let polite = format!("{} {}", python(), repo_path("tests/bots/first_legal.py"));
    let (records, ..) = league(&scratch, "reference", &polite, &[], false, Threads::Own);
    let reference = games_without(&records, "bad");
    assert_eq!(reference.len(), 2);
    let failures: Vec<&str> = at_once(4, cases, |&(script, expected, extra)| {
        let reference = reference.clone();
        let case = std::thread::spawn(move || run_case(script, expected, extra, &reference, threads));
        case.join().is_err().then_some(script)
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "failed cases: {failures:?}");
}

#[test]
fn hostile_bots_are_contained() {
    contain("hostile-reference", CASES, Threads::Own);
}

#[test]
fn hostile_bots_are_contained_by_a_worker_with_two_games() {
    let cases: Vec<_> = CASES.iter().copied().filter(|(script, ..)| WAITING_CASES.contains(script)).collect();
    assert_eq!(cases.len(), WAITING_CASES.len(), "every waiting case is a case");
    contain("hostile-shared-reference", &cases, Threads::Shared);
}

#[test]
fn a_move_written_ahead_while_the_arena_waits_for_the_other_seat_is_a_protocol_fault() {
    // One game at a time: the arena waits for the other seat in place, on
    // that seat's pipes only, and must still find the line written ahead.
    let scratch = Scratch::new("ahead-while-waiting");
    let (out, gate) = (scratch.join("out"), scratch.join("gate"));
    let ahead = format!("{} {} {gate}", python(), repo_path("tests/bots/writes_ahead.py"));
    let gated = format!("{} {} {gate}", python(), repo_path("tests/bots/gated.py"));
    let flags = ["--games", "2", "--seed", "3", "--concurrency", "1", "--move-timeout", MOVE_TIMEOUT, "--out", &out];
    // Exit status 4: the bot forfeited every game it was in.
    arena_expect(&match_args(&scratch, &[("ahead", &ahead), ("gated", &gated)], &flags), 4);
    assert!(
        std::path::Path::new(&format!("{gate}.ahead")).exists(),
        "the lines ahead were written while the other seat was asked its move"
    );
    // A process per seat: each writes ahead on its 4th turn.
    let faults: Vec<FaultRecord> = records(&out).into_iter().flat_map(|r| r.faults).collect();
    assert_eq!(faults.len(), 2, "{faults:?}");
    for fault in &faults {
        assert_eq!((fault.bot.as_str(), fault.kind), ("ahead", FaultKind::Protocol));
        let message = &fault.message;
        assert!(message.contains("wrote to stdout before the arena asked for the answer to turn 5"), "{message}");
    }
}

#[test]
fn a_crashing_bot_keeps_its_stderr_in_the_record_and_the_log() {
    let scratch = Scratch::new("stderr-tail");
    let out = scratch.join("out");
    let script = scratch.join("noisy_crash.py");
    std::fs::write(
        &script,
        "import sys\nsys.stderr.write('about to fail: no strategy\\n')\nsys.stderr.flush()\nsys.exit(4)\n",
    )
    .unwrap();
    let (crash, greedy) = (format!("{} {script}", python()), bin("greedy-bot"));
    let flags = patient(&["--games", "2", "--out", &out]);
    // Exit status 4: the bot forfeited every game it was in.
    arena_expect(&match_args(&scratch, &[("bad", &crash), ("good", &greedy)], &flags), 4);
    let records = records(&out);
    let fault = &records[0].faults[0];
    assert_eq!(fault.kind, FaultKind::Exited);
    assert!(fault.message.contains("status 4"), "{fault:?}");
    assert_eq!(fault.stderr[0], "about to fail: no strategy");
    let logs: Vec<_> = std::fs::read_dir(std::path::Path::new(&out).join("logs")).unwrap().flatten().collect();
    let bad_log =
        logs.iter().find(|e| e.file_name().to_string_lossy().starts_with("bad.")).expect("a log of the bad bot");
    assert!(std::fs::read_to_string(bad_log.path()).unwrap().contains("about to fail"));
}

#[test]
fn a_stderr_flood_is_capped_in_the_log() {
    let scratch = Scratch::new("stderr-cap");
    let flood = format!("{} {}", python(), repo_path("tests/bots/stderr_flood.py"));
    league(&scratch, "out", &flood, &[], false, Threads::Own);
    let logs = std::fs::read_dir(format!("{}/logs", scratch.join("out"))).unwrap();
    let mut flooded = 0;
    for entry in logs.flatten().filter(|e| e.file_name().to_string_lossy().starts_with("bad.")) {
        let size = entry.metadata().unwrap().len();
        assert!(size <= (1 << 20) + 200, "{:?} holds {size} bytes", entry.path());
        let text = std::fs::read_to_string(entry.path()).unwrap();
        if text.contains("[arena: log capped at 1048576 bytes;") {
            flooded += 1;
        }
    }
    assert!(flooded > 0, "no log reached its cap");
}

/// Once a bot is given up, none of its processes plays again, not even one
/// that started before and waits idle for its next game.
#[test]
fn a_bot_given_up_plays_no_more_games_even_with_a_process_at_hand() {
    let scratch = Scratch::new("given-up-idle");
    let out = scratch.join("out");
    // Its first process starts; every later start fails: in its games at
    // the other seat, while the first process plays its games at its own,
    // until three starts in a row failed.
    let counter = scratch.join("starts");
    let once = format!("COUNTER={counter} {} {}", python(), repo_path("tests/bots/starts_once.py"));
    // Processes kept for the whole run: a process of each lane ends with it.
    let flags = patient(&["--games", "8", "--seed", "3", "--concurrency", "1", "--restart", "off", "--out", &out]);
    arena_expect(&match_args(&scratch, &[("once", &once), ("g", &bin("greedy-bot"))], &flags), 0);
    let records = records(&out);
    let fault = |r: &Record| r.fault_kinds();
    let seat = |r: &Record| r.seat_of("once");
    let kinds: Vec<Vec<&str>> = records.iter().map(fault).collect();
    let count = |kind: &[&str]| kinds.iter().filter(|k| k.as_slice() == kind).count();
    // (Seed 3 plays this bot's seats, in play order, so that it has played
    // a game with its first process when it is given up.)
    assert_eq!((count(&[]), count(&["exited"]), count(&["not_started"])), (1, 3, 4), "{kinds:?}");
    let played: Vec<usize> = records.iter().filter(|r| fault(r).is_empty()).map(seat).collect();
    let exited: Vec<usize> = records.iter().filter(|r| fault(r) == ["exited"]).map(seat).collect();
    assert!(played.iter().all(|&s| s == played[0]) && exited.iter().all(|&s| s != played[0]), "{kinds:?}");
    let at_hand = records.iter().filter(|r| fault(r) == ["not_started"] && seat(r) == played[0]).count();
    assert!(at_hand > 0, "no game at the seat of the process at hand was forfeited: {kinds:?}");
}

#[test]
fn a_bot_that_never_starts_is_given_up_after_three_tries() {
    let scratch = Scratch::new("never-starts");
    let out = scratch.join("out");
    let starts = scratch.join("starts");
    let silent = format!("{} {}", python(), repo_path("tests/bots/silent_hello.py"));
    let counted = format!("COUNTER={starts} {silent}");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    // (Mostly time enough for greedy-bot and random-bot to start on a busy machine.)
    let flags = ["--games", "20", "--seed", "3", "--concurrency", "1", "--startup-timeout", "3000", "--out", &out];
    let mut args = match_args(&scratch, &[("bad", &counted), ("g", &greedy), ("r", &random)], &flags);
    args[0] = "league".to_string();
    // A fault of greedy-bot or random-bot (too slow to start) is a busy machine's doing: played again.
    let mut attempt = 0;
    let (stdout, stderr, kinds) = loop {
        attempt += 1;
        let _ = std::fs::remove_dir_all(&out);
        let _ = std::fs::remove_file(&starts);
        // Exit status 4: the bot forfeited every game it was in.
        let (stdout, stderr) = arena_expect(&args, 4);
        let records = records(&out);
        let faults: Vec<&FaultRecord> = records.iter().flat_map(|r| &r.faults).collect();
        let theirs: Vec<&&FaultRecord> = faults.iter().filter(|f| f.bot != "bad").collect();
        if theirs.is_empty() || attempt == ATTEMPTS {
            let kinds: Vec<String> = faults.iter().map(|f| f.kind.name().to_string()).collect();
            break (stdout, stderr, kinds);
        }
        eprintln!("notice: a fault the silent bot did not cause (a busy machine), attempt {attempt}: {theirs:?}");
    };
    // 40 games of the silent bot would take 40 start-up timeouts; it pays for
    // 3 (the 3 timeouts below), and no process of it starts after them: the
    // processes of its first lanes (both seats of the two lanes of the one
    // unit, its start-up not known yet) start together, each failed one is
    // replaced for the rest of its lane, until the third failure. (A process
    // counts its start once Python runs it: on a busy machine one may be
    // killed at its 3 s before it has, so fewer may be counted.)
    let started = std::fs::read(&starts).map_or(0, |counted| counted.len());
    assert!(started <= 8, "{started} processes of the silent bot started");
    assert_eq!(kinds.len(), 40);
    assert_eq!(kinds.iter().filter(|k| *k == "timeout").count(), 3, "{kinds:?}");
    assert!(kinds.iter().all(|k| k == "timeout" || k == "not_started"), "{kinds:?}");
    assert_eq!(stderr.matches(": not_started: ").count(), 1, "said once:\n{stderr}");
    assert!(stderr.contains("not started: it failed to start in 3 games in a row"), "{stderr}");
    assert!(stdout.contains("faults by bot:\n  bad: 40 faults: 3 timeout, 37 not_started\n"), "{stdout}");
    assert!(stdout.contains("timeout, first: no complete line as the answer to hello within 3000 ms"), "{stdout}");
    assert!(
        stderr.ends_with("bad forfeited every one of its 40 games (see its faults above): exit status 4\n"),
        "{stderr}"
    );
    scratch.assert_nothing_left(LINGER);

    // An SPRT means nothing without its base bot: it stops, with the status of a bot that never played.
    let sprt = scratch.join("sprt");
    let new = format!("--new=new={greedy} {}", scratch.marker());
    let base = format!("--base=base={silent} {}", scratch.marker());
    let (_, stderr) =
        arena_expect(&["sprt", &new, &base, "--startup-timeout", "3000", "--concurrency", "1", "--out", &sprt], 4);
    assert!(
        stderr.contains("error: bot \"base\" cannot be started: it failed to start in 3 games in a row"),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("continue with: {} sprt --resume", bin("arena"))), "{stderr}");
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn a_bot_that_fails_to_start_says_why_on_the_console_and_in_the_record() {
    let scratch = Scratch::new("startup-why");
    let out = scratch.join("out");
    // As the JVM does under too low an address-space limit: the reason on stdout.
    let script = scratch.join("jvm_like.py");
    std::fs::write(
        &script,
        "import sys\nprint('Error occurred during initialization of VM')\n\
         print('Could not allocate compressed class space: 1073741824 bytes')\n\
         sys.stderr.write('see the JVM flags\\n')\nsys.exit(1)\n",
    )
    .unwrap();
    let (jvm_like, greedy) = (format!("{} {script}", python()), bin("greedy-bot"));
    let args =
        match_args(&scratch, &[("jvm", &jvm_like), ("good", &greedy)], &patient(&["--games", "2", "--out", &out]));
    // Exit status 4: the bot forfeited every game it was in.
    let (_, stderr) = arena_expect(&args, 4);
    let fault = &records(&out)[0].faults[0];
    assert_eq!(fault.kind, FaultKind::NotJson);
    let message = fault.message.as_str();
    assert!(message.contains("Error occurred during initialization of VM"), "{message}");
    assert!(message.contains("then on stdout: Could not allocate compressed class space"), "{message}");
    assert!(stderr.contains("Could not allocate compressed class space"), "{stderr}");
    assert!(stderr.contains("its stderr ended: see the JVM flags"), "{stderr}");

    // The console line of a fault ends with the last line of the bot's stderr.
    let missing = format!("{} {}", python(), scratch.join("nosuch.py"));
    let out = scratch.join("out2");
    let flags = patient(&["--games", "2", "--out", &out]);
    let args = match_args(&scratch, &[("missing", &missing), ("good", &greedy)], &flags);
    let (_, stderr) = arena_expect(&args, 4);
    let line = stderr.lines().find(|l| l.starts_with("fault: ")).expect("a fault line");
    assert!(line.contains("exited with status 2") && line.contains("No such file or directory"), "{line}");
}

#[test]
fn common_mistakes_are_named_in_the_fault() {
    let scratch = Scratch::new("named-mistakes");
    let greedy = bin("greedy-bot");
    for (script, kind, wanted) in [
        ("double_newline.py", "not_json", "an empty line where an answer was due"),
        ("move_without_end.py", "illegal_move", "`end` is missing (or null), which names the lead"),
    ] {
        let out = scratch.join(script);
        let bot = format!("{} {}", python(), repo_path(&format!("tests/bots/{script}")));
        let flags = patient(&["--games", "2", "--out", &out]);
        // Exit status 4: the bot forfeited every game it was in.
        arena_expect(&match_args(&scratch, &[("bad", &bot), ("good", &greedy)], &flags), 4);
        let records = records(&out);
        let fault = &records[0].faults[0];
        assert_eq!(fault.kind.name(), kind, "{script}: {fault:?}");
        assert!(fault.message.contains(wanted), "{script}: {fault:?}");
    }
}

/// `arena match`'s exit statuses (docs/matches.md, "Stopping, and exit
/// status"): 0 played, even with some faults; 4 when a bot never played (a
/// typo in its script), with or without --fail-on-fault; 5 with
/// --fail-on-fault when a bot faulted; 1 when the arena fails; 2 for a usage
/// error; 130 when interrupted.
#[test]
fn match_exit_statuses_tell_a_bot_that_never_played_and_any_fault() {
    let scratch = Scratch::new("match-statuses");
    let greedy = bin("greedy-bot");
    let typo = format!("{} {}", python(), repo_path("tests/bots/no_such_bot.py"));
    // Plays one game a process, so it faults in every other game of a lane, not in all.
    let sometimes = format!("{} {}", python(), repo_path("tests/bots/one_game.py"));
    let run = |bot: &str, extra: &[&str], status: i32| {
        let mut flags = patient(&["--games", "20", "--concurrency", "1", "--seed", "1"]);
        flags.extend(extra);
        arena_expect(&match_args(&scratch, &[("greedy", &greedy), ("b", bot)], &flags), status)
    };

    let out = scratch.join("sometimes");
    let (_, stderr) = run(&sometimes, &["--out", &out], 0);
    let faults = Standings::read(&out).bot("b").faults;
    assert!(faults > 0 && faults < 20, "b faults in some games, not all: {faults}");
    assert!(!stderr.contains("exit status"), "{stderr}");
    let (_, stderr) = run(&sometimes, &["--fail-on-fault"], 5);
    assert!(stderr.contains(&format!("faults by b ({faults}) and --fail-on-fault: exit status 5")), "{stderr}");

    for extra in [&[][..], &["--fail-on-fault"]] {
        let (_, stderr) = run(&typo, extra, 4);
        assert!(
            stderr.contains("b forfeited every one of its 20 games (see its faults above): exit status 4"),
            "{stderr}"
        );
    }
    run(&greedy, &["--fail-on-fault"], 0);

    let (_, stderr) = run(&greedy, &["--engine", "python3 -c 'import sys; sys.exit(1)'"], 1);
    assert!(stderr.contains("error: engine"), "{stderr}");
    let (_, stderr) = arena_expect(&["match", "--bot", &format!("a={greedy}"), "--fail-on-fault"], 2);
    assert!(stderr.contains("give 2 --bot (got 1)"), "{stderr}");

    let out = scratch.join("cut");
    let extra = ["--games", "100000", "--fail-on-fault", "--out", &out];
    let args = match_args(&scratch, &[("greedy", &greedy), ("b", &sometimes)], &extra);
    let arena = arena_command(&args).spawn().expect("arena starts");
    wait_for_records(&out, 4);
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(arena.id() as i32), nix::sys::signal::Signal::SIGTERM).unwrap();
    let output = finish(arena);
    assert_eq!(output.status.code(), Some(130), "interrupted, whatever the faults: {output:?}");
    scratch.assert_nothing_left(LINGER);
}

/// `arena league`'s and `arena sprt`'s exit statuses are `arena match`'s
/// (docs/leagues.md, docs/sprt.md): 4 when a bot forfeited every game it was
/// in, with or without --fail-on-fault, in every format; 5 with
/// --fail-on-fault when a bot faulted; for an SPRT, whatever its verdict.
#[test]
fn league_and_sprt_exit_statuses_tell_a_bot_that_never_played_and_any_fault() {
    let scratch = Scratch::new("league-statuses");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let typo = format!("{} {}", python(), repo_path("tests/bots/no_such_bot.py"));
    // Plays one game a process, so it faults in every other game of a lane, not in all.
    let sometimes = format!("{} {}", python(), repo_path("tests/bots/one_game.py"));
    let league = |bot: &str, extra: &[&str], status: i32| {
        let mut flags = patient(&["--games", "6", "--concurrency", "1", "--seed", "1"]);
        flags.extend(extra);
        let mut args = match_args(&scratch, &[("greedy", &greedy), ("random", &random), ("b", bot)], &flags);
        args[0] = "league".to_string();
        arena_expect(&args, status)
    };
    for format in ["round-robin", "learning", "swiss"] {
        for extra in [&["--format", format][..], &["--format", format, "--fail-on-fault"]] {
            let (_, stderr) = league(&typo, extra, 4);
            let last = stderr.lines().last().unwrap_or_default();
            assert!(last.starts_with("b forfeited every one of its "), "{format}: {stderr}");
            assert!(last.ends_with(" games (see its faults above): exit status 4"), "{format}: {stderr}");
        }
    }
    let out = scratch.join("sometimes");
    let (_, stderr) = league(&sometimes, &["--out", &out], 0);
    let faults = Standings::read(&out).bot("b").faults;
    assert!(faults > 0 && faults < 12, "b faults in some games, not all: {faults}");
    assert!(!stderr.contains("exit status"), "{stderr}");
    let (_, stderr) = league(&sometimes, &["--fail-on-fault"], 5);
    assert!(stderr.ends_with(&format!("faults by b ({faults}) and --fail-on-fault: exit status 5\n")), "{stderr}");
    league(&greedy, &["--fail-on-fault"], 0);
    // A resumed league is judged on all its games.
    arena_expect(&["league", "--resume", &out, "--fail-on-fault"], 5);
    arena_expect(&["league", "--resume", &out], 0);

    // An SPRT's verdict does not hide a bot's faults.
    let sprt = |new: &str, extra: &[&str], status: i32| {
        let (new, base) = (format!("--new=new={new} {}", scratch.marker()), format!("--base=base={random}"));
        // Limits a busy machine keeps: a timeout would be a fault of its own.
        let flags = patient(&["--bounds", "quick", "--seed", "2", "--concurrency", "1"]);
        arena_expect(&[&["sprt", &new, &base][..], &flags, extra].concat(), status)
    };
    sprt(&greedy, &["--fail-on-fault"], 0);
    let (stdout, stderr) = sprt(&typo, &[], 4);
    assert!(
        stderr.contains("error: bot \"new\" cannot be started: it failed to start in 3 games in a row"),
        "{stderr}"
    );
    assert!(!stdout.contains("H1") && !stdout.contains("H0"), "no verdict: {stdout}");
    sprt(&sometimes, &["--max-games", "8"], 3);
    let (stdout, stderr) = sprt(&sometimes, &["--max-games", "8", "--fail-on-fault"], 5);
    assert!(stdout.contains("inconclusive: the game limit was reached"), "the verdict first: {stdout}");
    assert!(stderr.contains("and --fail-on-fault: exit status 5, whatever the verdict"), "{stderr}");
    scratch.assert_nothing_left(LINGER);
}
