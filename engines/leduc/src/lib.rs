//! Leduc Hold'em, the small poker game of game-AI research, as stated in the
//! project's `RULES.md` beside this module.
//!
//! The engine is pure and deterministic. A game is one hand: [`Leduc::new`]
//! deals it from the seed as [`cards`] documents, and [`Game::from_setup`]
//! plays a [`Deal`] given explicitly. The state is a handful of fixed-size
//! arrays and the record a short list of compact actions, turned into
//! [`Event`]s only when they are asked for, so neither a new game nor a move
//! allocates. `bench/benches/engine.rs` measures it.
//!
//! [`wire`] holds the payloads bots exchange with the arena (inside the
//! envelope of the `protocol` crate), and [`wire::ToBot`], every message a
//! Leduc bot can receive, for bots written in Rust.
#![deny(missing_docs)]

pub mod cards;
mod conformance;
pub mod invariants;
mod payoff;
mod text;
mod variant;
mod viewer;
pub mod wire;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use cards::Deal;

use crate::wire::{Act, Action, Card, Choice, HandEnd, HandOver, Move, Public, State, Variant};
use cards::MAX_SEATS;
use game::{Game, IllegalMove, Outcome, Position, Scoring, VariantError, VariantOption};
use serde::{Deserialize, Serialize};

/// The raises a round allows (the first bet counts as one).
pub const RAISE_CAP: u8 = 2;
/// The bet (and raise) size of round 1 and of round 2.
pub const BET_SIZES: [u32; 2] = [2, 4];
/// The most actions a game can hold: per round, every seat acts once, and
/// each of the 2 raises lets every other seat act once more.
const MAX_ACTIONS: usize = 2 * (MAX_SEATS + 2 * (MAX_SEATS - 1));

/// The deal with full information, as kept in the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dealt {
    /// Each seat's private card.
    pub cards: Vec<Card>,
    /// The public card (revealed to the seats only after round 1).
    pub public: Card,
}

/// An event with full information, as kept in the game record. Serialized
/// with a `type` field (`deal`, `act`, `public`, `hand_end`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The cards were dealt and every seat anted 1.
    Deal(Dealt),
    /// A seat acted.
    Act(Act),
    /// The public card was revealed.
    Public(Public),
    /// The hand ended.
    HandEnd(HandEnd),
}

/// One action as the record keeps it.
#[derive(Debug, Clone, Copy, Default)]
struct Acted {
    seat: u8,
    action: u8,
    chips: u8,
}

/// The actions in the order of [`Choice`]s (fold, call, raise).
const ACTIONS: [Action; 3] = [Action::Fold, Action::Call, Action::Raise];

/// A game of Leduc Hold'em in progress (or over).
///
/// ```
/// use game::Game;
/// use leduc::Leduc;
///
/// let variant = Leduc::parse_variant(&[]).unwrap();
/// let mut game = Leduc::new(&variant, 42);
/// while game.to_act().is_some() {
///     // Always the last legal move (raise while allowed, else call).
///     game.play(game.legal_count() - 1).unwrap();
/// }
/// assert_eq!(game.scores().iter().sum::<i64>(), 0);
/// ```
#[derive(Debug, Clone)]
pub struct Leduc {
    /// The number of seats.
    players: usize,
    /// Each seat's private card (the first `players`).
    cards: [Card; MAX_SEATS],
    /// The public card.
    public: Card,
    /// What each seat has put in, ante included.
    put_in: [u32; MAX_SEATS],
    /// The highest amount put in: what every seat still in must match.
    stake: u32,
    /// The seats that folded (bit set).
    folded: u8,
    /// The seats that acted this round (bit set).
    acted: u8,
    /// The betting round, 1 or 2.
    round: u8,
    /// The raises made this round.
    raises: u8,
    /// The seat to act; `None` once the game is over.
    to_act: Option<usize>,
    /// The actions so far.
    actions: [Acted; MAX_ACTIONS],
    /// How many of `actions` are used.
    acts: u8,
    /// How many actions were made in round 1 (set when round 2 starts).
    round1_acts: Option<u8>,
    /// How the game ended, and what each seat won.
    over: Option<(HandOver, [u32; MAX_SEATS])>,
}

impl Leduc {
    /// A game of `variant` with the given deal (already checked), seat 0 to act.
    fn start(variant: &Variant, deal: &Deal) -> Self {
        let mut cards = [Card::Ts; MAX_SEATS];
        cards[..variant.players].copy_from_slice(&deal.cards);
        let mut put_in = [0; MAX_SEATS];
        put_in[..variant.players].fill(1);
        Leduc {
            players: variant.players,
            cards,
            public: deal.public,
            put_in,
            stake: 1,
            folded: 0,
            acted: 0,
            round: 1,
            raises: 0,
            to_act: Some(0),
            actions: [Acted::default(); MAX_ACTIONS],
            acts: 0,
            round1_acts: None,
            over: None,
        }
    }

