//! Leduc Hold'em as text, for a person who plays a seat in a terminal
//! (`arena play`): the seat's card, the public card, the pot and each seat's
//! chips in, the legal moves numbered from 1, and one line per event the
//! seat is told. Everything shown comes from what the seat may see.

use super::Leduc;
use crate::wire::{self, Action, HandOver};
use game::Game;

/// Seat `seat` as `seat 1 (greedy)` (the player's own seat is named `you` by `arena play`).
fn name(names: &[String], seat: usize) -> String {
    match names.get(seat) {
        Some(name) => format!("seat {seat} ({name})"),
        None => format!("seat {seat}"),
    }
}

/// An action as a person says it: `check` for a call of nothing.
fn said(action: Action, chips: u32) -> String {
    match (action, chips) {
        (Action::Fold, _) => "fold".to_string(),
        (Action::Call, 0) => "check".to_string(),
        (Action::Call, chips) => format!("call {chips}"),
        (Action::Raise, chips) => format!("raise (put in {chips})"),
    }
}

/// The position and the numbered moves of `seat`, who is to act.
pub(super) fn turn(game: &Leduc, seat: usize, names: &[String]) -> String {
    let state = game.state(seat);
    let public = state.public.map_or("not shown yet".to_string(), |card| card.name().to_string());
    let mut text = format!(
        "round {} (bet size {}), pot {}; your card {}, public card {public}\n",
        state.round,
        state.bet,
        state.pot,
        state.card.name()
    );
    for (s, put_in) in state.put_in.iter().enumerate() {
        let folded = if state.folded[s] { ", folded" } else { "" };
        text.push_str(&format!("  {}: in for {put_in}{folded}\n", name(names, s)));
    }
    text.push_str(&format!("you owe {}; raises this round: {} of 2\n", state.owed, state.raises));
    for (number, choice) in game.choices().iter().enumerate() {
        text.push_str(&format!("  {}. {}\n", number + 1, said(choice.action, choice.chips)));
    }
    text
}

/// One event as `seat` is told it.
pub(super) fn event(view: &wire::Event, names: &[String]) -> String {
    match view {
        wire::Event::Deal(deal) => {
            format!("dealt: your card is {}; {} seats ante 1 each", deal.card.name(), deal.seats)
        }
        wire::Event::Act(act) => {
            format!("{}: {} — pot {}", name(names, act.seat), said(act.action, act.chips), act.pot)
        }
        wire::Event::Public(public) => format!("the public card is {}", public.card.name()),
        wire::Event::HandEnd(end) => {
            let shown: Vec<String> = end
                .shown
                .iter()
                .enumerate()
                .filter_map(|(s, card)| card.map(|card| format!("{} {}", name(names, s), card.name())))
                .collect();
            let payoffs: Vec<String> =
                end.payoffs.iter().enumerate().map(|(s, p)| format!("{} {p:+}", name(names, s))).collect();
            let shown = if shown.is_empty() { String::new() } else { format!("; shown: {}", shown.join(", ")) };
            let reason = match end.reason {
                HandOver::Fold => "fold",
                HandOver::Showdown => "showdown",
            };
            format!("hand over by {reason}, pot {}{shown}; payoffs: {}", end.pot, payoffs.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Deal;
    use crate::wire::{Card, Variant};

    #[test]
    fn a_turn_and_the_events_read_as_a_person_says_them() {
        let names = vec!["ann".to_string(), "you".to_string()];
        let deal = Deal { cards: vec![Card::Js, Card::Kh], public: Card::Jh };
        let mut game = Leduc::from_setup(&Variant { players: 2 }, &deal).expect("valid");
        game.play(1).expect("raise");
        let text = turn(&game, 1, &names);
        assert!(text.starts_with("round 1 (bet size 2), pot 4; your card Kh, public card not shown yet\n"), "{text}");
        assert!(text.contains("  seat 0 (ann): in for 3\n") && text.contains("you owe 2"), "{text}");
        assert!(text.ends_with("  1. fold\n  2. call 2\n  3. raise (put in 4)\n"), "{text}");
        assert!(!text.contains("Js"), "the other seat's card is never shown: {text}");
        for action in [1, 0, 1, 2, 1] {
            game.play(action).expect("legal");
        }
        let events: Vec<String> =
            game.events().iter().filter_map(|e| game.view(e, 1)).map(|v| event(&v, &names)).collect();
        assert_eq!(events[0], "dealt: your card is Kh; 2 seats ante 1 each");
        assert_eq!(events[1], "seat 0 (ann): raise (put in 2) — pot 4");
        assert_eq!(events[4], "seat 0 (ann): check — pot 6");
        assert_eq!(
            events.last().unwrap(),
            "hand over by showdown, pot 22; shown: seat 0 (ann) Js, seat 1 (you) Kh; payoffs: seat 0 (ann) +11, seat 1 (you) -11"
        );
    }
}
