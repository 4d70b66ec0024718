//! Invariants of the All Fives engine, checked through its public API only
//! (the [`Game`] trait and
//! [`AllFives::from_deals`](crate::AllFives::from_deals))
//! while a game is played from arbitrary bytes.
//!
//! Shared by the cargo-fuzz targets in `fuzz/` at the repository root, the
//! regression tests that replay what they found (`fuzz/regressions/`), and
//! property tests. Every function here panics when an invariant breaks: that
//! panic is the finding.
//!
//! - [`engine`]: a game from a fuzz-chosen variant and seed, moves chosen by
//!   the input (out-of-range indices included).
//! - [`deals`]: a game from fuzz-chosen, possibly invalid, variants and deals,
//!   which must be refused with an error exactly when they are invalid.

mod deals;
mod drive;
mod ledger;

pub use deals::deals;
pub use game::fuzz_input::Input;

use super::AllFives;
use crate::wire::{DealSize, HandEndRule, Variant};
use game::Game;

/// Plays one game whose variant (2–4 players, partners, deal, boneyard_keep,
/// hand_end, a target of 1–200 and 1–4 hands, so that games end quickly) and
/// seed come from `data`, then its moves, checking every invariant after
/// every step. Input that runs out reads as zeros.
///
/// # Panics
/// When an invariant of the engine breaks.
pub fn engine(data: &[u8]) {
    let mut input = Input::new(data);
    let variant = small_variant(&mut input);
    let seed = input.u64();
    let mut game = AllFives::new(&variant, seed);
    drive::play_out(&mut game, &variant, variant.max_hands, &mut input);
}

/// A valid variant with a small target and few hands, from the input.
pub(crate) fn small_variant(input: &mut Input) -> Variant {
    let players = 2 + input.below(3);
    Variant {
        players,
        partners: players == 4 && input.flag(),
        deal: [DealSize::Standard, DealSize::Five, DealSize::SevenFive][input.below(3)],
        boneyard_keep: input.below(3),
        hand_end: [HandEndRule::SubtractOwn, HandEndRule::WinnerTakes][input.below(2)],
        target: 1 + (i64::from(input.byte()) * 256 + i64::from(input.byte())) % 200,
        max_hands: 1 + input.below(4) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn empty_and_short_inputs_play_whole_games() {
        engine(&[]);
        engine(&[2, 1, 0, 1, 1, 0, 200]);
        deals(&[]);
        deals(&[0, 2, 1, 0, 1, 1, 0, 200, 3]);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        #[test]
        fn random_inputs_keep_every_invariant(data in prop::collection::vec(any::<u8>(), 0..400)) {
            engine(&data);
            deals(&data);
        }
    }
}
