//! Matches between well-behaved bots, with real processes: Rust, Python and
//! JavaScript sample bots, 2, 3 and 4 players, records and determinism.

use e2e::*;

/// Checks what every record must satisfy, whoever played.
fn check_record(record: &Record, seats: usize) {
    assert_eq!(record.game, "all-fives");
    assert_eq!(record.bots.len(), seats);
    assert_eq!(record.result.scores.len(), seats);
    assert_eq!(record.result.ranks.len(), seats);
    let events = &record.events;
    assert_eq!(events[0]["type"], "hand_start", "{}", events[0]);
    let hands = events[0]["hands"].as_array().unwrap();
    let boneyard = events[0]["boneyard"].as_array().unwrap();
    let dealt: usize = hands.iter().map(|h| h.as_array().unwrap().len()).sum::<usize>() + boneyard.len();
    assert_eq!(dealt, 28, "the deal partitions the set");
    for event in events {
        if event["type"] == "play" {
            assert!(event["time_us"].is_u64(), "every play is timed: {event}");
        }
    }
}

#[test]
fn rust_against_python_writes_records_and_standings() {
    let scratch = Scratch::new("rust-python");
    let out = scratch.join("out");
    let bots = [("rust", bin("greedy-bot")), ("py", python_greedy())];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(n, c)| (*n, c.as_str())).collect();
    let flags = patient(&["--games", "6", "--seed", "11", "--out", &out]);
    let (stdout, _) = arena_expect(&match_args(&scratch, &bots, &flags), 0);
    assert!(stdout.contains("rust") && stdout.contains("py"), "{stdout}");
    let records = Record::all(&out);
    assert_eq!(records.len(), 6);
    for (i, record) in records.iter().enumerate() {
        assert_eq!(record.id, i as u64, "records are in id order");
        check_record(record, 2);
        assert_eq!(record.faults, [], "{record:?}");
    }
    // Duplicate deals: both rotations of a deal share the seed and swap the bots.
    assert_eq!(records[0].seed, records[1].seed);
    assert_eq!(records[0].bots, ["rust", "py"]);
    assert_eq!(records[1].bots, ["py", "rust"]);
    let standings = Standings::read(&out);
    for name in ["rust", "py"] {
        let bot = standings.bot(name);
        assert_eq!(bot.games, 6);
        assert_eq!(bot.faults, 0);
        assert_eq!(bot.wins + bot.losses + bot.draws, 6);
    }
    assert!(scratch.leftover_processes().is_empty(), "{:?}", scratch.leftover_processes());
}

#[test]
fn javascript_bot_plays_a_match() {
    let scratch = Scratch::new("js");
    let out = scratch.join("out");
    let js = format!("node {}", repo_path("sample-bots/js/greedy.js"));
    let random = bin("random-bot");
    let flags = patient(&["--games", "4", "--out", &out]);
    arena_expect(&match_args(&scratch, &[("js", &js), ("random", &random)], &flags), 0);
    let js = Standings::read(&out).bot("js").clone();
    assert_eq!((js.games, js.faults), (4, 0));
    assert!(scratch.leftover_processes().is_empty());
}

#[test]
fn three_players_sit_in_every_seat() {
    let scratch = Scratch::new("three");
    let out = scratch.join("out");
    let (greedy, random, python) = (bin("greedy-bot"), bin("random-bot"), python_greedy());
    let bots = [("g", greedy.as_str()), ("r", random.as_str()), ("p", python.as_str())];
    arena_expect(&match_args(&scratch, &bots, &["--players", "3", "--games", "6", "--seed", "5", "--out", &out]), 0);
    let records = Record::all(&out);
    assert_eq!(records.len(), 6);
    for seat in 0..3 {
        let mut names: Vec<&str> = records.iter().map(|r| r.bots[seat].as_str()).collect();
        names.sort();
        assert_eq!(names, ["g", "g", "p", "p", "r", "r"], "seat {seat}");
    }
    for record in &records {
        check_record(record, 3);
        assert_eq!(record.variant["players"], 3);
        assert_eq!(record.variant["target"], 200);
    }
    // A free-for-all: every pair of bots meets in every game, and Weng-Lin rates them.
    let standings = Standings::read(&out);
    for (a, b) in [("g", "r"), ("r", "p"), ("p", "g")] {
        assert_eq!(standings.head_to_head[a][b].games, 6, "{a} against {b}");
        assert!(standings.los[a].contains_key(b));
    }
    for bot in &standings.bots {
        assert!(bot.rating.is_some() && matches!(bot.weng_lin, Some(Some(_))), "{bot:?}");
    }
    assert!(scratch.leftover_processes().is_empty());
}

