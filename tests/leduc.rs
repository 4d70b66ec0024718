//! Leduc Hold'em end to end, with real processes: the sample bots play a
//! match whose records verify, the Python and Rust rule-based bots agree,
//! the worked example of its RULES.md is reproduced through a deals file,
//! `arena view` draws it (in headless Chromium), and `rules` and
//! `check-bot` know the game.

use e2e::*;

/// The command of the Python Leduc sample bot.
fn python_leduc() -> String {
    format!("{} {}", python(), repo_path("sample-bots/python/leduc.py"))
}

#[test]
fn the_sample_bots_play_a_match_whose_records_verify() {
    let scratch = Scratch::new("leduc-match");
    let out = scratch.join("out");
    let rules = format!("{} --play rules", bin("leduc-bot"));
    let bots = [("random", bin("leduc-bot")), ("rules", rules)];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(n, c)| (*n, c.as_str())).collect();
    let extra = patient(&["--game", "leduc", "--games", "40", "--seed", "15", "--out", &out]);
    let (stdout, stderr) = arena_expect(&match_args(&scratch, &bots, &extra), 0);
    assert!(stderr.starts_with("leduc: 40 games"), "{stderr}");
    assert!(stdout.contains("rules") && stdout.contains("random"), "{stdout}");
    // Beside the Elo, the mean payoff per game with its 95% interval.
    assert!(stdout.contains("chips/game") && stdout.contains("chips against"), "{stdout}");
    let standings = Standings::read(&out);
    let (random, rules) = (standings.bot("random"), standings.bot("rules"));
    assert!((random.points_for + rules.points_for).abs() < 1e-9, "the mean payoffs of two bots cancel");
    assert!(rules.points_for_interval > 0.0, "{rules:?}");
    // A payoff game ranks the bots by mean payoff, whatever their Elo.
    let first = if rules.points_for > random.points_for { "rules" } else { "random" };
    assert_eq!(standings.bots[0].name, first, "{standings:?}");
    let records = Record::all(&out);
    assert_eq!(records.len(), 40);
    for record in &records {
        assert_eq!(record.game, "leduc");
        assert_eq!(record.faults, [], "{record:?}");
        assert_eq!(record.result.scores.iter().sum::<i64>(), 0, "payoffs sum to 0: {:?}", record.result);
        let reason = &record.result.reason;
        assert!(reason == "fold" || reason == "showdown", "{reason}");
        assert_eq!(record.events[0]["type"], "deal");
    }
    let (verified, _) = arena_expect(&["verify", &out], 0);
    assert!(verified.contains("40 games verified: every record agrees with the engine"), "{verified}");
    // `arena view` draws a game: the page holds the Leduc viewer and the record.
    let page = scratch.join("game3.html");
    arena_expect(&["view", &out, "--game", "3", "-o", &page], 0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<h1>Leduc Hold'em</h1>") && html.contains(r#""game":"leduc""#), "{html}");
    // The Python bot chooses as the Rust rule-based bot did, in every game.
    for game in ["0", "1", "17", "38"] {
        let bot = format!("py={} {}", python_leduc(), scratch.marker());
        let (replayed, _) = arena_expect(&["replay", &out, "--game", game, "--as", "rules", "--bot", &bot], 0);
        assert!(replayed.contains("py chose as recorded at all"), "game {game}: {replayed}");
    }
    // The random bot in the rules bot's seats: its differences summed up by the game's kinds of move.
    let random = format!("random={} {}", bin("leduc-bot"), scratch.marker());
    let (diff, _) = arena_expect(&[&["replay", &out, "--as", "rules", "--bot", &random][..], &PATIENT].concat(), 1);
    let table = diff.lines().skip_while(|line| *line != "by kind of the recorded move:").skip(1);
    let kinds: Vec<&str> = table.map_while(|line| line.strip_prefix("  ")?.split(' ').next()).collect();
    assert!(kinds.len() >= 2 && kinds.iter().all(|kind| ["call", "fold", "raise"].contains(kind)), "{diff}");
}

