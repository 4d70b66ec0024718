//! Property tests: random seeds, player counts and choices, random legal
//! play to the end of the game, every position and the record checked by
//! the engine's [`invariants`](super::invariants).

use super::invariants::{check, check_over, play_checked};
use super::*;
use proptest::prelude::*;

/// Plays the game with `picks` (each taken modulo the number of legal
/// moves, the last repeated), checking every position on the way, and
/// returns the game over.
fn play_out(players: usize, seed: u64, picks: &[usize]) -> Leduc {
    let mut game = Leduc::new(&Variant { players }, seed);
    let mut turn = 0;
    while game.to_act().is_some() {
        let pick = picks.get(turn).or(picks.last()).copied().unwrap_or(0);
        let legal = game.legal_count();
        play_checked(&mut game, pick % legal);
        turn += 1;
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Payoffs sum to 0 and rank the seats; every listed choice is legal;
    /// no view leaks a private card before the showdown (see `check_over`).
    #[test]
    fn every_game_keeps_the_invariants(players in 2usize..=4, seed: u64, picks in prop::collection::vec(0usize..3, 1..24)) {
        check_over(&play_out(players, seed, &picks));
    }

    #[test]
    fn the_same_seed_and_choices_give_the_same_game(players in 2usize..=4, seed: u64, picks in prop::collection::vec(0usize..3, 1..24)) {
        let a = play_out(players, seed, &picks);
        let b = play_out(players, seed, &picks);
        prop_assert_eq!(a.events(), b.events());
        prop_assert_eq!(a.deal(), Deal::seeded(seed, players));
    }

    #[test]
    fn random_inputs_keep_every_invariant(data in prop::collection::vec(any::<u8>(), 0..200)) {
        check(&data);
    }
}
