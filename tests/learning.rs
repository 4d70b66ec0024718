//! The learning league end to end: rounds chosen from the results of the
//! rounds before, reproducible from the seed, resumable after SIGKILL, and
//! stopping at its budget or once the order of its table is known.

use e2e::*;
use serde_json::Value;
use std::collections::HashMap;
use std::process::{Command, Stdio};

/// `arena league --format learning` of five bots of a known order (greedy,
/// greedy with noise 0.3 and 0.7, the Python greedy bot, random) with these
/// extras and PATIENT limits.
fn five_bots(scratch: &Scratch, extra: &[&str]) -> Vec<String> {
    five_bots_in("learning", scratch, extra)
}

/// [`five_bots`] in a league of `format`.
fn five_bots_in(format: &str, scratch: &Scratch, extra: &[&str]) -> Vec<String> {
    let greedy = bin("greedy-bot");
    let (noisy, noisier) = (format!("{greedy} --noise 0.3"), format!("{greedy} --noise 0.7"));
    let bots =
        [("g", greedy.as_str()), ("n3", &noisy), ("n7", &noisier), ("p", &python_greedy()), ("r", &bin("random-bot"))]
            .map(|(name, command)| (name, command.to_string()));
    let bots: Vec<(&str, &str)> = bots.iter().map(|(name, command)| (*name, command.as_str())).collect();
    let mut args = match_args(scratch, &bots, &patient(&[&["--format", format], extra].concat()));
    args[0] = "league".to_string();
    args
}

/// The rounds `DIR/league.json` records.
fn rounds(out: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(format!("{out}/league.json")).expect("league.json exists");
    let league: Value = serde_json::from_str(&text).expect("league.json is JSON");
    league["rounds"].as_array().cloned().unwrap_or_default()
}

#[test]
fn a_learning_league_is_reproducible_stops_at_its_budget_and_verifies() {
    let scratch = Scratch::new("learning-budget");
    let extra = ["--games", "2", "--seed", "9", "--budget", "31", "--concurrency", "2"];
    let (first, second) = (scratch.join("first"), scratch.join("second"));
    let (stdout, stderr) = arena_expect(&five_bots(&scratch, &[&extra[..], &["--out", &first]].concat()), 0);
    arena_expect(&five_bots(&scratch, &[&extra[..], &["--out", &second]].concat()), 0);
    let chosen = rounds(&first);
    assert!(chosen.len() >= 3, "a draw and rounds chosen after it: {chosen:?}");
    let first_round = chosen[0].as_array().unwrap();
    assert_eq!(first_round.len(), 5, "the draw: a cycle through the five bots");
    assert!(stderr.contains("learning league of 5 bots, round 2 ("), "{stderr}");
    // 31 games allow 15 pairs of 2 games; the last round keeps the pairs that fit.
    let games = records(&first).len();
    assert_eq!(games, 30, "{stdout}");
    // The figures at the end count the command's games, every round's.
    assert!(stdout.contains("\n30 games, "), "{stdout}");
    assert!(
        stdout
            .contains(&format!("stopped after {} rounds and 30 games: its budget of 31 games is spent", chosen.len())),
        "{stdout}"
    );
    // Each pair of a round plays a deal of its own (so a round's games can be in flight at once).
    let mut deals: HashMap<u64, Vec<String>> = HashMap::new();
    for record in records(&first) {
        let mut bots: Vec<String> = record.bots.iter().map(|b| format!("{b:?}")).collect();
        bots.sort();
        deals.entry(record.deal).or_default().push(bots.join(" "));
    }
    assert_eq!(deals.len(), 15, "15 pairs of one deal each: {deals:?}");
    assert!(deals.values().all(|pairs| pairs.len() == 2 && pairs[0] == pairs[1]), "{deals:?}");
    assert_eq!(rounds(&second), chosen, "the same seed, the same rounds");
    assert_eq!(canonical_records(&second), canonical_records(&first), "the same seed, the same records");
    let (stdout, _) = arena_expect(&["verify", &first], 0);
    assert!(stdout.contains("30 games verified: every record agrees"), "{stdout}");
    let other = scratch.join("other");
    arena_expect(&five_bots(&scratch, &["--games", "2", "--seed", "10", "--budget", "31", "--out", &other]), 0);
    assert_ne!(rounds(&other), chosen, "another seed draws other pairs");

    // A new budget plays on from the games on disk.
    let (stdout, stderr) = arena_expect(&["league", "--resume", &first, "--budget", "50"], 0);
    assert!(stderr.contains("30 already played"), "{stderr}");
    assert!(stdout.contains("its budget of 50 games is spent"), "{stdout}");
    let now = records(&first).len();
    assert!((40..=50).contains(&now), "{stdout}");
    assert!(stdout.contains(&format!("\n{} games in this run (30 played before), ", now - 30)), "{stdout}");
    assert_eq!(rounds(&first)[..chosen.len()], chosen[..], "the rounds played stay");
    let (_, stderr) = arena_expect(&["league", "--resume", &first, "--budget", "50"][..], 0);
    assert!(stderr.contains("this league is finished"), "{stderr}");
}

