//! The seeded draw engines deal with, reproducible by any other program.
//!
//! # The exact procedure
//!
//! 1. [`Draw::new`]`(S, k)` is a ChaCha8 generator (the ChaCha stream cipher
//!    with 8 rounds, as in `rand_chacha` 0.10's `ChaCha8Rng`): the 32-byte key
//!    is the seed `S` (a `u64`) as 8 little-endian bytes followed by 24 zero
//!    bytes, the 64-bit stream number (nonce) is `k`, and output starts at
//!    word position 0 (block counter 0). [`Draw::next_u32`] returns the
//!    keystream's 32-bit little-endian words in order.
//! 2. [`Draw::below`]`(n)` (for `n >= 1`): let `zone = (2^32 / n) * n`,
//!    computed in 64 bits (the largest multiple of `n` not above `2^32`).
//!    Draw `x = next_u32()`; if `x < zone` return `x % n`, otherwise draw again.
//! 3. [`Draw::shuffle`] of a list of length `L`: for `i` from `L - 1` down to
//!    1, swap positions `i` and `below(i + 1)` (a Fisher–Yates shuffle).
//!
//! An engine says in its own documentation which seed and stream it deals
//! each part of a game from (All Fives: the game's seed, stream `h` for
//! hand `h`; Leduc: the game's seed, stream 1).

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// The largest `n` for which [`Draw::below`] computes `x % n` from a table.
const TABLED: usize = 64;

/// For each `n` in `1..=TABLED` (index 0 unused): the rejection zone
/// `(2^32 / n) * n` of [`Draw::below`], and the factor
/// `floor((2^64 - 1) / n) + 1` (wrapping) with which [`remainder`] computes
/// `x % n` without dividing.
const SMALL: [(u64, u64); TABLED + 1] = small_table();

const fn small_table() -> [(u64, u64); TABLED + 1] {
    let mut out = [(0, 0); TABLED + 1];
    let mut n = 1;
    while n <= TABLED as u64 {
        out[n as usize] = (((1u64 << 32) / n) * n, (u64::MAX / n).wrapping_add(1));
        n += 1;
    }
    out
}

/// `x % n`, given `factor` from [`SMALL`] for `n` (Lemire, Kaser and Kurz,
/// "Faster remainder by direct computation", 2019: exact for every 32-bit
/// `x` and `n`).
fn remainder(x: u32, factor: u64, n: u32) -> u32 {
    let low = factor.wrapping_mul(u64::from(x));
    ((u128::from(low) * u128::from(n)) >> 64) as u32
}

/// A seeded random source: see the [module documentation](self).
#[derive(Debug, Clone)]
pub struct Draw(ChaCha8Rng);

impl Draw {
    /// The generator of stream `stream` of seed `seed`: ChaCha8 keyed with
    /// `seed.to_le_bytes()` and 24 zero bytes, stream `stream`, word position 0.
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(stream);
        Draw(rng)
    }

    /// The next 32-bit word of the keystream.
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// A uniform number in `0..n` by rejection: draws `x = next_u32()` until
    /// `x < (2^32 / n) * n`, then returns `x % n`.
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0)");
        let Some(&(zone, factor)) = SMALL.get(n as usize) else {
            let n64 = u64::from(n);
            let zone = ((1u64 << 32) / n64) * n64;
            loop {
                let x = self.next_u32();
                if u64::from(x) < zone {
                    return x % n;
                }
            }
        };
        // The same, without dividing: a shuffle draws one of these per item.
        loop {
            let x = self.next_u32();
            if u64::from(x) < zone {
                return remainder(x, factor, n);
            }
        }
    }

    /// Shuffles `items` in place: for `i` from `len - 1` down to 1, swaps
    /// positions `i` and `below(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_is_reproducible() {
        let mut a = Draw::new(7, 1);
        let mut b = Draw::new(7, 1);
        for n in 1..=80 {
            let x = a.below(n);
            assert!(x < n);
            assert_eq!(x, b.below(n));
        }
        assert_eq!(Draw::new(7, 1).below(1), 0);
    }

    #[test]
    fn below_without_dividing_is_below_by_the_book() {
        // The documented procedure, dividing.
        let by_the_book = |rng: &mut Draw, n: u32| {
            let zone = ((1u64 << 32) / u64::from(n)) * u64::from(n);
            loop {
                let x = rng.next_u32();
                if u64::from(x) < zone {
                    return x % n;
                }
            }
        };
        for n in 1..=80 {
            let (mut a, mut b) = (Draw::new(u64::from(n), 3), Draw::new(u64::from(n), 3));
            for _ in 0..2000 {
                assert_eq!(a.below(n), by_the_book(&mut b, n), "n = {n}");
            }
        }
        for n in 1..=TABLED as u32 {
            let (zone, factor) = SMALL[n as usize];
            for x in [0, 1, n - 1, n, n + 1, u32::MAX / 2, (zone - 1) as u32, u32::MAX - 1, u32::MAX] {
                assert_eq!(remainder(x, factor, n), x % n, "{x} % {n}");
            }
            let mut x = 0x9E37_79B9u32;
            for _ in 0..100_000 {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                assert_eq!(remainder(x, factor, n), x % n, "{x} % {n}");
            }
        }
    }

    #[test]
    fn streams_and_seeds_differ() {
        let first = Draw::new(42, 1).next_u32();
        assert_ne!(first, Draw::new(42, 2).next_u32());
        assert_ne!(first, Draw::new(43, 1).next_u32());
    }

    #[test]
    fn a_shuffle_is_a_permutation_in_the_documented_order() {
        let mut items: Vec<u32> = (0..10).collect();
        Draw::new(3, 9).shuffle(&mut items);
        let mut by_the_book: Vec<u32> = (0..10).collect();
        let mut draw = Draw::new(3, 9);
        for i in (1..10).rev() {
            let j = draw.below(i as u32 + 1) as usize;
            by_the_book.swap(i, j);
        }
        assert_eq!(items, by_the_book);
        assert_ne!(items, (0..10).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..10).collect::<Vec<_>>());
    }
}
