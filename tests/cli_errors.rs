//! Mistakes a user can make get a one-line error naming the cause and exit status 2.

use e2e::*;
use std::process::Command;

fn expect_usage_error(args: &[&str], needle: &str) {
    let (stdout, stderr) = arena_expect(args, 2);
    assert!(stderr.contains(needle), "arena {args:?}: expected {needle:?} in:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
}

#[test]
fn usage_errors_name_their_cause() {
    let greedy = format!("g={}", bin("greedy-bot"));
    let random = format!("r={}", bin("random-bot"));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["match", "--bot", &greedy, "--bot", "x=no-such-bot-program"], "not found in PATH"),
        (vec!["match", "--bot", &greedy, "--bot", "x=./nowhere/bot"], "no such file"),
        (vec!["match", "--bot", &greedy, "--bot", "g=python3 x.py"], "two bots are named \"g\""),
        (vec!["match", "--bot", &greedy, "--bot", "nameless"], "expected NAME=COMMAND"),
        (vec!["match", "--bot", &greedy], "give 2 --bot"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--players", "5"], "players"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--variant", "colour=red"], "colour"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--variant", "deal=six"], "six"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--variant", "target"], "expected KEY=VALUE"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--game", "chess"], "unknown game"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--games", "many"], "invalid value"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--frobnicate"], "unexpected argument"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--games", "0"], "--games"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--move-timeout", "0"], "--move-timeout"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--concurrency", "0"], "--concurrency"),
        (vec!["match", "--bot", &greedy, "--bot", &random, "--clock", "60s"], "\"60s\": expected BASE+INC"),
        (vec!["league", "--bot", &greedy, "--bot", &random, "--clock", "0+1s"], "the base must be more than 0"),
        (vec!["match", "--bot", &greedy, "--bot", "me=./bot 2>debug.log"], "\"2>debug.log\" would reach the bot"),
        (vec!["match", "--bot", &greedy, "--bot", "me=python3 bot.py > /tmp/x"], "redirections are not done"),
        (vec!["match", "--bot", &greedy, "--bot", "me=cd dir && ./bot"], "is not run by a shell"),
        (vec!["check-bot", "python3 bot.py | tee log"], "Run a shell yourself (e.g. sh -c"),
        (vec!["league", "--bot", &greedy, "--bot", "me=./bot; echo"], "command lists (;) are not done"),
    ];
    for (args, needle) in cases {
        expect_usage_error(&args, needle);
    }
}

#[test]
fn an_unquoted_bot_command_is_explained_with_the_command_line_corrected() {
    let arena = bin("arena");
    let cases = [
        (vec!["check-bot", "perl", "bot.pl"], format!("\n  {arena} check-bot 'perl bot.pl'\n")),
        (
            vec!["match", "--bot", "a=python3", "bot.py", "-v", "--bot", "g=./g", "--games", "4"],
            format!("\n  {arena} match --bot 'a=python3 bot.py' -v --bot 'g=./g' --games 4\n"),
        ),
        (
            vec!["sprt", "--new", "n=node", "n.js", "--base", "b=./b"],
            format!("\n  {arena} sprt --new 'n=node n.js' --base 'b=./b'\n"),
        ),
    ];
    for (args, corrected) in cases {
        let (stdout, stderr) = arena_expect(&args, 2);
        assert!(stderr.contains("error: unexpected argument"), "{stderr}");
        assert!(stderr.contains("a bot command with arguments is one argument, in quotes"), "{stderr}");
        assert!(stderr.contains(&corrected), "expected {corrected:?} in:\n{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
    }
    // Run by name from PATH, the arena is named so in the command it suggests.
    let path = format!("{}:{}", bin_dir().display(), std::env::var("PATH").unwrap_or_default());
    let output = output(Command::new("arena").args(["check-bot", "perl", "bot.pl"]).env("PATH", path));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("\n  arena check-bot 'perl bot.pl'\n"), "{stderr}");
}

#[test]
fn refuses_to_overwrite_earlier_results() {
    let scratch = Scratch::new("overwrite");
    let out = scratch.join("out");
    let greedy = format!("g={}", bin("greedy-bot"));
    let random = format!("r={}", bin("random-bot"));
    arena_expect(&["match", "--bot", &greedy, "--bot", &random, "--games", "2", "--out", &out], 0);
    let before = std::fs::read(format!("{out}/games.jsonl")).unwrap();
    expect_usage_error(
        &["match", "--bot", &greedy, "--bot", &random, "--games", "2", "--out", &out],
        "already holds games",
    );
    assert_eq!(std::fs::read(format!("{out}/games.jsonl")).unwrap(), before, "nothing was overwritten");
}

#[test]
fn unwritable_output_directory_is_a_usage_error() {
    let greedy = format!("g={}", bin("greedy-bot"));
    let random = format!("r={}", bin("random-bot"));
    expect_usage_error(
        &["match", "--bot", &greedy, "--bot", &random, "--out", "/proc/arena-cannot-write-here"],
        "cannot create output directory",
    );
}

#[test]
fn rules_lists_every_variant_setting() {
    let (stdout, _) = arena_expect(&["rules"], 0);
    for key in ["players", "partners", "deal", "boneyard_keep", "hand_end", "target", "max_hands"] {
        assert!(stdout.contains(key), "{key} missing from:\n{stdout}");
    }
    for line in stdout.lines() {
        assert!(line.chars().count() <= 80, "wider than an 80-column terminal: {line}");
    }
}

#[test]
fn variables_before_the_program_set_the_bots_environment() {
    let scratch = Scratch::new("env-prefix");
    let script = scratch.join("needs_greeting.py");
    let greedy_py = repo_path("sample-bots/python/greedy.py");
    std::fs::write(
        &script,
        format!(
            "import os, runpy, sys\nif os.environ.get('GREETING') != 'hello there':\n    sys.exit('no GREETING')\n\
             runpy.run_path({greedy_py:?}, run_name='__main__')\n"
        ),
    )
    .unwrap();
    let out = scratch.join("out");
    let bot = format!("GREETING='hello there' {} {script}", python());
    let flags = patient(&["--games", "2", "--out", &out]);
    let args = match_args(&scratch, &[("env", &bot), ("g", &bin("greedy-bot"))], &flags);
    arena_expect(&args, 0);
    assert_eq!(Standings::read(&out).bot("env").faults, 0, "the bot saw GREETING");
}

#[test]
fn the_help_names_a_first_command_and_the_documents() {
    let (help, _) = arena_expect(&["--help"], 0);
    for wanted in ["Start with `arena match`", "README.md", "docs/bots.md", "protocol/PROTOCOL.md"] {
        assert!(help.contains(wanted), "arena --help does not say {wanted:?}: {help}");
    }
    for page in ["README.md", "docs/bots.md", "docs/matches.md", "docs/leagues.md", "protocol/PROTOCOL.md"] {
        assert!(std::path::Path::new(&repo_path(page)).is_file(), "arena --help names {page}, which is not there");
    }
}

#[test]
fn every_command_that_takes_limits_lists_them_all() {
    for command in ["match", "league", "sprt", "check-bot"] {
        let (help, _) = arena_expect(&[command, "--help"], 0);
        let limit = help.split("--limit").nth(1).unwrap_or_else(|| panic!("{command} --help: {help}"));
        let names =
            ["cpu", "address-space", "processes", "file-size", "open-files", "tmp", "bot-processes", "bot-memory"];
        for name in names {
            assert!(limit.contains(name), "arena {command} --help does not list {name}: {help}");
        }
    }
}
