//! The tiles of a double-six set and their canonical order.
//!
//! Inside the engine a tile is often named by its position in [`CANONICAL`]
//! (one byte), and a set of tiles (a hand) is a `TileSet`: one bit per tile,
//! so that "which tiles in this hand show a 5" is a single `&`.

use crate::wire::Tile;
use std::fmt;

/// How many tiles a double-six set holds.
pub const SET_SIZE: usize = 28;

/// The highest number on a tile half.
pub const MAX_PIPS: u8 = 6;

/// The 28 tiles in canonical order: `[0,0], [0,1], …, [0,6], [1,1], …, [6,6]`,
/// i.e. every `[a, b]` with `a <= b`, ordered lexicographically. This is the
/// order a hand's shuffle starts from, and the order of every sorted hand
/// (sorting `[u8; 2]` values gives exactly this order).
pub const CANONICAL: [Tile; SET_SIZE] = canonical();

const fn canonical() -> [Tile; SET_SIZE] {
    let mut out = [[0, 0]; SET_SIZE];
    let mut i = 0;
    let mut a = 0;
    while a <= MAX_PIPS {
        let mut b = a;
        while b <= MAX_PIPS {
            out[i] = [a, b];
            i += 1;
            b += 1;
        }
        a += 1;
    }
    out
}

/// The tile written with its smaller half first: `[5, 3]` becomes `[3, 5]`.
pub fn normalize([a, b]: Tile) -> Tile {
    if a <= b { [a, b] } else { [b, a] }
}

/// The position of `tile` in [`CANONICAL`], or `None` when it is not a
/// normalized tile of the set (`a <= b <= 6`).
pub fn index([a, b]: Tile) -> Option<usize> {
    if a > b || b > MAX_PIPS {
        return None;
    }
    let (a, b) = (usize::from(a), usize::from(b));
    // Rows before `a` hold 7, 6, …, 7 - a + 1 tiles.
    Some(a * 7 - a * (a.saturating_sub(1)) / 2 + (b - a))
}

/// For each number `p`, the tiles showing `p` on either half, as a [`TileSet`].
pub(crate) const SHOWS: [TileSet; MAX_PIPS as usize + 1] = shows_table();

const fn shows_table() -> [TileSet; MAX_PIPS as usize + 1] {
    let mut out = [TileSet::EMPTY; MAX_PIPS as usize + 1];
    let mut i = 0;
    while i < SET_SIZE {
        let [a, b] = CANONICAL[i];
        out[a as usize].0 |= 1 << i;
        out[b as usize].0 |= 1 << i;
        i += 1;
    }
    out
}

/// A set of tiles of the double-six set, one bit per tile (bit `i` for
/// `CANONICAL[i]`). Iterating gives the tiles in canonical order, which is
/// the order of a sorted hand.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TileSet(u32);

impl TileSet {
    /// No tiles.
    pub(crate) const EMPTY: TileSet = TileSet(0);

    /// The whole set.
    pub(crate) const ALL: TileSet = TileSet((1 << SET_SIZE) - 1);

    /// The set of these (normalized) tiles.
    ///
    /// # Panics
    /// If a tile is not a normalized tile of the set.
    pub(crate) fn of(tiles: &[Tile]) -> TileSet {
        let mut set = TileSet::EMPTY;
        for &tile in tiles {
            set.insert(index(tile).expect("a normalized double-six tile") as u8);
        }
        set
    }

    /// Its bits: bit `i` for `CANONICAL[i]`.
    pub(crate) const fn bits(self) -> u32 {
        self.0
    }

    /// How many tiles it holds.
    pub(crate) fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether it holds no tile.
    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether it holds the tile with canonical index `tile`.
    pub(crate) fn contains(self, tile: u8) -> bool {
        self.0 & (1 << tile) != 0
    }

    /// Adds the tile with canonical index `tile`.
    pub(crate) fn insert(&mut self, tile: u8) {
        self.0 |= 1 << tile;
    }

    /// Removes the tile with canonical index `tile`.
    pub(crate) fn remove(&mut self, tile: u8) {
        self.0 &= !(1 << tile);
    }

    /// The tiles in both sets.
    pub(crate) fn and(self, other: TileSet) -> TileSet {
        TileSet(self.0 & other.0)
    }

