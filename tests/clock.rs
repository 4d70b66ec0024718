//! Game clocks (`--clock BASE+INC`): a seat that spends its clock forfeits
//! on time though every move came within the per-move limit; each turn
//! tells the bot its clock; every move records the clock left after it; a
//! long think survives a clock where the per-move limit alone forfeits it;
//! leagues (resumed too), SPRTs and check-bot play under it.
//!
//! No test asserts a duration: the bot sleeps at least what it is told to,
//! so only upper bounds on what is left follow from its sleeps, and the
//! clock's arithmetic is checked against the recorded times themselves.

use e2e::*;
use records::clock::{TimeControl, Timing};
use serde_json::Value;
use std::path::Path;

/// The command of `tests/bots/clocked.py`, logging to `dir`, sleeping
/// `sleep_ms` a move and `long_ms` on its 4th.
fn clocked(dir: &Path, sleep_ms: u64, long_ms: u64) -> String {
    std::fs::create_dir_all(dir).unwrap();
    format!("{} {} {} {sleep_ms} {long_ms}", python(), repo_path("tests/bots/clocked.py"), dir.display())
}

/// The moves of `seat` in `record`, in order.
fn moves(record: &Record, seat: u64) -> Vec<&Value> {
    record.events.iter().filter(|e| e.get("choice").is_some() && e["seat"].as_u64() == Some(seat)).collect()
}

/// The least `bot` left on its clock after a move in `records`, in µs.
fn least_clock(records: &[Record], bot: &str) -> u64 {
    let left = records.iter().flat_map(|record| {
        let seat = record.seat_of(bot) as u64;
        moves(record, seat).into_iter().map(|e| number(e, "clock_us")).collect::<Vec<_>>()
    });
    left.min().expect("moves under a clock")
}

/// The field `key` of `event` as a number.
fn number(event: &Value, key: &str) -> u64 {
    event[key].as_u64().unwrap_or_else(|| panic!("no {key} in {event}"))
}

/// Checks the clock of every move of `record` against RECORDS.md's
/// `clock_us`: after a seat's `n`-th move it is `base_ms`·1000 +
/// `n`·`increment_ms`·1000 − the sum of those moves' `time_us`, less from 0
/// to `n` µs (the arena keeps the clock to the nanosecond and rounds it
/// down, as it rounds each `time_us`).
fn check_clocks(record: &Record, base_ms: u64, increment_ms: u64) {
    for seat in 0..record.bots.len() as u64 {
        let mut expected = (base_ms * 1000) as i64;
        for (k, event) in moves(record, seat).into_iter().enumerate() {
            expected += (increment_ms * 1000) as i64 - number(event, "time_us") as i64;
            let gap = expected - number(event, "clock_us") as i64;
            assert!((0..=k as i64 + 1).contains(&gap), "seat {seat}, move {k}: expected {expected} µs left: {event}");
        }
    }
}

/// What `clocked.py` logged of each turn, by the id of the game.
fn told(dir: &Path) -> Vec<Value> {
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        lines.extend(text.lines().map(|line| serde_json::from_str::<Value>(line).unwrap()));
    }
    lines
}

