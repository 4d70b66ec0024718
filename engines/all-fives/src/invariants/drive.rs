//! Playing a game to its end with moves chosen by the input, checking the
//! position through the public API after every step.

use super::ledger::Ledger;
use crate::wire::{self, Choice, Move, State, Variant};
use crate::{AllFives, Event};
use game::fuzz_input::Input;
use game::{Game, IllegalMove, Outcome};

/// Everything the public API shows of a game, to check that a refused move
/// changed nothing.
#[derive(Debug, PartialEq)]
struct Snapshot {
    to_act: Option<usize>,
    choices: Vec<Choice>,
    events: Vec<Event>,
    scores: Vec<i64>,
    outcome: Option<Outcome>,
    states: Vec<State>,
}

impl Snapshot {
    fn of(game: &AllFives, players: usize) -> Self {
        Snapshot {
            to_act: game.to_act(),
            choices: game.choices(),
            events: game.events(),
            scores: game.scores(),
            outcome: game.outcome(),
            states: (0..players).map(|seat| game.state(seat)).collect(),
        }
    }
}

/// A byte at or above this names an index past the end of the legal moves.
const OUT_OF_RANGE: u8 = 0xF8;

/// Plays `game` to its end: each input byte picks a legal move by index
/// (modulo their number), except that bytes from [`OUT_OF_RANGE`] name an
/// index past the end, which must be refused and change nothing. At most
/// `last_hand` hands may be played. Returns the ledger of the whole game.
pub(super) fn play_out(game: &mut AllFives, variant: &Variant, last_hand: u32, input: &mut Input) -> Ledger {
    let players = variant.players;
    assert_eq!(AllFives::seats(variant), players);
    assert_eq!(AllFives::teams(variant), variant.teams());
    let mut ledger = Ledger::new(variant);
    let mut plays = 0usize;
    loop {
        let viewed = ledger.applied;
        let events = game.events();
        ledger.catch_up(&events);
        check_views(game, &events[viewed..], players);
        check_position(game, &ledger, variant, last_hand);
        let Some(seat) = game.to_act() else {
            refuse(game, 0, players);
            return ledger;
        };
        let choices = game.choices();
        let byte = input.byte();
        if byte >= OUT_OF_RANGE {
            let index = if byte == u8::MAX { usize::MAX } else { choices.len() + usize::from(byte - OUT_OF_RANGE) };
            refuse(game, index, players);
            continue;
        }
        let index = usize::from(byte) % choices.len();
        let before = game.event_count();
        game.play(index).unwrap_or_else(|e| panic!("listed move {index} refused: {e:?}"));
        let chosen = &choices[index];
        match game.events_since(before).first() {
            Some(Event::Play(play)) => {
                let made = (play.seat, play.tile, play.end, play.points);
                assert_eq!(made, (seat, chosen.tile, chosen.end, chosen.points), "the first event is the move");
            }
            other => panic!("the first event after a move is {other:?}, not the move"),
        }
        plays += 1;
        assert!(plays <= last_hand as usize * 28, "{plays} plays in at most {last_hand} hands: the game does not end");
    }
}

/// Plays `index`, which must be refused without changing anything.
fn refuse(game: &mut AllFives, index: usize, players: usize) {
    let before = Snapshot::of(game, players);
    let legal = before.choices.len();
    assert_eq!(game.play(index), Err(IllegalMove { index, legal }), "move {index} of {legal}");
    assert!(Snapshot::of(game, players) == before, "a refused move {index} changed the game");
}

/// What each seat is told of `events`: its own tiles only.
fn check_views(game: &AllFives, events: &[Event], players: usize) {
    for event in events {
        for seat in 0..players {
            let view = game.view(event, seat);
            match (event, view) {
                (Event::HandStart(dealt), Some(wire::Event::HandStart(told))) => {
                    assert_eq!(told.tiles, dealt.hands[seat], "seat {seat} is told its own tiles");
                    assert_eq!(told.hand_sizes, dealt.hands.iter().map(Vec::len).collect::<Vec<_>>());
                    assert_eq!(
                        (told.hand, told.leader, told.boneyard),
                        (dealt.hand, dealt.leader, dealt.boneyard.len())
                    );
                    assert_eq!(told.scores, dealt.scores);
                }
                (Event::Draw(draw), Some(wire::Event::Draw(told))) => {
                    assert_eq!((told.seat, told.count), (draw.seat, draw.count));
                    let tiles = if draw.seat == seat { draw.tiles.clone() } else { None };
                    assert_eq!(told.tiles, tiles, "only the drawer sees the tiles drawn");
                }
                (Event::Play(play), Some(wire::Event::Play(told))) => assert_eq!(&told, play),
                (Event::Pass(pass), Some(wire::Event::Pass(told))) => assert_eq!(&told, pass),
                (Event::HandEnd(end), Some(wire::Event::HandEnd(told))) => assert_eq!(&told, end),
                (event, view) => panic!("seat {seat} is told {view:?} of {event:?}"),
            }
        }
    }
}