#[test]
fn a_learning_league_resumed_after_sigkill_is_the_league_played_at_once() {
    let scratch = Scratch::new("learning-kill");
    let extra = ["--games", "2", "--seed", "3", "--budget", "60", "--concurrency", "1"];
    let full = scratch.join("full");
    arena_expect(&five_bots(&scratch, &[&extra[..], &["--out", &full]].concat()), 0);
    let all = records(&full).len();
    assert_eq!(all, 60);

    let cut = scratch.join("cut");
    let args = five_bots(&scratch, &[&extra[..], &["--out", &cut]].concat());
    let mut arena = Command::new(bin("arena")).args(&args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    wait_for_records(&cut, 15); // in the second round, after the draw's 10 games
    arena.kill().unwrap(); // SIGKILL
    arena.wait().unwrap();
    let kept = records(&cut).len();
    assert!((15..all).contains(&kept), "{kept} games kept");
    scratch.assert_nothing_left(LINGER);

    let (_, stderr) = arena_expect(&["league", "--resume", &cut], 0);
    assert!(stderr.contains(&format!("{kept} already played")), "{stderr}");
    assert_eq!(rounds(&cut), rounds(&full), "the same rounds chosen");
    assert_eq!(canonical_records(&cut), canonical_records(&full));
    assert_eq!(Standings::read(&cut).bots, Standings::read(&full).bots);
}

#[test]
fn a_learning_league_stops_once_the_order_is_known() {
    let scratch = Scratch::new("learning-known");
    let out = scratch.join("out");
    let bots = [("g", bin("greedy-bot")), ("r", bin("random-bot"))];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(name, command)| (*name, command.as_str())).collect();
    let flags = ["--format", "learning", "--games", "10", "--seed", "2", "--budget", "200", "--out", &out];
    let mut args = match_args(&scratch, &bots, &patient(&flags));
    args[0] = "league".to_string();
    let (stdout, _) = arena_expect(&args, 0);
    let games = records(&out).len();
    assert!(games < 200, "it stops before its budget: {games} games");
    assert!(
        stdout.contains(&format!(
            "and {games} games: every pair of bots adjacent in the table has its order known at 95%"
        )),
        "{stdout}"
    );
    assert_eq!(Standings::read(&out).bots[0].name, "g", "{stdout}");

    // A round robin has no budget.
    let (a, b) = (format!("a={}", bin("random-bot")), format!("b={}", bin("random-bot")));
    let (_, stderr) = arena_expect(&["league", "--bot", &a, "--bot", &b, "--budget", "10"], 2);
    assert!(stderr.contains("only a learning league has a budget"), "{stderr}");
}

#[test]
fn a_running_learning_league_takes_in_a_queued_bot_and_plays_it_in_its_next_round() {
    let scratch = Scratch::new("learning-grow-running");
    // g holds its answers while the gate exists: the league is in its first round, and stays so.
    let gate = scratch.join("gate");
    std::fs::write(&gate, "").unwrap();
    let gated = format!("{} {} {gate}", python(), repo_path("tests/bots/gated.py"));
    let (random, greedy) = (bin("random-bot"), bin("greedy-bot"));
    let noisy = format!("{greedy} --noise 0.5");
    let bots = [("g", gated.as_str()), ("r", random.as_str()), ("m", noisy.as_str())];
    let out = scratch.join("out");
    let flags = ["--format", "learning", "--games", "2", "--seed", "5", "--budget", "30", "--concurrency", "1"];
    let mut args = match_args(&scratch, &bots, &patient(&[&flags[..], &["--out", &out]].concat()));
    args[0] = "league".to_string();
    let running = Command::new(bin("arena")).args(&args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    wait_at_gate(&gate);
    let newcomer = format!("n={greedy} {}", scratch.marker());
    let (_, stderr) = arena_expect(&["league", "--resume", &out, "--bot", &newcomer], 0);
    assert!(stderr.contains("the change is queued as"), "{stderr}");

    std::fs::remove_file(&gate).unwrap();
    let output = finish(running);
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("the league takes it in and goes on"), "{stderr}");
    assert!(stderr.contains("the league's field changes: n enters"), "{stderr}");
    assert_eq!(std::fs::read_dir(format!("{out}/changes")).unwrap().count(), 0, "the queue is emptied");
    // The round after the change is a draw: the newcomer, without results, meets two bots.
    let chosen = rounds(&out);
    let first_with_n = chosen.iter().position(|round| round.to_string().contains('3')).expect("n plays a round");
    assert!(first_with_n >= 1, "n entered after the first round: {chosen:?}");
    let pairs = chosen[first_with_n].as_array().unwrap();
    assert_eq!(pairs.iter().filter(|pair| pair.as_array().unwrap().contains(&Value::from(3))).count(), 2, "{chosen:?}");
    let games = records(&out);
    assert!(games.iter().any(|game| game.bots.iter().any(|bot| bot == "n")), "n played");
    assert!(games.len() <= 30, "the budget holds: {}", games.len());
    // The figures at the end count every game this command played, before the change and after.
    assert!(stdout.contains(&format!("\n{} games, ", games.len())), "{stdout}");
    let (stdout, _) = arena_expect(&["verify", &out], 0);
    assert!(stdout.contains(&format!("{} games verified", games.len())), "{stdout}");
    assert!(scratch.leftover_processes().is_empty());
}

