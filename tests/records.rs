//! Working with recorded games, end to end: `arena match --deals` plays
//! given deals, `arena verify` catches hand-edited records, and `arena
//! replay` diffs a bot's choices against a record.

use all_fives::wire::ToBot;
use e2e::*;
use serde_json::{Value, json};

use e2e::five_tile_deal as deal;

const FIVE: &[&str] = &["--variant", "deal=five", "--variant", "max_hands=1"];

fn write_deals(scratch: &Scratch, games: &[Value]) -> String {
    let path = scratch.join("deals.json");
    let text: Vec<String> = games.iter().map(|game| serde_json::to_string_pretty(game).unwrap()).collect();
    std::fs::write(&path, text.join("\n")).unwrap();
    path
}

fn greedy_and_random(scratch: &Scratch, extra: &[&str]) -> Vec<String> {
    match_args(scratch, &[("greedy", &bin("greedy-bot")), ("random", &bin("random-bot"))], extra)
}

#[test]
fn fixed_deals_are_played_in_every_rotation_and_verify() {
    let scratch = Scratch::new("fixed-deals");
    let first = deal([&[[5, 5], [0, 5], [1, 4], [2, 3], [6, 6]], &[[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]]], 1);
    let second = deal([&[[0, 1], [0, 2], [0, 3], [0, 4], [0, 6]], &[[1, 2], [1, 3], [1, 5], [1, 6], [2, 4]]], 0);
    let file = write_deals(&scratch, &[json!({"deals": [first]}), json!({"deals": [second]})]);
    let out = scratch.join("out");
    let mut extra = vec!["--deals", &file, "--out", &out, "--seed", "3"];
    extra.extend_from_slice(FIVE);
    arena_expect(&greedy_and_random(&scratch, &extra), 0);

    let records = Record::all(&out);
    assert_eq!(records.len(), 4, "each of the 2 deals in both rotations");
    for record in &records {
        let given = if record.deal == 0 { &first } else { &second };
        let dealt = &record.events[0];
        assert!(record.preset);
        assert_eq!(dealt["type"], "hand_start");
        assert_eq!(dealt["hands"], sorted(&given["hands"]), "game {}: the seats hold the given hands", record.id);
        assert_eq!(dealt["boneyard"], given["boneyard"], "the boneyard in the given order");
        assert_eq!(dealt["leader"], given["leader"]);
    }
    assert_eq!(records[0].bots, ["greedy", "random"]);
    assert_eq!(records[1].bots, ["random", "greedy"], "the bots swap seats for the same deal");
    let (stdout, _) = arena_expect(&["verify", &out], 0);
    assert!(stdout.contains("4 games verified: every record agrees"), "{stdout}");
}

#[test]
fn deals_that_cannot_be_played_are_refused_with_the_reason() {
    let scratch = Scratch::new("bad-deals");
    let good = deal([&[[5, 5], [0, 5], [1, 4], [2, 3], [6, 6]], &[[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]]], 0);
    let mut twice = good.clone();
    twice["boneyard"][0] = json!([5, 5]);
    let mut missing = good.clone();
    missing["boneyard"].as_array_mut().unwrap().pop();
    let mut three_hands = good.clone();
    three_hands["hands"].as_array_mut().unwrap().push(json!([[0, 1]]));
    let mut leader = good.clone();
    leader["leader"] = json!(2);
    let mut short = good.clone();
    short["hands"][0].as_array_mut().unwrap().pop();
    let cases = [
        (twice, "[5, 5] is dealt twice"),
        (missing, "[5, 6] is missing from the deal"),
        (three_hands, "3 hands dealt for 2 players"),
        (leader, "leader 2 is not a seat"),
        (short, "seat 0 is dealt 4 tiles, the variant deals 5"),
    ];
    for (bad, reason) in cases {
        let file = write_deals(&scratch, &[json!({"deals": [good]}), json!({"deals": [bad]})]);
        let mut extra = vec!["--deals", file.as_str()];
        extra.extend_from_slice(FIVE);
        let (_, stderr) = arena_expect(&greedy_and_random(&scratch, &extra), 2);
        let line = 1 + serde_json::to_string_pretty(&json!({"deals": [good]})).unwrap().lines().count();
        assert!(stderr.contains(&format!("game 2 (line {line}): hand 1: {reason}")), "{reason}: {stderr}");
    }
    let file = scratch.join("not-json.json");
    std::fs::write(&file, "{\"deals\": [}").unwrap();
    let (_, stderr) = arena_expect(&greedy_and_random(&scratch, &["--deals", &file]), 2);
    assert!(stderr.contains("not-json.json: game 1: "), "{stderr}");
}

