//! Shuffling and dealing, reproducibly from a game's seed.
//!
//! # The exact procedure
//!
//! Another program can reproduce every deal from this description:
//!
//! 1. Hand `h` (numbered from 1) of a game with seed `S` (a `u64`) uses its
//!    own generator, the arena's seeded draw ([`game::draw`]) of seed `S` and
//!    stream `h`: ChaCha8 (the ChaCha stream cipher with 8 rounds, as in
//!    `rand_chacha` 0.10's `ChaCha8Rng`), the 32-byte key `S` as 8
//!    little-endian bytes followed by 24 zero bytes, the 64-bit stream number
//!    (nonce) `h`, output from word position 0 (block counter 0).
//!    `next_u32` returns the keystream's 32-bit little-endian words in order.
//! 2. `below(n)` (for `n >= 1`): let `zone = (2^32 / n) * n`, computed in 64
//!    bits (the largest multiple of `n` not above `2^32`). Draw
//!    `x = next_u32()`; if `x < zone` return `x % n`, otherwise draw again.
//! 3. The shuffle starts from the canonical order
//!    ([`CANONICAL`]: `[0,0], [0,1], …, [6,6]`) and,
//!    for `i` from 27 down to 1, swaps positions `i` and `below(i + 1)`.
//! 4. With hand size `H`, seat `s` receives positions `s*H .. (s+1)*H` of the
//!    shuffled set; the remaining positions, in order, are the boneyard, drawn
//!    from the front.
//! 5. Right after the shuffle, `below(players)` is drawn from the same
//!    generator: it is the seat that leads if the rules call for a random
//!    leader (hand 1, and any hand after a blocked hand). It is drawn for
//!    every hand, so it never changes the tiles dealt.
//!
//! Since each hand has its own stream, hand `h`'s deal depends only on `S`
//! and `h` — never on how earlier hands were played.

use super::tiles::{self, CANONICAL, SET_SIZE, TileSet};
use crate::wire::Tile;
use game::draw::Draw;
use serde::{Deserialize, Serialize};

/// The set shuffled by `draw`: canonical order, then for `i` from 27 down
/// to 1, swap positions `i` and `below(i + 1)`.
fn shuffled(draw: &mut Draw) -> [Tile; SET_SIZE] {
    shuffled_indices(draw).map(|i| CANONICAL[usize::from(i)])
}

/// [`shuffled`] with each tile given by its position in [`CANONICAL`].
fn shuffled_indices(draw: &mut Draw) -> [u8; SET_SIZE] {
    let mut set: [u8; SET_SIZE] = std::array::from_fn(|i| i as u8);
    draw.shuffle(&mut set);
    set
}

/// The tiles of one hand as dealt, and the seat to lead if the rules call for
/// a random leader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// Each seat's tiles.
    pub hands: Vec<Vec<Tile>>,
    /// The boneyard in draw order: the first tile is drawn first.
    pub boneyard: Vec<Tile>,
    /// The seat that leads when the leader is chosen at random (hand 1 and
    /// any hand after a blocked hand); otherwise the player who went out leads.
    pub leader: usize,
}

impl Deal {
    /// The deal of hand `hand` (from 1) of the game with seed `seed`, exactly
    /// as the [module documentation](self) describes. Hands are given in deal
    /// order (not sorted).
    ///
    /// # Panics
    /// If `players` is 0 or `players * hand_size` exceeds 28.
    pub fn seeded(seed: u64, hand: u32, players: usize, hand_size: usize) -> Deal {
        assert!(players > 0 && players * hand_size <= SET_SIZE, "impossible deal");
        let mut rng = Draw::new(seed, u64::from(hand));
        let set = shuffled(&mut rng);
        let leader = rng.below(players as u32) as usize;
        let hands = set.chunks(hand_size).take(players).map(<[Tile]>::to_vec).collect();
        let boneyard = set[players * hand_size..].to_vec();
        Deal { hands, boneyard, leader }
    }

    /// The same deal with every tile written smaller half first and every hand
    /// sorted in canonical order (the boneyard keeps its order).
    pub fn normalized(&self) -> Deal {
        let hands = self
            .hands
            .iter()
            .map(|hand| {
                let mut hand: Vec<Tile> = hand.iter().copied().map(tiles::normalize).collect();
                hand.sort_unstable();
                hand
            })
            .collect();
        let boneyard = self.boneyard.iter().copied().map(tiles::normalize).collect();
        Deal { hands, boneyard, leader: self.leader }
    }

