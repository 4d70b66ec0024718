//! The pure part of `arena check-engine`: what must hold of each answer an
//! engine gives, and the hidden-information scan. No I/O.

use protocol::engine::{Payload, Step, VariantInfo};
use protocol::messages::ENVELOPE_TYPES;
use serde_json::Value;
use std::fmt;

/// What does not hold of an engine's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesError {
    /// The teams do not hold each seat once.
    Teams {
        /// The teams.
        teams: Vec<Vec<usize>>,
        /// The seats.
        seats: usize,
    },
    /// An event is not a JSON object.
    EventNotObject {
        /// The event's number in the step.
        event: usize,
    },
    /// An event has not one view per seat.
    EventViews {
        /// The event's number in the step.
        event: usize,
        /// Its views.
        views: usize,
        /// The seats.
        seats: usize,
    },
    /// A view is not a JSON object with a string `type`: no message a bot could read.
    ViewNotMessage {
        /// The event's number in the step.
        event: usize,
        /// The seat it is for.
        seat: usize,
    },
    /// A view's `type` is one of the arena's own messages.
    ViewReserved {
        /// The event's number in the step.
        event: usize,
        /// The seat it is for.
        seat: usize,
        /// Its type.
        kind: String,
    },
    /// A view has the key that names a game in a session.
    ViewNamesGame {
        /// The event's number in the step.
        event: usize,
        /// The seat it is for.
        seat: usize,
    },
    /// An event has texts, but not one per seat.
    EventTexts {
        /// The event's number in the step.
        event: usize,
        /// Its texts.
        texts: usize,
        /// The seats.
        seats: usize,
    },
    /// Not one score per seat.
    Scores {
        /// The scores.
        scores: usize,
        /// The seats.
        seats: usize,
    },
    /// Private information, but not for every seat.
    Private {
        /// The seats it is given for.
        private: usize,
        /// The seats.
        seats: usize,
    },
    /// The seat to act is not a seat.
    NoSuchSeat {
        /// The seat to act.
        seat: usize,
        /// The seats.
        seats: usize,
    },
    /// The seat to act has no choices.
    NoChoices {
        /// The seat to act.
        seat: usize,
    },
    /// The seat to act has no state.
    NullState {
        /// The seat to act.
        seat: usize,
    },
    /// A seat is to act, but the game is over.
    ActsAfterEnd {
        /// The seat to act.
        seat: usize,
    },
    /// Nobody is to act, and the game goes on.
    NoOutcome,
    /// The game is over, and choices are listed.
    ChoicesAtEnd,
    /// The outcome ranks not every seat.
    RankCount {
        /// The ranks.
        ranks: usize,
        /// The seats.
        seats: usize,
    },
    /// A rank no seat can have.
    NoSuchRank {
        /// The rank.
        rank: u32,
        /// The seats.
        seats: usize,
    },
    /// No seat ranks first.
    NoFirst {
        /// The ranks.
        ranks: Vec<u32>,
    },
    /// Partners rank differently.
    PartnersApart {
        /// The partners.
        team: Vec<usize>,
        /// The ranks.
        ranks: Vec<u32>,
    },
    /// A seat ranks behind one with a lower score.
    Behind {
        /// The seat behind.
        a: usize,
        /// Its score.
        a_score: i64,
        /// The seat ahead.
        b: usize,
        /// Its score.
        b_score: i64,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Teams { teams, seats } => {
                write!(f, "teams {teams:?} do not hold each of the {seats} seats once")
            }
            RulesError::EventNotObject { event } => write!(f, "event {event} of the step is not a JSON object"),
            RulesError::EventViews { event, views, seats } => {
                write!(f, "event {event} of the step has {views} views for {seats} seats")
            }
            RulesError::ViewNotMessage { event, seat } => write!(
                f,
                "event {event} of the step tells seat {seat} something that is not a JSON object with a string \
                 \"type\" (a bot is sent each view as a message of its own)"
            ),
            RulesError::ViewReserved { event, seat, kind } => write!(
                f,
                "event {event} of the step tells seat {seat} a view of type {kind:?}, a type the arena's own messages \
                 use ({}): a bot would take it for one; call the event something else",
                ENVELOPE_TYPES.join(", ")
            ),
            RulesError::ViewNamesGame { event, seat } => write!(
                f,
                "event {event} of the step tells seat {seat} a view with the key {:?}, which names the game of \
                 each line a bot playing many games at once is sent: rename it",
                protocol::session::GAME_KEY
            ),
            RulesError::EventTexts { event, texts, seats } => {
                write!(f, "event {event} of the step has {texts} texts for {seats} seats")
            }
            RulesError::Scores { scores, seats } => write!(f, "{scores} scores for {seats} seats"),
            RulesError::Private { private, seats } => write!(f, "private information for {private} seats of {seats}"),
            RulesError::NoSuchSeat { seat, seats } => {
                write!(f, "to_act is {seat}, but the seats are 0 to {}", seats - 1)
            }
            RulesError::NoChoices { seat } => write!(f, "seat {seat} is to act but has no choices"),
            RulesError::NullState { seat } => write!(f, "seat {seat} is to act but its state is null"),
            RulesError::ActsAfterEnd { seat } => write!(f, "seat {seat} is to act, but the step has an outcome"),
            RulesError::NoOutcome => f.write_str("nobody is to act, but the step has no outcome"),
            RulesError::ChoicesAtEnd => f.write_str("the game is over but choices are listed"),
            RulesError::RankCount { ranks, seats } => write!(f, "the outcome ranks {ranks} seats of {seats}"),
            RulesError::NoSuchRank { rank, seats } => write!(f, "rank {rank} at a table of {seats}"),
            RulesError::NoFirst { ranks } => write!(f, "no seat ranks first: {ranks:?}"),
            RulesError::PartnersApart { team, ranks } => write!(f, "partners {team:?} rank differently: {ranks:?}"),
            RulesError::Behind { a, a_score, b, b_score } => {
                write!(f, "seat {a} scores {a_score} but ranks behind seat {b}, which scores {b_score}")
            }
        }
    }
}

