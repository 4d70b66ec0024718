//! Replaying a recorded game to one bot: the bot is seated in one seat and
//! told the game exactly as that seat saw it, but every move, its own
//! included, is the recorded one. Wherever the bot now chooses differently
//! from the record, the difference is noted: a behaviour diff between the
//! bot that played the game and the one replayed.

use crate::bot::process::BotProcess;
use crate::fault::Fault;
use crate::record::RecordOf;
use crate::session::{self, Envelope};
use crate::table::Table;
use crate::untrusted;
use crate::verify;
use game::Game;
use protocol::messages::{Forfeit, GameEnd, GameStart};

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

/// Replays `record` to bot 0 of `table`, seated in `seat`. Fails, before
/// any process starts, when the record cannot be replayed (see
/// [`verify::check`]).
pub async fn replay<G: Game>(table: &Table, record: &RecordOf<G>, seat: usize) -> Result<Replayed, String> {
    let mut game = verify::set_up::<G>(record)?;
    let mut replayed = Replayed::default();
    let mut process = match BotProcess::spawn(&table.launch(0, seat, None)) {
        Ok(process) => process,
        Err(fault) => return Ok(Replayed { fault: Some(fault), ..replayed }),
    };
    if let Err(fault) = session::handshake(&mut process, table.hello(0, seat), table.limits.startup_timeout).await {
        return Ok(failed(process, fault, replayed).await);
    }
    process.queue(&Envelope::GameStart(GameStart { id: record.id, seed: record.bot_seeds[seat], seat }));
    let mut delivered = 0;
    while let Some(to_act) = game.to_act() {
        delivered = session::tell(&mut process, &game, seat, delivered);
        let at = game.event_count();
        if at == record.events.len() {
            break; // the game was cut short by a fault
        }
        let recorded = verify::recorded_move(&game, record, at)
            .map_err(|e| format!("event {at}: {e} (`arena verify` lists every disagreement)"))?;
        if to_act == seat {
            match session::ask_typed_move(&mut process, &game, seat, table.limits.move_timeout).await {
                Ok(decision) => {
                    replayed.decisions += 1;
                    replayed.time_us += decision.elapsed.as_micros() as u64;
                    if decision.index != recorded {
                        let choices = game.choices();
                        replayed.differences.push(Difference {
                            event: at,
                            recorded: json(&choices[recorded]),
                            chosen: json(&choices[decision.index]),
                        });
                    }
                }
                Err(fault) => return Ok(failed(process, fault, replayed).await),
            }
        }
        game.play(recorded).expect("a recorded move the game found is legal");
    }
    session::tell(&mut process, &game, seat, delivered);
    let result = &record.result;
    let forfeits = record.faults.iter().map(|f| Forfeit { seat: f.seat, kind: f.kind.name().to_string() }).collect();
    process.queue(&Envelope::GameEnd(GameEnd {
        id: record.id,
        reason: result.reason.clone(),
        scores: result.scores.clone(),
        ranks: result.ranks.clone(),
        forfeits,
    }));
    process.queue(&Envelope::Bye);
    process.close(table.limits.exit_grace).await;
    Ok(replayed)
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

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("moves serialize")
}
