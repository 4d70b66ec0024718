//! A league's schedule and the games already played of it. Pure.
//!
//! A league's field may change when it is resumed: bots enter and retire
//! (see [`LeagueConfig::grow`]). Each change adds a stage to the schedule
//! with the groups it creates (those of the bots in the field that hold an
//! entering bot), after the games of the stages before, so no earlier game
//! changes its id, and deal `d` of a new group has the seeds of deal `d` of
//! every group. A round robin or gauntlet that gained bots plays, group for
//! group, the games a league that had them from the start plays with the
//! same seed, only under other ids; its standings are the same too (the
//! Weng–Lin ratings follow the schedule's order, not the ids). A retired bot
//! keeps the games it played and plays no more: its games not played yet
//! are [`withdrawn`].

pub(crate) mod config;
pub(crate) mod learning;
pub(crate) mod queued;
pub(crate) mod swiss;

use crate::league::config::LeagueConfig;
use crate::schedule::{self, Format, Schedule, ScheduleError, Seating};
use crate::store::record::GameSummary;
use std::collections::HashSet;
use std::fmt;

/// The bots of a stage of a league (its start, or a change of its field),
/// by their places in the league's bots, in increasing order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stage {
    /// The bots in the field after the change.
    pub active: Vec<usize>,
    /// The bots that entered with it.
    pub entering: Vec<usize>,
}

/// Why a league's history (in its `league.json`) does not account for its bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HistoryError {
    /// A bot that retires is not one of its bots.
    RetiresStranger {
        /// The bot's name.
        name: String,
    },
    /// A bot that enters is not the league's bot of that number.
    EntersOther {
        /// The bot's name.
        name: String,
        /// The number it enters as.
        bot: usize,
    },
    /// The bots that enter are not all its bots.
    EntersTooFew {
        /// How many enter.
        entered: usize,
        /// How many bots it has.
        bots: usize,
    },
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::RetiresStranger { name } => {
                write!(f, "its history retires {name:?}, which is not one of its bots")
            }
            HistoryError::EntersOther { name, bot } => {
                write!(f, "its history enters {name:?} as bot {bot}, which its bots do not")
            }
            HistoryError::EntersTooFew { entered, bots } => {
                write!(f, "its history enters {entered} bots, but it has {bots}")
            }
        }
    }
}

impl std::error::Error for HistoryError {}

/// Why a league's schedule cannot be had, or games played do not belong to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LeagueError {
    /// The history does not account for the bots.
    History(HistoryError),
    /// A learning or Swiss league (one of pairs) of a game of other than 2 sides.
    PairsOnly {
        /// The format.
        format: Format,
        /// The sides of the game.
        sides: usize,
    },
    /// Too many games.
    TooManyGames {
        /// The games of each group (each pair of each round of a league with rounds).
        games: u64,
        /// Whether the league chooses rounds (learning, Swiss).
        rounds: bool,
        /// The schedule's reason.
        error: ScheduleError,
    },
    /// Too few bots at the start for a group.
    TooFewBots {
        /// The format.
        format: Format,
        /// The sides of the game.
        sides: usize,
        /// The bots at the start.
        bots: usize,
    },
    /// A game played is not in the schedule.
    NotScheduled {
        /// The game's id.
        id: u64,
        /// The games of the schedule.
        games: u64,
    },
    /// A game was played by other bots, or in other seats, than the schedule's.
    OtherBots {
        /// The game's id.
        id: u64,
        /// Who played it, seat by seat.
        bots: Vec<String>,
        /// Who the schedule seats.
        scheduled: Vec<String>,
    },
    /// A game is recorded as another deal or arrangement than the schedule's.
    OtherDeal {
        /// The game's id.
        id: u64,
        /// Its recorded deal.
        deal: u64,
        /// Its recorded arrangement.
        arrangement: usize,
        /// The schedule's deal.
        scheduled_deal: u64,
        /// The schedule's arrangement.
        scheduled_arrangement: usize,
    },
    /// A game was not dealt from the league's seed.
    OtherSeeds {
        /// The game's id.
        id: u64,
        /// Its deal.
        deal: u64,
    },
    /// A game was recorded twice.
    Twice {
        /// The game's id.
        id: u64,
    },
}

