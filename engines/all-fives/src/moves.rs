//! Sets of plays, one bit per (tile, end) pair.
//!
//! Bit `4 * tile + end` stands for playing the tile with canonical index
//! `tile` on end `end` (0 to 3), so the bits in increasing order are the
//! plays in the order the legal moves are listed: by tile in canonical order,
//! then by end id. The lead is written with end 0. Counting the legal moves
//! is a population count and finding the `n`th is finding the `n`th set bit,
//! with no branch per tile or per end.

use super::tiles::{MAX_PIPS, SET_SIZE, SHOWS, TileSet};

/// Plays as bits: see the [module documentation](self).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct MoveSet(u128);

/// For each 7-bit group of a tile set, each bit `i` turned into `nibble << (4 * i)`:
/// `[0]` with nibble 1 (the tile on end 0), `[1]` with nibble 15 (on every end).
const SPREAD7: [[u32; 128]; 2] = [spread7(1), spread7(15)];

const fn spread7(nibble: u32) -> [u32; 128] {
    let mut out = [0; 128];
    let mut group = 0;
    while group < 128 {
        let mut bit = 0;
        while bit < 7 {
            if group & (1 << bit) != 0 {
                out[group] |= nibble << (4 * bit);
            }
            bit += 1;
        }
        group += 1;
    }
    out
}

/// For each number `p` and end `e`: every tile showing `p`, on end `e`.
const SHOWING: [[u128; 4]; MAX_PIPS as usize + 1] = showing_table();

const fn showing_table() -> [[u128; 4]; MAX_PIPS as usize + 1] {
    let mut out = [[0; 4]; MAX_PIPS as usize + 1];
    let mut p = 0;
    while p <= MAX_PIPS as usize {
        let bits = SHOWS[p].bits();
        let mut i = 0;
        while i < SET_SIZE {
            if bits & (1 << i) != 0 {
                let mut end = 0;
                while end < 4 {
                    out[p][end] |= 1 << (4 * i + end);
                    end += 1;
                }
            }
            i += 1;
        }
        p += 1;
    }
    out
}

/// For each end `e`: every play on another end.
const OTHER_ENDS: [u128; 4] = other_ends();

const fn other_ends() -> [u128; 4] {
    let mut out = [0; 4];
    let mut end = 0;
    while end < 4 {
        let mut i = 0;
        while i < SET_SIZE {
            out[end] |= 0b1111 << (4 * i);
            i += 1;
        }
        out[end] &= !(0x1111_1111_1111_1111_1111_1111_1111u128 << end);
        end += 1;
    }
    out
}

/// `tiles` with bit `i` turned into `nibble << (4 * i)`, where `which` is 0
/// for nibble 1 and 1 for nibble 15 (see [`SPREAD7`]).
fn spread(tiles: TileSet, which: usize) -> u128 {
    let bits = tiles.bits();
    let table = &SPREAD7[which];
    let group = |k: u32| u128::from(table[((bits >> (7 * k)) & 0x7f) as usize]) << (28 * k);
    group(0) | group(1) | group(2) | group(3)
}

impl MoveSet {
    /// No plays.
    pub(crate) const EMPTY: MoveSet = MoveSet(0);

    /// Each of `tiles` on end `end`.
    pub(crate) fn on_end(tiles: TileSet, end: u8) -> MoveSet {
        MoveSet(spread(tiles, 0) << end)
    }

    /// Every tile showing `pips`, on end `end`.
    pub(crate) fn showing(pips: u8, end: usize) -> MoveSet {
        MoveSet(SHOWING[usize::from(pips)][end])
    }

    /// Each of `tiles` on every end.
    pub(crate) fn on_any_end(tiles: TileSet) -> MoveSet {
        MoveSet(spread(tiles, 1))
    }

    /// These plays with those on end `end` replaced by `on_end`'s.
    pub(crate) fn replace_end(self, end: usize, on_end: MoveSet) -> MoveSet {
        MoveSet(self.0 & OTHER_ENDS[end] | on_end.0)
    }

    /// The plays in both sets.
    pub(crate) fn and(self, other: MoveSet) -> MoveSet {
        MoveSet(self.0 & other.0)
    }

    /// The plays in either set.
    #[cfg(test)]
    pub(crate) fn or(self, other: MoveSet) -> MoveSet {
        MoveSet(self.0 | other.0)
    }

    /// How many plays it holds.
    pub(crate) fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The `index`th play (from 0) in increasing order, as (tile, end).
    pub(crate) fn nth(self, index: usize) -> Option<(u8, u8)> {
        // Legal moves are few: dropping the lowest bit `index` times beats
        // counting bits without a population count instruction.
        let mut bits = self.0;
        for _ in 0..index {
            if bits == 0 {
                return None;
            }
            bits &= bits - 1;
        }
        (bits != 0).then(|| split(bits.trailing_zeros()))
    }