impl std::error::Error for RulesError {}

/// Teams that hold every seat once.
///
/// # Errors
/// When they do not.
pub fn check_teams(variant: &VariantInfo) -> Result<(), RulesError> {
    let mut seats: Vec<usize> = variant.teams.iter().flatten().copied().collect();
    seats.sort_unstable();
    if variant.seats == 0 || seats != (0..variant.seats).collect::<Vec<_>>() {
        return Err(RulesError::Teams { teams: variant.teams.clone(), seats: variant.seats });
    }
    Ok(())
}

/// What must hold of a step of a game of `seats` seats, whose teams are
/// `teams`: one view per seat for every event, each a message a bot can
/// read and not take for one of the arena's own (see [`check_view`]), a seat to act with choices and
/// a state while the game goes on, scores for every seat, and at the end an
/// outcome that ranks every seat (partners together, a higher score never
/// behind a lower one).
///
/// # Errors
/// The first thing that does not hold.
pub fn check_step<J: Payload>(step: &Step<J>, seats: usize, teams: &[Vec<usize>]) -> Result<(), RulesError> {
    for (n, event) in step.events.iter().enumerate() {
        if !event.event.is_object() {
            return Err(RulesError::EventNotObject { event: n });
        }
        if event.views.len() != seats {
            return Err(RulesError::EventViews { event: n, views: event.views.len(), seats });
        }
        for (seat, view) in event.views.iter().enumerate() {
            if let Some(view) = view {
                check_view(view, n, seat)?;
            }
        }
        if let Some(texts) = &event.texts
            && texts.len() != seats
        {
            return Err(RulesError::EventTexts { event: n, texts: texts.len(), seats });
        }
    }
    if step.scores.len() != seats {
        return Err(RulesError::Scores { scores: step.scores.len(), seats });
    }
    if let Some(private) = &step.private
        && private.len() != seats
    {
        return Err(RulesError::Private { private: private.len(), seats });
    }
    match (step.to_act, &step.outcome) {
        (Some(seat), None) => {
            if seat >= seats {
                return Err(RulesError::NoSuchSeat { seat, seats });
            }
            if step.choices.is_empty() {
                return Err(RulesError::NoChoices { seat });
            }
            if step.state.is_null() {
                return Err(RulesError::NullState { seat });
            }
            Ok(())
        }
        (Some(seat), Some(_)) => Err(RulesError::ActsAfterEnd { seat }),
        (None, None) => Err(RulesError::NoOutcome),
        (None, Some(outcome)) => {
            if !step.choices.is_empty() {
                return Err(RulesError::ChoicesAtEnd);
            }
            check_ranks(&outcome.ranks, &step.scores, teams)
        }
    }
}

/// A view, which a bot is sent as a line of its own: a JSON object whose
/// `type` is a string, and not one of the envelope's ([`ENVELOPE_TYPES`]), without
/// the key that names a game in a session ([`protocol::session::GAME_KEY`]).
fn check_view<J: Payload>(view: &J, event: usize, seat: usize) -> Result<(), RulesError> {
    match view.message_type().filter(|_| view.is_object()) {
        None => Err(RulesError::ViewNotMessage { event, seat }),
        Some(kind) if ENVELOPE_TYPES.contains(&kind.as_str()) => Err(RulesError::ViewReserved { event, seat, kind }),
        Some(_) if view.names_a_game() => Err(RulesError::ViewNamesGame { event, seat }),
        Some(_) => Ok(()),
    }
}

