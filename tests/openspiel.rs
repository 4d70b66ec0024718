//! The OpenSpiel bridge (engines/openspiel): it passes `arena check-engine`
//! for a sequential and a simultaneous game, it refuses a bad setup and a
//! bad setting naming the cause, and the cross-check finds the arena's
//! Leduc Hold'em and OpenSpiel's `leduc_poker` in agreement. Skipped with a
//! notice when python3 cannot import pyspiel (unless ARENA_REQUIRE_TOOLS=1).

use e2e::{PYSPIEL, Ranked, ReadBack, Standings, arena, bin, optional_python_module, python, repo_path};
use std::io::Write;
use std::process::{Command, Stdio};

/// `python3 engines/openspiel/bridge.py GAME`.
fn bridge(game: &str) -> String {
    format!("{} {} {game}", python(), repo_path("engines/openspiel/bridge.py"))
}

#[test]
fn the_bridge_passes_check_engine_for_a_sequential_and_a_simultaneous_game() {
    if !optional_python_module(PYSPIEL) {
        return;
    }
    for (game, variant) in [("leduc_poker", "players=3"), ("goofspiel", "num_cards=4")] {
        let output = arena(&["check-engine", &bridge(game), "--variant", variant, "--games", "5"]);
        let checklist =
            format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        assert_eq!(output.status.code(), Some(0), "{game}:\n{checklist}");
        assert!(checklist.contains("13 checks: 12 passed, 0 failed, 1 skipped"), "{game}:\n{checklist}");
        assert!(checklist.contains(&format!("openspiel-{}", game.replace('_', "-"))), "{checklist}");
    }
}

