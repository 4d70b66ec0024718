//! Invariants of the Leduc engine, checked through its public API while a
//! game is played from arbitrary bytes.
//!
//! Shared by the cargo-fuzz target `leduc` in `fuzz/` at the repository
//! root, the regression tests that replay what it found
//! (`fuzz/regressions/leduc/`), and the property tests. Every function here
//! panics when an invariant breaks: that panic is the finding.

use super::{BET_SIZES, Deal, Event, Leduc, MAX_ACTIONS, RAISE_CAP, cards};
use crate::wire::{Action, Card, HandOver, Move, Variant};
use game::Game;
use game::fuzz_input::Input;

/// Plays one game whose player count (2–4) and seed come from `data`, then
/// its moves (an index one past the legal moves is tried and must be
/// refused), checking every invariant after every step; then sets up a game
/// from a deal read from `data`, which must be refused exactly when it is
/// invalid. Input that runs out reads as zeros.
///
/// # Panics
/// When an invariant of the engine breaks.
pub fn check(data: &[u8]) {
    let mut input = Input::new(data);
    let players = 2 + input.below(3);
    let seed = input.u64();
    let mut game = Leduc::new(&Variant { players }, seed);
    let mut picks = Vec::new();
    while game.to_act().is_some() {
        let legal = game.legal_count();
        let pick = input.below(legal + 1);
        if pick == legal {
            let before = game.events();
            assert!(game.play(pick).is_err(), "index {pick} of {legal} legal moves was accepted");
            assert_eq!(game.events(), before, "a refused move changed the record");
        }
        let index = pick.min(legal - 1);
        picks.push(index);
        play_checked(&mut game, index);
    }
    check_over(&game);
    let again = replay(players, seed, &picks);
    assert_eq!(again.events(), game.events(), "the same seed and moves gave another game");
    check_setup(&mut input);
}

/// Plays `picks` (each a legal index) from the deal of `seed`.
fn replay(players: usize, seed: u64, picks: &[usize]) -> Leduc {
    let mut game = Leduc::new(&Variant { players }, seed);
    for &pick in picks {
        game.play(pick).expect("a legal index");
    }
    game
}

/// Checks the position, then plays legal move `index`.
pub(super) fn play_checked(game: &mut Leduc, index: usize) {
    let seat = game.to_act().expect("a seat to act");
    check_position(game, seat);
    game.play(index).expect("a legal index");
    assert!(game.event_count() <= MAX_ACTIONS + 3, "more events than a game can hold");
}

/// Every listed choice is legal, can be named by value, and costs what the
/// state says; fold is listed exactly when chips are owed, raise exactly
/// below the cap; nothing else is accepted.
pub(super) fn check_position(game: &Leduc, seat: usize) {
    let state = game.state(seat);
    let choices = game.choices();
    assert_eq!(choices.len(), game.legal_count());
    assert_eq!(state.pot, state.put_in.iter().sum::<u32>());
    assert_eq!(state.bet, BET_SIZES[usize::from(state.round) - 1]);
    assert_eq!(state.public.is_some(), state.round == 2, "the public card is shown exactly in round 2");
    assert!(!state.folded[seat], "a folded seat is asked to act");
    for (index, choice) in choices.iter().enumerate() {
        assert_eq!(game.find_move(&Move { action: choice.action }), Some(index));
        let expected = match choice.action {
            Action::Fold => 0,
            Action::Call => state.owed,
            Action::Raise => state.owed + state.bet,
        };
        assert_eq!(choice.chips, expected);
        let mut next = game.clone();
        next.play(index).expect("a listed choice is legal");
        assert_eq!(next.event_count(), next.events().len());
    }
    let has = |action| choices.iter().any(|c| c.action == action);
    assert_eq!(has(Action::Fold), state.owed > 0, "fold is legal exactly when chips are owed");
    assert_eq!(has(Action::Raise), state.raises < RAISE_CAP, "raise is legal exactly below the cap");
    assert!(has(Action::Call));
    for at_fault in 0..state.put_in.len() {
        let scores = game.forfeit_scores(&[at_fault]);
        assert_eq!(scores.iter().sum::<i64>(), 0, "a forfeit's payoffs sum to 0");
        assert_eq!(scores[at_fault], -i64::from(state.put_in[at_fault]), "a seat at fault loses what it put in");
    }
    for action in [Action::Fold, Action::Raise] {
        assert!(has(action) || game.why_illegal(&Move { action }).is_some(), "{action:?} is refused without a reason");
    }
}

