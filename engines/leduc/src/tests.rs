//! Unit tests of every rule in RULES.md.

use super::*;
use crate::wire::Action::{Call, Fold, Raise};

/// A game of `players` with `cards` and `public`, after `actions`.
fn after(players: usize, cards: &[Card], public: Card, actions: &[Action]) -> Leduc {
    let deal = Deal { cards: cards.to_vec(), public };
    let mut game = Leduc::from_setup(&Variant { players }, &deal).expect("a valid deal");
    for &action in actions {
        let index = game.find_move(&Move { action }).unwrap_or_else(|| panic!("{action:?} is legal"));
        game.play(index).expect("a legal action");
    }
    game
}

fn actions(game: &Leduc) -> Vec<Action> {
    game.choices().into_iter().map(|c| c.action).collect()
}

#[test]
fn the_worked_example() {
    let mut game = after(2, &[Card::Js, Card::Kh], Card::Jh, &[Raise, Call]);
    assert_eq!((game.pot(), game.state(0).put_in), (6, vec![3, 3]));
    assert_eq!(game.state(0).public, Some(Card::Jh));
    for action in [Call, Raise, Raise, Call] {
        game.play(game.find_move(&Move { action }).expect("legal")).expect("legal");
    }
    assert_eq!(game.pot(), 22);
    assert_eq!(game.scores(), vec![11, -11]);
    assert_eq!(game.outcome(), Some(Outcome { reason: "showdown", ranks: vec![0, 1] }));
    let events = game.events();
    let acts: Vec<(usize, u8, Action, u32, u32)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Act(a) => Some((a.seat, a.round, a.action, a.chips, a.pot)),
            _ => None,
        })
        .collect();
    assert_eq!(
        acts,
        [
            (0, 1, Raise, 2, 4),
            (1, 1, Call, 2, 6),
            (0, 2, Call, 0, 6),
            (1, 2, Raise, 4, 10),
            (0, 2, Raise, 8, 18),
            (1, 2, Call, 4, 22)
        ]
    );
    assert!(matches!(events[3], Event::Public(Public { card: Card::Jh })));
    let Some(Event::HandEnd(end)) = events.last() else { panic!("no hand end") };
    assert_eq!(
        (end.reason, end.pot, end.winners.clone(), end.won.clone()),
        (HandOver::Showdown, 22, vec![0], vec![22, 0])
    );
    assert_eq!(end.shown, vec![Some(Card::Js), Some(Card::Kh)]);
    assert_eq!(events.len(), game.event_count());
}

#[test]
fn everyone_antes_one_and_seat_0_acts_first() {
    for players in 2..=4 {
        let game = Leduc::new(&Variant { players }, 9);
        assert_eq!(game.to_act(), Some(0));
        assert_eq!(game.pot(), players as u32);
        assert_eq!(game.state(0).put_in, vec![1; players]);
        assert_eq!((game.state(0).round, game.state(0).bet, game.state(0).public), (1, 2, None));
    }
}

#[test]
fn fold_is_legal_only_when_chips_are_owed() {
    let game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[]);
    assert_eq!(actions(&game), [Call, Raise]);
    assert_eq!(game.choices()[0].chips, 0);
    assert_eq!(game.find_move(&Move { action: Fold }), None);
    assert!(game.why_illegal(&Move { action: Fold }).expect("a reason").contains("nothing is owed"));
    let game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[Raise]);
    assert_eq!(actions(&game), [Fold, Call, Raise]);
    assert_eq!(game.choices().iter().map(|c| c.chips).collect::<Vec<_>>(), [0, 2, 4]);
    // Round 2 opens with nothing owed again.
    let game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[Raise, Call]);
    assert_eq!(actions(&game), [Call, Raise]);
}

#[test]
fn at_most_two_raises_a_round() {
    let game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[Raise, Raise]);
    assert_eq!(actions(&game), [Fold, Call]);
    assert_eq!(game.state(0).raises, 2);
    assert!(game.why_illegal(&Move { action: Raise }).expect("a reason").contains("2 raises"));
    // The cap is per round: round 2 allows 2 raises again, of 4 chips.
    let game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[Raise, Raise, Call, Raise]);
    assert_eq!(game.state(0).put_in, vec![9, 5]);
    assert_eq!(actions(&game), [Fold, Call, Raise]);
    assert_eq!(game.choices()[2].chips, 8);
}

