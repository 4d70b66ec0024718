//! The checks of `arena check-bot`, each with fresh processes of the bot.

use super::games::{closing, play_games, pool};
use super::report::{fix_for, lines};
use super::start::{failure, start, table};
use super::{Context, Failure, Outcome, Timing, Verdict};
use crate::bot::fault::FaultKind;
use crate::bot::placement::Placement;
use crate::bot::pool::Said;
use crate::bot::process::BotProcess;
use crate::bot::process::Envelope;
use crate::engine::link::Link;
use crate::engine::origin::Origin;
use crate::engine::process::EngineError;
use crate::engine::running::{Found, Running};
use crate::run::game_loop::{Answer, Seats, play_out};
use crate::run::session::{self, Answered, Decision};
use crate::run::table::Table;
use crate::schedule::seeds;
use protocol::engine::{Raw, StepEvent};
use protocol::messages::GameStart;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The checks run after the handshake, in the order of the checklist.
#[derive(Debug, Clone, Copy)]
enum Check {
    RequestIds,
    Position(usize),
    Game(usize),
    NextGame,
    /// Games at once in one session, of a bot that plays this many.
    Interleaved(usize),
    /// A fault in one game of a session.
    OneFault,
    /// One process in every seat, of a bot that plays any seat.
    AnySeat,
    Bye,
    Eof,
}

impl Check {
    fn name(self, context: &Context) -> String {
        match self {
            Check::RequestIds => "request-ids".to_string(),
            Check::Position(i) => format!("position:{}", context.checked.cases[i].name),
            Check::Game(i) => format!("game:{}", context.checked.tables[i].0),
            Check::NextGame => "next-game".to_string(),
            Check::Interleaved(_) => "session:interleaved".to_string(),
            Check::OneFault => "session:one-fault".to_string(),
            Check::AnySeat => "any-seat".to_string(),
            Check::Bye => "exit-on-bye".to_string(),
            Check::Eof => "exit-on-eof".to_string(),
        }
    }

    async fn run(self, context: &Context) -> (Verdict, Timing) {
        let mut timing = Timing::default();
        let result = match self {
            Check::RequestIds => request_ids(context, &mut timing).await,
            Check::Position(i) => position(context, i, &mut timing).await,
            Check::Game(i) => games(context, i, 1, &mut timing).await,
            Check::NextGame => games(context, 0, 2, &mut timing).await,
            Check::Interleaved(games) => super::sessions::interleaved(context, games, &mut timing).await,
            Check::OneFault => super::sessions::one_fault(context, &mut timing).await,
            Check::AnySeat => super::any_seat::every_seat(context, &mut timing).await,
            Check::Bye => exits(context, false).await,
            Check::Eof => exits(context, true).await,
        };
        (result.map_or_else(|failure| Verdict::Fail(Box::new(failure)), Verdict::Pass), timing)
    }
}

/// Runs the handshake, then (if it passed) every other check, `jobs` at a
/// time, and lists last whether every answer of theirs came in time.
pub async fn run_all(context: Arc<Context>) -> Vec<Outcome> {
    let (handshake, said) = handshake(&context).await;
    let passed = !handshake.failed();
    let mut list = vec![Check::RequestIds];
    list.extend((0..context.checked.cases.len()).map(Check::Position));
    list.extend((0..context.checked.tables.len()).map(Check::Game));
    list.push(Check::NextGame);
    if let Some(games) = said.games.filter(|&games| games > 1 && !context.checked.cases.is_empty()) {
        list.extend([Check::Interleaved(games as usize), Check::OneFault]);
    }
    if said.any_seat {
        list.push(Check::AnySeat);
    }
    list.extend([Check::Bye, Check::Eof]);
    let mut outcomes: Vec<Outcome> = list
        .iter()
        .map(|check| Outcome {
            name: check.name(&context),
            expect: match check {
                Check::Position(i) => Some(context.checked.cases[*i].expect),
                _ => None,
            },
            verdict: Verdict::Skip("the handshake failed".to_string()),
            timing: Timing::default(),
        })
        .collect();
    if passed {
        let permits = Arc::new(Semaphore::new(context.settings.jobs.max(1)));
        let mut tasks = tokio::task::JoinSet::new();
        for (index, check) in list.into_iter().enumerate() {
            let (context, permits) = (Arc::clone(&context), Arc::clone(&permits));
            tasks.spawn(async move {
                let _permit = permits.acquire_owned().await.expect("the semaphore is never closed");
                (index, check.run(&context).await)
            });
        }
        while let Some(joined) = tasks.join_next().await {
            let (index, (verdict, timing)) = joined.expect("a check does not panic");
            outcomes[index].verdict = verdict;
            outcomes[index].timing = timing;
        }
    }
    // Whether the answers came in time follows from the checks that asked
    // for them, so it comes after them: a cause before its consequence.
    let timing = in_time(&context, &outcomes, passed);
    let mut all = vec![handshake];
    all.append(&mut outcomes);
    all.push(timing);
    all
}