/// Ranks for every seat, each below the number of seats, one seat first,
/// partners sharing a place, and no seat with a higher score behind one
/// with a lower score.
fn check_ranks(ranks: &[u32], scores: &[i64], teams: &[Vec<usize>]) -> Result<(), RulesError> {
    let seats = scores.len();
    if ranks.len() != seats {
        return Err(RulesError::RankCount { ranks: ranks.len(), seats });
    }
    if let Some(&rank) = ranks.iter().find(|&&rank| rank as usize >= seats) {
        return Err(RulesError::NoSuchRank { rank, seats });
    }
    if !ranks.contains(&0) {
        return Err(RulesError::NoFirst { ranks: ranks.to_vec() });
    }
    for team in teams {
        if team.iter().any(|&seat| ranks.get(seat) != ranks.get(team[0])) {
            return Err(RulesError::PartnersApart { team: team.clone(), ranks: ranks.to_vec() });
        }
    }
    for a in 0..seats {
        for b in 0..seats {
            if scores[a] > scores[b] && ranks[a] > ranks[b] {
                return Err(RulesError::Behind { a, a_score: scores[a], b, b_score: scores[b] });
            }
        }
    }
    Ok(())
}

/// Whether `value` shows `secret` as ENGINES.md defines it: a string
/// wherever it appears as a string; a list or an object (a whole hand)
/// wherever it appears whole (a member's value, an item of a list, the
/// value itself); any other value where it appears as an item of a list.
pub fn shows(value: &Value, secret: &Value) -> bool {
    let whole = secret.is_array() || secret.is_object();
    match value {
        _ if whole && value == secret => true,
        Value::String(_) => secret.is_string() && value == secret,
        Value::Array(items) => items.iter().any(|item| (!secret.is_string() && item == secret) || shows(item, secret)),
        Value::Object(members) => members.values().any(|member| shows(member, secret)),
        _ => false,
    }
}

/// The first value private to another seat (`private[t]`, `t != seat`) that
/// `observed` shows, with that seat. A value `seat` declares private too is
/// not looked for: what `seat` observes may show its own, and an equal value
/// of another seat (both rolled a 1) cannot be told from it.
pub fn leak<'a>(observed: &Value, seat: usize, private: &'a [Vec<Value>]) -> Option<(usize, &'a Value)> {
    let own = private.get(seat).map_or(&[][..], Vec::as_slice);
    private.iter().enumerate().filter(|&(other, _)| other != seat).find_map(|(other, secrets)| {
        secrets.iter().filter(|secret| !own.contains(secret)).find(|secret| shows(observed, secret)).map(|s| (other, s))
    })
}

/// Whether `seat` declares private a value equal to one another seat
/// declares private: a value [`leak`] cannot look for in what `seat` observes.
pub fn shares(seat: usize, private: &[Vec<Value>]) -> bool {
    let own = private.get(seat).map_or(&[][..], Vec::as_slice);
    private
        .iter()
        .enumerate()
        .any(|(other, secrets)| other != seat && secrets.iter().any(|secret| own.contains(secret)))
}

