//! The tiles of a double-six set and their canonical order.

use protocol::all_fives::Tile;

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
}