#[test]
fn a_round_ends_when_all_have_acted_and_matched() {
    // Check, check: round 1 over.
    let game = after(3, &[Card::Js, Card::Kh, Card::Qs], Card::As, &[Call, Call]);
    assert_eq!((game.state(0).round, game.to_act()), (1, Some(2)));
    let game = after(3, &[Card::Js, Card::Kh, Card::Qs], Card::As, &[Call, Call, Call]);
    assert_eq!((game.state(0).round, game.to_act()), (2, Some(0)));
    // A raise reopens the round for the seats that acted before it.
    let game = after(3, &[Card::Js, Card::Kh, Card::Qs], Card::As, &[Call, Raise, Call]);
    assert_eq!((game.state(0).round, game.to_act(), game.state(0).owed), (1, Some(0), 2));
}

#[test]
fn round_2_starts_with_the_first_seat_still_in_from_seat_0() {
    let game = after(3, &[Card::Js, Card::Qh, Card::Ks], Card::As, &[Call, Raise, Call, Fold]);
    assert_eq!((game.state(1).round, game.to_act()), (2, Some(1)));
    assert_eq!(game.state(1).folded, vec![true, false, false]);
    // Seats 0 and 1 out at 4 players: seat 2 opens round 2.
    let game = after(4, &[Card::Ts, Card::Qh, Card::Ks, Card::Ah], Card::As, &[Call, Call, Raise, Call, Fold, Fold]);
    assert_eq!((game.state(2).round, game.to_act()), (2, Some(2)));
}

#[test]
fn the_last_seat_in_wins_the_pot_at_once() {
    let game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[Raise, Fold]);
    assert_eq!(game.to_act(), None);
    assert_eq!(game.scores(), vec![1, -1]);
    assert_eq!(game.outcome(), Some(Outcome { reason: "fold", ranks: vec![0, 1] }));
    let Some(Event::HandEnd(end)) = game.events().pop() else { panic!("no hand end") };
    assert_eq!((end.reason, end.shown), (HandOver::Fold, vec![None, None]));
    // Three players: two folds end it; the folders' payoffs are what they put in.
    let game = after(3, &[Card::Js, Card::Qh, Card::Ks], Card::As, &[Raise, Fold, Fold]);
    assert_eq!(game.scores(), vec![2, -1, -1]);
}

#[test]
fn a_pair_beats_a_higher_card_and_ranks_decide_otherwise() {
    let game = after(3, &[Card::Js, Card::Ah, Card::Ks], Card::Jh, &[Call, Call, Call, Call, Call, Call]);
    assert_eq!(game.scores(), vec![2, -1, -1]);
    let game = after(3, &[Card::Js, Card::Ah, Card::Ks], Card::Qh, &[Call, Call, Call, Call, Call, Call]);
    assert_eq!(game.scores(), vec![-1, 2, -1]);
    assert_eq!(game.outcome().expect("over").ranks, vec![1, 0, 1]);
}

#[test]
fn equal_hands_split_with_the_odd_chip_to_the_first_seat() {
    // Seats 1 and 2 hold kings, seat 0 folds after putting in 3: pot 11, 6 and 5.
    let game = after(3, &[Card::Js, Card::Kh, Card::Ks], Card::Qh, &[Raise, Call, Call, Call, Call]);
    assert_eq!(game.pot(), 9);
    let game = after(3, &[Card::Js, Card::Kh, Card::Ks], Card::Qh, &[Call, Raise, Call, Fold, Call, Call]);
    assert_eq!(game.to_act(), None);
    let Some(Event::HandEnd(end)) = game.events().pop() else { panic!("no hand end") };
    assert_eq!((end.pot, end.won.clone(), end.winners.clone()), (7, vec![0, 4, 3], vec![1, 2]));
    assert_eq!(end.payoffs, vec![-1, 1, 0]);
    assert_eq!(game.outcome().expect("over").ranks, vec![2, 0, 1]);
    // Two players with equal ranks split evenly and draw.
    let game = after(2, &[Card::Js, Card::Jh], Card::Qh, &[Call, Call, Call, Call]);
    assert_eq!((game.scores(), game.outcome().expect("over").ranks), (vec![0, 0], vec![0, 0]));
}

