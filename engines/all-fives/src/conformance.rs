//! The positions and tables `arena check-bot` tries a bot on: the places in
//! RULES.md where bots commonly go wrong, each set up from hand-built deals
//! (or, for positions that only need some history, by playing the first
//! legal move from a seeded deal) up to the bot's decision.

use super::{AllFives, Deal, Variant};
use crate::wire::{Move, Tile};
use game::{Game, Position};

/// A variant from `KEY=VALUE` pairs that are known to be valid.
fn variant(pairs: &[(&str, &str)]) -> Variant {
    let settings: Vec<(String, String)> = pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect();
    AllFives::parse_variant(&settings).expect("a valid built-in variant")
}

/// A two-player game of five tiles each, from `hands` (the boneyard starting
/// with `front`), `leader` leading, after `plays` (tile and end, by value).
fn scripted(hands: [&[Tile]; 2], front: &[Tile], leader: usize, plays: &[(Tile, Option<u8>)]) -> (Variant, AllFives) {
    let variant = variant(&[("deal", "five")]);
    let deal = Deal::stacked(&hands, front, leader);
    let mut game = AllFives::from_deals(&variant, vec![deal]).expect("a valid built-in deal");
    for &(tile, end) in plays {
        let index = game.find_move(&Move { tile, end }).expect("a legal built-in play");
        game.play(index).expect("a legal built-in play");
    }
    (variant, game)
}

/// A seeded game of `variant`, played with the first legal move until `stop` holds.
fn played_until(variant: Variant, seed: u64, stop: impl Fn(&AllFives) -> bool) -> (Variant, AllFives) {
    let mut game = AllFives::new(&variant, seed);
    while !stop(&game) {
        game.play(0).expect("the game is not over before the position is reached");
    }
    (variant, game)
}

/// Whether a pass has happened in the hand being played.
fn passed_this_hand(game: &AllFives) -> bool {
    use super::Event;
    let events = game.events();
    let start = events.iter().rposition(|e| matches!(e, Event::HandStart(_))).unwrap_or(0);
    events[start..].iter().any(|e| matches!(e, Event::Pass(_)))
}

fn position(name: &'static str, expect: &'static str, (variant, game): (Variant, AllFives)) -> Position<AllFives> {
    Position { name, expect, variant, game }
}

/// Seat 0 starts with the spinner lead `[5,5]`; seat 1 answers with 5s.
const SPINNER_HANDS: [&[Tile]; 2] =
    [&[[5, 5], [2, 5], [5, 6], [1, 1], [0, 0]], &[[3, 5], [0, 5], [1, 4], [4, 6], [1, 6]]];

