//! Messages for the operator on stderr that can never stop a run: a closed
//! terminal (SIGHUP, a dropped ssh session) or a closed pipe makes writing
//! fail, and the arena carries on without them.

use std::io::Write;

/// Writes `message` and a line break to stderr, ignoring any failure.
pub fn warn(message: &str) {
    let _ = writeln!(std::io::stderr(), "{message}");
}
