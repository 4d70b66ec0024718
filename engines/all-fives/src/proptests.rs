//! Property tests: random seeds, player counts and variants, random legal
//! play to the end of the game, with every event checked against an
//! independent model of the rules.

use super::tiles::CANONICAL;
use super::*;
use crate::wire::HandEndRule;
use proptest::prelude::*;

/// An open end as `(id, pips, counts)`.
type OpenEnd = (u8, u8, u32);

/// The other half of `tile` when `pips` is matched.
fn other(tile: Tile, pips: u8) -> u8 {
    if tile[0] == pips { tile[1] } else { tile[0] }
}

/// The open ends recomputed from scratch from the hand's plays, written
/// independently of the engine's incremental layout: each end is followed
/// from the lead (or the spinner, for ends 2 and 3) through the tiles played
/// on it.
fn recount(plays: &[(Tile, Option<u8>)]) -> Vec<OpenEnd> {
    let Some(&(lead, None)) = plays.first() else {
        assert!(plays.is_empty(), "the first play is a lead");
        return Vec::new();
    };
    let mut arms: [Vec<Tile>; 4] = Default::default();
    for &(tile, end) in &plays[1..] {
        arms[usize::from(end.expect("only the lead has no end"))].push(tile);
    }
    let spinner = plays.iter().map(|p| p.0).find(|t| t[0] == t[1]);
    let lead_double = lead[0] == lead[1];
    let shorts_open = match spinner {
        None => false,
        Some(_) if lead_double => !arms[0].is_empty() && !arms[1].is_empty(),
        Some(s) => arms[..2].iter().any(|arm| arm.iter().position(|&t| t == s).is_some_and(|k| arm.len() > k + 1)),
    };
    let mut out = Vec::new();
    for id in 0..4usize {
        let arm = &arms[id];
        if id >= 2 && !shorts_open {
            assert!(arm.is_empty(), "a play on a closed short end");
            continue;
        }
        let base = if id < 2 { lead[id] } else { spinner.unwrap()[0] };
        let mut pips = base;
        for &tile in arm {
            assert!(tile[0] == pips || tile[1] == pips, "{tile:?} does not match {pips}");
            pips = other(tile, pips);
        }
        let p = u32::from(pips);
        let counts = match arm.last() {
            None if id >= 2 => 0,
            None if lead_double && arms[1 - id].is_empty() => p,
            None if lead_double => 2 * p,
            None => p,
            Some(t) if t[0] == t[1] => 2 * p,
            Some(_) => p,
        };
        out.push((id as u8, pips, counts));
    }
    out
}

/// The points scored after these plays.
fn points(plays: &[(Tile, Option<u8>)]) -> u32 {
    let total: u32 = recount(plays).iter().map(|e| e.2).sum();
    if total.is_multiple_of(5) { total } else { 0 }
}

/// Rounding to a multiple of five, written differently from the engine.
fn rounded(pips: u32) -> i64 {
    let r = pips % 5;
    i64::from(if r <= 2 { pips - r } else { pips + 5 - r })
}

/// A tiny deterministic generator for choosing moves.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// What the checker knows, rebuilt from the record alone.
struct Model {
    variant: Variant,
    seed: u64,
    side_of: Vec<usize>,
    hands: Vec<Vec<Tile>>,
    boneyard: Vec<Tile>,
    plays: Vec<(Tile, Option<u8>)>,
    scores: Vec<i64>,
    hand: u32,
    /// How the previous hand ended: `Some(Some(seat))` out, `Some(None)` blocked.
    previous_out: Option<Option<usize>>,
    passes_in_a_row: Vec<usize>,
    last_drawn: Option<(usize, Tile)>,
    over: bool,
}

impl Model {
    fn new(variant: &Variant, seed: u64) -> Self {
        let side_of = (0..variant.players).map(|seat| if variant.partners { seat % 2 } else { seat }).collect();
        Model {
            variant: variant.clone(),
            seed,
            side_of,
            hands: Vec::new(),
            boneyard: Vec::new(),
            plays: Vec::new(),
            scores: vec![0; variant.players],
            hand: 0,
            previous_out: None,
            passes_in_a_row: Vec::new(),
            last_drawn: None,
            over: false,
        }
    }

