//! The layout: its open ends, the spinner, and the count.
//!
//! End ids: 0 and 1 are the two ends of the line (for a lone spinner, its two
//! long sides); 2 and 3 are the spinner's short ends, open only once both long
//! sides of the spinner carry a tile. A non-double lead `[a, b]` (`a <= b`)
//! shows `a` at end 0 and `b` at end 1. The first double played in a hand is
//! the spinner; later doubles are plain crosswise doubles continuing their line.

use super::moves::MoveSet;
use super::tiles::{SHOWS, TileSet, is_double, shows};
use crate::wire::{End, Tile};

/// What lies at an end, which decides whether it is open and what it counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Not open (yet): nothing may be played here.
    Closed,
    /// The open half of an ordinary tile: counts its pips.
    Plain,
    /// A crosswise double (not the spinner) at the end of a line: counts both halves.
    Double,
    /// An open long side of the spinner: counts both halves, or one half
    /// each while the spinner is alone (so the lone spinner counts once).
    SpinnerSide,
    /// A short end of the spinner with nothing on it yet: counts nothing.
    ShortEnd,
}

/// The tiles played in a hand, as far as the rules need them: the open ends.
///
/// Besides what lies at each end it keeps what the engine asks for after
/// every play: the tiles each end takes, the tiles that fit anywhere and what
/// each end counts, all updated as tiles are played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The number a tile must show to be played at each end (0 while closed).
    pips: [u8; 4],
    /// What lies at each end, by id.
    kinds: [Kind; 4],
    /// What each end adds to the count now (0 while closed).
    counts: [u8; 4],
    /// The count: the sum of `counts`.
    total: u32,
    /// The tiles each end takes (none while closed).
    sets: [TileSet; 4],
    /// The tiles that fit somewhere: every tile before the lead.
    playable: TileSet,
    /// Every tile on every end it fits; every tile on end 0 before the lead.
    moves: MoveSet,
    /// The number on the spinner, once one has been played.
    spinner: Option<u8>,
    /// How many tiles have been played.
    tiles: u8,
}

impl Default for Layout {
    /// The layout before the lead.
    fn default() -> Layout {
        Layout {
            pips: [0; 4],
            kinds: [Kind::Closed; 4],
            counts: [0; 4],
            total: 0,
            sets: [TileSet::EMPTY; 4],
            playable: TileSet::ALL,
            moves: MoveSet::on_end(TileSet::ALL, 0),
            spinner: None,
            tiles: 0,
        }
    }
}

/// The points a count scores: itself if it is a positive multiple of five, else 0.
pub(crate) fn points_for(count: u32) -> u32 {
    // Without a branch: whether a play scores is a coin toss to the CPU.
    count * u32::from(count.is_multiple_of(5))
}

impl Layout {
    /// How many tiles have been played.
    #[cfg(test)]
    pub(crate) fn tiles(&self) -> usize {
        usize::from(self.tiles)
    }

    /// Whether nothing has been played yet (the next play is the lead).
    pub(crate) fn is_empty(&self) -> bool {
        self.tiles == 0
    }

    /// The open ends by increasing id, with what each counts now.
    pub(crate) fn ends(&self) -> Vec<End> {
        (0..4)
            .filter(|&id| self.kinds[id] != Kind::Closed)
            .map(|id| End { id: id as u8, pips: self.pips[id], counts: u32::from(self.counts[id]) })
            .collect()
    }

    /// The sum of the open ends.
    pub(crate) fn count(&self) -> u32 {
        self.total
    }

    /// The tiles that may be played somewhere; every tile before the lead.
    pub(crate) fn playable(&self) -> TileSet {
        self.playable
    }

    /// Every tile on every end it fits, as (tile, end) bits; before the lead,
    /// every tile on end 0.
    pub(crate) fn moves(&self) -> MoveSet {
        self.moves
    }