/// Checks what the public API shows now against the ledger.
fn check_position(game: &AllFives, ledger: &Ledger, variant: &Variant, last_hand: u32) {
    let players = variant.players;
    let outcome = game.outcome();
    assert_eq!(game.to_act().is_some(), outcome.is_none(), "to_act is Some exactly while the game is not over");
    assert!(ledger.hand >= 1 && ledger.hand <= last_hand, "hand {} of at most {last_hand}", ledger.hand);
    let scores = game.scores();
    assert_eq!(scores, ledger.scores, "scores() is what the events say");
    let sizes: Vec<usize> = ledger.hands.iter().map(Vec::len).collect();
    for seat in 0..players {
        let state = game.state(seat);
        assert_eq!(state.hand, ledger.hands[seat], "seat {seat}'s tiles");
        assert_eq!(state.hand_sizes, sizes);
        assert_eq!(state.scores, scores);
        assert_eq!(state.hand_number, ledger.hand);
        assert_eq!(state.boneyard, ledger.boneyard.len());
        assert_eq!(state.drawable, ledger.boneyard.len().saturating_sub(variant.boneyard_keep));
        assert_eq!(state.ends.is_empty(), ledger.played.is_empty(), "open ends {:?}", state.ends);
        assert!(state.ends.windows(2).all(|w| w[0].id < w[1].id), "ends by increasing id: {:?}", state.ends);
        assert!(state.ends.iter().all(|e| e.id < 4 && e.pips <= 6), "{:?}", state.ends);
    }
    match (game.to_act(), outcome) {
        (Some(seat), _) => {
            assert!(seat < players, "seat {seat} to act");
            assert!(ledger.open, "a seat acts outside a hand");
            check_choices(game, ledger, seat);
        }
        (None, Some(outcome)) => check_outcome(game, ledger, variant, last_hand, &outcome),
        (None, None) => unreachable!("checked above"),
    }
}

/// Checks the legal moves of `seat`, the seat to act.
fn check_choices(game: &AllFives, ledger: &Ledger, seat: usize) {
    let choices = game.choices();
    assert!(!choices.is_empty(), "seat {seat} is to act without a legal move");
    let hand = &ledger.hands[seat];
    let ends = game.state(seat).ends;
    for (index, choice) in choices.iter().enumerate() {
        assert!(hand.contains(&choice.tile), "{choice:?} is not in {hand:?}");
        assert_eq!(choice.points % 5, 0, "{choice:?} scores a multiple of five");
        match choice.end {
            None => assert!(ledger.played.is_empty(), "{choice:?} without an end after the lead"),
            Some(id) => {
                let end = ends.iter().find(|e| e.id == id);
                let end = end.unwrap_or_else(|| panic!("{choice:?} is on an end that is not open: {ends:?}"));
                assert!(choice.tile.contains(&end.pips), "{choice:?} does not match {end:?}");
            }
        }
        let [a, b] = choice.tile;
        for tile in [[a, b], [b, a]] {
            assert_eq!(game.find_move(&Move { tile, end: choice.end }), Some(index), "find_move of {choice:?}");
        }
    }
    if ledger.played.is_empty() {
        let leads: Vec<_> = choices.iter().map(|c| c.tile).collect();
        assert_eq!(&leads, hand, "any tile in hand may lead");
    }
    // Tiles elsewhere cannot be played (two of them, to keep the check cheap).
    for &tile in ledger.played.last().into_iter().chain(ledger.boneyard.front()) {
        for end in [None, Some(0), Some(1), Some(2), Some(3)] {
            assert_eq!(game.find_move(&Move { tile, end }), None, "{tile:?} is not in seat {seat}'s hand");
        }
    }
}

/// Checks a finished game: its reason, its ranks, and that nothing is left to play.
fn check_outcome(game: &AllFives, ledger: &Ledger, variant: &Variant, last_hand: u32, outcome: &Outcome) {
    assert!(game.choices().is_empty(), "no moves in a finished game");
    assert!(!ledger.open, "the game ended inside hand {}", ledger.hand);
    let scores = game.scores();
    let reached = scores.iter().any(|&s| s >= variant.target);
    match outcome.reason {
        "target" => assert!(reached, "ended by the target at {scores:?} < {}", variant.target),
        "max_hands" => {
            assert!(!reached, "the target {} was reached at {scores:?}", variant.target);
            assert_eq!(ledger.hand, last_hand, "ended by max_hands after hand {}", ledger.hand);
        }
        other => panic!("unknown reason {other:?}"),
    }
    let teams = variant.teams();
    let side_scores: Vec<i64> = teams.iter().map(|seats| scores[seats[0]]).collect();
    let mut ranks = vec![0; variant.players];
    for (side, seats) in teams.iter().enumerate() {
        for &seat in seats {
            assert_eq!(scores[seat], side_scores[side], "partners share a score");
            ranks[seat] = side_scores.iter().filter(|&&s| s > side_scores[side]).count() as u32;
        }
    }
    assert_eq!(outcome.ranks, ranks, "ranks at {scores:?}");
}
