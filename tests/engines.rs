//! Engines as processes (engines/ENGINES.md): the document's transcript is
//! what `arena engine` answers, and `arena check-engine` passes the arena's
//! own engines and the starter engine, and fails broken engines on the check
//! meant for each.

use e2e::*;
use std::io::Write;
use std::process::Stdio;

fn engines_doc() -> String {
    std::fs::read_to_string(repo_path("engines/ENGINES.md")).expect("ENGINES.md")
}

/// The transcript's lines: requests (`→ `) and answers (`← `), in order.
fn transcript() -> Vec<(bool, String)> {
    let doc = engines_doc();
    let section = doc.split("## A transcript").nth(1).expect("a transcript section");
    section
        .lines()
        .filter_map(|line| {
            line.strip_prefix("→ ")
                .map(|request| (true, request.to_string()))
                .or_else(|| line.strip_prefix("← ").map(|answer| (false, answer.to_string())))
        })
        .collect()
}

#[test]
fn the_transcript_is_what_the_reference_engine_answers() {
    let lines = transcript();
    assert!(lines.len() > 12, "{lines:?}");
    let mut requests = String::new();
    for (_, request) in lines.iter().filter(|(is_request, _)| *is_request) {
        let parsed: protocol::engine::Request = serde_json::from_str(request).expect("a valid request");
        assert_eq!(serde_json::to_string(&parsed).unwrap(), *request, "requests as the arena writes them");
        requests.push_str(request);
        requests.push('\n');
    }
    let mut child = arena_command(&["engine", "leduc"]).stdin(Stdio::piped()).spawn().expect("arena starts");
    child.stdin.take().unwrap().write_all(requests.as_bytes()).unwrap();
    let output = finish(child);
    assert!(output.status.success(), "{output:?}");
    let answers: Vec<String> = String::from_utf8(output.stdout).unwrap().lines().map(str::to_string).collect();
    let documented: Vec<String> =
        lines.into_iter().filter(|(is_request, _)| !is_request).map(|(_, answer)| answer).collect();
    assert_eq!(answers, documented, "ENGINES.md's transcript differs from what `arena engine leduc` answers");
}

#[test]
fn every_json_example_is_a_valid_answer() {
    let doc = engines_doc();
    let mut checked = 0;
    for block in doc.split("```json\n").skip(1) {
        let example = block.split("```").next().unwrap();
        let answer: Result<protocol::engine::Answer, _> = serde_json::from_str(example);
        assert!(answer.is_ok(), "not a valid answer: {example}: {answer:?}");
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} examples");
}

/// `arena check-engine COMMAND ARGS…`: its exit status and checklist.
fn check_engine(command: &str, args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["check-engine", command];
    all.extend_from_slice(args);
    let output = arena(&all);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.code(), format!("{stdout}{}", String::from_utf8_lossy(&output.stderr)))
}

/// The checklist's line for `check`.
fn line<'a>(checklist: &'a str, check: &str) -> &'a str {
    let prefix = |mark: &str| format!("  {mark} {check} ");
    checklist
        .lines()
        .find(|line| ["✓", "✗", "-"].iter().any(|mark| line.starts_with(&prefix(mark))))
        .unwrap_or_else(|| panic!("no line for {check}:\n{checklist}"))
}

#[test]
fn the_arena_s_own_engines_pass_check_engine() {
    let arena = bin("arena");
    let (status, checklist) =
        check_engine(&format!("{arena} engine leduc"), &["--variant", "players=3", "--games", "8"]);
    assert_eq!(status, Some(0), "{checklist}");
    assert!(line(&checklist, "hidden-information").contains("✓"), "Leduc declares each seat's card:\n{checklist}");
    assert!(checklist.contains("13 checks: 13 passed, 0 failed, 0 skipped"), "{checklist}");
    let (status, checklist) = check_engine(&format!("{arena} engine all-fives"), &["--games", "1"]);
    assert_eq!(status, Some(0), "{checklist}");
    assert!(line(&checklist, "deterministic").contains("✓"), "{checklist}");
    assert!(line(&checklist, "hidden-information").contains("skipped"), "{checklist}");
}

