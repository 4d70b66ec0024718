//! A fresh process of the bot at a table of its own, past its handshake,
//! which every check of `arena check-bot` starts from; and the failure of a
//! check whose process faulted.

use super::report::{fix_for, lines};
use super::{Context, Failure};
use crate::bot::fault::{Fault, FaultKind};
use crate::bot::placement::Placement;
use crate::bot::pool::Said;
use crate::bot::process::BotProcess;
use crate::engine::games::{self, GameCommand};
use crate::run::session;
use crate::run::table::{Resolved, Table};
use game::Game;
use std::sync::Arc;
use std::time::Instant;

/// A fresh process of the bot for `seat` of `table`, past its handshake, and what it said.
pub(super) async fn start(table: &Table, seat: usize) -> Result<(BotProcess, Greeted), Failure> {
    let mut process = BotProcess::spawn(&table.launch(0, seat, Placement::default())).map_err(|fault| Failure {
        problem: fault.to_string(),
        sent: Vec::new(),
        stderr: Vec::new(),
        fix: fix_for(fault.kind),
    })?;
    let started = Instant::now();
    match session::handshake(&mut process, table.hello(0, seat), table.limits.startup_timeout).await {
        Ok(ready) => {
            let said = Said::of(&ready);
            let version = ready.version.map(|v| format!(" {v}")).unwrap_or_default();
            let protocol = ready.protocol.map(|p| format!(", protocol {p}")).unwrap_or_default();
            let games = ready.games.map(|n| format!(", {n} games at once")).unwrap_or_default();
            let any_seat = if ready.any_seat { ", any seat" } else { "" };
            let took = started.elapsed().as_millis();
            let detail = format!("ready in {took} ms: {:?}{version}{protocol}{games}{any_seat}", ready.name);
            Ok((process, Greeted { detail, said }))
        }
        Err(fault) => Err(failure(fault, process, table.engine.name()).await),
    }
}

/// The failure of a check whose process faulted; kills the process.
pub(super) async fn failure(fault: Fault, process: BotProcess, name: &str) -> Failure {
    let sent = lines(process.last_sent());
    let mut fix = fix_for(fault.kind);
    if matches!(fault.kind, FaultKind::BadMessage | FaultKind::IllegalMove)
        && let Some(game) = other_game(name, process.last_received())
    {
        fix = format!(
            "the bot answered with a move of {game}, not of {name}: if it plays {game}, check it with --game {game}; \
             otherwise, {fix}"
        );
    }
    let stderr = process.kill().await;
    Failure { problem: fault.to_string(), sent, stderr, fix }
}

/// The built-in game other than `name` whose move, by value, `answer` is,
/// if any: a bot checked (or run) with the wrong `--game`.
fn other_game(name: &str, answer: &[u8]) -> Option<&'static str> {
    /// Whether a line is a move of the game, by value.
    struct NamesAMove<'a>(&'a [u8]);
    impl GameCommand for NamesAMove<'_> {
        type Output = bool;
        fn run<H: Game>(self) -> bool {
            let reply = protocol::line::decode::<protocol::messages::FromBot<H::Move>>(self.0);
            matches!(reply, Ok(protocol::messages::FromBot::Move(reply)) if reply.value.is_some())
        }
    }
    games::NAMES
        .iter()
        .copied()
        .filter(|&other| other != name)
        .find(|other| games::dispatch(other, NamesAMove(answer)).unwrap_or(false))
}

/// What a bot said in its handshake, for the checklist.
pub(super) struct Greeted {
    /// How it answered, briefly.
    pub(super) detail: String,
    /// How it said it plays: games at once, any seat.
    pub(super) said: Said,
}

/// A table of the bot alone, for `variant`.
pub(super) fn table(context: &Context, variant: &Resolved) -> Table {
    table_of(context, variant, 1)
}

/// A table of `copies` of the bot (one for each index of a game's
/// seating), for `variant`.
pub(super) fn table_of(context: &Context, variant: &Resolved, copies: usize) -> Table {
    let settings = &context.settings;
    Table::new(
        vec![settings.bot.clone(); copies],
        Arc::clone(&context.checked.engine),
        variant.clone(),
        settings.seed,
        settings.limits.clone(),
        None,
        context.registry.clone(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_of_another_game_names_that_game() {
        let leduc = br#"{"type":"move","id":3,"move":{"action":"raise"}}"#;
        let all_fives = br#"{"type":"move","id":3,"move":{"tile":[5,5],"end":null}}"#;
        assert_eq!(other_game("all-fives", leduc), Some("leduc"));
        assert_eq!(other_game("leduc", all_fives), Some("all-fives"));
        assert_eq!(other_game("all-fives", all_fives), None, "its own game's move");
        assert_eq!(other_game("leduc", br#"{"type":"move","id":3,"move":{"card":"K"}}"#), None);
        assert_eq!(other_game("leduc", b"not json"), None);
    }
}
