//! What a bot wrote never reaches the operator's terminal as it is: a bot
//! whose `ready` name and version, stderr and a bad answer are full of
//! terminal control sequences (`tests/bots/forger.py`) cannot set the window
//! title, clear the screen or start a line of the arena's output, such as a
//! forged "21 checks: 21 passed" summary.

use e2e::*;

const FORGED: &str = "21 checks: 21 passed";

/// Asserts that `text` (what `what` printed) holds no control character but
/// line breaks, no C1 control, no bidi override, and no line starting with
/// the forged summary.
fn assert_clean(what: &str, text: &[u8]) {
    let text = String::from_utf8(text.to_vec()).unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"));
    for c in text.chars() {
        let control = (c.is_control() && c != '\n') || ('\u{2028}'..='\u{202e}').contains(&c);
        assert!(!control, "{what} printed {c:?} raw:\n{text}");
    }
    for line in text.lines() {
        assert!(!line.starts_with(FORGED), "{what}: a forged line: {line}\n{text}");
    }
}

fn forger(scratch: &Scratch) -> String {
    format!("{} {} {}", python(), repo_path("tests/bots/forger.py"), scratch.marker())
}

#[test]
fn check_bot_shows_what_a_bot_wrote_escaped() {
    let scratch = Scratch::new("terminal-check-bot");
    // Generous time limits: the handshake must pass for its line to show the bot's name.
    let output = arena(&["check-bot", "--move-timeout", "5000", "--startup-timeout", "30000", &forger(&scratch)]);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert_clean("check-bot", &output.stdout);
    assert_clean("check-bot (stderr)", &output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("\\u{1b}]0;owned"), "the escape sequences are shown escaped: {stdout}");
}

#[test]
fn match_shows_faults_escaped() {
    let scratch = Scratch::new("terminal-match");
    let bots = [("forger", forger(&scratch)), ("greedy", bin("greedy-bot"))];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(name, command)| (*name, command.as_str())).collect();
    let output = arena(&match_args(&scratch, &bots, &["--games", "2", "--startup-timeout", "30000"]));
    // Exit status 4: the forger forfeits both its games.
    assert_eq!(output.status.code(), Some(4), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("fault: "), "the faults are reported");
    assert_clean("match (stdout)", &output.stdout);
    assert_clean("match (stderr)", &output.stderr);
}

/// A match of greedy-bot against random-bot, recorded in `scratch/games`.
fn greedy_against_random(scratch: &Scratch) -> String {
    let games = scratch.join("games");
    let bots = [("greedy", bin("greedy-bot")), ("random", bin("random-bot"))];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(name, command)| (*name, command.as_str())).collect();
    arena_expect(&match_args(scratch, &bots, &["--games", "2", "--out", &games]), 0);
    games
}

#[test]
fn replay_shows_a_failing_bot_escaped() {
    let scratch = Scratch::new("terminal-replay");
    let games = greedy_against_random(&scratch);
    // Replayed in greedy's seats of whole games, the forger faults at its 4th decision.
    let forger = format!("greedy={}", forger(&scratch));
    let timeouts = ["--startup-timeout", "30000", "--move-timeout", "5000"];
    let output = arena(&[&["replay", games.as_str(), "--as", "greedy", "--bot", &forger][..], &timeouts].concat());
    assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stderr).contains("its stderr ended with"), "the bot's stderr is shown");
    assert_clean("replay (stdout)", &output.stdout);
    assert_clean("replay (stderr)", &output.stderr);
}

#[test]
fn verify_shows_a_hostile_record_escaped() {
    let scratch = Scratch::new("terminal-verify");
    let games = greedy_against_random(&scratch);
    let mut lines: Vec<serde_json::Value> = record_json(&games);
    lines[0]["result"]["reason"] = format!("\u{1b}]0;owned\u{7}\u{9b}2J\u{202e}\r{FORGED}").into();
    let text: String = lines.iter().map(|record| format!("{record}\n")).collect();
    std::fs::write(format!("{games}/games.jsonl"), text).unwrap();
    let output = arena(&["verify", games.as_str()]);
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stdout));
    assert!(String::from_utf8_lossy(&output.stdout).contains("owned"), "the record's text is shown");
    assert_clean("verify (stdout)", &output.stdout);
    assert_clean("verify (stderr)", &output.stderr);
}