/// The handshake's outcome, and how the bot said it plays (as a process
/// that said nothing, when it failed).
async fn handshake(context: &Context) -> (Outcome, Said) {
    let (verdict, said) = match start(&table(context, &context.checked.tables[0].1), 0).await {
        Ok((process, greeted)) => {
            process.kill().await;
            (Verdict::Pass(greeted.detail), greeted.said)
        }
        Err(failure) => (Verdict::Fail(Box::new(failure)), Said::default()),
    };
    (Outcome { name: "handshake".to_string(), expect: None, verdict, timing: Timing::default() }, said)
}

/// Asks for a move with `state` and `choices` and notes its time; a fault kills the process.
async fn ask(
    mut process: BotProcess,
    (state, choices): (&impl serde::Serialize, &[impl serde::Serialize]),
    context: &Context,
    timing: &mut Timing,
) -> Result<(BotProcess, Answered), Failure> {
    match session::ask_move(&mut process, state, choices, context.settings.limits.move_timeout, None).await {
        Ok(answered) => {
            let elapsed = match &answered {
                Answered::Index(decision) => decision.elapsed,
                Answered::Named(named) => named.elapsed,
            };
            timing.note(elapsed);
            Ok((process, answered))
        }
        Err(fault) => {
            timing.timed_out |= fault.kind == FaultKind::Timeout;
            Err(failure(fault, process, context.checked.engine.name()).await)
        }
    }
}

/// The index an answer chose, a move named by value found by `find`; a
/// move that is none of the choices fails, killing the process.
async fn chosen(
    process: BotProcess,
    answered: Answered,
    context: &Context,
    find: impl AsyncFnOnce(serde_json::Value) -> Result<Result<usize, Option<String>>, Failure>,
) -> Result<(BotProcess, usize), Failure> {
    match answered {
        Answered::Index(decision) => Ok((process, decision.index)),
        Answered::Named(named) => match find(named.named.clone()).await? {
            Ok(index) => Ok((process, index)),
            Err(why) => Err(failure(named.not_legal(why), process, context.checked.engine.name()).await),
        },
    }
}

/// A failure of the engine (which does not fail, when built in).
impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Self {
        Failure {
            problem: e.to_string(),
            sent: Vec::new(),
            stderr: e.stderr,
            fix: "the engine failed, not the bot: check it with `arena check-engine`".to_string(),
        }
    }
}

/// The `game_start` of game 0 of a match with this seed, as a match tells it.
fn game_start(seat: usize, seed: u64) -> GameStart {
    let id = seeds::game_tag(seeds::deal_seed(seed, 0), 0);
    GameStart { id, seed: seeds::bot_seed(seed, 0, seat), seat }
}

/// Turns far apart in ids: a bot that counts its turns instead of echoing ids fails.
async fn request_ids(context: &Context, timing: &mut Timing) -> Result<String, Failure> {
    let table = table(context, &context.checked.tables[0].1);
    let mut link = table.engine.connect(&table.registry, Placement::default()).await?;
    let result = ids_echoed(context, &table, link.as_mut(), timing).await;
    closing(link, result).await
}

/// The body of [`request_ids`], on `link`.
async fn ids_echoed(
    context: &Context,
    table: &Table,
    link: &mut dyn Link,
    timing: &mut Timing,
) -> Result<String, Failure> {
    let engine = &table.engine;
    let origin = Origin::Seed(context.settings.seed);
    let mut game = Running::start(engine, link, &table.variant, &table.teams, origin, false).await.map_err(
        |trouble| match trouble {
            crate::engine::spec::Trouble::Failed(e) => Failure::from(e),
            crate::engine::spec::Trouble::Refused(why) => engine.failed(format!("refused to start: {why}")).into(),
        },
    )?;
    let seat = game.to_act().expect("a new game has a seat to act");
    let (mut process, _) = start(table, seat).await?;
    process.queue(&Envelope::GameStart(game_start(seat, context.settings.seed)));
    let mut probe =
        IdsProbe { context, seat, process: Some(process), skips: [40, 100].into_iter(), ids: Vec::new(), timing };
    play_out(&mut game, link, &mut probe).await?;
    if let Some(process) = probe.process {
        process.kill().await;
    }
    let ids: Vec<String> = probe.ids.iter().map(u64::to_string).collect();
    Ok(format!("echoed the ids of turns {}", ids.join(" and ")))
}