/// Runs greedy-bot (as `g`) against random-bot (as `r`) with `extra` arguments.
fn greedy_vs_random(scratch: &Scratch, extra: &[&str]) {
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    arena_expect(&match_args(scratch, &[("g", &greedy), ("r", &random)], extra), 0);
}

#[test]
fn four_player_partnerships_seat_each_bot_opposite_itself() {
    let scratch = Scratch::new("partners");
    let out = scratch.join("out");
    greedy_vs_random(&scratch, &["--players", "4", "--games", "4", "--out", &out]);
    let records = Record::all(&out);
    assert_eq!(records.len(), 4);
    for record in &records {
        check_record(record, 4);
        let bots = &record.bots;
        assert_eq!(bots[0], bots[2]);
        assert_eq!(bots[1], bots[3]);
        assert_ne!(bots[0], bots[1]);
        let scores = &record.result.scores;
        assert_eq!(scores[0], scores[2], "partners share a score");
    }
    let standings = Standings::read(&out);
    assert_eq!(standings.bot("g").games, 4, "a bot holding two seats counts each game once");
    assert_eq!(standings.head_to_head["g"]["r"].games, 4, "one pairwise game per game");
    assert_eq!(standings.bot("g").weng_lin, None, "two sides: no free-for-all rating");
    assert!(scratch.leftover_processes().is_empty());
}

#[test]
fn same_seed_same_records_at_any_concurrency() {
    let scratch = Scratch::new("determinism");
    let run = |name: &str, seed: &str, concurrency: &str| {
        let out = scratch.join(name);
        // (Limits no busy machine reaches: a timeout would change a game.)
        let flags = patient(&["--games", "12", "--seed", seed, "--concurrency", concurrency, "--out", &out]);
        greedy_vs_random(&scratch, &flags);
        canonical_records(&out)
    };
    let one = run("c1", "2024", "1");
    let three = run("c3", "2024", "3");
    assert_eq!(one.len(), 12);
    assert!(one == three, "records differ between --concurrency 1 and 3");
    assert!(one != run("other", "2025", "1"), "a different seed gives different games");
}

#[test]
fn greedy_beats_random() {
    let scratch = Scratch::new("greedy-random");
    let out = scratch.join("out");
    greedy_vs_random(&scratch, &["--games", "100", "--seed", "1", "--concurrency", "2", "--out", &out]);
    let standings = Standings::read(&out);
    assert_eq!(standings.names(), ["g", "r"], "standings.json lists the bots in rank order");
    let (g, r) = (standings.bot("g"), standings.bot("r"));
    assert!(g.score > 0.6, "greedy scored {} against random", g.score);
    let (rating, r_rating) = (g.rating.expect("g is rated"), r.rating.expect("r is rated"));
    assert!(rating > 100.0 && (rating + r_rating).abs() < 1e-6, "{g:?}\n{r:?}");
    assert!(g.rating_interval.expect("an interval") > 0.0);
    assert!(g.los_next.expect("a LOS over r") > 0.99 && r.los_next.is_none());
    assert_eq!(standings.head_to_head["g"]["r"], HeadToHead { score: g.score, games: 100 });
}

