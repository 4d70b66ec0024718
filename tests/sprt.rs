//! `arena sprt` end to end: verdicts and their exit statuses, every table
//! size, the same verdict at any concurrency and after an interruption, and
//! usage errors.

use e2e::*;
use records::sprt::{Conclusion, Findings, Parameters};
use std::process::{Command, Stdio};

/// Arguments of `arena sprt` of `new` against `base` (name, command), tagged with the scratch marker.
fn sprt_args(scratch: &Scratch, new: (&str, &str), base: (&str, &str), extra: &[&str]) -> Vec<String> {
    let mut args = match_args(scratch, &[new, base], extra);
    args[0] = "sprt".to_string();
    args[1] = "--new".to_string();
    args[3] = "--base".to_string();
    args
}

/// `DIR/sprt.json`.
fn result(out: &str) -> Sprt {
    Sprt::read(out)
}

/// A pentanomial test's pairs counted and their counts by score.
fn pairs(result: &Sprt) -> (u64, [u64; 5]) {
    match result.findings {
        Findings::Pairs { pairs, pentanomial, .. } => (pairs, pentanomial),
        Findings::Payoffs { .. } => panic!("not a pentanomial test: {result:?}"),
    }
}

/// What must not depend on concurrency or interruptions: the counts, the LLR, the verdict.
fn outcome(result: &Sprt) -> ([u64; 5], u64, f64, Conclusion) {
    (pairs(result).1, result.games, result.llr, result.conclusion)
}

#[test]
fn three_players_and_partnerships_reduce_to_pairs() {
    let scratch = Scratch::new("sprt-sizes");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    for (players, per_pair) in [("3", 1), ("4", 2)] {
        let out = scratch.join(&format!("out{players}"));
        let args = sprt_args(
            &scratch,
            ("greedy", &greedy),
            ("random", &random),
            &["--players", players, "--elo1", "20", "--seed", "2", "--concurrency", "2", "--out", &out],
        );
        let (stdout, _) = arena_expect(&args, 0);
        assert!(stdout.contains("H1 accepted"), "{stdout}");
        let result = result(&out);
        // 3 players: one pair per game (new against each of the two copies);
        // partnerships: one pair per deal of two games.
        assert_eq!(result.games, per_pair * pairs(&result).0);
        let seated: Vec<Vec<String>> = records(&out).into_iter().map(|r| r.bots).take(3).collect();
        if players == "3" {
            assert_eq!(seated[0], ["greedy", "random", "random.2"]);
            assert_eq!(seated[1], ["random", "random.2", "greedy"]);
        } else {
            assert_eq!(seated[0], ["greedy", "random", "greedy", "random"]);
        }
    }
}

#[test]
fn random_against_itself_does_not_accept_h1() {
    let scratch = Scratch::new("sprt-h0");
    let random = bin("random-bot");
    let args = sprt_args(&scratch, ("a", &random), ("b", &random), &["--seed", "1", "--elo1", "100"]);
    let (stdout, _) = arena_expect(&args, 1);
    assert!(stdout.contains("H0 accepted: a is not 100 nElo better than b"), "{stdout}");
    let extra = ["--seed", "1", "--elo1", "100", "--model", "logistic"];
    let (stdout, _) = arena_expect(&sprt_args(&scratch, ("a", &random), ("b", &random), &extra), 1);
    assert!(stdout.contains("H0 accepted: a is not 100 Elo better than b"), "{stdout}");
    let args = sprt_args(&scratch, ("a", &random), ("b", &random), &["--seed", "1", "--max-games", "9"]);
    let (stdout, _) = arena_expect(&args, 3);
    assert!(stdout.contains("inconclusive") && stdout.contains("after 10 games (5 pairs"), "{stdout}");
}

