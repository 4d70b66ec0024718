//! All Fives (a Muggins game with a spinner), as stated in the project's
//! `RULES.md`.
//!
//! The engine is pure and deterministic. A game is played from a list of
//! deals, one per hand: [`AllFives::new`] deals hand `h` from the seed as
//! [`deal`] documents (so hand `h` depends only on the seed and `h`), and
//! [`AllFives::from_deals`] plays deals given explicitly. Forced draws and
//! passes happen inside [`Game::new`]/[`Game::play`]; a seat is asked to move
//! whenever it holds at least one legal move.

pub mod deal;
mod layout;
mod scoring;
pub mod tiles;
mod variant;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use deal::{Deal, DealError};
pub use scoring::round5;

use crate::game::{Game, IllegalMove, Outcome, VariantError, VariantOption};
use layout::Layout;
use protocol::all_fives::{self as wire, Choice, Draw, HandEnd, HandOver, Move, Pass, Play, State, Tile, Variant};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The start of a hand with full information, as kept in the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dealt {
    /// The hand's number, from 1.
    pub hand: u32,
    /// The seat that leads.
    pub leader: usize,
    /// Every seat's tiles, each hand in canonical order.
    pub hands: Vec<Vec<Tile>>,
    /// The boneyard in draw order: the first tile is drawn first.
    pub boneyard: Vec<Tile>,
    /// Every seat's score at the start of the hand.
    pub scores: Vec<i64>,
}

/// An event with full information, as kept in the game record. Serialized
/// with a `type` field (`hand_start`, `play`, `draw`, `pass`, `hand_end`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A hand was dealt.
    HandStart(Dealt),
    /// A tile was played.
    Play(Play),
    /// A player drew (in the record, `tiles` is always given).
    Draw(Draw),
    /// A player passed.
    Pass(Pass),
    /// A hand ended.
    HandEnd(HandEnd),
}

/// Where the hands' deals come from.
#[derive(Debug, Clone)]
enum Deals {
    /// Dealt from the seed, hand by hand.
    Seeded(u64),
    /// Given in advance, one per hand (normalized and checked).
    Fixed(Vec<Deal>),
}

/// A game of All Fives in progress (or over).
#[derive(Debug, Clone)]
pub struct AllFives {
    /// The rules in force.
    variant: Variant,
    /// Where each hand's deal comes from.
    deals: Deals,
    /// The last hand that may be played.
    last_hand: u32,
    /// Each seat's side.
    side_of: Vec<usize>,
    /// Each side's score.
    side_scores: Vec<i64>,
    /// The current hand's number, from 1.
    hand: u32,
    /// Each seat's tiles, in canonical order.
    hands: Vec<Vec<Tile>>,
    /// The boneyard, front drawn first.
    boneyard: VecDeque<Tile>,
    /// The current hand's layout.
    layout: Layout,
    /// The seat to move, `None` once the game is over.
    to_act: Option<usize>,
    /// Passes in a row in this hand.
    passes: usize,
    /// The record.
    events: Vec<Event>,
    /// Why the game ended, once it has.
    over: Option<&'static str>,
}

impl AllFives {
    /// A game played from explicit deals: `deals[h - 1]` is dealt for hand
    /// `h`, its `leader` leading hand 1 and any hand after a blocked hand (the
    /// player who went out leads otherwise). Tiles may be given in either
    /// orientation; hands are sorted. At most `deals.len()` hands are played:
    /// a game that runs out of deals ends as if `max_hands` had been reached.
    ///
    /// Every deal must have one hand of the variant's hand size per seat, a
    /// leader that is a seat, and hold the 28 tiles exactly once.
    pub fn from_deals(variant: &Variant, deals: Vec<Deal>) -> Result<Self, DealError> {
        Self::checked(variant, deals, true)
    }