/// The seats of [`ids_echoed`]'s game: the bot in one, its turns far apart
/// in ids (it is asked once per skip, then the game stops); the other seats
/// play the first legal move.
struct IdsProbe<'a, S> {
    context: &'a Context,
    seat: usize,
    /// The bot's process (taken while it is asked).
    process: Option<BotProcess>,
    /// How many ids to skip before each of the bot's turns.
    skips: S,
    /// The ids of the bot's turns.
    ids: Vec<u64>,
    timing: &'a mut Timing,
}

impl<S: Iterator<Item = u64>> Seats for IdsProbe<'_, S> {
    type Error = Failure;

    fn tell(&mut self, seat: usize, event: &StepEvent<Raw>) {
        if let (true, Some(process), Some(view)) = (seat == self.seat, self.process.as_mut(), &event.views[seat]) {
            process.queue(view);
        }
    }

    /// A bot's fault is the check's failure at once (its process killed).
    async fn answer(&mut self, to_act: usize, game: &Running<'_>, link: &mut dyn Link) -> Result<Answer, Failure> {
        let first = Decision { index: 0, elapsed: Duration::ZERO };
        if to_act != self.seat {
            return Ok(Answer::Play(first));
        }
        let Some(skip) = self.skips.next() else { return Ok(Answer::Stop) };
        let mut process = self.process.take().expect("a bot's failure ends the check");
        let skipped = (0..skip).map(|_| process.next_request_id()).last().unwrap_or_default();
        self.ids.push(skipped + 1);
        let answered;
        (process, answered) = ask(process, (game.state(), game.choices()), self.context, self.timing).await?;
        let index;
        (process, index) = chosen(process, answered, self.context, async |named| match game.find(link, named).await {
            Ok(Found::Index(index)) => Ok(Ok(index)),
            Ok(Found::Illegal(why)) => Ok(Err(why)),
            Err(e) => Err(Failure::from(e)),
        })
        .await?;
        self.process = Some(process);
        Ok(Answer::Play(Decision { index, ..first }))
    }

    fn played(&mut self, _: usize, _: Decision, _: usize, _: &Running<'_>) {}
}

/// One position of the engine: the events leading to it, then a turn.
async fn position(context: &Context, index: usize, timing: &mut Timing) -> Result<String, Failure> {
    let case = &context.checked.cases[index];
    let seat = case.seat;
    let (mut process, _) = start(&table(context, &case.variant), seat).await?;
    process.queue(&Envelope::GameStart(game_start(seat, context.settings.seed)));
    for view in &case.told {
        process.queue(view);
    }
    let (process, answered) = ask(process, (&case.state, &case.choices), context, timing).await?;
    let (process, chosen) = chosen(process, answered, context, async |named| Ok((case.find)(&named))).await?;
    let how = match protocol::messages::move_by_index(process.last_received()) {
        Some(_) => "by index",
        None => "by value",
    };
    process.kill().await;
    let choice = serde_json::to_string(&case.choices[chosen]).expect("choices serialize");
    Ok(format!("seat {seat} played {choice}, named {how}"))
}

/// `count` whole games of table `index` in the same processes, the bot in every seat.
async fn games(context: &Context, index: usize, count: u64, timing: &mut Timing) -> Result<String, Failure> {
    let table = table(context, &context.checked.tables[index].1);
    let mut link = table.engine.connect(&table.registry, Placement::default()).await?;
    let result = whole_games(context, &table, link.as_mut(), count, timing).await;
    closing(link, result).await
}

/// The body of [`games()`], on `link`.
async fn whole_games(
    context: &Context,
    table: &Table,
    link: &mut dyn Link,
    count: u64,
    timing: &mut Timing,
) -> Result<String, Failure> {
    let pool = pool(context, table);
    let seatings = vec![vec![0; table.seats()]; count as usize];
    let played = play_games(context, (table, link, &pool), &seatings, timing).await;
    pool.kill_all().await;
    let summary = played?;
    let seats = table.seats();
    Ok(match count {
        1 => format!("{seats} seats, {}", summary.join("")),
        _ => format!("{count} games in the same {seats} processes: {}", summary.join("; ")),
    })
}