/// Each hand sorted, as records and the engine keep them.
fn sorted(hands: &Value) -> Value {
    let mut hands: Vec<Vec<[u8; 2]>> = serde_json::from_value(hands.clone()).unwrap();
    hands.iter_mut().for_each(|hand| hand.sort_unstable());
    json!(hands)
}

/// Plays a short match and returns its output directory.
fn played(scratch: &Scratch, extra: &[&str]) -> String {
    let out = scratch.join("out");
    let mut args = vec!["--out", out.as_str(), "--games", "6", "--seed", "11", "--variant", "target=100"];
    args.extend_from_slice(extra);
    arena_expect(&greedy_and_random(scratch, &args), 0);
    out
}

/// Writes `records` as a games.jsonl file named `name` and returns its path.
fn write_records(scratch: &Scratch, name: &str, records: &[Value]) -> String {
    let path = scratch.join(name);
    let lines: Vec<String> = records.iter().map(Value::to_string).collect();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// The index of the first event of game `record` of type `kind`.
fn first(record: &Value, kind: &str) -> usize {
    record["events"].as_array().unwrap().iter().position(|e| e["type"] == kind).unwrap()
}

#[test]
fn verify_catches_hand_edited_scores_tiles_and_results() {
    let scratch = Scratch::new("verify-edits");
    let out = played(&scratch, &[]);
    let (stdout, _) = arena_expect(&["verify", &out], 0);
    assert!(stdout.contains("6 games verified: every record agrees with the engine"), "{stdout}");
    // Edited as JSON: the damaged records are what verify is given.
    let records = record_json(&out);

    let mut score = records.clone();
    let at = first(&score[2], "hand_end");
    score[2]["events"][at]["scores"][1] = json!(77);
    let mut tile = records.clone();
    let play = first(&tile[4], "play") + 2;
    let original = tile[4]["events"][play]["tile"].clone();
    tile[4]["events"][play]["tile"] = if original == json!([6, 6]) { json!([0, 0]) } else { json!([6, 6]) };
    let mut result = records.clone();
    result[5]["result"]["ranks"] = json!([1, 1]);
    let mut torn = records.clone();
    torn[1] = json!({"id": 1, "game": "all-fives", "events": "cut"});

    let cases = [
        (score, format!("game 2, event {at}: scores: recorded [")),
        (tile, format!("game 4, event {play}: seat")),
        (result, "game 5, result: ranks: recorded [1,1], the replay gives [".to_string()),
        (torn, "game 1, not a all-fives record: ".to_string()),
    ];
    for (edited, expected) in cases {
        let file = write_records(&scratch, "edited.jsonl", &edited);
        let (stdout, _) = arena_expect(&["verify", &file], 1);
        assert!(stdout.contains(&expected), "expected {expected:?} in:\n{stdout}");
        assert!(stdout.contains("6 games verified: 1 disagree with the engine (1 disagreements)"), "{stdout}");
    }
    let (_, stderr) = arena_expect(&["verify", &scratch.join("missing.jsonl")], 2);
    assert!(stderr.contains("cannot open") && stderr.contains("missing.jsonl"), "{stderr}");
}

#[test]
fn replay_lists_the_decisions_a_changed_bot_makes_differently() {
    let scratch = Scratch::new("replay-diff");
    let out = played(&scratch, &[]);
    let record = &Record::all(&out)[0];
    let seat = record.seat_of("greedy");
    let seat_text = seat.to_string();
    let replay = |bot: &str, status: i32| {
        let args = ["replay", out.as_str(), "--game", "0", "--seat", &seat_text, "--bot", bot];
        arena_expect(&args, status).0
    };

    let (greedy, random) = (format!("greedy={}", bin("greedy-bot")), format!("random={}", bin("random-bot")));
    let same = replay(&greedy, 0);
    let decisions = record.events_of("play").filter(|e| e["seat"] == seat);
    let count = decisions.count();
    assert!(same.contains(&format!("greedy chose as recorded at all {count} decisions")), "{same}");

    let changed = replay(&random, 1);
    let prefix = format!("game 0, seat {seat} (greedy), event ");
    let listed: Vec<&str> = changed.lines().filter(|line| line.starts_with(&prefix)).collect();
    assert!(!listed.is_empty(), "{changed}");
    let share = format!("random chose differently at {} of {count} decisions (", listed.len());
    assert!(changed.contains(&share), "{changed}");
    for line in listed {
        let at: usize = line[prefix.len()..line.find(": ").unwrap()].parse().unwrap();
        let event = &record.events[at];
        assert_eq!((event["type"].as_str(), event["seat"].as_u64()), (Some("play"), Some(seat as u64)), "{line}");
        let recorded = format!("recorded {{\"tile\":{},", event["tile"]);
        assert!(line.contains(&recorded), "{line} should show the recorded tile {}", event["tile"]);
    }

    // Every game, in whichever seat greedy played: greedy itself agrees everywhere.
    let args = ["replay", out.as_str(), "--as", "greedy", "--bot", &greedy];
    let (all, _) = arena_expect(&args, 0);
    let greedy_plays = |r: &Record| r.events_of("play").filter(|e| e["seat"] == r.seat_of("greedy")).count();
    let decisions: usize = Record::all(&out).iter().map(greedy_plays).sum();
    assert!(all.starts_with("replaying 6 games of "), "{all}");
    assert!(all.contains(&format!("greedy chose as recorded at all {decisions} decisions")), "{all}");
    let args = ["replay", out.as_str(), "--as", "greedy", "--bot", &random];
    let (all, _) = arena_expect(&args, 1);
    assert!(all.contains(" of 6 games\n"), "{all}");
    // A bot that draws on the seed game_start gives it replays its own random choices exactly.
    let (all, _) = arena_expect(&["replay", out.as_str(), "--as", "random", "--bot", &random], 0);
    assert!(all.contains("random chose as recorded at all "), "{all}");
}

#[test]
fn the_cpp_and_java_sample_bots_choose_as_greedy_bot_does() {
    let scratch = Scratch::new("replay-starters");
    let out = played(&scratch, &[]);
    let mut bots = Vec::new();
    bots.extend(cpp_greedy(scratch.path()).map(|command| format!("cpp={command}")));
    bots.extend(java_greedy(scratch.path()).map(|command| format!("java={command}")));
    for bot in &bots {
        let (stdout, _) = arena_expect(&["replay", out.as_str(), "--as", "greedy", "--bot", bot], 0);
        assert!(stdout.contains(" chose as recorded at all "), "{bot}: {stdout}");
    }
    // Java runs from its source file too (compiled at each start, so one game only).
    if let Some(java) = optional_tool(JAVA) {
        let source = format!("java={} {JVM_FLAGS} {}", java.display(), repo_path("sample-bots/java/Greedy.java"));
        let seat = Record::all(&out)[0].seat_of("greedy").to_string();
        let args = ["replay", &out, "--game", "0", "--seat", &seat, "--startup-timeout", "60000", "--bot", &source];
        let (stdout, _) = arena_expect(&args, 0);
        assert!(stdout.contains("java chose as recorded at all "), "{stdout}");
    }
}

#[test]
fn replay_tells_the_bot_exactly_what_its_seat_was_told() {
    let scratch = Scratch::new("replay-views");
    let (match_logs, replay_logs) = (scratch.join("match-logs"), scratch.join("replay-logs"));
    std::fs::create_dir_all(&match_logs).unwrap();
    std::fs::create_dir_all(&replay_logs).unwrap();
    let recorder = |dir: &str| format!("{} {} {dir}", python(), repo_path("tests/bots/recorder.py"));
    let out = scratch.join("out");
    let bots = [("spy", recorder(&match_logs)), ("greedy", bin("greedy-bot"))];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(name, command)| (*name, command.as_str())).collect();
    let extra = ["--out", out.as_str(), "--games", "4", "--seed", "5", "--players", "2", "--variant", "target=60"];
    arena_expect(&match_args(&scratch, &bots, &extra), 0);
    let record = &Record::all(&out)[3];
    let seat = record.seat_of("spy");
    let bot = format!("spy={}", recorder(&replay_logs));
    let (stdout, _) = arena_expect(&["replay", &out, "--game", "3", "--seat", &seat.to_string(), "--bot", &bot], 0);
    assert!(stdout.contains("spy chose as recorded"), "{stdout}");

    let in_match: Vec<ToBot> = recorded(std::path::Path::new(&match_logs))
        .into_iter()
        .find_map(|messages| game_messages(&messages, record.told_id()))
        .expect("the match's spy played game 3");
    let replayed = recorded(std::path::Path::new(&replay_logs));
    assert_eq!(replayed.len(), 1, "one process");
    assert!(matches!(replayed[0][0], ToBot::Hello(_)) && matches!(replayed[0].last(), Some(ToBot::Bye)));
    let in_replay = game_messages(&replayed[0], record.told_id()).expect("game 3 replayed");
    assert!(in_match.len() > 20);
    assert_eq!(in_replay, in_match, "the same messages, turn ids aside");
}

