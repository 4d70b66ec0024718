//! Playing one game of a match with real processes.

use crate::bot::process::BotProcess;
use crate::fault::Fault;
use crate::game::Game;
use crate::outcome::forfeit_ranks;
use crate::pool::Pool;
use crate::record::{FaultRecord, GameRecord, GameResult, Timed};
use crate::schedule::GameSpec;
use crate::seeds;
use crate::session::{self, Envelope};
use crate::table::Table;
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

/// Plays the game `spec` with processes from `pool` (starting any that are
/// missing), returns the healthy ones to the pool, and returns the record.
pub async fn play_game<G: Game>(table: &Table<G>, pool: &Pool, spec: &GameSpec) -> Record<G> {
    let started = Instant::now();
    let seat_count = table.seats();
    let bot_name = |seat: usize| table.bots[spec.seats[seat]].name.as_str();
    let mut seats = Seats { processes: (0..seat_count).map(|_| None).collect(), faults: Vec::new() };

    // Take idle processes; start the missing ones all at once, then await their handshakes.
    let mut fresh = Vec::new();
    for seat in 0..seat_count {
        let bot = spec.seats[seat];
        if let Some(process) = pool.take(bot, seat) {
            seats.processes[seat] = Some(process);
            continue;
        }
        match pool.start(&table.launch(bot, seat, pool.cpu())).await {
            Ok(process) => {
                seats.processes[seat] = Some(process);
                fresh.push(seat);
            }
            Err(fault) => seats.fault(seat, bot_name(seat), fault).await,
        }
    }
    for seat in fresh {
        let hello = table.hello(spec.seats[seat], seat);
        let process = seats.processes[seat].as_mut().expect("just started");
        if let Err(fault) = session::handshake::<G>(process, hello, table.limits.startup_timeout).await {
            seats.fault(seat, bot_name(seat), fault).await;
        }
    }

    let bot_seeds: Vec<u64> = (0..seat_count).map(|seat| seeds::bot_seed(table.seed, spec.id, seat)).collect();
    let mut game = table.new_game(spec);
    let mut times = MoveTimes::default();
    for (seat, process) in seats.processes.iter_mut().enumerate() {
        if let Some(process) = process {
            let start = GameStart { id: spec.id, seed: bot_seeds[seat], seat };
            process.queue(&Envelope::<G>::GameStart(start));
        }
    }
    // A seat that could not start forfeits before the first move.
    if seats.faults.is_empty() {
        let mut delivered = 0;
        while let Some(seat) = game.to_act() {
            deliver(&game, &mut seats, &mut delivered);
            let process =
                seats.processes[seat].as_mut().expect("only faulted seats are empty, and a fault ends the game");
            match session::ask_move(process, &game, seat, table.limits.move_timeout).await {
                Ok(decision) => {
                    let before = game.event_count();
                    if let Err(illegal) = game.play(decision.index) {
                        let message = format!("the game refused move {} of {}", illegal.index, illegal.legal);
                        seats
                            .fault(seat, bot_name(seat), Fault::new(crate::fault::FaultKind::IllegalMove, message))
                            .await;
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
            pool.put(spec.seats[seat], seat, process);
        }
    }

    GameRecord {
        id: spec.id,
        game: G::NAME.to_string(),
        deal: spec.deal,
        rotation: spec.rotation,
        seed: spec.seed,
        preset: table.setups.is_some(),
        variant: table.variant.clone(),
        bots: (0..seat_count).map(|seat| bot_name(seat).to_string()).collect(),
        bot_seeds,
        events: times.attach(game.events()),
        result,
        faults: seats.faults,
        duration_ms: started.elapsed().as_millis() as u64,
    }
}

/// How a game came out: the game's own outcome, or, when any seat faulted
/// (`faulted`, the seats that did), a forfeit by the sides of those seats.
pub fn game_result<G: Game>(game: &G, teams: &[Vec<usize>], faulted: &[usize]) -> GameResult {
    let scores = game.scores();
    match (faulted.is_empty(), game.outcome()) {
        (true, Some(outcome)) => GameResult { reason: outcome.reason.to_string(), scores, ranks: outcome.ranks },
        _ => {
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
