//! Determinizations: guesses of every hidden tile (the other hands and the
//! boneyard's order) that agree with everything the seat was told.

use crate::knowledge::{Knowledge, numbers};
use all_fives::Midhand;
use all_fives::tiles::{CANONICAL, SET_SIZE, index, normalize};
use all_fives::wire::{State, Tile};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Everything a guess is drawn from: the seat's own view of the position.
#[derive(Debug, Clone)]
pub struct Seen<'a> {
    /// The seat to act (the one that guesses).
    pub seat: usize,
    /// What it knows of the hand.
    pub knowledge: &'a Knowledge,
    /// What the `turn` says.
    pub state: &'a State,
}

/// A place a hidden tile may go: a seat (with the numbers its tiles there
/// cannot show), or the boneyard.
#[derive(Debug, Clone, Copy)]
struct Slot {
    /// The seat, `None` for the boneyard.
    seat: Option<usize>,
    /// The tiles (bit `i` for `CANONICAL[i]`) that may go there.
    allowed: u32,
}

/// The tiles not in the seat's hand and not played, as bits.
fn unseen(seen: &Seen) -> u32 {
    let known = seen.state.hand.iter().chain(seen.knowledge.played.iter().map(|play| &play.tile));
    known.fold((1 << SET_SIZE) - 1, |bits, &tile| bits & !(1 << tile_index(tile)))
}

/// The canonical index of a tile named either way round.
fn tile_index(tile: Tile) -> usize {
    index(normalize(tile)).expect("the arena names only real tiles")
}

/// The tiles of the set showing none of the numbers in `voids`.
fn avoiding(voids: u8) -> u32 {
    (0..SET_SIZE).filter(|&i| numbers(CANONICAL[i]) & voids == 0).fold(0, |bits, i| bits | 1 << i)
}

/// One slot per hidden tile: the other seats' groups, then the boneyard.
/// `None` when the knowledge does not add up to the turn's hand sizes and
/// boneyard (events were missed); then the guess ignores the voids.
fn slots(seen: &Seen, honour_voids: bool) -> Option<Vec<Slot>> {
    let pool = unseen(seen);
    let mut slots = Vec::with_capacity(SET_SIZE);
    for (seat, &size) in seen.state.hand_sizes.iter().enumerate() {
        if seat == seen.seat {
            continue;
        }
        if honour_voids {
            if seen.knowledge.hidden(seat) != size {
                return None;
            }
            for group in &seen.knowledge.groups[seat] {
                let allowed = pool & avoiding(group.voids);
                slots.extend(std::iter::repeat_n(Slot { seat: Some(seat), allowed }, group.count));
            }
        } else {
            slots.extend(std::iter::repeat_n(Slot { seat: Some(seat), allowed: pool }, size));
        }
    }
    slots.extend(std::iter::repeat_n(Slot { seat: None, allowed: pool }, seen.state.boneyard));
    (slots.len() == pool.count_ones() as usize).then_some(slots)
}

/// Tries to give slot `slot` a tile, moving others along an augmenting path
/// (Kuhn's matching); `order` is the order tiles are tried in.
fn place(
    slot: usize,
    slots: &[Slot],
    order: &[usize],
    holder: &mut [Option<usize>; SET_SIZE],
    tried: &mut u32,
) -> bool {
    for &tile in order {
        if slots[slot].allowed & (1 << tile) == 0 || *tried & (1 << tile) != 0 {
            continue;
        }
        *tried |= 1 << tile;
        let free = match holder[tile] {
            None => true,
            Some(other) => place(other, slots, order, holder, tried),
        };
        if free {
            holder[tile] = Some(slot);
            return true;
        }
    }
    false
}

/// Gives every slot a tile it allows, trying tiles in a random order and
/// the most constrained slots first; `None` if no assignment exists.
fn assign(slots: &[Slot], pool: u32, rng: &mut ChaCha8Rng) -> Option<[Option<usize>; SET_SIZE]> {
    let mut order: Vec<usize> = (0..SET_SIZE).filter(|&i| pool & (1 << i) != 0).collect();
    order.shuffle(rng);
    let mut by_need: Vec<usize> = (0..slots.len()).collect();
    by_need.sort_by_key(|&s| slots[s].allowed.count_ones());
    let mut holder = [None; SET_SIZE];
    for slot in by_need {
        let mut tried = 0;
        if !place(slot, slots, &order, &mut holder, &mut tried) {
            return None;
        }
    }
    Some(holder)
}

/// A guess of every hidden tile that agrees with what the seat was told,
/// set up as a position with the seat to act. If what it was told does not
/// add up (events were missed), the guess honours only the tile counts.
pub fn determinize(seen: &Seen, rng: &mut ChaCha8Rng) -> Midhand {
    let pool = unseen(seen);
    let honoured = slots(seen, true).and_then(|slots| Some((assign(&slots, pool, rng)?, slots)));
    let (holder, slots) = honoured.unwrap_or_else(|| {
        let slots = slots(seen, false).expect("the turn's counts add up");
        (assign(&slots, pool, rng).expect("unconstrained slots always fit"), slots)
    });
    let players = seen.state.hand_sizes.len();
    let mut hands = vec![Vec::new(); players];
    hands[seen.seat] = seen.state.hand.clone();
    let mut boneyard = Vec::new();
    for (tile, slot) in holder.iter().enumerate() {
        match slot.map(|s| slots[s].seat) {
            Some(Some(seat)) => hands[seat].push(CANONICAL[tile]),
            Some(None) => boneyard.push(CANONICAL[tile]),
            None => {}
        }
    }
    boneyard.shuffle(rng);
    Midhand {
        hand: seen.state.hand_number,
        played: seen.knowledge.played.clone(),
        hands,
        boneyard,
        scores: seen.state.scores.clone(),
        to_act: seen.seat,
    }
}