    /// The deal of this game.
    pub fn deal(&self) -> Deal {
        Deal { cards: self.cards[..self.players].to_vec(), public: self.public }
    }

    /// The chips in the pot.
    pub fn pot(&self) -> u32 {
        self.put_in.iter().sum()
    }

    /// The chips the seat to act must add to call (0 once over).
    fn owed(&self) -> u32 {
        self.to_act.map_or(0, |seat| self.stake - self.put_in[seat])
    }

    /// Whether fold is among the legal moves (chips are owed).
    fn may_fold(&self) -> bool {
        self.owed() > 0
    }

    /// How many legal moves the seat to act has: the length of
    /// [`Game::choices`], without listing them. 0 once the game is over.
    pub fn legal_count(&self) -> usize {
        if self.to_act.is_none() {
            return 0;
        }
        1 + usize::from(self.may_fold()) + usize::from(self.raises < RAISE_CAP)
    }

    /// The action of legal move `index`, if there is one.
    fn nth_legal(&self, index: usize) -> Option<Action> {
        let skip = usize::from(!self.may_fold());
        let action = *ACTIONS.get(index + skip)?;
        (index < self.legal_count()).then_some(action)
    }

    /// The legal actions of the seat to act, in the order of [`Game::choices`].
    pub fn legal_actions(&self) -> impl Iterator<Item = Action> + '_ {
        (0..self.legal_count()).filter_map(|index| self.nth_legal(index))
    }

    /// The bet size of the round being played.
    fn bet(&self) -> u32 {
        BET_SIZES[usize::from(self.round - 1)]
    }

    /// The chips `action` adds for the seat to act.
    fn chips(&self, action: Action) -> u32 {
        match action {
            Action::Fold => 0,
            Action::Call => self.owed(),
            Action::Raise => self.owed() + self.bet(),
        }
    }

    /// The seats still in the hand (bit set).
    fn in_hand(&self) -> u8 {
        ((1u8 << self.players) - 1) & !self.folded
    }

    /// The first seat still in from `seat` on, going round the table.
    fn next_in_hand(&self, seat: usize) -> usize {
        let in_hand = self.in_hand();
        (0..self.players).map(|step| (seat + step) % self.players).find(|s| in_hand & (1 << s) != 0).unwrap_or(seat)
    }

    /// Whether the round is over: everyone still in has acted and matched the stake.
    fn round_over(&self) -> bool {
        let in_hand = self.in_hand();
        in_hand & !self.acted == 0
            && (0..self.players).all(|seat| in_hand & (1 << seat) == 0 || self.put_in[seat] == self.stake)
    }

    /// Ends the game with `won` paid out.
    fn finish(&mut self, reason: HandOver, won: [u32; MAX_SEATS]) {
        self.to_act = None;
        self.over = Some((reason, won));
    }

    /// Each seat's payoff once over (zeros before).
    fn payoffs(&self) -> [i64; MAX_SEATS] {
        let mut payoffs = [0; MAX_SEATS];
        if let Some((_, won)) = self.over {
            for seat in 0..self.players {
                payoffs[seat] = i64::from(won[seat]) - i64::from(self.put_in[seat]);
            }
        }
        payoffs
    }

    /// Every event so far, built from the compact record.
    fn all_events(&self) -> Vec<Event> {
        let mut events = Vec::with_capacity(usize::from(self.acts) + 3);
        events.push(Event::Deal(Dealt { cards: self.cards[..self.players].to_vec(), public: self.public }));
        let mut put_in = [1u32; MAX_SEATS];
        for (i, acted) in self.actions[..usize::from(self.acts)].iter().enumerate() {
            if self.round1_acts == Some(i as u8) {
                events.push(Event::Public(Public { card: self.public }));
            }
            let seat = usize::from(acted.seat);
            put_in[seat] += u32::from(acted.chips);
            let round = if self.round1_acts.is_some_and(|n| i >= usize::from(n)) { 2 } else { 1 };
            let pot = put_in[..self.players].iter().sum();
            let action = ACTIONS[usize::from(acted.action)];
            events.push(Event::Act(Act { seat, round, action, chips: u32::from(acted.chips), pot }));
        }
        if self.round1_acts == Some(self.acts) {
            events.push(Event::Public(Public { card: self.public }));
        }
        if let Some(end) = self.hand_end() {
            events.push(Event::HandEnd(end));
        }
        events
    }

    /// The last event, once the game is over.
    fn hand_end(&self) -> Option<HandEnd> {
        let (reason, won) = self.over?;
        let players = self.players;
        let showing = reason == HandOver::Showdown;
        let in_hand = self.in_hand();
        Some(HandEnd {
            reason,
            shown: (0..players).map(|s| (showing && in_hand & (1 << s) != 0).then_some(self.cards[s])).collect(),
            pot: self.pot(),
            winners: (0..players).filter(|&s| won[s] > 0).collect(),
            won: won[..players].to_vec(),
            payoffs: self.payoffs()[..players].to_vec(),
        })
    }
}

