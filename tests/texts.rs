//! Snapshots of what the arena prints for people to read: the standings
//! tables of a match and of a league, the `arena check-bot` report (passed
//! and failed) and the SPRT texts, each from fixed seeds and the sample bots,
//! so that a change of any of them shows in review as a diff of
//! `tests/snapshots/`. What varies from run to run (durations, speeds,
//! memory, the scratch and build paths) is redacted; the rest must be the
//! same every time.
//!
//! After a deliberate change: `cargo insta review` (or
//! `INSTA_UPDATE=always cargo test -p e2e --test end_to_end texts::` and
//! read the diff).

use e2e::*;

/// What varies from run to run, as (regular expression, replacement).
const REDACTIONS: &[(&str, &str)] = &[
    // The run's last line: its duration, speeds and memory.
    (
        r"in [0-9.]+ s: [0-9.]+ games/s, [0-9.]+ decisions/s; peak memory [0-9.]+ MB",
        "in [duration]: [speed]; peak memory [memory]",
    ),
    // check-bot's measures of time.
    (r"ready in [0-9]+ ms", "ready in [ms]"),
    (r"slowest answer [0-9.]+ ms", "slowest answer [ms]"),
    (r", [0-9]+ ms after", ", [ms] after"),
];

/// Asserts the snapshot `name` of `text`, with the paths of `scratch` and
/// of the built binaries, and [`REDACTIONS`], redacted.
fn snapshot(name: &str, scratch: &Scratch, text: &str) {
    let text = text.replace(&scratch.marker(), "[scratch]").replace(&bin_dir().to_string_lossy().into_owned(), "[bin]");
    let mut settings = insta::Settings::clone_current();
    for (pattern, replacement) in REDACTIONS {
        settings.add_filter(pattern, *replacement);
    }
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// Runs `arena ARGS`, which must exit with `status`; returns its stdout,
/// after the first line of its stderr if any (what the run is, which a
/// person reads first; the rest of stderr is progress, as it comes).
fn printed(args: &[String], status: i32) -> String {
    let (stdout, stderr) = arena_expect(args, status);
    match stderr.lines().next() {
        Some(first) => format!("stderr: {first}\n{stdout}"),
        None => stdout,
    }
}

/// The arguments of `arena COMMAND` between `bots`, under limits a busy
/// machine keeps (a timeout would change the games), followed by `extra`.
fn run_args(command: &str, scratch: &Scratch, bots: &[(&str, &str)], extra: &[&str]) -> Vec<String> {
    let mut args = match_args(scratch, bots, &patient(extra));
    args[0] = command.to_string();
    args
}

#[test]
fn the_standings_tables_of_a_match() {
    let scratch = Scratch::new("texts-match");
    let bots = [("greedy", bin("greedy-bot")), ("random", bin("random-bot"))];
    let bots: Vec<(&str, &str)> = bots.iter().map(|(name, command)| (*name, command.as_str())).collect();
    let out = scratch.join("out");
    let args = run_args("match", &scratch, &bots, &["--games", "6", "--seed", "7", "--out", &out]);
    snapshot("match", &scratch, &printed(&args, 0));
}

#[test]
fn the_standings_tables_of_a_league() {
    let scratch = Scratch::new("texts-league");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    let bots = [("greedy", greedy.as_str()), ("random", random.as_str()), ("greedy-2", greedy.as_str())];
    let out = scratch.join("out");
    let args = run_args("league", &scratch, &bots, &["--games", "4", "--seed", "7", "--out", &out]);
    snapshot("league", &scratch, &printed(&args, 0));
}

#[test]
fn the_standings_tables_of_a_leduc_match() {
    let scratch = Scratch::new("texts-leduc");
    let (rules, random) = (format!("{} --play rules", bin("leduc-bot")), bin("leduc-bot"));
    let bots = [("rules", rules.as_str()), ("random", random.as_str())];
    let out = scratch.join("out");
    let args = run_args("match", &scratch, &bots, &["--game", "leduc", "--games", "40", "--seed", "7", "--out", &out]);
    snapshot("leduc-match", &scratch, &printed(&args, 0));
}

#[test]
fn the_check_bot_report_of_a_bot_that_passes() {
    let scratch = Scratch::new("texts-check-pass");
    let bot = format!("{} {}", bin("greedy-bot"), scratch.marker());
    let args: Vec<String> =
        [&["check-bot", "--seed", "5"][..], &PATIENT, &[&bot]].concat().iter().map(|a| a.to_string()).collect();
    snapshot("check-bot-passed", &scratch, &printed(&args, 0));
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn the_check_bot_report_of_a_bot_that_fails() {
    let scratch = Scratch::new("texts-check-fail");
    // Plays one game, then exits: fails the check of a second game.
    let bot = format!("{} {} {}", python(), repo_path("tests/bots/one_game.py"), scratch.marker());
    let args: Vec<String> =
        [&["check-bot", "--seed", "5"][..], &PATIENT, &[&bot]].concat().iter().map(|a| a.to_string()).collect();
    let text =
        printed(&args, 1).replace(&python(), "[python]").replace(&root().to_string_lossy().into_owned(), "[root]");
    snapshot("check-bot-failed", &scratch, &text);
    scratch.assert_nothing_left(LINGER);
}

#[test]
fn the_sprt_texts() {
    let scratch = Scratch::new("texts-sprt");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    // One game at a time: the games played when the test stops are then
    // always the same (at once, games already started when it stops are
    // finished too, as many as the machine let start).
    let sprt = |new: &str, base: &str, out: &str, extra: &[&str]| -> Vec<String> {
        let mut args = run_args("sprt", &scratch, &[("new", new), ("base", base)], extra);
        (args[1], args[3]) = ("--new".to_string(), "--base".to_string());
        args.extend(["--concurrency", "1", "--out", out].map(String::from));
        args
    };
    // The game limit reached without a verdict (exit status 3).
    let out = scratch.join("undecided");
    snapshot(
        "sprt-undecided",
        &scratch,
        &printed(&sprt(&greedy, &random, &out, &["--seed", "3", "--max-games", "8"]), 3),
    );
    // A verdict: the Leduc payoff test. The games that count are the same
    // every time, but not how many more were played past the verdict (those
    // of the deals not yet whole in the units in play, as the machine lets
    // them go): the standings, which count those too, are left out, and so
    // is the number played.
    let (rules, leduc_random) = (format!("{} --play rules", bin("leduc-bot")), bin("leduc-bot"));
    let out = scratch.join("leduc");
    let extra = ["--game", "leduc", "--seed", "3", "--max-games", "400"];
    let text = printed(&sprt(&rules, &leduc_random, &out, &extra), 0);
    let (header, rest) = text.split_once('\n').expect("a header and the rest");
    let verdict = &rest[rest.find("\nSPRT ").expect("the SPRT's lines") + 1..];
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(r"; [0-9]+ played\)", "; [played] played)");
    settings.bind(|| snapshot("sprt-leduc-h1", &scratch, &format!("{header}\n[standings]\n{verdict}")));
}