/// The messages of game `id` (from its game_start to its game_end), with
/// turn ids (numbered per process) set to 0.
fn game_messages(messages: &[ToBot], id: u64) -> Option<Vec<ToBot>> {
    let start = messages.iter().position(|m| matches!(m, ToBot::GameStart(s) if s.id == id))?;
    let end = start + messages[start..].iter().position(|m| matches!(m, ToBot::GameEnd(_)))?;
    let mut game = messages[start..=end].to_vec();
    for message in &mut game {
        if let ToBot::Turn(turn) = message {
            turn.id = 0;
        }
    }
    Some(game)
}

#[test]
fn replay_reports_a_failing_bot_and_usage_errors() {
    let scratch = Scratch::new("replay-errors");
    let out = played(&scratch, &[]);
    let crash = format!("crash={} {}", python(), repo_path("tests/bots/crash_mid_game.py"));
    let (_, stderr) = arena_expect(&["replay", &out, "--game", "1", "--seat", "0", "--bot", &crash], 2);
    assert!(
        stderr.contains("game 1, seat 0: crash failed after 3 decisions: exited: exited with status 1"),
        "{stderr}"
    );
    let greedy = format!("greedy={}", bin("greedy-bot"));
    let (_, stderr) = arena_expect(&["replay", &out, "--game", "6", "--seat", "0", "--bot", &greedy], 2);
    assert!(stderr.contains("has no game 6; its games are 0-5"), "{stderr}");
    let (_, stderr) = arena_expect(&["replay", &out, "--game", "0", "--seat", "2", "--bot", &greedy], 2);
    assert!(stderr.contains("--seat 2: game 0 has seats 0 to 1"), "{stderr}");
    assert_eq!(scratch.leftover_processes(), Vec::<String>::new());
}

