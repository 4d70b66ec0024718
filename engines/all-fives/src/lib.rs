//! All Fives (a Muggins game with a spinner), as stated in the project's
//! `RULES.md`.
//!
//! The engine is pure and deterministic. A game is played from a list of
//! deals, one per hand: [`AllFives::new`] deals hand `h` from the seed as
//! [`deal`] documents (so hand `h` depends only on the seed and `h`), and
//! [`AllFives::from_deals`] plays deals given explicitly. Forced draws and
//! passes happen inside [`Game::new`]/[`Game::play`]; a seat is asked to move
//! whenever it holds at least one legal move.
//!
//! Playing is fast (some ten million random moves a second on one core):
//! inside the engine a tile is its index in the canonical order and a hand a
//! bit set ([`tiles`]), the legal moves are a bit set of (tile, end) pairs
//! kept up to date as tiles are played (`moves`), and the record is a compact
//! log (`log`) turned into [`Event`]s only when they are asked for, so a move
//! allocates nothing. `bench/benches/engine.rs` measures it.
//!
//! [`wire`] holds the payloads bots exchange with the arena (inside the
//! envelope of the `protocol` crate), and [`wire::ToBot`], every message an
//! All Fives bot can receive, for bots written in Rust.
#![deny(missing_docs)]

mod conformance;
pub mod deal;
pub mod invariants;
mod layout;
mod log;
mod midhand;
mod moves;
mod scoring;
mod text;
pub mod tiles;
mod variant;
mod viewer;
pub mod wire;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use deal::{Deal, DealError};
pub use midhand::{Midhand, open_ends};
pub use scoring::round5;
pub use viewer::BOARD_SCRIPT;

use crate::wire::{Choice, Draw, HandEnd, HandOver, Move, Pass, Play, State, Tile, Variant};
use deal::{Boneyard, MAX_SEATS, PackedDeal};
use game::{Game, IllegalMove, Outcome, Position, VariantError, VariantOption};
use layout::Layout;
use log::{Ending, Entry, Log, SideScores};
use moves::MoveSet;
use serde::{Deserialize, Serialize};
use tiles::{CANONICAL, TileSet};

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

/// A game's deals given in advance (`arena match --deals`): `deals[h - 1]`
/// is dealt for hand `h`; see [`AllFives::from_deals`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The deal of each hand, in order.
    pub deals: Vec<Deal>,
}

/// Where the hands' deals come from.
#[derive(Debug, Clone)]
enum Deals {
    /// Dealt from the seed, hand by hand.
    Seeded(u64),
    /// Given in advance, one per hand (normalized and checked).
    Fixed(Vec<PackedDeal>),
}

