//! Games set up in the middle of a hand, for programs that search: a bot
//! that guesses the hidden tiles (a determinization) sets the guess up with
//! [`AllFives::from_midhand`] and plays it out with the engine's own rules.

use super::deal::{Boneyard, MAX_SEATS, PackedDeal};
use super::layout::Layout;
use super::tiles::{self, SET_SIZE, TileSet};
use super::{AllFives, DealError, Deals, variant};
use crate::wire::{End, Move, Tile, Variant};

/// A position in the middle of a hand, with every tile placed: the tiles
/// played so far (in order), each seat's hand, the boneyard in draw order,
/// the scores and the seat to act.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Midhand {
    /// The hand's number, from 1.
    pub hand: u32,
    /// The tiles played in this hand, in the order played, each with its end
    /// (`None` for the lead), exactly as the `play` events name them.
    pub played: Vec<Move>,
    /// Each seat's tiles now.
    pub hands: Vec<Vec<Tile>>,
    /// The tiles left in the boneyard, the first drawn first.
    pub boneyard: Vec<Tile>,
    /// Each seat's score now (partners show their team's score).
    pub scores: Vec<i64>,
    /// The seat whose turn it is.
    pub to_act: usize,
}

/// The open ends of a layout after these plays (in order, each with its end,
/// `None` for the lead), as a `turn`'s `state.ends` lists them; or why a play
/// does not fit. Tiles may be named either way round.
pub fn open_ends(played: &[Move]) -> Result<Vec<End>, DealError> {
    Ok(replay(played)?.ends())
}

/// The layout after these plays.
fn replay(played: &[Move]) -> Result<Layout, DealError> {
    let mut layout = Layout::default();
    for (n, play) in played.iter().enumerate() {
        let tile = tiles::normalize(play.tile);
        if tiles::index(tile).is_none() || !layout.fits(tile, play.end) {
            return Err(DealError(format!("play {} ({tile:?} on end {:?}) does not fit the layout", n + 1, play.end)));
        }
        layout.play(tile, play.end);
    }
    Ok(layout)
}