#[test]
fn leagues_and_sprt_cycle_through_a_deals_file_and_resume_without_it() {
    let scratch = Scratch::new("league-deals");
    let games: Vec<Value> = [1u8, 2, 3]
        .iter()
        .map(|&shift| {
            let mut tiles: Vec<[u8; 2]> = (0..=6u8).flat_map(|a| (a..=6).map(move |b| [a, b])).collect();
            tiles.rotate_left(usize::from(shift) * 5);
            json!({"deals": [{"hands": [&tiles[..5], &tiles[5..10]], "boneyard": &tiles[10..], "leader": 0}]})
        })
        .collect();
    let file = write_deals(&scratch, &games);
    // A group's nth deal is set up from the file's game nth modulo 3; a
    // league's pair of colexicographic rank r plays deals 4r to 4r + 3.
    let dealt = |record: &Record, deals: u64| sorted(&games[(record.deal % deals) as usize % 3]["deals"][0]["hands"]);

    // A league of three bots, 8 games per pair: each pair's 4 deals use the file's games 0, 1, 2, 0.
    let out = scratch.join("league");
    let (greedy, random) = (format!("greedy={}", bin("greedy-bot")), format!("random={}", bin("random-bot")));
    let python = format!("py={}", python_greedy());
    let mut args = vec!["league", "--bot", &greedy, "--bot", &random, "--bot", &python, "--deals", &file];
    args.extend_from_slice(&["--games", "8", "--seed", "4", "--concurrency", "2", "--out", &out]);
    // (Limits no busy machine reaches: the resumed league plays the same games.)
    args.extend_from_slice(&PATIENT);
    args.extend_from_slice(FIVE);
    arena_expect(&args, 0);
    let complete = canonical_records(&out);
    let played = Record::all(&out);
    assert_eq!(played.len(), 24);
    for record in &played {
        assert_eq!(record.events[0]["hands"], dealt(record, 4), "game {}", record.id);
    }

    // Lose half the games and the deals file: the resumed league plays the same games again.
    let games_file = std::path::Path::new(&out).join("games.jsonl");
    let text = std::fs::read_to_string(&games_file).unwrap();
    let kept: Vec<&str> = text.lines().step_by(2).collect();
    std::fs::write(&games_file, kept.join("\n") + "\n").unwrap();
    std::fs::remove_file(&file).unwrap();
    arena_expect(&["league", "--resume", &out], 0);
    assert_eq!(canonical_records(&out), complete, "the resumed league plays the stored deals");
    arena_expect(&["verify", &out], 0);

    // An SPRT cycles through the deals the same way.
    let file = write_deals(&scratch, &games);
    let sprt = scratch.join("sprt");
    let mut args = vec!["sprt", "--new", &greedy, "--base", &random, "--deals", &file, "--max-games", "14"];
    args.extend_from_slice(&["--seed", "2", "--out", &sprt]);
    args.extend_from_slice(FIVE);
    arena_expect(&args, 3);
    let records = Record::all(&sprt);
    assert_eq!(records.len(), 14);
    for record in &records {
        assert_eq!(record.events[0]["hands"], dealt(record, u64::MAX), "sprt game {}", record.id);
        assert!(record.preset);
    }
}