    /// Whether `tile` may be played on `end` (`None` for the lead).
    pub(crate) fn fits(&self, tile: Tile, end: Option<u8>) -> bool {
        match end {
            None => self.is_empty(),
            Some(id) => {
                let id = usize::from(id);
                id < 4 && self.kinds[id] != Kind::Closed && shows(tile, self.pips[id])
            }
        }
    }

    /// Whether `tile` may be played anywhere (as the lead, or on some end).
    #[cfg(test)]
    pub(crate) fn accepts(&self, tile: Tile) -> bool {
        self.is_empty() || (0..4).any(|id| self.kinds[id] != Kind::Closed && shows(tile, self.pips[id]))
    }

    /// The points `tile` on `end` would score, without playing it.
    pub(crate) fn points_after(&self, tile: Tile, end: Option<u8>) -> u32 {
        let mut next = *self;
        next.play(tile, end)
    }

    /// Makes end `id` count `counts`.
    fn set_count(&mut self, id: usize, counts: u8) {
        self.total = self.total - u32::from(self.counts[id]) + u32::from(counts);
        self.counts[id] = counts;
    }

    /// Opens (or changes) end `id`: `pips` showing, `kind` lying there, counting `counts`.
    fn set(&mut self, id: usize, pips: u8, kind: Kind, counts: u8) {
        self.pips[id] = pips;
        self.kinds[id] = kind;
        self.set_count(id, counts);
        self.sets[id] = SHOWS[usize::from(pips)];
        self.moves = self.moves.replace_end(id, MoveSet::showing(pips, id));
    }

