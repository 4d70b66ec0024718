//! SIGINT (Ctrl-C), SIGTERM and SIGHUP: the first stops the run (no new
//! games, every bot killed, finished games kept); a second one exits at once.
//!
//! The stop flag is set inside the signal handler itself, before anything
//! else can happen: a scheduler that signals the arena and its bots at once
//! (`kill 0`, a control group's kill, Slurm's `scancel`) may kill a bot a
//! moment before the arena hears of it, and the game that bot was playing
//! must then count as cut short by the stop, never as the bot's fault.

use crate::bot::registry::Registry;
use crate::terminal::console::errln;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Exit status after an interruption (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// The signals that stop a run.
const STOPPING: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

/// What the signals stop: the run in progress's stop flag and its bots.
type Target = (Arc<AtomicBool>, Registry);

/// The run that [`watch`] was last given.
static TARGET: Mutex<Option<Target>> = Mutex::new(None);

/// Whether a stopping signal has come, to this run or one before it.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Sets `cancel` in the handler of every stopping signal, and starts a thread
/// that then kills every bot process in `registry` (and, at a second signal,
/// exits at once). A process that runs one run after another (the rounds of
/// a learning league) calls it for each: the thread is started once and
/// acts on the run it was given last, and a run that begins after a signal
/// is stopped at once.
pub fn watch(cancel: Arc<AtomicBool>, registry: Registry) {
    for signal in STOPPING {
        if signal_hook::flag::register(signal, Arc::clone(&cancel)).is_err() {
            errln!("warning: cannot watch for signals; interrupting the arena may leave bot processes running");
            return;
        }
    }
    if STOPPED.load(Ordering::SeqCst) {
        cancel.store(true, Ordering::SeqCst);
    }
    let first = TARGET.lock().expect("signal target lock").replace((cancel, registry)).is_none();
    if !first {
        return;
    }
    listen(move |round| {
        STOPPED.store(true, Ordering::SeqCst);
        if let Some((cancel, registry)) = TARGET.lock().expect("signal target lock").as_ref() {
            cancel.store(true, Ordering::SeqCst);
            registry.kill_all();
        }
        if round == 0 {
            errln!("\ninterrupted: no new games start; finished games are kept (press Ctrl-C again to quit at once)");
        } else {
            std::process::exit(INTERRUPTED);
        }
    });
}

/// Whether a stopping signal has come since the arena started.
pub fn stopped() -> bool {
    STOPPED.load(Ordering::SeqCst)
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

/// Starts a thread that, at the first stopping signal, kills every bot
/// process in `registry` and anything they started that outlived them, then
/// exits with [`INTERRUPTED`]: for runs that have nothing to keep. The flag
/// that [`Interruption::settle`] waits on is set in the signal handler
/// itself, so the main thread never reports a run whose bots the signal
/// killed.
pub fn exit_on_interrupt(registry: Registry) -> Interruption {
    let interruption = Interruption::default();
    for signal in STOPPING {
        let _ = signal_hook::flag::register(signal, Arc::clone(&interruption.0));
    }
    listen(move |_| {
        registry.kill_all();
        crate::bot::orphans::sweep(&registry);
        errln!("\ninterrupted");
        std::process::exit(INTERRUPTED);
    });
    interruption
}

/// Calls `on_signal` with 0, 1, … at each stopping signal, on a thread of its own.
fn listen(mut on_signal: impl FnMut(u32) + Send + 'static) {
    // Registered before returning, so no early signal is missed.
    let Ok(mut signals) = Signals::new(STOPPING) else {
        errln!("warning: cannot watch for signals; interrupting the arena may leave bot processes running");
        return;
    };
    std::thread::spawn(move || {
        for (round, _) in (0..).zip(signals.forever()) {
            on_signal(round);
        }
    });
}

/// Makes a write past the file-size limit (a low soft `ulimit -f`) fail with
/// `EFBIG`, which the arena reports (see [`explain_write_error`]), rather
/// than kill the arena silently with SIGXFSZ. Bot processes get the default
/// back as they start (see [`restore_file_size_signal`]).
pub fn ignore_file_size_signal() {
    // SAFETY: ignoring a signal installs no handler.
    let _ =
        unsafe { nix::sys::signal::signal(nix::sys::signal::Signal::SIGXFSZ, nix::sys::signal::SigHandler::SigIgn) };
}

/// Gives SIGXFSZ its default action back. Meant for a child between fork
/// and exec: it makes one `signal` system call.
pub fn restore_file_size_signal() {
    // SAFETY: the default action installs no handler.
    let _ =
        unsafe { nix::sys::signal::signal(nix::sys::signal::Signal::SIGXFSZ, nix::sys::signal::SigHandler::SigDfl) };
}

/// `e`, a failed write, with what to do when it is the file-size limit.
pub fn explain_write_error(e: &std::io::Error) -> String {
    match e.raw_os_error() {
        Some(nix::libc::EFBIG) => {
            format!("{e}: the arena's file-size limit (ulimit -f) is reached; raise it (ulimit -f unlimited)")
        }
        _ => e.to_string(),
    }
}
