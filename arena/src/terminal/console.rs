//! The arena's own stdout and stderr, either of which may be a pipe whose
//! reader has gone away (`arena league … 2>&1 >/dev/null | head -c 10`,
//! `arena verify … | head`), a closed terminal or a full disk.
//!
//! Nothing written here can stop or hang a run: what cannot be written to
//! stderr (progress, faults, warnings) is dropped, and a write to stdout
//! returns its error, for the command to decide. A run goes on without its
//! report; a command whose job is its output stops quietly when its reader
//! has gone ([`crate::cli`] maps that to exit status 141, as a shell reports
//! a program killed by SIGPIPE).

use std::fmt;
use std::io::{self, Write};

/// Writes to stderr; what cannot be written is dropped.
pub fn err(args: fmt::Arguments) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// Writes to stdout and flushes it.
pub fn out(args: fmt::Arguments) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_fmt(args)?;
    stdout.flush()
}

/// Writes bytes to stdout and flushes it.
pub fn out_bytes(bytes: &[u8]) -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(bytes)?;
    stdout.flush()
}

/// The width of the terminal that stdout is, in columns; `None` when stdout
/// is not a terminal (a pipe or a file takes lines of any length).
pub fn stdout_width() -> Option<usize> {
    use std::io::IsTerminal;
    let table = comfy_table::Table::new();
    io::stdout().is_terminal().then(|| table.width()).flatten().map(usize::from)
}

/// `eprintln!` that never panics: a line on stderr, dropped if it cannot be written.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::terminal::console::err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `println!` that returns the error (an [`std::io::Result`]) instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::terminal::console::out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {errln, outln};