impl AllFives {
    /// A game that starts at `position` and ends with this hand: it is played
    /// out by the rules (draws, passes, a block, a player going out, the
    /// target), the hand is settled as usual, and then the game is over, as
    /// if the hand were the last one `max_hands` allows (unless the target
    /// ended it first). [`game::Game::scores`] then gives the scores
    /// after the hand and [`game::Game::outcome`] whether the target
    /// was reached.
    ///
    /// If the seat to act holds no playable tile it draws or passes first,
    /// as in play. Passes before the position need not be given: a seat that
    /// passed would pass again, so a blocked hand still ends blocked. The
    /// game's record starts with a `hand_start` that holds the position's
    /// hands and boneyard (the tiles already played are not in it).
    ///
    /// The 28 tiles must each appear exactly once among the played tiles, the
    /// hands and the boneyard; every seat must hold a tile; the plays must fit
    /// the layout; partners must show the same score.
    pub fn from_midhand(variant: &Variant, position: &Midhand) -> Result<Self, DealError> {
        variant::check(variant).map_err(|e| DealError(e.0))?;
        let players = variant.players;
        if position.hands.len() != players || position.scores.len() != players {
            return Err(DealError(format!("the position does not have {players} hands and scores")));
        }
        if position.to_act >= players || position.hand == 0 {
            return Err(DealError("the seat to act or the hand number is out of range".to_string()));
        }
        if let Some(seat) = position.hands.iter().position(Vec::is_empty) {
            return Err(DealError(format!("seat {seat} holds no tile: the hand is over")));
        }
        let layout = replay(&position.played)?;
        let played = position.played.iter().map(|play| play.tile);
        let all: Vec<Tile> =
            played.chain(position.hands.iter().flatten().copied()).chain(position.boneyard.iter().copied()).collect();
        let mut seen = TileSet::EMPTY;
        for &tile in &all {
            let index = tiles::index(tiles::normalize(tile))
                .ok_or_else(|| DealError(format!("{tile:?} is not a double-six tile")))? as u8;
            if seen.contains(index) {
                return Err(DealError(format!("{tile:?} appears twice")));
            }
            seen.insert(index);
        }
        if seen.len() != SET_SIZE {
            return Err(DealError(format!("{} of the 28 tiles are placed", seen.len())));
        }
        let mut game = Self::blank(variant, Deals::Fixed(Vec::new()), position.hand);
        for (seat, &side) in game.side_of.iter().enumerate() {
            let first = game.side_of.iter().position(|&s| s == side).expect("a seat of the side");
            if position.scores[seat] != position.scores[first] {
                return Err(DealError(format!("partners {first} and {seat} show different scores")));
            }
            game.side_scores[side] = position.scores[seat];
        }
        let mut hands = [TileSet::EMPTY; MAX_SEATS];
        for (set, hand) in hands.iter_mut().zip(&position.hands) {
            let normalized: Vec<Tile> = hand.iter().copied().map(tiles::normalize).collect();
            *set = TileSet::of(&normalized);
        }
        let boneyard: Vec<u8> = position
            .boneyard
            .iter()
            .map(|&t| tiles::index(tiles::normalize(t)).expect("checked above") as u8)
            .collect();
        let boneyard = Boneyard::new(&boneyard);
        game.hand = position.hand;
        game.hands.copy_from_slice(&hands[..players]);
        game.boneyard = boneyard;
        game.layout = layout;
        let deal = PackedDeal { hands, boneyard, leader: position.to_act as u8 };
        game.log.start_hand(position.hand, position.to_act as u8, deal, game.packed_scores());
        game.advance(position.to_act);
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Event;
    use game::Game;

    /// The position the game is in, with every tile placed, as a search would guess it.
    fn position(game: &AllFives) -> Midhand {
        let events = game.events();
        let start = events.iter().rposition(|e| matches!(e, Event::HandStart(_))).expect("a hand started");
        let played = events[start..]
            .iter()
            .filter_map(|e| match e {
                Event::Play(play) => Some(Move { tile: play.tile, end: play.end }),
                _ => None,
            })
            .collect();
        let seats = 0..game.variant.players;
        Midhand {
            hand: game.hand_number(),
            played,
            hands: seats.map(|seat| game.state(seat).hand).collect(),
            boneyard: game.boneyard.iter().copied().collect(),
            scores: game.scores(),
            to_act: game.to_act().expect("a seat to act"),
        }
    }

    /// A game resumed anywhere plays the rest of the hand exactly as the
    /// original does, and ends the game with it.
    #[test]
    fn a_resumed_hand_plays_out_as_the_original() {
        for (players, hand_end) in [("2", "subtract-own"), ("3", "winner-takes"), ("4", "subtract-own")] {
            let settings = [("players", players), ("hand_end", hand_end), ("boneyard_keep", "1")];
            let settings: Vec<(String, String)> =
                settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let variant = AllFives::parse_variant(&settings).unwrap();
            for seed in 0..2 {
                let mut game = AllFives::new(&variant, seed);
                let mut turn = 0;
                while game.to_act().is_some() {
                    turn += 1;
                    if turn % 3 != 0 {
                        game.play(turn % game.legal_count()).unwrap();
                        continue;
                    }
                    let mut original = game.clone();
                    let mut resumed = AllFives::from_midhand(&variant, &position(&game)).expect("a valid position");
                    let (hand, done) = (original.hand_number(), original.event_count());
                    let mut step = turn;
                    while original.to_act().is_some() && original.hand_number() == hand {
                        assert_eq!(resumed.choices(), original.choices());
                        step += 1;
                        original.play(step % original.legal_count()).unwrap();
                        resumed.play(step % resumed.legal_count()).unwrap();
                    }
                    let tail = |events: Vec<Event>| -> Vec<Event> {
                        let end = events.iter().position(|e| matches!(e, Event::HandEnd(_))).expect("the hand ended");
                        events[..=end].to_vec()
                    };
                    assert_eq!(tail(resumed.events_since(1)), tail(original.events_since(done)));
                    assert_eq!((resumed.scores(), resumed.to_act()), (original.scores(), None));
                    let reason =
                        if original.outcome().is_some_and(|o| o.reason == "target") { "target" } else { "max_hands" };
                    assert_eq!(resumed.outcome().map(|o| o.reason), Some(reason));
                    game.play(turn % game.legal_count()).unwrap();
                }
            }
        }
    }

    #[test]
    fn open_ends_replays_the_layout() {
        let play = |tile, end| Move { tile, end };
        let ends = open_ends(&[play([5, 5], None), play([5, 3], Some(0)), play([2, 5], Some(1))]).unwrap();
        let shown: Vec<(u8, u8, u32)> = ends.iter().map(|e| (e.id, e.pips, e.counts)).collect();
        assert_eq!(shown, [(0, 3, 3), (1, 2, 2), (2, 5, 0), (3, 5, 0)]);
        assert!(open_ends(&[play([5, 5], None), play([1, 2], Some(0))]).is_err());
        assert!(open_ends(&[play([1, 2], Some(0))]).is_err());
    }

    #[test]
    fn impossible_positions_are_refused() {
        let variant = AllFives::parse_variant(&[("players".to_string(), "4".to_string())]).unwrap();
        let game = AllFives::new(&variant, 9);
        let good = position(&game);
        assert!(AllFives::from_midhand(&variant, &good).is_ok());
        let mut twice = good.clone();
        twice.boneyard[0] = twice.hands[0][0];
        assert!(AllFives::from_midhand(&variant, &twice).unwrap_err().0.contains("twice"));
        let mut partners = good.clone();
        partners.scores[2] = 5;
        assert!(AllFives::from_midhand(&variant, &partners).unwrap_err().0.contains("partners"));
        let mut empty = good.clone();
        empty.boneyard.append(&mut empty.hands[1]);
        assert!(AllFives::from_midhand(&variant, &empty).unwrap_err().0.contains("holds no tile"));
        let mut seat = good;
        seat.to_act = 4;
        assert!(AllFives::from_midhand(&variant, &seat).is_err());
    }
}
