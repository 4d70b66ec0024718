//! Results no bot can game: seeds that reveal nothing, seat orders that
//! favour no one, and games cut short by a stop that are never recorded.

use e2e::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::{Command, Stdio};

/// The fields of a bot's standing that two copies of one deterministic bot
/// must share exactly: games, wins, draws, losses, faults, points for and against.
fn results(standings: &Standings, name: &str) -> ([u64; 5], [f64; 2]) {
    let bot = standings.bot(name);
    ([bot.games, bot.wins, bot.draws, bot.losses, bot.faults], [bot.points_for, bot.points_against])
}

/// Plays a match of `bots` with `extra` flags (and PATIENT limits: a
/// timeout would tell two copies apart) and returns its standings.
fn play(scratch: &Scratch, name: &str, bots: &[(&str, &str)], extra: &[&str]) -> Standings {
    let out = scratch.join(name);
    let mut args = match_args(scratch, bots, &patient(extra));
    args.extend(["--out".to_string(), out.clone(), "--seed".to_string(), "61".to_string()]);
    arena_expect(&args, 0);
    Standings::read(&out)
}

#[test]
fn copies_of_a_deterministic_bot_get_the_same_wins_and_points() {
    let scratch = Scratch::new("fair-copies");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let three = ["--players", "3", "--games", "60"];
    // Two greedy copies with a random bot, in both orders of the flags.
    for (name, bots) in [
        ("greedy3", [("r", random.as_str()), ("g1", greedy.as_str()), ("g2", greedy.as_str())]),
        ("greedy3-swapped", [("g1", greedy.as_str()), ("r", random.as_str()), ("g2", greedy.as_str())]),
    ] {
        let standings = play(&scratch, name, &bots, &three);
        assert_eq!(results(&standings, "g1"), results(&standings, "g2"), "{name}: {standings:?}");
        assert_eq!(standings.bot("g1").games, 60);
    }
    // Two random copies with a greedy bot.
    let bots = [("g", greedy.as_str()), ("r1", random.as_str()), ("r2", random.as_str())];
    let standings = play(&scratch, "random3", &bots, &three);
    assert_eq!(results(&standings, "r1"), results(&standings, "r2"), "{standings:?}");

    // Four individuals: 24 orders a deal, two copies of each bot.
    let bots = [("g1", greedy.as_str()), ("r1", random.as_str()), ("g2", greedy.as_str()), ("r2", random.as_str())];
    let standings = play(&scratch, "four", &bots, &["--players", "4", "--variant", "partners=false", "--games", "48"]);
    assert_eq!(standings.bot("g1").games, 48);
    assert_eq!(results(&standings, "g1"), results(&standings, "g2"), "{standings:?}");
    assert_eq!(results(&standings, "r1"), results(&standings, "r2"), "{standings:?}");
}

#[test]
fn a_three_player_match_plays_every_deal_in_all_six_orders() {
    let scratch = Scratch::new("fair-orders");
    let out = scratch.join("out");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let bots = [("a", greedy.as_str()), ("b", random.as_str()), ("c", greedy.as_str())];
    let mut args = match_args(&scratch, &bots, &["--players", "3", "--games", "7", "--seed", "4", "--out", &out]);
    args.push("--concurrency".into());
    args.push("2".into());
    arena_expect(&args, 0);
    let records = Record::all(&out);
    assert_eq!(records.len(), 12, "7 games round up to 2 deals of 6 orders");
    for deal in records.chunks(6) {
        let orders: Vec<&Vec<String>> = deal.iter().map(|r| &r.bots).collect();
        let mut distinct = orders.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 6, "{orders:?}");
        for record in deal {
            assert_eq!(record.seed, deal[0].seed, "one deal");
            assert_eq!(record.bot_seeds, deal[0].bot_seeds, "a seat is told the same seed in every order");
        }
        let arrangements: Vec<usize> = deal.iter().map(|r| r.arrangement).collect();
        assert_eq!(arrangements, [0, 1, 2, 3, 4, 5]);
    }
}