#[test]
fn an_engine_that_does_not_start_fails_hello_and_skips_the_rest() {
    let (status, checklist) = check_engine("no-such-engine-program", &[]);
    assert_eq!(status, Some(1), "{checklist}");
    assert!(line(&checklist, "hello").contains("✗"), "{checklist}");
    assert!(line(&checklist, "games").contains("skipped"), "{checklist}");
    let (status, checklist) = check_engine("sh -c 'echo not json; sleep 1'", &["--timeout", "20000"]);
    assert_eq!(status, Some(1), "{checklist}");
    assert!(line(&checklist, "hello").contains("✗"), "{checklist}");
    assert!(checklist.contains("not json"), "the answer is shown:\n{checklist}");
}

/// `python3 FILE`, a Python engine of the repository.
fn python_engine(file: &str) -> String {
    format!("{} {}", python(), repo_path(file))
}

#[test]
fn the_starter_engine_and_a_correct_hidden_game_pass() {
    let (status, checklist) = check_engine(&python_engine("engines/connect-four/engine.py"), &["--games", "10"]);
    assert_eq!(status, Some(0), "{checklist}");
    assert!(checklist.contains("13 checks: 13 passed, 0 failed, 0 skipped"), "{checklist}");
    let (status, checklist) = check_engine(&python_engine("tests/engines/hidden_card.py"), &["--games", "10"]);
    assert_eq!(status, Some(0), "{checklist}");
    assert!(line(&checklist, "hidden-information").contains("✓"), "{checklist}");
}

#[test]
fn dice_that_seats_share_are_no_leak_and_a_die_shown_at_start_is() {
    // Two dice a seat: the seats often roll a face in common, and with
    // `declare=hands` now and then the same two dice.
    for declare in ["declare=dice", "declare=hands"] {
        let (status, checklist) =
            check_engine(&python_engine("tests/engines/liars_dice.py"), &["--games", "20", "--variant", declare]);
        assert_eq!(status, Some(0), "{declare}:\n{checklist}");
        let checked = line(&checklist, "hidden-information");
        assert!(checked.contains("✓") && checked.contains("held a value equal to another seat's"), "{checklist}");
        let (status, checklist) =
            check_engine(&python_engine("tests/engines/leaks_at_start.py"), &["--games", "20", "--variant", declare]);
        assert_eq!(status, Some(1), "{declare}:\n{checklist}");
        assert!(line(&checklist, "hidden-information").contains("✗"), "{declare}:\n{checklist}");
        assert!(
            checklist.contains("seat 1 was told {\"type\":\"roll\"") && checklist.contains("private to seat 0"),
            "the start step's view is the leak:\n{checklist}"
        );
    }
}

#[test]
fn an_engine_whose_steps_are_slow_asks_for_the_time_at_hello() {
    let slow = python_engine("tests/engines/slow_steps.py");
    let (status, checklist) = check_engine(&slow, &["--games", "2", "--timeout", "4000"]);
    assert_eq!(status, Some(0), "{checklist}");
    assert!(line(&checklist, "hello").contains("it asks 10000 ms an answer, and is given 10000 ms"), "{checklist}");
    let (status, checklist) = check_engine(&format!("{slow} --silent"), &["--games", "2", "--timeout", "4000"]);
    assert_eq!(status, Some(1), "{checklist}");
    assert!(line(&checklist, "games").contains("✗"), "{checklist}");
    // A longer --timeout than it asks wins.
    let (status, checklist) = check_engine(&slow, &["--games", "1", "--timeout", "12000"]);
    assert_eq!(status, Some(0), "{checklist}");
    assert!(line(&checklist, "hello").contains("is given 12000 ms"), "{checklist}");
}

