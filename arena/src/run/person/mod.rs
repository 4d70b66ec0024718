//! `arena play`: a person takes a seat, against bots, at the terminal or
//! in the browser.
//!
//! The game is played like any game of a match ([`play_seated`]), the
//! person's seat answered by a [`Seat`] instead of a process: at each of its
//! turns the seat's view of the game (what happened since, then the position
//! and the legal moves numbered from 1, as the game draws them in text) goes
//! to its [`Front`], which answers with a move: the [`terminal`] (a number
//! read from stdin, so that a game can be scripted), or a page in the
//! browser (`crate::serve::seat`). The sitting (its games, totals and
//! records) is the same whatever the front. With an output directory the
//! games are recorded like any others, so `arena view` replays them and
//! `arena verify` checks them.

pub mod seat;
pub mod terminal;

use crate::bot::orphans;
use crate::bot::placement::Placement;
use crate::bot::pool::{self, Pool};
use crate::bot::signals;
use crate::run::play::{Unplayable, play_seated};
use crate::run::table::Table;
use crate::schedule::GameSpec;
use crate::schedule::seeds;
use crate::stats::standings::Standings;
use crate::store::output::OutDir;
use crate::terminal::console::outln;
use crate::terminal::untrusted::escape;
pub use seat::{Front, Seat, Turn};

/// A person's sitting at `arena play`: which seat, how many games, where
/// they are recorded.
pub struct Sitting {
    /// The seat the person takes.
    pub seat: usize,
    /// The person's name in the records.
    pub name: String,
    /// The bot of each seat, an index into the table's bots (not read for
    /// the person's seat).
    pub seating: Vec<usize>,
    /// How many games are played one after another (deals 0, 1, …).
    pub games: u64,
    /// Where the games are recorded, if anywhere.
    pub out: Option<OutDir>,
    /// The arena as it was run, for the commands the output suggests.
    pub program: String,
}

/// How a sitting ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Every game was played to its end.
    Played,
    /// The person left a game (it is not recorded; those before it are, if
    /// there is somewhere to record them).
    Left,
}

/// What the arena could not do (never the person's doing, nor a bot's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed(pub String);

/// Plays `sitting`'s games at `table`, the person at `front`: each game's
/// end and the running total are shown, and the games played to their end
/// are recorded (with the standings) when there is somewhere to. The front
/// is told how the sitting ended.
///
/// # Errors
/// When a game cannot be played (see [`Unplayable`]), or its record cannot
/// be written.
pub fn play<F: Front>(table: Table, sitting: Sitting, front: F) -> Result<Ending, Failed> {
    let mut names: Vec<String> =
        sitting.seating.iter().map(|&bot| table.bots.get(bot).map_or("", |b| &b.name).into()).collect();
    names[sitting.seat] = sitting.name.clone();
    let mut seat = Seat::new(sitting.seat, sitting.name.clone(), names, front);
    let ended = sit(&table, sitting, &mut seat);
    seat.front.finish(&ended);
    ended
}