/// The guesses the seed thief wrote: (game, seat, method) → (match seed, hands).
/// The game is the id the thief was told, which no record holds: its
/// guesses are matched to a record by the seed its seat was told.
fn guesses(dir: &std::path::Path) -> BTreeMap<(u64, u64, String), (u64, u64, Value)> {
    let mut all = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if !entry.file_name().to_string_lossy().starts_with("thief.") {
            continue;
        }
        for line in std::fs::read_to_string(entry.path()).unwrap().lines() {
            let guess: Value = serde_json::from_str(line).unwrap();
            let key = (guess["game"].as_u64().unwrap(), guess["seat"].as_u64().unwrap(), guess["method"].to_string());
            let seed = guess["seed"].as_u64().unwrap();
            all.insert(key, (seed, guess["match_seed"].as_u64().unwrap(), guess["hands"].clone()));
        }
    }
    all
}

#[test]
fn a_bot_cannot_learn_the_deal_from_its_seed_unless_the_match_seed_is_guessable() {
    let scratch = Scratch::new("fair-thief");
    let thief = format!("{} {} {}", python(), repo_path("tests/bots/seed_thief.py"), scratch.marker());
    let greedy = bin("greedy-bot");
    for (players, games) in [(2, 4), (3, 6), (4, 4)] {
        let mut bots = vec![("thief", thief.as_str()), ("greedy", greedy.as_str())];
        if players == 3 {
            bots.push(("greedy2", greedy.as_str()));
        }
        // A match seed drawn at random (as by default), and a small one an attacker can guess.
        for seed in [None, Some(123)] {
            let name = format!("{players}-{seed:?}");
            let out = scratch.join(&name);
            let (players, games) = (players.to_string(), games.to_string());
            let flags = patient(&["--players", &players, "--games", &games, "--out", &out]);
            let mut args = match_args(&scratch, &bots, &flags);
            if let Some(seed) = seed {
                args.extend(["--seed".to_string(), seed.to_string()]);
            }
            arena_expect(&args, 0);
            let records = Record::all(&out);
            let guesses = guesses(scratch.path());
            std::fs::read_dir(scratch.path())
                .unwrap()
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("thief."))
                .for_each(|e| std::fs::remove_file(e.path()).unwrap());
            let thief_seats: usize = records.iter().map(|r| r.bots.iter().filter(|b| *b == "thief").count()).sum();
            let inverted = guesses.keys().filter(|(.., method)| method == "\"inverted\"").count();
            assert_eq!(inverted, thief_seats, "{name}: the thief guessed in every game it played");
            for ((game, seat, method), (told, match_seed, hands)) in &guesses {
                let record = records
                    .iter()
                    .find(|r| r.bot_seeds[*seat as usize] == *told && r.bots[*seat as usize] == "thief")
                    .expect("the game was recorded");
                let dealt = &record.events[0]["hands"];
                match (seed, method.as_str()) {
                    (Some(seed), "\"searched\"") => {
                        assert_eq!(*match_seed, seed, "{name}: game {game} seat {seat}");
                        assert_eq!(hands, dealt, "{name}: a guessable match seed gives the deal away");
                    }
                    (None, "\"searched\"") => panic!("{name}: found a random match seed: {match_seed}"),
                    _ => assert_ne!(hands, dealt, "{name}: game {game} seat {seat}: {method} predicted the deal"),
                }
            }
            let searched = guesses.keys().filter(|(.., method)| method == "\"searched\"").count();
            assert_eq!(searched, if seed.is_some() { thief_seats } else { 0 }, "{name}");
        }
    }
}

/// The pids of the processes whose command line mentions `needle`.
fn pids_mentioning(needle: &str) -> Vec<String> {
    processes_mentioning(needle).iter().map(|p| p.split(':').next().unwrap().to_string()).collect()
}