impl fmt::Display for LeagueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeagueError::History(error) => write!(f, "not a league configuration: {error}"),
            LeagueError::PairsOnly { format, sides } => write!(
                f,
                "a {format} league pairs bots: it needs a game of 2 sides (this one has {sides}); use round-robin"
            ),
            LeagueError::TooManyGames { games, rounds: true, error } => {
                write!(f, "{games} games for each pair of each round: {error}")
            }
            LeagueError::TooManyGames { games, rounds: false, error } => {
                write!(f, "{games} games for each group of bots: {error}")
            }
            LeagueError::TooFewBots { format, sides, bots } => {
                write!(f, "a {format} league of a {sides}-sided game needs at least {sides} bots (got {bots})")
            }
            LeagueError::NotScheduled { id, games } => {
                write!(f, "game {id} is not in this league's schedule of {games} games")
            }
            LeagueError::OtherBots { id, bots, scheduled } => {
                write!(f, "game {id} was played by {bots:?}, but this league's schedule seats {scheduled:?}")
            }
            LeagueError::OtherDeal { id, deal, arrangement, scheduled_deal, scheduled_arrangement } => write!(
                f,
                "game {id} is recorded as deal {deal}, arrangement {arrangement}; this league's schedule has deal \
                 {scheduled_deal}, arrangement {scheduled_arrangement}"
            ),
            LeagueError::OtherSeeds { id, deal } => write!(
                f,
                "game {id} was not dealt from this league's seed: its seeds are not those the seed gives deal {deal} \
                 (a game of another league, or one recorded by an earlier arena, which derived seeds otherwise)"
            ),
            LeagueError::Twice { id } => write!(f, "game {id} was recorded twice"),
        }
    }
}

impl std::error::Error for LeagueError {}

/// The stages of a league: its start, then every change of its field; an
/// error when `league.json`'s history does not account for its bots.
pub fn stages(config: &LeagueConfig) -> Result<Vec<Stage>, HistoryError> {
    let index = |name: &String| config.bots.iter().position(|bot| bot.name == *name);
    let mut active: Vec<usize> = Vec::new();
    let mut stages = Vec::new();
    let mut entered = 0;
    for change in config.changes() {
        for name in &change.retired {
            let bot = index(name).ok_or_else(|| HistoryError::RetiresStranger { name: name.clone() })?;
            active.retain(|&b| b != bot);
        }
        let entering: Vec<usize> = (entered..entered + change.added.len()).collect();
        for (&bot, name) in entering.iter().zip(&change.added) {
            if config.bots.get(bot).is_none_or(|b| b.name != *name) {
                return Err(HistoryError::EntersOther { name: name.clone(), bot });
            }
        }
        entered += entering.len();
        active.extend(&entering);
        stages.push(Stage { active: active.clone(), entering });
    }
    if entered != config.bots.len() {
        return Err(HistoryError::EntersTooFew { entered, bots: config.bots.len() });
    }
    Ok(stages)
}

/// The whole schedule of a league whose game has these sides, each group
/// seated at each deal as `seating` says, one stage for its start and one
/// for each change of its field; an error when the league started with too
/// few bots or has too many games.
pub fn full_schedule(config: &LeagueConfig, teams: &[Vec<usize>], seating: Seating) -> Result<Schedule, LeagueError> {
    let stages = stages(config).map_err(LeagueError::History)?;
    let too_many = |rounds| move |error| LeagueError::TooManyGames { games: config.kept.games, rounds, error };
    if config.kept.format.has_rounds() {
        if teams.len() != 2 {
            return Err(LeagueError::PairsOnly { format: config.kept.format, sides: teams.len() });
        }
        return Schedule::rounds(config.kept.seed, teams, &config.rounds, seating, config.kept.games)
            .map_err(too_many(true));
    }
    let groups: Vec<Vec<Vec<usize>>> = stages
        .iter()
        .map(|stage| schedule::entering_groups(config.kept.format, &stage.active, &stage.entering, teams.len()))
        .collect();
    if groups[0].is_empty() {
        return Err(LeagueError::TooFewBots {
            format: config.kept.format,
            sides: teams.len(),
            bots: stages[0].active.len(),
        });
    }
    Schedule::staged(config.kept.seed, teams, &groups, seating, config.kept.games, config.dealing())
        .map_err(too_many(false))
}