/// The bridge's answers, one per line, to `requests` (one per line).
fn answers(game: &str, requests: &[&str]) -> Vec<serde_json::Value> {
    let mut child = Command::new(python())
        .args([repo_path("engines/openspiel/bridge.py"), game.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    let mut stdin = child.stdin.take().expect("stdin");
    for request in requests {
        writeln!(stdin, "{request}").expect("the bridge reads");
    }
    drop(stdin);
    let output = child.wait_with_output().expect("the bridge exits at the end of input");
    String::from_utf8(output.stdout).expect("UTF-8").lines().map(|l| serde_json::from_str(l).expect("JSON")).collect()
}

#[test]
fn a_setup_deals_the_chance_actions_given_and_bad_requests_name_the_cause() {
    if !optional_python_module(PYSPIEL) {
        return;
    }
    let variant = r#"{"action_mapping":false,"players":2,"starting_player":0,"suit_isomorphism":false,"scale":1}"#;
    let got = answers(
        "leduc_poker",
        &[
            r#"{"type":"variant","settings":[["players","x"]]}"#,
            r#"{"type":"variant","settings":[["no_such","1"]]}"#,
            &format!(r#"{{"type":"start","variant":{variant},"setup":{{"chance":[0,0]}}}}"#),
            &format!(r#"{{"type":"start","variant":{variant},"setup":{{"chance":[0,5]}}}}"#),
            r#"{"type":"play","index":0}"#,
            r#"{"type":"play","index":0}"#,
            r#"{"type":"observe","seat":0}"#,
        ],
    );
    assert_eq!(got[0]["message"], "players takes a whole number, not \"x\"");
    assert!(got[1]["message"].as_str().unwrap().starts_with("leduc_poker has no setting \"no_such\""), "{}", got[1]);
    assert_eq!(
        got[2]["message"],
        "setup chance action 1 is 0, which chance node 1 cannot give: it gives [1, 2, 3, 4, 5]"
    );
    // Seat 0 holds card 0, seat 1 card 5; each is told only its own.
    let deal = &got[3]["events"];
    assert_eq!(deal[0]["views"][1], serde_json::Value::Null, "seat 1 learns nothing of seat 0's card: {deal}");
    assert!(deal[1]["views"][1]["information_state"].as_str().unwrap().contains("[Private: 5]"), "{deal}");
    assert_eq!(got[4]["to_act"], 1, "seat 0 checked");
    // Seat 1 checks too: round 1 ends, and the public card's chance node is past the setup.
    assert!(got[5]["message"].as_str().unwrap().contains("ran out"), "{}", got[5]);
    assert!(
        got[6]["state"]["information_state"].as_str().unwrap().contains("[Round 1]"),
        "nothing changed: {}",
        got[6]
    );
}

#[test]
fn the_cross_check_finds_the_arena_s_leduc_and_openspiel_s_in_agreement() {
    if !optional_python_module(PYSPIEL) {
        return;
    }
    let native = format!("{} engine leduc", bin("arena"));
    let output = Command::new(python())
        .args([&repo_path("engines/openspiel/cross_check.py"), "--native", &native, "--games", "300", "--seed", "5"])
        .output()
        .expect("python3 starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("2 players: 300 games, ") && stdout.ends_with(" 0 disagreements\n"), "{stdout}");
}

/// docs/games.md's league of a Python bot and a JavaScript bot at OpenSpiel's
/// Kuhn poker, with its `verify` and `report`, run as docs/games.md gives it
/// (fewer games): the rule bot ends ahead of the random one.
#[test]
fn the_readme_s_kuhn_poker_league_runs_verifies_and_reports() {
    if !optional_python_module(PYSPIEL) {
        return;
    }
    let scratch = e2e::Scratch::new("kuhn-league");
    let out = scratch.join("kuhn");
    let random = format!("random={} {}", python(), repo_path("sample-bots/python/random_any.py"));
    let rules = format!("rules=node {}", repo_path("sample-bots/js/kuhn.js"));
    let engine = bridge("kuhn_poker");
    let args = ["league", "--engine", &engine, "--bot", &random, "--bot", &rules, "--games", "200", "--seed", "1"];
    let (_, stderr) = e2e::arena_expect(&[&args[..], &["--out", &out]].concat(), 0);
    assert!(stderr.contains("openspiel-kuhn-poker round-robin league of 2 bots: 200 games"), "{stderr}");
    let standings = <Standings as ReadBack>::read(&out);
    assert_eq!(standings.games, 200);
    let mean = |name: &str| standings.bot(name).points_for;
    assert!(mean("rules") > mean("random"), "{standings:?}");
    let (verified, _) = e2e::arena_expect(&["verify", &out, "--run-recorded-engine"], 0);
    assert!(verified.contains("200 games verified: every record agrees with the engine"), "{verified}");
    let (reported, _) = e2e::arena_expect(&["report", &out], 0);
    assert!(reported.contains("200 games"), "{reported}");
}

/// `engines/openspiel/sweep.py GAME…`: its lines, each `VERDICT GAME: DETAIL`.
fn swept(games: &[&str]) -> String {
    let output = Command::new(python())
        .arg(repo_path("engines/openspiel/sweep.py"))
        .args(games)
        .output()
        .expect("python3 starts");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    stdout
}

#[test]
fn the_games_the_bridge_could_not_serve_play_or_are_refused_with_their_reason() {
    if !optional_python_module(PYSPIEL) {
        return;
    }
    let stdout = swept(&["liars_dice_ir", "nfg_game", "crossword", "misere", "bridge", "liars_dice"]);
    let verdict = |game: &str| {
        stdout.lines().find(|line| line[9..].starts_with(&format!("{game}: "))).unwrap_or_else(|| panic!("{stdout}"))
    };
    // OpenSpiel reports a parameter (rollout_length) its loader refuses: the bridge leaves it out, and it plays.
    assert!(verdict("liars_dice_ir").starts_with("plays "), "{stdout}");
    assert!(verdict("nfg_game").starts_with("refused  nfg_game: OpenSpiel cannot load nfg_game"), "{stdout}");
    assert!(verdict("crossword").contains("moves are not actions the bridge can list"), "{stdout}");
    assert!(verdict("misere").contains("Missing parameter game"), "{stdout}");
    // Contract bridge solves its deal within the time it asks at hello.
    assert!(verdict("bridge").starts_with("plays ") && verdict("bridge").contains("a tensor"), "{stdout}");
    assert!(stdout.ends_with("6 games: 3 play (2 with a tensor), 3 refused, 0 failed\n"), "{stdout}");
    // The bridge's stderr, run as the arena runs an engine, says why it refuses.
    let output = Command::new(python())
        .args([repo_path("engines/openspiel/bridge.py"), "crossword".to_string()])
        .stdin(Stdio::null())
        .output()
        .expect("python3 starts");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("bridge.py: crossword's moves are not actions") && !stderr.contains("Traceback"),
        "{stderr}"
    );
}

#[test]
fn with_tensor_a_liars_dice_state_holds_openspiel_s_tensor() {
    if !optional_python_module(PYSPIEL) {
        return;
    }
    let got = answers(
        "liars_dice",
        &[r#"{"type":"variant","settings":[["tensor","true"]]}"#, r#"{"type":"variant","settings":[]}"#],
    );
    assert_eq!(got[0]["variant"]["tensor"], true, "{}", got[0]);
    assert_eq!(got[1]["variant"]["tensor"], false, "off by default: {}", got[1]);
    let start = format!(r#"{{"type":"start","variant":{},"seed":3}}"#, got[0]["variant"]);
    let got = answers("liars_dice", &[&start, r#"{"type":"observe","seat":1}"#]);
    let state = &got[0]["state"];
    let tensor = state["information_state_tensor"].as_array().unwrap_or_else(|| panic!("{state}"));
    assert!(!tensor.is_empty() && tensor.iter().all(|x| x.is_f64()), "{state}");
    assert!(state["information_state"].is_string(), "the string stays: {state}");
    assert!(got[1]["state"]["information_state_tensor"].is_array(), "observe gives it too: {}", got[1]);
    let got = answers("liars_dice_ir", &[r#"{"type":"variant","settings":[["tensor","true"]]}"#]);
    assert_eq!(got[0]["message"], "tensor=true: liars_dice_ir gives no observation or information-state tensor");
}