    fn fits_anywhere(&self, tile: Tile) -> bool {
        self.plays.is_empty() || recount(&self.plays).iter().any(|e| tile.contains(&e.1))
    }

    /// Every legal move, with its points, from the model.
    fn legal(&self, seat: usize) -> Vec<Choice> {
        let mut out = Vec::new();
        for &tile in &self.hands[seat] {
            if self.plays.is_empty() {
                let points = points(&[(tile, None)]);
                out.push(Choice { tile, end: None, points });
                continue;
            }
            for (id, pips, _) in recount(&self.plays) {
                if tile.contains(&pips) {
                    let mut next = self.plays.clone();
                    next.push((tile, Some(id)));
                    out.push(Choice { tile, end: Some(id), points: points(&next) });
                }
            }
        }
        out
    }

    /// The 28 tiles are all in hands, the boneyard or the layout, once each.
    fn check_tiles(&self) {
        let mut all: Vec<Tile> = self.hands.iter().flatten().copied().collect();
        all.extend(&self.boneyard);
        all.extend(self.plays.iter().map(|p| p.0));
        all.sort_unstable();
        assert_eq!(all, CANONICAL.to_vec());
    }

    fn apply(&mut self, event: &Event) {
        assert!(!self.over, "an event after the game ended");
        let players = self.variant.players;
        match event {
            Event::HandStart(d) => {
                self.hand += 1;
                assert_eq!(d.hand, self.hand);
                assert!(self.hand <= self.variant.max_hands);
                let deal = Deal::seeded(self.seed, d.hand, players, self.variant.hand_size());
                let mut hands = deal.hands.clone();
                hands.iter_mut().for_each(|h| h.sort_unstable());
                assert_eq!(d.hands, hands);
                assert_eq!(d.boneyard, deal.boneyard);
                let leader = match self.previous_out {
                    Some(Some(out)) => out,
                    None | Some(None) => deal.leader,
                };
                assert_eq!(d.leader, leader);
                assert_eq!(d.scores, self.scores);
                self.hands = d.hands.clone();
                self.boneyard = d.boneyard.clone();
                self.plays.clear();
                self.passes_in_a_row.clear();
                self.last_drawn = None;
            }
            Event::Draw(draw) => {
                let tiles = draw.tiles.clone().expect("the record shows drawn tiles");
                assert_eq!(draw.count, tiles.len());
                assert!(!tiles.is_empty());
                assert!(!self.fits_anywhere_for(draw.seat), "drew while holding a playable tile");
                assert_eq!(tiles[..], self.boneyard[..tiles.len()]);
                assert!(self.boneyard.len() - tiles.len() >= self.variant.boneyard_keep);
                for &t in &tiles[..tiles.len() - 1] {
                    assert!(!self.fits_anywhere(t), "kept drawing after a playable {t:?}");
                }
                self.boneyard.drain(..tiles.len());
                self.hands[draw.seat].extend(&tiles);
                self.hands[draw.seat].sort_unstable();
                self.last_drawn = Some((draw.seat, *tiles.last().unwrap()));
            }
            Event::Pass(pass) => {
                assert!(self.boneyard.len() <= self.variant.boneyard_keep, "passed with tiles to draw");
                assert!(!self.fits_anywhere_for(pass.seat), "passed holding a playable tile");
                assert!(!self.passes_in_a_row.contains(&pass.seat));
                self.passes_in_a_row.push(pass.seat);
                assert!(self.passes_in_a_row.len() <= players);
                self.last_drawn = None;
            }
            Event::Play(play) => {
                let legal = self.legal(play.seat);
                let choice = legal
                    .iter()
                    .find(|c| c.tile == play.tile && c.end == play.end)
                    .unwrap_or_else(|| panic!("illegal play {play:?}"));
                if let Some((seat, tile)) = self.last_drawn {
                    assert_eq!((seat, tile), (play.seat, play.tile), "must play the drawn tile");
                }
                assert_eq!(play.points, choice.points, "points of {play:?}");
                let hand = &mut self.hands[play.seat];
                hand.retain(|&t| t != play.tile);
                self.plays.push((play.tile, play.end));
                let side = self.side_of[play.seat];
                for seat in 0..players {
                    if self.side_of[seat] == side {
                        self.scores[seat] += i64::from(play.points);
                    }
                }
                assert_eq!(play.scores, self.scores);
                self.passes_in_a_row.clear();
                self.last_drawn = None;
            }
            Event::HandEnd(end) => {
                assert_eq!(end.hand, self.hand);
                assert_eq!(end.hands, self.hands);
                let pips: Vec<u32> = self.hands.iter().map(|h| tiles::pips(h)).collect();
                assert_eq!(end.pips, pips);
                let reached = self.scores.iter().any(|&s| s >= self.variant.target);
                let changes: Vec<i64> = match end.reason {
                    HandOver::Target => {
                        assert!(reached);
                        let out = self.hands.iter().position(Vec::is_empty);
                        assert_eq!(end.out, out);
                        vec![0; players]
                    }
                    HandOver::Out => {
                        assert!(!reached);
                        let out = end.out.expect("someone went out");
                        assert!(self.hands[out].is_empty());
                        self.settle(&pips, Some(out))
                    }
                    HandOver::Blocked => {
                        assert!(!reached);
                        assert_eq!(end.out, None);
                        assert_eq!(self.passes_in_a_row.len(), players, "one pass each");
                        assert!(self.hands.iter().all(|h| !h.is_empty()));
                        self.settle(&pips, None)
                    }
                };
                assert_eq!(end.changes, changes);
                for (score, change) in self.scores.iter_mut().zip(&changes) {
                    *score += change;
                }
                assert_eq!(end.scores, self.scores);
                self.previous_out = Some(end.out);
                let reached = self.scores.iter().any(|&s| s >= self.variant.target);
                self.over = reached || end.reason == HandOver::Target || self.hand == self.variant.max_hands;
            }
        }
        self.check_tiles();
    }

