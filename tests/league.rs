//! Leagues end to end: formats, configuration files, durable results,
//! resuming after SIGKILL and Ctrl-C, repairing a torn record, shards and merge.

use e2e::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Arguments of a three-bot league (greedy, random, Python greedy) with
/// these extras, and PATIENT limits: the same seed plays the same games.
fn three_bots(scratch: &Scratch, extra: &[&str]) -> Vec<String> {
    let (greedy, random, python) = (bin("greedy-bot"), bin("random-bot"), python_greedy());
    let mut args = match_args(scratch, &[("g", &greedy), ("r", &random), ("p", &python)], &patient(extra));
    args[0] = "league".to_string();
    args
}

fn spawn_arena(args: &[String]) -> Child {
    Command::new(bin("arena")).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("arena starts")
}

#[test]
fn round_robin_league_with_a_configuration_file() {
    let scratch = Scratch::new("league-config");
    let config = scratch.join("league.toml");
    std::fs::write(
        &config,
        format!(
            "games = 6\nseed = 4\nconcurrency = 2\nout = \"results\"\n[variant]\ntarget = 150\n\n\
             [[bot]]\nname = \"g\"\ncommand = \"{}\"\n\n[[bot]]\nname = \"r\"\ncommand = \"{}\"\n\n\
             [[bot]]\nname = \"first\"\ncommand = \"{} first_legal.py {}\"\ndir = \"{}\"\nenv = {{ LANG = \"C\" }}\n",
            bin("greedy-bot"),
            bin("random-bot"),
            python(),
            scratch.marker(),
            repo_path("tests/bots"),
        ),
    )
    .unwrap();
    let markdown = scratch.join("table.md");
    let markdown_flag = format!("markdown={markdown}");
    let args = ["league", "--config", &config, "--games", "4", "--report", "csv", "--report", &markdown_flag];
    let (stdout, _) = arena_expect(&args, 0);
    let out = scratch.join("results");
    let csv = read(&format!("{out}/standings.csv"));
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[0].starts_with("rank,name,rating,interval,games"), "{csv}");
    assert_eq!(rows.len(), 4, "a header and three bots:\n{csv}");
    assert!(read(&markdown).lines().any(|line| line.starts_with("| 1 ")), "{}", read(&markdown));
    assert!(stdout.contains("results: "), "{stdout}");
    let records = Record::all(&out);
    assert_eq!(records.len(), 12, "3 pairs × 4 games (the flag overrides the file)");
    for record in &records {
        assert_eq!(record.variant["target"], 150);
        assert_eq!(record.faults, []);
    }
    let league: Value = serde_json::from_str(&read(&format!("{out}/league.json"))).unwrap();
    assert_eq!(league["games"], 4);
    assert_eq!(league["variant"]["target"], 150);
    assert_eq!(league["bots"][2]["dir"], repo_path("tests/bots"));
    let standings = Standings::read(&out);
    for name in ["g", "r", "first"] {
        assert_eq!(standings.bot(name).games, 8, "{name} plays two pairings of 4");
    }
    assert!(scratch.leftover_processes().is_empty());
}

#[test]
fn gauntlet_and_multi_player_formats() {
    let scratch = Scratch::new("league-formats");
    let out = scratch.join("gauntlet");
    arena_expect(&three_bots(&scratch, &["--format", "gauntlet", "--games", "2", "--seed", "1", "--out", &out]), 0);
    let gauntlet = Record::all(&out);
    assert_eq!(gauntlet.len(), 4, "g meets r and p, 2 games each");
    assert!(gauntlet.iter().all(|r| r.bots.iter().any(|bot| bot == "g")));

    let out = scratch.join("ffa");
    let args = three_bots(&scratch, &["--players", "3", "--games", "3", "--out", &out]);
    arena_expect(&args, 0);
    assert_eq!(Record::all(&out).len(), 6, "one group of three, in its six orders");

    let out = scratch.join("partners");
    arena_expect(&three_bots(&scratch, &["--players", "4", "--games", "2", "--out", &out]), 0);
    let partners = Record::all(&out);
    assert_eq!(partners.len(), 6, "three pairs of teams");
    for record in &partners {
        assert_eq!(record.bots[0], record.bots[2]);
    }
}

#[test]
fn resume_after_sigkill_gives_the_same_league() {
    let scratch = Scratch::new("league-kill");
    let full = scratch.join("full");
    let extra = ["--games", "30", "--seed", "17", "--concurrency", "2"];
    arena_expect(&three_bots(&scratch, &[&extra[..], &["--out", &full]].concat()), 0);

    let cut = scratch.join("cut");
    let mut arena = spawn_arena(&three_bots(&scratch, &[&extra[..], &["--out", &cut]].concat()));
    wait_for_records(&cut, 20);
    arena.kill().unwrap(); // SIGKILL
    arena.wait().unwrap();
    let kept = Record::all(&cut).len();
    assert!((20..90).contains(&kept), "{kept} games kept");
    scratch.assert_nothing_left(LINGER);

    let (stdout, stderr) = arena_expect(&["league", "--resume", &cut], 0);
    assert!(stderr.contains(&format!("{kept} already played")), "{stderr}");
    assert!(stdout.contains(&format!("{} games", 90 - kept)), "{stdout}");
    assert_eq!(canonical_records(&cut), canonical_records(&full));
    assert_eq!(read(&format!("{cut}/standings.json")), read(&format!("{full}/standings.json")));
    // A finished league resumes to nothing new.
    let (stdout, stderr) = arena_expect(&["league", "--resume", &cut], 0);
    assert!(stdout.contains("0 games"), "{stdout}");
    assert!(stderr.contains(&format!("this league is finished: all 90 games are in {cut}")), "{stderr}");
}

