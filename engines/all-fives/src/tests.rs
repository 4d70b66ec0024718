//! Scenario tests of the whole engine through the [`Game`] interface, on
//! hand-built deals.

use super::tiles::CANONICAL;
use super::*;
use crate::wire::{End, HandEndRule};

/// A variant from `KEY=VALUE` pairs.
fn variant(pairs: &[(&str, &str)]) -> Variant {
    let settings: Vec<(String, String)> = pairs.iter().map(|&(k, v)| (k.to_string(), v.to_string())).collect();
    AllFives::parse_variant(&settings).unwrap()
}

/// Plays `tile` on `end` for `seat`, checking that the listed move scores
/// `points`, and that the play scored them.
fn play(game: &mut AllFives, seat: usize, tile: Tile, end: Option<u8>, points: u32) {
    assert_eq!(game.to_act(), Some(seat), "{tile:?}: wrong seat to act");
    let index = game
        .find_move(&Move { tile, end })
        .unwrap_or_else(|| panic!("{tile:?} on {end:?} is not legal: {:?}", game.choices()));
    assert_eq!(game.choices()[index].points, points, "{tile:?} listed points");
    let before = game.events().len();
    game.play(index).unwrap();
    let Event::Play(p) = &game.events()[before] else { panic!("no play event") };
    assert_eq!((p.seat, p.tile, p.end, p.points), (seat, tiles::normalize(tile), end, points));
}

/// The counting ends as `(id, pips, counts)`.
fn ends(game: &AllFives) -> Vec<(u8, u8, u32)> {
    game.state(0).ends.iter().map(|e: &End| (e.id, e.pips, e.counts)).collect()
}

/// The last event that is a hand end.
fn last_hand_end(game: &AllFives) -> HandEnd {
    game.events()
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::HandEnd(end) => Some(end.clone()),
            _ => None,
        })
        .expect("a hand ended")
}

/// The hand starts in the record.
fn hand_starts(game: &AllFives) -> Vec<Dealt> {
    game.events()
        .iter()
        .filter_map(|e| match e {
            Event::HandStart(d) => Some(d.clone()),
            _ => None,
        })
        .collect()
}