    fn fits_anywhere_for(&self, seat: usize) -> bool {
        self.hands[seat].iter().any(|&t| self.fits_anywhere(t))
    }

    /// Per-seat changes, computed seat by seat.
    fn settle(&self, pips: &[u32], out: Option<usize>) -> Vec<i64> {
        let players = self.variant.players;
        let same = |a: usize, b: usize| self.side_of[a] == self.side_of[b];
        (0..players)
            .map(|seat| match self.variant.hand_end {
                HandEndRule::SubtractOwn => {
                    -(0..players).filter(|&p| same(p, seat)).map(|p| rounded(pips[p])).sum::<i64>()
                }
                HandEndRule::WinnerTakes => {
                    let team_pips = |s: usize| (0..players).filter(|&p| same(p, s)).map(|p| pips[p]).sum::<u32>();
                    let wins = match out {
                        Some(out) => same(out, seat),
                        None => (0..players).filter(|&p| !same(p, seat)).all(|p| team_pips(p) > team_pips(seat)),
                    };
                    if wins { rounded((0..players).filter(|&p| !same(p, seat)).map(|p| pips[p]).sum()) } else { 0 }
                }
            })
            .collect()
    }
}

/// What a seat may be told of an event: its own tiles, its own draws, the
/// public plays and passes, and the hand-end reveal.
fn check_view(game: &AllFives, event: &Event, seat: usize) {
    let view = game.view(event, seat).expect("every seat is told every event");
    match (event, view) {
        (Event::HandStart(d), wire::Event::HandStart(v)) => {
            assert_eq!(v.tiles, d.hands[seat]);
            assert_eq!((v.hand, v.leader, v.boneyard), (d.hand, d.leader, d.boneyard.len()));
            assert_eq!(v.hand_sizes, d.hands.iter().map(Vec::len).collect::<Vec<_>>());
            assert_eq!(v.scores, d.scores);
        }
        (Event::Draw(d), wire::Event::Draw(v)) => {
            assert_eq!((v.seat, v.count), (d.seat, d.count));
            if seat == d.seat {
                assert_eq!(v.tiles, d.tiles);
            } else {
                assert_eq!(v.tiles, None, "seat {seat} told another's draw");
                let json = serde_json::to_string(&v).unwrap();
                assert!(!json.contains("tiles"), "{json}");
            }
        }
        (Event::Play(p), wire::Event::Play(v)) => assert_eq!(&v, p),
        (Event::Pass(p), wire::Event::Pass(v)) => assert_eq!(&v, p),
        (Event::HandEnd(e), wire::Event::HandEnd(v)) => assert_eq!(&v, e),
        (event, view) => panic!("{view:?} is not a view of {event:?}"),
    }
}

