//! How many games a league plans, from its directory (`league.json`), for
//! the time left on the live page of a run served by `arena serve DIR`
//! (a run served by itself, `--serve`, says so itself).
//!
//! The games are those `arena league` counts: its schedule, of its shard,
//! without the games of retired bots not played. A league of rounds
//! (Swiss, learning) chooses them as it goes, and a match writes no plan
//! of its own: for those, none. An SPRT's games left are reckoned from its
//! test instead ([`super::watch`]).

use crate::engine::spec::Identity;
use crate::league::config::LeagueConfig;
use crate::league::{full_schedule, withdrawn};
use crate::run::setting::Setting;
use crate::schedule::{Seating, Selection};
use std::collections::HashSet;

/// The games of the league `config` (`None` for a league of rounds): its
/// sides are the engine program's as its records say (`recorded`, any
/// record's engine), or a built-in game's, in process; `played` the ids
/// of the games recorded.
pub fn planned(config: &LeagueConfig, recorded: Option<&Identity>, played: &HashSet<u64>) -> Option<u64> {
    if config.kept.format.has_rounds() {
        return None;
    }
    let teams = match (&config.engine, recorded) {
        // No engine program named in a run's files is run to read its sides.
        (Some(_), Some(identity)) => identity.teams.clone(),
        (Some(_), None) => return None,
        (None, _) => {
            let mut setting = Setting::open(&config.game, None, None).ok()?;
            let teams = setting.resolve(&config.settings).ok()?.teams;
            setting.close().ok()?;
            teams
        }
    };
    let schedule = full_schedule(config, &teams, Seating::EveryOrder).ok()?;
    let retired = config.retired();
    let dropped = |id| !played.contains(&id) && withdrawn(&schedule, &retired, id);
    Some(Selection::new(&schedule, config.shard, dropped).count())
}