    /// Like [`AllFives::from_deals`] but allowing any non-empty hand sizes,
    /// to set up positions in tests.
    #[cfg(test)]
    pub(crate) fn from_deals_any_size(variant: &Variant, deals: Vec<Deal>) -> Self {
        Self::checked(variant, deals, false).expect("valid test deals")
    }

    /// Normalizes and checks fixed deals, then starts the game.
    fn checked(variant: &Variant, deals: Vec<Deal>, strict: bool) -> Result<Self, DealError> {
        variant::check(variant).map_err(|e| DealError(e.0))?;
        if deals.is_empty() {
            return Err(DealError("no deals given".to_string()));
        }
        let size = strict.then(|| variant.hand_size());
        let deals: Vec<Deal> = deals.iter().map(Deal::normalized).collect();
        for (i, deal) in deals.iter().enumerate() {
            deal.check(variant.players, size).map_err(|e| DealError(format!("hand {}: {e}", i + 1)))?;
        }
        Ok(Self::start(variant, Deals::Fixed(deals)))
    }

    /// Sets up the game and deals hand 1; both constructors end here.
    fn start(variant: &Variant, deals: Deals) -> Self {
        let last_hand = match &deals {
            Deals::Seeded(_) => variant.max_hands,
            Deals::Fixed(list) => variant.max_hands.min(list.len() as u32),
        };
        let teams = variant.teams();
        let mut side_of = vec![0; variant.players];
        for (side, seats) in teams.iter().enumerate() {
            for &seat in seats {
                side_of[seat] = side;
            }
        }
        let mut game = AllFives {
            variant: variant.clone(),
            deals,
            last_hand,
            side_of,
            side_scores: vec![0; teams.len()],
            hand: 0,
            hands: Vec::new(),
            boneyard: VecDeque::new(),
            layout: Layout::default(),
            to_act: None,
            passes: 0,
            events: Vec::new(),
            over: None,
        };
        game.start_hand(1, None);
        game
    }

    /// The rules in force.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The number of the hand being played (or the last one, once over).
    pub fn hand_number(&self) -> u32 {
        self.hand
    }

    /// The deal of hand `hand`.
    fn deal(&self, hand: u32) -> Deal {
        match &self.deals {
            Deals::Seeded(seed) => {
                Deal::seeded(*seed, hand, self.variant.players, self.variant.hand_size()).normalized()
            }
            Deals::Fixed(list) => list[hand as usize - 1].clone(),
        }
    }

    /// Deals hand `hand`; `out` is the seat that went out of the previous
    /// hand (it leads), `None` for a random leader.
    fn start_hand(&mut self, hand: u32, out: Option<usize>) {
        let deal = self.deal(hand);
        let leader = out.unwrap_or(deal.leader);
        self.hand = hand;
        self.hands = deal.hands.clone();
        self.boneyard = deal.boneyard.iter().copied().collect();
        self.layout = Layout::default();
        self.passes = 0;
        self.events.push(Event::HandStart(Dealt {
            hand,
            leader,
            hands: deal.hands,
            boneyard: deal.boneyard,
            scores: self.scores(),
        }));
        self.advance(leader);
    }

    /// The score of each seat (its side's score).
    fn seat_scores(&self) -> Vec<i64> {
        self.side_of.iter().map(|&side| self.side_scores[side]).collect()
    }

    /// Whether `seat` holds a tile it may play now.
    fn can_play(&self, seat: usize) -> bool {
        self.hands[seat].iter().any(|&t| self.layout.accepts(t))
    }

