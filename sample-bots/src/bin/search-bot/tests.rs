//! Tests of inference, sampling and determinism, on real games played by
//! the arena's engine.

use crate::knowledge::{Knowledge, numbers};
use crate::sample::{Seen, determinize};
use crate::search::{Budget, choose};
use all_fives::AllFives;
use all_fives::wire::{State, Tile, Variant};
use game::Game;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Variants covering every player count, deal size and hand-end rule.
fn variants() -> Vec<Variant> {
    let tables: [&[(&str, &str)]; 6] = [
        &[],
        &[("players", "3")],
        &[("players", "4")],
        &[("players", "4"), ("partners", "false"), ("hand_end", "winner-takes")],
        &[("deal", "five"), ("boneyard_keep", "2")],
        &[("players", "3"), ("deal", "seven-five"), ("boneyard_keep", "1"), ("hand_end", "winner-takes")],
    ];
    tables
        .iter()
        .map(|settings| {
            let settings: Vec<(String, String)> =
                settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            AllFives::parse_variant(&settings).expect("a valid variant")
        })
        .collect()
}

/// One decision of a real game, as every seat saw it: the game (with full
/// information), the seat to act, what it knows and its state.
struct Decision {
    game: AllFives,
    seat: usize,
    knowledge: Knowledge,
    state: State,
}

/// Plays `games` games of `variant` (the first legal move but one, so that
/// draws and passes happen) and returns every decision in them.
fn decisions(variant: &Variant, games: u64) -> Vec<Decision> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut game = AllFives::new(variant, seed);
        let mut knowledge: Vec<Knowledge> = (0..variant.players).map(Knowledge::new).collect();
        let mut delivered = 0;
        let mut turn = 0;
        while let Some(seat) = game.to_act() {
            for event in game.events_since(delivered) {
                for (s, k) in knowledge.iter_mut().enumerate() {
                    if let Some(view) = game.view(&event, s) {
                        k.observe(&view);
                    }
                }
            }
            delivered = game.event_count();
            out.push(Decision {
                game: game.clone(),
                seat,
                knowledge: knowledge[seat].clone(),
                state: game.state(seat),
            });
            turn += 1;
            game.play(turn % game.legal_count()).unwrap();
        }
    }
    out
}

/// Every hand's tiles, as the full-information state shows them.
fn hands(game: &AllFives) -> Vec<Vec<Tile>> {
    (0..game.variant().players).map(|seat| game.state(seat).hand).collect()
}

/// Whether `hand` can be split into the groups: for nested groups (oldest,
/// most voids, first) Hall's condition is that the first `k` groups never
/// need more tiles than there are tiles avoiding the `k`th group's voids.
fn fits(hand: &[Tile], knowledge: &Knowledge, seat: usize) -> bool {
    let groups = &knowledge.groups[seat];
    let mut need = 0;
    groups.iter().all(|group| {
        need += group.count;
        hand.iter().filter(|&&t| numbers(t) & group.voids == 0).count() >= need
    }) && need == hand.len()
}

#[test]
fn the_real_hands_always_fit_what_was_inferred() {
    let mut voids_seen = 0;
    for variant in variants() {
        for decision in decisions(&variant, 6) {
            let real = hands(&decision.game);
            for seat in (0..variant.players).filter(|&s| s != decision.seat) {
                assert!(fits(&real[seat], &decision.knowledge, seat), "seat {seat}: {:?}", decision.knowledge);
                voids_seen += decision.knowledge.groups[seat].iter().filter(|g| g.voids != 0).count();
            }
        }
    }
    assert!(voids_seen > 100, "the games revealed few voids: {voids_seen}");
}

#[test]
fn sampled_deals_never_contradict_what_was_revealed() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for variant in variants() {
        for decision in decisions(&variant, 2) {
            let seen = Seen { seat: decision.seat, knowledge: &decision.knowledge, state: &decision.state };
            for _ in 0..3 {
                let guess = determinize(&seen, &mut rng);
                assert_eq!(guess.hands[decision.seat], decision.state.hand);
                assert_eq!(guess.played, decision.knowledge.played);
                assert_eq!(guess.boneyard.len(), decision.state.boneyard);
                for seat in (0..variant.players).filter(|&s| s != decision.seat) {
                    assert_eq!(guess.hands[seat].len(), decision.state.hand_sizes[seat]);
                    assert!(fits(&guess.hands[seat], &decision.knowledge, seat), "seat {seat}: {guess:?}");
                }
                // The engine accepts it (every tile once, plays that fit), and the
                // seat has the same legal moves as in the real game.
                let game = AllFives::from_midhand(&variant, &guess).expect("a consistent position");
                assert_eq!(game.to_act(), Some(decision.seat));
                assert_eq!(game.choices(), decision.game.choices());
            }
        }
    }
}

#[test]
fn the_choice_is_determined_by_the_seed_and_the_budget() {
    let budget = Budget { playouts: 24, deadline: None };
    let mut differs = false;
    for variant in variants() {
        for decision in decisions(&variant, 1).into_iter().step_by(9) {
            let seen = Seen { seat: decision.seat, knowledge: &decision.knowledge, state: &decision.state };
            let legal = decision.game.choices();
            let pick = |seed| choose(&variant, &seen, &legal, budget, &mut ChaCha8Rng::seed_from_u64(seed));
            let first = pick(3);
            assert!(first < legal.len());
            assert_eq!(pick(3), first);
            differs |= (4..6).any(|seed| pick(seed) != first);
        }
    }
    assert!(differs, "the seed never changed a choice");
}