    /// Plays `tile` on `end` (`None` for the lead) and returns the points it scores.
    ///
    /// The play must [fit](Self::fits); that is checked in debug builds only,
    /// since the engine plays only moves it listed as legal.
    pub(crate) fn play(&mut self, tile: Tile, end: Option<u8>) -> u32 {
        debug_assert!(self.fits(tile, end), "{tile:?} does not fit end {end:?}");
        let double = is_double(tile);
        match end {
            None => {
                self.moves = MoveSet::EMPTY;
                let [a, b] = tile;
                if double {
                    // A lone spinner counts once, half on each side.
                    self.spinner = Some(a);
                    self.set(0, a, Kind::SpinnerSide, a);
                    self.set(1, a, Kind::SpinnerSide, a);
                } else {
                    self.set(0, a, Kind::Plain, a);
                    self.set(1, b, Kind::Plain, b);
                }
            }
            Some(id) => {
                let id = usize::from(id);
                let matched = self.pips[id];
                if id < 2 && self.kinds[1 - id] == Kind::SpinnerSide && self.kinds[id] == Kind::SpinnerSide {
                    // Joining a lone spinner: its other side now counts both halves.
                    self.set_count(1 - id, 2 * matched);
                }
                if double && self.spinner.is_none() {
                    // The first double: the spinner. The tile it touches covers
                    // one long side; the other is this end.
                    self.spinner = Some(matched);
                    self.set(id, matched, Kind::SpinnerSide, 2 * matched);
                } else {
                    // The half that does not touch (the same number for a
                    // double), chosen without branching.
                    let other = tile[0] ^ tile[1] ^ matched;
                    let kind = if double { Kind::Double } else { Kind::Plain };
                    self.set(id, other, kind, other << u8::from(double));
                }
                let sides_covered = self.kinds[0] != Kind::SpinnerSide && self.kinds[1] != Kind::SpinnerSide;
                if let Some(spinner) = self.spinner
                    && sides_covered
                    && self.kinds[2] == Kind::Closed
                {
                    // Short ends count nothing until a tile is played on them.
                    self.set(2, spinner, Kind::ShortEnd, 0);
                    self.set(3, spinner, Kind::ShortEnd, 0);
                }
            }
        }
        let [a, b, c, d] = self.sets;
        self.playable = a.or(b).or(c).or(d);
        self.tiles += 1;
        points_for(self.count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counting ends as `(id, pips, counts)`.
    fn ends(layout: &Layout) -> Vec<(u8, u8, u32)> {
        layout.ends().iter().map(|e| (e.id, e.pips, e.counts)).collect()
    }

    /// Plays and checks the ends, the total and the points, as in a row of
    /// the worked-examples table.
    fn step(layout: &mut Layout, tile: Tile, end: Option<u8>, want_ends: &[(u8, u8, u32)], total: u32, points: u32) {
        assert_eq!(layout.points_after(tile, end), points, "{tile:?} on {end:?} (preview)");
        assert_eq!(layout.play(tile, end), points, "{tile:?} on {end:?}");
        assert_eq!(ends(layout), want_ends, "{tile:?} on {end:?}");
        assert_eq!(layout.count(), total, "{tile:?} on {end:?}");
    }

    #[test]
    fn worked_example_spinner_lead() {
        let mut l = Layout::default();
        // lead 5-5 (spinner): 5-5* = 10, scores 10
        step(&mut l, [5, 5], None, &[(0, 5, 5), (1, 5, 5)], 10, 10);
        // 5-3 on one side: 3, 5-5* (open side) = 13, nothing
        step(&mut l, [3, 5], Some(0), &[(0, 3, 3), (1, 5, 10)], 13, 0);
        // 5-2 on the other side: 3, 2 = 5, and the short ends open (counting nothing)
        step(&mut l, [2, 5], Some(1), &[(0, 3, 3), (1, 2, 2), (2, 5, 0), (3, 5, 0)], 5, 5);
        // 5-0 on a short end: 3, 2, 0 = 5
        step(&mut l, [0, 5], Some(2), &[(0, 3, 3), (1, 2, 2), (2, 0, 0), (3, 5, 0)], 5, 5);
        // 5-6 on the last short end: 3, 2, 0, 6 = 11
        step(&mut l, [5, 6], Some(3), &[(0, 3, 3), (1, 2, 2), (2, 0, 0), (3, 6, 6)], 11, 0);
        assert_eq!(l.tiles(), 5);
    }

    #[test]
    fn worked_example_spinner_played_onto_a_line() {
        let mut l = Layout::default();
        // lead 6-4: 6, 4 = 10
        step(&mut l, [4, 6], None, &[(0, 4, 4), (1, 6, 6)], 10, 10);
        // 4-4 on the 4: the spinner, one side covered: 6, 4-4* = 14
        step(&mut l, [4, 4], Some(0), &[(0, 4, 8), (1, 6, 6)], 14, 0);
        assert!(!l.fits([4, 1], Some(2)), "short ends closed with one side covered");
        // 4-1 on the spinner's open side: 6, 1 = 7, short ends open
        step(&mut l, [1, 4], Some(0), &[(0, 1, 1), (1, 6, 6), (2, 4, 0), (3, 4, 0)], 7, 0);
        // 4-3 on a short end: 6, 1, 3 = 10
        step(&mut l, [3, 4], Some(2), &[(0, 1, 1), (1, 6, 6), (2, 3, 3), (3, 4, 0)], 10, 10);
        // 6-6 on the 6, a plain crosswise double: 6-6*, 1, 3 = 16
        step(&mut l, [6, 6], Some(1), &[(0, 1, 1), (1, 6, 12), (2, 3, 3), (3, 4, 0)], 16, 0);
        // 6-2 on the 6-6: 2, 1, 3 = 6
        step(&mut l, [2, 6], Some(1), &[(0, 1, 1), (1, 2, 2), (2, 3, 3), (3, 4, 0)], 6, 0);
    }

    #[test]
    fn lead_scores() {
        for (lead, points) in [([4, 6], 10), ([5, 5], 10), ([2, 3], 5), ([0, 0], 0), ([1, 2], 0)] {
            assert_eq!(Layout::default().play(lead, None), points, "{lead:?}");
        }
    }

    #[test]
    fn spinner_counts_with_zero_one_and_two_sides_covered() {
        let mut l = Layout::default();
        l.play([6, 6], None);
        // No side covered: lone spinner, counted once across both sides.
        assert_eq!(ends(&l), [(0, 6, 6), (1, 6, 6)]);
        assert_eq!(l.count(), 12);
        assert!(!l.fits([6, 1], Some(2)) && !l.fits([6, 1], Some(3)));
        // One side covered: the open side counts the whole spinner.
        l.play([1, 6], Some(1));
        assert_eq!(ends(&l), [(0, 6, 12), (1, 1, 1)]);
        assert!(!l.fits([6, 2], Some(2)));
        // Both sides covered: the spinner counts nothing, short ends open at 0.
        l.play([2, 6], Some(0));
        assert_eq!(ends(&l), [(0, 2, 2), (1, 1, 1), (2, 6, 0), (3, 6, 0)]);
        assert_eq!(l.count(), 3);
        assert!(l.fits([3, 6], Some(2)) && l.fits([3, 6], Some(3)));
    }

    #[test]
    fn a_later_double_is_not_a_spinner() {
        let mut l = Layout::default();
        l.play([5, 5], None);
        l.play([3, 5], Some(0));
        // A second double, on the line before the spinner's sides are covered.
        assert_eq!(l.play([3, 3], Some(0)), 0);
        assert_eq!(ends(&l), [(0, 3, 6), (1, 5, 10)]);
        // Playing past it does not open anything.
        l.play([1, 3], Some(0));
        assert_eq!(ends(&l), [(0, 1, 1), (1, 5, 10)]);
        // Covering the spinner's remaining side opens its short ends.
        l.play([5, 4], Some(1));
        assert_eq!(ends(&l), [(0, 1, 1), (1, 4, 4), (2, 5, 0), (3, 5, 0)]);
        // A double on a short end is plain too.
        l.play([5, 2], Some(2));
        assert_eq!(l.play([2, 2], Some(2)), 0);
        assert_eq!(ends(&l), [(0, 1, 1), (1, 4, 4), (2, 2, 4), (3, 5, 0)]);
        assert_eq!(l.count(), 9);
    }

    #[test]
    fn a_double_on_a_line_without_a_spinner_becomes_the_spinner() {
        let mut l = Layout::default();
        l.play([1, 2], None);
        l.play([2, 3], Some(1));
        assert_eq!(l.play([3, 3], Some(1)), 0);
        assert_eq!(ends(&l), [(0, 1, 1), (1, 3, 6)]);
        assert_eq!(l.play([3, 4], Some(1)), 5);
        assert_eq!(ends(&l), [(0, 1, 1), (1, 4, 4), (2, 3, 0), (3, 3, 0)]);
        // A later double elsewhere stays plain and opens nothing more.
        l.play([1, 1], Some(0));
        assert_eq!(ends(&l), [(0, 1, 2), (1, 4, 4), (2, 3, 0), (3, 3, 0)]);
    }

    #[test]
    fn fits_checks_the_end() {
        let mut l = Layout::default();
        assert!(l.fits([1, 2], None) && !l.fits([1, 2], Some(0)));
        assert!(l.accepts([1, 2]));
        l.play([1, 2], None);
        assert!(!l.fits([1, 3], None));
        assert!(l.fits([1, 3], Some(0)) && !l.fits([1, 3], Some(1)));
        assert!(l.fits([2, 3], Some(1)) && !l.fits([2, 3], Some(0)));
        assert!(!l.fits([1, 3], Some(2)) && !l.fits([1, 3], Some(9)));
        assert!(l.accepts([0, 1]) && !l.accepts([0, 3]));
    }

    #[test]
    fn points_for_positive_multiples_of_five() {
        assert_eq!(points_for(0), 0);
        assert_eq!(points_for(5), 5);
        assert_eq!(points_for(7), 0);
        assert_eq!(points_for(20), 20);
    }
}