    /// Gives the turn to `seat`, drawing and passing for it and the seats after
    /// it as long as they cannot play; ends the hand when it is blocked.
    fn advance(&mut self, mut seat: usize) {
        let players = self.variant.players;
        loop {
            if self.can_play(seat) {
                self.to_act = Some(seat);
                return;
            }
            let mut drawn = Vec::new();
            let mut playable = false;
            while self.boneyard.len() > self.variant.boneyard_keep {
                let tile = self.boneyard.pop_front().expect("boneyard not empty");
                let hand = &mut self.hands[seat];
                let at = hand.binary_search(&tile).unwrap_or_else(|at| at);
                hand.insert(at, tile);
                drawn.push(tile);
                if self.layout.accepts(tile) {
                    playable = true;
                    break;
                }
            }
            if !drawn.is_empty() {
                let count = drawn.len();
                self.events.push(Event::Draw(Draw { seat, count, tiles: Some(drawn) }));
            }
            if playable {
                self.to_act = Some(seat);
                return;
            }
            self.events.push(Event::Pass(Pass { seat }));
            self.passes += 1;
            if self.passes == players {
                self.end_hand(None);
                return;
            }
            seat = (seat + 1) % players;
        }
    }

    /// The pips left in each hand.
    fn hand_pips(&self) -> Vec<u32> {
        self.hands.iter().map(|h| tiles::pips(h)).collect()
    }

    /// Ends the game because a play reached the target; the hand is not settled.
    fn reach_target(&mut self, seat: usize) {
        let out = self.hands[seat].is_empty().then_some(seat);
        self.events.push(Event::HandEnd(HandEnd {
            hand: self.hand,
            reason: HandOver::Target,
            out,
            hands: self.hands.clone(),
            pips: self.hand_pips(),
            changes: vec![0; self.variant.players],
            scores: self.seat_scores(),
        }));
        self.to_act = None;
        self.over = Some("target");
    }

    /// Settles a hand that ended with `out` going out (or blocked, `None`),
    /// then starts the next hand or ends the game.
    fn end_hand(&mut self, out: Option<usize>) {
        let pips = self.hand_pips();
        let side_changes = scoring::settle(self.variant.hand_end, &self.side_of, self.side_scores.len(), &pips, out);
        for (score, change) in self.side_scores.iter_mut().zip(&side_changes) {
            *score += change;
        }
        let changes = self.side_of.iter().map(|&side| side_changes[side]).collect();
        self.events.push(Event::HandEnd(HandEnd {
            hand: self.hand,
            reason: if out.is_some() { HandOver::Out } else { HandOver::Blocked },
            out,
            hands: self.hands.clone(),
            pips,
            changes,
            scores: self.seat_scores(),
        }));
        self.to_act = None;
        if self.side_scores.iter().any(|&s| s >= self.variant.target) {
            self.over = Some("target");
        } else if self.hand >= self.last_hand {
            self.over = Some("max_hands");
        } else {
            self.start_hand(self.hand + 1, out);
        }
    }
}

impl Game for AllFives {
    const NAME: &'static str = "all-fives";
    type Variant = Variant;
    type Move = Move;
    type Choice = Choice;
    type State = State;
    type Event = Event;
    type View = wire::Event;

    fn variant_options() -> Vec<VariantOption> {
        variant::options()
    }

    fn parse_variant(settings: &[(String, String)]) -> Result<Variant, VariantError> {
        variant::parse(settings)
    }

    fn seats(variant: &Variant) -> usize {
        variant.players
    }

    fn teams(variant: &Variant) -> Vec<Vec<usize>> {
        variant.teams()
    }

    /// Deals hand 1 from `seed` (see [`deal`]) and plays up to the first decision.
    ///
    /// # Panics
    /// If the variant is impossible (e.g. 5 players); [`Game::parse_variant`]
    /// never returns one.
    fn new(variant: &Variant, seed: u64) -> Self {
        if let Err(e) = variant::check(variant) {
            panic!("invalid All Fives variant: {e}");
        }
        Self::start(variant, Deals::Seeded(seed))
    }

    fn to_act(&self) -> Option<usize> {
        self.to_act
    }