#[test]
fn sigterm_to_the_arena_and_its_bots_at_once_records_no_wrong_game() {
    let scratch = Scratch::new("fair-sigterm");
    let (greedy, random, python) = (bin("greedy-bot"), bin("random-bot"), python_greedy());
    let league = |extra: &[&str]| {
        let mut args = match_args(&scratch, &[("g", &greedy), ("r", &random), ("p", &python)], extra);
        args[0] = "league".to_string();
        args
    };
    // (Limits no busy machine reaches: the resumed league plays the games of the whole one.)
    let extra = patient(&["--games", "30", "--seed", "17", "--concurrency", "2"]);
    let full = scratch.join("full");
    arena_expect(&league(&[&extra[..], &["--out", &full]].concat()), 0);

    // Three times, SIGTERM to every bot and then the arena in one `kill`, as
    // a scheduler's kill of the whole process tree does; then resume.
    let cut = scratch.join("cut");
    let mut args = league(&[&extra[..], &["--out", &cut]].concat());
    for round in 0..3 {
        let arena = Command::new(bin("arena"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arena starts");
        wait_for_records(&cut, 15 + 25 * round);
        // The bots of the games being played; between two games there may be
        // none for a moment (a busy machine makes the moment longer).
        let deadline = std::time::Instant::now() + DEADLINE;
        let mut targets = loop {
            let mut bots = pids_mentioning(&scratch.marker());
            bots.retain(|pid| *pid != arena.id().to_string());
            if !bots.is_empty() || std::time::Instant::now() > deadline {
                break bots;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        assert!(!targets.is_empty(), "bots are running");
        targets.push(arena.id().to_string());
        // (A bot that exits meanwhile makes `kill` report it and fail; that is
        // fine, and its words are not shown.)
        let _ = Command::new("kill").arg("-TERM").args(&targets).stderr(Stdio::null()).status().expect("kill runs");
        let output = finish(arena);
        assert_eq!(output.status.code(), Some(130), "round {round}: {}", String::from_utf8_lossy(&output.stderr));
        for record in Record::all(&cut) {
            assert_eq!(record.faults, [], "round {round}: a game cut short was recorded");
        }
        args = vec!["league".to_string(), "--resume".to_string(), cut.clone()];
    }
    arena_expect(&args, 0);
    assert_eq!(canonical_records(&cut), canonical_records(&full));
}

#[test]
fn more_games_at_once_than_cores_is_warned_about() {
    let scratch = Scratch::new("fair-cores");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let mut args = vec!["-c".to_string(), "0".to_string(), bin("arena")];
    args.extend(match_args(&scratch, &[("g", &greedy), ("r", &random)], &["--games", "4", "--concurrency", "2"]));
    let output = output(Command::new("taskset").args(&args));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("warning: 2 games at once (--concurrency) on 1 core available"), "{stderr}");
    let output = e2e::output(Command::new("taskset").args(["-c", "0,1"]).args(&args[2..]));
    let stderr = String::from_utf8_lossy(&output.stderr);
    if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
        assert!(!stderr.contains("warning: 2 games at once"), "{stderr}");
    }
}

#[test]
fn the_ids_bots_are_told_say_nothing_of_the_deal() {
    let scratch = Scratch::new("fair-tags");
    let out = scratch.join("out");
    let logs = scratch.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    let recorder = format!("{} {} {logs}", python(), repo_path("tests/bots/recorder.py"));
    let bots = [("a", recorder.as_str()), ("b", recorder.as_str())];
    let flags = patient(&["--games", "16", "--seed", "8", "--concurrency", "1", "--out", &out]);
    arena_expect(&match_args(&scratch, &bots, &flags), 0);
    let records = Record::all(&out);
    let ids: Vec<u64> = records.iter().map(|r| r.id).collect();
    assert_eq!(ids, (0..16).collect::<Vec<_>>(), "games.jsonl in id order");
    let (mut told, mut met) = (Vec::new(), Vec::new());
    for entry in std::fs::read_dir(&logs).unwrap().flatten() {
        // A process plays one seat of one bot: the seeds it is told, game after game.
        let (mut starts, mut ends, mut seeds) = (Vec::new(), Vec::new(), Vec::new());
        for line in std::fs::read_to_string(entry.path()).unwrap().lines() {
            let message: Value = serde_json::from_str(line).unwrap();
            match message["type"].as_str() {
                Some("game_start") => {
                    starts.push(message["id"].as_u64().unwrap());
                    seeds.push(message["seed"].as_u64().unwrap());
                }
                Some("game_end") => ends.push(message["id"].as_u64().unwrap()),
                _ => {}
            }
        }
        assert_eq!(starts, ends, "game_end tells the id of game_start");
        told.extend(starts);
        // The deals this process met, in the order it met them.
        let deals: Vec<u64> = seeds
            .iter()
            .map(|seed| records.iter().find(|r| r.bot_seeds.contains(seed)).unwrap())
            .map(|r| r.deal)
            .collect();
        let mut each = deals.clone();
        each.sort();
        each.dedup();
        assert_eq!(each.len(), deals.len(), "a process meets no deal twice: {deals:?}");
        met.extend(deals);
    }
    // Each deal in its two seat orders, each by two processes.
    met.sort();
    assert_eq!(met, (0..8).flat_map(|deal| [deal; 4]).collect::<Vec<_>>());
    let mut distinct = told.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 16, "a game's id, told to both of its bots, differs from every other: {told:?}");
    assert!(told.iter().all(|id| *id >= 1 << 32), "not the schedule's ids: {told:?}");
}

#[test]
fn a_bot_that_remembers_deals_is_flagged_and_its_honest_twins_are_not() {
    let scratch = Scratch::new("fair-remembers");
    let out = scratch.join("out");
    let memory = format!("{} {}", python(), repo_path("tests/bots/leduc_memory.py"));
    let twin = format!("{memory} --forget");
    // Three players: a process plays one seat, and holds it in two of the
    // six orders of a deal, told the same seed: the cheat recognises it.
    let bots = [("cheat", memory.as_str()), ("twin", twin.as_str()), ("twin2", twin.as_str())];
    // One game at a time, so that the same processes see the same games
    // (and the results are the same on every run). By default no process
    // meets a deal twice: the cheat plays exactly as its twins.
    let flags = patient(&["--game", "leduc", "--players", "3", "--games", "600", "--seed", "5"]);
    let mut args = match_args(&scratch, &bots, &flags);
    args.extend(["--concurrency", "1", "--out", &scratch.join("lanes")].map(String::from));
    arena_expect(&args, 0);
    let lanes = Standings::read(&scratch.join("lanes"));
    let payoff = |name: &str| lanes.bot(name).points_for;
    assert_eq!((payoff("cheat"), payoff("twin")), (payoff("twin2"), payoff("twin2")), "{lanes:?}");
    assert!(!lanes.bot("cheat").repeated_deals.unwrap().flagged);
    // Kept for the whole run, its processes meet their deals again.
    let mut args = match_args(&scratch, &bots, &flags);
    args.extend(["--concurrency", "1", "--restart", "off", "--out", &out].map(String::from));
    let (stdout, _) = arena_expect(&args, 0);
    let standings = Standings::read(&out);
    let tested = |name: &str| standings.bot(name).repeated_deals.unwrap_or_else(|| panic!("{name} is not tested"));
    let cheat = tested("cheat");
    assert_eq!(cheat.deals, 100, "{cheat:?}");
    assert!(cheat.flagged, "{cheat:?}");
    assert!(cheat.gain > 0.0 && cheat.p < 0.01 / 3.0, "{cheat:?}");
    for name in ["twin", "twin2"] {
        assert!(!tested(name).flagged, "{name}: {:?}", tested(name));
    }
    let warning = stdout.lines().find(|line| line.starts_with("warning: cheat scored +")).expect("a warning");
    assert!(!stdout.contains("warning: twin"), "{stdout}");
    let page = std::fs::read_to_string(repo_path("docs/sandbox.md")).unwrap();
    assert!(page.contains(warning), "docs/sandbox.md shows the warning as it is now: {warning}");
    let page = scratch.join("report.html");
    arena_expect(&["report", &out, "-o", &page], 0);
    let page = std::fs::read_to_string(&page).unwrap();
    assert!(page.contains("warning: cheat scored +") && !page.contains("warning: twin"), "the report warns too");
}