/// Exits on `bye` (or, with `eof`, when its stdin is closed) within the grace period, leaving nothing behind.
async fn exits(context: &Context, eof: bool) -> Result<String, Failure> {
    let grace = context.settings.limits.exit_grace;
    let (mut process, _) = start(&table(context, &context.checked.tables[0].1), 0).await?;
    if !eof {
        process.queue(&Envelope::Bye);
    }
    let started = Instant::now();
    let exit = process.await_exit(eof, grace).await;
    let left = process.leftovers().is_some_and(|left| left.in_group > 0);
    let (sent, what, fix) = match eof {
        false => (lines(process.last_sent()), "bye", "exit when `bye` arrives: see protocol/PROTOCOL.md#bye"),
        true => (
            vec!["(nothing more: its stdin was closed)".to_string()],
            "the end of its input",
            "exit when stdin reaches end of file: see protocol/PROTOCOL.md#the-life-of-a-bot-process",
        ),
    };
    let problem = match (&exit, left) {
        (Some(status), false) => {
            process.kill().await;
            return Ok(format!("{status}, {} ms after {what}", started.elapsed().as_millis()));
        }
        (Some(status), true) => {
            format!("{status} after {what}, but left processes running in its process group (killed)")
        }
        (None, _) => format!("still running {} ms after {what}", grace.as_millis()),
    };
    let fix = match exit {
        Some(_) => "end every process the bot started before exiting (they are killed anyway)".to_string(),
        None => fix.to_string(),
    };
    Err(Failure { problem, sent, stderr: process.kill().await, fix })
}

/// A time in milliseconds, with fractions.
fn millis(time: Duration) -> f64 {
    time.as_secs_f64() * 1000.0
}

/// Whether every move came in time, over all the other checks.
fn in_time(context: &Context, outcomes: &[Outcome], ran: bool) -> Outcome {
    let limit = context.settings.limits.move_timeout.as_millis();
    let late: Vec<&str> = outcomes.iter().filter(|o| o.timing.timed_out).map(|o| o.name.as_str()).collect();
    let answers: usize = outcomes.iter().map(|o| o.timing.answers).sum();
    let slowest = outcomes.iter().map(|o| o.timing.slowest).max().unwrap_or_default();
    let least_clock = outcomes.iter().filter_map(|o| o.timing.least_clock).min();
    let clock = match (context.settings.limits.clock, least_clock) {
        (Some(control), Some(least)) => {
            format!("; least left on its clock after a move {:.1} ms (clock {control} ms)", millis(least))
        }
        _ => String::new(),
    };
    let verdict = if !ran {
        Verdict::Skip("the handshake failed".to_string())
    } else if late.is_empty() && answers == 0 {
        Verdict::Fail(Box::new(Failure {
            problem: "not one turn was answered in the other checks, so no answer time could be measured".to_string(),
            sent: Vec::new(),
            stderr: Vec::new(),
            fix: "make the bot answer each turn (the other checks say what went wrong): see protocol/PROTOCOL.md#move"
                .to_string(),
        }))
    } else if late.is_empty() {
        Verdict::Pass(format!(
            "slowest answer {:.1} ms of the {limit} ms allowed, over {answers} answers{clock}",
            millis(slowest)
        ))
    } else {
        Verdict::Fail(Box::new(Failure {
            problem: format!("no answer within {limit} ms in: {} (details there)", late.join(", ")),
            sent: Vec::new(),
            stderr: Vec::new(),
            fix: fix_for(FaultKind::Timeout),
        }))
    };
    Outcome { name: "answers-in-time".to_string(), expect: None, verdict, timing: Timing::default() }
}

/// Whether any process the bot started left its process group: `escaped`
/// of them did, of which `remaining` could not be killed.
pub fn leftovers(escaped: usize, remaining: usize) -> Outcome {
    let verdict = match (escaped, remaining) {
        (0, 0) => Verdict::Pass("no process left the bot's process group".to_string()),
        _ => {
            let fate = match remaining {
                0 => "all were killed with the bot".to_string(),
                n => format!("{n} could not be killed and are still running"),
            };
            Verdict::Fail(Box::new(Failure {
                problem: format!("{escaped} process(es) started by the bot left its process group; {fate}"),
                sent: Vec::new(),
                stderr: Vec::new(),
                fix: "keep child processes in the bot's process group (no setsid, setpgid or double fork), and end \
                      them before exiting: see protocol/PROTOCOL.md#the-life-of-a-bot-process"
                    .to_string(),
            }))
        }
    };
    Outcome { name: "no-leftovers".to_string(), expect: None, verdict, timing: Timing::default() }
}
