//! Games from explicit deals: fuzz-chosen variants and deals, valid or not.

use super::drive;
use super::ledger::full_set;
use super::small_variant;
use crate::wire::{DealSize, HandEndRule, HandOver, Tile, Variant};
use crate::{AllFives, Deal, Event};
use game::Game;
use game::fuzz_input::Input;

/// Builds a variant (usually valid, sometimes not) and 0 to 3 deals from
/// `data`: shuffles of the set, dealt by the variant's hand size, then
/// perhaps damaged (a tile flipped, changed, removed, moved or repeated, a
/// hand added, dropped or emptied, the leader changed).
/// [`AllFives::from_deals`] must refuse them with an error exactly when they
/// are invalid (judged here independently); a game it accepts is played out
/// with moves from the rest of the input, checking every invariant, and must
/// deal exactly the given deals.
///
/// # Panics
/// When an invariant of the engine breaks.
pub fn deals(data: &[u8]) {
    let mut input = Input::new(data);
    let variant = if input.byte() < 32 { any_variant(&mut input) } else { small_variant(&mut input) };
    let count = input.below(4);
    let deals: Vec<Deal> = (0..count).map(|_| deal(&variant, &mut input)).collect();
    let expected = validity(&variant, &deals);
    let mut game = match (AllFives::from_deals(&variant, deals.clone()), expected) {
        (Ok(game), Ok(())) => game,
        (Err(_), Err(_)) => return,
        (Ok(_), Err(why)) => panic!("from_deals accepted an invalid game ({why}): {variant:?} {deals:?}"),
        (Err(e), Ok(())) => panic!("from_deals refused a valid game ({e}): {variant:?} {deals:?}"),
    };
    let last_hand = variant.max_hands.min(deals.len() as u32);
    let ledger = drive::play_out(&mut game, &variant, last_hand, &mut input);
    for event in game.events() {
        let Event::HandStart(dealt) = event else { continue };
        let given = &deals[dealt.hand as usize - 1];
        let hands: Vec<Vec<Tile>> = given
            .hands
            .iter()
            .map(|hand| {
                let mut hand: Vec<Tile> = hand.iter().map(|&t| normalize(t)).collect();
                hand.sort_unstable();
                hand
            })
            .collect();
        assert_eq!(dealt.hands, hands, "hand {} deals the given hands", dealt.hand);
        let boneyard: Vec<Tile> = given.boneyard.iter().map(|&t| normalize(t)).collect();
        assert_eq!(dealt.boneyard, boneyard, "hand {} deals the given boneyard in order", dealt.hand);
        let previous = (dealt.hand >= 2).then(|| &ledger.ends[dealt.hand as usize - 2]);
        let leader = match previous {
            Some(end) if end.reason == HandOver::Out => end.out.expect("who went out"),
            _ => given.leader,
        };
        assert_eq!(dealt.leader, leader, "the leader of hand {}", dealt.hand);
    }
}

/// Any variant, valid or not, with small numbers.
fn any_variant(input: &mut Input) -> Variant {
    Variant {
        players: input.below(6),
        partners: input.flag(),
        deal: [DealSize::Standard, DealSize::Five, DealSize::SevenFive][input.below(3)],
        boneyard_keep: input.below(4),
        hand_end: [HandEndRule::SubtractOwn, HandEndRule::WinnerTakes][input.below(2)],
        target: i64::from(input.byte() as i8),
        max_hands: input.below(4) as u32,
    }
}

/// The tile with its smaller half first.
fn normalize([a, b]: Tile) -> Tile {
    [a.min(b), a.max(b)]
}

/// A shuffled deal for `variant`, perhaps damaged.
fn deal(variant: &Variant, input: &mut Input) -> Deal {
    let mut set = full_set();
    for i in (1..set.len()).rev() {
        set.swap(i, input.below(i + 1));
    }
    let size = variant.hand_size();
    let dealt = (variant.players * size).min(set.len());
    let hands = set[..dealt].chunks(size).map(<[Tile]>::to_vec).collect();
    let boneyard = set[dealt..].to_vec();
    let mut deal = Deal { hands, boneyard, leader: input.below(variant.players.max(1)) };
    let damage = match input.byte() {
        0..=159 => 0,
        160..=223 => 1,
        n => 2 + usize::from(n % 3),
    };
    for _ in 0..damage {
        damage_once(&mut deal, input);
    }
    deal
}

/// One of several ways to spoil (or, flipping a tile, not to spoil) a deal.
fn damage_once(deal: &mut Deal, input: &mut Input) {
    let place = input.below(deal.hands.len() + 1);
    let tiles = if place < deal.hands.len() { &mut deal.hands[place] } else { &mut deal.boneyard };
    let at = input.below(tiles.len().max(1));
    match input.below(8) {
        0 => {
            if let Some(tile) = tiles.get_mut(at) {
                tile.reverse();
            }
        }
        1 => {
            let tile = [input.below(9) as u8, input.below(9) as u8];
            match tiles.get_mut(at) {
                Some(old) => *old = tile,
                None => tiles.push(tile),
            }
        }
        2 => {
            if at < tiles.len() {
                tiles.remove(at);
            }
        }
        3 => {
            if at < tiles.len() {
                let tile = tiles.remove(at);
                let to = input.below(deal.hands.len() + 1);
                let tiles = if to < deal.hands.len() { &mut deal.hands[to] } else { &mut deal.boneyard };
                tiles.push(tile);
            }
        }
        4 => {
            if input.flag() {
                deal.hands.push(Vec::new());
            } else {
                deal.hands.pop();
            }
        }
        5 => deal.leader = input.below(8),
        6 => tiles.clear(),
        _ => {
            if let Some(&tile) = tiles.get(at) {
                deal.boneyard.push(tile);
            }
        }
    }
}

/// Whether `from_deals` must accept this game, judged from the rules alone.
fn validity(variant: &Variant, deals: &[Deal]) -> Result<(), String> {
    let players = variant.players;
    if !(2..=4).contains(&players) || (variant.partners && players != 4) {
        return Err(format!("{players} players, partners {}", variant.partners));
    }
    if variant.boneyard_keep > 2 || variant.target <= 0 || variant.max_hands == 0 {
        return Err(format!("{variant:?}"));
    }
    if deals.is_empty() {
        return Err("no deals".to_string());
    }
    let size = variant.hand_size();
    for (i, deal) in deals.iter().enumerate() {
        if deal.hands.len() != players || deal.hands.iter().any(|h| h.len() != size) || deal.leader >= players {
            return Err(format!("deal {i}: hand sizes or leader"));
        }
        let mut tiles: Vec<Tile> = deal.hands.iter().flatten().chain(&deal.boneyard).map(|&t| normalize(t)).collect();
        tiles.sort_unstable();
        if tiles != full_set() {
            return Err(format!("deal {i}: not the 28 tiles once each"));
        }
    }
    Ok(())
}