#[test]
fn each_broken_engine_fails_the_check_meant_for_it() {
    let cases = [
        ("nondeterministic", "deterministic", "answered"),
        ("hangs", "games", "no complete line"),
        ("refuses_choice", "games", "was answered"),
        ("leaks", "hidden-information", "private to seat"),
        ("no_bye", "bye", "still running"),
        ("garbage", "hello", "answered hello"),
        ("collides", "steps", "a type the arena's own messages use"),
    ];
    let runs: Vec<_> = cases
        .iter()
        .map(|&(engine, check, problem)| {
            let command = python_engine(&format!("tests/engines/{engine}.py"));
            std::thread::spawn(move || (engine, check, problem, check_engine(&command, &["--games", "5"])))
        })
        .collect();
    for run in runs {
        let (engine, check, problem, (status, checklist)) = run.join().expect("a check-engine run");
        assert_eq!(status, Some(1), "{engine}:\n{checklist}");
        let failed = line(&checklist, check);
        assert!(failed.contains("✗"), "{engine} should fail {check}:\n{checklist}");
        let after = checklist.split(failed).nth(1).unwrap_or_default();
        let shown = after.lines().find(|l| l.trim_start().starts_with("problem:")).unwrap_or_default();
        assert!(shown.contains(problem), "{engine}: {check}'s problem should say {problem:?}:\n{checklist}");
        assert!(line(&checklist, "no-leftovers").contains("✓"), "{engine}:\n{checklist}");
    }
}

/// A bot of any game, in Python, from tests/bots.
fn test_bot(name: &str) -> String {
    format!("{}={} {}", name, python(), repo_path(&format!("tests/bots/{name}.py")))
}

/// The sample Connect Four bot.
fn connect_four_bot(name: &str) -> String {
    format!("{name}={} {}", python(), repo_path("sample-bots/python/connect_four.py"))
}