/// [`play`], at `seat`.
fn sit<F: Front>(table: &Table, sitting: Sitting, seat: &mut Seat<F>) -> Result<Ending, Failed> {
    let (engine, registry, seed, seats) = (&table.engine, &table.registry, table.seed, table.seats());
    let name = engine.name().to_string();
    let spec = |id: u64| GameSpec {
        id,
        deal: id,
        arrangement: 0,
        nth: id,
        seed: seeds::deal_seed(seed, id),
        seats: sitting.seating.clone(),
        bot_seeds: (0..seats).map(|seat| seeds::bot_seed(seed, id, seat)).collect(),
    };
    seat.front.say(format!("{name}: you are seat {} ({}), seed {seed}", sitting.seat, sitting.name));
    seat.front.say(match engine.program_of() {
        None => format!("rules: {} (`{} rules --game {name}` explains them)", rules(&table.variant), sitting.program),
        Some(_) => format!("rules: {}", rules(&table.variant)),
    });

    let interruption = signals::exit_on_interrupt(registry.clone());
    orphans::adopt();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failed(format!("cannot start the runtime: {e}")))?;
    let mut records = Vec::new();
    let (left, unplayable) = runtime.block_on(async {
        let pool = Pool::new(Placement::default(), pool::cap(1, seats, seats), table.limits.exit_grace);
        let mut link = match engine.connect(registry, Placement::default()).await {
            Ok(link) => link,
            Err(e) => return (false, Some(Unplayable::from(e))),
        };
        let mut totals = vec![0i64; seats];
        let mut ended = (false, None);
        for id in 0..sitting.games {
            if sitting.games > 1 {
                seat.front.say(format!("\ngame {} of {}", id + 1, sitting.games));
            }
            match play_seated(table, &pool, link.as_mut(), &spec(id), (0, 0), Some(&mut *seat)).await {
                Ok(Some(record)) => {
                    for fault in &record.faults {
                        let message = escape(&fault.message);
                        seat.front
                            .say(format!("fault: seat {} ({}): {}: {message}", fault.seat, fault.bot, fault.kind));
                    }
                    totals.iter_mut().zip(&record.result.scores).for_each(|(total, score)| *total += score);
                    records.push(record);
                    if sitting.games > 1 {
                        let totals = seat.per_seat(&totals);
                        seat.front.say(format!("after {} of {} games: totals {totals}", id + 1, sitting.games));
                    }
                }
                Ok(None) => {
                    ended = (true, None);
                    break;
                }
                Err(unplayable) => {
                    ended = (false, Some(unplayable));
                    break;
                }
            }
        }
        pool.close_all().await;
        if let Err(e) = link.close().await {
            let _ = outln!("warning: {e}");
        }
        ended
    });
    orphans::sweep(registry);
    interruption.settle();
    if let Some(unplayable) = unplayable {
        return Err(Failed(unplayable.why));
    }
    match (left, records.len()) {
        (true, 0) => seat.front.say("you left the game: it is not recorded".into()),
        (true, done) if sitting.out.is_some() => {
            seat.front.say(format!("you left game {}: it is not recorded (the {done} before it are)", done + 1));
        }
        (true, done) => seat.front.say(format!(
            "you left game {}: no game is recorded, neither it nor the {done} before it (--out DIR records them)",
            done + 1
        )),
        (false, _) => {}
    }
    if let (Some(mut out), false) = (sitting.out, records.is_empty()) {
        let lines: Vec<String> = records.iter().map(|r| serde_json::to_string(r).expect("records serialize")).collect();
        out.append(records.iter().zip(&lines).map(|(record, line)| (record.id, line.as_str()))).map_err(|e| {
            Failed(format!("cannot write {}: {e}", out.path().join(crate::store::output::GAMES).display()))
        })?;
        let mut everyone = table.bots.iter().map(|bot| bot.name.clone()).collect::<Vec<_>>();
        everyone.push(sitting.name.clone());
        let mut standings = Standings::new(&everyone, engine.scoring());
        for record in &records {
            standings.add(&record.summary());
        }
        let path = out.path().to_path_buf();
        out.finish(&standings.to_json(&name, seed))
            .map_err(|e| Failed(format!("cannot finish {}: {e}", path.display())))?;
        seat.front.say(format!(
            "recorded in {}: `{} view {} --game 0 -o game.html` replays it",
            path.join(crate::store::output::GAMES).display(),
            sitting.program,
            path.display()
        ));
    }
    Ok(if left { Ending::Left } else { Ending::Played })
}

/// Every rule setting of `variant`, as `arena rules` names them: `players=2 target=250 …`.
fn rules(variant: &impl serde::Serialize) -> String {
    match serde_json::to_value(variant) {
        Ok(serde_json::Value::Object(settings)) => settings
            .iter()
            .map(|(key, value)| match value {
                serde_json::Value::String(text) => format!("{key}={text}"),
                other => format!("{key}={other}"),
            })
            .collect::<Vec<_>>()
            .join(" "),
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}