/// A game of All Fives in progress (or over).
///
/// Besides the [`Game`] interface it offers a fast path for programs that
/// play many games (searches, simulations, benchmarks): [`AllFives::legal_count`]
/// and [`AllFives::legal_moves`] list the legal moves without allocating
/// (unlike [`Game::choices`], which also works out each move's points), and
/// [`Game::play`] allocates nothing for a move (only the record's storage
/// grows, and settling a hand allocates a little). The record is kept
/// compactly and turned into [`Event`]s only by [`Game::events_since`].
///
/// ```
/// use game::Game;
/// use all_fives::AllFives;
///
/// let variant = AllFives::parse_variant(&[]).unwrap();
/// let mut game = AllFives::new(&variant, 42);
/// let mut plays = 0;
/// while game.to_act().is_some() {
///     // Always the last legal move: any index below legal_count() will do.
///     game.play(game.legal_count() - 1).unwrap();
///     plays += 1;
/// }
/// assert!(plays > 20 && game.outcome().is_some());
/// ```
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
    /// Each seat's tiles.
    hands: Vec<TileSet>,
    /// The current hand's boneyard.
    boneyard: Boneyard,
    /// The current hand's layout.
    layout: Layout,
    /// The seat to move, `None` once the game is over.
    to_act: Option<usize>,
    /// Its legal moves (see [`moves`]); none once the game is over.
    legal: MoveSet,
    /// Passes in a row in this hand.
    passes: usize,
    /// The record.
    log: Log,
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
        Ok(Self::start(variant, Deals::Fixed(deals.iter().map(Deal::packed).collect())))
    }

    /// Sets up the game and deals hand 1; both constructors end here.
    fn start(variant: &Variant, deals: Deals) -> Self {
        let last_hand = match &deals {
            Deals::Seeded(_) => variant.max_hands,
            Deals::Fixed(list) => variant.max_hands.min(list.len() as u32),
        };
        let mut game = Self::blank(variant, deals, last_hand);
        game.start_hand(1, None);
        game
    }

    /// A game with no hand dealt yet, scores at 0, that ends after hand `last_hand`.
    fn blank(variant: &Variant, deals: Deals, last_hand: u32) -> Self {
        let teams = variant.teams();
        let mut side_of = vec![0; variant.players];
        for (side, seats) in teams.iter().enumerate() {
            for &seat in seats {
                side_of[seat] = side;
            }
        }
        AllFives {
            variant: variant.clone(),
            deals,
            last_hand,
            side_of,
            side_scores: vec![0; teams.len()],
            hand: 0,
            hands: vec![TileSet::EMPTY; variant.players],
            boneyard: Boneyard::default(),
            layout: Layout::default(),
            to_act: None,
            legal: MoveSet::EMPTY,
            passes: 0,
            log: Log::new(),
            over: None,
        }
    }

    /// The rules in force.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The number of the hand being played (or the last one, once over).
    pub fn hand_number(&self) -> u32 {
        self.hand
    }

    /// How many legal moves the seat to act has: the length of
    /// [`Game::choices`], without listing them. 0 once the game is over.
    pub fn legal_count(&self) -> usize {
        self.legal.len()
    }

    /// The legal moves of the seat to act, in the order of
    /// [`Game::choices`] (so the `n`th is played by `play(n)`), without their
    /// points and without allocating. Empty once the game is over.
    pub fn legal_moves(&self) -> impl Iterator<Item = Move> {
        self.legal().map(|(tile, end)| Move { tile: CANONICAL[usize::from(tile)], end })
    }

    /// The legal moves as (tile, end), tiles as canonical indices.
    fn legal(&self) -> impl Iterator<Item = (u8, Option<u8>)> {
        let lead = self.layout.is_empty();
        self.legal.iter().map(move |(tile, end)| (tile, (!lead).then_some(end)))
    }

    /// The legal move with this index, as (tile, end).
    fn nth_legal(&self, index: usize) -> Option<(u8, Option<u8>)> {
        let (tile, end) = self.legal.nth(index)?;
        Some((tile, (!self.layout.is_empty()).then_some(end)))
    }

    /// The seat after `seat`.
    fn next_seat(&self, seat: usize) -> usize {
        // Not `% players`: a division costs more than the rest of a turn's bookkeeping.
        if seat + 1 == self.variant.players { 0 } else { seat + 1 }
    }

    /// Gives the turn to `seat` (`None`: nobody, the game is over).
    fn give_turn(&mut self, seat: Option<usize>) {
        self.to_act = seat;
        self.legal = match seat {
            Some(seat) => MoveSet::on_any_end(self.hands[seat]).and(self.layout.moves()),
            None => MoveSet::EMPTY,
        };
    }

    /// The deal of hand `hand`.
    fn deal(&self, hand: u32) -> PackedDeal {
        match &self.deals {
            Deals::Seeded(seed) => PackedDeal::seeded(*seed, hand, self.variant.players, self.variant.hand_size()),
            Deals::Fixed(list) => list[hand as usize - 1],
        }
    }

    /// Deals hand `hand`; `out` is the seat that went out of the previous
    /// hand (it leads), `None` for a random leader.
    fn start_hand(&mut self, hand: u32, out: Option<usize>) {
        let deal = self.deal(hand);
        let leader = out.unwrap_or(usize::from(deal.leader));
        self.hand = hand;
        self.hands.copy_from_slice(&deal.hands[..self.variant.players]);
        self.boneyard = deal.boneyard;
        self.layout = Layout::default();
        self.passes = 0;
        self.log.start_hand(hand, leader as u8, deal, self.packed_scores());
        self.advance(leader);
    }

    /// The side scores in a fixed array, as the record keeps them.
    fn packed_scores(&self) -> SideScores {
        let mut scores = [0; MAX_SEATS];
        scores[..self.side_scores.len()].copy_from_slice(&self.side_scores);
        scores
    }

    /// The score of each seat (its side's score).
    fn seat_scores(&self) -> Vec<i64> {
        self.side_of.iter().map(|&side| self.side_scores[side]).collect()
    }

    /// The hands in a fixed array, as the record keeps them.
    fn packed_hands(&self) -> [TileSet; MAX_SEATS] {
        let mut hands = [TileSet::EMPTY; MAX_SEATS];
        hands[..self.hands.len()].copy_from_slice(&self.hands);
        hands
    }

    /// Gives the turn to `seat`, drawing and passing for it and the seats after
    /// it as long as they cannot play; ends the hand when it is blocked.
    fn advance(&mut self, mut seat: usize) {
        let players = self.variant.players;
        let playable = self.layout.playable();
        loop {
            if !self.hands[seat].and(playable).is_empty() {
                self.give_turn(Some(seat));
                return;
            }
            let from = self.boneyard.drawn();
            let mut fits = false;
            while self.boneyard.len() > self.variant.boneyard_keep {
                let tile = self.boneyard.pop_front().expect("boneyard not empty");
                self.hands[seat].insert(tile);
                if playable.contains(tile) {
                    fits = true;
                    break;
                }
            }
            let count = self.boneyard.drawn() - from;
            if count > 0 {
                self.log.push(Entry::Draw { seat: seat as u8, from, count });
            }
            if fits {
                self.give_turn(Some(seat));
                return;
            }
            self.log.push(Entry::Pass { seat: seat as u8 });
            self.passes += 1;
            if self.passes == players {
                self.end_hand(None);
                return;
            }
            seat = self.next_seat(seat);
        }
    }

    /// Ends the game because a play reached the target; the hand is not settled.
    fn reach_target(&mut self, seat: usize) {
        let out = self.hands[seat].is_empty().then_some(seat as u8);
        let ending = Ending { reason: HandOver::Target, out, hands: self.packed_hands(), changes: [0; MAX_SEATS] };
        self.log.end_hand(ending);
        self.give_turn(None);
        self.over = Some("target");
    }

    /// Settles a hand that ended with `out` going out (or blocked, `None`),
    /// then starts the next hand or ends the game.
    fn end_hand(&mut self, out: Option<usize>) {
        let mut pips = [0; MAX_SEATS];
        for (pips, hand) in pips.iter_mut().zip(&self.hands) {
            *pips = hand.pips();
        }
        let players = self.variant.players;
        let side_changes =
            scoring::settle(self.variant.hand_end, &self.side_of, self.side_scores.len(), &pips[..players], out);
        let mut changes = [0; MAX_SEATS];
        for ((score, change), packed) in self.side_scores.iter_mut().zip(&side_changes).zip(&mut changes) {
            *score += change;
            *packed = *change;
        }
        let reason = if out.is_some() { HandOver::Out } else { HandOver::Blocked };
        let ending = Ending { reason, out: out.map(|seat| seat as u8), hands: self.packed_hands(), changes };
        self.log.end_hand(ending);
        self.give_turn(None);
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
    type Setup = Setup;

    fn variant_options() -> Vec<VariantOption> {
        variant::options()
    }

    fn parse_variant(settings: &[(String, String)]) -> Result<Variant, VariantError> {
        variant::parse(settings)
    }

    fn check_variant(variant: &Variant) -> Result<(), VariantError> {
        variant::check(variant)
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

    fn from_setup(variant: &Variant, setup: &Setup) -> Result<Self, String> {
        Self::from_deals(variant, setup.deals.clone()).map_err(|e| e.0)
    }

    /// The deal of every hand that started.
    fn recorded_setup(events: &[Event]) -> Setup {
        let deals = events
            .iter()
            .filter_map(|event| match event {
                Event::HandStart(dealt) => {
                    Some(Deal { hands: dealt.hands.clone(), boneyard: dealt.boneyard.clone(), leader: dealt.leader })
                }
                _ => None,
            })
            .collect();
        Setup { deals }
    }

    fn decision(event: &Event) -> Option<(usize, Move)> {
        match event {
            Event::Play(play) => Some((play.seat, Move { tile: play.tile, end: play.end })),
            _ => None,
        }
    }

    fn to_act(&self) -> Option<usize> {
        self.to_act
    }

    /// For the lead, every tile in hand with `end: None`; otherwise every
    /// (tile, end) pair where the tile matches the end, by tile in canonical
    /// order, then by end id.
    fn choices(&self) -> Vec<Choice> {
        self.legal()
            .map(|(tile, end)| {
                let tile = CANONICAL[usize::from(tile)];
                Choice { tile, end, points: self.layout.points_after(tile, end) }
            })
            .collect()
    }

    /// `[a, b]` and `[b, a]` name the same tile; the end must be `None` for the
    /// lead and the end's id otherwise.
    fn find_move(&self, named: &Move) -> Option<usize> {
        let tile = tiles::index(tiles::normalize(named.tile))? as u8;
        self.legal().position(|legal| legal == (tile, named.end))
    }

    /// A tile the seat does not hold, a missing `end` after the lead (or one
    /// given for the lead), an end that is not open, or a tile that does
    /// not fit the end named.
    fn why_illegal(&self, named: &Move) -> Option<String> {
        let seat = self.to_act?;
        let tile = tiles::normalize(named.tile);
        let Some(index) = tiles::index(tile) else {
            return Some(format!("{:?} is not a tile (each number is 0 to 6)", named.tile));
        };
        if !self.hands[seat].contains(index as u8) {
            return Some(format!("seat {seat} does not hold {tile:?}"));
        }
        let ends = self.layout.ends();
        let open: Vec<u8> = ends.iter().map(|end| end.id).collect();
        match (named.end, self.layout.is_empty()) {
            (None, false) => Some(format!(
                "`end` is missing (or null), which names the lead, but the lead has been played: give the id of \
                 the open end to play on (the open ends are {open:?})"
            )),
            (Some(end), true) => Some(format!("this is the lead: leave `end` out (or null), not {end}")),
            (Some(end), false) => Some(match ends.iter().find(|e| e.id == end) {
                None => format!("end {end} is not open (the open ends are {open:?})"),
                Some(e) => format!("{tile:?} does not fit end {end}, which shows {}", e.pips),
            }),
            (None, true) => None,
        }
    }

    fn play(&mut self, index: usize) -> Result<(), IllegalMove> {
        let (Some(seat), Some((tile, end))) = (self.to_act, self.nth_legal(index)) else {
            return Err(IllegalMove { index, legal: self.legal_count() });
        };
        self.hands[seat].remove(tile);
        let points = self.layout.play(CANONICAL[usize::from(tile)], end);
        let side = self.side_of[seat];
        self.side_scores[side] += i64::from(points);
        self.passes = 0;
        self.log.push(Entry::Play { seat: seat as u8, tile, end, points: points as u8 });
        if self.side_scores[side] >= self.variant.target {
            self.reach_target(seat);
        } else if self.hands[seat].is_empty() {
            self.end_hand(Some(seat));
        } else {
            self.advance(self.next_seat(seat));
        }
        Ok(())
    }

    fn state(&self, seat: usize) -> State {
        let boneyard = self.boneyard.len();
        State {
            hand_number: self.hand,
            hand: self.hands[seat].to_vec(),
            ends: self.layout.ends(),
            scores: self.seat_scores(),
            hand_sizes: self.hands.iter().map(|h| h.len()).collect(),
            boneyard,
            drawable: boneyard.saturating_sub(self.variant.boneyard_keep),
        }
    }

    fn event_count(&self) -> usize {
        self.log.len()
    }

    fn events_since(&self, start: usize) -> Vec<Event> {
        self.log.events_since(start, &self.side_of)
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

    fn conformance_positions() -> Vec<Position<Self>> {
        conformance::positions()
    }

    fn conformance_tables() -> Vec<(&'static str, Variant)> {
        conformance::tables()
    }

    /// The layout as a line of tiles (the spinner's short ends below it),
    /// the open ends and the count, the scores, the hand sizes and the
    /// boneyard, the seat's hand, and its moves.
    fn text_turn(&self, seat: usize, names: &[String]) -> String {
        text::turn(self, seat, names)
    }

    fn text_view(view: &wire::Event, seat: usize, names: &[String]) -> String {
        text::event(view, seat, names)
    }

    /// The replay page drawn by the `viewer` module.
    fn html_page(record_json: &str) -> String {
        viewer::page(record_json)
    }
}
