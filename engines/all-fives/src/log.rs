//! The game record, kept compactly while the game is played.
//!
//! Playing appends a few bytes per event ([`Entry`]) and one [`HandLog`] per
//! hand (the deal, the scores it started from and how it ended). The record
//! events of the [`Game`](game::Game) interface, with their score lists
//! and tile lists, are built from these only when they are asked for
//! ([`Log::events_since`]), so that playing never allocates per move.

use super::deal::{MAX_SEATS, PackedDeal};
use super::tiles::{CANONICAL, TileSet};
use super::{Dealt, Event};
use crate::wire::{Draw, HandEnd, HandOver, Pass, Play};

/// One event of the record, as kept. Seats and tiles (canonical indices) are
/// bytes; what an event shares with its hand lives in the [`HandLog`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// The next hand was dealt.
    HandStart,
    /// `seat` played `tile` on `end`, scoring `points`.
    Play { seat: u8, tile: u8, end: Option<u8>, points: u8 },
    /// `seat` drew `count` tiles, the boneyard's from position `from` on.
    Draw { seat: u8, from: u8, count: u8 },
    /// `seat` passed.
    Pass { seat: u8 },
    /// The current hand ended.
    HandEnd,
}

/// Scores by side (sides beyond the game's are 0).
pub(crate) type SideScores = [i64; MAX_SEATS];

/// How a hand ended, as kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ending {
    /// Why.
    pub(crate) reason: HandOver,
    /// The seat that went out, if one did.
    pub(crate) out: Option<u8>,
    /// The tiles left in each hand.
    pub(crate) hands: [TileSet; MAX_SEATS],
    /// Each side's score change from settling.
    pub(crate) changes: SideScores,
}

/// One hand of the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HandLog {
    /// Its number, from 1.
    pub(crate) hand: u32,
    /// The seat that led.
    pub(crate) leader: u8,
    /// The index of its [`Entry::HandStart`].
    pub(crate) first: usize,
    /// The tiles as dealt.
    pub(crate) deal: PackedDeal,
    /// Each side's score when it started.
    pub(crate) scores: SideScores,
    /// How it ended, once it has.
    pub(crate) ending: Option<Ending>,
}

/// The whole record of a game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Log {
    /// Every event, in order.
    entries: Vec<Entry>,
    /// Every hand, in order.
    hands: Vec<HandLog>,
}

impl Log {
    /// An empty record with room for a typical game.
    pub(crate) fn new() -> Log {
        Log { entries: Vec::with_capacity(512), hands: Vec::with_capacity(32) }
    }

    /// How many events it holds.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Appends an event other than a hand's start or end.
    pub(crate) fn push(&mut self, entry: Entry) {
        debug_assert!(!matches!(entry, Entry::HandStart | Entry::HandEnd), "use start_hand and end_hand");
        self.entries.push(entry);
    }

    /// Appends the start of hand `hand`.
    pub(crate) fn start_hand(&mut self, hand: u32, leader: u8, deal: PackedDeal, scores: SideScores) {
        self.hands.push(HandLog { hand, leader, first: self.entries.len(), deal, scores, ending: None });
        self.entries.push(Entry::HandStart);
    }

    /// Appends the end of the current hand.
    pub(crate) fn end_hand(&mut self, ending: Ending) {
        let current = self.hands.last_mut().expect("a hand was started");
        current.ending = Some(ending);
        self.entries.push(Entry::HandEnd);
    }

    /// The record events from index `start` on, built from the entries;
    /// `side_of[seat]` is each seat's side.
    pub(crate) fn events_since(&self, start: usize, side_of: &[usize]) -> Vec<Event> {
        let mut out = Vec::with_capacity(self.entries.len().saturating_sub(start));
        if start >= self.entries.len() {
            return out;
        }
        // Replay from the start of the hand holding `start`, for the scores.
        let first_hand = self.hands.partition_point(|h| h.first <= start) - 1;
        let mut next_hand = first_hand;
        let mut current = &self.hands[first_hand];
        let mut scores = current.scores;
        let seat_scores = |scores: &SideScores| side_of.iter().map(|&side| scores[side]).collect::<Vec<i64>>();
        let players = side_of.len();
        let hands = |sets: &[TileSet; MAX_SEATS]| sets[..players].iter().map(|h| h.to_vec()).collect::<Vec<_>>();
        for (index, &entry) in self.entries.iter().enumerate().skip(current.first) {
            let wanted = index >= start;
            let event = match entry {
                Entry::HandStart => {
                    current = &self.hands[next_hand];
                    next_hand += 1;
                    scores = current.scores;
                    wanted.then(|| {
                        Event::HandStart(Dealt {
                            hand: current.hand,
                            leader: usize::from(current.leader),
                            hands: hands(&current.deal.hands),
                            boneyard: current.deal.boneyard.all(),
                            scores: seat_scores(&scores),
                        })
                    })
                }
                Entry::Play { seat, tile, end, points } => {
                    scores[side_of[usize::from(seat)]] += i64::from(points);
                    wanted.then(|| {
                        Event::Play(Play {
                            seat: usize::from(seat),
                            tile: CANONICAL[usize::from(tile)],
                            end,
                            points: u32::from(points),
                            scores: seat_scores(&scores),
                        })
                    })
                }
                Entry::Draw { seat, from, count } => wanted.then(|| {
                    Event::Draw(Draw {
                        seat: usize::from(seat),
                        count: usize::from(count),
                        tiles: Some(current.deal.boneyard.dealt(from, count)),
                    })
                }),
                Entry::Pass { seat } => wanted.then_some(Event::Pass(Pass { seat: usize::from(seat) })),
                Entry::HandEnd => {
                    let ending = current.ending.expect("an ended hand has its ending");
                    for (score, change) in scores.iter_mut().zip(ending.changes) {
                        *score += change;
                    }
                    wanted.then(|| {
                        Event::HandEnd(HandEnd {
                            hand: current.hand,
                            reason: ending.reason,
                            out: ending.out.map(usize::from),
                            hands: hands(&ending.hands),
                            pips: ending.hands[..players].iter().map(|h| h.pips()).collect(),
                            changes: seat_scores(&ending.changes),
                            scores: seat_scores(&scores),
                        })
                    })
                }
            };
            out.extend(event);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::AllFives;
    use crate::wire::Variant;
    use game::Game;

    fn variant(players: usize, keep: usize) -> Variant {
        let settings =
            [("players", players.to_string()), ("boneyard_keep", keep.to_string()), ("max_hands", "4".into())];
        let settings: Vec<(String, String)> = settings.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        AllFives::parse_variant(&settings).unwrap()
    }

    /// The events since any point are the tail of all the events, at every
    /// point of a game: what the arena relies on to deliver events as they come.
    #[test]
    fn events_since_is_the_tail_of_events() {
        for (players, seed) in [(2, 1), (3, 2), (4, 3), (2, 4), (4, 5)] {
            let mut game = AllFives::new(&variant(players, seed as usize % 3), seed);
            let mut turn = 0;
            loop {
                let all = game.events();
                assert_eq!(all.len(), game.event_count());
                for start in 0..=all.len() + 1 {
                    assert_eq!(game.events_since(start), all[start.min(all.len())..], "seed {seed}, from {start}");
                }
                if game.to_act().is_none() {
                    break;
                }
                game.play(turn * 7 % game.legal_count()).unwrap();
                turn += 1;
            }
            assert!(turn > 20, "a whole game was played");
        }
    }
}