#[test]
fn a_bot_that_spends_its_clock_forfeits_on_time_though_each_move_is_within_its_limit() {
    let scratch = Scratch::new("clock-spent");
    let out = scratch.join("out");
    // 600 ms a move against a clock of 2 s: the 4th move cannot come in time,
    // though each is far within the 5 s per-move limit.
    let slow = clocked(&scratch.path().join("slow"), 600, 600);
    let greedy = bin("greedy-bot");
    let extra = ["--games", "2", "--seed", "5", "--clock", "2s+0", "--move-timeout", "5000", "--out", &out];
    let args = match_args(
        &scratch,
        &[("slow", &slow), ("g", &greedy)],
        &[&extra[..], &["--startup-timeout", "60000"]].concat(),
    );
    // Exit status 4: slow forfeits both its games.
    let (stdout, _) = arena_expect(&args, 4);
    let records = Record::all(&out);
    assert_eq!(records.len(), 2);
    // The run ends with the least clock each bot left.
    let least = |name: &str| format!("{name} {:.1} ms", least_clock(&records, name) as f64 / 1000.0);
    let line = format!(
        "clock 2000+0 ms: the least each bot left on its clock after a move: {}, {}",
        least("g"),
        least("slow")
    );
    assert!(stdout.contains(&line), "{line}\n{stdout}");
    for record in &records {
        let faults = &record.faults;
        assert_eq!(faults.len(), 1, "only the slow bot faults: {faults:?}");
        let fault = &faults[0];
        assert_eq!((fault.bot.as_str(), fault.kind.name()), ("slow", "timeout"), "{fault:?}");
        assert!(fault.message.contains("out of time on its game clock"), "{}", fault.message);
        assert_eq!(record.result.reason, "forfeit");
        let seat = fault.seat as u64;
        let made = moves(record, seat);
        assert!(made.len() <= 3, "three moves of 600 ms leave less than 600 ms of 2 s: {made:?}");
        let mut left = 2_000_000;
        for event in made {
            let clock_us = number(event, "clock_us");
            assert!(clock_us + 600_000 <= left, "each move took at least 600 ms off the clock: {event}");
            left = clock_us;
        }
        assert!(moves(record, 1 - seat).iter().all(|e| e["clock_us"].is_u64()), "the other seat's clock is recorded");
        check_clocks(record, 2000, 0);
    }
    let standings = Standings::read(&out);
    assert_eq!(standings.bot("slow").faults_by_kind, [(records::fault::FaultKind::Timeout, 2)].into());
    assert!(standings.bot("g").faults_by_kind.is_empty());
}

#[test]
fn each_turn_tells_the_bot_its_clock_and_each_move_records_what_is_left() {
    let scratch = Scratch::new("clock-told");
    let out = scratch.join("out");
    let dir = scratch.path().join("told");
    let bot = clocked(&dir, 0, 0);
    let extra = ["--games", "2", "--seed", "6", "--clock", "30s+200ms", "--variant", "max_hands=2", "--out", &out];
    let args = match_args(
        &scratch,
        &[("c", &bot), ("g", &bin("greedy-bot"))],
        &[&extra[..], &["--startup-timeout", "60000"]].concat(),
    );
    arena_expect(&args, 0);
    let records = Record::all(&out);
    let told = told(&dir);
    for record in &records {
        assert_eq!(record.faults, [], "the bot found every turn's clock as it should be");
        check_clocks(record, 30_000, 200);
        let seat = record.seat_of("c") as u64;
        let turns: Vec<&Value> = told.iter().filter(|t| t["game"].as_u64() == Some(record.told_id())).collect();
        let made = moves(record, seat);
        assert_eq!(turns.len(), made.len(), "a turn for each move");
        // Before its first move the clock is the base; before each other,
        // what the last move left (the turn in ms, the record in µs).
        let before = std::iter::once(30_000).chain(made.iter().map(|e| number(e, "clock_us") / 1000));
        for (turn, clock_ms) in turns.iter().zip(before) {
            assert_eq!(turn["seat"].as_u64(), Some(seat));
            assert_eq!(turn["clock_ms"].as_u64(), Some(clock_ms), "{turn}");
            assert_eq!(turn["increment_ms"], 200);
            assert_eq!(turn["time_ms"].as_u64(), Some(clock_ms.min(30_000)), "the clock's base is the per-move limit");
        }
    }
    // A replay tells the bot the clock the record shows it had.
    let again = scratch.path().join("replayed");
    let replayer = format!("c={}", clocked(&again, 0, 0));
    arena_expect(&["replay", &out, "--bot", &replayer, "--as", "c"], 0);
    let replayed = self::told(&again);
    for record in &records {
        let of = |turns: &[Value]| -> Vec<Value> {
            turns.iter().filter(|t| t["game"].as_u64() == Some(record.told_id())).cloned().collect()
        };
        assert_eq!(of(&replayed), of(&told), "game {}", record.id);
    }
    // Replayed in the other seat, it chooses otherwise than the record
    // (greedy's moves): each next turn still tells the clock the record shows.
    let other = scratch.path().join("replayed-other");
    let replayer = format!("c={}", clocked(&other, 0, 0));
    arena_expect(&["replay", &out, "--bot", &replayer, "--as", "g"], 1);
    let replayed = self::told(&other);
    for record in &records {
        let seat = record.seat_of("g") as u64;
        let told: Vec<Option<u64>> = replayed
            .iter()
            .filter(|t| t["game"].as_u64() == Some(record.told_id()))
            .map(|t| t["clock_ms"].as_u64())
            .collect();
        let made = moves(record, seat);
        let recorded = std::iter::once(30_000).chain(made.iter().map(|e| number(e, "clock_us") / 1000));
        assert_eq!(told, recorded.take(made.len()).map(Some).collect::<Vec<_>>(), "game {}", record.id);
    }
    // The report shows each bot's least clock left.
    arena_expect(&["report", &out], 0);
    let page = std::fs::read_to_string(format!("{out}/report.html")).unwrap();
    for name in ["c", "g"] {
        let least = least_clock(&records, name);
        let shown = format!("\"least_clock_us\":{least}");
        assert!(page.contains(&shown), "{name}: {shown} in the report");
    }
}

