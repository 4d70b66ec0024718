//! Ctrl-C and SIGTERM: the first stops the match (no new games, every bot
//! killed, finished games kept); a second one exits at once.

use crate::bot::registry::Registry;
use crate::console::errln;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status after an interruption (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// Starts a thread that watches for SIGINT and SIGTERM.
pub fn watch(cancel: Arc<AtomicBool>, registry: Registry) {
    listen(move |round| {
        cancel.store(true, Ordering::SeqCst);
        registry.kill_all();
        if round == 0 {
            errln!("\ninterrupted: no new games start; finished games are kept (press Ctrl-C again to quit at once)");
        } else {
            std::process::exit(INTERRUPTED);
        }
    });
}

/// An interruption being handled by [`exit_on_interrupt`]'s thread.
#[derive(Debug, Clone, Default)]
pub struct Interruption(Arc<AtomicBool>);

impl Interruption {
    /// Returns at once unless an interruption is being handled; then waits
    /// for the handler to end the process, so that a run cut short by it (its
    /// bots killed) never exits with the status of a finished run.
    pub fn settle(&self) {
        while self.0.load(Ordering::SeqCst) {
            std::thread::park();
        }
    }
}

/// Starts a thread that, at the first SIGINT or SIGTERM, kills every bot
/// process in `registry` and anything they started that outlived them, then
/// exits with [`INTERRUPTED`]: for runs that have nothing to keep. The main
/// thread calls [`Interruption::settle`] before it reports anything.
pub fn exit_on_interrupt(registry: Registry) -> Interruption {
    let interruption = Interruption::default();
    let flag = Arc::clone(&interruption.0);
    listen(move |_| {
        flag.store(true, Ordering::SeqCst);
        registry.kill_all();
        crate::bot::orphans::sweep(&registry);
        errln!("\ninterrupted");
        std::process::exit(INTERRUPTED);
    });
    interruption
}

/// Calls `on_signal` with 0, 1, … at each SIGINT or SIGTERM, on a thread of its own.
fn listen(mut on_signal: impl FnMut(u32) + Send + 'static) {
    // Register the handlers before returning, so no early signal is missed.
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a single-threaded runtime starts");
    let streams = runtime.block_on(async {
        use tokio::signal::unix::{SignalKind, signal};
        (signal(SignalKind::interrupt()), signal(SignalKind::terminate()))
    });
    let (Ok(mut interrupt), Ok(mut terminate)) = streams else {
        errln!("warning: cannot watch for Ctrl-C; interrupting the arena may leave bot processes running");
        return;
    };
    std::thread::spawn(move || {
        runtime.block_on(async move {
            for round in 0.. {
                tokio::select! {
                    _ = interrupt.recv() => {}
                    _ = terminate.recv() => {}
                }
                on_signal(round);
            }
        });
    });
}
