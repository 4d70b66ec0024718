//! What a change of a league's field does, and who retired.

use super::rounds::{active_bots, swiss_rounds};
use crate::league::config::LeagueConfig;
use crate::schedule::{Format, Schedule};
use crate::session::exit::{Failure, usage};
use crate::terminal::untrusted::escape;

/// An error unless the bots that entered with the last change of a grown
/// league's field (if any) meet someone: a league of `sides` sides.
pub(super) fn entering_bots_play(config: &LeagueConfig, schedule: &Schedule, sides: usize) -> Result<(), Failure> {
    let change = config.history.last().expect("a grown league has a history");
    let active = active_bots(config);
    // A learning league's stages are its rounds: its next round meets a newcomer if anyone is left to meet.
    let meets = match config.kept.format {
        Format::Learning | Format::Swiss => active >= 2,
        _ => !schedule.stage(config.history.len() - 1).expect("a stage for every change").0.is_empty(),
    };
    if change.added.is_empty() {
        return Ok(());
    }
    let planned = swiss_rounds(config, active);
    let newcomer = |bot: &usize| change.added.contains(&config.bots[*bot].name);
    // A round may have been chosen for them already (as this run takes the change in).
    let paired = config.rounds.iter().flatten().flatten().any(newcomer);
    if meets && config.kept.format == Format::Swiss && !paired && config.rounds.len() as u64 >= planned {
        return Err(usage(format!(
            "{} would play no game: this swiss league has played its {planned} rounds (give more with \
             --swiss-rounds, with --bot or after it)",
            change.added.join(", ")
        )));
    }
    if meets {
        return Ok(());
    }
    let first = match config.kept.format {
        Format::Gauntlet => format!(", or its first bot, {}, has retired", config.bots[0].name),
        Format::RoundRobin | Format::Learning | Format::Swiss => String::new(),
    };
    Err(usage(format!(
        "{} would play no game: this {} league of a {sides}-sided game has too few bots left{first}",
        change.added.join(", "),
        config.kept.format,
    )))
}

/// What the change `index` of a grown league's field does: the groups it
/// creates, and (when given) the games of the retired bots that are dropped.
pub(super) fn change_note(config: &LeagueConfig, schedule: &Schedule, index: usize, dropped: Option<u64>) -> String {
    let change = &config.history[index];
    let mut parts = Vec::new();
    let verb = if change.added.len() == 1 { "enters" } else { "enter" };
    // A learning or Swiss league's stages are its rounds: the newcomers play from its next round.
    if !change.added.is_empty() && config.kept.format == Format::Learning {
        parts.push(format!("{} {verb}: the next round is a draw of the whole field", change.added.join(", ")));
    } else if !change.added.is_empty() && config.kept.format == Format::Swiss {
        parts.push(format!("{} {verb}: paired from the next round, at a score of 0.5", change.added.join(", ")));
    } else if !change.added.is_empty() {
        let (groups, ids) = schedule.stage(index).expect("a stage for every change");
        parts.push(format!(
            "{} {verb}: {} new groups of bots, {} games",
            change.added.join(", "),
            groups.len(),
            ids.end - ids.start
        ));
    }
    if !change.retired.is_empty() {
        let verb = if change.retired.len() == 1 { "retires" } else { "retire" };
        let games = match dropped.unwrap_or(0) {
            0 => String::new(),
            n => format!(": {n} games not played yet are dropped"),
        };
        parts.push(format!("{} {verb}{games}", change.retired.join(", ")));
    }
    format!("the league's field changes: {}", parts.join("; "))
}

/// Under the standings of a league with retired bots: who retired when.
pub(super) fn retired_note(config: &LeagueConfig) -> Option<String> {
    let retired: Vec<String> = config
        .history
        .iter()
        .flat_map(|change| {
            // A time from a change file, which anyone who may write to the queue wrote: shown escaped.
            let when = change.at.as_deref().map_or_else(String::new, |at| format!(" since {}", escape(at)));
            change.retired.iter().map(move |name| format!("{name}{when}"))
        })
        .collect();
    (!retired.is_empty()).then(|| {
        format!("retired: {}; the standings count the games they played, and they play no more", retired.join(", "))
    })
}