#[test]
fn a_long_think_survives_a_clock_but_not_the_per_move_limit() {
    let scratch = Scratch::new("clock-long-think");
    // Fast moves, and one of 4.5 s (the 4th of each process): a limit of 3 s
    // that the fast moves keep on a busy machine, and the long one does not.
    let bot = clocked(&scratch.path().join("told"), 0, 4500);
    let greedy = bin("greedy-bot");
    // Exit status 4 when c forfeits both its games.
    let play = |name: &str, limits: &[&str], status: i32| {
        let out = scratch.join(name);
        let extra =
            [&["--games", "2", "--seed", "8", "--startup-timeout", "60000", "--out", &out][..], limits].concat();
        arena_expect(&match_args(&scratch, &[("c", &bot), ("g", &greedy)], &extra), status);
        Record::all(&out)
    };
    for record in play("limited", &["--move-timeout", "3000"], 4) {
        let faults = &record.faults;
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!((faults[0].bot.as_str(), faults[0].kind.name()), ("c", "timeout"));
        assert!(!faults[0].message.contains("clock"), "{:?}", faults[0]);
        assert!(moves(&record, 0).iter().all(|e| e.get("clock_us").is_none()), "no clock, none recorded");
    }
    for record in play("clocked", &["--clock", "20s+0"], 0) {
        assert_eq!(record.faults, []);
        let seat = record.seat_of("c") as u64;
        let long = moves(&record, seat).into_iter().find(|e| number(e, "time_us") >= 4_500_000).expect("the long move");
        assert!(number(long, "clock_us") <= 15_500_000, "{long}");
        check_clocks(&record, 20_000, 0);
    }
}

#[test]
fn a_resumed_league_keeps_its_clock() {
    let scratch = Scratch::new("clock-league");
    let out = scratch.join("out");
    let dir = scratch.path().join("told");
    let bot = format!("c={} {}", clocked(&dir, 0, 0), scratch.marker());
    let greedy = format!("g={} {}", bin("greedy-bot"), scratch.marker());
    let args = [
        "league",
        "--bot",
        &bot,
        "--bot",
        &greedy,
        "--games",
        "2",
        "--seed",
        "7",
        "--clock",
        "30s+200ms",
        "--variant",
        "max_hands=2",
        "--startup-timeout",
        "60000",
        "--out",
        &out,
    ];
    arena_expect(&args, 0);
    let league: Value = serde_json::from_str(&std::fs::read_to_string(format!("{out}/league.json")).unwrap()).unwrap();
    assert_eq!(league["clock"], serde_json::json!({"base_ms": 30000, "increment_ms": 200}));
    assert_eq!(league["move_timeout_ms"], 30000, "the per-move limit under a clock is its base");
    let (_, stderr) = arena_expect(&["league", "--resume", &out, "--clock", "1s+0"], 2);
    assert!(stderr.contains("--clock"), "a resumed league keeps its clock: {stderr}");
    let newcomer = format!("n={} {}", bin("random-bot"), scratch.marker());
    arena_expect(&["league", "--resume", &out, "--bot", &newcomer], 0);
    let records = Record::all(&out);
    assert_eq!(records.len(), 6, "three pairs of two games");
    for record in &records {
        assert_eq!(record.faults, []);
        check_clocks(record, 30_000, 200);
    }
    let resumed = records.iter().filter(|r| r.bots.iter().any(|bot| bot == "n"));
    let ids: Vec<u64> = resumed.map(Record::told_id).collect();
    assert_eq!(ids.len(), 4);
    let told = told(&dir);
    assert!(told.iter().any(|t| ids.contains(&t["game"].as_u64().unwrap())), "c played n after the resume");
    assert!(told.iter().all(|t| t["increment_ms"] == 200), "under the league's clock");
}