impl Game for Leduc {
    const NAME: &'static str = "leduc";
    /// A seat's score is its payoff (chips won minus chips put in), and the
    /// bots are ranked by their mean payoff per game.
    const SCORING: Scoring = Scoring::new("chips", true);
    type Variant = Variant;
    type Move = Move;
    type Choice = Choice;
    type State = State;
    type Event = Event;
    type View = wire::Event;
    type Setup = Deal;

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

    /// Every seat plays for itself.
    fn teams(variant: &Variant) -> Vec<Vec<usize>> {
        (0..variant.players).map(|seat| vec![seat]).collect()
    }

    /// Deals from `seed` (see [`cards`]); seat 0 acts first.
    ///
    /// # Panics
    /// If the variant is impossible (e.g. 5 players); [`Game::parse_variant`]
    /// never returns one.
    fn new(variant: &Variant, seed: u64) -> Self {
        if let Err(e) = variant::check(variant) {
            panic!("invalid Leduc variant: {e}");
        }
        Self::start(variant, &Deal::seeded(seed, variant.players))
    }

    fn from_setup(variant: &Variant, setup: &Deal) -> Result<Self, String> {
        variant::check(variant).map_err(|e| e.0)?;
        setup.check(variant.players)?;
        Ok(Self::start(variant, setup))
    }

    fn recorded_setup(events: &[Event]) -> Deal {
        match events.first() {
            Some(Event::Deal(dealt)) => Deal { cards: dealt.cards.clone(), public: dealt.public },
            _ => Deal { cards: Vec::new(), public: Card::Ts },
        }
    }

    fn decision(event: &Event) -> Option<(usize, Move)> {
        match event {
            Event::Act(act) => Some((act.seat, Move { action: act.action })),
            _ => None,
        }
    }

    fn to_act(&self) -> Option<usize> {
        self.to_act
    }

    /// In the order fold (only when chips are owed), call, raise (only
    /// while fewer than 2 raises were made this round).
    fn choices(&self) -> Vec<Choice> {
        self.legal_actions().map(|action| Choice { action, chips: self.chips(action) }).collect()
    }

    fn find_move(&self, named: &Move) -> Option<usize> {
        self.legal_actions().position(|action| action == named.action)
    }

    /// A fold when nothing is owed, or a raise past the cap.
    fn why_illegal(&self, named: &Move) -> Option<String> {
        self.to_act?;
        match named.action {
            Action::Fold => Some("fold is not legal when nothing is owed: check (call) instead".to_string()),
            Action::Raise => Some(format!("this round's {RAISE_CAP} raises have been made: call or fold")),
            Action::Call => None,
        }
    }

    fn play(&mut self, index: usize) -> Result<(), IllegalMove> {
        let (Some(seat), Some(action)) = (self.to_act, self.nth_legal(index)) else {
            return Err(IllegalMove { index, legal: self.legal_count() });
        };
        let chips = self.chips(action);
        self.actions[usize::from(self.acts)] = Acted { seat: seat as u8, action: action as u8, chips: chips as u8 };
        self.acts += 1;
        self.acted |= 1 << seat;
        match action {
            Action::Fold => self.folded |= 1 << seat,
            Action::Call => self.put_in[seat] += chips,
            Action::Raise => {
                self.put_in[seat] += chips;
                self.stake = self.put_in[seat];
                self.raises += 1;
            }
        }
        let in_hand = self.in_hand();
        if in_hand.count_ones() == 1 {
            let winner = in_hand.trailing_zeros() as usize;
            let won = payoff::split(self.pot(), &[winner]);
            self.finish(HandOver::Fold, won);
        } else if !self.round_over() {
            self.to_act = Some(self.next_in_hand(seat + 1));
        } else if self.round == 1 {
            self.round = 2;
            self.raises = 0;
            self.acted = 0;
            self.round1_acts = Some(self.acts);
            self.to_act = Some(self.next_in_hand(0));
        } else {
            let won = payoff::showdown(self.pot(), &self.cards[..self.players], self.public, in_hand);
            self.finish(HandOver::Showdown, won);
        }
        Ok(())
    }

