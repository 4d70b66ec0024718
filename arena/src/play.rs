//! Playing one game of a match with real processes.

use crate::bot::process::BotProcess;
use crate::fault::{Fault, FaultKind};
use crate::outcome::forfeit_ranks;
use crate::pool::Pool;
use crate::record::{FaultRecord, GameRecord, GameResult, Timed};
use crate::schedule::GameSpec;
use crate::session::{self, Envelope};
use crate::start_failures::GiveUp;
use crate::table::Table;
use game::Game;
use protocol::messages::{Forfeit, GameEnd, GameStart};
use std::time::Instant;

/// The record of a game of `G`.
pub type Record<G> = GameRecord<<G as Game>::Variant, <G as Game>::Event>;

/// The processes seated at one game; a seat is empty once its process faulted.
struct Seats {
    processes: Vec<Option<BotProcess>>,
    faults: Vec<FaultRecord>,
}

impl Seats {
    /// Kills the process in `seat` and records its fault.
    async fn fault(&mut self, seat: usize, bot: &str, fault: Fault) {
        let stderr = match self.processes[seat].take() {
            Some(process) => process.kill().await,
            None => Vec::new(),
        };
        self.faults.push(FaultRecord { seat, bot: bot.to_string(), kind: fault.kind, message: fault.message, stderr });
    }

    fn faulted_seats(&self) -> Vec<usize> {
        self.faults.iter().map(|f| f.seat).collect()
    }
}

/// Why a game could not be played at all, so that the run must stop: a bot
/// process could not be started (too few file descriptors or processes, no
/// memory, a resource limit the arena may not set, a full disk), which is
/// never the bot's doing and so never recorded as its fault; or a run that
/// means nothing without a bot gave up on it ([`GiveUp::StopRun`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplayable(pub String);

/// A seat whose moves come from elsewhere than a bot process: a person at
/// the terminal, for `arena play`. It sees the game as it likes (through
/// [`Game::view`], as its seat may see it) when it is asked to move and when
/// the game is over.
pub trait Person<G: Game> {
    /// The seat it plays.
    fn seat(&self) -> usize;
    /// Its name in the record.
    fn name(&self) -> &str;
    /// Its move in `game`, where its seat is to act: an index into
    /// [`Game::choices`], or `None` when it leaves the game.
    fn choose(&mut self, game: &G) -> impl Future<Output = Option<usize>>;
    /// Shows it the end of the game, which came out as `result`.
    fn game_over(&mut self, game: &G, result: &GameResult);
}

/// No person: every seat is played by a bot process.
enum Nobody {}

impl<G: Game> Person<G> for Nobody {
    fn seat(&self) -> usize {
        match *self {}
    }
    fn name(&self) -> &str {
        match *self {}
    }
    async fn choose(&mut self, _: &G) -> Option<usize> {
        match *self {}
    }
    fn game_over(&mut self, _: &G, _: &GameResult) {
        match *self {}
    }
}

/// Plays the game `spec` with processes from `pool` (starting any that are
/// missing), returns the healthy ones to the pool, and returns the record.
pub async fn play_game<G: Game>(table: &Table<G>, pool: &Pool, spec: &GameSpec) -> Result<Record<G>, Unplayable> {
    let record = play_seated::<G, Nobody>(table, pool, spec, None).await?;
    Ok(record.expect("only a person leaves a game unfinished"))
}