#[test]
fn sprt_and_check_bot_play_under_a_clock() {
    let scratch = Scratch::new("clock-sprt");
    let out = scratch.join("out");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let mut args = match_args(&scratch, &[("new", &greedy), ("base", &random)], &[]);
    (args[0], args[1], args[3]) = ("sprt".into(), "--new".into(), "--base".into());
    args.extend(["--seed", "3", "--max-games", "4", "--clock", "30s+0", "--out", &out].map(String::from));
    arena_expect(&args, 3);
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{out}/sprt-config.json")).unwrap()).unwrap();
    assert_eq!(config["clock"], serde_json::json!({"base_ms": 30000, "increment_ms": 0}), "{config}");
    for record in Record::all(&out) {
        check_clocks(&record, 30_000, 0);
    }

    let (stdout, _) = arena_expect(&["check-bot", "--clock", "20s+100", "--startup-timeout", "30000", &greedy], 0);
    assert!(stdout.contains("move timeout 20000 ms, clock 20000+100 ms"), "{stdout}");
    assert!(stdout.contains("least left on its clock after a move"), "{stdout}");
}

#[test]
fn time_odds_give_each_bot_its_own_clock_and_move_limit_and_the_records_say_which() {
    let scratch = Scratch::new("clock-odds");
    let out = scratch.join("out");
    let dir = scratch.path().join("told");
    let bot = clocked(&dir, 0, 0);
    let extra = ["--games", "2", "--seed", "7", "--variant", "max_hands=2", "--out", &out];
    let odds = ["--bot-clock", "c=30s+200ms", "--bot-move-timeout", "g=7000", "--startup-timeout", "60000"];
    let args = match_args(&scratch, &[("c", &bot), ("g", &bin("greedy-bot"))], &[&extra[..], &odds[..]].concat());
    let (stdout, _) = arena_expect(&args, 0);
    let records = Record::all(&out);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record.faults, [], "the bot found every turn's clock as it should be");
        assert_eq!(record.clock, None, "the run has no clock of its own");
        let (c, g) = (record.seat_of("c"), record.seat_of("g"));
        let timing = record.seat_timing.as_ref().expect("each seat's timing is recorded under time odds");
        let clock = Some(TimeControl { base_ms: 30000, increment_ms: 200 });
        assert_eq!(timing[c], Timing { move_timeout_ms: 30000, clock });
        assert_eq!(timing[g], Timing { move_timeout_ms: 7000, clock: None });
        assert!(moves(record, c as u64).iter().all(|e| e["clock_us"].is_u64()), "c's clock is recorded");
        assert!(moves(record, g as u64).iter().all(|e| e.get("clock_us").is_none()), "g plays without a clock");
    }
    let told = told(&dir);
    assert!(!told.is_empty());
    assert!(told.iter().all(|turn| turn["increment_ms"] == 200), "c is told its own clock: {told:?}");
    let line = format!(
        "clocks of their own (time odds): the least each bot left on its clock after a move: c {:.1} ms of 30000+200 ms",
        least_clock(&records, "c") as f64 / 1000.0
    );
    assert!(stdout.contains(&line), "{line}\n{stdout}");
}

#[test]
fn time_odds_name_a_bot_of_the_match() {
    let scratch = Scratch::new("clock-odds-unknown");
    let bots = [("g", bin("greedy-bot")), ("r", bin("random-bot"))];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(n, c)| (*n, c.as_str())).collect();
    for (flag, value, says) in [
        ("--bot-clock", "x=1s+0", "--bot-clock \"x=1s+0\": no bot of the run is named \"x\""),
        ("--bot-clock", "g=fast", "--bot-clock \"g=fast\": \"fast\": expected BASE+INC"),
        (
            "--bot-move-timeout",
            "r=soon",
            "--bot-move-timeout \"r=soon\": \"soon\" is not a whole number of milliseconds",
        ),
    ] {
        let (_, stderr) = arena_expect(&match_args(&scratch, &bots, &["--games", "2", flag, value]), 2);
        assert!(stderr.contains(says), "{says}\n{stderr}");
    }
}