/// Greedy against random with the default test: H1, and the same counts,
/// LLR and verdict at another concurrency, after an interruption and a resume,
/// and after resuming a finished test.
#[test]
fn greedy_against_random_accepts_h1_whatever_the_concurrency_and_interruptions() {
    let scratch = Scratch::new("sprt-h1");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let args = |concurrency: &str, out: &str| {
        // (Limits no busy machine reaches: the same seed plays the same games.)
        let extra = patient(&["--seed", "4", "--concurrency", concurrency, "--out", out]);
        sprt_args(&scratch, ("greedy", &greedy), ("random", &random), &extra)
    };
    // One game at a time: the reference the other runs are compared with
    // (games played at a higher concurrency, past the verdict, are checked by
    // few_games_are_played_past_the_verdict_at_any_concurrency).
    let whole = scratch.join("whole");
    let (stdout, stderr) = arena_expect(&args("1", &whole), 0);
    assert!(stdout.contains("H1 accepted: greedy is better than random"), "{stdout}");
    assert!(stdout.contains("pentanomial [LL, LD, WL+DD, WD, WW]"), "{stdout}");
    assert!(stderr.contains("nElo [0, 5], alpha 0.05, beta 0.05, LLR bounds (-2.94, 2.94)"), "{stderr}");
    let expected = result(&whole);
    assert_eq!(expected.conclusion, Conclusion::H1);
    assert!(expected.llr >= 2.94);
    let games = expected.games;
    let played = records(&whole).len() as u64;
    assert_eq!(expected.games_played, played);
    assert!(
        played >= games && played <= games + 20,
        "no game starts after the verdict: {played} played, {games} counted"
    );
    assert!(games < 1000, "{games} games for an obvious difference");

    let cut = scratch.join("cut");
    let arena = Command::new(bin("arena"))
        .args(args("3", &cut))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena starts");
    wait_for_records(&cut, 20);
    let pid = nix::unistd::Pid::from_raw(arena.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let output = finish(arena);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains(&format!("continue with: {} sprt --resume {cut}", bin("arena"))), "{stdout}");
    assert_eq!(result(&cut).conclusion, Conclusion::Interrupted);

    let (stdout, _) = arena_expect(&["sprt", "--resume", &cut, "--concurrency", "2"], 0);
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert_eq!(outcome(&result(&cut)), outcome(&expected));
    let played = records(&cut).len();
    arena_expect(&["sprt", "--resume", &cut], 0);
    assert_eq!(records(&cut).len(), played, "a finished test resumed plays nothing more");
    assert_eq!(outcome(&result(&cut)), outcome(&expected));
    assert!(scratch.leftover_processes().is_empty(), "{:?}", scratch.leftover_processes());
}

/// The games played and not counted when the test stops: at most the
/// units of games in play at once (`--concurrency` of them, each of at most
/// 8 deals of 2 games at 2 players: docs/sprt.md), and a couple of games a
/// slot finished meanwhile. Fast bots finish many games while one game slot
/// is held up; before the bound, 203 were played for 296 counted. With a
/// deals file of 5 setups, whose units wait for each other's deals, 1,250
/// were played for 484 counted.
#[test]
fn few_games_are_played_past_the_verdict_at_any_concurrency() {
    let scratch = Scratch::new("sprt-past");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let setups: Vec<String> = (0..5)
        .map(|shift| {
            let mut tiles: Vec<[u8; 2]> = (0..=6u8).flat_map(|a| (a..=6).map(move |b| [a, b])).collect();
            tiles.rotate_left(shift * 5);
            serde_json::json!({"deals": [{"hands": [&tiles[..9], &tiles[9..18]], "boneyard": &tiles[18..], "leader": 0}]})
                .to_string()
        })
        .collect();
    let deals = scratch.join("deals.jsonl");
    std::fs::write(&deals, setups.join("\n")).unwrap();
    for (seed, concurrency, file) in [("1", 2u64, None), ("2", 4, None), ("1", 2, Some(&deals))] {
        let name = format!("out{concurrency}{}", if file.is_some() { "-deals" } else { "" });
        let (out, at_once) = (scratch.join(&name), concurrency.to_string());
        let mut extra = patient(&["--seed", seed, "--concurrency", &at_once, "--out", &out]);
        if let Some(file) = file {
            extra.extend(["--deals", file.as_str()]);
        }
        let (stdout, _) = arena_expect(&sprt_args(&scratch, ("greedy", &greedy), ("random", &random), &extra), 0);
        assert!(stdout.contains("H1 accepted"), "{stdout}");
        let result = result(&out);
        // The two Elo figures of the screen, each saying what it is estimated from.
        assert!(stdout.contains("Standings: Elo ± 95% interval, from every game's result"), "{stdout}");
        let estimate = format!("SPRT estimate from the {} pairs counted: Elo ", pairs(&result).0);
        let standings = format!(
            "(not the standings' Elo: that rates each bot about their mean, from each of the {} games played",
            result.games_played
        );
        assert!(stdout.contains(&estimate) && stdout.contains(&standings), "{stdout}");
        let counted = result.games;
        let played = records(&out).len() as u64;
        assert_eq!(result.games_played, played, "sprt.json counts every game recorded");
        let bound = concurrency * (8 * 2 + 2);
        assert!(
            played >= counted && played - counted <= bound,
            "{name}: {played} games played for {counted} counted (at most {bound} more)"
        );
    }
}

