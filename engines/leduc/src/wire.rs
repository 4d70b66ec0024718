//! The payloads of the Leduc Hold'em game: variant settings, the state a
//! seat observes, legal moves, and the events every seat is told.
//!
//! Seats are numbered from 0. Chips are whole numbers; a seat's payoff is
//! what it wins from the pot minus what it put in, so payoffs sum to 0.

use protocol::messages;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every variant setting of a Leduc Hold'em game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Variant {
    /// Number of players: 2, 3 or 4. The deck holds `players + 1` ranks in 2 suits.
    pub players: usize,
}

/// A card, written rank then suit: ranks `T J Q K A` in increasing order,
/// suits `s` and `h` (suits never rank). The deck of a game holds the
/// highest `players + 1` ranks up to `K` or `A`: `J Q K` with 2 players,
/// `J Q K A` with 3, `T J Q K A` with 4.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Card {
    /// Ten of spades.
    Ts,
    /// Ten of hearts.
    Th,
    /// Jack of spades.
    Js,
    /// Jack of hearts.
    Jh,
    /// Queen of spades.
    Qs,
    /// Queen of hearts.
    Qh,
    /// King of spades.
    Ks,
    /// King of hearts.
    Kh,
    /// Ace of spades.
    As,
    /// Ace of hearts.
    Ah,
}

impl Card {
    /// Every card, in increasing order (rank, then `s` before `h`).
    pub const ALL: [Card; 10] =
        [Card::Ts, Card::Th, Card::Js, Card::Jh, Card::Qs, Card::Qh, Card::Ks, Card::Kh, Card::As, Card::Ah];

    /// The card's rank, 0 for `T` up to 4 for `A`.
    pub fn rank(self) -> u8 {
        self as u8 / 2
    }

    /// The card as written (`"Js"`).
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 10] = ["Ts", "Th", "Js", "Jh", "Qs", "Qh", "Ks", "Kh", "As", "Ah"];
        NAMES[self as usize]
    }
}

/// A betting action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Give up the hand (legal only when owing chips).
    Fold,
    /// Match the current stake (a check when nothing is owed).
    Call,
    /// Match the stake, then add the round's bet size (at most 2 raises a round).
    Raise,
}

/// What the seat to act can see.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct State {
    /// The betting round: 1 before the public card, 2 after it.
    pub round: u8,
    /// Your private card.
    pub card: Card,
    /// The public card, once revealed (round 2).
    pub public: Option<Card>,
    /// The chips in the pot.
    pub pot: u32,
    /// What each seat has put in so far (ante included).
    pub put_in: Vec<u32>,
    /// Which seats have folded.
    pub folded: Vec<bool>,
    /// The raises made this round (the first bet counts), at most 2.
    pub raises: u8,
    /// The chips you must add to call.
    pub owed: u32,
    /// The bet (and raise) size of this round: 2 in round 1, 4 in round 2.
    pub bet: u32,
}

/// A move as a bot names it in a `move` reply. Other fields are ignored, so a
/// move from the `legal` list may be sent back as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Move {
    /// The action.
    pub action: Action,
}

/// A legal move as listed in `turn`, in the order fold, call, raise.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Choice {
    /// The action.
    pub action: Action,
    /// The chips it adds to the pot (0 for a fold or a check).
    pub chips: u32,
}

/// The deal: your private card. Every seat antes 1 chip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Deal {
    /// Your private card.
    pub card: Card,
    /// The number of seats dealt in.
    pub seats: usize,
}

/// A seat acted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Act {
    /// Who acted.
    pub seat: usize,
    /// The round (1 or 2).
    pub round: u8,
    /// What it did.
    pub action: Action,
    /// The chips it added to the pot.
    pub chips: u32,
    /// The pot after the action.
    pub pot: u32,
}

/// Round 1 is over and the public card is revealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Public {
    /// The public card.
    pub card: Card,
}

/// How a hand ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HandOver {
    /// All players but one folded.
    Fold,
    /// The players still in after round 2 showed their cards.
    Showdown,
}

/// The end of the hand: the cards shown and the payoffs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HandEnd {
    /// How it ended.
    pub reason: HandOver,
    /// Each seat's card if it was shown (at a showdown, by the seats still in); null otherwise.
    pub shown: Vec<Option<Card>>,
    /// The pot.
    pub pot: u32,
    /// The seats that won (a share of) the pot, in seat order.
    pub winners: Vec<usize>,
    /// What each seat won from the pot.
    pub won: Vec<u32>,
    /// Each seat's payoff: won minus put in (they sum to 0).
    pub payoffs: Vec<i64>,
}

/// A game event as one seat is told it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// See [`Deal`].
    Deal(Deal),
    /// See [`Act`].
    Act(Act),
    /// See [`Public`].
    Public(Public),
    /// See [`HandEnd`].
    HandEnd(HandEnd),
}

/// Every message a Leduc bot can receive, one per line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToBot {
    /// The handshake; answer `ready`.
    Hello(messages::Hello<Variant>),
    /// A game begins.
    GameStart(messages::GameStart),
    /// The cards are dealt.
    Deal(Deal),
    /// A seat acted.
    Act(Act),
    /// The public card is revealed.
    Public(Public),
    /// The hand ended.
    HandEnd(HandEnd),
    /// Your move; answer `move`.
    Turn(messages::Turn<State, Choice>),
    /// The game ended.
    GameEnd(messages::GameEnd),
    /// The match is over; exit.
    Bye,
}

/// Every message a Leduc bot can send.
pub type FromBot = messages::FromBot<Move>;

/// The JSON Schema of every message a bot receives and sends, as checked in
/// under this crate's `schema/` folder: file name and contents.
pub fn schema_documents() -> Vec<(&'static str, String)> {
    vec![
        ("leduc.to-bot.schema.json", protocol::schema::document::<ToBot>()),
        ("leduc.from-bot.schema.json", protocol::schema::document::<FromBot>()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::line;

    #[test]
    fn cards_are_written_rank_then_suit_in_increasing_order() {
        for (i, card) in Card::ALL.into_iter().enumerate() {
            assert_eq!(serde_json::to_string(&card).unwrap(), format!("\"{}\"", card.name()));
            assert_eq!(usize::from(card.rank()), i / 2);
        }
        assert!(Card::Kh.rank() > Card::Qs.rank() && Card::Js.rank() == Card::Jh.rank());
    }

    #[test]
    fn a_listed_move_can_be_sent_back_as_is() {
        let reply: FromBot =
            line::decode(br#"{"type":"move","id":3,"move":{"action":"raise","chips":3}}"#).expect("a move");
        let messages::FromBot::Move(reply) = reply else { panic!("not a move") };
        assert_eq!(reply.value, Some(Move { action: Action::Raise }));
    }

    #[test]
    fn events_and_envelope_share_one_wire_form() {
        let act = Event::Act(Act { seat: 1, round: 2, action: Action::Call, chips: 4, pot: 14 });
        let bytes = line::encode(&act);
        let parsed: ToBot = line::decode(bytes.trim_ascii_end()).expect("decodes");
        assert_eq!(parsed, ToBot::Act(Act { seat: 1, round: 2, action: Action::Call, chips: 4, pot: 14 }));
    }
}
