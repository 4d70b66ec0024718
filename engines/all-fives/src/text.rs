//! All Fives as text, for a person who plays a seat in a terminal (`arena
//! play`): the layout drawn as a line of tiles with the spinner's short ends
//! below it, the open ends and the count, the seat's hand, the scores, the
//! legal moves numbered from 1, and one line per event the seat is told.
//!
//! Everything shown comes from what the seat may see: its own state, the
//! tiles played (public), and the events as [`Game::view`] tells them.

use super::{AllFives, Event};
use crate::wire::{self, Choice, End, HandOver, Play, State, Tile};
use game::Game;

/// The tiles played in a hand, as arms growing from the lead: what a person
/// needs to picture the layout.
#[derive(Debug, Default, PartialEq, Eq)]
struct Arms {
    /// The lead, as dealt (`[a, b]`, `a <= b`).
    lead: Option<Tile>,
    /// The spinner's number, once the hand's first double is down.
    spinner: Option<u8>,
    /// The tiles played on each end, from the inside out, each as (the half
    /// that touches the tile before it, the half that shows).
    arms: [Vec<(u8, u8)>; 4],
    /// The number each end shows.
    shows: [u8; 4],
}

impl Arms {
    /// The arms after `plays`, the plays of one hand in order.
    fn of<'a>(plays: impl IntoIterator<Item = &'a Play>) -> Arms {
        let mut arms = Arms::default();
        for play in plays {
            let [a, b] = play.tile;
            match play.end {
                None => {
                    arms.lead = Some(play.tile);
                    arms.shows = [a, b, a, a];
                    if a == b {
                        arms.spinner = Some(a);
                    }
                }
                Some(end) => {
                    let end = usize::from(end).min(3);
                    let inner = arms.shows[end];
                    let outer = if a == inner { b } else { a };
                    arms.arms[end].push((inner, outer));
                    arms.shows[end] = outer;
                    if a == b && arms.spinner.is_none() {
                        arms.spinner = Some(a);
                        arms.shows[2] = a;
                        arms.shows[3] = a;
                    }
                }
            }
        }
        arms
    }

    /// The line through ends 0 and 1, left to right, e.g. `3 [3|4]<4|4>[4|0][0|5] 5`.
    fn line(&self) -> String {
        let Some(lead) = self.lead else { return "(empty: the next tile played is the lead)".to_string() };
        let mut line = format!("{} ", self.shows[0]);
        for &(inner, outer) in self.arms[0].iter().rev() {
            line.push_str(&self.tile(outer, inner));
        }
        line.push_str(&self.tile(lead[0], lead[1]));
        for &(inner, outer) in &self.arms[1] {
            line.push_str(&self.tile(inner, outer));
        }
        line.push_str(&format!(" {}", self.shows[1]));
        line
    }

    /// The spinner's short ends, once it is down: what lies on each.
    fn short_ends(&self, open: &[End]) -> Option<String> {
        let spinner = self.spinner?;
        let sides: Vec<String> = [2, 3]
            .iter()
            .map(|&end| {
                let tiles: String = self.arms[end].iter().map(|&(inner, outer)| self.tile(inner, outer)).collect();
                match (open.iter().any(|e| usize::from(e.id) == end), tiles.is_empty()) {
                    (false, _) => format!("end {end} not open yet"),
                    (true, true) => format!("end {end} open, nothing on it"),
                    (true, false) => format!("end {end}: {tiles} {}", self.shows[end]),
                }
            })
            .collect();
        Some(format!("short ends of the spinner <{spinner}|{spinner}>: {}", sides.join("; ")))
    }

    /// A tile as drawn: `[a|b]`, the spinner `<a|a>`.
    fn tile(&self, left: u8, right: u8) -> String {
        if left == right && self.spinner == Some(left) {
            format!("<{left}|{right}>")
        } else {
            format!("[{left}|{right}]")
        }
    }
}

/// `[a|b]`.
fn tile(tile: Tile) -> String {
    format!("[{}|{}]", tile[0], tile[1])
}

/// `seat 1 (greedy)`.
fn who(seat: usize, names: &[String]) -> String {
    match names.get(seat) {
        Some(name) => format!("seat {seat} ({name})"),
        None => format!("seat {seat}"),
    }
}