    /// The plays in increasing order, as (tile, end).
    pub(crate) fn iter(self) -> Plays {
        Plays(self.0)
    }
}

/// A bit position as (tile, end).
fn split(bit: u32) -> (u8, u8) {
    debug_assert!(bit < 4 * SET_SIZE as u32);
    ((bit / 4) as u8, (bit % 4) as u8)
}

/// The plays of a [`MoveSet`] in increasing order.
#[derive(Debug, Clone)]
pub(crate) struct Plays(u128);

impl Iterator for Plays {
    type Item = (u8, u8);

    fn next(&mut self) -> Option<(u8, u8)> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(split(bit))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tiles::{CANONICAL, index};
    use super::*;

    fn set(tiles: &[[u8; 2]]) -> TileSet {
        TileSet::of(tiles)
    }

    #[test]
    fn spreading_puts_each_tile_four_bits_apart() {
        for (i, &tile) in CANONICAL.iter().enumerate() {
            let one = TileSet::of(&[tile]);
            assert_eq!(spread(one, 0), 1u128 << (4 * i), "{tile:?}");
            assert_eq!(spread(one, 1), 15u128 << (4 * i), "{tile:?}");
        }
        assert_eq!(spread(TileSet::ALL, 0).count_ones(), 28);
        for p in 0..=MAX_PIPS {
            for end in 0..4 {
                assert_eq!(MoveSet::showing(p, end), MoveSet::on_end(SHOWS[usize::from(p)], end as u8));
            }
        }
        let all = MoveSet::on_any_end(TileSet::ALL);
        for end in 0..4 {
            let mine = MoveSet::on_end(TileSet::ALL, end as u8);
            assert_eq!(all.replace_end(end, MoveSet::EMPTY).or(mine), all);
            assert_eq!(all.replace_end(end, MoveSet::EMPTY).and(mine), MoveSet::EMPTY);
            assert_eq!(MoveSet::EMPTY.replace_end(end, mine), mine);
        }
    }

    #[test]
    fn plays_come_by_tile_then_end() {
        let hand = set(&[[0, 5], [2, 5], [5, 5], [1, 3]]);
        // Ends 0 and 2 take a 5, end 1 takes a 3.
        let fits = MoveSet::on_end(SHOWS[5], 0).or(MoveSet::on_end(SHOWS[3], 1)).or(MoveSet::on_end(SHOWS[5], 2));
        let legal = MoveSet::on_any_end(hand).and(fits);
        let i = |t| index(t).unwrap() as u8;
        let want = [(i([0, 5]), 0), (i([0, 5]), 2), (i([1, 3]), 1), (i([2, 5]), 0), (i([2, 5]), 2), (i([5, 5]), 0)];
        let want = [want.to_vec(), vec![(i([5, 5]), 2)]].concat();
        assert_eq!(legal.iter().collect::<Vec<_>>(), want);
        assert_eq!(legal.len(), want.len());
        for (n, &play) in want.iter().enumerate() {
            assert_eq!(legal.nth(n), Some(play), "{n}");
        }
        assert_eq!(legal.nth(want.len()), None);
        assert_eq!(legal.nth(usize::MAX), None);
        assert_eq!(MoveSet::EMPTY.nth(0), None);
    }

    #[test]
    fn nth_crosses_into_the_high_word() {
        let all = MoveSet::on_any_end(TileSet::ALL);
        assert_eq!(all.len(), 112);
        for n in 0..112 {
            assert_eq!(all.nth(n), Some(((n / 4) as u8, (n % 4) as u8)));
        }
        assert_eq!(all.nth(112), None);
        let high = MoveSet::on_end(set(&[[6, 6]]), 3);
        assert_eq!((high.nth(0), high.nth(1)), (Some((27, 3)), None));
    }

    /// The engine's fast path lists exactly the moves `choices` lists.
    #[test]
    fn legal_moves_and_count_agree_with_choices() {
        use super::super::AllFives;
        use crate::wire::Move;
        use game::Game;
        for players in 2..=4 {
            let settings = vec![("players".to_string(), players.to_string())];
            let variant = AllFives::parse_variant(&settings).unwrap();
            let mut game = AllFives::new(&variant, players as u64);
            let mut turn = 0;
            while game.to_act().is_some() {
                let choices = game.choices();
                let listed: Vec<Move> = choices.iter().map(|c| Move { tile: c.tile, end: c.end }).collect();
                assert_eq!(game.legal_moves().collect::<Vec<_>>(), listed);
                assert_eq!(game.legal_count(), choices.len());
                game.play(turn * 5 % choices.len()).unwrap();
                turn += 1;
            }
            assert_eq!((game.legal_count(), game.legal_moves().count()), (0, 0));
        }
    }
}