/// Whether game `id` of `schedule` seats a bot that `retired` marks (see
/// [`LeagueConfig::retired`]): one the league no longer plays. Such a game
/// played before the bot retired stays in the records and counts.
pub fn withdrawn(schedule: &Schedule, retired: &[bool], id: u64) -> bool {
    retired.contains(&true) && schedule.group_of(id).is_some_and(|group| group.iter().any(|&bot| retired[bot]))
}

/// A time as RFC 3339 in UTC to the second (`2026-03-01T12:00:00Z`), from
/// the seconds since the Unix epoch.
pub fn utc(seconds: u64) -> String {
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    // Howard Hinnant's civil_from_days, for days since 1970-01-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let (hour, minute, second) = (rest / 3600, rest / 60 % 60, rest % 60);
    format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
}

/// Checks that every played game belongs to `schedule` — the same id, the
/// same bots in the same seats, and the deal, arrangement and seeds that the
/// schedule's seed gives that id, so that a game of another league (or one
/// made up) is never counted — and is there once; returns the ids played.
pub fn check_played(
    schedule: &Schedule,
    names: &[String],
    played: &[GameSummary],
) -> Result<HashSet<u64>, LeagueError> {
    let mut ids = HashSet::with_capacity(played.len());
    for game in played {
        let id = game.id;
        let spec = schedule.get(id).ok_or(LeagueError::NotScheduled { id, games: schedule.len() })?;
        let scheduled: Vec<String> = spec.seats.iter().map(|&bot| names[bot].clone()).collect();
        if game.bots != scheduled {
            return Err(LeagueError::OtherBots { id, bots: game.bots.clone(), scheduled });
        }
        let origin = &game.origin;
        if (origin.deal, origin.arrangement) != (spec.deal, spec.arrangement) {
            return Err(LeagueError::OtherDeal {
                id,
                deal: origin.deal,
                arrangement: origin.arrangement,
                scheduled_deal: spec.deal,
                scheduled_arrangement: spec.arrangement,
            });
        }
        if origin.seed != spec.seed || origin.bot_seeds != spec.bot_seeds {
            return Err(LeagueError::OtherSeeds { id, deal: spec.deal });
        }
        if !ids.insert(id) {
            return Err(LeagueError::Twice { id });
        }
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::config::field::Change;
    use crate::store::record::{GameResult, Origin};
    use std::path::Path;

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

    /// A league of `bots` with this history (names added, names retired).
    fn league(bots: &[&str], history: &[(&[&str], &[&str])]) -> LeagueConfig {
        let flags = crate::league::config::Overrides {
            bots: bots.iter().map(|b| format!("{b}=sh")).collect(),
            ..Default::default()
        };
        let mut config = LeagueConfig::resolve(&flags, Path::new("/"), 1, 1).unwrap();
        let names = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
        config.history = history
            .iter()
            .map(|(added, retired)| Change { at: None, added: names(added), retired: names(retired) })
            .collect();
        config
    }

    #[test]
    fn each_change_is_a_stage_of_the_bots_in_the_field_and_those_entering() {
        let config = league(&["a", "b", "c", "d"], &[(&["a", "b"], &[]), (&["c"], &[]), (&["d"], &["a"])]);
        let stage =
            |active: &[usize], entering: &[usize]| Stage { active: active.to_vec(), entering: entering.to_vec() };
        let expected = [stage(&[0, 1], &[0, 1]), stage(&[0, 1, 2], &[2]), stage(&[1, 2, 3], &[3])];
        assert_eq!(stages(&config).unwrap(), expected);
        assert_eq!(stages(&league(&["a", "b"], &[])).unwrap(), [stage(&[0, 1], &[0, 1])], "no history: one stage");
        let teams = [vec![0], vec![1]];
        let schedule = full_schedule(&config, &teams, Seating::EveryOrder).unwrap();
        let pairs: Vec<&[Vec<usize>]> = (0..3).map(|s| schedule.stage(s).unwrap().0).collect();
        assert_eq!(pairs, [&[vec![0, 1]][..], &[vec![0, 2], vec![1, 2]], &[vec![1, 3], vec![2, 3]]]);
        // Bot a's games not played yet are withdrawn; no other game is.
        let retired = config.retired();
        let withdrawn_ids: Vec<u64> = (0..schedule.len()).filter(|&id| withdrawn(&schedule, &retired, id)).collect();
        let of_a: Vec<u64> = schedule.iter().filter(|g| g.seats.contains(&0)).map(|g| g.id).collect();
        assert_eq!(withdrawn_ids, of_a);
        assert!(!withdrawn(&schedule, &[false; 4], 0));
        for (bots, history, expected) in [
            (&["a", "b"][..], &[(&["a"][..], &[][..])][..], "its history enters 1 bots, but it has 2"),
            (&["a", "b"], &[(&["a", "c"], &[])], "enters \"c\" as bot 1"),
            (&["a", "b"], &[(&["a", "b"], &["x"])], "retires \"x\""),
        ] {
            let err = full_schedule(&league(bots, history), &teams, Seating::EveryOrder).unwrap_err().to_string();
            assert!(err.contains(expected), "{err}");
        }
    }

    #[test]
    fn times_are_written_in_utc() {
        assert_eq!(utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc(1_772_366_400 + 3_723), "2026-03-01T13:02:03Z");
        assert_eq!(utc(4_102_444_799), "2099-12-31T23:59:59Z");
    }

    #[test]
    fn played_games_must_match_the_schedule() {
        let schedule = Schedule::duplicate_match(1, &[vec![0], vec![1]], 4).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let game = |id, bots: &[&str]| played(&schedule, id, bots);
        let ids = check_played(&schedule, &names, &[game(0, &["a", "b"]), game(3, &["b", "a"])]).unwrap();
        assert_eq!(ids, HashSet::from([0, 3]));
        let err = check_played(&schedule, &names, &[game(1, &["a", "b"])]).unwrap_err().to_string();
        assert!(err.contains("game 1 was played by"), "{err}");
        let err = check_played(&schedule, &names, &[game(9, &["a", "b"])]).unwrap_err().to_string();
        assert!(err.contains("not in this league's schedule"), "{err}");
        let err =
            check_played(&schedule, &names, &[game(0, &["a", "b"]), game(0, &["a", "b"])]).unwrap_err().to_string();
        assert!(err.contains("recorded twice"), "{err}");
    }

    #[test]
    fn played_games_must_come_from_the_league_seed() {
        let schedule = Schedule::duplicate_match(1, &[vec![0], vec![1]], 4).unwrap();
        let other = Schedule::duplicate_match(2, &[vec![0], vec![1]], 4).unwrap();
        let names = vec!["a".to_string(), "b".to_string()];
        let err = check_played(&schedule, &names, &[played(&other, 2, &["a", "b"])]).unwrap_err().to_string();
        assert!(err.contains("game 2 was not dealt from this league's seed"), "{err}");
        let mut forged = played(&schedule, 2, &["a", "b"]);
        forged.origin.bot_seeds[1] ^= 1;
        let err = check_played(&schedule, &names, &[forged]).unwrap_err().to_string();
        assert!(err.contains("not dealt from this league's seed"), "{err}");
        let mut moved = played(&schedule, 2, &["a", "b"]);
        moved.origin.deal = 0;
        let err = check_played(&schedule, &names, &[moved]).unwrap_err().to_string();
        assert!(err.contains("recorded as deal 0, arrangement 0"), "{err}");
    }
}
