//! A league's schedule and the games already played of it. Pure.

use crate::config::LeagueConfig;
use crate::record::GameSummary;
use crate::schedule::{self, Schedule, Seating};
use std::collections::HashSet;

/// The whole schedule of a league whose game has these sides, each group
/// seated at each deal as `seating` says; an error when the league has too
/// few bots or too many games.
pub fn full_schedule(config: &LeagueConfig, teams: &[Vec<usize>], seating: Seating) -> Result<Schedule, String> {
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
    Schedule::league(config.seed, teams, &groups, seating, config.games)
        .map_err(|e| format!("{} games for each group of bots: {e}", config.games))
}

/// Checks that every played game belongs to `schedule` — the same id, the
/// same bots in the same seats, and the deal, arrangement and seeds that the
/// schedule's seed gives that id, so that a game of another league (or one
/// made up) is never counted — and is there once; returns the ids played.
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
        let origin = &game.origin;
        if (origin.deal, origin.arrangement) != (spec.deal, spec.arrangement) {
            return Err(format!(
                "game {} is recorded as deal {}, arrangement {}; this league's schedule has deal {}, arrangement {}",
                game.id, origin.deal, origin.arrangement, spec.deal, spec.arrangement
            ));
        }
        if origin.seed != spec.seed || origin.bot_seeds != spec.bot_seeds {
            return Err(format!(
                "game {} was not dealt from this league's seed: its seeds are not those the seed gives deal {} \
                 (a game of another league, or one recorded by an earlier arena, which derived seeds otherwise)",
                game.id, spec.deal
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
    use crate::record::{GameResult, Origin};

    /// Game `id` of `schedule` as it was played, by `bots`.
    fn played(schedule: &Schedule, id: u64, bots: &[&str]) -> GameSummary {
        let spec = schedule.get(id.min(schedule.len() - 1)).unwrap();
        GameSummary {
            id,
            origin: Origin {
                deal: spec.deal,
                arrangement: spec.arrangement,
                seed: spec.seed,
                bot_seeds: spec.bot_seeds.clone(),
            },
            bots: bots.iter().map(|b| b.to_string()).collect(),
            result: GameResult { reason: "target".into(), scores: vec![0, 0], ranks: vec![0, 1] },
            faults: vec![],
        }
    }

    #[test]
    fn played_games_must_match_the_schedule() {
        let schedule = Schedule::duplicate_match(1, &[vec![0], vec![1]], 4).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let game = |id, bots: &[&str]| played(&schedule, id, bots);
        let ids = check_played(&schedule, &names, &[game(0, &["a", "b"]), game(3, &["b", "a"])]).unwrap();
        assert_eq!(ids, HashSet::from([0, 3]));
        let err = check_played(&schedule, &names, &[game(1, &["a", "b"])]).unwrap_err();
        assert!(err.contains("game 1 was played by"), "{err}");
        let err = check_played(&schedule, &names, &[game(9, &["a", "b"])]).unwrap_err();
        assert!(err.contains("not in this league's schedule"), "{err}");
        let err = check_played(&schedule, &names, &[game(0, &["a", "b"]), game(0, &["a", "b"])]).unwrap_err();
        assert!(err.contains("recorded twice"), "{err}");
    }

    #[test]
    fn played_games_must_come_from_the_league_seed() {
        let schedule = Schedule::duplicate_match(1, &[vec![0], vec![1]], 4).unwrap();
        let other = Schedule::duplicate_match(2, &[vec![0], vec![1]], 4).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let err = check_played(&schedule, &names, &[played(&other, 2, &["a", "b"])]).unwrap_err();
        assert!(err.contains("game 2 was not dealt from this league's seed"), "{err}");
        let mut forged = played(&schedule, 2, &["a", "b"]);
        forged.origin.bot_seeds[1] ^= 1;
        let err = check_played(&schedule, &names, &[forged]).unwrap_err();
        assert!(err.contains("not dealt from this league's seed"), "{err}");
        let mut moved = played(&schedule, 2, &["a", "b"]);
        moved.origin.deal = 0;
        let err = check_played(&schedule, &names, &[moved]).unwrap_err();
        assert!(err.contains("recorded as deal 0, arrangement 0"), "{err}");
    }
}
