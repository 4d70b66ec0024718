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
fn each_broken_engine_fails_the_check_meant_for_it() {
    let cases = [
        ("nondeterministic", "deterministic", "answered"),
        ("hangs", "games", "no complete line"),
        ("refuses_choice", "games", "was answered"),
        ("leaks", "hidden-information", "private to seat"),
        ("no_bye", "bye", "still running"),
        ("garbage", "hello", "answered hello"),
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
