//! Many games in one bot process (a session): a batching bot's records are
//! those of the same bot played one game per process, a fault in one game
//! ends that game only, and a line naming no game ends every game of its
//! process.

use e2e::*;

/// A match of `tests/bots/batches.py` (its arguments `games`: how many
/// at once, and a misbehaviour if any) against greedy-bot: its output directory.
/// `status` is the arena's exit status.
fn batches_match(scratch: &Scratch, label: &str, games: &str, status: i32) -> String {
    let out = scratch.join(label);
    let bot = format!("{} {} {games}", python(), repo_path("tests/bots/batches.py"));
    let flags = patient(&["--games", "40", "--seed", "11", "--concurrency", "8", "--out", &out]);
    let args = match_args(scratch, &[("b", &bot), ("g", &bin("greedy-bot"))], &flags);
    arena_expect(&args, status);
    out
}

/// The records of `out`, without timing, in the order of their ids.
fn sorted(out: &str) -> Vec<String> {
    let mut records = record_json(out);
    records.sort_by_key(|record| record["id"].as_u64());
    records.into_iter().map(|record| without_timing(record).to_string()).collect()
}

/// How many processes each bot started (one stderr log each).
fn processes(out: &str, bot: &str) -> usize {
    let logs = std::fs::read_dir(std::path::Path::new(out).join("logs")).expect("logs");
    logs.flatten().filter(|log| log.file_name().to_string_lossy().starts_with(&format!("{bot}."))).count()
}

#[test]
fn a_batching_bot_plays_as_it_does_one_game_per_process() {
    let scratch = Scratch::new("sessions-records");
    let batched = batches_match(&scratch, "batched", "16", 0);
    let plain = batches_match(&scratch, "plain", "0", 0);
    assert_eq!(sorted(&batched), sorted(&plain), "the same seed, the same deterministic bot: the same games");
    // A process per lane for the session; the plain bot, one per lane and game played at once.
    let (sessions, greedy) = (processes(&batched, "b"), processes(&batched, "g"));
    assert!(sessions < greedy, "{sessions} sessions, {greedy} greedy-bot processes");
    assert!(records(&batched).iter().all(|record| record.faults.is_empty()));
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn a_fault_in_one_game_ends_that_game_only_and_a_line_naming_none_every_game() {
    let scratch = Scratch::new("sessions-faults");
    // Each session process plays an illegal move in the second game it is given, and only there.
    let out = batches_match(&scratch, "illegal", "16 illegal-second", 0);
    let faulted: Vec<Record> = records(&out).into_iter().filter(|record| !record.faults.is_empty()).collect();
    let kinds: Vec<&str> = faulted.iter().map(|record| record.faults[0].kind.name()).collect();
    assert!(kinds.iter().all(|&kind| kind == "illegal_move"), "{kinds:?}");
    let sessions = processes(&out, "b");
    assert!(!faulted.is_empty() && faulted.len() <= sessions, "{} faulted games, {sessions} sessions", faulted.len());
    assert!(faulted.len() < 40);
    // Answers naming no game: every game open in the process ends, forfeited, with the process
    // (exit status 4: the bot forfeited every game).
    let out = batches_match(&scratch, "untagged", "16 untagged", 4);
    let all = records(&out);
    let kinds: Vec<&str> =
        all.iter().filter_map(|record| record.faults.first()).map(|fault| fault.kind.name()).collect();
    assert_eq!(kinds.len(), all.len(), "every game is forfeited");
    assert!(kinds.iter().all(|&kind| kind == "bad_message"), "{kinds:?}");
    scratch.assert_nothing_left(LINGER);
}