#[test]
fn sprt_usage_errors() {
    let scratch = Scratch::new("sprt-usage");
    let random = bin("random-bot");
    let new = format!("--new=a={random}");
    let base = format!("--base=b={random}");
    let out = scratch.join("out");
    for (args, message) in [
        (vec!["sprt", &base], "--new <NAME=COMMAND>"),
        (vec!["sprt", &new, &base, "--alpha", "1.5"], "--alpha (1.5) must be between 0 and 1"),
        (vec!["sprt", &new, &base, "--elo0", "5", "--elo1", "5"], "--elo0 (5) must be less than --elo1 (5)"),
        (vec!["sprt", &new, &base, "--elo0=-2", "--elo1", "-3"], "must be less than --elo1 (-3)"),
        (vec!["sprt", &new, &format!("--base=a={random}")], "both named"),
        (vec!["sprt", "--new", "nameless", &base], "--new \"nameless\": expected NAME=COMMAND"),
        (vec!["sprt", &new, "--base", "b=/no/such/bot"], "--base: bot \"b\": cannot run"),
        (vec!["sprt", &new, &base, "--model", "bayes"], "unknown Elo model"),
        (vec!["sprt", &new, &base, "--players", "4", "--variant", "partners=false", "--out", &out], "do not pair up"),
        (vec!["sprt", "--resume", &out], "cannot resume"),
        (vec!["sprt", &new, &base, "--bounds", "quick", "--elo1", "3"], "cannot be used with"),
        (vec!["sprt", &new, &base, "--bounds", "fast"], "possible values: quick, normal, fine, no-regression"),
        (vec!["sprt", &new, &base, "--payoff1", "1"], "--payoff0 and --payoff1 are the bounds of the payoff test"),
        (vec!["sprt", &new, &base, "--test", "payoff", "--elo1", "3"], "the payoff test takes --payoff0 and --payoff1"),
        (vec!["sprt", &new, &base, "--test", "payoff", "--payoff0", "1", "--payoff1", "1"], "must be less than"),
        (vec!["sprt", &new, &base, "--payoff1", "1", "--elo0", "1"], "cannot be used with"),
    ] {
        let (_, stderr) = arena_expect(&args, 2);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(!std::path::Path::new(&out).exists(), "a refused test leaves no output");
}

#[test]
fn named_bounds_decide_a_large_difference_in_few_games() {
    let scratch = Scratch::new("sprt-bounds");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let mut games = Vec::new();
    for bounds in ["quick", "fine"] {
        let out = scratch.join(bounds);
        let extra = ["--bounds", bounds, "--seed", "1", "--out", &out];
        let (stdout, _) = arena_expect(&sprt_args(&scratch, ("greedy", &greedy), ("random", &random), &extra), 0);
        assert!(stdout.contains("H1 accepted"), "{stdout}");
        let result = result(&out);
        let bounds = if bounds == "quick" { (0.0, 40.0) } else { (0.0, 5.0) };
        let Parameters::Pentanomial { elo0, elo1, .. } = result.parameters else { panic!("{result:?}") };
        assert_eq!((elo0, elo1), bounds, "{result:?}");
        games.push(result.games);
    }
    assert!(games[0] * 4 < games[1], "quick bounds take far fewer games: {games:?}");
}
