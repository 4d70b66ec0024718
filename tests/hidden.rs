//! Hidden information, end to end: a spy bot records every line it receives,
//! in every player count and variant, and nothing in them reveals a tile of
//! another hand or of the boneyard — apart from its own draws, tiles once
//! played, and the hands revealed when a hand ends.

use all_fives::wire::{Tile, ToBot};
use e2e::*;
use serde_json::Value;
use std::collections::HashSet;

fn tile(value: &Value) -> Tile {
    [value[0].as_u64().unwrap() as u8, value[1].as_u64().unwrap() as u8]
}

fn tiles(value: &Value) -> Vec<Tile> {
    value.as_array().unwrap().iter().map(tile).collect()
}

/// Checks one spy process's messages against the games' records.
fn check_spy(messages: &[ToBot], records: &[Record]) -> usize {
    let ToBot::Hello(hello) = &messages[0] else { panic!("hello first") };
    let seat = hello.seat;
    let mut record: Option<&Record> = None;
    let mut known: HashSet<Tile> = HashSet::new();
    let mut own_draws: Vec<Vec<Tile>> = Vec::new();
    let mut checked = 0;
    for message in messages {
        match message {
            ToBot::GameStart(start) => record = records.iter().find(|r| r.told_id() == start.id),
            ToBot::HandStart(start) => {
                let events = &record.expect("a game").events;
                let hand = start.hand as u64;
                let dealt = events.iter().find(|e| e["type"] == "hand_start" && e["hand"] == hand).unwrap();
                assert_eq!(start.tiles, tiles(&dealt["hands"][seat]), "hand_start shows exactly the seat's own tiles");
                known = start.tiles.iter().copied().collect();
                let mut in_hand = false;
                own_draws = Vec::new();
                for event in events {
                    if event["type"] == "hand_start" {
                        in_hand = event["hand"] == hand;
                    } else if in_hand && event["type"] == "draw" && event["seat"] == seat {
                        own_draws.push(tiles(&event["tiles"]));
                    }
                }
                own_draws.reverse();
            }
            ToBot::Play(play) => {
                known.insert(play.tile);
            }
            ToBot::Draw(draw) if draw.seat == seat => {
                let drawn = draw.tiles.clone().expect("the drawer is told his tiles");
                assert_eq!(Some(drawn.clone()), own_draws.pop(), "the seat's draws, in order");
                known.extend(drawn);
            }
            ToBot::Draw(draw) => assert!(draw.tiles.is_none(), "another seat's draw shows its tiles: {draw:?}"),
            ToBot::Turn(turn) => {
                for t in turn.state.hand.iter().chain(turn.legal.iter().map(|c| &c.tile)) {
                    assert!(known.contains(t), "turn {} shows {t:?}, which the seat cannot know", turn.id);
                }
                checked += 1;
            }
            _ => {}
        }
    }
    checked
}

#[test]
fn a_spy_learns_nothing_it_should_not_in_any_variant() {
    let variants: &[(&str, &[&str])] = &[
        ("two", &["--players", "2"]),
        ("three", &["--players", "3"]),
        ("partners", &["--players", "4"]),
        ("four", &["--players", "4", "--variant", "partners=false"]),
        ("keep2", &["--variant", "deal=five", "--variant", "boneyard_keep=2", "--variant", "hand_end=winner-takes"]),
        ("keep1", &["--players", "3", "--variant", "deal=seven-five", "--variant", "boneyard_keep=1"]),
    ];
    for (name, flags) in variants {
        let scratch = Scratch::new(&format!("spy-{name}"));
        let logs = scratch.path().join("logs");
        std::fs::create_dir_all(&logs).unwrap();
        let out = scratch.join("out");
        let spy = format!("{} {} {}", python(), repo_path("tests/bots/recorder.py"), logs.display());
        let (random, greedy) = (bin("random-bot"), bin("greedy-bot"));
        let polite = format!("{} {}", python(), repo_path("tests/bots/first_legal.py"));
        let all = [("spy", spy.as_str()), ("r", random.as_str()), ("g", greedy.as_str()), ("f", polite.as_str())];
        let sides = match *name {
            "three" | "keep1" => 3,
            "four" => 4,
            _ => 2,
        };
        // (Limits no busy machine reaches: a spy cut short would not see what the record holds.)
        let mut extra = patient(&["--games", "4", "--seed", "12", "--out", &out]);
        extra.extend_from_slice(flags);
        arena_expect(&match_args(&scratch, &all[..sides], &extra), 0);
        let records = records(&out);
        let processes = recorded(&logs);
        assert!(!processes.is_empty(), "{name}: the spy recorded nothing");
        let turns: usize = processes.iter().map(|messages| check_spy(messages, &records)).sum();
        assert!(turns > 10, "{name}: only {turns} turns checked");
    }
}
