//! A run's first lane, greeted before the run is planned: how many games
//! at once each bot plays (see [`crate::bot::session`]) decides how many
//! game slots play units and so how the games are cut (see
//! [`crate::schedule::lanes`]), and a bot says it only in its `ready`.
//!
//! A process of each bot of the first lane of a sketch of the plan (the plan
//! as if every bot played one game at a time) is started and greeted, all at
//! once, before any game (its other processes there, a bot that plays any
//! seat needing none, start with the lane's first game); the plan is then
//! made for the slots that will play,
//! and each greeted process is handed to the first lane of that plan, which
//! the first slot plays, where it holds the same seat (as a start begun
//! ahead of its lane, so that the lane's first game seats it, or records
//! its fault, as for any process started ahead). A process the plan's first
//! lane does not need (the sketch's first lane was another) is ended: it has
//! played no game, so it has seen no deal. A bot that is not in the first
//! lane says how many games it plays at once when its first lane begins.

use crate::bot::pool::{Pool, Role, Started};
use crate::run::play::begin_start;
use crate::run::table::Table;
use crate::schedule::Schedule;
use crate::schedule::lanes::Lane;
use std::collections::BTreeSet;

/// The lane key the greeted processes wait under until the plan's first
/// lane takes them: no lane of a plan has it.
const GREETED: u64 = u64::MAX;

/// The (bot, seat) pairs of `lane`'s games, each once, in order: the seats
/// their processes are kept under ([`Table::kept_seat`]).
pub fn roles(lane: &Lane, schedule: &Schedule, table: &Table) -> Vec<(usize, usize)> {
    let mut roles: Vec<(usize, usize)> = lane
        .games
        .iter()
        .filter_map(|&id| schedule.get(id))
        .flat_map(|spec| (0..spec.seats.len()).map(move |seat| (spec.seats[seat], table.kept_seat(&spec.seats, seat))))
        .collect();
    roles.sort_unstable();
    roles.dedup();
    roles
}

/// Starts a process for each of `roles` in `pool` (as far as it has room)
/// and greets them all at once; notes how each bot that was greeted plays
/// (games at once, any seat). Returns each start and how it went.
pub async fn greet(table: &Table, pool: &Pool, roles: &[(usize, usize)]) -> Vec<(Role, Started)> {
    let mut starts = Vec::new();
    for &(bot, seat) in roles {
        let role = Role { bot, seat, lane: GREETED, copy: 0 };
        if table.starts.given_up(bot).is_some() {
            continue;
        }
        let Some(counted) = pool.room_ahead(0) else { break };
        starts.push((role, begin_start(table, pool, role, counted)));
    }
    let mut greeted = Vec::new();
    for (role, start) in starts {
        let started = start.await.unwrap_or_else(|e| {
            Started::Failed(format!("a process of bot {:?} was not started: {e}", table.bots[role.bot].name))
        });
        if let Started::Greeted(_, _, said) = &started {
            table.note_said(role.bot, *said);
        }
        greeted.push((role, started));
    }
    greeted
}

/// Hands each of `greeted` to `first`, the plan's first lane, where it is
/// kept under the same seat (a process of a bot that plays any seat, under
/// any of its bot's that is left), as a start begun ahead of the lane; ends
/// the others, and returns once they are gone.
pub async fn hand_over(
    table: &Table,
    pool: &Pool,
    greeted: Vec<(Role, Started)>,
    first: Option<&Lane>,
    schedule: &Schedule,
) {
    let (key, wanted) = first.map(|lane| (lane.key, roles(lane, schedule, table))).unwrap_or_default();
    let mut handed = BTreeSet::new();
    for (role, started) in greeted {
        let kept = match wanted.contains(&(role.bot, role.seat)) {
            true => Some(role.seat),
            false if table.any_seat(role.bot) => wanted
                .iter()
                .find(|&&(bot, seat)| bot == role.bot && !handed.contains(&(bot, seat)))
                .map(|&(_, seat)| seat),
            false => None,
        };
        let role = match kept {
            Some(seat) if handed.insert((role.bot, seat)) => Role { lane: key, seat, ..role },
            _ => Role { lane: GREETED, ..role },
        };
        pool.adopt_ahead(role, tokio::spawn(async move { started }));
    }
    let mut ending = pool.end_lane(GREETED);
    while ending.join_next().await.is_some() {}
}