/// Plays a whole game at random and checks everything along the way.
/// Returns the finished game.
fn play_game(variant: &Variant, seed: u64, moves: u64) -> AllFives {
    let mut game = AllFives::new(variant, seed);
    let mut model = Model::new(variant, seed);
    let mut rng = SplitMix(moves);
    let mut seen = 0;
    let mut plays = 0;
    loop {
        for event in &game.events_since(seen) {
            model.apply(event);
            for seat in 0..variant.players {
                check_view(&game, event, seat);
            }
        }
        seen = game.event_count();
        // The engine's own position agrees with the model.
        assert_eq!(game.hands, model.hands);
        assert_eq!(game.boneyard.iter().copied().collect::<Vec<_>>(), model.boneyard);
        assert_eq!(game.layout.tiles(), model.plays.len());
        assert_eq!(game.scores(), model.scores);
        for seat in 0..variant.players {
            let state = game.state(seat);
            assert_eq!(state.hand, model.hands[seat]);
            let ends: Vec<OpenEnd> = state.ends.iter().map(|e| (e.id, e.pips, e.counts)).collect();
            assert_eq!(ends, recount(&model.plays));
            assert_eq!(state.scores, model.scores);
            assert_eq!(state.drawable, model.boneyard.len().saturating_sub(variant.boneyard_keep));
        }
        for team in AllFives::teams(variant) {
            assert!(team.iter().all(|&s| game.scores()[s] == game.scores()[team[0]]));
        }
        let Some(seat) = game.to_act() else { break };
        assert!(!model.over);
        let choices = game.choices();
        assert!(!choices.is_empty(), "asked to move with no legal move");
        assert_eq!(choices, model.legal(seat), "the legal moves");
        if let Some((drawer, tile)) = model.last_drawn {
            assert_eq!(drawer, seat);
            assert!(choices.iter().all(|c| c.tile == tile), "only the drawn tile");
        }
        let index = (rng.next() % choices.len() as u64) as usize;
        let named = Move { tile: [choices[index].tile[1], choices[index].tile[0]], end: choices[index].end };
        assert_eq!(game.find_move(&named), Some(index));
        let before = game.event_count();
        game.play(index).unwrap();
        // The first event a play appends is the move itself.
        let Event::Play(p) = &game.events_since(before)[0] else { panic!("a play must come first") };
        assert_eq!(
            (p.seat, p.tile, p.end, p.points),
            (seat, choices[index].tile, choices[index].end, choices[index].points)
        );
        plays += 1;
        assert!(plays < 28 * variant.max_hands as usize + 1, "the game does not end");
    }
    assert!(model.over, "the game stopped without ending");
    let outcome = game.outcome().expect("an outcome");
    let reached = model.scores.iter().any(|&s| s >= variant.target);
    assert_eq!(outcome.reason, if reached { "target" } else { "max_hands" });
    if !reached {
        assert_eq!(model.hand, variant.max_hands);
    }
    let ranks: Vec<u32> = model
        .scores
        .iter()
        .map(|&mine| {
            let sides = AllFives::teams(variant);
            sides.iter().filter(|t| model.scores[t[0]] > mine).count() as u32
        })
        .collect();
    assert_eq!(outcome.ranks, ranks);
    assert_eq!(game.play(0), Err(IllegalMove { index: 0, legal: 0 }));
    game
}