#[test]
fn a_swiss_league_pairs_like_scores_without_rematches_and_plays_on_with_more_rounds() {
    let scratch = Scratch::new("swiss");
    let extra = ["--games", "2", "--seed", "6", "--concurrency", "2"];
    let (first, second) = (scratch.join("first"), scratch.join("second"));
    let (stdout, stderr) =
        arena_expect(&five_bots_in("swiss", &scratch, &[&extra[..], &["--out", &first]].concat()), 0);
    arena_expect(&five_bots_in("swiss", &scratch, &[&extra[..], &["--out", &second]].concat()), 0);
    // Five bots: ⌈log₂ 5⌉ = 3 rounds of two pairs, one bot sitting out each, never the same one.
    let chosen = rounds(&first);
    assert_eq!(chosen.len(), 3, "{chosen:?}");
    let mut met = std::collections::HashSet::new();
    let mut out = Vec::new();
    for round in &chosen {
        let pairs: Vec<Vec<u64>> = round
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_array().unwrap().iter().map(|b| b.as_u64().unwrap()).collect())
            .collect();
        assert_eq!(pairs.len(), 2, "{chosen:?}");
        for pair in &pairs {
            assert!(met.insert(pair.clone()), "no pair meets twice: {chosen:?}");
        }
        let playing: Vec<u64> = pairs.iter().flatten().copied().collect();
        out.push((0..5).find(|bot| !playing.contains(bot)).expect("one bot sits out"));
    }
    out.dedup();
    assert_eq!(out.len(), 3, "a different bot sits out each round: {chosen:?}");
    assert!(stderr.contains("swiss league of 5 bots, round 2 (2 pairs)"), "{stderr}");
    assert_eq!(records(&first).len(), 12, "{stdout}");
    assert!(stdout.contains("\n12 games, "), "{stdout}");
    assert!(
        stdout.contains("the swiss league stopped after 3 rounds and 12 games: its 3 rounds are played"),
        "{stdout}"
    );
    assert_eq!(rounds(&second), chosen, "the same seed, the same rounds");
    assert_eq!(canonical_records(&second), canonical_records(&first), "the same seed, the same records");
    let (stdout, _) = arena_expect(&["verify", &first], 0);
    assert!(stdout.contains("12 games verified: every record agrees"), "{stdout}");

    // More rounds play on from the games on disk; the rounds played stay.
    let (stdout, stderr) = arena_expect(&["league", "--resume", &first, "--swiss-rounds", "4"], 0);
    assert!(stderr.contains("12 already played"), "{stderr}");
    assert!(stdout.contains("after 4 rounds and 16 games: its 4 rounds are played"), "{stdout}");
    assert_eq!(rounds(&first)[..3], chosen[..], "the rounds played stay");
    let league: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{first}/league.json")).unwrap()).unwrap();
    assert_eq!(league["swiss_rounds"], 4);
    // A newcomer needs a round to play in: given with more rounds, it plays the next one.
    let newcomer = format!("n={} {}", bin("greedy-bot"), scratch.marker());
    let (_, stderr) = arena_expect(&["league", "--resume", &first, "--bot", &newcomer], 2);
    assert!(stderr.contains("n would play no game: this swiss league has played its 4 rounds"), "{stderr}");
    let (_, stderr) = arena_expect(&["league", "--resume", &first, "--bot", &newcomer, "--swiss-rounds", "5"], 0);
    assert!(stderr.contains("n enters: paired from the next round, at a score of 0.5"), "{stderr}");
    let fifth = rounds(&first)[4].to_string();
    assert!(fifth.contains("5]"), "the newcomer (bot 5) plays round 5: {fifth}");
    assert_eq!(records(&first).len(), 16 + 3 * 2, "three pairs of six bots");

    // Swiss rounds belong to a Swiss league, of a game of two sides.
    let (_, stderr) = arena_expect(&["league", "--resume", &second, "--budget", "40"], 2);
    assert!(stderr.contains("only a learning league has a budget (this one is a swiss)"), "{stderr}");
    let (a, b, c) =
        (format!("a={}", bin("random-bot")), format!("b={}", bin("random-bot")), format!("c={}", bin("random-bot")));
    let (_, stderr) = arena_expect(&["league", "--bot", &a, "--bot", &b, "--swiss-rounds", "2"], 2);
    assert!(stderr.contains("only a swiss league has swiss rounds (this one is a round-robin)"), "{stderr}");
    let three = ["league", "--format", "swiss", "--players", "3", "--bot", &a, "--bot", &b, "--bot", &c];
    let (_, stderr) = arena_expect(&three, 2);
    assert!(stderr.contains("a swiss league pairs bots: it needs a game of 2 sides (this one has 3)"), "{stderr}");
}