#[test]
fn the_worked_example_is_reproduced_through_a_deals_file() {
    let scratch = Scratch::new("leduc-example");
    let deals = scratch.join("example.jsonl");
    std::fs::write(&deals, "{\"cards\": [\"Js\", \"Kh\"], \"public\": \"Jh\"}\n").unwrap();
    let out = scratch.join("out");
    let script =
        format!("{} {} 0:raise,call,raise 1:call,raise,call", python(), repo_path("tests/bots/leduc_script.py"));
    let bots = [("x", script.as_str()), ("y", script.as_str())];
    // (Limits a busy machine keeps: a timeout would end the example in a forfeit.)
    let extra = patient(&["--game", "leduc", "--deals", &deals, "--out", &out]);
    arena_expect(&match_args(&scratch, &bots, &extra), 0);
    let records = Record::all(&out);
    assert_eq!(records.len(), 2, "the deal in both seatings");
    for record in &records {
        assert!(record.preset);
        let acts: Vec<String> = record
            .events_of("act")
            .map(|e| format!("{}:{}+{}={}", e["seat"], e["action"].as_str().unwrap(), e["chips"], e["pot"]))
            .collect();
        assert_eq!(acts, ["0:raise+2=4", "1:call+2=6", "0:call+0=6", "1:raise+4=10", "0:raise+8=18", "1:call+4=22"]);
        let end = record.events.last().unwrap();
        assert_eq!((end["type"].as_str(), end["pot"].as_u64()), (Some("hand_end"), Some(22)));
        assert_eq!(record.result.scores, [11, -11]);
        assert_eq!(record.result.reason, "showdown");
    }
    let (verified, _) = arena_expect(&["verify", &out], 0);
    assert!(verified.contains("2 games verified"), "{verified}");
    view_draws_the_worked_example(&scratch, &out, &records[0]);
}

/// `arena view`'s page of the worked example, run in headless Chromium: its
/// title and first step, the cards, each seat's chips in and the pot before
/// the public card, after it, and at the end; and nothing written to the console.
fn view_draws_the_worked_example(scratch: &Scratch, out: &str, record: &Record) {
    let Some(browser) = Browser::find(scratch) else { return };
    let page = scratch.join("example.html");
    arena_expect(&["view", out, "--game", "0", "-o", &page], 0);
    // Without #step the page opens before the deal, and its tab names the bots and the winner.
    let dom = browser.run(&page, "", &["--dump-dom"]);
    assert!(dom.contains("data-step=\"0\""), "the page opens at step 0:\n{dom}");
    assert!(dom.contains("<title>Leduc Hold'em · game 0: x vs y · x won (+11, −11)</title>"), "{dom}");
    let events = &record.events;
    let public = events.iter().position(|e| e["type"] == "public").expect("a public card") + 1;
    // (step, public card, pot, seat 0 in for, seat 1 in for)
    for (step, card, pot, zero, one) in
        [(public - 1, "", 6, 3, 3), (public, "Jh", 6, 3, 3), (events.len(), "Jh", 22, 11, 11)]
    {
        let (dom, console) = browser.run_logged(&page, &format!("step={step}"), &["--dump-dom"]);
        assert!(console.is_empty(), "step {step}: the page wrote to its console: {console:?}");
        assert!(dom.contains(&format!("data-step=\"{step}\"")), "step {step}:\n{dom}");
        assert!(dom.contains(&format!("id=\"public\" data-card=\"{card}\"")), "step {step}:\n{dom}");
        assert!(dom.contains(&format!("data-pot=\"{pot}\"")), "step {step}:\n{dom}");
        assert!(dom.contains(&format!("data-seat=\"0\" data-put-in=\"{zero}\" data-card=\"Js\"")), "{dom}");
        assert!(dom.contains(&format!("data-seat=\"1\" data-put-in=\"{one}\" data-card=\"Kh\"")), "{dom}");
    }
}

#[test]
fn rules_and_check_bot_know_the_game() {
    let (rules, _) = arena_expect(&["rules", "--game", "leduc"], 0);
    assert!(rules.starts_with("leduc variant settings") && rules.contains("players"), "{rules}");
    let (_, error) = arena_expect(&["rules", "--game", "poker"], 2);
    assert!(error.contains("the games built in are: all-fives, leduc"), "{error}");
    assert!(error.contains("--engine COMMAND"), "any other game is an engine program: {error}");
    let scratch = Scratch::new("leduc-check-bot");
    let bot = format!("{} {}", python_leduc(), scratch.marker());
    let (checked, _) = arena_expect(&["check-bot", "--game", "leduc", &bot], 0);
    for check in
        ["position:no-fold-when-checking", "position:raise-cap", "position:round-2-after-fold", "game:4-players"]
    {
        assert!(checked.contains(check), "{check} missing:\n{checked}");
    }
    assert!(checked.contains("0 failed"), "{checked}");
}