/// Variant settings covering every key.
fn variants() -> impl Strategy<Value = Variant> {
    (
        2usize..=4,
        any::<bool>(),
        prop_oneof![Just("standard"), Just("five"), Just("seven-five")],
        0usize..=2,
        prop_oneof![Just("subtract-own"), Just("winner-takes")],
        prop_oneof![Just(None), (1i64..=150).prop_map(Some)],
        prop_oneof![Just(None), (1u32..=8).prop_map(Some)],
    )
        .prop_map(|(players, partners, deal, keep, hand_end, target, max_hands)| {
            let mut settings = vec![
                ("players".to_string(), players.to_string()),
                ("deal".to_string(), deal.to_string()),
                ("boneyard_keep".to_string(), keep.to_string()),
                ("hand_end".to_string(), hand_end.to_string()),
            ];
            if players == 4 {
                settings.push(("partners".to_string(), partners.to_string()));
            }
            if let Some(target) = target {
                settings.push(("target".to_string(), target.to_string()));
            }
            if let Some(max) = max_hands {
                settings.push(("max_hands".to_string(), max.to_string()));
            }
            AllFives::parse_variant(&settings).unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_rule(variant in variants(), seed in any::<u64>(), moves in any::<u64>()) {
        play_game(&variant, seed, moves);
    }
}

#[test]
fn the_recount_agrees_with_the_worked_examples() {
    let plays = [([5, 5], None), ([3, 5], Some(0)), ([2, 5], Some(1)), ([0, 5], Some(2)), ([5, 6], Some(3))];
    let totals: Vec<u32> = (1..=plays.len()).map(|n| recount(&plays[..n]).iter().map(|e| e.2).sum()).collect();
    assert_eq!(totals, [10, 13, 5, 5, 11]);
    let plays =
        [([4, 6], None), ([4, 4], Some(0)), ([1, 4], Some(0)), ([3, 4], Some(2)), ([6, 6], Some(1)), ([2, 6], Some(1))];
    let totals: Vec<u32> = (1..=plays.len()).map(|n| recount(&plays[..n]).iter().map(|e| e.2).sum()).collect();
    assert_eq!(totals, [10, 14, 7, 10, 16, 6]);
}

#[test]
fn full_length_games_with_default_variants() {
    // Default targets and max_hands: long games, every player count.
    for (players, seed) in [(2, 1u64), (3, 2), (4, 3)] {
        let settings = vec![("players".to_string(), players.to_string())];
        let variant = AllFives::parse_variant(&settings).unwrap();
        let game = play_game(&variant, seed, seed * 31);
        assert!(game.events().len() > 20);
    }
}

/// Random play over a fixed set of games reaches every kind of situation the
/// property test is meant to check.
#[test]
fn random_play_covers_every_situation() {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for i in 0..600u64 {
        let players = 2 + (i % 3) as usize;
        let mut settings = vec![
            ("players".to_string(), players.to_string()),
            ("boneyard_keep".to_string(), (i / 3 % 3).to_string()),
            ("deal".to_string(), ["standard", "five", "seven-five"][(i / 9 % 3) as usize].to_string()),
            ("hand_end".to_string(), ["subtract-own", "winner-takes"][(i / 2 % 2) as usize].to_string()),
            ("max_hands".to_string(), (1 + i % 7).to_string()),
        ];
        if i % 4 == 0 {
            settings.push(("target".to_string(), "60".to_string()));
        }
        let variant = AllFives::parse_variant(&settings).unwrap();
        let game = play_game(&variant, i, i);
        *seen.entry(game.outcome().unwrap().reason).or_default() += 1;
        let events = game.events();
        for (k, event) in events.iter().enumerate() {
            let next = events.get(k + 1);
            let kind = match event {
                Event::Draw(_) if matches!(next, Some(Event::Pass(_))) => "draw then pass",
                Event::Draw(d) if d.count > 1 => "draw several then play",
                Event::Draw(_) => "draw one then play",
                Event::Pass(_) => "pass",
                Event::HandEnd(e) => match e.reason {
                    HandOver::Out => "out",
                    HandOver::Target if e.out.is_some() => "target with last tile",
                    HandOver::Target => "target mid-hand",
                    HandOver::Blocked
                        if variant.hand_end == HandEndRule::WinnerTakes && e.changes.iter().all(|&c| c == 0) =>
                    {
                        "blocked, tie"
                    }
                    HandOver::Blocked => "blocked",
                },
                Event::Play(p) if p.points > 0 => "scoring play",
                _ => continue,
            };
            *seen.entry(kind).or_default() += 1;
        }
    }
    for kind in [
        "target",
        "max_hands",
        "draw then pass",
        "draw several then play",
        "draw one then play",
        "pass",
        "out",
        "target mid-hand",
        "blocked",
        "blocked, tie",
        "scoring play",
    ] {
        assert!(seen.get(kind).copied().unwrap_or(0) > 0, "never saw {kind}: {seen:?}");
    }
}
