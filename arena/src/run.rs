//! Running a whole match: worker threads play games from the schedule while
//! the calling thread records each finished game as it arrives.
//!
//! Each worker is one thread with a single-threaded async runtime; it plays
//! its share of the concurrent games and keeps its own idle processes, so a
//! game's bot processes are always driven from the same thread.

use crate::bot::orphans;
use crate::bot::process::BotProcess;
use crate::game::Game;
use crate::output::OutDir;
use crate::play::play_game;
use crate::pool::Pool;
use crate::record::GameSummary;
use crate::schedule::GameSpec;
use crate::session::Envelope;
use crate::standings::Standings;
use crate::table::Table;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A finished game, as a worker hands it over.
pub struct Finished {
    /// The game record, serialized (one line without the newline).
    pub line: String,
    /// What standings need.
    pub summary: GameSummary,
    /// How many decisions the bots made.
    pub decisions: usize,
}

/// What a run produced.
pub struct MatchReport {
    /// Standings over all games counted (those of earlier runs included).
    pub standings: Standings,
    /// Games finished in this run.
    pub games: u64,
    /// Decisions made by bots in them.
    pub decisions: u64,
    /// Wall-clock time of the whole match.
    pub elapsed: Duration,
    /// Whether the match was stopped before its end.
    pub interrupted: bool,
}

/// Plays every game of `schedule` with up to `concurrency` games at once,
/// adding each finished game to `standings` once it is on disk in `out`.
///
/// `observe` sees every finished game as it is counted. Setting `cancel`
/// stops the run: no game starts after it, and games still in flight are
/// dropped (the caller kills their processes through the registry).
pub fn run_games<G: Game>(
    table: Table<G>,
    schedule: Vec<GameSpec>,
    concurrency: usize,
    mut standings: Standings,
    mut out: Option<OutDir>,
    cancel: Arc<AtomicBool>,
    mut observe: impl FnMut(&Finished, &Standings),
) -> Result<MatchReport, String> {
    let started = Instant::now();
    orphans::adopt();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let concurrency = concurrency.max(1).min(schedule.len().max(1));
    let threads = concurrency.min(cores);
    let table = Arc::new(table);
    let schedule = Arc::new(schedule);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<Finished>();
    let mut games = 0;
    let mut decisions = 0;
    let mut write_error = None;
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let slots = concurrency / threads + usize::from(worker < concurrency % threads);
            let (table, schedule, next, cancel, tx) =
                (Arc::clone(&table), Arc::clone(&schedule), Arc::clone(&next), Arc::clone(&cancel), tx.clone());
            scope.spawn(move || run_worker(table, schedule, next, cancel, tx, slots));
        }
        drop(tx);
        while let Ok(first) = rx.recv() {
            // Group commit: everything that finished meanwhile goes to disk with one sync.
            let batch: Vec<Finished> = std::iter::once(first).chain(rx.try_iter()).collect();
            if write_error.is_some() {
                continue;
            }
            if let Some(out) = out.as_mut()
                && let Err(e) = out.append(batch.iter().map(|f| (f.summary.id, f.line.as_str())))
            {
                // Without a place to record games there is no point going on.
                write_error =
                    Some(format!("cannot append to {}: {e}", out.path().join(crate::output::GAMES).display()));
                cancel.store(true, Ordering::SeqCst);
                table.registry.kill_all();
                continue;
            }
            for finished in &batch {
                standings.add(&finished.summary);
                games += 1;
                decisions += finished.decisions as u64;
                observe(finished, &standings);
            }
        }
    });
    // Every bot process is gone now; what is left are their escaped descendants.
    orphans::sweep(&table.registry);
    if let Some(e) = write_error {
        return Err(e);
    }
    let interrupted = cancel.load(Ordering::SeqCst);
    if let Some(out) = out {
        out.finish(&standings.to_json(G::NAME, table.seed))
            .map_err(|e| format!("cannot finish the output directory: {e}"))?;
    }
    Ok(MatchReport { standings, games, decisions, elapsed: started.elapsed(), interrupted })
}

fn run_worker<G: Game>(
    table: Arc<Table<G>>,
    schedule: Arc<Vec<GameSpec>>,
    next: Arc<AtomicUsize>,
    cancel: Arc<AtomicBool>,
    tx: mpsc::Sender<Finished>,
    slots: usize,
) {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a single-threaded runtime starts");
    runtime.block_on(async move {
        let pool = Arc::new(Pool::default());
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..slots {
            let (table, schedule, next, cancel, tx, pool) = (
                Arc::clone(&table),
                Arc::clone(&schedule),
                Arc::clone(&next),
                Arc::clone(&cancel),
                tx.clone(),
                Arc::clone(&pool),
            );
            tasks.spawn(async move {
                while !cancel.load(Ordering::SeqCst) {
                    let Some(spec) = schedule.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
                    let record = play_game(&table, &pool, spec).await;
                    if cancel.load(Ordering::SeqCst) {
                        break; // in flight when the match was stopped: not a real result
                    }
                    let finished = Finished {
                        line: serde_json::to_string(&record).expect("records serialize"),
                        summary: record.summary(),
                        decisions: record.decisions(),
                    };
                    if tx.send(finished).is_err() {
                        break;
                    }
                }
            });
        }
        while tasks.join_next().await.is_some() {}
        let processes = pool.drain();
        if cancel.load(Ordering::SeqCst) {
            for process in processes {
                process.kill().await;
            }
        } else {
            close_all::<G>(processes, table.limits.exit_grace).await;
        }
    });
}

/// Sends `bye` to every process and waits (up to `grace`) for all of them to exit.
async fn close_all<G: Game>(processes: Vec<BotProcess>, grace: Duration) {
    let mut closing = tokio::task::JoinSet::new();
    for mut process in processes {
        process.queue(&Envelope::<G>::Bye);
        closing.spawn(process.close(grace));
    }
    while closing.join_next().await.is_some() {}
}