    /// Checks that the deal fits a game of `players`: one non-empty hand per
    /// seat, each of `hand_size` tiles when given, the leader a seat, and the
    /// hands and boneyard together holding each of the 28 tiles exactly once
    /// (in either orientation).
    pub fn check(&self, players: usize, hand_size: Option<usize>) -> Result<(), DealError> {
        if self.hands.len() != players {
            return Err(DealError(format!("{} hands dealt for {players} players", self.hands.len())));
        }
        for (seat, hand) in self.hands.iter().enumerate() {
            if hand.is_empty() {
                return Err(DealError(format!("seat {seat} is dealt no tiles")));
            }
            if let Some(size) = hand_size
                && hand.len() != size
            {
                return Err(DealError(format!("seat {seat} is dealt {} tiles, the variant deals {size}", hand.len())));
            }
        }
        if self.leader >= players {
            return Err(DealError(format!("leader {} is not a seat of a {players}-player game", self.leader)));
        }
        let mut seen = [false; SET_SIZE];
        for &tile in self.hands.iter().flatten().chain(&self.boneyard) {
            let Some(i) = tiles::index(tiles::normalize(tile)) else {
                return Err(DealError(format!("{tile:?} is not a double-six tile")));
            };
            if std::mem::replace(&mut seen[i], true) {
                return Err(DealError(format!("{tile:?} is dealt twice")));
            }
        }
        if let Some(i) = seen.iter().position(|&s| !s) {
            return Err(DealError(format!("{:?} is missing from the deal", CANONICAL[i])));
        }
        Ok(())
    }
}

/// The most seats at a table.
pub(crate) const MAX_SEATS: usize = 4;

/// The boneyard of a hand: tiles by canonical index, in draw order, and how
/// many have been drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Boneyard {
    /// The tiles as dealt, first drawn first; only `..end` are used.
    tiles: [u8; SET_SIZE],
    /// How many tiles have been drawn: the position of the next one.
    next: u8,
    /// How many tiles were dealt to it.
    end: u8,
}

impl Boneyard {
    /// A boneyard of these tiles (canonical indices), none drawn yet.
    pub(crate) fn new(tiles: &[u8]) -> Boneyard {
        let mut all = [0; SET_SIZE];
        all[..tiles.len()].copy_from_slice(tiles);
        Boneyard { tiles: all, next: 0, end: tiles.len() as u8 }
    }

    /// How many tiles are left in it.
    pub(crate) fn len(&self) -> usize {
        usize::from(self.end - self.next)
    }

    /// How many tiles have been drawn from it.
    pub(crate) fn drawn(&self) -> u8 {
        self.next
    }

    /// Draws the next tile.
    pub(crate) fn pop_front(&mut self) -> Option<u8> {
        (self.next < self.end).then(|| {
            self.next += 1;
            self.tiles[usize::from(self.next - 1)]
        })
    }

    /// The tiles left, in draw order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = &'static Tile> {
        self.tiles[usize::from(self.next)..usize::from(self.end)].iter().map(|&i| &CANONICAL[usize::from(i)])
    }

    /// The `count` tiles dealt to it from position `from` on (whether drawn yet or not).
    pub(crate) fn dealt(&self, from: u8, count: u8) -> Vec<Tile> {
        self.tiles[usize::from(from)..usize::from(from + count)].iter().map(|&i| CANONICAL[usize::from(i)]).collect()
    }

    /// Every tile dealt to it, in draw order.
    pub(crate) fn all(&self) -> Vec<Tile> {
        self.dealt(0, self.end)
    }
}

/// A deal as the engine keeps it: hands as tile sets, the boneyard by
/// canonical indices. Holds what [`Deal::normalized`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PackedDeal {
    /// Each seat's tiles (unused seats empty).
    pub(crate) hands: [TileSet; MAX_SEATS],
    /// The boneyard, nothing drawn.
    pub(crate) boneyard: Boneyard,
    /// The seat that leads when the leader is chosen at random.
    pub(crate) leader: u8,
}

impl PackedDeal {
    /// `Deal::seeded(seed, hand, players, hand_size).normalized()`, packed,
    /// without allocating.
    ///
    /// # Panics
    /// If `players` is not a seat count or `players * hand_size` exceeds 28.
    pub(crate) fn seeded(seed: u64, hand: u32, players: usize, hand_size: usize) -> PackedDeal {
        assert!((1..=MAX_SEATS).contains(&players) && players * hand_size <= SET_SIZE, "impossible deal");
        let mut rng = Draw::new(seed, u64::from(hand));
        let set = shuffled_indices(&mut rng);
        let leader = rng.below(players as u32) as u8;
        let mut hands = [TileSet::EMPTY; MAX_SEATS];
        for (hand, tiles) in hands.iter_mut().zip(set.chunks(hand_size)).take(players) {
            tiles.iter().for_each(|&tile| hand.insert(tile));
        }
        PackedDeal { hands, boneyard: Boneyard::new(&set[players * hand_size..]), leader }
    }
}