    /// The tiles in either set.
    pub(crate) fn or(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    /// The canonical indices of its tiles, in increasing order.
    pub(crate) fn indices(self) -> Indices {
        Indices(self.0)
    }

    /// Its tiles in canonical order.
    pub(crate) fn to_vec(self) -> Vec<Tile> {
        self.indices().map(|i| CANONICAL[usize::from(i)]).collect()
    }

    /// The total number of pips on its tiles.
    pub(crate) fn pips(self) -> u32 {
        self.indices().map(|i| PIP_SUMS[usize::from(i)]).sum()
    }
}

/// The pips on each tile, by canonical index.
const PIP_SUMS: [u32; SET_SIZE] = pip_sums();

const fn pip_sums() -> [u32; SET_SIZE] {
    let mut out = [0; SET_SIZE];
    let mut i = 0;
    while i < SET_SIZE {
        out[i] = CANONICAL[i][0] as u32 + CANONICAL[i][1] as u32;
        i += 1;
    }
    out
}

/// The canonical indices of a [`TileSet`]'s tiles, in increasing order.
#[derive(Debug, Clone)]
pub(crate) struct Indices(u32);

impl Iterator for Indices {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(i)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Indices {}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.indices().map(|i| CANONICAL[usize::from(i)])).finish()
    }
}

/// A set equals a list of tiles when the list holds exactly its tiles, in
/// canonical order (as a sorted hand does).
impl PartialEq<Vec<Tile>> for TileSet {
    fn eq(&self, other: &Vec<Tile>) -> bool {
        self.len() == other.len() && self.indices().zip(other).all(|(i, &tile)| CANONICAL[usize::from(i)] == tile)
    }
}

/// Whether both halves show the same number.
pub fn is_double(tile: Tile) -> bool {
    tile[0] == tile[1]
}

/// Whether either half of `tile` shows `pips`.
pub fn shows(tile: Tile, pips: u8) -> bool {
    tile[0] == pips || tile[1] == pips
}

/// The total number of pips on `tiles`.
pub fn pips(tiles: &[Tile]) -> u32 {
    tiles.iter().map(|t| u32::from(t[0]) + u32::from(t[1])).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_order_is_lexicographic_and_complete() {
        assert_eq!(CANONICAL[0], [0, 0]);
        assert_eq!(CANONICAL[6], [0, 6]);
        assert_eq!(CANONICAL[7], [1, 1]);
        assert_eq!(CANONICAL[27], [6, 6]);
        assert!(CANONICAL.windows(2).all(|w| w[0] < w[1]));
        assert!(CANONICAL.iter().all(|t| t[0] <= t[1] && t[1] <= 6));
        assert_eq!(pips(&CANONICAL), 168);
    }

    #[test]
    fn index_inverts_the_canonical_order() {
        for (i, &t) in CANONICAL.iter().enumerate() {
            assert_eq!(index(t), Some(i), "{t:?}");
        }
        assert_eq!(index([3, 2]), None);
        assert_eq!(index([0, 7]), None);
    }

    #[test]
    fn helpers() {
        assert_eq!(normalize([5, 3]), [3, 5]);
        assert_eq!(normalize([3, 5]), [3, 5]);
        assert!(is_double([4, 4]));
        assert!(!is_double([4, 5]));
        assert!(shows([4, 5], 5) && !shows([4, 5], 3));
        assert_eq!(pips(&[[6, 6], [1, 2]]), 15);
    }

    #[test]
    fn tables_agree_with_the_canonical_order() {
        for (i, &tile) in CANONICAL.iter().enumerate() {
            for p in 0..=MAX_PIPS {
                assert_eq!(SHOWS[usize::from(p)].contains(i as u8), shows(tile, p), "{tile:?} {p}");
            }
        }
        assert!(SHOWS.iter().all(|s| s.len() == 7));
    }

    #[test]
    fn tile_sets() {
        let hand = vec![[0, 1], [2, 3], [6, 6]];
        let mut set = TileSet::of(&hand);
        assert_eq!(set, hand);
        assert_eq!((set.len(), set.pips(), set.to_vec()), (3, 18, hand.clone()));
        assert_eq!(format!("{set:?}"), "[[0, 1], [2, 3], [6, 6]]");
        set.remove(index([2, 3]).unwrap() as u8);
        assert!(!set.contains(index([2, 3]).unwrap() as u8) && set.contains(index([0, 1]).unwrap() as u8));
        assert_ne!(set, hand);
        assert_eq!(set.and(SHOWS[6]).to_vec(), [[6, 6]]);
        assert_eq!(set.or(TileSet::of(&[[0, 0]])).len(), 3);
        assert!(TileSet::EMPTY.is_empty() && TileSet::EMPTY == Vec::new());
    }
}