/// A difference as `arena replay` lists it.
#[derive(Debug, Clone, PartialEq)]
struct Listed {
    game: u64,
    seat: usize,
    event: usize,
    /// The recorded move and what it scores at once.
    recorded: (Value, i64),
    /// The bot's move and what it would have scored at once.
    chosen: (Value, i64),
    /// The command printed under it.
    view: String,
}

/// The differences `stdout` of `arena replay` lists.
fn listed(stdout: &str) -> Vec<Listed> {
    let lines: Vec<&str> = stdout.lines().collect();
    let mut listed = Vec::new();
    for (at, line) in lines.iter().enumerate().filter(|(_, line)| line.starts_with("game ")) {
        // The text between `after` and the next `before`.
        let field = |after: &str, before: &str| {
            let start = line.find(after).unwrap_or_else(|| panic!("{after:?} in {line}")) + after.len();
            let end = start + line[start..].find(before).unwrap_or_else(|| panic!("{before:?} in {line}"));
            line[start..end].to_string()
        };
        // "game G, seat S (NAME), event E: recorded MOVE (scores N), BOT chose MOVE (scores N)"
        let (head, chosen) = line.split_once(" chose ").unwrap_or_else(|| panic!("a choice in {line}"));
        let recorded = head.split_once(": recorded ").and_then(|(_, rest)| rest.rsplit_once(", ")).unwrap().0;
        let scored = |part: &str| {
            let (choice, gain) = part.rsplit_once(" (scores ").unwrap_or_else(|| panic!("a score in {line}"));
            (serde_json::from_str(choice).unwrap(), gain.strip_suffix(')').unwrap().parse().unwrap())
        };
        listed.push(Listed {
            game: field("game ", ",").parse().unwrap(),
            seat: field(", seat ", " (").parse().unwrap(),
            event: field(", event ", ":").parse().unwrap(),
            recorded: scored(recorded),
            chosen: scored(chosen),
            view: lines[at + 1].strip_prefix("  ").unwrap_or_else(|| panic!("a command under {line}")).to_string(),
        });
    }
    listed
}

