//! The pure part of `arena check-engine`: what must hold of each answer an
//! engine gives, and the hidden-information scan. No I/O.

use protocol::engine::{Payload, Step, VariantInfo};
use serde_json::Value;

/// Teams that hold every seat once.
///
/// # Errors
/// When they do not, in words.
pub fn check_teams(variant: &VariantInfo) -> Result<(), String> {
    let mut seats: Vec<usize> = variant.teams.iter().flatten().copied().collect();
    seats.sort_unstable();
    if variant.seats == 0 || seats != (0..variant.seats).collect::<Vec<_>>() {
        return Err(format!("teams {:?} do not hold each of the {} seats once", variant.teams, variant.seats));
    }
    Ok(())
}

/// What must hold of a step of a game of `seats` seats, whose teams are
/// `teams`: one view per seat for every event, a seat to act with choices and
/// a state while the game goes on, scores for every seat, and at the end an
/// outcome that ranks every seat (partners together, a higher score never
/// behind a lower one).
///
/// # Errors
/// The first thing that does not hold, in words.
pub fn check_step<J: Payload>(step: &Step<J>, seats: usize, teams: &[Vec<usize>]) -> Result<(), String> {
    for (n, event) in step.events.iter().enumerate() {
        if !event.event.is_object() {
            return Err(format!("event {n} of the step is not a JSON object"));
        }
        if event.views.len() != seats {
            return Err(format!("event {n} of the step has {} views for {seats} seats", event.views.len()));
        }
        if let Some(texts) = &event.texts
            && texts.len() != seats
        {
            return Err(format!("event {n} of the step has {} texts for {seats} seats", texts.len()));
        }
    }
    if step.scores.len() != seats {
        return Err(format!("{} scores for {seats} seats", step.scores.len()));
    }
    if let Some(private) = &step.private
        && private.len() != seats
    {
        return Err(format!("private information for {} seats of {seats}", private.len()));
    }
    match (step.to_act, &step.outcome) {
        (Some(seat), None) => {
            if seat >= seats {
                return Err(format!("to_act is {seat}, but the seats are 0 to {}", seats - 1));
            }
            if step.choices.is_empty() {
                return Err(format!("seat {seat} is to act but has no choices"));
            }
            if step.state.is_null() {
                return Err(format!("seat {seat} is to act but its state is null"));
            }
            Ok(())
        }
        (Some(seat), Some(_)) => Err(format!("seat {seat} is to act, but the step has an outcome")),
        (None, None) => Err("nobody is to act, but the step has no outcome".to_string()),
        (None, Some(outcome)) => {
            if !step.choices.is_empty() {
                return Err("the game is over but choices are listed".to_string());
            }
            check_ranks(&outcome.ranks, &step.scores, teams)
        }
    }
}

/// Ranks for every seat, each below the number of seats, one seat first,
/// partners sharing a place, and no seat with a higher score behind one
/// with a lower score.
fn check_ranks(ranks: &[u32], scores: &[i64], teams: &[Vec<usize>]) -> Result<(), String> {
    let seats = scores.len();
    if ranks.len() != seats {
        return Err(format!("the outcome ranks {} seats of {seats}", ranks.len()));
    }
    if let Some(rank) = ranks.iter().find(|&&rank| rank as usize >= seats) {
        return Err(format!("rank {rank} at a table of {seats}"));
    }
    if !ranks.contains(&0) {
        return Err(format!("no seat ranks first: {ranks:?}"));
    }
    for team in teams {
        if team.iter().any(|&seat| ranks.get(seat) != ranks.get(team[0])) {
            return Err(format!("partners {team:?} rank differently: {ranks:?}"));
        }
    }
    for a in 0..seats {
        for b in 0..seats {
            if scores[a] > scores[b] && ranks[a] > ranks[b] {
                return Err(format!(
                    "seat {a} scores {} but ranks behind seat {b}, which scores {}",
                    scores[a], scores[b]
                ));
            }
        }
    }
    Ok(())
}

/// Whether `value` shows `secret` as ENGINES.md defines it: a string
/// wherever it appears as a string, any other value where it appears as an
/// item of a list.
pub fn shows(value: &Value, secret: &Value) -> bool {
    match value {
        Value::String(_) => secret.is_string() && value == secret,
        Value::Array(items) => items.iter().any(|item| (!secret.is_string() && item == secret) || shows(item, secret)),
        Value::Object(members) => members.values().any(|member| shows(member, secret)),
        _ => false,
    }
}

/// The first value private to another seat (`private[t]`, `t != seat`) that
/// `observed` shows, with that seat.
pub fn leak<'a>(observed: &Value, seat: usize, private: &'a [Vec<Value>]) -> Option<(usize, &'a Value)> {
    private
        .iter()
        .enumerate()
        .filter(|&(other, _)| other != seat)
        .find_map(|(other, secrets)| secrets.iter().find(|secret| shows(observed, secret)).map(|s| (other, s)))
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
            events: vec![StepEvent { event: json!({"x": 1}), views: vec![None, Some(json!({"x": 1}))], texts: None }],
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
        assert!(check_step(&step(Some(2), vec![0, 0], None), 2, &teams).unwrap_err().contains("to_act is 2"));
        assert!(check_step(&step(None, vec![0, 0], None), 2, &teams).unwrap_err().contains("no outcome"));
        assert!(check_step(&step(None, vec![1, -1], Some(vec![1, 0])), 2, &teams).unwrap_err().contains("behind"));
        assert!(check_step(&step(Some(0), vec![0], None), 2, &teams).unwrap_err().contains("1 scores"));
        assert!(check_step(&step(None, vec![0, 0, 0], Some(vec![0, 1, 0])), 3, &teams).unwrap_err().contains("views"));
        let partners = [vec![0, 1]];
        assert!(check_step(&step(None, vec![0, 0], Some(vec![0, 1])), 2, &partners).unwrap_err().contains("partners"));
    }

    #[test]
    fn strings_are_found_anywhere_and_other_values_as_items_of_lists() {
        let state = json!({"card": "Kh", "hand": [[3, 5], [0, 0]], "scores": [1, 2], "n": 7});
        assert!(shows(&state, &json!("Kh")));
        assert!(!shows(&state, &json!("Ks")));
        assert!(shows(&state, &json!([3, 5])));
        assert!(!shows(&state, &json!([1, 2])), "a whole member is no item of a list");
        assert!(!shows(&state, &json!(7)));
        assert!(shows(&state, &json!(1)), "a number inside a list");
        let private = vec![vec![json!("Qs")], vec![json!("Kh")]];
        assert_eq!(leak(&state, 0, &private), Some((1, &json!("Kh"))));
        assert_eq!(leak(&state, 1, &private), None, "its own card");
    }

    #[test]
    fn what_a_step_reveals_is_not_private_in_its_views() {
        let before = vec![vec![json!("Kh")], vec![json!("Qs")]];
        let after = vec![vec![], vec![json!("Qs")]];
        assert_eq!(still_private(&before, &after), vec![vec![], vec![json!("Qs")]]);
    }
}
