//! Where every tile is, and every score, rebuilt from the record alone.

use crate::Event;
use crate::wire::{HandEnd, HandEndRule, HandOver, Tile, Variant};
use std::collections::VecDeque;

/// The 28 tiles of a double-six set, smaller half first, in increasing order.
pub(crate) fn full_set() -> Vec<Tile> {
    (0..=6u8).flat_map(|a| (a..=6).map(move |b| [a, b])).collect()
}

/// The state of the game as the events tell it, checked as each is applied.
#[derive(Debug)]
pub(crate) struct Ledger {
    variant: Variant,
    /// Each seat's side.
    side_of: Vec<usize>,
    /// The hand being played (or the last one), from 1; 0 before the first.
    pub hand: u32,
    /// Whether the current hand has not ended yet.
    pub open: bool,
    /// Each seat's tiles, sorted.
    pub hands: Vec<Vec<Tile>>,
    /// The boneyard, drawn from the front.
    pub boneyard: VecDeque<Tile>,
    /// The tiles in the layout, in the order played.
    pub played: Vec<Tile>,
    /// Every seat's score.
    pub scores: Vec<i64>,
    /// How each finished hand ended.
    pub ends: Vec<HandEnd>,
    /// How many events have been applied.
    pub applied: usize,
}

impl Ledger {
    /// A ledger before the first event of a game of `variant`.
    pub fn new(variant: &Variant) -> Self {
        let players = variant.players;
        Ledger {
            variant: variant.clone(),
            side_of: (0..players).map(|seat| if variant.partners { seat % 2 } else { seat }).collect(),
            hand: 0,
            open: false,
            hands: vec![Vec::new(); players],
            boneyard: VecDeque::new(),
            played: Vec::new(),
            scores: vec![0; players],
            ends: Vec::new(),
            applied: 0,
        }
    }

    /// Applies the events not applied yet.
    pub fn catch_up(&mut self, events: &[Event]) {
        assert!(events.len() >= self.applied, "events were removed from the record");
        for (at, event) in events.iter().enumerate().skip(self.applied) {
            self.apply(event, &events[..at]);
            self.applied = at + 1;
            self.check_tiles(at);
        }
    }

    /// Applies one event; `before` is the record up to it.
    fn apply(&mut self, event: &Event, before: &[Event]) {
        let players = self.variant.players;
        match event {
            Event::HandStart(dealt) => {
                assert!(!self.open, "hand {} starts before hand {} ended", dealt.hand, self.hand);
                assert_eq!(dealt.hand, self.hand + 1, "hands are numbered in order");
                assert!(dealt.leader < players, "leader {} of {players} seats", dealt.leader);
                assert_eq!(dealt.hands.len(), players, "one hand per seat");
                let size = self.variant.hand_size();
                for hand in &dealt.hands {
                    assert_eq!(hand.len(), size, "every seat is dealt {size} tiles");
                    assert!(hand.windows(2).all(|w| w[0] < w[1]), "hands are dealt sorted: {hand:?}");
                }
                assert_eq!(dealt.scores, self.scores, "scores carry over into hand {}", dealt.hand);
                if let Some(HandEnd { reason: HandOver::Out, out, .. }) = self.ends.last() {
                    assert_eq!(Some(dealt.leader), *out, "the player who went out leads hand {}", dealt.hand);
                }
                self.hand = dealt.hand;
                self.open = true;
                self.hands = dealt.hands.clone();
                self.boneyard = dealt.boneyard.iter().copied().collect();
                self.played.clear();
            }
            Event::Play(play) => {
                assert!(self.open, "a play outside a hand");
                assert!(play.seat < players, "seat {} plays", play.seat);
                let hand = &mut self.hands[play.seat];
                let at = hand.iter().position(|&t| t == play.tile);
                let at = at.unwrap_or_else(|| panic!("seat {} plays {:?}, not in {hand:?}", play.seat, play.tile));
                hand.remove(at);
                self.played.push(play.tile);
                assert_eq!(play.end.is_none(), self.played.len() == 1, "only the lead has no end");
                assert_eq!(play.points % 5, 0, "points are multiples of five");
                let side = self.side_of[play.seat];
                let expected: Vec<i64> = (0..players)
                    .map(|s| self.scores[s] + if self.side_of[s] == side { i64::from(play.points) } else { 0 })
                    .collect();
                assert_eq!(play.scores, expected, "scores after {play:?}");
                self.scores = expected;
            }
            Event::Draw(draw) => {
                assert!(self.open, "a draw outside a hand");
                assert!(draw.seat < players, "seat {} draws", draw.seat);
                let tiles = draw.tiles.as_ref().expect("the record names the tiles drawn");
                assert!(draw.count >= 1 && draw.count == tiles.len(), "{draw:?}");
                for &tile in tiles {
                    assert_eq!(self.boneyard.pop_front(), Some(tile), "tiles are drawn from the front of the boneyard");
                    let hand = &mut self.hands[draw.seat];
                    let at = hand.binary_search(&tile).expect_err("a drawn tile is not in hand already");
                    hand.insert(at, tile);
                }
                assert!(self.boneyard.len() >= self.variant.boneyard_keep, "{} tiles stay", self.variant.boneyard_keep);
            }
            Event::Pass(pass) => {
                assert!(self.open, "a pass outside a hand");
                assert!(pass.seat < players, "seat {} passes", pass.seat);
            }
            Event::HandEnd(end) => {
                assert!(self.open, "a hand ends twice");
                self.check_hand_end(end, before);
                self.open = false;
                self.scores = end.scores.clone();
                self.ends.push(end.clone());
            }
        }
    }

