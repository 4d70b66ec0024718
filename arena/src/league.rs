//! A league's schedule and the games already played of it. Pure.

use crate::config::LeagueConfig;
use crate::record::GameSummary;
use crate::schedule::{self, Schedule};
use std::collections::HashSet;

/// The whole schedule of a league whose game has these sides; an error
/// when the league has too few bots or too many games.
pub fn full_schedule(config: &LeagueConfig, teams: &[Vec<usize>]) -> Result<Schedule, String> {
    let groups = schedule::groups(config.format, config.bots.len(), teams.len());
    if groups.is_empty() {
        return Err(format!(
            "a {} league of a {}-sided game needs at least {} bots (got {})",
            config.format,
            teams.len(),
            teams.len(),
            config.bots.len()
        ));
    }
    Schedule::league(config.seed, teams, &groups, config.games)
        .map_err(|e| format!("{} games for each group of bots: {e}", config.games))
}

/// Checks that every played game belongs to `schedule` (same id, same bots
/// in the same seats) and is there once; returns the ids played.
pub fn check_played(schedule: &Schedule, names: &[String], played: &[GameSummary]) -> Result<HashSet<u64>, String> {
    let mut ids = HashSet::with_capacity(played.len());
    for game in played {
        let spec = schedule
            .get(game.id)
            .ok_or_else(|| format!("game {} is not in this league's schedule of {} games", game.id, schedule.len()))?;
        let expected: Vec<&str> = spec.seats.iter().map(|&bot| names[bot].as_str()).collect();
        if game.bots != expected {
            return Err(format!(
                "game {} was played by {:?}, but this league's schedule seats {:?}",
                game.id, game.bots, expected
            ));
        }
        if !ids.insert(game.id) {
            return Err(format!("game {} was recorded twice", game.id));
        }
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameResult;

    fn played(id: u64, bots: &[&str]) -> GameSummary {
        GameSummary {
            id,
            bots: bots.iter().map(|b| b.to_string()).collect(),
            result: GameResult { reason: "target".into(), scores: vec![0, 0], ranks: vec![0, 1] },
            faults: vec![],
        }
    }

    #[test]
    fn played_games_must_match_the_schedule() {
        let schedule = Schedule::duplicate_match(1, &[vec![0], vec![1]], 4).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let ids = check_played(&schedule, &names, &[played(0, &["a", "b"]), played(3, &["b", "a"])]).unwrap();
        assert_eq!(ids, HashSet::from([0, 3]));
        let err = check_played(&schedule, &names, &[played(1, &["a", "b"])]).unwrap_err();
        assert!(err.contains("game 1 was played by"), "{err}");
        let err = check_played(&schedule, &names, &[played(9, &["a", "b"])]).unwrap_err();
        assert!(err.contains("not in this league's schedule"), "{err}");
        let err = check_played(&schedule, &names, &[played(0, &["a", "b"]), played(0, &["a", "b"])]).unwrap_err();
        assert!(err.contains("recorded twice"), "{err}");
    }
}
