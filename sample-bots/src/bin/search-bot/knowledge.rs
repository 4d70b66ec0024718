//! What one seat knows of the hand being played, kept up to date from the
//! events it is told: the tiles played (so the layout), and for every other
//! seat the numbers its hidden tiles cannot show.
//!
//! A seat that draws or passes holds no tile matching an open end at that
//! moment, and the tiles it draws before the one it plays do not match
//! either. So a seat's hidden tiles fall into groups by when they came into
//! its hand (the deal, then each draw); each group has a count and a set of
//! numbers none of its tiles shows ("voids"). A group's voids only grow
//! (every later draw or pass adds the open ends of that moment), and an older
//! group's voids hold a newer one's. When a seat plays a tile we cannot tell
//! which group it came from (unless it was the tile just drawn); it is taken
//! from the oldest group it can belong to, which leaves the groups no tighter
//! than the truth, so the real hands always fit the groups.

use all_fives::open_ends;
use all_fives::wire::{Event, Move, Tile};

/// The numbers (0 to 6) a tile shows, as bits.
pub fn numbers(tile: Tile) -> u8 {
    (1 << tile[0]) | (1 << tile[1])
}

/// Some of a seat's hidden tiles: how many, and the numbers none of them shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Group {
    /// How many tiles.
    pub count: usize,
    /// Bit `n` set: none of them shows `n`.
    pub voids: u8,
}

/// What a seat knows of the current hand, besides its own tiles (which every
/// `turn` lists).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Knowledge {
    /// The seat that knows.
    seat: usize,
    /// The hand's number, from 1 (0 before the first hand).
    pub hand: u32,
    /// The tiles played in this hand, in order, with their ends.
    pub played: Vec<Move>,
    /// For each seat, its hidden tiles by group, oldest first (empty for `seat`).
    pub groups: Vec<Vec<Group>>,
    /// The seat whose draw was the last event, if the last event was a draw.
    drew: Option<usize>,
}

impl Knowledge {
    /// Nothing known yet, for `seat`.
    pub fn new(seat: usize) -> Knowledge {
        Knowledge { seat, ..Knowledge::default() }
    }

    /// The numbers shown by the open ends now.
    fn open_numbers(&self) -> u8 {
        // The plays came from the arena, which checked them: they fit.
        open_ends(&self.played).map(|ends| ends.iter().fold(0, |bits, end| bits | 1 << end.pips)).unwrap_or(0)
    }

    /// Takes in one event.
    pub fn observe(&mut self, event: &Event) {
        let drew = self.drew.take();
        match event {
            Event::HandStart(start) => {
                self.hand = start.hand;
                self.played.clear();
                self.groups = start
                    .hand_sizes
                    .iter()
                    .enumerate()
                    .map(|(seat, &count)| if seat == self.seat { Vec::new() } else { vec![Group { count, voids: 0 }] })
                    .collect();
            }
            Event::Play(play) => {
                if play.seat != self.seat
                    && let Some(groups) = self.groups.get_mut(play.seat)
                {
                    let bits = numbers(play.tile);
                    let from = if drew == Some(play.seat) {
                        // The tile just drawn: the only playable one.
                        groups.len().checked_sub(1)
                    } else {
                        groups.iter().position(|g| g.count > 0 && g.voids & bits == 0)
                    };
                    if let Some(i) = from.or_else(|| groups.iter().rposition(|g| g.count > 0)) {
                        groups[i].count = groups[i].count.saturating_sub(1);
                    }
                    groups.retain(|g| g.count > 0);
                }
                self.played.push(Move { tile: play.tile, end: play.end });
            }
            Event::Draw(draw) => {
                if draw.seat != self.seat {
                    let open = self.open_numbers();
                    if let Some(groups) = self.groups.get_mut(draw.seat) {
                        groups.iter_mut().for_each(|g| g.voids |= open);
                        groups.push(Group { count: draw.count, voids: open });
                    }
                }
                self.drew = Some(draw.seat);
            }
            Event::Pass(pass) => {
                if pass.seat != self.seat {
                    let open = self.open_numbers();
                    if let Some(groups) = self.groups.get_mut(pass.seat) {
                        groups.iter_mut().for_each(|g| g.voids |= open);
                    }
                }
            }
            Event::HandEnd(_) => {}
        }
    }

    /// How many hidden tiles the groups of `seat` hold.
    pub fn hidden(&self, seat: usize) -> usize {
        self.groups.get(seat).map_or(0, |groups| groups.iter().map(|g| g.count).sum())
    }
}