/// The values private both `before` and `after` a step: what its events'
/// views may not show (a value private before and revealed by the step is
/// no longer private after it).
pub fn still_private(before: &[Vec<Value>], after: &[Vec<Value>]) -> Vec<Vec<Value>> {
    before
        .iter()
        .zip(after)
        .map(|(before, after)| before.iter().filter(|v| after.contains(v)).cloned().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::engine::{OutcomeInfo, StepEvent};
    use serde_json::json;

    fn step(to_act: Option<usize>, scores: Vec<i64>, ranks: Option<Vec<u32>>) -> Step {
        Step {
            events: vec![StepEvent {
                event: json!({"type": "x"}),
                views: vec![None, Some(json!({"type": "x"}))],
                texts: None,
            }],
            to_act,
            choices: if to_act.is_some() { vec![json!(0)] } else { vec![] },
            state: if to_act.is_some() { json!({}) } else { Value::Null },
            scores,
            outcome: ranks.map(|ranks| OutcomeInfo { reason: "won".to_string(), ranks }),
            private: None,
            text: None,
        }
    }

    #[test]
    fn steps_that_break_the_rules_are_named() {
        let teams = [vec![0], vec![1]];
        assert_eq!(check_step(&step(Some(0), vec![0, 0], None), 2, &teams), Ok(()));
        assert_eq!(check_step(&step(None, vec![1, -1], Some(vec![0, 1])), 2, &teams), Ok(()));
        assert!(
            check_step(&step(Some(2), vec![0, 0], None), 2, &teams).unwrap_err().to_string().contains("to_act is 2")
        );
        assert!(check_step(&step(None, vec![0, 0], None), 2, &teams).unwrap_err().to_string().contains("no outcome"));
        assert!(
            check_step(&step(None, vec![1, -1], Some(vec![1, 0])), 2, &teams)
                .unwrap_err()
                .to_string()
                .contains("behind")
        );
        assert!(check_step(&step(Some(0), vec![0], None), 2, &teams).unwrap_err().to_string().contains("1 scores"));
        assert!(
            check_step(&step(None, vec![0, 0, 0], Some(vec![0, 1, 0])), 3, &teams)
                .unwrap_err()
                .to_string()
                .contains("views")
        );
        let partners = [vec![0, 1]];
        assert!(
            check_step(&step(None, vec![0, 0], Some(vec![0, 1])), 2, &partners)
                .unwrap_err()
                .to_string()
                .contains("partners")
        );
    }

    #[test]
    fn a_view_is_a_typed_message_whose_type_is_not_the_arena_s() {
        let teams = [vec![0], vec![1]];
        let with_view = |view: &str| {
            let mut step = step(Some(0), vec![0, 0], None);
            step.events[0].views[1] = Some(serde_json::from_str(view).unwrap());
            let raw: Step<protocol::engine::Raw> =
                serde_json::from_value(serde_json::to_value(&step).unwrap()).unwrap();
            let (value, raw) = (check_step(&step, 2, &teams), check_step(&raw, 2, &teams));
            assert_eq!(value, raw, "{view}: read as a value and as raw text alike");
            value.map_err(|e| e.to_string())
        };
        assert_eq!(with_view(r#"{"type": "river", "card": "Kh"}"#), Ok(()));
        for envelope in protocol::messages::ENVELOPE_TYPES {
            let problem = with_view(&format!(r#"{{"card": "Kh", "type": "{envelope}"}}"#)).unwrap_err();
            assert!(problem.contains(&format!("seat 1 a view of type \"{envelope}\"")), "{problem}");
        }
        for untyped in [r#"{"card": "Kh"}"#, r#"{"type": 3}"#, r#"["turn"]"#, r#""turn""#] {
            assert!(with_view(untyped).unwrap_err().contains("not a JSON object with a string"), "{untyped}");
        }
        let tagged = with_view(r#"{"type": "river", "game": null}"#).unwrap_err();
        assert!(tagged.contains("seat 1 a view with the key \"game\""), "{tagged}");
    }

    #[test]
    fn strings_are_found_anywhere_lists_whole_and_other_values_as_items_of_lists() {
        let state = json!({"card": "Kh", "hand": [[3, 5], [0, 0]], "scores": [1, 2], "n": 7});
        assert!(shows(&state, &json!("Kh")));
        assert!(!shows(&state, &json!("Ks")));
        assert!(shows(&state, &json!([3, 5])));
        assert!(shows(&state, &json!([1, 2])), "a whole hand as a member's value");
        assert!(!shows(&state, &json!([2, 1])), "a hand in another order is another hand");
        assert!(!shows(&state, &json!(7)), "a number is looked for as an item of a list only");
        assert!(shows(&state, &json!(1)), "a number inside a list");
        let private = vec![vec![json!("Qs")], vec![json!("Kh")]];
        assert_eq!(leak(&state, 0, &private), Some((1, &json!("Kh"))));
        assert_eq!(leak(&state, 1, &private), None, "its own card");
    }

    #[test]
    fn a_value_the_observer_holds_too_is_no_leak() {
        // Both rolled a 1: seat 1's own dice show a 1, which seat 0 holds too.
        let seat_1 = json!({"dice": [1, 3], "bid": {"count": 2, "face": 4}});
        let dice = vec![vec![json!(1), json!(4)], vec![json!(1), json!(3)]];
        assert_eq!(leak(&seat_1, 1, &dice), None);
        assert!(shares(1, &dice));
        assert_eq!(leak(&json!({"dice": [1, 3], "peek": [1, 4]}), 1, &dice), Some((0, &json!(4))));
        let hands = vec![vec![json!([1, 4])], vec![json!([1, 3])]];
        assert!(!shares(1, &hands));
        assert_eq!(leak(&seat_1, 1, &hands), None);
        assert_eq!(leak(&json!({"dice": [1, 3], "other": [1, 4]}), 1, &hands), Some((0, &json!([1, 4]))));
        let equal_hands = vec![vec![json!([2, 2])], vec![json!([2, 2])]];
        assert_eq!(leak(&json!({"dice": [2, 2]}), 1, &equal_hands), None);
    }

    #[test]
    fn what_a_step_reveals_is_not_private_in_its_views() {
        let before = vec![vec![json!("Kh")], vec![json!("Qs")]];
        let after = vec![vec![], vec![json!("Qs")]];
        assert_eq!(still_private(&before, &after), vec![vec![], vec![json!("Qs")]]);
    }
}