    /// Checks a hand's end against the ledger and the events before it.
    fn check_hand_end(&self, end: &HandEnd, before: &[Event]) {
        let players = self.variant.players;
        assert_eq!(end.hand, self.hand, "the hand that ends is the one being played");
        assert_eq!(end.hands, self.hands, "the hands revealed are the hands held");
        let pips: Vec<u32> =
            self.hands.iter().map(|h| h.iter().map(|t| u32::from(t[0]) + u32::from(t[1])).sum()).collect();
        assert_eq!(end.pips, pips, "pips left");
        assert_eq!(end.changes.len(), players);
        let scores: Vec<i64> = self.scores.iter().zip(&end.changes).map(|(s, c)| s + c).collect();
        assert_eq!(end.scores, scores, "scores after settling");
        for (seat, &change) in end.changes.iter().enumerate() {
            assert_eq!(change % 5, 0, "changes are multiples of five");
            let partner = (0..players).find(|&s| self.side_of[s] == self.side_of[seat]).expect("a side");
            assert_eq!(change, end.changes[partner], "partners share changes");
            match (end.reason, self.variant.hand_end) {
                (HandOver::Target, _) => assert_eq!(change, 0, "a hand ended by the target is not settled"),
                (_, HandEndRule::SubtractOwn) => assert!(change <= 0, "subtract-own only lowers scores"),
                (_, HandEndRule::WinnerTakes) => assert!(change >= 0, "winner-takes only raises scores"),
            }
        }
        match end.reason {
            HandOver::Out => {
                let seat = end.out.expect("a hand that ended out names who went out");
                assert!(self.hands[seat].is_empty(), "seat {seat} went out holding tiles");
                assert!(matches!(before.last(), Some(Event::Play(p)) if p.seat == seat), "going out is a play");
            }
            HandOver::Blocked => {
                assert_eq!(end.out, None);
                let passes: Vec<usize> = before
                    .iter()
                    .rev()
                    .take(players)
                    .map(|e| match e {
                        Event::Pass(pass) => pass.seat,
                        other => panic!("a blocked hand ends with a pass by each player, not {other:?}"),
                    })
                    .collect();
                let mut seats = passes.clone();
                seats.sort_unstable();
                assert_eq!(seats, (0..players).collect::<Vec<_>>(), "one pass by each player: {passes:?}");
                assert!(self.boneyard.len() <= self.variant.boneyard_keep, "blocked with tiles to draw");
            }
            HandOver::Target => {
                let Some(Event::Play(play)) = before.last() else { panic!("the target is reached by a play") };
                let seat = play.seat;
                assert_eq!(end.out, self.hands[seat].is_empty().then_some(seat));
                assert!(self.scores.iter().any(|&s| s >= self.variant.target), "target reached");
            }
        }
    }

    /// Checks that the hands, the boneyard and the layout hold the 28 tiles
    /// once each (`at`: the event just applied).
    fn check_tiles(&self, at: usize) {
        if self.hand == 0 {
            return;
        }
        let mut all: Vec<Tile> =
            self.hands.iter().flatten().chain(&self.boneyard).chain(&self.played).copied().collect();
        all.sort_unstable();
        assert_eq!(all, full_set(), "the 28 tiles are not all accounted for after event {at}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AllFives;
    use crate::wire::DealSize;
    use game::Game;

    /// The events of a whole 2-player game that has draws in it.
    fn events() -> (Variant, Vec<Event>) {
        let variant = Variant {
            players: 2,
            partners: false,
            deal: DealSize::Five,
            boneyard_keep: 0,
            hand_end: HandEndRule::SubtractOwn,
            target: 100,
            max_hands: 3,
        };
        for seed in 0.. {
            let mut game = AllFives::new(&variant, seed);
            while game.to_act().is_some() {
                game.play(0).unwrap();
            }
            if game.events().iter().any(|e| matches!(e, Event::Draw(_))) {
                return (variant, game.events().to_vec());
            }
        }
        unreachable!()
    }

    /// Whether the ledger refuses `events`.
    fn refuses(variant: &Variant, events: &[Event]) -> bool {
        std::panic::catch_unwind(|| Ledger::new(variant).catch_up(events)).is_err()
    }

    #[test]
    fn accepts_a_real_game_and_refuses_tampered_ones() {
        let (variant, events) = events();
        assert!(!refuses(&variant, &events));
        let at = |pick: fn(&Event) -> bool| events.iter().position(pick).unwrap();

        let mut wrong_tile = events.clone();
        let Event::Play(play) = &mut wrong_tile[at(|e| matches!(e, Event::Play(_)))] else { unreachable!() };
        play.seat = 1 - play.seat;
        assert!(refuses(&variant, &wrong_tile), "a tile played from the wrong hand");

        let mut wrong_draw = events.clone();
        let Event::Draw(draw) = &mut wrong_draw[at(|e| matches!(e, Event::Draw(_)))] else { unreachable!() };
        let tile = &mut draw.tiles.as_mut().unwrap()[0];
        *tile = if *tile == [6, 6] { [0, 0] } else { [6, 6] };
        assert!(refuses(&variant, &wrong_draw), "a tile drawn from elsewhere than the front");

        let mut wrong_score = events.clone();
        let Event::HandEnd(end) = &mut wrong_score[at(|e| matches!(e, Event::HandEnd(_)))] else { unreachable!() };
        end.scores[0] += 5;
        assert!(refuses(&variant, &wrong_score), "a hand end that adds up wrong");

        let mut lost = events.clone();
        let Event::HandStart(dealt) = &mut lost[0] else { unreachable!() };
        dealt.boneyard.pop();
        assert!(refuses(&variant, &lost), "a tile missing from the deal");
    }
}
