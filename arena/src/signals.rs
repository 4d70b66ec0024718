//! Ctrl-C and SIGTERM: the first stops the match (no new games, every bot
//! killed, finished games kept); a second one exits at once.

use crate::bot::registry::Registry;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status after an interruption (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// Starts a thread that watches for SIGINT and SIGTERM.
pub fn watch(cancel: Arc<AtomicBool>, registry: Registry) {
    // Register the handlers before returning, so no early signal is missed.
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a single-threaded runtime starts");
    let streams = runtime.block_on(async {
        use tokio::signal::unix::{SignalKind, signal};
        (signal(SignalKind::interrupt()), signal(SignalKind::terminate()))
    });
    let (Ok(mut interrupt), Ok(mut terminate)) = streams else {
        eprintln!("warning: cannot watch for Ctrl-C; interrupting the arena may leave bot processes running");
        return;
    };
    std::thread::spawn(move || {
        runtime.block_on(async move {
            for round in 0.. {
                tokio::select! {
                    _ = interrupt.recv() => {}
                    _ = terminate.recv() => {}
                }
                cancel.store(true, Ordering::SeqCst);
                registry.kill_all();
                if round == 0 {
                    eprintln!("\ninterrupted: no new games start; finished games are kept (press Ctrl-C again to quit at once)");
                } else {
                    std::process::exit(INTERRUPTED);
                }
            }
        });
    });
}
