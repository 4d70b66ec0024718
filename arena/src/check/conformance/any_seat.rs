//! The check of a bot that says it plays any seat (its `ready` says
//! `"any_seat": true`): one process of it plays a whole game in each seat
//! of the first table in turn, as a match keeps it for its lane
//! ([`crate::run::table::Table::kept_seat`]), each game's seat told only by
//! that game's `game_start`, not by `hello`.

use super::games::{closing, play_games, pool};
use super::start::table_of;
use super::{Context, Failure, Timing};
use crate::bot::placement::Placement;
use crate::bot::pool::Role;

/// Game `n` of the first table seats the bot under test (a bot of its own,
/// index 0) in seat `n` and another copy of it (index 1) in the others, so
/// that the process under test, greeted for seat 0, plays every seat; its
/// games must all be played by that one process.
pub async fn every_seat(context: &Context, timing: &mut Timing) -> Result<String, Failure> {
    let (name, variant) = &context.checked.tables[0];
    let table = table_of(context, variant, 2);
    let seats = table.seats();
    let mut link = table.engine.connect(&table.registry, Placement::default()).await?;
    let pool = pool(context, &table);
    let seatings: Vec<Vec<usize>> =
        (0..seats).map(|own| (0..seats).map(|seat| usize::from(seat != own)).collect()).collect();
    let played = play_games(context, (&table, link.as_mut(), &pool), &seatings, timing).await;
    let roles = (0..seats).map(|seat| Role { bot: 0, seat, lane: 0, copy: 0 });
    let processes = roles.filter(|&role| pool.holds(role) || pool.session(role).is_some()).count();
    pool.kill_all().await;
    let played = played.map_err(|mut failure| {
        failure.fix = format!(
            "a bot that says \"any_seat\" must play each game at the seat its game_start gives, not at hello's \
             (see protocol/PROTOCOL.md#ready); otherwise, {}",
            failure.fix
        );
        failure
    });
    let summary = closing(link, played).await?;
    if processes != 1 {
        return Err(Failure {
            problem: format!(
                "its games at seats 0 to {} took {processes} processes, not one: a process after the first did not \
                 say \"any_seat\": true",
                seats - 1
            ),
            sent: Vec::new(),
            stderr: Vec::new(),
            fix: "say \"any_seat\": true in every process's ready, or in none: see protocol/PROTOCOL.md#ready"
                .to_string(),
        });
    }
    Ok(format!(
        "one process, greeted for seat 0, played seats 0 to {} of {name} in turn: {}",
        seats - 1,
        summary.join("; ")
    ))
}
