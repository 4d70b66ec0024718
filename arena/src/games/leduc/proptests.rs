//! Property tests: random seeds, player counts and choices, random legal
//! play to the end of the game, with the record checked against the rules.

use super::*;
use proptest::prelude::*;

/// Plays the game with `picks` (each taken modulo the number of legal
/// moves, the last repeated), checking every position on the way, and
/// returns the game over.
fn play_out(players: usize, seed: u64, picks: &[usize]) -> Leduc {
    let mut game = Leduc::new(&Variant { players }, seed);
    let mut turn = 0;
    while let Some(seat) = game.to_act() {
        check_position(&game, seat);
        let pick = picks.get(turn).or(picks.last()).copied().unwrap_or(0);
        game.play(pick % game.legal_count()).expect("a legal index");
        turn += 1;
        assert!(turn <= MAX_ACTIONS, "a game cannot hold more than {MAX_ACTIONS} actions");
    }
    game
}

/// Every listed choice is legal, can be named by value, and costs what the
/// state says; nothing illegal is listed or accepted.
fn check_position(game: &Leduc, seat: usize) {
    let state = game.state(seat);
    let choices = game.choices();
    assert_eq!(choices.len(), game.legal_count());
    assert_eq!(state.pot, state.put_in.iter().sum::<u32>());
    assert_eq!(state.bet, BET_SIZES[usize::from(state.round) - 1]);
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
    assert!(game.clone().play(choices.len()).is_err());
}

/// No view (and no state) before the end of the hand names another seat's
/// card, and the end shows only the cards of the seats at a showdown.
fn check_views(game: &Leduc) {
    let events = game.events();
    let deal = game.deal();
    for seat in 0..deal.cards.len() {
        let others: Vec<String> =
            (0..deal.cards.len()).filter(|&s| s != seat).map(|s| format!("\"{}\"", deal.cards[s].name())).collect();
        for event in &events {
            let view = serde_json::to_string(&game.view(event, seat).expect("every seat is told every event"))
                .expect("views serialize");
            match event {
                Event::HandEnd(end) => {
                    for (s, shown) in end.shown.iter().enumerate() {
                        let showing = end.reason == HandOver::Showdown && !game.state(0).folded[s];
                        assert_eq!(shown.is_some(), showing, "seat {s}'s card shown: {view}");
                    }
                }
                _ => assert!(!others.iter().any(|card| view.contains(card.as_str())), "seat {seat} told {view}"),
            }
            if let Event::Public(_) = event {
                assert!(view.contains(deal.public.name()));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn payoffs_sum_to_zero_and_rank_the_seats(players in 2usize..=4, seed: u64, picks in prop::collection::vec(0usize..3, 1..24)) {
        let game = play_out(players, seed, &picks);
        let scores = game.scores();
        prop_assert_eq!(scores.iter().sum::<i64>(), 0);
        let outcome = game.outcome().expect("over");
        for (seat, rank) in outcome.ranks.iter().enumerate() {
            prop_assert_eq!(*rank as usize, scores.iter().filter(|&&s| s > scores[seat]).count());
        }
        let Some(Event::HandEnd(end)) = game.events().pop() else { panic!("no hand end") };
        prop_assert_eq!(end.won.iter().sum::<u32>(), end.pot);
        prop_assert_eq!(&end.payoffs, &scores);
        prop_assert!(scores.iter().all(|&s| s >= -13), "nobody puts in more than 1 + 4 + 8");
    }

    #[test]
    fn views_never_leak_a_private_card(players in 2usize..=4, seed: u64, picks in prop::collection::vec(0usize..3, 1..24)) {
        let game = play_out(players, seed, &picks);
        check_views(&game);
        for seat in 0..players {
            let other_cards = (0..players).filter(|&s| s != seat).map(|s| game.deal().cards[s]);
            let state = game.state(seat);
            prop_assert!(other_cards.clone().all(|card| state.card != card));
        }
    }

    #[test]
    fn the_same_seed_and_choices_give_the_same_game(players in 2usize..=4, seed: u64, picks in prop::collection::vec(0usize..3, 1..24)) {
        let a = play_out(players, seed, &picks);
        let b = play_out(players, seed, &picks);
        prop_assert_eq!(a.events(), b.events());
        prop_assert_eq!(a.deal(), Deal::seeded(seed, players));
        let replayed = Leduc::from_setup(&Variant { players }, &a.deal()).expect("a valid deal");
        prop_assert_eq!(replayed.deal(), a.deal());
    }
}