#[test]
fn ctrl_c_stops_cleanly_and_the_league_resumes() {
    let scratch = Scratch::new("league-interrupt");
    let out = scratch.join("out");
    let arena = spawn_arena(&three_bots(&scratch, &["--games", "60", "--seed", "3", "--out", &out]));
    wait_for_records(&out, 10);
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(arena.id() as i32), nix::sys::signal::Signal::SIGINT).unwrap();
    let output = finish(arena);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains(&format!("continue with: {} league --resume {out}", bin("arena"))), "{stdout}");
    assert!(scratch.leftover_processes().is_empty(), "{:?}", scratch.leftover_processes());
    let kept = Record::all(&out).len();
    assert!((10..180).contains(&kept), "{kept} games kept");
    let counted = Standings::read(&out).games;
    assert!(
        counted <= kept as u64 && counted.is_multiple_of(6),
        "standings cover whole deals: {counted} of {kept} games"
    );
    arena_expect(&["league", "--resume", &out, "--concurrency", "2"], 0);
    assert_eq!(Record::all(&out).len(), 180);
}

#[test]
fn a_league_stopped_in_the_middle_of_a_deal_counts_only_whole_deals() {
    let scratch = Scratch::new("league-half-deal");
    let out = scratch.join("out");
    // Three bots, each pair two deals of its own in both seat orders: h plays
    // 8 games, and hangs in its sixth.
    let counter = scratch.join("games-started");
    let hangs = format!("HANG_AT=6 COUNTER={counter} {} {}", python(), repo_path("tests/bots/hangs_in_game.py"));
    let extra = ["--games", "4", "--seed", "5", "--concurrency", "1", "--move-timeout", "60000", "--out", &out];
    let mut args = match_args(&scratch, &[("h", &hangs), ("g", &bin("greedy-bot")), ("r", &bin("random-bot"))], &extra);
    args[0] = "league".to_string();
    let arena = spawn_arena(&args);
    let deadline = std::time::Instant::now() + DEADLINE;
    while std::fs::metadata(&counter).map_or(0, |m| m.len()) < 6 {
        assert!(std::time::Instant::now() < deadline, "h never started its sixth game");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // h's five games before are over.
    let before = |records: &[Record]| records.iter().filter(|r| r.bots.iter().any(|b| b == "h")).count();
    while before(&Record::all(&out)) < 5 {
        assert!(std::time::Instant::now() < deadline, "h's first five games were not recorded");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(arena.id() as i32), nix::sys::signal::Signal::SIGINT).unwrap();
    let output = finish(arena);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    // The games of deals with both games recorded count; the others are kept, not counted.
    let records = Record::all(&out);
    let kept = records.len();
    let mut deals: BTreeMap<u64, usize> = BTreeMap::new();
    for record in &records {
        *deals.entry(record.deal).or_default() += 1;
    }
    let whole = deals.values().filter(|&&games| games == 2).count() as u64;
    assert!(deals.values().any(|&games| games == 1), "h hung in the middle of a deal: {deals:?}");
    let standings = Standings::read(&out);
    assert_eq!(standings.games, 2 * whole, "{standings:?}");
    let note = format!(
        "the standings count whole deals only ({} games): the {} finished games",
        2 * whole,
        kept as u64 - 2 * whole
    );
    assert!(stdout.contains(&note), "{stdout}");
    let (stdout, _) = arena_expect(&["league", "--resume", &out], 0);
    assert!(stdout.contains(&format!("{} games", 12 - kept)), "{stdout}");
    let standings = Standings::read(&out);
    assert_eq!(standings.games, 12, "{standings:?}");
}

#[test]
fn a_torn_last_line_is_repaired_and_corruption_is_refused() {
    let scratch = Scratch::new("league-torn");
    let out = scratch.join("out");
    arena_expect(&three_bots(&scratch, &["--games", "4", "--seed", "2", "--out", &out]), 0);
    let games = format!("{out}/games.jsonl");
    let original = read(&games);
    let lines: Vec<&str> = original.lines().collect();
    // Cut the last record in half: resuming replays that one game.
    let torn = format!("{}\n{}", lines[..lines.len() - 1].join("\n"), &lines[lines.len() - 1][..100]);
    std::fs::write(&games, &torn).unwrap();
    let (stdout, stderr) = arena_expect(&["league", "--resume", &out], 0);
    assert!(stderr.contains("removed a torn last line"), "{stderr}");
    assert!(stdout.contains("1 games"), "{stdout}");
    assert_eq!(Record::all(&out).len(), lines.len());

    // Damage in the middle: refused with the line number, nothing written.
    let damaged = original.replacen("\"game\":\"all-fives\"", "\"game\":", 1);
    std::fs::write(&games, &damaged).unwrap();
    let (_, stderr) = arena_expect(&["league", "--resume", &out], 2);
    assert!(stderr.contains("line 1 is corrupt"), "{stderr}");
    assert_eq!(read(&games), damaged);
}

#[test]
fn shards_merge_into_the_single_machine_league() {
    let scratch = Scratch::new("league-shards");
    let extra = ["--games", "8", "--seed", "21"];
    let single = scratch.join("single");
    arena_expect(&three_bots(&scratch, &[&extra[..], &["--out", &single]].concat()), 0);
    let shards: Vec<String> = (0..3).map(|k| scratch.join(&format!("shard{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{k}/3");
        arena_expect(&three_bots(&scratch, &[&extra[..], &["--shard", &shard, "--out", dir]].concat()), 0);
        assert_eq!(Record::all(dir).len(), 8, "shard {k} plays a third of 24 games");
    }
    let merged = scratch.join("merged");
    let mut args = vec!["merge", "--out", merged.as_str()];
    args.extend(shards.iter().map(String::as_str));
    arena_expect(&args, 0);
    assert_eq!(canonical_records(&merged), canonical_records(&single));
    assert_eq!(read(&format!("{merged}/standings.json")), read(&format!("{single}/standings.json")));

    // Missing games are refused, unless --partial; the partial result then resumes to the whole.
    let partial = scratch.join("partial");
    let (_, stderr) = arena_expect(&["merge", "--out", &partial, &shards[0], &shards[2]], 2);
    assert!(stderr.contains("8 of the league's 24 games are in no shard"), "{stderr}");
    arena_expect(&["merge", "--partial", "--out", &partial, &shards[0], &shards[2]], 0);
    arena_expect(&["league", "--resume", &partial], 0);
    assert_eq!(canonical_records(&partial), canonical_records(&single));

    // A shard of another league is refused.
    let other = scratch.join("other");
    arena_expect(&three_bots(&scratch, &["--games", "8", "--seed", "22", "--shard", "1/3", "--out", &other]), 0);
    let (_, stderr) = arena_expect(&["merge", "--out", &scratch.join("bad"), &shards[0], &other], 2);
    assert!(stderr.contains("different leagues (their seed differs)"), "{stderr}");
    // Even under this league's league.json: its games were not dealt from this league's seed.
    std::fs::copy(format!("{}/league.json", shards[1]), format!("{other}/league.json")).unwrap();
    let forged = scratch.join("forged");
    let (_, stderr) = arena_expect(&["merge", "--out", &forged, &shards[0], &other, &shards[2]], 2);
    assert!(stderr.contains("was not dealt from this league's seed"), "{stderr}");
    assert!(!std::path::Path::new(&forged).exists(), "nothing written");
}

#[test]
fn one_output_directory_one_arena() {
    let scratch = Scratch::new("league-lock");
    let out = scratch.join("out");
    let mut first = spawn_arena(&three_bots(&scratch, &["--games", "400", "--out", &out]));
    wait_for_records(&out, 1);
    let (_, stderr) = arena_expect(&["league", "--resume", &out], 2);
    assert!(stderr.contains("in use by another arena"), "{stderr}");
    first.kill().unwrap();
    first.wait().unwrap();
}

#[test]
fn the_demo_league_is_a_ladder_and_takes_the_league_flags() {
    // Two games a pair, and time enough for an unoptimised search-bot.
    let (stdout, stderr) = arena_expect(&["league", "--seed", "9", "--games", "2", "--move-timeout", "30000"], 0);
    assert!(
        stderr.contains("demo round robin of the sample bots random, greedy, greedy-py, greedy-js, search"),
        "{stderr}"
    );
    assert!(stderr.contains("league of 5 bots: 20 games"), "{stderr}");
    // The standings rows in order: search-bot on top, random play at the bottom.
    let ranked: Vec<&str> = stdout
        .lines()
        .filter_map(|line| {
            let mut columns = line.strip_prefix("│ ")?.split(" ┆ ");
            columns.next()?.trim().parse::<u32>().ok()?;
            columns.next().map(str::trim)
        })
        .collect();
    assert_eq!(ranked.first(), Some(&"search"), "{stdout}");
    assert_eq!(ranked.len(), 5, "{stdout}");
    assert_eq!(ranked.last(), Some(&"random"), "{stdout}");
}

/// The ladder league of README.md and docs/bots.md (sample-bots/ladder.toml) runs as written: its
/// Python and JavaScript bots from the file, the compiled bots built as its
/// header says (here into the scratch directory, and search-bot on a small
/// budget, as this is an unoptimised build), every pair without a fault.
#[test]
fn the_ladder_league_file_runs() {
    let scratch = Scratch::new("ladder");
    let (Some(cpp), Some(java)) = (cpp_greedy(scratch.path()), java_greedy(scratch.path())) else { return };
    let search = bin("search-bot");
    let out = scratch.join("ladder");
    let mut args = vec!["league".to_string(), "--config".to_string(), repo_path("sample-bots/ladder.toml")];
    for (name, command) in [
        ("random", bin("random-bot")),
        ("greedy", bin("greedy-bot")),
        ("greedy-cpp", cpp),
        ("greedy-java", java),
        ("search-30", format!("{search} --playouts 5")),
        ("search-200", format!("{search} --playouts 10")),
        ("search-1000", format!("{search} --playouts 20")),
    ] {
        args.extend(["--bot".to_string(), format!("{name}={command}")]);
    }
    args.extend(["--games", "2", "--move-timeout", "30000", "--out", &out].map(String::from));
    let (_, stderr) = arena_expect(&args, 0);
    assert!(stderr.contains("league of 9 bots: 72 games"), "the file's bots are the ones overridden here:\n{stderr}");
    for row in Standings::read(&out).bots {
        assert_eq!(row.faults, 0, "{row:?}");
    }
}

#[test]
fn league_usage_errors() {
    let scratch = Scratch::new("league-errors");
    let bad = scratch.join("bad.toml");
    std::fs::write(&bad, "games = 5\nbogus = 1\n").unwrap();
    let (_, stderr) = arena_expect(&["league", "--config", &bad], 2);
    assert!(stderr.contains("unknown field `bogus`"), "{stderr}");
    let greedy = format!("g={}", bin("greedy-bot"));
    let (_, stderr) = arena_expect(&["league", "--bot", &greedy, "--out", &scratch.join("one")], 2);
    assert!(stderr.contains("needs at least 2 bots"), "{stderr}");
    assert!(!std::path::Path::new(&scratch.join("one")).exists(), "no output directory is left behind");
    let (_, stderr) = arena_expect(&["league", "--resume", &scratch.join("nowhere")], 2);
    assert!(stderr.contains("cannot resume"), "{stderr}");
    let (_, stderr) = arena_expect(&["league", "--resume", &scratch.join("x"), "--seed", "3"], 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
    let (_, stderr) = arena_expect(&["league", "--bot", &greedy, "--bot", &greedy, "--shard", "3/3"], 2);
    assert!(stderr.contains("--shard"), "{stderr}");
    let random = format!("r={}", bin("random-bot"));
    let (_, stderr) = arena_expect(&["league", "--bot", &greedy, "--bot", &random, "--shard", "0/3"], 2);
    assert!(stderr.contains("needs a fixed seed"), "{stderr}");
}

#[test]
fn sigterm_stops_like_ctrl_c_and_a_second_signal_quits_at_once() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    for (name, signals) in [("term", &[Signal::SIGTERM][..]), ("twice", &[Signal::SIGINT, Signal::SIGINT][..])] {
        let scratch = Scratch::new(&format!("league-signal-{name}"));
        let out = scratch.join("out");
        let arena = spawn_arena(&three_bots(&scratch, &["--games", "20", "--seed", "3", "--out", &out]));
        wait_for_records(&out, 5);
        for &signal in signals {
            kill(Pid::from_raw(arena.id() as i32), signal).unwrap();
            std::thread::sleep(Duration::from_millis(20));
        }
        let output = finish(arena);
        assert_eq!(output.status.code(), Some(130), "{name}: {}", String::from_utf8_lossy(&output.stderr));
        assert!(Record::all(&out).len() < 60, "{name}: the arena played on to the league's end");
        let left = scratch.lingering(LINGER);
        assert!(left.is_empty(), "{name}: {left:?}");
        // Whatever was written is whole: the league resumes to its end.
        arena_expect(&["league", "--resume", &out], 0);
        assert_eq!(Record::all(&out).len(), 60, "{name}");
    }
}

/// The games of each pair of bots in `out/games.jsonl` (the pair's names in order).
fn games_per_pair(out: &str) -> std::collections::BTreeMap<(String, String), usize> {
    let mut pairs = std::collections::BTreeMap::new();
    for record in Record::all(out) {
        let mut bots = record.bots;
        bots.sort();
        *pairs.entry((bots[0].clone(), bots[1].clone())).or_default() += 1;
    }
    pairs
}

/// Four games for each pair of `names` (given in order), as [`games_per_pair`] counts them.
fn four_games_per_pair(names: &[&str]) -> std::collections::BTreeMap<(String, String), usize> {
    let pairs = names.iter().enumerate().flat_map(|(i, a)| names[i + 1..].iter().map(move |b| pair(a, b)));
    pairs.map(|p| (p, 4)).collect()
}

/// The records of `out` without their ids and timing, sorted: the games
/// played, whatever their place in the schedule.
fn games_without_ids(out: &str) -> Vec<String> {
    let mut games: Vec<String> = record_json(out)
        .into_iter()
        .map(|record| {
            let mut record = without_timing(record);
            record.as_object_mut().unwrap().remove("id");
            record.to_string()
        })
        .collect();
    games.sort();
    games
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

/// Arguments of a league of these bots (name, command) with these extras.
fn league_of(scratch: &Scratch, bots: &[(&str, &str)], extra: &[&str]) -> Vec<String> {
    let mut args = match_args(scratch, bots, extra);
    args[0] = "league".to_string();
    args
}

#[test]
fn a_bot_added_to_a_finished_league_plays_only_the_new_pairs() {
    let scratch = Scratch::new("league-grow");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let search = format!("{} --playouts 5", bin("search-bot"));
    let three = [("g", greedy.as_str()), ("r", random.as_str()), ("s", search.as_str())];
    // Time enough for every move on a busy machine: a timeout would change the games.
    let extra = ["--games", "4", "--seed", "31", "--concurrency", "2", "--move-timeout", "30000"];
    let out = scratch.join("grown");
    arena_expect(&league_of(&scratch, &three, &[&extra[..], &["--out", &out]].concat()), 0);
    let before = read(&format!("{out}/games.jsonl"));
    assert_eq!(before.lines().count(), 12);

    // The form a user tries first: the new bot enters the finished league.
    let search9 = format!("{} --playouts 9", bin("search-bot"));
    let newcomer = format!("n={search9} {}", scratch.marker());
    let (stdout, stderr) = arena_expect(&["league", "--resume", &out, "--bot", &newcomer], 0);
    assert!(stderr.contains("the league's field changes: n enters: 3 new groups of bots, 12 games"), "{stderr}");
    assert!(stderr.contains("league of 4 bots: 24 games, 12 already played"), "{stderr}");
    assert!(stdout.contains("12 games in this run (12 played before)"), "{stdout}");
    let after = read(&format!("{out}/games.jsonl"));
    assert!(after.starts_with(&before), "the old records are untouched, byte for byte");
    let ids: Vec<u64> = Record::all(&out).iter().map(|r| r.id).collect();
    assert_eq!(ids, (0..24).collect::<Vec<_>>(), "the new games follow the old ids");
    let expected = four_games_per_pair(&["g", "n", "r", "s"]);
    assert_eq!(games_per_pair(&out), expected, "every pair 4 games: the old ones once, the new ones once");
    let (stdout, _) = arena_expect(&["verify", &out], 0);
    assert!(stdout.contains("24 games verified: every record agrees with the engine"), "{stdout}");

    // The games are those of a league that had n from the start with the same
    // seed (other ids), deals, seeds and moves alike; so are the standings.
    let four = [three[0], three[1], three[2], ("n", search9.as_str())];
    let whole = scratch.join("whole");
    arena_expect(&league_of(&scratch, &four, &[&extra[..], &["--out", &whole]].concat()), 0);
    assert_eq!(games_without_ids(&out), games_without_ids(&whole));
    assert_eq!(read(&format!("{out}/standings.json")), read(&format!("{whole}/standings.json")));

    // league.json keeps the history: the start, then n, each with its time.
    let league: Value = serde_json::from_str(&read(&format!("{out}/league.json"))).unwrap();
    let history = league["history"].as_array().unwrap();
    assert_eq!(history.len(), 2, "{league}");
    assert_eq!(history[0]["added"], serde_json::json!(["g", "r", "s"]));
    assert_eq!(history[1]["added"], serde_json::json!(["n"]));
    for change in history {
        let at = change["at"].as_str().unwrap();
        assert!(at.len() == 20 && at.ends_with('Z') && at.as_bytes()[10] == b'T', "{at}");
    }
    assert_eq!(league["bots"][3]["name"], "n");
    // Resumed again, the grown league is finished.
    let (_, stderr) = arena_expect(&["league", "--resume", &out], 0);
    assert!(stderr.contains("this league is finished: all 24 games"), "{stderr}");
    assert!(scratch.leftover_processes().is_empty());
}

#[test]
fn a_bot_added_to_a_running_league_is_queued_and_taken_in_without_a_stop() {
    let scratch = Scratch::new("league-grow-running");
    // g holds its answers while the gate exists: the league is running, and stays so.
    let gate = scratch.join("gate");
    std::fs::write(&gate, "").unwrap();
    let gated = format!("{} {} {gate}", python(), repo_path("tests/bots/gated.py"));
    let search = format!("{} --playouts 5", bin("search-bot"));
    let (random, greedy) = (bin("random-bot"), bin("greedy-bot"));
    let three = [("g", gated.as_str()), ("r", random.as_str()), ("s", search.as_str())];
    let extra = patient(&["--games", "4", "--seed", "31", "--concurrency", "1"]);
    let out = scratch.join("out");
    let running = spawn_arena(&league_of(&scratch, &three, &[&extra[..], &["--out", &out]].concat()));
    wait_at_gate(&gate);

    // The form a user tries first, while the league runs: the change is checked and queued.
    let newcomer = format!("n={greedy} {}", scratch.marker());
    let (_, stderr) = arena_expect(&["league", "--resume", &out, "--bot", &newcomer], 0);
    assert!(stderr.contains(&format!("the league in {out} is running (arena process {}", running.id())), "{stderr}");
    assert!(stderr.contains("the change is queued as"), "{stderr}");
    // A change that cannot hold is refused at once, the running league untouched.
    let (_, stderr) = arena_expect(&["league", "--resume", &out, "--bot", &newcomer], 2);
    assert!(stderr.contains("this league has had a bot named \"n\""), "{stderr}");
    let (_, stderr) = arena_expect(&["league", "--resume", &out, "--retire", "x"], 2);
    assert!(stderr.contains("--retire x: this league has no bot of that name"), "{stderr}");

    std::fs::remove_file(&gate).unwrap();
    let output = finish(running);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("a change of the league's field was queued: the league takes it in and goes on"),
        "{stderr}"
    );
    assert!(stderr.contains("the league's field changes: n enters: 3 new groups of bots, 12 games"), "{stderr}");
    // Two standings, each saying which games it covers: those before the change, then all.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let before = stdout.find("Standings before the league's field changes (").expect(&stdout);
    let after = "Standings after the league's field changed (24 games counted, the earlier ones included):";
    assert!(stdout[before..].contains(after), "{stdout}");
    assert_eq!(stdout.matches("Standings: Elo").count(), 2, "{stdout}");
    assert_eq!(std::fs::read_dir(format!("{out}/changes")).unwrap().count(), 0, "the queue is emptied");
    let expected = four_games_per_pair(&["g", "n", "r", "s"]);
    assert_eq!(games_per_pair(&out), expected, "every pair 4 games, none twice");
    let league: Value = serde_json::from_str(&read(&format!("{out}/league.json"))).unwrap();
    assert_eq!(league["history"][1]["added"], serde_json::json!(["n"]), "{league}");
    arena_expect(&["verify", &out], 0);
    // The games and standings of a league that had n from the start.
    let four = [three[0], three[1], three[2], ("n", greedy.as_str())];
    let whole = scratch.join("whole");
    arena_expect(&league_of(&scratch, &four, &[&extra[..], &["--out", &whole]].concat()), 0);
    assert_eq!(games_without_ids(&out), games_without_ids(&whole));
    assert_eq!(read(&format!("{out}/standings.json")), read(&format!("{whole}/standings.json")));
    assert!(scratch.leftover_processes().is_empty());
}

#[test]
fn a_league_that_gained_a_bot_at_three_players_has_the_standings_of_one_that_had_it_from_the_start() {
    let scratch = Scratch::new("league-grow-three");
    let search = |playouts: u32| format!("{} --playouts {playouts}", bin("search-bot"));
    let (s3, s6) = (search(3), search(6));
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let three = [("g", greedy.as_str()), ("r", random.as_str()), ("s", s3.as_str())];
    let extra = ["--players", "3", "--games", "6", "--seed", "44", "--move-timeout", "30000"];
    let out = scratch.join("grown");
    arena_expect(&league_of(&scratch, &three, &[&extra[..], &["--out", &out]].concat()), 0);
    let newcomer = format!("n={s6} {}", scratch.marker());
    let (_, stderr) = arena_expect(&["league", "--resume", &out, "--bot", &newcomer], 0);
    assert!(stderr.contains("n enters: 3 new groups of bots, 18 games"), "{stderr}");
    let whole = scratch.join("whole");
    let four = [three[0], three[1], three[2], ("n", s6.as_str())];
    arena_expect(&league_of(&scratch, &four, &[&extra[..], &["--out", &whole]].concat()), 0);
    assert_eq!(games_without_ids(&out), games_without_ids(&whole));
    // Weng–Lin ratings too: they follow the schedule's order, not the ids.
    assert!(matches!(Standings::read(&out).bots[0].weng_lin, Some(Some(_))));
    assert_eq!(read(&format!("{out}/standings.json")), read(&format!("{whole}/standings.json")));
}

#[test]
fn a_retired_bot_keeps_its_games_and_plays_no_more() {
    let scratch = Scratch::new("league-retire");
    // r runs from a copy of random-bot, removed once r has retired.
    let (greedy, random) = (bin("greedy-bot"), scratch.join("random-bot"));
    std::fs::copy(bin("random-bot"), &random).unwrap();
    let search = format!("{} --playouts 5", bin("search-bot"));
    let three = [("g", greedy.as_str()), ("r", random.as_str()), ("s", search.as_str())];
    let out = scratch.join("out");
    arena_expect(&league_of(&scratch, &three, &["--games", "6", "--seed", "8", "--out", &out]), 0);
    // A league stopped after its first 8 games (of 18): deal 0 whole, deal 1 begun.
    let games = format!("{out}/games.jsonl");
    let kept: Vec<String> = read(&games).lines().take(8).map(|line| format!("{line}\n")).collect();
    std::fs::write(&games, kept.concat()).unwrap();
    let of_r = |out: &str| Record::all(out).iter().filter(|r| r.bots.iter().any(|bot| bot == "r")).count();
    let r_before = of_r(&out);
    assert!(r_before > 0 && r_before < 12, "{r_before}");

    // r retires and a new version of g enters beside the old one.
    let g2 = format!("g2={greedy} {}", scratch.marker());
    let (_, stderr) = arena_expect(&["league", "--resume", &out, "--retire", "r", "--bot", &g2], 0);
    let dropped = 12 - r_before;
    assert!(
        stderr.contains(&format!(
            "g2 enters: 2 new groups of bots, 12 games; r retires: {dropped} games not played yet are dropped"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("league of 3 bots (1 retired)"), "{stderr}");
    assert_eq!(of_r(&out), r_before, "r played no new game");
    let pairs = games_per_pair(&out);
    for (a, b) in [("g", "s"), ("g", "g2"), ("g2", "s")] {
        assert_eq!(pairs[&pair(a, b)], 6, "{a} and {b}: {pairs:?}");
    }
    assert!(!pairs.contains_key(&pair("g2", "r")), "g2 never meets the retired r");
    assert!(read(&games).starts_with(&kept.concat()), "the old records are untouched, byte for byte");
    // r stays in the standings, with the games it played.
    let standings = Standings::read(&out);
    assert_eq!(standings.bot("r").games, r_before as u64, "{standings:?}");
    assert_eq!(standings.bot("g2").games, 12, "{standings:?}");
    let league: Value = serde_json::from_str(&read(&format!("{out}/league.json"))).unwrap();
    assert_eq!(league["history"][1]["retired"], serde_json::json!(["r"]), "{league}");
    assert_eq!(league["history"][1]["added"], serde_json::json!(["g2"]), "{league}");
    arena_expect(&["verify", &out], 0);
    // A retired bot's program may be gone: the league still resumes.
    std::fs::remove_file(&random).unwrap();
    let (stdout, stderr) = arena_expect(&["league", "--resume", &out], 0);
    assert!(stderr.contains("this league is finished"), "{stderr}");
    let since = league["history"][1]["at"].as_str().unwrap();
    assert!(stdout.contains(&format!("retired: r since {since}; the standings count the games")), "{stdout}");
}

#[test]
fn shards_that_grew_alike_merge() {
    let scratch = Scratch::new("league-grow-shards");
    let extra = ["--games", "4", "--seed", "12"];
    let newcomer = format!("n={} {}", bin("greedy-bot"), scratch.marker());
    let shards: Vec<String> = (0..2).map(|k| scratch.join(&format!("shard{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let shard = format!("{k}/2");
        arena_expect(&three_bots(&scratch, &[&extra[..], &["--shard", &shard, "--out", dir]].concat()), 0);
        // Stopped after its first two games (ids k and k + 2), p retires, n enters.
        let games = format!("{dir}/games.jsonl");
        let kept: Vec<String> = read(&games).lines().take(2).map(|line| format!("{line}\n")).collect();
        std::fs::write(&games, kept.concat()).unwrap();
        arena_expect(&["league", "--resume", dir, "--retire", "p", "--bot", &newcomer], 0);
    }
    // p's games that no shard played are not missing: the league no longer plays them.
    let merged = scratch.join("merged");
    let (stdout, _) = arena_expect(&["merge", "--out", &merged, &shards[0], &shards[1]], 0);
    assert!(stdout.contains("merged 14 games from 2 shards"), "{stdout}");
    let pairs = games_per_pair(&merged);
    let counts = [("g", "r"), ("g", "n"), ("n", "r"), ("g", "p")].map(|(a, b)| pairs.get(&pair(a, b)).copied());
    assert_eq!(counts, [Some(4), Some(4), Some(4), Some(2)], "{pairs:?}");
    assert!(!pairs.contains_key(&pair("p", "r")) && !pairs.contains_key(&pair("n", "p")), "{pairs:?}");
    arena_expect(&["verify", &merged], 0);
    // A shard whose field changed otherwise is another league.
    let other = scratch.join("other");
    arena_expect(&three_bots(&scratch, &[&extra[..], &["--shard", "1/2", "--out", &other]].concat()), 0);
    arena_expect(&["league", "--resume", &other, "--bot", &newcomer], 0);
    let (_, stderr) = arena_expect(&["merge", "--out", &scratch.join("bad"), &shards[0], &other], 2);
    assert!(stderr.contains("different leagues (their history differs)"), "{stderr}");
}

#[test]
fn changes_a_league_refuses() {
    let scratch = Scratch::new("league-grow-errors");
    let out = scratch.join("out");
    arena_expect(&three_bots(&scratch, &["--format", "gauntlet", "--games", "2", "--seed", "1", "--out", &out]), 0);
    let league = read(&format!("{out}/league.json"));
    let greedy = format!("r={}", bin("greedy-bot"));
    for (args, expected) in [
        (
            &["--bot", greedy.as_str()][..],
            "this league has had a bot named \"r\"; a new version of a bot enters under a name of its own",
        ),
        (&["--retire", "x"], "--retire x: this league has no bot of that name"),
        (
            &["--retire", "g", "--bot", "n=/bin/cat"],
            "n would play no game: this gauntlet league of a 2-sided game has too few bots left, or its first bot, g, has retired",
        ),
        (&["--bot", "n=./no-such-bot"], "cannot run"),
    ] {
        let (_, stderr) = arena_expect(&[&["league", "--resume", out.as_str()][..], args].concat(), 2);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert_eq!(read(&format!("{out}/league.json")), league, "{args:?}: nothing changed");
    }
    let (_, stderr) = arena_expect(&["league", "--bot", &greedy, "--retire", "r"], 2);
    assert!(stderr.contains("--resume"), "--retire needs a league to resume: {stderr}");
    // A running league takes changes (see above), but is not run by two arenas.
    let running = scratch.join("running");
    let mut arena = spawn_arena(&three_bots(&scratch, &["--games", "400", "--out", &running]));
    wait_for_records(&running, 1);
    let (_, stderr) = arena_expect(&["league", "--resume", &running], 2);
    assert!(stderr.contains("in use by another arena"), "{stderr}");
    arena.kill().unwrap();
    arena.wait().unwrap();
}

#[test]
fn what_is_planted_in_a_running_league_s_queue_is_refused_once_and_the_league_plays_on() {
    let scratch = Scratch::new("league-queue-hostile");
    let gate = scratch.join("gate");
    std::fs::write(&gate, "").unwrap();
    let gated = format!("{} {} {gate}", python(), repo_path("tests/bots/gated.py"));
    let (random, greedy) = (bin("random-bot"), bin("greedy-bot"));
    let three = [("g", gated.as_str()), ("r", random.as_str()), ("s", greedy.as_str())];
    let extra = patient(&["--games", "4", "--seed", "31", "--concurrency", "1"]);
    let out = scratch.join("out");
    let running = spawn_arena(&league_of(&scratch, &three, &[&extra[..], &["--out", &out]].concat()));
    wait_at_gate(&gate);

    // While the league runs, what anyone who may write to its directory could plant in its queue.
    let changes = format!("{out}/changes");
    std::fs::create_dir_all(&changes).unwrap();
    let victim = scratch.join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    let plant = |name: &str| format!("{changes}/{name}");
    // A change that cannot hold, whose refusal's name is a link to the victim.
    std::fs::write(plant("1-retire.json"), r#"{"at":"2026-01-01T00:00:00Z","retiring":["nobody"]}"#).unwrap();
    std::os::unix::fs::symlink(&victim, plant("1-retire.refused")).unwrap();
    std::os::unix::fs::symlink(&victim, plant("2-link.json")).unwrap();
    nix::unistd::mkfifo(plant("3-fifo.json").as_str(), nix::sys::stat::Mode::S_IRWXU).unwrap();
    std::fs::create_dir(plant("4-directory.json")).unwrap();
    // A 1 GB file, sparse (it costs no disk): read whole, it would cost the arena 1 GB of memory.
    std::fs::File::create(plant("5-large.json")).unwrap().set_len(1 << 30).unwrap();
    let title = r#"{"at":"\u001b]0;owned\u0007\u001b[2J","retiring":["r"]}"#;
    std::fs::write(plant("6-title.json"), title).unwrap();
    std::fs::remove_file(&gate).unwrap();

    // The arena's peak memory (its VmHWM), read while it runs: it only grows.
    let mut peak = 0u64;
    let output = finish_watched(running, DEADLINE, |pid| {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let kib = status.lines().find_map(|line| line.strip_prefix("VmHWM:")).map(|rest| rest.trim());
        let kib: u64 = kib.and_then(|rest| rest.trim_end_matches("kB").trim().parse().ok()).unwrap_or(0);
        peak = peak.max(kib << 10);
    });
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(read(&victim), "precious\n", "nothing outside the directory is touched");
    // A few tens of MB: the 1 GB file is not read.
    assert!(peak > 0 && peak < 256 << 20, "the arena peaked at {} MB", peak >> 20);
    for (name, why) in [
        ("1-retire.json", "--retire nobody: this league has no bot of that name"),
        ("2-link.json", "is a symbolic link, not a regular file"),
        ("3-fifo.json", "is a FIFO, not a regular file"),
        ("4-directory.json", "is a directory, not a regular file"),
        ("5-large.json", "holds 1073741824 bytes, more than the 1048576 a queued change may"),
        ("6-title.json", "its \"at\" is not a time"),
    ] {
        let stem = plant(name.trim_end_matches(".json"));
        let warnings: Vec<&str> = stderr.lines().filter(|line| line.contains(&stem)).collect();
        assert_eq!(warnings.len(), 1, "one warning for {name}:\n{stderr}");
        assert!(warnings[0].starts_with("warning: a queued change of the league is refused: "), "{}", warnings[0]);
        assert!(warnings[0].contains(why), "{}", warnings[0]);
        let kept = plant(&name.replace(".json", ".refused"));
        assert!(warnings[0].contains(&format!("it is set aside as {kept}")), "{}", warnings[0]);
        assert!(std::fs::symlink_metadata(&kept).is_ok(), "{kept}");
    }
    assert!(read(&plant("1-retire.refused")).starts_with("refused: "), "the planted link is replaced, not followed");
    assert!(!stderr.contains('\u{1b}') && !String::from_utf8_lossy(&output.stdout).contains('\u{1b}'), "{stderr}");
    // The league played on: every game, r not retired.
    assert_eq!(games_per_pair(&out), four_games_per_pair(&["g", "r", "s"]), "{stderr}");

    // A league.json written by an arena that did not check the time of a change:
    // its history is shown escaped by every later resume.
    arena_expect(&["league", "--resume", &out, "--retire", "r"], 0);
    let path = format!("{out}/league.json");
    let mut league: Value = serde_json::from_str(&read(&path)).unwrap();
    league["history"][1]["at"] = Value::from("\u{1b}]0;owned\u{7}");
    std::fs::write(&path, serde_json::to_string_pretty(&league).unwrap()).unwrap();
    let (stdout, stderr) = arena_expect(&["league", "--resume", &out], 0);
    assert!(stdout.contains(r"retired: r since \u{1b}]0;owned\u{7}"), "{stdout}");
    assert!(!stdout.contains('\u{1b}') && !stderr.contains('\u{1b}'), "{stdout}{stderr}");
    assert!(scratch.leftover_processes().is_empty());
}