#[test]
fn a_learning_league_ends_with_the_clock_summary_of_all_its_rounds() {
    let scratch = Scratch::new("clock-learning");
    let out = scratch.join("out");
    let bots =
        [("g", bin("greedy-bot")), ("r", bin("random-bot")), ("s", format!("{} --playouts 3", bin("search-bot")))];
    let mut args: Vec<String> = vec!["league".into(), "--format".into(), "learning".into()];
    for (name, command) in &bots {
        args.extend(["--bot".to_string(), format!("{name}={command} {}", scratch.marker())]);
    }
    let extra = ["--games", "2", "--budget", "12", "--seed", "8", "--clock", "30s+0", "--out", &out];
    args.extend(extra.iter().map(|arg| arg.to_string()));
    let (stdout, _) = arena_expect(&args, 0);
    let records = Record::all(&out);
    assert!(records.len() > 6, "more than one round: {}", records.len());
    let least: Vec<String> = ["g", "r", "s"]
        .iter()
        .map(|bot| {
            let of: Vec<Record> = records.iter().filter(|r| r.bots.iter().any(|b| b == bot)).cloned().collect();
            format!("{bot} {:.1} ms", least_clock(&of, bot) as f64 / 1000.0)
        })
        .collect();
    let line = format!("clock 30000+0 ms: the least each bot left on its clock after a move: {}", least.join(", "));
    assert!(stdout.contains(&line), "{line}\n{stdout}");
}

#[test]
fn a_league_s_bots_have_time_odds_from_its_file_and_flags_kept_for_its_resume() {
    let scratch = Scratch::new("clock-league-odds");
    let out = scratch.join("out");
    let marker = scratch.marker();
    let file = format!(
        "games = 2\nseed = 3\nclock = \"20s+0\"\n\
         [[bot]]\nname = \"g\"\ncommand = \"{} {marker}\"\nclock = \"10s+100ms\"\n\
         [[bot]]\nname = \"r\"\ncommand = \"{} {marker}\"\nmove_timeout = 800\n",
        bin("greedy-bot"),
        bin("random-bot")
    );
    let config = scratch.join("league.toml");
    std::fs::write(&config, file).unwrap();
    let search = format!("s={} --playouts 3 {marker}", bin("search-bot"));
    let args = ["league", "--config", &config, "--bot", &search, "--bot-move-timeout", "s=5000", "--out", &out];
    let (stdout, _) = arena_expect(&args, 0);
    let league: Value = serde_json::from_str(&std::fs::read_to_string(format!("{out}/league.json")).unwrap()).unwrap();
    let odds = serde_json::json!({
        "g": {"move_timeout_ms": 10000, "clock": {"base_ms": 10000, "increment_ms": 100}},
        "r": {"move_timeout_ms": 800, "clock": {"base_ms": 20000, "increment_ms": 0}},
        "s": {"move_timeout_ms": 5000, "clock": {"base_ms": 20000, "increment_ms": 0}},
    });
    assert_eq!(league["odds"], odds);
    for record in Record::all(&out) {
        let timing = record.seat_timing.as_ref().expect("each seat's timing is recorded");
        for (seat, bot) in record.bots.iter().enumerate() {
            assert_eq!(serde_json::to_value(timing[seat]).unwrap(), odds[bot], "game {}, seat {seat}", record.id);
        }
    }
    let line = "clocks of their own (time odds): the least each bot left on its clock after a move: g ";
    assert!(stdout.contains(line) && stdout.contains(" ms of 10000+100 ms, r "), "{stdout}");
    let (_, stderr) = arena_expect(&["league", "--resume", &out, "--bot-clock", "g=1s+0"], 2);
    assert!(stderr.contains("--bot-clock"), "a resumed league keeps its time odds: {stderr}");
    let bad = format!("[[bot]]\nname = \"g\"\ncommand = \"{}\"\nclock = \"soon\"\n", bin("greedy-bot"));
    std::fs::write(&config, bad).unwrap();
    let (_, stderr) = arena_expect(&["league", "--config", &config], 2);
    assert!(stderr.contains("bot[0].clock: \"soon\": expected BASE+INC"), "{stderr}");
}