/// `seat 0 (you) 15 · seat 1 (greedy) 5`.
fn per_seat<T: std::fmt::Display>(values: &[T], names: &[String]) -> String {
    values
        .iter()
        .enumerate()
        .map(|(seat, value)| format!("{} {value}", who(seat, names)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// What `seat` sees at its turn in `game`.
pub(super) fn turn(game: &AllFives, seat: usize, names: &[String]) -> String {
    let state = game.state(seat);
    let events = game.events();
    let hand_start = events.iter().rposition(|e| matches!(e, Event::HandStart(_))).map_or(0, |at| at + 1);
    let plays: Vec<&Play> = events[hand_start..]
        .iter()
        .filter_map(|event| match event {
            Event::Play(play) => Some(play),
            _ => None,
        })
        .collect();
    let arms = Arms::of(plays.iter().copied());
    let unseen = unseen(&state.hand, plays.iter().map(|play| play.tile));
    position(&state, &arms, &game.choices(), seat, names, &unseen)
}

/// The tiles of the set that the seat has not seen this hand: neither in
/// its hand nor played (in the others' hands or the boneyard), in order.
fn unseen(hand: &[Tile], played: impl Iterator<Item = Tile>) -> Vec<Tile> {
    let normal = |[a, b]: Tile| [a.min(b), a.max(b)];
    let seen: Vec<Tile> = hand.iter().copied().chain(played).map(normal).collect();
    (0..=6u8).flat_map(|a| (a..=6).map(move |b| [a, b])).filter(|t| !seen.contains(t)).collect()
}

/// The text of a turn, from what the seat sees.
fn position(state: &State, arms: &Arms, choices: &[Choice], seat: usize, names: &[String], unseen: &[Tile]) -> String {
    let mut text = format!("hand {}, {} to play\n", state.hand_number, who(seat, names));
    text.push_str(&format!("  layout:  {}\n", arms.line()));
    if let Some(short) = arms.short_ends(&state.ends) {
        text.push_str(&format!("           {short}\n"));
    }
    if !state.ends.is_empty() {
        let ends: Vec<String> =
            state.ends.iter().map(|end| format!("end {} shows {} (counts {})", end.id, end.pips, end.counts)).collect();
        let count: u32 = state.ends.iter().map(|end| end.counts).sum();
        text.push_str(&format!("  open:    {}; the count is {count}\n", ends.join(", ")));
    }
    text.push_str(&format!("  scores:  {}\n", per_seat(&state.scores, names)));
    text.push_str(&format!(
        "  tiles:   {}; boneyard {} ({} may be drawn)\n",
        per_seat(&state.hand_sizes, names),
        state.boneyard,
        state.drawable
    ));
    let hand: Vec<String> = state.hand.iter().map(|&t| tile(t)).collect();
    text.push_str(&format!("  hand:    {}\n", hand.join(" ")));
    let unseen_tiles: Vec<String> = unseen.iter().map(|&t| tile(t)).collect();
    text.push_str(&format!("  unseen:  {} (the others' hands and the boneyard)\n", unseen_tiles.join(" ")));
    text.push_str("  moves:\n");
    for (number, choice) in choices.iter().enumerate() {
        let place = match choice.end {
            None => "lead".to_string(),
            Some(end) => {
                let shows = state.ends.iter().find(|e| e.id == end).map_or(0, |e| e.pips);
                format!("on end {end} (shows {shows})")
            }
        };
        let points = match choice.points {
            0 => String::new(),
            points => format!(", scores {points}"),
        };
        text.push_str(&format!("    {:>2}. {} {place}{points}\n", number + 1, tile(choice.tile)));
    }
    text
}

/// One event as `seat` was told it.
pub(super) fn event(view: &wire::Event, seat: usize, names: &[String]) -> String {
    match view {
        wire::Event::HandStart(start) => {
            let hand: Vec<String> = start.tiles.iter().map(|&t| tile(t)).collect();
            format!(
                "hand {} begins: {} holds {}; {} leads; scores {}",
                start.hand,
                who(seat, names),
                hand.join(" "),
                who(start.leader, names),
                per_seat(&start.scores, names)
            )
        }
        wire::Event::Play(play) => {
            let place = match play.end {
                None => "as the lead".to_string(),
                Some(end) => format!("on end {end}"),
            };
            let points = match play.points {
                0 => String::new(),
                points => format!(", scoring {points}"),
            };
            format!("{} plays {} {place}{points}", who(play.seat, names), tile(play.tile))
        }
        wire::Event::Draw(draw) => {
            let what = match &draw.tiles {
                Some(tiles) => tiles.iter().map(|&t| tile(t)).collect::<Vec<_>>().join(" "),
                None if draw.count == 1 => "1 tile".to_string(),
                None => format!("{} tiles", draw.count),
            };
            format!("{} draws {what} from the boneyard", who(draw.seat, names))
        }
        wire::Event::Pass(pass) => format!("{} cannot play and passes", who(pass.seat, names)),
        wire::Event::HandEnd(end) => {
            let how = match (end.reason, end.out) {
                (HandOver::Target, _) => "a score reached the target".to_string(),
                (HandOver::Blocked, _) => "the hand is blocked".to_string(),
                (HandOver::Out, Some(out)) => format!("{} went out", who(out, names)),
                (HandOver::Out, None) => "a player went out".to_string(),
            };
            let hands: Vec<String> = end
                .hands
                .iter()
                .enumerate()
                .filter(|(_, hand)| !hand.is_empty())
                .map(|(seat, hand)| {
                    let tiles: Vec<String> = hand.iter().map(|&t| tile(t)).collect();
                    format!("{} {} ({} pips)", who(seat, names), tiles.join(" "), end.pips[seat])
                })
                .collect();
            let left = if hands.is_empty() { String::new() } else { format!("; left in hand: {}", hands.join(", ")) };
            format!(
                "hand {} ends: {how}{left}; changes {}; scores {}",
                end.hand,
                per_seat(&end.changes, names),
                per_seat(&end.scores, names)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(tile: Tile, end: Option<u8>) -> Play {
        Play { seat: 0, tile, end, points: 0, scores: vec![0, 0] }
    }

    #[test]
    fn draws_the_line_and_the_spinners_short_ends() {
        // The transcript of this engine's PROTOCOL.md: [0,5] led, [5,6] on end 1, [0,4] on
        // end 0, [1,6] on end 1, [1,3] on end 1, [4,4] (the spinner) on end 0,
        // [3,3] on end 1, [3,4] on end 0 (the spinner's other side).
        let plays = [
            play([0, 5], None),
            play([5, 6], Some(1)),
            play([0, 4], Some(0)),
            play([1, 6], Some(1)),
            play([1, 3], Some(1)),
            play([4, 4], Some(0)),
            play([3, 3], Some(1)),
            play([3, 4], Some(0)),
        ];
        let arms = Arms::of(&plays);
        assert_eq!(arms.line(), "3 [3|4]<4|4>[4|0][0|5][5|6][6|1][1|3][3|3] 3");
        let open = [End { id: 2, pips: 4, counts: 0 }, End { id: 3, pips: 4, counts: 0 }];
        assert_eq!(
            arms.short_ends(&open).unwrap(),
            "short ends of the spinner <4|4>: end 2 open, nothing on it; end 3 open, nothing on it"
        );
        let more = Arms::of(plays.iter().chain(&[play([2, 4], Some(2))]));
        assert!(more.short_ends(&open).unwrap().contains("end 2: [4|2] 2"), "{:?}", more.short_ends(&open));
        assert_eq!(Arms::of(&plays[..5]).short_ends(&[]), None, "no spinner yet");
    }

    #[test]
    fn a_led_double_is_the_spinner() {
        let arms = Arms::of(&[play([5, 5], None), play([3, 5], Some(0))]);
        assert_eq!(arms.line(), "3 [3|5]<5|5> 5");
        let short = arms.short_ends(&[End { id: 0, pips: 3, counts: 3 }]).unwrap();
        assert_eq!(short, "short ends of the spinner <5|5>: end 2 not open yet; end 3 not open yet");
        assert_eq!(Arms::of(&[]).line(), "(empty: the next tile played is the lead)");
    }

    #[test]
    fn a_turn_numbers_the_moves_from_one_and_shows_only_the_seats_own_tiles() {
        let variant = AllFives::parse_variant(&[]).unwrap();
        let mut game = AllFives::new(&variant, 7);
        game.play(0).unwrap();
        let seat = game.to_act().unwrap();
        let names = vec!["you".to_string(), "greedy".to_string()];
        let text = turn(&game, seat, &names);
        let choices = game.choices();
        assert!(text.contains(&format!("     1. {}", tile(choices[0].tile))), "{text}");
        assert!(text.contains(&format!("{:>6}. ", choices.len())), "{text}");
        let hand: Vec<String> = game.state(seat).hand.iter().map(|&t| tile(t)).collect();
        assert!(text.contains(&format!("hand:    {}", hand.join(" "))), "{text}");
        let other = game.state(1 - seat).hand;
        let hand_line = text.lines().find(|l| l.contains("hand:")).unwrap();
        assert!(other.iter().all(|&t| !hand_line.contains(&tile(t))), "{text}");
        assert!(text.contains("the count is"), "{text}");
        // The seat's hand and the lead are seen; the rest of the 28 tiles are not.
        let unseen_line = text.lines().find(|l| l.starts_with("  unseen:")).unwrap();
        let hidden = 28 - hand.len() - 1;
        assert_eq!(unseen_line.matches('[').count(), hidden, "{text}");
        assert!(other.iter().all(|&t| unseen_line.contains(&tile(t))), "the other seat's tiles are unseen: {text}");
    }
}