/// [`play_game`] with `person` (if any) in its seat instead of a bot
/// process (`spec.seats` is not read for that seat). `Ok(None)` when the
/// person leaves the game before its end: every process is then killed and
/// nothing is recorded.
pub async fn play_seated<G: Game, P: Person<G>>(
    table: &Table<G>,
    pool: &Pool,
    spec: &GameSpec,
    mut person: Option<&mut P>,
) -> Result<Option<Record<G>>, Unplayable> {
    let started = Instant::now();
    let seat_count = table.seats();
    let person_seat = person.as_ref().map(|person| person.seat());
    let names: Vec<String> = (0..seat_count)
        .map(|seat| match &person {
            Some(person) if person_seat == Some(seat) => person.name().to_string(),
            _ => table.bots[spec.seats[seat]].name.clone(),
        })
        .collect();
    let bot_name = |seat: usize| names[seat].as_str();
    let mut seats = Seats { processes: (0..seat_count).map(|_| None).collect(), faults: Vec::new() };

    // Take idle processes; start the missing ones all at once, then await their handshakes.
    let mut fresh = Vec::new();
    for seat in (0..seat_count).filter(|&seat| person_seat != Some(seat)) {
        let bot = spec.seats[seat];
        // Given up before an idle process is taken: none of its processes plays again.
        if let Some(why) = table.starts.given_up(bot) {
            match table.give_up {
                GiveUp::Never => {}
                GiveUp::ForfeitRest => {
                    let message = format!("not started: {why}; its remaining games are forfeited without starting it");
                    seats.fault(seat, bot_name(seat), Fault::new(FaultKind::NotStarted, message)).await;
                    continue;
                }
                GiveUp::StopRun => {
                    for process in seats.processes.iter_mut().filter_map(Option::take) {
                        process.kill().await;
                    }
                    return Err(Unplayable(format!("bot {:?} cannot be started: {why}", bot_name(seat))));
                }
            }
        }
        if let Some(process) = pool.take(bot, seat) {
            seats.processes[seat] = Some(process);
            continue;
        }
        match pool.start(&table.launch(bot, seat, pool.cpus())).await {
            Ok(process) => {
                seats.processes[seat] = Some(process);
                fresh.push(seat);
            }
            // Killed from outside as it started: the bot's death, as in its handshake.
            Err(fault) if fault.kind == FaultKind::Exited => {
                table.starts.failed(bot, &fault);
                seats.fault(seat, bot_name(seat), fault).await;
            }
            Err(fault) => {
                for process in seats.processes.iter_mut().filter_map(Option::take) {
                    process.kill().await;
                }
                return Err(Unplayable(format!(
                    "cannot start a process of bot {:?} for seat {seat}: {}",
                    bot_name(seat),
                    fault.message
                )));
            }
        }
    }
    for seat in fresh {
        let bot = spec.seats[seat];
        let process = seats.processes[seat].as_mut().expect("just started");
        match session::handshake::<G>(process, table.hello(bot, seat), table.limits.startup_timeout).await {
            Ok(_) => table.starts.started(bot),
            Err(fault) => {
                table.starts.failed(bot, &fault);
                seats.fault(seat, bot_name(seat), fault).await;
            }
        }
    }

    let mut game = table.new_game(spec);
    let mut times = MoveTimes::default();
    for (seat, process) in seats.processes.iter_mut().enumerate() {
        if let Some(process) = process {
            let start = GameStart { id: spec.id, seed: spec.bot_seeds[seat], seat };
            process.queue(&Envelope::<G>::GameStart(start));
        }
    }
    // A seat that could not start forfeits before the first move.
    if seats.faults.is_empty() {
        let mut delivered = 0;
        while let Some(seat) = game.to_act() {
            deliver(&game, &mut seats, &mut delivered);
            if let Some(person) = person.as_deref_mut().filter(|person| person.seat() == seat) {
                let asked = Instant::now();
                let Some(index) = person.choose(&game).await else {
                    for process in seats.processes.iter_mut().filter_map(Option::take) {
                        process.kill().await;
                    }
                    return Ok(None);
                };
                let before = game.event_count();
                game.play(index).expect("a person chooses one of the legal moves");
                times.note(before, asked.elapsed().as_micros() as u64);
                continue;
            }
            let process =
                seats.processes[seat].as_mut().expect("only faulted seats are empty, and a fault ends the game");
            match session::ask_move(process, &game, seat, table.limits.move_timeout).await {
                Ok(decision) => {
                    let before = game.event_count();
                    if let Err(illegal) = game.play(decision.index) {
                        let message = format!("the game refused move {} of {}", illegal.index, illegal.legal);
                        seats.fault(seat, bot_name(seat), Fault::new(FaultKind::IllegalMove, message)).await;
                        break;
                    }
                    times.note(before, decision.elapsed.as_micros() as u64);
                }
                Err(fault) => {
                    seats.fault(seat, bot_name(seat), fault).await;
                    break;
                }
            }
        }
        deliver(&game, &mut seats, &mut delivered);
    }

    let result = game_result(&game, &table.teams, &seats.faulted_seats());
    if let Some(person) = person {
        person.game_over(&game, &result);
    }
    let forfeits: Vec<Forfeit> =
        seats.faults.iter().map(|f| Forfeit { seat: f.seat, kind: f.kind.name().to_string() }).collect();
    for (seat, process) in seats.processes.iter_mut().enumerate() {
        if let Some(mut process) = process.take() {
            let end = GameEnd {
                id: spec.id,
                reason: result.reason.clone(),
                scores: result.scores.clone(),
                ranks: result.ranks.clone(),
                forfeits: forfeits.clone(),
            };
            process.queue(&Envelope::<G>::GameEnd(end));
            match table.process_per_game {
                true => pool.retire(process).await,
                false => pool.put(spec.seats[seat], seat, process),
            }
        }
    }

    Ok(Some(GameRecord {
        id: spec.id,
        game: G::NAME.to_string(),
        deal: spec.deal,
        arrangement: spec.arrangement,
        seed: spec.seed,
        preset: table.setups.is_some(),
        variant: table.variant.clone(),
        bots: (0..seat_count).map(|seat| bot_name(seat).to_string()).collect(),
        bot_seeds: spec.bot_seeds.clone(),
        events: times.attach(game.events()),
        result,
        faults: seats.faults,
        duration_ms: started.elapsed().as_millis() as u64,
    }))
}

