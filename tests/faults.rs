//! Every fault kind, caused by a misbehaving bot in `tests/bots/`: the match
//! completes, the fault is recorded with the right kind and the bot's stderr,
//! the well-behaved opponent is unaffected, and no process outlives `arena`.

use e2e::*;

/// (script in tests/bots, the fault kind it must cause)
const CASES: &[(&str, &str)] = &[
    ("crash_at_start.py", "exited"),
    ("silent_hello.py", "timeout"),
    ("crash_mid_game.py", "exited"),
    ("hang_mid_game.py", "timeout"),
    ("close_stdout.py", "closed_stdout"),
    ("not_json.py", "not_json"),
    ("wrong_shape.py", "bad_message"),
    ("misplaced.py", "bad_message"),
    ("wrong_id.py", "wrong_id"),
    ("illegal_index.py", "illegal_move"),
    ("illegal_value.py", "illegal_move"),
    ("long_line.py", "line_too_long"),
];

fn run_case(script: &str, expected: &str) {
    let scratch = Scratch::new(&format!("fault-{}", script.trim_end_matches(".py")));
    let out = scratch.join("out");
    let bad = format!("python3 {} {}", repo_path(&format!("tests/bots/{script}")), scratch.marker());
    let good = format!("{} {}", bin("greedy-bot"), scratch.marker());
    let (_, stderr) = arena_expect(
        &[
            "match",
            "--bot",
            &format!("bad={bad}"),
            "--bot",
            &format!("good={good}"),
            "--games",
            "4",
            "--seed",
            "8",
            "--move-timeout",
            "1500",
            "--startup-timeout",
            "1500",
            "--out",
            &out,
        ],
        0,
    );
    let records = records(&out);
    assert_eq!(records.len(), 4, "{script}: the match runs to its end");
    let faults: Vec<&serde_json::Value> = records.iter().flat_map(|r| r["faults"].as_array().unwrap()).collect();
    assert!(!faults.is_empty(), "{script}: no fault recorded");
    for fault in &faults {
        assert_eq!(fault["bot"], "bad", "{script}: only the bad bot faults: {fault}");
        assert_eq!(fault["kind"], expected, "{script}: {fault}");
        assert!(!fault["message"].as_str().unwrap().is_empty());
    }
    for record in &records {
        if !record["faults"].as_array().unwrap().is_empty() {
            assert_eq!(record["result"]["reason"], "forfeit", "{script}");
            let seat = record["faults"][0]["seat"].as_u64().unwrap() as usize;
            assert_eq!(record["result"]["ranks"][seat], 1, "{script}: the faulting seat loses");
            assert_eq!(record["result"]["ranks"][1 - seat], 0, "{script}: the opponent wins");
        }
    }
    assert!(stderr.contains(&format!(": {expected}: ")), "{script}: the fault is reported as it happens:\n{stderr}");
    let standings = standings(&out);
    assert_eq!(standing(&standings, "bad")["faults_by_kind"][expected], faults.len() as u64);
    assert_eq!(standing(&standings, "good")["faults"], 0);
    assert_eq!(standing(&standings, "good")["games"], 4);
    let left = scratch.leftover_processes();
    assert!(left.is_empty(), "{script}: processes left behind: {left:?}");
}

#[test]
fn each_fault_kind_is_recorded_and_contained() {
    // One test running the cases on threads: they spend most of their time
    // waiting for timeouts, so this keeps the suite short.
    let handles: Vec<_> =
        CASES.iter().map(|&(script, expected)| std::thread::spawn(move || run_case(script, expected))).collect();
    let failures: Vec<String> = handles
        .into_iter()
        .zip(CASES)
        .filter_map(|(handle, (script, _))| handle.join().err().map(|_| script.to_string()))
        .collect();
    assert!(failures.is_empty(), "failed cases: {failures:?}");
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
    let good = format!("{} {}", bin("greedy-bot"), scratch.marker());
    arena_expect(
        &[
            "match",
            "--bot",
            &format!("bad=python3 {script}"),
            "--bot",
            &format!("good={good}"),
            "--games",
            "2",
            "--out",
            &out,
        ],
        0,
    );
    let records = records(&out);
    let fault = &records[0]["faults"][0];
    assert_eq!(fault["kind"], "exited");
    assert!(fault["message"].as_str().unwrap().contains("status 4"), "{fault}");
    assert_eq!(fault["stderr"][0], "about to fail: no strategy");
    let logs: Vec<_> = std::fs::read_dir(std::path::Path::new(&out).join("logs")).unwrap().flatten().collect();
    let bad_log =
        logs.iter().find(|e| e.file_name().to_string_lossy().starts_with("bad.")).expect("a log of the bad bot");
    assert!(std::fs::read_to_string(bad_log.path()).unwrap().contains("about to fail"));
}
