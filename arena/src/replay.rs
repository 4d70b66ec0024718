//! Replaying a recorded game to one bot: the bot is seated in one seat and
//! told the game exactly as that seat saw it, but every move, its own
//! included, is the recorded one. Wherever the bot now chooses differently
//! from the record, the difference is noted: a behaviour diff between the
//! bot that played the game and the one replayed. A game played under a
//! clock is replayed under it: each turn tells the bot the clock the record
//! shows it had then.

use crate::bot::process::BotProcess;
use crate::engine::link::Link;
use crate::engine::running::{Origin, Running};
use crate::engine::spec::Trouble;
use crate::fault::Fault;
use crate::record::JsonRecord;
use crate::session::{self, Envelope};
use crate::table::Table;
use crate::untrusted;
use protocol::messages::{Forfeit, GameEnd, GameStart};
use std::time::Duration;

/// A decision where the bot chose differently from the record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The index of the recorded move in the record's `events`.
    pub event: usize,
    /// The recorded move, as the bot was offered it (JSON).
    pub recorded: String,
    /// The move the bot chose now (JSON).
    pub chosen: String,
}

/// What a replay found.
#[derive(Debug, Default)]
pub struct Replayed {
    /// How many times the bot was asked to move.
    pub decisions: usize,
    /// Its choices that differ from the record, in order.
    pub differences: Vec<Difference>,
    /// The bot's total thinking time, in microseconds.
    pub time_us: u64,
    /// What went wrong with the bot, if it did not see the game through: its
    /// message is made for a terminal, what the bot wrote escaped (see
    /// [`untrusted`]), with the end of its stderr.
    pub fault: Option<Fault>,
}

/// Replays `record` to bot 0 of `table`, seated in `seat`, the game played
/// again on `link` from its seed (or setup) with the recorded choices.
/// Fails, before any process starts, when the game cannot be started; and
/// where the record and the engine part ways (`arena verify` lists every
/// disagreement).
pub async fn replay(table: &Table, link: &mut dyn Link, record: &JsonRecord, seat: usize) -> Result<Replayed, String> {
    let origin = match (&record.setup, record.preset) {
        (Some(setup), true) => Origin::Setup(setup),
        (None, true) => return Err("the game was set up in advance, but the record holds no setup".to_string()),
        (_, false) => Origin::Seed(record.seed),
    };
    let engine = &table.engine;
    let mut game = match Running::start(engine, link, &table.variant, &table.teams, origin).await {
        Ok(game) => game,
        Err(Trouble::Refused(why)) => return Err(format!("the engine does not start this game: {why}")),
        Err(Trouble::Failed(e)) => return Err(e.to_string()),
    };
    let mut replayed = Replayed::default();
    let mut process = match BotProcess::spawn(&table.launch(0, seat, None)) {
        Ok(process) => process,
        Err(fault) => return Ok(Replayed { fault: Some(fault), ..replayed }),
    };
    if let Err(fault) = session::handshake(&mut process, table.hello(0, seat), table.limits.startup_timeout).await {
        return Ok(failed(process, fault, replayed).await);
    }
    process.queue(&Envelope::GameStart(GameStart { id: record.tag(), seed: record.bot_seeds[seat], seat }));
    let mut delivered = 0;
    // Under a game clock, the seat's clock as the record has it before each
    // of its moves: the base, then what its last recorded move left.
    let mut clock = record.clock.map(|control| control.start());
    while let Some(to_act) = game.to_act() {
        delivered = tell(&mut process, &game, seat, delivered);
        let at = game.events().len();
        if at == record.events.len() {
            break; // the game was cut short by a fault
        }
        let recorded = match record.events[at].choice {
            Some(choice) if choice < game.choices().len() => choice,
            _ => {
                process.kill().await;
                return Err(format!("event {at}: seat {to_act} moves here, but the record has no choice it can play"));
            }
        };
        if to_act == seat {
            let decision = match session::ask_in_game(&mut process, &game, link, table.limits.move_timeout, clock).await
            {
                Ok(decision) => decision,
                Err(e) => {
                    process.kill().await;
                    return Err(e.to_string());
                }
            };
            match decision {
                Ok(decision) => {
                    replayed.decisions += 1;
                    replayed.time_us += decision.elapsed.as_micros() as u64;
                    if decision.index != recorded {
                        let choices = game.choices();
                        replayed.differences.push(Difference {
                            event: at,
                            recorded: choices[recorded].get().to_string(),
                            chosen: choices[decision.index].get().to_string(),
                        });
                    }
                }
                Err(fault) => return Ok(failed(process, fault, replayed).await),
            }
        }
        if let Err(e) = game.play(link, recorded).await {
            process.kill().await;
            return Err(e.to_string());
        }
        if let (true, Some(clock), Some(left)) = (to_act == seat, clock.as_mut(), record.events[at].clock_us) {
            clock.left = Duration::from_micros(left);
        }
    }
    tell(&mut process, &game, seat, delivered);
    let result = &record.result;
    let forfeits = record.faults.iter().map(|f| Forfeit { seat: f.seat, kind: f.kind.name().to_string() }).collect();
    process.queue(&Envelope::GameEnd(GameEnd {
        id: record.tag(),
        reason: result.reason.clone(),
        scores: result.scores.clone(),
        ranks: result.ranks.clone(),
        forfeits,
    }));
    process.queue(&Envelope::Bye);
    process.close(table.limits.exit_grace).await;
    Ok(replayed)
}

/// Queues what `seat` is told of every event of `game` from number `from`
/// on; returns the number of the next event to tell.
pub fn tell(process: &mut BotProcess, game: &Running<'_>, seat: usize, from: usize) -> usize {
    for view in game.events()[from..].iter().filter_map(|event| event.views[seat].as_ref()) {
        process.queue(view);
    }
    game.events().len()
}

/// Ends a replay the bot could not see through.
async fn failed(process: BotProcess, mut fault: Fault, replayed: Replayed) -> Replayed {
    let stderr = process.kill().await;
    // Composed for the terminal: what the bot wrote is escaped, line by line.
    let mut message = untrusted::escape(&fault.message).into_owned();
    if !stderr.is_empty() {
        message.push_str("; its stderr ended with:");
        for line in &stderr {
            message.push_str("\n  ");
            message.push_str(&untrusted::escape(line));
        }
    }
    fault.message = message;
    Replayed { fault: Some(fault), ..replayed }
}
