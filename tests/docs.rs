//! The documents show what the code does: every JSON example in PROTOCOL.md
//! and in the built-in games' pages of messages is a valid message, their
//! transcripts are what a real match sends and receives, and PROTOCOL.md's
//! minimal bot plays; ENGINES.md's transcript from a
//! bot's side is what a bot of an engine program exchanges; the transcript
//! of `arena play` in docs/play.md is what it prints; every link between the
//! pages leads to a page and a heading that exist; the README shows the
//! quick start on its first screen and an example of every command; and
//! every flag an example gives to `target/release/arena` is one its command
//! takes.

use all_fives::wire as all_fives;
use e2e::*;
use leduc::wire as leduc;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

fn protocol_doc() -> String {
    read("protocol/PROTOCOL.md")
}

/// The pages of the arena protocol: PROTOCOL.md and each built-in game's messages.
const PROTOCOL_PAGES: [&str; 3] = ["protocol/PROTOCOL.md", ALL_FIVES_PAGE, LEDUC_PAGE];
/// All Fives's messages, beside its engine.
const ALL_FIVES_PAGE: &str = "engines/all-fives/PROTOCOL.md";
/// Leduc Hold'em's messages, beside its engine.
const LEDUC_PAGE: &str = "engines/leduc/PROTOCOL.md";

