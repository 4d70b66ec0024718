//! Under `--sandbox bwrap` an engine program runs sandboxed as a bot does: a
//! hostile engine (`tests/engines/hostile.py`) that, without the sandbox,
//! sees the bots' processes, may signal them, open their stdin and read the
//! arena's command line, finds none of it under the sandbox, stops no bot
//! (not even one whose pid it is given) and reads no stdin, and no bot is
//! charged a fault; the Connect Four engine and the OpenSpiel bridge (Python
//! with pyspiel) still play there; and an engine that dies in the sandbox is
//! blamed, saying where it ran.

use e2e::*;
use serde_json::Value;
use std::process::{Child, Command, Stdio};

/// A process outside the arena, whose pid the hostile engine is given; killed when dropped.
struct Decoy(Child);

impl Decoy {
    fn start() -> Decoy {
        let child = Command::new("sleep").arg("120").stdin(Stdio::piped()).spawn().expect("sleep starts");
        Decoy(child)
    }

    /// Its state, as /proc/PID/stat gives it (`T` when stopped).
    fn state(&self) -> String {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.0.id())).expect("the decoy lives");
        stat.rsplit(')').next().unwrap().split_whitespace().next().unwrap().to_string()
    }
}

impl Drop for Decoy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The hostile engine in `mode`, looking for processes that mention `scratch`, with the pid of `decoy`.
fn hostile(mode: &str, scratch: &Scratch, decoy: &Decoy) -> String {
    format!(
        "{} {} {} {mode} {} {}",
        python(),
        repo_path("tests/engines/hostile.py"),
        repo_path("engines/connect-four/engine.py"),
        scratch.marker(),
        decoy.0.id()
    )
}

/// A match of two test bots (their commands holding `scratch`'s marker) at
/// `engine`'s game, with `extra` flags: its records and standings.
fn play(scratch: &Scratch, engine: &str, extra: &[&str]) -> (Vec<Record>, Standings) {
    let out = scratch.join("out");
    let _ = std::fs::remove_dir_all(&out);
    let bot = |name: &str| format!("{} {}", python(), repo_path(&format!("tests/bots/{name}.py")));
    let (first, last) = (bot("first_legal"), bot("last_legal"));
    let mut flags = vec!["--engine", engine, "--games", "2", "--seed", "5", "--out", &out];
    flags.extend(extra);
    flags.extend(PATIENT);
    arena_expect(&match_args(scratch, &[("first", &first), ("last", &last)], &flags), 0);
    (records(&out), Standings::read(&out))
}

/// The engine's reports of what it found, one per game.
fn spied(records: &[Record]) -> Vec<Value> {
    let events = records.iter().flat_map(|record| record.events.iter());
    events.filter(|event| event["type"] == "spied").cloned().collect()
}

/// Every game is recorded without a fault, and no bot is charged one.
fn assert_no_fault(records: &[Record], standings: &Standings) {
    assert_eq!(records.len(), 2);
    for record in records {
        assert!(record.faults.is_empty(), "{record:?}");
    }
    for name in ["first", "last"] {
        assert_eq!(standings.bot(name).faults, 0, "{standings:?}");
    }
}

#[test]
fn a_hostile_engine_under_the_sandbox_cannot_see_signal_or_read_the_bots_or_the_arena() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("engine-sandbox-hostile");
    let decoy = Decoy::start();
    // Without the sandbox the engine is trusted like the arena: it sees the
    // bots and the arena, and could signal them and open their stdin.
    let (records, standings) = play(&scratch, &hostile("look", &scratch, &decoy), &[]);
    assert_no_fault(&records, &standings);
    let looks = spied(&records);
    assert_eq!(looks.len(), 2, "a report per game: {records:?}");
    for look in &looks {
        assert!(look["bots"].as_u64().unwrap() >= 2, "the bots' processes are seen: {look}");
        assert_eq!(look["signalled"], look["bots"], "and may be signalled: {look}");
        assert_eq!(look["stdin_opened"], look["bots"], "and their stdin opened: {look}");
        assert!(look["arena"].as_u64().unwrap() >= 1, "the arena's command line is read: {look}");
    }
    // Under the sandbox it sees no process but its own, and harms nobody.
    let (records, standings) = play(&scratch, &hostile("attack", &scratch, &decoy), &["--sandbox", "bwrap"]);
    assert_no_fault(&records, &standings);
    let attacks = spied(&records);
    assert_eq!(attacks.len(), 2, "a report per game: {records:?}");
    for attack in &attacks {
        assert_eq!(attack["bots"], 0, "no bot process is seen: {attack}");
        assert_eq!(attack["arena"], 0, "the arena's command line is not read: {attack}");
        assert_eq!((&attack["stopped"], &attack["stdin_read"]), (&Value::from(0), &Value::from(0)), "{attack}");
        assert_eq!(attack["decoy_stop"], "ProcessLookupError", "a pid outside is no process in there: {attack}");
        assert_eq!(attack["decoy_stdin"], "FileNotFoundError", "{attack}");
    }
    assert_ne!(decoy.state(), "T", "the process outside was not stopped");
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn the_connect_four_engine_and_the_openspiel_bridge_play_under_the_sandbox() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("engine-sandbox-plays");
    let connect_four = format!("{} {}", python(), repo_path("engines/connect-four/engine.py"));
    let (records, standings) = play(&scratch, &connect_four, &["--sandbox", "bwrap"]);
    assert_no_fault(&records, &standings);
    assert_eq!(records[0].game, "connect-four");
    if optional_python_module(PYSPIEL) {
        let bridge = format!("{} {} tic_tac_toe", python(), repo_path("engines/openspiel/bridge.py"));
        let (records, standings) = play(&scratch, &bridge, &["--sandbox", "bwrap"]);
        assert_no_fault(&records, &standings);
        assert_eq!(records[0].game, "openspiel-tic-tac-toe");
    }
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn an_engine_that_dies_in_the_sandbox_is_blamed_and_told_where_it_ran() {
    if optional_tool(BWRAP).is_none() {
        return;
    }
    let scratch = Scratch::new("engine-sandbox-dies");
    // An engine that reads a file outside what the sandbox shows it, then exits.
    let (dir, secret) = (scratch.path().join("engine"), scratch.path().join("secret"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&secret).unwrap();
    std::fs::write(secret.join("rules.txt"), "x").unwrap();
    let script = format!("open({:?}).read()\n", secret.join("rules.txt").display().to_string());
    std::fs::write(dir.join("reads.py"), script).unwrap();
    let engine = format!("{} {}", python(), dir.join("reads.py").display());
    let bot = format!("first={} {}", python(), repo_path("tests/bots/first_legal.py"));
    let other = format!("last={} {}", python(), repo_path("tests/bots/last_legal.py"));
    let args = ["match", "--engine", &engine, "--bot", &bot, "--bot", &other, "--games", "2", "--sandbox", "bwrap"];
    let (_, stderr) = arena_expect(&args, 1);
    assert!(stderr.contains(&format!("engine {engine:?} exited with status 1")), "{stderr}");
    assert!(stderr.contains("it ran in the sandbox (--sandbox bwrap)"), "{stderr}");
    assert!(stderr.contains("FileNotFoundError"), "its stderr is shown: {stderr}");
    // Without the sandbox it reads the file, and is blamed for exiting without a word of the sandbox.
    let (_, stderr) = arena_expect(&args[..args.len() - 2], 1);
    assert!(stderr.contains(&format!("engine {engine:?} exited with status 0")), "{stderr}");
    assert!(!stderr.contains("it ran in the sandbox"), "{stderr}");
    scratch.assert_nothing_left(LINGER);
}