/// How a game came out: the game's own outcome, or, when any seat faulted
/// (`faulted`, the seats that did), a forfeit by the sides of those seats.
pub fn game_result<G: Game>(game: &G, teams: &[Vec<usize>], faulted: &[usize]) -> GameResult {
    match (faulted.is_empty(), game.outcome()) {
        (true, Some(outcome)) => {
            GameResult { reason: outcome.reason.to_string(), scores: game.scores(), ranks: outcome.ranks }
        }
        _ => {
            let scores = game.forfeit_scores(faulted);
            let ranks = forfeit_ranks(teams, &scores, faulted);
            GameResult { reason: "forfeit".to_string(), scores, ranks }
        }
    }
}

/// The thinking time of each move of a game, kept by the index of the event
/// that is the move (the first event [`Game::play`] appends).
#[derive(Debug, Default)]
pub struct MoveTimes(Vec<Option<u64>>);

impl MoveTimes {
    /// Notes that the move recorded as event `at` took `time_us` microseconds.
    pub fn note(&mut self, at: usize, time_us: u64) {
        self.0.resize(at, None);
        self.0.push(Some(time_us));
    }

    /// Every event, with its time when it was a move.
    pub fn attach<E>(mut self, events: Vec<E>) -> Vec<Timed<E>> {
        self.0.resize(events.len(), None);
        events.into_iter().zip(self.0).map(|(event, time_us)| Timed { event, time_us }).collect()
    }
}

/// Queues every event since `delivered` to each seat that may see it.
fn deliver<G: Game>(game: &G, seats: &mut Seats, delivered: &mut usize) {
    let events = game.events_since(*delivered);
    for event in &events {
        for (seat, process) in seats.processes.iter_mut().enumerate() {
            if let (Some(process), Some(view)) = (process.as_mut(), game.view(event, seat)) {
                process.queue(&view);
            }
        }
    }
    *delivered = game.event_count();
}
