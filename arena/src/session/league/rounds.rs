//! The next round of a learning or Swiss league, and why one stopped.

use crate::league::config::LeagueConfig;
use crate::league::learning::{self, Field, Next};
use crate::league::{swiss, withdrawn};
use crate::schedule::{Format, Schedule, Seating};
use crate::session::exit::Failure;
use crate::stats::ratings::{Pairwise, pairwise};
use crate::store::record::GameSummary;
use std::collections::HashSet;

/// Whether the last round a learning league chose is played (every game of
/// its pairs but those of retired bots), or it has chosen none.
pub(super) fn round_finished(config: &LeagueConfig, played: &[GameSummary]) -> Result<bool, Failure> {
    if config.rounds.is_empty() {
        return Ok(true);
    }
    // Which pair plays which game does not depend on who sits where within a side.
    let schedule = Schedule::rounds(
        config.kept.seed,
        &[vec![0], vec![1]],
        &config.rounds,
        Seating::EveryOrder,
        config.kept.games,
    )?;
    let (_, ids) = schedule.stage(config.rounds.len() - 1).expect("a stage for every round");
    let retired = config.retired();
    let done: HashSet<u64> = played.iter().map(|game| game.id).filter(|id| ids.contains(id)).collect();
    Ok(ids.clone().all(|id| done.contains(&id) || withdrawn(&schedule, &retired, id)))
}

/// The next round of a learning or Swiss league, or why there is none (a
/// Swiss league whose rounds are played is [`Next::Spent`]).
pub(super) fn next_round(config: &LeagueConfig, played: &[GameSummary]) -> Result<Next, Failure> {
    let field = learning_field(config, played)?;
    Ok(match config.kept.format {
        Format::Swiss => match swiss::next_round(&field, swiss_rounds(config, field.active.len())) {
            Some(pairs) => Next::Round(pairs),
            None => Next::Spent,
        },
        _ => learning::next_round(&field),
    })
}

/// How many of a league's bots have not retired.
pub(super) fn active_bots(config: &LeagueConfig) -> usize {
    config.retired().iter().filter(|&&retired| !retired).count()
}

/// The rounds a Swiss league of `bots` bots (not retired) plays.
pub(super) fn swiss_rounds(config: &LeagueConfig, bots: usize) -> u64 {
    config.kept.swiss_rounds.unwrap_or_else(|| swiss::default_rounds(bots))
}

/// What a learning or Swiss league knows before its next round: its field
/// (the bots not retired) and the results of every game played.
pub(super) fn learning_field(config: &LeagueConfig, played: &[GameSummary]) -> Result<Field, Failure> {
    let stages = crate::league::stages(config)?;
    let active = stages.last().map(|stage| stage.active.clone()).unwrap_or_default();
    let names: Vec<String> = config.bots.iter().map(|bot| bot.name.clone()).collect();
    let mut results = Pairwise::new(names.len());
    for game in played {
        results.add_game(&pairwise::places(game, &names));
    }
    let per_pair = learning::games_per_pair(config.kept.games);
    let n = active.len() as u64;
    let budget = match config.kept.format {
        // A Swiss league is as long as its rounds.
        Format::Swiss => u64::MAX,
        _ => config.kept.budget.unwrap_or(n * n.saturating_sub(1) / 2 * per_pair),
    };
    let round = config.rounds.len() as u64;
    Ok(Field {
        seed: config.kept.seed,
        round,
        active,
        results,
        played: played.len() as u64,
        budget,
        games_per_pair: per_pair,
    })
}

/// Why a learning league stopped, after `games` games.
pub(super) fn stop_note(config: &LeagueConfig, stop: &Next, games: u64) -> String {
    let rounds = config.rounds.len();
    if config.kept.format == Format::Swiss {
        let planned = swiss_rounds(config, active_bots(config));
        return match rounds as u64 >= planned {
            true => format!(
                "the swiss league stopped after {rounds} rounds and {games} games: its {planned} rounds are played \
                 (a larger --swiss-rounds plays on)"
            ),
            false => format!("the swiss league stopped after {rounds} rounds and {games} games: too few bots are left"),
        };
    }
    match stop {
        Next::Known => format!(
            "the learning league stopped after {rounds} rounds and {games} games: every pair of bots adjacent in \
             the table has its order known at {:.0}%",
            learning::CONFIDENCE * 100.0
        ),
        _ => format!(
            "the learning league stopped after {rounds} rounds and {games} games: its budget{} is spent, with the \
             order of some adjacent pairs not known at {:.0}% (a larger --budget plays on)",
            config.kept.budget.map_or_else(|| " (the round robin's games)".to_string(), |n| format!(" of {n} games")),
            learning::CONFIDENCE * 100.0
        ),
    }
}