/// The positions, in the order of the checklist.
pub fn positions() -> Vec<Position<AllFives>> {
    vec![
        position(
            "lead",
            "lead any tile: the layout is empty, so `end` is null (seat 1 leads here)",
            scripted(
                [&[[0, 0], [0, 1], [1, 1], [0, 2], [1, 2]], &[[0, 5], [2, 3], [3, 6], [4, 4], [2, 2]]],
                &[],
                1,
                &[],
            ),
        ),
        position(
            "spinner-lead",
            "the lead [5,5] is the spinner: its long sides, ends 0 and 1, both show 5; its short ends are not open",
            scripted(SPINNER_HANDS, &[], 0, &[([5, 5], None)]),
        ),
        position(
            "spinner-sides",
            "one long side of the spinner [5,5] is covered: a 5 goes on its other side, end 1; ends 2 and 3 are not open yet",
            scripted(SPINNER_HANDS, &[], 0, &[([5, 5], None), ([3, 5], Some(0))]),
        ),
        position(
            "spinner-ends",
            "both long sides of the spinner are covered, so its short ends 2 and 3 are open: [0,5] goes on one of them",
            scripted(SPINNER_HANDS, &[], 0, &[([5, 5], None), ([3, 5], Some(0)), ([2, 5], Some(1))]),
        ),
        position(
            "equal-ends",
            "ends 0 and 1 both show 2: [2,3] fits either, and a move by value must name one by its id",
            scripted(
                [&[[2, 4], [2, 6], [0, 0], [0, 1], [1, 1]], &[[4, 6], [2, 3], [3, 5], [0, 3], [1, 3]]],
                &[],
                0,
                &[([2, 4], None), ([4, 6], Some(1)), ([2, 6], Some(1))],
            ),
        ),
        position(
            "double-at-end",
            "[6,6] at end 0 is a plain double (not the spinner): it shows 6 and counts 12; [3,3] may go on end 1",
            scripted(
                [&[[2, 2], [2, 3], [3, 3], [0, 6], [1, 4]], &[[2, 6], [6, 6], [4, 5], [0, 1], [1, 5]]],
                &[],
                0,
                &[([2, 2], None), ([2, 6], Some(0)), ([2, 3], Some(1)), ([6, 6], Some(0))],
            ),
        ),
        position(
            "forced-draw",
            "seat 1 could not play and drew three tiles (listed in its draw event): it must play the last, [3,6], on end 1",
            scripted(
                [&[[2, 6], [0, 0], [0, 1], [0, 2], [0, 3]], &[[1, 1], [1, 3], [1, 4], [1, 5], [3, 3]]],
                &[[4, 4], [0, 4], [3, 6]],
                0,
                &[([2, 6], None)],
            ),
        ),
        position(
            "next-hand",
            "hand 1 has ended (hand_end) and hand 2 is dealt (hand_start): play from the new hand, in a 3-player game",
            played_until(variant(&[("players", "3")]), 5, |g| g.hand_number() == 2),
        ),
        position(
            "after-pass",
            "a seat passed (pass) with the boneyard empty, in a 4-player game without partners: play on",
            played_until(variant(&[("players", "4"), ("partners", "false")]), 60, passed_this_hand),
        ),
        position(
            "partners",
            "a partnership game (seats 0 and 2 against 1 and 3), seat 3 to play: scores are per team, listed per seat",
            played_until(variant(&[("players", "4")]), 2, |g| g.to_act() == Some(3) && g.event_count() > 4),
        ),
    ]
}

/// The variants whole games are played in: every player count, with and
/// without partners, each with the rules a match has by default, so that a
/// bot is checked as it will play (and cannot tell the check from a match).
pub fn tables() -> Vec<(&'static str, Variant)> {
    let table = |players: &str, partners: &str| variant(&[("players", players), ("partners", partners)]);
    vec![
        ("2-players", table("2", "false")),
        ("3-players", table("3", "false")),
        ("4-partners", table("4", "true")),
        ("4-players", table("4", "false")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The legal moves of a position as (tile, end).
    fn legal(game: &AllFives) -> Vec<(Tile, Option<u8>)> {
        game.choices().iter().map(|c| (c.tile, c.end)).collect()
    }

    #[test]
    fn every_position_is_a_decision_as_described() {
        let positions = positions();
        let by_name = |name: &str| &positions.iter().find(|p| p.name == name).unwrap().game;
        for position in &positions {
            assert!(position.game.to_act().is_some(), "{}", position.name);
        }
        assert_eq!(by_name("lead").to_act(), Some(1));
        assert!(legal(by_name("lead")).iter().all(|(_, end)| end.is_none()));
        assert_eq!(
            legal(by_name("spinner-lead")),
            [([0, 5], Some(0)), ([0, 5], Some(1)), ([3, 5], Some(0)), ([3, 5], Some(1))]
        );
        assert_eq!(legal(by_name("spinner-sides")), [([2, 5], Some(1)), ([5, 6], Some(1))]);
        assert_eq!(legal(by_name("spinner-ends")), [([0, 5], Some(2)), ([0, 5], Some(3))]);
        assert_eq!(legal(by_name("equal-ends")), [([2, 3], Some(0)), ([2, 3], Some(1))]);
        assert_eq!(legal(by_name("double-at-end")), [([0, 6], Some(0)), ([3, 3], Some(1))]);
        assert_eq!(legal(by_name("forced-draw")), [([3, 6], Some(1))]);
        assert_eq!(by_name("next-hand").hand_number(), 2);
        assert!(passed_this_hand(by_name("after-pass")) && by_name("after-pass").hand_number() == 1);
        assert_eq!(by_name("partners").to_act(), Some(3));
    }

    #[test]
    fn the_tables_cover_every_player_count() {
        let seats: Vec<usize> = tables().iter().map(|(_, v)| v.players).collect();
        assert_eq!(seats, [2, 3, 4, 4]);
    }
}