/// The fenced blocks of `doc`: each one's info string and contents.
fn fenced(doc: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in doc.lines() {
        match (&mut current, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) => current = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(_)) => blocks.push(current.take().unwrap()),
            (Some((_, text)), None) => {
                text.push_str(line);
                text.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

/// The contents of the fenced blocks of `doc` whose info string is `lang`.
fn blocks(doc: &str, lang: &str) -> Vec<String> {
    fenced(doc).into_iter().filter(|(info, _)| info == lang).map(|(_, text)| text).collect()
}

#[test]
fn every_json_example_is_a_valid_message() {
    let mut checked = 0;
    for page in PROTOCOL_PAGES {
        for block in blocks(&read(page), "json") {
            for line in block.lines().filter(|l| !l.trim().is_empty()) {
                let valid = valid_to_bot(line.as_bytes()) || valid_from_bot(line.as_bytes());
                assert!(valid, "{page}: not a valid message of either game: {line}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 15, "only {checked} examples found");
}

/// Whether `line` is a message the arena may send, in either game.
fn valid_to_bot(line: &[u8]) -> bool {
    protocol::line::decode::<all_fives::ToBot>(line).is_ok() || protocol::line::decode::<leduc::ToBot>(line).is_ok()
}

/// Whether `line` is a message a bot may send, in either game.
fn valid_from_bot(line: &[u8]) -> bool {
    protocol::line::decode::<all_fives::FromBot>(line).is_ok() || protocol::line::decode::<leduc::FromBot>(line).is_ok()
}

/// The transcript lines (`> ` and `< `) of the section under `title`, each checked to be a valid message.
fn transcript(doc: &str, title: &str) -> Vec<String> {
    let lines = transcript_lines(doc, title);
    for line in &lines {
        let json = &line.as_bytes()[2..];
        let valid = if line.starts_with('>') { valid_to_bot(json) } else { valid_from_bot(json) };
        assert!(valid, "invalid transcript line: {line}");
    }
    lines
}

/// The transcript lines (`> ` and `< `) of the section under `title`.
fn transcript_lines(doc: &str, title: &str) -> Vec<String> {
    doc.split(title)
        .nth(1)
        .unwrap_or_else(|| panic!("no section {title}"))
        .split("\n## ")
        .next()
        .unwrap()
        .lines()
        .filter(|line| line.starts_with("> ") || line.starts_with("< "))
        .map(str::to_string)
        .collect()
}

/// How many times a transcript's match is played when a fault, which only
/// a busy machine causes these bots (a timeout), spoils it.
const ATTEMPTS: usize = 5;

/// What the process in seat 0 exchanged in `arena match` with `args`, the
/// seat-0 bot (`me`) being the Python sample bot `me_bot` wrapped in a logger.
///
/// The match is played with the default limits, which the transcript shows;
/// a match with a fault is played again (see [`ATTEMPTS`]), with a notice,
/// and `None` (the test skipped, with a notice) when every attempt had one.
fn seat0_exchange(me_bot: &str, args: &[&str]) -> Option<Vec<String>> {
    // One directory per bot: the two transcripts' tests run at once.
    let scratch = Scratch::new(&format!("transcript-doc-{}", me_bot.replace('/', "-")));
    let (tee, marker, me_bot) = (repo_path("tests/bots/tee.py"), scratch.marker(), repo_path(me_bot));
    let tee = format!("{python} {tee} {marker} {python} {me_bot}", python = python());
    let me = format!("me={tee}");
    let logs = || -> Vec<std::fs::DirEntry> {
        let entries = std::fs::read_dir(scratch.path()).unwrap().flatten();
        entries.filter(|e| e.file_name().to_string_lossy().ends_with(".log")).collect()
    };
    for attempt in 1..=ATTEMPTS {
        let (_, stderr) = arena_expect(&[&["match", "--bot", me.as_str()][..], args].concat(), 0);
        let faults: Vec<&str> = stderr.lines().filter(|line| line.starts_with("fault: ")).collect();
        if faults.is_empty() {
            break;
        }
        if attempt == ATTEMPTS {
            skip_for_load(&format!("a fault in each of {ATTEMPTS} matches, the last: {faults:?}"));
            return None;
        }
        eprintln!("notice: a fault (a busy machine), attempt {attempt}: {faults:?}");
        for log in logs() {
            std::fs::remove_file(log.path()).unwrap();
        }
    }
    let logs: Vec<String> = logs().iter().map(|e| std::fs::read_to_string(e.path()).unwrap()).collect();
    let seat0 = logs.iter().find(|log| log.contains("\"seat\":0,\"seats\"")).expect("the seat-0 process's log");
    Some(seat0.lines().map(str::to_string).collect())
}

#[test]
fn the_transcript_is_what_a_real_match_exchanges() {
    let transcript = transcript(&read(ALL_FIVES_PAGE), "## A transcript of a short hand");
    assert!(transcript.len() > 20);
    // The command the document names.
    let greedy = format!("greedy={}", bin("greedy-bot"));
    let args = ["--bot", &greedy, "--games", "1", "--seed", "15", "--variant", "deal=five", "--variant", "max_hands=1"];
    let Some(real) = seat0_exchange("sample-bots/python/greedy.py", &args) else { return };
    assert_eq!(transcript, real, "{ALL_FIVES_PAGE}'s transcript differs from what the arena sends now");
}

#[test]
fn the_leduc_transcript_is_what_a_real_match_exchanges() {
    let transcript = transcript(&read(LEDUC_PAGE), "## A transcript of a Leduc game");
    assert!(transcript.len() > 15);
    let rules = format!("rules={} --play rules", bin("leduc-bot"));
    let args = ["--game", "leduc", "--bot", &rules, "--games", "1", "--seed", "1"];
    let Some(real) = seat0_exchange("sample-bots/python/leduc.py", &args) else { return };
    assert_eq!(transcript, real, "{LEDUC_PAGE}'s transcript differs from what the arena sends now");
}

/// PROTOCOL.md's transcript of a session is what the batching sample bot
/// exchanges in a real match: each line, its game taken out, a valid message.
#[test]
fn the_session_transcript_is_what_a_real_match_exchanges() {
    let doc = protocol_doc();
    let transcript = transcript_lines(&doc, "### A transcript of a session");
    assert!(transcript.len() > 8, "{transcript:?}");
    for line in &transcript {
        let json = &line.as_bytes()[2..];
        let untagged = match protocol::session::untag(json) {
            Ok((_, rest)) => rest,
            Err(_) => json.to_vec(),
        };
        let valid = if line.starts_with('>') { valid_to_bot(&untagged) } else { valid_from_bot(&untagged) };
        assert!(valid, "invalid transcript line: {line}");
    }
    if !optional_python_module(NUMPY) {
        return;
    }
    let rules = format!("rules={} --play rules", bin("leduc-bot"));
    let args = ["--game", "leduc", "--bot", &rules, "--games", "1", "--seed", "1"];
    let Some(real) = seat0_exchange("sample-bots/python/batched_leduc.py", &args) else { return };
    assert_eq!(transcript, real, "PROTOCOL.md's session transcript differs from what the arena sends now");
}

#[test]
fn the_engine_transcript_is_what_a_bot_of_an_engine_program_exchanges() {
    let doc = std::fs::read_to_string(repo_path("engines/ENGINES.md")).expect("ENGINES.md");
    let transcript = transcript_lines(&doc, "## What your bots see");
    assert!(transcript.len() > 12, "{transcript:?}");
    // Each line the arena writes is one of its messages or a view; each a bot writes, one of its answers.
    for line in &transcript {
        let json = &line.as_bytes()[2..];
        let valid = match line.starts_with('>') {
            true => serde_json::from_slice::<serde_json::Value>(json).is_ok_and(|message| message["type"].is_string()),
            false => protocol::line::decode::<protocol::messages::FromBot<serde_json::Value>>(json).is_ok(),
        };
        assert!(valid, "invalid transcript line: {line}");
    }
    // The command the document names.
    let engine = format!("{} {}", python(), repo_path("engines/connect-four/engine.py"));
    let other = format!("other={} {}", python(), repo_path("tests/bots/first_legal.py"));
    let variant = ["--variant", "rows=4", "--variant", "columns=4", "--variant", "connect=3"];
    let args = [&["--engine", &engine][..], &variant, &["--bot", &other, "--games", "1", "--seed", "3"]].concat();
    let Some(real) = seat0_exchange("sample-bots/python/connect_four.py", &args) else { return };
    assert_eq!(transcript, real, "ENGINES.md's bot-side transcript differs from what the arena sends now");
}

#[test]
fn the_minimal_bot_plays_a_match() {
    let doc = protocol_doc();
    let minimal = blocks(&doc, "python").into_iter().next().expect("a python block");
    let scratch = Scratch::new("minimal-bot");
    let path = scratch.join("minimal.py");
    std::fs::write(&path, minimal).unwrap();
    let out = scratch.join("out");
    let (minimal, random) = (format!("{} {path}", python()), bin("random-bot"));
    let flags = patient(&["--games", "4", "--out", &out]);
    arena_expect(&match_args(&scratch, &[("min", &minimal), ("r", &random)], &flags), 0);
    let standings = Standings::read(&out);
    assert_eq!(standings.bot("min").games, 4);
    assert_eq!(standings.bot("min").faults, 0);
}

/// The keys of a JSON object, sorted.
fn keys(value: &serde_json::Value) -> Vec<String> {
    let mut keys: Vec<String> = value.as_object().expect("an object").keys().cloned().collect();
    keys.sort();
    keys
}

#[test]
fn records_md_shows_the_fields_of_standings_json() {
    let doc = std::fs::read_to_string(repo_path("arena/RECORDS.md")).expect("RECORDS.md");
    let section = doc.split("## `standings.json`").nth(1).expect("the standings.json section");
    let example: serde_json::Value =
        serde_json::from_str(&blocks(section, "json")[0]).expect("the example is valid JSON");
    let scratch = Scratch::new("records-standings");
    let out = scratch.join("out");
    let (greedy, random) = (bin("greedy-bot"), bin("random-bot"));
    arena_expect(&match_args(&scratch, &[("g", &greedy), ("r", &random)], &["--games", "4", "--out", &out]), 0);
    // The document's keys against the file's: JSON as written, typed read checks the rest.
    let real: serde_json::Value = serde_json::to_value(Standings::read(&out)).unwrap();
    assert_eq!(keys(&example), keys(&real));
    for rank in 0..2 {
        assert_eq!(keys(&example["bots"][rank]), keys(&real["bots"][rank]), "bot {rank}");
    }
    assert_eq!(keys(&example["head_to_head"]["g"]["r"]), keys(&real["head_to_head"]["g"]["r"]));
    assert!(real["los"]["g"]["r"].is_f64() && example["los"]["g"]["r"].is_f64());
    for field in keys(&real["bots"][0]) {
        assert!(section.contains(&format!("`{field}`")), "RECORDS.md does not describe {field}");
    }
    assert!(section.contains("`weng_lin`"));
}

fn read(relative: &str) -> String {
    std::fs::read_to_string(repo_path(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"))
}

/// The lines of `doc` outside its fenced blocks, with their numbers (from 1).
fn prose(doc: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (n, line) in doc.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push((n + 1, line));
        }
    }
    lines
}

/// The anchor GitHub gives a heading: lower case, spaces as hyphens, every
/// character but letters, digits, `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    let lower = heading.trim().to_lowercase();
    let kept = lower.chars().filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '));
    kept.map(|c| if c == ' ' { '-' } else { c }).collect()
}

/// The anchors of the headings of `doc`, a repeated one numbered as GitHub numbers it.
fn anchors(doc: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    for (_, line) in prose(doc) {
        let Some(heading) = line.strip_prefix('#').map(|h| h.trim_start_matches('#')) else { continue };
        if !heading.starts_with(' ') {
            continue;
        }
        let base = anchor(heading);
        let count = seen.entry(base.clone()).or_default();
        anchors.insert(if *count == 0 { base.clone() } else { format!("{base}-{count}") });
        *count += 1;
    }
    anchors
}

/// The targets of the inline links and images of one line, code spans left out.
fn link_targets(line: &str) -> Vec<String> {
    let outside_code: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let mut targets = Vec::new();
    let mut rest = outside_code.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find(')').unwrap_or(rest.len());
        targets.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    targets
}

/// Every Markdown page of the repository (the build's output and hidden folders left out).
fn pages(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let (path, name) = (entry.path(), entry.file_name().to_string_lossy().into_owned());
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        if path.is_dir() {
            pages(&path, found);
        } else if name.ends_with(".md") {
            found.push(path);
        }
    }
}

#[test]
fn every_link_between_the_pages_resolves() {
    let mut all = Vec::new();
    pages(&root(), &mut all);
    let relative = |path: &Path| path.strip_prefix(root()).unwrap().to_string_lossy().into_owned();
    let names: Vec<String> = all.iter().map(|p| relative(p)).collect();
    for page in ["README.md", "docs/architecture.md", "docs/bots.md", "docs/leagues.md", "docs/sprt.md"] {
        assert!(names.iter().any(|n| n == page), "{page} is missing: {names:?}");
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &all {
        let doc = std::fs::read_to_string(page).unwrap();
        for (number, line) in prose(&doc) {
            for target in link_targets(line) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
                let linked = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
                let place = format!("{}:{number}: {target}", relative(page));
                if !linked.exists() {
                    broken.push(format!("{place}: no such file"));
                } else if !fragment.is_empty() && (file.is_empty() || file.ends_with(".md")) {
                    let linked_doc = std::fs::read_to_string(&linked).unwrap();
                    if !anchors(&linked_doc).contains(fragment) {
                        broken.push(format!("{place}: no such heading"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(checked >= 150, "only {checked} links found");
}

#[test]
fn the_readme_starts_with_the_quick_start_and_shows_every_command() {
    let readme = read("README.md");
    // The first screen of a terminal or a rendered page: the title, a
    // paragraph, and the two commands of the quick start.
    let first_screen: Vec<&str> = readme.lines().take(24).collect();
    for command in ["cargo build --release", "target/release/arena league"] {
        assert!(first_screen.iter().any(|l| l.starts_with(command)), "{command} is not on the first screen");
    }
    let (help, _) = arena_expect(&["--help"], 0);
    let commands = help.split("Commands:").nth(1).unwrap().split("\n\n").next().unwrap();
    let commands: Vec<&str> = commands.lines().filter_map(|l| l.split_whitespace().next()).collect();
    assert!(commands.len() >= 13, "{help}");
    for command in commands.into_iter().filter(|c| *c != "help") {
        let example = format!("target/release/arena {command} ");
        assert!(readme.contains(&example), "the README has no example of `arena {command}`");
        let heading = format!("**`arena {command}`**: ");
        let entry = readme.split(&heading).nth(1).unwrap_or_else(|| panic!("no entry for `arena {command}`"));
        let entry = entry.split("```").next().unwrap();
        assert!(entry.contains("](docs/") || entry.contains("](engines/"), "`arena {command}` links no page");
    }
}

/// The words of a shell command line, quotes removed, up to a comment.
fn shell_words(line: &str) -> Vec<String> {
    let (mut words, mut word, mut quote, mut started) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => (quote, started) = (Some(c), true),
            (None, '#') if !started => break,
            (None, c) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                }
                started = false;
            }
            (None, c) => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// Whether `help` names `flag` (a whole flag, not the start of a longer one).
fn names_flag(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(at, _)| {
        let next = help[at + flag.len()..].chars().next();
        !next.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

#[test]
fn every_flag_of_an_example_is_one_its_command_takes() {
    let mut helps: BTreeMap<String, String> = BTreeMap::new();
    let mut checked = 0;
    let mut wrong = Vec::new();
    let mut pages = vec!["README.md".to_string()];
    for entry in std::fs::read_dir(repo_path("docs")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            pages.push(format!("docs/{name}"));
        }
    }
    for page in &pages {
        let doc = read(page);
        for block in blocks(&doc, "sh") {
            for line in block.replace("\\\n", " ").lines() {
                let words = shell_words(line);
                let Some(at) = words.iter().position(|w| w == "target/release/arena") else { continue };
                let Some(command) = words.get(at + 1) else { continue };
                let help = helps.entry(command.clone()).or_insert_with(|| arena_expect(&[command, "--help"], 0).0);
                let flags = words[at + 2..].iter().take_while(|w| !matches!(w.as_str(), "|" | "&&" | ";"));
                for flag in flags.filter(|w| w.starts_with("--")) {
                    let flag = flag.split('=').next().unwrap();
                    checked += 1;
                    if !names_flag(help, flag) {
                        wrong.push(format!("{page}: `arena {command}` takes no {flag}: {line}"));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked >= 60, "only {checked} flags found");
}

/// Runs `arena play` with `input` on its stdin; returns (status, stdout).
fn play(args: &[&str], input: &str) -> (Option<i32>, String) {
    let mut command = arena_command(&[&["play"][..], args].concat());
    command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().expect("arena starts");
    // The arena may stop reading early: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let output = finish(child);
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn the_play_transcript_is_what_arena_play_prints() {
    let doc = read("docs/play.md");
    let section = doc.split("\n## A game\n").nth(1).expect("the section");
    let command = blocks(section, "sh").into_iter().next().expect("the command");
    let input = command.split('\'').nth(1).unwrap().replace("\\n", "\n");
    assert!(command.contains("--seed 63 --variant deal=five --variant max_hands=1\n"), "{command}");
    let transcript = blocks(section, "").into_iter().next().expect("the transcript block");
    let greedy = format!("greedy={}", bin("greedy-bot"));
    let args = ["--bot", &greedy, "--seed", "63", "--variant", "deal=five", "--variant", "max_hands=1"];
    let (status, stdout) = play(&args, &input);
    assert_eq!(status, Some(0), "{stdout}");
    // The commands it prints name the arena as it was run: here the test's
    // build, on the page `target/release/arena`.
    let stdout = stdout.replace(&bin("arena"), "target/release/arena");
    // Every line shown, in order (the page leaves some out: "…").
    let mut printed = stdout.lines();
    for line in transcript.lines().filter(|line| *line != "…") {
        assert!(printed.any(|p| p == line), "not printed (in this order): {line:?}\n{stdout}");
    }
}

/// `line` with every time in milliseconds (a number before "ms") as `N`:
/// what a check-bot transcript shows of a machine's speed.
fn without_times(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let timed = |at: usize| words.get(at + 1).is_some_and(|next| next.starts_with("ms"));
    let words: Vec<&str> = words
        .iter()
        .enumerate()
        .map(|(at, word)| if timed(at) && word.parse::<f64>().is_ok() { "N" } else { word })
        .collect();
    words.join(" ")
}

/// docs/bots.md's check-bot transcript is what `arena check-bot` prints for
/// the Python sample with that seed, but for the times it took.
#[test]
fn the_check_bot_transcript_is_what_check_bot_prints() {
    let doc = read("docs/bots.md");
    let section = doc.split("\n## Checking a bot: `arena check-bot`\n").nth(1).expect("the section");
    let command = blocks(section, "sh").into_iter().next().expect("the command");
    let shown = "python3 sample-bots/python/greedy.py";
    assert_eq!(command.trim(), format!("target/release/arena check-bot --seed 1 \"{shown}\""));
    let transcript = blocks(section, "").into_iter().next().expect("the transcript block");
    // Limits a busy machine keeps; the times are not compared.
    let args = ["check-bot", "--seed", "1", "--move-timeout", "5000", &python_greedy()];
    let stdout = arena_expect(&args, 0).0.replace(&python_greedy(), shown);
    // Every line shown, in order (the page leaves some out: "…").
    let mut printed = stdout.lines().map(without_times);
    for line in transcript.lines().filter(|line| line.trim() != "…") {
        let line = without_times(line);
        assert!(printed.any(|p| p == line), "not printed (in this order): {line:?}\n{stdout}");
    }
}

/// The default `help` (an `arena COMMAND --help`) states for `flag`: the
/// number after "default" in the flag's description (its own line, and the
/// lines indented below it: clap's "[default: N]" included).
fn help_default(help: &str, flag: &str) -> Option<String> {
    let lines: Vec<&str> = help.lines().collect();
    let at = lines.iter().position(|line| {
        let line = line.trim_start();
        line.starts_with(flag) && !line[flag.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '-')
    })?;
    let below = lines[at + 1..].iter().take_while(|line| line.trim().is_empty() || line.starts_with("          "));
    let text = std::iter::once(lines[at]).chain(below.copied()).collect::<Vec<_>>().join(" ");
    let after = text.split("default").nth(1)?;
    let number: String = after
        .trim_start_matches([' ', ':'])
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '_')
        .filter(char::is_ascii_digit)
        .collect();
    (!number.is_empty()).then_some(number)
}

/// Every "`--flag …` (default N)" of a page states the default its command's
/// `--help` states (which reads the one table of settings), so that a
/// default changed in the code cannot leave a page behind.
#[test]
fn every_default_a_page_states_is_the_one_its_command_has() {
    let pages = [
        ("docs/matches.md", "match"),
        ("docs/leagues.md", "league"),
        ("docs/sprt.md", "sprt"),
        ("docs/bots.md", "check-bot"),
        ("docs/play.md", "play"),
        ("docs/results.md", "report"),
    ];
    let (mut checked, mut wrong) = (0, Vec::new());
    for (page, command) in pages {
        let help = arena_expect(&[command, "--help"], 0).0;
        let text: String = prose(&read(page)).iter().map(|(_, line)| line.trim()).collect::<Vec<_>>().join(" ");
        for (at, _) in text.match_indices("`--") {
            let code = &text[at + 1..];
            let Some(end) = code.find('`') else { continue };
            let flag = code[..end].split([' ', '=']).next().unwrap();
            let after = &code[end + 1..];
            let Some(open) = after.find("(default ").filter(|&open| open <= 12) else { continue };
            let stated: String = after[open + "(default ".len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .filter(char::is_ascii_digit)
                .collect();
            if stated.is_empty() {
                continue;
            }
            checked += 1;
            match help_default(&help, flag) {
                Some(default) if default == stated => {}
                other => {
                    wrong.push(format!("{page}: {flag} (default {stated}), but `arena {command} --help`: {other:?}"))
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked >= 10, "only {checked} defaults found");
}