#[test]
fn a_forfeit_costs_the_chips_put_in_and_verifies() {
    let scratch = Scratch::new("leduc-forfeit");
    let out = scratch.join("out");
    let quitter = format!("{} {}", python(), repo_path("tests/bots/never_moves.py"));
    let rules = format!("{} --play rules", bin("leduc-bot"));
    let bots = [("quitter", quitter.as_str()), ("rules", rules.as_str())];
    // Exit status 4: the quitter forfeited every game it was in.
    arena_expect(&match_args(&scratch, &bots, &["--game", "leduc", "--games", "4", "--seed", "3", "--out", &out]), 4);
    for record in Record::all(&out) {
        let quitter_seat = record.seat_of("quitter");
        assert_eq!(record.result.reason, "forfeit");
        let scores = &record.result.scores;
        // It faults at its first turn, having put in its ante only.
        assert_eq!(scores[quitter_seat], -1, "{:?}", record.result);
        assert_eq!(scores[1 - quitter_seat], 1, "{:?}", record.result);
    }
    let (verified, _) = arena_expect(&["verify", &out], 0);
    assert!(verified.contains("4 games verified"), "{verified}");
}

/// `arena sprt --game leduc` runs the payoff test: the rules bot against
/// random accepts H1, a bot against a copy of itself H0 (its mirrored games
/// cancel in every deal); the pentanomial test still runs when asked for.
#[test]
fn sprt_tests_the_chips_won() {
    let scratch = Scratch::new("leduc-sprt");
    let rules = format!("rules={} --play rules {}", bin("leduc-bot"), scratch.marker());
    let random = format!("random={} {}", bin("leduc-bot"), scratch.marker());
    let out = scratch.join("out");
    let args = ["sprt", "--game", "leduc", "--new", &rules, "--base", &random, "--seed", "3", "--out", &out];
    let (stdout, stderr) = arena_expect(&args, 0);
    assert!(stderr.contains("chips/game [0, 0.2], alpha 0.05, beta 0.05"), "{stderr}");
    assert!(!stderr.contains("judges pairwise results"), "{stderr}");
    assert!(stdout.contains("H1 accepted: rules is better than random"), "{stdout}");
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{out}/sprt.json")).unwrap()).unwrap();
    assert_eq!((result["test"].as_str(), result["unit"].as_str()), (Some("payoff"), Some("chips")), "{result}");
    assert_eq!(result["games"].as_u64(), Some(2 * result["deals"].as_u64().unwrap()), "two seatings a deal");
    assert!(result["payoff"]["mean"].as_f64() > Some(0.2), "{result}");

    let copy = format!("copy={} --play rules {}", bin("leduc-bot"), scratch.marker());
    // Time to spare for each move: one timeout on a busy machine would break the deals' symmetry.
    let args = ["sprt", "--game", "leduc", "--new", &rules, "--base", &copy, "--seed", "3", "--move-timeout", "60000"];
    let (stdout, _) = arena_expect(&args, 1);
    assert!(stdout.contains("H0 accepted: rules is not 0.2 chips/game better than copy"), "{stdout}");
    assert!(stdout.contains("rules's payoff chips/game +0.00 ± "), "every deal cancels: {stdout}");

    let pentanomial = ["sprt", "--game", "leduc", "--new", &rules, "--base", &random, "--seed", "3"];
    let (stdout, stderr) =
        arena_expect(&[&pentanomial[..], &["--test", "pentanomial", "--max-games", "40"]].concat(), 3);
    assert!(stderr.contains("note: leduc ranks bots by chips/game, but this test judges pairwise results"), "{stderr}");
    assert!(stdout.contains("after 40 games (20 pairs"), "{stdout}");
    let (_, stderr) = arena_expect(&[&pentanomial[..], &["--bounds", "quick"]].concat(), 2);
    assert!(stderr.contains("leduc ranks bots by chips/game, so arena sprt runs the payoff test"), "{stderr}");
    assert!(stderr.contains("--test pentanomial"), "{stderr}");
}
