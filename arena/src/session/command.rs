//! What every command's session shares: the arena's program as it was run,
//! the working directory, a random seed, the failure of a stopped run that
//! says how to continue it.

use super::exit::{Failure, internal};
use std::path::PathBuf;

/// The arena's program as it was run (`target/release/arena`, or `arena`
/// when found on PATH), quoted for a shell: what the commands it suggests start with.
pub fn program() -> String {
    let typed = std::env::args_os().next().map(|arg| arg.to_string_lossy().into_owned());
    shell_words::quote(typed.as_deref().unwrap_or("arena")).into_owned()
}

/// The working directory.
///
/// # Errors
/// When it cannot be read.
pub fn current_dir() -> Result<PathBuf, Failure> {
    std::env::current_dir().map_err(|e| internal(format!("cannot read the working directory: {e}")))
}

/// A seed from the operating system's randomness, for a run given none.
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    // RandomState is seeded from the operating system's randomness.
    RandomState::new().hash_one(std::time::SystemTime::now())
}

/// The failure of a run that stopped, saying how to continue it with
/// `arena COMMAND --resume` when it wrote to `out` (the arena named as it was run).
pub fn resumable(error: crate::run::execute::RunError, command: &str, out: Option<&std::path::Path>) -> Failure {
    match out {
        Some(dir) => internal(format!("{error}; continue with: {} {command} --resume {}", program(), dir.display())),
        None => internal(error.to_string()),
    }
}