impl Deal {
    /// The deal packed for the engine.
    ///
    /// # Panics
    /// If it is not [normalized](Deal::normalized) or has more than four hands.
    pub(crate) fn packed(&self) -> PackedDeal {
        assert!(self.hands.len() <= MAX_SEATS, "too many hands");
        let mut hands = [TileSet::EMPTY; MAX_SEATS];
        for (set, hand) in hands.iter_mut().zip(&self.hands) {
            *set = TileSet::of(hand);
        }
        let boneyard: Vec<u8> =
            self.boneyard.iter().map(|&t| tiles::index(t).expect("a normalized tile") as u8).collect();
        PackedDeal { hands, boneyard: Boneyard::new(&boneyard), leader: self.leader as u8 }
    }
}

/// A deal (or a list of deals) that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DealError(pub String);

impl std::fmt::Display for DealError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DealError {}

impl Deal {
    /// A deal of these hands, `leader` leading, whose boneyard is `front`
    /// followed by every other tile in canonical order: a hand-built position.
    pub fn stacked(hands: &[&[Tile]], front: &[Tile], leader: usize) -> Deal {
        let used: Vec<Tile> = hands.iter().flat_map(|h| h.iter()).chain(front).copied().collect();
        let mut boneyard = front.to_vec();
        boneyard.extend(CANONICAL.iter().filter(|t| !used.contains(t)));
        Deal { hands: hands.iter().map(|h| h.to_vec()).collect(), boneyard, leader }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{DealSize, HandEndRule, Variant};

    #[test]
    fn a_shuffle_is_a_permutation() {
        let mut set = shuffled(&mut Draw::new(3, 9)).to_vec();
        assert_ne!(set, CANONICAL.to_vec());
        set.sort_unstable();
        assert_eq!(set, CANONICAL.to_vec());
    }

    #[test]
    fn hand_sizes_per_deal_and_player_count() {
        let table = [(DealSize::Standard, [9, 7, 5]), (DealSize::Five, [5, 5, 5]), (DealSize::SevenFive, [7, 5, 5])];
        for (deal, sizes) in table {
            for (players, size) in (2..=4).zip(sizes) {
                let variant = Variant {
                    players,
                    partners: false,
                    deal,
                    boneyard_keep: 0,
                    hand_end: HandEndRule::SubtractOwn,
                    target: 250,
                    max_hands: 100,
                };
                let d = Deal::seeded(11, 1, players, variant.hand_size());
                assert_eq!(d.hands.len(), players);
                assert!(d.hands.iter().all(|h| h.len() == size), "{deal:?} {players}");
                assert_eq!(d.boneyard.len(), 28 - players * size);
                assert!(d.leader < players);
                d.check(players, Some(size)).unwrap();
            }
        }
    }

    /// Locks the dealing procedure: seed 42, 2 players, hand 1 (9 tiles each).
    /// These values were also reproduced by an independent ChaCha8
    /// implementation following the module documentation.
    #[test]
    fn golden_deal_seed_42() {
        let d = Deal::seeded(42, 1, 2, 9);
        assert_eq!(d.hands[0], GOLDEN_SEAT0.to_vec());
        assert_eq!(d.hands[1], GOLDEN_SEAT1.to_vec());
        assert_eq!(d.boneyard, GOLDEN_BONEYARD.to_vec());
        assert_eq!(d.leader, GOLDEN_LEADER);
    }

    const GOLDEN_SEAT0: [Tile; 9] = [[3, 6], [0, 3], [1, 4], [2, 3], [0, 1], [3, 5], [1, 2], [4, 6], [6, 6]];
    const GOLDEN_SEAT1: [Tile; 9] = [[1, 5], [1, 6], [4, 5], [1, 1], [0, 0], [1, 3], [5, 6], [2, 2], [3, 3]];
    const GOLDEN_BONEYARD: [Tile; 10] =
        [[0, 6], [2, 6], [0, 5], [0, 4], [2, 5], [0, 2], [2, 4], [5, 5], [3, 4], [4, 4]];
    const GOLDEN_LEADER: usize = 0;

    /// A later hand (stream 5) of a 3-player game, also reproduced independently.
    #[test]
    fn golden_deal_seed_2024_hand_5() {
        let d = Deal::seeded(2024, 5, 3, 7);
        let hands: [[Tile; 7]; 3] = [
            [[0, 3], [4, 5], [4, 4], [3, 6], [1, 4], [2, 5], [0, 4]],
            [[0, 2], [1, 2], [3, 3], [4, 6], [3, 5], [5, 5], [5, 6]],
            [[3, 4], [2, 4], [1, 1], [0, 0], [2, 3], [0, 1], [1, 5]],
        ];
        assert_eq!(d.hands, hands.map(|h| h.to_vec()).to_vec());
        assert_eq!(d.boneyard, [[6, 6], [0, 5], [0, 6], [1, 6], [2, 2], [1, 3], [2, 6]]);
        assert_eq!(d.leader, 2);
    }

    #[test]
    fn packed_seeded_deals_are_the_normalized_deals() {
        for seed in [0, 1, 42, 2024, u64::MAX] {
            for hand in [1, 2, 5, 100] {
                for (players, size) in [(2, 9), (2, 7), (2, 5), (3, 7), (3, 5), (4, 5)] {
                    let deal = Deal::seeded(seed, hand, players, size).normalized();
                    let packed = PackedDeal::seeded(seed, hand, players, size);
                    assert_eq!(packed, deal.packed(), "{seed} {hand} {players}");
                    assert_eq!(packed.hands[..players], deal.hands[..]);
                    assert!(packed.hands[players..].iter().all(|h| h.is_empty()));
                    assert_eq!(packed.boneyard.all(), deal.boneyard);
                    assert_eq!(usize::from(packed.leader), deal.leader);
                }
            }
        }
    }

    #[test]
    fn a_boneyard_is_drawn_from_the_front() {
        let mut boneyard = Deal::seeded(42, 1, 2, 9).packed().boneyard;
        assert_eq!(boneyard.iter().copied().collect::<Vec<_>>(), GOLDEN_BONEYARD);
        assert_eq!((boneyard.len(), boneyard.drawn()), (10, 0));
        assert_eq!(boneyard.pop_front().map(|i| CANONICAL[usize::from(i)]), Some([0, 6]));
        assert_eq!(boneyard.pop_front().map(|i| CANONICAL[usize::from(i)]), Some([2, 6]));
        assert_eq!((boneyard.len(), boneyard.drawn()), (8, 2));
        assert_eq!(boneyard.iter().copied().collect::<Vec<_>>(), GOLDEN_BONEYARD[2..]);
        assert_eq!(boneyard.dealt(1, 2), GOLDEN_BONEYARD[1..3]);
        assert_eq!(boneyard.all(), GOLDEN_BONEYARD);
        while boneyard.pop_front().is_some() {}
        assert_eq!((boneyard.len(), boneyard.iter().count()), (0, 0));
    }

    #[test]
    fn deals_from_a_later_hand_do_not_depend_on_earlier_ones() {
        assert_eq!(Deal::seeded(5, 3, 3, 7), Deal::seeded(5, 3, 3, 7));
        assert_ne!(Deal::seeded(5, 3, 3, 7), Deal::seeded(5, 4, 3, 7));
    }

    #[test]
    fn check_rejects_bad_deals() {
        let good = Deal::seeded(1, 1, 2, 9);
        assert_eq!(good.check(2, Some(9)), Ok(()));
        assert!(good.check(3, None).unwrap_err().0.contains("2 hands"));
        assert!(good.check(2, Some(7)).unwrap_err().0.contains("variant deals 7"));
        let mut twice = good.clone();
        twice.boneyard[0] = twice.hands[0][0];
        assert!(twice.check(2, None).unwrap_err().0.contains("twice"));
        let mut missing = good.clone();
        missing.boneyard.pop();
        assert!(missing.check(2, None).unwrap_err().0.contains("missing"));
        let mut leader = good.clone();
        leader.leader = 2;
        assert!(leader.check(2, None).unwrap_err().0.contains("leader"));
        let mut flipped = good.clone();
        flipped.hands[1][0] = [flipped.hands[1][0][1], flipped.hands[1][0][0]];
        assert_eq!(flipped.check(2, None), Ok(()));
        let mut bad = good;
        bad.boneyard[0] = [0, 7];
        assert!(bad.check(2, None).unwrap_err().0.contains("not a double-six"));
    }
}