#[test]
fn a_league_of_an_engine_program_is_recorded_verified_viewed_and_reported() {
    let scratch = Scratch::new("engine-league");
    let out = scratch.join("out");
    let engine = python_engine("engines/connect-four/engine.py");
    let bots = [connect_four_bot("c4"), test_bot("first_legal"), test_bot("last_legal")];
    let mut args = vec!["league", "--engine", &engine, "--games", "4", "--seed", "3", "--out", &out];
    // (Limits no busy machine reaches: no fault is expected.)
    args.extend(PATIENT);
    for bot in &bots {
        args.extend(["--bot", bot]);
    }
    let (stdout, stderr) = arena_expect(&args, 0);
    assert!(stderr.contains("connect-four round-robin league of 3 bots: 12 games"), "{stderr}");
    assert!(stdout.contains("c4"), "{stdout}");
    let records = records(&out);
    assert_eq!(records.len(), 12);
    for record in &records {
        assert_eq!(record.game, "connect-four");
        let identity = record.engine.as_ref().expect("the record names the engine");
        assert_eq!(identity.command, engine, "the record names the engine");
        assert_eq!(identity.teams, [[0], [1]]);
        assert!(record.faults.is_empty(), "{record:?}");
        for event in &record.events {
            assert_eq!(event["choice"].is_u64(), event["time_us"].is_u64(), "a move has a choice and a time: {event}");
        }
    }
    let standings = Standings::read(&out);
    assert_eq!((standings.games, standings.game.as_str()), (12, "connect-four"));

    let (verified, _) = arena_expect(&["verify", &out, "--run-recorded-engine"], 0);
    assert!(verified.contains("12 games verified: every record agrees with the engine"), "{verified}");
    let page = scratch.join("game.html");
    arena_expect(&["view", &out, "--game", "5", "-o", &page, "--run-recorded-engine"], 0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("id=\"log\"") && html.contains("\"game\":\"connect-four\""),
        "the generic page of the events"
    );
    let (reported, _) = arena_expect(&["report", &out], 0);
    assert!(reported.contains("12 games"), "{reported}");
    // A replay through the engine: the same bot chooses as recorded, another does not.
    let (same, _) = arena_expect(
        &["replay", &out, "--as", "first_legal", "--bot", &test_bot("first_legal"), "--run-recorded-engine"],
        0,
    );
    assert!(same.contains("first_legal chose as recorded at all"), "{same}");
    let output =
        arena(&["replay", &out, "--as", "first_legal", "--bot", &test_bot("last_legal"), "--run-recorded-engine"]);
    let differs = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{differs}");
    assert!(differs.contains("last_legal chose differently at"), "{differs}");
    assert!(std::path::Path::new(&out).join("report.html").is_file());
    // Resuming a finished league plays nothing more, and the engine is remembered.
    let (_, stderr) = arena_expect(&["league", "--resume", &out], 0);
    assert!(stderr.contains("12 already played"), "{stderr}");
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn verify_replays_through_a_fresh_engine_and_catches_one_that_is_not_a_function_of_its_requests() {
    let scratch = Scratch::new("engine-verify");
    let out = scratch.join("out");
    let engine = python_engine("tests/engines/nondeterministic.py");
    let (first, last) = (test_bot("first_legal"), test_bot("last_legal"));
    let args = ["match", "--engine", &engine, "--bot", &first, "--bot", &last, "--games", "4", "--out", &out];
    arena_expect(&args, 0);
    let output = arena(&["verify", &out, "--run-recorded-engine"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("disagree with the engine"), "{stdout}");
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn an_engine_that_fails_stops_the_run_without_blaming_a_bot() {
    let cases = [
        ("hangs", "no complete line"),
        ("refuses_choice", "refused choice"),
        ("garbage", "answered hello"),
        ("collides", "a view of type \"turn\", a type the arena's own messages use"),
        ("long_answer", "answered play with a line longer than the 1048576 bytes an engine's answer may take"),
    ];
    for (name, problem) in cases {
        let scratch = Scratch::new(&format!("engine-fails-{name}"));
        let out = scratch.join("out");
        let engine = python_engine(&format!("tests/engines/{name}.py"));
        let (first, last) = (test_bot("first_legal"), test_bot("last_legal"));
        let args = [
            "league",
            "--engine",
            &engine,
            // Ample for the answers before the fault on a busy machine.
            "--engine-timeout",
            "5000",
            "--bot",
            &first,
            "--bot",
            &last,
            "--games",
            "4",
            "--concurrency",
            "1",
            "--out",
            &out,
        ];
        let output = arena(&[&args[..], &PATIENT].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        if name == "garbage" {
            // Before any game: the league is not even started.
            assert_eq!(output.status.code(), Some(1), "{name}: {stderr}");
            assert!(stderr.contains(problem) && stderr.contains(&engine), "{name}: {stderr}");
            continue;
        }
        assert_eq!(output.status.code(), Some(1), "{name}: {stderr}");
        assert!(stderr.contains(problem), "{name}: the engine's failure is said: {stderr}");
        assert!(stderr.contains(&format!("engine {engine:?}")), "{name}: the engine is named: {stderr}");
        assert!(stderr.contains("league --resume"), "{name}: the run can be resumed: {stderr}");
        for record in records(&out) {
            assert!(record.faults.is_empty(), "{name}: no bot is blamed: {record:?}");
        }
        scratch.assert_nothing_left(LINGER);
    }
}

#[test]
fn check_bot_checks_a_bot_of_an_engine_program_s_game() {
    let engine = python_engine("engines/connect-four/engine.py");
    let sample = format!("{} {}", python(), repo_path("sample-bots/python/connect_four.py"));
    let output = arena(&["check-bot", &sample, "--engine", &engine, "--seed", "1"]);
    let checklist = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(0), "{checklist}");
    assert!(checklist.contains(", connect-four\n"), "the game is named: {checklist}");
    assert!(checklist.contains("8 checks: 8 passed, 0 failed, 0 skipped"), "{checklist}");
    assert!(line(&checklist, "game:variant").contains("2 seats"), "{checklist}");
    let illegal = format!("{} {}", python(), repo_path("tests/bots/illegal_index.py"));
    let output = arena(&["check-bot", &illegal, "--engine", &engine, "--seed", "1"]);
    let checklist = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(1), "{checklist}");
    assert!(line(&checklist, "game:variant").contains("✗"), "{checklist}");
    assert!(checklist.contains("illegal_move"), "{checklist}");
}

#[test]
fn a_person_plays_an_engine_program_s_game_in_the_terminal() {
    let scratch = Scratch::new("engine-play");
    let out = scratch.join("out");
    let engine = python_engine("engines/connect-four/engine.py");
    let bot = connect_four_bot("c4");
    let mut child = arena_command(&["play", "--engine", &engine, "--bot", &bot, "--seed", "1", "--out", &out])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("arena starts");
    // Three moves in column 4, then the input ends: the person leaves the game.
    child.stdin.take().unwrap().write_all("4\n".repeat(3).as_bytes()).unwrap_or(());
    let output = finish(child);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("connect-four: you are seat 0 (you), seed 1"), "{stdout}");
    assert!(stdout.contains("  4. {\"column\":3}"), "the choices, numbered: {stdout}");
    assert!(stdout.contains("{\"type\":\"drop\",\"seat\":1,"), "what the seat is told: {stdout}");
    assert!(stdout.contains("(the end of the input)"), "{stdout}");
    assert_eq!(output.status.code(), Some(130), "the game was left: {stdout}");
}

#[test]
fn an_engine_that_draws_pages_and_text_has_them_shown() {
    let scratch = Scratch::new("engine-pages");
    let out = scratch.join("out");
    let engine = format!("{} engine leduc", bin("arena"));
    let (random, rules) = (format!("random={}", bin("leduc-bot")), format!("rules={} --play rules", bin("leduc-bot")));
    arena_expect(&["match", "--engine", &engine, "--bot", &random, "--bot", &rules, "--games", "2", "--out", &out], 0);
    let page = scratch.join("game.html");
    arena_expect(&["view", &out, "--game", "1", "-o", &page, "--run-recorded-engine"], 0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<title>Leduc Hold'em game"), "the engine's own page, asked with `page`");
    let (_, stdout) = play_first_choice(&engine, &random);
    assert!(stdout.contains("dealt: your card is "), "the events as the engine draws them: {stdout}");
    assert!(stdout.contains("  1. check"), "the turn as the engine draws it: {stdout}");
}

/// The `start` lines an engine program was sent, read from the log of a
/// wrapper that copies its stdin there.
fn starts_logged(log: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).expect("the wrapper's log");
    text.lines().filter(|line| line.contains(r#""type":"start""#)).map(str::to_string).collect()
}

#[test]
fn a_match_asks_the_engine_for_no_descriptions_and_a_person_at_the_terminal_does() {
    let scratch = Scratch::new("describe");
    // Copies each request to the log and passes it on; exits after bye, as the engine does.
    let relay = r#"import subprocess, sys
engine = subprocess.Popen([sys.argv[2], "engine", "leduc"], stdin=subprocess.PIPE, text=True)
with open(sys.argv[1], "a") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        engine.stdin.write(line)
        engine.stdin.flush()
        if '"bye"' in line:
            break
engine.stdin.close()
sys.exit(engine.wait())
"#;
    std::fs::write(scratch.path().join("relay.py"), relay).unwrap();
    let wrapped = |log: &str| {
        let log = scratch.path().join(log);
        let relay = scratch.path().join("relay.py");
        (format!("{} {} {} {}", python(), relay.display(), log.display(), bin("arena")), log)
    };
    let leduc_bot = format!("a={}", bin("leduc-bot"));
    let (engine, log) = wrapped("match.log");
    let args = ["match", "--engine", &engine, "--bot", &leduc_bot, "--bot", &leduc_bot.replacen("a=", "b=", 1)];
    let output = arena(&[&args[..], &["--games", "2", "--seed", "3"]].concat());
    assert!(output.status.success(), "{output:?}");
    let starts = starts_logged(&log);
    assert_eq!(starts.len(), 2, "{starts:?}");
    assert!(starts.iter().all(|start| start.contains(r#""describe":false"#)), "{starts:?}");

    let (engine, log) = wrapped("play.log");
    let mut child = arena_command(&["play", "--engine", &engine, "--bot", &leduc_bot, "--seed", "3"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("arena starts");
    let _ = child.stdin.take().unwrap().write_all("2\n".repeat(20).as_bytes());
    let output = finish(child);
    assert!(output.status.success(), "{output:?}");
    let starts = starts_logged(&log);
    assert_eq!(starts.len(), 1, "{starts:?}");
    assert!(!starts[0].contains("describe"), "a person reads the texts: {}", starts[0]);
}

/// Runs `arena ARGS…` in `dir`; returns its exit status, stdout and stderr.
fn arena_in(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = finish(arena_command(args).current_dir(dir).spawn().expect("arena starts"));
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr))
}

/// `out`'s records with their engine rewritten by `rewrite`, in `dir`/games.jsonl.
fn records_rewritten(out: &str, dir: &std::path::Path, rewrite: impl Fn(&mut serde_json::Value)) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let mut text = String::new();
    for mut record in record_json(out) {
        rewrite(&mut record["engine"]);
        text.push_str(&format!("{record}\n"));
    }
    let games = dir.join("games.jsonl");
    std::fs::write(&games, text).unwrap();
    games.to_string_lossy().into_owned()
}

#[test]
fn reading_the_records_of_an_engine_program_runs_nothing_unasked() {
    let scratch = Scratch::new("engine-records-run-nothing");
    let out = scratch.join("out");
    // Played from the repository with a relative command, as a user in a clone would.
    let engine = format!("{} engines/connect-four/engine.py", python());
    let (first, last) = (test_bot("first_legal"), test_bot("last_legal"));
    let args = ["match", "--engine", &engine, "--bot", &first, "--bot", &last, "--games", "2", "--out", &out];
    let (status, _, stderr) = arena_in(&root(), &args);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(
        records(&out)[0].engine.as_ref().and_then(|identity| identity.dir.clone()),
        Some(root()),
        "the record keeps where the engine ran"
    );

    // Records as someone else could send them: the engine is a command of their choosing, to run here.
    let hostile = scratch.path().join("hostile");
    let games = records_rewritten(&out, &hostile, |engine| {
        engine["command"] = "touch PWNED \u{1b}[2J".into();
        engine["dir"] = hostile.to_string_lossy().into_owned().into();
    });
    let page = scratch.join("game.html");
    let reads: [(&[&str], i32); 3] = [
        (&["view", &games, "--game", "0", "-o", &page], 0),
        (&["verify", &games], 2),
        (&["replay", &games, "--game", "0", "--seat", "0", "--bot", &first], 2),
    ];
    for (args, expected) in reads {
        let (status, _, stderr) = arena_in(&hostile, args);
        assert_eq!(status, Some(expected), "{args:?}: {stderr}");
        for said in [
            r#"the engine program "touch PWNED \u{1b}[2J""#,
            "reading records runs no program unasked",
            &format!("to run it in {}, where it ran, add --run-recorded-engine", hostile.display()),
            "give --engine COMMAND",
        ] {
            assert!(stderr.contains(said), "{args:?} should say {said:?}: {stderr}");
        }
        let left: Vec<_> = std::fs::read_dir(&hostile).unwrap().map(|entry| entry.unwrap().file_name()).collect();
        assert_eq!(left, ["games.jsonl"], "{args:?} ran the recorded command");
    }
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"log\""), "view still writes the generic page of the events");

    // An engine the user names runs, from here.
    let named = python_engine("engines/connect-four/engine.py");
    let (status, verified, stderr) = arena_in(&hostile, &["verify", &games, "--engine", &named]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(verified.contains("2 games verified: every record agrees with the engine"), "{verified}");
    let (status, _, stderr) = arena_in(&hostile, &["view", &games, "--game", "1", "-o", &page, "--engine", &named]);
    assert_eq!((status, stderr.as_str()), (Some(0), ""), "the engine was asked, and draws no page");
    let replay = ["replay", &games, "--as", "first_legal", "--bot", &first, "--engine", &named];
    let (status, same, stderr) = arena_in(&hostile, &replay);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(same.contains("first_legal chose as recorded at all"), "{same}");

    // The recorded engine, asked for, runs where it ran, from anywhere.
    let (status, verified, stderr) = arena_in(scratch.path(), &["verify", &out, "--run-recorded-engine"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(verified.contains("2 games verified"), "{verified}");
    // Where it ran is not here: the error says where, and --engine.
    let moved = records_rewritten(&out, &scratch.path().join("moved"), |engine| {
        engine["dir"] = "/no/such/league/dir".into();
    });
    let (status, _, stderr) = arena_in(scratch.path(), &["verify", &moved, "--run-recorded-engine"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("ran in /no/such/league/dir") && stderr.contains("--engine COMMAND"), "{stderr}");
    scratch.assert_nothing_left(LINGER);
}

/// `arena play` of `engine`'s game against `bot` (seed 1), the person
/// choosing 1 once: its exit status and stdout.
fn play_first_choice(engine: &str, bot: &str) -> (Option<i32>, String) {
    let mut child = arena_command(&["play", "--engine", engine, "--bot", bot, "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("arena starts");
    child.stdin.take().unwrap().write_all(b"1\n").unwrap_or(());
    let output = finish(child);
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn what_an_engine_draws_for_a_person_reaches_the_terminal_escaped() {
    let (status, stdout) = play_first_choice(&python_engine("tests/engines/hostile_text.py"), &test_bot("first_legal"));
    assert_eq!(status, Some(0), "{stdout}");
    for control in ['\u{1b}', '\u{7}', '\u{202e}', '\r'] {
        assert!(!stdout.contains(control), "{control:?} reached the terminal: {stdout:?}");
    }
    let hostile = r"\u{1b}]0;owned\u{7}\u{1b}[2J\u{202e}forged\r21 checks: 21 passed";
    assert!(stdout.contains(&format!("your card, {hostile}\n  1. high\n  2. low\\u{{1b}}[1A\n")), "{stdout}");
    assert!(stdout.lines().any(|line| line == hostile), "each event's text, escaped: {stdout}");
}

#[test]
fn an_arena_stopped_while_it_awaits_its_engine_blames_nobody() {
    let scratch = Scratch::new("engine-stopped");
    let (out, gate) = (scratch.join("out"), scratch.join("gate"));
    let engine = format!("{} {gate}", python_engine("tests/engines/slow_start.py"));
    let (first, last) = (test_bot("first_legal"), test_bot("last_legal"));
    let args = ["league", "--engine", &engine, "--bot", &first, "--bot", &last, "--games", "2", "--out", &out];
    let child = arena_command(&[&args[..], &PATIENT].concat()).spawn().expect("arena starts");
    wait_at_gate(&gate);
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    // As `timeout` stops it; the arena then kills the engine it awaits.
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let output = finish(child);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: no new games start"), "{stderr}");
    assert!(
        !stderr.contains("fix the engine") && !stderr.contains("killed by signal"),
        "the engine is blamed: {stderr}"
    );
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn a_sharded_league_of_an_engine_program_merges_and_verifies() {
    let scratch = Scratch::new("engine-shards");
    let engine = python_engine("engines/connect-four/engine.py");
    let bots = [connect_four_bot("c4"), test_bot("first_legal"), test_bot("last_legal")];
    let league = |extra: &[&str]| {
        let mut args = vec!["league", "--engine", &engine, "--games", "2", "--seed", "5"];
        for bot in &bots {
            args.extend(["--bot", bot]);
        }
        arena_expect(&[&args[..], &PATIENT, extra].concat(), 0);
    };
    let (single, merged) = (scratch.join("single"), scratch.join("merged"));
    league(&["--out", &single]);
    let shards: Vec<String> = (0..2).map(|k| scratch.join(&format!("shard{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        league(&["--shard", &format!("{k}/2"), "--out", dir]);
    }
    let (stdout, _) = arena_expect(&[&["merge", "--out", &merged][..], &[&shards[0], &shards[1]]].concat(), 0);
    assert!(stdout.contains("merged 6 games from 2 shards"), "{stdout}");
    assert_eq!(canonical_records(&merged), canonical_records(&single));
    let read = |dir: &str| std::fs::read_to_string(format!("{dir}/standings.json")).unwrap();
    assert_eq!(read(&merged), read(&single), "the standings of the league played on one machine");
    let (verified, _) = arena_expect(&["verify", &merged, "--run-recorded-engine"], 0);
    assert!(verified.contains("6 games verified: every record agrees with the engine"), "{verified}");
    scratch.assert_nothing_left(LINGER);
}