#[test]
fn views_tell_each_seat_only_its_card_until_the_showdown() {
    let game = after(2, &[Card::Js, Card::Kh], Card::Jh, &[Raise, Call]);
    let events = game.events();
    let view = |seat| serde_json::to_string(&game.view(&events[0], seat).expect("told")).expect("serializes");
    assert_eq!(view(0), r#"{"type":"deal","card":"Js","seats":2}"#);
    assert_eq!(view(1), r#"{"type":"deal","card":"Kh","seats":2}"#);
    assert_eq!(game.state(1).card, Card::Kh);
}

#[test]
fn the_record_reproduces_the_game() {
    let mut game = Leduc::new(&Variant { players: 3 }, 77);
    while game.to_act().is_some() {
        game.play(game.legal_count() - 1).expect("legal");
    }
    let events = game.events();
    let setup = Leduc::recorded_setup(&events);
    assert_eq!(setup, game.deal());
    let mut again = Leduc::from_setup(&Variant { players: 3 }, &setup).expect("valid");
    for event in &events {
        if let Some((seat, named)) = Leduc::decision(event) {
            assert_eq!(again.to_act(), Some(seat));
            again.play(again.find_move(&named).expect("legal")).expect("legal");
        }
    }
    assert_eq!(again.events(), events);
    assert_eq!(game.events_since(2), events[2..].to_vec());
    assert_eq!(game.events_since(99), vec![]);
}

#[test]
fn illegal_indices_are_refused() {
    let mut game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[]);
    assert_eq!(game.play(2), Err(IllegalMove { index: 2, legal: 2 }));
    let mut game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[Raise, Fold]);
    assert_eq!(game.play(0), Err(IllegalMove { index: 0, legal: 0 }));
}

#[test]
fn variants_and_setups_are_checked() {
    let settings = |value: &str| vec![("players".to_string(), value.to_string())];
    assert_eq!(Leduc::parse_variant(&[]), Ok(Variant { players: 2 }));
    assert_eq!(Leduc::parse_variant(&settings(" 4 ")), Ok(Variant { players: 4 }));
    let error = Leduc::parse_variant(&settings("5")).unwrap_err();
    assert!(error.0.contains("expected 2, 3 or 4"), "{error}");
    let error = Leduc::parse_variant(&[("target".to_string(), "1".to_string())]).unwrap_err();
    assert!(error.0.contains("unknown variant setting `target`"), "{error}");
    assert!(Leduc::check_variant(&Variant { players: 1 }).is_err());
    let deal = Deal { cards: vec![Card::Ts, Card::Js], public: Card::Qs };
    let error = Leduc::from_setup(&Variant { players: 2 }, &deal).unwrap_err();
    assert!(error.contains("Ts is not in the deck"), "{error}");
    let setup: Result<Deal, _> = serde_json::from_str(r#"{"cards":["Js","Kh"],"public":"Jh","extra":1}"#);
    assert!(setup.is_err());
}

#[test]
fn conformance_positions_are_where_the_checklist_says() {
    let positions = Leduc::conformance_positions();
    let by_name = |name| &positions.iter().find(|p| p.name == name).expect("a position").game;
    assert_eq!(actions(by_name("no-fold-when-checking")), [Call, Raise]);
    assert_eq!(actions(by_name("raise-cap")), [Fold, Call]);
    assert_eq!(by_name("round-2-bet-size").choices()[1].chips, 4);
    assert_eq!(by_name("round-2-after-fold").to_act(), Some(1));
}

#[test]
fn a_forfeit_folds_the_seats_at_fault() {
    // Seat 1 faults facing a raise: it loses its 1, which goes to seat 0.
    let game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[Raise]);
    assert_eq!(game.forfeit_scores(&[1]), vec![1, -1]);
    // Three players, seat 0 folded, seat 1 faults in round 2: seat 2 takes the pot.
    let game = after(3, &[Card::Js, Card::Qh, Card::Ks], Card::As, &[Call, Raise, Call, Fold]);
    assert_eq!(game.forfeit_scores(&[1]), vec![-1, -3, 4]);
    // Two seats still in share the chips of the others, by the odd-chip rule.
    let game = after(4, &[Card::Ts, Card::Qh, Card::Ks, Card::Ah], Card::As, &[Raise, Call]);
    assert_eq!(game.forfeit_scores(&[2]), vec![1, 0, -1, 0]);
    assert_eq!(game.forfeit_scores(&[0, 1]), vec![-3, -3, 3, 3]);
    // Every seat at fault: nothing is settled.
    let game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[]);
    assert_eq!(game.forfeit_scores(&[0, 1]), vec![0, 0]);
    // Every seat still in at fault: the seat that folded gets its chip back and takes theirs.
    let game = after(3, &[Card::Js, Card::Qh, Card::Ks], Card::As, &[Call, Raise, Call, Fold]);
    assert_eq!(game.forfeit_scores(&[1, 2]), vec![6, -3, -3]);
    // A game over keeps its payoffs.
    let game = after(2, &[Card::Js, Card::Kh], Card::Qs, &[Raise, Fold]);
    assert_eq!(game.forfeit_scores(&[1]), game.scores());
}