/// The kind `arena replay` gives an All Fives move: the names of its fields that are not null.
fn kind_of(choice: &Value) -> &'static str {
    if choice["end"].is_null() { "tile+points" } else { "tile+end+points" }
}

/// What the move at event `at` of `record` added to `seat`'s score before the
/// next decision: the scores the record gives after it (its forced draws,
/// passes and the settlement of a hand it ends included) less those before.
fn gain_at_once(record: &Record, at: usize, seat: usize) -> i64 {
    let events = &record.events;
    let score = |event: &Value| event["scores"].get(seat).and_then(Value::as_i64);
    let before = events[..at].iter().rev().find_map(score).unwrap();
    let next = events.iter().skip(at + 1).position(|e| e["type"] == "play").map_or(events.len(), |p| at + 1 + p);
    events[..next].iter().rev().find_map(score).unwrap() - before
}

/// The lines of the summary `arena replay` ends with, whitespace runs made
/// single spaces, but for the line that says how many were listed.
fn summary(stdout: &str) -> Vec<String> {
    let start = stdout.find(" chose differently at ").map(|at| stdout[..at].rfind('\n').unwrap() + 1).unwrap();
    let lines = stdout[start..].lines().filter(|line| !line.starts_with("listed "));
    lines.map(|line| line.split_whitespace().collect::<Vec<_>>().join(" ")).collect()
}

#[test]
fn replay_sums_up_the_differences_by_kind_of_move_and_by_what_the_move_scores() {
    let scratch = Scratch::new("replay-summary");
    let out = played(&scratch, &[]);
    let random = format!("random={}", bin("random-bot"));
    let (stdout, _) = arena_expect(&["replay", out.as_str(), "--as", "greedy", "--bot", &random], 1);
    let every = listed(&stdout);
    let records = Record::all(&out);
    for difference in &every {
        let record = records.iter().find(|record| record.id == difference.game).unwrap();
        let event = &record.events[difference.event];
        let (recorded, gain) = &difference.recorded;
        for field in ["tile", "end", "points"] {
            assert_eq!(recorded[field], event[field], "{difference:?}");
        }
        assert_eq!(*gain, gain_at_once(record, difference.event, difference.seat), "{difference:?}");
    }
    // The decisions of each kind, from the records; the differences of each, from the list.
    let mut kinds = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    for record in &records {
        let greedy = |event: &&Value| record.bots[event["seat"].as_u64().unwrap() as usize] == "greedy";
        for event in record.events_of("play").filter(greedy) {
            kinds.entry(kind_of(event)).or_default().0 += 1;
        }
    }
    for difference in &every {
        kinds.get_mut(kind_of(&difference.recorded.0)).unwrap().1 += 1;
    }
    assert_eq!(kinds.len(), 2, "leads and plays on an end: {kinds:?}");
    let decisions: usize = kinds.values().map(|(decisions, _)| decisions).sum();
    let summary = summary(&stdout);
    let total = format!("random chose differently at {} of {decisions} decisions (", every.len());
    assert!(summary[0].starts_with(&total) && summary[0].ends_with(" in 6 of 6 games"), "{stdout}");
    assert_eq!(summary[1], "by kind of the recorded move:");
    for (kind, (decisions, differ)) in &kinds {
        let line = format!("{kind} {decisions} decisions, {differ} differ (");
        assert!(summary.iter().any(|l| l.starts_with(&line)), "{line} in {summary:#?}");
    }
    // The differences by what the bot's move scores less what the recorded one does.
    let mut gains = std::collections::BTreeMap::<i64, usize>::new();
    for difference in &every {
        *gains.entry(difference.chosen.1 - difference.recorded.1).or_default() += 1;
    }
    let header = "by what the chosen move scores at once, less what the recorded one scores:";
    let from = summary.iter().position(|line| line == header).expect(header) + 1;
    let table: std::collections::BTreeMap<i64, usize> = summary[from..]
        .iter()
        .map_while(|line| {
            let mut words = line.split(' ');
            Some((words.next()?.parse().ok()?, words.next()?.parse().ok()?))
        })
        .collect();
    assert_eq!(table, gains, "{summary:#?}");
    assert!(gains.keys().any(|gain| *gain < 0), "random does worse than greedy somewhere: {gains:?}");
}