/// One row of a worked-example table: who plays what where, then the
/// counting ends, the total and the points.
type Row = (usize, Tile, Option<u8>, &'static [(u8, u8, u32)], u32, u32);

fn run_table(game: &mut AllFives, rows: &[Row]) {
    for &(seat, tile, end, want, total, points) in rows {
        play(game, seat, tile, end, points);
        assert_eq!(ends(game), want, "after {tile:?}");
        assert_eq!(game.layout.count(), total, "after {tile:?}");
    }
}

#[test]
fn worked_example_spinner_lead_through_the_game() {
    let v = variant(&[("deal", "five")]);
    let d =
        Deal::stacked(&[&[[5, 5], [2, 5], [5, 6], [1, 1], [1, 2]], &[[3, 5], [0, 5], [1, 3], [1, 4], [2, 2]]], &[], 0);
    let mut g = AllFives::from_deals(&v, vec![d]).unwrap();
    assert_eq!(g.to_act(), Some(0));
    let leads: Vec<_> = g.choices().iter().map(|c| (c.tile, c.end, c.points)).collect();
    assert_eq!(leads, [([1, 1], None, 0), ([1, 2], None, 0), ([2, 5], None, 0), ([5, 5], None, 10), ([5, 6], None, 0)]);
    run_table(
        &mut g,
        &[
            (0, [5, 5], None, &[(0, 5, 5), (1, 5, 5)], 10, 10),
            (1, [5, 3], Some(0), &[(0, 3, 3), (1, 5, 10)], 13, 0),
            (0, [2, 5], Some(1), &[(0, 3, 3), (1, 2, 2), (2, 5, 0), (3, 5, 0)], 5, 5),
            (1, [5, 0], Some(2), &[(0, 3, 3), (1, 2, 2), (2, 0, 0), (3, 5, 0)], 5, 5),
            (0, [6, 5], Some(3), &[(0, 3, 3), (1, 2, 2), (2, 0, 0), (3, 6, 6)], 11, 0),
        ],
    );
    assert_eq!(g.scores(), [15, 5]);
}

#[test]
fn worked_example_spinner_onto_a_line_through_the_game() {
    let v = variant(&[("deal", "five")]);
    let d =
        Deal::stacked(&[&[[4, 6], [1, 4], [6, 6], [0, 0], [0, 1]], &[[4, 4], [3, 4], [2, 6], [0, 2], [1, 1]]], &[], 0);
    let mut g = AllFives::from_deals(&v, vec![d]).unwrap();
    run_table(
        &mut g,
        &[
            (0, [6, 4], None, &[(0, 4, 4), (1, 6, 6)], 10, 10),
            (1, [4, 4], Some(0), &[(0, 4, 8), (1, 6, 6)], 14, 0),
            (0, [4, 1], Some(0), &[(0, 1, 1), (1, 6, 6), (2, 4, 0), (3, 4, 0)], 7, 0),
            (1, [4, 3], Some(2), &[(0, 1, 1), (1, 6, 6), (2, 3, 3), (3, 4, 0)], 10, 10),
            (0, [6, 6], Some(1), &[(0, 1, 1), (1, 6, 12), (2, 3, 3), (3, 4, 0)], 16, 0),
            (1, [6, 2], Some(1), &[(0, 1, 1), (1, 2, 2), (2, 3, 3), (3, 4, 0)], 6, 0),
        ],
    );
    assert_eq!(g.scores(), [10, 10]);
}

#[test]
fn the_short_ends_are_not_offered_until_both_sides_are_covered() {
    let v = variant(&[("deal", "five")]);
    let d =
        Deal::stacked(&[&[[5, 5], [2, 5], [0, 0], [1, 1], [1, 2]], &[[3, 5], [0, 5], [1, 3], [1, 4], [2, 2]]], &[], 0);
    let mut g = AllFives::from_deals(&v, vec![d]).unwrap();
    play(&mut g, 0, [5, 5], None, 10);
    let offered: Vec<_> = g.choices().iter().map(|c| (c.tile, c.end)).collect();
    assert_eq!(offered, [([0, 5], Some(0)), ([0, 5], Some(1)), ([3, 5], Some(0)), ([3, 5], Some(1))]);
    assert_eq!(g.find_move(&Move { tile: [5, 3], end: Some(2) }), None);
    play(&mut g, 1, [3, 5], Some(1), 0);
    let offered: Vec<_> = g.choices().iter().map(|c| (c.tile, c.end)).collect();
    assert_eq!(offered, [([2, 5], Some(0))]);
}

#[test]
fn a_seat_draws_until_it_can_play_and_must_play_the_drawn_tile() {
    let v = variant(&[("deal", "five")]);
    let d = Deal::stacked(
        &[&[[2, 6], [0, 0], [0, 1], [0, 2], [0, 3]], &[[1, 1], [1, 3], [1, 4], [1, 5], [3, 3]]],
        &[[4, 4], [0, 4], [3, 6]],
        0,
    );
    let mut g = AllFives::from_deals(&v, vec![d]).unwrap();
    play(&mut g, 0, [2, 6], None, 0);
    // Seat 1 holds no 2 and no 6: it draws three tiles, the third fits.
    let draw = Draw { seat: 1, count: 3, tiles: Some(vec![[4, 4], [0, 4], [3, 6]]) };
    assert_eq!(g.events().last(), Some(&Event::Draw(draw.clone())));
    assert_eq!(g.to_act(), Some(1));
    // Only the drawn tile may be played, and here it fits one end only.
    let choices = g.choices();
    assert_eq!(choices, [Choice { tile: [3, 6], end: Some(1), points: 5 }]);
    let state = g.state(1);
    assert_eq!(state.hand.len(), 8);
    assert!(state.hand.contains(&[0, 4]) && state.hand.contains(&[3, 6]));
    assert_eq!((state.boneyard, state.drawable), (15, 15));
    assert_eq!(state.hand_sizes, [4, 8]);
    // Only the drawer is told the tiles.
    assert_eq!(g.view(&Event::Draw(draw.clone()), 1), Some(wire::Event::Draw(draw)));
    assert_eq!(g.view(g.events().last().unwrap(), 0), Some(wire::Event::Draw(Draw { seat: 1, count: 3, tiles: None })));
    play(&mut g, 1, [6, 3], Some(1), 5);
    assert_eq!(g.scores(), [0, 5]);
}

#[test]
fn boneyard_keep_stops_drawing_and_forces_a_pass() {
    // Seat 0 holds every 6 and the 0s; seat 1 cannot follow a 6-6 lead.
    let sixes: Vec<Tile> = (0..=6).map(|a| [a, 6]).collect();
    let zeros: Vec<Tile> = (0..=5).map(|b| [0, b]).collect();
    let seat0: Vec<Tile> = sixes.iter().chain(&zeros).copied().collect();
    let seat1: Vec<Tile> =
        CANONICAL.iter().copied().filter(|t| !seat0.contains(t) && *t != [4, 5] && *t != [5, 5]).collect();
    assert_eq!((seat0.len(), seat1.len()), (13, 13));
    for (keep, drawn) in [(0, vec![[4, 5], [5, 5]]), (1, vec![[4, 5]]), (2, vec![])] {
        let v = variant(&[("boneyard_keep", &keep.to_string())]);
        let d = Deal::stacked(&[&seat0, &seat1], &[[4, 5], [5, 5]], 0);
        let mut g = AllFives::from_deals_any_size(&v, vec![d]);
        play(&mut g, 0, [6, 6], None, 0);
        let mut tail = Vec::new();
        if !drawn.is_empty() {
            tail.push(Event::Draw(Draw { seat: 1, count: drawn.len(), tiles: Some(drawn.clone()) }));
        }
        tail.push(Event::Pass(Pass { seat: 1 }));
        let events = g.events();
        assert_eq!(events[events.len() - tail.len()..], tail[..], "keep {keep}");
        assert!(matches!(events[events.len() - tail.len() - 1], Event::Play(_)));
        let state = g.state(1);
        assert_eq!((state.boneyard, state.drawable), (keep, 0), "keep {keep}");
        assert_eq!(state.hand.len(), 13 + drawn.len());
        // The turn passes back to seat 0; one pass does not block the hand.
        assert_eq!(g.to_act(), Some(0));
        assert_eq!(g.passes, 1);
        play(&mut g, 0, [0, 6], Some(0), 0);
        assert_eq!(g.passes, 1, "a play resets the passes, then seat 1 passes again");
        assert_eq!(g.events().last(), Some(&Event::Pass(Pass { seat: 1 })));
        assert_eq!(g.to_act(), Some(0));
    }
}

/// A hand that blocks after seven plays: every 0 is played or kept in the
/// boneyard, and all four ends show 0. Seat 0 is left with 66 pips, seat 1
/// with 71; seat 1 scored 5 during the hand.
fn blocked_deal(leader_of_next: usize) -> (Deal, Deal) {
    let seat0: &[Tile] =
        &[[0, 0], [0, 3], [3, 4], [0, 4], [1, 1], [1, 3], [1, 4], [1, 5], [1, 6], [3, 6], [4, 6], [5, 6], [6, 6]];
    let seat1: &[Tile] =
        &[[0, 1], [1, 2], [0, 2], [2, 2], [2, 3], [2, 4], [2, 5], [2, 6], [3, 3], [3, 5], [4, 4], [4, 5], [5, 5]];
    let first = Deal::stacked(&[seat0, seat1], &[[0, 5], [0, 6]], 0);
    let mut second = Deal::seeded(77, 2, 2, 9);
    second.leader = leader_of_next;
    (first, second)
}

/// Plays [`blocked_deal`]'s first hand up to the block.
fn play_to_block(g: &mut AllFives) {
    play(g, 0, [0, 0], None, 0);
    play(g, 1, [0, 1], Some(0), 0);
    play(g, 0, [0, 3], Some(1), 0);
    play(g, 1, [1, 2], Some(0), 5);
    play(g, 0, [3, 4], Some(1), 0);
    play(g, 1, [0, 2], Some(0), 0);
    assert_eq!(ends(g), [(0, 0, 0), (1, 4, 4), (2, 0, 0), (3, 0, 0)]);
    play(g, 0, [0, 4], Some(1), 0);
}

#[test]
fn a_blocked_hand_ends_with_one_pass_each_and_draws_under_max_hands() {
    let v = variant(&[("boneyard_keep", "2"), ("max_hands", "1")]);
    let (first, second) = blocked_deal(1);
    let mut g = AllFives::from_deals_any_size(&v, vec![first, second]);
    play_to_block(&mut g);
    let events = g.events();
    let n = events.len();
    assert_eq!(events[n - 3], Event::Pass(Pass { seat: 1 }));
    assert_eq!(events[n - 2], Event::Pass(Pass { seat: 0 }));
    let end = last_hand_end(&g);
    assert_eq!(end.reason, HandOver::Blocked);
    assert_eq!(end.out, None);
    assert_eq!(end.pips, [66, 71]);
    assert_eq!(end.hands[0].len(), 9);
    // 66 -> 65 and 71 -> 70: 0 - 65 = 5 - 70.
    assert_eq!(end.changes, [-65, -70]);
    assert_eq!(end.scores, [-65, -65]);
    // max_hands = 1: adjudicated, equal scores share first place.
    assert_eq!(g.to_act(), None);
    assert!(g.choices().is_empty());
    assert_eq!(g.outcome(), Some(Outcome { reason: "max_hands", ranks: vec![0, 0] }));
    assert_eq!(hand_starts(&g).len(), 1);
}

#[test]
fn after_a_blocked_hand_the_leader_is_random_again() {
    for next in [0, 1] {
        let v = variant(&[("boneyard_keep", "2"), ("hand_end", "winner-takes")]);
        let (first, second) = blocked_deal(next);
        let mut g = AllFives::from_deals_any_size(&v, vec![first, second.clone()]);
        play_to_block(&mut g);
        let end = last_hand_end(&g);
        // Winner-takes: seat 0 has fewer pips and scores seat 1's 71 -> 70.
        assert_eq!(
            (end.reason, end.changes.clone(), end.scores.clone()),
            (HandOver::Blocked, vec![70, 0], vec![70, 5])
        );
        let starts = hand_starts(&g);
        assert_eq!(starts.len(), 2);
        let mut hands = second.normalized().hands;
        hands.iter_mut().for_each(|h| h.sort_unstable());
        assert_eq!(starts[1].hands, hands);
        assert_eq!(starts[1].leader, next, "the deal's random leader");
        assert_eq!(starts[1].scores, [70, 5]);
        assert_eq!(g.to_act(), Some(next));
        assert_eq!(g.hand_number(), 2);
        assert_eq!(g.state(0).hand_number, 2);
    }
}

/// The first worked example as a short hand: seat 0 goes out with 5-6,
/// seat 1 is left holding 4-4.
fn out_deal() -> Vec<Deal> {
    let first = Deal::stacked(&[&[[5, 5], [2, 5], [5, 6]], &[[3, 5], [0, 5], [4, 4]]], &[], 1);
    let mut second = Deal::seeded(5, 2, 2, 9);
    second.leader = 1;
    vec![first, second]
}

fn play_out_hand(g: &mut AllFives) {
    play(g, 1, [5, 5], None, 10);
    play(g, 0, [3, 5], Some(0), 0);
    play(g, 1, [2, 5], Some(1), 5);
    play(g, 0, [0, 5], Some(2), 5);
    play(g, 1, [5, 6], Some(3), 0);
}

#[test]
fn going_out_settles_subtract_own_and_the_player_out_leads_next() {
    let v = variant(&[]);
    // Seats swapped so that seat 1 leads and goes out.
    let mut deals = out_deal();
    deals[0].hands.swap(0, 1);
    deals[1].leader = 0;
    let mut g = AllFives::from_deals_any_size(&v, deals);
    play_out_hand(&mut g);
    let end = last_hand_end(&g);
    assert_eq!(end.reason, HandOver::Out);
    assert_eq!(end.out, Some(1));
    assert_eq!(end.hands, [vec![[4, 4]], vec![]]);
    assert_eq!(end.pips, [8, 0]);
    assert_eq!(end.changes, [-10, 0]);
    assert_eq!(end.scores, [-5, 15]);
    let starts = hand_starts(&g);
    assert_eq!(starts.len(), 2);
    assert_eq!(starts[1].leader, 1, "the player who went out leads, not the deal's leader");
    assert_eq!(g.to_act(), Some(1));
    assert_eq!(g.scores(), [-5, 15]);
    assert_eq!(g.outcome(), None);
}

#[test]
fn going_out_under_winner_takes() {
    let v = variant(&[("hand_end", "winner-takes")]);
    let mut deals = out_deal();
    deals[0].hands.swap(0, 1);
    let mut g = AllFives::from_deals_any_size(&v, deals);
    play_out_hand(&mut g);
    let end = last_hand_end(&g);
    assert_eq!((end.reason, end.out), (HandOver::Out, Some(1)));
    assert_eq!(end.changes, [0, 10]);
    assert_eq!(end.scores, [5, 25]);
}

#[test]
fn winner_takes_award_can_reach_the_target() {
    let v = variant(&[("hand_end", "winner-takes"), ("target", "25")]);
    let mut deals = out_deal();
    deals[0].hands.swap(0, 1);
    let mut g = AllFives::from_deals_any_size(&v, deals);
    play_out_hand(&mut g);
    let end = last_hand_end(&g);
    assert_eq!((end.reason, end.scores.clone()), (HandOver::Out, vec![5, 25]));
    assert_eq!(hand_starts(&g).len(), 1, "no next hand");
    assert_eq!(g.outcome(), Some(Outcome { reason: "target", ranks: vec![1, 0] }));
}

#[test]
fn running_out_of_fixed_deals_ends_the_game_as_max_hands() {
    let mut deals = out_deal();
    deals.truncate(1);
    deals[0].hands.swap(0, 1);
    let mut g = AllFives::from_deals_any_size(&variant(&[]), deals);
    play_out_hand(&mut g);
    assert_eq!(g.outcome(), Some(Outcome { reason: "max_hands", ranks: vec![1, 0] }));
}

#[test]
fn a_partnership_hand_settles_per_team() {
    let hands: &[&[Tile]] = &[&[[5, 5]], &[[5, 6]], &[[1, 3]], &[[0, 2]]];
    let expected = [
        // Subtract-own: partner 2's 4 -> 5; seats 1 and 3: 11 -> 10 and 2 -> 0.
        (HandEndRule::SubtractOwn, [-5, -10, -5, -10], [5, -10, 5, -10]),
        // Winner-takes: 11 + 2 = 13 -> 15 (not 10 + 0), partner's 4 ignored.
        (HandEndRule::WinnerTakes, [15, 0, 15, 0], [25, 0, 25, 0]),
    ];
    for (rule, changes, scores) in expected {
        let rule_name = if rule == HandEndRule::SubtractOwn { "subtract-own" } else { "winner-takes" };
        let v = variant(&[("players", "4"), ("hand_end", rule_name)]);
        assert!(v.partners);
        assert_eq!(AllFives::teams(&v), [vec![0, 2], vec![1, 3]]);
        let mut g = AllFives::from_deals_any_size(&v, vec![Deal::stacked(hands, &[], 0)]);
        play(&mut g, 0, [5, 5], None, 10);
        let Event::Play(p) = &g.events()[1] else { panic!() };
        assert_eq!(p.scores, [10, 0, 10, 0]);
        let end = last_hand_end(&g);
        assert_eq!((end.reason, end.out), (HandOver::Out, Some(0)));
        assert_eq!(end.pips, [0, 11, 4, 2]);
        assert_eq!(end.changes, changes, "{rule:?}");
        assert_eq!(end.scores, scores, "{rule:?}");
        assert_eq!(g.scores(), scores);
        // Hand 2 is led by seat 0, who went out (fixed deals ran out, so it's over).
        assert_eq!(g.outcome(), Some(Outcome { reason: "max_hands", ranks: vec![0, 1, 0, 1] }));
    }
}

#[test]
fn reaching_the_target_mid_hand_ends_the_game_unsettled() {
    let v = variant(&[("target", "15"), ("deal", "five")]);
    let d =
        Deal::stacked(&[&[[5, 5], [2, 5], [5, 6], [1, 1], [1, 2]], &[[3, 5], [0, 5], [1, 3], [1, 4], [2, 2]]], &[], 0);
    let mut g = AllFives::from_deals(&v, vec![d]).unwrap();
    play(&mut g, 0, [5, 5], None, 10);
    play(&mut g, 1, [3, 5], Some(0), 0);
    play(&mut g, 0, [2, 5], Some(1), 5);
    let end = last_hand_end(&g);
    assert_eq!(end.reason, HandOver::Target);
    assert_eq!(end.out, None);
    assert_eq!(end.changes, [0, 0]);
    assert_eq!(end.scores, [15, 0]);
    assert_eq!(end.hands, [vec![[1, 1], [1, 2], [5, 6]], vec![[0, 5], [1, 3], [1, 4], [2, 2]]]);
    assert_eq!(end.pips, [16, 18]);
    assert_eq!(g.to_act(), None);
    assert_eq!(g.outcome(), Some(Outcome { reason: "target", ranks: vec![0, 1] }));
    // Nothing more may be played.
    let before = g.events().len();
    assert_eq!(g.play(0), Err(IllegalMove { index: 0, legal: 0 }));
    assert_eq!(g.events().len(), before);
    assert_eq!(g.find_move(&Move { tile: [5, 0], end: Some(2) }), None);
}

#[test]
fn reaching_the_target_with_the_last_tile_is_not_settled() {
    let v = variant(&[("target", "10")]);
    let d = Deal::stacked(&[&[[5, 5]], &[[6, 6], [1, 2]]], &[], 0);
    let mut g = AllFives::from_deals_any_size(&v, vec![d]);
    play(&mut g, 0, [5, 5], None, 10);
    let end = last_hand_end(&g);
    assert_eq!((end.reason, end.out), (HandOver::Target, Some(0)));
    assert_eq!(end.changes, [0, 0]);
    assert_eq!(end.scores, [10, 0]);
    assert_eq!(end.pips, [0, 15]);
    assert_eq!(g.outcome(), Some(Outcome { reason: "target", ranks: vec![0, 1] }));
}

#[test]
fn ranks_count_the_sides_strictly_ahead() {
    let mut g = AllFives::new(&variant(&[("players", "3")]), 1);
    assert_eq!(g.outcome(), None);
    g.over = Some("max_hands");
    g.side_scores = vec![10, 30, 10];
    assert_eq!(g.outcome().unwrap().ranks, [1, 0, 1]);
    let mut g = AllFives::new(&variant(&[("players", "4"), ("partners", "no")]), 1);
    g.over = Some("max_hands");
    g.side_scores = vec![5, 5, 5, -20];
    assert_eq!(g.outcome().unwrap().ranks, [0, 0, 0, 3]);
    g.side_scores = vec![-5, 40, 40, 0];
    assert_eq!(g.outcome().unwrap().ranks, [3, 0, 0, 2]);
}

#[test]
fn illegal_indices_leave_the_game_unchanged() {
    let mut g = AllFives::new(&variant(&[]), 42);
    let events = g.events().to_vec();
    let state = g.state(0);
    assert_eq!(g.choices().len(), 9);
    assert_eq!(g.play(9), Err(IllegalMove { index: 9, legal: 9 }));
    assert_eq!(g.play(usize::MAX), Err(IllegalMove { index: usize::MAX, legal: 9 }));
    assert_eq!(g.events(), events);
    assert_eq!(g.state(0), state);
    assert_eq!(g.to_act(), Some(0));
}

#[test]
fn find_move_names_tiles_either_way_round() {
    let mut g = AllFives::new(&variant(&[]), 42);
    // Seed 42 deals seat 0 the 3-6 and it leads.
    assert_eq!(g.find_move(&Move { tile: [6, 3], end: None }), Some(6));
    assert_eq!(g.find_move(&Move { tile: [3, 6], end: None }), Some(6));
    assert_eq!(g.find_move(&Move { tile: [3, 6], end: Some(0) }), None, "the lead has no end");
    assert_eq!(g.find_move(&Move { tile: [5, 5], end: None }), None, "not in hand");
    g.play(6).unwrap();
    let index = g.find_move(&Move { tile: [6, 1], end: Some(1) }).unwrap();
    assert_eq!(g.choices()[index].tile, [1, 6]);
    assert_eq!(g.find_move(&Move { tile: [6, 1], end: Some(0) }), None, "end 0 shows 3");
    assert_eq!(g.find_move(&Move { tile: [6, 1], end: None }), None);
}

#[test]
fn a_seeded_game_starts_with_the_golden_deal() {
    let v = variant(&[]);
    let g = AllFives::new(&v, 42);
    let Event::HandStart(dealt) = &g.events()[0] else { panic!("no hand start") };
    assert_eq!(dealt.hand, 1);
    assert_eq!(dealt.leader, 0);
    assert_eq!(dealt.hands[0], [[0, 1], [0, 3], [1, 2], [1, 4], [2, 3], [3, 5], [3, 6], [4, 6], [6, 6]]);
    assert_eq!(dealt.hands[1], [[0, 0], [1, 1], [1, 3], [1, 5], [1, 6], [2, 2], [3, 3], [4, 5], [5, 6]]);
    assert_eq!(dealt.boneyard, [[0, 6], [2, 6], [0, 5], [0, 4], [2, 5], [0, 2], [2, 4], [5, 5], [3, 4], [4, 4]]);
    assert_eq!(dealt.scores, [0, 0]);
    assert_eq!(g.events().len(), 1);
    assert_eq!(g.to_act(), Some(0));
    // Each seat is told its own tiles only.
    let Some(wire::Event::HandStart(seen)) = g.view(&g.events()[0], 1) else { panic!() };
    assert_eq!(seen.tiles, dealt.hands[1]);
    assert_eq!((seen.hand, seen.leader, seen.boneyard), (1, 0, 10));
    assert_eq!(seen.hand_sizes, [9, 9]);
    let state = g.state(1);
    assert_eq!(state.hand, dealt.hands[1]);
    assert_eq!((state.hand_number, state.boneyard, state.drawable), (1, 10, 10));
    assert!(state.ends.is_empty());
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let v = variant(&[("players", "3")]);
    let run = |seed| {
        let mut g = AllFives::new(&v, seed);
        let mut i = 0usize;
        while g.to_act().is_some() {
            let n = g.choices().len();
            g.play(i % n).unwrap();
            i += 7;
        }
        g.events().to_vec()
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
}

#[test]
fn from_deals_checks_its_deals() {
    let v = variant(&[]);
    assert!(AllFives::from_deals(&v, vec![]).unwrap_err().0.contains("no deals"));
    let small = Deal::stacked(&[&[[5, 5]], &[[6, 6]]], &[], 0);
    let e = AllFives::from_deals(&v, vec![Deal::seeded(1, 1, 2, 9), small]).unwrap_err();
    assert!(e.0.contains("hand 2") && e.0.contains("variant deals 9"), "{e}");
    let mut bad = v.clone();
    bad.players = 7;
    assert!(AllFives::from_deals(&bad, vec![Deal::seeded(1, 1, 2, 9)]).is_err());
    // Tiles given either way round are normalized and hands sorted.
    let mut flipped = Deal::seeded(1, 1, 2, 9);
    flipped.hands[0] = flipped.hands[0].iter().map(|t| [t[1], t[0]]).collect();
    let g = AllFives::from_deals(&v, vec![flipped]).unwrap();
    let Event::HandStart(dealt) = &g.events()[0] else { panic!() };
    assert!(dealt.hands[0].windows(2).all(|w| w[0] < w[1] && w[0][0] <= w[0][1]));
}

#[test]
fn record_events_serialize_with_a_type_tag() {
    let g = AllFives::new(&variant(&[]), 42);
    let json = serde_json::to_string(&g.events()[0]).unwrap();
    assert!(json.starts_with(r#"{"type":"hand_start","hand":1,"leader":0,"hands":[["#), "{json}");
    let back: Event = serde_json::from_str(&json).unwrap();
    assert_eq!(back, g.events()[0]);
    let draw = Event::Draw(Draw { seat: 1, count: 1, tiles: Some(vec![[2, 3]]) });
    let json = serde_json::to_string(&draw).unwrap();
    assert_eq!(json, r#"{"type":"draw","seat":1,"count":1,"tiles":[[2,3]]}"#);
    let hidden = serde_json::to_string(&g.view(&draw, 0).unwrap()).unwrap();
    assert_eq!(hidden, r#"{"type":"draw","seat":1,"count":1}"#);
}

#[test]
fn game_interface_basics() {
    assert_eq!(AllFives::NAME, "all-fives");
    let v = variant(&[("players", "3")]);
    assert_eq!(AllFives::seats(&v), 3);
    assert_eq!(AllFives::teams(&v), [vec![0], vec![1], vec![2]]);
    assert_eq!(AllFives::variant_options().len(), 7);
    let g = AllFives::new(&v, 3);
    assert_eq!(g.variant(), &v);
    assert_eq!(g.scores(), [0, 0, 0]);
}

#[test]
#[should_panic(expected = "invalid All Fives variant")]
fn new_refuses_an_impossible_variant() {
    let mut v = variant(&[]);
    v.players = 1;
    let _ = AllFives::new(&v, 1);
}

/// The arena moves games and their payloads between threads.
#[test]
fn the_engine_and_its_payloads_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<AllFives>();
    send_sync::<Event>();
    send_sync::<Move>();
    send_sync::<Choice>();
    send_sync::<State>();
    send_sync::<wire::Event>();
}

#[test]
fn an_illegal_move_named_by_value_says_what_is_wrong() {
    let mut game = AllFives::new(&variant(&[]), 11);
    let seat = game.to_act().unwrap();
    let held = game.state(seat).hand[0];
    let why = |game: &AllFives, tile: Tile, end: Option<u8>| game.why_illegal(&Move { tile, end }).unwrap_or_default();
    assert!(why(&game, held, Some(0)).contains("this is the lead: leave `end` out"), "{}", why(&game, held, Some(0)));
    assert_eq!(why(&game, [7, 1], None), "[7, 1] is not a tile (each number is 0 to 6)");
    let missing = CANONICAL.iter().copied().find(|&t| !game.state(seat).hand.contains(&t)).unwrap();
    assert_eq!(why(&game, missing, None), format!("seat {seat} does not hold {missing:?}"));
    assert_eq!(game.why_illegal(&Move { tile: held, end: None }), None, "a legal lead");
    game.play(0).unwrap();
    let seat = game.to_act().unwrap();
    let state = game.state(seat);
    let held = state.hand[0];
    assert!(why(&game, held, None).starts_with("`end` is missing (or null)"), "{}", why(&game, held, None));
    assert_eq!(why(&game, held, Some(3)), "end 3 is not open (the open ends are [0, 1])");
    let misfit = state.hand.iter().copied().find(|t| !t.contains(&state.ends[0].pips));
    if let Some(tile) = misfit {
        let expected = format!("{tile:?} does not fit end 0, which shows {}", state.ends[0].pips);
        assert_eq!(why(&game, tile, Some(0)), expected);
    }
}