#[test]
fn every_message_a_bot_receives_is_valid_protocol() {
    use all_fives::wire::ToBot;
    let scratch = Scratch::new("transcript");
    let logs = scratch.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let recorder = format!("{} {} {}", python(), repo_path("tests/bots/recorder.py"), logs.display());
    let greedy = bin("greedy-bot");
    // (Limits no busy machine reaches: a process cut short would not be told bye.)
    let flags = patient(&["--games", "2", "--seed", "3"]);
    arena_expect(&match_args(&scratch, &[("rec", &recorder), ("g", &greedy)], &flags), 0);
    let limit: u64 = PATIENT[1].parse().unwrap();
    // The recorder holds seat 0 in game 0 and seat 1 in game 1: two processes.
    let processes = recorded(&logs);
    assert_eq!(processes.len(), 2);
    for messages in &processes {
        assert!(matches!(messages[0], ToBot::Hello(_)), "hello comes first");
        assert!(matches!(messages[1], ToBot::GameStart(_)), "then game_start");
        assert!(matches!(messages.last(), Some(ToBot::Bye)), "bye comes last");
        let count = |pred: fn(&ToBot) -> bool| messages.iter().filter(|m| pred(m)).count();
        assert_eq!(count(|m| matches!(m, ToBot::GameStart(_))), 1);
        assert_eq!(count(|m| matches!(m, ToBot::GameEnd(_))), 1);
        assert!(count(|m| matches!(m, ToBot::Turn(_))) > 2);
        assert!(count(|m| matches!(m, ToBot::HandEnd(_))) >= 1);
        for message in messages {
            if let ToBot::Turn(turn) = message {
                assert!(!turn.legal.is_empty());
                assert_eq!(turn.time_ms, limit, "the move limit given");
            }
        }
    }
    let seats: Vec<usize> =
        processes.iter().map(|m| if let ToBot::Hello(h) = &m[0] { h.seat } else { unreachable!() }).collect();
    assert!(seats.contains(&0) && seats.contains(&1), "{seats:?}");
}

/// With stderr not a terminal, the plain progress line comes every ten
/// seconds even while no game finishes: here the only game in flight waits
/// on a bot that stops answering (its move timeout is long).
#[test]
fn the_plain_progress_line_comes_while_no_game_finishes() {
    use std::io::BufRead;
    use std::time::{Duration, Instant};
    let scratch = Scratch::new("progress-waits");
    let hangs = format!("{} {}", python(), repo_path("tests/bots/hang_mid_game.py"));
    let extra = ["--games", "2", "--concurrency", "1", "--move-timeout", "60000"];
    let args = match_args(&scratch, &[("h", &hangs), ("g", &bin("greedy-bot"))], &extra);
    let mut arena = arena_command(&args).spawn().expect("arena starts");
    let stderr = std::io::BufReader::new(arena.stderr.take().expect("stderr is piped"));
    let (lines, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen = Vec::new();
    loop {
        let wait = deadline.saturating_duration_since(Instant::now());
        let line =
            received.recv_timeout(wait).unwrap_or_else(|_| panic!("no progress line before a game ended: {seen:?}"));
        if line.starts_with("0/2 games, ") {
            break;
        }
        assert!(!line.starts_with("1/2 games"), "the first progress line came only once a game ended: {seen:?}");
        seen.push(line);
    }
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(arena.id() as i32), nix::sys::signal::Signal::SIGINT).unwrap();
    assert_eq!(finish(arena).status.code(), Some(130));
    scratch.assert_nothing_left(Duration::from_secs(10));
}

#[test]
fn a_bot_runs_in_its_bot_dir_with_its_bot_env() {
    let scratch = Scratch::new("match-bot-dir");
    let home = scratch.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    // A bot that notes where it runs and what it was given, then plays as greedy-bot.
    let script = "import os, sys\nopen('seen.txt', 'a').write(os.getcwd() + ' ' + os.environ['MARK'] + '\\n')\n\
                  os.execv(sys.argv[1], [sys.argv[1]])\n";
    std::fs::write(home.join("noting.py"), script).unwrap();
    let noting = format!("{} noting.py {}", python(), bin("greedy-bot"));
    let dir = format!("n={}", home.display());
    let extra = ["--games", "2", "--bot-dir", &dir, "--bot-env", "n=MARK=a=b", "--startup-timeout", "60000"];
    let args = match_args(&scratch, &[("n", &noting), ("r", &bin("random-bot"))], &extra);
    arena_expect(&args, 0);
    let seen = std::fs::read_to_string(home.join("seen.txt")).expect("the bot ran in its --bot-dir");
    let expected = format!("{} a=b", home.canonicalize().unwrap().display());
    assert!(!seen.is_empty() && seen.lines().all(|line| line == expected), "{expected}\n{seen}");
    let (_, stderr) =
        arena_expect(&match_args(&scratch, &[("n", &noting), ("r", &bin("random-bot"))], &["--bot-env", "x=K=V"]), 2);
    assert!(stderr.contains("--bot-env: no bot is named \"x\""), "{stderr}");
}