#[test]
fn replay_lists_what_its_filters_let_through_each_with_the_command_that_opens_it() {
    let scratch = Scratch::new("replay-filters");
    let out = played(&scratch, &[]);
    let random = format!("random={}", bin("random-bot"));
    let replay = |extra: &[&str]| {
        let args = [&["replay", out.as_str(), "--as", "greedy", "--bot", &random][..], extra].concat();
        arena_expect(&args, 1)
    };
    let (all, _) = replay(&[]);
    let every = listed(&all);
    let check = |extra: &[&str], keep: &dyn Fn(&Listed) -> bool| {
        let (stdout, _) = replay(extra);
        let kept: Vec<Listed> = every.iter().filter(|d| keep(d)).cloned().collect();
        assert!(!kept.is_empty() && kept.len() < every.len(), "{extra:?} keeps some: {kept:?}");
        assert_eq!(listed(&stdout), kept, "{extra:?}");
        assert_eq!(summary(&stdout), summary(&all), "{extra:?}: the summary counts every difference");
        let told = format!(
            "listed {} of the {} differences ({}: {} match)\n",
            kept.len(),
            every.len(),
            extra.join(" "),
            kept.len()
        );
        assert!(stdout.contains(&told), "{told} in {stdout}");
    };
    let lead = |d: &Listed| d.recorded.0["end"].is_null() || d.chosen.0["end"].is_null();
    check(&["--only", "tile+points"], &lead);
    check(&["--min-diff", "10"], &|d| d.chosen.1.abs_diff(d.recorded.1) >= 10);
    let (stdout, _) = replay(&["--only", "tile+end+points", "--limit", "2"]);
    let on_an_end: Vec<Listed> = every.iter().filter(|d| !lead(d)).take(2).cloned().collect();
    assert_eq!(listed(&stdout), on_an_end);
    let (stdout, stderr) = replay(&["--only", "fold"]);
    assert!(listed(&stdout).is_empty(), "{stdout}");
    let warning = "warning: --only fold: no move of that kind was met; the kinds are: tile+end+points, tile+points";
    assert!(stderr.contains(warning), "{stderr}");

    // Each difference comes with the command that writes its game's page, opening at that
    // decision and marking it with both moves.
    let games = format!("{out}/games.jsonl");
    for d in &every {
        let page = format!("game-{}-{}.html", d.game, d.event);
        let view = format!("{} view {games} --game {} --step {} --mark ", bin("arena"), d.game, d.event);
        assert!(d.view.starts_with(&view) && d.view.ends_with(&format!(" -o {page}")), "{}", d.view);
    }
    let d = &every[every.len() / 2];
    let pasted = output(std::process::Command::new("sh").args(["-c", &d.view]).current_dir(scratch.path()));
    assert!(pasted.status.success(), "{}: {pasted:?}", d.view);
    let html = std::fs::read_to_string(scratch.path().join(format!("game-{}-{}.html", d.game, d.event))).unwrap();
    assert!(html.contains(&format!("\"#step={}\"", d.event)), "the page opens at the decision");
    let quoted = |move_: &Value| move_.to_string().replace('"', "&quot;");
    let mark = format!(
        "<b>The replayed decision, at step {}:</b> seat {}: recorded {}, random chose {} ",
        d.event,
        d.seat,
        quoted(&d.recorded.0),
        quoted(&d.chosen.0)
    );
    assert!(html.contains(&mark), "the page marks the decision with both moves: {mark}");
}

