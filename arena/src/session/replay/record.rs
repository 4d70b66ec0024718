//! One record replayed, in each seat the bot takes.

use super::ReplayRequest;
use super::engines::{Engines, Open};
use crate::bot::registry::Registry;
use crate::bot::spec::BotSpec;
use crate::check::replay::{Replayed, replay};
use crate::check::verify;
use crate::engine::recorded::Misread;
use crate::run::table::{Limits, Resolved, Table};
use crate::session::exit::{Failure, usage};
use crate::store::record::JsonRecord;
use crate::store::record_file::Header;
use std::path::Path;
use std::sync::Arc;
use tokio::runtime::Runtime;

/// One game replayed: its id, who sat where, and what each seat the bot
/// took found.
pub(super) struct GameReplay {
    pub(super) id: u64,
    pub(super) bots: Vec<String>,
    pub(super) seats: Vec<(usize, Replayed)>,
}

/// Everything a replay of one record needs.
pub(super) struct Context<'a> {
    pub(super) args: &'a ReplayRequest,
    pub(super) bot: &'a BotSpec,
    pub(super) path: &'a Path,
    pub(super) runtime: &'a Runtime,
    pub(super) registry: &'a Registry,
    pub(super) engines: &'a mut Engines,
}

/// Replays one record, given as its JSON text, in each seat the bot takes.
pub(super) fn replay_record(context: Context<'_>, text: &str) -> Result<GameReplay, Failure> {
    let Context { args, bot, path, runtime, registry, engines } = context;
    let header: Header = serde_json::from_str(text)
        .map_err(|e| usage(format!("{}: a line is not a game record: {e}", path.display())))?;
    let cannot = |e: String| usage(format!("{}: a game cannot be replayed: {e}", path.display()));
    let mut record: JsonRecord = serde_json::from_str(text).map_err(|e| cannot(format!("not a record: {e}")))?;
    let what = format!("{}: game {}", path.display(), header.id);
    engines.of(runtime, registry, (&what, &header.game), header.engine.as_ref(), args)?;
    let Engines { open, kept } = engines;
    let Open { engine, link, probe, .. } = open.as_mut().expect("just opened");
    let teams = verify::prepare(engine, &mut record).map_err(|Misread { event, error }| {
        let at = event.map_or_else(String::new, |at| format!("event {at}: "));
        cannot(format!("{at}{error} (`arena verify` lists every disagreement)"))
    })?;
    let id = record.id;
    let seats: Vec<usize> = match (args.seat, &args.as_bot) {
        (Some(seat), _) if seat >= record.bots.len() => {
            return Err(usage(format!("--seat {seat}: game {id} has seats 0 to {}", record.bots.len() - 1)));
        }
        (Some(seat), _) => vec![seat],
        (None, Some(name)) => (0..record.bots.len()).filter(|&seat| record.bots[seat] == *name).collect(),
        (None, None) => unreachable!("clap requires --seat or --as"),
    };
    // Under time odds the seats the bot takes (all of one bot's) share their clock.
    let clock = seats.first().map_or(record.clock, |&seat| record.clock_of(seat));
    let limits = Limits::timed(args.move_timeout, clock, args.startup_timeout);
    let resolved = Resolved { variant: record.variant.clone(), teams };
    let table = Table::new(vec![bot.clone()], Arc::clone(engine), resolved, 0, limits, None, registry.clone());
    let name = &bot.name;
    let mut replays = Vec::new();
    for seat in seats {
        let replayed = runtime
            .block_on(replay(&table, link.as_mut(), probe.as_mut(), &record, seat, kept))
            .map_err(|e| usage(format!("game {id} of {} cannot be replayed: {e}", path.display())))?;
        if let Some(fault) = &replayed.fault {
            return Err(usage(format!(
                "game {id}, seat {seat}: {name} failed after {} decisions: {}: {}",
                replayed.decisions,
                fault.kind.name(),
                fault.message
            )));
        }
        replays.push((seat, replayed));
    }
    Ok(GameReplay { id, bots: record.bots, seats: replays })
}
