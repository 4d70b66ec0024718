//! The documents show what the code does: every JSON example in PROTOCOL.md
//! is a valid message, its transcript is what a real match sends and
//! receives, and its minimal bot plays.

use e2e::*;
use protocol::all_fives::{FromBot, ToBot};

fn protocol_doc() -> String {
    std::fs::read_to_string(repo_path("protocol/PROTOCOL.md")).expect("PROTOCOL.md")
}

/// The contents of the fenced blocks of `doc` whose info string is `lang`.
fn blocks(doc: &str, lang: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in doc.lines() {
        match (&mut current, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) if info.trim() == lang => current = Some(String::new()),
            (Some(_), Some(_)) => blocks.push(current.take().unwrap()),
            (Some(text), None) => {
                text.push_str(line);
                text.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

#[test]
fn every_json_example_is_a_valid_message() {
    let doc = protocol_doc();
    let mut checked = 0;
    for block in blocks(&doc, "json") {
        for line in block.lines().filter(|l| !l.trim().is_empty()) {
            let to_bot = protocol::line::decode::<ToBot>(line.as_bytes());
            let from_bot = protocol::line::decode::<FromBot>(line.as_bytes());
            assert!(to_bot.is_ok() || from_bot.is_ok(), "not a valid message: {line}\n{to_bot:?}\n{from_bot:?}");
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} examples found");
}

#[test]
fn the_transcript_is_what_a_real_match_exchanges() {
    let doc = protocol_doc();
    let transcript: Vec<&str> = doc
        .split("## A transcript of a short hand")
        .nth(1)
        .expect("transcript section")
        .split("\n## ")
        .next()
        .unwrap()
        .lines()
        .filter(|line| line.starts_with("> ") || line.starts_with("< "))
        .collect();
    assert!(transcript.len() > 20);
    for line in &transcript {
        let json = &line.as_bytes()[2..];
        let valid = if line.starts_with('>') {
            protocol::line::decode::<ToBot>(json).is_ok()
        } else {
            protocol::line::decode::<FromBot>(json).is_ok()
        };
        assert!(valid, "invalid transcript line: {line}");
    }

    // The command the document names, with the seat-0 bot wrapped in a logger.
    let scratch = Scratch::new("transcript-doc");
    let tee = format!(
        "python3 {} {} python3 {}",
        repo_path("tests/bots/tee.py"),
        scratch.marker(),
        repo_path("sample-bots/python/greedy.py")
    );
    arena_expect(
        &[
            "match",
            "--bot",
            &format!("me={tee}"),
            "--bot",
            &format!("greedy={}", bin("greedy-bot")),
            "--games",
            "1",
            "--seed",
            "15",
            "--variant",
            "deal=five",
            "--variant",
            "max_hands=1",
        ],
        0,
    );
    let logs: Vec<String> = std::fs::read_dir(scratch.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".log"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    let seat0 = logs.iter().find(|log| log.contains("\"seat\":0,\"seats\"")).expect("the seat-0 process's log");
    let real: Vec<&str> = seat0.lines().collect();
    assert_eq!(transcript, real, "PROTOCOL.md's transcript differs from what the arena sends now");
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
    arena_expect(&match_args(&scratch, &[("min", &minimal), ("r", &random)], &["--games", "4", "--out", &out]), 0);
    let standings = standings(&out);
    assert_eq!(standing(&standings, "min")["games"], 4);
    assert_eq!(standing(&standings, "min")["faults"], 0);
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
    let real = standings(&out);
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