    /// For the lead, every tile in hand with `end: None`; otherwise every
    /// (tile, end) pair where the tile matches the end, by tile in canonical
    /// order, then by end id.
    fn choices(&self) -> Vec<Choice> {
        let Some(seat) = self.to_act else {
            return Vec::new();
        };
        let hand = &self.hands[seat];
        if self.layout.is_empty() {
            return hand
                .iter()
                .map(|&tile| Choice { tile, end: None, points: self.layout.points_after(tile, None) })
                .collect();
        }
        let ends = self.layout.ends();
        let mut choices = Vec::new();
        for &tile in hand {
            for end in &ends {
                if tiles::shows(tile, end.pips) {
                    let points = self.layout.points_after(tile, Some(end.id));
                    choices.push(Choice { tile, end: Some(end.id), points });
                }
            }
        }
        choices
    }

    /// `[a, b]` and `[b, a]` name the same tile; the end must be `None` for the
    /// lead and the end's id otherwise.
    fn find_move(&self, named: &Move) -> Option<usize> {
        let tile = tiles::normalize(named.tile);
        self.choices().iter().position(|c| c.tile == tile && c.end == named.end)
    }

    fn play(&mut self, index: usize) -> Result<(), IllegalMove> {
        let choices = self.choices();
        let (Some(seat), Some(choice)) = (self.to_act, choices.get(index)) else {
            return Err(IllegalMove { index, legal: choices.len() });
        };
        let Choice { tile, end, .. } = *choice;
        let hand = &mut self.hands[seat];
        let at = hand.binary_search(&tile).expect("a legal tile is in hand");
        hand.remove(at);
        let points = self.layout.play(tile, end);
        let side = self.side_of[seat];
        self.side_scores[side] += i64::from(points);
        self.passes = 0;
        self.events.push(Event::Play(Play { seat, tile, end, points, scores: self.seat_scores() }));
        if self.side_scores[side] >= self.variant.target {
            self.reach_target(seat);
        } else if self.hands[seat].is_empty() {
            self.end_hand(Some(seat));
        } else {
            self.advance((seat + 1) % self.variant.players);
        }
        Ok(())
    }

    fn state(&self, seat: usize) -> State {
        let boneyard = self.boneyard.len();
        State {
            hand_number: self.hand,
            hand: self.hands[seat].clone(),
            ends: self.layout.ends(),
            scores: self.seat_scores(),
            hand_sizes: self.hands.iter().map(Vec::len).collect(),
            boneyard,
            drawable: boneyard.saturating_sub(self.variant.boneyard_keep),
        }
    }

    fn events(&self) -> &[Event] {
        &self.events
    }

    /// A hand start tells each seat only its own tiles; a draw tells the tiles
    /// only to the drawer. Plays, passes and hand ends are told as they are.
    fn view(&self, event: &Event, seat: usize) -> Option<wire::Event> {
        Some(match event {
            Event::HandStart(dealt) => wire::Event::HandStart(wire::HandStart {
                hand: dealt.hand,
                leader: dealt.leader,
                tiles: dealt.hands.get(seat)?.clone(),
                hand_sizes: dealt.hands.iter().map(Vec::len).collect(),
                boneyard: dealt.boneyard.len(),
                scores: dealt.scores.clone(),
            }),
            Event::Draw(draw) => wire::Event::Draw(Draw {
                seat: draw.seat,
                count: draw.count,
                tiles: if draw.seat == seat { draw.tiles.clone() } else { None },
            }),
            Event::Play(play) => wire::Event::Play(play.clone()),
            Event::Pass(pass) => wire::Event::Pass(pass.clone()),
            Event::HandEnd(end) => wire::Event::HandEnd(end.clone()),
        })
    }

    fn scores(&self) -> Vec<i64> {
        self.seat_scores()
    }

    /// Each seat's rank is the number of sides with a strictly higher score.
    fn outcome(&self) -> Option<Outcome> {
        let reason = self.over?;
        let ranks = self
            .side_of
            .iter()
            .map(|&side| {
                let mine = self.side_scores[side];
                self.side_scores.iter().filter(|&&s| s > mine).count() as u32
            })
            .collect();
        Some(Outcome { reason, ranks })
    }
}