/// The end of a game: payoffs sum to 0 and rank the seats, the pot is paid
/// out whole, the record is consistent and replays, and no seat was told
/// another's card before the showdown.
pub(super) fn check_over(game: &Leduc) {
    let scores = game.scores();
    assert_eq!(scores.iter().sum::<i64>(), 0, "payoffs sum to 0");
    let outcome = game.outcome().expect("over");
    for (seat, &rank) in outcome.ranks.iter().enumerate() {
        assert_eq!(rank as usize, scores.iter().filter(|&&s| s > scores[seat]).count());
    }
    let events = game.events();
    assert_eq!(events.len(), game.event_count());
    let Some(Event::HandEnd(end)) = events.last() else { panic!("a game over ends with hand_end") };
    assert_eq!(end.won.iter().sum::<u32>(), end.pot, "the pot is paid out whole");
    assert_eq!(end.payoffs, scores);
    assert!(scores.iter().all(|&s| s >= -13), "nobody puts in more than 1 + 4 + 8");
    let variant = Variant { players: scores.len() };
    let mut again = Leduc::from_setup(&variant, &Leduc::recorded_setup(&events)).expect("the recorded deal plays");
    for event in &events {
        if let Some((seat, named)) = Leduc::decision(event) {
            assert_eq!(again.to_act(), Some(seat));
            again.play(again.find_move(&named).expect("a recorded move is legal")).expect("legal");
        }
    }
    assert_eq!(again.events(), events, "the record replays");
    check_views(game, &events);
}

/// No view before the end of the hand names another seat's card, and the
/// end shows only the cards of the seats at a showdown.
fn check_views(game: &Leduc, events: &[Event]) {
    let deal = game.deal();
    let players = deal.cards.len();
    let folded = game.state(0).folded;
    for seat in 0..players {
        let others: Vec<String> =
            (0..players).filter(|&s| s != seat).map(|s| format!("\"{}\"", deal.cards[s].name())).collect();
        for event in events {
            let view = game.view(event, seat).expect("every seat is told every event");
            let text = serde_json::to_string(&view).expect("views serialize");
            match event {
                Event::HandEnd(end) => {
                    for (s, shown) in end.shown.iter().enumerate() {
                        let showing = end.reason == HandOver::Showdown && !folded[s];
                        assert_eq!(shown.is_some(), showing, "seat {s}'s card shown: {text}");
                    }
                }
                _ => assert!(!others.iter().any(|card| text.contains(card.as_str())), "seat {seat} told {text}"),
            }
        }
        let state = serde_json::to_string(&game.state(seat)).expect("states serialize");
        assert!(!others.iter().any(|card| state.contains(card.as_str())), "seat {seat}'s state tells {state}");
    }
}

/// A deal read from the input (possibly invalid) must be refused exactly
/// when it is not one card per seat and a public card, all different and all
/// from the deck; a valid one plays from seat 0.
fn check_setup(input: &mut Input) {
    let players = 2 + input.below(3);
    let count = players - 1 + input.below(3);
    let deal = Deal {
        cards: (0..count).map(|_| Card::ALL[input.below(Card::ALL.len())]).collect(),
        public: Card::ALL[input.below(Card::ALL.len())],
    };
    let all: Vec<Card> = deal.cards.iter().copied().chain([deal.public]).collect();
    let valid = count == players
        && all.iter().all(|card| cards::deck(players).contains(card))
        && (0..all.len()).all(|i| !all[..i].contains(&all[i]));
    match Leduc::from_setup(&Variant { players }, &deal) {
        Ok(game) => {
            assert!(valid, "an invalid deal was accepted: {deal:?}");
            assert_eq!((game.to_act(), game.deal()), (Some(0), deal));
        }
        Err(reason) => assert!(!valid && !reason.is_empty(), "a valid deal was refused: {deal:?}: {reason}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_short_inputs_play_whole_games() {
        check(&[]);
        check(&[2, 1, 0, 1, 1, 0, 200, 7, 3, 3, 3]);
        check(&[1; 64]);
    }
}