#[test]
fn replay_keeps_a_process_per_seat_from_game_to_game_that_never_meets_a_deal_twice() {
    let scratch = Scratch::new("replay-kept");
    let out = played(&scratch, &[]);
    let logs = scratch.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let bot = format!("spy={} {} {}", python(), repo_path("tests/bots/recorder.py"), logs.display());
    let args = ["replay", out.as_str(), "--as", "greedy", "--jobs", "1", "--startup-timeout", "60000", "--bot", &bot];
    arena_expect(&args, 1);
    let processes = recorded(&logs);
    // 6 games: 3 deals, greedy in each seat once a deal; a process for each seat plays its 3.
    assert_eq!(processes.len(), 2, "a process for each seat, not for each game");
    for messages in &processes {
        let ToBot::Hello(hello) = &messages[0] else { panic!("hello first: {messages:?}") };
        let starts: Vec<_> = messages
            .iter()
            .filter_map(|m| match m {
                ToBot::GameStart(start) => Some(start),
                _ => None,
            })
            .collect();
        assert_eq!(starts.len(), 3, "{messages:?}");
        assert!(starts.iter().all(|start| start.seat == hello.seat), "every game in the seat of its hello");
        let seeds: std::collections::HashSet<u64> = starts.iter().map(|start| start.seed).collect();
        assert_eq!(seeds.len(), 3, "no deal met twice");
        let ends = messages.iter().filter(|m| matches!(m, ToBot::GameEnd(_))).count();
        assert_eq!(ends, 3, "each game ends with its game_end");
        assert!(matches!(messages.last(), Some(ToBot::Bye)), "bye at the end");
    }
}

#[test]
fn replay_lists_the_same_in_the_file_order_whatever_the_number_of_jobs() {
    let scratch = Scratch::new("replay-jobs");
    let out = played(&scratch, &[]);
    let random = format!("random={}", bin("random-bot"));
    let replay = |jobs: &str| {
        let args = patient(&["replay", out.as_str(), "--as", "greedy", "--bot", &random, "--jobs", jobs]);
        arena_expect(&args, 1).0
    };
    let one = replay("1");
    assert_eq!(replay("4"), one, "--jobs 4 lists as --jobs 1 does, byte for byte");
    let ids: Vec<u64> = Record::all(&out).iter().map(|record| record.id).collect();
    let mut order: Vec<usize> = listed(&one).iter().map(|d| ids.iter().position(|id| *id == d.game).unwrap()).collect();
    assert!(order.is_sorted(), "in the file's order: {order:?}");
    order.dedup();
    assert_eq!(order.len(), 6, "differences in every game");

    // With --jobs 2, two processes of the bot run at once (each waits for another to be running).
    let dir = scratch.join("meets");
    std::fs::create_dir_all(&dir).unwrap();
    let meets = format!("meets={} {} {dir}", python(), repo_path("tests/bots/meets.py"));
    let args = [&["replay", out.as_str(), "--as", "greedy", "--bot", &meets, "--jobs", "2"][..], &PATIENT].concat();
    arena_expect(&args, 1);
    let met = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|entry| entry.as_ref().unwrap().file_name().to_string_lossy().starts_with("met."));
    assert!(met.count() >= 2, "two replays at once");
}