    fn state(&self, seat: usize) -> State {
        State {
            round: self.round,
            card: self.cards[seat],
            public: self.round1_acts.map(|_| self.public),
            pot: self.pot(),
            put_in: self.put_in[..self.players].to_vec(),
            folded: (0..self.players).map(|s| self.folded & (1 << s) != 0).collect(),
            raises: self.raises,
            owed: self.stake - self.put_in[seat],
            bet: self.bet(),
        }
    }

    fn event_count(&self) -> usize {
        1 + usize::from(self.acts) + usize::from(self.round1_acts.is_some()) + usize::from(self.over.is_some())
    }

    fn events_since(&self, start: usize) -> Vec<Event> {
        let mut events = self.all_events();
        events.drain(..start.min(events.len()));
        events
    }

    /// The deal tells each seat only its own card; the public card, the
    /// actions and the end of the hand (where only the cards of the seats
    /// at a showdown are shown) are told as they are.
    fn view(&self, event: &Event, seat: usize) -> Option<wire::Event> {
        Some(match event {
            Event::Deal(dealt) => {
                wire::Event::Deal(wire::Deal { card: *dealt.cards.get(seat)?, seats: dealt.cards.len() })
            }
            Event::Act(act) => wire::Event::Act(act.clone()),
            Event::Public(public) => wire::Event::Public(public.clone()),
            Event::HandEnd(end) => wire::Event::HandEnd(end.clone()),
        })
    }

    /// The payoffs once the game is over; 0 for every seat before.
    fn scores(&self) -> Vec<i64> {
        self.payoffs()[..self.players].to_vec()
    }

    /// Each seat's rank is the number of seats with a strictly higher payoff.
    fn outcome(&self) -> Option<Outcome> {
        let (reason, _) = self.over?;
        let payoffs = self.payoffs();
        let payoffs = &payoffs[..self.players];
        let ranks = payoffs.iter().map(|mine| payoffs.iter().filter(|&p| p > mine).count() as u32).collect();
        let reason = match reason {
            HandOver::Fold => "fold",
            HandOver::Showdown => "showdown",
        };
        Some(Outcome { reason, ranks })
    }

    /// A seat's card, until a showdown it takes part in shows it.
    fn private(&self, seat: usize) -> Option<Vec<serde_json::Value>> {
        let shown = matches!(self.over, Some((HandOver::Showdown, _))) && self.folded & (1 << seat) == 0;
        Some(if shown { Vec::new() } else { vec![serde_json::to_value(self.cards[seat]).expect("cards serialize")] })
    }

    /// A game over keeps its payoffs. Otherwise the seats at fault fold at
    /// once: the seats not at fault still in the hand (all seats not at
    /// fault, if none is) each get back what they put in, and share the
    /// chips of every other seat (those at fault, and those that folded) by
    /// the odd-chip rule; every other seat loses what it put in. When every
    /// seat is at fault, nothing is settled (all 0).
    fn forfeit_scores(&self, faulted: &[usize]) -> Vec<i64> {
        if self.over.is_some() || (0..self.players).all(|s| faulted.contains(&s)) {
            return self.scores();
        }
        let others: Vec<usize> = (0..self.players).filter(|s| !faulted.contains(s)).collect();
        let in_hand: Vec<usize> = others.iter().copied().filter(|&s| self.in_hand() & (1 << s) != 0).collect();
        let takers = if in_hand.is_empty() { others } else { in_hand };
        let lost: u32 = (0..self.players).filter(|s| !takers.contains(s)).map(|s| self.put_in[s]).sum();
        let shares = payoff::split(lost, &takers);
        (0..self.players)
            .map(|seat| if takers.contains(&seat) { i64::from(shares[seat]) } else { -i64::from(self.put_in[seat]) })
            .collect()
    }

    fn conformance_positions() -> Vec<Position<Self>> {
        conformance::positions()
    }

    fn conformance_tables() -> Vec<(&'static str, Variant)> {
        conformance::tables()
    }

    /// The seat's card, the public card, the pot and each seat's chips in,
    /// and its moves (a call of nothing reads `check`).
    fn text_turn(&self, seat: usize, names: &[String]) -> String {
        text::turn(self, seat, names)
    }

    fn text_view(view: &wire::Event, _seat: usize, names: &[String]) -> String {
        text::event(view, names)
    }

    /// The replay page drawn by the `viewer` module.
    fn html_page(record_json: &str) -> String {
        viewer::page(record_json)
    }
}
